//! Moves a bundle's recorded times so that its "now" is the seeding's now.
//!
//! Offline, doctor's "now" is the newest timestamp a bundle mentions (src/snapshot/bundle.rs
//! `newest_timestamp`: the events' times, the pods' creation and termination times, the
//! FlinkDeployments' creation), so the same bundle gives the same diagnosis on any day. Live, "now"
//! is the clock. A bundle seeded hours after it was recorded would then show every status time
//! hours old: a FlinkDeployment recorded while DEPLOYING is past the operator's readiness timeout
//! (FLK401 'stuck'), which the recording's own time does not show. So the seeder shifts every
//! time in a status, and an Event's times, by how long ago the bundle's "now" was.
//!
//! Shifted: RFC 3339 strings anywhere in a `status` or an Event (outside its metadata), and the
//! Flink operator's epoch-millisecond times (`reconciliationTimestamp`, `jobStatus.startTime`,
//! `updateTime`, a savepoint's `timeStamp`, ...: a number or a string of digits under a key that
//! ends in `time` or `timestamp`).

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde_json::Value;

use crate::seed::BundleObject;

/// The bundle's "now", as doctor reads it offline (src/snapshot/bundle.rs `newest_timestamp`).
pub fn bundle_now(objects: &[BundleObject]) -> Option<DateTime<Utc>> {
    let at = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_str).and_then(parse);
    let mut newest: Option<DateTime<Utc>> = None;
    let mut see = |t: Option<DateTime<Utc>>| {
        if let Some(t) = t {
            newest = Some(newest.map_or(t, |n| n.max(t)));
        }
    };
    for o in objects {
        let v = &o.value;
        match o.kind() {
            // src/snapshot/index.rs `event_time`: the first of these an Event has.
            "Event" => see(at(v, "/lastTimestamp")
                .or_else(|| at(v, "/eventTime"))
                .or_else(|| at(v, "/firstTimestamp"))
                .or_else(|| at(v, "/metadata/creationTimestamp"))),
            "Pod" => {
                see(at(v, "/metadata/creationTimestamp"));
                for list in ["containerStatuses", "initContainerStatuses"] {
                    let list = format!("/status/{list}");
                    for c in v
                        .pointer(&list)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        see(at(c, "/state/terminated/finishedAt"));
                        see(at(c, "/lastState/terminated/finishedAt"));
                    }
                }
            }
            "FlinkDeployment" => see(at(v, "/metadata/creationTimestamp")),
            _ => {}
        }
    }
    newest
}

fn parse(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Shifts every time in `v` (a status, or an Event without its metadata) by `by`.
pub fn shift(v: &mut Value, by: Duration) {
    shift_under(v, "", by);
}

fn shift_under(v: &mut Value, key: &str, by: Duration) {
    let lower = key.to_ascii_lowercase();
    let millis_key = lower.ends_with("time") || lower.ends_with("timestamp");
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                shift_under(x, k, by);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| shift_under(x, key, by)),
        Value::String(s) => {
            if let Some(t) = parse(s) {
                // The precision the recording had: metav1.Time has seconds, MicroTime micros.
                let fmt = if s.contains('.') {
                    SecondsFormat::Micros
                } else {
                    SecondsFormat::Secs
                };
                *s = (t + by).to_rfc3339_opts(fmt, true);
            } else if millis_key && is_epoch_millis_text(s) {
                if let Ok(ms) = s.parse::<i64>() {
                    *s = (ms + by.num_milliseconds()).to_string();
                }
            }
        }
        Value::Number(n) if millis_key => {
            if let Some(ms) = n.as_i64().filter(|ms| is_epoch_millis(*ms)) {
                *v = Value::from(ms + by.num_milliseconds());
            }
        }
        _ => {}
    }
}

/// Epoch milliseconds of this century's first half (2001..2286): a count, a port or a duration in
/// seconds is far smaller.
fn is_epoch_millis(ms: i64) -> bool {
    (1_000_000_000_000..10_000_000_000_000).contains(&ms)
}

fn is_epoch_millis_text(s: &str) -> bool {
    s.len() == 13 && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::PathBuf;

    fn obj(v: Value) -> BundleObject {
        BundleObject {
            value: v,
            file: PathBuf::from("x.yaml"),
        }
    }

    #[test]
    fn the_bundle_s_now_is_its_newest_event_pod_or_flinkdeployment_time() {
        let objects = vec![
            obj(
                json!({"kind": "Event", "lastTimestamp": "2026-12-05T11:00:00Z",
                       "firstTimestamp": "2026-12-05T12:00:00Z"}),
            ),
            obj(
                json!({"kind": "Pod", "metadata": {"creationTimestamp": "2026-12-05T10:00:00Z"},
                       "status": {"containerStatuses": [{"lastState": {"terminated":
                           {"finishedAt": "2026-12-05T11:30:00Z"}}}]}}),
            ),
            obj(
                json!({"kind": "FlinkDeployment", "metadata": {"creationTimestamp": "2026-12-05T09:00:00Z"}}),
            ),
            // Not read by doctor for "now": a ConfigMap's creation.
            obj(
                json!({"kind": "ConfigMap", "metadata": {"creationTimestamp": "2026-12-06T00:00:00Z"}}),
            ),
        ];
        // lastTimestamp wins over firstTimestamp, as in index::event_time.
        assert_eq!(
            bundle_now(&objects).unwrap().to_rfc3339(),
            "2026-12-05T11:30:00+00:00"
        );
        assert_eq!(bundle_now(&[]), None);
    }

    #[test]
    fn status_times_move_and_nothing_else_does() {
        let mut status = json!({
            "jobManagerDeploymentStatus": "DEPLOYING",
            "reconciliationStatus": {"reconciliationTimestamp": 1796466326525_i64, "state": "DEPLOYED"},
            "jobStatus": {"startTime": "1796466326000", "jobId": "2295896b3d80207a96420a70c0eca183"},
            "conditions": [{"lastTransitionTime": "2026-12-05T11:00:00Z", "message": "at 2026-12-05T11:00:00Z"}],
            "containerStatuses": [{"restartCount": 3, "state": {"running": {"startedAt": "2026-12-05T11:00:00Z"}}}],
            "eventTime": "2026-12-05T11:00:00.123456Z",
            "observedGeneration": 2,
            "taskManager": {"replicas": 1}
        });
        shift(&mut status, Duration::hours(2));
        assert_eq!(
            status,
            json!({
                "jobManagerDeploymentStatus": "DEPLOYING",
                "reconciliationStatus": {"reconciliationTimestamp": 1796473526525_i64, "state": "DEPLOYED"},
                "jobStatus": {"startTime": "1796473526000", "jobId": "2295896b3d80207a96420a70c0eca183"},
                "conditions": [{"lastTransitionTime": "2026-12-05T13:00:00Z", "message": "at 2026-12-05T11:00:00Z"}],
                "containerStatuses": [{"restartCount": 3, "state": {"running": {"startedAt": "2026-12-05T13:00:00Z"}}}],
                "eventTime": "2026-12-05T13:00:00.123456Z",
                "observedGeneration": 2,
                "taskManager": {"replicas": 1}
            })
        );
    }
}

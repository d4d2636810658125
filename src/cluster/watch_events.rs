//! `watch --post-events`: a Kubernetes Event on a Flink resource when a root cause appears on it
//! or clears, the watch's only write. Which transitions are posted is decided here without I/O
//! ([`Poster::due`]: de-duplicated, rate-limited); [`post`] creates the Event.

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use kube::api::{Api, PostParams};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A root cause on a Flink resource: the resource and the rule.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cause {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub rule: String,
    /// The finding's title, for the Event's message.
    pub title: String,
}

impl Cause {
    fn key(&self) -> Key {
        (
            self.kind.clone(),
            self.namespace.clone(),
            self.name.clone(),
            self.rule.clone(),
        )
    }
}

/// A change to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub cause: Cause,
    /// `true`: the root cause appeared; `false`: it cleared.
    pub appeared: bool,
}

/// At most this many Events a minute, all resources together.
pub const PER_MINUTE: usize = 20;
/// The same transition of the same cause on the same resource is posted at most once in this
/// many seconds (a cause that flaps posts once, not at every flap).
pub const REPEAT_AFTER_SECONDS: i64 = 600;

/// A cause's resource (kind, namespace, name) and rule.
type Key = (String, String, String, String);

/// What was posted, to de-duplicate and rate-limit.
#[derive(Default)]
pub struct Poster {
    held: BTreeSet<Key>,
    last: BTreeMap<(Key, bool), DateTime<Utc>>,
    recent: VecDeque<DateTime<Utc>>,
}

impl Poster {
    /// The transitions from the root causes held before to `now_causes`, those due to be posted
    /// at `now`. A cause already held is not posted again; one that appeared or cleared the same
    /// way within `REPEAT_AFTER_SECONDS`, or beyond `PER_MINUTE`, is dropped (the metrics still
    /// show it).
    pub fn due(&mut self, now_causes: &[Cause], now: DateTime<Utc>) -> Vec<Transition> {
        let mut by_key: BTreeMap<_, &Cause> = BTreeMap::new();
        for c in now_causes {
            by_key.entry(c.key()).or_insert(c);
        }
        let mut changes = Vec::new();
        for (key, cause) in &by_key {
            if !self.held.contains(key) {
                changes.push(Transition {
                    cause: (*cause).clone(),
                    appeared: true,
                });
            }
        }
        for key in &self.held {
            if !by_key.contains_key(key) {
                let (kind, namespace, name, rule) = key.clone();
                changes.push(Transition {
                    cause: Cause {
                        kind,
                        namespace,
                        name,
                        rule,
                        title: String::new(),
                    },
                    appeared: false,
                });
            }
        }
        self.held = by_key.keys().cloned().collect();
        while self
            .recent
            .front()
            .is_some_and(|t| (now - *t).num_seconds() >= 60)
        {
            self.recent.pop_front();
        }
        let mut out = Vec::new();
        for t in changes {
            let k = (t.cause.key(), t.appeared);
            if self
                .last
                .get(&k)
                .is_some_and(|at| (now - *at).num_seconds() < REPEAT_AFTER_SECONDS)
            {
                continue;
            }
            if self.recent.len() >= PER_MINUTE {
                continue;
            }
            self.recent.push_back(now);
            self.last.insert(k, now);
            out.push(t);
        }
        // Forget what is long past, so the map stays as large as what changes.
        self.last
            .retain(|_, at| (now - *at).num_seconds() < REPEAT_AFTER_SECONDS);
        out
    }
}

/// The Event of a transition, on the resource (`api_version` its kind's, `uid` when known, so
/// that `kubectl describe` shows it).
pub fn event_of(
    t: &Transition,
    api_version: &str,
    uid: Option<&str>,
    instance: &str,
    now: DateTime<Utc>,
) -> Event {
    let c = &t.cause;
    let (reason, type_, message) = if t.appeared {
        (
            "FlinkRootCause",
            "Warning",
            format!(
                "{}: {} (kubectl flink doctor {} -n {})",
                c.rule,
                c.title,
                crate::shell::quote(&c.name),
                crate::shell::quote(&c.namespace)
            ),
        )
    } else {
        (
            "FlinkRootCauseCleared",
            "Normal",
            format!("{} no longer found", c.rule),
        )
    };
    let ts = jiff::Timestamp::from_microsecond(now.timestamp_micros()).unwrap_or_default();
    Event {
        metadata: ObjectMeta {
            generate_name: Some(format!("{}.", c.name)),
            namespace: Some(c.namespace.clone()),
            ..ObjectMeta::default()
        },
        involved_object: ObjectReference {
            api_version: Some(api_version.to_string()),
            kind: Some(c.kind.clone()),
            name: Some(c.name.clone()),
            namespace: Some(c.namespace.clone()),
            uid: uid.map(str::to_string),
            ..ObjectReference::default()
        },
        reason: Some(reason.into()),
        message: Some(message),
        type_: Some(type_.into()),
        count: Some(1),
        first_timestamp: Some(Time(ts)),
        last_timestamp: Some(Time(ts)),
        event_time: Some(MicroTime(ts)),
        action: Some(if t.appeared { "Diagnosed" } else { "Cleared" }.into()),
        reporting_component: Some("kubectl-flink".into()),
        reporting_instance: Some(instance.to_string()),
        source: Some(EventSource {
            component: Some("kubectl-flink".into()),
            host: None,
        }),
        ..Event::default()
    }
}

/// Creates the Event (`create events` in its namespace).
pub async fn post(c: &kube::Client, event: &Event) -> Result<(), kube::Error> {
    let ns = event.metadata.namespace.as_deref().unwrap_or("default");
    let api: Api<Event> = Api::namespaced(c.clone(), ns);
    api.create(&PostParams::default(), event).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(name: &str, rule: &str) -> Cause {
        Cause {
            kind: "FlinkDeployment".into(),
            namespace: "prod".into(),
            name: name.into(),
            rule: rule.into(),
            title: "The JobManager is OOMKilled".into(),
        }
    }

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn a_cause_is_posted_when_it_appears_and_when_it_clears_once_each() {
        let mut p = Poster::default();
        let a = cause("orders", "FLK101");
        let due = p.due(std::slice::from_ref(&a), at(0));
        assert_eq!(due.len(), 1);
        assert!(due[0].appeared);
        // Still there: nothing new.
        assert!(p.due(std::slice::from_ref(&a), at(5)).is_empty());
        // Twice in one diagnosis (two findings, one cause): held once.
        assert!(p.due(&[a.clone(), a.clone()], at(6)).is_empty());
        let due = p.due(&[], at(10));
        assert_eq!(due.len(), 1);
        assert!(!due[0].appeared);
        assert_eq!(due[0].cause.rule, "FLK101");
        assert!(p.due(&[], at(11)).is_empty());
    }

    #[test]
    fn a_flapping_cause_posts_once_per_repeat_window() {
        let mut p = Poster::default();
        let a = cause("orders", "FLK101");
        assert_eq!(p.due(std::slice::from_ref(&a), at(0)).len(), 1);
        assert_eq!(p.due(&[], at(10)).len(), 1);
        // Back within the window: not posted again.
        assert!(p.due(std::slice::from_ref(&a), at(20)).is_empty());
        assert!(p.due(&[], at(30)).is_empty());
        // After the window: posted.
        assert_eq!(
            p.due(std::slice::from_ref(&a), at(REPEAT_AFTER_SECONDS + 1))
                .len(),
            1
        );
    }

    #[test]
    fn at_most_per_minute_events_are_posted_in_a_minute() {
        let mut p = Poster::default();
        let many: Vec<Cause> = (0..50).map(|i| cause(&format!("d{i}"), "FLK101")).collect();
        assert_eq!(p.due(&many, at(0)).len(), PER_MINUTE);
        // The next minute: the ones dropped are held (not new), so not posted; a new one is.
        let mut more = many.clone();
        more.push(cause("late", "FLK102"));
        assert_eq!(p.due(&more, at(61)).len(), 1);
    }

    #[test]
    fn the_event_names_the_resource_and_the_rule() {
        let t = Transition {
            cause: cause("orders", "FLK101"),
            appeared: true,
        };
        let e = event_of(
            &t,
            "flink.apache.org/v1beta1",
            Some("u-1"),
            "watch-0",
            at(0),
        );
        assert_eq!(e.involved_object.kind.as_deref(), Some("FlinkDeployment"));
        assert_eq!(e.involved_object.uid.as_deref(), Some("u-1"));
        assert_eq!(e.metadata.namespace.as_deref(), Some("prod"));
        assert_eq!(e.type_.as_deref(), Some("Warning"));
        assert_eq!(e.reason.as_deref(), Some("FlinkRootCause"));
        assert!(e.message.as_deref().unwrap().starts_with("FLK101: "));
    }
}

//! Gather: read what the diagnosis needs, concurrently, into a Snapshot.
//!
//! Wave 1 lists every kind once per scope (label-selected where Flink labels its objects, paged).
//! Wave 2 fetches what wave 1 showed is needed: logs of failing containers (current and previous,
//! bounded tail), the ResourceQuotas that refused a pod (by name), then access reviews for the
//! ServiceAccounts those logs say were refused.
//! A 403, a 404 (CRD not installed) or a timeout becomes a Gap; only an unreachable cluster, or
//! nothing readable at all, is an error.

use super::client::Connection;
use super::list::{api_resource, list_into, paged};
use crate::error::Error;
use crate::flink::kinds::{Kind, Select, LISTED};
use crate::flink::mode::Mode;
use crate::snapshot::{Gap, GapReason, LogKey, Snapshot};
use futures::stream::{self, StreamExt};
use k8s_openapi::api::core::v1::ResourceQuota;
use kube::api::{Api, DynamicObject, ListParams, LogParams};
use serde::de::DeserializeOwned;
use std::fmt::Debug;

const LOG_FETCH_CONCURRENCY: usize = 8;

/// Bytes read at most from one container log: the tail of `--log-tail` lines, but never more
/// than this (a log of 1 MB lines would otherwise cost hundreds of MB); the API server stops at
/// `limitBytes`.
pub const LOG_LIMIT_BYTES: i64 = 8 << 20;

/// The request for a container log the diagnosis reads: its tail, bounded in lines and bytes.
pub(super) fn log_params(key: &LogKey, tail_lines: i64) -> LogParams {
    LogParams {
        container: Some(key.container.clone()),
        previous: key.previous,
        tail_lines: Some(tail_lines),
        limit_bytes: Some(LOG_LIMIT_BYTES),
        ..LogParams::default()
    }
}

pub async fn gather(
    cluster: &Connection,
    name: Option<&str>,
    log_tail: i64,
) -> Result<Snapshot, Error> {
    let ns = cluster.namespace.as_deref();
    let c = &cluster.client;
    // Flink's pods and Deployments carry `app=<cluster-id>` and `component=jobmanager|taskmanager`
    // (the FlinkCluster's too, beside `app=flink`; Lyft's are read by `modes`).
    let selector = Mode::Operator.selector(name, None);
    let mut gaps = Vec::new();

    // Wave 1: every kind of `kinds::LISTED`, concurrently, each into its snapshot field.
    let lists = futures::future::join_all(LISTED.iter().map(|l| {
        let selector = match l.select {
            Select::All => None,
            Select::FlinkComponents => Some(selector.as_str()),
        };
        list_into(c, ns, &l.kind, selector)
    }))
    .await;

    let mut unreachable = None;

    let mut s = Snapshot {
        captured_at: chrono::Utc::now(),
        namespaces: ns.map(|n| vec![n.to_string()]).unwrap_or_default(),
        ..Snapshot::default()
    };
    let mut malformed = Vec::new();
    for listed in lists {
        if let Some(mut listed) = take_one(listed, &mut gaps, &mut unreachable) {
            listed.field.append(&mut s, &mut listed.part);
            malformed.append(&mut listed.malformed);
        }
    }
    if let Some(e) = unreachable {
        return Err(Error::Incomplete(e));
    }
    // Every list of wave 1 refused: nothing to diagnose. Counted before decoding, whose gaps
    // (malformed resources) say nothing about access.
    if gaps.len() == LISTED.len() {
        return Err(Error::Incomplete(format!(
            "every read was refused or failed ({}); nothing to diagnose",
            gaps.first().map(|g| g.message.as_str()).unwrap_or("")
        )));
    }
    gaps.append(&mut malformed);
    // FlinkStateSnapshot came with operator 1.10: a 404 there is an older operator, not a gap.
    gaps.retain(|g| {
        !(g.reason == crate::snapshot::GapReason::NotInstalled
            && g.resource == crate::flink::kinds::FLINK_STATE_SNAPSHOT.plural)
    });
    if let Some(n) = name {
        // `doctor JOB` for a FlinkSessionJob: its session cluster too, whose pods and Deployment
        // the first wave (`app=JOB`) did not select.
        let sessions: std::collections::BTreeSet<(String, String)> = s
            .flink_session_jobs
            .iter()
            .filter(|j| j.name() == n)
            .filter_map(|j| {
                let d = j.spec.deployment_name.as_deref().filter(|d| *d != n)?;
                Some((j.namespace().to_string(), d.to_string()))
            })
            .collect();
        // `doctor SNAPSHOT` for a FlinkStateSnapshot: the job it names too, to tell whether it
        // exists; `doctor JOB`: the snapshots of the job.
        s.flink_state_snapshots.retain(|sn| {
            sn.name() == n
                || sn
                    .spec
                    .job_reference
                    .as_ref()
                    .and_then(|r| r.name.as_deref())
                    == Some(n)
        });
        let targets: std::collections::BTreeSet<(String, String)> = s
            .flink_state_snapshots
            .iter()
            .filter(|sn| sn.name() == n)
            .filter_map(|sn| {
                let t = sn.spec.job_reference.as_ref()?.name.as_deref()?;
                Some((sn.namespace().to_string(), t.to_string()))
            })
            .collect();
        s.flink_session_jobs.retain(|j| {
            j.name() == n
                || j.spec.deployment_name.as_deref() == Some(n)
                || targets.contains(&(j.namespace().to_string(), j.name().to_string()))
        });
        s.flink_deployments.retain(|d| {
            let key = (d.namespace().to_string(), d.name().to_string());
            d.name() == n || sessions.contains(&key) || targets.contains(&key)
        });
        let names: std::collections::BTreeSet<&str> =
            sessions.iter().map(|(_, d)| d.as_str()).collect();
        for d in names {
            let selector = Mode::Operator.selector(Some(d), None);
            let lists = futures::future::join_all(
                LISTED
                    .iter()
                    .filter(|l| l.select == Select::FlinkComponents)
                    .map(|l| list_into(c, ns, &l.kind, Some(&selector))),
            )
            .await;
            for listed in lists {
                if let Some(mut listed) = take_one(listed, &mut gaps, &mut unreachable) {
                    listed.field.append(&mut s, &mut listed.part);
                    gaps.append(&mut listed.malformed);
                }
            }
        }
        if let Some(e) = unreachable {
            return Err(Error::Incomplete(e));
        }
    }
    let reader = super::reader::Reader::Live(c.clone());
    Ok(after_first_wave(&reader, ns, name, s, gaps, log_tail).await)
}

/// Everything after the first wave's lists, given what they read (`s`) and could not (`gaps`):
/// the installation and the other modes, then wave 2. The live gather and `watch` (whose first
/// wave comes from its watches, `cluster::watch`) both finish a snapshot here.
pub(crate) async fn after_first_wave(
    r: &super::reader::Reader,
    ns: Option<&str>,
    name: Option<&str>,
    mut s: Snapshot,
    mut gaps: Vec<Gap>,
    log_tail: i64,
) -> Snapshot {
    // RBAC conclusions from objects are only safe when every kind of binding was readable.
    s.rbac_complete = !gaps.iter().any(|g| g.group == "rbac.authorization.k8s.io");

    // The operator's installation and the other deployment modes have collectors of their own.
    super::install::gather(r, &mut s, &mut gaps).await;
    super::modes::gather(r, ns, name, &mut s, &mut gaps).await;
    let c = r.client();

    // Wave 2: logs of failing containers, current and previous.
    let wanted = crate::snapshot::wanted::failing_containers(&s.pods);
    let fetched = read_logs(c, wanted, log_tail).await;
    let mut log_gap_seen = false;
    for (key, r) in fetched {
        match r {
            Ok(text) => {
                s.logs.insert(key, text);
            }
            Err(Failure::Gap(g)) if g.reason == GapReason::Forbidden => {
                if !log_gap_seen {
                    gaps.push(g);
                    log_gap_seen = true;
                }
            }
            // A previous instance that is gone, or a container not started: nothing to read.
            Err(_) => {}
        }
    }

    // Wave 2b: the ResourceQuotas that refused a pod, by name (whether one has room now), when
    // the list of wave 1 did not give them.
    for (qns, qname) in crate::snapshot::refused::refusing_quotas(&s) {
        let listed = s.resource_quotas.iter().any(|q| {
            q.metadata.namespace.as_deref() == Some(qns.as_str())
                && q.metadata.name.as_deref() == Some(qname.as_str())
        });
        if listed {
            continue;
        }
        match super::install::get::<ResourceQuota>(r, &qns, &qname).await {
            Ok(Some(q)) => s.resource_quotas.push(q),
            Ok(None) => {}
            Err(g) => gaps.push(g),
        }
    }

    // Wave 2c: ask the authorizer about every refusal the logs show.
    s.access_reviews = super::access::review_refusals(c, &s, &mut gaps).await;
    gaps.sort();
    gaps.dedup();
    s.gaps = gaps;
    s
}

/// The container logs `keys` name, each its tail of `tail_lines` (and at most
/// [`LOG_LIMIT_BYTES`]), [`LOG_FETCH_CONCURRENCY`] at a time: one after the other, 50 logs cost 50
/// round trips in series.
pub(super) async fn read_logs(
    c: &kube::Client,
    keys: Vec<LogKey>,
    tail_lines: i64,
) -> Vec<(LogKey, Result<String, Failure>)> {
    stream::iter(keys)
        .map(|key| async move {
            let api: Api<k8s_openapi::api::core::v1::Pod> =
                Api::namespaced(c.clone(), &key.namespace);
            let params = log_params(&key, tail_lines);
            let r = api
                .logs(&key.pod, &params)
                .await
                .map_err(|e| classify(e, "get", "", "pods/log", Some(&key.namespace)));
            (key, r)
        })
        .buffer_unordered(LOG_FETCH_CONCURRENCY)
        .collect()
        .await
}

/// A read's result, or nothing with its gap, or the unreachable cluster, recorded.
fn take_one<T>(
    r: Result<T, Failure>,
    gaps: &mut Vec<Gap>,
    unreachable: &mut Option<String>,
) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(Failure::Gap(g)) => {
            gaps.push(g);
            None
        }
        Err(Failure::Unreachable(e)) => {
            unreachable.get_or_insert(e);
            None
        }
    }
}

/// Why a read failed: a gap in what could be read (forbidden, not installed, timed out), or a
/// cluster that cannot be reached at all.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum Failure {
    #[error("{} {}: {}", .0.verb, .0.resource, .0.message)]
    Gap(Gap),
    #[error("{0}")]
    Unreachable(String),
}

impl Failure {
    /// This failure as a gap of the read that met it, for the reads after the first wave: that
    /// wave proved the server reachable, so a server unreachable now is a gap of `verb resource`,
    /// not the end of the gather.
    pub(crate) fn into_gap(self, verb: &str, resource: &str) -> Gap {
        match self {
            Failure::Gap(g) => g,
            Failure::Unreachable(m) => Gap {
                verb: verb.into(),
                group: String::new(),
                resource: resource.into(),
                namespace: None,
                reason: GapReason::Error,
                message: crate::error::one_line(&m),
            },
        }
    }
}

/// A list result after the first wave, or nothing with its failure recorded as a gap
/// (`Failure::into_gap`).
pub(crate) fn listed_or_gap<T>(
    r: Result<Vec<T>, Failure>,
    gaps: &mut Vec<Gap>,
    verb: &str,
    resource: &str,
) -> Vec<T> {
    r.unwrap_or_else(|f| {
        gaps.push(f.into_gap(verb, resource));
        Vec::new()
    })
}

pub(crate) fn classify(
    e: kube::Error,
    verb: &str,
    group: &str,
    resource: &str,
    ns: Option<&str>,
) -> Failure {
    let gap = |reason, message: String| {
        Failure::Gap(Gap {
            verb: verb.to_string(),
            group: group.to_string(),
            resource: resource.to_string(),
            namespace: ns.map(str::to_string),
            reason,
            message: crate::error::one_line(&message),
        })
    };
    match e {
        kube::Error::Api(status) => match status.code {
            401 => Failure::Unreachable(crate::error::explain(&kube::Error::Api(status))),
            403 => gap(GapReason::Forbidden, status.message.clone()),
            404 => gap(GapReason::NotInstalled, status.message.clone()),
            504 => gap(GapReason::Timeout, status.message.clone()),
            _ => gap(
                GapReason::Error,
                format!("{} {}", status.code, status.message),
            ),
        },
        other => {
            let text = other.to_string();
            let source = causes(&other);
            if text.contains("timed out")
                || source.contains("timed out")
                || text.contains("elapsed")
            {
                gap(GapReason::Timeout, format!("{text} {source}"))
            } else {
                Failure::Unreachable(crate::error::explain(&other))
            }
        }
    }
}

/// Every cause in an error's source chain, deepest last, without repeats: "connection refused"
/// lives several levels below kube's "ServiceError".
fn causes(e: &dyn std::error::Error) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut cur = e.source();
    while let Some(c) = cur {
        let text = c.to_string();
        if !out.iter().any(|o| o.contains(&text)) {
            out.push(text);
        }
        cur = c.source();
    }
    out.join(": ")
}

/// Every object of a namespaced kind in `ns` (all namespaces when `None`), paged; its plural and
/// group from the type (`kube::Resource`), never strings.
pub(crate) async fn list<K>(
    c: &kube::Client,
    ns: Option<&str>,
    selector: Option<&str>,
) -> Result<Vec<K>, Failure>
where
    K: kube::Resource<Scope = kube::core::NamespaceResourceScope>
        + Clone
        + DeserializeOwned
        + Debug,
    K::DynamicType: Default,
{
    let api: Api<K> = match ns {
        Some(ns) => Api::namespaced(c.clone(), ns),
        None => Api::all(c.clone()),
    };
    let dt = K::DynamicType::default();
    paged(&api, params(selector))
        .await
        .map_err(|e| classify(e, "list", &K::group(&dt), &K::plural(&dt), ns))
}

/// Every object of a cluster-scoped kind, paged.
pub(crate) async fn list_cluster<K>(c: &kube::Client) -> Result<Vec<K>, Failure>
where
    K: kube::Resource<Scope = kube::core::ClusterResourceScope> + Clone + DeserializeOwned + Debug,
    K::DynamicType: Default,
{
    let api: Api<K> = Api::all(c.clone());
    let dt = K::DynamicType::default();
    paged(&api, params(None))
        .await
        .map_err(|e| classify(e, "list", &K::group(&dt), &K::plural(&dt), None))
}

/// Every object of a custom resource's kind, untyped (`decode` types them).
pub(crate) async fn list_dynamic(
    c: &kube::Client,
    ns: Option<&str>,
    kind: &Kind,
    selector: Option<&str>,
) -> Result<Vec<DynamicObject>, Failure> {
    let ar = api_resource(kind);
    let api: Api<DynamicObject> = match ns {
        Some(ns) => Api::namespaced_with(c.clone(), ns, &ar),
        None => Api::all_with(c.clone(), &ar),
    };
    paged(&api, params(selector))
        .await
        .map_err(|e| classify(e, "list", &ar.group, &ar.plural, ns))
}

fn params(selector: Option<&str>) -> ListParams {
    match selector {
        Some(sel) => ListParams::default().labels(sel),
        None => ListParams::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_the_diagnosis_reads_is_bounded_in_bytes_as_well_as_lines() {
        // 300 lines of 1 MB made a live doctor hold 655 MB when only tailLines bounded them.
        let p = log_params(&LogKey::new("a", "jm", "flink-main-container", true), 200);
        assert_eq!(p.tail_lines, Some(200));
        assert_eq!(p.limit_bytes, Some(8 << 20));
        assert!(p.previous);
        assert_eq!(p.container.as_deref(), Some("flink-main-container"));
    }
}

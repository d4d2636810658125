//! Gather: read what the diagnosis needs, concurrently, into a Snapshot.
//!
//! Wave 1 lists every kind once per scope (label-selected where Flink labels its objects, paged).
//! Wave 2 fetches what wave 1 showed is needed: logs of failing containers (current and previous,
//! bounded tail), the ResourceQuotas that refused a pod (by name), then access reviews for the
//! ServiceAccounts those logs say were refused.
//! A 403, a 404 (CRD not installed) or a timeout becomes a Gap; only an unreachable cluster, or
//! nothing readable at all, is an error.

use super::client::Connection;
use crate::error::Error;
use crate::flink::names::{GROUP, VERSION};

use crate::snapshot::Pod;
use crate::snapshot::{Gap, GapReason, LogKey, Snapshot};
use futures::stream::{self, StreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Event, ResourceQuota, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::api::{Api, ApiResource, DynamicObject, ListParams, LogParams};
use kube::core::GroupVersionKind;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Flink's pods and Deployments carry `component=jobmanager|taskmanager` and `app=<cluster-id>`.
const FLINK_COMPONENTS: &str = "component in (jobmanager,taskmanager)";
const PAGE: u32 = 500;
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
    let selector = match name {
        Some(n) => format!("{FLINK_COMPONENTS},app={n}"),
        None => FLINK_COMPONENTS.to_string(),
    };
    let mut gaps = Vec::new();

    let fd_res = flink_resource("FlinkDeployment", "flinkdeployments");
    let sj_res = flink_resource("FlinkSessionJob", "flinksessionjobs");
    const WAVE1_LISTS: usize = 10;
    let (fds, sjs, pods, deployments, events, sas, roles, rbs, crs, crbs) = futures::join!(
        list_dynamic(c, ns, &fd_res, None),
        list_dynamic(c, ns, &sj_res, None),
        list::<Pod>(c, ns, "pods", "", Some(&selector)),
        list::<Deployment>(c, ns, "deployments", "apps", Some(&selector)),
        list::<Event>(c, ns, "events", "", None),
        list::<ServiceAccount>(c, ns, "serviceaccounts", "", None),
        list::<Role>(c, ns, "roles", "rbac.authorization.k8s.io", None),
        list::<RoleBinding>(c, ns, "rolebindings", "rbac.authorization.k8s.io", None),
        list_cluster::<ClusterRole>(c, "clusterroles", "rbac.authorization.k8s.io"),
        list_cluster::<ClusterRoleBinding>(c, "clusterrolebindings", "rbac.authorization.k8s.io"),
    );

    let mut unreachable = None;

    let mut s = Snapshot {
        captured_at: chrono::Utc::now(),
        namespaces: ns.map(|n| vec![n.to_string()]).unwrap_or_default(),
        ..Snapshot::default()
    };
    let fds = take(fds, &mut gaps, &mut unreachable);
    let sjs = take(sjs, &mut gaps, &mut unreachable);
    s.pods = take(pods, &mut gaps, &mut unreachable);
    s.deployments = take(deployments, &mut gaps, &mut unreachable);
    s.events = take(events, &mut gaps, &mut unreachable);
    s.service_accounts = take(sas, &mut gaps, &mut unreachable);
    s.roles = take(roles, &mut gaps, &mut unreachable);
    s.role_bindings = take(rbs, &mut gaps, &mut unreachable);
    s.cluster_roles = take(crs, &mut gaps, &mut unreachable);
    s.cluster_role_bindings = take(crbs, &mut gaps, &mut unreachable);
    if let Some(e) = unreachable {
        return Err(Error::incomplete(
            &format!("reach the Kubernetes API server at {}", cluster.server),
            e,
        ));
    }
    // Every list of wave 1 refused: nothing to diagnose. Counted before decoding, whose gaps
    // (malformed resources) say nothing about access.
    if gaps.len() == WAVE1_LISTS {
        return Err(Error::Incomplete(format!(
            "every read was refused or failed ({}); nothing to diagnose",
            gaps.first().map(|g| g.message.as_str()).unwrap_or("")
        )));
    }
    s.flink_deployments = decode(fds, &mut gaps);
    s.flink_session_jobs = decode(sjs, &mut gaps);
    if let Some(n) = name {
        s.flink_deployments.retain(|d| d.name() == n);
        s.flink_session_jobs
            .retain(|j| j.name() == n || j.spec.deployment_name.as_deref() == Some(n));
    }
    // RBAC conclusions from objects are only safe when every kind of binding was readable.
    s.rbac_complete = !gaps.iter().any(|g| g.group == "rbac.authorization.k8s.io");

    // The operator's installation and the other deployment modes have collectors of their own.
    super::install::gather(c, &mut s, &mut gaps).await;
    super::modes::gather(c, ns, name, &mut s, &mut gaps).await;

    // Wave 2: logs of failing containers, current and previous.
    let wanted = crate::snapshot::wanted::failing_containers(&s.pods);
    let fetched: Vec<(LogKey, Result<String, Failure>)> = stream::iter(wanted)
        .map(|key| async move {
            let api: Api<k8s_openapi::api::core::v1::Pod> =
                Api::namespaced(c.clone(), &key.namespace);
            let params = log_params(&key, log_tail);
            let r = api
                .logs(&key.pod, &params)
                .await
                .map_err(|e| classify(e, "get", "", "pods/log", Some(&key.namespace)));
            (key, r)
        })
        .buffer_unordered(LOG_FETCH_CONCURRENCY)
        .collect()
        .await;
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

    // Wave 2b: the ResourceQuotas that refused a pod, by name (whether one has room now).
    for (qns, qname) in crate::snapshot::refused::refusing_quotas(&s) {
        match super::install::get::<ResourceQuota>(c, &qns, &qname, "resourcequotas", "").await {
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
    Ok(s)
}

/// A list result into the snapshot: a gap, or an unreachable cluster, is recorded instead.
pub(crate) fn take<T>(
    r: Result<Vec<T>, Failure>,
    gaps: &mut Vec<Gap>,
    unreachable: &mut Option<String>,
) -> Vec<T> {
    match r {
        Ok(v) => v,
        Err(Failure::Gap(g)) => {
            gaps.push(g);
            Vec::new()
        }
        Err(Failure::Unreachable(e)) => {
            unreachable.get_or_insert(e);
            Vec::new()
        }
    }
}
pub(crate) fn flink_resource(kind: &str, plural: &str) -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(GROUP, VERSION, kind), plural)
}

/// Why a read failed: a gap in what could be read (forbidden, not installed, timed out), or a
/// cluster that cannot be reached at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    #[error("{} {}: {}", .0.verb, .0.resource, .0.message)]
    Gap(Gap),
    #[error("{0}")]
    Unreachable(String),
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
            401 => Failure::Unreachable(format!("Unauthorized: {}", status.message)),
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
                Failure::Unreachable(format!("{text} {source}"))
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

pub(crate) async fn list<K>(
    c: &kube::Client,
    ns: Option<&str>,
    resource: &str,
    group: &str,
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
    paged(&api, selector)
        .await
        .map_err(|e| classify(e, "list", group, resource, ns))
}

pub(crate) async fn list_cluster<K>(
    c: &kube::Client,
    resource: &str,
    group: &str,
) -> Result<Vec<K>, Failure>
where
    K: kube::Resource<Scope = kube::core::ClusterResourceScope> + Clone + DeserializeOwned + Debug,
    K::DynamicType: Default,
{
    let api: Api<K> = Api::all(c.clone());
    paged(&api, None)
        .await
        .map_err(|e| classify(e, "list", group, resource, None))
}

pub(crate) async fn list_dynamic(
    c: &kube::Client,
    ns: Option<&str>,
    ar: &ApiResource,
    selector: Option<&str>,
) -> Result<Vec<DynamicObject>, Failure> {
    let api: Api<DynamicObject> = match ns {
        Some(ns) => Api::namespaced_with(c.clone(), ns, ar),
        None => Api::all_with(c.clone(), ar),
    };
    paged(&api, selector)
        .await
        .map_err(|e| classify(e, "list", &ar.group, &ar.plural, ns))
}

pub(crate) async fn paged<K>(api: &Api<K>, selector: Option<&str>) -> Result<Vec<K>, kube::Error>
where
    K: Clone + DeserializeOwned + Debug,
{
    let mut out = Vec::new();
    let mut params = ListParams::default().limit(PAGE);
    if let Some(sel) = selector {
        params = params.labels(sel);
    }
    loop {
        let page = api.list(&params).await?;
        let next = page.metadata.continue_.clone().filter(|c| !c.is_empty());
        out.extend(page.items);
        match next {
            Some(token) => params = params.continue_token(&token),
            None => return Ok(out),
        }
    }
}

/// Custom resources arrive untyped; a malformed one becomes a gap, not a crash.
pub(crate) fn decode<T: DeserializeOwned>(
    objects: Vec<DynamicObject>,
    gaps: &mut Vec<Gap>,
) -> Vec<T> {
    objects
        .into_iter()
        .filter_map(|o| {
            let name = o.metadata.name.clone().unwrap_or_default();
            let kind = o.types.as_ref().map(|t| t.kind.clone()).unwrap_or_default();
            let value = serde_json::to_value(&o).ok()?;
            match serde_json::from_value(value) {
                Ok(v) => Some(v),
                Err(e) => {
                    gaps.push(Gap {
                        verb: "decode".into(),
                        group: GROUP.into(),
                        resource: format!("{kind}/{name}"),
                        namespace: o.metadata.namespace.clone(),
                        reason: GapReason::Error,
                        message: e.to_string(),
                    });
                    None
                }
            }
        })
        .collect()
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

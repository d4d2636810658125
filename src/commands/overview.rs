//! `kubectl flink doctor` without NAME: one line per Flink cluster in scope, in every mode
//! (Apache operator native and standalone, plain Flink native, Lyft, the GCP/Spotify operator's
//! FlinkCluster), with its health; the
//! details of the unhealthy ones follow as the report's findings.
//!
//! `clusters` is pure (Snapshot + Report -> lines); `render::clusters` draws them.

use crate::finding::{ObjectRef, Severity};
use crate::flink::mode::Mode;
use crate::flink::names::{KIND_FLINK_APPLICATION, KIND_FLINK_DEPLOYMENT};
use crate::rank::Report;
pub use crate::render::clusters::{write_json, write_overview_json, ClusterLine, OperatorLine};
use crate::snapshot::index::{deployment_replicas, pod_ready, Cluster, Index};
use crate::snapshot::Snapshot;

/// Every Flink cluster in scope (narrowed to `namespace` when given, as `doctor --from DIR -n NS`
/// narrows its findings), sorted by namespace and name, with the findings of the report counted
/// against the cluster they belong to.
pub fn clusters(snapshot: &Snapshot, report: &Report, namespace: Option<&str>) -> Vec<ClusterLine> {
    let index = Index::new(snapshot);
    let counts = counts(report);
    index
        .clusters()
        .iter()
        .filter(|c| namespace.is_none_or(|n| c.namespace() == n))
        .map(|c| line(c, counts.get(&c.reference).copied().unwrap_or_default()))
        .collect()
}

/// The pods and Deployments in scope that are probably an operator although nothing of their own
/// says so (`snapshot::identity::Probable`), with why. A pod of a Deployment listed so is not
/// listed again.
pub fn probable_operators(snapshot: &Snapshot, namespace: Option<&str>) -> Vec<OperatorLine> {
    let listed = &snapshot.probable_operators;
    let mut out: Vec<OperatorLine> = listed
        .iter()
        .filter(|p| namespace.is_none_or(|n| p.namespace == n))
        .filter(|p| {
            p.kind != "Pod"
                || !listed.iter().any(|d| {
                    d.kind == "Deployment"
                        && d.namespace == p.namespace
                        && p.name.starts_with(&format!("{}-", d.name))
                })
        })
        .map(|p| OperatorLine {
            kind: p.kind.to_string(),
            namespace: p.namespace.clone(),
            name: p.name.clone(),
            operator: p.operator.mode().as_str(),
            describe: p.operator.describe(),
            why: p.why.clone(),
        })
        .collect();
    out.sort_by(|a, b| (&a.namespace, &a.kind, &a.name).cmp(&(&b.namespace, &b.kind, &b.name)));
    out
}

/// Findings by the cluster they are about (`Finding::deployment`, or the object itself), counted
/// once each (`count`, at least 1) by severity: critical, warning, info. One pass over the
/// report, not one per cluster (100,000 clusters took minutes that way).
fn counts(report: &Report) -> std::collections::HashMap<&ObjectRef, [usize; 3]> {
    let mut out: std::collections::HashMap<&ObjectRef, [usize; 3]> = Default::default();
    for f in &report.findings {
        let i = match f.severity {
            Severity::Critical => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        let n = f.count.max(1);
        if let Some(d) = f.deployment.as_ref() {
            out.entry(d).or_default()[i] += n;
        }
        if f.deployment.as_ref() != Some(&f.object) {
            out.entry(&f.object).or_default()[i] += n;
        }
    }
    out
}

/// Whether NAME names a Flink cluster of any mode (or a FlinkSessionJob) in the snapshot, for
/// `doctor NAME`'s "no such deployment" check.
pub fn is_known(snapshot: &Snapshot, name: &str, namespace: Option<&str>) -> bool {
    namespaces_of(snapshot, name)
        .iter()
        .any(|ns| namespace.is_none_or(|n| ns == n))
}

/// The namespaces where a Flink cluster (or FlinkSessionJob, or FlinkStateSnapshot) named NAME is
/// in the snapshot.
pub fn namespaces_of(snapshot: &Snapshot, name: &str) -> Vec<String> {
    let index = Index::new(snapshot);
    let mut out: Vec<String> = index
        .clusters()
        .iter()
        .filter(|c| c.name() == name)
        .map(|c| c.namespace().to_string())
        .chain(
            snapshot
                .flink_session_jobs
                .iter()
                .filter(|j| j.name() == name)
                .map(|j| j.namespace().to_string()),
        )
        .chain(
            snapshot
                .flink_state_snapshots
                .iter()
                .filter(|sn| sn.name() == name)
                .map(|sn| sn.namespace().to_string()),
        )
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `2 critical, 1 warning`, as HEALTH says it; `None` when there is neither.
pub(crate) fn health_counts(critical: usize, warnings: usize) -> Option<String> {
    let mut parts = Vec::new();
    if critical > 0 {
        parts.push(format!("{critical} critical"));
    }
    if warnings > 0 {
        parts.push(format!(
            "{warnings} warning{}",
            if warnings == 1 { "" } else { "s" }
        ));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn line(c: &Cluster, [critical, warnings, info]: [usize; 3]) -> ClusterLine {
    let (jm_ready, jm_wanted) = jobmanagers(c);
    let (tm_ready, tms) = taskmanagers(c);
    let health = match health_counts(critical, warnings) {
        None => "ok".to_string(),
        Some(text) => text,
    };
    let (status, job) = match c.reference.kind.as_str() {
        _ if c.mode == Mode::FlinkCluster => (
            c.flink_cluster
                .and_then(|fc| fc.state())
                .map(str::to_string),
            flinkcluster_job(c),
        ),
        KIND_FLINK_DEPLOYMENT => {
            let st = c.flink_deployment.and_then(|fd| fd.status.as_ref());
            (
                st.and_then(|s| s.lifecycle_state.clone()),
                st.and_then(|s| s.job_status.as_ref())
                    .and_then(|j| j.state.clone()),
            )
        }
        KIND_FLINK_APPLICATION => {
            let st = c.flink_application.and_then(|a| a.status.as_ref());
            (
                st.and_then(|s| s.phase.clone()),
                st.and_then(|s| s.job_status.as_ref())
                    .and_then(|j| j.get("state"))
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
            )
        }
        _ => (None, None),
    };
    let (status, job) = (
        status.filter(|s| !s.is_empty()),
        job.filter(|s| !s.is_empty()),
    );
    ClusterLine {
        kind: c.reference.kind.clone(),
        namespace: c.namespace().to_string(),
        name: c.name().to_string(),
        mode: c.mode.as_str(),
        jobmanagers_ready: jm_ready,
        jobmanagers_wanted: jm_wanted,
        taskmanagers_ready: tm_ready,
        taskmanagers: tms,
        status,
        job,
        critical,
        warnings,
        info,
        health,
    }
}

/// A FlinkCluster's job: `status.components.job.state`, and its job submitter when there is one
/// (`Failed, submitter exit 1`), from the submitter Job and pod, else the status's exit code.
fn flinkcluster_job(c: &Cluster) -> Option<String> {
    let status = c.flink_cluster.and_then(|fc| fc.job_status());
    let state = status
        .and_then(|j| j.state.clone())
        .filter(|s| !s.is_empty());
    let submitter =
        submitter_state(c).or_else(|| match status.and_then(|j| j.submitter_exit_code) {
            Some(-1) => Some("submitter running".to_string()),
            Some(0) | None => None,
            Some(code) => Some(format!("submitter exit {code}")),
        });
    match (state, submitter) {
        (Some(s), Some(sub)) => Some(format!("{s}, {sub}")),
        (Some(s), None) => Some(s),
        (None, Some(sub)) => Some(sub),
        (None, None) => None,
    }
}

/// The job submitter as its Job and newest pod show it: `submitter running`, `submitter
/// failed (exit 1)`; None when it succeeded or there is none.
fn submitter_state(c: &Cluster) -> Option<String> {
    let job = c.submitter_jobs.first()?;
    let st = job.status.as_ref();
    let failed = st.and_then(|s| s.failed).unwrap_or(0);
    let active = st.and_then(|s| s.active).unwrap_or(0);
    let succeeded = st.and_then(|s| s.succeeded).unwrap_or(0);
    let exit = c
        .submitter_pods
        .iter()
        .filter_map(|p| p.status.as_ref()?.container_statuses.as_ref())
        .flatten()
        .filter(|cs| cs.name == crate::flink::names::FLINKCLUSTER_SUBMITTER_CONTAINER)
        .find_map(|cs| cs.state.as_ref()?.terminated.as_ref().map(|t| t.exit_code));
    if failed > 0 {
        Some(match exit {
            Some(code) => format!("submitter failed (exit {code})"),
            None => "submitter failed".to_string(),
        })
    } else if active > 0 {
        Some("submitter running".to_string())
    } else if succeeded > 0 {
        None
    } else {
        Some("submitter pending".to_string())
    }
}

/// `spec.replicas` (1 when unset) and `status.readyReplicas` of StatefulSets, summed.
fn stateful_set_replicas(sets: &[&k8s_openapi::api::apps::v1::StatefulSet]) -> (u32, u32) {
    let (wanted, ready) = sets.iter().fold((0, 0), |(w, r), s| {
        (
            w + s.spec.replicas.unwrap_or(1),
            r + s
                .status
                .as_ref()
                .and_then(|x| x.ready_replicas)
                .unwrap_or(0),
        )
    });
    (ready.max(0) as u32, wanted.max(0) as u32)
}

/// Ready / wanted JobManagers: the Deployment's replicas when it is there, else the pods.
fn jobmanagers(c: &Cluster) -> (u32, u32) {
    if !c.jobmanager_stateful_sets.is_empty() {
        return stateful_set_replicas(&c.jobmanager_stateful_sets);
    }
    if !c.jobmanager_deployments.is_empty() {
        let (wanted, ready) = c
            .jobmanager_deployments
            .iter()
            .map(|d| deployment_replicas(d))
            .fold((0, 0), |(w, r), (dw, dr)| (w + dw, r + dr));
        return (ready.max(0) as u32, wanted.max(0) as u32);
    }
    let wanted = c
        .flink_deployment
        .and_then(|fd| fd.spec.job_manager.as_ref())
        .and_then(|j| j.replicas)
        .unwrap_or(1)
        .max(c.jobmanager_pods.len() as i64);
    let ready = c.jobmanager_pods.iter().filter(|p| pod_ready(p)).count();
    (ready as u32, wanted.max(0) as u32)
}

/// Ready / all TaskManagers: bare pods in native modes, the Deployment in standalone and Lyft
/// (its pods when the Deployment is not there).
fn taskmanagers(c: &Cluster) -> (u32, u32) {
    if !c.taskmanager_stateful_sets.is_empty() {
        return stateful_set_replicas(&c.taskmanager_stateful_sets);
    }
    if !c.mode.native_taskmanagers() && !c.taskmanager_deployments.is_empty() {
        let (wanted, ready) = c
            .taskmanager_deployments
            .iter()
            .map(|d| deployment_replicas(d))
            .fold((0, 0), |(w, r), (dw, dr)| (w + dw, r + dr));
        return (ready.max(0) as u32, wanted.max(0) as u32);
    }
    let live = c.live_taskmanager_pods();
    let ready = live.iter().filter(|p| pod_ready(p)).count();
    // A FlinkCluster not deployed yet: what its spec asks for.
    let wanted = c
        .flink_cluster
        .and_then(|fc| fc.spec.task_manager.as_ref())
        .and_then(|t| t.replicas)
        .unwrap_or(0)
        .max(live.len() as i64);
    (ready as u32, wanted.max(0) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::rank;
    use crate::render::clusters::write_table;
    use crate::render::Style;
    use std::path::Path;

    fn load(name: &str) -> Snapshot {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios")
            .join(name);
        crate::snapshot::bundle::load(&dir).unwrap()
    }

    #[test]
    fn one_line_per_cluster_in_every_mode() {
        let mut s = load("mode-native-healthy");
        for other in ["mode-standalone-no-slots", "mode-lyft-deploy-failed"] {
            let o = load(other);
            s.flink_deployments.extend(o.flink_deployments);
            s.flink_applications.extend(o.flink_applications);
            s.deployments.extend(o.deployments);
            s.pods.extend(o.pods);
            s.config_maps.extend(o.config_maps);
            s.events.extend(o.events);
        }
        let report = rank(crate::rules::run_all(&s));
        let lines = clusters(&s, &report, None);
        let modes: Vec<(&str, &str)> = lines.iter().map(|l| (l.name.as_str(), l.mode)).collect();
        assert_eq!(
            modes,
            [
                ("clicks", "lyft"),
                ("pageviews", "native"),
                ("ledger", "standalone")
            ],
            "{lines:#?}"
        );
        let native = &lines[1];
        assert_eq!(native.kind, "Deployment");
        assert_eq!(
            (native.jobmanagers_ready, native.jobmanagers_wanted),
            (1, 1)
        );
        assert_eq!((native.taskmanagers_ready, native.taskmanagers), (2, 2));
        assert_eq!(native.health, "ok");
        assert!(lines[2].critical > 0, "{:#?}", lines[2]);
        assert_eq!(lines[0].status.as_deref(), Some("DeployFailed"));
        assert_eq!(lines[0].job, None);
        assert_eq!(lines[0].health, "2 critical, 1 warning");
        assert!(!lines[0].healthy());

        let mut out = Vec::new();
        write_table(&lines, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with("NAMESPACE") && first.ends_with("HEALTH"),
            "{text}"
        );
        assert!(
            text.contains("pageviews") && text.contains("Deployment") && text.contains("ok"),
            "{text}"
        );

        let mut out = Vec::new();
        write_json(&report, &lines, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (v, f, c) = (
            text.find("\"version\"").unwrap(),
            text.find("\"findings\"").unwrap(),
            text.find("\"clusters\"").unwrap(),
        );
        assert!(v < f && f < c, "version, findings, then clusters: {text}");
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["version"], 1);
        assert!(json["findings"].is_array());
        assert_eq!(json["clusters"][1]["name"], "pageviews");
        assert_eq!(json["clusters"][1]["jobmanagersReady"], 1);

        assert!(is_known(&s, "pageviews", None));
        assert!(is_known(&s, "clicks", Some("scn-mode-lyft-failed")));
        assert!(!is_known(&s, "clicks", Some("elsewhere")));
        let narrowed = clusters(&s, &report, Some("scn-mode-native-healthy"));
        assert_eq!(narrowed.len(), 1);
    }
}

//! FLK414: a FlinkStateSnapshot (operator 1.10 and later) of a job that exists ended `FAILED`.
//!
//! The operator sets `status.state` to `FAILED` once a savepoint or checkpoint it triggered has
//! failed more than `spec.backoffLimit` times, with the last error in `status.error` and the count
//! in `status.failures` (`FlinkStateSnapshotState`: TRIGGER_PENDING, IN_PROGRESS, COMPLETED,
//! FAILED, ABANDONED; apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator-api/
//! src/main/java/org/apache/flink/kubernetes/operator/api/status/FlinkStateSnapshotStatus.java).
//! The job itself may run on: no other rule sees the failure, and a report that says nothing of
//! it would be a false all-clear (the job has no fresh savepoint to upgrade or restore from).
//! A snapshot whose job does not exist is FLK402's (session_cluster_missing).
//!
//! The cause is the error's: the signature catalogue names it when it knows it (a file system
//! without its plugin, storage access denied), else the error is quoted as it is.

use super::support::containers::{event_line, one_line, roots};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::sh;
use crate::signatures::catalogue;
use crate::snapshot::flink::FlinkStateSnapshot;
use crate::snapshot::{Index, Snapshot};

pub struct StateSnapshotFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK414",
    name: "state_snapshot_failed",
    summary: "a FlinkStateSnapshot (savepoint or checkpoint) of a job that exists FAILED: the job has no fresh savepoint; the cause is in status.error",
    category: Category::UpgradeFailed,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"fix the cause status.error names (a file system without its plugin, storage access, a job that is not running), then trigger a new snapshot: a new FlinkStateSnapshot with the same spec, or bump spec.job.savepointTriggerNonce on the job"#,
    verify: r#"kubectl get flinkstatesnapshot -n <namespace>   # expect the new snapshot COMPLETED"#,
};

impl Rule for StateSnapshotFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        snapshot
            .flink_state_snapshots
            .iter()
            .filter_map(|sn| finding(snapshot, index, sn))
            .collect()
    }
}

/// The job the snapshot is of, when it exists: `(kind, name)`.
fn job_of<'a>(s: &'a Snapshot, sn: &'a FlinkStateSnapshot) -> Option<(&'a str, &'a str)> {
    let r = sn.spec.job_reference.as_ref()?;
    let (kind, name) = (
        r.kind.as_deref().unwrap_or("FlinkDeployment"),
        r.name.as_deref()?,
    );
    let ns = sn.namespace();
    let exists = match kind {
        "FlinkSessionJob" => s
            .flink_session_jobs
            .iter()
            .any(|j| j.namespace() == ns && j.name() == name),
        _ => s
            .flink_deployments
            .iter()
            .any(|d| d.namespace() == ns && d.name() == name),
    };
    exists.then_some((kind, name))
}

fn finding(s: &Snapshot, index: &Index, sn: &FlinkStateSnapshot) -> Option<Finding> {
    let st = sn.status.as_ref()?;
    if st.state.as_deref() != Some("FAILED") {
        return None;
    }
    let (kind, job) = job_of(s, sn)?;
    let (ns, name) = (sn.namespace(), sn.name());
    let what = if sn.spec.checkpoint.is_some() {
        "checkpoint"
    } else {
        "savepoint"
    };
    let error = st.error.as_deref().unwrap_or("").trim();
    let events: Vec<_> = index
        .events_for("FlinkStateSnapshot", ns, name)
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .collect();
    let texts: Vec<&str> = std::iter::once(error)
        .chain(events.iter().filter_map(|e| e.message.as_deref()))
        .filter(|t| !t.is_empty())
        .collect();
    let matches: Vec<_> = texts.iter().flat_map(|t| catalogue().scan(t)).collect();
    let root = roots(&matches)
        .into_iter()
        .find(|m| !m.signature.category.is_symptom())
        .cloned();
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("FlinkStateSnapshot", ns, name),
        format!(
            "the {what} {name} of {kind} {job} FAILED{}",
            if error.is_empty() {
                String::new()
            } else {
                format!(": {}", short(&one_line(error), 160))
            }
        ),
    )
    .evidence(format!(
        "status.state: FAILED{}",
        st.failures
            .map(|n| format!(", status.failures: {n}"))
            .unwrap_or_default()
    ))
    .evidence(format!("spec.jobReference: {{kind: {kind}, name: {job}}}"));
    if !error.is_empty() {
        f = f.evidence(format!("status.error: {}", one_line(error)));
    }
    for e in events.iter().rev().take(3).rev() {
        f = f.evidence(event_line(e));
    }
    let cause = match &root {
        Some(m) => {
            f = crate::rules::support::containers::with_category(f, m.signature.category);
            format!(
                "The error names the cause: {}.\n{}\n\n",
                m.signature.explanation,
                m.fix()
            )
        }
        None => format!(
            "The cause is in status.error (and the JobManager's log of the {kind}): fix it first.\n\n"
        ),
    };
    let fix = format!(
        "{cause}A FAILED {what} is not retried: once the cause is fixed, trigger a new one, as a new \
         FlinkStateSnapshot with the same spec (or `kubectl flink` users: spec.job.savepointTriggerNonce on the \
         {kind}):\n\n  kubectl get flinkstatesnapshot {n} -n {nsq} -o yaml   # the spec to copy under a new name",
        n = sh(name),
        nsq = sh(ns),
    );
    let verify = format!(
        "kubectl get flinkstatesnapshots -n {} -o custom-columns=NAME:.metadata.name,STATE:.status.state,PATH:.status.path   # expect the new one COMPLETED",
        sh(ns)
    );
    Some(f.fix(fix).verify(verify))
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const FAILED: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: jobs}
spec:
  job: {jarURI: "local:///opt/flink/usrlib/job.jar", upgradeMode: savepoint}
status:
  jobManagerDeploymentStatus: READY
  lifecycleState: STABLE
  jobStatus: {state: RUNNING}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkStateSnapshot
metadata: {name: orders-sp, namespace: jobs}
spec:
  jobReference: {kind: FlinkDeployment, name: orders}
  savepoint: {path: "s3://bucket/savepoints"}
  backoffLimit: 1
status:
  state: FAILED
  failures: 2
  error: "org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto."
"#;

    #[test]
    fn a_failed_savepoint_of_a_running_job_is_reported_with_its_cause() {
        let f = run(&StateSnapshotFailed, &snapshot(FAILED));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("FlinkStateSnapshot", "jobs", "orders-sp")
        );
        assert!(
            f[0].title
                .starts_with("the savepoint orders-sp of FlinkDeployment orders FAILED: "),
            "{}",
            f[0].title
        );
        // The error names a missing plugin: that is the category, not a generic failure.
        assert_eq!(f[0].category, Category::FilesystemPluginMissing);
        assert!(
            f[0].evidence
                .contains(&"status.state: FAILED, status.failures: 2".to_string()),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn silent_unless_failed_and_of_a_job_that_exists() {
        assert!(run(&StateSnapshotFailed, &snapshot(HEALTHY)).is_empty());
        let done = FAILED.replace("state: FAILED", "state: COMPLETED");
        assert!(run(&StateSnapshotFailed, &snapshot(&done)).is_empty());
        // Its job missing: FLK402's.
        let orphan = FAILED.replace("name: orders}", "name: gone}");
        assert!(run(&StateSnapshotFailed, &snapshot(&orphan)).is_empty());
        // An error no signature knows is quoted under the rule's own category.
        let other = FAILED.replace(
            "org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto.",
            "Savepoint trigger timed out",
        );
        let f = run(&StateSnapshotFailed, &snapshot(&other));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].category, Category::UpgradeFailed);
        assert!(f[0].title.ends_with("FAILED: Savepoint trigger timed out"));
    }
}

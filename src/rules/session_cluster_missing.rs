//! FLK402: a FlinkSessionJob whose `spec.deploymentName` names no FlinkDeployment of its
//! namespace. Nothing runs it: the operator waits for a session cluster that does not exist, and
//! no pod, Deployment or status says why.
//!
//! What the operator does (apache/flink-kubernetes-operator@release-1.13.0):
//! - the session job's Flink version is its FlinkDeployment's, `null` without one
//!   (`flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/controller/FlinkSessionJobContext.java`,
//!   `getFlinkVersion`); from release-1.7.0 on, the controller first checks that version
//!   (`.../controller/FlinkSessionJobController.java`, `ValidatorUtils.validateSupportedVersion`)
//!   and records the Warning event `UnsupportedFlinkVersion`: `Flink version null is not
//!   supported by this operator version` (`.../utils/ValidatorUtils.java`), then stops there;
//! - before release-1.7.0 the reconciler only logs `Session cluster deployment is not found`
//!   (`.../reconciler/sessionjob/SessionJobReconciler.java`), no event at all.
//!
//! The fix points the job at a session FlinkDeployment of the namespace when there is one (the
//! operator lets `deploymentName` change until the job is first deployed:
//! `.../validation/DefaultValidator.java`, `validateSpecChange`), else creates the session
//! cluster it names.
//!
//! A FlinkStateSnapshot (operator 1.10 and later) whose `spec.jobReference` names no
//! FlinkDeployment or FlinkSessionJob of its namespace is the same fault one level down: nothing
//! takes the savepoint or checkpoint. The operator's validator refuses it while it is new
//! (no status, or `TRIGGER_PENDING`) with the Warning event `ValidationError`: `Target for
//! snapshot NS/NAME was not found`; a savepoint marked `alreadyExists` needs no job, and one
//! already taken keeps its path whatever became of its job
//! (apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java,
//! `validateStateSnapshot`; the same text since release-1.10.0).

use super::support::containers::event_line;
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::{sh, yaml};
use crate::snapshot::flink::{FlinkDeployment, FlinkSessionJob, FlinkStateSnapshot};
use crate::snapshot::{Index, Snapshot};

pub struct SessionClusterMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK402",
    name: "session_cluster_missing",
    summary: "a FlinkSessionJob's `spec.deploymentName` (or a FlinkStateSnapshot's `spec.jobReference`) names no Flink resource of its namespace",
    category: Category::SessionClusterMissing,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"create the session FlinkDeployment that spec.deploymentName names (same namespace, without spec.job), or correct spec.deploymentName"#,
    verify: r#"kubectl get flinksessionjob,flinkdeployment -n <namespace>   # expect the session cluster listed"#,
};

/// The reason of the Warning event the operator records on such a job (release-1.7.0 and later):
/// `Flink version null is not supported by this operator version`.
const EVENT_REASON: &str = "UnsupportedFlinkVersion";

impl Rule for SessionClusterMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out: Vec<Finding> = snapshot
            .flink_state_snapshots
            .iter()
            .filter_map(|sn| snapshot_finding(snapshot, index, sn))
            .collect();
        // Absence proves something only where FlinkDeployments were read.
        if snapshot.holds("FlinkDeployment") {
            out.splice(
                0..0,
                snapshot
                    .flink_session_jobs
                    .iter()
                    .filter(|j| !unread(snapshot, "flinkdeployments", j.namespace()))
                    .filter_map(|j| finding(snapshot, index, j)),
            );
        }
        out
    }
}

/// Whether a list of `resource` failed where the object lives (or cluster-wide).
fn unread(s: &Snapshot, resource: &str, namespace: &str) -> bool {
    s.gaps
        .iter()
        .any(|g| g.resource == resource && g.namespace.as_deref().is_none_or(|n| n == namespace))
}

/// The validator's message on a snapshot whose job is missing (`DefaultValidator`).
const TARGET_NOT_FOUND: &str = "Target for snapshot";

/// A FlinkStateSnapshot whose `spec.jobReference` names nothing that exists.
fn snapshot_finding(s: &Snapshot, index: &Index, sn: &FlinkStateSnapshot) -> Option<Finding> {
    let (ns, name) = (sn.namespace(), sn.name());
    let reference = sn.spec.job_reference.as_ref()?;
    let target = reference.name.as_deref().filter(|n| !n.is_empty())?;
    let kind = match reference.kind.as_deref() {
        Some("FlinkSessionJob") => "FlinkSessionJob",
        _ => "FlinkDeployment",
    };
    let already = sn
        .spec
        .savepoint
        .as_ref()
        .and_then(|v| v.get("alreadyExists"))
        .and_then(|v| v.as_bool())
        == Some(true);
    // Taken already (or recorded as taken): its path stands without its job.
    let state = sn.status.as_ref().and_then(|st| st.state.as_deref());
    if already || state.is_some_and(|st| st != "TRIGGER_PENDING") {
        return None;
    }
    let (plural, exists) = if kind == "FlinkSessionJob" {
        (
            "flinksessionjobs",
            s.flink_session_jobs
                .iter()
                .any(|j| j.namespace() == ns && j.name() == target),
        )
    } else {
        (
            "flinkdeployments",
            index.flink_deployment(ns, target).is_some(),
        )
    };
    if exists {
        return None;
    }
    let what = sn.what();
    let me = ObjectRef::namespaced("FlinkStateSnapshot", ns, name);
    let qkind = kind.to_ascii_lowercase();
    // Not read, so not known: said at info, never passed over as if checked (`doctor NAME` of
    // the snapshot must not answer "No problems found" about a job it never saw).
    if !s.holds(kind) || unread(s, plural, ns) {
        let why = if s.holds(kind) {
            format!("the list of {kind}s in namespace {ns} failed")
        } else {
            format!("the bundle holds no {kind} at all")
        };
        return Some(
            Finding::new(
                &META,
                me.clone(),
                format!(
                    "FlinkStateSnapshot {name} ({what}) is for {kind} {target}, which was not read: whether it exists is not known"
                ),
            )
            .severity(Severity::Info)
            .deployment(Some(me))
            .evidence(format!(
                "spec.jobReference: {{kind: {kind}, name: {target}}}; {why}"
            ))
            .fix(format!(
                "Check that {kind} {target} exists (the operator refuses the {what} otherwise), or diagnose the cluster itself rather than a bundle without it:\n\
                 kubectl get {qkind} {} -n {}",
                sh(target),
                sh(ns)
            ))
            .verify(format!(
                "kubectl get flinkstatesnapshot {} -n {} -o jsonpath='{{.status.state}}{{\"\\n\"}}'   # expect IN_PROGRESS or COMPLETED",
                sh(name),
                sh(ns)
            )),
        );
    }
    let mut f = Finding::new(
        &META,
        me.clone(),
        format!(
            "FlinkStateSnapshot {name} ({what}) is for {kind} {target}, which does not exist in namespace {ns}: nothing takes the {what}"
        ),
    )
    .deployment(Some(me))
    .evidence(format!(
        "spec.jobReference: {{kind: {kind}, name: {target}}}, and no {kind} {target} exists in namespace {ns}"
    ))
    .evidence(format!(
        "status.state: {}",
        state.unwrap_or("(none: the operator has not accepted it)")
    ));
    let events: Vec<_> = index
        .events_for("FlinkStateSnapshot", ns, name)
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .collect();
    for e in events.iter().rev().take(3).rev() {
        f = f.evidence(event_line(e));
    }
    if events.iter().any(|e| {
        e.message
            .as_deref()
            .is_some_and(|m| m.contains(TARGET_NOT_FOUND))
    }) {
        f = f.evidence(format!(
            "the operator's validator refuses the {what} until {kind} {target} exists (`{TARGET_NOT_FOUND} {ns}/{target} was not found`)"
        ));
    }
    // The jobs of the namespace it could be meant for, of the kind it names.
    let candidates: Vec<&str> = if kind == "FlinkSessionJob" {
        s.flink_session_jobs
            .iter()
            .filter(|j| j.namespace() == ns)
            .map(|j| j.name())
            .collect()
    } else {
        s.flink_deployments
            .iter()
            .filter(|d| d.namespace() == ns && d.spec.job.is_some())
            .map(|d| d.name())
            .collect()
    };
    let (qns, qname) = (sh(ns), sh(name));
    let (job, how) = match candidates.as_slice() {
        [one] => (
            one.to_string(),
            format!("the {kind} of namespace {ns} is {one}: re-create the snapshot for it"),
        ),
        _ => (
            format!("<name of the {kind} whose job the {what} is of>"),
            format!(
                "create {kind} {target}, or re-create the snapshot for the job it is meant for (one placeholder to fill)"
            ),
        ),
    };
    let fix = format!(
        "Nothing in namespace {ns} takes the {what}: {how}.\n\
         kubectl delete flinkstatesnapshot {qname} -n {qns}\n{}",
        recreate(sn, kind, &job)
    );
    let verify = format!(
        "kubectl get flinkstatesnapshot {qname} -n {qns} -o jsonpath='{{.spec.jobReference.name}} {{.status.state}}{{\"\\n\"}}'   # expect an existing job, then IN_PROGRESS or COMPLETED"
    );
    Some(f.fix(fix).verify(verify))
}

fn finding(s: &Snapshot, index: &Index, job: &FlinkSessionJob) -> Option<Finding> {
    let wanted = job
        .spec
        .deployment_name
        .as_deref()
        .filter(|d| !d.is_empty())?;
    let (ns, name) = (job.namespace(), job.name());
    if index.flink_deployment(ns, wanted).is_some() {
        return None;
    }
    let here: Vec<&FlinkDeployment> = s
        .flink_deployments
        .iter()
        .filter(|d| d.namespace() == ns)
        .collect();
    // Session clusters: FlinkDeployments without a job of their own.
    let sessions: Vec<&FlinkDeployment> = here
        .iter()
        .copied()
        .filter(|d| d.spec.job.is_none())
        .collect();
    let me = ObjectRef::namespaced("FlinkSessionJob", ns, name);
    let mut f = Finding::new(
        &META,
        me.clone(),
        format!(
            "FlinkSessionJob {name} waits for session cluster {wanted}: no FlinkDeployment {wanted} exists in namespace {ns}"
        ),
    )
    .deployment(Some(me))
    .evidence(format!(
        "spec.deploymentName: {wanted}, and no FlinkDeployment {wanted} exists in namespace {ns}"
    ));
    f = f.evidence(match here.as_slice() {
        [] => format!("namespace {ns} has no FlinkDeployment at all"),
        _ => format!(
            "FlinkDeployments in namespace {ns}: {} (session clusters: {})",
            here.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
            match sessions.as_slice() {
                [] => "none".to_string(),
                s => s.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
            }
        ),
    });
    let events: Vec<_> = index
        .events_for("FlinkSessionJob", ns, name)
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .collect();
    for e in events.iter().rev().take(3).rev() {
        f = f.evidence(event_line(e));
    }
    if events
        .iter()
        .any(|e| e.reason.as_deref() == Some(EVENT_REASON))
    {
        f = f.evidence(format!(
            "the operator's `{EVENT_REASON}: Flink version null` means it found no FlinkDeployment {wanted} to take the job's Flink version from"
        ));
    }
    // The running Apache operator's release, for the Flink version it supports.
    let operator = super::support::install::operators(s)
        .into_iter()
        .filter(|o| o.is_apache())
        .find_map(|o| o.version().map(|(v, _)| v));
    let create = create_session(ns, wanted, here.first().copied(), operator);
    let fix = match sessions.as_slice() {
        [first, ..] => format!(
            "Point the job at the session cluster of namespace {ns} it was meant for ({}), while it has never been deployed (the operator refuses the change afterwards: then delete and re-create the job):\n\
             kubectl patch flinksessionjob {name} -n {ns} --type=merge -p '{{\"spec\":{{\"deploymentName\":\"{}\"}}}}'\n\n\
             or create the session cluster {wanted} it names:\n{create}",
            sessions.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
            first.name()
        ),
        [] => format!("Create the session cluster {wanted} the job names:\n{create}"),
    };
    let verify = format!(
        "kubectl get flinkdeployment {target} -n {ns} && kubectl get flinksessionjob {name} -n {ns} -o jsonpath='{{.status.lifecycleState}} {{.status.jobStatus.state}}{{\"\\n\"}}'   # expect the FlinkDeployment listed, then STABLE RUNNING",
        // spec.deploymentName is a free value (the API server does not check it names anything).
        target = sh(sessions.first().map(|d| d.name()).unwrap_or(wanted)),
    );
    Some(f.fix(fix).verify(verify))
}

/// The snapshot as `kubectl apply` takes it, its spec kept, for the job `job` of kind `kind`.
fn recreate(sn: &FlinkStateSnapshot, kind: &str, job: &str) -> String {
    let mut spec = serde_json::to_value(&sn.spec).unwrap_or_default();
    spec["jobReference"] = serde_json::json!({"kind": kind, "name": job});
    let doc = serde_json::json!({
        "apiVersion": "flink.apache.org/v1beta1",
        "kind": "FlinkStateSnapshot",
        "metadata": {"name": sn.name(), "namespace": sn.namespace()},
        "spec": spec,
    });
    let text = serde_yaml::to_string(&doc).unwrap_or_default();
    format!("kubectl apply -f - <<'EOF'\n{text}EOF")
}

/// A session FlinkDeployment named `name` (no `spec.job`), with the image, Flink version and
/// ServiceAccount of another FlinkDeployment of the namespace when there is one.
/// Without one, the newest Flink version the running operator supports (an operator that meets
/// a flinkVersion its release does not know stops reconciling: the lab's operator 1.7.0 crash-looped
/// on a v1_20 session cluster this fix once proposed), else 1.20.
fn create_session(
    ns: &str,
    name: &str,
    like: Option<&FlinkDeployment>,
    operator: Option<super::support::install::Version>,
) -> String {
    let spec = like.map(|d| &d.spec);
    let newest = operator.and_then(super::support::flink_versions::newest);
    let image = spec
        .and_then(|s| s.image.clone())
        .or_else(|| newest.as_ref().map(|(_, i)| i.clone()))
        .unwrap_or_else(|| "flink:1.20".into());
    let version = spec
        .and_then(|s| s.flink_version.as_deref())
        .or(newest.as_ref().map(|(v, _)| *v))
        .unwrap_or("v1_20");
    let image = image.as_str();
    let sa = spec
        .and_then(|s| s.service_account.as_deref())
        .unwrap_or("flink");
    // The name comes from the job's spec.deploymentName, the rest from another spec: free
    // values, each a YAML scalar that reads back as itself.
    let (name, image, version, sa) = (yaml(name), yaml(image), yaml(version), yaml(sa));
    format!(
        "kubectl apply -f - <<'EOF'\n\
         apiVersion: flink.apache.org/v1beta1\n\
         kind: FlinkDeployment\n\
         metadata:\n  name: {name}\n  namespace: {ns}\n\
         spec:\n  image: {image}\n  flinkVersion: {version}\n  serviceAccount: {sa}\n\
         \x20 jobManager:\n    resource: {{memory: 2048m, cpu: 1}}\n\
         \x20 taskManager:\n    resource: {{memory: 2048m, cpu: 1}}\n\
         EOF"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Remedy;
    use crate::rules::testing::{run, scenario, snapshot, HEALTHY_SCENARIOS};

    const ORPHAN: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: jobs}
spec:
  deploymentName: session-cluster
  job: {jarURI: "https://example.org/wordcount.jar", parallelism: 2, upgradeMode: stateless}
---
apiVersion: v1
kind: Event
metadata: {name: wordcount.1, namespace: jobs}
involvedObject: {kind: FlinkSessionJob, namespace: jobs, name: wordcount}
reason: UnsupportedFlinkVersion
type: Warning
count: 4
lastTimestamp: "2026-11-28T10:20:00Z"
message: "Flink version null is not supported by this operator version"
"#;

    /// A snapshot that read FlinkDeployments (a live one: `bundle_kinds` is `None`).
    fn orphan(extra: &str) -> Snapshot {
        snapshot(&format!("{ORPHAN}---\n{extra}"))
    }

    const SESSION: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: shared, namespace: jobs}
spec: {image: "flink:1.19", flinkVersion: v1_19, serviceAccount: runner}
"#;

    #[test]
    fn a_job_of_no_cluster_names_it_quotes_the_operator_and_creates_it() {
        let f = run(&SessionClusterMissing, &orphan(""));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::SessionClusterMissing);
        assert_eq!(f.severity, Severity::Critical);
        assert_eq!(
            f.title,
            "FlinkSessionJob wordcount waits for session cluster session-cluster: no FlinkDeployment session-cluster exists in namespace jobs"
        );
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced(
                "FlinkSessionJob",
                "jobs",
                "wordcount"
            ))
        );
        assert!(f.evidence.iter().any(|e| e.contains(
            "event Warning UnsupportedFlinkVersion x4 (last 2026-11-28T10:20:00Z) on FlinkSessionJob/wordcount: Flink version null is not supported by this operator version"
        )), "{:?}", f.evidence);
        assert!(f
            .evidence
            .contains(&"namespace jobs has no FlinkDeployment at all".to_string()));
        let r = Remedy::from_fix(&f.fix);
        assert_eq!(r.apply.len(), 1, "{}", f.fix);
        assert!(r.apply[0].contains(
            "kind: FlinkDeployment\nmetadata:\n  name: session-cluster\n  namespace: jobs\n"
        ));
        assert!(!r.apply[0].contains("job:"), "a session cluster has no job");
        let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
        assert_eq!(doc["spec"]["jobManager"]["resource"]["cpu"], 1);
        assert!(f
            .verify
            .starts_with("kubectl get flinkdeployment session-cluster -n jobs"));
    }

    #[test]
    fn with_a_session_cluster_in_the_namespace_the_fix_points_the_job_at_it() {
        let f = run(&SessionClusterMissing, &orphan(SESSION));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert!(f
            .evidence
            .iter()
            .any(|e| e == "FlinkDeployments in namespace jobs: shared (session clusters: shared)"));
        let r = Remedy::from_fix(&f.fix);
        assert_eq!(
            r.run,
            [
                r#"kubectl patch flinksessionjob wordcount -n jobs --type=merge -p '{"spec":{"deploymentName":"shared"}}'"#
            ]
        );
        assert!(r.apply.is_empty(), "the first way only: {r:?}");
        // The other way, for a person, copies the namespace's image and version.
        assert!(f
            .fix
            .contains("image: flink:1.19\n  flinkVersion: v1_19\n  serviceAccount: runner"));
        assert!(f
            .verify
            .starts_with("kubectl get flinkdeployment shared -n jobs"));
    }

    #[test]
    fn silent_when_the_cluster_exists_or_when_flinkdeployments_were_not_read() {
        let named = SESSION.replace("name: shared", "name: session-cluster");
        assert!(run(&SessionClusterMissing, &orphan(&named)).is_empty());
        // Another namespace's FlinkDeployment of that name is not the job's.
        let elsewhere = named.replace("namespace: jobs", "namespace: other");
        assert_eq!(run(&SessionClusterMissing, &orphan(&elsewhere)).len(), 1);
        // A bundle without FlinkDeployments at all says nothing about them.
        let mut s = orphan("");
        s.bundle_kinds = Some(["FlinkSessionJob".to_string(), "Event".to_string()].into());
        assert!(run(&SessionClusterMissing, &s).is_empty());
        // A live list that was refused.
        let mut s = orphan("");
        s.gaps.push(crate::snapshot::Gap {
            verb: "list".into(),
            group: "flink.apache.org".into(),
            resource: "flinkdeployments".into(),
            namespace: Some("jobs".into()),
            reason: crate::snapshot::GapReason::Forbidden,
            message: "forbidden".into(),
        });
        assert!(run(&SessionClusterMissing, &s).is_empty());
        for name in HEALTHY_SCENARIOS {
            assert!(
                run(&SessionClusterMissing, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }

    const SNAPSHOT: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkStateSnapshot
metadata: {name: orders-sp, namespace: jobs}
spec:
  backoffLimit: 1
  jobReference: {kind: FlinkDeployment, name: orders}
  savepoint: {path: "s3://bucket/savepoints", formatType: CANONICAL, disposeOnDelete: true, alreadyExists: false}
---
apiVersion: v1
kind: Event
metadata: {name: orders-sp.1, namespace: jobs}
involvedObject: {kind: FlinkStateSnapshot, namespace: jobs, name: orders-sp}
reason: ValidationError
type: Warning
count: 7
lastTimestamp: "2026-11-28T10:20:00Z"
message: "Target for snapshot jobs/orders was not found"
"#;

    const APP: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders-v2, namespace: jobs}
spec: {image: "flink:1.20", flinkVersion: v1_20, serviceAccount: flink, job: {jarURI: "local:///opt/flink/usrlib/orders.jar", upgradeMode: savepoint}}
"#;

    #[test]
    fn a_snapshot_of_no_job_names_the_missing_flinkdeployment_and_the_operators_event() {
        let f = run(&SessionClusterMissing, &snapshot(SNAPSHOT));
        assert_eq!(f.len(), 1, "{f:?}");
        let f = &f[0];
        assert_eq!(f.category, Category::SessionClusterMissing);
        assert_eq!(
            f.object,
            ObjectRef::namespaced("FlinkStateSnapshot", "jobs", "orders-sp")
        );
        assert_eq!(
            f.title,
            "FlinkStateSnapshot orders-sp (savepoint) is for FlinkDeployment orders, which does not exist in namespace jobs: nothing takes the savepoint"
        );
        assert!(f.evidence.iter().any(|e| e.contains(
            "event Warning ValidationError x7 (last 2026-11-28T10:20:00Z) on FlinkStateSnapshot/orders-sp: Target for snapshot jobs/orders was not found"
        )), "{:?}", f.evidence);
        // No job in the namespace: the one value a person must give is the one placeholder.
        let r = Remedy::from_fix(&f.fix);
        assert_eq!(
            r.run,
            ["kubectl delete flinkstatesnapshot orders-sp -n jobs"],
            "{}",
            f.fix
        );
        assert_eq!(r.apply.len(), 1, "{}", f.fix);
        assert_eq!(r.apply[0].matches('<').count(), 1, "{}", r.apply[0]);
        let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
        assert_eq!(doc["spec"]["savepoint"]["path"], "s3://bucket/savepoints");
        assert_eq!(doc["spec"]["jobReference"]["kind"], "FlinkDeployment");
        // The one application of the namespace: the snapshot is re-created for it, no placeholder.
        let f = run(
            &SessionClusterMissing,
            &snapshot(&format!("{SNAPSHOT}---\n{APP}")),
        );
        let r = Remedy::from_fix(&f[0].fix);
        let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
        assert_eq!(doc["spec"]["jobReference"]["name"], "orders-v2");
        assert!(!r.apply[0].contains('<'));
    }

    #[test]
    fn silent_for_a_snapshot_whose_job_exists_or_that_needs_none() {
        let app = APP.replace("orders-v2", "orders");
        assert!(run(
            &SessionClusterMissing,
            &snapshot(&format!("{SNAPSHOT}---\n{app}"))
        )
        .is_empty());
        // Recorded as existing: no job needed.
        let already = SNAPSHOT.replace("alreadyExists: false", "alreadyExists: true");
        assert!(run(&SessionClusterMissing, &snapshot(&already)).is_empty());
        // Taken before its job went away: the savepoint stands.
        let done = SNAPSHOT.replacen(
            "---\napiVersion: v1\nkind: Event",
            "status: {state: COMPLETED}\n---\napiVersion: v1\nkind: Event",
            1,
        );
        assert!(
            run(&SessionClusterMissing, &snapshot(&done)).is_empty(),
            "{done}"
        );
        // Still waiting for its trigger: still refused.
        let pending = done.replace("state: COMPLETED", "state: TRIGGER_PENDING");
        assert_eq!(run(&SessionClusterMissing, &snapshot(&pending)).len(), 1);
    }

    #[test]
    fn a_snapshot_whose_job_was_not_read_is_said_at_info_never_passed_over() {
        let mut s = snapshot(SNAPSHOT);
        s.bundle_kinds = Some(["FlinkStateSnapshot".to_string(), "Event".to_string()].into());
        let f = run(&SessionClusterMissing, &s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].title.contains("which was not read"), "{}", f[0].title);
        assert!(f[0]
            .fix
            .contains("kubectl get flinkdeployment orders -n jobs"));
    }
}

//! FLK401: the operator reports a FlinkDeployment or FlinkSessionJob as broken in its status.
//!
//! Read from `.status` (the CRD status schema and the API enums of
//! apache/flink-kubernetes-operator@release-1.15.0, `flink-kubernetes-operator-api`):
//! - `jobManagerDeploymentStatus` `ERROR` (a `DeploymentFailedException`: CrashLoopBackOff,
//!   ImagePullBackOff, FailedMount, FailedCreate, ...) or `MISSING` after a deployment;
//! - `DEPLOYING` / `DEPLOYED_NOT_READY` for longer than
//!   `kubernetes.operator.deployment.readiness.timeout` (5 min) after the last reconciliation
//!   (`captured_at` is "now"; rules never read the clock);
//! - `lifecycleState` `FAILED`, `ROLLING_BACK` / `ROLLED_BACK`, and job state `FAILED`;
//! - `status.error`, normally a JSON `FlinkResourceException` (`type`, `message`,
//!   `additionalMetadata.reason`, `throwableList[]`) decoded down to its root cause, or a plain
//!   string (`Job Not Found`, an exception's `toString()`);
//! - the Warning events the operator records on the resource.
//!
//! The category is what the decoded messages say: the signature catalogue first, then the
//! Kubernetes reason the operator copied (`CrashLoopBackOff` -> `flink_fatal_exit`,
//! `ImagePullBackOff` -> `image_pull_failed`, ...), the validator's words, and the JobManager
//! pods. This is the CR-level view of a failure whose pod-level cause other rules report
//! (FLK101, FLK103-FLK109, FLK501 list FLK401 in their `explains`), so it folds under them.

use super::support::containers::{one_line, roots};
use super::support::pod_status::containers;
use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Component;
use crate::flink::operator_error::OperatorError;
use crate::shell::sh;
use crate::signatures::{catalogue, Match};
use crate::snapshot::flink::{FlinkDeployment, FlinkSessionJob, JobSpec};
use crate::snapshot::index::{deployment_ref, pod_component, pod_name};
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};
use chrono::{DateTime, Duration, Utc};
use k8s_openapi::api::core::v1::Event;

mod category;
mod fix;
mod jobmanager;
mod memory;
mod slots;
mod web_submit;

use category::{categorize, KUBE_REASONS};
use fix::{
    artifact_unreachable, failed_container, fix, operator_named_container, validated_spec_changed,
    validation_predates_spec,
};

pub struct FlinkResourceStatus;

static META: RuleMeta = RuleMeta {
    id: "FLK401",
    name: "flink_resource_status",
    summary: "the operator reports a FlinkDeployment or FlinkSessionJob as broken in its status (`status.error` decoded)",
    category: Category::FlinkFatalExit,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"fix what the operator's status.error says (doctor decodes it and names the cause); the operator tries again on its next reconcile"#,
    verify: r#"kubectl get flinkdeployment <name> -o jsonpath='{.status.lifecycleState} {.status.jobStatus.state} {.status.error}'   # expect STABLE RUNNING and no error"#,
};

/// `kubernetes.operator.deployment.readiness.timeout` default.
const READINESS_TIMEOUT_MIN: i64 = 5;

impl Rule for FlinkResourceStatus {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out: Vec<Finding> = snapshot
            .flink_deployments
            .iter()
            .filter_map(|fd| check_deployment(snapshot, index, fd))
            .collect();
        out.extend(
            snapshot
                .flink_session_jobs
                .iter()
                .filter_map(|sj| check_session_job(snapshot, index, sj)),
        );
        out
    }
}

/// One thing wrong in the status, worst first.
#[derive(Debug, Clone, PartialEq)]
enum StatusProblem {
    JmError,
    JmMissing,
    Stuck { state: String, minutes: i64 },
    LifecycleFailed,
    JobFailed,
    RolledBack(String),
    ErrorReported,
}

impl StatusProblem {
    fn severity(&self) -> Severity {
        match self {
            StatusProblem::RolledBack(_) | StatusProblem::ErrorReported => Severity::Warning,
            _ => Severity::Critical,
        }
    }
}

/// `status.error` as evidence lines: each field of the JSON form with its path, the last three
/// causes (the root marked), or the plain text.
fn error_evidence(e: &OperatorError, raw: &str, path: &str) -> Vec<String> {
    if !e.json {
        return vec![format!("{path}: {}", one_line(raw))];
    }
    let mut out = Vec::new();
    if let Some(t) = &e.type_ {
        out.push(format!("{path}.type: {t}"));
    }
    if let Some(m) = &e.message {
        out.push(format!("{path}.message: {}", one_line(m)));
    }
    if let Some(r) = &e.reason {
        out.push(format!("{path}.additionalMetadata.reason: {r}"));
    }
    if let Some(c) = &e.http_code {
        out.push(format!("{path}.additionalMetadata.httpResponseCode: {c}"));
    }
    let n = e.throwables.len();
    for (i, t) in e.throwables.iter().enumerate().skip(n.saturating_sub(3)) {
        out.push(format!(
            "{path}.throwableList[{i}]: {}{}{}",
            t.type_.as_deref().unwrap_or("?"),
            t.message
                .as_deref()
                .map(|m| format!(": {}", one_line(m)))
                .unwrap_or_default(),
            if i + 1 == n { "   (root cause)" } else { "" }
        ));
    }
    out
}

/// What decided the category, for the fix.
#[derive(Debug)]
enum Basis {
    Signature(Match),
    Validation(String),
    Reason,
    Words,
    Pod(String),
    /// The operator could not observe a job that ended (`category::terminal_job_unobserved`).
    TerminalJobUnobserved,
    Default,
}

/// The fields common to FlinkDeployment and FlinkSessionJob status.
struct View<'a> {
    kind: &'static str,
    ns: &'a str,
    name: &'a str,
    jm: Option<&'a str>,
    lifecycle: Option<&'a str>,
    job: Option<&'a str>,
    error: Option<&'a str>,
    reconciled_at: Option<DateTime<Utc>>,
    events: Vec<&'a Event>,
    job_spec: Option<&'a JobSpec>,
}

fn check_deployment(snapshot: &Snapshot, index: &Index, fd: &FlinkDeployment) -> Option<Finding> {
    let st = fd.status.as_ref()?;
    let view = View {
        kind: "FlinkDeployment",
        ns: fd.namespace(),
        name: fd.name(),
        jm: st.job_manager_deployment_status.as_deref(),
        lifecycle: st.lifecycle_state.as_deref(),
        job: st.job_status.as_ref().and_then(|j| j.state.as_deref()),
        error: st.error.as_deref().filter(|e| !e.trim().is_empty()),
        reconciled_at: st
            .reconciliation_status
            .as_ref()
            .and_then(|r| r.reconciliation_timestamp)
            .and_then(DateTime::from_timestamp_millis)
            .or_else(|| {
                fd.metadata
                    .creation_timestamp
                    .as_ref()
                    .and_then(crate::snapshot::to_utc)
            }),
        // An event printed for an earlier spec's memory sizes outlives the spec (events last an
        // hour): it says nothing of the spec now (memory.rs).
        events: warnings(index.events_for("FlinkDeployment", fd.namespace(), fd.name()))
            .into_iter()
            .filter(|e| {
                !e.message
                    .as_deref()
                    .is_some_and(|m| memory::printed_for_earlier_spec(m, fd))
            })
            .collect(),
        job_spec: fd.spec.job.as_ref(),
    };
    let problems = problems(&view, snapshot.captured_at);
    let first = problems.first()?.clone();
    let jm_pods: Vec<&Pod> = index
        .pods_of(fd)
        .into_iter()
        .filter(|p| pod_component(p) == Some(Component::JobManager))
        .collect();
    Some(build(
        snapshot,
        index,
        &view,
        &problems,
        first,
        Some(fd),
        &jm_pods,
        deployment_ref(fd),
    ))
}

fn check_session_job(snapshot: &Snapshot, index: &Index, sj: &FlinkSessionJob) -> Option<Finding> {
    let st = sj.status.as_ref()?;
    let view = View {
        kind: "FlinkSessionJob",
        ns: sj.namespace(),
        name: sj.name(),
        jm: None,
        lifecycle: st.lifecycle_state.as_deref(),
        job: st.job_status.as_ref().and_then(|j| j.state.as_deref()),
        error: st.error.as_deref().filter(|e| !e.trim().is_empty()),
        reconciled_at: None,
        events: warnings(index.events_for("FlinkSessionJob", sj.namespace(), sj.name())),
        job_spec: sj.spec.job.as_ref(),
    };
    let problems = problems(&view, snapshot.captured_at);
    let first = problems.first()?.clone();
    // A session job belongs with its session cluster: the cluster's pod-level causes explain it.
    let cluster = sj
        .spec
        .deployment_name
        .as_deref()
        .and_then(|d| index.flink_deployment(sj.namespace(), d));
    let group = cluster
        .map(deployment_ref)
        .unwrap_or_else(|| ObjectRef::namespaced("FlinkSessionJob", sj.namespace(), sj.name()));
    let jm_pods: Vec<&Pod> = cluster
        .map(|c| {
            index
                .pods_of(c)
                .into_iter()
                .filter(|p| pod_component(p) == Some(Component::JobManager))
                .collect()
        })
        .unwrap_or_default();
    let mut f = build(
        snapshot, index, &view, &problems, first, cluster, &jm_pods, group,
    );
    if let Some(uri) = sj.spec.job.as_ref().and_then(|j| j.jar_uri.as_deref()) {
        f = artifact_unreachable(f, &view, uri);
    }
    if let Some(d) = sj.spec.deployment_name.as_deref() {
        let fds_read = !snapshot
            .gaps
            .iter()
            .any(|g| g.resource == "flinkdeployments");
        if cluster.is_none() && fds_read {
            f = f.evidence(format!(
                "spec.deploymentName: {d}, and no FlinkDeployment {d} exists in namespace {}",
                sj.namespace()
            ));
        } else {
            f = f.evidence(format!("spec.deploymentName: {d}"));
        }
    }
    Some(f)
}

fn warnings(events: Vec<&Event>) -> Vec<&Event> {
    events
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .collect()
}

fn problems(v: &View, now: DateTime<Utc>) -> Vec<StatusProblem> {
    let mut out = Vec::new();
    let suspended = v.lifecycle == Some("SUSPENDED")
        || v.job_spec.and_then(|j| j.state.as_deref()) == Some("suspended");
    match v.jm {
        Some("ERROR") => out.push(StatusProblem::JmError),
        Some("MISSING")
            if !suspended
                && (v.error.is_some()
                    || matches!(
                        v.lifecycle,
                        Some("FAILED" | "DEPLOYED" | "STABLE" | "ROLLED_BACK")
                    )) =>
        {
            out.push(StatusProblem::JmMissing)
        }
        Some(s @ ("DEPLOYING" | "DEPLOYED_NOT_READY")) => {
            if let Some(t) = v.reconciled_at {
                let waited = now.signed_duration_since(t);
                if waited > Duration::minutes(READINESS_TIMEOUT_MIN) {
                    out.push(StatusProblem::Stuck {
                        state: s.to_string(),
                        minutes: waited.num_minutes(),
                    });
                }
            }
        }
        _ => {}
    }
    if v.lifecycle == Some("FAILED") {
        out.push(StatusProblem::LifecycleFailed);
    }
    if v.job == Some("FAILED") {
        out.push(StatusProblem::JobFailed);
    }
    if let Some(s @ ("ROLLING_BACK" | "ROLLED_BACK")) = v.lifecycle {
        out.push(StatusProblem::RolledBack(s.to_string()));
    }
    if out.is_empty() && v.error.is_some() && !suspended {
        out.push(StatusProblem::ErrorReported);
    }
    out
}

fn headline(kind: &str, p: &StatusProblem, reason: Option<&str>, root: Option<&str>) -> String {
    let because = match (reason, root) {
        (Some(r), _) => format!(": {r}"),
        (None, Some(m)) => format!(": {}", short(m, 120)),
        _ => String::new(),
    };
    match p {
        StatusProblem::JmError => format!("JobManager deployment failed (jobManagerDeploymentStatus ERROR){because}"),
        StatusProblem::JmMissing => format!("JobManager deployment is missing (jobManagerDeploymentStatus MISSING){because}"),
        StatusProblem::Stuck { state, .. } => format!(
            "JobManager has not become ready ({state} for longer than the {READINESS_TIMEOUT_MIN} min readiness timeout){because}"
        ),
        StatusProblem::LifecycleFailed => format!("{kind} failed (lifecycleState FAILED){because}"),
        StatusProblem::JobFailed => format!("the job FAILED (jobStatus.state FAILED){because}"),
        StatusProblem::RolledBack(s) => format!("the last spec change was rolled back ({s}){because}"),
        StatusProblem::ErrorReported => format!("the operator reports an error{because}"),
    }
}

fn short(s: &str, n: usize) -> String {
    let one = one_line(s);
    if one.chars().count() > n {
        format!("{}…", one.chars().take(n).collect::<String>())
    } else {
        one
    }
}

#[allow(clippy::too_many_arguments)]
fn build(
    snapshot: &Snapshot,
    index: &Index,
    v: &View,
    problems: &[StatusProblem],
    first: StatusProblem,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
    group: ObjectRef,
) -> Finding {
    let decoded = v.error.map(OperatorError::parse);
    let event_reason = v
        .events
        .iter()
        .rev()
        .filter_map(|e| e.reason.as_deref())
        .find(|r| KUBE_REASONS.contains(r) || *r == "ValidationError");
    let reason = decoded
        .as_ref()
        .and_then(|d| d.reason.clone())
        .or(event_reason.map(str::to_string));
    let (category, basis) = categorize(
        decoded.as_ref(),
        &v.events,
        reason.as_deref(),
        jm_pods,
        &first,
    );
    // An option Flink could not parse: the wrapper names the key and the value, the parser's root
    // cause (`NumberFormatException: For input string: "two"`) names neither. A REST answer
    // (`[POST request not allowed]`) says what was refused, the signature's title why.
    let root = match &basis {
        Basis::Signature(m)
            if category == Category::ConfigOptionInvalid
                || m.signature.id == "SIG-WEB-SUBMIT-REFUSED" =>
        {
            Some(m.title())
        }
        _ => decoded.as_ref().and_then(OperatorError::root_summary),
    };
    let title_reason = reason.as_deref().filter(|r| *r != "ValidationError");
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced(v.kind, v.ns, v.name),
        headline(v.kind, &first, title_reason, root.as_deref()),
    )
    .severity(first.severity())
    .deployment(Some(group));
    f.category = category;
    f.layer = category.layer();
    if let Some(jm) = v.jm {
        f = f.evidence(format!("status.jobManagerDeploymentStatus: {jm}"));
    }
    if let Some(lc) = v.lifecycle {
        f = f.evidence(format!("status.lifecycleState: {lc}"));
    }
    if let Some(j) = v.job {
        f = f.evidence(format!("status.jobStatus.state: {j}"));
    }
    for p in problems {
        if let StatusProblem::Stuck { minutes, .. } = p {
            if let Some(t) = v.reconciled_at {
                f = f.evidence(format!(
                    "last reconciled at {} ({minutes} min before the snapshot; kubernetes.operator.deployment.readiness.timeout is {READINESS_TIMEOUT_MIN} min)",
                    t.format("%Y-%m-%dT%H:%M:%SZ")
                ));
            }
        }
    }
    if let (Some(d), Some(raw)) = (&decoded, v.error) {
        for line in error_evidence(d, raw, "status.error") {
            f = f.evidence(line);
        }
    }
    if let Basis::Signature(m) = &basis {
        f = f.evidence(format!(
            "{} matches {}: {}",
            m.line, m.signature.id, m.signature.explanation
        ));
    }
    for e in v.events.iter().rev().take(4).rev() {
        f = f.evidence(super::support::containers::event_line(e));
    }
    if let Basis::Pod(p) = &basis {
        f = f.evidence(p.clone());
    }
    // The job's last state change, which the status could not record.
    if let Basis::TerminalJobUnobserved = &basis {
        if let Some(e) = index
            .events_for(v.kind, v.ns, v.name)
            .into_iter()
            .rev()
            .find(|e| e.reason.as_deref() == Some("JobStatusChanged"))
        {
            f = f.evidence(super::support::containers::event_line(e));
        }
    }
    // The operator names the container it saw fail (kubelet's `back-off 40s restarting failed
    // container=C pod=P_NS(UID)`): only a cause of that container explains this, so a
    // crash-looping sidecar and a crash-looping main container fold under their own causes.
    let message = decoded.as_ref().and_then(|d| d.message.as_deref());
    if let Some((c, pod, pod_ns)) = message.and_then(failed_container) {
        f = f
            .link(link::container_name(&c))
            .link(link::container(&pod_ns, &pod, &c));
    } else if let Some(c) = message.and_then(operator_named_container) {
        // Operator 1.12+ names the container, not the pod (`[C] CrashLoop - MESSAGE`, `[C]
        // Back-off pulling image ...`): that container of each JobManager pod of the cluster.
        if !jm_pods.is_empty() {
            f = f.link(link::container_name(c));
        }
        for p in jm_pods {
            f = f.link(link::container(v.ns, pod_name(p), c));
        }
    }
    if let Basis::Validation(msg) = &basis {
        f = f.link(link::validation(msg));
        if let Some(now) = fd.and_then(|d| validated_spec_changed(d, msg)) {
            return validation_predates_spec(f, v, &now);
        }
    }
    let fix = fix(
        snapshot,
        index,
        v,
        category,
        &basis,
        fd,
        jm_pods,
        decoded.as_ref(),
    );
    f.fix(fix).verify(verify(v))
}

fn kubectl_kind(kind: &str) -> &'static str {
    if kind == "FlinkSessionJob" {
        "flinksessionjob"
    } else {
        "flinkdeployment"
    }
}

fn verify(v: &View) -> String {
    match v.kind {
        "FlinkSessionJob" => format!(
            "kubectl get flinksessionjob {} -n {} -o jsonpath='{{.status.lifecycleState}} {{.status.jobStatus.state}} {{.status.error}}{{\"\\n\"}}'   # expect STABLE RUNNING and no error",
            sh(v.name), sh(v.ns)
        ),
        _ => format!(
            "kubectl get flinkdeployment {} -n {} -o jsonpath='{{.status.jobManagerDeploymentStatus}} {{.status.lifecycleState}} {{.status.jobStatus.state}}{{\"\\n\"}}'   # expect READY STABLE{}",
            sh(v.name),
            sh(v.ns),
            if v.job_spec.is_some() { " RUNNING" } else { "" }
        ),
    }
}

/// `flink:1.20.1-scala_2.12-java17` -> `v1_20`.
fn flink_version_of_image(image: &str) -> Option<String> {
    let tag = image.rsplit_once(':')?.1;
    let mut parts = tag.split(['.', '-']);
    let major = parts.next()?.parse::<u32>().ok()?;
    let minor = parts.next()?.parse::<u32>().ok()?;
    Some(format!("v{major}_{minor}"))
}

#[cfg(test)]
mod tests;

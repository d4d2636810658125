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
use crate::flink::names::LABEL_COMPONENT;
use crate::flink::operator_error::OperatorError;
use crate::flink::permissions::Component;
use crate::signatures::{catalogue, Match};
use crate::snapshot::flink::{FlinkDeployment, FlinkSessionJob, JobSpec};
use crate::snapshot::index::{deployment_ref, label, pod_name};
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};
use chrono::{DateTime, Duration, Utc};
use k8s_openapi::api::core::v1::Event;

pub struct FlinkResourceStatus;

static META: RuleMeta = RuleMeta {
    id: "FLK401",
    name: "flink_resource_status",
    summary: "the operator reports a FlinkDeployment or FlinkSessionJob as broken in its status (`status.error` decoded)",
    category: Category::FlinkFatalExit,
    severity: Severity::Critical,
    explains: &[],
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
enum Problem {
    JmError,
    JmMissing,
    Stuck { state: String, minutes: i64 },
    LifecycleFailed,
    JobFailed,
    RolledBack(String),
    ErrorReported,
}

impl Problem {
    fn severity(&self) -> Severity {
        match self {
            Problem::RolledBack(_) | Problem::ErrorReported => Severity::Warning,
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
        events: warnings(index.events_for("FlinkDeployment", fd.namespace(), fd.name())),
        job_spec: fd.spec.job.as_ref(),
    };
    let problems = problems(&view, snapshot.captured_at);
    let first = problems.first()?.clone();
    let jm_pods: Vec<&Pod> = index
        .pods_of(fd)
        .into_iter()
        .filter(|p| label(p, LABEL_COMPONENT) == Some("jobmanager"))
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
                .filter(|p| label(p, LABEL_COMPONENT) == Some("jobmanager"))
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

fn problems(v: &View, now: DateTime<Utc>) -> Vec<Problem> {
    let mut out = Vec::new();
    let suspended = v.lifecycle == Some("SUSPENDED")
        || v.job_spec.and_then(|j| j.state.as_deref()) == Some("suspended");
    match v.jm {
        Some("ERROR") => out.push(Problem::JmError),
        Some("MISSING")
            if !suspended
                && (v.error.is_some()
                    || matches!(
                        v.lifecycle,
                        Some("FAILED" | "DEPLOYED" | "STABLE" | "ROLLED_BACK")
                    )) =>
        {
            out.push(Problem::JmMissing)
        }
        Some(s @ ("DEPLOYING" | "DEPLOYED_NOT_READY")) => {
            if let Some(t) = v.reconciled_at {
                let waited = now.signed_duration_since(t);
                if waited > Duration::minutes(READINESS_TIMEOUT_MIN) {
                    out.push(Problem::Stuck {
                        state: s.to_string(),
                        minutes: waited.num_minutes(),
                    });
                }
            }
        }
        _ => {}
    }
    if v.lifecycle == Some("FAILED") {
        out.push(Problem::LifecycleFailed);
    }
    if v.job == Some("FAILED") {
        out.push(Problem::JobFailed);
    }
    if let Some(s @ ("ROLLING_BACK" | "ROLLED_BACK")) = v.lifecycle {
        out.push(Problem::RolledBack(s.to_string()));
    }
    if out.is_empty() && v.error.is_some() && !suspended {
        out.push(Problem::ErrorReported);
    }
    out
}

fn headline(kind: &str, p: &Problem, reason: Option<&str>, root: Option<&str>) -> String {
    let because = match (reason, root) {
        (Some(r), _) => format!(": {r}"),
        (None, Some(m)) => format!(": {}", short(m, 120)),
        _ => String::new(),
    };
    match p {
        Problem::JmError => format!("JobManager deployment failed (jobManagerDeploymentStatus ERROR){because}"),
        Problem::JmMissing => format!("JobManager deployment is missing (jobManagerDeploymentStatus MISSING){because}"),
        Problem::Stuck { state, .. } => format!(
            "JobManager has not become ready ({state} for longer than the {READINESS_TIMEOUT_MIN} min readiness timeout){because}"
        ),
        Problem::LifecycleFailed => format!("{kind} failed (lifecycleState FAILED){because}"),
        Problem::JobFailed => format!("the job FAILED (jobStatus.state FAILED){because}"),
        Problem::RolledBack(s) => format!("the last spec change was rolled back ({s}){because}"),
        Problem::ErrorReported => format!("the operator reports an error{because}"),
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
    problems: &[Problem],
    first: Problem,
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
    let root = decoded.as_ref().and_then(OperatorError::root_summary);
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
        if let Problem::Stuck { minutes, .. } = p {
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
    // The operator names the container it saw fail (kubelet's `back-off 40s restarting failed
    // container=C pod=P_NS(UID)`): only a cause of that container explains this, so a
    // crash-looping sidecar and a crash-looping main container fold under their own causes.
    if let Some((c, pod, pod_ns)) = decoded
        .as_ref()
        .and_then(|d| d.message.as_deref())
        .and_then(failed_container)
    {
        f = f
            .link(link::container_name(&c))
            .link(link::container(&pod_ns, &pod, &c));
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

/// The Kubernetes reasons the operator copies into `additionalMetadata.reason` and event reasons.
const KUBE_REASONS: &[&str] = &[
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "InvalidImageName",
    "RunContainerError",
    "CreateContainerConfigError",
    "OOMKilled",
    "FailedMount",
    "FailedCreate",
];

fn categorize(
    decoded: Option<&OperatorError>,
    events: &[&Event],
    reason: Option<&str>,
    jm_pods: &[&Pod],
    first: &Problem,
) -> (Category, Basis) {
    let mut texts: Vec<&str> = decoded.map(|d| d.messages()).unwrap_or_default();
    texts.extend(events.iter().filter_map(|e| e.message.as_deref()));
    // 1. The signature catalogue, over each message (a cause before its effects).
    let matches: Vec<Match> = texts.iter().flat_map(|t| catalogue().scan(t)).collect();
    let rs = roots(&matches);
    let signature = rs.iter().find(|m| !m.signature.category.is_symptom());
    let joined = texts.join("\n");
    // 2. The validator's words: the catalogue's category when it knows the message, and the
    //    validator's own message for the fix (it names the field to change).
    let validation = decoded.is_some_and(OperatorError::is_validation)
        || events
            .iter()
            .any(|e| e.reason.as_deref() == Some("ValidationError"));
    if let (Some(m), false) = (signature, validation) {
        return (m.signature.category, Basis::Signature((*m).clone()));
    }
    if validation {
        let msg = decoded
            .and_then(|d| d.message.clone())
            .or_else(|| {
                events
                    .iter()
                    .rev()
                    .find(|e| e.reason.as_deref() == Some("ValidationError"))
                    .and_then(|e| e.message.clone())
            })
            .unwrap_or_default();
        let category = signature
            .map(|m| m.signature.category)
            .unwrap_or_else(|| validation_category(&msg));
        return (category, Basis::Validation(msg));
    }
    // 3. The Kubernetes reason the operator copied.
    if let Some(r) = reason {
        let c = match r {
            "CrashLoopBackOff" => Some(Category::FlinkFatalExit),
            "ImagePullBackOff" | "ErrImagePull" | "InvalidImageName" => {
                Some(Category::ImagePullFailed)
            }
            "FailedMount" | "CreateContainerConfigError" => Some(Category::PodtemplateInvalid),
            "RunContainerError" => Some(Category::ImageIncompatible),
            "OOMKilled" => Some(Category::OomKilled),
            "FailedCreate" => Some(
                if ["exceeded quota", "failed quota", "usage per", "LimitRange"]
                    .iter()
                    .any(|k| joined.contains(k))
                {
                    Category::ResourceQuotaExceeded
                } else {
                    Category::PodtemplateInvalid
                },
            ),
            _ => None,
        };
        if let Some(c) = c {
            return (c, Basis::Reason);
        }
    }
    // 4. Words the operator itself writes (and the catalogue may not know).
    if let Some(c) = crate::signatures::words::category(&joined) {
        return (c, Basis::Words);
    }
    // 5. What the JobManager pods show.
    for p in jm_pods {
        for c in containers(p) {
            if let Some(w) = c.waiting_reason() {
                let cat = match w {
                    "CrashLoopBackOff" => Some(Category::FlinkFatalExit),
                    "ImagePullBackOff" | "ErrImagePull" | "InvalidImageName" => {
                        Some(Category::ImagePullFailed)
                    }
                    "CreateContainerConfigError" => Some(Category::PodtemplateInvalid),
                    "RunContainerError" => Some(Category::ImageIncompatible),
                    _ => None,
                };
                if let Some(cat) = cat {
                    return (
                        cat,
                        Basis::Pod(format!(
                            "JobManager pod {} container {}: waiting {w}",
                            pod_name(p),
                            c.name()
                        )),
                    );
                }
            }
            if c.last_termination().and_then(|t| t.reason.as_deref()) == Some("OOMKilled") {
                return (
                    Category::OomKilled,
                    Basis::Pod(format!(
                        "JobManager pod {} container {}: OOMKilled",
                        pod_name(p),
                        c.name()
                    )),
                );
            }
        }
        let pending = p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Pending");
        if pending && matches!(first, Problem::Stuck { .. }) {
            return (
                Category::PodUnschedulable,
                Basis::Pod(format!("JobManager pod {} is Pending", pod_name(p))),
            );
        }
    }
    // 6. A symptom whose cause is not in the status: the process does not come up or dies.
    (Category::FlinkFatalExit, Basis::Default)
}

/// Validator messages (DefaultValidator) by what they are about. Anything else the validator says
/// is a spec error of the kind the admission webhook reports: `webhook_rejected`.
fn validation_category(msg: &str) -> Category {
    crate::signatures::words::category(msg).unwrap_or(Category::WebhookRejected)
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
            v.name, v.ns
        ),
        _ => format!(
            "kubectl get flinkdeployment {} -n {} -o jsonpath='{{.status.jobManagerDeploymentStatus}} {{.status.lifecycleState}} {{.status.jobStatus.state}}{{\"\\n\"}}'   # expect READY STABLE{}",
            v.name,
            v.ns,
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

#[allow(clippy::too_many_arguments)]
fn fix(
    snapshot: &Snapshot,
    index: &Index,
    v: &View,
    category: Category,
    basis: &Basis,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
    decoded: Option<&OperatorError>,
) -> String {
    let (ns, name) = (v.ns, v.name);
    let kind = kubectl_kind(v.kind);
    let cluster = fd.map(|d| d.name()).unwrap_or(name);
    let jm_logs = match jm_pods.first() {
        Some(p) => format!("kubectl logs {} -n {ns} -c flink-main-container --previous", pod_name(p)),
        None => format!("kubectl logs -n {ns} -l app={cluster},component=jobmanager -c flink-main-container --previous --tail=200"),
    };
    let redeploy = format!(
        "\n\nThe operator retries on its own once the cause is gone; to redeploy at once:\n\n  \
         kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"restartNonce\":{}}}}}'",
        snapshot.captured_at.timestamp()
    );
    let specific = match basis {
        Basis::Signature(m) => format!(
            "The operator's error names the cause: {}.\n{}",
            m.signature.explanation,
            m.fix()
        ),
        Basis::Validation(msg) => {
            return format!(
                "The operator's validator rejected the spec and keeps running the last valid one: \"{}\". {}\n\n\
                 The operator validates again as soon as the spec changes.",
                one_line(msg),
                match fd.filter(|_| msg.contains(SERVICE_ACCOUNT_REQUIRED)) {
                    Some(d) => service_account_fix(snapshot, index, d),
                    None => validation_fix(msg, ns, name, kind, fd),
                }
            );
        }
        _ => match category {
            Category::FlinkFatalExit => format!(
                "The JobManager does not stay up; the reason is in its log (and in the pod-level finding that quotes it):\n\n  {jm_logs}"
            ),
            Category::ImagePullFailed => format!(
                "The image cannot be pulled (see the pod-level finding). Point spec.image at an image that exists and \
                 that the nodes may pull:\n\n  \
                 kubectl patch flinkdeployment {cluster} -n {ns} --type=merge -p '{{\"spec\":{{\"image\":\"IMAGE\"}}}}'"
            ),
            Category::PodtemplateInvalid => format!(
                "The JobManager pod references something that does not exist or cannot be mounted: \
                 `kubectl describe pod -n {ns} -l app={cluster},component=jobmanager` names it (events FailedMount, \
                 CreateContainerConfigError). Create it, or fix the reference in the FlinkDeployment's podTemplate."
            ),
            Category::ImageIncompatible => format!(
                "The container runtime cannot start Flink in this image: build it FROM the official image \
                 (`FROM flink:1.20`) and keep its entrypoint:\n\n  \
                 kubectl patch flinkdeployment {cluster} -n {ns} --type=merge -p '{{\"spec\":{{\"image\":\"flink:1.20\"}}}}'"
            ),
            Category::OomKilled => {
                let mem = fd
                    .and_then(|d| d.spec.job_manager.as_ref())
                    .and_then(|c| c.resource.as_ref())
                    .and_then(|r| r.memory.clone());
                let bigger = mem
                    .as_deref()
                    .and_then(crate::flink::units::parse_resource_memory)
                    .map(|b| format!("{}m", (b * 1.5 / 1048576.0).ceil()))
                    .unwrap_or_else(|| "4096m".into());
                format!(
                    "The JobManager is killed by its memory limit: give it more memory and headroom over Flink's \
                     process memory:\n\n  \
                     kubectl patch flinkdeployment {cluster} -n {ns} --type=merge \\\n    \
                     -p '{{\"spec\":{{\"jobManager\":{{\"resource\":{{\"memory\":\"{bigger}\"}}}},\"flinkConfiguration\":{{\"kubernetes.jobmanager.memory.limit-factor\":\"1.25\"}}}}}}'"
                )
            }
            Category::ResourceQuotaExceeded => format!(
                "A ResourceQuota or LimitRange refuses the JobManager pod: `kubectl describe resourcequota,limitrange -n {ns}`; \
                 raise the quota or lower spec.jobManager.resource (the quota finding FLK108 has the numbers)."
            ),
            Category::PodUnschedulable => format!(
                "The JobManager pod stays Pending: `kubectl describe pod -n {ns} -l app={cluster},component=jobmanager` \
                 shows why no node fits (FLK106 has the details)."
            ),
            Category::JobmanagerRestartWithoutHa => format!(
                "The JobManager restarted and the job (or its HA metadata) is gone. Enable Kubernetes HA so a restart \
                 recovers the job from its last checkpoint:\n\n\
                 spec:\n  flinkConfiguration:\n    high-availability.type: kubernetes\n    \
                 high-availability.storageDir: s3://BUCKET/flink/{cluster}/ha\n\n\
                 then restore the job from its latest checkpoint or savepoint (spec.job.initialSavepointPath) if \
                 the operator reports `Manual restore required`."
            ),
            _ => format!(
                "Read the operator's full error and events: kubectl describe {kind} {name} -n {ns}; the JobManager's log: {jm_logs}"
            ),
        },
    };
    // The root cause, when it is deeper than the message the evidence already shows.
    let root = decoded
        .filter(|d| !d.throwables.is_empty())
        .and_then(OperatorError::root_message)
        .map(|m| format!("\n\nRoot cause reported by the operator: {}", short(m, 300)))
        .unwrap_or_default();
    format!("{specific}{root}{redeploy}")
}

/// The operator fetches a session job's jar itself (to upload it to the session cluster): an
/// error naming the jarURI's host as unknown or unreachable is the artifact's, not Flink's
/// (operator 1.7.0 in the lab: `UnknownHostException: <host>` for an http jarURI nobody serves).
fn artifact_unreachable(f: Finding, v: &View, uri: &str) -> Finding {
    let Some(host) = uri
        .split_once("://")
        .map(|(_, rest)| rest.split(['/', ':']).next().unwrap_or(""))
        .filter(|h| !h.is_empty())
    else {
        return f;
    };
    let error = v.error.unwrap_or("");
    let refused = [
        "UnknownHostException",
        "ConnectException",
        "NoRouteToHostException",
        "SocketTimeoutException",
    ];
    if !error.contains(host) || !refused.iter().any(|e| error.contains(e)) {
        return f;
    }
    let (ns, name) = (v.ns, v.name);
    let mut f = f.severity(Severity::Critical).evidence(format!(
        "spec.job.jarURI: {uri}: the operator could not reach {host} to fetch the jar"
    ));
    f.category = Category::JobJarNotFound;
    f.layer = Category::JobJarNotFound.layer();
    f.title = format!(
        "the operator cannot fetch the session job's jar: {host} is unknown or unreachable"
    );
    // No command: only a person knows where the jar is really served.
    f.fix(format!(
        "The operator downloads spec.job.jarURI itself, from its own pod, before it submits the job \
         to the session cluster. Make {uri} reachable from the operator's pod (the host's DNS name, \
         its port, a proxy), or point jarURI at where the jar is served, in FlinkSessionJob \
         {name} (namespace {ns}):\n\n\
         spec:\n  job:\n    jarURI: https://<where the jar is served>/orders-job.jar"
    ))
}

/// `container=C pod=P_NS(UID)` from a back-off message: (container, pod, namespace).
fn failed_container(message: &str) -> Option<(String, String, String)> {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"container=(?P<c>[a-z0-9.-]+) pod=(?P<p>[a-z0-9.-]+)_(?P<ns>[a-z0-9-]+)\(",
        )
        .expect("valid regex")
    });
    let m = RE.captures(message)?;
    Some((m["c"].to_string(), m["p"].to_string(), m["ns"].to_string()))
}

/// DefaultValidator's refusal of a FlinkDeployment without an account
/// (apache/flink-kubernetes-operator@release-1.15.0, also 1.7.0): only FlinkDeployments get it.
const SERVICE_ACCOUNT_REQUIRED: &str = "spec.serviceAccount must be defined";

/// Whether the spec as it is now passes the validator check that wrote `msg`: what it says now
/// when it does, `None` when it still fails or when the message is not one whose check is known
/// here (the live error stands then).
///
/// The operator records neither the refused spec nor its generation: on a validation error
/// `ReconciliationUtils.applyValidationErrorAndResetSpec` sets `status.error` and reconciles the
/// last accepted spec (`status.reconciliationStatus.lastReconciledSpec`, written with
/// `status.observedGeneration` only when a spec is reconciled:
/// `ReconciliationStatus.serializeAndSetLastReconciledSpec`), apache/flink-kubernetes-operator@
/// release-1.15.0. So `metadata.generation` ahead of `observedGeneration` is the normal state of a
/// refused change, not a sign of a newer one, and `lastReconciledSpec` is the spec before it.
/// What does tell is the validator's own check (`DefaultValidator`), asked again of the spec now.
fn validated_spec_changed(fd: &FlinkDeployment, msg: &str) -> Option<String> {
    let spec = &fd.spec;
    let conf = &spec.flink_configuration;
    let set = |v: Option<&String>| v.is_some_and(|v| !v.trim().is_empty());
    if msg.contains(SERVICE_ACCOUNT_REQUIRED) {
        let sa = spec
            .service_account
            .as_deref()
            .filter(|sa| !sa.is_empty())?;
        return Some(format!("spec.serviceAccount is set now ({sa})"));
    }
    if msg.contains(crate::flink::ha::STANDBY_MESSAGE) {
        // validateJmReplicas: replicas > 1 needs HA (replicas < 1 is another refusal).
        let replicas = spec
            .job_manager
            .as_ref()
            .and_then(|j| j.replicas)
            .unwrap_or(1);
        if replicas == 1 {
            return Some("spec.jobManager.replicas is 1 now: no standby JobManager".into());
        }
        return ha_on_now(conf).map(|on| {
            format!("{on}, so the {replicas} JobManagers (spec.jobManager.replicas) may run")
        });
    }
    if msg.contains(crate::flink::ha::ROLLBACK_MESSAGE) {
        const ROLLBACK: &str = "kubernetes.operator.deployment.rollback.enabled";
        if conf
            .get(ROLLBACK)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("false"))
        {
            return Some(format!("{ROLLBACK} is false now"));
        }
        return ha_on_now(conf);
    }
    if msg.contains("Flink Version must be defined") {
        let v = spec.flink_version.as_deref().filter(|v| !v.is_empty())?;
        return Some(format!("spec.flinkVersion is set now ({v})"));
    }
    if msg.contains("jarURI must include a scheme") {
        let uri = spec.job.as_ref()?.jar_uri.as_deref()?;
        let scheme = uri.split_once(':').map(|(s, _)| s).filter(|s| {
            s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        })?;
        return Some(format!(
            "spec.job.jarURI has a scheme now ({scheme}: in {uri})"
        ));
    }
    if msg.contains("resource memory must be defined") {
        let (key, comp) = if msg.contains("TaskManager") {
            ("taskManager", spec.task_manager.as_ref())
        } else {
            ("jobManager", spec.job_manager.as_ref())
        };
        let mem = comp?.resource.as_ref()?.memory.as_ref();
        return set(mem).then(|| {
            format!(
                "spec.{key}.resource.memory is set now ({})",
                mem.map(String::as_str).unwrap_or("")
            )
        });
    }
    if msg.contains("Checkpoint directory") {
        let key = crate::flink::ha::CHECKPOINT_DIR_KEYS
            .iter()
            .find(|k| set(conf.get(**k)))?;
        return Some(format!("{key} is set now ({})", conf[*key]));
    }
    None
}

/// `high-availability.type is kubernetes now (HA on)`, when the configuration turns HA on.
fn ha_on_now(conf: &std::collections::BTreeMap<String, String>) -> Option<String> {
    if !crate::flink::ha::activated(conf) {
        return None;
    }
    let (key, value) = crate::flink::ha::MODE_KEYS
        .iter()
        .find_map(|k| conf.get(*k).map(|v| (*k, v)))?;
    Some(format!("{key} is {value} now (HA on)"))
}

/// A validation error older than the spec: info, and what to watch rather than the old fix.
fn validation_predates_spec(f: Finding, v: &View, now: &str) -> Finding {
    let (ns, name, kind) = (v.ns, v.name, kubectl_kind(v.kind));
    let mut f = f.severity(Severity::Info).evidence(format!(
        "{now}: the spec changed after the operator's validator refused it, and passes that check"
    ));
    f.title = format!(
        "{}: the spec has changed since; waiting for the operator to validate it again",
        f.title
    );
    f.fix(format!(
        "Nothing more to change for this error: the spec no longer has what the validator refused. \
         The operator validates the new spec on its next reconciliation; if it still refuses it, \
         the new message is in the status:\n\n  \
         kubectl get {kind} {name} -n {ns} -o jsonpath='{{.status.error}}{{\"\\n\"}}'"
    ))
    .verify(verify(v))
}

/// The validator wants a ServiceAccount: the planner's, the same objects FLK501 and FLK502 give
/// (a `flink` account with the JobManager's Role in this namespace, then the switch). The chart's
/// `flink` account lives in the operator's namespace only, unless the chart watches this one, so
/// naming it alone would leave the pods with an account that does not exist (the lab's sa-unset).
fn service_account_fix(snapshot: &Snapshot, index: &Index, fd: &FlinkDeployment) -> String {
    let ns = fd.namespace();
    let cluster = index.cluster(&deployment_ref(fd));
    let need = rbac_plan::need(
        index,
        cluster.as_ref(),
        Component::JobManager,
        ns,
        "default",
        Vec::new(),
    );
    let plan = rbac_plan::plan(snapshot, &need);
    format!(
        "Give the JobManager a ServiceAccount of its own with the rights it needs, and name it in the spec:\n\n{}",
        plan.commands()
    )
}

fn validation_fix(
    msg: &str,
    ns: &str,
    name: &str,
    kind: &str,
    fd: Option<&FlinkDeployment>,
) -> String {
    if msg.contains("Flink Version must be defined")
        || (msg.contains("Flink version") && msg.contains("not supported"))
    {
        let v = fd
            .and_then(|d| d.spec.image.as_deref())
            .and_then(flink_version_of_image)
            .unwrap_or_else(|| "v1_20".into());
        return format!(
            "Set spec.flinkVersion to the Flink in the image and one this operator supports (v1_13 ... v1_20, v2_0 ... v2_2 for operator 1.15):\n\n  \
             kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"flinkVersion\":\"{v}\"}}}}'"
        );
    }
    if msg.contains("High availability should be enabled") || msg.contains("HA must be enabled") {
        return format!(
            "Enable HA (or run one JobManager: spec.jobManager.replicas: 1):\n\n  \
             kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"high-availability.type\":\"kubernetes\",\"high-availability.storageDir\":\"s3://BUCKET/flink/{name}/ha\"}}}}}}'   # BUCKET: storage Flink can write"
        );
    }
    if msg.contains("jarURI must include a scheme") {
        return format!(
            "Give spec.job.jarURI a scheme: local:// for a jar inside the image, or s3:// / https:// for a remote one:\n\n  \
             kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"local:///opt/flink/usrlib/JOB.jar\"}}}}}}'"
        );
    }
    if msg.contains("resource memory must be defined") {
        let key = if msg.contains("TaskManager") {
            "taskManager"
        } else {
            "jobManager"
        };
        return format!(
            "Give the {key} a memory size (Flink syntax: 2048m, 2g):\n\n  \
             kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"{key}\":{{\"resource\":{{\"memory\":\"2048m\"}}}}}}}}'"
        );
    }
    if msg.contains("Checkpoint directory") {
        return format!(
            "last-state and savepoint upgrade modes need durable checkpoints:\n\n  \
             kubectl patch {kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"execution.checkpointing.dir\":\"s3://BUCKET/flink/{name}/checkpoints\"}}}}}}'   # Flink < 1.20: state.checkpoints.dir"
        );
    }
    format!("Fix the field the message names in the {kind} (kubectl edit {kind} {name} -n {ns}).")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const CRASH: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/examples/streaming/StateMachineExample.jar, parallelism: 2, upgradeMode: stateless}
status:
  jobManagerDeploymentStatus: ERROR
  lifecycleState: DEPLOYED
  jobStatus: {state: RECONCILING}
  error: '{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'
---
apiVersion: v1
kind: Event
metadata: {name: JobManagerDeployment.1427715592, namespace: analytics}
involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
reason: CrashLoopBackOff
type: Warning
count: 12
lastTimestamp: "2026-11-28T09:41:30Z"
message: "[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)"
"#;

    #[test]
    fn a_crash_looping_jobmanager_is_a_fatal_exit_symptom() {
        let f = run(&FlinkResourceStatus, &snapshot(CRASH));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::FlinkFatalExit);
        assert_eq!(f.severity, Severity::Critical);
        assert_eq!(
            f.title,
            "JobManager deployment failed (jobManagerDeploymentStatus ERROR): CrashLoopBackOff"
        );
        assert!(f
            .evidence
            .contains(&"status.jobManagerDeploymentStatus: ERROR".to_string()));
        assert!(f.evidence.contains(&"status.error.type: org.apache.flink.kubernetes.operator.exception.DeploymentFailedException".to_string()));
        assert!(f
            .evidence
            .contains(&"status.error.additionalMetadata.reason: CrashLoopBackOff".to_string()));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("event Warning CrashLoopBackOff x12")),
            "{:?}",
            f.evidence
        );
        assert!(
            f.fix
                .contains("-l app=orders,component=jobmanager -c flink-main-container --previous"),
            "{}",
            f.fix
        );
        assert!(f.verify.contains("expect READY STABLE RUNNING"));
        // The CR-level finding folds under a cause of the container the operator saw fail.
        assert_eq!(
            f.links,
            vec![
                link::container_name("flink-main-container"),
                link::container(
                    "analytics",
                    "orders-5d8f9c7b6d-x7k2p",
                    "flink-main-container"
                )
            ]
        );
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced(
                "FlinkDeployment",
                "analytics",
                "orders"
            ))
        );
    }

    #[test]
    fn silent_on_healthy_and_suspended_deployments() {
        assert!(run(&FlinkResourceStatus, &snapshot(HEALTHY)).is_empty());
        let suspended = HEALTHY.replace(
            "  jobManagerDeploymentStatus: READY\n  lifecycleState: STABLE\n  jobStatus: {state: RUNNING, jobName: StateMachineExample}",
            "  jobManagerDeploymentStatus: MISSING\n  lifecycleState: SUSPENDED\n  jobStatus: {state: SUSPENDED}",
        );
        assert!(run(&FlinkResourceStatus, &snapshot(&suspended)).is_empty());
        let created = HEALTHY.replace(
            "  jobManagerDeploymentStatus: READY\n  lifecycleState: STABLE",
            "  jobManagerDeploymentStatus: MISSING\n  lifecycleState: CREATED",
        );
        assert!(
            run(&FlinkResourceStatus, &snapshot(&created)).is_empty(),
            "not yet handled is not broken"
        );
    }

    #[test]
    fn decodes_the_root_cause_and_categorises_by_its_words() {
        let y = CRASH.replace(
            r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
            r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.client.deployment.ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".","throwableList":[{"type":"org.apache.flink.client.deployment.ClusterDeploymentException","message":"Could not create Kubernetes cluster \"orders\"."},{"type":"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException","message":"Failure executing: POST at: https://10.96.0.1/apis/apps/v1/namespaces/analytics/deployments. Message: deployments.apps \"orders\" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=8Gi, limited: limits.memory=8Gi."}]}'"#,
        ).replace("reason: CrashLoopBackOff\n", "reason: Error\n");
        let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
        assert_eq!(
            f.category,
            Category::ResourceQuotaExceeded,
            "{:?}",
            f.evidence
        );
        assert_eq!(f.layer, Category::ResourceQuotaExceeded.layer());
        assert!(f.evidence.iter().any(|e| e.starts_with("status.error.throwableList[1]: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing") && e.ends_with("(root cause)")), "{:?}", f.evidence);
        assert!(
            f.fix
                .contains("Root cause reported by the operator: Failure executing: POST"),
            "{}",
            f.fix
        );
    }

    #[test]
    fn validation_errors_use_the_validator_message() {
        // The refused spec has the standby JobManager the message is about.
        let y = CRASH
            .replace("jobManager: {resource: {memory: 2048m, cpu: 1}}", "jobManager: {replicas: 2, resource: {memory: 2048m, cpu: 1}}")
            .replace("jobManagerDeploymentStatus: ERROR", "jobManagerDeploymentStatus: MISSING")
            .replace("lifecycleState: DEPLOYED", "lifecycleState: FAILED")
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"High availability should be enabled when starting standby JobManagers.","throwableList":[]}'"#,
            )
            .replace("reason: CrashLoopBackOff\n", "reason: ValidationError\n")
            .replace("message: \"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"", "message: High availability should be enabled when starting standby JobManagers.");
        let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
        assert_eq!(f.category, Category::HaMisconfigured);
        assert!(
            f.title.starts_with("JobManager deployment is missing"),
            "{}",
            f.title
        );
        assert!(f.fix.contains("high-availability.type"), "{}", f.fix);

        let sa = y
            .replace("High availability should be enabled when starting standby JobManagers.", "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.")
            .replace("  serviceAccount: flink\n", "");
        let f = &run(&FlinkResourceStatus, &snapshot(&sa))[0];
        assert_eq!(f.category, Category::WebhookRejected);
        assert!(
            f.fix.contains("{\"spec\":{\"serviceAccount\":\"flink\"}}"),
            "{}",
            f.fix
        );
        // The account is made with the JobManager's rights, not only named: the chart's `flink`
        // account exists in the operator's namespace, not in this one.
        assert!(f.fix.contains("kind: ServiceAccount"), "{}", f.fix);
        assert!(f.fix.contains("name: flink-jobmanager"), "{}", f.fix);
    }

    #[test]
    fn a_validation_error_older_than_the_spec_is_info_not_the_old_fix() {
        // The operator refused a spec without serviceAccount; the spec has one now.
        let y = CRASH
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.","throwableList":[]}'"#,
            );
        let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
        assert_eq!(f.severity, Severity::Info, "{}", f.title);
        assert!(f
            .title
            .contains("waiting for the operator to validate it again"));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("spec.serviceAccount is set now (flink)")));
        assert!(!f.fix.contains("kind: ServiceAccount"), "{}", f.fix);
    }

    /// CRASH turned into the validator's refusal of standby JobManagers without HA, on a
    /// FlinkDeployment deployed before (generation 3 refused, 2 the last one reconciled).
    fn standby_refused() -> String {
        CRASH
            .replace("metadata: {name: orders, namespace: analytics}", "metadata: {name: orders, namespace: analytics, generation: 3}")
            .replace("jobManager: {resource: {memory: 2048m, cpu: 1}}", "jobManager: {replicas: 2, resource: {memory: 2048m, cpu: 1}}")
            .replace("lifecycleState: DEPLOYED", "lifecycleState: DEPLOYED\n  observedGeneration: 2")
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"High availability should be enabled when starting standby JobManagers.","throwableList":[]}'"#,
            )
    }

    #[test]
    fn a_refused_change_is_live_although_the_generation_is_ahead_of_the_observed_one() {
        // The operator sets observedGeneration only when it reconciles a spec: a refused change
        // leaves it behind metadata.generation, so that says nothing about the error's age.
        let f = &run(&FlinkResourceStatus, &snapshot(&standby_refused()))[0];
        assert_eq!(f.category, Category::HaMisconfigured);
        assert_ne!(f.severity, Severity::Info, "{}", f.title);
        assert!(f.fix.contains("high-availability.type"), "{}", f.fix);
        // HA configured off, or the old default `standalone`, is no fix either.
        for off in ["NONE", "standalone"] {
            let y = standby_refused().replace(
                "  serviceAccount: flink\n",
                &format!("  serviceAccount: flink\n  flinkConfiguration: {{high-availability.type: {off}}}\n"),
            );
            let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
            assert_ne!(f.severity, Severity::Info, "{off}: {}", f.title);
        }
    }

    #[test]
    fn standby_jobmanagers_refused_before_ha_was_set_are_waiting_for_the_operator() {
        let y = standby_refused().replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {high-availability.type: kubernetes, high-availability.storageDir: 's3://b/ha'}\n",
        );
        let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
        assert_eq!(f.severity, Severity::Info, "{}", f.title);
        assert!(
            f.title
                .ends_with("waiting for the operator to validate it again"),
            "{}",
            f.title
        );
        assert!(
            f.evidence.iter().any(|e| e.starts_with(
                "high-availability.type is kubernetes now (HA on), so the 2 JobManagers"
            )),
            "{:?}",
            f.evidence
        );
        assert!(
            crate::finding::Remedy::from_fix(&f.fix).is_empty(),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("-o jsonpath='{.status.error}"), "{}", f.fix);
        // One JobManager is the other way out.
        let one =
            standby_refused().replace("jobManager: {replicas: 2,", "jobManager: {replicas: 1,");
        let f = &run(&FlinkResourceStatus, &snapshot(&one))[0];
        assert_eq!(f.severity, Severity::Info, "{}", f.title);
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("spec.jobManager.replicas is 1 now")));
    }

    #[test]
    fn the_validator_checks_asked_again_of_the_spec_now() {
        let fd = |extra: &str| -> FlinkDeployment {
            serde_yaml::from_str(&format!(
                "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: a, namespace: b}}\nspec:\n{extra}"
            ))
            .unwrap()
        };
        let bare = fd("  image: flink:1.20\n");
        for msg in [
            "Flink Version must be defined.",
            "jarURI must include a scheme",
            "JobManager resource memory must be defined using `spec.jobManager.resource.memory`",
            "TaskManager resource memory must be defined using `spec.taskManager.resource.memory`",
            "Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes",
            "HA must be enabled for rollback support.",
            "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.",
            "Forbidden Flink config key: kubernetes.namespace",
        ] {
            assert_eq!(validated_spec_changed(&bare, msg), None, "{msg}");
        }
        let fixed = fd("  flinkVersion: v1_20\n  serviceAccount: flink\n  flinkConfiguration: {execution.checkpointing.dir: 's3://b/c', kubernetes.operator.deployment.rollback.enabled: 'false'}\n  jobManager: {resource: {memory: 1g}}\n  taskManager: {resource: {memory: 1g}}\n  job: {jarURI: 'local:///opt/flink/usrlib/j.jar'}\n");
        for msg in [
            "Flink Version must be defined.",
            "jarURI must include a scheme",
            "JobManager resource memory must be defined using `spec.jobManager.resource.memory`",
            "TaskManager resource memory must be defined using `spec.taskManager.resource.memory`",
            "Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes",
            "HA must be enabled for rollback support.",
            "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.",
        ] {
            assert!(validated_spec_changed(&fixed, msg).is_some(), "{msg}");
        }
        // An unknown refusal cannot be asked again: it stands.
        assert_eq!(
            validated_spec_changed(&fixed, "Forbidden Flink config key: kubernetes.namespace"),
            None
        );
        let no_scheme = fd("  job: {jarURI: '/opt/flink/usrlib/j.jar'}\n");
        assert_eq!(
            validated_spec_changed(&no_scheme, "jarURI must include a scheme"),
            None
        );
    }

    #[test]
    fn a_session_job_jar_the_operator_cannot_fetch_is_the_jar_s_problem() {
        // Recorded by the reality lab: operator 1.7.0, jarURI on a host nobody serves.
        let s = crate::snapshot::bundle::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/scenarios/real-session-job-jar-missing"
        )))
        .unwrap();
        let f = run(&FlinkResourceStatus, &s);
        let f = f
            .iter()
            .find(|f| f.object.kind == "FlinkSessionJob")
            .expect("a finding on the session job");
        assert_eq!(f.category, Category::JobJarNotFound);
        assert_eq!(f.severity, Severity::Critical);
        assert!(
            f.title.contains("artifacts.analytics.svc.cluster.local"),
            "{}",
            f.title
        );
        assert!(
            f.fix.contains("jarURI: https://<where the jar is served>"),
            "{}",
            f.fix
        );
    }

    #[test]
    fn the_container_the_operator_saw_fail_is_a_link() {
        assert_eq!(
            failed_container("[flink-main-container] back-off 40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b-11)"),
            Some(("flink-main-container".into(), "orders-5d8f9c7b6d-x7k2p".into(), "analytics".into()))
        );
        assert_eq!(failed_container("Missing JobManager deployment"), None);
        let f = &run(&FlinkResourceStatus, &snapshot(CRASH))[0];
        assert!(
            f.links
                .contains(&link::container_name("flink-main-container")),
            "{:?}",
            f.links
        );
    }

    #[test]
    fn stuck_deploying_counts_from_the_last_reconciliation() {
        let y = CRASH
            .replace("jobManagerDeploymentStatus: ERROR", "jobManagerDeploymentStatus: DEPLOYING")
            .replace("  error: '", "  reconciliationStatus: {state: DEPLOYED, reconciliationTimestamp: 1764322800000}\n  x: '")
            .replace("reason: CrashLoopBackOff\n", "reason: Submit\n")
            .replace("type: Warning", "type: Normal");
        let mut s = snapshot(&y);
        // 2025-11-28T09:40:00Z is 1764322800000 ms.
        s.captured_at = "2025-11-28T09:44:00Z".parse().unwrap();
        assert!(
            run(&FlinkResourceStatus, &s).is_empty(),
            "within the readiness timeout"
        );
        s.captured_at = "2025-11-28T09:52:00Z".parse().unwrap();
        let f = run(&FlinkResourceStatus, &s);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].title
                .contains("DEPLOYING for longer than the 5 min readiness timeout"),
            "{}",
            f[0].title
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("12 min before the snapshot")),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn plain_string_errors_and_failed_session_jobs() {
        let y = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: analytics}
spec:
  deploymentName: session
  job: {jarURI: "https://repo.example.com/wordcount.jar", parallelism: 1, upgradeMode: stateless}
status:
  lifecycleState: STABLE
  jobStatus: {state: RECONCILING}
  error: Job Not Found
"#;
        let f = run(&FlinkResourceStatus, &snapshot(y));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].category, Category::JobmanagerRestartWithoutHa);
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("FlinkSessionJob", "analytics", "wordcount")
        );
        assert!(
            f[0].evidence
                .contains(&"status.error: Job Not Found".to_string()),
            "{:?}",
            f[0].evidence
        );
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("no FlinkDeployment session exists")));
        assert!(f[0].verify.contains("flinksessionjob wordcount"));
        let d = OperatorError::parse("org.apache.flink.util.FlinkRuntimeException: boom");
        assert_eq!(
            d.type_.as_deref(),
            Some("org.apache.flink.util.FlinkRuntimeException")
        );
        assert_eq!(d.root_message(), Some("boom"));
    }

    #[test]
    fn image_versions() {
        assert_eq!(
            flink_version_of_image("flink:1.20.1-scala_2.12-java17").as_deref(),
            Some("v1_20")
        );
        assert_eq!(
            flink_version_of_image("apache/flink:2.0"),
            Some("v2_0".into())
        );
        assert_eq!(flink_version_of_image("flink:latest"), None);
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        for (name, category) in [
            (
                "flink-resource-status-validation",
                Category::HaMisconfigured,
            ),
            ("session-job-jar-not-found", Category::JobJarNotFound),
            ("flink-fatal-exit", Category::FlinkFatalExit),
            ("crashloop-image-incompatible", Category::FlinkFatalExit),
            ("image-pull-failed", Category::ImagePullFailed),
            ("resource-quota-exceeded", Category::ResourceQuotaExceeded),
        ] {
            let f = run(&FlinkResourceStatus, &scenario(name));
            assert_eq!(f.len(), 1, "{name}: {f:?}");
            assert_eq!(f[0].category, category, "{name}");
        }
        let f = &run(&FlinkResourceStatus, &scenario("session-job-jar-not-found"))[0];
        assert_eq!(f.title, "FlinkSessionJob failed (lifecycleState FAILED): FileNotFoundException: https://artifacts.example.com/flink/enricher-1.4.0.jar");
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced(
                "FlinkDeployment",
                "scn-session-job",
                "shared"
            ))
        );
        for name in HEALTHY_SCENARIOS.iter().chain(&[
            "oom-killed",
            "pod-unschedulable",
            "jvm-out-of-memory",
        ]) {
            assert!(
                run(&FlinkResourceStatus, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

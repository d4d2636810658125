//! Which root-cause category the operator's error names.

use super::*;

/// The Kubernetes reasons the operator copies into `additionalMetadata.reason` and event reasons.
pub(super) const KUBE_REASONS: &[&str] = &[
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

pub(super) fn categorize(
    decoded: Option<&OperatorError>,
    events: &[&Event],
    reason: Option<&str>,
    jm_pods: &[&Pod],
    first: &StatusProblem,
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
    // 4. Operator 1.10.0 and earlier: a job without checkpointing that reached a globally terminal
    //    state. Not a savepoint problem: an outcome (the job ended) whose cause is elsewhere.
    if crate::rules::support::ended_job::unobserved(&joined) {
        return (Category::FlinkFatalExit, Basis::TerminalJobUnobserved);
    }
    // 5. Words the operator itself writes (and the catalogue may not know).
    if let Some(c) = crate::signatures::words::category(&joined) {
        return (c, Basis::Words);
    }
    // 6. What the JobManager pods show.
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
        if pending && matches!(first, StatusProblem::Stuck { .. }) {
            return (
                Category::PodUnschedulable,
                Basis::Pod(format!("JobManager pod {} is Pending", pod_name(p))),
            );
        }
    }
    // 7. A symptom whose cause is not in the status: the process does not come up or dies.
    (Category::FlinkFatalExit, Basis::Default)
}

/// Validator messages (DefaultValidator) by what they are about. Anything else the validator says
/// is a spec error of the kind the admission webhook reports: `webhook_rejected`.
pub(super) fn validation_category(msg: &str) -> Category {
    crate::signatures::words::category(msg).unwrap_or(Category::WebhookRejected)
}

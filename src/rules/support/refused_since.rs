//! Whether an admission refusal of a Flink component's pods is history: a pod of that component,
//! not one of those refused, runs now and the operator reports the FlinkDeployment READY and
//! STABLE (its job RUNNING). The refusal's events and log lines outlive the fix (events for an
//! hour), so without this a healed deployment keeps a critical finding.

use crate::finding::{Finding, Severity};
use crate::flink::mode::Component;
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::{to_utc, Snapshot};
use chrono::{DateTime, SecondsFormat, Utc};

/// `Some(evidence)` when the refusal of WHO's pods (`JobManager` or `TaskManager`) in NS is over.
pub fn created_since(
    snapshot: &Snapshot,
    ns: &str,
    fd: &FlinkDeployment,
    who: &str,
    refused: &[String],
) -> Option<String> {
    let st = fd.status.as_ref()?;
    let job = st.job_status.as_ref().and_then(|j| j.state.as_deref());
    let up = st.job_manager_deployment_status.as_deref() == Some("READY")
        && st.lifecycle_state.as_deref() == Some("STABLE")
        && (fd.spec.job.is_none() || job == Some("RUNNING"));
    if !up {
        return None;
    }
    let running = others(snapshot, ns, fd, who, refused)
        .find(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running"))?;
    Some(format!(
        "{who} pod {} is Running, and FlinkDeployment {} is READY and STABLE{}",
        running.metadata.name.as_deref().unwrap_or(""),
        fd.name(),
        job.map(|j| format!(" with its job {j}"))
            .unwrap_or_default()
    ))
}

/// `Some(evidence)` when a pod of WHO's component (`JobManager` or `TaskManager`) of FD, none of the
/// REFUSED, was created after the LAST refusal: admission took the template it has now, so the
/// refusal was of an earlier one. The deployment may still be coming up (unlike `created_since`,
/// which needs it up): an admission check depends on the template alone, where a quota's depends
/// on what else runs, so only an admission check's refusal may use this.
pub fn admitted_since(
    snapshot: &Snapshot,
    ns: &str,
    fd: &FlinkDeployment,
    who: &str,
    refused: &[String],
    last: DateTime<Utc>,
) -> Option<String> {
    let (pod, created) = others(snapshot, ns, fd, who, refused).find_map(|p| {
        let created = p.metadata.creation_timestamp.as_ref().and_then(to_utc)?;
        (created > last).then_some((p.metadata.name.as_deref().unwrap_or(""), created))
    })?;
    Some(format!(
        "{who} pod {pod} was created at {} (admitted), after the last refusal at {}",
        created.to_rfc3339_opts(SecondsFormat::Secs, true),
        last.to_rfc3339_opts(SecondsFormat::Secs, true)
    ))
}

/// The pods of WHO's component (`JobManager` or `TaskManager`) of FD in NS, none of the REFUSED.
fn others<'a>(
    snapshot: &'a Snapshot,
    ns: &'a str,
    fd: &'a FlinkDeployment,
    who: &str,
    refused: &'a [String],
) -> impl Iterator<Item = &'a crate::snapshot::Pod> {
    let component = if who == "TaskManager" {
        Component::TaskManager
    } else {
        Component::JobManager
    };
    snapshot.pods.iter().filter(move |p| {
        let m = &p.metadata;
        let labels = m.labels.as_ref();
        m.namespace.as_deref() == Some(ns)
            && labels.and_then(|l| l.get("app")) == Some(fd.name())
            && Component::from_labels(labels) == Some(component)
            && m.name
                .as_deref()
                .is_some_and(|n| !refused.iter().any(|r| r == n))
    })
}

/// F, a refusal's finding, as history: `TITLE: refused earlier; NOW`, info, with EVIDENCE of
/// what is so now, FIX saying there is nothing to change and VERIFY what shows it stays so.
pub fn refused_earlier(
    f: Finding,
    now: &str,
    evidence: String,
    fix: String,
    verify: String,
) -> Finding {
    let title = format!("{}: refused earlier; {now}", f.title);
    let mut f = f.severity(Severity::Info).evidence(evidence);
    f.title = title;
    f.fix(fix).verify(verify)
}

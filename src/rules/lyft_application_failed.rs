//! FLK410: a Lyft FlinkApplication failed to deploy (`status.phase` DeployFailed, or Failed in
//! older operators), with the operator's own account of why: `status.lastSeenError` (the Flink
//! REST call that failed, its error, whether the operator retries) and its Warning events
//! (ClusterCreationFailed, JobSubmissionFailed, DeployFailed, RecoveryFailed, SavepointFailed, ...).
//!
//! The category comes from the words of that error (a class not found is `job_entry_class_error`,
//! a missing jar `job_jar_not_found`, ...); a deploy that failed for reasons the words do not name
//! is `upgrade_failed`: in Lyft every deploy is a spec change, and a failed one is rolled back.
//! The Lyft operator does not retry a DeployFailed application by itself: the fix changes the spec,
//! or bumps `spec.restartNonce` to retry the same one.

use super::support::containers::event_line;
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::names::KIND_FLINK_APPLICATION;
use crate::signatures::redact;
use crate::snapshot::index::Index;
use crate::snapshot::{FlinkApplication, Snapshot};
use serde_json::Value;

pub struct LyftApplicationFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK410",
    name: "lyft_application_failed",
    summary: "a Lyft FlinkApplication is in DeployFailed or Failed, with its decoded error",
    category: Category::UpgradeFailed,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"fix what the FlinkApplication's status error says (doctor decodes it), then update the resource so the operator deploys it again"#,
    verify: r#"kubectl get flinkapplication <name> -o jsonpath='{.status.phase} {.status.jobStatus.state}'   # expect: Running RUNNING"#,
};

const FAILED_PHASES: &[&str] = &["DeployFailed", "Failed"];

impl Rule for LyftApplicationFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        s.flink_applications
            .iter()
            .filter(|a| {
                a.status
                    .as_ref()
                    .and_then(|st| st.phase.as_deref())
                    .is_some_and(|p| FAILED_PHASES.contains(&p))
            })
            .map(|a| finding(s, index, a))
            .collect()
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Null | Value::String(_) => None,
        other => Some(other.to_string()),
    }
}

fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let red = redact(&flat).into_owned();
    if red.chars().count() > max {
        format!("{}…", red.chars().take(max).collect::<String>())
    } else {
        red
    }
}

/// The innermost cause of a Java error chain (`... Caused by: X: msg]'` -> `X: msg`).
fn innermost(error: &str) -> &str {
    let last = error.rsplit("Caused by: ").next().unwrap_or(error);
    last.trim().trim_end_matches(['\'', ']', '"', '.']).trim()
}

fn finding(s: &Snapshot, index: &Index, a: &FlinkApplication) -> Finding {
    let (ns, name) = (a.namespace(), a.name());
    let status = a.status.clone().unwrap_or_default();
    let phase = status.phase.clone().unwrap_or_default();
    let reference = ObjectRef::namespaced(KIND_FLINK_APPLICATION, ns, name);
    let err = status.last_seen_error.as_ref();
    let app_error = text(err.and_then(|e| e.get("appError")));
    let method = text(err.and_then(|e| e.get("method")));
    let events: Vec<_> = index
        .events_for(KIND_FLINK_APPLICATION, ns, name)
        .into_iter()
        .filter(|e| {
            e.type_.as_deref() == Some("Warning")
                || e.reason.as_deref().is_some_and(|r| r.ends_with("Failed"))
        })
        .collect();
    let mut words = String::new();
    if let Some(e) = &app_error {
        words.push_str(e);
    }
    for e in &events {
        words.push(' ');
        words.push_str(e.message.as_deref().unwrap_or(""));
    }
    if let Some(r) = &status.reason {
        words.push(' ');
        words.push_str(r);
    }
    let category = crate::signatures::words::category(&words).unwrap_or(Category::UpgradeFailed);
    let cause = app_error
        .as_deref()
        .map(|e| one_line(innermost(e), 160))
        .or_else(|| {
            events
                .last()
                .and_then(|e| e.message.as_deref())
                .map(|m| one_line(m, 160))
        })
        .unwrap_or_else(|| "no error recorded".into());
    let mut f = Finding::new(
        &META,
        reference.clone(),
        format!("FlinkApplication is {phase}: {cause}"),
    )
    .deployment(Some(reference));
    f.category = category;
    f.layer = category.layer();
    f = f.evidence(format!("status.phase: {phase}"));
    if let Some(r) = status.reason.as_deref().filter(|r| !r.trim().is_empty()) {
        f = f.evidence(format!("status.reason: {}", one_line(r, 300)));
    }
    if let Some(e) = err {
        let field = |k: &str| text(e.get(k));
        let mut parts = Vec::new();
        if let Some(m) = &method {
            parts.push(format!("the operator's {m} call failed"));
        }
        if let Some(c) = field("errorCode") {
            parts.push(format!("error code {c}"));
        }
        match e.get("isRetryable").and_then(Value::as_bool) {
            Some(true) => parts.push(format!(
                "retryable ({} retries max)",
                field("maxRetries").unwrap_or_else(|| "?".into())
            )),
            Some(false) => parts.push("not retryable".into()),
            None => {}
        }
        if e.get("isFailFast").and_then(Value::as_bool) == Some(true) {
            parts.push("fail-fast".into());
        }
        if let Some(t) = field("lastErrorUpdateTime") {
            parts.push(format!("at {t}"));
        }
        if !parts.is_empty() {
            f = f.evidence(format!("status.lastSeenError: {}", parts.join(", ")));
        }
        if let Some(app) = &app_error {
            f = f.evidence(format!(
                "status.lastSeenError.appError: {}",
                one_line(app, 400)
            ));
        }
    }
    if let Some(h) = status.failed_deploy_hash.as_deref() {
        f = f.evidence(format!(
            "status.failedDeployHash: {h} (the spec version that failed)"
        ));
    }
    if let Some(n) = status.retry_count.filter(|n| *n > 0) {
        f = f.evidence(format!("status.retryCount: {n}"));
    }
    for e in events.iter().rev().take(3).rev() {
        f = f.evidence(event_line(e));
    }
    let nonce = format!("kubectl-flink-{}", s.captured_at.timestamp());
    let retry = format!(
        "kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"restartNonce\":\"{nonce}\"}}}}'"
    );
    let first = match category {
        Category::JobEntryClassError => format!(
            "The job's entry class does not load: set spec.entryClass to a class inside the jar (or fix the jar in the image):\n\n\
             kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"entryClass\":\"<fully.qualified.Main>\"}}}}'\n\n\
             A changed spec starts a new deploy."
        ),
        Category::JobJarNotFound => format!(
            "The job's jar is not where spec.jarName says: Lyft submits the jar from the image's /opt/flink/usrlib (or spec.jarName's path); rebuild the image with it, or correct the name:\n\n\
             kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"jarName\":\"<the jar in the image>\"}}}}'\n\n\
             A changed spec starts a new deploy."
        ),
        Category::SavepointRestoreFailed => format!(
            "The job cannot restore its savepoint: point spec.savepointPath at a complete savepoint, or start without state (losing it):\n\n\
             kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"savepointDisabled\":true}}}}'"
        ),
        _ => format!(
            "Fix what the error above names in the FlinkApplication (image, jarName, entryClass, programArgs, flinkConfig), then apply it: a changed spec starts a new deploy. To retry the same spec:\n\n{retry}"
        ),
    };
    f.fix(if first.contains("restartNonce") {
        first
    } else {
        format!("{first}\n\nTo retry the same spec once its cause is gone:\n\n{retry}")
    })
    .verify(format!(
        "kubectl get flinkapplication {name} -n {ns} -o jsonpath='{{.status.phase}} {{.status.jobStatus.state}}{{\"\\n\"}}'   # expect: Running RUNNING"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot};

    const FAILED: &str = r#"
apiVersion: flink.k8s.io/v1beta1
kind: FlinkApplication
metadata: {name: clicks, namespace: lyft}
spec: {image: "flink:1.11", flinkVersion: "1.11", parallelism: 4, jarName: clicks.jar, entryClass: com.example.Clicks}
status:
  phase: DeployFailed
  failedDeployHash: 2a6f3b1c
  lastSeenError:
    appError: "org.apache.flink.client.program.ProgramInvocationException: The program's entry point class 'com.example.Clicks' was not found in the jar file. Caused by: java.lang.ClassNotFoundException: com.example.Clicks"
    method: SubmitJob
    errorCode: "400"
    isRetryable: false
    lastErrorUpdateTime: "2026-11-28T10:00:00Z"
---
apiVersion: v1
kind: Event
metadata: {name: clicks.1, namespace: lyft}
involvedObject: {apiVersion: flink.k8s.io/v1beta1, kind: FlinkApplication, name: clicks, namespace: lyft}
reason: JobSubmissionFailed
message: "Failed to submit job to cluster with annotations: ClassNotFoundException: com.example.Clicks"
type: Warning
firstTimestamp: "2026-11-28T10:00:00Z"
lastTimestamp: "2026-11-28T10:00:00Z"
"#;

    #[test]
    fn fires_on_deploy_failed_with_the_error_decoded() {
        let f = run(&LyftApplicationFailed, &snapshot(FAILED));
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::JobEntryClassError);
        assert_eq!(f.layer, Category::JobEntryClassError.layer());
        assert_eq!(f.title, "FlinkApplication is DeployFailed: java.lang.ClassNotFoundException: com.example.Clicks");
        assert!(f.evidence.iter().any(|e| e == "status.lastSeenError: the operator's SubmitJob call failed, error code 400, not retryable, at 2026-11-28T10:00:00Z"), "{:?}", f.evidence);
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("event Warning JobSubmissionFailed")));
        assert!(f.fix.contains("\"entryClass\""));
        assert!(f.fix.contains("restartNonce"));
    }

    #[test]
    fn silent_while_running() {
        let ok = FAILED.replace("phase: DeployFailed", "phase: Running");
        assert!(run(&LyftApplicationFailed, &snapshot(&ok)).is_empty());
    }

    #[test]
    fn an_unnamed_failure_is_an_upgrade_failure() {
        let y = "apiVersion: flink.k8s.io/v1beta1\nkind: FlinkApplication\nmetadata: {name: a, namespace: l}\nspec: {image: \"flink:1.11\"}\nstatus: {phase: DeployFailed}\n";
        let f = run(&LyftApplicationFailed, &snapshot(y));
        assert_eq!(f[0].category, Category::UpgradeFailed);
        assert!(f[0].title.ends_with("no error recorded"));
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&LyftApplicationFailed, &scenario("mode-lyft-deploy-failed"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::JobEntryClassError);
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(
                run(&LyftApplicationFailed, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

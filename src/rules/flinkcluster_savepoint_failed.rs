//! FLK413: the last savepoint the FlinkCluster operator triggered failed.
//!
//! The GCP/Spotify operator records the savepoint it last triggered in `status.savepoint`
//! (`SavepointStatus`, spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/v1beta1/
//! flinkcluster_types.go: `state`, `triggerReason`, `triggerTime`, `requestTime`, `message`), whose
//! state is one of `SavepointStateInProgress = "InProgress"`, `SavepointStateTriggerFailed =
//! "TriggerFailed"`, `SavepointStateFailed = "Failed"`, `SavepointStateSucceeded = "Succeeded"`,
//! and whose reason is one of `"user requested"`, `"job cancel"`, `"scheduled"`, `"update"`.
//! `TriggerFailed`: the JobManager refused to start it (controllers/flinkcluster/
//! flinkcluster_reconciler.go `getNewSavepointStatus`); `Failed`: Flink reported it failed, or its
//! status could not be read, or the job stopped or was lost meanwhile (flinkcluster_updater.go
//! `deriveSavepointStatus`: "Savepoint error: ...", "Failed to get savepoint status: ...",
//! "Flink job is stopped: ...", "Savepoint triggered Flink job is lost: ..."). For an update the
//! message starts "Failed to take savepoint for update. The update process is being postponed
//! until a savepoint is available." and the operator retries every 10 s
//! (`SavepointRetryIntervalSeconds`, flinkcluster_util.go): the new spec is not applied.
//!
//! A failure that a later successful savepoint superseded (`status.components.job.savepointTime`
//! after the trigger) is history, not reported.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::flink::mode::Mode;
use crate::snapshot::index::{Cluster, Index};
use crate::snapshot::Snapshot;
use chrono::{DateTime, Utc};

pub struct FlinkclusterSavepointFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK413",
    name: "flinkcluster_savepoint_failed",
    summary: "the savepoint the FlinkCluster operator last triggered failed (status.savepoint.state Failed or TriggerFailed): an update waits for one, a cancel is aborted, the job has no fresh savepoint",
    category: Category::UpgradeFailed,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"read why the savepoint failed in the JobManager's log (storage access, a missing spec.job.savepointsDir), fix that, then trigger a savepoint again"#,
    verify: r#"kubectl get flinkcluster <name> -o jsonpath='{.status.savepoint.state}'   # expect: Succeeded"#,
};

/// `v1beta1.SavepointStateFailed`, `v1beta1.SavepointStateTriggerFailed`.
const FAILED_STATES: &[&str] = &["Failed", "TriggerFailed"];
/// `v1beta1.SavepointReasonUpdate`, `v1beta1.SavepointReasonJobCancel`.
const REASON_UPDATE: &str = "update";
const REASON_CANCEL: &str = "job cancel";
/// `v1beta1.ControlAnnotation`: `savepoint` asks the operator for one savepoint.
const CONTROL_ANNOTATION: &str = "flinkclusters.flinkoperator.k8s.io/user-control";
/// How much of the operator's message (up to 1024 characters, often a stack trace) to show.
const MESSAGE_SHOWN: usize = 400;

impl Rule for FlinkclusterSavepointFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _: &Snapshot, index: &Index) -> Vec<Finding> {
        index
            .clusters()
            .iter()
            .filter(|c| c.mode == Mode::FlinkCluster)
            .filter_map(finding)
            .collect()
    }
}

fn parse(t: Option<&str>) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t?)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

fn shorten(m: &str) -> String {
    let one_line = m.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(MESSAGE_SHOWN) {
        Some((i, _)) => format!("{} ...", &one_line[..i]),
        None => one_line,
    }
}

fn finding(c: &Cluster) -> Option<Finding> {
    let fc = c.flink_cluster?;
    let sp = fc.status.as_ref()?.savepoint.as_ref()?;
    let state = sp.state.as_deref().filter(|s| FAILED_STATES.contains(s))?;
    let job = fc.job_status();
    // Superseded by a later successful savepoint.
    if let (Some(ok), Some(trigger)) = (
        parse(job.and_then(|j| j.savepoint_time.as_deref())),
        parse(sp.trigger_time.as_deref()),
    ) {
        if ok > trigger {
            return None;
        }
    }
    let (ns, name) = (c.namespace(), c.name());
    let reason = sp.trigger_reason.as_deref().unwrap_or("");
    let message = sp.message.as_deref().unwrap_or("");
    let spec_job = fc.spec.job.clone().unwrap_or_default();
    let dir = spec_job.savepoints_dir.as_deref().filter(|d| !d.is_empty());
    let what = if state == "TriggerFailed" {
        "could not be triggered"
    } else {
        "failed"
    };
    let (title, severity) = match reason {
        REASON_UPDATE => (
            format!(
                "the savepoint FlinkCluster {name} takes before its update {what}: the operator postpones the update (the new spec is not applied) and retries until a savepoint succeeds"
            ),
            Severity::Critical,
        ),
        REASON_CANCEL => (
            format!(
                "the savepoint FlinkCluster {name} takes to cancel its job {what}: the cancellation is aborted and the job keeps running"
            ),
            Severity::Critical,
        ),
        _ => (
            format!(
                "a savepoint of FlinkCluster {name} ({}) {what}: the job has no fresh savepoint to be updated or restarted from",
                if reason.is_empty() { "reason not recorded" } else { reason }
            ),
            Severity::Warning,
        ),
    };
    let mut f = Finding::new(&META, c.reference.clone(), title)
        .deployment(Some(c.reference.clone()))
        .severity(severity);
    f = f.evidence(format!("status.savepoint.state: {state}"));
    if !reason.is_empty() {
        f = f.evidence(format!("status.savepoint.triggerReason: {reason}"));
    }
    if let Some(t) = sp.trigger_time.as_deref() {
        f = f.evidence(format!("status.savepoint.triggerTime: {t}"));
    }
    if !message.is_empty() {
        f = f.evidence(format!("status.savepoint.message: {}", shorten(message)));
    }
    f = f.evidence(match dir {
        Some(d) => format!("spec.job.savepointsDir: {d}"),
        None => "spec.job.savepointsDir is not set".to_string(),
    });
    f = f.evidence(
        match job
            .and_then(|j| j.savepoint_location.as_deref())
            .filter(|l| !l.is_empty())
        {
            Some(l) => format!(
                "last successful savepoint: status.components.job.savepointLocation {l}{}",
                job.and_then(|j| j.savepoint_time.as_deref())
                    .map(|t| format!(" (taken {t})"))
                    .unwrap_or_default()
            ),
            None => "no successful savepoint recorded in status.components.job".to_string(),
        },
    );

    let job_gone = message.contains("Flink job is stopped")
        || message.contains("Savepoint triggered Flink job is lost");
    let cause = if job_gone {
        format!(
            "The job stopped or was lost while the savepoint was being taken: see the job's state (`kubectl get flinkcluster {name} -n {ns} -o jsonpath='{{.status.components.job}}'`) and `kubectl flink doctor {name} -n {ns}` for why."
        )
    } else {
        format!(
            "Flink could not write the savepoint{}: read the JobManager's log around the trigger time (`kubectl flink logs {name} -n {ns} --component jobmanager -i 'savepoint|Savepoint'`). Usual causes: the directory is not writable with the pods' credentials, its file-system plugin (s3, gs, ...) is not enabled in the image, or the savepoint timed out on a large or back-pressured job.",
            dir.map(|d| format!(" to {d}")).unwrap_or_default()
        )
    };
    let again = match reason {
        REASON_UPDATE => "Once the cause is fixed the operator's next retry (every 10 s) takes the savepoint and applies the update by itself. To update now without a new savepoint (state since the last one is lost), let the operator restore an older savepoint instead: set spec.job.takeSavepointOnUpdate: false with spec.job.maxStateAgeToRestoreSeconds covering the last savepoint's age.".to_string(),
        _ => format!(
            "Once the cause is fixed, ask the operator for a savepoint (it needs spec.job.savepointsDir and a running job):\n\n  kubectl annotate flinkcluster {name} -n {ns} {CONTROL_ANNOTATION}=savepoint --overwrite"
        ),
    };
    let dir_fix = if dir.is_none() {
        "\n\nspec.job.savepointsDir is not set: the operator refuses savepoint requests and job updates without it (\"updating job is not allowed when spec.job.savepointsDir was not provided\"); set it to a durable directory the JobManager and TaskManagers can write."
    } else {
        ""
    };
    Some(
        f.fix(format!("{cause}\n\n{again}{dir_fix}")).verify(format!(
            "kubectl get flinkcluster {name} -n {ns} -o jsonpath='{{.status.savepoint.state}}'   # expect: Succeeded"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, scenario, HEALTHY_SCENARIOS};
    use crate::snapshot::flink::FlinkClusterSavepoint;

    /// The healthy FlinkCluster with a savepoint status written as the operator writes it.
    fn with_savepoint(state: &str, reason: &str, message: &str) -> Snapshot {
        let mut s = scenario("mode-flinkcluster-healthy");
        let fc = &mut s.flink_clusters[0];
        fc.spec.job.as_mut().unwrap().savepoints_dir = Some("gs://flink-sp/topspeed".into());
        fc.status.as_mut().unwrap().savepoint = Some(FlinkClusterSavepoint {
            state: Some(state.into()),
            trigger_reason: Some(reason.into()),
            trigger_time: Some("2026-11-30T09:15:00Z".into()),
            message: Some(message.into()),
        });
        s
    }

    const UPDATE_MESSAGE: &str = "Failed to take savepoint for update. The update process is being postponed until a savepoint is available. Savepoint error: java.util.concurrent.CompletionException: java.io.IOException: com.google.cloud.storage.StorageException: 403 Forbidden";

    #[test]
    fn a_failed_savepoint_for_an_update_blocks_it() {
        let s = with_savepoint("Failed", "update", UPDATE_MESSAGE);
        let f = run(&FlinkclusterSavepointFailed, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::UpgradeFailed);
        assert_eq!(f.severity, Severity::Critical);
        assert_eq!(
            f.object.to_string(),
            "FlinkCluster/topspeed -n scn-mode-flinkcluster-healthy"
        );
        assert!(f.title.contains("postpones the update"), "{}", f.title);
        let ev = f.evidence.join("\n");
        for e in [
            "status.savepoint.state: Failed",
            "status.savepoint.triggerReason: update",
            "status.savepoint.triggerTime: 2026-11-30T09:15:00Z",
            "403 Forbidden",
            "spec.job.savepointsDir: gs://flink-sp/topspeed",
            "no successful savepoint recorded",
        ] {
            assert!(ev.contains(e), "{e} not in {ev}");
        }
        assert!(f.fix.contains("takeSavepointOnUpdate: false"), "{}", f.fix);
        assert!(f.verify.ends_with("# expect: Succeeded"), "{}", f.verify);
    }

    #[test]
    fn scheduled_and_trigger_failures_are_warnings_with_a_new_request() {
        let s = with_savepoint("TriggerFailed", "scheduled", "");
        let f = run(&FlinkclusterSavepointFailed, &s);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].title.contains("could not be triggered"),
            "{}",
            f[0].title
        );
        assert!(
            f[0].fix.contains(
                "kubectl annotate flinkcluster topspeed -n scn-mode-flinkcluster-healthy flinkclusters.flinkoperator.k8s.io/user-control=savepoint --overwrite"
            ),
            "{}",
            f[0].fix
        );
        // A cancel whose savepoint failed is aborted: critical.
        let s = with_savepoint(
            "Failed",
            "job cancel",
            "Savepoint triggered Flink job is lost: ",
        );
        let f = run(&FlinkclusterSavepointFailed, &s);
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].fix.contains("stopped or was lost"), "{}", f[0].fix);
    }

    #[test]
    fn without_a_savepoints_dir_the_fix_says_so() {
        let mut s = with_savepoint("Failed", "user requested", "Savepoint error: x");
        s.flink_clusters[0]
            .spec
            .job
            .as_mut()
            .unwrap()
            .savepoints_dir = None;
        let f = run(&FlinkclusterSavepointFailed, &s);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e == "spec.job.savepointsDir is not set"),
            "{:?}",
            f[0].evidence
        );
        assert!(
            f[0].fix.contains("savepointsDir is not set"),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn silent_on_success_progress_superseded_failures_and_healthy_bundles() {
        for state in ["Succeeded", "InProgress"] {
            let s = with_savepoint(state, "scheduled", "");
            assert!(run(&FlinkclusterSavepointFailed, &s).is_empty(), "{state}");
        }
        // A later savepoint succeeded: the failure is history.
        let mut s = with_savepoint("Failed", "scheduled", "Savepoint error: x");
        let job = s.flink_clusters[0]
            .status
            .as_mut()
            .and_then(|st| st.components.as_mut())
            .and_then(|c| c.job.as_mut())
            .unwrap();
        job.savepoint_location = Some("gs://flink-sp/topspeed/savepoint-3c1f6d-0b2a".into());
        job.savepoint_time = Some("2026-11-30T09:20:00Z".into());
        assert!(run(&FlinkclusterSavepointFailed, &s).is_empty());
        for name in HEALTHY_SCENARIOS.iter().chain(
            [
                "mode-flinkcluster-submitter-failed",
                "mode-flinkcluster-job-lost",
            ]
            .iter(),
        ) {
            assert!(
                run(&FlinkclusterSavepointFailed, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

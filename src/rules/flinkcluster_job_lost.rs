//! FLK303: a FlinkCluster's job is `Lost` (or `Failed` after its JobManager restarted) and no
//! Flink HA brought it back.
//!
//! The GCP/Spotify operator marks the job Lost when the JobManager answers but no longer lists the
//! job it recorded as running (spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/
//! flinkcluster_updater.go `deriveJobStatus`): the JobManager pod was replaced (evicted, killed,
//! its node drained) and, without high availability, the new one starts empty. The operator
//! resubmits only with `spec.job.restartPolicy: FromSavepointOnFailure` (which needs
//! `maxStateAgeToRestoreSeconds`) and a recorded savepoint (apis/flinkcluster/v1beta1/
//! flinkcluster_types_util.go `ShouldRestart`, flinkcluster_validate.go); the default `Never`
//! leaves it Lost.
//!
//! Reports: spotify/flink-on-k8s-operator issue 172 (the submitter is not rerun after the JobManager
//! pod was killed, job Lost), GoogleCloudPlatform/flink-on-k8s-operator issue 398 (job Lost after
//! a JobManager restart; the maintainer's answer is the restart policy above), spotify issue 683
//! (the whole cluster lost with its node during an EKS upgrade, HA not effective).

use super::support::containers::event_line;
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::flink::mode::Mode;
use crate::shell::{escape_controls, quoted, sh};
use crate::snapshot::index::{pod_name, Cluster, Index};
use crate::snapshot::{to_utc, Snapshot};
use chrono::{DateTime, Utc};

pub struct FlinkclusterJobLost;

static META: RuleMeta = RuleMeta {
    id: "FLK303",
    name: "flinkcluster_job_lost",
    summary: "a FlinkCluster's job is Lost (or Failed) after its JobManager restarted without Flink HA, and the operator will not resubmit it",
    category: Category::JobmanagerRestartWithoutHa,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"resubmit the job from its last savepoint (spec.job.fromSavepoint), and turn Flink HA on so that a JobManager restart no longer loses it"#,
    verify: r#"kubectl get flinkcluster <name> -o jsonpath='{.status.components.job.state}'   # expect: Running"#,
};

/// Flink's HA switch and its deprecated names.
impl Rule for FlinkclusterJobLost {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        index
            .clusters()
            .iter()
            .filter(|c| c.mode == Mode::FlinkCluster)
            .filter_map(|c| finding(s, index, c))
            .collect()
    }
}

fn parse(t: Option<&str>) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t?)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// Evidence that a JobManager was replaced or restarted after the job started.
fn jobmanager_restarts(c: &Cluster, job_start: Option<DateTime<Utc>>) -> Vec<String> {
    let mut out = Vec::new();
    for p in &c.jobmanager_pods {
        let st = p.status.as_ref();
        let started = st.and_then(|s| s.start_time.as_ref()).and_then(to_utc);
        if let (Some(started), Some(job_start)) = (started, job_start) {
            if started > job_start {
                out.push(format!(
                    "JobManager pod {} started at {}, after the job started at {}: the JobManager was replaced and began without the job",
                    pod_name(p),
                    started.to_rfc3339(),
                    job_start.to_rfc3339()
                ));
            }
        }
        for cs in st
            .and_then(|s| s.container_statuses.as_ref())
            .into_iter()
            .flatten()
        {
            let last = cs.last_state.as_ref().and_then(|l| l.terminated.as_ref());
            let after = last
                .and_then(|t| t.finished_at.as_ref())
                .and_then(to_utc)
                .is_some_and(|f| job_start.is_none_or(|j| f > j));
            if cs.restart_count > 0 && after {
                out.push(format!(
                    "JobManager container `{}` of pod {} restarted {} time(s), last exit code {} ({})",
                    cs.name,
                    pod_name(p),
                    cs.restart_count,
                    last.map(|t| t.exit_code).unwrap_or_default(),
                    last.and_then(|t| t.reason.as_deref()).unwrap_or("")
                ));
            }
        }
    }
    out
}

fn finding(s: &Snapshot, index: &Index, c: &Cluster) -> Option<Finding> {
    let fc = c.flink_cluster?;
    let job = fc.job_status()?;
    let state = fc.job_state()?;
    let job_start = parse(job.start_time_or_deploy());
    let restarts = jobmanager_restarts(c, job_start);
    let conf = index.conf(c);
    let ha = conf
        .get_any(crate::flink::ha::MODE_KEYS)
        .filter(|(_, v)| crate::flink::ha::mode(&v.value).is_some());
    match state {
        "Lost" => {}
        // A job that failed for its own reasons is its own story; one whose JobManager was
        // replaced without HA is this one.
        "Failed" if !restarts.is_empty() && ha.is_none() => {}
        _ => return None,
    }
    let (ns, name) = (c.namespace(), c.name());
    let spec_job = fc.spec.job.clone().unwrap_or_default();
    let restart_policy = spec_job.restart_policy.as_deref().unwrap_or("Never");
    let title = match ha {
        None => format!(
            "the job of FlinkCluster {name} is {state}: its JobManager restarted without Flink HA, and the operator does not resubmit it (restartPolicy {restart_policy})"
        ),
        Some(_) => format!(
            "the job of FlinkCluster {name} is {state}: the JobManager no longer runs it, although Flink HA is configured"
        ),
    };
    let mut f =
        Finding::new(&META, c.reference.clone(), title).deployment(Some(c.reference.clone()));
    let when = job
        .completion_time
        .as_deref()
        .map(|t| format!(" (since {t})"))
        .unwrap_or_default();
    f = f.evidence(format!("status.components.job.state: {state}{when}"));
    if let Some(t) = job.start_time.as_deref() {
        f = f.evidence(format!("status.components.job.startTime: {t}"));
    }
    for r in &restarts {
        f = f.evidence(r.clone());
    }
    f = f.evidence(match ha {
        None => {
            "Flink HA is not configured: spec.flinkProperties and ConfigMap ".to_string()
                + &crate::flink::names::flinkcluster_config_map(name)
                + " set no high-availability, so a new JobManager knows no job"
        }
        Some((k, v)) => format!("{}: {k}: {}", v.source, v.value),
    });
    f = f.evidence(format!(
        "spec.job.restartPolicy: {restart_policy}{}",
        if restart_policy == "Never" {
            " (the default): the operator leaves a failed or lost job as it is"
        } else {
            ""
        }
    ));
    let savepoint = job.savepoint_location.as_deref().filter(|l| !l.is_empty());
    match savepoint {
        Some(l) => {
            f = f.evidence(format!(
                "status.components.job.savepointLocation: {l}{}",
                job.savepoint_time
                    .as_deref()
                    .map(|t| format!(" (taken {t})"))
                    .unwrap_or_default()
            ))
        }
        None => {
            f = f.evidence(
                "no savepoint recorded in status.components.job: the job's state can only come from a checkpoint".to_string(),
            )
        }
    }
    for e in index
        .events_for("FlinkCluster", ns, name)
        .into_iter()
        .filter(|e| {
            e.message
                .as_deref()
                .is_some_and(|m| m.contains(&format!("-> {state}")))
        })
        .rev()
        .take(1)
    {
        f = f.evidence(event_line(e));
    }

    let savepoint_age = savepoint
        .and_then(|_| parse(job.savepoint_time.as_deref()))
        .map(|t| (s.captured_at - t).num_seconds().max(0));
    // The fix is in place: the operator restarts the job from that savepoint on its next
    // reconcile (`ShouldRestart`), so this waits for it rather than repeating the fix.
    let resuming = restart_policy == "FromSavepointOnFailure"
        && savepoint.is_some()
        && spec_job
            .max_state_age_to_restore_seconds
            .is_some_and(|max| savepoint_age.is_none_or(|a| a <= max));
    if resuming {
        f.title = format!(
            "the job of FlinkCluster {name} is {state}; restartPolicy FromSavepointOnFailure is set, so the operator resubmits it from its last savepoint: waiting for that"
        );
        return Some(
            f.severity(Severity::Info)
                .fix(format!(
                    "Nothing to change: the operator restarts the job from {} on its next reconcile. If it stays {state}, read the operator's log for this cluster:\n\n  kubectl logs -n flink-operator-system deploy/flink-operator-controller-manager | grep {}   # the operator's namespace, if not this one",
                    escape_controls(savepoint.unwrap_or_default()),
                    quoted(&format!("{ns}/{name}"))
                ))
                .verify(format!(
                    "kubectl get flinkcluster {} -n {} -o jsonpath='{{.status.components.job.state}}'   # expect: Running",
                    sh(name),
                    sh(ns)
                )),
        );
    }
    let max_age = savepoint_age.map(|a| (a / 3600 + 1) * 3600).unwrap_or(3600);
    let patch_dir = if spec_job.savepoints_dir.is_some() {
        String::new()
    } else {
        ",\"savepointsDir\":\"<a durable directory, e.g. s3://bucket/savepoints>\",\"autoSavepointSeconds\":300".to_string()
    };
    let jobmanager = format!("{name}-jobmanager-0");
    let (ns, name) = (sh(ns), sh(name));
    let now = match savepoint.map(escape_controls) {
        Some(l) => format!(
            "Let the operator resubmit the job from its last savepoint ({l}): it restarts a Lost or Failed job only under restartPolicy FromSavepointOnFailure, from a savepoint no older than maxStateAgeToRestoreSeconds ({max_age} covers this one):\n\n  kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"restartPolicy\":\"FromSavepointOnFailure\",\"maxStateAgeToRestoreSeconds\":{max_age}{patch_dir}}}}}}}'"
        ),
        None => format!(
            "No savepoint was recorded, so the operator has nothing to resume from: resubmit from the job's latest retained checkpoint by setting spec.job.fromSavepoint to its path (under state.checkpoints.dir), or accept a start without state. To be resumable next time, take savepoints regularly and let the operator restart from them:\n\n  kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"restartPolicy\":\"FromSavepointOnFailure\",\"maxStateAgeToRestoreSeconds\":{max_age}{patch_dir}}}}}}}'"
        ),
    };
    let ha_fix = "To keep the job through the next JobManager restart instead of resubmitting it, enable Flink's Kubernetes HA in spec.flinkProperties (`high-availability: org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory`, `high-availability.storageDir: <durable path>`, `kubernetes.cluster-id: <name>`) and give the JobManager's ServiceAccount the ConfigMap rights it needs (`kubectl flink can-i NAME` shows them).";
    Some(
        f.fix(if ha.is_none() {
            format!("{now}\n\n{ha_fix}")
        } else {
            format!("{now}\n\nHA is configured but did not recover the job: read the new JobManager's log for its HA start-up (`kubectl logs {} -n {ns}`); a JobManager that cannot read its HA ConfigMaps or storage starts empty.", sh(&jobmanager))
        })
        .verify(format!(
            "kubectl get flinkcluster {name} -n {ns} -o jsonpath='{{.status.components.job.state}}'   # expect: Running"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, scenario, HEALTHY_SCENARIOS};

    #[test]
    fn a_job_lost_with_its_jobmanager_and_no_ha_is_resumed_from_its_savepoint() {
        let s = scenario("mode-flinkcluster-job-lost");
        let f = run(&FlinkclusterJobLost, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::JobmanagerRestartWithoutHa);
        assert_eq!(
            f.object.to_string(),
            "FlinkCluster/events -n scn-mode-flinkcluster-job-lost"
        );
        let ev = f.evidence.join("\n");
        assert!(ev.contains("status.components.job.state: Lost"), "{ev}");
        assert!(
            ev.contains("JobManager pod events-jobmanager-0 started at 2026-11-30T10:05:40"),
            "{ev}"
        );
        assert!(ev.contains("Flink HA is not configured"), "{ev}");
        assert!(
            ev.contains("spec.job.restartPolicy: Never (the default)"),
            "{ev}"
        );
        // The savepoint was 15 minutes old when the bundle was taken: one hour covers it.
        assert!(f.fix.contains("\"restartPolicy\":\"FromSavepointOnFailure\",\"maxStateAgeToRestoreSeconds\":3600}"), "{}", f.fix);
    }

    #[test]
    fn silent_with_the_job_running_a_failure_of_its_own_and_healthy_bundles() {
        let mut s = scenario("mode-flinkcluster-job-lost");
        set_state(&mut s, "Running");
        assert!(run(&FlinkclusterJobLost, &s).is_empty());
        // Failed with no JobManager restart after the job started: not this rule's.
        let mut s = scenario("mode-flinkcluster-healthy");
        set_state(&mut s, "Failed");
        assert!(run(&FlinkclusterJobLost, &s).is_empty());
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(["mode-flinkcluster-submitter-failed"].iter())
        {
            assert!(
                run(&FlinkclusterJobLost, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }

    #[test]
    fn once_the_operator_may_restart_it_from_the_savepoint_it_is_info_and_waits() {
        let mut s = scenario("mode-flinkcluster-job-lost");
        let job = s.flink_clusters[0].spec.job.as_mut().unwrap();
        job.restart_policy = Some("FromSavepointOnFailure".into());
        job.max_state_age_to_restore_seconds = Some(3600);
        let f = run(&FlinkclusterJobLost, &s);
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].title.contains("waiting"), "{}", f[0].title);
        assert!(!f[0].fix.contains("kubectl patch"), "{}", f[0].fix);
        // A savepoint older than the limit cannot be restored: the fix is still needed.
        s.flink_clusters[0]
            .spec
            .job
            .as_mut()
            .unwrap()
            .max_state_age_to_restore_seconds = Some(60);
        assert_eq!(
            run(&FlinkclusterJobLost, &s)[0].severity,
            Severity::Critical
        );
    }

    #[test]
    fn failed_after_a_jobmanager_replacement_without_ha_fires_too() {
        let mut s = scenario("mode-flinkcluster-job-lost");
        set_state(&mut s, "Failed");
        assert_eq!(run(&FlinkclusterJobLost, &s).len(), 1);
    }

    fn set_state(s: &mut Snapshot, state: &str) {
        for fc in &mut s.flink_clusters {
            fc.status
                .as_mut()
                .and_then(|st| st.components.as_mut())
                .and_then(|c| c.job.as_mut())
                .unwrap()
                .state = Some(state.into());
        }
    }
}

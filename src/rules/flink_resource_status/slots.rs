//! The slots a FlinkDeployment's job asks for against the slots its configuration lets the cluster
//! have, for an operator error of `NoResourceAvailableException` (the scheduler's slot requests
//! timed out): the field and the value that give the job its slots.
//!
//! - The job needs `spec.job.parallelism` slots (else `parallelism.default`, 1) when its operators
//!   share one slot sharing group, Flink's default.
//! - Each TaskManager has `taskmanager.numberOfTaskSlots` (default 1) slots.
//! - `slotmanager.number-of-slots.max` caps the slots of the whole cluster: the ResourceManager
//!   starts no TaskManager past it (apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/ResourceManagerOptions.java,
//!   MAX_SLOT_NUM; FineGrainedSlotManager / DeclarativeSlotManager refuse new workers over it).
//! - In standalone mode the TaskManagers are `spec.taskManager.replicas`.

use crate::snapshot::flink::FlinkDeployment;

/// `Some(fix)` when the configuration alone cannot give the job its slots.
pub(super) fn fit(fd: &FlinkDeployment, ns: &str) -> Option<String> {
    let conf = &fd.spec.flink_configuration;
    let num = |k: &str| conf.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    let job = fd.spec.job.as_ref()?;
    let parallelism = job
        .parallelism
        .or_else(|| num("parallelism.default"))
        .unwrap_or(1);
    let per_tm = num("taskmanager.numberOfTaskSlots").unwrap_or(1).max(1);
    let name = crate::shell::sh(fd.name());
    let qns = crate::shell::sh(ns);
    let patch = |json: String| {
        format!(
            "kubectl patch flinkdeployment {name} -n {qns} --type=merge -p {}",
            crate::shell::quote(&json)
        )
    };
    if let Some(max) = num("slotmanager.number-of-slots.max").filter(|m| *m < parallelism) {
        // Whole TaskManagers: the cap in slots, rounded up to a multiple of the slots per TaskManager.
        let want = (parallelism + per_tm - 1) / per_tm * per_tm;
        return Some(format!(
            "The job asks for {parallelism} slots (spec.job.parallelism {parallelism}) and flinkConfiguration \
             slotmanager.number-of-slots.max caps the cluster at {max} (taskmanager.numberOfTaskSlots {per_tm} per \
             TaskManager): the ResourceManager starts no TaskManager past it. Raise the cap to {want}:\n\n  \
             {}\n\n\
             or lower spec.job.parallelism to {max}:\n\n  \
             # {}",
            patch(format!(
                "{{\"spec\":{{\"flinkConfiguration\":{{\"slotmanager.number-of-slots.max\":\"{want}\"}}}}}}"
            )),
            patch(format!("{{\"spec\":{{\"job\":{{\"parallelism\":{max}}}}}}}"))
        ));
    }
    let standalone = fd.spec.mode.as_deref() == Some("standalone");
    let replicas = fd.spec.task_manager.as_ref().and_then(|t| t.replicas);
    if let Some(r) = replicas.filter(|r| standalone && r * per_tm < parallelism) {
        let want = (parallelism + per_tm - 1) / per_tm;
        return Some(format!(
            "The job asks for {parallelism} slots (spec.job.parallelism {parallelism}); {r} TaskManagers \
             (spec.taskManager.replicas) of {per_tm} slots (taskmanager.numberOfTaskSlots) have {}. Run {want}:\n\n  {}",
            r * per_tm,
            patch(format!("{{\"spec\":{{\"taskManager\":{{\"replicas\":{want}}}}}}}"))
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::snapshot;

    fn fd(conf: &str, parallelism: i64, extra: &str) -> FlinkDeployment {
        let s = snapshot(&format!(
            r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: flink:1.18
  flinkVersion: v1_18
  {extra}
  flinkConfiguration: {{{conf}}}
  jobManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
  taskManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
  job: {{jarURI: "local:///opt/flink/usrlib/lab-job.jar", parallelism: {parallelism}}}
"#
        ));
        s.flink_deployments[0].clone()
    }

    #[test]
    fn a_slot_cap_under_the_parallelism_is_raised() {
        // The lab's no-slots scenario.
        let d = fd(
            r#"taskmanager.numberOfTaskSlots: "1", slotmanager.number-of-slots.max: "1""#,
            2,
            "",
        );
        let fix = fit(&d, "analytics").unwrap();
        assert!(fix.contains(r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"slotmanager.number-of-slots.max":"2"}}}'"#), "{fix}");
        assert!(fix.contains("# kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"job\":{\"parallelism\":1}}}'"), "{fix}");
    }

    #[test]
    fn standalone_replicas_short_of_the_parallelism_are_raised() {
        let d = fd(
            r#"taskmanager.numberOfTaskSlots: "2""#,
            6,
            "mode: standalone",
        );
        let mut d = d;
        d.spec.task_manager.as_mut().unwrap().replicas = Some(1);
        let fix = fit(&d, "analytics").unwrap();
        assert!(
            fix.contains(r#"{"spec":{"taskManager":{"replicas":3}}}"#),
            "{fix}"
        );
    }

    #[test]
    fn nothing_when_the_configuration_allows_the_slots() {
        let d = fd(r#"taskmanager.numberOfTaskSlots: "1""#, 2, "");
        assert_eq!(fit(&d, "analytics"), None);
    }
}

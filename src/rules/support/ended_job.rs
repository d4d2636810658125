//! A job that ended in a FlinkDeployment operator releases before 1.11.0 cannot observe
//! (FLINK-37370): how its status says so, and what a fix must add so the operator deploys it.
//! FLK401 reads the status, FLK103 the JobManager's log; both fix the spec the same way.

use crate::snapshot::Snapshot;

/// Once the job is in a globally terminal state (FAILED, FINISHED, CANCELED), operator 1.10.0's
/// observer asks the JobManager for its latest checkpoint (`SnapshotObserver.observeLatestCheckpoint`);
/// a job without checkpointing has none, the JobManager answers `Checkpointing has not been
/// enabled`, and `AbstractFlinkService.getLastCheckpoint` throws `Could not observe latest
/// savepoint information` (apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java;
/// .../observer/SnapshotObserver.java). The reconcile ends there, so the status keeps the job's
/// previous state (RECONCILING) and this error, whatever ended the job. Release 1.11.0 reads that
/// answer as "no checkpoint" (FLINK-37370, release-1.11.0:.../service/AbstractFlinkService.java).
pub fn unobserved(joined: &str) -> bool {
    joined.contains("Could not observe latest savepoint information")
        && joined.contains("Checkpointing has not been enabled")
}

/// Operator releases before 1.11.0 stop every reconcile of a FlinkDeployment whose ended job they
/// cannot observe (the observer throws before the reconciler runs:
/// apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/controller/FlinkDeploymentController.java),
/// so a fixed spec is not deployed while that JobManager runs; without it the observer does not
/// reach the job (it observes a cluster only while its JobManager Deployment is ready,
/// .../observer/deployment/AbstractFlinkDeploymentObserver.java), and the reconciler deploys the
/// spec. Nothing is lost: the job ended and has no checkpoint (its checkpointing is off). The
/// paragraph that says so, with the command, when that Deployment is in the snapshot.
///
/// That holds for `upgradeMode: stateless` (the default) only: for `savepoint` and `last-state`
/// the reconciler needs the job's last state, and with the JobManager Deployment gone and no HA
/// metadata it stops on `JobManager deployment is missing and HA data is not available to make
/// stateful upgrades. ... Manual restore required.` (UpgradeFailureException,
/// .../reconciler/deployment/ApplicationReconciler.java, `getJobUpgrade`; the lab's savepoint-path
/// scenario met it). There the resource is recreated instead, as that message asks: a new
/// FlinkDeployment is a first deployment, which restores from `spec.job.initialSavepointPath` when
/// one is set (`kubectl replace --force` deletes it, waits until the operator's finalizer let it
/// go, and creates it again from the spec just read).
pub fn redeploy(snapshot: &Snapshot, ns: &str, cluster: &str) -> String {
    let exists = snapshot.deployments.iter().any(|d| {
        d.metadata.name.as_deref() == Some(cluster)
            && d.metadata.namespace.as_deref().unwrap_or("default") == ns
    });
    if !exists {
        return String::new();
    }
    let (cluster_q, ns_q) = (crate::shell::sh(cluster), crate::shell::sh(ns));
    match stateful_upgrade_mode(snapshot, ns, cluster) {
        None => format!(
            "\nOperator releases before 1.11.0 apply no spec change (this fix included) while this ended job's \
             JobManager runs (FLINK-37370): once the spec is fixed, delete the JobManager's Deployment and the \
             operator deploys the spec again (the job ended and has no checkpoint to lose):\n\n  \
             kubectl delete deployment {cluster_q} -n {ns_q}\n"
        ),
        Some(mode) => format!(
            "\nOperator releases before 1.11.0 apply no spec change (this fix included) while this ended job's \
             JobManager runs (FLINK-37370), and with spec.job.upgradeMode {mode} deleting only that JobManager's \
             Deployment stops the operator on `JobManager deployment is missing and HA data is not available to \
             make stateful upgrades`. Once the spec is fixed, recreate FlinkDeployment {cluster} from it: a new \
             resource is a first deployment (it restores from spec.job.initialSavepointPath when that is set; \
             the job ended and has no checkpoint to lose):\n\n  \
             kubectl get flinkdeployment {cluster_q} -n {ns_q} -o yaml | kubectl replace --force -f -\n"
        ),
    }
}

/// The FlinkDeployment's `spec.job.upgradeMode` when it is a stateful one (`savepoint`,
/// `last-state`); `stateless` is the CRD's default
/// (apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/spec/JobSpec.java).
fn stateful_upgrade_mode<'a>(snapshot: &'a Snapshot, ns: &str, cluster: &str) -> Option<&'a str> {
    snapshot
        .flink_deployments
        .iter()
        .find(|d| {
            d.metadata.name.as_deref() == Some(cluster)
                && d.metadata.namespace.as_deref().unwrap_or("default") == ns
        })?
        .spec
        .job
        .as_ref()?
        .upgrade_mode
        .as_deref()
        .filter(|m| !m.eq_ignore_ascii_case("stateless"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::snapshot;

    const JM: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: orders, namespace: analytics}\nspec: {selector: {matchLabels: {app: orders}}, template: {metadata: {labels: {app: orders}}, spec: {containers: [{name: flink-main-container, image: flink:1.20}]}}}\n";

    fn fd(mode: &str) -> String {
        format!("apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: orders, namespace: analytics}}\nspec:\n  image: flink:1.20\n  job: {{jarURI: 'local:///opt/flink/usrlib/lab-job.jar'{mode}}}\n")
    }

    #[test]
    fn a_stateless_job_s_jobmanager_deployment_is_deleted_a_stateful_one_s_resource_recreated() {
        for mode in ["", ", upgradeMode: stateless"] {
            let s = snapshot(&format!("{}\n---\n{JM}", fd(mode)));
            let text = redeploy(&s, "analytics", "orders");
            assert!(
                text.contains("kubectl delete deployment orders -n analytics"),
                "{text}"
            );
            assert!(!text.contains("replace"), "{text}");
        }
        for mode in ["savepoint", "last-state"] {
            let s = snapshot(&format!(
                "{}\n---\n{JM}",
                fd(&format!(", upgradeMode: {mode}"))
            ));
            let text = redeploy(&s, "analytics", "orders");
            assert!(
                text.contains("kubectl get flinkdeployment orders -n analytics -o yaml | kubectl replace --force -f -"),
                "{text}"
            );
            assert!(text.contains(&format!("upgradeMode {mode}")), "{text}");
            assert!(!text.contains("kubectl delete deployment"), "{text}");
            // `--fix=run` runs it as one command line.
            assert_eq!(
                crate::finding::Remedy::from_fix(&text).run,
                ["kubectl get flinkdeployment orders -n analytics -o yaml | kubectl replace --force -f -"],
                "{text}"
            );
        }
        // No JobManager Deployment in the snapshot: nothing to delete or recreate for.
        let s = snapshot(&fd(", upgradeMode: savepoint"));
        assert_eq!(redeploy(&s, "analytics", "orders"), "");
    }
}

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
pub fn redeploy(snapshot: &Snapshot, ns: &str, cluster: &str) -> String {
    let exists = snapshot.deployments.iter().any(|d| {
        d.metadata.name.as_deref() == Some(cluster)
            && d.metadata.namespace.as_deref().unwrap_or("default") == ns
    });
    if !exists {
        return String::new();
    }
    format!(
        "\nOperator releases before 1.11.0 apply no spec change (this fix included) while this ended job's \
         JobManager runs (FLINK-37370): once the spec is fixed, delete the JobManager's Deployment and the \
         operator deploys the spec again (the job ended and has no checkpoint to lose):\n\n  \
         kubectl delete deployment {} -n {}\n",
        crate::shell::sh(cluster),
        crate::shell::sh(ns)
    )
}

//! Which container logs a diagnosis reads, the same live and offline: a live gather fetches
//! exactly these, and a bundle's `logs/` folder is read for these only (a healthy container's log
//! costs nothing), plus any log of a pod the bundle has no object for.

use super::index::{pod_name, pod_namespace, pod_phase, Index};
use super::{LogKey, Snapshot};
use crate::snapshot::Pod;
use std::collections::BTreeSet;

/// Every log the rules may read.
pub fn all(s: &Snapshot) -> BTreeSet<LogKey> {
    failing_containers(&s.pods)
        .into_iter()
        .chain(jobmanager_logs(s))
        .chain(operator_logs(s))
        .collect()
}

/// Which containers' logs to read, as the kubelet can answer them
/// (kubernetes/kubernetes@v1.36.3:pkg/kubelet/kubelet_pods.go, `validateContainerLogStatus`, the
/// same since @v1.24.0):
/// - the previous log only of a container whose `lastState.terminated` is set: that instance is
///   what `previous=true` reads, and without one the kubelet answers "previous terminated
///   container ... not found";
/// - the current log of a running container that restarted or is not ready, and of a terminated
///   one that failed or is not ready;
/// - no current log of a waiting container: the kubelet serves it the last terminated instance,
///   the very log `previous=true` reads (so the previous log above already holds it), or, with
///   none, "is waiting to start" and no log.
///
/// A crash-looping container (waiting in CrashLoopBackOff) is one read, not two.
pub fn failing_containers(pods: &[Pod]) -> Vec<LogKey> {
    let mut out = Vec::new();
    for pod in pods {
        let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
        let name = pod.metadata.name.as_deref().unwrap_or("");
        let statuses = pod.status.iter().flat_map(|s| {
            s.container_statuses
                .iter()
                .flatten()
                .chain(s.init_container_statuses.iter().flatten())
        });
        for c in statuses {
            let state = c.state.as_ref();
            let waiting = state.is_some_and(|s| s.waiting.is_some());
            let terminated = state.and_then(|s| s.terminated.as_ref());
            let failed = terminated.is_some_and(|t| t.exit_code != 0);
            let restarted = c.restart_count > 0;
            let ended_before = c
                .last_state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .is_some();
            if !waiting && (restarted || failed || !c.ready) {
                out.push(LogKey::new(ns, name, &c.name, false));
            }
            if ended_before {
                out.push(LogKey::new(ns, name, &c.name, true));
            }
        }
    }
    out
}

/// The operator's own log tail: the previous one of a container that restarted (when an instance
/// of it ended), the current one of a running container that is not ready, of the operator
/// container when the FlinkStateSnapshot CRD is absent (it logs that it cannot watch snapshots),
/// and of the FlinkCluster operator's manager when a FlinkCluster has no status state (it logs
/// why its status update was refused).
pub fn operator_logs(s: &Snapshot) -> Vec<LogKey> {
    use crate::flink::install::flinkcluster as fc;
    let snapshot_crd_missing = !s
        .crds
        .iter()
        .any(|c| c.metadata.name.as_deref() == Some("flinkstatesnapshots.flink.apache.org"));
    let flinkcluster_unreconciled = s.flink_clusters.iter().any(|c| {
        c.status
            .as_ref()
            .and_then(|st| st.state.as_deref())
            .is_none()
    });
    let mut wanted = Vec::new();
    for p in &s.operator_pods {
        let ns = p.metadata.namespace.as_deref().unwrap_or("default");
        let name = p.metadata.name.as_deref().unwrap_or("");
        let flinkcluster_operator = super::identity::operator_of(s, p)
            .is_some_and(|(k, _)| k == crate::flink::identity::OperatorKind::FlinkCluster);
        for cs in p
            .status
            .iter()
            .flat_map(|st| st.container_statuses.iter().flatten())
        {
            let running = cs.state.as_ref().is_some_and(|st| st.running.is_some());
            // The instance that ended, when there is one (`failing_containers`).
            let ended_before = cs
                .last_state
                .as_ref()
                .and_then(|st| st.terminated.as_ref())
                .is_some();
            if cs.restart_count > 0 && ended_before {
                wanted.push(LogKey::new(ns, name, &cs.name, true));
            }
            if running
                && (!cs.ready
                    || (snapshot_crd_missing
                        && cs.name == crate::flink::install::OPERATOR_CONTAINER)
                    || (flinkcluster_unreconciled
                        && flinkcluster_operator
                        && fc::CONTAINERS.contains(&cs.name.as_str())))
            {
                wanted.push(LogKey::new(ns, name, &cs.name, false));
            }
        }
    }
    wanted
}

/// The JobManager logs to read for clusters whose JobManager creates TaskManager pods itself
/// (operator native mode, plain native): the current log of each running JobManager when the
/// cluster has no TaskManager pod left, one has failed, or some were replaced (a pod index
/// `<id>-taskmanager-<attempt>-<index>` above the number of TaskManager pods there are). Pure, so
/// a bundle holds exactly the logs a live gather reads.
pub fn jobmanager_logs(s: &Snapshot) -> Vec<LogKey> {
    let index = Index::new(s);
    let mut out = Vec::new();
    for c in index.clusters() {
        if !c.mode.native_taskmanagers() {
            continue;
        }
        let tms = &c.taskmanager_pods;
        let failed = tms.iter().any(|p| pod_phase(p) == "Failed");
        let highest = tms
            .iter()
            .filter_map(|p| taskmanager_pod_index(c.name(), pod_name(p)))
            .max()
            .unwrap_or(0);
        let replaced = highest as usize > tms.len();
        if !(tms.is_empty() || failed || replaced) {
            continue;
        }
        for jm in &c.jobmanager_pods {
            if pod_phase(jm) != "Running" {
                continue;
            }
            let Some(container) = main_container(jm) else {
                continue;
            };
            out.push(LogKey::new(
                pod_namespace(jm),
                pod_name(jm),
                container,
                false,
            ));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `<cluster-id>-taskmanager-<attempt>-<index>` -> index.
pub fn taskmanager_pod_index(cluster_id: &str, pod: &str) -> Option<u32> {
    let rest = pod
        .strip_prefix(cluster_id)?
        .strip_prefix("-taskmanager-")?;
    let (attempt, index) = rest.split_once('-')?;
    attempt.parse::<u32>().ok()?;
    index.parse().ok()
}

/// Flink's main container, else the pod's first container.
fn main_container(pod: &Pod) -> Option<&str> {
    let containers = &pod.spec.as_ref()?.containers;
    containers
        .iter()
        .find(|c| c.name == crate::flink::names::MAIN_CONTAINER)
        .or_else(|| containers.first())
        .map(|c| c.name.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{snapshot, NATIVE_JOBMANAGER};

    /// One pod `p` in namespace `ns` whose container `c` has this status (YAML flow mapping
    /// fields after the name).
    fn pod_with(status: &str) -> Vec<Pod> {
        let s = snapshot(&format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns}}\nspec: {{containers: [{{name: c, image: x}}]}}\nstatus: {{phase: Running, containerStatuses: [{{name: c, image: x, imageID: '', {status}}}]}}\n"
        ));
        s.pods
    }

    fn keys(status: &str) -> Vec<(bool, String)> {
        failing_containers(&pod_with(status))
            .into_iter()
            .map(|k| (k.previous, k.container))
            .collect()
    }

    #[test]
    fn a_crash_looping_container_is_one_read_its_previous_log() {
        // Waiting in CrashLoopBackOff: the kubelet serves the last terminated instance for the
        // current log too, so reading both is the same bytes twice.
        let crash = "ready: false, restartCount: 6, state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {exitCode: 239, reason: Error}}";
        assert_eq!(keys(crash), vec![(true, "c".to_string())]);
    }

    #[test]
    fn a_running_container_that_restarted_is_read_now_and_before() {
        let restarted = "ready: false, restartCount: 2, state: {running: {startedAt: '2026-11-28T09:00:00Z'}}, lastState: {terminated: {exitCode: 1, reason: Error}}";
        assert_eq!(
            keys(restarted),
            vec![(false, "c".to_string()), (true, "c".to_string())]
        );
        // Restarted, but no instance that ended is reported: the kubelet has no previous log.
        let no_last =
            "ready: true, restartCount: 2, state: {running: {startedAt: '2026-11-28T09:00:00Z'}}";
        assert_eq!(keys(no_last), vec![(false, "c".to_string())]);
    }

    #[test]
    fn a_failed_container_is_read_now() {
        let failed = "ready: false, restartCount: 0, state: {terminated: {exitCode: 137, reason: OOMKilled}}";
        assert_eq!(keys(failed), vec![(false, "c".to_string())]);
    }

    #[test]
    fn no_log_is_read_where_the_kubelet_has_none_or_nothing_failed() {
        for status in [
            // never started: the kubelet answers "is waiting to start"
            "ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff}}",
            "ready: false, restartCount: 0, state: {waiting: {reason: ContainerCreating}}",
            // healthy
            "ready: true, restartCount: 0, state: {running: {startedAt: '2026-11-28T09:00:00Z'}}",
            // an init container that completed
            "ready: true, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}",
        ] {
            assert_eq!(keys(status), vec![], "{status}");
        }
    }

    #[test]
    fn taskmanager_pod_indexes() {
        assert_eq!(
            taskmanager_pod_index("orders", "orders-taskmanager-1-12"),
            Some(12)
        );
        assert_eq!(
            taskmanager_pod_index("orders", "orders-taskmanager-7d9f-abcde"),
            None
        );
        assert_eq!(
            taskmanager_pod_index("orders", "other-taskmanager-1-1"),
            None
        );
    }

    fn tm(name: &str, phase: &str) -> String {
        format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: stream\n  labels: {{app: wordcount, component: taskmanager, type: flink-native-kubernetes}}\nspec: {{containers: [{{name: flink-main-container, image: \"flink:1.20\"}}]}}\nstatus: {{phase: {phase}}}\n"
        )
    }

    #[test]
    fn the_jobmanager_log_is_read_when_taskmanagers_are_missing_or_replaced() {
        let want = vec![LogKey::new(
            "stream",
            "wordcount-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
        )];
        assert_eq!(
            jobmanager_logs(&snapshot(NATIVE_JOBMANAGER)),
            want,
            "no TaskManager"
        );
        let replaced = format!(
            "{NATIVE_JOBMANAGER}{}",
            tm("wordcount-taskmanager-1-3", "Running")
        );
        assert_eq!(
            jobmanager_logs(&snapshot(&replaced)),
            want,
            "1-1 and 1-2 are gone"
        );
        let failed = format!(
            "{NATIVE_JOBMANAGER}{}",
            tm("wordcount-taskmanager-1-1", "Failed")
        );
        assert_eq!(jobmanager_logs(&snapshot(&failed)), want);
        let healthy = format!(
            "{NATIVE_JOBMANAGER}{}{}",
            tm("wordcount-taskmanager-1-1", "Running"),
            tm("wordcount-taskmanager-1-2", "Running")
        );
        assert!(jobmanager_logs(&snapshot(&healthy)).is_empty());
    }
}

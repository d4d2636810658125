# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="env.java.opts.taskmanager -Xmx1536m -XX:+AlwaysPreTouch in a 1024m TaskManager pod: OOMKilled"
SETTLE_TIMEOUT=360
# Settled: the JobManager has seen a TaskManager OOMKilled. It deletes the dead TaskManager pod
# within a second (TaskManager pods are restartPolicy Never; a new one is requested), so the pod's
# status is rarely there to read; the JobManager's log keeps it, as ActiveResourceManager's
# `Worker <pod> is terminated. Diagnostics: <diagnostics>`
# (apache/flink@release-1.18.1:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/active/ActiveResourceManager.java,
# onWorkerTerminated) with the diagnostics of KubernetesPod.getTerminatedDiagnostics
# (apache/flink@release-1.18.1:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/resources/KubernetesPod.java:
# `Pod terminated, container termination statuses: [<container>(exitCode=137, reason=OOMKilled, message=...)]`),
# called from KubernetesResourceManagerDriver's pod watch when the pod is terminated.
oom_seen() {
  kubectl -n analytics logs -l component=jobmanager -c flink-main-container --tail=-1 2>/dev/null |
    grep -q 'is terminated\. Diagnostics: Pod terminated, container termination statuses: \[.*reason=OOMKilled' ||
    kubectl -n analytics get pods -l component=taskmanager -o jsonpath='{.items[*].status.containerStatuses[*].state.terminated.reason}' 2>/dev/null | grep -q OOMKilled
}
settled() { oom_seen && sleep 20; }
# After the fix (the heap flags out of env.java.opts.taskmanager) the operator suspends and
# redeploys the failed application: a JobManager, then a TaskManager, then the job; the last run
# was cut by the default 240 s round wait while the operator was still at it.
HEAL_ROUND_TIMEOUT=480

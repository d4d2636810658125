# shellcheck shell=bash
# Flink's native Kubernetes mode without the operator: the user runs the Flink client's
# run-application, which creates the JobManager Deployment; the JobManager runs as the namespace's
# default ServiceAccount (the client's default for kubernetes.service-account).
NAMESPACE=analytics
DESCRIPTION="Flink 1.18 native application mode through the Flink client, default ServiceAccount"
NEEDS_OPERATOR=
# Flink 1.18: the release whose JobManager is refused on the pod watch first (1.20 and 2.x: the list).
FLINK_VERSION=1.18.1
apply() {
  kubectl create namespace analytics >/dev/null
  flink_client run-application --target kubernetes-application \
    -Dkubernetes.namespace=analytics -Dkubernetes.cluster-id=orders \
    -Dkubernetes.container.image.ref=flink:1.18 \
    -Djobmanager.memory.process.size=1024m -Dtaskmanager.memory.process.size=1024m \
    local:///opt/flink/usrlib/lab-job.jar >"$KUBE_HARNESS_DIR/flink-client.log" 2>&1 \
    || { tail -n 20 "$KUBE_HARNESS_DIR/flink-client.log" >&2; return 1; }
}
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }

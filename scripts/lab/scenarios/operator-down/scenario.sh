# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="the operator scaled to zero replicas: the FlinkDeployment gets no status"
SETTLE_TIMEOUT=120
apply() {
  kubectl -n flink-operator scale deployment flink-kubernetes-operator --replicas=0 >/dev/null
  kubectl -n flink-operator wait --for=delete pod -l app.kubernetes.io/name=flink-kubernetes-operator --timeout=120s >/dev/null 2>&1 || true
  kubectl apply -f "$scen/manifests.yaml" >/dev/null
}
settled() { sleep 30; }

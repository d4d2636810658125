# shellcheck shell=bash
# CRD skew: the FlinkDeployment CRD of operator release 1.5.0 (the chart's crds/ at
# apache/flink-kubernetes-operator@release-1.5.0, verbatim in this folder) under operator 1.7.0, as
# `helm upgrade` from 1.5.0 leaves it (Helm never updates a chart's crds/). That CRD's
# spec.flinkVersion enum stops at v1_17: the API server refuses the user's v1_18 FlinkDeployment
# (`spec.flinkVersion: Unsupported value: "v1_18"`), which operator 1.7.0 would run.
NAMESPACE=analytics
DESCRIPTION="operator 1.7.0 under the FlinkDeployment CRD of release 1.5.0: flinkVersion v1_18 is refused"
SETTLE_TIMEOUT=60
apply() {
  kubectl replace -f "$scen/flinkdeployments.flink.apache.org-v1-release-1.5.0.yml" >/dev/null
  wait_for 60 "[[ \$(kubectl get crd flinkdeployments.flink.apache.org -o jsonpath='{.status.conditions[?(@.type==\"Established\")].status}') == True ]]"
  sleep 5
  kubectl apply -f "$REPO/scripts/lab/scenarios/healthy/manifests.yaml" >"$KUBE_HARNESS_DIR/crd-skew-apply.log" 2>&1 || true
}
settled() { grep -q 'Unsupported value' "$KUBE_HARNESS_DIR/crd-skew-apply.log"; }

# shellcheck shell=bash
# The operator installed with the chart's default webhook.create=true in a cluster without
# cert-manager: the chart's webhook objects (webhook.yaml; the Certificate and Issuer are refused,
# no such kinds) and its flink-webhook container with the keystore volume of the Secret the
# Certificate would have written (webhook-container.json: release-1.7.0's
# templates/flink-operator.yaml). The operator's new pod cannot mount the Secret; the webhooks,
# failurePolicy Fail, have no endpoint; the user's FlinkDeployment is refused.
NAMESPACE=flink-operator
DESCRIPTION="the operator's webhook without cert-manager: no Secret webhook-server-cert, the operator pod cannot start"
SETTLE_TIMEOUT=180
PERSON_MUST_SET="cert-manager in the cluster (it writes the Secret webhook-server-cert), or the chart's webhook.create=false"
apply() {
  kubectl apply -f "$scen/webhook.yaml" >"$KUBE_HARNESS_DIR/webhook-apply.log" 2>&1 || true
  kubectl -n flink-operator patch deployment flink-kubernetes-operator --type=json -p "$(cat "$scen/webhook-container.json")" >/dev/null
  # The user's deployment, refused by the webhook that has no endpoint.
  sleep 20
  kubectl apply -f "$REPO/scripts/lab/scenarios/healthy/manifests.yaml" >>"$KUBE_HARNESS_DIR/webhook-apply.log" 2>&1 || true
}
settled() { [[ -n $(kubectl -n flink-operator get events --field-selector reason=FailedMount -o name 2>/dev/null) ]] && sleep 20; }

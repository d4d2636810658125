#!/usr/bin/env bash
# A live demo for newcomers: a real Kubernetes API server (scripts/test-cluster.sh) holding the
# canonical broken Flink deployment (examples/canonical), diagnosed by `kubectl flink doctor`.
# Leaves the cluster running and prints what to try next and how to stop it.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"

echo "demo: building kubectl-flink (debug) ..." >&2
cargo build -q --bin kubectl-flink
TARGET=$(cargo metadata --format-version 1 --no-deps 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
TARGET=${TARGET:-${CARGO_TARGET_DIR:-$REPO/target}}

echo "demo: starting the test cluster ..." >&2
ENV_LINES=$(scripts/test-cluster.sh up)
eval "$ENV_LINES"
trap 'rc=$?; if ((rc != 0)); then scripts/test-cluster.sh down; fi' EXIT

# `kubectl flink` finds the plugin as `kubectl-flink` on PATH: link the debug build there.
mkdir -p "$KUBE_HARNESS_DIR/plugin"
ln -sf "$TARGET/debug/kubectl-flink" "$KUBE_HARNESS_DIR/plugin/kubectl-flink"
export PATH="$KUBE_HARNESS_DIR/plugin:$KUBE_HARNESS_BIN:$PATH"

echo "demo: seeding examples/canonical (namespace analytics) ..." >&2
scripts/test-cluster.sh seed examples/canonical >&2

echo
echo "\$ kubectl get pods -n analytics"
kubectl get pods -n analytics
echo
echo "\$ kubectl flink doctor -n analytics"
set +e
kubectl flink doctor -n analytics
rc=$?
set -e
echo
echo "(kubectl flink doctor exited $rc: 0 = nothing found, 1 = findings, 2 = usage error, 3 = could not complete)"
trap - EXIT

cat <<MSG

The cluster is still running. To use it from this shell:

  export KUBE_HARNESS_DIR=$KUBE_HARNESS_DIR
  export KUBECONFIG=$KUBECONFIG
  export PATH="$KUBE_HARNESS_DIR/plugin:$KUBE_HARNESS_BIN:\$PATH"

Then try:

  kubectl flink doctor -n analytics -o markdown          # the same diagnosis, as Markdown
  kubectl flink doctor -n analytics -o json              # ... as the versioned JSON contract
  kubectl flink doctor -n analytics --kubeconfig $KUBE_LIMITED_KUBECONFIG
                                                         # as a user who may only get/list pods
  kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:default
  kubectl logs -n analytics orders-5d8f9c7b6d-x7k2p -c flink-main-container --previous
  kubectl get flinkdeployment orders -n analytics -o yaml
  scripts/test-cluster.sh seed tests/scenarios/<name>    # load another broken deployment

Paste the fix doctor printed for the RBAC finding (its kubectl apply heredoc and kubectl patch),
then run doctor again: the RBAC finding is gone.

Stop it (and delete its files):

  KUBE_HARNESS_DIR=$KUBE_HARNESS_DIR scripts/test-cluster.sh down
MSG

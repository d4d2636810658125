#!/usr/bin/env bash
# Build (or reuse) kube-apiserver, kubectl and etcd from Go modules; prints the bin directory.
# With --control-plane, also kube-controller-manager and kube-scheduler (the reality lab's).
# Cached outside the repo, keyed by version: a warm start does not rebuild.
set -euo pipefail
WANT=(kube-apiserver kubectl etcd)
[[ ${1:-} == --control-plane ]] && WANT+=(kube-controller-manager kube-scheduler)
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$HERE/versions.env"
ROOT=${KUBE_HARNESS_CACHE:-$HOME/.cache/kubectl-flink-test-cluster}
BIN=$ROOT/bin/k8s-$K8S_VERSION-etcd-$ETCD_VERSION
have_all() { local b; for b in "${WANT[@]}"; do [[ -x $BIN/$b ]] || return 1; done; }
if have_all; then echo "$BIN"; exit 0; fi
command -v go >/dev/null 2>&1 || { echo "build.sh: Go is needed to build kube-apiserver, kubectl and etcd ($BIN)" >&2; exit 1; }
mkdir -p "$BIN"
STG=v0.${K8S_VERSION#v1.}                    # v1.36.3 -> v0.36.3
export GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
say() { printf 'test-cluster: %s\n' "$*" >&2; }
exec 9>"$ROOT/build.lock"                    # parallel callers wait for one build
if ! flock -n 9; then
  say "waiting for another build of kube-apiserver $K8S_VERSION, kubectl and etcd $ETCD_VERSION (lock $ROOT/build.lock; a cold build takes 4 to 9 minutes on 2 cores)"
  flock 9
  say "the other build is done"
fi
if have_all; then echo "$BIN"; exit 0; fi

# Go's own output goes to a log, shown only if the build fails: a person sees one line now and one
# when it is done, never a silent wait.
LOG=$ROOT/build-$K8S_VERSION-$ETCD_VERSION.log
T0=$(date +%s)
say "building ${WANT[*]} (Kubernetes $K8S_VERSION, etcd $ETCD_VERSION) from Go modules into $BIN (once; about 4 minutes on an idle 2-core machine with nothing cached, up to 9 when other builds share it, under a minute with Go's caches warm; log: $LOG)"
exec 3>&2 2>"$LOG"
trap 'rc=$?; if ((rc != 0)); then exec 2>&3; tail -n 30 "$LOG" >&2; say "build failed (exit $rc); the whole log is $LOG"; fi' EXIT

# kube-apiserver + kubectl: a wrapper module with one replace per staging module, generated from
# the real go.mod of that version (the staging list changes between minors).
K=$ROOT/src/k8s-$K8S_VERSION; mkdir -p "$K"; cd "$K"
[[ -f go.mod ]] || go mod init example.invalid/kubectl-flink-test-cluster-k8s >&2
GOMOD=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
for m in $(sed -nE 's#^[[:space:]]*(k8s\.io/[A-Za-z0-9._-]+)[[:space:]]+=>[[:space:]]+\./staging/.*#\1#p' "$GOMOD"); do
  go mod edit -replace="$m=$m@$STG"
done
TOOLS=()
for b in "${WANT[@]}"; do [[ $b == etcd ]] || TOOLS+=("k8s.io/kubernetes/cmd/$b@$K8S_VERSION"); done
go get -tool "${TOOLS[@]}" >&2
MINOR=$(cut -d. -f2 <<<"$K8S_VERSION")
LDF="-s -w"
for kv in "gitVersion=$K8S_VERSION" gitMajor=1 "gitMinor=$MINOR" gitTreeState=clean; do
  LDF+=" -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
for b in "${WANT[@]}"; do
  [[ $b == etcd || -x $BIN/$b ]] && continue
  go build -trimpath -ldflags "$LDF" -o "$BIN/$b.tmp" "k8s.io/kubernetes/cmd/$b" >&2 && mv "$BIN/$b.tmp" "$BIN/$b"
done

# etcd: a separate wrapper module so its dependencies never bump kube-apiserver's.
E=$ROOT/src/etcd-$ETCD_VERSION; mkdir -p "$E"; cd "$E"
[[ -f go.mod ]] || go mod init example.invalid/kubectl-flink-test-cluster-etcd >&2
go get -tool "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
[[ -x $BIN/etcd ]] || { go build -trimpath -ldflags "-s -w" -o "$BIN/etcd.tmp" go.etcd.io/etcd/server/v3 >&2 && mv "$BIN/etcd.tmp" "$BIN/etcd"; }
exec 2>&3
say "built ${WANT[*]} in $(($(date +%s) - T0)) s"
echo "$BIN"

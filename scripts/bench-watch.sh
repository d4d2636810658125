#!/usr/bin/env bash
# Benchmark of `kubectl flink watch` on the test cluster: steady-state RSS with N FlinkDeployments
# and M pods (scripts/gen-bench-bundle.py: a tenth of the deployments failing), and the time from a
# change (one failing FlinkDeployment and its pods deleted) to the metrics showing it. A benchmark,
# not a test: nothing fails on the figures. Targets: under 300 MB at 10,000 FlinkDeployments and
# 100,000 pods; a change reflected within 2 s.
#
#   scripts/test-cluster.sh run scripts/bench-watch.sh [DEPLOYMENTS] [PODS]   (default 10000 100000)
#   scripts/bench-watch.sh --stores [DEPLOYMENTS] [PODS]
#
# --stores measures the watch's stores and diagnosis in one process, without an API server
# (tests/watch_scale.rs: the same objects, through the watch's own decoding and doctor's rules):
# the full scale in minutes, where seeding 100,000 pods into the test cluster takes longer.
#
# Env: BIN=path (default: the release build, built first); DEBOUNCE (default 1s); SEEDED=1 when the
# cluster holds that bundle already (seeding 100,000 pods takes a while: seed once, run again).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --stores ]]; then
  BENCH_DEPLOYMENTS=${2:-10000} BENCH_PODS=${3:-100000} exec cargo test --release --test watch_scale -- --ignored --nocapture
fi
N=${1:-10000}
M=${2:-100000}
DEBOUNCE=${DEBOUNCE:-1s}
[[ -n ${KUBE_HARNESS_DIR:-} ]] || { echo "bench-watch: run it under scripts/test-cluster.sh run" >&2; exit 2; }
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet --bin kubectl-flink
  BIN=${CARGO_TARGET_DIR:-target}/release/kubectl-flink
fi
dir=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
ms() { date +%s%3N; }

if [[ -z ${SEEDED:-} ]]; then
  python3 scripts/gen-bench-bundle.py "$dir/bundle" --deployments "$N" --pods "$M" --log-lines 20 >/dev/null
  t0=$(ms)
  scripts/test-cluster.sh seed "$dir/bundle" >/dev/null
  echo "seeded $N FlinkDeployments and $M pods in $(( ($(ms) - t0) / 1000 )) s"
fi

port_file=$dir/err
"$BIN" watch -A --listen 127.0.0.1:0 --debounce "$DEBOUNCE" 2>"$port_file" >/dev/null &
pid=$!
for _ in $(seq 1 100); do grep -q 'http://' "$port_file" && break; sleep 0.1; done
addr=$(sed -n 's/.*http:\/\/\([^ ]*\).*/\1/p' "$port_file" | head -1)
t0=$(ms)
until curl -fsS "http://$addr/readyz" >/dev/null 2>&1; do
  kill -0 "$pid" || { cat "$port_file" >&2; exit 1; }
  sleep 0.2
done
echo "first diagnosis done in $(( $(ms) - t0 )) ms"
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status"; }
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
sleep 5
echo "steady-state RSS: $(rss) MB (VmHWM $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status") MB)"
c0=$(cpu); sleep 10; echo "CPU while idle: $(( $(cpu) - c0 )) ticks in 10 s (100 ticks = 1 s)"

# The change: a failing FlinkDeployment (every tenth is one) and its pods deleted.
victim=job-0
ns=$(curl -fsS "http://$addr/metrics" | sed -n "s/^kubectl_flink_findings{namespace=\"\([^\"]*\)\",deployment=\"$victim\".*/\1/p" | head -1)
[[ -n $ns ]] || { echo "bench-watch: no finding for $victim on /metrics" >&2; exit 1; }
t0=$(ms)
kubectl delete flinkdeployment "$victim" -n "$ns" --wait=false >/dev/null
t1=$(ms)
kubectl delete pods -n "$ns" -l "app=$victim" --grace-period=0 --force --wait=false >/dev/null 2>&1
until ! curl -fsS "http://$addr/metrics" | grep -q "deployment=\"$victim\""; do sleep 0.05; done
t2=$(ms)
echo "change -> metrics: $(( t2 - t1 )) ms from the FlinkDeployment's delete, $(( t2 - t0 )) ms including the kubectl calls (debounce $DEBOUNCE)"
echo "RSS after: $(rss) MB (VmHWM $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status") MB)"

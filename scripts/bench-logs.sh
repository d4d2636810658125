#!/usr/bin/env bash
# Benchmark: `kubectl flink logs` vs the version-matched `kubectl logs` (and stern, when installed)
# on the same test cluster and the same logs: N TaskManager-like pods with large logs, every line of
# every pod (--tail=-1, --max-log-requests N). Prints wall time, lines/s, MB/s and peak RSS for each,
# and the ratios. A benchmark, not a test: nothing fails on the figures.
#
#   scripts/bench-logs.sh [PODS [LINES_PER_POD]]     (defaults: 20 pods, 50000 lines each)
#
# Env: RUNS (default 3, the median is reported), BENCH_PROFILE=debug|release (default debug: the
# plugin binary under test; a release build takes long on 2 cores), KEEP_OUTPUT=1 keeps the
# namespace, the outputs and the stderr of each tool. STERN=path (default: `stern` on PATH, e.g.
# scripts/peers/build.sh stern, which scripts/bench-peers.sh runs and passes) adds stern's rows, with and without line filters
# (-e, -i: the same flags for both tools); STERN=none leaves them out. BASELINE=path adds a row for
# another kubectl-flink binary (e.g. a build of main), to compare before and after a change.
# Without a running test cluster (KUBE_HARNESS_DIR), it starts one for the run and stops it after.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
PODS=${1:-20}
LINES=${2:-50000}
RUNS=${RUNS:-3}
PROFILE=${BENCH_PROFILE:-debug}

if [[ -z ${KUBE_HARNESS_DIR:-} ]]; then
  exec "$HERE/test-cluster.sh" run "$HERE/bench-logs.sh" "$@"
fi
: "${KUBE_HARNESS_KUBECTL:?}" "${KUBE_HARNESS_LOG_ROOT:?}" "${KUBECONFIG:?}"
KUBECONFIG_E2E=${KUBE_E2E_KUBECONFIG:-$KUBECONFIG}

log() { printf 'bench-logs: %s\n' "$*" >&2; }

TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/target}
if [[ $PROFILE == release ]]; then
  (cd "$REPO" && cargo build -q --release --bin kubectl-flink) >&2
  PLUGIN=$TARGET_DIR/release/kubectl-flink
else
  (cd "$REPO" && cargo build -q --bin kubectl-flink) >&2
  PLUGIN=$TARGET_DIR/debug/kubectl-flink
fi
STERN=${STERN:-$(command -v stern || true)}
[[ $STERN == none ]] && STERN=
BASELINE=${BASELINE:-}
KUBECTL=$KUBE_HARNESS_KUBECTL
[[ -x /usr/bin/time ]] || { log "needs GNU time at /usr/bin/time"; exit 1; }

NS=bench-logs-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-logs.XXXXXX")
OUT_DIR=/dev/shm
[[ -d $OUT_DIR && -w $OUT_DIR ]] || OUT_DIR=$WORK
cleanup() {
  if [[ -n ${KEEP_OUTPUT:-} ]]; then
    log "kept namespace $NS, outputs $OUT_DIR/bench-logs-out-$$.* and stderr in $WORK"
    return
  fi
  "$KUBECTL" --kubeconfig "$KUBECONFIG" delete namespace "$NS" --wait=false >/dev/null 2>&1 || true
  rm -rf "$KUBE_HARNESS_LOG_ROOT/$NS" "$WORK" "$OUT_DIR"/bench-logs-out-$$.*
}
trap cleanup EXIT

# --- the pods and their logs (written straight into the fake kubelet's root; the bundle has none)
log "seeding $PODS pods x $LINES lines in namespace $NS"
python3 - "$WORK/bundle" "$KUBE_HARNESS_LOG_ROOT" "$NS" "$PODS" "$LINES" "${KUBE_HARNESS_NODE:-fake-node}" <<'PY'
import os, sys, datetime, random
bundle, root, ns, pods, lines, node = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
os.makedirs(bundle, exist_ok=True)
now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
started = (now - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
docs = [f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n"]
classes = ["org.apache.flink.runtime.taskexecutor.TaskExecutor", "org.apache.flink.runtime.io.network.netty.NettyServer",
           "org.apache.flink.streaming.runtime.tasks.StreamTask", "org.apache.flink.runtime.state.heap.HeapKeyedStateBackend"]
forbidden = ('org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Message: pods is forbidden: '
             'User "system:serviceaccount:%s:default" cannot watch resource "pods" in API group "" in the namespace "%s".' % (ns, ns))
rnd = random.Random(42)
for i in range(1, pods + 1):
    name = f"bench-taskmanager-1-{i}"
    docs.append(f"""apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: {ns}
  labels: {{app: bench, component: taskmanager, type: flink-native-kubernetes}}
spec:
  nodeName: {node}
  containers: [{{name: flink-main-container, image: "flink:1.20"}}]
status:
  phase: Running
  containerStatuses:
  - {{name: flink-main-container, image: "flink:1.20", imageID: x, containerID: "containerd://bench-{i}", ready: true, restartCount: 0, state: {{running: {{startedAt: "{started}"}}}}}}
""")
    d = os.path.join(root, ns, name)
    os.makedirs(d, exist_ok=True)
    t0 = now - datetime.timedelta(hours=1)
    with open(os.path.join(d, "flink-main-container.log"), "w") as f:
        buf = []
        for n in range(lines):
            t = t0 + datetime.timedelta(milliseconds=n)
            if n % 10000 == 5000:
                body = forbidden
            else:
                body = "Processed record %d of split %d, watermark %d, %s" % (n, rnd.randrange(64), rnd.randrange(10**9), "x" * rnd.randrange(20))
            buf.append("%s,%03d INFO  %s [] - %s\n" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000, classes[n % 4], body))
            if len(buf) >= 5000:
                f.write("".join(buf)); buf = []
        f.write("".join(buf))
with open(os.path.join(bundle, "pods.yaml"), "w") as f:
    f.write("---\n".join(docs))
PY
if [[ -x ${KUBE_HARNESS_DIR}/bin/seed ]]; then
  "$KUBE_HARNESS_DIR/bin/seed" "$WORK/bundle" >&2
else
  "$HERE/test-cluster.sh" seed "$WORK/bundle" >&2
fi
BYTES=$(cat "$KUBE_HARNESS_LOG_ROOT/$NS"/*/*.log | wc -c)
TOTAL_LINES=$((PODS * LINES))
log "logs: $TOTAL_LINES lines, $((BYTES / 1024 / 1024)) MiB"

# --- one measured run: prints "seconds maxrss_kib lines bytes cpu_seconds"
measure() { # name cmd...
  local name=$1; shift
  local out=$OUT_DIR/bench-logs-out-$$.$name
  local tf=$WORK/time.$name
  /usr/bin/time -f '%e %M %U %S' -o "$tf" "$@" >"$out" 2>"$WORK/err.$name" || { log "$name failed:"; cat "$WORK/err.$name" >&2; exit 1; }
  read -r secs rss usr sys <"$tf"
  if grep -q . "$WORK/err.$name"; then log "$name said on stderr:"; sed 's/^/  /' "$WORK/err.$name" | cut -c1-200 >&2; fi
  echo "$secs $rss $(wc -l <"$out") $(wc -c <"$out") $(awk -v u="$usr" -v s="$sys" 'BEGIN {print u + s}')"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A SECS RSS LINES_OUT BYTES_OUT CPU S R C
TOOLS=(kubectl flink flink_highlight flink_json flink_filters)
[[ -n $BASELINE ]] && TOOLS+=(flink_before)
[[ -n $STERN ]] && TOOLS+=(stern stern_filters)
# The same line filters for both tools: drop one split in ten, keep the records and the 403s.
FILTERS=(-e 'split 1[0-9],' -i 'Processed|forbidden')
set_cmd() { # name -> CMD, the command line as an array
  local sel=(logs -n "$NS" -l app=bench --tail=-1 --max-log-requests "$PODS")
  local stern_sel=(--kubeconfig "$KUBECONFIG_E2E" -n "$NS" -l app=bench --tail=-1 --max-log-requests "$PODS" --no-follow --only-log-lines --color never)
  case $1 in
    kubectl) CMD=("$KUBECTL" --kubeconfig "$KUBECONFIG_E2E" "${sel[@]}" --prefix) ;;
    flink) CMD=("$PLUGIN" --kubeconfig "$KUBECONFIG_E2E" "${sel[@]}") ;;
    flink_highlight) CMD=("$PLUGIN" --kubeconfig "$KUBECONFIG_E2E" "${sel[@]}" --highlight) ;;
    flink_json) CMD=("$PLUGIN" --kubeconfig "$KUBECONFIG_E2E" -o json "${sel[@]}") ;;
    flink_filters) CMD=("$PLUGIN" --kubeconfig "$KUBECONFIG_E2E" "${sel[@]}" "${FILTERS[@]}") ;;
    flink_before) CMD=("$BASELINE" --kubeconfig "$KUBECONFIG_E2E" "${sel[@]}") ;;
    stern) CMD=("$STERN" "${stern_sel[@]}") ;;
    stern_filters) CMD=("$STERN" "${stern_sel[@]}" "${FILTERS[@]}") ;;
  esac
}

export NO_COLOR=1
log "warming up"
"$KUBECTL" --kubeconfig "$KUBECONFIG_E2E" logs -n "$NS" -l app=bench --tail=1 --max-log-requests "$PODS" >/dev/null
# Rounds interleave the tools, so a change in the machine's load affects them alike.
for ((i = 1; i <= RUNS; i++)); do
  for name in "${TOOLS[@]}"; do
    log "round $i/$RUNS: $name"
    set_cmd "$name"
    last=$(measure "$name" "${CMD[@]}")
    S[$name]+="$(cut -d' ' -f1 <<<"$last") "; R[$name]+="$(cut -d' ' -f2 <<<"$last") "; C[$name]+="$(cut -d' ' -f5 <<<"$last") "
    LINES_OUT[$name]=$(cut -d' ' -f3 <<<"$last")
    BYTES_OUT[$name]=$(cut -d' ' -f4 <<<"$last")
    if [[ $name != *_filters && ${LINES_OUT[$name]} -ne $TOTAL_LINES ]]; then log "$name round $i printed ${LINES_OUT[$name]} of $TOTAL_LINES lines"; fi
  done
done
for name in "${TOOLS[@]}"; do
  SECS[$name]=$(tr ' ' '\n' <<<"${S[$name]}" | grep . | median)
  RSS[$name]=$(tr ' ' '\n' <<<"${R[$name]}" | grep . | median)
  CPU[$name]=$(tr ' ' '\n' <<<"${C[$name]}" | grep . | median)
done

echo
echo "kubectl flink logs vs kubectl logs${STERN:+ and stern $("$STERN" --version 2>/dev/null | awk '/^version/ {print $2}')}: $PODS pods, $TOTAL_LINES lines, $((BYTES / 1024 / 1024)) MiB of logs; median of $RUNS interleaved runs; plugin: $PROFILE build; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %8s %10s %7s %9s %11s %9s\n' tool seconds lines/s MB/s "RSS MiB" "CPU s" "lines out"
for name in "${TOOLS[@]}"; do
  awk -v n="$name" -v s="${SECS[$name]}" -v r="${RSS[$name]}" -v l="${LINES_OUT[$name]}" -v b="$BYTES" -v c="${CPU[$name]}" 'BEGIN {
    label = n; if (n == "kubectl") label = "kubectl logs --prefix"; else if (n == "flink") label = "kubectl flink logs";
    else if (n == "flink_highlight") label = "kubectl flink logs --highlight"; else if (n == "flink_json") label = "kubectl flink logs -o json";
    else if (n == "flink_filters") label = "kubectl flink logs -e -i"; else if (n == "flink_before") label = "kubectl flink logs (BASELINE)";
    else if (n == "stern") label = "stern --no-follow"; else if (n == "stern_filters") label = "stern --no-follow -e -i";
    printf "%-32s %8.2f %10.0f %7.1f %9.1f %11.2f %9d\n", label, s, l / s, b / s / 1e6, r / 1024, c, l }'
done
awk -v ks="${SECS[kubectl]}" -v fs="${SECS[flink]}" -v kr="${RSS[kubectl]}" -v fr="${RSS[flink]}" -v kc="${CPU[kubectl]}" -v fc="${CPU[flink]}" 'BEGIN {
  printf "\nratio (kubectl flink / kubectl): throughput %.2fx, peak RSS %.2fx, client CPU %.2fx\n", ks / fs, fr / kr, fc / kc }'
if [[ -n $STERN ]]; then
  awk -v ss="${SECS[stern]}" -v fs="${SECS[flink]}" -v sf="${SECS[stern_filters]}" -v ff="${SECS[flink_filters]}" -v sr="${RSS[stern]}" -v fr="${RSS[flink]}" -v sc="${CPU[stern]}" -v fc="${CPU[flink]}" 'BEGIN {
    printf "ratio (kubectl flink / stern): throughput %.2fx (with -e -i: %.2fx), peak RSS %.2fx, client CPU %.2fx\n", ss / fs, sf / ff, fr / sr, fc / sc }'
  if [[ ${LINES_OUT[stern_filters]} -ne ${LINES_OUT[flink_filters]} ]]; then
    log "warning: with the same filters stern printed ${LINES_OUT[stern_filters]} lines, kubectl flink ${LINES_OUT[flink_filters]}"
  fi
fi
if [[ -n $BASELINE ]]; then
  awk -v bs="${SECS[flink_before]}" -v fs="${SECS[flink]}" 'BEGIN { printf "ratio (kubectl flink / BASELINE): throughput %.2fx\n", bs / fs }'
fi
if [[ ${LINES_OUT[flink]} -ne $TOTAL_LINES || ${LINES_OUT[kubectl]} -ne $TOTAL_LINES ]]; then
  log "warning: expected $TOTAL_LINES lines; kubectl printed ${LINES_OUT[kubectl]}, kubectl flink ${LINES_OUT[flink]}"
fi

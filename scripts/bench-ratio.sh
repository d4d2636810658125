#!/usr/bin/env bash
# CI's speed guard for triage: a ratio, not a timed test. Times `kubectl flink triage` and
# `grep -E` with the catalogue's literals as one alternation on the same generated log in the same
# run (best of RUNS each), and fails when triage/grep is more than 3 times the ratio recorded in
# scripts/bench-ratio.recorded. The machine's speed and load cancel out; a slowdown of triage's own
# reading (a regex run on every line again) does not.
#
#   scripts/bench-ratio.sh [SIZE_MB]        (default 50; a few seconds, the release build aside)
#
# Env: BIN=path/to/kubectl-flink (default: the release build, built when missing), RUNS (3),
# RECORD=1 writes the measured ratio to scripts/bench-ratio.recorded instead of checking it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SIZE_MB="${1:-50}"
RUNS="${RUNS:-3}"
RECORDED="$ROOT/scripts/bench-ratio.recorded"
if [[ -z ${BIN:-} ]]; then
    (cd "$ROOT" && cargo build -q --release --bin kubectl-flink) >&2
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/kubectl-flink"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-ratio.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
LOG="$WORK/bench.log"

# Healthy JobManager/TaskManager lines (as scripts/bench-triage.sh writes them), a few problems
# planted; and the catalogue's literals as one alternation, as bench-triage.sh gives grep.
python3 - "$LOG" "$SIZE_MB" "$ROOT"/src/signatures/{catalogue,kubernetes,operators,shapes}.rs > "$WORK/pattern" <<'PY'
import re, sys
log, size, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
healthy = """2026-11-28 08:00:02,001 INFO  org.apache.flink.runtime.dispatcher.StandaloneDispatcher     [] - Job 5b61d6019ab04da71a4e62533c1a8c40 is submitted.
2026-11-28 08:00:03,114 INFO  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Registering task executor orders-taskmanager-1-1 under 0f1e2d3c at the slot manager.
2026-11-28 08:00:05,420 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Completed checkpoint 1 for job 5b61d6019ab04da71a4e62533c1a8c40 (12345 bytes, checkpointDuration=419 ms, finalizationTime=3 ms).
2026-11-28 08:00:04,000 WARN  org.apache.kafka.clients.NetworkClient                       [] - [Consumer clientId=orders-0, groupId=orders] Error while fetching metadata with correlation id 2 : {orders=LEADER_NOT_AVAILABLE}
\tat org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:931) ~[flink-dist-1.20.1.jar:1.20.1]
"""
problems = """org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods. Message: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics".
Caused by: java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred.
"""
block = healthy * 200
with open(log, "w") as f:
    written = 0
    while written < size << 20:
        f.write(block)
        written += len(block)
        if written % (8 << 20) < len(block):
            f.write(problems)
literals = []
for path in files:
    for group in re.findall(r"literals: &\[(.*?)\],\n", open(path).read(), re.S):
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', group):
            literals.append(lit.replace('\\"', '"').replace('\\\\', '\\'))
print("|".join(re.escape(l) for l in literals))
PY

best() { # best wall seconds of RUNS runs of CMD
    local best="" t
    for _ in $(seq "$RUNS"); do
        t=$( { TIMEFORMAT=%R; time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
        best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    echo "$best"
}
triage=$(best "$BIN" triage "$LOG" -o json)
grep=$(best grep -E -c "$(cat "$WORK/pattern")" "$LOG")
ratio=$(awk -v t="$triage" -v g="$grep" 'BEGIN { printf "%.2f", t / (g > 0.01 ? g : 0.01) }')
echo "bench-ratio: $(($(stat -c %s "$LOG") >> 20)) MiB: triage ${triage}s, grep -E ${grep}s, ratio $ratio"
if [[ ${RECORD:-0} == 1 ]]; then
    echo "$ratio" > "$RECORDED"
    echo "bench-ratio: recorded $ratio in ${RECORDED#"$ROOT"/}"
    exit 0
fi
recorded=$(cat "$RECORDED")
if awk -v r="$ratio" -v k="$recorded" 'BEGIN { exit !(r > 3 * k) }'; then
    echo "bench-ratio: triage/grep is $ratio, more than 3 times the recorded $recorded: triage got slower" >&2
    exit 1
fi
echo "bench-ratio: within 3x of the recorded $recorded"

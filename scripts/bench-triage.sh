#!/usr/bin/env bash
# Benchmark of `kubectl flink triage` on a generated log (a benchmark, not a timed test).
#
#   scripts/bench-triage.sh [SIZE_MB]        (default 100)
#
# Generates SIZE_MB of healthy-looking JobManager/TaskManager log lines with a handful of known
# problems planted in it, then reports for `triage` on that file: wall time, throughput and peak
# RSS (from /usr/bin/time -v when present, else sampled from /proc/<pid>/status VmHWM), next to
# `grep -F` with the catalogue's literals on the same file (the prefilter's lower bound) and
# `grep -E` with those literals as one alternation.
#
# Env: BIN=path/to/kubectl-flink (default target/debug/kubectl-flink, built if missing; a debug
# build is much slower than a release build, say which one you measured), KEEP=1 keeps the log,
# RG=path/to/rg adds ripgrep with the same literals and alternation, and with the signatures' full
# patterns as docs/rules.md keeps them (drawn from the code) (scripts/bench-peers.sh builds it at its pinned
# version and sets it).
set -euo pipefail

SIZE_MB="${1:-100}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/target/debug/kubectl-flink}"
WORK="$(mktemp -d)"
LOG="$WORK/bench.log"
trap '[ "${KEEP:-0}" = 1 ] && echo "kept $LOG" || rm -rf "$WORK"' EXIT

if [ ! -x "$BIN" ]; then
    echo "building $BIN (debug) ..." >&2
    (cd "$ROOT" && cargo build --quiet)
fi

# --- the log ------------------------------------------------------------------------------
healthy() {
    cat <<'EOF'
2026-11-28 08:00:02,001 INFO  org.apache.flink.runtime.dispatcher.StandaloneDispatcher     [] - Job 5b61d6019ab04da71a4e62533c1a8c40 is submitted.
2026-11-28 08:00:03,114 INFO  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Registering task executor orders-taskmanager-1-1 under 0f1e2d3c at the slot manager.
2026-11-28 08:00:04,200 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph       [] - Source: orders (1/2) (a1b2c3) switched from DEPLOYING to INITIALIZING.
2026-11-28 08:00:05,001 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Triggering checkpoint 1 (type=CheckpointType{name='Checkpoint', sharingFilesStrategy=FORWARD_BACKWARD}) @ 1764316805001 for job 5b61d6019ab04da71a4e62533c1a8c40.
2026-11-28 08:00:05,420 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Completed checkpoint 1 for job 5b61d6019ab04da71a4e62533c1a8c40 (12345 bytes, checkpointDuration=419 ms, finalizationTime=3 ms).
2026-11-28 08:12:00,000 INFO  org.apache.flink.runtime.jobmaster.JobMaster                 [] - Exception handling: 0 failed checkpoints so far, error threshold 3.
2026-11-28 08:00:04,000 WARN  org.apache.kafka.clients.NetworkClient                       [] - [Consumer clientId=orders-0, groupId=orders] Error while fetching metadata with correlation id 2 : {orders=LEADER_NOT_AVAILABLE}
	at org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:931) ~[flink-dist-1.20.1.jar:1.20.1]
2026-11-28 08:07:00,000 INFO  com.acme.orders.ErrorRouter                                  [] - Routed 12 records to the failed-orders topic; exception count 0.
EOF
}
problems() {
    cat <<'EOF'
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?watch=true. Message: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics".
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
Caused by: java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred.
EOF
}

half=$(( SIZE_MB * 1024 * 1024 / 2 ))
block="$(healthy)"
{
    { yes "$block" || true; } | head -c "$half"
    echo
    problems
    { yes "$block" || true; } | head -c "$half"
    echo
    problems
} > "$LOG"
bytes=$(stat -c %s "$LOG")
lines=$(wc -l < "$LOG")
echo "log: $LOG, $((bytes / 1024 / 1024)) MiB, $lines lines, 6 problem lines; load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?) on $(nproc 2>/dev/null || echo ?) cores"

# --- measuring ----------------------------------------------------------------------------
# run LABEL CMD...: prints wall seconds, MB/s and peak RSS of CMD (stdout discarded).
run() {
    local label="$1"; shift
    local wall rss cpu=""
    if [ -x /usr/bin/time ]; then
        local out
        out="$( { /usr/bin/time -v "$@" > /dev/null; } 2>&1 >/dev/null || true )"
        rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' <<<"$out")
        cpu=$(awk -F: '/User time|System time/ {s += $2} END {print s}' <<<"$out")
        wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' <<<"$out" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    else
        local start end peak=0 pid h
        start=$(date +%s.%N)
        "$@" > /dev/null &
        pid=$!
        while kill -0 "$pid" 2>/dev/null; do
            h=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
            [ -n "$h" ] && [ "$h" -gt "$peak" ] && peak=$h
            sleep 0.05
        done
        wait "$pid" || true
        end=$(date +%s.%N)
        wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
        rss=$peak
    fi
    awk -v l="$label" -v w="$wall" -v r="$rss" -v b="$bytes" -v c="$cpu" \
        'BEGIN { printf "%-34s wall %7.2f s  %8.1f MB/s  cpu %s s  peak RSS %7.1f MB\n", l, w, (w > 0 ? b / 1048576 / w : 0), (c == "" ? "?" : c), r / 1024 }'
}

run "triage ($(basename "$BIN"))" "$BIN" triage "$LOG" -o json
"$BIN" triage "$LOG" -o json > "$WORK/report.json" || true
echo "findings: $(grep -c '"rule"' "$WORK/report.json") ($(grep -o '"rule": "[^"]*"' "$WORK/report.json" | cut -d'"' -f4 | tr '\n' ' '))"

# The catalogue's literals (and its full patterns), for the grep and ripgrep baselines: every
# signature file, as triage matches them all.
if command -v python3 > /dev/null; then
    python3 - "$WORK" "$ROOT/docs/rules.md" "$ROOT"/src/signatures/{catalogue,kubernetes,operators,shapes}.rs <<'PY'
import re, sys
work, docs, files = sys.argv[1], sys.argv[2], sys.argv[3:]
literals, patterns = [], []
for f in files:
    src = open(f).read()
    for block in re.findall(r"literals: &\[(.*?)\],\n", src, re.S):
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', block):
            literals.append(lit.replace('\\"', '"').replace('\\\\', '\\'))
# The patterns as compiled (some are built by macros), as docs/rules.md keeps them under each
# signature (`explain` in a terminal leaves them out; a test keeps that file drawn from the code).
# Named groups become plain ones, since ripgrep joins the patterns into one alternation.
section = None
for line in open(docs):
    if line.startswith("### "):
        section = line[4:].strip()
    elif section and section.startswith("SIG-") and line.startswith("matches   "):
        patterns.append(re.sub(r"\(\?P<\w+>", "(?:", line[len("matches   "):].rstrip("\n")))
if not patterns:
    sys.exit("bench-triage: no signature pattern found in " + docs)
open(work + "/literals.txt", "w").write("".join(l + "\n" for l in literals))
open(work + "/patterns.txt", "w").write("".join(p + "\n" for p in patterns))
PY
    echo "catalogue literals: $(wc -l < "$WORK/literals.txt"), patterns: $(wc -l < "$WORK/patterns.txt")"
    run "grep -F -f literals -c" grep -F -c -f "$WORK/literals.txt" "$LOG"
    pattern=$(python3 -c 'import re,sys; print("|".join(re.escape(l.rstrip("\n")) for l in open(sys.argv[1])))' "$WORK/literals.txt")
    run "grep -E (literal alternation) -c" grep -E -c "$pattern" "$LOG"
    if [ -n "${RG:-}" ]; then
        run "rg -F -f literals -c" "$RG" -F -c -f "$WORK/literals.txt" "$LOG"
        run "rg (literal alternation) -c" "$RG" -c "$pattern" "$LOG"
        # The patterns triage confirms candidates with (ripgrep speaks the same regex dialect).
        run "rg -f patterns (full regexes) -c" "$RG" -c -f "$WORK/patterns.txt" "$LOG"
        run "rg -f patterns (full regexes)" "$RG" -f "$WORK/patterns.txt" "$LOG"
    fi
fi

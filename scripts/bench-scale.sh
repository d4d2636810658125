#!/usr/bin/env bash
# Benchmark at fleet size: the three workloads where a quadratic path would show. Prints wall time
# and peak RSS of each run (GNU time). A benchmark, not a test: nothing fails on the figures.
#
#   scripts/bench-scale.sh [failing] [namespaces] [lint]     (default: all three)
#
#   failing     doctor --from: one FlinkDeployment whose TaskManager pods all fail (CrashLoopBackOff
#               after exit 239, OOMKilled, exit 1), one `kind: List` of 5,000 / 20,000 / 100,000
#               pods (FAILING_SIZES="5000 20000 100000"). Target: 100,000 under 10 s and 300 MB.
#   namespaces  doctor --from: 5,000 healthy FlinkDeployments, one per namespace with the `flink`
#               ServiceAccount, Role and RoleBinding, and 15,000 empty namespaces (NS_DEPLOYMENTS,
#               NS_EMPTY). Target: under 3 s.
#   lint        lint -f of one YAML stream of 20,000 FlinkDeployments (LINT_SIZE), with -o json and
#               with --sarif. Target: under 10 s and 300 MB.
#
# Env: BIN=path (default: the release build, built first; CARGO_TARGET_DIR is honoured), e.g. a
# build of main to compare before and after; TIMEOUT=seconds per run (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x /usr/bin/time ]] || { echo "bench-scale: needs GNU time at /usr/bin/time" >&2; exit 1; }
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet --bin kubectl-flink
  BIN=${CARGO_TARGET_DIR:-target}/release/kubectl-flink
fi
TIMEOUT=${TIMEOUT:-300}
want=("$@")
[[ ${#want[@]} -gt 0 ]] || want=(failing namespaces lint)
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT

# measure LABEL CMD...: one run, stdout counted and dropped; exit 0, 1 (findings) or 4 are fine.
measure() {
  local label=$1; shift
  local rc=0
  timeout "$TIMEOUT" /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  if [[ $rc -eq 124 ]]; then
    printf '%-58s killed after %s s\n' "$label" "$TIMEOUT"; return
  fi
  if [[ $rc -gt 1 && $rc -ne 4 ]]; then
    echo "bench-scale: $label exited $rc:" >&2; head -c 2000 "$dir/err" >&2; exit 1
  fi
  # GNU time puts "Command exited with non-zero status N" first when the command exits non-zero.
  read -r secs rss_kib < <(tail -n 1 "$dir/time")
  awk -v l="$label" -v s="$secs" -v r="$rss_kib" -v o="$(wc -c <"$dir/out")" \
    'BEGIN { printf "%-58s wall %7.2f s   peak RSS %7.1f MB   output %.1f MB\n", l, s, r * 1024 / 1e6, o / 1e6 }'
}

echo "bench-scale: $BIN; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for w in "${want[@]}"; do
  case $w in
    failing)
      for n in ${FAILING_SIZES:-5000 20000 100000}; do
        rm -rf "$dir/b"
        python3 scripts/gen-scale-bundle.py failing-tms "$dir/b" "$n" >/dev/null
        size=$(stat -c %s "$dir/b/pods.json")
        measure "doctor: $n failing TaskManagers, one deployment ($((size / 1000000)) MB)" \
          "$BIN" doctor --from "$dir/b" -o json
      done ;;
    namespaces)
      n=${NS_DEPLOYMENTS:-5000}; e=${NS_EMPTY:-15000}
      rm -rf "$dir/b"
      python3 scripts/gen-scale-bundle.py namespaces "$dir/b" "$n" "$e" >/dev/null
      measure "doctor: $n FlinkDeployments in $n namespaces + $e empty" "$BIN" doctor --from "$dir/b" -o json ;;
    lint)
      n=${LINT_SIZE:-20000}
      python3 scripts/gen-scale-bundle.py lint "$dir/lint.yaml" "$n" >/dev/null
      size=$(stat -c %s "$dir/lint.yaml")
      measure "lint: $n FlinkDeployments, one stream ($((size / 1000000)) MB), -o json" \
        "$BIN" lint -f "$dir/lint.yaml" -o json
      measure "lint: $n FlinkDeployments, one stream, --sarif" "$BIN" lint -f "$dir/lint.yaml" --sarif ;;
    *) echo "bench-scale: unknown workload $w (failing, namespaces, lint)" >&2; exit 2 ;;
  esac
done

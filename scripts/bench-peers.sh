#!/usr/bin/env bash
# kubectl-flink side by side with its peers, each built at a pinned version from its source
# (scripts/peers/build.sh, cached outside the repository), on the same test cluster and the same
# input. A benchmark, not a test: it prints figures and ratios, nothing fails on them, and it is
# not part of the README's test command.
#
#   scripts/bench-peers.sh [doctor] [logs] [triage]        (default: all three)
#
#   doctor  live `kubectl flink doctor -A` vs `k8sgpt analyze` and `popeye -A` on one seeded fleet
#           (scripts/gen-bench-bundle.py: a tenth of the FlinkDeployments carry the canonical
#           double fault): wall, peak RSS, CPU, API requests (from the API server's audit log)
#           and what each names of the canonical causes
#   logs    scripts/bench-logs.sh with stern added: kubectl flink logs vs stern vs kubectl logs
#   triage  scripts/bench-triage.sh with ripgrep added: triage vs grep and rg, same literals
#
# Env: DEPLOYMENTS (500) and PODS (5000) for doctor; LOG_PODS (20) and LOG_LINES (10000) for logs;
# TRIAGE_MB (100) for triage; RUNS (3). The plugin is measured as a release build, as the peers are.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
PARTS=("$@")
((${#PARTS[@]})) || PARTS=(doctor logs triage)
for p in "${PARTS[@]}"; do
  [[ $p == doctor || $p == logs || $p == triage ]] || { echo "bench-peers: unknown part '$p' (doctor, logs, triage)" >&2; exit 2; }
done
# shellcheck source=peers/versions.env
. "$HERE/peers/versions.env"
log() { printf 'bench-peers: %s\n' "$*" >&2; }
want() { local p; for p in "${PARTS[@]}"; do [[ $p == "$1" ]] && return 0; done; return 1; }

if [[ -z ${KUBE_HARNESS_DIR:-} ]] && { want doctor || want logs; }; then
  exec "$HERE/test-cluster.sh" run "$HERE/bench-peers.sh" "${PARTS[@]}"
fi

(cd "$REPO" && cargo build -q --release --bin kubectl-flink) >&2
PLUGIN=${CARGO_TARGET_DIR:-$REPO/target}/release/kubectl-flink
# Only the peers the parts asked for (building stern or ripgrep is minutes the doctor part never uses).
NEED=()
want doctor && NEED+=(popeye k8sgpt)
want logs && NEED+=(stern)
want triage && NEED+=(rg)
PEERS=$("$HERE/peers/build.sh" "${NEED[@]}")
RUNS=${RUNS:-3}

if want triage; then
  echo "== triage vs grep and ripgrep $RIPGREP_VERSION"
  BIN=$PLUGIN RG=$PEERS/rg-$RIPGREP_VERSION "$HERE/bench-triage.sh" "${TRIAGE_MB:-100}"
  echo
fi

if want logs; then
  echo "== logs vs stern $STERN_VERSION and kubectl"
  BENCH_PROFILE=release RUNS=$RUNS STERN=$PEERS/stern-$STERN_VERSION \
    "$HERE/bench-logs.sh" "${LOG_PODS:-20}" "${LOG_LINES:-10000}"
  echo
fi

want doctor || exit 0
: "${KUBECONFIG:?}" "${KUBE_AUDIT_LOG:?}" "${KUBE_HARNESS_LOG_ROOT:?}"
DEPLOYMENTS=${DEPLOYMENTS:-500}
PODS=${PODS:-5000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-peers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "== doctor -A vs k8sgpt $K8SGPT_VERSION analyze and popeye $POPEYE_VERSION -A"
log "generating and seeding $DEPLOYMENTS FlinkDeployments, $PODS pods"
python3 "$HERE/gen-bench-bundle.py" "$WORK/bundle" --deployments "$DEPLOYMENTS" --pods "$PODS" --log-lines 200
T0=$(date +%s)
if [[ -x ${KUBE_HARNESS_DIR}/bin/seed ]]; then "$KUBE_HARNESS_DIR/bin/seed" "$WORK/bundle" >&2; else "$HERE/test-cluster.sh" seed "$WORK/bundle" >&2; fi
log "seeded in $(($(date +%s) - T0)) s"
BROKEN=$(((DEPLOYMENTS + 9) / 10))

# Each tool keeps its state in the work folder (k8sgpt writes a config file on first run).
export XDG_CONFIG_HOME=$WORK/config XDG_CACHE_HOME=$WORK/cache NO_COLOR=1
mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
set_cmd() {
  case $1 in
    flink) CMD=("$PLUGIN" --kubeconfig "$KUBECONFIG" doctor -A -o json) ;;
    k8sgpt) CMD=("$PEERS/k8sgpt-$K8SGPT_VERSION" analyze --kubeconfig "$KUBECONFIG" --output json) ;;
    popeye) CMD=("$PEERS/popeye-$POPEYE_VERSION" --kubeconfig "$KUBECONFIG" -A --out json --force-exit-zero) ;;
  esac
}
# Requests, not audit events: a streamed answer (a log read, a watch) is logged twice, when its
# answer starts and when it completes; every request completes once.
audit_lines() { grep -c '"stage":"ResponseComplete"' "$KUBE_AUDIT_LOG" || true; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
TOOLS=(flink k8sgpt popeye)
declare -A S R C Q
for ((i = 1; i <= RUNS; i++)); do
  for t in "${TOOLS[@]}"; do
    set_cmd "$t"
    before=$(audit_lines)
    /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.$t" "${CMD[@]}" >"$WORK/out.$t" 2>"$WORK/err.$t" || {
      rc=$?
      # doctor exits 1 when it finds problems; the peers exit 0 or say why they failed.
      [[ $t == flink && $rc == 1 ]] || { log "$t failed (exit $rc):"; tail -n 5 "$WORK/err.$t" >&2; exit 1; }
    }
    sleep 0.2 # the audit backend is blocking, but let the last line land
    after=$(audit_lines)
    # GNU time writes "Command exited with non-zero status N" first when doctor exits 1.
    read -r secs rss usr sys < <(tail -n 1 "$WORK/time.$t")
    S[$t]+="$secs "; R[$t]+="$rss "; C[$t]+="$(awk -v u="$usr" -v s="$sys" 'BEGIN {print u + s}') "; Q[$t]+="$((after - before)) "
  done
done

# What each names of the seeded causes: the misnamed container (flink-job-manager beside
# flink-main-container) and the 403 of the default ServiceAccount. Counted as mentions in the
# output (popeye's JSON is one line), so a person can check by reading the outputs (KEEP=1 keeps
# them).
named() { # tool word
  { grep -o -i -- "$2" "$WORK/out.$1" || true; } | wc -l
}
echo "fleet: $DEPLOYMENTS FlinkDeployments ($BROKEN with the canonical double fault), $PODS pods; median of $RUNS interleaved runs; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %8s %9s %7s %9s %13s %10s %12s\n' tool seconds "RSS MiB" "CPU s" requests "output bytes" "forbidden" "jm-container"
for t in "${TOOLS[@]}"; do
  s=$(tr ' ' '\n' <<<"${S[$t]}" | grep . | median); r=$(tr ' ' '\n' <<<"${R[$t]}" | grep . | median)
  c=$(tr ' ' '\n' <<<"${C[$t]}" | grep . | median); q=$(tr ' ' '\n' <<<"${Q[$t]}" | grep . | median)
  eval "SEC_$t=$s RSS_$t=$r CPU_$t=$c"
  case $t in flink) label="kubectl flink doctor -A" ;; k8sgpt) label="k8sgpt analyze" ;; popeye) label="popeye -A" ;; esac
  printf '%-28s %8.2f %9.1f %7.2f %9d %13d %10d %12d\n' "$label" "$s" "$(awk -v r="$r" 'BEGIN {print r / 1024}')" "$c" "$q" \
    "$(wc -c <"$WORK/out.$t")" "$(named "$t" forbidden)" "$(named "$t" flink-job-manager)"
done
# shellcheck disable=SC2154 # set by the eval above
awk -v f="$SEC_flink" -v k="$SEC_k8sgpt" -v p="$SEC_popeye" -v fr="$RSS_flink" -v kr="$RSS_k8sgpt" -v pr="$RSS_popeye" 'BEGIN {
  printf "\nwall: kubectl flink is %.1fx faster than k8sgpt, %.1fx faster than popeye; peak RSS %.2fx of k8sgpt, %.2fx of popeye\n", k / f, p / f, fr / kr, fr / pr }'
echo "kubectl flink: $(grep -c '"causedBy": null' "$WORK/out.flink" || true) root causes, $(grep -c '"rule"' "$WORK/out.flink" || true) findings in all"
if [[ -n ${KEEP:-} ]]; then
  cp -r "$WORK" "$WORK.kept" && log "kept the outputs in $WORK.kept"
fi

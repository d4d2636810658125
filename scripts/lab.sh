#!/usr/bin/env bash
# The reality lab: the real Flink Kubernetes Operator and the real Flink JVMs break for real on a
# full test control plane (kube-apiserver, etcd, kube-controller-manager, kube-scheduler, and
# lab-kubelet running the pods as local processes), and doctor diagnoses what they did.
#
#   scripts/lab.sh run SCENARIO [--record] [--dump] [--check] [--heal] [--keep]
#       start a lab cluster, install the operator, apply scripts/lab/scenarios/SCENARIO/manifests.yaml
#       as a user would, wait until the failure settles, print doctor's diagnosis and the figures;
#       --record saves the state with `doctor --save` as tests/scenarios/real-SCENARIO/ (with a
#       provenance.txt); --dump saves it as `kubectl cluster-info dump` writes it, as
#       tests/dumps/real-SCENARIO/ (a support bundle doctor did not make); --check fails unless the
#       live diagnosis (doctor -A) agrees with that recording's expect.txt (CI runs the canonical
#       scenario so); --heal then heals it as a user would with doctor's fixes (`--fix | kubectl
#       apply -f -`, then `--fix=run`'s commands, placeholders from the scenario's answers file),
#       round after round while they make progress, until the job runs and doctor reports no
#       critical or warning, prints the time to heal and writes the transcript beside the
#       recording (tests/scenarios/real-SCENARIO/heal.txt; scripts/lab/heal.sh); --keep leaves the
#       cluster running (its env is printed).
#   scripts/lab.sh matrix [--out FILE] [--record] SCENARIO...
#       runs each scenario with --heal, one after the other, and keeps a row per scenario (first
#       root cause, healed, time to heal, rounds) in FILE's table (default
#       docs/lab-matrix/flink-FLINK-operator-OPERATOR.md), printing each row.
#   scripts/lab.sh list      the scenarios
#
#   LAB_FLINK=1.20           any scenario on another Flink release of the lab (1.18, 1.19, 1.20,
#                            2.2): its manifests and answers are rewritten as they are applied
#                            (image flink:1.20, spec.flinkVersion v1_20); recordings real-NAME-flink-1.20
#   LAB_OPERATOR_VERSION=1.10.0  another operator release (built from source first:
#                            scripts/lab/operator-from-source.sh 1.10.0); recordings real-NAME-operator-1.10.0
#
# Needs what the test cluster needs (Go, cargo) plus Java 17 and Maven; runs as root (lab-kubelet
# gives each container its own mount namespace). Versions: scripts/lab/versions.env and
# scripts/test-cluster/versions.env. About 2 GB of memory for a scenario.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
LAB=$HERE/lab
# shellcheck source=lab/versions.env
. "$LAB/versions.env"
# shellcheck source=test-cluster/versions.env
. "$HERE/test-cluster/versions.env"
# A second operator release for the matrix: LAB_OPERATOR_VERSION=1.10.0 scripts/lab.sh run NAME.
# Maven Central serves no flink-kubernetes-operator jar after 1.7.0, so that release's jars are
# built from its source release tag into the local Maven repository first
# (scripts/lab/operator-from-source.sh VERSION); its recordings go to real-NAME-operator-VERSION.
OPERATOR_VERSION=${LAB_OPERATOR_VERSION:-$OPERATOR_VERSION}
# Another Flink release for any scenario: LAB_FLINK=1.20 scripts/lab.sh run NAME runs it on the
# lab's Flink 1.20 release (FLINK_RELEASES) with its manifests rewritten as they are applied
# (flink_rewrite: the image flink:1.N becomes flink:1.20, spec.flinkVersion v1_N becomes v1_20);
# its recordings go to real-NAME-flink-1.20[-operator-VERSION]. Operator 1.7.0 knows no v1_20:
# run 1.20 with LAB_OPERATOR_VERSION=1.10.0.
LAB_FLINK=${LAB_FLINK:-}
REC_SUFFIX=${LAB_FLINK:+-flink-$LAB_FLINK}${LAB_OPERATOR_VERSION:+-operator-$LAB_OPERATOR_VERSION}

say() { printf 'lab: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# --- conditions a scenario's settled() uses --------------------------------------------------------

# Every pod matching SELECTOR in NS has each named container restarted at least N times.
containers_restarted() { # ns selector n container...
  local ns=$1 sel=$2 n=$3 c count; shift 3
  [[ -n $(kubectl -n "$ns" get pods -l "$sel" -o name 2>/dev/null) ]] || return 1
  for c in "$@"; do
    count=$(kubectl -n "$ns" get pods -l "$sel" -o jsonpath="{.items[*].status.containerStatuses[?(@.name==\"$c\")].restartCount}" 2>/dev/null)
    [[ -n $count ]] || return 1
    for x in $count; do ((x >= n)) || return 1; done
  done
}

# The JSONPath of RESOURCE in NS is non-empty.
resource_has() { # ns resource jsonpath
  [[ -n $(kubectl -n "$1" get "$2" -o jsonpath="$3" 2>/dev/null) ]]
}

# The JobManager of NAMESPACE logged that its application FAILED (ApplicationDispatcherBootstrap's
# `Application FAILED`) and stays up (the operator sets execution.shutdown-on-application-finish to
# false): nothing changes until a fix. Flink 1.20 on the lab's Java 17 fails so before any
# scenario's own fault can show (the job's Java refusing java.util), so every scenario settles on it
# too rather than waiting out its SETTLE_TIMEOUT.
application_failed() {
  local log # read whole: `kubectl logs | grep -q` fails under pipefail when grep stops early
  log=$(kubectl -n "$NAMESPACE" logs -l component=jobmanager -c flink-main-container --tail=-1 2>/dev/null) || true
  grep -q "Application FAILED" <<<"$log"
}

# The real Flink client (CliFrontend) of the lab's Flink image, run as the user with the admin
# kubeconfig: `flink_client run-application --target kubernetes-application -D... local:///...`.
flink_client() {
  local flink=$IMAGES/flink-$FLINK_VERSION/rootfs/opt/flink conf
  conf=$(mktemp -d)
  cp "$flink"/conf/* "$conf/"
  FLINK_CONF_DIR=$conf java -cp "$flink/lib/*" -Dlog4j.configurationFile="$flink/conf/log4j-console.properties" \
    org.apache.flink.client.cli.CliFrontend "$@"
}

# Evaluates CONDITION every second until it holds (0) or TIMEOUT seconds pass (1).
wait_for() { # timeout condition
  local deadline=$(($(date +%s) + $1))
  while (($(date +%s) < deadline)); do eval "$2" 2>/dev/null && return 0; sleep 1; done
  return 1
}

# Flink's native application mode without the operator, as a user starts it: namespace NS, then
# the Flink client of the scenario's release (`run-application`; 2.x has only `run --target`),
# with the release's image and the lab's job jar. The JobManager runs as the namespace's default
# ServiceAccount, the client's default for kubernetes.service-account.
native_application() { # ns cluster-id
  local action=(run-application)
  [[ $FLINK_VERSION == 1.* ]] || action=(run)
  kubectl create namespace "$1" >/dev/null
  flink_client "${action[@]}" --target kubernetes-application \
    -Dkubernetes.namespace="$1" -Dkubernetes.cluster-id="$2" \
    -Dkubernetes.container.image.ref="flink:${FLINK_VERSION%.*}" \
    -Djobmanager.memory.process.size=1024m -Dtaskmanager.memory.process.size=1024m \
    local:///opt/flink/usrlib/lab-job.jar >"$KUBE_HARNESS_DIR/flink-client.log" 2>&1 \
    || { tail -n 20 "$KUBE_HARNESS_DIR/flink-client.log" >&2; return 1; }
}

# --- another Flink release (LAB_FLINK) ------------------------------------------------------------

# The lab's release of Flink MINOR (1.20 -> 1.20.1), from FLINK_RELEASES (versions.env).
flink_release() { # minor
  local r
  for r in $FLINK_RELEASES; do [[ ${r%.*} == "$1" ]] && { echo "$r"; return 0; }; done
  return 1
}

# A copy of scenario folder DIR with its manifests and answers on Flink MINOR: every image
# reference flink:1.N (alone or after a registry's /) becomes flink:MINOR, every
# `flinkVersion: v1_N` becomes the enum value of MINOR (v1_20). The scenario's scenario.sh runs
# unchanged and reads $scen/manifests.yaml, so the rewritten copy is what the cluster gets.
flink_rewrite() { # dir minor
  local out f
  out=$(mktemp -d "${TMPDIR:-/tmp}/lab-scenario.XXXXXX")
  cp -r "$1/." "$out/"
  for f in "$out"/*.yaml "$out"/*.yml "$out/answers"; do
    [[ -f $f ]] || continue
    sed -E -i \
      -e "s#(^|[[:space:]\"'/=])flink:[0-9]+\.[0-9]+([^0-9.]|\$)#\1flink:$2\2#g" \
      -e "s#(flinkVersion:[[:space:]]*\"?)v[0-9]+_[0-9]+#\1v${2/./_}#g" "$f"
  done
  echo "$out"
}

# --- figures -----------------------------------------------------------------------------------------

# Total RSS (MB) of the cluster's processes and everything they started (pods run in lab-kubelet's
# session): the daemons were each started in a session of their own.
cluster_rss_mb() {
  local sids=() f
  for f in "$KUBE_HARNESS_DIR"/*.pid; do sids+=("$(cat "$f")"); done
  ps -eo sid=,rss= | awk -v s=" ${sids[*]} " 'index(s, " " $1 " ") { t += $2 } END { printf "%d", t / 1024 }'
}

# --- run ---------------------------------------------------------------------------------------------

cmd_run() {
  local name=${1:-} record= keep= check= dump= heal=
  [[ -n $name ]] || usage
  shift
  for a in "$@"; do
    case $a in --record) record=1 ;; --dump) dump=1 ;; --check) check=1 ;; --heal) heal=1 ;; --keep) keep=1 ;; *) usage ;; esac
  done
  local scen=$LAB/scenarios/$name
  [[ -f $scen/scenario.sh ]] || die "no scenario $name (scripts/lab.sh list)"
  ((EUID == 0)) || die "the lab runs as root: lab-kubelet mounts each container's files in a mount namespace"
  for tool in java mvn unshare; do command -v "$tool" >/dev/null || die "$tool is needed"; done
  NAMESPACE= DESCRIPTION= SETTLE_TIMEOUT=300 NEEDS_OPERATOR=1 PERSON_MUST_SET=
  # A scenario applies its manifests.yaml as a user would, unless it defines apply().
  apply() { kubectl apply -f "$scen/manifests.yaml" >/dev/null; }
  # shellcheck source=/dev/null
  . "$scen/scenario.sh"
  if [[ -n $LAB_FLINK ]]; then
    FLINK_VERSION=$(flink_release "$LAB_FLINK") || die "LAB_FLINK=$LAB_FLINK: the lab has Flink ${FLINK_RELEASES// /, } (scripts/lab/versions.env)"
    [[ $OPERATOR_VERSION != 1.7.0 || $LAB_FLINK == 1.1[0-8] ]] \
      || say "warning: operator 1.7.0 knows no flinkVersion v${LAB_FLINK/./_} (LAB_OPERATOR_VERSION=1.10.0 does)"
    scen=$(flink_rewrite "$scen" "$LAB_FLINK")
    DESCRIPTION="$DESCRIPTION (LAB_FLINK=$LAB_FLINK: Flink $FLINK_VERSION, flinkVersion v${LAB_FLINK/./_})"
  fi

  local t0 target plugin
  t0=$(date +%s)
  (cd "$REPO" && cargo build -q --bin kubectl-flink && cargo build -q -p kubectl-flink-test-support --bins) || die "cargo build failed"
  target=$(cd "$REPO" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  plugin=$target/debug/kubectl-flink
  local expect_bin=$target/debug/lab-expect

  # A scenario may pin another Flink release (FLINK_VERSION in its scenario.sh): its image is
  # built before lab-kubelet starts, which reads the images' index then.
  "$LAB/image.sh" flink "$FLINK_VERSION" >/dev/null || die "the Flink $FLINK_VERSION image could not be built"
  "$LAB/image.sh" operator "$OPERATOR_VERSION" >/dev/null || die "the operator $OPERATOR_VERSION image could not be built"
  local env_out
  env_out=$(KUBE_HARNESS_LAB=1 KUBE_HARNESS_NAME="lab-$name-$$" "$HERE/test-cluster.sh" up) || die "the lab cluster did not start"
  eval "$env_out"
  if [[ -z $keep ]]; then trap '"$HERE/test-cluster.sh" down >/dev/null 2>&1 || true' EXIT; fi
  local t_cluster=$(($(date +%s) - t0))

  IMAGES=$("$LAB/image.sh")
  if [[ -n $NEEDS_OPERATOR ]]; then
  say "installing the CRDs (release 1.15.0) and operator $OPERATOR_VERSION"
  kubectl apply --server-side -f "$REPO/src/lint/crds/flinkdeployments.flink.apache.org-v1.yml" \
    -f "$REPO/src/lint/crds/flinksessionjobs.flink.apache.org-v1.yml" >/dev/null
  local crd
  for crd in flinkdeployments flinksessionjobs; do
    wait_for 60 "[[ \$(kubectl get crd $crd.flink.apache.org -o jsonpath='{.status.conditions[?(@.type==\"Established\")].status}') == True ]]" \
      || die "CRD $crd.flink.apache.org not established"
  done
  if [[ $OPERATOR_VERSION == 1.7.0 ]]; then
    kubectl apply -f "$LAB/operator/operator.yaml" >/dev/null
  else
    # Operator 1.10 and later also watch FlinkStateSnapshots: their CRD, and the rights the
    # chart's ClusterRole gives for them (release-1.10.0:helm/flink-kubernetes-operator/templates/rbac/_helpers.tpl).
    kubectl apply --server-side -f "$REPO/src/lint/crds/flinkstatesnapshots.flink.apache.org-v1.yml" >/dev/null
    sed "s/1\.7\.0/$OPERATOR_VERSION/g" "$LAB/operator/operator.yaml" | kubectl apply -f - >/dev/null
    kubectl create clusterrole flink-operator-snapshots --verb='*' \
      --resource=flinkstatesnapshots.flink.apache.org,flinkstatesnapshots.flink.apache.org/status,flinkstatesnapshots.flink.apache.org/finalizers >/dev/null
    kubectl create clusterrolebinding flink-operator-snapshots --clusterrole=flink-operator-snapshots \
      --serviceaccount=flink-operator:flink-operator >/dev/null
  fi
  kubectl -n flink-operator rollout status deploy/flink-kubernetes-operator --timeout=300s >/dev/null \
    || { kubectl -n flink-operator get pods -o wide >&2; die "the operator did not become ready"; }
  fi
  local t_operator=$(($(date +%s) - t0))

  say "applying scenario $name: $DESCRIPTION"
  apply
  local peak=0 rss settled_after= deadline=$(($(date +%s) + SETTLE_TIMEOUT))
  while (($(date +%s) < deadline)); do
    rss=$(cluster_rss_mb); ((rss > peak)) && peak=$rss
    if settled; then settled_after=$(($(date +%s) - t0)); break; fi
    # ... once the operator has reported on it too (its status.error), which it does within a
    # reconcile or two.
    if [[ -n $NEEDS_OPERATOR ]] && application_failed \
      && [[ -n $(kubectl -n "$NAMESPACE" get flinkdeployments -o jsonpath='{.items[*].status.error}' 2>/dev/null) ]]; then
      settled_after=$(($(date +%s) - t0)); say "settled: the JobManager's application FAILED"; break
    fi
    sleep 3
  done
  rss=$(cluster_rss_mb); ((rss > peak)) && peak=$rss
  [[ -n $settled_after ]] || say "warning: not settled within ${SETTLE_TIMEOUT}s; diagnosing what there is"

  "$plugin" doctor -n "$NAMESPACE" --color never || true
  # The first root cause (the first finding no other explains), for the matrix's table.
  local first_root
  first_root=$("$plugin" doctor -n "$NAMESPACE" -o json 2>/dev/null |
    jq -r '[.findings[] | select(.causedBy == null)][0] // empty | "\(.rule) \(.category)"' 2>/dev/null) || true

  local verdict=0
  if [[ -n $check ]]; then
    local want=$REPO/tests/scenarios/real-$name$REC_SUFFIX/expect.txt rc=0
    [[ -f $want ]] || die "--check: no recording with an expect.txt at $want"
    "$plugin" doctor -A -o json >"$KUBE_HARNESS_DIR/doctor.json" 2>"$KUBE_HARNESS_DIR/doctor.err" || rc=$?
    "$expect_bin" "$want" "$rc" <"$KUBE_HARNESS_DIR/doctor.json" || verdict=1
  fi

  if [[ -n $record ]]; then
    local out=$REPO/tests/scenarios/real-$name$REC_SUFFIX
    rm -rf "$out.tmp"
    "$plugin" doctor -n "$NAMESPACE" --save "$out.tmp" -o json >/dev/null || true
    [[ -d $out.tmp ]] || die "doctor --save wrote nothing"
    {
      echo "# Recorded by the reality lab (scripts/lab.sh run $name --record); not read by doctor."
      echo "scenario: $name"
      echo "description: $DESCRIPTION"
      echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
      echo "kubectl-flink: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
      echo "kubernetes: kube-apiserver, kube-controller-manager, kube-scheduler $K8S_VERSION (Go modules); etcd $ETCD_VERSION"
      echo "kubelet: lab-kubelet (tests/support): containers run as local processes, pod IPs in 127.1.0.0/16"
      if [[ -n $REC_SUFFIX ]]; then
        echo "operator: flink-kubernetes-operator $OPERATOR_VERSION (built from its source release tag: scripts/lab/operator-from-source.sh), installed as chart 1.7.0 would with its version, plus the FlinkStateSnapshot CRD and rights"
      else
        echo "operator: flink-kubernetes-operator $OPERATOR_VERSION (Maven Central), installed as chart $OPERATOR_VERSION would (scripts/lab/operator/operator.yaml)"
      fi
      echo "flink: $FLINK_VERSION (jars from Maven Central; launchers scripts/lab/images/flink; job scripts/lab/job/LabJob.java)"
      if [[ -n $settled_after ]]; then echo "settled: after ${settled_after}s"; else echo "settled: no (timeout ${SETTLE_TIMEOUT}s)"; fi
      echo "figures: cluster ${t_cluster}s, operator ready ${t_operator}s, peak memory ${peak} MB"
      if [[ -f $scen/manifests.yaml ]]; then
        echo "manifests applied: |"
        sed 's/^/  /' "$scen/manifests.yaml"
      fi
      if declare -f apply | grep -q native_application; then
        echo "applied with the Flink client $FLINK_VERSION: |"
        declare -f apply native_application | sed 's/^/  /'
      fi
    } >"$out.tmp/provenance.txt"
    [[ -f $out/expect.txt ]] && cp "$out/expect.txt" "$out.tmp/expect.txt"
    [[ -f $out/heal.txt ]] && cp "$out/heal.txt" "$out.tmp/heal.txt"
    rm -rf "$out"; mv "$out.tmp" "$out"
    say "recorded $out"
  fi
  if [[ -n $dump ]]; then
    local out=$REPO/tests/dumps/real-$name
    rm -rf "$out.tmp"
    kubectl cluster-info dump --namespaces "$NAMESPACE" --output-directory "$out.tmp" >/dev/null \
      || die "kubectl cluster-info dump failed"
    {
      echo "# Recorded by the reality lab (scripts/lab.sh run $name --dump): kubectl $K8S_VERSION cluster-info dump --namespaces $NAMESPACE; not read by doctor."
      echo "scenario: $name"
      echo "description: $DESCRIPTION"
      echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
      echo "kubernetes: kube-apiserver, kube-controller-manager, kube-scheduler, kubectl $K8S_VERSION (Go modules); etcd $ETCD_VERSION"
      echo "kubelet: lab-kubelet (tests/support): containers run as local processes, pod IPs in 127.1.0.0/16"
      echo "operator: flink-kubernetes-operator $OPERATOR_VERSION; flink: $FLINK_VERSION"
    } >"$out.tmp/provenance.txt"
    [[ -f $out/expect.txt ]] && cp "$out/expect.txt" "$out.tmp/expect.txt"
    rm -rf "$out"; mv "$out.tmp" "$out"
    say "dumped $out"
  fi
  local healed_line=
  if [[ -n $heal ]]; then
    # shellcheck source=lab/heal.sh
    . "$LAB/heal.sh"
    healed_line=$(cmd_heal) || verdict=1
  fi
  say "figures: run $(($(date +%s) - t0))s (cluster ${t_cluster}s, operator ready ${t_operator}s, settled ${settled_after:-never}${settled_after:+s}), peak memory ${peak} MB"
  [[ -z $healed_line ]] || say "$healed_line"
  [[ -z ${LAB_RESULT:-} ]] || matrix_row "$name" "${first_root:-none}" "$healed_line" "${settled_after:-}" >"$LAB_RESULT"
  if [[ -n $keep ]]; then
    say "kept; the cluster's env:"
    echo "$env_out"
  fi
  return "$verdict"
}

# --- matrix --------------------------------------------------------------------------------------

# One row of the matrix's table from a run: scenario, versions, first root, healed, time, rounds.
matrix_row() { # name first-root heal-summary settled-after
  local healed time=- rounds=- s=$3
  if [[ $s =~ healed\ in\ ([0-9]+)s.*\ ([0-9]+)\ round ]]; then
    time="${BASH_REMATCH[1]} s" rounds=${BASH_REMATCH[2]}
    if ((rounds == 0)); then healed="nothing to heal"
    elif [[ -f $scen/answers ]]; then healed="yes, with the answers file"
    else healed=yes; fi
  elif [[ $s =~ NOT\ healed\ after\ [0-9]+s\ and\ ([0-9]+)\ round ]]; then
    rounds=${BASH_REMATCH[1]}
    if [[ -n ${PERSON_MUST_SET:-} ]]; then healed="person decides: $PERSON_MUST_SET"
    else healed="no: ${s#*round(s): }"; fi
  else
    healed="not run: the lab failed before the heal"
  fi
  [[ -n $4 ]] || healed="$healed (never settled)"
  local root=none
  [[ $2 == none ]] || root="\`${2%% *}\` ${2#* }"
  printf '| `%s` | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$FLINK_VERSION" "$OPERATOR_VERSION" \
    "$root" "$healed" "$time" "$rounds" "$(date -u +%Y-%m-%d)"
}

# Runs each scenario with --heal (and the other flags given), one after the other, each on a
# cluster of its own, and keeps one row per scenario in OUT's table (a row of the same scenario is
# replaced): the versions are the run's (LAB_FLINK, LAB_OPERATOR_VERSION).
cmd_matrix() {
  local out= flags=() names=() logs row
  while (($#)); do
    case $1 in --out) out=$2; shift 2 ;; --*) flags+=("$1"); shift ;; *) names+=("$1"); shift ;; esac
  done
  ((${#names[@]})) || usage
  local fv op
  fv=$FLINK_VERSION
  [[ -z $LAB_FLINK ]] || fv=$(flink_release "$LAB_FLINK") || die "LAB_FLINK=$LAB_FLINK: no such lab release"
  op=$OPERATOR_VERSION
  out=${out:-$REPO/docs/lab-matrix/flink-$fv-operator-$op.md}
  mkdir -p "$(dirname "$out")"
  if [[ ! -f $out ]]; then
    {
      echo "# The reality lab's heal matrix: Flink $fv, operator $op"
      echo
      echo "Written by \`${LAB_FLINK:+LAB_FLINK=$LAB_FLINK }${LAB_OPERATOR_VERSION:+LAB_OPERATOR_VERSION=$LAB_OPERATOR_VERSION }scripts/lab.sh matrix NAME...\`"
      echo "(each scenario run with \`--heal\` on a cluster of its own; first root: doctor's first finding"
      echo "that no other explains, when the failure settled; time to heal from the first diagnosis)."
      echo
      echo "| scenario | Flink | operator | first root | healed | time to heal | rounds | run |"
      echo "|---|---|---|---|---|---|---|---|"
    } >"$out"
  fi
  logs=$(mktemp -d "${TMPDIR:-/tmp}/lab-matrix.XXXXXX")
  local n
  for n in "${names[@]}"; do
    say "matrix: $n (log: $logs/$n.log)"
    LAB_RESULT=$logs/$n.row "$0" run "$n" --heal "${flags[@]}" >"$logs/$n.log" 2>&1 || true
    row=$(cat "$logs/$n.row" 2>/dev/null) || row="| \`$n\` | $fv | $op | - | not run: the lab failed (see its log) | - | - | $(date -u +%Y-%m-%d) |"
    awk -v n="| \`$n\` |" 'index($0, n) != 1' "$out" >"$out.tmp" && mv "$out.tmp" "$out"
    printf '%s\n' "$row" >>"$out"
    printf '%s\n' "$row"
  done
  say "matrix: $out"
}

case ${1:-} in
  run) shift; cmd_run "$@" ;;
  matrix) shift; cmd_matrix "$@" ;;
  list) for d in "$LAB"/scenarios/*/; do n=$(basename "$d"); (DESCRIPTION=; . "$d/scenario.sh"; printf '%-22s %s\n' "$n" "$DESCRIPTION"); done ;;
  *) usage ;;
esac

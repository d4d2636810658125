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
#   scripts/lab.sh list      the scenarios
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
REC_SUFFIX=${LAB_OPERATOR_VERSION:+-operator-$LAB_OPERATOR_VERSION}

say() { printf 'lab: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

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
    sleep 3
  done
  rss=$(cluster_rss_mb); ((rss > peak)) && peak=$rss
  [[ -n $settled_after ]] || say "warning: not settled within ${SETTLE_TIMEOUT}s; diagnosing what there is"

  "$plugin" doctor -n "$NAMESPACE" --color never || true

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
  if [[ -n $keep ]]; then
    say "kept; the cluster's env:"
    echo "$env_out"
  fi
  return "$verdict"
}

case ${1:-} in
  run) shift; cmd_run "$@" ;;
  list) for d in "$LAB"/scenarios/*/; do n=$(basename "$d"); (DESCRIPTION=; . "$d/scenario.sh"; printf '%-22s %s\n' "$n" "$DESCRIPTION"); done ;;
  *) usage ;;
esac

#!/usr/bin/env bash
# A real Kubernetes API server for kubectl-flink's end-to-end tests and demo, with no containers:
# etcd + kube-apiserver (built from Go modules by test-cluster/build.sh) + a fake kubelet that
# serves pod logs from files, all as plain processes on 127.0.0.1. See test-cluster/README.md.
#
#   scripts/test-cluster.sh up            start a cluster, print `export ...` lines, leave it running
#                                          (eval "$(scripts/test-cluster.sh up)")
#   scripts/test-cluster.sh seed DIR...   load offline bundles into it ($KUBE_HARNESS_DIR, else the
#                                          only running cluster); seed options go before DIR
#   scripts/test-cluster.sh down          stop it and remove its files
#   scripts/test-cluster.sh run CMD...    up, run CMD with the cluster's env, down; exits with CMD's code
#
# Several clusters can run at once: each has its own state directory, ports and processes.
# KUBE_HARNESS_CLUSTERS=N with `run` starts N of them and writes one kubeconfig with N contexts,
# test-1 .. test-N (test-1 is the cluster of $KUBE_HARNESS_DIR), exported as $KUBE_FLEET_KUBECONFIG,
# their state directories in that order as $KUBE_FLEET_DIRS (seed one with KUBE_HARNESS_DIR=DIR).
#
# KUBE_HARNESS_LAB=1 (scripts/lab.sh sets it) makes a full control plane for the reality lab:
# kube-controller-manager and kube-scheduler as well, and lab-kubelet, which runs the pods bound to
# node lab-node as local processes, instead of the fake kubelet.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
# shellcheck source=test-cluster/versions.env
. "$HERE/test-cluster/versions.env"
LAB=${KUBE_HARNESS_LAB:-}
NODE_NAME=fake-node
[[ -z $LAB ]] || NODE_NAME=lab-node
KUBELET=fake-kubelet
[[ -z $LAB ]] || KUBELET=lab-kubelet
STATE_BASE=${KUBE_HARNESS_STATE_BASE:-}
if [[ -z $STATE_BASE ]]; then
  if [[ -d /dev/shm && -w /dev/shm ]]; then STATE_BASE=/dev/shm/kubectl-flink-test-cluster; else STATE_BASE=${TMPDIR:-/tmp}/kubectl-flink-test-cluster; fi
fi

log() { printf 'test-cluster: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
now_ms() { date +%s%3N; }

usage() {
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

need_tools() {
  local t missing=()
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  ((${#missing[@]} == 0)) || die "missing tools: ${missing[*]}"
}

# A loopback port nobody uses right now (no socket in any state on it). Binding can still race with
# another process; callers retry their start-up on a fresh port.
free_port() {
  local p hex
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    hex=$(printf ':%04X ' "$p")
    if ! grep -qi -- "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null; then echo "$p"; return 0; fi
  done
  die "no free port found"
}

wait_http() { # url timeout_s [curl args...]
  local url=$1 t=$2; shift 2
  local deadline=$(($(date +%s) + t))
  while (($(date +%s) < deadline)); do
    curl -fsS -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# Starts a daemon in its own session (so Ctrl-C at the terminal and the caller's exit do not reach
# it; `down` stops it), records its pid.
start_daemon() { # name logfile cmd...
  local name=$1 logf=$2; shift 2
  setsid "$@" </dev/null >"$logf" 2>&1 &
  echo $! >"$D/$name.pid"
}

stop_daemon() { # name
  local f=$D/$1.pid pid
  [[ -f $f ]] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

alive() { [[ -f $D/$1.pid ]] && kill -0 "$(cat "$D/$1.pid")" 2>/dev/null; }

# The directory of the test-support binaries (fake-kubelet, seed), built with cargo.
build_support() {
  local target
  log "building the test-support binaries (cargo build -p kubectl-flink-test-support)"
  (cd "$REPO" && cargo build -q -p kubectl-flink-test-support --bins >&2) || die "cargo build -p kubectl-flink-test-support failed"
  target=$(cd "$REPO" && cargo metadata --format-version 1 --no-deps 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  [[ -n $target ]] || target=${CARGO_TARGET_DIR:-$REPO/target}
  echo "$target/debug"
}

# ---------------------------------------------------------------------------------------------- up
cluster_up() {
  need_tools cargo openssl curl setsid flock
  local t0 t_start t_api t_ready
  t0=$(now_ms)
  BIN=$("$HERE/test-cluster/build.sh" ${LAB:+--control-plane})
  local support
  support=$(build_support)

  t_start=$(now_ms)
  mkdir -p "$STATE_BASE"
  if [[ -n ${KUBE_HARNESS_NAME:-} ]]; then
    D=$STATE_BASE/$KUBE_HARNESS_NAME
    [[ ! -e $D ]] || die "a cluster named $KUBE_HARNESS_NAME exists ($D); run down first"
    mkdir -p "$D"
  else
    D=$(mktemp -d "$STATE_BASE/c.XXXXXX")
  fi
  CLUSTER_STARTED=1
  log "starting in $D"
  mkdir -p "$D/bin" "$D/pki" "$D/logs" "$D/kubecache"
  # Private copies: a rebuild of the workspace while the cluster runs must not swap them.
  cp "$support/$KUBELET" "$support/seed" "$D/bin/"
  ln -s "$BIN/kubectl" "$D/bin/kubectl"
  echo "$BIN" >"$D/k8s-bin"

  # PKI: one CA signs the API server's and the fake kubelet's serving certs and client certs.
  local P=$D/pki
  (
    cd "$P"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=kubectl-flink-test-ca" 2>/dev/null
    leaf() { # name subject eku [san]
      openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
      printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n%s\n' "$3" "${4:-}" >"$1.ext"
      openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -out "$1.crt" -extfile "$1.ext" 2>/dev/null
    }
    leaf serving "/CN=kube-apiserver" serverAuth "subjectAltName=IP:127.0.0.1,DNS:localhost,IP:10.96.0.1,DNS:kubernetes.default.svc"
    leaf kubelet "/CN=system:node:$NODE_NAME" serverAuth "subjectAltName=IP:127.0.0.1,DNS:localhost"
    openssl genrsa -out sa.key 2048 2>/dev/null
  ) || die "openssl failed"

  # Static tokens: the admin (seeding, fixtures), the plugin's own identity in the e2e tests (so the
  # audit log tells its requests apart), and a limited user that may only get/list pods.
  ADMIN_TOKEN=$(openssl rand -hex 16)
  E2E_TOKEN=$(openssl rand -hex 16)
  LIMITED_TOKEN=$(openssl rand -hex 16)
  cat >"$D/tokens.csv" <<CSV
$ADMIN_TOKEN,harness-admin,uid-admin,"system:masters"
$E2E_TOKEN,kubectl-flink-e2e,uid-e2e,"system:masters"
$LIMITED_TOKEN,kubectl-flink-limited,uid-limited,"kubectl-flink-pod-readers"
CSV
  chmod 600 "$D/tokens.csv"
  cat >"$D/audit-policy.yaml" <<'YAML'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
YAML

  # etcd (data on tmpfs when the state dir is; fsync off).
  local attempt ETCD_PORT PEER_PORT
  for attempt in 1 2 3; do
    ETCD_PORT=$(free_port); PEER_PORT=$(free_port)
    rm -rf "$D/etcd"
    start_daemon etcd "$D/etcd.log" "$BIN/etcd" --name=harness --data-dir="$D/etcd" \
      --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
      --listen-peer-urls="http://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$PEER_PORT" \
      --initial-cluster="harness=http://127.0.0.1:$PEER_PORT" \
      --unsafe-no-fsync --log-level=warn
    if wait_http "http://127.0.0.1:$ETCD_PORT/health" 30 && alive etcd; then break; fi
    stop_daemon etcd
    ((attempt < 3)) || { tail -n 30 "$D/etcd.log" >&2; die "etcd did not start"; }
  done

  # The fake kubelet: picks its own port and writes it to a file.
  if [[ -z $LAB ]]; then
    start_daemon fake-kubelet "$D/fake-kubelet.log" "$D/bin/fake-kubelet" --root "$D/logs" \
      --cert "$P/kubelet.crt" --key "$P/kubelet.key" --port-file "$D/kubelet.port" --request-log "$D/kubelet-requests.log"
    for _ in $(seq 1 100); do [[ -s $D/kubelet.port ]] && break; alive fake-kubelet || break; sleep 0.1; done
    [[ -s $D/kubelet.port ]] || { cat "$D/fake-kubelet.log" >&2; die "fake kubelet did not start"; }
    KUBELET_PORT=$(cat "$D/kubelet.port")
  else
    # lab-kubelet needs the API server; its port is chosen now and announced in the Node below.
    KUBELET_PORT=$(free_port)
  fi

  # kube-apiserver: RBAC only, static tokens, audit log, kubelet = the fake one (not verified: no CA).
  local API_PORT
  for attempt in 1 2 3; do
    API_PORT=$(free_port)
    t_api=$(now_ms)
    start_daemon kube-apiserver "$D/kube-apiserver.log" "$BIN/kube-apiserver" \
      --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
      --tls-cert-file="$P/serving.crt" --tls-private-key-file="$P/serving.key" \
      --client-ca-file="$P/ca.crt" --token-auth-file="$D/tokens.csv" \
      --authorization-mode=RBAC \
      --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
      --service-account-issuer=https://kubernetes.default.svc.cluster.local \
      --service-account-key-file="$P/sa.key" --service-account-signing-key-file="$P/sa.key" \
      --service-cluster-ip-range=10.96.0.0/12 --endpoint-reconciler-type=none --allow-privileged=true \
      --kubelet-preferred-address-types=InternalIP \
      --audit-policy-file="$D/audit-policy.yaml" --audit-log-path="$D/audit.log" --audit-log-format=json \
      --audit-log-maxsize=0 --audit-log-mode=blocking \
      --profiling=false --v=1
    if wait_http "https://127.0.0.1:$API_PORT/readyz" 120 --cacert "$P/ca.crt" -H "Authorization: Bearer $ADMIN_TOKEN"; then break; fi
    stop_daemon kube-apiserver
    ((attempt < 3)) || { tail -n 40 "$D/kube-apiserver.log" >&2; die "kube-apiserver did not become ready"; }
    log "kube-apiserver did not start on port $API_PORT; retrying"
  done
  t_ready=$(now_ms)

  # Kubeconfigs, written directly.
  kubeconfig() { # file user token
    cat >"$1" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: kubectl-flink-test
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority: $P/ca.crt
users:
- name: $2
  user:
    token: $3
contexts:
- name: kubectl-flink-test
  context: {cluster: kubectl-flink-test, user: $2, namespace: default}
current-context: kubectl-flink-test
YAML
    chmod 600 "$1"
  }
  kubeconfig "$D/admin.kubeconfig" harness-admin "$ADMIN_TOKEN"
  kubeconfig "$D/e2e.kubeconfig" kubectl-flink-e2e "$E2E_TOKEN"
  kubeconfig "$D/limited.kubeconfig" kubectl-flink-limited "$LIMITED_TOKEN"

  # The fake Node (created with its status in one POST) and the limited user's RBAC.
  local capacity=""
  [[ -z $LAB ]] || capacity="capacity: &c {cpu: \"8\", memory: 32Gi, pods: \"110\", ephemeral-storage: 100Gi}
  allocatable: *c
  nodeInfo: {kubeletVersion: $K8S_VERSION, architecture: amd64, operatingSystem: linux, containerRuntimeVersion: lab://0, kernelVersion: \"\", osImage: \"\", machineID: \"\", systemUUID: \"\", bootID: \"\", kubeProxyVersion: \"\"}"
  "$BIN/kubectl" --kubeconfig "$D/admin.kubeconfig" --cache-dir "$D/kubecache" create -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata: {name: $NODE_NAME, labels: {kubernetes.io/hostname: $NODE_NAME, kubernetes.io/os: linux, kubernetes.io/arch: amd64}}
status:
  addresses: [{type: InternalIP, address: 127.0.0.1}, {type: Hostname, address: $NODE_NAME}]
  daemonEndpoints: {kubeletEndpoint: {Port: $KUBELET_PORT}}
  conditions: [{type: Ready, status: "True", reason: KubeletReady, message: ${KUBELET}}]
  $capacity
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: kubectl-flink-test-pod-reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kubectl-flink-test-pod-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kubectl-flink-test-pod-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: kubectl-flink-limited}]
YAML

  [[ -z $LAB ]] || lab_up

  cat >"$D/env" <<ENV
export KUBE_HARNESS_DIR=$D
export KUBECONFIG=$D/admin.kubeconfig
export KUBE_E2E_KUBECONFIG=$D/e2e.kubeconfig
export KUBE_LIMITED_KUBECONFIG=$D/limited.kubeconfig
export KUBE_AUDIT_LOG=$D/audit.log
export KUBE_HARNESS_BIN=$BIN
export KUBE_HARNESS_KUBECTL=$BIN/kubectl
export KUBE_HARNESS_LOG_ROOT=$D/logs
export KUBE_HARNESS_NODE=$NODE_NAME
export KUBE_HARNESS_CRDS=$REPO/src/lint/crds
export KUBE_HARNESS_SEED_RECORD=$D/seeded-cluster-objects.tsv
export KUBECACHEDIR=$D/kubecache
export KUBE_HARNESS_LAB=$LAB
ENV
  log "ready: https://127.0.0.1:$API_PORT (etcd :$ETCD_PORT, $KUBELET :$KUBELET_PORT)"
  log "timings: binaries $((t_start - t0)) ms; start to /readyz $((t_ready - t_start)) ms (kube-apiserver alone $((t_ready - t_api)) ms)"
}

# The lab's part of the control plane: controllers, scheduler and the process kubelet.
lab_up() {
  local images port
  images=$("$REPO/scripts/lab/image.sh") || die "the lab's Flink image could not be built"
  # The TaintNodesByCondition admission put node.kubernetes.io/not-ready on the new Node; the node
  # lifecycle controller that would lift it is off (no Lease is renewed), so lift it here.
  "$BIN/kubectl" --kubeconfig "$D/admin.kubeconfig" --cache-dir "$D/kubecache" taint node "$NODE_NAME" \
    node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  port=$(free_port)
  # nodelifecycle off: no Lease is renewed for the node, and the lab keeps it Ready.
  start_daemon kube-controller-manager "$D/kube-controller-manager.log" "$BIN/kube-controller-manager" \
    --kubeconfig="$D/admin.kubeconfig" --leader-elect=false --bind-address=127.0.0.1 --secure-port="$port" \
    --controllers='*,-nodelifecycle,-nodeipam,-csrsigning,-csrapproving,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller' \
    --service-account-private-key-file="$P/sa.key" --root-ca-file="$P/ca.crt" --use-service-account-credentials=false \
    --authentication-skip-lookup=true --v=1
  port=$(free_port)
  start_daemon kube-scheduler "$D/kube-scheduler.log" "$BIN/kube-scheduler" \
    --kubeconfig="$D/admin.kubeconfig" --leader-elect=false --bind-address=127.0.0.1 --secure-port="$port" \
    --authentication-skip-lookup=true --v=1
  start_daemon lab-kubelet "$D/lab-kubelet.log" "$D/bin/lab-kubelet" --kubeconfig "$D/admin.kubeconfig" \
    --node "$NODE_NAME" --root "$D/logs" --state "$D/pods" --images "$images" \
    --cert "$P/kubelet.crt" --key "$P/kubelet.key" --port "$KUBELET_PORT" --port-file "$D/kubelet.port" \
    --request-log "$D/kubelet-requests.log"
  for _ in $(seq 1 100); do [[ -s $D/kubelet.port ]] && break; alive lab-kubelet || break; sleep 0.1; done
  [[ -s $D/kubelet.port ]] || { tail -n 30 "$D/lab-kubelet.log" >&2; die "lab-kubelet did not start"; }
  sleep 1
  alive kube-controller-manager || { tail -n 30 "$D/kube-controller-manager.log" >&2; die "kube-controller-manager did not start"; }
  alive kube-scheduler || { tail -n 30 "$D/kube-scheduler.log" >&2; die "kube-scheduler did not start"; }
  log "lab: kube-controller-manager, kube-scheduler and lab-kubelet (node $NODE_NAME, images $images) running"
}

# Which cluster: $KUBE_HARNESS_DIR, else the only one running.
find_cluster() {
  if [[ -n ${KUBE_HARNESS_DIR:-} ]]; then
    D=$KUBE_HARNESS_DIR
    [[ -f $D/env ]] || die "KUBE_HARNESS_DIR=$D is not a test cluster"
    return 0
  fi
  local found=()
  shopt -s nullglob
  for f in "$STATE_BASE"/*/env; do found+=("$(dirname "$f")"); done
  shopt -u nullglob
  ((${#found[@]} == 1)) || die "$( ((${#found[@]} == 0)) && echo "no test cluster is running (scripts/test-cluster.sh up)" || echo "several test clusters run (${found[*]}); set KUBE_HARNESS_DIR")"
  D=${found[0]}
}

cluster_down() {
  [[ -n ${D:-} && -d $D ]] || return 0
  local p
  for p in lab-kubelet kube-scheduler kube-controller-manager kube-apiserver fake-kubelet etcd; do stop_daemon "$p"; done
  if [[ -n ${KUBE_HARNESS_KEEP:-} ]]; then log "KUBE_HARNESS_KEEP set: stopped, files kept in $D"; return 0; fi
  rm -rf "$D"
  log "stopped and removed $D"
}

cmd_up() {
  trap 'rc=$?; if ((rc != 0)) && [[ -n ${CLUSTER_STARTED:-} ]]; then cluster_down; fi' EXIT
  cluster_up
  trap - EXIT
  cat "$D/env"
  echo "export PATH=\"$BIN:\$PATH\"   # version-matched kubectl $K8S_VERSION"
  echo "# stop it with: KUBE_HARNESS_DIR=$D $0 down"
}

cmd_seed() {
  find_cluster
  # A caller may keep a seed record of its own in the state directory (each e2e test binary
  # does, so that its `--reset` never removes what another one seeded).
  local record=${KUBE_HARNESS_SEED_RECORD:-}
  # shellcheck disable=SC1091
  . "$D/env"
  if [[ $record == "$D"/* ]]; then export KUBE_HARNESS_SEED_RECORD=$record; fi
  "$D/bin/seed" "$@"
}

cmd_down() {
  find_cluster
  cluster_down
}

# ------------------------------------------------------------------------------------------- fleet
FLEET_EXTRA=()

# Clusters 2..N beside the one in $D, started at once (each `up` is its own process with its own
# state directory and ports), then one kubeconfig naming them all.
fleet_up() { # n
  local n=$1 i pids=() dirs=("$D") f
  for ((i = 2; i <= n; i++)); do
    KUBE_HARNESS_CLUSTERS='' KUBE_HARNESS_NAME='' KUBE_HARNESS_DIR='' "$HERE/test-cluster.sh" up >"$D/fleet-$i.env" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || die "cluster $((i + 2)) of $n did not start"
  done
  for ((i = 2; i <= n; i++)); do
    f=$(sed -n 's/^export KUBE_HARNESS_DIR=//p' "$D/fleet-$i.env")
    [[ -n $f && -f $f/env ]] || die "cluster $i of $n: no state directory in $D/fleet-$i.env"
    FLEET_EXTRA+=("$f")
    dirs+=("$f")
  done
  write_fleet_kubeconfig "$D/fleet.kubeconfig" "${dirs[@]}"
  cat >>"$D/env" <<ENV
export KUBE_FLEET_KUBECONFIG=$D/fleet.kubeconfig
export KUBE_FLEET_DIRS="${dirs[*]}"
ENV
  log "fleet: $n clusters, contexts test-1..test-$n in $D/fleet.kubeconfig"
}

fleet_down() {
  local d
  for d in "${FLEET_EXTRA[@]}"; do
    KUBE_HARNESS_DIR=$d "$HERE/test-cluster.sh" down || true
  done
}

# One kubeconfig with a context test-I per cluster directory (the plugin's e2e identity in each).
write_fleet_kubeconfig() { # out dir...
  local out=$1 i=0 d server ca token
  shift
  {
    echo "apiVersion: v1"
    echo "kind: Config"
    echo "clusters:"
    for d in "$@"; do
      i=$((i + 1))
      server=$(sed -n 's/^ *server: //p' "$d/e2e.kubeconfig")
      ca=$(sed -n 's/^ *certificate-authority: //p' "$d/e2e.kubeconfig")
      printf -- '- name: test-%s\n  cluster:\n    server: %s\n    certificate-authority: %s\n' "$i" "$server" "$ca"
    done
    echo "users:"
    i=0
    for d in "$@"; do
      i=$((i + 1))
      token=$(sed -n 's/^ *token: //p' "$d/e2e.kubeconfig")
      printf -- '- name: test-%s-e2e\n  user:\n    token: %s\n' "$i" "$token"
    done
    echo "contexts:"
    i=0
    for d in "$@"; do
      i=$((i + 1))
      printf -- '- name: test-%s\n  context: {cluster: test-%s, user: test-%s-e2e, namespace: default}\n' "$i" "$i" "$i"
    done
    echo "current-context: test-1"
  } >"$out"
  chmod 600 "$out"
}

CHILD=
on_signal() {
  if [[ -n $CHILD ]]; then
    kill -TERM -- "-$CHILD" 2>/dev/null || kill -TERM "$CHILD" 2>/dev/null || true
    wait "$CHILD" 2>/dev/null || true
  fi
  exit "$1"
}

cmd_run() {
  (($# > 0)) || usage
  trap 'fleet_down; cluster_down' EXIT
  trap 'on_signal 130' INT
  trap 'on_signal 143' TERM
  cluster_up
  local n=${KUBE_HARNESS_CLUSTERS:-1}
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "KUBE_HARNESS_CLUSTERS=$n: a number of clusters (1 or more)"
  ((n == 1)) || fleet_up "$n"
  export KUBE_HARNESS_CLUSTERS=$n
  # shellcheck disable=SC1091
  . "$D/env"
  export PATH="$BIN:$PATH"
  cd "$REPO"
  # In its own process group, so an interrupt can stop all of it (cargo and the test binaries).
  set +e
  setsid "$@" <&0 &
  CHILD=$!
  wait "$CHILD"
  local rc=$?
  CHILD=
  set -e
  exit "$rc"
}

case ${1:-} in
  up) shift; (($# == 0)) || usage; cmd_up ;;
  seed) shift; (($# > 0)) || usage; cmd_seed "$@" ;;
  down) shift; (($# == 0)) || usage; cmd_down ;;
  run) shift; cmd_run "$@" ;;
  *) usage ;;
esac

#!/usr/bin/env bash
# Runs the sweep (scripts/sweep/sweep.py) over every source the catalogue cites, at pinned versions,
# and writes tests/sweep/<component>@<version>.tsv. Reproducible: the same inputs give the same
# files. Inputs (nothing is downloaded here; say where they are):
#   MIRRORS  folder of git directories named <owner>+<repo>/repo (default $INPUTS/mirrors, where
#            INPUTS is ${XDG_CACHE_HOME:-~/.cache}/kubectl-flink-sweep)
#   M2       a Maven repository holding Flink's `-sources.jar`s (default ~/.m2/repository), e.g.
#            mvn dependency:get -Dtransitive=false -Dartifact=org.apache.flink:flink-runtime:1.20.0:jar:sources
#   WHEELS   a folder holding PyFlink's wheels (default $INPUTS/pypi) (`pip download --no-deps --only-binary :all:
#            --python-version 3.9 --platform manylinux2014_x86_64 apache-flink==1.20.0`): each ships the
#            release's bin/ scripts (flink-dist's bin/ and kubernetes-bin/) as pyflink/bin/
#   JDK_SRC  an unpacked OpenJDK source tree (HotSpot and the launcher; default the first
#            $INPUTS/openjdk-17-*), e.g. Debian's openjdk-17
#            source package (`apt-get source --download-only openjdk-17`, a deb-src line needed), whose
#            orig tarball is the upstream tag jdk-17.0.19+10; JDK_TAG names it (default jdk-17.0.19+10);
#            jdk-net needs its src/java.base/{share/classes/sun/nio/ch,share/classes/java/net,unix/native/libnet,unix/native/libnio} too
#   GOMODCACHE  a Go module cache holding the k8s.io/kubernetes and k8s.io/apiserver zips
#            (`go mod download k8s.io/kubernetes@v1.31.0 k8s.io/apiserver@v0.31.0`)
# A source that is not there is skipped with a line on stderr, and its old TSV is kept.
# Usage: scripts/sweep/run.sh [component...]   (no argument: all)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
INPUTS=${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-flink-sweep
MIRRORS=${MIRRORS:-$INPUTS/mirrors}
M2=${M2:-$HOME/.m2/repository}
GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE 2>/dev/null || echo "$HOME/go/pkg/mod")}
OUT=tests/sweep
SWEEP="python3 scripts/sweep/sweep.py"
mkdir -p "$OUT"
want() { [ $# -eq 0 ] || [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
ONLY="$*"

# one output file: component version, then the sweep's arguments
emit() {
  local comp=$1 ver=$2
  shift 2
  want "$comp" || return 0
  local tmp
  tmp=$(mktemp)
  if $SWEEP --component "$comp" --version "$ver" "$@" >"$tmp"; then
    LC_ALL=C sort -t$'\t' -k3,3V -k4,5 -u "$tmp" >"$OUT/$comp@$ver.tsv"
    echo "$comp@$ver: $(wc -l <"$OUT/$comp@$ver.tsv") templates" >&2
  else
    echo "$comp@$ver: sweep failed, kept the old file" >&2
  fi
  rm -f "$tmp"
}
git_src() { # mirror-name
  local d="$MIRRORS/$1/repo"
  [ -d "$d" ] || { echo "no mirror $d" >&2; return 1; }
  echo "$d"
}

# --- the Apache operator: the operator module and its webhook (exceptions, validation, events)
if d=$(git_src apache+flink-kubernetes-operator); then
  for t in release-1.4.0 release-1.5.0 release-1.6.1 release-1.7.0 release-1.8.0 release-1.9.0 release-1.10.0 \
    release-1.11.0 release-1.12.1 release-1.13.0 release-1.14.0 release-1.15.0; do
    emit flink-kubernetes-operator "${t#release-}" --cite "apache/flink-kubernetes-operator@$t" \
      --git-dir "$d" --ref "$t" \
      --under flink-kubernetes-operator/src/main --under flink-kubernetes-webhook/src/main \
      --consts-under flink-kubernetes-operator-api/src/main
  done
fi

# --- Flink: from the sources jars Maven Central publishes (the repository is too big to mirror here).
# Modules the catalogue reads: flink-kubernetes; flink-runtime's entrypoint, dispatcher,
# resourcemanager, jobmaster, checkpoint, state, taskexecutor and highavailability; flink-core's
# configuration, memory, file systems and plugin loader; flink-clients; flink-runtime's BlobClient (its
# connect failure wraps the JDK's and names the blob port) and RestClient (what every REST call to the
# JobManager prints when it fails: the operator's, the CLI's, RestClusterClient's). Added 2026-12-05: what
# a running job prints when it fails on a TaskManager: flink-runtime's network stack (buffers, Netty
# partition requests, remote/local transport errors), taskmanager (Task), executiongraph and its
# failover (restart strategies), scheduler, memory (MemoryManager) and shuffle, and the stream tasks
# (StreamTask and friends: flink-streaming-java up to 1.20, flink-runtime from 2.0).
rt=org/apache/flink/runtime
co=org/apache/flink
for v in 1.16.0 1.17.0 1.18.0 1.19.0 1.20.0 2.0.0 2.1.0; do
  tag=release-$v
  args=()
  for m in flink-kubernetes flink-runtime flink-core flink-clients flink-streaming-java; do
    jar="$M2/org/apache/flink/$m/$v/$m-$v-sources.jar"
    [ -f "$jar" ] || { echo "no $jar" >&2; continue; }
    case $m in
      flink-kubernetes) unders=(--under org/apache/flink/kubernetes) ;;
      flink-runtime) unders=(--under $rt/entrypoint --under $rt/dispatcher --under $rt/resourcemanager
        --under $rt/jobmaster --under $rt/checkpoint --under $rt/state --under $rt/taskexecutor
        --under $rt/highavailability --under $rt/util/bash --under $rt/util/config/memory
        --under $rt/blob/BlobClient.java --under $rt/rest/RestClient.java
        --under $rt/rest/RestClientConfiguration.java
        --under $rt/io/network --under $rt/taskmanager --under $rt/executiongraph --under $rt/scheduler
        --under $rt/memory --under $rt/shuffle --under org/apache/flink/streaming/runtime/tasks) ;;
      flink-streaming-java) unders=(--under org/apache/flink/streaming/runtime/tasks) ;;
      flink-core) unders=(--under $co/configuration --under $co/core/memory --under $co/core/fs
        --under $co/core/plugin --under $co/util/FlinkRuntimeException.java
        --under $co/util/JarUtils.java) ;;
      flink-clients) unders=(--under org/apache/flink/client) ;;
    esac
    tmp=$(mktemp)
    $SWEEP --component flink --version "$v" --cite "apache/flink@$tag" --zip "$jar" \
      --cite-prefix "$m/src/main/java/" "${unders[@]}" >"$tmp" && args+=("$tmp")
  done
  if want flink && [ ${#args[@]} -gt 0 ]; then
    LC_ALL=C sort -t$'\t' -k3,3V -k4,5 -u "${args[@]}" >"$OUT/flink@$v.tsv"
    echo "flink@$v: $(wc -l <"$OUT/flink@$v.tsv") templates" >&2
  fi
  rm -f "${args[@]}"
done

# --- Flink's RPC: flink-rpc-core (the RpcService contract, its exceptions) and flink-rpc-akka (the
# Akka actor system up to 1.17, Pekko from 1.18; the module keeps its name), from Maven Central's
# sources jars. Both live under flink-rpc/ in the repository. Akka's and Pekko's own remoting
# messages (gated, quarantined) are Scala in akka-remote / pekko-remote, which the sweep does not read.
for v in 1.16.0 1.17.0 1.18.0 1.19.0 1.20.0 2.0.0 2.1.0; do
  args=()
  for m in flink-rpc-core flink-rpc-akka; do
    jar="$M2/org/apache/flink/$m/$v/$m-$v-sources.jar"
    [ -f "$jar" ] || { echo "no $jar" >&2; continue; }
    tmp=$(mktemp)
    $SWEEP --component flink-rpc --version "$v" --cite "apache/flink@release-$v" --zip "$jar" \
      --cite-prefix "flink-rpc/$m/src/main/java/" --under org/apache/flink/runtime >"$tmp" && args+=("$tmp")
  done
  if want flink-rpc && [ ${#args[@]} -gt 0 ]; then
    LC_ALL=C sort -t$'\t' -k3,3V -k4,5 -u "${args[@]}" >"$OUT/flink-rpc@$v.tsv"
    echo "flink-rpc@$v: $(wc -l <"$OUT/flink-rpc@$v.tsv") templates" >&2
  fi
  rm -f "${args[@]}"
done

# --- Akka's and Pekko's remoting (Scala): association gated, quarantined, unreachable. Flink's RPC ran
# on Akka 2.6 up to 1.17 and on Pekko from 1.18 (the 1.0 line, then 1.1).
if d=$(git_src akka+akka); then
  emit akka-remote 2.6.20 --cite akka/akka@v2.6.20 --git-dir "$d" --ref v2.6.20 --under akka-remote/src/main
fi
if d=$(git_src apache+pekko); then
  for t in v1.0.1 v1.1.2; do
    emit pekko-remote "${t#v}" --cite "apache/pekko@$t" --git-dir "$d" --ref "$t" --under remote/src/main
  done
fi

# --- Flink's start scripts (bin/*.sh, kubernetes-bin/*.sh) as each release ships them: the wheels of
# PyFlink carry the distribution's bin/ folder (pyflink/bin/), so the scripts are read at the release
WHEELS=${WHEELS:-$INPUTS/pypi}
for v in 1.16.0 1.17.0 1.18.0 1.19.0 1.20.0 2.0.0 2.1.0; do
  whl=$(ls "$WHEELS"/apache_flink-"$v"-*.whl 2>/dev/null | head -1 || true)
  [ -n "$whl" ] || { echo "no PyFlink wheel $v in $WHEELS" >&2; continue; }
  want flink-bin || continue
  tmp1=$(mktemp) tmp2=$(mktemp)
  $SWEEP --component flink-bin --version "$v" --cite "apache/flink@release-$v" --zip "$whl" --lang sh \
    --strip pyflink/bin/ --cite-prefix flink-dist/src/main/flink-bin/bin/ \
    --under config.sh --under jobmanager.sh --under taskmanager.sh --under flink-console.sh \
    --under flink-daemon.sh --under bash-java-utils.sh --under config-parser-utils.sh \
    --under standalone-job.sh --under find-flink-home.sh --under flink >"$tmp1"
  $SWEEP --component flink-bin --version "$v" --cite "apache/flink@release-$v" --zip "$whl" --lang sh \
    --strip pyflink/bin/ --cite-prefix flink-dist/src/main/flink-bin/kubernetes-bin/ \
    --under kubernetes-jobmanager.sh --under kubernetes-taskmanager.sh --under kubernetes-session.sh >"$tmp2"
  LC_ALL=C sort -t$'\t' -k3,3V -k4,5 -u "$tmp1" "$tmp2" >"$OUT/flink-bin@$v.tsv"
  echo "flink-bin@$v: $(wc -l <"$OUT/flink-bin@$v.tsv") templates" >&2
  rm -f "$tmp1" "$tmp2"
done

# --- HotSpot's fatal start-up and memory messages, and the launcher's (`Error: Could not create the
# Java Virtual Machine.`): option parsing, heap and Metaspace reservation, the OutOfMemoryError
# messages, the fatal error report, thread creation, and java.nio's direct-memory limit
JDK_SRC=${JDK_SRC:-$(ls -d "$INPUTS"/openjdk-17-* 2>/dev/null | head -1 || true)}
JDK_TAG=${JDK_TAG:-jdk-17.0.19+10}
if [ -n "$JDK_SRC" ] && [ -d "$JDK_SRC/src/hotspot" ]; then
  hs=src/hotspot/share
  emit hotspot "${JDK_TAG#jdk-}" --cite "openjdk/jdk17u@$JDK_TAG" --dir "$JDK_SRC" \
    --under $hs/runtime/arguments.cpp --under $hs/runtime/java.cpp --under $hs/runtime/os.hpp \
    --under $hs/memory/universe.cpp --under $hs/memory/metaspace.cpp --under $hs/gc/shared \
    --under $hs/gc/g1/g1Arguments.cpp --under $hs/utilities/vmError.cpp --under $hs/utilities/debug.cpp \
    --under $hs/prims/jvm.cpp --under src/hotspot/os/linux/os_linux.cpp \
    --under src/java.base/share/native/libjli/emessages.h --under src/java.base/share/native/libjli/java.c \
    --under src/java.base/share/classes/java/nio/Bits.java
else
  echo "no OpenJDK source tree (JDK_SRC)" >&2
fi
# Java 11's HotSpot (Flink's images up to 1.18 run Java 11 by default): the same files, from the
# jdk11u repository's git mirror at the GA tag of its newest release
if d=$(git_src openjdk+jdk11u); then
  hs=src/hotspot/share
  emit hotspot 11.0.31 --cite openjdk/jdk11u@jdk-11.0.31-ga --git-dir "$d" --ref jdk-11.0.31-ga \
    --under $hs/runtime/arguments.cpp --under $hs/runtime/java.cpp --under $hs/runtime/os.hpp \
    --under $hs/memory/universe.cpp --under $hs/memory/metaspace.cpp --under $hs/gc/shared \
    --under $hs/gc/g1/g1Arguments.cpp --under $hs/utilities/vmError.cpp --under $hs/utilities/debug.cpp \
    --under $hs/prims/jvm.cpp --under src/hotspot/os/linux/os_linux.cpp \
    --under src/java.base/share/native/libjli/emessages.h --under src/java.base/share/native/libjli/java.c \
    --under src/java.base/share/classes/java/nio/Bits.java
fi

# --- the JDK's networking: how a connection refused, timed out or without a route, a reset and an
# unresolved name are worded (the Java socket and channel implementations and their native code).
# The connect errors carry no address: Netty's AnnotatedConnectException and Flink's own wrappers
# (BlobClient) append it. The *WithLastError throws print glibc's strerror(errno) text and fall back
# to the literal; an unresolved name prints `host: <gai_strerror text>` (net_util_md.c).
jn=src/java.base
JDK_NET=(--under $jn/unix/native/libnet/PlainSocketImpl.c --under $jn/unix/native/libnet/net_util_md.c
  --under $jn/unix/native/libnio/ch/Net.c --under $jn/unix/native/libnio/ch/SocketDispatcher.c
  --under $jn/share/classes/sun/nio/ch/SocketChannelImpl.java --under $jn/share/classes/sun/nio/ch/NioSocketImpl.java
  --under $jn/share/classes/java/net/SocketInputStream.java --under $jn/share/classes/java/net/AbstractPlainSocketImpl.java)
if [ -n "$JDK_SRC" ] && [ -d "$JDK_SRC/$jn/unix/native/libnet" ]; then
  emit jdk-net "${JDK_TAG#jdk-}" --cite "openjdk/jdk17u@$JDK_TAG" --dir "$JDK_SRC" "${JDK_NET[@]}"
else
  echo "no OpenJDK networking sources in JDK_SRC (src/java.base/unix/native/libnet)" >&2
fi
if d=$(git_src openjdk+jdk11u); then
  emit jdk-net 11.0.31 --cite openjdk/jdk11u@jdk-11.0.31-ga --git-dir "$d" --ref jdk-11.0.31-ga "${JDK_NET[@]}"
fi

# --- Netty 4.1 (Flink shades it as org.apache.flink.shaded.netty4): the connect failures of its NIO and
# epoll transports (`connection timed out: host/ip:port`, from 4.1.102 `connection timed out after N ms:
# host/ip:port`; epoll's `connect(..) failed: <strerror>`); AbstractChannel.annotateConnectException
# appends `: host/ip:port` to the JDK's ConnectException/NoRouteToHostException message.
if d=$(git_src netty+netty); then
  for t in netty-4.1.91.Final netty-4.1.100.Final netty-4.1.128.Final; do
    v=${t#netty-}
    emit netty "${v%.Final}" --cite "netty/netty@$t" --git-dir "$d" --ref "$t" \
      --under transport/src/main/java/io/netty/channel/AbstractChannel.java \
      --under transport/src/main/java/io/netty/channel/nio/AbstractNioChannel.java \
      --under transport-classes-epoll/src/main/java/io/netty/channel/epoll/AbstractEpollChannel.java \
      --under transport-native-unix-common/src/main/java/io/netty/channel/unix/Errors.java
  done
fi

# --- flink-docker's entrypoint (the repository has no tags: pinned to a commit of master)
if d=$(git_src apache+flink-docker); then
  c=$(git --git-dir "$d" rev-parse --short=12 "${FLINK_DOCKER_REF:-HEAD}")
  for v in 1.20 2.0 2.1; do
    emit flink-docker "$v" --cite "apache/flink-docker@$c" --git-dir "$d" --ref "$c" \
      --under "$v/scala_2.12-java17-ubuntu/docker-entrypoint.sh" --lang sh
  done
fi

# --- Lyft's operator and the Spotify (was GCP) FlinkCluster operator (Go)
if d=$(git_src lyft+flinkk8soperator); then
  for t in v0.5.0 v0.7.0; do
    emit flinkk8soperator "$t" --cite "lyft/flinkk8soperator@$t" --git-dir "$d" --ref "$t" \
      --under pkg --under cmd
  done
fi
if d=$(git_src spotify+flink-on-k8s-operator); then
  for t in v0.5.0 v1beta1-9; do
    emit flink-on-k8s-operator "$t" --cite "spotify/flink-on-k8s-operator@$t" --git-dir "$d" \
      --ref "$t" --under controllers --under apis --under internal
  done
fi

# --- fabric8 kubernetes-client 5, 6, 7: KubernetesClientException and the client's own failures
if d=$(git_src fabric8io+kubernetes-client); then
  for t in v5.12.4 v6.14.0 v7.8.0; do
    emit fabric8-kubernetes-client "${t#v}" --cite "fabric8io/kubernetes-client@$t" --git-dir "$d" \
      --ref "$t" --under kubernetes-client/src/main --under kubernetes-client-api/src/main \
      --under httpclient-okhttp/src/main --under httpclient-jdk/src/main --under httpclient-vertx/src/main \
      --exclude '(^|/)src/test/|/model/|/dsl/internal/.*Generated|generated'
  done
fi

# --- the official Kubernetes Java client: ApiException / ApiClient and util (informers, leader election)
if d=$(git_src kubernetes-client+java); then
  for t in v18.0.0 v27.0.0; do
    emit kubernetes-client-java "${t#v}" --cite "kubernetes-client/java@$t" --git-dir "$d" --ref "$t" \
      --under util/src/main \
      --under kubernetes/src/main/java/io/kubernetes/client/openapi/ApiClient.java \
      --under kubernetes/src/main/java/io/kubernetes/client/openapi/ApiException.java
  done
fi

# --- Kubernetes: scheduler, kubelet, the workload controllers, admission plugins (Go module zips)
for v in v1.24.0 v1.25.0 v1.26.0 v1.27.0 v1.28.0 v1.29.0 v1.30.0 v1.31.0 v1.32.0 v1.33.0 v1.34.0 v1.35.0 v1.36.3; do
  zip="$GOMODCACHE/cache/download/k8s.io/kubernetes/@v/$v.zip"
  [ -f "$zip" ] || { echo "no $zip" >&2; continue; }
  emit kubernetes "${v#v}" --cite "kubernetes/kubernetes@$v" --zip "$zip" --strip "k8s.io/kubernetes@$v/" \
    --under pkg/scheduler --under pkg/kubelet --under pkg/controller/deployment \
    --under pkg/controller/replicaset --under pkg/controller/job --under pkg/controller/statefulset \
    --under pkg/controller/volume/persistentvolume --under plugin/pkg/admission \
    --under pkg/volume/util --under pkg/volume/csi
done

# --- the API server's admission (ResourceQuota's "exceeded quota", the webhooks' rejections),
# cited at its place in kubernetes/kubernetes (staging/src/k8s.io/apiserver) at the matching minor
for v in 24.0 25.0 26.0 27.0 28.0 29.0 30.0 31.0 32.0 33.0 34.0 35.0 36.3; do
  zip="$GOMODCACHE/cache/download/k8s.io/apiserver/@v/v0.$v.zip"
  [ -f "$zip" ] || { echo "no $zip" >&2; continue; }
  emit kube-apiserver "1.$v" --cite "kubernetes/kubernetes@v1.$v" --zip "$zip" \
    --strip "k8s.io/apiserver@v0.$v/" --cite-prefix staging/src/k8s.io/apiserver/ \
    --under pkg/admission/plugin/resourcequota --under pkg/admission/plugin/webhook \
    --under pkg/admission/plugin/namespace --under pkg/endpoints/handlers/responsewriters \
    --under pkg/authorization
done

du -ch "$OUT"/*.tsv | tail -1 >&2

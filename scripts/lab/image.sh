#!/usr/bin/env bash
# Builds (or reuses) the reality lab's "images" and prints the folder that lab-kubelet reads
# (--images): index.tsv maps image references to image folders; an image folder has image.json
# (entrypoint, cmd, env, workingDir, binds) and rootfs/ (what the container sees at the bind
# targets). Jars come from Maven Central; the launch scripts are the lab's own (images/*/), since
# Flink's binary release, with its scripts, is not on Maven Central; the Flink image's usrlib/
# holds the lab's job jar, compiled here with javac.
#   scripts/lab/image.sh                       the pinned Flink and operator images (versions.env)
#   scripts/lab/image.sh flink 1.20.1          one Flink image
#   scripts/lab/image.sh operator 1.7.0        one operator image
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=versions.env
. "$HERE/versions.env"
CACHE=${KUBECTL_FLINK_LAB_CACHE:-$HOME/.cache/kubectl-flink-lab}
IMAGES=$CACHE/images
say() { printf 'lab: %s\n' "$*" >&2; }
for tool in mvn javac jar java sha256sum flock; do
  command -v "$tool" >/dev/null || { say "$tool is needed to build the lab's images"; exit 1; }
done
JAVA_HOME_IN_IMAGE=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
mkdir -p "$IMAGES"
exec 9>"$IMAGES/build.lock"
flock 9

resolve() { # pom version-property version dir [mvn-arg...]
  # .done holds the stamp of the pom it resolved: a pom that lists other jars resolves again.
  local pom_stamp; pom_stamp=$(stamp_of "$1")
  [[ $(cat "$4/.done" 2>/dev/null) == "$pom_stamp" ]] && return 0
  say "resolving $(basename "$(dirname "$1")") $3's jars from Maven Central into $4"
  rm -rf "$4"; mkdir -p "$4/lib"
  mvn -q -B -f "$1" "-D$2=$3" "${@:5}" dependency:copy-dependencies -DoutputDirectory="$4/lib" -DincludeScope=runtime >&2
  echo "$pom_stamp" >"$4/.done"
}

stamp_of() { find "$@" -type f | sort | xargs cat | sha256sum | cut -c1-12; }

image_json() { # folder workdir entrypoint-json cmd-json binds-json
  cat >"$1/image.json" <<JSON
{
  "entrypoint": $3,
  "cmd": $4,
  "workingDir": "$2",
  "env": ["FLINK_HOME=/opt/flink", "JAVA_HOME=$JAVA_HOME_IN_IMAGE", "PATH=/opt/flink/bin:$JAVA_HOME_IN_IMAGE/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"],
  "binds": $5
}
JSON
}

build_flink() { # version
  local v=$1 jars=$CACHE/jars/flink-$1 img=$IMAGES/flink-$1 stamp f
  resolve "$HERE/images/flink/pom.xml" flink.version "$v" "$jars"
  if [[ ! -f $jars/job/lab-job.jar || $HERE/job/LabJob.java -nt $jars/job/lab-job.jar ]]; then
    rm -rf "$jars/job/classes"; mkdir -p "$jars/job/classes"
    javac -nowarn -d "$jars/job/classes" -cp "$jars/lib/*" "$HERE/job/LabJob.java" >&2
    jar --create --file "$jars/job/lab-job.jar" --main-class lab.LabJob -C "$jars/job/classes" . >&2
  fi
  stamp=$(stamp_of "$HERE/images/flink" "$HERE/job")
  if [[ $(cat "$img/.stamp" 2>/dev/null) != "$stamp" ]]; then
    rm -rf "$img"; f=$img/rootfs/opt/flink; mkdir -p "$f"/{bin,conf,lib,usrlib,plugins,opt,log}
    cp "$HERE/images/flink/docker-entrypoint.sh" "$img/rootfs/docker-entrypoint.sh"
    cp "$HERE"/images/flink/bin/* "$f/bin/"
    cp "$HERE"/images/flink/conf/* "$f/conf/"
    # Flink reads conf/config.yaml from 1.19 on, conf/flink-conf.yaml before.
    case $v in
      1.1[0-8].*) mv "$f/conf/config.yaml" "$f/conf/flink-conf.yaml" ;;
      *) sed -i 's/^env\.java\.opts\.all:/env.java.default-opts.all:/' "$f/conf/config.yaml" ;;
    esac
    ln -s "$jars"/lib/*.jar "$f/lib/"
    cp "$jars/job/lab-job.jar" "$f/usrlib/lab-job.jar"
    image_json "$img" /opt/flink '["/docker-entrypoint.sh"]' '["help"]' \
      '{"/opt/flink": "rootfs/opt/flink", "/docker-entrypoint.sh": "rootfs/docker-entrypoint.sh"}'
    echo "$stamp" >"$img/.stamp"
  fi
  local minor=${v%.*}
  printf 'flink:%s*\tflink-%s\n*/flink:%s*\tflink-%s\n' "$minor" "$v" "$minor" "$v" >"$IMAGES/index.tsv.flink-$v"
}

build_operator() { # version
  local v=$1 jars=$CACHE/jars/operator-$1 img=$IMAGES/operator-$1 stamp
  # From 1.8 on the operator's pom takes okhttp (fabric8's HTTP client) in a profile active when
  # fabric8.httpclient.impl is okhttp (apache/flink-kubernetes-operator@release-1.10.0:
  # flink-kubernetes-operator/pom.xml, profile depend-on-okhttp4); a property set in that pom does
  # not activate a dependency's profile, the same property on the command line does. Without it
  # the operator dies at start: NoClassDefFoundError okhttp3/OkHttpClient$Builder.
  resolve "$HERE/images/operator/pom.xml" operator.version "$v" "$jars" -Dfabric8.httpclient.impl=okhttp
  # The jars' names are in the stamp: jars resolved again (another set) make the image again.
  stamp=$( { stamp_of "$HERE/images/operator"; ls "$jars/lib"; } | sha256sum | cut -c1-12)
  if [[ $(cat "$img/.stamp" 2>/dev/null) != "$stamp" ]]; then
    rm -rf "$img"; mkdir -p "$img/rootfs/flink-kubernetes-operator/lib" "$img/rootfs/opt/flink"/{conf,plugins,artifacts}
    cp "$HERE/images/operator/docker-entrypoint.sh" "$img/rootfs/docker-entrypoint.sh"
    ln -s "$jars"/lib/*.jar "$img/rootfs/flink-kubernetes-operator/lib/"
    image_json "$img" /flink-kubernetes-operator '["/docker-entrypoint.sh"]' '["help"]' \
      '{"/flink-kubernetes-operator": "rootfs/flink-kubernetes-operator", "/opt/flink": "rootfs/opt/flink", "/docker-entrypoint.sh": "rootfs/docker-entrypoint.sh"}'
    echo "$stamp" >"$img/.stamp"
  fi
  printf '*flink-kubernetes-operator:%s*\toperator-%s\n' "$v" "$v" >"$IMAGES/index.tsv.operator-$v"
}

case ${1:-} in
  "") build_flink "$FLINK_VERSION"; build_operator "$OPERATOR_VERSION" ;;
  flink) build_flink "${2:?version}" ;;
  operator) build_operator "${2:?version}" ;;
  *) say "usage: image.sh [flink|operator VERSION]"; exit 2 ;;
esac
cat "$IMAGES"/index.tsv.* >"$IMAGES/index.tsv.tmp" && mv "$IMAGES/index.tsv.tmp" "$IMAGES/index.tsv"
echo "$IMAGES"

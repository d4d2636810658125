#!/usr/bin/env bash
# Builds a Flink Kubernetes Operator release from its source release tag into the local Maven
# repository, for the releases Maven Central does not serve (every one after 1.7.0: `mvn
# dependency:get -Dartifact=org.apache.flink:flink-kubernetes-operator:1.10.0:pom` is refused, as
# for 1.8.0 and 1.9.0), so that scripts/lab/image.sh resolves its jars as it does 1.7.0's.
#   scripts/lab/operator-from-source.sh SRC-DIR [MVN-ARG...]
#     SRC-DIR: the release tag's tree (release-1.10.0); every argument after it goes to mvn as it
#     is, after the options below (e.g. `-rf :flink-kubernetes-operator` to resume, `-o` offline).
# Only the operator and the standalone module (and what they need) are built; tests, style checks,
# Javadoc and the CRD compatibility check (which fetches the previous release's CRD) are skipped.
# Measured for release-1.10.0 on 2 cores shared with other builds (load 15-20): after 25 minutes
# (the dependencies downloaded, flink-kubernetes-operator-api, flink-autoscaler and
# flink-kubernetes-standalone installed) it was still compiling flink-kubernetes-operator; resume
# such a build with `scripts/lab/operator-from-source.sh SRC-DIR -rf :flink-kubernetes-operator`.
set -euo pipefail
src=${1:?the source tree of a release tag, e.g. git archive release-1.10.0 | tar x}
shift
cd "$src"
mvn -B -q -pl flink-kubernetes-operator,flink-kubernetes-standalone -am install \
  -DskipTests -Dcheckstyle.skip -Dspotless.check.skip -Dspotless.apply.skip -Drat.skip \
  -Dmaven.javadoc.skip -Denforcer.skip -Djapicmp.skip -Dmaven.antrun.skip=true "$@"

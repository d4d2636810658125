#!/usr/bin/env bash
# Checks deploy/ and charts/kubectl-flink against the code (tests/watch_deploy.rs) with promtool
# required: installs Debian's `prometheus` package (which ships promtool) when it is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v promtool >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=; [[ $(id -u) == 0 ]] || SUDO=sudo
    $SUDO apt-get install -y --no-install-recommends prometheus >&2
  fi
fi
KUBECTL_FLINK_REQUIRE_PROMTOOL=1 exec cargo test --test watch_deploy "$@"

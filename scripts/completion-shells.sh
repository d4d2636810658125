#!/usr/bin/env bash
# Completion in real shells (tests/completion_shells.rs): installs what drives them from Debian's
# packages when missing (zsh, fish, tmux, and bash-completion, which kubectl's bash completion
# needs), then runs the test on a test cluster, so that deployment names complete from a real API
# server too. About 20 s of shell driving on top of the cluster's start.
#
#   scripts/completion-shells.sh            install what is missing, then run the test
#   scripts/completion-shells.sh --no-cluster   the same without the live-names test's cluster
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
missing=()
for tool in zsh fish tmux; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[[ -f /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
if ((${#missing[@]})); then
  echo "completion-shells: installing ${missing[*]}" >&2
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    { "${sudo[@]}" apt-get update >&2 && "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
fi
cd "$REPO"
if [[ ${1:-} == --no-cluster ]]; then
  exec cargo test --test completion_shells
fi
exec "$HERE/test-cluster.sh" run cargo test --test completion_shells

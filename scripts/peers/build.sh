#!/usr/bin/env bash
# Build (or reuse) the peer tools the side-by-side benchmarks compare with, at pinned versions,
# cached outside the repository like the test cluster; prints the bin directory.
#
#   scripts/peers/build.sh [stern] [popeye] [k8sgpt] [rg]      (default: all four)
#
# stern installs with `go install`. popeye and k8sgpt are built from the exact module version's
# source with `go mod download` and `go build -mod=mod`: the Go proxy here refuses version lists,
# so nothing may ask it for "latest". ripgrep is built from crates.io with `cargo install --locked`.
# Not part of the test command: only scripts/bench-peers.sh calls it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$HERE/versions.env"
ROOT=${PEERS_CACHE:-$HOME/.cache/kubectl-flink-peers}
BIN=$ROOT/bin
mkdir -p "$BIN" "$ROOT/src"
WANT=("$@")
((${#WANT[@]})) || WANT=(stern popeye k8sgpt rg)
say() { printf 'peers: %s\n' "$*" >&2; }
export GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local

exec 9>"$ROOT/build.lock"
if ! flock -n 9; then
  say "waiting for another build of the peer tools (lock $ROOT/build.lock)"
  flock 9
fi

# The binary's name carries its version, so a version bump in versions.env rebuilds.
built() { [[ -x $BIN/$1-$2 ]]; }

# From the module cache's read-only copy of one exact version to a writable tree, then build.
go_build_module() { # name module version package
  local name=$1 module=$2 version=$3 pkg=$4 dir src log
  built "$name" "$version" && return 0
  command -v go >/dev/null || { say "Go is needed to build $name"; return 1; }
  log=$ROOT/build-$name-$version.log
  say "building $name $version from Go modules (log: $log; several minutes on 2 cores the first time)"
  dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
  [[ -n $dir ]] || { say "the Go proxy did not serve $module@$version"; return 1; }
  src=$ROOT/src/$name-$version
  if [[ ! -d $src ]]; then
    cp -r "$dir" "$src.tmp" && chmod -R u+w "$src.tmp" && mv "$src.tmp" "$src"
  fi
  (cd "$src" && go mod download >"$log" 2>&1 &&
    go build -trimpath -ldflags "-s -w" -o "$BIN/$name-$version.tmp" "$pkg" >>"$log" 2>&1) ||
    { tail -n 20 "$log" >&2; say "building $name failed; the whole log is $log"; return 1; }
  mv "$BIN/$name-$version.tmp" "$BIN/$name-$version"
}

for tool in "${WANT[@]}"; do
  T0=$(date +%s)
  case $tool in
    stern)
      built stern "$STERN_VERSION" && continue
      say "installing stern $STERN_VERSION with go install"
      GOBIN=$ROOT/gobin-stern-$STERN_VERSION go install -trimpath -ldflags "-s -w" \
        "github.com/stern/stern@$STERN_VERSION" >"$ROOT/build-stern-$STERN_VERSION.log" 2>&1 ||
        { tail -n 20 "$ROOT/build-stern-$STERN_VERSION.log" >&2; say "installing stern failed"; exit 1; }
      mv "$ROOT/gobin-stern-$STERN_VERSION/stern" "$BIN/stern-$STERN_VERSION"
      ;;
    popeye) go_build_module popeye github.com/derailed/popeye "$POPEYE_VERSION" . ;;
    k8sgpt) go_build_module k8sgpt github.com/k8sgpt-ai/k8sgpt "$K8SGPT_VERSION" . ;;
    rg)
      built rg "$RIPGREP_VERSION" && continue
      say "building ripgrep $RIPGREP_VERSION with cargo install (log: $ROOT/build-rg-$RIPGREP_VERSION.log)"
      cargo install --locked --quiet --root "$ROOT/cargo-rg-$RIPGREP_VERSION" ripgrep --version "$RIPGREP_VERSION" \
        >"$ROOT/build-rg-$RIPGREP_VERSION.log" 2>&1 ||
        { tail -n 20 "$ROOT/build-rg-$RIPGREP_VERSION.log" >&2; say "building ripgrep failed"; exit 1; }
      cp "$ROOT/cargo-rg-$RIPGREP_VERSION/bin/rg" "$BIN/rg-$RIPGREP_VERSION"
      ;;
    *) say "unknown peer '$tool' (stern, popeye, k8sgpt, rg)"; exit 2 ;;
  esac
  built "$tool" "$(tool_version "$tool")" && say "$tool ready in $(($(date +%s) - T0)) s"
done
echo "$BIN"

#!/usr/bin/env bash
# Cuts a release: static Linux binaries, krew archives, and the krew manifest with their sha256.
#
#   scripts/release.sh VERSION              build every target it can, package, write the manifest
#   scripts/release.sh --template VERSION   rewrite krew-manifest/flink.yaml as the template
#                                           (every platform, sha256 placeholders of 64 zeros)
#
# VERSION is Cargo.toml's version, with or without the leading v (v0.1.0 or 0.1.0).
#
# For each target (default: x86_64-unknown-linux-musl aarch64-unknown-linux-musl) it runs
# `cargo build --release --locked --target TARGET`, checks that the binary is static (no ELF
# program interpreter), and packs `kubectl-flink` and `LICENSE` at the top level of
# kubectl-flink-VERSION-TARGET.tar.gz, the layout krew installs from (`files: from/to .`,
# `bin: kubectl-flink`). A target that cannot be built here is named in one line and left out;
# nothing is faked. Then it writes the manifest: the committed one's metadata and descriptions,
# the version, and one platform per archive found in the release folder (so archives for other
# systems, built elsewhere with the same names and layout and copied in, are listed too), each
# with the archive's sha256 and the GitHub release URL it will be downloaded from.
#
# Archives are reproducible from the same binary: entries in byte order, mtime SOURCE_DATE_EPOCH (default:
# the commit's time), owner and group 0, fixed modes, ustar format, gzip without name or time.
# The binary itself is the same only from the same commit, toolchain and dependencies (the build
# remaps the checkout and cargo home paths, and the binary names its commit in --version).
#
# Environment:
#   RELEASE_DIR        where the archives and the manifest go (default: dist)
#   MANIFEST           where the manifest goes (default: RELEASE_DIR/flink.yaml; with --template,
#                      krew-manifest/flink.yaml)
#   RELEASE_TARGETS    the targets to build (space-separated)
#   RELEASE_SKIP_BUILD 1: do not run cargo; package the binaries already at
#                      CARGO_TARGET_DIR/TARGET/release/kubectl-flink
#   RELEASE_BASE_URL   default https://github.com/kubectl-flink/kubectl-flink/releases/download
#   SOURCE_DATE_EPOCH  the archives' mtime
#
# Needs: cargo with the targets' standard libraries (rustup target add TARGET), a C compiler for
# each target (ring compiles C: Debian's musl-tools for x86_64, gcc-aarch64-linux-gnu for aarch64,
# which also links), GNU tar, gzip, sha256sum.

set -euo pipefail

die() {
  echo "release: $*" >&2
  exit 2
}
note() { echo "release: $*" >&2; }

cd "$(dirname "$0")/.."
root=$PWD

template=0
if [[ ${1:-} == --template ]]; then
  template=1
  shift
fi
[[ $# -eq 1 ]] || die "usage: scripts/release.sh [--template] VERSION"
version="v${1#v}"
crate_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
[[ $version == "v$crate_version" ]] ||
  die "VERSION $version is not Cargo.toml's version (v$crate_version): bump Cargo.toml first"

dist=${RELEASE_DIR:-$root/dist}
source_manifest=$root/krew-manifest/flink.yaml
base_url=${RELEASE_BASE_URL:-https://github.com/kubectl-flink/kubectl-flink/releases/download}
zeros=0000000000000000000000000000000000000000000000000000000000000000

# Every platform the manifest may list, in its order: target, os, arch, bin, archive type.
platforms=(
  "x86_64-unknown-linux-musl linux amd64 kubectl-flink tar.gz"
  "aarch64-unknown-linux-musl linux arm64 kubectl-flink tar.gz"
  "x86_64-apple-darwin darwin amd64 kubectl-flink tar.gz"
  "aarch64-apple-darwin darwin arm64 kubectl-flink tar.gz"
  "x86_64-pc-windows-msvc windows amd64 kubectl-flink.exe zip"
)

archive_name() { echo "kubectl-flink-$version-$1.$2"; }

sha256() {
  if command -v sha256sum >/dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# The C compiler ring needs for a target (and, for aarch64 on another host, the linker), or nothing.
c_compiler() {
  local candidates
  case $1 in
    x86_64-unknown-linux-musl) candidates="x86_64-linux-musl-gcc musl-gcc" ;;
    aarch64-unknown-linux-musl) candidates="aarch64-linux-musl-gcc aarch64-linux-gnu-gcc" ;;
    *) candidates="" ;;
  esac
  for c in $candidates; do
    if command -v "$c" >/dev/null; then
      echo "$c"
      return
    fi
  done
}

build() {
  local target=$1 cc upper
  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target"; then
    note "skip $target: its standard library is not installed (rustup target add $target)"
    return 1
  fi
  cc=$(c_compiler "$target")
  if [[ -z $cc ]]; then
    note "skip $target: no C compiler for it (ring needs one: Debian's musl-tools for x86_64, gcc-aarch64-linux-gnu for aarch64)"
    return 1
  fi
  upper=$(echo "$target" | tr 'a-z-' 'A-Z_')
  local -a env=("CC_${target//-/_}=$cc")
  if [[ $target != "$(uname -m)"-* ]]; then
    env+=("CARGO_TARGET_${upper}_LINKER=$cc")
  fi
  local log
  log=$(mktemp)
  note "building $target (cargo build --release --locked, CC=$cc; log: $log)"
  if ! env "${env[@]}" \
    RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$root=/kubectl-flink --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo" \
    cargo build --release --locked --target "$target" >"$log" 2>&1; then
    note "skip $target: cargo build failed ($(grep -m1 '^error' "$log" || echo "see $log"))"
    return 1
  fi
  rm -f "$log"
  local bin=$target_dir/$target/release/kubectl-flink
  if command -v readelf >/dev/null && readelf -lW "$bin" | grep -q 'program interpreter'; then
    note "skip $target: the binary is dynamically linked"
    return 1
  fi
  if [[ $target == "$(uname -m)"-*-linux-* && $(uname -s) == Linux ]]; then
    "$bin" --version | grep -q "^kubectl-flink $crate_version" ||
      { note "skip $target: the binary does not say it is $crate_version"; return 1; }
  fi
}

package() {
  local target=$1 bin=$target_dir/$1/release/kubectl-flink stage archive
  [[ -f $bin ]] || { note "skip $target: no binary at $bin"; return 1; }
  stage=$(mktemp -d)
  install -m 0755 "$bin" "$stage/kubectl-flink"
  install -m 0644 "$root/LICENSE" "$stage/LICENSE"
  archive=$dist/$(archive_name "$target" tar.gz)
  (cd "$stage" && tar --create --format=ustar --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" LICENSE kubectl-flink) | gzip -9 --no-name >"$archive.part"
  mv "$archive.part" "$archive"
  rm -rf "$stage"
  note "$(basename "$archive") $(sha256 "$archive")"
}

# The manifest: the committed one up to its platforms (metadata, descriptions, caveats) with this
# version, then one platform per archive (every platform with placeholder sums for the template).
write_manifest() {
  local out=$1 head
  head=$(sed '/^  platforms:/,$d' "$source_manifest" | sed "s/^  version: .*/  version: $version/")
  {
    echo "$head"
    echo "  platforms:"
    local p target os arch bin kind archive sum listed=0 missing=()
    for p in "${platforms[@]}"; do
      read -r target os arch bin kind <<<"$p"
      archive=$(archive_name "$target" "$kind")
      if [[ $template == 1 ]]; then
        sum=$zeros
      elif [[ -f $dist/$archive ]]; then
        sum=$(sha256 "$dist/$archive")
      else
        missing+=("$os/$arch")
        continue
      fi
      listed=$((listed + 1))
      cat <<EOF
    - selector:
        matchLabels:
          os: $os
          arch: $arch
      uri: $base_url/$version/$archive
      sha256: "$sum"
      bin: $bin
      files:
        - from: $bin
          to: .
        - from: LICENSE
          to: .
EOF
    done
    [[ $listed -gt 0 ]] || die "no archive in $dist: nothing to list"
    [[ ${#missing[@]} -eq 0 ]] || note "not in the manifest (no archive for them in $dist): ${missing[*]}"
  } >"$out.part"
  mv "$out.part" "$out"
  note "wrote $out"
}

if [[ $template == 1 ]]; then
  write_manifest "${MANIFEST:-$source_manifest}"
  exit 0
fi

command -v cargo >/dev/null || [[ ${RELEASE_SKIP_BUILD:-} == 1 ]] || die "cargo is not on PATH"
tar --version 2>/dev/null | grep -q 'GNU tar' || die "GNU tar is needed (reproducible archives: --sort=name)"
target_dir=${CARGO_TARGET_DIR:-$root/target}
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)

if [[ ${RELEASE_SKIP_BUILD:-} != 1 && -n $(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
  die "the work tree has uncommitted changes: a release is built from a commit (--version names it)"
fi
built=0
for target in ${RELEASE_TARGETS:-x86_64-unknown-linux-musl aarch64-unknown-linux-musl}; do
  if [[ ${RELEASE_SKIP_BUILD:-} != 1 ]]; then
    build "$target" || continue
  fi
  package "$target" || continue
  built=$((built + 1))
done
[[ $built -gt 0 ]] || die "no archive was built"
write_manifest "${MANIFEST:-$dist/flink.yaml}"

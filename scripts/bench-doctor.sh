#!/usr/bin/env bash
# Benchmark: `doctor --from` on a generated bundle of 200 FlinkDeployments and 2,000 pods.
# Prints wall time and peak memory (target: under 1 s and 100 MB on a 2-core machine).
# Usage: scripts/bench-doctor.sh [RUNS]   (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/kubectl-flink
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
python3 scripts/gen-bench-bundle.py "$dir/bundle" --deployments 200 --pods 2000
python3 - "$bin" "$dir/bundle" "$runs" <<'PY'
import resource, subprocess, sys, time
binary, bundle, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
walls = []
for _ in range(runs):
    t = time.perf_counter()
    p = subprocess.run([binary, "doctor", "--from", bundle, "-o", "json"], stdout=subprocess.PIPE)
    walls.append(time.perf_counter() - t)
    assert p.returncode in (0, 1), p.returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
findings = p.stdout.count(b'"rule"')
walls.sort()
print(f"doctor --from: 200 FlinkDeployments, 2000 pods: {findings} findings")
print(f"wall: median {walls[len(walls)//2]*1000:.0f} ms, min {walls[0]*1000:.0f} ms, max {walls[-1]*1000:.0f} ms over {runs} runs")
print(f"peak RSS: {peak:.1f} MB")
PY

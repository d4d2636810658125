#!/usr/bin/env bash
# Benchmark: `doctor --from` on a generated bundle of 200 FlinkDeployments and 2,000 pods.
# Prints wall time and peak memory (target: under 1 s and 100 MB on a 2-core machine).
# Usage: scripts/bench-doctor.sh [RUNS]   (builds the release binary first)
# Fleet scale: BENCH_DEPLOYMENTS=2000 BENCH_PODS=20000 scripts/bench-doctor.sh 3
# (target: under 2 s and 150 MB).
# Plain native clusters (no operator, no FlinkDeployment) instead: BENCH_MODE=native.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/kubectl-flink
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
deployments=${BENCH_DEPLOYMENTS:-200}
pods=${BENCH_PODS:-2000}
mode=${BENCH_MODE:-operator}
python3 scripts/gen-bench-bundle.py "$dir/bundle" --deployments "$deployments" --pods "$pods" --mode "$mode"
python3 - "$bin" "$dir/bundle" "$runs" "$deployments" "$pods" "$mode" <<'PY'
import resource, subprocess, sys, time
binary, bundle, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
deployments, pods, mode = sys.argv[4], sys.argv[5], sys.argv[6]
walls = []
for _ in range(runs):
    t = time.perf_counter()
    p = subprocess.run([binary, "doctor", "--from", bundle, "-o", "json"], stdout=subprocess.PIPE)
    walls.append(time.perf_counter() - t)
    assert p.returncode in (0, 1), p.returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
findings = p.stdout.count(b'"rule"')
walls.sort()
clusters = "FlinkDeployments" if mode == "operator" else "plain native clusters"
print(f"doctor --from: {deployments} {clusters}, {pods} pods: {findings} findings")
print(f"wall: median {walls[len(walls)//2]*1000:.0f} ms, min {walls[0]*1000:.0f} ms, max {walls[-1]*1000:.0f} ms over {runs} runs")
print(f"peak RSS: {peak:.1f} MB")
PY

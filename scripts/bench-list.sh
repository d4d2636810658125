#!/usr/bin/env bash
# Benchmark: `doctor --from` on one `kind: List` of 100,000 pods in one JSON file (~30 MB), as
# `kubectl get pods -A -o json` prints a large cluster's. Prints the file's size, wall time, peak
# RSS and peak RSS / file size (target: under 3x with every pod Flink's, issue #35). A benchmark,
# not a test: nothing fails on the figures.
#
#   scripts/bench-list.sh [PODS [FLINK_PODS]]   (defaults: 100000 pods, 1000 of them Flink's)
#
# FLINK_PODS of the PODS carry a Flink cluster's labels (component: jobmanager/taskmanager, in
# clusters of 10 pods); the rest are ordinary workloads, which a live gather never lists.
# Builds the release binary first (CARGO_TARGET_DIR is honoured). Needs GNU time at /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
pods=${1:-100000}
flink=${2:-1000}
[[ -x /usr/bin/time ]] || { echo "bench-list: needs GNU time at /usr/bin/time" >&2; exit 1; }
cargo build --release --quiet --bin kubectl-flink
bin=${CARGO_TARGET_DIR:-target}/release/kubectl-flink
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bundle"
python3 - "$dir/bundle/pods.json" "$pods" "$flink" <<'PY'
import json, sys
out, pods, flink = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def pod(i):
    if i < flink:
        app = f"job-{i // 10}"
        labels = {"app": app, "component": "jobmanager" if i % 10 == 0 else "taskmanager",
                  "type": "flink-native-kubernetes"}
        name, image, container = f"{app}-{i % 10}", "flink:1.20", "flink-main-container"
    else:
        labels = {"app": f"web-{i % 1000}", "pod-template-hash": "7d4b9c8f6"}
        name, image, container = f"web-{i}-7d4b9c8f6-x2k4p", "nginx:1.27", "web"
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": f"ns-{(i // 10) % 50}", "labels": labels,
                         "creationTimestamp": "2026-11-28T09:00:00Z"},
            "spec": {"containers": [{"name": container, "image": image}], "nodeName": f"node-{i % 300}"},
            "status": {"phase": "Running", "podIP": "10.0.0.1",
                       "containerStatuses": [{"name": container, "image": image, "imageID": "", "ready": True,
                                              "restartCount": 0,
                                              "state": {"running": {"startedAt": "2026-11-28T09:00:00Z"}}}]}}
with open(out, "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "metadata": {},
               "items": [pod(i) for i in range(pods)]}, f)
PY
size=$(stat -c %s "$dir/bundle/pods.json")
/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" doctor --from "$dir/bundle" -o json >/dev/null 2>"$dir/err" || {
  rc=$?; [[ $rc -le 1 || $rc -eq 4 ]] || { echo "bench-list: doctor exited $rc:" >&2; cat "$dir/err" >&2; exit 1; }
}
# GNU time puts "Command exited with non-zero status N" first when doctor found something.
read -r secs rss_kib < <(tail -n 1 "$dir/time")
awk -v n="$pods" -v f="$flink" -v b="$size" -v s="$secs" -v r="$rss_kib" 'BEGIN {
  printf "doctor --from: one List of %d pods (%d of Flink clusters), %.1f MB of JSON\n", n, f, b / 1e6
  printf "wall: %.2f s   peak RSS: %.1f MB   peak RSS / file: %.1fx (target: under 3x)\n", s, r * 1024 / 1e6, r * 1024 / b }'

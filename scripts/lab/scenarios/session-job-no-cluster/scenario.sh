# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="FlinkSessionJob whose deploymentName names no FlinkDeployment"
SETTLE_TIMEOUT=120
settled() { [[ -n $(kubectl -n analytics get events --field-selector involvedObject.name=enricher -o name 2>/dev/null) ]] && sleep 5; }
# The session cluster doctor's fix creates takes the newest Flink the running operator supports
# (FLK402: flink:1.19 / v1_19 under operator 1.7.0), so the lab must serve that image (lab-kubelet runs
# only the images scripts/lab/image.sh built). The session job itself names no Flink release.
FLINK_VERSION=1.19.1
# A FlinkSessionJob's jar is fetched by the operator, which uploads it to the session cluster: a
# local:// path (a file in the application image) is not fetched (the first heal's session cluster
# ran, then the session job failed on "no file system for scheme 'local'"). So the lab serves its
# job jar over HTTP on the host, where the operator's process runs, and the session job names that
# URL: the one fault left is the missing session cluster.
apply() {
  local port dir=$IMAGES/flink-$FLINK_VERSION/rootfs/opt/flink/usrlib
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$dir" && exec timeout 3600 python3 -m http.server --bind 127.0.0.1 "$port" >"$KUBE_HARNESS_DIR/jar-server.log" 2>&1) &
  wait_for 20 "curl -sf -o /dev/null http://127.0.0.1:$port/lab-job.jar"
  sed "s|local:///opt/flink/usrlib/lab-job.jar|http://127.0.0.1:$port/lab-job.jar|" "$scen/manifests.yaml" | kubectl apply -f - >/dev/null
}
# The operator submits the job through the session JobManager's REST API (jar upload, then run:
# the WebSubmissionExtension of flink-runtime-web, which the lab's image carries as flink-dist does).

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="the job's TaskManager pod is force-deleted while the job runs: the TaskManager is lost"
SETTLE_TIMEOUT=420
apply() {
  kubectl apply -f "$scen/manifests.yaml" >/dev/null
  wait_for 300 "[[ \$(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobStatus.state}') == RUNNING ]]" || return 0
  sleep 10
  kubectl -n analytics delete pod -l component=taskmanager --grace-period=0 --force >/dev/null 2>&1 || true
}
settled() { kubectl -n analytics logs -l component=jobmanager -c flink-main-container --tail=-1 2>/dev/null | grep -Eqi "taskmanager.*(lost|no longer reachable|disconnect|terminated)" && sleep 20; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="the JobManager's Role lacks create on pods"
settled() { kubectl -n analytics logs -l component=jobmanager -c flink-main-container --tail=-1 2>/dev/null | grep -q "cannot create resource" || containers_restarted analytics component=jobmanager 1 flink-main-container; }

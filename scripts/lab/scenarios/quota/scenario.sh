# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="ResourceQuota limits.memory 1536Mi: no room for a TaskManager beside the JobManager"
# Settled: the JobManager asked for a TaskManager and the API server refused it.
settled() { [[ -n $(kubectl -n analytics get events --field-selector reason=FailedCreate -o name 2>/dev/null) ]] || kubectl -n analytics logs -l component=jobmanager -c flink-main-container 2>/dev/null | grep -q "exceeded quota"; }

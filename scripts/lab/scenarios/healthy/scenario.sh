# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="the canonical case fixed: ServiceAccount flink with the chart's job rights; the job runs"
settled() { resource_has analytics flinkdeployment/orders '{.status.jobStatus.state}' && [[ $(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobStatus.state}') == RUNNING ]] && sleep 20; }

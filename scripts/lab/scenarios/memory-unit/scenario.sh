# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="jobManager.resource.memory 1024mi: a unit Flink does not know (operator 1.7.0 reads it as 1024Mi: no fault)"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' && sleep 5 || [[ $(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobStatus.state}' 2>/dev/null) == RUNNING ]]; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="jobManager.resource.memory 1024mi: a unit neither Flink nor Kubernetes knows"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' && sleep 5; }

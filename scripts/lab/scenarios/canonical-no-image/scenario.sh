# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="misnamed JobManager container without an image, default ServiceAccount"
# Settled: the operator has recorded an error on the FlinkDeployment (and kept it for a while).
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' && sleep 20; }

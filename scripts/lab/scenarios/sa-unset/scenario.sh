# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="misnamed JobManager container and no spec.serviceAccount (the operator's validator refuses it)"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' && sleep 20; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="spec.serviceAccount names a ServiceAccount that does not exist"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' || [[ -n $(kubectl -n analytics get events --field-selector reason=FailedCreate -o name 2>/dev/null) ]]; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="LimitRange max 768Mi per container; the JobManager asks for 1Gi"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' || [[ -n $(kubectl -n analytics get events --field-selector reason=FailedCreate -o name 2>/dev/null) ]]; }

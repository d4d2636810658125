# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="namespace enforces PodSecurity restricted; no securityContext in the pod template"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' || [[ -n $(kubectl -n analytics get events --field-selector reason=FailedCreate -o name 2>/dev/null) ]]; }

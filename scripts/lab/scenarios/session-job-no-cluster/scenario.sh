# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="FlinkSessionJob whose deploymentName names no FlinkDeployment"
SETTLE_TIMEOUT=120
settled() { [[ -n $(kubectl -n analytics get events --field-selector involvedObject.name=enricher -o name 2>/dev/null) ]] && sleep 5; }

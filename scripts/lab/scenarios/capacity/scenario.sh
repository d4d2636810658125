# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="a TaskManager that asks for more CPU than any node has"
settled() { [[ -n $(kubectl -n analytics get events --field-selector reason=FailedScheduling -o name 2>/dev/null) ]] && sleep 20; }

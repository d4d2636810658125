# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="a nodeSelector in spec.podTemplate that no node matches"
settled() { [[ -n $(kubectl -n analytics get events --field-selector reason=FailedScheduling -o name 2>/dev/null) ]] && sleep 20; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="FlinkSessionJob whose jarURI the operator cannot fetch, on a running session cluster"
SETTLE_TIMEOUT=240
settled() { resource_has analytics flinksessionjob/orders '{.status.error}' && sleep 10; }

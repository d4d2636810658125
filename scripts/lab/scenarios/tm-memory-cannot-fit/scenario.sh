# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="TaskManager memory 600m: less than Flink's fixed parts need"
SETTLE_TIMEOUT=180
# Settled: the operator reports an error, or the JobManager has restarted twice.
settled() {
  resource_has analytics flinkdeployment/orders '{.status.error}' \
    || containers_restarted analytics component=jobmanager 2 flink-main-container
}

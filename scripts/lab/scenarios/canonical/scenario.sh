# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="misnamed JobManager container (with an image) and the default ServiceAccount"
# Settled: both containers of the JobManager pod have restarted twice.
settled() { containers_restarted analytics component=jobmanager 2 flink-job-manager flink-main-container; }

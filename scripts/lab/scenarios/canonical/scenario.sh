# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="misnamed JobManager container (with an image) and the default ServiceAccount"
# Settled: both containers of the JobManager pod have restarted twice, and the operator has
# observed the crash loop and written it to status.error (a later reconcile than the restarts:
# without waiting for it, the live diagnosis raced the operator and missed FLK401), with the
# JobManager deployment in ERROR (the operator flips it back to READY between its crash-loop
# checks; diagnosed then, FLK401 is a warning and ranks after FLK102, and --check failed).
settled() {
  containers_restarted analytics component=jobmanager 2 flink-job-manager flink-main-container &&
    resource_has analytics flinkdeployment/orders '{.status.error}' &&
    [[ $(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobManagerDeploymentStatus}') == ERROR ]]
}

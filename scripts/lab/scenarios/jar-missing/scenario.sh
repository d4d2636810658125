# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="job.jarURI names a jar that is not in the image"
# Settled: the operator has seen the crash loop (its status no longer waits on a deployment).
settled() {
  containers_restarted analytics component=jobmanager 2 flink-main-container \
    && [[ $(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobManagerDeploymentStatus}') == ERROR ]]
}
# Which jar is the job's is for a person to say: doctor's fix must name the field.
PERSON_MUST_SET="spec.job.jarURI (the job's jar inside the image)"

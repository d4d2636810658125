# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="job.initialSavepointPath names a savepoint that does not exist"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container || [[ $(kubectl -n analytics get flinkdeployment orders -o jsonpath='{.status.jobStatus.state}') == FAILED ]]; }
PERSON_MUST_SET="spec.job.initialSavepointPath (a savepoint that exists, or none)"

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="JobManager as the namespace's default ServiceAccount (pod template right)"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }

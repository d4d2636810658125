# shellcheck shell=bash
# Flink's native Kubernetes mode without the operator: the user starts the cluster with the Flink
# client (native_application in scripts/lab.sh), and the JobManager runs as the namespace's default
# ServiceAccount.
NAMESPACE=analytics
DESCRIPTION="Flink 2.2 native application mode through the Flink client, default ServiceAccount"
NEEDS_OPERATOR=
# Flink 2.2: the same mistake with the newest Flink line Maven Central serves.
FLINK_VERSION=2.2.0
apply() { native_application analytics orders; }
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
# Healed (--heal): no FlinkDeployment here; the JobManager's REST API lists the job RUNNING.
healed() { native_job_running analytics orders; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="Kubernetes HA on; the JobManager's account may not use ConfigMaps"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }

# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="env.java.opts.jobmanager -XX:+UseG1GCX: the JobManager's JVM refuses the option and exits 1"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }

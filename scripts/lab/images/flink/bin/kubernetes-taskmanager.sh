#!/usr/bin/env bash
# Native Kubernetes TaskManager: the JobManager's resource manager passes the JVM memory flags in
# FLINK_TM_JVM_MEM_OPTS and the dynamic properties as arguments.
. "$(dirname "$0")/config.sh"
if [ -z "${FLINK_ENV_JAVA_OPTS:-}" ] && [ -z "${FLINK_ENV_JAVA_OPTS_TM:-}" ]; then
    export JVM_ARGS="${JVM_ARGS:-} -XX:+UseG1GC"
fi
export JVM_ARGS="${JVM_ARGS:-} ${FLINK_TM_JVM_MEM_OPTS:-}"
export FLINK_ENV_JAVA_OPTS="$(conf_java_opts taskmanager) ${FLINK_ENV_JAVA_OPTS:-} ${FLINK_ENV_JAVA_OPTS_TM:-}"
exec_console kubernetes-taskmanager --configDir "$FLINK_CONF_DIR" "$@"

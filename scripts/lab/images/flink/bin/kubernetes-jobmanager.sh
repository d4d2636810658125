#!/usr/bin/env bash
# Native Kubernetes JobManager: `kubernetes-jobmanager.sh kubernetes-session|kubernetes-application [args]`,
# as Flink's KubernetesJobManagerFactory starts it (through `bash -c`).
. "$(dirname "$0")/config.sh"
export FLINK_ENV_JAVA_OPTS="$(conf_java_opts jobmanager) ${FLINK_ENV_JAVA_OPTS:-} ${FLINK_ENV_JAVA_OPTS_JM:-}"
parse_resource_params GET_JM_RESOURCE_PARAMS "${@:2}"
# shellcheck disable=SC2206
args=($DYNAMIC_PARAMETERS "${@:2}")
exec_console "$1" "${args[@]}"

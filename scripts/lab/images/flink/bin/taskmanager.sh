#!/usr/bin/env bash
# Standalone TaskManager in the foreground: `taskmanager.sh start-foreground [args]`.
. "$(dirname "$0")/config.sh"
[ "$1" = start-foreground ] || { echo "Usage: taskmanager.sh start-foreground [args]" >&2; exit 1; }
export FLINK_ENV_JAVA_OPTS="$(conf_java_opts taskmanager) ${FLINK_ENV_JAVA_OPTS:-} ${FLINK_ENV_JAVA_OPTS_TM:-}"
parse_resource_params GET_TM_RESOURCE_PARAMS "${@:2}"
# shellcheck disable=SC2206
args=(--configDir "$FLINK_CONF_DIR" $DYNAMIC_PARAMETERS "${@:2}")
exec_console taskexecutor "${args[@]}"

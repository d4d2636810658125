#!/usr/bin/env bash
# Standalone JobManager in the foreground: `jobmanager.sh start-foreground [args]`.
. "$(dirname "$0")/config.sh"
[ "$1" = start-foreground ] || { echo "Usage: jobmanager.sh start-foreground [args]" >&2; exit 1; }
export FLINK_ENV_JAVA_OPTS="$(conf_java_opts jobmanager) ${FLINK_ENV_JAVA_OPTS:-} ${FLINK_ENV_JAVA_OPTS_JM:-}"
parse_resource_params GET_JM_RESOURCE_PARAMS "${@:2}"
# shellcheck disable=SC2206
args=(--configDir "$FLINK_CONF_DIR" $DYNAMIC_PARAMETERS "${@:2}")
exec_console standalonesession "${args[@]}"

#!/usr/bin/env bash
# The lab operator image's /docker-entrypoint.sh: as the operator's own image starts it
# (apache/flink-kubernetes-operator@release-1.7.0:docker-entrypoint.sh, run by the chart as
# `/docker-entrypoint.sh operator`). Written for the lab; the usage lines are the image's, verbatim.
cd /flink-kubernetes-operator || exit
if [ "$1" = "help" ]; then
    printf "Usage: $(basename "$0") (operator|webhook)\n"
    printf "    Or $(basename "$0") help\n\n"
    exit 0
elif [ "$1" = "operator" ]; then
    echo "Starting Operator"
    # shellcheck disable=SC2086
    exec java -cp "/flink-kubernetes-operator/lib/*" $LOG_CONFIG $JVM_ARGS org.apache.flink.kubernetes.operator.FlinkOperator
elif [ "$1" = "webhook" ]; then
    echo "Starting Webhook"
    # shellcheck disable=SC2086
    exec java -cp "/flink-kubernetes-operator/lib/*" $LOG_CONFIG $JVM_ARGS org.apache.flink.kubernetes.operator.admission.FlinkOperatorWebhook
fi
exec "$@"

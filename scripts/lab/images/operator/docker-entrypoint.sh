#!/usr/bin/env bash
# The lab operator image's /docker-entrypoint.sh: as the operator's own image starts it
# (apache/flink-kubernetes-operator@release-1.7.0:docker-entrypoint.sh, run by the chart as
# `/docker-entrypoint.sh operator`). Written for the lab; the usage lines are the image's, verbatim.
cd /flink-kubernetes-operator || exit
# The operator's image puts the standalone jar and the operator's own jar before its lib/ on the
# class path (`-cp "./$KUBERNETES_STANDALONE_JAR:./$OPERATOR_JAR:$OPERATOR_LIB/*"`,
# apache/flink-kubernetes-operator@release-1.10.0:docker-entrypoint.sh): the operator jar carries
# classes of Flink's of its own (1.10.0: rest.messages.job.metrics.AggregatedMetric, whose
# constructor differs from flink-runtime's), which must win over those in lib/.
first_jars() {
    local j
    for j in /flink-kubernetes-operator/lib/flink-kubernetes-standalone-[0-9]*.jar /flink-kubernetes-operator/lib/flink-kubernetes-operator-[0-9]*.jar; do
        [ -e "$j" ] && printf '%s:' "$j"
    done
}
if [ "$1" = "help" ]; then
    printf "Usage: $(basename "$0") (operator|webhook)\n"
    printf "    Or $(basename "$0") help\n\n"
    exit 0
elif [ "$1" = "operator" ]; then
    echo "Starting Operator"
    # shellcheck disable=SC2086
    exec java -cp "$(first_jars)/flink-kubernetes-operator/lib/*" $LOG_CONFIG $JVM_ARGS org.apache.flink.kubernetes.operator.FlinkOperator
elif [ "$1" = "webhook" ]; then
    echo "Starting Webhook"
    # shellcheck disable=SC2086
    exec java -cp "$(first_jars)/flink-kubernetes-operator/lib/*" $LOG_CONFIG $JVM_ARGS org.apache.flink.kubernetes.operator.admission.FlinkOperatorWebhook
fi
exec "$@"

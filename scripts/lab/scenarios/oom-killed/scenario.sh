# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="env.java.opts.taskmanager -Xmx1536m -XX:+AlwaysPreTouch in a 1024m TaskManager pod: OOMKilled"
SETTLE_TIMEOUT=360
settled() { kubectl -n analytics get pods -l component=taskmanager -o jsonpath='{.items[*].status.containerStatuses[*].state.terminated.reason}' 2>/dev/null | grep -q OOMKilled && sleep 20; }
PERSON_MUST_SET="flinkConfiguration env.java.opts.taskmanager (no heap flags: Flink sizes the heap from spec.taskManager.resource.memory)"

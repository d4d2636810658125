# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="flinkConfiguration taskmanager.numberOfTaskSlots \"two\": a value Flink cannot parse"
settled() { resource_has analytics flinkdeployment/orders '{.status.error}' && sleep 5 || containers_restarted analytics component=jobmanager 2 flink-main-container; }
PERSON_MUST_SET="flinkConfiguration taskmanager.numberOfTaskSlots (an integer)"

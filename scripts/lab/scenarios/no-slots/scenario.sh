# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="parallelism 2, two slots per TaskManager, slotmanager.number-of-slots.max 1: NoResourceAvailableException"
SETTLE_TIMEOUT=600
settled() { kubectl -n analytics logs -l component=jobmanager -c flink-main-container --tail=-1 2>/dev/null | grep -q NoResourceAvailableException && sleep 20; }

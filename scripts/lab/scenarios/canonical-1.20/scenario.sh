# shellcheck shell=bash
# canonical on Flink 1.20.1: the settling and the person's field are canonical's.
# shellcheck source=../canonical/scenario.sh
. "$LAB/scenarios/canonical/scenario.sh"
FLINK_VERSION=1.20.1
DESCRIPTION="$DESCRIPTION (Flink 1.20.1)"

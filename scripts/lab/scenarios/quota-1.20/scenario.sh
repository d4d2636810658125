# shellcheck shell=bash
# quota on Flink 1.20.1: the settling and the person's field are quota's.
# shellcheck source=../quota/scenario.sh
. "$LAB/scenarios/quota/scenario.sh"
FLINK_VERSION=1.20.1
DESCRIPTION="$DESCRIPTION (Flink 1.20.1)"

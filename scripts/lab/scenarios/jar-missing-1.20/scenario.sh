# shellcheck shell=bash
# jar-missing on Flink 1.20.1: the settling and the person's field are jar-missing's.
# shellcheck source=../jar-missing/scenario.sh
. "$LAB/scenarios/jar-missing/scenario.sh"
FLINK_VERSION=1.20.1
DESCRIPTION="$DESCRIPTION (Flink 1.20.1)"

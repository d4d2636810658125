# shellcheck shell=bash
# tm-memory-cannot-fit on Flink 1.20.1: the settling and the person's field are tm-memory-cannot-fit's.
# shellcheck source=../tm-memory-cannot-fit/scenario.sh
. "$LAB/scenarios/tm-memory-cannot-fit/scenario.sh"
FLINK_VERSION=1.20.1
DESCRIPTION="$DESCRIPTION (Flink 1.20.1)"

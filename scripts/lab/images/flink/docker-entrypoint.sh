#!/usr/bin/env bash
# The lab image's /docker-entrypoint.sh: behaves as the official Flink image's entrypoint does
# (apache/flink-docker@983be3455636:1.20/scala_2.12-java17-ubuntu/docker-entrypoint.sh, with
# ENTRYPOINT ["/docker-entrypoint.sh"] and CMD ["help"] in its Dockerfile): `help` prints the usage
# and exits 0 (what a container with the Flink image and no command does), `jobmanager`,
# `standalone-job` and `taskmanager` start those processes in the foreground, anything else is
# run as given (the native Kubernetes mode passes `bash -c "kubernetes-jobmanager.sh ..."`).
# Written for the lab, not copied: the usage lines are the image's, verbatim.

if [ "$1" = "help" ]; then
    printf "Usage: $(basename "$0") (jobmanager|standalone-job|taskmanager|history-server)\n"
    printf "    Or $(basename "$0") help\n\n"
    printf "By default, Flink image adopts jemalloc as default memory allocator. This behavior can be disabled by setting the 'DISABLE_JEMALLOC' environment variable to 'true'.\n"
    exit 0
elif [ "$1" = "jobmanager" ]; then
    echo "Starting Job Manager"
    exec "$FLINK_HOME/bin/jobmanager.sh" start-foreground "${@:2}"
elif [ "$1" = "standalone-job" ]; then
    echo "Starting Job Manager"
    exec "$FLINK_HOME/bin/standalone-job.sh" start-foreground "${@:2}"
elif [ "$1" = "taskmanager" ]; then
    echo "Starting Task Manager"
    exec "$FLINK_HOME/bin/taskmanager.sh" start-foreground "${@:2}"
fi
exec "$@"

# Shared by the lab image's launchers: what flink-dist's bin/config.sh provides them (the real
# scripts ship only in Flink's binary release, which Maven Central does not serve).
FLINK_HOME=${FLINK_HOME:-/opt/flink}
FLINK_CONF_DIR=${FLINK_CONF_DIR:-$FLINK_HOME/conf}
FLINK_BIN_DIR=$FLINK_HOME/bin
FLINK_LOG_DIR=${FLINK_LOG_DIR:-$FLINK_HOME/log}
FLINK_LIB_DIR=$FLINK_HOME/lib
FLINK_PLUGINS_DIR=${FLINK_PLUGINS_DIR:-$FLINK_HOME/plugins}
FLINK_OPT_DIR=$FLINK_HOME/opt
export FLINK_HOME FLINK_CONF_DIR FLINK_BIN_DIR FLINK_LOG_DIR FLINK_LIB_DIR FLINK_PLUGINS_DIR FLINK_OPT_DIR
JAVA_RUN=${JAVA_HOME:+$JAVA_HOME/bin/}java

flink_classpath() {
    local cp="" jar
    for jar in "$FLINK_HOME"/lib/*.jar; do cp+="${cp:+:}$jar"; done
    echo "$cp"
}

# The configuration file flattened to `key: value` lines: Flink 1.19+ writes config.yaml as nested
# YAML (env: java: default-opts: all: ...), 1.18's flink-conf.yaml is flat; both become flat here.
flat_conf() {
    local f
    for f in "$FLINK_CONF_DIR/config.yaml" "$FLINK_CONF_DIR/flink-conf.yaml"; do
        [ -f "$f" ] || continue
        awk '
            /^[[:space:]]*(#|$)/ { next }
            {
                match($0, /^ */); ind = RLENGTH; line = substr($0, ind + 1)
                c = index(line, ":"); if (c == 0) next
                k = substr(line, 1, c - 1); v = substr(line, c + 1); sub(/^[[:space:]]+/, "", v)
                while (n > 0 && ind <= inds[n]) n--
                n++; inds[n] = ind; keys[n] = k
                if (v != "") { full = keys[1]; for (i = 2; i <= n; i++) full = full "." keys[i]; print full ": " v }
            }' "$f"
        return
    done
}

# One key of the configuration, quotes removed; empty when absent.
read_conf() { # key
    flat_conf | grep -F "$1: " | grep -E "^$(printf '%s' "$1" | sed 's/[.]/[.]/g'): " | tail -n1 \
        | sed -E 's/^[^:]*:[[:space:]]*//; s/^["'"'"'](.*)["'"'"'][[:space:]]*$/\1/'
}

# The JVM options of the configuration, as flink-dist's config.sh assembles them:
# env.java.default-opts.all (1.19+), env.java.opts.all, then the component's own.
conf_java_opts() { # jobmanager|taskmanager
    echo "$(read_conf env.java.default-opts.all) $(read_conf env.java.opts.all) $(read_conf env.java.opts) $(read_conf "env.java.opts.$1")"
}

# BashJavaUtils computes the JVM memory flags and dynamic properties from the configuration, as
# flink-dist's config.sh has it do; its failure is the real "cannot fit" error text.
run_bash_java_utils() { # COMMAND [dynamic args...]
    "$JAVA_RUN" -classpath "$(flink_classpath)" org.apache.flink.runtime.util.bash.BashJavaUtils \
        "$1" --configDir "$FLINK_CONF_DIR" "${@:2}" 2>&1 | tail -n 1000
}

# Sets JVM_ARGS and DYNAMIC_PARAMETERS from BashJavaUtils' two result lines, or exits 1 with the
# messages flink-dist's config.sh prints.
parse_resource_params() { # GET_JM_RESOURCE_PARAMS|GET_TM_RESOURCE_PARAMS [dynamic args...]
    local output results
    output=$(run_bash_java_utils "$@")
    results=$(echo "$output" | grep '^BASH_JAVA_UTILS_EXEC_RESULT:' | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://')
    if [[ $(echo "$results" | grep -c .) -ne 2 ]]; then
        echo "[ERROR] Could not get JVM parameters and dynamic configurations properly."
        echo "[ERROR] Raw output from BashJavaUtils:"
        echo "$output"
        exit 1
    fi
    export JVM_ARGS="${JVM_ARGS:-} $(echo "$results" | head -n1)"
    DYNAMIC_PARAMETERS=$(echo "$results" | tail -n1)
}

# flink-console.sh: the entry point class of each service, and the console logging set-up.
exec_console() { # SERVICE [args...]
    local class
    case $1 in
        taskexecutor) class=org.apache.flink.runtime.taskexecutor.TaskManagerRunner ;;
        standalonesession) class=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint ;;
        standalonejob) class=org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint ;;
        kubernetes-session) class=org.apache.flink.kubernetes.entrypoint.KubernetesSessionClusterEntrypoint ;;
        kubernetes-application) class=org.apache.flink.kubernetes.entrypoint.KubernetesApplicationClusterEntrypoint ;;
        kubernetes-taskmanager) class=org.apache.flink.kubernetes.taskmanager.KubernetesTaskExecutorRunner ;;
        *) echo "Unknown service '$1'. Usage: flink-console.sh (taskexecutor|standalonesession|standalonejob|kubernetes-session|kubernetes-application|kubernetes-taskmanager) [args]." >&2; exit 1 ;;
    esac
    mkdir -p "$FLINK_LOG_DIR" 2>/dev/null
    local log="$FLINK_LOG_DIR/flink--$1-0-${HOSTNAME:-lab}.log"
    # shellcheck disable=SC2086
    exec "$JAVA_RUN" $JVM_ARGS ${FLINK_ENV_JAVA_OPTS:-} "-Dlog.file=$log" \
        "-Dlog4j.configuration=file:$FLINK_CONF_DIR/log4j-console.properties" \
        "-Dlog4j.configurationFile=file:$FLINK_CONF_DIR/log4j-console.properties" \
        "-Dlogback.configurationFile=file:$FLINK_CONF_DIR/logback-console.xml" \
        -classpath "$(flink_classpath)" $class "${@:2}"
}

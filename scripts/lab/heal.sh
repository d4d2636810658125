# shellcheck shell=bash
# `scripts/lab.sh run NAME --heal`: once the failure has settled, heal it as a user would with
# doctor's fixes, and time it. Sourced by scripts/lab.sh, which defines NAMESPACE, $plugin, $scen,
# wait_for and the scenario's settled() (and, optionally, healed()).
#
# Each round: `doctor --fix` (the objects, applied with `kubectl apply -f -`) and `doctor --fix=run`
# (the commands, run one by one), a placeholder in either filled in from the scenario's `answers`
# file; then wait until the deployment is healed, or until the failure settles again (a pod has
# restarted twice since the fix, or the Flink resource reports a new error, or HEAL_ROUND_TIMEOUT
# passes), and diagnose again. The rounds go on while a round brings a fix not applied before
# (the canonical double fault may need two: the container name, then the ServiceAccount and its
# Role). Healed: healed() holds (by default every FlinkDeployment READY and STABLE with its job
# RUNNING, every FlinkSessionJob STABLE and RUNNING) and then `doctor` reports no critical or
# warning finding. The transcript of every round goes to HEAL_LOG.
#
# answers: what only a person knows, for the fixes that mark it with a placeholder. One line each,
# `PLACEHOLDER=VALUE`: every occurrence of PLACEHOLDER (as the fix prints it, brackets and all,
# e.g. `<spec.job.jarURI>`) in the fix becomes VALUE; `#` starts a comment. `--fix=run` prints a
# command with a placeholder commented out behind `# fill in each <...>, then run: `; once filled it
# runs like any other. A fix with a `<...>` left unanswered is not applied: the heal stops and says
# which placeholder a person must fill.
#
# A scenario whose fault only a person can decide says so in its scenario.sh:
#   PERSON_MUST_SET="spec.job.jarURI (the jar's path in the image)"
# --heal still tries; the transcript and the summary line name that field when it does not heal.

HEAL_ROUNDS=${HEAL_ROUNDS:-4}
HEAL_ROUND_TIMEOUT=${HEAL_ROUND_TIMEOUT:-240}
# After the last fix: how long the deployment may take to come up (the operator's reconcile, a
# JobManager and a TaskManager start, the job is submitted).
HEAL_UP_TIMEOUT=${HEAL_UP_TIMEOUT:-300}

hlog() { printf '%s\n' "$*" | tee -a "$HEAL_LOG" >&2; }
# A command's output into the transcript, indented.
hblock() { sed 's/^/    /' | tee -a "$HEAL_LOG" >&2; }
hstamp() { printf '[+%3ds]' $(($(date +%s) - HEAL_T0)); }

# Every FlinkDeployment of the namespace READY and STABLE, with its job (if it has one) RUNNING;
# every FlinkSessionJob STABLE and RUNNING. A scenario without the operator defines its own healed().
flink_resources_healed() {
  local lines kind jm life jar job
  lines=$(kubectl -n "$NAMESPACE" get flinkdeployments,flinksessionjobs -o jsonpath='{range .items[*]}{.kind}|{.status.jobManagerDeploymentStatus}|{.status.lifecycleState}|{.spec.job.jarURI}|{.status.jobStatus.state}{"\n"}{end}' 2>/dev/null) || return 1
  [[ -n $lines ]] || return 1
  while IFS='|' read -r kind jm life jar job; do
    case $kind in
      FlinkDeployment) [[ $jm == READY && $life == STABLE && (-z $jar || $job == RUNNING) ]] || return 1 ;;
      FlinkSessionJob) [[ $life == STABLE && $job == RUNNING ]] || return 1 ;;
    esac
  done <<<"$lines"
}

# Flink's native mode (no operator): the JobManager of CLUSTER_ID answers on its REST port (the
# pod's IP: lab-kubelet runs pods as local processes) with a RUNNING job.
native_job_running() { # ns cluster-id
  local ip
  ip=$(kubectl -n "$1" get pods -l "app=$2,component=jobmanager" -o jsonpath='{.items[?(@.status.phase=="Running")].status.podIP}' 2>/dev/null)
  [[ -n $ip ]] || return 1
  curl -sf --max-time 3 "http://${ip%% *}:8081/jobs/overview" | grep -q '"state":"RUNNING"'
}

# What the Flink resources and pods of the namespace show, one line each, for the transcript.
heal_state() {
  kubectl -n "$NAMESPACE" get flinkdeployments,flinksessionjobs -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}: jobManagerDeploymentStatus={.status.jobManagerDeploymentStatus} lifecycleState={.status.lifecycleState} job={.status.jobStatus.state}{"\n"}{end}' 2>/dev/null
  kubectl -n "$NAMESPACE" get pods -o jsonpath='{range .items[*]}Pod/{.metadata.name}: {.status.phase}{range .status.containerStatuses[*]} {.name}(ready={.ready},restarts={.restartCount}){end}{"\n"}{end}' 2>/dev/null
}

# Each pod of the namespace with its containers' restarts added up, one `name total` a line.
pod_restarts() {
  local pod counts t r
  kubectl -n "$NAMESPACE" get pods -o jsonpath='{range .items[*]}{.metadata.name}|{.status.containerStatuses[*].restartCount}{"\n"}{end}' 2>/dev/null |
    while IFS='|' read -r pod counts; do
      t=0
      for r in $counts; do t=$((t + r)); done
      [[ -n $pod ]] && echo "$pod $t"
    done
}

# The failure has settled again since the fix: a pod has restarted twice more than it had then
# (BEFORE: pod_restarts at the fix; a pod made since starts from 0; a crash-looping pod the fix did
# not replace counts too), or a Flink resource reports an error other than ERRORS (those at the fix),
# or a JobManager not in JOBMANAGERS-BEFORE (default BEFORE) is stuck (new_jm_stuck).
resettled() { # before errors [jobmanagers-before] [pods-before]
  local pod t was
  while read -r pod t; do
    was=$(awk -v p="$pod" '$1 == p { print $2 }' "$1")
    ((t - ${was:-0} >= 2)) && return 0
  done < <(pod_restarts)
  new_jm_stuck "${3:-$1}" && return 0
  new_pod_stuck "${4:-$1}" && return 0
  local now
  now=$(flink_errors)
  [[ -n $now && $now != "$2" ]]
}

# A JobManager pod made since the fix (not in BEFORE) that stays up stuck: its application FAILED
# (ApplicationDispatcherBootstrap; the operator keeps the JobManager up), or it could not create a
# TaskManager pod (KubernetesResourceManagerDriver's `Could not create pod`: a quota, a LimitRange,
# a Role without create), or a TaskManager it asked for died (ActiveResourceManager's `Worker <pod>
# is terminated. Diagnostics: Pod terminated, ...`: it deletes the dead pod, an OOMKilled one say,
# and asks for another). None of them restarts a pod, and operator 1.10.0 reports none in the
# status while it cannot observe an ended job.
new_jm_stuck() { # before
  local pod log
  for pod in $(kubectl -n "$NAMESPACE" get pods -l component=jobmanager -o jsonpath='{.items[*].metadata.name}' 2>/dev/null); do
    awk -v p="$pod" '$1 == p { f = 1 } END { exit !f }' "$1" && continue
    # Read whole, then searched: `kubectl logs | grep -q` fails under pipefail when grep stops
    # reading at the first match (kubectl gets SIGPIPE).
    log=$(kubectl -n "$NAMESPACE" logs "$pod" -c flink-main-container --tail=-1 2>/dev/null) || true
    grep -q -e "Application FAILED" -e "Could not create pod" -e "is terminated. Diagnostics: Pod terminated" <<<"$log" && return 0
  done
  return 1
}

# A pod made since the fix (not in BEFORE) that cannot start: unschedulable (the scheduler's
# PodScheduled=False, reason Unschedulable), or a container waiting on what does not heal by
# itself (an image that cannot be pulled, a missing ConfigMap or Secret). A TaskManager of the
# fixed spec stuck so restarts nothing, and the operator's status may not say it.
new_pod_stuck() { # before
  local pod scheduled waiting
  while IFS='|' read -r pod scheduled waiting; do
    [[ -z $pod ]] && continue
    awk -v p="$pod" '$1 == p { f = 1 } END { exit !f }' "$1" && continue
    [[ $scheduled == *Unschedulable* ]] && return 0
    [[ $waiting =~ (ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError|CreateContainerError) ]] && return 0
  done < <(kubectl -n "$NAMESPACE" get pods -o jsonpath='{range .items[*]}{.metadata.name}|{.status.conditions[?(@.type=="PodScheduled")].reason}|{.status.containerStatuses[*].state.waiting.reason}{"\n"}{end}' 2>/dev/null)
  return 1
}

flink_errors() {
  kubectl -n "$NAMESPACE" get flinkdeployments,flinksessionjobs -o jsonpath='{range .items[*]}{.metadata.name}: {.status.error}{"\n"}{end}' 2>/dev/null | grep -v ': $' || true
}

# The fix as a set of lines to compare rounds by: comments dropped, restartNonce values blanked
# (each diagnosis proposes a new one: a redeploy alone is no progress).
fix_lines() { grep -v '^#' | sed -E 's/"restartNonce":[0-9]+/"restartNonce":N/' | grep -v '^[[:space:]]*$' || true; }

# Fills the answers into a fix (stdin); fails, naming it, on a placeholder left open.
fill_answers() {
  local text key value
  text=$(cat)
  if [[ -f $scen/answers ]]; then
    while IFS= read -r line; do
      [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
      key=${line%%=*}
      value=${line#*=}
      text=${text//"$key"/"$value"}
    done <"$scen/answers"
  fi
  # A command doctor marked for a person to fill (FILL_IN in src/finding.rs: commented out behind
  # `# fill in each <...>, then run: `) is a command again once its placeholders are answered.
  text=$(printf '%s\n' "$text" | sed 's/^# fill in each <\.\.\.>, then run: //')
  printf '%s\n' "$text"
  # A placeholder: `<words>` outside a comment (shell redirections in a fix are never written so).
  local open
  open=$(printf '%s\n' "$text" | grep -v '^[[:space:]]*#' | grep -oE '<[A-Za-z][^<>]*>' | sort -u || true)
  [[ -z $open ]] || {
    printf '%s\n' "$open" >"$HEAL_DIR/open-placeholders"
    return 1
  }
}

heal_healed() {
  if declare -f healed >/dev/null; then healed; else flink_resources_healed; fi
}

# Heals the settled failure; prints the summary line; 0 when healed.
cmd_heal() {
  HEAL_DIR=$KUBE_HARNESS_DIR/heal
  mkdir -p "$HEAL_DIR"
  HEAL_LOG=$HEAL_DIR/heal.txt
  : >"$HEAL_LOG"
  HEAL_T0=$(date +%s)
  local applied=$HEAL_DIR/applied round=0 outcome= why= waited_up=
  : >"$applied"
  {
    echo "# The heal transcript of the reality lab (scripts/lab.sh run $name --heal); not read by doctor."
    echo "scenario: $name"
    echo "description: $DESCRIPTION"
    echo "healed on: $(date -u +%Y-%m-%dT%H:%M:%SZ), kubectl-flink $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [[ -n $NEEDS_OPERATOR ]]; then echo "flink: $FLINK_VERSION; operator: $OPERATOR_VERSION"; else echo "flink: $FLINK_VERSION; operator: none (Flink's native mode)"; fi
    [[ -n ${PERSON_MUST_SET:-} ]] && echo "a person must set: $PERSON_MUST_SET"
    [[ -f $scen/answers ]] && { echo "answers (scripts/lab/scenarios/$name/answers):"; grep -v '^[[:space:]]*#' "$scen/answers" | grep -v '^[[:space:]]*$' | sed 's/^/    /'; }
  } >>"$HEAL_LOG"
  say "healing $name with doctor's fixes (transcript: $HEAL_LOG)"
  while :; do
    if heal_healed; then break; fi
    if ((round >= HEAL_ROUNDS)); then why="still not healed after $HEAL_ROUNDS rounds"; break; fi
    round=$((round + 1))
    hlog ""
    hlog "== round $round $(hstamp): kubectl flink doctor -n $NAMESPACE"
    heal_state | hblock
    "$plugin" doctor -n "$NAMESPACE" --color never 2>&1 | hblock || true
    local yaml cmds rc=0
    yaml=$("$plugin" doctor -n "$NAMESPACE" --fix 2>/dev/null) || true
    cmds=$("$plugin" doctor -n "$NAMESPACE" --fix=run 2>/dev/null) || true
    local filled_yaml filled_cmds
    filled_yaml=$(printf '%s\n' "$yaml" | fill_answers) || rc=1
    filled_cmds=$(printf '%s\n' "$cmds" | fill_answers) || rc=1
    if ((rc)); then
      why="the fix needs what only a person knows, and answers has none for: $(paste -sd ' ' "$HEAL_DIR/open-placeholders")"
      hlog "$(hstamp) $why"
      break
    fi
    # Progress: a fix line not applied in an earlier round.
    local new
    new=$( { printf '%s\n' "$filled_yaml"; printf '%s\n' "$filled_cmds"; } | fix_lines | grep -vxFf "$applied" || true)
    if [[ -z $new ]]; then
      if [[ -z $(printf '%s\n%s\n' "$filled_yaml" "$filled_cmds" | fix_lines) ]]; then
        # Nothing to fix while the last fix is still coming up (operator 1.10.0 redeploys only
        # once the ended job's JobManager Deployment is gone): give it HEAL_UP_TIMEOUT, once per
        # round that applied a fix (a fix whose spec came up can show the next fault).
        if [[ -z $waited_up && -s $applied ]]; then
          waited_up=1
          hlog "$(hstamp) doctor proposes no fix: waiting up to ${HEAL_UP_TIMEOUT}s for the deployment to come up"
          pod_restarts >"$HEAL_DIR/restarts-up"
          local up_errors up_deadline=$(($(date +%s) + HEAL_UP_TIMEOUT)) up_again=
          up_errors=$(flink_errors)
          while (($(date +%s) < up_deadline)); do
            heal_healed && break
            # Every JobManager now is the last fix's: any of them stuck counts.
            if resettled "$HEAL_DIR/restarts-up" "$up_errors" /dev/null "$HEAL_DIR/restarts-$((round - 1))"; then up_again=1; break; fi
            sleep 5
          done
          heal_healed && break
          if [[ -n $up_again ]]; then sleep 15; continue; fi
        fi
        why="doctor proposes no fix to apply"
      else
        why="doctor proposes nothing it has not proposed (and had applied) before"
      fi
      hlog "$(hstamp) no progress: $why"
      break
    fi
    local errors
    pod_restarts >"$HEAL_DIR/restarts-$round"
    errors=$(flink_errors)
    if [[ -n $(printf '%s\n' "$filled_yaml" | fix_lines) ]]; then
      hlog "$(hstamp) kubectl flink doctor -n $NAMESPACE --fix | kubectl apply -f -"
      printf '%s\n' "$filled_yaml" | hblock
      kubectl apply -f - <<<"$filled_yaml" 2>&1 | hblock || true
    fi
    local c
    while IFS= read -r c; do
      [[ -z $c || $c == \#* ]] && continue
      hlog "$(hstamp) \$ $c"
      bash -c "$c" 2>&1 | hblock || true
    done <<<"$filled_cmds"
    { printf '%s\n' "$filled_yaml"; printf '%s\n' "$filled_cmds"; } | fix_lines >>"$applied"
    waited_up=
    # Wait: healed, or the failure settles again.
    local deadline=$(($(date +%s) + HEAL_ROUND_TIMEOUT)) again=
    while (($(date +%s) < deadline)); do
      heal_healed && break
      if resettled "$HEAL_DIR/restarts-$round" "$errors"; then again=1; break; fi
      sleep 5
    done
    if [[ -z $again ]] && ! heal_healed; then hlog "$(hstamp) not healed and no new failure within ${HEAL_ROUND_TIMEOUT}s"; fi
    # A new error may still be in the making (the operator's next reconcile): let it land.
    [[ -n $again ]] && sleep 15
  done
  if [[ -z $why ]]; then
    local t_up=$(($(date +%s) - HEAL_T0))
    hlog ""
    hlog "== $(hstamp) healed(): the deployment is up; kubectl flink doctor -n $NAMESPACE must report no critical or warning"
    heal_state | hblock
    # The last fix's old pods may take a moment to go: a few tries.
    local tries=0 drc=1 out
    while ((tries < 6)); do
      drc=0
      out=$("$plugin" doctor -n "$NAMESPACE" --color never --fail-on warning 2>&1) || drc=$?
      ((drc == 0)) && break
      tries=$((tries + 1))
      sleep 10
    done
    printf '%s\n' "$out" | hblock
    if ((drc == 0)); then
      outcome="healed in $(($(date +%s) - HEAL_T0))s (up after ${t_up}s), $round round(s) of fixes"
    else
      why="the deployment runs but doctor still reports a warning or critical finding (exit $drc)"
    fi
  fi
  local summary
  if [[ -n $outcome ]]; then
    summary="heal: $name: $outcome"
  else
    summary="heal: $name: NOT healed after $(($(date +%s) - HEAL_T0))s and $round round(s): $why"
    [[ -n ${PERSON_MUST_SET:-} ]] && summary+="; a person must set $PERSON_MUST_SET"
    hlog ""
    heal_state | hblock
  fi
  hlog ""
  hlog "$summary"
  local rec=$REPO/tests/scenarios/real-$name${REC_SUFFIX:-}
  if [[ -d $rec ]]; then
    cp "$HEAL_LOG" "$rec/heal.txt"
    say "heal transcript: $rec/heal.txt"
  fi
  echo "$summary"
  [[ -n $outcome ]]
}

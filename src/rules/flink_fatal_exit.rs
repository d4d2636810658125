//! FLK103: a Flink process died with one of Flink's own exit codes.
//!
//! - 239 (`-17 & 0xFF`): `FatalExitExceptionHandler` (`System.exit(-17)`) after an uncaught
//!   exception in any thread, or `JvmShutdownSafeguard` (`Runtime.halt(-17)`) when the shutdown
//!   after a fatal error (`ClusterEntrypoint.onFatalError` calls `System.exit(2)`) does not finish
//!   within 5 s: what a real Flink 1.20.1 JobManager refused a pod list did, 3 runs of 3;
//! - 1: `ClusterEntrypoint` / `TaskManagerRunner` could not start;
//! - 2: a fatal error at runtime (`ClusterEntrypoint.onFatalError`, `TaskManagerRunner.terminateJVM`);
//! - 163 / 165: the entrypoint terminated with `ApplicationStatus.FAILED` (1443) / `UNKNOWN` (1445),
//!   of which the container sees the low byte.
//!
//! A symptom: the exit is how the process ends, the cause is in the lines logged before it. The
//! finding quotes them (through the signature catalogue) and links the container, so a cause found
//! elsewhere (a 403 for the ServiceAccount, FLK501; an OutOfMemoryError, FLK109) folds it in.
//!
//! The helpers at the bottom (log evidence, event lines, container identity) are shared by the other
//! pod rules (FLK104, FLK105, FLK107, FLK109).

use super::pod_status::{containers, ContainerView};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::names::{LABEL_COMPONENT, MAIN_CONTAINER};
use crate::signatures::{catalogue, redact, Match};

use crate::snapshot::index::{event_time, label, pod_name, pod_namespace};
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::{ContainerStateTerminated, Event, Pod};

pub struct FlinkFatalExit;

static META: RuleMeta = RuleMeta {
    id: "FLK103",
    name: "flink_fatal_exit",
    summary: "a Flink process died through its fatal-error path (exit codes 239, 1, 2); reported as the cause its log names when no other rule reports it, else a symptom",
    category: Category::FlinkFatalExit,
    severity: Severity::Critical,
    explains: &["FLK401"],
};

impl Rule for FlinkFatalExit {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for pod in &snapshot.pods {
            for c in containers(pod) {
                if !handled_here(&c) {
                    continue;
                }
                if let Some(t) = c.last_termination() {
                    out.push(finding(snapshot, index, pod, &c, t));
                }
            }
        }
        out
    }
}

/// Whether FLK103 reports this container's last termination (FLK104 leaves these alone).
/// 239, 163 and 165 are Flink's own codes in any container; 1 and 2 are too common to claim
/// unless the container runs Flink. Init containers are never Flink processes.
pub(super) fn handled_here(c: &ContainerView) -> bool {
    if c.init {
        return false;
    }
    let Some(t) = c.last_termination() else {
        return false;
    };
    if t.reason.as_deref() == Some("OOMKilled") {
        return false;
    }
    match t.exit_code {
        239 | 163 | 165 => true,
        1 | 2 => is_flink_container(c),
        _ => false,
    }
}

/// The container runs a Flink process: Flink's main container, or a container of a Flink image.
pub(super) fn is_flink_container(c: &ContainerView) -> bool {
    if c.name() == MAIN_CONTAINER {
        return true;
    }
    let image = c
        .spec
        .and_then(|s| s.image.as_deref())
        .unwrap_or(&c.status.image);
    let flink_image = image.to_ascii_lowercase().contains("flink");
    let has_command = c
        .spec
        .is_some_and(|s| s.command.as_ref().is_some_and(|v| !v.is_empty()));
    // The Lyft operator names its containers jobmanager / taskmanager and runs the Flink image.
    flink_image && (!has_command || ["jobmanager", "taskmanager"].contains(&c.name()))
}

fn finding(
    snapshot: &Snapshot,
    index: &Index,
    pod: &Pod,
    c: &ContainerView,
    t: &ContainerStateTerminated,
) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let code = t.exit_code;
    let meaning =
        crate::flink::exit::meaning(code.into()).unwrap_or("an exit code Flink does not define");
    let who = component_title(pod, c);
    let running_again = c.status.ready && c.waiting_reason().is_none();
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!("{who}: exit code {code}, {meaning}"),
    )
    .deployment(index.deployment_of_pod(pod))
    .evidence(termination_line(c, t))
    .evidence(state_line(c))
    .link(link::container(ns, name, c.name()));
    if running_again {
        // An earlier instance died; the current one runs. Still worth knowing, less urgent.
        f = f.severity(Severity::Warning);
    }
    if let Some(msg) = t.message.as_deref().filter(|m| !m.trim().is_empty()) {
        f = f.evidence(format!("terminated.message: {}", one_line(msg)));
    }
    let current_is_terminated = c
        .status
        .state
        .as_ref()
        .is_some_and(|s| s.terminated.is_some());
    let logs = LogEvidence::read(snapshot, ns, name, c.name(), !current_is_terminated);
    for line in logs.lines() {
        f = f.evidence(line);
    }
    let cmd = logs_command(
        ns,
        name,
        c.name(),
        logs.previous.unwrap_or(!current_is_terminated),
    );
    // The log names a specific cause that no other rule reports (a missing plugin or jar, a bad
    // memory setting): this finding is that cause, not just the exit.
    if let Some(m) = logs.root().filter(|m| named_here(m.signature.category)) {
        f = with_category(f, m.signature.category);
        f.title = format!("{}: {}", f.title, m.title());
    }
    let fix = match logs.root() {
        Some(m) => format!(
            "The exit is the symptom; the log names the cause at line {}: {}.\n{}\n\n\
             Read the lines around it:\n\n  {cmd} | sed -n '{},{}p'",
            m.line_no,
            m.signature.explanation,
            m.fix(),
            m.line_no.saturating_sub(5).max(1),
            m.line_no + 20
        ),
        None => format!(
            "The cause is in the container's {} log, in the lines just before the exit \
             (the last `Caused by:` is usually the root cause):\n\n  \
             {cmd} | grep -n -E -B 5 -A 30 'FATAL|Fatal error|Could not start|Caused by|Exception'\n\n\
             Fix the first error it shows; the container then stays up.",
            if logs.previous.unwrap_or(!current_is_terminated) { "previous" } else { "last" }
        ),
    };
    f.fix(fix).verify(pod_verify(pod, c.name()))
}

/// Whether FLK103 reports a cause its log names under that cause's category: a specific one that
/// no other rule reports from the same log or pod (those rules explain FLK103 instead: FLK501 the
/// 403s, FLK109 OutOfMemoryError, FLK107 OOMKilled, FLK301/302 and FLK502 what the configuration
/// and ServiceAccount already show).
fn named_here(category: Category) -> bool {
    !category.is_symptom()
        && !matches!(
            category,
            Category::RbacForbidden
                | Category::DefaultServiceAccount
                | Category::SaTokenUnreadable
                | Category::JvmOutOfMemory
                | Category::OomKilled
                | Category::HaMisconfigured
        )
}

// ----------------------------------------------------------------------------------------------
// Shared helpers for the pod rules.

/// `JobManager` / `TaskManager` (from Flink's `component` label) and the container name.
pub(super) fn component_title(pod: &Pod, c: &ContainerView) -> String {
    let kind = match label(pod, LABEL_COMPONENT) {
        Some("jobmanager") => "JobManager",
        Some("taskmanager") => "TaskManager",
        _ => match label(pod, "flink-deployment-type") {
            Some("jobmanager") => "JobManager",
            Some("taskmanager") => "TaskManager",
            _ => "",
        },
    };
    let what = if c.init {
        "init container"
    } else {
        "container"
    };
    if kind.is_empty() {
        format!("{what} `{}`", c.name())
    } else {
        format!("{kind} {what} `{}`", c.name())
    }
}

/// `containerStatuses[NAME]: lastState.terminated exitCode=.. reason=.. finishedAt=..`
pub(super) fn termination_line(c: &ContainerView, t: &ContainerStateTerminated) -> String {
    let which = if c
        .status
        .state
        .as_ref()
        .is_some_and(|s| s.terminated.is_some())
    {
        "state.terminated"
    } else {
        "lastState.terminated"
    };
    let finished = t
        .finished_at
        .as_ref()
        .and_then(crate::snapshot::to_utc)
        .map(|d| format!(" finishedAt={}", d.format("%Y-%m-%dT%H:%M:%SZ")))
        .unwrap_or_default();
    format!(
        "{}[{}]: {which}: exitCode={} reason={}{finished}",
        statuses_field(c),
        c.name(),
        t.exit_code,
        t.reason.as_deref().unwrap_or("-"),
    )
}

/// `containerStatuses[NAME]: restartCount=N, state: waiting CrashLoopBackOff (message)`
pub(super) fn state_line(c: &ContainerView) -> String {
    let state = c.status.state.as_ref();
    let now = if let Some(w) = state.and_then(|s| s.waiting.as_ref()) {
        format!(
            "waiting {}{}",
            w.reason.as_deref().unwrap_or("-"),
            w.message
                .as_deref()
                .map(|m| format!(" ({})", one_line(m)))
                .unwrap_or_default()
        )
    } else if state.and_then(|s| s.running.as_ref()).is_some() {
        format!("running, ready={}", c.status.ready)
    } else if state.and_then(|s| s.terminated.as_ref()).is_some() {
        "terminated".to_string()
    } else {
        "unknown".to_string()
    };
    format!(
        "{}[{}]: restartCount={}, state: {now}",
        statuses_field(c),
        c.name(),
        c.restart_count()
    )
}

fn statuses_field(c: &ContainerView) -> &'static str {
    if c.init {
        "status.initContainerStatuses"
    } else {
        "status.containerStatuses"
    }
}

/// `kubectl logs POD -n NS -c CONTAINER [--previous]`
pub(super) fn logs_command(ns: &str, pod: &str, container: &str, previous: bool) -> String {
    format!(
        "kubectl logs {pod} -n {ns} -c {container}{}",
        if previous { " --previous" } else { "" }
    )
}

/// A command that shows the container's restart count and state.
pub(super) fn status_verify(ns: &str, pod: &str, container: &str) -> String {
    format!(
        "kubectl get pod {pod} -n {ns} -o jsonpath='{{range .status.containerStatuses[?(@.name==\"{container}\")]}}restarts={{.restartCount}} state={{.state}}{{\"\\n\"}}{{end}}'   # expect a running state and a restart count that stops growing"
    )
}

/// The verify command for a container's pod: pods that are replaced rather than restarted (Flink's
/// TaskManagers, `restartPolicy: Never`) are checked through their labels, the others in place.
pub(super) fn pod_verify(pod: &Pod, container: &str) -> String {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let replaced = super::pod_status::restart_policy(pod) == "Never";
    match (replaced, label(pod, "app"), label(pod, LABEL_COMPONENT)) {
        (true, Some(app), Some(component)) => format!(
            "kubectl get pods -n {ns} -l app={app},component={component} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.status.phase}} {{.status.containerStatuses[*].state.terminated.reason}}{{\"\\n\"}}{{end}}'   # expect every pod Running, none Failed"
        ),
        _ => status_verify(ns, name, container),
    }
}

/// One evidence line for an event: type, reason, count, last time, source, message.
pub(super) fn event_line(e: &Event) -> String {
    let count = e
        .count
        .filter(|c| *c > 1)
        .map(|c| format!(" x{c}"))
        .unwrap_or_default();
    let when = event_time(e)
        .map(|d| format!(" (last {})", d.format("%Y-%m-%dT%H:%M:%SZ")))
        .unwrap_or_default();
    let kind = e.involved_object.kind.as_deref().unwrap_or("?");
    let name = e.involved_object.name.as_deref().unwrap_or("?");
    format!(
        "event {} {}{count}{when} on {kind}/{name}: {}",
        e.type_.as_deref().unwrap_or("Normal"),
        e.reason.as_deref().unwrap_or("-"),
        one_line(e.message.as_deref().unwrap_or(""))
    )
}

/// Warning events of a pod that concern this container (or the whole pod), newest last.
pub(super) fn container_events<'a>(
    index: &Index<'a>,
    ns: &str,
    pod: &str,
    container: &str,
) -> Vec<&'a Event> {
    let marker = format!("{{{container}}}");
    index
        .events_for("Pod", ns, pod)
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .filter(|e| {
            e.involved_object
                .field_path
                .as_deref()
                .is_none_or(|p| p.is_empty() || p.contains(&marker))
        })
        .collect()
}

/// A redacted, single-line, bounded form of a message for evidence.
pub(super) fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = redact(&flat).into_owned();
    if flat.chars().count() > 400 {
        format!("{}…", flat.chars().take(400).collect::<String>())
    } else {
        flat
    }
}

/// Sets a category other than the rule's default, keeping the layer coherent with it.
pub(super) fn with_category(mut f: Finding, category: Category) -> Finding {
    f.category = category;
    f.layer = category.layer();
    f
}

/// The matches that no other match explains (the causes, not their effects), leaving out those a
/// more precise signature on the same line supersedes.
pub(super) fn roots(matches: &[Match]) -> Vec<&Match> {
    matches
        .iter()
        .filter(|m| {
            !matches.iter().any(|o| {
                o.signature.id != m.signature.id
                    && (o.signature.explains.contains(&m.signature.id)
                        || (o.line_no == m.line_no
                            && o.signature.supersedes.contains(&m.signature.id)))
            })
        })
        .collect()
}

/// What a container's log says: the catalogue's matches, or the last error-looking lines.
pub(super) struct LogEvidence {
    /// Which instance was read (`Some(true)` = previous), None when no log is in the snapshot.
    pub previous: Option<bool>,
    pub matches: Vec<Match>,
    /// Error-looking lines (line number, redacted text) when no signature matched.
    pub tail: Vec<(usize, String)>,
    container: String,
}

/// Lines that usually carry the reason a JVM or a shell script died.
const ERRORISH: &[&str] = &[
    "ERROR",
    "FATAL",
    "Exception",
    "Error:",
    "Caused by:",
    "not found",
    "No such file",
    "Permission denied",
    "cannot",
    "Could not",
];

impl LogEvidence {
    /// Reads the previous log (else the current one) of a container; with `prefer_previous`
    /// false (the container is terminated now) the current log comes first.
    pub fn read(
        snapshot: &Snapshot,
        ns: &str,
        pod: &str,
        container: &str,
        prefer_previous: bool,
    ) -> Self {
        let order = if prefer_previous {
            [true, false]
        } else {
            [false, true]
        };
        let found = order
            .iter()
            .find_map(|&prev| snapshot.log(ns, pod, container, prev).map(|t| (prev, t)));
        let mut ev = LogEvidence {
            previous: None,
            matches: Vec::new(),
            tail: Vec::new(),
            container: container.to_string(),
        };
        let Some((previous, text)) = found else {
            return ev;
        };
        ev.previous = Some(previous);
        ev.matches = catalogue().scan(text);
        if ev.matches.is_empty() {
            let lines: Vec<(usize, &str)> = text
                .lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l))
                .filter(|(_, l)| !l.trim().is_empty())
                .collect();
            let errorish: Vec<(usize, &str)> = lines
                .iter()
                .copied()
                .filter(|(_, l)| ERRORISH.iter().any(|k| l.contains(k)))
                .filter(|(_, l)| !l.trim_start().starts_with("at "))
                .collect();
            let pick = if errorish.is_empty() { lines } else { errorish };
            let skip = pick.len().saturating_sub(5);
            ev.tail = pick
                .into_iter()
                .skip(skip)
                .map(|(n, l)| (n, one_line(l)))
                .collect();
        }
        ev
    }

    /// The first match that no other match in the same log explains (the cause, not its effects);
    /// a non-symptom one when there is one.
    pub fn root(&self) -> Option<&Match> {
        let roots = self.roots();
        roots
            .iter()
            .find(|m| !m.signature.category.is_symptom())
            .or_else(|| roots.first())
            .copied()
    }

    pub fn roots(&self) -> Vec<&Match> {
        roots(&self.matches)
    }

    /// Evidence lines: up to six matched lines (roots first), or the error-looking tail.
    pub fn lines(&self) -> Vec<String> {
        let Some(previous) = self.previous else {
            return vec![format!(
                "no log of container `{}` in the snapshot (gather it with `kubectl logs ... --previous`)",
                self.container
            )];
        };
        let which = if previous { "previous log" } else { "log" };
        if !self.matches.is_empty() {
            let mut picked: Vec<&Match> = self.roots().into_iter().take(3).collect();
            for m in &self.matches {
                if picked.len() >= 6 {
                    break;
                }
                if !picked.iter().any(|p| p.line_no == m.line_no) {
                    picked.push(m);
                }
            }
            picked.sort_by_key(|m| m.line_no);
            picked.dedup_by_key(|m| m.line_no);
            return picked
                .into_iter()
                .map(|m| {
                    // Every signature that matched this line, in catalogue order.
                    let ids: Vec<&str> = self
                        .matches
                        .iter()
                        .filter(|o| o.line_no == m.line_no)
                        .map(|o| o.signature.id)
                        .collect();
                    format!(
                        "{which} line {} [{}]: {}",
                        m.line_no,
                        ids.join(", "),
                        m.line
                    )
                })
                .collect();
        }
        self.tail
            .iter()
            .map(|(n, l)| format!("{which} line {n}: {l}"))
            .collect()
    }
}

/// A scenario bundle of tests/scenarios, loaded as `doctor --from` loads it.
#[cfg(test)]
pub(super) fn scenario(name: &str) -> Snapshot {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name);
    crate::snapshot::bundle::load(&dir).unwrap_or_else(|e| panic!("scenario {name}: {e}"))
}

/// The healthy scenario bundles, on which no rule may fire.
#[cfg(test)]
pub(super) const HEALTHY_SCENARIOS: &[&str] = &["healthy-application", "healthy-session"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};

    const JM_239: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  serviceAccountName: default
  containers:
  - {name: flink-main-container, image: "flink:1.20", args: [kubernetes-jobmanager.sh, kubernetes-application]}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 6
    state: {waiting: {reason: CrashLoopBackOff, message: "back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)"}}
    lastState: {terminated: {exitCode: 239, reason: Error, finishedAt: "2026-11-28T09:39:13Z"}}
"#;

    const LOG_403: &str = "2026-11-28 09:39:11,511 INFO  ActiveResourceManager [] - Starting the resource manager.
2026-11-28 09:39:12,034 WARN  Fabric8FlinkKubeClient [] - Error while watching the pods
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User \"system:serviceaccount:analytics:default\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\".
2026-11-28 09:39:13,301 ERROR ActiveResourceManager [] - Fatal error occurred in ResourceManager.
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...
";

    #[test]
    fn fires_on_exit_239_and_quotes_the_cause_from_the_previous_log() {
        let s = with_log(
            snapshot(JM_239),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_403,
        );
        let f = run(&FlinkFatalExit, &s);
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::FlinkFatalExit);
        assert!(f.title.contains("exit code 239"), "{}", f.title);
        assert!(
            f.title
                .starts_with("JobManager container `flink-main-container`"),
            "{}",
            f.title
        );
        assert!(
            f.evidence[0].contains(
                "lastState.terminated: exitCode=239 reason=Error finishedAt=2026-11-28T09:39:13Z"
            ),
            "{:?}",
            f.evidence
        );
        assert!(f.evidence[1].contains("restartCount=6, state: waiting CrashLoopBackOff"));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("previous log line 3 [")
                    && e.contains("SIG-FABRIC8-WEBSOCKET-403")),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("previous log line 6 [SIG-FATAL-THREAD]")));
        // The root cause, not the fatal line, drives the fix.
        assert!(f.fix.contains("line 3"), "{}", f.fix);
        assert!(f.fix.contains(
            "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous"
        ));
        assert!(f.verify.contains("restartCount"));
        assert_eq!(
            f.links,
            vec![link::container(
                "analytics",
                "orders-5d8f9c7b6d-x7k2p",
                "flink-main-container"
            )]
        );
        assert_eq!(f.severity, Severity::Critical);
    }

    #[test]
    fn without_a_known_cause_the_fix_names_the_previous_log_command() {
        let log = "INFO starting\nERROR Something odd happened: java.lang.IllegalStateException: boom\n\tat x.y(Z.java:1)\n";
        let s = with_log(
            snapshot(JM_239),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            log,
        );
        let f = &run(&FlinkFatalExit, &s)[0];
        assert!(f.evidence.iter().any(|e| e == "previous log line 2: ERROR Something odd happened: java.lang.IllegalStateException: boom"), "{:?}", f.evidence);
        assert!(
            f.fix
                .contains("the cause is in the container's previous log")
                || f.fix
                    .contains("The cause is in the container's previous log")
        );
        assert!(f.fix.contains(
            "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous"
        ));
        // And with no log at all, it says so.
        let f = &run(&FlinkFatalExit, &snapshot(JM_239))[0];
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("no log of container `flink-main-container`")));
    }

    #[test]
    fn knows_every_flink_exit_code() {
        for (code, words) in [
            (1, "startup failure"),
            (2, "runtime failure"),
            (163, "FAILED"),
            (165, "UNKNOWN"),
        ] {
            let y = JM_239.replace("exitCode: 239", &format!("exitCode: {code}"));
            let f = run(&FlinkFatalExit, &snapshot(&y));
            assert_eq!(f.len(), 1, "exit {code}");
            assert!(f[0].title.contains(words), "{}", f[0].title);
        }
    }

    #[test]
    fn silent_on_healthy_pods_and_on_codes_it_does_not_own() {
        assert!(run(&FlinkFatalExit, &snapshot(HEALTHY)).is_empty());
        for code in ["0", "137", "143", "127"] {
            let y = JM_239.replace("exitCode: 239", &format!("exitCode: {code}"));
            assert!(
                run(&FlinkFatalExit, &snapshot(&y)).is_empty(),
                "exit {code}"
            );
        }
        let oom = JM_239.replace(
            "exitCode: 239, reason: Error",
            "exitCode: 239, reason: OOMKilled",
        );
        assert!(run(&FlinkFatalExit, &snapshot(&oom)).is_empty());
    }

    #[test]
    fn exit_1_of_a_non_flink_sidecar_is_not_flink_s() {
        let y = JM_239
            .replace("exitCode: 239", "exitCode: 1")
            .replace(
                "name: flink-main-container, image: \"flink:1.20\"",
                "name: log-shipper, image: \"fluent/fluent-bit:3\"",
            )
            .replace(
                "- name: flink-main-container\n    image: flink:1.20",
                "- name: log-shipper\n    image: fluent/fluent-bit:3",
            );
        assert!(run(&FlinkFatalExit, &snapshot(&y)).is_empty());
    }

    #[test]
    fn a_past_crash_of_a_container_running_again_is_a_warning() {
        let y = JM_239.replace(
            "ready: false\n    restartCount: 6\n    state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
            "ready: true\n    restartCount: 1\n    state: {running: {startedAt: \"2026-11-28T09:40:00Z\"}}",
        );
        let f = run(&FlinkFatalExit, &snapshot(&y));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn a_terminated_taskmanager_reads_its_current_log() {
        let y = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-taskmanager-1-2
  namespace: analytics
  labels: {app: orders, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers:
  - {name: flink-main-container, image: "flink:1.20"}
status:
  phase: Failed
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 0
    state: {terminated: {exitCode: 2, reason: Error}}
"#;
        let log = "ERROR TaskManagerRunner [] - Fatal error occurred while executing the TaskManager. Shutting it down...\n";
        let s = with_log(
            snapshot(y),
            "analytics",
            "orders-taskmanager-1-2",
            "flink-main-container",
            false,
            log,
        );
        let f = &run(&FlinkFatalExit, &s)[0];
        assert!(f.title.starts_with("TaskManager container"));
        assert!(f.evidence[0].contains("state.terminated: exitCode=2"));
        assert!(
            f.evidence.iter().any(|e| e.starts_with("log line 1")),
            "{:?}",
            f.evidence
        );
        assert!(!f.fix.contains("--previous"), "{}", f.fix);
        assert!(
            f.verify
                .starts_with("kubectl get pods -n analytics -l app=orders,component=taskmanager"),
            "{}",
            f.verify
        );
    }

    #[test]
    fn scenario_bundles() {
        let f = run(&FlinkFatalExit, &scenario("flink-fatal-exit"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].title.contains("exit code 1"));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("SIG-FS-SCHEME-UNSUPPORTED")),
            "{:?}",
            f[0].evidence
        );
        let f = run(&FlinkFatalExit, &scenario("jvm-out-of-memory"));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].title.starts_with("TaskManager container") && f[0].title.contains("exit code 2")
        );
        for name in HEALTHY_SCENARIOS.iter().chain(&[
            "crashloop-image-incompatible",
            "oom-killed",
            "image-pull-failed",
        ]) {
            assert!(run(&FlinkFatalExit, &scenario(name)).is_empty(), "{name}");
        }
    }
}

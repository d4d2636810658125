//! What the pod rules (FLK103 fatal exits, FLK104 crash loops, FLK105 image pulls, FLK107 OOM
//! kills, FLK109 JVM out of memory, the status and quota rules) say about a container the same
//! way: who it is, how it ended, its events, its log's evidence, the commands that show it.

use super::pod_status::ContainerView;
use crate::finding::{Category, Finding};
use crate::flink::mode::Component;
use crate::flink::names::MAIN_CONTAINER;
use crate::shell::{jsonpath, sh};
use crate::signatures::{reader, redact, Match};
use crate::snapshot::index::{event_time, pod_component, pod_name, pod_namespace, pod_selector};
use crate::snapshot::pod::ContainerStateTerminated;
use crate::snapshot::refused::Where;
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::Event;

/// Whether FLK103 reports this container's last termination (FLK104 leaves these alone).
/// 239, 163 and 165 are Flink's own codes in any container; 1 and 2 are too common to claim
/// unless the container runs Flink. Init containers are never Flink processes.
pub fn handled_here(c: &ContainerView) -> bool {
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
pub fn is_flink_container(c: &ContainerView) -> bool {
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
    flink_image
        && (!has_command
            || [Component::JobManager, Component::TaskManager]
                .iter()
                .any(|x| x.as_str() == c.name()))
}

/// `JobManager` / `TaskManager` (from Flink's `component` label) and the container name.
pub fn component_title(pod: &Pod, c: &ContainerView) -> String {
    let kind = pod_component(pod).map_or("", Component::title);
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
pub fn termination_line(c: &ContainerView, t: &ContainerStateTerminated) -> String {
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
pub fn state_line(c: &ContainerView) -> String {
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
pub fn logs_command(ns: &str, pod: &str, container: &str, previous: bool) -> String {
    let (pod, ns, container) = (sh(pod), sh(ns), sh(container));
    format!(
        "kubectl logs {pod} -n {ns} -c {container}{}",
        if previous { " --previous" } else { "" }
    )
}

/// A command that shows the container's restart count and state.
pub fn status_verify(ns: &str, pod: &str, container: &str) -> String {
    let path = jsonpath(&format!(
        "{{range .status.containerStatuses[?(@.name==\"{container}\")]}}restarts={{.restartCount}} state={{.state}}{{\"\\n\"}}{{end}}"
    ));
    let (pod, ns) = (sh(pod), sh(ns));
    format!(
        "kubectl get pod {pod} -n {ns} -o {path}   # expect a running state and a restart count that stops growing"
    )
}

/// The verify command for a container's pod: pods that are replaced rather than restarted (Flink's
/// TaskManagers, `restartPolicy: Never`) are checked through their labels, the others in place.
pub fn pod_verify(pod: &Pod, container: &str) -> String {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let replaced = super::pod_status::restart_policy(pod) == "Never";
    match (replaced, pod_selector(pod)) {
        (true, Some(selector)) => format!(
            "kubectl get pods -n {} -l {selector} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.status.phase}} {{.status.containerStatuses[*].state.terminated.reason}}{{\"\\n\"}}{{end}}'   # expect every pod Running, none Failed",
            sh(ns),
        ),
        _ => status_verify(ns, name, container),
    }
}

/// One evidence line for where a pod's creation was refused: the `FailedCreate` event, the
/// Deployment's `ReplicaFailure` condition, or the JobManager's log line (quota, PodSecurity and
/// ServiceAccount refusals alike).
pub fn refusal_line(source: &Where, message: &str) -> String {
    match source {
        Where::Event(e) => event_line(e),
        Where::Condition {
            deployment,
            condition,
        } => format!(
            "Deployment {} status.conditions[ReplicaFailure]: reason={} message: {}",
            deployment.metadata.name.as_deref().unwrap_or(""),
            condition.reason.as_deref().unwrap_or("-"),
            one_line(message)
        ),
        Where::Log { key, line } => format!(
            "JobManager {} {} line {line}: {}",
            key.pod,
            if key.previous { "previous log" } else { "log" },
            one_line(message)
        ),
    }
}

/// One evidence line for an event: type, reason, count, last time, source, message.
pub fn event_line(e: &Event) -> String {
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
pub fn container_events<'a>(
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
pub fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = redact(&flat).into_owned();
    if flat.chars().count() > 400 {
        format!("{}…", flat.chars().take(400).collect::<String>())
    } else {
        flat
    }
}

/// Sets a category other than the rule's default, keeping the layer coherent with it.
pub fn with_category(mut f: Finding, category: Category) -> Finding {
    f.category = category;
    f.layer = category.layer();
    f
}

/// The matches that no other match explains (the causes, not their effects), leaving out those a
/// more precise signature on the same line supersedes.
pub fn roots(matches: &[Match]) -> Vec<&Match> {
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
pub struct LogEvidence {
    /// Which instance was read (`Some(true)` = previous), None when no log is in the snapshot.
    pub previous: Option<bool>,
    pub matches: Vec<Match>,
    /// Flink's version, from the log's entrypoint banner.
    pub flink_version: Option<String>,
    /// Error-looking lines (line number, redacted text) when no signature matched.
    pub tail: Vec<(usize, String)>,
    /// When the root match is only how Flink stops (a symptom: `Fatal error occurred in the
    /// cluster entrypoint`), the deepest `Caused by:` of the exception printed with it (line
    /// number, redacted text): the cause in the log's own words, which no signature knows.
    pub unnamed_cause: Option<(usize, String)>,
    container: String,
}

/// The deepest `Caused by:` of the Java exception printed from line `from` on (1-based): the
/// stack lines (`at ...`, `... N more`), the `Caused by:` lines and their continuations follow
/// the line that logged it, up to the next log record.
fn deepest_cause_after(text: &str, from: usize) -> Option<(usize, String)> {
    let mut deepest = None;
    for (i, line) in text.lines().enumerate().skip(from) {
        let t = line.trim_start();
        if t.starts_with("Caused by:") {
            deepest = Some((i + 1, one_line(t)));
        } else if t.starts_with("at ") || t.starts_with("... ") || t.starts_with("Suppressed:") {
            continue;
        } else if t.is_empty() || line.starts_with(|c: char| c.is_ascii_digit()) {
            // A blank line or the next log record (Flink's layout starts with the date).
            if deepest.is_some() || t.is_empty() {
                break;
            }
        }
    }
    deepest
}

/// The cause of the Java exception a log record at line `at` (1-based) printed below it: its
/// deepest `Caused by:`, else the exception's own first line (`java.lang.IllegalArgumentException:
/// ...`), with its line number. None when no exception follows the record.
pub fn exception_after(text: &str, at: usize) -> Option<(usize, String)> {
    if let Some(deepest) = deepest_cause_after(text, at) {
        return Some(deepest);
    }
    let (i, head) = text.lines().enumerate().nth(at)?;
    let t = head.trim();
    let class = t.split(':').next().unwrap_or("");
    let is_exception = !class.contains(' ')
        && class.contains('.')
        && (class.ends_with("Exception") || class.ends_with("Error"));
    is_exception.then(|| (i + 1, one_line(t)))
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

/// A log line whose level (in the first words, as Flink's and most Java layouts print it) says
/// it is no problem: "INFO ... Cannot create Hadoop Security Module" is how a healthy Flink starts.
fn below_warn(line: &str) -> bool {
    line.split_whitespace()
        .take(4)
        .any(|w| matches!(w, "INFO" | "DEBUG" | "TRACE" | "[INFO]" | "[DEBUG]"))
}

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
            flink_version: None,
            tail: Vec::new(),
            unnamed_cause: None,
            container: container.to_string(),
        };
        let Some((previous, text)) = found else {
            return ev;
        };
        ev.previous = Some(previous);
        // The reader triage uses: the same lines, the same matches.
        ev.matches = reader::scan(text);
        if !ev.matches.is_empty() {
            ev.flink_version = reader::flink_version_of(text);
        }
        ev.unnamed_cause = ev
            .root()
            .filter(|m| m.signature.category.is_symptom())
            .and_then(|m| deepest_cause_after(text, m.line_no));
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
                .filter(|(_, l)| !l.trim_start().starts_with("at ") && !below_warn(l))
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

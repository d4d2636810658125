//! Container logs for `kubectl flink logs`: which pods and containers a NAME (or a selector) means
//! in every deployment mode, one byte stream per container read line by line (memory stays bounded
//! whatever the log size), and with `-f` a controller that keeps following as pods appear,
//! containers restart and pods go away.
//!
//! Nothing is rendered here. Each line goes to a [`LineFormat`] supplied by the command; formatted
//! bytes go to an output channel that one writer drains; diagnostics go to [`Notices`] (stderr).
//! The selection functions are pure and tested on pods built in code.

use super::client::Cluster;
use crate::error::{one_line, Error};
use crate::flink::names::{GROUP, VERSION};

use futures::io::{AsyncBufRead, AsyncBufReadExt};
use futures::FutureExt;
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, ApiResource, DynamicObject, ListParams, LogParams};
use kube::core::GroupVersionKind;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write as _;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio::time::Instant;

/// Flink's main container (`Constants.MAIN_CONTAINER_NAME`).
pub const MAIN_CONTAINER: &str = "flink-main-container";
/// kubectl's annotation naming a pod's default container (the operator's pods carry it).
pub const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";
/// Lines longer than this are cut into pieces, so one endless line cannot exhaust memory.
pub const MAX_LINE: usize = 1 << 20;
/// Formatted output is handed to the writer in chunks of about this size.
const CHUNK: usize = 32 * 1024;
/// Chunks buffered per stream while an earlier stream is still being printed (without -f).
const STREAM_BUFFER_CHUNKS: usize = 4;
/// How often `-f` lists the pods again to see new, restarted and deleted ones.
const POLL: Duration = Duration::from_secs(2);
const PAGE: u32 = 500;

pub const TASKMANAGER_GONE_HINT: &str = "native TaskManager pods are deleted when they fail, or after \
resourcemanager.taskmanager-timeout (default 30 s) when idle, and their logs go with them: raise \
resourcemanager.taskmanager-timeout (e.g. to 10 min) while debugging, and keep `kubectl flink logs -f` \
running to catch the next ones";
pub const EVICTED_HINT: &str = "an evicted pod's logs last only until the kubelet removes its containers: \
keep `kubectl flink logs -f` running to catch them next time, and see `kubectl flink doctor` for what evicted it";
pub const PREVIOUS_HINT: &str =
    "-p shows the instance before the current one, which exists only after a \
restart; drop -p for the current log";

// ------------------------------------------------------------------------------------------------
// What to read
// ------------------------------------------------------------------------------------------------

/// What a pod is to Flink, from its labels. Also the print order: JobManagers first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    JobManager,
    TaskManager,
    Operator,
    Other,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::JobManager => "JobManager",
            Role::TaskManager => "TaskManager",
            Role::Operator => "operator",
            Role::Other => "pod",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    JobManager,
    TaskManager,
    Operator,
}

/// Which containers of each pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Containers {
    /// The pod's `kubectl.kubernetes.io/default-container`, else `flink-main-container`, else all.
    Default,
    /// Every container, init containers first.
    All,
    Named(String),
}

/// The pods a command line means: a Flink deployment's NAME, or `-l`, narrowed by `--component`.
#[derive(Debug, Clone, Default)]
pub struct Target {
    pub name: Option<String>,
    pub selector: Option<String>,
    pub component: Option<Component>,
}

impl Target {
    /// The label selectors to list pods with; their results are merged. One per deployment mode:
    /// the Apache operator, native and standalone (`app`, `component`) and Lyft (`flink-app`,
    /// `flink-deployment-type`).
    pub fn selectors(&self) -> Vec<String> {
        if self.component == Some(Component::Operator) {
            return vec![
                "app.kubernetes.io/name=flink-kubernetes-operator".to_string(),
                "app=flinkoperator".to_string(),
            ];
        }
        if let Some(sel) = &self.selector {
            return vec![sel.clone()];
        }
        let (apache, lyft) = match self.component {
            Some(Component::JobManager) => {
                ("component=jobmanager", "flink-deployment-type=jobmanager")
            }
            Some(Component::TaskManager) => {
                ("component=taskmanager", "flink-deployment-type=taskmanager")
            }
            _ => (
                "component in (jobmanager,taskmanager)",
                "flink-deployment-type in (jobmanager,taskmanager)",
            ),
        };
        match &self.name {
            Some(n) => vec![format!("app={n},{apache}"), format!("flink-app={n},{lyft}")],
            None => vec![format!("app,{apache}"), format!("flink-app,{lyft}")],
        }
    }

    /// Words for messages: what was looked for.
    pub fn describe(&self) -> String {
        self.selectors()
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// `--component` applied to pods found by `-l` (the selectors already narrow the other cases).
    pub fn keeps(&self, pod: &Pod) -> bool {
        match (self.selector.is_some(), self.component) {
            (true, Some(Component::JobManager)) => role(pod) == Role::JobManager,
            (true, Some(Component::TaskManager)) => role(pod) == Role::TaskManager,
            _ => true,
        }
    }
}

fn label<'a>(pod: &'a Pod, key: &str) -> Option<&'a str> {
    pod.metadata.labels.as_ref()?.get(key).map(String::as_str)
}

pub fn role(pod: &Pod) -> Role {
    match label(pod, "component").or_else(|| label(pod, "flink-deployment-type")) {
        Some("jobmanager") => return Role::JobManager,
        Some("taskmanager") => return Role::TaskManager,
        _ => {}
    }
    if label(pod, "app.kubernetes.io/name") == Some("flink-kubernetes-operator")
        || label(pod, "app") == Some("flinkoperator")
    {
        return Role::Operator;
    }
    Role::Other
}

/// Native mode: TaskManager pods are bare pods that Flink deletes.
pub fn is_native(pod: &Pod) -> bool {
    label(pod, "type") == Some("flink-native-kubernetes")
}

fn deployment_of(pod: &Pod) -> &str {
    label(pod, "app")
        .or_else(|| label(pod, "flink-app"))
        .unwrap_or("")
}

fn pod_name(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or("")
}

fn pod_namespace(pod: &Pod) -> &str {
    pod.metadata.namespace.as_deref().unwrap_or("default")
}

/// Compares names with digit runs as numbers: `tm-1-2` before `tm-1-10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let o = na
                    .len()
                    .cmp(&nb.len())
                    .then_with(|| na.cmp(nb))
                    .then_with(|| da.cmp(&db));
                if o != Ordering::Equal {
                    return o;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|&&c| c == b'0').count();
    &d[z.min(d.len().saturating_sub(1))..]
}

/// The stable print order: by namespace and deployment, JobManager first, then TaskManagers (and
/// other pods) by name.
pub fn order_pods(pods: &mut [Pod]) {
    pods.sort_by(|a, b| {
        pod_namespace(a)
            .cmp(pod_namespace(b))
            .then_with(|| deployment_of(a).cmp(deployment_of(b)))
            .then_with(|| role(a).cmp(&role(b)))
            .then_with(|| natural_cmp(pod_name(a), pod_name(b)))
    });
}

/// The containers to read in one pod, in order (init containers first with `--all-containers`).
pub fn selected_containers(pod: &Pod, choice: &Containers) -> Vec<String> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    let main: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    let init: Vec<&str> = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| c.name.as_str())
        .collect();
    let owned = |v: Vec<&str>| v.into_iter().map(str::to_string).collect();
    match choice {
        Containers::Named(n) => {
            if main.contains(&n.as_str()) || init.contains(&n.as_str()) {
                vec![n.clone()]
            } else {
                Vec::new()
            }
        }
        Containers::All => owned(init.into_iter().chain(main).collect()),
        Containers::Default => {
            let annotated = pod
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(DEFAULT_CONTAINER_ANNOTATION))
                .map(String::as_str)
                .filter(|n| main.contains(n));
            match annotated.or_else(|| main.iter().copied().find(|n| *n == MAIN_CONTAINER)) {
                Some(one) => vec![one.to_string()],
                None => owned(main),
            }
        }
    }
}

pub fn container_status<'a>(pod: &'a Pod, container: &str) -> Option<&'a ContainerStatus> {
    let status = pod.status.as_ref()?;
    status
        .container_statuses
        .iter()
        .flatten()
        .chain(status.init_container_statuses.iter().flatten())
        .find(|s| s.name == container)
}

/// One container log to read: the current or the previous instance of a container.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StreamSpec {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub previous: bool,
    pub role: Role,
}

impl StreamSpec {
    pub fn new(pod: &Pod, container: &str, previous: bool) -> Self {
        StreamSpec {
            namespace: pod_namespace(pod).to_string(),
            pod: pod_name(pod).to_string(),
            container: container.to_string(),
            previous,
            role: role(pod),
        }
    }
    /// `pod/container` for messages.
    pub fn name(&self) -> String {
        format!("{}/{}", self.pod, self.container)
    }
}

/// How the last instance of a container ended, in words: "exit 239, Error".
fn last_exit(st: &ContainerStatus) -> Option<String> {
    let t = st
        .state
        .as_ref()
        .and_then(|s| s.terminated.as_ref())
        .or_else(|| st.last_state.as_ref().and_then(|s| s.terminated.as_ref()))?;
    let mut words = format!("exit {}", t.exit_code);
    if let Some(r) = t.reason.as_deref().filter(|r| !r.is_empty()) {
        words.push_str(&format!(", {r}"));
    }
    if t.exit_code == 239 {
        words.push_str(": Flink's fatal-error handler stopped the JVM");
    }
    Some(words)
}

fn has_previous(st: &ContainerStatus) -> bool {
    st.restart_count > 0
        || st
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .is_some()
}

/// Waiting to be restarted after a crash (CrashLoopBackOff): there is no current instance, and the
/// kubelet serves the crashed one for both the current and the previous log. It is read as the
/// previous one, which is what it is.
fn crash_waiting(st: &ContainerStatus) -> bool {
    let waiting = st.state.as_ref().and_then(|s| s.waiting.as_ref()).is_some();
    waiting
        && st
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .is_some()
}

/// The current instance has ended and is not running: terminated, or waiting to be restarted
/// after having run (CrashLoopBackOff).
fn instance_over(st: &ContainerStatus) -> bool {
    let Some(state) = st.state.as_ref() else {
        return false;
    };
    state.terminated.is_some() || (state.waiting.is_some() && has_previous(st))
}

fn running(st: &ContainerStatus) -> bool {
    st.state.as_ref().and_then(|s| s.running.as_ref()).is_some()
}

/// Why a container that never ran has no log yet, if that is the case.
fn not_started(pod: &Pod, st: Option<&ContainerStatus>) -> Option<String> {
    match st {
        Some(st) => {
            if running(st) || instance_over(st) {
                return None;
            }
            let w = st.state.as_ref().and_then(|s| s.waiting.as_ref());
            let reason = w
                .and_then(|w| w.reason.clone())
                .unwrap_or_else(|| "waiting".into());
            let message = w
                .and_then(|w| w.message.clone())
                .map(|m| format!(": {}", one_line(&m)))
                .unwrap_or_default();
            Some(format!("{reason}{message}"))
        }
        None => {
            let status = pod.status.as_ref();
            let phase = status
                .and_then(|s| s.phase.clone())
                .unwrap_or_else(|| "Pending".into());
            if phase != "Pending" {
                return None;
            }
            let why = status
                .and_then(|s| s.conditions.as_ref())
                .and_then(|cs| {
                    cs.iter()
                        .find(|c| c.status == "False" && c.reason.is_some())
                })
                .and_then(|c| c.reason.clone())
                .map(|r| format!(", {r}"))
                .unwrap_or_default();
            Some(format!("pod Pending{why}"))
        }
    }
}

fn evicted(pod: &Pod) -> Option<String> {
    let s = pod.status.as_ref()?;
    (s.reason.as_deref() == Some("Evicted"))
        .then(|| s.message.clone().map(|m| one_line(&m)).unwrap_or_default())
}

/// The streams to read without `-f`, in print order, and what to say about the rest.
#[derive(Debug, Default)]
pub struct Plan {
    pub streams: Vec<StreamSpec>,
    pub notes: Vec<String>,
    /// Containers left out because they have no log to read (never started, no previous instance).
    pub skipped: usize,
}

/// Decides what to read from ordered pods (pure: the pods' status is all it looks at).
pub fn plan(pods: &[Pod], target: &Target, containers: &Containers, previous: bool) -> Plan {
    let mut p = Plan::default();
    let mut restarted = Vec::new();
    let mut no_previous = Vec::new();
    for pod in pods.iter().filter(|p| target.keeps(p)) {
        if let Some(msg) = evicted(pod) {
            let msg = if msg.is_empty() {
                String::new()
            } else {
                format!(" ({msg})")
            };
            p.notes.push(format!(
                "pod/{} was evicted{msg}: {EVICTED_HINT}",
                pod_name(pod)
            ));
        }
        for c in selected_containers(pod, containers) {
            let spec = StreamSpec::new(pod, &c, previous);
            let st = container_status(pod, &c);
            if previous {
                if st.is_some_and(has_previous) {
                    p.streams.push(spec);
                } else {
                    no_previous.push(spec.name());
                    p.skipped += 1;
                }
                continue;
            }
            if let Some(why) = not_started(pod, st) {
                p.notes.push(format!(
                    "{} has not started ({why}): no log yet",
                    spec.name()
                ));
                p.skipped += 1;
                continue;
            }
            if let Some(st) = st.filter(|s| crash_waiting(s)) {
                let exit = last_exit(st).map(|e| format!(": {e}")).unwrap_or_default();
                let reason = st
                    .state
                    .as_ref()
                    .and_then(|s| s.waiting.as_ref())
                    .and_then(|w| w.reason.clone())
                    .unwrap_or_else(|| "waiting".into());
                p.notes.push(format!(
                    "{} is not running ({reason}): showing the instance that crashed{exit}",
                    spec.name()
                ));
                p.streams.push(StreamSpec {
                    previous: true,
                    ..spec
                });
                continue;
            }
            if let Some(st) = st.filter(|s| s.restart_count > 0) {
                let exit = last_exit(st)
                    .map(|e| format!(", last {e}"))
                    .unwrap_or_default();
                restarted.push(format!(
                    "{} ({} restart{}{exit})",
                    spec.name(),
                    st.restart_count,
                    plural(st.restart_count)
                ));
            }
            p.streams.push(spec);
        }
    }
    if !restarted.is_empty() {
        p.notes.push(format!(
            "restarted: {}; add -p to see the crashed instance{}",
            list_some(&restarted, 5),
            if restarted.len() > 1 { "s" } else { "" }
        ));
    }
    if !no_previous.is_empty() {
        p.notes.push(format!(
            "no previous instance (never restarted): {}; {PREVIOUS_HINT}",
            list_some(&no_previous, 5)
        ));
    }
    p.notes.extend(missing_taskmanagers(pods, target));
    p
}

/// A native deployment without TaskManager pods: where their logs went.
fn missing_taskmanagers(pods: &[Pod], target: &Target) -> Option<String> {
    let native_jm = pods
        .iter()
        .any(|p| role(p) == Role::JobManager && is_native(p));
    let tms = pods.iter().any(|p| role(p) == Role::TaskManager);
    (target.name.is_some() && target.component.is_none() && native_jm && !tms)
        .then(|| format!("no TaskManager pods: {TASKMANAGER_GONE_HINT}"))
}

fn plural(n: i32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn list_some(items: &[String], max: usize) -> String {
    let mut s = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        s.push_str(&format!(" (+{} more)", items.len() - max));
    }
    s
}

// ------------------------------------------------------------------------------------------------
// Lines
// ------------------------------------------------------------------------------------------------

/// Renders lines; supplied by the command (prefix, colour, highlight, grep, JSON).
pub trait LineFormat: Send + Sync {
    /// Built once per stream.
    fn prefix(&self, stream: &StreamSpec) -> String;
    /// Appends the rendering of one line to `out`, or nothing when the line is filtered out.
    /// `text` has no line ending; `timestamp` is the kubelet's, when timestamps were asked for.
    fn line(
        &self,
        stream: &StreamSpec,
        prefix: &str,
        timestamp: Option<&str>,
        text: &str,
        out: &mut Vec<u8>,
    );
}

/// Splits a byte stream into lines without ever holding more than one line (at most [`MAX_LINE`]).
pub struct LineReader<R> {
    inner: R,
    max: usize,
    /// The last line was cut at `max`: a `\n` right after the cut ends that line, not a new one.
    cut: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max: max.max(1),
            cut: false,
        }
    }

    /// Appends the rest of the next line to `buf` (without `\n`); `Ok(false)` at the end of the
    /// stream with nothing read. Cancel-safe: bytes are moved into `buf` as they are consumed, so
    /// a dropped call loses nothing and the next call continues the same line. The caller clears
    /// `buf` after using a line.
    pub async fn next_into(&mut self, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        loop {
            let avail = self.inner.fill_buf().await?;
            if avail.is_empty() {
                return Ok(!buf.is_empty());
            }
            if std::mem::take(&mut self.cut) && buf.is_empty() && avail[0] == b'\n' {
                self.inner.consume_unpin(1);
                continue;
            }
            let room = self.max.saturating_sub(buf.len()).max(1);
            // A newline right at the limit still ends the line in one piece.
            let window = &avail[..avail.len().min(room + 1)];
            if let Some(i) = window.iter().position(|&b| b == b'\n') {
                buf.extend_from_slice(&window[..i]);
                self.inner.consume_unpin(i + 1);
                return Ok(true);
            }
            let n = avail.len().min(room);
            buf.extend_from_slice(&avail[..n]);
            self.inner.consume_unpin(n);
            if buf.len() >= self.max {
                self.cut = true;
                return Ok(true);
            }
        }
    }
}

/// Splits the kubelet's `--timestamps` prefix (`2026-11-28T09:39:02.118000000Z `) off a line.
pub fn split_timestamp(line: &[u8]) -> (Option<&str>, &[u8]) {
    let Some(sp) = line.iter().take(40).position(|&b| b == b' ') else {
        return (None, line);
    };
    let head = &line[..sp];
    let looks = head.len() >= 20
        && head[4] == b'-'
        && head[7] == b'-'
        && head[10] == b'T'
        && head[0].is_ascii_digit();
    match (looks, std::str::from_utf8(head)) {
        (true, Ok(ts)) => (Some(ts), &line[sp + 1..]),
        _ => (None, line),
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Where a followed container's output got to, so a reconnect neither repeats nor skips lines:
/// the last time printed and how many lines carried exactly that time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resume {
    pub last: Option<Timestamp>,
    pub at_last: usize,
}

impl Resume {
    /// The `sinceTime` to reconnect with: the last time, cut to the second (the API's precision).
    pub fn since(&self) -> Option<Timestamp> {
        self.last
            .and_then(|t| Timestamp::from_second(t.as_second()).ok())
    }
}

/// Skips what a previous connection already printed; then records what this one prints.
#[derive(Debug)]
pub struct ResumeFilter {
    state: Resume,
    skip_equal: usize,
}

impl ResumeFilter {
    pub fn new(state: Resume) -> Self {
        let skip_equal = state.at_last;
        ResumeFilter { state, skip_equal }
    }

    /// True when the line is new (and records it).
    pub fn admit(&mut self, ts: Option<&str>) -> bool {
        let Some(t) = ts.and_then(|s| s.parse::<Timestamp>().ok()) else {
            return true;
        };
        match self.state.last {
            Some(last) if t < last => false,
            Some(last) if t == last => {
                if self.skip_equal > 0 {
                    self.skip_equal -= 1;
                    false
                } else {
                    self.state.at_last += 1;
                    true
                }
            }
            _ => {
                self.state.last = Some(t);
                self.state.at_last = 1;
                self.skip_equal = 0;
                true
            }
        }
    }

    pub fn state(&self) -> &Resume {
        &self.state
    }
}

/// Why a log could not be read (or stopped).
#[derive(Debug, Clone, PartialEq)]
pub enum StreamError {
    /// 403: not allowed to read `pods/log`.
    Forbidden(String),
    /// 404: the pod is gone.
    Gone(String),
    /// 400 from the kubelet: no such instance (no previous one, not started, removed).
    Unavailable(String),
    /// The API server or the kubelet could not be reached, or the connection broke.
    Transport(String),
    /// Nobody reads the output any more (stdout closed).
    Closed,
}

impl StreamError {
    fn message(&self) -> &str {
        match self {
            StreamError::Forbidden(m)
            | StreamError::Gone(m)
            | StreamError::Unavailable(m)
            | StreamError::Transport(m) => m,
            StreamError::Closed => "output closed",
        }
    }
}

fn classify(e: kube::Error) -> StreamError {
    match e {
        kube::Error::Api(status) => {
            let m = one_line(&status.message);
            match status.code {
                403 => StreamError::Forbidden(m),
                404 => StreamError::Gone(m),
                400 => StreamError::Unavailable(m),
                401 => StreamError::Transport(format!("Unauthorized: {m}")),
                c => StreamError::Transport(format!("{c} {m}")),
            }
        }
        other => {
            let source = std::error::Error::source(&other)
                .map(|s| format!(": {s}"))
                .unwrap_or_default();
            StreamError::Transport(one_line(&format!("{other}{source}")))
        }
    }
}

/// How to open one stream.
#[derive(Debug, Clone)]
struct Open {
    tail: Option<i64>,
    since_seconds: Option<i64>,
    since_time: Option<Timestamp>,
    follow: bool,
    /// Ask the kubelet for timestamps (always when following, to resume without repeats).
    timestamps: bool,
    /// Print them (the user asked for --timestamps).
    show_timestamps: bool,
}

type Reader = Pin<Box<dyn AsyncBufRead + Send>>;

async fn open(
    api: &Api<Pod>,
    spec: &StreamSpec,
    o: &Open,
    timeout: Option<Duration>,
) -> Result<Reader, StreamError> {
    let lp = LogParams {
        container: Some(spec.container.clone()),
        previous: spec.previous,
        follow: o.follow,
        tail_lines: o.tail,
        since_seconds: o.since_seconds,
        since_time: if o.since_seconds.is_some() {
            None
        } else {
            o.since_time
        },
        timestamps: o.timestamps,
        ..LogParams::default()
    };
    let fut = api.log_stream(&spec.pod, &lp);
    let r = match timeout {
        Some(t) => tokio::time::timeout(t, fut)
            .await
            .map_err(|_| StreamError::Transport(format!("no answer within {}s", t.as_secs())))?,
        None => fut.await,
    };
    r.map(|s| Box::pin(s) as Reader).map_err(classify)
}

/// Attempts to open a stream before giving up on it (without -f, where nothing retries later).
const OPEN_ATTEMPTS: u32 = 3;

/// Opens a stream; a timeout or a broken connection is retried, each time waiting twice as long
/// for the answer: a busy kubelet can take long to send the first byte of a large log.
async fn open_retrying(
    api: &Api<Pod>,
    spec: &StreamSpec,
    o: &Open,
    timeout: Option<Duration>,
) -> Result<Reader, StreamError> {
    let mut attempt = 0;
    loop {
        let wait = timeout.map(|t| t.saturating_mul(1 << attempt));
        match open(api, spec, o, wait).await {
            Err(StreamError::Transport(_)) if attempt + 1 < OPEN_ATTEMPTS => {
                attempt += 1;
                tokio::time::sleep(Duration::from_secs(u64::from(attempt))).await;
            }
            Err(StreamError::Transport(m)) => {
                return Err(StreamError::Transport(format!(
                    "{m} ({OPEN_ATTEMPTS} attempts)"
                )))
            }
            other => return other,
        }
    }
}

/// Reads one open stream to its end, formatting lines into chunks for `sink`. A chunk is sent when
/// it is full or when no more input is ready, so output streams with little latency and few
/// hand-offs. With `resume`, lines already printed are skipped and progress is recorded in it
/// each time a chunk has been handed over.
async fn pump(
    reader: Reader,
    spec: &StreamSpec,
    o: &Open,
    fmt: &dyn LineFormat,
    sink: &mpsc::Sender<Vec<u8>>,
    resume: Option<&Mutex<Resume>>,
) -> Result<u64, StreamError> {
    let prefix = fmt.prefix(spec);
    let mut lines = LineReader::new(reader, MAX_LINE);
    let mut filter =
        resume.map(|r| ResumeFilter::new(r.lock().map(|g| g.clone()).unwrap_or_default()));
    let mut line = Vec::with_capacity(256);
    let mut chunk = Vec::with_capacity(CHUNK + 1024);
    let mut count = 0u64;
    let send = |chunk: &mut Vec<u8>, filter: &Option<ResumeFilter>| {
        let data = std::mem::replace(chunk, Vec::with_capacity(CHUNK + 1024));
        let state = filter.as_ref().map(|f| f.state().clone());
        async move {
            sink.send(data).await.map_err(|_| StreamError::Closed)?;
            if let (Some(m), Some(state)) = (resume, state) {
                if let Ok(mut g) = m.lock() {
                    *g = state;
                }
            }
            Ok::<(), StreamError>(())
        }
    };
    loop {
        let more = if chunk.is_empty() {
            lines.next_into(&mut line).await
        } else {
            match lines.next_into(&mut line).now_or_never() {
                Some(r) => r,
                None => {
                    send(&mut chunk, &filter).await?;
                    lines.next_into(&mut line).await
                }
            }
        };
        let more =
            more.map_err(|e| StreamError::Transport(one_line(&format!("reading the log: {e}"))))?;
        if !more {
            break;
        }
        let raw = strip_cr(&line);
        let (ts, body) = if o.timestamps {
            split_timestamp(raw)
        } else {
            (None, raw)
        };
        let admitted = filter.as_mut().is_none_or(|f| f.admit(ts));
        if admitted {
            let text = String::from_utf8_lossy(body);
            fmt.line(
                spec,
                &prefix,
                if o.show_timestamps { ts } else { None },
                &text,
                &mut chunk,
            );
            count += 1;
        }
        line.clear();
        if chunk.len() >= CHUNK {
            send(&mut chunk, &filter).await?;
        }
    }
    if !chunk.is_empty() {
        send(&mut chunk, &filter).await?;
    } else if let (Some(m), Some(f)) = (resume, &filter) {
        if let Ok(mut g) = m.lock() {
            *g = f.state().clone();
        }
    }
    Ok(count)
}

// ------------------------------------------------------------------------------------------------
// Diagnostics
// ------------------------------------------------------------------------------------------------

/// stderr diagnostics, each said once. Without `-f` they are held until the logs are printed, so
/// they are not scrolled away; with `-f` they are said as they happen.
pub struct Notices {
    seen: Mutex<HashSet<String>>,
    held: Option<Mutex<Vec<String>>>,
}

impl Notices {
    pub fn immediate() -> Self {
        Notices {
            seen: Mutex::new(HashSet::new()),
            held: None,
        }
    }
    pub fn held() -> Self {
        Notices {
            seen: Mutex::new(HashSet::new()),
            held: Some(Mutex::new(Vec::new())),
        }
    }
    pub fn note(&self, msg: impl Into<String>) {
        self.say(format!("note: {}", msg.into()));
    }
    pub fn warn(&self, msg: impl Into<String>) {
        self.say(format!("warning: {}", msg.into()));
    }
    fn say(&self, line: String) {
        let first = self
            .seen
            .lock()
            .map(|mut s| s.insert(line.clone()))
            .unwrap_or(true);
        if !first {
            return;
        }
        match &self.held {
            Some(h) => {
                if let Ok(mut v) = h.lock() {
                    v.push(line);
                }
            }
            None => {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
        }
    }
    /// Says what was held.
    pub fn flush(&self) {
        if let Some(h) = &self.held {
            let lines = h
                .lock()
                .map(|mut v| std::mem::take(&mut *v))
                .unwrap_or_default();
            let mut err = std::io::stderr().lock();
            for l in lines {
                let _ = writeln!(err, "{l}");
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Listing pods
// ------------------------------------------------------------------------------------------------

/// Options of one `logs` run.
#[derive(Debug, Clone)]
pub struct Options {
    pub target: Target,
    pub containers: Containers,
    pub previous: bool,
    pub since_seconds: Option<i64>,
    pub since_time: Option<Timestamp>,
    /// None: every line.
    pub tail: Option<i64>,
    pub timestamps: bool,
    pub max_requests: usize,
    /// For requests that are not log streams (and the first byte of a stream without -f).
    pub request_timeout: Option<Duration>,
    pub verbose: u8,
}

#[derive(Debug)]
enum ListError {
    /// The cluster said no or could not be reached (exit 3).
    Incomplete(String),
    /// The request itself was wrong, e.g. an invalid selector (exit 2).
    Input(String),
}

impl ListError {
    fn into_error(self) -> Error {
        match self {
            ListError::Incomplete(m) => Error::Incomplete(m),
            ListError::Input(m) => Error::Input(m),
        }
    }
    fn message(&self) -> &str {
        match self {
            ListError::Incomplete(m) | ListError::Input(m) => m,
        }
    }
}

async fn list_pods(
    client: &kube::Client,
    ns: Option<&str>,
    target: &Target,
    timeout: Option<Duration>,
) -> Result<Vec<Pod>, ListError> {
    let api: Api<Pod> = match ns {
        Some(ns) => Api::namespaced(client.clone(), ns),
        None => Api::all(client.clone()),
    };
    let scope = ns
        .map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "all namespaces".into());
    let lists = target.selectors().into_iter().map(|sel| {
        let api = api.clone();
        let scope = scope.clone();
        async move {
            let fut = paged(&api, &sel);
            let r = match timeout {
                Some(t) => tokio::time::timeout(t, fut).await.map_err(|_| {
                    ListError::Incomplete(format!(
                        "list pods in {scope}: no answer within {}s",
                        t.as_secs()
                    ))
                })?,
                None => fut.await,
            };
            r.map_err(|e| match classify(e) {
                StreamError::Unavailable(m) => {
                    ListError::Input(format!("list pods with selector `{sel}`: {m}"))
                }
                StreamError::Forbidden(m) => {
                    ListError::Incomplete(format!("list pods in {scope}: forbidden: {m}"))
                }
                other => {
                    ListError::Incomplete(format!("list pods in {scope}: {}", other.message()))
                }
            })
        }
    });
    let results = futures::future::join_all(lists).await;
    let mut seen = HashSet::new();
    let mut pods = Vec::new();
    for r in results {
        for p in r? {
            let key = (pod_namespace(&p).to_string(), pod_name(&p).to_string());
            if seen.insert(key) {
                pods.push(p);
            }
        }
    }
    order_pods(&mut pods);
    Ok(pods)
}

async fn paged(api: &Api<Pod>, selector: &str) -> Result<Vec<Pod>, kube::Error> {
    let mut out = Vec::new();
    let mut params = ListParams::default().limit(PAGE).labels(selector);
    loop {
        let page = api.list(&params).await?;
        let next = page.metadata.continue_.clone().filter(|c| !c.is_empty());
        out.extend(page.items);
        match next {
            Some(token) => params = params.continue_token(&token),
            None => return Ok(out),
        }
    }
}

/// The error for "nothing matched", with what would help.
async fn nothing_matched(cluster: &Cluster, target: &Target, timeout: Option<Duration>) -> Error {
    let scope = cluster
        .namespace
        .as_deref()
        .map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "any namespace".into());
    let hint = match (&target.name, target.component) {
        (_, Some(Component::Operator)) => {
            " (the operator usually runs in its own namespace: add -n NAMESPACE or -A)".to_string()
        }
        (Some(name), _) => match (&cluster.namespace, flink_deployment_exists(cluster, name, timeout).await) {
            (Some(_), true) => format!(
                " (FlinkDeployment {name} exists but has no such pods now: see `kubectl flink doctor {name}`)"
            ),
            _ => " (check the name and the namespace (-n, -A); for other pods use -l SELECTOR)".to_string(),
        },
        (None, _) => String::new(),
    };
    Error::Input(format!(
        "no pods match {} in {scope}{hint}",
        target.describe()
    ))
}

async fn flink_deployment_exists(cluster: &Cluster, name: &str, timeout: Option<Duration>) -> bool {
    let Some(ns) = cluster.namespace.as_deref() else {
        return false;
    };
    let ar = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(GROUP, VERSION, "FlinkDeployment"),
        "flinkdeployments",
    );
    let api: Api<DynamicObject> = Api::namespaced_with(cluster.client.clone(), ns, &ar);
    let t = timeout.unwrap_or(Duration::from_secs(10));
    matches!(
        tokio::time::timeout(t, api.get_opt(name)).await,
        Ok(Ok(Some(_)))
    )
}

// ------------------------------------------------------------------------------------------------
// Without -f: read every stream once, print in order
// ------------------------------------------------------------------------------------------------

/// Reads every selected container's log once and prints them grouped per container in the stable
/// order, while up to `max_requests` are fetched concurrently. Each stream not yet being printed
/// may buffer only a few chunks, so memory stays bounded.
pub async fn print_once(
    cluster: &Cluster,
    opts: &Options,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    notices: &Notices,
) -> Result<i32, Error> {
    let ns = cluster.namespace.as_deref();
    if opts.verbose > 0 {
        notices.note(format!(
            "looking for pods with {} in {}",
            opts.target.describe(),
            cluster.scope_description()
        ));
    }
    let pods = list_pods(&cluster.client, ns, &opts.target, opts.request_timeout)
        .await
        .map_err(ListError::into_error)?;
    let pods: Vec<Pod> = pods.into_iter().filter(|p| opts.target.keeps(p)).collect();
    if pods.is_empty() {
        return Err(nothing_matched(cluster, &opts.target, opts.request_timeout).await);
    }
    if let Containers::Named(c) = &opts.containers {
        if !pods
            .iter()
            .any(|p| !selected_containers(p, &opts.containers).is_empty())
        {
            return Err(Error::Input(format!(
                "no selected pod has a container named {c} (they have: {})",
                container_names(&pods)
            )));
        }
    }
    let plan = plan(&pods, &opts.target, &opts.containers, opts.previous);
    for n in &plan.notes {
        notices.note(n.clone());
    }
    if opts.verbose > 0 {
        notices.note(format!(
            "{} pod{}, {} stream{} to read, {} at a time",
            pods.len(),
            if pods.len() == 1 { "" } else { "s" },
            plan.streams.len(),
            if plan.streams.len() == 1 { "" } else { "s" },
            opts.max_requests
        ));
    }
    if plan.streams.is_empty() {
        return Err(Error::Input(format!(
            "none of the {} selected container{} has a log to show{}",
            plan.skipped,
            if plan.skipped == 1 { "" } else { "s" },
            if opts.previous {
                " with -p (see the notes above)"
            } else {
                " yet (see the notes above)"
            }
        )));
    }

    let o = Open {
        tail: opts.tail,
        since_seconds: opts.since_seconds,
        since_time: opts.since_time,
        follow: false,
        timestamps: opts.timestamps,
        show_timestamps: opts.timestamps,
    };
    let total = plan.streams.len();
    let sem = Arc::new(Semaphore::new(opts.max_requests.max(1)));
    let mut receivers = Vec::with_capacity(total);
    let mut jobs = Vec::with_capacity(total);
    for spec in plan.streams {
        let (tx, rx) = mpsc::channel::<Vec<u8>>(STREAM_BUFFER_CHUNKS);
        let (done_tx, done_rx) = oneshot::channel::<Result<u64, StreamError>>();
        receivers.push((spec.clone(), rx, done_rx));
        jobs.push((spec, tx, done_tx));
    }
    // Permits are taken in print order, so the stream being printed always holds one: no deadlock
    // however small the buffers.
    let client = cluster.client.clone();
    let timeout = opts.request_timeout;
    let spawner = tokio::spawn(async move {
        for (spec, tx, done_tx) in jobs {
            let Ok(permit) = sem.clone().acquire_owned().await else {
                return;
            };
            if tx.is_closed() {
                return;
            }
            let api: Api<Pod> = Api::namespaced(client.clone(), &spec.namespace);
            let fmt = fmt.clone();
            let o = o.clone();
            tokio::spawn(async move {
                let r = match open_retrying(&api, &spec, &o, timeout).await {
                    Ok(reader) => pump(reader, &spec, &o, fmt.as_ref(), &tx, None).await,
                    Err(e) => Err(e),
                };
                drop(permit);
                let _ = done_tx.send(r);
            });
        }
    });

    let mut ok = 0usize;
    let mut failures: Vec<(StreamSpec, StreamError)> = Vec::new();
    for (spec, mut rx, done_rx) in receivers {
        while let Some(chunk) = rx.recv().await {
            if out.send(chunk).await.is_err() {
                spawner.abort();
                return Ok(crate::error::EXIT_OK);
            }
        }
        match done_rx.await {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(StreamError::Closed)) => {
                spawner.abort();
                return Ok(crate::error::EXIT_OK);
            }
            Ok(Err(e)) => failures.push((spec, e)),
            Err(_) => failures.push((spec, StreamError::Transport("the reader stopped".into()))),
        }
    }
    let pods_by_name: BTreeMap<(String, String), &Pod> = pods
        .iter()
        .map(|p| ((pod_namespace(p).to_string(), pod_name(p).to_string()), p))
        .collect();
    for (spec, e) in &failures {
        let pod = pods_by_name
            .get(&(spec.namespace.clone(), spec.pod.clone()))
            .copied();
        notices.warn(failure_message(spec, e, pod));
    }
    if ok == 0 && !failures.is_empty() {
        let cluster_side = failures
            .iter()
            .all(|(_, e)| matches!(e, StreamError::Forbidden(_) | StreamError::Transport(_)));
        let what = format!(
            "could not read any of the {} container log{}",
            total,
            if total == 1 { "" } else { "s" }
        );
        return Err(if cluster_side {
            Error::Incomplete(format!("{what}: {}", failures[0].1.message()))
        } else {
            Error::Input(format!("{what} (see the warnings above)"))
        });
    }
    Ok(crate::error::EXIT_OK)
}

fn container_names(pods: &[Pod]) -> String {
    let names: BTreeSet<String> = pods
        .iter()
        .filter_map(|p| p.spec.as_ref())
        .flat_map(|s| {
            s.containers
                .iter()
                .chain(s.init_containers.iter().flatten())
                .map(|c| c.name.clone())
        })
        .collect();
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// What to tell the user when one log could not be read, and what to change.
pub fn failure_message(spec: &StreamSpec, e: &StreamError, pod: Option<&Pod>) -> String {
    let who = spec.name();
    let what = if spec.previous {
        "previous instance's log"
    } else {
        "log"
    };
    match e {
        StreamError::Forbidden(m) => {
            format!("cannot read the {what} of {who}: forbidden ({m}); reading logs needs `get` on pods/log in namespace {}", spec.namespace)
        }
        StreamError::Gone(_) => {
            let hint = match pod {
                Some(p) if spec.role == Role::TaskManager && is_native(p) => {
                    format!(": {TASKMANAGER_GONE_HINT}")
                }
                _ => String::new(),
            };
            format!(
                "{who}: the pod was deleted before its {what} could be read; the log is gone{hint}"
            )
        }
        StreamError::Unavailable(m) => {
            let hint = if spec.previous {
                format!("; {PREVIOUS_HINT}")
            } else if pod.is_some_and(|p| evicted(p).is_some()) {
                format!("; {EVICTED_HINT}")
            } else if spec.role == Role::TaskManager && pod.is_some_and(is_native) {
                format!("; {TASKMANAGER_GONE_HINT}")
            } else {
                "; the kubelet no longer has it (the container was removed), or it has not started"
                    .to_string()
            };
            format!("no {what} for {who} ({m}){hint}")
        }
        StreamError::Transport(m) => format!("could not read the {what} of {who}: {m}"),
        StreamError::Closed => format!("{who}: output closed"),
    }
}

// ------------------------------------------------------------------------------------------------
// With -f: follow, and keep following
// ------------------------------------------------------------------------------------------------

type Key = (String, String, String);

fn key_of(spec: &StreamSpec) -> Key {
    (
        spec.namespace.clone(),
        spec.pod.clone(),
        spec.container.clone(),
    )
}

struct Tracked {
    spec: StreamSpec,
    uid: String,
    /// A native-mode pod (TaskManagers are bare pods that Flink deletes).
    native: bool,
    restart_count: i32,
    task: Option<tokio::task::JoinHandle<()>>,
    /// A stream of the previous instance, aborted: the next stream waits for it to be gone before
    /// it reads the resume point, so no line is printed twice.
    superseded: Option<tokio::task::JoinHandle<()>>,
    generation: u64,
    resume: Arc<Mutex<Resume>>,
    /// Tail for the first connection (the user's for containers already running at start; all
    /// lines for pods and instances that appear later).
    first_tail: Option<i64>,
    opened: bool,
    /// The stream was opened on an instance that had already ended.
    opened_on_ended: bool,
    /// This instance ended and its log was read to the end: wait for a restart.
    instance_done: bool,
    failures: u32,
    retry_at: Option<Instant>,
}

struct Ended {
    key: Key,
    generation: u64,
    result: Result<u64, StreamError>,
}

fn backoff(failures: u32) -> Duration {
    let ms = 500u64.saturating_mul(1u64 << failures.min(6));
    Duration::from_millis(ms.min(30_000))
}

/// Follows every selected container until Ctrl-C (handled by the caller) or until stdout closes.
pub async fn follow(
    cluster: &Cluster,
    opts: &Options,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    notices: Arc<Notices>,
) -> Result<i32, Error> {
    let ns = cluster.namespace.as_deref();
    let client = cluster.client.clone();
    let scope = cluster.scope_description();
    if opts.verbose > 0 {
        notices.note(format!(
            "following pods with {} in {scope}",
            opts.target.describe()
        ));
    }
    let (ev_tx, mut ev_rx) = mpsc::channel::<Ended>(256);
    let opened = Arc::new(AtomicUsize::new(0));
    let lines_printed = Arc::new(AtomicU64::new(0));
    let mut tracked: BTreeMap<Key, Tracked> = BTreeMap::new();
    let mut known_pods: HashSet<(String, String, String)> = HashSet::new();
    let mut at_start: HashSet<Key> = HashSet::new();
    let mut pods: Vec<Pod> = Vec::new();
    let mut first_round = true;
    let mut said_waiting = false;
    let mut said_cap = false;
    let mut list_failures = 0u32;
    let mut forbidden_streams: HashSet<Key> = HashSet::new();
    let mut next_list = Instant::now();
    let mut ticker = tokio::time::interval(Duration::from_millis(200));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        tokio::select! {
            _ = out.closed() => {
                abort_all(&mut tracked);
                return Ok(crate::error::EXIT_OK);
            }
            Some(ev) = ev_rx.recv() => {
                if matches!(ev.result, Err(StreamError::Closed)) {
                    abort_all(&mut tracked);
                    return Ok(crate::error::EXIT_OK);
                }
                if let Err(StreamError::Forbidden(_)) = &ev.result {
                    forbidden_streams.insert(ev.key.clone());
                }
                ended(&mut tracked, ev, &notices, opts.verbose);
                // A stream ended: look at the pods soon (an exit, a restart or a deletion).
                next_list = next_list.min(Instant::now() + Duration::from_millis(300));
                if opened.load(AtomicOrdering::Relaxed) == 0
                    && !tracked.is_empty()
                    && tracked.keys().all(|k| forbidden_streams.contains(k))
                {
                    abort_all(&mut tracked);
                    return Err(Error::Incomplete(format!(
                        "cannot read any pod's log in {scope}: forbidden (reading logs needs `get` on pods/log)"
                    )));
                }
            }
            _ = ticker.tick() => {}
        }

        if Instant::now() >= next_list {
            match list_pods(
                &client,
                ns,
                &opts.target,
                opts.request_timeout.or(Some(Duration::from_secs(30))),
            )
            .await
            {
                Ok(p) => {
                    if list_failures > 0 {
                        notices.note(format!(
                            "listing pods works again after {list_failures} failure(s)"
                        ));
                    }
                    list_failures = 0;
                    pods = p.into_iter().filter(|p| opts.target.keeps(p)).collect();
                }
                Err(e) if first_round => return Err(e.into_error()),
                Err(e) => {
                    list_failures += 1;
                    if list_failures == 1 {
                        notices.warn(format!(
                            "{}; still following what is open, retrying",
                            e.message()
                        ));
                    }
                }
            }
            next_list = Instant::now() + POLL;
            if pods.is_empty() && !said_waiting {
                said_waiting = true;
                notices.note(format!(
                    "no pods match {} in {scope} yet: waiting for them to appear (Ctrl-C to stop)",
                    opts.target.describe()
                ));
            }
            if let Containers::Named(c) = &opts.containers {
                if !pods.is_empty()
                    && !pods
                        .iter()
                        .any(|p| !selected_containers(p, &opts.containers).is_empty())
                {
                    notices.note(format!(
                        "no pod has a container named {c} yet (they have: {}): waiting",
                        container_names(&pods)
                    ));
                }
            }
            gone(&mut tracked, &pods, &notices);
            let desired = admit(
                &pods,
                opts,
                &mut tracked,
                &mut known_pods,
                &mut at_start,
                first_round,
                &mut said_cap,
                &notices,
            );
            update_instances(&mut tracked, &pods, &desired, &notices);
            if first_round {
                if let Some(n) = missing_taskmanagers(&pods, &opts.target) {
                    notices.note(n);
                }
            }
            first_round = false;
        }

        // Open what should be open.
        let now = Instant::now();
        let by_name: BTreeMap<(&str, &str), &Pod> = pods
            .iter()
            .map(|p| ((pod_namespace(p), pod_name(p)), p))
            .collect();
        for (key, t) in tracked.iter_mut() {
            if t.task.is_some() || t.instance_done || t.retry_at.is_some_and(|at| now < at) {
                continue;
            }
            let Some(pod) = by_name.get(&(key.0.as_str(), key.1.as_str())) else {
                continue;
            };
            let Some(st) = container_status(pod, &key.2) else {
                continue;
            };
            let over = instance_over(st);
            if !running(st) && !over {
                continue; // not started yet
            }
            let resume_state = t.resume.lock().map(|g| g.clone()).unwrap_or_default();
            let o = Open {
                tail: if resume_state.last.is_some() || t.opened {
                    None
                } else {
                    t.first_tail
                },
                since_seconds: if resume_state.last.is_some() {
                    None
                } else {
                    opts.since_seconds
                },
                since_time: resume_state.since().or(opts.since_time),
                follow: !over,
                timestamps: true,
                show_timestamps: opts.timestamps,
            };
            t.generation += 1;
            t.opened = true;
            t.opened_on_ended = over;
            let generation = t.generation;
            let mut spec = t.spec.clone();
            spec.previous = crash_waiting(st);
            let api: Api<Pod> = Api::namespaced(client.clone(), &spec.namespace);
            let fmt = fmt.clone();
            let out = out.clone();
            let ev_tx = ev_tx.clone();
            let resume = t.resume.clone();
            let opened = opened.clone();
            let lines_printed = lines_printed.clone();
            // A busy kubelet can be slow to send the first byte: wait longer after each failure.
            let timeout = opts
                .request_timeout
                .or(Some(Duration::from_secs(30)))
                .map(|d| d.saturating_mul(1 << t.failures.min(3)));
            let key = key.clone();
            let superseded = t.superseded.take();
            t.task = Some(tokio::spawn(async move {
                if let Some(old) = superseded {
                    let _ = old.await;
                }
                let result = match open(&api, &spec, &o, timeout).await {
                    Ok(reader) => {
                        opened.fetch_add(1, AtomicOrdering::Relaxed);
                        let r = pump(reader, &spec, &o, fmt.as_ref(), &out, Some(&resume)).await;
                        if let Ok(n) = &r {
                            lines_printed.fetch_add(*n, AtomicOrdering::Relaxed);
                        }
                        r
                    }
                    Err(e) => Err(e),
                };
                let _ = ev_tx
                    .send(Ended {
                        key,
                        generation,
                        result,
                    })
                    .await;
            }));
        }
    }
}

fn abort_all(tracked: &mut BTreeMap<Key, Tracked>) {
    for t in tracked.values_mut() {
        if let Some(h) = t.task.take() {
            h.abort();
        }
    }
}

/// Pods that went away: say so once, stop their streams.
fn gone(tracked: &mut BTreeMap<Key, Tracked>, pods: &[Pod], notices: &Notices) {
    let present: HashSet<(&str, &str, &str)> = pods
        .iter()
        .map(|p| {
            (
                pod_namespace(p),
                pod_name(p),
                p.metadata.uid.as_deref().unwrap_or(""),
            )
        })
        .collect();
    let mut said = HashSet::new();
    tracked.retain(|key, t| {
        if present.contains(&(key.0.as_str(), key.1.as_str(), t.uid.as_str())) {
            return true;
        }
        if let Some(h) = t.task.take() {
            h.abort();
        }
        if said.insert(key.1.clone()) {
            let hint = if t.spec.role == Role::TaskManager && t.native {
                format!("; {TASKMANAGER_GONE_HINT}")
            } else {
                String::new()
            };
            notices.note(format!(
                "pod/{} ({}) is gone: stopped following it{hint}",
                key.1,
                t.spec.role.as_str()
            ));
        }
        false
    });
}

/// Starts tracking new containers in the stable order, up to --max-log-requests; returns the keys
/// that are wanted now.
#[allow(clippy::too_many_arguments)]
fn admit(
    pods: &[Pod],
    opts: &Options,
    tracked: &mut BTreeMap<Key, Tracked>,
    known_pods: &mut HashSet<(String, String, String)>,
    at_start: &mut HashSet<Key>,
    first_round: bool,
    said_cap: &mut bool,
    notices: &Notices,
) -> Vec<Key> {
    let mut wanted = Vec::new();
    let mut left_out = Vec::new();
    for pod in pods {
        let uid = pod.metadata.uid.clone().unwrap_or_default();
        let pod_key = (
            pod_namespace(pod).to_string(),
            pod_name(pod).to_string(),
            uid.clone(),
        );
        let new_pod = known_pods.insert(pod_key);
        if new_pod {
            if let Some(msg) = evicted(pod) {
                let msg = if msg.is_empty() {
                    String::new()
                } else {
                    format!(" ({msg})")
                };
                notices.note(format!(
                    "pod/{} was evicted{msg}: {EVICTED_HINT}",
                    pod_name(pod)
                ));
            }
        }
        let mut admitted_here = false;
        for c in selected_containers(pod, &opts.containers) {
            let spec = StreamSpec::new(pod, &c, false);
            let key = key_of(&spec);
            wanted.push(key.clone());
            let st = container_status(pod, &c);
            // Containers already running when we start get the user's tail (also when a slot
            // frees up for them later); anything that starts later is read from its first line.
            let started_before = st.is_some_and(|s| running(s) || instance_over(s));
            if first_round && started_before {
                at_start.insert(key.clone());
            }
            if tracked.contains_key(&key) {
                continue;
            }
            if tracked.len() >= opts.max_requests.max(1) {
                left_out.push(spec.name());
                continue;
            }
            let first_tail = if started_before && at_start.contains(&key) {
                opts.tail
            } else {
                None
            };
            tracked.insert(
                key,
                Tracked {
                    spec,
                    uid: uid.clone(),
                    native: is_native(pod),
                    restart_count: st.map(|s| s.restart_count).unwrap_or(0),
                    task: None,
                    superseded: None,
                    generation: 0,
                    resume: Arc::new(Mutex::new(Resume::default())),
                    first_tail,
                    opened: false,
                    opened_on_ended: false,
                    instance_done: false,
                    failures: 0,
                    retry_at: None,
                },
            );
            admitted_here = true;
        }
        if new_pod && !first_round && admitted_here {
            notices.note(format!(
                "pod/{} ({}) appeared: following it",
                pod_name(pod),
                role(pod).as_str()
            ));
        }
    }
    if !left_out.is_empty() && !*said_cap {
        *said_cap = true;
        let followed = tracked.len();
        notices.warn(format!(
            "--max-log-requests {}: following {followed} of {} containers; not followed: {}. Raise \
             --max-log-requests, or narrow with --component, -c or -l",
            opts.max_requests,
            followed + left_out.len(),
            list_some(&left_out, 5)
        ));
    }
    wanted
}

/// Restarts and exits seen in the pods' status.
fn update_instances(
    tracked: &mut BTreeMap<Key, Tracked>,
    pods: &[Pod],
    wanted: &[Key],
    notices: &Notices,
) {
    let by_name: BTreeMap<(&str, &str), &Pod> = pods
        .iter()
        .map(|p| ((pod_namespace(p), pod_name(p)), p))
        .collect();
    let wanted: HashSet<&Key> = wanted.iter().collect();
    for (key, t) in tracked.iter_mut() {
        if !wanted.contains(key) {
            continue;
        }
        let Some(pod) = by_name.get(&(key.0.as_str(), key.1.as_str())) else {
            continue;
        };
        let Some(st) = container_status(pod, &key.2) else {
            continue;
        };
        if st.restart_count > t.restart_count {
            let exit = last_exit(st)
                .map(|e| format!(" (last {e})"))
                .unwrap_or_default();
            notices.note(format!(
                "{} restarted (restart {}){exit}: following the new instance",
                t.spec.name(),
                st.restart_count
            ));
            t.restart_count = st.restart_count;
            if let Some(h) = t.task.take() {
                h.abort();
                t.superseded = Some(h);
            }
            t.generation += 1;
            // The new instance is read from its first line; lines already printed (by a stream
            // that reconnected to it first) are skipped by their time.
            t.first_tail = None;
            t.instance_done = false;
            t.failures = 0;
            t.retry_at = None;
        } else if instance_over(st) {
            let mut how = last_exit(st).unwrap_or_else(|| "ended".into());
            if st.restart_count > 0 {
                how.push_str(&format!("; restarts so far: {}", st.restart_count));
            }
            let never =
                pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("Never");
            let next = if never {
                "it is not restarted (restartPolicy Never)"
            } else {
                "waiting for a restart"
            };
            notices.note(format!("{} exited ({how}); {next}", t.spec.name()));
        }
    }
}

/// A stream ended: decide when to read again.
fn ended(tracked: &mut BTreeMap<Key, Tracked>, ev: Ended, notices: &Notices, verbose: u8) {
    let Some(t) = tracked.get_mut(&ev.key) else {
        return;
    };
    if t.generation != ev.generation {
        return; // an aborted stream of an older instance
    }
    t.task = None;
    let now = Instant::now();
    let name = t.spec.name();
    match ev.result {
        Ok(n) => {
            if t.opened_on_ended {
                // The instance had ended: its log is read to the end.
                t.instance_done = true;
                t.failures = 0;
                return;
            }
            // A live stream ended: the container exited (its status will say so) or the
            // connection was cut. Read again; back off while nothing new comes.
            t.failures = if n > 0 { 0 } else { t.failures + 1 };
            t.retry_at = Some(now + backoff(t.failures));
            if verbose > 0 {
                notices.note(format!(
                    "{name}: log stream ended after {n} line(s); reconnecting"
                ));
            }
        }
        Err(StreamError::Closed) => {}
        Err(StreamError::Gone(_)) => {
            t.retry_at = Some(now + Duration::from_secs(2));
        }
        Err(StreamError::Unavailable(m)) => {
            // Not running right now (between restarts): the next status says what happened.
            t.failures += 1;
            t.retry_at = Some(now + backoff(t.failures));
            if verbose > 0 {
                notices.note(format!("{name}: no log right now ({m}); retrying"));
            }
        }
        Err(StreamError::Forbidden(m)) => {
            t.failures += 1;
            t.retry_at = Some(now + Duration::from_secs(30));
            notices.warn(format!(
                "cannot read the log of {name}: forbidden ({m}); reading logs needs `get` on pods/log; retrying every 30 s"
            ));
        }
        Err(StreamError::Transport(m)) => {
            t.failures += 1;
            let wait = backoff(t.failures);
            t.retry_at = Some(now + wait);
            if t.failures == 1 || verbose > 0 {
                notices.warn(format!(
                    "{name}: log stream failed ({m}); retrying (backing off up to 30 s)"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{
        Container, ContainerState, ContainerStateRunning, ContainerStateTerminated,
        ContainerStateWaiting, PodSpec, PodStatus,
    };
    use std::collections::BTreeMap as Map;

    fn pod(name: &str, labels: &[(&str, &str)], containers: &[&str]) -> Pod {
        let mut p = Pod::default();
        p.metadata.name = Some(name.into());
        p.metadata.namespace = Some("ns".into());
        p.metadata.labels = Some(
            labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Map<_, _>>(),
        );
        p.spec = Some(PodSpec {
            containers: containers
                .iter()
                .map(|c| Container {
                    name: c.to_string(),
                    ..Container::default()
                })
                .collect(),
            ..PodSpec::default()
        });
        p
    }

    fn with_status(
        mut p: Pod,
        container: &str,
        restarts: i32,
        state: ContainerState,
        last_exit: Option<i32>,
    ) -> Pod {
        let st = ContainerStatus {
            name: container.into(),
            restart_count: restarts,
            state: Some(state),
            last_state: last_exit.map(|code| ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: code,
                    reason: Some("Error".into()),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..ContainerStatus::default()
        };
        let status = p.status.get_or_insert_with(PodStatus::default);
        status.phase = Some("Running".into());
        status
            .container_statuses
            .get_or_insert_with(Vec::new)
            .push(st);
        p
    }

    fn run_state() -> ContainerState {
        ContainerState {
            running: Some(ContainerStateRunning::default()),
            ..Default::default()
        }
    }

    fn waiting(reason: &str) -> ContainerState {
        ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: Some(reason.into()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    const JM: &[(&str, &str)] = &[
        ("app", "orders"),
        ("component", "jobmanager"),
        ("type", "flink-native-kubernetes"),
    ];
    const TM: &[(&str, &str)] = &[
        ("app", "orders"),
        ("component", "taskmanager"),
        ("type", "flink-native-kubernetes"),
    ];

    #[test]
    fn selectors_per_mode() {
        let t = Target {
            name: Some("orders".into()),
            ..Target::default()
        };
        assert_eq!(
            t.selectors(),
            vec![
                "app=orders,component in (jobmanager,taskmanager)",
                "flink-app=orders,flink-deployment-type in (jobmanager,taskmanager)"
            ]
        );
        let jm = Target {
            name: Some("orders".into()),
            component: Some(Component::JobManager),
            ..Target::default()
        };
        assert_eq!(
            jm.selectors(),
            vec![
                "app=orders,component=jobmanager",
                "flink-app=orders,flink-deployment-type=jobmanager"
            ]
        );
        let op = Target {
            component: Some(Component::Operator),
            ..Target::default()
        };
        assert_eq!(
            op.selectors(),
            vec![
                "app.kubernetes.io/name=flink-kubernetes-operator",
                "app=flinkoperator"
            ]
        );
        let l = Target {
            selector: Some("team=data".into()),
            component: Some(Component::TaskManager),
            ..Target::default()
        };
        assert_eq!(l.selectors(), vec!["team=data"]);
        assert!(l.keeps(&pod("t", TM, &["c"])));
        assert!(!l.keeps(&pod("j", JM, &["c"])));
        let all = Target::default();
        assert_eq!(
            all.selectors()[0],
            "app,component in (jobmanager,taskmanager)"
        );
    }

    #[test]
    fn roles_from_labels_in_every_mode() {
        assert_eq!(role(&pod("a", JM, &[])), Role::JobManager);
        assert_eq!(
            role(&pod(
                "a",
                &[("flink-app", "x"), ("flink-deployment-type", "taskmanager")],
                &[]
            )),
            Role::TaskManager
        );
        assert_eq!(
            role(&pod(
                "a",
                &[("app.kubernetes.io/name", "flink-kubernetes-operator")],
                &[]
            )),
            Role::Operator
        );
        assert_eq!(
            role(&pod("a", &[("app", "flinkoperator")], &[])),
            Role::Operator
        );
        assert_eq!(role(&pod("a", &[("app", "web")], &[])), Role::Other);
    }

    #[test]
    fn order_is_jobmanager_first_then_taskmanagers_naturally() {
        let mut pods = vec![
            pod("orders-taskmanager-1-10", TM, &[]),
            pod("orders-taskmanager-1-2", TM, &[]),
            pod("orders-5d8f-x7k2p", JM, &[]),
            pod("orders-taskmanager-1-1", TM, &[]),
        ];
        order_pods(&mut pods);
        let names: Vec<&str> = pods.iter().map(pod_name).collect();
        assert_eq!(
            names,
            vec![
                "orders-5d8f-x7k2p",
                "orders-taskmanager-1-1",
                "orders-taskmanager-1-2",
                "orders-taskmanager-1-10"
            ]
        );
        assert_eq!(natural_cmp("a-01", "a-1"), Ordering::Greater);
        assert_eq!(natural_cmp("a", "a-1"), Ordering::Less);
    }

    #[test]
    fn default_container_is_the_main_one_or_all() {
        let p = pod("j", JM, &["istio-proxy", "flink-main-container"]);
        assert_eq!(
            selected_containers(&p, &Containers::Default),
            vec!["flink-main-container"]
        );
        assert_eq!(
            selected_containers(&p, &Containers::All),
            vec!["istio-proxy", "flink-main-container"]
        );
        assert_eq!(
            selected_containers(&p, &Containers::Named("istio-proxy".into())),
            vec!["istio-proxy"]
        );
        assert!(selected_containers(&p, &Containers::Named("nope".into())).is_empty());
        let lyft = pod("l", &[("flink-app", "x")], &["jobmanager", "sidecar"]);
        assert_eq!(
            selected_containers(&lyft, &Containers::Default),
            vec!["jobmanager", "sidecar"]
        );
        let mut op = pod("op", &[], &["flink-kubernetes-operator", "flink-webhook"]);
        op.metadata.annotations = Some(
            [(
                DEFAULT_CONTAINER_ANNOTATION.to_string(),
                "flink-kubernetes-operator".to_string(),
            )]
            .into(),
        );
        assert_eq!(
            selected_containers(&op, &Containers::Default),
            vec!["flink-kubernetes-operator"]
        );
    }

    #[test]
    fn plan_skips_what_has_no_log_and_says_why() {
        let target = Target {
            name: Some("orders".into()),
            ..Target::default()
        };
        let jm = with_status(
            pod("jm", JM, &["flink-main-container"]),
            "flink-main-container",
            3,
            run_state(),
            Some(239),
        );
        let tm_pending = with_status(
            pod("tm-1", TM, &["flink-main-container"]),
            "flink-main-container",
            0,
            waiting("ContainerCreating"),
            None,
        );
        let tm = with_status(
            pod("tm-2", TM, &["flink-main-container"]),
            "flink-main-container",
            0,
            run_state(),
            None,
        );
        let pods = vec![jm, tm_pending, tm];
        let p = plan(&pods, &target, &Containers::Default, false);
        assert_eq!(
            p.streams.iter().map(|s| s.pod.as_str()).collect::<Vec<_>>(),
            vec!["jm", "tm-2"]
        );
        assert!(
            p.notes.iter().any(
                |n| n.contains("tm-1/flink-main-container has not started (ContainerCreating)")
            ),
            "{:?}",
            p.notes
        );
        assert!(
            p.notes.iter().any(|n| n
                .contains("jm/flink-main-container (3 restarts, last exit 239, Error")
                && n.contains("-p")),
            "{:?}",
            p.notes
        );

        let p = plan(&pods, &target, &Containers::Default, true);
        assert_eq!(p.streams.len(), 1);
        assert!(p.streams[0].previous);
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("no previous instance")
                    && n.contains("tm-2/flink-main-container")),
            "{:?}",
            p.notes
        );

        // A native JobManager without TaskManagers: where their logs went.
        let p = plan(&pods[..1], &target, &Containers::Default, false);
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("resourcemanager.taskmanager-timeout")),
            "{:?}",
            p.notes
        );
    }

    #[test]
    fn a_crash_looping_container_shows_the_instance_that_crashed() {
        let target = Target {
            name: Some("orders".into()),
            ..Target::default()
        };
        let jm = with_status(
            pod("jm", JM, &["flink-main-container"]),
            "flink-main-container",
            6,
            waiting("CrashLoopBackOff"),
            Some(239),
        );
        let p = plan(&[jm], &target, &Containers::Default, false);
        assert_eq!(p.streams.len(), 1);
        assert!(p.streams[0].previous);
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("not running (CrashLoopBackOff)")
                    && n.contains("instance that crashed: exit 239")),
            "{:?}",
            p.notes
        );
        assert!(
            !p.notes.iter().any(|n| n.starts_with("restarted")),
            "{:?}",
            p.notes
        );
    }

    fn options(max: usize) -> Options {
        Options {
            target: Target {
                name: Some("orders".into()),
                ..Target::default()
            },
            containers: Containers::Default,
            previous: false,
            since_seconds: None,
            since_time: None,
            tail: Some(200),
            timestamps: false,
            max_requests: max,
            request_timeout: None,
            verbose: 0,
        }
    }

    fn running_pod(name: &str, labels: &[(&str, &str)], restarts: i32) -> Pod {
        let mut p = with_status(
            pod(name, labels, &[MAIN_CONTAINER]),
            MAIN_CONTAINER,
            restarts,
            run_state(),
            None,
        );
        p.metadata.uid = Some(format!("uid-{name}"));
        p
    }

    #[test]
    fn follow_admits_in_order_up_to_the_cap_then_sees_restarts_and_deletions() {
        let notices = Notices::held();
        let opts = options(2);
        let mut tracked = BTreeMap::new();
        let (mut known, mut at_start, mut said_cap) = (HashSet::new(), HashSet::new(), false);
        let mut pods = vec![
            running_pod("jm", JM, 0),
            running_pod("tm-1", TM, 0),
            running_pod("tm-2", TM, 0),
        ];
        let wanted = admit(
            &pods,
            &opts,
            &mut tracked,
            &mut known,
            &mut at_start,
            true,
            &mut said_cap,
            &notices,
        );
        assert_eq!(wanted.len(), 3);
        let names: Vec<&str> = tracked.keys().map(|k| k.1.as_str()).collect();
        assert_eq!(names, vec!["jm", "tm-1"]);
        assert!(tracked.values().all(|t| t.first_tail == Some(200)));

        // tm-1 restarts: said once, read from the new instance's first line.
        pods[1] = running_pod("tm-1", TM, 1);
        update_instances(&mut tracked, &pods, &wanted, &notices);
        let t = &tracked[&(
            "ns".to_string(),
            "tm-1".to_string(),
            MAIN_CONTAINER.to_string(),
        )];
        assert_eq!((t.restart_count, t.first_tail), (1, None));

        // tm-1 is deleted: said once; tm-2 takes the freed slot with the user's tail (it was
        // running when we started); a new pod is read from its first line.
        pods.remove(1);
        pods.push(running_pod("tm-3", TM, 0));
        gone(&mut tracked, &pods, &notices);
        admit(
            &pods,
            &opts,
            &mut tracked,
            &mut known,
            &mut at_start,
            false,
            &mut said_cap,
            &notices,
        );
        let names: Vec<&str> = tracked.keys().map(|k| k.1.as_str()).collect();
        assert_eq!(names, vec!["jm", "tm-2"]);
        assert_eq!(
            tracked[&(
                "ns".to_string(),
                "tm-2".to_string(),
                MAIN_CONTAINER.to_string()
            )]
                .first_tail,
            Some(200)
        );

        let said = notices.held.as_ref().unwrap().lock().unwrap().clone();
        assert_eq!(
            said.iter()
                .filter(|l| l.contains("--max-log-requests 2: following 2 of 3"))
                .count(),
            1,
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("tm-1/flink-main-container restarted (restart 1)")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("pod/tm-1 (TaskManager) is gone")
                    && l.contains("taskmanager-timeout")),
            "{said:?}"
        );

        let mut wide = BTreeMap::new();
        admit(
            &pods,
            &options(10),
            &mut wide,
            &mut known,
            &mut at_start,
            false,
            &mut said_cap,
            &notices,
        );
        assert_eq!(
            wide[&(
                "ns".to_string(),
                "tm-3".to_string(),
                MAIN_CONTAINER.to_string()
            )]
                .first_tail,
            None
        );
    }

    #[test]
    fn timestamps_split_and_resume_without_repeats() {
        let (ts, rest) = split_timestamp(b"2026-11-28T09:39:02.118000000Z hello world");
        assert_eq!(ts, Some("2026-11-28T09:39:02.118000000Z"));
        assert_eq!(rest, b"hello world");
        assert_eq!(split_timestamp(b"hello world"), (None, &b"hello world"[..]));
        assert_eq!(split_timestamp(b"\tat x"), (None, &b"\tat x"[..]));

        let mut f = ResumeFilter::new(Resume::default());
        for ts in [
            "2026-01-01T00:00:01Z",
            "2026-01-01T00:00:02.5Z",
            "2026-01-01T00:00:02.5Z",
        ] {
            assert!(f.admit(Some(ts)));
        }
        let state = f.state().clone();
        assert_eq!(state.at_last, 2);
        assert_eq!(state.since().unwrap().to_string(), "2026-01-01T00:00:02Z");
        // The reconnect returns everything since the second: only the third line at 02.5 is new.
        let mut g = ResumeFilter::new(state);
        assert!(!g.admit(Some("2026-01-01T00:00:02.1Z")));
        assert!(!g.admit(Some("2026-01-01T00:00:02.5Z")));
        assert!(!g.admit(Some("2026-01-01T00:00:02.500Z")));
        assert!(g.admit(Some("2026-01-01T00:00:02.5Z")));
        assert!(g.admit(Some("2026-01-01T00:00:03Z")));
        assert!(g.admit(None));
    }

    #[test]
    fn line_reader_bounds_lines_and_keeps_bytes() {
        let data: &[u8] = b"one\r\ntwo\n\xff\xfebad\nabcdefghijkl\nvwxyzabcde\nlast";
        let mut r = LineReader::new(futures::io::Cursor::new(data), 5);
        let mut got = Vec::new();
        let mut buf = Vec::new();
        futures::executor::block_on(async {
            while r.next_into(&mut buf).await.unwrap() {
                got.push(String::from_utf8_lossy(strip_cr(&buf)).into_owned());
                buf.clear();
            }
        });
        assert_eq!(
            got,
            vec![
                "one",
                "two",
                "\u{fffd}\u{fffd}bad",
                "abcde",
                "fghij",
                "kl",
                "vwxyz",
                "abcde",
                "last"
            ]
        );
    }

    #[test]
    fn gone_logs_say_what_to_change() {
        let tm = pod("orders-taskmanager-1-1", TM, &["flink-main-container"]);
        let spec = StreamSpec::new(&tm, "flink-main-container", false);
        let m = failure_message(&spec, &StreamError::Gone("not found".into()), Some(&tm));
        assert!(m.contains("resourcemanager.taskmanager-timeout"), "{m}");
        let prev = StreamSpec::new(&tm, "flink-main-container", true);
        let m = failure_message(
            &prev,
            &StreamError::Unavailable("previous terminated container not found".into()),
            Some(&tm),
        );
        assert!(m.contains("drop -p"), "{m}");
    }
}

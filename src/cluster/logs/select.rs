//! Which pods and containers to read, and what to say about the rest: the Flink labels of every
//! deployment mode, roles, the containers choice and the stable print order. Pure: the pods'
//! labels, spec and status are all it looks at, and it is tested on pods built in code.

use crate::error::one_line;
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use regex::Regex;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::flink::identity::{self, OperatorKind};
use crate::flink::mode::{Component, Mode};
pub use crate::flink::names::MAIN_CONTAINER;
use crate::flink::names::{FLINKCLUSTER_APP, LABEL_APP, LABEL_CLUSTER, LABEL_FLINK_APP};

/// kubectl's annotation naming a pod's default container (the operator's pods carry it).
pub const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";

pub const TASKMANAGER_GONE_HINT: &str = "native TaskManager pods are deleted when they fail, or after \
resourcemanager.taskmanager-timeout (default 30 s) when idle, and their logs go with them: raise \
resourcemanager.taskmanager-timeout (e.g. to 10 min) while debugging, and keep `kubectl flink logs -f` \
running to catch the next ones";
pub const EVICTED_HINT: &str = "an evicted pod's logs last only until the kubelet removes its containers: \
keep `kubectl flink logs -f` running to catch them next time, and see `kubectl flink doctor` for what evicted it";
pub const PREVIOUS_HINT: &str =
    "-p shows the instance before the current one, which exists only after a \
restart; drop -p for the current log";

/// How a person names what a pod is to Flink ([`role`]): its component, or "pod".
pub fn role_title(role: Option<Component>) -> &'static str {
    role.map_or("pod", Component::title)
}

/// The print order of roles: JobManagers, TaskManagers, operators, then other pods.
fn role_rank(role: Option<Component>) -> u8 {
    match role {
        Some(Component::JobManager) => 0,
        Some(Component::TaskManager) => 1,
        Some(Component::Operator) => 2,
        None => 3,
    }
}

/// A regular expression from the command line (stern's queries: unanchored, matched anywhere in
/// the name). Compared by its text.
#[derive(Debug, Clone)]
pub struct Pattern(pub Regex);

impl Pattern {
    pub fn new(text: &str) -> Result<Self, regex::Error> {
        Regex::new(text).map(Pattern)
    }
    pub fn is_match(&self, s: &str) -> bool {
        self.0.is_match(s)
    }
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for Pattern {}

/// Which containers of each pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Which {
    /// The pod's `kubectl.kubernetes.io/default-container`, else `flink-main-container`, else all.
    Default,
    /// Every container, init containers first.
    All,
    /// `-c REGEX`: every container (init containers first) whose name matches, as stern's
    /// `--container` (stern/stern@v1.33.0:stern/target.go).
    Matching(Pattern),
}

/// Which containers of each pod, less those `--exclude-container` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Containers {
    pub which: Which,
    /// stern's `--exclude-container` (`-E`): never these, whatever `which` says.
    pub exclude: Vec<Pattern>,
}

impl Containers {
    pub fn default_choice() -> Self {
        Containers {
            which: Which::Default,
            exclude: Vec::new(),
        }
    }
    pub fn all() -> Self {
        Containers {
            which: Which::All,
            exclude: Vec::new(),
        }
    }
    pub fn matching(p: Pattern) -> Self {
        Containers {
            which: Which::Matching(p),
            exclude: Vec::new(),
        }
    }
    fn excluded(&self, name: &str) -> bool {
        self.exclude.iter().any(|p| p.is_match(name))
    }
    /// Words for messages: "named like `REGEX`", "not named like `X`".
    pub fn describe(&self) -> String {
        let mut words = match &self.which {
            Which::Matching(p) => format!("a container matching `{}`", p.as_str()),
            _ => "a container".to_string(),
        };
        if !self.exclude.is_empty() {
            words.push_str(&format!(" not matching {}", either(&self.exclude)));
        }
        words
    }
    /// Only a default choice: no message needed when a pod has none of these.
    pub fn is_default(&self) -> bool {
        self.which == Which::Default && self.exclude.is_empty()
    }
}

/// The pods a command line means: a Flink deployment's NAME, or `-l`, narrowed by `--component`,
/// by a pod-name query (stern's `stern QUERY`) and `--exclude-pod`, and by a field selector
/// (`--field-selector`, `--node`).
#[derive(Debug, Clone, Default)]
pub struct Target {
    pub name: Option<String>,
    pub selector: Option<String>,
    pub component: Option<Component>,
    /// Only pods whose name matches (stern's pod query, stern/stern@v1.33.0:stern/target.go).
    pub pod_query: Option<Pattern>,
    /// With `pod_query`: the pods of this Flink deployment are kept too (NAME read as a query
    /// when the deployment has no pods).
    pub or_deployment: Option<String>,
    /// `--exclude-pod`: never pods whose name matches one of these.
    pub exclude_pods: Vec<Pattern>,
    /// `--field-selector`, with `spec.nodeName=NODE` for `--node` (stern joins them so too,
    /// stern/stern@v1.33.0:cmd/cmd.go generateFieldSelector).
    pub fields: Option<String>,
}

impl Target {
    /// The label selectors to list pods with; their results are merged. One per label scheme
    /// (`Mode::SCHEMES`): the Apache operator, native and standalone (`app`, `component`), Lyft
    /// (`flink-app`, `flink-deployment-type`) and the FlinkCluster (`app=flink`, `cluster`,
    /// `component`, and its job submitter's pods); with `--component operator`, each operator's
    /// release labels.
    pub fn selectors(&self) -> Vec<String> {
        if self.component == Some(Component::Operator) {
            return [
                OperatorKind::Apache,
                OperatorKind::Lyft,
                OperatorKind::FlinkCluster,
            ]
            .into_iter()
            .map(|k| k.mode().selector(None, self.component))
            .collect();
        }
        if let Some(sel) = &self.selector {
            return vec![sel.clone()];
        }
        Mode::SCHEMES
            .iter()
            .map(|m| m.selector(self.name.as_deref(), self.component))
            .collect()
    }

    /// Words for messages: what was looked for.
    pub fn describe(&self) -> String {
        let mut words = self
            .selectors()
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        if let Some(f) = &self.fields {
            words.push_str(&format!(" with fields `{f}`"));
        }
        if let Some(q) = &self.pod_query {
            words.push_str(&format!(" named like `{}`", q.as_str()));
            if let Some(d) = &self.or_deployment {
                words.push_str(&format!(" (or of deployment {d})"));
            }
        }
        if !self.exclude_pods.is_empty() {
            words.push_str(&format!(
                ", less pods named like {}",
                either(&self.exclude_pods)
            ));
        }
        words
    }

    /// What the label selectors cannot say: `--component` on pods found by `-l`, the pod-name
    /// query and `--exclude-pod`.
    pub fn keeps(&self, pod: &Pod) -> bool {
        let component = match (self.selector.is_some(), self.component) {
            (true, Some(c @ (Component::JobManager | Component::TaskManager))) => {
                role(pod) == Some(c)
            }
            _ => true,
        };
        let name = pod_name(pod);
        let query = match &self.pod_query {
            None => true,
            Some(q) => {
                q.is_match(name)
                    || self
                        .or_deployment
                        .as_deref()
                        .is_some_and(|d| deployment_of(pod) == d)
            }
        };
        // `app=flink,component in (...)` (the Apache selector for a deployment named flink) also
        // matches every FlinkCluster's JobManagers and TaskManagers: only those of NAME are kept.
        let deployment = match (&self.name, flinkcluster_of(pod)) {
            (Some(n), Some(c)) if self.selector.is_none() => c == n,
            _ => true,
        };
        component && query && deployment && !self.exclude_pods.iter().any(|p| p.is_match(name))
    }
}

fn label<'a>(pod: &'a Pod, key: &str) -> Option<&'a str> {
    pod.metadata.labels.as_ref()?.get(key).map(String::as_str)
}

/// What a pod is to Flink: its JobManager or TaskManager by its labels, its operator by the
/// operators' release labels or images; `None` for another pod.
pub fn role(pod: &Pod) -> Option<Component> {
    Component::from_labels(pod.metadata.labels.as_ref()).or_else(|| {
        let containers = pod.spec.iter().flat_map(|s| s.containers.iter());
        identity::operator_of(pod.metadata.labels.as_ref(), containers).map(|_| Component::Operator)
    })
}

/// Native mode: TaskManager pods are bare pods that Flink deletes.
pub fn is_native(pod: &Pod) -> bool {
    label(pod, crate::flink::names::LABEL_TYPE) == Mode::Native.type_label()
}

/// The FlinkCluster a pod belongs to: its `cluster` label on a pod labelled `app=flink`.
fn flinkcluster_of(pod: &Pod) -> Option<&str> {
    (label(pod, LABEL_APP) == Some(FLINKCLUSTER_APP))
        .then(|| label(pod, LABEL_CLUSTER))
        .flatten()
}

fn deployment_of(pod: &Pod) -> &str {
    flinkcluster_of(pod)
        .or_else(|| label(pod, LABEL_APP))
        .or_else(|| label(pod, LABEL_FLINK_APP))
        .unwrap_or("")
}

pub(super) fn pod_name(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or("")
}

pub(super) fn pod_namespace(pod: &Pod) -> &str {
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
    pods.sort_by(pod_order);
}

/// The comparison behind [`order_pods`].
pub(super) fn pod_order(a: &Pod, b: &Pod) -> Ordering {
    pod_namespace(a)
        .cmp(pod_namespace(b))
        .then_with(|| deployment_of(a).cmp(deployment_of(b)))
        .then_with(|| role_rank(role(a)).cmp(&role_rank(role(b))))
        .then_with(|| natural_cmp(pod_name(a), pod_name(b)))
}

/// The containers to read in one pod, in order (init containers first with `--all-containers`
/// and `-c REGEX`), less those `--exclude-container` names.
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
    let chosen: Vec<&str> = match &choice.which {
        Which::Matching(p) => init
            .into_iter()
            .chain(main)
            .filter(|n| p.is_match(n))
            .collect(),
        Which::All => init.into_iter().chain(main).collect(),
        Which::Default => {
            let annotated = pod
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(DEFAULT_CONTAINER_ANNOTATION))
                .map(String::as_str)
                .filter(|n| main.contains(n));
            // A FlinkCluster's JobManager and TaskManager containers are named after their
            // component (`jobmanager`, `taskmanager`: flinkcluster_converter.go @v0.6.0).
            let component = flinkcluster_of(pod)
                .and(Component::from_labels(pod.metadata.labels.as_ref()))
                .map(Component::as_str)
                .filter(|c| main.contains(c));
            match annotated
                .or_else(|| main.iter().copied().find(|n| *n == MAIN_CONTAINER))
                .or(component)
            {
                Some(one) => vec![one],
                None => main,
            }
        }
    };
    chosen
        .into_iter()
        .filter(|n| !choice.excluded(n))
        .map(str::to_string)
        .collect()
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
    /// What the pod is to Flink ([`role`]).
    pub role: Option<Component>,
    /// The pod's node (`spec.nodeName`), labels and annotations, for `--template`.
    pub node: String,
    pub labels: Arc<BTreeMap<String, String>>,
    pub annotations: Arc<BTreeMap<String, String>>,
}

impl StreamSpec {
    pub fn new(pod: &Pod, container: &str, previous: bool) -> Self {
        StreamSpec {
            namespace: pod_namespace(pod).to_string(),
            pod: pod_name(pod).to_string(),
            container: container.to_string(),
            previous,
            role: role(pod),
            node: pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.clone())
                .unwrap_or_default(),
            labels: Arc::new(pod.metadata.labels.clone().unwrap_or_default()),
            annotations: Arc::new(pod.metadata.annotations.clone().unwrap_or_default()),
        }
    }
    /// `pod/container` for messages.
    pub fn name(&self) -> String {
        format!("{}/{}", self.pod, self.container)
    }
}

/// How the last instance of a container ended, in words: "exit 239, Error".
pub(super) fn last_exit(st: &ContainerStatus) -> Option<String> {
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
pub(super) fn crash_waiting(st: &ContainerStatus) -> bool {
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
pub(super) fn instance_over(st: &ContainerStatus) -> bool {
    let Some(state) = st.state.as_ref() else {
        return false;
    };
    state.terminated.is_some() || (state.waiting.is_some() && has_previous(st))
}

pub(super) fn running(st: &ContainerStatus) -> bool {
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

pub(super) fn evicted(pod: &Pod) -> Option<String> {
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
pub(super) fn missing_taskmanagers<P: Borrow<Pod>>(pods: &[P], target: &Target) -> Option<String> {
    let native_jm = pods
        .iter()
        .map(Borrow::borrow)
        .any(|p| role(p) == Some(Component::JobManager) && is_native(p));
    let tms = pods
        .iter()
        .any(|p| role(p.borrow()) == Some(Component::TaskManager));
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

pub(super) fn list_some(items: &[String], max: usize) -> String {
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

pub(super) fn container_names<P: Borrow<Pod>>(pods: &[P]) -> String {
    let names: BTreeSet<String> = pods
        .iter()
        .filter_map(|p| p.borrow().spec.as_ref())
        .flat_map(|s| {
            s.containers
                .iter()
                .chain(s.init_containers.iter().flatten())
                .map(|c| c.name.clone())
        })
        .collect();
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// "`a` or `b`": regular expressions for a message.
fn either(patterns: &[Pattern]) -> String {
    patterns
        .iter()
        .map(|p| format!("`{}`", p.as_str()))
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests;

//! The scheduler's `FailedScheduling` reading, shared by FLK106 (the Pending pod) and FLK401 (the
//! FlinkDeployment whose JobManager stays Pending): why no node fits, in the scheduler's own words,
//! and the fix for each reason in the fields of the FlinkDeployment that sets it.

use crate::flink::mode::Component;
use crate::shell::quote;
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{pod_name, pod_namespace};
use crate::snapshot::pod::PodCondition;
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::Event;

/// A Pending pod the scheduler finds no node for: its `PodScheduled=False` condition (reason
/// `Unschedulable`) when it has one, its `FailedScheduling` events (oldest first), the scheduler's
/// message (the condition's, else the newest event's) and the reasons in it.
pub struct Unschedulable<'a> {
    pub condition: Option<PodCondition>,
    pub events: Vec<&'a Event>,
    pub message: String,
    pub why: Vec<Why>,
}

/// What the scheduler says of a pod that is Pending and not scheduled; `None` for a pod that is
/// scheduled, or Pending with no word from the scheduler.
pub fn unschedulable<'a>(index: &Index<'a>, pod: &Pod) -> Option<Unschedulable<'a>> {
    let status = pod.status.as_ref()?;
    if status.phase.as_deref() != Some("Pending") {
        return None;
    }
    let scheduled = status
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == "PodScheduled");
    if scheduled.is_some_and(|c| c.status == "True") {
        return None;
    }
    let events: Vec<&'a Event> = index
        .events_for("Pod", pod_namespace(pod), pod_name(pod))
        .into_iter()
        .filter(|e| e.reason.as_deref() == Some("FailedScheduling"))
        .collect();
    let condition =
        scheduled.filter(|c| c.status == "False" && c.reason.as_deref() == Some("Unschedulable"));
    if condition.is_none() && events.is_empty() {
        return None;
    }
    let message = condition
        .and_then(|c| c.message.clone())
        .or_else(|| events.last().and_then(|e| e.message.clone()))
        .unwrap_or_default();
    let why = reasons(&message);
    Some(Unschedulable {
        condition: condition.cloned(),
        events,
        message,
        why,
    })
}

/// One reason the scheduler gave, with how many nodes it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    Insufficient(String),
    Taint(String),
    NodeSelector,
    PodAffinity,
    /// `persistentvolumeclaim "NAME" not found`: the VolumeBinding PreFilter's lister error
    /// (kubernetes/kubernetes@v1.24.0 and @v1.36.3:pkg/scheduler/framework/plugins/volumebinding/
    /// volume_binding.go, `podHasPVCs`, the API's NotFound as it words it).
    ClaimMissing(String),
    Volume,
    Ports,
    TooManyPods,
    NodeUnschedulable,
    NoNodes,
    Other(String),
}

/// The reasons in a scheduler message, in the order given, without what the PostFilter plugins
/// appended. `FitError.Error()` writes `0/N nodes are available: <PreFilterMsg>. <FilterMsg>.
/// <PostFilterMsg>` (kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/types.go; up to v1.25
/// the PreFilter message is counted among the node reasons, kubernetes/kubernetes@v1.25.0:
/// pkg/scheduler/framework/types.go). The PostFilter message is the preemption's (`preemption:
/// 0/N nodes are available: ...`, kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/plugins/
/// defaultpreemption/default_preemption.go) and, from v1.34 where DynamicResourceAllocation is on
/// by default, the DRA plugin's before it (`no new claims to deallocate, preemption: ...`,
/// kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go,
/// kubernetes/kubernetes@v1.34.0:pkg/features/kube_features.go): so the reasons are the sentences
/// after `are available:` up to the first that is not a count of nodes (`3 Insufficient cpu`),
/// the first sentence always (a PreFilter message has no count).
pub fn reasons(message: &str) -> Vec<Why> {
    let main = message.split(" preemption:").next().unwrap_or(message);
    let list = main
        .split_once("are available:")
        .map(|(_, r)| r)
        .unwrap_or(main);
    let mut out = Vec::new();
    for (i, sentence) in split_top_level(list, ". ").into_iter().enumerate() {
        let parts = split_top_level(sentence, ",");
        let counted = |p: &str| {
            p.trim()
                .split_once(' ')
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        };
        // After the first sentence, only counted reasons (a v1.26+ PreFilter sentence is followed
        // by the Filter one); anything else is a PostFilter plugin's message.
        if i > 0 && !parts.iter().all(|p| counted(p)) {
            break;
        }
        for part in parts {
            let p = part.trim().trim_end_matches('.').trim();
            if p.is_empty() {
                continue;
            }
            let why = reason(p);
            if !out.contains(&why) {
                out.push(why);
            }
        }
    }
    if out.is_empty() && message.to_ascii_lowercase().contains("no nodes available") {
        out.push(Why::NoNodes);
    }
    // Control-plane and not-ready taints only say which nodes are off-limits anyway: keep them
    // only when they are the whole story.
    let off_limits = |w: &Why| matches!(w, Why::Taint(t) if system_taint(t));
    if out.iter().any(|w| !off_limits(w)) {
        out.retain(|w| !off_limits(w));
    }
    out
}

/// One reason of a scheduler message (`2 Insufficient memory`, `1 node(s) had untolerated taint
/// {dedicated: batch}`, `pod has unbound immediate PersistentVolumeClaims`).
fn reason(p: &str) -> Why {
    // Drop the leading node count ("2 Insufficient memory", "1 node(s) had ...").
    let text = p
        .split_once(' ')
        .filter(|(n, _)| n.parse::<u32>().is_ok())
        .map(|(_, t)| t)
        .unwrap_or(p);
    let lower = text.to_ascii_lowercase();
    if let Some(r) = text.strip_prefix("Insufficient ") {
        Why::Insufficient(r.trim().to_string())
    } else if lower.contains("taint") {
        // v1.35 and later name no taint: `node(s) had untolerated taint(s)`
        // (kubernetes/kubernetes@v1.35.0:pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go).
        let taint = text
            .find('{')
            .and_then(|s| {
                text[s..]
                    .find('}')
                    .map(|e| text[s + 1..s + e].trim().to_string())
            })
            .unwrap_or_default();
        Why::Taint(taint)
    } else if lower.contains("node affinity/selector")
        || lower.contains("node selector")
        || lower.contains("didn't match pod's node affinity")
    {
        Why::NodeSelector
    } else if lower.contains("pod affinity") || lower.contains("anti-affinity") {
        Why::PodAffinity
    } else if let Some(claim) = missing_claim(text) {
        Why::ClaimMissing(claim)
    } else if lower.contains("persistentvolumeclaim") || lower.contains("volume") {
        Why::Volume
    } else if lower.contains("free ports") {
        Why::Ports
    } else if lower.contains("too many pods") {
        Why::TooManyPods
    } else if lower.contains("were unschedulable") {
        Why::NodeUnschedulable
    } else if lower.contains("no nodes available") {
        Why::NoNodes
    } else {
        Why::Other(text.to_string())
    }
}

/// The claim of `persistentvolumeclaim "NAME" not found`.
fn missing_claim(text: &str) -> Option<String> {
    let rest = text.split_once("persistentvolumeclaim \"")?.1;
    let (name, tail) = rest.split_once('"')?;
    (tail.trim_start().starts_with("not found") && !name.is_empty()).then(|| name.to_string())
}

pub fn system_taint(taint: &str) -> bool {
    let key = taint.split(':').next().unwrap_or("").trim();
    // `{: }`, or none at all (v1.35 and later name no taint), is not known to be the system's.
    key.starts_with("node-role.kubernetes.io/") || key.starts_with("node.kubernetes.io/")
}

/// Splits on `sep` where it is not inside `{...}` (taints print as `{key: value}`).
fn split_top_level<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in s.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 && i >= start && s[i..].starts_with(sep) => {
                out.push(&s[start..i]);
                start = i + sep.len();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

pub fn words(w: &Why) -> String {
    match w {
        Why::Insufficient(r) => format!("insufficient {r}"),
        Why::Taint(t) if !t.is_empty() => format!("untolerated taint {{{t}}}"),
        Why::Taint(_) => "untolerated taints".into(),
        Why::NodeSelector => "no node matches its node selector/affinity".into(),
        Why::PodAffinity => "pod (anti-)affinity rules".into(),
        Why::ClaimMissing(c) => format!("PersistentVolumeClaim {c} does not exist"),
        Why::Volume => "a volume cannot be bound or attached".into(),
        Why::Ports => "host ports in use".into(),
        Why::TooManyPods => "nodes are full (too many pods)".into(),
        Why::NodeUnschedulable => "nodes are cordoned".into(),
        Why::NoNodes => "no nodes are available".into(),
        Why::Other(t) => t.clone(),
    }
}

/// The most of `res` (cores, or bytes) one schedulable node has left, as far as the snapshot
/// shows: its `status.allocatable` less the requests of the pods read that are bound to it and not
/// finished (pods of namespaces not read are unseen, so this is an upper bound). The node's name,
/// its allocatable and what is left.
fn room_on_nodes(snapshot: &Snapshot, res: &str) -> Option<(String, f64, f64)> {
    let requested = |node: &str| -> f64 {
        let app = snapshot
            .pods
            .iter()
            .filter(|p| bound_to(p) == Some(node))
            .map(|p| requests(p, res));
        // The operators' pods are read as Kubernetes' own type.
        let operators = snapshot.operator_pods.iter().filter_map(|p| {
            let spec = p.spec.as_ref()?;
            let phase = p.status.as_ref().and_then(|s| s.phase.as_deref());
            (spec.node_name.as_deref() == Some(node)
                && !matches!(phase, Some("Succeeded" | "Failed")))
            .then(|| {
                spec.containers
                    .iter()
                    .filter_map(|c| c.resources.as_ref()?.requests.as_ref()?.get(res))
                    .filter_map(|q| crate::flink::units::parse_quantity(&q.0))
                    .sum::<f64>()
            })
        });
        app.chain(operators).sum()
    };
    snapshot
        .nodes
        .iter()
        .filter(|n| {
            !n.spec
                .as_ref()
                .and_then(|s| s.unschedulable)
                .unwrap_or(false)
        })
        .filter_map(|n| {
            let name = n.metadata.name.clone()?;
            let alloc = n.status.as_ref()?.allocatable.as_ref()?.get(res)?;
            let alloc = crate::flink::units::parse_quantity(&alloc.0)?;
            let left = alloc - requested(&name);
            Some((name, alloc, left))
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
}

/// The node a pod that has not finished is bound to.
fn bound_to(p: &Pod) -> Option<&str> {
    let phase = p.status.as_ref().and_then(|s| s.phase.as_deref());
    if matches!(phase, Some("Succeeded" | "Failed")) {
        return None;
    }
    p.spec.as_ref()?.node_name.as_deref()
}

/// What a pod's containers request of `res` (cores, or bytes).
fn requests(p: &Pod, res: &str) -> f64 {
    p.spec
        .iter()
        .flat_map(|s| &s.containers)
        .filter_map(|c| c.resources.as_ref()?.requests.as_ref()?.get(res))
        .filter_map(|q| crate::flink::units::parse_quantity(&q.0))
        .sum()
}

/// The other pods of `pod`'s own Flink cluster (the same mode and cluster name in their labels,
/// `Mode::of_labels`) of one component.
fn cluster_pods<'a>(
    snapshot: &'a Snapshot,
    pod: &'a Pod,
    component: Component,
) -> impl Iterator<Item = &'a Pod> + 'a {
    let own = crate::flink::mode::Mode::of_labels(pod.metadata.labels.as_ref());
    snapshot.pods.iter().filter(move |p| {
        !std::ptr::eq(*p, pod)
            && pod_namespace(p) == pod_namespace(pod)
            && own.is_some()
            && crate::flink::mode::Mode::of_labels(p.metadata.labels.as_ref()) == own
            && crate::snapshot::index::pod_component(p) == Some(component)
    })
}

/// The TaskManagers an application's JobManager asks for once it runs: `spec.taskManager.replicas`
/// when set, else the job's parallelism over the slots of one TaskManager
/// (`taskmanager.numberOfTaskSlots`, 1 by default: apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java,
/// NUM_TASK_SLOTS), rounded up; 1 for a session cluster (no job: none until a job asks).
fn task_managers_expected(fd: &FlinkDeployment) -> f64 {
    if let Some(r) = fd.spec.task_manager.as_ref().and_then(|t| t.replicas) {
        return r.max(0) as f64;
    }
    let slots = fd
        .spec
        .flink_configuration
        .get("taskmanager.numberOfTaskSlots")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| *s >= 1.0)
        .unwrap_or(1.0);
    match fd.spec.job.as_ref().and_then(|j| j.parallelism) {
        Some(p) if p > 0 => (p as f64 / slots).ceil(),
        _ => 1.0,
    }
}

/// What one of `fd`'s components asks for of `res`: its spec.X.resource (cpu 1.0 when unset, as
/// the operator defaults it), in cores or bytes.
fn component_ask(fd: &FlinkDeployment, component: Component, res: &str) -> Option<f64> {
    let c = if component == Component::JobManager {
        &fd.spec.job_manager
    } else {
        &fd.spec.task_manager
    };
    let r = c.as_ref().and_then(|c| c.resource.as_ref());
    if res == "cpu" {
        Some(r.and_then(|r| r.cpu).unwrap_or(1.0))
    } else {
        r.and_then(|r| r.memory.as_deref())
            .and_then(crate::flink::units::parse_resource_memory)
    }
}

/// For a pod no FlinkDeployment owns (an operator's, a FlinkCluster's sidecar), the workload whose
/// template holds its requests (`deployment/NAME` from its ReplicaSet, `statefulset/NAME`; none
/// for a pod nothing owns), the container that asks for most of `res` and what it asks.
fn workload_requests(pod: &Pod, res: &str) -> Option<(Option<String>, String, String)> {
    let workload = pod
        .metadata
        .owner_references
        .as_ref()
        .and_then(|o| o.iter().find(|o| o.controller == Some(true)))
        .and_then(|owner| match owner.kind.as_ref() {
            "ReplicaSet" => {
                let hash = pod.metadata.labels.as_ref()?.get("pod-template-hash")?;
                Some(format!(
                    "deployment/{}",
                    owner.name.strip_suffix(&format!("-{hash}"))?
                ))
            }
            "StatefulSet" | "DaemonSet" => Some(format!(
                "{}/{}",
                owner.kind.to_ascii_lowercase(),
                owner.name
            )),
            _ => None,
        });
    let (container, ask) = pod
        .spec
        .as_ref()?
        .containers
        .iter()
        .filter_map(|c| {
            let q = c.resources.as_ref()?.requests.as_ref()?.get(res)?;
            Some((
                c.name.to_string(),
                q.0.clone(),
                crate::flink::units::parse_quantity(&q.0)?,
            ))
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(n, q, _)| (n, q))?;
    Some((workload, container, ask))
}

pub fn fix_for(
    snapshot: &Snapshot,
    w: &Why,
    ns: &str,
    pod: &Pod,
    component: Option<Component>,
    fd: Option<&FlinkDeployment>,
) -> String {
    let jm = component == Some(Component::JobManager);
    let spec_key = if jm {
        Component::JobManager.spec_key()
    } else {
        Component::TaskManager.spec_key()
    };
    let fd_name = fd.map(|d| d.name().to_string());
    let template = match component {
        Some(c @ (Component::JobManager | Component::TaskManager)) => {
            format!("spec.{}.podTemplate", c.spec_key())
        }
        _ => "spec.podTemplate".to_string(),
    };
    match w {
        Why::Insufficient(res) => {
            let resource = fd.and_then(|d| {
                let c = if jm { &d.spec.job_manager } else { &d.spec.task_manager };
                c.as_ref()?.resource.clone()
            });
            // What the roomiest node has left (its allocatable less the requests of the pods
            // read on it), when that is below the ask: the size that fits there, not half of the
            // ask round after round (64 cpu to a node of 8 took four rounds of halving).
            let room = room_on_nodes(snapshot, res);
            let (key, now, mut less) = if res == "cpu" {
                let cur = resource.as_ref().and_then(|r| r.cpu).unwrap_or(1.0);
                ("cpu", format!("{cur}"), format!("{}", (cur / 2.0 * 100.0).round() / 100.0))
            } else {
                let cur = resource.as_ref().and_then(|r| r.memory.clone()).unwrap_or_else(|| "2048m".into());
                let half = crate::flink::units::parse_resource_memory(&cur)
                    .map(|b| format!("\"{}m\"", (b / 2.0 / 1048576.0).floor()))
                    .unwrap_or_else(|| "\"1024m\"".into());
                ("memory", format!("\"{cur}\""), half)
            };
            let ask = if res == "cpu" {
                resource.as_ref().and_then(|r| r.cpu)
            } else {
                resource
                    .as_ref()
                    .and_then(|r| r.memory.as_deref())
                    .and_then(crate::flink::units::parse_resource_memory)
            };
            let mut sized = String::new();
            // The component whose size the patch sets: this pod's, or its cluster's JobManager
            // when that one took the room its TaskManagers need.
            let mut target = spec_key;
            let unit = |v: f64| if res == "cpu" { format!("{}", (v * 100.0).round() / 100.0) } else { format!("{}Mi", (v / 1048576.0).floor()) };
            // Rounded down: a tenth of a core, a whole MiB.
            let round = |v: f64| if res == "cpu" { (v * 10.0).floor() / 10.0 } else { (v / 1048576.0).floor() };
            let quantity = |v: f64| if res == "cpu" { format!("{v}") } else { format!("\"{v}m\"") };
            if let (Some((node, alloc, left)), Some(ask)) = (&room, ask) {
                // What else of this cluster must fit beside it: the TaskManagers a JobManager
                // asks for once it runs (they come after it), or the other TaskManagers pending
                // with this one. Sizing one pod to the whole room starves the others (a
                // JobManager given all 8 cores left its TaskManager Pending).
                let (share, beside) = match (component, fd) {
                    (Some(Component::JobManager), Some(d)) => {
                        let n = task_managers_expected(d);
                        let each = component_ask(d, Component::TaskManager, res).unwrap_or(0.0);
                        let reserve = n * each;
                        (
                            left - reserve,
                            (reserve > 0.0).then(|| format!(", less the {n} TaskManager(s) of {} each the JobManager asks for once it runs", unit(each))),
                        )
                    }
                    (Some(Component::TaskManager), Some(_)) => {
                        let pending = 1 + cluster_pods(snapshot, pod, Component::TaskManager)
                            .filter(|p| bound_to(p).is_none() && p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Pending"))
                            .count();
                        (
                            left / pending as f64,
                            (pending > 1).then(|| format!(", shared by the {pending} TaskManagers pending")),
                        )
                    }
                    _ => (*left, None),
                };
                let fits = round(share);
                if fits > 0.0 && share < ask {
                    less = quantity(fits);
                    sized = format!(
                        " Node {node} has the most left: {} of its allocatable {} (less the requests of the pods read on it){}, so at most that:",
                        unit(*left),
                        unit(*alloc),
                        beside.unwrap_or_default()
                    );
                } else if fits <= 0.0 && component == Some(Component::TaskManager) {
                    // No room at all: when the cluster's own JobManager on that node asks for
                    // more than it needs to leave room, the JobManager is what to make smaller.
                    let jm = fd.and_then(|_| {
                        cluster_pods(snapshot, pod, Component::JobManager)
                            .find(|p| bound_to(p) == Some(node.as_str()))
                    });
                    if let Some(jm) = jm {
                        let has = requests(jm, res);
                        let wanted = round(has - (ask - left.max(0.0)));
                        let least = if res == "cpu" { 0.1 } else { 1024.0 };
                        if wanted >= least {
                            target = Component::JobManager.spec_key();
                            less = quantity(wanted);
                            sized = format!(
                                " Node {node} has {} left of its allocatable {}, and this cluster's own JobManager (pod {}) asks for {} of it: make the JobManager smaller by what the TaskManager needs (spec.jobManager.resource.{key}):",
                                unit(left.max(0.0)),
                                unit(*alloc),
                                pod_name(jm),
                                unit(has),
                            );
                        }
                    }
                }
            }
            match (&fd_name, res.as_str()) {
                (Some(n), "cpu" | "memory") => format!(
                    "No node has {res} left for this pod. Add capacity (nodes, or a bigger node pool), or ask for less: \
                     spec.{spec_key}.resource.{key} is {now} now;{}\n\n  \
                     kubectl patch flinkdeployment {n} -n {ns} --type=merge -p '{{\"spec\":{{\"{target}\":{{\"resource\":{{\"{key}\":{less}}}}}}}}}'\n\n\
                     (what a node can offer: kubectl describe nodes | grep -A 8 Allocatable){}",
                    if sized.is_empty() { " for example:" } else { sized.as_str() },
                    if component == Some(Component::TaskManager) { "; fewer slots per TaskManager or a lower parallelism also means smaller or fewer TaskManagers" } else { "" },
                    n = crate::shell::sh(n),
                    ns = crate::shell::sh(ns),
                ),
                _ => match workload_requests(pod, res) {
                    Some((None, container, ask)) => format!(
                        "No node has enough {res} for this pod: container {container} asks for {res}={ask}, and nothing \
                         recreates the pod (it has no owner). Add capacity, or create it again from its manifest \
                         with a smaller spec.containers[{container}].resources.requests.{res} (requests cannot change \
                         in place):\n\n  kubectl replace --force -f <manifest of pod {} with a smaller {res} request>",
                        pod_name(pod)
                    ),
                    Some((Some(owner), container, ask)) => format!(
                        "No node has enough {res} for this pod: container {container} asks for {res}={ask}. Add capacity, \
                         or lower the request in {owner}'s pod template (what nodes offer: \
                         kubectl describe nodes | grep -A 8 Allocatable):\n\n  \
                         kubectl set resources {} -n {} -c {} --requests={res}=<{res} request below {ask}>",
                        quote(&owner),
                        quote(ns),
                        quote(&container),
                    ),
                    None => format!(
                        "No node has enough {res} for this pod: add capacity, or lower the pod's requests \
                         (kubectl describe nodes | grep -A 8 Allocatable shows what nodes offer)."
                    ),
                },
            }
        }
        Why::Taint(t) => {
            let key = t.split(':').next().unwrap_or("").trim();
            if system_taint(t) {
                "Some nodes carry taints this pod does not tolerate (control-plane or not-ready nodes are normally \
                 off-limits): the other reasons listed decide where it can run."
                    .to_string()
            } else {
                format!(
                    "Nodes carry the taint {{{t}}}. If Flink should run there, tolerate it in {template}:\n\n\
                     {}\n        tolerations:\n        - {{key: {key}, operator: Exists}}",
                    nest(&template)
                )
            }
        }
        Why::NodeSelector => {
            let sel = node_selector_terms(pod);
            let list = if sel.is_empty() { String::new() } else { format!(" ({})", crate::shell::escape_controls(&sel.join(", "))) };
            let label = sel.first().map(|t| quote(t).into_owned()).unwrap_or_else(|| "KEY=VALUE".into());
            let matching = if sel.is_empty() { "KEY=VALUE".to_string() } else { quote(&sel.join(",")).into_owned() };
            // The template that really sets the pod's terms: the operator merges spec.podTemplate
            // into each component's, so a term may come from either.
            match fd.and_then(|d| selector_home(d, pod, component)) {
                Some((path, keys)) => {
                    let name = fd.map(|d| d.name()).unwrap_or("");
                    let mut patch = serde_json::json!({});
                    let mut at = &mut patch;
                    for k in path.split('.').chain(["spec", "nodeSelector"]) {
                        at = &mut at[k];
                    }
                    *at = serde_json::Value::Object(keys.iter().map(|k| (k.clone(), serde_json::Value::Null)).collect());
                    format!(
                        "No node has the labels the pod asks for{list}; they are set in {path}.spec.nodeSelector of FlinkDeployment {name}. \
                         Drop them there (the operator redeploys the pods without them):\n\n  \
                         kubectl patch flinkdeployment {} -n {} --type=merge -p {}\n\n\
                         or keep them and label a node that should run Flink: kubectl get nodes -l {matching}; kubectl label node <node> {label}",
                        crate::shell::sh(name),
                        crate::shell::sh(ns),
                        crate::shell::json_arg(&patch)
                    )
                }
                None => format!(
                    "No node has the labels the pod asks for{list}. List the nodes that match \
                     (kubectl get nodes -l {matching}), then fix nodeSelector/affinity in {template} or label a node \
                     (kubectl label node NODE {label})."
                ),
            }
        }
        Why::PodAffinity => format!(
            "Pod (anti-)affinity rules in {template} rule out every node: relax them (preferredDuringScheduling \
             instead of required) or add nodes."
        ),
        Why::ClaimMissing(claim) => missing_claim_fix(claim, ns, fd),
        Why::Volume => format!(
            "A volume of the pod cannot be bound: check its claims (kubectl get pvc -n {ns}; kubectl describe pvc NAME -n {ns}) \
             and that the StorageClass exists and can provision in the pod's zone."
        ),
        Why::Ports => format!("Remove hostPort from the containers in {template}, or spread the pods over more nodes."),
        Why::TooManyPods => "Nodes have reached their pod limit: add nodes.".to_string(),
        Why::NodeUnschedulable => "Nodes are cordoned: uncordon them (kubectl uncordon NODE) or add nodes.".to_string(),
        Why::NoNodes => "The cluster has no schedulable node: add nodes (kubectl get nodes).".to_string(),
        Why::Other(t) => format!("The scheduler says: {t}. See kubectl describe pod {} -n {ns}.", pod_name(pod)),
    }
}

/// A claim the pod mounts that does not exist: the claim to create (its size is the one value
/// only a person knows; the cluster's default StorageClass provisions it), or the volume to take
/// out of the template. (The snapshot keeps no pod's volumes, so the volume goes by its claim.)
fn missing_claim_fix(claim: &str, ns: &str, fd: Option<&FlinkDeployment>) -> String {
    let owner = match fd {
        Some(d) => format!("the pod template of FlinkDeployment {}", d.name()),
        None => "the pod's template".to_string(),
    };
    let (name, namespace) = (crate::shell::yaml(claim), crate::shell::yaml(ns));
    format!(
        "The pod mounts PersistentVolumeClaim {claim}, which does not exist in namespace {ns}, and the scheduler waits \
         for it. Create it (its size is yours to choose; the cluster's default StorageClass provisions it, add storageClassName for another):\n\n\
         kubectl apply -f - <<'EOF'\n\
         apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}\n  namespace: {namespace}\n\
         spec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: <size the volume needs>\nEOF\n\n\
         or take the volume of claimName {claim} out of {owner} (and any option that points into it, such as state.checkpoints.dir)."
    )
}

/// `spec.taskManager.podTemplate` as YAML nesting down to the template's `spec:`.
pub fn nest(path: &str) -> String {
    let mut out = Vec::new();
    for (i, key) in path.split('.').chain(["spec"]).enumerate() {
        out.push(format!("{}{key}:", "  ".repeat(i)));
    }
    out.join("\n")
}

/// The template of `fd` that sets the pod's nodeSelector terms, and their keys: the component's
/// own first (it wins when the operator merges), then spec.podTemplate.
fn selector_home(
    fd: &FlinkDeployment,
    pod: &Pod,
    component: Option<Component>,
) -> Option<(&'static str, Vec<String>)> {
    let wanted = pod.spec.as_ref()?.node_selector.as_ref()?;
    let own = match component {
        Some(Component::JobManager) => "spec.jobManager.podTemplate",
        Some(Component::TaskManager) => "spec.taskManager.podTemplate",
        _ => "",
    };
    let templates = fd.pod_templates();
    let order = templates
        .iter()
        .filter(|(p, _)| *p == own)
        .chain(templates.iter().filter(|(p, _)| *p == "spec.podTemplate"));
    for (path, t) in order {
        let keys: Vec<String> = t
            .spec
            .iter()
            .flat_map(|s| s.node_selector.iter())
            .filter(|(k, v)| wanted.get(k) == Some(*v))
            .map(|(k, _)| k.clone())
            .collect();
        if !keys.is_empty() {
            return Some((path, keys));
        }
    }
    None
}

/// `key=value` terms of the pod's nodeSelector, as written: a bundle's pod spec is not checked,
/// so a term printed in a command goes through `shell::quote`.
pub fn node_selector_terms(pod: &Pod) -> Vec<String> {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_selector.as_ref())
        .map(|m| m.iter().map(|(k, v)| format!("{k}={v}")).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_scheduler_messages() {
        assert_eq!(
            reasons("0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 Insufficient cpu."),
            vec![Why::NodeSelector, Why::Insufficient("cpu".into())]
        );
        assert_eq!(
            reasons("0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available"),
            vec![Why::Volume]
        );
        // The lab, kube-scheduler v1.36.3, a pod template mounting a claim nobody created.
        assert_eq!(
            reasons("0/1 nodes are available: persistentvolumeclaim \"flink-checkpoints\" not found. not found"),
            vec![Why::ClaimMissing("flink-checkpoints".into())]
        );
        assert_eq!(
            reasons("0/3 nodes are available: persistentvolumeclaim \"data\" is being deleted. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."),
            vec![Why::Volume]
        );
        assert_eq!(
            reasons("no nodes available to schedule pods"),
            vec![Why::NoNodes]
        );
        assert_eq!(
            reasons("0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }."),
            vec![Why::Taint("node-role.kubernetes.io/control-plane:".into())]
        );
    }

    /// One FailedScheduling message per minor version, 1.24 to 1.36: `FitError.Error()` of that
    /// version (`pkg/scheduler/framework/types.go`) over reasons its plugins print, with the
    /// PostFilter text it appends (the preemption's, asserted in
    /// `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go`; from 1.34
    /// the DRA plugin's, asserted whole in `test/integration/dra/`).
    #[test]
    fn reads_the_failed_scheduling_message_of_every_minor_version_from_1_24_to_1_36() {
        use Why::*;
        let cpu = || Insufficient("cpu".into());
        let memory = || Insufficient("memory".into());
        let cases: &[(&str, &str, Vec<Why>)] = &[
            // kubernetes/kubernetes@v1.24.0:pkg/scheduler/framework/types.go (reasons, then " " + PostFilterMsg),
            // kubernetes/kubernetes@v1.24.0:pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
            ("v1.24.0", "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: batch}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                vec![Taint("dedicated: batch".into()), memory()]),
            // kubernetes/kubernetes@v1.25.0:pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (ErrReasonPod);
            // a PreFilter failure is still counted per node up to v1.25
            ("v1.25.0", "0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
                vec![NodeSelector]),
            // kubernetes/kubernetes@v1.26.0:pkg/scheduler/framework/types.go (PreFilterMsg first, SeparatorFormat " %v.");
            // kubernetes/kubernetes@v1.26.0:pkg/scheduler/framework/plugins/volumebinding/volume_binding.go
            ("v1.26.0", "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
                vec![Volume]),
            // kubernetes/kubernetes@v1.27.0:pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (ErrReasonAntiAffinityRulesNotMatch)
            ("v1.27.0", "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
                vec![PodAffinity]),
            // kubernetes/kubernetes@v1.28.0:pkg/scheduler/framework/plugins/noderesources/fit.go ("Too many pods")
            ("v1.28.0", "0/2 nodes are available: 2 Too many pods. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
                vec![TooManyPods]),
            // kubernetes/kubernetes@v1.29.0:pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go (ErrReasonUnschedulable)
            ("v1.29.0", "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
                vec![cpu(), NodeUnschedulable]),
            // kubernetes/kubernetes@v1.30.0:pkg/scheduler/framework/plugins/noderesources/fit.go ("Insufficient %v")
            ("v1.30.0", "0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                vec![cpu(), memory()]),
            // kubernetes/kubernetes@v1.31.0:pkg/scheduler/framework/plugins/nodeports/node_ports.go (ErrReason)
            ("v1.31.0", "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
                vec![Ports]),
            // kubernetes/kubernetes@v1.32.0:pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go;
            // a control-plane taint beside another reason only says where it may not go
            ("v1.32.0", "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                vec![cpu()]),
            // kubernetes/kubernetes@v1.33.0:pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
            // (DynamicResourceAllocation still off by default: kubernetes/kubernetes@v1.33.0:pkg/features/kube_features.go)
            ("v1.33.0", "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.",
                vec![cpu()]),
            // asserted whole in kubernetes/kubernetes@v1.34.0:test/integration/dra/dra_test.go (DRA on by default,
            // its PostFilter message before the preemption's)
            ("v1.34.0", "0/2 nodes are available: 2 Insufficient my-example.com/my-extended-resource. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
                vec![Insufficient("my-example.com/my-extended-resource".into())]),
            // kubernetes/kubernetes@v1.35.0:pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
            // ("node(s) had untolerated taint(s)", no taint named)
            ("v1.35.0", "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient memory. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                vec![Taint(String::new()), memory()]),
            // kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/types.go,
            // kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
            ("v1.36.3", "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                vec![cpu()]),
        ];
        for (version, message, want) in cases {
            assert_eq!(&reasons(message), want, "{version}: {message}");
        }
    }
}

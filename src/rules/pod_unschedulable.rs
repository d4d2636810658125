//! FLK106: a Flink pod stays Pending because the scheduler finds no node for it.
//!
//! Evidence is the pod's `PodScheduled=False` condition (reason `Unschedulable`) and the
//! scheduler's `FailedScheduling` events, whose message lists, per group of nodes, why they do not
//! fit: `0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: batch}, 2 Insufficient
//! memory. preemption: ...`. Each reason gets its own fix (smaller resources, a toleration, a
//! node selector that matches, a PVC that binds).
//!
//! Pods that a quota or LimitRange refuses are never created, so they are not Pending: that is
//! FLK108 (resource_quota_exceeded).
//!
//! The operators' own pods are read too: an operator Pending on FailedScheduling is this cause,
//! and the `operator_not_running` finding (FLK003) folds under it.

use super::support::containers::{event_line, one_line};
use super::support::rollout;
use super::support::scheduling::{
    self, fix_for, node_selector_terms, system_taint, words, Unschedulable, Why,
};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::names::LABEL_APP;
use crate::shell::quote;
use crate::snapshot::flink::FlinkCluster;
use crate::snapshot::index::{label, pod_component, pod_name, pod_namespace};
use crate::snapshot::Pod;
use crate::snapshot::{micro_to_utc, to_utc, Index, Snapshot};
use chrono::Duration;

pub struct PodUnschedulable;

static META: RuleMeta = RuleMeta {
    id: "FLK106",
    name: "pod_unschedulable",
    summary: "a Flink pod stays Pending: FailedScheduling",
    category: Category::PodUnschedulable,
    severity: Severity::Critical,
    explains: &["FLK401", "FLK003"],
    fix: r#"do what the scheduler's message asks: lower the pod's CPU or memory request, add nodes, relax nodeSelector or affinity, tolerate the taints, or create the missing PersistentVolumeClaim"#,
    verify: r#"kubectl get pods --field-selector=status.phase=Pending   # expect no Flink pod"#,
};

/// Pending for less than this is often just a node being added: a warning, not yet critical.
const GRACE_MINUTES: i64 = 5;

impl Rule for PodUnschedulable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        // The operators' pods too (kept whole, apart from Flink's): an operator that is never
        // scheduled is this, whichever operator it is (FLK003 then folds under it).
        let operator_pods: Vec<Pod> = snapshot
            .operator_pods
            .iter()
            .filter(|p| {
                !snapshot.pods.iter().any(|q| {
                    q.metadata.namespace.as_deref() == p.metadata.namespace.as_deref()
                        && q.metadata.name == p.metadata.name
                })
            })
            .filter_map(|p| serde_json::to_value(p).ok())
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect();
        snapshot
            .pods
            .iter()
            .chain(&operator_pods)
            .filter_map(|pod| finding(snapshot, index, pod))
            .collect()
    }
}

fn finding(snapshot: &Snapshot, index: &Index, pod: &Pod) -> Option<Finding> {
    let Unschedulable {
        condition: unschedulable,
        events,
        why,
        ..
    } = scheduling::unschedulable(index, pod)?;
    let unschedulable = unschedulable.as_ref();
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let component = pod_component(pod);
    let who = match component {
        Some(Component::JobManager) => "JobManager pod",
        Some(Component::TaskManager) => "TaskManager pod",
        _ => "pod",
    };
    let summary = if why.is_empty() {
        "no node fits it".to_string()
    } else {
        why.iter().take(3).map(words).collect::<Vec<_>>().join("; ")
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!("{who} cannot be scheduled: {summary}"),
    )
    .deployment(index.deployment_of_pod(pod));
    if let Some(c) = unschedulable {
        f = f.evidence(format!(
            "status.conditions[PodScheduled]: status=False reason=Unschedulable message: {}",
            one_line(c.message.as_deref().unwrap_or(""))
        ));
    }
    for e in events.iter().rev().take(3).rev() {
        f = f.evidence(event_line(e));
    }
    // How long it has been unschedulable: since the PodScheduled condition turned False, else
    // since the first FailedScheduling event was first seen (`firstTimestamp`, or `eventTime` of
    // an events.k8s.io event, which the scheduler records from v1.19 on; never `lastTimestamp`,
    // the latest repeat), against the snapshot's "now". Unknown, or no time at all (a bundle's
    // "now" is its newest timestamp, often that very event): no duration is said.
    let since = unschedulable
        .and_then(|c| c.last_transition_time.as_ref())
        .and_then(to_utc)
        .or_else(|| {
            events
                .iter()
                .filter_map(|e| {
                    e.first_timestamp
                        .as_ref()
                        .and_then(to_utc)
                        .or_else(|| e.event_time.as_ref().and_then(micro_to_utc))
                })
                .min()
        });
    if let Some(t) = since {
        let waited = snapshot.captured_at.signed_duration_since(t);
        if waited >= Duration::seconds(1) {
            f = f.evidence(format!(
                "unschedulable for {} (since {})",
                crate::flink::units::human_duration(waited),
                t.format("%Y-%m-%dT%H:%M:%SZ")
            ));
            if waited < Duration::minutes(GRACE_MINUTES) {
                f = f.severity(Severity::Warning);
            }
        }
    }
    for line in requests_lines(pod) {
        f = f.evidence(line);
    }
    if let Some(sel) = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_selector.as_ref())
        .filter(|m| !m.is_empty())
    {
        let pairs: Vec<String> = sel.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f = f.evidence(format!("spec.nodeSelector: {}", pairs.join(", ")));
    }
    let fd = label(pod, LABEL_APP).and_then(|app| index.flink_deployment(ns, app));
    // A pod of a GCP/Spotify FlinkCluster: app=flink, cluster=NAME.
    let fcl = crate::snapshot::index::flinkcluster_label(&pod.metadata)
        .and_then(|c| index.flink_cluster(ns, c));
    let fixes: Vec<String> = if why.is_empty() {
        vec![format!(
            "See why no node fits: kubectl describe pod {name} -n {ns}"
        )]
    } else {
        why.iter()
            .take(3)
            .map(|w| match fcl {
                Some(c) => fix_for_flinkcluster(w, ns, pod, component, c)
                    .unwrap_or_else(|| fix_for(snapshot, w, ns, pod, component, fd)),
                None => fix_for(snapshot, w, ns, pod, component, fd),
            })
            .collect()
    };
    let pending = |mode: Mode, cluster: &str, c: Component| {
        format!(
            "kubectl get pods -n {ns} -l {} --field-selector=status.phase=Pending   # expect no pods",
            crate::shell::sh(&mode.selector(Some(cluster), Some(c)))
        )
    };
    let verify = match (fcl, fd, component) {
        (Some(fc), _, Some(c)) => pending(Mode::FlinkCluster, fc.name(), c),
        (None, Some(d), Some(c)) => pending(Mode::Operator, d.name(), c),
        _ => format!(
            "kubectl get pod {name} -n {ns} -o jsonpath='{{.status.conditions[?(@.type==\"PodScheduled\")].status}}'   # expect True"
        ),
    };
    let f = f.fix(fixes.join("\n\n")).verify(verify);
    // Too little memory on the nodes, and the spec already asks for other memory: this pod was
    // made before; the operator replaces it.
    let memory_short = why
        .iter()
        .any(|w| matches!(w, Why::Insufficient(r) if r == "memory"));
    match fd
        .filter(|_| memory_short)
        .and_then(|d| rollout::memory(d, pod, rollout::Toward::Less).map(|p| (d, p)))
    {
        Some((d, p)) => Some(rollout::awaiting_rollout(f, d, pod, &p)),
        None => Some(f),
    }
}

/// `spec.containers[NAME].resources.requests: cpu=1, memory=2Gi` for every container with requests.
fn requests_lines(pod: &Pod) -> Vec<String> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    spec.containers
        .iter()
        .filter_map(|c| {
            let req = c
                .resources
                .as_ref()?
                .requests
                .as_ref()
                .filter(|r| !r.is_empty())?;
            let parts: Vec<String> = req.iter().map(|(k, v)| format!("{k}={}", v.0)).collect();
            Some(format!(
                "spec.containers[{}].resources.requests: {}",
                c.name,
                parts.join(", ")
            ))
        })
        .collect()
}

/// The fix for a FlinkCluster's pod, in the FlinkCluster's own fields (`spec.taskManager.resources`,
/// `.nodeSelector`, `.tolerations`, `.affinity`: spotify/flink-on-k8s-operator@v0.6.0:
/// apis/flinkcluster/v1beta1/flinkcluster_types.go, JobManagerSpec and TaskManagerSpec); `None`
/// where the generic fix says it as well.
fn fix_for_flinkcluster(
    w: &Why,
    ns: &str,
    pod: &Pod,
    component: Option<Component>,
    c: &FlinkCluster,
) -> Option<String> {
    let key = match component? {
        Component::Operator => return None,
        c => c.spec_key(),
    };
    let name = c.name();
    match w {
        Why::Insufficient(res) if res == "cpu" || res == "memory" => {
            let spec = if key == "jobManager" {
                c.spec.job_manager.as_ref()
            } else {
                c.spec.task_manager.as_ref()
            };
            let from_spec = spec
                .and_then(|s| s.resources.as_ref())
                .and_then(|r| r.requests.as_ref())
                .and_then(|r| r.get(res.as_str()))
                .map(|q| q.0.clone());
            let from_pod = pod
                .spec
                .as_ref()
                .and_then(|s| s.containers.first())
                .and_then(|c| c.resources.as_ref())
                .and_then(|r| r.requests.as_ref())
                .and_then(|r| r.get(res.as_str()))
                .map(|q| q.0.clone());
            let now = from_spec.clone().or(from_pod)?;
            let less = half(res, &now)?;
            Some(format!(
                "No node has {res} left for this pod. Add capacity (nodes, or a bigger node pool), or ask for less: \
                 spec.{key}.resources.requests.{res} is {now} now{}; for example:\n\n  \
                 kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"{key}\":{{\"resources\":{{\"requests\":{{\"{res}\":\"{less}\"}}}}}}}}}}'\n\n\
                 (keep limits at or above it; what a node can offer: kubectl describe nodes | grep -A 8 Allocatable){}",
                if from_spec.is_some() { "" } else { " (the pod's; the FlinkCluster sets none)" },
                if key == "taskManager" {
                    "; fewer TaskManagers (spec.taskManager.replicas) or a lower parallelism also fits"
                } else {
                    ""
                }
            ))
        }
        Why::Taint(t) if !system_taint(t) => {
            let k = t.split(':').next().unwrap_or("").trim();
            Some(format!(
                "Nodes carry the taint {{{t}}}. If Flink should run there, tolerate it in spec.{key}.tolerations:\n\n\
                 spec:\n  {key}:\n    tolerations:\n    - {{key: {k}, operator: Exists}}"
            ))
        }
        Why::NodeSelector => {
            let sel = node_selector_terms(pod);
            Some(format!(
                "No node has the labels the pod asks for{}. List the nodes that match (kubectl get nodes -l {}), then fix \
                 spec.{key}.nodeSelector (or spec.{key}.affinity) of FlinkCluster {name}, or label a node (kubectl label node NODE {}).",
                if sel.is_empty() { String::new() } else { format!(" ({})", crate::shell::escape_controls(&sel.join(", "))) },
                if sel.is_empty() { "KEY=VALUE".to_string() } else { quote(&sel.join(",")).into_owned() },
                sel.first().map(|t| quote(t).into_owned()).unwrap_or_else(|| "KEY=VALUE".into())
            ))
        }
        Why::PodAffinity => Some(format!(
            "Pod (anti-)affinity rules in spec.{key}.affinity of FlinkCluster {name} rule out every node: relax them \
             (preferredDuringScheduling instead of required) or add nodes."
        )),
        _ => None,
    }
}

/// Half of a Kubernetes quantity: `2` -> `1`, `500m` -> `250m`, `4Gi` -> `2048Mi`.
fn half(res: &str, q: &str) -> Option<String> {
    if res == "cpu" {
        let millis = match q.strip_suffix('m') {
            Some(m) => m.parse::<f64>().ok()?,
            None => q.parse::<f64>().ok()? * 1000.0,
        };
        Some(format!("{}m", (millis / 2.0).floor().max(1.0)))
    } else {
        let bytes = crate::flink::units::parse_quantity(q)?;
        Some(format!("{}Mi", (bytes / 2.0 / 1048576.0).floor().max(1.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const PENDING: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: etl, namespace: batch}
spec:
  image: flink:1.20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 8192m, cpu: 4}}
---
apiVersion: v1
kind: Pod
metadata:
  name: etl-taskmanager-1-2
  namespace: batch
  creationTimestamp: "2026-11-28T10:00:00Z"
  labels: {app: etl, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers:
  - name: flink-main-container
    image: flink:1.20
    resources: {requests: {cpu: "4", memory: 8Gi}, limits: {cpu: "4", memory: 8Gi}}
status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
---
apiVersion: v1
kind: Event
metadata: {name: etl-taskmanager-1-2.1, namespace: batch}
involvedObject: {kind: Pod, namespace: batch, name: etl-taskmanager-1-2}
reason: FailedScheduling
type: Warning
count: 7
firstTimestamp: "2026-11-28T10:00:00Z"
lastTimestamp: "2026-11-28T10:20:00Z"
message: "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
"#;

    fn snap(y: &str) -> Snapshot {
        let mut s = snapshot(y);
        s.captured_at = "2026-11-28T10:20:00Z".parse().unwrap();
        s
    }

    #[test]
    fn a_pod_no_flink_resource_owns_gets_its_workload_s_request_not_canned_text() {
        // A sidecar Deployment's pod beside the cluster: its ReplicaSet's Deployment holds the
        // request, named with the container; a pod nothing owns is created again.
        let y = PENDING
            .replace(
                "  labels: {app: etl, component: taskmanager, type: flink-native-kubernetes}",
                "  labels: {app: metrics, pod-template-hash: 7d9c6b5f4}\n  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: metrics-7d9c6b5f4, uid: u1, controller: true}",
            )
            .replace("name: etl-taskmanager-1-2", "name: metrics-7d9c6b5f4-k2x9w")
            .replace("- name: flink-main-container", "- name: exporter")
            .replace("1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory", "3 Insufficient memory");
        let f = run(&PodUnschedulable, &snap(&y));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].fix.contains("container exporter asks for memory=8Gi")
                && f[0].fix.contains(
                    "kubectl set resources deployment/metrics -n batch -c exporter --requests=memory=<memory request below 8Gi>"
                ),
            "{}",
            f[0].fix
        );
        let bare = y.replace(
            "\n  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: metrics-7d9c6b5f4, uid: u1, controller: true}",
            "",
        );
        let f = run(&PodUnschedulable, &snap(&bare));
        assert!(
            f[0].fix
                .contains("spec.containers[exporter].resources.requests.memory")
                && f[0].fix.contains(
                    "kubectl replace --force -f <manifest of pod metrics-7d9c6b5f4-k2x9w"
                ),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn fires_with_each_reason_and_its_fix() {
        let f = run(&PodUnschedulable, &snap(PENDING));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::PodUnschedulable);
        assert_eq!(f.severity, Severity::Critical);
        assert_eq!(f.title, "TaskManager pod cannot be scheduled: untolerated taint {dedicated: streaming}; insufficient memory");
        let y = PENDING.replace(
            "dedicated: streaming",
            "node-role.kubernetes.io/control-plane: ",
        );
        assert_eq!(
            run(&PodUnschedulable, &snap(&y))[0].title,
            "TaskManager pod cannot be scheduled: insufficient memory"
        );
        assert!(f.evidence[0].starts_with(
            "status.conditions[PodScheduled]: status=False reason=Unschedulable message: 0/3 nodes"
        ));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("event Warning FailedScheduling x7")));
        assert!(
            f.evidence
                .iter()
                .any(|e| e == "unschedulable for 20m (since 2026-11-28T10:00:00Z)"),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e
                == "spec.containers[flink-main-container].resources.requests: cpu=4, memory=8Gi"));
        assert!(
            f.fix.contains("- {key: dedicated, operator: Exists}"),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("spec:\n  taskManager:\n    podTemplate:\n      spec:\n        tolerations:\n        - {key: dedicated, operator: Exists}"), "{}", f.fix);
        assert!(
            f.fix
                .contains("\"taskManager\":{\"resource\":{\"memory\":\"4096m\"}}"),
            "{}",
            f.fix
        );
        assert!(f
            .verify
            .contains("-l app=etl,component=taskmanager --field-selector=status.phase=Pending"));
    }

    #[test]
    fn a_young_pending_pod_is_a_warning_and_scheduled_or_running_pods_are_silent() {
        let mut s = snap(PENDING);
        s.captured_at = "2026-11-28T10:02:00Z".parse().unwrap();
        assert_eq!(run(&PodUnschedulable, &s)[0].severity, Severity::Warning);
        let scheduled = PENDING.replace(
            "status: \"False\"\n    reason: Unschedulable",
            "status: \"True\"\n    reason: Scheduled",
        );
        let scheduled = scheduled.replace("reason: FailedScheduling", "reason: Scheduled");
        assert!(run(&PodUnschedulable, &snap(&scheduled)).is_empty());
        assert!(run(&PodUnschedulable, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn a_cpu_ask_no_node_has_is_sized_to_what_the_roomiest_node_has_left() {
        // The lab's capacity scenario: a TaskManager asking for 64 cpu, one node of 8 on which the
        // JobManager (0.5) runs. Half of the ask (32) fits no better: the fix asks for what is left.
        let y = format!(
            "{}\n---\n{}",
            PENDING
                .replace("cpu: 4}}", "cpu: 64}}")
                .replace(
                    "{cpu: \"4\", memory: 8Gi}, limits: {cpu: \"4\", memory: 8Gi}",
                    "{cpu: \"64\"}, limits: {cpu: \"64\"}"
                )
                .replace("2 Insufficient memory", "1 Insufficient cpu"),
            r#"apiVersion: v1
kind: Node
metadata: {name: lab-node}
status:
  allocatable: {cpu: "8", memory: 32Gi}
---
apiVersion: v1
kind: Node
metadata: {name: cordoned}
spec: {unschedulable: true}
status:
  allocatable: {cpu: "96"}
---
apiVersion: v1
kind: Pod
metadata:
  name: etl-6d5f8b7c9-abcde
  namespace: batch
  labels: {app: etl, component: jobmanager, type: flink-native-kubernetes}
spec:
  nodeName: lab-node
  containers:
  - name: flink-main-container
    resources: {requests: {cpu: 500m, memory: 2Gi}}
status: {phase: Running}"#
        );
        let f = run(&PodUnschedulable, &snap(&y));
        let f = f
            .iter()
            .find(|f| f.object.name == "etl-taskmanager-1-2")
            .expect("FLK106");
        assert!(f.title.contains("insufficient cpu"), "{}", f.title);
        assert!(
            f.fix
                .contains("Node lab-node has the most left: 7.5 of its allocatable 8"),
            "{}",
            f.fix
        );
        assert!(
            f.fix
                .contains(r#"-p '{"spec":{"taskManager":{"resource":{"cpu":7.5}}}}'"#),
            "{}",
            f.fix
        );
        // Without the nodes, half the ask, as before.
        let no_nodes: Vec<&str> = y
            .split("\n---\n")
            .filter(|d| !d.contains("kind: Node\n"))
            .collect();
        let f = run(&PodUnschedulable, &snap(&no_nodes.join("\n---\n")));
        let f = f
            .iter()
            .find(|f| f.object.name == "etl-taskmanager-1-2")
            .expect("FLK106");
        assert!(f.fix.contains(r#"{"cpu":32}"#), "{}", f.fix);
    }

    /// A held-out lab fault (operator 1.7.0, Flink 1.18.1): `jobManager.resource.cpu: 40` on a
    /// node of 8. The first fix gave the JobManager all 8 cores, and its TaskManager (0.5) then
    /// found none; the second halved the TaskManager's ask on a node with nothing left.
    #[test]
    fn a_jobmanager_sized_to_the_room_leaves_its_taskmanagers_theirs() {
        let node = r#"apiVersion: v1
kind: Node
metadata: {name: lab-node}
status:
  allocatable: {cpu: "8", memory: 32Gi}"#;
        let fd = r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: flink:1.18
  serviceAccount: flink
  flinkConfiguration: {taskmanager.numberOfTaskSlots: "1"}
  jobManager: {resource: {memory: 1024m, cpu: JM_CPU}}
  taskManager: {resource: {memory: 1024m, cpu: 0.5}}
  job: {jarURI: "local:///opt/flink/usrlib/lab-job.jar", parallelism: 2}"#;
        let pod = |name: &str, component: &str, cpu: &str, bound: bool| {
            format!(
                r#"apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: analytics
  creationTimestamp: "2026-11-28T10:00:00Z"
  labels: {{app: orders, component: {component}, type: flink-native-kubernetes}}
spec:
  {}containers:
  - name: flink-main-container
    resources: {{requests: {{cpu: "{cpu}", memory: 1Gi}}}}
status:
  phase: {}
{}"#,
                if bound {
                    "nodeName: lab-node
  "
                } else {
                    ""
                },
                if bound { "Running" } else { "Pending" },
                if bound {
                    ""
                } else {
                    "  conditions:
  - {type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.\"}"
                }
            )
        };
        // The JobManager pending: the room less the 2 TaskManagers (parallelism 2, 1 slot each).
        let y = [
            node.to_string(),
            fd.replace("JM_CPU", "40"),
            pod("orders-79cc79d5d8-5q292", "jobmanager", "40", false),
        ]
        .join("\n---\n");
        let f = run(&PodUnschedulable, &snap(&y));
        assert!(
            f[0].fix
                .contains(r#"-p '{"spec":{"jobManager":{"resource":{"cpu":7}}}}'"#)
                && f[0].fix.contains("less the 2 TaskManager(s) of 0.5 each"),
            "{}",
            f[0].fix
        );
        // A TaskManager pending beside its own JobManager that took the whole node: the
        // JobManager is made smaller by what the TaskManager asks, not the TaskManager halved.
        let y = [
            node.to_string(),
            fd.replace("JM_CPU", "8"),
            pod("orders-6598fbdf49-krb56", "jobmanager", "8", true),
            pod("orders-taskmanager-1-1", "taskmanager", "0.5", false),
        ]
        .join("\n---\n");
        let f = run(&PodUnschedulable, &snap(&y));
        let f = f
            .iter()
            .find(|f| f.object.name == "orders-taskmanager-1-1")
            .expect("FLK106");
        assert!(
            f.fix
                .contains(r#"-p '{"spec":{"jobManager":{"resource":{"cpu":7.5}}}}'"#)
                && f.fix.contains(
                    "this cluster's own JobManager (pod orders-6598fbdf49-krb56) asks for 8"
                ),
            "{}",
            f.fix
        );
    }

    #[test]
    fn events_alone_are_enough() {
        let y = PENDING.replace(
            "  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: \"0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.\"\n",
            "",
        );
        let f = run(&PodUnschedulable, &snap(&y));
        assert_eq!(f.len(), 1, "{y}");
        assert!(f[0].title.contains("insufficient memory"));
    }

    #[test]
    fn a_node_selector_is_dropped_in_the_template_that_sets_it() {
        let msg = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
        let y = PENDING
            .replace(
                "  taskManager: {resource: {memory: 8192m, cpu: 4}}\n",
                "  taskManager: {resource: {memory: 8192m, cpu: 4}}\n  podTemplate:\n    spec:\n      nodeSelector: {pool: flink}\n",
            )
            .replace("  restartPolicy: Never\n", "  restartPolicy: Never\n  nodeSelector: {pool: flink}\n")
            .replace(
                "1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                msg.trim_start_matches("0/3 nodes are available: "),
            );
        let f = run(&PodUnschedulable, &snap(&y));
        assert_eq!(f.len(), 1, "{y}");
        let fix = &f[0].fix;
        assert!(
            fix.contains(
                "they are set in spec.podTemplate.spec.nodeSelector of FlinkDeployment etl"
            ),
            "{fix}"
        );
        let r = crate::finding::Remedy::from_fix(fix);
        assert_eq!(
            r.run,
            [
                r#"kubectl patch flinkdeployment etl -n batch --type=merge -p '{"spec":{"podTemplate":{"spec":{"nodeSelector":{"pool":null}}}}}'"#
            ]
        );
        // Set in the TaskManager's own template: that one.
        let own = y
            .replace("  podTemplate:\n    spec:\n      nodeSelector: {pool: flink}\n", "")
            .replace(
                "  taskManager: {resource: {memory: 8192m, cpu: 4}}\n",
                "  taskManager:\n    resource: {memory: 8192m, cpu: 4}\n    podTemplate:\n      spec:\n        nodeSelector: {pool: flink}\n",
            );
        let f = run(&PodUnschedulable, &snap(&own));
        assert!(
            f[0].fix.contains(
                "\"taskManager\":{\"podTemplate\":{\"spec\":{\"nodeSelector\":{\"pool\":null}}}}"
            ),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn the_title_of_a_1_36_message_says_the_reason_and_nothing_of_the_dra_plugin() {
        let y = PENDING.replace(
            "1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption:",
            "3 Insufficient cpu. no new claims to deallocate, preemption:",
        );
        let f = run(&PodUnschedulable, &snap(&y));
        assert_eq!(
            f[0].title,
            "TaskManager pod cannot be scheduled: insufficient cpu"
        );
    }

    #[test]
    fn a_claim_that_does_not_exist_is_named_with_the_claim_to_create() {
        let msg = "1 node(s) had untolerated taint {dedicated: streaming}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.";
        let y = PENDING.replace(
            msg,
            "persistentvolumeclaim \\\"flink-checkpoints\\\" not found. not found",
        );
        let f = run(&PodUnschedulable, &snap(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].title,
            "TaskManager pod cannot be scheduled: PersistentVolumeClaim flink-checkpoints does not exist"
        );
        let r = crate::finding::Remedy::from_fix(&f[0].fix);
        assert_eq!(r.apply.len(), 1, "{}", f[0].fix);
        let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
        assert_eq!(doc["kind"], "PersistentVolumeClaim");
        assert_eq!(doc["metadata"]["name"], "flink-checkpoints");
        assert_eq!(doc["metadata"]["namespace"], "batch");
        assert_eq!(
            doc["spec"]["resources"]["requests"]["storage"],
            "<size the volume needs>"
        );
        assert!(f[0].fix.contains("FlinkDeployment etl"), "{}", f[0].fix);
    }

    #[test]
    fn the_time_unschedulable_is_from_the_condition_and_never_zero() {
        // The condition's lastTransitionTime first.
        let y = PENDING.replace(
            "    reason: Unschedulable\n",
            "    reason: Unschedulable\n    lastTransitionTime: \"2026-11-28T10:05:00Z\"\n",
        );
        assert_ne!(y, PENDING);
        let f = run(&PodUnschedulable, &snap(&y));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e == "unschedulable for 15m (since 2026-11-28T10:05:00Z)"),
            "{:?}",
            f[0].evidence
        );
        // "Now" is the very time it became unschedulable (a bundle's newest timestamp): unknown.
        let mut s = snap(&y);
        s.captured_at = "2026-11-28T10:05:00Z".parse().unwrap();
        let f = run(&PodUnschedulable, &s);
        assert!(
            !f[0]
                .evidence
                .iter()
                .any(|e| e.contains("unschedulable for")),
            "{:?}",
            f[0].evidence
        );
        // An events.k8s.io event (eventTime, no firstTimestamp) whose latest repeat is "now".
        let y = PENDING
            .replace(
                "firstTimestamp: \"2026-11-28T10:00:00Z\"",
                "eventTime: \"2026-11-28T10:01:00.000000Z\"",
            )
            .replace(
                "lastTimestamp: \"2026-11-28T10:20:00Z\"",
                "series: {count: 6, lastObservedTime: \"2026-11-28T10:20:00.000000Z\"}",
            );
        let f = run(&PodUnschedulable, &snap(&y));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e == "unschedulable for 19m (since 2026-11-28T10:01:00Z)"),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn the_fix_in_the_spec_before_the_rollout_is_an_info_finding() {
        // The bundle's fix applied to the FlinkDeployment; the pods are the old ones.
        let mut s = crate::rules::testing::scenario("pod-unschedulable");
        let tm = s.flink_deployments[0].spec.task_manager.as_mut().unwrap();
        tm.resource.as_mut().unwrap().memory = Some("4096m".into());
        let f = run(&PodUnschedulable, &s);
        assert!(!f.is_empty());
        let main = f
            .iter()
            .find(|f| f.object.kind == "Pod")
            .expect("the pod's finding");
        assert_eq!(main.severity, Severity::Info, "{main:#?}");
        assert!(main.title.contains("the pod predates it"), "{}", main.title);
        assert!(
            crate::finding::Remedy::from_fix(&main.fix).is_empty(),
            "{}",
            main.fix
        );
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&PodUnschedulable, &scenario("pod-unschedulable"));
        assert_eq!(f.len(), 2, "one per Pending TaskManager (rank folds them)");
        assert!(f.iter().all(|f| f.title
            == "TaskManager pod cannot be scheduled: insufficient memory"
            && f.severity == Severity::Critical));
        for name in HEALTHY_SCENARIOS {
            assert!(run(&PodUnschedulable, &scenario(name)).is_empty(), "{name}");
        }
    }

    #[test]
    fn a_flinkcluster_pod_is_fixed_in_the_flinkcluster_s_own_spec() {
        let f = run(
            &PodUnschedulable,
            &crate::rules::testing::scenario("mode-flinkcluster-tm-pending"),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].fix
                .contains("spec.taskManager.resources.requests.cpu is 200m now"),
            "{}",
            f[0].fix
        );
        assert!(
            f[0].fix.contains(r#"kubectl patch flinkcluster topspeed -n scn-mode-flinkcluster-tm-pending --type=merge -p '{"spec":{"taskManager":{"resources":{"requests":{"cpu":"100m"}}}}}'"#),
            "{}",
            f[0].fix
        );
        assert!(!f[0].fix.contains("flinkdeployment"), "{}", f[0].fix);
        assert!(
            f[0].verify
                .contains("-l app=flink,cluster=topspeed,component=taskmanager"),
            "{}",
            f[0].verify
        );
    }

    #[test]
    fn halves_quantities() {
        assert_eq!(half("cpu", "200m").as_deref(), Some("100m"));
        assert_eq!(half("cpu", "2").as_deref(), Some("1000m"));
        assert_eq!(half("memory", "4Gi").as_deref(), Some("2048Mi"));
        assert_eq!(half("memory", "lots"), None);
    }
}

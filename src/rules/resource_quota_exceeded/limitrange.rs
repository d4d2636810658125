//! A LimitRange's memory maximum per container or per pod against the FlinkDeployment's components.
//!
//! LimitRanger refuses a pod whose container limit (or request) is over the `max` of an item of
//! `type: Container`, or whose pod limit is over that of an item of `type: Pod`:
//! `maximum memory usage per Container is 768Mi, but limit is 1Gi`,
//! `maximum memory usage per Pod is 2Gi, but limit is 2560Mi`
//! (kubernetes/kubernetes@v1.36.3:plugin/pkg/admission/limitranger/admission.go, `maxConstraint`:
//! `"maximum %s usage per %s is %s, but limit is %s"`). A pod's limit is what `podLimits` there
//! sums: every container's limit plus every sidecar's (an init container with `restartPolicy:
//! Always`), or an init container's own limit with the sidecars started before it when that is
//! larger; a container with no memory limit has the one the LimitRange's `type: Container` item
//! gives by `default` (LimitRanger sets it before it checks, `mergePodResourceRequirements`).
//! The pod's other containers come from the FlinkDeployment's pod templates, merged as the
//! operator merges them: `spec.podTemplate` with `spec.jobManager|taskManager.podTemplate`, arrays
//! by position, or by name with `kubernetes.operator.pod-template.merge-arrays-by-name`
//! (apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/utils/FlinkUtils.java,
//! `mergePodTemplates`).
//! Flink sets its main container's memory request to the component's process size
//! (`spec.jobManager|taskManager.resource.memory`) and the limit to that times
//! `kubernetes.jobmanager|taskmanager.memory.limit-factor` (default 1.0:
//! apache/flink@release-1.18.1:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/configuration/KubernetesConfigOptions.java,
//! and KubernetesUtils.getResourceRequirements). Every component over the maximum is refused in
//! turn (the JobManager first; the TaskManagers once it runs), so the fix sizes all of them at once.
//!
//! A component can go down to the maximum only if Flink's memory model still fits in it. With
//! Flink's defaults (no `*.memory.*` option set) the smallest process sizes are:
//! - TaskManager 1024m: Framework Heap 128m + Framework Off-Heap 128m + Network at least 64m, with
//!   Managed Memory 0.4 of the Total Flink Memory, need a Total Flink Memory of 533.4m; plus JVM
//!   Metaspace 256m and JVM Overhead at least 192m, 981.4m, rounded up to a multiple of 64m
//!   (apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java);
//! - JobManager 704m: Off-Heap 128m, JVM Metaspace 256m, JVM Overhead at least 192m and the heap
//!   Flink recommends at least (128m, `JobManagerFlinkMemoryUtils` warns below it)
//!   (apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/JobManagerOptions.java).
//!
//! When a component over the maximum cannot shrink to it, the LimitRange is what must change: the
//! fix raises its maximum to what the largest component asks for (an administrator's object: a
//! person may instead tune the component's memory options).

use crate::flink::mode::Component as FlinkComponent;
use crate::flink::names::MAIN_CONTAINER;
use crate::flink::units::{format_bytes, parse_quantity, parse_resource_memory};
use crate::snapshot::flink::{FlinkDeployment, PodTemplate};
use crate::snapshot::Snapshot;
use k8s_openapi::api::core::v1::Container;

const MIB: f64 = 1024.0 * 1024.0;

/// The smallest process size of a TaskManager with Flink's default memory options.
const TM_MIN: f64 = 1024.0 * MIB;
/// The smallest process size of a JobManager with Flink's default memory options.
const JM_MIN: f64 = 704.0 * MIB;

/// What a LimitRange item bounds: each container (`type: Container`) or the pod (`type: Pod`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Container,
    Pod,
}

impl Scope {
    /// The item's `type`, as LimitRanger names it in its message.
    fn item(self) -> &'static str {
        match self {
            Scope::Container => "Container",
            Scope::Pod => "Pod",
        }
    }
    fn word(self) -> &'static str {
        match self {
            Scope::Container => "container",
            Scope::Pod => "pod",
        }
    }
}

/// `maximum memory usage per Container is 768Mi, but limit is 1Gi` -> (Container, 768Mi in
/// bytes); `maximum memory usage per Pod is 2Gi, but limit is 2560Mi` -> (Pod, 2Gi).
pub(super) fn memory_max(text: &str) -> Option<(Scope, f64)> {
    let rest = text.strip_prefix("maximum memory usage per ")?;
    let (scope, rest) = match rest.strip_prefix("Container is ") {
        Some(r) => (Scope::Container, r),
        None => (Scope::Pod, rest.strip_prefix("Pod is ")?),
    };
    let (max, _) = rest.split_once(", but ")?;
    Some((scope, parse_quantity(max.trim())?))
}

struct Component {
    which: FlinkComponent,
    key: &'static str,
    who: &'static str,
    memory: String,
    bytes: f64,
    factor: f64,
    /// The smallest process size Flink fits in, when the memory options are Flink's defaults.
    min: Option<f64>,
    /// Per pod: the pod's other containers and sidecars with their memory limits, which count
    /// beside Flink's main container (none per container).
    others: Vec<(String, f64)>,
    /// Per pod: the largest limit an init container with the sidecars before it sets.
    init_floor: f64,
}

impl Component {
    /// The limit the LimitRange item compares with its maximum: the main container's, or the pod's.
    fn limit(&self) -> f64 {
        self.limit_with(self.bytes)
    }
    /// As [`Component::limit`], with a process size of BYTES.
    fn limit_with(&self, bytes: f64) -> f64 {
        let others: f64 = self.others.iter().map(|(_, b)| b).sum();
        (bytes * self.factor + others).max(self.init_floor)
    }
    /// The largest process size, in MiB, whose limit is within MAX (0 when none is).
    fn largest_within(&self, max: f64) -> u64 {
        let others: f64 = self.others.iter().map(|(_, b)| b).sum();
        if self.init_floor > max || others >= max {
            return 0;
        }
        ((max - others) / self.factor / MIB).floor() as u64
    }
}

/// A container of a pod template, as far as a pod's memory limit goes.
#[derive(Debug, Clone, Default)]
struct Part {
    name: String,
    memory: Option<f64>,
    /// `restartPolicy: Always` on an init container: a sidecar.
    always: Option<bool>,
}

impl Part {
    fn of(c: &Container) -> Part {
        Part {
            name: c.name.clone(),
            memory: c
                .resources
                .as_ref()
                .and_then(|r| r.limits.as_ref())
                .and_then(|l| l.get("memory"))
                .and_then(|q| parse_quantity(&q.0)),
            always: c.restart_policy.as_deref().map(|p| p == "Always"),
        }
    }
    /// SPECIFIC merged into self: its fields win where it sets them.
    fn merged(&self, specific: &Part) -> Part {
        Part {
            name: if specific.name.is_empty() {
                self.name.clone()
            } else {
                specific.name.clone()
            },
            memory: specific.memory.or(self.memory),
            always: specific.always.or(self.always),
        }
    }
}

/// The operator's array merge of two pod templates' containers: by position, or by name.
fn merge(shared: &[Container], specific: &[Container], by_name: bool) -> Vec<Part> {
    let shared: Vec<Part> = shared.iter().map(Part::of).collect();
    let specific: Vec<Part> = specific.iter().map(Part::of).collect();
    if by_name {
        let mut out = shared;
        for p in specific {
            match out.iter_mut().find(|x| x.name == p.name) {
                Some(x) => *x = x.merged(&p),
                None => out.push(p),
            }
        }
        return out;
    }
    (0..shared.len().max(specific.len()))
        .map(|i| match (shared.get(i), specific.get(i)) {
            (Some(a), Some(b)) => a.merged(b),
            (Some(a), None) => a.clone(),
            (None, Some(b)) => b.clone(),
            (None, None) => Part::default(),
        })
        .collect()
}

/// The containers of the component's pod besides Flink's main one, with their memory limits,
/// and the floor its init containers set (`podLimits`, see the module's note).
fn pod_parts(
    s: &Snapshot,
    fd: &FlinkDeployment,
    ns: &str,
    which: FlinkComponent,
) -> (Vec<(String, f64)>, f64) {
    let own = match which {
        FlinkComponent::TaskManager => fd.spec.task_manager.as_ref(),
        _ => fd.spec.job_manager.as_ref(),
    }
    .and_then(|c| c.pod_template.as_ref());
    let spec = |t: Option<&PodTemplate>| t.and_then(|t| t.spec.clone()).unwrap_or_default();
    let (shared, own) = (spec(fd.spec.pod_template.as_ref()), spec(own));
    let by_name = fd
        .spec
        .flink_configuration
        .get("kubernetes.operator.pod-template.merge-arrays-by-name")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
    // What LimitRanger gives a container that sets no memory limit.
    let default = s
        .limit_ranges
        .iter()
        .filter(|l| l.metadata.namespace.as_deref() == Some(ns))
        .filter_map(|l| l.spec.as_ref())
        .flat_map(|spec| &spec.limits)
        .filter(|item| item.type_ == "Container")
        .find_map(|item| item.default.as_ref()?.get("memory"))
        .and_then(|q| parse_quantity(&q.0));
    let memory = |p: &Part| p.memory.or(default).unwrap_or(0.0);
    let mut others = Vec::new();
    for p in merge(&shared.containers, &own.containers, by_name) {
        if p.name != MAIN_CONTAINER && memory(&p) > 0.0 {
            others.push((p.name.clone(), memory(&p)));
        }
    }
    let (mut sidecars, mut floor) = (0.0, 0.0_f64);
    for p in merge(&shared.init_containers, &own.init_containers, by_name) {
        if p.always == Some(true) {
            sidecars += memory(&p);
            if memory(&p) > 0.0 {
                others.push((p.name.clone(), memory(&p)));
            }
            floor = floor.max(sidecars);
        } else {
            floor = floor.max(memory(&p) + sidecars);
        }
    }
    (others, floor)
}

fn components(s: &Snapshot, fd: &FlinkDeployment, ns: &str, scope: Scope) -> Vec<Component> {
    let conf = &fd.spec.flink_configuration;
    let mut out = Vec::new();
    for (which, min) in [
        (FlinkComponent::JobManager, JM_MIN),
        (FlinkComponent::TaskManager, TM_MIN),
    ] {
        let (key, who, prefix) = (which.spec_key(), which.title(), which.as_str());
        let spec = match which {
            FlinkComponent::TaskManager => fd.spec.task_manager.as_ref(),
            _ => fd.spec.job_manager.as_ref(),
        };
        let Some(memory) = spec
            .and_then(|c| c.resource.as_ref())
            .and_then(|r| r.memory.clone())
        else {
            continue;
        };
        let Some(bytes) = parse_resource_memory(&memory) else {
            continue;
        };
        let factor = conf
            .get(&format!("kubernetes.{prefix}.memory.limit-factor"))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|f| *f >= 1.0)
            .unwrap_or(1.0);
        let tuned = conf
            .keys()
            .any(|k| k.starts_with(&format!("{prefix}.memory.")) && !k.ends_with(".process.size"));
        let (others, init_floor) = match scope {
            Scope::Pod => pod_parts(s, fd, ns, which),
            Scope::Container => (Vec::new(), 0.0),
        };
        out.push(Component {
            which,
            key,
            who,
            memory,
            bytes,
            factor,
            min: (!tuned).then_some(min),
            others,
            init_floor,
        });
    }
    out
}

/// The component's limit in words: `a JobManager container limit of 1Gi (limit-factor 1)`, or per
/// pod `a JobManager pod limit of 2.5Gi (Flink's container 2Gi with limit-factor 1, plus
/// log-shipper 512Mi)`.
fn limit_words(c: &Component, scope: Scope) -> String {
    let main = format!("limit-factor {}", c.factor);
    if scope == Scope::Container {
        return format!(
            "a {} container limit of {} ({main})",
            c.who,
            format_bytes(c.limit())
        );
    }
    let mut parts = vec![format!(
        "Flink's container {} with {main}",
        format_bytes(c.bytes * c.factor)
    )];
    parts.extend(
        c.others
            .iter()
            .map(|(n, b)| format!("{} {}", crate::shell::escape_controls(n), format_bytes(*b))),
    );
    // The init containers decide the pod's limit only when one of them asks for more.
    let sum = c.bytes * c.factor + c.others.iter().map(|(_, b)| b).sum::<f64>();
    let floor = if c.init_floor > sum {
        format!("; its init containers need {}", format_bytes(c.init_floor))
    } else {
        String::new()
    };
    format!(
        "a {} pod limit of {} ({}{floor})",
        c.who,
        format_bytes(c.limit()),
        parts.join(", plus ")
    )
}

/// `Some(evidence)` when the component SPEC_KEY's limit (its container's, or its pod's) is within
/// MAX now: the refusal was of an earlier spec.
pub(super) fn within(
    s: &Snapshot,
    fd: &FlinkDeployment,
    ns: &str,
    spec_key: &str,
    scope: Scope,
    max: f64,
) -> Option<String> {
    let c = components(s, fd, ns, scope)
        .into_iter()
        .find(|c| c.key == spec_key)?;
    (c.limit() <= max).then(|| match scope {
        Scope::Container => format!(
            "spec.{}.resource.memory is {} now: a container limit of {}, within the maximum {}",
            c.key,
            c.memory,
            format_bytes(c.limit()),
            format_bytes(max)
        ),
        Scope::Pod => format!(
            "spec.{}.resource.memory is {} now: {}, within the maximum {} per pod",
            c.key,
            c.memory,
            limit_words(&c, scope),
            format_bytes(max)
        ),
    })
}

/// The fix for every component over MAX per SCOPE, and the evidence of each.
pub(super) fn fix(
    s: &Snapshot,
    fd: &FlinkDeployment,
    ns: &str,
    scope: Scope,
    max: f64,
) -> (String, Vec<String>) {
    let per = scope.word();
    let over: Vec<Component> = components(s, fd, ns, scope)
        .into_iter()
        .filter(|c| c.limit() > max)
        .collect();
    let evidence: Vec<String> = over
        .iter()
        .map(|c| {
            format!(
                "spec.{}.resource.memory {}: {}, over the LimitRange maximum {}{}",
                c.key,
                c.memory,
                limit_words(c, scope),
                format_bytes(max),
                if scope == Scope::Pod { " per pod" } else { "" }
            )
        })
        .collect();
    let name = crate::shell::sh(fd.name());
    let qns = crate::shell::sh(ns);
    // Each component down to the maximum, when Flink fits in it.
    let shrink: Vec<(&Component, u64)> = over.iter().map(|c| (c, c.largest_within(max))).collect();
    let fits = |c: &Component, m: u64| c.min.is_some_and(|min| m > 0 && m as f64 * MIB >= min);
    if !over.is_empty() && shrink.iter().all(|(c, m)| fits(c, *m)) {
        let parts: Vec<String> = shrink
            .iter()
            .map(|(c, m)| format!("\"{}\":{{\"resource\":{{\"memory\":\"{m}m\"}}}}", c.key))
            .collect();
        let fields: Vec<String> = shrink
            .iter()
            .map(|(c, m)| format!("spec.{}.resource.memory {} -> {m}m", c.key, c.memory))
            .collect();
        let beside = if scope == Scope::Pod {
            ", beside the other containers of their pods"
        } else {
            ""
        };
        let json = format!("{{\"spec\":{{{}}}}}", parts.join(","));
        let patch = crate::shell::quote(&json);
        return (
            format!(
                "Size the components within the LimitRange's maximum of {} per {per} ({}{beside}):\n\n  \
                 kubectl patch flinkdeployment {name} -n {qns} --type=merge -p {patch}\n\n\
                 or raise the LimitRange's maximum (kubectl get limitrange -n {qns} -o yaml).",
                format_bytes(max),
                fields.join(", ")
            ),
            evidence,
        );
    }
    // The LimitRange must change: its maximum up to the largest component's limit.
    let need = over
        .iter()
        .map(Component::limit)
        .fold(0.0, f64::max)
        .max(max);
    let need_q = format_bytes(need);
    let why: Vec<String> = shrink
        .iter()
        .filter(|(c, m)| !fits(c, *m))
        .map(|(c, m)| match c.min {
            Some(_) if *m == 0 => format!(
                "the other containers (or an init container) of the {}'s {per} alone take its maximum",
                c.who
            ),
            Some(min) => format!(
                "a {} with Flink's default memory options needs a process size of at least {}m{}",
                c.who,
                (min / MIB) as u64,
                if scope == Scope::Pod {
                    format!(", and {m}m is left beside its pod's other containers")
                } else {
                    String::new()
                }
            ),
            None => format!(
                "the {} sets its own {}.memory.* options, so whether it fits in less is for a person to size",
                c.who,
                c.which.as_str()
            ),
        })
        .collect();
    let target = limit_range_path(s, ns, scope, max);
    let cmd = match &target {
        Some((lr, i)) => {
            let json = format!(
                "[{{\"op\":\"replace\",\"path\":\"/spec/limits/{i}/max/memory\",\"value\":\"{need_q}\"}}]"
            );
            format!(
                "kubectl patch limitrange {} -n {qns} --type=json -p {}",
                crate::shell::sh(lr),
                crate::shell::quote(&json)
            )
        }
        None => format!(
            "kubectl edit limitrange -n {qns}   # the spec.limits item of type {}: max.memory {need_q}",
            scope.item()
        ),
    };
    (
        format!(
            "The LimitRange's maximum of {} per {per} is below what Flink needs here ({}). Raise the \
             LimitRange's max.memory for {per}s to {need_q}, the largest limit the deployment asks for:\n\n  \
             {cmd}\n\n\
             (it is the namespace's policy: a person may instead give the component memory options that fit in {}).",
            format_bytes(max),
            why.join("; "),
            match scope {
                Scope::Container => format_bytes(max),
                Scope::Pod => format!("what the pod's other containers leave of {}", format_bytes(max)),
            }
        ),
        evidence,
    )
}

/// The LimitRange of NS with an item of SCOPE's type whose `max.memory` is MAX, and that item's
/// index.
fn limit_range_path(s: &Snapshot, ns: &str, scope: Scope, max: f64) -> Option<(String, usize)> {
    s.limit_ranges
        .iter()
        .filter(|l| l.metadata.namespace.as_deref() == Some(ns))
        .find_map(|l| {
            let spec = l.spec.as_ref()?;
            let i = spec.limits.iter().position(|item| {
                item.type_ == scope.item()
                    && item
                        .max
                        .as_ref()
                        .and_then(|m| m.get("memory"))
                        .and_then(|q| parse_quantity(&q.0))
                        .is_some_and(|b| (b - max).abs() < 1.0)
            })?;
            Some((l.metadata.name.clone()?, i))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::snapshot as load_yaml;

    /// The lab's limitrange scenario: max 768Mi per container, JobManager and TaskManager 1024m.
    fn lab(jm: &str, tm: &str) -> Snapshot {
        load_yaml(&format!(
            r#"
apiVersion: v1
kind: LimitRange
metadata: {{name: per-container, namespace: analytics}}
spec:
  limits:
  - type: Container
    max: {{memory: 768Mi}}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: flink:1.18
  flinkVersion: v1_18
  jobManager: {{resource: {{memory: {jm}, cpu: 0.5}}}}
  taskManager: {{resource: {{memory: {tm}, cpu: 0.5}}}}
"#
        ))
    }

    const TEXT: &str = "maximum memory usage per Container is 768Mi, but limit is 1Gi";

    #[test]
    fn reads_the_maximum() {
        assert_eq!(memory_max(TEXT), Some((Scope::Container, 768.0 * MIB)));
        assert_eq!(
            memory_max("minimum memory usage per Container is 1Gi, but request is 512Mi"),
            None
        );
    }

    #[test]
    fn a_taskmanager_that_cannot_shrink_raises_the_limitrange() {
        let s = lab("1024m", "1024m");
        let (text, evidence) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Container,
            768.0 * MIB,
        );
        assert!(text.contains("kubectl patch limitrange per-container -n analytics --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/limits/0/max/memory\",\"value\":\"1Gi\"}]'"), "{text}");
        assert!(text.contains("at least 1024m"), "{text}");
        assert_eq!(evidence.len(), 2, "{evidence:#?}");
    }

    #[test]
    fn components_that_fit_are_sized_down_together() {
        let s = lab("2048m", "2048m");
        let (text, _) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Container,
            1536.0 * MIB,
        );
        assert!(text.contains(r#"-p '{"spec":{"jobManager":{"resource":{"memory":"1536m"}},"taskManager":{"resource":{"memory":"1536m"}}}}'"#), "{text}");
        // Just under a TaskManager's smallest size: the LimitRange must change instead.
        let s = lab("1024m", "1024m");
        let (text, _) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Container,
            1000.0 * MIB,
        );
        assert!(text.contains("max.memory 1Gi"), "{text}");
    }

    #[test]
    fn an_earlier_specs_refusal_is_history() {
        let s = lab("768m", "1024m");
        let fd = &s.flink_deployments[0];
        let c = Scope::Container;
        assert!(within(&s, fd, "analytics", "jobManager", c, 768.0 * MIB).is_some());
        assert!(within(&s, fd, "analytics", "taskManager", c, 768.0 * MIB).is_none());
    }

    /// A LimitRange with a per-pod maximum of MAX (its second item), and a FlinkDeployment of
    /// JobManager and TaskManager 2048m whose shared pod template adds a log shipper of 512Mi.
    fn per_pod(max: &str, extra: &str) -> Snapshot {
        load_yaml(&format!(
            r#"
apiVersion: v1
kind: LimitRange
metadata: {{name: bounds, namespace: analytics}}
spec:
  limits:
  - type: Container
    max: {{cpu: '4'}}
  - type: Pod
    max: {{memory: {max}}}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: flink:1.18
  flinkVersion: v1_18
  podTemplate:
    spec:
      containers:
      - name: flink-main-container
      - name: log-shipper
        image: fluent/fluent-bit:3
        resources: {{limits: {{memory: 512Mi}}}}
  jobManager: {{resource: {{memory: 2048m, cpu: 0.5}}}}
  taskManager: {{resource: {{memory: 2048m, cpu: 0.5}}{extra}}}
"#
        ))
    }

    #[test]
    fn reads_the_per_pod_maximum_as_limitranger_words_it() {
        // maxConstraint's "maximum %s usage per %s is %s, but limit is %s" with the item's type.
        let msg = r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: maximum memory usage per Pod is 2Gi, but limit is 2560Mi"#;
        let Some(crate::snapshot::refused::Rejection {
            what: crate::snapshot::refused::Refused::LimitRange { text },
            ..
        }) = crate::snapshot::refused::Rejection::parse(msg)
        else {
            panic!("not read as a LimitRange refusal: {msg}");
        };
        assert_eq!(memory_max(&text), Some((Scope::Pod, 2.0 * 1024.0 * MIB)));
        assert_eq!(
            memory_max("maximum memory usage per Pod is 1536Mi, but request is 2Gi"),
            Some((Scope::Pod, 1536.0 * MIB))
        );
        assert_eq!(
            memory_max("maximum cpu usage per Pod is 2, but limit is 3"),
            None
        );
    }

    #[test]
    fn per_pod_the_components_shrink_by_what_the_other_containers_take() {
        let s = per_pod("2Gi", "");
        let fd = &s.flink_deployments[0];
        let (text, evidence) = fix(&s, fd, "analytics", Scope::Pod, 2048.0 * MIB);
        // 2Gi less the log shipper's 512Mi: 1536m each, which Flink's defaults fit in.
        assert!(text.contains(r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"jobManager":{"resource":{"memory":"1536m"}},"taskManager":{"resource":{"memory":"1536m"}}}}'"#), "{text}");
        assert!(text.contains("maximum of 2Gi per pod"), "{text}");
        assert_eq!(
            evidence[0],
            "spec.jobManager.resource.memory 2048m: a JobManager pod limit of 2560Mi (Flink's container 2Gi with limit-factor 1, plus log-shipper 512Mi), over the LimitRange maximum 2Gi per pod"
        );
        // Sized so, the pod is within the maximum: the refusal is history.
        let sized = per_pod("2Gi", "").flink_deployments[0].clone();
        let mut sized = sized;
        sized
            .spec
            .job_manager
            .as_mut()
            .unwrap()
            .resource
            .as_mut()
            .unwrap()
            .memory = Some("1536m".into());
        assert!(within(
            &s,
            &sized,
            "analytics",
            "jobManager",
            Scope::Pod,
            2048.0 * MIB
        )
        .is_some());
        assert!(within(&s, fd, "analytics", "jobManager", Scope::Pod, 2048.0 * MIB).is_none());
    }

    #[test]
    fn per_pod_a_taskmanager_that_cannot_shrink_raises_the_pod_item() {
        // 1280Mi less 512Mi leaves 768m: under a TaskManager's smallest 1024m.
        let s = per_pod("1280Mi", "");
        let (text, _) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Pod,
            1280.0 * MIB,
        );
        assert!(text.contains(r#"kubectl patch limitrange bounds -n analytics --type=json -p '[{"op":"replace","path":"/spec/limits/1/max/memory","value":"2560Mi"}]'"#), "{text}");
        assert!(text.contains("max.memory for pods to 2560Mi"), "{text}");
        assert!(
            text.contains("needs a process size of at least 1024m, and 768m is left beside its pod's other containers"),
            "{text}"
        );
        // A sidecar declared as a restartable init container counts the same, and the
        // TaskManager's own template (merged by position) replaces the shared container's limit.
        let s = per_pod(
            "2Gi",
            ", podTemplate: {spec: {containers: [{name: flink-main-container}, {name: log-shipper, resources: {limits: {memory: 256Mi}}}], initContainers: [{name: proxy, image: envoy, restartPolicy: Always, resources: {limits: {memory: 256Mi}}}]}}",
        );
        let (text, evidence) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Pod,
            2048.0 * MIB,
        );
        assert!(
            text.contains(r#""taskManager":{"resource":{"memory":"1536m"}}"#),
            "{text}"
        );
        assert!(
            evidence.iter().any(|e| e.contains("a TaskManager pod limit of 2560Mi (Flink's container 2Gi with limit-factor 1, plus log-shipper 256Mi, plus proxy 256Mi)")),
            "{evidence:#?}"
        );
    }

    #[test]
    fn per_pod_an_init_container_over_the_maximum_raises_the_pod_item() {
        // podLimits takes an init container's own limit when it is more than the containers' sum:
        // no size of Flink's container fits then.
        let s = per_pod(
            "2Gi",
            ", podTemplate: {spec: {initContainers: [{name: fetch-jar, image: busybox, resources: {limits: {memory: 3Gi}}}]}}",
        );
        let (text, evidence) = fix(
            &s,
            &s.flink_deployments[0],
            "analytics",
            Scope::Pod,
            2048.0 * MIB,
        );
        assert!(
            text.contains(r#""path":"/spec/limits/1/max/memory","value":"3Gi""#),
            "{text}"
        );
        assert!(
            text.contains("an init container) of the TaskManager's pod alone take its maximum"),
            "{text}"
        );
        assert!(
            evidence.iter().any(|e| e.contains("a TaskManager pod limit of 3Gi (Flink's container 2Gi with limit-factor 1, plus log-shipper 512Mi; its init containers need 3Gi)")),
            "{evidence:#?}"
        );
    }
}

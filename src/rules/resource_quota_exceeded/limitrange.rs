//! A LimitRange's memory maximum per container against the FlinkDeployment's components.
//!
//! LimitRanger refuses a pod whose container limit (or request) is over `max`:
//! `maximum memory usage per Container is 768Mi, but limit is 1Gi`
//! (kubernetes/kubernetes@v1.36.3:plugin/pkg/admission/limitranger/admission.go, `maxConstraint`).
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
use crate::flink::units::{format_bytes, parse_quantity, parse_resource_memory};
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::Snapshot;

const MIB: f64 = 1024.0 * 1024.0;

/// The smallest process size of a TaskManager with Flink's default memory options.
const TM_MIN: f64 = 1024.0 * MIB;
/// The smallest process size of a JobManager with Flink's default memory options.
const JM_MIN: f64 = 704.0 * MIB;

/// `maximum memory usage per Container is 768Mi, but limit is 1Gi` -> 768Mi in bytes.
pub(super) fn memory_max(text: &str) -> Option<f64> {
    let rest = text.strip_prefix("maximum memory usage per Container is ")?;
    let (max, _) = rest.split_once(", but ")?;
    parse_quantity(max.trim())
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
}

impl Component {
    fn limit(&self) -> f64 {
        self.bytes * self.factor
    }
}

fn components(fd: &FlinkDeployment) -> Vec<Component> {
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
        out.push(Component {
            which,
            key,
            who,
            memory,
            bytes,
            factor,
            min: (!tuned).then_some(min),
        });
    }
    out
}

/// `Some(evidence)` when the component SPEC_KEY's container limit is within MAX now: the refusal
/// was of an earlier spec.
pub(super) fn within(fd: &FlinkDeployment, spec_key: &str, max: f64) -> Option<String> {
    let c = components(fd).into_iter().find(|c| c.key == spec_key)?;
    (c.limit() <= max).then(|| {
        format!(
            "spec.{}.resource.memory is {} now: a container limit of {}, within the maximum {}",
            c.key,
            c.memory,
            format_bytes(c.limit()),
            format_bytes(max)
        )
    })
}

/// The fix for every component over MAX, and the evidence of each.
pub(super) fn fix(s: &Snapshot, fd: &FlinkDeployment, ns: &str, max: f64) -> (String, Vec<String>) {
    let over: Vec<Component> = components(fd)
        .into_iter()
        .filter(|c| c.limit() > max)
        .collect();
    let evidence: Vec<String> = over
        .iter()
        .map(|c| {
            format!(
                "spec.{}.resource.memory {}: a {} container limit of {} (limit-factor {}), over the LimitRange maximum {}",
                c.key,
                c.memory,
                c.who,
                format_bytes(c.limit()),
                c.factor,
                format_bytes(max)
            )
        })
        .collect();
    let name = crate::shell::sh(fd.name());
    let qns = crate::shell::sh(ns);
    // Each component down to the maximum, when Flink fits in it.
    let shrink: Vec<(&Component, u64)> = over
        .iter()
        .map(|c| (c, (max / c.factor / MIB).floor() as u64))
        .collect();
    let fits = |c: &Component, m: u64| c.min.is_some_and(|min| m as f64 * MIB >= min);
    if !over.is_empty() && shrink.iter().all(|(c, m)| fits(c, *m)) {
        let parts: Vec<String> = shrink
            .iter()
            .map(|(c, m)| format!("\"{}\":{{\"resource\":{{\"memory\":\"{m}m\"}}}}", c.key))
            .collect();
        let fields: Vec<String> = shrink
            .iter()
            .map(|(c, m)| format!("spec.{}.resource.memory {} -> {m}m", c.key, c.memory))
            .collect();
        let json = format!("{{\"spec\":{{{}}}}}", parts.join(","));
        let patch = crate::shell::quote(&json);
        return (
            format!(
                "Size the components within the LimitRange's maximum of {} per container ({}):\n\n  \
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
        .map(|(c, _)| match c.min {
            Some(min) => format!(
                "a {} with Flink's default memory options needs a process size of at least {}m",
                c.who,
                (min / MIB) as u64
            ),
            None => format!(
                "the {} sets its own {}.memory.* options, so whether it fits in less is for a person to size",
                c.who,
                c.which.as_str()
            ),
        })
        .collect();
    let target = limit_range_path(s, ns, max);
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
            "kubectl edit limitrange -n {qns}   # spec.limits[type=Container].max.memory: {need_q}"
        ),
    };
    (
        format!(
            "The LimitRange's maximum of {} per container is below what Flink needs here ({}). Raise the \
             LimitRange's max.memory for containers to {need_q}, the largest limit the deployment asks for:\n\n  \
             {cmd}\n\n\
             (it is the namespace's policy: a person may instead give the component memory options that fit in {}).",
            format_bytes(max),
            why.join("; "),
            format_bytes(max)
        ),
        evidence,
    )
}

/// The LimitRange of NS with a `Container` limit whose `max.memory` is MAX, and that limit's index.
fn limit_range_path(s: &Snapshot, ns: &str, max: f64) -> Option<(String, usize)> {
    s.limit_ranges
        .iter()
        .filter(|l| l.metadata.namespace.as_deref() == Some(ns))
        .find_map(|l| {
            let spec = l.spec.as_ref()?;
            let i = spec.limits.iter().position(|item| {
                item.type_ == "Container"
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
        assert_eq!(memory_max(TEXT), Some(768.0 * MIB));
        assert_eq!(
            memory_max("minimum memory usage per Container is 1Gi, but request is 512Mi"),
            None
        );
    }

    #[test]
    fn a_taskmanager_that_cannot_shrink_raises_the_limitrange() {
        let s = lab("1024m", "1024m");
        let (text, evidence) = fix(&s, &s.flink_deployments[0], "analytics", 768.0 * MIB);
        assert!(text.contains("kubectl patch limitrange per-container -n analytics --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/limits/0/max/memory\",\"value\":\"1Gi\"}]'"), "{text}");
        assert!(text.contains("at least 1024m"), "{text}");
        assert_eq!(evidence.len(), 2, "{evidence:#?}");
    }

    #[test]
    fn components_that_fit_are_sized_down_together() {
        let s = lab("2048m", "2048m");
        let (text, _) = fix(&s, &s.flink_deployments[0], "analytics", 1536.0 * MIB);
        assert!(text.contains(r#"-p '{"spec":{"jobManager":{"resource":{"memory":"1536m"}},"taskManager":{"resource":{"memory":"1536m"}}}}'"#), "{text}");
        // Just under a TaskManager's smallest size: the LimitRange must change instead.
        let s = lab("1024m", "1024m");
        let (text, _) = fix(&s, &s.flink_deployments[0], "analytics", 1000.0 * MIB);
        assert!(text.contains("max.memory: 1Gi"), "{text}");
    }

    #[test]
    fn an_earlier_specs_refusal_is_history() {
        let s = lab("768m", "1024m");
        let fd = &s.flink_deployments[0];
        assert!(within(fd, "jobManager", 768.0 * MIB).is_some());
        assert!(within(fd, "taskManager", 768.0 * MIB).is_none());
    }
}

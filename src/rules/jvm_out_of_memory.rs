//! FLK109: the JVM of a Flink process threw `OutOfMemoryError` (heap, metaspace, direct memory,
//! threads) inside the container's limit.
//!
//! Unlike an OOM kill (FLK107), the container limit held: one of Flink's own memory pools was too
//! small for the job (or leaks). Flink enriches the message with the option to raise
//! (`taskmanager.memory.jvm-metaspace.size`, `taskmanager.memory.task.off-heap.size`,
//! `jobmanager.memory.heap.size`, ...) and then stops the process, so FLK103's fatal exit of the
//! same container is its symptom.
//!
//! Lines come from the reading engine triage uses (category `jvm_out_of_memory`: the pools Flink
//! names in `TaskManagerExceptionUtils` / `ClusterEntryPointExceptionUtils`, and any other
//! `java.lang.OutOfMemoryError`), so doctor and triage name the same lines.

use super::support::rollout;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Component;
use crate::flink::names::{LABEL_APP, MAIN_CONTAINER};
use crate::signatures::reader;
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{label, pod_component, pod_name, pod_namespace};
use crate::snapshot::{Index, Snapshot};
use std::collections::BTreeMap;

pub struct JvmOutOfMemory;

static META: RuleMeta = RuleMeta {
    id: "FLK109",
    name: "jvm_out_of_memory",
    summary: "a Flink JVM threw OutOfMemoryError (heap, metaspace, direct)",
    category: Category::JvmOutOfMemory,
    severity: Severity::Critical,
    explains: &["FLK103", "FLK104", "FLK401"],
    fix: r#"raise the memory pool the error names: heap (`taskmanager.memory.task.heap.size`, `jobmanager.memory.heap.size`), metaspace (`taskmanager.memory.jvm-metaspace.size`) or direct (`taskmanager.memory.task.off-heap.size`); a pool that keeps growing is a leak: take a heap dump"#,
    verify: r#"kubectl logs <pod> -c flink-main-container | grep -c OutOfMemoryError   # expect 0 once the new pods run"#,
};

impl Rule for JvmOutOfMemory {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        // (namespace, pod, container) -> the OOM lines of its logs, previous instance first.
        let mut found: BTreeMap<(&str, &str, &str), Vec<Oom>> = BTreeMap::new();
        let mut keys: Vec<_> = snapshot.logs.iter().collect();
        keys.sort_by_key(|(k, _)| {
            (
                k.namespace.clone(),
                k.pod.clone(),
                k.container.clone(),
                !k.previous,
            )
        });
        for (key, text) in keys {
            let lines = oom_lines(text);
            if lines.is_empty() {
                continue;
            }
            let entry = found
                .entry((
                    key.namespace.as_str(),
                    key.pod.as_str(),
                    key.container.as_str(),
                ))
                .or_default();
            entry.extend(lines.into_iter().map(|(line_no, kind, line)| Oom {
                previous: key.previous,
                line_no,
                kind,
                line,
            }));
        }
        found
            .into_iter()
            .map(|((ns, pod, container), ooms)| finding(snapshot, index, ns, pod, container, &ooms))
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pool {
    Heap,
    Metaspace,
    Direct,
    Threads,
    Other,
}

struct Oom {
    previous: bool,
    line_no: usize,
    kind: Pool,
    line: String,
}

fn kind_of(text: &str) -> Pool {
    if text.contains("Java heap space")
        || text.contains("GC overhead limit exceeded")
        || text.contains("Requested array size")
    {
        Pool::Heap
    } else if text.contains("Metaspace") || text.contains("Compressed class space") {
        Pool::Metaspace
    } else if text.contains("Direct buffer memory") {
        Pool::Direct
    } else if text.contains("native thread") {
        Pool::Threads
    } else {
        Pool::Other
    }
}

/// Every line with an OutOfMemoryError: (line number, kind, redacted line), as the reading engine
/// names them (SIG-JVM-OOM for the pools Flink sizes, SIG-JVM-OOM-OTHER for any other).
fn oom_lines(text: &str) -> Vec<(usize, Pool, String)> {
    let mut out: Vec<(usize, Pool, String)> = reader::scan(text)
        .into_iter()
        .filter(|m| m.signature.category == Category::JvmOutOfMemory)
        .map(|m| (m.line_no, kind_of(&m.line), m.line))
        .collect();
    out.sort_by_key(|(n, _, _)| *n);
    out.dedup_by_key(|(n, _, _)| *n);
    out
}

fn kind_words(k: Pool) -> &'static str {
    match k {
        Pool::Heap => "Java heap space",
        Pool::Metaspace => "Metaspace",
        Pool::Direct => "direct memory",
        Pool::Threads => "native threads",
        Pool::Other => "memory",
    }
}

fn finding(
    snapshot: &Snapshot,
    index: &Index,
    ns: &str,
    pod: &str,
    container: &str,
    ooms: &[Oom],
) -> Finding {
    let p = snapshot
        .pods
        .iter()
        .find(|p| pod_namespace(p) == ns && pod_name(p) == pod);
    // Flink's enriched messages say whose memory ran out; else the pod's component label.
    let all: String = ooms
        .iter()
        .map(|o| o.line.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let jm = if all.contains("Flink Master") || all.contains("jobmanager.memory") {
        true
    } else if all.contains("task executor") || all.contains("taskmanager.memory") {
        false
    } else {
        p.and_then(pod_component) == Some(Component::JobManager)
    };
    let mut kinds: Vec<Pool> = ooms.iter().map(|o| o.kind).collect();
    kinds.sort();
    kinds.dedup();
    let main = kinds.first().copied().unwrap_or(Pool::Other);
    let who = if jm { "JobManager" } else { "TaskManager" };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, pod),
        format!(
            "{who} JVM ran out of {} (java.lang.OutOfMemoryError)",
            kinds
                .iter()
                .map(|k| kind_words(*k))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .deployment(p.and_then(|p| index.deployment_of_pod(p)))
    .link(link::container(ns, pod, container));
    // The first line of each kind, then more up to three.
    let mut shown: Vec<&Oom> = Vec::new();
    for k in &kinds {
        if let Some(o) = ooms.iter().find(|o| o.kind == *k) {
            shown.push(o);
        }
    }
    for o in ooms {
        if shown.len() >= 3 {
            break;
        }
        if !shown
            .iter()
            .any(|s| s.line_no == o.line_no && s.previous == o.previous)
        {
            shown.push(o);
        }
    }
    shown.truncate(3);
    for o in shown {
        f = f.evidence(format!(
            "{} of `{container}` line {}: {}",
            if o.previous { "previous log" } else { "log" },
            o.line_no,
            o.line
        ));
    }
    if ooms.len() > 3 {
        f = f.evidence(format!("{} OutOfMemoryError lines in all", ooms.len()));
    }
    let alive = p
        .and_then(|p| p.status.as_ref())
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.iter().find(|c| c.name == container))
        .is_some_and(|c| c.ready && c.restart_count == 0);
    if alive && ooms.iter().all(|o| !o.previous) {
        f = f.severity(Severity::Warning);
    }
    let fd = p
        .and_then(|p| label(p, LABEL_APP))
        .and_then(|app| index.flink_deployment(ns, app));
    let previous = ooms.iter().any(|o| o.previous);
    let f = f.fix(fix(main, jm, ns, fd)).verify(format!(
        "kubectl logs {} -n {ns} -c {}{} | grep -c OutOfMemoryError   # expect 0 once the new pods run",
        // A log's pod and container may be named by the bundle's paths: each one shell word.
        crate::shell::sh(pod),
        crate::shell::sh(container),
        if previous { " --previous" } else { "" }
    ));
    // The spec already gives the pods other memory: this pod ran out under the old sizes.
    match (fd, p) {
        (Some(fd), Some(p)) if container == MAIN_CONTAINER => {
            match rollout::memory(fd, p, rollout::Toward::More) {
                Some(pending) => rollout::awaiting_rollout(f, fd, p, &pending),
                None => f,
            }
        }
        _ => f,
    }
}

fn fix(kind: Pool, jm: bool, ns: &str, fd: Option<&FlinkDeployment>) -> String {
    let component = if jm {
        Component::JobManager
    } else {
        Component::TaskManager
    };
    let (prefix, spec_key) = (component.as_str(), component.spec_key());
    let (key, value, why) = match kind {
        Pool::Metaspace => (
            format!("{prefix}.memory.jvm-metaspace.size"),
            "512m",
            "Metaspace holds loaded classes (default 256m): a job with many dependencies needs more; if it grows with \
             every job restart in a session cluster, a class loading leak in user code is the cause.",
        ),
        Pool::Direct if jm => (
            "jobmanager.memory.off-heap.size".to_string(),
            "256m",
            "Direct (off-heap) memory of the JobManager (default 128m) is too small, or leaks.",
        ),
        Pool::Direct => (
            "taskmanager.memory.task.off-heap.size".to_string(),
            "256m",
            "The job's direct memory (connectors, Netty, user code) has no budget of its own (default 0) or leaks.",
        ),
        Pool::Heap if jm => (
            "jobmanager.memory.heap.size".to_string(),
            "1536m",
            "The JobManager heap is too small (large job graphs, many checkpoints retained, big accumulators), or leaks.",
        ),
        Pool::Heap => (
            "taskmanager.memory.task.heap.size".to_string(),
            "1024m",
            "The task heap is too small for the job's working set (large windows or records, heap state backend), or leaks.",
        ),
        Pool::Threads => (
            String::new(),
            "",
            "The process cannot create more threads: a thread leak in user code, or the node's/container's pids limit.",
        ),
        Pool::Other => (String::new(), "", "The JVM ran out of memory."),
    };
    if key.is_empty() {
        return format!(
            "{why} Take a thread dump (`jcmd 1 Thread.print` in the container) to see which threads pile up, and fix \
             the code that creates them."
        );
    }
    let heap_note = if kind == Pool::Heap {
        " Heap taken from the same process size leaves less for managed memory; if the heap keeps \
         growing over time, take a heap dump (env.java.opts.all: -XX:+HeapDumpOnOutOfMemoryError) and look for a leak."
    } else {
        ""
    };
    match fd {
        Some(d) => {
            let mem = if jm { &d.spec.job_manager } else { &d.spec.task_manager };
            let current = mem.as_ref().and_then(|c| c.resource.as_ref()).and_then(|r| r.memory.clone());
            let bigger = current
                .as_deref()
                .and_then(crate::flink::units::parse_resource_memory)
                .map(|b| format!("{}m", (b * 1.5 / 1048576.0).ceil()))
                .unwrap_or_else(|| "4096m".to_string());
            format!(
                "{why}{heap_note} Give that pool more room; to keep the other pools as they are, grow the process \
                 memory with it (spec.{spec_key}.resource.memory is {} now):\n\n  \
                 kubectl patch flinkdeployment {} -n {ns} --type=merge \\\n    \
                 -p '{{\"spec\":{{\"flinkConfiguration\":{{\"{key}\":\"{value}\"}},\"{spec_key}\":{{\"resource\":{{\"memory\":\"{bigger}\"}}}}}}}}'",
                current.unwrap_or_else(|| "unset".into()),
                d.name()
            )
        }
        None => format!(
            "{why}{heap_note} Raise it in the Flink configuration (and the process size with it):\n\n  {key}: {value}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};

    const TM: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: enrich, namespace: stream}
spec:
  image: flink:1.20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: enrich-taskmanager-1-1
  namespace: stream
  labels: {app: enrich, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers: [{name: flink-main-container, image: "flink:1.20"}]
status:
  phase: Failed
  containerStatuses:
  - {name: flink-main-container, image: "flink:1.20", imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 2, reason: Error}}}
"#;

    const METASPACE: &str = "2026-11-28 10:00:00,000 INFO  TaskExecutor [] - Received task Enrich (1/2)\n2026-11-28 10:05:00,000 ERROR TaskManagerRunner [] - Fatal error occurred while executing the TaskManager. Shutting it down...\njava.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak. In the first case 'taskmanager.memory.jvm-metaspace.size' configuration option should be increased. If the error persists (usually in cluster after several job (re-)submissions) then there is probably a class loading leak in user code or some of its dependencies which has to be investigated and fixed. The task executor has to be shutdown...\n";

    #[test]
    fn fires_on_metaspace_with_the_option_to_raise() {
        let s = with_log(
            snapshot(TM),
            "stream",
            "enrich-taskmanager-1-1",
            "flink-main-container",
            false,
            METASPACE,
        );
        let f = run(&JvmOutOfMemory, &s);
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::JvmOutOfMemory);
        assert_eq!(
            f.title,
            "TaskManager JVM ran out of Metaspace (java.lang.OutOfMemoryError)"
        );
        assert!(
            f.evidence[0].starts_with(
                "log of `flink-main-container` line 3: java.lang.OutOfMemoryError: Metaspace"
            ),
            "{:?}",
            f.evidence
        );
        assert!(
            f.fix
                .contains("\"taskmanager.memory.jvm-metaspace.size\":\"512m\""),
            "{}",
            f.fix
        );
        assert!(
            f.fix
                .contains("\"taskManager\":{\"resource\":{\"memory\":\"3072m\"}}"),
            "{}",
            f.fix
        );
        assert_eq!(
            f.links,
            vec![link::container(
                "stream",
                "enrich-taskmanager-1-1",
                "flink-main-container"
            )]
        );
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced("FlinkDeployment", "stream", "enrich"))
        );
    }

    #[test]
    fn jobmanager_heap_and_direct_memory() {
        let jm = "Caused by: java.lang.OutOfMemoryError: Java heap space. A heap space-related out-of-memory error has occurred. This can mean two things: either Flink Master requires a larger size of JVM heap space or there is a memory leak. In the first case, 'jobmanager.memory.heap.size' can be used to increase the amount of available heap memory. The Flink Master has to be shutdown...\n";
        let s = with_log(
            snapshot(TM),
            "stream",
            "enrich-taskmanager-1-1",
            "flink-main-container",
            true,
            jm,
        );
        let f = &run(&JvmOutOfMemory, &s)[0];
        assert!(
            f.title
                .starts_with("JobManager JVM ran out of Java heap space"),
            "{}",
            f.title
        );
        assert!(f.fix.contains("jobmanager.memory.heap.size"));
        assert!(f.verify.contains("--previous"));
        let direct = "java.lang.OutOfMemoryError: Direct buffer memory\n";
        let s = with_log(
            snapshot(TM),
            "stream",
            "enrich-taskmanager-1-1",
            "flink-main-container",
            false,
            direct,
        );
        let f = &run(&JvmOutOfMemory, &s)[0];
        assert!(f.fix.contains("taskmanager.memory.task.off-heap.size"));
    }

    #[test]
    fn silent_without_out_of_memory_lines() {
        assert!(run(&JvmOutOfMemory, &snapshot(HEALTHY)).is_empty());
        let s = with_log(
            snapshot(TM),
            "stream",
            "enrich-taskmanager-1-1",
            "flink-main-container",
            false,
            "INFO all good\nINFO -XX:+HeapDumpOnOutOfMemoryError set\n",
        );
        assert!(run(&JvmOutOfMemory, &s).is_empty());
    }

    #[test]
    fn the_fix_in_the_spec_before_the_rollout_is_an_info_finding() {
        // The bundle's fix applied to the FlinkDeployment; the pods are the old ones.
        let mut s = crate::rules::testing::scenario("jvm-out-of-memory");
        let tm = s.flink_deployments[0].spec.task_manager.as_mut().unwrap();
        tm.resource.as_mut().unwrap().memory = Some("3072m".into());
        let f = run(&JvmOutOfMemory, &s);
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
        let f = run(&JvmOutOfMemory, &scenario("jvm-out-of-memory"));
        assert_eq!(f.len(), 1);
        assert!(f[0].title.contains("Metaspace"));
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(&["oom-killed", "flink-fatal-exit"])
        {
            assert!(run(&JvmOutOfMemory, &scenario(name)).is_empty(), "{name}");
        }
    }
}

//! FLK107: a container was killed by its memory limit (last termination reason `OOMKilled`).
//!
//! In native mode Flink sets the main container's memory limit to its process size times
//! `kubernetes.<jobmanager|taskmanager>.memory.limit-factor` (default 1.0), and the operator sets
//! the process size from `spec.<jobManager|taskManager>.resource.memory` (overriding any
//! `*.memory.process.size` in flinkConfiguration). So by default the limit *is* the JVM's whole
//! budget: anything Flink does not account for (RocksDB beyond managed memory, glibc arenas,
//! thread stacks, a native leak) pushes the container over it. The finding compares the two
//! numbers and, under 10% headroom, says so with a fix that adds room.
//!
//! TaskManager pods have `restartPolicy: Never` and are deleted by the JobManager after they die,
//! so a TaskManager OOM kill often survives only as the JobManager's line
//! `Worker <pod> is terminated. Diagnostics: Pod terminated, container termination statuses:
//! [flink-main-container(exitCode=137, reason=OOMKilled, ...)]`; that line is read too.
//!
//! The quantity parsers here (Kubernetes quantities and Flink memory sizes) are shared with
//! FLK108 (resource_quota_exceeded).

use super::support::containers::{
    component_title, one_line, pod_verify, state_line, termination_line,
};
use super::support::java_opts::{self, OptsEdit};
use super::support::pod_status::{containers, ContainerView};
use super::support::rollout;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Component;
use crate::flink::names::{LABEL_APP, MAIN_CONTAINER};
use crate::snapshot::flink::{FlinkCluster, FlinkDeployment};
use crate::snapshot::index::{flinkcluster_label, label, pod_component, pod_name, pod_namespace};
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};
use regex::Regex;
use std::sync::OnceLock;

pub struct OomKilled;

static META: RuleMeta = RuleMeta {
    id: "FLK107",
    name: "oom_killed",
    summary: "a container was OOMKilled, with the headroom over Flink's process memory",
    category: Category::OomKilled,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"raise the container's memory (spec.jobManager or spec.taskManager resource.memory) and give more of it to JVM overhead (`taskmanager.memory.jvm-overhead.fraction`): what overshoots is native memory outside Flink's budget (RocksDB, user code)"#,
    verify: r#"kubectl get pods -l component=taskmanager -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount,LAST:.status.containerStatuses[0].lastState.terminated.reason   # expect no new OOMKilled"#,
};

use crate::flink::units::{
    parse_flink_memory, parse_quantity, parse_resource_memory, MIB, MIN_HEADROOM,
};

impl Rule for OomKilled {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_each(&self, snapshot: &Snapshot, index: &Index, each: &mut dyn FnMut(Finding)) {
        for pod in &snapshot.pods {
            for c in containers(pod) {
                let Some(t) = c.last_termination() else {
                    continue;
                };
                if t.reason.as_deref() != Some("OOMKilled") {
                    continue;
                }
                let mut f = base(index, pod, &c)
                    .evidence(termination_line(&c, t))
                    .evidence(state_line(&c));
                if c.status.ready && c.waiting_reason().is_none() {
                    f = f.severity(Severity::Warning);
                }
                if let Some(fc) = flinkcluster_of(index, pod) {
                    let f = flinkcluster::with_memory(f, index, pod, &c, fc);
                    let predates = pod_component(pod)
                        .is_some_and(|x| x.as_str() == c.name())
                        .then(|| rollout::flinkcluster_memory(fc, pod, c.name()))
                        .flatten();
                    each(match predates {
                        Some(p) => rollout::awaiting_flinkcluster(f, fc, pod, &p),
                        None => f,
                    });
                    continue;
                }
                let f = with_memory(f, snapshot, index, Some(pod), pod_component(pod), Some(&c));
                // The spec already gives more memory: the pod was made before, not the fix again.
                let fd = label(pod, LABEL_APP)
                    .and_then(|app| index.flink_deployment(pod_namespace(pod), app));
                each(
                    match fd.filter(|_| c.name() == MAIN_CONTAINER).and_then(|fd| {
                        rollout::memory(fd, pod, rollout::Toward::More).map(|p| (fd, p))
                    }) {
                        Some((fd, p)) => rollout::awaiting_rollout(f, fd, pod, &p),
                        None => f,
                    },
                );
            }
        }
        from_jobmanager_logs(snapshot, index)
            .into_iter()
            .for_each(&mut *each);
    }
}

/// The GCP/Spotify FlinkCluster a pod belongs to (`app=flink`, `cluster=<name>`), when it is in
/// the snapshot.
fn flinkcluster_of<'a>(index: &Index<'a>, pod: &Pod) -> Option<&'a FlinkCluster> {
    flinkcluster_label(&pod.metadata).and_then(|name| index.flink_cluster(pod_namespace(pod), name))
}

fn base(index: &Index, pod: &Pod, c: &ContainerView) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!(
            "{} was killed by its memory limit (OOMKilled, exit code 137)",
            component_title(pod, c)
        ),
    )
    .deployment(index.deployment_of_pod(pod))
    .link(link::container(ns, name, c.name()))
    .verify(pod_verify(pod, c.name()))
}

/// TaskManagers whose OOM kill only the JobManager's log remembers (their pods are gone).
fn from_jobmanager_logs(snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
    static WORKER: OnceLock<Regex> = OnceLock::new();
    let re = WORKER.get_or_init(|| {
        Regex::new(
            r"Worker (?P<pod>[a-z0-9][a-z0-9.-]*) is terminated\. Diagnostics: Pod terminated, container termination statuses: \[(?P<statuses>.*?)\]",
        )
        .expect("worker diagnostics regex")
    });
    let mut out: Vec<Finding> = Vec::new();
    for (key, text) in &snapshot.logs {
        for (i, line) in text.lines().enumerate() {
            let Some(caps) = re.captures(line) else {
                continue;
            };
            let statuses = &caps["statuses"];
            if !statuses.contains("reason=OOMKilled") {
                continue;
            }
            let tm = &caps["pod"];
            let ns = key.namespace.as_str();
            // The pod is still there with its status: the pod-level finding covers it.
            if snapshot
                .pods
                .iter()
                .any(|p| pod_namespace(p) == ns && pod_name(p) == tm)
            {
                continue;
            }
            if out
                .iter()
                .any(|f| f.object.name == tm && f.object.namespace.as_deref() == Some(ns))
            {
                continue;
            }
            let container = statuses
                .split('(')
                .next()
                .unwrap_or(MAIN_CONTAINER)
                .trim()
                .to_string();
            let jm_pod = snapshot
                .pods
                .iter()
                .find(|p| pod_namespace(p) == ns && pod_name(p) == key.pod);
            let deployment = jm_pod.and_then(|p| index.deployment_of_pod(p));
            let which = if key.previous { "previous log" } else { "log" };
            let f = Finding::new(
                &META,
                ObjectRef::namespaced("Pod", ns, tm),
                format!("TaskManager container `{container}` was killed by its memory limit (OOMKilled, exit code 137)"),
            )
            .deployment(deployment)
            .evidence(format!(
                "JobManager {} {which} of `{}` line {}: {}",
                key.pod,
                key.container,
                i + 1,
                one_line(line)
            ))
            .evidence(format!("pod {tm} no longer exists: the JobManager deleted it after it died and asked for a new one"))
            .link(link::container(ns, tm, &container))
            .verify(format!(
                "kubectl logs {} -n {ns} -c {} | grep -c 'reason=OOMKilled'   # expect the count to stop growing",
                // Read from a log line: free text, each one shell word.
                crate::shell::sh(&key.pod),
                crate::shell::sh(&key.container)
            ));
            let fd = jm_pod
                .and_then(|p| label(p, LABEL_APP))
                .and_then(|app| index.flink_deployment(ns, app));
            out.push(with_memory_fd(
                f,
                snapshot,
                ns,
                fd,
                Some(Component::TaskManager),
                None,
                None,
                MAIN_CONTAINER,
            ));
        }
    }
    out
}

fn with_memory(
    f: Finding,
    snapshot: &Snapshot,
    index: &Index,
    pod: Option<&Pod>,
    component: Option<Component>,
    c: Option<&ContainerView>,
) -> Finding {
    let ns = pod.map(pod_namespace).unwrap_or("default");
    let fd = pod
        .and_then(|p| label(p, LABEL_APP))
        .and_then(|app| index.flink_deployment(ns, app));
    let app = pod.and_then(|p| label(p, LABEL_APP));
    let limit = c.and_then(|c| {
        let q = c.spec?.memory_limit()?;
        Some((q.0.clone(), parse_quantity(&q.0)?))
    });
    let name = c.map(|c| c.name()).unwrap_or(MAIN_CONTAINER);
    let f = with_memory_fd(f, snapshot, ns, fd, component, limit, app, name);
    match c {
        Some(c) if c.name() != MAIN_CONTAINER => f.evidence(format!(
            "`{}` is not Flink's main container: its limit comes from the pod template, not from Flink's memory settings",
            c.name()
        )),
        _ => f,
    }
}

/// Flink's process memory for a component, and where it was read.
struct ProcessMemory {
    bytes: f64,
    source: String,
}

/// Adds the limit/process-memory comparison and the fix.
#[allow(clippy::too_many_arguments)] // the finding, where it runs and what was read of its memory
fn with_memory_fd(
    mut f: Finding,
    snapshot: &Snapshot,
    ns: &str,
    fd: Option<&FlinkDeployment>,
    component: Option<Component>,
    limit: Option<(String, f64)>,
    app: Option<&str>,
    // The container whose limit `limit` is (Flink's main container unless a sidecar was killed).
    container: &str,
) -> Finding {
    let tm = component != Some(Component::JobManager);
    let c = if tm {
        Component::TaskManager
    } else {
        Component::JobManager
    };
    let (spec_key, conf_prefix) = (c.spec_key(), c.as_str());
    let process = process_memory(
        snapshot,
        ns,
        fd,
        spec_key,
        conf_prefix,
        app.or(fd.map(|d| d.name())),
    );
    let factor_key = format!("kubernetes.{conf_prefix}.memory.limit-factor");
    let factor = fd
        .and_then(|d| d.spec.flink_configuration.get(&factor_key))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(1.0);
    let limit_bytes = match (&limit, &process) {
        (Some((raw, b)), _) => {
            f = f.evidence(format!(
                "spec.containers[{container}].resources.limits.memory: {raw} ({})",
                mib(*b)
            ));
            Some(*b)
        }
        (None, Some(p)) if fd.is_some() => {
            // The pod is gone or its spec was not read: Flink set the limit from the process size.
            let b = p.bytes * factor;
            f = f.evidence(format!(
                "memory limit Flink sets: process memory x {factor_key} {factor} = {}",
                mib(b)
            ));
            Some(b)
        }
        _ => {
            f = f.evidence("the container has no memory limit: the kernel killed it under node memory pressure".to_string());
            None
        }
    };
    if let Some(p) = &process {
        f = f.evidence(format!(
            "Flink's process memory: {} ({})",
            mib(p.bytes),
            p.source
        ));
    }
    if let Some(d) = fd {
        for (path, t) in d.pod_templates() {
            let explicit = t
                .spec
                .as_ref()
                .and_then(|s| s.containers.iter().find(|c| c.name == MAIN_CONTAINER))
                .and_then(|c| {
                    c.resources
                        .as_ref()?
                        .limits
                        .as_ref()?
                        .get("memory")
                        .cloned()
                });
            if let Some(q) = explicit {
                if path == "spec.podTemplate" || path.contains(spec_key) {
                    f = f.evidence(format!(
                        "{path} sets limits.memory {} on {MAIN_CONTAINER}; Flink replaces the main container's resources with process memory x limit-factor",
                        q.0
                    ));
                }
            }
        }
    }
    if let Some(d) = fd {
        let heap = heap_flags(d, conf_prefix);
        if !heap.is_empty() {
            for o in &heap {
                f = f.evidence(format!(
                    "flinkConfiguration {}: {} sets the JVM's heap itself; Flink's own -Xmx/-Xms come before env.java.opts on the command line, and the JVM takes the last",
                    o.key,
                    o.removed.join(" ")
                ));
            }
            return f.fix(fix_heap_flags(&heap, ns, d.name(), spec_key));
        }
    }
    let Some(name) = fd.map(|d| d.name()) else {
        return f.fix(fix_plain(ns, conf_prefix, limit_bytes, process.as_ref()));
    };
    match (limit_bytes, process) {
        (Some(limit), Some(p)) => {
            let headroom = limit - p.bytes;
            let share = headroom / limit;
            f = f.evidence(format!(
                "headroom over Flink's process memory: {} ({:.1}% of the limit){}",
                mib(headroom),
                share * 100.0,
                if share < MIN_HEADROOM { ", under 10%" } else { "" }
            ));
            let fix = if share < MIN_HEADROOM {
                fix_headroom(ns, name, spec_key, conf_prefix, limit, p.bytes)
            } else {
                format!(
                    "The container had {} over Flink's budget and still ran out: something outside Flink's memory \
                     model grows (RocksDB beyond managed memory, a native leak in a connector, many threads). Check \
                     `state.backend.rocksdb.memory.managed` is true, then give more room:\n\n{}",
                    mib(headroom),
                    fix_headroom(ns, name, spec_key, conf_prefix, limit, p.bytes)
                )
            };
            f.fix(fix)
        }
        _ => f.fix(format!(
            "Give the {spec_key} more memory (Flink memory syntax, e.g. 4096m), or more headroom over it:\n\n  \
             kubectl patch flinkdeployment {name} -n {ns} --type=merge \\\n    \
             -p '{{\"spec\":{{\"{spec_key}\":{{\"resource\":{{\"memory\":\"4096m\"}}}},\"flinkConfiguration\":{{\"{factor_key}\":\"1.25\"}}}}}}'"
        )),
    }
}

/// Where Flink's process memory comes from, first that is set: the operator's resource spec,
/// then flinkConfiguration, then the `flink-config-<name>` ConfigMap Flink mounts.
fn process_memory(
    snapshot: &Snapshot,
    ns: &str,
    fd: Option<&FlinkDeployment>,
    spec_key: &str,
    conf_prefix: &str,
    cluster_id: Option<&str>,
) -> Option<ProcessMemory> {
    let key = format!("{conf_prefix}.memory.process.size");
    if let Some(d) = fd {
        let comp = if spec_key == "taskManager" {
            &d.spec.task_manager
        } else {
            &d.spec.job_manager
        };
        if let Some(m) = comp
            .as_ref()
            .and_then(|c| c.resource.as_ref())
            .and_then(|r| r.memory.as_deref())
        {
            if let Some(b) = parse_resource_memory(m) {
                return Some(ProcessMemory {
                    bytes: b,
                    source: format!(
                        "spec.{spec_key}.resource.memory: {m}; the operator sets {key} from it"
                    ),
                });
            }
        }
        if let Some(v) = d.spec.flink_configuration.get(&key) {
            if let Some(b) = parse_flink_memory(v) {
                return Some(ProcessMemory {
                    bytes: b,
                    source: format!("spec.flinkConfiguration.{key}: {v}"),
                });
            }
        }
    }
    let cm_name = format!("flink-config-{}", cluster_id?);
    let cm = snapshot.config_maps.iter().find(|c| {
        c.metadata.namespace.as_deref() == Some(ns) && c.metadata.name.as_deref() == Some(&cm_name)
    })?;
    for (file, text) in cm.data.iter().flatten() {
        if let Some(v) = flat_conf_value(text, &key) {
            if let Some(b) = parse_flink_memory(&v) {
                return Some(ProcessMemory {
                    bytes: b,
                    source: format!("ConfigMap {cm_name} {file}: {key}: {v}"),
                });
            }
        }
    }
    None
}

/// `key: value` from a flink-conf.yaml, or the same key nested in Flink 2's config.yaml.
fn flat_conf_value(text: &str, key: &str) -> Option<String> {
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix(key) {
            if let Some(v) = rest.trim_start().strip_prefix(':') {
                return Some(v.trim().trim_matches('"').trim_matches('\'').to_string());
            }
        }
    }
    let doc: serde_json::Value = serde_yaml::from_str(text).ok()?;
    let mut cur = &doc;
    for part in key.split('.') {
        cur = cur.get(part)?;
    }
    match cur {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The heap flags a user put in `env.java.opts*` (see `support::java_opts`): they come after the
/// heap Flink sized from `resource.memory` on the command line and win, so a heap larger than the
/// container's limit is killed whatever headroom the limit-factor adds.
const HEAP_FLAGS: &[&str] = &[
    "-Xmx",
    "-Xms",
    "-XX:MaxHeapSize=",
    "-XX:InitialHeapSize=",
    "-XX:MaxRAMPercentage=",
    "-XX:InitialRAMPercentage=",
    "-XX:MaxRAMFraction=",
    "-XX:MaxRAM=",
];

fn heap_flags(d: &FlinkDeployment, conf_prefix: &str) -> Vec<OptsEdit> {
    java_opts::find(&d.spec.flink_configuration, conf_prefix, |t| {
        HEAP_FLAGS.iter().any(|h| t.starts_with(h))
    })
}

/// One merge patch that removes the heap flags from every key holding them.
fn fix_heap_flags(heap: &[OptsEdit], ns: &str, name: &str, spec_key: &str) -> String {
    format!(
        "Remove the heap flags ({}) from flinkConfiguration: Flink sizes the heap from \
         spec.{spec_key}.resource.memory and keeps it inside the container's limit; give that \
         more memory if the job needs a larger heap.\n\n  \
         kubectl patch flinkdeployment {} -n {} --type=merge -p {}",
        java_opts::describe(heap),
        crate::shell::sh(name),
        crate::shell::sh(ns),
        crate::shell::sh(&java_opts::merge_patch(heap))
    )
}

fn fix_headroom(
    ns: &str,
    name: &str,
    spec_key: &str,
    conf_prefix: &str,
    limit: f64,
    process: f64,
) -> String {
    let factor_key = format!("kubernetes.{conf_prefix}.memory.limit-factor");
    let raised = (process * 1.25 / MIB).floor();
    let same_limit_process = (limit / 1.25 / MIB).floor();
    format!(
        "Leave room between the container limit and Flink's process memory (at least 10%; 25% is a safe start).\n\
         \n\
         Either raise the limit to {raised} MiB, keeping Flink's process memory at {} (requests stay the same):\n\
         \n  \
         kubectl patch flinkdeployment {name} -n {ns} --type=merge \\\n    \
         -p '{{\"spec\":{{\"flinkConfiguration\":{{\"{factor_key}\":\"1.25\"}}}}}}'\n\
         \n\
         or keep the limit at {} and lower Flink's process memory to {same_limit_process} MiB:\n\
         \n\
         spec:\n  \
         {spec_key}:\n    \
         resource:\n      \
         memory: \"{same_limit_process}m\"\n  \
         flinkConfiguration:\n    \
         {factor_key}: \"1.25\"",
        mib(process),
        mib(limit)
    )
}

fn fix_plain(
    ns: &str,
    conf_prefix: &str,
    limit: Option<f64>,
    process: Option<&ProcessMemory>,
) -> String {
    match (limit, process) {
        (Some(limit), Some(p)) => format!(
            "Leave at least 10% of the container limit ({}) outside Flink's process memory ({}): lower \
             {conf_prefix}.memory.process.size in the Flink configuration (namespace {ns}) to {} MiB:\n\n  \
             {conf_prefix}.memory.process.size: {}m\n\nor raise the container's resources.limits.memory to {} MiB.",
            mib(limit),
            mib(p.bytes),
            (limit * 0.8 / MIB).floor(),
            (limit * 0.8 / MIB).floor(),
            (p.bytes * 1.25 / MIB).ceil()
        ),
        _ => format!(
            "Give the container a memory limit at least 25% above {conf_prefix}.memory.process.size, or lower \
             the process size so that it fits the limit with room to spare (namespace {ns})."
        ),
    }
}

fn mib(bytes: f64) -> String {
    let m = bytes / MIB;
    if (m - m.round()).abs() < 0.05 {
        format!("{:.0} MiB", m.round())
    } else {
        format!("{m:.1} MiB")
    }
}

/// FLK107 for the GCP/Spotify operator's FlinkCluster: its JobManager and TaskManager containers
/// (named after their component) get a memory limit from `spec.<component>.resources`, and the
/// operator gives Flink a share of it (`support::flinkcluster_memory`); the rest is the headroom.
mod flinkcluster {
    use super::{mib, ContainerView, Finding, FlinkCluster, Index, Pod, MIN_HEADROOM};
    use crate::flink::mode::{Component, Mode};
    use crate::flink::names::{flinkcluster_config_map, FLINKCLUSTER_SUBMITTER_CONTAINER};
    use crate::flink::units::{parse_quantity, MIB};
    use crate::rules::support::flinkcluster_memory::{self as fm, Model};
    use crate::snapshot::index::{pod_component, pod_namespace};

    pub(super) fn with_memory(
        mut f: Finding,
        index: &Index,
        pod: &Pod,
        c: &ContainerView,
        fc: &FlinkCluster,
    ) -> Finding {
        let ns = pod_namespace(pod);
        let name = fc.name();
        let of_pod = pod_component(pod);
        let flink_container = of_pod.is_some_and(|x| x.as_str() == c.name());
        let component = of_pod.unwrap_or(Component::TaskManager);
        let key = component.spec_key();
        if !flink_container {
            if let Some(q) = c.spec.and_then(|s| s.memory_limit()) {
                f = f.evidence(format!(
                    "spec.containers[{}].resources.limits.memory: {}",
                    c.name(),
                    q.0
                ));
            }
            // The job submitter's `main` runs `flink run` with spec.job.resources
            // (flinkcluster_converter.go@v0.6.0 newJobSubmitterPodSpec).
            if of_pod.is_none() && c.name() == FLINKCLUSTER_SUBMITTER_CONTAINER && !c.init {
                return f
                    .evidence(format!(
                        "`{}` is the job submitter: its limit is spec.job.resources, not one the operator derives Flink's memory from",
                        c.name()
                    ))
                    .fix(format!(
                        "The job submitter (`flink run` building the job graph) needs more memory: raise spec.job.resources.limits.memory of FlinkCluster {name}:\n\n  kubectl edit flinkcluster {name} -n {ns}"
                    ));
            }
            return f
                .evidence(format!(
                    "`{}` is not Flink's container: its limit is its own (the FlinkCluster's sidecars or init containers), not one the operator derives Flink's memory from",
                    c.name()
                ))
                .fix(format!(
                    "Give `{}` a larger memory limit where the FlinkCluster {name} declares it (spec.{key}.sidecars or spec.{key}.initContainers):\n\n  kubectl edit flinkcluster {name} -n {ns}",
                    c.name()
                ));
        }
        let from_pod = c.spec.and_then(|s| {
            let q = s.memory_limit()?;
            Some((q.0.clone(), parse_quantity(&q.0)?))
        });
        let limit = match (
            &from_pod,
            fm::component_spec(fc, component).and_then(fm::spec_limit),
        ) {
            (Some((raw, b)), _) => {
                f = f.evidence(format!(
                    "spec.containers[{}].resources.limits.memory: {raw} ({})",
                    c.name(),
                    mib(*b)
                ));
                Some(*b)
            }
            (None, Some((raw, b))) => {
                f = f.evidence(format!(
                    "the container has no memory limit: the kernel killed it under node memory pressure; the operator derives Flink's memory from spec.{key}.resources {raw} ({})",
                    mib(b)
                ));
                None
            }
            (None, None) => {
                f = f.evidence(
                    "the container has no memory limit: the kernel killed it under node memory pressure".to_string(),
                );
                None
            }
        };
        let verify = format!(
            "kubectl get pods -n {ns} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.spec.containers[?(@.name==\"{component}\")].resources.limits.memory}} {{.status.containerStatuses[?(@.name==\"{component}\")].lastState.terminated.reason}}{{\"\\n\"}}{{end}}'",
            crate::shell::sh(&Mode::FlinkCluster.selector(Some(name), Some(component)))
        );
        let Some(limit) = limit else {
            return f
                .fix(format!(
                    "Give the {component} a memory limit, so that the scheduler reserves it and the operator sizes Flink inside it (it uses memoryProcessRatio {}% of it by default):\n\n  \
                     kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"{key}\":{{\"resources\":{{\"limits\":{{\"memory\":\"2Gi\"}}}}}}}}}}'",
                    fm::DEFAULT_PROCESS_RATIO
                ))
                .verify(format!("{verify}   # expect a limit and no OOMKilled"));
        };
        // The flink-conf.yaml the operator wrote into `<name>-configmap`.
        let deployed = index
            .flink_config_map(ns, &flinkcluster_config_map(name))
            .map(|(_, text)| text);
        let m = fm::derive(fc, component, limit, deployed);
        let what = match m.model {
            Model::Heap => "Flink's heap",
            _ => "Flink's process memory",
        };
        f = f.evidence(format!(
            "{what}: {} ({}: {})",
            mib(m.bytes),
            m.key,
            m.derivation
        ));
        let headroom = limit - m.bytes;
        let share = headroom / limit;
        let small = share < MIN_HEADROOM;
        f = f.evidence(format!(
            "headroom over {what}: {} ({:.1}% of the limit){}",
            mib(headroom),
            share * 100.0,
            if small { ", under 10%" } else { "" }
        ));
        let Some(plan) = fm::more_room(&m) else {
            return f
                .fix(format!(
                    "Leave more of the limit outside {what}: raise spec.{key}.resources.limits.memory of FlinkCluster {name} (kubectl edit flinkcluster {name} -n {ns})."
                ))
                .verify(format!("{verify}   # expect no OOMKilled"));
        };
        let why = if small {
            format!("Only {} of the {} limit is left outside {what}: too little for the JVM's own memory (metaspace, threads, GC) and native allocations.", mib(headroom), mib(limit))
        } else {
            format!(
                "The container had {} over {what} and still ran out: something outside Flink's memory model grows \
                 (RocksDB beyond managed memory: check state.backend.rocksdb.memory.managed is true; a native leak in a connector; many threads).",
                mib(headroom)
            )
        };
        let patch = |spec: String| {
            format!(
                "kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{spec}}}'"
            )
        };
        let value = plan.value.to_string();
        let (fix, expect) = match (m.model, plan.limit_mib) {
            (Model::Process | Model::Heap, Some(l)) => {
                let field = &plan.field;
                let (how, change) = if m.model == Model::Process {
                    (
                        format!("the operator gives Flink limits.memory x memoryProcessRatio ({} x {}%)", mib(limit), m.ratio),
                        format!("lower spec.{key}.memoryProcessRatio to {value}"),
                    )
                } else {
                    (
                        format!(
                            "the operator gives Flink's heap what is left of limits.memory ({}) after the larger of memoryOffHeapRatio ({}%) and memoryOffHeapMin ({:.0}M)",
                            mib(limit),
                            m.ratio,
                            m.off_heap_min / 1e6
                        ),
                        format!("raise spec.{key}.memoryOffHeapMin to {}", value.trim_matches('"')),
                    )
                };
                let new_limit = l as f64 * MIB;
                let fix = format!(
                    "{why} In a FlinkCluster {how}.\n\n\
                     Leave more room: {change} and raise the limit to {l}Mi, so that {what} stays at {} and the room outside it grows to {}:\n\n  \
                     {}\n\n\
                     or keep the limit at {} and change only {field} ({what} becomes {}):\n\n  \
                     {}\n\n\
                     The operator rolls the {component} StatefulSet with the new settings (taking a savepoint first when spec.job.takeSavepointOnUpdate is set).",
                    mib(m.bytes),
                    mib(new_limit - m.bytes),
                    patch(format!("{{\"{key}\":{{\"{field}\":{value},\"resources\":{{\"limits\":{{\"memory\":\"{l}Mi\"}}}}}}}}")),
                    mib(limit),
                    mib(plan.same_limit_bytes),
                    patch(format!("{{\"{key}\":{{\"{field}\":{value}}}}}")),
                );
                (fix, format!("{l}Mi and no OOMKilled"))
            }
            _ => {
                let fix = format!(
                    "{why} spec.flinkProperties.{} sets {what} to {} of the {} limit. Lower it to {} (a quarter of the limit left outside Flink):\n\n  \
                     {}\n\n\
                     or remove it, so that the operator derives it from the limit (memoryProcessRatio, {}% by default).",
                    m.key,
                    mib(m.bytes),
                    mib(limit),
                    value.trim_matches('"'),
                    patch(format!("{{\"flinkProperties\":{{\"{}\":{value}}}}}", m.key)),
                    fm::DEFAULT_PROCESS_RATIO
                );
                (fix, "no OOMKilled".to_string())
            }
        };
        f.fix(fix).verify(format!("{verify}   # expect {expect}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{assert_awaiting_rollout, run, snapshot, with_log, HEALTHY};

    const TM_OOM: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: clicks, namespace: stream}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/usrlib/clicks.jar, parallelism: 2, upgradeMode: stateless}
status: {jobManagerDeploymentStatus: READY, lifecycleState: STABLE, jobStatus: {state: RESTARTING}}
---
apiVersion: v1
kind: Pod
metadata:
  name: clicks-taskmanager-1-1
  namespace: stream
  labels: {app: clicks, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers:
  - name: flink-main-container
    image: flink:1.20
    resources: {limits: {memory: 2Gi, cpu: "1"}, requests: {memory: 2Gi, cpu: "1"}}
status:
  phase: Failed
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 0
    state: {terminated: {exitCode: 137, reason: OOMKilled, finishedAt: "2026-11-28T10:02:00Z"}}
"#;

    #[test]
    fn heap_flags_in_env_java_opts_are_the_cause_the_fix_removes() {
        // The lab's oom-killed scenario: the user's heap flags follow Flink's on the command line
        // and win, so more headroom over the process size cannot heal it.
        let with_opts = TM_OOM.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {env.java.opts.taskmanager: \"-Xms1536m -Xmx1536m -XX:+AlwaysPreTouch\"}\n",
        );
        let f = run(&OomKilled, &snapshot(&with_opts));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert!(
            f.evidence.iter().any(|e| e.contains(
                "flinkConfiguration env.java.opts.taskmanager: -Xms1536m -Xmx1536m sets the JVM's heap itself"
            )),
            "{:?}",
            f.evidence
        );
        assert!(
            f.fix.contains(
                "Remove the heap flags (-Xms1536m -Xmx1536m from `env.java.opts.taskmanager`)"
            ),
            "{}",
            f.fix
        );
        assert!(
            f.fix.contains(
                r#"-p '{"spec":{"flinkConfiguration":{"env.java.opts.taskmanager":"-XX:+AlwaysPreTouch"}}}'"#
            ),
            "{}",
            f.fix
        );
        assert!(!f.fix.contains("limit-factor"), "{}", f.fix);
        // Only heap flags: the key is removed. A JobManager's key does not count for a TaskManager.
        let only_heap = TM_OOM.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {env.java.opts.all: \"-Xmx4g\", env.java.opts.jobmanager: \"-Xmx8g\"}\n",
        );
        let f = &run(&OomKilled, &snapshot(&only_heap))[0];
        assert!(f.fix.contains(r#"{"env.java.opts.all":null}"#), "{}", f.fix);
        assert!(!f.fix.contains("-Xmx8g"), "{}", f.fix);
        // Both keys of a TaskManager: removing the component's flags alone leaves env.java.opts.all's.
        let both = TM_OOM.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {env.java.opts.all: \"-Xmx4g -Dx=1\", env.java.opts.taskmanager: \"-Xmx2g\"}\n",
        );
        let f = &run(&OomKilled, &snapshot(&both))[0];
        assert!(
            f.fix
                .contains(r#"{"env.java.opts.all":"-Dx=1","env.java.opts.taskmanager":null}"#),
            "{}",
            f.fix
        );
    }

    #[test]
    fn fires_with_the_numbers_and_no_headroom() {
        let f = run(&OomKilled, &snapshot(TM_OOM));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::OomKilled);
        assert!(f.title.contains(
            "TaskManager container `flink-main-container` was killed by its memory limit"
        ));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("state.terminated: exitCode=137 reason=OOMKilled")));
        assert!(
            f.evidence.iter().any(|e| e
                == "spec.containers[flink-main-container].resources.limits.memory: 2Gi (2048 MiB)"),
            "{:?}",
            f.evidence
        );
        assert!(f.evidence.iter().any(|e| e.starts_with(
            "Flink's process memory: 2048 MiB (spec.taskManager.resource.memory: 2048m;"
        )));
        assert!(
            f.evidence.iter().any(|e| e.contains(
                "headroom over Flink's process memory: 0 MiB (0.0% of the limit), under 10%"
            )),
            "{:?}",
            f.evidence
        );
        assert!(
            f.fix
                .contains("kubernetes.taskmanager.memory.limit-factor\":\"1.25\""),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("raise the limit to 2560 MiB"), "{}", f.fix);
        assert!(f.fix.contains("memory: \"1638m\""), "{}", f.fix);
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced("FlinkDeployment", "stream", "clicks"))
        );
    }

    #[test]
    fn enough_headroom_is_not_called_too_small() {
        let y = TM_OOM.replace("limits: {memory: 2Gi", "limits: {memory: 3Gi");
        let f = &run(&OomKilled, &snapshot(&y))[0];
        assert!(
            f.evidence.iter().any(|e| e
                .contains("headroom over Flink's process memory: 1024 MiB (33.3% of the limit)")
                && !e.contains("under 10%")),
            "{:?}",
            f.evidence
        );
        assert!(f.fix.contains("still ran out"));
    }

    #[test]
    fn silent_on_healthy_and_on_other_kills() {
        assert!(run(&OomKilled, &snapshot(HEALTHY)).is_empty());
        let sigkill = TM_OOM.replace("reason: OOMKilled", "reason: Error");
        assert!(run(&OomKilled, &snapshot(&sigkill)).is_empty());
    }

    #[test]
    fn reads_oom_kills_of_deleted_taskmanagers_from_the_jobmanager_log() {
        let y = TM_OOM.split("---").next().unwrap().to_string()
            + r#"---
apiVersion: v1
kind: Pod
metadata:
  name: clicks-7f9c-abcde
  namespace: stream
  labels: {app: clicks, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers: [{name: flink-main-container, image: "flink:1.20"}]
status:
  phase: Running
  containerStatuses:
  - {name: flink-main-container, image: "flink:1.20", imageID: "", ready: true, restartCount: 0, state: {running: {}}}
"#;
        let log = "INFO x\nINFO ActiveResourceManager [] - Worker clicks-taskmanager-1-3 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)\n";
        let s = with_log(
            snapshot(&y),
            "stream",
            "clicks-7f9c-abcde",
            "flink-main-container",
            false,
            log,
        );
        let f = run(&OomKilled, &s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].object.name, "clicks-taskmanager-1-3");
        assert!(
            f[0].evidence[0].contains("line 2: INFO ActiveResourceManager"),
            "{:?}",
            f[0].evidence
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("x kubernetes.taskmanager.memory.limit-factor 1 = 2048 MiB")),
            "{:?}",
            f[0].evidence
        );
        assert!(f[0].evidence.iter().any(|e| e.contains("under 10%")));
    }

    #[test]
    fn process_size_from_the_flink_config_map_when_there_is_no_flink_deployment() {
        let y = r#"
apiVersion: v1
kind: ConfigMap
metadata: {name: flink-config-plain, namespace: stream}
data:
  flink-conf.yaml: |
    taskmanager.memory.process.size: 1728m
    taskmanager.numberOfTaskSlots: 2
---
apiVersion: v1
kind: Pod
metadata:
  name: plain-taskmanager-1-1
  namespace: stream
  labels: {app: plain, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers:
  - {name: flink-main-container, image: "flink:1.20", resources: {limits: {memory: 1728Mi}}}
status:
  phase: Failed
  containerStatuses:
  - {name: flink-main-container, image: "flink:1.20", imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 137, reason: OOMKilled}}}
"#;
        let f = &run(&OomKilled, &snapshot(y))[0];
        assert!(f.evidence.iter().any(|e| e == "Flink's process memory: 1728 MiB (ConfigMap flink-config-plain flink-conf.yaml: taskmanager.memory.process.size: 1728m)"), "{:?}", f.evidence);
        assert!(
            f.fix.contains("taskmanager.memory.process.size: 1382m"),
            "{}",
            f.fix
        );
        assert_eq!(
            flat_conf_value(
                "taskmanager:\n  memory:\n    process:\n      size: 2g\n",
                "taskmanager.memory.process.size"
            ),
            Some("2g".into())
        );
    }

    #[test]
    fn the_fix_in_the_spec_before_the_rollout_is_an_info_finding() {
        // The bundle's fix applied to the FlinkDeployment; the pods are the old ones.
        let mut s = crate::rules::testing::scenario("oom-killed");
        s.flink_deployments[0].spec.flink_configuration.insert(
            "kubernetes.taskmanager.memory.limit-factor".into(),
            "1.25".into(),
        );
        let f = run(&OomKilled, &s);
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

    /// A FlinkCluster (GCP/Spotify operator) whose TaskManager was OOMKilled: Flink 1.14, 1Gi
    /// limit, no memoryProcessRatio in the spec (the operator's default 80 applies).
    const FC_OOM: &str = r#"
apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata: {name: events, namespace: stream}
spec:
  flinkVersion: '1.14'
  image: {name: 'flink:1.14.2'}
  taskManager: {replicas: 2, resources: {limits: {memory: 1Gi, cpu: 500m}, requests: {memory: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: events-taskmanager-0
  namespace: stream
  labels: {app: flink, cluster: events, component: taskmanager}
spec:
  containers:
  - {name: taskmanager, image: 'flink:1.14.2', resources: {limits: {memory: 1Gi}}}
  - {name: fluentd, image: 'fluentd:v1.16', resources: {limits: {memory: 64Mi}}}
status:
  phase: Running
  containerStatuses:
  - {name: taskmanager, image: 'flink:1.14.2', imageID: '', ready: false, restartCount: 2, state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {exitCode: 137, reason: OOMKilled}}}
  - {name: fluentd, image: 'fluentd:v1.16', imageID: '', ready: true, restartCount: 0, state: {running: {}}}
"#;

    #[test]
    fn a_flinkcluster_s_headroom_comes_from_the_operator_s_memory_process_ratio() {
        let f = run(&OomKilled, &snapshot(FC_OOM));
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced("FlinkCluster", "stream", "events"))
        );
        for e in [
            "spec.containers[taskmanager].resources.limits.memory: 1Gi (1024 MiB)",
            "Flink's process memory: 820 MiB (taskmanager.memory.process.size: the operator sets it to limit 1024 MiB x spec.taskManager.memoryProcessRatio 80% (the operator's default; the spec sets none) = 820 MiB)",
            "headroom over Flink's process memory: 204 MiB (19.9% of the limit)",
        ] {
            assert!(f.evidence.iter().any(|x| x == e), "{e}\n{:#?}", f.evidence);
        }
        assert!(
            f.fix.contains(r#"kubectl patch flinkcluster events -n stream --type=merge -p '{"spec":{"taskManager":{"memoryProcessRatio":70,"resources":{"limits":{"memory":"1172Mi"}}}}}'"#),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("still ran out"), "{}", f.fix);
        assert!(
            f.fix
                .contains(r#"-p '{"spec":{"taskManager":{"memoryProcessRatio":70}}}'"#),
            "{}",
            f.fix
        );
        // Only the first command is applied by --fix=run: limit and ratio together.
        let remedy = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(remedy.run.len(), 1, "{remedy:?}");
        assert!(
            f.verify
                .contains("-l app=flink,cluster=events,component=taskmanager")
                && f.verify.ends_with("# expect 1172Mi and no OOMKilled"),
            "{}",
            f.verify
        );
    }

    #[test]
    fn a_ratio_that_leaves_under_ten_percent_is_called_so_and_the_deployed_conf_wins() {
        let y = FC_OOM.replace(
            "taskManager: {replicas: 2,",
            "taskManager: {memoryProcessRatio: 95, replicas: 2,",
        ) + r#"
---
apiVersion: v1
kind: ConfigMap
metadata: {name: events-configmap, namespace: stream, labels: {app: flink, cluster: events}}
data:
  flink-conf.yaml: |
    taskmanager.memory.process.size: 973m
"#;
        let f = &run(&OomKilled, &snapshot(&y))[0];
        assert!(
            f.evidence
                .iter()
                .any(|e| e.contains("memoryProcessRatio 95% (set in the spec) = 973 MiB")),
            "{:#?}",
            f.evidence
        );
        assert!(
            f.evidence.iter().any(|e| e
                == "headroom over Flink's process memory: 51 MiB (5.0% of the limit), under 10%"),
            "{:#?}",
            f.evidence
        );
        assert!(
            f.fix.starts_with("Only 51 MiB of the 1024 MiB limit"),
            "{}",
            f.fix
        );
        assert!(
            f.fix
                .contains(r#""memoryProcessRatio":75,"resources":{"limits":{"memory":"1298Mi"}}"#),
            "{}",
            f.fix
        );
    }

    #[test]
    fn flink_before_1_10_gets_a_heap_and_the_off_heap_minimum_is_the_room() {
        let y = FC_OOM.replace("flinkVersion: '1.14'", "flinkVersion: '1.9'");
        let f = &run(&OomKilled, &snapshot(&y))[0];
        assert!(
            f.evidence.iter().any(|e| e.starts_with("Flink's heap: 452 MiB (taskmanager.heap.size: the operator sets it to limit 1024 MiB - max(25% of it")),
            "{:#?}",
            f.evidence
        );
        assert!(f.fix.contains(r#"{"taskManager":{"memoryOffHeapMin":"708M","resources":{"limits":{"memory":"1127Mi"}}}}"#), "{}", f.fix);
    }

    #[test]
    fn flink_properties_that_set_the_process_size_are_what_the_fix_lowers() {
        let y = FC_OOM.replace(
            "  image: {name: 'flink:1.14.2'}\n",
            "  image: {name: 'flink:1.14.2'}\n  flinkProperties: {taskmanager.memory.process.size: 1g}\n",
        );
        let f = &run(&OomKilled, &snapshot(&y))[0];
        assert!(
            f.evidence.iter().any(|e| e.contains(
                "headroom over Flink's process memory: 0 MiB (0.0% of the limit), under 10%"
            )),
            "{:#?}",
            f.evidence
        );
        assert!(
            f.fix.contains(
                r#"-p '{"spec":{"flinkProperties":{"taskmanager.memory.process.size":"768m"}}}'"#
            ),
            "{}",
            f.fix
        );
    }

    #[test]
    fn a_flinkcluster_sidecar_is_not_given_flink_s_numbers() {
        let y = FC_OOM
            .replace("reason: OOMKilled}}}\n  - {name: fluentd", "reason: Error}}}\n  - {name: fluentd")
            .replace(
                "restartCount: 0, state: {running: {}}}",
                "restartCount: 1, state: {running: {}}, lastState: {terminated: {exitCode: 137, reason: OOMKilled}}}",
            );
        let f = run(&OomKilled, &snapshot(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("`fluentd` is not Flink's container")));
        assert!(!f[0].evidence.iter().any(|e| e.contains("process memory")));
        assert!(
            f[0].fix.contains("spec.taskManager.sidecars"),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn a_flinkcluster_job_submitter_is_sent_to_spec_job_resources() {
        let y = FC_OOM.split("---").next().unwrap_or_default().to_string()
            + r#"---
apiVersion: v1
kind: Pod
metadata:
  name: events-job-submitter-x2k9d
  namespace: stream
  labels: {app: flink, cluster: events, job-name: events-job-submitter}
spec:
  restartPolicy: Never
  containers: [{name: main, image: 'flink:1.14.2', resources: {limits: {memory: 512Mi}}}]
status:
  phase: Failed
  containerStatuses:
  - {name: main, image: 'flink:1.14.2', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode: 137, reason: OOMKilled}}}
"#;
        let f = run(&OomKilled, &snapshot(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("is the job submitter")));
        assert!(
            f[0].fix
                .contains("spec.job.resources.limits.memory of FlinkCluster events"),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn a_larger_limit_in_the_flinkcluster_before_the_rollout_is_an_info_finding() {
        let y = FC_OOM.replace(
            "limits: {memory: 1Gi, cpu: 500m}",
            "limits: {memory: 1172Mi, cpu: 500m}, memoryProcessRatio: 70",
        );
        let f = &run(&OomKilled, &snapshot(&y))[0];
        assert_awaiting_rollout(f, "fixed in FlinkCluster events (memory)", "1172Mi");
    }

    #[test]
    fn silent_on_the_healthy_flinkcluster_bundles() {
        for name in ["mode-flinkcluster-healthy", "install-flinkcluster-healthy"] {
            assert!(
                run(&OomKilled, &crate::rules::testing::scenario(name)).is_empty(),
                "{name}"
            );
        }
        let quiet = FC_OOM.replace(
            "lastState: {terminated: {exitCode: 137, reason: OOMKilled}}",
            "lastState: {}",
        );
        assert!(run(&OomKilled, &snapshot(&quiet)).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&OomKilled, &scenario("oom-killed"));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].evidence.iter().any(|e| e.contains("under 10%")),
            "{:?}",
            f[0].evidence
        );
        for name in HEALTHY_SCENARIOS.iter().chain(&["jvm-out-of-memory"]) {
            assert!(run(&OomKilled, &scenario(name)).is_empty(), "{name}");
        }
    }
}

//! The TaskManager memory that fits, computed from the numbers Flink printed when its components
//! did not fit the total (`TaskExecutorFlinkMemoryUtils.deriveFromTotalFlinkMemory`:
//! "Sum of configured Framework Heap Memory (..), Framework Off-Heap Memory (..), Task Off-Heap
//! Memory (..), Managed Memory (..) and Network Memory (..) exceed configured Total Flink Memory
//! (..)", apache/flink@release-1.18.1:flink-runtime/src/main/java/org/apache/flink/runtime/util/
//! config/memory/taskmanager/TaskExecutorFlinkMemoryUtils.java), as the operator reports it.
//!
//! Managed memory is a fraction of the Total Flink Memory (its printed share of that total) and
//! network memory the larger of its printed size and its default fraction 0.1
//! (`taskmanager.memory.network.fraction`, TaskManagerOptions.java); the other components are
//! fixed sizes. The smallest Total Flink Memory F they fit in: F >= (fixed + network) / (1 - managed
//! share) and F >= fixed / (1 - managed share - 0.1). The process size keeps what the spec had
//! beyond the Total Flink Memory (JVM metaspace and overhead; the overhead grows with the process
//! past 1920m, 10% of it, so then a tenth more), rounded up to a multiple of 64m, which leaves the
//! task heap room.
//!
//! The sizes must be the ones of the spec seen: an error or event printed for an earlier spec
//! (the operator's status and its events outlive a spec change) gives no fit, else each round
//! would add the old spec's shortfall to the new size. Printed for this spec means: the operator
//! reconciled this generation (`status.observedGeneration`, written with
//! `reconciliationStatus.lastReconciledSpec` just before each deploy attempt,
//! apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/status/ReconciliationStatus.java,
//! `serializeAndSetLastReconciledSpec`; operator 1.7.0 has no such field), and the printed Total
//! Flink Memory is the one Flink derives from the spec's process size: the process less JVM
//! metaspace (`taskmanager.memory.jvm-metaspace.size`, 256m) and JVM overhead (its fraction 0.1 of
//! the process, within 192m and 1g) (apache/flink@release-1.20.1:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/ProcessMemoryUtils.java,
//! `deriveJvmMetaspaceAndOverheadWithTotalProcessMemory`), or `taskmanager.memory.flink.size`
//! when set.

use crate::snapshot::flink::FlinkDeployment;
use std::sync::OnceLock;

const MIB: f64 = 1024.0 * 1024.0;
/// `taskmanager.memory.network.fraction`'s default.
const NETWORK_FRACTION: f64 = 0.1;
/// `taskmanager.memory.jvm-overhead.min` (192m) over `taskmanager.memory.jvm-overhead.fraction`
/// (0.1): above this process size the overhead grows with it.
const OVERHEAD_FIXED_UP_TO: f64 = 1920.0 * MIB;

/// The components Flink printed, in bytes, and the Total Flink Memory they exceed.
#[derive(Debug, PartialEq)]
pub(super) struct Exceeded {
    pub components: Vec<(String, f64)>,
    pub total: f64,
}

impl Exceeded {
    pub fn parse(text: &str) -> Option<Exceeded> {
        let start = text.find("Sum of configured ")?;
        let rest = &text[start..];
        let end = rest.find("exceed configured Total Flink Memory")?;
        static PART: OnceLock<regex::Regex> = OnceLock::new();
        let part = PART.get_or_init(|| {
            regex::Regex::new(r"([A-Z][A-Za-z -]*? Memory) \((?:[0-9.]+[a-z]+ \()?([0-9]+) bytes\)")
                .expect("a valid pattern")
        });
        let components: Vec<(String, f64)> = part
            .captures_iter(&rest[..end])
            .filter_map(|c| {
                let name = c[1].trim_start_matches("and ").trim().to_string();
                Some((name, c[2].parse::<f64>().ok()?))
            })
            .collect();
        let total = part
            .captures(&rest[end..])
            .and_then(|c| c[2].parse::<f64>().ok())?;
        (!components.is_empty() && total > 0.0).then_some(Exceeded { components, total })
    }

    fn get(&self, name: &str) -> f64 {
        self.components
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| *b)
            .unwrap_or(0.0)
    }

    /// The smallest Total Flink Memory the components fit in, in bytes.
    pub fn flink_memory_needed(&self) -> Option<f64> {
        let managed = self.get("Managed Memory");
        let network = self.get("Network Memory");
        let fixed: f64 = self
            .components
            .iter()
            .filter(|(n, _)| n != "Managed Memory" && n != "Network Memory")
            .map(|(_, b)| b)
            .sum();
        let share = managed / self.total;
        if share >= 1.0 - NETWORK_FRACTION {
            return None;
        }
        Some(((fixed + network) / (1.0 - share)).max(fixed / (1.0 - share - NETWORK_FRACTION)))
    }
}

/// `value` in MiB rounded up to a multiple of 64, as Flink writes it (`1024m`).
fn mebibytes(bytes: f64) -> String {
    format!("{}m", ((bytes / MIB / 64.0).ceil() * 64.0) as u64)
}

/// A Flink memory option of `conf`, else its default.
fn conf_size(conf: &std::collections::BTreeMap<String, String>, key: &str, default: f64) -> f64 {
    conf.get(key)
        .and_then(|v| crate::flink::units::parse_flink_memory(v))
        .unwrap_or(default)
}

/// The Total Flink Memory Flink derives from the spec: `taskmanager.memory.flink.size` when set,
/// else the process size less JVM metaspace and overhead (the module's comment has the source).
/// `spec.taskManager.resource.memory`, in bytes.
fn task_manager_memory(fd: &FlinkDeployment) -> Option<f64> {
    fd.spec
        .task_manager
        .as_ref()
        .and_then(|t| t.resource.as_ref())
        .and_then(|r| r.memory.as_deref())
        .and_then(crate::flink::units::parse_resource_memory)
}

fn spec_flink_memory(fd: &FlinkDeployment) -> Option<f64> {
    let conf = &fd.spec.flink_configuration;
    if let Some(v) = conf.get("taskmanager.memory.flink.size") {
        return crate::flink::units::parse_flink_memory(v);
    }
    let process = task_manager_memory(fd)?;
    let metaspace = conf_size(conf, "taskmanager.memory.jvm-metaspace.size", 256.0 * MIB);
    let fraction = conf
        .get("taskmanager.memory.jvm-overhead.fraction")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(0.1);
    let min = conf_size(conf, "taskmanager.memory.jvm-overhead.min", 192.0 * MIB);
    let max = conf_size(conf, "taskmanager.memory.jvm-overhead.max", 1024.0 * MIB);
    let overhead = (process * fraction).min(max).max(min);
    Some(process - metaspace - overhead)
}

/// Why the sizes Flink printed are not the spec's, if they are not (the module's comment).
fn predates_spec(e: &Exceeded, fd: &FlinkDeployment) -> Option<String> {
    let generation = fd.metadata.generation;
    let observed = fd.status.as_ref().and_then(|s| s.observed_generation);
    if let (Some(g), Some(o)) = (generation, observed) {
        if o < g {
            return Some(format!(
                "the operator has not reconciled the spec's generation {g} yet (status.observedGeneration is {o})"
            ));
        }
    }
    let derived = spec_flink_memory(fd)?;
    ((derived - e.total).abs() > MIB).then(|| {
        format!(
            "the spec now gives a Total Flink Memory of {:.0}m, not the {:.0}m Flink printed",
            derived / MIB,
            e.total / MIB
        )
    })
}

/// Whether `text` is a TaskManager memory sum printed for an earlier spec than `fd`'s.
pub(super) fn printed_for_earlier_spec(text: &str, fd: &FlinkDeployment) -> bool {
    text.contains("TaskManager memory configuration failed")
        && Exceeded::parse(text).is_some_and(|e| predates_spec(&e, fd).is_some())
}

/// The fix: the field that sets the TaskManager's memory, and the size that fits.
pub(super) fn fit(text: &str, fd: &FlinkDeployment, ns: &str) -> Option<String> {
    if !text.contains("TaskManager memory configuration failed") {
        return None;
    }
    let e = Exceeded::parse(text)?;
    if let Some(why) = predates_spec(&e, fd) {
        // No size from an earlier spec's numbers: say so, and what tells the spec's own outcome.
        return Some(format!(
            "The memory sizes in this message were printed for an earlier spec: {why}. Nothing to \
             compute from them; the operator reports on the spec now once it has deployed it:\n\n  \
             kubectl get flinkdeployment {} -n {} -o jsonpath='{{.metadata.generation}} {{.status.observedGeneration}} {{.status.error}}'",
            crate::shell::sh(fd.name()),
            crate::shell::sh(ns)
        ));
    }
    let needed = e.flink_memory_needed()?;
    let name = crate::shell::sh(fd.name());
    let ns = crate::shell::sh(ns);
    let conf = &fd.spec.flink_configuration;
    let computed = format!(
        "Flink printed components of {} that need a Total Flink Memory of at least {:.0}m (the configured one is {:.0}m)",
        e.components
            .iter()
            .map(|(n, b)| format!("{n} {:.1}m", b / MIB))
            .collect::<Vec<_>>()
            .join(", "),
        (needed / MIB).ceil(),
        e.total / MIB,
    );
    if conf.contains_key("taskmanager.memory.flink.size") {
        let size = mebibytes(needed);
        return Some(format!(
            "{computed}. Set flinkConfiguration taskmanager.memory.flink.size to {size}:\n\n  \
             kubectl patch flinkdeployment {name} -n {ns} --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"taskmanager.memory.flink.size\":\"{size}\"}}}}}}'"
        ));
    }
    let process = task_manager_memory(fd)?;
    let beyond = (process - e.total).max(0.0);
    let mut want = needed + beyond;
    if want > OVERHEAD_FIXED_UP_TO {
        want /= 0.9;
    }
    let size = mebibytes(want);
    Some(format!(
        "{computed}; the process keeps {:.0}m beyond it (JVM metaspace and overhead). Set \
         spec.taskManager.resource.memory (Flink's taskmanager.memory.process.size) to {size}:\n\n  \
         kubectl patch flinkdeployment {name} -n {ns} --type=merge -p '{{\"spec\":{{\"taskManager\":{{\"resource\":{{\"memory\":\"{size}\"}}}}}}}}'",
        beyond / MIB
    ))
}

/// The process size that fits when JVM metaspace and overhead alone exceed it, the sum
/// `ProcessMemoryUtils.deriveJvmMetaspaceAndOverheadWithTotalProcessMemory` prints ("Sum of
/// configured JVM Metaspace (..) and JVM Overhead (..) exceed configured Total Process Memory
/// (..)", apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/ProcessMemoryUtils.java)
/// for a JobManager or a TaskManager, as the operator reports it ("JobManager memory
/// configuration failed: ..."). The process needs the printed metaspace and overhead plus the
/// least Total Flink Memory the component derives without error: for a JobManager its off-heap
/// memory (`jobmanager.memory.off-heap.size`, 128m) and the heap's recommended minimum
/// (`JobManagerOptions.MIN_JVM_HEAP_SIZE`, 128m; apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/JobManagerOptions.java);
/// for a TaskManager the defaults' fixed components (framework heap and off-heap, 128m each, and
/// network memory's 64m minimum) with managed memory's share 0.4 (TaskManagerOptions.java), the
/// 533m `Exceeded::flink_memory_needed` gives for them. Rounded up to a multiple of 64m.
pub(super) fn process_fit(text: &str, fd: &FlinkDeployment, ns: &str) -> Option<String> {
    static SUM: OnceLock<regex::Regex> = OnceLock::new();
    let sum = SUM.get_or_init(|| {
        regex::Regex::new(
            r"(JobManager|TaskManager) memory configuration failed: Sum of configured JVM Metaspace \((?:[0-9.]+[a-z]+ \()?([0-9]+) bytes\)\)? and JVM Overhead \((?:[0-9.]+[a-z]+ \()?([0-9]+) bytes\)\)? exceed configured Total Process Memory \((?:[0-9.]+[a-z]+ \()?([0-9]+) bytes\)",
        )
        .expect("a valid pattern")
    });
    let c = sum.captures(text)?;
    let bytes = |i: usize| c[i].parse::<f64>().ok();
    let (metaspace, overhead, printed) = (bytes(2)?, bytes(3)?, bytes(4)?);
    let jobmanager = &c[1] == "JobManager";
    let (field, key, option) = if jobmanager {
        (
            "jobManager",
            "spec.jobManager.resource.memory",
            "jobmanager.memory.process.size",
        )
    } else {
        (
            "taskManager",
            "spec.taskManager.resource.memory",
            "taskmanager.memory.process.size",
        )
    };
    let spec_memory = if jobmanager {
        fd.spec
            .job_manager
            .as_ref()
            .and_then(|t| t.resource.as_ref())
    } else {
        fd.spec
            .task_manager
            .as_ref()
            .and_then(|t| t.resource.as_ref())
    }
    .and_then(|r| r.memory.as_deref())
    .and_then(crate::flink::units::parse_resource_memory)?;
    // Printed for another spec than this one (the operator's events outlive a change): no size.
    if (spec_memory - printed).abs() > MIB {
        return None;
    }
    let flink_memory = if jobmanager {
        conf_size(
            &fd.spec.flink_configuration,
            "jobmanager.memory.off-heap.size",
            128.0 * MIB,
        ) + 128.0 * MIB
    } else {
        533.4 * MIB
    };
    let mut want = metaspace + overhead + flink_memory;
    // The overhead is a tenth of the process past its minimum: then the process grows with it.
    if want * 0.1 > overhead {
        want = (metaspace + flink_memory) / 0.9;
    }
    let size = mebibytes(want);
    Some(format!(
        "Flink printed JVM metaspace {:.0}m and JVM overhead {:.0}m, more than the {:.0}m process \
         ({key}, Flink's {option}) leaves, before any Flink memory. Set {key} to {size} (metaspace \
         and overhead, and the least Flink memory a {} derives):\n\n  \
         kubectl patch flinkdeployment {} -n {} --type=merge -p '{{\"spec\":{{\"{field}\":{{\"resource\":{{\"memory\":\"{size}\"}}}}}}}}'",
        metaspace / MIB,
        overhead / MIB,
        printed / MIB,
        &c[1],
        crate::shell::sh(fd.name()),
        crate::shell::sh(ns),
    ))
}

/// A memory fraction Flink refuses, as `ProcessMemoryUtils.getRangeFraction` prints it:
/// "Inconsistently configured Key: 'K' , default: D (fallback keys: [..]) (V) and its min (..),
/// max (..) value" (the option's `toString`, then the value; the same text from
/// apache/flink@release-1.16.0 to @release-2.0.0:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/ProcessMemoryUtils.java).
/// `RangeFraction` refuses a fraction outside [0, 1) and a min above the max
/// (apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/RangeFraction.java):
/// the first gets the option's default, which the message prints; the second the min set to
/// the max (`K` less `.fraction`, plus `.min` / `.max`).
pub(super) fn fraction_fit(text: &str, fd: &FlinkDeployment, ns: &str) -> Option<String> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"Inconsistently configured Key: '(?P<key>[\w.-]+)' , default: (?P<default>[0-9.]+) \(fallback keys: [^)]*\) \((?P<value>[^)\s]+)\) and its min \((?:[^()]|\([^()]*\))*\), max \((?:[^()]|\([^()]*\))*\) value",
        )
        .expect("a valid pattern")
    });
    let c = re.captures(text)?;
    let (key, default, value) = (&c["key"], &c["default"], &c["value"]);
    let conf = &fd.spec.flink_configuration;
    let name = crate::shell::sh(fd.name());
    let ns = crate::shell::sh(ns);
    let patch = |k: &str, v: &str| {
        crate::shell::json_arg(&serde_json::json!({"spec": {"flinkConfiguration": {k: v}}}))
    };
    let fraction = value.parse::<f64>().ok()?;
    if !(0.0..1.0).contains(&fraction) {
        return Some(format!(
            "Flink takes `{key}` as a fraction from 0 up to, not including, 1; it is {value}. Set it to its default, \
             {default} (or another fraction below 1):\n\n  \
             kubectl patch flinkdeployment {name} -n {ns} --type=merge -p {}",
            patch(key, default)
        ));
    }
    let base = key.strip_suffix(".fraction")?;
    let (min_key, max_key) = (format!("{base}.min"), format!("{base}.max"));
    let max = conf.get(&max_key)?;
    Some(format!(
        "`{min_key}` is above `{max_key}` ({max}): Flink needs the min at most the max. Set the min to the max \
         (or lower it further):\n\n  \
         kubectl patch flinkdeployment {name} -n {ns} --type=merge -p {}",
        patch(&min_key, max)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What operator 1.7.0 reported for `taskManager.resource.memory: 600m` with Flink 1.18.1 in
    /// the reality lab (tests/scenarios/real-tm-memory-cannot-fit).
    const LAB: &str = "org.apache.flink.configuration.IllegalConfigurationException: TaskManager memory configuration failed: Sum of configured Framework Heap Memory (128.000mb (134217728 bytes)), Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), Managed Memory (60.800mb (63753421 bytes)) and Network Memory (64.000mb (67108864 bytes)) exceed configured Total Flink Memory (152.000mb (159383552 bytes)).";

    #[test]
    fn reads_each_component_flink_printed() {
        let e = Exceeded::parse(LAB).unwrap();
        assert_eq!(e.components.len(), 5, "{e:?}");
        assert_eq!(e.get("Framework Off-Heap Memory"), 134217728.0);
        assert_eq!(e.get("Task Off-Heap Memory"), 0.0);
        assert_eq!(e.get("Network Memory"), 67108864.0);
        assert_eq!(e.total, 159383552.0);
        // 128 + 128 + 0 + 64 = 320m fixed, managed 40%: 320 / 0.6 = 533.3m.
        let f = e.flink_memory_needed().unwrap() / MIB;
        assert!((533.0..534.0).contains(&f), "{f}");
    }

    #[test]
    fn the_process_size_that_fits_keeps_metaspace_and_overhead() {
        let fd: FlinkDeployment = serde_yaml::from_str(
            "metadata: {name: orders, namespace: analytics}\nspec:\n  taskManager: {resource: {memory: 600m}}\n",
        )
        .unwrap();
        let fix = fit(LAB, &fd, "analytics").unwrap();
        // 533.3m + (600m - 152m) = 981.3m, up to 1024m.
        assert!(fix.contains("spec.taskManager.resource.memory (Flink's taskmanager.memory.process.size) to 1024m"), "{fix}");
        assert!(
            fix.contains("-p '{\"spec\":{\"taskManager\":{\"resource\":{\"memory\":\"1024m\"}}}}'"),
            "{fix}"
        );
        // With the Total Flink Memory set explicitly, that option is the one to set.
        let mut explicit = fd.clone();
        explicit
            .spec
            .flink_configuration
            .insert("taskmanager.memory.flink.size".into(), "152m".into());
        let fix = fit(LAB, &explicit, "analytics").unwrap();
        assert!(
            fix.contains("taskmanager.memory.flink.size to 576m"),
            "{fix}"
        );
        // Not a TaskManager sum: no computed fix.
        assert!(fit("Memory size unit 'mi' does not match", &fd, "analytics").is_none());
    }

    /// Operator 1.10.0 in the lab (tm-memory-cannot-fit on Flink 1.20.1): after the fix set
    /// 1024m, the 600m spec's ClusterDeploymentException event (Total Flink Memory 152m) was
    /// still there, and the fit computed 1408m from it, then 1792m, 2432m round after round.
    #[test]
    fn no_fit_from_sizes_an_earlier_spec_printed() {
        let at = |memory: &str, generation: &str| -> FlinkDeployment {
            serde_yaml::from_str(&format!(
                "metadata: {{name: orders, namespace: analytics{generation}}}\nspec:\n  taskManager: {{resource: {{memory: {memory}}}}}\n"
            ))
            .unwrap()
        };
        let fix = fit(LAB, &at("1024m", ""), "analytics").unwrap();
        assert!(!fix.contains("kubectl patch"), "{fix}");
        assert!(
            fix.contains(
                "the spec now gives a Total Flink Memory of 576m, not the 152m Flink printed"
            ),
            "{fix}"
        );
        // 600m: 600 - 256 metaspace - 192 overhead = 152m, the spec's own numbers.
        assert!(fit(LAB, &at("600m", ""), "analytics")
            .unwrap()
            .contains("to 1024m"));
        // A spec past 1920m: the overhead is a tenth of the process (2432m: 243.2m).
        let big = at("2432m", "");
        let derived = spec_flink_memory(&big).unwrap() / MIB;
        assert!((1932.0..1933.0).contains(&derived), "{derived}");
        // The operator not having reconciled the spec's generation: nothing is the spec's yet.
        let mut unseen = at("600m", ", generation: 3");
        unseen.status = Some(crate::snapshot::flink::FlinkDeploymentStatus {
            observed_generation: Some(2),
            ..Default::default()
        });
        let fix = fit(LAB, &unseen, "analytics").unwrap();
        assert!(
            fix.contains("generation 3 yet (status.observedGeneration is 2)"),
            "{fix}"
        );
        unseen.status.as_mut().unwrap().observed_generation = Some(3);
        assert!(fit(LAB, &unseen, "analytics").unwrap().contains("to 1024m"));
    }

    /// What operator 1.7.0 reported for `jobManager.resource.memory: 400m` with Flink 1.18.1 in
    /// the reality lab (a fault no scenario scripted).
    const JM_400: &str = "org.apache.flink.configuration.IllegalConfigurationException: JobManager memory configuration failed: Sum of configured JVM Metaspace (256.000mb (268435456 bytes)) and JVM Overhead (192.000mb (201326592 bytes)) exceed configured Total Process Memory (400.000mb (419430400 bytes)).";

    #[test]
    fn a_process_smaller_than_metaspace_and_overhead_gets_the_size_that_holds_them() {
        let fd = |jm: &str, tm: &str| -> FlinkDeployment {
            serde_yaml::from_str(&format!(
                "metadata: {{name: orders, namespace: analytics}}\nspec:\n  jobManager: {{resource: {{memory: {jm}}}}}\n  taskManager: {{resource: {{memory: {tm}}}}}\n"
            ))
            .unwrap()
        };
        // 256m + 192m + 128m off-heap + 128m heap = 704m, a multiple of 64m already.
        let fix = process_fit(JM_400, &fd("400m", "1024m"), "analytics").unwrap();
        assert!(
            fix.contains(r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"jobManager":{"resource":{"memory":"704m"}}}}'"#),
            "{fix}"
        );
        assert!(fix.contains("spec.jobManager.resource.memory"), "{fix}");
        // A TaskManager: 256m + 192m + 533.4m = 981.4m, up to 1024m, in the TaskManager's field.
        let tm = JM_400
            .replace("JobManager memory", "TaskManager memory")
            .replace("400.000mb (419430400", "300.000mb (314572800");
        let fix = process_fit(&tm, &fd("2048m", "300m"), "analytics").unwrap();
        assert!(
            fix.contains(r#"{"taskManager":{"resource":{"memory":"1024m"}}}"#),
            "{fix}"
        );
        // Printed for a spec that is not this one: no size from it.
        assert!(process_fit(JM_400, &fd("1024m", "1024m"), "analytics").is_none());
        // Not this sum.
        assert!(process_fit(LAB, &fd("400m", "600m"), "analytics").is_none());
    }

    /// What operator 1.7.0 reported for `taskmanager.memory.managed.fraction: "1.5"` with Flink
    /// 1.18.1 in the reality lab (a fault no scenario scripted).
    const FRACTION: &str = "org.apache.flink.configuration.IllegalConfigurationException: TaskManager memory configuration failed: Inconsistently configured Key: 'taskmanager.memory.managed.fraction' , default: 0.4 (fallback keys: []) (1.5) and its min (0 bytes), max (8388608.000tb (9223372036854775807 bytes)) value";

    #[test]
    fn a_fraction_flink_refuses_gets_its_default_or_the_min_at_the_max() {
        let fd: FlinkDeployment = serde_yaml::from_str(
            "metadata: {name: orders, namespace: analytics}\nspec:\n  flinkConfiguration: {taskmanager.memory.managed.fraction: '1.5'}\n",
        )
        .unwrap();
        let fix = fraction_fit(FRACTION, &fd, "analytics").unwrap();
        assert!(
            fix.contains(r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"taskmanager.memory.managed.fraction":"0.4"}}}'"#),
            "{fix}"
        );
        // A fraction in range with its min above its max: the min goes to the max.
        let overhead = "Inconsistently configured Key: 'taskmanager.memory.jvm-overhead.fraction' , default: 0.1 (fallback keys: []) (0.1) and its min (1024.000mb (1073741824 bytes)), max (512.000mb (536870912 bytes)) value";
        let fd: FlinkDeployment = serde_yaml::from_str(
            "metadata: {name: orders, namespace: analytics}\nspec:\n  flinkConfiguration: {taskmanager.memory.jvm-overhead.min: 1g, taskmanager.memory.jvm-overhead.max: 512m}\n",
        )
        .unwrap();
        let fix = fraction_fit(overhead, &fd, "analytics").unwrap();
        assert!(
            fix.contains(r#"-p '{"spec":{"flinkConfiguration":{"taskmanager.memory.jvm-overhead.min":"512m"}}}'"#),
            "{fix}"
        );
        assert!(fraction_fit(LAB, &fd, "analytics").is_none());
    }
}

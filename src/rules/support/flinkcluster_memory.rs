//! The memory the GCP/Spotify operator gives Flink inside a FlinkCluster's JobManager and
//! TaskManager containers. The operator derives Flink's memory option from the container's memory
//! limit (`resources.limits.memory`, else `requests.memory`: `util.UpperBoundedResourceList`) and
//! writes it into the flink-conf.yaml of `<name>-configmap`:
//!
//! - Flink 1.10 and later (`spec.flinkVersion`): `<component>.memory.process.size` =
//!   ceil(limit x memoryProcessRatio / 100), rounded up to MiB; memoryProcessRatio defaults to 80;
//! - Flink before 1.10, or no `spec.flinkVersion`: `<component>.heap.size` =
//!   limit - max(ceil(limit x memoryOffHeapRatio / 100), memoryOffHeapMin), rounded up to MiB;
//!   memoryOffHeapRatio defaults to 25, memoryOffHeapMin to 600M (600 x 10^6 bytes).
//!
//! Sources: spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/v1beta1/flinkcluster_default.go
//! (`_SetJobManagerDefault`, `_SetTaskManagerDefault`: the defaults, and the version boundary
//! `v10 = 1.10`, although the validator's messages say 1.11) and
//! controllers/flinkcluster/flinkcluster_converter.go (`newConfigMap`, `calFlinkMemoryProcessSize`,
//! `calProcessMemorySize`, `calFlinkHeapSize`, `calHeapSize`). The GoogleCloudPlatform releases
//! (GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:controllers/flinkcluster_converter.go)
//! know only the heap formula, for every Flink version; the ConfigMap says which one was applied.
//! A key set in `spec.flinkProperties` replaces the derived one (the operator protects only the
//! ports and the RPC address, `flinkSysProps`).

use crate::flink::conf::parse_flink_conf;
use crate::flink::mode::Component;
use crate::flink::units::{parse_flink_memory, parse_quantity, MIB};
use crate::snapshot::flink::{FlinkCluster, FlinkClusterComponentSpec};

/// `memoryProcessRatio` when the spec has none (flinkcluster_default.go@v0.6.0).
pub const DEFAULT_PROCESS_RATIO: i64 = 80;
/// `memoryOffHeapRatio` when the spec has none.
pub const DEFAULT_OFF_HEAP_RATIO: i64 = 25;
/// `memoryOffHeapMin` when the spec has none: `resource.NewScaledQuantity(600, 6)`, 600M.
pub const DEFAULT_OFF_HEAP_MIN: f64 = 600e6;

/// Which of the operator's formulas gave Flink its memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// `<component>.memory.process.size` = limit x memoryProcessRatio.
    Process,
    /// `<component>.heap.size` = limit - max(limit x memoryOffHeapRatio, memoryOffHeapMin).
    Heap,
    /// `spec.flinkProperties` sets the key itself.
    Properties,
}

/// Flink's share of a container's memory limit, and how the operator came to it.
#[derive(Debug, Clone, PartialEq)]
pub struct FlinkMemory {
    pub model: Model,
    /// The Flink option: `taskmanager.memory.process.size`, `jobmanager.heap.size`.
    pub key: String,
    /// Its value in bytes (the ConfigMap's when it holds one: what Flink read).
    pub bytes: f64,
    /// The limit the operator derived it from.
    pub limit: f64,
    /// memoryProcessRatio (Process) or memoryOffHeapRatio (Heap), in percent; 0 for Properties.
    pub ratio: i64,
    /// Whether the ratio is the spec's (else the operator's default).
    pub ratio_from_spec: bool,
    /// memoryOffHeapMin in bytes (Heap).
    pub off_heap_min: f64,
    /// `spec.taskManager`, `spec.jobManager`.
    pub spec_key: &'static str,
    /// How the value comes about, for evidence.
    pub derivation: String,
}

pub fn component_spec(
    fc: &FlinkCluster,
    component: Component,
) -> Option<&FlinkClusterComponentSpec> {
    if component == Component::JobManager {
        fc.spec.job_manager.as_ref()
    } else {
        fc.spec.task_manager.as_ref()
    }
}

/// The memory the operator derives Flink's from: `limits.memory`, else `requests.memory`, as
/// written and in bytes.
pub fn spec_limit(spec: &FlinkClusterComponentSpec) -> Option<(String, f64)> {
    let r = spec.resources.as_ref()?;
    [r.limits.as_ref(), r.requests.as_ref()]
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("memory"))
        .find_map(|q| {
            parse_quantity(&q.0)
                .filter(|b| *b > 0.0)
                .map(|b| (q.0.clone(), b))
        })
}

/// `spec.flinkVersion` 1.10 or later (the operator compares major.minor with hashicorp's
/// go-version; an unreadable or missing version counts as older).
pub fn process_model_version(fc: &FlinkCluster) -> bool {
    let Some(v) = fc.spec.flink_version.as_deref() else {
        return false;
    };
    let mut parts = v.trim().trim_start_matches('v').split(['.', '_']);
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = parts
        .next()
        .map(|p| {
            p.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|p| p.parse::<u32>().ok())
        .unwrap_or(0);
    major.is_some_and(|m| (m, minor) >= (1, 10))
}

/// The operator's process size: ceil(limit x ratio / 100) bytes, then MiB rounded up.
pub fn process_size(limit: f64, ratio: i64) -> f64 {
    ((limit * ratio as f64 / 100.0).ceil() / MIB).ceil() * MIB
}

/// The operator's heap size: limit minus the larger of its off-heap share and the minimum, MiB
/// rounded up; 0 when nothing is left.
pub fn heap_size(limit: f64, off_heap_ratio: i64, off_heap_min: f64) -> f64 {
    let off = (limit * off_heap_ratio as f64 / 100.0)
        .ceil()
        .max(off_heap_min);
    let heap = limit - off;
    if heap > 0.0 {
        (heap / MIB).ceil() * MIB
    } else {
        0.0
    }
}

fn mib(b: f64) -> String {
    format!("{:.0} MiB", (b / MIB).round())
}

/// What the operator gave Flink of `limit` in a `component` container (`jobmanager` /
/// `taskmanager`), with `conf` the flink-conf.yaml of `<name>-configmap` when it was read.
pub fn derive(
    fc: &FlinkCluster,
    component: Component,
    limit: f64,
    conf: Option<&str>,
) -> FlinkMemory {
    let prefix = component.as_str();
    let spec_key = component.spec_key();
    let process_key = format!("{prefix}.memory.process.size");
    let heap_key = format!("{prefix}.heap.size");
    let spec = component_spec(fc, component);
    let deployed = conf.map(parse_flink_conf).unwrap_or_default();
    let read = |key: &str| deployed.get(key).and_then(|v| parse_flink_memory(v));
    for key in [&process_key, &heap_key] {
        if let Some((v, b)) = fc
            .spec
            .flink_properties
            .get(key.as_str())
            .and_then(|v| parse_flink_memory(v).map(|b| (v, b)))
        {
            return FlinkMemory {
                model: Model::Properties,
                key: key.clone(),
                bytes: b,
                limit,
                ratio: 0,
                ratio_from_spec: false,
                off_heap_min: 0.0,
                spec_key,
                derivation: format!(
                    "spec.flinkProperties.{key}: {v}, which replaces the size the operator derives from the limit"
                ),
            };
        }
    }
    let model = if read(&process_key).is_some() {
        Model::Process
    } else if read(&heap_key).is_some() || !process_model_version(fc) {
        Model::Heap
    } else {
        Model::Process
    };
    let which = |from_spec: bool| {
        if from_spec {
            "set in the spec"
        } else {
            "the operator's default; the spec sets none"
        }
    };
    let (key, ratio, ratio_from_spec, off_heap_min, computed, mut derivation) = match model {
        Model::Process => {
            let from_spec = spec.and_then(|s| s.memory_process_ratio);
            let ratio = from_spec.unwrap_or(DEFAULT_PROCESS_RATIO);
            let b = process_size(limit, ratio);
            (
                process_key,
                ratio,
                from_spec.is_some(),
                0.0,
                b,
                format!(
                    "the operator sets it to limit {} x spec.{spec_key}.memoryProcessRatio {ratio}% ({}) = {}",
                    mib(limit),
                    which(from_spec.is_some()),
                    mib(b)
                ),
            )
        }
        _ => {
            let from_spec = spec.and_then(|s| s.memory_off_heap_ratio);
            let ratio = from_spec.unwrap_or(DEFAULT_OFF_HEAP_RATIO);
            let min_spec =
                spec.and_then(|s| s.memory_off_heap_min.as_ref())
                    .and_then(|v| match v {
                        serde_json::Value::String(s) => parse_quantity(s),
                        serde_json::Value::Number(n) => n.as_f64(),
                        _ => None,
                    });
            let min = min_spec.unwrap_or(DEFAULT_OFF_HEAP_MIN);
            let b = heap_size(limit, ratio, min);
            (
                heap_key,
                ratio,
                from_spec.is_some(),
                min,
                b,
                format!(
                    "the operator sets it to limit {} - max({ratio}% of it (spec.{spec_key}.memoryOffHeapRatio, {}), memoryOffHeapMin {:.0}M) = {}",
                    mib(limit),
                    which(from_spec.is_some()),
                    min / 1e6,
                    mib(b)
                ),
            )
        }
    };
    let bytes = match read(&key) {
        Some(b) if (b - computed).abs() > MIB => {
            derivation.push_str(&format!(
                "; the deployed flink-conf.yaml holds {} (written from an older spec or by an older release)",
                mib(b)
            ));
            b
        }
        Some(b) => b,
        None => computed,
    };
    FlinkMemory {
        model,
        key,
        bytes,
        limit,
        ratio,
        ratio_from_spec,
        off_heap_min,
        spec_key,
        derivation,
    }
}

/// A change to the FlinkCluster that leaves more of the container to what Flink does not count.
#[derive(Debug, Clone, PartialEq)]
pub struct MoreRoom {
    /// The field of `spec.<component>` that changes (`memoryProcessRatio`, `memoryOffHeapMin`),
    /// or the key of `spec.flinkProperties`.
    pub field: String,
    /// Its new value as the patch writes it (`70`, `"1022M"`, `"768m"`).
    pub value: serde_json::Value,
    /// The new memory limit in MiB that keeps Flink's share as it is (Process / Heap).
    pub limit_mib: Option<i64>,
    /// Flink's share if only `field` changes and the limit stays.
    pub same_limit_bytes: f64,
}

/// Ten points more of the limit outside Flink, keeping Flink's own share:
/// - Process: memoryProcessRatio down by 10 (to at most 75) and the limit that keeps the process
///   size;
/// - Heap: memoryOffHeapMin up to the room there is now plus a tenth of the limit, and a limit a
///   tenth larger (the heap stays: the minimum then outweighs memoryOffHeapRatio);
/// - Properties: the key set to three quarters of the limit.
pub fn more_room(m: &FlinkMemory) -> Option<MoreRoom> {
    match m.model {
        Model::Process => {
            let ratio = (m.ratio - 10).min(75);
            if ratio < 10 {
                return None;
            }
            let limit_mib = (m.bytes * 100.0 / ratio as f64 / MIB).ceil() as i64;
            Some(MoreRoom {
                field: "memoryProcessRatio".into(),
                value: serde_json::json!(ratio),
                limit_mib: Some(limit_mib.max((m.limit / MIB).ceil() as i64)),
                same_limit_bytes: process_size(m.limit, ratio),
            })
        }
        Model::Heap => {
            let room = (m.limit - m.bytes).max(0.0) + m.limit / 10.0;
            let min_m = (room / 1e6).ceil() as i64;
            let limit_mib = (m.limit * 1.1 / MIB).ceil() as i64;
            Some(MoreRoom {
                field: "memoryOffHeapMin".into(),
                value: serde_json::json!(format!("{min_m}M")),
                limit_mib: Some(limit_mib),
                same_limit_bytes: heap_size(m.limit, m.ratio, min_m as f64 * 1e6),
            })
        }
        Model::Properties => {
            let size = (m.limit * 0.75 / MIB).floor() as i64;
            (size > 0).then(|| MoreRoom {
                field: m.key.clone(),
                value: serde_json::json!(format!("{size}m")),
                limit_mib: None,
                same_limit_bytes: size as f64 * MIB,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(yaml: &str) -> FlinkCluster {
        serde_yaml::from_str(yaml).expect("FlinkCluster")
    }

    const GI: f64 = 1024.0 * MIB;

    #[test]
    fn process_size_is_the_ratio_of_the_limit_rounded_up_to_mib() {
        // spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/
        // flinkcluster_converter_test.go TestCalFlinkMemoryProcessSize: 1Gi -> 820m, 4Gi -> 3277m.
        assert_eq!(process_size(GI, 80) / MIB, 820.0);
        assert_eq!(process_size(4.0 * GI, 80) / MIB, 3277.0);
        assert_eq!(process_size(2.0 * GI, 80) / MIB, 1639.0);
        assert_eq!(process_size(2.0 * GI, 100) / MIB, 2048.0);
    }

    #[test]
    fn heap_size_keeps_the_larger_of_the_off_heap_share_and_its_minimum() {
        // The same file's TestCalFlinkHeapSize: 1Gi -> 452m, 4Gi -> 3072m, 500Mi -> none.
        // 1Gi: 25% is 256 MiB, less than 600M (572.2 MiB): 1024 - 572.2 = 451.8, up to 452.
        assert_eq!(heap_size(GI, 25, DEFAULT_OFF_HEAP_MIN) / MIB, 452.0);
        // 4Gi: 25% (1024 MiB) is more than the minimum.
        assert_eq!(heap_size(4.0 * GI, 25, DEFAULT_OFF_HEAP_MIN) / MIB, 3072.0);
        assert_eq!(heap_size(500.0 * MIB, 25, DEFAULT_OFF_HEAP_MIN), 0.0);
    }

    #[test]
    fn the_model_follows_the_deployed_conf_then_the_flink_version() {
        let fc = cluster(
            "spec: {flinkVersion: '1.14', taskManager: {resources: {limits: {memory: 1Gi}}}}",
        );
        let m = derive(&fc, Component::TaskManager, GI, None);
        assert_eq!(m.model, Model::Process);
        assert_eq!(m.key, "taskmanager.memory.process.size");
        assert_eq!((m.ratio, m.ratio_from_spec), (80, false));
        assert_eq!(m.bytes / MIB, 820.0);
        assert!(
            m.derivation.contains("limit 1024 MiB x spec.taskManager.memoryProcessRatio 80% (the operator's default; the spec sets none) = 820 MiB"),
            "{}",
            m.derivation
        );
        // A GoogleCloudPlatform release wrote the heap size, whatever the version.
        let m = derive(
            &fc,
            Component::TaskManager,
            GI,
            Some("taskmanager.heap.size: 452m\n"),
        );
        assert_eq!((m.model, m.bytes / MIB), (Model::Heap, 452.0));
        let old = cluster("spec: {flinkVersion: '1.9', jobManager: {memoryOffHeapRatio: 30}}");
        let m = derive(&old, Component::JobManager, 4.0 * GI, None);
        assert_eq!(
            (m.model, m.ratio, m.ratio_from_spec),
            (Model::Heap, 30, true)
        );
        assert_eq!(m.key, "jobmanager.heap.size");
        assert!(process_model_version(&cluster(
            "spec: {flinkVersion: '1.10'}"
        )));
        assert!(process_model_version(&cluster(
            "spec: {flinkVersion: v2_0}"
        )));
        assert!(!process_model_version(&cluster(
            "spec: {flinkVersion: '1.9.3'}"
        )));
        assert!(!process_model_version(&cluster("spec: {}")));
    }

    #[test]
    fn flink_properties_replace_the_derived_size() {
        let fc = cluster(
            "spec: {flinkVersion: '1.14', flinkProperties: {taskmanager.memory.process.size: 1g}}",
        );
        let m = derive(
            &fc,
            Component::TaskManager,
            GI,
            Some("taskmanager.memory.process.size: 1g\n"),
        );
        assert_eq!((m.model, m.bytes), (Model::Properties, GI));
        let r = more_room(&m).expect("a smaller size");
        assert_eq!((r.value, r.limit_mib), (serde_json::json!("768m"), None));
    }

    #[test]
    fn more_room_keeps_flink_s_share_and_widens_the_rest() {
        let fc = cluster("spec: {flinkVersion: '1.14', taskManager: {memoryProcessRatio: 80}}");
        let m = derive(&fc, Component::TaskManager, GI, None);
        let r = more_room(&m).expect("a plan");
        assert_eq!(r.value, serde_json::json!(70));
        assert_eq!(r.limit_mib, Some(1172), "820 MiB / 0.7");
        assert_eq!(process_size(1172.0 * MIB, 70) / MIB, 821.0);
        assert_eq!(r.same_limit_bytes / MIB, 717.0);
        let full = cluster("spec: {flinkVersion: '1.14', taskManager: {memoryProcessRatio: 100}}");
        assert_eq!(
            more_room(&derive(&full, Component::TaskManager, GI, None)).map(|r| r.value),
            Some(serde_json::json!(75))
        );
        // Flink 1.9, 1Gi: the 600M minimum is the room (572 MiB); 10% more of the limit makes
        // it 708M, and a limit of 1127Mi keeps the 452 MiB heap.
        let old = cluster("spec: {flinkVersion: '1.9'}");
        let m = derive(&old, Component::TaskManager, GI, None);
        let r = more_room(&m).expect("a plan");
        assert_eq!(
            (r.field.as_str(), r.value.clone(), r.limit_mib),
            ("memoryOffHeapMin", serde_json::json!("708M"), Some(1127))
        );
        assert_eq!(heap_size(1127.0 * MIB, 25, 708e6) / MIB, 452.0);
        assert_eq!(r.same_limit_bytes / MIB, 349.0);
    }
}

//! Flink's high availability and state options, as Flink and the operator name them.
//!
//! Keys: apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/
//! HighAvailabilityOptions.java and CheckpointingOptions.java (with their deprecated names).
//! Messages: apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/
//! java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java.

/// The option that turns HA on, then its deprecated names.
pub const MODE_KEYS: &[&str] = &[
    "high-availability.type",
    "high-availability",
    "recovery.mode",
];

/// Where HA keeps its metadata, and its deprecated names.
pub const STORAGE_DIR_KEYS: &[&str] = &[
    "high-availability.storageDir",
    "high-availability.zookeeper.storageDir",
    "recovery.zookeeper.storageDir",
];

/// Flink's checkpoint directory option and its deprecated names.
pub const CHECKPOINT_DIR_KEYS: &[&str] = &[
    "execution.checkpointing.dir",
    "state.checkpoints.dir",
    "state.backend.fs.checkpointdir",
];

/// Flink's savepoint directory option and its deprecated names.
pub const SAVEPOINT_DIR_KEYS: &[&str] = &[
    "execution.checkpointing.savepoint-dir",
    "state.savepoints.dir",
    "savepoints.state.backend.fs.dir",
];

/// The operator's validator, refusing standby JobManagers without HA.
pub const STANDBY_MESSAGE: &str =
    "High availability should be enabled when starting standby JobManagers.";
/// The operator's validator, refusing rollbacks without HA.
pub const ROLLBACK_MESSAGE: &str = "HA must be enabled for rollback support.";

/// The HA mode a value of one of `MODE_KEYS` turns on (`kubernetes`, `zookeeper`, a factory
/// class), or `None` when it turns HA off (`NONE`, empty).
pub fn mode(value: &str) -> Option<&str> {
    let v = value.trim();
    (!v.is_empty() && !v.eq_ignore_ascii_case("none")).then_some(v)
}

/// Whether a Flink configuration turns HA on, as Flink's `HighAvailabilityMode.fromConfig` reads
/// it (apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/jobmanager/
/// HighAvailabilityMode.java): the first of `MODE_KEYS` that is set decides; unset, `NONE` and the
/// old default `standalone` are off, anything else (`kubernetes`, `zookeeper`, a factory class) on.
/// The operator's validator asks exactly this (`isHighAvailabilityModeActivated`).
pub fn activated(conf: &std::collections::BTreeMap<String, String>) -> bool {
    MODE_KEYS
        .iter()
        .find_map(|k| conf.get(*k))
        .is_some_and(|v| mode(v).is_some_and(|m| !m.eq_ignore_ascii_case("standalone")))
}

/// Whether a mode is Kubernetes HA (leader election and metadata in ConfigMaps).
pub fn is_kubernetes(mode: &str) -> bool {
    let m = mode.to_ascii_lowercase();
    m == "kubernetes" || m.contains("kuberneteshaservicesfactory")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_and_empty_turn_ha_off() {
        assert_eq!(mode("NONE"), None);
        assert_eq!(mode(" "), None);
        assert_eq!(mode("kubernetes"), Some("kubernetes"));
        assert!(is_kubernetes(
            "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory"
        ));
        assert!(!is_kubernetes("zookeeper"));
    }

    #[test]
    fn activated_reads_the_first_key_set_as_flink_does() {
        let conf = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        assert!(!activated(&conf(&[])));
        assert!(activated(&conf(&[(
            "high-availability.type",
            "kubernetes"
        )])));
        assert!(activated(&conf(&[("high-availability", "zookeeper")])));
        assert!(!activated(&conf(&[("high-availability.type", "NONE")])));
        assert!(!activated(&conf(&[("high-availability", "standalone")])));
        // The current key wins over a deprecated one.
        assert!(!activated(&conf(&[
            ("high-availability.type", "none"),
            ("high-availability", "kubernetes")
        ])));
    }
}

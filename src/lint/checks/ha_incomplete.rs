//! FLK457: high availability asked for but incomplete.
//!
//! - HA turned on (`high-availability.type: kubernetes|zookeeper|<factory>`, or the deprecated
//!   `high-availability`) without `high-availability.storageDir`: the JobManager cannot start,
//!   HA keeps only pointers in ConfigMaps and the data in that directory.
//! - `spec.jobManager.replicas` > 1 without HA: the operator's validator rejects it ("High
//!   availability should be enabled when starting standby JobManagers.").
//! - `kubernetes.operator.deployment.rollback.enabled: true` without HA: rejected as well
//!   ("HA must be enabled for rollback support.").

use super::{config_yaml, At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::ha::{ROLLBACK_MESSAGE, STANDBY_MESSAGE, STORAGE_DIR_KEYS};
use crate::flink::mode::Component;
use crate::lint::config::ha_mode;
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK457",
        name: "ha_incomplete",
        summary: "High availability is required or turned on but incomplete (no storageDir, standby JobManagers or rollback without HA).",
        category: Category::HaMisconfigured,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"complete HA: `high-availability.type: kubernetes` and `high-availability.storageDir` on durable storage, or run one JobManager without rollback"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK457"#,
    },
    help: "Flink's HA keeps leader information in ConfigMaps (or ZooKeeper) and the job graphs and checkpoint \
metadata in high-availability.storageDir; without that directory the JobManager cannot start. The operator refuses \
spec.jobManager.replicas > 1 and deployment rollbacks without HA. Set high-availability.type: kubernetes together \
with high-availability.storageDir on durable storage (s3://, gs://, abfss://, a persistent volume).",
    run,
};

const HA_ON: &[(&str, &str)] = &[
    ("high-availability.type", "kubernetes"),
    ("high-availability.storageDir", "s3://<bucket>/flink/ha"),
];

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if !matches!(m.kind, Kind::FlinkDeployment | Kind::FlinkApplication) {
        return Vec::new();
    }
    let prefix = m.config_path().to_string();
    let mut out = Vec::new();
    let ha = ha_mode(&m.config);
    if let Some((key, mode)) = ha {
        if m.config.get_any(STORAGE_DIR_KEYS).is_none() {
            out.push(
                Hit::new(
                    At::Config(key.to_string()),
                    format!("{prefix}.{key}: {mode}"),
                    format!("HA ({mode}) is on but high-availability.storageDir is not set: the JobManager cannot start"),
                )
                .evidence("HA stores job graphs and checkpoint metadata in high-availability.storageDir and only pointers to them in ConfigMaps (or ZooKeeper)")
                .fix(format!(
                    "Add a durable directory all JobManagers can reach:\n\n{}",
                    config_yaml(&prefix, &[("high-availability.storageDir", "s3://<bucket>/flink/ha   # or gs://, abfss://, file:// on a persistent volume")])
                ))
                .verify(format!("{} -o jsonpath='{{.items[0].status.phase}}'   # expect Running, and no \"storageDir\" error in its log", super::pods_of(m, Component::JobManager))),
            );
        }
    }
    if m.kind != Kind::FlinkDeployment {
        return out;
    }
    let replicas = m
        .get("spec.jobManager.replicas")
        .and_then(serde_json::Value::as_i64)
        .unwrap_or(1);
    if replicas > 1 && ha.is_none() {
        out.push(
            Hit::path(
                "spec.jobManager.replicas",
                format!("spec.jobManager.replicas: {replicas}"),
                format!("{replicas} JobManager replicas without high availability: the operator rejects the FlinkDeployment"),
            )
            .evidence(format!("the operator's validator: {STANDBY_MESSAGE}"))
            .fix(format!(
                "Turn on Kubernetes HA (standby JobManagers take over through leader election):\n\n{}\n\nor run one JobManager: spec.jobManager.replicas: 1",
                config_yaml(&prefix, HA_ON)
            ))
            .verify(format!("kubectl get flinkdeployment {}{} -o jsonpath='{{.status.error}}'   # after apply: empty", crate::shell::sh(&m.name), m.ns_flag())),
        );
    }
    let rollback = "kubernetes.operator.deployment.rollback.enabled";
    if ha.is_none()
        && m.config
            .get(rollback)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        out.push(
            Hit::new(
                At::Config(rollback.to_string()),
                format!("{prefix}.{rollback}: true"),
                "deployment rollback is enabled without high availability: the operator rejects the FlinkDeployment",
            )
            .evidence(format!("the operator's validator: {ROLLBACK_MESSAGE}"))
            .fix(format!(
                "Turn on Kubernetes HA, or drop {rollback}:\n\n{}",
                config_yaml(&prefix, HA_ON)
            ))
            .verify(format!("kubectl get flinkdeployment {}{} -o jsonpath='{{.status.error}}'   # after apply: empty", crate::shell::sh(&m.name), m.ns_flag())),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn ha_without_storage_dir() {
        let yaml = BASIC.replace(
            "    taskmanager.numberOfTaskSlots: \"2\"\n",
            "    taskmanager.numberOfTaskSlots: \"2\"\n    high-availability.type: kubernetes\n",
        );
        let h = hits(&CHECK, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.flinkConfiguration.high-availability.type: kubernetes"
        );
        let ok = yaml.replace(
            "type: kubernetes\n",
            "type: kubernetes\n    high-availability.storageDir: file:///flink-data/ha\n",
        );
        assert!(hits(&CHECK, &ok).is_empty());
    }

    #[test]
    fn standby_jobmanagers_and_rollback_without_ha() {
        let yaml = BASIC.replace("  jobManager:\n", "  jobManager:\n    replicas: 2\n");
        let h = hits(&CHECK, &yaml);
        assert_eq!(h.len(), 1);
        assert!(h[0].evidence[0].ends_with(STANDBY_MESSAGE));
        let yaml = BASIC.replace("    taskmanager.numberOfTaskSlots: \"2\"\n", "    taskmanager.numberOfTaskSlots: \"2\"\n    kubernetes.operator.deployment.rollback.enabled: \"true\"\n");
        let h = hits(&CHECK, &yaml);
        assert!(h[0].evidence[0].ends_with(ROLLBACK_MESSAGE));
        assert!(hits(&CHECK, BASIC).is_empty());
    }
}

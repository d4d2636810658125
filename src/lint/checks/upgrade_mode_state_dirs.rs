//! FLK458: a job with `upgradeMode: savepoint` or `last-state` and nowhere to keep its state.
//!
//! The operator's validator rejects it with these messages (apache/flink-kubernetes-operator@release-1.15.0:
//! .../operator/validation/DefaultValidator.java; the `%s` is the option key of the Flink 1.20 the operator is built with):
//! - last-state and savepoint need a checkpoint directory,
//! - savepoint also needs a savepoint directory.
//!
//! Category `savepoint_restore_failed` ("the job cannot restore from its savepoint/checkpoint
//! (... not configured)"): the upgrade modes exist to restore state, and without the directory
//! there is nothing to restore from.
//!
//! The operator also reads its own default configuration (ConfigMap flink-operator-config), which
//! may set these for every resource; lint cannot see it, and says so in the evidence. A
//! FlinkSessionJob is checked with its session FlinkDeployment's options when that deployment
//! is among the inputs, and not otherwise.

use super::{config_yaml, At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::ha::{CHECKPOINT_DIR_KEYS, SAVEPOINT_DIR_KEYS};
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK458",
        name: "upgrade_mode_state_dirs",
        summary: "A job with upgradeMode savepoint or last-state has no checkpoint (or savepoint) directory, which the operator's validator rejects.",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"set `state.checkpoints.dir` (and `state.savepoints.dir`) on durable storage in flinkConfiguration, or use upgradeMode stateless"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK458"#,
    },
    help: "Stateful upgrade modes restore the job from its latest checkpoint (last-state) or a savepoint taken on \
upgrade (savepoint); the operator refuses them unless execution.checkpointing.dir (state.checkpoints.dir) is set, \
and for savepoint also execution.checkpointing.savepoint-dir (state.savepoints.dir). Set both to durable storage, \
or use upgradeMode: stateless for jobs without state.",
    run,
};

pub fn checkpoint_message() -> String {
    format!(
        "Checkpoint directory[{}] must be defined for last-state and savepoint upgrade modes",
        CHECKPOINT_DIR_KEYS[0]
    )
}

pub fn savepoint_message() -> String {
    format!(
        "Job could not be upgraded with savepoint while config key[{}] is not set",
        SAVEPOINT_DIR_KEYS[0]
    )
}

fn run(m: &Manifest, lint: &Lint) -> Vec<Hit> {
    let (conf, cluster_note) = match m.kind {
        Kind::FlinkDeployment => (m.config.clone(), None),
        Kind::FlinkSessionJob => match lint.session_cluster(m) {
            Some(cluster) => (
                m.config.over(&cluster.config),
                Some(format!(
                    "with the options of session cluster {}",
                    crate::shell::escape_controls(&cluster.name)
                )),
            ),
            None => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    let Some(mode) = m.str_at("spec.job.upgradeMode") else {
        return Vec::new();
    };
    if !matches!(mode, "savepoint" | "last-state") {
        return Vec::new();
    }
    let kind = m.kind_name.to_ascii_lowercase();
    let prefix = m.config_path().to_string();
    let mut missing: Vec<(&str, String)> = Vec::new();
    if conf.get_any(CHECKPOINT_DIR_KEYS).is_none() {
        missing.push((CHECKPOINT_DIR_KEYS[0], checkpoint_message()));
    }
    if mode == "savepoint" && conf.get_any(SAVEPOINT_DIR_KEYS).is_none() {
        missing.push((SAVEPOINT_DIR_KEYS[0], savepoint_message()));
    }
    missing
        .into_iter()
        .map(|(key, message)| {
            let what = if key == CHECKPOINT_DIR_KEYS[0] { "checkpoint" } else { "savepoint" };
            Hit::new(
                At::Path(crate::lint::locate::Path::parse("spec.job.upgradeMode")),
                format!("spec.job.upgradeMode: {mode}"),
                format!("upgradeMode {mode} without a {what} directory: the operator rejects the {}", m.kind_name),
            )
            .evidence(format!("the operator's validator: {message}"))
            .evidence(format!(
                "no {} in {prefix}{}; unless the operator's default configuration (ConfigMap flink-operator-config) sets it, nothing is deployed",
                deprecated_names(key),
                cluster_note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default()
            ))
                .fix(format!(
                    "Give the job a durable {what} directory:\n\n{}\n\nor, for a job without state, upgradeMode: stateless",
                    config_yaml(&prefix, &[(key, &format!("s3://<bucket>/{}/{what}s", crate::shell::escape_controls(&m.name)))])
                ))
                .verify(format!(
                    "kubectl get {kind} {}{} -o jsonpath='{{.status.error}}'   # after apply: no ValidationError",
                    crate::shell::sh(&m.name),
                    m.ns_flag()
                ))
        })
        .collect()
}

fn deprecated_names(key: &str) -> String {
    let keys = if key == CHECKPOINT_DIR_KEYS[0] {
        CHECKPOINT_DIR_KEYS
    } else {
        SAVEPOINT_DIR_KEYS
    };
    keys.join(" / ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn savepoint_without_directories_gives_both_validator_messages() {
        let h = hits(
            &CHECK,
            &BASIC.replace("upgradeMode: stateless", "upgradeMode: savepoint"),
        );
        assert_eq!(h.len(), 2, "{h:?}");
        assert_eq!(
            h[0].evidence[0],
            "the operator's validator: Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes"
        );
        assert_eq!(
            h[1].evidence[0],
            "the operator's validator: Job could not be upgraded with savepoint while config key[execution.checkpointing.savepoint-dir] is not set"
        );
    }

    #[test]
    fn last_state_with_the_deprecated_checkpoint_key_is_fine() {
        let yaml = BASIC
            .replace("upgradeMode: stateless", "upgradeMode: last-state")
            .replace("    taskmanager.numberOfTaskSlots: \"2\"\n", "    taskmanager.numberOfTaskSlots: \"2\"\n    state.checkpoints.dir: file:///flink-data/checkpoints\n");
        assert!(hits(&CHECK, &yaml).is_empty());
        assert!(hits(&CHECK, BASIC).is_empty());
    }

    #[test]
    fn session_jobs_use_their_clusters_options() {
        let cluster = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: session}\nspec:\n  flinkConfiguration:\n    state.checkpoints.dir: s3://b/cp\n";
        let job = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkSessionJob\nmetadata: {name: j}\nspec:\n  deploymentName: session\n  job: {jarURI: 'https://x/j.jar', upgradeMode: last-state}\n";
        assert!(hits(&CHECK, &format!("{cluster}---\n{job}")).is_empty());
        let h = hits(
            &CHECK,
            &format!("{cluster}---\n{}", job.replace("last-state", "savepoint")),
        );
        assert_eq!(h.len(), 1);
        assert!(h[0].title.contains("savepoint directory"));
        assert!(
            hits(&CHECK, job).is_empty(),
            "without its cluster, a session job is not judged"
        );
    }
}

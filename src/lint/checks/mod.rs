//! Lint-only checks: traps that only make sense before a manifest is applied. One small function
//! per check, each with a stable id and a taxonomy category, registered once in `CHECKS`.
//!
//! Ids: FLK45x spec checks, FLK47x CRD schema. They sit in doctor's FLK4xx range ("spec and
//! upgrades") but above the ids `src/rules` uses; a test keeps the two registries apart.
//! The Pod-template-file check reports under doctor's own FLK101: the same trap keeps one id.

use super::manifest::Manifest;
use super::Lint;
use crate::finding::{Category, Severity};
use crate::flink::mode::{Component, Mode};
use crate::rules::RuleMeta;

mod filesystem_plugin;
mod flink_version;
mod flinkcluster_savepoints_dir;
mod ha_incomplete;
mod main_container_entrypoint;
mod memory_headroom;
mod pod_template_file;
mod rest_exposed;
pub mod schema_violation;
mod service_account;
mod session_job_local_jar;
mod token_unmounted;
mod upgrade_mode_state_dirs;

/// One lint check.
pub struct Check {
    /// Id, name, category and the one-line summary (SARIF shortDescription).
    pub meta: RuleMeta,
    /// Why it matters and the usual fix (SARIF help).
    pub help: &'static str,
    pub run: fn(&Manifest, &Lint) -> Vec<Hit>,
}

/// Where a hit points.
#[derive(Debug, Clone)]
pub enum At {
    /// A field, from the resource's root.
    Path(super::locate::Path),
    /// A Flink option under `spec.flinkConfiguration` (or Lyft's `spec.flinkConfig`).
    Config(String),
}

/// What a check found on one resource; the driver turns it into a Finding with the file and line.
#[derive(Debug, Clone)]
pub struct Hit {
    pub at: At,
    /// The offending field as it reads (`spec.serviceAccount: default`), after `file:line: `.
    pub what: String,
    pub title: String,
    pub evidence: Vec<String>,
    pub fix: String,
    pub verify: String,
    /// Overrides of the check's defaults, for checks whose variants differ.
    pub severity: Option<Severity>,
    pub category: Option<Category>,
}

impl Hit {
    pub fn new(at: At, what: impl Into<String>, title: impl Into<String>) -> Self {
        Hit {
            at,
            what: what.into(),
            title: title.into(),
            evidence: Vec::new(),
            fix: String::new(),
            verify: String::new(),
            severity: None,
            category: None,
        }
    }
    pub fn path(path: &str, what: impl Into<String>, title: impl Into<String>) -> Self {
        Self::new(At::Path(super::locate::Path::parse(path)), what, title)
    }
    pub fn evidence(mut self, line: impl Into<String>) -> Self {
        self.evidence.push(line.into());
        self
    }
    pub fn fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = fix.into();
        self
    }
    pub fn verify(mut self, verify: impl Into<String>) -> Self {
        self.verify = verify.into();
        self
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = Some(s);
        self
    }
    pub fn category(mut self, c: Category) -> Self {
        self.category = Some(c);
        self
    }
}

/// Every lint-only check, in id order.
pub static CHECKS: &[&Check] = &[
    &pod_template_file::CHECK,
    &main_container_entrypoint::CHECK,
    &service_account::MISSING,
    &service_account::DEFAULT,
    &flink_version::UNSUPPORTED,
    &flink_version::IMAGE_MISMATCH,
    &memory_headroom::CHECK,
    &ha_incomplete::CHECK,
    &upgrade_mode_state_dirs::CHECK,
    &session_job_local_jar::CHECK,
    &rest_exposed::CHECK,
    &filesystem_plugin::CHECK,
    &flinkcluster_savepoints_dir::CHECK,
    &token_unmounted::CHECK,
    &schema_violation::UNKNOWN_FIELD,
    &schema_violation::INVALID_VALUE,
];

pub fn check_of(id: &str) -> Option<&'static Check> {
    CHECKS.iter().copied().find(|c| c.meta.id == id)
}

/// `kubectl get pods` selecting one component of a Flink deployment.
pub(crate) fn pods_of(m: &Manifest, component: Component) -> String {
    let selector = Mode::Operator.selector(Some(&m.name), Some(component));
    format!(
        "kubectl get pods{} -l {}",
        m.ns_flag(),
        crate::shell::quote(&selector)
    )
}

/// Flink options as the YAML to paste, nested under `prefix` (`spec.flinkConfiguration`).
pub(crate) fn config_yaml(prefix: &str, entries: &[(&str, &str)]) -> String {
    let keys: Vec<&str> = prefix.split('.').filter(|k| !k.is_empty()).collect();
    let mut lines: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(d, k)| format!("{}{k}:", "  ".repeat(d)))
        .collect();
    let indent = "  ".repeat(keys.len());
    lines.extend(entries.iter().map(|(k, v)| format!("{indent}{k}: {v}")));
    lines.join("\n")
}

#[cfg(test)]
pub(crate) mod testing {
    //! Run one check over a YAML text, as the CLI would read it.
    use super::{Check, Hit};
    use crate::lint::source::{documents, Source};
    use crate::lint::Lint;

    pub fn hits(check: &Check, yaml: &str) -> Vec<Hit> {
        let sources = vec![Source {
            name: "test.yaml".into(),
            text: yaml.into(),
        }];
        let docs = documents(0, &sources[0]).expect("test YAML parses");
        let lint = Lint::new(&sources, &docs);
        lint.manifests
            .iter()
            .flat_map(|m| (check.run)(m, &lint))
            .collect()
    }

    /// The operator's basic.yaml example: application mode, healthy.
    pub const BASIC: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: basic-example
spec:
  image: flink:1.20
  flinkVersion: v1_20
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
  serviceAccount: flink
  jobManager:
    resource:
      memory: "2048m"
      cpu: 1
  taskManager:
    resource:
      memory: "2048m"
      cpu: 1
  job:
    jarURI: local:///opt/flink/examples/streaming/StateMachineExample.jar
    parallelism: 2
    upgradeMode: stateless
"#;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ids_are_unique_and_apart_from_doctors_rules() {
        let mut seen = BTreeSet::new();
        for c in CHECKS {
            assert!(seen.insert(c.meta.id), "duplicate lint id {}", c.meta.id);
            assert!(
                c.meta.id.len() == 6 && c.meta.id.starts_with("FLK"),
                "bad id {}",
                c.meta.id
            );
            assert!(
                !c.meta.summary.is_empty() && !c.help.is_empty(),
                "{} needs a summary and help",
                c.meta.id
            );
            if c.meta.id == "FLK101" {
                // The Pod-template-file check reports doctor's rule, and must say the same.
                let doctor = crate::rules::meta_of("FLK101").expect("doctor has FLK101");
                assert_eq!(
                    (doctor.name, doctor.category, doctor.severity),
                    (c.meta.name, c.meta.category, c.meta.severity)
                );
            } else {
                assert!(
                    crate::rules::meta_of(c.meta.id).is_none(),
                    "{} is also a doctor rule id",
                    c.meta.id
                );
            }
        }
    }
}

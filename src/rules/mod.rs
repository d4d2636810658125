//! The rules: pure functions over a Snapshot, one per file, registered once in `RULES`.
//!
//! Ids: FLK0xx install, FLK1xx JobManager and pods, FLK2xx TaskManagers and resources,
//! FLK3xx state and storage, FLK4xx spec and upgrades, FLK5xx identity and RBAC, FLK9xx the tool.
//! Taken by `lint`'s own checks (src/lint/checks): FLK451-FLK461 and FLK470-FLK471.

use crate::finding::Finding;
use crate::snapshot::{Index, Snapshot};

pub mod support;

mod cert_manager_missing;
mod container_exit_zero_restarting;
mod crashloop_backoff;
mod crd_missing;
mod crd_version_mismatch;
mod default_service_account;
mod flink_fatal_exit;
mod flink_resource_status;
mod flink_version_mismatch;
mod flinkcluster_job_lost;
mod flinkcluster_savepoint_failed;
mod flinkcluster_submitter_failed;
mod ha_configmap_rights_missing;
mod ha_misconfigured;
mod image_pull_failed;
mod inspect_forbidden;
mod jvm_out_of_memory;
mod lyft_application_failed;
mod main_container_misnamed;
mod oom_killed;
mod operator_not_running;
mod operator_not_watching_namespace;
mod operator_rbac_missing;
mod pod_class_missing;
mod pod_security_refused;
mod pod_unschedulable;
pub mod rbac_forbidden;
mod resource_quota_exceeded;
mod rest_exposed_publicly;
mod service_account_missing;
mod service_account_token_unmounted;
mod session_cluster_missing;
mod state_snapshot_failed;
mod taskmanager_lost;
mod taskmanager_replicas_short;
mod taskmanagers_not_created;
mod webhook_cert_expired;
mod webhook_cert_invalid;
mod webhook_secret_missing;
mod webhook_unreachable;

#[cfg(test)]
pub mod testing;

pub use crate::finding::RuleMeta;

/// A rule implements `check` or `check_each` (each is the other's default).
pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    /// What the rule finds, all at once.
    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        self.check_each(snapshot, index, &mut |f| out.push(f));
        out
    }
    /// What the rule finds, one finding at a time: what a rule that reports every failing pod
    /// implements, so that the findings of 100,000 pods never all exist at once
    /// (`rank::Collector` keeps what ranking reads of each as it comes).
    fn check_each(&self, snapshot: &Snapshot, index: &Index, each: &mut dyn FnMut(Finding)) {
        self.check(snapshot, index).into_iter().for_each(each);
    }
}

/// Every rule, in id order. A test checks that every rule file is registered here.
pub static RULES: &[&dyn Rule] = &[
    &inspect_forbidden::InspectForbidden,
    &crd_missing::CrdMissing,
    &crd_version_mismatch::CrdVersionMismatch,
    &operator_not_running::OperatorNotRunning,
    &operator_not_watching_namespace::OperatorNotWatchingNamespace,
    &operator_rbac_missing::OperatorRbacMissing,
    &cert_manager_missing::CertManagerMissing,
    &webhook_secret_missing::WebhookSecretMissing,
    &webhook_unreachable::WebhookUnreachable,
    &webhook_cert_invalid::WebhookCertInvalid,
    &webhook_cert_expired::WebhookCertExpired,
    &main_container_misnamed::MainContainerMisnamed,
    &container_exit_zero_restarting::ContainerExitZeroRestarting,
    &flink_fatal_exit::FlinkFatalExit,
    &crashloop_backoff::CrashLoopBackOff,
    &image_pull_failed::ImagePullFailed,
    &pod_unschedulable::PodUnschedulable,
    &oom_killed::OomKilled,
    &resource_quota_exceeded::ResourceQuotaExceeded,
    &pod_security_refused::PodSecurityRefused,
    &pod_class_missing::PodClassMissing,
    &jvm_out_of_memory::JvmOutOfMemory,
    &taskmanagers_not_created::TaskmanagersNotCreated,
    &taskmanager_lost::TaskmanagerLost,
    &taskmanager_replicas_short::TaskmanagerReplicasShort,
    &ha_misconfigured::HaMisconfigured,
    &ha_configmap_rights_missing::HaConfigmapRightsMissing,
    &flinkcluster_job_lost::FlinkclusterJobLost,
    &flink_resource_status::FlinkResourceStatus,
    &session_cluster_missing::SessionClusterMissing,
    &state_snapshot_failed::StateSnapshotFailed,
    &lyft_application_failed::LyftApplicationFailed,
    &flinkcluster_submitter_failed::FlinkclusterSubmitterFailed,
    &flinkcluster_savepoint_failed::FlinkclusterSavepointFailed,
    &flink_version_mismatch::FlinkVersionMismatch,
    &rest_exposed_publicly::RestExposedPublicly,
    &rbac_forbidden::RbacForbidden,
    &default_service_account::DefaultServiceAccount,
    &service_account_missing::ServiceAccountMissing,
    &service_account_token_unmounted::ServiceAccountTokenUnmounted,
];

/// Runs every rule over the snapshot. Findings come back unranked.
pub fn run_all(snapshot: &Snapshot) -> Vec<Finding> {
    let index = Index::new(snapshot);
    let mut out: Vec<Finding> = RULES
        .iter()
        .flat_map(|r| r.check(snapshot, &index))
        .collect();
    mark_probable_operators(snapshot, &mut out);
    out
}

/// `rank::rank` of the findings of every rule that `keep` keeps, without holding them all whole
/// at once: each finding goes to a `rank::Collector` as its rule makes it (`Rule::check_each`).
pub fn run_ranked(snapshot: &Snapshot, keep: impl Fn(&Finding) -> bool) -> crate::rank::Report {
    let index = Index::new(snapshot);
    let each = |r: &dyn Rule, to: &mut dyn FnMut(Finding)| {
        r.check_each(snapshot, &index, &mut |mut f| {
            mark_probable_operators(snapshot, std::slice::from_mut(&mut f));
            if keep(&f) {
                to(f);
            }
        })
    };
    let mut collector = crate::rank::Collector::default();
    for r in RULES {
        collector.begin();
        each(*r, &mut |f| collector.add_one(f));
    }
    collector.finish(|n| {
        let mut out = Vec::new();
        each(RULES[n], &mut |f| out.push(f));
        out
    })
}

/// A pod nothing of its own places, kept because it runs where an operator does: its findings
/// say which operator it probably is, and why (`snapshot::identity::Probable`).
fn mark_probable_operators(snapshot: &Snapshot, out: &mut [Finding]) {
    for p in &snapshot.probable_operators {
        for f in out.iter_mut().filter(|f| {
            f.object.kind == p.kind
                && f.object.name == p.name
                && f.object.namespace.as_deref() == Some(p.namespace.as_str())
        }) {
            f.evidence.push(p.evidence());
            // Its own link: only what is about this very pod explains its findings or is
            // explained by them (a guess at whose pod it is explains no operator finding).
            f.links
                .push(format!("probable-operator:{}/{}", p.namespace, p.name));
        }
    }
}

pub fn meta_of(id: &str) -> Option<&'static RuleMeta> {
    RULES.iter().map(|r| r.meta()).find(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = BTreeSet::new();
        for r in RULES {
            let m = r.meta();
            assert!(seen.insert(m.id), "duplicate rule id {}", m.id);
            assert!(
                m.id.len() == 6 && m.id.starts_with("FLK"),
                "bad id {}",
                m.id
            );
            for e in m.explains {
                assert!(meta_of(e).is_some(), "{} explains unknown rule {e}", m.id);
            }
        }
    }

    #[test]
    fn every_rule_file_is_registered() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules");
        let registered: BTreeSet<&str> = RULES.iter().map(|r| r.meta().name).collect();
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            if ["mod", "testing", "pod_status"].contains(&stem) {
                continue;
            }
            assert!(
                registered.contains(stem),
                "rule file {name} is not in RULES"
            );
        }
    }

    #[test]
    fn explains_graph_has_no_cycle() {
        let graph: HashMap<&str, &[&str]> = RULES
            .iter()
            .map(|r| (r.meta().id, r.meta().explains))
            .collect();
        fn visit<'a>(n: &'a str, g: &HashMap<&'a str, &'a [&'a str]>, path: &mut Vec<&'a str>) {
            assert!(!path.contains(&n), "cycle in explains: {path:?} -> {n}");
            path.push(n);
            for next in g.get(n).copied().unwrap_or(&[]) {
                visit(next, g, path);
            }
            path.pop();
        }
        for id in graph.keys() {
            visit(id, &graph, &mut Vec::new());
        }
    }
}

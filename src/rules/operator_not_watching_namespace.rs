//! FLK004: the operator runs, but `kubernetes.operator.watched.namespaces` (Helm's
//! `watchNamespaces`) leaves out the namespace of a Flink resource, so nothing ever reconciles
//! it: no status, no JobManager, no event. With several operators, a namespace counts as watched
//! when any of them watches it.

use super::support::install::{self, operators, Operator};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::units::human_duration;
use crate::snapshot::{Index, Snapshot};
use std::collections::BTreeSet;

pub struct OperatorNotWatchingNamespace;

static META: RuleMeta = RuleMeta {
    id: "FLK004",
    name: "operator_not_watching_namespace",
    summary: "the operator runs but does not watch the namespace of a Flink resource",
    category: Category::OperatorNotWatchingNamespace,
    severity: Severity::Critical,
    explains: &["FLK401"],
};

impl Rule for OperatorNotWatchingNamespace {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let ops = operators(s);
        if ops.is_empty() {
            return Vec::new();
        }
        let mut watched: BTreeSet<String> = BTreeSet::new();
        for op in &ops {
            match op.watched_namespaces() {
                None => return Vec::new(), // one of them watches every namespace
                Some(set) => watched.extend(set),
            }
        }
        // The operator to fix: the first one (they are sorted by namespace).
        let op = &ops[0];
        let mut resources: Vec<(&str, &str, &str, Option<bool>, ObjectRef)> = Vec::new();
        for fd in &s.flink_deployments {
            let empty = fd.status.as_ref().map(|st| {
                st.lifecycle_state.is_none() && st.job_manager_deployment_status.is_none()
            });
            resources.push((
                "FlinkDeployment",
                fd.namespace(),
                fd.name(),
                empty,
                crate::snapshot::index::deployment_ref(fd),
            ));
        }
        for j in &s.flink_session_jobs {
            let empty = j
                .status
                .as_ref()
                .map(|st| st.lifecycle_state.is_none() && st.job_status.is_none());
            resources.push((
                "FlinkSessionJob",
                j.namespace(),
                j.name(),
                empty,
                ObjectRef::namespaced("FlinkSessionJob", j.namespace(), j.name()),
            ));
        }
        let mut out = Vec::new();
        for (kind, ns, name, empty, group) in resources {
            if watched.contains(ns) {
                continue;
            }
            let never = empty.unwrap_or(true);
            let meta = match kind {
                "FlinkDeployment" => s
                    .flink_deployments
                    .iter()
                    .find(|d| d.namespace() == ns && d.name() == name)
                    .map(|d| &d.metadata),
                _ => s
                    .flink_session_jobs
                    .iter()
                    .find(|d| d.namespace() == ns && d.name() == name)
                    .map(|d| &d.metadata),
            };
            let age = meta.and_then(|m| install::age(s, m)).map(human_duration);
            let mut f = Finding::new(
                &META,
                ObjectRef::namespaced(kind, ns, name),
                if never {
                    format!("no operator watches namespace {ns}: {kind} {name} is never reconciled")
                } else {
                    format!("no operator watches namespace {ns} any more: the status of {kind} {name} is frozen")
                },
            )
            .deployment(Some(group))
            .severity(if never { Severity::Critical } else { Severity::Warning });
            for o in &ops {
                f = f.evidence(format!(
                    "{}: {} = {}",
                    o.watched_source(),
                    install::WATCHED_KEY,
                    o.watched_namespaces()
                        .map(|w| w.into_iter().collect::<Vec<_>>().join(","))
                        .unwrap_or_default()
                ));
            }
            f = f.evidence(match (never, age) {
                (true, Some(a)) => format!("{kind} {ns}/{name}: no status {a} after creation"),
                (true, None) => format!("{kind} {ns}/{name}: no status"),
                (false, _) => format!(
                    "{kind} {ns}/{name}: has a status from before, which nothing updates now"
                ),
            });
            if let Some(h) = install::flink_hooks(s).first() {
                f = f.evidence(format!(
                    "its webhooks ({}) follow the same list when the chart sets `watchNamespaces`",
                    h.config
                ));
            }
            out.push(fix(f, op, &watched, ns, kind, name).link(install::link(op.namespace)));
        }
        out
    }
}

fn fix(
    f: Finding,
    op: &Operator,
    watched: &BTreeSet<String>,
    ns: &str,
    kind: &str,
    name: &str,
) -> Finding {
    let mut list: Vec<&str> = watched.iter().map(String::as_str).collect();
    list.push(ns);
    list.sort();
    list.dedup();
    let upgrade = op
        .release()
        .upgrade(&format!("--set 'watchNamespaces={{{}}}'", list.join(",")));
    f.fix(format!(
        "Add {ns} to the operator's watched namespaces (Helm also creates the `flink` ServiceAccount, Role and\n\
         RoleBinding in it, and the webhooks follow):\n\n\
         {upgrade}\n\n\
         The operator reads the list at start-up: kubectl rollout restart deployment/{} -n {}",
        op.name(),
        op.namespace
    ))
    .verify(format!(
        "kubectl get {} {name} -n {ns} -o jsonpath='{{.status.lifecycleState}}{{\"\\n\"}}'   # expect a state such as DEPLOYED or STABLE",
        kind.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load};
    use crate::rules::testing::run;

    fn watching(list: &str, with_status: bool) -> Snapshot {
        let mut yaml = healthy_yaml().replace(
            "    kubernetes.operator.reconcile.interval: 15 s\n",
            &format!("    kubernetes.operator.reconcile.interval: 15 s\n    kubernetes.operator.watched.namespaces: {list}\n"),
        );
        if !with_status {
            yaml = yaml.replace(
                "status: {lifecycleState: STABLE, jobManagerDeploymentStatus: READY}\n",
                "",
            );
        }
        load(&yaml)
    }

    #[test]
    fn fires_for_a_resource_outside_the_watched_namespaces() {
        let f = run(
            &OperatorNotWatchingNamespace,
            &watching("flink-jobs, staging", false),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::OperatorNotWatchingNamespace);
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].title.contains("namespace prod"));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("kubernetes.operator.watched.namespaces = flink-jobs,staging")),
            "{:#?}",
            f[0].evidence
        );
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e == "FlinkDeployment prod/orders: no status 30m after creation"));
        assert!(
            f[0].fix
                .contains("--set 'watchNamespaces={flink-jobs,prod,staging}'"),
            "{}",
            f[0].fix
        );
        assert_eq!(
            f[0].deployment,
            Some(ObjectRef::namespaced("FlinkDeployment", "prod", "orders"))
        );
    }

    #[test]
    fn a_frozen_status_is_a_warning() {
        let f = run(&OperatorNotWatchingNamespace, &watching("flink-jobs", true));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn silent_when_watched_or_watching_all() {
        assert!(run(
            &OperatorNotWatchingNamespace,
            &watching("prod,flink-jobs", false)
        )
        .is_empty());
        assert!(run(
            &OperatorNotWatchingNamespace,
            &watching("JOSDK_ALL_NAMESPACES", false)
        )
        .is_empty());
        assert!(run(&OperatorNotWatchingNamespace, &load(&healthy_yaml())).is_empty());
    }
}

//! FLK004: the operator runs, but `kubernetes.operator.watched.namespaces` (Helm's
//! `watchNamespaces`) leaves out the namespace of a Flink resource, so nothing ever reconciles
//! it: no status, no JobManager, no event. With several operators, a namespace counts as watched
//! when any of them watches it.
//!
//! The GCP/Spotify FlinkCluster operator watches the one namespace its `--watch-namespace` flag
//! names, or all when it is empty (spotify/flink-on-k8s-operator@v0.6.0:main.go; `make deploy
//! WATCH_NAMESPACE=...`, the Helm chart's `watchNamespace.name`); its FlinkClusters are checked
//! against its installations only.

use super::support::install::{self, operators, Flavor, Operator};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::install::flinkcluster as fc;
use crate::flink::units::human_duration;
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::BTreeSet;

pub struct OperatorNotWatchingNamespace;

static META: RuleMeta = RuleMeta {
    id: "FLK004",
    name: "operator_not_watching_namespace",
    summary: "the operator runs but does not watch the namespace of a Flink resource",
    category: Category::OperatorNotWatchingNamespace,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"add the resource's namespace to the operator chart's `watchNamespaces` and `helm upgrade` (that also creates the operator's Role there), or move the resource to a namespace the operator watches"#,
    verify: r#"kubectl get flinkdeployment -n <namespace> -o jsonpath='{.items[*].status.lifecycleState}'   # expect a state once the operator reconciles it"#,
};

impl Rule for OperatorNotWatchingNamespace {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let mut out = Vec::new();
        for flavor in [Flavor::Apache, Flavor::FlinkCluster] {
            out.extend(check_flavor(s, flavor));
        }
        out
    }
}

/// A Flink resource: kind, namespace, name, whether its status is empty (`None`: no status), the
/// deployment it belongs to, its metadata.
type Resource<'a> = (
    &'a str,
    &'a str,
    &'a str,
    Option<bool>,
    ObjectRef,
    &'a ObjectMeta,
);

/// The resources of one operator (FlinkDeployments and FlinkSessionJobs for the Apache operator,
/// FlinkClusters for the GCP/Spotify one) against what its installations watch.
fn check_flavor(s: &Snapshot, flavor: Flavor) -> Vec<Finding> {
    let ops: Vec<Operator> = operators(s)
        .into_iter()
        .filter(|o| o.flavor == flavor)
        .collect();
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
    let mut resources: Vec<Resource> = Vec::new();
    if flavor == Flavor::Apache {
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
                &fd.metadata,
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
                &j.metadata,
            ));
        }
    } else {
        for c in &s.flink_clusters {
            let empty = c
                .status
                .as_ref()
                .map(|_| c.state().is_none_or(str::is_empty));
            resources.push((
                "FlinkCluster",
                c.namespace(),
                c.name(),
                empty,
                ObjectRef::namespaced("FlinkCluster", c.namespace(), c.name()),
                &c.metadata,
            ));
        }
    }
    let mut out = Vec::new();
    for (kind, ns, name, empty, group, meta) in resources {
        if watched.contains(ns) {
            continue;
        }
        let never = empty.unwrap_or(true);
        let age = install::age(s, meta).map(human_duration);
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
            let list = o
                .watched_namespaces()
                .map(|w| w.into_iter().collect::<Vec<_>>().join(","))
                .unwrap_or_default();
            f = f.evidence(match flavor {
                Flavor::Apache => {
                    format!("{}: {} = {list}", o.watched_source(), install::WATCHED_KEY)
                }
                Flavor::FlinkCluster | Flavor::Lyft => o.watched_source(),
            });
        }
        f = f.evidence(match (never, age) {
            (true, Some(a)) => format!("{kind} {ns}/{name}: no status {a} after creation"),
            (true, None) => format!("{kind} {ns}/{name}: no status"),
            (false, _) => {
                format!("{kind} {ns}/{name}: has a status from before, which nothing updates now")
            }
        });
        if flavor == Flavor::Apache {
            if let Some(h) = install::flink_hooks(s)
                .into_iter()
                .find(|h| h.flavor == Flavor::Apache)
            {
                f = f.evidence(format!(
                    "its webhooks ({}) follow the same list when the chart sets `watchNamespaces`",
                    h.config
                ));
            }
            out.push(fix(f, op, &watched, ns, kind, name).link(install::link(op.namespace)));
        } else {
            out.push(fix_flinkcluster(f, op, ns, name).link(install::link(op.namespace)));
        }
    }
    out
}

/// The FlinkCluster operator watches one namespace or all (main.go's `--watch-namespace`): the
/// fix is to watch all, or to run one more operator for this namespace.
fn fix_flinkcluster(f: Finding, op: &Operator, ns: &str, name: &str) -> Finding {
    let (deployment, ons) = (op.name(), op.namespace);
    let container = op.webhook_container();
    let index = op.main_container().and_then(|c| {
        c.args
            .iter()
            .flatten()
            .position(|a| a.starts_with(fc::WATCH_FLAG))
    });
    let patch = match index {
        Some(i) => format!(
            "kubectl patch deployment {deployment} -n {ons} --type=json \\\n  -p '[{{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/{}/args/{i}\",\"value\":\"{}=\"}}]'",
            op.pod_container_index(container).unwrap_or(0),
            fc::WATCH_FLAG
        ),
        None => format!(
            "kubectl edit deployment {deployment} -n {ons}   # container {}: {}=",
            crate::shell::escape_controls(container),
            fc::WATCH_FLAG
        ),
    };
    f.fix(format!(
        "The operator watches only one namespace ({}=NS; empty: every namespace). Let it watch every\n\
         namespace (its ClusterRole already covers them):\n\n\
         {patch}\n\n\
         or run a second operator for {ns} (make deploy FLINK_OPERATOR_NAMESPACE=... WATCH_NAMESPACE={ns},\n\
         which also labels the namespace for the webhooks' namespaceSelector).",
        fc::WATCH_FLAG
    ))
    .verify(format!(
        "kubectl get flinkcluster {name} -n {ns} -o jsonpath='{{.status.state}}{{\"\\n\"}}'   # expect a state such as Creating or Running"
    ))
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

    mod flinkcluster {
        use super::*;
        use crate::rules::support::install::testing::flinkcluster_yaml;

        #[test]
        fn a_flinkcluster_outside_the_watched_namespace_is_never_reconciled() {
            let yaml =
                flinkcluster_yaml(r#""--enable-leader-election", "--watch-namespace=flink-jobs""#)
                    .replace("status:\n  state: Running\n", "");
            let f = run(&OperatorNotWatchingNamespace, &load(&yaml));
            assert_eq!(f.len(), 1, "{f:#?}");
            assert_eq!(f[0].severity, Severity::Critical);
            assert_eq!(
                f[0].object,
                ObjectRef::namespaced("FlinkCluster", "stream", "wc")
            );
            assert!(
                f[0].evidence.iter().any(|e| e == "Deployment flink-operator-system/flink-operator-controller-manager (container `manager`): --watch-namespace=flink-jobs"),
                "{:#?}",
                f[0].evidence
            );
            assert!(
                f[0].evidence
                    .iter()
                    .any(|e| e == "FlinkCluster stream/wc: no status 30m after creation"),
                "{:#?}",
                f[0].evidence
            );
            assert!(
                f[0].fix.contains(r#"-p '[{"op":"replace","path":"/spec/template/spec/containers/0/args/1","value":"--watch-namespace="}]'"#),
                "{}",
                f[0].fix
            );
            assert!(f[0]
                .verify
                .contains("kubectl get flinkcluster wc -n stream"));
        }

        #[test]
        fn silent_when_the_flinkcluster_operator_watches_it_or_every_namespace() {
            for args in [
                r#""--watch-namespace=stream""#,
                r#""--watch-namespace", "stream""#,
                r#""--watch-namespace=""#,
                r#""--enable-leader-election""#,
            ] {
                let f = run(
                    &OperatorNotWatchingNamespace,
                    &load(&flinkcluster_yaml(args)),
                );
                assert!(f.is_empty(), "{args}: {f:#?}");
            }
        }

        #[test]
        fn each_operator_is_checked_against_its_own_resources() {
            // The Apache operator watches only flink-jobs; the FlinkCluster in `stream` is the
            // other operator's, which watches every namespace: nothing to say.
            let apache = healthy_yaml().replace(
                "    kubernetes.operator.reconcile.interval: 15 s\n",
                "    kubernetes.operator.reconcile.interval: 15 s\n    kubernetes.operator.watched.namespaces: prod\n",
            );
            let yaml = format!(
                "{apache}\n---\n{}",
                flinkcluster_yaml(r#""--enable-leader-election""#)
            );
            assert!(run(&OperatorNotWatchingNamespace, &load(&yaml)).is_empty());
        }
    }
}

//! FLK002: the installed Flink CRDs and the running operator disagree.
//!
//! - Operator 1.10 and later expect the FlinkStateSnapshot CRD; without it they log
//!   `Could not initialize informer for snapshots as the CRD has not been installed!` and fall
//!   back to the legacy savepoint fields (snapshot resources silently do nothing). It happens
//!   when the operator is upgraded with `helm upgrade`, which never installs or updates CRDs.
//! - A Flink CRD that does not serve `v1beta1`, the only version the operator reads and writes.

use super::support::install::{self, crd_present, crds_read, operators};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::names::{GROUP, VERSION};

use crate::snapshot::{Index, Snapshot};

pub struct CrdVersionMismatch;

static META: RuleMeta = RuleMeta {
    id: "FLK002",
    name: "crd_version_mismatch",
    summary: "the installed Flink CRDs and the running operator or the resources disagree on versions or fields",
    category: Category::CrdVersionMismatch,
    severity: Severity::Warning,
    explains: &[],
};

const SNAPSHOT_CRD: &str = "flinkstatesnapshots.flink.apache.org";
const SNAPSHOT_LOG: &str =
    "Could not initialize informer for snapshots as the CRD has not been installed";
/// The first operator release with the FlinkStateSnapshot resource.
const SNAPSHOTS_SINCE: install::Version = install::Version(1, 10, 0);

impl Rule for CrdVersionMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !crds_read(s) {
            return Vec::new();
        }
        let mut out = Vec::new();
        // The Apache operator's versions and CRDs.
        for op in operators(s).into_iter().filter(|o| o.is_apache()) {
            let Some((version, source)) = op.version() else {
                continue;
            };
            let pull = format!(
                "helm repo add flink-operator-repo {} 2>/dev/null; helm repo update flink-operator-repo\n\
                 helm pull flink-operator-repo/flink-kubernetes-operator --version {version} --untar --untardir /tmp/flink-operator-chart",
                install::HELM_REPO
            );
            let restart = format!(
                "kubectl rollout restart deployment/{} -n {}   # the operator looks for CRDs at start-up",
                op.name(),
                op.namespace
            );

            if version >= SNAPSHOTS_SINCE
                && !crd_present(s, SNAPSHOT_CRD)
                && crd_present(s, "flinkdeployments.flink.apache.org")
            {
                let mut f = Finding::new(
                    &META,
                    ObjectRef::new("CustomResourceDefinition", None, SNAPSHOT_CRD),
                    format!(
                        "operator {version} expects the FlinkStateSnapshot CRD, which is not installed: snapshot resources are ignored"
                    ),
                )
                .evidence(format!("operator {}/{}: {source}", op.namespace, op.name()))
                .evidence(format!("CustomResourceDefinition {SNAPSHOT_CRD}: not found (operator {SNAPSHOTS_SINCE} and later use it)"));
                if let Some(line) = log_line(s, &op, SNAPSHOT_LOG) {
                    f = f.evidence(line);
                }
                f = f
                    .evidence("the CRDs are older than the operator: `helm upgrade` never installs or updates CRDs")
                    .fix(format!(
                        "Apply the CRDs of the operator's chart version (all of them, so their schemas match too):\n\n\
                         {pull}\n\
                         kubectl apply --server-side --force-conflicts -f /tmp/flink-operator-chart/flink-kubernetes-operator/crds/\n\
                         {restart}"
                    ))
                    .verify(format!(
                        "kubectl get crd {SNAPSHOT_CRD} && kubectl logs -n {} deployment/{} -c {} | grep -c 'Could not initialize informer for snapshots'   # expect 0",
                        op.namespace,
                        op.name(),
                        install::OPERATOR_CONTAINER
                    ))
                    .link(install::link(op.namespace));
                out.push(f);
            }

            for crd in s.crds.iter().filter(|c| c.spec.group == GROUP) {
                let served: Vec<&str> = crd
                    .spec
                    .versions
                    .iter()
                    .filter(|v| v.served)
                    .map(|v| v.name.as_str())
                    .collect();
                if served.contains(&VERSION) {
                    continue;
                }
                let name = crd.metadata.name.as_deref().unwrap_or("");
                out.push(
                    Finding::new(
                        &META,
                        ObjectRef::new("CustomResourceDefinition", None, name),
                        format!("CRD {name} does not serve {VERSION}, the version operator {version} reads and writes"),
                    )
                    .severity(Severity::Critical)
                    .evidence(format!("{name}: served versions {}", if served.is_empty() { "none".to_string() } else { served.join(", ") }))
                    .evidence(format!("operator {}/{}: {source}", op.namespace, op.name()))
                    .fix(format!(
                        "Replace the CRD with the one of the operator's chart version:\n\n\
                         {pull}\n\
                         kubectl replace -f /tmp/flink-operator-chart/flink-kubernetes-operator/crds/{name}-v1.yml\n\
                         {restart}"
                    ))
                    .verify(format!("kubectl get crd {name} -o jsonpath='{{.spec.versions[?(@.served==true)].name}}'   # expect {VERSION}"))
                    .link(install::link(op.namespace)),
                );
            }
        }
        out
    }
}

/// The operator container's log line that shows `needle`, if the snapshot has its log.
fn log_line(s: &Snapshot, op: &install::Operator, needle: &str) -> Option<String> {
    op.pods.iter().find_map(|p| {
        [false, true].into_iter().find_map(|previous| {
            let text = s.log(
                op.namespace,
                install::pod_name(p),
                install::OPERATOR_CONTAINER,
                previous,
            )?;
            let (n, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle))?;
            Some(format!(
                "{}/{} log L{}: {}",
                install::pod_name(p),
                install::OPERATOR_CONTAINER,
                n + 1,
                line.trim()
            ))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load, without, NS};
    use crate::rules::testing::{run, with_log};

    fn skewed() -> Snapshot {
        load(&without(
            &healthy_yaml(),
            "CustomResourceDefinition",
            SNAPSHOT_CRD,
        ))
    }

    #[test]
    fn fires_when_a_new_operator_lacks_the_snapshot_crd() {
        let s = with_log(
            skewed(),
            NS,
            "flink-kubernetes-operator-7d9c6b5f4-abcde",
            "flink-kubernetes-operator",
            false,
            "2026-11-20 09:00:12,000 WARN  o.a.f.k.o.c.FlinkDeploymentController [] - Could not initialize informer for snapshots as the CRD has not been installed!\n",
        );
        let f = run(&CrdVersionMismatch, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::CrdVersionMismatch);
        assert!(f[0].title.contains("operator 1.15.0"));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("log L1: ") && e.contains("Could not initialize informer")),
            "{:#?}",
            f[0].evidence
        );
        assert!(f[0].fix.contains("--version 1.15.0 --untar"));
        assert!(f[0].fix.contains("kubectl apply --server-side --force-conflicts -f /tmp/flink-operator-chart/flink-kubernetes-operator/crds/"));
    }

    #[test]
    fn silent_for_an_operator_older_than_snapshots_and_when_installed() {
        assert!(run(&CrdVersionMismatch, &load(&healthy_yaml())).is_empty());
        let old = without(&healthy_yaml(), "CustomResourceDefinition", SNAPSHOT_CRD)
            .replace(
                "flink-kubernetes-operator:1.15.0",
                "flink-kubernetes-operator:1.9.0",
            )
            .replace(
                "app.kubernetes.io/version: 1.15.0",
                "app.kubernetes.io/version: 1.9.0",
            );
        assert!(run(&CrdVersionMismatch, &load(&old)).is_empty());
    }

    #[test]
    fn fires_when_a_crd_does_not_serve_v1beta1() {
        let yaml = healthy_yaml().replacen(
            "names: {kind: FlinkDeployment, plural: flinkdeployments}\n  versions: [{name: v1beta1",
            "names: {kind: FlinkDeployment, plural: flinkdeployments}\n  versions: [{name: v1alpha1",
            1,
        );
        let f = run(&CrdVersionMismatch, &load(&yaml));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].title.contains("does not serve v1beta1"));
    }
}

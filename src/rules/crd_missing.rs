//! FLK001: a Flink CRD the operator needs (FlinkDeployment, FlinkSessionJob) is not installed,
//! read from the CRD objects themselves. A 404 on listing the resources is FLK901's (the gap);
//! this rule stays silent for a kind that gap already reports, so the two never say it twice.
//!
//! Helm installs a chart's CRDs on `helm install` only, never on `helm upgrade` and never
//! again once deleted, so a CRD removed by hand (or a chart installed with `--skip-crds`) stays
//! missing; the operator then cannot start its informers for that kind.

use super::support::install::{self, crd_present, crds_read, operators, FLINK_CRDS};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::names::GROUP;

use crate::snapshot::{GapReason, Index, Snapshot};

pub struct CrdMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK001",
    name: "crd_missing",
    summary: "a Flink CRD the operator or the resources need is not installed",
    category: Category::CrdMissing,
    severity: Severity::Critical,
    explains: &["FLK003"],
};

impl Rule for CrdMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !crds_read(s) {
            return Vec::new();
        }
        // The Apache operator's CRDs: the FlinkCluster operator's installation is not read here.
        let ops: Vec<_> = operators(s).into_iter().filter(|o| o.is_apache()).collect();
        let hooks: Vec<_> = install::flink_hooks(s)
            .into_iter()
            .filter(|h| h.flavor == install::Flavor::Apache)
            .collect();
        let flink_crds: Vec<&str> = s
            .crds
            .iter()
            .filter(|c| c.spec.group == GROUP)
            .filter_map(|c| c.metadata.name.as_deref())
            .collect();
        // Flink is meant to be here: an operator, its webhooks, or some of its CRDs.
        if ops.is_empty() && hooks.is_empty() && flink_crds.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        // FlinkStateSnapshot is optional before operator 1.10: crd_version_mismatch (FLK002).
        for (name, kind, plural) in FLINK_CRDS
            .iter()
            .filter(|(_, k, _)| *k != "FlinkStateSnapshot")
        {
            if crd_present(s, name) {
                continue;
            }
            let reported_by_gap = s.gaps.iter().any(|g| {
                g.reason == GapReason::NotInstalled && g.group == GROUP && g.resource == *plural
            });
            if reported_by_gap {
                continue;
            }
            let op = ops.first();
            let release = op.map(|o| o.release());
            let version = release
                .as_ref()
                .and_then(|r| r.version)
                .map(|v| v.to_string());
            let mut f = Finding::new(
                &META,
                ObjectRef::new("CustomResourceDefinition", None, name),
                format!("the {kind} CRD ({name}) is not installed: the API server does not know the kind"),
            )
            .evidence(format!("CustomResourceDefinition {name}: not found"))
            .evidence(if flink_crds.is_empty() {
                "no flink.apache.org CRD is installed".to_string()
            } else {
                format!("installed flink.apache.org CRDs: {}", flink_crds.join(", "))
            });
            if let Some(o) = op {
                f = f.evidence(format!(
                    "the operator {}/{} ({}) watches {kind} resources and cannot start its informer for them",
                    o.namespace,
                    o.name(),
                    o.version().map(|(_, src)| src).unwrap_or_else(|| "version unknown".into())
                ));
                f = f.link(install::link(o.namespace));
            }
            let pull = match &version {
                Some(v) => format!("helm pull flink-operator-repo/flink-kubernetes-operator --version {v} --untar --untardir /tmp/flink-operator-chart"),
                None => "helm pull flink-operator-repo/flink-kubernetes-operator --untar --untardir /tmp/flink-operator-chart".to_string(),
            };
            f = f
                .fix(format!(
                    "Helm installs CRDs only on the first install and never on upgrade: apply the chart's CRD yourself\n\
                     (the same chart version as the operator):\n\n\
                     helm repo add flink-operator-repo {} 2>/dev/null; helm repo update flink-operator-repo\n\
                     {pull}\n\
                     kubectl apply --server-side -f /tmp/flink-operator-chart/flink-kubernetes-operator/crds/{name}-v1.yml{}",
                    install::HELM_REPO,
                    op.map(|o| format!("\nkubectl rollout restart deployment/{} -n {}   # the operator starts its informers at start-up", o.name(), o.namespace))
                        .unwrap_or_default()
                ))
                .verify(format!("kubectl get crd {name} && kubectl get {plural} -A"));
            out.push(f);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load, without};
    use crate::rules::testing::run;
    use crate::snapshot::Gap;

    #[test]
    fn fires_when_the_session_job_crd_is_absent() {
        let s = load(&without(
            &healthy_yaml(),
            "CustomResourceDefinition",
            "flinksessionjobs.flink.apache.org",
        ));
        let f = run(&CrdMissing, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::CrdMissing);
        assert!(f[0].title.contains("FlinkSessionJob"));
        assert!(
            f[0].fix
                .contains("crds/flinksessionjobs.flink.apache.org-v1.yml"),
            "{}",
            f[0].fix
        );
        assert!(f[0].fix.contains("--version 1.15.0"));
        assert!(f[0]
            .verify
            .contains("kubectl get crd flinksessionjobs.flink.apache.org"));
    }

    #[test]
    fn silent_when_installed_or_when_the_list_404_already_says_it() {
        assert!(run(&CrdMissing, &load(&healthy_yaml())).is_empty());
        let mut s = load(&without(
            &healthy_yaml(),
            "CustomResourceDefinition",
            "flinksessionjobs.flink.apache.org",
        ));
        s.gaps.push(Gap {
            verb: "list".into(),
            group: GROUP.into(),
            resource: "flinksessionjobs".into(),
            namespace: None,
            reason: GapReason::NotInstalled,
            message: "the server could not find the requested resource".into(),
        });
        assert!(run(&CrdMissing, &s).is_empty(), "FLK901 reports it");
    }

    #[test]
    fn silent_when_crds_were_not_read() {
        // A bundle without CRDs at all says nothing about them.
        let yaml = without(
            &without(
                &without(
                    &without(
                        &healthy_yaml(),
                        "CustomResourceDefinition",
                        "flinkdeployments.flink.apache.org",
                    ),
                    "CustomResourceDefinition",
                    "flinksessionjobs.flink.apache.org",
                ),
                "CustomResourceDefinition",
                "flinkstatesnapshots.flink.apache.org",
            ),
            "CustomResourceDefinition",
            "certificates.cert-manager.io",
        );
        assert!(run(&CrdMissing, &load(&yaml)).is_empty());
        // Nor does one whose CRD reads failed.
        let mut s = load(&without(
            &healthy_yaml(),
            "CustomResourceDefinition",
            "flinksessionjobs.flink.apache.org",
        ));
        s.gaps.push(Gap {
            verb: "get".into(),
            group: "apiextensions.k8s.io".into(),
            resource: "customresourcedefinitions".into(),
            namespace: None,
            reason: GapReason::Forbidden,
            message: "forbidden".into(),
        });
        assert!(run(&CrdMissing, &s).is_empty());
    }
}

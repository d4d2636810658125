//! FLK001: a Flink CRD the operator needs (FlinkDeployment, FlinkSessionJob) is not installed,
//! read from the CRD objects themselves. A 404 on listing the resources is FLK901's (the gap);
//! this rule stays silent for a kind that gap already reports, so the two never say it twice.
//!
//! Helm installs a chart's CRDs on `helm install` only, never on `helm upgrade` and never
//! again once deleted, so a CRD removed by hand (or a chart installed with `--skip-crds`) stays
//! missing; the operator then cannot start its informers for that kind.
//!
//! The FlinkCluster operator's CRD (`flinkclusters.flinkoperator.k8s.io`) missing while its
//! operator runs: its manager cannot build the FlinkCluster controller (`no matches for kind
//! "FlinkCluster" in version "flinkoperator.k8s.io/v1beta1"`), logs `Unable to create
//! controller` and exits (spotify/flink-on-k8s-operator@v0.6.0:main.go), so it crash-loops.
//! Concluded only when the operator shows it (not ready, restarting, or that log line) and no
//! FlinkCluster is in the snapshot (one there means the API serves them and the bundle merely
//! lacks the CRD, as bundles saved before kubectl-flink read it do).

use super::support::install::{self, crd_present, crds_read, operators, Flavor, FLINK_CRDS};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::install::flinkcluster as fc;
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
    fix: r#"install the CRDs of the operator release that runs: the chart's crds/ folder with `kubectl apply -f` (Helm installs CRDs once and never upgrades them), then restart the operator"#,
    verify: r#"kubectl get crd flinkdeployments.flink.apache.org flinksessionjobs.flink.apache.org   # expect both listed (doctor names the missing one)"#,
};

impl Rule for CrdMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !crds_read(s) {
            return Vec::new();
        }
        let mut out: Vec<Finding> = operators(s)
            .iter()
            .filter(|o| o.flavor == Flavor::FlinkCluster)
            .filter_map(|o| flinkcluster_crd_missing(s, o))
            .take(1)
            .collect();
        out.extend(apache(s));
        out
    }
}

/// The FlinkCluster CRD absent while its operator runs and fails.
fn flinkcluster_crd_missing(s: &Snapshot, op: &install::Operator) -> Option<Finding> {
    if crd_present(s, fc::CRD) || !s.flink_clusters.is_empty() {
        return None;
    }
    let container = op
        .main_container()
        .map(|c| c.name.as_str())
        .unwrap_or(fc::CONTAINERS[0]);
    let log = op.pods.iter().find_map(|p| {
        [false, true].into_iter().find_map(|previous| {
            let text = s.log(op.namespace, install::pod_name(p), container, previous)?;
            let (n, line) = text.lines().enumerate().find(|(_, l)| {
                (l.contains("no matches for kind") && l.contains("FlinkCluster"))
                    || (l.contains("Unable to create controller") && l.contains("FlinkCluster"))
            })?;
            Some(format!(
                "{}/{container} log L{}: {}",
                install::pod_name(p),
                n + 1,
                line.trim()
            ))
        })
    });
    let failing: Vec<String> = op
        .pods
        .iter()
        .filter_map(|p| {
            let cs = p
                .status
                .as_ref()?
                .container_statuses
                .as_ref()?
                .iter()
                .find(|c| c.name == container)?;
            let waiting = cs
                .state
                .as_ref()
                .and_then(|st| st.waiting.as_ref())
                .and_then(|w| w.reason.clone());
            (!cs.ready || cs.restart_count > 0).then(|| {
                format!(
                    "pod {}: container `{container}` {}, {} restarts",
                    install::pod_name(p),
                    waiting.unwrap_or_else(|| if cs.ready {
                        "ready".into()
                    } else {
                        "not ready".into()
                    }),
                    cs.restart_count
                )
            })
        })
        .collect();
    if log.is_none() && failing.is_empty() {
        return None;
    }
    let tag = op
        .image()
        .and_then(|i| i.rsplit('/').next())
        .and_then(|n| n.split_once(':'))
        .map(|(_, t)| t)
        .filter(|t| fc::components(t).is_some() && !t.starts_with("v1beta1"))
        .unwrap_or(fc::RELEASE);
    let mut f = Finding::new(
        &META,
        ObjectRef::new("CustomResourceDefinition", None, fc::CRD),
        format!(
            "the FlinkCluster CRD ({}) is not installed: the FlinkCluster operator cannot start its controller",
            fc::CRD
        ),
    )
    .evidence(format!("CustomResourceDefinition {}: not found", fc::CRD))
    .evidence(format!(
        "the operator {}/{} ({}) watches FlinkCluster resources",
        op.namespace,
        op.name(),
        op.image().map(|i| format!("image {i}")).unwrap_or_else(|| "image unknown".into())
    ));
    for e in failing.into_iter().chain(log) {
        f = f.evidence(e);
    }
    Some(
        f.fix(format!(
            "Install the CRD of the operator's release ({tag}), with the annotation its kustomization adds\n\
             (config/crd/patches/crd_protection.yaml; a `*.k8s.io` CRD is refused without it), then restart the operator:\n\n\
             kubectl annotate --local -o yaml --overwrite -f {} \\\n  \
             api-approved.kubernetes.io=unapproved | kubectl create -f -\n\
             kubectl rollout restart deployment/{} -n {}",
            // The tag is the image's (checked to be a release number, but only after trimming).
            crate::shell::quote(&format!(
                "https://raw.githubusercontent.com/spotify/flink-on-k8s-operator/{tag}/{}",
                fc::CRD_PATH
            )),
            op.name(),
            op.namespace
        ))
        .verify(format!(
            "kubectl get crd {} && kubectl rollout status deployment/{} -n {} --timeout=120s",
            fc::CRD,
            op.name(),
            op.namespace
        ))
        .link(install::link(op.namespace)),
    )
}

/// The Apache operator's CRDs.
fn apache(s: &Snapshot) -> Vec<Finding> {
    // The Apache operator's CRDs: the FlinkCluster operator's is read above.
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
        let mut f = Finding::new(
            &META,
            ObjectRef::new("CustomResourceDefinition", None, name),
            format!(
                "the {kind} CRD ({name}) is not installed: the API server does not know the kind"
            ),
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
        let (pull, crds) = install::pull_chart(op.and_then(|o| o.release().version));
        f = f
            .fix(format!(
                "Helm installs CRDs only on the first install and never on upgrade: apply the chart's CRD yourself\n\
                 (the same chart version as the operator):\n\n\
                 {pull}\n\
                 kubectl apply --server-side -f {crds}{name}-v1.yml{}",
                op.map(|o| format!("\nkubectl rollout restart deployment/{} -n {}   # the operator starts its informers at start-up", o.name(), o.namespace))
                    .unwrap_or_default()
            ))
            .verify(format!("kubectl get crd {name} && kubectl get {plural} -A"));
        out.push(f);
    }
    out
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
        assert!(f[0].fix.contains("helm pull https://archive.apache.org/dist/flink/flink-kubernetes-operator-1.15.0/flink-kubernetes-operator-1.15.0-helm.tgz"));
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

    /// The FlinkCluster operator without its CRD (the cert-manager CRD read, so CRDs were read)
    /// and no FlinkCluster; its manager `crashing` or running.
    fn flinkcluster_without_crd(crashing: bool) -> Snapshot {
        let mut y = without(
            &install::testing::flinkcluster_yaml("--enable-leader-election"),
            "FlinkCluster",
            "wc",
        ) + "\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: certificates.cert-manager.io}\nspec: {group: cert-manager.io, scope: Namespaced, names: {kind: Certificate, plural: certificates}, versions: [{name: v1, served: true, storage: true}]}\n";
        if crashing {
            y = y.replace(
                "ready: true, restartCount: 0, state: {running: {startedAt: \"2026-11-20T09:00:10Z\"}}",
                "ready: false, restartCount: 7, state: {waiting: {reason: CrashLoopBackOff}}",
            );
        }
        load(&y)
    }

    #[test]
    fn fires_when_the_flinkcluster_crd_is_absent_and_its_operator_crashes() {
        let s = crate::rules::testing::with_log(
            flinkcluster_without_crd(true),
            "flink-operator-system",
            "flink-operator-controller-manager-5b5f5fcd95-hvngf",
            "manager",
            true,
            "2026-11-20T09:00:11.020Z\tERROR\tsetup\tUnable to create controller\t{\"controller\": \"FlinkCluster\", \"error\": \"no matches for kind \\\"FlinkCluster\\\" in version \\\"flinkoperator.k8s.io/v1beta1\\\"\"}\n",
        );
        let f = run(&CrdMissing, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].object.name, "flinkclusters.flinkoperator.k8s.io");
        let ev = f[0].evidence.join("\n");
        assert!(
            ev.contains("container `manager` CrashLoopBackOff, 7 restarts"),
            "{ev}"
        );
        assert!(
            ev.contains("manager log L1: ") && ev.contains("no matches for kind"),
            "{ev}"
        );
        assert!(f[0]
            .fix
            .contains("/v0.6.0/config/crd/bases/flinkoperator.k8s.io_flinkclusters.yaml"));
        assert!(f[0].fix.contains("| kubectl create -f -"));
        assert!(f[0]
            .verify
            .contains("kubectl get crd flinkclusters.flinkoperator.k8s.io"));
    }

    #[test]
    fn silent_for_a_running_flinkcluster_operator_or_when_flinkclusters_are_there() {
        // A running operator and no CRD in the bundle: a bundle saved before the CRD was read.
        assert!(run(&CrdMissing, &flinkcluster_without_crd(false)).is_empty());
        // FlinkClusters are served: the bundle only lacks the CRD.
        let mut s = flinkcluster_without_crd(true);
        s.flink_clusters = load(&install::testing::flinkcluster_yaml("")).flink_clusters;
        assert!(!s.flink_clusters.is_empty());
        assert!(run(&CrdMissing, &s).is_empty());
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

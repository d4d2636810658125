//! FLK002: the installed Flink CRDs and the running operator disagree.
//!
//! - Operator 1.10 and later expect the FlinkStateSnapshot CRD; without it they log
//!   `Could not initialize informer for snapshots as the CRD has not been installed!` and fall
//!   back to the legacy savepoint fields (snapshot resources silently do nothing). It happens
//!   when the operator is upgraded with `helm upgrade`, which never installs or updates CRDs.
//! - A Flink CRD that does not serve `v1beta1`, the only version the operator reads and writes.
//! - A FlinkDeployment CRD older than the operator: its `spec.flinkVersion` enum lacks Flink
//!   versions the operator's release supports (`FLINK_VERSIONS`), so the API server refuses a
//!   FlinkDeployment for them (`spec.flinkVersion: Unsupported value: "v1_18"`) before the operator
//!   sees it, and nothing of it is ever stored. Same cause: `helm upgrade` left the old CRDs.
//! - The FlinkCluster operator's CRD (`flinkclusters.flinkoperator.k8s.io`) from another release
//!   than its image: a CRD that does not serve `v1beta1`, or whose status schema requires
//!   `status.components` fields the image never writes (Deployments up to v1beta1-8,
//!   StatefulSets from v1beta1-9, `jobManager`/`taskManager` from v0.4.2-beta.5:
//!   `crate::flink::install::flinkcluster::components`). The API server then rejects every status
//!   update (`FlinkCluster.flinkoperator.k8s.io "x" is invalid: [status.components.
//!   jobManagerStatefulSet: Required value, ...]`), and no FlinkCluster gets past its first state
//!   (GoogleCloudPlatform/flink-on-k8s-operator#391, #393, #464).

use super::support::install::{self, crd_present, crds_read, operators, Flavor};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::install::flinkcluster as fc;
use crate::flink::names::{FLINKCLUSTER_VERSION, GROUP, VERSION};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

use crate::snapshot::{Index, Snapshot};

pub struct CrdVersionMismatch;

static META: RuleMeta = RuleMeta {
    id: "FLK002",
    name: "crd_version_mismatch",
    summary: "the installed Flink CRDs and the running operator or the resources disagree on versions or fields",
    category: Category::CrdVersionMismatch,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"apply the CRDs of the operator version that runs (`kubectl replace -f` the chart's crds/ of that release; `helm upgrade` leaves CRDs alone), or run the operator release the CRDs belong to; then restart the operator"#,
    verify: r#"kubectl get crd flinkdeployments.flink.apache.org -o jsonpath='{.spec.versions[?(@.served==true)].name}'   # expect the version doctor names"#,
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
            let (pull, crds) = install::pull_chart(Some(version));
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
                         kubectl apply --server-side --force-conflicts -f {crds}\n\
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

            if let Some(f) =
                flink_version_enum_skew(s, &op, version, &source, (&pull, &crds), &restart)
            {
                out.push(f);
            }

            for crd in s.crds.iter().filter(|c| c.spec.group == GROUP) {
                let served = served_versions(crd);
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
                         kubectl replace -f {crds}{name}-v1.yml\n\
                         {restart}"
                    ))
                    .verify(format!("kubectl get crd {name} -o jsonpath='{{.spec.versions[?(@.served==true)].name}}'   # expect {VERSION}"))
                    .link(install::link(op.namespace)),
                );
            }
        }
        for op in operators(s)
            .into_iter()
            .filter(|o| o.flavor == Flavor::FlinkCluster)
        {
            out.extend(flinkcluster_skew(s, &op));
        }
        out
    }
}

/// The FlinkCluster operator's CRD against its image: served versions, and the status
/// components the CRD requires that the image never writes (or that its log says were refused).
fn flinkcluster_skew(s: &Snapshot, op: &install::Operator) -> Option<Finding> {
    // Absent: crd_missing (FLK001).
    let crd = s
        .crds
        .iter()
        .find(|c| c.metadata.name.as_deref() == Some(fc::CRD))?;
    let container = op
        .main_container()
        .map(|c| c.name.as_str())
        .unwrap_or(fc::CONTAINERS[0]);
    let tag = op.image().and_then(image_tag);
    let written = tag.and_then(fc::components);
    let who = format!(
        "operator {}/{} ({})",
        op.namespace,
        op.name(),
        op.image()
            .map(|i| format!("image {i}"))
            .unwrap_or_else(|| "image unknown".into())
    );
    let object = ObjectRef::new("CustomResourceDefinition", None, fc::CRD);
    let served = served_versions(crd);
    // A spotify release names its CRD by the same tag; GoogleCloudPlatform's v1beta1-N tags
    // predate every CRD a current API server accepts (apiextensions.k8s.io/v1beta1).
    let release = tag.filter(|t| written.is_some() && !t.starts_with("v1beta1"));
    let fix = crd_fix(op, container, release);
    if !served.contains(&FLINKCLUSTER_VERSION) {
        return Some(
            Finding::new(
                &META,
                object,
                format!("CRD {} does not serve {FLINKCLUSTER_VERSION}, the version the FlinkCluster operator reads and writes", fc::CRD),
            )
            .severity(Severity::Critical)
            .evidence(format!(
                "{}: served versions {}",
                fc::CRD,
                if served.is_empty() { "none".to_string() } else { served.join(", ") }
            ))
            .evidence(who)
            .fix(fix)
            .verify(format!(
                "kubectl get crd {} -o jsonpath='{{.spec.versions[?(@.served==true)].name}}'   # expect {FLINKCLUSTER_VERSION}",
                fc::CRD
            ))
            .link(install::link(op.namespace)),
        );
    }
    let required = required_components(crd);
    let mut missing: Vec<String> = match written {
        Some(w) => required
            .iter()
            .filter(|r| !w.written.contains(&r.as_str()))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let log = status_rejected_line(s, op, container);
    if missing.is_empty() {
        // An image of unknown version: only its log can tell.
        let (line, fields) = log.as_ref()?;
        missing = fields.clone();
        if missing.is_empty() {
            missing.push(line.clone());
        }
    }
    let fields = missing
        .iter()
        .map(|m| format!("status.components.{m}"))
        .collect::<Vec<_>>()
        .join(", ");
    let title = match tag.filter(|_| written.is_some()) {
        Some(t) => format!(
            "CRD {} requires {fields}, which the operator image {t} never writes: every FlinkCluster status update is rejected",
            fc::CRD
        ),
        None => format!(
            "CRD {} rejects the FlinkCluster operator's status updates: it requires {fields}",
            fc::CRD
        ),
    };
    let mut f = Finding::new(&META, object, title)
        .severity(Severity::Critical)
        .evidence(format!(
            "{}: status.components requires {}",
            fc::CRD,
            if required.is_empty() {
                "nothing".to_string()
            } else {
                required.join(", ")
            }
        ))
        .evidence(match (tag, written) {
            (Some(_), Some(w)) => format!(
                "{who}: releases {} write status.components {}",
                w.releases,
                w.written.join(", ")
            ),
            (Some(t), None) => {
                format!("{who}: tag {t} names no release, so what it writes is unknown")
            }
            _ => who.clone(),
        });
    if let Some((line, _)) = &log {
        f = f.evidence(line.clone());
    }
    let stuck: Vec<String> = s
        .flink_clusters
        .iter()
        .filter(|c| {
            c.status
                .as_ref()
                .and_then(|st| st.state.as_deref())
                .is_none()
        })
        .map(|c| format!("{}/{}", c.namespace(), c.name()))
        .collect();
    if !stuck.is_empty() {
        f = f.evidence(format!(
            "FlinkCluster {}: no status.state (never stored: the operator creates nothing before its status is written)",
            stuck.join(", ")
        ));
    }
    Some(
        f.evidence("the CRD and the operator image come from different releases: the CRD's status schema was generated from the other release's Go types")
            .fix(fix)
            .verify(format!(
                "kubectl get crd {} -o jsonpath='{{.spec.versions[?(@.name==\"v1beta1\")].schema.openAPIV3Schema.properties.status.properties.components.required}}'   # expect none of: {}\n\
                 kubectl get flinkclusters -A   # STATUS filled in at the operator's next reconcile",
                fc::CRD,
                missing.join(", ")
            ))
            .link(install::link(op.namespace)),
    )
}

const DEPLOYMENT_CRD: &str = "flinkdeployments.flink.apache.org";

use super::support::flink_versions::{operator_flink_versions, FLINK_VERSIONS};

/// `spec.flinkVersion`'s enum in the served v1beta1 schema of a CRD.
fn flink_version_enum(crd: &CustomResourceDefinition) -> Option<Vec<String>> {
    let schema = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == VERSION && v.served)?
        .schema
        .as_ref()?
        .open_api_v3_schema
        .as_ref()?;
    let fv = schema
        .properties
        .as_ref()?
        .get("spec")?
        .properties
        .as_ref()?
        .get("flinkVersion")?;
    let values = fv.enum_.as_ref()?;
    Some(
        values
            .iter()
            .filter_map(|v| v.0.as_str().map(str::to_string))
            .collect(),
    )
}

/// The FlinkDeployment CRD's `spec.flinkVersion` enum lacks Flink versions the running operator
/// supports: the CRD is an older release's.
fn flink_version_enum_skew(
    s: &Snapshot,
    op: &install::Operator,
    version: install::Version,
    source: &str,
    (pull, crds): (&str, &str),
    restart: &str,
) -> Option<Finding> {
    let crd = s
        .crds
        .iter()
        .find(|c| c.metadata.name.as_deref() == Some(DEPLOYMENT_CRD))?;
    let known = operator_flink_versions(version)?;
    let listed = flink_version_enum(crd)?;
    let missing: Vec<&str> = known
        .iter()
        .copied()
        .filter(|v| !listed.iter().any(|l| l == v))
        .collect();
    if missing.is_empty() {
        return None;
    }
    // The CRD's release: the newest one whose enum is the CRD's.
    let crd_release = FLINK_VERSIONS
        .iter()
        .rev()
        .find(|(_, v)| v.len() == listed.len() && v.iter().all(|x| listed.iter().any(|l| l == x)))
        .map(|(since, _)| format!(" (the enum of operator releases from {since})"))
        .unwrap_or_default();
    let quoted = missing
        .iter()
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join(", ");
    Some(
        Finding::new(
            &META,
            ObjectRef::new("CustomResourceDefinition", None, DEPLOYMENT_CRD),
            format!(
                "CRD {DEPLOYMENT_CRD} is older than operator {version}: its spec.flinkVersion does not allow {}, so the API server refuses those FlinkDeployments",
                missing.join(", ")
            ),
        )
        .severity(Severity::Critical)
        .evidence(format!(
            "{DEPLOYMENT_CRD}: spec.flinkVersion enum {}{crd_release}",
            listed.join(", ")
        ))
        .evidence(format!(
            "operator {}/{}: {source}; its release supports flinkVersion {}",
            op.namespace,
            op.name(),
            known.join(", ")
        ))
        .evidence(format!(
            "a FlinkDeployment with flinkVersion {} is refused by the API server: `spec.flinkVersion: Unsupported value` (it never reaches the operator, so no object, event or status shows it)",
            missing.join(" or ")
        ))
        .evidence("the CRDs are older than the operator: `helm upgrade` never installs or updates CRDs")
        .fix(format!(
            "Replace the CRDs with those of the operator's chart version {version} (`kubectl replace`: a\n\
             client-side apply of a CRD this large fails on its last-applied annotation), then apply the\n\
             refused FlinkDeployment again:\n\n\
             {pull}\n\
             kubectl replace -f {crds}\n\
             {restart}"
        ))
        .verify(format!(
            "kubectl get crd {DEPLOYMENT_CRD} -o jsonpath='{{.spec.versions[?(@.name==\"{VERSION}\")].schema.openAPIV3Schema.properties.spec.properties.flinkVersion.enum}}'   # expect {quoted} among them"
        ))
        .link(install::link(op.namespace)),
    )
}

/// The versions a CRD serves.
fn served_versions(crd: &CustomResourceDefinition) -> Vec<&str> {
    crd.spec
        .versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.as_str())
        .collect()
}

/// The tag of an image reference (`ghcr.io/spotify/flink-operator:v0.6.0` -> `v0.6.0`).
fn image_tag(image: &str) -> Option<&str> {
    let name = image.split_once('@').map(|(i, _)| i).unwrap_or(image);
    name.rsplit('/').next()?.split_once(':').map(|(_, t)| t)
}

/// `status.components.required` of the CRD's v1beta1 schema.
fn required_components(crd: &CustomResourceDefinition) -> Vec<String> {
    crd.spec
        .versions
        .iter()
        .find(|v| v.name == FLINKCLUSTER_VERSION)
        .and_then(|v| v.schema.as_ref())
        .and_then(|sc| sc.open_api_v3_schema.as_ref())
        .and_then(|root| root.properties.as_ref()?.get("status"))
        .and_then(|st| st.properties.as_ref()?.get("components"))
        .and_then(|c| c.required.clone())
        .unwrap_or_default()
}

/// The operator's log line where the API server refused a FlinkCluster status update, and the
/// `status.components` fields it names as required.
fn status_rejected_line(
    s: &Snapshot,
    op: &install::Operator,
    container: &str,
) -> Option<(String, Vec<String>)> {
    let re = regex::Regex::new(r"status\.components\.(\w+): Required value").ok()?;
    let line = find_log_line(s, op, container, |l| {
        l.contains(".flinkoperator.k8s.io")
            && l.contains("is invalid:")
            && l.contains("status.components.")
    })?;
    let mut fields: Vec<String> = re.captures_iter(&line).map(|c| c[1].to_string()).collect();
    fields.dedup();
    Some((line, fields))
}

/// Replace the CRD with the one of the operator's release (`tag`, a spotify release), else run
/// the pinned release for both. `kubectl replace` (the release's CRD, 465 KB at v0.6.0, is too
/// large for client-side apply's last-applied annotation), with the annotation the release's
/// kustomization adds (config/crd/patches/crd_protection.yaml), without which the API server
/// refuses a `*.k8s.io` CRD. Both pipes were run against kube-apiserver 1.36.
fn crd_fix(op: &install::Operator, container: &str, tag: Option<&str>) -> String {
    let replace = |t: &str| {
        format!(
            "kubectl annotate --local -o yaml --overwrite -f {} \\\n  \
             api-approved.kubernetes.io=unapproved | kubectl replace -f -",
            // The tag is the image's: one shell word with the URL.
            crate::shell::quote(&format!(
                "https://raw.githubusercontent.com/spotify/flink-on-k8s-operator/{t}/{}",
                fc::CRD_PATH
            ))
        )
    };
    match tag {
        Some(t) => format!(
            "Install the CRD of the operator's own release, {t} (`kubectl replace` swaps the whole schema; a\n\
             client-side `kubectl apply` of a CRD this large fails on its last-applied annotation):\n\n{}",
            replace(t)
        ),
        None => format!(
            "Run one release for the CRD and the operator image: {} (an image tag that names no release\n\
             cannot be matched to a CRD):\n\n{}\n\
             kubectl set image deployment/{} -n {} {}={}:{}",
            fc::RELEASE,
            replace(fc::RELEASE),
            op.name(),
            op.namespace,
            // A container's name in the Deployment's spec: one shell word whatever it holds.
            crate::shell::sh(container),
            fc::IMAGE,
            fc::RELEASE
        ),
    }
}

/// The operator container's log line that shows `needle`, if the snapshot has its log.
fn log_line(s: &Snapshot, op: &install::Operator, needle: &str) -> Option<String> {
    find_log_line(s, op, install::OPERATOR_CONTAINER, |l| l.contains(needle))
}

/// The first line of `container`'s log (current, then previous) that `matches`, for evidence.
fn find_log_line(
    s: &Snapshot,
    op: &install::Operator,
    container: &str,
    matches: impl Fn(&str) -> bool,
) -> Option<String> {
    op.pods.iter().find_map(|p| {
        [false, true].into_iter().find_map(|previous| {
            let text = s.log(op.namespace, install::pod_name(p), container, previous)?;
            let (n, line) = text.lines().enumerate().find(|(_, l)| matches(l))?;
            Some(format!(
                "{}/{container} log L{}: {}",
                install::pod_name(p),
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

    /// The healthy installation (operator 1.15.0) with a FlinkDeployment CRD whose
    /// `spec.flinkVersion` enum is ENUM.
    fn with_flink_version_enum(values: &[&str]) -> Snapshot {
        let old = "  versions: [{name: v1beta1, served: true, storage: true}]";
        let yaml = healthy_yaml();
        let at = yaml
            .find("name: flinkdeployments.flink.apache.org")
            .unwrap();
        let end = at + yaml[at..].find(old).unwrap();
        let schema = format!(
            "  versions:\n  - name: v1beta1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              flinkVersion:\n                type: string\n                enum: [{}]",
            values.join(", ")
        );
        load(&format!(
            "{}{}{}",
            &yaml[..end],
            schema,
            &yaml[end + old.len()..]
        ))
    }

    #[test]
    fn fires_when_the_deployment_crd_lacks_flink_versions_the_operator_supports() {
        // Release 1.5.0's enum (apache/flink-kubernetes-operator@release-1.5.0:helm/flink-kubernetes-operator/crds/flinkdeployments.flink.apache.org-v1.yml).
        let s = with_flink_version_enum(&["v1_13", "v1_14", "v1_15", "v1_16", "v1_17"]);
        let f: Vec<_> = run(&CrdVersionMismatch, &s)
            .into_iter()
            .filter(|f| f.object.name == DEPLOYMENT_CRD)
            .collect();
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].title.contains("v1_18"), "{}", f[0].title);
        assert!(f[0].title.contains("operator 1.15.0"), "{}", f[0].title);
        let fix = &f[0].fix;
        assert!(
            fix.contains("helm pull https://archive.apache.org/dist/flink/flink-kubernetes-operator-1.15.0/flink-kubernetes-operator-1.15.0-helm.tgz --untar --untardir /tmp/flink-operator-chart-1.15.0"),
            "{fix}"
        );
        assert!(
            fix.contains(
                "kubectl replace -f /tmp/flink-operator-chart-1.15.0/flink-kubernetes-operator/crds/"
            ),
            "{fix}"
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("releases from 1.4.0")),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn silent_on_the_crd_release_1_15_0_really_ships() {
        // Its Java enum has v2_3 and v2_4, its chart's CRD stops at v2_2: the copy in src/lint/crds
        // is that CRD byte for byte (src/lint/crds/SOURCE.md).
        let crd = include_str!("../lint/crds/flinkdeployments.flink.apache.org-v1.yml");
        let shipped: Vec<&str> = crd
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| {
                (4..=5).contains(&w.len()) && (w.starts_with("v1_") || w.starts_with("v2_"))
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert!(
            shipped.contains(&"v2_2") && !shipped.contains(&"v2_3"),
            "{shipped:?}"
        );
        let s = with_flink_version_enum(&shipped);
        assert!(run(&CrdVersionMismatch, &s)
            .iter()
            .all(|f| f.object.name != DEPLOYMENT_CRD));
    }

    #[test]
    fn silent_when_the_deployment_crd_lists_every_flink_version_of_the_operator() {
        let all = operator_flink_versions(install::Version(1, 15, 0)).unwrap();
        let s = with_flink_version_enum(all);
        assert!(run(&CrdVersionMismatch, &s)
            .iter()
            .all(|f| f.object.name != DEPLOYMENT_CRD));
        // A CRD newer than the operator (more versions) is no skew either.
        assert_eq!(
            operator_flink_versions(install::Version(1, 7, 0))
                .unwrap()
                .last(),
            Some(&"v1_19")
        );
        assert_eq!(operator_flink_versions(install::Version(0, 9, 0)), None);
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
        assert!(f[0]
            .fix
            .contains("flink-kubernetes-operator-1.15.0-helm.tgz --untar"));
        assert!(f[0].fix.contains("kubectl apply --server-side --force-conflicts -f /tmp/flink-operator-chart-1.15.0/flink-kubernetes-operator/crds/"));
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

    /// The FlinkCluster CRD serving `version`, its status.components requiring `required`.
    fn fc_crd(version: &str, required: &str) -> String {
        format!(
            r#"
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: flinkclusters.flinkoperator.k8s.io}}
spec:
  group: flinkoperator.k8s.io
  scope: Namespaced
  names: {{kind: FlinkCluster, plural: flinkclusters}}
  versions:
  - name: {version}
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          status:
            type: object
            required: [components, state]
            properties:
              components:
                type: object
                required: [{required}]"#
        )
    }

    /// The FlinkCluster operator (image `image`) with that CRD; the FlinkCluster has no status
    /// when `stuck`.
    fn fc_install(image: &str, crd: &str, stuck: bool) -> String {
        let mut y = install::testing::flinkcluster_yaml("--enable-leader-election")
            .replace("ghcr.io/spotify/flink-operator:v0.6.0", image);
        if stuck {
            y = y.replace("status:\n  state: Running\n", "");
        }
        y + crd
    }

    const POD: &str = "flink-operator-controller-manager-5b5f5fcd95-hvngf";
    const REJECTED: &str = "2026-11-20T09:30:01.188Z\tERROR\tcontrollers.FlinkCluster\tFailed to update cluster status\t{\"cluster\": \"stream/wc\", \"error\": \"FlinkCluster.flinkoperator.k8s.io \\\"wc\\\" is invalid: [status.components.jobManagerStatefulSet: Required value, status.components.taskManagerStatefulSet: Required value]\"}\n";

    /// The FlinkCluster operator `image` installed with `crd`, its manager logging the refused
    /// status update.
    fn refused_status(image: &str, crd: &str) -> Snapshot {
        with_log(
            load(&fc_install(image, crd, true)),
            "flink-operator-system",
            POD,
            "manager",
            false,
            REJECTED,
        )
    }

    #[test]
    fn flinkcluster_crd_requiring_what_the_image_never_writes() {
        let crd = fc_crd(
            "v1beta1",
            "configMap, jobManagerService, jobManagerStatefulSet, taskManagerStatefulSet",
        );
        let s = refused_status("ghcr.io/spotify/flink-operator:v0.6.0", &crd);
        let f = run(&CrdVersionMismatch, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].object.name, "flinkclusters.flinkoperator.k8s.io");
        assert!(
            f[0].title.contains("status.components.jobManagerStatefulSet, status.components.taskManagerStatefulSet, which the operator image v0.6.0 never writes"),
            "{}",
            f[0].title
        );
        let ev = f[0].evidence.join("\n");
        assert!(
            ev.contains(
                "releases v0.4.2-beta.5 and later write status.components configMap, jobManager,"
            ),
            "{ev}"
        );
        assert!(
            ev.contains("manager log L1: ") && ev.contains("Required value"),
            "{ev}"
        );
        assert!(
            ev.contains("FlinkCluster stream/wc: no status.state"),
            "{ev}"
        );
        assert!(f[0].fix.contains("https://raw.githubusercontent.com/spotify/flink-on-k8s-operator/v0.6.0/config/crd/bases/flinkoperator.k8s.io_flinkclusters.yaml"), "{}", f[0].fix);
        assert!(f[0]
            .fix
            .contains("api-approved.kubernetes.io=unapproved | kubectl replace -f -"));
        assert!(f[0].verify.contains("components.required"));
        assert_eq!(f[0].links, vec![install::link("flink-operator-system")]);

        // The log alone shows it for an image whose tag names no release.
        let s = refused_status("ghcr.io/spotify/flink-operator:latest", &crd);
        let f = run(&CrdVersionMismatch, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("rejects the FlinkCluster operator's status updates: it requires status.components.jobManagerStatefulSet, status.components.taskManagerStatefulSet"), "{}", f[0].title);
        assert!(f[0].fix.contains("/v0.6.0/config/crd/bases/"));
        assert!(f[0].fix.contains("kubectl set image deployment/flink-operator-controller-manager -n flink-operator-system manager=ghcr.io/spotify/flink-operator:v0.6.0"), "{}", f[0].fix);

        // GoogleCloudPlatform's v1beta1-6 writes Deployments; a StatefulSet-era CRD refuses them.
        let f = run(
            &CrdVersionMismatch,
            &load(&fc_install(
                "gcr.io/flink-operator/flink-operator:v1beta1-6",
                &crd,
                true,
            )),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .title
            .contains("which the operator image v1beta1-6 never writes"));
        assert!(f[0].fix.contains("kubectl set image"));
    }

    #[test]
    fn flinkcluster_crd_of_the_image_s_release_is_silent() {
        // v0.6.0's CRD requires no component; StatefulSet-era CRD with a StatefulSet-era image.
        let none = fc_crd("v1beta1", "").replace("\n                required: []", "");
        for (image, crd) in [
            ("ghcr.io/spotify/flink-operator:v0.6.0", none.clone()),
            (
                "ghcr.io/spotify/flink-operator:v0.4.2-beta.4",
                fc_crd(
                    "v1beta1",
                    "configMap, jobManagerService, jobManagerStatefulSet",
                ),
            ),
            (
                "ghcr.io/spotify/flink-operator:v0.1.14",
                fc_crd(
                    "v1beta1",
                    "configMap, jobManagerService, jobManagerStatefulSet, taskManagerStatefulSet",
                ),
            ),
            (
                "ghcr.io/spotify/flink-operator:latest",
                fc_crd(
                    "v1beta1",
                    "configMap, jobManagerService, jobManagerStatefulSet, taskManagerStatefulSet",
                ),
            ),
        ] {
            let s = load(&fc_install(image, &crd, false));
            assert!(crds_read(&s));
            let f = run(&CrdVersionMismatch, &s);
            assert!(f.is_empty(), "{image}: {f:#?}");
        }
        // No CRD at all: crd_missing's.
        assert!(run(
            &CrdVersionMismatch,
            &load(&fc_install(
                "ghcr.io/spotify/flink-operator:v0.6.0",
                "",
                true
            ))
        )
        .is_empty());
    }

    #[test]
    fn flinkcluster_crd_not_serving_v1beta1() {
        let crd = fc_crd("v1alpha1", "configMap");
        let f = run(
            &CrdVersionMismatch,
            &load(&fc_install(
                "ghcr.io/spotify/flink-operator:v0.6.0",
                &crd,
                false,
            )),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("does not serve v1beta1"));
        assert!(f[0].evidence[0].contains("served versions v1alpha1"));
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

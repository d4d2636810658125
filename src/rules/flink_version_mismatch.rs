//! FLK411: the Flink version a resource declares (`spec.flinkVersion`) is not the Flink in its
//! image.
//!
//! Both operators act on the declared version: the Lyft operator picks the Flink REST API and the
//! configuration it injects by `flinkVersion`; the Apache operator picks the configuration file
//! (`config.yaml` from 2.0, `flink-conf.yaml` before), the options it sets and the client it talks
//! to the cluster with. A different Flink inside the image gets the wrong ones. A different major
//! version is critical (the config file format changed), a different minor a warning.
//!
//! The image compared is the one the JobManager runs (its pod, else its Deployment): a resource
//! that was never deployed is left to `kubectl flink lint` (FLK45x), which checks manifests.
//! Only Flink's own images are compared (`flink:1.20`, `apache/flink:1.20.1-java17`, a mirror's
//! `.../flink:2.0`): the tag of an application image (`registry/ledger-flink:2.3.0`) is the
//! application's version, not Flink's.

use super::support::modes::{flink_image_version, flink_version};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Component;
use crate::flink::names::MAIN_CONTAINER;

use crate::snapshot::index::{meta_name, pod_name, Cluster, Index};
use crate::snapshot::Snapshot;

pub struct FlinkVersionMismatch;

static META: RuleMeta = RuleMeta {
    id: "FLK411",
    name: "flink_version_mismatch",
    summary: "`flinkVersion` does not match the Flink inside the image",
    category: Category::FlinkVersionMismatch,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"set flinkVersion to the Flink version inside the image, or use the image of the version you declare"#,
    verify: r#"kubectl get flinkdeployment <name> -o jsonpath='{.spec.flinkVersion} {.spec.image}'   # expect the two to agree"#,
};

impl Rule for FlinkVersionMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        // The running Apache operator's release: a flinkVersion it does not know stops its
        // reconcile, so the fix never proposes one (rules::support::flink_versions).
        let operator = super::support::install::operators(s)
            .into_iter()
            .filter(|o| o.is_apache())
            .find_map(|o| o.version().map(|(v, _)| v));
        for c in index.clusters() {
            let (declared, spec_image, kubectl_kind) =
                match (c.flink_deployment, c.flink_application) {
                    (Some(fd), _) => (
                        fd.spec.flink_version.as_deref(),
                        fd.spec.image.as_deref(),
                        "flinkdeployment",
                    ),
                    (_, Some(a)) => (
                        a.spec.flink_version.as_deref(),
                        a.spec.image.as_deref(),
                        "flinkapplication",
                    ),
                    _ => continue,
                };
            let Some(declared) = declared else { continue };
            // What runs: the JobManager's image (its pod, else its Deployment). A resource that
            // was never deployed is `kubectl flink lint`'s to check.
            let Some((image, running)) = running_image(c) else {
                continue;
            };
            let spell = |maj: u32, min: u32| match kubectl_kind {
                "flinkdeployment" => format!("v{maj}_{min}"),
                _ => format!("{maj}.{min}"),
            };
            if let Some(mut f) = compare(
                c.reference.clone(),
                kubectl_kind,
                declared,
                &image,
                &running,
                spec_image,
                spell,
            ) {
                if kubectl_kind == "flinkdeployment" {
                    f = within_the_operator(f, declared, &image, operator);
                }
                out.push(f);
            }
        }
        out
    }
}

/// The JobManager's main container image and where it was read.
fn running_image(c: &Cluster) -> Option<(String, String)> {
    // (name, image) of each container: a pod's (slim) and a Deployment's template alike.
    let main = |containers: Vec<(&str, Option<&str>)>| {
        containers
            .iter()
            .find(|(name, _)| *name == MAIN_CONTAINER || *name == Component::JobManager.as_str())
            .or_else(|| containers.first())
            .and_then(|(_, image)| image.map(str::to_string))
    };
    if let Some(p) = c.jobmanager_pods.first() {
        let containers = p.spec.as_ref().map(|s| {
            s.containers
                .iter()
                .map(|x| (x.name.as_ref(), x.image.as_deref()))
                .collect()
        });
        if let Some(image) = containers.and_then(main) {
            return Some((image, format!("JobManager pod {} runs", pod_name(p))));
        }
    }
    let d = c.jobmanager_deployments.first()?;
    let image = d.spec.template.spec.as_ref().and_then(|s| {
        main(
            s.containers
                .iter()
                .map(|x| (x.name.as_str(), x.image.as_deref()))
                .collect(),
        )
    })?;
    Some((
        image,
        format!("JobManager Deployment {} runs", meta_name(&d.metadata)),
    ))
}

/// When the running operator knows no flinkVersion for the image's Flink (operator 1.7.0 and
/// flink:1.20 in the lab's canonical-1.20), no version the fix could declare is right: the one the
/// image runs stops the operator's reconcile (the lab's first heal declared v1_20), and another
/// changes the configuration the operator writes (the lab's second heal declared v1_19, the newest
/// 1.7.0 knows, and the JobManager then exited 2). The finding is info and names the field.
fn within_the_operator(
    f: Finding,
    declared: &str,
    image: &str,
    operator: Option<super::support::install::Version>,
) -> Finding {
    let Some(op) = operator else { return f };
    let Some(known) = super::support::flink_versions::operator_flink_versions(op) else {
        return f;
    };
    let Some(have) = flink_image_version(image) else {
        return f;
    };
    let value = format!("v{}_{}", have.0, have.1);
    if known.contains(&value.as_str()) {
        return f;
    }
    let newest = known.last().copied().unwrap_or("?");
    f.evidence(format!(
        "operator {op} knows Flink versions up to {newest}, not {value}"
    ))
    .severity(Severity::Info)
    .fix(format!(
        "Operator {op} knows no {value}, so spec.flinkVersion cannot say what the image runs: keep {declared} \
         (the operator writes the configuration of that version), or upgrade the operator to a release that knows \
         {value} and then declare it, or use an image of the declared version."
    ))
}

fn compare(
    reference: ObjectRef,
    kubectl_kind: &str,
    declared: &str,
    image: &str,
    running: &str,
    spec_image: Option<&str>,
    spell: impl Fn(u32, u32) -> String,
) -> Option<Finding> {
    let want = flink_version(declared)?;
    let have = flink_image_version(image)?;
    if want == have {
        return None;
    }
    let ns = reference.namespace.clone().unwrap_or_default();
    let name = reference.name.clone();
    let value = spell(have.0, have.1);
    let severity = if want.0 != have.0 {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let mut f = Finding::new(
        &META,
        reference.clone(),
        format!(
            "spec.flinkVersion {declared} does not match the Flink {}.{} its image runs ({image})",
            have.0, have.1
        ),
    )
    .severity(severity)
    .deployment(Some(reference))
    .evidence(format!("spec.flinkVersion: {declared}"))
    .evidence(format!("{running} {image} (Flink {}.{})", have.0, have.1));
    if let Some(spec) = spec_image.filter(|i| *i != image) {
        f = f.evidence(format!("spec.image: {spec}"));
    }
    // Shown after `#`: a line break in the image would end the comment.
    let image_now = crate::shell::escape_controls(spec_image.unwrap_or(image));
    Some(
        f.evidence("the operator configures and talks to the cluster by spec.flinkVersion, not by what runs in the image")
            .fix(format!(
                "Declare the version the image runs:\n\n\
                 kubectl patch {kubectl_kind} {name} -n {ns} --type=merge -p '{{\"spec\":{{\"flinkVersion\":\"{value}\"}}}}'\n\n\
                 (or use an image of Flink {}.{} instead)",
                want.0, want.1
            ))
            .verify(format!(
                "kubectl get {kubectl_kind} {name} -n {ns} -o jsonpath='{{.spec.flinkVersion}} {{.spec.image}}{{\"\\n\"}}'   # expect: {value} {image_now}"
            )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, scenario, snapshot, HEALTHY};

    const LYFT: &str = r#"
apiVersion: flink.k8s.io/v1beta1
kind: FlinkApplication
metadata: {name: clicks, namespace: lyft}
spec: {image: "flink:1.11.2-scala_2.12", flinkVersion: "1.8"}
---
apiVersion: v1
kind: Pod
metadata: {name: clicks-2a6f3b1c-jm-5d8f-abcde, namespace: lyft, labels: {flink-app: clicks, flink-deployment-type: jobmanager}}
spec: {containers: [{name: jobmanager, image: "flink:1.11.2-scala_2.12"}]}
"#;

    #[test]
    fn fires_on_a_lyft_application_whose_image_runs_another_flink() {
        let f = run(&FlinkVersionMismatch, &snapshot(LYFT));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].evidence.iter().any(|e| e == "JobManager pod clicks-2a6f3b1c-jm-5d8f-abcde runs flink:1.11.2-scala_2.12 (Flink 1.11)"), "{:?}", f[0].evidence);
        assert!(f[0].fix.contains("kubectl patch flinkapplication clicks -n lyft --type=merge -p '{\"spec\":{\"flinkVersion\":\"1.11\"}}'"), "{}", f[0].fix);
        assert!(run(
            &FlinkVersionMismatch,
            &snapshot(&LYFT.replace("\"1.8\"", "\"1.11\""))
        )
        .is_empty());
    }

    #[test]
    fn a_major_version_apart_is_critical_for_a_flink_deployment() {
        let y = HEALTHY
            .replace(
                "image: flink:1.20\n  flinkVersion: v1_20",
                "image: flink:2.0.0-java17\n  flinkVersion: v1_20",
            )
            .replace("image: flink:1.20\n", "image: flink:2.0.0-java17\n");
        let f = run(&FlinkVersionMismatch, &snapshot(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].fix.contains("\"flinkVersion\":\"v2_0\""));
        assert!(run(&FlinkVersionMismatch, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn resources_never_deployed_and_application_images_are_left_alone() {
        let manifest_only = LYFT.split("---").next().unwrap();
        assert!(
            run(&FlinkVersionMismatch, &snapshot(manifest_only)).is_empty(),
            "lint's to check"
        );
        let y = HEALTHY.replace(
            "image: flink:1.20",
            "image: registry.example.com/data/ledger-flink:2.3.0",
        );
        assert!(run(&FlinkVersionMismatch, &snapshot(&y)).is_empty());
    }

    #[test]
    fn a_version_the_running_operator_does_not_know_is_never_proposed() {
        // The lab's canonical-1.20: operator 1.7.0, flink:1.20, flinkVersion v1_18.
        let f = run(&FlinkVersionMismatch, &scenario("real-canonical-1.20"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(!f[0].fix.contains("kubectl patch"), "{}", f[0].fix);
        assert!(f[0].fix.contains("keep v1_18"), "{}", f[0].fix);
        assert_eq!(f[0].severity, Severity::Info);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("operator 1.7.0 knows Flink versions up to")),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::HEALTHY_SCENARIOS;
        assert_eq!(
            run(&FlinkVersionMismatch, &scenario("mode-lyft-deploy-failed")).len(),
            1
        );
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(
                run(&FlinkVersionMismatch, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

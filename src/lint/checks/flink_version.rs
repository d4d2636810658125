//! FLK454 / FLK455: `spec.flinkVersion`.
//!
//! FLK454 (flink_version_unsupported): missing (the validator's "Flink Version must be defined.")
//! or a value the CRD's enum does not accept (`1.20`, `v1_12`, a version newer than the installed
//! operator knows). The enum is read from the embedded CRD, so it follows the CRD files. The
//! schema check leaves this field to FLK454, which can say what was meant.
//!
//! FLK455 (flink_version_mismatch): the image is the stock Flink image (`flink:1.17`,
//! `apache/flink:1.20.1-java17`) and its tag names another version than `flinkVersion`. The
//! operator then configures the cluster for the wrong Flink (config file name, option keys).

use super::{Check, Hit};
use crate::finding::{Category, Severity};
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::schema::{self, OPERATOR_RELEASE};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static UNSUPPORTED: Check = Check {
    meta: RuleMeta {
        id: "FLK454",
        name: "flink_version_unsupported",
        summary: "spec.flinkVersion is missing or not a value the FlinkDeployment CRD accepts.",
        category: Category::FlinkVersionUnsupported,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"set spec.flinkVersion to a value the CRD accepts (v1_20, v1_19 ...), the version inside the image"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK454"#,
    },
    help: "The operator needs spec.flinkVersion to build the cluster's configuration: without it the validator \
rejects the resource (\"Flink Version must be defined.\"), and a value outside the CRD's enum (v1_13 ... v2_2 for \
operator 1.15.0, written with an underscore) is refused by the API server. Use the enum value of the Flink version \
inside the image, e.g. v1_20 for flink:1.20.",
    run: unsupported,
};

pub static IMAGE_MISMATCH: Check = Check {
    meta: RuleMeta {
        id: "FLK455",
        name: "flink_version_image_mismatch",
        summary: "spec.flinkVersion names another Flink version than the stock image's tag.",
        category: Category::FlinkVersionMismatch,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"set spec.flinkVersion to the version of the image's tag, or use the image of the version you declare"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK455"#,
    },
    help: "The operator configures the cluster for spec.flinkVersion (config file name, option keys, features), \
while the image runs the Flink of its tag. When they differ the JobManager can fail on options it does not know \
or ignore ones it needs. Make flinkVersion match the image.",
    run: image_mismatch,
};

fn unsupported(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment {
        return Vec::new();
    }
    let allowed = schema::enum_values("FlinkDeployment", "spec.flinkVersion");
    let image = m.str_at("spec.image");
    let guess = image.and_then(image_version);
    match m.get("spec.flinkVersion") {
        None => {
            let value = guess
                .clone()
                .filter(|g| allowed.contains(g))
                .unwrap_or_else(|| "v1_20".into());
            vec![Hit::path(
                "spec",
                "spec.flinkVersion is not set",
                "spec.flinkVersion is not set: the operator rejects the FlinkDeployment",
            )
            .evidence("the operator's validator: Flink Version must be defined.")
            .evidence(format!(
                "the CRD of operator {OPERATOR_RELEASE} accepts: {}",
                allowed.join(", ")
            ))
            .fix(format!(
                "Set the Flink version of the image{}:\n\nspec:\n  flinkVersion: {value}",
                image
                    .map(|i| format!(" ({})", crate::shell::escape_controls(i)))
                    .unwrap_or_default()
            ))
            .verify(verify(m))]
        }
        // A wrong type is the schema check's (FLK471) to report.
        Some(serde_json::Value::String(v)) if !allowed.is_empty() && !allowed.contains(v) => {
            let meant = normalise(v).filter(|n| allowed.contains(n));
            let v = &crate::shell::escape_controls(v);
            let mut hit = Hit::path(
                "spec.flinkVersion",
                format!("spec.flinkVersion: {v}"),
                match &meant {
                    Some(n) => format!("flinkVersion `{v}` is not a value the CRD accepts: write `{n}`"),
                    None => format!("Flink version `{v}` is not supported by the FlinkDeployment CRD of operator {OPERATOR_RELEASE}"),
                },
            )
            .evidence(format!("the CRD of operator {OPERATOR_RELEASE} accepts: {}", allowed.join(", ")))
            .verify(verify(m));
            if meant.is_none() {
                hit = hit.evidence("the API server refuses the resource: spec.flinkVersion must be one of the values above");
            }
            let value = meant.or(guess.filter(|g| allowed.contains(g)));
            vec![hit.fix(match value {
                Some(n) => format!("spec:\n  flinkVersion: {n}   # was: {v}"),
                None => format!(
                    "Use a Flink version this operator supports ({}), with an image of that version, or install an operator \
                     release that supports {v}.",
                    allowed.join(", ")
                ),
            })]
        }
        _ => Vec::new(),
    }
}

fn image_mismatch(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment {
        return Vec::new();
    }
    let (Some(image), Some(version)) = (m.str_at("spec.image"), m.str_at("spec.flinkVersion"))
    else {
        return Vec::new();
    };
    let Some(from_image) = image_version(image) else {
        return Vec::new();
    };
    if from_image == version
        || !schema::enum_values("FlinkDeployment", "spec.flinkVersion")
            .contains(&version.to_string())
    {
        return Vec::new();
    }
    vec![Hit::path(
        "spec.flinkVersion",
        format!("spec.flinkVersion: {version}"),
        format!("flinkVersion `{version}` does not match the image {image}, which runs Flink {}", from_image.trim_start_matches('v').replace('_', ".")),
    )
    .evidence(format!("spec.image: {image} (line {})", m.line(&crate::lint::locate::Path::parse("spec.image"))))
    .evidence("the operator configures the cluster for flinkVersion; the image runs the Flink of its tag")
    .fix(format!(
        "Make them agree, either\n\nspec:\n  flinkVersion: {from_image}   # the image's Flink\n\nor an image of {version}: flink:{}",
        version.trim_start_matches('v').replace('_', ".")
    ))
    .verify(verify(m))]
}

fn verify(m: &Manifest) -> String {
    format!(
        "kubectl get flinkdeployment {}{} -o jsonpath='{{.spec.flinkVersion}} {{.status.error}}'   # after apply: the version, no UnsupportedFlinkVersion/ValidationError",
        crate::shell::sh(&m.name),
        m.ns_flag()
    )
}

/// `1.20`, `v1.20`, `1_20`, `V1_20`, `1.20.1` -> `v1_20`.
fn normalise(v: &str) -> Option<String> {
    let v = v.trim().trim_start_matches(['v', 'V']);
    let mut parts = v.split(['.', '_', '-']);
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    Some(format!("v{major}_{minor}"))
}

/// The Flink version of a stock Flink image (`flink:1.20`, `apache/flink:1.20.1-scala_2.12-java17`,
/// `docker.io/library/flink:2.0`), as the enum writes it. Custom images (`myorg/flink-job:3.1`)
/// carry their own version scheme and say nothing.
pub fn image_version(image: &str) -> Option<String> {
    let image = image.split('@').next()?;
    let (repo, tag) = match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, t),
        _ => return None,
    };
    if repo.rsplit('/').next()? != "flink" {
        return None;
    }
    let mut parts = tag.split(['.', '-', '_']);
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    Some(format!("v{major}_{minor}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn missing_and_misspelt_versions() {
        let h = hits(&UNSUPPORTED, &BASIC.replace("  flinkVersion: v1_20\n", ""));
        assert_eq!(h.len(), 1);
        assert!(h[0].evidence[0].contains("Flink Version must be defined."));
        assert!(h[0].fix.contains("flinkVersion: v1_20"), "{}", h[0].fix);
        let h = hits(
            &UNSUPPORTED,
            &BASIC.replace("flinkVersion: v1_20", "flinkVersion: \"1.20\""),
        );
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].title,
            "flinkVersion `1.20` is not a value the CRD accepts: write `v1_20`"
        );
        let h = hits(
            &UNSUPPORTED,
            &BASIC.replace("flinkVersion: v1_20", "flinkVersion: v1_12"),
        );
        assert!(h[0].title.contains("not supported"), "{}", h[0].title);
        assert!(hits(&UNSUPPORTED, BASIC).is_empty());
    }

    #[test]
    fn image_tags() {
        assert_eq!(image_version("flink:1.20").as_deref(), Some("v1_20"));
        assert_eq!(
            image_version("apache/flink:1.19.1-scala_2.12-java17").as_deref(),
            Some("v1_19")
        );
        assert_eq!(
            image_version("registry:5000/library/flink:2.0").as_deref(),
            Some("v2_0")
        );
        assert_eq!(image_version("myorg/flink-job:3.1"), None);
        assert_eq!(image_version("flink"), None);
        let h = hits(
            &IMAGE_MISMATCH,
            &BASIC.replace("image: flink:1.20", "image: flink:1.17"),
        );
        assert_eq!(h.len(), 1);
        assert!(h[0].title.contains("runs Flink 1.17"), "{}", h[0].title);
        assert!(hits(&IMAGE_MISMATCH, BASIC).is_empty());
    }
}

//! FLK470 / FLK471: FlinkDeployment and FlinkSessionJob against the operator's real CRD schemas,
//! FlinkCluster against the GCP/Spotify operator's (embedded, see `../schema.rs`): unknown fields,
//! wrong types, values outside an enum, missing required fields.
//!
//! Categories, by where the violation is:
//! - under a `podTemplate`: `podtemplate_invalid` (the template cannot be used as written);
//! - `spec.flinkVersion`: `flink_version_unsupported` (its enum is FLK454's to report; a wrong
//!   type lands here);
//! - `spec.*.resource.memory`: `memory_config_invalid` (Flink's memory cannot be read);
//! - anything else: `crd_version_mismatch`, "the submitted resource disagrees with the installed
//!   CRD's schema", which is what an unknown field or a wrong type is, often because the manifest
//!   was written for another operator release.
//!
//! Severity: an unknown field is a warning (strict field validation, kubectl's default, refuses
//! the resource; other clients have it dropped silently); a wrong type or enum value is critical
//! (the API server refuses the resource).

use super::{At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::lint::locate::{Path, Seg};
use crate::lint::manifest::{show, Kind, Manifest};
use crate::lint::schema::{self, Problem, Violation};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static UNKNOWN_FIELD: Check = Check {
    meta: RuleMeta {
        id: "FLK470",
        name: "schema_unknown_field",
        summary: "A field that the operator's CRD schema does not have (a typo, or a field of another operator release).",
        category: Category::CrdVersionMismatch,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"correct the field's name or indentation to the CRD's schema (lint names the nearest field), or install the CRD of the operator release that has it"#,
        verify: r#"kubectl apply --dry-run=server -f flinkdeployment.yaml   # expect no unknown field"#,
    },
    help: "The API server validates Flink resources against the installed CRD. A field the schema does not list is \
refused by kubectl's strict field validation (the default) or silently dropped by other clients, so the setting \
never reaches the operator. Check the spelling (the finding suggests the closest field) and the operator release \
the manifest was written for.",
    run: unknown_fields,
};

pub static INVALID_VALUE: Check = Check {
    meta: RuleMeta {
        id: "FLK471",
        name: "schema_invalid_value",
        summary: "A value of the wrong type or outside an enum of the operator's CRD schema (the API server refuses the resource).",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"give the field a value of the type, or one of the values, the CRD's schema allows"#,
        verify: r#"kubectl apply --dry-run=server -f flinkdeployment.yaml   # expect no validation error"#,
    },
    help: "The API server refuses a Flink resource whose fields do not match the CRD's types (a number where a \
string is expected, as in resource.memory: 2048 instead of \"2048m\") or enums (upgradeMode, state, mode). Quote \
strings, write integers without quotes, and use the enum's exact spelling.",
    run: invalid_values,
};

fn violations(m: &Manifest) -> Vec<Violation> {
    if !matches!(
        m.kind,
        Kind::FlinkDeployment | Kind::FlinkSessionJob | Kind::FlinkCluster
    ) {
        return Vec::new();
    }
    let Some(s) = schema::schema_of(&m.kind_name) else {
        return Vec::new();
    };
    schema::validate_object(s, m.value)
        .into_iter()
        // FLK454 reports a flinkVersion outside the enum, with what was meant.
        .filter(|v| {
            !(m.kind == Kind::FlinkDeployment
                && v.path.to_string() == "spec.flinkVersion"
                && matches!(v.problem, Problem::NotInEnum { .. }))
        })
        .collect()
}

/// The category for a violation at a path (see the module comment).
pub fn category_at(path: &Path) -> Category {
    let text = path.to_string();
    if path.contains_key("podTemplate") {
        Category::PodtemplateInvalid
    } else if text == "spec.flinkVersion" {
        Category::FlinkVersionUnsupported
    } else if text.ends_with(".resource.memory") {
        Category::MemoryConfigInvalid
    } else {
        Category::CrdVersionMismatch
    }
}

fn unknown_fields(m: &Manifest, _: &Lint) -> Vec<Hit> {
    let release = schema::release_of(&m.kind_name);
    violations(m)
        .into_iter()
        .filter_map(|v| {
            let Problem::UnknownField { known } = &v.problem else { return None };
            let field = v.path.last_key().unwrap_or("");
            let parent = Path(v.path.0[..v.path.0.len().saturating_sub(1)].to_vec());
            // `resources` next to `resource` is a field of the next operator release, not a typo.
            let newer = m.kind == Kind::FlinkDeployment
                && field == "resources"
                && matches!(parent.0.last(), Some(Seg::Key(k)) if k == "jobManager" || k == "taskManager");
            let suggestion = if newer { None } else { schema::suggest(field, known) };
            let place = if parent.0.is_empty() { m.kind_name.clone() } else { format!("{parent}") };
            let mut title = format!("`{field}` is not a field of {place} in the {} CRD of operator {release}", m.kind_name);
            if let Some(s) = suggestion {
                title.push_str(&format!(": did you mean `{s}`?"));
            }
            let mut hit = Hit::new(At::Path(v.path.clone()), format!("{}: unknown field", v.path), title)
                .category(category_at(&v.path))
                .evidence("kubectl apply (strict field validation, the default) refuses the resource; clients that do not ask for it have the field dropped silently, so the setting never takes effect");
            if !known.is_empty() {
                hit = hit.evidence(format!("fields of {place}: {}", abbreviate(known)));
            }
            let value = v.value.as_ref().map(show).unwrap_or_default();
            let fix = if newer {
                hit = hit.evidence(format!(
                    "{place}.resources (Kubernetes ResourceRequirements) was added after 1.15.0 (FLINK-33548, on the operator's main branch for 1.16); the 1.15.0 CRD sizes the process with {place}.resource"
                ));
                let memory = v.value.as_ref().and_then(|r| r.pointer("/limits/memory").or_else(|| r.pointer("/requests/memory")));
                let cpu = v.value.as_ref().and_then(|r| r.pointer("/limits/cpu").or_else(|| r.pointer("/requests/cpu")));
                format!(
                    "With operator {release}, size the process with `resource` (Flink sets the container's requests and limits from it):\n\n\
                     {}:\n  resource:\n    memory: \"{}\"\n    cpu: {}\n\nor install a later operator release whose CRD has `resources`.",
                    parent.last_key().unwrap_or("jobManager"),
                    memory.map(show).unwrap_or_else(|| "2048m".into()),
                    cpu.map(show).unwrap_or_else(|| "1".into()),
                )
            } else {
                match suggestion {
                    Some(s) => format!("Rename `{field}` to `{s}` in {place} (value: {value})."),
                    None => format!("Remove `{field}` from {place}, or install the operator release whose CRD has it."),
                }
            };
            Some(hit.fix(fix).verify(verify(m)))
        })
        .collect()
}

fn invalid_values(m: &Manifest, _: &Lint) -> Vec<Hit> {
    let release = schema::release_of(&m.kind_name);
    violations(m)
        .into_iter()
        .filter_map(|v| {
            let path = v.path.to_string();
            let field = v.path.last_key().unwrap_or("").to_string();
            let value = v.value.as_ref().map(show).unwrap_or_default();
            let (what, title, fix) = match &v.problem {
                Problem::UnknownField { .. } => return None,
                Problem::WrongType { expected, got } => (
                    format!("{path}: expected {expected}, got {got}"),
                    format!("{path} must be {}: the API server refuses the {}", article(expected), m.kind_name),
                    retyped(&field, expected, v.value.as_ref()),
                ),
                Problem::NotInEnum { allowed } => {
                    let allowed_text = allowed.join(", ");
                    let meant = schema::suggest(&value.replace('_', "-"), allowed).or_else(|| schema::suggest(&value, allowed));
                    (
                        format!("{path}: {value} is not one of {allowed_text}"),
                        format!("{path} `{value}` is not a value the CRD accepts ({allowed_text})"),
                        match meant {
                            Some(s) => format!("{field}: {s}   # was: {value}"),
                            None => format!("Use one of: {allowed_text}"),
                        },
                    )
                }
                Problem::Missing => (
                    format!("{path}: required"),
                    format!("{path} is required by the CRD"),
                    format!("Add {path}."),
                ),
            };
            Some(
                Hit::new(At::Path(v.path.clone()), what, title)
                    .category(category_at(&v.path))
                    .evidence(format!("the API server validates {} against the CRD of operator {release} and refuses this value", m.kind_name))
                    .fix(fix)
                    .verify(verify(m)),
            )
        })
        .collect()
}

/// The field rewritten with the expected type.
fn retyped(field: &str, expected: &str, value: Option<&serde_json::Value>) -> String {
    let shown = value.map(show).unwrap_or_default();
    match (expected, value) {
        ("string", Some(v)) if field == "memory" && (v.is_number()) => {
            format!("{field}: \"{shown}m\"   # a string with a unit (Flink reads a bare number as bytes); was: {shown}")
        }
        ("string", Some(_)) => format!("{field}: \"{shown}\"   # quoted, a string"),
        ("integer" | "number", Some(serde_json::Value::String(s)))
            if s.trim().parse::<f64>().is_ok() =>
        {
            format!("{field}: {}   # a number, no quotes", s.trim())
        }
        _ => format!("Write {field} as {}.", article(expected)),
    }
}

fn article(t: &str) -> String {
    match t {
        "integer" | "object" | "array" | "integer or string" => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

fn abbreviate(known: &[String]) -> String {
    const SHOWN: usize = 14;
    if known.len() <= SHOWN {
        known.join(", ")
    } else {
        format!(
            "{}, ... ({} more)",
            known[..SHOWN].join(", "),
            known.len() - SHOWN
        )
    }
}

fn verify(m: &Manifest) -> String {
    format!(
        "kubectl apply --dry-run=server --validate=strict -f {}   # expect: configured/created, no error",
        if m.file == crate::lint::source::STDIN { "-" } else { m.file }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn the_operators_example_is_schema_clean() {
        assert!(hits(&UNKNOWN_FIELD, BASIC).is_empty());
        assert!(hits(&INVALID_VALUE, BASIC).is_empty());
    }

    #[test]
    fn memory_as_a_number() {
        let h = hits(
            &INVALID_VALUE,
            &BASIC.replacen("memory: \"2048m\"", "memory: 2048", 1),
        );
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.jobManager.resource.memory: expected string, got integer"
        );
        assert_eq!(h[0].category, Some(Category::MemoryConfigInvalid));
        assert!(h[0].fix.contains("memory: \"2048m\""), "{}", h[0].fix);
    }

    #[test]
    fn typos_and_enums() {
        let yaml = BASIC
            .replace("serviceAccount: flink", "serviceAcount: flink")
            .replace("upgradeMode: stateless", "upgradeMode: last_state");
        let h = hits(&UNKNOWN_FIELD, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].what, "spec.serviceAcount: unknown field");
        assert!(
            h[0].title.ends_with("did you mean `serviceAccount`?"),
            "{}",
            h[0].title
        );
        assert_eq!(h[0].category, Some(Category::CrdVersionMismatch));
        let h = hits(&INVALID_VALUE, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.job.upgradeMode: last_state is not one of last-state, savepoint, stateless"
        );
        assert!(
            h[0].fix.starts_with("upgradeMode: last-state"),
            "{}",
            h[0].fix
        );
    }

    #[test]
    fn pod_template_violations_are_podtemplate_invalid() {
        let yaml = BASIC.replace(
            "  job:\n",
            "  podTemplate:\n    spec:\n      containers:\n        - name: flink-main-container\n          volumeMount:\n            - {name: x, mountPath: /x}\n  job:\n",
        );
        let h = hits(&UNKNOWN_FIELD, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].category, Some(Category::PodtemplateInvalid));
        assert!(
            h[0].title.contains("did you mean `volumeMounts`"),
            "{}",
            h[0].title
        );
    }

    #[test]
    fn flink_version_enum_is_left_to_flk454() {
        let yaml = BASIC.replace("flinkVersion: v1_20", "flinkVersion: \"1.20\"");
        assert!(hits(&INVALID_VALUE, &yaml).is_empty());
        let yaml = BASIC.replace("flinkVersion: v1_20", "flinkVersion: 1.20");
        let h = hits(&INVALID_VALUE, &yaml);
        assert_eq!(h[0].category, Some(Category::FlinkVersionUnsupported));
    }
}

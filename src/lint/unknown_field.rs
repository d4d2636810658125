//! "unknown field" is printed for several causes: the installed CRD is older than the resource
//! (or the operator), a key is misspelt, or the YAML's indentation put a key under the wrong
//! parent. The API server's message names only the field, so the reading is decided by the
//! newest CRD schemas lint embeds (crds/SOURCE.md): where that schema has the field, the
//! installed CRD is older; where a known field is a letter or two away, a typo; where a field of
//! that name sits at another level, the indentation; else none of them is sure, and the finding
//! says so with its alternatives.

use super::locate::{Path, Seg};
use super::schema::{node_at, release_of, schema_of, suggest};
use crate::finding::Finding;
use crate::signatures::reader::Fields;
use serde_json::Value;

/// What the newest embedded CRD says of an unknown field.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// The newest CRD defines the field there: the installed CRD is older.
    InNewerCrd,
    /// A field of the same parent is this close (`resources` for `resource`).
    Typo(String),
    /// A field of that name is defined under these other parents.
    Misplaced(Vec<String>),
    /// No field of that name anywhere in the schema.
    Undefined,
}

/// Reads `path` (from the object's root: `spec.jobManager.resources`) against `kind`'s newest
/// embedded CRD; None for a kind lint has no CRD of, or a path outside its schema's reach.
pub fn read(kind: &str, path: &str) -> Option<Reading> {
    let schema = schema_of(kind)?;
    let full = Path::parse(path);
    if node_at(schema, &full).is_some() {
        return Some(Reading::InNewerCrd);
    }
    let (Some(Seg::Key(name)), parent) = (full.0.last(), Path(full.0[..full.0.len() - 1].to_vec()))
    else {
        return None;
    };
    // A parent that keeps unknown fields (a pod template) cannot print "unknown field".
    let parent_node = node_at(schema, &parent)?;
    let known: Vec<String> = parent_node
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(s) = suggest(name, &known) {
        return Some(Reading::Typo(s.to_string()));
    }
    let mut elsewhere = Vec::new();
    named(schema, name, &mut Vec::new(), &mut elsewhere);
    Some(if elsewhere.is_empty() {
        Reading::Undefined
    } else {
        Reading::Misplaced(elsewhere)
    })
}

/// The parents (dotted paths) under which `schema` defines a field `name`, shallowest first.
fn named(node: &Value, name: &str, at: &mut Vec<String>, out: &mut Vec<String>) {
    if at.len() > 8 || out.len() >= 4 {
        return;
    }
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        if props.contains_key(name) {
            out.push(at.join("."));
        }
        for (k, v) in props {
            at.push(k.clone());
            named(v, name, at, out);
            at.pop();
        }
    }
    if let Some(items) = node.get("items") {
        named(items, name, at, out);
    }
}

/// The signature whose findings this decides.
const SIGNATURE: &str = "SIG-CRD-UNKNOWN-FIELD";

/// Each "unknown field" finding of a text, decided by the schema: its title and the head of its
/// fix say which cause the field's name points to, with the others as alternatives.
pub fn decide(findings: &mut [Finding], fields: &Fields) {
    for f in findings.iter_mut().filter(|f| f.rule == SIGNATURE) {
        let Some(fl) = fields.get(&f.id) else {
            continue;
        };
        let (Some(kind), Some(field)) = (fl.get("kind"), fl.get("field")) else {
            continue;
        };
        // kubectl's client-side validation names the parent apart (`FlinkDeployment.spec.jobManager`).
        let path = match fl.get("parent").map(|p| p.trim_start_matches('.')) {
            Some(p) if !p.is_empty() => format!("{p}.{field}"),
            _ => field.clone(),
        };
        let Some(reading) = read(kind, &path) else {
            continue;
        };
        let release = release_of(kind);
        let (title, head) = match &reading {
            Reading::InNewerCrd => (
                None,
                format!("The {kind} CRD of operator {release} defines `{path}`: the installed CRD is older than the resource."),
            ),
            Reading::Typo(s) => (
                Some(format!("{kind} has no field {path}: `{s}` is the field of that name")),
                format!("No {kind} CRD up to operator {release} defines `{path}`; `{s}` is a field of the same parent: the key is misspelt, rename it to `{s}`. Only if the resource comes from a newer operator than {release} is this the CRD being older:"),
            ),
            Reading::Misplaced(parents) => {
                let at: Vec<String> = parents
                    .iter()
                    .map(|p| if p.is_empty() { "the top level".to_string() } else { format!("`{p}`") })
                    .collect();
                let name = path.rsplit('.').next().unwrap_or(&path);
                (
                    Some(format!("{kind} has no field {path}: `{name}` belongs under {}", at.join(" or "))),
                    format!("No {kind} CRD up to operator {release} defines `{path}`, but `{name}` is a field under {}: the YAML's indentation put it under the wrong parent; indent it where it belongs. Only if the resource comes from a newer operator than {release} is this the CRD being older:", at.join(" or ")),
                )
            }
            Reading::Undefined => (
                None,
                format!("No {kind} CRD up to operator {release} defines a field named like `{path}`: either the resource comes from a newer operator than the installed CRD, or the key is not one of {kind}'s (misspelt, or from another resource's YAML); `kubectl explain` below lists what the installed CRD takes."),
            ),
        };
        if let Some(t) = title {
            f.title = t;
        }
        f.fix = format!("{head}\n\n{}", f.fix);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_crd_tells_the_causes_apart() {
        // Defined in 1.15.0's CRD: the installed one is older.
        assert_eq!(
            read("FlinkDeployment", "spec.job.upgradeMode"),
            Some(Reading::InNewerCrd)
        );
        // `resource` is JobManagerSpec's field: `resources` is a typo.
        assert_eq!(
            read("FlinkDeployment", "spec.jobManager.resources"),
            Some(Reading::Typo("resource".into()))
        );
        // `upgradeMode` lives under spec.job: put at spec's level, it is misindented.
        assert_eq!(
            read("FlinkDeployment", "spec.upgradeMode"),
            Some(Reading::Misplaced(vec!["spec.job".into()]))
        );
        assert_eq!(
            read("FlinkDeployment", "spec.zzzNothing"),
            Some(Reading::Undefined)
        );
        assert_eq!(read("Deployment", "spec.replicas"), None);
    }

    /// Triage reads the same phrase three ways, by the field it names.
    #[test]
    fn triage_reports_the_cause_the_field_points_to_with_its_alternatives() {
        let triage = |field: &str| {
            let text = format!(
                r#"Error from server (BadRequest): error when creating "orders.yaml": FlinkDeployment in version "v1beta1" cannot be handled as a FlinkDeployment: strict decoding error: unknown field "{field}""#
            );
            let o = crate::commands::triage::triage_text(&text, "t");
            let f = o.report.findings[0].clone();
            assert_eq!(f.rule, SIGNATURE);
            (f.title, f.fix)
        };
        let (title, fix) = triage("spec.upgradeMode");
        assert!(
            title.contains("`upgradeMode` belongs under `spec.job`"),
            "{title}"
        );
        assert!(
            fix.contains("indentation") && fix.contains("upgrade the CRDs"),
            "{fix}"
        );
        let (title, fix) = triage("spec.jobManager.resources");
        assert!(title.contains("`resource` is the field"), "{title}");
        assert!(
            fix.contains("misspelt") && fix.contains("upgrade the CRDs"),
            "{fix}"
        );
        let (_, fix) = triage("spec.job.upgradeMode");
        assert!(
            fix.starts_with("The FlinkDeployment CRD of operator"),
            "{fix}"
        );
        // kubectl's client-side form names the parent apart.
        let text = r#"error: error validating "orders.yaml": error validating data: ValidationError(FlinkDeployment.spec.jobManager): unknown field "resources" in org.apache.flink.v1beta1.FlinkDeployment.spec.jobManager; if you choose to ignore these errors, turn validation off with --validate=false"#;
        let o = crate::commands::triage::triage_text(text, "t");
        assert!(
            o.report.findings[0].title.contains("`resource`"),
            "{:?}",
            o.report.findings[0]
        );
    }
}

//! JSON: `{"version": 1, "findings": [...]}`, findings in rank order (each root cause followed by
//! the symptoms it explains). A public contract: the shape is spelled out here, field by field,
//! instead of following whatever `Finding` grows. Every field is always present (`null` or `[]`
//! when empty) and named in camelCase. Adding a field is compatible; renaming or removing one
//! needs a new `version`.
//!
//! ```json
//! {"version": 1, "findings": [{
//!   "id": "FLK101/FlinkDeployment/analytics/orders#4738c680",
//!   "rule": "FLK101", "category": "main_container_misnamed",
//!   "severity": "critical",            // critical | warning | info
//!   "layer": "spec",                   // taxonomy layer, in causal order
//!   "title": "...",
//!   "object": {"kind": "FlinkDeployment", "namespace": "analytics", "name": "orders"},
//!   "deployment": {"kind": ..., "namespace": ..., "name": ...} | null,
//!   "evidence": ["..."], "fix": "...", "verify": "...",
//!   "causedBy": null | "<id of the finding that explains this one>",
//!   "count": 1, "also": [{"kind": ..., "namespace": ..., "name": ...}],
//!   "docs": "https://github.com/kubectl-flink/kubectl-flink/blob/main/docs/rules.md#flk101"
//! }]}
//! ```
//!
//! `doctor` without NAME adds a top-level `clusters` array (render::clusters), and a
//! `probableOperators` array (`kind`, `namespace`, `name`, `operator`, `describe`, `why`) when
//! something is probably an operator although nothing of its own says so. `doctor --context
//! a,b` and `--all-contexts` (render::fleet) keep these fields and add a `context` to every finding
//! and every cluster, and the arrays `contexts` and `fleet`: compatible additions, so `version`
//! stays 1, and a single context's output does not change.

use crate::finding::{Category, Finding, Layer, ObjectRef, Remedy, Severity};
use crate::rank::Report;
use serde::Serialize;
use std::io::{self, Write};

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &JsonReport::from(report))?;
    writeln!(out)
}

#[derive(Serialize)]
pub struct JsonReport<'a> {
    pub version: u32,
    pub findings: JsonFindings<'a>,
}

/// The findings, each drawn as a [`JsonFinding`] when it is written and dropped after: all of them
/// at once held a `Remedy` (the fix's YAML documents again) per finding, which at 10,000 FLK502
/// findings was 30 MB more than the report itself.
pub struct JsonFindings<'a>(pub &'a [Finding]);

impl Serialize for JsonFindings<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(JsonFinding::from))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonFinding<'a> {
    pub id: &'a str,
    pub rule: &'a str,
    pub category: Category,
    pub severity: Severity,
    pub layer: Layer,
    pub title: &'a str,
    pub object: JsonObject<'a>,
    pub deployment: Option<JsonObject<'a>>,
    pub evidence: &'a [String],
    pub fix: &'a str,
    /// The fix as data: YAML documents to apply, commands to run.
    #[serde(skip_serializing_if = "Remedy::is_empty")]
    pub remedy: Remedy,
    pub verify: &'a str,
    pub caused_by: Option<&'a str>,
    pub count: usize,
    pub also: Vec<JsonObject<'a>>,
    /// What the rule checks, as `kubectl flink explain RULE` prints it: its section of
    /// docs/rules.md in the repository.
    pub docs: String,
}

/// An object as `kubectl get KIND NAME -n NAMESPACE` finds it; `namespace` is null when the
/// object is cluster-scoped.
#[derive(Serialize)]
pub struct JsonObject<'a> {
    pub kind: &'a str,
    pub namespace: Option<&'a str>,
    pub name: &'a str,
}

impl<'a> From<&'a ObjectRef> for JsonObject<'a> {
    fn from(o: &'a ObjectRef) -> Self {
        JsonObject {
            kind: &o.kind,
            namespace: o.namespace.as_deref(),
            name: &o.name,
        }
    }
}

impl<'a> From<&'a Finding> for JsonFinding<'a> {
    fn from(f: &'a Finding) -> Self {
        JsonFinding {
            id: &f.id,
            rule: f.rule,
            category: f.category,
            severity: f.severity,
            layer: f.layer,
            title: &f.title,
            object: (&f.object).into(),
            deployment: f.deployment.as_ref().map(Into::into),
            evidence: &f.evidence,
            fix: &f.fix,
            remedy: Remedy::from_fix(&f.fix),
            verify: &f.verify,
            caused_by: f.caused_by.as_deref(),
            count: f.count,
            also: f.also.iter().map(Into::into).collect(),
            docs: crate::finding::docs_url(f.rule),
        }
    }
}

impl<'a> From<&'a Report> for JsonReport<'a> {
    fn from(r: &'a Report) -> Self {
        JsonReport {
            version: r.version,
            findings: JsonFindings(&r.findings),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;
    use serde::Deserialize;

    /// What a consumer would write against the contract; unknown fields are refused so the test
    /// notices any field that appears without being documented here.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Parsed {
        version: u32,
        findings: Vec<ParsedFinding>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct ParsedFinding {
        id: String,
        rule: String,
        category: String,
        severity: String,
        layer: String,
        title: String,
        object: ParsedObject,
        deployment: Option<ParsedObject>,
        evidence: Vec<String>,
        fix: String,
        #[serde(default)]
        remedy: Option<ParsedRemedy>,
        verify: String,
        caused_by: Option<String>,
        count: usize,
        also: Vec<ParsedObject>,
        docs: String,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ParsedRemedy {
        #[serde(default)]
        apply: Vec<String>,
        #[serde(default)]
        run: Vec<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct ParsedObject {
        kind: String,
        namespace: Option<String>,
        name: String,
    }

    fn as_parsed(o: &ObjectRef) -> ParsedObject {
        ParsedObject {
            kind: o.kind.clone(),
            namespace: o.namespace.clone(),
            name: o.name.clone(),
        }
    }

    fn draw(report: &Report) -> String {
        let mut out = Vec::new();
        render(report, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn round_trips_every_field_in_rank_order() {
        let mut report = fixtures::report();
        report.findings[3].object = ObjectRef::new("ClusterRole", None, "flink");
        let text = draw(&report);
        let parsed: Parsed = serde_json::from_str(&text).expect(&text);
        assert_eq!(parsed.version, 1);
        assert_eq!(parsed.findings.len(), report.findings.len());
        for (p, f) in parsed.findings.iter().zip(&report.findings) {
            assert_eq!(p.id, f.id);
            assert_eq!(p.rule, f.rule);
            assert_eq!(p.category, f.category.id());
            assert_eq!(p.severity, f.severity.as_str());
            assert_eq!(p.layer, f.layer.as_str());
            assert_eq!(p.title, f.title);
            assert_eq!(p.object, as_parsed(&f.object));
            assert_eq!(p.deployment, f.deployment.as_ref().map(as_parsed));
            assert_eq!(p.evidence, f.evidence);
            assert_eq!(p.fix, f.fix);
            let remedy = Remedy::from_fix(&f.fix);
            match &p.remedy {
                Some(r) => assert_eq!((&r.apply, &r.run), (&remedy.apply, &remedy.run)),
                None => assert!(remedy.is_empty(), "{}", f.fix),
            }
            assert_eq!(p.verify, f.verify);
            assert_eq!(p.caused_by, f.caused_by);
            assert_eq!(p.count, f.count);
            assert_eq!(p.also, f.also.iter().map(as_parsed).collect::<Vec<_>>());
            assert_eq!(
                p.docs,
                format!(
                    "https://github.com/kubectl-flink/kubectl-flink/blob/main/docs/rules.md#{}",
                    f.rule.to_ascii_lowercase()
                )
            );
        }
        assert_eq!(parsed.findings[3].object.namespace, None);
    }

    #[test]
    fn caused_by_is_null_for_roots_and_every_field_is_present() {
        let text = draw(&fixtures::report());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let roots: Vec<&serde_json::Value> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["causedBy"].is_null())
            .collect();
        assert_eq!(roots.len(), 2);
        for f in v["findings"].as_array().unwrap() {
            let obj = f.as_object().unwrap();
            for key in [
                "id",
                "rule",
                "category",
                "severity",
                "layer",
                "title",
                "object",
                "deployment",
                "evidence",
                "fix",
                "verify",
                "causedBy",
                "count",
                "also",
            ] {
                assert!(obj.contains_key(key), "missing {key} in {f}");
            }
            assert!(
                obj.keys().all(|k| !k.contains('_')),
                "snake_case key in {f}"
            );
            assert!(["critical", "warning", "info"].contains(&f["severity"].as_str().unwrap()));
        }
        assert_eq!(v["findings"][1]["causedBy"], "A");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn empty_report() {
        assert_eq!(
            draw(&fixtures::empty()),
            "{\n  \"version\": 1,\n  \"findings\": []\n}\n"
        );
    }
}

//! SARIF 2.1.0 for code-review tools (GitHub code scanning, GitLab, reviewdog): one run, the
//! rules lint knows, and one result per finding with its file and line.
//!
//! Levels: critical -> `error`, warning -> `warning`, info -> `note`. The taxonomy category,
//! layer and the finding's fix ride along in `properties`.

use super::checks::CHECKS;
use super::source::{STDIN, STDIN_URI};
use super::Outcome;
use crate::finding::{Finding, Layer, Severity};
use serde_json::{json, Value};
use std::io::{self, Write};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The rules a SARIF consumer may see: lint's checks, then doctor's spec-layer rules lint runs.
fn rules() -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    for c in CHECKS {
        if ids.contains(&c.meta.id) {
            continue;
        }
        ids.push(c.meta.id);
        out.push(rule(
            c.meta.id,
            c.meta.name,
            c.meta.summary,
            c.help,
            c.meta.severity,
            c.meta.category.id(),
        ));
    }
    for r in crate::rules::RULES
        .iter()
        .map(|r| r.meta())
        .filter(|m| m.category.layer() == Layer::Spec)
    {
        if ids.contains(&r.id) {
            continue;
        }
        ids.push(r.id);
        let summary = format!("{} (kubectl flink doctor rule {})", r.summary, r.id);
        out.push(rule(
            r.id,
            r.name,
            &summary,
            &summary,
            r.severity,
            r.category.id(),
        ));
    }
    out
}

fn rule(
    id: &str,
    name: &str,
    summary: &str,
    help: &str,
    severity: Severity,
    category: &str,
) -> Value {
    json!({
        "id": id,
        "name": name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": help},
        "help": {"text": help},
        "defaultConfiguration": {"level": level(severity)},
        "properties": {"category": category, "tags": [category]}
    })
}

/// A file name as a SARIF artifact URI: relative paths stay relative (resolved against the
/// checkout), with `/` separators and percent-encoding.
pub fn uri(file: &str) -> String {
    if file == STDIN {
        return STDIN_URI.to_string();
    }
    let path = file.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    let mut out = String::new();
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    if out.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

pub fn to_value(outcome: &Outcome) -> Value {
    let rules = rules();
    let index_of = |id: &str| rules.iter().position(|r| r["id"] == id);
    let results: Vec<Value> = outcome
        .report
        .findings
        .iter()
        .map(|f| {
            let mut r = json!({
                "ruleId": f.rule,
                "level": level(f.severity),
                "message": {"text": message(f)},
                "partialFingerprints": {"kubectlFlinkFinding/v1": fingerprint(f)},
                "properties": {
                    "category": f.category.id(),
                    "layer": f.layer.as_str(),
                    "severity": f.severity.as_str(),
                    "object": f.object.to_string(),
                    "fix": f.fix,
                }
            });
            if let Some(i) = index_of(f.rule) {
                r["ruleIndex"] = json!(i);
            }
            if let Some(loc) = outcome.locations.get(&f.id) {
                r["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(&loc.file)},
                        "region": {"startLine": loc.line}
                    }
                }]);
            }
            r
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "kubectl-flink",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/kubectl-flink/kubectl-flink",
                "rules": rules
            }},
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    })
}

/// The title, the rest of the evidence (the first line is the location itself), and the fix.
fn message(f: &Finding) -> String {
    let mut s = f.title.clone();
    for e in f.evidence.iter().skip(1) {
        s.push_str("\n- ");
        s.push_str(e);
    }
    if !f.fix.is_empty() {
        s.push_str("\n\nFix:\n");
        s.push_str(&f.fix);
    }
    s
}

/// Stable across line moves: the rule, the object and the title (not the line).
fn fingerprint(f: &Finding) -> String {
    let mut h: u32 = 0x811c9dc5;
    for b in format!("{}|{}|{}", f.rule, f.object, f.title).bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x01000193);
    }
    format!("{h:08x}")
}

pub fn render(outcome: &Outcome, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &to_value(outcome))?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri("deploy/orders.yaml"), "deploy/orders.yaml");
        assert_eq!(uri("./deploy/my file.yaml"), "deploy/my%20file.yaml");
        assert_eq!(uri("/abs/x.yaml"), "file:///abs/x.yaml");
        assert_eq!(uri(STDIN), "stdin");
    }

    #[test]
    fn every_rule_has_the_required_fields() {
        for r in rules() {
            assert!(r["id"].as_str().is_some_and(|s| s.starts_with("FLK")));
            assert!(r["shortDescription"]["text"]
                .as_str()
                .is_some_and(|s| !s.is_empty()));
            assert!(r["help"]["text"].as_str().is_some_and(|s| !s.is_empty()));
        }
    }
}

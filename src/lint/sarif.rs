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

/// The whole log as one JSON value (what `render` writes, one result at a time).
pub fn to_value(outcome: &Outcome) -> Value {
    let rules = rules();
    let results: Vec<Value> = outcome
        .report
        .findings
        .iter()
        .map(|f| result(outcome, &rules, f))
        .collect();
    skeleton(rules, results)
}

/// The log around its results.
fn skeleton(rules: Vec<Value>, results: Vec<Value>) -> Value {
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

/// One finding as a SARIF result.
fn result(outcome: &Outcome, rules: &[Value], f: &Finding) -> Value {
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
    if let Some(i) = rules.iter().position(|r| r["id"] == f.rule) {
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

/// Writes the log as it goes: the skeleton around the results, then each result as it is made,
/// so 20,000 findings never exist as one JSON tree (the bytes are those of `to_value` printed
/// pretty: JSON strings hold no raw newline, so every newline of a result is indented alike).
pub fn render(outcome: &Outcome, out: &mut dyn Write) -> io::Result<()> {
    let rules = rules();
    let findings = &outcome.report.findings;
    let skeleton = serde_json::to_string_pretty(&skeleton(rules.clone(), Vec::new()))?;
    const EMPTY: &str = "\"results\": []";
    let (Some(at), false) = (skeleton.find(EMPTY), findings.is_empty()) else {
        out.write_all(skeleton.as_bytes())?;
        return writeln!(out);
    };
    let open = at + EMPTY.len() - 1;
    let line_start = skeleton[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = " ".repeat(at - line_start);
    out.write_all(&skeleton.as_bytes()[..open])?;
    let inner = format!("{indent}  ");
    for (i, f) in findings.iter().enumerate() {
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        out.write_all(inner.as_bytes())?;
        serde_json::to_writer_pretty(
            Indented {
                out: &mut *out,
                indent: inner.as_bytes(),
            },
            &result(outcome, &rules, f),
        )?;
    }
    write!(out, "\n{indent}")?;
    out.write_all(&skeleton.as_bytes()[open..])?;
    writeln!(out)
}

/// Indents every line after the first by `indent`.
struct Indented<'a> {
    out: &'a mut dyn Write,
    indent: &'a [u8],
}

impl Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.out.write_all(&rest[..=i])?;
            self.out.write_all(self.indent)?;
            rest = &rest[i + 1..];
        }
        self.out.write_all(rest)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
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

    #[test]
    fn the_streamed_log_is_the_whole_value_printed_pretty() {
        let text = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: a}\nspec:\n  image: flink:1.20\n  flinkVersion: v1_20\n  serviceAccount: default\n  jobManager:\n    podTemplate:\n      spec:\n        containers:\n          - name: flink-job-manager\n";
        for text in [text, "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"] {
            let outcome = super::super::run(&[super::super::source::Source {
                name: "deploy/a b.yaml".into(),
                text: text.into(),
            }])
            .unwrap();
            let mut streamed = Vec::new();
            render(&outcome, &mut streamed).unwrap();
            let mut whole = serde_json::to_vec_pretty(&to_value(&outcome)).unwrap();
            whole.push(b'\n');
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(whole).unwrap()
            );
        }
    }
}

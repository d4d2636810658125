//! SARIF 2.1.0, the one writer for every command that prints it (`lint -o sarif`, `doctor -o
//! sarif`): one run, the rules the command knows, and one result per finding, where it is (a
//! file and line for lint, the Kubernetes object for doctor).
//!
//! Levels: critical -> `error`, warning -> `warning`, info -> `note`. The taxonomy category,
//! layer and the finding's fix ride along in `properties`.

use crate::finding::{Finding, Severity};
use crate::rank::Report;
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

/// One entry of the driver's `rules`.
pub fn rule(
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

/// doctor's rules, in the order of the registry.
pub fn doctor_rules() -> Vec<Value> {
    crate::rules::RULES
        .iter()
        .map(|r| r.meta())
        .map(|m| {
            rule(
                m.id,
                m.name,
                m.summary,
                m.summary,
                m.severity,
                m.category.id(),
            )
        })
        .collect()
}

/// Where a finding is: a file and line (the first evidence line then says the same and is left
/// out of the message), or else the Kubernetes object it is about.
pub enum Place {
    File { uri: String, line: usize },
    Object,
}

/// What a command tells the writer: its rules, and where each finding is.
pub struct Log<'a> {
    pub rules: Vec<Value>,
    pub place: &'a dyn Fn(&Finding) -> Place,
}

/// doctor's log: its rules; every finding placed on its object.
pub fn render_doctor(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    render(
        report,
        &Log {
            rules: doctor_rules(),
            place: &|_| Place::Object,
        },
        out,
    )
}

/// `doctor --context a,b -o sarif`: one log with one run per context, in the order given (SARIF
/// 2.1.0 §3.14: a log holds the runs of several analyses). Each run says its context three
/// ways, for the tools that read one of them: `automationDetails.id`
/// (`kubectl-flink/doctor/CONTEXT/`, §3.17.4: the category this run is an instance of),
/// `properties.context` on the run and on each of its results. A context not diagnosed is a run
/// with no results whose invocation failed (`executionSuccessful: false`, §3.20.14) and says why
/// in a `toolExecutionNotifications` entry (§3.20.21).
pub fn render_fleet(fleet: &super::fleet::Fleet, out: &mut dyn Write) -> io::Result<()> {
    let log = Log {
        rules: doctor_rules(),
        place: &|_| Place::Object,
    };
    let mut runs = Vec::new();
    for c in &fleet.contexts {
        let mut value = match c.report() {
            Some(report) => to_value(report, &log),
            None => skeleton(log.rules.clone(), Vec::new()),
        };
        let Some(mut run) = value["runs"].as_array_mut().and_then(|r| r.pop()) else {
            continue;
        };
        if let Some(results) = run["results"].as_array_mut() {
            for r in results {
                r["properties"]["context"] = json!(c.context);
            }
        }
        run["automationDetails"] = json!({
            "id": format!("kubectl-flink/doctor/{}/", c.context.replace('/', "_")),
            "description": {"text": format!("kubectl flink doctor: {}", c.scope)}
        });
        run["properties"] =
            json!({"context": c.context, "scope": c.scope, "exitCode": c.exit_code});
        run["invocations"] = match &c.outcome {
            super::fleet::Outcome::Diagnosed { .. } => json!([{"executionSuccessful": true}]),
            super::fleet::Outcome::Failed { error } => json!([{
                "executionSuccessful": false,
                "exitCode": c.exit_code,
                "toolExecutionNotifications": [{
                    "level": "error",
                    "message": {"text": format!("{}: {error}", c.status.unwrap_or("failed"))},
                    "descriptor": {"id": c.status.unwrap_or("failed")}
                }]
            }]),
        };
        runs.push(run);
    }
    let log = json!({"$schema": SCHEMA, "version": "2.1.0", "runs": runs});
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

/// The whole log as one JSON value (what `render` writes, one result at a time).
pub fn to_value(report: &Report, log: &Log) -> Value {
    let report = super::printable(report);
    let results: Vec<Value> = report.findings.iter().map(|f| result(log, f)).collect();
    skeleton(log.rules.clone(), results)
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
                "informationUri": crate::finding::REPOSITORY,
                "rules": rules
            }},
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    })
}

/// One finding as a SARIF result.
fn result(log: &Log, f: &Finding) -> Value {
    let place = (log.place)(f);
    let mut r = json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": {"text": message(f, &place)},
        "partialFingerprints": {"kubectlFlinkFinding/v1": fingerprint(f)},
        "properties": {
            "category": f.category.id(),
            "layer": f.layer.as_str(),
            "severity": f.severity.as_str(),
            "object": f.object.to_string(),
            "fix": f.fix,
        }
    });
    if let Some(i) = log.rules.iter().position(|r| r["id"] == f.rule) {
        r["ruleIndex"] = json!(i);
    }
    r["locations"] = match place {
        Place::File { uri, line } => json!([{
            "physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": line}
            }
        }]),
        Place::Object => json!([{
            "logicalLocations": [{
                "fullyQualifiedName": f.object.to_string(),
                "name": f.object.name,
                "kind": "resource"
            }]
        }]),
    };
    r
}

/// The title, the evidence (without the first line when it is the file location itself), and
/// the fix.
fn message(f: &Finding, place: &Place) -> String {
    let skip = usize::from(matches!(place, Place::File { .. }));
    let mut s = f.title.clone();
    for e in f.evidence.iter().skip(skip) {
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
/// Every text is printable first (secrets masked, no control characters), as in every format.
pub fn render(report: &Report, log: &Log, out: &mut dyn Write) -> io::Result<()> {
    let report = super::printable(report);
    let findings = &report.findings;
    let skeleton = serde_json::to_string_pretty(&skeleton(log.rules.clone(), Vec::new()))?;
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
            &result(log, f),
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
    fn every_doctor_rule_has_the_required_fields() {
        let rules = doctor_rules();
        assert_eq!(rules.len(), crate::rules::RULES.len());
        for r in rules {
            assert!(r["id"].as_str().is_some_and(|s| s.starts_with("FLK")));
            assert!(r["shortDescription"]["text"]
                .as_str()
                .is_some_and(|s| !s.is_empty()));
        }
    }
}

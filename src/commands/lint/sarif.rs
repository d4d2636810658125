//! lint's SARIF (here, where lint and render meet): its rules (its checks, then doctor's spec-layer rules it runs) and each
//! finding's file and line, written by the one SARIF writer (`render::sarif`).

use crate::finding::Layer;
use crate::lint::checks::CHECKS;
use crate::lint::source::{STDIN, STDIN_URI};
use crate::lint::Outcome;
use crate::render::sarif::{self as writer, rule, Log, Place};
use serde_json::Value;
use std::io::{self, Write};

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

/// Each finding where lint found it: its file and line.
fn place(outcome: &Outcome) -> impl Fn(&crate::finding::Finding) -> Place + '_ {
    |f| match outcome.locations.get(&f.id) {
        Some(loc) => Place::File {
            uri: uri(&loc.file),
            line: loc.line,
        },
        None => Place::Object,
    }
}

/// The whole log as one JSON value (what `render` writes, one result at a time).
pub fn to_value(outcome: &Outcome) -> Value {
    let place = place(outcome);
    writer::to_value(
        &outcome.report,
        &Log {
            rules: rules(),
            place: &place,
        },
    )
}

/// Writes the log as it goes (see `render::sarif::render`).
pub fn render(outcome: &Outcome, out: &mut dyn Write) -> io::Result<()> {
    let place = place(outcome);
    writer::render(
        &outcome.report,
        &Log {
            rules: rules(),
            place: &place,
        },
        out,
    )
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
            let outcome = crate::lint::run(&[crate::lint::source::Source {
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

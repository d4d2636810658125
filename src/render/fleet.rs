//! `doctor --context a,b` and `--all-contexts`: the diagnosis of several clusters at once, as
//! data (`Fleet`, built by `commands::fleet`) and drawn here: the fleet overview (one line per
//! Flink deployment of every context, worst first, fitted to the width), then each context's
//! report as `doctor --context NAME` prints it; or one JSON document in which every finding and
//! cluster carries its `context`.

use super::clusters::{ClusterLine, OperatorLine};
use super::json::JsonFinding;
use super::Style;
use crate::finding::Severity;
use crate::rank::{Report, REPORT_VERSION};
use serde::Serialize;
use std::io::{self, Write};

/// What came of one context.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Read and diagnosed: the report and the Flink clusters in scope.
    Diagnosed {
        report: Report,
        clusters: Vec<ClusterLine>,
        /// What is probably an operator although nothing of its own says so (JSON
        /// `probableOperators`), as one context's overview lists it.
        operators: Vec<OperatorLine>,
    },
    /// Not diagnosed: why, in one sentence (the error `doctor --context NAME` would print).
    Failed { error: String },
}

/// One context's diagnosis.
#[derive(Debug, Clone)]
pub struct ContextReport {
    /// The kubeconfig context; empty for a single run (a bundle, the current context).
    pub context: String,
    /// What was read: "all namespaces (context prod)", "bundle examples/canonical".
    pub scope: String,
    pub outcome: Outcome,
    /// The exit code `doctor --context NAME` would have ended with.
    pub exit_code: i32,
    /// `unreachable`, `failed`, `not found` for a context not diagnosed; None when diagnosed.
    pub status: Option<&'static str>,
    /// How long the context took, in seconds.
    pub seconds: f64,
}

impl ContextReport {
    pub fn report(&self) -> Option<&Report> {
        match &self.outcome {
            Outcome::Diagnosed { report, .. } => Some(report),
            Outcome::Failed { .. } => None,
        }
    }
    pub fn clusters(&self) -> &[ClusterLine] {
        match &self.outcome {
            Outcome::Diagnosed { clusters, .. } => clusters,
            Outcome::Failed { .. } => &[],
        }
    }
    pub fn operators(&self) -> &[OperatorLine] {
        match &self.outcome {
            Outcome::Diagnosed { operators, .. } => operators,
            Outcome::Failed { .. } => &[],
        }
    }
}

/// One line of the fleet overview: a Flink cluster of one context, or a context's own line
/// (unreachable, no Flink deployment, findings that belong to no cluster).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetLine {
    pub context: String,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub kind: Option<String>,
    pub mode: Option<&'static str>,
    /// `ok`, `2 critical, 1 warning`, `unreachable`, `no Flink deployment`.
    pub health: String,
    /// The worst the line holds, for its colour: critical for a context not diagnosed.
    pub severity: Option<Severity>,
    /// The first root cause that explains this cluster's findings (its title), or for a context
    /// not diagnosed, why.
    pub root_cause: Option<String>,
    /// That root cause's rule.
    pub rule: Option<&'static str>,
}

/// Every context, in the order given, and the overview lines, worst first.
#[derive(Debug, Clone, Default)]
pub struct Fleet {
    pub contexts: Vec<ContextReport>,
    pub lines: Vec<FleetLine>,
}

const HEADING: [&str; 6] = [
    "CONTEXT",
    "NAMESPACE",
    "NAME",
    "MODE",
    "HEALTH",
    "ROOT CAUSE",
];
/// The room ROOT CAUSE asks for before the names break; it keeps at least `MIN_CAUSE_ROOM`.
const CAUSE_ROOM: usize = 24;
const MIN_CAUSE_ROOM: usize = 20;
/// The least room CONTEXT, NAMESPACE and NAME keep when they must break.
const NAME_ROOM: usize = 10;
const NAME_MIN: usize = 6;
/// The MODE column's index.
const MODE: usize = 3;

/// The overview: kubectl's style (upper-case headings, no borders), ROOT CAUSE wrapped in the
/// room the other columns leave, CONTEXT, NAMESPACE and NAME broken (and MODE left out) when
/// that room is short; HEALTH is never broken.
pub fn write_overview(lines: &[FleetLine], style: &Style, out: &mut dyn Write) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let dash = |s: &Option<String>| s.clone().unwrap_or_else(|| "-".into());
    let rows: Vec<[String; 6]> = lines
        .iter()
        .map(|l| {
            [
                l.context.clone(),
                dash(&l.namespace),
                dash(&l.name),
                l.mode.unwrap_or("-").to_string(),
                l.health.clone(),
                l.root_cause.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let width = super::text::width;
    let column = |i: usize| {
        rows.iter()
            .map(|r| width(&r[i]))
            .chain([HEADING[i].len()])
            .max()
            .unwrap_or(0)
    };
    let mut widths: Vec<usize> = (0..5).map(column).collect();
    let mut show_mode = true;
    let fixed = |w: &[usize], show_mode: bool| {
        w.iter()
            .enumerate()
            .filter(|&(i, _)| show_mode || i != MODE)
            .map(|(_, w)| w + 2)
            .sum::<usize>()
    };
    // Too wide: the widest of CONTEXT, NAMESPACE and NAME breaks (after `-`, `.`, `_` where it
    // can), down to NAME_ROOM columns each; then the MODE column goes (each context's report
    // below lists its clusters with their mode); then the names break down to NAME_MIN (never
    // narrower than their heading). HEALTH is never broken.
    let shrink = |widths: &mut Vec<usize>, show_mode: bool, cause: usize, floor: usize| {
        while fixed(widths, show_mode) + cause > style.width {
            let Some(i) = (0..3)
                .filter(|&i| widths[i] > floor.max(HEADING[i].len()))
                .max_by_key(|&i| (widths[i], usize::MAX - i))
            else {
                break;
            };
            widths[i] -= 1;
        }
    };
    shrink(&mut widths, show_mode, CAUSE_ROOM, NAME_ROOM);
    if fixed(&widths, show_mode) + CAUSE_ROOM > style.width {
        show_mode = false;
    }
    shrink(&mut widths, show_mode, CAUSE_ROOM, NAME_MIN);
    let fixed = fixed(&widths, show_mode);
    let room = style.width.saturating_sub(fixed).max(MIN_CAUSE_ROOM);
    let mut head = String::new();
    for (i, h) in HEADING.iter().enumerate().take(5) {
        if i == MODE && !show_mode {
            continue;
        }
        head.push_str(&super::text::pad_to(h, widths[i]));
        head.push_str("  ");
    }
    head.push_str(HEADING[5]);
    writeln!(out, "{}", style.bold(&head))?;
    for (l, r) in lines.iter().zip(&rows) {
        let mut cells: Vec<Vec<String>> = (0..4)
            .map(|i| super::text::break_name(&r[i], widths[i]))
            .collect();
        cells.push(vec![r[4].clone()]);
        cells.push(super::text::wrap(&r[5], room));
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            let mut s = String::new();
            for (i, column) in cells.iter().enumerate().take(4) {
                if i == MODE && !show_mode {
                    continue;
                }
                let cell = column.get(k).map(String::as_str).unwrap_or("");
                s.push_str(&super::text::pad_to(cell, widths[i]));
                s.push_str("  ");
            }
            let h = cells[4].get(k).map(String::as_str).unwrap_or("");
            let painted = match l.severity {
                Some(sev @ (Severity::Critical | Severity::Warning)) if !h.is_empty() => style
                    .severity(sev)
                    .replace(sev.as_str(), &super::text::pad_to(h, widths[4])),
                _ => super::text::pad_to(h, widths[4]),
            };
            s.push_str(&painted);
            s.push_str("  ");
            s.push_str(cells[5].get(k).map(String::as_str).unwrap_or(""));
            writeln!(out, "{}", s.trim_end())?;
        }
    }
    Ok(())
}

/// The table view: a header, the overview, then each diagnosed context's own report (the one
/// `doctor --context NAME` prints) under its name.
pub fn write_table(fleet: &Fleet, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    let mut head = format!(
        "{}, {}",
        super::plural(fleet.contexts.len(), "context", "contexts"),
        super::plural(
            fleet.lines.iter().filter(|l| l.name.is_some()).count(),
            "Flink deployment",
            "Flink deployments"
        )
    );
    let failed: Vec<&str> = fleet
        .contexts
        .iter()
        .filter(|c| c.report().is_none())
        .map(|c| c.context.as_str())
        .collect();
    if !failed.is_empty() {
        head.push_str(&format!(
            "; {} not diagnosed: {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    for line in super::text::wrap(&head, style.width) {
        writeln!(out, "{}", style.bold(&line))?;
    }
    writeln!(out)?;
    write_overview(&fleet.lines, style, out)?;
    for c in &fleet.contexts {
        let Some(report) = c.report() else { continue };
        if report.findings.is_empty() && c.operators().is_empty() {
            continue;
        }
        writeln!(out)?;
        let rule = format!("== context {} ", c.context);
        let fill = "=".repeat(
            style
                .width
                .saturating_sub(super::text::width(&rule))
                .min(80),
        );
        writeln!(out, "{}", style.bold(&format!("{rule}{fill}")))?;
        let context = super::Context {
            command: "doctor",
            scope: c.scope.clone(),
        };
        super::table::render_overview(report, &context, &[], c.operators(), style, out)?;
    }
    Ok(())
}

/// The fleet as Markdown, for a ticket: the overview table (worst first, as the terminal's),
/// then each context under its own heading: why it was not diagnosed, or its diagnosis as
/// `doctor --context NAME -o markdown` gives it, one heading level down.
pub fn write_markdown(fleet: &Fleet, out: &mut dyn Write) -> io::Result<()> {
    let cell = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace('|', "\\|")
    };
    writeln!(
        out,
        "# kubectl flink doctor: {}",
        super::plural(fleet.contexts.len(), "context", "contexts")
    )?;
    writeln!(out)?;
    let failed: Vec<&str> = fleet
        .contexts
        .iter()
        .filter(|c| c.report().is_none())
        .map(|c| c.context.as_str())
        .collect();
    let mut head = super::plural(
        fleet.lines.iter().filter(|l| l.name.is_some()).count(),
        "Flink deployment",
        "Flink deployments",
    );
    if !failed.is_empty() {
        head.push_str(&format!(
            "; {} not diagnosed: {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    writeln!(out, "**{}**", cell(&head))?;
    writeln!(out)?;
    if !fleet.lines.is_empty() {
        writeln!(
            out,
            "| Context | Namespace | Name | Mode | Health | Root cause |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|")?;
        for l in &fleet.lines {
            let dash = |s: &Option<String>| cell(s.as_deref().unwrap_or("-"));
            let cause = match (&l.rule, &l.root_cause) {
                (Some(rule), Some(c)) => format!("`{rule}` {}", cell(c)),
                (None, Some(c)) => cell(c),
                _ => "-".into(),
            };
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&l.context),
                dash(&l.namespace),
                dash(&l.name),
                l.mode.unwrap_or("-"),
                cell(&l.health),
                cause
            )?;
        }
    }
    for c in &fleet.contexts {
        writeln!(out)?;
        writeln!(out, "## Context {}", cell(&c.context))?;
        writeln!(out)?;
        writeln!(out, "_{}_", cell(&c.scope).replace('_', "\\_"))?;
        writeln!(out)?;
        match &c.outcome {
            Outcome::Failed { error } => {
                writeln!(out, "**{}**: {}", c.status.unwrap_or("failed"), cell(error))?;
            }
            Outcome::Diagnosed {
                report, operators, ..
            } => {
                let context = super::Context {
                    command: "doctor",
                    scope: c.scope.clone(),
                };
                super::markdown::diagnosis(report, &context, &[], operators, "###", out)?;
            }
        }
    }
    Ok(())
}

/// A finding with the context it was found in.
#[derive(Serialize)]
struct ContextFinding<'a> {
    #[serde(flatten)]
    finding: JsonFinding<'a>,
    context: &'a str,
}

/// A probable operator with its context.
#[derive(Serialize)]
struct ContextOperator<'a> {
    #[serde(flatten)]
    operator: &'a OperatorLine,
    context: &'a str,
}

/// A cluster line with its context.
#[derive(Serialize)]
struct ContextCluster<'a> {
    #[serde(flatten)]
    cluster: &'a ClusterLine,
    context: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonContext<'a> {
    context: &'a str,
    scope: &'a str,
    /// `diagnosed`, `unreachable`, `failed` or `not found`.
    status: &'a str,
    error: Option<&'a str>,
    exit_code: i32,
    seconds: f64,
}

/// The fleet as JSON: the v1 report's `version` and `findings` (each with its `context`),
/// `clusters` (each with its `context`), then `contexts` (what came of each) and `fleet` (the
/// overview lines, worst first).
#[derive(Serialize)]
struct JsonFleet<'a> {
    version: u32,
    findings: Vec<ContextFinding<'a>>,
    clusters: Vec<ContextCluster<'a>>,
    /// `probableOperators`, each with its `context`: left out when there is none, as for one.
    #[serde(rename = "probableOperators", skip_serializing_if = "Vec::is_empty")]
    probable_operators: Vec<ContextOperator<'a>>,
    contexts: Vec<JsonContext<'a>>,
    fleet: &'a [FleetLine],
}

pub fn write_json(fleet: &Fleet, out: &mut dyn Write) -> io::Result<()> {
    let printable: Vec<(&ContextReport, Option<std::borrow::Cow<'_, Report>>)> = fleet
        .contexts
        .iter()
        .map(|c| (c, c.report().map(super::printable)))
        .collect();
    let mut findings = Vec::new();
    let mut clusters = Vec::new();
    let mut operators = Vec::new();
    let mut contexts = Vec::new();
    for (c, report) in &printable {
        if let Some(report) = report {
            for f in report.findings.iter().map(JsonFinding::from) {
                findings.push(ContextFinding {
                    finding: f,
                    context: &c.context,
                });
            }
        }
        for cluster in c.clusters() {
            clusters.push(ContextCluster {
                cluster,
                context: &c.context,
            });
        }
        for operator in c.operators() {
            operators.push(ContextOperator {
                operator,
                context: &c.context,
            });
        }
        contexts.push(JsonContext {
            context: &c.context,
            scope: &c.scope,
            status: c.status.unwrap_or("diagnosed"),
            error: match &c.outcome {
                Outcome::Failed { error } => Some(error),
                Outcome::Diagnosed { .. } => None,
            },
            exit_code: c.exit_code,
            seconds: (c.seconds * 1000.0).round() / 1000.0,
        });
    }
    serde_json::to_writer_pretty(
        &mut *out,
        &JsonFleet {
            version: REPORT_VERSION,
            findings,
            clusters,
            probable_operators: operators,
            contexts,
            fleet: &fleet.lines,
        },
    )?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn line(context: &str, name: Option<&str>, health: &str, cause: &str) -> FleetLine {
        FleetLine {
            context: context.into(),
            namespace: name.map(|_| "analytics".into()),
            name: name.map(str::to_string),
            kind: name.map(|_| "FlinkDeployment".into()),
            mode: name.map(|_| "operator"),
            health: health.into(),
            severity: (health != "ok").then_some(Severity::Critical),
            root_cause: Some(cause.into()),
            rule: None,
        }
    }

    #[test]
    fn a_name_breaks_after_its_dashes_and_loses_nothing() {
        assert_eq!(
            super::super::text::break_name("staging-eu-west-1", 10),
            ["staging-", "eu-west-1"]
        );
        assert_eq!(
            super::super::text::break_name("abcdefghijklmnop", 10),
            ["abcdefghij", "klmnop"]
        );
        assert_eq!(super::super::text::break_name("prod", 10), ["prod"]);
        let hostile = "名前-ß-\u{1F600}-x".repeat(5);
        assert_eq!(
            super::super::text::break_name(&hostile, 10).concat(),
            hostile
        );
    }

    #[test]
    fn the_overview_fits_80_columns_and_cuts_nothing() {
        let cause = "cannot reach the API server at https://127.0.0.1:1 of context dead \
                     (connection refused): is the cluster up and is this the right context?";
        let lines = [
            line("dead", None, "unreachable", cause),
            line(
                "staging-eu-west-1",
                Some("orders"),
                "4 critical, 2 warnings",
                "main container is named `flink-job-manager`",
            ),
            line("prod", Some("ledger"), "ok", "-"),
        ];
        let mut out = Vec::new();
        write_overview(&lines, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.lines().all(|l| crate::render::text::width(l) <= 80),
            "{text}"
        );
        assert!(text.starts_with("CONTEXT "), "{text}");
        // HEALTH whole on one row (it broke after its comma at 80 columns).
        assert!(text.contains("  4 critical, 2 warnings  "), "{text}");
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let all = words(&text);
        for w in cause
            .split_whitespace()
            .chain(["flink-job-manager`", "2 warnings"])
        {
            assert!(all.contains(w), "{w} cut: {text}");
        }
    }
}

//! The list of Flink clusters in scope that `doctor` without NAME prints before the findings:
//! one line each with its health. In JSON the lines are an extra top-level `clusters` array
//! beside the v1 contract's `version` and `findings`, which stay as they are.

use super::Style;
use crate::finding::{ObjectRef, Severity};
use crate::rank::Report;
use serde::Serialize;
use std::io::{self, Write};

/// One Flink cluster and its health.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterLine {
    /// What findings name in `deployment`: FlinkDeployment, FlinkCluster (plain native, named by
    /// its cluster-id; or the GCP/Spotify operator's resource, mode `flinkcluster`) or
    /// FlinkApplication.
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `operator`, `standalone`, `native`, `lyft` or `flinkcluster`.
    pub mode: &'static str,
    pub jobmanagers_ready: u32,
    pub jobmanagers_wanted: u32,
    pub taskmanagers_ready: u32,
    pub taskmanagers: u32,
    /// The CR's own state: FlinkDeployment `status.lifecycleState`, FlinkApplication
    /// `status.phase`, FlinkCluster `status.state`; None for a plain native cluster.
    pub status: Option<String>,
    /// The job's state as the CR reports it (`RUNNING`, `FAILED`, ...); None when unknown (plain
    /// native, a session cluster). A FlinkCluster's adds its job submitter when it has not
    /// succeeded: `DeployFailed, submitter failed (exit 1)`.
    pub job: Option<String>,
    pub critical: usize,
    pub warnings: usize,
    pub info: usize,
    /// `ok`, or `2 critical, 1 warning`.
    pub health: String,
}

impl ClusterLine {
    pub fn healthy(&self) -> bool {
        self.critical == 0 && self.warnings == 0
    }
    pub fn reference(&self) -> ObjectRef {
        ObjectRef::namespaced(&self.kind, &self.namespace, &self.name)
    }
}

/// The cluster list as a table (kubectl's style: upper-case headings, no borders), then a blank
/// line. Nothing when there is no cluster. Too wide for `style.width`, HEALTH wraps at its
/// words; when even that does not fit and every cluster is in one namespace (which the header
/// names), the NAMESPACE column goes, as kubectl shows it only across namespaces.
pub fn write_table(lines: &[ClusterLine], style: &Style, out: &mut dyn Write) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let heading = [
        "NAMESPACE",
        "NAME",
        "KIND",
        "MODE",
        "JM",
        "TM",
        "STATUS",
        "JOB",
        "HEALTH",
    ];
    let rows: Vec<[String; 9]> = lines
        .iter()
        .map(|l| {
            [
                l.namespace.clone(),
                l.name.clone(),
                l.kind.clone(),
                l.mode.to_string(),
                format!("{}/{}", l.jobmanagers_ready, l.jobmanagers_wanted),
                format!("{}/{}", l.taskmanagers_ready, l.taskmanagers),
                l.status.clone().unwrap_or_else(|| "-".into()),
                l.job.clone().unwrap_or_else(|| "-".into()),
                l.health.clone(),
            ]
        })
        .collect();
    let width = super::text::width;
    let column = |i: usize| {
        rows.iter()
            .map(|r| width(&r[i]))
            .chain([heading[i].len()])
            .max()
            .unwrap_or(0)
    };
    let mut widths: Vec<usize> = (0..heading.len()).map(column).collect();
    let last = heading.len() - 1;
    let job = last - 1;
    // The longest piece of a cell that breaks only after a comma (JOB, HEALTH).
    let longest_part = |i: usize| {
        rows.iter()
            .flat_map(|r| r[i].split(", "))
            .map(width)
            .chain([heading[i].len()])
            .max()
            .unwrap_or(0)
    };
    let longest_word = longest_part(last);
    let one_namespace = rows.iter().all(|r| r[0] == rows[0][0]);
    let sum =
        |widths: &[usize], from: usize| -> usize { widths[from..last].iter().map(|w| w + 2).sum() };
    let first = if sum(&widths, 0) + widths[last] > style.width
        && sum(&widths, 0) + longest_word > style.width
        && one_namespace
    {
        1
    } else {
        0
    };
    // Still too wide with HEALTH broken: JOB breaks at its spaces (a FlinkCluster's
    // `DeployFailed, submitter failed (exit 1)`), as narrow as its longest word allows.
    if sum(&widths, first) + longest_word > style.width {
        let others = sum(&widths, first) - (widths[job] + 2);
        let job_room = style.width.saturating_sub(others + 2 + longest_word);
        let longest_job_word = rows
            .iter()
            .flat_map(|r| words(&r[job]))
            .map(width)
            .chain([heading[job].len()])
            .max()
            .unwrap_or(0);
        widths[job] = widths[job].min(job_room.max(longest_job_word));
    }
    let before = sum(&widths, first);
    let room = style.width.saturating_sub(before).max(longest_word);
    let mut head = String::new();
    for i in first..last {
        head.push_str(&format!("{}  ", super::text::pad_to(heading[i], widths[i])));
    }
    head.push_str(heading[last]);
    writeln!(out, "{}", style.bold(head.trim_end()))?;
    for (l, r) in lines.iter().zip(&rows) {
        let paint = |cell: &str| {
            if l.critical > 0 {
                style.severity(Severity::Critical).replace("critical", cell)
            } else if l.warnings > 0 {
                style.severity(Severity::Warning).replace("warning", cell)
            } else {
                cell.to_string()
            }
        };
        let jobs = fill(&r[job], widths[job]);
        let health = health_lines(&r[last], room);
        for k in 0..jobs.len().max(health.len()) {
            let mut s = String::new();
            for i in first..job {
                let cell = if k == 0 { r[i].as_str() } else { "" };
                s.push_str(&format!("{}  ", super::text::pad_to(cell, widths[i])));
            }
            let j = jobs.get(k).map(String::as_str).unwrap_or("");
            s.push_str(&format!("{}  ", super::text::pad_to(j, widths[job])));
            match health.get(k) {
                Some(part) => writeln!(out, "{s}{}", paint(part))?,
                None => writeln!(out, "{}", s.trim_end())?,
            }
        }
    }
    writeln!(out)
}

/// `text` over lines of at most `room` columns, broken only at spaces outside parentheses
/// (`(exit 1)` stays whole; a word longer than the room stands alone on its line).
fn fill(text: &str, room: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in words(text) {
        match out.last_mut() {
            Some(line) if super::text::width(line) + 1 + super::text::width(word) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The words of `text`: split at spaces outside parentheses.
fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// "4 critical, 2 warnings" over lines of at most `room` columns, broken only after a comma.
pub(crate) fn health_lines(health: &str, room: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in health.split(", ") {
        match out.last_mut() {
            Some(line) if super::text::width(line) + 2 + super::text::width(part) <= room => {
                line.push_str(", ");
                line.push_str(part);
            }
            Some(line) => {
                line.push(',');
                out.push(part.to_string());
            }
            None => out.push(part.to_string()),
        }
    }
    out
}

/// A pod or Deployment that is probably an operator although nothing of its own says so, and why
/// (`snapshot::identity::Probable`), as the overview lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorLine {
    /// `Pod` or `Deployment`.
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `apache`, `flinkcluster` or `lyft`: the mode of the clusters the operator deploys.
    pub operator: &'static str,
    /// Which operator, as a person names it.
    pub describe: &'static str,
    /// The wiring that makes it probable: its account's rights over a CRD group, or where it runs.
    pub why: String,
}

/// The probable operators as a table under the cluster list (nothing when there is none): one
/// line each, what it probably is, then why on its own indented line (it is long).
pub fn write_operator_table(
    lines: &[OperatorLine],
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let heading = ["NAMESPACE", "KIND", "NAME", "PROBABLY"];
    let rows: Vec<[String; 4]> = lines
        .iter()
        .map(|l| {
            [
                crate::shell::escape_controls(&l.namespace),
                l.kind.clone(),
                crate::shell::escape_controls(&l.name),
                l.describe.to_string(),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..heading.len())
        .map(|i| {
            rows.iter()
                .map(|r| super::text::width(&r[i]))
                .chain([heading[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let row = |cells: &[String]| {
        let mut line = String::new();
        for (i, c) in cells.iter().enumerate() {
            line.push_str(c);
            if i + 1 < cells.len() {
                line.push_str(&" ".repeat(widths[i] - super::text::width(c) + 2));
            }
        }
        line
    };
    let head: Vec<String> = heading.iter().map(|h| h.to_string()).collect();
    writeln!(out, "{}", style.dim(&row(&head)))?;
    for (r, l) in rows.iter().zip(lines) {
        writeln!(out, "{}", row(r))?;
        for w in super::text::wrap(
            &format!("why: {}", crate::shell::escape_controls(&l.why)),
            style.width.saturating_sub(2).max(20),
        ) {
            writeln!(out, "  {}", style.dim(&w))?;
        }
    }
    writeln!(out)
}

/// The v1 JSON report with the cluster list added as a top-level `clusters` array, after
/// `version` and `findings` (which keep their contract); without it when there is no cluster.
#[derive(Serialize)]
pub struct JsonWithClusters<'a> {
    #[serde(flatten)]
    pub report: super::json::JsonReport<'a>,
    /// Left out when no Flink cluster is in scope (the plain v1 report).
    #[serde(skip_serializing_if = "<[ClusterLine]>::is_empty")]
    pub clusters: &'a [ClusterLine],
    /// `probableOperators`: left out when there is none (a compatible addition).
    #[serde(
        rename = "probableOperators",
        skip_serializing_if = "<[OperatorLine]>::is_empty"
    )]
    pub probable_operators: &'a [OperatorLine],
}

pub fn json_with_clusters<'a>(
    report: &'a Report,
    lines: &'a [ClusterLine],
) -> JsonWithClusters<'a> {
    JsonWithClusters {
        report: super::json::JsonReport::from(report),
        clusters: lines,
        probable_operators: &[],
    }
}

/// `{"version": 1, "findings": [...], "clusters": [...]}`, pretty, then a newline.
pub fn write_json(report: &Report, lines: &[ClusterLine], out: &mut dyn Write) -> io::Result<()> {
    write_overview_json(report, lines, &[], out)
}

/// [`write_json`] with the probable operators as `probableOperators` when there are some.
pub fn write_overview_json(
    report: &Report,
    lines: &[ClusterLine],
    operators: &[OperatorLine],
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut json = json_with_clusters(report, lines);
    json.probable_operators = operators;
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(namespace: &str, name: &str, health: &str) -> ClusterLine {
        ClusterLine {
            kind: "FlinkDeployment".into(),
            namespace: namespace.into(),
            name: name.into(),
            mode: "operator",
            jobmanagers_ready: 0,
            jobmanagers_wanted: 1,
            taskmanagers_ready: 0,
            taskmanagers: 0,
            status: Some("DEPLOYED".into()),
            job: Some("RECONCILING".into()),
            critical: 4,
            warnings: 2,
            info: 0,
            health: health.into(),
        }
    }

    fn draw(lines: &[ClusterLine], width: usize) -> String {
        let mut out = Vec::new();
        write_table(lines, &Style::PLAIN.with_width(width), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_table_fits_the_width_by_wrapping_health_then_dropping_one_namespace() {
        let one = [line("analytics", "orders", "4 critical, 2 warnings")];
        let wide = draw(&one, 200);
        assert!(wide.starts_with("NAMESPACE  NAME"), "{wide}");
        assert!(
            wide.contains("RECONCILING  4 critical, 2 warnings\n"),
            "{wide}"
        );
        let hundred = draw(&one, 100);
        assert!(hundred.starts_with("NAMESPACE  NAME"), "{hundred}");
        assert!(hundred.contains("RECONCILING  4 critical,\n"), "{hundred}");
        let narrow = draw(&one, 80);
        assert!(narrow.starts_with("NAME    KIND"), "{narrow}");
        assert!(
            narrow.lines().all(|l| crate::render::text::width(l) <= 80),
            "{narrow}"
        );
        assert!(narrow.contains("4 critical,\n"), "{narrow}");
        assert!(narrow.contains(" 2 warnings\n"), "{narrow}");
        // Across namespaces the NAMESPACE column stays, even when that overflows.
        let two = [
            line("analytics", "orders", "4 critical, 2 warnings"),
            line("payments-long-namespace", "ledger", "ok"),
        ];
        let text = draw(&two, 80);
        assert!(text.starts_with("NAMESPACE"), "{text}");
        assert!(text.contains("payments-long-namespace"), "{text}");
    }

    #[test]
    fn a_long_job_cell_breaks_after_its_comma_so_every_row_fits_80_columns() {
        let mut wordcount = line("jobs", "wordcount", "1 critical");
        wordcount.kind = "FlinkCluster".into();
        wordcount.mode = "flinkcluster";
        wordcount.status = Some("Running".into());
        wordcount.job = Some("DeployFailed, submitter failed (exit 1)".into());
        // With the scenario's name the row is as narrow as its words allow (83 columns: the
        // longest JOB word and the HEALTH cell cannot break further; it was 108).
        let text = draw(std::slice::from_ref(&wordcount), 80);
        let widest = text.lines().map(crate::render::text::width).max();
        assert_eq!(widest, Some(83), "{text}");
        wordcount.name = "wc".into();
        let text = draw(std::slice::from_ref(&wordcount), 80);
        assert!(
            text.lines().all(|l| crate::render::text::width(l) <= 80),
            "{text}"
        );
        let rows: Vec<&str> = text.lines().collect();
        assert!(
            rows[1].contains("DeployFailed,") && rows[1].ends_with("1 critical"),
            "{text}"
        );
        let rest: Vec<&str> = rows[2..]
            .iter()
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
            .collect();
        assert_eq!(rest.join(" "), "submitter failed (exit 1)", "{text}");
        assert!(
            text.contains("(exit 1)\n") && !text.contains("(exit\n"),
            "never broken inside parentheses: {text}"
        );
        // Wide enough, one row as before.
        let wide = draw(std::slice::from_ref(&wordcount), 200);
        assert!(
            wide.contains("DeployFailed, submitter failed (exit 1)  1 critical\n"),
            "{wide}"
        );
    }
}

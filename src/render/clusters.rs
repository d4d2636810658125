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
/// line. Nothing when there is no cluster. HEALTH is what a person reads first: it breaks only
/// when nothing else can. Too wide for `style.width`, the table makes room in this order: the NAMESPACE column
/// goes when every cluster is in one namespace (which the header names), as kubectl shows it only
/// across namespaces; the KIND column goes when every row's kind is the one its MODE implies
/// (`operator` and `standalone` are FlinkDeployments, `lyft` FlinkApplications, `flinkcluster`
/// FlinkClusters); then the widest of NAMESPACE, NAME, STATUS and JOB breaks onto
/// continuation rows, names after `-`, `.` or `_` (down to [`NAME_ROOM`] columns), STATUS and JOB
/// at their words; across namespaces with a long HEALTH, the names down to their headings when
/// that makes it fit, else (names kept readable) HEALTH breaks after its comma. Widths are
/// display columns.
pub fn write_table(lines: &[ClusterLine], style: &Style, out: &mut dyn Write) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    const NAMESPACE: usize = 0;
    const NAME: usize = 1;
    const KIND: usize = 2;
    const STATUS: usize = 6;
    const JOB: usize = 7;
    const HEALTH: usize = 8;
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
    let mut shown = [true; 9];
    let total = |widths: &[usize], shown: &[bool; 9]| -> usize {
        (0..heading.len())
            .filter(|&i| shown[i])
            .map(|i| widths[i] + 2)
            .sum::<usize>()
            - 2
    };
    if total(&widths, &shown) > style.width
        && rows.iter().all(|r| r[NAMESPACE] == rows[0][NAMESPACE])
    {
        shown[NAMESPACE] = false;
    }
    if total(&widths, &shown) > style.width
        && lines
            .iter()
            .all(|l| implied_kind(l.mode) == Some(l.kind.as_str()))
    {
        shown[KIND] = false;
    }
    // The narrowest each breakable column may become: a name down to NAME_ROOM (or its own
    // width), STATUS and JOB down to their longest word.
    let longest_word = |i: usize| {
        rows.iter()
            .flat_map(|r| words(&r[i]))
            .map(width)
            .chain([heading[i].len()])
            .max()
            .unwrap_or(0)
    };
    let floor = [
        NAME_ROOM
            .min(widths[NAMESPACE])
            .max(heading[NAMESPACE].len()),
        NAME_ROOM.min(widths[NAME]).max(heading[NAME].len()),
        0,
        0,
        0,
        0,
        longest_word(STATUS),
        longest_word(JOB),
        0,
    ];
    let shrink = |widths: &mut Vec<usize>, floor: &[usize; 9]| {
        while total(widths, &shown) > style.width {
            let Some(i) = [NAMESPACE, NAME, STATUS, JOB]
                .into_iter()
                .filter(|&i| shown[i] && widths[i] > floor[i])
                .max_by_key(|&i| (widths[i], usize::MAX - i))
            else {
                break;
            };
            widths[i] -= 1;
        }
    };
    shrink(&mut widths, &floor);
    // Several namespaces and a long HEALTH: the names go down to their headings (NAME to
    // NAME_MIN), and only then, as a last resort, HEALTH breaks after its comma.
    let mut last_resort = floor;
    last_resort[NAMESPACE] = heading[NAMESPACE].len().min(widths[NAMESPACE]);
    last_resort[NAME] = NAME_MIN.min(widths[NAME]);
    let before = widths.clone();
    shrink(&mut widths, &last_resort);
    if total(&widths, &shown) > style.width {
        // Names that narrow would not make it fit: keep them readable, break HEALTH instead.
        widths = before;
        let longest_part = rows
            .iter()
            .flat_map(|r| r[HEALTH].split(", "))
            .map(width)
            .chain([heading[HEALTH].len()])
            .max()
            .unwrap_or(0);
        let before = total(&widths, &shown) - widths[HEALTH];
        widths[HEALTH] = style.width.saturating_sub(before).max(longest_part);
    }
    let cell = |i: usize, r: &[String; 9], w: usize| -> Vec<String> {
        match i {
            NAMESPACE | NAME => super::text::break_name(&r[i], w),
            STATUS | JOB => fill(&r[i], w),
            HEALTH => health_lines(&r[i], w),
            _ => vec![r[i].clone()],
        }
    };
    // A broken column is as wide as its longest line, no wider.
    for i in [NAMESPACE, NAME, STATUS, JOB, HEALTH] {
        widths[i] = rows
            .iter()
            .flat_map(|r| cell(i, r, widths[i]))
            .map(|l| width(&l))
            .chain([heading[i].len()])
            .max()
            .unwrap_or(0);
    }
    let visible: Vec<usize> = (0..heading.len()).filter(|&i| shown[i]).collect();
    let mut head = String::new();
    for &i in &visible {
        head.push_str(&super::text::pad_to(heading[i], widths[i]));
        head.push_str("  ");
    }
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
        let cells: Vec<Vec<String>> = (0..heading.len()).map(|i| cell(i, r, widths[i])).collect();
        let height = visible.iter().map(|&i| cells[i].len()).max().unwrap_or(1);
        for k in 0..height {
            let mut s = String::new();
            for &i in &visible {
                let cell = cells[i].get(k).map(String::as_str).unwrap_or("");
                if i == HEALTH {
                    s.push_str(&paint(cell));
                } else {
                    s.push_str(&super::text::pad_to(cell, widths[i]));
                    s.push_str("  ");
                }
            }
            writeln!(out, "{}", s.trim_end())?;
        }
    }
    writeln!(out)
}

/// The least room NAMESPACE and NAME keep when they must break, and NAME's last resort.
const NAME_ROOM: usize = 10;
const NAME_MIN: usize = 6;

/// "4 critical, 2 warnings" over lines of at most `room` columns, broken only after a comma.
fn health_lines(health: &str, room: usize) -> Vec<String> {
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

/// The kind a mode's clusters have (see `commands::overview`): `None` for `unknown`, which may
/// be either.
fn implied_kind(mode: &str) -> Option<&'static str> {
    use crate::flink::names::{KIND_FLINK_APPLICATION, KIND_FLINK_CLUSTER, KIND_FLINK_DEPLOYMENT};
    match mode {
        "operator" | "standalone" => Some(KIND_FLINK_DEPLOYMENT),
        "lyft" => Some(KIND_FLINK_APPLICATION),
        // A plain native cluster is named by its JobManager Deployment or its cluster-id.
        "flinkcluster" => Some(KIND_FLINK_CLUSTER),
        _ => None,
    }
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

    /// Every line within `columns` display columns, and each row's HEALTH whole on its first line.
    fn fits(text: &str, columns: usize, lines: &[ClusterLine]) {
        for l in text.lines() {
            assert!(
                crate::render::text::width(l) <= columns,
                "{l:?} is wider than {columns}:\n{text}"
            );
        }
        for l in lines {
            assert!(
                text.lines()
                    .any(|row| row.ends_with(&format!("  {}", l.health))),
                "HEALTH {:?} broken:\n{text}",
                l.health
            );
        }
    }

    #[test]
    fn health_stays_on_one_row_the_namespace_and_kind_go_first_at_80_columns() {
        let one = [line("analytics", "orders", "4 critical, 2 warnings")];
        let wide = draw(&one, 200);
        assert!(wide.starts_with("NAMESPACE  NAME"), "{wide}");
        assert!(
            wide.contains("RECONCILING  4 critical, 2 warnings\n"),
            "{wide}"
        );
        let narrow = draw(&one, 80);
        // It was `4 critical,` with `2 warnings` on a second row (issue 34).
        assert!(narrow.starts_with("NAME    MODE"), "{narrow}");
        assert!(
            narrow.contains("RECONCILING  4 critical, 2 warnings\n"),
            "{narrow}"
        );
        assert_eq!(narrow.lines().count(), 3, "{narrow}");
        fits(&narrow, 80, &one);
        // A kind its mode does not imply (mode unknown) keeps its column.
        let mut unknown = line("analytics", "orders", "4 critical, 2 warnings");
        unknown.mode = "unknown";
        let text = draw(std::slice::from_ref(&unknown), 80);
        assert!(text.contains("FlinkDeployment"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
    }

    /// The cells of one column, from the rows of the first cluster (ASCII), read down it.
    fn first_cluster_column(text: &str, heading: &str, next: &str) -> String {
        let head = text.lines().next().unwrap();
        let (from, to) = (head.find(heading).unwrap(), head.find(next).unwrap());
        let mut rows = text.lines().skip(1);
        let first = rows.next().unwrap();
        std::iter::once(first)
            .chain(rows.take_while(|r| !r.contains("0/1")))
            .map(|r| r.get(from..to.min(r.len())).unwrap_or("").trim())
            .collect()
    }

    #[test]
    fn long_and_wide_names_break_so_the_table_fits_80_display_columns() {
        // One namespace: the name breaks after its dashes, HEALTH stays whole, CJK aligned.
        let ns = "payments-settlement-eu-west-1";
        let lines = [
            line(
                ns,
                "ledger-reconciliation-streaming-job",
                "12 critical, 10 warnings",
            ),
            line(ns, "注文-ストリーム-処理", "1 warning"),
            line(ns, "orders", "ok"),
        ];
        let text = draw(&lines, 80);
        fits(&text, 80, &lines);
        assert!(text.starts_with("NAME "), "{text}");
        assert_eq!(
            first_cluster_column(&text, "NAME ", "MODE"),
            "ledger-reconciliation-streaming-job",
            "{text}"
        );
        let health_at = |needle: &str| {
            let row = text.lines().find(|l| l.ends_with(needle)).unwrap();
            crate::render::text::width(&row[..row.rfind(needle).unwrap()])
        };
        assert_eq!(
            health_at("1 warning"),
            health_at("12 critical, 10 warnings"),
            "{text}"
        );
        assert_eq!(health_at("ok"), health_at("1 warning"), "{text}");
        // Several namespaces, long and wide: every line still fits, nothing is lost.
        let lines = [
            line(
                ns,
                "ledger-reconciliation-streaming-job",
                "2 critical, 1 warning",
            ),
            line("分析-チーム", "注文-ストリーム-処理", "1 warning"),
            line("analytics", "orders", "ok"),
        ];
        let text = draw(&lines, 80);
        for l in text.lines() {
            assert!(crate::render::text::width(l) <= 80, "{l:?}:\n{text}");
        }
        assert_eq!(
            first_cluster_column(&text, "NAMESPACE", "NAME "),
            ns,
            "{text}"
        );
        assert_eq!(
            first_cluster_column(&text, "NAME ", "MODE"),
            "ledger-reconciliation-streaming-job",
            "{text}"
        );
        assert!(
            text.contains("  1 warning\n") && text.contains("  ok\n"),
            "{text}"
        );
    }

    #[test]
    fn a_long_job_cell_breaks_after_its_comma_so_every_row_fits_80_columns() {
        let mut wordcount = line("jobs", "wordcount", "1 critical");
        wordcount.kind = "FlinkCluster".into();
        wordcount.mode = "flinkcluster";
        wordcount.status = Some("Running".into());
        wordcount.job = Some("DeployFailed, submitter failed (exit 1)".into());
        // With the scenario's name the row fits once KIND goes (a FlinkCluster is what the mode
        // `flinkcluster` names): 80 columns, it was 83 with KIND, 108 before JOB broke.
        let text = draw(std::slice::from_ref(&wordcount), 80);
        let widest = text.lines().map(crate::render::text::width).max();
        assert_eq!(widest, Some(79), "{text}");
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
        assert_eq!(rest.join(" "), "failed (exit 1)", "{text}");
        // The column is as wide as its longest line, no wider.
        assert!(
            rows[1].contains("DeployFailed, submitter  1 critical"),
            "{text}"
        );
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

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
    /// its cluster-id) or FlinkApplication.
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `operator`, `standalone`, `native` or `lyft`.
    pub mode: &'static str,
    pub jobmanagers_ready: u32,
    pub jobmanagers_wanted: u32,
    pub taskmanagers_ready: u32,
    pub taskmanagers: u32,
    /// The CR's own state: FlinkDeployment `status.lifecycleState`, FlinkApplication
    /// `status.phase`; None for a plain native cluster.
    pub status: Option<String>,
    /// The job's state as the CR reports it (`RUNNING`, `FAILED`, ...); None when unknown (plain
    /// native, a session cluster).
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
/// line. Nothing when there is no cluster.
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
    let widths: Vec<usize> = (0..heading.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([heading[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let last = heading.len() - 1;
    let mut head = String::new();
    for (i, h) in heading.iter().enumerate() {
        if i == last {
            head.push_str(h);
        } else {
            head.push_str(&format!("{h:<w$}  ", w = widths[i]));
        }
    }
    writeln!(out, "{}", style.bold(head.trim_end()))?;
    for (l, r) in lines.iter().zip(&rows) {
        let mut s = String::new();
        for (i, cell) in r.iter().enumerate() {
            if i == last {
                let health = if l.critical > 0 {
                    style.severity(Severity::Critical).replace("critical", cell)
                } else if l.warnings > 0 {
                    style.severity(Severity::Warning).replace("warning", cell)
                } else {
                    cell.clone()
                };
                s.push_str(&health);
            } else {
                s.push_str(&format!("{cell:<w$}  ", w = widths[i]));
            }
        }
        writeln!(out, "{}", s.trim_end())?;
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
}

pub fn json_with_clusters<'a>(
    report: &'a Report,
    lines: &'a [ClusterLine],
) -> JsonWithClusters<'a> {
    JsonWithClusters {
        report: super::json::JsonReport::from(report),
        clusters: lines,
    }
}

/// `{"version": 1, "findings": [...], "clusters": [...]}`, pretty, then a newline.
pub fn write_json(report: &Report, lines: &[ClusterLine], out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &json_with_clusters(report, lines))?;
    writeln!(out)
}

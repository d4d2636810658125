//! can-i's report drawn as a table, Markdown or JSON.

use super::Style;
use crate::flink::access::{AccessReport, Method, Row};
use crate::flink::permissions;
use std::io::Write;

pub const ALLOWED: &str = "✓";
pub const DENIED: &str = "✗";
const UNKNOWN: &str = "?";

fn mark(allowed: Option<bool>) -> &'static str {
    match allowed {
        Some(true) => ALLOWED,
        Some(false) => DENIED,
        None => UNKNOWN,
    }
}

/// A row's mark under each verb column (empty where the row asks nothing of that verb).
fn marks(row: &Row, verbs: &[String]) -> Vec<&'static str> {
    verbs
        .iter()
        .map(|v| {
            row.cells
                .iter()
                .find(|c| &c.verb == v)
                .map(|c| mark(c.allowed))
                .unwrap_or("")
        })
        .collect()
}

/// A laid-out matrix after a blank line, its marks coloured after layout (comfy-table would
/// count escape codes as width).
fn write_table(
    table: &comfy_table::Table,
    style: &Style,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut text = table.to_string();
    if style.color {
        text = text
            .replace(DENIED, &style.bold(DENIED))
            .replace(" ? ", &format!(" {} ", style.dim(UNKNOWN)));
    }
    writeln!(out)?;
    for line in text.lines() {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The verbs any row needs, in reading order: the matrix's columns.
fn columns(report: &AccessReport) -> Vec<String> {
    let mut verbs: Vec<String> = report.cells().map(|(_, c)| c.verb.clone()).collect();
    verbs.sort_by(|a, b| {
        permissions::verb_rank(a)
            .cmp(&permissions::verb_rank(b))
            .then(a.cmp(b))
    });
    verbs.dedup();
    verbs
}

fn row_method(row: &Row) -> String {
    let mut methods: Vec<Method> = row.cells.iter().map(|c| c.method).collect();
    methods.sort();
    methods.dedup();
    methods
        .iter()
        .map(|m| m.label())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The header lines both text formats share.
fn heading(report: &AccessReport) -> Vec<String> {
    let scope = if report.namespace.is_empty() {
        "all namespaces".to_string()
    } else {
        format!("namespace {}", report.namespace)
    };
    vec![
        format!("kubectl flink can-i: {} in {scope}", report.subject_display),
        format!("  for:     {}", report.what()),
        format!("  subject: from {}", report.source),
    ]
}

/// Denied and unknown cells, grouped by resource and reason: "create, delete pods: <reason>".
fn problems(report: &AccessReport) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    // One reason for every cell that is not allowed (nothing granted at all, typically): one line.
    let mut reasons: Vec<(Option<bool>, &str)> = report
        .cells()
        .filter(|(_, c)| c.allowed != Some(true))
        .map(|(_, c)| (c.allowed, c.reason.as_str()))
        .collect();
    let n = reasons.len();
    reasons.sort();
    reasons.dedup();
    if n > 1 && reasons.len() == 1 {
        let (allowed, reason) = reasons[0];
        let what = if n == report.cells().count() {
            format!("all {n}")
        } else {
            format!("{n} (marked above)")
        };
        out.push((allowed.is_none(), format!("{what}: {reason}")));
        return out;
    }
    for row in &report.rows {
        let mut by_reason: Vec<(Option<bool>, String, Vec<String>)> = Vec::new();
        for c in row.cells.iter().filter(|c| c.allowed != Some(true)) {
            match by_reason
                .iter_mut()
                .find(|(a, r, _)| *a == c.allowed && *r == c.reason)
            {
                Some(e) => e.2.push(c.verb.clone()),
                None => by_reason.push((c.allowed, c.reason.clone(), vec![c.verb.clone()])),
            }
        }
        for (allowed, reason, verbs) in by_reason {
            out.push((
                allowed.is_none(),
                format!("{} {}: {reason}", verbs.join(", "), row.display_resource()),
            ));
        }
    }
    out
}

/// The table of `can-i`. What the API server said (Status messages of refused reviews, names)
/// reaches the terminal through the one sanitiser: drawn first, then every line made safe.
pub fn render_table(
    report: &AccessReport,
    style: &Style,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    draw_table(report, style, &mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    out.write_all(super::terminal::plain_lines(&text, style.color).as_bytes())
}

fn draw_table(report: &AccessReport, style: &Style, out: &mut dyn Write) -> std::io::Result<()> {
    for (i, line) in heading(report).iter().enumerate() {
        writeln!(
            out,
            "{}",
            if i == 0 {
                style.bold(line)
            } else {
                line.clone()
            }
        )?;
    }
    if report.rows.is_empty() {
        writeln!(out, "\n{}", report.summary())?;
        for n in &report.notes {
            writeln!(out, "note: {n}")?;
        }
        return Ok(());
    }
    let verbs = columns(report);
    let longest_word = |s: &str| {
        s.split_whitespace()
            .map(super::text::width)
            .max()
            .unwrap_or(0)
    };
    let mut header = vec!["RESOURCE".to_string()];
    header.extend(verbs.iter().map(|v| v.to_ascii_uppercase()));
    header.push("METHOD".into());
    header.push("WHY".into());
    let mut rows: Vec<Vec<String>> = Vec::new();
    for row in &report.rows {
        let mut cells = vec![row.display_resource()];
        cells.extend(marks(row, &verbs).into_iter().map(String::from));
        cells.push(row_method(row));
        cells.push(row.why.clone());
        rows.push(cells);
    }
    // No column narrower than its longest word (comfy-table then wraps at spaces only), padding
    // included.
    let least: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| longest_word(&r[i]))
                .chain([longest_word(&header[i])])
                .max()
                .unwrap_or(1)
                + 2
        })
        .collect();
    // Too narrow for WHY beside the marks: the reasons go under the matrix; METHOD too when
    // every row has the same, said once.
    let why = header.len() - 1;
    let method = why - 1;
    let one_method = rows.iter().all(|r| r[method] == rows[0][method]);
    let keep: Vec<usize> = if least.iter().sum::<usize>() <= style.width {
        (0..header.len()).collect()
    } else if one_method {
        (0..method).collect()
    } else {
        (0..why).collect()
    };
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::NOTHING);
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    table.set_width(u16::try_from(style.width).unwrap_or(u16::MAX));
    table.set_header(keep.iter().map(|&i| header[i].clone()));
    for r in &rows {
        table.add_row(keep.iter().map(|&i| r[i].clone()));
    }
    for (k, column) in table.column_iter_mut().enumerate() {
        column.set_constraint(comfy_table::ColumnConstraint::LowerBoundary(
            comfy_table::Width::Fixed(u16::try_from(least[keep[k]]).unwrap_or(u16::MAX)),
        ));
    }
    write_table(&table, style, out)?;
    if !keep.contains(&method) {
        let text = format!("method: {}", rows[0][method]);
        for line in crate::render::text::wrap(&text, style.width.saturating_sub(1)) {
            writeln!(out, " {line}")?;
        }
    }
    if !keep.contains(&why) {
        writeln!(out)?;
        for r in &rows {
            let text = format!("{}: {}", r[0], r[why]);
            for (k, line) in crate::render::text::wrap(&text, style.width.saturating_sub(3))
                .iter()
                .enumerate()
            {
                writeln!(out, "{}{line}", if k == 0 { " " } else { "   " })?;
            }
        }
    }
    let problems = problems(report);
    if !problems.is_empty() {
        writeln!(out)?;
        for (unknown, p) in problems {
            let label = if unknown { "unknown" } else { "denied" };
            writeln!(
                out,
                "{} {p}",
                if unknown {
                    style.dim(label)
                } else {
                    style.bold(label)
                }
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "{}", report.summary())?;
    for n in &report.notes {
        writeln!(out, "note: {n}")?;
    }
    if report.denied() > 0 && !report.fix_command.is_empty() {
        writeln!(out, "fix: {}", style.code(&report.fix_command))?;
    }
    Ok(())
}

/// The Markdown of `can-i`, through the one sanitiser as the table.
pub fn render_markdown(report: &AccessReport, out: &mut dyn Write) -> std::io::Result<()> {
    let mut buf = Vec::new();
    draw_markdown(report, "#", &mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    out.write_all(super::terminal::plain_lines(&text, false).as_bytes())
}

fn draw_markdown(report: &AccessReport, level: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let head = heading(report);
    writeln!(out, "{level} {}\n", head[0])?;
    for l in &head[1..] {
        writeln!(out, "- {}", l.trim())?;
    }
    if !report.rows.is_empty() {
        let verbs = columns(report);
        writeln!(out, "\n| resource | {} | method | why |", verbs.join(" | "))?;
        writeln!(out, "|---|{}---|---|", "---|".repeat(verbs.len()))?;
        for row in &report.rows {
            let marks = marks(row, &verbs);
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                row.display_resource(),
                marks.join(" | "),
                row_method(row),
                row.why
            )?;
        }
        let problems = problems(report);
        if !problems.is_empty() {
            writeln!(out)?;
            for (unknown, p) in problems {
                writeln!(
                    out,
                    "- **{}** {}",
                    if unknown { "unknown" } else { "denied" },
                    p.replace('|', "\\|")
                )?;
            }
        }
    }
    writeln!(out, "\n{}", report.summary())?;
    for n in &report.notes {
        writeln!(out, "\n> note: {n}")?;
    }
    Ok(())
}

/// One report as JSON (what `render_json` prints).
fn json_value(report: &AccessReport) -> serde_json::Value {
    #[derive(serde::Serialize)]
    struct Json<'a> {
        version: u32,
        subject: &'a str,
        namespace: &'a str,
        #[serde(rename = "for")]
        for_: &'static str,
        mode: &'static str,
        ha: Option<bool>,
        source: &'a str,
        decisions: Vec<JsonDecision<'a>>,
        notes: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        fix: Option<serde_json::Value>,
    }
    #[derive(serde::Serialize)]
    struct JsonDecision<'a> {
        group: &'a str,
        resource: &'a str,
        verb: &'a str,
        allowed: Option<bool>,
        method: &'static str,
        reason: &'a str,
        why: &'a str,
    }
    let v = Json {
        version: 1,
        subject: &report.subject,
        namespace: &report.namespace,
        for_: report.holder.as_str(),
        mode: permissions::set_name(report.mode),
        ha: report.ha,
        source: &report.source,
        decisions: report
            .cells()
            .map(|(row, c)| JsonDecision {
                group: &row.group,
                resource: &row.resource,
                verb: &c.verb,
                allowed: c.allowed,
                method: c.method.id(),
                reason: &c.reason,
                why: &row.why,
            })
            .collect(),
        notes: &report.notes,
        fix: report.fix.as_ref().map(|f| match f {
            Ok(y) => serde_json::Value::String(y.clone()),
            Err(e) => serde_json::json!({ "error": e }),
        }),
    };
    serde_json::to_value(&v).unwrap_or_default()
}

/// `{"version": 1, "subject", "namespace", "decisions": [{group, resource, verb, allowed, method,
/// reason, why}]}`, plus `for`, `mode`, `ha`, `source`, `notes` and, with --fix, `fix`.
pub fn render_json(report: &AccessReport, out: &mut dyn Write) -> std::io::Result<()> {
    write_json_value(&json_value(report), out)
}

fn write_json_value(v: &serde_json::Value, out: &mut dyn Write) -> std::io::Result<()> {
    // serde_json escapes C0 controls but writes DEL and C1 (U+0080..U+009F) raw.
    let text = serde_json::to_string_pretty(v).map_err(std::io::Error::other)?;
    writeln!(out, "{}", super::terminal::json_controls_escaped(&text))
}

/// What came of one context of `can-i --context a,b`: its report, or its status (`unreachable`,
/// `failed`, `not found`) and why.
pub struct ContextAccess {
    /// The kubeconfig context, without control characters.
    pub context: String,
    pub outcome: Result<AccessReport, (&'static str, String)>,
    /// The exit code `can-i --context NAME` would have ended with.
    pub exit_code: i32,
    pub seconds: f64,
}

/// "3 contexts; 1 not checked: dead".
fn fleet_head(contexts: &[ContextAccess]) -> String {
    let failed: Vec<&str> = contexts
        .iter()
        .filter(|c| c.outcome.is_err())
        .map(|c| c.context.as_str())
        .collect();
    let mut head = format!(
        "kubectl flink can-i: {}",
        super::plural(contexts.len(), "context", "contexts")
    );
    if !failed.is_empty() {
        head.push_str(&format!(
            "; {} not checked: {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    head
}

/// The verbs of every context's rows, in reading order.
fn fleet_columns(contexts: &[ContextAccess]) -> Vec<String> {
    let mut verbs: Vec<String> = contexts
        .iter()
        .filter_map(|c| c.outcome.as_ref().ok())
        .flat_map(columns)
        .collect();
    verbs.sort_by(|a, b| {
        permissions::verb_rank(a)
            .cmp(&permissions::verb_rank(b))
            .then(a.cmp(b))
    });
    verbs.dedup();
    verbs
}

/// One matrix for every context: a CONTEXT column before each resource's marks, a context not
/// checked in its own row (its status where the resource goes); then each context's summary, what
/// it lacks and its fix, and why a context was not checked.
pub fn render_fleet_table(
    contexts: &[ContextAccess],
    style: &Style,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    draw_fleet_table(contexts, style, &mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    out.write_all(super::terminal::plain_lines(&text, style.color).as_bytes())
}

fn draw_fleet_table(
    contexts: &[ContextAccess],
    style: &Style,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for line in super::text::wrap(&fleet_head(contexts), style.width) {
        writeln!(out, "{}", style.bold(&line))?;
    }
    let verbs = fleet_columns(contexts);
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::NOTHING);
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    table.set_width(u16::try_from(style.width).unwrap_or(u16::MAX));
    let mut header = vec!["CONTEXT".to_string(), "RESOURCE".to_string()];
    header.extend(verbs.iter().map(|v| v.to_ascii_uppercase()));
    table.set_header(header);
    for c in contexts {
        match &c.outcome {
            Err((status, _)) => {
                let mut row = vec![c.context.clone(), status.to_string()];
                row.extend(verbs.iter().map(|_| String::new()));
                table.add_row(row);
            }
            Ok(report) if report.rows.is_empty() => {
                let mut row = vec![c.context.clone(), "(needs nothing)".to_string()];
                row.extend(verbs.iter().map(|_| String::new()));
                table.add_row(row);
            }
            Ok(report) => {
                for r in &report.rows {
                    let mut row = vec![c.context.clone(), r.display_resource()];
                    row.extend(marks(r, &verbs).into_iter().map(String::from));
                    table.add_row(row);
                }
            }
        }
    }
    write_table(&table, style, out)?;
    let indent = |text: &str, out: &mut dyn Write| -> std::io::Result<()> {
        for line in super::text::wrap(text, style.width.saturating_sub(2).max(20)) {
            writeln!(out, "  {line}")?;
        }
        Ok(())
    };
    for c in contexts {
        writeln!(out)?;
        match &c.outcome {
            Err((status, error)) => {
                writeln!(
                    out,
                    "{}",
                    style.bold(&format!("context {}: {status}", c.context))
                )?;
                indent(error, out)?;
            }
            Ok(report) => {
                writeln!(out, "{}", style.bold(&format!("context {}", c.context)))?;
                indent(&report.summary(), out)?;
                indent(
                    &format!("for: {}; subject from {}", report.what(), report.source),
                    out,
                )?;
                for (unknown, p) in problems(report) {
                    indent(
                        &format!("{} {p}", if unknown { "unknown" } else { "denied" }),
                        out,
                    )?;
                }
                for n in &report.notes {
                    indent(&format!("note: {n}"), out)?;
                }
                if report.denied() > 0 && !report.fix_command.is_empty() {
                    writeln!(out, "  fix: {}", style.code(&report.fix_command))?;
                }
            }
        }
    }
    Ok(())
}

/// The Markdown of several contexts: one matrix with a context column, then each context's own
/// report (as `can-i --context NAME -o markdown`, one heading level down) or why it was not
/// checked.
pub fn render_fleet_markdown(
    contexts: &[ContextAccess],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    draw_fleet_markdown(contexts, &mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    out.write_all(super::terminal::plain_lines(&text, false).as_bytes())
}

fn draw_fleet_markdown(contexts: &[ContextAccess], out: &mut dyn Write) -> std::io::Result<()> {
    let cell = |s: &str| s.replace('|', "\\|");
    writeln!(out, "# {}\n", fleet_head(contexts))?;
    let verbs = fleet_columns(contexts);
    writeln!(out, "| context | resource | {} |", verbs.join(" | "))?;
    writeln!(out, "|---|---|{}", "---|".repeat(verbs.len()))?;
    for c in contexts {
        match &c.outcome {
            Err((status, _)) => writeln!(
                out,
                "| {} | **{status}** |{}",
                cell(&c.context),
                " |".repeat(verbs.len())
            )?,
            Ok(report) => {
                for r in &report.rows {
                    let marks = marks(r, &verbs);
                    writeln!(
                        out,
                        "| {} | `{}` | {} |",
                        cell(&c.context),
                        r.display_resource(),
                        marks.join(" | ")
                    )?;
                }
            }
        }
    }
    for c in contexts {
        writeln!(out, "\n## Context {}\n", c.context)?;
        match &c.outcome {
            Err((status, error)) => writeln!(out, "**{status}**: {error}")?,
            Ok(report) => draw_markdown(report, "###", out)?,
        }
    }
    Ok(())
}

/// `{"version": 1, "contexts": [...]}`: each context's report as `can-i --context NAME -o json`
/// prints it, with its `context`, `status` (`checked`, `unreachable`, `failed`, `not found`) and
/// `exitCode`; a context not checked has its `error` instead of a report.
pub fn render_fleet_json(contexts: &[ContextAccess], out: &mut dyn Write) -> std::io::Result<()> {
    let mut all = Vec::new();
    for c in contexts {
        let mut v = match &c.outcome {
            Ok(report) => json_value(report),
            Err((status, error)) => serde_json::json!({"status": status, "error": error}),
        };
        if let Some(map) = v.as_object_mut() {
            map.remove("version");
            map.insert("context".into(), c.context.clone().into());
            map.entry("status").or_insert_with(|| "checked".into());
            map.insert("exitCode".into(), c.exit_code.into());
            map.insert(
                "seconds".into(),
                ((c.seconds * 1000.0).round() / 1000.0).into(),
            );
        }
        all.push(v);
    }
    write_json_value(&serde_json::json!({"version": 1, "contexts": all}), out)
}

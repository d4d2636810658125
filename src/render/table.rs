//! The terminal view (the default `-o table`).
//!
//! Layout, for the width in `style.width` (the terminal's, 80 when piped):
//! 1. one header line: "2 root causes, 3 symptoms in FlinkDeployment analytics/orders (scope)";
//! 2. a summary table (comfy-table), one row per finding (its title wrapped in the room left),
//!    so every root cause is on the first screen;
//! 3. one block per root cause: severity word, rule, category, title, object, evidence, fix,
//!    verify, then the symptoms it explains, folded under it in a compact form.
//!
//! Nothing is cut: text wraps at spaces (long tokens after `/`, `.`, `-`), never in the middle of
//! a word. Fixes and verify commands are never put in table cells and stay copyable: prose in
//! them wraps, a long command breaks before a flag with a `\` continuation, and they are indented
//! with the block except the lines whose meaning needs column 0 (a YAML `---` separator, a
//! heredoc terminator): see `text::fix_lines`.

use super::text::{break_command, fix_lines, width, wrap};
use super::{object_line, summary, Context, Entry, Outline, Style};
use crate::finding::Finding;
use crate::rank::Report;
use std::io::{self, Write};

/// Indent of a root cause's body, under "1. ".
const BODY: usize = 3;
/// Width of the field labels ("evidence ").
const LABEL: usize = 9;
/// A symptom is compact: its first evidence lines, each cut to a couple of lines.
const SYMPTOM_EVIDENCE: usize = 3;
const SYMPTOM_EVIDENCE_LINES: usize = 2;
/// The least room beside the other columns in which the summary table still puts a title.
const TITLE_ROOM: usize = 40;

pub fn render(
    report: &Report,
    context: &Context,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    render_with_clusters(report, context, &[], style, out)
}

/// `doctor` without NAME: the list of Flink clusters in scope goes under the header line.
pub fn render_with_clusters(
    report: &Report,
    context: &Context,
    clusters: &[super::clusters::ClusterLine],
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    render_overview(report, context, clusters, &[], style, out)
}

/// [`render_with_clusters`] with the probable operators listed under the clusters.
pub fn render_overview(
    report: &Report,
    context: &Context,
    clusters: &[super::clusters::ClusterLine],
    operators: &[super::clusters::OperatorLine],
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let report = &*super::printable(report);
    if report.findings.is_empty() {
        let scope = if context.scope.is_empty() {
            String::new()
        } else {
            format!(" in {}", context.scope)
        };
        let text = format!("No problems found{scope} ({}).", super::checked());
        for (i, line) in wrap(&text, style.width).iter().enumerate() {
            if i == 0 {
                let (head, tail) = line.split_at("No problems found".len().min(line.len()));
                writeln!(out, "{}{tail}", style.bold(head))?;
            } else {
                writeln!(out, "{line}")?;
            }
        }
        if !clusters.is_empty() || !operators.is_empty() {
            writeln!(out)?;
            super::clusters::write_table(clusters, style, out)?;
            super::clusters::write_operator_table(operators, style, out)?;
        }
        return Ok(());
    }

    let outline = Outline::new(report);
    header(report, context, style, out)?;
    writeln!(out)?;
    super::clusters::write_table(clusters, style, out)?;
    super::clusters::write_operator_table(operators, style, out)?;
    summary_table(&outline, style, out)?;
    let entries = &outline.entries;
    for (i, root) in entries.iter().enumerate().filter(|(_, e)| e.depth == 0) {
        writeln!(out)?;
        root_block(root, style, out)?;
        let symptoms = outline.descendants(i);
        if !symptoms.is_empty() {
            writeln!(
                out,
                "{}{}",
                pad(BODY),
                style.dim(&format!(
                    "symptoms ({} explained by this cause):",
                    symptoms.len()
                ))
            )?;
            for s in symptoms {
                symptom(s, style, out)?;
            }
        }
    }
    Ok(())
}

fn header(
    report: &Report,
    context: &Context,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let summary = summary(report, context);
    let scope = if context.scope.is_empty() || summary.ends_with(&context.scope) {
        String::new()
    } else {
        format!("({})", context.scope)
    };
    if scope.is_empty() {
        writeln!(out, "{}", style.bold(&summary))
    } else if width(&summary) + 2 + width(&scope) <= style.width {
        writeln!(out, "{}  {}", style.bold(&summary), style.dim(&scope))
    } else {
        writeln!(out, "{}", style.bold(&summary))?;
        writeln!(out, "{}", style.dim(&scope))
    }
}

/// One row per finding: #, severity, category, title, kubectl's style (upper-case headings, two
/// spaces between columns, no borders). The title is wrapped in what the other columns leave,
/// over as many lines as it takes; when they leave less than `TITLE_ROOM`, it goes on the lines
/// under its row instead, indented under SEVERITY. The object is in the blocks below; when the
/// report spans several Flink deployments a DEPLOYMENT column says which (as kubectl adds
/// NAMESPACE with -A).
fn summary_table(outline: &Outline<'_>, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    let mut deployments: Vec<_> = outline
        .entries
        .iter()
        .map(|e| &e.finding.deployment)
        .collect();
    deployments.sort();
    deployments.dedup();
    let several = deployments.len() > 1;
    let mut heading = vec!["#", "SEVERITY", "CATEGORY"];
    if several {
        heading.push("DEPLOYMENT");
    }
    let rows: Vec<(Vec<String>, String)> = outline
        .entries
        .iter()
        .map(|e| {
            let f = e.finding;
            let mut cells = vec![
                format!("{}{}", " ".repeat(2 * e.depth), e.label()),
                f.severity.as_str().to_string(),
                f.category.id().to_string(),
            ];
            if several {
                cells.push(
                    f.deployment
                        .as_ref()
                        .map_or("-".to_string(), |d| match &d.namespace {
                            Some(ns) => format!("{ns}/{}", d.name),
                            None => d.name.clone(),
                        }),
                );
            }
            let mut title = one_line(&f.title);
            if f.count > 1 {
                title = format!("{title} (x{})", f.count);
            }
            (cells, title)
        })
        .collect();
    let widths: Vec<usize> = (0..heading.len())
        .map(|i| {
            rows.iter()
                .map(|(r, _)| width(&r[i]))
                .chain([width(heading[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let used: usize = widths.iter().map(|w| w + 2).sum();
    let beside = style.width.saturating_sub(used) >= TITLE_ROOM;
    let under = widths[0] + 2;
    let line = |cells: &[String], painted: &[String]| -> String {
        let mut s = String::new();
        for (i, (c, p)) in cells.iter().zip(painted).enumerate() {
            s.push_str(p);
            s.push_str(&pad(widths[i] + 2 - width(c)));
        }
        s
    };
    let head: Vec<String> = heading.iter().map(|h| h.to_string()).collect();
    let mut head_line = line(&head, &head);
    if beside {
        head_line.push_str("TITLE");
    }
    writeln!(out, "{}", style.bold(head_line.trim_end()))?;
    for (e, (cells, title)) in outline.entries.iter().zip(rows) {
        let mut painted = cells.clone();
        painted[1] = style.severity(e.finding.severity);
        let row = line(&cells, &painted);
        if beside {
            for (i, t) in wrap(&title, style.width - used).iter().enumerate() {
                if i == 0 {
                    writeln!(out, "{row}{t}")?;
                } else {
                    writeln!(out, "{}{t}", pad(used))?;
                }
            }
        } else {
            writeln!(out, "{}", row.trim_end())?;
            for t in wrap(&title, style.width.saturating_sub(under)) {
                writeln!(out, "{}{t}", pad(under))?;
            }
        }
    }
    Ok(())
}

fn root_block(e: &Entry<'_>, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    let f = e.finding;
    writeln!(
        out,
        "{} {}  {}  {}  {}",
        style.bold(&format!("{}.", e.label())),
        style.severity_label(f.severity),
        f.rule,
        style.bold(f.category.id()),
        style.dim(&format!("({} layer)", f.layer.as_str())),
    )?;
    for line in wrap(&one_line(&f.title), style.width.saturating_sub(BODY)) {
        writeln!(out, "{}{}", pad(BODY), style.bold(&line))?;
    }
    field(out, style, "object", &[object_line(f)])?;
    field(out, style, "evidence", &f.evidence)?;
    if !f.fix.trim().is_empty() {
        writeln!(out, "{}{}", pad(BODY), style.dim("fix"))?;
        verbatim(out, &f.fix, BODY + 2, style.width)?;
    }
    verify(out, style, f, BODY)?;
    Ok(())
}

/// The compact form of a symptom: number, severity, rule, category (and object when it fits),
/// then the title and its first evidence lines (the root cause's block has the fix).
fn symptom(e: &Entry<'_>, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    let f = e.finding;
    let indent = BODY + 3 * (e.depth - 1);
    let body = indent + 4;
    let label = e.label();
    let head = format!(
        "{label} {} {} {}",
        f.severity.as_str(),
        f.rule,
        f.category.id()
    );
    let object = object_line(f);
    let object_fits = indent + width(&head) + 2 + width(&object) <= style.width;
    writeln!(
        out,
        "{}{} {} {} {}{}",
        pad(indent),
        style.bold(&label),
        style.severity(f.severity),
        f.rule,
        f.category.id(),
        if object_fits {
            format!("  {}", style.dim(&object))
        } else {
            String::new()
        },
    )?;
    for line in wrap(&one_line(&f.title), style.width.saturating_sub(body)) {
        writeln!(out, "{}{line}", pad(body))?;
    }
    if !object_fits {
        for line in wrap(&format!("on {object}"), style.width.saturating_sub(body)) {
            writeln!(out, "{}{}", pad(body), style.dim(&line))?;
        }
    }
    let evidence: Vec<&str> = f.evidence.iter().flat_map(|e| e.lines()).collect();
    for ev in evidence.iter().take(SYMPTOM_EVIDENCE) {
        // Room for " ..." after the last line kept.
        let lines = wrap(&detab(ev), style.width.saturating_sub(body + 2 + 4));
        for (i, line) in lines.iter().take(SYMPTOM_EVIDENCE_LINES).enumerate() {
            let bullet = if i == 0 { "- " } else { "  " };
            let cut = i + 1 == SYMPTOM_EVIDENCE_LINES && lines.len() > SYMPTOM_EVIDENCE_LINES;
            writeln!(
                out,
                "{}{}{line}{}",
                pad(body),
                style.dim(bullet),
                if cut { " ..." } else { "" }
            )?;
        }
    }
    if evidence.len() > SYMPTOM_EVIDENCE {
        let more = evidence.len() - SYMPTOM_EVIDENCE;
        let text = format!(
            "(+{more} more evidence {}: -o markdown or -o json show all)",
            if more == 1 { "line" } else { "lines" }
        );
        writeln!(out, "{}{}", pad(body), style.dim(&text))?;
    }
    Ok(())
}

/// "   evidence first line, wrapped with a hanging indent
///             second line"
fn field(out: &mut dyn Write, style: &Style, label: &str, values: &[String]) -> io::Result<()> {
    let hang = BODY + LABEL + 1;
    let mut first = true;
    for value in values.iter().flat_map(|v| v.lines()) {
        for line in wrap(&detab(value), style.width.saturating_sub(hang)) {
            let lead = if first {
                format!("{}{} ", pad(BODY), style.dim(&format!("{label:<LABEL$}")))
            } else {
                pad(hang)
            };
            first = false;
            writeln!(out, "{lead}{line}")?;
        }
    }
    Ok(())
}

fn verify(out: &mut dyn Write, style: &Style, f: &Finding, indent: usize) -> io::Result<()> {
    let verify = f.verify.trim_end();
    if verify.trim().is_empty() {
        return Ok(());
    }
    if verify.contains('\n') {
        writeln!(out, "{}{}", pad(indent), style.dim("verify"))?;
        verbatim(out, verify, indent + 2, style.width)
    } else {
        let hang = indent + LABEL + 1;
        for (i, line) in break_command(verify.trim(), style.width.saturating_sub(hang))
            .iter()
            .enumerate()
        {
            let lead = if i == 0 {
                format!(
                    "{}{} ",
                    pad(indent),
                    style.dim(&format!("{:<LABEL$}", "verify"))
                )
            } else {
                pad(hang)
            };
            writeln!(out, "{lead}{}", style.code(line))?;
        }
        Ok(())
    }
}

/// Prints a fix or verify block laid out by `text::fix_lines`: prose wrapped, commands broken
/// with `\` continuations, indented except where column 0 carries meaning.
fn verbatim(out: &mut dyn Write, text: &str, indent: usize, width: usize) -> io::Result<()> {
    for line in fix_lines(text, width, indent) {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn detab(s: &str) -> String {
    s.replace('\t', "    ")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;
    use crate::render::style::has_ansi;

    fn draw(report: &Report, style: Style) -> String {
        let mut out = Vec::new();
        let ctx = Context {
            command: "doctor",
            scope: "bundle examples/canonical".into(),
        };
        render(report, &ctx, &style, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_has_no_ansi_and_fits_the_width_except_unbreakable_fix_parts() {
        for cols in [80, 100, 200] {
            let text = draw(&fixtures::report(), Style::PLAIN.with_width(cols));
            assert!(!has_ansi(&text), "{text}");
            for line in text.lines() {
                if width(line) > cols {
                    // Only the quoted JSON patch of the rename fix cannot be broken anywhere.
                    assert!(
                        line.trim_start().starts_with("-p '[{"),
                        "line wider than {cols} that could break: {line:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn wider_terminals_get_longer_lines_and_titles_stay_whole() {
        let mut report = fixtures::report();
        report.findings[0].title = "the main container is named `flink-job-manager`, not `flink-main-container`: it runs as an extra sidecar that prints Flink's usage and exits".into();
        let narrow = draw(&report, Style::PLAIN.with_width(80));
        let wide = draw(&report, Style::PLAIN.with_width(200));
        let longest = |t: &str| t.lines().map(width).max().unwrap_or(0);
        assert!(longest(&wide) > 100, "{wide}");
        assert!(narrow.lines().count() > wide.lines().count());
        for text in [&narrow, &wide] {
            // The summary row holds the title whole, over as many lines as it takes.
            let table: String = text
                .split("\n\n")
                .find(|p| p.starts_with("#  "))
                .expect(text)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(table.contains(&report.findings[0].title), "{text}");
            assert!(!text.contains("..."), "{text}");
        }
        assert!(
            wide.contains(&format!("  {}\n", report.findings[0].title)),
            "{wide}"
        );
    }

    #[test]
    fn colour_paints_the_severity() {
        let text = draw(&fixtures::report(), Style::COLOR);
        assert!(has_ansi(&text));
        assert!(text.contains("\x1b[1;31mCRITICAL\x1b[0m"), "{text}");
    }

    #[test]
    fn header_summary_and_table_come_first() {
        let text = draw(&fixtures::report(), Style::PLAIN.with_width(200));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "2 root causes, 3 symptoms in FlinkDeployment analytics/orders  (bundle examples/canonical)"
        );
        assert!(
            lines[2].starts_with("#  ")
                && lines[2].contains("SEVERITY")
                && lines[2].contains("TITLE")
        );
        assert!(
            lines[3].starts_with("1 ")
                && lines[3].contains("critical")
                && lines[3].contains("main_container_misnamed")
        );
        assert!(lines[4].trim_start().starts_with("1.1 "), "{}", lines[4]);
        assert!(
            lines[7].contains("flink_fatal_exit") && lines[7].ends_with("(x3)"),
            "{}",
            lines[7]
        );
        // Both root causes are listed within the first screen.
        let first_screen = lines[..lines.len().min(40)].join("\n");
        assert!(
            first_screen.contains("main_container_misnamed")
                && first_screen.contains("rbac_forbidden")
        );
    }

    #[test]
    fn several_deployments_add_a_deployment_column_and_long_titles_wrap() {
        let mut report = fixtures::report();
        report.findings[3].deployment = Some(crate::finding::ObjectRef::namespaced(
            "FlinkDeployment",
            "analytics",
            "payments",
        ));
        report.findings[0].title = "word ".repeat(40);
        for cols in [80, 100, 200] {
            let text = draw(&report, Style::PLAIN.with_width(cols));
            let lines: Vec<&str> = text.lines().collect();
            assert!(
                lines[0].starts_with("2 root causes, 3 symptoms in 2 Flink deployments  (bundle")
            );
            assert!(lines[2].contains("DEPLOYMENT"), "{}", lines[2]);
            let table = text.split("\n\n").nth(1).expect(&text);
            assert!(table.contains("analytics/payments"), "{table}");
            assert_eq!(table.matches("word").count(), 40, "{table}");
            assert!(table.lines().all(|l| width(l) <= cols), "{text}");
            // Titles go beside their rows when 40 columns are left for them, else under them.
            assert_eq!(lines[2].ends_with("TITLE"), cols > 100, "{text}");
        }
    }

    #[test]
    fn root_blocks_carry_everything_and_symptoms_sit_under_their_cause() {
        let text = draw(&fixtures::report(), Style::PLAIN.with_width(100));
        let block1 = text
            .find("1. CRITICAL  FLK101  main_container_misnamed  (spec layer)")
            .expect(&text);
        let block2 = text
            .find("2. CRITICAL  FLK501  rbac_forbidden  (identity layer)")
            .expect(&text);
        assert!(block1 < block2);
        let first = &text[block1..block2];
        assert!(first.contains("   main container is named `flink-job-manager`\n"));
        assert!(first.contains("   object    FlinkDeployment/orders -n analytics\n"));
        assert!(first.contains("   evidence  evidence of A\n"));
        assert!(first.contains("   verify    kubectl get pods -n analytics # verify A\n"));
        // The symptom chain A -> B -> C is folded under A, C deeper than B.
        let b = first
            .find("   1.1 warning FLK102 container_exit_zero_restarting")
            .expect(first);
        let c = first.find("      1.1.1 info FLK103").expect(first);
        assert!(b < c);
        assert!(first.contains("       - evidence of B\n"), "{first}");
        let second = &text[block2..];
        assert!(second.contains("2.1 warning FLK104 flink_fatal_exit"));
        assert!(second.contains(
            "Pod/orders-tm-1 -n analytics +2 more (orders-tm-2, Pod/orders-tm-3 -n other)"
        ));
        assert!(!second.contains("FLK102"));
    }

    #[test]
    fn fixes_are_indented_except_where_column_zero_carries_meaning() {
        let text = draw(&fixtures::report(), Style::PLAIN.with_width(200));
        // At 200 columns nothing needs breaking: every line of both fixes is there, indented
        // under its block, except the YAML document marker, which only works at column 0.
        for line in fixtures::RENAME_FIX
            .lines()
            .chain(fixtures::RBAC_FIX.lines())
            .filter(|l| !l.trim().is_empty())
        {
            let want = if line == "---" {
                "\n---\n".to_string()
            } else {
                format!("\n     {line}\n")
            };
            assert!(text.contains(&want), "missing fix line {want:?} in\n{text}");
        }
    }

    #[test]
    fn no_findings_says_so_and_what_was_checked() {
        let text = draw(&fixtures::empty(), Style::PLAIN);
        assert!(
            text.starts_with("No problems found in bundle examples/canonical ("),
            "{text}"
        );
        assert!(text.contains("checks over the"), "{text}");
        assert!(!has_ansi(&text));
    }
}

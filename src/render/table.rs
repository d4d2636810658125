//! The terminal view (the default `-o table`).
//!
//! Layout, readable at 100 columns:
//! 1. one header line: "2 root causes, 3 symptoms in FlinkDeployment analytics/orders (scope)";
//! 2. a summary table (comfy-table), one line per finding, so every root cause is on the first
//!    screen;
//! 3. one block per root cause: severity word, rule, category, title, object, evidence, fix,
//!    verify, then the symptoms it explains, folded under it in a compact form.
//!
//! Fixes and verify commands are never wrapped nor put in table cells: they are printed line for
//! line so they can be copied. They are indented with the block, unless indenting would change
//! their meaning (a YAML `---` separator or a shell heredoc terminator must start its line), in
//! which case they are printed at column 0.

use super::{object_line, summary, Context, Entry, Outline, Style};
use crate::finding::{Finding, Severity};
use crate::rank::Report;
use comfy_table::{presets, Attribute, Cell, Color, ContentArrangement, Table};
use std::io::{self, Write};

/// The width the layout is made for.
pub const WIDTH: usize = 100;
/// Indent of a root cause's body, under "1. ".
const BODY: usize = 3;
/// Width of the field labels ("evidence ").
const LABEL: usize = 9;
/// A symptom is compact: its first evidence lines, each cut to a couple of lines.
const SYMPTOM_EVIDENCE: usize = 3;
const SYMPTOM_EVIDENCE_LINES: usize = 2;

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
    let report = &*super::printable(report);
    if report.findings.is_empty() {
        let scope = if context.scope.is_empty() {
            String::new()
        } else {
            format!(" in {}", context.scope)
        };
        let text = format!("No problems found{scope} ({}).", super::checked());
        for (i, line) in wrap(&text, WIDTH).iter().enumerate() {
            if i == 0 {
                let (head, tail) = line.split_at("No problems found".len().min(line.len()));
                writeln!(out, "{}{tail}", style.bold(head))?;
            } else {
                writeln!(out, "{line}")?;
            }
        }
        if !clusters.is_empty() {
            writeln!(out)?;
            super::clusters::write_table(clusters, style, out)?;
        }
        return Ok(());
    }

    let outline = Outline::new(report);
    header(report, context, style, out)?;
    writeln!(out)?;
    super::clusters::write_table(clusters, style, out)?;
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
    } else if width(&summary) + 2 + width(&scope) <= WIDTH {
        writeln!(out, "{}  {}", style.bold(&summary), style.dim(&scope))
    } else {
        writeln!(out, "{}", style.bold(&summary))?;
        writeln!(out, "{}", style.dim(&scope))
    }
}

/// One line per finding: #, severity, category, title (cut to what fits). The object is in the
/// blocks below; when the report spans several Flink deployments a DEPLOYMENT column says which
/// (as kubectl adds NAMESPACE with -A).
fn summary_table(outline: &Outline<'_>, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    if style.color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
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
    heading.push("TITLE");
    let last = heading.len() - 1;
    table.set_header(heading.iter().map(|h| {
        if style.color {
            Cell::new(h).add_attribute(Attribute::Bold)
        } else {
            Cell::new(h)
        }
    }));
    let rows: Vec<Vec<String>> = outline
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
            cells.push(title);
            cells
        })
        .collect();
    // The title takes what the other columns leave, cut on one line: the blocks below have it whole.
    let used: usize = (0..last)
        .map(|i| {
            rows.iter()
                .map(|r| width(&r[i]))
                .chain([width(heading[i])])
                .max()
                .unwrap_or(0)
                + 2
        })
        .sum();
    let room = WIDTH.saturating_sub(used).max(20);
    for (e, mut cells) in outline.entries.iter().zip(rows) {
        let title = truncate(&cells.pop().unwrap_or_default(), room);
        let mut row: Vec<Cell> = cells.into_iter().map(Cell::new).collect();
        row[1] = severity_cell(e.finding.severity, style);
        row.push(Cell::new(title));
        table.add_row(row);
    }
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, if i == last { 0 } else { 2 }));
    }
    for line in table.lines() {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn severity_cell(s: Severity, style: &Style) -> Cell {
    let cell = Cell::new(s.as_str());
    if !style.color {
        return cell;
    }
    match s {
        Severity::Critical => cell.fg(Color::Red).add_attribute(Attribute::Bold),
        Severity::Warning => cell.fg(Color::Yellow).add_attribute(Attribute::Bold),
        Severity::Info => cell.fg(Color::Blue),
    }
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
    for line in wrap(&one_line(&f.title), WIDTH - BODY) {
        writeln!(out, "{}{}", pad(BODY), style.bold(&line))?;
    }
    field(out, style, "object", &[object_line(f)])?;
    field(out, style, "evidence", &f.evidence)?;
    if !f.fix.trim().is_empty() {
        writeln!(out, "{}{}", pad(BODY), style.dim("fix"))?;
        verbatim(out, &f.fix, BODY + 2)?;
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
    let object_fits = indent + width(&head) + 2 + width(&object) <= WIDTH;
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
    for line in wrap(&one_line(&f.title), WIDTH - body) {
        writeln!(out, "{}{line}", pad(body))?;
    }
    if !object_fits {
        for line in wrap(&format!("on {object}"), WIDTH - body) {
            writeln!(out, "{}{}", pad(body), style.dim(&line))?;
        }
    }
    let evidence: Vec<&str> = f.evidence.iter().flat_map(|e| e.lines()).collect();
    for ev in evidence.iter().take(SYMPTOM_EVIDENCE) {
        let lines = wrap(&detab(ev), WIDTH - body - 2);
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
        for line in wrap(&detab(value), WIDTH - hang) {
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
        verbatim(out, verify, indent + 2)
    } else {
        writeln!(
            out,
            "{}{} {}",
            pad(indent),
            style.dim(&format!("{:<LABEL$}", "verify")),
            style.code(verify.trim())
        )
    }
}

/// Prints text line for line (no wrapping), indented unless that would change its meaning.
fn verbatim(out: &mut dyn Write, text: &str, indent: usize) -> io::Result<()> {
    let indent = if column_zero_sensitive(text) {
        0
    } else {
        indent
    };
    for line in text.trim_end().lines() {
        if line.trim().is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "{}{line}", pad(indent))?;
        }
    }
    Ok(())
}

/// YAML document markers and heredoc terminators only work at the start of a line.
pub(crate) fn column_zero_sensitive(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_end();
        l == "---" || l == "..." || l.starts_with("--- ")
    }) || heredoc_terminator(text).is_some()
}

/// The terminator word of the first heredoc (`<<EOF`, `<<'EOF'`, `<<-"EOF"`) in `text`.
pub(crate) fn heredoc_terminator(text: &str) -> Option<String> {
    let at = text.find("<<")?;
    let rest = text[at + 2..].trim_start_matches('-').trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cut to `width` characters, "..." marking the cut.
fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    let kept: String = s.chars().take(max.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

fn detab(s: &str) -> String {
    s.replace('\t', "    ")
}

/// Greedy word wrap; a word longer than the width is cut. Lines that fit are kept as they are.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(20);
    if text.chars().count() <= width {
        return vec![text.to_string()];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split_whitespace() {
        let mut chars: Vec<char> = word.chars().collect();
        loop {
            let sep = usize::from(len > 0);
            if len + sep + chars.len() <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.extend(&chars);
                len += sep + chars.len();
                break;
            }
            if len > 0 {
                // Start a fresh line (a long word is cut from there).
                lines.push(std::mem::take(&mut line));
                len = 0;
                if chars.len() <= width {
                    continue;
                }
            }
            line.extend(&chars[..width]);
            lines.push(std::mem::take(&mut line));
            chars.drain(..width);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
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
    fn plain_has_no_ansi_and_fits_100_columns_except_fixes() {
        let text = draw(&fixtures::report(), Style::PLAIN);
        assert!(!has_ansi(&text), "{text}");
        let fixes: Vec<&str> = fixtures::RENAME_FIX
            .lines()
            .chain(fixtures::RBAC_FIX.lines())
            .collect();
        for line in text.lines() {
            if width(line) > WIDTH {
                assert!(
                    fixes.iter().any(|f| line.trim() == f.trim()),
                    "line wider than {WIDTH} that is not a fix line: {line:?}"
                );
            }
        }
    }

    #[test]
    fn colour_paints_the_severity() {
        let text = draw(&fixtures::report(), Style::COLOR);
        assert!(has_ansi(&text));
        assert!(text.contains("\x1b[1;31mCRITICAL\x1b[0m"), "{text}");
    }

    #[test]
    fn header_summary_and_table_come_first() {
        let text = draw(&fixtures::report(), Style::PLAIN);
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
    fn several_deployments_add_a_deployment_column_and_long_titles_are_cut() {
        let mut report = fixtures::report();
        report.findings[3].deployment = Some(crate::finding::ObjectRef::namespaced(
            "FlinkDeployment",
            "analytics",
            "payments",
        ));
        report.findings[0].title = "word ".repeat(40);
        let text = draw(&report, Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("2 root causes, 3 symptoms in 2 Flink deployments  (bundle"));
        assert!(lines[2].contains("DEPLOYMENT"), "{}", lines[2]);
        assert!(lines[6].contains("analytics/payments"), "{}", lines[6]);
        assert!(lines[3].ends_with("word..."), "{}", lines[3]);
        assert!(lines[2..8].iter().all(|l| width(l) <= WIDTH), "{text}");
    }

    #[test]
    fn root_blocks_carry_everything_and_symptoms_sit_under_their_cause() {
        let text = draw(&fixtures::report(), Style::PLAIN);
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
    fn fixes_are_verbatim_and_indented_only_when_safe() {
        let text = draw(&fixtures::report(), Style::PLAIN);
        // The rename fix is indented under its block, every line kept.
        for line in fixtures::RENAME_FIX
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            assert!(
                text.contains(&format!("\n     {line}\n")),
                "missing indented fix line {line:?}"
            );
        }
        // The RBAC fix has a `---` separator: printed at column 0 so it can be applied as is.
        for line in fixtures::RBAC_FIX.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                text.contains(&format!("\n{line}\n")),
                "missing verbatim fix line {line:?}"
            );
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

    #[test]
    fn wrap_keeps_short_lines_and_cuts_long_words() {
        assert_eq!(wrap("a  b", 30), ["a  b"]);
        let long = "word ".repeat(30);
        assert!(wrap(&long, 40).iter().all(|l| width(l) <= 40));
        let url = format!("see {}", "x".repeat(95));
        let lines = wrap(&url, 40);
        assert!(lines.iter().all(|l| width(l) <= 40), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), url.replace(' ', ""));
    }

    #[test]
    fn heredocs_and_document_markers_are_column_zero_sensitive() {
        assert!(column_zero_sensitive(
            "kubectl apply -f - <<'EOF'\nkind: Role\nEOF"
        ));
        assert_eq!(
            heredoc_terminator("cat <<-\"END\"\nx\nEND").as_deref(),
            Some("END")
        );
        assert!(column_zero_sensitive("a: 1\n---\nb: 2"));
        assert!(!column_zero_sensitive(fixtures::RENAME_FIX));
    }
}

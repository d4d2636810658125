//! Markdown, for pasting into a ticket: a summary table, then one section per root cause with
//! its evidence, fix and verify command in code blocks, and the symptoms it explains as a nested
//! list. Fixes are split into prose, ```sh and ```yaml blocks so each block can be copied whole.

use super::{object_line, summary, Context, Outline};
use crate::finding::Finding;
use crate::rank::Report;
use std::io::{self, Write};

pub fn render(report: &Report, context: &Context, out: &mut dyn Write) -> io::Result<()> {
    render_with_clusters(report, context, &[], out)
}

/// `render`, with doctor's list of the Flink clusters in scope (the table's overview) after the
/// summary line, as a Markdown table.
pub fn render_with_clusters(
    report: &Report,
    context: &Context,
    clusters: &[super::clusters::ClusterLine],
    out: &mut dyn Write,
) -> io::Result<()> {
    render_overview(report, context, clusters, &[], out)
}

/// [`render_with_clusters`] with the probable operators (JSON `probableOperators`) listed under
/// the clusters, as the terminal lists them.
pub fn render_overview(
    report: &Report,
    context: &Context,
    clusters: &[super::clusters::ClusterLine],
    operators: &[super::clusters::OperatorLine],
    out: &mut dyn Write,
) -> io::Result<()> {
    let title = if context.scope.is_empty() {
        format!("kubectl flink {}", context.command)
    } else {
        format!("kubectl flink {}: {}", context.command, context.scope)
    };
    writeln!(out, "# {}", inline(&title))?;
    writeln!(out)?;
    diagnosis(report, context, clusters, operators, "##", out)
}

/// The report under a title: the summary line, the clusters and probable operators, the table of
/// findings, then one section per root cause at `level` (`##`; `###` under a fleet's context).
pub(super) fn diagnosis(
    report: &Report,
    context: &Context,
    clusters: &[super::clusters::ClusterLine],
    operators: &[super::clusters::OperatorLine],
    level: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    let report = &*super::printable(report);
    if report.findings.is_empty() {
        writeln!(out, "**No problems found** ({}).", super::checked())?;
        if !operators.is_empty() {
            writeln!(out)?;
            operator_table(operators, out)?;
        }
        return Ok(());
    }
    writeln!(out, "**{}**", inline(&summary(report, context)))?;
    writeln!(out)?;
    if !clusters.is_empty() {
        writeln!(
            out,
            "| Namespace | Name | Kind | Mode | JM | TM | Status | Job | Health |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
        for l in clusters {
            writeln!(
                out,
                "| {} | {} | {} | {} | {}/{} | {}/{} | {} | {} | {} |",
                cell(&l.namespace),
                cell(&l.name),
                cell(&l.kind),
                l.mode,
                l.jobmanagers_ready,
                l.jobmanagers_wanted,
                l.taskmanagers_ready,
                l.taskmanagers,
                cell(l.status.as_deref().unwrap_or("-")),
                cell(l.job.as_deref().unwrap_or("-")),
                cell(&l.health),
            )?;
        }
        writeln!(out)?;
    }
    if !operators.is_empty() {
        operator_table(operators, out)?;
    }

    let outline = Outline::new(report);
    writeln!(out, "| # | Severity | Category | Object | Title |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    for e in &outline.entries {
        let f = e.finding;
        writeln!(
            out,
            "| {} | {} | `{}` | {} | {} |",
            e.label(),
            f.severity.as_str(),
            f.category.id(),
            code_span(&cell(&f.object.to_string())),
            cell(&f.title),
        )?;
    }

    for (i, root) in outline
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.depth == 0)
    {
        let f = root.finding;
        writeln!(out)?;
        writeln!(
            out,
            "{level} {}. {}: {}",
            root.label(),
            f.severity.as_str(),
            inline(&f.title)
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "- **Rule:** [{}]({}) · **Category:** `{}` · **Layer:** {}",
            f.rule,
            crate::finding::docs_url(f.rule),
            f.category.id(),
            f.layer.as_str()
        )?;
        writeln!(out, "- **Object:** {}", code_span(&object_line(f)))?;
        if !f.evidence.is_empty() {
            writeln!(out)?;
            writeln!(out, "**Evidence**")?;
            writeln!(out)?;
            code_block(out, "text", &f.evidence.join("\n"), "")?;
        }
        if !f.fix.trim().is_empty() {
            writeln!(out)?;
            writeln!(out, "**Fix**")?;
            writeln!(out)?;
            fix(out, &f.fix, "")?;
        }
        if !f.verify.trim().is_empty() {
            writeln!(out)?;
            writeln!(out, "**Verify**")?;
            writeln!(out)?;
            code_block(out, "sh", f.verify.trim_end(), "")?;
        }
        let symptoms = outline.descendants(i);
        if !symptoms.is_empty() {
            writeln!(out)?;
            writeln!(out, "**Symptoms explained by this cause**")?;
            writeln!(out)?;
            for (j, s) in symptoms.iter().enumerate() {
                if j > 0 {
                    // A loose list: items are separated, as their evidence blocks need.
                    writeln!(out)?;
                }
                symptom(out, s.finding, "  ".repeat(s.depth - 1))?;
            }
        }
    }
    Ok(())
}

/// The probable operators: what each probably is, and why (the wiring that makes it so).
fn operator_table(
    operators: &[super::clusters::OperatorLine],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "**Probably an operator** (nothing of its own says so)")?;
    writeln!(out)?;
    writeln!(out, "| Namespace | Kind | Name | Probably | Why |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    for o in operators {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&crate::shell::escape_controls(&o.namespace)),
            cell(&o.kind),
            cell(&crate::shell::escape_controls(&o.name)),
            cell(o.describe),
            cell(&crate::shell::escape_controls(&o.why)),
        )?;
    }
    writeln!(out)
}

/// A list item at the given nesting, with its evidence in a code block inside the item.
fn symptom(out: &mut dyn Write, f: &Finding, indent: String) -> io::Result<()> {
    writeln!(
        out,
        "{indent}- **{}** {} `{}`: {} ({})",
        f.severity.as_str(),
        f.rule,
        f.category.id(),
        inline(&f.title),
        code_span(&object_line(f)),
    )?;
    if !f.evidence.is_empty() {
        writeln!(out)?;
        code_block(out, "text", &f.evidence.join("\n"), &format!("{indent}  "))?;
    }
    Ok(())
}

fn fix(out: &mut dyn Write, text: &str, indent: &str) -> io::Result<()> {
    let segments = segments(text);
    for (i, (kind, body)) in segments.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        match kind {
            Piece::Prose => {
                for line in body.lines() {
                    writeln!(out, "{indent}{}", line.trim_end())?;
                }
            }
            Piece::Sh => code_block(out, "sh", body, indent)?,
            Piece::Yaml => code_block(out, "yaml", body, indent)?,
        }
    }
    Ok(())
}

/// A fenced block whose fence is longer than any backtick run inside, so content never ends it.
fn code_block(out: &mut dyn Write, lang: &str, body: &str, indent: &str) -> io::Result<()> {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    writeln!(out, "{indent}{fence}{lang}")?;
    for line in body.lines() {
        if line.is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "{indent}{line}")?;
        }
    }
    writeln!(out, "{indent}{fence}")
}

/// `text` as an inline code span, with a longer delimiter when the text has backticks.
fn code_span(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// Text for a heading or list item: one line.
fn inline(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text for a table cell: one line, pipes escaped.
fn cell(s: &str) -> String {
    inline(s).replace('|', "\\|")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece {
    Prose,
    Sh,
    Yaml,
}

/// Splits a fix into prose, shell and YAML parts. Paragraphs (separated by blank lines) are
/// classified one by one; neighbouring code paragraphs of one kind are joined into one block,
/// a heredoc stays with its command up to its terminator, and comment-only paragraphs join the
/// code that follows them.
pub(crate) fn segments(text: &str) -> Vec<(Piece, String)> {
    let lines: Vec<&str> = text.trim_matches('\n').lines().collect();
    let mut paragraphs: Vec<Vec<&str>> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        let mut para = Vec::new();
        while i < lines.len() && !lines[i].trim().is_empty() {
            para.push(lines[i]);
            if let Some(end) = super::text::heredoc_terminator(lines[i]) {
                // Everything up to the terminator belongs to this command, blank lines included.
                i += 1;
                while i < lines.len() {
                    para.push(lines[i]);
                    i += 1;
                    if lines[i - 1].trim() == end {
                        break;
                    }
                }
                continue;
            }
            i += 1;
        }
        paragraphs.push(para);
    }

    let mut out: Vec<(Piece, String)> = Vec::new();
    let mut pending_comments: Vec<String> = Vec::new();
    for para in paragraphs {
        let kind = classify(&para);
        let body = para.join("\n");
        let Some(kind) = kind else {
            pending_comments.push(body);
            continue;
        };
        let body = if pending_comments.is_empty() {
            body
        } else {
            let mut joined = pending_comments.join("\n\n");
            pending_comments.clear();
            joined.push('\n');
            joined.push_str(&body);
            joined
        };
        match out.last_mut() {
            Some((last, prev)) if *last == kind && kind != Piece::Prose => {
                prev.push_str("\n\n");
                prev.push_str(&body);
            }
            _ => out.push((kind, body)),
        }
    }
    if !pending_comments.is_empty() {
        let body = pending_comments.join("\n\n");
        match out.last_mut() {
            Some((kind, prev)) if *kind != Piece::Prose => {
                prev.push_str("\n\n");
                prev.push_str(&body);
            }
            _ => out.push((Piece::Sh, body)),
        }
    }
    out
}

/// None for a paragraph of comments only.
fn classify(para: &[&str]) -> Option<Piece> {
    let code: Vec<&str> = para
        .iter()
        .copied()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let first = code.first()?.trim_start();
    if first.starts_with("apiVersion:") || first == "---" {
        return Some(Piece::Yaml);
    }
    if is_command(first) {
        return Some(Piece::Sh);
    }
    let yamlish = code.iter().all(|l| {
        let t = l.trim_start();
        t.starts_with("- ") || t == "-" || t == "---" || l.starts_with(' ') || is_key(t)
    });
    let has_key = code
        .iter()
        .any(|l| is_key(l.trim_start()) || l.trim_start().starts_with("- "));
    let structured = code.len() > 1 || code.iter().any(|l| l.starts_with(' '));
    if yamlish && has_key && structured && is_key(first) {
        return Some(Piece::Yaml);
    }
    Some(Piece::Prose)
}

/// `key:` or `key: value` with a YAML-ish key (no spaces before the colon).
fn is_key(line: &str) -> bool {
    let Some((key, rest)) = line.split_once(':') else {
        return false;
    };
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '"' | '\''))
        && (rest.is_empty() || rest.starts_with(' '))
}

fn is_command(line: &str) -> bool {
    const COMMANDS: &[&str] = &[
        "kubectl", "helm", "flink", "curl", "openssl", "cat", "echo", "export", "gcloud", "aws",
        "az", "oc",
    ];
    let line = line.strip_prefix("$ ").unwrap_or(line);
    let word = line.split_whitespace().next().unwrap_or("");
    COMMANDS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;

    fn operator() -> crate::render::clusters::OperatorLine {
        crate::render::clusters::OperatorLine {
            kind: "Deployment".into(),
            namespace: "platform".into(),
            name: "stream-ctl|x\u{1b}[2J".into(),
            operator: "apache",
            describe: "the Flink Kubernetes Operator",
            why: "its ServiceAccount may create flinkdeployments.flink.apache.org".into(),
        }
    }

    #[test]
    fn probable_operators_are_listed_with_why_with_and_without_findings() {
        let ctx = Context {
            command: "doctor",
            scope: "all namespaces".into(),
        };
        for report in [fixtures::report(), crate::rank::rank(Vec::new())] {
            let mut out = Vec::new();
            render_overview(&report, &ctx, &[], &[operator()], &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(
                text.contains("| Namespace | Kind | Name | Probably | Why |"),
                "{text}"
            );
            assert!(
                text.contains("| platform | Deployment | stream-ctl\\|x\\u{1b}[2J | the Flink Kubernetes Operator | its ServiceAccount may create"),
                "{text}"
            );
            assert!(!text.contains('\u{1b}'), "{text}");
        }
        // None: no table.
        let mut out = Vec::new();
        render_overview(&fixtures::report(), &ctx, &[], &[], &mut out).unwrap();
        assert!(!String::from_utf8(out).unwrap().contains("Probably"));
    }

    fn draw(report: &Report) -> String {
        let mut out = Vec::new();
        let ctx = Context {
            command: "doctor",
            scope: "bundle examples/canonical".into(),
        };
        render(report, &ctx, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn headings_per_root_cause_and_symptoms_nested_under_them() {
        let text = draw(&fixtures::report());
        assert!(text.starts_with(
            "# kubectl flink doctor: bundle examples/canonical\n\n**2 root causes, 3 symptoms"
        ));
        let h1 = text
            .find("\n## 1. critical: main container is named `flink-job-manager`\n")
            .expect(&text);
        let h2 = text
            .find("\n## 2. critical: ServiceAccount analytics/default may not watch pods\n")
            .expect(&text);
        assert!(h1 < h2);
        let first = &text[h1..h2];
        let b = first
            .find("\n- **warning** FLK102 `container_exit_zero_restarting`")
            .expect(first);
        let c = first.find("\n  - **info** FLK103").expect(first);
        assert!(b < c, "C is nested under B");
        assert!(
            first.contains("\n  ```text\n  evidence of B\n  ```\n"),
            "{first}"
        );
        assert!(text[h2..].contains("- **warning** FLK104 `flink_fatal_exit`"));
        assert!(!text.contains('\x1b'));
        assert!(!text.contains("\n\n\n"), "no double blank lines:\n{text}");
    }

    #[test]
    fn evidence_fix_and_verify_are_code_blocks() {
        let text = draw(&fixtures::report());
        assert!(text.contains("**Evidence**\n\n```text\nevidence of A\n```\n"));
        assert!(text.contains(
            "**Fix**\n\nRename the container to flink-main-container in spec.jobManager.podTemplate:\n\n```sh\nkubectl patch flinkdeployment orders"
        ), "{text}");
        assert!(
            text.contains("\n```\n\nor in the manifest:\n\n```yaml\nspec:\n  jobManager:\n"),
            "{text}"
        );
        assert!(
            text.contains("**Verify**\n\n```sh\nkubectl get pods -n analytics # verify A\n```\n")
        );
        // The RBAC manifest, --- included, is one yaml block.
        assert!(
            text.contains("```yaml\napiVersion: v1\nkind: ServiceAccount\n"),
            "{text}"
        );
        assert!(text.contains(
            "verbs: [get, list, watch, create, delete]\n```\n\nthen set spec.serviceAccount"
        ));
    }

    #[test]
    fn summary_table_escapes_pipes() {
        let mut report = fixtures::report();
        report.findings[0].title = "a | b".into();
        let text = draw(&report);
        assert!(text.contains("| # | Severity | Category | Object | Title |"));
        assert!(text.contains("| 1 | critical | `main_container_misnamed` | `FlinkDeployment/orders -n analytics` | a \\| b |"));
        assert!(text.contains("| 2.1 | warning | `flink_fatal_exit` |"));
    }

    #[test]
    fn no_findings() {
        let text = draw(&fixtures::empty());
        assert!(text.contains("**No problems found** ("), "{text}");
    }

    #[test]
    fn fences_outgrow_backticks_in_content() {
        let mut report = fixtures::report();
        report.findings[0].evidence = vec!["a ``` b".into()];
        let text = draw(&report);
        assert!(text.contains("````text\na ``` b\n````\n"), "{text}");
    }

    #[test]
    fn segments_classify_shell_yaml_and_prose() {
        let k = |t: &str| segments(t).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(k("apiVersion: v1\nkind: Role"), [Piece::Yaml]);
        assert_eq!(k("kubectl rollout restart deploy/x -n y"), [Piece::Sh]);
        assert_eq!(k("Note: this needs a restart."), [Piece::Prose]);
        assert_eq!(
            k("Do this:\n\nspec:\n  serviceAccount: flink"),
            [Piece::Prose, Piece::Yaml]
        );
        assert_eq!(
            k("# create the role\nkubectl apply -f - <<'EOF'\napiVersion: v1\n\nkind: Role\nEOF\n\nthen wait"),
            [Piece::Sh, Piece::Prose]
        );
        assert_eq!(k("# only a comment\n\nkubectl get pods"), [Piece::Sh]);
        let s = segments("a:\n  b: 1\n\n---\nc: 2");
        assert_eq!(s, [(Piece::Yaml, "a:\n  b: 1\n\n---\nc: 2".to_string())]);
    }
}

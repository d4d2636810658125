//! `kubectl flink explain ID`: what a rule, lint check, log signature or category means, from the
//! same registries the diagnosis runs (no second copy of the text).

use crate::error::Error;
use crate::finding::{Category, RuleMeta};
use crate::rules::RULES;
use crate::signatures;
use std::io::Write;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kubectl flink explain FLK501
  kubectl flink explain rbac_forbidden          # a category: its meaning and what reports it
  kubectl flink explain SIG-K8S-FORBIDDEN       # a log signature: where its text comes from

Exit codes: 0 explained; 2 unknown id")]
pub struct ExplainArgs {
    /// A rule or lint check id (FLK501) or name, a signature id (SIG-...), or a category id
    pub id: String,
}

pub fn run(args: &ExplainArgs) -> Result<i32, Error> {
    let text = explain(&args.id).ok_or_else(|| {
        let near = suggestions(&args.id);
        Error::Input(format!(
            "nothing is called {:?}{}",
            args.id,
            if near.is_empty() {
                " (ids look like FLK501, SIG-K8S-FORBIDDEN or rbac_forbidden)".to_string()
            } else {
                format!("; did you mean {}?", near.join(", "))
            }
        ))
    })?;
    let text = match documented_id(&args.id) {
        Some(id) => format!("{text}\ndocs      {}\n", crate::finding::docs_url(&id)),
        None => text,
    };
    let text = lay_out(&text, crate::render::style::terminal_width());
    let mut out = std::io::stdout().lock();
    super::report_written(out.write_all(text.as_bytes()).and_then(|_| out.flush()))?;
    Ok(0)
}

/// Labelled lines whose value is kept whole: a command to paste, a pattern, a source path, a
/// link (a break inside would make them wrong).
const WHOLE: &[&str] = &["matches ", "verify ", "sources ", "docs "];

/// The text wrapped to `width` columns: prose at its words, a labelled line (`fix       ...`)
/// with its value indented under itself; command lines (indented) and the `WHOLE` labels' values
/// stay as they are, so what is pasted works.
pub fn lay_out(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if crate::render::text::width(body) <= width
            || body.starts_with(' ')
            || WHOLE.iter().any(|l| body.starts_with(l))
        {
            out.push_str(line);
            continue;
        }
        // `label     value`: the value's column is where the label's spaces end.
        let indent = label_width(body);
        let room = width.saturating_sub(indent);
        for (k, part) in fill(&body[indent..], room).iter().enumerate() {
            if k == 0 {
                out.push_str(&body[..indent]);
            } else {
                out.push('\n');
                out.push_str(&" ".repeat(indent));
            }
            out.push_str(part);
        }
        out.push_str(newline);
    }
    out
}

/// Greedy word wrap that never breaks a word (a link or a command in backticks stays whole and
/// copyable; a word longer than the room stands alone on its line).
fn fill(text: &str, room: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        match out.last_mut() {
            Some(line)
                if crate::render::text::width(line) + 1 + crate::render::text::width(word)
                    <= room =>
            {
                line.push(' ');
                line.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The width of a line's label and the spaces after it (`category  `), 0 for prose.
fn label_width(line: &str) -> usize {
    let word = line.find(' ').unwrap_or(0);
    let label = &line[..word];
    let spaces = line[word..].len() - line[word..].trim_start().len();
    let is_label =
        !label.is_empty() && label.bytes().all(|b| b.is_ascii_lowercase()) && spaces >= 2
            || line.starts_with("reported by  ");
    match (is_label, line.starts_with("reported by  ")) {
        (_, true) => "reported by  ".len(),
        (true, _) => word + spaces,
        _ => 0,
    }
}

/// Every id docs/rules.md has a section for, in its order: the rules and lint checks (by id),
/// then the log signatures, then the description readings.
pub fn documented_ids() -> Vec<String> {
    let mut ids: Vec<&str> = metas().iter().map(|(m, _, _)| m.id).collect();
    ids.sort();
    ids.dedup();
    ids.into_iter()
        .map(str::to_string)
        .chain(signatures::all().iter().map(|s| s.id.to_string()))
        .chain(
            signatures::described::READINGS
                .iter()
                .map(|r| r.id.to_string()),
        )
        .collect()
}

/// The documented id `wanted` names (an id in any case, or a rule's name), if any.
fn documented_id(wanted: &str) -> Option<String> {
    let wanted = wanted.trim();
    if Category::ALL.iter().any(|c| c.id() == wanted) {
        return None;
    }
    documented_ids()
        .into_iter()
        .find(|id| id.eq_ignore_ascii_case(wanted))
        .or_else(|| {
            metas()
                .into_iter()
                .find(|(m, _, _)| m.name == wanted)
                .map(|(m, _, _)| m.id.to_string())
        })
}

/// Every rule and lint check: (meta, which command, lint's help text).
fn metas() -> Vec<(&'static RuleMeta, &'static str, Option<&'static str>)> {
    RULES
        .iter()
        .map(|r| (r.meta(), "doctor", None))
        .chain(
            crate::lint::checks::CHECKS
                .iter()
                .map(|c| (&c.meta, "lint", Some(c.help))),
        )
        .collect()
}

/// The text for `id`, or `None` when nothing has that id or name.
pub fn explain(id: &str) -> Option<String> {
    let wanted = id.trim();
    // An id first (doctor and lint may share one: both are shown); then a category (a rule's
    // name is often its category's id, and the category's text lists the rules); then a name.
    let mut found: Vec<_> = metas()
        .into_iter()
        .filter(|(m, _, _)| m.id.eq_ignore_ascii_case(wanted))
        .collect();
    if found.is_empty() && !Category::ALL.iter().any(|c| c.id() == wanted) {
        found = metas()
            .into_iter()
            .filter(|(m, _, _)| m.name == wanted)
            .collect();
    }
    if !found.is_empty() {
        let texts: Vec<String> = found
            .into_iter()
            .map(|(m, command, help)| describe(m, command, help))
            .collect();
        return Some(texts.join("\n"));
    }
    if let Some(sig) = signatures::by_id(&wanted.to_ascii_uppercase()) {
        return Some(format!(
            "{} (log signature)\n\n{}\n\ncategory  {} ({} layer)\nseverity  {}\nmatches   {}\nfix       {}\nverify    {}\nsources   {}\n",
            sig.id,
            sig.explanation,
            sig.category.id(),
            sig.category.layer().as_str(),
            sig.severity.as_str(),
            sig.pattern,
            sig.fix,
            if sig.verify.is_empty() { "-" } else { sig.verify },
            sig.sources.join("\n          ")
        ));
    }
    let upper = wanted.to_ascii_uppercase();
    if let Some(r) = signatures::described::READINGS
        .iter()
        .find(|r| r.id == upper)
    {
        return Some(describe_reading(r));
    }
    let category = Category::ALL.iter().find(|c| c.id() == wanted)?;
    let reporters: Vec<String> = metas()
        .into_iter()
        .filter(|(m, _, _)| m.category == *category)
        .map(|(m, command, _)| format!("{} {} ({command})", m.id, m.name))
        .collect();
    let signatures = signatures::all()
        .iter()
        .filter(|s| s.category == *category)
        .count();
    Some(format!(
        "{} (category, {} layer{})\n\n{}\n\nreported by  {}\nsignatures   {signatures} in the log catalogue\n",
        category.id(),
        category.layer().as_str(),
        if category.is_symptom() { ", a symptom" } else { "" },
        category.meaning(),
        if reporters.is_empty() {
            "log signatures only".to_string()
        } else {
            reporters.join(", ")
        }
    ))
}

/// A description reading (triage of a person's own words): what it reads, and the fix of the
/// failure it stands for.
fn describe_reading(r: &signatures::described::Reading) -> String {
    let mut out = format!(
        "{} (description reading, triage)\n\n{}: triage reads this in a person's own words (\"{}\") \
         when no printed line names a cause; the finding is a warning.\n\ncategory  {} ({} layer): {}\n",
        r.id,
        r.title,
        r.examples.first().copied().unwrap_or(""),
        r.category.id(),
        r.category.layer().as_str(),
        r.category.meaning()
    );
    if r.like.is_empty() {
        out.push_str(&format!("fix       {}\n", r.fix));
        if !r.verify.is_empty() {
            out.push_str(&format!("verify    {}\n", r.verify));
        }
    } else {
        out.push_str(&format!(
            "like      {} (its explanation, fix and verify command apply)\n",
            r.like
        ));
    }
    out
}

/// One rule or check: what it detects, its category and severity, lint's help, what it explains.
fn describe(m: &RuleMeta, command: &str, help: Option<&str>) -> String {
    let mut out = format!(
        "{} {} ({command} {})\n\n{}\n\ncategory  {} ({} layer): {}\nseverity  {}\n",
        m.id,
        m.name,
        if command == "doctor" { "rule" } else { "check" },
        m.summary,
        m.category.id(),
        m.category.layer().as_str(),
        m.category.meaning(),
        m.severity.as_str()
    );
    if let Some(help) = help {
        out.push_str(&format!("\n{help}\n"));
    }
    if !m.explains.is_empty() {
        out.push_str(&format!(
            "explains  {} (their findings fold under this one's)\n",
            m.explains.join(", ")
        ));
    }
    out
}

/// Ids and names that contain what was asked (case-insensitive), a few.
fn suggestions(id: &str) -> Vec<String> {
    let needle = id.trim().to_ascii_lowercase();
    if needle.len() < 3 {
        return Vec::new();
    }
    let mut out: Vec<String> = ids()
        .into_iter()
        .map(|(id, _)| id)
        .filter(|candidate| candidate.to_ascii_lowercase().contains(&needle))
        .collect();
    out.truncate(6);
    out
}

/// Everything `explain` knows, each once with a short description: rules and lint checks (by id
/// and by name), categories, signatures and readings, in the order of the registries (rules,
/// checks and categories before the many signatures). For suggestions and shell completion.
pub fn ids() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = metas()
        .into_iter()
        .flat_map(|(m, _, _)| {
            [
                (m.id.to_string(), m.summary.to_string()),
                (m.name.to_string(), format!("{} ({})", m.summary, m.id)),
            ]
        })
        .chain(
            Category::ALL
                .iter()
                .map(|c| (c.id().to_string(), c.meaning().to_string())),
        )
        .chain(
            signatures::all()
                .iter()
                .map(|s| (s.id.to_string(), s.category.id().to_string())),
        )
        .chain(
            signatures::described::READINGS
                .iter()
                .map(|r| (r.id.to_string(), String::new())),
        )
        .collect();
    let mut seen = std::collections::HashSet::new();
    out.retain(|(id, _)| seen.insert(id.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_check_signature_and_category_is_explained() {
        for (m, _, _) in metas() {
            let t = explain(m.id).unwrap_or_else(|| panic!("{}", m.id));
            assert!(
                t.contains(m.summary) && t.contains(m.category.meaning()),
                "{t}"
            );
            assert_eq!(
                explain(m.name).map(|t| t.contains(m.id)),
                Some(true),
                "{}",
                m.name
            );
        }
        for s in signatures::all() {
            assert!(explain(s.id).unwrap().contains(s.explanation), "{}", s.id);
        }
        for r in signatures::described::READINGS {
            assert!(explain(r.id).unwrap().contains(r.title), "{}", r.id);
        }
        for c in Category::ALL {
            assert!(explain(c.id()).unwrap().contains(c.meaning()), "{}", c.id());
        }
    }

    /// Every id of the catalogue, laid out for 80 columns: no line wider except the ones kept
    /// whole (indented commands and sources, patterns, links, a single long word), and not a
    /// word lost or added.
    #[test]
    fn every_explanation_is_wrapped_to_the_terminal_and_keeps_every_word() {
        let mut all: Vec<String> = documented_ids();
        all.extend(Category::ALL.iter().map(|c| c.id().to_string()));
        assert!(all.len() > 100, "{}", all.len());
        for id in all {
            let text = explain(&id).unwrap_or_else(|| panic!("{id}"));
            let laid = lay_out(&text, 80);
            for line in laid.lines() {
                let one_word = line.trim().split(' ').count() == 1
                    || label_width(line) > 0 && line[label_width(line)..].split(' ').count() == 1;
                assert!(
                    crate::render::text::width(line) <= 80
                        || line.starts_with(' ') && text.contains(line)
                        || one_word
                        || WHOLE.iter().any(|l| line.starts_with(l)),
                    "{id}: {} columns: {line}",
                    crate::render::text::width(line)
                );
            }
            let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(words(&laid), words(&text), "{id}");
        }
        let flk501 = lay_out(&explain("FLK501").unwrap(), 80);
        assert!(
            flk501.contains(
                "\ncategory  rbac_forbidden (identity layer): a Flink process (JobManager,\n          "
            ),
            "{flk501}"
        );
    }

    #[test]
    fn ids_are_case_insensitive_and_unknown_ones_get_suggestions() {
        assert!(explain("flk501")
            .unwrap()
            .starts_with("FLK501 rbac_forbidden (doctor rule)"));
        assert!(explain("nonsense").is_none());
        assert!(suggestions("forbidden")
            .iter()
            .any(|s| s == "rbac_forbidden"));
    }
}

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

/// Labelled lines whose value is kept whole: a pattern, a source path, a link (a break inside
/// would make them wrong). A `verify` command is wrapped as a shell reads it (`\` at a break).
const WHOLE: &[&str] = &["matches ", "sources ", "docs "];

/// The text wrapped to `width` columns: prose at its words, a labelled line (`fix       ...`)
/// with its value indented under itself, a command (an indented line, a `verify`) at its
/// unquoted spaces with `\` continuations so that it still pastes; a heredoc's body and the
/// `WHOLE` labels' values stay as they are.
pub fn lay_out(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut heredoc: Option<String> = None;
    let mut whole = false;
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        // A `WHOLE` label's further values, one a line under the first.
        whole =
            WHOLE.iter().any(|l| body.starts_with(l)) || whole && body.starts_with("          ");
        if whole {
            let indent = match label_width(body) {
                0 => body.len() - body.trim_start().len(),
                n => n,
            };
            // A path or a link stays whole; words (an observed message) wrap as prose.
            if crate::render::text::width(body) <= width || !body[indent..].contains(' ') {
                out.push_str(line);
            } else {
                for (k, part) in fill(&body[indent..], width.saturating_sub(indent))
                    .iter()
                    .enumerate()
                {
                    out.push_str(if k == 0 { &body[..indent] } else { "\n" });
                    if k > 0 {
                        out.push_str(&" ".repeat(indent));
                    }
                    out.push_str(part);
                }
                out.push_str(newline);
            }
            continue;
        }
        if let Some(end) = &heredoc {
            if body.trim() == end {
                heredoc = None;
            }
            out.push_str(line);
            continue;
        }
        if let Some(at) = body.find("<<'") {
            heredoc = body[at + 3..].split('\'').next().map(str::to_string);
        }
        if crate::render::text::width(body) <= width || WHOLE.iter().any(|l| body.starts_with(l)) {
            out.push_str(line);
            continue;
        }
        let command_at = if body.starts_with(' ') {
            Some(body.len() - body.trim_start().len())
        } else if body.starts_with("verify ") {
            Some(label_width(body))
        } else {
            None
        };
        if let Some(indent) = command_at.filter(|i| body[*i..].starts_with("# ")) {
            // A comment among commands: its words wrapped, each line a comment again.
            let room = width.saturating_sub(indent + 2);
            for (k, part) in fill(&body[indent + 2..], room).iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                out.push_str(&body[..indent]);
                out.push_str("# ");
                out.push_str(part);
            }
            out.push_str(newline);
            continue;
        }
        if let Some(indent) = command_at {
            let lines = wrap_command(&body[indent..], width.saturating_sub(indent + 2));
            for (k, part) in lines.iter().enumerate() {
                match k {
                    0 => out.push_str(&body[..indent]),
                    _ => {
                        out.push('\n');
                        out.push_str(&" ".repeat(indent + 2));
                    }
                }
                out.push_str(part);
            }
            out.push_str(newline);
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

/// A shell command in lines of at most `room` columns (each but the last ending in ` \`), broken
/// only at spaces outside quotes; a trailing `# comment` moves to its own line whole.
fn wrap_command(command: &str, room: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let (mut single, mut double) = (false, false);
    let mut chars = command.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && word.is_empty() => {
                words.push(command[i..].to_string());
                break;
            }
            ' ' if !single && !double => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            _ => {}
        }
        word.push(c);
        if chars.peek().is_none() && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    let width = crate::render::text::width;
    let mut out: Vec<String> = Vec::new();
    for w in words {
        let comment = w.starts_with('#');
        // Room for ` \` at the end of a line that continues; a comment keeps its 3 spaces.
        let fits = out.last().is_some_and(|l| {
            if comment {
                width(l) + 3 + width(&w) <= room
            } else {
                width(l) + 1 + width(&w) + 2 <= room
            }
        });
        match out.last_mut() {
            Some(line) if fits => {
                line.push_str(if comment { "   " } else { " " });
                line.push_str(&w);
            }
            _ => out.push(w),
        }
    }
    let n = out.len();
    for line in out.iter_mut().take(n.saturating_sub(1)) {
        line.push_str(" \\");
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
    explain_with(id, false)
}

/// `explain`, and for a signature its pattern too (docs/rules.md keeps it; the terminal shows
/// an example line instead, which a person reads more easily than a regex).
pub fn explain_for_docs(id: &str) -> Option<String> {
    explain_with(id, true)
}

fn explain_with(id: &str, pattern: bool) -> Option<String> {
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
        let (example, fix, verify) = example_remedy(sig);
        let mut out = format!(
            "{} (log signature)\n\nwhy       {}\ncategory  {} ({} layer)\nseverity  {}\n",
            sig.id,
            sig.explanation,
            sig.category.id(),
            sig.category.layer().as_str(),
            sig.severity.as_str(),
        );
        if pattern {
            out.push_str(&format!("matches   {}\n", sig.pattern));
        }
        out.push_str(&format!("example   {example}\n"));
        out.push_str(&sections(
            "fix as doctor and triage print it for the example line",
            &fix,
            &verify,
        ));
        out.push_str(&format!("sources   {}\n", sig.sources.join("\n          ")));
        return Some(out);
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
    let (whose, fix, verify) = category_remedy(*category);
    Some(format!(
        "{} (category, {} layer{})\n\nwhy       {}\n{}{}reported by  {}\nsignatures   {signatures} in the log catalogue\n",
        category.id(),
        category.layer().as_str(),
        if category.is_symptom() { ", a symptom" } else { "" },
        category.meaning(),
        sections(&format!("fix as {whose} gives it"), &fix, &verify),
        planned_example(*category),
        if reporters.is_empty() {
            "log signatures only".to_string()
        } else {
            reporters.join(", ")
        }
    ))
}

/// The `fix` and `verify` sections: the fix's first prose line beside its label, its commands
/// indented (a command is pasted whole), the verify commands beside theirs. `heading` names
/// where the fix comes from (`fix (as FLK501 gives it)`); its first word is the label.
fn sections(heading: &str, fix: &str, verify: &str) -> String {
    let mut out = String::new();
    let note = heading.split_once(' ').map(|(_, n)| n);
    let commands: Vec<String> = signatures::paste::commands(fix);
    let is_command = |l: &str| {
        let t = l.trim_start();
        l.starts_with(' ')
            || t.starts_with('#')
            || commands.iter().any(|c| c.lines().next() == Some(t))
    };
    // The names to set come first, under their own label: the fix and the verify use them.
    let is_name = |l: &str| {
        l.split_once('=').is_some_and(|(v, _)| {
            !v.is_empty() && v.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
    };
    for (k, name) in fix.lines().filter(|l| is_name(l)).enumerate() {
        let label = if k == 0 { "names     " } else { "          " };
        out.push_str(&format!("{label}{name}\n"));
    }
    let mut lines = fix.trim_end().lines().filter(|l| !is_name(l)).peekable();
    let mut first = true;
    let mut started = false;
    let mut heredoc: Option<String> = None;
    if let Some(note) = note {
        out.push_str(&format!("fix       {note}:\n"));
        first = false;
    }
    while let Some(line) = lines.next() {
        if let Some(end) = &heredoc {
            out.push_str(&format!("  {line}\n"));
            if line.trim() == end {
                heredoc = None;
            }
            continue;
        }
        if line.trim().is_empty() {
            if started && lines.peek().is_some_and(|l| !l.trim().is_empty()) {
                out.push('\n');
            }
            continue;
        }
        started = true;
        if is_command(line) {
            if first {
                out.push_str("fix       run:\n");
            }
            if let Some(at) = line.find("<<'") {
                heredoc = line[at + 3..].split('\'').next().map(str::to_string);
            }
            out.push_str(&format!("  {}\n", line.trim_start()));
        } else if first {
            out.push_str(&format!("fix       {line}\n"));
        } else {
            out.push_str(&format!("{line}\n"));
        }
        first = false;
    }
    let mut verify_lines = verify.trim_end().lines();
    if let Some(v) = verify_lines.next() {
        out.push_str(&format!("verify    {v}\n"));
    }
    for v in verify_lines {
        out.push_str(&format!("  {v}\n"));
    }
    out
}

/// A signature's first example line, and the fix and verify doctor and triage print for it:
/// the same `remedy` (the RBAC planner for a refusal naming its ServiceAccount), laid out for
/// pasting as triage lays it out (`paste::paste_ready`). A signature without a verify command
/// of its own is checked as its category's rule says, or by the line no longer appearing.
pub fn example_remedy(sig: &signatures::Signature) -> (String, String, String) {
    let example = sig.examples.first().copied().unwrap_or("");
    let matched = signatures::catalogue()
        .match_line(example, 1)
        .into_iter()
        .find(|m| m.signature.id == sig.id);
    let (fix, verify) = match &matched {
        Some(m) => (m.fix(), m.verify()),
        None => sig.remedy(&Default::default()),
    };
    let verify = if verify.trim().is_empty() {
        fallback_verify(sig.category, sig.literals.first().copied())
    } else {
        verify
    };
    let (fix, verify) =
        signatures::paste::paste_ready(&fix, &verify, &signatures::paste::Known::new());
    (example.to_string(), fix, verify)
}

/// How to check a fix of a category whose signature has no verify command: its first rule's
/// check, else that the line is gone from the log once the new pod runs.
fn fallback_verify(category: Category, literal: Option<&str>) -> String {
    if let Some(r) = RULES.iter().find(|r| r.meta().category == category) {
        return r.meta().verify.to_string();
    }
    match literal {
        Some(l) => format!(
            "kubectl logs <pod> -n <namespace> -c flink-main-container | grep -cF {}   # expect 0 once the new pod runs",
            crate::shell::quoted(l)
        ),
        None => "kubectl logs <pod> -n <namespace> -c flink-main-container | kubectl flink triage -   # expect no finding of this category".to_string(),
    }
}

/// A category's fix: its first rule's (doctor before lint), else its first signature's for
/// that signature's example line, else its first description reading's. With whose it is.
fn category_remedy(category: Category) -> (String, String, String) {
    let rule = |command: &str| {
        metas()
            .into_iter()
            .find(|(m, c, _)| m.category == category && *c == command)
            .map(|(m, _, _)| {
                let (fix, verify) = rule_remedy(m);
                (m.id.to_string(), fix, verify)
            })
    };
    if let Some(found) = rule("doctor") {
        return found;
    }
    if let Some(sig) = signatures::all().iter().find(|s| s.category == category) {
        let (_, fix, verify) = example_remedy(sig);
        return (sig.id.to_string(), fix, verify);
    }
    if let Some(found) = rule("lint") {
        return found;
    }
    match signatures::described::READINGS
        .iter()
        .find(|r| r.category == category)
    {
        Some(r) => {
            let (fix, verify) = reading_remedy(r);
            (r.id.to_string(), fix, verify)
        }
        None => (
            "nothing yet".to_string(),
            "no rule or log signature reports this category yet; `kubectl flink triage` the log of the failing container to find its cause".to_string(),
            fallback_verify(category, None),
        ),
    }
}

/// A rule's fix and verify (its `RuleMeta`), laid out for pasting.
fn rule_remedy(m: &RuleMeta) -> (String, String) {
    signatures::paste::paste_ready(m.fix, m.verify, &signatures::paste::Known::new())
}

/// A description reading's fix: its own, or the signature it is like's for that one's example.
fn reading_remedy(r: &signatures::described::Reading) -> (String, String) {
    match signatures::by_id(r.like) {
        Some(like) if !r.like.is_empty() => {
            let (_, fix, verify) = example_remedy(like);
            (fix, verify)
        }
        _ => {
            let verify = if r.verify.is_empty() {
                fallback_verify(r.category, None)
            } else {
                r.verify.to_string()
            };
            signatures::paste::paste_ready(r.fix, &verify, &signatures::paste::Known::new())
        }
    }
}

/// A description reading (triage of a person's own words): what it reads, and the fix of the
/// failure it stands for.
fn describe_reading(r: &signatures::described::Reading) -> String {
    let (fix, verify) = reading_remedy(r);
    format!(
        "{} (description reading, triage)\n\nwhy       {}: triage reads this in a person's own words (\"{}\") \
         when no printed line names a cause; the finding is a warning.\ncategory  {} ({} layer): {}\n{}",
        r.id,
        r.title,
        r.examples.first().copied().unwrap_or(""),
        r.category.id(),
        r.category.layer().as_str(),
        r.category.meaning(),
        if r.like.is_empty() {
            sections("fix", &fix, &verify)
        } else {
            sections(&format!("fix as {} gives it", r.like), &fix, &verify)
        }
    )
}

/// The RBAC categories: their rules' fix is the planner's, shown for the signature's example.
const PLANNED: &[(Category, &str)] = &[
    (Category::RbacForbidden, "SIG-K8S-FORBIDDEN"),
    (
        Category::DefaultServiceAccount,
        "SIG-K8S-FORBIDDEN-DEFAULT-SA",
    ),
];

/// For an RBAC category, the plan every command prints for its signature's example line (the
/// planner's, `flink::rbac_fix`); empty for the others.
fn planned_example(category: Category) -> String {
    let Some(sig) = PLANNED
        .iter()
        .find(|(c, _)| *c == category)
        .and_then(|(_, id)| signatures::by_id(id))
    else {
        return String::new();
    };
    let (example, fix, _) = example_remedy(sig);
    let mut out = format!(
        "\nFor the line below ({}), doctor, lint, triage and can-i --fix print this one plan:\n{example}\n",
        sig.id
    );
    for line in fix.trim_end().lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// One rule or check: what it detects, why it matters, what to do and how to verify.
fn describe(m: &RuleMeta, command: &str, help: Option<&str>) -> String {
    let mut out = format!(
        "{} {} ({command} {})\n\ndetects   {}\nwhy       {}\n",
        m.id,
        m.name,
        if command == "doctor" { "rule" } else { "check" },
        m.summary,
        help.unwrap_or(m.category.meaning()),
    );
    let (fix, verify) = rule_remedy(m);
    out.push_str(&sections("fix", &fix, &verify));
    out.push_str(&planned_example(m.category));
    out.push_str(&format!(
        "category  {} ({} layer): {}\nseverity  {}\n",
        m.category.id(),
        m.category.layer().as_str(),
        m.category.meaning(),
        m.severity.as_str()
    ));
    if !m.explains.is_empty() {
        out.push_str(&format!(
            "explains  {} (their findings fold under this one's)\n",
            m.explains.join(", ")
        ));
    }
    out
}

/// Ids and names near what was asked (case-insensitive), a few: those that contain it, then
/// those a typo or two away (`FLK5O1`, `rbac_forbiden`), nearest first.
fn suggestions(id: &str) -> Vec<String> {
    let needle = id.trim().to_ascii_lowercase();
    if needle.len() < 3 {
        return Vec::new();
    }
    let all: Vec<String> = ids().into_iter().map(|(id, _)| id).collect();
    let mut out: Vec<String> = all
        .iter()
        .filter(|candidate| candidate.to_ascii_lowercase().contains(&needle))
        .cloned()
        .collect();
    let most = (needle.chars().count() / 4).clamp(1, 3);
    let mut near: Vec<(usize, &String)> = all
        .iter()
        .map(|c| {
            (
                crate::flink::spelling::edit_distance(&needle, &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|(d, c)| *d <= most && !out.contains(c))
        .collect();
    near.sort_by_key(|(d, _)| *d);
    out.extend(near.into_iter().map(|(_, c)| c.clone()));
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

    /// Every id `explain` knows: rules, checks, signatures, readings and categories.
    fn every_id() -> Vec<String> {
        let mut all: Vec<String> = documented_ids();
        all.extend(Category::ALL.iter().map(|c| c.id().to_string()));
        assert!(all.len() > 100, "{}", all.len());
        all
    }

    /// The value of a labelled section (`why       ...`) and the lines under it, up to the
    /// next label.
    fn section(text: &str, label: &str) -> Option<String> {
        let mut lines = text
            .lines()
            .skip_while(|l| !l.starts_with(&format!("{label} ")));
        let first = lines.next()?;
        let mut value = first[label.len()..].trim().to_string();
        for l in lines {
            if l.trim().is_empty()
                || l.starts_with(|c: char| c.is_ascii_lowercase()) && label_width(l) > 0
            {
                break;
            }
            value.push('\n');
            value.push_str(l);
        }
        Some(value)
    }

    #[test]
    fn every_rule_check_signature_reading_and_category_says_why_what_to_do_and_how_to_verify() {
        for id in every_id() {
            let text = lay_out(&explain(&id).unwrap_or_else(|| panic!("{id}")), 80);
            for label in ["why", "fix", "verify"] {
                let value =
                    section(&text, label).unwrap_or_else(|| panic!("{id} has no {label}:\n{text}"));
                assert!(
                    value.trim().trim_end_matches(':').len() > 10,
                    "{id}: {label} is empty:\n{text}"
                );
            }
            // What is pasted holds no `<name>` a shell reads as a redirection.
            let verify = section(&text, "verify").unwrap();
            assert!(!verify.contains(" <"), "{id}: {verify}");
        }
        for (m, _, _) in metas() {
            let t = explain(m.id).unwrap();
            assert!(t.contains(m.summary) && t.contains(m.category.id()), "{t}");
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

    /// Every id, laid out for 80 columns: every line fits, except one word longer than the
    /// room itself (a source path, a link, a regex), which no break can shorten without making
    /// it wrong; and not a word lost (a command's `\` continuations aside).
    #[test]
    fn every_explanation_is_wrapped_to_the_terminal_and_keeps_every_word() {
        for width in [80, 100] {
            for id in every_id() {
                let text = explain(&id).unwrap_or_else(|| panic!("{id}"));
                let laid = lay_out(&text, width);
                for line in laid.lines() {
                    let value = &line[label_width(line)..];
                    // A command's words are its shell words (a quoted jsonpath is one).
                    let words = wrap_command(value.trim(), 0)
                        .iter()
                        .filter(|w| w.trim_end_matches(" \\") != "\\")
                        .count();
                    assert!(
                        crate::render::text::width(line) <= width || words <= 1,
                        "{id}: {} columns: {line}",
                        crate::render::text::width(line)
                    );
                }
                let words = |t: &str| {
                    t.split_whitespace()
                        .filter(|w| *w != "\\" && *w != "#")
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                assert_eq!(words(&laid), words(&text), "{id}");
            }
        }
        let flk501 = lay_out(&explain("FLK501").unwrap(), 80);
        assert!(
            flk501.contains(
                "\ncategory  rbac_forbidden (identity layer): a Flink process (JobManager,\n          "
            ),
            "{flk501}"
        );
    }

    /// A wrapped command is still the same command to a shell: `\` joins its lines.
    #[test]
    fn a_long_command_wraps_at_unquoted_spaces_with_continuations() {
        let cmd = "kubectl get pods -n 'a b c d' -o jsonpath='{.items[*].metadata.name}'   # expect something long enough";
        let lines = wrap_command(cmd, 40);
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines[..lines.len() - 1] {
            assert!(l.ends_with(" \\"), "{l}");
        }
        assert!(lines.iter().any(|l| l.contains("'a b c d'")), "{lines:?}");
        let joined: String = lines
            .iter()
            .map(|l| l.trim_end_matches(" \\").to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let norm = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(norm(&joined), norm(cmd));
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
        // Typos: a letter for a digit, a letter missing.
        assert_eq!(
            suggestions("FLK5O1").first().map(String::as_str),
            Some("FLK501")
        );
        assert!(suggestions("rbac_forbiden")
            .iter()
            .any(|s| s == "rbac_forbidden"));
        assert!(suggestions("SIG-K8S-FORBIDEN")
            .iter()
            .any(|s| s == "SIG-K8S-FORBIDDEN"));
    }

    /// One cause, one fix: what `explain` prints for a signature is what triage prints for its
    /// example line (the same `remedy`, the same layout for pasting), for every signature.
    #[test]
    fn explain_prints_the_fix_triage_prints_for_each_signature() {
        for sig in signatures::all() {
            let (example, fix, _) = example_remedy(sig);
            let triaged = crate::commands::triage::triage_text(&example, "example");
            let Some(f) = triaged.report.findings.iter().find(|f| f.rule == sig.id) else {
                // Another signature supersedes this one on its example (the more precise one
                // is what triage reports); its own text is checked under its id.
                continue;
            };
            // Triage's fix: the names to set, the explanation, then the remedy.
            let body = |t: &str| {
                t.lines()
                    .filter(|l| !l.trim().is_empty() && !l.contains("=...  #"))
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            };
            let ours = body(&fix);
            let theirs = body(&f.fix);
            assert!(
                theirs.ends_with(&ours) || theirs.windows(ours.len()).any(|w| w == ours),
                "{}: explain and triage differ\nexplain:\n{fix}\ntriage:\n{}",
                sig.id,
                f.fix
            );
        }
        // The 403 the issue names: the planner's Role, never the per-verb template.
        let t = explain("SIG-K8S-FORBIDDEN").unwrap();
        assert!(t.contains("name: flink-jobmanager"), "{t}");
        assert!(!t.contains("kubectl create role"), "{t}");
    }
}

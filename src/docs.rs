//! The public contract drawn as Markdown from the code that defines it: the category list
//! (`docs/categories.md`) and the rules table (the README's "Rules" section). Tests compare the
//! committed text with what these functions draw, so the documents cannot drift from the code.

use crate::finding::{Category, Layer};
use crate::rules::{RuleMeta, RULES};
use std::fmt::Write;

/// Marks around the generated rules table in the README.
pub const RULES_BEGIN: &str =
    "<!-- rules table: generated from the code by `docs::rules_table`; do not edit by hand -->";
pub const RULES_END: &str = "<!-- end of rules table -->";

/// `docs/categories.md`, whole.
pub fn categories_markdown() -> String {
    let mut out = String::from(
        "# Root-cause categories\n\n\
         <!-- generated from `Category` in src/finding.rs by `docs::categories_markdown`; \
         `KUBECTL_FLINK_BLESS=1 cargo test --lib docs` rewrites it -->\n\n\
         Every finding that kubectl-flink reports carries exactly one `category` from this list, in its \
         JSON output as `\"category\": \"<id>\"`. The ids are a public contract: scripts, dashboards and \
         tests key on them, so an id is never renamed or reused. A finding that fits none of them gets a \
         new id here first.\n\n\
         Layers are listed in causal order: a broken earlier layer usually explains symptoms in later \
         ones, so the ranking puts it first. *symptom* marks categories that describe an effect whose \
         cause should be looked for elsewhere (such a finding is ranked below, and linked to, the cause \
         when one is found).\n\n\
         | layer | id | meaning |\n|---|---|---|\n",
    );
    for c in Category::ALL {
        let symptom = if c.is_symptom() { "*symptom*: " } else { "" };
        let _ = writeln!(
            out,
            "| {} | `{}` | {symptom}{} |",
            c.layer().as_str(),
            c.id(),
            c.meaning()
        );
    }
    out
}

/// Every rule of `doctor` and every check of `lint`, one row each, in id order.
pub fn rules_table() -> String {
    let mut rows: Vec<(&RuleMeta, &str)> = RULES.iter().map(|r| (r.meta(), "doctor")).collect();
    for check in crate::lint::checks::CHECKS {
        match rows.iter_mut().find(|(m, _)| m.id == check.meta.id) {
            Some(row) => row.1 = "doctor, lint",
            None => rows.push((&check.meta, "lint")),
        }
    }
    rows.sort_by_key(|(m, _)| m.id);
    let mut out = String::from("| id | detects | category | command |\n|---|---|---|---|\n");
    for (m, command) in rows {
        let _ = writeln!(
            out,
            "| {} | {} | `{}` | {command} |",
            m.id,
            m.summary.replace('|', "\\|"),
            m.category.id()
        );
    }
    out
}

/// `docs/rules.md`, whole: one section per rule, lint check, log signature and description
/// reading, headed by its id alone (so its anchor is the id in lower case: what
/// `finding::docs_url` links every finding to), holding what `kubectl flink explain ID` prints.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Rules, checks and log signatures\n\n\
         <!-- generated from the rule registries by `docs::rules_markdown`; \
         `KUBECTL_FLINK_BLESS=1 cargo test --lib docs` rewrites it -->\n\n\
         What each id a finding carries in its `rule` field means: the text `kubectl flink explain ID` \
         prints. Every finding's JSON has a `docs` link to its section here. The categories are in \
         [categories.md](categories.md).\n",
    );
    let ids = crate::commands::explain::documented_ids();
    let section = |id: &str| {
        if id.starts_with("SIG-") {
            "Log signatures (doctor, logs, triage)"
        } else if id.starts_with("DESC-") {
            "Description readings (triage)"
        } else {
            "Rules (doctor) and checks (lint)"
        }
    };
    let mut current = "";
    for id in &ids {
        if section(id) != current {
            current = section(id);
            let _ = write!(out, "\n## {current}\n");
        }
        let text = crate::commands::explain::explain_for_docs(id).unwrap_or_default();
        let _ = write!(out, "\n### {id}\n\n```text\n{}\n```\n", text.trim_end());
    }
    out
}

/// The layers in causal order, as the README lists them.
pub fn layers() -> impl Iterator<Item = Layer> {
    let mut seen = Vec::new();
    for c in Category::ALL {
        if !seen.contains(&c.layer()) {
            seen.push(c.layer());
        }
    }
    seen.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn repo_file(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
    }

    fn bless() -> bool {
        std::env::var_os("KUBECTL_FLINK_BLESS").is_some_and(|v| v == "1")
    }

    #[test]
    fn categories_document_is_drawn_from_the_code() {
        let path = repo_file("docs/categories.md");
        let want = categories_markdown();
        if bless() {
            std::fs::write(&path, &want).expect("write docs/categories.md");
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/categories.md differs from the code's Category table; run \
             `KUBECTL_FLINK_BLESS=1 cargo test --lib docs` and commit the result"
        );
    }

    #[test]
    fn rules_document_is_drawn_from_the_registries() {
        let path = repo_file("docs/rules.md");
        let want = rules_markdown();
        if bless() {
            std::fs::write(&path, &want).expect("write docs/rules.md");
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/rules.md differs from what `explain` prints; run \
             `KUBECTL_FLINK_BLESS=1 cargo test --lib docs` and commit the result"
        );
    }

    /// Every id a finding can carry has its section, whose heading's anchor is what the finding's
    /// `docs` link ends with (GitHub: the heading text in lower case).
    #[test]
    fn every_rule_check_and_signature_has_its_anchor_in_docs_rules_md() {
        let doc = std::fs::read_to_string(repo_file("docs/rules.md")).unwrap_or_default();
        let anchors: Vec<String> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("### "))
            .map(str::to_ascii_lowercase)
            .collect();
        let ids = RULES
            .iter()
            .map(|r| r.meta().id)
            .chain(crate::lint::checks::CHECKS.iter().map(|c| c.meta.id))
            .chain(crate::signatures::all().iter().map(|s| s.id))
            .chain(crate::signatures::described::READINGS.iter().map(|r| r.id));
        for id in ids {
            let url = crate::finding::docs_url(id);
            let anchor = url.rsplit_once('#').map(|(_, a)| a).unwrap_or("");
            assert!(
                anchors.iter().any(|a| a == anchor),
                "docs/rules.md has no section for {id} ({url})"
            );
            assert!(url.starts_with(
                "https://github.com/kubectl-flink/kubectl-flink/blob/main/docs/rules.md#"
            ));
        }
        // The links name the repository the package and the krew manifest name.
        let manifest = std::fs::read_to_string(repo_file("krew-manifest/flink.yaml")).unwrap();
        assert!(
            manifest.contains(&format!("homepage: {}\n", crate::finding::REPOSITORY)),
            "krew-manifest/flink.yaml's homepage is not Cargo.toml's repository"
        );
    }

    #[test]
    fn readme_rules_table_is_drawn_from_the_registries() {
        let path = repo_file("README.md");
        let readme = std::fs::read_to_string(&path).expect("README.md");
        let (head, rest) = readme
            .split_once(RULES_BEGIN)
            .expect("README.md has the rules table's begin mark");
        let (_, tail) = rest
            .split_once(RULES_END)
            .expect("README.md has the rules table's end mark");
        let want = format!("{head}{RULES_BEGIN}\n{}{RULES_END}{tail}", rules_table());
        if bless() {
            std::fs::write(&path, &want).expect("write README.md");
            return;
        }
        assert!(
            readme == want,
            "README.md's rules table differs from RULES and lint's CHECKS; run \
             `KUBECTL_FLINK_BLESS=1 cargo test --lib docs` and commit the result"
        );
    }

    #[test]
    fn every_rule_and_check_has_a_one_line_summary() {
        for m in RULES
            .iter()
            .map(|r| r.meta())
            .chain(crate::lint::checks::CHECKS.iter().map(|c| &c.meta))
        {
            assert!(
                !m.summary.is_empty() && !m.summary.contains('\n'),
                "{} needs a one-line summary",
                m.id
            );
        }
    }

    #[test]
    fn readme_names_every_layer_in_causal_order() {
        let readme = std::fs::read_to_string(repo_file("README.md")).expect("README.md");
        let mut at = 0;
        for layer in layers() {
            let needle = format!("`{}`", layer.as_str());
            let found = readme[at..].find(&needle).unwrap_or_else(|| {
                panic!("README.md lists the layer {needle} after the previous one")
            });
            at += found + needle.len();
        }
    }

    /// The README's first screen (what a 80x24 terminal or a narrow preview shows first) reads
    /// at 80 columns: no line of it is wider.
    #[test]
    fn readme_first_screen_fits_80_columns() {
        let readme = std::fs::read_to_string(repo_file("README.md")).expect("README.md");
        for (n, line) in readme.lines().take(24).enumerate() {
            assert!(
                crate::render::text::width(line) <= 80,
                "README.md line {}: {} columns: {line}",
                n + 1,
                crate::render::text::width(line)
            );
        }
    }
}

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
}

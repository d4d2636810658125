//! The import direction of `src/`: each top-level module may use only the modules below it.
//!
//! ```text
//! main, cli, commands, docs                   the CLI layer: clap ends here, plain option
//!                                             structs go down; commands glue the stages
//! lint   render                               render draws, never decides
//! rank
//! rules                                       pure functions over the Snapshot
//! cluster                                     all API I/O: it fills a Snapshot
//! snapshot, signatures, error, files
//! flink                                       every Flink and operator fact, the permission
//!                                             model and the RBAC evaluator; uses nothing else
//! finding, shell                              Finding, Category, RuleMeta; quoting values into
//!                                             the commands a fix prints
//! ```
//!
//! A `use crate::x` from a module to one that is not below it fails this test, unless it is listed
//! in `KNOWN` (wrong-way imports that exist today and are to be removed; the test also fails when
//! one of them is gone, so the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
#[path = "common/sources.rs"]
mod sources;
use sources::rust_files;
use std::path::Path;

/// Module -> the modules it may use.
fn allowed() -> BTreeMap<&'static str, Vec<&'static str>> {
    let domain = ["snapshot", "signatures", "error", "files"];
    let mut m: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    m.insert("finding", vec!["shell"]);
    m.insert("shell", vec![]);
    m.insert("flink", vec!["finding", "shell"]);
    for d in domain {
        let mut v = vec!["finding", "shell", "flink"];
        v.extend(domain.iter().filter(|x| **x != d));
        m.insert(d, v);
    }
    let mut below_rules = vec!["finding", "shell", "flink"];
    below_rules.extend(domain);
    m.insert("rules", below_rules.clone());
    let mut below_rank = below_rules.clone();
    below_rank.push("rules");
    m.insert("rank", below_rank.clone());
    let mut below_render = below_rank.clone();
    below_render.push("rank");
    m.insert("render", below_render.clone());
    m.insert("lint", below_render.clone());
    // Gather reads the cluster into a Snapshot; it knows the domain, not the rules.
    let mut below_cluster = vec!["finding", "shell", "flink"];
    below_cluster.extend(domain);
    m.insert("cluster", below_cluster);
    let mut below_commands = below_render.clone();
    below_commands.extend(["render", "lint", "cluster"]);
    // The CLI layer: its modules use each other and everything below.
    below_commands.extend(["cli", "commands", "docs"]);
    for top in ["cli", "commands", "docs", "main", "lib"] {
        m.insert(top, below_commands.clone());
    }
    m
}

/// Wrong-way imports that exist today, each to be removed (issue: one home for every Flink fact,
/// strict layers). (from module, to module).
const KNOWN: &[(&str, &str)] = &[];

/// The top-level module a file belongs to: `src/rules/x.rs` -> `rules`, `src/rank.rs` -> `rank`.
fn module_of(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Whether a file is a module its parent declares under `#[cfg(test)]` (a rule's `tests.rs`,
/// shared fixtures): like a test module inside a file, it may reach anything.
fn test_only(root: &Path, file: &Path) -> bool {
    let name = match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod") => file.parent().and_then(|d| d.file_name()),
        _ => file.file_stem(),
    };
    let Some(name) = name.and_then(|n| n.to_str()) else {
        return false;
    };
    let dir = if file.file_stem().is_some_and(|s| s == "mod") {
        file.parent().and_then(Path::parent)
    } else {
        file.parent()
    };
    let Some(dir) = dir.filter(|d| d.starts_with(root)) else {
        return false;
    };
    let parents = [
        dir.join("mod.rs"),
        dir.with_extension("rs"),
        dir.join("lib.rs"),
    ];
    let declared = |text: &str| {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        lines.windows(2).any(|w| {
            w[0] == "#[cfg(test)]"
                && (w[1] == format!("mod {name};") || w[1] == format!("pub mod {name};"))
        })
    };
    parents
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .any(|text| declared(&text))
}

/// The top-level modules a file names with `crate::` (in `use` lines and in paths).
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_tests = false;
    for line in text.lines() {
        let t = line.trim_start();
        // Test modules may reach anything (fixtures, the whole pipeline).
        if t.starts_with("#[cfg(test)]") {
            in_tests = true;
        }
        if in_tests || t.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
        // `use crate::{a, b::c}`: every name right after `{` or `, ` counts.
        if let Some(i) = line.find("crate::{") {
            for part in line[i + "crate::{".len()..].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn imports_go_down_the_layers_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed = allowed();
    let files = rust_files(&root);
    let mut found: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| !test_only(&root, f)) {
        let from = module_of(&root, f);
        let Some(ok) = allowed.get(from.as_str()) else {
            panic!(
                "{}: module `{from}` has no place in the layers",
                f.display()
            );
        };
        for to in uses(&std::fs::read_to_string(f).unwrap()) {
            if to == from || ok.contains(&to.as_str()) || !allowed.contains_key(to.as_str()) {
                continue;
            }
            found
                .entry((from.clone(), to))
                .or_default()
                .push(f.strip_prefix(&root).unwrap().display().to_string());
        }
    }
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(k, _)| !known.contains(*k))
        .map(|((a, b), files)| format!("{a} -> {b}: {}", files.join(", ")))
        .collect();
    let gone: Vec<String> = known
        .iter()
        .filter(|k| !found.contains_key(*k))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    assert!(
        new.is_empty(),
        "wrong-way imports (a module may use only the layers below it):\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "no longer imported, remove from KNOWN: {}",
        gone.join(", ")
    );
}

/// The rule modules (`src/rules/<rule>.rs`): each stands alone. What rules share lives in
/// `rules::support` (or below, in the domain); a rule never imports another rule, and support
/// never imports a rule.
#[test]
fn no_rule_imports_another_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let rules: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem()?.to_string_lossy().to_string();
            (p.extension().is_some_and(|x| x == "rs") && stem != "mod" && stem != "testing")
                .then_some(stem)
        })
        .collect();
    assert!(rules.len() > 20, "rules not found in {}", dir.display());
    let files = rust_files(&dir);
    let mut wrong = Vec::new();
    for f in &files {
        let this = f.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for r in rules.iter().filter(|r| **r != this) {
            for path in [format!("super::{r}::"), format!("crate::rules::{r}::")] {
                if code.contains(&path) {
                    wrong.push(format!(
                        "{} uses {path}",
                        f.strip_prefix(&dir).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "rules must not import each other:\n{}",
        wrong.join("\n")
    );
}

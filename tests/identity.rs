//! "Which operator is this" and "which pods does it run" are asked of one table
//! (`src/flink/identity.rs`, read through `src/snapshot/identity.rs`). This fails on an operator
//! label selector or image written as a literal anywhere else in production code (tests and test
//! helpers may spell them). `KNOWN` lists the ones that exist today (the list only shrinks: the
//! test also fails when one of them is gone).

#[path = "common/sources.rs"]
mod sources;
use sources::{production, rust_files};
use std::path::Path;

/// Operator selectors and images as literals: `app=flink-operator`,
/// `app.kubernetes.io/name=flink-kubernetes-operator`, `gcr.io/flink-operator/flink-operator`, ...
const PATTERN: &str = r"(app|app\.kubernetes\.io/name)=(flink-operator|flinkoperator|flink-kubernetes-operator)\b|(gcr\.io/flink-operator/flink-operator|ghcr\.io/spotify/flink-operator|gcr\.io/spotify/flink-operator|lyft/flinkk8soperator|ghcr\.io/apache/flink-kubernetes-operator)";

/// (file, number of lines) that hold such a literal today, outside the table.
const KNOWN: &[(&str, usize)] = &[
    // Text shown to the user (an error, --help, fix commands), to be drawn from the table.
    ("src/commands/can_i/mod.rs", 1),
    ("src/commands/logs.rs", 2),
    ("src/rules/operator_not_running.rs", 3),
    ("src/signatures/catalogue.rs", 1),
    // DESC-OPERATOR-PENDING's fix and verify (merged beside the table, not yet drawn from it).
    ("src/signatures/described.rs", 2),
    ("src/signatures/operators.rs", 2),
];

#[test]
fn operator_selectors_and_images_live_in_the_identity_table_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let re = regex::Regex::new(PATTERN).unwrap();
    let files = rust_files(&root.join("src"));
    let mut found: Vec<(String, usize)> = Vec::new();
    let mut lines_found = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("src/flink/") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let prod = production(&f, &text);
        let hits: Vec<&str> = prod
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            // `lyft/flinkk8soperator@v0.7.0:path` and `github.com/lyft/flinkk8soperator/issues/1`
            // are citations, not images.
            .filter(|l| {
                re.find_iter(l).any(|m| {
                    !l[m.end()..].starts_with('@') && !l[..m.start()].ends_with("github.com/")
                })
            })
            .collect();
        if !hits.is_empty() {
            lines_found.extend(hits.iter().map(|l| format!("{rel}: {}", l.trim())));
            found.push((rel, hits.len()));
        }
    }
    let known: Vec<(String, usize)> = KNOWN.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    assert_eq!(
        found,
        known,
        "operator selectors or images outside src/flink/identity.rs (use flink::identity / \
         snapshot::identity instead):\n{}",
        lines_found.join("\n")
    );
}

//! What each mode's objects look like is asked of one table (`src/flink/mode.rs`, with the
//! operators' half in `src/flink/identity.rs` and the names in `src/flink/names.rs`): which
//! component an object is (`Component::from_labels`), which pods a selector lists
//! (`Mode::selector`), which operator an object is (`operator_of`). This fails when production
//! code anywhere else spells a component as a literal (`"jobmanager"`), reads a component label
//! itself (`LABEL_COMPONENT`, `"flink-deployment-type"`) or writes a Flink label selector
//! (`app={name},component=...`, `component in (...)`). Tests and test helpers may spell them.
//!
//! `KNOWN` lists what exists today outside the table (the list only shrinks: the test also fails
//! when one of them is gone). The figures of issue #32 are counted by the same walk:
//! `cargo test --test wiring -- --nocapture` prints them.

#[path = "common/sources.rs"]
mod sources;
use sources::{production, rust_files};
use std::path::Path;

/// The files of the table itself.
const TABLE: &[&str] = &[
    "src/flink/mode.rs",
    "src/flink/identity.rs",
    "src/flink/names.rs",
];

/// What is looked for, by name.
const PATTERNS: &[(&str, &str)] = &[
    // `"jobmanager"` / `"taskmanager"` as string literals.
    ("component literal", r#""(jobmanager|taskmanager)""#),
    // Reading a component label by its key.
    (
        "component reader",
        r#"LABEL_COMPONENT|LABEL_LYFT_COMPONENT|"component"|"flink-deployment-type""#,
    ),
    // Writing a Flink label selector: `app={name}`, `{LABEL_APP}=`, `component in (`, `type in (`.
    (
        "selector builder",
        r"\b(app|component|cluster|flink-app|flink-deployment-type|type)=\{|\{LABEL_[A-Z_]+\}=|\b(component|type) in \(",
    ),
];

/// (pattern name, file, number of lines) outside the table today.
const KNOWN: &[(&str, &str, usize)] = &[
    // `kubectl flink logs --help` spells the selector NAME stands for (text, not a request).
    ("selector builder", "src/commands/logs.rs", 1),
];

/// Every (pattern, file, lines) found outside the table, and the lines themselves.
fn found() -> (Vec<(String, String, usize)>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files(&root.join("src"));
    let res: Vec<(&str, regex::Regex)> = PATTERNS
        .iter()
        .map(|(n, p)| (*n, regex::Regex::new(p).unwrap()))
        .collect();
    let mut out = Vec::new();
    let mut lines = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if TABLE.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let prod = production(&f, &text);
        for (name, re) in &res {
            let hits: Vec<&str> = prod
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .filter(|l| re.is_match(l))
                .collect();
            if !hits.is_empty() {
                lines.extend(hits.iter().map(|l| format!("{name}: {rel}: {}", l.trim())));
                out.push((name.to_string(), rel.clone(), hits.len()));
            }
        }
    }
    out.sort();
    (out, lines)
}

#[test]
fn modes_objects_are_described_in_the_table_only() {
    let (found, lines) = found();
    for (name, _) in PATTERNS {
        let n: usize = found
            .iter()
            .filter(|(p, _, _)| p == name)
            .map(|x| x.2)
            .sum();
        println!("{name}s outside the table: {n} production line(s)");
    }
    let mut known: Vec<(String, String, usize)> = KNOWN
        .iter()
        .map(|(p, f, n)| (p.to_string(), f.to_string(), *n))
        .collect();
    known.sort();
    assert_eq!(
        found,
        known,
        "component literals, component label reads or Flink label selectors outside \
         src/flink/mode.rs (ask Component::from_labels, Mode::selector or operator_of):\n{}",
        lines.join("\n")
    );
}

/// The walk finds what it is meant to find: a selector, a reader and a literal written the
/// ways the code used to write them.
#[test]
fn the_patterns_catch_the_old_spellings() {
    let res: Vec<(&str, regex::Regex)> = PATTERNS
        .iter()
        .map(|(n, p)| (*n, regex::Regex::new(p).unwrap()))
        .collect();
    let hit = |line: &str| -> Vec<&str> {
        res.iter()
            .filter(|(_, r)| r.is_match(line))
            .map(|(n, _)| *n)
            .collect()
    };
    assert_eq!(
        hit(r#"format!("app={name},component={comp}")"#),
        ["selector builder"]
    );
    assert_eq!(
        hit(r#"format!("{LABEL_APP}={FLINKCLUSTER_APP},{LABEL_CLUSTER}={n}")"#),
        ["selector builder"]
    );
    assert_eq!(
        hit(r#"const X: &str = "component in (jobmanager,taskmanager)";"#),
        ["selector builder"]
    );
    assert_eq!(
        hit(r#"label(pod, LABEL_COMPONENT) == Some("jobmanager")"#),
        ["component literal", "component reader"]
    );
    assert_eq!(
        hit(r#"match label(pod, "flink-deployment-type") {"#),
        ["component reader"]
    );
    assert!(hit(r#"format!("-D{k}={v}")"#).is_empty());
    assert!(hit(r#"format!("kubernetes.io/service-name={name}")"#).is_empty());
}

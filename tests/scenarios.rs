//! Scenario bundles whose expectations are data: every `tests/scenarios/*/expect.txt` says what
//! `kubectl flink doctor --from` must report on its bundle (findings in rank order with rule,
//! category, object, cause and what a fix must hold; the exit code; what the stderr note names),
//! and this test runs the real binary on each (an `install-*` variant as its base with its
//! `overlay.yaml` applied). The e2e tests seed the same bundles into a real API server and check
//! the live diagnosis against the same files. `tests/dumps/*` are `kubectl cluster-info dump`
//! folders with expect files of the same form, checked offline only.

mod common;
use common::expect::{compare, exact, missing_fixes, Expect};

use serde_json::Value;
use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// `doctor --from DIR -o json` against the expect file: what differs, and the stderr.
fn diagnose(dir: &std::path::Path, expect: &Expect) -> (Vec<String>, String) {
    let out = Command::new(PLUGIN)
        .args(["doctor", "--from"])
        .arg(dir)
        .args(["-o", "json", "--color", "never"])
        .output()
        .expect("run kubectl-flink");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e}); stderr: {stderr}", dir.display()));
    let code = out.status.code().map_or(-1, i64::from);
    let mut diff = compare(&expect.findings, expect.exit, &exact(&report), code);
    diff.extend(missing_fixes(&report, &expect.fixes));
    (diff, stderr)
}

#[test]
fn every_bundle_with_an_expect_file_is_diagnosed_as_it_says() {
    let bundles = common::scenarios::all();
    assert!(bundles.len() >= 30, "scenario folders: {bundles:?}");
    let mut failures = Vec::new();
    for (name, dir) in &bundles {
        let expect =
            Expect::read(&common::scenarios::root().join(name)).unwrap_or_else(|e| panic!("{e}"));
        let (diff, stderr) = diagnose(dir, &expect);
        if !diff.is_empty() {
            failures.push(format!("{name}:\n  {}", diff.join("\n  ")));
        }
        for piece in &expect.note {
            let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note:")).collect();
            if notes.len() != 1 || !notes[0].contains(piece.as_str()) {
                failures.push(format!(
                    "{name}: one note naming `{piece}`; stderr: {stderr}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_cluster_info_dump_is_diagnosed_as_it_says() {
    let root = common::repo().join("tests/dumps");
    let mut dumps: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/dumps")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dumps.sort();
    assert!(!dumps.is_empty(), "no dump in {}", root.display());
    let mut failures = Vec::new();
    for dir in &dumps {
        let expect = Expect::read(dir).unwrap_or_else(|e| panic!("{e}"));
        let (mut diff, stderr) = diagnose(dir, &expect);
        // Every file of a dump is kubectl's: nothing is left out.
        if stderr.lines().any(|l| l.starts_with("note:")) {
            diff.push(format!("a note on stderr: {stderr}"));
        }
        if !diff.is_empty() {
            failures.push(format!("{}:\n  {}", dir.display(), diff.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! Scenario bundles whose expectations are data: every `tests/scenarios/*/expect.txt` says what
//! `kubectl flink doctor --from` must report on its bundle (findings in rank order with rule,
//! category, object and cause; the exit code; what the stderr note names), and this test runs the
//! real binary on each. The e2e tests seed the same bundles into a real API server and check that
//! live and offline agree.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

fn bundles_with_expectations() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expect.txt").is_file())
        .collect();
    out.sort();
    out
}

/// One finding as expect.txt writes it: `rule category Kind/name <- cause index`.
fn describe(f: &Value, causes: &[Option<usize>], i: usize) -> String {
    let cause = causes[i].map(|c| format!(" <- {c}")).unwrap_or_default();
    format!(
        "{} {} {}/{}{cause}",
        f["rule"].as_str().unwrap_or("?"),
        f["category"].as_str().unwrap_or("?"),
        f["object"]["kind"].as_str().unwrap_or("?"),
        f["object"]["name"].as_str().unwrap_or("?"),
    )
}

#[test]
fn every_bundle_with_an_expect_file_is_diagnosed_as_it_says() {
    let bundles = bundles_with_expectations();
    assert!(bundles.len() >= 30, "expect.txt files: {bundles:?}");
    let mut failures = Vec::new();
    for dir in &bundles {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expect: Value = serde_yaml::from_str(
            &std::fs::read_to_string(dir.join("expect.txt")).expect("read expect.txt"),
        )
        .unwrap_or_else(|e| panic!("{name}/expect.txt: {e}"));
        let out = Command::new(PLUGIN)
            .args(["doctor", "--from"])
            .arg(dir)
            .args(["-o", "json", "--color", "never"])
            .output()
            .expect("run kubectl-flink");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{name}: not JSON ({e}); stderr: {stderr}"));
        let got = report["findings"].as_array().cloned().unwrap_or_default();
        let ids: Vec<&str> = got.iter().map(|f| f["id"].as_str().unwrap_or("")).collect();
        let causes: Vec<Option<usize>> = got
            .iter()
            .map(|f| {
                f["causedBy"]
                    .as_str()
                    .and_then(|c| ids.iter().position(|i| *i == c))
            })
            .collect();
        let got: Vec<String> = (0..got.len())
            .map(|i| describe(&got[i], &causes, i))
            .collect();
        let want: Vec<String> = expect["findings"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}/expect.txt: no findings list"))
            .iter()
            .map(|f| {
                let cause = f["causedBy"]
                    .as_u64()
                    .map(|c| format!(" <- {c}"))
                    .unwrap_or_default();
                format!(
                    "{} {} {}{cause}",
                    f["rule"].as_str().unwrap_or("?"),
                    f["category"].as_str().unwrap_or("?"),
                    f["object"].as_str().unwrap_or("?")
                )
            })
            .collect();
        if got != want {
            failures.push(format!("{name}: findings\n  want {want:?}\n  got  {got:?}"));
        }
        let code = out.status.code().unwrap_or(-1);
        if Some(i64::from(code)) != expect["exit"].as_i64() {
            failures.push(format!("{name}: exit {code}, want {}", expect["exit"]));
        }
        for piece in expect["note"].as_array().into_iter().flatten() {
            let piece = piece.as_str().unwrap_or("");
            let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note:")).collect();
            if notes.len() != 1 || !notes[0].contains(piece) {
                failures.push(format!(
                    "{name}: one note naming `{piece}`; stderr: {stderr}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

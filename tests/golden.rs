//! Golden output: what `doctor --from` prints for a few bundles, in every format, compared byte
//! for byte with the files in tests/golden/ (the table as piped, at 80 columns; the canonical
//! bundle's also at 100 and 200 columns, as `COLUMNS` asks). A change to a renderer or a rule's wording shows up
//! as a diff to review; `KUBECTL_FLINK_BLESS=1 cargo test --test golden` rewrites the files.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

const BUNDLES: &[&str] = &[
    "examples/canonical",
    "tests/scenarios/healthy-application",
    "tests/scenarios/install-no-cert-manager",
    "tests/scenarios/mode-lyft-deploy-failed",
    "tests/scenarios/status-error-s3-plugin",
];

/// Where doctor runs and the bundle it is given: the repository and the path as written, or, for a
/// scenario written from an overlay, the folder it was written below (which holds it at the same
/// path, so the report names it as for a folder in the repository).
fn place(bundle: &str) -> (PathBuf, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match bundle.strip_prefix("tests/scenarios/") {
        Some(name) if root.join(bundle).join("overlay.yaml").is_file() => {
            let made = common::scenarios::bundle(name);
            let top = made.ancestors().nth(3).unwrap().to_path_buf();
            (top, bundle.to_string())
        }
        _ => (root.to_path_buf(), bundle.to_string()),
    }
}

const FORMATS: &[&str] = &["table", "markdown", "json"];

#[test]
fn doctor_output_matches_the_golden_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("KUBECTL_FLINK_BLESS").is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for bundle in BUNDLES {
        let (dir, from) = place(bundle);
        for format in FORMATS {
            let out = Command::new(BIN)
                .current_dir(&dir)
                .env("NO_COLOR", "1")
                .env_remove("COLUMNS")
                .args(["doctor", "--from", &from, "-o", format])
                .output()
                .expect("run kubectl-flink");
            let got = String::from_utf8(out.stdout).expect("UTF-8 output");
            let name = bundle.rsplit('/').next().unwrap();
            let file = root.join("tests/golden").join(format!("{name}.{format}"));
            if bless {
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&file).unwrap_or_default();
            if got != want {
                let line = got
                    .lines()
                    .zip(want.lines())
                    .position(|(a, b)| a != b)
                    .map_or_else(|| "the length".to_string(), |i| format!("line {}", i + 1));
                differ.push(format!("{} differs at {line}", file.display()));
            }
        }
    }
    for columns in ["100", "200"] {
        let out = Command::new(BIN)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .env("COLUMNS", columns)
            .args(["doctor", "--from", "examples/canonical"])
            .output()
            .expect("run kubectl-flink");
        let got = String::from_utf8(out.stdout).expect("UTF-8 output");
        let file = root
            .join("tests/golden")
            .join(format!("canonical.table.{columns}"));
        if bless {
            std::fs::write(&file, &got).unwrap();
        } else if std::fs::read_to_string(&file).unwrap_or_default() != got {
            differ.push(format!("{} differs", file.display()));
        }
    }
    assert!(
        differ.is_empty(),
        "{}\n(review the change; KUBECTL_FLINK_BLESS=1 cargo test --test golden rewrites them)",
        differ.join("\n")
    );
}

/// The layout follows the width: no line of the canonical report is wider than the columns it was
/// drawn for, except a flag with a quoted value no break can go into (a JSON patch, a
/// jsonpath), and no title is cut.
#[test]
fn the_canonical_report_fits_80_100_and_200_columns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for columns in [80usize, 100, 200] {
        let out = Command::new(BIN)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .env("COLUMNS", columns.to_string())
            .args(["doctor", "--from", "examples/canonical"])
            .output()
            .expect("run kubectl-flink");
        let text = String::from_utf8(out.stdout).expect("UTF-8 output");
        for line in text.lines() {
            assert!(
                line.chars().count() <= columns || unbreakable(line),
                "wider than {columns}: {line:?}\n{text}"
            );
        }
        // Every title is there whole (over as many lines as it takes).
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for title in titles() {
            assert!(flat.contains(&title), "{title:?} cut at {columns}:\n{text}");
        }
    }
}

/// A continuation line holding one flag and its quoted value, alone because it fits no line.
fn unbreakable(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('-') && t.contains('\'') && !t.trim_end_matches(" \\").contains("  ")
}

fn titles() -> Vec<String> {
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["doctor", "--from", "examples/canonical", "-o", "json"])
        .output()
        .expect("run kubectl-flink");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let titles: Vec<String> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            f["title"]
                .as_str()
                .expect("title")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(titles.len() > 3);
    titles
}

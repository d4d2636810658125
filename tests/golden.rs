//! Golden output: what `doctor --from` prints for a few bundles, in every format, compared byte
//! for byte with the files in tests/golden/. A change to a renderer or a rule's wording shows up
//! as a diff to review; `KUBECTL_FLINK_BLESS=1 cargo test --test golden` rewrites the files.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

const BUNDLES: &[&str] = &[
    "examples/canonical",
    "tests/scenarios/healthy-application",
    "tests/scenarios/install-no-cert-manager",
    "tests/scenarios/mode-lyft-deploy-failed",
    "tests/scenarios/status-error-s3-plugin",
];

const FORMATS: &[&str] = &["table", "markdown", "json"];

#[test]
fn doctor_output_matches_the_golden_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("KUBECTL_FLINK_BLESS").is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for bundle in BUNDLES {
        for format in FORMATS {
            let out = Command::new(BIN)
                .current_dir(root)
                .env("NO_COLOR", "1")
                .args(["doctor", "--from", bundle, "-o", format])
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
    assert!(
        differ.is_empty(),
        "{}\n(review the change; KUBECTL_FLINK_BLESS=1 cargo test --test golden rewrites them)",
        differ.join("\n")
    );
}

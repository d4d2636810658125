//! lab-expect: compares a live `doctor -o json` report (stdin) and its exit code with a recorded
//! bundle's expect.txt (see `kubectl_flink_test_support::expect`). Exit 0 when they agree, 1 with
//! the differences when not, 2 on bad input.
//!
//! Usage: kubectl flink doctor -n NS -o json | lab-expect EXPECT_TXT EXIT_CODE

use kubectl_flink_test_support::expect;
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(code)) = (
        args.first(),
        args.get(1).and_then(|c| c.parse::<i64>().ok()),
    ) else {
        eprintln!("usage: doctor -o json | lab-expect EXPECT_TXT EXIT_CODE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("lab-expect: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (want, want_exit) = match expect::expected(&text) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("lab-expect: {e}");
            return ExitCode::from(2);
        }
    };
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("lab-expect: stdin: {e}");
        return ExitCode::from(2);
    }
    let report: serde_json::Value = match serde_json::from_str(&input) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("lab-expect: the report is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    let got = expect::actual(&report);
    let diff = expect::compare(&want, want_exit, &got, code);
    if diff.is_empty() {
        println!(
            "lab-expect: the live diagnosis agrees with {path} ({} findings)",
            got.len()
        );
        return ExitCode::SUCCESS;
    }
    eprintln!("lab-expect: the live diagnosis differs from {path}:");
    for d in &diff {
        eprintln!("  {d}");
    }
    eprintln!("live findings:");
    for (i, g) in got.iter().enumerate() {
        eprintln!("  {i} {g}");
    }
    ExitCode::from(1)
}

//! `--version` names the git commit it was built from, when built from a git checkout.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let full = match commit {
        Some(c) => format!("{version} (commit {c})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=KUBECTL_FLINK_VERSION={full}");
    // Rebuild when the checkout moves: HEAD, and the branch it points at.
    let head = Path::new(".git/HEAD");
    if head.exists() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        if let Ok(text) = std::fs::read_to_string(head) {
            if let Some(reference) = text.trim().strip_prefix("ref: ") {
                println!("cargo:rerun-if-changed=.git/{reference}");
            }
        }
        if Path::new(".git/packed-refs").exists() {
            println!("cargo:rerun-if-changed=.git/packed-refs");
        }
    }
}

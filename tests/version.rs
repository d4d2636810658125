//! `--version` says the version and, built from a git checkout, the commit.

use std::process::Command;

#[test]
fn version_names_the_package_version_and_the_commit() {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-flink"))
        .arg("--version")
        .output()
        .expect("run kubectl-flink");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("kubectl-flink {}", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    let in_git = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".git")
        .exists();
    if in_git {
        assert!(text.contains("(commit "), "{text}");
    }
}

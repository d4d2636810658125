//! Shell completion: the scripts clap_complete writes, and kubectl's plugin completion through
//! `scripts/kubectl_complete-flink` (cobra's `__complete` format).

use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(PLUGIN)
        .args(args)
        .output()
        .expect("run kubectl-flink");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_script_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef kubectl-flink"),
        ("fish", "complete -c kubectl-flink"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, text) = run(&["completion", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(text.contains(marker), "{shell}: {text}");
    }
}

#[test]
fn kubectl_plugin_completion_answers_in_cobra_format() {
    let (code, text) = run(&["__complete", ""]);
    assert_eq!(code, 0);
    assert!(text.lines().any(|l| l.starts_with("doctor\t")), "{text}");
    assert_eq!(text.lines().last(), Some(":4"));
    let (_, text) = run(&["__complete", "lint", "--fa"]);
    assert!(text.starts_with("--fail-on"), "{text}");
    // The script kubectl runs calls exactly this.
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/kubectl_complete-flink"),
    )
    .unwrap();
    assert!(
        script.contains("kubectl-flink __complete \"$@\""),
        "{script}"
    );
}

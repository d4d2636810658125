//! Running the plugin, kubectl and shell snippets from the e2e tests, and reading its JSON report:
//! what e2e.rs, modes_e2e.rs, install_e2e.rs and can_i_e2e.rs each had a copy of.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

pub const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// A finished command: exit code (-1 when killed) and its output as text.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Runs `cmd` to its end with `stdin` (or none) as its input.
    pub fn of(cmd: &mut Command, stdin: Option<&str>) -> Run {
        let out = super::output(cmd, stdin);
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Its stdout as JSON, or what it printed instead.
    pub fn try_json(&self) -> Result<Value, String> {
        serde_json::from_str(&self.stdout).map_err(|e| {
            format!(
                "not JSON ({e}); exit {}\nstdout:\n{}\nstderr:\n{}",
                self.code, self.stdout, self.stderr
            )
        })
    }

    /// Its stdout as JSON; panics with what it printed instead.
    pub fn json(&self) -> Value {
        self.try_json().unwrap_or_else(|e| panic!("{e}"))
    }
}

/// A finished command's stdout and stderr as text.
pub fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The plugin, without colour, as `kubeconfig`'s user (None: no cluster at all).
pub fn plugin(kubeconfig: Option<&Path>, args: &[&str]) -> Run {
    let mut cmd = Command::new(PLUGIN);
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("KUBECTL_FLINK_COLOR")
        .env(
            "KUBECONFIG",
            kubeconfig.unwrap_or(Path::new("/nonexistent/kubeconfig")),
        );
    Run::of(&mut cmd, None)
}

/// The plugin with no cluster (a kubeconfig that does not exist), from the repository root so
/// that paths in `args` are the repository's, its stdout as JSON; panics with what it printed
/// instead. For offline runs: `doctor --from`, `lint`, `triage`.
pub fn offline_json(args: &[&str]) -> Value {
    let mut cmd = Command::new(PLUGIN);
    cmd.args(args)
        .current_dir(super::repo())
        .env("NO_COLOR", "1")
        .env_remove("KUBECTL_FLINK_COLOR")
        .env("KUBECONFIG", "/nonexistent/kubeconfig");
    Run::of(&mut cmd, None)
        .try_json()
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// Runs a shell snippet the way a user pastes it: bash, the version-matched `kubectl` first on
/// PATH, the `admin` kubeconfig.
pub fn shell(kubectl: &Path, admin: &Path, script: &str) -> Run {
    let dir = kubectl.parent().unwrap_or(Path::new("/"));
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("bash");
    cmd.args(["-euo", "pipefail", "-c", script])
        .env("PATH", path)
        .env("KUBECONFIG", admin)
        .stdin(Stdio::null());
    Run::of(&mut cmd, None)
}

/// The string at a JSON pointer, or "".
pub fn s<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr).and_then(Value::as_str).unwrap_or("")
}

/// The findings of a `doctor -o json` report.
pub fn findings(report: &Value) -> Vec<Value> {
    report
        .get("findings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

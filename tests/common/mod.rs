//! What every end-to-end test file needs to find the test cluster that
//! `scripts/test-cluster.sh run` started, and to refuse to pass silently without one.
#![allow(dead_code)] // each test binary uses its own subset

use std::io::Write;
use std::path::PathBuf;

/// The repository root (the main crate's manifest directory).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An environment variable naming a path, when set and not empty.
pub fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The harness's state directory (`KUBE_HARNESS_DIR`), the switch for "is there a cluster".
pub fn harness_dir() -> Result<PathBuf, String> {
    env_path("KUBE_HARNESS_DIR").ok_or_else(|| "KUBE_HARNESS_DIR is not set".to_string())
}

/// A path the harness exports, which must exist.
pub fn need(name: &str) -> Result<PathBuf, String> {
    let dir = harness_dir()?;
    let p = env_path(name).ok_or(format!(
        "{name} is not set (KUBE_HARNESS_DIR={})",
        dir.display()
    ))?;
    if p.exists() {
        Ok(p)
    } else {
        Err(format!("{name}={} does not exist", p.display()))
    }
}

/// No cluster: a test must fail under CI (a skipped e2e suite would hide a broken harness) and
/// say so loudly otherwise. Written straight to stderr, which libtest does not capture.
pub fn no_cluster(suite: &str, test: &str, why: &str) {
    if in_ci() {
        panic!(
            "{suite} test {test} cannot run: no test cluster ({why}). CI must run the suite as \
             `scripts/test-cluster.sh run cargo test --workspace`."
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "******** SKIPPED {suite} test {test}: no test cluster ({why}). \
         Run: scripts/test-cluster.sh run cargo test --test {suite}"
    );
}

/// The harness when the cluster is there; else None after [`no_cluster`] (which panics under CI).
pub fn or_skip<T>(suite: &str, test: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(h) => Some(h),
        Err(why) => {
            no_cluster(suite, test, &why);
            None
        }
    }
}

/// Runs `cmd` to its end with `stdin` (or none) as its input, its output collected.
pub fn output(cmd: &mut std::process::Command, stdin: Option<&str>) -> std::process::Output {
    use std::process::Stdio;
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("spawn");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
    }
    child.wait_with_output().expect("wait")
}

/// Loads a bundle into the test cluster: `scripts/test-cluster.sh seed FLAGS... DIR` (`--reset`
/// removes what earlier seeds of this test binary made first). Err holds what the seeder printed.
pub fn seed(dir: &std::path::Path, flags: &[&str]) -> Result<(), String> {
    let script = repo().join("scripts/test-cluster.sh");
    let out = std::process::Command::new(&script)
        .arg("seed")
        .args(flags)
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("run {}: {e}", script.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "seeding {} failed:\n{}{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}

/// Seeds one healthy cluster of three modes into `namespace` (with `--reset`): the FlinkDeployment,
/// FlinkCluster and native JobManager Deployment of the healthy scenarios, each the first object of
/// its file (a native cluster's file goes on with its pods), moved into that namespace.
pub fn seed_three_healthy_modes(namespace: &str) {
    let dir =
        std::env::temp_dir().join(format!("kubectl-flink-{namespace}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = |path: &str, theirs: &str| {
        let text = std::fs::read_to_string(repo().join("tests/scenarios").join(path)).unwrap();
        let first = text.split("\n---").next().unwrap().to_string();
        first.replace(theirs, namespace)
    };
    let objects = [
        format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {namespace}\n"),
        scenario(
            "healthy-application/flinkdeployment.yaml",
            "scn-healthy-app",
        ),
        scenario(
            "mode-flinkcluster-healthy/flinkcluster.yaml",
            "scn-mode-flinkcluster-healthy",
        ),
        scenario(
            "mode-native-healthy/jobmanager.yaml",
            "scn-mode-native-healthy",
        ),
    ];
    std::fs::write(dir.join("objects.yaml"), objects.join("\n---\n")).unwrap();
    seed(&dir, &["--reset"]).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}

pub mod expect;
pub mod hostile;
pub mod run;
pub mod scenarios;

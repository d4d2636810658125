//! CLI tests: the real binary, its flags, exit codes, colour rules and bad input.
//!
//! Exit codes (src/cli.rs EXIT_CODES): 0 nothing at or above --fail-on, 1 findings at or above it,
//! 2 usage or input error, 3 could not complete (cluster unreachable).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");
const CANONICAL: &str = "examples/canonical";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn has_ansi(&self) -> bool {
        self.stdout.contains('\x1b')
    }

    /// The error contract: exit 2 (or the given code), nothing on stdout, exactly one line on
    /// stderr starting with `error:`, never a panic.
    fn assert_one_line_error(&self, code: i32, mentions: &str) {
        assert!(!self.stderr.contains("panicked"), "panic: {}", self.stderr);
        assert_eq!(self.code, code, "exit code; stderr: {}", self.stderr);
        assert_eq!(self.stdout, "", "nothing on stdout on error");
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "exactly one line on stderr: {:?}",
            self.stderr
        );
        assert!(lines[0].starts_with("error: "), "{:?}", lines[0]);
        assert!(
            lines[0].to_lowercase().contains(&mentions.to_lowercase()),
            "{:?} should mention {mentions:?}",
            lines[0]
        );
    }
}

/// Runs the binary from the crate root with a clean environment: no KUBECONFIG, no NO_COLOR,
/// HOME pointing at an empty directory (so ~/.kube/config is never read).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let home = tempfile::tempdir().expect("temp HOME");
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("KUBECONFIG")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("HOME", home.path())
        .env("USERPROFILE", home.path())
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run kubectl-flink");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run(args: &[&str]) -> Run {
    run_env(args, &[])
}

fn json(args: &[&str]) -> serde_json::Value {
    let r = run(args);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.stdout))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

fn kubeconfig(dir: &Path, server: &str) -> PathBuf {
    write(
        dir,
        "kubeconfig.yaml",
        &format!(
            "apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {{server: \"{server}\", insecure-skip-tls-verify: true}}
users:
- name: test
  user: {{token: not-a-real-token}}
contexts:
- name: test
  context: {{cluster: test, user: test, namespace: analytics}}
current-context: test
"
        ),
    )
}

// ---------------------------------------------------------------- the canonical example

#[test]
fn table_shows_both_root_causes_on_the_first_screen() {
    let r = run(&["doctor", "--from", CANONICAL]);
    assert_eq!(
        r.code, 1,
        "findings at or above warning exit 1; stderr: {}",
        r.stderr
    );
    assert_eq!(r.stderr, "", "stderr is for diagnostics only");
    assert!(!r.has_ansi(), "stdout is not a terminal: no colour");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].contains("root causes") && lines[0].contains("FlinkDeployment analytics/orders"),
        "header: {:?}",
        lines[0]
    );
    let first_screen = lines[..lines.len().min(40)].join("\n");
    for cause in ["main_container_misnamed", "rbac_forbidden"] {
        assert!(
            first_screen.contains(cause),
            "{cause} not on the first screen:\n{first_screen}"
        );
    }
    // Root-cause blocks, in rank order, each with its parts.
    let b1 = r
        .stdout
        .find("\n1. CRITICAL  FLK101  main_container_misnamed")
        .expect(&r.stdout);
    let b2 = r
        .stdout
        .find("\n2. CRITICAL  FLK501  rbac_forbidden")
        .expect(&r.stdout);
    assert!(b1 < b2);
    let block1 = &r.stdout[b1..b2];
    for part in [
        "   object    FlinkDeployment/orders -n analytics",
        "   evidence  ",
        "   fix\n",
        "   verify    kubectl ",
    ] {
        assert!(block1.contains(part), "block 1 lacks {part:?}:\n{block1}");
    }
    // The fix is printed verbatim (copy-pasteable), not wrapped into a cell.
    assert!(
        block1.contains("- name: flink-main-container   # was: flink-job-manager\n"),
        "{block1}"
    );
    // The exit-0 sidecar is a symptom under the misnamed container, not a root.
    assert!(
        block1.contains("container_exit_zero_restarting"),
        "{block1}"
    );
    assert!(!r.stdout[b2..].contains("container_exit_zero_restarting"));
}

#[test]
fn json_is_versioned_ranked_and_complete() {
    let v = json(&["doctor", "--from", CANONICAL, "-o", "json"]);
    assert_eq!(v["version"], 1);
    let findings = v["findings"].as_array().expect("findings array");
    assert!(!findings.is_empty());
    let mut seen = Vec::new();
    for f in findings {
        let obj = f.as_object().expect("finding object");
        for key in [
            "rule", "category", "severity", "layer", "title", "object", "evidence", "fix",
            "verify", "causedBy", "count",
        ] {
            assert!(obj.contains_key(key), "missing {key}: {f}");
        }
        assert!(["critical", "warning", "info"].contains(&f["severity"].as_str().unwrap()));
        assert!(f["evidence"].is_array());
        assert!(f["count"].as_u64().unwrap() >= 1);
        // Rank order: a cause always comes before the symptoms it explains.
        if let Some(cause) = f["causedBy"].as_str() {
            assert!(
                seen.contains(&cause.to_string()),
                "{} listed before its cause {cause}",
                f["id"]
            );
        }
        seen.push(f["id"].as_str().unwrap_or_default().to_string());
    }
    let roots: Vec<&str> = findings
        .iter()
        .filter(|f| f["causedBy"].is_null())
        .map(|f| f["category"].as_str().unwrap())
        .collect();
    assert_eq!(
        roots.first(),
        Some(&"main_container_misnamed"),
        "roots: {roots:?}"
    );
    assert!(
        roots.contains(&"rbac_forbidden"),
        "rbac_forbidden is a root cause: {roots:?}"
    );
    let symptoms: Vec<&str> = findings
        .iter()
        .filter(|f| !f["causedBy"].is_null())
        .map(|f| f["category"].as_str().unwrap())
        .collect();
    assert!(
        symptoms.contains(&"container_exit_zero_restarting"),
        "{symptoms:?}"
    );
}

#[test]
fn markdown_has_headings_and_code_blocks() {
    let r = run(&["doctor", "--from", CANONICAL, "-o", "markdown"]);
    assert_eq!(r.code, 1);
    assert!(!r.has_ansi());
    let md = &r.stdout;
    assert!(
        md.starts_with("# kubectl flink doctor: bundle examples/canonical\n"),
        "{md}"
    );
    let h1 = md.find("\n## 1. critical: ").expect(md);
    let h2 = md.find("\n## 2. critical: ").expect(md);
    assert!(h1 < h2);
    assert!(md[h1..h2].contains("main_container_misnamed"));
    assert!(md[h2..].contains("rbac_forbidden"));
    assert!(
        md.contains("```yaml\n") && md.contains("```sh\n") && md.contains("```text\n"),
        "{md}"
    );
    assert!(md.contains("**Symptoms explained by this cause**"));
    assert_eq!(md.matches("```").count() % 2, 0, "fences are balanced");
}

#[test]
fn name_and_namespace_narrow_the_bundle() {
    let all = json(&["doctor", "--from", CANONICAL, "-o", "json"]);
    let named = json(&["doctor", "orders", "--from", CANONICAL, "-o", "json"]);
    assert_eq!(all["findings"], named["findings"]);
    let r = run(&["doctor", "--from", CANONICAL, "-n", "elsewhere"]);
    assert_eq!(r.code, 4, "{}", r.stdout);
    assert_eq!(
        r.stdout,
        "No Flink deployments found in namespace elsewhere of bundle examples/canonical.\n"
    );
}

// ---------------------------------------------------------------- exit codes

#[test]
fn fail_on_sets_the_threshold() {
    let code = |extra: &[&str]| {
        let mut args = vec!["doctor", "--from", CANONICAL, "-o", "json"];
        args.extend_from_slice(extra);
        run(&args).code
    };
    assert_eq!(code(&[]), 1, "default --fail-on warning");
    assert_eq!(code(&["--fail-on", "never"]), 0);
    assert_eq!(
        code(&["--fail-on", "critical"]),
        1,
        "the canonical example has critical findings"
    );
    assert_eq!(code(&["--fail-on", "info"]), 1);
}

#[test]
fn help_documents_the_exit_codes() {
    for args in [&["--help"][..], &["doctor", "--help"][..]] {
        let r = run(args);
        assert_eq!(r.code, 0);
        assert!(r.stdout.contains("Exit codes:"), "{}", r.stdout);
        for code in ["0  ", "1  ", "2  ", "3  ", "4  "] {
            assert!(
                r.stdout.contains(code),
                "exit code {code} undocumented:\n{}",
                r.stdout
            );
        }
    }
}

#[test]
fn triage_documents_only_the_exit_codes_it_returns() {
    let r = run(&["triage", "--help"]);
    assert_eq!(r.code, 0);
    let codes = r.stdout.split("Exit codes:").nth(1).unwrap_or_default();
    for code in ["0  ", "1  ", "2  "] {
        assert!(codes.contains(code), "{code} undocumented:\n{codes}");
    }
    for code in ["3  ", "4  ", "130"] {
        assert!(
            !codes.contains(code),
            "triage never returns {code}:\n{codes}"
        );
    }
}

#[test]
fn an_empty_bundle_is_an_input_error_not_a_clean_bill_of_health() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    run(&["doctor", "--from", path]).assert_one_line_error(2, "no Kubernetes objects");
    write(dir.path(), "notes.json", "{\"ticket\": 42}\n");
    run(&["doctor", "--from", path]).assert_one_line_error(2, "no Kubernetes objects");
}

#[test]
fn a_name_not_found_says_where_it_looked_and_where_it_exists_with_exit_code_4() {
    // In another namespace of the bundle: where it looked, where it is, the command to run.
    run(&["doctor", "orders", "--from", CANONICAL, "-n", "default"]).assert_one_line_error(
        4,
        "named orders in namespace default of bundle examples/canonical; it exists in namespace \
         analytics (kubectl flink doctor orders --from examples/canonical -n analytics)",
    );
    // A FlinkCluster of the GCP/Spotify operator is a Flink deployment by its name too.
    const FLINKCLUSTER: &str = "tests/scenarios/mode-flinkcluster-submitter-failed";
    run(&[
        "doctor",
        "wordcount",
        "--from",
        FLINKCLUSTER,
        "-n",
        "default",
    ])
    .assert_one_line_error(
        4,
        "or FlinkCluster named wordcount in namespace default of bundle \
         tests/scenarios/mode-flinkcluster-submitter-failed; it exists in namespace \
         scn-mode-flinkcluster-submitter",
    );
    // Nowhere: where it looked, nothing else.
    let r = run(&["doctor", "nosuch", "--from", CANONICAL]);
    r.assert_one_line_error(4, "named nosuch in bundle examples/canonical");
    assert!(!r.stderr.contains("exists in"), "{}", r.stderr);
    // The exit code is documented.
    let help = run(&["doctor", "--help"]);
    assert!(
        help.stdout.contains("or none named NAME"),
        "{}",
        help.stdout
    );
}

/// `doctor NAME` of a Flink resource with no cluster behind it (a FlinkSessionJob, a
/// FlinkStateSnapshot): a diagnosis that names the missing FlinkDeployment and the operator's
/// event, never "No problems found" about something it did not examine.
#[test]
fn a_flink_resource_with_no_cluster_behind_it_is_diagnosed_by_name() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "objects.yaml",
        r#"apiVersion: v1
kind: Namespace
metadata: {name: jobs}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: other, namespace: jobs}
spec: {image: "flink:1.20", flinkVersion: v1_20, serviceAccount: flink}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: jobs}
spec:
  deploymentName: session-cluster
  job: {jarURI: "https://example.org/wordcount.jar", parallelism: 2, upgradeMode: stateless}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkStateSnapshot
metadata: {name: orders-sp, namespace: jobs}
spec:
  jobReference: {kind: FlinkDeployment, name: orders}
  savepoint: {path: "s3://bucket/savepoints", alreadyExists: false}
---
apiVersion: v1
kind: Event
metadata: {name: orders-sp.1, namespace: jobs}
involvedObject: {kind: FlinkStateSnapshot, namespace: jobs, name: orders-sp}
reason: ValidationError
type: Warning
count: 3
lastTimestamp: "2026-11-28T10:20:00Z"
message: "Target for snapshot jobs/orders was not found"
"#,
    );
    let path = dir.path().to_str().unwrap();
    for (name, missing, event) in [
        ("wordcount", "session-cluster", None),
        (
            "orders-sp",
            "orders",
            Some("Target for snapshot jobs/orders was not found"),
        ),
    ] {
        let r = run(&["doctor", name, "--from", path, "-o", "json"]);
        assert_eq!(r.code, 1, "{name}: {}{}", r.stdout, r.stderr);
        assert!(!r.stdout.contains("No problems found"), "{}", r.stdout);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let f = &v["findings"][0];
        assert_eq!(f["rule"], "FLK402", "{name}: {v:#}");
        assert_eq!(f["object"]["name"], name);
        assert!(f["title"].as_str().unwrap().contains(missing), "{f:#}");
        if let Some(event) = event {
            assert!(
                f["evidence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e.as_str().unwrap().contains(event)),
                "{f:#}"
            );
        }
        let table = run(&["doctor", name, "--from", path]);
        assert!(
            !table.stdout.contains("No problems found"),
            "{}",
            table.stdout
        );
    }
}

#[test]
fn a_bundle_with_no_flink_says_so_with_exit_code_4() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "namespace.yaml",
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: analytics}\n",
    );
    let path = dir.path().to_str().unwrap();
    // Nothing to diagnose is said as kubectl says it, with its own exit code (0 is "healthy").
    let r = run(&["doctor", "--from", path]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!("No Flink deployments found in bundle {path}.\n")
    );
    let md = run(&["doctor", "--from", path, "-o", "markdown"]);
    assert_eq!(md.code, 4);
    assert_eq!(
        md.stdout,
        format!("**No Flink deployments found in bundle {path}.**\n")
    );
    let j = run(&["doctor", "--from", path, "-o", "json"]);
    assert_eq!(j.code, 4);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v, serde_json::json!({"version": 1, "findings": []}));
    // A healthy deployment is still "No problems found", exit 0.
    let healthy = run(&["doctor", "--from", "tests/scenarios/healthy-application"]);
    assert_eq!(healthy.code, 0, "{}", healthy.stdout);
    assert!(
        healthy.stdout.starts_with("No problems found"),
        "{}",
        healthy.stdout
    );
    assert!(healthy.stdout.contains("checks over"), "{}", healthy.stdout);
}

// ---------------------------------------------------------------- colour

#[test]
fn no_colour_unless_asked() {
    let base = ["doctor", "--from", CANONICAL];
    assert!(!run(&base).has_ansi(), "auto, not a terminal");
    assert!(!run_env(&base, &[("NO_COLOR", "1")]).has_ansi());
    let mut never = base.to_vec();
    never.extend(["--color", "never"]);
    assert!(!run_env(&never, &[("CLICOLOR_FORCE", "1")]).has_ansi());
}

#[test]
fn colour_always_paints_the_table_but_never_json_or_markdown() {
    let r = run(&["doctor", "--from", CANONICAL, "--color", "always"]);
    assert!(r.has_ansi(), "{}", r.stdout);
    assert!(r.stdout.contains("\x1b[1;31mCRITICAL\x1b[0m"));
    // --color always is an explicit request: it wins over NO_COLOR (as in stern).
    let r = run_env(
        &["doctor", "--from", CANONICAL, "--color", "always"],
        &[("NO_COLOR", "1")],
    );
    assert!(r.has_ansi());
    for format in ["json", "markdown"] {
        let r = run(&[
            "doctor", "--from", CANONICAL, "--color", "always", "-o", format,
        ]);
        assert!(!r.has_ansi(), "-o {format} must never be coloured");
    }
    let v = json(&[
        "doctor", "--from", CANONICAL, "--color", "always", "-o", "json",
    ]);
    assert_eq!(v["version"], 1);
}

// ---------------------------------------------------------------- bad input

#[test]
fn missing_bundle_path() {
    run(&["doctor", "--from", "no/such/bundle"]).assert_one_line_error(2, "no/such/bundle");
}

#[test]
fn invalid_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "broken.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: [unclosed\n",
    );
    run(&["doctor", "--from", path.to_str().unwrap()]).assert_one_line_error(2, "broken.yaml");
}

#[test]
fn objects_of_unknown_kinds_and_stray_files_are_left_out_with_one_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(CANONICAL).join("flinkdeployment.yaml"),
        dir.path().join("flinkdeployment.yaml"),
    )
    .expect("copy the canonical FlinkDeployment");
    write(
        dir.path(),
        "gizmo.yaml",
        "apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\n---\napiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: h}\n",
    );
    write(dir.path(), "cluster-info.json", "{\"nodes\": 3}\n");
    let r = run(&["doctor", "--from", dir.path().to_str().unwrap()]);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let notes: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("note:"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", r.stderr);
    assert!(
        notes[0].contains("2 Gizmo (example.com/v1)"),
        "{}",
        notes[0]
    );
    assert!(
        notes[0].contains("cluster-info.json: not a Kubernetes object"),
        "{}",
        notes[0]
    );
}

#[test]
fn unknown_output_format() {
    let r = run(&["doctor", "--from", CANONICAL, "-o", "yaml-ish"]);
    // clap's own usage error: several lines (possible values, --help hint), exit 2, no panic.
    assert_eq!(r.code, 2);
    assert!(!r.stderr.contains("panicked"));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .starts_with("error: invalid value 'yaml-ish' for '--output"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("table") && r.stderr.contains("json") && r.stderr.contains("markdown")
    );
}

#[test]
fn name_not_in_the_bundle() {
    // Nothing to diagnose, not an input error: exit 4, as an empty scope.
    run(&["doctor", "payments", "--from", CANONICAL]).assert_one_line_error(4, "payments");
}

#[test]
fn a_namespace_list_is_for_logs_only() {
    // Kubernetes names hold no comma: doctor and can-i say so instead of asking for "a,b".
    run(&["doctor", "-n", "a,b", "--from", CANONICAL]).assert_one_line_error(2, "only logs");
    run(&["can-i", "orders", "-n", "a,b"]).assert_one_line_error(2, "only logs");
}

#[test]
fn unknown_context() {
    let dir = tempfile::tempdir().unwrap();
    let kc = kubeconfig(dir.path(), "https://127.0.0.1:1");
    run(&[
        "doctor",
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--context",
        "no-such-context",
    ])
    .assert_one_line_error(2, "no-such-context");
}

#[test]
fn garbage_kubeconfig() {
    let dir = tempfile::tempdir().unwrap();
    let kc = write(
        dir.path(),
        "garbage",
        "this: is: not [a kubeconfig\n\u{0}\u{1}",
    );
    run(&["doctor", "--kubeconfig", kc.to_str().unwrap()]).assert_one_line_error(2, "kubeconfig");
    // The same through $KUBECONFIG.
    run_env(&["doctor"], &[("KUBECONFIG", kc.to_str().unwrap())])
        .assert_one_line_error(2, "kubeconfig");
}

#[test]
fn kubeconfig_that_does_not_exist() {
    run(&["doctor", "--kubeconfig", "/no/such/kubeconfig"]).assert_one_line_error(2, "kubeconfig");
}

#[test]
fn bogus_request_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let kc = kubeconfig(dir.path(), "https://127.0.0.1:1");
    run(&[
        "doctor",
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--request-timeout",
        "bogus",
    ])
    .assert_one_line_error(2, "request-timeout");
}

// ---------------------------------------------------------------- cluster unreachable

#[test]
fn unreachable_cluster_exits_3_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let kc = kubeconfig(dir.path(), "https://127.0.0.1:1");
    let r = run(&[
        "doctor",
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--request-timeout",
        "5s",
    ]);
    r.assert_one_line_error(3, "error:");
    assert!(
        r.stderr.contains("127.0.0.1:1") || r.stderr.to_lowercase().contains("reach"),
        "says what could not be reached: {}",
        r.stderr
    );
}

#[test]
fn save_into_a_full_folder_is_refused_before_the_cluster_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("bundle");
    std::fs::create_dir(&full).unwrap();
    write(&full, "keep.txt", "mine\n");
    // A kubeconfig that points nowhere: were the cluster read first, this would be the error.
    let cfg = kubeconfig(dir.path(), "https://127.0.0.1:1");
    run(&[
        "doctor",
        "--kubeconfig",
        cfg.to_str().unwrap(),
        "--save",
        full.to_str().unwrap(),
    ])
    .assert_one_line_error(2, "not empty");
    assert_eq!(
        std::fs::read_to_string(full.join("keep.txt")).unwrap(),
        "mine\n"
    );
}

#[test]
fn an_absurd_request_timeout_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), "https://127.0.0.1:1");
    let kc = cfg.to_str().unwrap();
    for t in ["99999999999999999999", "9999999999999999h"] {
        for args in [
            &["doctor"][..],
            &["logs", "orders"],
            &["logs", "orders", "-f"],
            &["can-i", "orders"],
        ] {
            let mut args = args.to_vec();
            args.extend(["--kubeconfig", kc, "--request-timeout", t]);
            run(&args).assert_one_line_error(2, "invalid --request-timeout");
        }
    }
}

/// Runs the plugin, failing the test if it has not finished within `secs` (a hang is a failure,
/// not a stuck CI).
fn run_bounded(args: &[&str], secs: u64) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kubectl-flink");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("kubectl-flink {args:?} did not finish within {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn link_loops_fifos_and_devices_in_a_bundle_or_manifest_folder_neither_hang_nor_grow() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(
        Path::new(CANONICAL).join("flinkdeployment.yaml"),
        d.join("flinkdeployment.yaml"),
    )
    .expect("copy the canonical FlinkDeployment");
    symlink(".", d.join("a")).unwrap();
    symlink(".", d.join("b")).unwrap();
    symlink("/dev/zero", d.join("zero.yaml")).unwrap();
    let logs = d.join("logs/analytics/orders-jm");
    std::fs::create_dir_all(&logs).unwrap();
    symlink("/dev/zero", logs.join("flink-main-container.log")).unwrap();
    let fifo_made = Command::new("mkfifo")
        .arg(d.join("pipe.yaml"))
        .arg(logs.join("flink-main-container.previous.log"))
        .status()
        .is_ok_and(|s| s.success());
    let path = d.to_str().unwrap();
    let r = run_bounded(&["doctor", "--from", path], 30);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    assert!(
        r.stderr
            .contains("zero.yaml: a link to something that is not a regular file"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("a: a link to a directory"),
        "{}",
        r.stderr
    );
    if fifo_made {
        assert!(
            r.stderr.contains("pipe.yaml: not a regular file"),
            "{}",
            r.stderr
        );
    }
    let r = run_bounded(&["lint", "-f", path], 30);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
}

#[test]
fn nesting_forty_thousand_levels_deep_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let deep = "[".repeat(40_000) + &"]".repeat(40_000);
    let f = write(dir.path(), "deep.json", &deep);
    run_bounded(&["doctor", "--from", f.to_str().unwrap()], 5)
        .assert_one_line_error(2, "nested deeper than 256 levels");
    let f = write(dir.path(), "deep.yaml", &format!("a: {deep}\n"));
    run_bounded(&["lint", "-f", f.to_str().unwrap()], 5)
        .assert_one_line_error(2, "nested deeper than 256 levels");
}

#[test]
fn a_reader_that_closes_the_pipe_early_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // 200 distinct findings: far more output than a pipe buffers.
    let text: String = (0..300)
        .map(|i| format!("pods is forbidden: User \"system:serviceaccount:ns{i}:sa{i}\" cannot watch resource \"pods\" in API group \"\" in the namespace \"ns{i}\"\n"))
        .collect();
    let log = write(dir.path(), "many.log", &text);
    let cmd = format!(
        "'{BIN}' triage '{}' 2>'{}' | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        log.display(),
        dir.path().join("err").display()
    );
    let out = Command::new("bash").args(["-c", &cmd]).output().unwrap();
    let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let err = std::fs::read_to_string(dir.path().join("err")).unwrap();
    assert_eq!(code, "1", "exit as without the pipe closed; stderr: {err}");
    assert_eq!(err, "", "quiet on a closed pipe");
}

#[test]
fn a_field_of_the_wrong_type_is_named_by_its_path() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "fd.yaml",
        "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: x, namespace: a}\nspec:\n  image: {name: flink}\n  flinkVersion: v1_20\n",
    );
    run(&["doctor", "--from", dir.path().to_str().unwrap()]).assert_one_line_error(
        2,
        "FlinkDeployment x: spec.image: invalid type: map, expected a string",
    );
}

/// A server on loopback that hands every connection, its request read, to `respond` (on a thread
/// of its own), until the test ends.
fn loopback_server(respond: fn(&mut std::net::TcpStream)) -> u16 {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(1000) {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(5)));
                let _ = s.read(&mut buf);
                respond(&mut s);
            });
        }
    });
    port
}

/// `doctor` against a server on a loopback port, bounded to `secs`.
fn doctor_against(port: u16, request_timeout: &str, secs: u64) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
    run_bounded(
        &[
            "doctor",
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "-n",
            "default",
            "--request-timeout",
            request_timeout,
        ],
        secs,
    )
}

#[test]
fn a_server_that_answers_429_with_an_hours_retry_after_holds_no_command() {
    let port = loopback_server(|s| {
        use std::io::Write;
        let _ = s.write_all(b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3600\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
    let kc = cfg.to_str().unwrap();
    for args in [
        [
            "doctor",
            "--kubeconfig",
            kc,
            "-n",
            "default",
            "--request-timeout",
            "5s",
        ],
        [
            "logs",
            "orders",
            "--kubeconfig",
            kc,
            "-n",
            "default",
            "--request-timeout=5s",
        ],
        [
            "can-i",
            "orders",
            "--kubeconfig",
            kc,
            "-n",
            "default",
            "--request-timeout=5s",
        ],
        [
            "logs",
            "orders",
            "-f",
            "--kubeconfig",
            kc,
            "--namespace=default",
            "--request-timeout=5s",
        ],
    ] {
        let started = std::time::Instant::now();
        let r = run_bounded(&args, 90);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert_eq!(
            r.code, 3,
            "{args:?}: stdout {} stderr {}",
            r.stdout, r.stderr
        );
        assert_eq!(
            r.stderr.trim_end().lines().count(),
            1,
            "{args:?}: {}",
            r.stderr
        );
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(60),
            "{args:?}: {took:?}"
        );
    }
}

#[test]
fn a_server_that_dribbles_one_byte_a_second_does_not_hold_doctor_past_its_deadline() {
    let port = loopback_server(|s| {
        use std::io::Write;
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n";
        if s.write_all(head.as_bytes()).is_err() {
            return;
        }
        // A byte a second, for longer than any test: never silent long enough for a read
        // timeout to fire.
        for _ in 0..400 {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if s.write_all(b" ").is_err() {
                return;
            }
        }
    });
    doctor_against(port, "2s", 60).assert_one_line_error(3, "gave up after 20 s");
}

#[test]
fn logs_follow_gives_up_when_the_first_list_gets_no_answer() {
    // Accepts, reads the request, never answers.
    let port = loopback_server(|_| std::thread::sleep(std::time::Duration::from_secs(90)));
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
    let started = std::time::Instant::now();
    let r = run_bounded(
        &[
            "logs",
            "orders",
            "-f",
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "-n",
            "default",
            "--request-timeout=2s",
        ],
        60,
    );
    r.assert_one_line_error(3, "list pods in namespace default: no answer within 2s");
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_server_that_streams_an_endless_body_is_cut_off() {
    let port = loopback_server(|s| {
        use std::io::Write;
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[";
        if s.write_all(head.as_bytes()).is_err() {
            return;
        }
        let chunk = vec![b' '; 1 << 20];
        // Up to 4 GiB: more than the client may ever hold.
        for _ in 0..4096 {
            if s.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let r = doctor_against(port, "10s", 120);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(r.code, 3, "stdout {} stderr {}", r.stdout, r.stderr);
}

#[test]
fn ctrl_c_or_sigterm_during_doctor_save_ends_it_and_leaves_no_partial_folder() {
    static ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    // Reads the request, never answers: the run is still gathering when the signal comes.
    let port = loopback_server(|_| {
        ASKED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_secs(90));
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let parent = tempfile::tempdir().unwrap();
        let asked = ASKED.load(std::sync::atomic::Ordering::SeqCst);
        let mut child = Command::new(BIN)
            .args([
                "doctor",
                "--kubeconfig",
                cfg.to_str().unwrap(),
                "-n",
                "default",
            ])
            .args(["--request-timeout", "60s", "--save"])
            .arg(parent.path().join("b"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run kubectl-flink");
        let started = std::time::Instant::now();
        while ASKED.load(std::sync::atomic::Ordering::SeqCst) == asked {
            assert!(started.elapsed().as_secs() < 30, "doctor never asked");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let pid = child.id().to_string();
        assert!(Command::new("kill")
            .args([signal, &pid])
            .status()
            .unwrap()
            .success());
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed().as_secs() > 10 {
                let _ = child.kill();
                panic!("doctor --save did not end within 10 s of SIGINT");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(code), "{signal}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(parent.path()).unwrap().collect();
        assert!(left.is_empty(), "{signal}: {left:?}");
    }
}

#[test]
fn logs_follow_starts_a_watch_over_when_its_list_after_410_gone_gets_no_answer() {
    use std::io::{BufRead, BufReader, Write};
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    static LISTS: AtomicUsize = AtomicUsize::new(0);
    static WATCHES: AtomicUsize = AtomicUsize::new(0);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // One selector per deployment mode (the Apache operator's labels, Lyft's, the FlinkCluster's):
    // their first lists answer, their first watches say 410 Gone, the lists again get no answer;
    // after that lists answer and watches stay quiet.
    const SELECTORS: usize = 3;
    std::thread::spawn(move || {
        for s in listener.incoming().take(200) {
            let Ok(mut s) = s else { continue };
            std::thread::spawn(move || {
                let mut line = String::new();
                let mut r = BufReader::new(s.try_clone().unwrap());
                let _ = r.read_line(&mut line);
                loop {
                    let mut h = String::new();
                    if r.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                        break;
                    }
                }
                let body = if line.contains("watch=true") {
                    if WATCHES.fetch_add(1, SeqCst) >= SELECTORS {
                        std::thread::sleep(std::time::Duration::from_secs(90));
                        return;
                    }
                    r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version","reason":"Expired","code":410}}"#.to_string() + "\n"
                } else if line.contains("/pods") {
                    let n = LISTS.fetch_add(1, SeqCst);
                    if (SELECTORS..2 * SELECTORS).contains(&n) {
                        std::thread::sleep(std::time::Duration::from_secs(90));
                        return;
                    }
                    r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}"#.into()
                } else {
                    r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.into()
                };
                let code = if line.contains("/pods") {
                    "200 OK"
                } else {
                    "404 Not Found"
                };
                let _ = write!(
                    s,
                    "HTTP/1.1 {code}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
    // flinkdeployment/NAME: the deployment only, never read as a pod query when it has no pods
    // (which would start other watches).
    let mut child = Command::new(BIN)
        .args([
            "logs",
            "flinkdeployment/orders",
            "-f",
            "--kubeconfig",
            cfg.to_str().unwrap(),
        ])
        .args(["-n", "default", "--request-timeout=2s"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kubectl-flink");
    let started = std::time::Instant::now();
    while LISTS.load(SeqCst) < 3 * SELECTORS {
        assert!(
            child.try_wait().unwrap().is_none(),
            "logs -f ended: {:?}",
            child.wait_with_output()
        );
        assert!(
            started.elapsed().as_secs() < 30,
            "the lists that got no answer were never asked again ({} lists)",
            LISTS.load(SeqCst)
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr
            .matches("list pods in namespace default: no answer within 2s; still following what is open, retrying")
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn servers_that_fail_answer_garbage_or_hang_up_give_one_line_and_exit_3_for_every_command() {
    use std::io::Write;
    fn answer(s: &mut std::net::TcpStream, status: &str, body: &str) {
        let _ = write!(
            s,
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    }
    type Respond = fn(&mut std::net::TcpStream);
    let servers: [(&str, Respond); 4] = [
        ("500", |s| {
            answer(
                s,
                "500 Internal Server Error",
                r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: request timed out","code":500}"#,
            )
        }),
        ("malformed JSON", |s| {
            answer(s, "200 OK", r#"{"kind":"PodList","items":[{"metadata":"#)
        }),
        ("closed connection", |s| {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }),
        ("401", |s| {
            answer(
                s,
                "401 Unauthorized",
                r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#,
            )
        }),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (what, server) in servers {
        let port = loopback_server(server);
        let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
        let kc = cfg.to_str().unwrap();
        for args in [
            &["doctor"][..],
            &["logs", "orders"],
            &["logs", "orders", "-f"],
            &["can-i", "orders"],
        ] {
            let mut args = args.to_vec();
            args.extend(["--kubeconfig", kc, "-n", "default", "--request-timeout=5s"]);
            let started = std::time::Instant::now();
            let r = run_bounded(&args, 90);
            assert!(
                !r.stderr.contains("panicked"),
                "{what} {args:?}: {}",
                r.stderr
            );
            assert_eq!(
                (r.code, r.stderr.trim_end().lines().count()),
                (3, 1),
                "{what} {args:?}: stdout {} stderr {}",
                r.stdout,
                r.stderr
            );
            assert!(
                r.stderr.starts_with("error: "),
                "{what} {args:?}: {}",
                r.stderr
            );
            if what == "401" {
                assert!(
                    r.stderr.contains("Unauthorized"),
                    "{what} {args:?}: {}",
                    r.stderr
                );
            }
            let took = started.elapsed();
            assert!(took.as_secs() < 60, "{what} {args:?}: {took:?}");
        }
    }
}

#[test]
fn a_server_that_dribbles_or_streams_endlessly_holds_neither_logs_nor_can_i() {
    let dribble: fn(&mut std::net::TcpStream) = |s| {
        use std::io::Write;
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n";
        if s.write_all(head.as_bytes()).is_err() {
            return;
        }
        for _ in 0..400 {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if s.write_all(b" ").is_err() {
                return;
            }
        }
    };
    let endless: fn(&mut std::net::TcpStream) = |s| {
        use std::io::Write;
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[";
        if s.write_all(head.as_bytes()).is_err() {
            return;
        }
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..4096 {
            if s.write_all(&chunk).is_err() {
                return;
            }
        }
    };
    let dir = tempfile::tempdir().unwrap();
    for (what, server) in [("dribble", dribble), ("endless", endless)] {
        let port = loopback_server(server);
        let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"));
        let kc = cfg.to_str().unwrap();
        for args in [
            &["logs", "orders"][..],
            &["logs", "orders", "-f"],
            &["can-i", "orders"],
        ] {
            let mut args = args.to_vec();
            args.extend(["--kubeconfig", kc, "-n", "default", "--request-timeout=2s"]);
            let started = std::time::Instant::now();
            let r = run_bounded(&args, 120);
            assert!(
                !r.stderr.contains("panicked"),
                "{what} {args:?}: {}",
                r.stderr
            );
            assert_eq!(
                (r.code, r.stderr.trim_end().lines().count()),
                (3, 1),
                "{what} {args:?}: stdout {} stderr {}",
                r.stdout,
                r.stderr
            );
            let took = started.elapsed();
            assert!(took.as_secs() < 60, "{what} {args:?}: {took:?}");
        }
    }
}

/// A FlinkSessionJob whose FlinkDeployment does not exist is no "No Flink deployments found"
/// (exit 4) for its namespace and no "No problems found" (exit 0) for its name: FLK402, exit 1.
#[test]
fn an_orphan_session_job_is_diagnosed_by_namespace_and_by_name() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "objects.yaml",
        r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeploymentList
items: []
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: jobs}
spec:
  deploymentName: session-cluster
  job: {jarURI: "https://example.org/wordcount.jar", parallelism: 2, upgradeMode: stateless}
---
apiVersion: v1
kind: Event
metadata: {name: wordcount.1, namespace: jobs}
involvedObject: {kind: FlinkSessionJob, namespace: jobs, name: wordcount}
reason: UnsupportedFlinkVersion
type: Warning
lastTimestamp: "2026-11-28T10:20:00Z"
message: "Flink version null is not supported by this operator version"
"#,
    );
    let from = dir.path().to_str().unwrap();
    for args in [
        vec!["doctor", "--from", from, "-n", "jobs"],
        vec!["doctor", "wordcount", "--from", from, "-n", "jobs"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 1, "{args:?}\n{}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("FLK402"), "{}", r.stdout);
        assert!(
            r.stdout
                .contains("FlinkSessionJob wordcount waits for session"),
            "{}",
            r.stdout
        );
        assert!(!r.stdout.contains("No problems found"), "{}", r.stdout);
    }
}

/// `-o sarif` on doctor: the same findings as `-o json`, each with its rule (by index into the
/// driver's rules) and its object as a logical location; an empty scope is an empty log.
#[test]
fn doctor_writes_sarif_with_every_finding_on_its_object() {
    let r = run(&["doctor", "--from", CANONICAL, "-o", "sarif"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let s: serde_json::Value = serde_json::from_str(&r.stdout).expect("SARIF is JSON");
    assert_eq!(s["version"], "2.1.0");
    let run0 = &s["runs"][0];
    let rules = run0["tool"]["driver"]["rules"].as_array().expect("rules");
    let results = run0["results"].as_array().expect("results");
    let findings = json(&[
        "doctor",
        "orders",
        "--from",
        CANONICAL,
        "-n",
        "analytics",
        "-o",
        "json",
    ]);
    let findings = findings["findings"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    for (r, f) in results.iter().zip(findings) {
        assert_eq!(r["ruleId"], f["rule"]);
        let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[i]["id"], r["ruleId"]);
        let place = &r["locations"][0]["logicalLocations"][0];
        assert_eq!(place["name"], f["object"]["name"], "{r}");
        assert_eq!(r["properties"]["category"], f["category"]);
    }
    let empty = tempfile::tempdir().unwrap();
    write(
        empty.path(),
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n",
    );
    let r = run(&[
        "doctor",
        "--from",
        empty.path().to_str().unwrap(),
        "-o",
        "sarif",
    ]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let s: serde_json::Value = serde_json::from_str(&r.stdout).expect("SARIF is JSON");
    assert_eq!(s["runs"][0]["results"], serde_json::json!([]));
    assert!(
        r.stderr.contains("No Flink deployments found"),
        "{}",
        r.stderr
    );
}

/// lint's `--sarif` is `-o sarif`: the same bytes either way.
#[test]
fn lint_sarif_is_an_output_format() {
    let flag = run(&["lint", "-f", "tests/lint/bad", "--sarif"]);
    let format = run(&["lint", "-f", "tests/lint/bad", "-o", "sarif"]);
    assert_eq!(format.code, 1, "{}", format.stderr);
    assert_eq!(flag.stdout, format.stdout);
    assert!(format.stdout.contains("\"version\": \"2.1.0\""));
}

/// Flags that cannot mean anything together are refused on one line with the reason, exit 2
/// (the README's usage error), not silently ignored.
#[test]
fn flag_combinations_that_make_no_sense_are_refused() {
    for (args, mentions) in [
        (
            vec!["doctor", "--from", CANONICAL, "--fix", "-o", "json"],
            "-o json does not apply",
        ),
        (
            vec!["doctor", "--from", CANONICAL, "--fix=run", "-o", "sarif"],
            "-o sarif does not apply",
        ),
        (
            vec!["doctor", "--from", CANONICAL, "--context", "prod"],
            "--context does not apply",
        ),
        (
            vec![
                "doctor",
                "--from",
                CANONICAL,
                "--kubeconfig",
                "/nonexistent",
            ],
            "--kubeconfig does not apply",
        ),
        (
            vec!["doctor", "--from", CANONICAL, "--request-timeout", "5s"],
            "--request-timeout does not apply",
        ),
        (
            vec!["lint", "-f", "tests/lint/bad", "--sarif", "-o", "markdown"],
            "cannot print -o markdown",
        ),
    ] {
        run(&args).assert_one_line_error(2, mentions);
    }
    // What stays meaningful still works: --fix with the default -o, --from with -n and -A.
    for args in [
        vec!["doctor", "--from", CANONICAL, "--fix", "-o", "table"],
        vec!["doctor", "--from", CANONICAL, "-n", "analytics"],
        vec!["doctor", "--from", CANONICAL, "-A"],
        vec!["lint", "-f", "tests/lint/bad", "--sarif", "-o", "sarif"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
    }
}

/// `doctor --from` takes a support bundle as people send it: a `.tar.gz` of the canonical
/// bundle gives the folder's diagnosis, named as the archive; a file in it that does not decode
/// is noted, not fatal.
#[test]
fn doctor_reads_a_bundle_packed_as_tar_gz() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut tar = tar::Builder::new(Vec::new());
    tar.append_dir_all(
        "canonical",
        Path::new(env!("CARGO_MANIFEST_DIR")).join(CANONICAL),
    )
    .unwrap();
    let broken = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [oops\n";
    let mut h = tar::Header::new_gnu();
    h.set_size(broken.len() as u64);
    h.set_mode(0o644);
    h.set_cksum();
    tar.append_data(&mut h, "canonical/broken.yaml", &broken[..])
        .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar.into_inner().unwrap()).unwrap();
    let archive = dir.path().join("canonical.tar.gz");
    std::fs::write(&archive, gz.finish().unwrap()).unwrap();
    let packed = run(&["doctor", "--from", archive.to_str().unwrap(), "-o", "json"]);
    assert_eq!(packed.code, 1, "{}", packed.stderr);
    let folder = json(&["doctor", "--from", CANONICAL, "-o", "json"]);
    let packed_json: serde_json::Value = serde_json::from_str(&packed.stdout).unwrap();
    assert_eq!(packed_json["findings"], folder["findings"]);
    assert!(
        packed
            .stderr
            .contains("canonical.tar.gz/canonical/broken.yaml: not YAML"),
        "{}",
        packed.stderr
    );
    assert!(
        !packed.stderr.contains("kubectl-flink-bundle-"),
        "members named in the archive, not in a temporary folder: {}",
        packed.stderr
    );
    let table = run(&["doctor", "--from", archive.to_str().unwrap()]);
    assert!(
        table.stdout.contains("canonical.tar.gz"),
        "{}",
        table.stdout
    );
}

/// One wrongly-typed field in an unrelated ConfigMap is a noted gap, not a refused bundle: the
/// diagnosis is the one without it.
#[test]
fn an_object_that_does_not_decode_is_left_out_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(CANONICAL);
    let copy = dir.path().join("b");
    let status = Command::new("cp")
        .args(["-r", root.to_str().unwrap(), copy.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    write(
        &copy,
        "unrelated.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: analytics}\ndata: [1, 2]\n",
    );
    let r = run(&["doctor", "--from", copy.to_str().unwrap(), "-o", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("unrelated.yaml: ConfigMap x: data: invalid type"),
        "{}",
        r.stderr
    );
    let got: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        got["findings"],
        json(&["doctor", "--from", CANONICAL, "-o", "json"])["findings"]
    );
}

/// Markdown is for a ticket: it shows the overview of the clusters in scope, and names the bundle
/// by a relative path, never the sender's folders.
#[test]
fn markdown_has_the_overview_and_no_absolute_path() {
    let abs = Path::new(env!("CARGO_MANIFEST_DIR")).join(CANONICAL);
    let r = run(&["doctor", "--from", abs.to_str().unwrap(), "-o", "markdown"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("| analytics | orders | FlinkDeployment | operator | 0/1 | 0/0 | DEPLOYED | RECONCILING | 4 critical, 2 warnings |"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .starts_with("# kubectl flink doctor: bundle examples/canonical\n"),
        "{}",
        r.stdout
    );
    assert!(
        !r.stdout.contains(env!("CARGO_MANIFEST_DIR")),
        "{}",
        r.stdout
    );
}

//! `kubectl flink lint`, run as the real binary on the manifests under tests/lint/.
//!
//! tests/lint/good: manifests in the style of the operator's own examples; each must pass clean.
//! tests/lint/bad: one trap (or a few) per file, each offending line marked with
//! `# expect: <category>[, <category>]`; a file's findings must be exactly those, on those lines.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lint")
        .join(sub)
}

/// Runs `kubectl-flink lint ARGS` from the crate root (so paths print as `tests/lint/...`).
fn lint(args: &[&str]) -> Output {
    lint_stdin(args, None)
}

fn lint_stdin(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .arg("lint")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("KUBECONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kubectl-flink");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            input.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("wait for kubectl-flink")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("JSON on stdout ({e}): {}\n{}", stdout(o), stderr(o)))
}

fn files(sub: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir(sub))
        .expect("fixture directory")
        .map(|e| {
            e.expect("entry")
                .file_name()
                .into_string()
                .expect("utf-8 name")
        })
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".json"))
        .map(|n| format!("tests/lint/{sub}/{n}"))
        .collect();
    out.sort();
    out
}

/// `# expect: a, b` markers: (line, category) -> how many.
fn expectations(file: &str) -> BTreeMap<(usize, String), usize> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).expect("fixture");
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((_, cats)) = line.split_once("# expect:") {
            for c in cats.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                *out.entry((i + 1, c.to_string())).or_insert(0) += 1;
            }
        }
    }
    out
}

/// (line, category) of each finding, from `file:line: ` at the start of its first evidence line.
fn found(report: &Value, file: &str) -> BTreeMap<(usize, String), usize> {
    let mut out = BTreeMap::new();
    for f in report["findings"].as_array().expect("findings") {
        let first = f["evidence"][0].as_str().expect("evidence");
        let rest = first
            .strip_prefix(&format!("{file}:"))
            .unwrap_or_else(|| panic!("evidence does not start with the file: {first}"));
        let line: usize = rest
            .split(':')
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or_else(|| panic!("no line in {first}"));
        *out.entry((line, f["category"].as_str().expect("category").to_string()))
            .or_insert(0) += 1;
    }
    out
}

#[test]
fn every_healthy_manifest_passes_clean() {
    let good = files("good");
    assert!(good.len() >= 10, "{good:?}");
    for file in &good {
        let o = lint(&["-f", file, "-o", "json"]);
        assert_eq!(
            code(&o),
            0,
            "{file} is healthy but lint says:\n{}{}",
            stdout(&o),
            stderr(&o)
        );
        assert_eq!(json(&o)["findings"], serde_json::json!([]), "{file}");
    }
}

#[test]
fn the_healthy_directory_in_one_run_says_what_it_checked() {
    let o = lint(&["-f", "tests/lint/good"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("No problems found in tests/lint/good ("),
        "{out}"
    );
    assert!(out.contains("Flink resources"), "{out}");
    let o = lint(&["-f", "tests/lint/good", "-o", "markdown"]);
    assert!(
        stdout(&o).starts_with("**No problems found**"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn every_bad_manifest_gives_the_expected_categories_on_the_expected_lines() {
    let bad = files("bad");
    assert!(bad.len() >= 15, "{bad:?}");
    for file in &bad {
        let want = expectations(file);
        assert!(!want.is_empty(), "{file} has no `# expect:` marker");
        let o = lint(&["-f", file, "-o", "json"]);
        assert_eq!(code(&o), 1, "{file}: {}{}", stdout(&o), stderr(&o));
        let got = found(&json(&o), file);
        assert_eq!(
            got,
            want,
            "{file}: findings (line, category) differ from the markers\n{}",
            stdout(&o)
        );
    }
}

#[test]
fn findings_keep_the_contract_fields() {
    let o = lint(&[
        "-f",
        "tests/lint/bad/misnamed-main-container.yaml",
        "-o",
        "json",
    ]);
    let r = json(&o);
    assert_eq!(r["version"], 1);
    let f = &r["findings"][0];
    assert_eq!(f["rule"], "FLK101");
    assert_eq!(f["category"], "main_container_misnamed");
    assert_eq!(f["severity"], "critical");
    assert_eq!(f["layer"], "spec");
    assert_eq!(
        f["object"],
        serde_json::json!({"kind": "FlinkDeployment", "namespace": "prod", "name": "orders"})
    );
    assert_eq!(
        f["evidence"][0],
        "tests/lint/bad/misnamed-main-container.yaml:18: spec.jobManager.podTemplate.spec.containers[0].name: flink-job-manager"
    );
    assert!(f["fix"].as_str().unwrap().contains("flink-main-container"));
    assert!(!f["verify"].as_str().unwrap().is_empty());
}

#[test]
fn table_output_names_file_and_line() {
    let o = lint(&["-f", "tests/lint/bad/rest-load-balancer.yaml"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains("rest_exposed_publicly"), "{out}");
    assert!(
        out.contains("tests/lint/bad/rest-load-balancer.yaml:9:"),
        "{out}"
    );
    assert!(!out.contains('\u{1b}'), "NO_COLOR: no escape codes");
}

#[test]
fn sarif_is_structurally_valid() {
    let o = lint(&["-f", "tests/lint/bad", "--sarif"]);
    assert_eq!(code(&o), 1);
    let s = json(&o);
    let as_json = json(&lint(&["-f", "tests/lint/bad", "-o", "json"]));
    assert_eq!(s["version"], "2.1.0");
    assert!(s["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = s["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "kubectl-flink");
    let rules = driver["rules"].as_array().expect("rules");
    let mut ids = Vec::new();
    for r in rules {
        let id = r["id"].as_str().expect("rule id");
        assert!(!ids.contains(&id), "rule {id} listed twice");
        ids.push(id);
        assert!(
            !r["shortDescription"]["text"]
                .as_str()
                .expect("shortDescription")
                .is_empty(),
            "{id}"
        );
        assert!(
            !r["help"]["text"].as_str().expect("help").is_empty(),
            "{id}"
        );
    }
    let results = runs[0]["results"].as_array().expect("results");
    assert_eq!(results.len(), as_json["findings"].as_array().unwrap().len());
    for r in results {
        let rule = r["ruleId"].as_str().expect("ruleId");
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], rule);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().expect("level")));
        assert!(!r["message"]["text"].as_str().expect("message").is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            uri.starts_with("tests/lint/bad/") && uri.ends_with(".yaml"),
            "{uri}"
        );
        assert!(loc["region"]["startLine"].as_u64().expect("startLine") >= 1);
    }
    let misnamed = results
        .iter()
        .find(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                == "tests/lint/bad/misnamed-main-container.yaml"
        })
        .expect("a result for the misnamed container");
    assert_eq!(misnamed["ruleId"], "FLK101");
    assert_eq!(misnamed["level"], "error");
    assert_eq!(
        misnamed["locations"][0]["physicalLocation"]["region"]["startLine"],
        18
    );
}

#[test]
fn standard_input_works_and_is_named_so() {
    let text = std::fs::read_to_string(dir("bad/misnamed-main-container.yaml")).unwrap();
    let o = lint_stdin(&["-f", "-", "-o", "json"], Some(&text));
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let r = json(&o);
    assert!(
        r["findings"][0]["evidence"][0]
            .as_str()
            .unwrap()
            .starts_with("<stdin>:18: "),
        "{r}"
    );
    let o = lint_stdin(&["-f", "-", "--sarif"], Some(&text));
    assert_eq!(
        json(&o)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"],
        "stdin"
    );
    let good = std::fs::read_to_string(dir("good/basic.yaml")).unwrap();
    assert_eq!(code(&lint_stdin(&["-f", "-"], Some(&good))), 0);
}

#[test]
fn helm_output_with_unrelated_kinds_and_files_given_together() {
    let helm = std::fs::read_to_string(dir("good/helm-release.yaml")).unwrap();
    let bad = std::fs::read_to_string(dir("bad/helm-release-bad.yaml")).unwrap();
    let o = lint_stdin(&["-f", "-", "-o", "json"], Some(&helm));
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = lint_stdin(
        &["-f", "-", "-f", "tests/lint/good/basic.yaml", "-o", "json"],
        Some(&format!("{helm}\n{bad}")),
    );
    assert_eq!(code(&o), 1);
    let r = json(&o);
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{r}");
    let offset = helm.lines().count() + 1;
    assert_eq!(
        findings[0]["evidence"][0]
            .as_str()
            .unwrap()
            .split(':')
            .nth(1)
            .unwrap(),
        (offset + 23).to_string(),
        "{r}"
    );
}

#[test]
fn fail_on_thresholds() {
    let warning_only = "tests/lint/bad/service-account-default.yaml";
    assert_eq!(code(&lint(&["-f", warning_only])), 1);
    assert_eq!(
        code(&lint(&["-f", warning_only, "--fail-on", "critical"])),
        0
    );
    assert_eq!(
        code(&lint(&[
            "-f",
            "tests/lint/bad/service-account-missing.yaml",
            "--fail-on",
            "critical"
        ])),
        1
    );
    assert_eq!(
        code(&lint(&["-f", "tests/lint/bad", "--fail-on", "never"])),
        0
    );
}

#[test]
fn invalid_yaml_is_exit_2_with_one_line_naming_file_and_line() {
    let o = lint(&["-f", "tests/lint/invalid.yaml"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: tests/lint/invalid.yaml:7:"),
        "{err}"
    );
    assert!(err.contains("invalid YAML"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn unreadable_input_is_exit_2_with_one_line() {
    let o = lint(&["-f", "tests/lint/no-such-file.yaml"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "error: tests/lint/no-such-file.yaml: no such file or directory\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    let binary = tmp.path().join("binary.yaml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let o = lint(&["-f", binary.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("binary.yaml"), "{}", stderr(&o));
    let o = lint(&[]);
    assert_eq!(code(&o), 2, "-f is required");
}

#[test]
fn directories_are_walked_recursively_for_manifests_only() {
    let tmp = tempfile::tempdir().unwrap();
    let nested = tmp.path().join("overlays/prod");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::create_dir_all(tmp.path().join(".git")).unwrap();
    std::fs::write(tmp.path().join(".git/broken.yaml"), "a: b: c").unwrap();
    std::fs::write(tmp.path().join("README.md"), "not: [yaml").unwrap();
    std::fs::copy(dir("good/kubectl-list.json"), tmp.path().join("list.json")).unwrap();
    std::fs::copy(dir("bad/rest-load-balancer.yaml"), nested.join("flink.yml")).unwrap();
    let o = lint(&["-f", tmp.path().to_str().unwrap(), "-o", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let r = json(&o);
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{r}");
    assert!(
        findings[0]["evidence"][0]
            .as_str()
            .unwrap()
            .contains("overlays/prod/flink.yml:9:"),
        "{r}"
    );
}

#[test]
fn nothing_to_check_is_clean_with_a_note() {
    let o = lint_stdin(
        &["-f", "-"],
        Some("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"),
    );
    assert_eq!(code(&o), 0);
    assert!(
        stderr(&o).starts_with("note: no FlinkDeployment"),
        "{}",
        stderr(&o)
    );
}

//! Each operator as its real releases install it: the Apache operator's Helm chart, the GCP
//! FlinkCluster operator's kustomize manifests and Lyft's flinkk8soperator's plain manifests, three
//! release tags each, rendered once and committed with their provenance (tests/releases/README.md),
//! diagnosed offline in five states of the operator's pod that the kubelet and the scheduler
//! write: healthy, scaled to 0, Pending for capacity, OOMKilled, a wrong image.
//!
//! What each case must be diagnosed as is its `<case>.expect.txt` beside the rendering (rules,
//! categories and objects in rank order, causes, exit code); the same files are checked live by
//! tests/releases_e2e.rs. `KUBECTL_FLINK_BLESS=1` rewrites them from what doctor says: read the
//! diff before committing it. Whatever the files say, each case must also be diagnosed as its
//! state is (see `case_is_right`): a blessed mistake still fails.

mod common;

#[path = "releases/bundle.rs"]
mod bundle;

use bundle::{Case, CASES, RELEASES};
use common::expect::{compare, exact, Expect, Line};
use serde_json::Value;

/// `doctor --from` of one release in one case: the JSON report and the exit code.
fn diagnose(operator: &str, tag: &str, case: Case) -> (Value, i64, String) {
    let dir = tempfile::tempdir().unwrap();
    bundle::bundle(operator, tag, case, dir.path());
    let run = common::run::plugin(
        None,
        &[
            "doctor",
            "--from",
            dir.path().to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    (run.json(), run.code as i64, run.stderr)
}

/// Whether a report says what the case is, whatever an expect file holds.
pub fn case_is_right(case: Case, report: &Value, exit: i64) -> Vec<String> {
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let mut wrong = Vec::new();
    let rule_of = |f: &Value| f["category"].as_str().unwrap_or("").to_string();
    let text = |f: &Value| {
        format!(
            "{} {}",
            f["title"].as_str().unwrap_or(""),
            f["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let first = findings.first();
    match case {
        Case::Healthy => {
            for f in &findings {
                if f["severity"] != "info" {
                    wrong.push(format!("healthy, yet {} is {}", rule_of(f), f["severity"]));
                }
                if rule_of(f) == "operator_not_running" {
                    wrong.push("healthy, yet operator_not_running".into());
                }
            }
            if exit == 1 {
                wrong.push("healthy, yet exit 1".into());
            }
        }
        Case::ScaledToZero => {
            if !findings
                .iter()
                .any(|f| rule_of(f) == "operator_not_running" && text(f).contains("0 replicas"))
            {
                wrong.push("scaled to 0: no operator_not_running that says 0 replicas".into());
            }
        }
        Case::Pending => {
            let capacity = findings.iter().position(|f| {
                rule_of(f) == "pod_unschedulable"
                    && text(f).contains("FailedScheduling")
                    && text(f).contains("Insufficient cpu")
            });
            match capacity {
                Some(0) => {}
                Some(_) => wrong.push("Pending: the capacity finding is not first".into()),
                None => wrong.push(
                    "Pending: no pod_unschedulable with the FailedScheduling evidence".into(),
                ),
            }
        }
        Case::OomKilled => {
            if !first.is_some_and(|f| text(f).contains("OOMKilled")) {
                wrong.push(
                    "OOMKilled: the first finding does not name the OOMKilled crash loop".into(),
                );
            }
        }
        Case::WrongImage => {
            if !first.is_some_and(|f| text(f).contains("0.0.0-nonexistent")) {
                wrong.push("wrong image: the first finding does not name the image pull".into());
            }
        }
    }
    if case != Case::Healthy && exit != 1 {
        wrong.push(format!("{case:?}: exit {exit}, want 1"));
    }
    wrong
}

/// The `<case>.expect.txt` text for a report (bless).
fn expect_text(lines: &[Line], exit: i64, live: Option<&str>) -> String {
    let mut out = String::from(
        "# (YAML, kept as .txt so that doctor does not read it as part of the bundle)\n\
         # What `doctor` reports on this release in this case, in rank order (tests/releases.rs\n\
         # offline, tests/releases_e2e.rs live). `causedBy` is the index of the finding that explains it.\n",
    );
    out.push_str(&format!("exit: {exit}\n"));
    out.push_str(&yaml_findings(lines, ""));
    if let Some(live) = live {
        out.push_str(live);
    }
    out
}

pub fn yaml_findings(lines: &[Line], indent: &str) -> String {
    if lines.is_empty() {
        return format!("{indent}findings: []\n");
    }
    let mut out = format!("{indent}findings:\n");
    for l in lines {
        out.push_str(&format!(
            "{indent}  - {{rule: {}, category: {}, object: {}",
            l.rule, l.category, l.object
        ));
        if let Some(c) = l.caused_by {
            out.push_str(&format!(", causedBy: {c}"));
        }
        out.push_str("}\n");
    }
    out
}

#[test]
fn every_release_in_every_case_is_diagnosed_right() {
    let bless = std::env::var_os("KUBECTL_FLINK_BLESS").is_some();
    let mut failures = Vec::new();
    for (operator, tag) in RELEASES {
        for case in CASES {
            let (report, code, stderr) = diagnose(operator, tag, case);
            let got = exact(&report);
            let file = bundle::expect_file(operator, tag, case);
            let name = format!("{operator}@{tag} {}", case.file());
            println!(
                "{name}: exit {code}, {}",
                got.iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            let mut wrong = case_is_right(case, &report, code);
            if bless {
                // Keep a live section as it is: only the live run can say it.
                let old = std::fs::read_to_string(&file).unwrap_or_default();
                let live = old.find("\nlive:").map(|i| &old[i + 1..]);
                std::fs::write(&file, expect_text(&got, code, live)).unwrap();
            } else {
                let read = std::fs::read_to_string(&file)
                    .map_err(|e| format!("{}: {e}", file.display()))
                    .and_then(|t| Expect::parse(&t));
                match read {
                    Ok(want) => wrong.extend(compare(&want.findings, want.exit, &got, code)),
                    Err(e) => wrong.push(e),
                }
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{name}:\n  {}\n{}\n{stderr}",
                    wrong.join("\n  "),
                    serde_json::to_string_pretty(&report["findings"]).unwrap()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The committed renderings are each release's, and each says where it comes from.
#[test]
fn each_rendering_has_its_provenance() {
    for (operator, tag) in RELEASES {
        assert!(
            bundle::documents(operator, tag)
                .iter()
                .any(|d| d["kind"] == "Deployment"),
            "{operator}@{tag}: no Deployment rendered"
        );
        let provenance = std::fs::read_to_string(
            bundle::rendered(operator, tag).with_file_name("provenance.txt"),
        )
        .unwrap();
        assert!(
            provenance.contains(&format!("{}@{tag}", bundle::source(operator))),
            "{operator}@{tag}: {provenance}"
        );
    }
}

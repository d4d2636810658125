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
use common::run::Run;
use serde_json::{json, Value};
use std::path::Path;

/// `doctor --from` of one release in one case: the JSON report and the exit code.
fn diagnose(operator: &str, tag: &str, case: Case) -> (Value, i64, String) {
    let dir = tempfile::tempdir().unwrap();
    bundle::bundle(operator, tag, case, dir.path());
    let run = doctor_from(dir.path());
    (run.json(), run.code as i64, run.stderr)
}

/// `doctor --from DIR -o json`.
fn doctor_from(dir: &Path) -> Run {
    common::run::plugin(
        None,
        &["doctor", "--from", dir.to_str().unwrap(), "-o", "json"],
    )
}

/// The `<case>.expect.txt` text for a report (bless).
fn expect_text(lines: &[Line], exit: i64, live: Option<&str>) -> String {
    let mut out = String::from(
        "# (YAML, kept as .txt so that doctor does not read it as part of the bundle)\n\
         # What `doctor` reports on this release in this case, in rank order (tests/releases.rs\n\
         # offline, tests/releases_e2e.rs live). `causedBy` is the index of the finding that explains it.\n",
    );
    out.push_str(&format!("exit: {exit}\n"));
    out.push_str(&bundle::yaml_findings(lines, ""));
    if let Some(live) = live {
        out.push_str(live);
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
            let mut wrong = bundle::case_is_right(case, &report, code);
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

/// A change made to the release's Deployment and pod.
type Change = Box<dyn Fn(&mut Value)>;

/// The operator each release folder installs.
fn kind_of(operator: &str) -> kubectl_flink::flink::identity::OperatorKind {
    use kubectl_flink::flink::identity::OperatorKind;
    match operator {
        "apache" => OperatorKind::Apache,
        "gcp" | "gcp-helm" | "spotify" => OperatorKind::FlinkCluster,
        "lyft" => OperatorKind::Lyft,
        other => panic!("no such operator folder {other}"),
    }
}

/// Which operator the release's Deployment is, and the wiring that says so, after `change` is
/// applied to the healthy case's objects.
fn identified(
    operator: &str,
    tag: &str,
    change: impl Fn(&mut Value),
) -> Option<(kubectl_flink::flink::identity::OperatorKind, String)> {
    let dir = tempfile::tempdir().unwrap();
    bundle::write(
        &bundle::objects_with(operator, tag, Case::Healthy, &change),
        dir.path(),
    );
    let s = kubectl_flink::snapshot::bundle::load(dir.path()).unwrap();
    let d = s
        .operator_deployments
        .iter()
        .chain(&s.deployments)
        .next()
        .expect("the release's Deployment");
    kubectl_flink::snapshot::identity::operator_of(&s, d).map(|(k, w)| (k, w.to_string()))
}

/// Each release's operator is found as released, and still found when a platform team relabels
/// it (by its image), and when it also runs a rebuilt image under its own name (by the webhook
/// Service that selects its pods, or by its ServiceAccount's rights over the operator's CRD
/// group): the wiring of the real manifests, not one release's labels.
#[test]
fn each_release_is_found_by_its_wiring() {
    let mut wrong = Vec::new();
    for (operator, tag) in RELEASES {
        let want = kind_of(operator);
        // The label the webhook Service selects by, kept when relabelling (the Service is the
        // release's: a relabelling that breaks it breaks the webhook too).
        let keep: &[&str] = match *operator {
            "gcp" | "gcp-helm" | "spotify" => &["control-plane"],
            _ => &[],
        };
        let cases: [(&str, Change, &str); 3] = [
            ("as released", Box::new(|_: &mut Value| {}), ""),
            (
                "relabelled",
                Box::new(|o: &mut Value| bundle::relabel(o, keep)),
                "image",
            ),
            (
                "relabelled, rebuilt image",
                Box::new(|o: &mut Value| {
                    bundle::relabel(o, keep);
                    bundle::rebuild_image(o);
                }),
                match *operator {
                    "gcp" | "gcp-helm" | "spotify" => "webhook configuration",
                    _ => "ServiceAccount",
                },
            ),
        ];
        for (what, change, wiring) in cases {
            match identified(operator, tag, change) {
                Some((kind, how)) if kind == want && how.contains(wiring) => {
                    println!("{operator}@{tag} {what}: {kind:?} by {how}")
                }
                got => wrong.push(format!(
                    "{operator}@{tag} {what}: {got:?}, want {want:?} by {wiring}"
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The ServiceAccount each release runs its operator as is in the table
/// (`flink::identity::OPERATOR_SERVICE_ACCOUNTS`), for the operator that release installs.
#[test]
fn each_release_runs_as_an_account_the_table_names() {
    use kubectl_flink::flink::identity::OPERATOR_SERVICE_ACCOUNTS;
    let mut wrong = Vec::new();
    for (operator, tag) in RELEASES {
        let docs = bundle::documents(operator, tag);
        let d = docs.iter().find(|d| d["kind"] == "Deployment").unwrap();
        let spec = &d["spec"]["template"]["spec"];
        let account = spec["serviceAccountName"]
            .as_str()
            .or(spec["serviceAccount"].as_str())
            .unwrap_or("default");
        let want = kind_of(operator);
        if !OPERATOR_SERVICE_ACCOUNTS
            .iter()
            .any(|(n, k)| *n == account && *k == want)
        {
            wrong.push(format!("{operator}@{tag}: {account} ({want:?})"));
        }
    }
    assert!(wrong.is_empty(), "not in the table: {}", wrong.join(", "));
}

/// A FlinkDeployment the operator never gave a status, created an hour before the case's time:
/// what makes "no operator runs" a claim doctor could make.
fn waiting_flink_deployment() -> Value {
    json!({"apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
           "metadata": {"name": "orders", "namespace": "team-a", "creationTimestamp": "2026-11-20T08:30:00Z"},
           "spec": {"image": "flink:1.18", "flinkVersion": "v1_18", "serviceAccount": "flink",
                    "jobManager": {"resource": {"cpu": 1, "memory": "1Gi"}},
                    "taskManager": {"resource": {"cpu": 1, "memory": "1Gi"}},
                    "job": {"jarURI": "local:///opt/flink/examples/streaming/StateMachineExample.jar", "parallelism": 1}}})
}

/// Nothing dropped in silence: a release installed under a platform team's own labels and a
/// rebuilt image, whose only wiring is its account's rights over the CRD group (the Apache
/// chart with its webhook off, Lyft's manifests), crash-looping (OOMKilled). That account's
/// rights say only "probably" (a CI deployer holds them too): the pod is diagnosed by the generic
/// rules, with the evidence that it is probably the operator and why; the overview lists the
/// Deployment as probably the operator; and no `operator_not_running` claims that no operator runs
/// (with FlinkDeployments waiting for a status, the claim is an info that names what is probably
/// it). tests/releases_e2e.rs checks the same live.
#[test]
fn a_foreign_labelled_operator_is_diagnosed_as_probably_the_operator() {
    let mut wrong = Vec::new();
    for (operator, tag) in [("apache", "release-1.8.0"), ("lyft", "v0.5.0")] {
        let mut objects = bundle::foreign(operator, tag, Case::OomKilled);
        if operator == "apache" {
            objects.push(waiting_flink_deployment());
        }
        let dir = tempfile::tempdir().unwrap();
        bundle::write(&objects, dir.path());
        if let Some(keep) = std::env::var_os("KEEP_BUNDLE") {
            std::fs::copy(
                dir.path().join("objects.yaml"),
                Path::new(&keep).join(format!("{operator}.yaml")),
            )
            .unwrap();
        }
        let run = doctor_from(dir.path());
        let report = run.json();
        let ns = bundle::namespace(operator, tag);
        let name = format!("{operator}@{tag}");
        wrong.extend(
            bundle::foreign_is_right(&report, &ns, kind_of(operator))
                .into_iter()
                .map(|w| format!("{name}: {w}")),
        );
        if run.code != 1 {
            wrong.push(format!("{name}: exit {}, want 1", run.code));
        }
        println!("{name}:\n{}", bundle::lines_of(&report));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

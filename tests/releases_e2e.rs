//! The release fixtures of tests/releases.rs diagnosed live: each operator's rendered release
//! (tests/releases/<operator>/<tag>/rendered.yaml) in each of the five cases is seeded into the
//! test cluster's real kube-apiserver (`scripts/test-cluster.sh seed --reset`, which writes the
//! objects, then the Deployment's and the pod's status through the status subresource, and the
//! events) and `doctor -A` reads it as it reads any cluster. The findings about the release's
//! namespace and cluster-scoped objects must be its `<case>.expect.txt` (its `live:` section where
//! the live read differs), and the case must be diagnosed as it is (`bundle::case_is_right`).
//!
//! Run with `scripts/test-cluster.sh run cargo test --test releases_e2e`. Without the cluster the
//! test FAILS when `CI` is set and prints a loud SKIPPED otherwise.
//!
//! What the API server is given differs from the rendering where it must, and only there:
//! - API versions the API server no longer serves (removed in Kubernetes 1.22) are written as
//!   their v1 successors with the v1beta1 defaults spelled out, so that they mean what they meant:
//!   `rbac.authorization.k8s.io/v1beta1` (same shape); `admissionregistration.k8s.io/v1beta1`
//!   webhooks (v1 has no default for `sideEffects` and `admissionReviewVersions`, and its defaults
//!   for `failurePolicy`, `matchPolicy` and `timeoutSeconds` differ: v1beta1's `Ignore`, `Exact`,
//!   30 s are written out); `apiextensions.k8s.io/v1beta1` CRDs (Lyft's, GCP's: names, scope and
//!   versions kept, schema `x-kubernetes-preserve-unknown-fields`, since v1 wants a structural one
//!   per version: the diagnosis reads a CRD's names and versions, not its schema; and the
//!   `api-approved.kubernetes.io` annotation v1 requires of groups under k8s.io, which v1beta1 did
//!   not).

mod common;

#[path = "releases/bundle.rs"]
mod bundle;

use bundle::{Case, CASES, RELEASES};
use common::expect::{compare, exact, Expect};
use common::run::{plugin, Run};
use common::{env_path, or_skip};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The objects of one case as the API server is given them (see the module's documentation).
fn live_objects(operator: &str, tag: &str, case: Case) -> Vec<Value> {
    as_served(bundle::objects(operator, tag, case))
}

/// Objects as the API server is given them (see the module's documentation).
fn as_served(objects: Vec<Value>) -> Vec<Value> {
    objects
        .into_iter()
        .map(|mut v| {
            let api = v["apiVersion"].as_str().unwrap_or("").to_string();
            let kind = v["kind"].as_str().unwrap_or("").to_string();
            match (api.as_str(), kind.as_str()) {
                ("rbac.authorization.k8s.io/v1beta1", _) => {
                    v["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
                }
                ("admissionregistration.k8s.io/v1beta1", _) => {
                    v["apiVersion"] = json!("admissionregistration.k8s.io/v1");
                    for hook in v["webhooks"].as_array_mut().into_iter().flatten() {
                        let side = hook["sideEffects"].as_str().unwrap_or("Unknown");
                        if side == "Unknown" || side == "Some" {
                            hook["sideEffects"] = json!("None");
                        }
                        for (k, d) in [
                            ("admissionReviewVersions", json!(["v1beta1"])),
                            ("failurePolicy", json!("Ignore")),
                            ("matchPolicy", json!("Exact")),
                            ("timeoutSeconds", json!(30)),
                        ] {
                            if hook.get(k).is_none_or(Value::is_null) {
                                hook[k] = d;
                            }
                        }
                    }
                }
                ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition") => {
                    v = crd_v1(&v);
                }
                ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => {
                    // v1 refuses `preserveUnknownFields: true`; Spotify's renders `false`.
                    if let Some(spec) = v["spec"].as_object_mut() {
                        spec.remove("preserveUnknownFields");
                    }
                }
                _ => {}
            }
            v
        })
        .collect()
}

/// A v1beta1 CRD as v1: its names, scope and versions, every version's schema open.
fn crd_v1(old: &Value) -> Value {
    let spec = &old["spec"];
    let mut versions: Vec<Value> = spec["versions"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| vec![json!({"name": spec["version"], "served": true, "storage": true})]);
    for v in &mut versions {
        v["schema"] = json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}});
        if let Some(sub) = spec.get("subresources") {
            v["subresources"] = sub.clone();
        }
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": old["metadata"]["name"], "labels": old["metadata"]["labels"],
                     "annotations": {"api-approved.kubernetes.io": "unapproved, release fixture of a v1beta1 CRD"}},
        "spec": {"group": spec["group"], "names": spec["names"], "scope": spec["scope"], "versions": versions}
    })
}

/// The findings of a report about the release: in its namespace, or cluster-scoped.
fn about(report: &Value, ns: &str) -> Value {
    let mine: Vec<Value> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| {
            let obj = f.pointer("/object/namespace").and_then(Value::as_str);
            let dep = f.pointer("/deployment/namespace").and_then(Value::as_str);
            obj.or(dep).is_none_or(|n| n == ns)
        })
        .cloned()
        .collect();
    json!({ "findings": mine })
}

/// The exit code of the release's own scope. doctor -A reads the whole cluster, where the other
/// e2e test binaries' seeds may stand (each keeps its own seed record, so this test's `--reset`
/// leaves them): when findings outside the scope exist, the code doctor returned is theirs too,
/// and the one of the scope is read off its findings (1 with a warning or a critical; else the
/// scope alone would exit 0 or 4, which its findings cannot tell, and doctor's own code, 1, stays
/// out of the comparison: `case_is_right` still checks the findings).
fn scoped_exit(full: &Value, mine: &Value, code: i64) -> i64 {
    let count = |r: &Value| r["findings"].as_array().map_or(0, Vec::len);
    if count(full) == count(mine) {
        return code;
    }
    let serious = mine["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|f| f["severity"] == "warning" || f["severity"] == "critical");
    if serious {
        1
    } else {
        -1
    }
}

/// The tests of this file seed the same cluster (and the same release namespaces) with `--reset`:
/// they take turns, or one resets what the other just seeded.
static CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Harness {
    e2e: PathBuf,
}

impl Harness {
    /// `objects` seeded into the cluster (`--reset`), then `doctor -A -o json` as the e2e user:
    /// its run and its report, or what went wrong.
    fn seed_and_diagnose(&self, objects: &[Value]) -> Result<(Run, Value), String> {
        let dir = tempfile::tempdir().unwrap();
        bundle::write(objects, dir.path());
        common::seed(dir.path(), &["--reset"])?;
        let run = plugin(Some(&self.e2e), &["doctor", "-A", "-o", "json"]);
        let full = run
            .try_json()
            .map_err(|_| format!("exit {}: {}", run.code, run.stderr))?;
        Ok((run, full))
    }
}

fn harness(test: &str) -> Option<Harness> {
    let found = (|| -> Result<Harness, String> {
        env_path("KUBE_HARNESS_DIR").ok_or("KUBE_HARNESS_DIR is not set")?;
        let admin = env_path("KUBECONFIG")
            .filter(|p| p.exists())
            .ok_or("KUBECONFIG is not set or missing")?;
        Ok(Harness {
            e2e: env_path("KUBE_E2E_KUBECONFIG")
                .filter(|p| p.exists())
                .unwrap_or(admin),
        })
    })();
    or_skip("releases_e2e", test, found)
}

#[test]
fn every_release_in_every_case_is_diagnosed_right_live() {
    let Some(h) = harness("every_release_in_every_case_is_diagnosed_right_live") else {
        return;
    };
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let bless = std::env::var_os("KUBECTL_FLINK_BLESS").is_some();
    let mut failures = Vec::new();
    let mut right = 0;
    for (operator, tag) in RELEASES {
        let ns = bundle::namespace(operator, tag);
        for case in CASES {
            let name = format!("{operator}@{tag} {}", case.file());
            let (run, full) = match h.seed_and_diagnose(&live_objects(operator, tag, case)) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let report = about(&full, &ns);
            let code = scoped_exit(&full, &report, run.code as i64);
            let got = exact(&report);
            let file = bundle::expect_file(operator, tag, case);
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let mut wrong = bundle::case_is_right(case, &report, code);
            match Expect::parse(&text) {
                Ok(want) => {
                    // -1: the scope's own code cannot be told (see scoped_exit).
                    let scoped = if code < 0 { want.exit } else { code };
                    let diff = compare(want.live().0, want.exit, &got, scoped);
                    if bless && !diff.is_empty() && wrong.is_empty() {
                        // A live section, kept apart from the offline findings.
                        let offline_end = text.find("\nlive:").map_or(text.len(), |i| i + 1);
                        let mut new = text[..offline_end].to_string();
                        if !new.ends_with('\n') {
                            new.push('\n');
                        }
                        new.push_str("live:\n");
                        new.push_str(&bundle::yaml_findings(&got, "  "));
                        std::fs::write(&file, new).unwrap();
                    } else {
                        wrong.extend(diff);
                    }
                }
                Err(e) => wrong.push(e),
            }
            println!(
                "{name} live: exit {code}, {}",
                got.iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            if wrong.is_empty() {
                right += 1;
            } else {
                failures.push(format!(
                    "{name} live:\n  {}\n{}\n{}",
                    wrong.join("\n  "),
                    serde_json::to_string_pretty(&report["findings"]).unwrap(),
                    run.stderr
                ));
            }
        }
    }
    println!(
        "{right} of {} cases right live",
        RELEASES.len() * CASES.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Nothing dropped in silence, live: a release installed under a platform team's own labels and a
/// rebuilt image (the Apache chart with its webhook off, Lyft's manifests), whose only wiring is
/// its account's rights over the CRD group, crash-looping (OOMKilled), seeded into the API server.
/// The live gather must read the Deployments of the namespaces whose accounts hold such rights
/// and their pods, as a bundle of them would be read: the pod diagnosed by the generic rules
/// (OOMKilled) with the evidence that it is probably the operator and why, the Deployment listed
/// as probably the operator in the overview (`probableOperators`), and no `operator_not_running`
/// above info (`bundle::foreign_is_right`, the check tests/releases.rs makes offline).
#[test]
fn a_foreign_labelled_operator_is_diagnosed_live_as_probably_the_operator() {
    let Some(h) = harness("a_foreign_labelled_operator_is_diagnosed_live_as_probably_the_operator")
    else {
        return;
    };
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for (operator, tag) in [("apache", "release-1.8.0"), ("lyft", "v0.5.0")] {
        let name = format!("{operator}@{tag} foreign-labelled, OOMKilled");
        let ns = bundle::namespace(operator, tag);
        let objects = as_served(bundle::foreign(operator, tag, Case::OomKilled));
        let (run, full) = match h.seed_and_diagnose(&objects) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut report = about(&full, &ns);
        report["probableOperators"] = full["probableOperators"].clone();
        let kind = match operator {
            "apache" => kubectl_flink::flink::identity::OperatorKind::Apache,
            _ => kubectl_flink::flink::identity::OperatorKind::Lyft,
        };
        let wrong = bundle::foreign_is_right(&report, &ns, kind);
        println!("{name} live:\n{}", bundle::lines_of(&report));
        if !wrong.is_empty() {
            failures.push(format!(
                "{name} live:\n  {}\n{}\n{}",
                wrong.join("\n  "),
                bundle::lines_of(&report),
                run.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

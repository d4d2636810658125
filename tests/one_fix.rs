//! One problem, one fix. The canonical 403 (the JobManager runs as `default`, which may not watch
//! pods) reaches a person through doctor (the support bundle), lint (the FlinkDeployment before it
//! is applied) and triage (the JobManager's log pasted). All three must print the same objects
//! to apply: the same ServiceAccount, Role and RoleBinding, with the same names and rules. (can-i
//! prints the same plan; its e2e test applies it on the real API server.)

mod common;

use common::run::{offline_json as json, PLUGIN};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The fix of the first finding of one of `categories`.
fn fix_of(report: &Value, categories: &[&str]) -> String {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| categories.contains(&f["category"].as_str().unwrap_or("")))
        .and_then(|f| f["fix"].as_str())
        .unwrap_or_else(|| panic!("no {categories:?} finding with a fix in {report}"))
        .to_string()
}

/// The objects in the fix's heredocs (`kubectl apply -f - <<'EOF'` ... `EOF`), by kind and name.
fn objects(fix: &str) -> Vec<Value> {
    assert!(fix.contains("<<'EOF'\n"), "no heredoc in the fix:\n{fix}");
    let mut docs: Vec<Value> = Vec::new();
    let mut rest = fix;
    while let Some(at) = rest.find("<<'EOF'\n") {
        let start = at + "<<'EOF'\n".len();
        let end = start + rest[start..].find("\nEOF").expect("the heredoc ends");
        docs.extend(
            serde_yaml::Deserializer::from_str(&rest[start..end])
                .map(|d| serde::Deserialize::deserialize(d).expect("the fix's YAML parses"))
                .filter(|d: &Value| !d.is_null()),
        );
        rest = &rest[end..];
    }
    docs.sort_by_key(|d| format!("{}/{}", d["kind"], d["metadata"]["name"]));
    docs
}

#[test]
fn doctor_lint_and_triage_print_the_same_objects_for_the_canonical_403() {
    let canonical = Path::new("examples/canonical");
    let doctor = json(&[
        "doctor",
        "--from",
        canonical.to_str().unwrap(),
        "-n",
        "analytics",
        "-o",
        "json",
    ]);
    let lint = json(&[
        "lint",
        "-f",
        "examples/canonical/flinkdeployment.yaml",
        "-o",
        "json",
    ]);
    let triage = json(&[
        "triage",
        "examples/canonical/logs/analytics/orders-5d8f9c7b6d-x7k2p/flink-main-container.previous.log",
        "-o",
        "json",
    ]);
    let from_doctor = objects(&fix_of(&doctor, &["rbac_forbidden"]));
    let from_lint = objects(&fix_of(&lint, &["default_service_account"]));
    let from_triage = objects(&fix_of(
        &triage,
        &["rbac_forbidden", "default_service_account"],
    ));
    let kinds: Vec<&str> = from_doctor
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["Role", "RoleBinding", "ServiceAccount"]);
    for d in &from_doctor {
        assert_ne!(
            d["metadata"]["name"], "default",
            "never the default account: {d}"
        );
        if d["kind"] != "ServiceAccount" {
            // The operator chart's own Role is `flink`: never overwritten.
            assert_ne!(d["metadata"]["name"], "flink", "{d}");
        }
    }
    assert_eq!(from_lint, from_doctor, "lint and doctor differ");
    assert_eq!(from_triage, from_doctor, "triage and doctor differ");
    // doctor's FLK502 (the `default` account) is the same problem: the same plan.
    let flk502 = objects(&fix_of(&doctor, &["default_service_account"]));
    assert_eq!(flk502, from_doctor, "FLK502 and FLK501 differ");
}

/// What `explain ID` prints, laid out for `columns`.
fn explain(id: &str, columns: &str) -> String {
    let out = Command::new(PLUGIN)
        .args(["explain", id])
        .env("NO_COLOR", "1")
        .env("COLUMNS", columns)
        .output()
        .expect("run kubectl-flink");
    assert!(out.status.success(), "explain {id}");
    String::from_utf8(out.stdout).unwrap()
}

/// The plan in an `explain` text, whose commands are indented under their section.
fn explained_objects(text: &str) -> Vec<Value> {
    let dedented: String = text
        .lines()
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    objects(&dedented)
}

/// One cause, one fix, in `explain` too: the 403 of the `default` account in analytics (the
/// signature's example line, which is the canonical bundle's problem) is explained with the
/// very objects doctor applies to the bundle and triage prints for the line; the signature,
/// its rule (FLK502), lint's check (FLK453) and the category all show that plan, never the
/// per-verb `kubectl create role` the catalogue's template once printed.
#[test]
fn explain_prints_the_plan_doctor_lint_and_triage_print_for_each_shared_cause() {
    let doctor = json(&[
        "doctor",
        "--from",
        "examples/canonical",
        "-n",
        "analytics",
        "-o",
        "json",
    ]);
    let from_doctor = objects(&fix_of(&doctor, &["rbac_forbidden"]));
    for id in [
        "SIG-K8S-FORBIDDEN-DEFAULT-SA",
        "FLK502",
        "FLK453",
        "default_service_account",
    ] {
        let text = explain(id, "80");
        assert!(!text.contains("kubectl create role"), "{id}:\n{text}");
        assert_eq!(explained_objects(&text), from_doctor, "{id}:\n{text}");
    }
    // The refused line itself, triaged: the same plan again.
    let example = explain("SIG-K8S-FORBIDDEN-DEFAULT-SA", "1000");
    let line = example
        .lines()
        .find_map(|l| l.strip_prefix("example   "))
        .expect("an example line");
    let dir = std::env::temp_dir().join(format!("one-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("line.log");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let triage = json(&["triage", file.to_str().unwrap(), "-o", "json"]);
    assert_eq!(
        objects(&fix_of(&triage, &["default_service_account"])),
        from_doctor
    );
    // The generic 403 (another account, another namespace): explain and triage agree on it
    // too, and it is the planner's Role, not the refused verb alone.
    let text = explain("SIG-K8S-FORBIDDEN", "1000");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("example   "))
        .unwrap();
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let triage = json(&["triage", file.to_str().unwrap(), "-o", "json"]);
    let planned = explained_objects(&text);
    assert_eq!(objects(&fix_of(&triage, &["rbac_forbidden"])), planned);
    assert!(planned
        .iter()
        .any(|o| o["kind"] == "Role" && o["metadata"]["name"] == "flink-jobmanager"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A 403 in another namespace than the account's (Flink reading a ConfigMap of `shared`) is one
/// grant there: a Role in `shared` with what was refused, bound to the account in its own
/// namespace, the same from doctor (the bundle), triage (the line) and explain's shape. The
/// catalogue's template (`kubectl create role` with the refused verb) once printed it, and
/// doctor put the Role in the account's own namespace, where it grants nothing.
#[test]
fn a_403_in_another_namespace_is_one_grant_there_everywhere() {
    let line = r#"Message: configmaps "shared-conf" is forbidden: User "system:serviceaccount:analytics:orders-sa" cannot get resource "configmaps" in API group "" in the namespace "shared"."#;
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    copy_dir(Path::new("examples/canonical"), &bundle);
    let log =
        bundle.join("logs/analytics/orders-5d8f9c7b6d-x7k2p/flink-main-container.previous.log");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str(&format!("2024-05-02 10:00:01,000 ERROR x - {line}\n"));
    std::fs::write(&log, text).unwrap();
    let doctor = json(&[
        "doctor",
        "--from",
        bundle.to_str().unwrap(),
        "-n",
        "analytics",
        "-o",
        "json",
    ]);
    let in_shared = |objects: Vec<Value>| -> Vec<Value> {
        objects
            .into_iter()
            .filter(|o| o["metadata"]["namespace"] == "shared")
            .collect()
    };
    let from_doctor = in_shared(objects(&fix_of(&doctor, &["rbac_forbidden"])));
    let file = dir.path().join("line.log");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let triage = json(&["triage", file.to_str().unwrap(), "-o", "json"]);
    let triage_fix = fix_of(&triage, &["rbac_forbidden"]);
    let from_triage = objects(&triage_fix);
    assert_eq!(from_triage, in_shared(from_triage.clone()), "{triage_fix}");
    assert_eq!(from_doctor, from_triage, "doctor and triage differ");
    let kinds: Vec<&str> = from_triage
        .iter()
        .map(|o| o["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["Role", "RoleBinding"], "{triage_fix}");
    let binding = &from_triage[1];
    assert_eq!(binding["subjects"][0]["name"], "orders-sa");
    assert_eq!(binding["subjects"][0]["namespace"], "analytics");
    let role = &from_triage[0];
    assert_eq!(role["rules"][0]["resources"][0], "configmaps");
    assert_eq!(role["rules"][0]["verbs"][0], "get");
    assert!(!triage_fix.contains("kubectl create role"), "{triage_fix}");
    // The check asks the authorizer as that account, in that namespace.
    let verify = triage["findings"][0]["verify"].as_str().unwrap_or("");
    assert!(
        verify.contains(
            "kubectl auth can-i get configmaps -n shared --as=system:serviceaccount:analytics:orders-sa"
        ),
        "{verify}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

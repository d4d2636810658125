//! One problem, one fix. The canonical 403 (the JobManager runs as `default`, which may not watch
//! pods) reaches a person through doctor (the support bundle), lint (the FlinkDeployment before it
//! is applied) and triage (the JobManager's log pasted). All three must print the same objects
//! to apply: the same ServiceAccount, Role and RoleBinding, with the same names and rules. (can-i
//! prints the same plan; its e2e test applies it on the real API server.)

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> Value {
    let out = Command::new(PLUGIN)
        .args(args)
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .output()
        .expect("run kubectl-flink");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

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

/// The objects in the fix's heredoc (`kubectl apply -f - <<'EOF'` ... `EOF`), by kind and name.
fn objects(fix: &str) -> Vec<Value> {
    let start = fix
        .find("<<'EOF'\n")
        .unwrap_or_else(|| panic!("no heredoc in the fix:\n{fix}"))
        + "<<'EOF'\n".len();
    let end = start + fix[start..].find("\nEOF").expect("the heredoc ends");
    let mut docs: Vec<Value> = serde_yaml::Deserializer::from_str(&fix[start..end])
        .map(|d| serde::Deserialize::deserialize(d).expect("the fix's YAML parses"))
        .filter(|d: &Value| !d.is_null())
        .collect();
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

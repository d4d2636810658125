//! The files that run `watch` in a cluster agree with the code: deploy/ and the Helm chart grant
//! exactly the rights of `cluster::watch_rbac`, the alert rules pass `promtool check rules`
//! (scripts/check-deploy.sh installs Debian's `prometheus` for it and makes its absence a
//! failure), and the rules and the Grafana dashboard ask only for metrics the watch exports.

use kubectl_flink::cluster::watch_rbac::{CLUSTER_ROLE, POST_EVENTS};
use kubectl_flink::flink::permissions::Permission;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

type Rights = BTreeSet<(String, String, String)>;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rights_of(perms: &[Permission]) -> Rights {
    perms
        .iter()
        .flat_map(|p| {
            p.verbs
                .iter()
                .map(|v| (p.group.to_string(), p.resource.to_string(), v.to_string()))
        })
        .collect()
}

/// Every (group, resource, verb) the rules of a Role or ClusterRole grant.
fn rights_of_rules(rules: &serde_json::Value) -> Rights {
    let mut out = Rights::new();
    for rule in rules.as_array().expect("rules") {
        let list = |k: &str| -> Vec<String> {
            rule[k]
                .as_array()
                .unwrap_or_else(|| panic!("{k} in {rule}"))
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        for g in list("apiGroups") {
            for r in list("resources") {
                for v in list("verbs") {
                    assert!(v != "*" && r != "*" && g != "*", "a wildcard: {rule}");
                    out.insert((g.clone(), r.clone(), v));
                }
            }
        }
    }
    out
}

fn documents(text: &str) -> Vec<serde_json::Value> {
    text.split("\n---")
        .filter(|d| {
            d.lines()
                .any(|l| !l.trim().is_empty() && !l.starts_with('#'))
        })
        .map(|d| serde_yaml::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect()
}

/// A chart template with its template actions taken out: `{{ ... }}` in a value becomes `x`, a
/// line that holds only an action goes. `keep_if` keeps the body of `{{- if ... }}` blocks.
fn untemplated(text: &str, keep_if: bool) -> String {
    let action = regex::Regex::new(r"\{\{-?[^}]*-?\}\}").unwrap();
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("{{- if") || t.starts_with("{{ if") {
            skipping = !keep_if;
            continue;
        }
        if t.starts_with("{{- end") || t.starts_with("{{ end") {
            skipping = false;
            continue;
        }
        if skipping || (t.starts_with("{{") && t.ends_with("}}")) {
            continue;
        }
        out.push_str(&action.replace_all(line, "x"));
        out.push('\n');
    }
    out
}

#[test]
fn deploy_cluster_role_grants_exactly_what_the_code_lists() {
    let docs = documents(&read("deploy/clusterrole.yaml"));
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["kind"], "ClusterRole");
    assert_eq!(rights_of_rules(&docs[0]["rules"]), rights_of(CLUSTER_ROLE));
}

#[test]
fn the_chart_grants_the_same_and_create_events_only_with_post_events() {
    let text = read("charts/kubectl-flink/templates/clusterrole.yaml");
    let without: serde_json::Value = serde_yaml::from_str(&untemplated(&text, false)).unwrap();
    assert_eq!(rights_of_rules(&without["rules"]), rights_of(CLUSTER_ROLE));
    let with: serde_json::Value = serde_yaml::from_str(&untemplated(&text, true)).unwrap();
    let mut expected = rights_of(CLUSTER_ROLE);
    expected.extend(rights_of(&[POST_EVENTS]));
    assert_eq!(rights_of_rules(&with["rules"]), expected);
    let values: serde_json::Value =
        serde_yaml::from_str(&read("charts/kubectl-flink/values.yaml")).unwrap();
    assert_eq!(values["postEvents"], false, "Events are opt-in");
}

#[test]
fn deploy_events_role_is_the_one_write() {
    let docs = documents(&read("deploy/events-clusterrole.yaml"));
    let role = docs.iter().find(|d| d["kind"] == "ClusterRole").unwrap();
    assert_eq!(rights_of_rules(&role["rules"]), rights_of(&[POST_EVENTS]));
    let kustomization: serde_json::Value =
        serde_yaml::from_str(&read("deploy/kustomization.yaml")).unwrap();
    let resources: Vec<&str> = kustomization["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(!resources.contains(&"events-clusterrole.yaml"));
    for r in &resources {
        assert!(repo().join("deploy").join(r).is_file(), "{r}");
    }
}

#[test]
fn deploy_binds_the_role_to_the_account_the_deployment_runs_as() {
    let sa = &documents(&read("deploy/serviceaccount.yaml"))[0];
    let role = &documents(&read("deploy/clusterrole.yaml"))[0];
    let binding = &documents(&read("deploy/clusterrolebinding.yaml"))[0];
    let deployment = &documents(&read("deploy/deployment.yaml"))[0];
    let service = &documents(&read("deploy/service.yaml"))[0];
    assert_eq!(binding["roleRef"]["name"], role["metadata"]["name"]);
    assert_eq!(binding["subjects"][0]["name"], sa["metadata"]["name"]);
    assert_eq!(
        binding["subjects"][0]["namespace"],
        sa["metadata"]["namespace"]
    );
    let pod = &deployment["spec"]["template"]["spec"];
    assert_eq!(pod["serviceAccountName"], sa["metadata"]["name"]);
    let args: Vec<&str> = pod["containers"][0]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(args[0], "watch");
    assert!(!args.contains(&"--post-events"));
    assert_eq!(
        service["spec"]["selector"],
        deployment["spec"]["selector"]["matchLabels"]
    );
    // The flags the manifests pass exist.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-flink"))
        .args(["watch", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--listen",
        "--all-namespaces",
        "--debounce",
        "--post-events",
    ] {
        assert!(help.contains(flag), "{flag} in watch --help: {help}");
    }
}

#[test]
fn the_prometheus_rule_and_the_chart_hold_the_same_alerts() {
    let plain: serde_json::Value =
        serde_yaml::from_str(&read("deploy/prometheus-rules.yaml")).unwrap();
    let cr = &documents(&read("deploy/prometheusrule.yaml"))[0];
    assert_eq!(cr["kind"], "PrometheusRule");
    assert_eq!(cr["spec"]["groups"], plain["groups"]);
    assert_eq!(
        read("charts/kubectl-flink/files/prometheus-rules.yaml"),
        read("deploy/prometheus-rules.yaml")
    );
    assert_eq!(
        read("charts/kubectl-flink/files/grafana-dashboard.json"),
        read("deploy/grafana-dashboard.json")
    );
    // One alert per severity of the findings.
    let rules = plain["groups"][0]["rules"].as_array().unwrap();
    for severity in ["critical", "warning", "info"] {
        assert!(
            rules.iter().any(|r| r["labels"]["severity"] == severity
                && r["expr"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("severity=\"{severity}\""))),
            "{severity}"
        );
    }
}

/// The metric names `watch` registers (src/commands/watch/metrics.rs), as Prometheus sees them.
fn exported() -> BTreeSet<String> {
    let source = read("src/commands/watch/metrics.rs");
    let re = regex::Regex::new(r#""(kubectl_flink_[a-z_]+)""#).unwrap();
    let mut out = BTreeSet::new();
    for c in re.captures_iter(&source) {
        let name = c[1].to_string();
        for suffix in ["", "_total", "_bucket", "_sum", "_count"] {
            out.insert(format!("{name}{suffix}"));
        }
    }
    out
}

fn metrics_in(expr: &str) -> Vec<String> {
    let re = regex::Regex::new(r"kubectl_flink_[a-z_]+").unwrap();
    re.find_iter(expr).map(|m| m.as_str().to_string()).collect()
}

#[test]
fn alerts_and_dashboard_ask_only_for_exported_metrics() {
    let exported = exported();
    assert!(exported.contains("kubectl_flink_findings"), "{exported:?}");
    let plain: serde_json::Value =
        serde_yaml::from_str(&read("deploy/prometheus-rules.yaml")).unwrap();
    for r in plain["groups"][0]["rules"].as_array().unwrap() {
        for m in metrics_in(r["expr"].as_str().unwrap()) {
            assert!(exported.contains(&m), "{m} in {}", r["alert"]);
        }
    }
    let dashboard: serde_json::Value =
        serde_json::from_str(&read("deploy/grafana-dashboard.json")).unwrap();
    for p in dashboard["panels"].as_array().unwrap() {
        for t in p["targets"].as_array().unwrap() {
            for m in metrics_in(t["expr"].as_str().unwrap()) {
                assert!(exported.contains(&m), "{m} in panel {}", p["title"]);
            }
        }
    }
}

#[test]
fn the_dashboard_has_grafanas_shape() {
    let d: serde_json::Value =
        serde_json::from_str(&read("deploy/grafana-dashboard.json")).unwrap();
    for key in ["title", "uid"] {
        assert!(d[key].as_str().is_some_and(|s| !s.is_empty()), "{key}");
    }
    assert!(d["schemaVersion"].as_u64().is_some_and(|v| v >= 30));
    let panels = d["panels"].as_array().unwrap();
    assert!(!panels.is_empty());
    let mut ids = BTreeSet::new();
    for p in panels {
        let id = p["id"].as_u64().expect("a numeric id");
        assert!(ids.insert(id), "id {id} twice");
        assert!(p["title"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(
            ["stat", "timeseries", "table", "gauge", "bargauge"]
                .contains(&p["type"].as_str().unwrap()),
            "{}",
            p["type"]
        );
        let g = &p["gridPos"];
        let (x, w, h) = (
            g["x"].as_u64().unwrap(),
            g["w"].as_u64().unwrap(),
            g["h"].as_u64().unwrap(),
        );
        assert!(
            g["y"].as_u64().is_some() && w > 0 && h > 0 && x + w <= 24,
            "{g}"
        );
        let targets = p["targets"].as_array().unwrap();
        assert!(!targets.is_empty());
        let mut refs = BTreeSet::new();
        for t in targets {
            assert!(refs.insert(t["refId"].as_str().unwrap().to_string()));
            assert!(t["expr"].as_str().is_some_and(|e| !e.is_empty()));
        }
    }
    // The data source is a variable the person picks.
    let vars = d["templating"]["list"].as_array().unwrap();
    assert!(vars
        .iter()
        .any(|v| v["type"] == "datasource" && v["name"] == "datasource"));
}

fn promtool() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("promtool"))
            .find(|p| p.is_file())
    })
}

#[test]
fn promtool_accepts_the_rules() {
    let Some(promtool) = promtool() else {
        assert!(
            std::env::var_os("KUBECTL_FLINK_REQUIRE_PROMTOOL").is_none(),
            "promtool is required (scripts/check-deploy.sh installs Debian's prometheus)"
        );
        eprintln!("promtool not found: rules not checked (scripts/check-deploy.sh installs it)");
        return;
    };
    let out = std::process::Command::new(&promtool)
        .args(["check", "rules"])
        .arg(repo().join("deploy/prometheus-rules.yaml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // And a broken rule file is refused (the check can fail).
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "groups:\n- name: x\n  rules:\n  - alert: X\n    expr: sum(kubectl_flink_findings\n",
    )
    .unwrap();
    let out = std::process::Command::new(&promtool)
        .args(["check", "rules"])
        .arg(Path::new(&bad))
        .output()
        .unwrap();
    assert!(!out.status.success());
}

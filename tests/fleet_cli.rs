//! `doctor --context a,b` and `--all-contexts` without a cluster: what is refused and why (exit 2,
//! one line), unknown names, and a fleet whose every context is dead (closed ports): one
//! `unreachable` line each, exit 3, quickly. The live fleet is tests/fleet_e2e.rs.

mod common;
use common::run::{plugin, s};
use std::path::Path;
use std::time::{Duration, Instant};

/// A kubeconfig of `n` contexts `dead-1..n`, each at a loopback port nothing listens on.
fn dead_fleet(dir: &Path, n: usize) -> std::path::PathBuf {
    let mut clusters = String::new();
    let mut contexts = String::new();
    for i in 1..=n {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        clusters.push_str(&format!(
            "- name: c{i}\n  cluster: {{server: \"https://127.0.0.1:{port}\"}}\n"
        ));
        contexts.push_str(&format!(
            "- name: dead-{i}\n  context: {{cluster: c{i}, user: u, namespace: default}}\n"
        ));
    }
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n{clusters}users:\n- name: u\n  user: {{token: t}}\ncontexts:\n{contexts}current-context: dead-1\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn flags_that_name_one_cluster_are_refused_with_the_reason() {
    for (args, says) in [
        (
            &["doctor", "--all-contexts", "--from", "examples/canonical"][..],
            "--from does not apply",
        ),
        (
            &["doctor", "--context", "a,b", "--fix"][..],
            "--fix does not apply",
        ),
        (
            &["doctor", "--all-contexts", "--cluster", "c"][..],
            "--cluster does not apply",
        ),
        (
            &["can-i", "orders", "--all-contexts", "--fix"][..],
            "--fix does not apply",
        ),
    ] {
        let run = plugin(None, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(
            run.stderr.starts_with("error: ") && run.stderr.contains(says),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_unknown_context_is_a_usage_error_before_anything_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dead_fleet(dir.path(), 2);
    let run = plugin(Some(&kubeconfig), &["doctor", "--context", "dead-1,nope"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("context \"nope\" not found"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn a_fleet_of_dead_contexts_is_one_unreachable_line_each_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dead_fleet(dir.path(), 6);
    let started = Instant::now();
    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--all-contexts", "-o", "json"],
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["version"], 1);
    let contexts = v["contexts"].as_array().unwrap();
    let names: Vec<&str> = contexts.iter().map(|c| s(c, "/context")).collect();
    assert_eq!(
        names,
        ["dead-1", "dead-2", "dead-3", "dead-4", "dead-5", "dead-6"]
    );
    for c in contexts {
        assert_eq!(s(c, "/status"), "unreachable", "{c:#}");
        assert!(s(c, "/error").contains("connection refused"), "{c:#}");
    }
    // Each names its own server, though all ran at once.
    let servers: std::collections::BTreeSet<&str> = contexts
        .iter()
        .map(|c| s(c, "/error").split_whitespace().nth(6).unwrap_or(""))
        .collect();
    assert_eq!(servers.len(), 6, "{contexts:#?}");
    assert_eq!(v["fleet"].as_array().unwrap().len(), 6);
    assert_eq!(v["findings"], serde_json::json!([]));
    // The table: the overview alone, within 80 columns, and each failure on stderr.
    let run = plugin(Some(&kubeconfig), &["doctor", "--context", "dead-2,dead-1"]);
    assert_eq!(run.code, 3);
    assert!(
        run.stdout
            .starts_with("2 contexts, 0 Flink deployments; 2 not diagnosed: dead-2, dead-1\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.lines().all(|l| l.chars().count() <= 80),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stderr.matches("error: context dead-").count(),
        2,
        "{}",
        run.stderr
    );
}

#[test]
fn a_context_name_never_drives_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dead_fleet(dir.path(), 2);
    let text = std::fs::read_to_string(&kubeconfig).unwrap();
    let hostile = "dead-\u{1b}]0;pwned\u{7}\u{1b}[2J";
    let text = text.replace(
        "- name: dead-2\n",
        &format!("- name: {}\n", serde_json::to_string(hostile).unwrap()),
    );
    std::fs::write(&kubeconfig, text).unwrap();
    for format in ["table", "html", "markdown", "sarif"] {
        let run = plugin(
            Some(&kubeconfig),
            &["doctor", "--all-contexts", "-o", format],
        );
        assert_eq!(run.code, 3, "{}", run.stderr);
        for out in [&run.stdout, &run.stderr] {
            assert!(
                !out.contains('\u{1b}') && !out.contains('\u{7}'),
                "{format}: {out:?}"
            );
        }
        assert!(run.stdout.contains("pwned"), "{}", run.stdout);
    }
}

#[test]
fn markdown_sarif_and_save_of_a_dead_fleet_say_each_context_failed() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dead_fleet(dir.path(), 2);
    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--all-contexts", "-o", "markdown"],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("# kubectl flink doctor: 2 contexts\n"),
        "{}",
        run.stdout
    );
    for c in ["dead-1", "dead-2"] {
        assert!(
            run.stdout
                .contains(&format!("| {c} | - | - | - | unreachable | cannot reach")),
            "{}",
            run.stdout
        );
        assert!(
            run.stdout.contains(&format!("## Context {c}\n")),
            "{}",
            run.stdout
        );
    }
    assert_eq!(
        run.stdout.matches("**unreachable**: cannot reach").count(),
        2
    );

    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--all-contexts", "-o", "sarif"],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let log = run.json();
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    let contexts: Vec<&str> = runs.iter().map(|r| s(r, "/properties/context")).collect();
    assert_eq!(contexts, ["dead-1", "dead-2"]);
    for r in runs {
        assert_eq!(r["invocations"][0]["executionSuccessful"], false, "{r:#}");
        assert_eq!(r["results"], serde_json::json!([]), "{r:#}");
        assert!(r["tool"]["driver"]["rules"]
            .as_array()
            .is_some_and(|a| !a.is_empty()));
    }

    // --save: nothing was read, so no bundle; the folder is checked before anything is read.
    let save = dir.path().join("fleet-bundles");
    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--all-contexts", "--save", save.to_str().unwrap()],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!save.join("dead-1").exists());
    let full = dir.path().join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("x"), "x").unwrap();
    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--all-contexts", "--save", full.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not empty"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn logs_and_can_i_over_a_dead_fleet_say_each_context_on_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dead_fleet(dir.path(), 3);
    let started = Instant::now();
    let run = plugin(Some(&kubeconfig), &["logs", "orders", "--all-contexts"]);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    for c in ["dead-1", "dead-2", "dead-3"] {
        assert_eq!(
            run.stderr
                .lines()
                .filter(|l| l.starts_with(&format!("error: context {c}: "))
                    && l.contains("cannot reach"))
                .count(),
            1,
            "{}",
            run.stderr
        );
    }
    // -f holds every context's streams open: at most 4 at once, said before anything is read.
    let six = tempfile::tempdir().unwrap();
    let kubeconfig6 = dead_fleet(six.path(), 6);
    let run = plugin(Some(&kubeconfig6), &["logs", "-f", "--all-contexts"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("at most 4 contexts"), "{}", run.stderr);

    let run = plugin(
        Some(&kubeconfig),
        &[
            "can-i",
            "orders",
            "--context",
            "dead-2,dead-1",
            "-n",
            "default",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("kubectl flink can-i: 2 contexts; 2 not checked: dead-2, dead-1\n"),
        "{}",
        run.stdout
    );
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("CONTEXT"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    assert!(rows[0].trim_start().starts_with("dead-2") && rows[0].contains("unreachable"));
    assert!(
        run.stdout.contains("context dead-1: unreachable\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.lines().all(|l| l.chars().count() <= 80),
        "{}",
        run.stdout
    );
    let run = plugin(
        Some(&kubeconfig),
        &[
            "can-i",
            "orders",
            "--all-contexts",
            "-n",
            "default",
            "-o",
            "json",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let v = run.json();
    let contexts = v["contexts"].as_array().unwrap();
    assert_eq!(contexts.len(), 3);
    for c in contexts {
        assert_eq!(s(c, "/status"), "unreachable", "{c:#}");
        assert!(s(c, "/error").contains("connection refused"), "{c:#}");
        assert_eq!(c["exitCode"], 3);
    }
}

#[test]
fn logs_follow_connects_to_each_context_within_the_request_timeouts_bounds() {
    // A context whose credential plugin never answers, beside one nothing listens for: -f keeps
    // its streams without a read timeout, but connecting keeps --request-timeout's bounds (the
    // plugin's 10 s at least, not the 2 min of a run without a timeout).
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"https://127.0.0.1:{port}\"}}\n\
             users:\n- name: u\n  user: {{token: t}}\n- name: waits\n  user:\n    exec:\n      \
             apiVersion: client.authentication.k8s.io/v1\n      command: sleep\n      args: [\"300\"]\n      \
             interactiveMode: Never\n\
             contexts:\n- name: slow\n  context: {{cluster: c, user: waits, namespace: default}}\n\
             - name: dead\n  context: {{cluster: c, user: u, namespace: default}}\n\
             current-context: dead\n"
        ),
    )
    .unwrap();
    let started = Instant::now();
    let run = plugin(
        Some(&kubeconfig),
        &[
            "logs",
            "orders",
            "-f",
            "--context",
            "slow,dead",
            "--request-timeout",
            "1s",
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with("error: context slow: ")
                && l.contains("did not answer within 10s")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with("error: context dead: ")),
        "{}",
        run.stderr
    );
}

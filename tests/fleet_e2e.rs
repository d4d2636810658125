//! `doctor --all-contexts` and `--context a,b` against real API servers (issue 35): two test
//! clusters (`KUBE_HARNESS_CLUSTERS=2 scripts/test-cluster.sh run cargo test --test fleet_e2e`,
//! which writes one kubeconfig with the contexts test-1 and test-2), the canonical double fault
//! seeded into test-1, a healthy deployment into test-2, and two more contexts that cannot
//! answer: `dead` (a closed port: refused at once) and `hung` (a port that accepts the connection
//! and never says a word: only the context's own deadline ends it). The fleet overview must
//! report the dead and hung ones as unreachable in their own rows and the other two complete, in
//! one run that the hung one does not hold up past its deadline.
//!
//! Without a cluster the test FAILS when `CI` is set and prints a loud SKIPPED otherwise; with one
//! cluster only (the suite's usual run) it prints SKIPPED and names the command that runs it
//! (.ci/run does, as its own step).

mod common;
use common::run::{findings, plugin, s, Run};

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Fleet {
    /// The state directories of test-1 and test-2.
    dirs: Vec<PathBuf>,
    kubeconfig: PathBuf,
}

fn fleet() -> Option<Fleet> {
    if let Err(why) = common::harness_dir() {
        common::no_cluster("fleet_e2e", "every test", &why);
        return None;
    }
    let Some(kubeconfig) = common::env_path("KUBE_FLEET_KUBECONFIG") else {
        eprintln!(
            "******** SKIPPED fleet_e2e: this run started one test cluster and the fleet needs two. \
             Run: KUBE_HARNESS_CLUSTERS=2 scripts/test-cluster.sh run cargo test --test fleet_e2e"
        );
        return None;
    };
    let dirs: Vec<PathBuf> = std::env::var("KUBE_FLEET_DIRS")
        .unwrap_or_default()
        .split_whitespace()
        .map(PathBuf::from)
        .collect();
    assert!(dirs.len() >= 2, "KUBE_FLEET_DIRS names {dirs:?}");
    Some(Fleet { dirs, kubeconfig })
}

/// Seeds `bundle` into the cluster of state directory `dir`, with a seed record of this binary's.
fn seed(dir: &Path, bundle: &Path) {
    let script = common::repo().join("scripts/test-cluster.sh");
    let out = std::process::Command::new(&script)
        .args(["seed", "--reset"])
        .arg(bundle)
        .env("KUBE_HARNESS_DIR", dir)
        .env(
            "KUBE_HARNESS_SEED_RECORD",
            dir.join("seeded-by-fleet_e2e.tsv"),
        )
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the seeder");
    assert!(
        out.status.success(),
        "seeding {} into {}:\n{}{}",
        bundle.display(),
        dir.display(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The fleet kubeconfig with two more contexts: `dead` (nothing listens on its port) and `hung`
/// (something listens and never answers; the listener is returned and must be kept).
fn with_dead_and_hung(fleet: &Fleet, out: &Path) -> std::net::TcpListener {
    let text = std::fs::read_to_string(&fleet.kubeconfig).expect("read the fleet kubeconfig");
    let mut config: Value = serde_yaml::from_str(&text).expect("the fleet kubeconfig is YAML");
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let hung = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let hung_port = hung.local_addr().expect("addr").port();
    let ca = config["clusters"][0]["cluster"]["certificate-authority"].clone();
    for (name, port) in [("dead", closed), ("hung", hung_port)] {
        config["clusters"].as_array_mut().unwrap().push(json!({
            "name": name,
            "cluster": {"server": format!("https://127.0.0.1:{port}"), "certificate-authority": ca}
        }));
        config["contexts"].as_array_mut().unwrap().push(json!({
            "name": name,
            "context": {"cluster": name, "user": "test-1-e2e", "namespace": "default"}
        }));
    }
    std::fs::write(out, serde_yaml::to_string(&config).unwrap()).expect("write the kubeconfig");
    hung
}

/// The two clusters seeded (once per test binary): the canonical double fault in test-1, a
/// healthy deployment in test-2. Held while a test uses them.
fn seeded(fleet: &Fleet) -> std::sync::MutexGuard<'static, bool> {
    static LOCK: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut done = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if !*done {
        seed(&fleet.dirs[0], &common::repo().join("examples/canonical"));
        seed(
            &fleet.dirs[1],
            &common::repo().join("tests/scenarios/healthy-application"),
        );
        *done = true;
    }
    done
}

fn context<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["contexts"]
        .as_array()
        .and_then(|a| a.iter().find(|c| s(c, "/context") == name))
        .unwrap_or_else(|| panic!("no context {name} in {report:#}"))
}

#[test]
fn all_contexts_reports_the_dead_and_the_hung_and_completes_the_others() {
    let Some(fleet) = fleet() else { return };
    let canonical = common::repo().join("examples/canonical");
    let _seeded = seeded(&fleet);
    let tmp = tempfile::tempdir().unwrap();
    let kubeconfig = tmp.path().join("fleet.kubeconfig");
    let _hung = with_dead_and_hung(&fleet, &kubeconfig);

    // What the bundle says offline: its root causes, the first of them on top.
    let offline = plugin(
        None,
        &[
            "doctor",
            "--from",
            canonical.to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    let offline = offline.json();
    let roots: Vec<String> = findings(&offline)
        .iter()
        .filter(|f| f["causedBy"].is_null())
        .map(|f| s(f, "/rule").to_string())
        .collect();
    assert!(roots.len() >= 2, "{offline:#}");
    let first_root = findings(&offline)
        .into_iter()
        .find(|f| f["causedBy"].is_null())
        .unwrap();

    // Per context: 2 s a request, so 20 s a context.
    let timeout = ["--request-timeout", "2s"];
    let started = Instant::now();
    let run = plugin(
        Some(&kubeconfig),
        &[
            &["doctor", "--all-contexts", "-A", "-o", "json"][..],
            &timeout,
        ]
        .concat(),
    );
    let took = started.elapsed();
    eprintln!(
        "fleet_e2e: 4 contexts (1 dead, 1 hung) in {:.1} s",
        took.as_secs_f64()
    );
    assert!(
        took < Duration::from_secs(45),
        "the hung context held the run past its own deadline: {took:?}\n{}",
        run.stderr
    );
    let report = run.json();
    assert_eq!(
        run.code, 3,
        "worst context: could not complete\n{}",
        run.stderr
    );

    let names: Vec<&str> = report["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| s(c, "/context"))
        .collect();
    assert_eq!(names, ["test-1", "test-2", "dead", "hung"], "{report:#}");
    eprintln!("fleet_e2e: hung: {:#}", context(&report, "hung"));
    for name in ["dead", "hung"] {
        let c = context(&report, name);
        assert_eq!(s(c, "/status"), "unreachable", "{c:#}");
        assert_eq!(c["exitCode"], 3, "{c:#}");
    }
    assert!(
        s(context(&report, "dead"), "/error").contains("connection refused"),
        "{report:#}"
    );
    assert!(
        context(&report, "dead")["seconds"].as_f64().unwrap() < 10.0,
        "a refused connection fails fast: {report:#}"
    );
    for name in ["test-1", "test-2"] {
        let c = context(&report, name);
        assert_eq!(s(c, "/status"), "diagnosed", "{c:#}");
        assert!(c["error"].is_null(), "{c:#}");
    }
    assert_eq!(context(&report, "test-1")["exitCode"], 1);

    // Every finding and every cluster says which context it is from.
    let all = findings(&report);
    assert!(!all.is_empty());
    assert!(all.iter().all(|f| f["context"].is_string()), "{report:#}");
    let clusters = report["clusters"].as_array().unwrap();
    assert!(clusters.iter().all(|c| c["context"].is_string()));
    // test-1 complete: the canonical's root causes, as offline.
    let live_roots: Vec<&str> = all
        .iter()
        .filter(|f| s(f, "/context") == "test-1" && f["causedBy"].is_null())
        .filter(|f| s(f, "/deployment/name") == "orders")
        .map(|f| s(f, "/rule"))
        .collect();
    for rule in &roots {
        assert!(
            live_roots.contains(&rule.as_str()),
            "{rule} missing live: {live_roots:?}"
        );
    }
    // test-2 complete: its healthy deployment is there and ok.
    assert!(
        clusters
            .iter()
            .any(|c| s(c, "/context") == "test-2" && s(c, "/name") == "clicks"),
        "{report:#}"
    );

    // The overview, worst first: the two unreachable, then the broken deployment (with its first
    // root cause), the healthy one after it.
    let lines = report["fleet"].as_array().unwrap();
    let at = |pred: &dyn Fn(&Value) -> bool| lines.iter().position(pred);
    let dead = at(&|l| s(l, "/context") == "dead").unwrap();
    let hung = at(&|l| s(l, "/context") == "hung").unwrap();
    let orders = at(&|l| s(l, "/context") == "test-1" && s(l, "/name") == "orders").unwrap();
    let clicks = at(&|l| s(l, "/context") == "test-2" && s(l, "/name") == "clicks").unwrap();
    assert!(dead < 2 && hung < 2, "{lines:#?}");
    assert!(orders < clicks, "{lines:#?}");
    assert_eq!(s(&lines[clicks], "/health"), "ok", "{lines:#?}");
    assert_eq!(s(&lines[dead], "/health"), "unreachable");
    assert!(s(&lines[orders], "/health").contains("critical"));
    assert_eq!(
        s(&lines[orders], "/rootCause"),
        s(&first_root, "/title"),
        "{lines:#?}"
    );
    assert_eq!(s(&lines[orders], "/rule"), s(&first_root, "/rule"));
}

#[test]
fn the_fleet_table_fits_80_columns_and_the_exit_code_is_the_worst_context() {
    let Some(fleet) = fleet() else { return };
    let _seeded = seeded(&fleet);
    let tmp = tempfile::tempdir().unwrap();
    let kubeconfig = tmp.path().join("fleet.kubeconfig");
    let _hung = with_dead_and_hung(&fleet, &kubeconfig);

    // Three contexts, one dead: the figure the README quotes.
    let started = Instant::now();
    let run: Run = plugin(
        Some(&kubeconfig),
        &["doctor", "--context", "test-1,test-2,dead", "-A"],
    );
    let took = started.elapsed();
    eprintln!(
        "fleet_e2e: 3 contexts (1 dead) in {:.2} s\n{}",
        took.as_secs_f64(),
        run.stdout
    );
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    let overview: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("CONTEXT "))
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(overview.len() >= 4, "{}", run.stdout);
    assert!(overview[1].starts_with("dead "), "{}", run.stdout);
    assert!(overview[1].contains("unreachable"), "{}", run.stdout);
    assert!(
        overview.iter().all(|l| l.chars().count() <= 80),
        "the overview is wider than 80 columns:\n{}",
        run.stdout
    );
    assert!(run.stdout.contains("== context test-1 "), "{}", run.stdout);
    assert!(
        run.stderr.contains("context dead: cannot reach"),
        "{}",
        run.stderr
    );

    // Without the dead one, the worst is the findings of test-1.
    let run = plugin(
        Some(&kubeconfig),
        &["doctor", "--context", "test-1,test-2", "-A"],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    // An unknown name is a usage error before anything is read.
    let run = plugin(Some(&kubeconfig), &["doctor", "--context", "test-1,nope"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("\"nope\" not found"), "{}", run.stderr);

    // The same fleet as one HTML page: every context, the dead one's reason.
    let run = plugin(
        Some(&kubeconfig),
        &[
            "doctor",
            "--context",
            "test-1,test-2,dead",
            "-A",
            "-o",
            "html",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    for want in [
        "Context test-1",
        "Context test-2",
        "Context dead",
        "connection refused",
        "<svg",
    ] {
        assert!(run.stdout.contains(want), "{want} not in the page");
    }
}

#[test]
fn save_markdown_and_sarif_hold_every_context_and_the_bundles_diagnose_alike() {
    let Some(fleet) = fleet() else { return };
    let _seeded = seeded(&fleet);
    let tmp = tempfile::tempdir().unwrap();
    let kubeconfig = tmp.path().join("fleet.kubeconfig");
    let _hung = with_dead_and_hung(&fleet, &kubeconfig);

    // --save: one bundle per context read, none for the dead one; each diagnoses as live.
    let dir = tmp.path().join("bundles");
    let run = plugin(
        Some(&kubeconfig),
        &[
            "doctor",
            "--context",
            "test-1,test-2,dead",
            "-A",
            "-o",
            "json",
            "--save",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let live = run.json();
    assert!(
        dir.join("test-1").is_dir() && dir.join("test-2").is_dir(),
        "{}",
        run.stderr
    );
    assert!(!dir.join("dead").exists());
    assert!(
        run.stderr.contains("context test-1: saved to "),
        "{}",
        run.stderr
    );
    let offline = plugin(
        None,
        &[
            "doctor",
            "--from",
            dir.join("test-1").to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    let offline = offline.json();
    let roots = |v: &Value, context: Option<&str>| {
        let mut r: Vec<String> = findings(v)
            .iter()
            .filter(|f| f["causedBy"].is_null())
            .filter(|f| context.is_none_or(|c| s(f, "/context") == c))
            .map(|f| format!("{} {}", s(f, "/rule"), s(f, "/object/name")))
            .collect();
        r.sort();
        r
    };
    assert_eq!(roots(&offline, None), roots(&live, Some("test-1")));

    // SARIF: one run per context, each result with its context; the dead one's run failed.
    let run = plugin(
        Some(&kubeconfig),
        &[
            "doctor",
            "--context",
            "test-1,test-2,dead",
            "-A",
            "-o",
            "sarif",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let log = run.json();
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        findings(&live)
            .iter()
            .filter(|f| s(f, "/context") == "test-1")
            .count()
    );
    assert!(results
        .iter()
        .all(|r| r["properties"]["context"] == "test-1"));
    assert_eq!(runs[1]["invocations"][0]["executionSuccessful"], true);
    assert_eq!(runs[2]["properties"]["context"], "dead");
    assert_eq!(runs[2]["invocations"][0]["executionSuccessful"], false);

    // Markdown: the overview, then each context; test-1's root causes one heading down.
    let run = plugin(
        Some(&kubeconfig),
        &[
            "doctor",
            "--context",
            "test-1,test-2,dead",
            "-A",
            "-o",
            "markdown",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    for want in [
        "| Context | Namespace | Name | Mode | Health | Root cause |",
        "| test-1 | analytics | orders |",
        "| test-2 | scn-healthy-app | clicks |",
        "## Context test-1",
        "### 1. critical: ",
        "## Context dead",
        "**unreachable**: cannot reach",
    ] {
        assert!(run.stdout.contains(want), "{want}:\n{}", run.stdout);
    }
}

#[test]
fn logs_and_can_i_read_every_context_and_name_it() {
    let Some(fleet) = fleet() else { return };
    let _seeded = seeded(&fleet);
    let tmp = tempfile::tempdir().unwrap();
    let kubeconfig = tmp.path().join("fleet.kubeconfig");
    let _hung = with_dead_and_hung(&fleet, &kubeconfig);
    let timeout = ["--request-timeout", "2s"];

    // logs: test-1's crashed JobManager, each line starting with its context; the dead and the
    // hung context each one error line, and the hung one held nothing up past its deadline.
    let started = Instant::now();
    let run = plugin(
        Some(&kubeconfig),
        &[
            &["logs", "orders", "-n", "analytics", "--previous"][..],
            &["--context", "test-1,dead,hung"],
            &timeout,
        ]
        .concat(),
    );
    assert!(
        started.elapsed() < Duration::from_secs(45),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!run.stdout.is_empty(), "{}", run.stderr);
    assert!(
        run.stdout
            .lines()
            .all(|l| l.starts_with("[test-1] orders-")),
        "{}",
        run.stdout
    );
    for c in ["dead", "hung"] {
        assert_eq!(
            run.stderr.matches(&format!("error: context {c}: ")).count(),
            1,
            "{}",
            run.stderr
        );
    }
    let run = plugin(
        Some(&kubeconfig),
        &[
            "logs",
            "orders",
            "-n",
            "analytics",
            "--previous",
            "--context",
            "test-1",
            "-o",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let one: Value = serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    assert!(
        one.get("context").is_none(),
        "one context: as before: {one}"
    );
    let run = plugin(
        Some(&kubeconfig),
        &[
            "logs",
            "orders",
            "-n",
            "analytics",
            "--previous",
            "--context",
            "test-1,dead",
            "-o",
            "json",
        ],
    );
    for line in run.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["context"], "test-1", "{v}");
    }

    // can-i: one matrix with a CONTEXT column, the dead context a row of its own.
    let run = plugin(
        Some(&kubeconfig),
        &[
            &[
                "can-i",
                "--for",
                "me",
                "-A",
                "--context",
                "test-1,test-2,dead",
            ][..],
            &timeout,
        ]
        .concat(),
    );
    eprintln!("{}", run.stdout);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("CONTEXT"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    for c in ["test-1 ", "test-2 ", "dead "] {
        assert!(
            rows.iter().any(|r| r.trim_start().starts_with(c)),
            "{c}: {}",
            run.stdout
        );
    }
    assert!(
        rows.iter()
            .filter(|r| r.trim_start().starts_with("test-1 "))
            .count()
            > 1
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
            "-n",
            "analytics",
            "--context",
            "test-1,dead",
            "-o",
            "json",
        ],
    );
    let v = run.json();
    let contexts = v["contexts"].as_array().unwrap();
    assert_eq!(s(&contexts[0], "/context"), "test-1");
    assert_eq!(s(&contexts[0], "/status"), "checked");
    assert!(contexts[0]["decisions"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
    assert_eq!(s(&contexts[1], "/status"), "unreachable");
    assert_eq!(run.code, 3, "{}", run.stderr);
}

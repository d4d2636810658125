//! The deployment modes (issues 8 and 19) end to end: the `tests/scenarios/mode-*` bundles (plain
//! Flink native, the operator's standalone mode, Lyft FlinkApplications, the GCP/Spotify
//! operator's FlinkClusters) diagnosed by the real binary
//! offline, then seeded into the real test cluster and diagnosed live, and the printed fixes run as
//! printed against it (`scripts/test-cluster.sh run cargo test --test modes_e2e`).
//!
//! Without the cluster the live tests FAIL when `CI` is set and print a loud SKIPPED otherwise; the
//! offline tests always run. `tests/e2e.rs` compares every bundle's live and offline findings; this
//! file checks what each mode bundle must be diagnosed as, that discovery finds every mode live
//! (Services, ConfigMaps, FlinkApplications, the JobManager log of a cluster without TaskManagers),
//! that a cluster without an operator gets no "CRD missing" alarm, and that the fixes work.

mod common;
use common::env_path;
use common::expect::{compare, exact, Expect};
use common::run::{findings, plugin, s, Run};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

fn scenario(dir: &str) -> PathBuf {
    common::scenarios::bundle(dir)
}

/// A mode bundle, its one namespace and its `expect.txt`.
struct Case {
    dir: String,
    namespace: String,
    expect: Expect,
}

/// Every `mode-*` scenario.
fn cases() -> Vec<Case> {
    let out: Vec<Case> = common::scenarios::names()
        .into_iter()
        .filter(|n| n.starts_with("mode-"))
        .map(|dir| {
            let folder = common::scenarios::root().join(&dir);
            let expect = Expect::read(&folder).unwrap_or_else(|e| panic!("{e}"));
            let [namespace] = &common::scenarios::namespaces(&scenario(&dir))[..] else {
                panic!("{dir}: not one Namespace");
            };
            let namespace = namespace.clone();
            Case {
                dir,
                namespace,
                expect,
            }
        })
        .collect();
    assert!(out.len() >= 12, "mode scenarios: {}", out.len());
    out
}

// ------------------------------------------------------------------------------------ the plugin

/// What a report says against what the case expects: one line per difference.
fn differences(case: &Case, report: &Value, code: Option<i32>) -> Vec<String> {
    let got = exact(report);
    match code {
        Some(code) => compare(
            &case.expect.findings,
            case.expect.exit,
            &got,
            i64::from(code),
        ),
        None => compare(&case.expect.findings, 0, &got, 0),
    }
}

// ------------------------------------------------------------------------------ offline

#[test]
fn every_mode_bundle_is_diagnosed_as_expected_offline() {
    let mut failures = Vec::new();
    for case in cases() {
        let dir = scenario(&case.dir);
        let run = plugin(
            None,
            &[
                "doctor",
                "--from",
                &dir.to_string_lossy(),
                "-n",
                &case.namespace,
                "-o",
                "json",
            ],
        );
        let diff = differences(&case, &run.json(), Some(run.code));
        if !diff.is_empty() {
            failures.push(format!("{}:\n  {}", case.dir, diff.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The generic rules (scheduling here) group their findings under the FlinkCluster, as under the
/// other modes' deployments.
#[test]
fn a_flinkcluster_pods_findings_fold_under_the_flinkcluster() {
    let dir = scenario("mode-flinkcluster-tm-pending");
    let run = plugin(
        None,
        &["doctor", "--from", &dir.to_string_lossy(), "-o", "json"],
    );
    let report = run.json();
    let all = findings(&report);
    assert!(!all.is_empty(), "{report}");
    for f in &all {
        assert_eq!(
            format!("{}/{}", s(f, "/deployment/kind"), s(f, "/deployment/name")),
            "FlinkCluster/topspeed",
            "{f}"
        );
    }
    let out = plugin(None, &["doctor", "--from", &dir.to_string_lossy()]).stdout;
    assert!(
        out.contains("1 root cause in FlinkCluster scn-mode-flinkcluster-tm-pending/topspeed"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("topspeed "))
        .unwrap_or_else(|| panic!("no overview line: {out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        words[..7],
        [
            "topspeed",
            "FlinkCluster",
            "flinkcluster",
            "1/1",
            "2/3",
            "Reconciling",
            "Running"
        ],
        "{line}"
    );
}

#[test]
fn every_fix_and_verify_is_filled_in_and_evidence_is_given() {
    for case in cases().iter().filter(|c| !c.expect.healthy()) {
        let dir = scenario(&case.dir);
        let report = plugin(
            None,
            &["doctor", "--from", &dir.to_string_lossy(), "-o", "json"],
        )
        .json();
        for f in findings(&report) {
            let id = s(&f, "/id");
            assert!(
                !s(&f, "/fix").trim().is_empty(),
                "{}: {id} has no fix",
                case.dir
            );
            assert!(
                !s(&f, "/verify").trim().is_empty(),
                "{}: {id} has no verify",
                case.dir
            );
            let evidence = f
                .get("evidence")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            assert!(evidence >= 1, "{}: {id} has no evidence", case.dir);
            assert!(
                !s(&f, "/deployment/name").is_empty(),
                "{}: {id} belongs to no Flink deployment",
                case.dir
            );
        }
    }
}

// ------------------------------------------------------------------------------ live

struct Harness {
    admin: PathBuf,
    e2e: PathBuf,
    kubectl: PathBuf,
}

fn harness(test: &str) -> Option<&'static Harness> {
    static H: OnceLock<Result<Harness, String>> = OnceLock::new();
    let h = H.get_or_init(|| {
        env_path("KUBE_HARNESS_DIR").ok_or("KUBE_HARNESS_DIR is not set")?;
        let need = |n: &str| {
            env_path(n)
                .filter(|p| p.exists())
                .ok_or(format!("{n} is not set or missing"))
        };
        Ok(Harness {
            admin: need("KUBECONFIG")?,
            e2e: need("KUBE_E2E_KUBECONFIG")?,
            kubectl: need("KUBE_HARNESS_KUBECTL")?,
        })
    });
    common::or_skip("modes_e2e", test, h.as_ref().map_err(Clone::clone))
}

/// One test at a time uses the cluster; each seeds its bundle with `--reset`.
fn cluster() -> MutexGuard<'static, ()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

fn seed(dir: &Path) {
    common::seed(dir, &["--reset"]).unwrap_or_else(|e| panic!("{e}"));
}

fn shell(h: &Harness, script: &str) -> Run {
    common::run::shell(&h.kubectl, &h.admin, script)
}

fn doctor_live(h: &Harness, ns: &str) -> Value {
    let run = plugin(Some(&h.e2e), &["doctor", "-n", ns, "-o", "json"]);
    assert!(
        run.code == 0 || run.code == 1,
        "doctor -n {ns} failed (exit {}): {}",
        run.code,
        run.stderr
    );
    run.json()
}

/// The `kubectl ...` commands of a fix: a heredoc block (`kubectl apply -f - <<'EOF'` to `EOF`) or
/// one line that starts with `kubectl`.
fn commands(fix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = fix.lines();
    while let Some(l) = lines.next() {
        let t = l.trim();
        if t.starts_with("kubectl apply -f - <<'EOF'") {
            let mut block = vec![t.to_string()];
            for l in lines.by_ref() {
                block.push(l.to_string());
                if l.trim() == "EOF" {
                    break;
                }
            }
            out.push(block.join("\n"));
        } else if t.starts_with("kubectl ") {
            out.push(t.to_string());
        }
    }
    out
}

fn wait_until(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn every_mode_is_found_and_diagnosed_live() {
    let Some(h) = harness("every_mode_is_found_and_diagnosed_live") else {
        return;
    };
    let _guard = cluster();
    let mut failures = Vec::new();
    for case in cases() {
        seed(&scenario(&case.dir));
        let report = doctor_live(h, &case.namespace);
        let diff = differences(&case, &report, None);
        if !diff.is_empty() {
            failures.push(format!("{} live:\n  {}", case.dir, diff.join("\n  ")));
        }
        // A cluster without the Apache operator's CRDs, and without Lyft's, raises no alarm about
        // either when the Flink in scope does not use them.
        for f in findings(&report) {
            if s(&f, "/category") == "crd_missing" || s(&f, "/category") == "inspect_forbidden" {
                failures.push(format!(
                    "{} live: unexpected {} {}",
                    case.dir,
                    s(&f, "/rule"),
                    s(&f, "/title")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_jobmanager_log_is_read_live_when_taskmanagers_are_missing() {
    let Some(h) = harness("the_jobmanager_log_is_read_live_when_taskmanagers_are_missing") else {
        return;
    };
    let _guard = cluster();
    seed(&scenario("mode-native-tm-lost"));
    let dir = tempdir("tm-lost");
    let saved = dir.join("bundle");
    let run = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "-n",
            "scn-mode-native-tm-lost",
            "--save",
            &saved.to_string_lossy(),
            "-o",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let log = saved
        .join("logs/scn-mode-native-tm-lost/sessionize-6b7c8d9f5-q4w8z/flink-main-container.log");
    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    assert!(
        text.contains("Worker sessionize-taskmanager-1-1 is terminated"),
        "{text}"
    );
    // The saved bundle holds what discovery read for the plain native cluster.
    let services = std::fs::read_to_string(saved.join("services.yaml")).unwrap_or_default();
    assert!(services.contains("sessionize-rest"), "{services}");
    let config_maps = std::fs::read_to_string(saved.join("configmaps.yaml")).unwrap_or_default();
    assert!(
        config_maps.contains("flink-config-sessionize"),
        "{config_maps}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lyft_applications_are_listed_live() {
    let Some(h) = harness("lyft_applications_are_listed_live") else {
        return;
    };
    let _guard = cluster();
    seed(&scenario("mode-lyft-deploy-failed"));
    let dir = tempdir("lyft");
    let saved = dir.join("bundle");
    let run = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "-A",
            "--save",
            &saved.to_string_lossy(),
            "-o",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let apps = std::fs::read_to_string(saved.join("flinkapplications.yaml")).unwrap_or_default();
    assert!(apps.contains("DeployFailed"), "{apps}");
    let workloads = std::fs::read_to_string(saved.join("deployments.yaml")).unwrap_or_default();
    assert!(workloads.contains("clicks-2a6f3b1c-tm"), "{workloads}");
    // NAME narrows discovery to that application.
    let named = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "clicks",
            "-n",
            "scn-mode-lyft-failed",
            "-o",
            "json",
        ],
    );
    if named.code == 1 {
        let rules: Vec<String> = exact(&named.json()).into_iter().map(|l| l.rule).collect();
        assert!(rules.contains(&"FLK410".to_string()), "{rules:?}");
    } else {
        // `doctor NAME` for a FlinkApplication needs doctor.rs to know every mode (issue 8 §1).
        eprintln!(
            "note: doctor clicks exited {}: {}",
            named.code,
            named.stderr.trim()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flinkclusters_their_statefulsets_and_submitter_are_listed_live() {
    let Some(h) = harness("flinkclusters_their_statefulsets_and_submitter_are_listed_live") else {
        return;
    };
    let _guard = cluster();
    seed(&scenario("mode-flinkcluster-submitter-failed"));
    let dir = tempdir("flinkcluster");
    let saved = dir.join("bundle");
    let run = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "-n",
            "scn-mode-flinkcluster-submitter",
            "--save",
            &saved.to_string_lossy(),
            "-o",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let line = report["clusters"]
        .as_array()
        .and_then(|a| a.iter().find(|c| s(c, "/name") == "wordcount").cloned())
        .unwrap_or_else(|| panic!("no overview line for wordcount: {report}"));
    assert_eq!(s(&line, "/mode"), "flinkcluster", "{line}");
    assert_eq!(s(&line, "/status"), "Running", "{line}");
    assert_eq!(
        s(&line, "/job"),
        "DeployFailed, submitter failed (exit 1)",
        "{line}"
    );
    let read = |file: &str| std::fs::read_to_string(saved.join(file)).unwrap_or_default();
    assert!(read("flinkclusters.yaml").contains("DeployFailed"));
    assert!(read("statefulsets.yaml").contains("wordcount-taskmanager"));
    assert!(read("jobs.yaml").contains("wordcount-job-submitter"));
    assert!(read("configmaps.yaml").contains("wordcount-configmap"));
    // The submitter pod has no `component` label; its log is read all the same.
    let log =
        saved.join("logs/scn-mode-flinkcluster-submitter/wordcount-job-submitter-x8d4t/main.log");
    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    assert!(text.contains("JAR file does not exist"), "{text}");
    // NAME narrows discovery to that FlinkCluster.
    let named = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "wordcount",
            "-n",
            "scn-mode-flinkcluster-submitter",
            "-o",
            "json",
        ],
    );
    assert_eq!(named.code, 1, "{}", named.stderr);
    let rules: Vec<String> = exact(&named.json()).into_iter().map(|l| l.rule).collect();
    assert_eq!(rules, vec!["FLK412".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_printed_fixes_work_live() {
    let Some(h) = harness("the_printed_fixes_work_live") else {
        return;
    };
    let _guard = cluster();
    let mut failures = Vec::new();
    // (bundle, namespace, the rule whose fix is run, the rules that must be gone afterwards,
    // whether its verify commands can pass here: no operator runs in the test cluster, so a fix
    // that the operator carries out is only checked to be accepted by the API server)
    let cases: &[(&str, &str, &str, &[&str], bool)] = &[
        (
            "mode-native-tm-forbidden",
            "scn-mode-native-forbidden",
            "FLK201",
            &["FLK201", "FLK501"],
            true,
        ),
        (
            "mode-native-ha-incomplete",
            "scn-mode-native-ha",
            "FLK302",
            &["FLK302"],
            true,
        ),
        (
            "mode-native-exposed",
            "scn-mode-native-exposed",
            "FLK420",
            &["FLK420"],
            true,
        ),
        (
            "mode-standalone-no-slots",
            "scn-mode-standalone-no-slots",
            "FLK203",
            &[],
            false,
        ),
        (
            "mode-lyft-deploy-failed",
            "scn-mode-lyft-failed",
            "FLK411",
            &["FLK411"],
            true,
        ),
    ];
    for (dir, ns, rule, gone, check_verify) in cases {
        seed(&scenario(dir));
        let before = doctor_live(h, ns);
        let Some(f) = findings(&before)
            .into_iter()
            .find(|f| s(f, "/rule") == *rule)
        else {
            failures.push(format!("{dir}: no {rule} finding live"));
            continue;
        };
        let fix = s(&f, "/fix").to_string();
        let cmds = commands(&fix);
        if cmds.is_empty() {
            failures.push(format!("{dir}: {rule}'s fix has no command to run:\n{fix}"));
            continue;
        }
        // The first command is the fix itself; later ones are alternatives or `port-forward`.
        let run = shell(h, &cmds[0]);
        if run.code != 0 {
            failures.push(format!(
                "{dir}: `{}` failed: {}",
                cmds[0],
                run.stderr.trim()
            ));
            continue;
        }
        // The verify command(s) now say what they promise.
        let verify = s(&f, "/verify").to_string();
        for line in verify
            .lines()
            .filter(|l| *check_verify && l.contains("# expect: "))
        {
            let (cmd, want) = line.split_once("# expect: ").unwrap();
            let want = want.split_whitespace().next().unwrap_or("").to_string();
            let cmd = cmd.trim().to_string();
            if cmd.contains("auth can-i") {
                let deadline = Instant::now() + Duration::from_secs(15);
                let (ok, last) = loop {
                    let last = shell(h, &cmd).stdout.trim().to_string();
                    if last == want || Instant::now() > deadline {
                        break (last == want, last);
                    }
                    std::thread::sleep(Duration::from_millis(250));
                };
                if !ok {
                    failures.push(format!(
                        "{dir}: `{cmd}` said {last:?} after the fix, want {want:?}"
                    ));
                }
            } else if cmd.contains("-o jsonpath") {
                let r = shell(h, &cmd);
                if !r.stdout.trim().starts_with(&want) {
                    failures.push(format!(
                        "{dir}: `{cmd}` printed {:?} after the fix, want {want:?}",
                        r.stdout.trim()
                    ));
                }
            }
        }
        wait_until(&format!("{dir}: {gone:?} gone"), || {
            let after = doctor_live(h, ns);
            findings(&after)
                .iter()
                .all(|f| !gone.contains(&s(f, "/rule")))
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn tempdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kubectl-flink-modes-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn fix_commands_are_cut_out_of_the_fix_text() {
    let fix = "Give it rights:\n\nkubectl apply -f - <<'EOF'\napiVersion: v1\nkind: X\nEOF\n\nor\n\n  kubectl patch x y -p '{}'\n";
    assert_eq!(
        commands(fix),
        [
            "kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: X\nEOF",
            "kubectl patch x y -p '{}'"
        ]
    );
}

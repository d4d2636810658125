//! `kubectl flink triage` from the outside: the binary on the fixture texts in tests/triage/,
//! read from a file and from standard input, in every output format, with a kubeconfig that
//! points at garbage (triage must never look at it).

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/triage")
        .join(name)
}

fn cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kubectl-flink"));
    c.env("KUBECONFIG", "/nonexistent/garbage:/dev/null/also-garbage")
        .env("NO_COLOR", "1")
        .env_remove("KUBERNETES_SERVICE_HOST");
    c
}

fn triage_file(file: &Path, extra: &[&str]) -> Output {
    cmd()
        .arg("triage")
        .arg(file)
        .args(extra)
        .output()
        .expect("run kubectl-flink")
}

fn triage_stdin(input: &[u8], args: &[&str]) -> Output {
    let mut child = cmd()
        .arg("triage")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kubectl-flink");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            stdout(o),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn findings(v: &Value) -> &Vec<Value> {
    v["findings"].as_array().expect("findings array")
}

fn categories(v: &Value) -> Vec<String> {
    findings(v)
        .iter()
        .map(|f| f["category"].as_str().unwrap().to_string())
        .collect()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

#[test]
fn the_canonical_403_chain_is_one_rbac_root_with_its_symptoms_and_the_jobmanager_role() {
    let o = triage_file(&fixture("jm-403-chain.log"), &["-o", "json"]);
    assert_eq!(code(&o), 1, "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    let f = findings(&v);
    assert_eq!(
        categories(&v),
        ["rbac_forbidden", "flink_fatal_exit"],
        "{v:#}"
    );
    let root = &f[0];
    assert!(root["causedBy"].is_null());
    assert_eq!(root["rule"], "SIG-K8S-FORBIDDEN");
    assert_eq!(root["severity"], "critical");
    assert_eq!(root["object"]["kind"], "ServiceAccount");
    assert_eq!(root["object"]["namespace"], "analytics");
    assert_eq!(root["object"]["name"], "flink");
    let fix = root["fix"].as_str().unwrap();
    // The planner's Role (the one doctor and can-i print): the JobManager's whole native set,
    // bound to the account it runs as, not a Role for the one refused verb.
    for part in [
        "kind: Role\nmetadata:\n  name: flink-jobmanager\n  namespace: analytics",
        "resources: [\"pods\"]\n    verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]",
        "subjects:\n  - kind: ServiceAccount\n    name: flink\n    namespace: analytics",
    ] {
        assert!(fix.contains(part), "{part}\n{fix}");
    }
    assert!(root["verify"].as_str().unwrap().contains(
        "kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink"
    ));
    // the 403 is printed three times: one finding, counted
    assert_eq!(root["count"], 3);
    let ev: Vec<&str> = root["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    // ... and each distinct line once, with where and how often it was printed.
    assert!(
        ev[0].starts_with("L11, L16 (x2): ") && ev[0].contains("pods is forbidden"),
        "{ev:?}"
    );
    assert_eq!(ev.len(), 2, "{ev:?}");
    // the symptoms: retries exhausted, RM fatal, entrypoint fatal, fatal thread, exit code 2
    let symptom = &f[1];
    assert_eq!(symptom["causedBy"], root["id"]);
    assert_eq!(symptom["count"], 5);
    let ev = symptom["evidence"].to_string();
    for line in ["L17: ", "L18: ", "L23: ", "L25: ", "L26: "] {
        assert!(ev.contains(line), "{line} missing from {ev}");
    }
}

#[test]
fn file_and_stdin_give_the_same_report_in_every_format() {
    let text = std::fs::read(fixture("jm-403-chain.log")).unwrap();
    for format in ["json", "table", "markdown"] {
        let from_file = triage_file(&fixture("jm-403-chain.log"), &["-o", format]);
        let from_dash = triage_stdin(&text, &["-", "-o", format]);
        let from_nothing = triage_stdin(&text, &["-o", format]);
        for o in [&from_file, &from_dash, &from_nothing] {
            assert_eq!(
                code(o),
                1,
                "{format}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                stdout(o).contains("flink-jobmanager"),
                "{format}: {}",
                stdout(o)
            );
        }
        if format == "json" {
            let ids = |o: &Output| {
                findings(&json(o))
                    .iter()
                    .map(|f| f["rule"].as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(ids(&from_file), ids(&from_dash));
            assert_eq!(ids(&from_file), ids(&from_nothing));
        }
    }
}

#[test]
fn operator_log() {
    let o = triage_file(&fixture("operator.log"), &["-o", "json"]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    let mut cats = categories(&v);
    cats.sort();
    assert_eq!(
        cats,
        [
            "crd_missing",
            "jobmanager_unreachable",
            "operator_rbac_missing"
        ],
        "{v:#}"
    );
    let rbac = findings(&v)
        .iter()
        .find(|f| f["category"] == "operator_rbac_missing")
        .unwrap();
    assert_eq!(rbac["count"], 2);
    let fix = rbac["fix"].as_str().unwrap();
    assert!(fix.contains("watchNamespaces"), "{fix}");
    // The planner's chart rules (FLK005's objects), bound to the operator's own account: they
    // grant the refused `create deployments.apps`.
    assert!(
        fix.contains("apiGroups: [\"apps\"]\n    resources: [\"deployments\"]"),
        "{fix}"
    );
    assert!(
        fix.contains(
            "  - kind: ServiceAccount\n    name: flink-operator\n    namespace: flink-operator\n"
        ),
        "{fix}"
    );
    let crd = findings(&v)
        .iter()
        .find(|f| f["category"] == "crd_missing")
        .unwrap();
    assert_eq!(crd["severity"], "info");
}

#[test]
fn kubectl_describe_of_an_oomkilled_taskmanager() {
    let o = triage_file(&fixture("describe-tm-oomkilled.txt"), &["-o", "json"]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    assert_eq!(categories(&v), ["oom_killed"], "{v:#}");
    let f = &findings(&v)[0];
    assert!(
        f["evidence"][0].as_str().unwrap().starts_with("L24: "),
        "{f:#}"
    );
    assert!(f["fix"]
        .as_str()
        .unwrap()
        .contains("spec.taskManager.resource.memory"));
}

#[test]
fn a_status_error_json_is_decoded_and_the_plugin_for_its_scheme_named() {
    let o = triage_file(&fixture("status-error.json"), &["-o", "json"]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    assert_eq!(categories(&v), ["filesystem_plugin_missing"], "{v:#}");
    let f = &findings(&v)[0];
    assert!(f["title"].as_str().unwrap().contains("gs://"), "{f:#}");
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("ENABLE_BUILT_IN_PLUGINS=flink-gs-fs-hadoop-<flink-version>.jar"),
        "{f:#}"
    );
    assert!(f["evidence"][0].as_str().unwrap().starts_with("L1: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 'gs'"), "{f:#}");
    // the same JSON pasted as `kubectl get flinkdeployment -o yaml` prints it
    let json_text = std::fs::read_to_string(fixture("status-error.json")).unwrap();
    let yaml = format!(
        "status:\n  error: '{}'\n  jobManagerDeploymentStatus: ERROR\n",
        json_text.trim().replace('\'', "''")
    );
    let o = triage_stdin(yaml.as_bytes(), &["-o", "json"]);
    assert_eq!(categories(&json(&o)), ["filesystem_plugin_missing"]);
}

#[test]
fn a_kubectl_apply_webhook_x509_error() {
    let o = triage_file(&fixture("apply-webhook-x509.txt"), &["-o", "json"]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    assert_eq!(categories(&v), ["webhook_cert_invalid"], "{v:#}");
    let f = &findings(&v)[0];
    assert!(f["title"]
        .as_str()
        .unwrap()
        .contains("validationwebhook.flink.apache.org"));
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("flink-operator-webhook-service.flink-operator.svc"),
        "{f:#}"
    );
    assert!(f["evidence"][0].as_str().unwrap().starts_with("L2: "));
}

#[test]
fn planted_secrets_are_masked_in_table_markdown_and_json() {
    let planted = [
        "AKIAPLNTD0000SECRET1",
        "Pl4ntedS3cretKey02",
        "Pl4ntedAzureKey03",
        "Pl4ntedGsKey04",
        "Pl4ntedPassw0rd05",
        "Pl4ntedT0ken06",
        "Pl4nted Quoted 07",
        "Pl4ntedUrlPass08",
        "Pl4ntedBearer09xyz",
        "Pl4ntedBasic10",
        "eyJhbGciOiJSUzI1NiIsImtpZCI6IlBsNG50ZWQxMSJ9",
        "MIIPl4ntedPem12",
        "Pl4ntedCred13",
        "Pl4ntedSig14",
        "Pl4nted Json 15",
        "Pl4ntedDenial16",
    ];
    let text = std::fs::read_to_string(fixture("secrets.log")).unwrap();
    for p in planted {
        assert!(text.contains(p), "fixture lacks {p}");
    }
    for format in ["table", "markdown", "json"] {
        for o in [
            triage_file(&fixture("secrets.log"), &["-o", format]),
            triage_stdin(text.as_bytes(), &["-o", format]),
        ] {
            assert_eq!(
                code(&o),
                1,
                "{format}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let out = stdout(&o);
            assert!(out.contains("***"), "{format}: nothing was masked?\n{out}");
            for p in planted {
                assert!(!out.contains(p), "{format} prints the secret {p}:\n{out}");
            }
            assert!(!out.contains("Pl4nted"), "{format}:\n{out}");
        }
    }
    // and the lines that carried them were found (the secrets were in evidence, not skipped)
    let v = json(&triage_file(&fixture("secrets.log"), &["-o", "json"]));
    let cats = categories(&v);
    for c in [
        "job_jar_not_found",
        "jvm_out_of_memory",
        "storage_access_denied",
        "webhook_rejected",
        "jobmanager_unreachable",
        "flink_fatal_exit",
    ] {
        assert!(cats.iter().any(|x| x == c), "{c} missing from {cats:?}");
    }
}

#[test]
fn healthy_logs_full_of_harmless_words_have_no_finding() {
    for name in ["healthy-jm.log", "healthy-tm.log"] {
        let o = triage_file(&fixture(name), &[]);
        assert_eq!(code(&o), 0, "{name}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("No known problem found"),
            "{name}: {}",
            stdout(&o)
        );
        let o = triage_file(&fixture(name), &["-o", "json"]);
        assert_eq!(code(&o), 0);
        assert!(findings(&json(&o)).is_empty());
        let o = triage_file(&fixture(name), &["-o", "markdown"]);
        assert!(stdout(&o).contains("No known problem found"));
    }
}

#[test]
fn empty_binary_and_crlf_input() {
    let o = triage_stdin(b"", &[]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("No known problem found"));
    let garbage: Vec<u8> = (0..3_000_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 11) as u8)
        .collect();
    let o = triage_stdin(&garbage, &["-o", "json"]);
    assert!(
        matches!(code(&o), 0 | 1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    json(&o);
    let crlf = std::fs::read_to_string(fixture("apply-webhook-x509.txt"))
        .unwrap()
        .replace('\n', "\r\n");
    let o = triage_stdin(crlf.as_bytes(), &["-o", "json"]);
    assert_eq!(categories(&json(&o)), ["webhook_cert_invalid"]);
    assert!(!stdout(&o).contains("\\r"));
}

#[test]
fn unreadable_input_is_a_usage_error() {
    let o = triage_file(Path::new("/nonexistent/jm.log"), &[]);
    assert_eq!(code(&o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/jm.log"));
    let o = triage_file(&fixture(""), &[]);
    assert_eq!(code(&o), 2, "a directory");
    let o = cmd()
        .args(["triage", "--fail-on", "sometimes"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
}

#[test]
fn fail_on_decides_the_exit_code() {
    let warning_only = b"2026-11-28 09:39:13,301 ERROR ActiveResourceManager [] - Fatal error occurred in ResourceManager.\n";
    assert_eq!(code(&triage_stdin(warning_only, &[])), 1);
    assert_eq!(
        code(&triage_stdin(warning_only, &["--fail-on", "critical"])),
        0
    );
    assert_eq!(
        code(&triage_stdin(warning_only, &["--fail-on", "never"])),
        0
    );
    assert_eq!(
        code(&triage_file(
            &fixture("jm-403-chain.log"),
            &["--fail-on", "critical"]
        )),
        1
    );
}

/// Lines the software really prints, in wordings the catalogue did not know (issue #31 item 3):
/// each names its cause first, whichever client, library or program printed it.
#[test]
fn shapes_of_refusals_unreachable_peers_and_memory_name_their_cause_first() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "io.kubernetes.client.openapi.ApiException: Forbidden\n\tat io.kubernetes.client.util.Watch.createWatch(Watch.java:115)\n",
            "rbac_forbidden",
            "SIG-JAVA-CLIENT-403",
        ),
        (
            "2021-06-01 12:00:20,000 WARN  akka.remote.Remoting - Tried to associate with unreachable remote address [akka.tcp://flink@10.0.0.7:6123]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters. Reason: [The remote system has quarantined this system. No further associations to the remote system are possible until this system is restarted.]\n",
            "jobmanager_unreachable",
            "SIG-AKKA-GATED-JM",
        ),
        (
            "2021-06-01 12:00:21,000 WARN  org.apache.pekko.remote.Remoting - Tried to associate with unreachable remote address [pekko.tcp://flink@10.0.0.8:6122]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters. Reason: [Connection refused]\n",
            "taskmanager_unreachable",
            "SIG-AKKA-GATED",
        ),
        (
            "/docker-entrypoint.sh: line 90: 1024 - : syntax error: operand expected (error token is \"- \")\n#\n# There is insufficient memory for the Java Runtime Environment to continue.\n# Native memory allocation (mmap) failed to map 268435456 bytes for committing reserved memory.\n",
            "memory_config_invalid",
            "SIG-JVM-NATIVE-MEMORY",
        ),
        (
            "java.util.concurrent.CompletionException: org.apache.flink.util.FlinkRuntimeException: Could not persist job graph\nCaused by: java.io.IOException: Could not open output stream for state backend\n\tat org.apache.flink.kubernetes.highavailability.KubernetesStateHandleStore.addAndLock(KubernetesStateHandleStore.java:150)\n2022-01-01 00:00:01,000 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint - Terminating cluster entrypoint process StandaloneApplicationClusterEntryPoint with exit code 1443.\n",
            "storage_access_denied",
            "SIG-STATE-STREAM-UNWRITABLE",
        ),
        (
            "Caused by: org.apache.flink.shaded.netty4.io.netty.channel.ConnectTimeoutException: connection timed out: flink-jobmanager/10.96.12.4:6123\n",
            "jobmanager_unreachable",
            "SIG-JM-PORT-UNREACHABLE",
        ),
        (
            "Error from server (Forbidden): flinkdeployments.flink.apache.org is forbidden: User \"jane@example.com\" cannot list resource \"flinkdeployments\" in API group \"flink.apache.org\" in the namespace \"analytics\"\n",
            "rbac_forbidden",
            "SIG-K8S-FORBIDDEN-USER",
        ),
        (
            "I installed the flink-kubernetes-operator with helm, but the operator pod is stuck in Pending for hours and never starts.\n",
            "operator_not_running",
            "DESC-OPERATOR-PENDING",
        ),
    ];
    for (text, category, rule) in cases {
        let v = json(&triage_stdin(text.as_bytes(), &["-o", "json"]));
        let first = findings(&v)
            .first()
            .unwrap_or_else(|| panic!("nothing found in {text:?}"));
        assert_eq!(first["category"], *category, "{text:?}: {v:#}");
        assert_eq!(first["rule"], *rule, "{text:?}: {v:#}");
    }
}

/// A specific finding ranks before a generic outcome from the same text, whatever their layers;
/// a text with only a generic outcome says so and names the text that would tell the cause.
#[test]
fn specific_before_generic_and_honest_when_only_the_outcome_is_known() {
    let exit = "2022-01-01 00:00:01,000 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint - Terminating cluster entrypoint process StandaloneSessionClusterEntrypoint with exit code 1443.\n";
    let gated = "2021-06-01 12:00:21,000 WARN  org.apache.pekko.remote.Remoting - Tried to associate with unreachable remote address [pekko.tcp://flink@10.0.0.8:6122]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters. Reason: [Connection refused]\n";
    let v = json(&triage_stdin(
        format!("{exit}{gated}").as_bytes(),
        &["-o", "json"],
    ));
    let cats = categories(&v);
    assert_eq!(
        cats.first().map(String::as_str),
        Some("taskmanager_unreachable"),
        "{v:#}"
    );
    assert!(
        !findings(&v)[0]["fix"]
            .as_str()
            .unwrap()
            .contains("--previous"),
        "{v:#}"
    );

    let v = json(&triage_stdin(exit.as_bytes(), &["-o", "json"]));
    assert_eq!(categories(&v), vec!["flink_fatal_exit"], "{v:#}");
    let fix = findings(&v)[0]["fix"].as_str().unwrap();
    assert!(
        fix.contains("Nothing in this text names the cause"),
        "{fix}"
    );
    // The pod the text does not name is a variable set at the top, not `<pod>` (a redirection).
    assert!(
        fix.starts_with("POD=...  # the pod that printed this\n")
            && fix.contains("kubectl logs \"${POD}\" -c flink-main-container --previous"),
        "{fix}"
    );

    let o = triage_stdin(b"all quiet here\n", &[]);
    assert!(
        stdout(&o).contains("kubectl describe pod <pod>"),
        "{}",
        stdout(&o)
    );
}

/// `sh -n` and `bash -n` on `script`: the shell's own parser says whether it pastes. `None` when
/// neither shell can be started (then the test says so, rather than passing quietly).
fn shell_errors(script: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for sh in ["sh", "bash"] {
        let out = Command::new(sh)
            .arg("-n")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(script.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap_or_else(|e| panic!("{sh} -n: {e}"));
        if !out.status.success() {
            errors.push(format!("{sh}: {}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    errors
}

/// Every fix triage prints over the fixtures (tests/triage, and the example bundles' logs)
/// pastes: the names it sets, then each command of the fix, then the verify commands, parse in
/// sh and bash, and no command holds a `<name>` (a redirection to a shell). A distinct evidence
/// line is shown once, and the header never says "(1 lines)".
#[test]
fn every_fix_triage_prints_over_the_fixtures_pastes_into_sh_and_bash() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut stack = vec![examples];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "log") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut checked = 0;
    for file in &files {
        let v = json(&triage_file(file, &["-o", "json"]));
        for f in findings(&v) {
            let fix = f["fix"].as_str().unwrap();
            let verify = f["verify"].as_str().unwrap();
            let commands = kubectl_flink::signatures::paste::commands(fix);
            let names: Vec<&String> = commands.iter().filter(|c| c.contains("=...")).collect();
            for c in commands.iter().chain(std::iter::once(&verify.to_string())) {
                assert!(
                    !regex_lite_open_name(c),
                    "{}: {}: a `<name>` in a command: {c}",
                    file.display(),
                    f["rule"]
                );
            }
            let script = format!(
                "{}\n{}\n{verify}\n",
                names
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                commands.join("\n")
            );
            let errors = shell_errors(&script);
            assert!(
                errors.is_empty(),
                "{}: {}: does not parse: {errors:?}\n{script}",
                file.display(),
                f["rule"]
            );
            let evidence: Vec<&str> = f["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap())
                .collect();
            let texts: Vec<&str> = evidence
                .iter()
                .map(|e| e.split_once(": ").map_or(*e, |(_, t)| t))
                .collect();
            let mut unique = texts.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), texts.len(), "{evidence:?}");
            checked += 1;
        }
        let table = stdout(&triage_file(file, &[]));
        assert!(!table.contains("(1 lines)"), "{table}");
    }
    assert!(checked >= 15, "only {checked} fixes checked");
}

/// `<pod>`, `<namespace>`, `<high-availability.storageDir>`: what a shell reads as `<` `pod` `>`.
fn regex_lite_open_name(command: &str) -> bool {
    command.match_indices('<').any(|(at, _)| {
        let rest = &command[at + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "-._".contains(*c))
            .collect();
        !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && rest[name.len()..].starts_with('>')
    })
}

/// A job that ran out of restarts: `Recovery is suppressed by ...` is how it stopped, and the
/// failure under it is why. The cause comes first, and the suppressed recovery is its symptom.
#[test]
fn running_out_of_restarts_is_explained_by_the_failure_it_wraps() {
    let text = "2026-12-05 20:00:00,000 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Job orders (5b8c7e3f9a1d4c2e8f0a6b7c9d1e2f3a) switched from state RUNNING to FAILING.\n\
org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n\
\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:219)\n\
Caused by: java.io.IOException: Insufficient number of network buffers: required 65, but only 16 available. The total number of network buffers is currently set to 2048 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max'.\n\
\tat org.apache.flink.runtime.io.network.buffer.NetworkBufferPool.internalCreateBufferPool(NetworkBufferPool.java:495)\n";
    let v = json(&triage_stdin(text.as_bytes(), &["-o", "json"]));
    let f = findings(&v);
    assert_eq!(
        categories(&v),
        ["memory_config_invalid", "flink_fatal_exit"],
        "{v:#}"
    );
    assert_eq!(f[0]["rule"], "SIG-NETWORK-BUFFERS-INSUFFICIENT", "{v:#}");
    assert!(
        f[0]["fix"]
            .as_str()
            .unwrap()
            .contains("taskmanager.memory.network.min: \"66m\""),
        "{v:#}"
    );
    assert_eq!(f[1]["rule"], "SIG-RESTARTS-EXHAUSTED", "{v:#}");
    assert_eq!(f[1]["causedBy"], f[0]["id"], "{v:#}");

    // alone, the suppressed recovery says what stopped the job, and is no cause itself
    let v = json(&triage_stdin(
        b"org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n",
        &["-o", "json"],
    ));
    assert_eq!(categories(&v), ["flink_fatal_exit"], "{v:#}");
}

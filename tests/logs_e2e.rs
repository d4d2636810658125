//! End-to-end tests of `kubectl flink logs`: the real binary against a real kube-apiserver, which
//! proxies `pods/log` to the fake kubelet serving files (scripts/test-cluster.sh).
//!
//! Run with `scripts/test-cluster.sh run cargo test --workspace` (or `--test logs_e2e`). Without the
//! harness these tests FAIL when `CI` is set and print a loud SKIPPED message otherwise.
//!
//! Each test seeds its own namespace from a bundle it writes in a temporary directory: a native
//! Flink deployment `orders` (a JobManager pod with two containers, two TaskManager pods, current
//! and previous logs) plus a pod of another application that must never show up.

mod common;
mod logs_common;
use logs_common::*;

use chrono::{DateTime, Duration as ChronoDuration, Utc};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------ tests

#[test]
fn every_pod_of_the_deployment_prefixed_in_stable_order() {
    let Some(h) = harness_or_skip("every_pod_of_the_deployment_prefixed_in_stable_order") else {
        return;
    };
    let f = seed(h, "order", 12);
    let (code, out, err) = flink(h, &["logs", "orders", "-n", &f.ns]);
    assert_eq!(code, 0, "stderr: {err}");
    // The main container of each pod, JobManager first, TaskManagers by name.
    let jm = pos(&out, &format!("{JM}/{MAIN} "));
    let tm1 = pos(&out, &format!("{TM1}/{MAIN} "));
    let tm2 = pos(&out, &format!("{TM2}/{MAIN} "));
    assert!(jm < tm1 && tm1 < tm2, "{out}");
    assert!(
        out.contains("JM-CURRENT line 0") && out.contains("TM2-CURRENT line 9"),
        "{out}"
    );
    // Not the sidecar by default, never another application's pod, never a previous instance.
    assert!(
        !out.contains("SIDECAR") && !out.contains("WEB") && !out.contains("JM-PREVIOUS"),
        "{out}"
    );
    for l in out.lines() {
        assert!(
            l.starts_with(&format!("{JM}/{MAIN} ")) || l.starts_with("orders-taskmanager-1-"),
            "unprefixed: {l}"
        );
    }
    // The JobManager restarted: say how to see the crashed instance.
    assert!(err.contains("restarted") && err.contains("-p"), "{err}");

    // Several containers.
    let (code, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--all-containers",
            "--component",
            "jobmanager",
        ],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("{JM}/{SIDECAR} ")) && out.contains("SIDECAR line 0"),
        "{out}"
    );
    assert!(
        pos(&out, &format!("{JM}/{MAIN} ")) < pos(&out, &format!("{JM}/{SIDECAR} ")),
        "{out}"
    );
    assert!(!out.contains("TM1-CURRENT"), "{out}");
    let (code, out, _) = flink(h, &["logs", "orders", "-n", &f.ns, "-c", SIDECAR]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .all(|l| l.starts_with(&format!("{JM}/{SIDECAR} "))),
        "{out}"
    );

    // -l for anything else; --no-prefix.
    let (code, out, _) = flink(h, &["logs", "-l", "app=web", "-n", &f.ns, "--no-prefix"]);
    assert_eq!(code, 0);
    assert!(
        out.lines().count() == 5 && out.lines().all(|l| l.contains("WEB line")),
        "{out}"
    );
}

#[test]
fn previous_tail_since_grep_and_timestamps() {
    let Some(h) = harness_or_skip("previous_tail_since_grep_and_timestamps") else {
        return;
    };
    let f = seed(h, "flags", 12);

    let (code, out, err) = flink(h, &["logs", "orders", "-n", &f.ns, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .all(|l| l.starts_with(&format!("{JM}/{MAIN} [previous] "))),
        "{out}"
    );
    assert!(
        out.contains("JM-PREVIOUS line 0")
            && out.contains("Fatal error occurred in the cluster entrypoint"),
        "{out}"
    );
    // TaskManagers never restarted: said once, with what to change.
    assert!(
        err.contains("no previous instance") && err.contains(TM1) && err.contains("drop -p"),
        "{err}"
    );

    let (code, out, _) = flink(h, &["logs", "orders", "-n", &f.ns, "--tail", "2"]);
    assert_eq!(code, 0);
    for p in [JM, TM1, TM2] {
        assert_eq!(out.lines().filter(|l| l.starts_with(p)).count(), 2, "{out}");
    }
    assert!(
        out.contains("JM-CURRENT line 11")
            && !out.lines().any(|l| l.ends_with("JM-CURRENT line 9")),
        "{out}"
    );

    // --since: only the lines of the last five minutes (the rest are two hours old); all of them.
    let (code, out, _) = flink(h, &["logs", "orders", "-n", &f.ns, "--since", "5m"]);
    assert_eq!(code, 0);
    assert!(
        !out.contains("line 0")
            && out.contains("JM-CURRENT line 11")
            && out.contains("TM1-CURRENT line 8"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with(TM1)).count(),
        2,
        "{out}"
    );
    let since_time = rfc3339(f.now - ChronoDuration::minutes(5));
    let (code, out2, _) = flink(
        h,
        &["logs", "orders", "-n", &f.ns, "--since-time", &since_time],
    );
    assert_eq!(code, 0);
    assert_eq!(out, out2);

    let (code, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--grep",
            "line (3|7)$",
            "--tail=-1",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 6, "{out}");

    let (code, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--timestamps",
            "--tail",
            "1",
            "-c",
            MAIN,
        ],
    );
    assert_eq!(code, 0);
    for l in out.lines() {
        let ts = l.split(' ').nth(1).unwrap_or("");
        assert!(
            DateTime::parse_from_rfc3339(ts).is_ok(),
            "no timestamp after the prefix: {l}"
        );
    }
}

#[test]
fn json_lines_carry_the_403_signature() {
    let Some(h) = harness_or_skip("json_lines_carry_the_403_signature") else {
        return;
    };
    let f = seed(h, "json", 12);
    let (code, out, err) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "-o",
            "json",
            "--timestamps",
            "--component",
            "jobmanager",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(records.len(), 13, "{out}");
    for r in &records {
        assert_eq!(r["pod"], JM);
        assert_eq!(r["container"], MAIN);
        assert_eq!(r["previous"], false);
        assert!(
            r["timestamp"]
                .as_str()
                .is_some_and(|t| DateTime::parse_from_rfc3339(t).is_ok()),
            "{r}"
        );
        // The kubelet's timestamp is split off the line.
        let (ts, line) = (
            r["timestamp"].as_str().unwrap_or(""),
            r["line"].as_str().unwrap_or(""),
        );
        assert!(!line.starts_with(ts) && line.contains("- "), "{r}");
    }
    let hits: Vec<&Value> = records
        .iter()
        .filter(|r| !r["signature"].is_null())
        .collect();
    assert_eq!(hits.len(), 1, "{out}");
    // The seeded JobManager runs as the namespace's `default` ServiceAccount: the 403 is read as
    // that cause, as doctor and triage read it.
    assert_eq!(hits[0]["signature"], "SIG-K8S-FORBIDDEN-DEFAULT-SA");
    assert_eq!(hits[0]["category"], "default_service_account");
    assert!(
        hits[0]["line"]
            .as_str()
            .unwrap_or("")
            .contains("is forbidden"),
        "{out}"
    );

    // The same line highlighted in the table output when asked for (no colour: stdout is a pipe).
    let (_, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--highlight",
            "--component",
            "jobmanager",
        ],
    );
    let marked: Vec<&str> = out.lines().filter(|l| l.contains('⟵')).collect();
    assert_eq!(marked.len(), 1, "{out}");
    assert!(
        marked[0].contains("is forbidden") && marked[0].contains("⟵ default_service_account:"),
        "{out}"
    );
    let (_, coloured, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--color",
            "always",
            "--component",
            "jobmanager",
        ],
    );
    assert!(
        coloured.contains("\x1b[31m") && coloured.contains('⟵'),
        "{coloured}"
    );
}

#[test]
fn errors_and_exit_codes() {
    let Some(h) = harness_or_skip("errors_and_exit_codes") else {
        return;
    };
    let f = seed(h, "errors", 5);
    let (code, out, err) = flink(h, &["logs", "nosuchapp", "-n", &f.ns]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    assert!(
        err.contains("no pods match") && err.contains("app=nosuchapp"),
        "{err}"
    );
    let (code, _, err) = flink(h, &["logs", "orders", "-n", &f.ns, "-c", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nope") && err.contains(SIDECAR), "{err}");
    // May list pods but not read their logs.
    let (code, _, err) = run_as(h, &h.limited, &["logs", "orders", "-n", &f.ns]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("forbidden"), "{err}");
    // The same with -f, which may not watch pods either: it ends too, it does not wait.
    let (code, _, err) = run_as(h, &h.limited, &["logs", "orders", "-n", &f.ns, "-f"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("error: cannot read any pod's log") && err.contains("forbidden"),
        "{err}"
    );
    // Nothing listens there.
    let dir = tempfile::tempdir().expect("tmp");
    let kc = dir.path().join("kubeconfig");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:9\"}}]\n\
         users: [{name: u, user: {token: x}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n",
    )
    .expect("write kubeconfig");
    let (code, _, err) = run_as(h, &kc, &["logs", "orders", "--request-timeout", "5s"]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = run_as(h, &kc, &["logs", "orders", "-f", "--request-timeout", "5s"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("list pods in namespace default"), "{err}");
}

#[test]
fn closed_stdout_is_not_an_error_and_bytes_are_shown_safely() {
    let Some(h) = harness_or_skip("closed_stdout_is_not_an_error_and_bytes_are_shown_safely")
    else {
        return;
    };
    let f = seed(h, "pipe", 60_000);
    // Non-UTF-8 bytes in a log.
    let tm = h.log_root.join(&f.ns).join(TM1).join(format!("{MAIN}.log"));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&tm)
        .expect("open TM log");
    file.write_all(b"bad bytes \xff\xfe here\n")
        .expect("append");
    drop(file);
    let (code, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &f.ns,
            "--component",
            "taskmanager",
            "--tail",
            "1",
        ],
    );
    assert_eq!(code, 0);
    assert!(out.contains("bad bytes \u{fffd}\u{fffd} here"), "{out}");

    // `| head -1`: read one line, close the pipe.
    let mut child = flink_cmd(h, &h.e2e, &["logs", "orders", "-n", &f.ns, "--tail=-1"])
        .spawn()
        .expect("start");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first line");
    assert!(first.starts_with(JM), "{first}");
    drop(stdout);
    let out = wait_output(&mut child, Duration::from_secs(60), &["logs", "| head"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn follow_picks_up_new_pods_restarts_and_deletions() {
    let Some(h) = harness_or_skip("follow_picks_up_new_pods_restarts_and_deletions") else {
        return;
    };
    let f = seed(h, "follow", 12);
    let ns = f.ns.as_str();
    let fl = Follower::start(h, &["logs", "orders", "-n", ns, "-f"]);
    let following = Instant::now();
    // Each container's lines arrive as they come: wait for the last initial line of each.
    fl.wait_out("the JobManager's initial lines", "JM-CURRENT line 11");
    fl.wait_out("TM1's initial lines", "TM1-CURRENT line 9");
    fl.wait_out("TM2's initial lines", "TM2-CURRENT line 9");
    assert_eq!(fl.count_out("JM-CURRENT line 0"), 1);

    // A line appended to a running container.
    let tm1_log = h.log_root.join(ns).join(TM1).join(format!("{MAIN}.log"));
    let append = |path: &Path, line: &str| {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .expect("open log");
        writeln!(file, "{line}").expect("append");
    };
    append(
        &tm1_log,
        &format!("{} INFO  x [] - TM1-APPENDED", log4j(Utc::now())),
    );
    fl.wait_out("an appended line", "TM1-APPENDED");

    // A TaskManager pod appears mid-stream.
    let started = Utc::now();
    let tm3_dir = h.log_root.join(ns).join(TM3);
    std::fs::create_dir_all(&tm3_dir).expect("mkdir");
    std::fs::write(
        tm3_dir.join(format!("{MAIN}.log")),
        format!("{} INFO  x [] - TM3-FIRST\n", log4j(started)),
    )
    .expect("write TM3 log");
    let pod = pod_yaml(ns, TM3, TM_LABELS, &[MAIN], &[], &h.node, started);
    let spec_only = pod.split("status:").next().unwrap_or(&pod).to_string();
    kubectl(h, &["create", "-f", "-"], Some(&spec_only));
    let status = format!(
        "{{\"status\":{{\"phase\":\"Running\",\"containerStatuses\":[{{\"name\":\"{MAIN}\",\"image\":\"flink:1.20\",\"imageID\":\"x\",\
         \"ready\":true,\"restartCount\":0,\"state\":{{\"running\":{{\"startedAt\":\"{}\"}}}}}}]}}}}",
        rfc3339(started)
    );
    kubectl(
        h,
        &[
            "-n",
            ns,
            "patch",
            "pod",
            TM3,
            "--subresource=status",
            "--type=merge",
            "-p",
            &status,
        ],
        None,
    );
    fl.wait_err(
        "the new pod noticed",
        &format!("pod/{TM3} (TaskManager) appeared"),
    );
    fl.wait_out("the new pod's first line", &format!("{TM3}/{MAIN} "));
    fl.wait_out("the new pod's first line", "TM3-FIRST");
    append(
        &tm3_dir.join(format!("{MAIN}.log")),
        &format!("{} INFO  x [] - TM3-SECOND", log4j(Utc::now())),
    );
    fl.wait_out("a line appended to the new pod", "TM3-SECOND");

    // TM1 restarts: the old instance's log becomes the previous one, the new one starts empty-ish.
    let restarted = Utc::now();
    std::fs::rename(
        &tm1_log,
        tm1_log.with_file_name(format!("{MAIN}.previous.log")),
    )
    .expect("rotate");
    std::fs::write(
        &tm1_log,
        format!("{} INFO  x [] - TM1-NEW-INSTANCE\n", log4j(restarted)),
    )
    .expect("write new instance");
    let status = format!(
        "{{\"status\":{{\"containerStatuses\":[{{\"name\":\"{MAIN}\",\"image\":\"flink:1.20\",\"imageID\":\"x\",\"ready\":true,\
         \"restartCount\":1,\"state\":{{\"running\":{{\"startedAt\":\"{}\"}}}},\"lastState\":{{\"terminated\":{{\"exitCode\":239,\
         \"reason\":\"Error\",\"startedAt\":\"{}\",\"finishedAt\":\"{}\"}}}}}}]}}}}",
        rfc3339(restarted),
        rfc3339(started - ChronoDuration::minutes(30)),
        rfc3339(restarted)
    );
    kubectl(
        h,
        &[
            "-n",
            ns,
            "patch",
            "pod",
            TM1,
            "--subresource=status",
            "--type=merge",
            "-p",
            &status,
        ],
        None,
    );
    fl.wait_err(
        "the restart noticed",
        &format!("{TM1}/{MAIN} restarted (restart 1)"),
    );
    fl.wait_out("the new instance's line", "TM1-NEW-INSTANCE");
    append(
        &tm1_log,
        &format!("{} INFO  x [] - TM1-NEW-SECOND", log4j(Utc::now())),
    );
    fl.wait_out("a line of the new instance", "TM1-NEW-SECOND");

    // TM2 is deleted: said once.
    kubectl(
        h,
        &[
            "-n",
            ns,
            "delete",
            "pod",
            TM2,
            "--grace-period=0",
            "--force",
        ],
        None,
    );
    fl.wait_err(
        "the deletion noticed",
        &format!("pod/{TM2} (TaskManager) is gone"),
    );

    // New pods, restarts and deletions came from a watch: the pods were listed once per selector
    // (the Apache operator's labels, Lyft's and the FlinkCluster's), never again, however long it followed. (It
    // follows for at least 5 s, so that listing every 2 s would show here.)
    std::thread::sleep(
        Duration::from_millis(500).max(Duration::from_secs(5).saturating_sub(following.elapsed())),
    );
    let requests = pod_requests(h, ns);
    let count = |verb: &str, stage: &str| {
        requests
            .iter()
            .filter(|(v, s)| v == verb && s == stage)
            .count()
    };
    assert_eq!(count("list", "ResponseComplete"), 3, "{requests:?}");
    // (A watch that ended is started again from where it got to, without a list.)
    assert!(count("watch", "ResponseStarted") >= 3, "{requests:?}");
    let (code, out, err) = fl.interrupt();
    assert_eq!(code, 0, "Ctrl-C exits 0\n{}", err.join("\n"));
    // Nothing printed twice, nothing dropped.
    for needle in [
        "JM-CURRENT line 0",
        "TM1-APPENDED",
        "TM3-FIRST",
        "TM3-SECOND",
        "TM1-NEW-INSTANCE",
        "TM1-NEW-SECOND",
    ] {
        assert_eq!(
            out.iter().filter(|l| l.contains(needle)).count(),
            1,
            "{needle} once:\n{}",
            out.join("\n")
        );
    }
    assert_eq!(
        err.iter().filter(|l| l.contains("is gone")).count(),
        1,
        "{}",
        err.join("\n")
    );
    assert_eq!(
        err.iter().filter(|l| l.contains("appeared")).count(),
        1,
        "{}",
        err.join("\n")
    );
}

#[test]
fn follow_waits_for_pods_and_warns_at_the_stream_cap() {
    let Some(h) = harness_or_skip("follow_waits_for_pods_and_warns_at_the_stream_cap") else {
        return;
    };
    let f = seed(h, "cap", 12);
    let ns = f.ns.as_str();

    // Three containers, two allowed: warned once, and the first two (in order) are followed.
    let fl = Follower::start(
        h,
        &["logs", "orders", "-n", ns, "-f", "--max-log-requests", "2"],
    );
    fl.wait_err("the cap warning", "--max-log-requests 2");
    fl.wait_out("the followed streams", "TM1-CURRENT line 9");
    let err = fl.stderr.lock().unwrap().join("\n");
    assert!(
        err.contains("following 2 of 3") && err.contains(TM2),
        "{err}"
    );
    assert_eq!(fl.count_out("TM2-CURRENT"), 0);
    let (code, _, err) = fl.interrupt();
    assert_eq!(code, 0);
    assert_eq!(
        err.iter()
            .filter(|l| l.contains("--max-log-requests"))
            .count(),
        1,
        "{}",
        err.join("\n")
    );

    // Without -f the cap only bounds concurrency: everything is printed, no warning.
    let (code, out, err) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            ns,
            "--max-log-requests",
            "1",
            "--all-containers",
        ],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("SIDECAR line 9")
            && out.contains("TM2-CURRENT line 9")
            && !err.contains("warning"),
        "{err}"
    );

    // A name with no pods yet: with -f, wait (said once) and pick them up when they come.
    let fl = Follower::start(h, &["logs", "later", "-n", ns, "-f"]);
    fl.wait_err("the waiting note", "waiting for them to appear");
    let started = Utc::now();
    let dir = h.log_root.join(ns).join("later-taskmanager-1-1");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join(format!("{MAIN}.log")),
        format!("{} INFO  x [] - LATER-FIRST\n", log4j(started)),
    )
    .expect("write");
    let pod = pod_yaml(
        ns,
        "later-taskmanager-1-1",
        "{app: later, component: taskmanager, type: flink-native-kubernetes}",
        &[MAIN],
        &[],
        &h.node,
        started,
    );
    kubectl(
        h,
        &["create", "-f", "-"],
        Some(pod.split("status:").next().unwrap_or(&pod)),
    );
    let status = format!(
        "{{\"status\":{{\"phase\":\"Running\",\"containerStatuses\":[{{\"name\":\"{MAIN}\",\"image\":\"flink:1.20\",\"imageID\":\"x\",\
         \"ready\":true,\"restartCount\":0,\"state\":{{\"running\":{{\"startedAt\":\"{}\"}}}}}}]}}}}",
        rfc3339(started)
    );
    kubectl(
        h,
        &[
            "-n",
            ns,
            "patch",
            "pod",
            "later-taskmanager-1-1",
            "--subresource=status",
            "--type=merge",
            "-p",
            &status,
        ],
        None,
    );
    fl.wait_out("the late pod's line", "LATER-FIRST");
    let (code, _, err) = fl.interrupt();
    assert_eq!(code, 0);
    assert_eq!(
        err.iter()
            .filter(|l| l.contains("waiting for them"))
            .count(),
        1,
        "{}",
        err.join("\n")
    );
}

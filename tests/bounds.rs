//! Every read is bounded: hostile API servers on loopback (a log that trickles forever, an
//! endless list body, thousands of namespaces), hostile files in the kubeconfig (FIFOs,
//! /dev/zero, a 10 GB sparse file) and hostile exec credential plugins (one that never answers,
//! one that prints without end). Each command must END, within a generous bound, with its
//! documented exit code and one line on stderr, and stay within a generous memory guard.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// A finished run: exit code, output, how long it took and its peak resident memory.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
    peak_rss_mb: u64,
}

impl Run {
    fn assert_one_line(&self, code: i32, mentions: &str) {
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        assert_eq!(
            self.code, code,
            "exit code; stdout {} stderr {}",
            self.stdout, self.stderr
        );
        let lines: Vec<&str> = self.stderr.trim_end().lines().collect();
        assert_eq!(lines.len(), 1, "one line on stderr: {:?}", self.stderr);
        assert!(lines[0].starts_with("error: "), "{:?}", lines[0]);
        assert!(
            lines[0].to_lowercase().contains(&mentions.to_lowercase()),
            "{:?} should mention {mentions:?}",
            lines[0]
        );
    }
}

/// The binary with `args` and `env`, killed past `secs` (then exit -1); its peak RSS is read
/// from /proc while it runs (VmHWM), as a guard, not a measurement.
fn run_bounded(args: &[&str], env: &[(&str, &str)], secs: u64) -> Run {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("KUBECONFIG")
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .env("HOME", home.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("run kubectl-flink");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let code = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            for l in text.lines() {
                if let Some(v) = l.strip_prefix("VmHWM:") {
                    let kb = v.trim().trim_end_matches(" kB").trim().parse().unwrap_or(0);
                    peak_kb = peak_kb.max(kb);
                }
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code,
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
        took: started.elapsed(),
        peak_rss_mb: peak_kb >> 10,
    }
}

/// A server on loopback that hands each connection, its request line and headers read, to
/// `respond` on a thread of its own.
fn server(respond: fn(&str, &mut TcpStream)) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { continue };
            std::thread::spawn(move || {
                let mut r = BufReader::new(s.try_clone().unwrap());
                let mut line = String::new();
                let _ = r.read_line(&mut line);
                loop {
                    let mut h = String::new();
                    if r.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                        break;
                    }
                }
                respond(&line, &mut s);
            });
        }
    });
    port
}

fn answer(s: &mut TcpStream, status: &str, body: &str) {
    let _ = write!(
        s,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// One running JobManager pod of the Flink deployment `orders`, restarted once (so `-p` has a
/// previous instance to read), in every pod list.
const POD_LIST: &str = r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[
 {"metadata":{"name":"orders-jm-1","namespace":"default","labels":{"app":"orders","component":"jobmanager","type":"flink-native-kubernetes"}},
  "spec":{"containers":[{"name":"flink-main-container","image":"flink"}]},
  "status":{"phase":"Running","containerStatuses":[{"name":"flink-main-container","image":"flink","imageID":"","ready":true,"restartCount":1,
   "state":{"running":{"startedAt":"2026-01-01T00:00:00Z"}},
   "lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-01-01T00:00:00Z","finishedAt":"2026-01-01T00:00:00Z"}}}]}}]}"#;

fn kubeconfig(dir: &Path, server: &str, user: &str) -> PathBuf {
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"{server}\"}}\nusers:\n- name: u\n  user:\n{user}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u, namespace: default}}\ncurrent-context: x\n"
        ),
    )
    .unwrap();
    path
}

const TOKEN_USER: &str = "    token: t\n";

#[test]
fn logs_without_follow_end_at_the_run_deadline_when_a_log_trickles_forever() {
    // Lists answer at once; every log answers its headers, then a byte every 100 ms, never
    // ending (never silent long enough for the 500 ms read timeout).
    let port = server(|line, s| {
        if line.contains("/log") {
            let _ = s.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n",
            );
            for _ in 0..6000 {
                std::thread::sleep(Duration::from_millis(100));
                if s.write_all(b"1\r\nx\r\n").is_err() {
                    return;
                }
            }
        } else if line.contains("/pods") {
            answer(s, "200 OK", POD_LIST);
        } else {
            answer(
                s,
                "404 Not Found",
                r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#,
            );
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"), TOKEN_USER);
    let kc = cfg.to_str().unwrap();
    for extra in [&[][..], &["-p"]] {
        let mut args = vec![
            "logs",
            "orders",
            "--kubeconfig",
            kc,
            "--request-timeout=500ms",
        ];
        args.extend(extra);
        let r = run_bounded(&args, &[], 60);
        // 10 x --request-timeout: 5 s.
        assert!(r.took < Duration::from_secs(30), "{args:?}: {:?}", r.took);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert_eq!(r.code, 3, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("gave up after 5 s"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// Headers, then an endless body of spaces at full speed.
fn endless(s: &mut TcpStream) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"kind\":\"PodList\",\"items\":[";
    if s.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = vec![b' '; 1 << 20];
    // Up to 4 GiB: more than the client may ever hold.
    for _ in 0..4096 {
        if s.write_all(&chunk).is_err() {
            return;
        }
    }
}

#[test]
fn an_endless_list_body_is_cut_off_for_logs_follow_and_doctor() {
    let port = server(|_, s| endless(s));
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"), TOKEN_USER);
    let kc = cfg.to_str().unwrap();
    for args in [
        &["logs", "orders", "-f", "--kubeconfig", kc][..],
        &["doctor", "--kubeconfig", kc, "--request-timeout=10s"],
    ] {
        let r = run_bounded(args, &[], 120);
        r.assert_one_line(3, "");
        // Each answer is cut at 64 MiB; a generous guard, far below the gigabytes of before.
        assert!(
            r.peak_rss_mb < 1024,
            "{args:?}: peak RSS {} MB",
            r.peak_rss_mb
        );
        eprintln!("{args:?}: peak RSS {} MB in {:?}", r.peak_rss_mb, r.took);
    }
}

#[test]
fn lists_over_thousands_of_namespaces_run_a_few_at_a_time() {
    static OPEN: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    let port = server(|_, s| {
        let now = OPEN.fetch_add(1, SeqCst) + 1;
        PEAK.fetch_max(now, SeqCst);
        ASKED.fetch_add(1, SeqCst);
        std::thread::sleep(Duration::from_millis(20));
        OPEN.fetch_sub(1, SeqCst);
        answer(
            s,
            "200 OK",
            r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}"#,
        );
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &format!("http://127.0.0.1:{port}"), TOKEN_USER);
    let namespaces: Vec<String> = (0..500).map(|i| format!("ns{i}")).collect();
    let ns = namespaces.join(",");
    let r = run_bounded(
        &[
            "logs",
            "orders",
            "-n",
            &ns,
            "--kubeconfig",
            cfg.to_str().unwrap(),
        ],
        &[],
        120,
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(ASKED.load(SeqCst) >= 500, "{} lists", ASKED.load(SeqCst));
    let peak = PEAK.load(SeqCst);
    assert!(peak <= 32, "{peak} requests at once");
}

/// A kubeconfig whose user (YAML under `user:`) is `user`, against a server that answers
/// every list with no pods and records the Authorization header it was sent.
fn exec_kubeconfig(dir: &Path, script: &str) -> PathBuf {
    let plugin = dir.join("plugin.sh");
    std::fs::write(&plugin, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&plugin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let user = format!(
        "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      interactiveMode: Never\n",
        plugin.display()
    );
    kubeconfig(dir, "http://127.0.0.1:9", &user)
}

#[test]
fn an_exec_plugin_that_never_answers_or_prints_without_end_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let hang = exec_kubeconfig(dir.path(), "exec sleep 1000");
    let kc = hang.to_str().unwrap();
    for args in [
        &["doctor", "--kubeconfig", kc][..],
        &["can-i", "orders", "--kubeconfig", kc],
        &["logs", "orders", "--kubeconfig", kc],
    ] {
        let mut args = args.to_vec();
        args.push("--request-timeout=5s");
        let r = run_bounded(&args, &[], 60);
        r.assert_one_line(3, "exec plugin");
        assert!(
            r.stderr.contains("did not answer within 10s"),
            "{}",
            r.stderr
        );
        assert!(r.took < Duration::from_secs(30), "{args:?}: {:?}", r.took);
    }
    let dir = tempfile::tempdir().unwrap();
    let yes = exec_kubeconfig(dir.path(), "exec yes");
    let r = run_bounded(&["doctor", "--kubeconfig", yes.to_str().unwrap()], &[], 60);
    r.assert_one_line(2, "printed more than 1024 KiB");
    assert!(r.peak_rss_mb < 256, "peak RSS {} MB", r.peak_rss_mb);
}

#[test]
fn an_exec_plugins_token_is_what_requests_carry() {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in listener.incoming().take(50) {
            let Ok(mut s) = s else { continue };
            let mut r = BufReader::new(s.try_clone().unwrap());
            loop {
                let mut h = String::new();
                if r.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                    break;
                }
                if h.to_ascii_lowercase().starts_with("authorization:") {
                    SEEN.lock().unwrap().push(h.trim().to_string());
                }
            }
            answer(
                &mut s,
                "401 Unauthorized",
                r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#,
            );
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = exec_kubeconfig(
        dir.path(),
        r#"echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-the-plugin"}}'"#,
    );
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("http://127.0.0.1:9", &format!("http://127.0.0.1:{port}"));
    std::fs::write(&cfg, text).unwrap();
    let r = run_bounded(
        &[
            "can-i",
            "orders",
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "--request-timeout=5s",
        ],
        &[],
        60,
    );
    r.assert_one_line(3, "Unauthorized");
    let seen = SEEN.lock().unwrap();
    assert!(!seen.is_empty(), "no request reached the server");
    assert!(
        seen.iter().all(|h| h.ends_with("Bearer from-the-plugin")),
        "{seen:?}"
    );
}

#[test]
fn special_and_oversize_files_in_the_kubeconfig_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let sparse = d.join("sparse");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(10 << 30)
        .unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero")).unwrap();
    let zero = d.join("zero");
    let (fifo, sparse, zero) = (
        fifo.to_str().unwrap(),
        sparse.to_str().unwrap(),
        zero.to_str().unwrap(),
    );
    let cases: Vec<(String, String)> = vec![
        (
            format!("    client-certificate: {zero}\n    client-key: {zero}\n"),
            format!("user u's client-certificate {zero}: not a regular file"),
        ),
        (
            "    tokenFile: /dev/zero\n".to_string(),
            "user u's tokenFile /dev/zero: not a regular file".into(),
        ),
        (
            format!("    tokenFile: {fifo}\n"),
            format!("user u's tokenFile {fifo}: not a regular file"),
        ),
        (
            format!("    tokenFile: {sparse}\n"),
            format!("user u's tokenFile {sparse}: larger than 16 MiB"),
        ),
    ];
    for (user, want) in cases {
        let cfg = kubeconfig(d, "http://127.0.0.1:9", &user);
        for args in [
            &["doctor", "--kubeconfig", cfg.to_str().unwrap()][..],
            &[
                "logs",
                "orders",
                "-f",
                "--kubeconfig",
                cfg.to_str().unwrap(),
            ],
        ] {
            let r = run_bounded(args, &[], 30);
            r.assert_one_line(2, &want);
        }
    }
    // The kubeconfig itself: by flag and by KUBECONFIG.
    for path in [fifo, sparse, zero] {
        let r = run_bounded(&["doctor", "--kubeconfig", path], &[], 30);
        r.assert_one_line(2, &format!("kubeconfig {path}"));
        let r = run_bounded(&["can-i", "orders"], &[("KUBECONFIG", path)], 30);
        r.assert_one_line(2, &format!("kubeconfig {path}"));
    }
}

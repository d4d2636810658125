//! Every class of failure to reach or use a cluster reads as one sentence that says what went
//! wrong, the likely cause and what to do, with its documented exit code, for doctor, logs and
//! can-i: the binary is driven against a closed port, TLS servers whose certificate names another
//! host or has expired, an HTTP server answering 401 and one answering an HTML page, a missing
//! kubeconfig, a bad namespace and a failing exec plugin. Signals end any command with 130/143.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// The three commands that read a cluster, each as it reads one namespace.
const COMMANDS: &[&[&str]] = &[&["doctor"], &["logs"], &["can-i", "orders"]];

fn kubeconfig(dir: &Path, server: &str, ca_pem: Option<&str>, user: &str) -> PathBuf {
    use base64::Engine;
    let ca = ca_pem
        .map(|p| {
            format!(
                ", certificate-authority-data: {}",
                base64::engine::general_purpose::STANDARD.encode(p)
            )
        })
        .unwrap_or_default();
    let path = dir.join("config");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"{server}\"{ca}}}\n\
             contexts:\n- name: ctx\n  context: {{cluster: c, user: u, namespace: default}}\n\
             current-context: ctx\nusers:\n- name: u\n  user: {user}\n"
        ),
    )
    .unwrap();
    path
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .args(["--request-timeout", "5s"])
        .env_remove("KUBECONFIG")
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("run kubectl-flink");
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Serves every connection with `respond` (after reading the request), on a loopback port.
fn server(respond: impl Fn(TcpStream) + Send + Sync + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let respond = Arc::new(respond);
    std::thread::spawn(move || {
        for s in listener.incoming().take(500).flatten() {
            let respond = respond.clone();
            std::thread::spawn(move || respond(s));
        }
    });
    port
}

fn http(status: &'static str, content_type: &'static str, body: &'static str) -> u16 {
    server(move |mut s| {
        let mut buf = [0u8; 16384];
        let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
        let _ = s.read(&mut buf);
        let _ = write!(
            s,
            "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    })
}

/// A TLS server presenting `leaf` (signed by a CA the kubeconfig trusts), whose handshakes fail.
fn tls(leaf: rcgen::CertificateParams) -> (u16, String) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "kubectl-flink test CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(
        vec![cert.der().clone()],
        rustls::pki_types::PrivatePkcs8KeyDer::from(key.serialize_der()).into(),
    )
    .unwrap();
    let config = Arc::new(config);
    let port = server(move |s| {
        let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
        let Ok(conn) = rustls::ServerConnection::new(config.clone()) else {
            return;
        };
        let mut tls = rustls::StreamOwned::new(conn, s);
        let mut buf = [0u8; 1024];
        let _ = tls.read(&mut buf);
    });
    (port, ca.pem())
}

fn leaf(names: &[&str]) -> rcgen::CertificateParams {
    rcgen::CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap()
}

/// Every command's error: one line, `error: ` then (after what the command was doing) the
/// sentence, and the exit code.
fn assert_each_command(cfg: &Path, code: i32, sentence: &str, extra: &[&str]) {
    for command in COMMANDS {
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["--kubeconfig", cfg.to_str().unwrap()]);
        args.extend(extra);
        let r = run(&args, &[]);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(r.code, Some(code), "{command:?}: {}", r.stderr);
        assert_eq!(lines.len(), 1, "{command:?}: one line: {}", r.stderr);
        assert!(
            lines[0].starts_with("error: ") && lines[0].ends_with(sentence),
            "{command:?}:\n  got:  {}\n  want: ...{sentence}",
            lines[0]
        );
    }
}

#[test]
fn a_closed_port_says_connection_refused_and_what_to_check() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("https://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        3,
        &format!(
            "cannot reach the API server at https://127.0.0.1:{port} (connection refused): is the \
             cluster up and is this the right context? (kubectl config current-context)"
        ),
        &[],
    );
    // The whole chain stays available with -v, under the sentence.
    let r = run(
        &["doctor", "-v", "--kubeconfig", cfg.to_str().unwrap()],
        &[],
    );
    assert!(
        r.stderr.contains("  caused by: tcp connect error")
            && r.stderr.contains("  caused by: Connection refused"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_certificate_for_another_host_names_both() {
    let (port, ca) = tls(leaf(&["api.elsewhere.example"]));
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("https://127.0.0.1:{port}"),
        Some(&ca),
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        3,
        &format!(
            "cannot trust the API server at https://127.0.0.1:{port}: its certificate is not \
             valid for 127.0.0.1 (it names DnsName(\"api.elsewhere.example\")): use a server \
             address the certificate names, or set tls-server-name in the kubeconfig's cluster"
        ),
        &[],
    );
}

#[test]
fn an_expired_certificate_says_when_it_expired() {
    let mut params = leaf(&["127.0.0.1"]);
    params.not_before = rcgen::date_time_ymd(2000, 1, 1);
    params.not_after = rcgen::date_time_ymd(2001, 1, 1);
    let (port, ca) = tls(params);
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("https://127.0.0.1:{port}"),
        Some(&ca),
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        3,
        &format!(
            "cannot trust the API server at https://127.0.0.1:{port}: its certificate expired on \
             2001-01-01 00:00 UTC: renew the API server's certificate, or check this machine's \
             clock (date -u)"
        ),
        &[],
    );
}

#[test]
fn a_401_says_log_in_again() {
    let port = http(
        "401 Unauthorized",
        "application/json",
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#,
    );
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("http://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        3,
        &format!(
            "the API server at http://127.0.0.1:{port} refused the credentials of context ctx \
             (401 Unauthorized): log in again or refresh the credentials (an expired token or \
             client certificate?), then check with kubectl auth whoami"
        ),
        &[],
    );
}

#[test]
fn an_html_page_says_a_proxy_or_load_balancer_is_in_the_way() {
    let port = http(
        "200 OK",
        "text/html",
        "<!DOCTYPE html><html><body><form>Sign in</form></body></html>",
    );
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("http://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        3,
        &format!(
            "the API server at http://127.0.0.1:{port} answered something that is not the \
             Kubernetes API (expected value at line 1 column 1; an HTML page of a proxy or load \
             balancer?): check the server URL (kubectl config view --minify) and \
             HTTPS_PROXY/NO_PROXY"
        ),
        &[],
    );
}

#[test]
fn a_bad_namespace_is_refused_once_before_any_request() {
    static ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let port = server(|_| {
        ASKED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("http://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    assert_each_command(
        &cfg,
        2,
        "invalid namespace \"Bad Name!\": a namespace is at most 63 lowercase letters, digits and \
         '-', starting and ending with a letter or digit (kubectl get namespaces lists them)",
        &["-n", "Bad Name!"],
    );
    assert_eq!(ASKED.load(std::sync::atomic::Ordering::SeqCst), 0);
}

#[test]
fn a_missing_kubeconfig_names_the_file_and_what_to_do() {
    for command in COMMANDS {
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["--kubeconfig", "/nonexistent/kubeconfig"]);
        let r = run(&args, &[]);
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(
            r.stderr,
            "error: the kubeconfig /nonexistent/kubeconfig (--kubeconfig) does not exist: check \
             the path, or leave --kubeconfig out to use $KUBECONFIG or ~/.kube/config\n"
        );
    }
}

#[test]
fn a_missing_file_in_a_kubeconfig_list_is_skipped_as_kubectl_skips_it() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("https://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    let list = format!("/nonexistent/a:{}:/nonexistent/b", cfg.display());
    // Read: it goes on to the (closed) server the listed file names.
    let r = run(&["doctor"], &[("KUBECONFIG", &list)]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert!(r.stderr.contains("(connection refused)"), "{}", r.stderr);
    // None of them exists: one line naming them (exit 2).
    let r = run(
        &["doctor"],
        &[("KUBECONFIG", "/nonexistent/a:/nonexistent/b")],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: no kubeconfig: none of the files KUBECONFIG lists exists (/nonexistent/a, \
         /nonexistent/b): check KUBECONFIG, or pass --kubeconfig FILE\n"
    );
}

#[test]
fn a_failing_exec_plugin_says_so_after_what_it_printed() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("plugin.sh");
    std::fs::write(
        &plugin,
        "#!/bin/sh\necho 'plugin: your session expired; run plugin login' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let user = format!(
        "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: {}, interactiveMode: Never}}}}",
        plugin.display()
    );
    let cfg = kubeconfig(dir.path(), "https://127.0.0.1:1", None, &user);
    for command in COMMANDS {
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["--kubeconfig", cfg.to_str().unwrap()]);
        let r = run(&args, &[]);
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(
            r.stderr,
            format!(
                "plugin: your session expired; run plugin login\nerror: the kubeconfig's exec \
                 plugin `{}` failed (exit code 1; what it printed is above): log in again with \
                 the tool it belongs to, or check the user's exec section (kubectl config view \
                 --minify)\n",
                plugin.display()
            )
        );
    }
}

/// Starts `args` against a server that reads every request and never answers, waits until it
/// asked, sends `signal`, and returns the exit code.
fn interrupted(args: &[&str], signal: &str) -> Option<i32> {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    let asked = Arc::new(AtomicUsize::new(0));
    let seen = asked.clone();
    let port = server(move |mut s| {
        let mut buf = [0u8; 8192];
        let _ = s.read(&mut buf);
        seen.fetch_add(1, SeqCst);
        std::thread::sleep(Duration::from_secs(60));
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("http://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    let mut child = Command::new(BIN)
        .args(args)
        .args([
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "--request-timeout",
            "60s",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while asked.load(SeqCst) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{args:?} never asked"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap()
        .success());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{args:?} did not end within 10 s of {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_and_sigterm_end_every_command_with_130_and_143() {
    for command in [&["doctor"][..], &["can-i", "orders"]] {
        assert_eq!(interrupted(command, "-INT"), Some(130), "{command:?}");
        assert_eq!(interrupted(command, "-TERM"), Some(143), "{command:?}");
    }
    // logs ends on Ctrl-C with 0, its documented "done"; SIGTERM is 143 there too.
    assert_eq!(interrupted(&["logs"], "-TERM"), Some(143));
}

#[test]
fn save_onto_a_link_a_file_or_a_read_only_place_is_refused_before_the_cluster_is_read() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    let port = server(|_| {
        ASKED.fetch_add(1, SeqCst);
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(
        dir.path(),
        &format!("http://127.0.0.1:{port}"),
        None,
        "{token: t}",
    );
    let link = dir.path().join("link");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::os::unix::fs::symlink(&empty, &link).unwrap();
    let cases: Vec<(PathBuf, String)> = vec![
        (
            link.clone(),
            format!(
                "error: write bundle {}: a symbolic link: --save writes no bundle through a link; \
                 name a new folder\n",
                link.display()
            ),
        ),
        (
            cfg.clone(),
            format!(
                "error: write bundle {}: exists and is not a directory; name a new folder\n",
                cfg.display()
            ),
        ),
        (
            dir.path().to_path_buf(),
            format!(
                "error: write bundle {}: directory exists and is not empty; name a new or empty \
                 folder\n",
                dir.path().display()
            ),
        ),
    ];
    for (target, want) in cases {
        let r = run(
            &[
                "doctor",
                "--kubeconfig",
                cfg.to_str().unwrap(),
                "--save",
                target.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(r.stderr, want);
    }
    // A place no one may create a folder in (root may write anywhere else).
    let r = run(
        &[
            "doctor",
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "--save",
            "/proc/kubectl-flink-bundle",
        ],
        &[],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: write bundle /proc: cannot create the bundle's folder here (")
            && r.stderr.ends_with("); choose a writable folder\n")
            && r.stderr.lines().count() == 1,
        "{}",
        r.stderr
    );
    assert_eq!(ASKED.load(SeqCst), 0, "the cluster was read");
    let _ = r.stdout;
}

//! Proxies as kubectl uses them, against the real test kube-apiserver (scripts/test-cluster.sh)
//! through real proxies on loopback: a CONNECT proxy and a SOCKS5 proxy (a few dozen lines each,
//! below), which count the tunnels they open and where to. Each proxy sends every tunnel to the
//! test API server, whatever name it was asked for, so the kubeconfig can name the server
//! `kubernetes.default.svc` (in its serving certificate, and not a loopback name, which kubectl
//! never proxies) without any DNS.
//!
//! Run with `scripts/test-cluster.sh run cargo test --test proxy_e2e`. Without the harness these
//! tests FAIL when `CI` is set and print a loud SKIPPED message otherwise.

mod common;
use common::{need, or_skip};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// The API server's port, CA file and a token, read from the harness's e2e kubeconfig.
struct Cluster {
    port: u16,
    ca: String,
    token: String,
}

fn cluster() -> Result<Cluster, String> {
    let path = need("KUBE_E2E_KUBECONFIG")?;
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key).map(|v| v.trim().to_string()))
            .ok_or(format!("no {key} in {}", path.display()))
    };
    let server = field("server:")?;
    let port = server
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or(format!("no port in {server}"))?;
    Ok(Cluster {
        port,
        ca: field("certificate-authority:")?,
        token: field("token:")?,
    })
}

/// The tunnels a proxy opened: the destination each was asked for.
type Asked = Arc<Mutex<Vec<String>>>;

/// Copies both ways between the client and the API server until either side closes.
fn splice(client: TcpStream, api_port: u16) {
    let Ok(api) = TcpStream::connect(("127.0.0.1", api_port)) else {
        return;
    };
    let (mut c2, mut a2) = (client.try_clone().unwrap(), api.try_clone().unwrap());
    let (mut c, mut a) = (client, api);
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut c2, &mut a2);
        let _ = a2.shutdown(std::net::Shutdown::Write);
    });
    let _ = std::io::copy(&mut a, &mut c);
    let _ = c.shutdown(std::net::Shutdown::Write);
}

/// An HTTP CONNECT proxy on loopback: its port and what it was asked for.
fn connect_proxy(api_port: u16) -> (u16, Asked) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked: Asked = Arc::default();
    let seen = asked.clone();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { continue };
            let seen = seen.clone();
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
                let mut parts = line.split_whitespace();
                if parts.next() != Some("CONNECT") {
                    let _ = s
                        .write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
                    return;
                }
                seen.lock()
                    .unwrap()
                    .push(parts.next().unwrap_or("").to_string());
                let _ = s.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n");
                splice(s, api_port);
            });
        }
    });
    (port, asked)
}

/// A SOCKS5 proxy (no authentication, CONNECT only) on loopback.
fn socks5_proxy(api_port: u16) -> (u16, Asked) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked: Asked = Arc::default();
    let seen = asked.clone();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { continue };
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut head = [0u8; 2];
                if s.read_exact(&mut head).is_err() || head[0] != 5 {
                    return;
                }
                let mut methods = vec![0u8; head[1] as usize];
                let _ = s.read_exact(&mut methods);
                let _ = s.write_all(&[5, 0]);
                let mut req = [0u8; 4];
                if s.read_exact(&mut req).is_err() || req[1] != 1 {
                    return;
                }
                let host = match req[3] {
                    1 => {
                        let mut a = [0u8; 4];
                        let _ = s.read_exact(&mut a);
                        std::net::Ipv4Addr::from(a).to_string()
                    }
                    3 => {
                        let mut n = [0u8; 1];
                        let _ = s.read_exact(&mut n);
                        let mut name = vec![0u8; n[0] as usize];
                        let _ = s.read_exact(&mut name);
                        String::from_utf8_lossy(&name).into_owned()
                    }
                    _ => return,
                };
                let mut p = [0u8; 2];
                let _ = s.read_exact(&mut p);
                seen.lock()
                    .unwrap()
                    .push(format!("{host}:{}", u16::from_be_bytes(p)));
                let _ = s.write_all(&[5, 0, 0, 1, 127, 0, 0, 1, 0, 0]);
                splice(s, api_port);
            });
        }
    });
    (port, asked)
}

/// A kubeconfig for the test cluster at `host`, with `proxy-url` when given.
fn kubeconfig(dir: &Path, c: &Cluster, host: &str, proxy_url: Option<&str>) -> PathBuf {
    let proxy = proxy_url
        .map(|p| format!("    proxy-url: {p}\n"))
        .unwrap_or_default();
    let path = dir.join(format!("kubeconfig-{}", rand_suffix()));
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://{host}:{}\n    certificate-authority: {}\n{proxy}users:\n- name: u\n  user:\n    token: {}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u, namespace: default}}\ncurrent-context: x\n",
            c.port, c.ca, c.token
        ),
    )
    .unwrap();
    path
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::SeqCst).to_string()
}

/// `doctor -n default` with the proxy variables given (and no others).
fn doctor(kubeconfig: &Path, env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(BIN);
    cmd.args([
        "doctor",
        "-n",
        "default",
        "--request-timeout=10s",
        "--kubeconfig",
    ])
    .arg(kubeconfig)
    .env("NO_COLOR", "1")
    .stdin(Stdio::null());
    for v in [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "NO_PROXY",
        "no_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run kubectl-flink");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const NAME: &str = "kubernetes.default.svc";

#[test]
fn https_proxy_carries_the_requests_and_no_proxy_bypasses_it() {
    let Some(c) = or_skip("proxy_e2e", "https_proxy", cluster()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (port, asked) = connect_proxy(c.port);
    let proxy = format!("http://127.0.0.1:{port}");

    // Through the proxy: every tunnel to the server by its name.
    let named = kubeconfig(dir.path(), &c, NAME, None);
    let (code, err) = doctor(&named, &[("HTTPS_PROXY", &proxy)]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let through = asked.lock().unwrap().clone();
    assert!(!through.is_empty(), "no tunnel through the proxy: {err}");
    let want = format!("{NAME}:{}", c.port);
    assert!(through.iter().all(|d| d == &want), "{through:?}");

    // The lower-case spelling too.
    asked.lock().unwrap().clear();
    let (code, err) = doctor(&named, &[("https_proxy", &proxy)]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    assert!(!asked.lock().unwrap().is_empty());

    // NO_PROXY covering the server's domain: direct (and the name does not resolve here).
    for no_proxy in [
        "default.svc",
        ".svc",
        NAME,
        "*",
        "other.example, default.svc",
    ] {
        asked.lock().unwrap().clear();
        let (code, err) = doctor(&named, &[("HTTPS_PROXY", &proxy), ("NO_PROXY", no_proxy)]);
        assert_eq!(code, 3, "NO_PROXY={no_proxy}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            asked.lock().unwrap().is_empty(),
            "NO_PROXY={no_proxy} went through the proxy"
        );
    }

    // A loopback server is never proxied, as with kubectl: direct, and it works (exit 2 before,
    // "requires the disabled feature kube/http-proxy").
    asked.lock().unwrap().clear();
    let local = kubeconfig(dir.path(), &c, "127.0.0.1", None);
    let (code, err) = doctor(&local, &[("HTTPS_PROXY", &proxy)]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    assert!(asked.lock().unwrap().is_empty());

    // HTTP_PROXY is for http:// servers only; ALL_PROXY is not read (as Go's proxy selection).
    let (code, err) = doctor(
        &named,
        &[
            ("HTTP_PROXY", &proxy),
            ("ALL_PROXY", &format!("socks5://127.0.0.1:{port}")),
        ],
    );
    assert_eq!(code, 3, "{err}");
    assert!(asked.lock().unwrap().is_empty());
}

#[test]
fn the_kubeconfigs_proxy_url_wins_over_the_environment_in_socks5_and_http() {
    let Some(c) = or_skip("proxy_e2e", "proxy_url", cluster()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (socks, via_socks) = socks5_proxy(c.port);
    let (http, via_http) = connect_proxy(c.port);
    let (env_port, via_env) = connect_proxy(c.port);
    let env_proxy = format!("http://127.0.0.1:{env_port}");
    for (url, asked) in [
        (format!("socks5://127.0.0.1:{socks}"), &via_socks),
        (format!("http://127.0.0.1:{http}"), &via_http),
    ] {
        let cfg = kubeconfig(dir.path(), &c, NAME, Some(&url));
        // NO_PROXY=* and another HTTPS_PROXY change nothing: proxy-url is used as given.
        let (code, err) = doctor(&cfg, &[("HTTPS_PROXY", &env_proxy), ("NO_PROXY", "*")]);
        assert!(code == 0 || code == 1, "{url}: exit {code}: {err}");
        let through = asked.lock().unwrap().clone();
        let want = format!("{NAME}:{}", c.port);
        assert!(
            !through.is_empty() && through.iter().all(|d| d == &want),
            "{url}: {through:?}"
        );
    }
    assert!(via_env.lock().unwrap().is_empty());
}

//! A hostile API server for probing the plugin's robustness (never a mock of the Kubernetes API
//! for correctness: that is the real kube-apiserver's job in the e2e tests): a tiny HTTP/1.1
//! server on loopback whose every answer carries terminal escape sequences in the text a client
//! prints: Status messages of refused requests, the reasons and evaluation errors of access
//! reviews.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

/// What the server puts in every message, as JSON escapes: set the window title (OSC ... BEL),
/// clear the screen (CSI 2J), a C1 CSI (U+009B), a bell. A printed copy must hold none of them.
pub const PAYLOAD: &str = r"\u001b]0;pwned\u0007\u001b[2J\u009b31mHOSTILE\u0007";

/// The visible part of [`PAYLOAD`], for a test to see that the message was printed at all.
pub const VISIBLE: &str = "HOSTILE";

/// Starts the server; it answers until the test process ends. Returns its URL.
pub fn start() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(5000) {
            let Ok(s) = stream else { continue };
            std::thread::spawn(move || answer(s));
        }
    });
    format!("http://127.0.0.1:{port}")
}

fn answer(mut s: std::net::TcpStream) {
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(5)));
    let mut r = BufReader::new(s.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0u8; length];
        let _ = r.read_exact(&mut body);
        let (code, json) = respond(&line);
        let reply = format!(
            "HTTP/1.1 {code}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{json}",
            json.len()
        );
        if s.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

/// The answer to a request line: access reviews answer, with escapes in their reasons; anything
/// else is refused with escapes in the Status message.
fn respond(request: &str) -> (&'static str, String) {
    let p = PAYLOAD;
    if request.contains("selfsubjectaccessreviews") {
        return (
            "201 Created",
            format!(
                r#"{{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{{}},"spec":{{"resourceAttributes":{{"verb":"get","resource":"pods"}}}},"status":{{"allowed":false,"reason":"denied {p}","evaluationError":"webhook {p}"}}}}"#
            ),
        );
    }
    if request.contains("selfsubjectrulesreviews") {
        return (
            "201 Created",
            format!(
                r#"{{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{{}},"spec":{{"namespace":"analytics"}},"status":{{"resourceRules":[],"nonResourceRules":[],"incomplete":true,"evaluationError":"rules {p}"}}}}"#
            ),
        );
    }
    (
        "403 Forbidden",
        format!(
            r#"{{"kind":"Status","apiVersion":"v1","metadata":{{}},"status":"Failure","message":"forbidden {p}","reason":"Forbidden","code":403}}"#
        ),
    )
}

/// A kubeconfig in `dir` for the server at `url`, namespace `analytics`.
pub fn kubeconfig(dir: &Path, url: &str) -> PathBuf {
    let path = dir.join("kubeconfig.yaml");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {{server: \"{url}\"}}
users:
- name: test
  user: {{token: not-a-real-token}}
contexts:
- name: test
  context: {{cluster: test, user: test, namespace: analytics}}
current-context: test
"
        ),
    )
    .unwrap();
    path
}

/// The first byte of `out` a terminal would act on: ESC, BEL, any other C0 control but newline
/// and tab (a carriage return included), DEL, or a C1 control (UTF-8 `C2 80`..`C2 9F`), with its offset.
pub fn control_byte(out: &[u8]) -> Option<(usize, u8)> {
    let mut i = 0;
    while i < out.len() {
        let b = out[i];
        let c0 = b < 0x20 && b != b'\n' && b != b'\t';
        let c1 = b == 0xc2 && out.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n));
        if c0 || b == 0x7f || c1 {
            return Some((i, b));
        }
        i += 1;
    }
    None
}

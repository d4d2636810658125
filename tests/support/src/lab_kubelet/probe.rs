//! Readiness, liveness and startup probes: `tcpSocket`, `httpGet` (HTTP/1.1, 200-399 succeed) and
//! `exec` (run in the container's mount namespace with nsenter), against the pod IP (or `host`),
//! at `periodSeconds` (capped at 2 s for the lab) with `initialDelaySeconds`, `failureThreshold`
//! and `successThreshold`. Failure texts follow k8s.io/kubernetes@v1.36.3:pkg/probe/tcp/tcp.go and
//! pkg/probe/http/http.go (the Go dialer's error forms).

use k8s_openapi::api::core::v1::{Container, Probe};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Debug, Clone)]
pub struct Tracker {
    pub probe: Probe,
    pub next_at: Instant,
    pub successes: i32,
    pub failures: i32,
    /// The current verdict (after thresholds).
    pub ok: bool,
}

impl Tracker {
    pub fn new(probe: &Probe, started: Instant) -> Self {
        let delay = probe.initial_delay_seconds.unwrap_or(0).max(0) as u64;
        Tracker {
            probe: probe.clone(),
            next_at: started + Duration::from_secs(delay),
            successes: 0,
            failures: 0,
            ok: false,
        }
    }

    pub fn period(&self) -> Duration {
        let p = self.probe.period_seconds.unwrap_or(10).max(1) as u64;
        Duration::from_secs(p.min(2))
    }

    /// Records one result; returns true when the verdict changed.
    pub fn record(&mut self, success: bool) -> bool {
        let before = self.ok;
        if success {
            self.failures = 0;
            self.successes += 1;
            if self.successes >= self.probe.success_threshold.unwrap_or(1).max(1) {
                self.ok = true;
            }
        } else {
            self.successes = 0;
            self.failures += 1;
            if self.failures >= self.probe.failure_threshold.unwrap_or(3).max(1) {
                self.ok = false;
            }
        }
        before != self.ok
    }

    pub fn failed_out(&self) -> bool {
        self.failures >= self.probe.failure_threshold.unwrap_or(3).max(1)
    }
}

fn port(p: &IntOrString, c: &Container) -> Result<u16, String> {
    match p {
        IntOrString::Int(n) => u16::try_from(*n).map_err(|_| format!("invalid port {n}")),
        IntOrString::String(name) => c
            .ports
            .iter()
            .flatten()
            .find(|cp| cp.name.as_deref() == Some(name.as_str()))
            .and_then(|cp| u16::try_from(cp.container_port).ok())
            .ok_or(format!(
                "couldn't find port: {name} in container {}",
                c.name
            )),
    }
}

/// Runs one probe: Ok(()) on success, Err(output) on failure.
pub async fn run(
    probe: &Probe,
    c: &Container,
    pod_ip: &str,
    pid: Option<i32>,
) -> Result<(), String> {
    let timeout = Duration::from_secs(probe.timeout_seconds.unwrap_or(1).clamp(1, 5) as u64);
    if let Some(t) = &probe.tcp_socket {
        let host = t
            .host
            .clone()
            .filter(|h| !h.is_empty())
            .unwrap_or(pod_ip.to_string());
        let addr = format!("{host}:{}", port(&t.port, c)?);
        return match tokio::time::timeout(timeout, tokio::net::TcpStream::connect(&addr)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(format!("dial tcp {addr}: connect: {}", errno_text(&e))),
            Err(_) => Err(format!("dial tcp {addr}: i/o timeout")),
        };
    }
    if let Some(h) = &probe.http_get {
        let host = h
            .host
            .clone()
            .filter(|h| !h.is_empty())
            .unwrap_or(pod_ip.to_string());
        let addr = format!("{host}:{}", port(&h.port, c)?);
        let path = h.path.clone().unwrap_or_else(|| "/".into());
        let scheme = h
            .scheme
            .clone()
            .unwrap_or_else(|| "HTTP".into())
            .to_lowercase();
        let url = format!("{scheme}://{addr}{path}");
        let attempt = async {
            let mut s = tokio::net::TcpStream::connect(&addr).await.map_err(|e| {
                format!(
                    "Get \"{url}\": dial tcp {addr}: connect: {}",
                    errno_text(&e)
                )
            })?;
            let mut req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: kube-probe/1.36\r\nAccept: */*\r\nConnection: close\r\n");
            for hdr in h.http_headers.iter().flatten() {
                req.push_str(&format!("{}: {}\r\n", hdr.name, hdr.value));
            }
            req.push_str("\r\n");
            s.write_all(req.as_bytes())
                .await
                .map_err(|e| format!("Get \"{url}\": {e}"))?;
            let mut buf = vec![0u8; 1024];
            let n = s
                .read(&mut buf)
                .await
                .map_err(|e| format!("Get \"{url}\": {e}"))?;
            let head = String::from_utf8_lossy(&buf[..n]);
            let code: u16 = head
                .split_whitespace()
                .nth(1)
                .and_then(|c| c.parse().ok())
                .ok_or(format!("Get \"{url}\": malformed HTTP response"))?;
            if (200..400).contains(&code) {
                Ok(())
            } else {
                Err(format!("HTTP probe failed with statuscode: {code}"))
            }
        };
        return match tokio::time::timeout(timeout, attempt).await {
            Ok(r) => r,
            Err(_) => Err(format!(
                "Get \"{url}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
            )),
        };
    }
    if let Some(e) = &probe.exec {
        let pid = pid.ok_or("container is not running")?;
        let cmd = e.command.clone().unwrap_or_default();
        if cmd.is_empty() {
            return Err("no command".into());
        }
        let out = tokio::time::timeout(
            timeout,
            tokio::task::spawn_blocking(move || {
                std::process::Command::new("nsenter")
                    .args(["-t", &pid.to_string(), "-m", "-u", "--"])
                    .args(&cmd)
                    .output()
            }),
        )
        .await;
        return match out {
            Ok(Ok(Ok(o))) if o.status.success() => Ok(()),
            Ok(Ok(Ok(o))) => {
                let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
                text.push_str(&String::from_utf8_lossy(&o.stderr));
                Err(text)
            }
            Ok(Ok(Err(e))) => Err(format!("nsenter: {e}")),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("command timed out after {}s", timeout.as_secs())),
        };
    }
    // gRPC probes are not run here: counted as success.
    Ok(())
}

/// Go's syscall error text for the common dial errors.
fn errno_text(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused => "connection refused".into(),
        std::io::ErrorKind::TimedOut => "connection timed out".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(json: serde_json::Value) -> Probe {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn thresholds() {
        let p = probe(
            serde_json::json!({"tcpSocket": {"port": 1}, "failureThreshold": 2, "successThreshold": 2}),
        );
        let mut t = Tracker::new(&p, Instant::now());
        assert!(!t.record(true));
        assert!(t.record(true));
        assert!(t.ok);
        assert!(!t.record(false));
        assert!(t.ok);
        assert!(t.record(false));
        assert!(!t.ok && t.failed_out());
    }

    #[tokio::test]
    async fn tcp_and_http() {
        let c: Container = serde_json::from_value(
            serde_json::json!({"name": "c", "ports": [{"name": "web", "containerPort": 1}]}),
        )
        .unwrap();
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = l.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut s, _)) = l.accept().await {
                let mut b = [0u8; 512];
                let _ = s.read(&mut b).await;
                let _ = s
                    .write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
                    .await;
            }
        });
        let tcp = probe(serde_json::json!({"tcpSocket": {"port": port}}));
        assert_eq!(run(&tcp, &c, "127.0.0.1", None).await, Ok(()));
        let http = probe(serde_json::json!({"httpGet": {"port": port, "path": "/ready"}}));
        assert_eq!(
            run(&http, &c, "127.0.0.1", None).await,
            Err("HTTP probe failed with statuscode: 503".into())
        );
        drop(tcp);
        // A port nobody listens on (refused).
        let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let cport = closed.local_addr().unwrap().port();
        drop(closed);
        let tcp = probe(serde_json::json!({"tcpSocket": {"port": cport}}));
        assert_eq!(
            run(&tcp, &c, "127.0.0.1", None).await,
            Err(format!(
                "dial tcp 127.0.0.1:{cport}: connect: connection refused"
            ))
        );
    }
}

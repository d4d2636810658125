//! The log-serving half of a kubelet: `GET /containerLogs/{namespace}/{pod}/{container}` answered
//! from `<root>/<namespace>/<pod>/<container>.log` (or `<container>.previous.log` with
//! `previous=true`), with the query parameters the API server forwards from `pods/log`:
//! `previous`, `tailLines`, `limitBytes`, `sinceSeconds`, `sinceTime`, `timestamps` and `follow`.
//!
//! A tiny HTTP/1.1 server over tokio-rustls: one request per connection (`Connection: close`),
//! which is all the API server's kubelet client needs. Errors are answered as the kubelet answers
//! them: a status code and a one-line `text/plain` message, which the API server turns into an
//! API error for the client.
//!
//! Line times: a kubelet knows when each line was written; files do not. A line's time is the
//! timestamp it starts with (RFC 3339, or log4j's `2026-11-28 09:39:02,118`), else the previous
//! line's, else the file's modification time; lines appended while following are stamped when they
//! are read, as a kubelet stamps lines when they are written. `sinceSeconds`/`sinceTime` filter on
//! these times and `timestamps=true` prints them.

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// The query of one `/containerLogs` request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogQuery {
    pub previous: bool,
    pub tail_lines: Option<i64>,
    pub limit_bytes: Option<i64>,
    pub since_seconds: Option<i64>,
    pub since_time: Option<DateTime<Utc>>,
    pub timestamps: bool,
    pub follow: bool,
}

/// A parsed request target.
#[derive(Debug, PartialEq)]
pub enum Route {
    Logs {
        namespace: String,
        pod: String,
        container: String,
        query: LogQuery,
    },
    Healthz,
}

/// An error answer: status code and the kubelet-style text.
#[derive(Debug, PartialEq)]
pub struct Reply {
    pub code: u16,
    pub message: String,
}

impl Reply {
    fn new(code: u16, message: impl Into<String>) -> Self {
        Reply {
            code,
            message: message.into(),
        }
    }
}

/// The TLS side of a kubelet's server: the serving certificate and key (PEM files), HTTP/1.1.
pub fn tls_acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, String> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("read {}: {e}", cert.display()))?;
    let key =
        PrivateKeyDer::from_pem_file(key).map_err(|e| format!("read {}: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("serving certificate: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// The file every answered request is appended to (`--request-log`), shared by the connections.
pub fn request_log(path: Option<&Path>) -> Result<Option<Arc<Mutex<std::fs::File>>>, String> {
    path.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .map(|f| Arc::new(Mutex::new(f)))
            .map_err(|e| format!("open {}: {e}", p.display()))
    })
    .transpose()
}

/// Announces the bound port: written atomically, so a reader never sees a half-written number.
pub fn write_port_file(path: &Path, port: u16) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, format!("{port}\n"))
        .map_err(|e| format!("write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("write {}: {e}", path.display()))
}

pub fn parse_target(target: &str) -> Result<Route, Reply> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let segments: Vec<String> = path
        .trim_start_matches('/')
        .split('/')
        .map(percent_decode)
        .collect();
    if path == "/healthz" {
        return Ok(Route::Healthz);
    }
    if segments.len() != 4
        || segments[0] != "containerLogs"
        || segments[1..].iter().any(|s| s.is_empty())
    {
        return Err(Reply::new(404, "404 page not found\n"));
    }
    if segments[1..]
        .iter()
        .any(|s| s.contains('/') || s == "." || s == "..")
    {
        return Err(Reply::new(400, "invalid path"));
    }
    let mut q = LogQuery::default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (percent_decode(k), percent_decode(v));
        let bad = |what: &str| Reply::new(400, format!("invalid {k} \"{v}\": {what}"));
        match k.as_str() {
            "previous" => q.previous = parse_bool(&v).ok_or_else(|| bad("not a boolean"))?,
            "timestamps" => q.timestamps = parse_bool(&v).ok_or_else(|| bad("not a boolean"))?,
            "follow" => q.follow = parse_bool(&v).ok_or_else(|| bad("not a boolean"))?,
            "tailLines" => q.tail_lines = Some(v.parse().map_err(|_| bad("not an integer"))?),
            "limitBytes" => {
                let n: i64 = v.parse().map_err(|_| bad("not an integer"))?;
                if n < 1 {
                    return Err(Reply::new(400, "limitBytes must be greater than zero"));
                }
                q.limit_bytes = Some(n);
            }
            "sinceSeconds" => {
                let n: i64 = v.parse().map_err(|_| bad("not an integer"))?;
                if n < 1 {
                    return Err(Reply::new(400, "sinceSeconds must be greater than zero"));
                }
                q.since_seconds = Some(n);
            }
            "sinceTime" => {
                let t =
                    DateTime::parse_from_rfc3339(&v).map_err(|_| bad("not an RFC 3339 time"))?;
                q.since_time = Some(t.with_timezone(&Utc));
            }
            // Parameters a kubelet accepts that change nothing here.
            _ => {}
        }
    }
    if q.since_seconds.is_some() && q.since_time.is_some() {
        return Err(Reply::new(
            400,
            "at most one of sinceTime or sinceSeconds may be specified",
        ));
    }
    Ok(Route::Logs {
        namespace: segments[1].clone(),
        pod: segments[2].clone(),
        container: segments[3].clone(),
        query: q,
    })
}

/// Go's strconv.ParseBool, which the kubelet's query decoding uses.
fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" | "" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `<root>/<namespace>/<pod>/<container>[.previous].log`
pub fn log_file(
    root: &Path,
    namespace: &str,
    pod: &str,
    container: &str,
    previous: bool,
) -> PathBuf {
    let name = if previous {
        format!("{container}.previous.log")
    } else {
        format!("{container}.log")
    };
    root.join(namespace).join(pod).join(name)
}

/// The kubelet's answer when there is nothing to read.
pub fn missing(pod: &str, container: &str, previous: bool) -> Reply {
    if previous {
        Reply::new(
            400,
            format!("previous terminated container \"{container}\" in pod \"{pod}\" not found"),
        )
    } else {
        Reply::new(
            400,
            format!("container \"{container}\" in pod \"{pod}\" is not available"),
        )
    }
}

/// The time a log line starts with, if it starts with one.
pub fn line_time(line: &[u8]) -> Option<DateTime<Utc>> {
    let head = String::from_utf8_lossy(&line[..line.len().min(40)]);
    let token = head.split([' ', '\t']).next().unwrap_or("");
    if let Ok(t) = DateTime::parse_from_rfc3339(token) {
        return Some(t.with_timezone(&Utc));
    }
    // log4j / Flink: `2026-11-28 09:39:02,118` (also with `.` before the millis, or without them).
    if head.len() >= 19 {
        for (len, fmt) in [
            (23, "%Y-%m-%d %H:%M:%S,%3f"),
            (23, "%Y-%m-%d %H:%M:%S.%3f"),
            (19, "%Y-%m-%d %H:%M:%S"),
        ] {
            if let Some(prefix) = head.get(..len) {
                if let Ok(t) = NaiveDateTime::parse_from_str(prefix, fmt) {
                    return Some(t.and_utc());
                }
            }
        }
    }
    None
}

/// Splits into lines, each keeping its `\n` (the last one may lack it), with its time.
pub fn timed_lines(data: &[u8], fallback: DateTime<Utc>) -> Vec<(DateTime<Utc>, &[u8])> {
    let mut out = Vec::new();
    let mut last = fallback;
    let mut rest = data;
    while !rest.is_empty() {
        let end = rest
            .iter()
            .position(|&c| c == b'\n')
            .map(|p| p + 1)
            .unwrap_or(rest.len());
        let (line, tail) = rest.split_at(end);
        last = line_time(line).unwrap_or(last);
        out.push((last, line));
        rest = tail;
    }
    out
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Nanos, true)
}

/// The body for a non-streaming request (and the first part of a streaming one), in the order the
/// kubelet applies the options: since-filter, tail, timestamps, byte limit.
pub fn render(data: &[u8], q: &LogQuery, file_time: DateTime<Utc>, now: DateTime<Utc>) -> Vec<u8> {
    let cutoff = q
        .since_time
        .or_else(|| q.since_seconds.map(|s| now - chrono::Duration::seconds(s)));
    let mut lines = timed_lines(data, file_time);
    if let Some(cutoff) = cutoff {
        lines.retain(|(t, _)| *t >= cutoff);
    }
    if let Some(n) = q.tail_lines {
        if n >= 0 {
            let n = n as usize;
            if lines.len() > n {
                lines.drain(..lines.len() - n);
            }
        }
    }
    let mut out = Vec::new();
    for (t, line) in lines {
        if q.timestamps {
            out.extend_from_slice(stamp(t).as_bytes());
            out.push(b' ');
        }
        out.extend_from_slice(line);
    }
    if let Some(limit) = q.limit_bytes {
        out.truncate(limit as usize);
    }
    out
}

/// Serves until the process ends.
pub async fn serve(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    root: Arc<PathBuf>,
    request_log: Option<Arc<Mutex<std::fs::File>>>,
) {
    loop {
        let (tcp, _) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("fake-kubelet: accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let acceptor = acceptor.clone();
        let root = root.clone();
        let request_log = request_log.clone();
        tokio::spawn(async move {
            let tls = match acceptor.accept(tcp).await {
                Ok(t) => t,
                Err(_) => return,
            };
            if let Err(e) = handle(tls, &root, request_log.as_deref()).await {
                if e.kind() != std::io::ErrorKind::BrokenPipe
                    && e.kind() != std::io::ErrorKind::ConnectionReset
                {
                    eprintln!("fake-kubelet: {e}");
                }
            }
        });
    }
}

const MAX_HEAD: usize = 64 * 1024;

async fn handle<S>(
    stream: S,
    root: &Path,
    request_log: Option<&Mutex<std::fs::File>>,
) -> std::io::Result<()>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (mut rd, mut wr) = tokio::io::split(stream);
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = rd.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
        if head.len() > MAX_HEAD {
            return respond(&mut wr, 431, b"request header too large", false).await;
        }
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut parts = text.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if let Some(log) = request_log {
        if let Ok(mut f) = log.lock() {
            let _ = writeln!(f, "{method} {target}");
        }
    }
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return respond(&mut wr, 405, b"405 method not allowed\n", false).await;
    }
    let (namespace, pod, container, q) = match parse_target(target) {
        Ok(Route::Healthz) => return respond(&mut wr, 200, b"ok", head_only).await,
        Ok(Route::Logs {
            namespace,
            pod,
            container,
            query,
        }) => (namespace, pod, container, query),
        Err(r) => return respond(&mut wr, r.code, r.message.as_bytes(), head_only).await,
    };
    let path = log_file(root, &namespace, &pod, &container, q.previous);
    let (data, modified) = match (
        tokio::fs::read(&path).await,
        std::fs::metadata(&path).and_then(|m| m.modified()),
    ) {
        (Ok(d), Ok(m)) => (d, DateTime::<Utc>::from(m)),
        _ => {
            let r = missing(&pod, &container, q.previous);
            return respond(&mut wr, r.code, r.message.as_bytes(), head_only).await;
        }
    };
    let body = render(&data, &q, modified, Utc::now());
    // A previous instance has ended: following it returns what there is, as the kubelet does.
    if !q.follow || q.previous || head_only {
        return respond(&mut wr, 200, &body, head_only).await;
    }

    // follow: chunked, then every line appended to the file until the client goes away.
    wr.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        .await?;
    let mut sent = body.len() as i64;
    write_chunk(&mut wr, &body).await?;
    let limit = q.limit_bytes.unwrap_or(i64::MAX);
    let mut offset = data.len() as u64;
    let mut pending: Vec<u8> = Vec::new();
    let mut probe = [0u8; 512];
    while sent < limit {
        tokio::select! {
            r = rd.read(&mut probe) => {
                // The client closed its side (or sent garbage after the request): stop.
                if matches!(r, Ok(0) | Err(_)) { break; }
            }
            _ = tokio::time::sleep(Duration::from_millis(100)) => {
                let len = match tokio::fs::metadata(&path).await { Ok(m) => m.len(), Err(_) => continue };
                if len < offset {
                    // Truncated or replaced: start over, as `tail -F` does.
                    offset = 0;
                    pending.clear();
                }
                if len == offset { continue; }
                let mut f = tokio::fs::File::open(&path).await?;
                tokio::io::AsyncSeekExt::seek(&mut f, std::io::SeekFrom::Start(offset)).await?;
                let mut fresh = Vec::new();
                (&mut f).take(len - offset).read_to_end(&mut fresh).await?;
                offset += fresh.len() as u64;
                pending.extend_from_slice(&fresh);
                let mut out = Vec::new();
                while let Some(p) = pending.iter().position(|&c| c == b'\n') {
                    let line: Vec<u8> = pending.drain(..=p).collect();
                    if q.timestamps {
                        out.extend_from_slice(stamp(Utc::now()).as_bytes());
                        out.push(b' ');
                    }
                    out.extend_from_slice(&line);
                }
                let room = (limit - sent).max(0) as usize;
                out.truncate(room);
                if !out.is_empty() {
                    sent += out.len() as i64;
                    write_chunk(&mut wr, &out).await?;
                }
            }
        }
    }
    wr.write_all(b"0\r\n\r\n").await?;
    wr.flush().await?;
    wr.shutdown().await.ok();
    Ok(())
}

async fn write_chunk<W: AsyncWrite + Unpin>(wr: &mut W, data: &[u8]) -> std::io::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    wr.write_all(format!("{:x}\r\n", data.len()).as_bytes())
        .await?;
    wr.write_all(data).await?;
    wr.write_all(b"\r\n").await?;
    wr.flush().await
}

async fn respond<W: AsyncWrite + Unpin>(
    wr: &mut W,
    code: u16,
    body: &[u8],
    head_only: bool,
) -> std::io::Result<()> {
    let reason = match code {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    wr.write_all(head.as_bytes()).await?;
    if !head_only {
        wr.write_all(body).await?;
    }
    wr.flush().await?;
    wr.shutdown().await.ok();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn routes_and_queries() {
        let r = parse_target("/containerLogs/ns/p-1/c?previous=true&tailLines=5&limitBytes=10&timestamps=1&follow=false")
            .unwrap();
        let Route::Logs {
            namespace,
            pod,
            container,
            query,
        } = r
        else {
            panic!("not a log route")
        };
        assert_eq!(
            (namespace.as_str(), pod.as_str(), container.as_str()),
            ("ns", "p-1", "c")
        );
        assert!(query.previous && query.timestamps && !query.follow);
        assert_eq!(query.tail_lines, Some(5));
        assert_eq!(query.limit_bytes, Some(10));
        let r = parse_target("/containerLogs/ns/p/c?sinceTime=2026-11-28T09%3A39%3A00Z").unwrap();
        let Route::Logs { query, .. } = r else {
            panic!()
        };
        assert_eq!(query.since_time, Some(t("2026-11-28T09:39:00Z")));
        assert_eq!(parse_target("/stats/summary").unwrap_err().code, 404);
        assert_eq!(
            parse_target("/containerLogs/ns/p/c?tailLines=x")
                .unwrap_err()
                .code,
            400
        );
        assert_eq!(
            parse_target("/containerLogs/ns/p/c?limitBytes=0")
                .unwrap_err()
                .code,
            400
        );
        assert_eq!(
            parse_target("/containerLogs/ns/%2E%2E/c").unwrap_err().code,
            400
        );
        assert_eq!(parse_target("/healthz").unwrap(), Route::Healthz);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%3Ab+c"), "a:b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }

    #[test]
    fn line_times() {
        assert_eq!(
            line_time(b"2026-11-28 09:39:02,118 INFO x"),
            Some(t("2026-11-28T09:39:02.118Z"))
        );
        assert_eq!(
            line_time(b"2026-11-28T09:39:02.5Z stdout F x"),
            Some(t("2026-11-28T09:39:02.5Z"))
        );
        assert_eq!(line_time(b"\tat org.apache.Foo"), None);
        assert_eq!(line_time(b""), None);
    }

    const LOG: &[u8] =
        b"2026-11-28 09:39:02,118 INFO a\n\tat stack\n2026-11-28 09:39:12,000 WARN b\nno newline";

    #[test]
    fn tail_limit_since_and_timestamps() {
        let file_time = t("2026-11-28T09:00:00Z");
        let now = t("2026-11-28T09:39:20Z");
        let all = LogQuery::default();
        assert_eq!(render(LOG, &all, file_time, now), LOG);
        let tail = LogQuery {
            tail_lines: Some(2),
            ..LogQuery::default()
        };
        assert_eq!(
            render(LOG, &tail, file_time, now),
            b"2026-11-28 09:39:12,000 WARN b\nno newline"
        );
        let zero = LogQuery {
            tail_lines: Some(0),
            ..LogQuery::default()
        };
        assert_eq!(render(LOG, &zero, file_time, now), b"");
        let limit = LogQuery {
            limit_bytes: Some(5),
            ..LogQuery::default()
        };
        assert_eq!(render(LOG, &limit, file_time, now), b"2026-");
        // The stack line inherits its time from the line before it.
        let since = LogQuery {
            since_seconds: Some(10),
            ..LogQuery::default()
        };
        assert_eq!(
            render(LOG, &since, file_time, now),
            b"2026-11-28 09:39:12,000 WARN b\nno newline"
        );
        let stamped = LogQuery {
            timestamps: true,
            tail_lines: Some(3),
            ..LogQuery::default()
        };
        let out = String::from_utf8(render(LOG, &stamped, file_time, now)).unwrap();
        assert!(
            out.starts_with("2026-11-28T09:39:02.118000000Z \tat stack\n"),
            "{out}"
        );
        let first_line_untimed = render(b"plain\n", &stamped, file_time, now);
        assert_eq!(
            first_line_untimed,
            b"2026-11-28T09:00:00.000000000Z plain\n"
        );
    }
}

//! One container's log stream: open it (retrying without `-f`), read it line by line with a
//! bounded line reader, split the kubelet's timestamps off, skip what an earlier connection already
//! printed (the resume filter), and hand formatted chunks to the output.

use super::select::StreamSpec;
use crate::error::one_line;
use futures::io::{AsyncBufRead, AsyncBufReadExt};
use futures::FutureExt;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, LogParams};
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::mpsc;

/// Lines longer than this are cut into pieces, so one endless line cannot exhaust memory.
pub const MAX_LINE: usize = 1 << 20;
/// Formatted output is handed to the writer in chunks of about this size.
const CHUNK: usize = 32 * 1024;

/// Renders lines; supplied by the command (prefix, colour, highlight, grep, JSON).
pub trait LineFormat: Send + Sync {
    /// Built once per stream.
    fn prefix(&self, stream: &StreamSpec) -> String;
    /// Appends the rendering of one line to `out`, or nothing when the line is filtered out.
    /// `text` has no line ending; `timestamp` is the kubelet's, when timestamps were asked for.
    fn line(
        &self,
        stream: &StreamSpec,
        prefix: &str,
        timestamp: Option<&str>,
        text: &str,
        out: &mut Vec<u8>,
    );
}

/// Splits a byte stream into lines without ever holding more than one line (at most [`MAX_LINE`]).
pub struct LineReader<R> {
    inner: R,
    max: usize,
    /// The last line was cut at `max`: a `\n` right after the cut ends that line, not a new one.
    cut: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max: max.max(1),
            cut: false,
        }
    }

    /// Appends the rest of the next line to `buf` (without `\n`); `Ok(false)` at the end of the
    /// stream with nothing read. Cancel-safe: bytes are moved into `buf` as they are consumed, so
    /// a dropped call loses nothing and the next call continues the same line. The caller clears
    /// `buf` after using a line.
    pub async fn next_into(&mut self, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        loop {
            let avail = self.inner.fill_buf().await?;
            if avail.is_empty() {
                return Ok(!buf.is_empty());
            }
            if std::mem::take(&mut self.cut) && buf.is_empty() && avail[0] == b'\n' {
                self.inner.consume_unpin(1);
                continue;
            }
            let room = self.max.saturating_sub(buf.len()).max(1);
            // A newline right at the limit still ends the line in one piece.
            let window = &avail[..avail.len().min(room + 1)];
            if let Some(i) = window.iter().position(|&b| b == b'\n') {
                buf.extend_from_slice(&window[..i]);
                self.inner.consume_unpin(i + 1);
                return Ok(true);
            }
            let n = avail.len().min(room);
            buf.extend_from_slice(&avail[..n]);
            self.inner.consume_unpin(n);
            if buf.len() >= self.max {
                self.cut = true;
                return Ok(true);
            }
        }
    }
}

/// Splits the kubelet's `--timestamps` prefix (`2026-11-28T09:39:02.118000000Z `) off a line.
pub fn split_timestamp(line: &[u8]) -> (Option<&str>, &[u8]) {
    let Some(sp) = line.iter().take(40).position(|&b| b == b' ') else {
        return (None, line);
    };
    let head = &line[..sp];
    let looks = head.len() >= 20
        && head[4] == b'-'
        && head[7] == b'-'
        && head[10] == b'T'
        && head[0].is_ascii_digit();
    match (looks, std::str::from_utf8(head)) {
        (true, Ok(ts)) => (Some(ts), &line[sp + 1..]),
        _ => (None, line),
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Where a followed container's output got to, so a reconnect neither repeats nor skips lines:
/// the last time printed and how many lines carried exactly that time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resume {
    pub last: Option<Timestamp>,
    pub at_last: usize,
}

impl Resume {
    /// The `sinceTime` to reconnect with: the last time, cut to the second (the API's precision).
    pub fn since(&self) -> Option<Timestamp> {
        self.last
            .and_then(|t| Timestamp::from_second(t.as_second()).ok())
    }
}

/// Skips what a previous connection already printed; then records what this one prints.
#[derive(Debug)]
pub struct ResumeFilter {
    state: Resume,
    skip_equal: usize,
}

impl ResumeFilter {
    pub fn new(state: Resume) -> Self {
        let skip_equal = state.at_last;
        ResumeFilter { state, skip_equal }
    }

    /// True when the line is new (and records it).
    pub fn admit(&mut self, ts: Option<&str>) -> bool {
        let Some(t) = ts.and_then(|s| s.parse::<Timestamp>().ok()) else {
            return true;
        };
        match self.state.last {
            Some(last) if t < last => false,
            Some(last) if t == last => {
                if self.skip_equal > 0 {
                    self.skip_equal -= 1;
                    false
                } else {
                    self.state.at_last += 1;
                    true
                }
            }
            _ => {
                self.state.last = Some(t);
                self.state.at_last = 1;
                self.skip_equal = 0;
                true
            }
        }
    }

    pub fn state(&self) -> &Resume {
        &self.state
    }
}

/// Why a log could not be read (or stopped).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StreamError {
    /// 403: not allowed to read `pods/log`.
    #[error("{0}")]
    Forbidden(String),
    /// 404: the pod is gone.
    #[error("{0}")]
    Gone(String),
    /// 400 from the kubelet: no such instance (no previous one, not started, removed).
    #[error("{0}")]
    Unavailable(String),
    /// The API server or the kubelet could not be reached, or the connection broke.
    #[error("{0}")]
    Transport(String),
    /// Nobody reads the output any more (stdout closed).
    #[error("output closed")]
    Closed,
}

pub(super) fn classify(e: kube::Error) -> StreamError {
    match e {
        kube::Error::Api(status) => {
            let m = one_line(&status.message);
            match status.code {
                403 => StreamError::Forbidden(m),
                404 => StreamError::Gone(m),
                400 => StreamError::Unavailable(m),
                401 => StreamError::Transport(crate::error::explain(&kube::Error::Api(status))),
                c => StreamError::Transport(format!("{c} {m}")),
            }
        }
        other => StreamError::Transport(crate::error::explain(&other)),
    }
}

/// How to open one stream.
#[derive(Debug, Clone)]
pub(super) struct Open {
    pub(super) tail: Option<i64>,
    pub(super) since_seconds: Option<i64>,
    pub(super) since_time: Option<Timestamp>,
    pub(super) follow: bool,
    /// Ask the kubelet for timestamps (always when following, to resume without repeats).
    pub(super) timestamps: bool,
    /// Print them (the user asked for --timestamps).
    pub(super) show_timestamps: bool,
}

type Reader = Pin<Box<dyn AsyncBufRead + Send>>;

pub(super) async fn open(
    api: &Api<Pod>,
    spec: &StreamSpec,
    o: &Open,
    timeout: Option<Duration>,
) -> Result<Reader, StreamError> {
    let lp = LogParams {
        container: Some(spec.container.clone()),
        previous: spec.previous,
        follow: o.follow,
        tail_lines: o.tail,
        since_seconds: o.since_seconds,
        since_time: if o.since_seconds.is_some() {
            None
        } else {
            o.since_time
        },
        timestamps: o.timestamps,
        ..LogParams::default()
    };
    let fut = api.log_stream(&spec.pod, &lp);
    let r = match timeout {
        Some(t) => tokio::time::timeout(t, fut)
            .await
            .map_err(|_| StreamError::Transport(format!("no answer within {}s", t.as_secs())))?,
        None => fut.await,
    };
    r.map(|s| Box::pin(s) as Reader).map_err(classify)
}

/// Attempts to open a stream before giving up on it (without -f, where nothing retries later).
const OPEN_ATTEMPTS: u32 = 3;

/// Opens a stream; a timeout or a broken connection is retried, each time waiting twice as long
/// for the answer: a busy kubelet can take long to send the first byte of a large log.
pub(super) async fn open_retrying(
    api: &Api<Pod>,
    spec: &StreamSpec,
    o: &Open,
    timeout: Option<Duration>,
) -> Result<Reader, StreamError> {
    let mut attempt = 0;
    loop {
        let wait = timeout.map(|t| t.saturating_mul(1 << attempt));
        match open(api, spec, o, wait).await {
            Err(StreamError::Transport(_)) if attempt + 1 < OPEN_ATTEMPTS => {
                attempt += 1;
                tokio::time::sleep(Duration::from_secs(u64::from(attempt))).await;
            }
            Err(StreamError::Transport(m)) => {
                return Err(StreamError::Transport(format!(
                    "{m} ({OPEN_ATTEMPTS} attempts)"
                )))
            }
            other => return other,
        }
    }
}

/// Reads one open stream to its end, formatting lines into chunks for `sink`. A chunk is sent when
/// it is full or when no more input is ready, so output streams with little latency and few
/// hand-offs. With `resume`, lines already printed are skipped and progress is recorded in it
/// each time a chunk has been handed over.
pub(super) async fn pump(
    reader: Reader,
    spec: &StreamSpec,
    o: &Open,
    fmt: &dyn LineFormat,
    sink: &mpsc::Sender<Vec<u8>>,
    resume: Option<&Mutex<Resume>>,
) -> Result<u64, StreamError> {
    let prefix = fmt.prefix(spec);
    let mut lines = LineReader::new(reader, MAX_LINE);
    let mut filter =
        resume.map(|r| ResumeFilter::new(r.lock().map(|g| g.clone()).unwrap_or_default()));
    let mut line = Vec::with_capacity(256);
    let mut chunk = Vec::with_capacity(CHUNK + 1024);
    let mut count = 0u64;
    let send = |chunk: &mut Vec<u8>, filter: &Option<ResumeFilter>| {
        let data = std::mem::replace(chunk, Vec::with_capacity(CHUNK + 1024));
        let state = filter.as_ref().map(|f| f.state().clone());
        async move {
            sink.send(data).await.map_err(|_| StreamError::Closed)?;
            if let (Some(m), Some(state)) = (resume, state) {
                if let Ok(mut g) = m.lock() {
                    *g = state;
                }
            }
            Ok::<(), StreamError>(())
        }
    };
    loop {
        let more = if chunk.is_empty() {
            lines.next_into(&mut line).await
        } else {
            match lines.next_into(&mut line).now_or_never() {
                Some(r) => r,
                None => {
                    send(&mut chunk, &filter).await?;
                    lines.next_into(&mut line).await
                }
            }
        };
        let more =
            more.map_err(|e| StreamError::Transport(one_line(&format!("reading the log: {e}"))))?;
        if !more {
            break;
        }
        let raw = strip_cr(&line);
        let (ts, body) = if o.timestamps {
            split_timestamp(raw)
        } else {
            (None, raw)
        };
        let admitted = filter.as_mut().is_none_or(|f| f.admit(ts));
        if admitted {
            let text = String::from_utf8_lossy(body);
            fmt.line(
                spec,
                &prefix,
                if o.show_timestamps { ts } else { None },
                &text,
                &mut chunk,
            );
            count += 1;
        }
        line.clear();
        if chunk.len() >= CHUNK {
            send(&mut chunk, &filter).await?;
        }
    }
    if !chunk.is_empty() {
        send(&mut chunk, &filter).await?;
    } else if let (Some(m), Some(f)) = (resume, &filter) {
        if let Ok(mut g) = m.lock() {
            *g = f.state().clone();
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_split_and_resume_without_repeats() {
        let (ts, rest) = split_timestamp(b"2026-11-28T09:39:02.118000000Z hello world");
        assert_eq!(ts, Some("2026-11-28T09:39:02.118000000Z"));
        assert_eq!(rest, b"hello world");
        assert_eq!(split_timestamp(b"hello world"), (None, &b"hello world"[..]));
        assert_eq!(split_timestamp(b"\tat x"), (None, &b"\tat x"[..]));

        let mut f = ResumeFilter::new(Resume::default());
        for ts in [
            "2026-01-01T00:00:01Z",
            "2026-01-01T00:00:02.5Z",
            "2026-01-01T00:00:02.5Z",
        ] {
            assert!(f.admit(Some(ts)));
        }
        let state = f.state().clone();
        assert_eq!(state.at_last, 2);
        assert_eq!(state.since().unwrap().to_string(), "2026-01-01T00:00:02Z");
        // The reconnect returns everything since the second: only the third line at 02.5 is new.
        let mut g = ResumeFilter::new(state);
        assert!(!g.admit(Some("2026-01-01T00:00:02.1Z")));
        assert!(!g.admit(Some("2026-01-01T00:00:02.5Z")));
        assert!(!g.admit(Some("2026-01-01T00:00:02.500Z")));
        assert!(g.admit(Some("2026-01-01T00:00:02.5Z")));
        assert!(g.admit(Some("2026-01-01T00:00:03Z")));
        assert!(g.admit(None));
    }

    #[test]
    fn line_reader_bounds_lines_and_keeps_bytes() {
        let data: &[u8] = b"one\r\ntwo\n\xff\xfebad\nabcdefghijkl\nvwxyzabcde\nlast";
        let mut r = LineReader::new(futures::io::Cursor::new(data), 5);
        let mut got = Vec::new();
        let mut buf = Vec::new();
        futures::executor::block_on(async {
            while r.next_into(&mut buf).await.unwrap() {
                got.push(String::from_utf8_lossy(strip_cr(&buf)).into_owned());
                buf.clear();
            }
        });
        assert_eq!(
            got,
            vec![
                "one",
                "two",
                "\u{fffd}\u{fffd}bad",
                "abcde",
                "fghij",
                "kl",
                "vwxyz",
                "abcde",
                "last"
            ]
        );
    }
}

//! `kubectl flink logs`: every Flink pod's logs by label selector, with kubectl's flags.
//!
//! The command checks the flags, builds the [`Printer`] (prefix, colour, highlight, grep, JSON
//! lines; tested against a `Vec<u8>`) and a writer thread for stdout, then hands over to
//! `cluster::logs`, which reads the streams.

use crate::cli::{Format, KubeArgs, OutputArgs};
use crate::cluster::logs::{
    self as source, Component, Containers, LineFormat, Notices, Options, StreamSpec, Target,
};
use crate::error::{Error, EXIT_OK};
use crate::finding::Severity;
use crate::render::Style;
use crate::signatures;
use k8s_openapi::jiff::Timestamp;
use regex::Regex;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Lines per container by default: enough to see a JobManager's crash and its cause, few enough
/// to read. kubectl's default with a selector (10) is too few for that.
pub const DEFAULT_TAIL: i64 = 200;
pub const DEFAULT_MAX_LOG_REQUESTS: u32 = 50;

const LOGS_HELP: &str = "\
Which pods:
  NAME               the Flink deployment's pods: app=NAME,component in (jobmanager,taskmanager)
                     (Apache operator: native and standalone pods also carry type=flink-native-
                     kubernetes or type=flink-standalone-kubernetes), or flink-app=NAME (Lyft)
  no NAME, no -l     every Flink JobManager and TaskManager pod in the namespace
  -l SELECTOR        any pods
  --component        jobmanager, taskmanager, or operator (the Flink operator's own pods:
                     app.kubernetes.io/name=flink-kubernetes-operator, or Lyft's app=flinkoperator)

Defaults:
  containers         each pod's main container: its kubectl.kubernetes.io/default-container, else
                     flink-main-container, else all its containers (-c NAME, --all-containers)
  --tail             200 lines per container (kubectl's 10 with a selector hides most crashes);
                     all lines with --since or --since-time; -1 for all. With -f, pods that
                     appear and restarted containers are read from their first line
  --max-log-requests 50 logs read at once; with -f, at most 50 containers are followed (a warning
                     names the others; they are followed when a slot frees up)
  --highlight        on when colour is on: lines matching a known failure signature (the catalogue
                     `doctor` uses) turn red (critical) or yellow (warning), with a hint
  -p, --previous     the instance before the current one (a crashed container); not with -f

Output:
  -o table           (default) lines prefixed with pod/container, [previous] for previous
                     instances, one colour per container on a terminal; grouped per container,
                     JobManager first; with -f, interleaved as they arrive
  -o json            one JSON object per line: namespace, pod, container, previous, timestamp
                     (with --timestamps), line, signature (id or null), category (or null)

Examples:
  # The JobManager and TaskManagers of the deployment orders
  kubectl flink logs orders -n analytics

  # Keep following them, only the lines that match
  kubectl flink logs orders -f --grep 'Exception|ERROR'

  # The crashed instances, every container
  kubectl flink logs orders --previous --all-containers

  # The Flink operator's own logs, one JSON object per line
  kubectl flink logs --component operator -o json

Exit codes:
  0  done; also after Ctrl-C, and when the output is closed (| head)
  2  usage or input error; NAME or -l matched no pods (with -f it waits for them instead)
  3  cluster unreachable, or listing pods or reading every log was forbidden";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ComponentArg {
    #[value(name = "jobmanager")]
    JobManager,
    #[value(name = "taskmanager")]
    TaskManager,
    #[value(name = "operator")]
    Operator,
}

#[derive(Debug, clap::Args)]
#[command(after_help = LOGS_HELP)]
pub struct LogsArgs {
    /// The Flink deployment: a FlinkDeployment or native cluster-id, or a Lyft FlinkApplication
    pub name: Option<String>,
    /// Pods with these labels instead of NAME (kubectl's selector syntax)
    #[arg(
        short = 'l',
        long = "selector",
        value_name = "SELECTOR",
        conflicts_with = "name"
    )]
    pub selector: Option<String>,
    /// Only the JobManager, the TaskManagers, or the Flink operator
    #[arg(long, value_enum, value_name = "COMPONENT")]
    pub component: Option<ComponentArg>,
    /// Only this container of each pod
    #[arg(
        short = 'c',
        long,
        value_name = "NAME",
        conflicts_with = "all_containers"
    )]
    pub container: Option<String>,
    /// Every container of each pod, init containers first [default: the main container]
    #[arg(long = "all-containers")]
    pub all_containers: bool,
    /// The previous (crashed) instance of each container instead of the current one
    #[arg(short = 'p', long, conflicts_with = "follow")]
    pub previous: bool,
    /// Only lines newer than this (e.g. 30s, 10m, 1h30m)
    #[arg(long, value_name = "DURATION", conflicts_with = "since_time")]
    pub since: Option<String>,
    /// Only lines since this time (RFC 3339, e.g. 2026-11-28T09:39:00Z)
    #[arg(long = "since-time", value_name = "TIME")]
    pub since_time: Option<String>,
    /// Lines from the end of each container's log, -1 for all [default: 200; all with --since]
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tail: Option<i64>,
    /// Show the kubelet's timestamp on each line
    #[arg(long)]
    pub timestamps: bool,
    /// Keep following: pods that appear, containers that restart; streams that end are retried
    #[arg(short = 'f', long)]
    pub follow: bool,
    /// Start each line with pod/container [default: true]
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL",
        overrides_with = "no_prefix"
    )]
    pub prefix: Option<bool>,
    /// Lines without the pod/container prefix
    #[arg(long = "no-prefix", overrides_with = "prefix")]
    pub no_prefix: bool,
    /// Logs read at once; with -f, containers followed at most (a warning names the others)
    #[arg(
        long = "max-log-requests",
        value_name = "N",
        default_value_t = DEFAULT_MAX_LOG_REQUESTS,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub max_log_requests: u32,
    /// Only lines matching this regular expression
    #[arg(long, value_name = "REGEX")]
    pub grep: Option<String>,
    /// Mark lines matching a known failure signature, with a hint [default: on when colour is on]
    #[arg(long, overrides_with = "no_highlight")]
    pub highlight: bool,
    /// Do not mark known failure lines
    #[arg(long = "no-highlight", overrides_with = "highlight")]
    pub no_highlight: bool,
}

pub async fn run(args: &LogsArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    let json = match output.output {
        Format::Table => false,
        Format::Json => true,
        Format::Markdown => {
            return Err(Error::Input(
                "logs prints lines (-o table) or JSON lines (-o json), not markdown".into(),
            ))
        }
    };
    let mut opts = options(args, output.verbose)?;
    let request_timeout = crate::cluster::client::parse_duration(&kube.request_timeout)?;
    opts.request_timeout = request_timeout;
    let style = Style::decide(output.color);
    let color = style.color && !json;
    let printer = Printer {
        json,
        color,
        prefix: !args.no_prefix && args.prefix.unwrap_or(true),
        namespaces: kube.all_namespaces,
        highlight: if args.highlight {
            true
        } else {
            !args.no_highlight && color
        },
        grep: match &args.grep {
            Some(re) => Some(Regex::new(re).map_err(|e| Error::input(&format!("--grep {re}"), e))?),
            None => None,
        },
    };

    // A followed log may be quiet for longer than --request-timeout: streams get no read timeout
    // (requests that are not streams keep it, applied in cluster::logs).
    let mut connect_args = crate::cluster::client::ConnectOptions::from(kube);
    if args.follow {
        connect_args.request_timeout = "0".into();
    }
    let mut cluster = crate::cluster::client::connect(&connect_args).await?;
    cluster.verbose = output.verbose;

    let (tx, written) = spawn_writer();
    let fmt: Arc<dyn LineFormat> = Arc::new(printer);
    let notices = Arc::new(if args.follow {
        Notices::immediate()
    } else {
        Notices::held()
    });
    let result = if args.follow {
        // Ctrl-C is one of the events follow handles: it stops the streams and returns.
        let interrupted = std::cell::Cell::new(false);
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
            interrupted.set(true);
        };
        let r = source::follow(&cluster, &opts, fmt, tx, notices.clone(), ctrl_c).await;
        if interrupted.get() {
            notices.flush();
            return Ok(EXIT_OK);
        }
        r
    } else {
        tokio::select! {
            r = source::print_once(&cluster, &opts, fmt, tx, &notices) => r,
            _ = tokio::signal::ctrl_c() => {
                notices.flush();
                return Ok(EXIT_OK);
            }
        }
    };
    // Every sender is gone once the work is done: wait for the writer to finish the output.
    let wrote = tokio::select! {
        r = written => r.unwrap_or(Ok(())),
        _ = tokio::signal::ctrl_c() => Ok(()),
    };
    notices.flush();
    if let Err(e) = wrote {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Error::incomplete("write the logs to standard output", e));
        }
    }
    result
}

/// Checks the flags and turns them into what `cluster::logs` needs.
pub fn options(args: &LogsArgs, verbose: u8) -> Result<Options, Error> {
    if let Some(name) = &args.name {
        if !valid_label_value(name) {
            return Err(Error::Input(format!(
                "\"{name}\" is not a Flink deployment name (a label value: letters, digits, '-', '_', '.', at most 63)"
            )));
        }
    }
    let component = args.component.map(|c| match c {
        ComponentArg::JobManager => Component::JobManager,
        ComponentArg::TaskManager => Component::TaskManager,
        ComponentArg::Operator => Component::Operator,
    });
    if component == Some(Component::Operator) {
        if let Some(name) = &args.name {
            return Err(Error::Input(format!(
                "--component operator reads the Flink operator's pods, which belong to no deployment: drop {name} \
                 (add --grep {name} to see only the lines about it)"
            )));
        }
        if args.selector.is_some() {
            return Err(Error::Input(
                "--component operator selects the operator's pods by its labels: drop -l".into(),
            ));
        }
    }
    let tail = match args.tail {
        Some(n) if n < -1 => {
            return Err(Error::Input(format!(
                "--tail {n}: use a number of lines, or -1 for all"
            )))
        }
        Some(-1) => None,
        Some(n) => Some(n),
        None if args.since.is_some() || args.since_time.is_some() => None,
        None => Some(DEFAULT_TAIL),
    };
    let since_seconds = match &args.since {
        Some(s) => Some(parse_since(s)?),
        None => None,
    };
    let since_time = match &args.since_time {
        Some(s) => Some(s.parse::<Timestamp>().map_err(|e| {
            Error::Input(format!(
                "--since-time {s}: not an RFC 3339 time such as 2026-11-28T09:39:00Z ({e})"
            ))
        })?),
        None => None,
    };
    let containers = match (&args.container, args.all_containers) {
        (Some(c), _) => Containers::Named(c.clone()),
        (None, true) => Containers::All,
        (None, false) => Containers::Default,
    };
    Ok(Options {
        target: Target {
            name: args.name.clone(),
            selector: args.selector.clone(),
            component,
        },
        containers,
        previous: args.previous,
        since_seconds,
        since_time,
        tail,
        timestamps: args.timestamps,
        max_requests: args.max_log_requests as usize,
        request_timeout: None,
        verbose,
    })
}

fn valid_label_value(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.last().is_some_and(u8::is_ascii_alphanumeric)
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// kubectl's `--since`: a Go duration (`30s`, `10m`, `1h30m`, `500ms`), rounded up to seconds.
pub fn parse_since(text: &str) -> Result<i64, Error> {
    let bad = || {
        Error::Input(format!(
            "--since {text}: use a duration such as 30s, 10m or 1h30m"
        ))
    };
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    let mut seconds = 0f64;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .ok_or_else(bad)?;
        let value: f64 = rest[..n].parse().map_err(|_| bad())?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..u] {
            "ns" => 1e-9,
            "us" | "µs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(bad()),
        };
        seconds += value * factor;
        rest = &rest[u..];
    }
    if !seconds.is_finite() || seconds <= 0.0 || seconds > i64::MAX as f64 {
        return Err(bad());
    }
    Ok(seconds.ceil() as i64)
}

// ------------------------------------------------------------------------------------------------
// Printing
// ------------------------------------------------------------------------------------------------

/// Renders one line at a time; decides nothing about colour (it is told).
#[derive(Debug)]
pub struct Printer {
    pub json: bool,
    pub color: bool,
    pub prefix: bool,
    /// `-A`: the prefix starts with the namespace.
    pub namespaces: bool,
    pub highlight: bool,
    pub grep: Option<Regex>,
}

/// Prefix colours: never red or yellow, which mark failure lines.
const PALETTE: &[&str] = &[
    "36", "32", "34", "35", "96", "92", "94", "95", "38;5;37", "38;5;141", "38;5;75", "38;5;114",
];
const RESET: &str = "\x1b[0m";

/// The same colour for the same pod/container on every run (FNV-1a, not a seeded hash).
pub fn prefix_color(label: &str) -> &'static str {
    let mut h: u32 = 0x811c_9dc5;
    for b in label.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    PALETTE[(h as usize) % PALETTE.len()]
}

#[derive(Serialize)]
struct JsonLine<'a> {
    namespace: &'a str,
    pod: &'a str,
    container: &'a str,
    previous: bool,
    timestamp: Option<&'a str>,
    line: &'a str,
    signature: Option<&'static str>,
    category: Option<&'static str>,
}

impl LineFormat for Printer {
    fn prefix(&self, s: &StreamSpec) -> String {
        if self.json || !self.prefix {
            return String::new();
        }
        let mut label = String::new();
        if self.namespaces {
            label.push_str(&s.namespace);
            label.push('/');
        }
        label.push_str(&s.pod);
        label.push('/');
        label.push_str(&s.container);
        let color = prefix_color(&label);
        if s.previous {
            label.push_str(" [previous]");
        }
        if self.color {
            format!("\x1b[{color}m{label}{RESET} ")
        } else {
            format!("{label} ")
        }
    }

    fn line(
        &self,
        s: &StreamSpec,
        prefix: &str,
        timestamp: Option<&str>,
        text: &str,
        out: &mut Vec<u8>,
    ) {
        if let Some(re) = &self.grep {
            if !re.is_match(text) {
                return;
            }
        }
        // What is printed never holds a secret (the masker every output uses) and, on a
        // terminal's formats, no control sequence but colour.
        let redacted = signatures::redact::redact(text);
        let text = if self.json {
            redacted
        } else {
            match crate::render::terminal::safe(&redacted, self.color) {
                std::borrow::Cow::Borrowed(_) => redacted,
                std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s),
            }
        };
        let text = text.as_ref();
        let signature = if self.json || self.highlight {
            signatures::catalogue()
                .match_line(text, 0)
                .into_iter()
                .next()
                .map(|m| m.signature)
        } else {
            None
        };
        if self.json {
            let record = JsonLine {
                namespace: &s.namespace,
                pod: &s.pod,
                container: &s.container,
                previous: s.previous,
                timestamp,
                line: text,
                signature: signature.map(|g| g.id),
                category: signature.map(|g| g.category.id()),
            };
            // Serialising plain strings and bools into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut *out, &record);
            out.push(b'\n');
            return;
        }
        out.extend_from_slice(prefix.as_bytes());
        if let Some(ts) = timestamp {
            out.extend_from_slice(ts.as_bytes());
            out.push(b' ');
        }
        match signature {
            None => out.extend_from_slice(text.as_bytes()),
            Some(sig) => {
                let code = match sig.severity {
                    Severity::Critical => Some("31"),
                    Severity::Warning => Some("33"),
                    Severity::Info => None,
                };
                let hint = format!("⟵ {}: {}", sig.category.id(), sig.explanation);
                match (self.color, code) {
                    (true, Some(code)) => {
                        let _ = write!(
                            out,
                            "\x1b[{code}m{text}{RESET}  \x1b[1;{code}m{hint}{RESET}"
                        );
                    }
                    (true, None) => {
                        let _ = write!(out, "{text}  \x1b[2m{hint}{RESET}");
                    }
                    (false, _) => {
                        let _ = write!(out, "{text}  {hint}");
                    }
                }
            }
        }
        out.push(b'\n');
    }
}

/// One thread writes stdout: chunks are written as they come and flushed whenever no more are
/// waiting (prompt when idle, batched under load). The result arrives when every sender is gone
/// or stdout fails (a closed pipe ends it quietly: the senders then see a closed channel).
fn spawn_writer() -> (
    mpsc::Sender<Vec<u8>>,
    oneshot::Receiver<std::io::Result<()>>,
) {
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(64);
    let (done_tx, done_rx) = oneshot::channel();
    std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::with_capacity(256 * 1024, stdout.lock());
        let mut write_all = || -> std::io::Result<()> {
            while let Some(chunk) = rx.blocking_recv() {
                w.write_all(&chunk)?;
                while let Ok(more) = rx.try_recv() {
                    w.write_all(&more)?;
                }
                w.flush()?;
            }
            w.flush()
        };
        let r = write_all();
        drop(rx);
        let _ = done_tx.send(r);
    });
    (tx, done_rx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::logs::Role;

    fn spec(previous: bool) -> StreamSpec {
        StreamSpec {
            namespace: "analytics".into(),
            pod: "orders-5d8f9c7b6d-x7k2p".into(),
            container: "flink-main-container".into(),
            previous,
            role: Role::JobManager,
        }
    }

    fn printer() -> Printer {
        Printer {
            json: false,
            color: false,
            prefix: true,
            namespaces: false,
            highlight: true,
            grep: None,
        }
    }

    const FORBIDDEN: &str = "Message: pods is forbidden: User \"system:serviceaccount:analytics:default\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\".";

    fn render(p: &Printer, s: &StreamSpec, ts: Option<&str>, text: &str) -> String {
        let prefix = p.prefix(s);
        let mut out = Vec::new();
        p.line(s, &prefix, ts, text, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_lines_with_prefix_and_previous() {
        let p = printer();
        assert_eq!(
            render(&p, &spec(false), None, "hello"),
            "orders-5d8f9c7b6d-x7k2p/flink-main-container hello\n"
        );
        assert_eq!(
            render(&p, &spec(true), Some("2026-11-28T09:39:02Z"), "hello"),
            "orders-5d8f9c7b6d-x7k2p/flink-main-container [previous] 2026-11-28T09:39:02Z hello\n"
        );
        let bare = Printer {
            prefix: false,
            ..printer()
        };
        assert_eq!(render(&bare, &spec(false), None, "hello"), "hello\n");
        let all_ns = Printer {
            namespaces: true,
            ..printer()
        };
        assert!(render(&all_ns, &spec(false), None, "x")
            .starts_with("analytics/orders-5d8f9c7b6d-x7k2p/"));
    }

    #[test]
    fn printed_lines_hold_no_secret_and_no_terminal_sequence_but_colour() {
        let p = printer();
        let out = render(
            &p,
            &spec(false),
            None,
            "jdbc:postgresql://db/orders?user=app&password=hunter2 \x1b]0;pwned\x07\x1b[2J",
        );
        assert!(!out.contains("hunter2"), "{out}");
        assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
        let coloured = Printer {
            color: true,
            ..printer()
        };
        let out = render(&coloured, &spec(false), None, "\x1b[33mWARN\x1b[m ok");
        assert!(out.contains("\x1b[33mWARN\x1b[m ok"), "{out:?}");
        let json = Printer {
            json: true,
            ..printer()
        };
        let out = render(&json, &spec(false), None, "password=hunter2");
        assert!(!out.contains("hunter2"), "{out}");
    }

    #[test]
    fn highlight_marks_the_403_line_with_its_category() {
        let out = render(&printer(), &spec(false), None, FORBIDDEN);
        assert!(
            out.contains("⟵ rbac_forbidden: the API server refused"),
            "{out}"
        );
        let coloured = Printer {
            color: true,
            ..printer()
        };
        let out = render(&coloured, &spec(false), None, FORBIDDEN);
        assert!(out.contains(&format!("\x1b[31m{FORBIDDEN}")), "{out:?}");
        let quiet = Printer {
            highlight: false,
            ..printer()
        };
        assert!(!render(&quiet, &spec(false), None, FORBIDDEN).contains('⟵'));
        assert!(!render(&printer(), &spec(false), None, "INFO all good").contains('⟵'));
    }

    #[test]
    fn colours_are_stable_and_never_red_or_yellow() {
        assert_eq!(prefix_color("a/b"), prefix_color("a/b"));
        for label in [
            "orders-jm/flink-main-container",
            "orders-taskmanager-1-1/flink-main-container",
            "x/y",
        ] {
            assert!(!["31", "33", "91", "93"].contains(&prefix_color(label)));
        }
        let coloured = Printer {
            color: true,
            ..printer()
        };
        assert!(coloured.prefix(&spec(false)).starts_with("\x1b["));
    }

    #[test]
    fn grep_filters_and_json_lines_carry_the_signature() {
        let grep = Printer {
            grep: Some(Regex::new("forbidden").unwrap()),
            ..printer()
        };
        assert_eq!(render(&grep, &spec(false), None, "INFO fine"), "");
        assert!(!render(&grep, &spec(false), None, FORBIDDEN).is_empty());

        let json = Printer {
            json: true,
            ..printer()
        };
        let out = render(&json, &spec(true), Some("2026-11-28T09:39:12Z"), FORBIDDEN);
        let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(v["pod"], "orders-5d8f9c7b6d-x7k2p");
        assert_eq!(v["container"], "flink-main-container");
        assert_eq!(v["previous"], true);
        assert_eq!(v["timestamp"], "2026-11-28T09:39:12Z");
        assert_eq!(v["line"], FORBIDDEN);
        assert_eq!(v["signature"], "SIG-K8S-FORBIDDEN");
        assert_eq!(v["category"], "rbac_forbidden");
        let out = render(&json, &spec(false), None, "plain \u{fffd} line");
        let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        assert!(v["signature"].is_null() && v["category"].is_null() && v["timestamp"].is_null());
    }

    #[test]
    fn since_durations_as_kubectl_takes_them() {
        assert_eq!(parse_since("10m").unwrap(), 600);
        assert_eq!(parse_since("1h30m").unwrap(), 5400);
        assert_eq!(parse_since("1.5s").unwrap(), 2);
        assert_eq!(parse_since("500ms").unwrap(), 1);
        for bad in ["", "10", "ten", "5x", "0s", "-1m"] {
            assert!(parse_since(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flags_become_options() {
        use clap::Parser;
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            a: LogsArgs,
        }
        let parse = |args: &[&str]| {
            T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|t| t.a)
        };
        let a = parse(&["orders"]).unwrap();
        let o = options(&a, 0).unwrap();
        assert_eq!(o.tail, Some(DEFAULT_TAIL));
        assert_eq!(o.containers, Containers::Default);
        assert_eq!(o.max_requests, 50);
        assert_eq!(
            options(&parse(&["orders", "--tail", "-1"]).unwrap(), 0)
                .unwrap()
                .tail,
            None
        );
        assert_eq!(
            options(&parse(&["orders", "--since", "10m"]).unwrap(), 0)
                .unwrap()
                .tail,
            None
        );
        assert_eq!(
            options(
                &parse(&["orders", "--since", "10m", "--tail=5"]).unwrap(),
                0
            )
            .unwrap()
            .tail,
            Some(5)
        );
        assert!(options(&parse(&["orders", "--tail", "-2"]).unwrap(), 0).is_err());
        assert!(options(&parse(&["bad/name"]).unwrap(), 0).is_err());
        assert!(options(&parse(&["orders", "--component", "operator"]).unwrap(), 0).is_err());
        assert!(options(&parse(&["--since-time", "yesterday"]).unwrap(), 0).is_err());
        assert!(parse(&["orders", "-l", "a=b"]).is_err());
        assert!(parse(&["orders", "-p", "-f"]).is_err());
        assert!(parse(&[
            "orders",
            "--since",
            "1m",
            "--since-time",
            "2026-01-01T00:00:00Z"
        ])
        .is_err());
        assert!(parse(&["orders", "--max-log-requests", "0"]).is_err());
        let a = parse(&["--prefix=false", "orders"]).unwrap();
        assert_eq!((a.prefix, a.no_prefix), (Some(false), false));
        let a = parse(&["--no-prefix", "--prefix"]).unwrap();
        assert_eq!((a.prefix, a.no_prefix), (Some(true), false));
        let a = parse(&["--component", "taskmanager", "-c", "x", "orders"]).unwrap();
        let o = options(&a, 0).unwrap();
        assert_eq!(o.target.component, Some(Component::TaskManager));
        assert_eq!(o.containers, Containers::Named("x".into()));
    }
}

//! `kubectl flink logs`: every Flink pod's logs by label selector, with kubectl's flags.
//!
//! The command checks the flags, builds the [`Printer`] (prefix, colour, highlight, grep, JSON
//! lines; tested against a `Vec<u8>`) and a writer thread for stdout, then hands over to
//! `cluster::logs`, which reads the streams.

use crate::cli::{Format, KubeArgs, OutputArgs};
use crate::cluster::logs::{
    self as source, Containers, LineFormat, Notices, Options, Pattern, StreamSpec, Target,
};
use crate::error::{Error, EXIT_OK};
use crate::finding::Severity;
use crate::flink::mode::Component;
use crate::render::style::{Look, RESET};
use crate::render::Style;
use crate::signatures;
use colored::Color;
use jiff::tz::TimeZone;
use k8s_openapi::jiff::Timestamp;
use regex::Regex;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use template::Template;
use tokio::sync::{mpsc, oneshot};

/// Lines per container by default: enough to see a JobManager's crash and its cause, few enough
/// to read. kubectl's default with a selector (10) is too few for that.
pub const DEFAULT_TAIL: i64 = 200;

mod printer;
mod template;

pub use printer::{prefix_colors, Printer};
pub const DEFAULT_MAX_LOG_REQUESTS: u32 = 50;

const LOGS_HELP: &str = "\
Which pods:
  NAME               the Flink deployment's pods: app=NAME,component in (jobmanager,taskmanager)
                     (Apache operator: native and standalone pods also carry type=flink-native-
                     kubernetes or type=flink-standalone-kubernetes), flink-app=NAME (Lyft), or
                     app=flink,cluster=NAME (a FlinkCluster: with its job submitter's pods).
                     When that deployment has no pods, the Flink pods whose name matches NAME
                     (stern's pod query, with -f too); a NAME that is not a plain name
                     (e.g. 'orders-.*-1$') is always such a regular expression
  no NAME, no -l     every Flink JobManager and TaskManager pod in the namespace
  pod/NAME           that one pod; flinkdeployment/NAME the deployment, never a query (stern's
                     KIND/NAME)
  -l SELECTOR [QUERY] any pods; QUERY, if given, is a pod-name regular expression
  --component        jobmanager, taskmanager, or operator (the Flink operator's own pods:
                     app.kubernetes.io/name=flink-kubernetes-operator, Lyft's app=flinkoperator,
                     or the FlinkCluster operator's app=flink-operator)
  --exclude-pod, --field-selector, --node, -n a,b  narrow or widen as stern's flags do

Which lines (stern's filters; regular expressions, unanchored, each flag repeatable):
  -e, --exclude      drop lines matching any of these
  -i, --include      keep only lines matching one of these (--grep is the same flag)
  -H, --highlight    mark what matches in each line (with colour; -i matches are marked too)

Defaults:
  containers         each pod's main container: its kubectl.kubernetes.io/default-container, else
                     flink-main-container (a FlinkCluster's: jobmanager, taskmanager), else all
                     its containers (-c REGEX, --all-containers, less --exclude-container)
  --tail             200 lines per container (kubectl's 10 with a selector hides most crashes);
                     all lines with --since or --since-time; -1 for all. With -f, pods that
                     appear and restarted containers are read from their first line
  --max-log-requests 50 logs read at once; with -f, at most 50 containers are followed (a warning
                     names the others; they are followed when a slot frees up)
  catalogue marking  on when colour is on (--highlight alone forces it, --no-highlight stops it):
                     lines matching a known failure signature (the catalogue `doctor` uses) turn
                     red (critical) or yellow (warning), with a hint. A bare --highlight takes the
                     next word as its regular expression: put it after NAME
  -p, --previous     the instance before the current one (a crashed container); not with -f

Output:
  -o table           (default) lines prefixed with pod/container ([previous] for previous
                     instances; namespace/ first with -A or several namespaces); on a terminal
                     each pod name and each container name has its own stable colour, as stern
                     gives them; grouped per container, JobManager first; with -f, interleaved
                     as they arrive
  --template TEXT    stern's line template: {{.Message}} {{.PodName}} {{.ContainerName}}
                     {{.Namespace}} {{.NodeName}}, {{index .Labels \"app\"}}, {{color .PodColor
                     .PodName}}, {{\"\\n\"}}; a line ending is added when the result has none;
                     {{.Context}} (not stern's): the context with --context a,b, in place of
                     the [CONTEXT] prefix
  -o json            one JSON object per line: namespace, pod, container, previous, timestamp
                     (with --timestamps), line, signature (id or null), category (or null)
  --timestamps       the kubelet's time (UTC) first on each line; --timezone shows it in another
                     zone (Local, UTC, an IANA name such as Europe/Berlin, or +02:00)
  --context a,b      several contexts (or --all-contexts), at most 4 at once: each line starts
                     with [CONTEXT], each JSON line has a context; a context that cannot be read
                     is one error line and holds up none of the others; -f follows at most 4

Examples:
  # The JobManager and TaskManagers of the deployment orders
  kubectl flink logs orders -n analytics

  # Keep following them, only the lines that match
  kubectl flink logs orders -f --grep 'Exception|ERROR'

  # The crashed instances, every container
  kubectl flink logs orders --previous --all-containers

  # The Flink operator's own logs, one JSON object per line
  kubectl flink logs --component operator -o json

  # As stern: TaskManager pods by regex in two namespaces, without the heartbeat lines
  kubectl flink logs 'orders-taskmanager-.*' -n analytics,staging -e heartbeat

  # The crashed JobManager of orders in two clusters, each line with its context
  kubectl flink logs orders -n analytics --previous --context staging,prod

Exit codes:
  0  done; also after Ctrl-C, and when the output is closed (| head)
  2  usage or input error (a bad regular expression or template); NAME or -l matched no pods
     (with -f it waits for them instead)
  3  cluster unreachable, or listing pods or reading every log was forbidden
  with several contexts: the worst of theirs, in the order 2, 3, 0";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ComponentArg {
    #[value(name = crate::flink::names::COMPONENT_JOBMANAGER)]
    JobManager,
    #[value(name = crate::flink::names::COMPONENT_TASKMANAGER)]
    TaskManager,
    #[value(name = "operator")]
    Operator,
}

// Flag names are kubectl's, and stern's where kubectl has none (stern/stern@v1.33.0:cmd/cmd.go
// AddFlags): -e/--exclude, -i/--include, -H/--highlight, --exclude-pod, -E/--exclude-container,
// --field-selector, --node, --template, --timezone; -c takes a regular expression as stern's.
#[derive(Debug, clap::Args)]
#[command(after_help = LOGS_HELP)]
pub struct LogsArgs {
    /// The Flink deployment (a FlinkDeployment or native cluster-id, or a Lyft FlinkApplication);
    /// else a pod-name regular expression, as stern's query
    #[arg(value_name = "NAME|QUERY")]
    pub name: Option<String>,
    /// Pods with these labels instead of NAME (kubectl's selector syntax); QUERY narrows them
    #[arg(short = 'l', long = "selector", value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// Only the JobManager, the TaskManagers, or the Flink operator
    #[arg(long, value_enum, value_name = "COMPONENT")]
    pub component: Option<ComponentArg>,
    /// Leave out pods whose name matches (repeatable)
    #[arg(long = "exclude-pod", value_name = "REGEX")]
    pub exclude_pod: Vec<String>,
    /// Only pods matching this field selector (e.g. status.phase=Running)
    #[arg(long = "field-selector", value_name = "SELECTOR")]
    pub field_selector: Option<String>,
    /// Only pods on this node
    #[arg(long, value_name = "NODE")]
    pub node: Option<String>,
    /// Only containers whose name matches, init containers too [default: the main container]
    #[arg(
        short = 'c',
        long,
        value_name = "REGEX",
        conflicts_with = "all_containers"
    )]
    pub container: Option<String>,
    /// Leave out containers whose name matches (repeatable)
    #[arg(short = 'E', long = "exclude-container", value_name = "REGEX")]
    pub exclude_container: Vec<String>,
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
    /// Show timestamps in this zone: Local, UTC, an IANA name (Europe/Berlin) or +02:00
    #[arg(long, value_name = "ZONE", requires = "timestamps")]
    pub timezone: Option<String>,
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
    /// Each line through stern's template instead of the prefix (see below)
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
    /// Logs read at once; with -f, containers followed at most (a warning names the others)
    #[arg(
        long = "max-log-requests",
        value_name = "N",
        default_value_t = DEFAULT_MAX_LOG_REQUESTS,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub max_log_requests: u32,
    /// Leave out lines matching (repeatable)
    #[arg(short = 'e', long, value_name = "REGEX")]
    pub exclude: Vec<String>,
    /// Only lines matching one of these (repeatable)
    #[arg(short = 'i', long, visible_alias = "grep", value_name = "REGEX")]
    pub include: Vec<String>,
    /// Mark what matches in each line (repeatable); alone: force the catalogue's failure marking
    #[arg(
        short = 'H',
        long,
        value_name = "REGEX",
        num_args = 0..=1,
        default_missing_value = ""
    )]
    pub highlight: Vec<String>,
    /// Do not mark known failure lines (-H still marks what it matches)
    #[arg(long = "no-highlight")]
    pub no_highlight: bool,
}

pub async fn run(args: &LogsArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    let json = match output.output {
        Format::Table => false,
        Format::Json => true,
        other @ (Format::Markdown | Format::Sarif | Format::Html) => {
            return Err(Error::Input(format!(
                "logs prints lines (-o table) or JSON lines (-o json), not {}",
                other.as_str()
            )))
        }
    };
    check_namespaces(kube)?;
    let mut opts = options(args, output.verbose)?;
    let request_timeout = crate::cluster::client::parse_duration(&kube.request_timeout)?;
    opts.request_timeout = request_timeout;
    let style = Style::decide(output.color);
    let color = style.color && !json;
    let several_namespaces = kube
        .namespace
        .as_deref()
        .is_some_and(|n| crate::cluster::logs::namespace_list(n).len() > 1);
    let printer = printer(args, json, color, kube.all_namespaces || several_namespaces)?;
    if let Some(listed) = kube.context_list() {
        return fleet(args, kube, opts, printer, listed).await;
    }

    // A followed log may be quiet for longer than --request-timeout: streams get no read timeout
    // (requests that are not streams keep it, applied in cluster::logs); connecting keeps it.
    let mut connect_args = crate::cluster::client::ConnectOptions::from(kube);
    connect_args.streams = args.follow;
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
        // Without -f the run has the deadline of every command that reads the cluster: a log
        // that trickles a byte a second never ends on its own.
        let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
        tokio::select! {
            r = super::within(deadline, source::print_once(&cluster, &opts, fmt, tx, &notices)) => r,
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

/// `logs --context a,b` or `--all-contexts`: each context read as `logs --context NAME` reads
/// it, through the fleet machinery doctor uses (at most 4 at once; without -f each within its own
/// deadline), every line starting with its context (`[prod] pod/container`, `context` in JSON)
/// and one writer for them all. A context that cannot be read is one `error: context NAME:` line
/// and never holds up the others; the exit code is the worst context's.
async fn fleet(
    args: &LogsArgs,
    kube: &KubeArgs,
    opts: Options,
    printer: Printer,
    listed: Vec<String>,
) -> Result<i32, Error> {
    let names = super::fleet::resolve(kube, listed)?;
    if args.follow && names.len() > super::fleet::AT_ONCE {
        return Err(Error::Input(format!(
            "logs -f follows at most {} contexts at once (each keeps its streams open until Ctrl-C), not {}: name at most {} with --context a,b, or drop -f",
            super::fleet::AT_ONCE,
            names.len(),
            super::fleet::AT_ONCE
        )));
    }
    let (tx, written) = spawn_writer();
    let (opts, printer, sender) = (&opts, &printer, &tx);
    let each = super::fleet::each_context(kube, &names, |name, mut options| async move {
        let notices = if args.follow {
            Notices::immediate()
        } else {
            Notices::held()
        };
        let notices = Arc::new(notices.in_context(&name));
        let fmt: Arc<dyn LineFormat> = Arc::new(Printer {
            context: Some(name.clone()),
            ..printer.clone()
        });
        let result = if args.follow {
            // Streams without a read timeout; connecting within the context's deadline, as
            // without -f (an exec credential plugin that waits, a server that drops packets).
            options.streams = true;
            let read = async {
                let mut cluster =
                    super::fleet::within_deadline(kube, crate::cluster::client::connect(&options))
                        .await?;
                cluster.verbose = opts.verbose;
                source::follow(
                    &cluster,
                    opts,
                    fmt,
                    sender.clone(),
                    notices.clone(),
                    std::future::pending::<()>(),
                )
                .await
            };
            read.await
        } else {
            super::fleet::within_deadline(kube, async {
                let mut cluster = crate::cluster::client::connect(&options).await?;
                cluster.verbose = opts.verbose;
                source::print_once(&cluster, opts, fmt, sender.clone(), &notices).await
            })
            .await
        };
        (name, result, notices)
    });
    // Ctrl-C ends every context's reading; what was held is said, and the run ends as kubectl's.
    let results = tokio::select! {
        r = each => r,
        _ = tokio::signal::ctrl_c() => return Ok(EXIT_OK),
    };
    let mut codes = Vec::new();
    for (name, result, notices) in &results {
        notices.flush();
        match result {
            Ok(code) => codes.push(*code),
            Err(e) => {
                let (_, error) = super::fleet::failure(e);
                eprintln!("error: context {name}: {error}");
                codes.push(e.exit_code());
            }
        }
    }
    drop(tx);
    // Every sender is gone once each context is done: wait for the writer to finish the output.
    let wrote = written.await.unwrap_or(Ok(()));
    if let Err(e) = wrote {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Error::incomplete("write the logs to standard output", e));
        }
    }
    Ok(super::fleet::worst(codes.into_iter()))
}

/// `-n a,b`: several namespaces, as stern takes them; each must be a namespace name.
fn check_namespaces(kube: &KubeArgs) -> Result<(), Error> {
    let Some(ns) = kube.namespace.as_deref() else {
        return Ok(());
    };
    if !ns.contains(',') {
        return Ok(());
    }
    for n in ns.split(',').map(str::trim) {
        let ok = !n.is_empty()
            && n.len() <= 63
            && n.bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            && !n.starts_with('-')
            && !n.ends_with('-');
        if !ok {
            return Err(Error::Input(format!(
                "-n {ns}: \"{n}\" is not a namespace name (use -n a,b for several)"
            )));
        }
    }
    Ok(())
}

/// Compiles one regular expression of a flag; a bad one is a one-line usage error (exit 2).
fn regex(flag: &str, text: &str) -> Result<Regex, Error> {
    Regex::new(text).map_err(|e| {
        Error::Input(format!(
            "{flag} {text}: not a valid regular expression ({})",
            crate::error::one_line(&e.to_string())
        ))
    })
}

fn regexes(flag: &str, texts: &[String]) -> Result<Vec<Regex>, Error> {
    texts.iter().map(|t| regex(flag, t)).collect()
}

/// A NAME that can only be a regular expression: it is not a plain label value.
fn is_query(name: &str) -> bool {
    !valid_label_value(name)
}

/// Checks the flags and turns them into what `cluster::logs` needs.
pub fn options(args: &LogsArgs, verbose: u8) -> Result<Options, Error> {
    let component = args.component.map(|c| match c {
        ComponentArg::JobManager => Component::JobManager,
        ComponentArg::TaskManager => Component::TaskManager,
        ComponentArg::Operator => Component::Operator,
    });
    // stern's `KIND/NAME` form (stern/stern@v1.33.0:cmd/cmd.go Complete): `pod/NAME` is that pod,
    // any other kind (flinkdeployment/, deployment/) the deployment NAME, never a query.
    let mut name = args.name.clone();
    let mut exact = false;
    if let Some((kind, n)) = args.name.as_deref().and_then(|s| s.split_once('/')) {
        if !valid_label_value(n) || args.selector.is_some() {
            return Err(Error::Input(format!(
                "\"{}\" is neither a Flink deployment name nor KIND/NAME (e.g. pod/NAME, \
                 flinkdeployment/NAME); a pod query is a regular expression without '/'",
                args.name.as_deref().unwrap_or("")
            )));
        }
        exact = true;
        name = Some(if matches!(kind, "pod" | "pods" | "po") {
            format!("^{}$", regex::escape(n))
        } else {
            n.to_string()
        });
    }
    // NAME is stern's pod query with -l, or when it cannot be a deployment name.
    let query_only = args.selector.is_some() || name.as_deref().is_some_and(is_query);
    if component == Some(Component::Operator) {
        if let Some(name) = name.as_deref().filter(|_| !query_only) {
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
    let mut containers = match (&args.container, args.all_containers) {
        (Some(c), _) => Containers::matching(Pattern(regex("-c", c)?)),
        (None, true) => Containers::all(),
        (None, false) => Containers::default_choice(),
    };
    containers.exclude = regexes("--exclude-container", &args.exclude_container)?
        .into_iter()
        .map(Pattern)
        .collect();
    let mut fields: Vec<String> = Vec::new();
    if let Some(f) = args
        .field_selector
        .as_deref()
        .filter(|f| !f.trim().is_empty())
    {
        fields.push(f.to_string());
    }
    if let Some(n) = &args.node {
        if n.is_empty() || n.contains(',') || n.contains('=') {
            return Err(Error::Input(format!("--node {n}: not a node name")));
        }
        fields.push(format!("spec.nodeName={n}"));
    }
    let pod_query = match name.as_deref() {
        Some(q) if query_only => Some(Pattern(regex("pod query", q)?)),
        _ => None,
    };
    let target = Target {
        name: name.clone().filter(|_| !query_only),
        selector: args.selector.clone(),
        component,
        pod_query,
        or_deployment: None,
        exclude_pods: regexes("--exclude-pod", &args.exclude_pod)?
            .into_iter()
            .map(Pattern)
            .collect(),
        fields: (!fields.is_empty()).then(|| fields.join(",")),
    };
    // A plain NAME whose deployment has no pods is read as stern's pod query.
    let fallback = match target.name.as_ref().filter(|_| !exact) {
        Some(name) => Some(Target {
            name: None,
            pod_query: Some(Pattern(regex("pod query", name)?)),
            or_deployment: Some(name.clone()),
            ..target.clone()
        }),
        None => None,
    };
    Ok(Options {
        target,
        fallback,
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

/// The line printer the flags ask for: filters, marks, template, time zone.
fn printer(args: &LogsArgs, json: bool, color: bool, namespaces: bool) -> Result<Printer, Error> {
    let template = match &args.template {
        Some(_) if json => {
            return Err(Error::Input(
                "--template replaces -o table's prefix: drop -o json".into(),
            ))
        }
        Some(t) => Some(Template::parse(t).map_err(|e| Error::Input(format!("--template: {e}")))?),
        None => None,
    };
    let include = regexes("--include", &args.include)?;
    let user_marks: Vec<&String> = args.highlight.iter().filter(|h| !h.is_empty()).collect();
    let mut highlight = Vec::new();
    for h in &user_marks {
        highlight.push(regex("--highlight", h)?);
    }
    let catalogue = !args.no_highlight && (color || args.highlight.iter().any(String::is_empty));
    Ok(Printer {
        context: None,
        json,
        color,
        prefix: !args.no_prefix && args.prefix.unwrap_or(true),
        namespaces,
        highlight: catalogue,
        exclude: regexes("--exclude", &args.exclude)?,
        marks: marks(&include, &highlight),
        include,
        template,
        timezone: match &args.timezone {
            Some(z) => Some(parse_timezone(z)?),
            None => None,
        },
    })
}

/// One regular expression for what `-H` marks: the `-i` and `-H` ones, longest first, as stern
/// builds it (stern/stern@v1.33.0:stern/tail_utils.go HighlightMatchedString).
fn marks(include: &[Regex], highlight: &[Regex]) -> Option<Regex> {
    let mut all: Vec<&str> = include.iter().chain(highlight).map(Regex::as_str).collect();
    if all.is_empty() {
        return None;
    }
    all.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let joined = all
        .iter()
        .map(|s| format!("(?:{s})"))
        .collect::<Vec<_>>()
        .join("|");
    // Each part compiled on its own, so the union compiles too.
    Regex::new(&joined).ok()
}

/// `--timezone`: what Go's time.LoadLocation takes (stern's `--timezone`), plus fixed offsets.
pub fn parse_timezone(text: &str) -> Result<TimeZone, Error> {
    let bad = |why: String| {
        Error::Input(format!(
            "--timezone {text}: {why} (use Local, UTC, an IANA name such as Europe/Berlin, or an offset such as +02:00)"
        ))
    };
    match text {
        "" | "UTC" | "utc" | "Z" => return Ok(TimeZone::UTC),
        "Local" | "local" => {
            return TimeZone::try_system().map_err(|e| bad(format!("no local time zone: {e}")))
        }
        _ => {}
    }
    if let Some(sign) = text.chars().next().filter(|c| *c == '+' || *c == '-') {
        let digits: String = text[1..].chars().filter(|c| *c != ':').collect();
        let ok = digits.bytes().all(|b| b.is_ascii_digit()) && matches!(digits.len(), 2 | 4);
        if !ok {
            return Err(bad("not an offset".into()));
        }
        let h: i32 = digits[..2].parse().unwrap_or(99);
        let m: i32 = digits.get(2..).map_or(Ok(0), str::parse).unwrap_or(99);
        if h > 23 || m > 59 {
            return Err(bad("not an offset".into()));
        }
        let secs = (h * 3600 + m * 60) * if sign == '-' { -1 } else { 1 };
        let offset = jiff::tz::Offset::from_seconds(secs).map_err(|e| bad(e.to_string()))?;
        return Ok(TimeZone::fixed(offset));
    }
    TimeZone::get(text).map_err(|e| bad(crate::error::one_line(&e.to_string())))
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
mod tests;

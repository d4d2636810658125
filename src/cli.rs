//! The command line: kubectl's global flag names verbatim, one struct per command.

use clap::builder::TypedValueParser;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  nothing found at or above --fail-on (default: warning)
  1  findings at or above --fail-on
  2  usage or input error (bad flag or namespace, unreadable bundle or kubeconfig, unknown
     context, a --save folder that cannot be written: after the report if found at the end)
  3  could not complete (cluster unreachable or not trusted, credentials refused, everything
     forbidden)
  4  doctor: no Flink deployment in scope and nothing else found (try -A), or none named NAME
  130, 143  stopped by Ctrl-C or SIGTERM (doctor --save removes its unfinished folder first)
  with several contexts (--context a,b or --all-contexts; doctor, logs, can-i): the worst of
  theirs, in the order 2, 3, 1, 0; 4 only when it is every context's";

/// triage reads text it was given and nothing else: it cannot fail to reach a cluster (3), has no
/// deployment to miss (4) and writes no folder to stop (130, 143).
pub const TRIAGE_EXIT_CODES: &str = "\
Exit codes:
  0  nothing found at or above --fail-on (default: warning)
  1  findings at or above --fail-on
  2  usage or input error (bad flag, unreadable or oversized input)";

const DOCTOR_EXAMPLES: &str = "\
Examples:
  # Every Flink deployment in the current namespace
  kubectl flink doctor

  # One deployment in another namespace, as JSON
  kubectl flink doctor orders -n analytics -o json

  # Every namespace; exit 1 only for critical findings
  kubectl flink doctor -A --fail-on critical

  # Save what was read as a bundle, and diagnose it later without the cluster
  kubectl flink doctor orders --save ./orders-bundle
  kubectl flink doctor --from ./orders-bundle

  # A support bundle kubectl made (no Flink resources or previous logs in it: less to go on)
  kubectl cluster-info dump --namespaces analytics --output-directory ./dump
  kubectl flink doctor --from ./dump

  # The fixes: the objects to apply, then the commands to run
  kubectl flink doctor orders --fix | kubectl apply -f -
  kubectl flink doctor orders --fix=run

  # Every context of the kubeconfig at once (or some: --context dev,staging,prod), one overview
  kubectl flink doctor --all-contexts -A

  # One self-contained HTML page to share
  kubectl flink doctor -A -o html > flink-report.html";

const TRIAGE_EXAMPLES: &str = "\
Examples:
  # The log of a crashed JobManager
  kubectl logs orders-7c9d8f-xk2lp --previous | kubectl flink triage

  # A saved log, as Markdown for an issue
  kubectl flink triage jobmanager.log -o markdown

  # What kubectl describe says about a pod
  kubectl describe pod orders-taskmanager-1-1 | kubectl flink triage -";

#[derive(Debug, Parser)]
#[command(
    name = "kubectl-flink",
    bin_name = "kubectl flink",
    version = env!("KUBECTL_FLINK_VERSION"),
    about = "Why is my Flink deployment on Kubernetes broken, and how do I fix it?",
    long_about = "kubectl-flink walks a Flink deployment on Kubernetes layer by layer (install, spec, \
scheduling, runtime, identity, cluster, job) and prints a ranked diagnosis: root causes first, \
symptoms folded under them, each with evidence, an exact fix and the command that verifies it.\n\n\
It only reads: get, list, watch and access reviews. It never prints Secret data.",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(flatten)]
    pub kube: KubeArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// kubectl's connection flags, spelled as kubectl spells them.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = GLOBAL_FLAGS)]
pub struct KubeArgs {
    /// Path to the kubeconfig file (default: $KUBECONFIG, which may list several files, then ~/.kube/config)
    #[arg(long, global = true, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use; doctor, logs and can-i take several (--context a,b,c) and
    /// read them at once (at most 4 at a time, each within its own deadline)
    #[arg(long, global = true, value_name = "NAME")]
    pub context: Option<String>,
    /// Every context of the kubeconfig at once (at most 4 at a time): doctor's fleet overview,
    /// logs with each line's context first, can-i's matrix with a CONTEXT column
    #[arg(long = "all-contexts", global = true)]
    pub all_contexts: bool,
    /// The kubeconfig cluster to use
    #[arg(long, global = true, value_name = "NAME")]
    pub cluster: Option<String>,
    /// The kubeconfig user to use
    #[arg(long, global = true, value_name = "NAME")]
    pub user: Option<String>,
    /// Namespace (default: the context's namespace); logs takes several (-n a,b)
    #[arg(short = 'n', long, global = true, value_name = "NS")]
    pub namespace: Option<String>,
    /// Look in every namespace
    #[arg(short = 'A', long = "all-namespaces", global = true)]
    pub all_namespaces: bool,
    /// User to impersonate
    #[arg(long = "as", global = true, value_name = "USER")]
    pub as_user: Option<String>,
    /// Group to impersonate (repeat for several)
    #[arg(long = "as-group", global = true, value_name = "GROUP")]
    pub as_group: Vec<String>,
    /// How long to wait for one request to the API server (e.g. 10s, 1m; 0 = no limit); doctor,
    /// can-i and logs without -f stop after ten times this
    #[arg(
        long = "request-timeout",
        global = true,
        value_name = "DURATION",
        default_value = "30s"
    )]
    pub request_timeout: String,
}

#[derive(Debug, Args, Clone)]
#[command(next_help_heading = GLOBAL_FLAGS)]
pub struct OutputArgs {
    /// Output format
    #[arg(short = 'o', long = "output", global = true, value_enum, default_value_t = Format::Table)]
    pub output: Format,
    /// When to colour: auto = only on a terminal, and never with NO_COLOR set or TERM=dumb
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Diagnostics on stderr: what was read, and what could not be and why
    #[arg(short = 'v', long = "verbose", global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

impl KubeArgs {
    /// The contexts `--context a,b` or `--all-contexts` name: None for one context (the usual
    /// run, whose output never changes); `Some(vec![])` for `--all-contexts`, which the
    /// kubeconfig fills in. A name holding a comma is read as a list.
    pub fn context_list(&self) -> Option<Vec<String>> {
        if self.all_contexts {
            return Some(Vec::new());
        }
        let given = self.context.as_deref()?;
        given.contains(',').then(|| {
            let mut out: Vec<String> = Vec::new();
            for c in given.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                if !out.iter().any(|o| o == c) {
                    out.push(c.to_string());
                }
            }
            out
        })
    }

    /// doctor and can-i read one namespace or all of them; only logs follows several at once.
    pub fn one_namespace(&self, command: &str) -> Result<(), crate::error::Error> {
        match &self.namespace {
            Some(ns) if ns.contains(',') => Err(crate::error::Error::Input(format!(
                "{command} reads one namespace (-n NS) or all of them (-A), not a list (-n {ns}); \
                 only logs follows several"
            ))),
            _ => Ok(()),
        }
    }
}

impl From<&KubeArgs> for crate::cluster::client::ConnectOptions {
    fn from(k: &KubeArgs) -> Self {
        crate::cluster::client::ConnectOptions {
            kubeconfig: k.kubeconfig.clone(),
            // One context here; several are split by `context_list` and connected one by one.
            context: k.context.clone(),
            cluster: k.cluster.clone(),
            user: k.user.clone(),
            namespace: k.namespace.clone(),
            all_namespaces: k.all_namespaces,
            as_user: k.as_user.clone(),
            as_group: k.as_group.clone(),
            request_timeout: k.request_timeout.clone(),
            streams: false,
        }
    }
}

// The renderers' own choices, taught to clap here: nothing below the CLI layer knows clap.
pub use crate::render::{ColorChoice, Format};

impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Format::Table,
            Format::Json,
            Format::Markdown,
            Format::Sarif,
            Format::Html,
        ]
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

impl ValueEnum for ColorChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &[ColorChoice::Auto, ColorChoice::Always, ColorChoice::Never]
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Critical,
    Warning,
    Info,
    /// Always exit 0 when the diagnosis completes
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Diagnose Flink deployments: ranked root causes, evidence, fixes and how to verify them
    #[command(after_help = format!("{DOCTOR_EXAMPLES}\n\n{EXIT_CODES}"))]
    Doctor(DoctorArgs),
    /// Explain a pasted log or error offline: JobManager/TaskManager/operator logs, kubectl describe, events
    #[command(after_help = format!("{TRIAGE_EXAMPLES}\n\n{TRIAGE_EXIT_CODES}"))]
    Triage(TriageArgs),
    /// Every Flink pod's logs by label selector: JobManager and TaskManagers, current and crashed instances
    Logs(Box<crate::commands::logs::LogsArgs>),
    /// The permissions Flink needs, decided by the API server, with the minimal fix
    #[command(name = "can-i")]
    CanI(crate::commands::can_i::CanIArgs),
    /// Catch the traps in FlinkDeployment/FlinkSessionJob/FlinkApplication manifests before they are applied
    Lint(crate::commands::lint::LintArgs),
    /// What a rule, lint check, log signature or category means (FLK501, SIG-..., rbac_forbidden)
    Explain(crate::commands::explain::ExplainArgs),
    /// A shell completion script (bash, zsh, fish, powershell, elvish)
    Completion(crate::commands::completion::CompletionArgs),
    /// Keep diagnosing from watches (in the cluster): Prometheus metrics, doctor's JSON, optional Events
    Watch(crate::commands::watch::WatchArgs),
}

/// The heading kubectl gives the flags every command shares (cobra's "Global Flags").
pub const GLOBAL_FLAGS: &str = "Global flags";

/// What a command makes of the global flags: the formats its `-o` prints (none: it prints no
/// report), and whether it reads a cluster, colours its output, or says more with `-v`.
pub struct Shape {
    pub name: &'static str,
    pub formats: &'static [Format],
    pub cluster: bool,
    pub color: bool,
    pub verbose: bool,
}

const ALL_FORMATS: &[Format] = &[Format::Table, Format::Json, Format::Markdown];
/// lint also writes SARIF (findings with rules and places, for code-review tools).
const REPORT_FORMATS: &[Format] = &[Format::Table, Format::Json, Format::Markdown, Format::Sarif];
/// doctor writes SARIF too, and one self-contained HTML page to share.
const DOCTOR_FORMATS: &[Format] = &[
    Format::Table,
    Format::Json,
    Format::Markdown,
    Format::Sarif,
    Format::Html,
];

/// Every command's shape. A flag a command ignores is still accepted (every command line that
/// worked still works) but not shown in its help or completed.
pub const SHAPES: &[Shape] = &[
    // command, its -o formats, reads a cluster, colours, uses -v
    shape("doctor", DOCTOR_FORMATS, true, true, true),
    shape("triage", ALL_FORMATS, false, true, false),
    shape("logs", &[Format::Table, Format::Json], true, true, true),
    shape("can-i", ALL_FORMATS, true, true, true),
    shape("lint", REPORT_FORMATS, false, true, true),
    shape("explain", &[], false, false, false),
    shape("completion", &[], false, false, false),
    shape("watch", &[], true, false, true),
];

const fn shape(
    name: &'static str,
    formats: &'static [Format],
    cluster: bool,
    color: bool,
    verbose: bool,
) -> Shape {
    Shape {
        name,
        formats,
        cluster,
        color,
        verbose,
    }
}

/// The command line as parsed and shown: [`Cli`], with each command's own copy of the global
/// flags shaped by [`SHAPES`] (clap does not copy a global flag into a command that has one).
/// `-o` moves to the command's own options, with only its formats.
pub fn command() -> clap::Command {
    let root = Cli::command();
    let globals: Vec<clap::Arg> = root
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    SHAPES.iter().fold(root, |root, shape| {
        root.mut_subcommand(shape.name, |sub| {
            globals
                .iter()
                .fold(sub, |sub, arg| sub.arg(shaped(arg.clone(), shape)))
        })
    })
}

fn shaped(arg: clap::Arg, shape: &Shape) -> clap::Arg {
    let shown = match arg.get_id().as_str() {
        "output" => !shape.formats.is_empty(),
        "color" => shape.color,
        "verbose" => shape.verbose,
        _ => shape.cluster,
    };
    let arg = if arg.get_id() == "output" && shown {
        let names: Vec<&'static str> = shape.formats.iter().map(|f| f.as_str()).collect();
        // After the command's own flags, before -h (numbered as they are added).
        arg.help_heading(None).display_order(None).value_parser(
            clap::builder::PossibleValuesParser::new(names).map(|name| {
                Format::from_str(&name, false).unwrap_or(Format::Table) // only listed names get here
            }),
        )
    } else {
        arg
    };
    arg.hide(!shown)
}

/// Parses the process's arguments as [`command`] shapes them (clap's usage errors exit 2).
pub fn parse() -> Cli {
    let matches = command().try_get_matches().unwrap_or_else(|e| e.exit());
    if let Some(why) = refused(&matches) {
        eprintln!("error: {why}");
        std::process::exit(crate::error::EXIT_USAGE);
    }
    let parsed = Cli::from_arg_matches(&matches);
    parsed.unwrap_or_else(|e| e.exit())
}

/// Flags that each make sense but not together, refused on one line with the reason (exit 2,
/// as every usage error), where clap's own conflicts would print a usage block.
pub fn refused(matches: &clap::ArgMatches) -> Option<String> {
    let (name, sub) = matches.subcommand()?;
    let given = |id: &str| {
        [sub, matches].iter().any(|m| {
            m.try_get_raw(id).ok().flatten().is_some()
                && m.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        })
    };
    let output = || {
        [sub, matches]
            .iter()
            .find_map(|m| {
                (m.value_source("output") == Some(clap::parser::ValueSource::CommandLine))
                    .then(|| m.get_one::<Format>("output").copied())
                    .flatten()
            })
            .filter(|f| *f != Format::Table)
    };
    let several = given("all_contexts")
        || [sub, matches].iter().any(|m| {
            m.value_source("context") == Some(clap::parser::ValueSource::CommandLine)
                && m.get_one::<String>("context")
                    .is_some_and(|c| c.contains(','))
        });
    let contexts = if given("all_contexts") {
        "--all-contexts"
    } else {
        "--context a,b"
    };
    match name {
        "doctor" if several => {
            let alone = [
                ("from", "--from", "a bundle is one cluster"),
                (
                    "fix",
                    "--fix",
                    "a fix applies to one cluster; print each context's fixes with --context NAME",
                ),
                (
                    "cluster",
                    "--cluster",
                    "it would point every context at one cluster",
                ),
                ("user", "--user", "it would make every context one user"),
            ];
            if let Some((_, flag, why)) = alone.iter().find(|(id, _, _)| given(id)) {
                return Some(format!(
                    "doctor {contexts} diagnoses several clusters: {flag} does not apply ({why}); drop one of them"
                ));
            }
        }
        "can-i" if several && given("fix") => {
            return Some(format!(
                "can-i {contexts} checks several clusters: --fix does not apply (the Role it prints is for one cluster); print each context's with --context NAME --fix"
            ));
        }
        "doctor" => {
            if given("fix") {
                if let Some(f) = output() {
                    return Some(format!(
                        "doctor --fix prints the fixes (YAML to apply, or with --fix=run the commands), not a report: -o {} does not apply; drop one of them",
                        f.as_str()
                    ));
                }
            }
            if given("from") {
                let cluster = [
                    ("kubeconfig", "--kubeconfig"),
                    ("context", "--context"),
                    ("cluster", "--cluster"),
                    ("user", "--user"),
                    ("as_user", "--as"),
                    ("as_group", "--as-group"),
                    ("request_timeout", "--request-timeout"),
                ];
                if let Some((_, flag)) = cluster.iter().find(|(id, _)| given(id)) {
                    return Some(format!(
                        "doctor --from reads a bundle, not a cluster: {flag} does not apply; drop {flag}, or --from to read the cluster"
                    ));
                }
            }
        }
        "lint" if given("sarif") => {
            if let Some(f) = output().filter(|f| *f != Format::Sarif) {
                return Some(format!(
                    "lint --sarif is -o sarif: it cannot print -o {} as well; drop one of them",
                    f.as_str()
                ));
            }
        }
        _ => {}
    }
    None
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The FlinkDeployment (or FlinkSessionJob) to diagnose; all in scope when omitted
    pub name: Option<String>,
    /// Diagnose an offline bundle instead of a cluster: a file or directory of YAML/JSON objects
    /// plus logs/ (what --save writes), a `kubectl cluster-info dump` or `oc adm inspect` folder,
    /// or any of these as a .tar.gz, .tgz, .zip or .gz
    #[arg(long, value_name = "PATH", conflicts_with = "save")]
    pub from: Option<PathBuf>,
    /// Also write what was read from the cluster as a bundle to DIR (Secrets as metadata only);
    /// with several contexts, one bundle per context in DIR/CONTEXT
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Lowest severity that makes the exit code 1
    #[arg(long = "fail-on", value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Lines of each failing container's log to read (current and previous instance)
    #[arg(long = "log-tail", value_name = "N", default_value_t = 500)]
    pub log_tail: i64,
    /// Print the fixes of every finding in scope instead of the report: one deduplicated YAML
    /// stream for `kubectl apply -f -` (the other commands as comments), or with `--fix=run` the
    /// commands to run (patches, restarts). Nothing is applied.
    #[arg(long, value_enum, value_name = "WHAT", num_args = 0..=1, default_missing_value = "apply")]
    pub fix: Option<FixOutput>,
}

/// What `doctor --fix` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FixOutput {
    /// The objects to apply, as one YAML stream
    Apply,
    /// The commands to run besides (kubectl patch, rollout restart, helm upgrade)
    Run,
}

#[derive(Debug, Args)]
pub struct TriageArgs {
    /// A file with the text to explain; `-` or nothing reads standard input
    pub file: Option<PathBuf>,
    /// Lowest severity that makes the exit code 1
    #[arg(long = "fail-on", value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_a_shape() {
        let commands: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        let shaped: Vec<String> = SHAPES.iter().map(|s| s.name.to_string()).collect();
        assert_eq!(commands, shaped);
        command().debug_assert();
    }
}

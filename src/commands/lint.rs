//! `kubectl flink lint`: read manifests (files, directories, stdin) -> lint -> rank -> render
//! (table, markdown, JSON or SARIF with `-o`; `--sarif` is `-o sarif`). No cluster.

use crate::cli::{FailOn, Format, OutputArgs};
use crate::error::Error;
use crate::lint::{self, source, Outcome};
use crate::render::{self, Context, Style};
use std::io::Write;
use std::path::PathBuf;

/// lint's rules and places for the one SARIF writer.
pub mod sarif;

pub const LINT_HELP: &str = "\
Checks FlinkDeployment and FlinkSessionJob (flink.apache.org), FlinkApplication (flink.k8s.io),
FlinkCluster (flinkoperator.k8s.io) and plain pod-template files (a Pod or PodTemplate used as kubernetes.pod-template-file).
Everything else in the stream (Services, ConfigMaps, a Helm chart's other objects) is ignored.

Each finding names the file and line of the field, e.g.
  deploy/orders.yaml:14: spec.jobManager.podTemplate.spec.containers[0].name: flink-job-manager

Examples:
  kubectl flink lint -f deploy/
  helm template my-release ./chart | kubectl flink lint -f -
  kustomize build overlays/prod | kubectl flink lint -f - -o sarif > flink.sarif

Exit codes:
  0  nothing found at or above --fail-on (default: warning)
  1  findings at or above --fail-on
  2  usage or input error: a file that cannot be read, invalid YAML (named with its file and line)";

/// Catch the traps in Flink manifests before they are applied: main container name, entrypoint,
/// ServiceAccount, flinkVersion, memory headroom, HA, state directories, session jars, REST
/// exposure, file system plugins, and the operator's CRD schema. No cluster needed.
#[derive(Debug, clap::Args)]
#[command(after_help = LINT_HELP)]
pub struct LintArgs {
    /// Manifest file or directory (recursively *.yaml, *.yml, *.json), or - for standard input; repeatable
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "FILE|DIR|-",
        required = true
    )]
    pub filename: Vec<PathBuf>,
    /// Lowest severity that makes the exit code 1
    #[arg(long = "fail-on", value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// The same as -o sarif: SARIF 2.1.0, for code-review annotations on pull requests
    #[arg(long)]
    pub sarif: bool,
}

pub fn run(args: &LintArgs, output: &OutputArgs) -> Result<i32, Error> {
    let sources = source::read_all(&args.filename, &mut std::io::stdin().lock())?;
    let outcome = lint::run(&sources)?;
    if output.verbose > 0 {
        crate::note!(
            "read {} file(s), {} document(s); checked {} resource(s)",
            sources.len(),
            outcome.documents,
            outcome.resources
        );
    }
    if outcome.resources == 0 {
        crate::note!(
            "note: no FlinkDeployment, FlinkSessionJob, FlinkApplication, FlinkCluster or pod template in {}",
            scope(&args.filename)
        );
    }
    let mut stdout = std::io::stdout().lock();
    super::report_written(write(&outcome, args, output, &mut stdout).and_then(|_| stdout.flush()))?;
    Ok(super::exit_code(&outcome.report, args.fail_on))
}

/// The report in the chosen format. A clean run in table or markdown says what lint checked
/// (the shared renderers would count doctor's rules).
pub fn write(
    outcome: &Outcome,
    args: &LintArgs,
    output: &OutputArgs,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if args.sarif || output.output == Format::Sarif {
        return sarif::render(outcome, out);
    }
    let context = Context {
        command: "lint",
        scope: scope(&args.filename),
    };
    if outcome.report.findings.is_empty() && output.output != Format::Json {
        let checks = lint::checks::CHECKS.len();
        let text = format!(
            "No problems found in {} ({} Flink resource{}; {checks} lint checks, doctor's spec rules and the operator {} CRD schemas).",
            context.scope,
            outcome.resources,
            if outcome.resources == 1 { "" } else { "s" },
            lint::schema::OPERATOR_RELEASE,
        );
        return match output.output {
            Format::Markdown => writeln!(
                out,
                "**No problems found**{}",
                text.trim_start_matches("No problems found")
            ),
            _ => {
                let style = Style::decide(output.color);
                writeln!(
                    out,
                    "{}{}",
                    style.bold("No problems found"),
                    text.trim_start_matches("No problems found")
                )
            }
        };
    }
    let style = Style::decide(output.color);
    render::render(&outcome.report, &context, output.output, &style, out)
}

fn scope(files: &[PathBuf]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            if f.as_os_str() == "-" {
                source::STDIN.to_string()
            } else {
                f.display().to_string()
            }
        })
        .collect();
    names.join(", ")
}

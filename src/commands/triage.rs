//! `kubectl flink triage [FILE|-]`: explain a pasted log or error offline.
//!
//! Reads a JobManager/TaskManager/operator log, `kubectl describe` output, an event list, a
//! FlinkDeployment's `status.error` (the FlinkResourceException JSON, raw, YAML-quoted or
//! JSON-escaped) or what `kubectl apply` printed with the reading engine (`signatures::reader`,
//! the one doctor and `logs --highlight` use), ranks its findings as one text, lints the Flink
//! resources pasted beside them, and renders with doctor's renderers and exit codes.
//! It never talks to a cluster and never reads a kubeconfig.

use crate::cli::{OutputArgs, TriageArgs};
use crate::error::Error;
use crate::rank::{rank, rank_one_text, Report};
use crate::render::{self, Context, Style};
use crate::signatures::reader::{self, Manifest};
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

pub use crate::signatures::reader::MAX_SEGMENT;

/// What triage says when the text shows only a generic outcome, or nothing known: which text
/// would name the cause, and the command that prints it.
const UNSURE: &str = "Nothing in this text names the cause, only how it ended. The text that does: the log of the container that exited, from before its restart (`kubectl logs <pod> -c flink-main-container --previous`), or, for a pod that never started (Pending, ContainerCreating), its events (`kubectl describe pod <pod>`); give that to `kubectl flink triage`.";

pub fn run(args: &TriageArgs, output: &OutputArgs) -> Result<i32, Error> {
    let from_stdin = args.file.as_deref().is_none_or(|p| p == Path::new("-"));
    let outcome = if from_stdin {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            crate::note!(
                "kubectl flink triage: reading standard input (paste the text, then Ctrl-D)"
            );
        }
        triage_reader(stdin.lock(), "stdin").map_err(|e| Error::input("read standard input", e))?
    } else {
        let path = args.file.as_deref().unwrap_or(Path::new("-"));
        let action = format!("read {}", path.display());
        if path.is_dir() {
            return Err(Error::Input(format!(
                "{action}: is a directory (give a file, or - for standard input)"
            )));
        }
        let file = std::fs::File::open(path).map_err(|e| Error::input(&action, e))?;
        let label = path.display().to_string();
        triage_reader(file, &label).map_err(|e| Error::input(&action, e))?
    };
    let style = Style::decide(output.color);
    let mut stdout = io::stdout().lock();
    super::report_written(
        write_outcome(&outcome, output.output, &style, &mut stdout).and_then(|_| stdout.flush()),
    )?;
    Ok(super::exit_code(&outcome.report, args.fail_on))
}

/// What triage found in one input.
#[derive(Debug)]
pub struct Triaged {
    pub report: Report,
    /// Where the text came from (file name or `stdin`).
    pub source: String,
    pub lines: usize,
    pub bytes: u64,
}

impl Triaged {
    pub fn scope(&self) -> String {
        let noun = if self.lines == 1 { "line" } else { "lines" };
        format!("{} ({} {noun})", self.source, self.lines)
    }
}

/// Renders like doctor; an empty report says so in words (JSON stays a valid, empty report).
pub fn write_outcome(
    outcome: &Triaged,
    format: crate::cli::Format,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let context = Context {
        command: "triage",
        scope: outcome.scope(),
    };
    if outcome.report.findings.is_empty() && format != crate::cli::Format::Json {
        return match format {
            crate::cli::Format::Markdown => {
                writeln!(
                    out,
                    "# kubectl flink triage: {}\n\nNo known problem found.\n\n{UNSURE}",
                    context.scope
                )
            }
            _ => writeln!(
                out,
                "kubectl flink triage: {}\nNo known problem found.\n{UNSURE}",
                context.scope
            ),
        };
    }
    render::render(&outcome.report, &context, format, style, out)
}

/// Triage of a whole text in memory (tests, small inputs).
pub fn triage_text(text: &str, source: &str) -> Triaged {
    triage_reader(text.as_bytes(), source).expect("reading from memory cannot fail")
}

/// Triage of a stream, read by the engine with bounded memory (`reader::read`).
pub fn triage_reader<R: Read>(input: R, source: &str) -> io::Result<Triaged> {
    Ok(triaged(reader::read(input, source)?, source))
}

/// What the reader found in a text, ranked as one text, with lint's findings on the resources
/// pasted in it.
pub fn triaged(mut read: reader::ReadText, source: &str) -> Triaged {
    // "unknown field": the CRD, a typo or the indentation, told apart by the newest CRD schemas.
    crate::lint::unknown_field::decide(&mut read.findings, &read.fields);
    // What the text says happened comes first; the traps lint sees in a pasted manifest follow.
    let mut report = rank_one_text(read.findings);
    // Only how it ended, not why: say so, and name the text that would tell.
    if report.findings.iter().all(|f| f.category.is_symptom()) {
        for f in report.findings.iter_mut().filter(|f| f.caused_by.is_none()) {
            f.fix.push_str("\n\n");
            f.fix.push_str(UNSURE);
        }
    }
    report
        .findings
        .extend(rank(lint(read.manifests, source)).findings);
    Triaged {
        report,
        source: source.to_string(),
        lines: read.lines,
        bytes: read.bytes,
    }
}

/// Lint's findings on the resources pasted in the text, with lines numbered as in the text.
fn lint(manifests: Vec<Manifest>, source: &str) -> Vec<crate::finding::Finding> {
    let mut out = Vec::new();
    for m in manifests {
        let text = "\n".repeat(m.first_line.saturating_sub(1)) + &m.text;
        let sources = [crate::lint::source::Source {
            name: source.to_string(),
            text,
        }];
        // Not YAML after all (prose that looked like it): nothing to say about it.
        if let Ok(outcome) = crate::lint::run(&sources) {
            out.extend(outcome.report.findings);
        }
    }
    out
}

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
use crate::signatures::paste;
use crate::signatures::reader::{self, Manifest};
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

pub use crate::signatures::reader::MAX_SEGMENT;

/// What triage says when the text shows only a generic outcome, or nothing known: which text
/// would name the cause, and the command that prints it.
const UNSURE: &str = "Nothing in this text names the cause, only how it ended. The text that does: the log of the container that exited, from before its restart (`kubectl logs <pod> -c flink-main-container --previous`), or, for a pod that never started (Pending, ContainerCreating), its events (`kubectl describe pod <pod>`); give that to `kubectl flink triage`.";

/// How much of the start of the text is kept to find the names it holds (`paste::known_from_text`):
/// a `kubectl describe` header and the first `--prefix`ed log lines are near the top.
const HEAD: usize = 256 * 1024;

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
    let mut head = Head {
        inner: input,
        kept: Vec::new(),
    };
    let read = reader::read(&mut head, source)?;
    let known = paste::known_from_text(&String::from_utf8_lossy(&head.kept));
    Ok(triaged_knowing(read, source, &known))
}

/// The input, with its first `HEAD` bytes kept as they pass.
struct Head<R> {
    inner: R,
    kept: Vec<u8>,
}

impl<R: Read> Read for Head<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let room = HEAD.saturating_sub(self.kept.len()).min(n);
        self.kept.extend_from_slice(&buf[..room]);
        Ok(n)
    }
}

/// What the reader found in a text, ranked as one text, with lint's findings on the resources
/// pasted in it.
pub fn triaged(read: reader::ReadText, source: &str) -> Triaged {
    triaged_knowing(read, source, &paste::Known::new())
}

/// `triaged`, with the names the text held (`paste::known_from_text`) set in its fixes.
pub fn triaged_knowing(mut read: reader::ReadText, source: &str, known: &paste::Known) -> Triaged {
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
    for f in &mut report.findings {
        // What a shell would read as a redirection becomes a variable set at the top.
        let (fix, verify) = paste::paste_ready(&f.fix, &f.verify, known);
        f.fix = fix;
        f.verify = verify;
        f.evidence = once_each(std::mem::take(&mut f.evidence));
    }
    Triaged {
        report,
        source: source.to_string(),
        lines: read.lines,
        bytes: read.bytes,
    }
}

/// Evidence lines as `L11: text`: a text seen on several lines is shown once, with its line
/// numbers and how many times (`L11, L16 (x2): text`), where it first appeared.
fn once_each(evidence: Vec<String>) -> Vec<String> {
    let mut order: Vec<(Vec<String>, String)> = Vec::new();
    for e in evidence {
        let (at, text) = match e.split_once(": ") {
            Some((at, text))
                if at.starts_with('L') && at[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                (Some(at.to_string()), text.to_string())
            }
            _ => (None, e.clone()),
        };
        match order.iter_mut().find(|(_, t)| *t == text) {
            Some((ats, _)) => ats.extend(at),
            None => order.push((at.into_iter().collect(), text)),
        }
    }
    order
        .into_iter()
        .map(|(ats, text)| match ats.len() {
            0 => text,
            1 => format!("{}: {text}", ats[0]),
            n => format!("{} (x{n}): {text}", ats.join(", ")),
        })
        .collect()
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

//! `kubectl flink triage [FILE|-]`: explain a pasted log or error offline.
//!
//! Reads a JobManager/TaskManager/operator log, `kubectl describe` output, an event list, a
//! FlinkDeployment's `status.error` (the FlinkResourceException JSON, raw, YAML-quoted or
//! JSON-escaped) or what `kubectl apply` printed, line by line with bounded memory, matches every
//! line against the shared signature catalogue and returns findings with the same contract as
//! `doctor`: ranked, linked cause -> symptoms, rendered by the same renderers, same exit codes.
//! It never talks to a cluster and never reads a kubeconfig.

use crate::cli::{OutputArgs, TriageArgs};
use crate::error::Error;
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::operator_error::OperatorError;
use crate::rank::{rank, Report};
use crate::render::{self, Context, Style};
use crate::signatures::described::{self, readings, Reading, READINGS};
use crate::signatures::{
    by_id, catalogue, derive_fields, fill, prune_line, redact, Match, Signature,
};
use regex::Regex;
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::OnceLock;

/// A line longer than this is matched in segments of this size (with the same line number), so
/// memory stays bounded whatever the input (a 1 GiB file without a newline included).
pub const MAX_SEGMENT: usize = 4 << 20;
/// Evidence lines kept per finding (the first ones, plus the first line of every other
/// signature folded into it).
const MAX_EVIDENCE: usize = 5;
const MAX_EVIDENCE_WITH_VARIANTS: usize = 8;
/// Distinct findings kept; more would not be read by anyone.
const MAX_GROUPS: usize = 200;
/// Lines read for a person's own description of the failure: prose comes in pastes of a few
/// hundred lines, not in gigabyte logs, and this keeps the cost of reading it flat.
const PROSE_LINES: usize = 20_000;
/// Longest line kept as the evidence of a description.
const PROSE_EVIDENCE: usize = 300;

/// Fields that tell two matches of one category apart (two ServiceAccounts, two schemes, two
/// classes). Other fields (pod names, hosts, paths of temp files) do not split a finding.
const IDENTITY: &[&str] = &[
    "sa",
    "namespace",
    "verb",
    "resource",
    "group",
    "object_namespace",
    "scheme",
    "jar",
    "class",
    "webhook",
    "service",
    "quota",
    "image",
    "oom",
    "exit_code",
    "key",
    "kind",
    "denial",
    "field",
    "taint",
];

pub fn run(args: &TriageArgs, output: &OutputArgs) -> Result<i32, Error> {
    let from_stdin = args.file.as_deref().is_none_or(|p| p == Path::new("-"));
    let outcome = if from_stdin {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            eprintln!("kubectl flink triage: reading standard input (paste the text, then Ctrl-D)");
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
pub struct Outcome {
    pub report: Report,
    /// Where the text came from (file name or `stdin`).
    pub source: String,
    pub lines: usize,
    pub bytes: u64,
}

impl Outcome {
    pub fn scope(&self) -> String {
        format!("{} ({} lines)", self.source, self.lines)
    }
}

/// Renders like doctor; an empty report says so in words (JSON stays a valid, empty report).
pub fn write_outcome(
    outcome: &Outcome,
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
                    "# kubectl flink triage: {}\n\nNo known problem found.",
                    context.scope
                )
            }
            _ => writeln!(
                out,
                "kubectl flink triage: {}\nNo known problem found.",
                context.scope
            ),
        };
    }
    render::render(&outcome.report, &context, format, style, out)
}

/// Triage of a whole text in memory (tests, small inputs).
pub fn triage_text(text: &str, source: &str) -> Outcome {
    triage_reader(text.as_bytes(), source).expect("reading from memory cannot fail")
}

/// Triage of a stream: memory is one read buffer of `MAX_SEGMENT` bytes plus the findings,
/// whatever the size of the input. Invalid UTF-8 is decoded lossily.
///
/// The text is read in large chunks and searched whole: one multi-literal search (the catalogue's
/// literals and triage's own markers, see `searcher`) finds the few lines worth a closer look, and
/// only their boundaries are looked up (memchr); every other line costs a newline count. A line
/// longer than `MAX_SEGMENT` is matched in segments of that size, with the same line number.
pub fn triage_reader<R: Read>(mut reader: R, source: &str) -> io::Result<Outcome> {
    let mut scan = Scan::default();
    let mut buf = vec![0u8; MAX_SEGMENT];
    // `buf[pos..len]` is read and not yet matched, and holds no newline.
    let (mut pos, mut len) = (0usize, 0usize);
    let mut bytes = 0u64;
    let mut eof = false;
    while !eof {
        if len == buf.len() && pos == 0 {
            // No newline in `MAX_SEGMENT` bytes: this segment is cut, the next continues it.
            scan.segment(&buf, true);
            pos = len;
        }
        buf.copy_within(pos..len, 0);
        len -= pos;
        pos = 0;
        // Up to `CHUNK` bytes more (a pipe gives less at a time), so searches run on large chunks.
        let fresh = len;
        while !eof && len - fresh < CHUNK && len < buf.len() {
            let want = (len + CHUNK).min(buf.len());
            match reader.read(&mut buf[len..want]) {
                Ok(0) => eof = true,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        bytes += (len - fresh) as u64;
        if let Some(last) = memchr::memrchr(b'\n', &buf[fresh..len]) {
            pos = fresh + last + 1;
            scan.lines(&buf[..pos]);
        }
    }
    if pos < len {
        scan.segment(&buf[pos..len], false);
    }
    let Scan {
        state,
        manifests,
        line_no,
        ..
    } = scan;
    // What the text says happened comes first; the traps lint sees in a pasted manifest follow.
    let mut report = rank(state.findings(source));
    report
        .findings
        .extend(rank(manifests.lint(source)).findings);
    Ok(Outcome {
        report,
        source: source.to_string(),
        lines: line_no,
        bytes,
    })
}

/// The reading of one text: every line is numbered, the first `PROSE_LINES` are read for a
/// description, and only lines the searcher finds (or those inside a pasted manifest) are
/// matched one by one.
#[derive(Default)]
struct Scan {
    state: State,
    manifests: ManifestCapture,
    /// The number of the last line started.
    line_no: usize,
    /// Whether the last segment was cut at `MAX_SEGMENT` (the next one continues its line).
    continuing: bool,
}

impl Scan {
    /// Complete lines, each ending in `\n` and at most `MAX_SEGMENT` bytes long.
    fn lines(&mut self, text: &[u8]) {
        // The line at `counted` has the number `line_no` (`counted` is a line start).
        let mut line_no = if self.continuing {
            self.line_no
        } else {
            self.line_no + 1
        };
        self.continuing = false;
        let mut counted = 0;
        let mut at = 0;
        self.state.note_context(text);
        // Reading every line (a description, a manifest) needs no search; the rest of a large
        // text is searched on both halves at once.
        let mut found = if self.manifests.open.is_none() && !self.state.reads_prose() {
            Found::search(text)
        } else {
            Found::OnDemand
        };
        while at < text.len() {
            let start = if self.manifests.open.is_some() || self.state.reads_prose() {
                // Every line: the inside of a manifest, the first lines of a description.
                at
            } else {
                let Some(start) = found.next(text, at) else {
                    break;
                };
                start
            };
            line_no += memchr::memchr_iter(b'\n', &text[counted..start]).count();
            counted = start;
            let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
            self.line(&text[start..end], line_no);
            at = end + 1;
        }
        self.line_no = line_no + memchr::memchr_iter(b'\n', &text[counted..]).count() - 1;
    }

    /// A part of a line without its newline: the line's end at the end of the input, or a cut
    /// of `MAX_SEGMENT` bytes (`cut`), matched as a line of its own.
    fn segment(&mut self, text: &[u8], cut: bool) {
        if !self.continuing {
            self.line_no += 1;
        }
        self.continuing = cut;
        self.state.note_context(text);
        self.line(text, self.line_no);
    }

    /// One line (or segment), any trailing `\r` and `\n` included.
    fn line(&mut self, raw: &[u8], line_no: usize) {
        let mut end = raw.len();
        while end > 0 && (raw[end - 1] == b'\n' || raw[end - 1] == b'\r') {
            end -= 1;
        }
        let raw = &raw[..end];
        self.manifests.line(raw, line_no);
        if self.state.reads_prose() {
            self.state.read_description(raw, line_no);
        }
        if catalogue().is_candidate(raw) || markers().is_match(raw) {
            self.state.line(&String::from_utf8_lossy(raw), line_no);
        }
    }
}

/// Bytes read before they are searched: large enough that a search, and a thread, is worth it.
const CHUNK: usize = 1 << 20;
/// Below this, a text is searched on one thread.
const PARALLEL_MIN: usize = 256 << 10;

/// The lines the searcher finds in a text, by where they start.
enum Found {
    /// Searched on demand, from where the reading is.
    OnDemand,
    /// Searched beforehand (both halves of the text at once): the start of every line with a
    /// hit, in order, and how many were used.
    Listed(Vec<u32>, usize),
}

impl Found {
    fn search(text: &[u8]) -> Found {
        if text.len() < PARALLEL_MIN || u32::try_from(text.len()).is_err() {
            return Found::OnDemand;
        }
        let half = text.len() / 2;
        let mid = memchr::memchr(b'\n', &text[half..]).map_or(text.len(), |i| half + i + 1);
        let (first, second) = std::thread::scope(|scope| {
            let second = std::thread::Builder::new()
                .spawn_scoped(scope, || line_starts(text, mid, text.len()));
            let first = line_starts(text, 0, mid);
            // Without a second thread (none to be had, or it failed) the half is searched here.
            (first, second.ok().and_then(|t| t.join().ok()))
        });
        let mut starts = first;
        match second {
            Some(second) => starts.extend(second),
            None => starts.extend(line_starts(text, mid, text.len())),
        }
        Found::Listed(starts, 0)
    }

    /// The start of the first line at or after `at` (a line start) with a hit.
    fn next(&mut self, text: &[u8], at: usize) -> Option<usize> {
        match self {
            Found::OnDemand => {
                let hit = at + searcher().find(&text[at..])?.start();
                Some(memchr::memrchr(b'\n', &text[at..hit]).map_or(at, |i| at + i + 1))
            }
            Found::Listed(starts, used) => {
                while (*starts.get(*used)? as usize) < at {
                    *used += 1;
                }
                Some(starts[*used] as usize)
            }
        }
    }
}

/// The starts of the lines of `text[from..to]` (whole lines) in which the searcher finds something.
fn line_starts(text: &[u8], from: usize, to: usize) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = from;
    while at < to {
        let Some(hit) = searcher().find(&text[at..to]) else {
            break;
        };
        let hit = at + hit.start();
        let start = memchr::memrchr(b'\n', &text[at..hit]).map_or(at, |i| at + i + 1);
        // Offsets fit: `search` lists texts shorter than 4 GiB only.
        out.push(start as u32);
        at = memchr::memchr(b'\n', &text[hit..to]).map_or(to, |i| hit + i + 1);
    }
    out
}

/// Flink resources pasted as YAML (a FlinkDeployment beside the error it gave), kept to be linted
/// like `kubectl flink lint` would: from an `apiVersion: flink.apache.org/...` line to the end of
/// that YAML document (`---`, a Markdown fence, or a line that is not YAML at its indentation).
#[derive(Default)]
struct ManifestCapture {
    open: Option<Captured>,
    done: Vec<Captured>,
}

struct Captured {
    first_line: usize,
    indent: usize,
    text: String,
}

/// At most this many manifests, of at most this many bytes each, are kept from one text.
const MAX_MANIFESTS: usize = 8;
const MAX_MANIFEST_BYTES: usize = 256 << 10;

impl ManifestCapture {
    fn line(&mut self, raw: &[u8], line_no: usize) {
        if self.open.is_none() && self.done.len() >= MAX_MANIFESTS {
            return;
        }
        let line = String::from_utf8_lossy(raw);
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if let Some(open) = &mut self.open {
            let ends = trimmed == "---"
                || trimmed.starts_with("```")
                || open.text.len() + line.len() > MAX_MANIFEST_BYTES
                || (!trimmed.is_empty() && indent < open.indent)
                || (!trimmed.is_empty() && indent == open.indent && !yaml_key_line(trimmed));
            if !ends {
                let body = line.get(open.indent..).unwrap_or(trimmed);
                open.text.push_str(body);
                open.text.push('\n');
                return;
            }
            if let Some(done) = self.open.take() {
                self.done.push(done);
            }
        }
        let t = trimmed.trim_start_matches("- ");
        if t.starts_with(MANIFEST_MARKER) && t.contains("flink.apache.org/") {
            self.open = Some(Captured {
                first_line: line_no,
                indent,
                text: format!("{}\n", line.get(indent..).unwrap_or(trimmed)),
            });
        }
    }

    /// Lint's findings on the captured resources, with lines numbered as in the pasted text.
    fn lint(mut self, source: &str) -> Vec<Finding> {
        self.done.extend(self.open.take());
        let mut out = Vec::new();
        for m in self.done {
            if !m.text.contains("kind:") {
                continue;
            }
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
}

/// `key: value`, `key:`, `- item` or a comment: a line a YAML mapping may hold.
fn yaml_key_line(t: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"^(?:-(?:\s|$)|#|["']?[\w./-]+["']?\s*:(?:\s|$))"#).expect("yaml key pattern")
    })
    .is_match(t)
}

/// What makes a line interesting to triage besides the catalogue's literals.
const MARKERS: &[&str] = &[
    "\\",
    "{\"type\"",
    "(Version: ",
    "Caused by:",
    "Name:",
    "Namespace:",
    "Start Time:",
];

/// Where a pasted manifest may start (see `ManifestCapture`).
const MANIFEST_MARKER: &str = "apiVersion:";

fn markers() -> &'static aho_corasick::AhoCorasick {
    static M: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    M.get_or_init(|| aho_corasick::AhoCorasick::new(MARKERS).expect("markers compile"))
}

/// One searcher for every line triage looks at closer: the catalogue's literals, the markers and
/// the start of a manifest. A line it finds nothing in is only counted.
fn searcher() -> &'static aho_corasick::AhoCorasick {
    static S: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    S.get_or_init(|| {
        let literals = crate::signatures::all()
            .iter()
            .flat_map(|s| s.literals.iter().copied())
            .chain(MARKERS.iter().copied())
            .chain([MANIFEST_MARKER]);
        aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(literals)
            .expect("triage literals compile")
    })
}

/// One finding in the making: every line of one category that says the same thing.
#[derive(Debug)]
struct Group {
    /// The signature that extracted the most; its title and fix are used.
    primary: &'static Signature,
    primary_fields: usize,
    /// Every signature folded in (for causal links and severity).
    signatures: Vec<&'static Signature>,
    fields: BTreeMap<String, String>,
    evidence: Vec<String>,
    /// Matching lines.
    count: usize,
    first_line: usize,
    /// Where its lines stand in Java exception chains: (chain, depth), depth 0 for the head and
    /// one more for every `Caused by:` below it (the first few only).
    positions: Vec<(usize, usize)>,
}

impl Group {
    fn compatible(&self, m: &Match) -> bool {
        self.primary.category == m.signature.category
            && IDENTITY
                .iter()
                .all(|k| match (self.fields.get(*k), m.fields.get(*k)) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                })
    }

    fn add(&mut self, m: Match, position: (usize, usize)) {
        self.count += 1;
        if self.positions.len() < MAX_POSITIONS && !self.positions.contains(&position) {
            self.positions.push(position);
        }
        let new_signature = !self.signatures.iter().any(|s| s.id == m.signature.id);
        let cap = if new_signature {
            MAX_EVIDENCE_WITH_VARIANTS
        } else {
            MAX_EVIDENCE
        };
        if self.evidence.len() < cap {
            self.evidence.push(evidence_line(&m));
        }
        if new_signature {
            self.signatures.push(m.signature);
        }
        if m.fields.len() > self.primary_fields {
            self.primary = m.signature;
            self.primary_fields = m.fields.len();
        }
        for (k, v) in m.fields {
            self.fields.entry(k).or_insert(v);
        }
    }

    fn explains(&self, other: &Group) -> bool {
        self.signatures
            .iter()
            .any(|c| other.signatures.iter().any(|s| c.explains.contains(&s.id)))
            || self.deeper_in_a_chain(other)
    }

    /// In a Java exception chain the deepest `Caused by:` is the root: a specific finding below
    /// another specific finding in the same chain explains it (`Could not load the provided
    /// entrypoint class` ... `Caused by: ... JAR file does not exist`).
    fn deeper_in_a_chain(&self, other: &Group) -> bool {
        !self.primary.category.is_symptom()
            && self.primary.category != other.primary.category
            && self
                .positions
                .iter()
                .any(|(chain, depth)| other.positions.iter().any(|(c, d)| c == chain && d < depth))
    }

    fn severity(&self) -> Severity {
        self.signatures
            .iter()
            .map(|s| s.severity)
            .min()
            .unwrap_or(self.primary.severity)
    }
}

fn evidence_line(m: &Match) -> String {
    format!("L{}: {}", m.line_no, m.line)
}

/// Chain positions kept per finding.
const MAX_POSITIONS: usize = 16;

#[derive(Default)]
struct State {
    groups: Vec<Group>,
    /// The Java exception chain the text is in: its number, and how many `Caused by:` lines
    /// deep the current line is.
    chain: usize,
    depth: usize,
    flink_version: Option<String>,
    /// The object a pasted `kubectl describe` is about (its `Name:` and `Namespace:` header
    /// lines), to fill the fix and verify commands of findings that name no pod themselves.
    described_name: Option<String>,
    described_namespace: Option<String>,
    /// Whether what was described is a pod (`Start Time:`, a header only pods have).
    described_pod: bool,
    /// Matches that found no room (more than `MAX_GROUPS` distinct findings).
    dropped: usize,
    /// What the person's own words describe (see `signatures::described`): the first line of
    /// each reading, as (reading, line number, evidence line).
    described: Vec<(&'static Reading, usize, String)>,
    /// The readings' context words the text mentions.
    context: std::collections::BTreeSet<&'static str>,
    /// Lines read for a description so far.
    prose_lines: usize,
}

impl State {
    /// Whether lines are still read for a description (the first `PROSE_LINES`).
    fn reads_prose(&self) -> bool {
        self.prose_lines < PROSE_LINES
    }

    /// Notes the readings' context words in `text`, as long as they can still matter: while
    /// lines are read for a description, and then while a reading found lacks its context.
    fn note_context(&mut self, text: &[u8]) {
        let needed = self.reads_prose()
            || self
                .described
                .iter()
                .any(|(r, _, _)| !described::in_context(r, &self.context));
        if needed {
            readings().note_context(text, &mut self.context);
        }
    }

    /// Reads one line (`\r\n` removed) for what a person's own words describe.
    fn read_description(&mut self, raw: &[u8], line_no: usize) {
        self.prose_lines += 1;
        let text = String::from_utf8_lossy(raw);
        for (reading, _) in readings().read_line(&text) {
            let reading = &READINGS[reading];
            if self.described.iter().any(|(d, _, _)| d.id == reading.id) {
                continue;
            }
            let line: String = redact(text.trim())
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .take(PROSE_EVIDENCE)
                .collect();
            self.described.push((reading, line_no, line));
        }
    }

    /// Findings from the person's own description, when nothing printed names a specific cause:
    /// each a warning that says where it comes from, and the cause of the generic outcomes
    /// (a crash loop, a fatal exit) the printed lines show.
    fn description_findings(&self, printed: &mut [Finding], source: &str) -> Vec<Finding> {
        if printed.iter().any(|f| !f.category.is_symptom()) {
            return Vec::new();
        }
        let mut out: Vec<Finding> = Vec::new();
        for (reading, line_no, line) in &self.described {
            if printed
                .iter()
                .chain(&out)
                .any(|f| f.category == reading.category)
                || !described::in_context(reading, &self.context)
            {
                continue;
            }
            let mut fields = BTreeMap::new();
            derive_fields(&mut fields);
            let like = by_id(reading.like);
            let (fix, verify) = match like {
                Some(sig) => (
                    format!(
                        "{}.\n\n{}",
                        capitalize(&fill(sig.explanation, &fields)),
                        fill(sig.fix, &fields)
                    ),
                    fill(sig.verify, &fields),
                ),
                None => (capitalize(reading.fix), reading.verify.to_string()),
            };
            out.push(Finding {
                id: provisional_id(printed.len() + out.len()),
                rule: reading.id,
                category: reading.category,
                severity: Severity::Warning,
                layer: reading.category.layer(),
                title: reading.title.to_string(),
                object: ObjectRef::new("Text", None, source),
                deployment: None,
                evidence: vec![
                    format!("L{line_no}: {line}"),
                    "(the text's own words: no line printed by Kubernetes, Flink or an operator confirms it; the verify command does)".into(),
                ],
                fix,
                verify,
                caused_by: None,
                count: 1,
                also: Vec::new(),
                links: Vec::new(),
            });
        }
        if let Some(cause) = out.first() {
            for f in printed.iter_mut().filter(|f| f.caused_by.is_none()) {
                f.caused_by = Some(cause.id.clone());
            }
        }
        out
    }

    fn line(&mut self, line: &str, line_no: usize) {
        if self.flink_version.is_none() && line.contains("(Version: ") {
            self.flink_version = flink_version(line);
        }
        if let Some((key, value)) = describe_header(line) {
            let slot = if key == "Name" {
                &mut self.described_name
            } else {
                &mut self.described_namespace
            };
            slot.get_or_insert_with(|| value.to_string());
        }
        if line.starts_with("Start Time:") {
            self.described_pod = true;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("Caused by:") {
            self.depth += 1;
        } else if !trimmed.starts_with("at ") && !trimmed.starts_with("...") {
            self.chain += 1;
            self.depth = 0;
        }
        let cat = catalogue();
        let mut matches = Vec::new();
        // Messages inside JSON (status.error, JSON-formatted logs) have their quotes escaped and
        // their lines joined: match their decoded text too, first, as it reads better.
        if line.contains('\\') || line.contains("{\"type\"") {
            for view in decoded_views(line) {
                for v in view.lines() {
                    matches.extend(cat.match_line(v, line_no));
                }
            }
        }
        matches.extend(cat.match_line(line, line_no));
        if matches.is_empty() {
            return;
        }
        let mut seen: Vec<&str> = Vec::new();
        matches.retain(|m| {
            let first = !seen.contains(&m.signature.id);
            seen.push(m.signature.id);
            first
        });
        for m in prune_line(matches) {
            self.add(m);
        }
    }

    fn add(&mut self, m: Match) {
        let position = (self.chain, self.depth);
        if let Some(g) = self.groups.iter_mut().find(|g| g.compatible(&m)) {
            g.add(m, position);
            return;
        }
        if self.groups.len() >= MAX_GROUPS {
            self.dropped += 1;
            return;
        }
        self.groups.push(Group {
            primary: m.signature,
            primary_fields: m.fields.len(),
            signatures: vec![m.signature],
            count: 1,
            first_line: m.line_no,
            evidence: vec![evidence_line(&m)],
            fields: m.fields,
            positions: vec![position],
        });
    }

    /// The groups as findings, each symptom pointing at the root cause found in the same text.
    fn findings(mut self, source: &str) -> Vec<Finding> {
        let causes = link(&self.groups);
        let version = self.flink_version.take();
        let mut out: Vec<Finding> = self
            .groups
            .iter_mut()
            .enumerate()
            .map(|(i, g)| {
                if let Some(v) = &version {
                    g.fields.insert("flink_version".into(), v.clone());
                }
                // Only what a field does not already say: a pod row or a 403 names its own.
                let pod = self.described_name.as_ref().filter(|_| self.described_pod);
                for (key, value) in [
                    ("pod", pod),
                    ("pod_namespace", self.described_namespace.as_ref()),
                ] {
                    if let Some(v) = value {
                        g.fields.entry(key.into()).or_insert_with(|| v.clone());
                    }
                }
                derive_fields(&mut g.fields);
                finding(i, g, causes[i], source)
            })
            .collect();
        let described = self.description_findings(&mut out, source);
        out.extend(described);
        if self.dropped > 0 {
            if let Some(last) = out.last_mut() {
                last.evidence.push(format!(
                    "({} more matching lines of other kinds were not grouped)",
                    self.dropped
                ));
            }
        }
        out
    }
}

/// For each group, the group that causes it (the root of the chain), if any in the same text.
fn link(groups: &[Group]) -> Vec<Option<usize>> {
    let n = groups.len();
    // Of several possible causes, the one logged nearest before the symptom (a 403 and then the
    // retries of that request), else the nearest after it; then the earlier layer.
    let rank_key = |c: &Group, s: &Group| {
        (
            c.primary.category.is_symptom(),
            c.first_line > s.first_line,
            c.first_line.abs_diff(s.first_line),
            c.primary.category.layer(),
            c.severity(),
        )
    };
    let direct: Vec<Option<usize>> = (0..n)
        .map(|s| {
            (0..n)
                .filter(|&c| c != s && groups[c].explains(&groups[s]))
                // Mutual explanation (two groups that each fold a cause of the other): the earlier
                // line is the cause.
                .filter(|&c| {
                    !groups[s].explains(&groups[c]) || groups[c].first_line < groups[s].first_line
                })
                .min_by_key(|&c| rank_key(&groups[c], &groups[s]))
        })
        .collect();
    // Collapse chains to their root: one cause, all its symptoms directly under it.
    let mut root = vec![None; n];
    for s in 0..n {
        let mut cur = direct[s];
        let mut seen = vec![s];
        let mut last = None;
        while let Some(c) = cur {
            if seen.contains(&c) {
                break;
            }
            seen.push(c);
            last = Some(c);
            cur = direct[c];
        }
        root[s] = last;
    }
    // A cycle leaves two groups pointing at each other: keep the link of the later one only.
    for s in 0..n {
        if let Some(c) = root[s] {
            if root[c] == Some(s) && groups[s].first_line < groups[c].first_line {
                root[s] = None;
            }
        }
    }
    root
}

fn finding(i: usize, g: &Group, cause: Option<usize>, source: &str) -> Finding {
    let category: Category = g.primary.category;
    let object = match (g.fields.get("namespace"), g.fields.get("sa")) {
        (Some(ns), Some(sa)) => ObjectRef::namespaced("ServiceAccount", ns, sa),
        _ => ObjectRef::new("Text", None, source),
    };
    let mut evidence = g.evidence.clone();
    if g.count > evidence.len() {
        evidence.push(format!(
            "… and {} more matching lines",
            g.count - evidence.len()
        ));
    }
    let explanation = fill(g.primary.explanation, &g.fields);
    let (fix, verify) = g.primary.remedy(&g.fields);
    Finding {
        id: provisional_id(i),
        rule: g.primary.id,
        category,
        severity: g.severity(),
        layer: category.layer(),
        title: fill(g.primary.title, &g.fields),
        object,
        deployment: None,
        evidence,
        fix: format!("{}.\n\n{fix}", capitalize(&explanation)),
        verify,
        caused_by: cause.map(provisional_id),
        count: g.count,
        also: Vec::new(),
        links: Vec::new(),
    }
}

fn provisional_id(i: usize) -> String {
    format!("triage#{i}")
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `Name:          orders-5d8f9c7b6d-x7k2p` / `Namespace:     analytics`: the first lines of
/// `kubectl describe`, at the start of the line, one value that is a Kubernetes name.
fn describe_header(line: &str) -> Option<(&'static str, &str)> {
    for key in ["Name", "Namespace"] {
        if let Some(rest) = line.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            let value = rest.trim();
            let is_name = !value.is_empty()
                && value.len() <= 253
                && value.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'
                });
            return is_name.then_some((key, value));
        }
    }
    None
}

/// Flink's version from the entrypoint banner (`Starting ... (Version: 1.20.1, Scala: 2.12, Rev:...)`).
fn flink_version(line: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"Starting \S.*\(Version: (?P<v>\d+\.\d+(?:\.\d+)?(?:-[A-Za-z0-9.]+)?), (?:Scala|Rev)",
        )
        .expect("version pattern")
    });
    re.captures(line).map(|c| c["v"].to_string())
}

/// The texts hidden in one line: the messages of a FlinkResourceException (`status.error`, raw
/// JSON, YAML single-quoted or JSON-escaped inside `kubectl get -o json`), or, for any other line
/// with backslash escapes (JSON logs, escaped stack traces), the line unescaped.
fn decoded_views(line: &str) -> Vec<String> {
    if let Some(error) = OperatorError::find_in_line(line) {
        return error.texts();
    }
    if line.contains("\\\"") || line.contains("\\n") || line.contains("\\t") {
        return vec![unescape(line)];
    }
    Vec::new()
}

/// JSON-style escapes undone (`\"`, `\\`, `\n`, `\t`, `\/`); anything else is kept.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => {}
            Some(c @ ('"' | '\\' | '/')) => out.push(c),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(o: &Outcome) -> Vec<&'static str> {
        o.report.findings.iter().map(|f| f.rule).collect()
    }

    const CHAIN: &str = r#"2026-11-28 09:39:10,001 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] -  Starting KubernetesApplicationClusterEntrypoint (Version: 1.20.1, Scala: 2.12, Rev:abc, Date:2025-02-01T00:00:00+01:00)
2026-11-28 09:39:12,034 WARN  org.apache.flink.kubernetes.KubernetesResourceManagerDriver [] - Error while watching the pods
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics".
Caused by: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics"
2026-11-28 09:39:13,301 ERROR org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Fatal error occurred in ResourceManager.
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
2026-11-28 09:39:13,305 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.
2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...
"#;

    #[test]
    fn the_403_chain_is_one_root_with_its_symptoms() {
        let o = triage_text(CHAIN, "jm.log");
        let f = &o.report.findings;
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].category, Category::RbacForbidden);
        assert!(f[0].caused_by.is_none());
        assert_eq!(f[0].count, 2);
        // The one RBAC plan doctor and can-i print: the JobManager's whole set, bound to the
        // account it runs as (flink, which exists: no new ServiceAccount).
        assert!(
            !f[0].fix.contains("kind: ServiceAccount\nmetadata"),
            "{}",
            f[0].fix
        );
        for part in [
            "resources: [\"pods\"]\n    verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]",
            "kind: RoleBinding\nmetadata:\n  name: flink-jobmanager",
        ] {
            assert!(f[0].fix.contains(part), "{part}\n{}", f[0].fix);
        }
        assert!(
            f[0].verify.contains(
                "kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink"
            ),
            "{}",
            f[0].verify
        );
        assert_eq!(f[1].category, Category::FlinkFatalExit);
        assert_eq!(f[1].caused_by.as_deref(), Some(f[0].id.as_str()));
        assert_eq!(f[1].count, 4);
        assert!(f[0].evidence[0].starts_with("L3: "), "{:?}", f[0].evidence);
        assert_eq!(o.lines, 8);
    }

    #[test]
    fn repeated_lines_fold_into_one_finding_with_a_count() {
        let line = "java.lang.OutOfMemoryError: Java heap space\n";
        let o = triage_text(&line.repeat(50), "tm.log");
        assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
        let f = &o.report.findings[0];
        assert_eq!(f.count, 50);
        assert_eq!(f.evidence.len(), MAX_EVIDENCE + 1);
        assert_eq!(f.evidence.last().unwrap(), "… and 45 more matching lines");
    }

    #[test]
    fn status_error_json_is_decoded_in_every_quoting() {
        let json = r#"{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.client.deployment.ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".","throwableList":[{"type":"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException","message":"Failure executing: POST at: https://10.96.0.1/apis/apps/v1/namespaces/analytics/deployments. Message: deployments.apps is forbidden: User \"system:serviceaccount:flink-operator:flink-operator\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"analytics\"."}]}"#;
        let escaped = serde_json::to_string(json).unwrap();
        for text in [
            json.to_string(),
            format!("  error: '{}'", json.replace('\'', "''")),
            format!("    \"error\": {escaped},"),
        ] {
            let o = triage_text(&text, "status");
            assert_eq!(ids(&o), ["SIG-K8S-FORBIDDEN-OPERATOR"], "{text}");
            let f = &o.report.findings[0];
            assert!(
                f.fix.contains("--verb=create --resource=deployments.apps"),
                "{}",
                f.fix
            );
            assert!(f.evidence[0].starts_with("L1: "));
        }
    }

    #[test]
    fn empty_binary_and_crlf_inputs_are_safe() {
        assert!(triage_text("", "empty").report.findings.is_empty());
        let garbage: Vec<u8> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        let o = triage_reader(&garbage[..], "bin").unwrap();
        assert!(o.report.findings.is_empty());
        let crlf = "INFO ok\r\njava.lang.OutOfMemoryError: Metaspace\r\n";
        let o = triage_text(crlf, "crlf");
        assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
        assert!(!o.report.findings[0].evidence[0].contains('\r'));
        let mut bad =
            b"Caused by: java.lang.OutOfMemoryError: Direct buffer memory \xff\xfe\n".to_vec();
        bad.extend_from_slice(b"\xc3\x28 more\n");
        let o = triage_reader(&bad[..], "latin").unwrap();
        assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
    }

    #[test]
    fn a_huge_single_line_is_read_in_bounded_segments() {
        let mut text = "x".repeat(MAX_SEGMENT * 2 + 10);
        text.push_str(" java.lang.OutOfMemoryError: Java heap space\nnext line\n");
        let o = triage_text(&text, "big");
        assert_eq!(o.lines, 2);
        assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
        assert!(o.report.findings[0].evidence[0].starts_with("L1: "));
    }

    #[test]
    fn the_flink_version_from_the_banner_names_the_plugin_jar() {
        let text = format!("{}\nCaused by: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto.\n", CHAIN.lines().next().unwrap());
        let o = triage_text(&text, "jm.log");
        assert!(
            o.report.findings[0]
                .fix
                .contains("ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-1.20.1.jar"),
            "{}",
            o.report.findings[0].fix
        );
    }

    #[test]
    fn oomkilled_worker_explains_lost_taskmanagers_and_missing_slots() {
        let text = "Worker orders-taskmanager-1-1 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)
java.util.concurrent.TimeoutException: Heartbeat of TaskManager with id orders-taskmanager-1-2 timed out.
org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.
";
        let o = triage_text(text, "jm.log");
        let f = &o.report.findings;
        assert_eq!(f[0].category, Category::OomKilled, "{f:#?}");
        assert!(
            f[1..]
                .iter()
                .all(|s| s.caused_by.as_deref() == Some(f[0].id.as_str())),
            "{f:#?}"
        );
        assert_eq!(f.len(), 3);
    }

    #[test]
    fn the_nearest_preceding_cause_wins() {
        let text = "pods is forbidden: User \"system:serviceaccount:prod:flink\" cannot watch resource \"pods\" in API group \"\" in the namespace \"prod\"
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
Caused by: java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred.
";
        let o = triage_text(text, "jm.log");
        let f = &o.report.findings;
        let rbac = f
            .iter()
            .find(|f| f.category == Category::RbacForbidden)
            .unwrap();
        let fatal = f
            .iter()
            .find(|f| f.category == Category::FlinkFatalExit)
            .unwrap();
        assert_eq!(fatal.caused_by.as_deref(), Some(rbac.id.as_str()), "{f:#?}");
    }

    #[test]
    fn a_pasted_flinkdeployment_is_linted_with_the_lines_of_the_paste() {
        let text = "My job does not start, here is my deployment:\n\n```yaml\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: basic-example\nspec:\n  image: flink:1.15\n  flinkVersion: v1_14\n  serviceAccount: flink\n  jobManager:\n    resource: {memory: 2048m, cpu: 1}\n  taskManager:\n    resource: {memory: 2048m, cpu: 1}\n```\nWhat is wrong?\n";
        let o = triage_text(text, "paste");
        let f = o
            .report
            .findings
            .iter()
            .find(|f| f.category == Category::FlinkVersionMismatch)
            .unwrap_or_else(|| panic!("{:#?}", o.report.findings));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("paste:10: spec.flinkVersion: v1_14")),
            "{:?}",
            f.evidence
        );
        // Prose after the fence is not part of the manifest; a paste without one stays quiet.
        assert!(
            triage_text("apiVersion: flink.apache.org/v1beta1 is what I use\n", "p")
                .report
                .findings
                .is_empty()
        );
    }

    #[test]
    fn the_deepest_cause_of_a_java_chain_is_the_root() {
        let text = "org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: Could not load the provided entrypoint class.\n\tat org.apache.flink.client.program.PackagedProgram.callMainMethod(PackagedProgram.java:372)\nCaused by: java.io.IOException: JAR file does not exist '/opt/flink/usrlib/job.jar'\n\tat org.apache.flink.util.JarUtils.checkJarFile(JarUtils.java:46)\n";
        let o = triage_text(text, "jm.log");
        let f = &o.report.findings;
        assert_eq!(f[0].category, Category::JobJarNotFound, "{f:#?}");
        assert!(f[1..].iter().all(|s| s.caused_by.is_some()), "{f:#?}");
    }

    #[test]
    fn a_pasted_describe_names_the_pod_in_the_commands() {
        let text = "Name:             recommender-taskmanager-1-1\nNamespace:        analytics\nPriority:         0\nStart Time:       Sat, 28 Nov 2026 09:00:00 +0000\nContainers:\n  flink-main-container:\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    239\n";
        let o = triage_text(text, "describe");
        let f = &o.report.findings[0];
        assert!(
            f.fix
                .contains("kubectl logs recommender-taskmanager-1-1 -n analytics --previous"),
            "{}",
            f.fix
        );
        // A described Deployment has no pod of that name: the placeholder stays.
        let o = triage_text(&text.replace("Start Time:", "Selector:  "), "describe");
        assert!(o.report.findings[0]
            .fix
            .contains("kubectl logs <pod> -n analytics"));
    }

    /// The reading triage did before it searched whole chunks, kept as the reference: every
    /// line (segments of at most `MAX_SEGMENT` bytes) read one by one, every line read for the
    /// context words, and every line holding a literal or a marker matched.
    fn triage_by_line(text: &[u8], source: &str) -> Outcome {
        use std::io::BufRead;
        let mut reader = io::BufReader::new(text);
        let mut state = State::default();
        let mut manifests = ManifestCapture::default();
        let (mut line_no, mut continuing, mut bytes) = (0usize, false, 0u64);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = (&mut reader)
                .take(MAX_SEGMENT as u64)
                .read_until(b'\n', &mut buf)
                .unwrap();
            if n == 0 {
                break;
            }
            bytes += n as u64;
            if !continuing {
                line_no += 1;
            }
            continuing = buf.last() != Some(&b'\n') && n == MAX_SEGMENT;
            let mut end = buf.len();
            while end > 0 && (buf[end - 1] == b'\n' || buf[end - 1] == b'\r') {
                end -= 1;
            }
            let raw = &buf[..end];
            manifests.line(raw, line_no);
            readings().note_context(raw, &mut state.context);
            if state.reads_prose() {
                state.read_description(raw, line_no);
            }
            if catalogue().is_candidate(raw) || markers().is_match(raw) {
                state.line(&String::from_utf8_lossy(raw), line_no);
            }
        }
        let mut report = rank(state.findings(source));
        report
            .findings
            .extend(rank(manifests.lint(source)).findings);
        Outcome {
            report,
            source: source.to_string(),
            lines: line_no,
            bytes,
        }
    }

    /// Hands out a text a few bytes at a time (a pipe, a slow paste).
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.1 = (self.1 * 7 + 3) % 4096;
            let n = (self.1 + 1).min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn rendered(o: &Outcome) -> String {
        let mut out = Vec::new();
        write_outcome(o, crate::cli::Format::Json, &Style::PLAIN, &mut out).unwrap();
        format!(
            "{} lines, {} bytes\n{}",
            o.lines,
            o.bytes,
            String::from_utf8(out).unwrap()
        )
    }

    #[test]
    fn searching_whole_chunks_finds_what_reading_every_line_finds() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/triage");
        let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        fixtures.sort();
        let mut text: Vec<u8> = Vec::new();
        for f in &fixtures {
            text.extend(std::fs::read(f).unwrap());
            text.extend(b"\r\n\n");
        }
        for s in crate::signatures::all() {
            for e in s.examples {
                text.extend(format!("  {e}\r\r\n").into_bytes());
            }
        }
        for r in READINGS {
            for e in r.examples {
                text.extend(format!("{e}\n").into_bytes());
            }
        }
        text.extend(CHAIN.as_bytes());
        text.extend(b"\xff\xfe Caused by: java.lang.OutOfMemoryError: Metaspace \xc3\x28\n");
        text.extend(b"apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: orders\nspec:\n  job:\n    upgradeMode: last-state\n---\n");
        // The prose is read in the first lines only; the context words anywhere. After the
        // first lines, chunks are searched on two threads.
        let late = [
            &b"ordinary line\n".repeat(PROSE_LINES)[..],
            &text.repeat(3 * CHUNK / text.len() + 1),
        ]
        .concat();
        for (name, text) in [("mixed", &text), ("late", &late)] {
            let want = rendered(&triage_by_line(text, name));
            assert_eq!(
                rendered(&triage_reader(&text[..], name).unwrap()),
                want,
                "{name}"
            );
            assert_eq!(
                rendered(&triage_reader(Trickle(text, 0), name).unwrap()),
                want,
                "{name} trickled"
            );
            // Without its last newline.
            let cut = &text[..text.len() - 1];
            assert_eq!(
                rendered(&triage_reader(cut, name).unwrap()),
                rendered(&triage_by_line(cut, name)),
                "{name} cut"
            );
        }
        assert!(rendered(&triage_reader(&text[..], "x").unwrap()).contains("SIG-"));
    }

    #[test]
    fn lines_listed_by_two_threads_are_those_found_on_demand() {
        let mut text = Vec::new();
        let (mut i, mut planted) = (0usize, 0);
        while text.len() < 2 * PARALLEL_MIN {
            text.extend(format!("2026-11-28 INFO ordinary line {i}\n").as_bytes());
            if i % 97 == 0 {
                text.extend(b"Caused by: java.lang.OutOfMemoryError: Metaspace\n");
                planted += 1;
            }
            if i % 131 == 0 {
                text.extend(b"a \\ and apiVersion: v1 and Name: x\n");
                planted += 1;
            }
            i += 1;
        }
        let mut listed = Found::search(&text);
        assert!(matches!(listed, Found::Listed(..)));
        let mut on_demand = Found::OnDemand;
        let mut hits = 0;
        let mut at = 0;
        while at < text.len() {
            let want = on_demand.next(&text, at);
            assert_eq!(listed.next(&text, at), want, "at {at}");
            hits += usize::from(want == Some(at));
            at += memchr::memchr(b'\n', &text[at..]).unwrap() + 1;
        }
        assert_eq!(hits, planted);
    }

    #[test]
    fn lines_longer_than_a_segment_are_cut_as_before() {
        let oom = "java.lang.OutOfMemoryError: Java heap space";
        for (len, tail) in [
            (MAX_SEGMENT, "\n"),
            (MAX_SEGMENT - 1, "\n"),
            (MAX_SEGMENT, ""),
            (2 * MAX_SEGMENT - oom.len() / 2, "\r\nnext\n"),
        ] {
            let mut text = format!("{oom} first\n").into_bytes();
            text.extend(std::iter::repeat_n(b'x', len - oom.len()));
            text.extend(oom.as_bytes());
            text.extend(tail.as_bytes());
            text.extend(format!("Caused by: {oom}\n").as_bytes());
            let want = rendered(&triage_by_line(&text, "long"));
            assert_eq!(rendered(&triage_reader(&text[..], "long").unwrap()), want);
            assert_eq!(
                rendered(&triage_reader(Trickle(&text, 1), "long").unwrap()),
                want
            );
        }
    }

    #[test]
    fn no_match_means_an_empty_report() {
        let o = triage_text("2026-11-28 INFO all good\nWARN nothing to see\n", "ok.log");
        assert!(o.report.findings.is_empty());
        let mut out = Vec::new();
        write_outcome(&o, crate::cli::Format::Table, &Style::PLAIN, &mut out).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("No known problem found"));
    }
}

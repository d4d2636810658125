//! The reading engine: one text (a log, `kubectl describe` output, an event list, an operator's
//! `status.error`, what `kubectl apply` printed, a person's description) read line by line with
//! bounded memory, every line worth a look matched against the catalogue, and the matches grouped
//! into findings linked cause -> symptoms, with the same contract as the rules' findings.
//! `triage` reads a pasted text with it, `doctor` the container logs it gathered
//! ([`scan`]), `logs --highlight` one line at a time ([`line_matches`]): one reader, three users.
//! It does no I/O of its own: it reads what it is given.

use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::operator_error::OperatorError;
use crate::signatures::described::{self, readings, Reading, READINGS};
use crate::signatures::{
    by_id, catalogue, derive_fields, fill, prune_line, redact, Match, Signature,
};
use regex::Regex;
use std::collections::BTreeMap;

mod scan;

use scan::*;
use std::io::{self, Read};
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

/// Lines that, anywhere in a text, take back what one signature's lines say there: the program
/// that printed both tells in the other line why its request failed. (signature id, literal)
const WITHDRAWN: &[(&str, &str)] = &[
    // StreamPark's FlinkJobStatusWatcher, right after a jobs-overview request to the JobManager's
    // REST endpoint failed, looks the JobManager Deployment up. When it is gone it logs that "the
    // deployment is deleted" (`The deployment is deleted and ...` in v2.1.1, `<cluster-id>
    // deployment is deleted and ...` in v2.1.7) and reads the job's last state from the history
    // archive: the application ended or was deleted. When it is there but failing, v2.1.1 logs
    // the second line, collects the pods' termination logs and deletes it (apache/streampark@v2.1.1
    // and @v2.1.7: streampark-flink/streampark-flink-kubernetes/src/main/scala/org/apache/
    // streampark/flink/kubernetes/watcher/FlinkJobStatusWatcher.scala). Either way the endpoint is
    // not unreachable: the cluster is gone or down, and what ended it, if anything, is in other
    // lines.
    (
        "SIG-STREAMPARK-REST-UNREACHABLE",
        "deployment is deleted and enters the task failure process",
    ),
    (
        "SIG-STREAMPARK-REST-UNREACHABLE",
        "Enter the task failure deletion process",
    ),
];

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

/// What the reader found in one text: its findings (linked cause -> symptoms with provisional
/// ids, not yet ranked), the Flink resources pasted in it (for lint), and its size.
#[derive(Debug, Default)]
pub struct ReadText {
    pub findings: Vec<Finding>,
    /// The fields each finding's lines gave (by the finding's provisional id): what a later
    /// stage that knows more (lint's CRD schemas) reads to decide between a phrase's causes.
    pub fields: Fields,
    pub manifests: Vec<Manifest>,
    /// Lines read.
    pub lines: usize,
    pub bytes: u64,
}

/// Fields by finding id.
pub type Fields = BTreeMap<String, BTreeMap<String, String>>;

/// A Flink resource pasted as YAML, from its `apiVersion:` line, with the line it starts at.
#[derive(Debug)]
pub struct Manifest {
    pub first_line: usize,
    pub text: String,
}

/// A whole text in memory (tests, small inputs).
pub fn read_text(text: &str, source: &str) -> ReadText {
    read(text.as_bytes(), source).expect("reading from memory cannot fail")
}

/// A stream: memory is one read buffer of `MAX_SEGMENT` bytes plus the findings,
/// whatever the size of the input. Invalid UTF-8 is decoded lossily.
///
/// The text is read in large chunks and searched whole: one multi-literal search (the catalogue's
/// literals and the reader's own markers, see `searcher`) finds the few lines worth a closer look, and
/// only their boundaries are looked up (memchr); every other line costs a newline count. A line
/// longer than `MAX_SEGMENT` is matched in segments of that size, with the same line number.
pub fn read<R: Read>(mut reader: R, source: &str) -> io::Result<ReadText> {
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
    let (findings, fields) = state.findings(source);
    Ok(ReadText {
        findings,
        fields,
        manifests: manifests.into_manifests(),
        lines: line_no,
        bytes,
    })
}

/// The matches of one line that count, as every user of the reader sees them: the catalogue's
/// matches on the line and, first, on the texts hidden in it (the messages of an operator error,
/// an escaped JSON log line), one per signature, pruned to one fact per category (`prune_line`).
pub fn line_matches(line: &str, line_no: usize) -> Vec<Match> {
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
    if matches.len() < 2 {
        return matches;
    }
    let mut seen: Vec<&str> = Vec::new();
    matches.retain(|m| {
        let first = !seen.contains(&m.signature.id);
        seen.push(m.signature.id);
        first
    });
    prune_line(matches)
}

/// Every match of a text held in memory (a container log doctor gathered), in line order, each
/// line read as [`line_matches`] reads it. One search of the catalogue's literals and the
/// reader's markers finds the lines worth a look.
pub fn scan(text: &str) -> Vec<Match> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut line_no = 1;
    let mut at = 0;
    while at < bytes.len() {
        let Some(start) = LineStarts::OnDemand.next(bytes, at) else {
            break;
        };
        line_no += memchr::memchr_iter(b'\n', &bytes[at..start]).count();
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = &text[start..end];
        out.extend(line_matches(
            line.strip_suffix('\r').unwrap_or(line),
            line_no,
        ));
        at = end + 1;
        line_no += 1;
    }
    out
}

/// One finding in the making: every line of one category that says the same thing.
#[derive(Debug)]
struct Draft {
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

impl Draft {
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

    fn explains(&self, other: &Draft) -> bool {
        self.signatures
            .iter()
            .any(|c| other.signatures.iter().any(|s| c.explains.contains(&s.id)))
            || self.deeper_in_a_chain(other)
    }

    /// In a Java exception chain the deepest `Caused by:` is the root: a specific finding below
    /// another specific finding in the same chain explains it (`Could not load the provided
    /// entrypoint class` ... `Caused by: ... JAR file does not exist`).
    fn deeper_in_a_chain(&self, other: &Draft) -> bool {
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

/// At most this many lines, and bytes, of one operator error are put back together.
const WRAP_LINES: usize = 24;
const WRAP_BYTES: usize = 16 << 10;

/// True when the JSON value that `text` starts with (at its first `{`) is closed in it.
fn json_closes(text: &str) -> bool {
    let (mut depth, mut in_string, mut escaped, mut opened) = (0usize, false, false, false);
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' if opened => in_string = true,
            '{' => {
                depth += 1;
                opened = true;
            }
            '}' if opened => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[derive(Default)]
struct State {
    groups: Vec<Draft>,
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
    /// An operator error a paste broke over several lines, being put back together.
    wrapped_error: Option<Wrapped>,
    /// Signatures a line of the text took back (see `WITHDRAWN`).
    withdrawn: Vec<&'static str>,
    /// The last `UnknownHostException: <host>` line (its number, the line, the host): the frames
    /// below it may say whose address it was (see `SIG-JM-ADDRESS-RESOLVE`).
    unknown_host: Option<(usize, String, String)>,
}

/// A stack frame that names whose address an `UnknownHostException` above it was: only within
/// this many lines of it (a trace's frames follow its head).
const FRAME_REACH: usize = 60;

/// An operator error (`{"type":...`) opened on one line and not yet closed.
#[derive(Debug)]
struct Wrapped {
    first_line: usize,
    /// The error from its opening brace, its lines joined as they were before the wrap.
    joined: String,
    /// Its lines as they were pasted.
    parts: Vec<String>,
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

    /// Puts back together an operator error (`{"type":"...Exception","message":"...`) that a
    /// paste broke over several lines (a mail archive's or issue tracker's hard wrap, as in
    /// `"message":"HA` / ` metadata not available to restore from last state`): from the line
    /// that opens it to the line that closes it (or a blank line, `WRAP_LINES` lines, or the end
    /// of the text), the lines are joined as they were before the wrap and matched as one; what
    /// a line already said alone is not said twice. Read in the lines read for a description
    /// only, as pastes are.
    fn join_wrapped(&mut self, raw: &[u8], line_no: usize) {
        if self.wrapped_error.is_none() && memchr::memmem::find(raw, b"{\"type\"").is_none() {
            return;
        }
        let text = String::from_utf8_lossy(raw);
        if let Some(mut open) = self.wrapped_error.take() {
            let full = text.trim().is_empty()
                || open.parts.len() >= WRAP_LINES
                || open.joined.len() + text.len() > WRAP_BYTES;
            if !full {
                open.joined.push_str(&text);
                open.parts.push(text.to_string());
                if json_closes(&open.joined) {
                    self.match_wrapped(open);
                } else {
                    self.wrapped_error = Some(open);
                }
                return;
            }
            self.match_wrapped(open);
        }
        if let Some(at) = text.find("{\"type\"") {
            let tail = &text[at..];
            if !json_closes(tail) && tail.len() <= WRAP_BYTES {
                self.wrapped_error = Some(Wrapped {
                    first_line: line_no,
                    joined: tail.to_string(),
                    parts: vec![text.to_string()],
                });
            }
        }
    }

    /// The matches of a put-together operator error that none of its lines gave alone.
    fn match_wrapped(&mut self, open: Wrapped) {
        if open.parts.len() < 2 {
            return;
        }
        let cat = catalogue();
        let read = |text: &str, line_no: usize| -> Vec<Match> {
            let mut out: Vec<Match> = decoded_views(text)
                .iter()
                .flat_map(|v| {
                    v.lines()
                        .flat_map(|l| cat.match_line(l, line_no))
                        .collect::<Vec<_>>()
                })
                .collect();
            out.extend(cat.match_line(text, line_no));
            out
        };
        let alone: Vec<&str> = open
            .parts
            .iter()
            .flat_map(|p| read(p, 0))
            .map(|m| m.signature.id)
            .collect();
        let mut seen: Vec<&str> = Vec::new();
        let matches: Vec<Match> = read(&open.joined, open.first_line)
            .into_iter()
            .filter(|m| {
                let new = !alone.contains(&m.signature.id) && !seen.contains(&m.signature.id);
                seen.push(m.signature.id);
                new
            })
            .collect();
        for m in prune_line(matches) {
            self.add(m);
        }
    }

    /// Reads one line (`\r\n` removed) for what a person's own words describe.
    fn read_description(&mut self, raw: &[u8], line_no: usize) {
        self.prose_lines += 1;
        let text = String::from_utf8_lossy(raw);
        if !described::is_prose(&text) {
            return;
        }
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
                        crate::signatures::fill_commands(sig.fix, &fields)
                    ),
                    crate::signatures::fill_commands(sig.verify, &fields),
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
        for (id, literal) in WITHDRAWN {
            if line.contains(literal) && !self.withdrawn.contains(id) {
                self.withdrawn.push(id);
            }
        }
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
        if let Some(at) = line.find("UnknownHostException: ") {
            let rest = &line[at + "UnknownHostException: ".len()..];
            let host: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
                .collect();
            if !host.is_empty() {
                self.unknown_host = Some((line_no, line.to_string(), host));
            }
        }
        for mut m in line_matches(line, line_no) {
            if m.signature.id == "SIG-JM-ADDRESS-RESOLVE" {
                self.resolved_by_frame(&mut m);
            }
            self.add(m);
        }
    }

    /// A frame of the code that resolves the JobManager's address: the evidence is the
    /// `UnknownHostException: <host>` line above it, when there is one, and its host the name
    /// that failed; the frame stays the evidence otherwise (a precondition on the address).
    fn resolved_by_frame(&self, m: &mut Match) {
        let Some((no, line, host)) = &self.unknown_host else {
            return;
        };
        if m.line_no < *no || m.line_no - no > FRAME_REACH {
            return;
        }
        m.fields
            .insert("host".to_string(), redact(host).into_owned());
        m.line = redact(line.trim()).chars().take(PROSE_EVIDENCE).collect();
        m.line_no = *no;
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
        self.groups.push(Draft {
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

    /// The groups as findings, each symptom pointing at the root cause found in the same text,
    /// and the fields each was filled from (by provisional id).
    fn findings(mut self, source: &str) -> (Vec<Finding>, Fields) {
        if let Some(open) = self.wrapped_error.take() {
            self.match_wrapped(open);
        }
        // A group only of signatures the text took back says nothing the text stands by.
        let withdrawn = std::mem::take(&mut self.withdrawn);
        self.groups
            .retain(|g| !g.signatures.iter().all(|s| withdrawn.contains(&s.id)));
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
        let fields: Fields = self
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| (provisional_id(i), g.fields.clone()))
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
        (out, fields)
    }
}

/// For each group, the group that causes it (the root of the chain), if any in the same text.
fn link(groups: &[Draft]) -> Vec<Option<usize>> {
    let n = groups.len();
    // Of several possible causes, the one logged nearest before the symptom (a 403 and then the
    // retries of that request), else the nearest after it; then the earlier layer.
    let rank_key = |c: &Draft, s: &Draft| {
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

fn finding(i: usize, g: &Draft, cause: Option<usize>, source: &str) -> Finding {
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

/// Flink's version from the first entrypoint banner of a whole log held in memory.
pub fn flink_version_of(text: &str) -> Option<String> {
    memchr::memmem::find_iter(text.as_bytes(), b"(Version: ").find_map(|at| {
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        flink_version(&text[start..end])
    })
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
mod tests;

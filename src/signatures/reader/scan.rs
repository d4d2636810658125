//! Reading the input: fixed-size chunks searched whole by one literal searcher (signature
//! literals, markers, `apiVersion:`), line boundaries found only around a hit, and pasted
//! manifests captured while they are open.

use super::*;

/// The reading of one text: every line is numbered, the first `PROSE_LINES` are read for a
/// description, and only lines the searcher finds (or those inside a pasted manifest) are
/// matched one by one.
#[derive(Default)]
pub(super) struct Scan {
    pub(super) state: State,
    pub(super) manifests: ManifestCapture,
    /// The number of the last line started.
    pub(super) line_no: usize,
    /// Whether the last segment was cut at `MAX_SEGMENT` (the next one continues its line).
    pub(super) continuing: bool,
}

impl Scan {
    /// Complete lines, each ending in `\n` and at most `MAX_SEGMENT` bytes long.
    pub(super) fn lines(&mut self, text: &[u8]) {
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
            LineStarts::search(text)
        } else {
            LineStarts::OnDemand
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
    pub(super) fn segment(&mut self, text: &[u8], cut: bool) {
        if !self.continuing {
            self.line_no += 1;
        }
        self.continuing = cut;
        self.state.note_context(text);
        self.line(text, self.line_no);
    }

    /// One line (or segment), any trailing `\r` and `\n` included.
    pub(super) fn line(&mut self, raw: &[u8], line_no: usize) {
        let mut end = raw.len();
        while end > 0 && (raw[end - 1] == b'\n' || raw[end - 1] == b'\r') {
            end -= 1;
        }
        let raw = &raw[..end];
        self.manifests.line(raw, line_no);
        if self.state.reads_prose() {
            self.state.join_wrapped(raw, line_no);
            self.state.read_description(raw, line_no);
        }
        if catalogue().is_candidate(raw) || markers().is_match(raw) {
            self.state.line(&String::from_utf8_lossy(raw), line_no);
        }
    }
}

/// Bytes read before they are searched: large enough that a search, and a thread, is worth it.
pub(super) const CHUNK: usize = 1 << 20;
/// Below this, a text is searched on one thread.
pub(super) const PARALLEL_MIN: usize = 256 << 10;

/// The lines the searcher finds in a text, by where they start.
pub(super) enum LineStarts {
    /// Searched on demand, from where the reading is.
    OnDemand,
    /// Searched beforehand (both halves of the text at once): the start of every line with a
    /// hit, in order, and how many were used.
    Listed(Vec<u32>, usize),
}

impl LineStarts {
    pub(super) fn search(text: &[u8]) -> LineStarts {
        if text.len() < PARALLEL_MIN || u32::try_from(text.len()).is_err() {
            return LineStarts::OnDemand;
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
        LineStarts::Listed(starts, 0)
    }

    /// The start of the first line at or after `at` (a line start) with a hit.
    pub(super) fn next(&mut self, text: &[u8], at: usize) -> Option<usize> {
        match self {
            LineStarts::OnDemand => {
                let hit = at + searcher().find(&text[at..])?.start();
                Some(memchr::memrchr(b'\n', &text[at..hit]).map_or(at, |i| at + i + 1))
            }
            LineStarts::Listed(starts, used) => {
                while (*starts.get(*used)? as usize) < at {
                    *used += 1;
                }
                Some(starts[*used] as usize)
            }
        }
    }
}

/// The starts of the lines of `text[from..to]` (whole lines) in which the searcher finds something.
pub(super) fn line_starts(text: &[u8], from: usize, to: usize) -> Vec<u32> {
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
pub(super) struct ManifestCapture {
    open: Option<Captured>,
    done: Vec<Captured>,
}

pub(super) struct Captured {
    first_line: usize,
    indent: usize,
    text: String,
}

/// At most this many manifests, of at most this many bytes each, are kept from one text.
pub(super) const MAX_MANIFESTS: usize = 8;
pub(super) const MAX_MANIFEST_BYTES: usize = 256 << 10;

impl ManifestCapture {
    pub(super) fn line(&mut self, raw: &[u8], line_no: usize) {
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

    /// The captured resources that name a kind, with the line each starts at.
    pub(super) fn into_manifests(mut self) -> Vec<Manifest> {
        self.done.extend(self.open.take());
        self.done
            .into_iter()
            .filter(|m| m.text.contains("kind:"))
            .map(|m| Manifest {
                first_line: m.first_line,
                text: m.text,
            })
            .collect()
    }
}

/// `key: value`, `key:`, `- item` or a comment: a line a YAML mapping may hold.
pub(super) fn yaml_key_line(t: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"^(?:-(?:\s|$)|#|["']?[\w./-]+["']?\s*:(?:\s|$))"#).expect("yaml key pattern")
    })
    .is_match(t)
}

/// What makes a line interesting to the reader besides the catalogue's literals.
pub(super) const MARKERS: &[&str] = &[
    "\\",
    "{\"type\"",
    "(Version: ",
    "Caused by:",
    "Name:",
    "Namespace:",
    "Start Time:",
];

/// Where a pasted manifest may start (see `ManifestCapture`).
pub(super) const MANIFEST_MARKER: &str = "apiVersion:";

pub(super) fn markers() -> &'static aho_corasick::AhoCorasick {
    static M: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    M.get_or_init(|| {
        let markers = MARKERS
            .iter()
            .copied()
            .chain(WITHDRAWN.iter().map(|(_, literal)| *literal));
        aho_corasick::AhoCorasick::new(markers).expect("markers compile")
    })
}

/// One searcher for every line the reader looks at closer: the catalogue's literals, the markers and
/// the start of a manifest. A line it finds nothing in is only counted.
pub(super) fn searcher() -> &'static aho_corasick::AhoCorasick {
    static S: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    S.get_or_init(|| {
        let literals = crate::signatures::all()
            .iter()
            .flat_map(|s| s.literals.iter().copied())
            .chain(MARKERS.iter().copied())
            .chain(WITHDRAWN.iter().map(|(_, literal)| *literal))
            .chain([MANIFEST_MARKER]);
        aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(literals)
            .expect("reader literals compile")
    })
}

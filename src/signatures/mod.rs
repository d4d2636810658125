//! The log signature catalogue: one place, data-like, shared by `doctor`, `logs --highlight` and
//! `triage`. Matching is a literal prefilter (Aho-Corasick over every signature's literals) and then
//! the signature's regex on candidate lines only, so cost stays flat as the catalogue grows.

mod catalogue;
pub mod described;
mod kubernetes;
mod operators;
pub mod paste;
pub mod reader;
pub mod redact;
mod shapes;
pub mod terminal;
pub mod words;

use crate::finding::{Category, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::rbac_fix::{self, Known, Need, Workload};
use aho_corasick::AhoCorasick;
use regex::Regex;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub use catalogue::derive_fields;

/// Every signature: Flink, fabric8 and the Apache operator (`catalogue`), the Kubernetes tools'
/// own output (`kubernetes`: kubectl, the kubelet, the scheduler, the API server, Helm), and the
/// other operators (`operators`: the GCP/Spotify FlinkCluster operator, Lyft's). Order matters
/// only as a tie-break: of two signatures of one category on one line, the earlier wins.
pub fn all() -> &'static [&'static Signature] {
    static ALL: OnceLock<Vec<&'static Signature>> = OnceLock::new();
    ALL.get_or_init(|| {
        catalogue::SIGNATURES
            .iter()
            .chain(kubernetes::SIGNATURES)
            .chain(operators::SIGNATURES)
            .chain(shapes::SIGNATURES)
            .collect()
    })
}
pub use redact::redact;

/// One known log line or error message.
#[derive(Debug)]
pub struct Signature {
    /// Stable id (`SIG-...`), referenced by `explains` and by tests.
    pub id: &'static str,
    pub category: Category,
    pub severity: Severity,
    /// A line is a candidate when it contains any of these (case-sensitive) literals.
    pub literals: &'static [&'static str],
    /// Confirms the match and extracts named groups (`(?P<sa>...)`) as fields.
    pub pattern: &'static str,
    /// A one-line title, with `{field}` / `{field|fallback}` placeholders. A field some match of
    /// the pattern does not fill needs a fallback, and a fallback holds no placeholder (`fill`
    /// does not nest); `signatures/tests/placeholders.rs` checks both on the pattern's syntax tree.
    pub title: &'static str,
    /// One line a person reads: what this means. Printed as written wherever no match is at
    /// hand (`explain`, `logs --highlight`, rules quoting the signature), so it names no field.
    pub explanation: &'static str,
    /// The fix, with `{field}` / `{field|fallback}` placeholders filled from the extracted fields.
    pub fix: &'static str,
    /// A command that shows the fix worked (placeholders as in `fix`); may be empty.
    pub verify: &'static str,
    /// Signatures whose lines this one explains when both appear in one text (cause -> effect).
    pub explains: &'static [&'static str],
    /// Signatures that say the same thing less precisely: when both match one line, only this
    /// one counts (e.g. the operator-ServiceAccount 403 over the generic 403).
    pub supersedes: &'static [&'static str],
    /// Real lines this signature must match: public logs, or the printing site's format string
    /// (see `sources`) filled in.
    pub examples: &'static [&'static str],
    /// Where the text is printed, as `owner/repo@version:path` (one or more: a message assembled
    /// from several places, or worded differently across versions), or `observed:<what>` for text
    /// only seen in real output with no single printing site in source (e.g. kubelet event text
    /// assembled from pieces, a cloud service's error message).
    /// A line that contains any of these is not this signature, however well the pattern
    /// matches (a class of Hadoop's own missing is not the job's entry class).
    pub unless: &'static [&'static str],
    pub sources: &'static [&'static str],
}

impl Signature {
    /// The fix and verify command for a match's fields. A refusal naming the ServiceAccount
    /// (namespace, account, verb, resource) gets the one RBAC plan every command prints
    /// (`flink::rbac_fix`): `plan` in the account's own namespace, `plan_grant` in another one
    /// and for the Apache operator's account (its chart's rules, as FLK005 grants them);
    /// everything else fills the signature's templates.
    pub fn remedy(&self, fields: &BTreeMap<String, String>) -> (String, String) {
        let field = |k: &str| fields.get(k).map(String::as_str);
        if let (Some(ns), Some(sa), Some(verb), Some(resource)) = (
            field("namespace"),
            field("sa"),
            field("verb"),
            field("resource"),
        ) {
            let refused = vec![(
                field("group").unwrap_or("").to_string(),
                resource.to_string(),
                verb.to_string(),
            )];
            let target = field("object_namespace").unwrap_or(ns);
            match self.category {
                // The Apache operator's own account: its chart's rules where it was refused
                // (the Go operators' signatures keep their own release's ClusterRole).
                Category::OperatorRbacMissing if self.id == "SIG-K8S-FORBIDDEN-OPERATOR" => {
                    let plan = rbac_fix::plan_grant(
                        Component::Operator,
                        Mode::Operator,
                        ns,
                        sa,
                        target,
                        &refused,
                        &Known::default(),
                    );
                    let fix = format!("{}\n{}", operator_grant_prose(target), plan.commands());
                    return (fix, plan.verify());
                }
                Category::RbacForbidden | Category::DefaultServiceAccount if target != ns => {
                    // Another namespace than the account's: a grant there, nothing switched.
                    let plan = rbac_fix::plan_grant(
                        Component::JobManager,
                        Mode::Native,
                        ns,
                        sa,
                        target,
                        &refused,
                        &Known::default(),
                    );
                    let fix = format!(
                        "# ServiceAccount {ns}/{sa} reads namespace {target}: a Role there with what was refused, bound to it\n{}",
                        plan.commands()
                    );
                    return (fix, plan.verify());
                }
                Category::RbacForbidden | Category::DefaultServiceAccount => {
                    let need = Need {
                        component: Component::JobManager,
                        mode: Mode::Native,
                        ha: false,
                        refused,
                        namespace: ns.to_string(),
                        service_account: sa.to_string(),
                        workload: Workload::Unknown,
                        account_missing: false,
                    };
                    let plan = rbac_fix::plan(&need, &Known::default());
                    return (plan.commands(), plan.verify());
                }
                _ => {}
            }
        }
        (
            fill_commands(self.fix, fields),
            fill_commands(self.verify, fields),
        )
    }
}

/// What the operator's chart does about a namespace it was refused in, before the Role the
/// planner writes (`doctor`'s FLK005 says the same with the release's own `helm upgrade`).
pub fn operator_grant_prose(namespace: &str) -> String {
    let ns = crate::shell::sh(namespace);
    if namespace.is_empty() {
        "# the operator watches every namespace: let its chart manage its RBAC again (`helm upgrade` with `rbac.create=true`), or apply the chart's rules as a ClusterRole:".to_string()
    } else {
        format!(
            "# if {ns} should be managed, add it to the operator chart's `watchNamespaces` and `helm upgrade` (the chart then creates this Role there itself); or apply the chart's operator rules in {ns}:"
        )
    }
}

/// A line that matched a signature.
#[derive(Debug, Clone)]
pub struct Match {
    pub signature: &'static Signature,
    /// 1-based line number in the scanned text.
    pub line_no: usize,
    /// The line, redacted and trimmed to a readable length around the match.
    pub line: String,
    /// The named groups the pattern extracted (redacted), plus the fields derived from them
    /// (`kubectl_resource`, `plugin`, `exit_meaning`, ...; see `derive_fields`).
    pub fields: BTreeMap<String, String>,
}

impl Match {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
    /// The fix for this match (see `Signature::remedy`).
    pub fn fix(&self) -> String {
        self.signature.remedy(&self.fields).0
    }
    /// This match with what the reader of a whole snapshot knows and the line did not say (the
    /// pod, its namespace and ServiceAccount, the Flink version of its log's banner): the line's
    /// own fields win, and the derived ones (a plugin's jar name from the version) are made again.
    pub fn knowing<'a>(mut self, known: impl IntoIterator<Item = (&'a str, &'a str)>) -> Match {
        for (key, value) in known {
            if !value.is_empty() {
                self.fields
                    .entry(key.to_string())
                    .or_insert_with(|| value.to_string());
            }
        }
        derive_fields(&mut self.fields);
        self
    }
    /// The signature's title with this match's fields filled in.
    pub fn title(&self) -> String {
        fill(self.signature.title, &self.fields)
    }
    /// The verify command for this match (see `Signature::remedy`).
    pub fn verify(&self) -> String {
        self.signature.remedy(&self.fields).1
    }
}

/// Fills `{name}` and `{name|fallback}` placeholders. A missing field takes the fallback; a
/// missing field without fallback, and anything in braces that is not a field name (a jsonpath
/// `{.status}`), is left as it is. Values are inserted verbatim, never re-expanded.
pub fn fill(template: &str, fields: &BTreeMap<String, String>) -> String {
    fill_with(template, fields, |_, v| Cow::Borrowed(v))
}

/// Fields that hold prose (or a whole fix the catalogue wrote), inserted into a fix as they are.
const PROSE_FIELDS: &[&str] = &[
    "memory_fix",
    "config_fix",
    "plugin_fix",
    "denial",
    "exit_meaning",
    "process",
    // Built by `flink::artifact` with the jar's URI already quoted as one shell word.
    "jar_fix",
    "jar_verify",
    // Built by `catalogue::network_fix` from the numbers the line printed (parsed as integers).
    "network_fix",
    // Built by `catalogue::yarn_fields` from a YARN memory kill's numbers; the container and
    // application ids in its commands quoted there.
    "yarn_fix",
];

/// `fill` for a fix or verify text, which holds commands: every value read from the input (a
/// pod, a namespace, an image) as one shell word (`shell::quote`), so a pasted log naming a pod
/// `x$(touch pwned)` never puts code into a command. Names as Kubernetes allows them read as
/// before.
pub fn fill_commands(template: &str, fields: &BTreeMap<String, String>) -> String {
    fill_with(template, fields, |name, v| {
        if PROSE_FIELDS.contains(&name) {
            Cow::Borrowed(v)
        } else {
            crate::shell::quote(v)
        }
    })
}

fn fill_with<'a>(
    template: &str,
    fields: &'a BTreeMap<String, String>,
    value: impl Fn(&str, &'a str) -> Cow<'a, str>,
) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &after[..close];
        let (name, fallback) = match inner.split_once('|') {
            Some((n, f)) => (n, Some(f)),
            None => (inner, None),
        };
        let is_name = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        match (is_name, fields.get(name), fallback) {
            (true, Some(v), _) => out.push_str(&value(name, v)),
            (true, None, Some(f)) => out.push_str(f),
            _ => {
                out.push('{');
                out.push_str(inner);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

pub struct Catalogue {
    prefilter: AhoCorasick,
    /// For each literal (by pattern id), the signature it belongs to.
    owner: Vec<usize>,
    /// Each signature's pattern, compiled the first time a line is a candidate for it: a log
    /// names few of them, and compiling them all would cost more than reading most logs.
    regexes: Vec<OnceLock<Regex>>,
}

/// The compiled catalogue (built once per process).
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut literals = Vec::new();
        let mut owner = Vec::new();
        for (i, s) in all().iter().enumerate() {
            for l in s.literals {
                literals.push(*l);
                owner.push(i);
            }
        }
        Catalogue {
            // A full DFA: the fastest search kind, and small for a few hundred literals.
            prefilter: AhoCorasick::builder()
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                .build(&literals)
                .expect("catalogue literals compile"),
            owner,
            regexes: all().iter().map(|_| OnceLock::new()).collect(),
        }
    })
}

/// Longest evidence line kept; longer lines are cut around the match, with ellipses.
const MAX_LINE: usize = 400;
/// How much of a long line is kept before the match.
const LEAD: usize = 60;

impl Catalogue {
    /// Signature `i`'s pattern.
    fn regex(&self, i: usize) -> &Regex {
        self.regexes[i]
            .get_or_init(|| Regex::new(all()[i].pattern).expect("catalogue patterns compile"))
    }

    /// True when some signature's literal occurs in the line (the cheap first stage).
    pub fn is_candidate(&self, line: impl AsRef<[u8]>) -> bool {
        self.prefilter.is_match(line.as_ref())
    }

    /// Byte offsets in `haystack` (many lines at once) where some signature's literal starts:
    /// the lines holding them are the only candidates. One pass of the automaton over a block is
    /// much cheaper than one search per line.
    pub fn candidate_offsets<'a>(&'a self, haystack: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        self.prefilter.find_iter(haystack).map(|m| m.start())
    }

    /// Every signature that matches this line (usually none or one), in catalogue order.
    pub fn match_line(&self, line: &str, line_no: usize) -> Vec<Match> {
        if !self.prefilter.is_match(line) {
            return Vec::new();
        }
        let mut candidates: Vec<usize> = self
            .prefilter
            .find_overlapping_iter(line)
            .map(|m| self.owner[m.pattern().as_usize()])
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut out = Vec::new();
        let mut redacted: Option<String> = None;
        for i in candidates {
            if all()[i].unless.iter().any(|u| line.contains(u)) {
                continue;
            }
            let regex = self.regex(i);
            let Some(caps) = regex.captures(line) else {
                continue;
            };
            let mut fields: BTreeMap<String, String> = regex
                .capture_names()
                .flatten()
                .filter_map(|n| {
                    caps.name(n)
                        .map(|m| (n.to_string(), redact(m.as_str()).into_owned()))
                })
                .collect();
            derive_fields(&mut fields);
            let red = redacted.get_or_insert_with(|| redact(line).into_owned());
            // Where the match is in the redacted line (redaction may have shifted it): the
            // signature's literal is its anchor; optional leading groups may start much earlier.
            let at = all()[i]
                .literals
                .iter()
                .filter_map(|l| red.find(l))
                .min()
                .or_else(|| regex.find(red).map(|m| m.start()))
                .unwrap_or(0);
            out.push(Match {
                signature: all()[i],
                line_no,
                line: shorten(red, at),
                fields,
            });
        }
        out
    }

    /// Every match in a text, in line order.
    ///
    /// One prefilter pass over the whole text finds the candidate lines; only those are split
    /// out and matched, so a long log with few problems costs one Aho-Corasick scan.
    pub fn scan(&self, text: &str) -> Vec<Match> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut line_no = 0; // newlines before `counted`
        let mut counted = 0;
        let mut last_start = None;
        for offset in self.candidate_offsets(bytes) {
            let start = bytes[..offset]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if last_start == Some(start) {
                continue;
            }
            last_start = Some(start);
            line_no += bytes[counted..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            counted = start;
            let end = bytes[offset..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |i| offset + i);
            let line = text[start..end]
                .strip_suffix('\r')
                .unwrap_or(&text[start..end]);
            out.extend(self.match_line(line, line_no + 1));
        }
        out
    }
}

/// The matches of one line that count, for reports that want one fact per line: drops matches
/// another match on the line supersedes, then keeps one match per category (the one that
/// extracted the most, the earlier in the catalogue on a tie). Order is kept.
pub fn prune_line(matches: Vec<Match>) -> Vec<Match> {
    if matches.len() < 2 {
        return matches;
    }
    let superseded = |m: &Match| {
        matches.iter().any(|o| {
            o.signature.id != m.signature.id && o.signature.supersedes.contains(&m.signature.id)
        })
    };
    let kept: Vec<&Match> = matches.iter().filter(|m| !superseded(m)).collect();
    let index = |m: &Match| {
        all()
            .iter()
            .position(|s| s.id == m.signature.id)
            .unwrap_or(usize::MAX)
    };
    let best: Vec<&Match> = kept
        .iter()
        .copied()
        .filter(|m| {
            !kept.iter().any(|o| {
                o.signature.id != m.signature.id
                    && o.signature.category == m.signature.category
                    && (o.fields.len() > m.fields.len()
                        || (o.fields.len() == m.fields.len() && index(o) < index(m)))
            })
        })
        .collect();
    let ids: Vec<&str> = best.iter().map(|m| m.signature.id).collect();
    let mut out: Vec<Match> = Vec::with_capacity(ids.len());
    for m in matches {
        if ids.contains(&m.signature.id) && !out.iter().any(|o| o.signature.id == m.signature.id) {
            out.push(m);
        }
    }
    out
}

/// The line made printable (control characters shown as `�`, so a pasted log cannot drive the
/// terminal) and cut to `MAX_LINE` characters around byte offset `at`.
fn shorten(line: &str, at: usize) -> String {
    let line = line.trim_end();
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_control() && c != '\t' {
                    '\u{fffd}'
                } else {
                    c
                }
            })
            .collect()
    };
    let total = line.chars().count();
    if total <= MAX_LINE {
        return clean(line);
    }
    let at = at.min(line.len());
    let at_char = line.char_indices().take_while(|(i, _)| *i < at).count();
    let mut start = at_char
        .saturating_sub(LEAD)
        .min(total.saturating_sub(MAX_LINE));
    if start < LEAD {
        // cutting so little off the front is not worth an ellipsis
        start = 0;
    }
    let cut: String = line.chars().skip(start).take(MAX_LINE).collect();
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(&clean(&cut));
    if start + MAX_LINE < total {
        out.push('…');
    }
    out
}

pub fn by_id(id: &str) -> Option<&'static Signature> {
    all().iter().copied().find(|s| s.id == id)
}

#[cfg(test)]
mod tests;

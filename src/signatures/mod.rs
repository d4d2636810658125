//! The log signature catalogue: one place, data-like, shared by `doctor`, `logs --highlight` and
//! `triage`. Matching is a literal prefilter (Aho-Corasick over every signature's literals) and then
//! the signature's regex on candidate lines only, so cost stays flat as the catalogue grows.

mod catalogue;
pub mod described;
mod kubernetes;
mod operators;
pub mod redact;
pub mod words;

use crate::finding::{Category, Severity};
use crate::flink::permissions::{Component, Mode};
use crate::flink::rbac_fix::{self, Known, Need, Workload};
use aho_corasick::AhoCorasick;
use regex::Regex;
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
    /// A one-line title, with `{field}` / `{field|fallback}` placeholders.
    pub title: &'static str,
    /// One line a person reads: what this means.
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
    /// (`flink::rbac_fix`); everything else fills the signature's templates.
    pub fn remedy(&self, fields: &BTreeMap<String, String>) -> (String, String) {
        let rbac = matches!(
            self.category,
            Category::RbacForbidden | Category::DefaultServiceAccount
        );
        let field = |k: &str| fields.get(k).map(String::as_str);
        if let (true, Some(ns), Some(sa), Some(verb), Some(resource)) = (
            rbac,
            field("namespace"),
            field("sa"),
            field("verb"),
            field("resource"),
        ) {
            let same_namespace = field("object_namespace").is_none_or(|o| o == ns);
            if same_namespace {
                let need = Need {
                    component: Component::JobManager,
                    mode: Mode::Native,
                    ha: false,
                    refused: vec![(
                        field("group").unwrap_or("").to_string(),
                        resource.to_string(),
                        verb.to_string(),
                    )],
                    namespace: ns.to_string(),
                    service_account: sa.to_string(),
                    workload: Workload::Unknown,
                };
                let plan = rbac_fix::plan(&need, &Known::default());
                return (plan.commands(), plan.verify());
            }
        }
        (fill(self.fix, fields), fill(self.verify, fields))
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
            (true, Some(v), _) => out.push_str(v),
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
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    #[test]
    fn ids_unique_patterns_compile_and_explains_resolve() {
        let mut ids = BTreeSet::new();
        for s in all() {
            assert!(ids.insert(s.id), "duplicate signature {}", s.id);
            assert!(
                s.id.starts_with("SIG-")
                    && s.id
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
                "bad id {}",
                s.id
            );
            assert!(!s.literals.is_empty(), "{} has no literal", s.id);
            Regex::new(s.pattern).unwrap();
            for e in s.explains.iter().chain(s.supersedes) {
                assert!(by_id(e).is_some(), "{} refers to unknown {e}", s.id);
                assert_ne!(*e, s.id, "{} refers to itself", s.id);
            }
            assert!(
                !s.title.is_empty() && !s.explanation.is_empty() && !s.fix.is_empty(),
                "{} lacks text",
                s.id
            );
        }
        assert_eq!(catalogue().regexes.len(), all().len());
    }

    #[test]
    fn explains_graph_has_no_cycle() {
        let graph: HashMap<&str, &[&str]> = all().iter().map(|s| (s.id, s.explains)).collect();
        fn visit<'a>(n: &'a str, g: &HashMap<&'a str, &'a [&'a str]>, path: &mut Vec<&'a str>) {
            assert!(!path.contains(&n), "cycle in explains: {path:?} -> {n}");
            path.push(n);
            for next in g.get(n).copied().unwrap_or(&[]) {
                visit(next, g, path);
            }
            path.pop();
        }
        for s in all() {
            visit(s.id, &graph, &mut Vec::new());
        }
    }

    /// Every signature says where its text comes from: a public source file at a version, or
    /// `observed:` with what was seen.
    #[test]
    fn every_signature_cites_its_sources() {
        let cited = Regex::new(r"^[\w.-]+/[\w.-]+@[\w.+-]+:\S+$").unwrap();
        for s in all() {
            assert!(!s.sources.is_empty(), "{} cites no source", s.id);
            for src in s.sources {
                assert!(
                    cited.is_match(src)
                        || src
                            .strip_prefix("observed:")
                            .is_some_and(|w| !w.trim().is_empty()),
                    "{}: source {src:?} is neither owner/repo@version:path nor observed:<what>",
                    s.id
                );
            }
        }
    }

    /// The prefilter must stay cheap: no literal so short or so common that most lines of a
    /// healthy log become candidates.
    #[test]
    fn literals_are_specific() {
        for s in all() {
            for l in s.literals {
                assert!(
                    l.chars().count() >= 8,
                    "{}: literal {l:?} is too short to be specific",
                    s.id
                );
                for common in [
                    "Exception",
                    "ERROR",
                    "error",
                    "failed",
                    "Failed",
                    "INFO",
                    "WARN",
                    "Caused by",
                ] {
                    assert_ne!(*l, common, "{}: literal {l:?} is too common", s.id);
                }
            }
        }
    }

    /// The literal of a signature must occur in its own pattern's matches, or the regex would
    /// never see lines it could match: every example contains one of the literals.
    #[test]
    fn every_signature_has_examples_that_it_matches_and_that_contain_a_literal() {
        for s in all() {
            assert!(!s.examples.is_empty(), "{} has no example line", s.id);
            for e in s.examples {
                assert!(
                    s.literals.iter().any(|l| e.contains(l)),
                    "{}: example contains none of its literals: {e}",
                    s.id
                );
                let ms = catalogue().match_line(e, 1);
                assert!(
                    ms.iter().any(|m| m.signature.id == s.id),
                    "{} does not match its example: {e}\nmatched: {:?}",
                    s.id,
                    ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
                );
            }
        }
    }

    /// Examples of one signature match other signatures only where that is intended: the other
    /// is in the same category, is superseded by (or supersedes) it, or one explains the other
    /// (a line that carries both a cause and its effect), or it is listed here.
    #[test]
    fn examples_do_not_cross_match_unexpectedly() {
        const ALSO: &[(&str, &str)] = &[
            // a 403 message embedded in fabric8's websocket / exec / status wrappers
            ("SIG-FABRIC8-WEBSOCKET-403", "SIG-K8S-FORBIDDEN"),
            ("SIG-FABRIC8-WEBSOCKET-403", "SIG-K8S-FORBIDDEN-DEFAULT-SA"),
            ("SIG-FABRIC8-EXEC-403", "SIG-K8S-FORBIDDEN"),
            ("SIG-FABRIC8-STATUS-403", "SIG-K8S-FORBIDDEN"),
            ("SIG-FABRIC8-FORBIDDEN-CONFIGURED", "SIG-K8S-FORBIDDEN"),
            (
                "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
                "SIG-K8S-FORBIDDEN-OPERATOR",
            ),
            ("SIG-FABRIC8-WEBSOCKET-403", "SIG-FABRIC8-STATUS-403"),
            // a worker killed by its limit is both "worker terminated" and "OOMKilled"
            ("SIG-TM-WORKER-OOMKILLED", "SIG-K8S-OOMKILLED"),
            ("SIG-TM-WORKER-OOMKILLED", "SIG-TM-WORKER-TERMINATED"),
            // hadoop-aws wraps the S3 403 in an AccessDeniedException on the same line
            ("SIG-ACCESS-DENIED-EXCEPTION", "SIG-S3-ACCESS-DENIED"),
            // a kubelet "Failed to pull image" event is also the generic pull failure
            ("SIG-IMAGE-PULL-DENIED", "SIG-IMAGE-PULL"),
            ("SIG-IMAGE-NOT-FOUND", "SIG-IMAGE-PULL"),
            ("SIG-IMAGE-PULL-X509", "SIG-IMAGE-PULL"),
        ];
        let related = |a: &Signature, b: &Signature| {
            a.category == b.category
                || a.supersedes.contains(&b.id)
                || b.supersedes.contains(&a.id)
                || a.explains.contains(&b.id)
                || b.explains.contains(&a.id)
                || ALSO
                    .iter()
                    .any(|(x, y)| (*x == a.id && *y == b.id) || (*x == b.id && *y == a.id))
        };
        let mut bad = Vec::new();
        for s in all() {
            for e in s.examples {
                for m in catalogue().match_line(e, 1) {
                    if m.signature.id != s.id && !related(s, m.signature) {
                        bad.push(format!(
                            "{} example also matches {}: {e}",
                            s.id, m.signature.id
                        ));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn fill_takes_fields_fallbacks_and_leaves_the_rest() {
        let f: BTreeMap<String, String> = [
            ("verb".into(), "watch".into()),
            ("group".into(), String::new()),
        ]
        .into();
        assert_eq!(
            fill(
                "{verb} {resource|pods} {group}|{.status} {Upper} {missing}",
                &f
            ),
            "watch pods |{.status} {Upper} {missing}"
        );
        assert_eq!(fill("unclosed {verb", &f), "unclosed {verb");
        // values are not re-expanded
        let g: BTreeMap<String, String> =
            [("a".into(), "{b}".into()), ("b".into(), "x".into())].into();
        assert_eq!(fill("{a}", &g), "{b}");
    }

    #[test]
    fn long_lines_are_cut_around_the_match_and_control_characters_neutralised() {
        let line = format!("{}pods is forbidden: User \"system:serviceaccount:ns:flink\" cannot watch resource \"pods\"{}", "x".repeat(5000), "y".repeat(5000));
        let m = &catalogue().match_line(&line, 7)[0];
        assert!(m.line.contains("is forbidden"), "{}", m.line);
        assert!(m.line.starts_with('…') && m.line.ends_with('…'));
        assert!(m.line.chars().count() <= MAX_LINE + 2);
        let esc = "\u{1b}[31mFATAL: Thread 'main' produced an uncaught exception. Stopping the process...\u{7}";
        let m = &catalogue().match_line(esc, 1)[0];
        assert!(
            !m.line.contains('\u{1b}') && !m.line.contains('\u{7}'),
            "{:?}",
            m.line
        );
    }

    #[test]
    fn rbac_fields_and_fix_name_exactly_the_verb_and_resource() {
        let line = r#"Failure executing: GET at: https://10.96.0.1/apis/apps/v1/namespaces/prod/deployments/orders. Message: deployments.apps "orders" is forbidden: User "system:serviceaccount:prod:flink" cannot get resource "deployments" in API group "apps" in the namespace "prod"."#;
        let m = catalogue()
            .match_line(line, 1)
            .into_iter()
            .find(|m| m.signature.id == "SIG-K8S-FORBIDDEN")
            .unwrap();
        for (k, v) in [
            ("namespace", "prod"),
            ("sa", "flink"),
            ("verb", "get"),
            ("resource", "deployments"),
            ("group", "apps"),
            ("object_namespace", "prod"),
            ("resource_kind", "deployments.apps"),
            ("object", "orders"),
        ] {
            assert_eq!(m.field(k), Some(v), "{k}");
        }
        let fix = m.fix();
        assert!(
            fix.contains("resources: [\"deployments\"]\n    verbs: [\"get\"]"),
            "{fix}"
        );
        assert!(
            fix.contains("  - kind: ServiceAccount\n    name: flink\n    namespace: prod"),
            "{fix}"
        );
        assert!(
            !fix.contains("kind: ServiceAccount\nmetadata"),
            "flink runs already: {fix}"
        );
        assert!(m.verify().contains("kubectl auth can-i get deployments.apps -n prod --as=system:serviceaccount:prod:flink"), "{}", m.verify());
    }

    #[test]
    fn filesystem_fix_names_the_plugin_for_the_scheme() {
        for (scheme, plugin) in [
            ("s3", "flink-s3-fs-hadoop"),
            ("s3a", "flink-s3-fs-hadoop"),
            ("s3p", "flink-s3-fs-presto"),
            ("gs", "flink-gs-fs-hadoop"),
            ("abfss", "flink-azure-fs-hadoop"),
            ("wasb", "flink-azure-fs-hadoop"),
            ("oss", "flink-oss-fs-hadoop"),
        ] {
            let line = format!("org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme '{scheme}'. The scheme is directly supported by Flink through the following plugin(s): {plugin}. Please ensure that each plugin resides within its own subfolder within the plugins directory.");
            let m = &catalogue().match_line(&line, 1)[0];
            assert_eq!(m.field("scheme"), Some(scheme));
            let fix = m.fix();
            assert!(
                fix.contains(&format!(
                    "ENABLE_BUILT_IN_PLUGINS={plugin}-<flink-version>.jar"
                )),
                "{scheme}: {fix}"
            );
        }
        let m = &catalogue().match_line("Could not find a file system implementation for scheme 'hdfs'. The scheme is not directly supported by Flink and no Hadoop file system to support this scheme could be loaded.", 1)[0];
        assert!(m.fix().contains("HADOOP_CLASSPATH"), "{}", m.fix());
        // with the Flink version known (triage reads it from the log banner)
        let mut f = m.fields.clone();
        f.insert("scheme".into(), "s3".into());
        f.insert("flink_version".into(), "1.20.1".into());
        derive_fields(&mut f);
        assert!(fill(m.signature.fix, &f)
            .contains("ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-1.20.1.jar"));
    }

    #[test]
    fn worker_terminated_extracts_exit_code_and_reason() {
        let line = "Worker flink-taskmanager-1-3 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)";
        let ms = prune_line(catalogue().match_line(line, 1));
        assert_eq!(
            ms.len(),
            1,
            "{:?}",
            ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
        );
        assert_eq!(ms[0].signature.id, "SIG-TM-WORKER-OOMKILLED");
        assert_eq!(ms[0].field("exit_code"), Some("137"));
        assert_eq!(ms[0].field("reason"), Some("OOMKilled"));
        assert_eq!(ms[0].field("tm"), Some("flink-taskmanager-1-3"));
        let line = line.replace(
            "exitCode=137, reason=OOMKilled",
            "exitCode=239, reason=Error",
        );
        let ms = prune_line(catalogue().match_line(&line, 1));
        assert_eq!(
            ms.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
            ["SIG-TM-WORKER-TERMINATED"]
        );
        assert_eq!(ms[0].field("exit_code"), Some("239"));
        assert_eq!(ms[0].field("reason"), Some("Error"));
        assert!(ms[0]
            .field("exit_meaning")
            .unwrap()
            .contains("FatalExitExceptionHandler"));
    }

    #[test]
    fn webhook_fields_name_the_webhook_and_its_service() {
        let line = r#"Error from server (InternalError): error when creating "basic.yaml": Internal error occurred: failed calling webhook "validationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink-operator.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority"#;
        let ms = prune_line(catalogue().match_line(line, 1));
        assert_eq!(ms.len(), 1);
        assert_eq!(ms[0].signature.id, "SIG-WEBHOOK-X509");
        assert_eq!(
            ms[0].field("webhook"),
            Some("validationwebhook.flink.apache.org")
        );
        assert_eq!(
            ms[0].field("service"),
            Some("flink-operator-webhook-service")
        );
        assert_eq!(ms[0].field("service_namespace"), Some("flink-operator"));
        let line = r#"Internal error occurred: failed calling webhook "mutationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink.svc:443/mutate?timeout=10s": no endpoints available for service "flink-operator-webhook-service""#;
        let ms = prune_line(catalogue().match_line(line, 1));
        assert_eq!(ms[0].signature.id, "SIG-WEBHOOK-UNREACHABLE");
        assert_eq!(
            ms[0].field("service"),
            Some("flink-operator-webhook-service")
        );
    }

    /// Fields from the message forms the sources print (see each signature's `sources`).
    #[test]
    fn fields_come_from_the_printed_forms() {
        let field = |line: &str, id: &str, name: &str| -> Option<String> {
            catalogue()
                .match_line(line, 1)
                .into_iter()
                .find(|m| m.signature.id == id)
                .unwrap_or_else(|| panic!("{id} does not match {line}"))
                .field(name)
                .map(str::to_string)
        };
        // Checkpoints: the max-parallelism message names no path, only "Checkpoint Metadata"
        let l = "java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint Checkpoint Metadata. Max parallelism mismatch between checkpoint/savepoint state and new program.";
        assert_eq!(field(l, "SIG-SAVEPOINT-STATE-UNMAPPED", "path"), None);
        let l = "java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint s3://b/chk-7. Cannot map checkpoint/savepoint state for operator 77fec41789154996bfa76055dea29472 to the new program";
        assert_eq!(
            field(l, "SIG-SAVEPOINT-STATE-UNMAPPED", "path").as_deref(),
            Some("s3://b/chk-7")
        );
        // Flink >= 1.17 names the TaskManager after the address
        let l = "Lost connection to task manager '/10.244.1.17:6121 [ orders-taskmanager-1-2 ] '. This indicates that the remote task manager was lost.";
        assert_eq!(
            field(l, "SIG-TM-CONNECTION-LOST", "tm").as_deref(),
            Some("orders-taskmanager-1-2")
        );
        // the scheduler's pod-count reason
        let l = "0/2 nodes are available: 2 Too many pods.";
        assert_eq!(
            field(l, "SIG-SCHED-INSUFFICIENT", "resource").as_deref(),
            Some("pods")
        );
        // LimitRange, old capitalised form with its final period
        let l = "Maximum memory usage per Container is 2Gi.  No limit is specified.";
        assert_eq!(field(l, "SIG-LIMITRANGE", "value").as_deref(), Some("2Gi"));
        // JDK 16+ direct memory message gets the direct-memory advice
        let m = catalogue()
            .match_line("java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 1, limit: 2)", 1)
            .into_iter()
            .find(|m| m.signature.id == "SIG-JVM-OOM")
            .unwrap();
        assert!(m.fix().contains("off-heap"), "{}", m.fix());
        // the fabric8 5.x watch refusal without a Status body
        let l = "Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&allowWatchBookmarks=true&watch=true. Message: Forbidden.";
        assert_eq!(
            field(l, "SIG-FABRIC8-EXEC-403", "namespace").as_deref(),
            Some("analytics")
        );
    }

    #[test]
    fn host_and_jar_and_class_are_extracted() {
        let m = &catalogue().match_line("Could not resolve ResourceManager address pekko.tcp://flink@orders-jobmanager:6123/user/rpc/resourcemanager_*, retrying in 10000 ms: Could not connect to rpc endpoint under address pekko.tcp://flink@orders-jobmanager:6123/user/rpc/resourcemanager_*.", 1)[0];
        assert_eq!(m.field("host"), Some("orders-jobmanager"));
        let m = &catalogue().match_line("Caused by: java.io.IOException: JAR file does not exist '/opt/flink/usrlib/orders.jar'", 1)[0];
        assert_eq!(m.field("jar"), Some("/opt/flink/usrlib/orders.jar"));
        let m = &catalogue().match_line("org.apache.flink.client.program.ProgramInvocationException: The program's entry point class 'com.acme.Orders' was not found in the jar file.", 1)[0];
        assert_eq!(m.field("class"), Some("com.acme.Orders"));
    }

    #[test]
    fn healthy_lines_match_nothing() {
        let healthy = [
            "2026-11-28 09:39:11,511 INFO  org.apache.flink.core.fs.FileSystem [] - Hadoop is not in the classpath/dependencies. The extended set of supported File Systems via Hadoop is not available.",
            "2026-11-28 09:39:11,600 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Terminating cluster entrypoint process StandaloneApplicationClusterEntryPoint with exit code 0.",
            "2026-11-28 09:39:12,001 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Completed checkpoint 42 for job 5b61d6019ab04da71a4e62533c1a8c40 (12345 bytes, checkpointDuration=120 ms, finalizationTime=2 ms).",
            "2026-11-28 09:39:12,002 INFO  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Registering task executor orders-taskmanager-1-1 under 9d1 at the slot manager.",
            "2026-11-28 09:39:12,003 INFO  org.apache.flink.kubernetes.operator.reconciler.deployment.AbstractFlinkResourceReconciler [] - [prod/orders] Resource fully reconciled, nothing to do...",
            "    allowNonRestoredState: false",
            "  execution.savepoint.ignore-unclaimed-state: false",
            "2026-11-28 09:39:12,004 WARN  org.apache.flink.runtime.taskmanager.Task [] - Source: kafka (1/2) switched from RUNNING to FAILED with failure cause: java.lang.RuntimeException: boom",
            "    Reason:       Completed",
            "    Exit Code:    0",
            "  Normal  Pulled     12s   kubelet  Successfully pulled image \"flink:1.20\" in 1.2s",
        ];
        for h in healthy {
            let ms = catalogue().match_line(h, 1);
            assert!(
                ms.is_empty(),
                "{h} matched {:?}",
                ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn prune_keeps_the_precise_match() {
        let line = r#"Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User "system:serviceaccount:prod:flink" cannot watch resource "pods" in API group "" in the namespace "prod"."#;
        let all = catalogue().match_line(line, 1);
        assert!(all.len() >= 2);
        let kept = prune_line(all);
        assert_eq!(
            kept.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
            ["SIG-K8S-FORBIDDEN"]
        );
        let line = line.replace("prod:flink", "flink-operator:flink-operator");
        let kept = prune_line(catalogue().match_line(&line, 1));
        assert_eq!(
            kept.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
            ["SIG-K8S-FORBIDDEN-OPERATOR"]
        );
    }

    #[test]
    fn scan_finds_what_matching_every_line_finds() {
        let mut text = String::new();
        for (i, sig) in all().iter().enumerate() {
            text.push_str(&format!(
                "2026-11-28 09:39:{:02},118 INFO  ordinary line {i}\r\n",
                i % 60
            ));
            for e in sig.examples {
                text.push_str(e);
                text.push('\n');
            }
        }
        let c = catalogue();
        let slow: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| c.match_line(l, i + 1))
            .map(|m| (m.line_no, m.signature.id))
            .collect();
        let fast: Vec<(usize, &str)> = c
            .scan(&text)
            .into_iter()
            .map(|m| (m.line_no, m.signature.id))
            .collect();
        assert!(!fast.is_empty());
        assert_eq!(fast, slow);
    }
}

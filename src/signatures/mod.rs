//! The log signature catalogue: one place, data-like, shared by `doctor`, `logs --highlight` and
//! `triage`. Matching is a literal prefilter (Aho-Corasick over every signature's literals) and then
//! the signature's regex on candidate lines only, so cost stays flat as the catalogue grows.

mod catalogue;
pub mod redact;

use crate::finding::{Category, Severity};
use aho_corasick::AhoCorasick;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub use catalogue::SIGNATURES;
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
    /// One line a person reads: what this means.
    pub explanation: &'static str,
    /// The fix, with `{field}` placeholders filled from the extracted fields.
    pub fix: &'static str,
    /// Signatures whose lines this one explains when both appear in one text (cause -> effect).
    pub explains: &'static [&'static str],
}

/// A line that matched a signature.
#[derive(Debug, Clone)]
pub struct Match {
    pub signature: &'static Signature,
    /// 1-based line number in the scanned text.
    pub line_no: usize,
    /// The line, redacted and trimmed to a readable length.
    pub line: String,
    pub fields: BTreeMap<String, String>,
}

impl Match {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
    /// The signature's fix with this match's fields filled in.
    pub fn fix(&self) -> String {
        fill(self.signature.fix, &self.fields)
    }
}

/// Fills `{name}` placeholders; unknown names are left as they are.
pub fn fill(template: &str, fields: &BTreeMap<String, String>) -> String {
    let mut out = template.to_string();
    for (k, v) in fields {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

pub struct Catalogue {
    prefilter: AhoCorasick,
    /// For each literal (by pattern id), the signature it belongs to.
    owner: Vec<usize>,
    regexes: Vec<Regex>,
}

/// The compiled catalogue (built once per process).
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut literals = Vec::new();
        let mut owner = Vec::new();
        for (i, s) in SIGNATURES.iter().enumerate() {
            for l in s.literals {
                literals.push(*l);
                owner.push(i);
            }
        }
        Catalogue {
            prefilter: AhoCorasick::new(&literals).expect("catalogue literals compile"),
            owner,
            regexes: SIGNATURES
                .iter()
                .map(|s| Regex::new(s.pattern).expect("catalogue patterns compile"))
                .collect(),
        }
    })
}

/// Longest evidence line kept; longer lines are cut with an ellipsis.
const MAX_LINE: usize = 400;

impl Catalogue {
    /// Every signature that matches this line (usually none or one), in catalogue order.
    pub fn match_line(&self, line: &str, line_no: usize) -> Vec<Match> {
        let mut candidates: Vec<usize> = self
            .prefilter
            .find_overlapping_iter(line)
            .map(|m| self.owner[m.pattern().as_usize()])
            .collect();
        if candidates.is_empty() {
            return Vec::new();
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut out = Vec::new();
        for i in candidates {
            let Some(caps) = self.regexes[i].captures(line) else {
                continue;
            };
            let fields = self.regexes[i]
                .capture_names()
                .flatten()
                .filter_map(|n| caps.name(n).map(|m| (n.to_string(), m.as_str().to_string())))
                .collect();
            out.push(Match {
                signature: &SIGNATURES[i],
                line_no,
                line: shorten(&redact(line)),
                fields,
            });
        }
        out
    }

    /// Every match in a text, in line order.
    pub fn scan(&self, text: &str) -> Vec<Match> {
        text.lines()
            .enumerate()
            .flat_map(|(i, line)| self.match_line(line, i + 1))
            .collect()
    }
}

fn shorten(line: &str) -> String {
    let line = line.trim_end();
    if line.chars().count() <= MAX_LINE {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX_LINE).collect();
    format!("{cut}…")
}

pub fn by_id(id: &str) -> Option<&'static Signature> {
    SIGNATURES.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_unique_patterns_compile_and_explains_resolve() {
        let mut ids = std::collections::BTreeSet::new();
        for s in SIGNATURES {
            assert!(ids.insert(s.id), "duplicate signature {}", s.id);
            assert!(!s.literals.is_empty(), "{} has no literal", s.id);
            Regex::new(s.pattern).unwrap();
            for e in s.explains {
                assert!(by_id(e).is_some(), "{} explains unknown {e}", s.id);
            }
        }
        assert!(!catalogue().regexes.is_empty());
    }

}

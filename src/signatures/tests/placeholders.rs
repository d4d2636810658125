//! Every `{field}` a signature's printed text (title, explanation, fix, verify) names without a
//! `|fallback` is a field every match of its pattern fills: `fill` leaves a missing one as it is,
//! and a person reads `kubectl get pod {pod}`. Checked on the pattern's structure, not only on the
//! examples: an example shows one way through the pattern, and a group that is optional or in
//! one branch of an alternation is missing on another way that no example takes.
//!
//! The ways through a pattern are read from its syntax tree with `regex_syntax`, the parser
//! `regex` compiles with, already a dependency of this crate (`signatures::described` extracts
//! literals with it), so no second reading of the regex syntax can disagree with the engine's
//! (an escaped `\?`, a class `[?]`, `{0,3}`, a non-capturing group). A way is the set of named
//! groups that take part in a match together: under `?`, `*` or `{0,n}` a group is in some ways
//! and not in others, in an alternation only in its branch's ways. Matching the examples alone
//! would find only the groups an example happens to leave out.
//!
//! A field is sure when `derive_fields`, given each way's groups, makes it on every way: on the
//! examples' values, and on values the group's pattern takes that examples seldom show (an empty
//! alternative spelling `host_2`, which `derive_fields` skips; a scheme no plugin serves). So the
//! fields derived from groups (`kubectl_resource`, `config_fix`, ...) are read from
//! `derive_fields` itself, not from a copy of its rules.
//!
//! Two more ways a placeholder goes wrong are reported with these: a fallback that holds a `{`
//! (`{key| ({key} is not set)}`: fill does not nest, so the title printed `({key is not set)}`),
//! and a field that no match of the signature, of its category (the reader folds one category's
//! lines into one finding) or the reader's context ever fills, whose fallback then always prints:
//! a text copied from another signature (`grep -F {key|memory}` verifying an HA storage path).
//!
//! Not modelled: `derive_fields` drops a value that reads `null` (a printing site's absent
//! value); a group whose value could be the word `null` is taken as filled.

use super::*;
use regex_syntax::hir::{Hir, HirKind};

/// The printed texts of a signature that are filled from a match, by name.
fn texts(s: &Signature) -> [(&'static str, &'static str); 4] {
    [
        ("title", s.title),
        ("explanation", s.explanation),
        ("fix", s.fix),
        ("verify", s.verify),
    ]
}

/// The placeholders in a template as `fill` reads them: `(name, its fallback)`. Braces around
/// anything but a field name (a jsonpath `{.status}`, `{Upper}`) are not placeholders.
fn placeholders(template: &str) -> Vec<(&str, Option<&str>)> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            break;
        };
        let inner = &after[..close];
        let (name, fallback) = match inner.split_once('|') {
            Some((n, f)) => (n, Some(f)),
            None => (inner, None),
        };
        if !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            out.push((name, fallback));
        }
        rest = &after[close + 1..];
    }
    out
}

/// Past this many ways through one pattern the catalogue wants splitting, not this test.
const MAX_WAYS: usize = 4096;

/// The sets of named groups that take part in a match together, one per way through `hir`: a
/// group under `?`, `*` or `{0,n}` is in some ways and not in others, a group in one branch of
/// an alternation only in that branch's ways.
fn ways(hir: &Hir) -> Vec<BTreeSet<String>> {
    let product = |a: Vec<BTreeSet<String>>, b: Vec<BTreeSet<String>>| {
        let mut out: Vec<BTreeSet<String>> = Vec::new();
        for x in &a {
            for y in &b {
                let u: BTreeSet<String> = x.union(y).cloned().collect();
                if !out.contains(&u) {
                    out.push(u);
                }
            }
        }
        assert!(
            out.len() <= MAX_WAYS,
            "more than {MAX_WAYS} ways through a pattern"
        );
        out
    };
    match hir.kind() {
        HirKind::Capture(c) => {
            let mut out = ways(&c.sub);
            if let Some(name) = c.name.as_deref() {
                for w in &mut out {
                    w.insert(name.to_string());
                }
            }
            out
        }
        HirKind::Concat(parts) => parts.iter().map(ways).fold(vec![BTreeSet::new()], product),
        HirKind::Alternation(branches) => {
            let mut out: Vec<BTreeSet<String>> = Vec::new();
            for w in branches.iter().flat_map(ways) {
                if !out.contains(&w) {
                    out.push(w);
                }
            }
            out
        }
        HirKind::Repetition(r) => {
            let mut out = ways(&r.sub);
            if r.min == 0 && !out.contains(&BTreeSet::new()) {
                out.push(BTreeSet::new());
            }
            out
        }
        _ => vec![BTreeSet::new()],
    }
}

/// Every named group of `hir` with the pattern of its value.
fn groups(hir: &Hir, out: &mut BTreeMap<String, Hir>) {
    match hir.kind() {
        HirKind::Capture(c) => {
            if let Some(name) = c.name.as_deref() {
                out.insert(name.to_string(), (*c.sub).clone());
            }
            groups(&c.sub, out);
        }
        HirKind::Concat(hs) | HirKind::Alternation(hs) => hs.iter().for_each(|h| groups(h, out)),
        HirKind::Repetition(r) => groups(&r.sub, out),
        _ => {}
    }
}

/// One short text `hir` matches (its first branch, its fewest repetitions, the first character
/// of a class): a value for a group no example fills.
fn sample(hir: &Hir) -> String {
    match hir.kind() {
        HirKind::Literal(l) => String::from_utf8_lossy(&l.0).into_owned(),
        HirKind::Class(regex_syntax::hir::Class::Unicode(c)) => c
            .ranges()
            .first()
            .map_or(String::new(), |r| r.start().to_string()),
        HirKind::Class(regex_syntax::hir::Class::Bytes(c)) => c
            .ranges()
            .first()
            .map_or(String::new(), |r| char::from(r.start()).to_string()),
        HirKind::Capture(c) => sample(&c.sub),
        HirKind::Concat(hs) => hs.iter().map(sample).collect(),
        HirKind::Alternation(hs) => hs.first().map(sample).unwrap_or_default(),
        HirKind::Repetition(r) => sample(&r.sub).repeat(r.min as usize),
        HirKind::Empty | HirKind::Look(_) => String::new(),
    }
}

/// Values a group may hold that examples seldom show, tried wherever the group's pattern allows
/// them: nothing at all (an alternative spelling `derive_fields` then skips), and a word no table
/// knows (a scheme without a plugin).
const UNUSUAL: &[&str] = &["", "x"];

/// What a signature's matches fill: `sure` on every match, `possible` on some.
#[derive(Debug, Default)]
struct Reach {
    sure: BTreeSet<String>,
    possible: BTreeSet<String>,
}

fn reach(s: &Signature) -> Reach {
    let hir = regex_syntax::parse(s.pattern).expect("catalogue patterns parse");
    let mut patterns = BTreeMap::new();
    groups(&hir, &mut patterns);
    let regex = Regex::new(s.pattern).expect("catalogue patterns compile");
    // The values each group held in the examples, and one its pattern takes when none did.
    let mut seen: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for e in s.examples {
        if let Some(caps) = regex.captures(e) {
            for name in regex.capture_names().flatten() {
                if let Some(m) = caps.name(name) {
                    seen.entry(name).or_default().push(m.as_str().to_string());
                }
            }
        }
    }
    let whole: BTreeMap<&str, Regex> = patterns
        .iter()
        .map(|(g, sub)| {
            let r = Regex::new(&format!("^(?:{sub})$")).expect("a group's pattern");
            (g.as_str(), r)
        })
        .collect();
    // Ways to choose a value for each group: each example's value (or the sample), and each
    // unusual value wherever the group's pattern takes it.
    let value = |g: &str, choice: usize| -> String {
        let examples = seen.get(g).map(Vec::as_slice).unwrap_or_default();
        if choice < UNUSUAL.len() && whole[g].is_match(UNUSUAL[choice]) {
            return UNUSUAL[choice].to_string();
        }
        let i = choice.saturating_sub(UNUSUAL.len());
        examples
            .get(i)
            .or(examples.first())
            .cloned()
            .unwrap_or_else(|| sample(&patterns[g]))
    };
    let choices = UNUSUAL.len() + s.examples.len().max(1);
    let fields = |way: &BTreeSet<String>, choice: usize| {
        let mut f: BTreeMap<String, String> =
            way.iter().map(|g| (g.clone(), value(g, choice))).collect();
        derive_fields(&mut f);
        f.into_keys().collect::<BTreeSet<String>>()
    };
    let mut sure: Option<BTreeSet<String>> = None;
    let mut possible: BTreeSet<String> = BTreeSet::new();
    for way in ways(&hir) {
        for choice in 0..choices {
            let keys = fields(&way, choice);
            possible.extend(keys.iter().cloned());
            sure = Some(match sure {
                None => keys,
                Some(s) => s.intersection(&keys).cloned().collect(),
            });
        }
    }
    Reach {
        sure: sure.unwrap_or_default(),
        possible,
    }
}

/// What the reader of a snapshot or a pasted text knows besides the line and adds to a match's
/// fields (`Match::knowing` in the fatal-exit rule, `reader`'s described pod and log banner).
const CONTEXT: &[&str] = &[
    "namespace",
    "pod_namespace",
    "pod",
    "container",
    "sa",
    "flink_version",
];

/// The fields matches may fill: of any signature, and by category (the reader folds the lines
/// of one category into one finding, whose fields are all of theirs), each with the context.
struct Known {
    anywhere: BTreeSet<String>,
    by_category: BTreeMap<&'static str, BTreeSet<String>>,
}

fn known() -> Known {
    let context: BTreeSet<String> = CONTEXT.iter().map(|c| c.to_string()).collect();
    let mut by_category: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    for s in all() {
        by_category
            .entry(s.category.id())
            .or_insert_with(|| context.clone())
            .extend(reach(s).possible);
    }
    Known {
        anywhere: by_category.values().flatten().cloned().collect(),
        by_category,
    }
}

/// The placeholders of a signature a match may leave as they are, or that only ever print their
/// fallback, as a person fixing the catalogue reads them.
fn unfilled(s: &Signature, known: &Known) -> Vec<String> {
    let reach = reach(s);
    let mut around = reach.possible.clone();
    around.extend(CONTEXT.iter().map(|c| c.to_string()));
    around.extend(
        known
            .by_category
            .get(s.category.id())
            .into_iter()
            .flatten()
            .cloned(),
    );
    let mut out = Vec::new();
    for (text, template) in texts(s) {
        for (name, fallback) in placeholders(template) {
            let why = if fallback.is_some_and(|f| f.contains('{')) {
                "its fallback holds a `{`: fill does not nest, the placeholder ends at the first `}` and the rest is printed as it is"
            } else if !known.anywhere.contains(name) && !reach.possible.contains(name) {
                "no signature's pattern or derive_fields ever fills this (a typo?)"
            } else if !around.contains(name) {
                "no match of this signature or of its category fills it, nor the reader's context: it always prints its fallback, or itself (a text written for another signature?)"
            } else if fallback.is_some() || reach.sure.contains(name) {
                continue;
            } else if reach.possible.contains(name) {
                "some matches do not fill it (an optional group, one branch of an alternation, or derived from one), and it has no `|fallback`"
            } else {
                "this pattern never fills it (only another line of its category or the reader's context may), and it has no `|fallback`"
            };
            out.push(format!("{} {text}: {{{name}}}: {why}", s.id));
        }
    }
    out
}

/// A regex for a placeholder left in a filled text (a jsonpath `{.status}` is not one), whole
/// or cut off by a `{` in its fallback (`({key is not set)}`, `({path)}`); a YAML flow mapping
/// (`[{name: regcred}]`) is not one either.
fn left_over() -> Regex {
    Regex::new(r"\{[a-z_][a-z0-9_]*(\|[^}]*)?\}|\{[a-z_][a-z0-9_]*[^a-z0-9_|}:]").unwrap()
}

/// A `}` no `{` opened, or a `{` never closed: what a placeholder whose fallback held another
/// leaves behind when its field is there (`itstate.savepoints.dir is not set)}`).
fn unbalanced(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return true,
            '}' => depth -= 1,
            _ => {}
        }
    }
    depth != 0
}

#[test]
fn every_placeholder_is_filled_by_every_match_or_has_a_fallback() {
    let known = known();
    let bad: Vec<String> = all().iter().flat_map(|s| unfilled(s, &known)).collect();
    assert!(
        bad.is_empty(),
        "{} placeholders:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A signature's explanation is printed as it is written wherever no match's fields are at hand
/// (`explain`'s "why", `logs --highlight`'s hint, the rules that quote the signature beside their
/// own finding: fatal exit, crash loop, resource status, state snapshot, FlinkCluster submitter),
/// so it names no field; the title and the fix name them.
#[test]
fn explanations_name_no_field() {
    let bad: Vec<String> = all()
        .iter()
        .filter(|s| !placeholders(s.explanation).is_empty())
        .map(|s| format!("{}: {}", s.id, s.explanation))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every printed text filled from the match on each of a signature's own examples (the fix and
/// verify as `remedy` writes them, RBAC plans included) leaves no placeholder.
#[test]
fn texts_filled_from_their_examples_leave_no_placeholder() {
    let placeholder = left_over();
    let mut bad = Vec::new();
    for s in all() {
        for e in s.examples {
            for m in catalogue().match_line(e, 1) {
                if m.signature.id != s.id {
                    continue;
                }
                let (fix, verify) = s.remedy(&m.fields);
                for (text, filled) in [
                    ("title", m.title()),
                    ("explanation", fill(s.explanation, &m.fields)),
                    ("fix", fix),
                    ("verify", verify),
                ] {
                    if placeholder.is_match(&filled) || unbalanced(&filled) {
                        bad.push(format!("{} {text}: `{filled}` from `{e}`", s.id));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The checker reads placeholders as `fill` does: each one it finds is the one `fill` replaces.
#[test]
fn placeholders_are_read_as_fill_reads_them() {
    for s in all() {
        for (_, template) in texts(s) {
            let found = placeholders(template);
            let fields: BTreeMap<String, String> = found
                .iter()
                .map(|(n, _)| (n.to_string(), "\u{1}".to_string()))
                .collect();
            let filled = fill(template, &fields);
            assert_eq!(
                filled.matches('\u{1}').count(),
                found.len(),
                "{}: {template}",
                s.id
            );
            assert!(!left_over().is_match(&filled), "{}: {filled}", s.id);
        }
    }
    assert_eq!(
        placeholders("{a} {b|<b>} {.status} {Upper} {c"),
        [("a", None), ("b", Some("<b>"))]
    );
}

/// A signature as someone might write it, to try the checker on.
fn broken(
    pattern: &'static str,
    fix: &'static str,
    examples: &'static [&'static str],
) -> Signature {
    Signature {
        id: "SIG-BROKEN",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["Failed"],
        pattern,
        title: "a broken copy",
        explanation: "to try the checker on",
        fix,
        verify: "kubectl get pods",
        explains: &[],
        supersedes: &[],
        examples,
        unless: &[],
        sources: &[],
    }
}

#[test]
fn the_checker_finds_what_a_match_may_leave_unfilled() {
    let known = known();
    let flagged = |pattern, fix, examples| {
        let s = broken(pattern, fix, examples);
        unfilled(&s, &known)
    };
    // An optional group: the example fills it, a line without the bucket does not.
    const OPTIONAL: &str = r"Failed to write (?P<path>\S+)(?: to bucket (?P<bucket>\S+))?";
    const WRITE: &[&str] = &["Failed to write chk-1 to bucket b"];
    let bad = flagged(OPTIONAL, "gsutil ls gs://{bucket}/{path}", WRITE);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("{bucket}: some matches"), "{bad:?}");
    assert!(flagged(OPTIONAL, "gsutil ls gs://{bucket|<bucket>}/{path}", WRITE).is_empty());
    // `*` and `{0,2}` are optional too; `+` and `{1,}` are not.
    for (pattern, sure) in [
        (r"Failed(?: (?P<path>\S+))*", false),
        (r"Failed(?: (?P<path>\S+)){0,2}", false),
        (r"Failed(?: (?P<path>\S+))+", true),
        (r"Failed(?: (?P<path>\S+)){1,}", true),
        // an escaped `?` and a class holding one make nothing optional
        (r"Failed\? (?P<path>[?\S]+)", true),
    ] {
        assert_eq!(
            flagged(pattern, "ls {path}", &["Failed? a b"]).is_empty(),
            sure,
            "{pattern}"
        );
    }
    // One branch of an alternation: the other branch leaves it out.
    const BRANCHES: &str = r"Failed to read (?P<path>\S+)|Failed: bucket (?P<bucket>\S+)";
    let bad = flagged(BRANCHES, "ls {path}", &["Failed to read p"]);
    assert_eq!(bad.len(), 1, "{bad:?}");
    // ... unless every branch fills it, as itself or as an alternative spelling.
    const SPELLINGS: &str = r"Failed to read (?P<path>\S+)|Failed: file (?P<path_2>\S+)";
    assert!(flagged(SPELLINGS, "ls {path}", &["Failed to read p"]).is_empty());
    // An alternative spelling that may be empty is skipped by `derive_fields`.
    const EMPTY: &str = r"Failed to read (?P<path>\S+)|Failed: file '(?P<path_2>[^']*)'";
    assert_eq!(flagged(EMPTY, "ls {path}", &["Failed to read p"]).len(), 1);
    // Derived fields: from a sure group, sure; from an optional one, not.
    const RBAC: &str = r#"Failed: cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)""#;
    const GET: &[&str] = &[r#"Failed: cannot get resource "pods""#];
    assert!(flagged(RBAC, "kubectl auth can-i {verb} {kubectl_resource}", GET).is_empty());
    const MAYBE: &str = r#"Failed: cannot (?P<verb>[a-z]+)(?: resource "(?P<resource>[^"]+)")?"#;
    assert_eq!(
        flagged(MAYBE, "can-i {verb} {kubectl_resource}", GET).len(),
        1
    );
    // ... made on every branch (`config_fix` from a key or a unit): sure.
    const KEY_OR_UNIT: &str = r"Failed: key '(?P<key>[^']*)'|Failed: unit '(?P<unit>[^']*)'";
    assert!(flagged(KEY_OR_UNIT, "{config_fix}", &["Failed: key 'a'"]).is_empty());
    // ... made from some values only: the plugin of a scheme the examples name is no plugin for
    // every scheme the group takes.
    const SCHEME: &str = r"Failed: no file system for scheme '(?P<scheme>[^']+)'";
    const S3: &[&str] = &["Failed: no file system for scheme 's3'"];
    assert_eq!(flagged(SCHEME, "enable {plugin}", S3).len(), 1);
    assert!(flagged(SCHEME, "enable {plugin|the plugin}", S3).is_empty());
    // A fallback that holds a placeholder: fill does not nest.
    let bad = flagged(OPTIONAL, "ls {path}{bucket| in {bucket}}", WRITE);
    assert!(
        bad.len() == 1 && bad[0].contains("does not nest"),
        "{bad:?}"
    );
    assert!(unbalanced("ls chk-1b}") && unbalanced("ls {bucket") && !unbalanced("{.a}{.b}"));
    assert!(left_over().is_match("ls chk-1 ({bucket is not set)}"));
    assert!(left_over().is_match("ls chk-1 ({bucket)}"));
    assert!(!left_over().is_match("jsonpath='{.status}' {\"a\": 1} [{name: regcred}]"));
    // A name nothing fills, with or without a fallback: a typo.
    let bad = flagged(OPTIONAL, "gsutil ls {bukcet|<bucket>}", WRITE);
    assert!(bad.len() == 1 && bad[0].contains("a typo"), "{bad:?}");
    // A field the pattern never fills (another line's of its category, or the reader's context).
    let bad = flagged(OPTIONAL, "kubectl logs {pod}", WRITE);
    assert!(bad.len() == 1 && bad[0].contains("never fills"), "{bad:?}");
    // A field of another category's signatures: the text was written for one of them.
    let bad = flagged(OPTIONAL, "kubectl auth can-i {verb|watch} pods", WRITE);
    assert!(
        bad.len() == 1 && bad[0].contains("another signature"),
        "{bad:?}"
    );
}

//! Ranking: one pure function from unordered findings to a Report.
//!
//! 1. Fold the same finding over many objects (same rule, deployment and title) into one with a count.
//! 2. Link causes to symptoms: a finding whose rule is in another's `explains`, in the same Flink
//!    deployment, sharing a link key (container, ServiceAccount) when both have keys. An
//!    install-layer cause that belongs to no deployment (the operator, its webhooks, CRDs) serves
//!    every namespace, so it may explain symptoms in any group (link keys still have to match).
//!    A generic outcome (a symptom category: the process died, the container restarts) is
//!    explained by any specific finding of the same deployment that shares a link key with it, or
//!    that has none (the operator's status of the deployment): the specific cause wins, and a
//!    generic outcome never explains a specific finding.
//!    When several findings could explain a symptom, the best cause is the most specific, then the
//!    earliest layer, then the worst severity (`cause_preference`).
//! 3. Order root causes: severity first (critical, warning, info), then layer (taxonomy order)
//!    within a severity, then evidence strength (a specific cause before a generic outcome), then
//!    a stable tie-break; each cause is followed by the symptoms it explains, in the same order.
//!    What the tool itself could not read (`inspect_forbidden`) comes after every other root
//!    cause: it hides nothing the report shows, and the problems found come first.

use crate::finding::{Category, Finding, Layer, ObjectRef, Severity};
use crate::rules::meta_of;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A finished diagnosis: findings in rank order (each cause followed by its symptoms).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: u32,
    pub findings: Vec<Finding>,
}

pub const REPORT_VERSION: u32 = 1;

pub fn rank(findings: Vec<Finding>) -> Report {
    rank_by(findings, stable_order)
}

/// `rank` for findings read from one text (triage): there a generic outcome (a fatal exit, a
/// restart loop, TaskManagers gone) never comes before a specific finding, whatever their
/// severities, since the specific one is what the text says went wrong.
pub fn rank_one_text(findings: Vec<Finding>) -> Report {
    rank_by(findings, |a, b| {
        generic(a).cmp(&generic(b)).then_with(|| stable_order(a, b))
    })
}

fn rank_by(mut findings: Vec<Finding>, order_by: fn(&Finding, &Finding) -> Ordering) -> Report {
    // A caller may link findings itself before ranking (triage links causes inside one
    // text): its `caused_by` names the ids the findings came in with, so follow them to the
    // final ids.
    let mut renamed: HashMap<String, String> = HashMap::new();
    for f in &mut findings {
        let id = identity(f);
        if !f.id.is_empty() {
            renamed.insert(std::mem::take(&mut f.id), id.clone());
        }
        f.id = id;
    }
    for f in &mut findings {
        if let Some(new) = f.caused_by.as_ref().and_then(|c| renamed.get(c)) {
            f.caused_by = Some(new.clone());
        }
    }
    Report {
        version: REPORT_VERSION,
        findings: rank_core(findings, order_by)
            .into_iter()
            .map(
                |Folded {
                     mut item,
                     extra,
                     also,
                 }| {
                    item.count += extra;
                    item.also.extend(also);
                    item
                },
            )
            .collect(),
    }
}

/// Ranking proper, over whole findings (`rank`) or a `Collector`'s members alike: the findings
/// folded, linked and in report order, each with what was folded into it.
fn rank_core<T: Rankable>(
    mut findings: Vec<T>,
    order_by: impl Fn(&T, &T) -> Ordering,
) -> Vec<Folded<T>> {
    // Linking and folding walk the findings in causal order (the best cause first); the report
    // is then sorted for reading.
    sort_in_place(&mut findings, cause_preference);
    findings.dedup_by(|a, b| a.id() == b.id());
    link(&mut findings);
    let mut findings = fold_repeats(findings);
    sort_in_place(&mut findings, |a, b| order_by(&a.item, &b.item));
    order(findings)
}

/// What ranking reads and writes of a finding: a whole `Finding`, or a `Collector`'s `Member`,
/// which shares with the other findings of its group all but its object's name, id, links and
/// (when ranking needs them) evidence.
trait Rankable {
    fn rule(&self) -> &'static str;
    fn category(&self) -> Category;
    fn layer(&self) -> Layer;
    fn severity(&self) -> Severity;
    fn title(&self) -> &str;
    fn deployment(&self) -> Option<&ObjectRef>;
    /// The object as `ObjectRef` orders and compares it: kind, namespace, name.
    fn object(&self) -> (&str, Option<&str>, &str);
    fn into_object(self) -> ObjectRef;
    fn evidence(&self) -> &[String];
    fn id(&self) -> &str;
    fn links(&self) -> &[String];
    fn links_mut(&mut self) -> &mut Vec<String>;
    fn caused_by(&self) -> Option<&str>;
    fn set_caused_by(&mut self, cause: Option<String>);
}

impl Rankable for Finding {
    fn rule(&self) -> &'static str {
        self.rule
    }
    fn category(&self) -> Category {
        self.category
    }
    fn layer(&self) -> Layer {
        self.layer
    }
    fn severity(&self) -> Severity {
        self.severity
    }
    fn title(&self) -> &str {
        &self.title
    }
    fn deployment(&self) -> Option<&ObjectRef> {
        self.deployment.as_ref()
    }
    fn object(&self) -> (&str, Option<&str>, &str) {
        let o = &self.object;
        (&o.kind, o.namespace.as_deref(), &o.name)
    }
    fn into_object(self) -> ObjectRef {
        self.object
    }
    fn evidence(&self) -> &[String] {
        &self.evidence
    }
    fn id(&self) -> &str {
        &self.id
    }
    fn links(&self) -> &[String] {
        &self.links
    }
    fn links_mut(&mut self) -> &mut Vec<String> {
        &mut self.links
    }
    fn caused_by(&self) -> Option<&str> {
        self.caused_by.as_deref()
    }
    fn set_caused_by(&mut self, cause: Option<String>) {
        self.caused_by = cause;
    }
}

/// What a `Collector`'s findings of one group share: everything ranking reads but the object's
/// name, the id, the links and the evidence. Kept once per group, not once per finding (at
/// 100,000 failing pods, the title, deployment, kind and namespace repeated in every finding were
/// about 400 bytes of each).
#[derive(PartialEq, Eq, Hash)]
struct GroupKey {
    rule: &'static str,
    category: Category,
    layer: Layer,
    severity: Severity,
    title: String,
    deployment: Option<ObjectRef>,
    kind: String,
    namespace: Option<String>,
}

/// One finding in a `Collector`: its group's key and what it has of its own.
struct Member {
    key: Arc<GroupKey>,
    name: String,
    id: String,
    /// Empty but for findings of one rule on one object, which their evidence orders.
    evidence: Vec<String>,
    links: Vec<String>,
    caused_by: Option<String>,
}

impl Member {
    /// The finding it was, without what the collector did not keep (fix, verify and, for most,
    /// evidence), with what ranking folded into it.
    fn into_finding(self, extra: usize, also: Vec<ObjectRef>) -> Finding {
        let k = &*self.key;
        Finding {
            id: self.id,
            rule: k.rule,
            category: k.category,
            severity: k.severity,
            layer: k.layer,
            title: k.title.clone(),
            object: ObjectRef {
                kind: k.kind.clone(),
                namespace: k.namespace.clone(),
                name: self.name,
            },
            deployment: k.deployment.clone(),
            evidence: self.evidence,
            fix: String::new(),
            verify: String::new(),
            caused_by: self.caused_by,
            count: 1 + extra,
            also,
            links: self.links,
        }
    }
}

impl Rankable for Member {
    fn rule(&self) -> &'static str {
        self.key.rule
    }
    fn category(&self) -> Category {
        self.key.category
    }
    fn layer(&self) -> Layer {
        self.key.layer
    }
    fn severity(&self) -> Severity {
        self.key.severity
    }
    fn title(&self) -> &str {
        &self.key.title
    }
    fn deployment(&self) -> Option<&ObjectRef> {
        self.key.deployment.as_ref()
    }
    fn object(&self) -> (&str, Option<&str>, &str) {
        (&self.key.kind, self.key.namespace.as_deref(), &self.name)
    }
    fn into_object(self) -> ObjectRef {
        ObjectRef {
            kind: self.key.kind.clone(),
            namespace: self.key.namespace.clone(),
            name: self.name,
        }
    }
    fn evidence(&self) -> &[String] {
        &self.evidence
    }
    fn id(&self) -> &str {
        &self.id
    }
    fn links(&self) -> &[String] {
        &self.links
    }
    fn links_mut(&mut self) -> &mut Vec<String> {
        &mut self.links
    }
    fn caused_by(&self) -> Option<&str> {
        self.caused_by.as_deref()
    }
    fn set_caused_by(&mut self, cause: Option<String>) {
        self.caused_by = cause;
    }
}

/// A finding after folding: how many more it stands for, and their objects.
struct Folded<T> {
    item: T,
    extra: usize,
    also: Vec<ObjectRef>,
}

/// `slice::sort_by` (stable), in the room of an index per finding: the standard sort's buffer holds
/// half the findings moved (a `Finding` is 370 bytes), which at 100,000 failing pods was where the
/// whole diagnosis peaked. The order of the indices is found first, then the findings are moved
/// into it along the permutation's cycles.
fn sort_in_place<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| cmp(&v[a], &v[b]));
    // Place `i` takes the element at `order[i]`; a place done points at itself.
    for start in 0..v.len() {
        let mut at = start;
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// What a finding says beyond what ranking reads: its fix, its verify command and its evidence
/// lines (which ranking reads only to order findings of one rule on one object).
struct Payload {
    evidence: Vec<String>,
    fix: String,
    verify: String,
}

impl Payload {
    /// Without the room its text was built in (a fix written line by line holds up to twice
    /// its length), as a `Collector` keeps it until the report is made.
    fn shrunk(mut self) -> Self {
        self.evidence.iter_mut().for_each(String::shrink_to_fit);
        self.evidence.shrink_to_fit();
        self.fix.shrink_to_fit();
        self.verify.shrink_to_fit();
        self
    }

    fn fill(self, f: &mut Finding) {
        f.evidence = self.evidence;
        f.fix = self.fix;
        f.verify = self.verify;
    }
}

/// The findings of one diagnosis on their way to `rank`, handed over one at a time as the rules
/// make them (`rules::run_ranked`), holding of each only what ranking reads (rule, category,
/// severity, title, object, deployment, links, id), and that in groups: the findings of one rule,
/// deployment, title, object kind, namespace and severity, which nothing but their object's name,
/// evidence and links tell apart, share one `GroupKey`, and each keeps only its `Member` (name,
/// id, links). What a finding says beyond that (evidence, fix, verify, about 2 KB) is kept for
/// the first finding of its group only. A group is what `rank` folds into one finding with a
/// count, and its first finding (in `cause_preference` order) is the one the report shows:
/// 100,000 pods failing alike cost a name, an id and a link each, not 100,000 whole findings.
///
/// `finish` ranks them exactly as `rank` ranks the whole findings (the same `rank_core`). A
/// group that ranking splits (its findings explained by different causes) shows findings whose
/// payload was not kept: their rule runs again and gives them (`again`).
#[derive(Default)]
pub struct Collector {
    members: Vec<Member>,
    /// The groups by their key: indexes into `firsts`.
    groups: HashMap<Arc<GroupKey>, usize>,
    /// Per group, its first finding so far (an index into `members`) and that finding's payload.
    firsts: Vec<(usize, Payload)>,
    /// The batch (`begin`) that gave each rule's findings.
    batch_of: HashMap<&'static str, usize>,
    /// Where each batch starts in `members`.
    starts: Vec<usize>,
    /// The findings of this batch by rule and object (`object_hash`).
    seen: HashMap<u64, u32>,
    /// Per batch, the rules and objects (`object_hash`) it gave two findings or more: `rank`
    /// orders those by their evidence (`tie_break`), which `finish` gives them back.
    shared: HashMap<usize, HashSet<u64>>,
    /// Findings of one rule came in two batches, so their evidence may order findings of two
    /// batches; or a finding came with what only `rank` sets (a cause, a count): `finish` then
    /// ranks whole findings.
    mixed: bool,
}

/// Whether a finding that `rank` would show is `c` (the same finding, made again): what ranking
/// kept of it matches.
fn same_finding(shown: &Finding, c: &Finding) -> bool {
    shown.id == c.id
        && shown.deployment == c.deployment
        && shown.category == c.category
        && shown.layer == c.layer
        && shown.severity == c.severity
        && (shown.evidence.is_empty() || shown.evidence == c.evidence)
}

/// `same_finding` against a kept first finding of a group, by its key and evidence (the id
/// matched already).
fn same_as_kept(shown: &Finding, key: &GroupKey, evidence: &[String]) -> bool {
    shown.deployment == key.deployment
        && shown.category == key.category
        && shown.layer == key.layer
        && shown.severity == key.severity
        && (shown.evidence.is_empty() || shown.evidence == evidence)
}

fn object_hash(f: &Finding) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (f.rule, &f.object).hash(&mut h);
    h.finish()
}

impl Collector {
    /// The findings of one rule follow (one batch per rule, as `rules::RULES` runs them).
    pub fn begin(&mut self) {
        self.starts.push(self.members.len());
        self.seen.clear();
    }

    /// A batch of findings, whole.
    pub fn add(&mut self, batch: Vec<Finding>) {
        self.begin();
        batch.into_iter().for_each(|f| self.add_one(f));
    }

    /// One finding of the current batch (`begin`).
    pub fn add_one(&mut self, mut f: Finding) {
        let batch_no = self.starts.len().saturating_sub(1);
        if *self.batch_of.entry(f.rule).or_insert(batch_no) != batch_no {
            self.mixed = true;
        }
        // Rules leave these to `rank`; a finding that comes with them is ranked whole.
        if f.caused_by.is_some() || f.count != 1 || !f.also.is_empty() {
            self.mixed = true;
        }
        f.id = identity(&f);
        // Any other finding is ordered by its rule, deployment or object before its evidence is
        // looked at; findings of one rule on one object get their evidence back in `finish`.
        let on_object = object_hash(&f);
        let n = self.seen.entry(on_object).or_default();
        *n += 1;
        if *n == 2 {
            self.shared.entry(batch_no).or_default().insert(on_object);
        }
        let Finding {
            id,
            rule,
            category,
            severity,
            layer,
            title,
            object:
                ObjectRef {
                    kind,
                    namespace,
                    name,
                },
            deployment,
            evidence,
            fix,
            verify,
            links,
            ..
        } = f;
        let payload = Payload {
            evidence,
            fix,
            verify,
        };
        // Kept for the whole run, one per finding: without the room their text was built in.
        let mut links = links;
        links.iter_mut().for_each(String::shrink_to_fit);
        links.shrink_to_fit();
        let key = GroupKey {
            rule,
            category,
            layer,
            severity,
            title,
            deployment,
            kind,
            namespace,
        };
        let at = self.members.len();
        let key = match self.groups.get_key_value(&key) {
            Some((key, &g)) => {
                let (first, kept) = &self.firsts[g];
                let l = &self.members[*first];
                // `cause_preference` within a group: all but the object's name, the evidence
                // and the id are the same, so the name, then the evidence, then the id.
                let earlier = name
                    .cmp(&l.name)
                    .then_with(|| payload.evidence.cmp(&kept.evidence))
                    .then_with(|| id.cmp(&l.id))
                    == Ordering::Less;
                if earlier {
                    self.firsts[g] = (at, payload.shrunk());
                }
                key.clone()
            }
            None => {
                let mut key = key;
                key.title.shrink_to_fit();
                let key = Arc::new(key);
                self.groups.insert(key.clone(), self.firsts.len());
                self.firsts.push((at, payload.shrunk()));
                key
            }
        };
        self.members.push(Member {
            key,
            name,
            id,
            evidence: Vec::new(),
            links,
            caused_by: None,
        });
    }

    /// The report `rank` makes of every finding added. `again(n)` gives the `n`th batch again,
    /// as it was added, for the findings shown whose payload was not kept.
    pub fn finish(self, again: impl Fn(usize) -> Vec<Finding>) -> Report {
        let batches = self.starts.len();
        let whole = || rank((0..batches).flat_map(&again).collect());
        if self.mixed {
            return whole();
        }
        let Collector {
            mut members,
            firsts,
            batch_of,
            starts,
            shared,
            ..
        } = self;
        // Findings of one rule on one object: their evidence back, made again by their rule.
        for (b, objects) in shared {
            let end = starts.get(b + 1).copied().unwrap_or(members.len());
            let made = again(b);
            if made.len() != end - starts[b] {
                return whole();
            }
            for (m, c) in members[starts[b]..end].iter_mut().zip(made) {
                if identity(&c) != m.id {
                    return whole();
                }
                if objects.contains(&object_hash(&c)) {
                    m.evidence = c.evidence;
                }
            }
        }
        // The kept payloads by id, with the key and evidence of their finding to tell apart two
        // findings of one id.
        type Kept = (Arc<GroupKey>, Vec<String>, Payload);
        let mut kept: HashMap<String, Vec<Kept>> = HashMap::new();
        for (at, payload) in firsts {
            let m = &members[at];
            kept.entry(m.id.clone()).or_default().push((
                m.key.clone(),
                m.evidence.clone(),
                payload,
            ));
        }
        // Grown by doubling while the rules ran: the unused room would be held through ranking.
        members.shrink_to_fit();
        let mut report = Report {
            version: REPORT_VERSION,
            findings: rank_core(members, stable_order)
                .into_iter()
                .map(|f| f.item.into_finding(f.extra, f.also))
                .collect(),
        };
        let mut missing: Vec<usize> = Vec::new();
        for (i, f) in report.findings.iter_mut().enumerate() {
            let found = kept.get_mut(&f.id).and_then(|list| {
                let at = list
                    .iter()
                    .position(|(key, evidence, _)| same_as_kept(f, key, evidence))?;
                Some(list.remove(at).2)
            });
            match found {
                Some(p) => p.fill(f),
                None => missing.push(i),
            }
        }
        if missing.is_empty() {
            return report;
        }
        // A split group: its other findings are made again, and each shown one takes its own.
        let wanted: HashSet<String> = missing
            .iter()
            .map(|&i| report.findings[i].id.clone())
            .collect();
        let mut rerun: Vec<usize> = missing
            .iter()
            .filter_map(|&i| batch_of.get(report.findings[i].rule).copied())
            .collect();
        rerun.sort_unstable();
        rerun.dedup();
        // By id, so that a group split into many findings is matched in linear time.
        let mut made: HashMap<String, Vec<Finding>> = HashMap::new();
        for b in rerun {
            for mut c in again(b) {
                c.id = identity(&c);
                if wanted.contains(&c.id) {
                    made.entry(c.id.clone()).or_default().push(c);
                }
            }
        }
        for i in missing {
            let f = &mut report.findings[i];
            let Some((list, at)) = made.get_mut(&f.id).and_then(|list| {
                let at = list.iter().position(|c| same_finding(f, c))?;
                Some((list, at))
            }) else {
                // Not made again alike (no rule does that): rank the whole findings instead.
                return whole();
            };
            let c = list.remove(at);
            Payload {
                evidence: c.evidence,
                fix: c.fix,
                verify: c.verify,
            }
            .fill(f);
        }
        report
    }
}

fn identity(f: &Finding) -> String {
    let o = &f.object;
    let ns = o.namespace.as_deref().unwrap_or("-");
    // Sized exactly (a `Collector` keeps one per finding): the parts, three slashes and `#` with
    // the eight digits of the hash.
    let mut id = String::with_capacity(f.rule.len() + o.kind.len() + ns.len() + o.name.len() + 12);
    for (i, part) in [f.rule, o.kind.as_str(), ns, o.name.as_str()]
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            id.push('/');
        }
        id.push_str(part);
    }
    // A rule may report several things on one object (two containers, two verbs).
    if let Some(first) = f.evidence.first() {
        id.push('#');
        id.push_str(&short_hash(&format!("{}{first}", f.title)));
    }
    id
}

fn short_hash(s: &str) -> String {
    // FNV-1a: stable across runs and platforms (std's hasher is not).
    let mut h: u32 = 0x811c9dc5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x01000193);
    }
    format!("{h:08x}")
}

/// The report's order: access gaps last, then severity, layer, evidence strength, tie-breaks.
fn stable_order<T: Rankable>(a: &T, b: &T) -> Ordering {
    access_gap(a)
        .cmp(&access_gap(b))
        .then(a.severity().cmp(&b.severity()))
        .then(a.layer().cmp(&b.layer()))
        .then(generic(a).cmp(&generic(b)))
        .then_with(|| tie_break(a, b))
}

/// Which of several findings that could explain a symptom is its cause: the specific before the
/// generic, the earliest layer (causal order), then the worst severity.
fn cause_preference<T: Rankable>(a: &T, b: &T) -> Ordering {
    generic(a)
        .cmp(&generic(b))
        .then(a.layer().cmp(&b.layer()))
        .then(a.severity().cmp(&b.severity()))
        .then_with(|| tie_break(a, b))
}

fn tie_break<T: Rankable>(a: &T, b: &T) -> Ordering {
    a.rule()
        .cmp(b.rule())
        .then(a.deployment().cmp(&b.deployment()))
        .then(a.object().cmp(&b.object()))
        // Then by what they show (lint's evidence starts with file:line), so the same finding in
        // two files keeps the files' order; the id's hash decides only between equals.
        .then(a.evidence().cmp(b.evidence()))
        .then(a.id().cmp(b.id()))
}

fn same_group<T: Rankable>(a: &T, b: &T) -> bool {
    match (a.deployment(), b.deployment()) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.object().1 == b.object().1,
        _ => false,
    }
}

/// The operator's installation (its Deployment, CRDs, webhooks) serves every namespace: an
/// install-layer finding that belongs to no deployment may explain symptoms in any group. Links,
/// when both sides have them, still have to match.
fn installation_wide<T: Rankable>(cause: &T) -> bool {
    cause.layer() == Layer::Install && cause.deployment().is_none()
}

/// What the person running the tool may not read: no problem of Flink's, so it ranks last.
fn access_gap<T: Rankable>(f: &T) -> bool {
    f.category() == Category::InspectForbidden
}

/// A generic outcome: the taxonomy's symptom categories (a Flink process died, a container exits 0
/// and restarts, TaskManagers went away), whatever rule reported it.
fn generic<T: Rankable>(f: &T) -> bool {
    f.category().is_symptom()
}

#[cfg(test)]
fn links_match(cause: &Finding, symptom: &Finding) -> bool {
    cause.links.is_empty()
        || symptom.links.is_empty()
        || cause.links.iter().any(|l| symptom.links.contains(l))
}

/// Whether `cause` explains `symptom` (what `link` decides for every pair, by its index).
#[cfg(test)]
fn explains(cause: &Finding, symptom: &Finding) -> bool {
    cause.id != symptom.id && explains_ignoring_links(cause, symptom) && links_match(cause, symptom)
}

/// `explains` but for the ids and the links, which the caller checks.
fn explains_ignoring_links<T: Rankable>(cause: &T, symptom: &T) -> bool {
    if !(same_group(cause, symptom) || installation_wide(cause)) {
        return false;
    }
    // The specific cause wins: a generic outcome never explains a specific finding, and any
    // specific finding of the same deployment explains a generic outcome it is linked to.
    match (generic(cause), generic(symptom)) {
        (true, false) => return false,
        (false, true) if cause.deployment().is_some() && same_group(cause, symptom) => {
            return true;
        }
        _ => {}
    }
    // A rule that reports an outcome (FLK103's exit) may name the specific cause its evidence
    // showed instead (a Java module closed, a jar missing). The rule-level relation (FLK501
    // explains FLK103's exits) is about the outcome; for the named cause only the causal order of
    // the layers holds: a finding of a later layer (a 403, identity) does not explain one of an
    // earlier layer (the image's Java refusing Flink, runtime), while a spec error (FLK101's
    // container without an image) still explains the spec refusal a status names (FLK401).
    if !generic(symptom)
        && cause.layer() > symptom.layer()
        && meta_of(symptom.rule())
            .is_some_and(|m| m.category.is_symptom() && m.category != symptom.category())
    {
        return false;
    }
    let Some(meta) = meta_of(cause.rule()) else {
        return false;
    };
    meta.explains.contains(&symptom.rule())
}

/// Sets `caused_by` on every symptom that some other finding explains. The best cause is the
/// first in `cause_preference` order (most specific, earliest layer, worst severity), which the
/// findings come in, and never one that the symptom itself explains (no cycles).
///
/// Not a scan of every pair (100,000 failing pods of one deployment took minutes that way): the
/// findings are indexed by `Shape`, and within a shape by link, so each symptom looks only at the
/// first finding of each shape it could be explained by.
fn link<T: Rankable>(findings: &mut [T]) {
    let n = findings.len();
    let shapes = Shapes::new(findings);
    let causes: Vec<Option<usize>> = (0..n).map(|s| shapes.cause_of(findings, s)).collect();
    for (s, cause) in causes.into_iter().enumerate() {
        if let Some(c) = cause {
            let id = findings[c].id().to_string();
            findings[s].set_caused_by(Some(id));
        }
    }
    // A cause that is itself explained passes its symptoms up only through `caused_by` chains;
    // resolve chains that loop back (A explains B explains A through links) by cutting the later.
    // Indices, not copies of the ids (at 100,000 findings the copies were 10 MB at the peak); a
    // cut is marked at once, so a later walk stops where an earlier one cut, as it always did.
    let mut cut = vec![false; n];
    {
        let mut position: HashMap<&str, usize> = HashMap::with_capacity(n);
        for (i, f) in findings.iter().enumerate() {
            position.entry(f.id()).or_insert(i);
        }
        let cause_of = |i: usize, cut: &[bool]| {
            if cut[i] {
                None
            } else {
                findings[i].caused_by()
            }
        };
        let mut seen: Vec<&str> = Vec::new();
        for s in 0..n {
            seen.clear();
            seen.push(findings[s].id());
            let mut cur = cause_of(s, &cut);
            while let Some(id) = cur {
                if seen.contains(&id) {
                    cut[s] = true;
                    break;
                }
                cur = position.get(id).and_then(|&i| cause_of(i, &cut));
                seen.push(id);
            }
        }
    }
    for (f, cut) in findings.iter_mut().zip(cut) {
        if cut {
            f.set_caused_by(None);
        }
    }
}

/// Everything `explains` reads of a finding but its id and links: findings of one shape explain,
/// and are explained by, the same findings, as far as their links match.
#[derive(PartialEq, Eq, Hash)]
struct ShapeKey<'a> {
    deployment: Option<&'a ObjectRef>,
    /// The namespace, for a finding of no deployment (`same_group`).
    namespace: Option<&'a str>,
    rule: &'static str,
    category: Category,
    layer: Layer,
}

impl<'a> ShapeKey<'a> {
    fn of<T: Rankable>(f: &'a T) -> Self {
        ShapeKey {
            deployment: f.deployment(),
            namespace: f.deployment().is_none().then_some(f.object().1).flatten(),
            rule: f.rule(),
            category: f.category(),
            layer: f.layer(),
        }
    }
}

/// The findings of one shape, in `cause_preference` order (ascending index).
struct Shape<'a> {
    all: Vec<usize>,
    /// Those without links, which match any symptom's.
    unlinked: Vec<usize>,
    by_link: HashMap<&'a str, Vec<usize>>,
}

struct Shapes<'a> {
    shapes: Vec<Shape<'a>>,
    /// The shapes of each group (`same_group`), by deployment or, without one, by namespace.
    by_group: HashMap<(Option<&'a ObjectRef>, Option<&'a str>), Vec<usize>>,
    /// Shapes of installation-wide findings, which may explain symptoms in any group.
    installation_wide: Vec<usize>,
}

impl<'a> Shapes<'a> {
    fn new<T: Rankable>(findings: &'a [T]) -> Self {
        let mut index: HashMap<ShapeKey<'a>, usize> = HashMap::new();
        let mut shapes: Vec<Shape<'a>> = Vec::new();
        let mut by_group: HashMap<_, Vec<usize>> = HashMap::new();
        let mut installation = Vec::new();
        for (i, f) in findings.iter().enumerate() {
            let key = ShapeKey::of(f);
            let group = (key.deployment, key.namespace);
            let k = *index.entry(key).or_insert_with(|| {
                shapes.push(Shape {
                    all: Vec::new(),
                    unlinked: Vec::new(),
                    by_link: HashMap::new(),
                });
                by_group.entry(group).or_default().push(shapes.len() - 1);
                if installation_wide(f) {
                    installation.push(shapes.len() - 1);
                }
                shapes.len() - 1
            });
            let shape = &mut shapes[k];
            shape.all.push(i);
            if f.links().is_empty() {
                shape.unlinked.push(i);
            }
            for l in f.links() {
                let at = shape.by_link.entry(l.as_str()).or_default();
                // A finding that names a link twice is listed once.
                if at.last() != Some(&i) {
                    at.push(i);
                }
            }
        }
        Shapes {
            shapes,
            by_group,
            installation_wide: installation,
        }
    }

    /// The first finding (in order) that explains `findings[s]` and that `findings[s]` does not
    /// explain: what `explains` over every pair would pick.
    fn cause_of<T: Rankable>(&self, findings: &[T], s: usize) -> Option<usize> {
        let symptom = &findings[s];
        let key = ShapeKey::of(symptom);
        let group = self
            .by_group
            .get(&(key.deployment, key.namespace))
            .map_or(&[][..], Vec::as_slice);
        let others = self.installation_wide.iter().filter(|k| !group.contains(k));
        // The first of `list` other than the symptom itself (ids are unique but for duplicates).
        let first = |list: &[usize]| {
            list.iter()
                .copied()
                .find(|&c| findings[c].id() != symptom.id())
        };
        let mut best: Option<usize> = None;
        for &k in group.iter().chain(others) {
            let shape = &self.shapes[k];
            let rep = &findings[shape.all[0]];
            // Ids and links aside, every finding of the shape explains the symptom as `rep` does;
            // and those whose links match are explained back by it exactly when `rep` is.
            if !explains_ignoring_links(rep, symptom) || explains_ignoring_links(symptom, rep) {
                continue;
            }
            let found = if symptom.links().is_empty() {
                first(&shape.all)
            } else {
                symptom
                    .links()
                    .iter()
                    .filter_map(|l| shape.by_link.get(l.as_str()))
                    .filter_map(|list| first(list))
                    .chain(first(&shape.unlinked))
                    .min()
            };
            best = match (best, found) {
                (Some(b), Some(f)) => Some(b.min(f)),
                (b, f) => b.or(f),
            };
        }
        best
    }
}

/// The same finding on many pods (same rule, deployment, title and cause) becomes one, with a
/// count and the other objects listed. Each finding finds what it folds into by its key in a map,
/// not by a scan of those kept so far (quadratic when every pod of a deployment fails alike).
fn fold_repeats<T: Rankable>(findings: Vec<T>) -> Vec<Folded<T>> {
    // Not sized for all of them: 100,000 pods failing alike fold into a handful, and the unused
    // room (a Finding is 370 bytes) was 37 MB held through ranking.
    let mut out: Vec<Folded<T>> = Vec::new();
    // The first kept finding of each key (by a hash of the key: the key's fields are compared,
    // not copied), which the others of its key fold into; and the links of a kept finding that
    // others were folded into, to add each new link once.
    let mut heads: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut links_of: HashMap<usize, HashSet<String>> = HashMap::new();
    let mut folded_into: HashMap<String, String> = HashMap::new();
    // Only the ids some finding names as its cause need to be followed (a handful of causes; not
    // the 100,000 pods folded into one).
    let named: HashSet<String> = findings
        .iter()
        .filter_map(|f| f.caused_by().map(str::to_string))
        .collect();
    for mut f in findings {
        let same_key = heads.entry(fold_hash(&f)).or_default();
        let head = same_key
            .iter()
            .copied()
            .find(|&g| same_fold_key(&out[g].item, &f));
        // A finding is kept beside others of its key only when they all are about its object, so
        // the first of them is the one to fold into, or none is.
        match head.filter(|&g| out[g].item.object() != f.object()) {
            Some(g) => {
                let g_links = links_of
                    .entry(g)
                    .or_insert_with(|| out[g].item.links().iter().cloned().collect());
                let g = &mut out[g];
                if named.contains(f.id()) {
                    folded_into.insert(f.id().to_string(), g.item.id().to_string());
                }
                g.extra += 1;
                let links = std::mem::take(f.links_mut());
                g.also.push(f.into_object());
                for l in links {
                    if g_links.insert(l.clone()) {
                        g.item.links_mut().push(l);
                    }
                }
            }
            None => {
                if head.is_none() {
                    same_key.push(out.len());
                }
                out.push(Folded {
                    item: f,
                    extra: 0,
                    also: Vec::new(),
                });
            }
        }
    }
    // Symptoms that pointed at a folded finding now point at the one it was folded into.
    for f in &mut out {
        if let Some(kept) = f.item.caused_by().and_then(|c| folded_into.get(c)) {
            let kept = kept.clone();
            f.item.set_caused_by(Some(kept));
        }
    }
    out
}

/// What `fold_repeats` folds by: rule, deployment, title, cause and object kind.
fn same_fold_key<T: Rankable>(a: &T, b: &T) -> bool {
    a.rule() == b.rule()
        && a.deployment() == b.deployment()
        && a.title() == b.title()
        && a.caused_by() == b.caused_by()
        && a.object().0 == b.object().0
}

fn fold_hash<T: Rankable>(f: &T) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (
        f.rule(),
        f.deployment(),
        f.title(),
        f.caused_by(),
        f.object().0,
    )
        .hash(&mut h);
    h.finish()
}

/// Roots in stable order, each followed depth-first by what it explains.
fn order<T: Rankable>(findings: Vec<Folded<T>>) -> Vec<Folded<T>> {
    let ids: HashSet<&str> = findings.iter().map(|f| f.item.id()).collect();
    // What each id explains, in stable order.
    let mut explained: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, f) in findings.iter().enumerate() {
        if let Some(c) = f.item.caused_by() {
            explained.entry(c).or_default().push(j);
        }
    }
    let mut placed = vec![false; findings.len()];
    let mut sequence = Vec::with_capacity(findings.len());
    fn visit<T: Rankable>(
        i: usize,
        fs: &[Folded<T>],
        explained: &HashMap<&str, Vec<usize>>,
        placed: &mut [bool],
        seq: &mut Vec<usize>,
    ) {
        if placed[i] {
            return;
        }
        placed[i] = true;
        seq.push(i);
        for &j in explained
            .get(fs[i].item.id())
            .map_or(&[][..], Vec::as_slice)
        {
            visit(j, fs, explained, placed, seq);
        }
    }
    let roots: Vec<usize> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.item.caused_by().is_none_or(|c| !ids.contains(c)))
        .map(|(i, _)| i)
        .collect();
    for r in roots {
        visit(r, &findings, &explained, &mut placed, &mut sequence);
    }
    // Anything left (a cause that was folded away) goes last, still in stable order.
    sequence.extend(
        placed
            .iter()
            .enumerate()
            .filter(|(_, done)| !**done)
            .map(|(i, _)| i),
    );
    let mut slots: Vec<Option<Folded<T>>> = findings.into_iter().map(Some).collect();
    sequence
        .into_iter()
        .filter_map(|i| slots[i].take())
        .collect()
}

/// The deployments a report speaks about, for summaries.
pub fn deployments(report: &Report) -> Vec<&ObjectRef> {
    let mut out: Vec<&ObjectRef> = report
        .findings
        .iter()
        .filter_map(|f| f.deployment.as_ref())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::bundle;
    use std::path::Path;

    fn canonical_report() -> Report {
        let s = bundle::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/canonical"
        )))
        .unwrap();
        rank(crate::rules::run_all(&s))
    }

    #[test]
    fn sort_in_place_is_the_stable_sort() {
        // Keys with many ties, so stability shows; every length up to 40, several shuffles each.
        let mut seed: u64 = 7;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for len in 0..40 {
            for _ in 0..5 {
                let v: Vec<(u64, usize)> = (0..len).map(|i| (next(4), i)).collect();
                let mut want = v.clone();
                want.sort_by_key(|a| a.0);
                let mut got = v;
                sort_in_place(&mut got, |a, b| a.0.cmp(&b.0));
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn canonical_has_two_root_causes_with_their_symptoms_folded_under_them() {
        let r = canonical_report();
        let roots: Vec<_> = r
            .findings
            .iter()
            .filter(|f| f.caused_by.is_none())
            .map(|f| f.category.id())
            .collect();
        assert_eq!(
            roots,
            ["main_container_misnamed", "rbac_forbidden"],
            "{:#?}",
            r.findings
        );
        let by_id = |id: &str| r.findings.iter().find(|f| f.id == id).unwrap();
        for f in r.findings.iter().filter(|f| f.caused_by.is_some()) {
            let cause = by_id(f.caused_by.as_deref().unwrap());
            match f.category.id() {
                "container_exit_zero_restarting" => assert_eq!(cause.rule, "FLK101"),
                "default_service_account" => assert_eq!(cause.rule, "FLK501"),
                _ => {}
            }
        }
        // Each symptom comes right after its cause (or a sibling symptom).
        for (i, f) in r.findings.iter().enumerate() {
            if let Some(c) = &f.caused_by {
                let cause_pos = r.findings.iter().position(|g| &g.id == c).unwrap();
                assert!(cause_pos < i);
            }
        }
    }

    #[test]
    fn order_is_stable_whatever_order_rules_report_in() {
        let s = bundle::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/canonical"
        )))
        .unwrap();
        let mut findings = crate::rules::run_all(&s);
        let a = rank(findings.clone());
        findings.reverse();
        let b = rank(findings);
        let ids = |r: &Report| r.findings.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
    }

    #[test]
    fn the_same_finding_on_many_pods_is_folded_with_a_count() {
        let meta = crate::rules::meta_of("FLK102").unwrap();
        let mk = |pod: &str| {
            Finding::new(
                meta,
                ObjectRef::namespaced("Pod", "prod", pod),
                "container `x` exits 0",
            )
            .deployment(Some(ObjectRef::namespaced(
                "FlinkDeployment",
                "prod",
                "orders",
            )))
            .evidence(format!("{pod}: exitCode=0"))
        };
        let r = rank(vec![mk("tm-1"), mk("tm-2"), mk("tm-3")]);
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.findings[0].count, 3);
        assert_eq!(r.findings[0].also.len(), 2);
    }

    #[test]
    fn an_installation_cause_explains_symptoms_in_any_namespace() {
        // The operator (FLK003, namespace flink-operator, no deployment) explains a
        // FlinkDeployment's missing status (FLK401) in prod.
        let op = crate::rules::meta_of("FLK003").unwrap();
        let no_status = crate::rules::meta_of("FLK401").unwrap();
        assert!(op.explains.contains(&no_status.id));
        let cause = Finding::new(
            op,
            ObjectRef::namespaced("Deployment", "flink-operator", "flink-kubernetes-operator"),
            "operator down",
        )
        .link("operator:flink-operator");
        let symptom = Finding::new(
            no_status,
            ObjectRef::namespaced("FlinkDeployment", "prod", "orders"),
            "no status",
        )
        .deployment(Some(ObjectRef::namespaced(
            "FlinkDeployment",
            "prod",
            "orders",
        )));
        let r = rank(vec![symptom.clone(), cause.clone()]);
        assert_eq!(r.findings[0].rule, "FLK003", "{:#?}", r.findings);
        assert_eq!(
            r.findings[1].caused_by.as_deref(),
            Some(r.findings[0].id.as_str())
        );

        // Links, when both sides have them, must still match: another installation's operator
        // explains nothing here.
        let other = Finding::new(
            op,
            ObjectRef::namespaced("Deployment", "ops-b", "flink-kubernetes-operator"),
            "operator down",
        )
        .link("operator:ops-b");
        let linked = symptom.clone().link("operator:flink-operator");
        let r = rank(vec![other, linked]);
        assert!(
            r.findings.iter().all(|f| f.caused_by.is_none()),
            "{:#?}",
            r.findings
        );

        // A cause bound to a deployment stays within it.
        let bound = cause.deployment(Some(ObjectRef::namespaced(
            "FlinkDeployment",
            "staging",
            "x",
        )));
        let r = rank(vec![bound, symptom]);
        assert!(r.findings.iter().all(|f| f.caused_by.is_none()));
    }

    #[test]
    fn causes_in_another_deployment_explain_nothing() {
        let cause = crate::rules::meta_of("FLK101").unwrap();
        let symptom = crate::rules::meta_of("FLK102").unwrap();
        let a = Finding::new(
            cause,
            ObjectRef::namespaced("FlinkDeployment", "prod", "a"),
            "misnamed",
        )
        .deployment(Some(ObjectRef::namespaced("FlinkDeployment", "prod", "a")))
        .link("container-name:x");
        let b = Finding::new(
            symptom,
            ObjectRef::namespaced("Pod", "prod", "b-1"),
            "exit 0",
        )
        .deployment(Some(ObjectRef::namespaced("FlinkDeployment", "prod", "b")))
        .link("container-name:x");
        let r = rank(vec![a, b]);
        assert!(r.findings.iter().all(|f| f.caused_by.is_none()));
    }

    #[test]
    fn a_cause_an_outcome_rule_named_is_explained_only_in_causal_order() {
        // FLK501 explains FLK103's exits; an exit whose log named the image's Java refusing Flink
        // (runtime) is not the 403's (identity, a later layer), as the lab's canonical-1.20 showed:
        // with the 403 fixed the JobManager still exited.
        let d = Some(ObjectRef::namespaced("FlinkDeployment", "prod", "orders"));
        let pod = ObjectRef::namespaced("Pod", "prod", "orders-1");
        let forbidden = Finding::new(crate::rules::meta_of("FLK501").unwrap(), pod.clone(), "403")
            .deployment(d.clone());
        let exit = Finding::new(
            crate::rules::meta_of("FLK103").unwrap(),
            pod.clone(),
            "exit",
        )
        .deployment(d.clone());
        let r = rank(vec![forbidden.clone(), exit.clone()]);
        let exit_of = |r: &Report| {
            r.findings
                .iter()
                .find(|f| f.rule == "FLK103")
                .cloned()
                .unwrap()
        };
        assert!(exit_of(&r).caused_by.is_some(), "{:#?}", r.findings);
        let named = crate::rules::support::containers::with_category(
            exit,
            crate::finding::Category::ImageIncompatible,
        );
        let r = rank(vec![forbidden, named.clone()]);
        assert!(exit_of(&r).caused_by.is_none(), "{:#?}", r.findings);
        // A cause of the same or an earlier layer still explains it: FLK101's container with no
        // image explains the spec refusal FLK401 read from the status (real-canonical-no-image).
        let fd = d.clone().unwrap();
        let misnamed = Finding::new(
            crate::rules::meta_of("FLK101").unwrap(),
            fd.clone(),
            "misnamed",
        )
        .deployment(d.clone());
        let refused = crate::rules::support::containers::with_category(
            Finding::new(crate::rules::meta_of("FLK401").unwrap(), fd, "refused").deployment(d),
            crate::finding::Category::PodtemplateInvalid,
        );
        let r = rank(vec![refused, misnamed]);
        let refused = r.findings.iter().find(|f| f.rule == "FLK401").unwrap();
        assert!(refused.caused_by.is_some(), "{:#?}", r.findings);
    }

    /// `link` by the pairwise definition it replaced: every finding against every other.
    fn link_pairwise(findings: &mut [Finding]) {
        let n = findings.len();
        for s in 0..n {
            let cause = (0..n)
                .filter(|&c| explains(&findings[c], &findings[s]))
                .find(|&c| !explains(&findings[s], &findings[c]));
            findings[s].caused_by = cause.map(|c| findings[c].id.clone());
        }
    }

    #[test]
    fn the_collector_ranks_as_rank_ranks_the_whole_findings() {
        use crate::finding::{Category, Severity};
        let mut seed: u64 = 0x2545f4914f6cdd1d;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        let metas: Vec<_> = crate::rules::RULES.iter().map(|r| r.meta()).collect();
        let links = ["container-name:a", "sa:ns-0/default", "operator:ns-1"];
        let (mut refilled, mut whole, mut folded) = (0, 0, 0);
        for round in 0..60 {
            // Few rules, pods, titles and evidence lines, so that findings fold, share an
            // object, an id, or a group that their causes split.
            let rules: Vec<_> = (0..4).map(|_| metas[next(metas.len())]).collect();
            // Every third round, a pod of its own for each finding: none shares its object.
            let findings: Vec<Finding> = (0..40 + 3 * round)
                .map(|i| {
                    let ns = format!("ns-{}", next(2));
                    let pod = match round % 3 {
                        0 => format!("p-{i}"),
                        _ => format!("p-{}", next(12)),
                    };
                    let mut f = Finding::new(
                        rules[next(rules.len())],
                        ObjectRef::namespaced("Pod", &ns, &pod),
                        format!("t{}", next(2)),
                    )
                    .evidence(format!("e{}", next(3)))
                    .fix(format!("fix {}", next(4)))
                    .verify(format!("verify {}", next(4)));
                    if next(2) == 0 {
                        f = f.evidence(format!("more {}", next(3)));
                    }
                    if next(4) < 3 {
                        f = f.deployment(Some(ObjectRef::namespaced(
                            "FlinkDeployment",
                            &ns,
                            &format!("d{}", next(2)),
                        )));
                    }
                    if next(5) == 0 {
                        f = f.severity(Severity::Info);
                    }
                    if next(6) == 0 {
                        f.category = [Category::FlinkFatalExit, Category::OomKilled][next(2)];
                        f.layer = f.category.layer();
                    }
                    match next(3) {
                        0 => f = f.link(links[next(links.len())]),
                        1 => f = f.link(crate::finding::link::container(&ns, &pod, "c")),
                        _ => {}
                    }
                    f
                })
                .collect();
            let expected = rank(findings.clone());
            // One batch per rule, as `rules::run_ranked` hands them; every fifth round one rule's
            // findings come in two batches.
            let mut batches: Vec<Vec<Finding>> = Vec::new();
            for r in &rules {
                let mine: Vec<Finding> = findings
                    .iter()
                    .filter(|f| f.rule == r.id)
                    .cloned()
                    .collect();
                if !mine.is_empty() && !batches.iter().any(|b| b[0].rule == r.id) {
                    batches.push(mine);
                }
            }
            if round % 5 == 4 {
                let first = &mut batches[0];
                let half = first.split_off(first.len() / 2);
                batches.push(half);
            }
            let mut c = Collector::default();
            for b in &batches {
                c.add(b.clone());
            }
            let again = std::cell::Cell::new(false);
            let got = c.finish(|n| {
                again.set(true);
                batches[n].clone()
            });
            assert_eq!(got.findings, expected.findings, "round {round}");
            if round % 5 != 4 {
                if again.get() {
                    refilled += 1;
                } else {
                    whole += 1;
                }
            }
            folded += usize::from(expected.findings.iter().any(|f| f.count > 1));
        }
        // The generator reaches both ways: every payload shown kept, and findings made again
        // (groups split by their causes, findings of one rule on one object).
        assert!(
            refilled > 3 && whole > 3,
            "{refilled} rounds refilled, {whole} not"
        );
        assert!(folded > 30, "{folded} rounds folded");
    }

    #[test]
    fn indexed_linking_picks_the_cause_the_pairwise_definition_picks() {
        use crate::finding::Category;
        // A small deterministic generator: every rule, three deployments and none, two
        // namespaces, shared and private links, and categories overridden as lint does.
        let mut seed: u64 = 0x9e3779b97f4a7c15;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        let metas: Vec<_> = crate::rules::RULES.iter().map(|r| r.meta()).collect();
        let categories = [
            Category::FlinkFatalExit,
            Category::ContainerExitZeroRestarting,
            Category::InspectForbidden,
            Category::OperatorNotRunning,
            Category::OomKilled,
        ];
        let links = [
            "container-name:a",
            "sa:ns-0/default",
            "operator:ns-1",
            "c:x",
        ];
        for round in 0..40 {
            let mut findings: Vec<Finding> = (0..60 + round)
                .map(|i| {
                    let ns = format!("ns-{}", next(2));
                    let mut f = Finding::new(
                        metas[next(metas.len())],
                        ObjectRef::namespaced("Pod", &ns, &format!("p-{}", next(8))),
                        format!("t{}", next(3)),
                    )
                    .evidence(format!("e{i}"));
                    let d = next(4);
                    if d < 3 {
                        f = f.deployment(Some(ObjectRef::namespaced(
                            "FlinkDeployment",
                            &ns,
                            &format!("d{d}"),
                        )));
                    }
                    if next(4) == 0 {
                        f.category = categories[next(categories.len())];
                        f.layer = f.category.layer();
                    }
                    for _ in 0..next(3) {
                        f = f.link(links[next(links.len())]);
                    }
                    if next(3) == 0 {
                        f = f.link(format!("pod:{i}"));
                    }
                    f.id = identity(&f);
                    f
                })
                .collect();
            findings.sort_by(cause_preference);
            let mut expected = findings.clone();
            link_pairwise(&mut expected);
            let mut got = findings;
            let shapes = Shapes::new(&got);
            let causes: Vec<_> = (0..got.len()).map(|s| shapes.cause_of(&got, s)).collect();
            for (s, c) in causes.into_iter().enumerate() {
                got[s].caused_by = c.map(|c| got[c].id.clone());
            }
            let caused = |fs: &[Finding]| -> Vec<Option<String>> {
                fs.iter().map(|f| f.caused_by.clone()).collect()
            };
            assert_eq!(caused(&got), caused(&expected), "round {round}");
            assert!(
                got.iter().filter(|f| f.caused_by.is_some()).count() > 3,
                "round {round}: the generator links too little to test anything"
            );
        }
    }
}

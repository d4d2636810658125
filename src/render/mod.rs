//! Renderers draw a finished Report; they never decide anything. Colour is decided once
//! (`style::Style::decide`) and handed in. Every renderer writes to `&mut dyn Write`, so tests
//! render into a `Vec<u8>`.

pub mod access;
pub mod clusters;
pub mod fleet;
pub mod html;
pub mod json;
pub mod markdown;
pub mod sarif;
pub mod style;
pub mod table;
/// The terminal sanitiser lives beside the masker (both decide what may leave the process), below
/// cluster, which writes warnings to stderr; render keeps its old path.
pub use crate::signatures::terminal;
pub(crate) mod text;

use crate::finding::{Finding, ObjectRef};
use crate::rank::Report;
use std::io::{self, Write};

pub use style::{ColorChoice, Style};

/// The output formats every report can be drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Markdown,
    /// SARIF 2.1.0, for code-review and security tools (doctor, lint).
    Sarif,
    /// One self-contained HTML page (doctor): the fleet grid, each deployment's causal graph.
    Html,
}

impl Format {
    /// The name `-o` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Sarif => "sarif",
            Format::Html => "html",
        }
    }
}

/// What the report is about, for headings: "namespace prod", "bundle examples/canonical".
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The command that made the report (`doctor`, `triage`, `lint`), for headings.
    pub command: &'static str,
    pub scope: String,
}

pub fn render(
    report: &Report,
    context: &Context,
    format: Format,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    // Every format draws the report as printable: secrets masked, no control characters.
    let report = &*printable(report);
    match format {
        Format::Table => table::render(report, context, style, out),
        Format::Markdown => markdown::render(report, context, out),
        Format::Json => json::render(report, out),
        // The registry's rules, each finding on its object (lint writes its own, with files).
        Format::Sarif => sarif::render_doctor(report, out),
        // One report without its cluster list (doctor draws its page with the list itself).
        Format::Html => html::render(
            &fleet::Fleet {
                contexts: vec![fleet::ContextReport {
                    context: String::new(),
                    scope: context.scope.clone(),
                    outcome: fleet::Outcome::Diagnosed {
                        report: report.clone(),
                        clusters: Vec::new(),
                        operators: Vec::new(),
                    },
                    exit_code: 0,
                    status: None,
                    seconds: 0.0,
                }],
                lines: Vec::new(),
            },
            out,
        ),
    }
}

/// The report as a terminal, a Markdown viewer or a JSON reader may show it: control characters
/// other than newline and tab (an escape sequence in a log line, a carriage return, a bell, a C1
/// control) shown as `�`, so that text taken from a cluster or a paste cannot move the cursor,
/// clear the screen or set the window title, and every secret masked by the one masker
/// (`signatures::redact`), whichever rule wrote the text. Borrowed unchanged when there is
/// nothing to replace (the usual case).
pub(crate) fn printable(report: &Report) -> std::borrow::Cow<'_, Report> {
    fn unsafe_char(c: char) -> bool {
        c.is_control() && c != '\n' && c != '\t'
    }
    fn needs(s: &str) -> bool {
        s.chars().any(unsafe_char) || crate::signatures::redact::redact(s) != s
    }
    fn clean(s: &mut String) {
        if let std::borrow::Cow::Owned(r) = crate::signatures::redact::redact(s) {
            *s = r;
        }
        if s.chars().any(unsafe_char) {
            *s = s
                .chars()
                .map(|c| if unsafe_char(c) { '\u{FFFD}' } else { c })
                .collect();
        }
    }
    /// An object's kind, name and namespace are one line each (a reference read from a spec
    /// may hold a line break): every control character written as an escape.
    fn clean_word(s: &mut String) {
        clean(s);
        if s.chars().any(char::is_control) {
            *s = crate::shell::escape_controls(s);
        }
    }
    fn clean_object(o: &mut ObjectRef) {
        clean_word(&mut o.kind);
        clean_word(&mut o.name);
        if let Some(ns) = o.namespace.as_mut() {
            clean_word(ns);
        }
    }
    let word_dirty = |s: &String| needs(s) || s.chars().any(char::is_control);
    let dirty = |f: &Finding| {
        std::iter::once(&f.title)
            .chain(&f.evidence)
            .chain([&f.fix, &f.verify])
            .any(|s| needs(s))
            || std::iter::once(&f.object)
                .chain(&f.also)
                .chain(f.deployment.iter())
                .flat_map(|o| [&o.kind, &o.name].into_iter().chain(o.namespace.iter()))
                .any(word_dirty)
    };
    if !report.findings.iter().any(dirty) {
        return std::borrow::Cow::Borrowed(report);
    }
    let mut r = report.clone();
    for f in &mut r.findings {
        clean(&mut f.title);
        f.evidence.iter_mut().for_each(clean);
        clean(&mut f.fix);
        clean(&mut f.verify);
        clean_object(&mut f.object);
        f.also.iter_mut().for_each(clean_object);
        f.deployment.iter_mut().for_each(clean_object);
    }
    std::borrow::Cow::Owned(r)
}

/// One finding placed in the cause tree: roots at depth 0, the symptoms they explain below.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<'a> {
    pub finding: &'a Finding,
    /// 0 for a root cause, 1 for a symptom it explains, 2 for a symptom of that symptom.
    pub depth: usize,
    /// 1-based position among its siblings, per level: `[2, 1, 0, ..]` is "2.1".
    pub number: [usize; MAX_DEPTH],
}

const MAX_DEPTH: usize = 8;

impl Entry<'_> {
    /// "2", "2.1", "2.1.3".
    pub fn label(&self) -> String {
        self.number[..=self.depth.min(MAX_DEPTH - 1)]
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// The report as a tree, flattened depth-first: each root cause followed by its symptoms.
/// A finding whose `caused_by` names no finding in the report counts as a root.
pub(crate) struct Outline<'a> {
    pub entries: Vec<Entry<'a>>,
}

impl<'a> Outline<'a> {
    pub fn new(report: &'a Report) -> Self {
        let findings = &report.findings;
        let known = |id: &str| findings.iter().any(|f| f.id == id);
        let mut placed = vec![false; findings.len()];
        let mut entries = Vec::with_capacity(findings.len());
        let mut roots = 0;
        for (i, f) in findings.iter().enumerate() {
            if f.caused_by.as_deref().is_none_or(|c| !known(c)) && !placed[i] {
                roots += 1;
                let mut number = [0; MAX_DEPTH];
                number[0] = roots;
                visit(findings, i, 0, number, &mut placed, &mut entries);
            }
        }
        // A cycle in caused_by (rank prevents it) would leave findings unplaced: show them as roots.
        for i in 0..findings.len() {
            if !placed[i] {
                roots += 1;
                let mut number = [0; MAX_DEPTH];
                number[0] = roots;
                visit(findings, i, 0, number, &mut placed, &mut entries);
            }
        }
        Outline { entries }
    }

    pub fn roots(&self) -> impl Iterator<Item = &Entry<'a>> {
        self.entries.iter().filter(|e| e.depth == 0)
    }

    /// Every entry below `parent` (its symptoms, theirs, ...), in order.
    pub fn descendants(&self, parent: usize) -> &[Entry<'a>] {
        let depth = self.entries[parent].depth;
        let end = self.entries[parent + 1..]
            .iter()
            .position(|e| e.depth <= depth)
            .map_or(self.entries.len(), |p| parent + 1 + p);
        &self.entries[parent + 1..end]
    }

    pub fn root_count(&self) -> usize {
        self.roots().count()
    }

    pub fn symptom_count(&self) -> usize {
        self.entries.len() - self.root_count()
    }
}

fn visit<'a>(
    findings: &'a [Finding],
    i: usize,
    depth: usize,
    number: [usize; MAX_DEPTH],
    placed: &mut [bool],
    entries: &mut Vec<Entry<'a>>,
) {
    placed[i] = true;
    entries.push(Entry {
        finding: &findings[i],
        depth,
        number,
    });
    let mut child = 0;
    for (j, f) in findings.iter().enumerate() {
        if !placed[j] && f.caused_by.as_deref() == Some(findings[i].id.as_str()) {
            child += 1;
            let mut n = number;
            if depth + 1 < MAX_DEPTH {
                n[depth + 1] = child;
            }
            visit(findings, j, depth + 1, n, placed, entries);
        }
    }
}

/// "2 root causes, 3 symptoms in FlinkDeployment analytics/orders".
pub(crate) fn summary(report: &Report, context: &Context) -> String {
    let outline = Outline::new(report);
    let mut s = plural(outline.root_count(), "root cause", "root causes");
    if outline.symptom_count() > 0 {
        s.push_str(", ");
        s.push_str(&plural(outline.symptom_count(), "symptom", "symptoms"));
    }
    let deployments = crate::rank::deployments(report);
    match deployments.as_slice() {
        [] => {
            if !context.scope.is_empty() {
                s.push_str(" in ");
                s.push_str(&context.scope);
            }
        }
        [one] => {
            s.push_str(" in ");
            s.push_str(&deployment_name(one));
        }
        many => {
            s.push_str(&format!(" in {} Flink deployments", many.len()));
        }
    }
    s
}

/// `FlinkDeployment analytics/orders`.
pub(crate) fn deployment_name(d: &ObjectRef) -> String {
    // What could not be read is said, not guessed: `analytics/orders (kind unknown)`.
    if d.kind == crate::snapshot::index::KIND_UNKNOWN {
        return match &d.namespace {
            Some(ns) => format!("{ns}/{} (kind unknown)", d.name),
            None => format!("{} (kind unknown)", d.name),
        };
    }
    match &d.namespace {
        Some(ns) => format!("{} {ns}/{}", d.kind, d.name),
        None => format!("{} {}", d.kind, d.name),
    }
}

/// The object as kubectl names it (`Pod/x -n ns`), then "+N more (a, b, c)" when folded.
pub(crate) fn object_line(f: &Finding) -> String {
    let mut s = f.object.to_string();
    if f.count > 1 {
        s.push_str(&format!(" +{} more", f.count - 1));
        if !f.also.is_empty() {
            const SHOWN: usize = 4;
            let names: Vec<String> = f
                .also
                .iter()
                .take(SHOWN)
                .map(|o| {
                    if o.kind == f.object.kind && o.namespace == f.object.namespace {
                        o.name.clone()
                    } else {
                        o.to_string()
                    }
                })
                .collect();
            let rest = if f.also.len() > SHOWN { ", ..." } else { "" };
            s.push_str(&format!(" ({}{rest})", names.join(", ")));
        }
    }
    s
}

/// What a clean report checked, so "nothing found" says how hard we looked.
pub(crate) fn checked() -> String {
    let mut layers: Vec<crate::finding::Layer> = crate::rules::RULES
        .iter()
        .map(|r| r.meta().category.layer())
        .collect();
    layers.sort();
    layers.dedup();
    let layers: Vec<&str> = layers.iter().map(|l| l.as_str()).collect();
    format!(
        "{} checks over the {} layers",
        crate::rules::RULES.len(),
        join_and(&layers)
    )
}

fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Findings and reports built in code, shared by the renderers' tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::finding::{Category, Finding, Layer, ObjectRef, Severity};
    use crate::rank::{Report, REPORT_VERSION};

    pub fn finding(
        id: &str,
        category: Category,
        severity: Severity,
        caused_by: Option<&str>,
    ) -> Finding {
        let deployment = ObjectRef::namespaced("FlinkDeployment", "analytics", "orders");
        Finding {
            id: id.to_string(),
            rule: "FLK000",
            category,
            severity,
            layer: category.layer(),
            title: format!("title of {id}"),
            object: ObjectRef::namespaced("Pod", "analytics", "orders-jm-0"),
            deployment: Some(deployment),
            evidence: vec![format!("evidence of {id}")],
            fix: String::new(),
            verify: format!("kubectl get pods -n analytics # verify {id}"),
            caused_by: caused_by.map(str::to_string),
            count: 1,
            also: Vec::new(),
            links: Vec::new(),
        }
    }

    pub const RBAC_FIX: &str = "\
Give the JobManager its own ServiceAccount with the rights native Kubernetes mode needs:

apiVersion: v1
kind: ServiceAccount
metadata: {name: flink, namespace: analytics}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink, namespace: analytics}
rules:
  - apiGroups: [\"\"]
    resources: [pods, configmaps]
    verbs: [get, list, watch, create, delete]

then set spec.serviceAccount: flink in the FlinkDeployment.";

    pub const RENAME_FIX: &str = "\
Rename the container to flink-main-container in spec.jobManager.podTemplate:

kubectl patch flinkdeployment orders -n analytics --type=json \\
  -p '[{\"op\":\"replace\",\"path\":\"/spec/jobManager/podTemplate/spec/containers/0/name\",\"value\":\"flink-main-container\"}]'

or in the manifest:

spec:
  jobManager:
    podTemplate:
      spec:
        containers:
          - name: flink-main-container   # was: flink-job-manager";

    /// Two root causes; the first explains one symptom, which explains another; the second
    /// explains a symptom folded over three pods.
    pub fn report() -> Report {
        let mut misnamed = finding(
            "A",
            Category::MainContainerMisnamed,
            Severity::Critical,
            None,
        );
        misnamed.rule = "FLK101";
        misnamed.object = ObjectRef::namespaced("FlinkDeployment", "analytics", "orders");
        misnamed.title = "main container is named `flink-job-manager`".into();
        misnamed.fix = RENAME_FIX.into();
        let mut exit0 = finding(
            "B",
            Category::ContainerExitZeroRestarting,
            Severity::Warning,
            Some("A"),
        );
        exit0.rule = "FLK102";
        exit0.title = "container `flink-job-manager` exits 0 and is restarted forever".into();
        let mut crash = finding(
            "C",
            Category::ContainerExitZeroRestarting,
            Severity::Info,
            Some("B"),
        );
        crash.rule = "FLK103";
        crash.title = "back-off restarting".into();
        let mut rbac = finding("D", Category::RbacForbidden, Severity::Critical, None);
        rbac.rule = "FLK501";
        rbac.layer = Layer::Identity;
        rbac.title = "ServiceAccount analytics/default may not watch pods".into();
        rbac.object = ObjectRef::namespaced("ServiceAccount", "analytics", "default");
        rbac.evidence = vec![
            "pods is forbidden: User \"system:serviceaccount:analytics:default\" cannot watch resource \"pods\"".into(),
            "flink-main-container exited 239".into(),
        ];
        rbac.fix = RBAC_FIX.into();
        let mut fatal = finding("E", Category::FlinkFatalExit, Severity::Warning, Some("D"));
        fatal.rule = "FLK104";
        fatal.title = "JobManager exits 239 (Flink fatal error)".into();
        fatal.object = ObjectRef::namespaced("Pod", "analytics", "orders-tm-1");
        fatal.count = 3;
        fatal.also = vec![
            ObjectRef::namespaced("Pod", "analytics", "orders-tm-2"),
            ObjectRef::namespaced("Pod", "other", "orders-tm-3"),
        ];
        Report {
            version: REPORT_VERSION,
            findings: vec![misnamed, exit0, crash, rbac, fatal],
        }
    }

    pub fn empty() -> Report {
        Report {
            version: REPORT_VERSION,
            findings: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_places_symptoms_under_their_causes() {
        let report = fixtures::report();
        let o = Outline::new(&report);
        let labels: Vec<(String, &str)> = o
            .entries
            .iter()
            .map(|e| (e.label(), e.finding.id.as_str()))
            .collect();
        assert_eq!(
            labels,
            [
                ("1", "A"),
                ("1.1", "B"),
                ("1.1.1", "C"),
                ("2", "D"),
                ("2.1", "E")
            ]
            .map(|(l, i)| (l.to_string(), i))
        );
        assert_eq!(o.root_count(), 2);
        assert_eq!(o.symptom_count(), 3);
        assert_eq!(o.descendants(0).len(), 2);
        assert_eq!(o.descendants(3).len(), 1);
    }

    #[test]
    fn outline_treats_a_dangling_cause_as_a_root() {
        let mut report = fixtures::report();
        report.findings.truncate(3);
        report.findings.remove(0);
        let o = Outline::new(&report);
        assert_eq!(o.root_count(), 1);
        assert_eq!(o.entries[0].finding.id, "B");
        assert_eq!(o.entries[1].label(), "1.1");
    }

    #[test]
    fn summary_names_the_deployment() {
        let report = fixtures::report();
        let ctx = Context {
            command: "doctor",
            scope: "bundle x".into(),
        };
        assert_eq!(
            summary(&report, &ctx),
            "2 root causes, 3 symptoms in FlinkDeployment analytics/orders"
        );
        let mut one = fixtures::report();
        one.findings.truncate(1);
        assert_eq!(
            summary(&one, &ctx),
            "1 root cause in FlinkDeployment analytics/orders"
        );
    }

    #[test]
    fn object_line_lists_folded_objects() {
        let report = fixtures::report();
        assert_eq!(
            object_line(&report.findings[4]),
            "Pod/orders-tm-1 -n analytics +2 more (orders-tm-2, Pod/orders-tm-3 -n other)"
        );
        assert_eq!(
            object_line(&report.findings[0]),
            "FlinkDeployment/orders -n analytics"
        );
    }

    #[test]
    fn control_characters_never_reach_a_terminal() {
        let mut report = fixtures::report();
        report.findings[0].evidence[0] =
            "L3: ERROR boom \u{1b}]0;pwned\u{7} \u{1b}[2J\r done".into();
        report.findings[0].fix = "step one\n\tstep two".into();
        let style = Style::PLAIN;
        let ctx = Context::default();
        for format in [Format::Table, Format::Markdown] {
            let mut out = Vec::new();
            render(&report, &ctx, format, &style, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\r'),
                "{format:?}: {text}"
            );
            assert!(text.contains("ERROR boom"), "{text}");
        }
        let clean = fixtures::report();
        assert!(matches!(printable(&clean), std::borrow::Cow::Borrowed(_)));
    }
}

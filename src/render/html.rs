//! `doctor -o html`: one self-contained page to share (no external script, font, style sheet or
//! image: everything is inline, so it opens offline, from a mail attachment or a CI artifact).
//!
//! The page: the fleet grid (one row per Flink deployment of every context, worst first, as
//! `commands::fleet` ordered it), then per context and per deployment its causal graph as inline
//! SVG (root causes on the left, the symptoms they explain to their right, an arrow from each
//! cause to each symptom), then every finding with its evidence, its fix and its verify command.
//! A copy button sits beside each fix and verify command; the buttons appear only when
//! JavaScript runs, and the page is whole without it (the text is there to select).
//!
//! Every name and every line of text comes from a cluster or a bundle and is untrusted: each
//! goes through `escape`, and the ids the page links by are made from positions, never from
//! names. Secrets are masked and control characters replaced first (`render::printable`).

use super::fleet::{ContextReport, Fleet, FleetLine, Outcome};
use super::{Entry, Outline};
use crate::finding::{Finding, ObjectRef, Severity};
use std::io::{self, Write};

/// The palette, one place: text and background pairs the accessibility test measures (WCAG
/// contrast at least 4.5:1 for every `--X-fg` on its `--X-bg`, and `--fg`, `--muted`, `--link`
/// on `--bg`).
pub const PALETTE: &[(&str, &str)] = &[
    ("--bg", "#ffffff"),
    ("--fg", "#1b1f24"),
    ("--muted", "#57606a"),
    ("--link", "#0a53be"),
    ("--line", "#8c959f"),
    ("--code-bg", "#f3f4f6"),
    ("--code-fg", "#1b1f24"),
    ("--critical-bg", "#ffebe9"),
    ("--critical-fg", "#8a1c1c"),
    ("--warning-bg", "#fff4d6"),
    ("--warning-fg", "#6b4500"),
    ("--info-bg", "#ddf4ff"),
    ("--info-fg", "#0a4a8a"),
    ("--ok-bg", "#dafbe1"),
    ("--ok-fg", "#1a5c2a"),
];

const CSS: &str = "\
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}
main,header,footer{max-width:1100px;margin:0 auto;padding:0 16px}
h1{font-size:1.6em;margin:.8em 0 .2em}h2{font-size:1.35em;margin:1.6em 0 .4em;border-bottom:1px solid var(--line)}
h3{font-size:1.15em;margin:1.2em 0 .4em}h4{font-size:1em;margin:1em 0 .3em}
p,li,td,th,dd,dt{overflow-wrap:anywhere}
a{color:var(--link)}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:.5em 0;table-layout:fixed}
th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--line)}
th{font-weight:600}
.sev{display:inline-block;padding:0 6px;border-radius:4px;font-weight:600;font-size:.85em}
.critical{background:var(--critical-bg);color:var(--critical-fg)}
.warning{background:var(--warning-bg);color:var(--warning-fg)}
.info{background:var(--info-bg);color:var(--info-fg)}
.ok{background:var(--ok-bg);color:var(--ok-fg)}
pre{background:var(--code-bg);color:var(--code-fg);padding:8px 10px;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3em 0;font:13px/1.45 ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace}
code{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.92em}
.finding{border-left:4px solid var(--line);padding:2px 0 4px 12px;margin:1em 0}
.finding.critical-edge{border-left-color:var(--critical-fg)}.finding.warning-edge{border-left-color:var(--warning-fg)}.finding.info-edge{border-left-color:var(--info-fg)}
.symptom{margin-left:24px}
dt{font-weight:600;margin-top:.4em}dd{margin:0}
figure{margin:.5em 0}figcaption{color:var(--muted);font-size:.9em}
svg{display:block;height:auto;max-width:100%}
.copy{font:inherit;font-size:.85em;padding:1px 8px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.error{background:var(--critical-bg);color:var(--critical-fg);padding:8px 10px;border-radius:4px}
.node rect{stroke-width:1}.node.root rect{stroke-width:2}
.node.critical rect{fill:var(--critical-bg);stroke:var(--critical-fg)}.node.critical .h{fill:var(--critical-fg)}
.node.warning rect{fill:var(--warning-bg);stroke:var(--warning-fg)}.node.warning .h{fill:var(--warning-fg)}
.node.info rect{fill:var(--info-bg);stroke:var(--info-fg)}.node.info .h{fill:var(--info-fg)}
.node text{font:12px system-ui,'DejaVu Sans',sans-serif;fill:var(--fg)}.node .h{font-weight:700}
.edge{fill:none;stroke:var(--muted);stroke-width:1.5}.arrowhead{fill:var(--muted)}
";

/// The copy buttons: shown only when this runs; each copies the text of the element it names.
const SCRIPT: &str = "\
for(const b of document.querySelectorAll('button.copy')){b.hidden=false;b.addEventListener('click',()=>{const t=document.getElementById(b.dataset.copy).textContent;const done=()=>{b.textContent='Copied'};if(navigator.clipboard){navigator.clipboard.writeText(t).then(done,()=>{})}else{const r=document.createRange();r.selectNodeContents(document.getElementById(b.dataset.copy));const s=getSelection();s.removeAllRanges();s.addRange(r);document.execCommand('copy');done()}})}
";

/// Text for HTML, as element content or a quoted attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub fn render(fleet: &Fleet, out: &mut dyn Write) -> io::Result<()> {
    let several = fleet.contexts.len() > 1;
    let title = match (several, fleet.contexts.first()) {
        (true, _) => format!("Flink diagnosis of {} contexts", fleet.contexts.len()),
        (false, Some(c)) => format!("Flink diagnosis: {}", c.scope),
        (false, None) => "Flink diagnosis".to_string(),
    };
    let mut page = String::new();
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.push_str("<meta name=\"generator\" content=\"kubectl-flink\">\n");
    page.push_str(&format!(
        "<title>{}</title>\n<style>\n:root{{",
        escape(&title)
    ));
    for (name, value) in PALETTE {
        page.push_str(&format!("{name}:{value};"));
    }
    page.push_str("}\n");
    page.push_str(CSS);
    page.push_str("</style>\n</head>\n<body>\n<header>\n");
    page.push_str(&format!("<h1>{}</h1>\n", escape(&title)));
    page.push_str(&format!(
        "<p class=\"muted\">{}</p>\n</header>\n<main>\n",
        escape(&summary(fleet))
    ));
    // Secrets masked and control characters replaced, as in every format.
    let printable: Vec<Option<std::borrow::Cow<'_, crate::rank::Report>>> = fleet
        .contexts
        .iter()
        .map(|c| c.report().map(super::printable))
        .collect();
    let groups: Vec<Vec<Group>> = printable
        .iter()
        .map(|r| r.as_deref().map(groups).unwrap_or_default())
        .collect();
    if !fleet.lines.is_empty() {
        grid(fleet, &groups, several, &mut page);
    }
    for (ci, c) in fleet.contexts.iter().enumerate() {
        context_section(ci, c, &groups[ci], several, &mut page);
    }
    page.push_str("</main>\n<footer>\n<p class=\"muted\">Made by <code>kubectl flink doctor -o html</code>; it only read the cluster (get, list, watch, access reviews). Secrets are masked.</p>\n</footer>\n");
    page.push_str(&format!("<script>\n{SCRIPT}</script>\n</body>\n</html>\n"));
    out.write_all(page.as_bytes())
}

/// "3 contexts, 4 Flink deployments, 2 root causes; 1 context not diagnosed".
fn summary(fleet: &Fleet) -> String {
    let deployments = fleet.lines.iter().filter(|l| l.name.is_some()).count();
    let roots: usize = fleet
        .contexts
        .iter()
        .filter_map(ContextReport::report)
        .map(|r| Outline::new(r).root_count())
        .sum();
    let failed = fleet
        .contexts
        .iter()
        .filter(|c| c.report().is_none())
        .count();
    let mut s = format!(
        "{}, {}, {}",
        super::plural(fleet.contexts.len(), "context", "contexts"),
        super::plural(deployments, "Flink deployment", "Flink deployments"),
        super::plural(roots, "root cause", "root causes")
    );
    if failed > 0 {
        s.push_str(&format!(
            "; {} not diagnosed",
            super::plural(failed, "context", "contexts")
        ));
    }
    s
}

/// The findings of one deployment (or of none: the cluster's own), as the outline places them.
struct Group<'a> {
    deployment: Option<ObjectRef>,
    /// Entries of the outline: each root cause of this group followed by its symptoms.
    entries: Vec<Entry<'a>>,
}

fn groups(report: &crate::rank::Report) -> Vec<Group<'_>> {
    let outline = Outline::new(report);
    let mut out: Vec<Group> = Vec::new();
    for (i, e) in outline.entries.iter().enumerate() {
        if e.depth != 0 {
            continue;
        }
        let d = e.finding.deployment.clone();
        let members = std::iter::once(*e).chain(outline.descendants(i).iter().copied());
        match out.iter_mut().find(|g| g.deployment == d) {
            Some(g) => g.entries.extend(members),
            None => out.push(Group {
                deployment: d,
                entries: members.collect(),
            }),
        }
    }
    out
}

fn group_id(ci: usize, gi: usize) -> String {
    format!("c{ci}-d{gi}")
}

fn sev_class(s: Option<Severity>) -> &'static str {
    match s {
        Some(Severity::Critical) => "critical",
        Some(Severity::Warning) => "warning",
        Some(Severity::Info) => "info",
        None => "ok",
    }
}

fn grid(fleet: &Fleet, groups: &[Vec<Group>], several: bool, page: &mut String) {
    page.push_str("<section aria-labelledby=\"fleet\">\n<h2 id=\"fleet\">Overview</h2>\n<table>\n");
    // Fixed columns: a long name breaks inside its own column instead of widening the page.
    if several {
        page.push_str("<colgroup><col style=\"width:13%\"><col style=\"width:13%\"><col style=\"width:15%\"><col style=\"width:10%\"><col style=\"width:13%\"><col></colgroup>\n");
    } else {
        page.push_str("<colgroup><col style=\"width:15%\"><col style=\"width:17%\"><col style=\"width:11%\"><col style=\"width:15%\"><col></colgroup>\n");
    }
    page.push_str("<thead><tr>");
    if several {
        page.push_str("<th scope=\"col\">Context</th>");
    }
    page.push_str("<th scope=\"col\">Namespace</th><th scope=\"col\">Name</th><th scope=\"col\">Mode</th><th scope=\"col\">Health</th><th scope=\"col\">Root cause</th></tr></thead>\n<tbody>\n");
    for l in &fleet.lines {
        page.push_str("<tr>");
        if several {
            page.push_str(&format!("<td>{}</td>", escape(&l.context)));
        }
        let dash = |s: &Option<String>| escape(s.as_deref().unwrap_or("-"));
        page.push_str(&format!("<td>{}</td>", dash(&l.namespace)));
        match link(fleet, groups, l) {
            Some(id) => page.push_str(&format!("<td><a href=\"#{id}\">{}</a></td>", dash(&l.name))),
            None => page.push_str(&format!("<td>{}</td>", dash(&l.name))),
        }
        page.push_str(&format!(
            "<td>{}</td><td><span class=\"sev {}\">{}</span></td><td>{}</td></tr>\n",
            escape(l.mode.unwrap_or("-")),
            sev_class(l.severity),
            escape(&l.health),
            match (&l.rule, &l.root_cause) {
                (Some(rule), Some(c)) => format!("<code>{}</code> {}", escape(rule), escape(c)),
                (None, Some(c)) => escape(c),
                _ => "-".to_string(),
            }
        ));
    }
    page.push_str("</tbody>\n</table>\n</section>\n");
}

/// The anchor of the deployment a grid line names, when it has findings on the page.
fn link(fleet: &Fleet, groups: &[Vec<Group>], l: &FleetLine) -> Option<String> {
    let ci = fleet.contexts.iter().position(|c| c.context == l.context)?;
    let (kind, name) = (l.kind.as_deref()?, l.name.as_deref()?);
    let gi = groups[ci].iter().position(|g| {
        g.deployment.as_ref().is_some_and(|d| {
            d.kind == kind && d.name == name && d.namespace.as_deref() == l.namespace.as_deref()
        })
    })?;
    Some(group_id(ci, gi))
}

fn context_section(
    ci: usize,
    c: &ContextReport,
    groups: &[Group],
    several: bool,
    page: &mut String,
) {
    let heading = if several {
        format!("Context {}", c.context)
    } else {
        "Diagnosis".to_string()
    };
    page.push_str(&format!(
        "<section aria-labelledby=\"c{ci}\">\n<h2 id=\"c{ci}\">{}</h2>\n<p class=\"muted\">{}</p>\n",
        escape(&heading),
        escape(&c.scope)
    ));
    match &c.outcome {
        Outcome::Failed { error } => {
            page.push_str(&format!(
                "<p class=\"error\"><strong>{}</strong>: {}</p>\n",
                escape(c.status.unwrap_or("failed")),
                escape(error)
            ));
        }
        Outcome::Diagnosed { report, .. } if report.findings.is_empty() => {
            page.push_str(&format!(
                "<p><span class=\"sev ok\">ok</span> No problems found ({}).</p>\n",
                escape(&super::checked())
            ));
        }
        Outcome::Diagnosed { .. } => {
            for (gi, g) in groups.iter().enumerate() {
                deployment_section(ci, gi, g, page);
            }
        }
    }
    operators(ci, c.operators(), page);
    page.push_str("</section>\n");
}

/// The pods and Deployments that are probably an operator although nothing of their own says so
/// (JSON `probableOperators`), with why, as the terminal's overview lists them.
fn operators(ci: usize, lines: &[super::clusters::OperatorLine], page: &mut String) {
    if lines.is_empty() {
        return;
    }
    page.push_str(&format!(
        "<h3 id=\"c{ci}-operators\">Probably an operator</h3>\n<p class=\"muted\">Nothing of their own says so; the wiring below does.</p>\n<table>\n<colgroup><col style=\"width:15%\"><col style=\"width:11%\"><col style=\"width:20%\"><col style=\"width:20%\"><col></colgroup>\n<thead><tr><th scope=\"col\">Namespace</th><th scope=\"col\">Kind</th><th scope=\"col\">Name</th><th scope=\"col\">Probably</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
    ));
    for o in lines {
        page.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(&crate::render::terminal::plain(&o.namespace)),
            escape(&o.kind),
            escape(&crate::render::terminal::plain(&o.name)),
            escape(o.describe),
            escape(&crate::render::terminal::plain(&o.why)),
        ));
    }
    page.push_str("</tbody>\n</table>\n");
}

fn deployment_section(ci: usize, gi: usize, g: &Group, page: &mut String) {
    let id = group_id(ci, gi);
    let name = match &g.deployment {
        Some(d) => super::deployment_name(d),
        None => "Cluster-wide".to_string(),
    };
    let roots = g.entries.iter().filter(|e| e.depth == 0).count();
    page.push_str(&format!(
        "<article aria-labelledby=\"{id}\">\n<h3 id=\"{id}\">{}</h3>\n<p class=\"muted\">{}, {}</p>\n",
        escape(&name),
        super::plural(roots, "root cause", "root causes"),
        super::plural(g.entries.len() - roots, "symptom", "symptoms"),
    ));
    graph(&id, &name, g, page);
    for (k, e) in g.entries.iter().enumerate() {
        finding(&format!("{id}-f{k}"), e, page);
    }
    page.push_str("</article>\n");
}

/// Node size and gaps of the graph, in SVG user units (the figure scales down to the page).
const NODE_W: usize = 300;
const NODE_H: usize = 62;
const GAP_X: usize = 56;
const GAP_Y: usize = 14;
const PAD: usize = 8;
/// Characters of a title per line in a node (12 px sans-serif in 300 units, with margins).
const NODE_CHARS: usize = 42;

/// The causal graph: one column per depth (root causes first), one row per finding in outline
/// order, an arrow from each cause to each symptom it explains.
fn graph(id: &str, name: &str, g: &Group, page: &mut String) {
    let depth = g.entries.iter().map(|e| e.depth).max().unwrap_or(0);
    let width = PAD * 2 + (depth + 1) * NODE_W + depth * GAP_X;
    let height = PAD * 2 + g.entries.len() * NODE_H + g.entries.len().saturating_sub(1) * GAP_Y;
    let at = |k: usize| {
        let e = &g.entries[k];
        (PAD + e.depth * (NODE_W + GAP_X), PAD + k * (NODE_H + GAP_Y))
    };
    let roots = g.entries.iter().filter(|e| e.depth == 0).count();
    page.push_str(&format!(
        "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" role=\"img\" aria-labelledby=\"{id}-gt\">\n<title id=\"{id}-gt\">Causal graph of {}: {} and the symptoms they explain</title>\n",
        escape(name),
        super::plural(roots, "root cause", "root causes"),
    ));
    page.push_str(&format!(
        "<defs><marker id=\"{id}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path class=\"arrowhead\" d=\"M0,0L10,5L0,10z\"/></marker></defs>\n"
    ));
    // Arrows first, under the boxes: from each entry to the entries directly below it.
    for (k, e) in g.entries.iter().enumerate() {
        let Some(cause) = e.finding.caused_by.as_deref() else {
            continue;
        };
        let Some(p) = g.entries[..k]
            .iter()
            .rposition(|c| c.finding.id == cause && c.depth + 1 == e.depth)
        else {
            continue;
        };
        let ((px, py), (cx, cy)) = (at(p), at(k));
        let (x1, y1) = (px + NODE_W, py + NODE_H / 2);
        let (x2, y2) = (cx, cy + NODE_H / 2);
        let mid = x1 + GAP_X / 2;
        page.push_str(&format!(
            "<path class=\"edge\" d=\"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}\" marker-end=\"url(#{id}-arrow)\"/>\n"
        ));
    }
    for (k, e) in g.entries.iter().enumerate() {
        let (x, y) = at(k);
        let f = e.finding;
        let kind = if e.depth == 0 {
            "root cause"
        } else {
            "symptom"
        };
        let lines = node_lines(&f.title);
        page.push_str(&format!(
            "<a href=\"#{id}-f{k}\"><g class=\"node {} {}\"><title>{} {}: {}</title><rect x=\"{x}\" y=\"{y}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"6\"/>",
            if e.depth == 0 { "root" } else { "symptom" },
            f.severity.as_str(),
            escape(kind),
            escape(e.label().as_str()),
            escape(&f.title),
        ));
        page.push_str(&format!(
            "<text x=\"{}\" y=\"{}\"><tspan class=\"h\">{} {} {}</tspan>",
            x + 10,
            y + 18,
            escape(&e.label()),
            escape(f.rule),
            escape(&format!("{} · {kind}", f.severity.as_str())),
        ));
        for (n, line) in lines.iter().enumerate() {
            page.push_str(&format!(
                "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                x + 10,
                y + 36 + n * 16,
                escape(line)
            ));
        }
        page.push_str("</text></g></a>\n");
    }
    page.push_str("</svg>\n<figcaption>Root causes on the left; an arrow points from a cause to each symptom it explains. The findings below give the full text.</figcaption>\n</figure>\n");
}

/// A title in at most two lines of a node; the rest of a longer one becomes "…" (the whole title
/// is the node's tooltip and the finding's heading below).
fn node_lines(title: &str) -> Vec<String> {
    let lines = super::text::wrap(title, NODE_CHARS);
    let mut out: Vec<String> = lines.iter().take(2).cloned().collect();
    if lines.len() > 2 {
        if let Some(last) = out.last_mut() {
            let keep: String = last.chars().take(NODE_CHARS.saturating_sub(2)).collect();
            *last = format!("{keep} …");
        }
    }
    out
}

fn finding(id: &str, e: &Entry, page: &mut String) {
    let f: &Finding = e.finding;
    let sev = f.severity.as_str();
    let kind = if e.depth == 0 { "" } else { " symptom" };
    page.push_str(&format!(
        "<div class=\"finding {sev}-edge{kind}\">\n<h4 id=\"{id}\">{}. <span class=\"sev {sev}\">{sev}</span> <code>{}</code> {}</h4>\n<dl>\n",
        escape(&e.label()),
        escape(f.rule),
        escape(&f.title),
    ));
    page.push_str(&format!(
        "<dt>Object</dt><dd><code>{}</code></dd>\n<dt>Category</dt><dd>{} ({} layer)</dd>\n",
        escape(&super::object_line(f)),
        escape(f.category.id()),
        escape(f.layer.as_str()),
    ));
    if !f.evidence.is_empty() {
        page.push_str("<dt>Evidence</dt><dd><ul>\n");
        for ev in &f.evidence {
            page.push_str(&format!("<li><code>{}</code></li>\n", escape(ev)));
        }
        page.push_str("</ul></dd>\n");
    }
    if !f.fix.is_empty() {
        page.push_str(&format!(
            "<dt>Fix <button type=\"button\" class=\"copy\" data-copy=\"{id}-fix\" hidden>Copy</button></dt><dd><pre id=\"{id}-fix\">{}</pre></dd>\n",
            escape(&f.fix)
        ));
    }
    if !f.verify.is_empty() {
        page.push_str(&format!(
            "<dt>Verify <button type=\"button\" class=\"copy\" data-copy=\"{id}-verify\" hidden>Copy</button></dt><dd><pre id=\"{id}-verify\">{}</pre></dd>\n",
            escape(&f.verify)
        ));
    }
    page.push_str("</dl>\n</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixtures;

    fn page(fleet: &Fleet) -> String {
        let mut out = Vec::new();
        render(fleet, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn one(report: crate::rank::Report) -> Fleet {
        Fleet {
            contexts: vec![ContextReport {
                context: String::new(),
                scope: "bundle x".into(),
                outcome: Outcome::Diagnosed {
                    report,
                    clusters: Vec::new(),
                    operators: Vec::new(),
                },
                exit_code: 1,
                status: None,
                seconds: 0.0,
            }],
            lines: Vec::new(),
        }
    }

    #[test]
    fn the_graph_draws_each_cause_and_an_arrow_to_each_symptom() {
        let text = page(&one(fixtures::report()));
        // Five findings, five nodes; three cause-to-symptom links, three arrows.
        assert_eq!(text.matches("<rect ").count(), 5, "{text}");
        assert_eq!(text.matches("marker-end=").count(), 3, "{text}");
        assert_eq!(text.matches("<g class=\"node root ").count(), 2, "{text}");
        assert_eq!(
            text.matches("<g class=\"node symptom ").count(),
            3,
            "{text}"
        );
        assert!(text.contains("2 root causes, 3 symptoms"), "{text}");
        assert!(text.contains("class=\"copy\" data-copy="), "{text}");
        for tag in ["<script src", "<link", "@import", "url(http", "src=\"http"] {
            assert!(!text.contains(tag), "{tag}: nothing external");
        }
    }

    #[test]
    fn names_and_text_from_a_cluster_are_escaped() {
        let mut report = fixtures::report();
        let hostile = "</pre><script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
        report.findings[0].title = hostile.into();
        report.findings[0].evidence = vec![hostile.into()];
        report.findings[0].object.name = hostile.into();
        report.findings[0].fix = hostile.into();
        let text = page(&one(report));
        assert!(!text.contains("<script>alert"), "{text}");
        assert!(!text.contains("<img"), "{text}");
        assert!(text.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert_eq!(text.matches("<script>").count(), 1, "only the page's own");
    }

    #[test]
    fn probable_operators_are_a_table_of_their_own_with_why() {
        let mut fleet = one(fixtures::report());
        if let Outcome::Diagnosed { operators, .. } = &mut fleet.contexts[0].outcome {
            operators.push(crate::render::clusters::OperatorLine {
                kind: "Pod".into(),
                namespace: "platform".into(),
                name: "<b>ctl</b>".into(),
                operator: "lyft",
                describe: "Lyft's flinkk8soperator",
                why: "beside nothing".into(),
            });
        }
        let text = page(&fleet);
        assert!(
            text.contains("<h3 id=\"c0-operators\">Probably an operator</h3>"),
            "{text}"
        );
        assert!(
            text.contains("<tr><td>platform</td><td>Pod</td><td>&lt;b&gt;ctl&lt;/b&gt;</td><td>Lyft&#39;s flinkk8soperator</td><td>beside nothing</td></tr>"),
            "{text}"
        );
        let without = page(&one(fixtures::report()));
        assert!(!without.contains("Probably an operator"));
    }

    #[test]
    fn headings_never_skip_a_level() {
        let text = page(&one(fixtures::report()));
        let mut last = 0;
        for part in text.split("<h").skip(1) {
            let Some(level) = part.chars().next().and_then(|c| c.to_digit(10)) else {
                continue;
            };
            assert!(level <= last + 1, "h{level} after h{last}");
            last = level;
        }
        assert_eq!(last, 4);
    }
}

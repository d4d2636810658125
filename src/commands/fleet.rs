//! `kubectl flink doctor --context a,b,c` and `--all-contexts`: each context diagnosed as
//! `doctor --context NAME` diagnoses it (gather -> snapshot -> rules -> rank), at most
//! [`AT_ONCE`] at a time, each within its own deadline, so a dead cluster is one line of the
//! overview and never holds up the others. `lines` (pure) makes the fleet overview;
//! `render::fleet` and `render::html` draw it.

use crate::cli::{DoctorArgs, FailOn, KubeArgs, OutputArgs};
use crate::error::{
    Error, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_NOTHING_FOUND, EXIT_OK, EXIT_USAGE,
};
use crate::finding::Severity;
use crate::render::fleet::{ContextReport, Fleet, FleetLine, Outcome};
use crate::render::{Outline, Style};
use futures::StreamExt;
use std::time::Instant;

/// Contexts diagnosed at once: each holds its snapshot until it is diagnosed, and its own
/// connections; four keep a laptop responsive and a fleet of 40 under a minute when each
/// answers in seconds.
pub const AT_ONCE: usize = 4;

pub async fn run(
    args: &DoctorArgs,
    kube: &KubeArgs,
    output: &OutputArgs,
    listed: Vec<String>,
) -> Result<i32, Error> {
    kube.one_namespace("doctor")?;
    let names = resolve(kube, listed)?;
    let started = Instant::now();
    let mut contexts: Vec<(usize, ContextReport)> =
        futures::stream::iter(names.iter().cloned().enumerate())
            .map(|(i, name)| async move { (i, one(args, kube, name).await) })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
    contexts.sort_by_key(|(i, _)| *i);
    let contexts: Vec<ContextReport> = contexts.into_iter().map(|(_, c)| c).collect();
    for c in &contexts {
        if let Outcome::Failed { error } = &c.outcome {
            crate::note!("error: context {}: {error}", c.context);
        } else if output.verbose > 0 {
            crate::note!("context {}: diagnosed in {:.1} s", c.context, c.seconds);
        }
    }
    if output.verbose > 0 {
        crate::note!(
            "{} contexts in {:.1} s, at most {AT_ONCE} at once",
            contexts.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let code = worst(contexts.iter().map(|c| c.exit_code));
    let fleet = Fleet {
        lines: lines(&contexts),
        contexts,
    };
    let style = Style::decide(output.color);
    let mut stdout = std::io::stdout().lock();
    let written = match output.output {
        crate::cli::Format::Table => crate::render::fleet::write_table(&fleet, &style, &mut stdout),
        crate::cli::Format::Json => crate::render::fleet::write_json(&fleet, &mut stdout),
        crate::cli::Format::Html => crate::render::html::render(&fleet, &mut stdout),
        other => {
            return Err(Error::Input(format!(
                "doctor with several contexts prints a table, JSON or HTML, not -o {}",
                other.as_str()
            )))
        }
    };
    super::report_written(std::io::Write::flush(&mut stdout).and(written))?;
    Ok(code)
}

/// The contexts to diagnose: the kubeconfig's, in its order, for `--all-contexts`; else the
/// names given, each checked against the kubeconfig first (an unknown name is a usage error
/// before anything is read, as for one context).
fn resolve(kube: &KubeArgs, listed: Vec<String>) -> Result<Vec<String>, Error> {
    let known = crate::cluster::client::context_names(&kube.into())?;
    if kube.all_contexts {
        if known.is_empty() {
            return Err(Error::Input(
                "--all-contexts: the kubeconfig has no context (kubectl config get-contexts)"
                    .into(),
            ));
        }
        return Ok(known);
    }
    if let Some(unknown) = listed.iter().find(|c| !known.contains(c)) {
        return Err(Error::Input(format!(
            "context \"{unknown}\" not found in the kubeconfig (kubectl config get-contexts lists them)"
        )));
    }
    if listed.is_empty() {
        return Err(Error::Input("--context lists no context".into()));
    }
    Ok(listed)
}

/// One context, as `doctor --context NAME` would diagnose it, within its own deadline; what went
/// wrong is the context's outcome, not the run's.
async fn one(args: &DoctorArgs, kube: &KubeArgs, name: String) -> ContextReport {
    let started = Instant::now();
    let mut options: crate::cluster::client::ConnectOptions = kube.into();
    options.context = Some(name.clone());
    // The name as printed: a kubeconfig is someone's file; no control character reaches a terminal.
    let name = crate::render::terminal::plain(&name);
    let read = crate::error::scope_target(async {
        let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
        super::within(deadline, async {
            let client = crate::cluster::client::connect(&options).await?;
            let scope = client.scope_description();
            let snapshot =
                crate::cluster::gather::gather(&client, args.name.as_deref(), args.log_tail)
                    .await?;
            Ok((snapshot, scope))
        })
        .await
    })
    .await;
    let diagnosed = read.and_then(|(snapshot, scope)| {
        let report = super::doctor::diagnose(&snapshot, args.name.as_deref(), None)?;
        let clusters = match &args.name {
            None => super::overview::clusters(&snapshot, &report, None),
            Some(_) => Vec::new(),
        };
        Ok((report, clusters, scope))
    });
    let seconds = started.elapsed().as_secs_f64();
    match diagnosed {
        Ok((report, clusters, scope)) => ContextReport {
            exit_code: context_code(&report, &clusters, args.name.is_some(), args.fail_on),
            context: name,
            scope,
            outcome: Outcome::Diagnosed { report, clusters },
            status: None,
            seconds,
        },
        Err(e) => {
            let error = crate::render::terminal::plain(&e.to_string());
            ContextReport {
                status: Some(status(&e, &error)),
                exit_code: e.exit_code(),
                scope: format!("context {name}"),
                context: name,
                outcome: Outcome::Failed { error },
                seconds,
            }
        }
    }
}

/// What `doctor --context NAME` would exit with after diagnosing: 4 when nothing was in scope.
fn context_code(
    report: &crate::rank::Report,
    clusters: &[crate::render::clusters::ClusterLine],
    named: bool,
    fail_on: FailOn,
) -> i32 {
    if !named && clusters.is_empty() && report.findings.is_empty() {
        EXIT_NOTHING_FOUND
    } else {
        super::exit_code(report, fail_on)
    }
}

/// `unreachable` (no answer, refused, timed out), `not found` (no deployment of that NAME),
/// `failed` (anything else: credentials refused, everything forbidden, a bad kubeconfig entry).
fn status(e: &Error, message: &str) -> &'static str {
    match e {
        Error::NotFound(_) => "not found",
        Error::Incomplete(_)
            if message.starts_with("cannot reach") || message.starts_with("gave up") =>
        {
            "unreachable"
        }
        _ => "failed",
    }
}

/// The fleet's exit code: the worst of its contexts', worst first 2 (usage), 3 (could not
/// complete), 1 (findings), 0; 4 (nothing in scope) only when it is every context's.
pub fn worst(codes: impl Iterator<Item = i32>) -> i32 {
    let rank = |c: i32| match c {
        EXIT_USAGE => 5,
        EXIT_INCOMPLETE => 4,
        EXIT_FINDINGS => 3,
        EXIT_OK => 1,
        EXIT_NOTHING_FOUND => 0,
        _ => 2,
    };
    codes.max_by_key(|c| rank(*c)).unwrap_or(EXIT_NOTHING_FOUND)
}

/// The overview: one line per Flink cluster of each diagnosed context with its first root cause;
/// a line for a context not diagnosed (why), one for a context's findings that belong to no
/// cluster, one for a context with nothing in scope. Worst first: not diagnosed, critical,
/// warning, then healthy, each by count, then in the order the contexts were given, namespace
/// and name.
pub fn lines(contexts: &[ContextReport]) -> Vec<FleetLine> {
    let mut keyed: Vec<((u8, usize, usize, usize), FleetLine)> = Vec::new();
    for (ci, c) in contexts.iter().enumerate() {
        match &c.outcome {
            Outcome::Failed { error } => {
                let class = if c.status == Some("not found") { 5 } else { 0 };
                keyed.push((
                    (class, 0, 0, ci),
                    FleetLine {
                        context: c.context.clone(),
                        namespace: None,
                        name: None,
                        kind: None,
                        mode: None,
                        health: c.status.unwrap_or("failed").to_string(),
                        severity: (class == 0).then_some(Severity::Critical),
                        root_cause: Some(error.clone()),
                        rule: None,
                    },
                ));
            }
            Outcome::Diagnosed { report, clusters } => {
                let report = crate::render::printable(report);
                let outline = Outline::new(&report);
                let roots: Vec<usize> = outline
                    .entries
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.depth == 0)
                    .map(|(i, _)| i)
                    .collect();
                // The deployments each root cause reaches: its own and its symptoms'.
                let reaches = |root: usize, d: &crate::finding::ObjectRef| {
                    std::iter::once(&outline.entries[root])
                        .chain(outline.descendants(root))
                        .any(|e| e.finding.deployment.as_ref() == Some(d) || &e.finding.object == d)
                };
                let mut attached = vec![false; roots.len()];
                for cl in clusters {
                    let reference = cl.reference();
                    let severity = if cl.critical > 0 {
                        Some(Severity::Critical)
                    } else if cl.warnings > 0 {
                        Some(Severity::Warning)
                    } else {
                        None
                    };
                    let mut top = None;
                    for (k, &r) in roots.iter().enumerate() {
                        if reaches(r, &reference) {
                            attached[k] = true;
                            top = top.or(Some(r));
                        }
                    }
                    let top = top
                        .filter(|_| severity.is_some())
                        .map(|r| outline.entries[r].finding);
                    keyed.push((
                        (
                            class_of(severity),
                            usize::MAX - cl.critical,
                            usize::MAX - cl.warnings,
                            ci,
                        ),
                        FleetLine {
                            context: c.context.clone(),
                            namespace: Some(cl.namespace.clone()),
                            name: Some(cl.name.clone()),
                            kind: Some(cl.kind.clone()),
                            mode: Some(cl.mode),
                            health: cl.health.clone(),
                            severity,
                            root_cause: top.map(|f| f.title.clone()),
                            rule: top.map(|f| f.rule),
                        },
                    ));
                }
                let loose: Vec<usize> = roots
                    .iter()
                    .zip(&attached)
                    .filter(|(_, a)| !**a)
                    .map(|(r, _)| *r)
                    .collect();
                if !loose.is_empty() {
                    let count = |s: Severity| {
                        loose
                            .iter()
                            .map(|&r| &outline.entries[r])
                            .flat_map(|e| std::iter::once(e.finding))
                            .filter(|f| f.severity == s)
                            .map(|f| f.count.max(1))
                            .sum::<usize>()
                    };
                    let (critical, warnings) =
                        (count(Severity::Critical), count(Severity::Warning));
                    let severity = if critical > 0 {
                        Some(Severity::Critical)
                    } else if warnings > 0 {
                        Some(Severity::Warning)
                    } else {
                        Some(Severity::Info)
                    };
                    let first = outline.entries[loose[0]].finding;
                    keyed.push((
                        (
                            class_of(severity),
                            usize::MAX - critical,
                            usize::MAX - warnings,
                            ci,
                        ),
                        FleetLine {
                            context: c.context.clone(),
                            namespace: first.object.namespace.clone(),
                            name: None,
                            kind: None,
                            mode: None,
                            health: health(critical, warnings, count(Severity::Info)),
                            severity,
                            root_cause: Some(first.title.clone()),
                            rule: Some(first.rule),
                        },
                    ));
                } else if clusters.is_empty() {
                    keyed.push((
                        (6, 0, 0, ci),
                        FleetLine {
                            context: c.context.clone(),
                            namespace: None,
                            name: None,
                            kind: None,
                            mode: None,
                            health: "no Flink deployment".into(),
                            severity: None,
                            root_cause: None,
                            rule: None,
                        },
                    ));
                }
            }
        }
    }
    // Stable: lines of one context keep the overview's namespace and name order.
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().map(|(_, l)| l).collect()
}

fn class_of(severity: Option<Severity>) -> u8 {
    match severity {
        Some(Severity::Critical) => 1,
        Some(Severity::Warning) => 2,
        Some(Severity::Info) => 3,
        None => 4,
    }
}

/// `2 critical, 1 warning`, as the overview's HEALTH says it.
fn health(critical: usize, warnings: usize, info: usize) -> String {
    match super::overview::health_counts(critical, warnings) {
        Some(text) => text,
        None if info > 0 => format!("{info} info"),
        None => "ok".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn diagnosed(context: &str, bundle: &str) -> ContextReport {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(bundle);
        let snapshot = crate::snapshot::bundle::load(&dir).unwrap();
        let report = super::super::doctor::diagnose(&snapshot, None, None).unwrap();
        let clusters = super::super::overview::clusters(&snapshot, &report, None);
        ContextReport {
            exit_code: context_code(&report, &clusters, false, FailOn::Warning),
            context: context.into(),
            scope: format!("all namespaces (context {context})"),
            outcome: Outcome::Diagnosed { report, clusters },
            status: None,
            seconds: 0.1,
        }
    }

    fn dead(context: &str) -> ContextReport {
        let e = Error::Incomplete(format!(
            "cannot reach the API server at https://127.0.0.1:1 of context {context} (connection refused)"
        ));
        let error = e.to_string();
        ContextReport {
            status: Some(status(&e, &error)),
            exit_code: e.exit_code(),
            context: context.into(),
            scope: format!("context {context}"),
            outcome: Outcome::Failed { error },
            seconds: 0.0,
        }
    }

    #[test]
    fn worst_first_the_dead_context_then_the_broken_deployment_then_the_healthy() {
        let contexts = vec![
            diagnosed("healthy", "tests/scenarios/mode-native-healthy"),
            diagnosed("broken", "examples/canonical"),
            dead("gone"),
        ];
        let lines = lines(&contexts);
        let order: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| (l.context.as_str(), l.health.as_str()))
            .collect();
        assert_eq!(order[0], ("gone", "unreachable"), "{lines:#?}");
        assert_eq!(order[1].0, "broken", "{lines:#?}");
        assert!(order[1].1.contains("critical"), "{lines:#?}");
        assert_eq!(order.last().unwrap(), &("healthy", "ok"), "{lines:#?}");
        let broken = &lines[1];
        // The canonical double fault's first root cause names the misnamed main container.
        let canonical = contexts[1].report().unwrap();
        let first_root = canonical
            .findings
            .iter()
            .find(|f| f.caused_by.is_none())
            .unwrap();
        assert_eq!(
            broken.root_cause.as_deref(),
            Some(first_root.title.as_str())
        );
        assert_eq!(broken.rule, Some(first_root.rule));
        assert_eq!(lines.last().unwrap().root_cause, None);
        assert!(lines[0]
            .root_cause
            .as_deref()
            .unwrap()
            .contains("connection refused"));
        assert_eq!(worst(contexts.iter().map(|c| c.exit_code)), EXIT_INCOMPLETE);
    }

    #[test]
    fn the_exit_code_is_the_worst_context() {
        assert_eq!(worst([0, 1, 4].into_iter()), 1);
        assert_eq!(worst([0, 4].into_iter()), 0);
        assert_eq!(worst([4, 4].into_iter()), 4);
        assert_eq!(worst([1, 3, 0].into_iter()), 3);
        assert_eq!(worst([3, 2].into_iter()), 2);
    }
}

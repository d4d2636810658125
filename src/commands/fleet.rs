//! `kubectl flink doctor --context a,b,c` and `--all-contexts`: each context diagnosed as
//! `doctor --context NAME` diagnoses it (gather -> snapshot -> rules -> rank), at most
//! [`AT_ONCE`] at a time, each within its own deadline, so a dead cluster is one line of the
//! overview and never holds up the others. `lines` (pure) makes the fleet overview;
//! `render::fleet` and `render::html` draw it.

use crate::cli::{DoctorArgs, FailOn, KubeArgs, OutputArgs};
use crate::cluster::client::ConnectOptions;
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
    if let Some(dir) = &args.save {
        crate::snapshot::bundle::check_save_target(dir)?;
    }
    let started = Instant::now();
    let saved = std::sync::Mutex::new(Vec::new());
    let contexts: Vec<ContextReport> = each_context(kube, &names, |name, options| {
        one(args, kube, name, options, &saved)
    })
    .await;
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
    let mut code = worst(contexts.iter().map(|c| c.exit_code));
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
        crate::cli::Format::Markdown => crate::render::fleet::write_markdown(&fleet, &mut stdout),
        crate::cli::Format::Sarif => crate::render::sarif::render_fleet(&fleet, &mut stdout),
    };
    super::report_written(std::io::Write::flush(&mut stdout).and(written))?;
    // The bundles: each written one named (a fleet's folder is a set of them), then what failed,
    // last, on one line each; a failed save makes the exit code 2 as for one context.
    let saved = saved.into_inner().unwrap_or_else(|e| e.into_inner());
    for (context, result) in saved {
        match result {
            Ok(dir) => crate::note!(
                "context {context}: saved to {} (kubectl flink doctor --from {})",
                dir.display(),
                crate::shell::sh(&dir.display().to_string())
            ),
            Err(e) => {
                eprintln!(
                    "error: context {context}: {}",
                    crate::render::terminal::plain(&e.to_string())
                );
                code = worst([code, EXIT_USAGE].into_iter());
            }
        }
    }
    Ok(code)
}

/// Runs `work` once per context, at most [`AT_ONCE`] at a time, and returns what each gave in
/// the order the contexts were named. `work` gets the context's name as printed (no control
/// character: a kubeconfig is someone's file) and the connection flags pointed at it; a failure
/// inside names that context's server (`error::scope_target`). doctor, can-i and logs share it.
pub async fn each_context<R, F, Fut>(kube: &KubeArgs, names: &[String], work: F) -> Vec<R>
where
    F: Fn(String, ConnectOptions) -> Fut,
    Fut: std::future::Future<Output = R>,
{
    let work = &work;
    let mut done: Vec<(usize, R)> = futures::stream::iter(names.iter().cloned().enumerate())
        .map(|(i, name)| {
            let mut options: ConnectOptions = kube.into();
            options.context = Some(name.clone());
            let printed = crate::render::terminal::plain(&name);
            async move {
                let r = crate::error::scope_target(work(printed, options)).await;
                (i, r)
            }
        })
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `run` within one context's own deadline (10 x --request-timeout, as for one context): past
/// it that context is unreachable, and the others go on.
pub async fn within_deadline<T>(
    kube: &KubeArgs,
    run: impl std::future::Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
    super::within(deadline, run).await
}

/// The contexts to diagnose: the kubeconfig's, in its order, for `--all-contexts`; else the
/// names given, each checked against the kubeconfig first (an unknown name is a usage error
/// before anything is read, as for one context).
pub fn resolve(kube: &KubeArgs, listed: Vec<String>) -> Result<Vec<String>, Error> {
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
/// wrong is the context's outcome, not the run's. With --save its bundle is written to a folder
/// of its own under the fleet's (one save at a time: a save is one temporary folder that Ctrl-C
/// removes), and the outcome of that recorded in `saved`.
async fn one(
    args: &DoctorArgs,
    kube: &KubeArgs,
    name: String,
    options: ConnectOptions,
    saved: &std::sync::Mutex<Vec<(String, Result<std::path::PathBuf, Error>)>>,
) -> ContextReport {
    let started = Instant::now();
    let read = within_deadline(kube, async {
        let client = crate::cluster::client::connect(&options).await?;
        let scope = client.scope_description();
        let snapshot =
            crate::cluster::gather::gather(&client, args.name.as_deref(), args.log_tail).await?;
        Ok((snapshot, scope))
    })
    .await;
    if let (Some(fleet_dir), Ok((snapshot, _))) = (&args.save, &read) {
        let dir = fleet_dir.join(folder_name(&name));
        let result = save_one(fleet_dir, &dir, snapshot).map(|()| dir);
        saved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((name.clone(), result));
    }
    let diagnosed = read.and_then(|(snapshot, scope)| {
        let report = super::doctor::diagnose(&snapshot, args.name.as_deref(), None)?;
        let (clusters, operators) = match &args.name {
            None => (
                super::overview::clusters(&snapshot, &report, None),
                super::overview::probable_operators(&snapshot, None),
            ),
            Some(_) => (Vec::new(), Vec::new()),
        };
        Ok((report, clusters, operators, scope))
    });
    let seconds = started.elapsed().as_secs_f64();
    match diagnosed {
        Ok((report, clusters, operators, scope)) => ContextReport {
            exit_code: context_code(&report, &clusters, args.name.is_some(), args.fail_on),
            context: name,
            scope,
            outcome: Outcome::Diagnosed {
                report,
                clusters,
                operators,
            },
            status: None,
            seconds,
        },
        Err(e) => failed(name, &e, seconds),
    }
}

/// A context not diagnosed (or not read, for can-i and logs): its status and one sentence.
pub fn failed(name: String, e: &Error, seconds: f64) -> ContextReport {
    let (status, error) = failure(e);
    ContextReport {
        status: Some(status),
        exit_code: e.exit_code(),
        scope: format!("context {name}"),
        context: name,
        outcome: Outcome::Failed { error },
        seconds,
    }
}

/// A context's failure as its row says it: its status (`unreachable`, `failed`, `not found`)
/// and the one sentence `--context NAME` would print, without control characters, and without
/// its pointer to `kubectl config current-context`: the row names the context it is about, which
/// is not the kubeconfig's current one.
pub fn failure(e: &Error) -> (&'static str, String) {
    let error = crate::render::terminal::plain(&e.to_string()).replace(CURRENT_CONTEXT_HINT, "");
    (status(e, &error), error)
}

/// How a one-context message points at the context it used (`error::connection`).
const CURRENT_CONTEXT_HINT: &str = " (kubectl config current-context)";

/// One save at a time across the contexts (`bundle::save` keeps one temporary folder for Ctrl-C
/// to remove), on a thread the runtime may block; the fleet's folder is made by the first.
fn save_one(
    fleet_dir: &std::path::Path,
    dir: &std::path::Path,
    snapshot: &crate::snapshot::Snapshot,
) -> Result<(), Error> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    tokio::task::block_in_place(|| {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        std::fs::create_dir_all(fleet_dir).map_err(|source| {
            Error::from(crate::snapshot::bundle::BundleError::Write {
                path: fleet_dir.to_path_buf(),
                source,
            })
        })?;
        crate::snapshot::bundle::save(snapshot, dir).map_err(Error::from)
    })
}

/// A context's folder in the fleet's `--save` folder: its name with every character but ASCII
/// letters, digits, `.`, `_` and `-` as `_` (a context name may hold `/`, `:` or `..`: never a
/// path of its own), and a hash of the whole name when anything was replaced, so that `a/b` and
/// `a:b` stay two folders.
pub fn folder_name(context: &str) -> String {
    let safe: String = context
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if safe == context && !context.starts_with('.') && !context.is_empty() {
        return safe;
    }
    let mut h: u32 = 0x811c_9dc5;
    for b in context.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{}-{h:08x}", safe.trim_start_matches('.'))
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
pub fn status(e: &Error, message: &str) -> &'static str {
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
            Outcome::Diagnosed {
                report, clusters, ..
            } => {
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
            outcome: Outcome::Diagnosed {
                report,
                clusters,
                operators: Vec::new(),
            },
            status: None,
            seconds: 0.1,
        }
    }

    fn dead(context: &str) -> ContextReport {
        let e = Error::Incomplete(format!(
            "cannot reach the API server at https://127.0.0.1:1 of context {context} (connection refused)"
        ));
        failed(context.into(), &e, 0.0)
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

    fn fleet_of(contexts: Vec<ContextReport>) -> Fleet {
        Fleet {
            lines: lines(&contexts),
            contexts,
        }
    }

    #[test]
    fn markdown_is_the_overview_then_each_context_one_level_down() {
        let fleet = fleet_of(vec![
            diagnosed("prod", "examples/canonical"),
            dead("gone"),
            diagnosed("dev", "tests/scenarios/mode-native-healthy"),
        ]);
        let mut out = Vec::new();
        crate::render::fleet::write_markdown(&fleet, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("# kubectl flink doctor: 3 contexts\n"),
            "{text}"
        );
        assert!(text.contains("; 1 not diagnosed: gone**"), "{text}");
        let table = text
            .find("| Context | Namespace | Name | Mode | Health | Root cause |")
            .unwrap();
        // Worst first, as the terminal: the dead context's row, then the broken deployment.
        let gone_row = text
            .find("| gone | - | - | - | unreachable | cannot reach")
            .unwrap();
        let orders_row = text.find("| prod | ").unwrap();
        assert!(table < gone_row && gone_row < orders_row, "{text}");
        // Then each context, in the order given, under its own heading.
        let sections: Vec<usize> = ["## Context prod", "## Context gone", "## Context dev"]
            .iter()
            .map(|h| text.find(h).unwrap_or_else(|| panic!("{h}: {text}")))
            .collect();
        assert!(sections.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(
            text.contains("**unreachable**: cannot reach the API server"),
            "{text}"
        );
        // Each root cause of prod as its own section, one level under its context.
        let report = fleet.contexts[0].report().unwrap();
        let roots = report
            .findings
            .iter()
            .filter(|f| f.caused_by.is_none())
            .count();
        assert_eq!(text.matches("\n### ").count(), roots, "{text}");
        assert!(!text.contains("\n## 1."), "{text}");
        assert!(text.contains("**No problems found**"), "{text}");
    }

    #[test]
    fn sarif_is_one_run_per_context_and_the_dead_one_failed() {
        let fleet = fleet_of(vec![diagnosed("prod", "examples/canonical"), dead("gone")]);
        let mut out = Vec::new();
        crate::render::sarif::render_fleet(&fleet, &mut out).unwrap();
        let log: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(log["version"], "2.1.0");
        let runs = log["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0]["properties"]["context"], "prod");
        assert_eq!(
            runs[0]["automationDetails"]["id"],
            "kubectl-flink/doctor/prod/"
        );
        assert_eq!(runs[0]["invocations"][0]["executionSuccessful"], true);
        let results = runs[0]["results"].as_array().unwrap();
        let findings = fleet.contexts[0].report().unwrap().findings.len();
        assert_eq!(results.len(), findings);
        assert!(results.iter().all(|r| r["properties"]["context"] == "prod"));
        assert!(results.iter().all(|r| r["ruleIndex"].is_u64()));
        assert_eq!(runs[1]["results"], serde_json::json!([]));
        let failed = &runs[1]["invocations"][0];
        assert_eq!(failed["executionSuccessful"], false);
        assert_eq!(failed["exitCode"], 3);
        assert!(failed["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("unreachable: cannot reach"));
    }

    #[test]
    fn a_rows_failure_does_not_point_at_the_current_context() {
        // The words `error::connection` gives a refused connection, for one context.
        let e = Error::Incomplete(
            "cannot reach https://10.0.0.1:6443 (connection refused): is the cluster up and is \
             this the right context? (kubectl config current-context)"
                .into(),
        );
        let (status, error) = failure(&e);
        assert_eq!(status, "unreachable");
        assert!(!error.contains("current-context"), "{error}");
        assert!(error.ends_with("is this the right context?"), "{error}");
    }

    #[test]
    fn a_context_folder_is_never_a_path_of_its_own() {
        assert_eq!(folder_name("prod-eu-1"), "prod-eu-1");
        assert_eq!(folder_name("kind.local_2"), "kind.local_2");
        for hostile in [
            "..",
            "../etc",
            "a/b",
            "/abs",
            ".hidden",
            "",
            "arn:aws:eks:x:1:cluster/p",
        ] {
            let f = folder_name(hostile);
            assert!(!f.is_empty() && !f.starts_with('.'), "{hostile:?} -> {f:?}");
            assert!(
                f.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')),
                "{hostile:?} -> {f:?}"
            );
        }
        assert_ne!(folder_name("a/b"), folder_name("a:b"));
        assert_ne!(folder_name("a/b"), folder_name("a_b"));
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

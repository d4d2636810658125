//! `kubectl flink doctor`: gather (or load a bundle) -> snapshot -> rules -> rank -> render.

use crate::cli::{DoctorArgs, KubeArgs, OutputArgs};
use crate::error::Error;
use crate::finding::{Finding, Remedy};
use crate::rank::Report;
use crate::render::{self, Context, Style};
use crate::snapshot::{bundle, Snapshot};
use std::io::Write;

pub async fn run(args: &DoctorArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    // `--context a,b` or `--all-contexts`: each context diagnosed as below, then one fleet.
    if let Some(contexts) = kube.context_list() {
        return super::fleet::run(args, kube, output, contexts).await;
    }
    let mut unsaved = None;
    let code = run_saving(args, kube, output, &mut unsaved).await?;
    match unsaved {
        None => Ok(code),
        // The cluster was read and the report printed: the failed save is said last, on one
        // line, and the exit code is 2 (4 stays 4: nothing was found either).
        Some(e) => {
            eprintln!("error: {}", crate::render::terminal::plain(&e.to_string()));
            Ok(code.max(crate::error::EXIT_USAGE))
        }
    }
}

/// `run`, a `--save` that failed after the cluster was read left in `unsaved`.
async fn run_saving(
    args: &DoctorArgs,
    kube: &KubeArgs,
    output: &OutputArgs,
    unsaved: &mut Option<Error>,
) -> Result<i32, Error> {
    kube.one_namespace("doctor")?;
    let (snapshot, scope) = match &args.from {
        Some(path) => {
            let options = bundle::LoadOptions {
                log_tail: usize::try_from(args.log_tail).ok(),
            };
            let loaded = bundle::load_with(path, &options)?;
            if !loaded.skipped.is_empty() {
                crate::note!(
                    "note: left out of the diagnosis: {}",
                    loaded.skipped.join("; ")
                );
            }
            let scope = format!("bundle {}", path.display());
            if let Some(name) = &args.name {
                let namespace = offline_namespace(args, kube);
                if let Some(e) =
                    not_found(&loaded.snapshot, name, namespace.as_deref(), &scope, None)
                        .filter(|_| !could_hide(&loaded.snapshot, namespace.as_deref()))
                {
                    return Err(e);
                }
            }
            (loaded.snapshot, scope)
        }
        None => {
            if let Some(dir) = &args.save {
                bundle::check_save_target(dir)?;
            }
            let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
            let (snapshot, scope) = super::within(deadline, async {
                let client = crate::cluster::client::connect(&kube.into()).await?;
                let scope = client.scope_description();
                let snapshot =
                    crate::cluster::gather::gather(&client, args.name.as_deref(), args.log_tail)
                        .await?;
                if let Some(name) = &args.name {
                    // Not where it looked: where else does that name exist? One cheap list per
                    // kind across namespaces, only when the scope was one namespace.
                    if !super::overview::is_known(&snapshot, name, None)
                        && !could_hide(&snapshot, client.namespace.as_deref())
                    {
                        let elsewhere = match client.namespace {
                            Some(_) => {
                                crate::cluster::lookup::namespaces_named(&client.client, name).await
                            }
                            None => None,
                        };
                        if let Some(e) = not_found(&snapshot, name, None, &scope, elsewhere) {
                            return Err(e);
                        }
                    }
                }
                Ok((snapshot, scope))
            })
            .await?;
            if let Some(dir) = &args.save {
                // On a thread the runtime may block: main's signal listener runs meanwhile.
                if let Err(e) = tokio::task::block_in_place(|| bundle::save(&snapshot, dir)) {
                    *unsaved = Some(Error::from(e));
                }
            }
            (snapshot, scope)
        }
    };
    if output.verbose > 0 {
        describe_snapshot(&snapshot);
    }
    let namespace = offline_namespace(args, kube);
    let report = diagnose(&snapshot, args.name.as_deref(), namespace.as_deref())?;
    let style = Style::decide(output.color);
    let mut stdout = std::io::stdout().lock();
    // Without NAME: every Flink cluster in scope, one line each, before the details.
    let clusters = match &args.name {
        None => super::overview::clusters(&snapshot, &report, namespace.as_deref()),
        Some(_) => Vec::new(),
    };
    // And what is probably an operator although nothing of its own says so, with why.
    let operators = match &args.name {
        None => super::overview::probable_operators(&snapshot, namespace.as_deref()),
        Some(_) => Vec::new(),
    };
    let context = Context {
        command: "doctor",
        scope,
    };
    if let Some(what) = args.fix {
        let combined = fixes(&report);
        crate::note!(
            "kubectl flink doctor --fix: {} object(s) to apply and {} command(s) to run, from {} finding(s); nothing was applied",
            combined.apply.len(),
            combined.run.len(),
            report.findings.len()
        );
        let text = match what {
            crate::cli::FixOutput::Apply => apply_stream(&combined),
            crate::cli::FixOutput::Run => combined.run.iter().map(|c| format!("{c}\n")).collect(),
        };
        super::report_written(
            stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush()),
        )?;
        return Ok(super::exit_code(&report, args.fail_on));
    }
    if args.name.is_none()
        && clusters.is_empty()
        && operators.is_empty()
        && report.findings.is_empty()
    {
        let sentence = nothing_found(&context.scope, namespace.as_deref());
        let written = match output.output {
            crate::cli::Format::Json => {
                super::overview::write_json(&report, &clusters, &mut stdout)
            }
            crate::cli::Format::Markdown => writeln!(stdout, "**{sentence}**"),
            crate::cli::Format::Table => writeln!(stdout, "{}", style.bold(&sentence)),
            crate::cli::Format::Html => render::html::render(
                &single(
                    kube,
                    &shared(args, &context),
                    report.clone(),
                    clusters.clone(),
                    operators.clone(),
                    4,
                ),
                &mut stdout,
            ),
            // A log with no results; the sentence for the person, on stderr.
            crate::cli::Format::Sarif => {
                crate::note!("{sentence}");
                render::sarif::render_doctor(&report, &mut stdout)
            }
        };
        super::report_written(written.and_then(|_| stdout.flush()))?;
        return Ok(crate::error::EXIT_NOTHING_FOUND);
    }
    let written = match output.output {
        crate::cli::Format::Json if args.name.is_none() => {
            super::overview::write_overview_json(&report, &clusters, &operators, &mut stdout)
        }
        crate::cli::Format::Table => render::table::render_overview(
            &report,
            &context,
            &clusters,
            &operators,
            &style,
            &mut stdout,
        ),
        // For a ticket: the overview too, and the bundle as a path relative to here (never the
        // sender's home folder).
        crate::cli::Format::Markdown => {
            let context = shared(args, &context);
            render::markdown::render_overview(&report, &context, &clusters, &operators, &mut stdout)
        }
        // The page of one context: the same grid and graphs as a fleet's.
        crate::cli::Format::Html => {
            let code = super::exit_code(&report, args.fail_on);
            render::html::render(
                &single(
                    kube,
                    &shared(args, &context),
                    report.clone(),
                    clusters.clone(),
                    operators.clone(),
                    code,
                ),
                &mut stdout,
            )
        }
        _ => render::render(&report, &context, output.output, &style, &mut stdout),
    };
    super::report_written(written.and_then(|_| stdout.flush()))?;
    Ok(super::exit_code(&report, args.fail_on))
}

/// The context as a shared report names it: a bundle by its path relative to here, never the
/// sender's home folder (Markdown for a ticket, the HTML page).
fn shared(args: &DoctorArgs, context: &Context) -> Context {
    Context {
        scope: match &args.from {
            Some(path) => format!("bundle {}", ticket_path(path)),
            None => context.scope.clone(),
        },
        ..context.clone()
    }
}

/// One context's diagnosis as a fleet of one, for the HTML page.
fn single(
    kube: &KubeArgs,
    context: &Context,
    report: crate::rank::Report,
    clusters: Vec<crate::render::clusters::ClusterLine>,
    operators: Vec<crate::render::clusters::OperatorLine>,
    exit_code: i32,
) -> render::fleet::Fleet {
    let contexts = vec![render::fleet::ContextReport {
        context: kube.context.clone().unwrap_or_default(),
        scope: context.scope.clone(),
        outcome: render::fleet::Outcome::Diagnosed {
            report,
            clusters,
            operators,
        },
        exit_code,
        status: None,
        seconds: 0.0,
    }];
    render::fleet::Fleet {
        lines: super::fleet::lines(&contexts),
        contexts,
    }
}

/// A bundle's path as a ticket may show it: relative to the current folder when it lies below
/// it, else its last component (an absolute path names the sender's folders, not the bundle).
pub fn ticket_path(path: &std::path::Path) -> String {
    if path.is_relative() {
        return path.display().to_string();
    }
    if let Some(rel) = std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok().map(|p| p.to_path_buf()))
        .filter(|p| !p.as_os_str().is_empty())
    {
        return rel.display().to_string();
    }
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Every finding's remedy, in report order (root causes first): documents deduplicated by what
/// they name (kind, namespace, name; the first one wins, a different later one is dropped with a
/// comment), commands by their text.
fn fixes(report: &Report) -> Remedy {
    let mut out = Remedy::default();
    let mut seen: Vec<(String, String)> = Vec::new();
    for f in &report.findings {
        let r = Remedy::from_fix(&f.fix);
        for doc in r.apply {
            let identity = document_identity(&doc);
            match seen.iter().find(|(id, _)| *id == identity) {
                Some((_, first)) if *first == doc => {}
                Some(_) => out.run.push(format!(
                    "# {identity}: {} proposes a different version; the one of an earlier finding is kept",
                    f.rule
                )),
                None => {
                    seen.push((identity, doc.clone()));
                    out.apply.push(doc);
                }
            }
        }
        for c in r.run {
            if !out.run.contains(&c) {
                out.run.push(c);
            }
        }
    }
    out
}

/// `Kind namespace/name` of a YAML document, for deduplication.
fn document_identity(doc: &str) -> String {
    let v: serde_json::Value = serde_yaml::from_str(doc).unwrap_or_default();
    let field = |p: &str| {
        v.pointer(p)
            .and_then(|x| x.as_str())
            .unwrap_or("")
            .to_string()
    };
    format!(
        "{} {}/{}",
        field("/kind"),
        field("/metadata/namespace"),
        field("/metadata/name")
    )
}

/// The documents as one stream for `kubectl apply -f -`, the commands after them as comments.
fn apply_stream(r: &Remedy) -> String {
    let mut out = r.apply.join("---\n");
    // A command with a placeholder (FILL_IN) is listed too: a comment already.
    let commands: Vec<&String> = r
        .run
        .iter()
        .filter(|c| !c.starts_with('#') || c.starts_with(crate::finding::FILL_IN))
        .collect();
    if !commands.is_empty() {
        out.push_str("# then run (kubectl flink doctor --fix=run prints these alone):\n");
        for c in commands {
            out.push_str(&format!("#   {c}\n"));
        }
    }
    out
}

/// `-v`: what was read and what could not be, on stderr.
fn describe_snapshot(s: &Snapshot) {
    crate::note!(
        "read: {}, {} container logs, {} access reviews",
        crate::snapshot::kinds::summary(s),
        s.logs.len(),
        s.access_reviews.len(),
    );
    for g in &s.gaps {
        crate::note!(
            "could not {} {}{}: {:?}: {}",
            g.verb,
            if g.group.is_empty() {
                g.resource.clone()
            } else {
                format!("{}.{}", g.resource, g.group)
            },
            g.namespace
                .as_deref()
                .map(|n| format!(" in {n}"))
                .unwrap_or_default(),
            g.reason,
            g.message
        );
    }
}

/// What kubectl says when a namespace holds none of a kind ("No resources found in default
/// namespace."), for Flink: "No Flink deployments found in namespace default (context kind).
/// Try -A."
fn nothing_found(scope: &str, bundle_namespace: Option<&str>) -> String {
    match bundle_namespace {
        Some(ns) => format!("No Flink deployments found in namespace {ns} of {scope}."),
        None if scope.starts_with("namespace ") => {
            format!("No Flink deployments found in {scope}. Try -A.")
        }
        None => format!("No Flink deployments found in {scope}."),
    }
}

/// `doctor NAME` when no Flink deployment of that name is where it looked (the caller checks
/// that nothing it could not read might hide one: `could_hide`): where it looked, and the namespaces where that name exists, from
/// `elsewhere` (live: a list across namespaces) or the snapshot (a bundle holds every namespace).
fn not_found(
    snapshot: &Snapshot,
    name: &str,
    namespace: Option<&str>,
    scope: &str,
    elsewhere: Option<Vec<String>>,
) -> Option<Error> {
    if super::overview::is_known(snapshot, name, namespace) {
        return None;
    }
    let looked = match namespace {
        Some(ns) => format!("namespace {ns} of {scope}"),
        None => scope.to_string(),
    };
    let elsewhere = elsewhere.unwrap_or_else(|| match namespace {
        Some(_) => super::overview::namespaces_of(snapshot, name),
        None => Vec::new(),
    });
    let mut message = format!(
        "no FlinkDeployment, FlinkSessionJob, native cluster, FlinkApplication or FlinkCluster named {name} in {looked}"
    );
    let from = scope
        .strip_prefix("bundle ")
        .map(|path| format!(" --from {path}"))
        .unwrap_or_default();
    match elsewhere.as_slice() {
        [] => {}
        [one] => message.push_str(&format!(
            "; it exists in namespace {one} (kubectl flink doctor {name}{from} -n {one})"
        )),
        many => message.push_str(&format!(
            "; it exists in namespaces {} (kubectl flink doctor {name}{from} -n {})",
            many.join(", "),
            many[0]
        )),
    }
    Some(Error::NotFound(message))
}

/// Whether something that could not be read may hide a Flink deployment in scope (`namespace`,
/// or all namespaces): a list of the kinds that name one (FlinkDeployments, FlinkSessionJobs,
/// FlinkApplications, FlinkClusters, pods, Deployments) refused or failed there. A cluster-wide list refused
/// while the scope is one namespace (the operator's Deployment, looked for everywhere) hides
/// nothing of that namespace.
fn could_hide(snapshot: &Snapshot, namespace: Option<&str>) -> bool {
    const NAMING: &[&str] = &[
        "flinkdeployments",
        "flinksessionjobs",
        "flinkapplications",
        "flinkclusters",
        "pods",
        "deployments",
    ];
    snapshot.gaps.iter().any(|g| {
        NAMING.contains(&g.resource.as_str())
            && match (namespace, g.namespace.as_deref()) {
                (Some(want), Some(ns)) => want == ns,
                (Some(_), None) => false,
                (None, _) => true,
            }
    })
}

/// For bundles, `-n` narrows the diagnosis to one namespace (live gathers are scoped already).
fn offline_namespace(args: &DoctorArgs, kube: &KubeArgs) -> Option<String> {
    if args.from.is_some() && !kube.all_namespaces {
        kube.namespace.clone()
    } else {
        None
    }
}

/// The pure part of doctor: rules and rank over a snapshot, narrowed to NAME and a namespace.
pub fn diagnose(
    snapshot: &Snapshot,
    name: Option<&str>,
    namespace: Option<&str>,
) -> Result<Report, Error> {
    if let Some(name) = name {
        if !could_hide(snapshot, namespace) {
            if let Some(e) = not_found(snapshot, name, namespace, "the snapshot", None) {
                return Err(e);
            }
        }
    }
    // `doctor JOB` of a FlinkSessionJob: what is wrong with its session cluster is its too.
    let sessions: Vec<crate::finding::ObjectRef> = name
        .map(|n| {
            let index = crate::snapshot::Index::new(snapshot);
            snapshot
                .flink_session_jobs
                .iter()
                .filter(|j| j.name() == n && namespace.is_none_or(|ns| j.namespace() == ns))
                .filter_map(|j| {
                    let d = j.spec.deployment_name.as_deref()?;
                    index
                        .flink_deployment(j.namespace(), d)
                        .map(crate::snapshot::index::deployment_ref)
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(crate::rules::run_ranked(snapshot, |f| {
        in_scope(f, name, namespace) || f.deployment.as_ref().is_some_and(|d| sessions.contains(d))
    }))
}

fn in_scope(f: &Finding, name: Option<&str>, namespace: Option<&str>) -> bool {
    let ns = f
        .deployment
        .as_ref()
        .and_then(|d| d.namespace.as_deref())
        .or(f.object.namespace.as_deref());
    // The installation (the operator, its webhooks and CRDs) serves every namespace: a live
    // `-n` reads it wherever it runs, and so does a bundle's.
    let installation =
        f.deployment.is_none() && f.category.layer() == crate::finding::Layer::Install;
    if let (Some(want), Some(ns)) = (namespace, ns) {
        if want != ns && !installation {
            return false;
        }
    }
    match name {
        None => true,
        Some(name) => match &f.deployment {
            Some(d) => d.name == name,
            None => {
                f.object.name == name || f.object.namespace.is_none() || f.rule.starts_with("FLK9")
            }
        },
    }
}

//! `kubectl flink doctor`: gather (or load a bundle) -> snapshot -> rules -> rank -> render.

use crate::cli::{DoctorArgs, KubeArgs, OutputArgs};
use crate::error::Error;
use crate::finding::Finding;
use crate::rank::{rank, Report};
use crate::render::{self, Context, Style};
use crate::snapshot::{bundle, Snapshot};
use std::io::Write;

pub async fn run(args: &DoctorArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    let (snapshot, scope) = match &args.from {
        Some(path) => {
            let options = bundle::LoadOptions {
                log_tail: usize::try_from(args.log_tail).ok(),
            };
            let loaded = bundle::load_with(path, &options)?;
            if !loaded.skipped.is_empty() {
                eprintln!(
                    "note: left out of the diagnosis: {}",
                    loaded.skipped.join("; ")
                );
            }
            (loaded.snapshot, format!("bundle {}", path.display()))
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
                Ok((snapshot, scope))
            })
            .await?;
            if let Some(dir) = &args.save {
                bundle::save(&snapshot, dir)?;
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
    let context = Context {
        command: "doctor",
        scope,
    };
    let written = match output.output {
        crate::cli::Format::Json if args.name.is_none() => {
            super::overview::write_json(&report, &clusters, &mut stdout)
        }
        crate::cli::Format::Table => {
            render::table::render_with_clusters(&report, &context, &clusters, &style, &mut stdout)
        }
        _ => render::render(&report, &context, output.output, &style, &mut stdout),
    };
    super::report_written(written.and_then(|_| stdout.flush()))?;
    Ok(super::exit_code(&report, args.fail_on))
}

/// `-v`: what was read and what could not be, on stderr.
fn describe_snapshot(s: &Snapshot) {
    eprintln!(
        "read: {} FlinkDeployments, {} FlinkSessionJobs, {} pods, {} Deployments, {} events, {} ServiceAccounts, \
         {} Roles, {} RoleBindings, {} ClusterRoles, {} ClusterRoleBindings, {} container logs, {} access reviews",
        s.flink_deployments.len(),
        s.flink_session_jobs.len(),
        s.pods.len(),
        s.deployments.len(),
        s.events.len(),
        s.service_accounts.len(),
        s.roles.len(),
        s.role_bindings.len(),
        s.cluster_roles.len(),
        s.cluster_role_bindings.len(),
        s.logs.len(),
        s.access_reviews.len(),
    );
    for g in &s.gaps {
        eprintln!(
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
        let known = super::overview::is_known(snapshot, name, namespace);
        let gaps = !snapshot.gaps.is_empty();
        if !known && !gaps {
            return Err(Error::Input(format!(
                "no Flink deployment named {name}{} (a FlinkDeployment, FlinkSessionJob, native cluster-id or FlinkApplication)",
                namespace.map(|n| format!(" in namespace {n}")).unwrap_or_default()
            )));
        }
    }
    let findings: Vec<Finding> = crate::rules::run_all(snapshot)
        .into_iter()
        .filter(|f| in_scope(f, name, namespace))
        .collect();
    Ok(rank(findings))
}

fn in_scope(f: &Finding, name: Option<&str>, namespace: Option<&str>) -> bool {
    let ns = f
        .deployment
        .as_ref()
        .and_then(|d| d.namespace.as_deref())
        .or(f.object.namespace.as_deref());
    if let (Some(want), Some(ns)) = (namespace, ns) {
        if want != ns {
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

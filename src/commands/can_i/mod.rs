//! `kubectl flink can-i`: does this Flink deployment have every permission it needs? The whole
//! resources x verbs matrix of what a component needs (`crate::flink::permissions`), decided by the API
//! server where the caller's rights allow (`crate::cluster::access`), and the minimal Role and
//! RoleBinding that grants what is missing.

use crate::cli::{Format, KubeArgs, OutputArgs};
use crate::cluster::access;
use crate::error::{Error, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_OK};
use crate::flink::access::{fix_for, AccessReport, Method, Principal, Question, Subject};
use crate::flink::mode::{Component, Mode};
use crate::flink::permissions::{self, Grantee, Holder, Permission};
use crate::flink::rbac_fix::{Known, Workload};
use crate::render::access::{
    render_fleet_json, render_fleet_markdown, render_fleet_table, render_json, render_markdown,
    render_table, ContextAccess,
};
use crate::render::Style;
use crate::shell::sh;

use crate::cluster::lookup::{check_namespace, check_service_account, find_flink, find_operator};
use kube::Client;
use std::io::Write;

pub const CAN_I_HELP: &str = "\
Whose permissions (--for):
  jobmanager   the JobManager's ServiceAccount (default): TaskManager pods, HA ConfigMaps
  taskmanager  the TaskManagers' ServiceAccount: HA ConfigMaps (nothing without Kubernetes HA)
  operator     the Flink operator's ServiceAccount: the rules of its release's ClusterRole
               (Apache: the Helm chart's; Lyft: deploy/role.yaml; FlinkCluster operator:
               config/rbac/role.yaml), chosen by NAME's kind or the operator Deployment found
  me           you: what `kubectl flink doctor` needs to see everything

The subject is spec.serviceAccount of the FlinkDeployment NAME, else serviceAccountName of its pods,
else kubernetes.service-account in ConfigMap flink-config-NAME, else (operator) the operator
Deployment's; --as=system:serviceaccount:NS:NAME (or --as=USER) overrides it.

Each decision says which method answered: impersonation + SelfSubjectAccessReview when you may
impersonate the subject, else SubjectAccessReview when you may create one, else the Roles and
bindings read from the cluster (\"from RBAC objects, not authoritative\").

Examples:
  # What the JobManager of orders may do, and what it lacks
  kubectl flink can-i orders -n flink-lab

  # Grant what is missing
  kubectl flink can-i orders -n flink-lab --fix | kubectl apply -f -

  # A ServiceAccount of your choice, as JSON
  kubectl flink can-i -n flink-lab --as=system:serviceaccount:flink-lab:flink -o json

  # Whether you may read everything doctor reads
  kubectl flink can-i --for me -n flink-lab

  # The same in every context of the kubeconfig: one matrix with a CONTEXT column
  kubectl flink can-i --for me -A --all-contexts

Exit codes:
  0  everything needed is allowed
  1  something needed is denied
  2  usage or input error (malformed --as; unknown namespace, ServiceAccount, deployment)
  3  could not complete (cluster unreachable, or some decision unknown and none denied)
  with several contexts (--context a,b, --all-contexts; at most 4 at once, each within its own
  deadline): the worst of theirs, in the order 2, 3, 1, 0";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum For {
    Jobmanager,
    Taskmanager,
    Operator,
    Me,
}

impl For {
    fn holder(self) -> Holder {
        match self {
            For::Jobmanager => Holder::Flink(Component::JobManager),
            For::Taskmanager => Holder::Flink(Component::TaskManager),
            For::Operator => Holder::Flink(Component::Operator),
            For::Me => Holder::Me,
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = CAN_I_HELP)]
pub struct CanIArgs {
    /// The Flink deployment: a FlinkDeployment, or the cluster-id of a native Flink cluster
    pub name: Option<String>,
    /// Whose permissions to check
    #[arg(long = "for", value_enum, value_name = "WHO", default_value_t = For::Jobmanager)]
    pub for_whom: For,
    /// Print nothing; only the exit code tells
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Print the fix as YAML for `kubectl apply -f -`: a ServiceAccount when Flink runs as `default`, and a Role and RoleBinding with what the component needs (the same plan doctor, lint and triage print)
    #[arg(long)]
    pub fix: bool,
}

pub async fn run(args: &CanIArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    kube.one_namespace("can-i")?;
    // Everything that can be checked without a cluster first, once for every context.
    let as_subject = checked(args, kube)?;
    if let Some(listed) = kube.context_list() {
        return fleet(args, kube, output, listed, as_subject).await;
    }
    let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
    let report = super::within(
        deadline,
        assess(args, kube, kube.into(), as_subject, output.verbose),
    )
    .await?;
    print(args, &report, output)
}

/// `can-i --context a,b` or `--all-contexts`: each context assessed as `can-i --context NAME`
/// assesses it, through the fleet machinery doctor uses (at most 4 at once, each within its own
/// deadline: a dead context is one row and never holds up the others), then one table with a
/// CONTEXT column, or one JSON document with a `context` on each.
async fn fleet(
    args: &CanIArgs,
    kube: &KubeArgs,
    output: &OutputArgs,
    listed: Vec<String>,
    as_subject: Option<Subject>,
) -> Result<i32, Error> {
    let names = super::fleet::resolve(kube, listed)?;
    let as_subject = &as_subject;
    let contexts: Vec<ContextAccess> =
        super::fleet::each_context(kube, &names, |name, options| async move {
            let started = std::time::Instant::now();
            let assessed = super::fleet::within_deadline(
                kube,
                assess(args, kube, options, as_subject.clone(), output.verbose),
            )
            .await;
            let seconds = started.elapsed().as_secs_f64();
            match assessed {
                Ok(report) => ContextAccess {
                    exit_code: exit_code(&report),
                    context: name,
                    outcome: Ok(report),
                    seconds,
                },
                Err(e) => ContextAccess {
                    exit_code: e.exit_code(),
                    context: name,
                    outcome: Err(super::fleet::failure(&e)),
                    seconds,
                },
            }
        })
        .await;
    for c in &contexts {
        if let Err((_, error)) = &c.outcome {
            crate::note!("error: context {}: {error}", c.context);
        } else if output.verbose > 0 {
            crate::note!("context {}: checked in {:.1} s", c.context, c.seconds);
        }
    }
    let code = super::fleet::worst(contexts.iter().map(|c| c.exit_code));
    if args.quiet {
        return Ok(code);
    }
    let style = Style::decide(output.color);
    let mut stdout = std::io::stdout().lock();
    let written = match output.output {
        Format::Json => render_fleet_json(&contexts, &mut stdout),
        Format::Markdown => render_fleet_markdown(&contexts, &mut stdout),
        Format::Table => render_fleet_table(&contexts, &style, &mut stdout),
        other @ (Format::Sarif | Format::Html) => {
            return Err(Error::Input(format!(
                "can-i prints a table, JSON or markdown, not {}",
                other.as_str()
            )))
        }
    };
    super::report_written(written.and_then(|_| stdout.flush())).map(|()| code)
}

/// The flags checked before any cluster is read: `--as` parsed into the subject it names.
fn checked(args: &CanIArgs, kube: &KubeArgs) -> Result<Option<Subject>, Error> {
    let holder = args.for_whom.holder();
    let as_subject = match (&kube.as_user, holder) {
        (_, Holder::Me) => None,
        (Some(a), _) => {
            Some(Subject::parse_as(a, &kube.as_group).map_err(|e| Error::Input(e.to_string()))?)
        }
        (None, _) if !kube.as_group.is_empty() => {
            return Err(Error::Input(
                "--as-group needs --as: the groups of which user?".into(),
            ))
        }
        (None, _) => None,
    };
    if kube.all_namespaces && holder != Holder::Me {
        return Err(Error::Input(format!(
            "-A/--all-namespaces only goes with --for me; --for {} checks one namespace (-n)",
            holder.as_str()
        )));
    }
    if let Some(name) = &args.name {
        if !valid_name(name) {
            return Err(Error::Input(format!(
                "\"{name}\" is not a valid Flink deployment name (lower case letters, digits and '-')"
            )));
        }
    }
    if matches!(
        holder,
        Holder::Flink(Component::JobManager | Component::TaskManager)
    ) && args.name.is_none()
        && as_subject.is_none()
    {
        return Err(Error::Input(format!(
            "name a Flink deployment (kubectl flink can-i NAME --for {}) or give --as=system:serviceaccount:NAMESPACE:NAME",
            holder.as_str()
        )));
    }
    Ok(as_subject)
}

/// One context's access report: the subject resolved, every permission decided, the fix made
/// (with --fix). Prints nothing.
async fn assess(
    args: &CanIArgs,
    kube: &KubeArgs,
    mut connect_args: crate::cluster::client::ConnectOptions,
    as_subject: Option<Subject>,
    verbose: u8,
) -> Result<AccessReport, Error> {
    let holder = args.for_whom.holder();
    let trace = |msg: &str| {
        if verbose > 0 {
            crate::note!("can-i: {msg}");
        }
    };

    // `--as` names the subject; the requests are made as the caller. For `me`, `--as` is who the
    // caller is, as in kubectl.
    if holder != Holder::Me {
        connect_args.as_user = None;
        connect_args.as_group.clear();
    }
    let cluster = crate::cluster::client::connect(&connect_args).await?;
    let c = &cluster.client;
    let namespace = cluster.namespace.clone().unwrap_or_default();
    if !namespace.is_empty() {
        check_namespace(c, &namespace).await?;
    }

    let principal = resolve(c, args, holder, &namespace, as_subject, kube, &trace).await?;
    if let Subject::ServiceAccount {
        namespace: sa_ns,
        name,
    } = &principal.subject
    {
        check_service_account(c, sa_ns, name, &principal.source).await?;
    }
    let caller = access::whoami(c).await?;

    let needs = permissions::needs(holder, principal.mode, principal.ha.unwrap_or(true));
    let questions = questions_for(&needs, &principal.subject, &namespace);
    trace(&format!(
        "{} questions for {}",
        questions.len(),
        principal.subject
    ));
    let mut decisions = access::decide(c, &questions).await?;
    if holder == Holder::Me && kube.as_user.is_some() {
        for d in &mut decisions {
            if d.method == Method::SelfSubjectAccessReview {
                d.method = Method::Impersonation;
            }
        }
    }

    let mut report = AccessReport::new(
        &principal,
        holder,
        &namespace,
        caller.as_ref().map(|u| u.name.as_str()),
        &needs,
        &decisions,
    );
    // The command names this context (of a fleet's, the one assessed).
    let mut one = kube.clone();
    one.context.clone_from(&connect_args.context);
    report.fix_command = fix_command(args, &one, &namespace);
    if args.fix {
        let known = match &report.grantee {
            Some(Grantee::ServiceAccount { namespace, .. }) => {
                access::namespace_rbac(c, namespace).await
            }
            _ => Known::default(),
        };
        report.fix = Some(fix_for(
            &report,
            args.name.as_deref(),
            caller.as_ref().map(|u| u.name.as_str()),
            &known,
        ));
    }
    Ok(report)
}

/// One context's report as the flags ask: a table, Markdown, JSON, or the fix's YAML.
fn print(args: &CanIArgs, report: &AccessReport, output: &OutputArgs) -> Result<i32, Error> {
    let code = exit_code(report);
    if args.quiet {
        return Ok(code);
    }
    let style = Style::decide(output.color);
    let mut stdout = std::io::stdout().lock();
    let written = match (output.output, &report.fix) {
        (Format::Json, _) => render_json(report, &mut stdout),
        (_, Some(Ok(yaml))) => {
            crate::note!("{}", report.summary());
            if yaml.is_empty() {
                crate::note!(
                    "nothing to fix: every permission {} needs is allowed",
                    report.subject_display
                );
                Ok(())
            } else {
                stdout.write_all(yaml.as_bytes())
            }
        }
        (_, Some(Err(why))) => {
            crate::note!("{}", report.summary());
            return Err(Error::Input(why.clone()));
        }
        (Format::Markdown, None) => render_markdown(report, &mut stdout),
        (Format::Table, None) => render_table(report, &style, &mut stdout),
        (other @ (Format::Sarif | Format::Html), None) => {
            return Err(Error::Input(format!(
                "can-i prints a table, JSON or markdown, not {}",
                other.as_str()
            )))
        }
    };
    super::report_written(written.and_then(|_| stdout.flush())).map(|()| code)
}

/// Kubernetes object names Flink accepts as a cluster-id (and a little more: dots).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
}

async fn resolve(
    c: &Client,
    args: &CanIArgs,
    holder: Holder,
    namespace: &str,
    as_subject: Option<Subject>,
    kube: &KubeArgs,
    trace: &dyn Fn(&str),
) -> Result<Principal, Error> {
    let component = match holder {
        Holder::Me => {
            let source = match &kube.as_user {
                Some(u) => format!("--as {u}"),
                None => "the caller".to_string(),
            };
            return Ok(Principal::caller(source));
        }
        Holder::Flink(c) => c,
    };
    let found = match &args.name {
        Some(name) => {
            let mut f = find_flink(c, namespace, name, component, trace).await?;
            f.forbidden.dedup();
            if !f.exists {
                let looked = format!(
                    "no FlinkDeployment, no pods labelled {}, no ConfigMap flink-config-{name}",
                    crate::flink::mode::Mode::Operator.selector(
                        Some(name),
                        Some(if component == Component::TaskManager {
                            Component::TaskManager
                        } else {
                            Component::JobManager
                        })
                    )
                );
                if f.forbidden.is_empty() {
                    return Err(Error::Input(format!(
                        "no Flink deployment named {name} in namespace {namespace} ({looked})"
                    )));
                }
                let hidden = format!(
                    "Flink deployment {name} not visible to you in namespace {namespace} (could not {})",
                    f.forbidden.join(", ")
                );
                if as_subject.is_none() {
                    return Err(Error::Input(format!(
                        "{hidden}: give its ServiceAccount with --as=system:serviceaccount:{namespace}:NAME"
                    )));
                }
                // The subject is known from --as: check it, with what could not be read said.
                f.notes.push(format!("{hidden}; mode checked as native"));
            }
            Some(f)
        }
        None => None,
    };
    let mut notes = found.as_ref().map(|f| f.notes.clone()).unwrap_or_default();
    let mut mode = found.as_ref().and_then(|f| f.mode).unwrap_or(Mode::Native);
    let ha = match &found {
        Some(f) => f.ha,
        None => None,
    };
    if component == Component::Operator {
        let (subject, source) = match as_subject {
            Some(s) => (s, "--as".to_string()),
            None => {
                let (subject, source, op_mode) = find_operator(c, namespace, found.as_ref().and_then(|f| f.mode)).await?.ok_or_else(|| {
                    Error::Input(
                        "no Flink operator Deployment found (label app.kubernetes.io/name=flink-kubernetes-operator, app=flinkoperator for Lyft's, or app=flink-operator for the FlinkCluster operator): give --as=system:serviceaccount:NAMESPACE:NAME"
                            .to_string(),
                    )
                })?;
                if found.as_ref().and_then(|f| f.mode).is_none() {
                    mode = op_mode;
                }
                (subject, source)
            }
        };
        // The operator's own rules: Lyft's, the FlinkCluster operator's, else the Apache one's.
        let mode = match mode {
            Mode::Lyft | Mode::FlinkCluster => mode,
            _ => Mode::Operator,
        };
        return Ok(Principal {
            subject,
            source,
            mode,
            ha: Some(false),
            notes,
            workload: Workload::Unknown,
        });
    }
    if ha.is_none() {
        notes.push(if args.name.is_some() {
            "Kubernetes HA: unknown (the Flink configuration could not be read), checked as on"
                .to_string()
        } else {
            "Kubernetes HA: checked as on (name a deployment to check its own settings)".to_string()
        });
    }
    let (subject, source) = match (as_subject, found.as_ref().and_then(|f| f.service_account.clone())) {
        (Some(s), _) => (s, "--as".to_string()),
        (None, Some((sa, source))) => (Subject::ServiceAccount { namespace: namespace.to_string(), name: sa }, source),
        (None, None) => {
            return Err(Error::Input(format!(
                "cannot tell which ServiceAccount {} runs as: give --as=system:serviceaccount:{namespace}:NAME",
                args.name.as_deref().unwrap_or("the deployment")
            )))
        }
    };
    Ok(Principal {
        subject,
        source,
        mode,
        ha,
        notes,
        workload: found.and_then(|f| f.workload).unwrap_or(Workload::Unknown),
    })
}

/// The command that prints the fix, as the user typed this one (kubectl's flags, in its spelling);
/// each value one shell word (`shell::sh`), whatever the context or `--as` name holds.
pub fn fix_command(args: &CanIArgs, kube: &KubeArgs, namespace: &str) -> String {
    let mut cmd = vec!["kubectl flink can-i".to_string()];
    if let Some(n) = &args.name {
        cmd.push(sh(n).to_string());
    }
    if let Some(c) = &kube.context {
        cmd.push(format!("--context {}", sh(c)));
    }
    if kube.all_namespaces {
        cmd.push("-A".into());
    } else if !namespace.is_empty() {
        cmd.push(format!("-n {}", sh(namespace)));
    }
    if args.for_whom != For::Jobmanager {
        cmd.push(format!("--for {}", args.for_whom.holder().as_str()));
    }
    if let Some(a) = &kube.as_user {
        cmd.push(format!("--as={}", sh(a)));
    }
    for g in &kube.as_group {
        cmd.push(format!("--as-group={}", sh(g)));
    }
    cmd.push("--fix | kubectl apply -f -".into());
    cmd.join(" ")
}

/// 1 when anything is denied, else 3 when anything is unknown, else 0.
pub fn exit_code(report: &AccessReport) -> i32 {
    if report.denied() > 0 {
        EXIT_FINDINGS
    } else if report.unknown() > 0 {
        EXIT_INCOMPLETE
    } else {
        EXIT_OK
    }
}

/// One question per needed verb; cluster-scoped resources are asked without a namespace.
pub fn questions_for(needs: &[Permission], subject: &Subject, namespace: &str) -> Vec<Question> {
    let mut out = Vec::new();
    for p in needs {
        let ns = if permissions::cluster_scoped(p.group, p.resource) {
            ""
        } else {
            namespace
        };
        for verb in p.verbs {
            out.push(Question::new(
                subject.clone(),
                ns,
                verb,
                p.group,
                p.resource,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;

//! `kubectl flink can-i`: does this Flink deployment have every permission it needs? The whole
//! resources x verbs matrix of what a component needs (`crate::flink::permissions`), decided by the API
//! server where the caller's rights allow (`crate::cluster::access`), and the minimal Role and
//! RoleBinding that grants what is missing.

use crate::cli::{Format, KubeArgs, OutputArgs};
use crate::cluster::access::{self, Decision, Method, Question, Subject};
use crate::error::{Error, EXIT_FINDINGS, EXIT_INCOMPLETE, EXIT_OK};
use crate::flink::names::{GROUP, VERSION};
use crate::flink::permissions::{self, Component, Grantee, Mode, Permission};
use crate::flink::rbac_fix::{self, Known, Need, Workload};
use crate::render::Style;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, ServiceAccount};
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kube::core::GroupVersionKind;
use kube::Client;
use std::io::Write;

pub const CAN_I_HELP: &str = "\
Whose permissions (--for):
  jobmanager   the JobManager's ServiceAccount (default): TaskManager pods, HA ConfigMaps
  taskmanager  the TaskManagers' ServiceAccount: HA ConfigMaps (nothing without Kubernetes HA)
  operator     the Flink operator's ServiceAccount: the Helm chart's ClusterRole rules
  me           you: what `kubectl flink doctor` needs to see everything

The subject is spec.serviceAccount of the FlinkDeployment NAME, else serviceAccountName of its pods,
else kubernetes.service-account in ConfigMap flink-config-NAME, else (operator) the operator
Deployment's; --as=system:serviceaccount:NS:NAME (or --as=USER) overrides it.

Each decision says which method answered: impersonation + SelfSubjectAccessReview when you may
impersonate the subject, else SubjectAccessReview when you may create one, else the Roles and
bindings read from the cluster (\"from RBAC objects, not authoritative\").

  kubectl flink can-i orders -n flink-lab
  kubectl flink can-i orders -n flink-lab --fix | kubectl apply -f -
  kubectl flink can-i -n flink-lab --as=system:serviceaccount:flink-lab:flink -o json
  kubectl flink can-i --for me -n flink-lab

Exit codes:
  0  everything needed is allowed
  1  something needed is denied
  2  usage or input error (malformed --as; unknown namespace, ServiceAccount, deployment)
  3  could not complete (cluster unreachable, or some decision unknown and none denied)";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum For {
    Jobmanager,
    Taskmanager,
    Operator,
    Me,
}

impl For {
    fn component(self) -> Component {
        match self {
            For::Jobmanager => Component::JobManager,
            For::Taskmanager => Component::TaskManager,
            For::Operator => Component::Operator,
            For::Me => Component::Me,
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
    let deadline = crate::cluster::client::run_deadline(&kube.request_timeout)?;
    super::within(deadline, run_checks(args, kube, output)).await
}

async fn run_checks(args: &CanIArgs, kube: &KubeArgs, output: &OutputArgs) -> Result<i32, Error> {
    let component = args.for_whom.component();
    // Everything that can be checked without a cluster first.
    let as_subject = match (&kube.as_user, component) {
        (_, Component::Me) => None,
        (Some(a), _) => Some(Subject::parse_as(a, &kube.as_group).map_err(Error::Input)?),
        (None, _) if !kube.as_group.is_empty() => {
            return Err(Error::Input(
                "--as-group needs --as: the groups of which user?".into(),
            ))
        }
        (None, _) => None,
    };
    if kube.all_namespaces && component != Component::Me {
        return Err(Error::Input(format!(
            "-A/--all-namespaces only goes with --for me; --for {} checks one namespace (-n)",
            component.as_str()
        )));
    }
    if let Some(name) = &args.name {
        if !valid_name(name) {
            return Err(Error::Input(format!(
                "\"{name}\" is not a valid Flink deployment name (lower case letters, digits and '-')"
            )));
        }
    }
    if matches!(component, Component::JobManager | Component::TaskManager)
        && args.name.is_none()
        && as_subject.is_none()
    {
        return Err(Error::Input(format!(
            "name a Flink deployment (kubectl flink can-i NAME --for {}) or give --as=system:serviceaccount:NAMESPACE:NAME",
            component.as_str()
        )));
    }
    let trace = |msg: &str| {
        if output.verbose > 0 {
            eprintln!("can-i: {msg}");
        }
    };

    // `--as` names the subject; the requests are made as the caller. For `me`, `--as` is who the
    // caller is, as in kubectl.
    let mut connect_args = crate::cluster::client::ConnectOptions::from(kube);
    if component != Component::Me {
        connect_args.as_user = None;
        connect_args.as_group.clear();
    }
    let cluster = crate::cluster::client::connect(&connect_args).await?;
    let c = &cluster.client;
    let namespace = cluster.namespace.clone().unwrap_or_default();
    if !namespace.is_empty() {
        check_namespace(c, &namespace).await?;
    }

    let target = resolve(c, args, component, &namespace, as_subject, kube, &trace).await?;
    if let Subject::ServiceAccount {
        namespace: sa_ns,
        name,
    } = &target.subject
    {
        check_service_account(c, sa_ns, name, &target.source).await?;
    }
    let caller = access::whoami(c).await?;

    let needs = permissions::needs(component, target.mode, target.ha.unwrap_or(true));
    let questions = questions_for(&needs, &target.subject, &namespace);
    trace(&format!(
        "{} questions for {}",
        questions.len(),
        target.subject
    ));
    let mut decisions = access::decide(c, &questions).await?;
    if component == Component::Me && kube.as_user.is_some() {
        for d in &mut decisions {
            if d.method == Method::SelfSubjectAccessReview {
                d.method = Method::Impersonation;
            }
        }
    }

    let mut report = Report::new(
        &target,
        component,
        &namespace,
        caller.as_ref().map(|u| u.name.as_str()),
        &needs,
        &decisions,
    );
    report.fix_command = fix_command(args, kube, &namespace);
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
    let code = report.exit_code();
    if args.quiet {
        return Ok(code);
    }
    let style = Style::decide(output.color);
    let mut stdout = std::io::stdout().lock();
    let written = match (output.output, &report.fix) {
        (Format::Json, _) => render_json(&report, &mut stdout),
        (_, Some(Ok(yaml))) => {
            eprintln!("{}", report.summary());
            if yaml.is_empty() {
                eprintln!(
                    "nothing to fix: every permission {} needs is allowed",
                    report.subject_display
                );
                Ok(())
            } else {
                stdout.write_all(yaml.as_bytes())
            }
        }
        (_, Some(Err(why))) => {
            eprintln!("{}", report.summary());
            return Err(Error::Input(why.clone()));
        }
        (Format::Markdown, None) => render_markdown(&report, &mut stdout),
        (Format::Table, None) => render_table(&report, &style, &mut stdout),
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

/// The subject and what decides the permission set.
#[derive(Debug, Clone)]
pub struct Target {
    pub subject: Subject,
    /// How the subject was found, for people: "spec.serviceAccount of FlinkDeployment orders".
    pub source: String,
    pub mode: Mode,
    /// None: not known (checked as on, the superset).
    pub ha: Option<bool>,
    pub notes: Vec<String>,
    /// What runs as the subject, for the switch a fix may need.
    pub workload: Workload,
}

impl Target {
    /// `--for me`: the caller, who needs what doctor reads (no Flink mode or HA involved).
    pub fn caller(source: String) -> Self {
        Target {
            subject: Subject::Caller,
            source,
            mode: Mode::Native,
            ha: Some(false),
            notes: Vec::new(),
            workload: Workload::Unknown,
        }
    }
}

/// What is known of a Flink deployment: where its ServiceAccount came from, its mode and HA.
#[derive(Debug, Default)]
struct Found {
    service_account: Option<(String, String)>,
    mode: Option<Mode>,
    ha: Option<bool>,
    exists: bool,
    forbidden: Vec<String>,
    notes: Vec<String>,
    workload: Option<Workload>,
}

async fn resolve(
    c: &Client,
    args: &CanIArgs,
    component: Component,
    namespace: &str,
    as_subject: Option<Subject>,
    kube: &KubeArgs,
    trace: &dyn Fn(&str),
) -> Result<Target, Error> {
    if component == Component::Me {
        let source = match &kube.as_user {
            Some(u) => format!("--as {u}"),
            None => "the caller".to_string(),
        };
        return Ok(Target::caller(source));
    }
    let found = match &args.name {
        Some(name) => {
            let mut f = find_flink(c, namespace, name, component, trace).await?;
            f.forbidden.dedup();
            if !f.exists {
                let looked = format!(
                    "no FlinkDeployment, no pods labelled app={name},component={}, no ConfigMap flink-config-{name}",
                    if component == Component::TaskManager { "taskmanager" } else { "jobmanager" }
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
                let (subject, source, op_mode) = find_operator(c, namespace).await?.ok_or_else(|| {
                    Error::Input(
                        "no Flink operator Deployment found (label app.kubernetes.io/name=flink-kubernetes-operator, or app=flinkoperator for Lyft's): give --as=system:serviceaccount:NAMESPACE:NAME"
                            .to_string(),
                    )
                })?;
                if found.as_ref().and_then(|f| f.mode).is_none() {
                    mode = op_mode;
                }
                (subject, source)
            }
        };
        let mode = if mode == Mode::Lyft {
            Mode::Lyft
        } else {
            Mode::Native
        };
        return Ok(Target {
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
    Ok(Target {
        subject,
        source,
        mode,
        ha,
        notes,
        workload: found.and_then(|f| f.workload).unwrap_or(Workload::Unknown),
    })
}

/// Looks for the Flink deployment NAME: its FlinkDeployment, then its pods (Apache labels, then
/// Lyft's), then a native cluster's ConfigMap `flink-config-NAME`.
async fn find_flink(
    c: &Client,
    ns: &str,
    name: &str,
    component: Component,
    trace: &dyn Fn(&str),
) -> Result<Found, Error> {
    let mut f = Found::default();
    let comp = if component == Component::TaskManager {
        "taskmanager"
    } else {
        "jobmanager"
    };

    // 1. The FlinkDeployment.
    let ar = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(GROUP, VERSION, "FlinkDeployment"),
        "flinkdeployments",
    );
    let api: Api<DynamicObject> = Api::namespaced_with(c.clone(), ns, &ar);
    match read(api.get_opt(name).await, "get flinkdeployments", &mut f)? {
        Some(Some(fd)) => {
            f.exists = true;
            f.workload = Some(Workload::FlinkDeployment(name.to_string()));
            let spec = fd.data.get("spec").cloned().unwrap_or_default();
            f.mode = Some(match spec.get("mode").and_then(|m| m.as_str()) {
                Some("standalone") => Mode::Standalone,
                _ => Mode::Native,
            });
            let conf = crate::flink::conf::flatten_conf(
                spec.get("flinkConfiguration")
                    .unwrap_or(&serde_json::Value::Null),
            );
            f.ha = Some(permissions::ha_enabled(&conf));
            match spec.get("serviceAccount").and_then(|s| s.as_str()).filter(|s| !s.is_empty()) {
                Some(sa) => {
                    trace(&format!("FlinkDeployment {ns}/{name}: spec.serviceAccount {sa}"));
                    f.service_account = Some((sa.to_string(), format!("spec.serviceAccount of FlinkDeployment {name}")));
                    return Ok(f);
                }
                None => f.notes.push(format!("FlinkDeployment {name} has no spec.serviceAccount (the operator's validator rejects it)")),
            }
        }
        Some(None) => trace(&format!("no FlinkDeployment {ns}/{name}")),
        None => {}
    }

    // 2. Its pods: Apache Flink's labels, then the Lyft operator's.
    let pods: Api<Pod> = Api::namespaced(c.clone(), ns);
    for (selector, lyft) in [
        (format!("app={name},component={comp}"), false),
        (
            format!("flink-app={name},flink-deployment-type={comp}"),
            true,
        ),
    ] {
        let lp = ListParams::default().labels(&selector).limit(20);
        if let Some(list) = read(pods.list(&lp).await.map(Some), "list pods", &mut f)?.flatten() {
            if let Some(pod) = list.items.first() {
                f.exists = true;
                let spec = pod.spec.as_ref();
                let sa = spec
                    .and_then(|s| {
                        s.service_account_name
                            .clone()
                            .or_else(|| s.service_account.clone())
                    })
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "default".to_string());
                let pod_name = pod.metadata.name.clone().unwrap_or_default();
                trace(&format!(
                    "pod {ns}/{pod_name} ({selector}): serviceAccountName {sa}"
                ));
                if f.mode.is_none() {
                    let standalone = pod
                        .metadata
                        .labels
                        .as_ref()
                        .and_then(|l| l.get("type"))
                        .map(String::as_str)
                        == Some("flink-standalone-kubernetes");
                    f.mode = Some(if lyft {
                        Mode::Lyft
                    } else if standalone {
                        Mode::Standalone
                    } else {
                        Mode::Native
                    });
                }
                if f.service_account.is_none() {
                    f.service_account = Some((sa, format!("serviceAccountName of pod {pod_name}")));
                }
                if f.workload.is_none() {
                    f.workload = Some(match f.mode {
                        Some(Mode::Lyft) => Workload::FlinkApplication(name.to_string()),
                        Some(Mode::Native) => Workload::NativeCluster(name.to_string()),
                        _ => Workload::Unknown,
                    });
                }
                break;
            }
        }
    }

    // 3. The Flink configuration of a native cluster: HA, and the ServiceAccount if still unknown.
    if f.ha.is_none() || f.service_account.is_none() {
        let cms: Api<ConfigMap> = Api::namespaced(c.clone(), ns);
        let cm_name = format!("flink-config-{name}");
        if let Some(Some(cm)) = read(cms.get_opt(&cm_name).await, "get configmaps", &mut f)? {
            f.exists = true;
            let data = cm.data.unwrap_or_default();
            let text = data
                .get("config.yaml")
                .or_else(|| data.get("flink-conf.yaml"))
                .cloned()
                .unwrap_or_default();
            let conf = crate::flink::conf::parse_flink_conf(&text);
            if f.ha.is_none() {
                f.ha = Some(permissions::ha_enabled(&conf));
            }
            if f.mode.is_none() {
                f.mode = Some(Mode::Native);
            }
            if f.workload.is_none() {
                f.workload = Some(Workload::NativeCluster(name.to_string()));
            }
            if f.service_account.is_none() {
                if let Some(sa) = permissions::service_account_from_conf(&conf, component) {
                    let key = if conf.contains_key(&format!("kubernetes.{comp}.service-account")) {
                        format!("kubernetes.{comp}.service-account")
                    } else if conf.contains_key("kubernetes.service-account") {
                        "kubernetes.service-account".to_string()
                    } else {
                        "Flink's default for kubernetes.service-account".to_string()
                    };
                    trace(&format!("ConfigMap {ns}/{cm_name}: {key} = {sa}"));
                    f.service_account = Some((sa, format!("{key} in ConfigMap {cm_name}")));
                }
            }
        }
    }
    Ok(f)
}

/// A read's result: `Some(value)`, or `None` when the API refused it (recorded); an unreachable
/// API server is an error.
fn read<T>(r: Result<T, kube::Error>, what: &str, f: &mut Found) -> Result<Option<T>, Error> {
    match r {
        Ok(v) => Ok(Some(v)),
        // A credential the API server does not accept is not "no such deployment" (exit 2):
        // nothing can be checked, as doctor and logs say (exit 3).
        Err(kube::Error::Api(s)) if s.code == 401 => Err(Error::incomplete(
            "reach the Kubernetes API server",
            format!("Unauthorized: {}", s.message),
        )),
        Err(kube::Error::Api(s)) if s.code == 403 => {
            f.forbidden.push(what.to_string());
            Ok(None)
        }
        // Not served (a CRD that is not installed): nothing of that kind exists.
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        // Anything else (429 after the retries, 5xx) says nothing about the deployment.
        Err(kube::Error::Api(s)) => Err(Error::incomplete(
            &format!("{what}: the API server answered {}", s.code),
            s.message,
        )),
        Err(e) => Err(Error::incomplete("reach the Kubernetes API server", e)),
    }
}

/// The operator Deployment (Apache's chart label, then Lyft's), preferring one in `ns`.
async fn find_operator(c: &Client, ns: &str) -> Result<Option<(Subject, String, Mode)>, Error> {
    for (selector, mode) in [
        (
            "app.kubernetes.io/name=flink-kubernetes-operator",
            Mode::Native,
        ),
        ("app=flinkoperator", Mode::Lyft),
    ] {
        let lp = ListParams::default().labels(selector);
        let mut found = match Api::<Deployment>::all(c.clone()).list(&lp).await {
            Ok(l) => l.items,
            Err(kube::Error::Api(_)) => {
                match Api::<Deployment>::namespaced(c.clone(), ns).list(&lp).await {
                    Ok(l) => l.items,
                    Err(kube::Error::Api(_)) => Vec::new(),
                    Err(e) => return Err(Error::incomplete("reach the Kubernetes API server", e)),
                }
            }
            Err(e) => return Err(Error::incomplete("reach the Kubernetes API server", e)),
        };
        found.sort_by_key(|d| {
            (
                d.metadata.namespace.as_deref() != Some(ns),
                d.metadata.namespace.clone(),
                d.metadata.name.clone(),
            )
        });
        if let Some(d) = found.first() {
            let d_ns = d.metadata.namespace.clone().unwrap_or_default();
            let d_name = d.metadata.name.clone().unwrap_or_default();
            let sa = d
                .spec
                .template
                .spec
                .as_ref()
                .and_then(|s| {
                    s.service_account_name
                        .clone()
                        .or_else(|| s.service_account.clone())
                })
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "default".to_string());
            let mut source = format!("serviceAccountName of operator Deployment {d_ns}/{d_name}");
            if found.len() > 1 {
                source.push_str(&format!(
                    " (one of {} operator Deployments; --as chooses another)",
                    found.len()
                ));
            }
            return Ok(Some((
                Subject::ServiceAccount {
                    namespace: d_ns,
                    name: sa,
                },
                source,
                mode,
            )));
        }
    }
    Ok(None)
}

async fn check_namespace(c: &Client, ns: &str) -> Result<(), Error> {
    match Api::<Namespace>::all(c.clone()).get_opt(ns).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(Error::Input(format!("namespace \"{ns}\" not found"))),
        // Not allowed to read namespaces: the reads below tell what they can.
        Err(kube::Error::Api(_)) => Ok(()),
        Err(e) => Err(Error::incomplete("reach the Kubernetes API server", e)),
    }
}

async fn check_service_account(
    c: &Client,
    ns: &str,
    name: &str,
    source: &str,
) -> Result<(), Error> {
    match Api::<ServiceAccount>::namespaced(c.clone(), ns).get_opt(name).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(Error::Input(format!(
            "ServiceAccount {ns}/{name} ({source}) not found: create it (kubectl -n {ns} create serviceaccount {name}) or name another"
        ))),
        Err(kube::Error::Api(_)) => Ok(()),
        Err(e) => Err(Error::incomplete("reach the Kubernetes API server", e)),
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

/// One cell of the matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub verb: String,
    pub allowed: Option<bool>,
    pub method: Method,
    pub reason: String,
}

/// One resource's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub group: String,
    pub resource: String,
    pub why: String,
    pub cells: Vec<Cell>,
}

impl Row {
    /// kubectl's spelling: `pods`, `pods/log`, `deployments.apps`, `deployments.apps/finalizers`.
    pub fn display_resource(&self) -> String {
        let (base, sub) = self
            .resource
            .split_once('/')
            .map_or((self.resource.as_str(), None), |(b, s)| (b, Some(s)));
        let mut out = base.to_string();
        if !self.group.is_empty() {
            out.push('.');
            out.push_str(&self.group);
        }
        if let Some(sub) = sub {
            out.push('/');
            out.push_str(sub);
        }
        out
    }
}

/// The finished answer, ready to render.
#[derive(Debug, Clone)]
pub struct Report {
    /// The user name the authorizer sees ("system:serviceaccount:ns:sa"), or the caller's.
    pub subject: String,
    pub subject_display: String,
    pub grantee: Option<Grantee>,
    pub source: String,
    pub component: Component,
    pub mode: Mode,
    pub ha: Option<bool>,
    pub namespace: String,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
    pub fix: Option<Result<String, String>>,
    /// The command that prints the fix (empty: not shown).
    pub fix_command: String,
    pub workload: Workload,
}

impl Report {
    pub fn new(
        target: &Target,
        component: Component,
        namespace: &str,
        caller: Option<&str>,
        needs: &[Permission],
        decisions: &[Decision],
    ) -> Self {
        let mut rows: Vec<Row> = Vec::new();
        for p in needs {
            let cells = p
                .verbs
                .iter()
                .map(|verb| {
                    let (res, sub) = p.resource.split_once('/').unwrap_or((p.resource, ""));
                    let d = decisions.iter().find(|d| {
                        let a = &d.question.attrs;
                        a.verb == *verb
                            && a.group == p.group
                            && a.resource == res
                            && a.subresource == sub
                    });
                    match d {
                        Some(d) => Cell {
                            verb: verb.to_string(),
                            allowed: d.allowed,
                            method: d.method,
                            reason: d.reason.clone(),
                        },
                        None => Cell {
                            verb: verb.to_string(),
                            allowed: None,
                            method: Method::Undecided,
                            reason: "not asked".into(),
                        },
                    }
                })
                .collect();
            rows.push(Row {
                group: p.group.into(),
                resource: p.resource.into(),
                why: p.why.into(),
                cells,
            });
        }
        let (subject, subject_display, grantee) = match &target.subject {
            Subject::Caller => {
                let name = caller.map(str::to_string);
                let grantee = name.as_deref().map(grantee_for_user);
                let display = match &name {
                    Some(n) => format!("you ({n})"),
                    None => "you".to_string(),
                };
                (name.unwrap_or_default(), display, grantee)
            }
            Subject::ServiceAccount {
                namespace: sa_ns,
                name,
            } => (
                format!("system:serviceaccount:{sa_ns}:{name}"),
                target.subject.to_string(),
                Some(Grantee::ServiceAccount {
                    namespace: sa_ns.clone(),
                    name: name.clone(),
                }),
            ),
            Subject::User { name, .. } => (
                name.clone(),
                target.subject.to_string(),
                Some(Grantee::User(name.clone())),
            ),
        };
        let mut notes = target.notes.clone();
        if rows
            .iter()
            .flat_map(|r| &r.cells)
            .any(|c| c.method == Method::RbacObjects)
        {
            notes.push(
                "decisions \"from RBAC objects, not authoritative\" are computed from the Roles and bindings; other authorizers (webhooks) are not seen, and aggregated ClusterRoles are read as the aggregation controller would fill them".into(),
            );
        }
        // Grants the API server does not see yet (an aggregated ClusterRole's unfilled rules).
        let mut caveats: Vec<String> = Vec::new();
        for row in &rows {
            for c in &row.cells {
                if c.allowed == Some(true)
                    && c.reason.contains("stored rules do not include it yet")
                {
                    let note = format!("{} allowed {}", row.display_resource(), c.reason);
                    if !caveats.contains(&note) {
                        caveats.push(note);
                    }
                }
            }
        }
        notes.extend(caveats);
        Report {
            subject,
            subject_display,
            grantee,
            source: target.source.clone(),
            component,
            mode: target.mode,
            ha: target.ha,
            namespace: namespace.to_string(),
            rows,
            notes,
            fix: None,
            fix_command: String::new(),
            workload: target.workload.clone(),
        }
    }

    fn cells(&self) -> impl Iterator<Item = (&Row, &Cell)> {
        self.rows
            .iter()
            .flat_map(|r| r.cells.iter().map(move |c| (r, c)))
    }

    pub fn denied(&self) -> usize {
        self.cells()
            .filter(|(_, c)| c.allowed == Some(false))
            .count()
    }

    pub fn unknown(&self) -> usize {
        self.cells().filter(|(_, c)| c.allowed.is_none()).count()
    }

    /// 1 when anything is denied, else 3 when anything is unknown, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.denied() > 0 {
            EXIT_FINDINGS
        } else if self.unknown() > 0 {
            EXIT_INCOMPLETE
        } else {
            EXIT_OK
        }
    }

    /// "jobmanager, native, HA on".
    pub fn what(&self) -> String {
        match self.component {
            Component::Me => "me (kubectl flink doctor)".to_string(),
            Component::Operator => format!(
                "operator ({})",
                if self.mode == Mode::Lyft {
                    "Lyft"
                } else {
                    "Apache, Helm chart rules"
                }
            ),
            c => format!(
                "{}, {}, HA {}",
                c.as_str(),
                self.mode.as_str(),
                match self.ha {
                    Some(true) => "on",
                    Some(false) => "off",
                    None => "assumed on",
                }
            ),
        }
    }

    pub fn summary(&self) -> String {
        let total = self.cells().count();
        let scope = if self.namespace.is_empty() {
            "all namespaces".to_string()
        } else {
            format!("namespace {}", self.namespace)
        };
        if total == 0 {
            return format!(
                "{} needs nothing from the API server ({})",
                self.subject_display,
                self.what()
            );
        }
        let (denied, unknown) = (self.denied(), self.unknown());
        let mut s = format!(
            "{} of {total} needed permissions allowed for {} in {scope}",
            total - denied - unknown,
            self.subject_display
        );
        if denied > 0 {
            s.push_str(&format!("; {denied} denied"));
        }
        if unknown > 0 {
            s.push_str(&format!("; {unknown} unknown"));
        }
        s
    }
}

fn grantee_for_user(name: &str) -> Grantee {
    match crate::flink::rbac::UserInfo::user(name, &[]).service_account_parts() {
        Some((ns, sa)) => Grantee::ServiceAccount {
            namespace: ns.to_string(),
            name: sa.to_string(),
        },
        None => Grantee::User(name.to_string()),
    }
}

/// The fix for what is denied, `Ok("")` when nothing is. A JobManager's or TaskManager's
/// ServiceAccount gets the one plan doctor, lint and triage print (`flink::rbac_fix`: a
/// dedicated account instead of `default`, the component's whole set for its mode and HA, never
/// another owner's Role); other subjects (the operator, you) get a Role (and, for cluster-scoped
/// needs, a ClusterRole) named after them with everything they need, so applying it twice, or
/// after a partial fix, changes nothing and drops nothing. YAML for `kubectl apply -f -`; what
/// must happen besides (switching the deployment to the account) is in comments at the top.
pub fn fix_for(
    report: &Report,
    deployment: Option<&str>,
    caller: Option<&str>,
    known: &Known,
) -> Result<String, String> {
    let mut denied_namespaced = Vec::new();
    let mut denied_cluster = Vec::new();
    let mut all_namespaced = Vec::new();
    let mut all_cluster = Vec::new();
    for (row, cell) in report.cells() {
        let need = (row.group.clone(), row.resource.clone(), cell.verb.clone());
        let cluster_scoped =
            permissions::cluster_scoped(&row.group, &row.resource) || report.namespace.is_empty();
        if cell.allowed == Some(false) {
            if cluster_scoped {
                denied_cluster.push(need.clone());
            } else {
                denied_namespaced.push(need.clone());
            }
        }
        if cluster_scoped {
            all_cluster.push(need);
        } else {
            all_namespaced.push(need);
        }
    }
    if denied_namespaced.is_empty() && denied_cluster.is_empty() {
        return Ok(String::new());
    }
    let grantee = report.grantee.clone().ok_or_else(|| {
        format!(
            "cannot write the fix: the API server did not say who you are{}",
            caller.map(|c| format!(" ({c})")).unwrap_or_default()
        )
    })?;
    let header = format!(
        "# kubectl flink can-i --fix: the {} missing permission{} of {} ({})\n# apply with: kubectl apply -f -\n",
        report.denied(),
        if report.denied() == 1 { "" } else { "s" },
        report.subject_display,
        report.what()
    );
    if let (
        Component::JobManager | Component::TaskManager,
        Grantee::ServiceAccount { namespace, name },
        true,
    ) = (report.component, &grantee, denied_cluster.is_empty())
    {
        let need = Need {
            component: report.component,
            mode: report.mode,
            ha: report.ha.unwrap_or(false),
            refused: denied_namespaced,
            namespace: namespace.clone(),
            service_account: name.clone(),
            workload: match (&report.workload, deployment) {
                (Workload::Unknown, Some(d)) if report.mode == Mode::Native => {
                    Workload::NativeCluster(d.to_string())
                }
                (w, _) => w.clone(),
            },
        };
        let plan = rbac_fix::plan(&need, known);
        let mut out = header;
        if let Some(switch) = &plan.switch {
            out.push_str(&format!(
                "# then switch the deployment to ServiceAccount {}:\n",
                plan.service_account
            ));
            for line in switch.lines() {
                out.push_str(&format!("#   {}\n", line.trim_start_matches("# ")));
            }
        }
        for n in &plan.notes {
            out.push_str(&format!("# {n}\n"));
        }
        out.push_str(&plan.yaml());
        return Ok(out);
    }
    let rules = permissions::merge_rules(&[], &all_namespaced);
    let cluster_rules = permissions::merge_rules(&[], &all_cluster);
    let who = match &grantee {
        Grantee::ServiceAccount { name, .. } => name.clone(),
        Grantee::User(u) => u.clone(),
    };
    let base = format!("kubectl-flink-{}-{who}", report.component.as_str());
    let mut name: String = base
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    name.truncate(200);
    let name = name.trim_end_matches(['-', '.']).to_string();
    let yaml = permissions::fix_yaml(&report.namespace, &name, &grantee, &rules, &cluster_rules);
    Ok(format!("{header}{yaml}"))
}

const ALLOWED: &str = "✓";
const DENIED: &str = "✗";
const UNKNOWN: &str = "?";

fn mark(allowed: Option<bool>) -> &'static str {
    match allowed {
        Some(true) => ALLOWED,
        Some(false) => DENIED,
        None => UNKNOWN,
    }
}

/// The verbs any row needs, in reading order: the matrix's columns.
fn columns(report: &Report) -> Vec<String> {
    let mut verbs: Vec<String> = report.cells().map(|(_, c)| c.verb.clone()).collect();
    verbs.sort_by(|a, b| {
        permissions::verb_rank(a)
            .cmp(&permissions::verb_rank(b))
            .then(a.cmp(b))
    });
    verbs.dedup();
    verbs
}

fn row_method(row: &Row) -> String {
    let mut methods: Vec<Method> = row.cells.iter().map(|c| c.method).collect();
    methods.sort();
    methods.dedup();
    methods
        .iter()
        .map(|m| m.label())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The header lines both text formats share.
fn heading(report: &Report) -> Vec<String> {
    let scope = if report.namespace.is_empty() {
        "all namespaces".to_string()
    } else {
        format!("namespace {}", report.namespace)
    };
    vec![
        format!("kubectl flink can-i: {} in {scope}", report.subject_display),
        format!("  for:     {}", report.what()),
        format!("  subject: from {}", report.source),
    ]
}

/// Denied and unknown cells, grouped by resource and reason: "create, delete pods: <reason>".
fn problems(report: &Report) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    // One reason for every cell that is not allowed (nothing granted at all, typically): one line.
    let mut reasons: Vec<(Option<bool>, &str)> = report
        .cells()
        .filter(|(_, c)| c.allowed != Some(true))
        .map(|(_, c)| (c.allowed, c.reason.as_str()))
        .collect();
    let n = reasons.len();
    reasons.sort();
    reasons.dedup();
    if n > 1 && reasons.len() == 1 {
        let (allowed, reason) = reasons[0];
        let what = if n == report.cells().count() {
            format!("all {n}")
        } else {
            format!("{n} (marked above)")
        };
        out.push((allowed.is_none(), format!("{what}: {reason}")));
        return out;
    }
    for row in &report.rows {
        let mut by_reason: Vec<(Option<bool>, String, Vec<String>)> = Vec::new();
        for c in row.cells.iter().filter(|c| c.allowed != Some(true)) {
            match by_reason
                .iter_mut()
                .find(|(a, r, _)| *a == c.allowed && *r == c.reason)
            {
                Some(e) => e.2.push(c.verb.clone()),
                None => by_reason.push((c.allowed, c.reason.clone(), vec![c.verb.clone()])),
            }
        }
        for (allowed, reason, verbs) in by_reason {
            out.push((
                allowed.is_none(),
                format!("{} {}: {reason}", verbs.join(", "), row.display_resource()),
            ));
        }
    }
    out
}

pub fn render_table(report: &Report, style: &Style, out: &mut dyn Write) -> std::io::Result<()> {
    for (i, line) in heading(report).iter().enumerate() {
        writeln!(
            out,
            "{}",
            if i == 0 {
                style.bold(line)
            } else {
                line.clone()
            }
        )?;
    }
    if report.rows.is_empty() {
        writeln!(out, "\n{}", report.summary())?;
        for n in &report.notes {
            writeln!(out, "note: {n}")?;
        }
        return Ok(());
    }
    let verbs = columns(report);
    let mut table = comfy_table::Table::new();
    table.load_style(comfy_table::presets::NOTHING);
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    let mut header = vec!["RESOURCE".to_string()];
    header.extend(verbs.iter().map(|v| v.to_ascii_uppercase()));
    header.push("METHOD".into());
    header.push("WHY".into());
    table.set_header(header);
    for row in &report.rows {
        let mut cells = vec![row.display_resource()];
        for v in &verbs {
            cells.push(
                row.cells
                    .iter()
                    .find(|c| &c.verb == v)
                    .map(|c| mark(c.allowed))
                    .unwrap_or("")
                    .to_string(),
            );
        }
        cells.push(row_method(row));
        cells.push(row.why.clone());
        table.add_row(cells);
    }
    // Colour after layout: comfy-table would count escape codes as width.
    let mut text = table.to_string();
    if style.color {
        text = text
            .replace(DENIED, &style.bold(DENIED))
            .replace(" ? ", &format!(" {} ", style.dim(UNKNOWN)));
    }
    writeln!(out)?;
    for line in text.lines() {
        writeln!(out, "{}", line.trim_end())?;
    }
    let problems = problems(report);
    if !problems.is_empty() {
        writeln!(out)?;
        for (unknown, p) in problems {
            let label = if unknown { "unknown" } else { "denied" };
            writeln!(
                out,
                "{} {p}",
                if unknown {
                    style.dim(label)
                } else {
                    style.bold(label)
                }
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "{}", report.summary())?;
    for n in &report.notes {
        writeln!(out, "note: {n}")?;
    }
    if report.denied() > 0 && !report.fix_command.is_empty() {
        writeln!(out, "fix: {}", style.code(&report.fix_command))?;
    }
    Ok(())
}

/// The command that prints the fix, as the user typed this one (kubectl's flags, in its spelling).
pub fn fix_command(args: &CanIArgs, kube: &KubeArgs, namespace: &str) -> String {
    let mut cmd = vec!["kubectl flink can-i".to_string()];
    if let Some(n) = &args.name {
        cmd.push(n.clone());
    }
    if let Some(c) = &kube.context {
        cmd.push(format!("--context {c}"));
    }
    if kube.all_namespaces {
        cmd.push("-A".into());
    } else if !namespace.is_empty() {
        cmd.push(format!("-n {namespace}"));
    }
    if args.for_whom != For::Jobmanager {
        cmd.push(format!("--for {}", args.for_whom.component().as_str()));
    }
    if let Some(a) = &kube.as_user {
        cmd.push(format!("--as={a}"));
    }
    for g in &kube.as_group {
        cmd.push(format!("--as-group={g}"));
    }
    cmd.push("--fix | kubectl apply -f -".into());
    cmd.join(" ")
}

pub fn render_markdown(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let head = heading(report);
    writeln!(out, "# {}\n", head[0])?;
    for l in &head[1..] {
        writeln!(out, "- {}", l.trim())?;
    }
    if !report.rows.is_empty() {
        let verbs = columns(report);
        writeln!(out, "\n| resource | {} | method | why |", verbs.join(" | "))?;
        writeln!(out, "|---|{}---|---|", "---|".repeat(verbs.len()))?;
        for row in &report.rows {
            let marks: Vec<&str> = verbs
                .iter()
                .map(|v| {
                    row.cells
                        .iter()
                        .find(|c| &c.verb == v)
                        .map(|c| mark(c.allowed))
                        .unwrap_or("")
                })
                .collect();
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                row.display_resource(),
                marks.join(" | "),
                row_method(row),
                row.why
            )?;
        }
        let problems = problems(report);
        if !problems.is_empty() {
            writeln!(out)?;
            for (unknown, p) in problems {
                writeln!(
                    out,
                    "- **{}** {}",
                    if unknown { "unknown" } else { "denied" },
                    p.replace('|', "\\|")
                )?;
            }
        }
    }
    writeln!(out, "\n{}", report.summary())?;
    for n in &report.notes {
        writeln!(out, "\n> note: {n}")?;
    }
    Ok(())
}

/// `{"version": 1, "subject", "namespace", "decisions": [{group, resource, verb, allowed, method,
/// reason, why}]}`, plus `for`, `mode`, `ha`, `source`, `notes` and, with --fix, `fix`.
pub fn render_json(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    struct Json<'a> {
        version: u32,
        subject: &'a str,
        namespace: &'a str,
        #[serde(rename = "for")]
        for_: &'static str,
        mode: &'static str,
        ha: Option<bool>,
        source: &'a str,
        decisions: Vec<JsonDecision<'a>>,
        notes: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        fix: Option<serde_json::Value>,
    }
    #[derive(serde::Serialize)]
    struct JsonDecision<'a> {
        group: &'a str,
        resource: &'a str,
        verb: &'a str,
        allowed: Option<bool>,
        method: &'static str,
        reason: &'a str,
        why: &'a str,
    }
    let v = Json {
        version: 1,
        subject: &report.subject,
        namespace: &report.namespace,
        for_: report.component.as_str(),
        mode: report.mode.as_str(),
        ha: report.ha,
        source: &report.source,
        decisions: report
            .cells()
            .map(|(row, c)| JsonDecision {
                group: &row.group,
                resource: &row.resource,
                verb: &c.verb,
                allowed: c.allowed,
                method: c.method.id(),
                reason: &c.reason,
                why: &row.why,
            })
            .collect(),
        notes: &report.notes,
        fix: report.fix.as_ref().map(|f| match f {
            Ok(y) => serde_json::Value::String(y.clone()),
            Err(e) => serde_json::json!({ "error": e }),
        }),
    };
    serde_json::to_writer_pretty(&mut *out, &v)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flink::rbac::Attributes;

    fn target() -> Target {
        Target {
            subject: Subject::ServiceAccount {
                namespace: "prod".into(),
                name: "flink".into(),
            },
            source: "spec.serviceAccount of FlinkDeployment orders".into(),
            mode: Mode::Native,
            ha: Some(true),
            notes: Vec::new(),
            workload: Workload::FlinkDeployment("orders".into()),
        }
    }

    /// Decisions for `needs`: denied where `deny(verb, resource)`, by `method`.
    fn decide(
        needs: &[Permission],
        method: Method,
        deny: impl Fn(&str, &str) -> bool,
    ) -> Vec<Decision> {
        questions_for(needs, &target().subject, "prod")
            .into_iter()
            .map(|q| {
                let denied = deny(&q.attrs.verb, &q.attrs.combined_resource());
                Decision {
                    allowed: Some(!denied),
                    method,
                    reason: if denied {
                        "no rule allows it".into()
                    } else {
                        "RBAC: allowed by x".into()
                    },
                    question: q,
                }
            })
            .collect()
    }

    fn report(deny: impl Fn(&str, &str) -> bool) -> Report {
        let needs = permissions::needs(Component::JobManager, Mode::Native, true);
        let d = decide(&needs, Method::Impersonation, deny);
        let mut r = Report::new(&target(), Component::JobManager, "prod", None, &needs, &d);
        r.fix_command = "kubectl flink can-i orders -n prod --fix | kubectl apply -f -".into();
        r
    }

    #[test]
    fn questions_ask_cluster_scoped_resources_without_namespace() {
        let qs = questions_for(permissions::ME, &Subject::Caller, "prod");
        let ns_of = |r: &str| {
            qs.iter()
                .find(|q| q.attrs.resource == r)
                .unwrap()
                .attrs
                .namespace
                .clone()
        };
        assert_eq!(ns_of("pods"), "prod");
        assert_eq!(ns_of("clusterroles"), "");
        assert_eq!(ns_of("subjectaccessreviews"), "");
        let log = qs.iter().find(|q| q.attrs.subresource == "log").unwrap();
        assert_eq!(
            (log.attrs.resource.as_str(), log.attrs.verb.as_str()),
            ("pods", "get")
        );
    }

    #[test]
    fn exit_codes() {
        assert_eq!(report(|_, _| false).exit_code(), 0);
        assert_eq!(report(|v, r| v == "create" && r == "pods").exit_code(), 1);
        let mut r = report(|_, _| false);
        r.rows[0].cells[0].allowed = None;
        assert_eq!(r.exit_code(), 3);
        r.rows[0].cells[1].allowed = Some(false);
        assert_eq!(r.exit_code(), 1);
    }

    #[test]
    fn the_fix_is_the_planner_s_complete_role_and_applies_twice_unchanged() {
        let r = report(|v, r| {
            (r == "pods" && (v == "create" || v == "delete")) || r == "configmaps" && v == "watch"
        });
        let known = Known::default();
        let y = fix_for(&r, Some("orders"), None, &known).unwrap();
        assert!(!y.contains('*'));
        for banned in [
            "cluster-admin",
            "kind: ClusterRole",
            "name: edit",
            "name: admin",
            "name: default",
        ] {
            assert!(!y.contains(banned), "{banned} in {y}");
        }
        let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
        let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            vec!["Role", "RoleBinding"],
            "flink exists: no new account"
        );
        assert_eq!(docs[0]["metadata"]["name"], "flink-jobmanager");
        assert_eq!(docs[0]["metadata"]["namespace"], "prod");
        assert_eq!(
            docs[0]["metadata"]["labels"]["app.kubernetes.io/managed-by"],
            "kubectl-flink"
        );
        let rules = docs[0]["rules"].as_array().unwrap();
        let verbs_of = |res: &str| {
            rules
                .iter()
                .find(|r| r["resources"][0] == res)
                .map(|r| r["verbs"].clone())
                .unwrap_or_default()
        };
        // HA is on for this target: the whole native set, ConfigMaps included.
        assert_eq!(
            verbs_of("pods"),
            serde_json::json!(["get", "list", "watch", "create", "delete"])
        );
        assert!(verbs_of("configmaps")
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("watch")));
        assert_eq!(docs[1]["subjects"][0]["kind"], "ServiceAccount");
        assert_eq!(docs[1]["subjects"][0]["name"], "flink");
        assert_eq!(docs[1]["roleRef"]["name"], docs[0]["metadata"]["name"]);
        // Nothing denied: nothing to apply.
        assert_eq!(
            fix_for(&report(|_, _| false), Some("orders"), None, &known).unwrap(),
            ""
        );
        // Another missing subset gives the same objects: applying after a partial fix, or twice,
        // changes nothing and drops nothing.
        let other = fix_for(
            &report(|v, r| r == "pods" && v == "get"),
            Some("orders"),
            None,
            &known,
        )
        .unwrap();
        let other_docs = crate::snapshot::bundle::parse_documents(&other).unwrap();
        assert_eq!(other_docs, docs);
    }

    #[test]
    fn fix_for_the_caller_binds_the_user_and_cluster_scoped_needs_get_a_cluster_role() {
        let needs = permissions::ME.to_vec();
        let qs = questions_for(&needs, &Subject::Caller, "prod");
        let d: Vec<Decision> = qs
            .into_iter()
            .map(|q| Decision {
                allowed: Some(q.attrs.resource != "clusterroles" && q.attrs.subresource != "log"),
                method: Method::SelfSubjectAccessReview,
                reason: String::new(),
                question: q,
            })
            .collect();
        let t = Target::caller("the caller".into());
        let r = Report::new(&t, Component::Me, "prod", Some("alice"), &needs, &d);
        assert_eq!(r.subject_display, "you (alice)");
        let y = fix_for(&r, None, Some("alice"), &Known::default()).unwrap();
        let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
        let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            vec!["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"]
        );
        // Everything the caller needs, so applying it twice or after a partial fix drops nothing.
        let has = |doc: &serde_json::Value, res: &str| {
            doc["rules"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["resources"][0] == res)
        };
        assert!(has(&docs[0], "pods/log") && has(&docs[0], "events"), "{y}");
        assert!(has(&docs[2], "clusterroles"), "{y}");
        assert_eq!(docs[0]["metadata"]["name"], "kubectl-flink-me-alice");
        assert_eq!(docs[3]["subjects"][0]["kind"], "User");
        assert_eq!(docs[3]["subjects"][0]["name"], "alice");
        // Who the caller is, unknown: no fix, a clear reason.
        let r = Report::new(&t, Component::Me, "prod", None, &needs, &d);
        assert!(fix_for(&r, None, None, &Known::default())
            .unwrap_err()
            .contains("did not say who you are"));
        // A caller that is a ServiceAccount is bound as one.
        assert_eq!(
            grantee_for_user("system:serviceaccount:ci:runner"),
            Grantee::ServiceAccount {
                namespace: "ci".into(),
                name: "runner".into()
            }
        );
    }

    #[test]
    fn table_is_a_matrix_with_methods_and_reasons() {
        let r = report(|v, r| r == "pods" && v == "create");
        let mut out = Vec::new();
        render_table(&r, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("kubectl flink can-i: ServiceAccount prod/flink in namespace prod"),
            "{text}"
        );
        assert!(text.contains("jobmanager, native, HA on"), "{text}");
        let header = text
            .lines()
            .find(|l| l.trim_start().starts_with("RESOURCE"))
            .unwrap();
        for col in [
            "GET", "LIST", "WATCH", "CREATE", "UPDATE", "DELETE", "METHOD", "WHY",
        ] {
            assert!(header.contains(col), "{header}");
        }
        assert!(header.find("GET").unwrap() < header.find("DELETE").unwrap());
        let pods = text
            .lines()
            .find(|l| l.trim_start().starts_with("pods"))
            .unwrap();
        assert_eq!(pods.matches(DENIED).count(), 1, "{pods}");
        assert_eq!(pods.matches(ALLOWED).count(), 4, "{pods}");
        assert!(pods.contains("impersonation + SelfSubjectAccessReview"));
        assert!(text.contains("deployments.apps/finalizers"), "{text}");
        assert!(
            text.contains("denied create pods: no rule allows it"),
            "{text}"
        );
        assert!(text.contains("; 1 denied"), "{text}");
        assert!(text.contains("--fix | kubectl apply -f -"), "{text}");
        assert!(!text.contains('\x1b'));
        let mut coloured = Vec::new();
        render_table(&r, &Style::COLOR, &mut coloured).unwrap();
        assert!(String::from_utf8(coloured).unwrap().contains('\x1b'));
    }

    #[test]
    fn rbac_object_decisions_are_labelled_not_authoritative() {
        let needs = permissions::needs(Component::TaskManager, Mode::Native, true);
        let d = decide(&needs, Method::RbacObjects, |_, _| false);
        let r = Report::new(&target(), Component::TaskManager, "prod", None, &needs, &d);
        let mut out = Vec::new();
        render_table(&r, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("from RBAC objects, not authoritative"),
            "{text}"
        );
        assert_eq!(r.exit_code(), 0);
    }

    #[test]
    fn json_contract() {
        let mut r = report(|v, r| r == "configmaps" && v == "delete");
        r.fix = Some(fix_for(&r, Some("orders"), None, &Known::default()));
        let mut out = Vec::new();
        render_json(&r, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(v["subject"], "system:serviceaccount:prod:flink");
        assert_eq!(v["namespace"], "prod");
        assert_eq!(v["ha"], true);
        let ds = v["decisions"].as_array().unwrap();
        assert_eq!(ds.len(), 5 + 1 + 1 + 6);
        let denied: Vec<_> = ds.iter().filter(|d| d["allowed"] == false).collect();
        assert_eq!(denied.len(), 1);
        assert_eq!(denied[0]["resource"], "configmaps");
        assert_eq!(denied[0]["verb"], "delete");
        assert_eq!(denied[0]["group"], "");
        assert_eq!(denied[0]["method"], "impersonation");
        assert!(denied[0]["why"].as_str().unwrap().contains("HA"));
        assert!(v["fix"].as_str().unwrap().contains("kind: RoleBinding"));
        let finalizers = ds
            .iter()
            .find(|d| d["resource"] == "deployments/finalizers")
            .unwrap();
        assert_eq!(finalizers["group"], "apps");
    }

    #[test]
    fn unknowns_are_null_in_json_and_listed_in_the_table() {
        let mut r = report(|_, _| false);
        r.rows[0].cells[0] = Cell {
            verb: "get".into(),
            allowed: None,
            method: Method::Undecided,
            reason: "could not list rolebindings".into(),
        };
        let mut out = Vec::new();
        render_json(&r, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["decisions"][0]["allowed"], serde_json::Value::Null);
        assert_eq!(v["decisions"][0]["method"], "none");
        let mut out = Vec::new();
        render_table(&r, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("unknown get pods: could not list rolebindings"),
            "{text}"
        );
        assert!(!text.contains("fix:"), "{text}");
    }

    #[test]
    fn nothing_needed_says_so() {
        let t = Target {
            mode: Mode::Standalone,
            ha: Some(false),
            ..target()
        };
        let r = Report::new(&t, Component::JobManager, "prod", None, &[], &[]);
        let mut out = Vec::new();
        render_table(&r, &Style::PLAIN, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("needs nothing from the API server (jobmanager, standalone, HA off)"),
            "{text}"
        );
        assert_eq!(r.exit_code(), 0);
    }

    #[test]
    fn names_are_validated() {
        assert!(valid_name("orders"));
        assert!(valid_name("basic-example"));
        assert!(!valid_name("Orders"));
        assert!(!valid_name("-x"));
        assert!(!valid_name("a b"));
        assert!(!valid_name(""));
    }

    #[test]
    fn decisions_match_rows_by_group_resource_and_subresource() {
        let needs = permissions::ME.to_vec();
        let qs = questions_for(&needs, &Subject::Caller, "prod");
        let d: Vec<Decision> = qs
            .into_iter()
            .map(|q| Decision {
                allowed: Some(
                    !(q.attrs
                        == Attributes {
                            subresource: "log".into(),
                            ..q.attrs.clone()
                        }
                        && q.attrs.resource == "pods"),
                ),
                method: Method::SelfSubjectAccessReview,
                reason: String::new(),
                question: q,
            })
            .collect();
        let t = Target::caller("the caller".into());
        let r = Report::new(&t, Component::Me, "prod", Some("alice"), &needs, &d);
        let pods = r.rows.iter().find(|r| r.resource == "pods").unwrap();
        let log = r.rows.iter().find(|r| r.resource == "pods/log").unwrap();
        assert_eq!(pods.cells[0].allowed, Some(true));
        assert_eq!(log.cells[0].allowed, Some(false));
    }
}

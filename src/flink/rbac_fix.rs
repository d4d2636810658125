//! The one place that decides how to give a Flink component the Kubernetes rights it lacks.
//! `doctor` (FLK501, FLK502, the HA and TaskManager-creation rules), `can-i --fix`, `lint` and
//! `triage` all ask it, so one problem gets one fix; they differ only in how much they know
//! about the namespace (`Known`).
//!
//! The plan is complete for the component, mode and configuration it is given (the native
//! JobManager's pods and owner rights, plus ConfigMaps under Kubernetes HA, plus whatever was
//! seen refused), minimal beyond that, bound to a dedicated ServiceAccount (never `default`),
//! named predictably, safe to apply twice, and never overwrites a Role or RoleBinding it did not
//! create: every object it writes carries `app.kubernetes.io/managed-by: kubectl-flink`, and a name
//! held by another owner is reported and avoided. When the ServiceAccount already has every right
//! (the operator chart's `flink` account and Role), the plan only switches the workload to it.

use super::mode::{Component, Mode};
use super::permissions::{self, Holder};
use crate::shell::{json_arg, nested, sh, yaml};
use std::collections::BTreeMap;

/// The ServiceAccount a plan moves Flink to when it runs as `default` (the operator chart's
/// `jobServiceAccount` name, so namespaces the chart manages already have it).
pub const SERVICE_ACCOUNT: &str = "flink";
/// The label on every object a plan writes; an object without it is someone else's.
pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "kubectl-flink");

/// The Apache operator chart's own names for the operator's Role (or ClusterRole) and its binding:
/// values.yaml's `rbac.operatorRole.name` and `rbac.operatorRoleBinding.name`, the same in every
/// release from 1.4 to 1.15 (apache/flink-kubernetes-operator@release-1.4.0 and
/// @release-1.13.0:helm/flink-kubernetes-operator/values.yaml), which the RoleBinding of each
/// watched namespace and the ClusterRoleBinding take as their names
/// (@release-1.4.0:helm/flink-kubernetes-operator/templates/rbac.yaml,
/// @release-1.13.0:helm/flink-kubernetes-operator/templates/rbac/role_binding.yaml and
/// rbac/cluster_role_binding.yaml). A fix under the same names replaces the chart's objects
/// instead of adding a second binding beside them.
pub const OPERATOR_ROLE: &str = "flink-operator";
pub const OPERATOR_ROLE_BINDING: &str = "flink-operator-role-binding";

/// What runs as the ServiceAccount, to point it at another one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Workload {
    /// Apache operator: `spec.serviceAccount`.
    FlinkDeployment(String),
    /// Flink's native mode: `kubernetes.service-account` when the cluster is started; the running
    /// JobManager Deployment carries the cluster-id as its name.
    NativeCluster(String),
    /// Lyft operator: `spec.serviceAccountName`.
    FlinkApplication(String),
    /// The GCP/Spotify operator's FlinkCluster: `spec.serviceAccountName`.
    FlinkCluster(String),
    /// Not known (a pasted log without its deployment).
    Unknown,
}

/// (service account, group, resource, verb) -> may it, `None` when undecided.
pub type Allows<'a> = &'a dyn Fn(&str, &str, &str, &str) -> Option<bool>;

/// What the planner may know about the namespace; `None` is "not read".
#[derive(Default)]
pub struct Known<'a> {
    /// ServiceAccounts that exist.
    pub service_accounts: Option<Vec<String>>,
    /// Roles and RoleBindings that exist: name -> whether kubectl-flink manages it.
    pub roles: Option<BTreeMap<String, bool>>,
    pub role_bindings: Option<BTreeMap<String, bool>>,
    /// Whether a ServiceAccount may already do something: (service account, group, resource,
    /// verb) -> the authorizer's or the RBAC objects' answer, `None` when undecided.
    pub allows: Option<Allows<'a>>,
}

/// What is to be granted, and to whom.
#[derive(Debug, Clone)]
pub struct Need {
    pub component: Component,
    pub mode: Mode,
    /// Kubernetes HA (ConfigMaps) is on.
    pub ha: bool,
    /// (group, resource, verb) seen refused, granted besides the component's set.
    pub refused: Vec<(String, String, String)>,
    pub namespace: String,
    /// The ServiceAccount the component runs as now.
    pub service_account: String,
    pub workload: Workload,
    /// The API server said the account does not exist (`error looking up service account`):
    /// the plan creates it under its own name, whatever the namespace's list says.
    pub account_missing: bool,
}

/// The fix: objects to apply (possibly none), and how to point the workload at the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RbacPlan {
    /// Where the Role and RoleBinding go; empty for a ClusterRole and ClusterRoleBinding.
    pub namespace: String,
    /// The namespace of the ServiceAccount: `namespace` unless the grant is in another one.
    pub subject_namespace: String,
    pub service_account: String,
    pub create_service_account: bool,
    /// The Role (and RoleBinding of the same name, unless `binding` names it) to apply; `None`
    /// when the account already has every right.
    pub role: Option<String>,
    /// The RoleBinding's name when it is not the Role's: the operator chart's
    /// (`OPERATOR_ROLE_BINDING`).
    pub binding: Option<String>,
    /// (group, resource, verbs) the Role grants.
    pub rules: Vec<(String, String, Vec<String>)>,
    /// The command that switches the workload to the account, when it runs as another one.
    pub switch: Option<String>,
    /// What a person must know: a taken name, the restart a switch causes.
    pub notes: Vec<String>,
    /// (verb, resource as `kubectl auth can-i` takes it) to check afterwards.
    pub checks: Vec<(String, String)>,
    pub workload: Workload,
}

/// Plans the fix for `need`.
pub fn plan(need: &Need, known: &Known) -> RbacPlan {
    let sets = permissions::needs(Holder::Flink(need.component), need.mode, need.ha);
    let rules = permissions::merge_rules(&sets, &need.refused);
    let sa = if need.service_account.is_empty() || need.service_account == "default" {
        SERVICE_ACCOUNT.to_string()
    } else {
        need.service_account.clone()
    };
    let ns = need.namespace.as_str();
    // The account Flink runs as exists (its pods run with it) unless the API server said it
    // does not; another one may not exist yet.
    let create_service_account = (need.account_missing && sa == need.service_account)
        || (sa != need.service_account
            && known
                .service_accounts
                .as_ref()
                .is_none_or(|names| !names.contains(&sa)));
    // Rights bound to the missing account's name (a RoleBinding outlives its subject) hold
    // again once it is created.
    let already = (!create_service_account || need.account_missing)
        && known.allows.is_some_and(|allows| {
            rules
                .iter()
                .all(|(g, r, verbs)| verbs.iter().all(|v| allows(&sa, g, r, v) == Some(true)))
        });
    let mut notes = Vec::new();
    let role = (!already && !rules.is_empty()).then(|| {
        let base = format!("flink-{}", need.component.as_str());
        let taken = |map: &Option<BTreeMap<String, bool>>, name: &str| {
            map.as_ref()
                .is_some_and(|m| m.get(name).is_some_and(|ours| !ours))
        };
        if taken(&known.roles, &base) || taken(&known.role_bindings, &base) {
            let alt = format!("{base}-kubectl-flink");
            notes.push(format!(
                "a Role or RoleBinding named {base} already exists in {ns} and is not kubectl-flink's; this plan leaves it alone and writes {alt}"
            ));
            alt
        } else {
            base
        }
    });
    if already && need.account_missing {
        notes.push(format!(
            "the RoleBindings of {ns} already grant ServiceAccount {sa} every right the {} needs; only the account itself is missing",
            need.component.title()
        ));
    } else if already {
        notes.push(format!(
            "ServiceAccount {ns}/{sa} already has every right the {} needs; only the switch is missing",
            need.component.title()
        ));
    }
    let switch = (sa != need.service_account).then(|| switch_command(&need.workload, ns, &sa));
    if switch.is_some() {
        notes.push(restart_note(&need.workload, &sa));
    }
    let mut checks: Vec<(String, String)> = need
        .refused
        .iter()
        .map(|(g, r, v)| (v.clone(), can_i_resource(g, r)))
        .collect();
    for (g, r, verbs) in &rules {
        if let Some(v) = verbs.iter().find(|v| *v == "watch").or(verbs.first()) {
            let check = (v.clone(), can_i_resource(g, r));
            if !checks.contains(&check) && !r.contains('/') {
                checks.push(check);
            }
        }
    }
    RbacPlan {
        namespace: need.namespace.clone(),
        subject_namespace: need.namespace.clone(),
        service_account: sa,
        create_service_account,
        role,
        binding: None,
        rules,
        switch,
        notes,
        checks,
        workload: need.workload.clone(),
    }
}

/// A grant to an account where it is not its own namespace's Flink: a Flink process refused in
/// another namespace (a ConfigMap or Secret it reads there), or the operator refused in a
/// namespace it should manage. The account keeps its name (nothing is switched); a Role in
/// `namespace` (a ClusterRole when `namespace` is empty: the operator watching every namespace)
/// grants what the component needs there and what was refused, bound to the account in
/// `subject_namespace`. For the operator that is its chart's rules (`permissions::OPERATOR`);
/// for Flink, only what was refused (its own set belongs to its own namespace). Names as `plan`
/// gives them (the operator chart's `flink-operator` and `flink-operator-role-binding`;
/// `flink-jobmanager-<subject namespace>` across namespaces), and a name held by another owner
/// is avoided the same way.
pub fn plan_grant(
    component: Component,
    mode: Mode,
    subject_namespace: &str,
    service_account: &str,
    namespace: &str,
    refused: &[(String, String, String)],
    known: &Known,
) -> RbacPlan {
    let sets = match component {
        Component::Operator => permissions::needs(Holder::Flink(component), mode, false),
        _ => Vec::new(),
    };
    let rules = permissions::merge_rules(&sets, refused);
    let mut notes = Vec::new();
    // The operator's under its chart's names (its binding's is not its Role's).
    let (base, base_binding) = match component {
        Component::Operator => (OPERATOR_ROLE.to_string(), Some(OPERATOR_ROLE_BINDING)),
        _ => (
            format!("flink-{}-{}", component.as_str(), subject_namespace),
            None,
        ),
    };
    let taken = |map: &Option<BTreeMap<String, bool>>, name: &str| {
        map.as_ref()
            .is_some_and(|m| m.get(name).is_some_and(|ours| !ours))
    };
    let where_ = if namespace.is_empty() {
        "the cluster".to_string()
    } else {
        namespace.to_string()
    };
    let binding_base = base_binding.unwrap_or(&base).to_string();
    let (role, binding) = if taken(&known.roles, &base)
        || taken(&known.role_bindings, &binding_base)
    {
        let alt = format!("{base}-kubectl-flink");
        let named = if binding_base == base {
            base
        } else {
            format!("{base} (or a RoleBinding named {binding_base})")
        };
        notes.push(format!(
            "a Role or RoleBinding named {named} already exists in {where_} and is not kubectl-flink's; this plan leaves it alone and writes {alt}"
        ));
        (alt, None)
    } else {
        (base, base_binding.map(str::to_string))
    };
    let mut checks: Vec<(String, String)> = refused
        .iter()
        .map(|(g, r, v)| (v.clone(), can_i_resource(g, r)))
        .collect();
    if component == Component::Operator {
        let check = (
            "list".to_string(),
            can_i_resource(super::names::GROUP, "flinkdeployments"),
        );
        if !checks.contains(&check) {
            checks.push(check);
        }
    }
    RbacPlan {
        namespace: namespace.to_string(),
        subject_namespace: subject_namespace.to_string(),
        service_account: service_account.to_string(),
        create_service_account: false,
        role: Some(role),
        binding,
        rules,
        switch: None,
        notes,
        checks,
        workload: Workload::Unknown,
    }
}

impl RbacPlan {
    /// The objects to apply, as one YAML stream (`kubectl apply -f -`); empty when none.
    pub fn yaml(&self) -> String {
        // Values as YAML scalars: a bundle's names are someone else's text (`shell::yaml`).
        let ns = yaml(&self.namespace);
        let subject_ns = yaml(&self.subject_namespace);
        let sa = yaml(&self.service_account);
        // A ClusterRole and ClusterRoleBinding when the grant is cluster-wide.
        let (cluster, in_ns) = if self.namespace.is_empty() {
            ("Cluster", String::new())
        } else {
            ("", format!("  namespace: {ns}\n"))
        };
        let labels = format!("  labels:\n    {}: {}\n", MANAGED_BY.0, MANAGED_BY.1);
        let mut docs = Vec::new();
        if self.create_service_account {
            docs.push(format!(
                "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {sa}\n  namespace: {ns}\n{labels}"
            ));
        }
        if let Some(role) = &self.role {
            let role = yaml(role);
            let mut rules = String::new();
            for (group, resource, verbs) in &self.rules {
                rules.push_str(&format!(
                    "  - apiGroups: [{}]\n    resources: [{}]\n    verbs: [{}]\n",
                    json_str(group),
                    json_str(resource),
                    flow_list(verbs)
                ));
            }
            docs.push(format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: {cluster}Role\nmetadata:\n  name: {role}\n{in_ns}{labels}rules:\n{rules}"
            ));
            let binding = self.binding.as_deref().map_or(role.clone(), yaml);
            docs.push(format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: {cluster}RoleBinding\nmetadata:\n  name: {binding}\n{in_ns}{labels}roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: {cluster}Role\n  name: {role}\nsubjects:\n  - kind: ServiceAccount\n    name: {sa}\n    namespace: {subject_ns}\n"
            ));
        }
        docs.join("---\n")
    }

    /// The fix as commands: the apply (a heredoc), then the switch, then the notes as comments.
    pub fn commands(&self) -> String {
        let mut out = String::new();
        let yaml = self.yaml();
        if !yaml.is_empty() {
            out.push_str(&format!("kubectl apply -f - <<'EOF'\n{yaml}EOF\n"));
        }
        if let Some(s) = &self.switch {
            out.push_str(s);
            out.push('\n');
        }
        for n in &self.notes {
            out.push_str(&format!("# {n}\n"));
        }
        out
    }

    /// `kubectl auth can-i` for what the plan is for, as the account it moves Flink to.
    pub fn verify(&self) -> String {
        let switched = match (&self.switch, &self.workload) {
            (Some(_), Workload::FlinkDeployment(name)) => Some(format!(
                "kubectl get flinkdeployment {} -n {} -o jsonpath='{{.spec.serviceAccount}}'   # expect: {}",
                sh(name),
                sh(&self.namespace),
                sh(&self.service_account)
            )),
            _ => None,
        };
        self.checks
            .iter()
            .map(|(verb, resource)| {
                let scope = if self.namespace.is_empty() {
                    "-A".to_string()
                } else {
                    format!("-n {}", sh(&self.namespace))
                };
                format!(
                    "kubectl auth can-i {} {} {scope} --as=system:serviceaccount:{}:{}   # expect: yes",
                    sh(verb),
                    sh(resource),
                    sh(&self.subject_namespace),
                    sh(&self.service_account)
                )
            })
            .chain(switched)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn switch_command(workload: &Workload, ns: &str, sa_name: &str) -> String {
    let ns = sh(ns);
    let sa = sh(sa_name);
    let patch = |path: &[&str]| json_arg(&nested(path, serde_json::json!(sa_name)));
    match workload {
        Workload::FlinkDeployment(name) => format!(
            "kubectl patch flinkdeployment {} -n {ns} --type=merge -p {}",
            sh(name),
            patch(&["spec", "serviceAccount"])
        ),
        Workload::FlinkApplication(name) => format!(
            "kubectl patch flinkapplication {} -n {ns} --type=merge -p {}",
            sh(name),
            patch(&["spec", "serviceAccountName"])
        ),
        Workload::FlinkCluster(name) => format!(
            "kubectl patch flinkcluster {} -n {ns} --type=merge -p {}",
            sh(name),
            patch(&["spec", "serviceAccountName"])
        ),
        Workload::NativeCluster(id) => format!(
            "kubectl patch deployment {} -n {ns} -p {}\n# and start the cluster with -Dkubernetes.service-account={sa} from now on (kubernetes-session.sh, flink run-application)",
            sh(id),
            patch(&["spec", "template", "spec", "serviceAccountName"])
        ),
        Workload::Unknown => format!(
            "# point the Flink deployment at ServiceAccount {sa}: spec.serviceAccount (FlinkDeployment), spec.serviceAccountName (FlinkApplication) or -Dkubernetes.service-account={sa} (native mode)"
        ),
    }
}

fn restart_note(workload: &Workload, sa: &str) -> String {
    match workload {
        Workload::FlinkDeployment(_) => format!(
            "switching spec.serviceAccount to {sa} makes the operator redeploy: the JobManager and TaskManager pods restart (the job resumes per its upgradeMode)"
        ),
        Workload::FlinkApplication(_) => format!(
            "switching the account to {sa} makes the operator roll the cluster: the pods restart"
        ),
        Workload::FlinkCluster(_) => format!(
            "switching spec.serviceAccountName to {sa} makes the operator update its StatefulSets: the JobManager and TaskManager pods restart"
        ),
        Workload::NativeCluster(_) => format!(
            "the patch restarts the JobManager pod as {sa}; TaskManagers it creates use kubernetes.taskmanager.service-account (or kubernetes.service-account)"
        ),
        Workload::Unknown => format!("the pods restart when they switch to {sa}"),
    }
}

/// Verbs as a YAML flow list's items, continued on a line of their own (indented under
/// `verbs:`) past 64 columns, so a Role with every verb stays readable at 80 columns.
fn flow_list(items: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for (i, item) in items.iter().enumerate() {
        let word = json_str(item);
        if i > 0 {
            if line + word.len() + 2 > 64 {
                out.push_str(",\n      ");
                line = 0;
            } else {
                out.push_str(", ");
                line += 2;
            }
        }
        out.push_str(&word);
        line += word.len();
    }
    out
}

/// A string as a JSON (and YAML flow) scalar.
fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The resource as `kubectl auth can-i` takes it: `pods`, `deployments.apps`, and a subresource
/// as a flag (`pods --subresource=log`), since `pods/log` would name a pod called `log`.
fn can_i_resource(group: &str, resource: &str) -> String {
    let (res, sub) = match resource.split_once('/') {
        Some((r, s)) => (r, Some(s)),
        None => (resource, None),
    };
    let qualified = if group.is_empty() {
        res.to_string()
    } else {
        format!("{res}.{group}")
    };
    match sub {
        Some(s) => format!("{qualified} --subresource={s}"),
        None => qualified,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(sa: &str, ha: bool, refused: &[(&str, &str, &str)]) -> Need {
        Need {
            component: Component::JobManager,
            mode: Mode::Native,
            ha,
            refused: refused
                .iter()
                .map(|(g, r, v)| (g.to_string(), r.to_string(), v.to_string()))
                .collect(),
            namespace: "analytics".into(),
            service_account: sa.into(),
            workload: Workload::FlinkDeployment("orders".into()),
            account_missing: false,
        }
    }

    #[test]
    fn default_moves_to_a_dedicated_account_with_the_full_native_set() {
        let p = plan(
            &need("default", false, &[("", "pods", "watch")]),
            &Known::default(),
        );
        assert_eq!(p.service_account, "flink");
        assert!(p.create_service_account);
        assert_eq!(p.role.as_deref(), Some("flink-jobmanager"));
        let pods = p.rules.iter().find(|(_, r, _)| r == "pods").unwrap();
        for v in ["get", "list", "watch", "create", "delete"] {
            assert!(pods.2.iter().any(|x| x == v), "{v}");
        }
        assert!(!p.rules.iter().any(|(_, r, _)| r == "configmaps"));
        assert!(p
            .switch
            .as_deref()
            .unwrap()
            .contains("\"serviceAccount\":\"flink\""));
        assert!(p.notes.iter().any(|n| n.contains("restart")));
        assert!(p
            .yaml()
            .contains("app.kubernetes.io/managed-by: kubectl-flink"));
        assert!(!p.yaml().contains("name: default"));
    }

    #[test]
    fn kubernetes_ha_adds_configmaps() {
        let p = plan(&need("default", true, &[]), &Known::default());
        let cm = p.rules.iter().find(|(_, r, _)| r == "configmaps").unwrap();
        assert!(cm.2.iter().any(|v| v == "watch") && cm.2.iter().any(|v| v == "update"));
    }

    #[test]
    fn an_account_with_every_right_only_needs_the_switch() {
        let allows = |_: &str, _: &str, _: &str, _: &str| Some(true);
        let known = Known {
            service_accounts: Some(vec!["flink".into()]),
            allows: Some(&allows),
            ..Default::default()
        };
        let p = plan(&need("default", false, &[]), &known);
        assert_eq!(p.yaml(), "");
        assert!(p.role.is_none());
        assert!(p.switch.is_some());
    }

    #[test]
    fn a_name_held_by_another_owner_is_reported_and_avoided() {
        let mut roles = BTreeMap::new();
        roles.insert("flink-jobmanager".to_string(), false);
        let known = Known {
            roles: Some(roles),
            ..Default::default()
        };
        let p = plan(&need("default", false, &[]), &known);
        assert_eq!(p.role.as_deref(), Some("flink-jobmanager-kubectl-flink"));
        assert!(p.notes.iter().any(|n| n.contains("not kubectl-flink's")));
        // Its own earlier Role is reused (apply is idempotent).
        let mut ours = BTreeMap::new();
        ours.insert("flink-jobmanager".to_string(), true);
        let known = Known {
            roles: Some(ours),
            ..Default::default()
        };
        assert_eq!(
            plan(&need("default", false, &[]), &known).role.as_deref(),
            Some("flink-jobmanager")
        );
    }

    #[test]
    fn a_dedicated_account_keeps_its_name_and_needs_no_switch() {
        let p = plan(&need("orders-sa", false, &[]), &Known::default());
        assert_eq!(p.service_account, "orders-sa");
        assert!(p.switch.is_none());
        assert!(p
            .verify()
            .contains("--as=system:serviceaccount:analytics:orders-sa"));
    }

    #[test]
    fn a_flinkcluster_switches_its_service_account_in_its_own_spec() {
        let cmd = switch_command(&Workload::FlinkCluster("wc".into()), "stream", "flink");
        assert_eq!(
            cmd,
            "kubectl patch flinkcluster wc -n stream --type=merge -p '{\"spec\":{\"serviceAccountName\":\"flink\"}}'"
        );
        assert!(
            restart_note(&Workload::FlinkCluster("wc".into()), "flink").contains("StatefulSets")
        );
    }

    #[test]
    fn a_missing_account_is_created_under_its_own_name_with_its_role() {
        let mut n = need("orders-sa", false, &[]);
        n.account_missing = true;
        let p = plan(&n, &Known::default());
        assert!(p.create_service_account);
        assert_eq!(p.service_account, "orders-sa");
        assert!(p.switch.is_none(), "the spec already names it");
        let yaml = p.yaml();
        assert!(yaml.contains("kind: ServiceAccount\nmetadata:\n  name: orders-sa\n"));
        assert!(yaml.contains("kind: RoleBinding") && yaml.contains("name: orders-sa"));
        // Its RoleBinding outlived it: only the account.
        let allows = |_: &str, _: &str, _: &str, _: &str| Some(true);
        let known = Known {
            service_accounts: Some(vec![]),
            allows: Some(&allows),
            ..Default::default()
        };
        let p = plan(&n, &known);
        assert!(p.create_service_account && p.role.is_none());
        assert!(p
            .notes
            .iter()
            .any(|x| x.contains("only the account itself is missing")));
    }

    /// The operator's grant takes its chart's names: the Role (or ClusterRole) `flink-operator`
    /// and the binding `flink-operator-role-binding`, so that applying it replaces the chart's
    /// binding instead of adding a second one beside it (a binding is its own object, whatever
    /// it binds). When the chart's binding is held by another owner, both names move aside.
    #[test]
    fn the_operators_grant_takes_its_charts_role_and_binding_names() {
        let grant = |namespace: &str, known: &Known| {
            plan_grant(
                Component::Operator,
                Mode::Operator,
                "flink-operator",
                "flink-operator",
                namespace,
                &[],
                known,
            )
        };
        let watched = grant("prod", &Known::default()).yaml();
        assert!(
            watched.contains("kind: Role\nmetadata:\n  name: flink-operator\n  namespace: prod\n"),
            "{watched}"
        );
        assert!(
            watched.contains(
                "kind: RoleBinding\nmetadata:\n  name: flink-operator-role-binding\n  namespace: prod\n"
            ),
            "{watched}"
        );
        assert!(
            watched.contains("roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: flink-operator\n"),
            "{watched}"
        );
        let everywhere = grant("", &Known::default()).yaml();
        assert!(
            everywhere.contains(
                "kind: ClusterRoleBinding\nmetadata:\n  name: flink-operator-role-binding\n"
            ),
            "{everywhere}"
        );
        // Flink's own grants keep one name for both.
        let flink = plan_grant(
            Component::JobManager,
            Mode::Operator,
            "analytics",
            "flink",
            "shared",
            &[("".into(), "configmaps".into(), "get".into())],
            &Known::default(),
        );
        assert_eq!(flink.binding, None);
        assert!(flink
            .yaml()
            .contains("kind: RoleBinding\nmetadata:\n  name: flink-jobmanager-analytics\n"));
        // The chart's binding, not kubectl-flink's: left alone, both names moved aside.
        let mut bindings = BTreeMap::new();
        bindings.insert(OPERATOR_ROLE_BINDING.to_string(), false);
        let known = Known {
            roles: Some(BTreeMap::new()),
            role_bindings: Some(bindings),
            ..Default::default()
        };
        let p = grant("prod", &known);
        assert_eq!(p.role.as_deref(), Some("flink-operator-kubectl-flink"));
        let yaml = p.yaml();
        assert!(
            yaml.contains("kind: RoleBinding\nmetadata:\n  name: flink-operator-kubectl-flink\n"),
            "{yaml}"
        );
        assert!(
            !yaml.contains("name: flink-operator-role-binding"),
            "{yaml}"
        );
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("flink-operator-role-binding")),
            "{:?}",
            p.notes
        );
    }
}

//! What can-i found: the resources x verbs matrix, its verdict, and the fix.

use super::{Decision, Method, Subject};
use crate::flink::mode::{Component, Mode};
use crate::flink::permissions::{self, Grantee, Holder, Permission};
use crate::flink::rbac_fix::{self, Known, Need, Workload};

/// Whose access can-i checks (the subject, and how it was found) and what decides the permission
/// set it needs.
#[derive(Debug, Clone)]
pub struct Principal {
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

impl Principal {
    /// `--for me`: the caller, who needs what doctor reads (no Flink mode or HA involved).
    pub fn caller(source: String) -> Self {
        Principal {
            subject: Subject::Caller,
            source,
            mode: Mode::Native,
            ha: Some(false),
            notes: Vec::new(),
            workload: Workload::Unknown,
        }
    }
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
pub struct AccessReport {
    /// The user name the authorizer sees ("system:serviceaccount:ns:sa"), or the caller's.
    pub subject: String,
    pub subject_display: String,
    pub grantee: Option<Grantee>,
    pub source: String,
    pub holder: Holder,
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

impl AccessReport {
    pub fn new(
        principal: &Principal,
        holder: Holder,
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
        let (subject, subject_display, grantee) = match &principal.subject {
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
                principal.subject.to_string(),
                Some(Grantee::ServiceAccount {
                    namespace: sa_ns.clone(),
                    name: name.clone(),
                }),
            ),
            Subject::User { name, .. } => (
                name.clone(),
                principal.subject.to_string(),
                Some(Grantee::User(name.clone())),
            ),
        };
        let mut notes = principal.notes.clone();
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
        AccessReport {
            subject,
            subject_display,
            grantee,
            source: principal.source.clone(),
            holder,
            mode: principal.mode,
            ha: principal.ha,
            namespace: namespace.to_string(),
            rows,
            notes,
            fix: None,
            fix_command: String::new(),
            workload: principal.workload.clone(),
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = (&Row, &Cell)> {
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

    /// "jobmanager, native, HA on".
    pub fn what(&self) -> String {
        match self.holder {
            Holder::Me => "me (kubectl flink doctor)".to_string(),
            Holder::Flink(Component::Operator) => format!(
                "operator ({})",
                match self.mode {
                    Mode::Lyft => "Lyft",
                    Mode::FlinkCluster => "FlinkCluster, config/rbac/role.yaml rules",
                    _ => "Apache, Helm chart rules",
                }
            ),
            Holder::Flink(c) => format!(
                "{}, {}, HA {}",
                c.as_str(),
                permissions::set_name(self.mode),
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

pub fn grantee_for_user(name: &str) -> Grantee {
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
    report: &AccessReport,
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
        Holder::Flink(component @ (Component::JobManager | Component::TaskManager)),
        Grantee::ServiceAccount { namespace, name },
        true,
    ) = (report.holder, &grantee, denied_cluster.is_empty())
    {
        let need = Need {
            component,
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
            account_missing: false,
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
    let base = format!("kubectl-flink-{}-{who}", report.holder.as_str());
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

//! Who may do what, computed from RBAC objects: the offline stand-in for the API server's
//! authorizer, used when a bundle carries Roles and bindings, or when access reviews are not
//! allowed. Live diagnoses prefer the authorizer's own answer (`Snapshot::access_reviews`,
//! `cluster::access`).
//!
//! The evaluation follows Kubernetes' RBAC authorizer (`plugin/pkg/auth/authorizer/rbac`):
//! ClusterRoleBindings apply everywhere, RoleBindings only in their namespace and never to
//! cluster-scoped requests; `*` matches any verb, group or resource (subresources included);
//! `pods` does not match `pods/log`, `*/log` does; a rule with `resourceNames` only matches a
//! request for one of those names, so it never grants list, watch or create on the collection.
//! Aggregated ClusterRoles are evaluated with the rules the aggregation controller would write
//! (the union of the rules of the ClusterRoles their selectors match), not their stored rules:
//! the two agree on a healthy cluster, and differ where no controller-manager runs.

use k8s_openapi::api::rbac::v1::{
    ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use std::collections::BTreeMap;

/// A request to authorize, in SubjectAccessReview terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    pub namespace: &'a str,
    pub service_account: &'a str,
    pub verb: &'a str,
    pub group: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
}

/// Whether the ServiceAccount may do this under `policy`.
pub fn allows(policy: &Policy, req: &Request) -> bool {
    let user = UserInfo::service_account(req.namespace, req.service_account);
    let attrs = Attributes {
        namespace: req.namespace.to_string(),
        verb: req.verb.to_string(),
        group: req.group.to_string(),
        resource: req.resource.to_string(),
        subresource: req.subresource.to_string(),
        name: String::new(),
    };
    policy.evaluate(&user, &attrs).allowed
}

/// The identity the authorizer sees: a user name and its groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserInfo {
    pub name: String,
    pub groups: Vec<String>,
}

impl UserInfo {
    /// A ServiceAccount as the API server authenticates it: user `system:serviceaccount:NS:NAME`
    /// in groups `system:serviceaccounts`, `system:serviceaccounts:NS` and `system:authenticated`.
    pub fn service_account(namespace: &str, name: &str) -> Self {
        UserInfo {
            name: format!("system:serviceaccount:{namespace}:{name}"),
            groups: vec![
                "system:serviceaccounts".into(),
                format!("system:serviceaccounts:{namespace}"),
                "system:authenticated".into(),
            ],
        }
    }

    /// A user with the given groups, plus `system:authenticated` as every authenticated user has.
    pub fn user(name: &str, groups: &[String]) -> Self {
        let mut groups = groups.to_vec();
        if !groups.iter().any(|g| g == "system:authenticated") {
            groups.push("system:authenticated".into());
        }
        UserInfo {
            name: name.to_string(),
            groups,
        }
    }

    /// `(namespace, name)` when the user is a ServiceAccount.
    pub fn service_account_parts(&self) -> Option<(&str, &str)> {
        let rest = self.name.strip_prefix("system:serviceaccount:")?;
        let (ns, name) = rest.split_once(':')?;
        (!ns.is_empty() && !name.is_empty() && !name.contains(':')).then_some((ns, name))
    }
}

/// What is asked, in authorizer terms. `namespace` empty: a cluster-scoped request (or all
/// namespaces); `name` empty: the collection (list, watch, create) or any object.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Attributes {
    pub namespace: String,
    pub verb: String,
    pub group: String,
    pub resource: String,
    pub subresource: String,
    pub name: String,
}

impl Attributes {
    /// `pods`, or `pods/log` for a subresource.
    pub fn combined_resource(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.clone()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }
}

/// The authorizer's answer, computed: whether it is allowed and why (which binding granted it,
/// or what came close).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    pub allowed: bool,
    pub reason: String,
    /// When denied: what came close (a rule without the verb, limited by resourceNames, for the
    /// resource but not the subresource; a binding to a missing role), at most three.
    pub hints: Vec<String>,
}

/// RBAC objects to evaluate against, with aggregated ClusterRoles resolved.
#[derive(Debug, Clone)]
pub struct Policy<'a> {
    roles: &'a [Role],
    role_bindings: &'a [RoleBinding],
    cluster_roles: &'a [ClusterRole],
    cluster_role_bindings: &'a [ClusterRoleBinding],
    /// The rules of each ClusterRole with an aggregationRule, as the controller would write them.
    aggregated: BTreeMap<String, Vec<PolicyRule>>,
}

impl<'a> Policy<'a> {
    pub fn new(
        roles: &'a [Role],
        role_bindings: &'a [RoleBinding],
        cluster_roles: &'a [ClusterRole],
        cluster_role_bindings: &'a [ClusterRoleBinding],
    ) -> Self {
        Policy {
            roles,
            role_bindings,
            cluster_roles,
            cluster_role_bindings,
            aggregated: aggregate(cluster_roles),
        }
    }

    /// Whether `user` may do `attrs`: the first binding that applies to the user and whose role
    /// has a matching rule allows it (RBAC only allows; nothing denies).
    pub fn evaluate(&self, user: &UserInfo, attrs: &Attributes) -> Evaluation {
        let mut hints: Vec<String> = Vec::new();
        for b in self.cluster_role_bindings {
            let bname = b.metadata.name.as_deref().unwrap_or("");
            let Some(subject) = applies_to(user, b.subjects.as_deref().unwrap_or(&[]), "") else {
                continue;
            };
            let what = format!("ClusterRoleBinding \"{bname}\"");
            if let Some(reason) =
                self.check_ref(&b.role_ref, None, attrs, &what, subject, &mut hints)
            {
                return Evaluation {
                    allowed: true,
                    reason,
                    hints: Vec::new(),
                };
            }
        }
        if !attrs.namespace.is_empty() {
            for b in self
                .role_bindings
                .iter()
                .filter(|b| b.metadata.namespace.as_deref() == Some(attrs.namespace.as_str()))
            {
                let bname = b.metadata.name.as_deref().unwrap_or("");
                let Some(subject) =
                    applies_to(user, b.subjects.as_deref().unwrap_or(&[]), &attrs.namespace)
                else {
                    continue;
                };
                let what = format!("RoleBinding \"{bname}/{}\"", attrs.namespace);
                if let Some(reason) = self.check_ref(
                    &b.role_ref,
                    Some(&attrs.namespace),
                    attrs,
                    &what,
                    subject,
                    &mut hints,
                ) {
                    return Evaluation {
                        allowed: true,
                        reason,
                        hints: Vec::new(),
                    };
                }
            }
        }
        let scope = if attrs.namespace.is_empty() {
            "at cluster scope".to_string()
        } else {
            format!("in namespace \"{}\"", attrs.namespace)
        };
        let mut reason = format!("no RBAC rule bound to \"{}\" allows it {scope}", user.name);
        hints.dedup();
        hints.truncate(3);
        for h in &hints {
            reason.push_str("; ");
            reason.push_str(h);
        }
        Evaluation {
            allowed: false,
            reason,
            hints,
        }
    }

    /// The reason it is allowed when the role a binding refers to has a matching rule; otherwise
    /// `None`, with near misses added to `hints`.
    fn check_ref(
        &self,
        role_ref: &RoleRef,
        binding_ns: Option<&str>,
        attrs: &Attributes,
        binding: &str,
        subject: &Subject,
        hints: &mut Vec<String>,
    ) -> Option<String> {
        let (role_desc, rules, aggregation_note): (
            String,
            Option<&[PolicyRule]>,
            Option<&[PolicyRule]>,
        ) = match (role_ref.kind.as_str(), binding_ns) {
            ("Role", Some(ns)) => {
                let role = self.roles.iter().find(|r| {
                    r.metadata.namespace.as_deref() == Some(ns)
                        && r.metadata.name.as_deref() == Some(&role_ref.name)
                });
                (
                    format!("Role \"{}\"", role_ref.name),
                    role.map(|r| r.rules.as_deref().unwrap_or(&[])),
                    None,
                )
            }
            ("ClusterRole", _) => {
                let role = self
                    .cluster_roles
                    .iter()
                    .find(|r| r.metadata.name.as_deref() == Some(&role_ref.name));
                match (role, self.aggregated.get(&role_ref.name)) {
                    (Some(r), Some(computed)) => (
                        format!("ClusterRole \"{}\"", role_ref.name),
                        Some(computed.as_slice()),
                        Some(r.rules.as_deref().unwrap_or(&[])),
                    ),
                    (Some(r), None) => (
                        format!("ClusterRole \"{}\"", role_ref.name),
                        Some(r.rules.as_deref().unwrap_or(&[])),
                        None,
                    ),
                    (None, _) => (format!("ClusterRole \"{}\"", role_ref.name), None, None),
                }
            }
            _ => return None,
        };
        let Some(rules) = rules else {
            hints.push(format!(
                "{binding} refers to {role_desc}, which does not exist"
            ));
            return None;
        };
        if rules.iter().any(|r| rule_allows(r, attrs)) {
            let mut reason = format!(
                "RBAC: allowed by {binding} of {role_desc} to {} \"{}\"",
                subject.kind,
                subject_name(subject, binding_ns)
            );
            if let Some(stored) = aggregation_note {
                if !stored.iter().any(|r| rule_allows(r, attrs)) {
                    reason.push_str(
                        " (through its aggregationRule; its stored rules do not include it yet, so the \
                         API server denies it until the aggregation controller fills them)",
                    );
                } else {
                    reason.push_str(" (through its aggregationRule)");
                }
            }
            return Some(reason);
        }
        for r in rules {
            if let Some(h) = near_miss(r, attrs) {
                hints.push(format!("{role_desc} (bound by {binding}) {h}"));
            }
        }
        None
    }
}

fn subject_name(s: &Subject, binding_ns: Option<&str>) -> String {
    if s.kind == "ServiceAccount" {
        let ns = s
            .namespace
            .as_deref()
            .filter(|n| !n.is_empty())
            .or(binding_ns)
            .unwrap_or("");
        format!("{}/{}", s.name, ns)
    } else {
        s.name.clone()
    }
}

/// The first subject of a binding that applies to the user (`binding_ns` defaults the namespace of
/// ServiceAccount subjects, as the API server does).
fn applies_to<'s>(
    user: &UserInfo,
    subjects: &'s [Subject],
    binding_ns: &str,
) -> Option<&'s Subject> {
    subjects.iter().find(|sub| match sub.kind.as_str() {
        "ServiceAccount" => {
            let ns = sub
                .namespace
                .as_deref()
                .filter(|n| !n.is_empty())
                .unwrap_or(binding_ns);
            !ns.is_empty() && user.name == format!("system:serviceaccount:{ns}:{}", sub.name)
        }
        "User" => user.name == sub.name,
        "Group" => user.groups.contains(&sub.name),
        _ => false,
    })
}

/// Whether one rule allows the request, exactly as `rbac.RuleAllows` decides it.
pub fn rule_allows(rule: &PolicyRule, attrs: &Attributes) -> bool {
    verb_matches(rule, &attrs.verb)
        && group_matches(rule, &attrs.group)
        && resource_matches(rule, &attrs.combined_resource(), &attrs.subresource)
        && resource_name_matches(rule, &attrs.name)
}

fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    rule.verbs.iter().any(|v| v == "*" || v == verb)
}

fn group_matches(rule: &PolicyRule, group: &str) -> bool {
    rule.api_groups
        .iter()
        .flatten()
        .any(|g| g == "*" || g == group)
}

fn resource_matches(rule: &PolicyRule, combined: &str, subresource: &str) -> bool {
    rule.resources.iter().flatten().any(|r| {
        r == "*"
            || r == combined
            || (!subresource.is_empty()
                && r.len() == subresource.len() + 2
                && r.starts_with("*/")
                && r.ends_with(subresource))
    })
}

fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    match rule.resource_names.as_deref() {
        None | Some([]) => true,
        Some(names) => names.iter().any(|n| n == name),
    }
}

/// Why a rule that looks right does not allow the request, for the denial reason.
fn near_miss(rule: &PolicyRule, attrs: &Attributes) -> Option<String> {
    let combined = attrs.combined_resource();
    let group_ok = group_matches(rule, &attrs.group);
    let resource_ok = resource_matches(rule, &combined, &attrs.subresource);
    let verb_ok = verb_matches(rule, &attrs.verb);
    let names = rule.resource_names.as_deref().unwrap_or(&[]);
    if group_ok && resource_ok && verb_ok && !resource_name_matches(rule, &attrs.name) {
        return Some(format!(
            "grants \"{combined}\" only for resourceNames [{}], which never covers {}",
            names.join(", "),
            if attrs.name.is_empty() {
                "the whole collection (list, watch, create)".to_string()
            } else {
                format!("\"{}\"", attrs.name)
            }
        ));
    }
    if group_ok
        && verb_ok
        && !attrs.subresource.is_empty()
        && rule
            .resources
            .iter()
            .flatten()
            .any(|r| *r == attrs.resource)
    {
        return Some(format!(
            "allows \"{}\" but not its subresource \"{combined}\", which needs its own rule",
            attrs.resource
        ));
    }
    if group_ok && resource_ok && !verb_ok {
        return Some(format!(
            "allows only {} on \"{combined}\"",
            rule.verbs.join(", ")
        ));
    }
    None
}

/// The rules the ClusterRole aggregation controller would write into each ClusterRole that has an
/// aggregationRule: the union, in order and without duplicates, of the rules of every other
/// ClusterRole one of its selectors matches (sorted by name). Aggregated roles that select
/// aggregated roles see those roles' aggregated rules, as the controller converges to.
pub fn aggregate(cluster_roles: &[ClusterRole]) -> BTreeMap<String, Vec<PolicyRule>> {
    let selectors: Vec<(&str, &[LabelSelector])> = cluster_roles
        .iter()
        .filter_map(|r| {
            let sel = r
                .aggregation_rule
                .as_ref()?
                .cluster_role_selectors
                .as_deref()
                .unwrap_or(&[]);
            Some((r.metadata.name.as_deref().unwrap_or(""), sel))
        })
        .collect();
    let mut current: BTreeMap<String, Vec<PolicyRule>> = BTreeMap::new();
    if selectors.is_empty() {
        return current;
    }
    let mut sorted: Vec<&ClusterRole> = cluster_roles.iter().collect();
    sorted.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let empty = BTreeMap::new();
    // A fixpoint: each round can only add rules, and the rules are finite.
    for _ in 0..=selectors.len() {
        let mut next: BTreeMap<String, Vec<PolicyRule>> = BTreeMap::new();
        for (name, sels) in &selectors {
            let mut rules: Vec<PolicyRule> = Vec::new();
            for sel in *sels {
                for other in &sorted {
                    let other_name = other.metadata.name.as_deref().unwrap_or("");
                    if other_name == *name {
                        continue;
                    }
                    if !selector_matches(sel, other.metadata.labels.as_ref().unwrap_or(&empty)) {
                        continue;
                    }
                    let their: &[PolicyRule] = match current.get(other_name) {
                        Some(r) => r,
                        None if other.aggregation_rule.is_some() => &[],
                        None => other.rules.as_deref().unwrap_or(&[]),
                    };
                    for rule in their {
                        if !rules.contains(rule) {
                            rules.push(rule.clone());
                        }
                    }
                }
            }
            next.insert(name.to_string(), rules);
        }
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// Whether a label selector matches a set of labels (`matchLabels` and `matchExpressions` with
/// In, NotIn, Exists, DoesNotExist). The empty selector matches everything.
pub fn selector_matches(sel: &LabelSelector, labels: &BTreeMap<String, String>) -> bool {
    let labels_ok = sel
        .match_labels
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    let exprs_ok = sel.match_expressions.iter().flatten().all(|e| {
        let values = e.values.as_deref().unwrap_or(&[]);
        match e.operator.as_str() {
            "In" => labels.get(&e.key).is_some_and(|v| values.contains(v)),
            "NotIn" => labels.get(&e.key).is_none_or(|v| !values.contains(v)),
            "Exists" => labels.contains_key(&e.key),
            "DoesNotExist" => !labels.contains_key(&e.key),
            _ => false,
        }
    });
    labels_ok && exprs_ok
}

#[cfg(test)]
mod tests;

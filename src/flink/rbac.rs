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
mod tests {
    use super::*;
    use crate::rules::testing::snapshot;

    const RBAC: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink, namespace: prod}
rules:
- apiGroups: [""]
  resources: [pods, configmaps]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: flink, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}
subjects: [{kind: ServiceAccount, name: flink, namespace: prod}]
"#;

    fn req<'a>(sa: &'a str, verb: &'a str, group: &'a str, resource: &'a str) -> Request<'a> {
        Request {
            namespace: "prod",
            service_account: sa,
            verb,
            group,
            resource,
            subresource: "",
        }
    }

    fn attrs(ns: &str, verb: &str, group: &str, resource: &str) -> Attributes {
        let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
        Attributes {
            namespace: ns.into(),
            verb: verb.into(),
            group: group.into(),
            resource: resource.into(),
            subresource: subresource.into(),
            name: String::new(),
        }
    }

    fn eval(yaml: &str, user: &UserInfo, a: &Attributes) -> Evaluation {
        let s = snapshot(yaml);
        s.rbac_policy().evaluate(user, a)
    }

    fn sa(name: &str) -> UserInfo {
        UserInfo::service_account("prod", name)
    }

    #[test]
    fn bound_service_account_may_and_default_may_not() {
        let s = snapshot(RBAC);
        assert_eq!(
            s.rbac_allows(&req("flink", "watch", "", "pods")),
            Some(true)
        );
        assert_eq!(
            s.rbac_allows(&req("flink", "get", "apps", "deployments")),
            Some(true)
        );
        assert_eq!(
            s.rbac_allows(&req("flink", "watch", "apps", "deployments")),
            Some(false)
        );
        assert_eq!(
            s.rbac_allows(&req("default", "watch", "", "pods")),
            Some(false)
        );
    }

    #[test]
    fn unknown_without_rbac_objects() {
        let s = snapshot("apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}\n");
        assert_eq!(s.rbac_allows(&req("flink", "watch", "", "pods")), None);
    }

    #[test]
    fn reasons_name_the_binding_as_the_api_server_does() {
        let e = eval(RBAC, &sa("flink"), &attrs("prod", "create", "", "pods"));
        assert!(e.allowed);
        assert_eq!(
            e.reason,
            "RBAC: allowed by RoleBinding \"flink/prod\" of Role \"flink\" to ServiceAccount \"flink/prod\""
        );
        let e = eval(
            RBAC,
            &sa("flink"),
            &attrs("prod", "watch", "apps", "deployments"),
        );
        assert!(!e.allowed);
        assert!(
            e.reason
                .contains("allows only get, list on \"deployments\""),
            "{}",
            e.reason
        );
        // A RoleBinding never applies in another namespace, nor to cluster-scoped requests.
        assert!(!eval(RBAC, &sa("flink"), &attrs("other", "get", "", "pods")).allowed);
        assert!(!eval(RBAC, &sa("flink"), &attrs("", "get", "", "pods")).allowed);
    }

    #[test]
    fn wildcards_match_verbs_groups_resources_and_subresources() {
        let y = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: everything}
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: logs}
rules:
- apiGroups: [""]
  resources: ["*/log"]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: all, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything}
subjects: [{kind: ServiceAccount, name: admin}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: logs}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: logs}
subjects: [{kind: ServiceAccount, name: reader, namespace: prod}]
"#;
        // The ServiceAccount subject without a namespace takes the RoleBinding's.
        assert!(
            eval(
                y,
                &sa("admin"),
                &attrs("prod", "deletecollection", "apps", "deployments")
            )
            .allowed
        );
        assert!(eval(y, &sa("admin"), &attrs("prod", "get", "", "pods/log")).allowed);
        assert!(
            eval(
                y,
                &sa("admin"),
                &attrs("prod", "update", "apps", "deployments/finalizers")
            )
            .allowed
        );
        // The RoleBinding of a ClusterRole grants only in its namespace.
        assert!(!eval(y, &sa("admin"), &attrs("other", "get", "", "pods")).allowed);
        // `*/log` matches the log subresource of anything in the group, and nothing else.
        assert!(eval(y, &sa("reader"), &attrs("other", "get", "", "pods/log")).allowed);
        assert!(!eval(y, &sa("reader"), &attrs("other", "get", "", "pods")).allowed);
        assert!(!eval(y, &sa("reader"), &attrs("other", "get", "", "pods/exec")).allowed);
        assert!(
            !eval(
                y,
                &sa("reader"),
                &attrs("other", "get", "apps", "deployments/log")
            )
            .allowed
        );
    }

    #[test]
    fn subresources_need_their_own_rule() {
        let e = eval(RBAC, &sa("flink"), &attrs("prod", "get", "", "pods/log"));
        assert!(!e.allowed);
        assert!(
            e.reason
                .contains("allows \"pods\" but not its subresource \"pods/log\""),
            "{}",
            e.reason
        );
        let s = snapshot(RBAC);
        let r = Request {
            subresource: "log",
            ..req("flink", "get", "", "pods")
        };
        assert_eq!(s.rbac_allows(&r), Some(false));
    }

    #[test]
    fn resource_names_never_grant_the_collection() {
        let y = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: one-cm, namespace: prod}
rules:
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [orders-cluster-config-map]
  verbs: [get, list, watch, create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: one-cm, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: one-cm}
subjects: [{kind: ServiceAccount, name: flink, namespace: prod}]
"#;
        let mut a = attrs("prod", "get", "", "configmaps");
        a.name = "orders-cluster-config-map".into();
        assert!(eval(y, &sa("flink"), &a).allowed);
        a.name = "other".into();
        assert!(!eval(y, &sa("flink"), &a).allowed);
        for verb in ["list", "watch", "create"] {
            let e = eval(y, &sa("flink"), &attrs("prod", verb, "", "configmaps"));
            assert!(!e.allowed, "{verb}");
            assert!(
                e.reason
                    .contains("only for resourceNames [orders-cluster-config-map]"),
                "{}",
                e.reason
            );
        }
        // The legacy entry point asks about the collection: denied too.
        assert_eq!(
            snapshot(y).rbac_allows(&req("flink", "get", "", "configmaps")),
            Some(false)
        );
    }

    #[test]
    fn groups_of_service_accounts_and_users() {
        let y = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pods, namespace: prod}
rules: [{apiGroups: [""], resources: [pods], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cms, namespace: prod}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: events, namespace: prod}
rules: [{apiGroups: [""], resources: [events], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: all-sas, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pods}
subjects: [{kind: Group, name: "system:serviceaccounts", apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: sas-of-prod, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cms}
subjects: [{kind: Group, name: "system:serviceaccounts:prod", apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: everyone, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: events}
subjects: [{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}]
"#;
        let here = sa("flink");
        let elsewhere = UserInfo::service_account("dev", "flink");
        let alice = UserInfo::user("alice", &["flink-readers".to_string()]);
        assert!(eval(y, &here, &attrs("prod", "list", "", "pods")).allowed);
        assert!(eval(y, &elsewhere, &attrs("prod", "list", "", "pods")).allowed);
        assert!(!eval(y, &alice, &attrs("prod", "list", "", "pods")).allowed);
        assert!(eval(y, &here, &attrs("prod", "list", "", "configmaps")).allowed);
        assert!(!eval(y, &elsewhere, &attrs("prod", "list", "", "configmaps")).allowed);
        assert!(eval(y, &alice, &attrs("prod", "list", "", "events")).allowed);
        let e = eval(y, &here, &attrs("prod", "list", "", "configmaps"));
        assert!(
            e.reason
                .contains("to Group \"system:serviceaccounts:prod\""),
            "{}",
            e.reason
        );
        // A User subject spelled as the ServiceAccount's user name also binds it.
        let u = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: as-user, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: User, name: "system:serviceaccount:prod:flink", apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: view}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
"#;
        assert!(eval(u, &here, &attrs("prod", "get", "", "pods")).allowed);
        assert_eq!(
            UserInfo::service_account("prod", "flink").service_account_parts(),
            Some(("prod", "flink"))
        );
        assert_eq!(alice.service_account_parts(), None);
        assert!(alice.groups.contains(&"system:authenticated".to_string()));
    }

    const AGGREGATED: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: flink-aggregate}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {flink.example/aggregate-to-flink: "true"}
  - matchExpressions: [{key: flink.example/extra, operator: In, values: [ha]}]
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: flink-pods
  labels: {flink.example/aggregate-to-flink: "true"}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch, create, delete]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: flink-ha
  labels: {flink.example/extra: ha}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch, create, update, delete]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: unrelated
  labels: {flink.example/extra: other}
rules: [{apiGroups: [""], resources: [secrets], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: outer}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {flink.example/outer: "true"}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: middle
  labels: {flink.example/outer: "true"}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {flink.example/aggregate-to-flink: "true"}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: flink-aggregate}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: flink-aggregate}
subjects: [{kind: ServiceAccount, name: flink, namespace: prod}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: outer, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: outer}
subjects: [{kind: ServiceAccount, name: nested, namespace: prod}]
"#;

    #[test]
    fn aggregated_cluster_roles_get_the_rules_the_controller_would_write() {
        let s = snapshot(AGGREGATED);
        let agg = aggregate(&s.cluster_roles);
        let resources = |name: &str| -> Vec<String> {
            agg[name]
                .iter()
                .flat_map(|r| r.resources.clone().unwrap_or_default())
                .collect()
        };
        assert_eq!(resources("flink-aggregate"), vec!["pods", "configmaps"]);
        // Aggregation through an aggregated role converges to the transitive rules.
        assert_eq!(resources("middle"), vec!["pods"]);
        assert_eq!(resources("outer"), vec!["pods"]);
        assert!(!agg.contains_key("flink-pods"));

        let e = eval(
            AGGREGATED,
            &sa("flink"),
            &attrs("prod", "create", "", "pods"),
        );
        assert!(e.allowed);
        assert!(e
            .reason
            .contains("ClusterRoleBinding \"flink-aggregate\" of ClusterRole \"flink-aggregate\""));
        // The stored rules are empty (no controller ran): said, since the API server disagrees.
        assert!(
            e.reason.contains("stored rules do not include it yet"),
            "{}",
            e.reason
        );
        assert!(
            eval(
                AGGREGATED,
                &sa("flink"),
                &attrs("other", "update", "", "configmaps")
            )
            .allowed
        );
        assert!(
            !eval(
                AGGREGATED,
                &sa("flink"),
                &attrs("prod", "get", "", "secrets")
            )
            .allowed
        );
        assert!(
            eval(
                AGGREGATED,
                &sa("nested"),
                &attrs("prod", "watch", "", "pods")
            )
            .allowed
        );
        assert!(
            !eval(
                AGGREGATED,
                &sa("nested"),
                &attrs("other", "watch", "", "pods")
            )
            .allowed
        );
    }

    #[test]
    fn aggregation_filled_by_hand_agrees_and_is_not_flagged() {
        let filled = AGGREGATED.replacen(
            "rules: []",
            "rules:\n- {apiGroups: [\"\"], resources: [pods], verbs: [get, list, watch, create, delete]}\n- {apiGroups: [\"\"], resources: [configmaps], verbs: [get, list, watch, create, update, delete]}",
            1,
        );
        let e = eval(&filled, &sa("flink"), &attrs("prod", "create", "", "pods"));
        assert!(e.allowed);
        assert!(
            e.reason.ends_with("(through its aggregationRule)"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn missing_roles_are_named_in_the_denial() {
        let y = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: dangling, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}
subjects: [{kind: ServiceAccount, name: flink, namespace: prod}]
"#;
        let e = eval(y, &sa("flink"), &attrs("prod", "get", "", "pods"));
        assert!(!e.allowed);
        assert!(
            e.reason.contains(
                "RoleBinding \"dangling/prod\" refers to Role \"flink\", which does not exist"
            ),
            "{}",
            e.reason
        );
    }

    #[test]
    fn label_selectors() {
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;
        let labels: BTreeMap<String, String> = [("a".to_string(), "1".to_string())].into();
        let req = |op: &str, values: &[&str]| LabelSelector {
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "a".into(),
                operator: op.into(),
                values: Some(values.iter().map(|v| v.to_string()).collect()),
            }]),
            ..LabelSelector::default()
        };
        assert!(selector_matches(&LabelSelector::default(), &labels));
        assert!(selector_matches(&req("In", &["1", "2"]), &labels));
        assert!(!selector_matches(&req("NotIn", &["1"]), &labels));
        assert!(selector_matches(&req("NotIn", &["1"]), &BTreeMap::new()));
        assert!(selector_matches(&req("Exists", &[]), &labels));
        assert!(!selector_matches(&req("DoesNotExist", &[]), &labels));
        assert!(!selector_matches(&req("Bogus", &[]), &labels));
        let ml = LabelSelector {
            match_labels: Some([("a".to_string(), "2".to_string())].into()),
            ..LabelSelector::default()
        };
        assert!(!selector_matches(&ml, &labels));
    }
}

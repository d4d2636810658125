//! Who may do what, computed from RBAC objects: the offline stand-in for the API server's
//! authorizer, used when a bundle carries Roles and bindings, or when access reviews are not
//! allowed. Live diagnoses prefer the authorizer's own answer (`Snapshot::access_reviews`).

use crate::snapshot::Snapshot;
use k8s_openapi::api::rbac::v1::{PolicyRule, Subject};

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

/// Whether the ServiceAccount may do this, from the RBAC objects in the snapshot.
/// `None` when the snapshot holds no RBAC objects to decide from.
pub fn allows(s: &Snapshot, req: &Request) -> Option<bool> {
    if !s.rbac_complete {
        return None;
    }
    let ns_bindings = s
        .role_bindings
        .iter()
        .filter(|b| b.metadata.namespace.as_deref() == Some(req.namespace))
        .filter(|b| binds(b.subjects.as_deref().unwrap_or(&[]), req))
        .map(|b| (&b.role_ref, true));
    let cluster_bindings = s
        .cluster_role_bindings
        .iter()
        .filter(|b| binds(b.subjects.as_deref().unwrap_or(&[]), req))
        .map(|b| (&b.role_ref, false));
    for (role_ref, namespaced) in ns_bindings.chain(cluster_bindings) {
        let rules: Option<&Vec<PolicyRule>> = if role_ref.kind == "Role" && namespaced {
            s.roles
                .iter()
                .find(|r| {
                    r.metadata.namespace.as_deref() == Some(req.namespace)
                        && r.metadata.name.as_deref() == Some(&role_ref.name)
                })
                .and_then(|r| r.rules.as_ref())
        } else if role_ref.kind == "ClusterRole" {
            s.cluster_roles
                .iter()
                .find(|r| r.metadata.name.as_deref() == Some(&role_ref.name))
                .and_then(|r| r.rules.as_ref())
        } else {
            None
        };
        if rules.into_iter().flatten().any(|r| rule_allows(r, req)) {
            return Some(true);
        }
    }
    Some(false)
}

fn binds(subjects: &[Subject], req: &Request) -> bool {
    subjects.iter().any(|sub| match sub.kind.as_str() {
        "ServiceAccount" => {
            sub.name == req.service_account && sub.namespace.as_deref() == Some(req.namespace)
        }
        "Group" => {
            sub.name == "system:serviceaccounts"
                || sub.name == "system:authenticated"
                || sub.name == format!("system:serviceaccounts:{}", req.namespace)
        }
        "User" => sub.name == format!("system:serviceaccount:{}:{}", req.namespace, req.service_account),
        _ => false,
    })
}

fn rule_allows(rule: &PolicyRule, req: &Request) -> bool {
    let has = |list: &Option<Vec<String>>, want: &str| {
        list.iter().flatten().any(|v| v == "*" || v == want)
    };
    let resource = if req.subresource.is_empty() {
        req.resource.to_string()
    } else {
        format!("{}/{}", req.resource, req.subresource)
    };
    let any_with_subresource = format!("*/{}", req.subresource);
    let resource_ok = rule.resources.iter().flatten().any(|r| {
        r == "*" || *r == resource || (!req.subresource.is_empty() && *r == any_with_subresource)
    });
    has(&rule.api_groups, req.group)
        && resource_ok
        && (rule.verbs.iter().any(|v| v == "*" || v == req.verb))
        && rule.resource_names.as_ref().is_none_or(Vec::is_empty)
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
        Request { namespace: "prod", service_account: sa, verb, group, resource, subresource: "" }
    }

    #[test]
    fn bound_service_account_may_and_default_may_not() {
        let s = snapshot(RBAC);
        assert_eq!(allows(&s, &req("flink", "watch", "", "pods")), Some(true));
        assert_eq!(allows(&s, &req("flink", "get", "apps", "deployments")), Some(true));
        assert_eq!(allows(&s, &req("flink", "watch", "apps", "deployments")), Some(false));
        assert_eq!(allows(&s, &req("default", "watch", "", "pods")), Some(false));
    }

    #[test]
    fn unknown_without_rbac_objects() {
        let s = snapshot("apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}\n");
        assert_eq!(allows(&s, &req("flink", "watch", "", "pods")), None);
    }
}

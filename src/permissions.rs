//! What each Flink component needs from the API server, from the real sources
//! (../shared/docs/flink-facts.md §1.6: the operator chart's `flink` Role, Flink's native
//! Kubernetes client). One place, used by `doctor`'s fixes and by `can-i`.

use std::collections::BTreeMap;

/// Verbs on one resource of one API group, and why Flink needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permission {
    pub group: &'static str,
    pub resource: &'static str,
    pub verbs: &'static [&'static str],
    pub why: &'static str,
}

/// The JobManager of a native-mode cluster (operator native mode or plain Flink native).
pub const JOBMANAGER_NATIVE: &[Permission] = &[
    Permission {
        group: "",
        resource: "pods",
        verbs: &["get", "list", "watch", "create", "delete"],
        why: "the ResourceManager creates, watches and deletes TaskManager pods",
    },
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: &["get"],
        why: "the JobManager Deployment is the owner of the TaskManager pods",
    },
    Permission {
        group: "apps",
        resource: "deployments/finalizers",
        verbs: &["update"],
        why: "owner references with blockOwnerDeletion need it where OwnerReferencesPermissionEnforcement is on",
    },
];

/// Added to a component's set when Kubernetes HA is enabled.
pub const HA: &[Permission] = &[Permission {
    group: "",
    resource: "configmaps",
    verbs: &["get", "list", "watch", "create", "update", "delete"],
    why: "Kubernetes HA keeps leader election and job state in ConfigMaps",
}];

/// Whether a Flink configuration turns on Kubernetes HA (`high-availability.type`, or the
/// deprecated `high-availability`, set to `kubernetes` or the factory class).
pub fn ha_enabled(conf: &BTreeMap<String, String>) -> bool {
    ["high-availability.type", "high-availability"]
        .iter()
        .filter_map(|k| conf.get(*k))
        .any(|v| {
            let v = v.to_ascii_lowercase();
            v == "kubernetes" || v.contains("kuberneteshaservicesfactory")
        })
}

/// The JobManager's set for a configuration.
pub fn jobmanager(conf: &BTreeMap<String, String>) -> Vec<Permission> {
    let mut out = JOBMANAGER_NATIVE.to_vec();
    if ha_enabled(conf) {
        out.extend_from_slice(HA);
    }
    out
}

/// A namespaced Role + RoleBinding granting `rules` to a ServiceAccount, as YAML that
/// `kubectl apply -f -` accepts. Never wildcards, never a ClusterRole.
pub fn role_yaml(
    namespace: &str,
    name: &str,
    service_account: &str,
    rules: &[(String, String, Vec<String>)],
) -> String {
    let mut y = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {name}\n  namespace: {namespace}\nrules:\n"
    );
    for (group, resource, verbs) in rules {
        y.push_str(&format!(
            "  - apiGroups: [\"{group}\"]\n    resources: [\"{resource}\"]\n    verbs: [{}]\n",
            verbs.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ")
        ));
    }
    y.push_str(&format!(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {name}\n  namespace: {namespace}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {name}\nsubjects:\n  - kind: ServiceAccount\n    name: {service_account}\n    namespace: {namespace}\n"
    ));
    y
}

/// Merges permission sets and extra (group, resource, verb) needs into sorted Role rules.
pub fn merge_rules(
    sets: &[Permission],
    extra: &[(String, String, String)],
) -> Vec<(String, String, Vec<String>)> {
    let mut map: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for p in sets {
        let e = map.entry((p.group.to_string(), p.resource.to_string())).or_default();
        e.extend(p.verbs.iter().map(|v| v.to_string()));
    }
    for (g, r, v) in extra {
        map.entry((g.clone(), r.clone())).or_default().push(v.clone());
    }
    map.into_iter()
        .map(|((g, r), mut verbs)| {
            let order = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
            verbs.sort_by_key(|v| order.iter().position(|o| o == v).unwrap_or(order.len()));
            verbs.dedup();
            (g, r, verbs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ha_adds_configmaps() {
        let mut conf = BTreeMap::new();
        assert!(!jobmanager(&conf).iter().any(|p| p.resource == "configmaps"));
        conf.insert("high-availability.type".into(), "kubernetes".into());
        assert!(jobmanager(&conf).iter().any(|p| p.resource == "configmaps"));
    }

    #[test]
    fn role_yaml_is_valid_yaml_without_wildcards() {
        let rules = merge_rules(JOBMANAGER_NATIVE, &[("".into(), "pods".into(), "watch".into())]);
        let y = role_yaml("prod", "flink-jobmanager", "flink", &rules);
        assert!(!y.contains('*'));
        let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0]["rules"][0]["resources"][0], "pods");
        assert_eq!(docs[1]["subjects"][0]["name"], "flink");
    }
}

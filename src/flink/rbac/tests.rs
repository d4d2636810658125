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

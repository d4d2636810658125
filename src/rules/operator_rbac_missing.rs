//! FLK005: the operator's own ServiceAccount lacks permissions it needs where it works: listing
//! and watching Flink resources and writing their status, creating the JobManager's Deployment,
//! Services and ConfigMaps, recording events. Decided from the RBAC objects in the snapshot (the
//! same evaluation as the API server's RBAC authorizer, `crate::flink::rbac`), in every namespace the
//! operator watches (or cluster-wide, when it watches all); silent when the RBAC objects there
//! were not all read. The operator then logs 403s and reconciles nothing.

use super::support::install::{self, operators, Operator};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::names::GROUP;
use crate::flink::rbac::{Attributes, UserInfo};
use crate::flink::rbac_fix::{self, RbacPlan};

use crate::snapshot::{Index, Snapshot};

pub struct OperatorRbacMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK005",
    name: "operator_rbac_missing",
    summary: "the operator's ServiceAccount lacks permissions the chart grants it",
    category: Category::OperatorRbacMissing,
    severity: Severity::Critical,
    explains: &["FLK003", "FLK401"],
    fix: r#"give the operator's ServiceAccount the rights its chart grants: `helm upgrade` the operator chart with `rbac.create=true` and the namespace in `watchNamespaces`, or reapply the chart's Role, ClusterRole and bindings"#,
    verify: r#"kubectl auth can-i list flinkdeployments.flink.apache.org -n <namespace> --as=system:serviceaccount:<operator-namespace>:flink-operator   # expect yes"#,
};

/// What the operator cannot work without: (verb, group, resource, subresource).
const NEEDED: &[(&str, &str, &str, &str)] = &[
    ("list", GROUP, "flinkdeployments", ""),
    ("watch", GROUP, "flinkdeployments", ""),
    ("patch", GROUP, "flinkdeployments", "status"),
    ("list", GROUP, "flinksessionjobs", ""),
    ("watch", GROUP, "flinksessionjobs", ""),
    ("list", "", "pods", ""),
    ("create", "apps", "deployments", ""),
    ("watch", "apps", "deployments", ""),
    ("create", "", "services", ""),
    ("create", "", "configmaps", ""),
    ("create", "", "events", ""),
];

impl Rule for OperatorRbacMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked || !s.rbac_complete {
            return Vec::new();
        }
        let policy = s.rbac_policy();
        let mut out = Vec::new();
        // What the Apache operator needs (NEEDED); the FlinkCluster operator's: `can-i --for operator`.
        for op in operators(s).into_iter().filter(|o| o.is_apache()) {
            let sa = service_account(&op);
            let user = UserInfo::service_account(op.namespace, &sa);
            // Where it works: each watched namespace whose RBAC objects were read, or everywhere.
            let scopes: Vec<String> = match op.watched_namespaces() {
                None => vec![String::new()],
                Some(set) => set
                    .into_iter()
                    .filter(|n| s.namespaces.is_empty() || s.namespaces.contains(n))
                    .collect(),
            };
            let mut denied: Vec<(String, String)> = Vec::new();
            for scope in &scopes {
                for (verb, group, resource, sub) in NEEDED {
                    let attrs = Attributes {
                        namespace: scope.clone(),
                        verb: verb.to_string(),
                        group: group.to_string(),
                        resource: resource.to_string(),
                        subresource: sub.to_string(),
                        name: String::new(),
                    };
                    if !policy.evaluate(&user, &attrs).allowed {
                        let what = if group.is_empty() {
                            attrs.combined_resource()
                        } else {
                            format!("{}.{group}", attrs.combined_resource())
                        };
                        denied.push((scope.clone(), format!("{verb} {what}")));
                    }
                }
            }
            if denied.is_empty() {
                continue;
            }
            out.push(finding(&op, &sa, &denied));
        }
        out
    }
}

fn service_account(op: &Operator) -> String {
    op.deployment
        .and_then(|d| d.spec.template.spec.as_ref())
        .or_else(|| op.pods.first().and_then(|p| p.spec.as_ref()))
        .and_then(|p| p.service_account_name.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".into())
}

fn finding(op: &Operator, sa: &str, denied: &[(String, String)]) -> Finding {
    let ns = op.namespace;
    // The account is the pod spec's reference: free text in a bundle, so a shell word in
    // commands and prose, a YAML scalar in the documents.
    let sa_word = crate::shell::sh(sa);
    let scope_text = |scope: &str| {
        if scope.is_empty() {
            "cluster-wide".to_string()
        } else {
            format!("in namespace {scope}")
        }
    };
    let first = &denied[0];
    let more = if denied.len() > 1 {
        format!(" (and {} more)", denied.len() - 1)
    } else {
        String::new()
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("ServiceAccount", ns, sa),
        format!(
            "the operator's ServiceAccount {ns}/{sa_word} may not {} {}{more}: it cannot reconcile Flink resources there",
            first.1,
            scope_text(&first.0)
        ),
    );
    let mut scopes: Vec<&str> = denied.iter().map(|(s, _)| s.as_str()).collect();
    scopes.dedup();
    for scope in &scopes {
        let verbs: Vec<&str> = denied
            .iter()
            .filter(|(s, _)| s == scope)
            .map(|(_, v)| v.as_str())
            .collect();
        f = f.evidence(format!(
            "{} may not {} {} (from the RBAC objects read; not the authorizer's own answer)",
            format_args!("system:serviceaccount:{ns}:{sa_word}"),
            verbs.join(", "),
            scope_text(scope)
        ));
    }
    // The chart's operator rules where they are missing, from the one planner (the same Role the
    // operator's 403 in a log gets from triage and explain): a Role per watched namespace, or
    // a ClusterRole when it watches every namespace.
    let plans: Vec<RbacPlan> = if scopes.iter().any(|s| s.is_empty()) {
        vec![String::new()]
    } else {
        scopes.iter().map(|s| s.to_string()).collect()
    }
    .iter()
    .map(|scope| {
        rbac_fix::plan_grant(
            Component::Operator,
            Mode::Operator,
            ns,
            sa,
            scope,
            &[],
            &rbac_fix::Known::default(),
        )
    })
    .collect();
    let commands: String = plans.iter().map(RbacPlan::commands).collect();
    f.fix(format!(
        "Let the chart manage the operator's RBAC again:\n\n{}\n\nor grant the chart's operator rules yourself:\n\n{}",
        op.release().upgrade("--set rbac.create=true"),
        commands.trim_end()
    ))
    .verify(plans[0].verify())
    .link(install::link(ns))
    .link(link::service_account(ns, sa))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load};
    use crate::rules::testing::run;

    /// The chart's operator rules (`flink-operator.rbacRules`), for the fixtures.
    const CHART_RULES: &str = "\
- apiGroups: [\"\"]
  resources: [pods, services, events, configmaps, secrets]
  verbs: [get, list, watch, create, update, patch, delete, deletecollection]
- apiGroups: [apps]
  resources: [deployments, deployments/finalizers, replicasets]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [apps]
  resources: [deployments/scale]
  verbs: [get, update, patch]
- apiGroups: [flink.apache.org]
  resources: [flinkdeployments, flinkdeployments/finalizers, flinksessionjobs, flinksessionjobs/finalizers, flinkstatesnapshots, flinkstatesnapshots/finalizers, flinkbluegreendeployments, flinkbluegreendeployments/finalizers]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [flink.apache.org]
  resources: [flinkdeployments/status, flinksessionjobs/status, flinkstatesnapshots/status, flinkbluegreendeployments/status]
  verbs: [get, update, patch]
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [coordination.k8s.io]
  resources: [leases]
  verbs: [get, list, watch, create, update, patch, delete]";

    fn with_rbac(yaml: &str, rbac: &str) -> Snapshot {
        let mut s = load(&format!("{yaml}\n---\n{rbac}"));
        s.rbac_complete = true;
        s
    }

    const CLUSTER_RBAC: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: flink-operator}
rules:
- {apiGroups: [""], resources: [pods, services, events, configmaps, secrets], verbs: ["*"]}
- {apiGroups: [apps], resources: [deployments], verbs: ["*"]}
- {apiGroups: [flink.apache.org], resources: ["*"], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: flink-operator-role-binding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: flink-operator}
subjects: [{kind: ServiceAccount, name: flink-operator, namespace: flink-operator}]
"#;

    #[test]
    fn silent_with_the_charts_rbac_or_without_rbac_objects() {
        assert!(run(
            &OperatorRbacMissing,
            &with_rbac(&healthy_yaml(), CLUSTER_RBAC)
        )
        .is_empty());
        // No RBAC objects read: nothing to decide from.
        assert!(run(&OperatorRbacMissing, &load(&healthy_yaml())).is_empty());
    }

    #[test]
    fn fires_when_the_binding_names_another_service_account() {
        let rbac = CLUSTER_RBAC.replace(
            "name: flink-operator, namespace: flink-operator",
            "name: flink-operator, namespace: default",
        );
        let f = run(&OperatorRbacMissing, &with_rbac(&healthy_yaml(), &rbac));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::OperatorRbacMissing);
        assert!(
            f[0].title
                .contains("may not list flinkdeployments.flink.apache.org cluster-wide"),
            "{}",
            f[0].title
        );
        // The chart's binding name: applying the fix replaces its binding, not a second one.
        assert!(
            f[0].fix.contains(
                "kind: ClusterRoleBinding\nmetadata:\n  name: flink-operator-role-binding\n"
            ),
            "{}",
            f[0].fix
        );
        assert!(f[0]
            .verify
            .contains("--as=system:serviceaccount:flink-operator:flink-operator"));
    }

    #[test]
    fn checks_each_watched_namespace() {
        let yaml = healthy_yaml().replace(
            "    kubernetes.operator.reconcile.interval: 15 s\n",
            "    kubernetes.operator.reconcile.interval: 15 s\n    kubernetes.operator.watched.namespaces: prod,staging\n",
        );
        let role = |ns: &str| {
            format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: flink-operator, namespace: {ns}}}\nrules:\n{CHART_RULES}\n---\n\
                 apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: flink-operator-role-binding, namespace: {ns}}}\n\
                 roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink-operator}}\nsubjects: [{{kind: ServiceAccount, name: flink-operator, namespace: flink-operator}}]\n"
            )
        };
        let both = format!("{}---\n{}", role("prod"), role("staging"));
        assert!(run(&OperatorRbacMissing, &with_rbac(&yaml, &both)).is_empty());
        let f = run(&OperatorRbacMissing, &with_rbac(&yaml, &role("prod")));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("in namespace staging"));
        assert!(f[0].fix.contains("namespace: staging"));
        assert!(
            f[0].fix.contains(
                "kind: RoleBinding\nmetadata:\n  name: flink-operator-role-binding\n  namespace: staging\n"
            ),
            "{}",
            f[0].fix
        );
        assert!(!f[0].fix.contains("namespace: prod\n"));
    }

    /// The YAML between `<<'EOF'` and `EOF` of a fix, every heredoc of it.
    fn heredocs(fix: &str) -> String {
        let mut out = String::new();
        let mut rest = fix;
        while let Some(start) = rest.find("<<'EOF'\n") {
            let body = &rest[start + 8..];
            let end = body.find("\nEOF").expect("the heredoc ends");
            out.push_str(&body[..end]);
            out.push('\n');
            rest = &body[end..];
        }
        out
    }

    /// One cause, one fix: the operator refused in a namespace it watches gets the same Role and
    /// RoleBinding from FLK005 (decided from the RBAC objects) as from its 403 in a log (triage,
    /// explain: SIG-K8S-FORBIDDEN-OPERATOR), both from `rbac_fix::plan_grant`. The signature
    /// once printed a Role with the refused verb alone.
    #[test]
    fn the_operator_403_in_a_log_gets_the_objects_flk005_applies() {
        let yaml = healthy_yaml().replace(
            "    kubernetes.operator.reconcile.interval: 15 s\n",
            "    kubernetes.operator.reconcile.interval: 15 s\n    kubernetes.operator.watched.namespaces: prod,staging\n",
        );
        let role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: flink-operator, namespace: prod}\nrules: [{apiGroups: [\"*\"], resources: [\"*\"], verbs: [\"*\"]}]\n---\n\
                    apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: flink-operator-role-binding, namespace: prod}\n\
                    roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink-operator}\nsubjects: [{kind: ServiceAccount, name: flink-operator, namespace: flink-operator}]\n";
        let f = run(&OperatorRbacMissing, &with_rbac(&yaml, role));
        assert_eq!(f.len(), 1, "{f:#?}");
        let line = r#"Message: deployments.apps is forbidden: User "system:serviceaccount:flink-operator:flink-operator" cannot create resource "deployments" in API group "apps" in the namespace "staging"."#;
        let m = crate::signatures::catalogue()
            .match_line(line, 1)
            .into_iter()
            .find(|m| m.signature.id == "SIG-K8S-FORBIDDEN-OPERATOR")
            .expect("the operator's 403");
        let from_log = heredocs(&m.fix());
        assert!(
            from_log
                .contains("kind: Role\nmetadata:\n  name: flink-operator\n  namespace: staging"),
            "{from_log}"
        );
        assert!(
            from_log.contains("resources: [\"flinkdeployments\"]"),
            "{from_log}"
        );
        assert_eq!(
            heredocs(&f[0].fix),
            from_log,
            "FLK005 and the log's fix differ"
        );
        assert_eq!(
            m.verify().lines().last(),
            f[0].verify.lines().last(),
            "the same check"
        );
        assert!(m.fix().contains("watchNamespaces"), "{}", m.fix());
    }
}

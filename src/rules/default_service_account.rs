//! FLK502: Flink runs as the namespace's `default` ServiceAccount, which normally has no rights:
//! a native JobManager then cannot create or watch its TaskManager pods.

use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::rbac;
use crate::flink::rbac_fix::RbacPlan;
use crate::snapshot::index::{deployment_ref, pod_name, pod_namespace, pod_service_account};
use crate::snapshot::{Index, Snapshot};

pub struct DefaultServiceAccount;

static META: RuleMeta = RuleMeta {
    id: "FLK502",
    name: "default_service_account",
    summary: "Flink runs as the namespace's `default` ServiceAccount",
    category: Category::DefaultServiceAccount,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"run Flink as a dedicated ServiceAccount (`flink`) bound to a Role with the rights its mode needs, and point the deployment at it: one plan, the same in doctor, lint, triage and `kubectl flink can-i --fix`"#,
    verify: r#"kubectl auth can-i watch pods -n <namespace> --as=system:serviceaccount:<namespace>:flink   # expect yes"#,
};

/// Whether `default` in this namespace can do what a JobManager needs, per the RBAC objects:
/// `None` when the snapshot holds none (a bundle without them, such as a cluster-info dump).
fn default_rights(s: &Snapshot, ns: &str) -> Option<bool> {
    let req = rbac::Request {
        namespace: ns,
        service_account: "default",
        verb: "watch",
        group: "",
        resource: "pods",
        subresource: "",
    };
    s.rbac_allows(&req)
}

fn default_has_rights(s: &Snapshot, ns: &str) -> bool {
    default_rights(s, ns) == Some(true)
}

/// How sure the title may be that `default` lacks the rights, and the evidence line that says why.
fn rights_said(s: &Snapshot, ns: &str) -> (&'static str, String) {
    match default_rights(s, ns) {
        Some(_) => (
            "which has no rights to manage TaskManager pods",
            format!("no Role or ClusterRole read grants system:serviceaccount:{ns}:default `watch pods` in {ns}"),
        ),
        None => (
            "which normally has no rights to manage TaskManager pods",
            format!("the snapshot holds no RBAC objects to tell whether a Role grants system:serviceaccount:{ns}:default `watch pods` in {ns}: `kubectl auth can-i watch pods -n {ns} --as system:serviceaccount:{ns}:default` does"),
        ),
    }
}

/// The planner's fix for a JobManager running as `default`.
fn plan(s: &Snapshot, index: &Index, reference: Option<&ObjectRef>, ns: &str) -> RbacPlan {
    let cluster = reference.and_then(|r| index.cluster(r));
    rbac_plan::off_default(s, index, cluster.as_ref(), ns)
}

impl Rule for DefaultServiceAccount {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for fd in &s.flink_deployments {
            let ns = fd.namespace();
            // Unset is not `default`: the operator's validator refuses a FlinkDeployment without
            // spec.serviceAccount and deploys nothing (operator 1.7.0 in the reality lab; the
            // message is DefaultValidator's, apache/flink-kubernetes-operator@release-1.15.0),
            // which FLK401 reports from its status.
            if fd.spec.service_account.as_deref() != Some("default") || default_has_rights(s, ns) {
                continue;
            }
            let plan = plan(s, index, Some(&deployment_ref(fd)), ns);
            let field = "spec.serviceAccount: default".to_string();
            let (rights, why) = rights_said(s, ns);
            out.push(
                Finding::new(
                    &META,
                    deployment_ref(fd),
                    format!("Flink runs as the namespace's `default` ServiceAccount, {rights}"),
                )
                .deployment(Some(deployment_ref(fd)))
                .evidence(field)
                .evidence(why)
                .fix(plan.commands())
                .verify(plan.verify())
                .link(link::service_account(ns, "default")),
            );
        }
        // Flink pods with no FlinkDeployment (plain native mode) running as `default`. A
        // FlinkCluster's JobManager is standalone Flink, which asks the API server for nothing.
        for pod in &s.pods {
            let ns = pod_namespace(pod);
            // Flink's native labels only: Lyft's and the FlinkCluster's JobManagers are standalone.
            if crate::snapshot::index::pod_component(pod) != Some(Component::JobManager)
                || !matches!(
                    Mode::of_labels(pod.metadata.labels.as_ref()),
                    Some((Mode::Operator | Mode::Standalone, _))
                )
                || index
                    .deployment_of_pod(pod)
                    .is_some_and(|d| d.kind == "FlinkDeployment")
                || pod_service_account(pod) != "default"
                || default_has_rights(s, ns)
            {
                continue;
            }
            let plan = plan(s, index, index.deployment_of_pod(pod).as_ref(), ns);
            let (rights, why) = rights_said(s, ns);
            out.push(
                Finding::new(
                    &META,
                    ObjectRef::namespaced("Pod", ns, pod_name(pod)),
                    format!(
                        "the JobManager runs as the namespace's `default` ServiceAccount, {rights}"
                    ),
                )
                .deployment(index.deployment_of_pod(pod))
                .evidence(format!(
                    "pod {} runs with serviceAccountName default",
                    pod_name(pod)
                ))
                .evidence(why)
                .fix(plan.commands())
                .verify(plan.verify())
                .link(link::service_account(ns, "default")),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    #[test]
    fn fires_when_the_deployment_names_default() {
        let s = snapshot(&HEALTHY.replace("serviceAccount: flink", "serviceAccount: default"));
        let f = run(&DefaultServiceAccount, &s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].evidence[0], "spec.serviceAccount: default");
        assert!(f[0]
            .fix
            .contains("kubectl patch flinkdeployment basic -n flink"));
    }

    #[test]
    fn silent_when_unset_since_the_operator_refuses_that_rather_than_use_default() {
        let s = snapshot(&HEALTHY.replace("  serviceAccount: flink\n", ""));
        assert_eq!(s.flink_deployments[0].spec.service_account, None);
        assert!(run(&DefaultServiceAccount, &s).is_empty());
    }

    #[test]
    fn silent_with_a_dedicated_service_account() {
        assert!(run(&DefaultServiceAccount, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn without_rbac_objects_it_says_normally_not_has_no_rights() {
        // A snapshot with no RBAC objects (a cluster-info dump) cannot tell what `default` may do.
        let s = snapshot(&HEALTHY.replace("serviceAccount: flink", "serviceAccount: default"));
        assert!(!s.rbac_complete);
        let f = &run(&DefaultServiceAccount, &s)[0];
        assert!(
            f.title
                .ends_with("which normally has no rights to manage TaskManager pods"),
            "{}",
            f.title
        );
        assert!(
            f.evidence[1].contains("holds no RBAC objects"),
            "{:?}",
            f.evidence
        );
        // With RBAC read and nothing granting it, it says so outright.
        let rbac = "\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: other, namespace: flink}\nrules: [{apiGroups: [\"\"], resources: [configmaps], verbs: [get]}]\n";
        let yaml = HEALTHY.replace("serviceAccount: flink", "serviceAccount: default") + rbac;
        let f = &run(&DefaultServiceAccount, &snapshot(&yaml))[0];
        assert!(
            f.title
                .ends_with(", which has no rights to manage TaskManager pods"),
            "{}",
            f.title
        );
        assert!(
            f.evidence[1].starts_with("no Role or ClusterRole read grants"),
            "{:?}",
            f.evidence
        );
    }

    #[test]
    fn silent_when_default_was_given_the_rights() {
        let rbac = r#"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink, namespace: flink}
rules: [{apiGroups: [""], resources: [pods], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: flink, namespace: flink}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}
subjects: [{kind: ServiceAccount, name: default, namespace: flink}]
"#;
        let yaml = HEALTHY.replace("serviceAccount: flink", "serviceAccount: default") + rbac;
        assert!(run(&DefaultServiceAccount, &snapshot(&yaml)).is_empty());
    }
}

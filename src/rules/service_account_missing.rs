//! FLK503: the ServiceAccount Flink's pods are to run as does not exist, so the API server
//! refuses every pod: no JobManager pod (or no TaskManager pod) is ever created.
//!
//! The refusal is the ServiceAccount admission plugin's: `pods "x" is forbidden: error looking
//! up service account NS/NAME: serviceaccount "NAME" not found` (kubernetes/kubernetes@v1.24.0
//! and @v1.36.3: plugin/pkg/admission/serviceaccount/admission.go, `Admit`; the same words in
//! every minor between). A refused pod never exists, so it is read where its creator reports it
//! (`snapshot::refused`): the ReplicaSet's `FailedCreate` event, the Deployment's
//! `ReplicaFailure` condition, the operator's `FailedCreate` event on the FlinkDeployment, and
//! the JobManager's `Could not create pod` log line for a TaskManager.
//!
//! The fix creates that ServiceAccount, with the Role and RoleBinding the component needs, from
//! the RBAC planner every identity rule shares (`flink::rbac_fix`): the spec keeps the name it
//! already has, so no switch and no restart beyond the pods now being created.

use super::support::containers::refusal_line;
use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Component;
use crate::snapshot::index::deployment_ref;
use crate::snapshot::refused::{self, Denied, Where};
use crate::snapshot::{Index, Snapshot};

pub struct ServiceAccountMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK503",
    name: "service_account_missing",
    summary:
        "the ServiceAccount Flink's pods run as does not exist, so the API server refuses them",
    category: Category::PodtemplateInvalid,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"create the ServiceAccount the pods name, bound to the Role Flink needs (the plan doctor prints), or point the deployment at an account that exists"#,
    verify: r#"kubectl get serviceaccount <service-account> -n <namespace>   # expect it listed"#,
};

/// One missing account: where, for which Flink deployment and component, and what said so.
struct Missing<'a> {
    namespace: String,
    name: String,
    fd: Option<&'a crate::snapshot::FlinkDeployment>,
    component: Component,
    evidence: Vec<String>,
    pods: Vec<String>,
}

impl Rule for ServiceAccountMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut found: Vec<Missing> = Vec::new();
        for d in refused::denials(s) {
            let Denied::ServiceAccountMissing { namespace, name } = &d.denial.what else {
                continue;
            };
            // Created since: the refusal is history (the controller retries on its own).
            if s.holds("ServiceAccount")
                && s.service_accounts.iter().any(|a| {
                    a.metadata.namespace.as_deref() == Some(namespace.as_str())
                        && a.metadata.name.as_deref() == Some(name.as_str())
                })
            {
                continue;
            }
            let pod = d.denial.pod.as_deref().unwrap_or("");
            let owner = refused::owner_name(&d.source);
            let fd = refused::flink_deployment_for(s, d.namespace, &[owner, pod]);
            let component =
                if matches!(d.source, Where::Log { .. }) || pod.contains("-taskmanager-") {
                    Component::TaskManager
                } else {
                    Component::JobManager
                };
            let line = refusal_line(&d.source, d.message);
            let i = match found.iter().position(|m| {
                m.namespace == *namespace
                    && m.name == *name
                    && m.fd.map(|f| f.name()) == fd.map(|f| f.name())
            }) {
                Some(i) => i,
                None => {
                    found.push(Missing {
                        namespace: namespace.clone(),
                        name: name.clone(),
                        fd,
                        component,
                        evidence: Vec::new(),
                        pods: Vec::new(),
                    });
                    found.len() - 1
                }
            };
            let m = &mut found[i];
            // The JobManager's rights cover a TaskManager's: plan for it when both are refused.
            if component == Component::JobManager {
                m.component = Component::JobManager;
            }
            if !m.evidence.contains(&line) && m.evidence.len() < 4 {
                m.evidence.push(line);
            }
            if !pod.is_empty() && !m.pods.iter().any(|p| p == pod) {
                m.pods.push(pod.to_string());
            }
        }
        found.into_iter().map(|m| finding(s, index, m)).collect()
    }
}

fn finding(s: &Snapshot, index: &Index, m: Missing) -> Finding {
    let (ns, sa) = (m.namespace.as_str(), m.name.as_str());
    let reference = m.fd.map(deployment_ref);
    let cluster = reference.as_ref().and_then(|r| index.cluster(r));
    let mut need = rbac_plan::need(index, cluster.as_ref(), m.component, ns, sa, Vec::new());
    need.account_missing = true;
    let plan = rbac_plan::plan(s, &need);
    let who = m.component.title();
    let field = match m.fd {
        Some(fd) if fd.spec.service_account.as_deref() == Some(sa) => format!(
            "FlinkDeployment {} names it in spec.serviceAccount: {sa}",
            fd.name()
        ),
        _ => format!("the {who} pod template names serviceAccountName: {sa}"),
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("ServiceAccount", ns, sa),
        format!(
            "ServiceAccount {sa} does not exist in namespace {ns}: the API server refuses every {who} pod"
        ),
    )
    .deployment(reference)
    .evidence(field);
    for e in &m.evidence {
        f = f.evidence(e.clone());
    }
    if !m.pods.is_empty() {
        f = f.evidence(format!("pods refused: {}", m.pods.join(", ")));
    }
    let fix = format!(
        "Create ServiceAccount {sa} in namespace {ns}, with the rights the {who} needs (the spec already names it, so nothing else changes; the controller creates the pod on its next retry):\n\n{}",
        plan.commands()
    );
    let verify = format!(
        "kubectl get serviceaccount {} -n {}\n{}",
        crate::shell::sh(sa),
        crate::shell::sh(ns),
        plan.verify()
    );
    f.fix(fix)
        .verify(verify)
        .link(link::service_account(ns, sa))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Remedy;
    use crate::rules::testing::{run, scenario, snapshot, HEALTHY_SCENARIOS};

    /// The refusal as the ReplicaSet controller and the operator report it, with the message of
    /// the ServiceAccount admission plugin (`Error creating: ` is the controller's prefix).
    const REFUSED: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: "flink:1.20"
  flinkVersion: v1_20
  serviceAccount: flink
  job: {jarURI: "local:///opt/flink/examples/streaming/StateMachineExample.jar", upgradeMode: stateless}
status: {jobManagerDeploymentStatus: ERROR, lifecycleState: DEPLOYED}
---
apiVersion: v1
kind: Event
metadata: {name: orders-6d5f7c9b8.1, namespace: analytics}
involvedObject: {kind: ReplicaSet, namespace: analytics, name: orders-6d5f7c9b8}
reason: FailedCreate
type: Warning
count: 6
lastTimestamp: "2026-12-01T10:00:00Z"
message: 'Error creating: pods "orders-6d5f7c9b8-" is forbidden: error looking up service account analytics/flink: serviceaccount "flink" not found'
---
apiVersion: v1
kind: Event
metadata: {name: JobManagerDeployment.1, namespace: analytics}
involvedObject: {kind: FlinkDeployment, namespace: analytics, name: orders}
reason: FailedCreate
type: Warning
count: 2
lastTimestamp: "2026-12-01T10:00:30Z"
message: 'pods "orders-6d5f7c9b8-" is forbidden: error looking up service account analytics/flink: serviceaccount "flink" not found'
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: analytics}
"#;

    #[test]
    fn the_fix_creates_the_named_account_with_its_role() {
        let f = run(&ServiceAccountMissing, &snapshot(REFUSED));
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(
            f.object,
            ObjectRef::namespaced("ServiceAccount", "analytics", "flink")
        );
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced(
                "FlinkDeployment",
                "analytics",
                "orders"
            ))
        );
        assert_eq!(
            f.title,
            "ServiceAccount flink does not exist in namespace analytics: the API server refuses every JobManager pod"
        );
        assert!(f.evidence.iter().any(|e| e.contains(
            "error looking up service account analytics/flink: serviceaccount \"flink\" not found"
        )));
        let r = Remedy::from_fix(&f.fix);
        assert_eq!(r.apply.len(), 3, "{}", f.fix);
        let kinds: Vec<serde_json::Value> = r
            .apply
            .iter()
            .map(|d| serde_yaml::from_str(d).unwrap())
            .collect();
        assert_eq!(kinds[0]["kind"], "ServiceAccount");
        assert_eq!(kinds[0]["metadata"]["name"], "flink");
        assert_eq!(kinds[0]["metadata"]["namespace"], "analytics");
        assert_eq!(kinds[1]["kind"], "Role");
        assert_eq!(kinds[2]["kind"], "RoleBinding");
        assert_eq!(kinds[2]["subjects"][0]["name"], "flink");
        // The spec names it already: no switch, no patch.
        assert!(r.run.is_empty(), "{:?}", r.run);
        assert!(f
            .verify
            .starts_with("kubectl get serviceaccount flink -n analytics"));
    }

    #[test]
    fn silent_once_the_account_exists_and_on_healthy_scenarios() {
        let made = format!(
            "{REFUSED}---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: flink, namespace: analytics}}\n"
        );
        assert!(run(&ServiceAccountMissing, &snapshot(&made)).is_empty());
        for name in HEALTHY_SCENARIOS {
            assert!(
                run(&ServiceAccountMissing, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

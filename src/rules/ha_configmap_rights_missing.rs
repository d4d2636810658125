//! FLK302: Kubernetes HA is on, but the JobManager's ServiceAccount may not use ConfigMaps.
//!
//! Kubernetes HA (`high-availability.type: kubernetes`) keeps leader election and the pointers to
//! job graphs and checkpoints in ConfigMaps (`<cluster-id>-cluster-config-map`,
//! `<cluster-id>-<job-id>-config-map`): the JobManager needs get, list, watch, create, update,
//! patch (the leader election's lock renewal) and delete on `configmaps` in its namespace
//! (apache/flink flink-kubernetes `highavailability/KubernetesLeaderElectionHaServices.java`;
//! `permissions::HA`). Without them leader
//! election fails and the JobManager dies on its first 403, in every mode (operator native and
//! standalone, plain native, Lyft with Kubernetes HA).
//!
//! Decided by the authorizer's answer when the gather asked it, else by the RBAC objects read;
//! silent when neither can say (a bundle without RBAC objects).

use super::support::modes::{kubernetes_ha, may, Decided};
use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, Severity};
use crate::flink::mode::Component;
use crate::flink::permissions;
use crate::snapshot::index::Index;
use crate::snapshot::Snapshot;

pub struct HaConfigmapRightsMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK302",
    name: "ha_configmap_rights_missing",
    summary: "Kubernetes HA is on, but the JobManager may not use ConfigMaps",
    category: Category::HaMisconfigured,
    severity: Severity::Critical,
    explains: &["FLK103", "FLK401", "FLK501"],
    fix: r#"grant the JobManager's ServiceAccount ConfigMaps (get, list, watch, create, update, delete) in its namespace: the plan doctor and `kubectl flink can-i --fix` print with HA on"#,
    verify: r#"kubectl auth can-i update configmaps -n <namespace> --as=system:serviceaccount:<namespace>:flink   # expect yes"#,
};

impl Rule for HaConfigmapRightsMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            let conf = index.conf(c);
            if !kubernetes_ha(&conf) {
                continue;
            }
            let ns = c.namespace();
            let sa = c.jobmanager_service_account(&conf);
            let verbs: Vec<&str> = permissions::HA
                .iter()
                .flat_map(|p| p.verbs.iter().copied())
                .collect();
            let mut denied: Vec<&str> = Vec::new();
            let mut how: Option<Decided> = None;
            for verb in &verbs {
                if let Some((false, d)) = may(s, ns, &sa, verb, "", "configmaps") {
                    denied.push(verb);
                    how.get_or_insert(d);
                }
            }
            let Some(how) = how else { continue };
            let ha_key = conf
                .get_any(&["high-availability.type", "high-availability"])
                .map(|(k, v)| format!("{}: {k}: {}", v.source, v.value))
                .unwrap_or_else(|| "high-availability.type: kubernetes".into());
            let refused = denied
                .iter()
                .map(|v| (String::new(), "configmaps".to_string(), v.to_string()))
                .collect();
            let need = rbac_plan::need(index, Some(c), Component::JobManager, ns, &sa, refused);
            let plan = rbac_plan::plan(s, &need);
            let f = Finding::new(
                &META,
                c.reference.clone(),
                format!(
                    "Kubernetes HA is on, but ServiceAccount {ns}/{sa} may not {} configmaps: leader election fails",
                    denied.join(", ")
                ),
            )
            .deployment(Some(c.reference.clone()))
            .evidence(ha_key)
            .evidence(format!("the JobManager runs as ServiceAccount {ns}/{sa}"))
            .evidence(format!(
                "decided by {}: system:serviceaccount:{ns}:{sa} may not {} configmaps in namespace {ns}",
                how.label(),
                denied.join(", ")
            ))
            .evidence("Flink's Kubernetes HA keeps leader election and job pointers in ConfigMaps: it needs get, list, watch, create, update and delete on them")
            .fix(format!("Let the JobManager manage its HA ConfigMaps:\n\n{}", plan.commands()))
            .verify(plan.verify())
            // Keyed by what is refused, not by the account: this explains the JobManager's 403 on
            // ConfigMaps (FLK501; the lab's ha-no-configmaps has both), not a refusal of pods.
            .link(link::refused(ns, &sa, "configmaps"));
            out.push(f);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};
    use crate::snapshot::AccessReview;

    fn with_ha(role_verbs: &str) -> String {
        HEALTHY.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {high-availability.type: kubernetes, high-availability.storageDir: \"s3://data/ha\"}\n",
        ) + &format!(
            r#"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: flink, namespace: flink}}
rules: [{{apiGroups: [""], resources: [pods], verbs: ["*"]}}, {{apiGroups: [""], resources: [configmaps], verbs: {role_verbs}}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: flink, namespace: flink}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}}
subjects: [{{kind: ServiceAccount, name: flink, namespace: flink}}]
"#
        )
    }

    #[test]
    fn fires_when_rbac_lacks_configmap_verbs() {
        let f = run(
            &HaConfigmapRightsMissing,
            &snapshot(&with_ha("[get, list, watch]")),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].title
                .contains("may not create, update, patch, delete configmaps"),
            "{}",
            f[0].title
        );
        assert!(f[0].fix.contains("resources: [\"configmaps\"]\n    verbs: [\"get\", \"list\", \"watch\", \"create\", \"update\", \"patch\", \"delete\"]"), "{}", f[0].fix);
        assert!(f[0].verify.contains(
            "kubectl auth can-i update configmaps -n flink --as=system:serviceaccount:flink:flink"
        ));
    }

    #[test]
    fn silent_with_the_rights_without_ha_or_without_rbac_objects() {
        assert!(run(
            &HaConfigmapRightsMissing,
            &snapshot(&with_ha(
                "[get, list, watch, create, update, patch, delete]"
            ))
        )
        .is_empty());
        assert!(run(&HaConfigmapRightsMissing, &snapshot(HEALTHY)).is_empty());
        let no_rbac = HEALTHY.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {high-availability.type: kubernetes, high-availability.storageDir: \"s3://data/ha\"}\n",
        );
        assert!(run(&HaConfigmapRightsMissing, &snapshot(&no_rbac)).is_empty());
    }

    #[test]
    fn the_authorizer_wins_over_rbac_objects() {
        let mut s = snapshot(&with_ha("[get, list, watch, create, update, delete]"));
        s.access_reviews.push(AccessReview {
            user: "system:serviceaccount:flink:flink".into(),
            verb: "update".into(),
            group: "".into(),
            resource: "configmaps".into(),
            subresource: "".into(),
            namespace: "flink".into(),
            allowed: false,
            reason: "".into(),
        });
        let f = run(&HaConfigmapRightsMissing, &s);
        assert_eq!(f.len(), 1);
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.starts_with("decided by the API server's authorizer")));
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(
            &HaConfigmapRightsMissing,
            &scenario("mode-native-ha-incomplete"),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
            .chain(&["flink-fatal-exit", "oom-killed"])
        {
            assert!(
                run(&HaConfigmapRightsMissing, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

//! FLK460: the Flink REST endpoint exposed as a LoadBalancer.
//!
//! `kubernetes.rest-service.exposed.type: LoadBalancer` gives the `<name>-rest` Service an
//! address outside the cluster (the operator defaults it to ClusterIP). The REST API takes job
//! submissions, i.e. runs arbitrary code, with no authentication by default. An annotation that
//! asks the cloud for an internal load balancer narrows it to the network: an info note then.

use super::{config_yaml, At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK460",
        name: "rest_exposed_load_balancer",
        summary: "kubernetes.rest-service.exposed.type: LoadBalancer exposes Flink's REST API outside the cluster.",
        category: Category::RestExposedPublicly,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"keep the REST service inside the cluster: `kubernetes.rest-service.exposed.type: ClusterIP`, and reach it through `kubectl port-forward` or an authenticated ingress"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK460"#,
    },
    help: "Flink's REST API accepts job submissions (arbitrary code) and has no authentication by default. A \
LoadBalancer gives it an external address. Keep the REST service ClusterIP (the operator's default) and reach the \
UI with kubectl port-forward, or put an authenticating ingress in front of it.",
    run,
};

const KEY: &str = "kubernetes.rest-service.exposed.type";

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment {
        return Vec::new();
    }
    let Some(kind) = m.config.get(KEY) else {
        return Vec::new();
    };
    if !kind.trim().eq_ignore_ascii_case("LoadBalancer") {
        return Vec::new();
    }
    let prefix = m.config_path().to_string();
    let annotations = m
        .config
        .get("kubernetes.rest-service.annotations")
        .unwrap_or("");
    let internal = annotations.to_ascii_lowercase().contains("internal");
    let mut hit = Hit::new(
        At::Config(KEY.to_string()),
        format!("{prefix}.{KEY}: {kind}"),
        if internal {
            "Flink's REST API is exposed through an internal LoadBalancer: reachable from the whole network, without authentication"
        } else {
            "Flink's REST API (which runs submitted code) is exposed outside the cluster through a LoadBalancer"
        },
    )
    .evidence(format!("the Service {}-rest gets an external address; the REST API has no authentication by default", m.name))
    .fix(format!(
        "Keep the REST service inside the cluster:\n\n{}\n\nand reach the UI with\n\nkubectl port-forward{} svc/{}-rest 8081",
        config_yaml(&prefix, &[(KEY, "ClusterIP")]),
        m.ns_flag(),
        crate::shell::sh(&m.name)
    ))
    .verify(format!(
        "kubectl get service {}-rest{} -o jsonpath='{{.spec.type}}'   # expect ClusterIP",
        crate::shell::sh(&m.name),
        m.ns_flag()
    ));
    if internal {
        hit = hit.severity(Severity::Info).evidence(format!(
            "kubernetes.rest-service.annotations: {annotations} (an internal load balancer)"
        ));
    }
    vec![hit]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    fn with(conf: &str) -> String {
        BASIC.replace(
            "    taskmanager.numberOfTaskSlots: \"2\"\n",
            &format!("    taskmanager.numberOfTaskSlots: \"2\"\n{conf}"),
        )
    }

    #[test]
    fn load_balancer_is_reported_cluster_ip_is_not() {
        let h = hits(
            &CHECK,
            &with("    kubernetes.rest-service.exposed.type: LoadBalancer\n"),
        );
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.flinkConfiguration.kubernetes.rest-service.exposed.type: LoadBalancer"
        );
        assert!(hits(
            &CHECK,
            &with("    kubernetes.rest-service.exposed.type: ClusterIP\n")
        )
        .is_empty());
        assert!(hits(&CHECK, BASIC).is_empty());
    }

    #[test]
    fn an_internal_load_balancer_is_a_note() {
        let h = hits(
            &CHECK,
            &with("    kubernetes.rest-service.exposed.type: LoadBalancer\n    kubernetes.rest-service.annotations: \"service.beta.kubernetes.io/aws-load-balancer-internal:true\"\n"),
        );
        assert_eq!(h[0].severity, Some(Severity::Info));
    }
}

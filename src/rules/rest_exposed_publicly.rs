//! FLK420: a Flink REST endpoint is exposed outside the cluster.
//!
//! Flink's REST API takes job submissions (jars it then runs: arbitrary code) and has no
//! authentication by default. `kubernetes.rest-service.exposed.type: LoadBalancer` gives the
//! `<cluster-id>-rest` Service an address outside the cluster, `NodePort` opens it on every node.
//! Read from the Service itself when it is there (a LoadBalancer or NodePort Service of the
//! cluster serving the REST port), else from the configuration: FlinkDeployment
//! `spec.flinkConfiguration`, the `flink-config-<cluster-id>` ConfigMap, a FlinkApplication's
//! `spec.flinkConfig`.
//!
//! Critical for a LoadBalancer, a warning for a NodePort or a LoadBalancer the cloud is asked to
//! keep internal (an annotation): reachable from the network, still without authentication.

use super::support::modes::conf_fix;
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Mode;
use crate::snapshot::index::{meta_name, Cluster, Index};
use crate::snapshot::Snapshot;
use k8s_openapi::api::core::v1::Service;

pub struct RestExposedPublicly;

static META: RuleMeta = RuleMeta {
    id: "FLK420",
    name: "rest_exposed_publicly",
    summary:
        "the Flink REST service is exposed as LoadBalancer or NodePort (it runs arbitrary code)",
    category: Category::RestExposedPublicly,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"keep the REST service inside the cluster: `kubernetes.rest-service.exposed.type: ClusterIP`, and reach it through `kubectl port-forward` or an authenticated ingress"#,
    verify: r#"kubectl get service <name>-rest -o jsonpath='{.spec.type}'   # expect: ClusterIP"#,
};

const KEY: &str = "kubernetes.rest-service.exposed.type";
/// Annotations that ask the cloud for a load balancer inside the network only.
const INTERNAL: &[(&str, &str)] = &[
    ("networking.gke.io/load-balancer-type", "internal"),
    ("cloud.google.com/load-balancer-type", "internal"),
    ("service.beta.kubernetes.io/aws-load-balancer-internal", ""),
    (
        "service.beta.kubernetes.io/aws-load-balancer-scheme",
        "internal",
    ),
    (
        "service.beta.kubernetes.io/azure-load-balancer-internal",
        "true",
    ),
    (
        "service.beta.kubernetes.io/oci-load-balancer-internal",
        "true",
    ),
];

impl Rule for RestExposedPublicly {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            // The FlinkCluster operator owns its Services and Flink configuration: a fix here
            // would be the operator's CR, which this rule does not write.
            if c.mode == Mode::FlinkCluster {
                continue;
            }
            let services = index.services_of(&c.reference);
            if let Some((svc, typ)) = services
                .iter()
                .find_map(|s| exposed_rest(s).map(|t| (*s, t)))
            {
                out.push(from_service(index, c, svc, typ));
                continue;
            }
            // No such Service read: what the configuration asks for.
            let conf = index.conf(c);
            let Some(v) = conf.values.get(KEY) else {
                continue;
            };
            let typ = v.value.trim();
            if !(typ.eq_ignore_ascii_case("LoadBalancer") || typ.eq_ignore_ascii_case("NodePort")) {
                continue;
            }
            let rest = services
                .iter()
                .any(|s| meta_name(&s.metadata) == format!("{}-rest", c.name()));
            if rest {
                // The Service is there and not exposed (changed by hand, or not yet reconciled).
                continue;
            }
            let severity = if typ.eq_ignore_ascii_case("LoadBalancer") {
                Severity::Critical
            } else {
                Severity::Warning
            };
            let object = if c.mode == Mode::Native {
                ObjectRef::namespaced(
                    "ConfigMap",
                    c.namespace(),
                    &format!("flink-config-{}", c.name()),
                )
            } else {
                c.reference.clone()
            };
            let f = Finding::new(
                &META,
                object,
                format!("Flink's REST API (which runs submitted code) is to be exposed as a {typ} Service"),
            )
            .severity(severity)
            .deployment(Some(c.reference.clone()))
            .evidence(format!("{}: {KEY}: {}", v.source, v.value))
            .evidence("the REST API accepts job submissions and has no authentication by default");
            out.push(with_fix(f, c, None));
        }
        out
    }
}

/// A Service that serves Flink's REST port and is reachable from outside: LoadBalancer or
/// NodePort.
fn exposed_rest(svc: &Service) -> Option<&str> {
    let spec = svc.spec.as_ref()?;
    let typ = spec.type_.as_deref()?;
    if typ != "LoadBalancer" && typ != "NodePort" {
        return None;
    }
    let rest = spec
        .ports
        .iter()
        .flatten()
        .any(|p| matches!(p.name.as_deref(), Some("rest" | "ui")) || p.port == 8081);
    rest.then_some(typ)
}

fn internal(svc: &Service) -> Option<String> {
    let a = svc.metadata.annotations.as_ref()?;
    INTERNAL.iter().find_map(|(k, v)| {
        let value = a.get(*k)?;
        (v.is_empty() || value.eq_ignore_ascii_case(v)).then(|| format!("{k}: {value}"))
    })
}

fn from_service(index: &Index, c: &Cluster, svc: &Service, typ: &str) -> Finding {
    let ns = c.namespace();
    let svc_name = meta_name(&svc.metadata);
    let internal = internal(svc);
    let addresses: Vec<String> = svc
        .status
        .as_ref()
        .and_then(|s| s.load_balancer.as_ref())
        .and_then(|lb| lb.ingress.as_ref())
        .map(|ing| {
            ing.iter()
                .filter_map(|i| i.ip.clone().or_else(|| i.hostname.clone()))
                .collect()
        })
        .unwrap_or_default();
    let severity = if typ == "LoadBalancer" && internal.is_none() {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let ports: Vec<String> = svc
        .spec
        .as_ref()
        .and_then(|s| s.ports.as_ref())
        .map(|ps| {
            ps.iter()
                .map(|p| match p.node_port {
                    Some(np) => format!(
                        "{}:{}/{}",
                        p.port,
                        np,
                        p.protocol.as_deref().unwrap_or("TCP")
                    ),
                    None => format!("{}/{}", p.port, p.protocol.as_deref().unwrap_or("TCP")),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Service", ns, svc_name),
        match (&internal, typ) {
            (Some(_), _) => "Flink's REST API (which runs submitted code) is exposed through an internal LoadBalancer: reachable from the whole network, without authentication".to_string(),
            (None, "LoadBalancer") => "Flink's REST API (which runs submitted code) is exposed outside the cluster through a LoadBalancer".to_string(),
            _ => "Flink's REST API (which runs submitted code) is exposed on every node through a NodePort".to_string(),
        },
    )
    .severity(severity)
    .deployment(Some(c.reference.clone()))
    .evidence(format!("Service {svc_name} type: {typ}, ports {}", ports.join(", ")));
    if !addresses.is_empty() {
        f = f.evidence(format!("external address: {}", addresses.join(", ")));
    }
    if let Some(a) = internal {
        f = f.evidence(format!("annotation {a}"));
    }
    if let Some(e) = index.conf(c).evidence(KEY) {
        f = f.evidence(e);
    }
    f = f.evidence("the REST API accepts job submissions and has no authentication by default");
    with_fix(f, c, Some(svc_name))
}

fn with_fix(f: Finding, c: &Cluster, service: Option<&str>) -> Finding {
    let (ns, name) = (c.namespace(), c.name());
    let svc = service
        .map(str::to_string)
        .unwrap_or_else(|| format!("{name}-rest"));
    let svc = crate::shell::sh(&svc);
    let reach = format!(
        "Reach the UI from your machine instead:\n\nkubectl port-forward -n {ns} svc/{svc} 8081"
    );
    let patch_svc =
        format!("kubectl patch service {svc} -n {ns} -p '{{\"spec\":{{\"type\":\"ClusterIP\"}}}}'");
    let fix = match c.mode {
        Mode::Operator | Mode::Standalone if c.flink_deployment.is_some() => format!(
            "Keep the REST service inside the cluster:\n\n{}\n\n{reach}",
            conf_fix(c, &[(KEY, "ClusterIP")])
        ),
        Mode::Lyft => format!(
            "Keep the JobManager's Service inside the cluster:\n\n{patch_svc}\n\n{reach}"
        ),
        _ => format!(
            "Close it now (Flink does not recreate the Service while the cluster runs):\n\n{patch_svc}\n\nand keep it closed when the cluster is next started:\n\n{}\n\n{reach}",
            conf_fix(c, &[(KEY, "ClusterIP")])
        ),
    };
    f.fix(fix).verify(format!(
        "kubectl get service {svc} -n {ns} -o jsonpath='{{.spec.type}}{{\"\\n\"}}'   # expect: ClusterIP"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const SERVICE: &str = r#"
---
apiVersion: v1
kind: Service
metadata:
  name: basic-rest
  namespace: flink
  labels: {app: basic, type: flink-native-kubernetes}
spec:
  type: LoadBalancer
  selector: {app: basic, component: jobmanager, type: flink-native-kubernetes}
  ports: [{name: rest, port: 8081, targetPort: 8081, nodePort: 31081, protocol: TCP}]
status: {loadBalancer: {ingress: [{ip: 203.0.113.10}]}}
"#;

    #[test]
    fn fires_on_a_load_balancer_rest_service() {
        let s = snapshot(&format!("{HEALTHY}{SERVICE}"));
        let f = run(&RestExposedPublicly, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("Service", "flink", "basic-rest")
        );
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e == "external address: 203.0.113.10"));
        assert!(
            f[0].fix
                .contains("\"kubernetes.rest-service.exposed.type\":\"ClusterIP\""),
            "{}",
            f[0].fix
        );
        assert!(f[0]
            .verify
            .contains("kubectl get service basic-rest -n flink"));
    }

    #[test]
    fn an_internal_load_balancer_or_a_node_port_is_a_warning() {
        let internal = SERVICE.replace(
            "  labels: {app: basic, type: flink-native-kubernetes}\n",
            "  labels: {app: basic, type: flink-native-kubernetes}\n  annotations: {networking.gke.io/load-balancer-type: Internal}\n",
        );
        let f = run(
            &RestExposedPublicly,
            &snapshot(&format!("{HEALTHY}{internal}")),
        );
        assert_eq!(f[0].severity, Severity::Warning);
        let node_port = SERVICE.replace("type: LoadBalancer", "type: NodePort");
        let f = run(
            &RestExposedPublicly,
            &snapshot(&format!("{HEALTHY}{node_port}")),
        );
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn fires_from_the_configuration_when_the_service_is_not_there() {
        let y = HEALTHY.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {kubernetes.rest-service.exposed.type: LoadBalancer}\n",
        );
        let f = run(&RestExposedPublicly, &snapshot(&y));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].object.kind, "FlinkDeployment");
        assert_eq!(f[0].evidence[0], "FlinkDeployment spec.flinkConfiguration: kubernetes.rest-service.exposed.type: LoadBalancer");
    }

    #[test]
    fn silent_on_cluster_ip() {
        let s = snapshot(&format!(
            "{HEALTHY}{}",
            SERVICE.replace("type: LoadBalancer", "type: ClusterIP")
        ));
        assert!(run(&RestExposedPublicly, &s).is_empty());
        assert!(run(&RestExposedPublicly, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&RestExposedPublicly, &scenario("mode-native-exposed"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].object.kind, "Service");
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(
                run(&RestExposedPublicly, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

//! Which operator a Deployment or pod of the snapshot is, from its wiring (`flink::identity`):
//! its labels, its images, the webhook Service that selects its pods, the ServiceAccount bound to
//! a (Cluster)Role over an operator's CRD group. The one place the rest of the code asks.

use super::Snapshot;
use crate::flink::identity::{by_containers, by_labels, OperatorKind, Wiring};
use crate::flink::install::{serves_apache, serves_flinkcluster};
use k8s_openapi::api::admissionregistration::v1::RuleWithOperations;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Pod, PodSpec};
use std::collections::BTreeMap;

/// A pod that nothing of its own places (no Flink label, no operator label or image, no webhook
/// Service selecting it), kept for the diagnosis because it runs where an operator does: the
/// generic pod rules read it, and its findings say which operator it probably is, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probable {
    pub namespace: String,
    pub name: String,
    pub operator: OperatorKind,
    /// `it runs in NS, beside ...`.
    pub why: String,
}

impl Probable {
    /// The evidence line a finding about the pod carries.
    /// One line whatever the names hold (`shell::escape_controls`).
    pub fn evidence(&self) -> String {
        crate::shell::escape_controls(&format!(
            "pod {}/{} is probably {}: {}; no label, image or webhook Service of its own says so",
            self.namespace,
            self.name,
            self.operator.describe(),
            self.why
        ))
    }
}

/// What the operator of an object is asked of: a Deployment or a pod.
pub trait Workload {
    fn operator(&self, s: &Snapshot) -> Option<(OperatorKind, Wiring)>;
}

impl Workload for Deployment {
    fn operator(&self, s: &Snapshot) -> Option<(OperatorKind, Wiring)> {
        deployment_operator(s, self)
    }
}

impl<T: Workload> Workload for &T {
    fn operator(&self, s: &Snapshot) -> Option<(OperatorKind, Wiring)> {
        (*self).operator(s)
    }
}

impl Workload for Pod {
    fn operator(&self, s: &Snapshot) -> Option<(OperatorKind, Wiring)> {
        pod_operator(s, self)
    }
}

/// The operator an object is, and the wiring that says so: its labels, its images, the webhook
/// Service that selects its pods, the ServiceAccount bound to a role over an operator's CRD
/// group. The one way the rest of the code asks.
pub fn operator_of<W: Workload>(s: &Snapshot, object: &W) -> Option<(OperatorKind, Wiring)> {
    object.operator(s)
}

/// The operator a Deployment is, and the wiring that says so.
fn deployment_operator(s: &Snapshot, d: &Deployment) -> Option<(OperatorKind, Wiring)> {
    let ns = d.metadata.namespace.as_deref().unwrap_or("default");
    let template_labels = d
        .spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.as_ref());
    let spec = d.spec.template.spec.as_ref();
    workload_operator(
        s,
        ns,
        d.metadata.labels.as_ref(),
        template_labels,
        spec,
        is_flink_workload(d.metadata.labels.as_ref()),
    )
}

/// The operator a pod is, and the wiring that says so.
fn pod_operator(s: &Snapshot, p: &Pod) -> Option<(OperatorKind, Wiring)> {
    let ns = p.metadata.namespace.as_deref().unwrap_or("default");
    let labels = p.metadata.labels.as_ref();
    workload_operator(
        s,
        ns,
        labels,
        labels,
        p.spec.as_ref(),
        is_flink_workload(labels),
    )
}

/// A Flink cluster's own Deployment or pod (JobManager, TaskManager, Lyft's): never an operator
/// by its account's rights.
fn is_flink_workload(labels: Option<&BTreeMap<String, String>>) -> bool {
    use crate::flink::mode::Component;
    use crate::flink::names::LABEL_FLINK_APP;
    Component::labelled(labels) || labels.is_some_and(|l| l.contains_key(LABEL_FLINK_APP))
}

fn workload_operator(
    s: &Snapshot,
    ns: &str,
    labels: Option<&BTreeMap<String, String>>,
    pod_labels: Option<&BTreeMap<String, String>>,
    spec: Option<&PodSpec>,
    flink_workload: bool,
) -> Option<(OperatorKind, Wiring)> {
    if let Some(found) = by_labels(labels).or_else(|| by_labels(pod_labels)) {
        return Some(found);
    }
    if let Some(found) = spec.and_then(|p| {
        by_containers(
            p.containers
                .iter()
                .map(|c| (c.name.as_str(), c.image.as_deref())),
        )
    }) {
        return Some(found);
    }
    if let Some(found) = pod_labels.and_then(|l| by_webhook_service(s, ns, l)) {
        return Some(found);
    }
    if flink_workload {
        return None;
    }
    let account = spec
        .and_then(|p| {
            p.service_account_name
                .as_deref()
                .or(p.service_account.as_deref())
        })
        .unwrap_or("default");
    by_rbac(s, ns, account)
}

/// The operator whose webhook calls a Service in `ns` whose selector picks pods labelled `labels`.
pub fn by_webhook_service(
    s: &Snapshot,
    ns: &str,
    labels: &BTreeMap<String, String>,
) -> Option<(OperatorKind, Wiring)> {
    let hooks = s
        .validating_webhooks
        .iter()
        .flat_map(|c| {
            c.webhooks
                .iter()
                .flatten()
                .map(move |w| (c, &w.name, w.rules.as_ref(), &w.client_config))
        })
        .map(|(c, n, r, cc)| (c.metadata.name.as_deref(), n, r, cc))
        .chain(s.mutating_webhooks.iter().flat_map(|c| {
            c.webhooks.iter().flatten().map(move |w| {
                (
                    c.metadata.name.as_deref(),
                    &w.name,
                    w.rules.as_ref(),
                    &w.client_config,
                )
            })
        }));
    for (config, name, rules, client) in hooks {
        let Some(kind) = hook_kind(name, rules) else {
            continue;
        };
        let Some(svc) = client.service.as_ref().filter(|x| x.namespace == ns) else {
            continue;
        };
        let selects = s
            .services
            .iter()
            .filter(|x| {
                x.metadata.namespace.as_deref() == Some(ns)
                    && x.metadata.name.as_deref() == Some(svc.name.as_str())
            })
            .filter_map(|x| x.spec.as_ref()?.selector.as_ref())
            .any(|sel| !sel.is_empty() && sel.iter().all(|(k, v)| labels.get(k) == Some(v)));
        if selects {
            return Some((
                kind,
                Wiring::WebhookService {
                    config: config.unwrap_or("").to_string(),
                    namespace: ns.to_string(),
                    service: svc.name.clone(),
                },
            ));
        }
    }
    None
}

fn hook_kind(name: &str, rules: Option<&Vec<RuleWithOperations>>) -> Option<OperatorKind> {
    if serves_apache(name, rules) {
        Some(OperatorKind::Apache)
    } else if serves_flinkcluster(name, rules) {
        Some(OperatorKind::FlinkCluster)
    } else {
        None
    }
}

/// The Services the Flink operators' webhook configurations call: (operator, configuration,
/// namespace, Service).
pub fn webhook_services(s: &Snapshot) -> Vec<(OperatorKind, &str, &str, &str)> {
    let validating = s.validating_webhooks.iter().flat_map(|c| {
        c.webhooks.iter().flatten().map(move |w| {
            (
                c.metadata.name.as_deref(),
                &w.name,
                w.rules.as_ref(),
                &w.client_config,
            )
        })
    });
    let mutating = s.mutating_webhooks.iter().flat_map(|c| {
        c.webhooks.iter().flatten().map(move |w| {
            (
                c.metadata.name.as_deref(),
                &w.name,
                w.rules.as_ref(),
                &w.client_config,
            )
        })
    });
    let mut out: Vec<(OperatorKind, &str, &str, &str)> = validating
        .chain(mutating)
        .filter_map(|(config, name, rules, client)| {
            let kind = hook_kind(name, rules)?;
            let svc = client.service.as_ref()?;
            Some((
                kind,
                config.unwrap_or(""),
                svc.namespace.as_str(),
                svc.name.as_str(),
            ))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Why an object in namespace `ns` is probably an operator's when nothing of its own says so:
/// the namespace holds an operator found by its wiring, or the Service a Flink webhook calls.
/// `None` when the namespace is nobody's in particular.
pub fn operator_namespace(s: &Snapshot, ns: &str) -> Option<(OperatorKind, String)> {
    let in_ns = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
        m.namespace.as_deref().unwrap_or("default") == ns
    };
    for d in s
        .operator_deployments
        .iter()
        .chain(&s.deployments)
        .filter(|d| in_ns(&d.metadata))
    {
        if let Some((kind, wiring)) = operator_of(s, d) {
            return Some((
                kind,
                format!(
                    "it runs in {ns}, beside {}'s Deployment {} (found by {wiring})",
                    kind.describe(),
                    d.metadata.name.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    for p in s.operator_pods.iter().filter(|p| in_ns(&p.metadata)) {
        if let Some((kind, wiring)) = operator_of(s, p) {
            return Some((
                kind,
                format!(
                    "it runs in {ns}, beside {}'s pod {} (found by {wiring})",
                    kind.describe(),
                    p.metadata.name.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    webhook_services(s)
        .into_iter()
        .find(|(_, _, n, _)| *n == ns)
        .map(|(kind, config, _, svc)| {
            (
                kind,
                format!(
                    "it runs in {ns}, the namespace of Service {svc}, which webhook configuration {config} of {} calls",
                    kind.describe()
                ),
            )
        })
}

/// The operator whose CRD group a (Cluster)Role bound to ServiceAccount `ns/account` grants
/// rights over (a named group: `*` is every controller's, not an operator's sign).
pub fn by_rbac(s: &Snapshot, ns: &str, account: &str) -> Option<(OperatorKind, Wiring)> {
    let is_account = |subjects: Option<&Vec<k8s_openapi::api::rbac::v1::Subject>>| {
        subjects.into_iter().flatten().any(|x| {
            x.kind == "ServiceAccount"
                && x.name == account
                && x.namespace.as_deref().unwrap_or(ns) == ns
        })
    };
    let refs = s
        .cluster_role_bindings
        .iter()
        .filter(|b| is_account(b.subjects.as_ref()))
        .map(|b| (&b.role_ref, None))
        .chain(
            s.role_bindings
                .iter()
                .filter(|b| b.metadata.namespace.as_deref() == Some(ns))
                .filter(|b| is_account(b.subjects.as_ref()))
                .map(|b| (&b.role_ref, Some(ns))),
        );
    for (role_ref, binding_ns) in refs {
        let rules = if role_ref.kind == "ClusterRole" {
            s.cluster_roles
                .iter()
                .find(|r| r.metadata.name.as_deref() == Some(role_ref.name.as_str()))
                .and_then(|r| r.rules.as_ref())
        } else {
            s.roles
                .iter()
                .find(|r| {
                    r.metadata.name.as_deref() == Some(role_ref.name.as_str())
                        && r.metadata.namespace.as_deref() == binding_ns
                })
                .and_then(|r| r.rules.as_ref())
        };
        let group = rules
            .into_iter()
            .flatten()
            .flat_map(|r| r.api_groups.iter().flatten())
            .find_map(|g| OperatorKind::of_group(g).map(|k| (k, g.clone())));
        if let Some((kind, group)) = group {
            return Some((
                kind,
                Wiring::Rbac {
                    account: format!("{ns}/{account}"),
                    role: format!("{} {}", role_ref.kind, role_ref.name),
                    group,
                },
            ));
        }
    }
    None
}

/// Every wiring that finds the operator a Deployment is: a report's evidence says all of them.
pub fn labels_of(m: &BTreeMap<String, String>) -> String {
    m.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

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

/// A pod or Deployment that nothing of its own places (no Flink label, no operator label or image,
/// no webhook Service selecting it), kept for the diagnosis because its account has rights over an
/// operator's CRD group or it runs where an operator does: the generic pod rules read the pods,
/// their findings say which operator it probably is and why, and the overview lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probable {
    /// `Pod` or `Deployment`.
    pub kind: &'static str,
    pub namespace: String,
    pub name: String,
    pub operator: OperatorKind,
    /// `it runs in NS, beside ...`, or the ServiceAccount wiring.
    pub why: String,
}

impl Probable {
    /// The evidence line a finding about the object carries.
    /// One line whatever the names hold (`shell::escape_controls`).
    pub fn evidence(&self) -> String {
        crate::shell::escape_controls(&format!(
            "{} {}/{} is probably {}: {}; no label, image or webhook Service of its own says so",
            self.kind.to_lowercase(),
            self.namespace,
            self.name,
            self.operator.describe(),
            self.why
        ))
    }
}

/// Where a pod that no Flink cluster's labels claim belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// An operator's by what it carries or the webhook Service that selects it.
    Operator,
    /// Probably an operator's: (operator, why).
    Probable(OperatorKind, String),
    /// Nobody's that the diagnosis knows of: left out.
    Nobody,
}

/// Where a pod of no Flink cluster belongs (the one decision a bundle and the live gather share):
/// the operator's when its wiring says so by itself (`Wiring::certain`); probably an operator's
/// when its account has rights over an operator's CRD group, or when it runs where an operator
/// does (`operator_namespace`); else nobody's.
pub fn place(s: &Snapshot, p: &Pod) -> Placed {
    match operator_of(s, p) {
        Some((_, w)) if w.certain() => Placed::Operator,
        Some((kind, w)) => Placed::Probable(kind, w.to_string()),
        None => {
            let ns = p.metadata.namespace.as_deref().unwrap_or("default");
            match operator_namespace(s, ns) {
                Some((kind, why)) => Placed::Probable(kind, why),
                None => Placed::Nobody,
            }
        }
    }
}

/// The operator a Deployment surely is (`Wiring::certain`): its labels, images or the webhook
/// Service that selects its pods. An account's rights alone make it probable (`probable_of`).
pub fn certain_operator(s: &Snapshot, d: &Deployment) -> Option<(OperatorKind, Wiring)> {
    operator_of(s, d).filter(|(_, w)| w.certain())
}

/// Why a Deployment that is no operator for sure is probably one: its account's rights over an
/// operator's CRD group.
pub fn probable_of(s: &Snapshot, d: &Deployment) -> Option<Probable> {
    let (operator, w) = operator_of(s, d).filter(|(_, w)| !w.certain())?;
    Some(Probable {
        kind: "Deployment",
        namespace: d
            .metadata
            .namespace
            .clone()
            .unwrap_or_else(|| "default".into()),
        name: d.metadata.name.clone().unwrap_or_default(),
        operator,
        why: w.to_string(),
    })
}

/// The namespaces of the ServiceAccounts bound to a (Cluster)Role with rights over an operator's
/// CRD group: where an operator the labels and images do not name may run (the live gather reads
/// their Deployments).
pub fn rbac_namespaces(s: &Snapshot) -> std::collections::BTreeSet<String> {
    let grants = |kind: &str, name: &str, ns: Option<&str>| {
        let rules = if kind == "ClusterRole" {
            s.cluster_roles
                .iter()
                .find(|r| r.metadata.name.as_deref() == Some(name))
                .and_then(|r| r.rules.as_ref())
        } else {
            s.roles
                .iter()
                .find(|r| {
                    r.metadata.name.as_deref() == Some(name)
                        && r.metadata.namespace.as_deref() == ns
                })
                .and_then(|r| r.rules.as_ref())
        };
        rules
            .into_iter()
            .flatten()
            .flat_map(|r| r.api_groups.iter().flatten())
            .any(|g| OperatorKind::of_group(g).is_some())
    };
    let accounts = |subjects: Option<&Vec<k8s_openapi::api::rbac::v1::Subject>>,
                    ns: Option<&str>| {
        subjects
            .into_iter()
            .flatten()
            .filter(|x| x.kind == "ServiceAccount")
            .filter_map(|x| x.namespace.clone().or_else(|| ns.map(str::to_string)))
            .collect::<Vec<_>>()
    };
    let mut out = std::collections::BTreeSet::new();
    for b in &s.cluster_role_bindings {
        if grants(&b.role_ref.kind, &b.role_ref.name, None) {
            out.extend(accounts(b.subjects.as_ref(), None));
        }
    }
    for b in &s.role_bindings {
        let ns = b.metadata.namespace.as_deref();
        if grants(&b.role_ref.kind, &b.role_ref.name, ns) {
            out.extend(accounts(b.subjects.as_ref(), ns));
        }
    }
    out
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
/// the namespace holds an operator its own wiring names for sure (`Wiring::certain`: an account's
/// rights alone do not make a namespace an operator's), or the Service a Flink webhook calls.
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
        if let Some((kind, wiring)) = certain_operator(s, d) {
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
        if let Some((kind, wiring)) = operator_of(s, p).filter(|(_, w)| w.certain()) {
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

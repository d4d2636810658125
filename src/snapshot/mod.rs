//! The Snapshot: plain, immutable data that a live cluster and an offline bundle both produce.
//! Rules read only this; they never do I/O and never read the clock (`captured_at` is "now").

pub mod bundle;
pub mod deprecated;
pub mod flink;
pub mod identity;
pub mod index;
pub mod kinds;
pub mod pod;
pub mod refused;
mod stream;
pub mod text;
pub mod wanted;

use crate::flink::rbac;
use chrono::{DateTime, Utc};
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{
    ConfigMap, Endpoints, Event, LimitRange, Namespace, Node, ResourceQuota, Secret, Service,
    ServiceAccount,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use k8s_openapi::api::scheduling::v1::PriorityClass;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde::Serialize;
use std::collections::BTreeMap;

pub use flink::{
    FlinkApplication, FlinkCluster, FlinkDeployment, FlinkSessionJob, FlinkStateSnapshot,
};
pub use index::Index;
pub use pod::Pod;

/// Everything the rules may look at.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// "Now" for the rules: when the cluster was read, or the newest timestamp in a bundle.
    pub captured_at: DateTime<Utc>,
    /// The namespaces in scope; empty means all namespaces.
    pub namespaces: Vec<String>,
    pub flink_deployments: Vec<FlinkDeployment>,
    pub flink_session_jobs: Vec<FlinkSessionJob>,
    /// The Apache operator's FlinkStateSnapshots (operator 1.10 and later; none before).
    pub flink_state_snapshots: Vec<FlinkStateSnapshot>,
    /// Lyft flinkk8soperator's FlinkApplications (flink.k8s.io/v1beta1).
    pub flink_applications: Vec<FlinkApplication>,
    /// The GCP/Spotify operator's FlinkClusters (flinkoperator.k8s.io/v1beta1).
    pub flink_clusters: Vec<FlinkCluster>,
    /// Pods of Flink clusters in scope (operator, native, standalone, Lyft and FlinkCluster
    /// labels; a FlinkCluster's job submitter pods too), slim: the fields the rules read (`pod`).
    pub pods: Vec<Pod>,
    /// StatefulSets of FlinkClusters (`app=flink,cluster=<name>`): JobManager and TaskManagers.
    pub stateful_sets: Vec<StatefulSet>,
    /// Jobs (batch/v1) of FlinkClusters: the job submitter (`<name>-job-submitter`), or the
    /// JobManager in application mode.
    pub jobs: Vec<Job>,
    pub deployments: Vec<Deployment>,
    pub services: Vec<Service>,
    pub config_maps: Vec<ConfigMap>,
    /// Public certificates only: every key but `tls.crt` and `ca.crt` is dropped when read,
    /// and `--save` drops those too (metadata only).
    pub secrets: Vec<Secret>,
    pub endpoint_slices: Vec<EndpointSlice>,
    /// `v1 Endpoints`, which older tools and `kubectl get endpoints` put in bundles instead of
    /// EndpointSlices (the live gather reads EndpointSlices only).
    pub endpoints: Vec<Endpoints>,
    /// The operator's installation, wherever it runs (cluster-wide reads).
    pub operator_deployments: Vec<Deployment>,
    /// The operator's own few pods, whole (k8s-openapi's type): the installation rules read
    /// their volumes, environment and webhook containers, which the slim `Pod` does not keep.
    pub operator_pods: Vec<k8s_openapi::api::core::v1::Pod>,
    pub operator_config_maps: Vec<ConfigMap>,
    pub crds: Vec<CustomResourceDefinition>,
    pub validating_webhooks: Vec<ValidatingWebhookConfiguration>,
    pub mutating_webhooks: Vec<MutatingWebhookConfiguration>,
    /// cert-manager.io objects (Certificate, Issuer, ClusterIssuer) in the operator's
    /// namespace(s), untyped: read only when cert-manager's CRDs exist.
    pub cert_manager_objects: Vec<serde_json::Value>,
    pub events: Vec<Event>,
    /// The ResourceQuotas in scope (listed; and any a refusal names in an event, a Deployment's
    /// condition or a JobManager's log that the list did not give, read by name).
    pub resource_quotas: Vec<ResourceQuota>,
    /// LimitRanges in scope.
    pub limit_ranges: Vec<LimitRange>,
    /// Namespaces (their labels), cluster-wide.
    pub namespaces_objects: Vec<Namespace>,
    /// Nodes, slim (`kinds::slim_node`): metadata, `spec.taints` and `unschedulable`,
    /// `status.allocatable`, `capacity` and `conditions`; never `status.images`.
    pub nodes: Vec<Node>,
    pub priority_classes: Vec<PriorityClass>,
    pub service_accounts: Vec<ServiceAccount>,
    pub roles: Vec<Role>,
    pub role_bindings: Vec<RoleBinding>,
    pub cluster_roles: Vec<ClusterRole>,
    pub cluster_role_bindings: Vec<ClusterRoleBinding>,
    /// Container logs, current and previous instance.
    pub logs: BTreeMap<LogKey, String>,
    /// Decisions of the API server's authorizer, asked during gather (live only).
    pub access_reviews: Vec<AccessReview>,
    /// What could not be read, and why.
    pub gaps: Vec<Gap>,
    /// Whether RBAC objects were read (so rules may reason from their absence).
    pub rbac_complete: bool,
    /// Whether the installation (operator Deployment, CRDs, webhooks) was looked for: set by the
    /// live gather when it could read it, and by bundles that hold installation objects. Rules
    /// conclude that something of the installation is absent only when this is true.
    pub install_checked: bool,
    /// For a bundle: the kinds it speaks about (an object of the kind, or a typed list such as
    /// `EndpointSliceList`, even empty). `None` for a live cluster, which lists every kind it
    /// needs (what it could not list is in `gaps`). See `Snapshot::holds`.
    pub bundle_kinds: Option<std::collections::BTreeSet<String>>,
    /// Pods and Deployments that nothing of their own places but their account's rights or where
    /// they run: probably an operator's (`identity::Probable`). The pods are in `pods`, for the
    /// generic pod rules; the Deployments in `deployments`.
    pub probable_operators: Vec<identity::Probable>,
    /// The namespaces whose every Deployment and pod the live gather read because an operator
    /// runs there, a Flink webhook's Service is there, or an account there has rights over an
    /// operator's CRD group (evidence of what an absence was concluded from). Empty for a bundle.
    pub operator_namespaces_read: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LogKey {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub previous: bool,
}

impl LogKey {
    pub fn new(namespace: &str, pod: &str, container: &str, previous: bool) -> Self {
        LogKey {
            namespace: namespace.to_string(),
            pod: pod.to_string(),
            container: container.to_string(),
            previous,
        }
    }
}

/// One question put to the API server's authorizer (SubjectAccessReview) and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccessReview {
    /// `system:serviceaccount:NS:SA` or a user name.
    pub user: String,
    pub verb: String,
    pub group: String,
    pub resource: String,
    pub subresource: String,
    pub namespace: String,
    pub allowed: bool,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GapReason {
    Forbidden,
    NotInstalled,
    Timeout,
    Error,
}

/// Something the diagnosis needed and could not read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Gap {
    pub verb: String,
    pub group: String,
    pub resource: String,
    /// None for cluster-scoped reads or all namespaces.
    pub namespace: Option<String>,
    pub reason: GapReason,
    pub message: String,
}

impl Snapshot {
    /// The RBAC objects this snapshot holds, as Kubernetes' RBAC authorizer evaluates them.
    pub fn rbac_policy(&self) -> rbac::Policy<'_> {
        rbac::Policy::new(
            &self.roles,
            &self.role_bindings,
            &self.cluster_roles,
            &self.cluster_role_bindings,
        )
    }

    /// Whether the ServiceAccount may do this, from the RBAC objects in the snapshot; `None` when
    /// the snapshot holds no complete set of RBAC objects to decide from.
    pub fn rbac_allows(&self, req: &rbac::Request) -> Option<bool> {
        self.rbac_complete
            .then(|| rbac::allows(&self.rbac_policy(), req))
    }

    /// Whether the absence of an object of `kind` means something: a live cluster listed it
    /// (unless a gap says otherwise), a bundle only when it holds that kind at all.
    pub fn holds(&self, kind: &str) -> bool {
        self.bundle_kinds.as_ref().is_none_or(|k| k.contains(kind))
    }

    /// `holds`, by the resource's plural as the API names it (`endpointslices`, `secrets`).
    pub fn holds_resource(&self, resource: &str) -> bool {
        self.bundle_kinds
            .as_ref()
            .is_none_or(|kinds| kinds.iter().any(|k| plural(k) == resource))
    }
    pub fn log(&self, namespace: &str, pod: &str, container: &str, previous: bool) -> Option<&str> {
        self.logs
            .get(&LogKey::new(namespace, pod, container, previous))
            .map(String::as_str)
    }
}

/// The API's plural of a kind: `Endpoints` -> `endpoints`, `Policy` -> `policies`, `Pod` -> `pods`.
pub fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s') {
        lower
    } else if let Some(stem) = lower.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{lower}s")
    }
}

/// k8s-openapi's timestamps, converted to chrono at the edge (the project's own time type).
pub fn to_utc(t: &k8s_openapi::apimachinery::pkg::apis::meta::v1::Time) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.0.as_second(), t.0.subsec_nanosecond().max(0) as u32)
}

pub fn micro_to_utc(
    t: &k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime,
) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.0.as_second(), t.0.subsec_nanosecond().max(0) as u32)
}

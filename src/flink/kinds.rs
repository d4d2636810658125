//! The resource kinds kubectl-flink reads, each described once: its API group, version, kind,
//! plural and scope. Built-in kinds take these from k8s-openapi's own constants
//! (`k8s_openapi::Resource`: `GROUP`, `VERSION`, `API_VERSION`, `KIND`, `URL_PATH_SEGMENT`, `Scope`);
//! the custom resources the code models carry the values of their CRDs (the Apache operator's
//! apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/crds/, Lyft's
//! lyft/flinkk8soperator@v0.7.0:deploy/crd.yaml, the GCP/Spotify operator's
//! spotify/flink-on-k8s-operator@v0.6.0:config/crd/bases/, cert-manager's v1 API).
//!
//! [`LISTED`] is what `doctor` lists in its first wave: the live gather lists exactly these, the
//! permissions the tool itself needs (`permissions::ME`) follow from them, and the snapshot's
//! table of fields (`snapshot::kinds`) says where the objects of each kind go.

use super::permissions::Permission;
use super::{install, names};
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{
    ConfigMap, Endpoints, Event, LimitRange, Namespace, Node, Pod, ResourceQuota, Secret, Service,
    ServiceAccount,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use k8s_openapi::api::scheduling::v1::PriorityClass;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// One resource kind as the API server serves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kind {
    /// `""` for the core group.
    pub group: &'static str,
    pub version: &'static str,
    /// `group/version`, or the version alone for the core group (the `apiVersion` field).
    pub api_version: &'static str,
    pub kind: &'static str,
    /// The plural in URLs and RBAC rules (`pods`, `flinkdeployments`).
    pub plural: &'static str,
    /// Namespaced, or cluster-scoped.
    pub namespaced: bool,
}

/// Whether a k8s-openapi scope is a namespace's.
pub trait Scope {
    const NAMESPACED: bool;
}
impl Scope for k8s_openapi::NamespaceResourceScope {
    const NAMESPACED: bool = true;
}
impl Scope for k8s_openapi::ClusterResourceScope {
    const NAMESPACED: bool = false;
}

impl Kind {
    /// A built-in kind, from k8s-openapi's constants.
    pub const fn of<K>() -> Kind
    where
        K: k8s_openapi::Resource,
        K::Scope: Scope,
    {
        Kind {
            group: K::GROUP,
            version: K::VERSION,
            api_version: K::API_VERSION,
            kind: K::KIND,
            plural: K::URL_PATH_SEGMENT,
            namespaced: <K::Scope as Scope>::NAMESPACED,
        }
    }

    /// `kind.group` as kubectl names a resource (`pods`, `flinkdeployments.flink.apache.org`).
    pub fn resource(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_string()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }
}

pub const FLINK_DEPLOYMENT: Kind = Kind {
    group: names::GROUP,
    version: names::VERSION,
    api_version: "flink.apache.org/v1beta1",
    kind: names::KIND_FLINK_DEPLOYMENT,
    plural: "flinkdeployments",
    namespaced: true,
};
pub const FLINK_SESSION_JOB: Kind = Kind {
    group: names::GROUP,
    version: names::VERSION,
    api_version: "flink.apache.org/v1beta1",
    kind: "FlinkSessionJob",
    plural: "flinksessionjobs",
    namespaced: true,
};
/// The Apache operator's savepoints and checkpoints as resources (operator 1.10 and later).
pub const FLINK_STATE_SNAPSHOT: Kind = Kind {
    group: names::GROUP,
    version: names::VERSION,
    api_version: "flink.apache.org/v1beta1",
    kind: "FlinkStateSnapshot",
    plural: "flinkstatesnapshots",
    namespaced: true,
};
/// Lyft flinkk8soperator's FlinkApplication.
pub const FLINK_APPLICATION: Kind = Kind {
    group: names::LYFT_GROUP,
    version: "v1beta1",
    api_version: "flink.k8s.io/v1beta1",
    kind: names::KIND_FLINK_APPLICATION,
    plural: "flinkapplications",
    namespaced: true,
};
/// The GCP/Spotify operator's FlinkCluster.
pub const FLINK_CLUSTER: Kind = Kind {
    group: names::FLINKCLUSTER_GROUP,
    version: names::FLINKCLUSTER_VERSION,
    api_version: "flinkoperator.k8s.io/v1beta1",
    kind: names::KIND_FLINK_CLUSTER,
    plural: "flinkclusters",
    namespaced: true,
};
pub const CERTIFICATE: Kind = cert_manager("Certificate", "certificates", true);
pub const ISSUER: Kind = cert_manager("Issuer", "issuers", true);
pub const CLUSTER_ISSUER: Kind = cert_manager("ClusterIssuer", "clusterissuers", false);

const fn cert_manager(kind: &'static str, plural: &'static str, namespaced: bool) -> Kind {
    Kind {
        group: install::CERT_MANAGER_GROUP,
        version: "v1",
        api_version: "cert-manager.io/v1",
        kind,
        plural,
        namespaced,
    }
}

pub const POD: Kind = Kind::of::<Pod>();
pub const DEPLOYMENT: Kind = Kind::of::<Deployment>();
pub const STATEFUL_SET: Kind = Kind::of::<StatefulSet>();
pub const JOB: Kind = Kind::of::<Job>();
pub const SERVICE: Kind = Kind::of::<Service>();
pub const CONFIG_MAP: Kind = Kind::of::<ConfigMap>();
pub const SECRET: Kind = Kind::of::<Secret>();
pub const ENDPOINT_SLICE: Kind = Kind::of::<EndpointSlice>();
pub const ENDPOINTS: Kind = Kind::of::<Endpoints>();
pub const EVENT: Kind = Kind::of::<Event>();
pub const RESOURCE_QUOTA: Kind = Kind::of::<ResourceQuota>();
pub const NAMESPACE: Kind = Kind::of::<Namespace>();
pub const LIMIT_RANGE: Kind = Kind::of::<LimitRange>();
pub const NODE: Kind = Kind::of::<Node>();
pub const PRIORITY_CLASS: Kind = Kind::of::<PriorityClass>();

/// Kinds read for what they explain of a pod that is Pending or refused (quotas, limits, nodes'
/// room and taints, priorities, the namespace's labels) and kept in a saved bundle: no rule
/// concludes anything from their absence, so a refusal to list them is said by `-v` and in a
/// saved bundle (nothing written), never as a finding.
pub const SCHEDULING_CONTEXT: &[Kind] = &[LIMIT_RANGE, NAMESPACE, NODE, PRIORITY_CLASS];
pub const SERVICE_ACCOUNT: Kind = Kind::of::<ServiceAccount>();
pub const ROLE: Kind = Kind::of::<Role>();
pub const ROLE_BINDING: Kind = Kind::of::<RoleBinding>();
pub const CLUSTER_ROLE: Kind = Kind::of::<ClusterRole>();
pub const CLUSTER_ROLE_BINDING: Kind = Kind::of::<ClusterRoleBinding>();
pub const CRD: Kind = Kind::of::<CustomResourceDefinition>();
pub const VALIDATING_WEBHOOK: Kind = Kind::of::<ValidatingWebhookConfiguration>();
pub const MUTATING_WEBHOOK: Kind = Kind::of::<MutatingWebhookConfiguration>();

/// Which objects of a kind the first wave lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Every object in scope.
    All,
    /// Flink's JobManager and TaskManager objects (`component in (jobmanager,taskmanager)`, and
    /// `app=NAME` with a NAME).
    FlinkComponents,
}

/// A kind `doctor` lists in its first wave, and why (the reason a caller without the right is
/// told, `can-i --for me`).
#[derive(Debug, Clone, Copy)]
pub struct Listed {
    pub kind: Kind,
    pub select: Select,
    pub why: &'static str,
    /// Further rights on the kind's objects that reading it brings (`pods/log`).
    pub also: &'static [Permission],
}

/// What `doctor` lists first, in order: one LIST per kind per scope.
pub const LISTED: &[Listed] = &[
    Listed {
        kind: FLINK_DEPLOYMENT,
        select: Select::All,
        why: "doctor lists FlinkDeployments",
        also: &[],
    },
    Listed {
        kind: FLINK_SESSION_JOB,
        select: Select::All,
        why: "doctor lists FlinkSessionJobs",
        also: &[],
    },
    Listed {
        kind: FLINK_STATE_SNAPSHOT,
        select: Select::All,
        why:
            "doctor lists FlinkStateSnapshots (savepoints and checkpoints, operator 1.10 and later)",
        also: &[],
    },
    Listed {
        kind: POD,
        select: Select::FlinkComponents,
        why: "doctor lists the JobManager and TaskManager pods",
        also: &[Permission {
            group: "",
            resource: "pods/log",
            verbs: &["get"],
            why: "doctor reads the logs of failing containers",
        }],
    },
    Listed {
        kind: DEPLOYMENT,
        select: Select::FlinkComponents,
        why: "doctor lists the JobManager Deployments",
        also: &[],
    },
    Listed {
        kind: EVENT,
        select: Select::All,
        why: "doctor reads events (scheduling, image pulls, probes)",
        also: &[],
    },
    Listed {
        kind: SERVICE_ACCOUNT,
        select: Select::All,
        why: "doctor checks the ServiceAccounts Flink runs as",
        also: &[],
    },
    Listed {
        kind: ROLE,
        select: Select::All,
        why: "doctor reads the Roles granted to Flink",
        also: &[],
    },
    Listed {
        kind: ROLE_BINDING,
        select: Select::All,
        why: "doctor reads the RoleBindings of Flink's ServiceAccounts",
        also: &[],
    },
    Listed {
        kind: CLUSTER_ROLE,
        select: Select::All,
        why: "doctor reads the ClusterRoles granted to Flink",
        also: &[],
    },
    Listed {
        kind: CLUSTER_ROLE_BINDING,
        select: Select::All,
        why: "doctor reads the ClusterRoleBindings of Flink's ServiceAccounts",
        also: &[],
    },
    Listed {
        kind: RESOURCE_QUOTA,
        select: Select::All,
        why: "doctor reads the ResourceQuotas that may refuse Flink's pods",
        also: &[],
    },
    Listed {
        kind: LIMIT_RANGE,
        select: Select::All,
        why: "doctor reads the LimitRanges that may refuse or resize Flink's pods",
        also: &[],
    },
    Listed {
        kind: NAMESPACE,
        select: Select::All,
        why: "doctor reads the namespaces' labels (pod security, the operator's selectors)",
        also: &[],
    },
    Listed {
        kind: NODE,
        select: Select::All,
        why: "doctor reads the nodes' room, taints and conditions when a pod is not scheduled",
        also: &[],
    },
    Listed {
        kind: PRIORITY_CLASS,
        select: Select::All,
        why: "doctor reads the PriorityClasses Flink's pods ask for",
        also: &[],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_kinds_come_from_k8s_openapi() {
        assert_eq!(
            (POD.group, POD.version, POD.api_version, POD.plural),
            ("", "v1", "v1", "pods")
        );
        assert_eq!(ENDPOINTS.plural, "endpoints");
        assert_eq!(ENDPOINT_SLICE.api_version, "discovery.k8s.io/v1");
        let scoped: Vec<bool> = [POD, CLUSTER_ROLE, CRD, VALIDATING_WEBHOOK, NAMESPACE]
            .iter()
            .map(|k| k.namespaced)
            .collect();
        assert_eq!(scoped, [true, false, false, false, false]);
        assert_eq!(POD.resource(), "pods");
        assert_eq!(
            FLINK_DEPLOYMENT.resource(),
            "flinkdeployments.flink.apache.org"
        );
    }

    #[test]
    fn custom_kinds_say_their_api_version_once() {
        for k in [
            FLINK_DEPLOYMENT,
            FLINK_SESSION_JOB,
            FLINK_STATE_SNAPSHOT,
            FLINK_APPLICATION,
            FLINK_CLUSTER,
            CERTIFICATE,
            ISSUER,
            CLUSTER_ISSUER,
        ] {
            assert_eq!(k.api_version, format!("{}/{}", k.group, k.version), "{k:?}");
            assert_eq!(
                k.plural,
                format!("{}s", k.kind.to_ascii_lowercase()),
                "{k:?}"
            );
        }
    }

    #[test]
    fn the_apache_crds_name_the_same_group_version_and_plural() {
        // The CRDs lint embeds (the operator's release): their names are `<plural>.<group>`.
        for k in [FLINK_DEPLOYMENT, FLINK_SESSION_JOB] {
            assert!(
                install::FLINK_CRDS
                    .iter()
                    .any(|(n, _, _)| *n == k.resource()),
                "{k:?}"
            );
        }
    }

    #[test]
    fn every_kind_is_listed_once() {
        let mut kinds: Vec<_> = LISTED.iter().map(|l| l.kind.kind).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), LISTED.len());
    }
}

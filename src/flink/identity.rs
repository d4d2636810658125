//! Which Flink operator an object is, decided from its wiring and not from one release's labels:
//! the labels real releases put on the operator's Deployment and pods, the images they run, the
//! webhook Service that selects its pods and the ServiceAccount bound to a (Cluster)Role over its
//! CRD group. Every answer carries the [`Wiring`] that found it, for evidence.
//!
//! Sources (read at the tags named):
//! - Apache Flink Kubernetes Operator: apache/flink-kubernetes-operator@release-1.4.0,
//!   @release-1.8.0 and @release-1.15.0:helm/flink-kubernetes-operator/templates/_helpers.tpl
//!   (`app.kubernetes.io/name: {{ include "flink-operator.name" . }}`, the chart's name) and
//!   values.yaml (ServiceAccount `flink-operator`; `image.repository` is
//!   `ghcr.io/apache/flink-kubernetes-operator` in the released chart:
//!   @release-1.4.0:tools/releasing/create_source_release.sh, and in the source from 1.15.0);
//!   @release-1.15.0:docs/content/docs/operations/helm.md (Docker Hub's
//!   `apache/flink-kubernetes-operator`); templates/rbac.yaml (a ClusterRole over `flink.apache.org`).
//! - GCP / Spotify FlinkCluster operator: GoogleCloudPlatform/flink-on-k8s-operator@v1beta1,
//!   @v1beta1-6 and @v1beta1-9:config/manager/manager.yaml (`control-plane: controller-manager`
//!   and `app: flink-operator`), config/webhook/service.yaml (the webhook Service selects
//!   `control-plane: controller-manager` only), config/rbac/role.yaml and role_binding.yaml
//!   (ClusterRole `manager-role` over `flinkoperator.k8s.io`, bound to the namespace's `default`
//!   ServiceAccount), Makefile (`gcr.io/flink-operator/flink-operator`);
//!   spotify/flink-on-k8s-operator@v0.4.0 and @v0.6.0:Makefile (`ghcr.io/spotify/flink-operator`),
//!   config/default/kustomization.yaml (`gcr.io/spotify/flink-operator`).
//! - Lyft flinkk8soperator: lyft/flinkk8soperator@v0.3.0, @v0.5.0 and @v0.7.0:
//!   deploy/flinkk8soperator.yaml (`app: flinkoperator`, image `docker.io/lyft/flinkk8soperator`,
//!   ServiceAccount `flinkoperator`), deploy/role.yaml (ClusterRole over `flink.k8s.io`).

use super::labels::LabelMap;
use super::names;
use k8s_openapi::api::core::v1::Container;
use serde_json::Value;
use std::collections::BTreeMap;

/// The three operators of Flink on Kubernetes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OperatorKind {
    /// The Apache Flink Kubernetes Operator (FlinkDeployment, FlinkSessionJob).
    Apache,
    /// The GCP/Spotify operator (FlinkCluster).
    FlinkCluster,
    /// Lyft's flinkk8soperator (FlinkApplication).
    Lyft,
}

impl OperatorKind {
    pub const ALL: [OperatorKind; 3] = [
        OperatorKind::Apache,
        OperatorKind::FlinkCluster,
        OperatorKind::Lyft,
    ];
    /// The label selector of its pods as its releases label them (`Mode::selector`).
    pub fn selector(self) -> String {
        self.mode()
            .selector(None, Some(super::mode::Component::Operator))
    }
    pub fn describe(self) -> &'static str {
        match self {
            OperatorKind::Apache => "the Flink Kubernetes Operator",
            OperatorKind::FlinkCluster => "the FlinkCluster operator (GCP/Spotify)",
            OperatorKind::Lyft => "Lyft's flinkk8soperator",
        }
    }
    /// The CRD group the operator reconciles.
    pub fn group(self) -> &'static str {
        match self {
            OperatorKind::Apache => names::GROUP,
            OperatorKind::FlinkCluster => names::FLINKCLUSTER_GROUP,
            OperatorKind::Lyft => names::LYFT_GROUP,
        }
    }
    /// The mode of the clusters it deploys (native for the Apache one, its default).
    pub fn mode(self) -> super::mode::Mode {
        use super::mode::Mode;
        match self {
            OperatorKind::Apache => Mode::Operator,
            OperatorKind::FlinkCluster => Mode::FlinkCluster,
            OperatorKind::Lyft => Mode::Lyft,
        }
    }
    pub fn of_group(group: &str) -> Option<OperatorKind> {
        [
            OperatorKind::Apache,
            OperatorKind::FlinkCluster,
            OperatorKind::Lyft,
        ]
        .into_iter()
        .find(|k| k.group() == group)
    }
}

/// Labels that mark an operator's own Deployment and pods, by themselves. (`control-plane:
/// controller-manager`, which the GCP operator's kustomize manifest alone puts on it, is every
/// kubebuilder project's: it counts only beside the image or the webhook Service.)
pub const OPERATOR_LABELS: &[(&str, &str, OperatorKind)] = &[
    (
        "app.kubernetes.io/name",
        "flink-kubernetes-operator",
        OperatorKind::Apache,
    ),
    ("app", "flink-operator", OperatorKind::FlinkCluster),
    ("app", "flinkoperator", OperatorKind::Lyft),
];

/// The operators' images, without registry mirrors' prefixes or tags.
pub const OPERATOR_IMAGES: &[(&str, OperatorKind)] = &[
    ("apache/flink-kubernetes-operator", OperatorKind::Apache),
    (
        "ghcr.io/apache/flink-kubernetes-operator",
        OperatorKind::Apache,
    ),
    (
        "gcr.io/flink-operator/flink-operator",
        OperatorKind::FlinkCluster,
    ),
    ("ghcr.io/spotify/flink-operator", OperatorKind::FlinkCluster),
    ("gcr.io/spotify/flink-operator", OperatorKind::FlinkCluster),
    ("lyft/flinkk8soperator", OperatorKind::Lyft),
    ("docker.io/lyft/flinkk8soperator", OperatorKind::Lyft),
];

/// The ServiceAccounts the release manifests run the operator as.
/// - Apache: `flink-operator` (helm/flink-kubernetes-operator/values.yaml at the tags above).
/// - GCP: none of its own; the namespace's `default`, which config/rbac/role_binding.yaml binds
///   (GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-6, @v1beta1-9). Its Helm chart creates
///   `<release>-flink-operator` but its Deployment does not use it: still `default`
///   (@v1beta1-9:helm-chart/flink-operator/templates/flink-operator.yaml, serviceaccount.yaml).
/// - Spotify: `controller-manager` under kustomize's `namePrefix: flink-operator-`, so
///   `flink-operator-controller-manager` (spotify/flink-on-k8s-operator@v0.3.9, @v0.5.0 and
///   @v0.6.0:config/rbac/service_account.yaml, config/manager/manager.yaml
///   `serviceAccountName: controller-manager`, config/default/kustomization.yaml). Its Helm chart
///   names it by the chart's fullname (`flink-operator` for a release named so) unless
///   `serviceAccount.flinkoperator.name` is set (@v0.5.0:helm-chart/flink-operator/templates/
///   _helpers.tpl, `flink-operator.serviceAccountName`), so a Helm install's account is the
///   release's: found by its rights (`snapshot::identity::by_rbac`), not by this name.
/// - Lyft: `flinkoperator` (deploy/flinkk8soperator.yaml at the tags above).
pub const OPERATOR_SERVICE_ACCOUNTS: &[(&str, OperatorKind)] = &[
    ("flink-operator", OperatorKind::Apache),
    ("default", OperatorKind::FlinkCluster),
    (
        "flink-operator-controller-manager",
        OperatorKind::FlinkCluster,
    ),
    ("flinkoperator", OperatorKind::Lyft),
];

/// What found an operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wiring {
    Label(String, String),
    Image(String),
    /// The container names of the Apache chart (a `nameOverride` keeps them).
    Container(String),
    /// A webhook configuration calls this Service, whose selector picks the pods.
    WebhookService {
        config: String,
        namespace: String,
        service: String,
    },
    /// Its ServiceAccount is bound to a (Cluster)Role with rights over the CRD group.
    Rbac {
        account: String,
        role: String,
        group: String,
    },
}

impl Wiring {
    /// Whether the wiring says by itself that the object is the operator: its release's labels,
    /// its image or the Apache chart's container names, or the webhook Service that selects it
    /// (the operator serves its webhooks). An account's rights over the CRD group say only
    /// "probably": a CI deployer or a service that submits Flink resources holds them too.
    pub fn certain(&self) -> bool {
        !matches!(self, Wiring::Rbac { .. })
    }
}

impl std::fmt::Display for Wiring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Wiring::Label(k, v) => write!(f, "label {k}={v}"),
            Wiring::Image(i) => write!(f, "image {i}"),
            Wiring::Container(c) => write!(f, "container `{c}`"),
            Wiring::WebhookService {
                config,
                namespace,
                service,
            } => write!(
                f,
                "webhook configuration {config} calls Service {namespace}/{service}, whose selector picks its pods"
            ),
            Wiring::Rbac {
                account,
                role,
                group,
            } => write!(
                f,
                "its ServiceAccount {account} is bound to {role}, which grants rights over {group}"
            ),
        }
    }
}

/// The operator an object's own labels name.
pub fn by_labels<L: LabelMap + ?Sized>(labels: Option<&L>) -> Option<(OperatorKind, Wiring)> {
    let l = labels?;
    OPERATOR_LABELS.iter().find_map(|(k, v, kind)| {
        (l.label(k) == Some(*v)).then(|| (*kind, Wiring::Label(k.to_string(), v.to_string())))
    })
}

/// The repository of an image without tag, digest and Docker Hub's implicit prefixes.
fn repository(image: &str) -> &str {
    let no_digest = image.split('@').next().unwrap_or(image);
    // A tag is after the last `:` that follows the last `/` (a registry may have a port).
    let last_slash = no_digest.rfind('/').map(|i| i + 1).unwrap_or(0);
    let repo = match no_digest[last_slash..].find(':') {
        Some(i) => &no_digest[..last_slash + i],
        None => no_digest,
    };
    repo.trim_start_matches("index.docker.io/")
        .trim_start_matches("docker.io/")
}

/// The operator an image is: its repository is one of [`OPERATOR_IMAGES`], or ends in one of them
/// after a mirror's prefix (`registry.example.com/ghcr.io/apache/flink-kubernetes-operator`).
pub fn by_image(image: &str) -> Option<OperatorKind> {
    let repo = repository(image.trim());
    OPERATOR_IMAGES.iter().find_map(|(known, kind)| {
        let known = known.trim_start_matches("docker.io/");
        (repo == known || repo.ends_with(&format!("/{known}"))).then_some(*kind)
    })
}

/// The operator a pod spec's containers are, given as `(name, image)` (image first, then the
/// Apache chart's containers).
pub fn by_containers<'a>(
    containers: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Option<(OperatorKind, Wiring)> {
    let mut by_name = None;
    for (name, image) in containers {
        if let Some(image) = image.filter(|i| by_image(i).is_some()) {
            let kind = by_image(image)?;
            return Some((kind, Wiring::Image(image.to_string())));
        }
        if by_name.is_none()
            && (name == super::install::OPERATOR_CONTAINER
                || name == super::install::WEBHOOK_CONTAINER)
        {
            by_name = Some((OperatorKind::Apache, Wiring::Container(name.to_string())));
        }
    }
    by_name
}

/// The operator an object is by what it carries itself: its labels, then its containers (their
/// images, the Apache chart's container names). The webhook Service and RBAC wiring need the
/// whole snapshot: `snapshot::identity::operator_of` asks them too.
pub fn operator_of<'a>(
    labels: Option<&BTreeMap<String, String>>,
    containers: impl IntoIterator<Item = &'a Container>,
) -> Option<(OperatorKind, Wiring)> {
    by_labels(labels).or_else(|| {
        by_containers(
            containers
                .into_iter()
                .map(|c| (c.name.as_str(), c.image.as_deref())),
        )
    })
}

/// An object as read (a Pod or a Deployment, before it is decoded) that is an operator's, by its
/// labels or its containers' images.
pub fn value_is_operator(v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    if OPERATOR_LABELS
        .iter()
        .any(|(k, want, _)| labels.and_then(|l| l.get(*k)).and_then(Value::as_str) == Some(*want))
    {
        return true;
    }
    ["/spec/containers", "/spec/template/spec/containers"]
        .iter()
        .filter_map(|p| v.pointer(p).and_then(Value::as_array))
        .flatten()
        .filter_map(|c| c.get("image").and_then(Value::as_str))
        .any(|i| by_image(i).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_of_every_release_and_mirror_are_recognised() {
        for (image, kind) in [
            (
                "gcr.io/flink-operator/flink-operator:v1beta1-9",
                OperatorKind::FlinkCluster,
            ),
            (
                "ghcr.io/spotify/flink-operator:v0.6.0",
                OperatorKind::FlinkCluster,
            ),
            (
                "ghcr.io/apache/flink-kubernetes-operator:1.8.0",
                OperatorKind::Apache,
            ),
            (
                "apache/flink-kubernetes-operator:1.4.0",
                OperatorKind::Apache,
            ),
            (
                "docker.io/apache/flink-kubernetes-operator@sha256:abc",
                OperatorKind::Apache,
            ),
            ("lyft/flinkk8soperator:v0.5.0", OperatorKind::Lyft),
            ("docker.io/lyft/flinkk8soperator:v0.5.0", OperatorKind::Lyft),
            (
                "mirror.example.com:5000/ghcr.io/apache/flink-kubernetes-operator:1.15.0",
                OperatorKind::Apache,
            ),
        ] {
            assert_eq!(by_image(image), Some(kind), "{image}");
        }
        for image in [
            "flink:1.18",
            "ghcr.io/apache/flink-kubernetes-operator-fork:1",
            "gcr.io/flink-operator/flink-operator-sidecar:1",
            "example.com/notlyft/flinkk8soperator2",
        ] {
            assert_eq!(by_image(image), None, "{image}");
        }
    }

    #[test]
    fn labels_alone_never_take_a_kubebuilder_label() {
        let l = BTreeMap::from([(
            "control-plane".to_string(),
            "controller-manager".to_string(),
        )]);
        assert_eq!(by_labels(Some(&l)), None);
        let l = BTreeMap::from([("app".to_string(), "flinkoperator".to_string())]);
        assert_eq!(by_labels(Some(&l)).map(|x| x.0), Some(OperatorKind::Lyft));
    }

    #[test]
    fn a_pod_value_is_found_by_its_image() {
        let v = serde_json::json!({"kind": "Pod", "metadata": {"labels": {"control-plane": "controller-manager"}},
            "spec": {"containers": [{"name": "manager", "image": "gcr.io/flink-operator/flink-operator:v1beta1-9"}]}});
        assert!(value_is_operator(&v));
        let v = serde_json::json!({"kind": "Pod", "metadata": {"labels": {"control-plane": "controller-manager"}},
            "spec": {"containers": [{"name": "manager", "image": "example.com/other:1"}]}});
        assert!(!value_is_operator(&v));
    }
}

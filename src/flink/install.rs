//! The Apache Flink Kubernetes Operator's installation as its Helm chart lays it out: labels,
//! container, ConfigMap, Secret and Certificate names, the webhook port, the CRDs, and where to
//! get the chart and cert-manager. Source: apache/flink-kubernetes-operator@release-1.15.0:
//! helm/flink-kubernetes-operator/values.yaml and templates/. Where a live object names something
//! else (a volume's Secret, a Certificate's secretName), the object wins; the rules decide that.

pub const OPERATOR_LABEL: &str = "app.kubernetes.io/name";
pub const CHART: &str = "flink-kubernetes-operator";
pub const OPERATOR_CONTAINER: &str = "flink-kubernetes-operator";
pub const WEBHOOK_CONTAINER: &str = "flink-webhook";
pub const CONFIG_MAP: &str = "flink-operator-config";
pub const TLS_SECRET: &str = "webhook-server-cert";
pub const PASSWORD_SECRET: &str = "flink-operator-webhook-secret";
pub const CERTIFICATE: &str = "flink-operator-serving-cert";
pub const INJECT_CA_FROM: &str = "cert-manager.io/inject-ca-from";
pub const CERT_MANAGER_CRD: &str = "certificates.cert-manager.io";
pub const CERT_MANAGER_GROUP: &str = "cert-manager.io";
pub const WEBHOOK_PORT: i32 = 9443;
pub const VALIDATING: &str = "ValidatingWebhookConfiguration";
pub const MUTATING: &str = "MutatingWebhookConfiguration";
/// The chart's Helm repository (the release the project's facts are pinned to). Each release's
/// folder is a Helm repository of that release alone (its `index.yaml` lists one chart version),
/// and downloads.apache.org keeps only the newest releases: a pinned version comes from
/// [`ARCHIVE`] instead.
pub const HELM_REPO: &str = "https://downloads.apache.org/flink/flink-kubernetes-operator-1.15.0/";
/// Where every operator release stays once downloads.apache.org drops it:
/// `ARCHIVE/flink-kubernetes-operator-V/flink-kubernetes-operator-V-helm.tgz`.
pub const ARCHIVE: &str = "https://archive.apache.org/dist/flink";
pub const CERT_MANAGER_MANIFEST: &str =
    "https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml";
/// How long a Flink resource may go without a status before "nothing reconciles it" is a fact.
pub const UNRECONCILED_AFTER: i64 = 120;
/// The Flink CRDs: name, kind, plural.
pub const FLINK_CRDS: &[(&str, &str, &str)] = &[
    (
        "flinkdeployments.flink.apache.org",
        "FlinkDeployment",
        "flinkdeployments",
    ),
    (
        "flinksessionjobs.flink.apache.org",
        "FlinkSessionJob",
        "flinksessionjobs",
    ),
    (
        "flinkstatesnapshots.flink.apache.org",
        "FlinkStateSnapshot",
        "flinkstatesnapshots",
    ),
];

/// Whether a webhook (by its name and rules) serves the Apache operator's resources.
pub fn serves_apache(
    name: &str,
    rules: Option<&Vec<k8s_openapi::api::admissionregistration::v1::RuleWithOperations>>,
) -> bool {
    name.ends_with(".flink.apache.org") || has_group(rules, crate::flink::names::GROUP)
}

/// Whether a webhook serves the FlinkCluster operator's (`mflinkcluster.flinkoperator.k8s.io`,
/// `vflinkcluster.flinkoperator.k8s.io`).
pub fn serves_flinkcluster(
    name: &str,
    rules: Option<&Vec<k8s_openapi::api::admissionregistration::v1::RuleWithOperations>>,
) -> bool {
    name.ends_with(".flinkoperator.k8s.io")
        || has_group(rules, crate::flink::names::FLINKCLUSTER_GROUP)
}

/// A webhook of either operator.
pub fn serves_flink(
    name: &str,
    rules: Option<&Vec<k8s_openapi::api::admissionregistration::v1::RuleWithOperations>>,
) -> bool {
    serves_apache(name, rules) || serves_flinkcluster(name, rules)
}

fn has_group(
    rules: Option<&Vec<k8s_openapi::api::admissionregistration::v1::RuleWithOperations>>,
    group: &str,
) -> bool {
    rules
        .into_iter()
        .flatten()
        .any(|r| r.api_groups.iter().flatten().any(|g| g == group))
}

/// The operator option listing the namespaces it watches.
pub const WATCHED_KEY: &str = "kubernetes.operator.watched.namespaces";

/// The GCP/Spotify operator's installation (the one that serves `FlinkCluster`,
/// `flinkoperator.k8s.io`), as its release manifest (`kubectl apply -f .../flink-operator.yaml`,
/// the kustomize build of config/default) and its Helm chart lay it out:
/// spotify/flink-on-k8s-operator@v0.6.0:config/manager/manager.yaml, config/default/
/// (namespace, `namePrefix: flink-operator-`, manager_webhook_patch.yaml), config/webhook/,
/// config/certmanager/certificate.yaml, helm-chart/flink-operator/templates/ and main.go
/// (`--watch-namespace`).
pub mod flinkcluster {
    /// `app: flink-operator` on its Deployment and pods (both layouts).
    pub const OPERATOR_LABEL: &str = "app";
    pub const OPERATOR_APP: &str = "flink-operator";
    /// The namespace both layouts default to.
    pub const NAMESPACE: &str = "flink-operator-system";
    pub const DEPLOYMENT: &str = "flink-operator-controller-manager";
    /// The operator's container: `manager` (release manifest), `flink-operator` (Helm chart). It
    /// serves the webhooks itself (controller-runtime), on port 9443.
    pub const CONTAINERS: &[&str] = &["manager", "flink-operator"];
    /// The serving certificate's volume and where controller-runtime reads `tls.crt`/`tls.key`.
    pub const CERT_VOLUME: &str = "cert";
    pub const CERT_DIR: &str = "/tmp/k8s-webhook-server/serving-certs";
    /// The name of the container port the webhook server listens on, as the kubebuilder scaffold
    /// declares it (config/default/manager_webhook_patch.yaml at each tag).
    pub const WEBHOOK_PORT_NAME: &str = "webhook-server";
    pub const WEBHOOK_SERVICE: &str = "flink-operator-webhook-service";
    pub const CERTIFICATE: &str = "flink-operator-serving-cert";
    pub const ISSUER: &str = "flink-operator-selfsigned-issuer";
    /// Not prefixed by kustomize: the same name in both layouts.
    pub const TLS_SECRET: &str = "webhook-server-cert";
    pub const MUTATE_PATH: &str = "/mutate-flinkoperator-k8s-io-v1beta1-flinkcluster";
    pub const VALIDATE_PATH: &str = "/validate-flinkoperator-k8s-io-v1beta1-flinkcluster";
    /// The flag naming the one namespace it watches (empty: every namespace).
    pub const WATCH_FLAG: &str = "--watch-namespace";
    pub const RELEASE: &str = "v0.6.0";
    /// The release manifest of the version the project's facts are pinned to.
    pub const MANIFEST: &str =
        "https://github.com/spotify/flink-on-k8s-operator/releases/download/v0.6.0/flink-operator.yaml";
    pub const CRD: &str = "flinkclusters.flinkoperator.k8s.io";
    /// Where a release's CRD lives in the repository (the same path at every tag).
    pub const CRD_PATH: &str = "config/crd/bases/flinkoperator.k8s.io_flinkclusters.yaml";
    pub const REPOSITORY: &str = "https://github.com/spotify/flink-on-k8s-operator";
    pub const IMAGE: &str = "ghcr.io/spotify/flink-operator";

    /// The `status.components` an operator release writes, by the CRD generated from its own Go
    /// types (`config/crd/bases/flinkoperator.k8s.io_flinkclusters.yaml` at each tag of
    /// spotify/flink-on-k8s-operator, whose history holds GoogleCloudPlatform's `v1beta1-N` tags):
    /// Deployments up to GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-8, StatefulSets from
    /// v1beta1-9 (its PR #354) to spotify's v0.4.2-beta.4 (from v0.4.1-beta.3 the TaskManagers
    /// may be a Deployment again), and `jobManager`/`taskManager` from v0.4.2-beta.5 on (v0.6.0:
    /// apis/flinkcluster/v1beta1/flinkcluster_types.go, FlinkClusterComponentsStatus).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Components {
        /// The release range, for evidence.
        pub releases: &'static str,
        /// What it may write under `status.components`.
        pub written: &'static [&'static str],
    }

    pub const DEPLOYMENTS: Components = Components {
        releases: "v1beta1 to v1beta1-8",
        written: &[
            "configMap",
            "jobManagerDeployment",
            "jobManagerService",
            "jobManagerIngress",
            "taskManagerDeployment",
            "job",
        ],
    };
    pub const STATEFULSETS: Components = Components {
        releases: "v1beta1-9 to v0.4.2-beta.4",
        written: &[
            "configMap",
            "jobManagerStatefulSet",
            "jobManagerService",
            "jobManagerIngress",
            "taskManagerStatefulSet",
            "taskManagerDeployment",
            "job",
        ],
    };
    pub const GENERIC: Components = Components {
        releases: "v0.4.2-beta.5 and later",
        written: &[
            "configMap",
            "jobManager",
            "jobManagerService",
            "jobManagerIngress",
            "taskManager",
            "job",
        ],
    };

    /// What the operator image with tag `tag` writes: `v1beta1[-N]` (GoogleCloudPlatform's
    /// tags), `vX.Y.Z[-alpha.N|-beta.N]` (spotify's); `None` for any other tag (`latest`, a digest).
    pub fn components(tag: &str) -> Option<Components> {
        let tag = tag.trim();
        if let Some(rest) = tag.strip_prefix("v1beta1") {
            let n: u32 = match rest.strip_prefix('-') {
                None if rest.is_empty() => 0,
                Some(n) => n.parse().ok()?,
                None => return None,
            };
            return Some(if n >= 9 { STATEFULSETS } else { DEPLOYMENTS });
        }
        let re = regex::Regex::new(r"^v?(\d+)\.(\d+)\.(\d+)(?:-(?:alpha|beta)\.(\d+))?$").ok()?;
        let c = re.captures(tag)?;
        let n = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
        let version = (n(1)?, n(2)?, n(3)?);
        // A pre-release comes before its release: beta.N sorts below the release (u32::MAX).
        let pre = n(4).unwrap_or(u32::MAX);
        Some(if (version, pre) >= ((0, 4, 2), 5) {
            GENERIC
        } else {
            STATEFULSETS
        })
    }
}

#[cfg(test)]
mod tests {
    use super::flinkcluster::{components, DEPLOYMENTS, GENERIC, STATEFULSETS};

    #[test]
    fn what_each_flinkcluster_operator_release_writes() {
        for (tag, want) in [
            ("v1beta1", Some(DEPLOYMENTS)),
            ("v1beta1-6", Some(DEPLOYMENTS)),
            ("v1beta1-8", Some(DEPLOYMENTS)),
            ("v1beta1-9", Some(STATEFULSETS)),
            ("v0.1.14", Some(STATEFULSETS)),
            ("v0.4.1-beta.3", Some(STATEFULSETS)),
            ("v0.4.2-beta.4", Some(STATEFULSETS)),
            ("v0.4.2-beta.5", Some(GENERIC)),
            ("v0.4.2", Some(GENERIC)),
            ("v0.5.0-beta.1", Some(GENERIC)),
            ("v0.6.0", Some(GENERIC)),
            ("latest", None),
            ("v1beta1-x", None),
            ("sha-1a2b3c", None),
        ] {
            assert_eq!(components(tag), want, "{tag}");
        }
    }
}

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
/// The chart's Helm repository (the release the project's facts are pinned to).
pub const HELM_REPO: &str = "https://downloads.apache.org/flink/flink-kubernetes-operator-1.15.0/";
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

/// The operator option listing the namespaces it watches.
pub const WATCHED_KEY: &str = "kubernetes.operator.watched.namespaces";

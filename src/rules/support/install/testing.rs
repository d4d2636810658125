//! A healthy installation of the chart, as YAML, for the install rules' tests: the operator
//! (1.15.0, 2/2 ready) in `flink-operator`, its ConfigMap, the CRDs, cert-manager's
//! Certificate and Issuer, the webhook Service and its endpoints, the TLS Secret (public
//! certificate only) and password Secret (no data), both webhook configurations with a
//! caBundle that verifies the serving certificate, and a reconciled FlinkDeployment in `prod`.

use super::x509::testing::{ca, leaf, Ca};
use crate::snapshot::{bundle, Snapshot};

pub const NS: &str = "flink-operator";
pub const HOST: &str = "flink-operator-webhook-service.flink-operator.svc";

pub fn b64(bytes: &[u8]) -> String {
    // ByteString serialises as base64: reuse it rather than a codec of our own.
    serde_json::to_value(k8s_openapi::ByteString(bytes.to_vec()))
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

pub struct Certs {
    pub ca: Ca,
    pub tls_crt: String,
}

pub fn good_certs() -> Certs {
    let ca = ca("flink-operator-selfsigned");
    let tls_crt = leaf(
        &ca,
        &[HOST, &format!("{HOST}.cluster.local")],
        (2025, 1, 1),
        (2030, 1, 1),
    );
    Certs { ca, tls_crt }
}

/// The healthy installation with these certificates (`ca_bundle` as it appears, base64).
pub fn installation(tls_crt: &str, ca_crt: &str, ca_bundle_b64: &str) -> String {
    let tls = b64(tls_crt.as_bytes());
    let ca = b64(ca_crt.as_bytes());
    format!(
        r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-kubernetes-operator
  namespace: flink-operator
  labels: {{app.kubernetes.io/name: flink-kubernetes-operator, app.kubernetes.io/version: 1.15.0}}
  annotations: {{meta.helm.sh/release-name: flink-kubernetes-operator, meta.helm.sh/release-namespace: flink-operator}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app.kubernetes.io/name: flink-kubernetes-operator}}}}
  template:
    metadata: {{labels: {{app.kubernetes.io/name: flink-kubernetes-operator}}}}
    spec:
      serviceAccountName: flink-operator
      containers:
      - name: flink-kubernetes-operator
        image: ghcr.io/apache/flink-kubernetes-operator:1.15.0
        ports: [{{containerPort: 8085, name: health-port}}]
      - name: flink-webhook
        image: ghcr.io/apache/flink-kubernetes-operator:1.15.0
        env:
        - {{name: WEBHOOK_KEYSTORE_PASSWORD, valueFrom: {{secretKeyRef: {{name: flink-operator-webhook-secret, key: password}}}}}}
        - {{name: WEBHOOK_KEYSTORE_FILE, value: /certs/keystore.p12}}
        - {{name: WEBHOOK_SERVER_PORT, value: "9443"}}
        volumeMounts: [{{name: keystore, mountPath: /certs, readOnly: true}}]
      volumes:
      - name: keystore
        secret: {{secretName: webhook-server-cert, items: [{{key: keystore.p12, path: keystore.p12}}]}}
status: {{replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: flink-kubernetes-operator-7d9c6b5f4-abcde
  namespace: flink-operator
  labels: {{app.kubernetes.io/name: flink-kubernetes-operator}}
  creationTimestamp: "2026-11-20T09:00:00Z"
spec:
  serviceAccountName: flink-operator
  containers:
  - {{name: flink-kubernetes-operator, image: "ghcr.io/apache/flink-kubernetes-operator:1.15.0"}}
  - {{name: flink-webhook, image: "ghcr.io/apache/flink-kubernetes-operator:1.15.0"}}
status:
  phase: Running
  conditions: [{{type: Ready, status: "True"}}]
  containerStatuses:
  - {{name: flink-kubernetes-operator, image: x, imageID: "", ready: true, restartCount: 0, state: {{running: {{startedAt: "2026-11-20T09:00:10Z"}}}}}}
  - {{name: flink-webhook, image: x, imageID: "", ready: true, restartCount: 0, state: {{running: {{startedAt: "2026-11-20T09:00:10Z"}}}}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: flink-operator-config, namespace: flink-operator}}
data:
  config.yaml: |
    kubernetes.operator.reconcile.interval: 15 s
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: flinkdeployments.flink.apache.org}}
spec:
  group: flink.apache.org
  scope: Namespaced
  names: {{kind: FlinkDeployment, plural: flinkdeployments}}
  versions: [{{name: v1beta1, served: true, storage: true}}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: flinksessionjobs.flink.apache.org}}
spec:
  group: flink.apache.org
  scope: Namespaced
  names: {{kind: FlinkSessionJob, plural: flinksessionjobs}}
  versions: [{{name: v1beta1, served: true, storage: true}}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: flinkstatesnapshots.flink.apache.org}}
spec:
  group: flink.apache.org
  scope: Namespaced
  names: {{kind: FlinkStateSnapshot, plural: flinkstatesnapshots}}
  versions: [{{name: v1beta1, served: true, storage: true}}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: certificates.cert-manager.io}}
spec:
  group: cert-manager.io
  scope: Namespaced
  names: {{kind: Certificate, plural: certificates}}
  versions: [{{name: v1, served: true, storage: true}}]
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {{name: flink-operator-serving-cert, namespace: flink-operator}}
spec:
  dnsNames: [{HOST}, {HOST}.cluster.local]
  secretName: webhook-server-cert
  issuerRef: {{kind: Issuer, name: flink-operator-selfsigned-issuer}}
  keystores: {{pkcs12: {{create: true, passwordSecretRef: {{name: flink-operator-webhook-secret, key: password}}}}}}
status:
  conditions: [{{type: Ready, status: "True", reason: Ready, message: Certificate is up to date and has not expired}}]
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {{name: flink-operator-selfsigned-issuer, namespace: flink-operator}}
spec: {{selfSigned: {{}}}}
status:
  conditions: [{{type: Ready, status: "True", reason: IsReady}}]
---
apiVersion: v1
kind: Secret
metadata: {{name: webhook-server-cert, namespace: flink-operator}}
type: kubernetes.io/tls
data:
  tls.crt: {tls}
  ca.crt: {ca}
---
apiVersion: v1
kind: Secret
metadata: {{name: flink-operator-webhook-secret, namespace: flink-operator}}
type: Opaque
---
apiVersion: v1
kind: Service
metadata: {{name: flink-operator-webhook-service, namespace: flink-operator}}
spec:
  selector: {{app.kubernetes.io/name: flink-kubernetes-operator}}
  ports: [{{port: 443, targetPort: 9443}}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: flink-operator-webhook-service-x1y2z
  namespace: flink-operator
  labels: {{kubernetes.io/service-name: flink-operator-webhook-service}}
addressType: IPv4
ports: [{{port: 9443, protocol: TCP}}]
endpoints:
- addresses: [10.0.0.12]
  conditions: {{ready: true}}
  targetRef: {{kind: Pod, namespace: flink-operator, name: flink-kubernetes-operator-7d9c6b5f4-abcde}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: flink-operator-flink-operator-webhook-configuration
  annotations: {{cert-manager.io/inject-ca-from: flink-operator/flink-operator-serving-cert}}
webhooks:
- name: validationwebhook.flink.apache.org
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    caBundle: "{ca_bundle_b64}"
    service: {{name: flink-operator-webhook-service, namespace: flink-operator, path: /validate}}
  rules: [{{apiGroups: [flink.apache.org], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [flinkdeployments, flinksessionjobs, flinkstatesnapshots]}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: flink-operator-flink-operator-webhook-configuration
  annotations: {{cert-manager.io/inject-ca-from: flink-operator/flink-operator-serving-cert}}
webhooks:
- name: mutationwebhook.flink.apache.org
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    caBundle: "{ca_bundle_b64}"
    service: {{name: flink-operator-webhook-service, namespace: flink-operator, path: /mutate}}
  rules: [{{apiGroups: [flink.apache.org], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [flinkdeployments, flinksessionjobs]}}]
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: prod, creationTimestamp: "2026-11-20T09:30:00Z"}}
spec: {{image: "flink:1.20", flinkVersion: v1_20, serviceAccount: flink}}
status: {{lifecycleState: STABLE, jobManagerDeploymentStatus: READY}}
---
apiVersion: v1
kind: Event
metadata: {{name: orders.1, namespace: prod}}
involvedObject: {{kind: FlinkDeployment, namespace: prod, name: orders}}
reason: JobStatusChanged
type: Normal
message: Job status changed to RUNNING
lastTimestamp: "2026-11-20T10:00:00Z"
"#
    )
}

/// The FlinkCluster operator as its v0.6.0 release manifest installs it (Deployment, running pod,
/// webhook Service, both webhook configurations) and a FlinkCluster `wc` in `stream` with a
/// status; `{args}` are the manager's arguments.
pub fn flinkcluster_yaml(args: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-operator-controller-manager
  namespace: flink-operator-system
  labels: {{app: flink-operator, control-plane: controller-manager}}
spec:
  replicas: 1
  selector:
    matchLabels: {{app: flink-operator, control-plane: controller-manager}}
  template:
    metadata:
      labels: {{app: flink-operator, control-plane: controller-manager}}
    spec:
      serviceAccountName: flink-operator-controller-manager
      containers:
      - name: manager
        image: ghcr.io/spotify/flink-operator:v0.6.0
        command: [/flink-operator]
        args: [{args}]
        ports: [{{containerPort: 9443, name: webhook-server, protocol: TCP}}]
        resources: {{limits: {{cpu: 100m, memory: 150Mi}}, requests: {{cpu: 100m, memory: 100Mi}}}}
        volumeMounts: [{{mountPath: /tmp/k8s-webhook-server/serving-certs, name: cert, readOnly: true}}]
      volumes:
      - name: cert
        secret: {{secretName: webhook-server-cert}}
status: {{replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: flink-operator-controller-manager-5b5f5fcd95-hvngf
  namespace: flink-operator-system
  labels: {{app: flink-operator, control-plane: controller-manager}}
spec:
  containers:
  - {{name: manager, image: ghcr.io/spotify/flink-operator:v0.6.0}}
status:
  phase: Running
  conditions: [{{type: Ready, status: "True"}}]
  containerStatuses:
  - {{name: manager, image: x, imageID: "", ready: true, restartCount: 0, state: {{running: {{startedAt: "2026-11-20T09:00:10Z"}}}}}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: flink-operator-mutating-webhook-configuration
  annotations: {{cert-manager.io/inject-ca-from: flink-operator-system/flink-operator-serving-cert}}
webhooks:
- name: mflinkcluster.flinkoperator.k8s.io
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {{name: flink-operator-webhook-service, namespace: flink-operator-system, path: /mutate-flinkoperator-k8s-io-v1beta1-flinkcluster}}
  rules: [{{apiGroups: [flinkoperator.k8s.io], apiVersions: [v1beta1], operations: [CREATE, UPDATE], resources: [flinkclusters]}}]
---
apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata:
  name: wc
  namespace: stream
  creationTimestamp: "2026-11-20T09:30:00Z"
spec:
  image: {{name: "flink:1.14.3"}}
  jobManager: {{replicas: 1}}
  taskManager: {{replicas: 1}}
status:
  state: Running
"#
    )
}

/// Loads YAML the way a bundle is loaded (operator objects sorted out, "now" from the data).
pub fn load(yaml: &str) -> Snapshot {
    let mut s = Snapshot::default();
    for doc in bundle::parse_documents(yaml).expect("test YAML parses") {
        bundle::add_value(&mut s, doc).expect("test object is readable");
    }
    bundle::classify_operator(&mut s);
    s.install_checked = bundle::holds_installation(&s);
    s.captured_at = chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
        .unwrap()
        .into();
    s
}

/// The healthy installation, loaded, with fresh certificates.
pub fn healthy() -> (Snapshot, Certs) {
    let c = good_certs();
    let yaml = installation(&c.tls_crt, &c.ca.pem, &b64(c.ca.pem.as_bytes()));
    (load(&yaml), c)
}

pub fn healthy_yaml() -> String {
    let c = good_certs();
    installation(&c.tls_crt, &c.ca.pem, &b64(c.ca.pem.as_bytes()))
}

/// Drops every document of `kind` named `name` from a YAML stream.
pub fn without(yaml: &str, kind: &str, name: &str) -> String {
    yaml.split("\n---\n")
        .filter(|doc| {
            !(doc.contains(&format!("kind: {kind}\n")) && doc.contains(&format!("name: {name}")))
        })
        .collect::<Vec<_>>()
        .join("\n---\n")
}

/// Every install rule is silent on the healthy installation.
#[test]
fn the_healthy_installation_has_no_install_findings() {
    let (s, _) = healthy();
    let index = crate::snapshot::Index::new(&s);
    let found: Vec<_> = crate::rules::RULES
        .iter()
        .filter(|r| r.meta().category.layer() == crate::finding::Layer::Install)
        .flat_map(|r| r.check(&s, &index))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

//! What the install-layer rules (FLK0xx) share: where the Flink Kubernetes Operator runs, its
//! webhook chain (cert-manager -> Certificate -> TLS Secret -> password Secret -> webhook
//! configurations -> Service -> endpoints -> the `flink-webhook` container), the chart's names,
//! and the Helm commands a fix needs. Names come from the chart (apache/flink-kubernetes-operator@release-1.15.0:
//! helm/flink-kubernetes-operator/values.yaml and templates/); where a live object names something else (a volume's Secret, a Certificate's
//! secretName), the object wins.

pub mod x509;

use crate::flink::names::GROUP;
use crate::snapshot::{to_utc, GapReason, Snapshot};
use chrono::{DateTime, Duration, Utc};
use k8s_openapi::api::admissionregistration::v1::{
    RuleWithOperations, ServiceReference, WebhookClientConfig,
};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Container, Event, Pod, Secret, Service};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::flink::install::{
    CERTIFICATE, CERT_MANAGER_CRD, CERT_MANAGER_GROUP, CERT_MANAGER_MANIFEST, CHART, CONFIG_MAP,
    FLINK_CRDS, HELM_REPO, INJECT_CA_FROM, MUTATING, OPERATOR_CONTAINER, OPERATOR_LABEL,
    PASSWORD_SECRET, TLS_SECRET, UNRECONCILED_AFTER, VALIDATING, WATCHED_KEY, WEBHOOK_CONTAINER,
    WEBHOOK_PORT,
};

/// The link key every finding about one installation carries, so rank chains them.
pub fn link(namespace: &str) -> String {
    format!("operator:{namespace}")
}

// ------------------------------------------------------------------------------------ operators

/// One installation of the operator: its namespace and what runs there.
#[derive(Debug, Clone)]
pub struct Operator<'a> {
    pub namespace: &'a str,
    pub deployment: Option<&'a Deployment>,
    pub pods: Vec<&'a Pod>,
    pub config: Option<&'a ConfigMap>,
}

fn labels(m: &ObjectMeta) -> Option<&BTreeMap<String, String>> {
    m.labels.as_ref()
}

fn is_apache_operator(m: &ObjectMeta) -> bool {
    labels(m)
        .and_then(|l| l.get(OPERATOR_LABEL))
        .map(String::as_str)
        == Some(CHART)
}

/// The Apache operator's installations, by its Deployments (or its pods when a bundle holds
/// only those), sorted by namespace.
pub fn operators(s: &Snapshot) -> Vec<Operator<'_>> {
    let mut out: Vec<Operator> = Vec::new();
    for d in &s.operator_deployments {
        let ns = d.metadata.namespace.as_deref().unwrap_or("default");
        let selector = d.spec.selector.match_labels.as_ref();
        let chart = is_apache_operator(&d.metadata)
            || selector.is_some_and(|m| m.get(OPERATOR_LABEL).map(String::as_str) == Some(CHART));
        // A nameOverride'd chart is still recognised by its containers.
        let containers = d
            .spec
            .template
            .spec
            .as_ref()
            .map(|p| {
                p.containers
                    .iter()
                    .any(|c| c.name == OPERATOR_CONTAINER || c.name == WEBHOOK_CONTAINER)
            })
            .unwrap_or(false);
        if !chart && !containers {
            continue;
        }
        let pods = s
            .operator_pods
            .iter()
            .filter(|p| p.metadata.namespace.as_deref().unwrap_or("default") == ns)
            .filter(|p| match selector {
                Some(sel) => sel
                    .iter()
                    .all(|(k, v)| labels(&p.metadata).and_then(|l| l.get(k)) == Some(v)),
                None => is_apache_operator(&p.metadata),
            })
            .collect();
        out.push(Operator {
            namespace: ns,
            deployment: Some(d),
            pods,
            config: config_map(s, ns),
        });
    }
    // Pods without a Deployment in the snapshot.
    for p in s
        .operator_pods
        .iter()
        .filter(|p| is_apache_operator(&p.metadata))
    {
        let ns = p.metadata.namespace.as_deref().unwrap_or("default");
        if out.iter().any(|o| o.namespace == ns) {
            continue;
        }
        let pods = s
            .operator_pods
            .iter()
            .filter(|q| {
                q.metadata.namespace.as_deref().unwrap_or("default") == ns
                    && is_apache_operator(&q.metadata)
            })
            .collect();
        out.push(Operator {
            namespace: ns,
            deployment: None,
            pods,
            config: config_map(s, ns),
        });
    }
    out.sort_by(|a, b| a.namespace.cmp(b.namespace).then(a.name().cmp(b.name())));
    out
}

fn config_map<'a>(s: &'a Snapshot, ns: &str) -> Option<&'a ConfigMap> {
    s.operator_config_maps.iter().find(|c| {
        c.metadata.name.as_deref() == Some(CONFIG_MAP)
            && c.metadata.namespace.as_deref() == Some(ns)
    })
}

/// A version `major.minor.patch` read from an image tag or a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

impl Version {
    /// `1.15.0`, `v1.10`, `1.9.0-SNAPSHOT`: the first `N.N[.N]` in the text.
    pub fn parse(text: &str) -> Option<Version> {
        let re = regex::Regex::new(r"(\d+)\.(\d+)(?:\.(\d+))?").ok()?;
        let c = re.captures(text)?;
        let n = |i: usize| c.get(i).and_then(|m| m.as_str().parse().ok());
        Some(Version(n(1)?, n(2)?, n(3).unwrap_or(0)))
    }
}

impl<'a> Operator<'a> {
    pub fn name(&self) -> &str {
        self.deployment
            .and_then(|d| d.metadata.name.as_deref())
            .unwrap_or(CHART)
    }

    pub fn object(&self) -> crate::finding::ObjectRef {
        crate::finding::ObjectRef::namespaced("Deployment", self.namespace, self.name())
    }

    fn pod_spec(&self) -> Option<&'a k8s_openapi::api::core::v1::PodSpec> {
        match self.deployment {
            Some(d) => d.spec.template.spec.as_ref(),
            None => self.pods.first().and_then(|p| p.spec.as_ref()),
        }
    }

    pub fn container(&self, name: &str) -> Option<&'a Container> {
        self.pod_spec()?.containers.iter().find(|c| c.name == name)
    }

    /// The operator's image (its main container's), and the version its tag names.
    pub fn image(&self) -> Option<&'a str> {
        self.container(OPERATOR_CONTAINER)
            .or_else(|| self.pod_spec().and_then(|p| p.containers.first()))
            .and_then(|c| c.image.as_deref())
    }

    /// The version: the image tag, else the chart's `app.kubernetes.io/version` label.
    pub fn version(&self) -> Option<(Version, String)> {
        if let Some(img) = self.image() {
            let tag = img.rsplit_once('@').map(|(i, _)| i).unwrap_or(img);
            let tag = tag
                .rsplit('/')
                .next()
                .and_then(|t| t.split_once(':'))
                .map(|(_, t)| t);
            if let Some(v) = tag.and_then(Version::parse) {
                return Some((v, format!("image {img}")));
            }
        }
        let label = self
            .deployment
            .and_then(|d| labels(&d.metadata))
            .and_then(|l| l.get("app.kubernetes.io/version"))?;
        Version::parse(label).map(|v| (v, format!("label app.kubernetes.io/version={label}")))
    }

    /// The chart runs a `flink-webhook` container when its webhook is enabled.
    pub fn webhook_enabled(&self) -> bool {
        self.container(WEBHOOK_CONTAINER).is_some()
    }

    /// The Secret mounted as the webhook's keystore (volume `keystore`), when the spec names one.
    pub fn tls_secret(&self) -> Option<&'a str> {
        let spec = self.pod_spec()?;
        let webhook = self.container(WEBHOOK_CONTAINER);
        spec.volumes.iter().flatten().find_map(|v| {
            let secret = v.secret.as_ref()?;
            let mounted_by_webhook =
                webhook
                    .and_then(|c| c.volume_mounts.as_ref())
                    .is_some_and(|m| {
                        m.iter()
                            .any(|m| m.name == v.name && m.mount_path == "/certs")
                    });
            (v.name == "keystore" || mounted_by_webhook)
                .then_some(secret.secret_name.as_deref())
                .flatten()
        })
    }

    /// The Secret (and key) the webhook reads its keystore password from.
    pub fn password_secret(&self) -> Option<(&'a str, &'a str)> {
        let c = self.container(WEBHOOK_CONTAINER)?;
        c.env.iter().flatten().find_map(|e| {
            if e.name != "WEBHOOK_KEYSTORE_PASSWORD" {
                return None;
            }
            let r = e.value_from.as_ref()?.secret_key_ref.as_ref()?;
            Some((r.name.as_str(), r.key.as_str()))
        })
    }

    /// The port the webhook server listens on (`WEBHOOK_SERVER_PORT`, default 9443).
    pub fn webhook_port(&self) -> i32 {
        self.container(WEBHOOK_CONTAINER)
            .and_then(|c| c.env.as_ref())
            .and_then(|env| env.iter().find(|e| e.name == "WEBHOOK_SERVER_PORT"))
            .and_then(|e| e.value.as_deref())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(WEBHOOK_PORT)
    }

    /// The container port named `name` of the webhook container, for a Service's named targetPort.
    pub fn named_port(&self, name: &str) -> Option<i32> {
        self.pod_spec()?
            .containers
            .iter()
            .flat_map(|c| c.ports.iter().flatten())
            .find(|p| p.name.as_deref() == Some(name))
            .map(|p| p.container_port)
    }

    /// The Helm release the operator came from (Helm's ownership annotations), else the chart's
    /// default release name.
    pub fn release(&self) -> Release {
        let ann = self
            .deployment
            .and_then(|d| d.metadata.annotations.as_ref());
        let get = |k: &str| ann.and_then(|a| a.get(k)).cloned();
        Release {
            name: get("meta.helm.sh/release-name")
                .or_else(|| {
                    self.deployment
                        .and_then(|d| labels(&d.metadata))
                        .and_then(|l| l.get("app.kubernetes.io/instance"))
                        .cloned()
                })
                .unwrap_or_else(|| CHART.to_string()),
            namespace: get("meta.helm.sh/release-namespace")
                .unwrap_or_else(|| self.namespace.to_string()),
            version: self.version().map(|(v, _)| v),
        }
    }

    /// `None`: every namespace. Read from the ConfigMap's `flink-conf.yaml` or `config.yaml`.
    pub fn watched_namespaces(&self) -> Option<BTreeSet<String>> {
        let cm = self.config?;
        let value = watched_value(cm)?;
        let mut set = BTreeSet::new();
        for n in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match n {
                "JOSDK_ALL_NAMESPACES" => return None,
                "JOSDK_WATCH_CURRENT" => {
                    set.insert(self.namespace.to_string());
                }
                _ => {
                    set.insert(n.to_string());
                }
            }
        }
        if set.is_empty() {
            None
        } else {
            Some(set)
        }
    }

    /// The line of the ConfigMap that sets the watched namespaces, for evidence.
    pub fn watched_source(&self) -> String {
        let file = self
            .config
            .and_then(|c| c.data.as_ref())
            .and_then(|d| {
                ["config.yaml", "flink-conf.yaml"]
                    .into_iter()
                    .find(|k| d.contains_key(*k))
            })
            .unwrap_or("flink-conf.yaml");
        format!("ConfigMap {}/{CONFIG_MAP} ({file})", self.namespace)
    }

    pub fn selector(&self) -> String {
        format!("{OPERATOR_LABEL}={CHART}")
    }
}

/// `kubernetes.operator.watched.namespaces` from a Flink configuration file: flat `key: value`
/// lines (flink-conf.yaml), or nested YAML (config.yaml, Flink 1.19+), a list or a string.
pub fn watched_value(cm: &ConfigMap) -> Option<String> {
    let data = cm.data.as_ref()?;
    for file in ["config.yaml", "flink-conf.yaml"] {
        let Some(text) = data.get(file) else { continue };
        // Flat lines first: the chart writes the key as one line.
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix(WATCHED_KEY) {
                if let Some(v) = rest.trim_start().strip_prefix(':') {
                    let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
                    let v = v.trim_start_matches('[').trim_end_matches(']');
                    return Some(
                        v.split(',')
                            .map(|p| p.trim().trim_matches(|c| c == '"' || c == '\''))
                            .collect::<Vec<_>>()
                            .join(","),
                    );
                }
            }
        }
        // Nested YAML: kubernetes: {operator: {watched: {namespaces: ...}}}.
        if let Ok(v) = serde_yaml::from_str::<Value>(text) {
            let nested = v
                .pointer("/kubernetes/operator/watched/namespaces")
                .or_else(|| v.pointer("/kubernetes.operator/watched/namespaces"));
            match nested {
                Some(Value::String(s)) => return Some(s.clone()),
                Some(Value::Array(a)) => {
                    return Some(
                        a.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(","),
                    )
                }
                _ => {}
            }
        }
    }
    None
}

/// A Helm release of the chart, for the commands a fix prints.
#[derive(Debug, Clone)]
pub struct Release {
    pub name: String,
    pub namespace: String,
    pub version: Option<Version>,
}

impl Release {
    /// `helm repo add` + `helm upgrade <release> ... --reuse-values <extra>`.
    pub fn upgrade(&self, extra: &str) -> String {
        let version = self
            .version
            .map(|v| format!(" --version {v}"))
            .unwrap_or_default();
        format!(
            "helm repo add flink-operator-repo {HELM_REPO} 2>/dev/null; helm repo update flink-operator-repo\n\
             helm upgrade {} flink-operator-repo/flink-kubernetes-operator -n {}{version} --reuse-values{}",
            self.name,
            self.namespace,
            if extra.is_empty() { String::new() } else { format!(" {extra}") }
        )
    }
}

/// A fresh install of the chart into `namespace`.
pub fn helm_install(namespace: &str, extra: &str) -> String {
    format!(
        "helm repo add flink-operator-repo {HELM_REPO}\n\
         helm install flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n {namespace} --create-namespace{}",
        if extra.is_empty() { String::new() } else { format!(" {extra}") }
    )
}

// ------------------------------------------------------------------------------------- webhooks

/// One webhook of a Validating/MutatingWebhookConfiguration that serves Flink resources.
#[derive(Debug, Clone)]
pub struct Hook<'a> {
    pub kind: &'static str,
    pub config: &'a str,
    pub annotations: Option<&'a BTreeMap<String, String>>,
    pub name: &'a str,
    /// Its position in `webhooks`, for JSON patches.
    pub index: usize,
    pub client: &'a WebhookClientConfig,
    pub failure_policy: &'a str,
}

fn serves_flink(name: &str, rules: Option<&Vec<RuleWithOperations>>) -> bool {
    name.ends_with(".flink.apache.org")
        || rules
            .into_iter()
            .flatten()
            .any(|r| r.api_groups.iter().flatten().any(|g| g == GROUP))
}

/// The webhooks that serve `flink.apache.org` resources, validating first.
pub fn flink_hooks(s: &Snapshot) -> Vec<Hook<'_>> {
    let mut out = Vec::new();
    for c in &s.validating_webhooks {
        for (i, w) in c.webhooks.iter().flatten().enumerate() {
            if serves_flink(&w.name, w.rules.as_ref()) {
                out.push(Hook {
                    kind: VALIDATING,
                    config: c.metadata.name.as_deref().unwrap_or(""),
                    annotations: c.metadata.annotations.as_ref(),
                    name: &w.name,
                    index: i,
                    client: &w.client_config,
                    failure_policy: w.failure_policy.as_deref().unwrap_or("Fail"),
                });
            }
        }
    }
    for c in &s.mutating_webhooks {
        for (i, w) in c.webhooks.iter().flatten().enumerate() {
            if serves_flink(&w.name, w.rules.as_ref()) {
                out.push(Hook {
                    kind: MUTATING,
                    config: c.metadata.name.as_deref().unwrap_or(""),
                    annotations: c.metadata.annotations.as_ref(),
                    name: &w.name,
                    index: i,
                    client: &w.client_config,
                    failure_policy: w.failure_policy.as_deref().unwrap_or("Fail"),
                });
            }
        }
    }
    out
}

impl<'a> Hook<'a> {
    pub fn service(&self) -> Option<&'a ServiceReference> {
        self.client.service.as_ref()
    }
    /// The namespace of the Service it calls (the operator's, for the chart).
    pub fn namespace(&self) -> Option<&'a str> {
        self.service().map(|s| s.namespace.as_str())
    }
    pub fn port(&self) -> i32 {
        self.service().and_then(|s| s.port).unwrap_or(443)
    }
    pub fn path(&self) -> &'a str {
        self.service()
            .and_then(|s| s.path.as_deref())
            .unwrap_or("/")
    }
    /// The path the operator's webhook server answers this kind of webhook on.
    pub fn expected_path(&self) -> &'static str {
        if self.kind == MUTATING {
            "/mutate"
        } else {
            "/validate"
        }
    }
    pub fn fails_closed(&self) -> bool {
        self.failure_policy != "Ignore"
    }
    /// `cert-manager.io/inject-ca-from: <ns>/<certificate>`.
    pub fn inject_ca_from(&self) -> Option<(&'a str, &'a str)> {
        self.annotations?.get(INJECT_CA_FROM)?.split_once('/')
    }
    /// The DNS name the API server dials and checks the certificate against.
    pub fn host(&self) -> Option<String> {
        self.service()
            .map(|s| format!("{}.{}.svc", s.name, s.namespace))
    }
    pub fn object(&self) -> crate::finding::ObjectRef {
        crate::finding::ObjectRef::new(self.kind, None, self.config)
    }
    /// `validatingwebhookconfiguration/NAME`, as kubectl takes it.
    pub fn kubectl(&self) -> String {
        format!("{} {}", self.kind.to_ascii_lowercase(), self.config)
    }
    /// What the API server does to Flink resources while this webhook cannot be called.
    pub fn consequence(&self) -> String {
        if self.fails_closed() {
            format!(
                "failurePolicy Fail: the API server rejects CREATE/UPDATE of Flink resources with `failed calling webhook \"{}\"`",
                self.name
            )
        } else {
            format!(
                "failurePolicy Ignore: the API server skips {} and admits Flink resources {}",
                self.name,
                if self.kind == MUTATING {
                    "without the operator's defaults"
                } else {
                    "unvalidated"
                }
            )
        }
    }
}

pub fn operator_in<'a>(s: &'a Snapshot, ns: &str) -> Option<Operator<'a>> {
    operators(s).into_iter().find(|o| o.namespace == ns)
}

/// The Helm release for the installation in `ns` (its operator's, else the chart default).
pub fn release_in(s: &Snapshot, ns: &str) -> Release {
    match operator_in(s, ns) {
        Some(o) => o.release(),
        None => Release {
            name: CHART.to_string(),
            namespace: ns.to_string(),
            version: None,
        },
    }
}

// ----------------------------------------------------------------------------- objects, gaps

/// Whether a read of `resource` in `ns` (or cluster-wide) failed, so absence proves nothing.
/// Whether the absence of `resource` objects proves nothing: listing them failed (a gap), or the
/// bundle does not hold that kind at all.
pub fn unreadable(s: &Snapshot, group: &str, resource: &str, ns: Option<&str>) -> bool {
    !s.holds_resource(resource)
        || s.gaps.iter().any(|g| {
            g.group == group
                && g.resource.split('/').next() == Some(resource)
                && g.reason != GapReason::NotInstalled
                && (g.namespace.is_none() || g.namespace.as_deref() == ns)
        })
}

pub fn secret<'a>(s: &'a Snapshot, ns: &str, name: &str) -> Option<&'a Secret> {
    s.secrets.iter().find(|x| {
        x.metadata.namespace.as_deref() == Some(ns) && x.metadata.name.as_deref() == Some(name)
    })
}

pub fn secret_data<'a>(secret: &'a Secret, key: &str) -> Option<&'a [u8]> {
    secret.data.as_ref()?.get(key).map(|b| b.0.as_slice())
}

pub fn service<'a>(s: &'a Snapshot, ns: &str, name: &str) -> Option<&'a Service> {
    s.services.iter().find(|x| {
        x.metadata.namespace.as_deref() == Some(ns) && x.metadata.name.as_deref() == Some(name)
    })
}

/// Whether the snapshot saw the CRDs: some were read and none failed. CRD absence is concluded
/// only then.
pub fn crds_read(s: &Snapshot) -> bool {
    s.install_checked
        && !s.crds.is_empty()
        && !unreadable(s, "apiextensions.k8s.io", "customresourcedefinitions", None)
}

pub fn crd_present(s: &Snapshot, name: &str) -> bool {
    s.crds
        .iter()
        .any(|c| c.metadata.name.as_deref() == Some(name))
}

/// cert-manager installed? `None` when the snapshot cannot tell.
pub fn cert_manager_installed(s: &Snapshot) -> Option<bool> {
    if crd_present(s, CERT_MANAGER_CRD) || !s.cert_manager_objects.is_empty() {
        Some(true)
    } else if crds_read(s) {
        Some(false)
    } else {
        None
    }
}

pub fn cert_manager_object<'a>(
    s: &'a Snapshot,
    kind: &str,
    ns: &str,
    name: &str,
) -> Option<&'a Value> {
    s.cert_manager_objects.iter().find(|v| {
        v.get("kind").and_then(Value::as_str) == Some(kind)
            && v.pointer("/metadata/name").and_then(Value::as_str) == Some(name)
            && (kind == "ClusterIssuer"
                || v.pointer("/metadata/namespace").and_then(Value::as_str) == Some(ns))
    })
}

/// The Certificate that makes the webhook's TLS Secret in `ns`: the one a webhook's
/// `inject-ca-from` names, else the chart's name.
pub fn certificate<'a>(s: &'a Snapshot, ns: &str) -> Option<&'a Value> {
    let named: Vec<&str> = flink_hooks(s)
        .iter()
        .filter_map(|h| h.inject_ca_from())
        .filter(|(n, _)| *n == ns)
        .map(|(_, c)| c)
        .collect();
    named
        .into_iter()
        .chain([CERTIFICATE])
        .find_map(|name| cert_manager_object(s, "Certificate", ns, name))
}

/// The Ready condition of a cert-manager object: (status, reason, message).
pub fn ready_condition(v: &Value) -> Option<(String, String, String)> {
    let conds = v.pointer("/status/conditions")?.as_array()?;
    let c = conds
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))?;
    let f = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Some((f("status"), f("reason"), f("message")))
}

/// The name of the webhook's TLS Secret in `ns`: the operator's keystore volume, else the
/// Certificate's `secretName`, else the chart's.
pub fn tls_secret_name(s: &Snapshot, ns: &str) -> String {
    if let Some(name) = operator_in(s, ns).and_then(|o| o.tls_secret()) {
        return name.to_string();
    }
    certificate(s, ns)
        .and_then(|c| c.pointer("/spec/secretName"))
        .and_then(Value::as_str)
        .unwrap_or(TLS_SECRET)
        .to_string()
}

/// The serving certificate chain of the installation in `ns` (`tls.crt` of its TLS Secret), with
/// the Secret's name: `None` when the Secret or its `tls.crt` is not in the snapshot.
pub fn serving_chain(
    s: &Snapshot,
    ns: &str,
) -> Option<(String, Result<Vec<x509::Cert>, x509::CertError>)> {
    let name = tls_secret_name(s, ns);
    let bytes = secret_data(secret(s, ns, &name)?, "tls.crt")?;
    let parsed = x509::parse_pem(bytes).and_then(|c| {
        if c.is_empty() {
            Err(x509::CertError::Empty("tls.crt"))
        } else {
            Ok(c)
        }
    });
    Some((name, parsed))
}

/// Events in `ns`, oldest first.
pub fn events_in<'a>(s: &'a Snapshot, ns: &str) -> Vec<&'a Event> {
    let mut out: Vec<&Event> = s
        .events
        .iter()
        .filter(|e| {
            e.metadata.namespace.as_deref() == Some(ns)
                || e.involved_object.namespace.as_deref() == Some(ns)
        })
        .collect();
    out.sort_by_key(|e| crate::snapshot::index::event_time(e));
    out
}

/// `event FailedMount on Pod/x (x12, last 2026-11-20 10:05:00 UTC): MountVolume.SetUp failed ...`
pub fn event_line(e: &Event) -> String {
    let o = &e.involved_object;
    let mut meta = Vec::new();
    if let Some(c) = e.count.filter(|c| *c > 1) {
        meta.push(format!("x{c}"));
    }
    if let Some(t) = crate::snapshot::index::event_time(e) {
        meta.push(format!("last {}", t.format("%Y-%m-%d %H:%M:%S UTC")));
    }
    let meta = if meta.is_empty() {
        String::new()
    } else {
        format!(" ({})", meta.join(", "))
    };
    format!(
        "event {} on {}/{}{meta}: {}",
        e.reason.as_deref().unwrap_or("?"),
        o.kind.as_deref().unwrap_or("?"),
        o.name.as_deref().unwrap_or("?"),
        crate::error::one_line(e.message.as_deref().unwrap_or("")).trim()
    )
}

/// Events in `ns` whose message mentions `needle` (a Secret's name, a volume).
pub fn events_mentioning<'a>(s: &'a Snapshot, ns: &str, needle: &str) -> Vec<&'a Event> {
    events_in(s, ns)
        .into_iter()
        .filter(|e| e.message.as_deref().is_some_and(|m| m.contains(needle)))
        .collect()
}

/// Time since an object was created, against the snapshot's "now".
pub fn age(s: &Snapshot, meta: &ObjectMeta) -> Option<Duration> {
    let created: DateTime<Utc> = meta.creation_timestamp.as_ref().and_then(to_utc)?;
    Some(s.captured_at - created)
}

/// Flink resources (FlinkDeployments, FlinkSessionJobs) nothing has reconciled: no status, or a
/// status without a lifecycle state, `min_age` seconds after creation. (kind, ns, name, age)
pub fn unreconciled(s: &Snapshot, min_age: i64) -> Vec<(&'static str, &str, &str, Duration)> {
    let mut out = Vec::new();
    for fd in &s.flink_deployments {
        let empty = fd.status.as_ref().is_none_or(|st| {
            st.lifecycle_state.is_none()
                && st.job_manager_deployment_status.is_none()
                && st.reconciliation_status.is_none()
        });
        if let Some(a) = age(s, &fd.metadata).filter(|a| empty && a.num_seconds() >= min_age) {
            out.push(("FlinkDeployment", fd.namespace(), fd.name(), a));
        }
    }
    for j in &s.flink_session_jobs {
        let empty = j
            .status
            .as_ref()
            .is_none_or(|st| st.lifecycle_state.is_none() && st.job_status.is_none());
        if let Some(a) = age(s, &j.metadata).filter(|a| empty && a.num_seconds() >= min_age) {
            out.push(("FlinkSessionJob", j.namespace(), j.name(), a));
        }
    }
    out
}

// ------------------------------------------------------------------------------- pod health

/// What is wrong with one container of a pod, in words, with the state that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerTrouble {
    pub container: String,
    pub kind: Trouble,
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trouble {
    OomKilled,
    CrashLoop,
    ConfigError,
    ImagePull,
    Creating,
    NotReady,
}

/// The troubles of a pod's containers; a Pending pod that was never scheduled is one too.
pub fn pod_troubles(p: &Pod) -> Vec<ContainerTrouble> {
    let mut out = Vec::new();
    let Some(st) = p.status.as_ref() else {
        return out;
    };
    for c in st.container_statuses.iter().flatten() {
        let waiting = c.state.as_ref().and_then(|s| s.waiting.as_ref());
        let last = c.last_state.as_ref().and_then(|s| s.terminated.as_ref());
        let reason = waiting.and_then(|w| w.reason.as_deref()).unwrap_or("");
        let message = waiting.and_then(|w| w.message.as_deref()).unwrap_or("");
        let oom = last
            .is_some_and(|t| t.reason.as_deref() == Some("OOMKilled") || t.exit_code == 137)
            || c.state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .is_some_and(|t| t.reason.as_deref() == Some("OOMKilled"));
        let last_text = last
            .map(|t| {
                format!(
                    "; last terminated {} (exit code {})",
                    t.reason.as_deref().unwrap_or("with an error"),
                    t.exit_code
                )
            })
            .unwrap_or_default();
        let restarts = if c.restart_count > 0 {
            format!(", {} restarts", c.restart_count)
        } else {
            String::new()
        };
        let (kind, detail) = if oom {
            (
                Trouble::OomKilled,
                format!("killed by its memory limit (OOMKilled, exit code 137){restarts}"),
            )
        } else if reason == "CrashLoopBackOff" || (c.restart_count > 2 && last.is_some()) {
            (
                Trouble::CrashLoop,
                format!("crash-looping ({reason}){last_text}{restarts}").replace("()", ""),
            )
        } else if matches!(
            reason,
            "CreateContainerConfigError" | "CreateContainerError" | "RunContainerError"
        ) {
            (Trouble::ConfigError, format!("{reason}: {message}"))
        } else if matches!(
            reason,
            "ImagePullBackOff" | "ErrImagePull" | "InvalidImageName"
        ) {
            (Trouble::ImagePull, format!("{reason}: {message}"))
        } else if reason == "ContainerCreating" || reason == "PodInitializing" {
            (Trouble::Creating, format!("waiting in {reason}"))
        } else if !c.ready {
            let why = if reason.is_empty() {
                "running but not ready".to_string()
            } else {
                format!("not ready ({reason})")
            };
            (Trouble::NotReady, format!("{why}{restarts}"))
        } else {
            continue;
        };
        out.push(ContainerTrouble {
            container: c.name.clone(),
            kind,
            detail: detail.trim_end_matches(": ").to_string(),
        });
    }
    if out.is_empty() && st.phase.as_deref() == Some("Pending") {
        let cond = st
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == "PodScheduled" && c.status == "False");
        let detail = match cond {
            Some(c) => format!(
                "Pending, not scheduled: {}",
                c.message.as_deref().unwrap_or("")
            ),
            None => "Pending: its containers have not started".to_string(),
        };
        out.push(ContainerTrouble {
            container: String::new(),
            kind: Trouble::Creating,
            detail,
        });
    }
    out
}

pub fn pod_name(p: &Pod) -> &str {
    p.metadata.name.as_deref().unwrap_or("")
}

#[cfg(test)]
pub mod testing;

#[cfg(test)]
mod tests;

//! The Flink operators' installations: where they run, their version, what they watch, how they
//! were installed. Two operators have an installation layer the rules read: the Apache Flink
//! Kubernetes Operator (Helm chart) and the GCP/Spotify operator of `FlinkCluster` (release
//! manifest or its Helm chart: `crate::flink::install::flinkcluster`).

use super::*;
use crate::flink::identity::{OperatorKind, Wiring};
use crate::flink::install::flinkcluster as fc;
use crate::snapshot::identity;

/// Which operator an installation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavor {
    /// The Apache Flink Kubernetes Operator (FlinkDeployment, FlinkSessionJob).
    Apache,
    /// The GCP/Spotify operator (FlinkCluster, `flinkoperator.k8s.io`).
    FlinkCluster,
    /// Lyft's flinkk8soperator (FlinkApplication, `flink.k8s.io`): no installation layer the
    /// rules read beyond its Deployment and pods.
    Lyft,
}

impl Flavor {
    pub fn kind(self) -> OperatorKind {
        match self {
            Flavor::Apache => OperatorKind::Apache,
            Flavor::FlinkCluster => OperatorKind::FlinkCluster,
            Flavor::Lyft => OperatorKind::Lyft,
        }
    }
}

impl From<OperatorKind> for Flavor {
    fn from(k: OperatorKind) -> Flavor {
        match k {
            OperatorKind::Apache => Flavor::Apache,
            OperatorKind::FlinkCluster => Flavor::FlinkCluster,
            OperatorKind::Lyft => Flavor::Lyft,
        }
    }
}

/// Lyft's Deployment (lyft/flinkk8soperator@v0.5.0:deploy/flinkk8soperator.yaml).
pub const LYFT_DEPLOYMENT: &str = "flinkoperator";

/// One installation of the operator: its namespace and what runs there.
#[derive(Debug, Clone)]
pub struct Operator<'a> {
    pub flavor: Flavor,
    pub namespace: &'a str,
    pub deployment: Option<&'a Deployment>,
    pub pods: Vec<&'a Pod>,
    pub config: Option<&'a ConfigMap>,
    /// The wiring that says this is the operator (`snapshot::identity`).
    pub found_by: Wiring,
}

fn labels(m: &ObjectMeta) -> Option<&BTreeMap<String, String>> {
    m.labels.as_ref()
}

/// The operators' installations, by their Deployments (or their pods when a bundle holds only
/// those), sorted by namespace. Which operator an object is comes from its wiring
/// (`snapshot::identity`): labels, images, the webhook Service that selects it, its account's
/// rights over an operator's CRD group.
pub fn operators(s: &Snapshot) -> Vec<Operator<'_>> {
    let mut out: Vec<Operator> = Vec::new();
    for d in &s.operator_deployments {
        let Some((kind, found_by)) = identity::operator_of(s, d) else {
            continue;
        };
        let flavor = Flavor::from(kind);
        let ns = d.metadata.namespace.as_deref().unwrap_or("default");
        let selector = d.spec.selector.match_labels.as_ref();
        let pods = selected_pods(s, ns, selector, flavor);
        out.push(Operator {
            flavor,
            namespace: ns,
            deployment: Some(d),
            pods,
            config: match flavor {
                Flavor::Apache => config_map(s, ns),
                _ => None,
            },
            found_by,
        });
    }
    // Pods without a Deployment in the snapshot.
    for p in &s.operator_pods {
        let Some((kind, found_by)) = identity::operator_of(s, p) else {
            continue;
        };
        let flavor = Flavor::from(kind);
        let ns = p.metadata.namespace.as_deref().unwrap_or("default");
        if out.iter().any(|o| o.namespace == ns && o.flavor == flavor) {
            continue;
        }
        let pods = s
            .operator_pods
            .iter()
            .filter(|q| {
                q.metadata.namespace.as_deref().unwrap_or("default") == ns
                    && identity::operator_of(s, q).map(|x| Flavor::from(x.0)) == Some(flavor)
            })
            .collect();
        out.push(Operator {
            flavor,
            namespace: ns,
            deployment: None,
            pods,
            config: match flavor {
                Flavor::Apache => config_map(s, ns),
                _ => None,
            },
            found_by,
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
            .unwrap_or(match self.flavor {
                Flavor::Apache => CHART,
                Flavor::FlinkCluster => fc::DEPLOYMENT,
                Flavor::Lyft => LYFT_DEPLOYMENT,
            })
    }

    pub fn is_apache(&self) -> bool {
        self.flavor == Flavor::Apache
    }

    /// The operator's own container: `flink-kubernetes-operator` (Apache); `manager` or
    /// `flink-operator` (FlinkCluster, release manifest or Helm chart).
    pub fn main_container(&self) -> Option<&'a Container> {
        match self.flavor {
            Flavor::Apache => self.container(OPERATOR_CONTAINER),
            Flavor::FlinkCluster => fc::CONTAINERS
                .iter()
                .find_map(|n| self.container(n))
                .or_else(|| self.pod_spec().and_then(|p| p.containers.first())),
            Flavor::Lyft => self.pod_spec().and_then(|p| p.containers.first()),
        }
    }

    /// The name of the container that serves the webhooks.
    pub fn webhook_container(&self) -> &'a str {
        match self.flavor {
            Flavor::Apache => WEBHOOK_CONTAINER,
            Flavor::FlinkCluster | Flavor::Lyft => self
                .main_container()
                .map(|c| c.name.as_str())
                .unwrap_or(fc::CONTAINERS[0]),
        }
    }

    /// `Deployment ns/name` (or `pod ns/name` when the snapshot holds only its pods).
    pub fn object_text(&self) -> String {
        match self.deployment {
            Some(_) => format!("Deployment {}/{}", self.namespace, self.name()),
            None => format!(
                "pod {}/{}",
                self.namespace,
                self.pods.first().map(|p| pod_name(p)).unwrap_or("?")
            ),
        }
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

    /// The position of container `name` in the pod template, for JSON patches.
    pub fn pod_container_index(&self, name: &str) -> Option<usize> {
        self.pod_spec()?
            .containers
            .iter()
            .position(|c| c.name == name)
    }

    pub fn container(&self, name: &str) -> Option<&'a Container> {
        self.pod_spec()?.containers.iter().find(|c| c.name == name)
    }

    /// The operator's image (its main container's), and the version its tag names.
    pub fn image(&self) -> Option<&'a str> {
        self.main_container()
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
    /// The FlinkCluster operator serves them when its pod mounts the serving certificate (the
    /// release manifest and the chart both do).
    pub fn webhook_enabled(&self) -> bool {
        match self.flavor {
            Flavor::Apache => self.container(WEBHOOK_CONTAINER).is_some(),
            Flavor::FlinkCluster => self.tls_secret().is_some(),
            Flavor::Lyft => false,
        }
    }

    /// The Secret mounted as the webhook's keystore (volume `keystore`), when the spec names one.
    pub fn tls_secret(&self) -> Option<&'a str> {
        let spec = self.pod_spec()?;
        let (webhook, volume, dir) = match self.flavor {
            Flavor::Apache => (self.container(WEBHOOK_CONTAINER), "keystore", "/certs"),
            Flavor::FlinkCluster => (self.main_container(), fc::CERT_VOLUME, fc::CERT_DIR),
            Flavor::Lyft => return None,
        };
        spec.volumes.iter().flatten().find_map(|v| {
            let secret = v.secret.as_ref()?;
            let mounted_by_webhook =
                webhook
                    .and_then(|c| c.volume_mounts.as_ref())
                    .is_some_and(|m| {
                        m.iter()
                            .any(|m| m.name == v.name && m.mount_path.trim_end_matches('/') == dir)
                    });
            (v.name == volume || mounted_by_webhook)
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

    /// The port the webhook server listens on: the Apache chart's `WEBHOOK_SERVER_PORT` (default
    /// 9443); the FlinkCluster operator's declared `webhook-server` container port, since its
    /// controller-runtime's default changed from 443 to 9443 and the releases declare the one they
    /// use (kubernetes-sigs/controller-runtime@v0.6.0:pkg/webhook/server.go `DefaultPort = 443`,
    /// @v0.11.1: 9443; GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:go.mod v0.6.0 and
    /// config/default/manager_webhook_patch.yaml `containerPort: 443`;
    /// spotify/flink-on-k8s-operator@v0.5.0: v0.11.1 and `containerPort: 9443`), else 9443.
    pub fn webhook_port(&self) -> i32 {
        self.webhook_listener().0
    }

    /// [`Operator::webhook_port`] and where it was read, for evidence.
    pub fn webhook_listener(&self) -> (i32, String) {
        let name = self.name();
        if self.flavor == Flavor::FlinkCluster {
            let declared = self.main_container().and_then(|c| {
                c.ports
                    .iter()
                    .flatten()
                    .find(|p| p.name.as_deref() == Some(fc::WEBHOOK_PORT_NAME))
                    .map(|p| (c.name.as_str(), p.container_port))
            });
            return match declared {
                Some((c, port)) => (
                    port,
                    format!(
                        "container {c} of {}/{name}: containerPort {} {port}",
                        self.namespace,
                        fc::WEBHOOK_PORT_NAME
                    ),
                ),
                None => (
                    WEBHOOK_PORT,
                    format!(
                        "{}/{name} declares no {} port: controller-runtime's default {WEBHOOK_PORT}",
                        self.namespace,
                        fc::WEBHOOK_PORT_NAME
                    ),
                ),
            };
        }
        let port = self
            .container(WEBHOOK_CONTAINER)
            .and_then(|c| c.env.as_ref())
            .and_then(|env| env.iter().find(|e| e.name == "WEBHOOK_SERVER_PORT"))
            .and_then(|e| e.value.as_deref())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(WEBHOOK_PORT);
        (
            port,
            format!(
                "container {WEBHOOK_CONTAINER} of {}/{name}: WEBHOOK_SERVER_PORT {port}",
                self.namespace
            ),
        )
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
            flavor: self.flavor,
        }
    }

    /// The FlinkCluster operator's `--watch-namespace=NS` (or `--watch-namespace NS`): `None`
    /// when it is empty or absent (every namespace), else the container and its value.
    fn watch_flag(&self) -> Option<(&'a str, String)> {
        let c = self.main_container()?;
        let args: Vec<&String> = c
            .command
            .iter()
            .flatten()
            .chain(c.args.iter().flatten())
            .collect();
        for (i, a) in args.iter().enumerate() {
            let value = if let Some(v) = a.strip_prefix(&format!("{}=", fc::WATCH_FLAG)) {
                v.to_string()
            } else if a.as_str() == fc::WATCH_FLAG {
                args.get(i + 1).map(|v| v.to_string()).unwrap_or_default()
            } else {
                continue;
            };
            let value = value
                .trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .to_string();
            return (!value.is_empty()).then_some((c.name.as_str(), value));
        }
        None
    }

    /// `None`: every namespace. Read from the ConfigMap's `flink-conf.yaml` or `config.yaml`.
    pub fn watched_namespaces(&self) -> Option<BTreeSet<String>> {
        if self.flavor == Flavor::FlinkCluster {
            return self.watch_flag().map(|(_, ns)| BTreeSet::from([ns]));
        }
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
        if self.flavor == Flavor::FlinkCluster {
            let container = self.webhook_container();
            return format!(
                "Deployment {}/{} (container `{container}`): {}",
                self.namespace,
                self.name(),
                match self.watch_flag() {
                    Some((_, ns)) => format!("{}={ns}", fc::WATCH_FLAG),
                    None => format!("no {} (every namespace)", fc::WATCH_FLAG),
                }
            );
        }
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

    /// The label selector of its pods: the Deployment's own, else the release's labels.
    pub fn selector(&self) -> String {
        if let Some(sel) = self
            .deployment
            .and_then(|d| d.spec.selector.match_labels.as_ref())
            .filter(|m| !m.is_empty())
        {
            return identity::labels_of(sel);
        }
        self.flavor.kind().selector()
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
    pub flavor: Flavor,
}

impl Release {
    /// `helm upgrade <release> <chart> ... --reuse-values <extra>`, the chart of the release's own
    /// version (the newest from its repository when the version is unknown). For the
    /// FlinkCluster operator (no Helm repository; `extra` names the Apache chart's values and is
    /// left out): apply its release manifest again.
    pub fn upgrade(&self, extra: &str) -> String {
        if self.flavor == Flavor::FlinkCluster {
            let note = if self.namespace == fc::NAMESPACE {
                String::new()
            } else {
                format!(
                    "   # it installs into {}; for {}, apply the manifests you installed from",
                    fc::NAMESPACE,
                    self.namespace
                )
            };
            return format!("kubectl apply -f {}{note}", fc::MANIFEST);
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" {extra}")
        };
        match self.version {
            Some(v) => format!(
                "helm upgrade {} {} -n {} --reuse-values{extra}",
                self.name,
                chart_url(v),
                self.namespace
            ),
            None => format!(
                "{}\n\
                 helm upgrade {} flink-operator-repo/flink-kubernetes-operator -n {} --reuse-values{extra}",
                add_repo(),
                self.name,
                self.namespace
            ),
        }
    }
}

/// The chart of one operator release, a URL `helm pull`, `install` and `upgrade` take as it is:
/// the release's own repository lists only that release and leaves downloads.apache.org once newer
/// ones ship, so `flink-operator-repo --version V` rarely finds V (archive.apache.org/dist/flink
/// keeps every release's `flink-kubernetes-operator-V-helm.tgz`).
pub fn chart_url(version: Version) -> String {
    format!("{ARCHIVE}/flink-kubernetes-operator-{version}/flink-kubernetes-operator-{version}-helm.tgz")
}

/// The newest release's repository under the name the operator's docs give it, pointed there even
/// when an older release's repository already has the name.
fn add_repo() -> String {
    format!(
        "helm repo add --force-update flink-operator-repo {HELM_REPO} && helm repo update flink-operator-repo"
    )
}

/// `helm pull` of the chart of `version` (the newest when unknown), unpacked; and the folder its
/// CRDs land in.
pub fn pull_chart(version: Option<Version>) -> (String, String) {
    match version {
        Some(v) => {
            let dir = format!("/tmp/flink-operator-chart-{v}");
            (
                format!("helm pull {} --untar --untardir {dir}", chart_url(v)),
                format!("{dir}/flink-kubernetes-operator/crds/"),
            )
        }
        None => (
            format!(
                "{}\nhelm pull flink-operator-repo/flink-kubernetes-operator --untar --untardir /tmp/flink-operator-chart",
                add_repo()
            ),
            "/tmp/flink-operator-chart/flink-kubernetes-operator/crds/".to_string(),
        ),
    }
}

/// A fresh install of the chart into `namespace`.
pub fn helm_install(namespace: &str, extra: &str) -> String {
    format!(
        "{}\n\
         helm upgrade --install flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n {namespace} --create-namespace{}",
        add_repo(),
        if extra.is_empty() { String::new() } else { format!(" {extra}") }
    )
}

/// The operator pods in `ns` that the Deployment's selector picks, or without a selector those
/// of the same operator.
fn selected_pods<'a>(
    s: &'a Snapshot,
    ns: &str,
    selector: Option<&std::collections::BTreeMap<String, String>>,
    flavor: Flavor,
) -> Vec<&'a Pod> {
    s.operator_pods
        .iter()
        .filter(|p| p.metadata.namespace.as_deref().unwrap_or("default") == ns)
        .filter(|p| match selector {
            Some(sel) => sel
                .iter()
                .all(|(k, v)| labels(&p.metadata).and_then(|l| l.get(k)) == Some(v)),
            None => identity::operator_of(s, p).map(|x| Flavor::from(x.0)) == Some(flavor),
        })
        .collect()
}

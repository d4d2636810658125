//! The Flink Kubernetes Operator's installations: where it runs, its version, what it watches,
//! its Helm release.

use super::*;

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

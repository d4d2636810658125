//! Offline bundles: a directory (or one file) of Kubernetes objects plus container logs, read into
//! the same Snapshot a live cluster gives, and written back out by `doctor --save`.
//!
//! Layout: every `*.yaml`, `*.yml`, `*.json` holds one object, a multi-document stream, or a
//! `kind: List`; logs live at `logs/<namespace>/<pod>/<container>.log` and
//! `logs/<namespace>/<pod>/<container>.previous.log`.

use super::{LogKey, Snapshot};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("read bundle {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("parse {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: {what}")]
    Object { path: PathBuf, what: String },
    #[error("bundle {0}: no such file or directory")]
    Missing(PathBuf),
    #[error("write bundle {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Kinds a bundle may hold that the diagnosis does not read (what `kubectl get all -o yaml`
/// and friends print besides). Anything else unknown is an input error, so a typo never passes
/// silently.
const IGNORED_KINDS: &[&str] = &[
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "Endpoints",
    "Ingress",
    "NetworkPolicy",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "PodDisruptionBudget",
    "HorizontalPodAutoscaler",
    "LimitRange",
    "ResourceQuota",
    "Node",
    "Lease",
    "PriorityClass",
    "StorageClass",
    "FlinkStateSnapshot",
    "FlinkBlueGreenDeployment",
];

/// Reads a bundle from a file or directory.
pub fn load(path: &Path) -> Result<Snapshot, BundleError> {
    if !path.exists() {
        return Err(BundleError::Missing(path.to_path_buf()));
    }
    let mut snapshot = Snapshot {
        rbac_complete: false,
        ..Snapshot::default()
    };
    for file in &object_files(path)? {
        let text = fs::read_to_string(file).map_err(|source| BundleError::Io {
            path: file.clone(),
            source,
        })?;
        for doc in parse_documents(&text).map_err(|message| BundleError::Parse {
            path: file.clone(),
            message,
        })? {
            add_value(&mut snapshot, doc).map_err(|what| BundleError::Object {
                path: file.clone(),
                what,
            })?;
        }
    }
    if path.is_dir() {
        load_logs(&path.join("logs"), &mut snapshot)?;
    }
    classify_operator(&mut snapshot);
    snapshot.install_checked = holds_installation(&snapshot);
    snapshot.rbac_complete = !snapshot.roles.is_empty()
        || !snapshot.role_bindings.is_empty()
        || !snapshot.cluster_role_bindings.is_empty();
    snapshot.captured_at = newest_timestamp(&snapshot).unwrap_or_default();
    Ok(snapshot)
}

/// A bundle speaks about the installation only when it holds some of it: the operator's objects,
/// CRDs or webhook configurations. Without them, absence proves nothing.
pub fn holds_installation(s: &Snapshot) -> bool {
    !s.operator_deployments.is_empty()
        || !s.operator_pods.is_empty()
        || !s.operator_config_maps.is_empty()
        || !s.crds.is_empty()
        || !s.validating_webhooks.is_empty()
        || !s.mutating_webhooks.is_empty()
        || !s.cert_manager_objects.is_empty()
}

/// Labels that mark the Flink operators' own Deployment and pods (the Apache chart; Lyft's).
pub const OPERATOR_SELECTORS: &[(&str, &str)] = &[
    ("app.kubernetes.io/name", "flink-kubernetes-operator"),
    ("app", "flinkoperator"),
];
/// The operators' configuration ConfigMap (both operators use this name).
pub const OPERATOR_CONFIG_MAP: &str = "flink-operator-config";

fn is_operator(labels: Option<&std::collections::BTreeMap<String, String>>) -> bool {
    labels.is_some_and(|l| {
        OPERATOR_SELECTORS
            .iter()
            .any(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
    })
}

/// A bundle holds the operator's objects beside Flink's; the live gather reads them separately,
/// so sort them the same way here.
pub fn classify_operator(s: &mut Snapshot) {
    let (ops, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut s.deployments)
        .into_iter()
        .partition(|d| is_operator(d.metadata.labels.as_ref()));
    s.operator_deployments.extend(ops);
    s.deployments = rest;
    let (ops, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut s.pods)
        .into_iter()
        .partition(|p| is_operator(p.metadata.labels.as_ref()));
    s.operator_pods.extend(ops);
    s.pods = rest;
    let (ops, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut s.config_maps)
        .into_iter()
        .partition(|c| c.metadata.name.as_deref() == Some(OPERATOR_CONFIG_MAP));
    s.operator_config_maps.extend(ops);
    s.config_maps = rest;
}

/// The files of a bundle that hold objects: PATH itself, or every `*.yaml`, `*.yml` and `*.json`
/// below it outside `logs/`, in sorted order. The test cluster's seeder reads bundles through this
/// too, so both always see the same objects.
pub fn object_files(path: &Path) -> Result<Vec<PathBuf>, BundleError> {
    let mut files = Vec::new();
    collect_files(path, &mut files)?;
    files.sort();
    Ok(files)
}

fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), BundleError> {
    let io = |source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    for entry in fs::read_dir(path).map_err(io)? {
        let p = entry.map_err(io)?.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "logs") {
                continue;
            }
            collect_files(&p, out)?;
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        ) {
            out.push(p);
        }
    }
    Ok(())
}

/// Splits a YAML (or JSON) stream into documents, skipping empty ones.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(text) {
        let v = Value::deserialize_from_yaml(doc)?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok(out)
}

trait FromYaml: Sized {
    fn deserialize_from_yaml(d: serde_yaml::Deserializer) -> Result<Self, String>;
}

impl FromYaml for Value {
    fn deserialize_from_yaml(d: serde_yaml::Deserializer) -> Result<Self, String> {
        use serde::Deserialize;
        Value::deserialize(d).map_err(|e| e.to_string())
    }
}

/// Adds one object (or a List of them) to the snapshot.
pub fn add_value(s: &mut Snapshot, v: Value) -> Result<(), String> {
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let api_version = v
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if kind.is_empty() {
        return Err("an object without `kind`".into());
    }
    if kind.ends_with("List") {
        if let Some(items) = v.get("items").and_then(Value::as_array) {
            for item in items.clone() {
                add_value(s, item)?;
            }
            return Ok(());
        }
    }
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    let ctx = |e: serde_json::Error| format!("{kind} {name}: {e}");
    fn de<T: DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
        serde_json::from_value(v)
    }
    match (kind.as_str(), api_version.split('/').next().unwrap_or("")) {
        ("FlinkDeployment", "flink.apache.org") => s.flink_deployments.push(de(v).map_err(ctx)?),
        ("FlinkSessionJob", "flink.apache.org") => s.flink_session_jobs.push(de(v).map_err(ctx)?),
        ("FlinkApplication", "flink.k8s.io") => s.flink_applications.push(de(v).map_err(ctx)?),
        ("CustomResourceDefinition", _) => s.crds.push(de(v).map_err(ctx)?),
        ("ValidatingWebhookConfiguration", _) => s.validating_webhooks.push(de(v).map_err(ctx)?),
        ("MutatingWebhookConfiguration", _) => s.mutating_webhooks.push(de(v).map_err(ctx)?),
        ("Certificate" | "Issuer" | "ClusterIssuer", "cert-manager.io") => {
            s.cert_manager_objects.push(v)
        }
        ("EndpointSlice", _) => s.endpoint_slices.push(de(v).map_err(ctx)?),
        ("Pod", _) => s.pods.push(de(v).map_err(ctx)?),
        ("Deployment", _) => s.deployments.push(de(v).map_err(ctx)?),
        ("Service", _) => s.services.push(de(v).map_err(ctx)?),
        ("ConfigMap", _) => s.config_maps.push(de(v).map_err(ctx)?),
        ("Secret", _) => s.secrets.push(public_only(de(v).map_err(ctx)?)),
        ("Event", _) => s.events.push(de(v).map_err(ctx)?),
        ("Namespace", _) => s.namespaces_objects.push(de(v).map_err(ctx)?),
        ("ServiceAccount", _) => s.service_accounts.push(de(v).map_err(ctx)?),
        ("Role", _) => s.roles.push(de(v).map_err(ctx)?),
        ("RoleBinding", _) => s.role_bindings.push(de(v).map_err(ctx)?),
        ("ClusterRole", _) => s.cluster_roles.push(de(v).map_err(ctx)?),
        ("ClusterRoleBinding", _) => s.cluster_role_bindings.push(de(v).map_err(ctx)?),
        (k, _) if IGNORED_KINDS.contains(&k) => {}
        _ => {
            return Err(format!(
                "object {name} has kind {kind} ({api_version}), which kubectl-flink does not read"
            ))
        }
    }
    Ok(())
}

/// The keys of a Secret that hold public certificates, the only data ever kept in memory.
pub const PUBLIC_SECRET_KEYS: &[&str] = &["tls.crt", "ca.crt"];

/// A Secret as the diagnosis keeps it: metadata, type, and public certificates only. Private keys,
/// passwords and keystores are dropped the moment they are read.
pub fn public_only(
    mut secret: k8s_openapi::api::core::v1::Secret,
) -> k8s_openapi::api::core::v1::Secret {
    if let Some(data) = secret.data.as_mut() {
        data.retain(|k, _| PUBLIC_SECRET_KEYS.contains(&k.as_str()));
    }
    secret.string_data = None;
    if let Some(a) = secret.metadata.annotations.as_mut() {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    secret
}

/// Secrets as a saved bundle keeps them: metadata only, no `data`, no `stringData`, ever.
pub fn strip_secret(
    mut secret: k8s_openapi::api::core::v1::Secret,
) -> k8s_openapi::api::core::v1::Secret {
    secret.data = None;
    secret.string_data = None;
    if let Some(a) = secret.metadata.annotations.as_mut() {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    secret
}

fn load_logs(dir: &Path, s: &mut Snapshot) -> Result<(), BundleError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Io { path, source }
    };
    for ns in fs::read_dir(dir).map_err(io(dir))? {
        let ns = ns.map_err(io(dir))?.path();
        if !ns.is_dir() {
            continue;
        }
        for pod in fs::read_dir(&ns).map_err(io(&ns))? {
            let pod = pod.map_err(io(&ns))?.path();
            if !pod.is_dir() {
                continue;
            }
            for file in fs::read_dir(&pod).map_err(io(&pod))? {
                let file = file.map_err(io(&pod))?.path();
                let Some(fname) = file.file_name().and_then(|f| f.to_str()) else {
                    continue;
                };
                let (container, previous) = if let Some(c) = fname.strip_suffix(".previous.log") {
                    (c, true)
                } else if let Some(c) = fname.strip_suffix(".log") {
                    (c, false)
                } else {
                    continue;
                };
                let bytes = fs::read(&file).map_err(io(&file))?;
                s.logs.insert(
                    LogKey::new(
                        &lossy(ns.file_name()),
                        &lossy(pod.file_name()),
                        container,
                        previous,
                    ),
                    String::from_utf8_lossy(&bytes).into_owned(),
                );
            }
        }
    }
    Ok(())
}

fn lossy(name: Option<&std::ffi::OsStr>) -> String {
    name.map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A bundle has no capture time of its own: "now" is the newest timestamp it mentions, so the
/// same bundle gives the same diagnosis on any day.
fn newest_timestamp(s: &Snapshot) -> Option<chrono::DateTime<chrono::Utc>> {
    use super::to_utc;
    let events = s.events.iter().filter_map(super::index::event_time);
    let pods = s.pods.iter().flat_map(|p| {
        let created = p.metadata.creation_timestamp.as_ref().and_then(to_utc);
        let statuses = p
            .status
            .iter()
            .flat_map(|st| st.container_statuses.iter().flatten())
            .flat_map(|c| {
                [c.state.as_ref(), c.last_state.as_ref()]
                    .into_iter()
                    .flatten()
                    .filter_map(|st| st.terminated.as_ref())
                    .filter_map(|t| t.finished_at.as_ref().and_then(to_utc))
            });
        created.into_iter().chain(statuses).collect::<Vec<_>>()
    });
    let crs = s
        .flink_deployments
        .iter()
        .filter_map(|d| d.metadata.creation_timestamp.as_ref().and_then(to_utc));
    events.chain(pods).chain(crs).max()
}

/// Writes a snapshot as a bundle directory (the `--save` layout). Secrets keep metadata only.
/// Everything is written to a temporary directory first and renamed into place, so a failure
/// never leaves a half-written bundle.
pub fn save(s: &Snapshot, dir: &Path) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    if dir.exists() && fs::read_dir(dir).map_err(werr(dir))?.next().is_some() {
        return Err(BundleError::Write {
            path: dir.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "directory exists and is not empty",
            ),
        });
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = parent.join(format!(
        ".{}.partial-{}",
        dir.file_name().and_then(|n| n.to_str()).unwrap_or("bundle"),
        std::process::id()
    ));
    let result = write_all(s, &tmp);
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if dir.exists() {
        fs::remove_dir(dir).map_err(werr(dir))?;
    }
    fs::rename(&tmp, dir).map_err(|source| {
        let _ = fs::remove_dir_all(&tmp);
        BundleError::Write {
            path: dir.to_path_buf(),
            source,
        }
    })
}

fn write_all(s: &Snapshot, dir: &Path) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    fs::create_dir_all(dir).map_err(werr(dir))?;
    let secrets: Vec<_> = s.secrets.iter().cloned().map(strip_secret).collect();
    let lists: Vec<(&str, Vec<Value>)> = vec![
        (
            "flinkdeployments",
            with_kind(
                &s.flink_deployments,
                "flink.apache.org/v1beta1",
                "FlinkDeployment",
            ),
        ),
        (
            "flinksessionjobs",
            with_kind(
                &s.flink_session_jobs,
                "flink.apache.org/v1beta1",
                "FlinkSessionJob",
            ),
        ),
        (
            "flinkapplications",
            with_kind(
                &s.flink_applications,
                "flink.k8s.io/v1beta1",
                "FlinkApplication",
            ),
        ),
        (
            "customresourcedefinitions",
            with_kind(
                &s.crds,
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition",
            ),
        ),
        (
            "validatingwebhookconfigurations",
            with_kind(
                &s.validating_webhooks,
                "admissionregistration.k8s.io/v1",
                "ValidatingWebhookConfiguration",
            ),
        ),
        (
            "mutatingwebhookconfigurations",
            with_kind(
                &s.mutating_webhooks,
                "admissionregistration.k8s.io/v1",
                "MutatingWebhookConfiguration",
            ),
        ),
        (
            "endpointslices",
            with_kind(&s.endpoint_slices, "discovery.k8s.io/v1", "EndpointSlice"),
        ),
        ("cert-manager", s.cert_manager_objects.clone()),
        (
            "operator-deployments",
            with_kind(&s.operator_deployments, "apps/v1", "Deployment"),
        ),
        ("operator-pods", with_kind(&s.operator_pods, "v1", "Pod")),
        (
            "operator-configmaps",
            with_kind(&s.operator_config_maps, "v1", "ConfigMap"),
        ),
        (
            "namespaces",
            with_kind(&s.namespaces_objects, "v1", "Namespace"),
        ),
        (
            "serviceaccounts",
            with_kind(&s.service_accounts, "v1", "ServiceAccount"),
        ),
        (
            "roles",
            with_kind(&s.roles, "rbac.authorization.k8s.io/v1", "Role"),
        ),
        (
            "rolebindings",
            with_kind(
                &s.role_bindings,
                "rbac.authorization.k8s.io/v1",
                "RoleBinding",
            ),
        ),
        (
            "clusterroles",
            with_kind(
                &s.cluster_roles,
                "rbac.authorization.k8s.io/v1",
                "ClusterRole",
            ),
        ),
        (
            "clusterrolebindings",
            with_kind(
                &s.cluster_role_bindings,
                "rbac.authorization.k8s.io/v1",
                "ClusterRoleBinding",
            ),
        ),
        (
            "deployments",
            with_kind(&s.deployments, "apps/v1", "Deployment"),
        ),
        ("services", with_kind(&s.services, "v1", "Service")),
        ("configmaps", with_kind(&s.config_maps, "v1", "ConfigMap")),
        ("secrets", with_kind(&secrets, "v1", "Secret")),
        ("pods", with_kind(&s.pods, "v1", "Pod")),
        ("events", with_kind(&s.events, "v1", "Event")),
    ];
    for (file, items) in lists {
        if items.is_empty() {
            continue;
        }
        let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
        let path = dir.join(format!("{file}.yaml"));
        let text = serde_yaml::to_string(&list).map_err(|e| BundleError::Write {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        fs::write(&path, text).map_err(werr(&path))?;
    }
    for (key, text) in &s.logs {
        let pod_dir = dir.join("logs").join(&key.namespace).join(&key.pod);
        fs::create_dir_all(&pod_dir).map_err(werr(&pod_dir))?;
        let suffix = if key.previous {
            ".previous.log"
        } else {
            ".log"
        };
        let path = pod_dir.join(format!("{}{suffix}", key.container));
        fs::write(&path, text).map_err(werr(&path))?;
    }
    Ok(())
}

fn with_kind<T: serde::Serialize>(items: &[T], api_version: &str, kind: &str) -> Vec<Value> {
    items
        .iter()
        .filter_map(|i| serde_json::to_value(i).ok())
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                o.insert("apiVersion".into(), Value::String(api_version.into()));
                o.insert("kind".into(), Value::String(kind.into()));
            }
            v
        })
        .collect()
}

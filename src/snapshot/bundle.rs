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
/// and friends print besides): left out silently. Any other kind is left out with a note.
/// StatefulSets and Jobs are read only when they belong to a FlinkCluster (`is_flinkcluster_object`).
const IGNORED_KINDS: &[&str] = &[
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "Ingress",
    "NetworkPolicy",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "PodDisruptionBudget",
    "HorizontalPodAutoscaler",
    "LimitRange",
    "Node",
    "Lease",
    "PriorityClass",
    "StorageClass",
    "FlinkStateSnapshot",
    "FlinkBlueGreenDeployment",
];

/// How a bundle is read.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadOptions {
    /// Lines kept from the end of each log file (`--log-tail`); `None` keeps whole logs. The file
    /// is read backwards from its end, so a 1 GB log costs what its tail costs.
    pub log_tail: Option<usize>,
}

/// A bundle as read: the snapshot, and what was left out of it (one line each), for a note.
#[derive(Debug)]
pub struct Loaded {
    pub snapshot: Snapshot,
    pub skipped: Vec<String>,
}

/// Reads a bundle from a file or directory, whole logs included.
pub fn load(path: &Path) -> Result<Snapshot, BundleError> {
    load_with(path, &LoadOptions::default()).map(|l| l.snapshot)
}

/// Reads a bundle from a file or directory. Objects of kinds the diagnosis does not read and files
/// that hold no Kubernetes object are left out and named in `skipped`; a bundle with no Kubernetes
/// object at all is an error (an empty or mistyped folder is not "no problems found").
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<Loaded, BundleError> {
    if !path.exists() {
        return Err(BundleError::Missing(path.to_path_buf()));
    }
    let mut snapshot = Snapshot {
        rbac_complete: false,
        ..Snapshot::default()
    };
    let mut tally = Tally::default();
    let found = bundle_files(path)?;
    let mut skipped = found.skipped;
    let mut first_error = None;
    for file in &found.files {
        let bytes =
            crate::files::read_capped(file, crate::files::MAX_FILE_BYTES).map_err(|source| {
                BundleError::Io {
                    path: file.clone(),
                    source,
                }
            })?;
        let text = String::from_utf8_lossy(&bytes);
        let before = tally.objects;
        let mut no_kind = 0;
        match read_documents(&text, &mut snapshot, &mut tally, &mut no_kind) {
            Ok(()) => {}
            Err(Unreadable::Object(what)) => {
                return Err(BundleError::Object {
                    path: file.clone(),
                    what,
                })
            }
            Err(Unreadable::Text(message)) => {
                skipped.push(format!("{}: not YAML or JSON ({message})", file.display()));
                first_error.get_or_insert(BundleError::Parse {
                    path: file.clone(),
                    message,
                });
                continue;
            }
        }
        if tally.objects == before && no_kind > 0 {
            skipped.push(format!(
                "{}: not a Kubernetes object (no apiVersion and kind)",
                file.display()
            ));
        }
    }
    if tally.objects == 0
        && tally.foreign.is_empty()
        && tally.kinds.is_empty()
        && tally.unlisted_pods == 0
    {
        return Err(first_error.unwrap_or_else(|| BundleError::Object {
            path: path.to_path_buf(),
            what: "no Kubernetes objects (files *.yaml, *.yml or *.json with apiVersion and kind)"
                .into(),
        }));
    }
    for ((kind, api_version), n) in &tally.foreign {
        skipped.push(format!(
            "{n} {kind} ({api_version}): a kind kubectl-flink does not read"
        ));
    }
    if tally.unlisted_pods > 0 {
        skipped.push(format!(
            "{} Pod(s) of no Flink cluster (without the labels a live gather lists pods by)",
            tally.unlisted_pods
        ));
    }
    classify_operator(&mut snapshot);
    if path.is_dir() {
        load_logs(&path.join("logs"), &mut snapshot, options.log_tail)?;
    }
    snapshot.install_checked = holds_installation(&snapshot);
    snapshot.rbac_complete = !snapshot.roles.is_empty()
        || !snapshot.role_bindings.is_empty()
        || !snapshot.cluster_role_bindings.is_empty();
    snapshot.captured_at = newest_timestamp(&snapshot).unwrap_or_default();
    snapshot.bundle_kinds = Some(tally.kinds);
    Ok(Loaded { snapshot, skipped })
}

/// Why a file's documents could not be read: not YAML at all, or an object that does not fit its
/// kind (an input error that names the object and the field).
enum Unreadable {
    Text(String),
    Object(String),
}

/// Every document of one file into the snapshot. The items of a list are read one at a time
/// (`stream`), so a `kind: List` of 100,000 pods never exists as one JSON tree.
fn read_documents(
    text: &str,
    s: &mut Snapshot,
    tally: &mut Tally,
    no_kind: &mut usize,
) -> Result<(), Unreadable> {
    use super::stream::{document, Document};
    crate::files::check_nesting(text)
        .map_err(|e| Unreadable::Text(format!("{e}: not a Kubernetes object")))?;
    let mut object_error: Option<String> = None;
    // `kubectl get -o json` output: one JSON document, read by serde_json, several times faster
    // than the YAML parser (checked whole first, so a failure never leaves half a file read).
    let json = text.trim_start().starts_with(['{', '['])
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    let mut json_doc = json.then(|| serde_json::Deserializer::from_str(text));
    let yaml_docs = (!json).then(|| serde_yaml::Deserializer::from_str(text));
    let mut yaml_docs = yaml_docs.into_iter().flatten();
    loop {
        let mut item = |v: Value| -> Result<(), String> {
            if !is_object(&v) || unlisted_pod(&v, tally) {
                return Ok(());
            }
            add_counted(s, v, tally).inspect_err(|e| {
                object_error.get_or_insert(e.clone());
            })
        };
        let parsed = match (json_doc.take(), yaml_docs.next()) {
            (Some(mut de), _) => document(&mut de, &mut item).map_err(|e| e.to_string()),
            (None, Some(doc)) => document(doc, &mut item).map_err(|e| e.to_string()),
            (None, None) => break,
        };
        if let Some(what) = object_error.take() {
            return Err(Unreadable::Object(what));
        }
        match parsed.map_err(Unreadable::Text)? {
            Document::List(Some(kind)) => {
                tally.kinds.insert(kind);
            }
            Document::List(None) => {}
            Document::Whole(Value::Null) => {}
            Document::Whole(v) if !is_object(&v) => *no_kind += 1,
            Document::Whole(v) if unlisted_pod(&v, tally) => {}
            Document::Whole(v) => add_counted(s, v, tally).map_err(Unreadable::Object)?,
        }
    }
    Ok(())
}

/// A pod a live gather would not list: of no Flink cluster (labels `component: jobmanager` or
/// `taskmanager`, `flink-app` for Lyft's) and not the operator's. Counted and left out before it is
/// decoded, so a bundle of every pod of a large cluster (`kubectl get pods -A -o json`) costs the
/// Flink pods it holds, not all of them.
fn unlisted_pod(v: &Value, tally: &mut Tally) -> bool {
    use crate::flink::names::{
        COMPONENT_JOBMANAGER, COMPONENT_TASKMANAGER, LABEL_COMPONENT, LABEL_FLINK_APP,
    };
    if v.get("kind").and_then(Value::as_str) != Some("Pod")
        || v.get("apiVersion").and_then(Value::as_str) != Some("v1")
    {
        return false;
    }
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    let listed = matches!(
        label(LABEL_COMPONENT),
        Some(COMPONENT_JOBMANAGER | COMPONENT_TASKMANAGER)
    ) || label(LABEL_FLINK_APP).is_some()
        || is_flinkcluster_labels(
            label(crate::flink::names::LABEL_APP),
            label(crate::flink::names::LABEL_CLUSTER),
        )
        || OPERATOR_SELECTORS
            .iter()
            .any(|(k, want)| label(k) == Some(*want));
    if !listed {
        tally.unlisted_pods += 1;
        tally.kinds.insert("Pod".into());
    }
    !listed
}

/// `app=flink` and a `cluster` label: what the FlinkCluster operator puts on every object it makes
/// (its job submitter's pods have no `component`).
fn is_flinkcluster_labels(app: Option<&str>, cluster: Option<&str>) -> bool {
    app == Some(crate::flink::names::FLINKCLUSTER_APP) && cluster.is_some_and(|c| !c.is_empty())
}

/// A StatefulSet or Job of a FlinkCluster (the only ones the diagnosis reads; others are ignored
/// as before).
fn is_flinkcluster_object(v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    is_flinkcluster_labels(
        label(crate::flink::names::LABEL_APP),
        label(crate::flink::names::LABEL_CLUSTER),
    )
}

/// A document that claims to be a Kubernetes object (or a list of them).
fn is_object(v: &Value) -> bool {
    v.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| !k.is_empty())
        && v.get("apiVersion").and_then(Value::as_str).is_some()
}

/// What a bundle held, by kind.
#[derive(Debug, Default)]
struct Tally {
    /// Objects of kinds the diagnosis reads or knowingly ignores.
    objects: usize,
    /// Kinds the bundle speaks about: an object of the kind, or a typed list (`EndpointSliceList`),
    /// even an empty one. Only for these does a missing object prove anything.
    kinds: std::collections::BTreeSet<String>,
    /// Kinds nobody here reads: (kind, apiVersion) -> count.
    foreign: std::collections::BTreeMap<(String, String), usize>,
    /// Pods of no Flink cluster and not the operator's (`unlisted_pod`).
    unlisted_pods: usize,
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

/// An object (as read, before it is decoded) with the labels of the operator's own objects.
fn is_operator_value(v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    OPERATOR_SELECTORS
        .iter()
        .any(|(k, want)| labels.and_then(|l| l.get(*k)).and_then(Value::as_str) == Some(*want))
}

fn is_operator(labels: Option<&std::collections::BTreeMap<String, String>>) -> bool {
    labels.is_some_and(|l| {
        OPERATOR_SELECTORS
            .iter()
            .any(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
    })
}

/// A bundle holds the operator's objects beside Flink's; the live gather reads them separately,
/// so sort them the same way here. The operator's few objects move out in place: the lists are
/// never copied. (Its pods are sorted as they are read: `add_counted`.)
pub fn classify_operator(s: &mut Snapshot) {
    s.operator_deployments.extend(
        s.deployments
            .extract_if(.., |d| is_operator(d.metadata.labels.as_ref())),
    );
    s.operator_config_maps
        .extend(s.config_maps.extract_if(.., |c| {
            c.metadata.name.as_deref() == Some(OPERATOR_CONFIG_MAP)
        }));
}

/// The files of a bundle that hold objects: PATH itself, or every `*.yaml`, `*.yml` and `*.json`
/// below it outside `logs/`, in sorted order (regular files only, links to directories not
/// followed: `crate::files`). The test cluster's seeder reads bundles through this too, so both
/// always see the same objects.
pub fn object_files(path: &Path) -> Result<Vec<PathBuf>, BundleError> {
    bundle_files(path).map(|f| f.files)
}

fn bundle_files(path: &Path) -> Result<crate::files::Found, BundleError> {
    crate::files::find(path, &["yaml", "yml", "json"], &|d| {
        d.file_name().is_some_and(|n| n == "logs")
    })
    .map_err(|source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Splits a YAML (or JSON) stream into documents, skipping empty ones.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    crate::files::check_nesting(text).map_err(|e| format!("{e}: not a Kubernetes object"))?;
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

/// Adds one object (or a List of them) to the snapshot. An object of a kind kubectl-flink does not
/// read is an error here (lint and the tests want to know); bundles skip them instead.
pub fn add_value(s: &mut Snapshot, v: Value) -> Result<(), String> {
    let mut tally = Tally::default();
    add_counted(s, v, &mut tally)?;
    match tally.foreign.keys().next() {
        Some((kind, api_version)) => Err(format!(
            "an object of kind {kind} ({api_version}), which kubectl-flink does not read"
        )),
        None => Ok(()),
    }
}

fn add_counted(s: &mut Snapshot, mut v: Value, tally: &mut Tally) -> Result<(), String> {
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
    if let Some(item_kind) = kind.strip_suffix("List") {
        if let Some(Value::Array(items)) = v.get_mut("items").map(Value::take) {
            // A typed list (`PodList`, what the API itself returns) says which kind it lists,
            // even when empty, and its items may omit their own kind and apiVersion.
            if !item_kind.is_empty() {
                tally.kinds.insert(item_kind.to_string());
            }
            for mut item in items {
                if !item_kind.is_empty() {
                    if let Some(o) = item.as_object_mut() {
                        o.entry("kind")
                            .or_insert_with(|| Value::String(item_kind.into()));
                        o.entry("apiVersion")
                            .or_insert_with(|| Value::String(api_version.clone()));
                    }
                }
                add_counted(s, item, tally)?;
            }
            return Ok(());
        }
    }
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    let ctx = |e: serde_path_to_error::Error<serde_json::Error>| {
        format!("{kind} {name}: {}: {}", e.path(), e.inner())
    };
    /// Deserialized with the path of the field that does not fit (`spec.job.parallelism`).
    fn de<T: DeserializeOwned>(
        v: Value,
    ) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
        serde_path_to_error::deserialize(v)
    }
    let group = api_version.split_once('/').map(|(g, _)| g).unwrap_or("");
    match (kind.as_str(), group) {
        ("FlinkDeployment", "flink.apache.org") => s.flink_deployments.push(de(v).map_err(ctx)?),
        ("FlinkSessionJob", "flink.apache.org") => s.flink_session_jobs.push(de(v).map_err(ctx)?),
        ("FlinkApplication", "flink.k8s.io") => s.flink_applications.push(de(v).map_err(ctx)?),
        ("FlinkCluster", crate::flink::names::FLINKCLUSTER_GROUP) => {
            s.flink_clusters.push(de(v).map_err(ctx)?)
        }
        ("StatefulSet", "apps") if is_flinkcluster_object(&v) => {
            s.stateful_sets.push(de(v).map_err(ctx)?)
        }
        ("Job", "batch") if is_flinkcluster_object(&v) => s.jobs.push(de(v).map_err(ctx)?),
        ("CustomResourceDefinition", "apiextensions.k8s.io") => s.crds.push(de(v).map_err(ctx)?),
        ("ValidatingWebhookConfiguration", "admissionregistration.k8s.io") => {
            s.validating_webhooks.push(de(v).map_err(ctx)?)
        }
        ("MutatingWebhookConfiguration", "admissionregistration.k8s.io") => {
            s.mutating_webhooks.push(de(v).map_err(ctx)?)
        }
        ("Certificate" | "Issuer" | "ClusterIssuer", "cert-manager.io") => {
            s.cert_manager_objects.push(v)
        }
        ("EndpointSlice", "discovery.k8s.io") => s.endpoint_slices.push(de(v).map_err(ctx)?),
        ("Endpoints", "") => s.endpoints.push(de(v).map_err(ctx)?),
        // The operator's few pods whole (the installation rules read their volumes and
        // environment); every other pod slim (`snapshot::Pod`).
        ("Pod", "") if is_operator_value(&v) => s.operator_pods.push(de(v).map_err(ctx)?),
        ("Pod", "") => s.pods.push(de(v).map_err(ctx)?),
        ("Deployment", "apps") => s.deployments.push(de(v).map_err(ctx)?),
        ("Service", "") => s.services.push(de(v).map_err(ctx)?),
        ("ConfigMap", "") => s.config_maps.push(de(v).map_err(ctx)?),
        ("Secret", "") => s.secrets.push(public_only(de(v).map_err(ctx)?)),
        ("Event", "") => s.events.push(de(v).map_err(ctx)?),
        ("ResourceQuota", "") => s.resource_quotas.push(de(v).map_err(ctx)?),
        ("Namespace", "") => s.namespaces_objects.push(de(v).map_err(ctx)?),
        ("ServiceAccount", "") => s.service_accounts.push(de(v).map_err(ctx)?),
        ("Role", "rbac.authorization.k8s.io") => s.roles.push(de(v).map_err(ctx)?),
        ("RoleBinding", "rbac.authorization.k8s.io") => s.role_bindings.push(de(v).map_err(ctx)?),
        ("ClusterRole", "rbac.authorization.k8s.io") => s.cluster_roles.push(de(v).map_err(ctx)?),
        ("ClusterRoleBinding", "rbac.authorization.k8s.io") => {
            s.cluster_role_bindings.push(de(v).map_err(ctx)?)
        }
        (k, _) if IGNORED_KINDS.contains(&k) => {}
        _ => {
            *tally.foreign.entry((kind, api_version)).or_default() += 1;
            return Ok(());
        }
    }
    tally.objects += 1;
    tally.kinds.insert(kind);
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

/// The logs a live gather would read (`snapshot::wanted`), and every log of a pod the bundle has
/// no object for (nothing says whether it is healthy); a healthy container's log is not read.
fn load_logs(dir: &Path, s: &mut Snapshot, tail: Option<usize>) -> Result<(), BundleError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let wanted = super::wanted::all(s);
    let known: std::collections::BTreeSet<(String, String)> = s
        .pods
        .iter()
        .map(|p| &p.metadata)
        .chain(s.operator_pods.iter().map(|p| &p.metadata))
        .map(|m| {
            (
                m.namespace.clone().unwrap_or_default(),
                m.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Io { path, source }
    };
    // Directories as they are (links to directories are not followed), files only when regular.
    let is_dir = |e: &fs::DirEntry| e.file_type().is_ok_and(|t| t.is_dir());
    for ns in fs::read_dir(dir).map_err(io(dir))? {
        let ns = ns.map_err(io(dir))?;
        if !is_dir(&ns) {
            continue;
        }
        let ns = ns.path();
        for pod in fs::read_dir(&ns).map_err(io(&ns))? {
            let pod = pod.map_err(io(&ns))?;
            if !is_dir(&pod) {
                continue;
            }
            let pod = pod.path();
            for file in fs::read_dir(&pod).map_err(io(&pod))? {
                let file = file.map_err(io(&pod))?.path();
                if !crate::files::is_regular(&file) {
                    continue;
                }
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
                let key = LogKey::new(
                    &lossy(ns.file_name()),
                    &lossy(pod.file_name()),
                    container,
                    previous,
                );
                if known.contains(&(key.namespace.clone(), key.pod.clone()))
                    && !wanted.contains(&key)
                {
                    continue;
                }
                let bytes = read_tail(&file, tail).map_err(io(&file))?;
                s.logs
                    .insert(key, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    Ok(())
}

/// Bytes kept per log line on average when reading a tail: past `lines` times this, the tail is
/// cut at a line boundary (a log of a few huge lines stays bounded too).
const TAIL_BYTES_PER_LINE: u64 = 4096;

/// The last `lines` lines of a file (all of it for `None`), read backwards from the end in blocks,
/// so time and memory follow the tail, not the file.
pub fn read_tail(path: &Path, lines: Option<usize>) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let Some(lines) = lines else {
        return crate::files::read_capped(path, crate::files::MAX_FILE_BYTES);
    };
    if !crate::files::is_regular(path) {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut f = fs::File::open(path)?;
    let len = f.seek(SeekFrom::End(0))?;
    let budget = (lines as u64)
        .saturating_mul(TAIL_BYTES_PER_LINE)
        .max(TAIL_BYTES_PER_LINE);
    const BLOCK: u64 = 64 * 1024;
    let mut pos = len;
    let mut buf: Vec<u8> = Vec::new();
    // A last line without its newline counts as a line too.
    let mut newlines = 0usize;
    let ends_with_newline = {
        if len == 0 {
            true
        } else {
            let mut last = [0u8; 1];
            f.seek(SeekFrom::Start(len - 1))?;
            f.read_exact(&mut last)?;
            last[0] == b'\n'
        }
    };
    let want = if ends_with_newline { lines + 1 } else { lines };
    while pos > 0 && newlines < want && (len - pos) < budget {
        let step = BLOCK.min(pos);
        pos -= step;
        f.seek(SeekFrom::Start(pos))?;
        let mut block = vec![0u8; step as usize];
        f.read_exact(&mut block)?;
        newlines += block.iter().filter(|&&b| b == b'\n').count();
        block.extend_from_slice(&buf);
        buf = block;
    }
    // Drop what lies before the first of the wanted lines.
    let mut seen = 0usize;
    let mut start = 0usize;
    for (i, b) in buf.iter().enumerate().rev() {
        if *b == b'\n' {
            seen += 1;
            if seen == want {
                start = i + 1;
                break;
            }
        }
    }
    if seen < want && pos > 0 {
        // Cut by the byte budget: start at the first whole line inside it.
        start = buf
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |i| i + 1);
    }
    buf.drain(..start);
    Ok(buf)
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

/// Whether `--save DIR` can be written: DIR is new, or an empty directory. Checked before the
/// cluster is read, so that a long gather is never lost to a full folder.
pub fn check_save_target(dir: &Path) -> Result<(), BundleError> {
    let werr = |source| BundleError::Write {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() && fs::read_dir(dir).map_err(werr)?.next().is_some() {
        return Err(werr(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "directory exists and is not empty",
        )));
    }
    Ok(())
}

/// Writes a snapshot as a bundle directory (the `--save` layout). Secrets keep metadata only.
/// Everything is written to a temporary directory first and renamed into place, so a failure
/// never leaves a half-written bundle, nor does Ctrl-C ([`interrupt_save`]).
pub fn save(s: &Snapshot, dir: &Path) -> Result<(), BundleError> {
    save_in(s, dir, &SAVES)
}

/// The save in progress in this process, for Ctrl-C and SIGTERM to stop.
static SAVES: Saves = Saves::new();

/// Ctrl-C or SIGTERM came: a save in progress stops before its next file and removes its
/// temporary folder (a save not yet started does not start). Returns once no temporary folder is
/// left, or after `wait` (then removing it from here), so that the caller may exit.
pub fn interrupt_save(wait: std::time::Duration) {
    SAVES.interrupt(wait)
}

/// A save's temporary folder while it is written, and whether it must stop.
struct Saves {
    partial: std::sync::Mutex<Option<PathBuf>>,
    interrupted: std::sync::atomic::AtomicBool,
}

impl Saves {
    const fn new() -> Self {
        Saves {
            partial: std::sync::Mutex::new(None),
            interrupted: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn partial(&self) -> std::sync::MutexGuard<'_, Option<PathBuf>> {
        self.partial.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is_interrupted(&self) -> bool {
        self.interrupted.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn interrupt(&self, wait: std::time::Duration) {
        self.interrupted
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let until = std::time::Instant::now() + wait;
        loop {
            let partial = self.partial();
            match partial.as_deref() {
                None => return,
                Some(p) if std::time::Instant::now() >= until => {
                    let _ = fs::remove_dir_all(p);
                    return;
                }
                Some(_) => {}
            }
            drop(partial);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Fails once interrupted: the error every write of the save then returns.
    fn check(&self, path: &Path) -> Result<(), BundleError> {
        if self.is_interrupted() {
            return Err(BundleError::Write {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"),
            });
        }
        Ok(())
    }
}

/// A save's temporary folder, known to [`Saves`] while it exists: dropping it (an error, an
/// interrupt, a panic) removes the folder first, then says so.
struct Partial<'a> {
    dir: Option<tempfile::TempDir>,
    saves: &'a Saves,
}

impl<'a> Partial<'a> {
    fn new(dir: tempfile::TempDir, saves: &'a Saves) -> Result<Self, BundleError> {
        let mut partial = saves.partial();
        // Checked under the lock: an interrupt either sees this folder or stops it here.
        saves.check(dir.path())?;
        *partial = Some(dir.path().to_path_buf());
        Ok(Partial {
            dir: Some(dir),
            saves,
        })
    }

    fn path(&self) -> &Path {
        self.dir.as_ref().map(|d| d.path()).unwrap_or(Path::new(""))
    }

    /// The folder was renamed into place: nothing to remove any more.
    fn keep(mut self) {
        if let Some(d) = self.dir.take() {
            let _ = d.keep();
        }
    }
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        drop(self.dir.take());
        *self.saves.partial() = None;
    }
}

fn save_in(s: &Snapshot, dir: &Path, saves: &Saves) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    check_save_target(dir)?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A new folder with a random name, made atomically with mode 0700 (mkdtemp): never a
    // predictable name that someone could have planted a link at in a shared directory.
    let tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .prefix(&format!(
            ".{}.partial-",
            dir.file_name().and_then(|n| n.to_str()).unwrap_or("bundle")
        ))
        .tempdir_in(parent)
        .map_err(werr(parent))?;
    // Until the rename below succeeds, dropping `tmp` (an error, a panic, an interrupt) removes it.
    let tmp = Partial::new(tmp, saves)?;
    write_all(s, tmp.path(), saves)?;
    saves.check(dir)?;
    if dir.exists() {
        fs::remove_dir(dir).map_err(werr(dir))?;
    }
    fs::rename(tmp.path(), dir).map_err(werr(dir))?;
    tmp.keep();
    Ok(())
}

fn write_all(s: &Snapshot, dir: &Path, saves: &Saves) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    fs::create_dir_all(dir).map_err(werr(dir))?;
    let secrets: Vec<_> = s.secrets.iter().cloned().map(strip_secret).collect();
    let lists: Vec<ListFile> = vec![
        ListFile::typed(
            "flinkdeployments",
            &s.flink_deployments,
            "flink.apache.org/v1beta1",
            "FlinkDeployment",
        ),
        ListFile::typed(
            "flinksessionjobs",
            &s.flink_session_jobs,
            "flink.apache.org/v1beta1",
            "FlinkSessionJob",
        ),
        ListFile::typed(
            "flinkapplications",
            &s.flink_applications,
            "flink.k8s.io/v1beta1",
            "FlinkApplication",
        ),
        ListFile::typed(
            "flinkclusters",
            &s.flink_clusters,
            "flinkoperator.k8s.io/v1beta1",
            "FlinkCluster",
        ),
        ListFile::typed("statefulsets", &s.stateful_sets, "apps/v1", "StatefulSet"),
        ListFile::typed("jobs", &s.jobs, "batch/v1", "Job"),
        ListFile::typed(
            "customresourcedefinitions",
            &s.crds,
            "apiextensions.k8s.io/v1",
            "CustomResourceDefinition",
        ),
        ListFile::typed(
            "validatingwebhookconfigurations",
            &s.validating_webhooks,
            "admissionregistration.k8s.io/v1",
            "ValidatingWebhookConfiguration",
        ),
        ListFile::typed(
            "mutatingwebhookconfigurations",
            &s.mutating_webhooks,
            "admissionregistration.k8s.io/v1",
            "MutatingWebhookConfiguration",
        ),
        ListFile::typed(
            "endpointslices",
            &s.endpoint_slices,
            "discovery.k8s.io/v1",
            "EndpointSlice",
        ),
        ListFile::typed("endpoints", &s.endpoints, "v1", "Endpoints"),
        ListFile::mixed("cert-manager", s.cert_manager_objects.clone()),
        ListFile::typed(
            "operator-deployments",
            &s.operator_deployments,
            "apps/v1",
            "Deployment",
        ),
        ListFile::typed("operator-pods", &s.operator_pods, "v1", "Pod"),
        ListFile::typed(
            "operator-configmaps",
            &s.operator_config_maps,
            "v1",
            "ConfigMap",
        ),
        ListFile::typed("namespaces", &s.namespaces_objects, "v1", "Namespace"),
        ListFile::typed(
            "serviceaccounts",
            &s.service_accounts,
            "v1",
            "ServiceAccount",
        ),
        ListFile::typed("roles", &s.roles, "rbac.authorization.k8s.io/v1", "Role"),
        ListFile::typed(
            "rolebindings",
            &s.role_bindings,
            "rbac.authorization.k8s.io/v1",
            "RoleBinding",
        ),
        ListFile::typed(
            "clusterroles",
            &s.cluster_roles,
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
        ),
        ListFile::typed(
            "clusterrolebindings",
            &s.cluster_role_bindings,
            "rbac.authorization.k8s.io/v1",
            "ClusterRoleBinding",
        ),
        ListFile::typed("deployments", &s.deployments, "apps/v1", "Deployment"),
        ListFile::typed("services", &s.services, "v1", "Service"),
        ListFile::typed("configmaps", &s.config_maps, "v1", "ConfigMap"),
        ListFile::typed("secrets", &secrets, "v1", "Secret"),
        ListFile::typed("pods", &s.pods, "v1", "Pod"),
        ListFile::typed("events", &s.events, "v1", "Event"),
    ];
    // ResourceQuotas are read by name, only those a refusal names: none read is no evidence that
    // there are none, so no empty list is written for them.
    let quotas = (!s.resource_quotas.is_empty())
        .then(|| ListFile::typed("resourcequotas", &s.resource_quotas, "v1", "ResourceQuota"));
    let lists = lists.into_iter().chain(quotas);
    for list in lists {
        // A kind the live gather listed is written even when empty, as the API's own typed list
        // (`EndpointSliceList`): "read, and there were none" is evidence that a missing file is not.
        let read = !list.items.is_empty()
            || list
                .kind
                .is_some_and(|k| !s.gaps.iter().any(|g| gap_of_kind(g, k)));
        if !read {
            continue;
        }
        let (api_version, kind) = match list.kind {
            Some(kind) => (list.api_version, format!("{kind}List")),
            None => ("v1", "List".to_string()),
        };
        let doc = serde_json::json!({"apiVersion": api_version, "kind": kind, "items": list.items});
        let path = dir.join(format!("{}.yaml", list.file));
        let text = serde_yaml::to_string(&doc).map_err(|e| BundleError::Write {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        saves.check(&path)?;
        fs::write(&path, text).map_err(werr(&path))?;
    }
    for (key, text) in &s.logs {
        let pod_dir = dir.join("logs").join(&key.namespace).join(&key.pod);
        saves.check(&pod_dir)?;
        fs::create_dir_all(&pod_dir).map_err(werr(&pod_dir))?;
        let suffix = if key.previous {
            ".previous.log"
        } else {
            ".log"
        };
        let path = pod_dir.join(format!("{}{suffix}", key.container));
        saves.check(&path)?;
        fs::write(&path, text).map_err(werr(&path))?;
    }
    Ok(())
}

/// One file of a saved bundle: the objects of one kind (or, for cert-manager, several).
struct ListFile {
    file: &'static str,
    api_version: &'static str,
    kind: Option<&'static str>,
    items: Vec<Value>,
}

impl ListFile {
    fn typed<T: serde::Serialize>(
        file: &'static str,
        items: &[T],
        api_version: &'static str,
        kind: &'static str,
    ) -> Self {
        ListFile {
            file,
            api_version,
            kind: Some(kind),
            items: with_kind(items, api_version, kind),
        }
    }
    fn mixed(file: &'static str, items: Vec<Value>) -> Self {
        ListFile {
            file,
            api_version: "v1",
            kind: None,
            items,
        }
    }
}

/// Whether a gap is about listing objects of this kind (by the resource's plural).
fn gap_of_kind(g: &super::Gap, kind: &str) -> bool {
    g.resource.split('/').next() == Some(super::plural(kind).as_str())
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
            mask_for_save(&mut v);
            v
        })
        .collect()
}

/// What a saved bundle never holds: the value of a Flink configuration key that names a secret
/// (`s3.secret-key`, `fs.azure.account.key.*`, passwords; `spec.flinkConfiguration` of the
/// Apache operator's resources, `spec.flinkConfig` of Lyft's) or whose value looks like one, the
/// `last-applied-configuration` annotation, which repeats the whole spec, and `managedFields`
/// (server bookkeeping that `kubectl get -o yaml` hides too; a third of a recorded pod).
fn mask_for_save(v: &mut Value) {
    fn mask(prefix: &str, v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    mask(&key, child);
                }
            }
            Value::String(s) => {
                if crate::signatures::redact::secret_key(prefix)
                    || crate::signatures::redact::redact(s) != s.as_str()
                {
                    *s = "***".into();
                }
            }
            Value::Null => {}
            other => {
                if crate::signatures::redact::secret_key(prefix) {
                    *other = Value::String("***".into());
                }
            }
        }
    }
    for field in ["flinkConfiguration", "flinkConfig"] {
        if let Some(conf) = v.pointer_mut(&format!("/spec/{field}")) {
            mask("", conf);
        }
    }
    if let Some(a) = v
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn a_tail_is_the_last_lines_whatever_the_file_ends_with() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.log");
        for (text, n, want) in [
            ("a\nb\nc\n", 2, "b\nc\n"),
            ("a\nb\nc", 2, "b\nc"),
            ("a\nb\nc\n", 5, "a\nb\nc\n"),
            ("", 3, ""),
            ("only\n", 1, "only\n"),
        ] {
            fs::write(&p, text).unwrap();
            let got = read_tail(&p, Some(n)).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), want, "{text:?} tail {n}");
        }
        fs::write(&p, "a\nb\n").unwrap();
        assert_eq!(read_tail(&p, None).unwrap(), b"a\nb\n");
    }

    #[test]
    fn a_tail_of_a_long_log_reads_only_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.log");
        let line = "x".repeat(99) + "\n";
        fs::write(&p, line.repeat(100_000) + "the last line\n").unwrap();
        let got = String::from_utf8(read_tail(&p, Some(3)).unwrap()).unwrap();
        assert_eq!(got, format!("{line}{line}the last line\n"));
        // One 10 MB line: cut at the byte budget, never the whole file.
        fs::write(&p, "y".repeat(10 << 20) + "\nend\n").unwrap();
        let got = read_tail(&p, Some(2)).unwrap();
        assert!(
            got.len() <= 2 * TAIL_BYTES_PER_LINE as usize + 64 * 1024,
            "{}",
            got.len()
        );
        assert!(got.ends_with(b"end\n"));
    }

    #[test]
    fn foreign_kinds_and_stray_files_are_skipped_and_named() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "pods.json",
            r#"{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"jm","namespace":"a","labels":{"component":"jobmanager"}}}]}"#,
        );
        write(
            dir.path(),
            "spark.yaml",
            "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: c}\n",
        );
        write(dir.path(), "values.yaml", "replicas: 3\n");
        write(dir.path(), "broken.yaml", "a: [\n");
        let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
        assert_eq!(
            loaded.snapshot.pods.len(),
            1,
            "typed list items take the list's kind"
        );
        assert!(loaded.snapshot.holds("Pod"));
        assert!(!loaded.snapshot.holds("EndpointSlice"));
        let skipped = loaded.skipped.join("\n");
        assert!(
            skipped.contains("1 SparkApplication (sparkoperator.k8s.io/v1beta2)"),
            "{skipped}"
        );
        assert!(
            skipped.contains("values.yaml: not a Kubernetes object"),
            "{skipped}"
        );
        assert!(
            skipped.contains("broken.yaml: not YAML or JSON"),
            "{skipped}"
        );
    }

    #[test]
    fn a_flinkcluster_its_statefulsets_jobs_and_submitter_pods_are_read_and_other_ones_ignored() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "all.yaml",
            r#"apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata: {name: wc, namespace: a}
spec: {flinkVersion: "1.14", image: {name: "flink:1.14.2"}, job: {jarFile: ./x.jar}}
status: {state: Running, components: {jobManager: {name: wc-jobmanager, state: Ready, replicas: 1, ready: "1/1"}, job: {state: DeployFailed, submitterExitCode: 1}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: wc-taskmanager, namespace: a, labels: {app: flink, cluster: wc, component: taskmanager}}
spec: {selector: {matchLabels: {app: flink}}, serviceName: wc-taskmanager, template: {}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: postgres, namespace: a, labels: {app: postgres}}
spec: {selector: {matchLabels: {app: postgres}}, serviceName: postgres, template: {}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: wc-job-submitter, namespace: a, labels: {app: flink, cluster: wc}}
spec: {template: {}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup, namespace: a}
spec: {template: {}}
---
apiVersion: v1
kind: Pod
metadata: {name: wc-job-submitter-x1, namespace: a, labels: {app: flink, cluster: wc, job-name: wc-job-submitter}}
spec: {containers: [{name: main, image: "flink:1.14.2"}]}
"#,
        );
        let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
        let s = &loaded.snapshot;
        assert_eq!(s.flink_clusters.len(), 1);
        assert_eq!(s.flink_clusters[0].job_state(), Some("DeployFailed"));
        assert_eq!(
            s.flink_clusters[0]
                .job_status()
                .unwrap()
                .submitter_exit_code,
            Some(1)
        );
        assert_eq!(s.stateful_sets.len(), 1, "only the FlinkCluster's");
        assert_eq!(s.jobs.len(), 1, "only the FlinkCluster's");
        assert_eq!(s.pods.len(), 1, "the submitter pod has no component label");
        assert!(loaded.skipped.is_empty(), "{:?}", loaded.skipped);

        let out = tempfile::tempdir().unwrap();
        save(s, &out.path().join("b")).unwrap();
        let again = load(&out.path().join("b")).unwrap();
        assert_eq!(again.flink_clusters, s.flink_clusters);
        assert_eq!(again.stateful_sets.len(), 1);
        assert_eq!(again.jobs.len(), 1);
    }

    #[test]
    fn list_items_are_read_one_by_one_whatever_the_order_of_the_list_s_keys() {
        let dir = tempfile::tempdir().unwrap();
        // kubectl sorts `items` before `kind`; the API puts `kind` first.
        write(
            dir.path(),
            "sorted.json",
            r#"{"apiVersion":"v1","items":[{"metadata":{"name":"a","namespace":"n","labels":{"component":"jobmanager"}}},{"metadata":{"name":"b","namespace":"n","labels":{"flink-app":"b"}}}],"kind":"PodList","metadata":{}}"#,
        );
        write(
            dir.path(),
            "mixed.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: s, namespace: n}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: n}}\n",
        );
        write(
            dir.path(),
            "bad.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p, labels: {component: taskmanager}}, spec: {containers: 7}}\n",
        );
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("Pod p: spec.containers"), "{e}");
        fs::remove_file(dir.path().join("bad.yaml")).unwrap();
        let s = load(dir.path()).unwrap();
        assert_eq!(s.pods.len(), 2);
        assert_eq!((s.services.len(), s.config_maps.len()), (1, 1));
        assert!(s.holds("Pod"));
    }

    #[test]
    fn pods_of_no_flink_cluster_are_left_out_before_they_are_decoded() {
        let dir = tempfile::tempdir().unwrap();
        // A pod of no Flink cluster that would not even decode (`containers: 7`): never decoded.
        write(
            dir.path(),
            "pods.json",
            r#"{"apiVersion":"v1","kind":"List","items":[
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"a","labels":{"app":"web"}},"spec":{"containers":7}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"bare","namespace":"a"}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"jm","namespace":"a","labels":{"app":"x","component":"jobmanager"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"tm","namespace":"a","labels":{"app":"x","component":"taskmanager"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"lyft","namespace":"a","labels":{"flink-app":"y"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"op","namespace":"o","labels":{"app.kubernetes.io/name":"flink-kubernetes-operator"}}}
            ]}"#,
        );
        let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
        let names = |metas: Vec<&k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>| {
            metas
                .iter()
                .map(|m| m.name.clone().unwrap())
                .collect::<Vec<_>>()
        };
        let pods = loaded.snapshot.pods.iter().map(|p| &p.metadata).collect();
        assert_eq!(names(pods), ["jm", "tm", "lyft"]);
        let operator_pods = loaded.snapshot.operator_pods.iter().map(|p| &p.metadata);
        assert_eq!(names(operator_pods.collect()), ["op"]);
        assert!(loaded.snapshot.holds("Pod"));
        let skipped = loaded.skipped.join("\n");
        assert!(
            skipped.contains("2 Pod(s) of no Flink cluster"),
            "{skipped}"
        );
        // A bundle of nothing but such pods is read (and holds no Flink cluster), not refused.
        fs::write(
            dir.path().join("pods.json"),
            r#"{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"web","namespace":"a"}}]}"#,
        )
        .unwrap();
        let s = load(dir.path()).unwrap();
        assert!(s.pods.is_empty() && s.holds("Pod"));
    }

    #[test]
    fn an_empty_typed_list_says_the_kind_was_read_and_a_bundle_without_objects_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "slices.yaml",
            "apiVersion: discovery.k8s.io/v1\nkind: EndpointSliceList\nitems: []\n",
        );
        let s = load(dir.path()).unwrap();
        assert!(s.holds("EndpointSlice") && s.holds_resource("endpointslices"));
        let empty = tempfile::tempdir().unwrap();
        assert!(load(empty.path()).is_err());
        write(empty.path(), "notes.yaml", "hello: world\n");
        assert!(load(empty.path()).is_err());
    }

    #[test]
    fn a_saved_bundle_leaves_out_managed_fields() {
        let mut s = Snapshot::default();
        add_value(
            &mut s,
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "p", "namespace": "a", "managedFields": [
                    {"manager": "kube-controller-manager", "operation": "Update",
                     "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
                "spec": {"containers": [{"name": "c"}]}
            }),
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b");
        save(&s, &out).unwrap();
        let text = std::fs::read_to_string(out.join("pods.yaml")).unwrap();
        assert!(text.contains("name: p"), "{text}");
        assert!(!text.contains("managedFields"), "{text}");
    }

    #[test]
    fn flink_pods_are_read_slim_the_operators_whole_and_both_read_back_the_same_once_saved() {
        let mut s = Snapshot::default();
        let env = serde_json::json!([{"name": "OPERATOR_NAMESPACE", "value": "flink-operator"}]);
        for (name, labels) in [
            (
                "jm",
                serde_json::json!({"app": "x", "component": "jobmanager"}),
            ),
            (
                "op",
                serde_json::json!({"app.kubernetes.io/name": "flink-kubernetes-operator"}),
            ),
        ] {
            add_value(
                &mut s,
                serde_json::json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": name, "namespace": "a", "labels": labels},
                    "spec": {"containers": [{"name": "c", "image": "i", "env": env,
                        "resources": {"limits": {"memory": "2Gi"}}}]},
                    "status": {"phase": "Running", "containerStatuses": [{"name": "c",
                        "image": "i", "imageID": "", "ready": false, "restartCount": 2,
                        "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}
                }),
            )
            .unwrap();
        }
        assert_eq!(s.pods.len(), 1);
        assert_eq!(s.operator_pods.len(), 1);
        let operator_env = s.operator_pods[0].spec.as_ref().unwrap().containers[0]
            .env
            .as_ref();
        assert_eq!(
            operator_env.map(Vec::len),
            Some(1),
            "the operator's pod is kept whole"
        );
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b");
        save(&s, &out).unwrap();
        let again = load(&out).unwrap();
        assert_eq!(
            again.pods, s.pods,
            "every field the slim pod holds is saved"
        );
        assert_eq!(again.operator_pods, s.operator_pods);
        let text = std::fs::read_to_string(out.join("pods.yaml")).unwrap();
        assert!(
            text.contains("kind: Pod") && text.contains("OOMKilled"),
            "{text}"
        );
    }

    #[test]
    fn a_saved_bundle_holds_no_secret_of_the_flink_configuration() {
        let mut s = Snapshot::default();
        add_value(
            &mut s,
            serde_json::json!({
                "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
                "metadata": {"name": "orders", "namespace": "a", "annotations": {
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"spec\":{\"flinkConfiguration\":{\"s3.secret-key\":\"hunter2\"}}}"}},
                "spec": {"flinkConfiguration": {
                    "s3.secret-key": "wJalrXUtnFEMI",
                    "fs.azure.account.key.acme.dfs.core.windows.net": "Zm9vYmFy",
                    "security.ssl.rest.keystore-password": "changeit",
                    "env.java.opts": "-Dpass=x",
                    "taskmanager.numberOfTaskSlots": "2",
                    "s3.endpoint": "https://user:pw@minio:9000"
                }}
            }),
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b");
        save(&s, &out).unwrap();
        let text = std::fs::read_to_string(out.join("flinkdeployments.yaml")).unwrap();
        for secret in ["wJalrXUtnFEMI", "Zm9vYmFy", "changeit", "hunter2", ":pw@"] {
            assert!(!text.contains(secret), "{secret} saved: {text}");
        }
        assert!(
            text.contains("taskmanager.numberOfTaskSlots: '2'")
                || text.contains("taskmanager.numberOfTaskSlots: \"2\""),
            "{text}"
        );
    }

    #[test]
    fn save_never_writes_through_a_link_planted_at_a_predictable_name() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let parent = tempfile::tempdir().unwrap();
        let victim = tempfile::tempdir().unwrap();
        for name in [
            format!(".b.partial-{}", std::process::id()),
            ".b.partial".to_string(),
        ] {
            symlink(victim.path(), parent.path().join(name)).unwrap();
        }
        let s = Snapshot {
            pods: vec![serde_json::from_value(
                serde_json::json!({"metadata": {"name": "jm", "namespace": "a"}}),
            )
            .unwrap()],
            ..Snapshot::default()
        };
        let out = parent.path().join("b");
        save(&s, &out).unwrap();
        assert!(out.join("pods.yaml").is_file());
        assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 0);
        let mode = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{mode:o}");
    }

    #[test]
    fn an_interrupted_save_leaves_no_partial_folder_behind() {
        let mut s = Snapshot::default();
        for i in 0..3000 {
            s.logs.insert(
                LogKey::new("a", &format!("tm-{i}"), "flink-main-container", false),
                "a line\n".repeat(100),
            );
        }
        let parent = tempfile::tempdir().unwrap();
        let out = parent.path().join("b");
        let saves = Saves::new();
        let result = std::thread::scope(|scope| {
            let saving = scope.spawn(|| save_in(&s, &out, &saves));
            let started = std::time::Instant::now();
            while saves.partial().is_none() {
                assert!(
                    !saving.is_finished(),
                    "the save ended before it was interrupted"
                );
                assert!(started.elapsed().as_secs() < 30, "the save never started");
                std::thread::yield_now();
            }
            saves.interrupt(std::time::Duration::from_secs(30));
            // Once interrupt returns, the folder is gone, though the save may not have returned.
            let left: Vec<_> = fs::read_dir(parent.path()).unwrap().collect();
            assert!(left.is_empty(), "{left:?}");
            saving.join().unwrap()
        });
        match result {
            Err(BundleError::Write { source, .. }) => {
                assert_eq!(source.kind(), std::io::ErrorKind::Interrupted)
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
        // Interrupted before it starts: nothing is written at all.
        assert!(save_in(&s, &out, &saves).is_err());
        assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_saved_bundle_keeps_the_kinds_that_were_listed_even_empty() {
        let live = Snapshot {
            pods: vec![serde_json::from_value(
                serde_json::json!({"metadata": {"name": "jm", "namespace": "a"}}),
            )
            .unwrap()],
            gaps: vec![super::super::Gap {
                verb: "list".into(),
                group: "".into(),
                resource: "secrets".into(),
                namespace: None,
                reason: super::super::GapReason::Forbidden,
                message: "forbidden".into(),
            }],
            ..Snapshot::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("bundle");
        save(&live, &out).unwrap();
        let s = load(&out).unwrap();
        assert!(s.holds("Pod") && s.holds("EndpointSlice") && s.holds("Service"));
        assert!(
            !s.holds("Secret"),
            "a kind that could not be listed is not claimed"
        );
    }
}

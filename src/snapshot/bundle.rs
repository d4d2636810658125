//! Offline bundles: a directory (or one file) of Kubernetes objects plus container logs, read into
//! the same Snapshot a live cluster gives, and written back out by `doctor --save`.
//!
//! Layout: every `*.yaml`, `*.yml`, `*.json` holds one object, a multi-document stream, or a
//! `kind: List` (typed lists too, `"items": null` an empty one); logs live at
//! `logs/<namespace>/<pod>/<container>.log` and `logs/<namespace>/<pod>/<container>.previous.log`,
//! or, in a `kubectl cluster-info dump --output-directory`, at `<namespace>/<pod>/logs.txt`, or,
//! in an `oc adm inspect`/`must-gather`, at
//! `namespaces/<ns>/pods/<pod>/<container>/<container>/logs/{current,previous}.log`.

pub use super::kinds::is_operator_value;
use super::kinds::{is_flinkcluster_labels, FieldError, Takes, FIELDS};
use super::{LogKey, Snapshot};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

mod logs;
mod save;
mod valid;

pub use logs::read_tail;
use logs::{load_dump_logs, load_inspect_logs, load_logs, Keep};
pub(crate) use save::with_kind;
pub use save::{check_save_target, interrupt_save, save};

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
    Object { path: PathBuf, what: ObjectError },
    #[error("{0}: no Kubernetes objects (files *.yaml, *.yml or *.json with apiVersion and kind)")]
    Empty(PathBuf),
    /// Every object left out because no API server would hold it (`valid`): the reasons.
    #[error("{path}: no Kubernetes object to read: {what}")]
    Refused { path: PathBuf, what: String },
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
/// StatefulSets and Jobs are read only when they belong to a FlinkCluster (`kinds::is_flinkcluster_object`).
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
    "Lease",
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
    let io = |source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    };
    match crate::files::archive::format_of(path).map_err(io)? {
        Some(format) => load_archive(path, format, options),
        None => load_tree(path, options),
    }
}

/// A bundle as people send it (`.tar.gz`, `.tgz`, `.tar`, `.zip`, one `.gz`): unpacked with the
/// bounds of `files::archive`, then read as a folder. Members are named `ARCHIVE/MEMBER` in
/// notes and errors; what could not be unpacked is noted beside what could not be read.
fn load_archive(
    path: &Path,
    format: crate::files::archive::Format,
    options: &LoadOptions,
) -> Result<Loaded, BundleError> {
    let unpacked =
        crate::files::archive::unpack(path, format).map_err(|source| BundleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let dir = unpacked.dir().to_path_buf();
    let named = |p: &Path| match p.strip_prefix(&dir) {
        Ok(rel) => path.join(rel),
        Err(_) => p.to_path_buf(),
    };
    let text = |s: &str| s.replace(&dir.display().to_string(), &path.display().to_string());
    let mut notes: Vec<String> = unpacked
        .skipped
        .iter()
        .map(|n| format!("{}: {n}", path.display()))
        .collect();
    match load_tree(&unpacked.root, options) {
        Ok(mut loaded) => {
            notes.extend(loaded.skipped.iter().map(|n| text(n)));
            loaded.skipped = notes;
            Ok(loaded)
        }
        Err(BundleError::Empty(_)) if !notes.is_empty() => Err(BundleError::Refused {
            path: path.to_path_buf(),
            what: notes.join("; "),
        }),
        Err(e) => Err(match e {
            BundleError::Io { path: p, source } => BundleError::Io {
                path: named(&p),
                source,
            },
            BundleError::Parse { path: p, message } => BundleError::Parse {
                path: named(&p),
                message,
            },
            BundleError::Object { path: p, what } => BundleError::Object {
                path: named(&p),
                what,
            },
            BundleError::Empty(_) => BundleError::Empty(path.to_path_buf()),
            BundleError::Refused { what, .. } => BundleError::Refused {
                path: path.to_path_buf(),
                what: text(&what),
            },
            other => other,
        }),
    }
}

/// A folder (or one file) of objects and logs.
fn load_tree(path: &Path, options: &LoadOptions) -> Result<Loaded, BundleError> {
    // The text pods repeat (namespace, nodes, image, owner, label values) held once while the
    // bundle is read; the table goes when it is read (`text`).
    let _interning = super::text::interning();
    let mut snapshot = Snapshot {
        rbac_complete: false,
        ..Snapshot::default()
    };
    let mut tally = Tally::default();
    let found = bundle_files(path)?;
    let mut skipped = found.skipped;
    let mut first_error = None;
    let mut undecoded: Vec<String> = Vec::new();
    for file in &found.files {
        let before = tally.objects;
        let mut no_kind = 0;
        let read = read_file(file, &mut snapshot, &mut tally, &mut no_kind).map_err(|source| {
            BundleError::Io {
                path: file.clone(),
                source,
            }
        })?;
        // An object that does not fit its kind (a ConfigMap whose `data` is a list) is left out
        // with its path and reason, as a file of broken YAML is: one bad object in an unrelated
        // corner never refuses the whole bundle.
        for what in tally.undecoded.drain(..) {
            skipped.push(format!(
                "{}: {what} (left out: it does not decode)",
                file.display()
            ));
            undecoded.push(format!("{}: {what}", file.display()));
        }
        match read {
            Ok(()) => {}
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
    place_aside(&mut snapshot, &mut tally);
    // The pods were pushed one at a time; the slack of the last doubling (up to half of them)
    // would be held through the whole diagnosis.
    snapshot.pods.shrink_to_fit();
    if tally.objects == 0
        && tally.foreign.is_empty()
        && tally.kinds.is_empty()
        && tally.unlisted_pods == 0
    {
        if !tally.invalid.is_empty() || !undecoded.is_empty() {
            let mut what = undecoded;
            what.extend(invalid_notes(&tally));
            return Err(BundleError::Refused {
                path: path.to_path_buf(),
                what: what.join("; "),
            });
        }
        return Err(first_error.unwrap_or_else(|| BundleError::Empty(path.to_path_buf())));
    }
    for ((kind, api_version), n) in &tally.foreign {
        skipped.push(format!(
            "{n} {kind} ({api_version}): a kind kubectl-flink does not read"
        ));
    }
    skipped.extend(invalid_notes(&tally));
    if tally.unlisted_pods > 0 {
        skipped.push(format!(
            "{} Pod(s) of no Flink cluster (without the labels a live gather lists pods by){}",
            tally.unlisted_pods,
            if tally.aside_full {
                format!(
                    "; beyond the first {ASIDE_MAX}, left out without a look at whether an operator runs where they do"
                )
            } else {
                String::new()
            }
        ));
    }
    classify_operator(&mut snapshot);
    if path.is_dir() {
        let keep = Keep::new(&snapshot);
        load_logs(&path.join("logs"), &mut snapshot, &keep, options.log_tail)?;
        load_dump_logs(path, &mut snapshot, &keep, options.log_tail)?;
        load_inspect_logs(path, &mut snapshot, &keep, options.log_tail)?;
    }
    snapshot.install_checked = holds_installation(&snapshot);
    snapshot.rbac_complete = !snapshot.roles.is_empty()
        || !snapshot.role_bindings.is_empty()
        || !snapshot.cluster_role_bindings.is_empty();
    snapshot.captured_at = newest_timestamp(&snapshot).unwrap_or_default();
    snapshot.bundle_kinds = Some(tally.kinds);
    Ok(Loaded { snapshot, skipped })
}

/// One line per kind and reason of the objects left out for their metadata.
fn invalid_notes(tally: &Tally) -> Vec<String> {
    tally
        .invalid
        .iter()
        .map(|((kind, why), n)| format!("{n} {kind}(s) whose {why} (no API server would hold it)"))
        .collect()
}

/// Why a file's documents could not be read: not YAML or JSON at all. (An object that does not fit
/// its kind is left out alone: `Tally::undecoded`.)
enum Unreadable {
    Text(String),
}

/// Every document of one file into the snapshot. A JSON file (`kubectl get -o json` output, which
/// can hold every pod of a large cluster) is read from the file as a stream, never whole: its text
/// would cost as much again as the objects read from it.
fn read_file(
    file: &Path,
    s: &mut Snapshot,
    tally: &mut Tally,
    no_kind: &mut usize,
) -> std::io::Result<Result<(), Unreadable>> {
    use crate::files::{check_nesting_of, open_capped, read_capped, MAX_FILE_BYTES};
    let too_deep = |e| Unreadable::Text(ObjectError::from(e).to_string());
    if is_gz(file) {
        // A compressed file (`pods.yaml.gz`): inflated in memory, as large as a plain one may
        // be; bytes that do not inflate are a file left out with the reason, never fatal.
        let bytes = match crate::files::archive::gunzip_capped(file, MAX_FILE_BYTES) {
            Ok(b) => b,
            Err(e) => return Ok(Err(Unreadable::Text(format!("gzip: {e}")))),
        };
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = crate::files::check_nesting(&text) {
            return Ok(Err(too_deep(e)));
        }
        let no_json = None::<serde_json::Deserializer<serde_json::de::StrRead>>;
        return Ok(read_documents(no_json, Some(&text), s, tally, no_kind));
    }
    if crate::files::starts_like_json(file)? {
        if let Err(e) = check_nesting_of(file, MAX_FILE_BYTES)? {
            return Ok(Err(too_deep(e)));
        }
        // Checked whole first, so a failure never leaves half a file read; what is not JSON
        // is read as YAML below, whose parser says what is wrong.
        let reader = open_capped(file, MAX_FILE_BYTES)?;
        if serde_json::from_reader::<_, serde::de::IgnoredAny>(reader).is_ok() {
            let json = serde_json::Deserializer::from_reader(open_capped(file, MAX_FILE_BYTES)?);
            return Ok(read_documents(Some(json), None, s, tally, no_kind));
        }
    }
    let bytes = read_capped(file, MAX_FILE_BYTES)?;
    let text = String::from_utf8_lossy(&bytes);
    if let Err(e) = crate::files::check_nesting(&text) {
        return Ok(Err(too_deep(e)));
    }
    let no_json = None::<serde_json::Deserializer<serde_json::de::StrRead>>;
    Ok(read_documents(no_json, Some(&text), s, tally, no_kind))
}

/// The documents of one JSON document (`json`) or YAML stream (`yaml`) into the snapshot. The
/// items of a list are read one at a time (`stream`), so a `kind: List` of 100,000 pods never
/// exists as one JSON tree.
fn read_documents<'t, R: serde_json::de::Read<'t>>(
    json: Option<serde_json::Deserializer<R>>,
    yaml: Option<&'t str>,
    s: &mut Snapshot,
    tally: &mut Tally,
    no_kind: &mut usize,
) -> Result<(), Unreadable> {
    use super::stream::{document, Document};
    let mut json_doc = json;
    let mut yaml_docs = yaml
        .map(serde_yaml::Deserializer::from_str)
        .into_iter()
        .flatten();
    loop {
        // An object that does not decode is noted and the stream goes on.
        let mut item = |v: Value| -> Result<(), String> {
            if !is_object(&v) {
                return Ok(());
            }
            if unlisted_pod(&v, tally) {
                set_aside(v, tally);
                return Ok(());
            }
            if let Err(e) = add_counted(s, v, tally) {
                tally.undecoded.push(e.to_string());
            }
            Ok(())
        };
        let parsed = match (json_doc.take(), yaml_docs.next()) {
            (Some(mut de), _) => document(&mut de, &mut item).map_err(|e| e.to_string()),
            (None, Some(doc)) => document(doc, &mut item).map_err(|e| e.to_string()),
            (None, None) => break,
        };
        match parsed.map_err(Unreadable::Text)? {
            Document::List(Some(kind)) => {
                tally.kinds.insert(kind);
            }
            Document::List(None) => {}
            Document::Whole(Value::Null) => {}
            Document::Whole(v) if !is_object(&v) => *no_kind += 1,
            Document::Whole(v) if unlisted_pod(&v, tally) => set_aside(v, tally),
            Document::Whole(v) => {
                if let Err(e) = add_counted(s, v, tally) {
                    tally.undecoded.push(e.to_string());
                }
            }
        }
    }
    Ok(())
}

/// A pod a live gather would not list: of no Flink cluster (labels `component: jobmanager` or
/// `taskmanager`, `flink-app` for Lyft's) and not the operator's. Counted and left out before it is
/// decoded, so a bundle of every pod of a large cluster (`kubectl get pods -A -o json`) costs the
/// Flink pods it holds, not all of them.
fn unlisted_pod(v: &Value, tally: &mut Tally) -> bool {
    use crate::flink::mode::Component;
    use crate::flink::names::LABEL_FLINK_APP;
    if v.get("kind").and_then(Value::as_str) != Some("Pod")
        || v.get("apiVersion").and_then(Value::as_str) != Some("v1")
    {
        return false;
    }
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    let listed = Component::from_label_lookup(label).is_some()
        || label(LABEL_FLINK_APP).is_some()
        || is_flinkcluster_labels(
            label(crate::flink::names::LABEL_APP),
            label(crate::flink::names::LABEL_CLUSTER),
        )
        || is_operator_value(v);
    if !listed {
        tally.kinds.insert("Pod".into());
    }
    !listed
}

/// Pods of no Flink cluster kept aside while the bundle is read, at most this many: where they run
/// (an operator's namespace) is known only once every file is read (`place_aside`). The others
/// are counted and left out, so a bundle of every pod of a large cluster stays cheap.
/// The live gather keeps as many of the operators' namespaces' pods (`cluster::install`), and
/// says what it left out with [`beyond_the_cap`].
pub const ASIDE_MAX: usize = 1000;

/// The verb of the gap a live read records for the pods beyond [`ASIDE_MAX`].
pub const LOOK_AT: &str = "look at";

/// The gap of a live read that left N pods of no Flink cluster in namespace NS out beyond
/// [`ASIDE_MAX`], in the words of a bundle's note.
pub fn beyond_the_cap(ns: &str, n: usize) -> super::Gap {
    super::Gap {
        verb: LOOK_AT.into(),
        group: String::new(),
        resource: "pods".into(),
        namespace: Some(ns.to_string()),
        reason: super::GapReason::Error,
        message: format!(
            "{n} Pod(s) of no Flink cluster beyond the first {ASIDE_MAX}, left out without a look at whether an operator runs where they do"
        ),
    }
}

fn set_aside(mut v: Value, tally: &mut Tally) {
    if tally.aside.len() >= ASIDE_MAX {
        tally.unlisted_pods += 1;
        tally.aside_full = true;
        return;
    }
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    tally.aside.push(v);
}

/// The pods set aside, once the whole bundle is read, placed as the live gather places the pods
/// of the operators' namespaces (`settle_pods`); the rest are counted as left out.
fn place_aside(s: &mut Snapshot, tally: &mut Tally) {
    let aside = std::mem::take(&mut tally.aside);
    let (kept, left_out) = settle_pods(s, aside);
    tally.objects += kept;
    tally.unlisted_pods += left_out;
}

/// Pods of no Flink cluster, placed (`identity::place`): one its own wiring or a Flink webhook's
/// Service names is the operator's (`operator_pods`); one whose account has rights over an
/// operator's CRD group, or that runs in an operator's namespace, is probably the operator's and
/// is kept for the generic pod rules (`pods`, `probable_operators`); the rest are left out.
/// Returns (kept, left out).
pub fn settle_pods(s: &mut Snapshot, pods: Vec<Value>) -> (usize, usize) {
    let (mut kept, mut left_out) = (0, 0);
    for v in pods {
        let Ok(full) = serde_json::from_value::<k8s_openapi::api::core::v1::Pod>(v.clone()) else {
            left_out += 1;
            continue;
        };
        match super::identity::place(s, &full) {
            super::identity::Placed::Operator => {
                s.operator_pods.push(full);
                kept += 1;
            }
            super::identity::Placed::Probable(operator, why) => {
                let Ok(p) = serde_json::from_value::<super::Pod>(v) else {
                    left_out += 1;
                    continue;
                };
                s.probable_operators.push(super::identity::Probable {
                    kind: "Pod",
                    namespace: full
                        .metadata
                        .namespace
                        .clone()
                        .unwrap_or_else(|| "default".into()),
                    name: full.metadata.name.clone().unwrap_or_default(),
                    operator,
                    why,
                });
                s.pods.push(p);
                kept += 1;
            }
            super::identity::Placed::Nobody => left_out += 1,
        }
    }
    (kept, left_out)
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
    /// Pods of no Flink cluster and not the operator's (`unlisted_pod`), left out.
    unlisted_pods: usize,
    /// Such pods kept until the whole bundle is read (`set_aside`, `place_aside`).
    aside: Vec<Value>,
    /// More than `ASIDE_MAX` were: the rest were left out without a look at where they run.
    aside_full: bool,
    /// Objects whose metadata no API server would accept, with why (`valid`).
    /// (kind, why) -> count.
    invalid: std::collections::BTreeMap<(String, String), usize>,
    /// Objects read so far, by a hash of kind, namespace and name: an object a bundle holds twice
    /// (`oc adm inspect` writes every pod into `core/pods.yaml` and `pods/<pod>/<pod>.yaml`) is
    /// read once.
    seen: std::collections::HashSet<u64>,
    /// Objects of the file being read that do not fit their kind, why (taken after each file).
    undecoded: Vec<String>,
}

/// A bundle speaks about the installation only when it holds some of it: the operator's objects,
/// CRDs or webhook configurations (`kinds::Field::installation`). Without them, absence proves
/// nothing.
pub fn holds_installation(s: &Snapshot) -> bool {
    FIELDS.iter().any(|f| f.installation && !f.is_empty(s))
}

/// The operators' configuration ConfigMap (both operators use this name).
pub const OPERATOR_CONFIG_MAP: &str = "flink-operator-config";

/// A bundle holds the operator's objects beside Flink's; the live gather reads them separately,
/// so sort them the same way here: a Deployment is the operator's by its labels, its images or the
/// webhook Service that selects its pods, and probably one by its account's rights over an
/// operator's CRD group (`snapshot::identity`). The operator's few objects move out in place: the lists are never
/// copied. (Its pods are sorted as they are read: `add_counted`.)
pub fn classify_operator(s: &mut Snapshot) {
    let deployments = std::mem::take(&mut s.deployments);
    let (operators, rest): (Vec<_>, Vec<_>) = deployments
        .into_iter()
        .partition(|d| super::identity::certain_operator(s, d).is_some());
    // A Deployment only its account's rights name is probably an operator: it stays with the
    // others, and the overview says what it probably is.
    for d in &rest {
        if let Some(p) = super::identity::probable_of(s, d) {
            if !s.probable_operators.contains(&p) {
                s.probable_operators.push(p);
            }
        }
    }
    s.deployments = rest;
    s.operator_deployments.extend(operators);
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
    bundle_files(path).map(|f| f.files.into_iter().filter(|f| !is_gz(f)).collect())
}

fn bundle_files(path: &Path) -> Result<crate::files::Walked, BundleError> {
    let mut found = crate::files::find(path, &["yaml", "yml", "json", "gz"], &|d| {
        d.file_name().is_some_and(|n| n == "logs")
    })
    .map_err(|source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    // Of the compressed files, those that hold objects (`pods.yaml.gz`); a file named on the
    // command line is read whatever its name.
    if path.is_dir() {
        found.files.retain(|f| !is_gz(f) || compressed_objects(f));
    }
    Ok(found)
}

fn is_gz(f: &Path) -> bool {
    f.extension().is_some_and(|e| e == "gz")
}

/// `x.yaml.gz`, `x.yml.gz`, `x.json.gz`.
fn compressed_objects(f: &Path) -> bool {
    f.file_stem()
        .map(Path::new)
        .and_then(Path::extension)
        .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
}

/// Why text or a value is not a Kubernetes object kubectl-flink reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectError {
    #[error("{0}: not a Kubernetes object")]
    TooDeep(#[from] crate::files::TooDeep),
    /// Not YAML or JSON: the parser's message.
    #[error("{0}")]
    Syntax(String),
    /// Metadata the API server would refuse (`valid::invalid_metadata`).
    #[error("{0}")]
    Invalid(String),
    #[error("an object without `kind`")]
    NoKind,
    #[error("an object of kind {kind} ({api_version}), which kubectl-flink does not read")]
    Foreign { kind: String, api_version: String },
    /// A field that does not fit its kind: `FlinkDeployment orders: spec.job.parallelism: ...`.
    #[error("{kind} {name}: {path}: {message}")]
    Field {
        kind: String,
        name: String,
        path: String,
        message: String,
    },
}

/// Splits a YAML (or JSON) stream into documents, skipping empty ones.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, ObjectError> {
    crate::files::check_nesting(text)?;
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
    fn deserialize_from_yaml(d: serde_yaml::Deserializer) -> Result<Self, ObjectError>;
}

impl FromYaml for Value {
    fn deserialize_from_yaml(d: serde_yaml::Deserializer) -> Result<Self, ObjectError> {
        use serde::Deserialize;
        Value::deserialize(d).map_err(|e| ObjectError::Syntax(e.to_string()))
    }
}

/// Adds one object (or a List of them) to the snapshot. An object of a kind kubectl-flink does not
/// read is an error here (lint and the tests want to know); bundles skip them instead.
pub fn add_value(s: &mut Snapshot, v: Value) -> Result<(), ObjectError> {
    let mut tally = Tally::default();
    add_counted(s, v, &mut tally)?;
    if let Some(((kind, why), _)) = tally.invalid.into_iter().next() {
        return Err(ObjectError::Invalid(format!("a {kind} whose {why}")));
    }
    match tally.foreign.into_keys().next() {
        Some((kind, api_version)) => Err(ObjectError::Foreign { kind, api_version }),
        None => Ok(()),
    }
}

fn add_counted(s: &mut Snapshot, mut v: Value, tally: &mut Tally) -> Result<(), ObjectError> {
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
        return Err(ObjectError::NoKind);
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
    if let Some(why) = valid::invalid_metadata(&kind, &v) {
        // Never the name itself: it is what cannot be trusted (a newline, a terminal escape).
        let kind = if kind.bytes().all(|b| b.is_ascii_alphanumeric()) {
            kind
        } else {
            "object".to_string()
        };
        *tally.invalid.entry((kind, why)).or_default() += 1;
        return Ok(());
    }
    let ctx = |e: FieldError| ObjectError::Field {
        kind: kind.clone(),
        name: name.clone(),
        path: e.path().to_string(),
        message: e.inner().to_string(),
    };
    if name != "?" {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            &kind,
            v.pointer("/metadata/namespace").and_then(Value::as_str),
            &name,
        )
            .hash(&mut h);
        if !tally.seen.insert(h.finish()) {
            return Ok(());
        }
    }
    super::deprecated::to_v1(&mut v);
    let group = api_version.split_once('/').map(|(g, _)| g).unwrap_or("");
    // The first field that takes it keeps it; a kind some field holds but none takes (a
    // StatefulSet of no FlinkCluster), or one the diagnosis knowingly ignores, is left out.
    let mut known = false;
    for field in FIELDS.iter().filter(|f| f.holds(&kind, group)) {
        known = true;
        let takes = match field.takes {
            Takes::All => true,
            Takes::When(yes) => yes(&v),
            Takes::Sorted => false,
        };
        if takes {
            field.add(s, v).map_err(ctx)?;
            break;
        }
    }
    if !known && !IGNORED_KINDS.contains(&kind.as_str()) {
        *tally.foreign.entry((kind, api_version)).or_default() += 1;
        return Ok(());
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

#[cfg(test)]
mod tests;

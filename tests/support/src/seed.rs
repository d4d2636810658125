//! Loads an offline bundle (the `kubectl flink doctor --from` format) into a live test cluster, so
//! the same broken deployment can be diagnosed offline and live.
//!
//! What a bundle holds and the order it is loaded in (owners before what they own, RBAC and
//! ServiceAccounts before pods that admission checks against them):
//!
//! 1. Namespaces (those in the bundle, plus every namespace its objects name);
//! 2. ServiceAccounts, plus a `default` one in every namespace (no controller-manager runs);
//! 3. RBAC; 4. CRDs: the bundle's own, else the real Flink operator CRDs from the shared fixtures
//!    when the bundle has `flink.apache.org` or `flinkoperator.k8s.io` objects; a permissive stand-in for any other custom
//!    kind the cluster does not serve; each waited on until Established;
//! 5. ConfigMaps, Secrets and cluster infrastructure; 6. custom resources; 7. workloads;
//! 8. ReplicaSets; 9. Services and the like; 10. Pods, bound to a Node that points at the fake
//!    kubelet; 11. Events; 12. ResourceQuotas and LimitRanges (last: their admission plugins
//!    would otherwise reject or change the pods); 13. webhook configurations (last of all: a
//!    failing one refuses every later request it matches; `--no-webhooks` leaves them out).
//!    Nodes in a bundle are skipped: the harness makes its own.
//!
//! Every object is written with server-side apply (idempotent; no 256 KiB `last-applied`
//! annotation, which the real CRDs exceed), after stripping what the server owns (uid,
//! resourceVersion, creationTimestamp, managedFields, ...). Its `status` is then merge-patched
//! through the status subresource, timestamps included, every time in it (and an Event's times)
//! moved by how long ago the bundle's "now" was (crate::times; `--keep-times` keeps them). ownerReferences and the involvedObject of
//! Events get the uids of the objects just created. Log files are copied to the fake kubelet's root.
//!
//! Each seed records the namespaces and cluster-scoped objects it created; `--reset` removes them
//! first, so a bundle meets a cluster as fresh as `scripts/test-cluster.sh up` left it.

use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::Node;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams,
};
use kube::core::GroupVersionKind;
use kube::discovery::{ApiCapabilities, Scope};
use kube::Client;
use kubectl_flink::snapshot::bundle::{object_files, parse_documents};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const FIELD_MANAGER: &str = "kubectl-flink-seed";
/// Marks CRDs by where they came from, so a later bundle knows whether to replace them.
pub const SOURCE_ANNOTATION: &str = "kubectl-flink.test/crd-source";
/// Groups whose objects want the real CRDs of `--crds` (the Apache operator's and the GCP/Spotify
/// operator's FlinkCluster).
const FLINK_GROUPS: &[&str] = &["flink.apache.org", "flinkoperator.k8s.io"];

/// One object of the bundle and the file it came from.
#[derive(Debug, Clone)]
pub struct BundleObject {
    pub value: Value,
    pub file: PathBuf,
}

impl BundleObject {
    pub fn kind(&self) -> &str {
        self.value.get("kind").and_then(Value::as_str).unwrap_or("")
    }
    pub fn api_version(&self) -> &str {
        self.value
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    pub fn group(&self) -> &str {
        match self.api_version().split_once('/') {
            Some((g, _)) => g,
            None => "",
        }
    }
    pub fn name(&self) -> &str {
        self.value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    pub fn namespace(&self) -> Option<&str> {
        self.value
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    }
    fn describe(&self) -> String {
        match self.namespace() {
            Some(ns) => format!("{} {ns}/{}", self.kind(), self.name()),
            None => format!("{} {}", self.kind(), self.name()),
        }
    }
}

/// A log file of the bundle: `logs/<ns>/<pod>/<container>[.previous].log`.
#[derive(Debug, Clone)]
pub struct BundleLog {
    pub namespace: String,
    pub pod: String,
    pub file_name: String,
    pub path: PathBuf,
}

#[derive(Debug, Default)]
pub struct Bundle {
    pub objects: Vec<BundleObject>,
    pub logs: Vec<BundleLog>,
}

/// Reads a bundle directory (or one file) the way `doctor --from` does: every `*.yaml`, `*.yml`
/// and `*.json` outside `logs/` holds one object, a multi-document stream or a `kind: List`.
pub fn read_bundle(path: &Path) -> Result<Bundle, String> {
    if !path.exists() {
        return Err(format!(
            "bundle {}: no such file or directory",
            path.display()
        ));
    }
    let files = object_files(path).map_err(|e| e.to_string())?;
    let mut bundle = Bundle::default();
    for file in files {
        let text =
            fs::read_to_string(&file).map_err(|e| format!("read {}: {e}", file.display()))?;
        // What doctor leaves out of a bundle (text that is not YAML, documents that are not
        // Kubernetes objects), the seeder leaves out too.
        let Ok(docs) = parse_documents(&text) else {
            continue;
        };
        for doc in docs {
            flatten(doc, &file, &mut bundle.objects)?;
        }
    }
    let logs = path.join("logs");
    if path.is_dir() && logs.is_dir() {
        for ns in sorted_dir(&logs)? {
            if !ns.is_dir() {
                continue;
            }
            for pod in sorted_dir(&ns)? {
                if !pod.is_dir() {
                    continue;
                }
                for f in sorted_dir(&pod)? {
                    let name = file_name(&f);
                    if f.is_file() && name.ends_with(".log") {
                        bundle.logs.push(BundleLog {
                            namespace: file_name(&ns),
                            pod: file_name(&pod),
                            file_name: name,
                            path: f,
                        });
                    }
                }
            }
        }
    }
    Ok(bundle)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn sorted_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    out.sort();
    Ok(out)
}

fn flatten(v: Value, file: &Path, out: &mut Vec<BundleObject>) -> Result<(), String> {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind.is_empty() || v.get("apiVersion").and_then(Value::as_str).is_none() {
        return Ok(()); // not a Kubernetes object: doctor skips it too
    }
    if let Some(item_kind) = kind.strip_suffix("List") {
        if let Some(items) = v.get("items").and_then(Value::as_array) {
            let api_version = v.get("apiVersion").cloned().unwrap_or_default();
            for item in items {
                let mut item = item.clone();
                // A typed list's items may omit their kind (what the API itself returns).
                if let (false, Some(o)) = (item_kind.is_empty(), item.as_object_mut()) {
                    o.entry("kind").or_insert_with(|| json!(item_kind));
                    o.entry("apiVersion").or_insert_with(|| api_version.clone());
                }
                flatten(item, file, out)?;
            }
            return Ok(());
        }
    }
    if kind == "Endpoints" && v.get("apiVersion").and_then(Value::as_str) == Some("v1") {
        if let Some(slice) = mirrored_endpoint_slice(&v) {
            out.push(BundleObject {
                value: slice,
                file: file.to_path_buf(),
            });
        }
    }
    out.push(BundleObject {
        value: v,
        file: file.to_path_buf(),
    });
    Ok(())
}

/// The EndpointSlice a real control plane keeps beside a Service's `v1 Endpoints` (the
/// EndpointSlice controller). The test cluster runs no controllers, and the live gather reads
/// EndpointSlices only, so a bundle that holds Endpoints (what older tools save) is seeded with
/// the slice the cluster it came from had.
fn mirrored_endpoint_slice(endpoints: &Value) -> Option<Value> {
    let name = endpoints.pointer("/metadata/name")?.as_str()?;
    let namespace = endpoints.pointer("/metadata/namespace")?.as_str()?;
    let mut list = Vec::new();
    let mut ports = Vec::new();
    for subset in endpoints
        .get("subsets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for (key, ready) in [("addresses", true), ("notReadyAddresses", false)] {
            for a in subset
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let mut e = json!({"addresses": [a.get("ip")?], "conditions": {"ready": ready}});
                if let Some(t) = a.get("targetRef") {
                    e["targetRef"] = t.clone();
                }
                list.push(e);
            }
        }
        for p in subset
            .get("ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            ports.push(p.clone());
        }
    }
    Some(json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "name": format!("{name}-mirrored"),
            "namespace": namespace,
            "labels": {
                "kubernetes.io/service-name": name,
                "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
            },
        },
        "addressType": "IPv4",
        "endpoints": list,
        "ports": ports,
    }))
}

/// Kinds kubectl-flink does not read that live outside namespaces (the ones a bundle may
/// plausibly hold). Those it reads say so in their own description (`flink::kinds`).
const OTHER_CLUSTER_KINDS: &[&str] = &[
    "Node",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "APIService",
    "IngressClass",
    "RuntimeClass",
    "CSIDriver",
    "CSINode",
    "VolumeAttachment",
    "CertificateSigningRequest",
    "FlowSchema",
    "PriorityLevelConfiguration",
];

/// Whether objects of a kind live outside namespaces: from the kind's description when
/// kubectl-flink reads it, else from `OTHER_CLUSTER_KINDS`.
pub fn cluster_scoped(kind: &str) -> bool {
    match kubectl_flink::snapshot::kinds::FIELDS
        .iter()
        .flat_map(|f| f.kinds)
        .find(|k| k.kind == kind)
    {
        Some(k) => !k.namespaced,
        None => OTHER_CLUSTER_KINDS.contains(&kind),
    }
}

/// The namespaces a bundle uses: its Namespace objects, its objects' namespaces (`default` for a
/// namespaced object without one) and its log directories.
pub fn namespaces_of(bundle: &Bundle) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for o in &bundle.objects {
        if o.kind() == "Namespace" {
            out.insert(o.name().to_string());
        } else if let Some(ns) = o.namespace() {
            out.insert(ns.to_string());
        } else if !cluster_scoped(o.kind()) {
            out.insert("default".to_string());
        }
    }
    for l in &bundle.logs {
        out.insert(l.namespace.clone());
    }
    out
}

/// Built-in API groups; any other group is a custom resource's.
const BUILTIN_GROUPS: &[&str] = &[
    "",
    "apps",
    "batch",
    "autoscaling",
    "policy",
    "rbac.authorization.k8s.io",
    "networking.k8s.io",
    "storage.k8s.io",
    "apiextensions.k8s.io",
    "admissionregistration.k8s.io",
    "scheduling.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "node.k8s.io",
    "certificates.k8s.io",
    "flowcontrol.apiserver.k8s.io",
    "apiregistration.k8s.io",
    "resource.k8s.io",
    "storagemigration.k8s.io",
    "authentication.k8s.io",
    "authorization.k8s.io",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Namespace,
    ServiceAccount,
    Rbac,
    Crd,
    Config,
    CustomResource,
    Workload,
    ReplicaSet,
    Network,
    Pod,
    Event,
    Policy,
    Webhook,
    Skip,
}

fn phase(o: &BundleObject) -> Phase {
    match o.kind() {
        "Namespace" => Phase::Namespace,
        "ServiceAccount" => Phase::ServiceAccount,
        "ClusterRole" | "Role" | "ClusterRoleBinding" | "RoleBinding" => Phase::Rbac,
        "CustomResourceDefinition" => Phase::Crd,
        "Node" | "Binding" | "ComponentStatus" => Phase::Skip,
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" => Phase::Webhook,
        "ResourceQuota" | "LimitRange" => Phase::Policy,
        "Event" => Phase::Event,
        "Pod" => Phase::Pod,
        "ReplicaSet" => Phase::ReplicaSet,
        "Deployment" | "StatefulSet" | "DaemonSet" | "Job" | "CronJob" => Phase::Workload,
        "ConfigMap" | "Secret" | "PriorityClass" | "StorageClass" | "PersistentVolume" => {
            Phase::Config
        }
        _ if !BUILTIN_GROUPS.contains(&o.group()) => Phase::CustomResource,
        _ => Phase::Network,
    }
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Where the fake kubelet reads logs from; logs are not copied when None.
    pub log_root: Option<PathBuf>,
    /// The fake Node pods are bound to when the bundle does not name one.
    pub node: String,
    /// The real Flink operator CRDs (the repository's `src/lint/crds`, operator release 1.15.0).
    pub crds_dir: Option<PathBuf>,
    /// Remove what earlier seeds recorded first, so the bundle is seeded as into a fresh cluster.
    pub reset: bool,
    /// Where seeds record the namespaces and cluster-scoped objects they create (for `reset`).
    pub record: Option<PathBuf>,
    /// Leave webhook configurations out (they are created last, as a failing one would refuse
    /// every later request it matches).
    pub no_webhooks: bool,
    /// Keep the recorded times: by default every time in a status and an Event moves by how long
    /// ago the bundle's "now" was (crate::times), so live and offline see the same ages.
    pub keep_times: bool,
}

#[derive(Debug, Default)]
pub struct Summary {
    pub objects: usize,
    pub statuses: usize,
    pub logs: usize,
    pub namespaces: BTreeSet<String>,
    pub skipped: Vec<String>,
}

type Uids = HashMap<(String, String, String), String>;

pub struct Seeder {
    client: Client,
    opts: Options,
    kinds: HashMap<(String, String), (ApiResource, ApiCapabilities)>,
    uids: Uids,
    /// The harness Node's kubelet endpoint, copied to any other Node a bundle's pods name.
    kubelet_endpoint: Option<Value>,
    /// Namespaces that existed before this seeder applied them (`default`, ...): a reset must not
    /// empty them, so what is seeded into them is recorded object by object.
    preexisting: BTreeSet<String>,
    /// How far this bundle's times move (crate::times), set per seed.
    shift: Option<chrono::Duration>,
}

fn err(what: impl std::fmt::Display, e: impl std::fmt::Display) -> String {
    // kube's API errors end in a Debug dump of the whole Status: keep the message.
    let text = e.to_string();
    let brief = text.split(" (Status {").next().unwrap_or(&text);
    format!("{what}: {brief}")
}

impl Seeder {
    pub fn new(client: Client, opts: Options) -> Self {
        Seeder {
            client,
            opts,
            kinds: HashMap::new(),
            uids: HashMap::new(),
            kubelet_endpoint: None,
            preexisting: BTreeSet::new(),
            shift: None,
        }
    }

    pub async fn seed(&mut self, bundle_path: &Path) -> Result<Summary, String> {
        let bundle = read_bundle(bundle_path)?;
        let mut summary = Summary {
            namespaces: namespaces_of(&bundle),
            ..Summary::default()
        };
        let mut objects = bundle.objects.clone();
        objects.sort_by_key(phase);
        self.shift = if self.opts.keep_times {
            None
        } else {
            crate::times::bundle_now(&objects).map(|now| chrono::Utc::now() - now)
        };
        let defines_flink = objects.iter().any(|o| {
            phase(o) == Phase::Crd
                && o.value
                    .pointer("/spec/group")
                    .and_then(Value::as_str)
                    .is_some_and(|g| FLINK_GROUPS.contains(&g))
        });
        let uses_flink = objects.iter().any(|o| FLINK_GROUPS.contains(&o.group()));
        let wants_fixtures = uses_flink && !defines_flink;
        // Once, before the first bundle of this seeder.
        if std::mem::take(&mut self.opts.reset) {
            self.reset(wants_fixtures).await?;
        }
        // Webhooks come last; one left by an earlier seed of this bundle would refuse what
        // comes before it, so it goes first.
        for o in objects.iter().filter(|o| phase(o) == Phase::Webhook) {
            let (ar, caps) = self.resolve(o.api_version(), o.kind()).await?;
            match self
                .api_for(&ar, &caps, None)
                .delete(o.name(), &DeleteParams::default())
                .await
            {
                Ok(_) => {}
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => return Err(err(format!("delete {}", o.describe()), e)),
            }
        }

        // 1. Namespaces: the bundle's, then any other its objects name.
        let declared: BTreeSet<&str> = objects
            .iter()
            .filter(|o| o.kind() == "Namespace")
            .map(|o| o.name())
            .collect();
        for o in objects.iter().filter(|o| phase(o) == Phase::Namespace) {
            self.apply(o).await?;
            summary.objects += 1;
        }
        for ns in &summary.namespaces {
            if !declared.contains(ns.as_str()) {
                let o = BundleObject {
                    value: json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
                    file: bundle_path.to_path_buf(),
                };
                self.apply(&o).await?;
            }
        }

        // 2. ServiceAccounts, and the `default` one a controller-manager would have made.
        for o in objects.iter().filter(|o| phase(o) == Phase::ServiceAccount) {
            self.apply(o).await?;
            summary.objects += 1;
        }
        // Also every account a pod runs as: the ServiceAccount admission refuses a pod whose
        // account is missing, and a bundle saved with `-n NS` holds the accounts of NS only, not
        // those of the operator's pods in its own namespace.
        let mut accounts: BTreeSet<(String, String)> = summary
            .namespaces
            .iter()
            .map(|ns| (ns.clone(), "default".to_string()))
            .collect();
        for o in objects.iter().filter(|o| o.kind() == "Pod") {
            let sa = o
                .value
                .pointer("/spec/serviceAccountName")
                .or_else(|| o.value.pointer("/spec/serviceAccount"))
                .and_then(Value::as_str);
            if let (Some(ns), Some(sa)) = (o.namespace(), sa) {
                accounts.insert((ns.to_string(), sa.to_string()));
            }
        }
        for (ns, sa) in &accounts {
            let declared = objects.iter().any(|o| {
                o.kind() == "ServiceAccount" && o.name() == sa && o.namespace() == Some(ns)
            });
            if !declared {
                self.ensure_service_account(ns, sa).await?;
            }
        }

        // 3. RBAC, 4. CRDs.
        for o in objects.iter().filter(|o| phase(o) == Phase::Rbac) {
            self.apply(o).await?;
            summary.objects += 1;
        }
        let bundle_crds: Vec<&BundleObject> =
            objects.iter().filter(|o| phase(o) == Phase::Crd).collect();
        for o in &bundle_crds {
            let mut o = (*o).clone();
            annotate(
                &mut o.value,
                SOURCE_ANNOTATION,
                &format!("bundle:{}", bundle_path.display()),
            );
            self.apply(&o).await?;
            summary.objects += 1;
        }
        if wants_fixtures {
            self.install_fixture_crds().await?;
        }
        self.stand_in_crds(&objects).await?;
        for o in &bundle_crds {
            self.wait_established(o.name()).await?;
        }

        // 5.-12. Everything else, in phase order; statuses right after each object.
        for o in objects.iter().filter(|o| phase(o) > Phase::Crd) {
            match phase(o) {
                Phase::Skip => {
                    summary
                        .skipped
                        .push(format!("{} (the harness makes its own)", o.describe()));
                    continue;
                }
                Phase::Webhook if self.opts.no_webhooks => {
                    summary
                        .skipped
                        .push(format!("{} (--no-webhooks)", o.describe()));
                    continue;
                }
                _ => {}
            }
            let mut o = o.clone();
            if o.kind() == "Pod" {
                self.bind_pod(&mut o).await?;
            }
            if o.kind() == "Event" {
                self.fill_involved_uid(&mut o);
                if let (Some(by), Some(m)) = (self.shift, o.value.as_object_mut()) {
                    // The Event's own times (first/last, eventTime, series), not its metadata.
                    let meta = m.remove("metadata");
                    let mut rest = Value::Object(std::mem::take(m));
                    crate::times::shift(&mut rest, by);
                    if let Value::Object(rest) = rest {
                        *m = rest;
                    }
                    if let Some(meta) = meta {
                        m.insert("metadata".into(), meta);
                    }
                }
            }
            let created = self.apply(&o).await?;
            summary.objects += 1;
            if self.patch_status(&o, &created).await? {
                summary.statuses += 1;
            }
        }

        // Logs for the fake kubelet.
        if let Some(root) = &self.opts.log_root {
            for l in &bundle.logs {
                let dir = root.join(&l.namespace).join(&l.pod);
                fs::create_dir_all(&dir)
                    .map_err(|e| err(format!("create {}", dir.display()), e))?;
                fs::copy(&l.path, dir.join(&l.file_name))
                    .map_err(|e| err(format!("copy {}", l.path.display()), e))?;
                summary.logs += 1;
            }
        }
        Ok(summary)
    }

    /// The API resource serving a kind, asked of the server once per kind.
    async fn resolve(
        &mut self,
        api_version: &str,
        kind: &str,
    ) -> Result<(ApiResource, ApiCapabilities), String> {
        let key = (api_version.to_string(), kind.to_string());
        if let Some(r) = self.kinds.get(&key) {
            return Ok(r.clone());
        }
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g, v),
            None => ("", api_version),
        };
        let gvk = GroupVersionKind::gvk(group, version, kind);
        // A CRD that just became Established can take a moment to appear in discovery.
        let deadline = Instant::now() + Duration::from_secs(20);
        let found = loop {
            match kube::discovery::pinned_kind(&self.client, &gvk).await {
                Ok(r) => break r,
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Err(e) => {
                    return Err(format!(
                        "the cluster does not serve kind {kind} ({api_version}) and the bundle defines no CRD for it: {e}"
                    ))
                }
            }
        };
        self.kinds.insert(key, found.clone());
        Ok(found)
    }

    fn api_for(
        &self,
        ar: &ApiResource,
        caps: &ApiCapabilities,
        ns: Option<&str>,
    ) -> Api<DynamicObject> {
        match caps.scope {
            Scope::Namespaced => {
                Api::namespaced_with(self.client.clone(), ns.unwrap_or("default"), ar)
            }
            Scope::Cluster => Api::all_with(self.client.clone(), ar),
        }
    }

    /// Server-side apply of one object (status left out), returning what the server stored.
    async fn apply(&mut self, o: &BundleObject) -> Result<DynamicObject, String> {
        let (ar, caps) = self.resolve(o.api_version(), o.kind()).await?;
        let name = o.name().to_string();
        if name.is_empty() {
            return Err(format!(
                "{}: {} without metadata.name",
                o.file.display(),
                o.kind()
            ));
        }
        let mut body = o.value.clone();
        prepare(&mut body, &self.uids);
        let ns = match caps.scope {
            Scope::Namespaced => Some(o.namespace().unwrap_or("default").to_string()),
            Scope::Cluster => None,
        };
        if let (Some(ns), Some(meta)) =
            (&ns, body.get_mut("metadata").and_then(Value::as_object_mut))
        {
            meta.insert("namespace".into(), json!(ns));
        }
        let api = self.api_for(&ar, &caps, ns.as_deref());
        // What a seed creates is recorded for `--reset`; what existed before (bootstrap RBAC,
        // `default`, CRDs another test made) is only updated, never recorded, so never deleted.
        let existed = caps.scope == Scope::Cluster
            && api
                .get_opt(&name)
                .await
                .map_err(|e| err(format!("read {}", o.describe()), e))?
                .is_some();
        let pp = PatchParams::apply(FIELD_MANAGER).force();
        let mut result = api.patch(&name, &pp, &Patch::Apply(&body)).await;
        // A Service's clusterIP or nodePort from another cluster may be taken or out of range here.
        if o.kind() == "Service" && matches!(&result, Err(kube::Error::Api(s)) if s.code == 422) {
            if let Some(spec) = body.get_mut("spec").and_then(Value::as_object_mut) {
                spec.remove("clusterIP");
                spec.remove("clusterIPs");
                if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
                    for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                        p.remove("nodePort");
                    }
                }
            }
            eprintln!(
                "seed: {}: clusterIP/nodePort not accepted here; letting the server choose",
                o.describe()
            );
            result = api.patch(&name, &pp, &Patch::Apply(&body)).await;
        }
        // A Secret saved by `doctor --save` keeps metadata only; its type may require keys.
        if o.kind() == "Secret" && matches!(&result, Err(kube::Error::Api(s)) if s.code == 422) {
            let filled = fill_required_secret_keys(&mut body);
            if !filled.is_empty() {
                eprintln!(
                    "seed: {}: its type requires {}; seeding them empty",
                    o.describe(),
                    filled.join(", ")
                );
                result = api.patch(&name, &pp, &Patch::Apply(&body)).await;
            }
        }
        let created =
            result.map_err(|e| err(format!("{}: apply {}", o.file.display(), o.describe()), e))?;
        if o.kind() == "Namespace" {
            if existed {
                self.preexisting.insert(name.clone());
            } else {
                self.record(&["ns", &name])?;
            }
        } else if let Some(ns) = ns.as_deref().filter(|ns| self.preexisting.contains(*ns)) {
            self.record(&["nsobj", o.api_version(), o.kind(), ns, &name])?;
        } else if caps.scope == Scope::Cluster && !existed {
            let fixture = o.kind() == "CustomResourceDefinition"
                && o.value
                    .pointer("/metadata/annotations")
                    .and_then(|a| a.get(SOURCE_ANNOTATION))
                    .and_then(Value::as_str)
                    == Some("fixtures");
            if fixture {
                self.record(&["fixture-crd", &name])?;
            } else {
                self.record(&["obj", o.api_version(), o.kind(), &name])?;
            }
        }
        if let Some(uid) = &created.metadata.uid {
            self.uids.insert(
                (
                    o.kind().to_string(),
                    ns.clone().unwrap_or_default(),
                    name.clone(),
                ),
                uid.clone(),
            );
        }
        Ok(created)
    }

    /// Merge-patches the bundle's `status` through the status subresource. Returns whether it did.
    async fn patch_status(
        &mut self,
        o: &BundleObject,
        created: &DynamicObject,
    ) -> Result<bool, String> {
        let Some(status) = o
            .value
            .get("status")
            .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))
        else {
            return Ok(false);
        };
        let (ar, caps) = self.resolve(o.api_version(), o.kind()).await?;
        if !caps
            .subresources
            .iter()
            .any(|(sr, _)| sr.plural == "status")
        {
            return Ok(false);
        }
        let mut status = status.clone();
        if let Some(by) = self.shift {
            crate::times::shift(&mut status, by);
        }
        if o.kind() == "Pod" {
            pod_status_fixups(&mut status);
        }
        let ns = created.metadata.namespace.clone();
        let api = self.api_for(&ar, &caps, ns.as_deref());
        api.patch_status(
            o.name(),
            &PatchParams::default(),
            &Patch::Merge(json!({ "status": status })),
        )
        .await
        .map_err(|e| {
            err(
                format!("{}: patch status of {}", o.file.display(), o.describe()),
                e,
            )
        })?;
        Ok(true)
    }

    async fn ensure_service_account(&mut self, ns: &str, name: &str) -> Result<(), String> {
        let api: Api<k8s_openapi::api::core::v1::ServiceAccount> =
            Api::namespaced(self.client.clone(), ns);
        let sa = serde_json::from_value(json!({"metadata": {"name": name, "namespace": ns}}))
            .map_err(|e| e.to_string())?;
        match api.create(&PostParams::default(), &sa).await {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(s)) if s.code == 409 => Ok(()),
            Err(e) => Err(err(format!("create ServiceAccount {ns}/{name}"), e)),
        }
    }

    /// Pods that ran get a node: the one the bundle names (made to point at the fake kubelet),
    /// else the harness's fake Node. Pods that never got scheduled stay unbound.
    async fn bind_pod(&mut self, o: &mut BundleObject) -> Result<(), String> {
        let named = o
            .value
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        let node = match named {
            Some(n) => n,
            None if was_scheduled(o.value.get("status")) => self.opts.node.clone(),
            None => return Ok(()),
        };
        self.ensure_node(&node).await?;
        if let Some(spec) = o.value.get_mut("spec").and_then(Value::as_object_mut) {
            spec.insert("nodeName".into(), json!(node));
        }
        Ok(())
    }

    async fn ensure_node(&mut self, name: &str) -> Result<(), String> {
        let api: Api<Node> = Api::all(self.client.clone());
        if self.kubelet_endpoint.is_none() {
            let harness = api
                .get(&self.opts.node)
                .await
                .map_err(|e| err(format!("read the harness Node {}", self.opts.node), e))?;
            let v = serde_json::to_value(&harness).map_err(|e| e.to_string())?;
            self.kubelet_endpoint = v.pointer("/status/daemonEndpoints").cloned();
        }
        if api
            .get_opt(name)
            .await
            .map_err(|e| err("read Node", e))?
            .is_some()
        {
            return Ok(());
        }
        let node: Node = serde_json::from_value(json!({
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {
                "addresses": [{"type": "InternalIP", "address": "127.0.0.1"}, {"type": "Hostname", "address": name}],
                "daemonEndpoints": self.kubelet_endpoint.clone().unwrap_or(json!({})),
            }
        }))
        .map_err(|e| e.to_string())?;
        match api.create(&PostParams::default(), &node).await {
            Ok(_) => self.record(&["obj", "v1", "Node", name]),
            Err(kube::Error::Api(s)) if s.code == 409 => Ok(()),
            Err(e) => Err(err(format!("create Node {name}"), e)),
        }
    }

    fn fill_involved_uid(&self, o: &mut BundleObject) {
        let event_ns = o.namespace().unwrap_or("default").to_string();
        for field in ["involvedObject", "regarding"] {
            let Some(obj) = o.value.get_mut(field).and_then(Value::as_object_mut) else {
                continue;
            };
            let kind = obj
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let name = obj
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let ns = obj
                .get("namespace")
                .and_then(Value::as_str)
                .map(str::to_string);
            let uid = self
                .uids
                .get(&(kind.clone(), ns.clone().unwrap_or_default(), name.clone()))
                .or_else(|| self.uids.get(&(kind, ns.unwrap_or(event_ns.clone()), name)));
            if let Some(uid) = uid {
                obj.insert("uid".into(), json!(uid));
            }
        }
    }

    async fn install_fixture_crds(&mut self) -> Result<(), String> {
        let dir = self
            .opts
            .crds_dir
            .clone()
            .ok_or("the bundle has flink.apache.org objects and no CRDs; pass --crds DIR (the repository's src/lint/crds)")?;
        let api: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        let mut names = Vec::new();
        for file in sorted_dir(&dir)? {
            if !matches!(
                file.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) {
                continue;
            }
            let text = fs::read_to_string(&file)
                .map_err(|e| err(format!("read {}", file.display()), e))?;
            for mut crd in
                parse_documents(&text).map_err(|e| err(format!("parse {}", file.display()), e))?
            {
                if crd.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
                    continue;
                }
                let name = crd
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let existing = api.get_opt(&name).await.map_err(|e| err("read CRD", e))?;
                let current = existing
                    .as_ref()
                    .and_then(|c| c.metadata.annotations.as_ref())
                    .and_then(|a| a.get(SOURCE_ANNOTATION))
                    .is_some_and(|s| s == "fixtures");
                if !current {
                    annotate(&mut crd, SOURCE_ANNOTATION, "fixtures");
                    let o = BundleObject {
                        value: crd,
                        file: file.clone(),
                    };
                    self.apply(&o).await?;
                }
                names.push(name);
            }
        }
        for name in names {
            self.wait_established(&name).await?;
        }
        Ok(())
    }

    /// A permissive CRD for any custom kind the cluster does not serve and nothing else defines,
    /// so bundles of other operators' resources (Lyft's FlinkApplication, ...) still load.
    async fn stand_in_crds(&mut self, objects: &[BundleObject]) -> Result<(), String> {
        let mut wanted: BTreeMap<(String, String, String), bool> = BTreeMap::new();
        for o in objects.iter().filter(|o| phase(o) == Phase::CustomResource) {
            let version = o
                .api_version()
                .split_once('/')
                .map(|(_, v)| v)
                .unwrap_or("v1");
            wanted
                .entry((
                    o.group().to_string(),
                    version.to_string(),
                    o.kind().to_string(),
                ))
                .or_insert(o.namespace().is_some());
        }
        if wanted.is_empty() {
            return Ok(());
        }
        // Defined already (by the bundle, the fixtures or an earlier seed), even if discovery has
        // not caught up yet: never replace a real CRD with a stand-in.
        let crds: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        let defined: BTreeSet<(String, String)> = crds
            .list(&ListParams::default())
            .await
            .map_err(|e| err("list CRDs", e))?
            .items
            .into_iter()
            .map(|c| (c.spec.group, c.spec.names.kind))
            .collect();
        for ((group, version, kind), namespaced) in wanted {
            if defined.contains(&(group.clone(), kind.clone())) {
                continue;
            }
            let plural = format!("{}s", kind.to_lowercase());
            let name = format!("{plural}.{group}");
            eprintln!("seed: no CRD serves {kind} ({group}/{version}); creating a permissive stand-in {name}");
            let crd = json!({
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": name, "annotations": {
                    SOURCE_ANNOTATION: "stand-in",
                    // Groups under k8s.io and kubernetes.io (Lyft's flink.k8s.io) are protected.
                    "api-approved.kubernetes.io": "unapproved, a kubectl-flink test stand-in",
                }},
                "spec": {
                    "group": group,
                    "names": {"kind": kind, "plural": plural, "singular": kind.to_lowercase(), "listKind": format!("{kind}List")},
                    "scope": if namespaced { "Namespaced" } else { "Cluster" },
                    "versions": [{
                        "name": version, "served": true, "storage": true,
                        "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                        "subresources": {"status": {}}
                    }]
                }
            });
            let o = BundleObject {
                value: crd,
                file: PathBuf::from("(stand-in)"),
            };
            self.apply(&o).await?;
            self.wait_established(&name).await?;
        }
        Ok(())
    }

    async fn wait_established(&self, name: &str) -> Result<(), String> {
        let api: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let crd = api
                .get(name)
                .await
                .map_err(|e| err(format!("read CRD {name}"), e))?;
            let established = crd
                .status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .is_some_and(|cs| {
                    cs.iter()
                        .any(|c| c.type_ == "Established" && c.status == "True")
                });
            if established {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("CRD {name} not Established after 60s"));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Appends one line to the record file: `ns NAME`, `obj API_VERSION KIND NAME` or
    /// `fixture-crd NAME`, tab-separated.
    fn record(&self, fields: &[&str]) -> Result<(), String> {
        let Some(path) = &self.opts.record else {
            return Ok(());
        };
        use std::io::Write;
        let mut f = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| err(format!("open {}", path.display()), e))?;
        writeln!(f, "{}", fields.join("\t"))
            .map_err(|e| err(format!("write {}", path.display()), e))
    }

    /// Removes what earlier seeds recorded, so the next bundle meets a cluster as fresh as the
    /// harness left it: namespaces are emptied (every namespaced kind), deleted and finalized (no
    /// namespace controller runs to do it), cluster-scoped objects deleted, the fake kubelet's logs
    /// of those namespaces removed. The real Flink CRDs stay when the next bundle wants them too
    /// (recreating them costs the API server seconds of CPU).
    async fn reset(&mut self, keep_fixtures: bool) -> Result<(), String> {
        let Some(path) = self.opts.record.clone() else {
            return Err("--reset needs --record (or KUBE_HARNESS_SEED_RECORD)".into());
        };
        let text = fs::read_to_string(&path).unwrap_or_default();
        let mut namespaces = BTreeSet::new();
        let mut objects = BTreeSet::new();
        let mut fixtures = BTreeSet::new();
        let mut in_existing = BTreeSet::new();
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            match f.as_slice() {
                ["ns", name] => {
                    namespaces.insert(name.to_string());
                }
                ["obj", api_version, kind, name] => {
                    objects.insert((api_version.to_string(), kind.to_string(), name.to_string()));
                }
                ["fixture-crd", name] => {
                    fixtures.insert(name.to_string());
                }
                ["nsobj", api_version, kind, ns, name] => {
                    in_existing.insert((
                        api_version.to_string(),
                        kind.to_string(),
                        ns.to_string(),
                        name.to_string(),
                    ));
                }
                _ => {}
            }
        }
        if namespaces.is_empty()
            && objects.is_empty()
            && in_existing.is_empty()
            && (keep_fixtures || fixtures.is_empty())
        {
            return Ok(());
        }
        let start = Instant::now();
        let discovery = kube::discovery::Discovery::new(self.client.clone())
            .run()
            .await
            .map_err(|e| err("discover the API", e))?;
        let mut resources = Vec::new();
        for group in discovery.groups() {
            for (ar, caps) in group.recommended_resources() {
                if caps.scope == Scope::Namespaced
                    && caps.supports_operation("deletecollection")
                    && caps.supports_operation("list")
                {
                    resources.push(ar);
                }
            }
        }
        let ns_api: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(self.client.clone());
        for ns in &namespaces {
            if ns_api
                .get_opt(ns)
                .await
                .map_err(|e| err("read Namespace", e))?
                .is_none()
            {
                continue;
            }
            for ar in &resources {
                let api: Api<DynamicObject> = Api::namespaced_with(self.client.clone(), ns, ar);
                let dp = DeleteParams {
                    grace_period_seconds: Some(0),
                    ..DeleteParams::default()
                };
                match api.delete_collection(&dp, &ListParams::default()).await {
                    Ok(_) => {}
                    Err(kube::Error::Api(s)) if matches!(s.code, 404 | 405) => continue,
                    Err(e) => {
                        return Err(err(
                            format!("empty namespace {ns}: delete {}", ar.plural),
                            e,
                        ))
                    }
                }
                // Finalizers (no controller will remove them) keep objects around: drop them.
                let left = api
                    .list(&ListParams::default())
                    .await
                    .map_err(|e| err("list", e))?;
                for obj in left.items {
                    if obj
                        .metadata
                        .finalizers
                        .as_ref()
                        .is_some_and(|f| !f.is_empty())
                    {
                        let name = obj.metadata.name.clone().unwrap_or_default();
                        let _ = api
                            .patch(
                                &name,
                                &PatchParams::default(),
                                &Patch::Merge(json!({"metadata": {"finalizers": null}})),
                            )
                            .await;
                    }
                }
            }
            if !matches!(
                ns.as_str(),
                "default" | "kube-system" | "kube-public" | "kube-node-lease"
            ) {
                match ns_api.delete(ns, &DeleteParams::default()).await {
                    Ok(_) => {}
                    Err(kube::Error::Api(s)) if s.code == 404 => {}
                    Err(e) => return Err(err(format!("delete namespace {ns}"), e)),
                }
                // What the namespace controller would do once the namespace is empty.
                let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}, "spec": {"finalizers": []}});
                match ns_api
                    .replace_subresource("finalize", ns, &PostParams::default(), &body)
                    .await
                {
                    Ok(_) => {}
                    Err(kube::Error::Api(s)) if s.code == 404 => {}
                    Err(e) => return Err(err(format!("finalize namespace {ns}"), e)),
                }
                self.wait_gone(&ns_api, ns).await?;
            }
            if let Some(root) = &self.opts.log_root {
                let _ = fs::remove_dir_all(root.join(ns));
            }
        }
        // Objects seeded into namespaces that were there before (`default`, ...), one by one.
        for (api_version, kind, ns, name) in &in_existing {
            let Ok((ar, caps)) = self.resolve(api_version, kind).await else {
                continue;
            };
            let api = self.api_for(&ar, &caps, Some(ns));
            let dp = DeleteParams {
                grace_period_seconds: Some(0),
                ..DeleteParams::default()
            };
            match api.delete(name, &dp).await {
                Ok(_) => {}
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => return Err(err(format!("delete {kind} {ns}/{name}"), e)),
            }
        }
        let crd_api: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        for (api_version, kind, name) in &objects {
            if kind == "Node" && name == &self.opts.node {
                continue;
            }
            let Ok((ar, caps)) = self.resolve(api_version, kind).await else {
                continue;
            };
            let api = self.api_for(&ar, &caps, None);
            match api.delete(name, &DeleteParams::default()).await {
                Ok(_) => {}
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => return Err(err(format!("delete {kind} {name}"), e)),
            }
            if kind == "CustomResourceDefinition" {
                self.wait_gone(&crd_api, name).await?;
            }
        }
        if !keep_fixtures {
            for name in &fixtures {
                match crd_api.delete(name, &DeleteParams::default()).await {
                    Ok(_) => {}
                    Err(kube::Error::Api(s)) if s.code == 404 => {}
                    Err(e) => return Err(err(format!("delete CRD {name}"), e)),
                }
                self.wait_gone(&crd_api, name).await?;
            }
        }
        // Kinds may have come and gone with the CRDs.
        self.kinds.clear();
        self.uids.clear();
        let kept: String = if keep_fixtures {
            fixtures
                .iter()
                .map(|n| format!("fixture-crd\t{n}\n"))
                .collect()
        } else {
            String::new()
        };
        fs::write(&path, kept).map_err(|e| err(format!("write {}", path.display()), e))?;
        eprintln!(
            "seed: reset {} namespace(s), {} object(s) in others and {} cluster-scoped object(s) in {:.1}s",
            namespaces.len(),
            in_existing.len(),
            objects.len() + if keep_fixtures { 0 } else { fixtures.len() },
            start.elapsed().as_secs_f64()
        );
        Ok(())
    }

    async fn wait_gone<K>(&self, api: &Api<K>, name: &str) -> Result<(), String>
    where
        K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
    {
        let deadline = Instant::now() + Duration::from_secs(60);
        while api
            .get_opt(name)
            .await
            .map_err(|e| err(format!("read {name}"), e))?
            .is_some()
        {
            if Instant::now() > deadline {
                return Err(format!("{name} still exists 60s after its deletion"));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Ok(())
    }
}

fn annotate(v: &mut Value, key: &str, value: &str) {
    let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let ann = meta.entry("annotations").or_insert_with(|| json!({}));
    if !ann.is_object() {
        *ann = json!({});
    }
    if let Some(a) = ann.as_object_mut() {
        a.insert(key.into(), json!(value));
    }
}

/// Strips what the server owns, leaves `status` for the status subresource, and points
/// ownerReferences at the uids of the owners just created.
fn prepare(body: &mut Value, uids: &Uids) {
    if let Some(o) = body.as_object_mut() {
        o.remove("status");
    }
    let ns = body
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(meta) = body.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    for k in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "managedFields",
        "selfLink",
        "generation",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        meta.remove(k);
    }
    if let Some(refs) = meta
        .get_mut("ownerReferences")
        .and_then(Value::as_array_mut)
    {
        for r in refs.iter_mut().filter_map(Value::as_object_mut) {
            let kind = r
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let name = r
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let uid = uids
                .get(&(kind.clone(), ns.clone(), name.clone()))
                .or_else(|| uids.get(&(kind, String::new(), name)));
            if let Some(uid) = uid {
                r.insert("uid".into(), json!(uid));
            }
        }
    }
}

/// Adds the keys a Secret's type requires and the Secret lacks (empty, or `{}` for registry
/// credentials); returns their names.
fn fill_required_secret_keys(secret: &mut Value) -> Vec<String> {
    let required: &[(&str, &str)] = match secret.get("type").and_then(Value::as_str) {
        Some("kubernetes.io/tls") => &[("tls.crt", ""), ("tls.key", "")],
        Some("kubernetes.io/dockerconfigjson") => &[(".dockerconfigjson", "e30=")],
        Some("kubernetes.io/dockercfg") => &[(".dockercfg", "e30=")],
        Some("kubernetes.io/ssh-auth") => &[("ssh-privatekey", "")],
        Some("kubernetes.io/basic-auth") => &[("username", "")],
        _ => &[],
    };
    let Some(obj) = secret.as_object_mut() else {
        return Vec::new();
    };
    let has = |obj: &Map<String, Value>, k: &str| {
        ["data", "stringData"]
            .iter()
            .any(|f| obj.get(*f).and_then(|d| d.get(k)).is_some())
    };
    let mut filled = Vec::new();
    for (key, value) in required {
        if !has(obj, key) {
            let data = obj.entry("data").or_insert_with(|| json!({}));
            if let Some(d) = data.as_object_mut() {
                d.insert(key.to_string(), json!(value));
                filled.push(key.to_string());
            }
        }
    }
    filled
}

/// Whether a pod's status says it got as far as a node.
fn was_scheduled(status: Option<&Value>) -> bool {
    let Some(s) = status else { return false };
    let nonempty = |k: &str| {
        s.get(k)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    let phase = s.get("phase").and_then(Value::as_str).unwrap_or("");
    let scheduled = s
        .get("conditions")
        .and_then(Value::as_array)
        .is_some_and(|cs| {
            cs.iter().any(|c| {
                c.get("type").and_then(Value::as_str) == Some("PodScheduled")
                    && c.get("status").and_then(Value::as_str) == Some("True")
            })
        });
    nonempty("containerStatuses")
        || nonempty("initContainerStatuses")
        || s.get("hostIP")
            .and_then(Value::as_str)
            .is_some_and(|h| !h.is_empty())
        || matches!(phase, "Running" | "Succeeded" | "Failed")
        || scheduled
}

/// The API server's pod status validation (kubernetes `pkg/apis/core/validation`): `qosClass` is immutable (the server
/// computed it at create), and `podIPs`/`hostIPs` must start with `podIP`/`hostIP`.
fn pod_status_fixups(status: &mut Value) {
    let Some(s) = status.as_object_mut() else {
        return;
    };
    s.remove("qosClass");
    for (one, many) in [("podIP", "podIPs"), ("hostIP", "hostIPs")] {
        let Some(ip) = s.get(one).and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let list_ok = s
            .get(many)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(|f| f.get("ip"))
            .and_then(Value::as_str)
            == Some(ip.as_str());
        if !list_ok {
            let mut m = Map::new();
            m.insert("ip".into(), json!(ip));
            s.insert(many.into(), json!([Value::Object(m)]));
        }
    }
}

/// Connects as the kubeconfig in $KUBECONFIG (or --kubeconfig) says.
pub fn connect(kubeconfig: Option<&Path>) -> BoxFuture<'static, Result<Client, String>> {
    let path = kubeconfig.map(Path::to_path_buf);
    Box::pin(async move {
        let config = match path {
            Some(p) => {
                let kc = kube::config::Kubeconfig::read_from(&p)
                    .map_err(|e| err(format!("read {}", p.display()), e))?;
                kube::Config::from_custom_kubeconfig(
                    kc,
                    &kube::config::KubeConfigOptions::default(),
                )
                .await
                .map_err(|e| err("load kubeconfig", e))?
            }
            None => kube::Config::infer()
                .await
                .map_err(|e| err("load kubeconfig", e))?,
        };
        Client::try_from(config).map_err(|e| err("build client", e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Value) -> BundleObject {
        BundleObject {
            value: v,
            file: PathBuf::from("t.yaml"),
        }
    }

    #[test]
    fn phases_put_owners_first() {
        let mut v = [
            obj(json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}})),
            obj(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}})),
            obj(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}})),
            obj(
                json!({"apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment", "metadata": {"name": "f"}}),
            ),
            obj(json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q"}})),
            obj(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n"}})),
        ];
        v.sort_by_key(phase);
        let kinds: Vec<&str> = v.iter().map(|o| o.kind()).collect();
        assert_eq!(
            kinds,
            [
                "Namespace",
                "FlinkDeployment",
                "Deployment",
                "Pod",
                "Event",
                "ResourceQuota"
            ]
        );
    }

    #[test]
    fn kinds_kubectl_flink_reads_are_scoped_by_their_description_and_all_seeded() {
        let b = Bundle {
            objects: vec![
                obj(
                    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}}),
                ),
                obj(
                    json!({"apiVersion": "cert-manager.io/v1", "kind": "ClusterIssuer", "metadata": {"name": "i"}}),
                ),
                obj(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}})),
                obj(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}})),
            ],
            logs: vec![],
        };
        assert_eq!(
            namespaces_of(&b).into_iter().collect::<Vec<_>>(),
            ["default"]
        );
        for field in kubectl_flink::snapshot::kinds::FIELDS {
            for k in field.kinds {
                let o = obj(
                    json!({"apiVersion": k.api_version, "kind": k.kind, "metadata": {"name": "x"}}),
                );
                // Nodes are the harness's own: every node a pod names is made to point at the
                // fake kubelet (ensure_node), so a bundle's Node would break its pods' logs.
                if k.kind != "Node" {
                    assert_ne!(phase(&o), Phase::Skip, "{k:?}");
                }
                assert_eq!(cluster_scoped(k.kind), !k.namespaced, "{k:?}");
            }
        }
    }

    #[test]
    fn server_fields_stripped_and_owners_relinked() {
        let mut uids = Uids::new();
        uids.insert(
            ("FlinkDeployment".into(), "a".into(), "f".into()),
            "new-uid".into(),
        );
        let mut v = json!({
            "kind": "Deployment",
            "metadata": {"name": "d", "namespace": "a", "uid": "x", "resourceVersion": "1",
                "creationTimestamp": "2026-01-01T00:00:00Z", "managedFields": [],
                "ownerReferences": [{"kind": "FlinkDeployment", "name": "f", "uid": "old"}]},
            "status": {"replicas": 1}
        });
        prepare(&mut v, &uids);
        assert_eq!(
            v,
            json!({"kind": "Deployment", "metadata": {"name": "d", "namespace": "a",
                "ownerReferences": [{"kind": "FlinkDeployment", "name": "f", "uid": "new-uid"}]}})
        );
    }

    #[test]
    fn pod_status_rules() {
        let mut s = json!({"qosClass": "Guaranteed", "podIP": "10.0.0.7", "hostIP": "127.0.0.1",
            "hostIPs": [{"ip": "127.0.0.1"}]});
        pod_status_fixups(&mut s);
        assert_eq!(
            s,
            json!({"podIP": "10.0.0.7", "podIPs": [{"ip": "10.0.0.7"}], "hostIP": "127.0.0.1",
                "hostIPs": [{"ip": "127.0.0.1"}]})
        );
        assert!(was_scheduled(Some(&json!({"phase": "Running"}))));
        assert!(!was_scheduled(Some(&json!({"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}))));
        assert!(!was_scheduled(None));
    }

    #[test]
    fn saved_secrets_get_the_keys_their_type_requires() {
        let mut tls =
            json!({"kind": "Secret", "type": "kubernetes.io/tls", "data": {"tls.crt": "eA=="}});
        assert_eq!(fill_required_secret_keys(&mut tls), ["tls.key"]);
        assert_eq!(tls["data"], json!({"tls.crt": "eA==", "tls.key": ""}));
        let mut opaque = json!({"kind": "Secret", "type": "Opaque"});
        assert!(fill_required_secret_keys(&mut opaque).is_empty());
    }

    #[test]
    fn canonical_bundle_namespaces() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/canonical");
        let b = read_bundle(&dir).unwrap();
        assert_eq!(
            namespaces_of(&b).into_iter().collect::<Vec<_>>(),
            ["analytics"]
        );
        assert_eq!(b.logs.len(), 2);
        assert!(b.objects.iter().any(|o| o.kind() == "FlinkDeployment"));
        assert!(b.objects.iter().filter(|o| o.kind() == "Event").count() >= 3);
    }
}

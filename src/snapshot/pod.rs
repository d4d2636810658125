//! The pod as the diagnosis keeps it: the fields the rules read, with Kubernetes' names and
//! nesting (`metadata`, `spec.containers`, `status.containerStatuses[].lastState.terminated`), so
//! rule code reads it as it would read k8s-openapi's `Pod`. Every other field (probes, volumes,
//! security contexts, `managedFields`, ...) is skipped while decoding, never held: k8s-openapi's
//! `Pod` took about 8 KB per pod in memory even when those fields were empty, which made a
//! `kind: List` of 100,000 pods cost 14 times its file. Where k8s-openapi's types for the fields
//! kept still cost far more than what they hold, this file has its own: a container's resource
//! lists ([`Quantities`], not a `BTreeMap`, whose one tree node is 544 bytes for two entries) and
//! the pod's conditions ([`PodCondition`], without the timestamps no rule reads) and its metadata
//! ([`PodMeta`], not `ObjectMeta`).
//!
//! The live gather decodes the API's pod lists straight into this type (`kinds::FIELDS`' pages),
//! and the bundle reader decodes each item of a list into it. `doctor --save` writes it back as a
//! valid `v1 Pod` holding these fields only.

pub use super::text::Text;
use crate::flink::labels::LabelMap;
use k8s_openapi::api::core::v1::{ContainerStateRunning, LocalObjectReference};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// A `v1 Pod`, slim. Unknown fields are ignored when decoding.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: PodMeta,
    #[serde(default)]
    pub spec: Option<PodSpec>,
    #[serde(default)]
    pub status: Option<PodStatus>,
}

/// A pod's `metadata`: what the rules read of it (names, labels, annotations, owners, times), with
/// k8s-openapi's field names and types, so `pod.metadata.name` reads as it would on `ObjectMeta`.
/// Not `ObjectMeta` itself: its sixteen fields cost every pod their room even when empty, and
/// `managedFields`, `uid`, `resourceVersion`, `generateName`, `selfLink`, `generation` and
/// `finalizers`, which no rule reads, are skipped while decoding instead of read and dropped.
/// Written back in `ObjectMeta`'s field order (alphabetical), as k8s-openapi writes it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<StringMap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<StringMap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_references: Option<Vec<OwnerReference>>,
}

/// An owner reference, as k8s-openapi's (same fields, names and order; a missing required field
/// reads as empty, as there), its `apiVersion` and `kind` shared words ([`Text`]) when they name what
/// owns Flink's pods ([`OWNER_WORDS`]): a ReplicaSet or Deployment of `apps/v1`, a Job, a
/// StatefulSet, a Flink resource.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    #[serde(default)]
    pub api_version: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(default)]
    pub kind: Text,
    #[serde(default)]
    pub name: Text,
    #[serde(default)]
    pub uid: Text,
}

const OWNER_WORDS: &[&str] = &[
    "apps/v1",
    "batch/v1",
    "v1",
    "flink.apache.org/v1beta1",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "Job",
    "FlinkDeployment",
    "FlinkSessionJob",
];

/// What the index reads of an object's metadata, the same of k8s-openapi's `ObjectMeta` and of
/// a pod's [`PodMeta`]: one function tells a cluster's objects apart for both.
pub trait Meta {
    /// How the object keeps its labels.
    type Labels: LabelMap;
    fn object_name(&self) -> Option<&str>;
    fn object_namespace(&self) -> Option<&str>;
    fn object_labels(&self) -> Option<&Self::Labels>;
}

// The same fields under the same names in both types.
macro_rules! meta_of_fields {
    ($($t:ty => $labels:ty),*) => {$(
        impl Meta for $t {
            type Labels = $labels;
            fn object_name(&self) -> Option<&str> {
                self.name.as_deref()
            }
            fn object_namespace(&self) -> Option<&str> {
                self.namespace.as_deref()
            }
            fn object_labels(&self) -> Option<&$labels> {
                self.labels.as_ref()
            }
        }
    )*};
}
meta_of_fields!(ObjectMeta => BTreeMap<String, String>, PodMeta => StringMap);

/// `null` as the empty list, as the API server reads it.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

impl Serialize for Pod {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let fields = 3 + usize::from(self.spec.is_some()) + usize::from(self.status.is_some());
        let mut st = s.serialize_struct("Pod", fields)?;
        st.serialize_field("apiVersion", "v1")?;
        st.serialize_field("kind", "Pod")?;
        st.serialize_field("metadata", &self.metadata)?;
        if let Some(spec) = &self.spec {
            st.serialize_field("spec", spec)?;
        }
        if let Some(status) = &self.status {
            st.serialize_field("status", status)?;
        }
        st.end()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, deserialize_with = "null_as_default")]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_containers: Option<Vec<Container>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<Text>,
    /// The deprecated alias of `serviceAccountName`, which older manifests still set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_secrets: Option<Vec<LocalObjectReference>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<StringMap>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default)]
    pub name: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
}

/// A container's `resources`: its `limits` and `requests`. Not k8s-openapi's
/// `ResourceRequirements`, whose `BTreeMap`s cost a 544-byte tree node each however few entries
/// they hold (two or three): at 100,000 pods that was 110 MB of the snapshot.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct Resources {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Quantities>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<Quantities>,
}

/// A resource list (`cpu: 1, memory: 2Gi`) as a short list sorted by name, read and written as
/// the map Kubernetes has: the same order and lookups as a `BTreeMap`, in the space of its entries.
/// Its names `cpu`, `memory` and `ephemeral-storage` are words every pod shares ([`Text`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Quantities(Vec<(Text, Quantity)>);

/// The resource names of every container (core/v1 `ResourceName`).
const RESOURCE_WORDS: &[&str] = &["cpu", "memory", "ephemeral-storage"];

impl Quantities {
    pub fn get(&self, name: &str) -> Option<&Quantity> {
        self.0
            .binary_search_by(|(k, _)| k.as_ref().cmp(name))
            .ok()
            .map(|i| &self.0[i].1)
    }
    /// Name and quantity, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Quantity)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(String, Quantity)> for Quantities {
    /// As a map reads them: sorted by name, the last of a repeated name kept.
    fn from_iter<I: IntoIterator<Item = (String, Quantity)>>(items: I) -> Self {
        Quantities(sorted_last_kept(
            items.into_iter().map(|(k, q)| (Text::from(k), q)).collect(),
        ))
    }
}

impl<'de> Deserialize<'de> for Quantities {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Quantities;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of resource quantities")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Quantities, A::Error> {
                let mut v = Vec::new();
                while let Some((k, q)) = map.next_entry::<Text, Quantity>()? {
                    v.push((k, q));
                }
                Ok(Quantities(sorted_last_kept(v)))
            }
        }
        d.deserialize_map(Entries)
    }
}

impl Serialize for Quantities {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

/// Labels, annotations or a node selector: a short list of pairs sorted by key, read and written
/// as the map Kubernetes has, with a `BTreeMap`'s lookups and order. Not a `BTreeMap`: its one
/// tree node is 544 bytes however few entries it holds (a pod has three labels or so), which at
/// 100,000 pods was 54 MB of the snapshot; this costs the entries only. The keys and values Flink
/// and its operators write on every pod ([`crate::flink::names::LABEL_WORDS`]: `app`, `component: taskmanager`,
/// `type: flink-native-kubernetes`) are words every pod shares ([`Text`]), not a copy per pod (five small
/// allocations of every pod, about 20 MB at 100,000 pods with the allocator's own room).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StringMap(Vec<(Text, Text)>);

impl StringMap {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .binary_search_by(|(k, _)| k.as_ref().cmp(key))
            .ok()
            .map(|i| self.0[i].1.as_ref())
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// Sets `key`, returning the value it had.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        let value = Text::from(value);
        match self
            .0
            .binary_search_by(|(k, _)| k.as_ref().cmp(key.as_str()))
        {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value).into()),
            Err(i) => {
                self.0.insert(i, (Text::from(key), value));
                None
            }
        }
    }
    /// Key and value, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_ref())
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl LabelMap for StringMap {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key)
    }
    fn label_pairs(&self) -> Box<dyn Iterator<Item = (&str, &str)> + '_> {
        Box::new(self.iter())
    }
}

impl<'a> IntoIterator for &'a StringMap {
    type Item = (&'a str, &'a str);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Text, Text)>,
        fn(&'a (Text, Text)) -> (&'a str, &'a str),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }
}

impl FromIterator<(String, String)> for StringMap {
    /// As a map reads them: sorted by key, the last of a repeated key kept.
    fn from_iter<I: IntoIterator<Item = (String, String)>>(items: I) -> Self {
        StringMap(sorted_last_kept(
            items
                .into_iter()
                .map(|(k, v)| (Text::from(k), Text::from(v)))
                .collect(),
        ))
    }
}

impl From<BTreeMap<String, String>> for StringMap {
    fn from(m: BTreeMap<String, String>) -> Self {
        let mut v: Vec<_> = m
            .into_iter()
            .map(|(k, v)| (Text::from(k), Text::from(v)))
            .collect();
        v.shrink_to_fit();
        StringMap(v)
    }
}

/// Pairs sorted by key, of a repeated key the last kept (as a map keeps it), in the room of the
/// entries only.
fn sorted_last_kept<K: Ord, V>(mut v: Vec<(K, V)>) -> Vec<(K, V)> {
    // Stable: of entries with one key, the last stays last, and is the one kept.
    v.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(K, V)> = Vec::with_capacity(v.len());
    for (k, x) in v {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 = x,
            _ => out.push((k, x)),
        }
    }
    out.shrink_to_fit();
    out
}

impl<'de> Deserialize<'de> for StringMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = StringMap;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of strings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<StringMap, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = map.next_entry::<Text, Text>()? {
                    v.push((k, x));
                }
                Ok(StringMap(sorted_last_kept(v)))
            }
        }
        d.deserialize_map(Entries)
    }
}

impl Serialize for StringMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl Container {
    /// Its `resources.limits.memory`, as written.
    pub fn memory_limit(&self) -> Option<&Quantity> {
        self.resources.as_ref()?.limits.as_ref()?.get("memory")
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<PodCondition>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_statuses: Option<Vec<ContainerStatus>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_container_statuses: Option<Vec<ContainerStatus>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
}

/// A pod condition: its type, status, reason, message and when it last changed (k8s-openapi's
/// also holds the last probe time and an observed generation, which no rule reads). Its type,
/// status and reason are the API's own words as a rule: those ([`POD_CONDITION_WORDS`]) are words every
/// pod shares ([`Text`]), not a copy per pod (two conditions of three words each were 190 bytes of every pod).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct PodCondition {
    #[serde(default, rename = "type")]
    pub type_: Text,
    #[serde(default)]
    pub status: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(
        default,
        rename = "lastTransitionTime",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_transition_time: Option<Time>,
}

/// The words a pod condition's type, status and reason are written with: the condition types,
/// statuses and scheduler's reasons of
/// kubernetes/kubernetes@v1.36.3:staging/src/k8s.io/api/core/v1/types.go and the kubelet's
/// reasons of kubernetes/kubernetes@v1.36.3:pkg/kubelet/status/generate.go. Any other is copied.
const POD_CONDITION_WORDS: &[&str] = &[
    "PodScheduled",
    "PodReadyToStartContainers",
    "Initialized",
    "ContainersReady",
    "Ready",
    "DisruptionTarget",
    "True",
    "False",
    "Unknown",
    "ContainersNotReady",
    "PodCompleted",
    "Unschedulable",
    "SchedulingGated",
    "ContainersNotInitialized",
    "ReadinessGatesNotReady",
];

/// A pod's phase and restart policy, the API's own words
/// (kubernetes/kubernetes@v1.36.3:staging/src/k8s.io/api/core/v1/types.go): words every pod shares.
const POD_WORDS: &[&str] = &[
    "Pending",
    "Running",
    "Succeeded",
    "Failed",
    "Unknown",
    "Always",
    "OnFailure",
    "Never",
];

/// The names Flink's containers have (`flink-main-container`; Lyft's `jobmanager` and
/// `taskmanager`).
const CONTAINER_NAMES: &[&str] = &[
    crate::flink::names::MAIN_CONTAINER,
    crate::flink::names::COMPONENT_JOBMANAGER,
    crate::flink::names::COMPONENT_TASKMANAGER,
];

/// The words of the lists above, which every pod shares (`text::Text`), and the empty text
/// (`imageID: ""` of a container not yet pulled).
pub(super) const WORD_LISTS: &[&[&str]] = &[
    OWNER_WORDS,
    RESOURCE_WORDS,
    POD_CONDITION_WORDS,
    POD_WORDS,
    CONTAINER_NAMES,
    CONTAINER_WORDS,
    &[""],
];

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    #[serde(default)]
    pub name: Text,
    #[serde(default)]
    pub image: Text,
    #[serde(default, rename = "imageID")]
    pub image_id: Text,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub restart_count: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<ContainerState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_state: Option<ContainerState>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    /// Boxed: set on few containers, and seven fields wide (it would double every status).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminated: Option<Box<ContainerStateTerminated>>,
    /// Boxed: a state is one of running, terminated or waiting, and two states of every
    /// container (`state`, `lastState`) held a waiting one's room inline, 48 bytes each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Box<ContainerStateWaiting>>,
}

/// A container's `state.waiting`, as k8s-openapi's, its reason a word every pod shares when it is
/// one of the kubelet's ([`CONTAINER_WORDS`]; `CrashLoopBackOff` on every failing pod).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct ContainerStateWaiting {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Text>,
}

/// A container's `state.terminated`, as k8s-openapi's (same fields, names and order), its reason
/// a word every pod shares when it is one of [`CONTAINER_WORDS`] (`Error`, `OOMKilled`, `Completed`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    #[serde(
        default,
        rename = "containerID",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_id: Option<String>,
    /// 0 when missing, as k8s-openapi reads it.
    #[serde(default)]
    pub exit_code: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Time>,
}

/// The reasons the kubelet and container runtimes give a waiting or terminated container:
/// kubernetes/kubernetes@v1.36.3:pkg/kubelet/container/sync_result.go,
/// pkg/kubelet/images/types.go and pkg/kubelet/kuberuntime/kuberuntime_container.go
/// (`ContainerCreating`, `PodInitializing`), and the runtimes' `Error`, `Completed`,
/// `OOMKilled`, `ContainerCannotRun`, `StartError`. Any other is copied.
const CONTAINER_WORDS: &[&str] = &[
    "CrashLoopBackOff",
    "RunContainerError",
    "CreateContainerConfigError",
    "CreateContainerError",
    "ImagePullBackOff",
    "ErrImagePull",
    "ErrImageNeverPull",
    "InvalidImageName",
    "ImageInspectError",
    "ContainerCreating",
    "PodInitializing",
    "Error",
    "Completed",
    "OOMKilled",
    "ContainerCannotRun",
    "StartError",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A pod as the API server returns it, with fields the diagnosis never reads.
    const FULL: &str = r#"{
      "metadata": {"name": "orders-taskmanager-1-1", "namespace": "shop",
        "uid": "3f2b0001-0c1d-4e5f-8a9b-0123456789ab", "resourceVersion": "100001",
        "generateName": "orders-taskmanager-1-",
        "labels": {"app": "orders", "component": "taskmanager"},
        "annotations": {"flink.apache.org/note": "x"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "orders", "uid": "u1"}],
        "managedFields": [{"manager": "kubelet", "operation": "Update", "fieldsType": "FieldsV1",
          "fieldsV1": {"f:status": {"f:phase": {}}}}]},
      "spec": {
        "serviceAccountName": "flink", "nodeName": "node-1", "restartPolicy": "Never",
        "imagePullSecrets": [{"name": "regcred"}],
        "volumes": [{"name": "conf", "configMap": {"name": "flink-config-orders"}}],
        "initContainers": [{"name": "init", "image": "busybox"}],
        "containers": [{"name": "flink-main-container", "image": "flink:1.20",
          "args": ["taskmanager"], "env": [{"name": "PASSWORD", "value": "hunter2"}],
          "resources": {"limits": {"memory": "2Gi"}},
          "livenessProbe": {"tcpSocket": {"port": 6122}},
          "volumeMounts": [{"name": "conf", "mountPath": "/opt/flink/conf"}]}]},
      "status": {"phase": "Running", "podIP": "10.0.0.7",
        "conditions": [{"type": "Ready", "status": "False"}],
        "containerStatuses": [{"name": "flink-main-container", "image": "flink:1.20",
          "imageID": "sha256:1", "ready": false, "restartCount": 3,
          "state": {"waiting": {"reason": "CrashLoopBackOff"}},
          "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled",
            "finishedAt": "2026-11-28T09:39:13Z"}}}]}
    }"#;

    #[test]
    fn keeps_what_the_rules_read_and_drops_the_rest() {
        let p: Pod = serde_json::from_str(FULL).unwrap();
        assert_eq!(p.metadata.name.as_deref(), Some("orders-taskmanager-1-1"));
        let meta = serde_json::to_value(&p.metadata).unwrap();
        for dropped in ["managedFields", "uid", "resourceVersion", "generateName"] {
            assert!(meta.get(dropped).is_none(), "{dropped} in {meta}");
        }
        assert_eq!(p.metadata.owner_references.as_ref().map(Vec::len), Some(1));
        let spec = p.spec.as_ref().unwrap();
        assert_eq!(spec.service_account_name.as_deref(), Some("flink"));
        assert_eq!(spec.image_pull_secrets.as_ref().unwrap()[0].name, "regcred");
        assert_eq!(spec.init_containers.as_ref().unwrap()[0].name, "init");
        let c = &spec.containers[0];
        assert_eq!(c.args.as_deref(), Some(&["taskmanager".to_string()][..]));
        let limits = c.resources.as_ref().unwrap().limits.as_ref().unwrap();
        assert_eq!(limits.get("memory").map(|q| q.0.as_str()), Some("2Gi"));
        assert_eq!(limits.get("cpu"), None);
        let cs = &p
            .status
            .as_ref()
            .unwrap()
            .container_statuses
            .as_ref()
            .unwrap()[0];
        assert_eq!(cs.restart_count, 3);
        let last = cs.last_state.as_ref().unwrap().terminated.as_ref().unwrap();
        assert_eq!(
            (last.exit_code, last.reason.as_deref()),
            (137, Some("OOMKilled"))
        );
        assert_eq!(
            cs.state
                .as_ref()
                .unwrap()
                .waiting
                .as_ref()
                .unwrap()
                .reason
                .as_deref(),
            Some("CrashLoopBackOff")
        );
    }

    #[test]
    fn written_back_it_is_a_valid_v1_pod_without_what_it_dropped() {
        let p: Pod = serde_json::from_str(FULL).unwrap();
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["apiVersion"], "v1");
        assert_eq!(v["kind"], "Pod");
        let text = v.to_string();
        for dropped in [
            "hunter2",
            "managedFields",
            "resourceVersion",
            "livenessProbe",
            "volumes",
            "podIP",
        ] {
            assert!(!text.contains(dropped), "{dropped} in {text}");
        }
        // k8s-openapi's own Pod (what `kubectl apply` validates against) reads it, and so do we,
        // to the same pod.
        let full: k8s_openapi::api::core::v1::Pod = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(full.metadata.name, p.metadata.name);
        assert_eq!(serde_json::from_value::<Pod>(v).unwrap(), p);
    }

    #[test]
    fn quantities_read_and_write_as_the_map_they_are() {
        // Out of order, and a name twice (a map keeps the last): sorted, the last kept.
        let r: Resources = serde_json::from_str(
            r#"{"requests": {"memory": "1Gi", "cpu": "1", "memory": "2Gi", "ephemeral-storage": "1Gi"}}"#,
        )
        .unwrap();
        let req = r.requests.as_ref().unwrap();
        let listed: Vec<String> = req.iter().map(|(k, v)| format!("{k}={}", v.0)).collect();
        assert_eq!(listed, ["cpu=1", "ephemeral-storage=1Gi", "memory=2Gi"]);
        assert_eq!(req.get("memory").map(|q| q.0.as_str()), Some("2Gi"));
        assert!(req.get("nvidia.com/gpu").is_none() && r.limits.is_none());
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"requests": {"cpu": "1", "ephemeral-storage": "1Gi", "memory": "2Gi"}})
        );
        // k8s-openapi reads what we write.
        let full: k8s_openapi::api::core::v1::ResourceRequirements =
            serde_json::from_value(v).unwrap();
        assert_eq!(full.requests.unwrap().len(), 3);
        assert!(serde_json::from_str::<Resources>(r#"{"limits": {}}"#)
            .unwrap()
            .limits
            .unwrap()
            .is_empty());
    }

    #[test]
    fn string_maps_read_and_write_as_the_map_they_are() {
        // Out of order, and a key twice (a map keeps the last): sorted, the last kept.
        let p: Pod = serde_json::from_str(
            r#"{"metadata": {"labels": {"type": "flink-native-kubernetes", "app": "a", "component": "jobmanager", "app": "orders"}}}"#,
        )
        .unwrap();
        let labels = p.metadata.labels.as_ref().unwrap();
        let listed: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            listed,
            [
                "app=orders",
                "component=jobmanager",
                "type=flink-native-kubernetes"
            ]
        );
        assert_eq!(labels.label("component"), Some("jobmanager"));
        assert!(labels.get("release").is_none() && !labels.has_label("release"));
        let as_map: BTreeMap<String, String> =
            serde_json::from_value(serde_json::to_value(&p.metadata).unwrap()["labels"].clone())
                .unwrap();
        assert_eq!(StringMap::from(as_map.clone()), *labels);
        let pairs: Vec<(&str, &str)> = labels.label_pairs().collect();
        let map_pairs: Vec<(&str, &str)> = as_map.label_pairs().collect();
        assert_eq!(pairs, map_pairs);
        let mut m = labels.clone();
        assert_eq!(
            m.insert("app".into(), "x".into()).as_deref(),
            Some("orders")
        );
        assert_eq!(m.insert("b".into(), "y".into()), None);
        let keys: Vec<&str> = m.keys().collect();
        assert_eq!(keys, ["app", "b", "component", "type"]);
        // `null` is no map, as for k8s-openapi's.
        let p: Pod = serde_json::from_str(r#"{"metadata": {"labels": null}}"#).unwrap();
        assert!(p.metadata.labels.is_none());
    }

    #[test]
    fn condition_words_are_shared_and_others_are_kept() {
        let st: PodStatus = serde_json::from_str(
            r#"{"conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "0/3 nodes"},
                {"type": "example.com/gate", "status": "True", "reason": "SomethingElse"}]}"#,
        )
        .unwrap();
        let c = st.conditions.as_ref().unwrap();
        assert!(c[0].type_ == "PodScheduled" && shared(&c[0].type_));
        assert!(c[0].status == "False" && shared(&c[0].status));
        assert_eq!(c[0].reason.as_deref(), Some("Unschedulable"));
        assert!(c[0].reason.as_ref().is_some_and(shared));
        assert_eq!(
            (c[1].type_.as_ref(), c[1].status.as_ref()),
            ("example.com/gate", "True")
        );
        assert!(!c[1].reason.as_ref().is_some_and(shared));
        // Written back as read, and k8s-openapi reads it.
        let v = serde_json::to_value(&st).unwrap();
        let full: k8s_openapi::api::core::v1::PodStatus = serde_json::from_value(v).unwrap();
        let fc = full.conditions.unwrap();
        assert_eq!(fc[1].type_, "example.com/gate");
        assert_eq!(fc[0].reason.as_deref(), Some("Unschedulable"));
    }

    #[test]
    fn the_words_every_flink_pod_repeats_are_shared_by_every_pod() {
        let p: Pod = serde_json::from_str(FULL).unwrap();
        let labels = p.metadata.labels.as_ref().unwrap();
        assert!(labels.0.iter().all(|(k, _)| shared(k)));
        // `app: orders` is the user's own word: its own text (shared only while a bundle is read).
        assert!(labels.0[0].1 == "orders" && !shared(&labels.0[0].1));
        assert!(labels.0[1].1 == "taskmanager" && shared(&labels.0[1].1));
        let owner = &p.metadata.owner_references.as_ref().unwrap()[0];
        assert!(owner.api_version == "apps/v1" && shared(&owner.api_version));
        assert!(owner.kind == "Deployment" && shared(&owner.kind));
        assert_eq!((owner.name.as_str(), owner.uid.as_str()), ("orders", "u1"));
        assert!(!shared(&owner.uid));
        let spec = p.spec.as_ref().unwrap();
        assert!(spec
            .restart_policy
            .as_ref()
            .is_some_and(|r| r == "Never" && shared(r)));
        assert!(shared(&spec.containers[0].name));
        assert!(!shared(&spec.init_containers.as_ref().unwrap()[0].name));
        let limits = spec.containers[0]
            .resources
            .as_ref()
            .unwrap()
            .limits
            .as_ref()
            .unwrap();
        assert!(limits.0[0].0 == "memory" && shared(&limits.0[0].0));
        let status = p.status.as_ref().unwrap();
        assert!(status
            .phase
            .as_ref()
            .is_some_and(|p| p == "Running" && shared(p)));
        let cs = &status.container_statuses.as_ref().unwrap()[0];
        assert!(shared(&cs.name));
        let waiting = cs.state.as_ref().unwrap().waiting.as_ref().unwrap();
        assert!(waiting
            .reason
            .as_ref()
            .is_some_and(|r| r == "CrashLoopBackOff" && shared(r)));
        let t = cs.last_state.as_ref().unwrap().terminated.as_ref().unwrap();
        assert!(t
            .reason
            .as_ref()
            .is_some_and(|r| r == "OOMKilled" && shared(r)));
        // Any other word is kept as written; a termination without its exit code reads as 0,
        // as k8s-openapi reads it.
        let other: ContainerState = serde_json::from_str(
            r#"{"waiting": {"reason": "SomethingNew", "message": "m"}, "terminated": {"reason": "Custom"}}"#,
        )
        .unwrap();
        assert_eq!(
            other.waiting.unwrap().reason.as_deref(),
            Some("SomethingNew")
        );
        let t = other.terminated.unwrap();
        assert!(!t.reason.as_ref().is_some_and(shared));
        let full: k8s_openapi::api::core::v1::ContainerState =
            serde_json::from_str(r#"{"terminated": {"reason": "Custom"}}"#).unwrap();
        assert_eq!(t.exit_code, full.terminated.unwrap().exit_code);
    }

    /// Whether `t` is the one allocation every pod shares (one of the words), read with no
    /// interning in force.
    fn shared(t: &Text) -> bool {
        t.shares(&Text::new(t))
    }

    #[test]
    fn while_a_bundle_is_read_the_text_pods_repeat_is_held_once() {
        let (a, b) = {
            let _interning = crate::snapshot::text::interning();
            let a: Pod = serde_json::from_str(FULL).unwrap();
            let b: Pod = serde_json::from_value(serde_json::from_str(FULL).unwrap()).unwrap();
            (a, b)
        };
        let ns = |p: &Pod| p.metadata.namespace.clone().unwrap();
        assert!(ns(&a).shares(&ns(&b)));
        let owner = |p: &Pod| p.metadata.owner_references.as_ref().unwrap()[0].clone();
        assert!(owner(&a).uid.shares(&owner(&b).uid));
        let image = |p: &Pod| {
            p.status
                .as_ref()
                .unwrap()
                .container_statuses
                .as_ref()
                .unwrap()[0]
                .image
                .clone()
        };
        assert!(image(&a).shares(&image(&b)));
        assert_eq!(a, b);
        // Without it, each pod has its own.
        let c: Pod = serde_json::from_str(FULL).unwrap();
        assert!(!ns(&c).shares(&ns(&a)) && ns(&c) == ns(&a));
    }

    #[test]
    fn null_and_missing_lists_read_as_empty() {
        let p: Pod =
            serde_json::from_str(r#"{"metadata": null, "spec": {"containers": null}}"#).unwrap();
        assert!(p.spec.unwrap().containers.is_empty());
        let p: Pod = serde_json::from_str(r#"{"metadata": {"name": "x"}}"#).unwrap();
        assert!(p.spec.is_none() && p.status.is_none());
    }

    #[test]
    fn is_far_smaller_than_k8s_openapis_pod() {
        // What one pod costs before any field is set (k8s-openapi's inlines every probe, volume
        // source and security context; this type keeps none).
        let slim = std::mem::size_of::<Pod>() + std::mem::size_of::<Container>();
        let full = std::mem::size_of::<k8s_openapi::api::core::v1::Pod>()
            + std::mem::size_of::<k8s_openapi::api::core::v1::Container>();
        assert!(
            slim * 4 < full,
            "slim {slim} bytes, k8s-openapi {full} bytes"
        );
    }
}

//! The Flink custom resources, typed for the fields the diagnosis reads.
//!
//! Hand-written rather than generated from the 540 KB CRD: the rules read a few dozen fields, and a
//! lenient subset (every field optional, unknown fields ignored) keeps malformed or newer resources
//! readable instead of failing the whole diagnosis. Pod templates keep k8s-openapi's Container type.

use crate::flink::conf::flatten_conf;
use k8s_openapi::api::core::v1::{Container, LocalObjectReference, Toleration};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkDeployment {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: FlinkDeploymentSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FlinkDeploymentStatus>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkDeploymentSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flink_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(
        default,
        deserialize_with = "flat_config",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub flink_configuration: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_template: Option<PodTemplate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager: Option<ComponentSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager: Option<ComponentSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<JobSpec>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComponentSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_template: Option<PodTemplate>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
}

/// `spec.podTemplate` and friends: a Pod, of which only the parts below matter here.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodTemplateSpec>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_pull_secrets: Vec<LocalObjectReference>,
    /// Where a pod's nodeSelector term comes from (FLK106 names the template that sets it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_selector: BTreeMap<String, String>,
    /// The PriorityClass and RuntimeClass the pods name (FLK111 names the template that sets one
    /// that does not exist).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_class_name: Option<String>,
    /// `false` leaves the pods without their ServiceAccount's token (FLK504).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automount_service_account_token: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    #[serde(default, rename = "jarURI", skip_serializing_if = "Option::is_none")]
    pub jar_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_savepoint_path: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkDeploymentStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager_deployment_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle_state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_status: Option<JobStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciliation_status: Option<ReconciliationStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_time: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReconciliationStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciliation_timestamp: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkSessionJob {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: FlinkSessionJobSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FlinkSessionJobStatus>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkSessionJobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<JobSpec>,
    #[serde(
        default,
        deserialize_with = "flat_config",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub flink_configuration: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkSessionJobStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle_state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_status: Option<JobStatus>,
}

/// The Apache operator's FlinkStateSnapshot (operator 1.10 and later): a savepoint or checkpoint
/// of the job that `spec.jobReference` names. The fields are the CRD's
/// (apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/crds/flinkstatesnapshots.flink.apache.org-v1.yml).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkStateSnapshot {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: FlinkStateSnapshotSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FlinkStateSnapshotStatus>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkStateSnapshotSpec {
    /// `{kind: FlinkDeployment|FlinkSessionJob, name}`; without it the snapshot is not attached
    /// to a job (a savepoint recorded with `savepoint.alreadyExists`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_reference: Option<JobReference>,
    /// Present for a savepoint (`path`, `alreadyExists`, ...), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint: Option<serde_json::Value>,
    /// Present for a checkpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobReference {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkStateSnapshotStatus {
    /// `TRIGGER_PENDING`, `IN_PROGRESS`, `COMPLETED`, `FAILED`, `ABANDONED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl FlinkStateSnapshot {
    pub fn name(&self) -> &str {
        self.metadata.name.as_deref().unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("default")
    }
    /// What kind of snapshot it is, as a person says it.
    pub fn what(&self) -> &'static str {
        if self.spec.checkpoint.is_some() {
            "checkpoint"
        } else {
            "savepoint"
        }
    }
}

impl FlinkDeployment {
    pub fn name(&self) -> &str {
        self.metadata.name.as_deref().unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("default")
    }
    /// The pod templates a user can write, with the JSON path each lives at.
    pub fn pod_templates(&self) -> Vec<(&'static str, &PodTemplate)> {
        let mut out = Vec::new();
        if let Some(t) = &self.spec.pod_template {
            out.push(("spec.podTemplate", t));
        }
        if let Some(t) = self
            .spec
            .job_manager
            .as_ref()
            .and_then(|c| c.pod_template.as_ref())
        {
            out.push(("spec.jobManager.podTemplate", t));
        }
        if let Some(t) = self
            .spec
            .task_manager
            .as_ref()
            .and_then(|c| c.pod_template.as_ref())
        {
            out.push(("spec.taskManager.podTemplate", t));
        }
        out
    }
    /// `spec.serviceAccount`, or `default` when unset (what Flink then runs as).
    pub fn service_account(&self) -> &str {
        self.spec
            .service_account
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or("default")
    }
}

impl FlinkSessionJob {
    pub fn name(&self) -> &str {
        self.metadata.name.as_deref().unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("default")
    }
}

pub use crate::flink::names::LYFT_GROUP;

/// Lyft flinkk8soperator's FlinkApplication (flink.k8s.io/v1beta1): the fields the rules read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkApplication {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: FlinkApplicationSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FlinkApplicationStatus>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkApplicationSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flink_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jar_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_mode: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flink_config: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager_config: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager_config: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkApplicationStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_deploy_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_status: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_status: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen_error: Option<serde_json::Value>,
}

impl FlinkApplication {
    pub fn name(&self) -> &str {
        self.metadata.name.as_deref().unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("default")
    }
}

/// The GCP/Spotify operator's FlinkCluster (`flinkoperator.k8s.io/v1beta1`): the fields the rules
/// read, lenient across its releases (spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/
/// v1beta1/flinkcluster_types.go; GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:api/v1beta1/
/// flinkcluster_types.go). Status component names changed between releases: `jobManagerDeployment`
/// (2019), `jobManagerStatefulSet` (GCP v1beta1-6 to -9), `jobManager` (spotify v0.5+); all are read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkCluster {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: FlinkClusterSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FlinkClusterStatus>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flink_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<FlinkClusterImage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager: Option<FlinkClusterComponentSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager: Option<FlinkClusterComponentSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<FlinkClusterJobSpec>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flink_properties: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterImage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_policy: Option<String>,
    /// The operator puts them on the JobManager, TaskManager and job submitter pods.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pull_secrets: Vec<k8s_openapi::api::core::v1::LocalObjectReference>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterComponentSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// TaskManager only: `StatefulSet` (the default) or `Deployment`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_type: Option<String>,
    /// The container's requests and limits as the operator copies them into the pod
    /// (`resources`, a core/v1 ResourceRequirements; flinkcluster_types.go@v0.6.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<k8s_openapi::api::core::v1::ResourceRequirements>,
    /// Flink >= 1.10: the percentage of the memory limit the operator gives Flink's process
    /// (`<component>.memory.process.size`); Flink < 1.10: the off-heap share and its minimum
    /// kept out of the heap (`<component>.heap.size`). `flinkcluster_memory` says how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_process_ratio: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_off_heap_ratio: Option<i64>,
    /// A quantity (`600M`), which YAML may also give as a number (`600e6`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_off_heap_min: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterJobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jar_file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub py_file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_savepoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoints_dir: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_savepoint_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_savepoint_on_update: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_state_age_to_restore_seconds: Option<i64>,
    /// `Never` (the default) or `FromSavepointOnFailure`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// `Blocking`, `Detached` or `Application` (spotify v0.5+: the JobManager is then a Job).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterStatus {
    /// Creating, Running, Reconciling, Updating, Stopping, PartiallyStopped, Stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub components: Option<FlinkClusterComponents>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<FlinkClusterControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint: Option<FlinkClusterSavepoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterComponents {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager_stateful_set: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager_deployment: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_manager_service: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager_stateful_set: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_manager_deployment: Option<FlinkClusterComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<FlinkClusterJobStatus>,
}

/// A component's status: its object's name, `state` (NotReady, Ready, Updating, Deleted) and,
/// from spotify v0.5, replicas and `ready` (`1/1`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterComponent {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterJobStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The Flink job's name (spotify); the submitter Job's name in GCP releases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitter_name: Option<String>,
    /// -1 while the submitter runs; its container's exit code once it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitter_exit_code: Option<i64>,
    /// Pending, Updating, Restarting, Deploying, DeployFailed, Running, Succeeded, Cancelled,
    /// Failed, Lost, Unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_savepoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint_location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failure_reasons: Vec<String>,
}

impl FlinkClusterJobStatus {
    /// When the job started running, else when it was deployed.
    pub fn start_time_or_deploy(&self) -> Option<&str> {
        self.start_time
            .as_deref()
            .or(self.deploy_time.as_deref())
            .filter(|t| !t.is_empty())
    }
}

/// `status.control`: a user control (`savepoint`, `job-cancel`) and how it went.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterControl {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_time: Option<String>,
}

/// `status.savepoint`: the last savepoint the operator triggered (InProgress, TriggerFailed,
/// Failed, Succeeded) and why (`user requested`, `job cancel`, `scheduled`, `update`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlinkClusterSavepoint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl FlinkCluster {
    pub fn name(&self) -> &str {
        self.metadata.name.as_deref().unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("default")
    }
    pub fn state(&self) -> Option<&str> {
        self.status
            .as_ref()
            .and_then(|s| s.state.as_deref())
            .filter(|s| !s.is_empty())
    }
    pub fn job_status(&self) -> Option<&FlinkClusterJobStatus> {
        self.status
            .as_ref()
            .and_then(|s| s.components.as_ref())
            .and_then(|c| c.job.as_ref())
    }
    pub fn job_state(&self) -> Option<&str> {
        self.job_status()
            .and_then(|j| j.state.as_deref())
            .filter(|s| !s.is_empty())
    }
    /// `spec.serviceAccountName`, or `default` when unset (what its pods then run as).
    pub fn service_account(&self) -> &str {
        self.spec
            .service_account_name
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or("default")
    }
}

/// `flinkConfiguration` as Flink reads it: keys to string values. The CRD accepts numbers,
/// booleans and nested maps (`taskmanager: {numberOfTaskSlots: 2}`); nested keys are joined
/// with dots and scalars written as Flink would print them.
fn flat_config<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(value.as_ref().map(flatten_conf).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flink_configuration_takes_numbers_booleans_and_nested_maps() {
        let fd: FlinkDeployment = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "x"},
            "spec": {"flinkConfiguration": {
                "taskmanager.numberOfTaskSlots": 2,
                "web.cancel.enable": false,
                "high-availability": {"type": "kubernetes", "storageDir": "s3://b/ha"}
            }}
        }))
        .unwrap();
        let c = &fd.spec.flink_configuration;
        assert_eq!(c["taskmanager.numberOfTaskSlots"], "2");
        assert_eq!(c["web.cancel.enable"], "false");
        assert_eq!(c["high-availability.type"], "kubernetes");
        assert_eq!(c["high-availability.storageDir"], "s3://b/ha");
    }
}

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

pub const LYFT_GROUP: &str = "flink.k8s.io";

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

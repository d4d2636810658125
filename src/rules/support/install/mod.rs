//! What the install-layer rules (FLK0xx) share: where the Flink Kubernetes Operator runs, its
//! webhook chain (cert-manager -> Certificate -> TLS Secret -> password Secret -> webhook
//! configurations -> Service -> endpoints -> the `flink-webhook` container), the chart's names,
//! and the Helm commands a fix needs. Names come from the chart (apache/flink-kubernetes-operator@release-1.15.0:
//! helm/flink-kubernetes-operator/values.yaml and templates/); where a live object names something else (a volume's Secret, a Certificate's
//! secretName), the object wins.

mod objects;
mod operators;
mod pods;
mod webhooks;
pub mod x509;

pub use objects::*;
pub use operators::*;
pub use pods::*;
pub use webhooks::*;

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
    ARCHIVE, CERTIFICATE, CERT_MANAGER_CRD, CERT_MANAGER_GROUP, CERT_MANAGER_MANIFEST, CHART,
    CONFIG_MAP, FLINK_CRDS, HELM_REPO, INJECT_CA_FROM, MUTATING, OPERATOR_CONTAINER,
    OPERATOR_LABEL, PASSWORD_SECRET, TLS_SECRET, UNRECONCILED_AFTER, VALIDATING, WATCHED_KEY,
    WEBHOOK_CONTAINER, WEBHOOK_PORT,
};

/// The link key every finding about one installation carries, so rank chains them.
pub fn link(namespace: &str) -> String {
    format!("operator:{namespace}")
}

#[cfg(test)]
pub mod testing;

#[cfg(test)]
mod tests;

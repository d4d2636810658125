//! Lookups over a Snapshot that many rules share: which Flink deployment a pod belongs to,
//! the events of an object, a pod's ServiceAccount.

use super::{FlinkDeployment, Snapshot};
use crate::finding::ObjectRef;
use k8s_openapi::api::core::v1::{Event, Pod};
use std::collections::HashMap;

pub const LABEL_APP: &str = "app";
pub const LABEL_COMPONENT: &str = "component";
pub const LABEL_TYPE: &str = "type";

pub struct Index<'a> {
    pub snapshot: &'a Snapshot,
    deployments: HashMap<(&'a str, &'a str), &'a FlinkDeployment>,
    events: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Event>>,
}

impl<'a> Index<'a> {
    pub fn new(snapshot: &'a Snapshot) -> Self {
        let deployments = snapshot
            .flink_deployments
            .iter()
            .map(|fd| ((fd.namespace(), fd.name()), fd))
            .collect();
        let mut events: HashMap<_, Vec<&Event>> = HashMap::new();
        for e in &snapshot.events {
            let o = &e.involved_object;
            let ns = o
                .namespace
                .as_deref()
                .or(e.metadata.namespace.as_deref())
                .unwrap_or("");
            events
                .entry((
                    o.kind.as_deref().unwrap_or(""),
                    ns,
                    o.name.as_deref().unwrap_or(""),
                ))
                .or_default()
                .push(e);
        }
        Index {
            snapshot,
            deployments,
            events,
        }
    }

    pub fn flink_deployment(&self, namespace: &str, name: &str) -> Option<&'a FlinkDeployment> {
        self.deployments.get(&(namespace, name)).copied()
    }

    /// The Flink deployment a pod belongs to, by the labels Flink puts on every pod it creates.
    pub fn deployment_of_pod(&self, pod: &Pod) -> Option<ObjectRef> {
        let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
        let app = label(pod, LABEL_APP)?;
        label(pod, LABEL_COMPONENT)?;
        let fd = self.flink_deployment(ns, app)?;
        Some(deployment_ref(fd))
    }

    /// Pods of a FlinkDeployment (`app=<name>` with a Flink `component` label).
    pub fn pods_of(&self, fd: &FlinkDeployment) -> Vec<&'a Pod> {
        self.snapshot
            .pods
            .iter()
            .filter(|p| {
                p.metadata.namespace.as_deref().unwrap_or("default") == fd.namespace()
                    && label(p, LABEL_APP) == Some(fd.name())
                    && label(p, LABEL_COMPONENT).is_some()
            })
            .collect()
    }

    /// Events whose involvedObject is this object, oldest first.
    pub fn events_for(&self, kind: &str, namespace: &str, name: &str) -> Vec<&'a Event> {
        let mut out = self
            .events
            .get(&(kind, namespace, name))
            .cloned()
            .unwrap_or_default();
        out.sort_by_key(|e| event_time(e));
        out
    }
}

pub fn deployment_ref(fd: &FlinkDeployment) -> ObjectRef {
    ObjectRef::namespaced("FlinkDeployment", fd.namespace(), fd.name())
}

pub fn label<'p>(pod: &'p Pod, key: &str) -> Option<&'p str> {
    pod.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(key))
        .map(String::as_str)
}

pub fn pod_name(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or("")
}

pub fn pod_namespace(pod: &Pod) -> &str {
    pod.metadata.namespace.as_deref().unwrap_or("default")
}

/// The ServiceAccount a pod runs as (`default` when the spec names none).
pub fn pod_service_account(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| {
            s.service_account_name
                .as_deref()
                .or(s.service_account.as_deref())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or("default")
}

pub fn event_time(e: &Event) -> Option<chrono::DateTime<chrono::Utc>> {
    use super::{micro_to_utc, to_utc};
    e.last_timestamp
        .as_ref()
        .and_then(to_utc)
        .or_else(|| e.event_time.as_ref().and_then(micro_to_utc))
        .or_else(|| e.first_timestamp.as_ref().and_then(to_utc))
        .or_else(|| e.metadata.creation_timestamp.as_ref().and_then(to_utc))
}

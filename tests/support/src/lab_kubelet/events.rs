//! Events as the kubelet's recorder writes them (core/v1 Events, source component `kubelet`, host
//! the node; name `POD.<hex unix nanos>`; a repeat of the same object, reason and message bumps
//! `count` and `lastTimestamp` of the first one, as client-go's correlator does:
//! k8s.io/client-go@v0.36.3:tools/record/events_cache.go).

use chrono::Utc;
use k8s_openapi::api::core::v1::Event;
use kube::api::{Api, Patch, PatchParams, PostParams};
use std::collections::HashMap;
use std::sync::Mutex;

/// The object an event is about: the pod, or one of its containers (`fieldPath`).
#[derive(Debug, Clone)]
pub struct Involved {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub field_path: Option<String>,
}

pub struct Recorder {
    client: kube::Client,
    node: String,
    seen: Mutex<HashMap<String, (String, i32)>>,
}

pub const NORMAL: &str = "Normal";
pub const WARNING: &str = "Warning";

impl Recorder {
    pub fn new(client: kube::Client, node: &str) -> Self {
        Recorder {
            client,
            node: node.to_string(),
            seen: Mutex::new(HashMap::new()),
        }
    }

    pub async fn emit(&self, on: &Involved, type_: &str, reason: &str, message: &str) {
        let api = Api::<Event>::namespaced(self.client.clone(), &on.namespace);
        let key = format!(
            "{}\x00{}\x00{}\x00{type_}\x00{reason}\x00{message}",
            on.uid,
            on.field_path.as_deref().unwrap_or(""),
            on.name
        );
        let now = Utc::now();
        let previous = self.seen.lock().ok().and_then(|s| s.get(&key).cloned());
        if let Some((name, count)) = previous {
            let patch = serde_json::json!({
                "count": count + 1,
                "lastTimestamp": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            });
            if api
                .patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
                .await
                .is_ok()
            {
                if let Ok(mut s) = self.seen.lock() {
                    s.insert(key, (name, count + 1));
                }
                return;
            }
        }
        let name = format!(
            "{}.{:x}",
            on.name,
            now.timestamp_nanos_opt().unwrap_or_default()
        );
        let stamp = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let ev: Event = match serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": on.namespace},
            "involvedObject": {
                "apiVersion": "v1", "kind": "Pod", "name": on.name, "namespace": on.namespace,
                "uid": on.uid, "fieldPath": on.field_path,
            },
            "reason": reason, "message": message, "type": type_,
            "source": {"component": "kubelet", "host": self.node},
            "firstTimestamp": stamp, "lastTimestamp": stamp, "count": 1,
            "reportingComponent": "kubelet", "reportingInstance": self.node,
        })) {
            Ok(ev) => ev,
            Err(e) => {
                eprintln!("lab-kubelet: event {reason}: {e}");
                return;
            }
        };
        match api.create(&PostParams::default(), &ev).await {
            Ok(_) => {
                if let Ok(mut s) = self.seen.lock() {
                    s.insert(key, (name, 1));
                }
            }
            Err(e) => eprintln!(
                "lab-kubelet: event {reason} for {}/{}: {e}",
                on.namespace, on.name
            ),
        }
    }

    /// Forgets a pod's events (it is gone).
    pub fn forget(&self, uid: &str) {
        if let Ok(mut s) = self.seen.lock() {
            s.retain(|k, _| !k.starts_with(&format!("{uid}\x00")));
        }
    }
}

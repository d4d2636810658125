//! What every pod worker shares: the API client, the node, the directories, the caches of
//! Services and Pods (for hosts files), the pod IP allocator and the running process groups.

use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret, Service};
use kube::api::Api;
use kube::runtime::reflector::Store;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use super::events::Recorder;

pub struct Ctx {
    pub client: kube::Client,
    pub node: String,
    pub log_root: PathBuf,
    pub state: PathBuf,
    pub images: PathBuf,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// The API server as in-cluster clients must reach it (from the kubeconfig).
    pub api_host: String,
    pub api_port: u16,
    /// The API server's CA (PEM), for `kube-root-ca.crt` when that ConfigMap does not exist.
    pub ca_pem: String,
    pub services: Store<Service>,
    pub pods: Store<Pod>,
    pub ips: Mutex<IpAlloc>,
    /// Process group ids of every running container.
    pub running: Mutex<HashSet<i32>>,
    /// The container ports of pods whose processes are stopping (uid -> ports): every pod here
    /// shares the host's network, so a replacement that declares one of them waits until the old
    /// processes are gone (worker.rs, `port_holder`).
    pub stopping: Mutex<HashMap<String, Vec<Port>>>,
    pub events: Recorder,
}

/// A container port: number and protocol (`TCP` when the spec leaves it out).
pub type Port = (i32, String);

/// The container ports a pod declares (init containers' too).
pub fn pod_ports(pod: &Pod) -> Vec<Port> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    spec.init_containers
        .iter()
        .flatten()
        .chain(&spec.containers)
        .flat_map(container_ports)
        .collect()
}

/// The ports one container declares.
pub fn container_ports(c: &k8s_openapi::api::core::v1::Container) -> Vec<Port> {
    c.ports
        .iter()
        .flatten()
        .map(|p| {
            (
                p.container_port,
                p.protocol.clone().unwrap_or_else(|| "TCP".into()),
            )
        })
        .collect()
}

/// The first port of `want` that `held` also has.
pub fn clash(want: &[Port], held: &[Port]) -> Option<Port> {
    want.iter().find(|p| held.contains(p)).cloned()
}

/// Distinct loopback addresses, 127.1.X.Y (Y in 1..=254), one per pod uid.
#[derive(Default)]
pub struct IpAlloc {
    next: u32,
    by_uid: HashMap<String, String>,
}

impl IpAlloc {
    pub fn get(&mut self, uid: &str) -> String {
        if let Some(ip) = self.by_uid.get(uid) {
            return ip.clone();
        }
        let n = self.next;
        self.next = (self.next + 1) % (254 * 256);
        let ip = format!("127.1.{}.{}", n / 254, n % 254 + 1);
        self.by_uid.insert(uid.to_string(), ip.clone());
        ip
    }

    pub fn release(&mut self, uid: &str) {
        self.by_uid.remove(uid);
    }
}

/// An object that may not exist: `Ok(None)` on 404.
pub async fn get_opt<K>(api: &Api<K>, name: &str) -> Result<Option<K>, String>
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    match api.get(name).await {
        Ok(o) => Ok(Some(o)),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

impl Ctx {
    pub async fn config_map(&self, ns: &str, name: &str) -> Result<Option<ConfigMap>, String> {
        get_opt(&Api::<ConfigMap>::namespaced(self.client.clone(), ns), name).await
    }

    pub async fn secret(&self, ns: &str, name: &str) -> Result<Option<Secret>, String> {
        get_opt(&Api::<Secret>::namespaced(self.client.clone(), ns), name).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_clash_by_number_and_protocol() {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "spec": {"containers": [{"name": "flink-main-container", "ports": [
                {"name": "jobmanager-rpc", "containerPort": 6123},
                {"name": "rest", "containerPort": 8081, "protocol": "TCP"},
                {"name": "dns", "containerPort": 53, "protocol": "UDP"}
            ]}]}
        }))
        .unwrap();
        let ports = pod_ports(&pod);
        assert_eq!(ports.len(), 3);
        let new_jm = vec![(6124, "TCP".to_string()), (6123, "TCP".to_string())];
        assert_eq!(clash(&new_jm, &ports), Some((6123, "TCP".into())));
        assert_eq!(clash(&[(53, "TCP".into())], &ports), None);
        assert_eq!(clash(&[(6122, "TCP".into())], &ports), None);
        assert!(pod_ports(&Pod::default()).is_empty());
    }

    #[test]
    fn distinct_stable_addresses() {
        let mut a = IpAlloc::default();
        assert_eq!(a.get("u1"), "127.1.0.1");
        assert_eq!(a.get("u2"), "127.1.0.2");
        assert_eq!(a.get("u1"), "127.1.0.1");
        for i in 3..=254 {
            a.get(&format!("u{i}"));
        }
        assert_eq!(a.get("next"), "127.1.1.1");
    }
}

//! A container's environment as the kubelet builds it
//! (k8s.io/kubernetes@v1.36.3:pkg/kubelet/kubelet_pods.go, makeEnvironmentVariables): the service
//! variables first, then `envFrom` in order, then `env` in order (each value's `$(VAR)` expanded
//! with what is defined so far). The runtime puts the image's env underneath and sets `HOSTNAME`.
//!
//! The `kubernetes` Service's variables name the API server's real address (from the kubeconfig),
//! so in-cluster clients reach it with the mounted token and CA. Other Services' link variables
//! (`enableServiceLinks`) are not made: their cluster IPs route nowhere here.

use super::ctx::Ctx;
use super::expand::expand;
use k8s_openapi::api::core::v1::{Container, Node, Pod};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube::api::Api;
use std::collections::HashMap;

/// An ordered environment with later definitions replacing earlier ones in place.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Env {
    pub vars: Vec<(String, String)>,
}

impl Env {
    pub fn set(&mut self, k: &str, v: String) {
        match self.vars.iter_mut().find(|(name, _)| name == k) {
            Some(slot) => slot.1 = v,
            None => self.vars.push((k.to_string(), v)),
        }
    }

    pub fn map(&self) -> HashMap<String, String> {
        self.vars.iter().cloned().collect()
    }
}

pub fn service_env(host: &str, port: u16) -> Vec<(String, String)> {
    let url = format!("tcp://{host}:{port}");
    vec![
        ("KUBERNETES_SERVICE_HOST".into(), host.to_string()),
        ("KUBERNETES_SERVICE_PORT".into(), port.to_string()),
        ("KUBERNETES_SERVICE_PORT_HTTPS".into(), port.to_string()),
        ("KUBERNETES_PORT".into(), url.clone()),
        (format!("KUBERNETES_PORT_{port}_TCP"), url),
        (format!("KUBERNETES_PORT_{port}_TCP_PROTO"), "tcp".into()),
        (format!("KUBERNETES_PORT_{port}_TCP_PORT"), port.to_string()),
        (format!("KUBERNETES_PORT_{port}_TCP_ADDR"), host.to_string()),
    ]
}

/// A `fieldRef` value; `Err` for a path the kubelet does not support.
pub fn field_value(pod: &Pod, path: &str, pod_ip: &str, host_ip: &str) -> Result<String, String> {
    let meta = &pod.metadata;
    let spec = pod.spec.as_ref();
    let keyed = |prefix: &str, map: Option<&std::collections::BTreeMap<String, String>>| {
        path.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix("']"))
            .map(|k| map.and_then(|m| m.get(k)).cloned().unwrap_or_default())
    };
    if let Some(v) = keyed("metadata.labels['", meta.labels.as_ref()) {
        return Ok(v);
    }
    if let Some(v) = keyed("metadata.annotations['", meta.annotations.as_ref()) {
        return Ok(v);
    }
    Ok(match path {
        "metadata.name" => meta.name.clone().unwrap_or_default(),
        "metadata.namespace" => meta.namespace.clone().unwrap_or_default(),
        "metadata.uid" => meta.uid.clone().unwrap_or_default(),
        "metadata.labels" => format_map(meta.labels.as_ref()),
        "metadata.annotations" => format_map(meta.annotations.as_ref()),
        "spec.nodeName" => spec.and_then(|s| s.node_name.clone()).unwrap_or_default(),
        "spec.serviceAccountName" => spec
            .and_then(|s| s.service_account_name.clone())
            .unwrap_or_default(),
        "status.podIP" | "status.podIPs" => pod_ip.to_string(),
        "status.hostIP" | "status.hostIPs" => host_ip.to_string(),
        other => return Err(format!("unsupported fieldPath: {other}")),
    })
}

/// `key="value"` lines, sorted, as the downward API writes labels and annotations.
pub fn format_map(m: Option<&std::collections::BTreeMap<String, String>>) -> String {
    m.map(|m| {
        m.iter()
            .map(|(k, v)| format!("{k}={v:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    })
    .unwrap_or_default()
}

/// A Kubernetes quantity as a number (`500m`, `2Gi`, `1e3`, `1.5`).
pub fn quantity(q: &str) -> Option<f64> {
    let q = q.trim();
    let split = q
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(q.len());
    let (num, suffix) = q.split_at(split);
    let n: f64 = num.parse().ok()?;
    let mult = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        s if s.starts_with(['e', 'E']) => 10f64.powi(s[1..].parse().ok()?),
        _ => return None,
    };
    Some(n * mult)
}

/// A `resourceFieldRef` value: the limit (else the node's allocatable) or request, divided by the
/// divisor and rounded up, as the kubelet's resource helpers do.
pub async fn resource_value(
    ctx: &Ctx,
    container: &Container,
    resource: &str,
    divisor: Option<&Quantity>,
) -> Result<String, String> {
    let res = container.resources.as_ref();
    let (kind, name) = resource
        .split_once('.')
        .ok_or(format!("unsupported container resource: {resource}"))?;
    let from = match kind {
        "limits" => res.and_then(|r| r.limits.as_ref()),
        "requests" => res.and_then(|r| r.requests.as_ref()),
        _ => return Err(format!("unsupported container resource: {resource}")),
    };
    let mut value = from.and_then(|m| m.get(name)).and_then(|q| quantity(&q.0));
    if value.is_none() {
        // No limit: the node's allocatable, as the kubelet defaults it. No request: 0.
        value = if kind == "limits" {
            let node = Api::<Node>::all(ctx.client.clone())
                .get(&ctx.node)
                .await
                .ok();
            node.and_then(|n| n.status?.allocatable?.get(name).cloned())
                .and_then(|q| quantity(&q.0))
        } else {
            Some(0.0)
        };
    }
    let value = value.unwrap_or(0.0);
    let div = divisor
        .and_then(|d| quantity(&d.0))
        .filter(|d| *d > 0.0)
        .unwrap_or(1.0);
    Ok(format!("{}", (value / div).ceil() as i64))
}

/// The env the kubelet hands to the runtime (without the image's env and HOSTNAME).
/// `Err` is the CreateContainerConfigError message.
pub async fn container_env(
    ctx: &Ctx,
    pod: &Pod,
    c: &Container,
    pod_ip: &str,
    host_ip: &str,
) -> Result<Env, String> {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    let mut env = Env::default();
    for (k, v) in service_env(&ctx.api_host, ctx.api_port) {
        env.set(&k, v);
    }
    for from in c.env_from.iter().flatten() {
        let prefix = from.prefix.clone().unwrap_or_default();
        if let Some(r) = &from.config_map_ref {
            match ctx.config_map(&ns, &r.name).await? {
                Some(cm) => {
                    for (k, v) in cm.data.iter().flatten() {
                        env.set(&format!("{prefix}{k}"), v.clone());
                    }
                }
                None if r.optional == Some(true) => {}
                None => return Err(format!("configmap \"{}\" not found", r.name)),
            }
        }
        if let Some(r) = &from.secret_ref {
            match ctx.secret(&ns, &r.name).await? {
                Some(s) => {
                    for (k, v) in s.data.iter().flatten() {
                        env.set(
                            &format!("{prefix}{k}"),
                            String::from_utf8_lossy(&v.0).into(),
                        );
                    }
                }
                None if r.optional == Some(true) => {}
                None => return Err(format!("secret \"{}\" not found", r.name)),
            }
        }
    }
    for e in c.env.iter().flatten() {
        let value = if let Some(v) = &e.value {
            Some(expand(v, &env.map()))
        } else if let Some(from) = &e.value_from {
            if let Some(f) = &from.field_ref {
                Some(field_value(pod, &f.field_path, pod_ip, host_ip)?)
            } else if let Some(r) = &from.resource_field_ref {
                let target = match r.container_name.as_deref() {
                    Some(n) if !n.is_empty() => all_containers(pod)
                        .find(|x| x.name == n)
                        .cloned()
                        .unwrap_or_else(|| c.clone()),
                    _ => c.clone(),
                };
                Some(resource_value(ctx, &target, &r.resource, r.divisor.as_ref()).await?)
            } else if let Some(r) = &from.config_map_key_ref {
                match ctx.config_map(&ns, &r.name).await? {
                    Some(cm) => match cm.data.as_ref().and_then(|d| d.get(&r.key)) {
                        Some(v) => Some(v.clone()),
                        None if r.optional == Some(true) => None,
                        None => {
                            return Err(format!(
                                "couldn't find key {} in ConfigMap {ns}/{}",
                                r.key, r.name
                            ))
                        }
                    },
                    None if r.optional == Some(true) => None,
                    None => return Err(format!("configmap \"{}\" not found", r.name)),
                }
            } else if let Some(r) = &from.secret_key_ref {
                match ctx.secret(&ns, &r.name).await? {
                    Some(s) => match s.data.as_ref().and_then(|d| d.get(&r.key)) {
                        Some(v) => Some(String::from_utf8_lossy(&v.0).into_owned()),
                        None if r.optional == Some(true) => None,
                        None => {
                            return Err(format!(
                                "couldn't find key {} in Secret {ns}/{}",
                                r.key, r.name
                            ))
                        }
                    },
                    None if r.optional == Some(true) => None,
                    None => return Err(format!("secret \"{}\" not found", r.name)),
                }
            } else {
                Some(String::new())
            }
        } else {
            Some(String::new())
        };
        if let Some(v) = value {
            env.set(&e.name, v);
        }
    }
    Ok(env)
}

pub fn all_containers(pod: &Pod) -> impl Iterator<Item = &Container> {
    let spec = pod.spec.as_ref();
    spec.into_iter().flat_map(|s| {
        s.init_containers
            .iter()
            .flatten()
            .chain(s.containers.iter())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(quantity("500m"), Some(0.5));
        assert_eq!(quantity("2Gi"), Some(2.0 * 1024.0 * 1024.0 * 1024.0));
        assert_eq!(quantity("1e3"), Some(1000.0));
        assert_eq!(quantity("1.5"), Some(1.5));
        assert_eq!(quantity("x"), None);
    }

    #[test]
    fn fields() {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "p", "namespace": "ns", "uid": "u", "labels": {"app": "x", "b": "y\"z"}},
            "spec": {"nodeName": "n", "serviceAccountName": "sa", "containers": []}
        }))
        .unwrap();
        let f = |p: &str| field_value(&pod, p, "127.1.0.1", "127.0.0.1");
        assert_eq!(f("metadata.name").unwrap(), "p");
        assert_eq!(f("metadata.labels['app']").unwrap(), "x");
        assert_eq!(f("metadata.labels").unwrap(), "app=\"x\"\nb=\"y\\\"z\"");
        assert_eq!(f("status.podIP").unwrap(), "127.1.0.1");
        assert_eq!(f("spec.serviceAccountName").unwrap(), "sa");
        assert!(f("spec.bogus").is_err());
    }

    #[test]
    fn later_definitions_replace_in_place() {
        let mut e = Env::default();
        e.set("A", "1".into());
        e.set("B", "2".into());
        e.set("A", "3".into());
        assert_eq!(
            e.vars,
            vec![("A".into(), "3".into()), ("B".into(), "2".into())]
        );
    }
}

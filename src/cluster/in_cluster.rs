//! The kubeconfig of a process running in a pod, as kubectl builds it (client-go's
//! `rest.InClusterConfig`, kubernetes/client-go@v0.31.0:rest/config.go): the API server from
//! `KUBERNETES_SERVICE_HOST` and `KUBERNETES_SERVICE_PORT`, the CA, the ServiceAccount token (a
//! file, read again as the kubelet renews it) and the namespace from the mounted ServiceAccount
//! folder. Used only when no kubeconfig file exists, so `kubectl flink watch` runs as a
//! Deployment with no flags.

use kube::config::{
    AuthInfo, Cluster, Context, Kubeconfig, NamedAuthInfo, NamedCluster, NamedContext,
};
use std::path::Path;

/// Where the kubelet mounts the ServiceAccount's token, CA and namespace.
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// The in-cluster kubeconfig, when the process runs in a pod (the variables are set and the token
/// is mounted under `dir`).
pub fn kubeconfig(env: &dyn Fn(&str) -> Option<String>, dir: &Path) -> Option<Kubeconfig> {
    let host = env("KUBERNETES_SERVICE_HOST").filter(|h| !h.is_empty())?;
    let port = env("KUBERNETES_SERVICE_PORT").filter(|p| !p.is_empty())?;
    let token = dir.join("token");
    if !token.is_file() {
        return None;
    }
    // An IPv6 address in brackets, as a URL takes it.
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    let ca = dir.join("ca.crt");
    let namespace = std::fs::read_to_string(dir.join("namespace"))
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty());
    let name = "in-cluster".to_string();
    Some(Kubeconfig {
        clusters: vec![NamedCluster {
            name: name.clone(),
            cluster: Some(Cluster {
                server: Some(format!("https://{host}:{port}")),
                certificate_authority: ca.is_file().then(|| ca.display().to_string()),
                ..Cluster::default()
            }),
            other: Default::default(),
        }],
        auth_infos: vec![NamedAuthInfo {
            name: name.clone(),
            auth_info: Some(AuthInfo {
                token_file: Some(token.display().to_string()),
                ..AuthInfo::default()
            }),
            other: Default::default(),
        }],
        contexts: vec![NamedContext {
            name: name.clone(),
            context: Some(Context {
                cluster: name.clone(),
                user: Some(name.clone()),
                namespace,
                ..Context::default()
            }),
            other: Default::default(),
        }],
        current_context: Some(name),
        ..Kubeconfig::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_a_pod_the_service_account_is_the_kubeconfig() {
        let dir = tempfile::tempdir().unwrap();
        let env = |k: &str| match k {
            "KUBERNETES_SERVICE_HOST" => Some("10.0.0.1".to_string()),
            "KUBERNETES_SERVICE_PORT" => Some("443".to_string()),
            _ => None,
        };
        // No token mounted: not in a pod.
        assert!(kubeconfig(&env, dir.path()).is_none());
        std::fs::write(dir.path().join("token"), "t").unwrap();
        std::fs::write(dir.path().join("ca.crt"), "c").unwrap();
        std::fs::write(dir.path().join("namespace"), "flink-watch\n").unwrap();
        let k = kubeconfig(&env, dir.path()).unwrap();
        let cluster = k.clusters[0].cluster.as_ref().unwrap();
        assert_eq!(cluster.server.as_deref(), Some("https://10.0.0.1:443"));
        assert!(cluster
            .certificate_authority
            .as_deref()
            .unwrap()
            .ends_with("ca.crt"));
        let user = k.auth_infos[0].auth_info.as_ref().unwrap();
        assert!(user.token_file.as_deref().unwrap().ends_with("token"));
        let ctx = k.contexts[0].context.as_ref().unwrap();
        assert_eq!(ctx.namespace.as_deref(), Some("flink-watch"));
        let v6 = |k: &str| match k {
            "KUBERNETES_SERVICE_HOST" => Some("fd00::1".to_string()),
            "KUBERNETES_SERVICE_PORT" => Some("443".to_string()),
            _ => None,
        };
        let k = kubeconfig(&v6, dir.path()).unwrap();
        assert_eq!(
            k.clusters[0].cluster.as_ref().unwrap().server.as_deref(),
            Some("https://[fd00::1]:443")
        );
    }
}

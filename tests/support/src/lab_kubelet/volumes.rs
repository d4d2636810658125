//! A pod's volumes as per-pod files and folders under `<state>/<uid>/volumes/<name>`, which the
//! container's run.sh bind-mounts at each `volumeMount`.
//!
//! Errors are the kubelet's texts after `MountVolume.SetUp failed for volume "V" : `
//! (k8s.io/kubernetes@v1.36.3:pkg/volume/util/operationexecutor/operation_executor.go,
//! generateVolumeMsg; the "not found" forms come from the ConfigMap and Secret managers, which
//! name the resources `configmap` and `secret`: pkg/kubelet/configmap/configmap_manager.go,
//! pkg/kubelet/secret/secret_manager.go). Secret values are written to files, never logged.

use super::ctx::Ctx;
use super::env::{field_value, format_map, resource_value};
use k8s_openapi::api::authentication::v1::{BoundObjectReference, TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::{DownwardAPIVolumeFile, KeyToPath, Pod, ServiceAccount, Volume};
use kube::api::{Api, PostParams};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A volume made ready: where its content is.
#[derive(Debug, Clone)]
pub struct Ready {
    pub path: PathBuf,
}

/// Why a volume could not be set up: the volume and the kubelet's message suffix.
#[derive(Debug, Clone, PartialEq)]
pub struct MountError {
    pub volume: String,
    pub message: String,
}

impl MountError {
    /// The FailedMount event's text.
    pub fn event_message(&self) -> String {
        format!(
            "MountVolume.SetUp failed for volume \"{}\" : {}",
            self.volume, self.message
        )
    }
}

/// Sets up every volume of the pod. `unsupported` collects volume types the lab cannot provide
/// (given an empty folder instead).
pub async fn setup(
    ctx: &Ctx,
    pod: &Pod,
    dir: &Path,
    pod_ip: &str,
    unsupported: &mut Vec<String>,
) -> Result<BTreeMap<String, Ready>, MountError> {
    let mut out = BTreeMap::new();
    let spec = match pod.spec.as_ref() {
        Some(s) => s,
        None => return Ok(out),
    };
    for v in spec.volumes.iter().flatten() {
        let err = |message: String| MountError {
            volume: v.name.clone(),
            message,
        };
        let path = dir.join(&v.name);
        let ready = one(ctx, pod, v, &path, pod_ip, unsupported)
            .await
            .map_err(err)?;
        out.insert(v.name.clone(), ready);
    }
    Ok(out)
}

async fn one(
    ctx: &Ctx,
    pod: &Pod,
    v: &Volume,
    path: &Path,
    pod_ip: &str,
    unsupported: &mut Vec<String>,
) -> Result<Ready, String> {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(h) = &v.host_path {
        let p = PathBuf::from(&h.path);
        if !p.exists() {
            match h.type_.as_deref() {
                Some("DirectoryOrCreate") | Some("") | None => {
                    std::fs::create_dir_all(&p).map_err(io)?
                }
                Some("FileOrCreate") => {
                    std::fs::write(&p, b"").map_err(io)?;
                }
                Some(t) => {
                    return Err(format!(
                        "hostPath type check failed: {} is not a {t}",
                        h.path
                    ))
                }
            }
        }
        return Ok(Ready { path: p });
    }
    fresh_dir(path).map_err(io)?;
    if v.empty_dir.is_some() {
        return Ok(Ready { path: path.into() });
    }
    if let Some(c) = &v.config_map {
        let mode = c.default_mode.unwrap_or(0o644);
        match ctx.config_map(&ns, &c.name).await? {
            Some(cm) => {
                let data = cm_data(&cm);
                write_keys(
                    path,
                    &data,
                    c.items.as_deref(),
                    mode,
                    c.optional == Some(true),
                    "configmap",
                )?
            }
            None if c.optional == Some(true) => {}
            None => return Err(format!("configmap \"{}\" not found", c.name)),
        }
        return Ok(Ready { path: path.into() });
    }
    if let Some(s) = &v.secret {
        let name = s.secret_name.clone().unwrap_or_default();
        let mode = s.default_mode.unwrap_or(0o644);
        match ctx.secret(&ns, &name).await? {
            Some(sec) => {
                let data = secret_data(&sec);
                write_keys(
                    path,
                    &data,
                    s.items.as_deref(),
                    mode,
                    s.optional == Some(true),
                    "secret",
                )?
            }
            None if s.optional == Some(true) => {}
            None => return Err(format!("secret \"{name}\" not found")),
        }
        return Ok(Ready { path: path.into() });
    }
    if let Some(d) = &v.downward_api {
        let mode = d.default_mode.unwrap_or(0o644);
        downward(
            ctx,
            pod,
            path,
            d.items.as_deref().unwrap_or(&[]),
            mode,
            pod_ip,
        )
        .await?;
        return Ok(Ready { path: path.into() });
    }
    if let Some(p) = &v.projected {
        let mode = p.default_mode.unwrap_or(0o644);
        for src in p.sources.iter().flatten() {
            if let Some(t) = &src.service_account_token {
                let token = token(ctx, pod, t.audience.as_deref(), t.expiration_seconds).await?;
                write_file(&path.join(&t.path), token.as_bytes(), mode).map_err(io)?;
            }
            if let Some(c) = &src.config_map {
                let cm = ctx.config_map(&ns, &c.name).await?;
                let data = match cm {
                    Some(cm) => cm_data(&cm),
                    // No controller-manager publishes it in the test cluster: the API server's CA.
                    None if c.name == "kube-root-ca.crt" => {
                        BTreeMap::from([("ca.crt".to_string(), ctx.ca_pem.as_bytes().to_vec())])
                    }
                    None if c.optional == Some(true) => continue,
                    None => return Err(format!("configmap \"{}\" not found", c.name)),
                };
                write_keys(
                    path,
                    &data,
                    c.items.as_deref(),
                    mode,
                    c.optional == Some(true),
                    "configmap",
                )?;
            }
            if let Some(s) = &src.secret {
                match ctx.secret(&ns, &s.name).await? {
                    Some(sec) => write_keys(
                        path,
                        &secret_data(&sec),
                        s.items.as_deref(),
                        mode,
                        s.optional == Some(true),
                        "secret",
                    )?,
                    None if s.optional == Some(true) => {}
                    None => return Err(format!("secret \"{}\" not found", s.name)),
                }
            }
            if let Some(d) = &src.downward_api {
                downward(
                    ctx,
                    pod,
                    path,
                    d.items.as_deref().unwrap_or(&[]),
                    mode,
                    pod_ip,
                )
                .await?;
            }
        }
        return Ok(Ready { path: path.into() });
    }
    unsupported.push(v.name.clone());
    Ok(Ready { path: path.into() })
}

fn cm_data(cm: &k8s_openapi::api::core::v1::ConfigMap) -> BTreeMap<String, Vec<u8>> {
    let mut d: BTreeMap<String, Vec<u8>> = cm
        .data
        .iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_bytes().to_vec()))
        .collect();
    for (k, v) in cm.binary_data.iter().flatten() {
        d.insert(k.clone(), v.0.clone());
    }
    d
}

fn secret_data(s: &k8s_openapi::api::core::v1::Secret) -> BTreeMap<String, Vec<u8>> {
    let mut d: BTreeMap<String, Vec<u8>> = s
        .data
        .iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.0.clone()))
        .collect();
    for (k, v) in s.string_data.iter().flatten() {
        d.insert(k.clone(), v.as_bytes().to_vec());
    }
    d
}

/// Keys to files: every key, or only `items` (key → path, own mode). A missing item key is an
/// error unless the source is optional (pkg/volume/configmap/configmap.go, MakePayload).
pub fn write_keys(
    dir: &Path,
    data: &BTreeMap<String, Vec<u8>>,
    items: Option<&[KeyToPath]>,
    mode: i32,
    optional: bool,
    what: &str,
) -> Result<(), String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    match items {
        Some(items) if !items.is_empty() => {
            for it in items {
                match data.get(&it.key) {
                    Some(v) => {
                        let p = safe_join(dir, &it.path)?;
                        write_file(&p, v, it.mode.unwrap_or(mode)).map_err(|e| io(&p, e))?
                    }
                    None if optional => {}
                    None => {
                        return Err(format!(
                            "{what} references non-existent config key: {}",
                            it.key
                        ))
                    }
                }
            }
        }
        _ => {
            for (k, v) in data {
                let p = safe_join(dir, k)?;
                write_file(&p, v, mode).map_err(|e| io(&p, e))?;
            }
        }
    }
    Ok(())
}

async fn downward(
    ctx: &Ctx,
    pod: &Pod,
    dir: &Path,
    items: &[DownwardAPIVolumeFile],
    mode: i32,
    pod_ip: &str,
) -> Result<(), String> {
    for it in items {
        let value = if let Some(f) = &it.field_ref {
            match f.field_path.as_str() {
                "metadata.labels" => format_map(pod.metadata.labels.as_ref()),
                "metadata.annotations" => format_map(pod.metadata.annotations.as_ref()),
                p => field_value(pod, p, pod_ip, "127.0.0.1")?,
            }
        } else if let Some(r) = &it.resource_field_ref {
            let name = r.container_name.clone().unwrap_or_default();
            let c = super::env::all_containers(pod)
                .find(|c| c.name == name)
                .cloned()
                .ok_or(format!("container {name} not found in the pod"))?;
            resource_value(ctx, &c, &r.resource, r.divisor.as_ref()).await?
        } else {
            String::new()
        };
        let p = safe_join(dir, &it.path)?;
        write_file(&p, value.as_bytes(), it.mode.unwrap_or(mode))
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// A token for the pod's ServiceAccount, bound to the pod, through the TokenRequest API.
async fn token(
    ctx: &Ctx,
    pod: &Pod,
    audience: Option<&str>,
    expiration: Option<i64>,
) -> Result<String, String> {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    let sa = pod
        .spec
        .as_ref()
        .and_then(|s| s.service_account_name.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "default".into());
    let req = TokenRequest {
        spec: Some(TokenRequestSpec {
            audiences: audience
                .filter(|a| !a.is_empty())
                .map(|a| vec![a.to_string()]),
            expiration_seconds: Some(expiration.unwrap_or(3607)),
            bound_object_ref: Some(BoundObjectReference {
                api_version: Some("v1".into()),
                kind: Some("Pod".into()),
                name: pod.metadata.name.clone(),
                uid: pod.metadata.uid.clone(),
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let api = Api::<ServiceAccount>::namespaced(ctx.client.clone(), &ns);
    match api
        .create_token_request(&sa, &PostParams::default(), &req)
        .await
    {
        Ok(t) => t
            .status
            .and_then(|s| s.token)
            .ok_or_else(|| "failed to fetch token: no token in the answer".to_string()),
        Err(kube::Error::Api(s)) => Err(format!("failed to fetch token: {}", s.message)),
        Err(e) => Err(format!("failed to fetch token: {e}")),
    }
}

/// `rel` under `dir`, refusing absolute paths and `..`.
pub fn safe_join(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    if rel.starts_with('/') || rel.split('/').any(|s| s == "..") || rel.is_empty() {
        return Err(format!("invalid path {rel:?}"));
    }
    Ok(dir.join(rel))
}

fn write_file(p: &Path, data: &[u8], mode: i32) -> std::io::Result<()> {
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(p, data)?;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode((mode as u32) & 0o7777))
}

fn fresh_dir(p: &Path) -> std::io::Result<()> {
    if p.exists() {
        std::fs::remove_dir_all(p)?;
    }
    std::fs::create_dir_all(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_items() {
        let dir = tempfile::tempdir().unwrap();
        let data = BTreeMap::from([
            ("a.yaml".to_string(), b"A".to_vec()),
            ("b".to_string(), b"B".to_vec()),
        ]);
        write_keys(dir.path(), &data, None, 0o600, false, "configmap").unwrap();
        assert_eq!(std::fs::read(dir.path().join("a.yaml")).unwrap(), b"A");
        let m = std::fs::metadata(dir.path().join("b"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(m & 0o777, 0o600);
        let items = [KeyToPath {
            key: "b".into(),
            path: "sub/renamed".into(),
            mode: Some(0o640),
            ..Default::default()
        }];
        write_keys(dir.path(), &data, Some(&items), 0o644, false, "configmap").unwrap();
        assert_eq!(std::fs::read(dir.path().join("sub/renamed")).unwrap(), b"B");
        let missing = [KeyToPath {
            key: "zz".into(),
            path: "zz".into(),
            mode: None,
            ..Default::default()
        }];
        let err =
            write_keys(dir.path(), &data, Some(&missing), 0o644, false, "configmap").unwrap_err();
        assert_eq!(err, "configmap references non-existent config key: zz");
        assert!(write_keys(dir.path(), &data, Some(&missing), 0o644, true, "configmap").is_ok());
        assert!(safe_join(dir.path(), "../x").is_err());
    }

    #[test]
    fn event_text() {
        let e = MountError {
            volume: "flink-config".into(),
            message: "configmap \"orders-config\" not found".into(),
        };
        assert_eq!(
            e.event_message(),
            "MountVolume.SetUp failed for volume \"flink-config\" : configmap \"orders-config\" not found"
        );
    }
}

//! The kubeconfig and what it points at, read without trusting them: every file (the kubeconfig
//! itself, the certificate authority, the client certificate and key, the token file) must be a
//! regular file of at most [`MAX_KUBECONFIG_FILE_BYTES`], and an exec credential plugin is run
//! here, once, with a deadline and a cap on what it prints, its credential handed to kube as if
//! the kubeconfig held it (kube's own runner waits for the plugin forever and keeps all it prints).

use crate::error::Error;
use crate::files;
use kube::config::{AuthInfo, ExecConfig, ExecInteractiveMode, KubeConfigOptions, Kubeconfig};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The largest kubeconfig, certificate, key or token file read (a kubeconfig with a thousand
/// contexts and inline certificates is a few MB).
pub const MAX_KUBECONFIG_FILE_BYTES: u64 = 16 << 20;

/// The most an exec credential plugin may print on stdout (an ExecCredential with a client
/// certificate and key is a few KB).
pub const MAX_EXEC_OUTPUT_BYTES: u64 = 1 << 20;

/// How long an exec credential plugin may take: `--request-timeout`, between 10 s and 2 min (2 min
/// when requests have no limit), so a plugin that asks the person something has time to.
pub fn exec_deadline(request_timeout: Option<Duration>) -> Duration {
    request_timeout
        .unwrap_or(Duration::from_secs(120))
        .clamp(Duration::from_secs(10), Duration::from_secs(120))
}

/// `path` is a regular file of at most the cap; else an input error naming `what` and the file.
fn check_file(path: &Path, what: &str) -> Result<(), Error> {
    let refuse = |why: String| Error::Input(format!("{what} {}: {why}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| refuse(e.to_string()))?;
    if !meta.is_file() {
        return Err(refuse("not a regular file".into()));
    }
    if meta.len() > MAX_KUBECONFIG_FILE_BYTES {
        return Err(refuse(format!(
            "larger than {} MiB, the most read from one file",
            MAX_KUBECONFIG_FILE_BYTES >> 20
        )));
    }
    Ok(())
}

/// Where the kubeconfig files came from: a missing file is an error for `--kubeconfig`, and
/// skipped in a `$KUBECONFIG` list as client-go's loader skips it
/// (kubernetes/client-go@v0.33.0:tools/clientcmd/loader.go, `ClientConfigLoadingRules.Load`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Flag,
    Env,
    Home,
}

/// The files to read: `--kubeconfig`, else `$KUBECONFIG` (several, merged as kubectl merges
/// them), else `~/.kube/config`.
fn paths(flag: Option<&Path>) -> Result<(Source, Vec<PathBuf>), Error> {
    if let Some(p) = flag {
        return Ok((Source::Flag, vec![p.to_path_buf()]));
    }
    if let Some(value) = std::env::var_os("KUBECONFIG") {
        let list: Vec<PathBuf> = std::env::split_paths(&value)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !list.is_empty() {
            return Ok((Source::Env, list));
        }
    }
    std::env::home_dir()
        .map(|h| (Source::Home, vec![h.join(".kube").join("config")]))
        .ok_or_else(|| {
            Error::Input(
                "no kubeconfig: no home directory for ~/.kube/config; pass --kubeconfig FILE or \
                 set KUBECONFIG"
                    .into(),
            )
        })
}

/// The kubeconfig the flags point at, every file of it checked first.
pub fn read(flag: Option<&Path>) -> Result<Kubeconfig, Error> {
    let mut merged: Option<Kubeconfig> = None;
    let (source, paths) = paths(flag)?;
    let mut missing = Vec::new();
    for path in paths {
        let not_found =
            matches!(std::fs::metadata(&path), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
        if source != Source::Flag && not_found {
            missing.push(path);
            continue;
        }
        if source == Source::Flag && not_found {
            return Err(Error::Input(format!(
                "the kubeconfig {} (--kubeconfig) does not exist: check the \
                 path, or leave --kubeconfig out to use $KUBECONFIG or ~/.kube/config",
                path.display()
            )));
        }
        check_file(&path, "kubeconfig")?;
        let k = Kubeconfig::read_from(&path)
            .map_err(|e| Error::input(&format!("read kubeconfig {}", path.display()), e))?;
        merged = Some(match merged {
            None => k,
            Some(m) => m
                .merge(k)
                .map_err(|e| Error::input("merge the kubeconfig files", e))?,
        });
    }
    merged.ok_or_else(|| {
        let list: Vec<String> = missing.iter().map(|p| p.display().to_string()).collect();
        Error::Input(match source {
            Source::Env => format!(
                "no kubeconfig: none of the files KUBECONFIG lists exists ({}): check \
                 KUBECONFIG, or pass --kubeconfig FILE",
                list.join(", ")
            ),
            _ => format!(
                "no kubeconfig: {} does not exist: log in to a cluster (its tool writes the \
                 kubeconfig), set KUBECONFIG or pass --kubeconfig FILE",
                list.join(", ")
            ),
        })
    })
}

/// Readies the cluster and user the context uses: their files checked, the token file read
/// (capped) into the token, and an exec plugin run (within `deadline`) into a token or client
/// certificate.
pub fn prepare(
    k: &mut Kubeconfig,
    options: &KubeConfigOptions,
    deadline: Duration,
) -> Result<(), Error> {
    let context_name = options
        .context
        .clone()
        .or_else(|| k.current_context.clone());
    let context = context_name
        .as_deref()
        .and_then(|n| k.contexts.iter().find(|c| c.name == n))
        .and_then(|c| c.context.clone());
    let cluster_name = options
        .cluster
        .clone()
        .or_else(|| context.as_ref().map(|c| c.cluster.clone()));
    let user_name = options
        .user
        .clone()
        .or_else(|| context.as_ref().and_then(|c| c.user.clone()));

    let mut cluster = None;
    if let Some(named) = k
        .clusters
        .iter()
        .find(|c| Some(&c.name) == cluster_name.as_ref())
    {
        if let Some(c) = &named.cluster {
            if let Some(ca) = &c.certificate_authority {
                if c.certificate_authority_data.is_none() {
                    check_file(
                        Path::new(ca),
                        &format!("cluster {}'s certificate-authority", named.name),
                    )?;
                }
            }
            cluster = Some(c.clone());
        }
    }
    let Some(named) = k
        .auth_infos
        .iter_mut()
        .find(|u| Some(&u.name) == user_name.as_ref())
    else {
        return Ok(());
    };
    let who = format!("user {}'s", named.name);
    let Some(user) = named.auth_info.as_mut() else {
        return Ok(());
    };
    if let Some(exec) = user.exec.take() {
        let cluster_info = match (&cluster, exec.provide_cluster_info) {
            (Some(c), true) => Some(
                kube::config::ExecAuthCluster::try_from(c)
                    .map_err(|e| Error::input("read the cluster for the exec plugin", e))?,
            ),
            _ => None,
        };
        let credential = run_exec(&exec, cluster_info, deadline)?;
        apply(user, credential)?;
        return Ok(());
    }
    if user.client_certificate_data.is_none() {
        if let Some(p) = &user.client_certificate {
            check_file(Path::new(p), &format!("{who} client-certificate"))?;
        }
    }
    if user.client_key_data.is_none() {
        if let Some(p) = &user.client_key {
            check_file(Path::new(p), &format!("{who} client-key"))?;
        }
    }
    if user.token.is_none() {
        if let Some(p) = user.token_file.take() {
            let what = format!("{who} tokenFile");
            check_file(Path::new(&p), &what)?;
            let bytes = files::read_capped(Path::new(&p), MAX_KUBECONFIG_FILE_BYTES)
                .map_err(|e| Error::Input(format!("{what} {p}: {e}")))?;
            let token = String::from_utf8_lossy(&bytes).trim().to_string();
            let held: AuthInfo = serde_json::from_value(serde_json::json!({ "token": token }))
                .map_err(|e| Error::input("read the token", e))?;
            user.token = held.token;
        }
    }
    Ok(())
}

/// What an exec plugin answered (client.authentication.k8s.io ExecCredential's status).
#[derive(Debug, Default, serde::Deserialize)]
struct ExecCredential {
    #[serde(default)]
    status: Option<ExecStatus>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecStatus {
    token: Option<String>,
    client_certificate_data: Option<String>,
    client_key_data: Option<String>,
}

/// The plugin's credential in place of the plugin.
fn apply(user: &mut AuthInfo, c: ExecStatus) -> Result<(), Error> {
    use base64::Engine;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut fields = serde_json::Map::new();
    if let Some(t) = c.token.filter(|t| !t.is_empty()) {
        fields.insert("token".into(), t.into());
    } else if let (Some(cert), Some(key)) = (c.client_certificate_data, c.client_key_data) {
        fields.insert("client-certificate-data".into(), b64(&cert).into());
        fields.insert("client-key-data".into(), b64(&key).into());
    } else {
        return Err(Error::Input(
            "the kubeconfig's exec plugin answered neither a token nor a client certificate and key"
                .into(),
        ));
    }
    let got: AuthInfo = serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| Error::input("read the exec plugin's credential", e))?;
    user.token = got.token;
    user.token_file = None;
    if got.client_certificate_data.is_some() {
        user.client_certificate_data = got.client_certificate_data;
        user.client_key_data = got.client_key_data;
        user.client_certificate = None;
        user.client_key = None;
    }
    Ok(())
}

/// Runs the exec plugin once: what it prints on stdout (at most `MAX_EXEC_OUTPUT_BYTES`) within
/// `deadline`, read as an ExecCredential. Its stderr is the person's, as with kubectl.
fn run_exec(
    exec: &ExecConfig,
    cluster: Option<kube::config::ExecAuthCluster>,
    deadline: Duration,
) -> Result<ExecStatus, Error> {
    let Some(command) = exec.command.as_deref() else {
        return Err(Error::Input(
            "the kubeconfig's exec plugin has no command".into(),
        ));
    };
    let name = format!("the kubeconfig's exec plugin `{command}`");
    let mut cmd = std::process::Command::new(command);
    cmd.args(exec.args.iter().flatten());
    for e in exec.env.iter().flatten() {
        if let (Some(k), Some(v)) = (e.get("name"), e.get("value")) {
            cmd.env(k, v);
        }
    }
    let interactive = exec.interactive_mode != Some(ExecInteractiveMode::Never);
    let mut spec = serde_json::json!({ "interactive": interactive });
    if let Some(c) = cluster {
        spec["cluster"] = serde_json::to_value(c).unwrap_or_default();
    }
    let info = serde_json::json!({
        "apiVersion": exec.api_version.clone().unwrap_or_else(|| "client.authentication.k8s.io/v1".into()),
        "kind": "ExecCredential",
        "spec": spec,
    });
    cmd.env("KUBERNETES_EXEC_INFO", info.to_string());
    cmd.stdin(if interactive {
        std::process::Stdio::inherit()
    } else {
        std::process::Stdio::null()
    })
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::inherit());
    let mut child = cmd.spawn().map_err(|e| {
        let hint = exec
            .install_hint
            .as_deref()
            .map(|h| format!(" ({})", crate::error::one_line(h)))
            .unwrap_or_default();
        Error::Input(format!("{name} could not be started: {e}{hint}"))
    })?;
    let started = Instant::now();
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    // A thread of its own: a plugin that prints nothing and never ends must not hold the run.
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let r = (&mut stdout)
            .take(MAX_EXEC_OUTPUT_BYTES + 1)
            .read_to_end(&mut out)
            .map(|_| out);
        let _ = tx.send(r);
    });
    let late = || {
        Error::Incomplete(format!(
            "{name} did not answer within {}s",
            deadline.as_secs()
        ))
    };
    let out = match rx.recv_timeout(deadline) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::Input(format!("{name}: reading its output: {e}")));
        }
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(late());
        }
    };
    if out.len() as u64 > MAX_EXEC_OUTPUT_BYTES {
        let _ = child.kill();
        let _ = child.wait();
        return Err(Error::Input(format!(
            "{name} printed more than {} KiB, the most read from it",
            MAX_EXEC_OUTPUT_BYTES >> 10
        )));
    }
    // Its output is complete; it may still be running.
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() < deadline => {
                std::thread::sleep(Duration::from_millis(10))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(late());
            }
        }
    };
    if !status.success() {
        let how = match status.code() {
            Some(c) => format!("exit code {c}"),
            None => status.to_string(),
        };
        return Err(Error::Input(format!(
            "{name} failed ({how}; what it printed is above): log in again with the tool it \
             belongs to, or check the user's exec section (kubectl config view --minify)"
        )));
    }
    let text = String::from_utf8_lossy(&out);
    files::check_nesting(&text).map_err(|e| Error::input(&format!("{name}'s answer"), e))?;
    let credential: ExecCredential = serde_yaml::from_str(&text).map_err(|e| {
        Error::Input(format!(
            "{name} answered no ExecCredential: {}",
            crate::error::one_line(&e.to_string())
        ))
    })?;
    Ok(credential.status.unwrap_or_default())
}

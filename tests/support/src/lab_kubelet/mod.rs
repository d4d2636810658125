//! lab-kubelet: a kubelet that runs the pods bound to its node as local processes, for the reality
//! lab (the real Flink operator and real Flink JVMs against the test cluster's API server).
//!
//! - watches the pods with `spec.nodeName=NODE` (one worker per pod uid, [`worker`]);
//! - gives each pod a loopback address 127.1.X.Y (host IP 127.0.0.1);
//! - runs each container as `unshare --mount --uts --propagation private -- /bin/bash run.sh`
//!   ([`script`]) with the image's folders ([`images`]), the pod's volumes ([`volumes`]), env
//!   ([`env`]) and argv ([`expand`]);
//! - reports container and pod status, restarts with the kubelet's back-off ([`backoff`]), probes
//!   ([`probe`]), events ([`events`]);
//! - serves `/containerLogs` from `<root>/<ns>/<pod>/<container>[.previous].log` exactly as the
//!   fake kubelet does ([`crate::kubelet::serve`]).
//!
//! It does not create its Node; it renews the Node's `Ready` heartbeat and its Lease every 10 s.

pub mod backoff;
pub mod container;
pub mod ctx;
pub mod env;
pub mod events;
pub mod expand;
pub mod gofmt;
pub mod images;
pub mod memcg;
pub mod probe;
pub mod script;
pub mod status;
pub mod volumes;
pub mod worker;

use crate::args::Args;
use ctx::{Ctx, IpAlloc};
use futures::StreamExt;
use k8s_openapi::api::core::v1::{Node, Pod, Service};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::{reflector, watcher, WatchStreamExt};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

pub const USAGE: &str = "usage: lab-kubelet --kubeconfig FILE --node NAME --root DIR --state DIR --images DIR --cert FILE --key FILE --port-file FILE [--address 127.0.0.1] [--port 0] [--request-log FILE] [--backoff-base-ms 1000] [--backoff-max-ms 16000]";

struct Options {
    kubeconfig: PathBuf,
    node: String,
    root: PathBuf,
    state: PathBuf,
    images: PathBuf,
    cert: PathBuf,
    key: PathBuf,
    port_file: PathBuf,
    address: String,
    port: u16,
    request_log: Option<PathBuf>,
    backoff_base: Duration,
    backoff_max: Duration,
}

fn options(argv: Vec<String>) -> Result<Options, String> {
    let args = Args::parse(
        argv,
        &[
            "kubeconfig",
            "node",
            "root",
            "state",
            "images",
            "cert",
            "key",
            "port-file",
            "address",
            "port",
            "request-log",
            "backoff-base-ms",
            "backoff-max-ms",
        ],
        &[],
    )
    .map_err(|e| format!("{e}\n{USAGE}"))?;
    let need = |n: &str| {
        args.value(n)
            .map(PathBuf::from)
            .ok_or(format!("--{n} is required\n{USAGE}"))
    };
    let ms = |n: &str, d: u64| -> Result<Duration, String> {
        args.value(n)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| format!("--{n}: not a number of milliseconds"))
            })
            .unwrap_or(Ok(d))
            .map(Duration::from_millis)
    };
    let backoff_base = ms("backoff-base-ms", 1000)?;
    let backoff_max = ms("backoff-max-ms", 16000)?.max(backoff_base);
    Ok(Options {
        kubeconfig: need("kubeconfig")?,
        node: args
            .value("node")
            .map(str::to_string)
            .ok_or(format!("--node is required\n{USAGE}"))?,
        root: need("root")?,
        state: need("state")?,
        images: need("images")?,
        cert: need("cert")?,
        key: need("key")?,
        port_file: need("port-file")?,
        address: args.value("address").unwrap_or("127.0.0.1").to_string(),
        port: args
            .value("port")
            .unwrap_or("0")
            .parse()
            .map_err(|_| "--port: not a port number")?,
        request_log: args.value("request-log").map(PathBuf::from),
        backoff_base,
        backoff_max,
    })
}

/// `unshare --mount` must work: the lab runs as root (or with CAP_SYS_ADMIN).
fn check_unshare() -> Result<(), String> {
    let out = std::process::Command::new("unshare")
        .args([
            "--mount",
            "--uts",
            "--propagation",
            "private",
            "--",
            "/bin/true",
        ])
        .output()
        .map_err(|e| format!("cannot run unshare (util-linux): {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`unshare --mount --uts` fails here ({}); lab-kubelet needs root or CAP_SYS_ADMIN to give each container its own mounts",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn pem(der: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut b64 = String::new();
    for chunk in der.chunks(3) {
        let n = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                b64.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                b64.push('=');
            }
        }
    }
    let mut out = String::from("-----BEGIN CERTIFICATE-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str("-----END CERTIFICATE-----\n");
    out
}

pub fn main(argv: Vec<String>) -> Result<(), String> {
    let o = options(argv)?;
    check_unshare()?;
    for d in [&o.root, &o.state] {
        std::fs::create_dir_all(d).map_err(|e| format!("create {}: {e}", d.display()))?;
    }
    let acceptor = crate::kubelet::tls_acceptor(&o.cert, &o.key)?;
    let request_log = crate::kubelet::request_log(o.request_log.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(run(o, acceptor, request_log))
}

async fn run(
    o: Options,
    acceptor: tokio_rustls::TlsAcceptor,
    request_log: Option<Arc<Mutex<std::fs::File>>>,
) -> Result<(), String> {
    let kc = kube::config::Kubeconfig::read_from(&o.kubeconfig)
        .map_err(|e| format!("read {}: {e}", o.kubeconfig.display()))?;
    let config = kube::Config::from_custom_kubeconfig(kc, &Default::default())
        .await
        .map_err(|e| format!("kubeconfig {}: {e}", o.kubeconfig.display()))?;
    let api_host = config
        .cluster_url
        .host()
        .unwrap_or("127.0.0.1")
        .trim_matches(['[', ']'])
        .to_string();
    let api_port = config.cluster_url.port_u16().unwrap_or(443);
    let ca_pem: String = config.root_cert.iter().flatten().map(|d| pem(d)).collect();
    let client = kube::Client::try_from(config).map_err(|e| format!("client: {e}"))?;

    let listener = tokio::net::TcpListener::bind((o.address.as_str(), o.port))
        .await
        .map_err(|e| format!("listen on {}:{}: {e}", o.address, o.port))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?.port();

    let (services, svc_writer) = reflector::store::<Service>();
    let (pods, pod_writer) = reflector::store::<Pod>();
    tokio::spawn(
        reflector(
            svc_writer,
            watcher(Api::<Service>::all(client.clone()), Default::default()),
        )
        .default_backoff()
        .for_each(|_| futures::future::ready(())),
    );
    tokio::spawn(
        reflector(
            pod_writer,
            watcher(Api::<Pod>::all(client.clone()), Default::default()),
        )
        .default_backoff()
        .for_each(|_| futures::future::ready(())),
    );

    let ctx = Arc::new(Ctx {
        events: events::Recorder::new(client.clone(), &o.node),
        client: client.clone(),
        node: o.node.clone(),
        log_root: o.root.clone(),
        state: o.state.clone(),
        images: o.images.clone(),
        backoff_base: o.backoff_base,
        backoff_max: o.backoff_max,
        api_host,
        api_port,
        ca_pem,
        services,
        pods,
        ips: Mutex::new(IpAlloc::default()),
        running: Mutex::new(HashSet::new()),
        stopping: Mutex::new(HashMap::new()),
    });

    tokio::spawn(crate::kubelet::serve(
        listener,
        acceptor,
        Arc::new(o.root.clone()),
        request_log,
    ));
    tokio::spawn(heartbeat(client.clone(), o.node.clone()));
    crate::kubelet::write_port_file(&o.port_file, bound)?;
    eprintln!(
        "lab-kubelet: node {} serving {} on https://{}:{bound}",
        o.node,
        o.root.display(),
        o.address
    );

    tokio::select! {
        _ = dispatch(ctx.clone()) => {}
        _ = tokio::signal::ctrl_c() => {}
        _ = terminated() => {}
    }
    shutdown(&ctx).await;
    Ok(())
}

/// Routes pod watch events to one worker per pod uid.
async fn dispatch(ctx: Arc<Ctx>) {
    let api = Api::<Pod>::all(ctx.client.clone());
    let cfg = watcher::Config::default().fields(&format!("spec.nodeName={}", ctx.node));
    let mut stream = std::pin::pin!(watcher(api, cfg).default_backoff());
    let mut workers: HashMap<String, watch::Sender<Option<Pod>>> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    while let Some(ev) = stream.next().await {
        let ev = match ev {
            Ok(ev) => ev,
            Err(e) => {
                eprintln!("lab-kubelet: watch pods: {e}");
                continue;
            }
        };
        match ev {
            watcher::Event::Init => seen.clear(),
            watcher::Event::InitApply(pod) | watcher::Event::Apply(pod) => {
                let uid = pod.metadata.uid.clone().unwrap_or_default();
                seen.insert(uid.clone());
                workers.retain(|_, tx| !tx.is_closed());
                match workers.get(&uid) {
                    Some(tx) => {
                        tx.send_replace(Some(pod));
                    }
                    None => {
                        let done = pod
                            .status
                            .as_ref()
                            .and_then(|s| s.phase.as_deref())
                            .is_some_and(|p| p == "Succeeded" || p == "Failed");
                        if done && pod.metadata.deletion_timestamp.is_none() {
                            continue;
                        }
                        let (tx, rx) = watch::channel(Some(pod));
                        tokio::spawn(worker::run(ctx.clone(), rx));
                        workers.insert(uid, tx);
                    }
                }
            }
            watcher::Event::Delete(pod) => {
                let uid = pod.metadata.uid.clone().unwrap_or_default();
                if let Some(tx) = workers.remove(&uid) {
                    tx.send_replace(None);
                }
            }
            watcher::Event::InitDone => {
                let gone: Vec<String> = workers
                    .keys()
                    .filter(|u| !seen.contains(*u))
                    .cloned()
                    .collect();
                for uid in gone {
                    if let Some(tx) = workers.remove(&uid) {
                        tx.send_replace(None);
                    }
                }
            }
        }
    }
}

/// The Node's Ready heartbeat and its Lease, every 10 s (best effort).
async fn heartbeat(client: kube::Client, node: String) {
    let nodes = Api::<Node>::all(client.clone());
    let leases =
        Api::<k8s_openapi::api::coordination::v1::Lease>::namespaced(client, "kube-node-lease");
    let mut warned = false;
    loop {
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let patch = serde_json::json!({"status": {"conditions": [{
            "type": "Ready", "status": "True", "reason": "KubeletReady",
            "message": "kubelet is posting ready status", "lastHeartbeatTime": now,
        }]}});
        let r = nodes
            .patch_status(&node, &PatchParams::default(), &Patch::Strategic(&patch))
            .await;
        let lease = serde_json::json!({
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": node, "namespace": "kube-node-lease"},
            "spec": {"holderIdentity": node, "leaseDurationSeconds": 40, "renewTime": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)},
        });
        let l = leases
            .patch(
                &node,
                &PatchParams::apply("lab-kubelet").force(),
                &Patch::Apply(&lease),
            )
            .await;
        if let (Err(e), false) = (r.and(l.map(|_| ())).map(|_| ()), warned) {
            eprintln!("lab-kubelet: heartbeat of node {node}: {e}");
            warned = true;
        }
        tokio::time::sleep(Duration::from_secs(10)).await;
    }
}

/// SIGTERM to every container's process group, SIGKILL 2 s later.
async fn shutdown(ctx: &Ctx) {
    let groups: Vec<i32> = ctx
        .running
        .lock()
        .map(|r| r.iter().copied().collect())
        .unwrap_or_default();
    for g in &groups {
        container::signal_group(*g, libc::SIGTERM);
    }
    for _ in 0..20 {
        // SAFETY: signal 0 only checks whether the group still exists.
        if groups.iter().all(|g| unsafe { libc::kill(-*g, 0) } != 0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for g in &groups {
        container::signal_group(*g, libc::SIGKILL);
    }
    eprintln!("lab-kubelet: stopped {} container(s)", groups.len());
}

async fn terminated() {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut s) => {
            s.recv().await;
        }
        Err(_) => std::future::pending::<()>().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_encodes() {
        assert_eq!(
            pem(b"Man"),
            "-----BEGIN CERTIFICATE-----\nTWFu\n-----END CERTIFICATE-----\n"
        );
        assert_eq!(
            pem(b"Ma"),
            "-----BEGIN CERTIFICATE-----\nTWE=\n-----END CERTIFICATE-----\n"
        );
        assert_eq!(
            pem(b"M"),
            "-----BEGIN CERTIFICATE-----\nTQ==\n-----END CERTIFICATE-----\n"
        );
    }

    #[test]
    fn options_parse() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let o = options(s(&[
            "--kubeconfig",
            "k",
            "--node",
            "n",
            "--root",
            "r",
            "--state",
            "s",
            "--images",
            "i",
            "--cert",
            "c",
            "--key",
            "k",
            "--port-file",
            "p",
            "--backoff-base-ms",
            "200",
        ]))
        .unwrap();
        assert_eq!(o.backoff_base, Duration::from_millis(200));
        assert_eq!(o.backoff_max, Duration::from_millis(16000));
        assert!(options(s(&["--node", "n"])).is_err());
    }
}

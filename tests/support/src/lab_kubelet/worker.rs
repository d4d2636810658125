//! One pod's worker: sets up its volumes, runs its init containers then its containers as local
//! processes, restarts them under the pod's restart policy with the kubelet's back-off, probes
//! them, reports the pod's status like a kubelet (a merge patch of `pods/status`, only on change)
//! and tears everything down when the pod is deleted.
//!
//! Event texts are kubelet v1.36.3's (k8s.io/kubernetes@v1.36.3):
//! - `Pulled`: `Container image "X" already present on machine and can be accessed by the pod`
//!   (pkg/kubelet/images/image_manager.go; the form without "and can be accessed by the pod" is
//!   the one when the KubeletEnsureSecretPulledImages gate is off, on by default since 1.35);
//! - `Pulling`, `Failed` (`Failed to pull image "X": ERR`, then `Error: ErrImagePull`), `BackOff`
//!   (Normal, `Back-off pulling image "X"`, then Warning `Failed` `Error: ImagePullBackOff`):
//!   pkg/kubelet/images/image_manager.go and pkg/kubelet/kuberuntime/kuberuntime_container.go;
//! - `Created` `Container created`, `Started` `Container started`, `Killing`
//!   `Stopping container NAME`: pkg/kubelet/kuberuntime/kuberuntime_container.go;
//! - `BackOff` (Warning) `Back-off restarting failed container NAME in pod POD_NS(UID)` and the
//!   waiting message `back-off 2s restarting failed container=NAME pod=POD_NS(UID)`:
//!   pkg/kubelet/kuberuntime/kuberuntime_manager.go, doBackOff, with format.Pod
//!   (pkg/kubelet/util/format/pod.go);
//! - `Unhealthy` `Readiness probe failed: OUT` (pkg/kubelet/prober/prober.go) and the liveness
//!   kill `Container NAME failed liveness probe, will be restarted` (kuberuntime_manager.go);
//! - `FailedMount` `MountVolume.SetUp failed for volume "V" : ERR`.

use super::container::{self, exit_code, log_tail, signal_group, Ctr, Kind, State, Terminated};
use super::ctx::{self as ctxmod, Ctx, Port};
use super::env::container_env;
use super::events::{Involved, NORMAL, WARNING};
use super::expand::argv;
use super::gofmt;
use super::images;
use super::memcg;
use super::probe::{self, Tracker};
use super::script::{self, Bind, Script};
use super::status::{self, restarts, Phase};
use super::volumes::{self, MountError};
use crate::kubelet::log_file;
use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, Patch, PatchParams, Preconditions};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

const TICK: Duration = Duration::from_millis(200);
const HOST_IP: &str = "127.0.0.1";

pub struct Worker {
    ctx: Arc<Ctx>,
    uid: String,
    ns: String,
    name: String,
    dir: PathBuf,
    pod_ip: String,
    start_time: DateTime<Utc>,
    volumes: Option<BTreeMap<String, volumes::Ready>>,
    volume_retry: (Instant, Duration),
    inits: Vec<Ctr>,
    regular: Vec<Ctr>,
    transitions: BTreeMap<String, (bool, DateTime<Utc>)>,
    last_sent: Option<Value>,
    hosts: PathBuf,
    hosts_at: Option<Instant>,
    phase: Phase,
    /// The container ports the pod declares (ctx.rs, `pod_ports`).
    ports: Vec<Port>,
    /// The port and holder a container of this pod last waited for (logged once).
    port_wait: Option<String>,
}

/// Runs the worker until the pod is gone (None on the channel) or deleted.
pub async fn run(ctx: Arc<Ctx>, mut rx: watch::Receiver<Option<Pod>>) {
    let Some(first) = rx.borrow().clone() else {
        return;
    };
    let mut w = Worker::new(ctx, &first);
    loop {
        let pod = rx.borrow_and_update().clone();
        match pod {
            None => {
                let groups = w.stopping();
                w.stop_all(Duration::ZERO, false).await;
                wait_gone(&groups).await;
                w.cleanup();
                return;
            }
            Some(pod) if pod.metadata.deletion_timestamp.is_some() => {
                w.terminate(&pod).await;
                return;
            }
            Some(pod) => {
                w.step(&pod).await;
                w.report(&pod).await;
            }
        }
        tokio::select! {
            r = rx.changed() => {
                if r.is_err() {
                    // The kubelet is shutting down; it kills every process group itself.
                    return;
                }
            }
            _ = tokio::time::sleep(TICK) => {}
        }
    }
}

fn policy(pod: &Pod) -> String {
    pod.spec
        .as_ref()
        .and_then(|s| s.restart_policy.clone())
        .unwrap_or_else(|| "Always".into())
}

impl Worker {
    fn new(ctx: Arc<Ctx>, pod: &Pod) -> Self {
        let uid = pod.metadata.uid.clone().unwrap_or_default();
        let spec = pod.spec.clone().unwrap_or_default();
        let has_inits = spec.init_containers.as_ref().is_some_and(|v| !v.is_empty());
        let waiting = if has_inits {
            "PodInitializing"
        } else {
            "ContainerCreating"
        };
        let inits = spec
            .init_containers
            .iter()
            .flatten()
            .map(|c| {
                let kind = if c.restart_policy.as_deref() == Some("Always") {
                    Kind::Sidecar
                } else {
                    Kind::Init
                };
                Ctr::new(c, kind, "PodInitializing")
            })
            .collect();
        let regular = spec
            .containers
            .iter()
            .map(|c| Ctr::new(c, Kind::Regular, waiting))
            .collect();
        let pod_ip = ctx.ips.lock().map(|mut a| a.get(&uid)).unwrap_or_default();
        let dir = ctx.state.join(&uid);
        Worker {
            hosts: dir.join("hosts"),
            ctx,
            ns: pod.metadata.namespace.clone().unwrap_or_default(),
            name: pod.metadata.name.clone().unwrap_or_default(),
            uid,
            dir,
            pod_ip,
            start_time: Utc::now(),
            volumes: None,
            volume_retry: (Instant::now(), Duration::from_secs(1)),
            inits,
            regular,
            transitions: BTreeMap::new(),
            last_sent: None,
            hosts_at: None,
            phase: Phase::Pending,
            ports: ctxmod::pod_ports(pod),
            port_wait: None,
        }
    }

    fn involved(&self, field_path: Option<String>) -> Involved {
        Involved {
            namespace: self.ns.clone(),
            name: self.name.clone(),
            uid: self.uid.clone(),
            field_path,
        }
    }

    async fn event(&self, c: Option<&Ctr>, type_: &str, reason: &str, message: &str) {
        let on = self.involved(c.map(|c| c.field_path()));
        self.ctx.events.emit(&on, type_, reason, message).await;
    }

    fn pod_desc(&self) -> String {
        // format.Pod: NAME_NAMESPACE(UID)
        format!("{}_{}({})", self.name, self.ns, self.uid)
    }

    fn all_mut(&mut self) -> impl Iterator<Item = &mut Ctr> {
        self.inits.iter_mut().chain(self.regular.iter_mut())
    }

    async fn step(&mut self, pod: &Pod) {
        if self.volumes.is_none() && !self.setup_volumes(pod).await {
            return;
        }
        self.refresh_hosts(pod);
        self.reap(pod);
        self.probe_all().await;
        if self.phase.terminal() {
            return;
        }
        let policy = policy(pod);
        // Init containers, in order; a sidecar must have started before the next one runs.
        let mut initialized = true;
        for i in 0..self.inits.len() {
            let kind = self.inits[i].kind;
            self.advance(pod, &policy, true, i).await;
            let c = &self.inits[i];
            let passed = match kind {
                Kind::Sidecar => c.started(),
                _ => c.succeeded(),
            };
            if !passed {
                initialized = false;
                break;
            }
        }
        if initialized {
            for i in 0..self.regular.len() {
                self.advance(pod, &policy, false, i).await;
            }
        }
        self.phase = status::phase(&policy, &self.inits, &self.regular);
        if self.phase.terminal() {
            // The pod is done: its sidecars stop.
            for c in self.inits.iter_mut().filter(|c| c.kind == Kind::Sidecar) {
                if let Some(pid) = c.pid() {
                    signal_group(pid, libc::SIGTERM);
                    c.kill_at = Some(Instant::now() + Duration::from_secs(2));
                }
                c.done = true;
            }
        }
    }

    async fn setup_volumes(&mut self, pod: &Pod) -> bool {
        let now = Instant::now();
        if now < self.volume_retry.0 {
            return false;
        }
        let mut unsupported = Vec::new();
        let vdir = self.dir.join("volumes");
        match volumes::setup(&self.ctx, pod, &vdir, &self.pod_ip, &mut unsupported).await {
            Ok(v) => {
                for name in unsupported {
                    let msg = format!(
                        "lab-kubelet cannot provide the type of volume \"{name}\": it is an empty directory"
                    );
                    self.event(None, WARNING, "FailedMount", &msg).await;
                }
                self.volumes = Some(v);
                true
            }
            Err(MountError { volume, message }) => {
                let e = MountError { volume, message };
                self.event(None, WARNING, "FailedMount", &e.event_message())
                    .await;
                let next = (self.volume_retry.1 * 2).min(Duration::from_secs(30));
                self.volume_retry = (now + self.volume_retry.1, next);
                false
            }
        }
    }

    /// Rewrites the hosts file in place (a bind-mounted file follows its inode) when Services or
    /// their pods changed; every 2 s at most.
    fn refresh_hosts(&mut self, pod: &Pod) {
        if self
            .hosts_at
            .is_some_and(|t| t.elapsed() < Duration::from_secs(2))
        {
            return;
        }
        self.hosts_at = Some(Instant::now());
        let mut services = Vec::new();
        // Every namespace's Services, as cluster DNS answers them: the operator reaches a
        // JobManager's REST Service in another namespace (`orders-rest.analytics`).
        for svc in self.ctx.services.state() {
            let Some(svc_ns) = svc.metadata.namespace.clone() else {
                continue;
            };
            let Some(selector) = svc.spec.as_ref().and_then(|s| s.selector.clone()) else {
                continue;
            };
            if selector.is_empty() {
                continue;
            }
            let mut ips: Vec<(bool, String, String)> = self
                .ctx
                .pods
                .state()
                .iter()
                .filter(|p| p.metadata.namespace.as_deref() == Some(svc_ns.as_str()))
                .filter(|p| {
                    let labels = p.metadata.labels.clone().unwrap_or_default();
                    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
                })
                .filter_map(|p| {
                    let st = p.status.as_ref()?;
                    if st.phase.as_deref() != Some("Running") {
                        return None;
                    }
                    let ready = st
                        .conditions
                        .iter()
                        .flatten()
                        .any(|c| c.type_ == "Ready" && c.status == "True");
                    Some((
                        !ready,
                        p.metadata.name.clone().unwrap_or_default(),
                        st.pod_ip.clone()?,
                    ))
                })
                .collect();
            ips.sort();
            if let Some((_, _, ip)) = ips.into_iter().next() {
                services.push((svc_ns, svc.metadata.name.clone().unwrap_or_default(), ip));
            }
        }
        services.sort();
        let hostname = hostname(pod);
        let text = script::hosts(&self.pod_ip, &hostname, &services, &self.ns);
        if std::fs::read_to_string(&self.hosts).ok().as_deref() != Some(text.as_str()) {
            let _ = std::fs::create_dir_all(&self.dir);
            if let Err(e) = std::fs::write(&self.hosts, text) {
                eprintln!("lab-kubelet: {}: {e}", self.hosts.display());
            }
        }
    }

    /// Collects exits; sends SIGKILL where a SIGTERM's grace ran out.
    fn reap(&mut self, pod: &Pod) {
        let policy = policy(pod);
        let log_root = self.ctx.log_root.clone();
        let (ns, name) = (self.ns.clone(), self.name.clone());
        let ctx = self.ctx.clone();
        for c in self.all_mut() {
            let State::Running {
                child,
                pid,
                started_at,
                ..
            } = &mut c.state
            else {
                continue;
            };
            let pid = *pid;
            if c.kill_at.is_some_and(|t| Instant::now() >= t) {
                signal_group(pid, libc::SIGKILL);
            }
            let status = match child.try_wait() {
                Ok(Some(s)) => s,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!("lab-kubelet: wait for {ns}/{name}/{}: {e}", c.spec.name);
                    continue;
                }
            };
            // Whatever the process left behind in its group goes too.
            signal_group(pid, libc::SIGKILL);
            if let Ok(mut r) = ctx.running.lock() {
                r.remove(&pid);
            }
            let code = exit_code(status);
            let log = log_file(&log_root, &ns, &name, &c.spec.name, false);
            let message = if code != 0
                && c.spec.termination_message_policy.as_deref() == Some("FallbackToLogsOnError")
            {
                std::fs::read(&log)
                    .ok()
                    .map(|d| log_tail(&d))
                    .filter(|m| !m.is_empty())
            } else {
                None
            };
            // Killed by the kernel's OOM killer in its memory cgroup: OOMKilled, as containerd
            // reports it (memcg.rs).
            let oom = c.memcg.as_ref().is_some_and(|cg| cg.oom_kills() > 0);
            let t = Terminated {
                exit_code: code,
                reason: if oom {
                    "OOMKilled"
                } else if code == 0 {
                    "Completed"
                } else {
                    "Error"
                }
                .into(),
                message,
                started_at: *started_at,
                finished_at: Utc::now(),
                finished: Instant::now(),
                container_id: format!("lab://{pid}"),
            };
            // A container that will run again keeps this run's log as the previous one.
            if restarts(&policy, c.kind, code) {
                let prev = log_file(&log_root, &ns, &name, &c.spec.name, true);
                let _ = std::fs::copy(&log, prev);
            }
            c.state = State::Terminated(t);
            c.ready = false;
            c.kill_at = None;
            c.killed_for = None;
        }
    }

    async fn probe_all(&mut self) {
        let now = Instant::now();
        let mut events = Vec::new();
        let pod_ip = self.pod_ip.clone();
        for c in self.inits.iter_mut().chain(self.regular.iter_mut()) {
            if !c.running() || c.kill_at.is_some() {
                continue;
            }
            let pid = c.pid();
            let spec = c.spec.clone();
            let fp = c.field_path();
            let mut kill: Option<String> = None;
            // The probes that run now: startup until it passes, then readiness and liveness.
            let trackers: Vec<(&'static str, &mut Tracker)> =
                match c.startup.as_mut().filter(|t| !t.ok) {
                    Some(t) => vec![("Startup", t)],
                    None => [
                        ("Readiness", c.readiness.as_mut()),
                        ("Liveness", c.liveness.as_mut()),
                    ]
                    .into_iter()
                    .filter_map(|(which, t)| Some((which, t?)))
                    .collect(),
                };
            for (which, t) in trackers {
                if now < t.next_at {
                    continue;
                }
                t.next_at = now + t.period();
                let r = probe::run(&t.probe, &spec, &pod_ip, pid).await;
                t.record(r.is_ok());
                if let Err(out) = r {
                    events.push((
                        fp.clone(),
                        WARNING,
                        "Unhealthy",
                        format!("{which} probe failed: {out}"),
                    ));
                    // A failed readiness probe only makes the container unready; the others
                    // restart it (kubelet's "failed liveness/startup probe, will be restarted").
                    if which != "Readiness" && t.failed_out() {
                        kill = Some(format!(
                            "Container {} failed {} probe, will be restarted",
                            spec.name,
                            which.to_lowercase()
                        ));
                    }
                }
            }
            c.ready = c.started() && c.readiness.as_ref().is_none_or(|t| t.ok);
            if let (Some(msg), Some(pid)) = (kill, pid) {
                events.push((c.field_path(), NORMAL, "Killing", msg.clone()));
                signal_group(pid, libc::SIGTERM);
                c.kill_at = Some(now + grace(&spec_grace(&self.ctx, None)));
                c.killed_for = Some(msg);
                c.ready = false;
            }
        }
        for (fp, t, reason, msg) in events {
            let on = self.involved(Some(fp));
            self.ctx.events.emit(&on, t, reason, &msg).await;
        }
    }

    /// Moves one container on: start it, restart it after its back-off, or leave it done.
    async fn advance(&mut self, pod: &Pod, policy: &str, init: bool, i: usize) {
        let now = Instant::now();
        let c = if init {
            &mut self.inits[i]
        } else {
            &mut self.regular[i]
        };
        if c.running() || c.done {
            return;
        }
        if let State::Terminated(t) = &c.state {
            if !restarts(policy, c.kind, t.exit_code) {
                c.done = true;
                return;
            }
            let t = t.clone();
            c.last = Some(t);
            c.set_waiting("CrashLoopBackOff", None);
        }
        if let Some(last) = c.last.clone() {
            let (base, max) = (self.ctx.backoff_base, self.ctx.backoff_max);
            if c.crash.in_backoff_since(last.finished, now, max) {
                let d = gofmt::duration(c.crash.current());
                let name = c.spec.name.clone();
                let msg = format!(
                    "back-off {d} restarting failed container={name} pod={}",
                    self.pod_desc()
                );
                let c = if init {
                    &mut self.inits[i]
                } else {
                    &mut self.regular[i]
                };
                let first = c.backoff_reported != Some(last.finished);
                c.set_waiting("CrashLoopBackOff", Some(msg));
                if first {
                    c.backoff_reported = Some(last.finished);
                    let fp = c.field_path();
                    let text = format!(
                        "Back-off restarting failed container {name} in pod {}",
                        self.pod_desc()
                    );
                    let on = self.involved(Some(fp));
                    self.ctx.events.emit(&on, WARNING, "BackOff", &text).await;
                }
                return;
            }
            if c.retry_at.is_none() {
                c.crash.next(last.finished, now, base, max);
            }
        }
        self.start(pod, init, i).await;
    }

    async fn start(&mut self, pod: &Pod, init: bool, i: usize) {
        let now = Instant::now();
        let (base, max) = (self.ctx.backoff_base, self.ctx.backoff_max);
        let ctx = self.ctx.clone();
        let c = if init {
            &self.inits[i]
        } else {
            &self.regular[i]
        };
        if c.retry_at.is_some_and(|t| now < t) {
            return;
        }
        let spec = c.spec.clone();
        // Pods here share the host's network: a port another pod's stopping processes still
        // hold would make this one fail to bind (a replacement JobManager's 6123), where a
        // kubelet's pods each have a network namespace of their own. Wait until they are gone.
        if let Some(holder) = self.port_holder(&spec) {
            if self.port_wait.as_deref() != Some(holder.as_str()) {
                eprintln!(
                    "lab-kubelet: {}/{} container {} waits for {holder}",
                    self.ns, self.name, spec.name
                );
                self.port_wait = Some(holder);
            }
            return;
        }
        let fp = Some(c.field_path());
        let image_ref = spec.image.clone().unwrap_or_default();
        // 1. The image.
        let image = match images::resolve(&ctx.images, &image_ref) {
            Ok(img) => img,
            Err(err) => {
                let c = if init {
                    &mut self.inits[i]
                } else {
                    &mut self.regular[i]
                };
                if c.pull.in_backoff_since_update(now, max) {
                    let first = c.backoff_reported != c.pull.updated();
                    c.set_waiting(
                        "ImagePullBackOff",
                        Some(format!(
                            "Back-off pulling image \"{image_ref}\": ErrImagePull: {err}"
                        )),
                    );
                    if first {
                        c.backoff_reported = c.pull.updated();
                        let on = self.involved(fp);
                        ctx.events
                            .emit(
                                &on,
                                NORMAL,
                                "BackOff",
                                &format!("Back-off pulling image \"{image_ref}\""),
                            )
                            .await;
                        ctx.events
                            .emit(&on, WARNING, "Failed", "Error: ImagePullBackOff")
                            .await;
                    }
                    return;
                }
                c.pull.next(now, now, base, max);
                c.set_waiting("ErrImagePull", Some(err.clone()));
                let on = self.involved(fp);
                ctx.events
                    .emit(
                        &on,
                        NORMAL,
                        "Pulling",
                        &format!("Pulling image \"{image_ref}\""),
                    )
                    .await;
                ctx.events
                    .emit(
                        &on,
                        WARNING,
                        "Failed",
                        &format!("Failed to pull image \"{image_ref}\": {err}"),
                    )
                    .await;
                ctx.events
                    .emit(&on, WARNING, "Failed", "Error: ErrImagePull")
                    .await;
                return;
            }
        };
        let on = self.involved(fp.clone());
        ctx.events
            .emit(
                &on,
                NORMAL,
                "Pulled",
                &format!("Container image \"{image_ref}\" already present on machine and can be accessed by the pod"),
            )
            .await;
        // 2. The container's config: env, argv, mounts.
        let config = self.config(pod, &spec, &image).await;
        let c = if init {
            &mut self.inits[i]
        } else {
            &mut self.regular[i]
        };
        c.image_id = format!("lab://{}", image.folder);
        let (env, argv_, binds) = match config {
            Ok(x) => x,
            Err((reason, msg)) => {
                c.set_waiting(reason, Some(msg.clone()));
                c.retry_at = Some(now + Duration::from_secs(2));
                ctx.events
                    .emit(&on, WARNING, "Failed", &format!("Error: {msg}"))
                    .await;
                return;
            }
        };
        c.retry_at = None;
        // 3. Logs: the last run's becomes the previous one.
        let log = log_file(&ctx.log_root, &self.ns, &self.name, &spec.name, false);
        let prev = log_file(&ctx.log_root, &self.ns, &self.name, &spec.name, true);
        if let Some(parent) = log.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if c.has_exited() && log.exists() {
            let _ = std::fs::rename(&log, &prev);
        }
        let _ = std::fs::File::create(&log);
        // 4. run.sh and the process.
        let cdir = self.dir.join("containers").join(&spec.name);
        let tmp = self.dir.join("tmp");
        let _ = std::fs::create_dir_all(&cdir);
        let _ = std::fs::create_dir_all(&tmp);
        let _ =
            std::fs::set_permissions(&tmp, std::os::unix::fs::PermissionsExt::from_mode(0o1777));
        let working_dir = spec
            .working_dir
            .clone()
            .filter(|w| !w.is_empty())
            .or(image.config.working_dir.clone())
            .unwrap_or_else(|| "/".into());
        let hostname = hostname(pod);
        let text = script::render(&Script {
            binds,
            hosts: &self.hosts,
            tmp: &tmp,
            hostname: &hostname,
            working_dir: &working_dir,
            env: &env,
            argv: &argv_,
        });
        let run_sh = cdir.join("run.sh");
        let written = std::fs::write(&run_sh, text).and_then(|_| {
            std::fs::set_permissions(&run_sh, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        });
        let c = if init {
            &mut self.inits[i]
        } else {
            &mut self.regular[i]
        };
        // A memory limit: a fresh memory cgroup for this run (memcg.rs).
        if let Some(old) = c.memcg.take() {
            old.remove();
        }
        c.memcg = memcg::limit_bytes(&spec)
            .and_then(|l| memcg::MemCg::create(&self.uid, &spec.name, c.restart_count + 1, l));
        let spawned = written.and_then(|_| container::spawn(&run_sh, &log, c.memcg.as_ref()));
        let child = match spawned {
            Ok(ch) => ch,
            Err(e) => {
                let msg = format!("failed to start container \"{}\": {e}", spec.name);
                c.set_waiting("RunContainerError", Some(msg.clone()));
                c.retry_at = Some(now + Duration::from_secs(2));
                ctx.events
                    .emit(&on, WARNING, "Failed", &format!("Error: {msg}"))
                    .await;
                return;
            }
        };
        let pid = child.id() as i32;
        if let Ok(mut r) = ctx.running.lock() {
            r.insert(pid);
        }
        if c.has_exited() {
            c.restart_count += 1;
        }
        let started = Instant::now();
        c.container_id = Some(format!("lab://{pid}"));
        c.readiness = spec
            .readiness_probe
            .as_ref()
            .map(|p| Tracker::new(p, started));
        c.liveness = spec
            .liveness_probe
            .as_ref()
            .map(|p| Tracker::new(p, started));
        c.startup = spec
            .startup_probe
            .as_ref()
            .map(|p| Tracker::new(p, started));
        c.state = State::Running {
            child,
            pid,
            started_at: Utc::now(),
            started,
        };
        c.ready = c.readiness.is_none() && c.startup.is_none();
        ctx.events
            .emit(&on, NORMAL, "Created", "Container created")
            .await;
        ctx.events
            .emit(&on, NORMAL, "Started", "Container started")
            .await;
    }

    /// env, argv and binds, or (waiting reason, message).
    #[allow(clippy::type_complexity)]
    async fn config(
        &self,
        pod: &Pod,
        spec: &k8s_openapi::api::core::v1::Container,
        image: &images::Image,
    ) -> Result<(Vec<(String, String)>, Vec<String>, Vec<Bind>), (&'static str, String)> {
        let cfg = |m: String| ("CreateContainerConfigError", m);
        let kenv = container_env(&self.ctx, pod, spec, &self.pod_ip, HOST_IP)
            .await
            .map_err(cfg)?;
        let mut env = super::env::Env::default();
        for kv in &image.config.env {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            env.set(k, v.to_string());
        }
        env.set("HOSTNAME", hostname(pod));
        for (k, v) in &kenv.vars {
            env.set(k, v.clone());
        }
        let args = argv(
            spec.command.as_deref().unwrap_or(&[]),
            spec.args.as_deref().unwrap_or(&[]),
            &image.config.entrypoint,
            &image.config.cmd,
            &kenv.map(),
        );
        if args.is_empty() {
            return Err((
                "CreateContainerError",
                format!(
                    "failed to generate container \"{}\" spec: no command specified",
                    spec.name
                ),
            ));
        }
        let mut binds: Vec<Bind> = image
            .binds
            .iter()
            .map(|(t, s)| Bind {
                target: t.clone(),
                source: s.clone(),
                read_only: false,
            })
            .collect();
        let vols = self.volumes.as_ref();
        for m in spec.volume_mounts.iter().flatten() {
            let Some(v) = vols.and_then(|v| v.get(&m.name)) else {
                return Err(cfg(format!(
                    "cannot find volume \"{}\" to mount into container \"{}\"",
                    m.name, spec.name
                )));
            };
            let mut source = v.path.clone();
            if let Some(sub) = m.sub_path.as_deref().filter(|s| !s.is_empty()) {
                source = volumes::safe_join(&v.path, sub).map_err(cfg)?;
                if !source.exists() {
                    let _ = std::fs::create_dir_all(&source);
                }
            }
            binds.push(Bind {
                target: m.mount_path.clone(),
                source,
                read_only: m.read_only == Some(true),
            });
        }
        Ok((env.vars, args, binds))
    }

    /// The status patch, sent when it differs from the last one sent.
    async fn report(&mut self, pod: &Pod) {
        let sandbox = self.volumes.is_some();
        let conds = status::conditions(sandbox, self.phase, &self.inits, &self.regular);
        let now = Utc::now();
        let old = pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.clone())
            .unwrap_or_default();
        let mut conditions = Vec::new();
        for (type_, ok, reason, message) in conds {
            let entry = self
                .transitions
                .entry(type_.to_string())
                .or_insert((ok, now));
            if entry.0 != ok {
                *entry = (ok, now);
            }
            let mut c = json!({
                "type": type_,
                "status": if ok { "True" } else { "False" },
                "lastProbeTime": null,
                "lastTransitionTime": container::rfc3339(entry.1),
            });
            if let Some(r) = reason {
                c["reason"] = json!(r);
            }
            if let Some(m) = message {
                c["message"] = json!(m);
            }
            conditions.push(c);
        }
        // Conditions others own (the scheduler's PodScheduled, DisruptionTarget, gates) stay.
        let mine = [
            "PodReadyToStartContainers",
            "Initialized",
            "Ready",
            "ContainersReady",
        ];
        let mut scheduled = false;
        for c in &old {
            if !mine.contains(&c.type_.as_str()) {
                scheduled |= c.type_ == "PodScheduled";
                conditions.push(serde_json::to_value(c).unwrap_or(Value::Null));
            }
        }
        if !scheduled {
            let t = self
                .transitions
                .entry("PodScheduled".into())
                .or_insert((true, now))
                .1;
            conditions.push(json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": container::rfc3339(t)}));
        }
        let mut st = json!({
            "phase": self.phase.as_str(),
            "conditions": conditions,
            "hostIP": HOST_IP,
            "hostIPs": [{"ip": HOST_IP}],
            "startTime": container::rfc3339(self.start_time),
            "containerStatuses": self.regular.iter().map(Ctr::status).collect::<Vec<_>>(),
        });
        if sandbox {
            st["podIP"] = json!(self.pod_ip);
            st["podIPs"] = json!([{"ip": self.pod_ip}]);
        }
        if !self.inits.is_empty() {
            st["initContainerStatuses"] =
                json!(self.inits.iter().map(Ctr::status).collect::<Vec<_>>());
        }
        if self.last_sent.as_ref() == Some(&st) {
            return;
        }
        let api = Api::<Pod>::namespaced(self.ctx.client.clone(), &self.ns);
        let patch = json!({"status": st});
        match api
            .patch_status(&self.name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
        {
            Ok(_) => self.last_sent = Some(st),
            Err(e) => eprintln!("lab-kubelet: status of {}/{}: {e}", self.ns, self.name),
        }
    }

    /// SIGTERM to every running container (with a `Killing` event when `announce`), SIGKILL after
    /// `grace`, until all have exited.
    async fn stop_all(&mut self, grace: Duration, announce: bool) {
        let mut announced = Vec::new();
        for c in self.all_mut() {
            if let Some(pid) = c.pid() {
                signal_group(
                    pid,
                    if grace.is_zero() {
                        libc::SIGKILL
                    } else {
                        libc::SIGTERM
                    },
                );
                c.kill_at = Some(Instant::now() + grace);
                announced.push((
                    c.field_path(),
                    format!("Stopping container {}", c.spec.name),
                ));
            }
        }
        if announce {
            for (fp, msg) in announced {
                let on = self.involved(Some(fp));
                self.ctx.events.emit(&on, NORMAL, "Killing", &msg).await;
            }
        }
        let dummy = Pod::default();
        let deadline = Instant::now() + grace + Duration::from_secs(5);
        while self.inits.iter().chain(&self.regular).any(Ctr::running) && Instant::now() < deadline
        {
            self.reap(&dummy);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        for c in self.all_mut() {
            c.done = true;
        }
    }

    /// Another pod's stopping processes that hold a port `spec` declares: "port N/TCP of POD".
    /// Stopping: the pods whose workers are stopping them (ctx.stopping), and the pods on this
    /// node deleted in the last minute whose workers have not seen it yet.
    fn port_holder(&self, spec: &k8s_openapi::api::core::v1::Container) -> Option<String> {
        let want = ctxmod::container_ports(spec);
        if want.is_empty() {
            return None;
        }
        let say = |(port, proto): Port, who: &str| format!("port {port}/{proto} of {who}");
        if let Ok(stopping) = self.ctx.stopping.lock() {
            for (uid, held) in stopping.iter().filter(|(u, _)| **u != self.uid) {
                if let Some(p) = ctxmod::clash(&want, held) {
                    return Some(say(p, &format!("stopping pod {uid}")));
                }
            }
        }
        let recent = Utc::now().timestamp() - 60;
        self.ctx.pods.state().iter().find_map(|p| {
            let deleted = p.metadata.deletion_timestamp.as_ref()?.0.as_second();
            let node = p.spec.as_ref()?.node_name.as_deref()?;
            if p.metadata.uid.as_deref() == Some(self.uid.as_str())
                || node != self.ctx.node
                || deleted < recent
            {
                return None;
            }
            let port = ctxmod::clash(&want, &ctxmod::pod_ports(p))?;
            let who = format!(
                "deleted pod {}/{}",
                p.metadata.namespace.as_deref().unwrap_or_default(),
                p.metadata.name.as_deref().unwrap_or_default()
            );
            Some(say(port, &who))
        })
    }

    /// Marks this pod's ports as held by stopping processes; returns their process groups.
    fn stopping(&self) -> Vec<i32> {
        if let Ok(mut s) = self.ctx.stopping.lock() {
            s.insert(self.uid.clone(), self.ports.clone());
        }
        self.inits
            .iter()
            .chain(&self.regular)
            .filter_map(Ctr::pid)
            .collect()
    }

    /// The pod was deleted: stop its containers within min(grace, 10 s), then remove it for good.
    async fn terminate(&mut self, pod: &Pod) {
        let grace = grace(&spec_grace(&self.ctx, Some(pod)));
        let groups = self.stopping();
        self.stop_all(grace, true).await;
        wait_gone(&groups).await;
        let api = Api::<Pod>::namespaced(self.ctx.client.clone(), &self.ns);
        let dp = DeleteParams {
            grace_period_seconds: Some(0),
            preconditions: Some(Preconditions {
                uid: Some(self.uid.clone()),
                resource_version: None,
            }),
            ..Default::default()
        };
        match api.delete(&self.name, &dp).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.code == 404 || s.code == 409 => {}
            Err(e) => eprintln!("lab-kubelet: delete {}/{}: {e}", self.ns, self.name),
        }
        self.cleanup();
    }

    fn cleanup(&mut self) {
        for c in self.inits.iter_mut().chain(self.regular.iter_mut()) {
            if let Some(cg) = c.memcg.take() {
                cg.remove();
            }
        }
        memcg::remove_pod(&self.uid);
        if let Ok(mut s) = self.ctx.stopping.lock() {
            s.remove(&self.uid);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = std::fs::remove_dir_all(self.ctx.log_root.join(&self.ns).join(&self.name));
        if let Ok(mut a) = self.ctx.ips.lock() {
            a.release(&self.uid);
        }
        self.ctx.events.forget(&self.uid);
    }
}

/// Waits until no process of the process groups `groups` is left (SIGKILL to any still there),
/// at most 10 s: a container's main process may exit before the rest of its group.
async fn wait_gone(groups: &[i32]) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        // SAFETY: signal 0 only checks whether the group still exists.
        let left: Vec<i32> = groups
            .iter()
            .copied()
            .filter(|g| *g > 0 && unsafe { libc::kill(-*g, 0) } == 0)
            .collect();
        if left.is_empty() || Instant::now() >= deadline {
            return;
        }
        for g in left {
            signal_group(g, libc::SIGKILL);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The pod's hostname: `spec.hostname`, else its name, at most 63 characters.
fn hostname(pod: &Pod) -> String {
    let h = pod
        .spec
        .as_ref()
        .and_then(|s| s.hostname.clone())
        .filter(|h| !h.is_empty())
        .or_else(|| pod.metadata.name.clone())
        .unwrap_or_default();
    h.chars()
        .take(63)
        .collect::<String>()
        .trim_end_matches(['-', '.'])
        .to_string()
}

/// The grace in seconds: the deletion's, else the pod's `terminationGracePeriodSeconds`, else 30.
fn spec_grace(_ctx: &Ctx, pod: Option<&Pod>) -> i64 {
    pod.and_then(|p| {
        p.metadata
            .deletion_grace_period_seconds
            .or_else(|| p.spec.as_ref()?.termination_grace_period_seconds)
    })
    .unwrap_or(30)
}

/// The lab waits at most 10 s.
fn grace(seconds: &i64) -> Duration {
    Duration::from_secs((*seconds).clamp(0, 10) as u64)
}

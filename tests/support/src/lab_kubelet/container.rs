//! One container's runtime state, its process (spawn, exit, kill) and its status JSON.

use super::backoff::Backoff;
use super::probe::Tracker;
use chrono::{DateTime, SecondsFormat, Utc};
use k8s_openapi::api::core::v1::Container;
use serde_json::{json, Value};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Init,
    /// A restartable init container (`restartPolicy: Always`).
    Sidecar,
    Regular,
}

#[derive(Debug, Clone)]
pub struct Terminated {
    pub exit_code: i32,
    pub reason: String,
    pub message: Option<String>,
    pub started_at: DateTime<Utc>,
    pub finished_at: DateTime<Utc>,
    pub finished: Instant,
    pub container_id: String,
}

#[derive(Debug)]
pub enum State {
    Waiting {
        reason: String,
        message: Option<String>,
    },
    Running {
        child: Child,
        pid: i32,
        started_at: DateTime<Utc>,
        started: Instant,
    },
    Terminated(Terminated),
}

#[derive(Debug)]
pub struct Ctr {
    pub spec: Container,
    pub kind: Kind,
    pub state: State,
    pub last: Option<Terminated>,
    pub restart_count: i32,
    pub ready: bool,
    pub image_id: String,
    pub container_id: Option<String>,
    pub crash: Backoff,
    pub pull: Backoff,
    /// Not before: a retry of a failed create (config errors), to keep from spinning.
    pub retry_at: Option<Instant>,
    /// The back-off window whose BackOff event was sent (crash or pull).
    pub backoff_reported: Option<Instant>,
    pub readiness: Option<Tracker>,
    pub liveness: Option<Tracker>,
    pub startup: Option<Tracker>,
    /// Killed on purpose (liveness, startup): restart regardless of the exit code's meaning.
    pub killed_for: Option<String>,
    /// Terminated and not to run again (by restart policy, or the pod is done).
    pub done: bool,
    /// A SIGTERM was sent: SIGKILL at this time if still running.
    pub kill_at: Option<Instant>,
    /// The running process's memory cgroup (a container with a memory limit).
    pub memcg: Option<super::memcg::MemCg>,
}

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

impl Ctr {
    pub fn new(spec: &Container, kind: Kind, waiting: &str) -> Self {
        Ctr {
            spec: spec.clone(),
            kind,
            state: State::Waiting {
                reason: waiting.into(),
                message: None,
            },
            last: None,
            restart_count: 0,
            ready: false,
            image_id: String::new(),
            container_id: None,
            crash: Backoff::default(),
            pull: Backoff::default(),
            retry_at: None,
            backoff_reported: None,
            readiness: None,
            liveness: None,
            startup: None,
            killed_for: None,
            done: false,
            kill_at: None,
            memcg: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn pid(&self) -> Option<i32> {
        match &self.state {
            State::Running { pid, .. } => Some(*pid),
            _ => None,
        }
    }

    pub fn running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    /// Started, as the kubelet reports it: running and past its startup probe.
    pub fn started(&self) -> bool {
        self.running() && self.startup.as_ref().is_none_or(|s| s.ok)
    }

    pub fn terminated(&self) -> Option<&Terminated> {
        match &self.state {
            State::Terminated(t) => Some(t),
            _ => None,
        }
    }

    pub fn succeeded(&self) -> bool {
        self.terminated().is_some_and(|t| t.exit_code == 0)
    }

    /// Whether it has ever exited (the state shows it, or lastState does).
    pub fn has_exited(&self) -> bool {
        self.terminated().is_some() || self.last.is_some()
    }

    pub fn field_path(&self) -> String {
        match self.kind {
            Kind::Regular => format!("spec.containers{{{}}}", self.spec.name),
            _ => format!("spec.initContainers{{{}}}", self.spec.name),
        }
    }

    pub fn set_waiting(&mut self, reason: &str, message: Option<String>) {
        self.state = State::Waiting {
            reason: reason.into(),
            message,
        };
        self.ready = false;
    }

    /// The `containerStatuses[]` entry.
    pub fn status(&self) -> Value {
        let state = match &self.state {
            State::Waiting { reason, message } => {
                let mut w = json!({"reason": reason});
                if let Some(m) = message {
                    w["message"] = json!(m);
                }
                json!({"waiting": w})
            }
            State::Running { started_at, .. } => {
                json!({"running": {"startedAt": rfc3339(*started_at)}})
            }
            State::Terminated(t) => json!({"terminated": terminated_json(t)}),
        };
        let last = match &self.last {
            Some(t) => json!({"terminated": terminated_json(t)}),
            None => json!({}),
        };
        let mut s = json!({
            "name": self.spec.name,
            "image": self.spec.image.clone().unwrap_or_default(),
            "imageID": self.image_id,
            "ready": self.ready,
            "started": self.started(),
            "restartCount": self.restart_count,
            "state": state,
            "lastState": last,
        });
        if let Some(id) = &self.container_id {
            s["containerID"] = json!(id);
        }
        s
    }
}

fn terminated_json(t: &Terminated) -> Value {
    let mut v = json!({
        "exitCode": t.exit_code,
        "reason": t.reason,
        "startedAt": rfc3339(t.started_at),
        "finishedAt": rfc3339(t.finished_at),
        "containerID": t.container_id,
    });
    if let Some(m) = &t.message {
        v["message"] = json!(m);
    }
    v
}

/// Starts `unshare ... /bin/bash run.sh` in its own process group, stdout and stderr appended to
/// `log`; in the memory cgroup MEMCG when the container has a memory limit.
pub fn spawn(
    run_sh: &Path,
    log: &Path,
    memcg: Option<&super::memcg::MemCg>,
) -> std::io::Result<Child> {
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)?;
    let err = out.try_clone()?;
    let mut cmd = Command::new("unshare");
    if let Some(cg) = memcg {
        let procs = cg.procs().clone();
        // SAFETY: join_self makes only async-signal-safe calls (open, write, close).
        unsafe {
            cmd.pre_exec(move || super::memcg::join_self(&procs));
        }
    }
    cmd.args([
        "--mount",
        "--uts",
        "--propagation",
        "private",
        "--",
        "/bin/bash",
    ])
    .arg(run_sh)
    .env_clear()
    .env(
        "PATH",
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    )
    .stdin(Stdio::null())
    .stdout(out)
    .stderr(err)
    .process_group(0)
    .spawn()
}

/// Exit code as a container runtime reports it: the code, or 128 + the signal.
pub fn exit_code(status: std::process::ExitStatus) -> i32 {
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

pub fn signal_group(pgid: i32, sig: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

/// The termination message from logs, as the kubelet reads it for FallbackToLogsOnError: the last
/// 80 lines, at most the last 2048 bytes of them
/// (k8s.io/kubernetes@v1.36.3:pkg/kubelet/container/runtime.go,
/// MaxContainerTerminationMessageLogLines/Length; kuberuntime_container.go,
/// readLastStringFromContainerLogs).
pub fn log_tail(data: &[u8]) -> String {
    let mut lines = 0;
    let mut start = 0;
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    for (i, &b) in body.iter().enumerate().rev() {
        if b == b'\n' {
            lines += 1;
            if lines == 80 {
                start = i + 1;
                break;
            }
        }
    }
    let tail = &data[start..];
    let tail = &tail[tail.len().saturating_sub(2048)..];
    String::from_utf8_lossy(tail).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_is_80_lines_and_2048_bytes() {
        let data: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let t = log_tail(data.as_bytes());
        assert!(t.starts_with("line 20\n"), "{t}");
        assert!(t.ends_with("line 99\n"));
        let big = "x".repeat(5000) + "\n";
        assert_eq!(log_tail(big.as_bytes()).len(), 2048);
    }

    #[test]
    fn status_shape() {
        let spec: Container =
            serde_json::from_value(json!({"name": "main", "image": "lab/shell"})).unwrap();
        let mut c = Ctr::new(&spec, Kind::Regular, "ContainerCreating");
        c.set_waiting(
            "CrashLoopBackOff",
            Some("back-off 2s restarting failed container=main pod=p_ns(u)".into()),
        );
        let t = Utc::now();
        c.last = Some(Terminated {
            exit_code: 2,
            reason: "Error".into(),
            message: None,
            started_at: t,
            finished_at: t,
            finished: Instant::now(),
            container_id: "lab://42".into(),
        });
        let s = c.status();
        assert_eq!(s["state"]["waiting"]["reason"], "CrashLoopBackOff");
        assert_eq!(s["lastState"]["terminated"]["exitCode"], 2);
        assert_eq!(s["started"], false);
        assert_eq!(c.field_path(), "spec.containers{main}");
    }
}

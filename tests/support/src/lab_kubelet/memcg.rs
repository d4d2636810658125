//! A container's memory limit, enforced as a container runtime does: each run of a container with
//! `resources.limits.memory` gets a memory cgroup of its own (cgroup v1's memory controller, as
//! runc sets `memory.limit_in_bytes` for the kubelet), its process joins it before it execs, and
//! the kernel's OOM killer ends it when it goes over. A run the kernel killed in its cgroup
//! (`oom_kill` in `memory.oom_control` went up) is reported with the reason `OOMKilled`, as
//! containerd reports a task that got an OOM event (containerd@v2.1.0:internal/cri/server/events.go,
//! `reason = oomExitReason` when the exit followed a TaskOOM event). Without a writable memory
//! controller (not root, or cgroup v2 only) containers run without a limit, as before.

use std::ffi::CString;
use std::path::{Path, PathBuf};

/// Where the lab's cgroups go under the memory controller's mount.
const ROOT: &str = "/sys/fs/cgroup/memory/lab-kubelet";

/// One run's memory cgroup.
#[derive(Debug)]
pub struct MemCg {
    dir: PathBuf,
    /// `cgroup.procs` as a C string, for the child to join between fork and exec.
    procs: CString,
}

impl MemCg {
    /// A fresh cgroup for run RUN of container CTR of the pod UID, limited to LIMIT bytes; None when
    /// the controller cannot be written.
    pub fn create(uid: &str, ctr: &str, run: i32, limit: u64) -> Option<Self> {
        let dir = Path::new(ROOT).join(uid).join(format!("{ctr}-{run}"));
        std::fs::create_dir_all(&dir).ok()?;
        std::fs::write(dir.join("memory.limit_in_bytes"), limit.to_string()).ok()?;
        // The limit covers swap too, as runc sets memory.memsw.limit_in_bytes when it can.
        let _ = std::fs::write(dir.join("memory.memsw.limit_in_bytes"), limit.to_string());
        let procs = CString::new(dir.join("cgroup.procs").to_string_lossy().as_bytes()).ok()?;
        Some(MemCg { dir, procs })
    }

    /// The path of `cgroup.procs`, for `join_self` in the child.
    pub fn procs(&self) -> &CString {
        &self.procs
    }

    /// How many processes the kernel's OOM killer ended in this cgroup.
    pub fn oom_kills(&self) -> u64 {
        std::fs::read_to_string(self.dir.join("memory.oom_control"))
            .ok()
            .as_deref()
            .and_then(oom_kill_count)
            .unwrap_or(0)
    }

    /// Removes the cgroup (its processes are gone).
    pub fn remove(&self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Removes what is left of the pod's cgroups.
pub fn remove_pod(uid: &str) {
    let dir = Path::new(ROOT).join(uid);
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let _ = std::fs::remove_dir(e.path());
        }
    }
    let _ = std::fs::remove_dir(&dir);
}

/// Joins the calling process to the cgroup whose `cgroup.procs` is PROCS (writing "0" there moves
/// the writer). Only async-signal-safe calls: it runs between fork and exec.
pub fn join_self(procs: &CString) -> std::io::Result<()> {
    // SAFETY: open/write/close on a NUL-terminated path and a static buffer.
    unsafe {
        let fd = libc::open(procs.as_ptr(), libc::O_WRONLY);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let n = libc::write(fd, b"0".as_ptr().cast(), 1);
        libc::close(fd);
        if n != 1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// `oom_kill N` of a cgroup v1 `memory.oom_control` (Linux 4.13 and later).
fn oom_kill_count(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix("oom_kill "))
        .and_then(|n| n.trim().parse().ok())
}

/// The container's memory limit in bytes, from `resources.limits.memory`.
pub fn limit_bytes(spec: &k8s_openapi::api::core::v1::Container) -> Option<u64> {
    let q = spec.resources.as_ref()?.limits.as_ref()?.get("memory")?;
    super::env::quantity(&q.0)
        .filter(|b| *b >= 1.0)
        .map(|b| b as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_oom_kill_count() {
        let text = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(oom_kill_count(text), Some(3));
        assert_eq!(oom_kill_count("oom_kill_disable 0\nunder_oom 0\n"), None);
    }

    #[test]
    fn the_limit_is_the_containers_memory_limit() {
        let c: k8s_openapi::api::core::v1::Container = serde_json::from_value(
            serde_json::json!({"name": "c", "resources": {"limits": {"memory": "1Gi"}}}),
        )
        .unwrap();
        assert_eq!(limit_bytes(&c), Some(1 << 30));
        let none: k8s_openapi::api::core::v1::Container =
            serde_json::from_value(serde_json::json!({"name": "c"})).unwrap();
        assert_eq!(limit_bytes(&none), None);
    }
}

//! What is wrong with a pod's containers (waiting, crashing, not ready), for the install rules.

use super::*;

/// What is wrong with one container of a pod, in words, with the state that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerTrouble {
    pub container: String,
    pub kind: Trouble,
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trouble {
    OomKilled,
    CrashLoop,
    ConfigError,
    ImagePull,
    Creating,
    NotReady,
}

/// The troubles of a pod's containers; a Pending pod that was never scheduled is one too.
pub fn pod_troubles(p: &Pod) -> Vec<ContainerTrouble> {
    let mut out = Vec::new();
    let Some(st) = p.status.as_ref() else {
        return out;
    };
    for c in st.container_statuses.iter().flatten() {
        let waiting = c.state.as_ref().and_then(|s| s.waiting.as_ref());
        let last = c.last_state.as_ref().and_then(|s| s.terminated.as_ref());
        let reason = waiting.and_then(|w| w.reason.as_deref()).unwrap_or("");
        let message = waiting.and_then(|w| w.message.as_deref()).unwrap_or("");
        let oom = last
            .is_some_and(|t| t.reason.as_deref() == Some("OOMKilled") || t.exit_code == 137)
            || c.state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .is_some_and(|t| t.reason.as_deref() == Some("OOMKilled"));
        let last_text = last
            .map(|t| {
                format!(
                    "; last terminated {} (exit code {})",
                    t.reason.as_deref().unwrap_or("with an error"),
                    t.exit_code
                )
            })
            .unwrap_or_default();
        let restarts = if c.restart_count > 0 {
            format!(", {} restarts", c.restart_count)
        } else {
            String::new()
        };
        let (kind, detail) = if oom {
            (
                Trouble::OomKilled,
                format!("killed by its memory limit (OOMKilled, exit code 137){restarts}"),
            )
        } else if reason == "CrashLoopBackOff" || (c.restart_count > 2 && last.is_some()) {
            (
                Trouble::CrashLoop,
                format!("crash-looping ({reason}){last_text}{restarts}").replace("()", ""),
            )
        } else if matches!(
            reason,
            "CreateContainerConfigError" | "CreateContainerError" | "RunContainerError"
        ) {
            (Trouble::ConfigError, format!("{reason}: {message}"))
        } else if matches!(
            reason,
            "ImagePullBackOff" | "ErrImagePull" | "InvalidImageName"
        ) {
            (Trouble::ImagePull, format!("{reason}: {message}"))
        } else if reason == "ContainerCreating" || reason == "PodInitializing" {
            (Trouble::Creating, format!("waiting in {reason}"))
        } else if !c.ready {
            let why = if reason.is_empty() {
                "running but not ready".to_string()
            } else {
                format!("not ready ({reason})")
            };
            (Trouble::NotReady, format!("{why}{restarts}"))
        } else {
            continue;
        };
        out.push(ContainerTrouble {
            container: c.name.clone(),
            kind,
            detail: detail.trim_end_matches(": ").to_string(),
        });
    }
    if out.is_empty() && st.phase.as_deref() == Some("Pending") {
        let cond = st
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == "PodScheduled" && c.status == "False");
        let detail = match cond {
            Some(c) => format!(
                "Pending, not scheduled: {}",
                c.message.as_deref().unwrap_or("")
            ),
            None => "Pending: its containers have not started".to_string(),
        };
        out.push(ContainerTrouble {
            container: String::new(),
            kind: Trouble::Creating,
            detail,
        });
    }
    out
}

pub fn pod_name(p: &Pod) -> &str {
    p.metadata.name.as_deref().unwrap_or("")
}

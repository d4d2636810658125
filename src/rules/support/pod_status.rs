//! Reading container states the way every pod rule needs them.

use crate::snapshot::pod::ContainerStateTerminated;
use crate::snapshot::pod::{Container, ContainerStatus, Pod};

/// One container of a pod with its status and its spec.
pub struct ContainerView<'a> {
    pub pod: &'a Pod,
    pub status: &'a ContainerStatus,
    pub spec: Option<&'a Container>,
    pub init: bool,
}

impl<'a> ContainerView<'a> {
    pub fn name(&self) -> &'a str {
        &self.status.name
    }
    pub fn waiting_reason(&self) -> Option<&'a str> {
        self.status
            .state
            .as_ref()?
            .waiting
            .as_ref()?
            .reason
            .as_deref()
    }
    pub fn waiting_message(&self) -> Option<&'a str> {
        self.status
            .state
            .as_ref()?
            .waiting
            .as_ref()?
            .message
            .as_deref()
    }
    /// The most recent termination: the current state if terminated, else the last state.
    pub fn last_termination(&self) -> Option<&'a ContainerStateTerminated> {
        self.status
            .state
            .as_ref()
            .and_then(|s| s.terminated.as_deref())
            .or_else(|| self.status.last_state.as_ref()?.terminated.as_deref())
    }
    pub fn restart_count(&self) -> i32 {
        self.status.restart_count
    }
    /// The image and command as declared, for evidence lines.
    pub fn command(&self) -> Option<String> {
        let spec = self.spec?;
        let mut parts: Vec<&str> = Vec::new();
        parts.extend(spec.command.iter().flatten().map(String::as_str));
        parts.extend(spec.args.iter().flatten().map(String::as_str));
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// Every container (init containers first) that has a status.
pub fn containers(pod: &Pod) -> Vec<ContainerView<'_>> {
    let Some(status) = pod.status.as_ref() else {
        return Vec::new();
    };
    let spec = pod.spec.as_ref();
    let find = |name: &str, init: bool| {
        spec.and_then(|s| {
            let list = if init {
                s.init_containers.as_deref().unwrap_or(&[])
            } else {
                &s.containers[..]
            };
            list.iter().find(|c| c.name == name)
        })
    };
    let init = status
        .init_container_statuses
        .iter()
        .flatten()
        .map(|c| ContainerView {
            pod,
            status: c,
            spec: find(&c.name, true),
            init: true,
        });
    let main = status
        .container_statuses
        .iter()
        .flatten()
        .map(|c| ContainerView {
            pod,
            status: c,
            spec: find(&c.name, false),
            init: false,
        });
    init.chain(main).collect()
}

/// The pod's restart policy (`Always` when unset, as the API server defaults it).
pub fn restart_policy(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| s.restart_policy.as_deref())
        .unwrap_or("Always")
}

//! The pod-level status the kubelet computes from its containers: phase
//! (k8s.io/kubernetes@v1.36.3:pkg/kubelet/kubelet_pods.go, getPhase) and conditions
//! (pkg/kubelet/status/generate.go), with Go's `%s` of a string slice: `[a b]`.

use super::container::{Ctr, Kind};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    Pending,
    Running,
    Succeeded,
    Failed,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Pending => "Pending",
            Phase::Running => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
        }
    }

    pub fn terminal(self) -> bool {
        matches!(self, Phase::Succeeded | Phase::Failed)
    }
}

pub fn go_list(names: &[&str]) -> String {
    format!("[{}]", names.join(" "))
}

/// Whether a regular container will run again under the pod's restart policy after exiting with
/// `code`.
pub fn restarts(policy: &str, kind: Kind, code: i32) -> bool {
    match kind {
        Kind::Sidecar => true,
        Kind::Init => policy != "Never" && code != 0,
        Kind::Regular => match policy {
            "Never" => false,
            "OnFailure" => code != 0,
            _ => true,
        },
    }
}

pub fn phase(policy: &str, inits: &[Ctr], regular: &[Ctr]) -> Phase {
    let mut pending_init = false;
    for c in inits.iter().filter(|c| c.kind == Kind::Init) {
        if c.succeeded() {
            continue;
        }
        if policy == "Never" && c.terminated().is_some() {
            return Phase::Failed;
        }
        pending_init = true;
    }
    let any_started = regular.iter().any(|c| c.running() || c.has_exited());
    if pending_init && !any_started {
        return Phase::Pending;
    }
    let (mut running, mut waiting, mut stopped, mut succeeded) = (0, 0, 0, 0);
    for c in regular {
        if c.running() {
            running += 1;
        } else if let Some(t) = c.terminated() {
            stopped += 1;
            if t.exit_code == 0 {
                succeeded += 1;
            }
        } else if c.last.is_some() {
            stopped += 1;
        } else {
            waiting += 1;
        }
    }
    if waiting > 0 {
        return Phase::Pending;
    }
    if running > 0 {
        return Phase::Running;
    }
    if stopped > 0 {
        if policy == "Always" || policy.is_empty() {
            return Phase::Running;
        }
        // Anything that will still restart keeps the pod running.
        if regular.iter().any(|c| !c.done) {
            return Phase::Running;
        }
        if stopped == succeeded {
            return Phase::Succeeded;
        }
        return Phase::Failed;
    }
    Phase::Pending
}

/// (type, status, reason, message) for the kubelet's conditions, in the order a kubelet lists them.
pub fn conditions(
    sandbox: bool,
    phase: Phase,
    inits: &[Ctr],
    regular: &[Ctr],
) -> Vec<(&'static str, bool, Option<&'static str>, Option<String>)> {
    let mut out = vec![("PodReadyToStartContainers", sandbox, None, None)];
    // Initialized
    let incomplete: Vec<&str> = inits
        .iter()
        .filter(|c| match c.kind {
            Kind::Sidecar => !c.started(),
            _ => !c.succeeded(),
        })
        .map(|c| c.name())
        .collect();
    let any_regular_started = regular.iter().any(|c| c.running() || c.has_exited());
    if phase == Phase::Succeeded {
        out.push(("Initialized", true, Some("PodCompleted"), None));
    } else if incomplete.is_empty() || any_regular_started {
        out.push(("Initialized", true, None, None));
    } else {
        out.push((
            "Initialized",
            false,
            Some("ContainersNotInitialized"),
            Some(format!(
                "containers with incomplete status: {}",
                go_list(&incomplete)
            )),
        ));
    }
    // ContainersReady and Ready
    let ready = if phase.terminal() {
        let reason = if phase == Phase::Failed {
            "PodFailed"
        } else {
            "PodCompleted"
        };
        (false, Some(reason), None)
    } else {
        let unready: Vec<&str> = inits
            .iter()
            .filter(|c| c.kind == Kind::Sidecar)
            .chain(regular)
            .filter(|c| !c.ready)
            .map(|c| c.name())
            .collect();
        if unready.is_empty() {
            (true, None, None)
        } else {
            (
                false,
                Some("ContainersNotReady"),
                Some(format!(
                    "containers with unready status: {}",
                    go_list(&unready)
                )),
            )
        }
    };
    out.push(("Ready", ready.0, ready.1, ready.2.clone()));
    out.push(("ContainersReady", ready.0, ready.1, ready.2));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab_kubelet::container::{State, Terminated};
    use k8s_openapi::api::core::v1::Container;
    use std::time::Instant;

    fn ctr(name: &str, kind: Kind) -> Ctr {
        let spec: Container = serde_json::from_value(serde_json::json!({"name": name})).unwrap();
        Ctr::new(&spec, kind, "ContainerCreating")
    }

    fn exit(c: &mut Ctr, code: i32) {
        let t = chrono::Utc::now();
        c.state = State::Terminated(Terminated {
            exit_code: code,
            reason: if code == 0 { "Completed" } else { "Error" }.into(),
            message: None,
            started_at: t,
            finished_at: t,
            finished: Instant::now(),
            container_id: "lab://1".into(),
        });
    }

    #[test]
    fn phases() {
        let mut a = ctr("a", Kind::Regular);
        assert_eq!(
            phase("Always", &[], std::slice::from_ref(&a)),
            Phase::Pending
        );
        exit(&mut a, 2);
        assert_eq!(
            phase("Always", &[], std::slice::from_ref(&a)),
            Phase::Running
        );
        a.done = true;
        assert_eq!(phase("Never", &[], std::slice::from_ref(&a)), Phase::Failed);
        exit(&mut a, 0);
        assert_eq!(
            phase("Never", &[], std::slice::from_ref(&a)),
            Phase::Succeeded
        );
        let mut i = ctr("init", Kind::Init);
        exit(&mut i, 1);
        assert_eq!(
            phase(
                "Never",
                std::slice::from_ref(&i),
                &[ctr("b", Kind::Regular)]
            ),
            Phase::Failed
        );
        assert_eq!(
            phase(
                "Always",
                std::slice::from_ref(&i),
                &[ctr("b", Kind::Regular)]
            ),
            Phase::Pending
        );
    }

    #[test]
    fn unready_message() {
        let c = conditions(
            true,
            Phase::Pending,
            &[],
            &[ctr("a", Kind::Regular), ctr("b", Kind::Regular)],
        );
        assert_eq!(c[2].0, "Ready");
        assert_eq!(c[2].2, Some("ContainersNotReady"));
        assert_eq!(
            c[2].3.as_deref(),
            Some("containers with unready status: [a b]")
        );
        let c = conditions(
            true,
            Phase::Pending,
            &[ctr("i", Kind::Init)],
            &[ctr("a", Kind::Regular)],
        );
        assert_eq!(
            c[1].3.as_deref(),
            Some("containers with incomplete status: [i]")
        );
    }
}

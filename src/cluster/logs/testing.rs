//! Pods built in code for the tests of the logs modules.

use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated,
    ContainerStateWaiting, ContainerStatus, Pod, PodSpec, PodStatus,
};
use std::collections::BTreeMap as Map;

pub(super) fn pod(name: &str, labels: &[(&str, &str)], containers: &[&str]) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = Some(name.into());
    p.metadata.namespace = Some("ns".into());
    p.metadata.labels = Some(
        labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Map<_, _>>(),
    );
    p.spec = Some(PodSpec {
        containers: containers
            .iter()
            .map(|c| Container {
                name: c.to_string(),
                ..Container::default()
            })
            .collect(),
        ..PodSpec::default()
    });
    p
}

pub(super) fn with_status(
    mut p: Pod,
    container: &str,
    restarts: i32,
    state: ContainerState,
    last_exit: Option<i32>,
) -> Pod {
    let st = ContainerStatus {
        name: container.into(),
        restart_count: restarts,
        state: Some(state),
        last_state: last_exit.map(|code| ContainerState {
            terminated: Some(ContainerStateTerminated {
                exit_code: code,
                reason: Some("Error".into()),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..ContainerStatus::default()
    };
    let status = p.status.get_or_insert_with(PodStatus::default);
    status.phase = Some("Running".into());
    status
        .container_statuses
        .get_or_insert_with(Vec::new)
        .push(st);
    p
}

pub(super) fn run_state() -> ContainerState {
    ContainerState {
        running: Some(ContainerStateRunning::default()),
        ..Default::default()
    }
}

pub(super) fn waiting(reason: &str) -> ContainerState {
    ContainerState {
        waiting: Some(ContainerStateWaiting {
            reason: Some(reason.into()),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub(super) const JM: &[(&str, &str)] = &[
    ("app", "orders"),
    ("component", "jobmanager"),
    ("type", "flink-native-kubernetes"),
];
pub(super) const TM: &[(&str, &str)] = &[
    ("app", "orders"),
    ("component", "taskmanager"),
    ("type", "flink-native-kubernetes"),
];

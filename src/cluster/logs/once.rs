//! Without `-f`: read every selected container's log once and print them grouped per container,
//! in the stable order.

use super::list::{namespaces, nothing_matched, resolve, scopes_description};
use super::select::{
    container_names, evicted, is_native, plan, pod_name, pod_namespace, selected_containers,
    StreamSpec, EVICTED_HINT, PREVIOUS_HINT, TASKMANAGER_GONE_HINT,
};
use super::stream::{open_retrying, pump, LineFormat, Open, StreamError};
use super::{Notices, Options};
use crate::cluster::client::Connection;
use crate::error::Error;
use crate::flink::mode::Component;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Semaphore};

/// Chunks buffered per stream while an earlier stream is still being printed (without -f).
const STREAM_BUFFER_CHUNKS: usize = 4;

/// Reads every selected container's log once and prints them grouped per container in the stable
/// order, while up to `max_requests` are fetched concurrently. Each stream not yet being printed
/// may buffer only a few chunks, so memory stays bounded.
pub async fn print_once(
    cluster: &Connection,
    opts: &Options,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    notices: &Notices,
) -> Result<i32, Error> {
    let namespaces = namespaces(cluster);
    if opts.verbose > 0 {
        notices.note(format!(
            "looking for pods with {} in {} (context {})",
            opts.target.describe(),
            scopes_description(&namespaces),
            cluster.context
        ));
    }
    let (target, pods) = resolve(&cluster.client, &namespaces, opts, notices)
        .await
        .map_err(Error::from)?;
    if pods.is_empty() {
        return Err(nothing_matched(cluster, &namespaces, &target, opts.request_timeout).await);
    }
    if !opts.containers.is_default()
        && !pods
            .iter()
            .any(|p| !selected_containers(p, &opts.containers).is_empty())
    {
        return Err(Error::Input(format!(
            "no selected pod has {} (they have: {})",
            opts.containers.describe(),
            container_names(&pods)
        )));
    }
    let plan = plan(&pods, &target, &opts.containers, opts.previous);
    for n in &plan.notes {
        notices.note(n.clone());
    }
    if opts.verbose > 0 {
        notices.note(format!(
            "{} pod{}, {} stream{} to read, {} at a time",
            pods.len(),
            if pods.len() == 1 { "" } else { "s" },
            plan.streams.len(),
            if plan.streams.len() == 1 { "" } else { "s" },
            opts.max_requests
        ));
    }
    if plan.streams.is_empty() {
        return Err(Error::Input(format!(
            "none of the {} selected container{} has a log to show{}",
            plan.skipped,
            if plan.skipped == 1 { "" } else { "s" },
            if opts.previous {
                " with -p (see the notes above)"
            } else {
                " yet (see the notes above)"
            }
        )));
    }

    let o = Open {
        tail: opts.tail,
        since_seconds: opts.since_seconds,
        since_time: opts.since_time,
        follow: false,
        timestamps: opts.timestamps,
        show_timestamps: opts.timestamps,
    };
    let total = plan.streams.len();
    let sem = Arc::new(Semaphore::new(opts.max_requests.max(1)));
    let mut receivers = Vec::with_capacity(total);
    let mut jobs = Vec::with_capacity(total);
    for spec in plan.streams {
        let (tx, rx) = mpsc::channel::<Vec<u8>>(STREAM_BUFFER_CHUNKS);
        let (done_tx, done_rx) = oneshot::channel::<Result<u64, StreamError>>();
        receivers.push((spec.clone(), rx, done_rx));
        jobs.push((spec, tx, done_tx));
    }
    // Permits are taken in print order, so the stream being printed always holds one: no deadlock
    // however small the buffers.
    let client = cluster.client.clone();
    let timeout = opts.request_timeout;
    let spawner = tokio::spawn(async move {
        for (spec, tx, done_tx) in jobs {
            let Ok(permit) = sem.clone().acquire_owned().await else {
                return;
            };
            if tx.is_closed() {
                return;
            }
            let api: Api<Pod> = Api::namespaced(client.clone(), &spec.namespace);
            let fmt = fmt.clone();
            let o = o.clone();
            tokio::spawn(async move {
                let r = match open_retrying(&api, &spec, &o, timeout).await {
                    Ok(reader) => pump(reader, &spec, &o, fmt.as_ref(), &tx, None).await,
                    Err(e) => Err(e),
                };
                drop(permit);
                let _ = done_tx.send(r);
            });
        }
    });

    let mut ok = 0usize;
    let mut failures: Vec<(StreamSpec, StreamError)> = Vec::new();
    for (spec, mut rx, done_rx) in receivers {
        while let Some(chunk) = rx.recv().await {
            if out.send(chunk).await.is_err() {
                spawner.abort();
                return Ok(crate::error::EXIT_OK);
            }
        }
        match done_rx.await {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(StreamError::Closed)) => {
                spawner.abort();
                return Ok(crate::error::EXIT_OK);
            }
            Ok(Err(e)) => failures.push((spec, e)),
            Err(_) => failures.push((spec, StreamError::Transport("the reader stopped".into()))),
        }
    }
    let pods_by_name: BTreeMap<(String, String), &Pod> = pods
        .iter()
        .map(|p| ((pod_namespace(p).to_string(), pod_name(p).to_string()), p))
        .collect();
    for (spec, e) in &failures {
        let pod = pods_by_name
            .get(&(spec.namespace.clone(), spec.pod.clone()))
            .copied();
        notices.warn(failure_message(spec, e, pod));
    }
    if ok == 0 && !failures.is_empty() {
        let cluster_side = failures
            .iter()
            .all(|(_, e)| matches!(e, StreamError::Forbidden(_) | StreamError::Transport(_)));
        let what = format!(
            "could not read any of the {} container log{}",
            total,
            if total == 1 { "" } else { "s" }
        );
        return Err(if cluster_side {
            Error::Incomplete(format!("{what}: {}", failures[0].1))
        } else {
            Error::Input(format!("{what} (see the warnings above)"))
        });
    }
    Ok(crate::error::EXIT_OK)
}

/// What to tell the user when one log could not be read, and what to change.
pub fn failure_message(spec: &StreamSpec, e: &StreamError, pod: Option<&Pod>) -> String {
    let who = spec.name();
    let what = if spec.previous {
        "previous instance's log"
    } else {
        "log"
    };
    match e {
        StreamError::Forbidden(m) => {
            format!("cannot read the {what} of {who}: forbidden ({m}); reading logs needs `get` on pods/log in namespace {}", spec.namespace)
        }
        StreamError::Gone(_) => {
            let hint = match pod {
                Some(p) if spec.role == Some(Component::TaskManager) && is_native(p) => {
                    format!(": {TASKMANAGER_GONE_HINT}")
                }
                _ => String::new(),
            };
            format!(
                "{who}: the pod was deleted before its {what} could be read; the log is gone{hint}"
            )
        }
        StreamError::Unavailable(m) => {
            let hint = if spec.previous {
                format!("; {PREVIOUS_HINT}")
            } else if pod.is_some_and(|p| evicted(p).is_some()) {
                format!("; {EVICTED_HINT}")
            } else if spec.role == Some(Component::TaskManager) && pod.is_some_and(is_native) {
                format!("; {TASKMANAGER_GONE_HINT}")
            } else {
                "; the kubelet no longer has it (the container was removed), or it has not started"
                    .to_string()
            };
            format!("no {what} for {who} ({m}){hint}")
        }
        StreamError::Transport(m) => format!("could not read the {what} of {who}: {m}"),
        StreamError::Closed => format!("{who}: output closed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::logs::testing::*;

    #[test]
    fn gone_logs_say_what_to_change() {
        let tm = pod("orders-taskmanager-1-1", TM, &["flink-main-container"]);
        let spec = StreamSpec::new(&tm, "flink-main-container", false);
        let m = failure_message(&spec, &StreamError::Gone("not found".into()), Some(&tm));
        assert!(m.contains("resourcemanager.taskmanager-timeout"), "{m}");
        let prev = StreamSpec::new(&tm, "flink-main-container", true);
        let m = failure_message(
            &prev,
            &StreamError::Unavailable("previous terminated container not found".into()),
            Some(&tm),
        );
        assert!(m.contains("drop -p"), "{m}");
    }
}

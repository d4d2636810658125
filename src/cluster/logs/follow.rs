//! With `-f`: follow every selected container, and keep following as pods appear, containers
//! restart and pods go away.

use super::list::list_pods;
use super::select::{
    container_names, container_status, crash_waiting, evicted, instance_over, is_native, last_exit,
    list_some, missing_taskmanagers, pod_name, pod_namespace, role, running, selected_containers,
    Containers, Role, StreamSpec, EVICTED_HINT, TASKMANAGER_GONE_HINT,
};
use super::stream::{open, pump, LineFormat, Open, Resume, StreamError};
use super::{Notices, Options};
use crate::cluster::client::Cluster;
use crate::error::Error;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// How often `-f` lists the pods again to see new, restarted and deleted ones.
const POLL: Duration = Duration::from_secs(2);

type Key = (String, String, String);

fn key_of(spec: &StreamSpec) -> Key {
    (
        spec.namespace.clone(),
        spec.pod.clone(),
        spec.container.clone(),
    )
}

struct Tracked {
    spec: StreamSpec,
    uid: String,
    /// A native-mode pod (TaskManagers are bare pods that Flink deletes).
    native: bool,
    restart_count: i32,
    task: Option<tokio::task::JoinHandle<()>>,
    /// A stream of the previous instance, aborted: the next stream waits for it to be gone before
    /// it reads the resume point, so no line is printed twice.
    superseded: Option<tokio::task::JoinHandle<()>>,
    generation: u64,
    resume: Arc<Mutex<Resume>>,
    /// Tail for the first connection (the user's for containers already running at start; all
    /// lines for pods and instances that appear later).
    first_tail: Option<i64>,
    opened: bool,
    /// The stream was opened on an instance that had already ended.
    opened_on_ended: bool,
    /// This instance ended and its log was read to the end: wait for a restart.
    instance_done: bool,
    failures: u32,
    retry_at: Option<Instant>,
}

struct Ended {
    key: Key,
    generation: u64,
    result: Result<u64, StreamError>,
}

fn backoff(failures: u32) -> Duration {
    let ms = 500u64.saturating_mul(1u64 << failures.min(6));
    Duration::from_millis(ms.min(30_000))
}

/// Follows every selected container until Ctrl-C (handled by the caller) or until stdout closes.
pub async fn follow(
    cluster: &Cluster,
    opts: &Options,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    notices: Arc<Notices>,
) -> Result<i32, Error> {
    let ns = cluster.namespace.as_deref();
    let client = cluster.client.clone();
    let scope = cluster.scope_description();
    if opts.verbose > 0 {
        notices.note(format!(
            "following pods with {} in {scope}",
            opts.target.describe()
        ));
    }
    let (ev_tx, mut ev_rx) = mpsc::channel::<Ended>(256);
    let opened = Arc::new(AtomicUsize::new(0));
    let lines_printed = Arc::new(AtomicU64::new(0));
    let mut tracked: BTreeMap<Key, Tracked> = BTreeMap::new();
    let mut known_pods: HashSet<(String, String, String)> = HashSet::new();
    let mut at_start: HashSet<Key> = HashSet::new();
    let mut pods: Vec<Pod> = Vec::new();
    let mut first_round = true;
    let mut said_waiting = false;
    let mut said_cap = false;
    let mut list_failures = 0u32;
    let mut forbidden_streams: HashSet<Key> = HashSet::new();
    let mut next_list = Instant::now();
    let mut ticker = tokio::time::interval(Duration::from_millis(200));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        tokio::select! {
            _ = out.closed() => {
                abort_all(&mut tracked);
                return Ok(crate::error::EXIT_OK);
            }
            Some(ev) = ev_rx.recv() => {
                if matches!(ev.result, Err(StreamError::Closed)) {
                    abort_all(&mut tracked);
                    return Ok(crate::error::EXIT_OK);
                }
                if let Err(StreamError::Forbidden(_)) = &ev.result {
                    forbidden_streams.insert(ev.key.clone());
                }
                ended(&mut tracked, ev, &notices, opts.verbose);
                // A stream ended: look at the pods soon (an exit, a restart or a deletion).
                next_list = next_list.min(Instant::now() + Duration::from_millis(300));
                if opened.load(AtomicOrdering::Relaxed) == 0
                    && !tracked.is_empty()
                    && tracked.keys().all(|k| forbidden_streams.contains(k))
                {
                    abort_all(&mut tracked);
                    return Err(Error::Incomplete(format!(
                        "cannot read any pod's log in {scope}: forbidden (reading logs needs `get` on pods/log)"
                    )));
                }
            }
            _ = ticker.tick() => {}
        }

        if Instant::now() >= next_list {
            match list_pods(
                &client,
                ns,
                &opts.target,
                opts.request_timeout.or(Some(Duration::from_secs(30))),
            )
            .await
            {
                Ok(p) => {
                    if list_failures > 0 {
                        notices.note(format!(
                            "listing pods works again after {list_failures} failure(s)"
                        ));
                    }
                    list_failures = 0;
                    pods = p.into_iter().filter(|p| opts.target.keeps(p)).collect();
                }
                Err(e) if first_round => return Err(e.into_error()),
                Err(e) => {
                    list_failures += 1;
                    if list_failures == 1 {
                        notices.warn(format!(
                            "{}; still following what is open, retrying",
                            e.message()
                        ));
                    }
                }
            }
            next_list = Instant::now() + POLL;
            if pods.is_empty() && !said_waiting {
                said_waiting = true;
                notices.note(format!(
                    "no pods match {} in {scope} yet: waiting for them to appear (Ctrl-C to stop)",
                    opts.target.describe()
                ));
            }
            if let Containers::Named(c) = &opts.containers {
                if !pods.is_empty()
                    && !pods
                        .iter()
                        .any(|p| !selected_containers(p, &opts.containers).is_empty())
                {
                    notices.note(format!(
                        "no pod has a container named {c} yet (they have: {}): waiting",
                        container_names(&pods)
                    ));
                }
            }
            gone(&mut tracked, &pods, &notices);
            let desired = admit(
                &pods,
                opts,
                &mut tracked,
                &mut known_pods,
                &mut at_start,
                first_round,
                &mut said_cap,
                &notices,
            );
            update_instances(&mut tracked, &pods, &desired, &notices);
            if first_round {
                if let Some(n) = missing_taskmanagers(&pods, &opts.target) {
                    notices.note(n);
                }
            }
            first_round = false;
        }

        // Open what should be open.
        let now = Instant::now();
        let by_name: BTreeMap<(&str, &str), &Pod> = pods
            .iter()
            .map(|p| ((pod_namespace(p), pod_name(p)), p))
            .collect();
        for (key, t) in tracked.iter_mut() {
            if t.task.is_some() || t.instance_done || t.retry_at.is_some_and(|at| now < at) {
                continue;
            }
            let Some(pod) = by_name.get(&(key.0.as_str(), key.1.as_str())) else {
                continue;
            };
            let Some(st) = container_status(pod, &key.2) else {
                continue;
            };
            let over = instance_over(st);
            if !running(st) && !over {
                continue; // not started yet
            }
            let resume_state = t.resume.lock().map(|g| g.clone()).unwrap_or_default();
            let o = Open {
                tail: if resume_state.last.is_some() || t.opened {
                    None
                } else {
                    t.first_tail
                },
                since_seconds: if resume_state.last.is_some() {
                    None
                } else {
                    opts.since_seconds
                },
                since_time: resume_state.since().or(opts.since_time),
                follow: !over,
                timestamps: true,
                show_timestamps: opts.timestamps,
            };
            t.generation += 1;
            t.opened = true;
            t.opened_on_ended = over;
            let generation = t.generation;
            let mut spec = t.spec.clone();
            spec.previous = crash_waiting(st);
            let api: Api<Pod> = Api::namespaced(client.clone(), &spec.namespace);
            let fmt = fmt.clone();
            let out = out.clone();
            let ev_tx = ev_tx.clone();
            let resume = t.resume.clone();
            let opened = opened.clone();
            let lines_printed = lines_printed.clone();
            // A busy kubelet can be slow to send the first byte: wait longer after each failure.
            let timeout = opts
                .request_timeout
                .or(Some(Duration::from_secs(30)))
                .map(|d| d.saturating_mul(1 << t.failures.min(3)));
            let key = key.clone();
            let superseded = t.superseded.take();
            t.task = Some(tokio::spawn(async move {
                if let Some(old) = superseded {
                    let _ = old.await;
                }
                let result = match open(&api, &spec, &o, timeout).await {
                    Ok(reader) => {
                        opened.fetch_add(1, AtomicOrdering::Relaxed);
                        let r = pump(reader, &spec, &o, fmt.as_ref(), &out, Some(&resume)).await;
                        if let Ok(n) = &r {
                            lines_printed.fetch_add(*n, AtomicOrdering::Relaxed);
                        }
                        r
                    }
                    Err(e) => Err(e),
                };
                let _ = ev_tx
                    .send(Ended {
                        key,
                        generation,
                        result,
                    })
                    .await;
            }));
        }
    }
}

fn abort_all(tracked: &mut BTreeMap<Key, Tracked>) {
    for t in tracked.values_mut() {
        if let Some(h) = t.task.take() {
            h.abort();
        }
    }
}

/// Pods that went away: say so once, stop their streams.
fn gone(tracked: &mut BTreeMap<Key, Tracked>, pods: &[Pod], notices: &Notices) {
    let present: HashSet<(&str, &str, &str)> = pods
        .iter()
        .map(|p| {
            (
                pod_namespace(p),
                pod_name(p),
                p.metadata.uid.as_deref().unwrap_or(""),
            )
        })
        .collect();
    let mut said = HashSet::new();
    tracked.retain(|key, t| {
        if present.contains(&(key.0.as_str(), key.1.as_str(), t.uid.as_str())) {
            return true;
        }
        if let Some(h) = t.task.take() {
            h.abort();
        }
        if said.insert(key.1.clone()) {
            let hint = if t.spec.role == Role::TaskManager && t.native {
                format!("; {TASKMANAGER_GONE_HINT}")
            } else {
                String::new()
            };
            notices.note(format!(
                "pod/{} ({}) is gone: stopped following it{hint}",
                key.1,
                t.spec.role.as_str()
            ));
        }
        false
    });
}

/// Starts tracking new containers in the stable order, up to --max-log-requests; returns the keys
/// that are wanted now.
#[allow(clippy::too_many_arguments)]
fn admit(
    pods: &[Pod],
    opts: &Options,
    tracked: &mut BTreeMap<Key, Tracked>,
    known_pods: &mut HashSet<(String, String, String)>,
    at_start: &mut HashSet<Key>,
    first_round: bool,
    said_cap: &mut bool,
    notices: &Notices,
) -> Vec<Key> {
    let mut wanted = Vec::new();
    let mut left_out = Vec::new();
    for pod in pods {
        let uid = pod.metadata.uid.clone().unwrap_or_default();
        let pod_key = (
            pod_namespace(pod).to_string(),
            pod_name(pod).to_string(),
            uid.clone(),
        );
        let new_pod = known_pods.insert(pod_key);
        if new_pod {
            if let Some(msg) = evicted(pod) {
                let msg = if msg.is_empty() {
                    String::new()
                } else {
                    format!(" ({msg})")
                };
                notices.note(format!(
                    "pod/{} was evicted{msg}: {EVICTED_HINT}",
                    pod_name(pod)
                ));
            }
        }
        let mut admitted_here = false;
        for c in selected_containers(pod, &opts.containers) {
            let spec = StreamSpec::new(pod, &c, false);
            let key = key_of(&spec);
            wanted.push(key.clone());
            let st = container_status(pod, &c);
            // Containers already running when we start get the user's tail (also when a slot
            // frees up for them later); anything that starts later is read from its first line.
            let started_before = st.is_some_and(|s| running(s) || instance_over(s));
            if first_round && started_before {
                at_start.insert(key.clone());
            }
            if tracked.contains_key(&key) {
                continue;
            }
            if tracked.len() >= opts.max_requests.max(1) {
                left_out.push(spec.name());
                continue;
            }
            let first_tail = if started_before && at_start.contains(&key) {
                opts.tail
            } else {
                None
            };
            tracked.insert(
                key,
                Tracked {
                    spec,
                    uid: uid.clone(),
                    native: is_native(pod),
                    restart_count: st.map(|s| s.restart_count).unwrap_or(0),
                    task: None,
                    superseded: None,
                    generation: 0,
                    resume: Arc::new(Mutex::new(Resume::default())),
                    first_tail,
                    opened: false,
                    opened_on_ended: false,
                    instance_done: false,
                    failures: 0,
                    retry_at: None,
                },
            );
            admitted_here = true;
        }
        if new_pod && !first_round && admitted_here {
            notices.note(format!(
                "pod/{} ({}) appeared: following it",
                pod_name(pod),
                role(pod).as_str()
            ));
        }
    }
    if !left_out.is_empty() && !*said_cap {
        *said_cap = true;
        let followed = tracked.len();
        notices.warn(format!(
            "--max-log-requests {}: following {followed} of {} containers; not followed: {}. Raise \
             --max-log-requests, or narrow with --component, -c or -l",
            opts.max_requests,
            followed + left_out.len(),
            list_some(&left_out, 5)
        ));
    }
    wanted
}

/// Restarts and exits seen in the pods' status.
fn update_instances(
    tracked: &mut BTreeMap<Key, Tracked>,
    pods: &[Pod],
    wanted: &[Key],
    notices: &Notices,
) {
    let by_name: BTreeMap<(&str, &str), &Pod> = pods
        .iter()
        .map(|p| ((pod_namespace(p), pod_name(p)), p))
        .collect();
    let wanted: HashSet<&Key> = wanted.iter().collect();
    for (key, t) in tracked.iter_mut() {
        if !wanted.contains(key) {
            continue;
        }
        let Some(pod) = by_name.get(&(key.0.as_str(), key.1.as_str())) else {
            continue;
        };
        let Some(st) = container_status(pod, &key.2) else {
            continue;
        };
        if st.restart_count > t.restart_count {
            let exit = last_exit(st)
                .map(|e| format!(" (last {e})"))
                .unwrap_or_default();
            notices.note(format!(
                "{} restarted (restart {}){exit}: following the new instance",
                t.spec.name(),
                st.restart_count
            ));
            t.restart_count = st.restart_count;
            if let Some(h) = t.task.take() {
                h.abort();
                t.superseded = Some(h);
            }
            t.generation += 1;
            // The new instance is read from its first line; lines already printed (by a stream
            // that reconnected to it first) are skipped by their time.
            t.first_tail = None;
            t.instance_done = false;
            t.failures = 0;
            t.retry_at = None;
        } else if instance_over(st) {
            let mut how = last_exit(st).unwrap_or_else(|| "ended".into());
            if st.restart_count > 0 {
                how.push_str(&format!("; restarts so far: {}", st.restart_count));
            }
            let never =
                pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("Never");
            let next = if never {
                "it is not restarted (restartPolicy Never)"
            } else {
                "waiting for a restart"
            };
            notices.note(format!("{} exited ({how}); {next}", t.spec.name()));
        }
    }
}

/// A stream ended: decide when to read again.
fn ended(tracked: &mut BTreeMap<Key, Tracked>, ev: Ended, notices: &Notices, verbose: u8) {
    let Some(t) = tracked.get_mut(&ev.key) else {
        return;
    };
    if t.generation != ev.generation {
        return; // an aborted stream of an older instance
    }
    t.task = None;
    let now = Instant::now();
    let name = t.spec.name();
    match ev.result {
        Ok(n) => {
            if t.opened_on_ended {
                // The instance had ended: its log is read to the end.
                t.instance_done = true;
                t.failures = 0;
                return;
            }
            // A live stream ended: the container exited (its status will say so) or the
            // connection was cut. Read again; back off while nothing new comes.
            t.failures = if n > 0 { 0 } else { t.failures + 1 };
            t.retry_at = Some(now + backoff(t.failures));
            if verbose > 0 {
                notices.note(format!(
                    "{name}: log stream ended after {n} line(s); reconnecting"
                ));
            }
        }
        Err(StreamError::Closed) => {}
        Err(StreamError::Gone(_)) => {
            t.retry_at = Some(now + Duration::from_secs(2));
        }
        Err(StreamError::Unavailable(m)) => {
            // Not running right now (between restarts): the next status says what happened.
            t.failures += 1;
            t.retry_at = Some(now + backoff(t.failures));
            if verbose > 0 {
                notices.note(format!("{name}: no log right now ({m}); retrying"));
            }
        }
        Err(StreamError::Forbidden(m)) => {
            t.failures += 1;
            t.retry_at = Some(now + Duration::from_secs(30));
            notices.warn(format!(
                "cannot read the log of {name}: forbidden ({m}); reading logs needs `get` on pods/log; retrying every 30 s"
            ));
        }
        Err(StreamError::Transport(m)) => {
            t.failures += 1;
            let wait = backoff(t.failures);
            t.retry_at = Some(now + wait);
            if t.failures == 1 || verbose > 0 {
                notices.warn(format!(
                    "{name}: log stream failed ({m}); retrying (backing off up to 30 s)"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::logs::select::{Target, MAIN_CONTAINER};
    use crate::cluster::logs::testing::*;

    fn options(max: usize) -> Options {
        Options {
            target: Target {
                name: Some("orders".into()),
                ..Target::default()
            },
            containers: Containers::Default,
            previous: false,
            since_seconds: None,
            since_time: None,
            tail: Some(200),
            timestamps: false,
            max_requests: max,
            request_timeout: None,
            verbose: 0,
        }
    }

    fn running_pod(name: &str, labels: &[(&str, &str)], restarts: i32) -> Pod {
        let mut p = with_status(
            pod(name, labels, &[MAIN_CONTAINER]),
            MAIN_CONTAINER,
            restarts,
            run_state(),
            None,
        );
        p.metadata.uid = Some(format!("uid-{name}"));
        p
    }

    #[test]
    fn follow_admits_in_order_up_to_the_cap_then_sees_restarts_and_deletions() {
        let notices = Notices::held();
        let opts = options(2);
        let mut tracked = BTreeMap::new();
        let (mut known, mut at_start, mut said_cap) = (HashSet::new(), HashSet::new(), false);
        let mut pods = vec![
            running_pod("jm", JM, 0),
            running_pod("tm-1", TM, 0),
            running_pod("tm-2", TM, 0),
        ];
        let wanted = admit(
            &pods,
            &opts,
            &mut tracked,
            &mut known,
            &mut at_start,
            true,
            &mut said_cap,
            &notices,
        );
        assert_eq!(wanted.len(), 3);
        let names: Vec<&str> = tracked.keys().map(|k| k.1.as_str()).collect();
        assert_eq!(names, vec!["jm", "tm-1"]);
        assert!(tracked.values().all(|t| t.first_tail == Some(200)));

        // tm-1 restarts: said once, read from the new instance's first line.
        pods[1] = running_pod("tm-1", TM, 1);
        update_instances(&mut tracked, &pods, &wanted, &notices);
        let t = &tracked[&(
            "ns".to_string(),
            "tm-1".to_string(),
            MAIN_CONTAINER.to_string(),
        )];
        assert_eq!((t.restart_count, t.first_tail), (1, None));

        // tm-1 is deleted: said once; tm-2 takes the freed slot with the user's tail (it was
        // running when we started); a new pod is read from its first line.
        pods.remove(1);
        pods.push(running_pod("tm-3", TM, 0));
        gone(&mut tracked, &pods, &notices);
        admit(
            &pods,
            &opts,
            &mut tracked,
            &mut known,
            &mut at_start,
            false,
            &mut said_cap,
            &notices,
        );
        let names: Vec<&str> = tracked.keys().map(|k| k.1.as_str()).collect();
        assert_eq!(names, vec!["jm", "tm-2"]);
        assert_eq!(
            tracked[&(
                "ns".to_string(),
                "tm-2".to_string(),
                MAIN_CONTAINER.to_string()
            )]
                .first_tail,
            Some(200)
        );

        let said = notices.held.as_ref().unwrap().lock().unwrap().clone();
        assert_eq!(
            said.iter()
                .filter(|l| l.contains("--max-log-requests 2: following 2 of 3"))
                .count(),
            1,
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("tm-1/flink-main-container restarted (restart 1)")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("pod/tm-1 (TaskManager) is gone")
                    && l.contains("taskmanager-timeout")),
            "{said:?}"
        );

        let mut wide = BTreeMap::new();
        admit(
            &pods,
            &options(10),
            &mut wide,
            &mut known,
            &mut at_start,
            false,
            &mut said_cap,
            &notices,
        );
        assert_eq!(
            wide[&(
                "ns".to_string(),
                "tm-3".to_string(),
                MAIN_CONTAINER.to_string()
            )]
                .first_tail,
            None
        );
    }
}

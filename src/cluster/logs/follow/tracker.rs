//! The containers `-f` follows: which ones (in the stable order, up to --max-log-requests), their
//! instances (restarts, exits), and when each stream is to be (re)opened.

use super::super::select::{
    container_status, crash_waiting, evicted, instance_over, is_native, last_exit, list_some,
    pod_name, pod_namespace, role, role_title, running, selected_containers, StreamSpec,
    EVICTED_HINT, TASKMANAGER_GONE_HINT,
};
use super::super::stream::{Open, Resume};
use super::super::{Notices, Options};
use super::pods::{uid, PodKey, Pods};
use crate::flink::mode::Component;
use k8s_openapi::api::core::v1::Pod;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How long the first list, and the first byte of a stream, are waited for with
/// `--request-timeout 0`.
pub(super) const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// One followed container: (namespace, pod, container).
pub(super) type Key = (String, String, String);

fn key_of(spec: &StreamSpec) -> Key {
    (
        spec.namespace.clone(),
        spec.pod.clone(),
        spec.container.clone(),
    )
}

pub(super) fn backoff(failures: u32) -> Duration {
    let ms = 500u64.saturating_mul(1u64 << failures.min(6));
    Duration::from_millis(ms.min(30_000))
}

pub(super) struct Tracked {
    pub(super) spec: StreamSpec,
    pub(super) uid: String,
    /// A native-mode pod (TaskManagers are bare pods that Flink deletes).
    native: bool,
    pub(super) restart_count: i32,
    pub(super) task: Option<JoinHandle<()>>,
    /// A stream of the previous instance, aborted: the next stream waits for it to be gone before
    /// it reads the resume point, so no line is printed twice.
    superseded: Option<JoinHandle<()>>,
    generation: u64,
    resume: Arc<Mutex<Resume>>,
    /// Tail for the first connection (the user's for containers already running at start; all
    /// lines for pods and instances that appear later).
    pub(super) first_tail: Option<i64>,
    opened: bool,
    /// The stream was opened on an instance that had already ended.
    pub(super) opened_on_ended: bool,
    /// This instance ended and its log was read to the end: wait for a restart.
    pub(super) instance_done: bool,
    pub(super) failures: u32,
    pub(super) retry_at: Option<Instant>,
}

/// A stream to start, as [`Tracker::due`] decided it.
pub(super) struct Start {
    pub(super) key: Key,
    pub(super) generation: u64,
    pub(super) spec: StreamSpec,
    pub(super) open: Open,
    pub(super) timeout: Option<Duration>,
    pub(super) resume: Arc<Mutex<Resume>>,
    pub(super) superseded: Option<JoinHandle<()>>,
    /// Counts the streams that opened.
    pub(super) opened: Arc<AtomicUsize>,
}

#[derive(Default)]
pub(super) struct Tracker {
    pub(super) tracked: BTreeMap<Key, Tracked>,
    /// Pods seen so far (namespace, name, uid): each is said to appear, or to be evicted, once.
    known_pods: HashSet<(String, String, String)>,
    /// Containers that had started when the first list came: read with the user's tail.
    at_start: HashSet<Key>,
    said_cap: bool,
}

impl Tracker {
    /// Starts tracking new containers in the stable order, up to --max-log-requests.
    pub(super) fn admit(
        &mut self,
        pods: &Pods,
        opts: &Options,
        first_round: bool,
        notices: &Notices,
    ) {
        let mut left_out = Vec::new();
        for pod in pods.ordered() {
            let uid = uid(pod).to_string();
            let new_pod = self.known_pods.insert((
                pod_namespace(pod).to_string(),
                pod_name(pod).to_string(),
                uid.clone(),
            ));
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
                let st = container_status(pod, &c);
                // Containers already running when we start get the user's tail (also when a slot
                // frees up for them later); anything that starts later is read from its first line.
                let started_before = st.is_some_and(|s| running(s) || instance_over(s));
                if first_round && started_before {
                    self.at_start.insert(key.clone());
                }
                if self.tracked.contains_key(&key) {
                    continue;
                }
                if self.tracked.len() >= opts.max_requests.max(1) {
                    left_out.push(spec.name());
                    continue;
                }
                let first_tail = if started_before && self.at_start.contains(&key) {
                    opts.tail
                } else {
                    None
                };
                self.tracked.insert(
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
                    role_title(role(pod))
                ));
            }
        }
        if !left_out.is_empty() && !self.said_cap {
            self.said_cap = true;
            let followed = self.tracked.len();
            notices.warn(format!(
                "--max-log-requests {}: following {followed} of {} containers; not followed: {}. \
                 Raise --max-log-requests, or narrow with --component, -c or -l",
                opts.max_requests,
                followed + left_out.len(),
                list_some(&left_out, 5)
            ));
        }
    }

    /// Stops following the containers of the pod named `key` when it is gone (`current` is None)
    /// or was replaced by one with another uid. Says so once; true when it stopped something.
    pub(super) fn stop_missing(
        &mut self,
        key: &PodKey,
        current: Option<&Pod>,
        notices: &Notices,
    ) -> bool {
        let current = current.map(uid);
        let gone: Vec<Key> = self
            .tracked
            .iter()
            .filter(|(k, t)| k.0 == key.0 && k.1 == key.1 && current != Some(t.uid.as_str()))
            .map(|(k, _)| k.clone())
            .collect();
        for (i, k) in gone.iter().enumerate() {
            let Some(mut t) = self.tracked.remove(k) else {
                continue;
            };
            if let Some(h) = t.task.take() {
                h.abort();
            }
            if i == 0 {
                let hint = if t.spec.role == Some(Component::TaskManager) && t.native {
                    format!("; {TASKMANAGER_GONE_HINT}")
                } else {
                    String::new()
                };
                notices.note(format!(
                    "pod/{} ({}) is gone: stopped following it{hint}",
                    k.1,
                    role_title(t.spec.role)
                ));
            }
        }
        !gone.is_empty()
    }

    /// Restarts and exits of one pod's followed containers, from its status.
    pub(super) fn update_instances(&mut self, pod: &Pod, opts: &Options, notices: &Notices) {
        let (ns, name) = (pod_namespace(pod), pod_name(pod));
        let wanted: HashSet<String> = selected_containers(pod, &opts.containers)
            .into_iter()
            .collect();
        let never = pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("Never");
        for (k, t) in self.tracked.iter_mut() {
            if k.0 != ns || k.1 != name || !wanted.contains(&k.2) {
                continue;
            }
            let Some(st) = container_status(pod, &k.2) else {
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
                // The new instance is read from its first line; lines already printed (by a
                // stream that reconnected to it first) are skipped by their time.
                t.first_tail = None;
                t.instance_done = false;
                t.failures = 0;
                t.retry_at = None;
            } else if instance_over(st) {
                let mut how = last_exit(st).unwrap_or_else(|| "ended".into());
                if st.restart_count > 0 {
                    how.push_str(&format!("; restarts so far: {}", st.restart_count));
                }
                let next = if never {
                    "it is not restarted (restartPolicy Never)"
                } else {
                    "waiting for a restart"
                };
                notices.note(format!("{} exited ({how}); {next}", t.spec.name()));
            }
        }
    }

    /// The tracked container whose stream of `generation` ended, unless that stream belonged to an
    /// older instance (it was aborted) or the pod is gone.
    pub(super) fn ended(&mut self, key: &Key, generation: u64) -> Option<&mut Tracked> {
        let t = self.tracked.get_mut(key)?;
        if t.generation != generation {
            return None;
        }
        t.task = None;
        Some(t)
    }

    pub(super) fn abort_all(&mut self) {
        for t in self.tracked.values_mut() {
            if let Some(h) = t.task.take() {
                h.abort();
            }
        }
    }

    /// The next time a stream is due to be opened again.
    pub(super) fn next_retry(&self) -> Option<Instant> {
        self.tracked
            .values()
            .filter(|t| t.task.is_none() && !t.instance_done)
            .filter_map(|t| t.retry_at)
            .min()
    }

    /// The streams to open now: containers followed, not being read, running or ended but not read
    /// to the end, and not waiting for a retry.
    pub(super) fn due(
        &mut self,
        pods: &Pods,
        opts: &Options,
        opened: &Arc<AtomicUsize>,
        now: Instant,
    ) -> Vec<Start> {
        let mut starts = Vec::new();
        for (key, t) in self.tracked.iter_mut() {
            if t.task.is_some() || t.instance_done {
                continue;
            }
            match t.retry_at {
                Some(at) if now < at => continue,
                // Due. Whether it opens now depends on the pod's status, and a change to that is
                // an event: no timer is needed to look again.
                Some(_) => t.retry_at = None,
                None => {}
            }
            let Some(pod) = pods.get(&(key.0.clone(), key.1.clone())) else {
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
            let open = Open {
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
            let mut spec = t.spec.clone();
            spec.previous = crash_waiting(st);
            // A busy kubelet can be slow to send the first byte: wait longer after each failure.
            let timeout = opts
                .request_timeout
                .or(Some(DEFAULT_WAIT))
                .map(|d| d.saturating_mul(1 << t.failures.min(3)));
            starts.push(Start {
                key: key.clone(),
                generation: t.generation,
                spec,
                open,
                timeout,
                resume: t.resume.clone(),
                superseded: t.superseded.take(),
                opened: opened.clone(),
            });
        }
        starts
    }
}

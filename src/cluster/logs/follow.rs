//! With `-f`: follow every selected container, and keep following as pods appear, containers
//! restart and pods go away.
//!
//! Pods come from kube's watcher, one per selector of the target ([`watch_pods`]): it lists, then
//! watches from the list's resourceVersion, lists again when the watch falls out of the window, and
//! backs off on errors. A [`Follower`] holds what is followed ([`Pods`], the merged view of the
//! watches, and the [`Tracker`] of containers); each of its `on_*` methods handles one event: a pod
//! appeared or changed, a pod went away, a stream ended, a stream failed, a timer tick, Ctrl-C or
//! a closed output. [`follow`] only waits for the next event, hands it to [`Follower::handle`] and
//! then starts the streams that are due.

mod pods;
mod tracker;

use super::list::{
    namespaces, queries, query_note, scopes_description, watch_error, watch_pods, Query,
};
use super::select::{container_names, missing_taskmanagers, selected_containers};
use super::stream::{open, pump, LineFormat, StreamError};
use super::{Notices, Options};
use crate::cluster::client::Connection;
use crate::error::{Error, EXIT_OK};
use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use kube::runtime::watcher;
use pods::{pod_key, PodKey, Pods};
use std::collections::HashSet;
use std::future::Future;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tracker::{backoff, Key, Start, Tracker, DEFAULT_WAIT};

/// Follows every selected container until `interrupt` completes (Ctrl-C) or stdout closes.
pub async fn follow(
    cluster: &Connection,
    opts: &Options,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    notices: Arc<Notices>,
    interrupt: impl Future<Output = ()>,
) -> Result<i32, Error> {
    let namespaces = namespaces(cluster);
    let scope = format!(
        "{} (context {})",
        scopes_description(&namespaces),
        cluster.context
    );
    if opts.verbose > 0 {
        notices.note(format!(
            "following pods with {} in {scope}",
            opts.target.describe()
        ));
    }
    let mut follower = Follower::new(opts, notices, scope, namespaces, Instant::now());
    let (mut watch, mut restarts) = watch_pods(&cluster.client, &follower.queries);
    let (ended_tx, mut ended_rx) = mpsc::channel::<Ended>(256);
    let streams = Streams {
        client: cluster.client.clone(),
        fmt,
        out: out.clone(),
        ended: ended_tx,
    };
    tokio::pin!(interrupt);
    loop {
        let wake = follower.next_wakeup();
        let event = tokio::select! {
            () = &mut interrupt => Event::Shutdown,
            () = out.closed() => Event::Shutdown,
            Some((i, ev)) = watch.next() => Event::Watch(i, Box::new(ev)),
            Some(ended) = ended_rx.recv() => Event::Stream(ended),
            () = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                Event::Tick
            }
        };
        if let ControlFlow::Break(result) = follower.handle(event) {
            return result;
        }
        if std::mem::take(&mut follower.rewatch) {
            (watch, restarts) = watch_pods(&cluster.client, &follower.queries);
        }
        for i in std::mem::take(&mut follower.restart) {
            if let Some(r) = restarts.get(i) {
                r.notify_one();
            }
        }
        follower.start_due(&streams);
    }
}

/// What the loop waits for.
enum Event {
    /// The watch of the target's `usize`th selector said something.
    Watch(usize, Box<Result<watcher::Event<Pod>, watcher::Error>>),
    /// A stream task ended.
    Stream(Ended),
    /// A stream's retry time, or the deadline of a list, has come.
    Tick,
    /// Ctrl-C, or nobody reads the output any more.
    Shutdown,
}

/// A stream task's last word.
struct Ended {
    key: Key,
    generation: u64,
    result: Result<u64, StreamError>,
}

/// What stream tasks need: the client, the line format, the output, and the way back to the loop.
struct Streams {
    client: kube::Client,
    fmt: Arc<dyn LineFormat>,
    out: mpsc::Sender<Vec<u8>>,
    ended: mpsc::Sender<Ended>,
}

impl Streams {
    fn start(&self, s: Start) -> JoinHandle<()> {
        let api: Api<Pod> = Api::namespaced(self.client.clone(), &s.spec.namespace);
        let fmt = self.fmt.clone();
        let out = self.out.clone();
        let ended = self.ended.clone();
        tokio::spawn(async move {
            if let Some(old) = s.superseded {
                let _ = old.await;
            }
            let result = match open(&api, &s.spec, &s.open, s.timeout).await {
                Ok(reader) => {
                    s.opened.fetch_add(1, AtomicOrdering::Relaxed);
                    pump(
                        reader,
                        &s.spec,
                        &s.open,
                        fmt.as_ref(),
                        &out,
                        Some(&s.resume),
                    )
                    .await
                }
                Err(e) => Err(e),
            };
            let _ = ended
                .send(Ended {
                    key: s.key,
                    generation: s.generation,
                    result,
                })
                .await;
        })
    }
}

/// Everything `-f` keeps track of. Each `on_*` method handles one event and does no I/O: streams
/// are started by [`Follower::start_due`] after each event.
struct Follower {
    opts: Options,
    notices: Arc<Notices>,
    /// "namespace analytics (context prod)", for notes.
    scope: String,
    /// "namespaces a, b", for errors of the lists.
    list_scope: String,
    namespaces: Vec<Option<String>>,
    /// One list and watch each: every namespace times every selector of the target.
    queries: Vec<Query>,
    /// NAME is now read as a pod query (its deployment had no pods): the watches start over.
    fell_back: bool,
    /// The loop must start the watches again, for the new `queries`.
    rewatch: bool,
    pods: Pods,
    tracker: Tracker,
    /// Containers whose log we may not read.
    forbidden: HashSet<Key>,
    /// Streams opened so far (counted by the stream tasks).
    opened: Arc<AtomicUsize>,
    /// Every selector's pods have been listed once: the first round is over.
    synced: bool,
    /// Until then: the first list must have come by this time.
    first_list_deadline: Instant,
    first_list_timeout: Duration,
    /// Per selector, once its first list is done: when a list again (after the watch fell out of
    /// the window) must have come, bounded as the first one is.
    relist_deadlines: Vec<Option<Instant>>,
    /// Selectors whose watch must start over (a list got no answer in time); the loop does it.
    restart: Vec<usize>,
    watch_failures: u32,
    said_waiting: bool,
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.tracker.abort_all();
    }
}

impl Follower {
    fn new(
        opts: &Options,
        notices: Arc<Notices>,
        scope: String,
        namespaces: Vec<Option<String>>,
        now: Instant,
    ) -> Self {
        let queries = queries(&namespaces, &opts.target);
        let first_list_timeout = opts.request_timeout.unwrap_or(DEFAULT_WAIT);
        Follower {
            opts: opts.clone(),
            notices,
            scope,
            list_scope: scopes_description(&namespaces),
            pods: Pods::new(queries.len()),
            relist_deadlines: vec![None; queries.len().max(1)],
            namespaces,
            queries,
            fell_back: false,
            rewatch: false,
            tracker: Tracker::default(),
            forbidden: Default::default(),
            opened: Arc::new(AtomicUsize::new(0)),
            synced: false,
            first_list_deadline: now + first_list_timeout,
            first_list_timeout,
            restart: Vec::new(),
            watch_failures: 0,
            said_waiting: false,
        }
    }

    /// Hands one event to its handler. `Break` ends the run with its result.
    fn handle(&mut self, event: Event) -> ControlFlow<Result<i32, Error>> {
        match event {
            Event::Watch(i, ev) => match *ev {
                Ok(ev) => {
                    // `Init` comes before the list is asked for: it proves nothing yet.
                    if !matches!(ev, watcher::Event::Init) {
                        self.watch_works();
                    }
                    match ev {
                        watcher::Event::Init => self.on_list_started(i, Instant::now()),
                        watcher::Event::InitApply(pod) => self.on_pod_listed(i, pod),
                        watcher::Event::InitDone => self.on_list_done(i),
                        watcher::Event::Apply(pod) => self.on_pod_applied(i, pod),
                        watcher::Event::Delete(pod) => self.on_pod_deleted(i, &pod_key(&pod)),
                    }
                    ControlFlow::Continue(())
                }
                Err(e) => self.on_watch_failed(i, e),
            },
            Event::Stream(Ended {
                result: Err(StreamError::Closed),
                ..
            }) => self.on_shutdown(),
            Event::Stream(Ended {
                key,
                generation,
                result: Ok(lines),
            }) => {
                self.on_stream_ended(&key, generation, lines);
                ControlFlow::Continue(())
            }
            Event::Stream(Ended {
                key,
                generation,
                result: Err(e),
            }) => self.on_stream_failed(&key, generation, e),
            Event::Tick => self.on_tick(Instant::now()),
            Event::Shutdown => self.on_shutdown(),
        }
    }

    // -------------------------------------------------------------------------------- the pods

    /// A watch starts a list: the first, or again after the watch fell out of the window (410
    /// Gone). Either must come within the first list's bound.
    fn on_list_started(&mut self, i: usize, now: Instant) {
        self.pods.relist_started(i);
        if self.pods.is_listed(i) {
            if let Some(d) = self.relist_deadlines.get_mut(i) {
                *d = Some(now + self.first_list_timeout);
            }
        }
    }

    /// A pod in a watch's (re)list.
    fn on_pod_listed(&mut self, i: usize, pod: Pod) {
        if self.opts.target.keeps(&pod) {
            self.pods.listed(i, pod);
        }
    }

    /// A watch's list is complete. The first time every selector's is: the first round. Later (the
    /// watch had fallen behind and listed again): the pods missing from the new list went away
    /// meanwhile, the others may have changed.
    fn on_list_done(&mut self, i: usize) {
        if let Some(d) = self.relist_deadlines.get_mut(i) {
            *d = None;
        }
        let (before, now) = self.pods.relisted(i);
        if !self.synced {
            if self.pods.all_listed() {
                self.on_first_list();
            }
            return;
        }
        for key in &before {
            self.pod_gone(key);
        }
        for key in &now {
            self.pod_changed(key);
        }
    }

    /// The first round: every selector's pods are known. When NAME's deployment has no pods and
    /// NAME may be read as stern's pod query, the watches start over with that query.
    fn on_first_list(&mut self) {
        if self.pods.is_empty() && !self.fell_back {
            if let Some(fallback) = self.opts.fallback.clone() {
                self.fell_back = true;
                self.queries = queries(&self.namespaces, &fallback);
                self.pods = Pods::new(self.queries.len());
                self.relist_deadlines = vec![None; self.queries.len().max(1)];
                self.first_list_deadline = Instant::now() + self.first_list_timeout;
                self.opts.target = fallback;
                self.rewatch = true;
                return;
            }
        }
        self.synced = true;
        if self.fell_back && !self.pods.is_empty() {
            if let Some(name) = self.opts.target.or_deployment.clone() {
                let named = super::select::Target {
                    name: Some(name),
                    ..Default::default()
                };
                self.notices
                    .note(query_note(&named, &self.opts.target).replace("showing", "following"));
            }
        }
        self.say_if_waiting();
        self.say_if_no_such_container();
        self.tracker
            .admit(&self.pods, &self.opts, true, &self.notices);
        for pod in self.pods.ordered() {
            self.tracker
                .update_instances(pod, &self.opts, &self.notices);
        }
        if let Some(n) = missing_taskmanagers(&self.pods.ordered(), &self.opts.target) {
            self.notices.note(n);
        }
    }

    /// A pod was added or changed: a new pod, a container that started, restarted or exited.
    fn on_pod_applied(&mut self, i: usize, pod: Pod) {
        let key = pod_key(&pod);
        if !self.opts.target.keeps(&pod) {
            return self.on_pod_deleted(i, &key);
        }
        self.pods.apply(i, pod);
        if self.synced {
            self.pod_changed(&key);
        }
    }

    /// A pod was deleted, or no longer matches selector `i`.
    fn on_pod_deleted(&mut self, i: usize, key: &PodKey) {
        self.pods.remove(i, key);
        if self.synced {
            self.pod_gone(key);
        }
    }

    fn pod_changed(&mut self, key: &PodKey) {
        // The same name with another uid: the pod followed so far was replaced.
        self.tracker
            .stop_missing(key, self.pods.get(key), &self.notices);
        self.tracker
            .admit(&self.pods, &self.opts, false, &self.notices);
        if let Some(pod) = self.pods.get(key) {
            self.tracker
                .update_instances(pod, &self.opts, &self.notices);
        }
        self.say_if_no_such_container();
    }

    fn pod_gone(&mut self, key: &PodKey) {
        if self
            .tracker
            .stop_missing(key, self.pods.get(key), &self.notices)
        {
            // Its slots are free for containers left out at --max-log-requests.
            self.tracker
                .admit(&self.pods, &self.opts, false, &self.notices);
        }
        self.say_if_waiting();
    }

    fn say_if_waiting(&mut self) {
        if self.pods.is_empty() && !self.said_waiting {
            self.said_waiting = true;
            self.notices.note(format!(
                "no pods match {} in {} yet: waiting for them to appear (Ctrl-C to stop)",
                self.opts.target.describe(),
                self.scope
            ));
        }
    }

    fn say_if_no_such_container(&self) {
        if self.opts.containers.is_default() {
            return;
        }
        let pods = self.pods.ordered();
        if !pods.is_empty()
            && !pods
                .iter()
                .any(|p| !selected_containers(p, &self.opts.containers).is_empty())
        {
            self.notices.note(format!(
                "no pod has {} yet (they have: {}): waiting",
                self.opts.containers.describe(),
                container_names(&pods)
            ));
        }
    }

    // ------------------------------------------------------------------------------- the watch

    /// A selector's first list failing ends the run (exit 2 for a bad selector, 3 when the cluster
    /// refused or could not be reached). Any other error (the watch itself, a later list) is said
    /// once while the watcher retries, backing off, and the open streams go on.
    fn on_watch_failed(&mut self, i: usize, e: watcher::Error) -> ControlFlow<Result<i32, Error>> {
        let first_list = !self.pods.is_listed(i)
            && matches!(
                e,
                watcher::Error::InitialListFailed(_) | watcher::Error::NoResourceVersion
            );
        let Some(q) = self.queries.get(i) else {
            return ControlFlow::Continue(());
        };
        let Some(e) = watch_error(q, e) else {
            return ControlFlow::Continue(()); // the watch fell behind: the watcher lists again
        };
        if first_list {
            self.tracker.abort_all();
            return ControlFlow::Break(Err(e.into()));
        }
        self.watch_failures += 1;
        if self.watch_failures == 1 {
            self.notices
                .warn(format!("{e}; still following what is open, retrying"));
        }
        ControlFlow::Continue(())
    }

    fn watch_works(&mut self) {
        if self.watch_failures > 0 {
            self.notices.note(format!(
                "watching pods works again after {} failure(s)",
                self.watch_failures
            ));
            self.watch_failures = 0;
        }
    }

    // ----------------------------------------------------------------------------- the streams

    /// A stream ended without an error: decide when to read again.
    fn on_stream_ended(&mut self, key: &Key, generation: u64, lines: u64) {
        let Some(t) = self.tracker.ended(key, generation) else {
            return;
        };
        if t.opened_on_ended {
            // The instance had ended: its log is read to the end.
            t.instance_done = true;
            t.failures = 0;
            return;
        }
        // A live stream ended: the container exited (its status will say so) or the connection
        // was cut. Read again; back off while nothing new comes.
        t.failures = if lines > 0 { 0 } else { t.failures + 1 };
        t.retry_at = Some(Instant::now() + backoff(t.failures));
        if self.opts.verbose > 0 {
            self.notices.note(format!(
                "{}: log stream ended after {lines} line(s); reconnecting",
                t.spec.name()
            ));
        }
    }

    /// A stream failed: retry later, and say why. When no log could ever be read because every one
    /// is forbidden, end the run (exit 3).
    fn on_stream_failed(
        &mut self,
        key: &Key,
        generation: u64,
        e: StreamError,
    ) -> ControlFlow<Result<i32, Error>> {
        if let StreamError::Forbidden(_) = &e {
            self.forbidden.insert(key.clone());
        }
        let verbose = self.opts.verbose > 0;
        if let Some(t) = self.tracker.ended(key, generation) {
            let now = Instant::now();
            let name = t.spec.name();
            match e {
                StreamError::Closed => {}
                StreamError::Gone(_) => t.retry_at = Some(now + Duration::from_secs(2)),
                StreamError::Unavailable(m) => {
                    // Not running right now (between restarts): the next status says what happened.
                    t.failures += 1;
                    t.retry_at = Some(now + backoff(t.failures));
                    if verbose {
                        self.notices
                            .note(format!("{name}: no log right now ({m}); retrying"));
                    }
                }
                StreamError::Forbidden(m) => {
                    t.failures += 1;
                    t.retry_at = Some(now + Duration::from_secs(30));
                    self.notices.warn(format!(
                        "cannot read the log of {name}: forbidden ({m}); reading logs needs `get` on pods/log; retrying every 30 s"
                    ));
                }
                StreamError::Transport(m) => {
                    t.failures += 1;
                    t.retry_at = Some(now + backoff(t.failures));
                    if t.failures == 1 || verbose {
                        self.notices.warn(format!(
                            "{name}: log stream failed ({m}); retrying (backing off up to 30 s)"
                        ));
                    }
                }
            }
        }
        let tracked = &self.tracker.tracked;
        if self.opened.load(AtomicOrdering::Relaxed) == 0
            && !tracked.is_empty()
            && tracked.keys().all(|k| self.forbidden.contains(k))
        {
            self.tracker.abort_all();
            return ControlFlow::Break(Err(Error::Incomplete(format!(
                "cannot read any pod's log in {}: forbidden (reading logs needs `get` on pods/log)",
                self.scope
            ))));
        }
        ControlFlow::Continue(())
    }

    /// A timer fired: the first list is late (the run ends), a later list is late (its watch
    /// starts over, said once as a watch failure is, the open streams go on), or a stream is due
    /// again (started after the event).
    fn on_tick(&mut self, now: Instant) -> ControlFlow<Result<i32, Error>> {
        let late = format!(
            "list pods in {}: no answer within {}s",
            self.list_scope,
            self.first_list_timeout.as_secs()
        );
        if !self.synced && now >= self.first_list_deadline {
            self.tracker.abort_all();
            return ControlFlow::Break(Err(Error::Incomplete(late)));
        }
        for (i, deadline) in self.relist_deadlines.iter_mut().enumerate() {
            if deadline.is_some_and(|d| now >= d) {
                *deadline = None;
                self.restart.push(i);
                self.watch_failures += 1;
                if self.watch_failures == 1 {
                    self.notices
                        .warn(format!("{late}; still following what is open, retrying"));
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Ctrl-C, or the output was closed (`| head`): stop every stream; that is a success.
    fn on_shutdown(&mut self) -> ControlFlow<Result<i32, Error>> {
        self.tracker.abort_all();
        ControlFlow::Break(Ok(EXIT_OK))
    }

    /// When the loop must wake up if nothing else happens: the next retry of a stream, or the
    /// deadline of a list.
    fn next_wakeup(&self) -> Option<Instant> {
        let deadline = (!self.synced).then_some(self.first_list_deadline);
        let relists = self.relist_deadlines.iter().flatten().copied();
        self.tracker
            .next_retry()
            .into_iter()
            .chain(deadline)
            .chain(relists)
            .min()
    }

    fn due(&mut self, now: Instant) -> Vec<Start> {
        self.tracker.due(&self.pods, &self.opts, &self.opened, now)
    }

    fn start_due(&mut self, streams: &Streams) {
        for s in self.due(Instant::now()) {
            let key = s.key.clone();
            let task = streams.start(s);
            if let Some(t) = self.tracker.tracked.get_mut(&key) {
                t.task = Some(task);
            }
        }
    }
}

#[cfg(test)]
mod tests;

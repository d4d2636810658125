//! `watch`'s state: one watch per kind doctor lists in its first wave (`flink::kinds::LISTED`,
//! with the same label selectors), kept in the snapshot's own types, so that the diagnosis reads
//! the very `Snapshot` a live gather builds.
//!
//! kube's runtime watcher (`kube::runtime::watcher`) lists once, then watches from the list's
//! resourceVersion; it lists again only when the API server answers 410 Gone (the version is too
//! old) or sends an event without a version, and resumes a watch that ended from the last version
//! it saw. kube's reflector store (`reflector::Store`) is not used: it keeps every object whole
//! (a `DynamicObject` is a JSON tree, several kB for a pod); here each object is decoded once, as
//! it arrives, into the slim form the snapshot keeps (`snapshot::pod::Pod`, `kinds::slim_node`),
//! which is what keeps the process small at 100,000 pods.
//!
//! Objects are kept per namespace (cluster-scoped ones apart), so that a change marks its
//! namespace to be diagnosed again and the diagnosis reads only those namespaces
//! ([`Stores::snapshot`]), as `doctor -n NS` would.

use super::list::{api_resource, PAGE};
use crate::flink::kinds::{Select, LISTED};
use crate::flink::mode::Mode;
use crate::snapshot::kinds::{listed_into, Field};
use crate::snapshot::{Gap, GapReason, Snapshot};
use futures::StreamExt;
use kube::api::{Api, DynamicObject};
use kube::runtime::watcher::{self, Event};
use kube::runtime::WatchStreamExt;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Where an object lives: its namespace, or `None` for a cluster-scoped kind.
type Scope = Option<String>;

/// Which namespaces a diagnosis reads again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dirty {
    /// Every namespace: the first diagnosis, a cluster-scoped object changed, or a kind was
    /// listed again.
    All,
    Namespaces(BTreeSet<String>),
}

impl Dirty {
    fn add(&mut self, scope: &Scope) {
        match (self as &mut Dirty, scope) {
            (Dirty::All, _) => {}
            (_, None) => *self = Dirty::All,
            (Dirty::Namespaces(set), Some(ns)) => {
                set.insert(ns.clone());
            }
        }
    }
    pub fn is_empty(&self) -> bool {
        matches!(self, Dirty::Namespaces(s) if s.is_empty())
    }
}

/// The objects of one scope: the snapshot's fields, and for each listed kind where each object
/// sits in its field (by name) and the name at each place. A name is one allocation shared by
/// both (`Arc<str>`), not two copies: at 110,000 objects a copy was about 6 MB.
struct Part {
    snapshot: Snapshot,
    names: Vec<Vec<Name>>,
    index: Vec<HashMap<Name, usize>>,
}

/// An object's name, as the stores' index keeps it.
type Name = Arc<str>;

impl Default for Part {
    fn default() -> Self {
        Part {
            snapshot: Snapshot::default(),
            names: vec![Vec::new(); LISTED.len()],
            index: vec![HashMap::new(); LISTED.len()],
        }
    }
}

impl Part {
    /// Puts a decoded object (alone in `one`'s field) in place of the object of that name, or
    /// adds it.
    fn put(&mut self, kind: usize, field: &Field, name: &str, one: &mut Snapshot) {
        self.remove(kind, field, name);
        field.append(&mut self.snapshot, one);
        let name: Name = name.into();
        self.index[kind].insert(Arc::clone(&name), self.names[kind].len());
        self.names[kind].push(name);
    }

    fn remove(&mut self, kind: usize, field: &Field, name: &str) {
        let Some(at) = self.index[kind].remove(name) else {
            return;
        };
        field.swap_remove(&mut self.snapshot, at);
        self.names[kind].swap_remove(at);
        if let Some(moved) = self.names[kind].get(at) {
            self.index[kind].insert(Arc::clone(moved), at);
        }
    }

    fn clear(&mut self, kind: usize, field: &Field) {
        while let Some(last) = self.names[kind].pop() {
            self.index[kind].remove(&*last);
            field.swap_remove(&mut self.snapshot, self.names[kind].len());
        }
    }

    fn is_empty(&self) -> bool {
        self.names.iter().all(Vec::is_empty)
    }
}

/// What a watch reports besides objects, for the metrics: an error (a refusal is one), or a
/// list again after the API server answered 410 Gone.
pub type OnError = Box<dyn Fn(&str, Trouble) + Send + Sync>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    Failed(GapReason),
    /// 410 Gone: the resourceVersion the watch resumes from has expired (compacted, or the CRD was
    /// replaced and its watch cache began again). kube's watcher lists again: the only re-list.
    Relist,
}

struct Inner {
    parts: BTreeMap<Scope, Part>,
    /// Per kind, while it is being listed (after `Init`): the objects listed so far.
    listing: Vec<Option<BTreeMap<Scope, Part>>>,
    /// Per kind: listed at least once.
    synced: Vec<bool>,
    /// Per kind: why its last list or watch failed, until it is listed again.
    gaps: Vec<Option<Gap>>,
    /// Objects that did not fit their kind, by kind and name: a gap each, as gather records them.
    malformed: BTreeMap<(usize, Scope, String), Gap>,
    dirty: Dirty,
    /// Changes applied since the start (for the metrics and the benchmark).
    changes: u64,
}

/// The watches' stores, shared between the watch tasks and the diagnosis loop.
pub struct Stores {
    inner: Mutex<Inner>,
    changed: Notify,
    /// The namespace the watch is narrowed to (`-n`), `None` for all.
    namespace: Option<String>,
    on_error: OnError,
}

impl Stores {
    pub fn new(namespace: Option<String>, on_error: OnError) -> Arc<Stores> {
        Arc::new(Stores {
            inner: Mutex::new(Inner {
                parts: BTreeMap::new(),
                listing: (0..LISTED.len()).map(|_| None).collect(),
                synced: vec![false; LISTED.len()],
                gaps: vec![None; LISTED.len()],
                malformed: BTreeMap::new(),
                dirty: Dirty::All,
                changes: 0,
            }),
            changed: Notify::new(),
            namespace,
            on_error,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A watch task that panicked while holding the lock left whole objects only (every
        // change is one `put` or `remove`): the state is still usable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts one watch per listed kind on the runtime; they run until the process ends.
    pub fn start(self: &Arc<Self>, client: &kube::Client) {
        let selector = Mode::Operator.selector(None, None);
        for (i, listed) in LISTED.iter().enumerate() {
            let ar = api_resource(&listed.kind);
            let api: Api<DynamicObject> =
                match self.namespace.as_deref().filter(|_| listed.kind.namespaced) {
                    Some(ns) => Api::namespaced_with(client.clone(), ns, &ar),
                    None => Api::all_with(client.clone(), &ar),
                };
            let mut config = watcher::Config::default().page_size(PAGE);
            if listed.select == Select::FlinkComponents {
                config = config.labels(&selector);
            }
            let stores = Arc::clone(self);
            tokio::spawn(async move {
                let events = watcher::watcher(api, config).default_backoff();
                futures::pin_mut!(events);
                while let Some(event) = events.next().await {
                    match event {
                        Ok(event) => stores.apply(i, event),
                        Err(e) => stores.failed(i, e),
                    }
                }
            });
        }
    }

    /// One event of kind `i`'s watch applied to the stores.
    pub fn apply(&self, i: usize, event: Event<DynamicObject>) {
        let Some(field) = listed_into(&LISTED[i].kind) else {
            return;
        };
        let mut inner = self.lock();
        let inner = &mut *inner;
        match event {
            Event::Init => inner.listing[i] = Some(BTreeMap::new()),
            Event::InitApply(o) => {
                let scope = scope_of(i, &o);
                let listing = inner.listing[i].get_or_insert_with(BTreeMap::new);
                let part = listing.entry(scope.clone()).or_default();
                decode_into(i, field, o, part, &scope, &mut inner.malformed);
            }
            Event::InitDone => {
                let listed = inner.listing[i].take().unwrap_or_default();
                for part in inner.parts.values_mut() {
                    part.clear(i, field);
                }
                for (scope, mut new) in listed {
                    let part = inner.parts.entry(scope).or_default();
                    field.append(&mut part.snapshot, &mut new.snapshot);
                    let base = part.names[i].len();
                    for (n, name) in new.names[i].drain(..).enumerate() {
                        part.index[i].insert(Arc::clone(&name), base + n);
                        part.names[i].push(name);
                    }
                }
                inner.parts.retain(|_, p| !p.is_empty());
                inner.synced[i] = true;
                inner.gaps[i] = None;
                inner.dirty = Dirty::All;
                inner.changes += 1;
                self.changed.notify_one();
            }
            Event::Apply(o) => {
                let scope = scope_of(i, &o);
                let part = inner.parts.entry(scope.clone()).or_default();
                decode_into(i, field, o, part, &scope, &mut inner.malformed);
                inner.dirty.add(&scope);
                inner.changes += 1;
                self.changed.notify_one();
            }
            Event::Delete(o) => {
                let scope = scope_of(i, &o);
                let name = o.metadata.name.clone().unwrap_or_default();
                if let Some(part) = inner.parts.get_mut(&scope) {
                    part.remove(i, field, &name);
                    if part.is_empty() {
                        inner.parts.remove(&scope);
                    }
                }
                inner.malformed.remove(&(i, scope.clone(), name));
                inner.dirty.add(&scope);
                inner.changes += 1;
                self.changed.notify_one();
            }
        }
    }

    /// A failed list or watch of kind `i`: a gap while it lasts (the watcher tries again, with
    /// backoff), counted for the metrics.
    fn failed(&self, i: usize, e: watcher::Error) {
        let kind = &LISTED[i].kind;
        let ns = self.namespace.clone().filter(|_| kind.namespaced);
        if is_gone(&e) {
            // Not a gap: the watcher lists again at once, and the stores keep what they hold
            // until that list is done (`InitDone` replaces it whole).
            (self.on_error)(kind.plural, Trouble::Relist);
            return;
        }
        let (reason, message) = failure_of(&e);
        (self.on_error)(kind.plural, Trouble::Failed(reason));
        // FlinkStateSnapshot came with operator 1.10: a 404 there is an older operator, not a
        // gap (as gather decides).
        if reason == GapReason::NotInstalled
            && kind.plural == crate::flink::kinds::FLINK_STATE_SNAPSHOT.plural
        {
            self.lock().synced[i] = true;
            return;
        }
        let gap = Gap {
            verb: "list".into(),
            group: kind.group.into(),
            resource: kind.plural.into(),
            namespace: ns,
            reason,
            message: crate::error::one_line(&message),
        };
        let mut inner = self.lock();
        // A failure to list (not a dropped watch, which resumes): the kind's objects are unknown.
        if !inner.synced[i] || matches!(e, watcher::Error::InitialListFailed(_)) {
            if inner.gaps[i].as_ref() != Some(&gap) {
                inner.gaps[i] = Some(gap);
                inner.dirty = Dirty::All;
                self.changed.notify_one();
            }
            // Refused or absent is a state to report, not a wait: ready with the gap.
            if reason != GapReason::Error && reason != GapReason::Timeout {
                inner.synced[i] = true;
            }
        }
    }

    /// Whether every kind was listed once (or refused): the first diagnosis may run.
    pub fn ready(&self) -> bool {
        self.lock().synced.iter().all(|s| *s)
    }

    /// Waits for the next change (returns at once if one came since the last `take_dirty`).
    pub async fn changed(&self) {
        self.changed.notified().await
    }

    /// The namespaces changed since the last call, now cleared.
    pub fn take_dirty(&self) -> Dirty {
        std::mem::replace(&mut self.lock().dirty, Dirty::Namespaces(BTreeSet::new()))
    }

    /// Marks namespaces to diagnose again (a diagnosis that could not run).
    pub fn mark(&self, dirty: &Dirty) {
        let mut inner = self.lock();
        match dirty {
            Dirty::All => inner.dirty = Dirty::All,
            Dirty::Namespaces(set) => {
                for ns in set {
                    inner.dirty.add(&Some(ns.clone()));
                }
            }
        }
    }

    /// An object the diagnosis read outside the stores changed (`cluster::reader`'s watches): its
    /// namespace (`None`: every namespace) is diagnosed again.
    pub fn touched(&self, namespace: Option<&str>) {
        let mut inner = self.lock();
        inner.dirty.add(&namespace.map(str::to_string));
        inner.changes += 1;
        drop(inner);
        self.changed.notify_one();
    }

    /// Changes applied since the start.
    pub fn changes(&self) -> u64 {
        self.lock().changes
    }

    /// The first wave of a snapshot from the stores: the objects of the namespaces in `which`
    /// (every namespace for `Dirty::All`) and every cluster-scoped object, with the gaps of the
    /// kinds that could not be listed. `namespaces` says which namespaces it speaks for, as a
    /// gather with `-n` does.
    pub fn snapshot(&self, which: &Dirty) -> (Snapshot, Vec<Gap>) {
        let inner = self.lock();
        let mut out = Snapshot {
            captured_at: chrono::Utc::now(),
            ..Snapshot::default()
        };
        out.namespaces = match which {
            Dirty::All => self.namespace.iter().cloned().collect(),
            Dirty::Namespaces(set) => set.iter().cloned().collect(),
        };
        for (scope, part) in &inner.parts {
            let wanted = match (scope, which) {
                (None, _) | (_, Dirty::All) => true,
                (Some(ns), Dirty::Namespaces(set)) => set.contains(ns),
            };
            if !wanted {
                continue;
            }
            let mut copy = part.snapshot.clone();
            for l in LISTED {
                if let Some(field) = listed_into(&l.kind) {
                    field.append(&mut out, &mut copy);
                }
            }
        }
        let mut gaps: Vec<Gap> = inner.gaps.iter().flatten().cloned().collect();
        gaps.extend(
            inner
                .malformed
                .iter()
                .filter(|((_, scope, _), _)| match (scope, which) {
                    (None, _) | (_, Dirty::All) => true,
                    (Some(ns), Dirty::Namespaces(set)) => set.contains(ns),
                })
                .map(|(_, g)| g.clone()),
        );
        (out, gaps)
    }

    /// The API version of a Flink resource's kind, and its uid when the watch holds it (an Event
    /// on it names both, so that `kubectl describe` shows the Event).
    pub fn identity(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> (Option<String>, Option<String>) {
        use crate::flink::kinds::{
            FLINK_APPLICATION, FLINK_CLUSTER, FLINK_DEPLOYMENT, FLINK_SESSION_JOB,
        };
        let Some(k) = [
            FLINK_DEPLOYMENT,
            FLINK_SESSION_JOB,
            FLINK_APPLICATION,
            FLINK_CLUSTER,
        ]
        .into_iter()
        .find(|k| k.kind == kind) else {
            return (None, None);
        };
        let inner = self.lock();
        let part = inner.parts.get(&Some(namespace.to_string()));
        let uid = part.and_then(|p| {
            let s = &p.snapshot;
            let meta = if k == FLINK_DEPLOYMENT {
                s.flink_deployments
                    .iter()
                    .find(|d| d.name() == name)
                    .map(|d| &d.metadata)
            } else if k == FLINK_SESSION_JOB {
                s.flink_session_jobs
                    .iter()
                    .find(|d| d.name() == name)
                    .map(|d| &d.metadata)
            } else {
                None
            };
            meta.and_then(|m| m.uid.clone())
        });
        (Some(k.api_version.to_string()), uid)
    }

    /// Objects held, all kinds.
    pub fn len(&self) -> usize {
        self.lock()
            .parts
            .values()
            .map(|p| p.names.iter().map(Vec::len).sum::<usize>())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether kube's watcher lists again after this error (kube-runtime's `step_trampolined`): a 410
/// in the watch stream or on a list page (an expired continue token), or an object without a
/// resourceVersion.
pub(crate) fn is_gone(e: &watcher::Error) -> bool {
    match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s)) => s.code == 410,
        watcher::Error::WatchError(s) => s.code == 410,
        watcher::Error::NoResourceVersion => true,
        _ => false,
    }
}

/// Why a list or watch failed, as a gap says it, and the server's message.
pub(crate) fn failure_of(e: &watcher::Error) -> (GapReason, String) {
    let (code, message) = match e {
        watcher::Error::InitialListFailed(e)
        | watcher::Error::WatchStartFailed(e)
        | watcher::Error::WatchFailed(e) => match e {
            kube::Error::Api(s) => (Some(s.code), s.message.clone()),
            other => (None, other.to_string()),
        },
        watcher::Error::WatchError(s) => (Some(s.code), s.message.clone()),
        watcher::Error::NoResourceVersion => (None, e.to_string()),
    };
    let reason = match code {
        Some(403) => GapReason::Forbidden,
        Some(404) => GapReason::NotInstalled,
        Some(504) => GapReason::Timeout,
        _ if message.contains("timed out") => GapReason::Timeout,
        _ => GapReason::Error,
    };
    (reason, message)
}

/// The scope of an object of kind `i`.
fn scope_of(i: usize, o: &DynamicObject) -> Scope {
    if LISTED[i].kind.namespaced {
        Some(o.metadata.namespace.clone().unwrap_or_default())
    } else {
        None
    }
}

/// What no rule reads of an object's metadata and the stores would hold for every object of a
/// kind that keeps k8s-openapi's `ObjectMeta` (the Flink resources): `managedFields` (the server's
/// bookkeeping of who set which field: a JSON tree per manager, about 3.5 kB of every
/// FlinkDeployment in `tests/watch_scale.rs`, 35 MB at 10,000) and the
/// `kubectl.kubernetes.io/last-applied-configuration` annotation (a copy of the whole object as
/// last applied). The slim kinds (pods, nodes) drop them too, while decoding.
fn slim_metadata(m: &mut kube::api::ObjectMeta) {
    m.managed_fields = None;
    if let Some(a) = m.annotations.as_mut() {
        a.remove(LAST_APPLIED);
    }
}

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Decodes an object into its field (as a list's item is: `apiVersion` and `kind` from its kind),
/// in place of the one of that name; one that does not fit its kind is a gap, as in gather.
fn decode_into(
    i: usize,
    field: &Field,
    o: DynamicObject,
    part: &mut Part,
    scope: &Scope,
    malformed: &mut BTreeMap<(usize, Scope, String), Gap>,
) {
    let kind = &LISTED[i].kind;
    let mut o = o;
    let name = o.metadata.name.clone().unwrap_or_default();
    slim_metadata(&mut o.metadata);
    let mut value = match serde_json::to_value(&o) {
        Ok(v) => v,
        Err(_) => return,
    };
    if let Some(m) = value.as_object_mut() {
        m.insert("apiVersion".into(), kind.api_version.into());
        m.insert("kind".into(), kind.kind.into());
    }
    drop(o);
    let mut one = Snapshot::default();
    let key = (i, scope.clone(), name.clone());
    match field.add(&mut one, value) {
        Ok(()) => {
            malformed.remove(&key);
            part.put(i, field, &name, &mut one);
        }
        Err(e) => {
            part.remove(i, field, &name);
            malformed.insert(
                key,
                Gap {
                    verb: "decode".into(),
                    group: kind.group.into(),
                    resource: format!("{}/{name}", kind.kind),
                    namespace: scope.clone(),
                    reason: GapReason::Error,
                    message: e.to_string(),
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flink::kinds;

    fn index_of(kind: &kinds::Kind) -> usize {
        LISTED.iter().position(|l| l.kind == *kind).unwrap()
    }

    fn object(
        kind: &kinds::Kind,
        ns: Option<&str>,
        name: &str,
        extra: serde_json::Value,
    ) -> DynamicObject {
        let mut v = serde_json::json!({
            "apiVersion": kind.api_version, "kind": kind.kind,
            "metadata": {"name": name, "resourceVersion": "1"}
        });
        if let Some(ns) = ns {
            v["metadata"]["namespace"] = ns.into();
        }
        if let (Some(m), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            for (k, x) in e {
                m.insert(k.clone(), x.clone());
            }
        }
        serde_json::from_value(v).unwrap()
    }

    fn pod(ns: &str, name: &str, phase: &str) -> DynamicObject {
        object(
            &kinds::POD,
            Some(ns),
            name,
            serde_json::json!({"spec": {"containers": [{"name": "flink-main-container"}]},
                "status": {"phase": phase}}),
        )
    }

    fn stores() -> Arc<Stores> {
        Stores::new(None, Box::new(|_, _| {}))
    }

    fn pods_of(s: &Stores, which: &Dirty) -> Vec<(String, String)> {
        let (snap, _) = s.snapshot(which);
        let mut out: Vec<_> = snap
            .pods
            .iter()
            .map(|p| {
                (
                    p.metadata
                        .namespace
                        .as_deref()
                        .unwrap_or_default()
                        .to_string(),
                    p.metadata.name.clone().unwrap_or_default(),
                )
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_listed_kind_replaces_what_was_held_and_changes_mark_their_namespace() {
        let s = stores();
        let p = index_of(&kinds::POD);
        s.apply(p, Event::Init);
        s.apply(p, Event::InitApply(pod("a", "jm", "Running")));
        s.apply(p, Event::InitApply(pod("b", "jm", "Running")));
        // Not visible before the list is done.
        assert!(pods_of(&s, &Dirty::All).is_empty());
        s.apply(p, Event::InitDone);
        assert_eq!(pods_of(&s, &Dirty::All).len(), 2);
        assert_eq!(s.take_dirty(), Dirty::All);
        assert!(s.take_dirty().is_empty());

        s.apply(p, Event::Apply(pod("b", "tm", "Pending")));
        s.apply(p, Event::Apply(pod("b", "tm", "Running")));
        s.apply(p, Event::Delete(pod("a", "jm", "Running")));
        let dirty = s.take_dirty();
        assert_eq!(
            dirty,
            Dirty::Namespaces(["a".to_string(), "b".to_string()].into())
        );
        // The replaced pod is held once, with its new phase.
        let (snap, _) = s.snapshot(&Dirty::All);
        assert_eq!(snap.pods.len(), 2);
        let tm = snap
            .pods
            .iter()
            .find(|p| p.metadata.name.as_deref() == Some("tm"))
            .unwrap();
        assert_eq!(
            tm.status.as_ref().and_then(|s| s.phase.as_deref()),
            Some("Running")
        );
        // Only the namespaces asked for (and cluster-scoped objects).
        assert_eq!(
            pods_of(&s, &Dirty::Namespaces(["b".to_string()].into())),
            [
                ("b".to_string(), "jm".to_string()),
                ("b".to_string(), "tm".to_string())
            ]
        );
        // Listed again (after 410 Gone): what the new list holds, nothing else.
        s.apply(p, Event::Init);
        s.apply(p, Event::InitApply(pod("c", "jm", "Running")));
        s.apply(p, Event::InitDone);
        assert_eq!(
            pods_of(&s, &Dirty::All),
            [("c".to_string(), "jm".to_string())]
        );
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn removing_from_the_middle_keeps_every_name_at_its_place() {
        let s = stores();
        let p = index_of(&kinds::POD);
        for n in 0..5 {
            s.apply(p, Event::Apply(pod("a", &format!("p{n}"), "Running")));
        }
        s.apply(p, Event::Delete(pod("a", "p1", "Running")));
        s.apply(p, Event::Apply(pod("a", "p4", "Failed")));
        s.apply(p, Event::Delete(pod("a", "p0", "Running")));
        let names: Vec<String> = pods_of(&s, &Dirty::All)
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(names, ["p2", "p3", "p4"]);
        let (snap, _) = s.snapshot(&Dirty::All);
        let p4 = snap
            .pods
            .iter()
            .find(|p| p.metadata.name.as_deref() == Some("p4"))
            .unwrap();
        assert_eq!(
            p4.status.as_ref().and_then(|s| s.phase.as_deref()),
            Some("Failed")
        );
    }

    #[test]
    fn a_cluster_scoped_change_marks_every_namespace() {
        let s = stores();
        s.take_dirty();
        let n = index_of(&kinds::NAMESPACE);
        s.apply(
            n,
            Event::Apply(object(
                &kinds::NAMESPACE,
                None,
                "prod",
                serde_json::json!({}),
            )),
        );
        assert_eq!(s.take_dirty(), Dirty::All);
        // Cluster-scoped objects are in every snapshot.
        let (snap, _) = s.snapshot(&Dirty::Namespaces(["other".to_string()].into()));
        assert_eq!(snap.namespaces_objects.len(), 1);
        assert_eq!(snap.namespaces, ["other"]);
    }

    #[test]
    fn an_object_that_does_not_fit_its_kind_is_a_gap_until_it_does() {
        let s = stores();
        let f = index_of(&kinds::FLINK_DEPLOYMENT);
        let bad = object(
            &kinds::FLINK_DEPLOYMENT,
            Some("a"),
            "x",
            serde_json::json!({"spec": {"job": {"parallelism": "two"}}}),
        );
        s.apply(f, Event::Apply(bad));
        let (snap, gaps) = s.snapshot(&Dirty::All);
        assert!(snap.flink_deployments.is_empty());
        assert_eq!(gaps.len(), 1);
        assert_eq!(gaps[0].resource, "FlinkDeployment/x");
        let good = object(
            &kinds::FLINK_DEPLOYMENT,
            Some("a"),
            "x",
            serde_json::json!({"spec": {"job": {"parallelism": 2}}}),
        );
        s.apply(f, Event::Apply(good));
        let (snap, gaps) = s.snapshot(&Dirty::All);
        assert_eq!(snap.flink_deployments.len(), 1);
        assert!(gaps.is_empty());
    }

    #[test]
    fn the_stores_keep_no_managed_fields_nor_last_applied_copy() {
        let s = stores();
        let f = index_of(&kinds::FLINK_DEPLOYMENT);
        let fd = object(
            &kinds::FLINK_DEPLOYMENT,
            Some("a"),
            "x",
            serde_json::json!({"metadata": {"name": "x", "namespace": "a", "uid": "u-1",
                "annotations": {"team": "data",
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"spec\":{}}"},
                "managedFields": [{"manager": "kubectl", "operation": "Apply",
                    "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:image": {}}}}]},
                "spec": {"image": "flink:1.20"}}),
        );
        assert!(fd.metadata.managed_fields.is_some());
        s.apply(f, Event::Apply(fd));
        let (snap, _) = s.snapshot(&Dirty::All);
        let meta = &snap.flink_deployments[0].metadata;
        assert_eq!(meta.managed_fields, None);
        let annotations = meta.annotations.clone().unwrap_or_default();
        assert_eq!(annotations.keys().collect::<Vec<_>>(), ["team"]);
        // What the Events name the resource by stays.
        assert_eq!(meta.uid.as_deref(), Some("u-1"));
        assert_eq!(
            snap.flink_deployments[0].spec.image.as_deref(),
            Some("flink:1.20")
        );
    }

    #[test]
    fn a_refused_list_is_a_gap_and_counts_as_ready() {
        let errors = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&errors);
        let s = Stores::new(
            Some("prod".into()),
            Box::new(move |kind, reason| seen.lock().unwrap().push((kind.to_string(), reason))),
        );
        let p = index_of(&kinds::POD);
        let status = kube::core::Status::failure("pods is forbidden", "Forbidden").with_code(403);
        s.failed(
            p,
            watcher::Error::InitialListFailed(kube::Error::Api(Box::new(status))),
        );
        let (_, gaps) = s.snapshot(&Dirty::All);
        assert_eq!(gaps.len(), 1);
        assert_eq!(gaps[0].reason, GapReason::Forbidden);
        assert_eq!(gaps[0].namespace.as_deref(), Some("prod"));
        assert_eq!(
            *errors.lock().unwrap(),
            [("pods".to_string(), Trouble::Failed(GapReason::Forbidden))]
        );
        assert!(s.lock().synced[p]);
        assert!(!s.ready(), "the other kinds are not listed yet");
        // Listed at last: the gap is gone.
        s.apply(p, Event::Init);
        s.apply(p, Event::InitDone);
        assert!(s.snapshot(&Dirty::All).1.is_empty());
    }

    #[test]
    fn a_410_is_a_relist_not_a_gap() {
        let troubles = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&troubles);
        let s = Stores::new(
            None,
            Box::new(move |kind, trouble| seen.lock().unwrap().push((kind.to_string(), trouble))),
        );
        let p = index_of(&kinds::POD);
        s.apply(p, Event::Init);
        s.apply(p, Event::InitDone);
        let gone =
            kube::core::Status::failure("too old resource version", "Expired").with_code(410);
        s.failed(p, watcher::Error::WatchError(Box::new(gone)));
        let dropped = kube::core::Status::failure("internal error", "InternalError").with_code(500);
        s.failed(p, watcher::Error::WatchError(Box::new(dropped)));
        assert_eq!(
            *troubles.lock().unwrap(),
            [
                ("pods".to_string(), Trouble::Relist),
                ("pods".to_string(), Trouble::Failed(GapReason::Error))
            ]
        );
        assert!(
            s.snapshot(&Dirty::All).1.is_empty(),
            "neither is a gap once listed"
        );
    }
}

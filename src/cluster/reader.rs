//! How the installation and the other modes (`install`, `modes`, wave 2b) read the cluster: live,
//! one request per read, for doctor; or, for `watch`, from watches that each such read starts the
//! first time it is made ([`Held`]), so that a diagnosis after the first reads their stores and
//! lists nothing again (a list again only after 410 Gone, as the first wave's watches,
//! `cluster::watch`).
//!
//! A read is a list of one kind in one scope with one label selector, or a get by name; in the
//! watch each becomes one watch with exactly that scope and selector (a get, a watch with the field
//! selector `metadata.name=NAME`), so a store holds exactly what the live read would return. An
//! object is shaped as it arrives (`shape`: what the live read does after it, such as masking a
//! Flink configuration or keeping only an operator's Deployments), so the store never holds more.
//! Secrets are the one kind the watch does not watch: it is granted `get` on them by name and
//! nothing else (a list or watch of Secrets would be every Secret); a get is read again at most
//! once per [`UNWATCHED_TTL`], and kept with its public certificates only
//! (`bundle::public_only`).

use super::gather::{classify, Failure};
use super::list::{api_resource, Listed, PAGE};
use super::watch::{failure_of, is_gone, OnError, Trouble};
use crate::flink::kinds::Kind;
use crate::snapshot::{Gap, GapReason};
use futures::StreamExt;
use kube::api::{Api, DynamicObject};
use kube::runtime::watcher::{self, Event};
use kube::runtime::WatchStreamExt;
use serde::de::DeserializeOwned;
use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// What a typed read decodes into and hands between tasks.
pub(crate) trait Object: Clone + DeserializeOwned + Debug + Send + Sync + 'static {}
impl<T: Clone + DeserializeOwned + Debug + Send + Sync + 'static> Object for T {}

/// How long the watch keeps what it read by a get it does not watch (Secrets) before it reads it
/// again.
pub const UNWATCHED_TTL: Duration = Duration::from_secs(60);

/// An object changed in a held watch: its namespace (`None`: cluster-scoped, or every namespace
/// after a list again).
pub type OnChange = Box<dyn Fn(Option<&str>) + Send + Sync>;

/// How reads are made.
#[derive(Clone)]
pub(crate) enum Reader {
    /// One request per read (doctor).
    Live(kube::Client),
    /// From watches started by the first read of each (watch).
    Watched(Arc<Held>),
}

/// Keeps the object as it is.
fn whole<K>(k: K) -> Option<K> {
    Some(k)
}

impl Reader {
    pub fn client(&self) -> &kube::Client {
        match self {
            Reader::Live(c) => c,
            Reader::Watched(h) => &h.client,
        }
    }

    /// Every object of a namespaced kind in `ns` (all namespaces for `None`) with the labels of
    /// `selector`.
    pub(crate) async fn list<K>(
        &self,
        ns: Option<&str>,
        selector: Option<&str>,
    ) -> Result<Vec<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::NamespaceResourceScope> + Object,
        K::DynamicType: Default,
    {
        self.list_shaped(ns, selector, whole::<K>).await
    }

    /// [`Reader::list`], each object shaped (or left out, `None`) as it is read.
    pub(crate) async fn list_shaped<K>(
        &self,
        ns: Option<&str>,
        selector: Option<&str>,
        shape: fn(K) -> Option<K>,
    ) -> Result<Vec<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::NamespaceResourceScope> + Object,
        K::DynamicType: Default,
    {
        match self {
            Reader::Live(c) => Ok(super::gather::list::<K>(c, ns, selector)
                .await?
                .into_iter()
                .filter_map(shape)
                .collect()),
            Reader::Watched(h) => {
                let api: Api<K> = match ns {
                    Some(ns) => Api::namespaced(h.client.clone(), ns),
                    None => Api::all(h.client.clone()),
                };
                let dt = K::DynamicType::default();
                let what = What::new(&K::group(&dt), &K::plural(&dt), ns, selector, None);
                h.read(what, api, shape).await
            }
        }
    }

    /// Every object of a cluster-scoped kind.
    pub(crate) async fn list_cluster<K>(&self) -> Result<Vec<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::ClusterResourceScope> + Object,
        K::DynamicType: Default,
    {
        match self {
            Reader::Live(c) => super::gather::list_cluster::<K>(c).await,
            Reader::Watched(h) => {
                let dt = K::DynamicType::default();
                let what = What::new(&K::group(&dt), &K::plural(&dt), None, None, None);
                h.read(what, Api::all(h.client.clone()), whole::<K>).await
            }
        }
    }

    /// Every object of a custom kind, untyped.
    pub(crate) async fn list_dynamic(
        &self,
        ns: Option<&str>,
        kind: &Kind,
        selector: Option<&str>,
    ) -> Result<Vec<DynamicObject>, Failure> {
        match self {
            Reader::Live(c) => super::gather::list_dynamic(c, ns, kind, selector).await,
            Reader::Watched(h) => {
                let ns = ns.filter(|_| kind.namespaced);
                let ar = api_resource(kind);
                let api: Api<DynamicObject> = match ns {
                    Some(ns) => Api::namespaced_with(h.client.clone(), ns, &ar),
                    None => Api::all_with(h.client.clone(), &ar),
                };
                let what = What::new(kind.group, kind.plural, ns, selector, None);
                h.read(what, api, whole::<DynamicObject>).await
            }
        }
    }

    /// Every object of a kind with a field of the snapshot (`cluster::list::list_into`), decoded
    /// into it; an object that does not fit its kind is a gap of its own.
    pub(crate) async fn list_into(
        &self,
        ns: Option<&str>,
        kind: &Kind,
        selector: Option<&str>,
    ) -> Result<Listed, Failure> {
        let Reader::Watched(_) = self else {
            return super::list::list_into(self.client(), ns, kind, selector).await;
        };
        let field = super::list::field_of(kind, ns)?;
        let mut out = Listed::new(field);
        for o in self.list_dynamic(ns, kind, selector).await? {
            let Ok(value) = serde_json::to_value(&o) else {
                continue;
            };
            out.add(kind, value);
        }
        Ok(out)
    }

    /// One object of a namespaced kind by name, `None` when there is none.
    pub(crate) async fn get<K>(&self, ns: &str, name: &str) -> Result<Option<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::NamespaceResourceScope> + Object,
        K::DynamicType: Default,
    {
        let dt = K::DynamicType::default();
        let (group, plural) = (K::group(&dt).to_string(), K::plural(&dt).to_string());
        match self {
            Reader::Live(c) => Api::<K>::namespaced(c.clone(), ns)
                .get_opt(name)
                .await
                .map_err(|e| classify(e, "get", &group, &plural, Some(ns))),
            Reader::Watched(h) => {
                let what = What::new(&group, &plural, Some(ns), None, Some(name));
                let api: Api<K> = Api::namespaced(h.client.clone(), ns);
                Ok(h.read(what, api, whole::<K>).await?.into_iter().next())
            }
        }
    }

    /// One object of a cluster-scoped kind by name, `None` when there is none.
    pub(crate) async fn get_cluster<K>(&self, name: &str) -> Result<Option<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::ClusterResourceScope> + Object,
        K::DynamicType: Default,
    {
        let dt = K::DynamicType::default();
        let (group, plural) = (K::group(&dt).to_string(), K::plural(&dt).to_string());
        match self {
            Reader::Live(c) => Api::<K>::all(c.clone())
                .get_opt(name)
                .await
                .map_err(|e| classify(e, "get", &group, &plural, None)),
            Reader::Watched(h) => {
                let what = What::new(&group, &plural, None, None, Some(name));
                let api: Api<K> = Api::all(h.client.clone());
                Ok(h.read(what, api, whole::<K>).await?.into_iter().next())
            }
        }
    }

    /// One object by name of a kind the watch is not granted to list or watch (Secrets), shaped
    /// as it is read; in the watch, read again at most once per [`UNWATCHED_TTL`].
    pub(crate) async fn get_unwatched<K>(
        &self,
        ns: &str,
        name: &str,
        shape: fn(K) -> K,
    ) -> Result<Option<K>, Failure>
    where
        K: kube::Resource<Scope = kube::core::NamespaceResourceScope> + Object,
        K::DynamicType: Default,
    {
        let dt = K::DynamicType::default();
        let (group, plural) = (K::group(&dt).to_string(), K::plural(&dt).to_string());
        let read = |c: kube::Client| async move {
            Api::<K>::namespaced(c, ns)
                .get_opt(name)
                .await
                .map(|o| o.map(shape))
                .map_err(|e| classify(e, "get", &group, &plural, Some(ns)))
        };
        match self {
            Reader::Live(c) => read(c.clone()).await,
            Reader::Watched(h) => {
                let key = (K::plural(&dt).to_string(), ns.to_string(), name.to_string());
                if let Some((at, held)) = h.lock_unwatched().get(&key) {
                    if at.elapsed() < UNWATCHED_TTL {
                        if let Some(r) = held.downcast_ref::<Result<Option<K>, Failure>>() {
                            return r.clone();
                        }
                    }
                }
                let r = read(h.client.clone()).await;
                h.lock_unwatched()
                    .insert(key, (Instant::now(), Box::new(r.clone())));
                r
            }
        }
    }
}

/// One read: a kind in a scope, with a label selector or a name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct What {
    group: String,
    plural: String,
    namespace: Option<String>,
    labels: Option<String>,
    name: Option<String>,
}

impl What {
    fn new(
        group: &str,
        plural: &str,
        ns: Option<&str>,
        labels: Option<&str>,
        name: Option<&str>,
    ) -> What {
        What {
            group: group.to_string(),
            plural: plural.to_string(),
            namespace: ns.map(str::to_string),
            labels: labels.map(str::to_string),
            name: name.map(str::to_string),
        }
    }
}

type Unwatched = HashMap<(String, String, String), (Instant, Box<dyn Any + Send + Sync>)>;

/// The watches the reads started, by read (and shape: two reads of one kind shaped differently
/// are two watches).
pub struct Held {
    client: kube::Client,
    watches: Mutex<HashMap<(What, usize), Arc<dyn Any + Send + Sync>>>,
    unwatched: Mutex<Unwatched>,
    on_change: Arc<OnChange>,
    on_error: Arc<OnError>,
}

/// One held watch's objects, by namespace and name.
struct Store<K> {
    state: Mutex<State<K>>,
    /// Woken at the end of each list and at each failure (a read waits for the first).
    settled: Notify,
}

struct State<K> {
    objects: BTreeMap<(String, String), K>,
    /// The objects of a list under way (after `Init`).
    listing: Option<BTreeMap<(String, String), K>>,
    synced: bool,
    /// Why the last list failed, until one succeeds.
    failure: Option<Failure>,
}

fn key_of<K: kube::Resource>(k: &K) -> (String, String) {
    let m = k.meta();
    (
        m.namespace.clone().unwrap_or_default(),
        m.name.clone().unwrap_or_default(),
    )
}

impl Held {
    pub fn new(client: kube::Client, on_change: OnChange, on_error: OnError) -> Arc<Held> {
        Arc::new(Held {
            client,
            watches: Mutex::new(HashMap::new()),
            unwatched: Mutex::new(HashMap::new()),
            on_change: Arc::new(on_change),
            on_error: Arc::new(on_error),
        })
    }

    fn lock_unwatched(&self) -> std::sync::MutexGuard<'_, Unwatched> {
        self.unwatched.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What the read holds: its watch's objects once listed, or why its list failed; the first
    /// read starts the watch and waits for its list.
    async fn read<K>(
        &self,
        what: What,
        api: Api<K>,
        shape: fn(K) -> Option<K>,
    ) -> Result<Vec<K>, Failure>
    where
        K: kube::Resource + Object,
    {
        let store = self.store(what, api, shape);
        loop {
            let settled = store.settled.notified();
            {
                let state = store.state.lock().unwrap_or_else(|p| p.into_inner());
                if state.synced {
                    return Ok(state.objects.values().cloned().collect());
                }
                if let Some(f) = &state.failure {
                    return Err(f.clone());
                }
            }
            settled.await;
        }
    }

    /// The store of a read, its watch started when it is the first.
    fn store<K>(&self, what: What, api: Api<K>, shape: fn(K) -> Option<K>) -> Arc<Store<K>>
    where
        K: kube::Resource + Object,
    {
        let mut watches = self.watches.lock().unwrap_or_else(|p| p.into_inner());
        let key = (what.clone(), shape as usize);
        if let Some(s) = watches
            .get(&key)
            .and_then(|s| Arc::clone(s).downcast::<Store<K>>().ok())
        {
            return s;
        }
        let store = Arc::new(Store {
            state: Mutex::new(State {
                objects: BTreeMap::new(),
                listing: None,
                synced: false,
                failure: None,
            }),
            settled: Notify::new(),
        });
        watches.insert(key, Arc::clone(&store) as Arc<dyn Any + Send + Sync>);
        let mut config = watcher::Config::default().page_size(PAGE);
        if let Some(l) = &what.labels {
            config = config.labels(l);
        }
        if let Some(n) = &what.name {
            config = config.fields(&format!("metadata.name={n}"));
        }
        let (on_change, on_error) = (Arc::clone(&self.on_change), Arc::clone(&self.on_error));
        let held = Arc::clone(&store);
        tokio::spawn(async move {
            let events = watcher::watcher(api, config).default_backoff();
            futures::pin_mut!(events);
            while let Some(event) = events.next().await {
                match event {
                    Ok(e) => held.apply(e, shape, &on_change),
                    Err(e) => held.failed(&what, e, &on_error),
                }
            }
        });
        store
    }
}

impl<K: kube::Resource + Clone> Store<K> {
    fn apply(&self, event: Event<K>, shape: fn(K) -> Option<K>, on_change: &OnChange) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Init => state.listing = Some(BTreeMap::new()),
            Event::InitApply(o) => {
                let key = key_of(&o);
                if let Some(o) = shape(o) {
                    state
                        .listing
                        .get_or_insert_with(BTreeMap::new)
                        .insert(key, o);
                }
            }
            Event::InitDone => {
                state.objects = state.listing.take().unwrap_or_default();
                let failed = state.failure.take().is_some();
                // A list after the first (410 Gone), or after one that failed: anything may
                // have changed.
                if std::mem::replace(&mut state.synced, true) || failed {
                    on_change(None);
                }
                drop(state);
                self.settled.notify_waiters();
            }
            Event::Apply(o) => {
                let key = key_of(&o);
                let ns = o.meta().namespace.clone();
                match shape(o) {
                    Some(o) => state.objects.insert(key, o),
                    None => state.objects.remove(&key),
                };
                drop(state);
                on_change(ns.as_deref());
            }
            Event::Delete(o) => {
                let key = key_of(&o);
                let ns = o.meta().namespace.clone();
                if state.objects.remove(&key).is_some() {
                    drop(state);
                    on_change(ns.as_deref());
                }
            }
        }
    }

    fn failed(&self, what: &What, e: watcher::Error, on_error: &OnError) {
        if is_gone(&e) {
            on_error(&what.plural, Trouble::Relist);
            return;
        }
        let (reason, message) = failure_of(&e);
        // A kind not installed (Lyft's CRD, cert-manager's) is a fact the rules read, not an
        // error; the watcher tries again, with backoff, and lists it once it is installed.
        if reason != GapReason::NotInstalled {
            on_error(&what.plural, Trouble::Failed(reason));
        }
        let listing = matches!(e, watcher::Error::InitialListFailed(_));
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // A dropped watch resumes and keeps what it holds; a list that failed leaves the read
        // without an answer until one succeeds (or with the last it had, once listed).
        if !listing || state.synced {
            return;
        }
        state.failure = Some(Failure::Gap(Gap {
            verb: if what.name.is_some() { "get" } else { "list" }.into(),
            group: what.group.clone(),
            resource: what.plural.clone(),
            namespace: what.namespace.clone(),
            reason,
            message: crate::error::one_line(&message),
        }));
        drop(state);
        self.settled.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;

    fn cm(ns: &str, name: &str, keep: bool) -> ConfigMap {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": ns,
                "labels": {"keep": if keep { "yes" } else { "no" }}}
        }))
        .unwrap()
    }

    fn labelled(c: ConfigMap) -> Option<ConfigMap> {
        let keep = c
            .metadata
            .labels
            .as_ref()
            .is_some_and(|l| l.get("keep").map(String::as_str) == Some("yes"));
        keep.then_some(c)
    }

    fn names(s: &Store<ConfigMap>) -> Vec<String> {
        let state = s.state.lock().unwrap();
        state
            .objects
            .keys()
            .map(|(ns, n)| format!("{ns}/{n}"))
            .collect()
    }

    #[test]
    fn a_store_holds_what_its_shape_keeps_and_says_which_namespace_changed() {
        let changed = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&changed);
        let on_change: OnChange =
            Box::new(move |ns| seen.lock().unwrap().push(ns.map(str::to_string)));
        let s = Store {
            state: Mutex::new(State {
                objects: BTreeMap::new(),
                listing: None,
                synced: false,
                failure: None,
            }),
            settled: Notify::new(),
        };
        s.apply(Event::Init, labelled, &on_change);
        s.apply(Event::InitApply(cm("a", "x", true)), labelled, &on_change);
        s.apply(Event::InitApply(cm("a", "y", false)), labelled, &on_change);
        assert!(names(&s).is_empty(), "nothing before the list is done");
        s.apply(Event::InitDone, labelled, &on_change);
        assert_eq!(names(&s), ["a/x"]);
        assert!(
            changed.lock().unwrap().is_empty(),
            "the first list is no change"
        );

        // An object that no longer fits the shape leaves the store.
        s.apply(Event::Apply(cm("b", "z", true)), labelled, &on_change);
        s.apply(Event::Apply(cm("a", "x", false)), labelled, &on_change);
        assert_eq!(names(&s), ["b/z"]);
        // Deleting what the store never held changes nothing.
        s.apply(Event::Delete(cm("a", "y", false)), labelled, &on_change);
        s.apply(Event::Delete(cm("b", "z", true)), labelled, &on_change);
        assert!(names(&s).is_empty());
        // A list again (after 410 Gone) is a change of every namespace.
        s.apply(Event::Init, labelled, &on_change);
        s.apply(Event::InitDone, labelled, &on_change);
        assert_eq!(
            *changed.lock().unwrap(),
            [
                Some("b".to_string()),
                Some("a".to_string()),
                Some("b".to_string()),
                None
            ]
        );
    }
}

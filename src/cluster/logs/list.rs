//! Finding the pods: every selector of a [`Target`] listed in pages and merged in the stable order,
//! or (for `-f`) watched; and the error that says what would help when nothing matched.

use super::select::{order_pods, pod_name, pod_namespace, Target};
use super::stream::{classify, StreamError};
use super::{Notices, Options};
use crate::cluster::client::Connection;
use crate::cluster::list::PAGE;
use crate::error::Error;
use crate::flink::kinds;
use crate::flink::mode::Component;
use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, ListParams};
use kube::runtime::{watcher, WatchStreamExt};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

#[derive(Debug, thiserror::Error)]
pub(super) enum ListError {
    /// The cluster said no or could not be reached (exit 3).
    #[error("{0}")]
    Incomplete(String),
    /// The request itself was wrong, e.g. an invalid selector (exit 2).
    #[error("{0}")]
    Input(String),
}

impl From<ListError> for Error {
    fn from(e: ListError) -> Self {
        match e {
            ListError::Incomplete(m) => Error::Incomplete(m),
            ListError::Input(m) => Error::Input(m),
        }
    }
}

/// Where pods are listed, for errors: "namespace analytics", "all namespaces".
pub(super) fn list_scope(ns: Option<&str>) -> String {
    ns.map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "all namespaces".into())
}

/// The namespaces to read: `-n a,b` names several (stern's `--namespace`, "set comma-separated
/// value", stern/stern@v1.33.0:cmd/cmd.go), each once; `-A` all of them (None).
pub(super) fn namespaces(cluster: &Connection) -> Vec<Option<String>> {
    match cluster.namespace.as_deref() {
        None => vec![None],
        Some(ns) => {
            let mut out: Vec<Option<String>> = namespace_list(ns)
                .into_iter()
                .map(|n| Some(n.to_string()))
                .collect();
            if out.is_empty() {
                out.push(Some(ns.to_string()));
            }
            out
        }
    }
}

/// The namespaces `-n a,b` names, each once, in the order given.
pub fn namespace_list(ns: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for n in ns.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Where pods are listed, for messages: "namespace a", "namespaces a, b", "all namespaces".
pub(super) fn scopes_description(namespaces: &[Option<String>]) -> String {
    let named: Vec<&str> = namespaces.iter().flatten().map(String::as_str).collect();
    match named.as_slice() {
        [] => "all namespaces".into(),
        [one] => format!("namespace {one}"),
        many => format!("namespaces {}", many.join(", ")),
    }
}

/// One list (or watch) of pods: a namespace (None: all) and a label selector, narrowed by the
/// target's field selector.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Query {
    pub(super) ns: Option<String>,
    pub(super) selector: String,
    pub(super) fields: Option<String>,
}

impl Query {
    pub(super) fn scope(&self) -> String {
        list_scope(self.ns.as_deref())
    }
}

/// Every namespace times every selector of `target`.
pub(super) fn queries(namespaces: &[Option<String>], target: &Target) -> Vec<Query> {
    let selectors = target.selectors();
    namespaces
        .iter()
        .flat_map(|ns| {
            selectors.iter().map(move |sel| Query {
                ns: ns.clone(),
                selector: sel.clone(),
                fields: target.fields.clone(),
            })
        })
        .collect()
}

/// A failed list or watch of the pods of `q`, in words, and whose fault it is.
fn request_error(verb: &str, q: &Query, e: kube::Error) -> ListError {
    let scope = q.scope();
    let selector = &q.selector;
    match classify(e) {
        StreamError::Unavailable(m) => {
            let fields = q
                .fields
                .as_deref()
                .map(|f| format!(" and field selector `{f}`"))
                .unwrap_or_default();
            ListError::Input(format!(
                "{verb} pods with selector `{selector}`{fields}: {m}"
            ))
        }
        StreamError::Forbidden(m) => {
            ListError::Incomplete(format!("{verb} pods in {scope}: forbidden: {m}"))
        }
        other => ListError::Incomplete(format!("{verb} pods in {scope}: {}", other)),
    }
}

/// One event of the watch of the `usize`th selector.
pub(super) type WatchEvent = (usize, Result<watcher::Event<Pod>, watcher::Error>);

/// The pods of every query, watched: one kube watcher per query (it lists in pages, watches from
/// the list's resourceVersion, lists again when the watch falls out of the window, and backs off
/// on errors), merged; each event comes with the index of its query. Notifying a query's handle
/// (the second value) drops its watcher and starts a new one: a list that gets no answer is given
/// up that way.
pub(super) fn watch_pods(
    client: &kube::Client,
    queries: &[Query],
) -> (
    impl Stream<Item = WatchEvent> + Send + Unpin,
    Vec<Arc<Notify>>,
) {
    let mut restarts = Vec::new();
    let watches: Vec<_> = queries
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let api: Api<Pod> = match q.ns.as_deref() {
                Some(ns) => Api::namespaced(client.clone(), ns),
                None => Api::all(client.clone()),
            };
            let mut config = watcher::Config::default()
                .labels(&q.selector)
                .page_size(PAGE);
            if let Some(f) = &q.fields {
                config = config.fields(f);
            }
            let make = move || {
                watcher(api.clone(), config.clone())
                    .default_backoff()
                    .boxed()
            };
            let restart = Arc::new(Notify::new());
            restarts.push(restart.clone());
            futures::stream::unfold(
                (make(), make, restart),
                move |(mut w, make, restart)| async move {
                    loop {
                        tokio::select! {
                            ev = w.next() => return ev.map(|ev| ((i, ev), (w, make, restart))),
                            () = restart.notified() => w = make(),
                        }
                    }
                },
            )
            .boxed()
        })
        .collect();
    (futures::stream::select_all(watches), restarts)
}

/// What a watcher's error means to the person; None when it needs no word: the watch fell out of
/// the window (410 Gone) and the watcher lists again.
pub(super) fn watch_error(q: &Query, e: watcher::Error) -> Option<ListError> {
    let (verb, e) = match e {
        watcher::Error::InitialListFailed(e) => ("list", e),
        watcher::Error::WatchStartFailed(e) | watcher::Error::WatchFailed(e) => ("watch", e),
        watcher::Error::WatchError(status) if status.code == 410 => return None,
        watcher::Error::WatchError(status) => ("watch", kube::Error::Api(status)),
        watcher::Error::NoResourceVersion => {
            return Some(ListError::Incomplete(format!(
                "watch pods in {}: the API server sent no resourceVersion",
                q.scope()
            )))
        }
    };
    Some(request_error(verb, q, e))
}

/// Lists of pods read at once.
const LIST_CONCURRENCY: usize = 16;

/// The pods of every query, merged (a pod two queries match is one pod) in the stable order.
pub(super) async fn list_pods(
    client: &kube::Client,
    queries: &[Query],
    timeout: Option<Duration>,
) -> Result<Vec<Pod>, ListError> {
    let lists = queries.iter().map(|q| {
        let api: Api<Pod> = match q.ns.as_deref() {
            Some(ns) => Api::namespaced(client.clone(), ns),
            None => Api::all(client.clone()),
        };
        async move {
            let fut = paged(&api, q);
            let r = match timeout {
                Some(t) => tokio::time::timeout(t, fut).await.map_err(|_| {
                    ListError::Incomplete(format!(
                        "list pods in {}: no answer within {}s",
                        q.scope(),
                        t.as_secs()
                    ))
                })?,
                None => fut.await,
            };
            r.map_err(|e| request_error("list", q, e))
        }
    });
    // In order, at most LIST_CONCURRENCY at once: `-n` with 2,000 namespaces is 4,000 lists.
    let results: Vec<_> = futures::stream::iter(lists)
        .buffered(LIST_CONCURRENCY)
        .collect()
        .await;
    let mut seen = HashSet::new();
    let mut pods = Vec::new();
    for r in results {
        for p in r? {
            let key = (pod_namespace(&p).to_string(), pod_name(&p).to_string());
            if seen.insert(key) {
                pods.push(p);
            }
        }
    }
    order_pods(&mut pods);
    Ok(pods)
}

/// The pods the target keeps, and the target that found them: NAME's deployment, or else (when
/// it has no pods and NAME may be read as stern's pod query) the Flink pods named like NAME.
/// Said in a note when the query is used. Empty when neither found any.
pub(super) async fn resolve(
    client: &kube::Client,
    namespaces: &[Option<String>],
    opts: &Options,
    notices: &Notices,
) -> Result<(Target, Vec<Pod>), ListError> {
    let timeout = opts.request_timeout;
    let keep = |t: &Target, pods: Vec<Pod>| -> Vec<Pod> {
        pods.into_iter().filter(|p| t.keeps(p)).collect()
    };
    let target = opts.target.clone();
    let pods = keep(
        &target,
        list_pods(client, &queries(namespaces, &target), timeout).await?,
    );
    if !pods.is_empty() {
        return Ok((target, pods));
    }
    if let Some(fallback) = &opts.fallback {
        let found = keep(
            fallback,
            list_pods(client, &queries(namespaces, fallback), timeout).await?,
        );
        if !found.is_empty() {
            notices.note(query_note(&target, fallback));
            return Ok((fallback.clone(), found));
        }
    }
    Ok((target, pods))
}

/// Said when NAME is read as a pod query.
pub(super) fn query_note(target: &Target, fallback: &Target) -> String {
    format!(
        "no pods of a Flink deployment named {}: showing the Flink pods whose name matches it as a \
         regular expression (stern's pod query)",
        target
            .name
            .as_deref()
            .or(fallback.pod_query.as_ref().map(|p| p.as_str()))
            .unwrap_or("")
    )
}

async fn paged(api: &Api<Pod>, q: &Query) -> Result<Vec<Pod>, kube::Error> {
    let mut params = ListParams::default().limit(PAGE).labels(&q.selector);
    if let Some(f) = &q.fields {
        params = params.fields(f);
    }
    crate::cluster::list::paged(api, params).await
}

/// The error for "nothing matched", with what would help.
pub(super) async fn nothing_matched(
    cluster: &Connection,
    namespaces: &[Option<String>],
    target: &Target,
    timeout: Option<Duration>,
) -> Error {
    let scope = match namespaces {
        [None] => "any namespace".to_string(),
        ns => scopes_description(ns),
    };
    let hint = match (&target.name, target.component) {
        (_, Some(Component::Operator)) => {
            " (the operator usually runs in its own namespace: add -n NAMESPACE or -A)".to_string()
        }
        (Some(name), _) => match (namespaces, resource_of(cluster, namespaces, name, timeout).await) {
            ([Some(_)], Some(kind)) => format!(
                " ({kind} {name} exists but has no such pods now: see `kubectl flink doctor {name}`)"
            ),
            _ => format!(
                " and no Flink pod's name matches {name} (check the name and the namespace (-n, -A); \
                 for other pods use -l SELECTOR)"
            ),
        },
        (None, _) => String::new(),
    };
    Error::Input(format!(
        "no pods match {} in {scope}{hint}",
        target.describe()
    ))
}

/// The kind of the custom resource NAME in the one namespace listed: a FlinkDeployment, else a
/// FlinkCluster (the GCP/Spotify operator's), else none (or not readable).
async fn resource_of(
    cluster: &Connection,
    namespaces: &[Option<String>],
    name: &str,
    timeout: Option<Duration>,
) -> Option<&'static str> {
    let [Some(ns)] = namespaces else {
        return None;
    };
    let t = timeout.unwrap_or(Duration::from_secs(10));
    for kind in [kinds::FLINK_DEPLOYMENT, kinds::FLINK_CLUSTER] {
        let ar = crate::cluster::list::api_resource(&kind);
        let api: Api<DynamicObject> = Api::namespaced_with(cluster.client.clone(), ns, &ar);
        if matches!(
            tokio::time::timeout(t, api.get_opt(name)).await,
            Ok(Ok(Some(_)))
        ) {
            return Some(kind.kind);
        }
    }
    None
}

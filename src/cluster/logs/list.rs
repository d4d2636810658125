//! Finding the pods: every selector of a [`Target`] listed in pages and merged in the stable order,
//! or (for `-f`) watched; and the error that says what would help when nothing matched.

use super::select::{order_pods, pod_name, pod_namespace, Component, Target};
use super::stream::{classify, StreamError};
use crate::cluster::client::Cluster;
use crate::error::Error;
use crate::flink::names::{GROUP, VERSION};
use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kube::core::GroupVersionKind;
use kube::runtime::{watcher, WatchStreamExt};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

const PAGE: u32 = 500;

#[derive(Debug)]
pub(super) enum ListError {
    /// The cluster said no or could not be reached (exit 3).
    Incomplete(String),
    /// The request itself was wrong, e.g. an invalid selector (exit 2).
    Input(String),
}

impl ListError {
    pub(super) fn into_error(self) -> Error {
        match self {
            ListError::Incomplete(m) => Error::Incomplete(m),
            ListError::Input(m) => Error::Input(m),
        }
    }
    pub(super) fn message(&self) -> &str {
        match self {
            ListError::Incomplete(m) | ListError::Input(m) => m,
        }
    }
}

/// Where pods are listed, for errors: "namespace analytics", "all namespaces".
pub(super) fn list_scope(ns: Option<&str>) -> String {
    ns.map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "all namespaces".into())
}

/// A failed list or watch of the pods with `selector`, in words, and whose fault it is.
fn request_error(verb: &str, selector: &str, scope: &str, e: kube::Error) -> ListError {
    match classify(e) {
        StreamError::Unavailable(m) => {
            ListError::Input(format!("{verb} pods with selector `{selector}`: {m}"))
        }
        StreamError::Forbidden(m) => {
            ListError::Incomplete(format!("{verb} pods in {scope}: forbidden: {m}"))
        }
        other => ListError::Incomplete(format!("{verb} pods in {scope}: {}", other.message())),
    }
}

/// One event of the watch of the `usize`th selector.
pub(super) type WatchEvent = (usize, Result<watcher::Event<Pod>, watcher::Error>);

/// The pods of every selector of `target`, watched: one kube watcher per selector (it lists in
/// pages, watches from the list's resourceVersion, lists again when the watch falls out of the
/// window, and backs off on errors), merged; each event comes with the index of its selector in
/// `target.selectors()`. Notifying a selector's handle (the second value) drops its watcher and
/// starts a new one: a list that gets no answer is given up that way.
pub(super) fn watch_pods(
    client: &kube::Client,
    ns: Option<&str>,
    target: &Target,
) -> (
    impl Stream<Item = WatchEvent> + Send + Unpin,
    Vec<Arc<Notify>>,
) {
    let api: Api<Pod> = match ns {
        Some(ns) => Api::namespaced(client.clone(), ns),
        None => Api::all(client.clone()),
    };
    let mut restarts = Vec::new();
    let watches: Vec<_> = target
        .selectors()
        .into_iter()
        .enumerate()
        .map(|(i, sel)| {
            let config = watcher::Config::default().labels(&sel).page_size(PAGE);
            let api = api.clone();
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
pub(super) fn watch_error(selector: &str, scope: &str, e: watcher::Error) -> Option<ListError> {
    let (verb, e) = match e {
        watcher::Error::InitialListFailed(e) => ("list", e),
        watcher::Error::WatchStartFailed(e) | watcher::Error::WatchFailed(e) => ("watch", e),
        watcher::Error::WatchError(status) if status.code == 410 => return None,
        watcher::Error::WatchError(status) => ("watch", kube::Error::Api(status)),
        watcher::Error::NoResourceVersion => {
            return Some(ListError::Incomplete(format!(
                "watch pods in {scope}: the API server sent no resourceVersion"
            )))
        }
    };
    Some(request_error(verb, selector, scope, e))
}

pub(super) async fn list_pods(
    client: &kube::Client,
    ns: Option<&str>,
    target: &Target,
    timeout: Option<Duration>,
) -> Result<Vec<Pod>, ListError> {
    let api: Api<Pod> = match ns {
        Some(ns) => Api::namespaced(client.clone(), ns),
        None => Api::all(client.clone()),
    };
    let scope = list_scope(ns);
    let lists = target.selectors().into_iter().map(|sel| {
        let api = api.clone();
        let scope = scope.clone();
        async move {
            let fut = paged(&api, &sel);
            let r = match timeout {
                Some(t) => tokio::time::timeout(t, fut).await.map_err(|_| {
                    ListError::Incomplete(format!(
                        "list pods in {scope}: no answer within {}s",
                        t.as_secs()
                    ))
                })?,
                None => fut.await,
            };
            r.map_err(|e| request_error("list", &sel, &scope, e))
        }
    });
    let results = futures::future::join_all(lists).await;
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

async fn paged(api: &Api<Pod>, selector: &str) -> Result<Vec<Pod>, kube::Error> {
    let mut out = Vec::new();
    let mut params = ListParams::default().limit(PAGE).labels(selector);
    loop {
        let page = api.list(&params).await?;
        let next = page.metadata.continue_.clone().filter(|c| !c.is_empty());
        out.extend(page.items);
        match next {
            Some(token) => params = params.continue_token(&token),
            None => return Ok(out),
        }
    }
}

/// The error for "nothing matched", with what would help.
pub(super) async fn nothing_matched(
    cluster: &Cluster,
    target: &Target,
    timeout: Option<Duration>,
) -> Error {
    let scope = cluster
        .namespace
        .as_deref()
        .map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "any namespace".into());
    let hint = match (&target.name, target.component) {
        (_, Some(Component::Operator)) => {
            " (the operator usually runs in its own namespace: add -n NAMESPACE or -A)".to_string()
        }
        (Some(name), _) => match (&cluster.namespace, flink_deployment_exists(cluster, name, timeout).await) {
            (Some(_), true) => format!(
                " (FlinkDeployment {name} exists but has no such pods now: see `kubectl flink doctor {name}`)"
            ),
            _ => " (check the name and the namespace (-n, -A); for other pods use -l SELECTOR)".to_string(),
        },
        (None, _) => String::new(),
    };
    Error::Input(format!(
        "no pods match {} in {scope}{hint}",
        target.describe()
    ))
}

async fn flink_deployment_exists(cluster: &Cluster, name: &str, timeout: Option<Duration>) -> bool {
    let Some(ns) = cluster.namespace.as_deref() else {
        return false;
    };
    let ar = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(GROUP, VERSION, "FlinkDeployment"),
        "flinkdeployments",
    );
    let api: Api<DynamicObject> = Api::namespaced_with(cluster.client.clone(), ns, &ar);
    let t = timeout.unwrap_or(Duration::from_secs(10));
    matches!(
        tokio::time::timeout(t, api.get_opt(name)).await,
        Ok(Ok(Some(_)))
    )
}

//! Listing pods: every selector of a [`Target`] listed in pages and merged in the stable order, and
//! the error that says what would help when nothing matched.

use super::select::{order_pods, pod_name, pod_namespace, Component, Target};
use super::stream::{classify, StreamError};
use crate::cluster::client::Cluster;
use crate::error::Error;
use crate::flink::names::{GROUP, VERSION};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kube::core::GroupVersionKind;
use std::collections::HashSet;
use std::time::Duration;

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
    let scope = ns
        .map(|n| format!("namespace {n}"))
        .unwrap_or_else(|| "all namespaces".into());
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
            r.map_err(|e| match classify(e) {
                StreamError::Unavailable(m) => {
                    ListError::Input(format!("list pods with selector `{sel}`: {m}"))
                }
                StreamError::Forbidden(m) => {
                    ListError::Incomplete(format!("list pods in {scope}: forbidden: {m}"))
                }
                other => {
                    ListError::Incomplete(format!("list pods in {scope}: {}", other.message()))
                }
            })
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

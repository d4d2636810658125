//! Listing: the one paging loop (limit/continue) every list of kubectl-flink goes through, and
//! lists by a kind's description (`flink::kinds::Kind`) straight into the snapshot field that
//! holds it (`snapshot::kinds`), so the first wave of gather is the table `kinds::LISTED`.

use super::gather::{classify, Failure};
use crate::flink::kinds::Kind;
use crate::snapshot::kinds::{listed_into, Field};
use crate::snapshot::{Gap, GapReason, Snapshot};
use kube::api::{Api, ApiResource, ListParams};
use kube::core::{GroupVersionKind, ObjectMeta};
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::fmt::Debug;

/// Objects per page of a list.
pub const PAGE: u32 = 500;

/// Every page of a list, handed to `each` as it arrives (`PAGE` objects at a time unless
/// `params` sets another limit): the one paging loop.
pub async fn pages<K>(
    api: &Api<K>,
    mut params: ListParams,
    mut each: impl FnMut(Vec<K>),
) -> Result<(), kube::Error>
where
    K: Clone + DeserializeOwned + Debug,
{
    if params.limit.is_none() {
        params = params.limit(PAGE);
    }
    loop {
        let page = api.list(&params).await?;
        let next = page.metadata.continue_.clone().filter(|c| !c.is_empty());
        each(page.items);
        match next {
            Some(token) => params = params.continue_token(&token),
            None => return Ok(()),
        }
    }
}

/// Every object of a list, all pages.
pub async fn paged<K>(api: &Api<K>, params: ListParams) -> Result<Vec<K>, kube::Error>
where
    K: Clone + DeserializeOwned + Debug,
{
    let mut out = Vec::new();
    pages(api, params, |page| out.extend(page)).await?;
    Ok(out)
}

/// The API resource of a kind, for untyped requests.
pub fn api_resource(kind: &Kind) -> ApiResource {
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk(kind.group, kind.version, kind.kind),
        kind.plural,
    )
}

/// An object of any kind as the API server sent it, decoded later by the snapshot field that
/// holds its kind (as a bundle's objects are).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(transparent)]
struct Raw {
    value: serde_json::Value,
    #[serde(skip)]
    meta: ObjectMeta,
}

impl kube::Resource for Raw {
    type DynamicType = ApiResource;
    type Scope = kube::core::DynamicResourceScope;

    fn kind(dt: &ApiResource) -> Cow<'_, str> {
        dt.kind.as_str().into()
    }
    fn group(dt: &ApiResource) -> Cow<'_, str> {
        dt.group.as_str().into()
    }
    fn version(dt: &ApiResource) -> Cow<'_, str> {
        dt.version.as_str().into()
    }
    fn api_version(dt: &ApiResource) -> Cow<'_, str> {
        dt.api_version.as_str().into()
    }
    fn plural(dt: &ApiResource) -> Cow<'_, str> {
        dt.plural.as_str().into()
    }
    fn meta(&self) -> &ObjectMeta {
        &self.meta
    }
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.meta
    }
}

/// What one list read into its field: the objects (in a snapshot of their own, merged by the
/// caller) and the objects that did not fit their kind (a gap each, not a failed list).
pub(crate) struct Listed {
    /// The field of the snapshot that holds the kind.
    pub field: &'static Field,
    pub part: Snapshot,
    pub malformed: Vec<Gap>,
}

/// Lists every object of `kind` in scope (all namespaces when `ns` is `None`; a cluster-scoped
/// kind always cluster-wide) into the snapshot field that takes every object of it, page by
/// page: each page is decoded before the next is read, so a list costs what its decoded objects
/// cost.
pub(crate) async fn list_into(
    c: &kube::Client,
    ns: Option<&str>,
    kind: &Kind,
    selector: Option<&str>,
) -> Result<Listed, Failure> {
    let ns = ns.filter(|_| kind.namespaced);
    // A test of `snapshot::kinds` checks that every kind listed has its field.
    let field = listed_into(kind).ok_or_else(|| {
        Failure::Gap(Gap {
            verb: "list".into(),
            group: kind.group.into(),
            resource: kind.plural.into(),
            namespace: ns.map(str::to_string),
            reason: GapReason::Error,
            message: format!("no field of the snapshot holds {}", kind.kind),
        })
    })?;
    let ar = api_resource(kind);
    let api: Api<Raw> = match ns {
        Some(ns) => Api::namespaced_with(c.clone(), ns, &ar),
        None => Api::all_with(c.clone(), &ar),
    };
    let mut params = ListParams::default();
    if let Some(sel) = selector {
        params = params.labels(sel);
    }
    let mut out = Listed {
        field,
        part: Snapshot::default(),
        malformed: Vec::new(),
    };
    pages(&api, params, |page| {
        for mut raw in page {
            // Items of a list carry no apiVersion and kind of their own.
            if let Some(o) = raw.value.as_object_mut() {
                o.insert("apiVersion".into(), kind.api_version.into());
                o.insert("kind".into(), kind.kind.into());
            }
            let name = raw
                .value
                .pointer("/metadata/name")
                .and_then(|n| n.as_str())
                .unwrap_or_default()
                .to_string();
            let namespace = raw
                .value
                .pointer("/metadata/namespace")
                .and_then(|n| n.as_str())
                .map(str::to_string);
            if let Err(e) = field.add(&mut out.part, raw.value) {
                out.malformed.push(Gap {
                    verb: "decode".into(),
                    group: kind.group.into(),
                    resource: format!("{}/{name}", kind.kind),
                    namespace,
                    reason: GapReason::Error,
                    message: e.to_string(),
                });
            }
        }
    })
    .await
    .map_err(|e| classify(e, "list", kind.group, kind.plural, ns))?;
    Ok(out)
}

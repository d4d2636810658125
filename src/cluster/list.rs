//! Listing: the one paging loop (limit/continue) every list of kubectl-flink goes through, and
//! lists by a kind's description (`flink::kinds::Kind`) straight into the snapshot field that
//! holds it (`snapshot::kinds`), so the first wave of gather is the table `kinds::LISTED`.

use super::gather::{classify, Failure};
use crate::flink::kinds::Kind;
use crate::snapshot::kinds::{listed_into, Field};
use crate::snapshot::{Gap, GapReason, Snapshot};
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kube::core::{GroupVersionKind, ObjectList};
use kube::Resource;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Objects per page of a list.
pub const PAGE: u32 = 500;

/// Every page of a list as the API server sent it (its JSON text), handed to `each` as it arrives
/// (`PAGE` objects at a time unless `params` sets another limit), which decodes it and returns
/// its `metadata.continue`: the one paging loop.
async fn page_texts(
    client: &kube::Client,
    url: &str,
    mut params: ListParams,
    mut each: impl FnMut(String) -> Result<Option<String>, kube::Error>,
) -> Result<(), kube::Error> {
    if params.limit.is_none() {
        params = params.limit(PAGE);
    }
    let request = kube::core::Request::new(url);
    loop {
        let mut req = request.list(&params).map_err(kube::Error::BuildRequest)?;
        req.extensions_mut().insert("list");
        let text = super::client::request_text(client, req).await?;
        match each(text)?.filter(|c| !c.is_empty()) {
            Some(token) => params = params.continue_token(&token),
            None => return Ok(()),
        }
    }
}

/// Every page of a list, decoded, handed to `each` as it arrives.
pub async fn pages<K>(
    api: &Api<K>,
    params: ListParams,
    mut each: impl FnMut(Vec<K>),
) -> Result<(), kube::Error>
where
    K: kube::Resource + Clone + DeserializeOwned + Debug,
{
    let client = api.clone().into_client();
    page_texts(&client, api.resource_url(), params, |text| {
        let page: ObjectList<K> = serde_json::from_str(&text).map_err(kube::Error::SerdeError)?;
        each(page.items);
        Ok(page.metadata.continue_)
    })
    .await
}

/// Every object of a list, all pages.
pub async fn paged<K>(api: &Api<K>, params: ListParams) -> Result<Vec<K>, kube::Error>
where
    K: kube::Resource + Clone + DeserializeOwned + Debug,
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

/// What one list read into its field: the objects (in a snapshot of their own, merged by the
/// caller) and the objects that did not fit their kind (a gap each, not a failed list).
pub(crate) struct Listed {
    /// The field of the snapshot that holds the kind.
    pub field: &'static Field,
    pub part: Snapshot,
    pub malformed: Vec<Gap>,
}

impl Listed {
    /// Nothing listed yet into FIELD.
    pub(crate) fn new(field: &'static Field) -> Self {
        Listed {
            field,
            part: Snapshot::default(),
            malformed: Vec::new(),
        }
    }

    /// One listed object of KIND (as JSON) added to its field, or, when it does not fit its
    /// kind, a decode gap of its own naming it.
    pub(crate) fn add(&mut self, kind: &Kind, mut value: serde_json::Value) {
        // Items of a list carry no apiVersion and kind of their own.
        if let Some(o) = value.as_object_mut() {
            o.insert("apiVersion".into(), kind.api_version.into());
            o.insert("kind".into(), kind.kind.into());
        }
        let name = value
            .pointer("/metadata/name")
            .and_then(|n| n.as_str())
            .unwrap_or_default()
            .to_string();
        let namespace = value
            .pointer("/metadata/namespace")
            .and_then(|n| n.as_str())
            .map(str::to_string);
        if let Err(e) = self.field.add(&mut self.part, value) {
            self.malformed.push(Gap {
                verb: "decode".into(),
                group: kind.group.into(),
                resource: format!("{}/{name}", kind.kind),
                namespace,
                reason: GapReason::Error,
                message: e.to_string(),
            });
        }
    }
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
    let field = field_of(kind, ns)?;
    let url = DynamicObject::url_path(&api_resource(kind), ns);
    let mut params = ListParams::default();
    if let Some(sel) = selector {
        params = params.labels(sel);
    }
    let mut out = Listed::new(field);
    page_texts(c, &url, params, |text| {
        // Straight into the field's type; only a page with an object that does not fit its kind
        // is read again item by item, so that the misfit is a gap and the others are kept.
        match field.add_list(&mut out.part, kind, &text) {
            Ok(meta) => Ok(meta.continue_),
            Err(_) => one_by_one(&mut out, kind, &text).map_err(kube::Error::SerdeError),
        }
    })
    .await
    .map_err(|e| classify(e, "list", kind.group, kind.plural, ns))?;
    Ok(out)
}

/// A page's objects added one by one, each that does not fit its kind a gap; the page's
/// `metadata.continue`.
fn one_by_one(
    out: &mut Listed,
    kind: &Kind,
    text: &str,
) -> Result<Option<String>, serde_json::Error> {
    let page: ObjectList<serde_json::Value> = serde_json::from_str(text)?;
    for value in page.items {
        out.add(kind, value);
    }
    Ok(page.metadata.continue_)
}

/// The snapshot's field that holds KIND, or the gap of a kind no field holds.
// `Failure` is what every list of gather returns: boxing it here alone would only add a conversion.
#[allow(clippy::result_large_err)]
pub(crate) fn field_of(
    kind: &Kind,
    ns: Option<&str>,
) -> Result<&'static crate::snapshot::kinds::Field, Failure> {
    listed_into(kind).ok_or_else(|| {
        Failure::Gap(Gap {
            verb: "list".into(),
            group: kind.group.into(),
            resource: kind.plural.into(),
            namespace: ns.map(str::to_string),
            reason: GapReason::Error,
            message: format!("no field of the snapshot holds {}", kind.kind),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flink::kinds;

    /// A page as the API server sends it: items without apiVersion and kind.
    const PAGE_WITH_A_MISFIT: &str = r#"{"apiVersion": "flink.apache.org/v1beta1",
        "kind": "FlinkDeploymentList", "metadata": {"continue": "next-page"}, "items": [
        {"metadata": {"name": "good", "namespace": "a"}, "spec": {"job": {"parallelism": 2}}},
        {"metadata": {"name": "bad", "namespace": "b"}, "spec": {"job": {"parallelism": "two"}}}]}"#;

    #[test]
    fn a_page_whose_objects_all_fit_is_decoded_at_once_with_its_continue() {
        let field = listed_into(&kinds::FLINK_DEPLOYMENT).unwrap();
        let mut s = Snapshot::default();
        let good = PAGE_WITH_A_MISFIT.replace(r#""two""#, "3");
        let meta = field
            .add_list(&mut s, &kinds::FLINK_DEPLOYMENT, &good)
            .unwrap();
        assert_eq!(meta.continue_.as_deref(), Some("next-page"));
        let names: Vec<_> = s.flink_deployments.iter().map(|d| d.name()).collect();
        assert_eq!(names, ["good", "bad"]);
    }

    #[test]
    fn a_misfit_in_a_page_is_a_gap_of_its_own_and_the_others_are_kept() {
        let kind = kinds::FLINK_DEPLOYMENT;
        let field = listed_into(&kind).unwrap();
        let mut out = Listed::new(field);
        // All or nothing at once: nothing added.
        assert!(field
            .add_list(&mut out.part, &kind, PAGE_WITH_A_MISFIT)
            .is_err());
        assert!(out.part.flink_deployments.is_empty());
        let next = one_by_one(&mut out, &kind, PAGE_WITH_A_MISFIT).unwrap();
        assert_eq!(next.as_deref(), Some("next-page"));
        let names: Vec<_> = out
            .part
            .flink_deployments
            .iter()
            .map(|d| d.name())
            .collect();
        assert_eq!(names, ["good"]);
        assert_eq!(out.malformed.len(), 1);
        let gap = &out.malformed[0];
        assert_eq!(gap.verb, "decode");
        assert_eq!(gap.group, "flink.apache.org");
        assert_eq!(gap.resource, "FlinkDeployment/bad");
        assert_eq!(gap.namespace.as_deref(), Some("b"));
        assert!(
            gap.message.contains("spec.job.parallelism"),
            "{}",
            gap.message
        );
    }

    #[test]
    fn a_page_that_is_not_a_list_is_an_error() {
        let kind = kinds::FLINK_DEPLOYMENT;
        let mut out = Listed::new(listed_into(&kind).unwrap());
        assert!(one_by_one(&mut out, &kind, "<html>").is_err());
    }
}

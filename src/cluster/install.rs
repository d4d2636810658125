//! Collector for the install layer: the operator's Deployment, pods and ConfigMap, the Flink
//! (both operators') and cert-manager CRDs, the webhook configurations for Flink resources and what they point at
//! (Services, EndpointSlices, the TLS and password Secrets, cert-manager's Certificate and
//! Issuer), and the events of the operator's namespace.
//!
//! Reads are cluster-wide where the operator may live anywhere. A 403 or timeout becomes a Gap
//! (the diagnosis is incomplete there); a 404 on something optional (cert-manager, a Secret, a
//! CRD) is a fact the rules read, not a gap. Secrets are fetched by name and kept only through
//! `bundle::public_only`: the public certificate keys, never a private key or password.

use super::gather::{listed_or_gap, Failure};
use super::reader::Reader;
use crate::flink::install as names;
use crate::flink::kinds::{self, Kind};
use crate::snapshot::bundle::public_only;
use crate::snapshot::{Gap, GapReason, Snapshot};
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Event, Pod, Secret, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::DynamicObject;
use std::collections::BTreeSet;

const LOG_TAIL: i64 = 200;

pub(crate) async fn gather(r: &Reader, s: &mut Snapshot, gaps: &mut Vec<Gap>) {
    // Every label scheme of the operators' releases (`flink::identity`), and every Deployment
    // whose image is an operator's: an operator installed under other labels (a kustomize build
    // that dropped one) is found by what it runs. Only the operators' Deployments are kept.
    let selectors: Vec<String> = crate::flink::identity::OperatorKind::ALL
        .iter()
        .map(|k| k.selector())
        .collect();
    let labelled = futures::future::join_all(selectors.iter().map(|sel| async move {
        futures::join!(
            r.list::<Deployment>(None, Some(sel)),
            r.list::<Pod>(None, Some(sel))
        )
    }));
    let crd_names: Vec<&str> = names::FLINK_CRDS
        .iter()
        .map(|(n, _, _)| *n)
        .chain([names::CERT_MANAGER_CRD, names::flinkcluster::CRD])
        .collect();
    let (labelled, every_deployment, vwcs, mwcs, crds) = futures::join!(
        labelled,
        r.list_shaped::<Deployment>(None, None, runs_an_operator),
        r.list_cluster::<ValidatingWebhookConfiguration>(),
        r.list_cluster::<MutatingWebhookConfiguration>(),
        get_crds(r, &crd_names),
    );
    // Absence is concluded only from reads that covered every namespace: the operators' labels
    // and every Deployment's images.
    s.install_checked = labelled.iter().all(|(d, _)| d.is_ok()) && every_deployment.is_ok();
    for (deployments, pods) in labelled {
        add_all(&mut s.operator_deployments, keep(deployments, gaps), |d| {
            key(&d.metadata)
        });
        add_all(&mut s.operator_pods, keep(pods, gaps), |p| key(&p.metadata));
    }
    let by_image: Vec<Deployment> = keep(every_deployment, gaps);
    for d in &by_image {
        let ns = d.metadata.namespace.as_deref().unwrap_or("default");
        let Some(sel) = d
            .spec
            .selector
            .match_labels
            .as_ref()
            .filter(|m| !m.is_empty())
        else {
            continue;
        };
        let selector = crate::snapshot::identity::labels_of(sel);
        match r.list::<Pod>(Some(ns), Some(&selector)).await {
            Ok(ps) => add_all(&mut s.operator_pods, ps, |p| key(&p.metadata)),
            Err(f) => push_failure(f, gaps),
        }
    }
    add_all(&mut s.operator_deployments, by_image, |d| key(&d.metadata));
    s.validating_webhooks = keep(vwcs, gaps)
        .into_iter()
        .filter(|w| {
            w.webhooks
                .iter()
                .flatten()
                .any(|h| serves_flink(&h.name, h.rules.as_ref()))
        })
        .collect();
    s.mutating_webhooks = keep(mwcs, gaps)
        .into_iter()
        .filter(|w| {
            w.webhooks
                .iter()
                .flatten()
                .any(|h| serves_flink(&h.name, h.rules.as_ref()))
        })
        .collect();
    add_all(&mut s.crds, keep(crds, gaps), |c| {
        (String::new(), c.metadata.name.clone().unwrap_or_default())
    });

    // The webhooks' Services, by namespace.
    let mut services: BTreeSet<(String, String)> = BTreeSet::new();
    for h in s
        .validating_webhooks
        .iter()
        .flat_map(|w| w.webhooks.iter().flatten().map(|h| &h.client_config))
    {
        if let Some(svc) = &h.service {
            services.insert((svc.namespace.clone(), svc.name.clone()));
        }
    }
    for h in s
        .mutating_webhooks
        .iter()
        .flat_map(|w| w.webhooks.iter().flatten().map(|h| &h.client_config))
    {
        if let Some(svc) = &h.service {
            services.insert((svc.namespace.clone(), svc.name.clone()));
        }
    }
    let mut namespaces: BTreeSet<String> = s
        .operator_deployments
        .iter()
        .filter_map(|d| d.metadata.namespace.clone())
        .chain(
            s.operator_pods
                .iter()
                .filter_map(|p| p.metadata.namespace.clone()),
        )
        .collect();
    namespaces.extend(services.iter().map(|(ns, _)| ns.clone()));

    let cert_manager = s
        .crds
        .iter()
        .any(|c| c.metadata.name.as_deref() == Some(names::CERT_MANAGER_CRD));
    for ns in &namespaces {
        // The webhook's Services and their endpoints.
        for (_, name) in services.iter().filter(|(n, _)| n == ns) {
            match r.get::<Service>(ns, name).await.map_err(gap_of) {
                Ok(Some(svc)) => {
                    if s.operator_deployments
                        .iter()
                        .all(|d| d.metadata.namespace.as_deref() != Some(ns))
                    {
                        find_by_selector(r, ns, &svc, s, gaps).await;
                    }
                    add_all(&mut s.services, vec![svc], |x| key(&x.metadata));
                }
                Ok(None) => {}
                Err(g) => gaps.push(g),
            }
            let sel = format!("kubernetes.io/service-name={name}");
            match r.list::<EndpointSlice>(Some(ns), Some(&sel)).await {
                Ok(v) => add_all(&mut s.endpoint_slices, v, |x| key(&x.metadata)),
                Err(f) => push_failure(f, gaps),
            }
        }
        match r
            .get::<ConfigMap>(ns, names::CONFIG_MAP)
            .await
            .map_err(gap_of)
        {
            Ok(Some(cm)) => add_all(&mut s.operator_config_maps, vec![cm], |x| key(&x.metadata)),
            Ok(None) => {}
            Err(g) => gaps.push(g),
        }
        // Events of the operator's namespace, unless the main gather read them already.
        if !s.namespaces.is_empty() && !s.namespaces.iter().any(|n| n == ns) {
            match r.list::<Event>(Some(ns), None).await {
                Ok(v) => add_all(&mut s.events, v, |x| key(&x.metadata)),
                Err(f) => push_failure(f, gaps),
            }
        }
        // cert-manager's Certificate and Issuer, where its API exists.
        if cert_manager {
            for kind in [kinds::CERTIFICATE, kinds::ISSUER] {
                match r.list_dynamic(Some(ns), &kind, None).await {
                    Ok(objects) => {
                        for o in objects {
                            if let Some(v) = untyped(o, &kind) {
                                s.cert_manager_objects.push(v);
                            }
                        }
                    }
                    Err(Failure::Gap(g)) if g.reason == GapReason::NotInstalled => {}
                    Err(f) => push_failure(f, gaps),
                }
            }
        }
        // The webhook's Secrets, by name, public certificates only.
        let wanted = secret_names(s, ns, &services);
        let mut forbidden = false;
        for name in wanted {
            if forbidden {
                break;
            }
            match r
                .get_unwatched::<Secret>(ns, &name, public_only)
                .await
                .map_err(gap_of)
            {
                Ok(Some(secret)) => add_all(&mut s.secrets, vec![secret], |x| key(&x.metadata)),
                Ok(None) => {}
                Err(g) => {
                    forbidden = g.reason == GapReason::Forbidden;
                    gaps.push(g);
                }
            }
        }
    }
    around_operators(r, s, gaps, &namespaces).await;
    operator_logs(r.client(), s).await;
}

/// Nothing dropped in silence: every Deployment and pod of the operators' namespaces (where an
/// operator runs or a Flink webhook's Service is), and the Deployments of the namespaces whose
/// ServiceAccounts have rights over an operator's CRD group with their pods, placed as a bundle
/// places them (`bundle::classify_operator`, `bundle::settle_pods`): the operator's, probably an
/// operator's (kept for the generic pod rules and the overview), or nobody's.
async fn around_operators(
    r: &Reader,
    s: &mut Snapshot,
    gaps: &mut Vec<Gap>,
    operator_namespaces: &BTreeSet<String>,
) {
    use crate::snapshot::bundle::{classify_operator, settle_pods};
    let rbac = crate::snapshot::identity::rbac_namespaces(s);
    let mut pods_read = Vec::new();
    let mut aside = Aside::default();
    for ns in operator_namespaces
        .iter()
        .chain(rbac.difference(operator_namespaces))
    {
        let whole = operator_namespaces.contains(ns);
        let deployments = match r.list::<Deployment>(Some(ns), None).await {
            Ok(v) => v,
            Err(f) => {
                push_failure(f, gaps);
                continue;
            }
        };
        let known = |d: &Deployment, s: &Snapshot| {
            let k = key(&d.metadata);
            s.deployments
                .iter()
                .chain(&s.operator_deployments)
                .any(|x| key(&x.metadata) == k)
        };
        let new: Vec<Deployment> = deployments.into_iter().filter(|d| !known(d, s)).collect();
        // In a namespace read for its accounts' rights only, the pods of the Deployments those
        // rights name, by their selectors; in an operator's namespace, every pod.
        let selectors: Vec<String> = if whole {
            vec![String::new()]
        } else {
            new.iter()
                .filter(|d| crate::snapshot::identity::probable_of(s, d).is_some())
                .filter_map(|d| d.spec.selector.match_labels.as_ref())
                .filter(|m| !m.is_empty())
                .map(crate::snapshot::identity::labels_of)
                .collect()
        };
        s.deployments.extend(new);
        for sel in selectors {
            let sel = (!sel.is_empty()).then_some(sel.as_str());
            match r.list::<Pod>(Some(ns), sel).await {
                Ok(ps) => {
                    for p in ps.into_iter().filter(|p| !listed_pod(s, p)) {
                        aside.add(ns, p);
                    }
                }
                Err(f) => push_failure(f, gaps),
            }
        }
        pods_read.push(ns.clone());
    }
    classify_operator(s);
    gaps.extend(aside.gaps());
    settle_pods(s, aside.pods);
    s.operator_namespaces_read = pods_read;
}

/// The pods of no Flink cluster read around the operators, kept to be placed (`settle_pods`) up
/// to a bundle's cap (`bundle::ASIDE_MAX`), the rest counted by namespace and said as gaps: a
/// namespace of many pods costs what a bundle of it does.
#[derive(Default)]
struct Aside {
    pods: Vec<serde_json::Value>,
    left_out: std::collections::BTreeMap<String, usize>,
}

impl Aside {
    fn add(&mut self, ns: &str, p: Pod) {
        if self.pods.len() >= crate::snapshot::bundle::ASIDE_MAX {
            *self.left_out.entry(ns.to_string()).or_default() += 1;
            return;
        }
        let Ok(mut v) = serde_json::to_value(&p) else {
            return;
        };
        if let Some(m) = v.as_object_mut() {
            m.insert("apiVersion".into(), "v1".into());
            m.insert("kind".into(), "Pod".into());
        }
        self.pods.push(v);
    }

    fn gaps(&self) -> Vec<Gap> {
        self.left_out
            .iter()
            .map(|(ns, n)| crate::snapshot::bundle::beyond_the_cap(ns, *n))
            .collect()
    }
}

/// A pod the diagnosis has already (a Flink cluster's, or the operator's), or a Flink cluster's
/// out of scope: not to be placed again.
fn listed_pod(s: &Snapshot, p: &Pod) -> bool {
    let k = key(&p.metadata);
    let labels = p.metadata.labels.as_ref();
    crate::flink::mode::Component::from_labels(labels).is_some()
        || crate::flink::mode::Mode::of_labels(labels)
            .is_some_and(|(m, _)| m != crate::flink::mode::Mode::Operator)
        || s.operator_pods.iter().any(|x| key(&x.metadata) == k)
        || s.pods.iter().any(|x| {
            x.metadata.namespace.as_deref() == Some(k.0.as_str())
                && x.metadata.name.as_deref() == Some(k.1.as_str())
        })
}

/// A Deployment whose pods a webhook Service selects: the operator installed under other labels.
async fn find_by_selector(
    r: &Reader,
    ns: &str,
    svc: &Service,
    s: &mut Snapshot,
    gaps: &mut Vec<Gap>,
) {
    let Some(sel) = svc
        .spec
        .as_ref()
        .and_then(|sp| sp.selector.as_ref())
        .filter(|m| !m.is_empty())
    else {
        return;
    };
    let selector = crate::snapshot::identity::labels_of(sel);
    match r.list::<Deployment>(Some(ns), None).await {
        Ok(ds) => {
            let matching: Vec<Deployment> = ds
                .into_iter()
                .filter(|d| {
                    let labels = d
                        .spec
                        .template
                        .metadata
                        .as_ref()
                        .and_then(|m| m.labels.as_ref());
                    labels.is_some_and(|l| sel.iter().all(|(k, v)| l.get(k) == Some(v)))
                })
                .collect();
            if matching.is_empty() {
                return;
            }
            add_all(&mut s.operator_deployments, matching, |d| key(&d.metadata));
        }
        Err(f) => {
            push_failure(f, gaps);
            return;
        }
    }
    match r.list::<Pod>(Some(ns), Some(&selector)).await {
        Ok(ps) => add_all(&mut s.operator_pods, ps, |p| key(&p.metadata)),
        Err(f) => push_failure(f, gaps),
    }
}

/// The Secrets the webhook in `ns` uses: the chart's names, and those its Deployment and
/// Certificate name (keystore volume, password env, secretName, passwordSecretRef).
fn secret_names(s: &Snapshot, ns: &str, services: &BTreeSet<(String, String)>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let deployments: Vec<&Deployment> = s
        .operator_deployments
        .iter()
        .filter(|d| d.metadata.namespace.as_deref() == Some(ns))
        .collect();
    let webhook_runs = deployments.iter().any(|d| {
        d.spec.template.spec.as_ref().is_some_and(|p| {
            p.containers
                .iter()
                .any(|c| c.name == names::WEBHOOK_CONTAINER)
        })
    });
    if !webhook_runs && !services.iter().any(|(n, _)| n == ns) {
        return out;
    }
    out.insert(names::TLS_SECRET.to_string());
    out.insert(names::PASSWORD_SECRET.to_string());
    for d in deployments {
        let Some(p) = d.spec.template.spec.as_ref() else {
            continue;
        };
        for v in p.volumes.iter().flatten() {
            if let Some(name) = v.secret.as_ref().and_then(|x| x.secret_name.clone()) {
                out.insert(name);
            }
        }
        for c in p
            .containers
            .iter()
            .filter(|c| c.name == names::WEBHOOK_CONTAINER)
        {
            for e in c.env.iter().flatten() {
                if let Some(r) = e
                    .value_from
                    .as_ref()
                    .and_then(|v| v.secret_key_ref.as_ref())
                {
                    out.insert(r.name.clone());
                }
            }
        }
    }
    for cert in s.cert_manager_objects.iter().filter(|v| {
        v.get("kind").and_then(|k| k.as_str()) == Some("Certificate")
            && v.pointer("/metadata/namespace").and_then(|n| n.as_str()) == Some(ns)
    }) {
        for ptr in [
            "/spec/secretName",
            "/spec/keystores/pkcs12/passwordSecretRef/name",
        ] {
            if let Some(name) = cert.pointer(ptr).and_then(|n| n.as_str()) {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// The operator's own log tail (`wanted::operator_logs`), those not read yet: called again once
/// the FlinkClusters are read (`modes`), since whether they have a status decides one of them.
pub(super) async fn operator_logs(c: &kube::Client, s: &mut Snapshot) {
    let mut wanted = crate::snapshot::wanted::operator_logs(s);
    wanted.retain(|key| !s.logs.contains_key(key));
    // Logs are evidence, not a requirement: a failure here leaves no gap.
    for (key, r) in super::gather::read_logs(c, wanted, LOG_TAIL).await {
        if let Ok(text) = r {
            s.logs.insert(key, text);
        }
    }
}

use names::serves_flink;

/// Whether a Deployment runs an operator's image (`flink::identity`): the Deployments read
/// cluster-wide are kept only then.
fn runs_an_operator(d: Deployment) -> Option<Deployment> {
    let runs = d
        .spec
        .template
        .spec
        .as_ref()
        .is_some_and(|p| crate::flink::identity::operator_of(None, &p.containers).is_some());
    runs.then_some(d)
}

/// The Flink (the Apache operator's and `flinkclusters.flinkoperator.k8s.io`) and cert-manager
/// CRDs by name: absent ones are simply not returned.
async fn get_crds(r: &Reader, names: &[&str]) -> Result<Vec<CustomResourceDefinition>, Failure> {
    // At once: each is one round trip, and none depends on another.
    let got = futures::future::join_all(
        names
            .iter()
            .map(|name| r.get_cluster::<CustomResourceDefinition>(name)),
    )
    .await;
    let mut out = Vec::new();
    for crd in got {
        out.extend(crd?);
    }
    Ok(out)
}

/// One object of a namespaced kind by name (`None` when there is none).
pub(super) async fn get<K>(r: &Reader, ns: &str, name: &str) -> Result<Option<K>, Gap>
where
    K: kube::Resource<Scope = kube::core::NamespaceResourceScope>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
    K::DynamicType: Default,
{
    r.get::<K>(ns, name).await.map_err(gap_of)
}

/// A failed get as its gap.
fn gap_of(f: Failure) -> Gap {
    f.into_gap("get", "installation")
}

/// A list result, or nothing with its failure recorded.
fn keep<T>(r: Result<Vec<T>, Failure>, gaps: &mut Vec<Gap>) -> Vec<T> {
    listed_or_gap(r, gaps, "read", "installation")
}

fn push_failure(f: Failure, gaps: &mut Vec<Gap>) {
    gaps.push(f.into_gap("read", "installation"));
}

fn key(m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> (String, String) {
    (
        m.namespace.clone().unwrap_or_default(),
        m.name.clone().unwrap_or_default(),
    )
}

/// Appends what is not there yet (the main gather may have read some of it).
fn add_all<T>(into: &mut Vec<T>, items: Vec<T>, k: impl Fn(&T) -> (String, String)) {
    for item in items {
        let id = k(&item);
        if !into.iter().any(|x| k(x) == id) {
            into.push(item);
        }
    }
}

/// A cert-manager object as the snapshot keeps it: untyped JSON with its apiVersion and kind.
fn untyped(o: DynamicObject, kind: &Kind) -> Option<serde_json::Value> {
    let mut v = serde_json::to_value(&o).ok()?;
    let m = v.as_object_mut()?;
    m.insert("apiVersion".into(), kind.api_version.into());
    m.insert("kind".into(), kind.kind.into());
    if let Some(meta) = m.get_mut("metadata").and_then(|x| x.as_object_mut()) {
        meta.remove("managedFields");
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::bundle::ASIDE_MAX;

    fn pod(name: &str) -> Pod {
        let mut p = Pod::default();
        p.metadata.name = Some(name.into());
        p
    }

    /// An operator's namespace of more pods than a bundle looks at: the first `ASIDE_MAX` are
    /// kept to be placed, the rest counted by namespace and said as a gap in the bundle's words.
    #[test]
    fn pods_around_the_operators_are_capped_as_a_bundles_are() {
        let mut aside = Aside::default();
        for i in 0..ASIDE_MAX - 2 {
            aside.add("ops", pod(&format!("a-{i}")));
        }
        assert!(aside.gaps().is_empty(), "under the cap: nothing left out");
        for i in 0..5 {
            aside.add("ops", pod(&format!("b-{i}")));
        }
        for i in 0..4 {
            aside.add("tools", pod(&format!("c-{i}")));
        }
        assert_eq!(aside.pods.len(), ASIDE_MAX);
        assert_eq!(aside.pods[0]["kind"], "Pod");
        assert_eq!(aside.pods[0]["apiVersion"], "v1");
        let gaps = aside.gaps();
        assert_eq!(gaps.len(), 2, "{gaps:?}");
        assert_eq!(gaps[0].namespace.as_deref(), Some("ops"));
        assert_eq!(gaps[0].resource, "pods");
        assert_eq!(
            gaps[0].message,
            format!("3 Pod(s) of no Flink cluster beyond the first {ASIDE_MAX}, left out without a look at whether an operator runs where they do")
        );
        assert_eq!(gaps[1].namespace.as_deref(), Some("tools"));
        assert!(
            gaps[1].message.starts_with("4 Pod(s) "),
            "{}",
            gaps[1].message
        );
    }
}

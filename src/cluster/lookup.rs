//! Finding a Flink deployment's ServiceAccount, mode and HA setting (and the operator's) for
//! `can-i`: its FlinkDeployment, its FlinkCluster (the GCP/Spotify operator), then its pods, then
//! its Flink ConfigMap.

use super::list::api_resource;
use crate::error::Error;
use crate::flink::access::Subject;
use crate::flink::kinds::{self, Kind};
use crate::flink::mode::{Component, Mode};
use crate::flink::permissions;
use crate::flink::rbac_fix::Workload;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, ServiceAccount};
use kube::api::{Api, DynamicObject, ListParams};
use kube::Client;

/// What is known of a Flink deployment: where its ServiceAccount came from, its mode and HA.
#[derive(Debug, Default)]
pub struct Located {
    pub service_account: Option<(String, String)>,
    pub mode: Option<Mode>,
    pub ha: Option<bool>,
    pub exists: bool,
    pub forbidden: Vec<String>,
    pub notes: Vec<String>,
    pub workload: Option<Workload>,
}

/// Looks for the Flink deployment NAME: its FlinkDeployment, then its pods (Apache labels, then
/// Lyft's), then a native cluster's ConfigMap `flink-config-NAME`.
pub async fn find_flink(
    c: &Client,
    ns: &str,
    name: &str,
    component: Component,
    trace: &dyn Fn(&str),
) -> Result<Located, Error> {
    let mut f = Located::default();
    let comp = if component == Component::TaskManager {
        Component::TaskManager
    } else {
        Component::JobManager
    };

    // 1. The FlinkDeployment.
    let ar = api_resource(&kinds::FLINK_DEPLOYMENT);
    let api: Api<DynamicObject> = Api::namespaced_with(c.clone(), ns, &ar);
    match read(api.get_opt(name).await, "get flinkdeployments", &mut f)? {
        Some(Some(fd)) => {
            f.exists = true;
            f.workload = Some(Workload::FlinkDeployment(name.to_string()));
            let spec = fd.data.get("spec").cloned().unwrap_or_default();
            f.mode = Some(match spec.get("mode").and_then(|m| m.as_str()) {
                Some("standalone") => Mode::Standalone,
                _ => Mode::Operator,
            });
            let conf = crate::flink::conf::flatten_conf(
                spec.get("flinkConfiguration")
                    .unwrap_or(&serde_json::Value::Null),
            );
            f.ha = Some(permissions::ha_enabled(&conf));
            match spec.get("serviceAccount").and_then(|s| s.as_str()).filter(|s| !s.is_empty()) {
                Some(sa) => {
                    trace(&format!("FlinkDeployment {ns}/{name}: spec.serviceAccount {sa}"));
                    f.service_account = Some((sa.to_string(), format!("spec.serviceAccount of FlinkDeployment {name}")));
                    return Ok(f);
                }
                None => f.notes.push(format!("FlinkDeployment {name} has no spec.serviceAccount (the operator's validator rejects it)")),
            }
        }
        Some(None) => trace(&format!("no FlinkDeployment {ns}/{name}")),
        None => {}
    }

    // 1b. The GCP/Spotify operator's FlinkCluster (a 404 is its CRD not installed): standalone
    // Flink, whose pods run as spec.serviceAccountName.
    if !f.exists {
        let ar = api_resource(&kinds::FLINK_CLUSTER);
        let api: Api<DynamicObject> = Api::namespaced_with(c.clone(), ns, &ar);
        if let Ok(Some(fc)) = api.get_opt(name).await {
            f.exists = true;
            f.mode = Some(Mode::FlinkCluster);
            f.workload = Some(Workload::FlinkCluster(name.to_string()));
            let spec = fc.data.get("spec").cloned().unwrap_or_default();
            let props = spec
                .get("flinkProperties")
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            f.ha = Some(permissions::ha_enabled(&crate::flink::conf::flatten_conf(
                &props,
            )));
            let sa = spec
                .get("serviceAccountName")
                .and_then(|s| s.as_str())
                .filter(|s| !s.is_empty());
            trace(&format!(
                "FlinkCluster {ns}/{name}: spec.serviceAccountName {}",
                sa.unwrap_or("(unset: default)")
            ));
            f.service_account = Some(match sa {
                Some(sa) => (
                    sa.to_string(),
                    format!("spec.serviceAccountName of FlinkCluster {name}"),
                ),
                None => (
                    "default".to_string(),
                    format!("FlinkCluster {name} sets no spec.serviceAccountName"),
                ),
            });
            return Ok(f);
        }
    }

    // 2. Its pods: Apache Flink's labels, then the Lyft operator's.
    let pods: Api<Pod> = Api::namespaced(c.clone(), ns);
    for (selector, lyft) in [
        (Mode::Operator.selector(Some(name), Some(comp)), false),
        (Mode::Lyft.selector(Some(name), Some(comp)), true),
    ] {
        let lp = ListParams::default().labels(&selector).limit(20);
        if let Some(list) = read(pods.list(&lp).await.map(Some), "list pods", &mut f)?.flatten() {
            if let Some(pod) = list.items.first() {
                f.exists = true;
                let spec = pod.spec.as_ref();
                let sa = spec
                    .and_then(|s| {
                        s.service_account_name
                            .clone()
                            .or_else(|| s.service_account.clone())
                    })
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "default".to_string());
                let pod_name = pod.metadata.name.clone().unwrap_or_default();
                trace(&format!(
                    "pod {ns}/{pod_name} ({selector}): serviceAccountName {sa}"
                ));
                if f.mode.is_none() {
                    let standalone = pod
                        .metadata
                        .labels
                        .as_ref()
                        .and_then(|l| l.get("type"))
                        .map(String::as_str)
                        == Some("flink-standalone-kubernetes");
                    f.mode = Some(if lyft {
                        Mode::Lyft
                    } else if standalone {
                        Mode::Standalone
                    } else {
                        Mode::Native
                    });
                }
                if f.service_account.is_none() {
                    f.service_account = Some((sa, format!("serviceAccountName of pod {pod_name}")));
                }
                if f.workload.is_none() {
                    f.workload = Some(match f.mode {
                        Some(Mode::Lyft) => Workload::FlinkApplication(name.to_string()),
                        Some(Mode::Native) => Workload::NativeCluster(name.to_string()),
                        _ => Workload::Unknown,
                    });
                }
                break;
            }
        }
    }

    // 3. The Flink configuration of a native cluster: HA, and the ServiceAccount if still unknown.
    if f.ha.is_none() || f.service_account.is_none() {
        let cms: Api<ConfigMap> = Api::namespaced(c.clone(), ns);
        let cm_name = format!("flink-config-{name}");
        if let Some(Some(cm)) = read(cms.get_opt(&cm_name).await, "get configmaps", &mut f)? {
            f.exists = true;
            let data = cm.data.unwrap_or_default();
            let text = data
                .get("config.yaml")
                .or_else(|| data.get("flink-conf.yaml"))
                .cloned()
                .unwrap_or_default();
            let conf = crate::flink::conf::parse_flink_conf(&text);
            if f.ha.is_none() {
                f.ha = Some(permissions::ha_enabled(&conf));
            }
            if f.mode.is_none() {
                f.mode = Some(Mode::Native);
            }
            if f.workload.is_none() {
                f.workload = Some(Workload::NativeCluster(name.to_string()));
            }
            if f.service_account.is_none() {
                if let Some(sa) = permissions::service_account_from_conf(&conf, component) {
                    let key = if conf.contains_key(&format!("kubernetes.{comp}.service-account")) {
                        format!("kubernetes.{comp}.service-account")
                    } else if conf.contains_key("kubernetes.service-account") {
                        "kubernetes.service-account".to_string()
                    } else {
                        "Flink's default for kubernetes.service-account".to_string()
                    };
                    trace(&format!("ConfigMap {ns}/{cm_name}: {key} = {sa}"));
                    f.service_account = Some((sa, format!("{key} in ConfigMap {cm_name}")));
                }
            }
        }
    }
    Ok(f)
}

/// A read's result: `Some(value)`, or `None` when the API refused it (recorded); an unreachable
/// API server is an error.
fn read<T>(r: Result<T, kube::Error>, what: &str, f: &mut Located) -> Result<Option<T>, Error> {
    match r {
        Ok(v) => Ok(Some(v)),
        // A credential the API server does not accept is not "no such deployment" (exit 2):
        // nothing can be checked, as doctor and logs say (exit 3).
        Err(e @ kube::Error::Api(_)) if matches!(&e, kube::Error::Api(s) if s.code == 401) => {
            Err(crate::error::cluster(&e))
        }
        Err(kube::Error::Api(s)) if s.code == 403 => {
            f.forbidden.push(what.to_string());
            Ok(None)
        }
        // Not served (a CRD that is not installed): nothing of that kind exists.
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        // Anything else (429 after the retries, 5xx) says nothing about the deployment.
        Err(kube::Error::Api(s)) => Err(Error::incomplete(
            &format!("{what}: the API server answered {}", s.code),
            s.message,
        )),
        Err(e) => Err(crate::error::cluster(&e)),
    }
}

/// The operator Deployment's ServiceAccount: the first found of the Apache operator's (its chart's
/// label), Lyft's and the FlinkCluster operator's, the one of `prefer` (the mode of the deployment
/// asked about) first; one in `ns` before one elsewhere.
pub async fn find_operator(
    c: &Client,
    ns: &str,
    prefer: Option<Mode>,
) -> Result<Option<(Subject, String, Mode)>, Error> {
    // The operators' release labels, from the identity table (flink::identity).
    let mut operators = [Mode::Operator, Mode::Lyft, Mode::FlinkCluster]
        .map(|m| (m.selector(None, Some(Component::Operator)), m));
    // A stable sort: the preferred operator first, the others in their order.
    // The operator of a mode: Lyft's, the FlinkCluster one, else the Apache one.
    let prefer = prefer.map(|m| match m {
        Mode::Lyft | Mode::FlinkCluster => m,
        _ => Mode::Operator,
    });
    operators.sort_by_key(|(_, m)| Some(*m) != prefer);
    for (selector, mode) in operators {
        let lp = ListParams::default().labels(&selector);
        let mut found = match Api::<Deployment>::all(c.clone()).list(&lp).await {
            Ok(l) => l.items,
            Err(kube::Error::Api(_)) => {
                match Api::<Deployment>::namespaced(c.clone(), ns).list(&lp).await {
                    Ok(l) => l.items,
                    Err(kube::Error::Api(_)) => Vec::new(),
                    Err(e) => return Err(crate::error::cluster(&e)),
                }
            }
            Err(e) => return Err(crate::error::cluster(&e)),
        };
        found.sort_by_key(|d| {
            (
                d.metadata.namespace.as_deref() != Some(ns),
                d.metadata.namespace.clone(),
                d.metadata.name.clone(),
            )
        });
        if let Some(d) = found.first() {
            let d_ns = d.metadata.namespace.clone().unwrap_or_default();
            let d_name = d.metadata.name.clone().unwrap_or_default();
            let sa = d
                .spec
                .template
                .spec
                .as_ref()
                .and_then(|s| {
                    s.service_account_name
                        .clone()
                        .or_else(|| s.service_account.clone())
                })
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "default".to_string());
            let mut source = format!("serviceAccountName of operator Deployment {d_ns}/{d_name}");
            if found.len() > 1 {
                source.push_str(&format!(
                    " (one of {} operator Deployments; --as chooses another)",
                    found.len()
                ));
            }
            return Ok(Some((
                Subject::ServiceAccount {
                    namespace: d_ns,
                    name: sa,
                },
                source,
                mode,
            )));
        }
    }
    Ok(None)
}

pub async fn check_namespace(c: &Client, ns: &str) -> Result<(), Error> {
    match Api::<Namespace>::all(c.clone()).get_opt(ns).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(Error::Input(format!("namespace \"{ns}\" not found"))),
        // Not allowed to read namespaces: the reads below tell what they can.
        Err(kube::Error::Api(_)) => Ok(()),
        Err(e) => Err(crate::error::cluster(&e)),
    }
}

pub async fn check_service_account(
    c: &Client,
    ns: &str,
    name: &str,
    source: &str,
) -> Result<(), Error> {
    match Api::<ServiceAccount>::namespaced(c.clone(), ns).get_opt(name).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(Error::Input(format!(
            "ServiceAccount {ns}/{name} ({source}) not found: create it (kubectl -n {ns} create serviceaccount {name}) or name another"
        ))),
        Err(kube::Error::Api(_)) => Ok(()),
        Err(e) => Err(crate::error::cluster(&e)),
    }
}

/// The namespaces where a Flink deployment named `name` exists, for `doctor NAME` when it is not
/// where it looked: one list across all namespaces of each kind doctor reads, narrowed by the API
/// server to that name (FlinkDeployments, FlinkSessionJobs, Lyft's FlinkApplications and the
/// GCP/Spotify operator's FlinkClusters by `metadata.name`, JobManager Deployments of plain native
/// and standalone clusters by `app=NAME,component=jobmanager`). `None` when none of them could be
/// listed (forbidden, failed): then nothing can be said about elsewhere.
pub async fn namespaces_named(c: &Client, name: &str) -> Option<Vec<String>> {
    let by_name = ListParams::default()
        .fields(&format!("metadata.name={name}"))
        .limit(100);
    let by_label = ListParams::default()
        .labels(&Mode::Operator.selector(Some(name), Some(Component::JobManager)))
        .limit(100);
    let lists = named(c, None, &by_name, &by_label).await;
    let answered = lists.iter().any(Option::is_some);
    let mut out: Vec<String> = lists
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|(_, namespace, _)| namespace)
        .collect();
    out.sort();
    out.dedup();
    answered.then_some(out)
}

/// The Flink deployments in `namespace` (every namespace when None), each name once with the
/// kind it was found as, sorted: for the shell completion of NAME. The same kinds `doctor NAME`
/// knows; a kind that cannot be listed adds nothing.
pub async fn flink_names(c: &Client, namespace: Option<&str>) -> Vec<(String, &'static str)> {
    let every = ListParams::default().limit(500);
    let jobmanagers = ListParams::default()
        .labels(&Mode::Operator.selector(None, Some(Component::JobManager)))
        .limit(500);
    let mut out: Vec<(String, &'static str)> = named(c, namespace, &every, &jobmanagers)
        .await
        .into_iter()
        .flatten()
        .flatten()
        .map(|(name, _, kind)| (name, kind))
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The namespaces' names, for the shell completion of `-n`; empty when they cannot be listed.
pub async fn namespace_names(c: &Client) -> Vec<String> {
    Api::<Namespace>::all(c.clone())
        .list_metadata(&ListParams::default().limit(500))
        .await
        .map(|list| {
            list.items
                .into_iter()
                .filter_map(|n| n.metadata.name)
                .collect()
        })
        .unwrap_or_default()
}

/// One list of each kind a Flink deployment is named by, in `namespace` (all when None):
/// FlinkDeployments, FlinkSessionJobs, FlinkApplications and FlinkClusters with `by_name`, the
/// JobManager Deployments of plain native and standalone clusters with `jobmanagers` (their
/// deployment's name is the Deployment's `app` label). Each item is (name, namespace, kind);
/// `None` for a list that failed.
async fn named(
    c: &Client,
    namespace: Option<&str>,
    by_name: &ListParams,
    jobmanagers: &ListParams,
) -> [Option<Vec<(String, Option<String>, &'static str)>>; 5] {
    let dynamic = |kind: &Kind| {
        let ar = api_resource(kind);
        match namespace {
            Some(ns) => Api::<DynamicObject>::namespaced_with(c.clone(), ns, &ar),
            None => Api::<DynamicObject>::all_with(c.clone(), &ar),
        }
    };
    let fds = dynamic(&kinds::FLINK_DEPLOYMENT);
    let sjs = dynamic(&kinds::FLINK_SESSION_JOB);
    let apps = dynamic(&kinds::FLINK_APPLICATION);
    let clusters = dynamic(&kinds::FLINK_CLUSTER);
    let deployments: Api<Deployment> = match namespace {
        Some(ns) => Api::namespaced(c.clone(), ns),
        None => Api::all(c.clone()),
    };
    let (fds, sjs, apps, fcs, jms) = futures::join!(
        fds.list_metadata(by_name),
        sjs.list_metadata(by_name),
        apps.list_metadata(by_name),
        clusters.list_metadata(by_name),
        deployments.list_metadata(jobmanagers),
    );
    fn items<K: Clone>(
        list: kube::Result<kube::core::ObjectList<kube::core::PartialObjectMeta<K>>>,
        kind: &'static str,
        name: impl Fn(kube::core::ObjectMeta) -> Option<String>,
    ) -> Option<Vec<(String, Option<String>, &'static str)>> {
        let list = list.ok()?;
        Some(
            list.items
                .into_iter()
                .filter_map(|o| {
                    let namespace = o.metadata.namespace.clone();
                    name(o.metadata).map(|n| (n, namespace, kind))
                })
                .collect(),
        )
    }
    let own_name = |m: kube::core::ObjectMeta| m.name;
    [
        items(fds, kinds::FLINK_DEPLOYMENT.kind, own_name),
        items(sjs, kinds::FLINK_SESSION_JOB.kind, own_name),
        items(apps, kinds::FLINK_APPLICATION.kind, own_name),
        items(fcs, kinds::FLINK_CLUSTER.kind, own_name),
        items(jms, "JobManager Deployment", |m| {
            m.labels.and_then(|mut l| l.remove("app"))
        }),
    ]
}

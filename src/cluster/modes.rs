//! Collector for the deployment modes beyond what the first wave lists (how they are told apart:
//! `snapshot::index`):
//!
//! - plain Flink native clusters (no operator) and the operator's standalone mode: their pods and
//!   Deployments carry `component=jobmanager|taskmanager` and are listed by the first wave already;
//!   this adds their Services (`<cluster-id>-rest`, the internal `<cluster-id>`) and ConfigMaps
//!   (`flink-config-<cluster-id>` with Flink's configuration, the HA ConfigMaps with
//!   `configmap-type=high-availability`), all selected by Flink's `type` label;
//! - Lyft flinkk8soperator: the FlinkApplications (`flink.k8s.io/v1beta1`; a 404 means Lyft's CRD
//!   is not installed, which is no gap), their Deployments, pods and Services (`flink-app` label);
//! - the GCP/Spotify operator: its FlinkClusters (`flinkoperator.k8s.io/v1beta1`; a 404 means its
//!   CRD is not installed, which is no gap) and what it makes, all labelled `app=flink,cluster=<name>`:
//!   JobManager and TaskManager StatefulSets, the job submitter Job and its pods (which have no
//!   `component` label, so the first wave misses them), Services and the `<name>-configmap`;
//! - a second wave of its own: the JobManager log of native-mode clusters whose TaskManager pods
//!   are missing or were replaced (`jobmanager_logs_wanted`), which the general wave skips when
//!   the JobManager looks healthy; its lines say why TaskManagers are not there.
//!
//! With NAME, every list is narrowed to it (`app=NAME`, `flink-app=NAME`, `cluster=NAME`). Objects the first wave
//! or the install collector read already are not added twice. Values of sensitive keys in Flink's
//! configuration (passwords, secrets, tokens, keys) are masked the moment they are read, as Flink
//! masks them in its own logs.

use super::gather::{listed_or_gap, Failure};
use super::reader::Reader;
use crate::flink::kinds;
use crate::flink::mode::Mode;
use crate::snapshot::index::Index;
use crate::snapshot::Pod;
use crate::snapshot::{FlinkApplication, FlinkCluster, Gap, GapReason, Snapshot};
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Service};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// Lines of a JobManager log read by this collector (the CLI's `--log-tail` default).
const LOG_TAIL: i64 = 500;
const MASK: &str = "******";

pub(crate) async fn gather(
    r: &Reader,
    ns: Option<&str>,
    name: Option<&str>,
    s: &mut Snapshot,
    gaps: &mut Vec<Gap>,
) {
    let (flink_sel, lyft_sel) = (
        Mode::Native.objects_selector(name),
        Mode::Lyft.objects_selector(name),
    );
    let (services, config_maps, apps, lyft_pods, lyft_deployments, lyft_services) = futures::join!(
        r.list::<Service>(ns, Some(&flink_sel)),
        r.list_shaped::<ConfigMap>(ns, Some(&flink_sel), masked),
        r.list_into(ns, &kinds::FLINK_APPLICATION, None),
        r.list_into(ns, &kinds::POD, Some(&lyft_sel)),
        r.list::<Deployment>(ns, Some(&lyft_sel)),
        r.list::<Service>(ns, Some(&lyft_sel)),
    );
    let lyft_pods = keep(pods_of(lyft_pods, gaps), gaps);
    let lyft_deployments = keep(lyft_deployments, gaps);
    let lyft_seen = !lyft_pods.is_empty() || !lyft_deployments.is_empty();
    add_all(&mut s.pods, lyft_pods, |p| {
        (p.metadata.namespace.as_deref(), p.metadata.name.as_deref())
    });
    add_all(&mut s.deployments, lyft_deployments, |d| id(&d.metadata));
    add_all(&mut s.services, keep(services, gaps), |x| id(&x.metadata));
    add_all(&mut s.services, keep(lyft_services, gaps), |x| {
        id(&x.metadata)
    });
    add_all(&mut s.config_maps, keep(config_maps, gaps), |x| {
        id(&x.metadata)
    });
    match apps {
        Ok(mut listed) => {
            gaps.append(&mut listed.malformed);
            let mut apps: Vec<FlinkApplication> = listed.part.flink_applications;
            if let Some(n) = name {
                apps.retain(|a| a.name() == n);
            }
            add_all(&mut s.flink_applications, apps, |a| id(&a.metadata));
        }
        // Lyft's CRD is not installed: nothing to read, nothing missing.
        Err(Failure::Gap(g)) if g.reason == GapReason::NotInstalled => {}
        // Refused: a gap only where Lyft's objects show it is in use; everyone else would get a
        // warning about an operator they never installed.
        Err(Failure::Gap(g)) if g.reason == GapReason::Forbidden && !lyft_seen => {}
        Err(f) => push_failure(f, gaps),
    }
    gather_flinkclusters(r, ns, name, s, gaps).await;
    let c = r.client();
    super::install::operator_logs(c, s).await;
    drop_apache_crd_gaps(s, gaps);

    // Second wave: JobManager logs that say where the TaskManagers are.
    let mut wanted = crate::snapshot::wanted::jobmanager_logs(s);
    wanted.retain(|key| !s.logs.contains_key(key));
    // Logs are evidence, not a requirement: a failure here leaves no gap (the general wave
    // records a refused log read).
    for (key, r) in super::gather::read_logs(c, wanted, LOG_TAIL).await {
        if let Ok(text) = r {
            s.logs.insert(key, text);
        }
    }
}

/// The GCP/Spotify operator's FlinkClusters and the objects it labels `app=flink,cluster=<name>`.
async fn gather_flinkclusters(
    r: &Reader,
    ns: Option<&str>,
    name: Option<&str>,
    s: &mut Snapshot,
    gaps: &mut Vec<Gap>,
) {
    let sel = Mode::FlinkCluster.objects_selector(name);
    let (clusters, pods, stateful_sets, jobs, deployments, services, config_maps) = futures::join!(
        r.list_into(ns, &kinds::FLINK_CLUSTER, None),
        r.list_into(ns, &kinds::POD, Some(&sel)),
        r.list::<StatefulSet>(ns, Some(&sel)),
        r.list::<Job>(ns, Some(&sel)),
        r.list::<Deployment>(ns, Some(&sel)),
        r.list::<Service>(ns, Some(&sel)),
        r.list_shaped::<ConfigMap>(ns, Some(&sel), masked),
    );
    // StatefulSets and Jobs are read for this operator only: a refusal to list them matters
    // where FlinkClusters are in use, and is no gap for everyone else.
    let mut local = Vec::new();
    let pods = pods_of(pods, &mut local);
    let pods = keep(pods, &mut local);
    let stateful_sets = keep(stateful_sets, &mut local);
    let jobs = keep(jobs, &mut local);
    let deployments = keep(deployments, &mut local);
    let services = keep(services, &mut local);
    let config_maps = keep(config_maps, &mut local);
    let mut in_use = !pods.is_empty() || !stateful_sets.is_empty() || !jobs.is_empty();
    match clusters {
        Ok(mut listed) => {
            gaps.append(&mut listed.malformed);
            let mut found: Vec<FlinkCluster> = listed.part.flink_clusters;
            if let Some(n) = name {
                found.retain(|x| x.name() == n);
            }
            in_use |= !found.is_empty();
            add_all(&mut s.flink_clusters, found, |x| id(&x.metadata));
        }
        // The operator's CRD is not installed: nothing to read, nothing missing.
        Err(Failure::Gap(g)) if g.reason == GapReason::NotInstalled => {}
        // Refused: a gap only where the operator's objects show it is in use.
        Err(Failure::Gap(g)) if g.reason == GapReason::Forbidden && !in_use => {}
        Err(f) => push_failure(f, gaps),
    }
    if in_use {
        gaps.extend(local);
    }
    add_all(&mut s.pods, pods, |p| {
        (p.metadata.namespace.as_deref(), p.metadata.name.as_deref())
    });
    add_all(&mut s.stateful_sets, stateful_sets, |x| id(&x.metadata));
    add_all(&mut s.jobs, jobs, |x| id(&x.metadata));
    add_all(&mut s.deployments, deployments, |x| id(&x.metadata));
    add_all(&mut s.services, services, |x| id(&x.metadata));
    add_all(&mut s.config_maps, config_maps, |x| id(&x.metadata));
}

/// A 404 on FlinkDeployments / FlinkSessionJobs says the Apache operator's CRDs are not installed.
/// That is the problem to report when Flink is meant to run under that operator, and a false
/// alarm when the Flink in scope runs without it: plain native clusters or Lyft FlinkApplications,
/// and no Apache operator anywhere. Then the gap is dropped.
pub fn drop_apache_crd_gaps(s: &Snapshot, gaps: &mut Vec<Gap>) {
    use crate::flink::identity::OperatorKind;
    use crate::snapshot::identity::operator_of;
    let apache =
        |found: Option<(OperatorKind, _)>| found.is_some_and(|(k, _)| k == OperatorKind::Apache);
    let apache_operator = s
        .operator_deployments
        .iter()
        .any(|d| apache(operator_of(s, d)))
        || s.operator_pods.iter().any(|p| apache(operator_of(s, p)));
    if apache_operator || !s.flink_deployments.is_empty() || !s.flink_session_jobs.is_empty() {
        return;
    }
    let index = Index::new(s);
    let other_modes = index
        .clusters()
        .iter()
        .any(|c| matches!(c.mode, Mode::Native | Mode::Lyft | Mode::FlinkCluster));
    if other_modes {
        gaps.retain(|g| {
            !(g.reason == GapReason::NotInstalled && g.group == crate::flink::names::GROUP)
        });
    }
}

/// [`mask_config_map`] as a read's shape: masked the moment it is read.
fn masked(cm: ConfigMap) -> Option<ConfigMap> {
    Some(mask_config_map(cm))
}

/// Flink's configuration in a ConfigMap with the values of sensitive keys masked.
pub fn mask_config_map(mut cm: ConfigMap) -> ConfigMap {
    if let Some(data) = cm.data.as_mut() {
        for key in crate::snapshot::index::FLINK_CONF_KEYS {
            if let Some(text) = data.get_mut(*key) {
                *text = mask_flink_conf(text);
            }
        }
    }
    if let Some(a) = cm.metadata.annotations.as_mut() {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    cm
}

/// `s3.secret-key: abc` -> `s3.secret-key: ******`, line by line (flat `flink-conf.yaml` and
/// nested `config.yaml` alike); everything else unchanged.
pub fn mask_flink_conf(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        let trimmed = body.trim_start();
        let masked = match trimmed.split_once(':') {
            Some((k, v)) if !trimmed.starts_with('#') && !v.trim().is_empty() => {
                let key = k.trim().trim_start_matches("- ").to_ascii_lowercase();
                if crate::signatures::redact::secret_key(&key) {
                    let indent = &body[..body.len() - trimmed.len()];
                    Some(format!("{indent}{}: {MASK}", k.trim_end()))
                } else {
                    None
                }
            }
            _ => None,
        };
        match masked {
            Some(m) => {
                out.push_str(&m);
                out.push_str(ending);
            }
            None => out.push_str(line),
        }
    }
    out
}

fn keep<T>(r: Result<Vec<T>, Failure>, gaps: &mut Vec<Gap>) -> Vec<T> {
    listed_or_gap(r, gaps, "list", "flink objects")
}

fn push_failure(f: Failure, gaps: &mut Vec<Gap>) {
    gaps.push(f.into_gap("list", "flink objects"));
}

/// Appends what is not there yet, by namespace and name.
/// Adds the items not in `into` already, an item known by its namespace and name (`id`).
fn add_all<T>(
    into: &mut Vec<T>,
    items: Vec<T>,
    id: impl for<'a> Fn(&'a T) -> (Option<&'a str>, Option<&'a str>),
) {
    for item in items {
        if !into.iter().any(|x| id(x) == id(&item)) {
            into.push(item);
        }
    }
}

/// An object's namespace and name.
fn id(m: &ObjectMeta) -> (Option<&str>, Option<&str>) {
    (m.namespace.as_deref(), m.name.as_deref())
}

/// The pods a list read (`list_into`), the ones that did not decode a gap each.
// `Failure` is what every list of gather returns (and `keep` takes): boxing it here alone would
// only add a conversion.
#[allow(clippy::result_large_err)]
fn pods_of(
    listed: Result<super::list::Listed, Failure>,
    gaps: &mut Vec<Gap>,
) -> Result<Vec<Pod>, Failure> {
    listed.map(|mut l| {
        gaps.append(&mut l.malformed);
        l.part.pods
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{snapshot, NATIVE_JOBMANAGER};

    #[test]
    fn sensitive_values_are_masked_and_the_rest_kept() {
        let text = "s3.access-key: AKIA123\ns3.secret-key: abc/def\nkubernetes.cluster-id: x\n# password: in a comment\nsecurity:\n  ssl:\n    rest:\n      keystore-password: hunter2\n";
        let masked = mask_flink_conf(text);
        assert_eq!(
            masked,
            "s3.access-key: ******\ns3.secret-key: ******\nkubernetes.cluster-id: x\n# password: in a comment\nsecurity:\n  ssl:\n    rest:\n      keystore-password: ******\n"
        );
    }

    #[test]
    fn apache_crd_gaps_are_dropped_only_where_flink_runs_without_that_operator() {
        let gap = Gap {
            verb: "list".into(),
            group: "flink.apache.org".into(),
            resource: "flinkdeployments".into(),
            namespace: Some("stream".into()),
            reason: GapReason::NotInstalled,
            message: "404".into(),
        };
        let mut gaps = vec![gap.clone()];
        drop_apache_crd_gaps(&snapshot(NATIVE_JOBMANAGER), &mut gaps);
        assert!(
            gaps.is_empty(),
            "a plain native cluster needs no operator CRD"
        );
        let mut gaps = vec![gap.clone()];
        drop_apache_crd_gaps(&Snapshot::default(), &mut gaps);
        assert_eq!(
            gaps.len(),
            1,
            "no Flink at all: the missing CRD stays reported"
        );
        let mut with_operator = snapshot(NATIVE_JOBMANAGER);
        with_operator.operator_pods = snapshot(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: op, namespace: flink-operator, labels: {app.kubernetes.io/name: flink-kubernetes-operator}}\nspec: {containers: [{name: c, image: i}]}\n",
        )
        .operator_pods;
        let mut gaps = vec![gap];
        drop_apache_crd_gaps(&with_operator, &mut gaps);
        assert_eq!(
            gaps.len(),
            1,
            "an Apache operator without its CRDs is a problem"
        );
    }
}

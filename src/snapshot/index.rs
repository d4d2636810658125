//! Lookups over a Snapshot that many rules share: which Flink deployment a pod belongs to,
//! the Flink clusters in scope in every deployment mode, their configuration, the events of an
//! object, a pod's ServiceAccount.
//!
//! A Flink cluster is named by the object a person would `kubectl get` (operator `KubernetesDeploymentMode.java` and `StandaloneKubernetesUtils.java` @release-1.15.0, Flink `KubernetesUtils.getCommonLabels`, Lyft `deploy/crd.yaml`):
//!
//! | mode | ObjectRef kind | name |
//! |---|---|---|
//! | Apache operator, native or standalone | `FlinkDeployment` | the CR's name (= cluster-id) |
//! | Flink native Kubernetes without an operator (`flink run-application --target kubernetes-application`, `kubernetes-session.sh`) | `Deployment` (`KIND_NATIVE_CLUSTER`) | the cluster-id (`kubernetes.cluster-id`): the JobManager Deployment's name and the `app` label. The Deployment owns the TaskManager pods and deleting it stops the cluster, so it names the group of objects Flink created and findings of one cluster rank together |
//! | Lyft flinkk8soperator | `FlinkApplication` | the CR's name (the `flink-app` label) |
//! | the GCP/Spotify operator (`flinkoperator.k8s.io`) | `FlinkCluster` | the CR's name (the `cluster` label beside `app=flink`, on its StatefulSets, Deployments, Jobs, pods, Services and ConfigMap: spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_converter.go). |
//! | native pods whose FlinkDeployments and JobManager Deployment could not be read (403, timeout) | `unknown` (`KIND_UNKNOWN`) | the cluster-id: an operator's FlinkDeployment and a plain native cluster look alike from their pods, so the kind is not guessed |

use super::{FlinkApplication, FlinkCluster, FlinkDeployment, Snapshot};
use crate::finding::ObjectRef;
use crate::flink::labels::LabelMap;
use crate::flink::mode::{Component, Mode};
use crate::flink::names::{
    FLINKCLUSTER_APP, KIND_FLINK_APPLICATION, KIND_FLINK_CLUSTER, KIND_FLINK_DEPLOYMENT,
    KIND_NATIVE_CLUSTER, LABEL_APP, LABEL_CLUSTER, LABEL_FLINK_APP, LABEL_TYPE, TYPE_NATIVE,
    TYPE_STANDALONE,
};
use crate::snapshot::pod::Meta;
use crate::snapshot::Pod;
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Event, Service};
use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};

/// The kind of a Flink cluster whose pods were read but not what made them: native pods with no
/// FlinkDeployment or JobManager Deployment in the snapshot because those could not be read.
pub const KIND_UNKNOWN: &str = "unknown";

/// One Flink cluster in scope, with the Kubernetes objects that make it up.
#[derive(Debug, Clone)]
pub struct Cluster<'a> {
    /// What findings about it are grouped under (`Finding::deployment`).
    pub reference: ObjectRef,
    pub mode: Mode,
    pub flink_deployment: Option<&'a FlinkDeployment>,
    pub flink_application: Option<&'a FlinkApplication>,
    /// The GCP/Spotify operator's FlinkCluster, for `Mode::FlinkCluster`.
    pub flink_cluster: Option<&'a FlinkCluster>,
    pub jobmanager_deployments: Vec<&'a Deployment>,
    pub taskmanager_deployments: Vec<&'a Deployment>,
    /// FlinkCluster: the JobManager and TaskManager StatefulSets.
    pub jobmanager_stateful_sets: Vec<&'a StatefulSet>,
    pub taskmanager_stateful_sets: Vec<&'a StatefulSet>,
    pub jobmanager_pods: Vec<&'a Pod>,
    pub taskmanager_pods: Vec<&'a Pod>,
    /// FlinkCluster: the job submitter Job(s) and their pods (no `component` label).
    pub submitter_jobs: Vec<&'a Job>,
    pub submitter_pods: Vec<&'a Pod>,
}

impl<'a> Cluster<'a> {
    pub fn name(&self) -> &str {
        &self.reference.name
    }
    pub fn namespace(&self) -> &str {
        self.reference.namespace.as_deref().unwrap_or("default")
    }
    /// `kubectl get <this> -n NS`: `flinkdeployment x`, `flinkapplication x`, or for a plain
    /// native cluster its JobManager Deployment.
    pub fn kubectl_object(&self) -> String {
        if self.mode == Mode::FlinkCluster {
            return format!("flinkcluster {}", self.name());
        }
        match self.reference.kind.as_str() {
            KIND_FLINK_DEPLOYMENT => format!("flinkdeployment {}", self.name()),
            KIND_FLINK_APPLICATION => format!("flinkapplication {}", self.name()),
            _ => format!("deployment {}", self.name()),
        }
    }
    /// The label selector of its pods of one component (`Mode::selector`), unquoted.
    pub fn selector(&self, component: Component) -> String {
        self.mode.selector(Some(self.name()), Some(component))
    }
    /// The ServiceAccount the JobManager runs as: its pod's, else the one the spec names, else
    /// Flink's configuration, else `default`.
    pub fn jobmanager_service_account(&self, conf: &Conf) -> String {
        if let Some(p) = self.jobmanager_pods.first() {
            return pod_service_account(p).to_string();
        }
        let templates = self
            .jobmanager_deployments
            .iter()
            .map(|d| &d.spec.template)
            .chain(
                self.jobmanager_stateful_sets
                    .iter()
                    .map(|s| &s.spec.template),
            );
        for t in templates {
            if let Some(sa) = t
                .spec
                .as_ref()
                .and_then(|s| s.service_account_name.as_deref())
                .filter(|s| !s.is_empty())
            {
                return sa.to_string();
            }
        }
        if let Some(fc) = self.flink_cluster {
            return fc.service_account().to_string();
        }
        if let Some(fd) = self.flink_deployment {
            return fd.service_account().to_string();
        }
        if let Some(sa) = self
            .flink_application
            .and_then(|a| a.spec.service_account_name.as_deref())
            .filter(|s| !s.is_empty())
        {
            return sa.to_string();
        }
        crate::flink::permissions::service_account_from_conf(
            &conf.flat(),
            crate::flink::mode::Component::JobManager,
        )
        .unwrap_or_else(|| "default".into())
    }
    /// The TaskManager pods that have not ended (phase other than Succeeded / Failed).
    pub fn live_taskmanager_pods(&self) -> Vec<&'a Pod> {
        self.taskmanager_pods
            .iter()
            .copied()
            .filter(|p| !matches!(pod_phase(p), "Succeeded" | "Failed"))
            .collect()
    }
}

/// One configuration value and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfValue {
    pub value: String,
    /// `FlinkDeployment spec.flinkConfiguration`, `ConfigMap flink-config-x config.yaml`, ...
    pub source: String,
}

/// A cluster's Flink configuration as flat `key -> value`, each with its source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conf {
    pub values: BTreeMap<String, ConfValue>,
}

impl Conf {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(|v| v.value.as_str())
    }
    /// The first of several keys that is set (a key and its deprecated names).
    pub fn get_any(&self, keys: &[&str]) -> Option<(&str, &ConfValue)> {
        keys.iter()
            .find_map(|k| self.values.get_key_value(*k))
            .map(|(k, v)| (k.as_str(), v))
    }
    /// `ConfigMap flink-config-x config.yaml: key: value`, for evidence.
    pub fn evidence(&self, key: &str) -> Option<String> {
        self.values
            .get(key)
            .map(|v| format!("{}: {key}: {}", v.source, v.value))
    }
    pub fn flat(&self) -> BTreeMap<String, String> {
        self.values
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect()
    }
    fn extend(&mut self, values: BTreeMap<String, String>, source: &str) {
        for (k, v) in values {
            self.values.insert(
                k,
                ConfValue {
                    value: v,
                    source: source.to_string(),
                },
            );
        }
    }
}

/// The data keys of `flink-config-<id>` that hold Flink's configuration (Flink ≥ 2.0, older).
pub const FLINK_CONF_KEYS: &[&str] = &["config.yaml", "flink-conf.yaml"];
/// Flink's configuration ConfigMap of a native or standalone cluster.
pub fn flink_config_map_name(cluster_id: &str) -> String {
    format!("flink-config-{cluster_id}")
}

pub struct Index<'a> {
    pub snapshot: &'a Snapshot,
    deployments: HashMap<(&'a str, &'a str), &'a FlinkDeployment>,
    applications: HashMap<(&'a str, &'a str), &'a FlinkApplication>,
    flink_clusters: HashMap<(&'a str, &'a str), &'a FlinkCluster>,
    k8s_deployments: HashMap<(&'a str, &'a str), &'a Deployment>,
    /// ConfigMaps by (namespace, name), the first of each name.
    config_maps: HashMap<(&'a str, &'a str), &'a ConfigMap>,
    events: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Event>>,
    /// Every cluster in scope, built once on first use (each rule and each finding asks).
    clusters: OnceCell<Clusters<'a>>,
    /// Pods with a Flink `component` label by (namespace, `app` label), built once on first use.
    pods_by_app: OnceCell<HashMap<(&'a str, &'a str), Vec<&'a Pod>>>,
}

/// `Index::clusters`, and where each reference is in it.
struct Clusters<'a> {
    list: Vec<Cluster<'a>>,
    position: HashMap<ObjectRef, usize>,
}

impl<'a> Index<'a> {
    pub fn new(snapshot: &'a Snapshot) -> Self {
        let deployments = snapshot
            .flink_deployments
            .iter()
            .map(|fd| ((fd.namespace(), fd.name()), fd))
            .collect();
        let applications = snapshot
            .flink_applications
            .iter()
            .map(|a| ((a.namespace(), a.name()), a))
            .collect();
        let flink_clusters = snapshot
            .flink_clusters
            .iter()
            .map(|c| ((c.namespace(), c.name()), c))
            .collect();
        let k8s_deployments = snapshot
            .deployments
            .iter()
            .map(|d| ((meta_namespace(&d.metadata), meta_name(&d.metadata)), d))
            .collect();
        let mut config_maps = HashMap::new();
        for c in &snapshot.config_maps {
            config_maps
                .entry((meta_namespace(&c.metadata), meta_name(&c.metadata)))
                .or_insert(c);
        }
        let mut events: HashMap<_, Vec<&Event>> = HashMap::new();
        for e in &snapshot.events {
            let o = &e.involved_object;
            let ns = o
                .namespace
                .as_deref()
                .or(e.metadata.namespace.as_deref())
                .unwrap_or("");
            events
                .entry((
                    o.kind.as_deref().unwrap_or(""),
                    ns,
                    o.name.as_deref().unwrap_or(""),
                ))
                .or_default()
                .push(e);
        }
        Index {
            snapshot,
            deployments,
            applications,
            flink_clusters,
            k8s_deployments,
            config_maps,
            events,
            clusters: OnceCell::new(),
            pods_by_app: OnceCell::new(),
        }
    }

    pub fn flink_deployment(&self, namespace: &str, name: &str) -> Option<&'a FlinkDeployment> {
        self.deployments.get(&(namespace, name)).copied()
    }

    pub fn flink_application(&self, namespace: &str, name: &str) -> Option<&'a FlinkApplication> {
        self.applications.get(&(namespace, name)).copied()
    }

    /// A FlinkCluster of the GCP/Spotify operator, by namespace and name.
    pub fn flink_cluster(&self, namespace: &str, name: &str) -> Option<&'a FlinkCluster> {
        self.flink_clusters.get(&(namespace, name)).copied()
    }

    /// A Deployment (apps/v1) of a Flink cluster in the snapshot, by namespace and name.
    pub fn k8s_deployment(&self, namespace: &str, name: &str) -> Option<&'a Deployment> {
        self.k8s_deployments.get(&(namespace, name)).copied()
    }

    /// The Flink deployment a pod belongs to, by the labels Flink puts on every pod it creates:
    /// a FlinkDeployment (operator, native or standalone), the JobManager Deployment of a native
    /// cluster with no custom resource (named by its cluster-id), a FlinkApplication (Lyft) or a
    /// FlinkCluster (GCP/Spotify).
    pub fn deployment_of_pod(&self, pod: &Pod) -> Option<ObjectRef> {
        self.cluster_of(&pod.metadata, true)
    }

    /// The Flink deployment a Deployment (apps/v1) belongs to, as for pods.
    pub fn deployment_of_deployment(&self, d: &Deployment) -> Option<ObjectRef> {
        self.cluster_of(&d.metadata, true)
    }

    /// The Flink deployment a Service or ConfigMap Flink created belongs to (`type` and `app`
    /// labels, or Lyft's `flink-app`).
    pub fn deployment_of_object(&self, meta: &impl Meta) -> Option<ObjectRef> {
        self.cluster_of(meta, false)
    }

    fn cluster_of(&self, meta: &impl Meta, needs_component: bool) -> Option<ObjectRef> {
        let ns = meta_namespace(meta);
        if let Some(app) = meta_label(meta, LABEL_FLINK_APP) {
            return Some(ObjectRef::namespaced(KIND_FLINK_APPLICATION, ns, app));
        }
        // A FlinkCluster's objects, its job submitter's pods (no `component`) included.
        if let Some(name) = flinkcluster_label(meta) {
            return Some(ObjectRef::namespaced(KIND_FLINK_CLUSTER, ns, name));
        }
        let app = meta_label(meta, LABEL_APP)?;
        let typ = meta_label(meta, LABEL_TYPE);
        if (needs_component || typ.is_none()) && !Component::labelled(meta.object_labels()) {
            return None;
        }
        if let Some(fd) = self.flink_deployment(ns, app) {
            return Some(deployment_ref(fd));
        }
        let typ = typ?;
        // The JobManager Deployment `<cluster-id>` says who made the cluster: the operator sets
        // an ownerReference to the FlinkDeployment (also when the CR itself is not readable).
        let owner = self
            .k8s_deployment(ns, app)
            .and_then(|d| d.metadata.owner_references.as_ref())
            .and_then(|o| o.iter().find(|r| r.kind == KIND_FLINK_DEPLOYMENT));
        if let Some(o) = owner {
            return Some(ObjectRef::namespaced(KIND_FLINK_DEPLOYMENT, ns, &o.name));
        }
        match typ {
            // No FlinkDeployment of that name and no owner on the JobManager Deployment: a plain
            // native cluster. When the FlinkDeployments could not be read and the JobManager
            // Deployment is not there to say, it is not guessed.
            TYPE_NATIVE
                if self.k8s_deployment(ns, app).is_none()
                    && self.unreadable_flink_deployments(ns) =>
            {
                Some(ObjectRef::namespaced(KIND_UNKNOWN, ns, app))
            }
            TYPE_NATIVE => Some(ObjectRef::namespaced(KIND_NATIVE_CLUSTER, ns, app)),
            // Only the operator makes standalone clusters with these labels.
            TYPE_STANDALONE => Some(ObjectRef::namespaced(KIND_FLINK_DEPLOYMENT, ns, app)),
            _ => None,
        }
    }

    /// Whether FlinkDeployments could not be read in `ns` (a 403, a timeout; a CRD that is not
    /// installed is an answer: there is no FlinkDeployment).
    fn unreadable_flink_deployments(&self, ns: &str) -> bool {
        self.snapshot.gaps.iter().any(|g| {
            g.group == crate::flink::names::GROUP
                && g.resource == "flinkdeployments"
                && g.reason != super::GapReason::NotInstalled
                && g.namespace.as_deref().is_none_or(|n| n == ns)
        })
    }

    /// Pods of a FlinkDeployment (`app=<name>` with a Flink `component` label).
    pub fn pods_of(&self, fd: &FlinkDeployment) -> Vec<&'a Pod> {
        let by_app = self.pods_by_app.get_or_init(|| {
            let mut by_app: HashMap<_, Vec<&Pod>> = HashMap::new();
            for p in &self.snapshot.pods {
                if let (Some(app), true) = (
                    label(p, LABEL_APP),
                    Component::labelled(p.metadata.labels.as_ref()),
                ) {
                    by_app.entry((pod_namespace(p), app)).or_default().push(p);
                }
            }
            by_app
        });
        by_app
            .get(&(fd.namespace(), fd.name()))
            .cloned()
            .unwrap_or_default()
    }

    /// Pods of any Flink deployment, by the reference `deployment_of_pod` gives.
    pub fn pods_of_ref(&self, reference: &ObjectRef) -> Vec<&'a Pod> {
        self.snapshot
            .pods
            .iter()
            .filter(|p| self.deployment_of_pod(p).as_ref() == Some(reference))
            .collect()
    }

    /// Every Flink cluster in scope, in every mode, sorted by namespace, name and kind: the
    /// FlinkDeployments and FlinkApplications, and the clusters only their Deployments and pods
    /// show (plain native clusters; the objects of a CR that could not be read).
    /// The list is built once per Index; each call hands out a copy of it, which holds only
    /// references.
    pub fn clusters(&self) -> &[Cluster<'a>] {
        &self.built_clusters().list
    }

    fn built_clusters(&self) -> &Clusters<'a> {
        self.clusters.get_or_init(|| self.build_clusters())
    }

    /// `clusters`, in one pass over the objects.
    fn build_clusters(&self) -> Clusters<'a> {
        let s = self.snapshot;
        let mut out: Vec<Cluster<'a>> = Vec::new();
        let mut position: HashMap<ObjectRef, usize> = HashMap::new();
        let mut add = |out: &mut Vec<Cluster<'a>>, reference: ObjectRef, mode: Mode| -> usize {
            if let Some(&i) = position.get(&reference) {
                return i;
            }
            let ns = reference.namespace.clone().unwrap_or_default();
            let name = reference.name.clone();
            let flink_deployment = (reference.kind == KIND_FLINK_DEPLOYMENT)
                .then(|| self.flink_deployment(&ns, &name))
                .flatten();
            let flink_application = (reference.kind == KIND_FLINK_APPLICATION)
                .then(|| self.flink_application(&ns, &name))
                .flatten();
            let flink_cluster = (mode == Mode::FlinkCluster)
                .then(|| self.flink_cluster(&ns, &name))
                .flatten();
            position.insert(reference.clone(), out.len());
            out.push(Cluster {
                reference,
                mode,
                flink_deployment,
                flink_application,
                flink_cluster,
                jobmanager_deployments: Vec::new(),
                taskmanager_deployments: Vec::new(),
                jobmanager_stateful_sets: Vec::new(),
                taskmanager_stateful_sets: Vec::new(),
                jobmanager_pods: Vec::new(),
                taskmanager_pods: Vec::new(),
                submitter_jobs: Vec::new(),
                submitter_pods: Vec::new(),
            });
            out.len() - 1
        };
        for fd in &s.flink_deployments {
            let mode = if fd.spec.mode.as_deref() == Some("standalone") {
                Mode::Standalone
            } else {
                Mode::Operator
            };
            add(&mut out, deployment_ref(fd), mode);
        }
        for a in &s.flink_applications {
            add(
                &mut out,
                ObjectRef::namespaced(KIND_FLINK_APPLICATION, a.namespace(), a.name()),
                Mode::Lyft,
            );
        }
        for fc in &s.flink_clusters {
            add(
                &mut out,
                ObjectRef::namespaced(KIND_FLINK_CLUSTER, fc.namespace(), fc.name()),
                Mode::FlinkCluster,
            );
        }
        fn mode_of(reference: &ObjectRef, meta: &impl Meta) -> Mode {
            match reference.kind.as_str() {
                _ if flinkcluster_label(meta).is_some() => Mode::FlinkCluster,
                KIND_FLINK_APPLICATION => Mode::Lyft,
                KIND_NATIVE_CLUSTER => Mode::Native,
                KIND_UNKNOWN => Mode::Unknown,
                _ if meta_label(meta, LABEL_TYPE) == Some(TYPE_STANDALONE) => Mode::Standalone,
                _ => Mode::Operator,
            }
        }
        for d in &s.deployments {
            let Some(reference) = self.deployment_of_deployment(d) else {
                continue;
            };
            let mode = mode_of(&reference, &d.metadata);
            let i = add(&mut out, reference, mode);
            match component(&d.metadata) {
                Some(Component::JobManager) => out[i].jobmanager_deployments.push(d),
                Some(Component::TaskManager) => out[i].taskmanager_deployments.push(d),
                _ => {}
            }
        }
        for st in &s.stateful_sets {
            let Some(reference) = self.deployment_of_object(&st.metadata) else {
                continue;
            };
            let i = add(&mut out, reference, Mode::FlinkCluster);
            match component(&st.metadata) {
                Some(Component::JobManager) => out[i].jobmanager_stateful_sets.push(st),
                Some(Component::TaskManager) => out[i].taskmanager_stateful_sets.push(st),
                _ => {}
            }
        }
        for j in &s.jobs {
            let Some(reference) = self.deployment_of_object(&j.metadata) else {
                continue;
            };
            let i = add(&mut out, reference, Mode::FlinkCluster);
            // In application mode the JobManager itself is a Job (`component=jobmanager`).
            if component(&j.metadata).is_none() {
                out[i].submitter_jobs.push(j);
            }
        }
        for p in &s.pods {
            let Some(reference) = self.deployment_of_pod(p) else {
                continue;
            };
            let mode = mode_of(&reference, &p.metadata);
            let i = add(&mut out, reference, mode);
            match component(&p.metadata) {
                Some(Component::JobManager) => out[i].jobmanager_pods.push(p),
                Some(Component::TaskManager) => out[i].taskmanager_pods.push(p),
                _ if mode == Mode::FlinkCluster => out[i].submitter_pods.push(p),
                _ => {}
            }
        }
        out.sort_by(|a, b| {
            (a.namespace(), a.name(), &a.reference.kind).cmp(&(
                b.namespace(),
                b.name(),
                &b.reference.kind,
            ))
        });
        let position = out
            .iter()
            .enumerate()
            .map(|(i, c)| (c.reference.clone(), i))
            .collect();
        Clusters {
            list: out,
            position,
        }
    }

    /// The cluster a reference names, if it is in scope.
    pub fn cluster(&self, reference: &ObjectRef) -> Option<Cluster<'a>> {
        let built = self.built_clusters();
        built
            .position
            .get(reference)
            .map(|&i| built.list[i].clone())
    }

    /// Flink's configuration of a cluster, flat, each value with its source:
    /// - FlinkDeployment: the deployed `flink-config-<name>` ConfigMap, overridden by
    ///   `spec.flinkConfiguration` (what a fix changes);
    /// - plain native / standalone: the `flink-config-<cluster-id>` ConfigMap;
    /// - FlinkCluster: its `<name>-configmap`, overridden by `spec.flinkProperties`;
    /// - FlinkApplication: `spec.flinkConfig`.
    pub fn conf(&self, cluster: &Cluster) -> Conf {
        let mut conf = Conf::default();
        let config_map = match cluster.mode {
            Mode::Lyft => None,
            Mode::FlinkCluster => {
                Some(crate::flink::names::flinkcluster_config_map(cluster.name()))
            }
            _ => Some(flink_config_map_name(cluster.name())),
        };
        if let Some(name) = config_map {
            if let Some((key, text)) = self.flink_config_map(cluster.namespace(), &name) {
                let source = format!("ConfigMap {name} {key}");
                conf.extend(crate::flink::conf::parse_flink_conf(text), &source);
            }
        }
        if let Some(fc) = cluster.flink_cluster {
            conf.extend(
                fc.spec.flink_properties.clone(),
                "FlinkCluster spec.flinkProperties",
            );
        }
        if let Some(fd) = cluster.flink_deployment {
            conf.extend(
                fd.spec.flink_configuration.clone(),
                "FlinkDeployment spec.flinkConfiguration",
            );
        }
        if let Some(app) = cluster.flink_application {
            let value = serde_json::to_value(&app.spec.flink_config).unwrap_or_default();
            conf.extend(
                crate::flink::conf::flatten_conf(&value),
                "FlinkApplication spec.flinkConfig",
            );
        }
        conf
    }

    /// The key holding Flink's configuration in the ConfigMap `name`, and its text.
    pub fn flink_config_map(&self, namespace: &str, name: &str) -> Option<(&'static str, &'a str)> {
        let data = self.config_maps.get(&(namespace, name))?.data.as_ref()?;
        FLINK_CONF_KEYS
            .iter()
            .find_map(|k| data.get(*k).map(|text| (*k, text.as_str())))
    }

    /// The Services of a cluster (by the labels Flink and the Lyft operator put on them).
    pub fn services_of(&self, reference: &ObjectRef) -> Vec<&'a Service> {
        self.snapshot
            .services
            .iter()
            .filter(|svc| self.deployment_of_object(&svc.metadata).as_ref() == Some(reference))
            .collect()
    }

    /// Events whose involvedObject is this object, oldest first.
    pub fn events_for(&self, kind: &str, namespace: &str, name: &str) -> Vec<&'a Event> {
        let mut out = self
            .events
            .get(&(kind, namespace, name))
            .cloned()
            .unwrap_or_default();
        out.sort_by_key(|e| event_time(e));
        out
    }
}

/// The FlinkCluster an object belongs to by the operator's labels: `app=flink` and
/// `cluster=<name>`.
pub fn flinkcluster_label(meta: &impl Meta) -> Option<&str> {
    (meta_label(meta, LABEL_APP) == Some(FLINKCLUSTER_APP))
        .then(|| meta_label(meta, LABEL_CLUSTER))
        .flatten()
        .filter(|c| !c.is_empty())
}

/// A FlinkCluster's job submitter (its Job's pods): the operator's labels without `component`.
pub fn is_flinkcluster_submitter(meta: &impl Meta) -> bool {
    flinkcluster_label(meta).is_some() && !Component::labelled(meta.object_labels())
}

pub fn deployment_ref(fd: &FlinkDeployment) -> ObjectRef {
    ObjectRef::namespaced("FlinkDeployment", fd.namespace(), fd.name())
}

pub fn label<'p>(pod: &'p Pod, key: &str) -> Option<&'p str> {
    pod.metadata.labels.as_ref().and_then(|l| l.get(key))
}

/// A label of any object.
pub fn meta_label<'m>(meta: &'m impl Meta, key: &str) -> Option<&'m str> {
    meta.object_labels().and_then(|l| l.label(key))
}

pub fn meta_name(meta: &impl Meta) -> &str {
    meta.object_name().unwrap_or("")
}

pub fn meta_namespace(meta: &impl Meta) -> &str {
    meta.object_namespace().unwrap_or("default")
}

/// The JobManager or TaskManager an object is (`Component::from_labels`).
pub fn component(meta: &impl Meta) -> Option<Component> {
    Component::from_labels(meta.object_labels())
}

/// The JobManager or TaskManager a pod is (`Component::from_labels`).
pub fn pod_component(pod: &Pod) -> Option<Component> {
    Component::from_labels(pod.metadata.labels.as_ref())
}

/// The selector of the pods of the same cluster and component as this pod (`Mode::selector`),
/// quoted as one shell word.
pub fn pod_selector(pod: &Pod) -> Option<String> {
    Mode::selector_like(pod.metadata.labels.as_ref()).map(|s| crate::shell::quote(&s).into_owned())
}

pub fn pod_name(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or("")
}

pub fn pod_namespace(pod: &Pod) -> &str {
    pod.metadata.namespace.as_deref().unwrap_or("default")
}

pub fn pod_phase(pod: &Pod) -> &str {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("")
}

/// Whether the pod's `Ready` condition is true.
pub fn pod_ready(pod: &Pod) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// The ServiceAccount a pod runs as (`default` when the spec names none).
pub fn pod_service_account(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| {
            s.service_account_name
                .as_deref()
                .or(s.service_account.as_deref())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or("default")
}

/// `spec.replicas` (1 when unset, as the API server defaults it) and `status.readyReplicas`.
pub fn deployment_replicas(d: &Deployment) -> (i32, i32) {
    let wanted = d.spec.replicas.unwrap_or(1);
    let ready = d
        .status
        .as_ref()
        .and_then(|s| s.ready_replicas)
        .unwrap_or(0);
    (wanted, ready)
}

pub fn event_time(e: &Event) -> Option<chrono::DateTime<chrono::Utc>> {
    use super::{micro_to_utc, to_utc};
    e.last_timestamp
        .as_ref()
        .and_then(to_utc)
        .or_else(|| e.event_time.as_ref().and_then(micro_to_utc))
        .or_else(|| e.first_timestamp.as_ref().and_then(to_utc))
        .or_else(|| e.metadata.creation_timestamp.as_ref().and_then(to_utc))
}

#[cfg(test)]
mod tests;

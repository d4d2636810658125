//! What each way of running Flink on Kubernetes makes its objects look like: the one table the
//! rest of the code asks, through [`Component::from_labels`] (which process an object is),
//! [`Mode::selector`] (the label selector of a cluster's pods, or of its operator's) and
//! `snapshot::identity::operator_of` (which operator an object is, from `flink::identity`'s
//! half of the table: the operators' own labels, images, ServiceAccounts and CRD groups).
//!
//! | mode | name key | fixed labels | component key | JobManager / TaskManager | objects without a component |
//! |---|---|---|---|---|---|
//! | Apache operator, native (`Operator`); plain native (`Native`); `Unknown` | `app=<cluster-id>` | `type=flink-native-kubernetes` | `component` | `jobmanager` / `taskmanager` | not the cluster's pods |
//! | Apache operator, standalone (`Standalone`) | `app=<name>` | `type=flink-standalone-kubernetes` | `component` | `jobmanager` / `taskmanager` | not the cluster's pods |
//! | Lyft flinkk8soperator (`Lyft`) | `flink-app=<name>` | — | `flink-deployment-type` | `jobmanager` / `taskmanager` | not the cluster's pods |
//! | GCP/Spotify FlinkCluster (`FlinkCluster`) | `cluster=<name>` | `app=flink` | `component` | `jobmanager` / `taskmanager` | the job submitter's pods |
//!
//! Sources, read at each tag named:
//! - Flink native: apache/flink@0198805683ff344bb960a539a679479e7cff73e8:flink-kubernetes/src/
//!   main/java/org/apache/flink/kubernetes/utils/Constants.java (`LABEL_TYPE_NATIVE_TYPE`,
//!   `LABEL_APP_KEY`, `LABEL_COMPONENT_KEY`, `LABEL_COMPONENT_JOB_MANAGER`,
//!   `LABEL_COMPONENT_TASK_MANAGER`), the same constants the operator builds against from Flink
//!   1.16.1 to 1.20.1: apache/flink-kubernetes-operator@release-1.4.0, @release-1.8.0 and
//!   @release-1.15.0:pom.xml (`flink.version`) and flink-kubernetes-operator/src/main/java/org/
//!   apache/flink/kubernetes/operator/service/NativeFlinkService.java
//!   (`KubernetesUtils.getJobManagerSelectors`).
//! - Standalone: apache/flink-kubernetes-operator@release-1.4.0, @release-1.8.0 and
//!   @release-1.15.0:flink-kubernetes-standalone/src/main/java/org/apache/flink/kubernetes/
//!   operator/utils/StandaloneKubernetesUtils.java (`LABEL_TYPE_STANDALONE_TYPE`, the common
//!   labels plus `component`).
//! - Lyft: lyft/flinkk8soperator@v0.3.0, @v0.5.0 and @v0.7.0:pkg/controller/flink/
//!   container_utils.go (`FlinkDeploymentType = "flink-deployment-type"`, `jobmanager`,
//!   `taskmanager`) and @v0.7.0:pkg/controller/k8/utils.go (`AppKey = "flink-app"`).
//! - FlinkCluster: GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-1, @v1beta1-6 and
//!   @v1beta1-9:controllers/flinkcluster_converter.go, spotify/flink-on-k8s-operator@v0.4.0,
//!   @v0.5.0 and @v0.6.0:controllers/flinkcluster/flinkcluster_converter.go (`cluster`,
//!   `app: flink`, `component`; the job submitter's Job carries the cluster labels only).
//!
//! How a cluster of each mode is named and found is in the table at the top of
//! `snapshot/index.rs`.

use super::identity::{OperatorKind, OPERATOR_LABELS};
use super::labels::LabelMap;
use super::names::{
    COMPONENT_JOBMANAGER, COMPONENT_TASKMANAGER, FLINKCLUSTER_APP, LABEL_APP, LABEL_CLUSTER,
    LABEL_COMPONENT, LABEL_FLINK_APP, LABEL_LYFT_COMPONENT, LABEL_TYPE, TYPE_NATIVE,
    TYPE_STANDALONE,
};

/// How one family of modes labels the objects of a Flink cluster.
#[derive(Debug)]
pub struct Scheme {
    /// The key whose value names the cluster: `app`, `flink-app`, `cluster`.
    pub name_key: &'static str,
    /// A label every object of the family carries whatever its cluster (`app=flink`).
    pub fixed: Option<(&'static str, &'static str)>,
    /// The key whose value is `jobmanager` or `taskmanager`.
    pub component_key: &'static str,
    /// Whether objects without a component (the FlinkCluster's job submitter) are the
    /// cluster's pods too.
    pub all_components: bool,
}

const APACHE: Scheme = Scheme {
    name_key: LABEL_APP,
    fixed: None,
    component_key: LABEL_COMPONENT,
    all_components: false,
};
const LYFT: Scheme = Scheme {
    name_key: LABEL_FLINK_APP,
    fixed: None,
    component_key: LABEL_LYFT_COMPONENT,
    all_components: false,
};
const FLINKCLUSTER: Scheme = Scheme {
    name_key: LABEL_CLUSTER,
    fixed: Some((LABEL_APP, FLINKCLUSTER_APP)),
    component_key: LABEL_COMPONENT,
    all_components: true,
};

/// The component keys of every scheme, in the order they are read.
const COMPONENT_KEYS: [&str; 2] = [LABEL_COMPONENT, LABEL_LYFT_COMPONENT];

/// How a Flink cluster runs on Kubernetes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// Apache operator, native mode (the default): the JobManager creates bare TaskManager pods.
    Operator,
    /// Apache operator, `spec.mode: standalone`: a TaskManager Deployment `<name>-taskmanager`.
    Standalone,
    /// Flink's native Kubernetes integration with no operator.
    Native,
    /// Lyft flinkk8soperator (FlinkApplication): JobManager and TaskManager Deployments.
    Lyft,
    /// The GCP/Spotify operator (FlinkCluster, `flinkoperator.k8s.io`): standalone Flink in a
    /// JobManager StatefulSet (a Deployment in its 2019 releases, a Job in application mode), a
    /// TaskManager StatefulSet (or Deployment), and a job submitter Job that runs `flink run`.
    FlinkCluster,
    /// Native pods (the JobManager creates TaskManager pods) of an operator's FlinkDeployment or
    /// of a plain native cluster: what would tell them apart could not be read.
    Unknown,
}

impl Mode {
    /// One mode of each label scheme: listing every Flink pod asks one selector of each.
    pub const SCHEMES: [Mode; 3] = [Mode::Operator, Mode::Lyft, Mode::FlinkCluster];

    /// Short, stable names for tables and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Operator => "operator",
            Mode::Standalone => "standalone",
            Mode::Native => "native",
            Mode::Lyft => "lyft",
            Mode::FlinkCluster => "flinkcluster",
            Mode::Unknown => "unknown",
        }
    }
    /// Whether the JobManager itself creates bare TaskManager pods (Flink's ResourceManager).
    pub fn native_taskmanagers(self) -> bool {
        matches!(self, Mode::Operator | Mode::Native | Mode::Unknown)
    }
    /// How the mode labels its objects.
    pub fn scheme(self) -> &'static Scheme {
        match self {
            Mode::Lyft => &LYFT,
            Mode::FlinkCluster => &FLINKCLUSTER,
            _ => &APACHE,
        }
    }
    /// The `type` label of the mode's objects, where Flink sets one.
    pub fn type_label(self) -> Option<&'static str> {
        match self {
            Mode::Operator | Mode::Native | Mode::Unknown => Some(TYPE_NATIVE),
            Mode::Standalone => Some(TYPE_STANDALONE),
            Mode::Lyft | Mode::FlinkCluster => None,
        }
    }
    /// The operator that deploys clusters of this mode (the Apache one for a plain native
    /// cluster, whose pods look like its FlinkDeployments').
    pub fn operator(self) -> OperatorKind {
        match self {
            Mode::Lyft => OperatorKind::Lyft,
            Mode::FlinkCluster => OperatorKind::FlinkCluster,
            _ => OperatorKind::Apache,
        }
    }
    /// The mode an object's labels are written in (its family's, when the labels cannot tell:
    /// `Operator` for Flink's native labels) and the cluster they name.
    pub fn of_labels<L: LabelMap + ?Sized>(labels: Option<&L>) -> Option<(Mode, &str)> {
        let l = labels?;
        if let Some(app) = l.label(LYFT.name_key) {
            return Some((Mode::Lyft, app));
        }
        let fixed = FLINKCLUSTER
            .fixed
            .is_some_and(|(k, v)| l.label(k) == Some(v));
        if let Some(c) = l.label(FLINKCLUSTER.name_key).filter(|_| fixed) {
            return Some((Mode::FlinkCluster, c));
        }
        let app = l.label(APACHE.name_key)?;
        let standalone = l.label(LABEL_TYPE) == Mode::Standalone.type_label();
        Some((
            if standalone {
                Mode::Standalone
            } else {
                Mode::Operator
            },
            app,
        ))
    }
    /// The selector of the pods of the same cluster and component as an object labelled so.
    pub fn selector_like<L: LabelMap + ?Sized>(labels: Option<&L>) -> Option<String> {
        let (mode, name) = Mode::of_labels(labels)?;
        let component = Component::from_labels(labels)?;
        Some(mode.selector(Some(name), Some(component)))
    }
    /// The label selector (as kubectl's `-l` takes it, unquoted) of the pods of cluster `name`
    /// (every cluster of the mode when `None`) of one component (JobManagers and TaskManagers,
    /// and the FlinkCluster's job submitter, when `None`). `Component::Operator` is the selector
    /// of the mode's operator's pods as its releases label them.
    pub fn selector(self, name: Option<&str>, component: Option<Component>) -> String {
        if component == Some(Component::Operator) {
            let kind = self.operator();
            return OPERATOR_LABELS
                .iter()
                .find(|(_, _, k)| *k == kind)
                .map(|(k, v, _)| format!("{k}={v}"))
                .unwrap_or_default();
        }
        let s = self.scheme();
        let mut parts = Vec::new();
        if let Some((k, v)) = s.fixed {
            parts.push(format!("{k}={v}"));
        }
        parts.push(match name {
            Some(n) => format!("{}={n}", s.name_key),
            None => s.name_key.to_string(),
        });
        match component {
            Some(c) => parts.push(format!("{}={}", s.component_key, c.as_str())),
            None if s.all_components => {}
            None => parts.push(format!(
                "{} in ({COMPONENT_JOBMANAGER},{COMPONENT_TASKMANAGER})",
                s.component_key
            )),
        }
        parts.join(",")
    }
}

impl Mode {
    /// The selector of every object of the family's clusters that carries no component (their
    /// Services and ConfigMaps: Flink labels them with its common labels only), of cluster `name`
    /// or of all. The Apache family's is both of its `type`s.
    pub fn objects_selector(self, name: Option<&str>) -> String {
        let s = self.scheme();
        let mut parts = Vec::new();
        if s.name_key == APACHE.name_key && s.fixed.is_none() {
            parts.push(format!("{LABEL_TYPE} in ({TYPE_NATIVE},{TYPE_STANDALONE})"));
        }
        if let Some((k, v)) = s.fixed {
            parts.push(format!("{k}={v}"));
        }
        match (name, parts.is_empty() || s.fixed.is_some()) {
            (Some(n), _) => parts.push(format!("{}={n}", s.name_key)),
            (None, true) => parts.push(s.name_key.to_string()),
            (None, false) => {}
        }
        parts.join(",")
    }
}

/// One of the processes a Flink deployment is made of: its JobManager, its TaskManagers, and the
/// operator that deploys it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    JobManager,
    TaskManager,
    Operator,
}

impl Component {
    /// As Flink's labels, options and kubectl-flink's flags spell it: `jobmanager`, `taskmanager`,
    /// `operator`. It is also the prefix of the component's Flink options (`jobmanager.memory.*`)
    /// and the FlinkCluster's container name.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::JobManager => COMPONENT_JOBMANAGER,
            Component::TaskManager => COMPONENT_TASKMANAGER,
            Component::Operator => "operator",
        }
    }
    /// How a person names it.
    pub fn title(self) -> &'static str {
        match self {
            Component::JobManager => "JobManager",
            Component::TaskManager => "TaskManager",
            Component::Operator => "operator",
        }
    }
    /// The key of its section in a FlinkDeployment's or FlinkCluster's spec
    /// (`spec.jobManager`, `spec.taskManager`).
    pub fn spec_key(self) -> &'static str {
        match self {
            Component::JobManager => "jobManager",
            Component::TaskManager => "taskManager",
            Component::Operator => "operator",
        }
    }
    /// `jobmanager` / `taskmanager` as a label value, a container name or a flag spells it.
    pub fn parse(value: &str) -> Option<Component> {
        match value {
            COMPONENT_JOBMANAGER => Some(Component::JobManager),
            COMPONENT_TASKMANAGER => Some(Component::TaskManager),
            _ => None,
        }
    }
    /// The JobManager or TaskManager an object is by its labels, in any mode's scheme (Flink's
    /// `component`, Lyft's `flink-deployment-type`). The operator is told by
    /// `snapshot::identity::operator_of`, from its wiring.
    pub fn from_labels<L: LabelMap + ?Sized>(labels: Option<&L>) -> Option<Component> {
        let l = labels?;
        Component::from_label_lookup(|k| l.label(k))
    }
    /// [`Component::from_labels`] over labels held otherwise (a pod not yet decoded).
    pub fn from_label_lookup<'a>(label: impl Fn(&str) -> Option<&'a str>) -> Option<Component> {
        COMPONENT_KEYS
            .iter()
            .find_map(|k| label(k))
            .and_then(Component::parse)
    }
    /// Whether an object carries a component label at all, whatever its value (the Apache
    /// operator also labels `component=ingress` and `component=autoscaler`).
    pub fn labelled<L: LabelMap + ?Sized>(labels: Option<&L>) -> bool {
        labels.is_some_and(|l| COMPONENT_KEYS.iter().any(|k| l.has_label(k)))
    }
}

/// As Flink's labels spell it (`Component::as_str`).
impl std::fmt::Display for Component {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn names() {
        assert_eq!(Mode::Unknown.as_str(), "unknown");
        assert!(Mode::Operator.native_taskmanagers());
        assert!(!Mode::Lyft.native_taskmanagers());
        assert_eq!(Component::TaskManager.as_str(), "taskmanager");
        assert_eq!(Component::JobManager.title(), "JobManager");
        assert_eq!(Component::TaskManager.spec_key(), "taskManager");
    }

    #[test]
    fn every_release_scheme_is_read() {
        for (pairs, want) in [
            // Flink native (the Apache operator's native mode, plain native clusters).
            (
                &[
                    ("app", "orders"),
                    ("component", "jobmanager"),
                    ("type", "flink-native-kubernetes"),
                ][..],
                Some(Component::JobManager),
            ),
            // The operator's standalone mode.
            (
                &[
                    ("app", "orders"),
                    ("component", "taskmanager"),
                    ("type", "flink-standalone-kubernetes"),
                ][..],
                Some(Component::TaskManager),
            ),
            // Lyft.
            (
                &[
                    ("flink-app", "orders"),
                    ("flink-deployment-type", "taskmanager"),
                ][..],
                Some(Component::TaskManager),
            ),
            // GCP/Spotify FlinkCluster, and its job submitter (no component).
            (
                &[
                    ("app", "flink"),
                    ("cluster", "orders"),
                    ("component", "jobmanager"),
                ][..],
                Some(Component::JobManager),
            ),
            (&[("app", "flink"), ("cluster", "orders")][..], None),
            // The operator's own Ingress and autoscaler ConfigMap.
            (&[("app", "orders"), ("component", "ingress")][..], None),
        ] {
            let l = labels(pairs);
            assert_eq!(Component::from_labels(Some(&l)), want, "{pairs:?}");
        }
        assert!(Component::labelled(Some(&labels(&[(
            "component",
            "ingress"
        )]))));
        assert!(!Component::labelled(Some(&labels(&[("app", "x")]))));
        assert_eq!(
            Component::from_labels(None::<&BTreeMap<String, String>>),
            None
        );
    }

    #[test]
    fn one_selector_per_mode_and_component() {
        let jm = Some(Component::JobManager);
        assert_eq!(
            Mode::Operator.selector(Some("orders"), jm),
            "app=orders,component=jobmanager"
        );
        assert_eq!(
            Mode::Standalone.selector(Some("o"), Some(Component::TaskManager)),
            "app=o,component=taskmanager"
        );
        assert_eq!(
            Mode::Lyft.selector(Some("o"), jm),
            "flink-app=o,flink-deployment-type=jobmanager"
        );
        assert_eq!(
            Mode::FlinkCluster.selector(Some("o"), jm),
            "app=flink,cluster=o,component=jobmanager"
        );
        assert_eq!(
            Mode::Native.selector(Some("o"), None),
            "app=o,component in (jobmanager,taskmanager)"
        );
        assert_eq!(
            Mode::Operator.selector(None, None),
            "app,component in (jobmanager,taskmanager)"
        );
        // The FlinkCluster's job submitter has no component: no component term.
        assert_eq!(
            Mode::FlinkCluster.selector(Some("o"), None),
            "app=flink,cluster=o"
        );
        // Each mode's operator, as its releases label it.
        let op = Some(Component::Operator);
        assert_eq!(
            Mode::Operator.selector(None, op),
            "app.kubernetes.io/name=flink-kubernetes-operator"
        );
        assert_eq!(Mode::Lyft.selector(Some("x"), op), "app=flinkoperator");
        assert_eq!(Mode::FlinkCluster.selector(None, op), "app=flink-operator");
    }

    #[test]
    fn selector_like_keeps_the_scheme() {
        for sel in [
            "app=o,component=taskmanager",
            "flink-app=o,flink-deployment-type=jobmanager",
            "app=flink,cluster=o,component=jobmanager",
        ] {
            let l: BTreeMap<String, String> = sel
                .split(',')
                .filter_map(|p| p.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            assert_eq!(Mode::selector_like(Some(&l)).as_deref(), Some(sel));
        }
        assert_eq!(Mode::selector_like(Some(&labels(&[("app", "web")]))), None);
    }

    #[test]
    fn objects_of_a_cluster() {
        assert_eq!(
            Mode::Native.objects_selector(Some("o")),
            "type in (flink-native-kubernetes,flink-standalone-kubernetes),app=o"
        );
        assert_eq!(
            Mode::Operator.objects_selector(None),
            "type in (flink-native-kubernetes,flink-standalone-kubernetes)"
        );
        assert_eq!(Mode::Lyft.objects_selector(Some("o")), "flink-app=o");
        assert_eq!(Mode::Lyft.objects_selector(None), "flink-app");
        assert_eq!(
            Mode::FlinkCluster.objects_selector(Some("o")),
            "app=flink,cluster=o"
        );
        assert_eq!(
            Mode::FlinkCluster.objects_selector(None),
            "app=flink,cluster"
        );
    }

    /// A selector and the labels it was built from agree: the pods a selector lists are the
    /// pods `from_labels` reads as that component.
    #[test]
    fn selectors_and_readers_agree() {
        for mode in Mode::SCHEMES {
            for c in [Component::JobManager, Component::TaskManager] {
                let sel = mode.selector(Some("n"), Some(c));
                let l: BTreeMap<String, String> = sel
                    .split(',')
                    .filter_map(|p| p.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                assert_eq!(Component::from_labels(Some(&l)), Some(c), "{sel}");
            }
        }
    }
}

//! The names Flink and its operators give things on Kubernetes: API group, kinds, containers and
//! labels. Sources: apache/flink@release-1.20.0:flink-kubernetes/src/main/java/org/apache/flink/
//! kubernetes/utils/Constants.java (labels, `flink-main-container`),
//! apache/flink-kubernetes-operator@release-1.15.0 (the CRDs), lyft/flinkk8soperator@v0.5.0
//! (its labels).

/// The Apache operator's API group and version.
pub const GROUP: &str = "flink.apache.org";
pub const VERSION: &str = "v1beta1";
/// The container of a pod template that Flink merges its own into; any other name is a sidecar.
pub const MAIN_CONTAINER: &str = "flink-main-container";

/// `component` values on Flink's pods and Deployments.
pub const COMPONENT_JOBMANAGER: &str = "jobmanager";
pub const COMPONENT_TASKMANAGER: &str = "taskmanager";

/// Parts of a container name that say it was meant to run Flink (FLK101 and lint's twin read a
/// misnamed main container so).
pub const FLINKY_CONTAINER_NAMES: &[&str] = &[
    "flink",
    COMPONENT_JOBMANAGER,
    "job-manager",
    COMPONENT_TASKMANAGER,
    "task-manager",
    "main",
];

pub const LABEL_APP: &str = "app";
pub const LABEL_COMPONENT: &str = "component";
pub const LABEL_TYPE: &str = "type";
/// `type` of the objects Flink's native Kubernetes integration creates (operator native mode and
/// plain native clusters).
pub const TYPE_NATIVE: &str = "flink-native-kubernetes";
/// `type` of the objects of the operator's standalone mode.
pub const TYPE_STANDALONE: &str = "flink-standalone-kubernetes";
/// `configmap-type=high-availability` marks Flink's Kubernetes HA ConfigMaps.
pub const LABEL_CONFIGMAP_TYPE: &str = "configmap-type";
/// Lyft flinkk8soperator: `flink-app=<app>` on its Deployments, pods and Services.
pub const LABEL_FLINK_APP: &str = "flink-app";
/// Lyft flinkk8soperator: `flink-deployment-type=jobmanager|taskmanager`.
pub const LABEL_LYFT_COMPONENT: &str = "flink-deployment-type";
/// Lyft flinkk8soperator: `flink-app-hash` on Deployments (an annotation on pods).
pub const LABEL_LYFT_HASH: &str = "flink-app-hash";

pub const KIND_FLINK_DEPLOYMENT: &str = "FlinkDeployment";
/// The GCP/Spotify operator's custom resource (`flinkoperator.k8s.io`).
pub const KIND_FLINK_CLUSTER: &str = "FlinkCluster";
/// A plain native cluster, which no custom resource describes, is its JobManager Deployment: named
/// by the cluster-id, the owner of its TaskManager pods, the object whose deletion stops the
/// cluster (`kubectl delete deployment/<cluster-id>`, Flink's native Kubernetes docs).
pub const KIND_NATIVE_CLUSTER: &str = "Deployment";
pub const KIND_FLINK_APPLICATION: &str = "FlinkApplication";
/// Lyft flinkk8soperator's API group (its FlinkApplication is `flink.k8s.io/v1beta1`).
pub const LYFT_GROUP: &str = "flink.k8s.io";

/// The GCP/Spotify operator (GoogleCloudPlatform/flink-on-k8s-operator, its maintained fork
/// spotify/flink-on-k8s-operator): API group of its `FlinkCluster`. Its objects carry
/// `app=flink`, `cluster=<FlinkCluster name>` and, on JobManager and TaskManager objects,
/// `component=jobmanager|taskmanager`; the job submitter's Job and pods carry no `component`
/// (spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_converter.go,
/// `getClusterLabels`, `getComponentLabels`, `newJob`).
pub const FLINKCLUSTER_GROUP: &str = "flinkoperator.k8s.io";
pub const FLINKCLUSTER_VERSION: &str = "v1beta1";
/// `app` value on every object of a FlinkCluster.
pub const FLINKCLUSTER_APP: &str = "flink";
/// `cluster=<FlinkCluster name>` on every object of a FlinkCluster.
pub const LABEL_CLUSTER: &str = "cluster";
/// The job submitter's container (`jobSubmitterPodMainContainerName`, flinkcluster_updater.go).
pub const FLINKCLUSTER_SUBMITTER_CONTAINER: &str = "main";
/// Names the operator gives a FlinkCluster's objects (flinkcluster_util.go @v0.6.0).
pub fn flinkcluster_submitter_job(cluster: &str) -> String {
    format!("{cluster}-job-submitter")
}
pub fn flinkcluster_config_map(cluster: &str) -> String {
    format!("{cluster}-configmap")
}

/// The label keys and values Flink's and the operators' pods all carry; the snapshot keeps
/// these as static text instead of a copy per pod (`snapshot::pod::StringMap`).
pub const LABEL_WORDS: &[&str] = &[
    LABEL_APP,
    LABEL_COMPONENT,
    LABEL_TYPE,
    TYPE_NATIVE,
    COMPONENT_JOBMANAGER,
    COMPONENT_TASKMANAGER,
    LABEL_FLINK_APP,
    LABEL_LYFT_COMPONENT,
    LABEL_LYFT_HASH,
    LABEL_CLUSTER,
    LABEL_CONFIGMAP_TYPE,
];

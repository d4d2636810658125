//! What each Flink component needs from the API server, from the real sources
//! (the operator chart's `flink` Role and operator ClusterRole,
//! apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/templates/rbac/;
//! Flink's native Kubernetes client, apache/flink flink-kubernetes; the Lyft operator's ClusterRole,
//! lyft/flinkk8soperator@v0.7.0:deploy/role.yaml; the GCP/Spotify FlinkCluster operator's
//! ClusterRole, spotify/flink-on-k8s-operator@v0.6.0:config/rbac/role.yaml). One place, used by
//! `doctor`'s fixes and by `can-i`.

use super::kinds::LISTED;
use super::mode::{Component, Mode};
use std::collections::BTreeMap;

/// Verbs on one resource of one API group, and why Flink needs them.
/// `resource` may name a subresource: `pods/log`, `deployments/finalizers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permission {
    pub group: &'static str,
    pub resource: &'static str,
    pub verbs: &'static [&'static str],
    pub why: &'static str,
}

/// The verbs in the order people read them (kubectl, the chart), for rules and matrix columns.
pub const VERB_ORDER: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "impersonate",
];

/// The JobManager of a native-mode cluster (operator native mode or plain Flink native).
pub const JOBMANAGER_NATIVE: &[Permission] = &[
    Permission {
        group: "",
        resource: "pods",
        verbs: &["get", "list", "watch", "create", "delete"],
        why: "the ResourceManager creates, watches and deletes TaskManager pods",
    },
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: &["get"],
        why: "the JobManager Deployment is the owner of the TaskManager pods",
    },
    Permission {
        group: "apps",
        resource: "deployments/finalizers",
        verbs: &["update"],
        why: "owner references with blockOwnerDeletion need it where OwnerReferencesPermissionEnforcement is on",
    },
];

/// The JobManager of a standalone cluster (operator `spec.mode: standalone`, Lyft): the operator
/// creates the TaskManager Deployment, so without HA the JobManager never calls the API server.
pub const JOBMANAGER_STANDALONE: &[Permission] = &[];

/// Added to a component's set when Kubernetes HA is enabled. `patch` too: the leader election
/// (fabric8's `LeaderElector`, which Flink's `KubernetesLeaderElector` runs) renews its lock with a
/// JSON merge patch of the `<cluster-id>-cluster-config-map` (fabric8io/kubernetes-client@25ecf84:
/// kubernetes-client-api/src/main/java/io/fabric8/kubernetes/client/extended/leaderelection/resourcelock/ResourceLock.java,
/// `update`); the reality lab saw a Flink 1.18.1 JobManager refused `PATCH configmaps` with every
/// other verb granted (`scripts/lab.sh run ha-no-configmaps --heal`, round 1).
pub const HA: &[Permission] = &[Permission {
    group: "",
    resource: "configmaps",
    verbs: &[
        "get", "list", "watch", "create", "update", "patch", "delete",
    ],
    why: "Kubernetes HA keeps leader election and job state in ConfigMaps",
}];

/// TaskManagers only read: with Kubernetes HA they find the leaders by watching the HA ConfigMaps.
/// Without HA they never call the API server.
pub const TASKMANAGER_HA: &[Permission] = &[Permission {
    group: "",
    resource: "configmaps",
    verbs: &["get", "list", "watch"],
    why: "with Kubernetes HA, TaskManagers retrieve the leaders by watching the HA ConfigMaps",
}];

const ALL_8: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];
const ALL_7: &[&str] = &[
    "get", "list", "watch", "create", "update", "patch", "delete",
];
const STATUS: &[&str] = &["get", "update", "patch"];

/// The Apache operator's own ServiceAccount: the Helm chart's `flink-operator` ClusterRole
/// (`flink-operator.rbacRules`, release 1.15.0), without the optional `nodes` rule (see
/// [`OPERATOR_NODES`]). The same rules become a Role per namespace with `watchNamespaces`.
pub const OPERATOR: &[Permission] = &[
    Permission {
        group: "",
        resource: "pods",
        verbs: ALL_8,
        why: "runs Flink's native client: JobManager pods, cleanup",
    },
    Permission {
        group: "",
        resource: "services",
        verbs: ALL_8,
        why: "creates the REST and internal Services of each cluster",
    },
    Permission {
        group: "",
        resource: "events",
        verbs: ALL_8,
        why: "records reconciliation events on the Flink resources",
    },
    Permission {
        group: "",
        resource: "configmaps",
        verbs: ALL_8,
        why: "Flink config, pod templates, HA and autoscaler ConfigMaps",
    },
    Permission {
        group: "",
        resource: "secrets",
        verbs: ALL_8,
        why: "Kerberos keytabs and TLS secrets of the clusters it deploys",
    },
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: ALL_7,
        why:
            "creates, upgrades and deletes the JobManager (and standalone TaskManager) Deployments",
    },
    Permission {
        group: "apps",
        resource: "deployments/finalizers",
        verbs: ALL_7,
        why: "owner references with blockOwnerDeletion on Flink objects",
    },
    Permission {
        group: "apps",
        resource: "replicasets",
        verbs: ALL_7,
        why: "observes the JobManager Deployment's rollout",
    },
    Permission {
        group: "apps",
        resource: "deployments/scale",
        verbs: STATUS,
        why: "scales standalone TaskManager Deployments",
    },
    Permission {
        group: "extensions",
        resource: "deployments",
        verbs: ALL_7,
        why: "the chart's legacy API group rule for Deployments",
    },
    Permission {
        group: "extensions",
        resource: "ingresses",
        verbs: ALL_7,
        why: "spec.ingress on clusters without networking.k8s.io/v1",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkdeployments",
        verbs: ALL_7,
        why: "reconciles FlinkDeployments",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkdeployments/finalizers",
        verbs: ALL_7,
        why: "adds and removes its finalizer on FlinkDeployments",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkdeployments/status",
        verbs: STATUS,
        why: "writes FlinkDeployment status",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinksessionjobs",
        verbs: ALL_7,
        why: "reconciles FlinkSessionJobs",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinksessionjobs/finalizers",
        verbs: ALL_7,
        why: "adds and removes its finalizer on FlinkSessionJobs",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinksessionjobs/status",
        verbs: STATUS,
        why: "writes FlinkSessionJob status",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkstatesnapshots",
        verbs: ALL_7,
        why: "creates and tracks savepoints and checkpoints",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkstatesnapshots/finalizers",
        verbs: ALL_7,
        why: "adds and removes its finalizer on FlinkStateSnapshots",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkstatesnapshots/status",
        verbs: STATUS,
        why: "writes FlinkStateSnapshot status",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkbluegreendeployments",
        verbs: ALL_7,
        why: "reconciles FlinkBlueGreenDeployments",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkbluegreendeployments/finalizers",
        verbs: ALL_7,
        why: "adds and removes its finalizer on FlinkBlueGreenDeployments",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkbluegreendeployments/status",
        verbs: STATUS,
        why: "writes FlinkBlueGreenDeployment status",
    },
    Permission {
        group: "networking.k8s.io",
        resource: "ingresses",
        verbs: ALL_7,
        why: "creates the Ingress of spec.ingress",
    },
    Permission {
        group: "coordination.k8s.io",
        resource: "leases",
        verbs: ALL_7,
        why: "leader election between operator replicas",
    },
];

/// The chart's optional rule (`rbac.nodesRule.create`, off by default), needed for NodePort REST
/// Services.
pub const OPERATOR_NODES: &[Permission] = &[Permission {
    group: "",
    resource: "nodes",
    verbs: &["list"],
    why: "the REST endpoint of a NodePort Service is read from the nodes' addresses",
}];

/// lyft/flinkk8soperator's ClusterRole `flinkoperator` (deploy/role.yaml, v0.7.0).
pub const OPERATOR_LYFT: &[Permission] = &[
    Permission {
        group: "",
        resource: "pods",
        verbs: &["get", "list", "watch"],
        why: "observes the JobManager and TaskManager pods",
    },
    Permission {
        group: "",
        resource: "services",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "creates the JobManager Services",
    },
    Permission {
        group: "",
        resource: "events",
        verbs: &["create", "update", "patch"],
        why: "records events on FlinkApplications",
    },
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "creates the JobManager and TaskManager Deployments",
    },
    Permission {
        group: "apps",
        resource: "deployments/status",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "reads the Deployments' rollout status",
    },
    Permission {
        group: "extensions",
        resource: "ingresses",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "creates the JobManager Ingress",
    },
    Permission {
        group: "extensions",
        resource: "ingresses/status",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "reads the Ingress status",
    },
    Permission {
        group: "apiextensions.k8s.io",
        resource: "customresourcedefinitions",
        verbs: &["get", "list", "watch", "create", "update"],
        why: "installs and checks the FlinkApplication CRD",
    },
    Permission {
        group: "flink.k8s.io",
        resource: "flinkapplications",
        verbs: ALL_7,
        why: "reconciles FlinkApplications",
    },
    Permission {
        group: "flink.k8s.io",
        resource: "flinkapplications/status",
        verbs: ALL_7,
        why: "writes FlinkApplication status",
    },
    Permission {
        group: "flink.k8s.io",
        resource: "flinkapplications/finalizers",
        verbs: ALL_7,
        why: "adds and removes its finalizer",
    },
];

/// The GCP/Spotify FlinkCluster operator's ClusterRole `manager-role`, rule by rule and verb by
/// verb as its release grants it (spotify/flink-on-k8s-operator@v0.6.0:config/rbac/role.yaml, the
/// same rules as the Helm chart's helm-chart/flink-operator/templates/rbac.yaml). Volcano's
/// `podgroups` are in the release's role for `spec.batchScheduler`.
pub const OPERATOR_FLINKCLUSTER: &[Permission] = &[
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: ALL_7,
        why: "creates the JobManager (older releases) and TaskManager Deployments",
    },
    Permission {
        group: "apps",
        resource: "deployments/status",
        verbs: &["get"],
        why: "reads the Deployments' status",
    },
    Permission {
        group: "apps",
        resource: "statefulsets",
        verbs: ALL_7,
        why: "creates the JobManager and TaskManager StatefulSets",
    },
    Permission {
        group: "apps",
        resource: "statefulsets/status",
        verbs: &["get"],
        why: "reads the StatefulSets' status",
    },
    Permission {
        group: "apps",
        resource: "controllerrevisions",
        verbs: ALL_7,
        why: "records the FlinkCluster's revisions (status.revision)",
    },
    Permission {
        group: "batch",
        resource: "jobs",
        verbs: ALL_7,
        why: "creates the job submitter Job",
    },
    Permission {
        group: "batch",
        resource: "jobs/status",
        verbs: &["get"],
        why: "reads the job submitter's status",
    },
    Permission {
        group: "",
        resource: "configmaps",
        verbs: ALL_7,
        why: "writes the FlinkCluster's ConfigMap (flink-conf.yaml, log config)",
    },
    Permission {
        group: "",
        resource: "events",
        verbs: ALL_7,
        why: "records events on FlinkClusters",
    },
    Permission {
        group: "",
        resource: "events/status",
        verbs: &["get"],
        why: "reads events' status",
    },
    Permission {
        group: "",
        resource: "persistentvolumeclaims",
        verbs: ALL_7,
        why: "cleans up the TaskManagers' volume claims",
    },
    Permission {
        group: "policy",
        resource: "poddisruptionbudgets",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "creates the PodDisruptionBudget of spec.podDisruptionBudget",
    },
    Permission {
        group: "policy",
        resource: "poddisruptionbudgets/status",
        verbs: &["get"],
        why: "reads the PodDisruptionBudget's status",
    },
    Permission {
        group: "autoscaling",
        resource: "horizontalpodautoscalers",
        verbs: &["get", "list", "watch", "create", "update", "delete"],
        why: "creates the TaskManagers' HorizontalPodAutoscaler",
    },
    Permission {
        group: "autoscaling",
        resource: "horizontalpodautoscalers/status",
        verbs: &["get"],
        why: "reads the HorizontalPodAutoscaler's status",
    },
    Permission {
        group: "",
        resource: "pods",
        verbs: &["get", "list", "watch"],
        why: "observes the JobManager, TaskManager and job submitter pods",
    },
    Permission {
        group: "",
        resource: "pods/status",
        verbs: &["get"],
        why: "reads the pods' status",
    },
    Permission {
        group: "",
        resource: "pods/log",
        verbs: &["get"],
        why: "reads the job submitter's log (the submitted job's ID, the submission error)",
    },
    Permission {
        group: "",
        resource: "services",
        verbs: ALL_7,
        why: "creates the JobManager Service",
    },
    Permission {
        group: "",
        resource: "services/status",
        verbs: &["get"],
        why: "reads the Service's status",
    },
    Permission {
        group: "networking.k8s.io",
        resource: "ingresses",
        verbs: ALL_7,
        why: "creates the JobManager Ingress of spec.jobManager.ingress",
    },
    Permission {
        group: "networking.k8s.io",
        resource: "ingresses/status",
        verbs: &["get"],
        why: "reads the Ingress status",
    },
    Permission {
        group: "flinkoperator.k8s.io",
        resource: "flinkclusters",
        verbs: ALL_7,
        why: "reconciles FlinkClusters",
    },
    Permission {
        group: "flinkoperator.k8s.io",
        resource: "flinkclusters/status",
        verbs: STATUS,
        why: "writes FlinkCluster status",
    },
    Permission {
        group: "scheduling.volcano.sh",
        resource: "podgroups",
        verbs: &["get", "create", "update", "delete"],
        why: "gang-schedules the pods with spec.batchScheduler volcano",
    },
];

/// What the caller needs for `kubectl flink doctor` to see everything: a `list` of every kind
/// its first wave lists (`kinds::LISTED`, with what reading each brings, `pods/log`), and the
/// access reviews it asks.
pub const ME: &[Permission] = &ME_SET;

/// doctor asks the authorizer about every 403 in the logs.
const ACCESS_REVIEWS: Permission = Permission {
    group: "authorization.k8s.io",
    resource: "subjectaccessreviews",
    verbs: &["create"],
    why: "doctor asks the authorizer about every 403 in the logs",
};

const ME_LEN: usize = {
    let mut n = 1;
    let mut i = 0;
    while i < LISTED.len() {
        n += 1 + LISTED[i].also.len();
        i += 1;
    }
    n
};

const ME_SET: [Permission; ME_LEN] = {
    let mut out = [ACCESS_REVIEWS; ME_LEN];
    let (mut i, mut k) = (0, 0);
    while i < LISTED.len() {
        let l = &LISTED[i];
        out[k] = Permission {
            group: l.kind.group,
            resource: l.kind.plural,
            verbs: &["list"],
            why: l.why,
        };
        k += 1;
        let mut j = 0;
        while j < l.also.len() {
            out[k] = l.also[j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
};

/// Whose permissions: a Flink component's (its ServiceAccount's), or the caller's, who needs what
/// `doctor` reads (`can-i --for me`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Flink(Component),
    /// The caller, for `doctor`.
    Me,
}

impl Holder {
    /// As `can-i --for` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Holder::Flink(c) => c.as_str(),
            Holder::Me => "me",
        }
    }
}

/// The name of the permission set a mode needs, as `can-i` reports it: the JobManager of the
/// Apache operator's native mode and of a plain native cluster (and of native pods whose owner
/// could not be read) creates its TaskManager pods and needs the same set, `native`.
pub fn set_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Operator | Mode::Native | Mode::Unknown => "native",
        Mode::Standalone => "standalone",
        Mode::Lyft => "lyft",
        Mode::FlinkCluster => "flinkcluster",
    }
}

/// The permission set of a Flink component or the caller in a mode, with or without Kubernetes
/// HA.
pub fn needs(holder: Holder, mode: Mode, ha: bool) -> Vec<Permission> {
    let mut out = Vec::new();
    match holder {
        Holder::Flink(Component::JobManager) => {
            out.extend_from_slice(if mode.native_taskmanagers() {
                JOBMANAGER_NATIVE
            } else {
                // Standalone Flink: the JobManager creates nothing on Kubernetes.
                JOBMANAGER_STANDALONE
            });
            if ha {
                out.extend_from_slice(HA);
            }
        }
        Holder::Flink(Component::TaskManager) => {
            if ha {
                out.extend_from_slice(TASKMANAGER_HA);
            }
        }
        Holder::Flink(Component::Operator) => out.extend_from_slice(match mode {
            Mode::Lyft => OPERATOR_LYFT,
            Mode::FlinkCluster => OPERATOR_FLINKCLUSTER,
            Mode::Operator | Mode::Standalone | Mode::Native | Mode::Unknown => OPERATOR,
        }),
        Holder::Me => out.extend_from_slice(ME),
    }
    out
}

/// Resources that live outside namespaces: asked with namespace "" (a namespaced question about a
/// cluster-scoped resource is answered "allowed" by RoleBindings that do not apply to it), and
/// granted by a ClusterRole, never a Role.
pub fn cluster_scoped(group: &str, resource: &str) -> bool {
    let base = resource.split('/').next().unwrap_or(resource);
    matches!(
        (group, base),
        ("", "nodes")
            | ("", "namespaces")
            | ("", "persistentvolumes")
            | ("rbac.authorization.k8s.io", "clusterroles")
            | ("rbac.authorization.k8s.io", "clusterrolebindings")
            | ("authorization.k8s.io", "subjectaccessreviews")
            | ("authorization.k8s.io", "selfsubjectaccessreviews")
            | ("authorization.k8s.io", "selfsubjectrulesreviews")
            | ("authentication.k8s.io", "selfsubjectreviews")
            | ("authentication.k8s.io", "tokenreviews")
            | ("apiextensions.k8s.io", "customresourcedefinitions")
            | ("admissionregistration.k8s.io", _)
            | ("storage.k8s.io", "storageclasses")
            | ("scheduling.k8s.io", "priorityclasses")
    )
}

/// Whether a Flink configuration turns on Kubernetes HA (`high-availability.type`, or the
/// deprecated `high-availability`, set to `kubernetes` or the factory class).
pub fn ha_enabled(conf: &BTreeMap<String, String>) -> bool {
    super::ha::MODE_KEYS
        .iter()
        .filter_map(|k| conf.get(*k))
        .any(|v| super::ha::is_kubernetes(v))
}

/// The JobManager's set for a configuration.
pub fn jobmanager(conf: &BTreeMap<String, String>) -> Vec<Permission> {
    let mut out = JOBMANAGER_NATIVE.to_vec();
    if ha_enabled(conf) {
        out.extend_from_slice(HA);
    }
    out
}

/// The ServiceAccount a native Flink cluster runs a component as: the component's own key, then
/// `kubernetes.service-account`, then Flink's default `default` (apache/flink
/// flink-kubernetes `configuration/KubernetesConfigOptions.java`).
/// `None` for components Flink's configuration does not name (operator, caller).
pub fn service_account_from_conf(
    conf: &BTreeMap<String, String>,
    component: Component,
) -> Option<String> {
    let own = match component {
        Component::JobManager => "kubernetes.jobmanager.service-account",
        Component::TaskManager => "kubernetes.taskmanager.service-account",
        Component::Operator => return None,
    };
    Some(
        conf.get(own)
            .or_else(|| conf.get("kubernetes.service-account"))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "default".to_string()),
    )
}

/// A namespaced Role + RoleBinding granting `rules` to a ServiceAccount, as YAML that
/// `kubectl apply -f -` accepts. Never wildcards, never a ClusterRole.
pub fn role_yaml(
    namespace: &str,
    name: &str,
    service_account: &str,
    rules: &[(String, String, Vec<String>)],
) -> String {
    let grantee = Grantee::ServiceAccount {
        namespace: namespace.to_string(),
        name: service_account.to_string(),
    };
    fix_yaml(namespace, name, &grantee, rules, &[])
}

/// Who a fix grants to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grantee {
    ServiceAccount { namespace: String, name: String },
    User(String),
}

/// The minimal fix: a Role + RoleBinding in `namespace` for the namespaced `rules`, and, only when
/// `cluster_rules` is not empty (resources that live outside namespaces), a ClusterRole +
/// ClusterRoleBinding for exactly those. Explicit verbs and resources only: no wildcards, never
/// `edit`, `admin` or `cluster-admin`. YAML that `kubectl apply -f -` accepts; empty when there
/// is nothing to grant.
pub fn fix_yaml(
    namespace: &str,
    name: &str,
    grantee: &Grantee,
    rules: &[(String, String, Vec<String>)],
    cluster_rules: &[(String, String, Vec<String>)],
) -> String {
    let subject = match grantee {
        Grantee::ServiceAccount {
            namespace: sa_ns,
            name,
        } => format!(
            "  - kind: ServiceAccount\n    name: {}\n    namespace: {}\n",
            quote(name),
            quote(sa_ns)
        ),
        Grantee::User(user) => format!(
            "  - apiGroup: rbac.authorization.k8s.io\n    kind: User\n    name: {}\n",
            quote(user)
        ),
    };
    let rules_yaml =
        |rules: &[(String, String, Vec<String>)]| {
            let mut y = String::new();
            for (group, resource, verbs) in rules {
                y.push_str(&format!(
                "  - apiGroups: [\"{group}\"]\n    resources: [\"{resource}\"]\n    verbs: [{}]\n",
                verbs.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ")
            ));
            }
            y
        };
    let (name, namespace) = (quote(name), quote(namespace));
    let mut docs = Vec::new();
    if !rules.is_empty() {
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {name}\n  namespace: {namespace}\nrules:\n{}",
            rules_yaml(rules)
        ));
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {name}\n  namespace: {namespace}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {name}\nsubjects:\n{subject}"
        ));
    }
    if !cluster_rules.is_empty() {
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}\nrules:\n{}",
            rules_yaml(cluster_rules)
        ));
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: {name}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {name}\nsubjects:\n{subject}"
        ));
    }
    docs.join("---\n")
}

/// A YAML scalar: plain when it is a plain Kubernetes name, JSON-quoted (valid YAML) otherwise.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
    {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
    }
}

/// Merges permission sets and extra (group, resource, verb) needs into sorted Role rules.
pub fn merge_rules(
    sets: &[Permission],
    extra: &[(String, String, String)],
) -> Vec<(String, String, Vec<String>)> {
    let mut map: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for p in sets {
        let e = map
            .entry((p.group.to_string(), p.resource.to_string()))
            .or_default();
        e.extend(p.verbs.iter().map(|v| v.to_string()));
    }
    for (g, r, v) in extra {
        map.entry((g.clone(), r.clone()))
            .or_default()
            .push(v.clone());
    }
    map.into_iter()
        .map(|((g, r), mut verbs)| {
            verbs.sort_by_key(|v| verb_rank(v));
            verbs.dedup();
            (g, r, verbs)
        })
        .collect()
}

/// Position of a verb in [`VERB_ORDER`]; unknown verbs sort last (then by name where it matters).
pub fn verb_rank(verb: &str) -> usize {
    VERB_ORDER
        .iter()
        .position(|o| *o == verb)
        .unwrap_or(VERB_ORDER.len())
}

/// A short, stable hex digest (FNV-1a, 32 bits) for names that must change with their content.
pub fn short_hash(text: &str) -> String {
    let mut h: u32 = 0x811c9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x01000193);
    }
    format!("{h:08x}")
}

#[cfg(test)]
mod tests;

//! The signatures themselves: the wording of each message as the program that prints it formats
//! it. Every entry's `sources` names where that is (`owner/repo@version:path`: Flink, fabric8,
//! the Apache operator, Kubernetes, the container runtime, the JDK, ...), or `observed:` for text
//! only seen in real output (assembled from pieces, or sent by a server whose code is not public).
//!
//! Field names (fix and title templates fill `{field}` / `{field|fallback}`): sa, namespace, verb,
//! resource, group, object_namespace, scheme, host, port, jar, class, exit_code, reason, tm,
//! container, image, webhook, service, service_namespace, quota, path, key, strategy, net_required,
//! net_available, net_buffers, net_segment. Alternative spellings
//! of one field inside one pattern are named `field_2`, `field_3` and folded into `field`.
//! Derived by `derive_fields`: kubectl_resource, role_name, target_namespace, plugin, plugin_fix,
//! process, memory_fix, exit_meaning, network_fix.

use super::Signature;
use crate::finding::{Category, Severity};
use std::collections::BTreeMap;

/// Flink's ways of dying, in causal order: retries exhausted -> ResourceManager fatal ->
/// entrypoint fatal / fatal-thread handler -> the exit code.
const FATAL: &[&str] = &[
    "SIG-RETRY-EXHAUSTED",
    "SIG-RM-FATAL",
    "SIG-ENTRYPOINT-FATAL",
    "SIG-FATAL-THREAD",
    "SIG-TM-FATAL",
    "SIG-ENTRYPOINT-EXIT-CODE",
    "SIG-EXIT-CODE-239",
    "SIG-RESTARTS-EXHAUSTED",
];

/// A 403/401 from the API server: Flink dies of it, and TaskManager pods are never created.
const API_REFUSED: &[&str] = &[
    "SIG-RETRY-EXHAUSTED",
    "SIG-RM-FATAL",
    "SIG-ENTRYPOINT-FATAL",
    "SIG-FATAL-THREAD",
    "SIG-TM-FATAL",
    "SIG-ENTRYPOINT-EXIT-CODE",
    "SIG-EXIT-CODE-239",
    "SIG-NO-RESOURCES",
    "SIG-RESTARTS-EXHAUSTED",
];

/// Memory exhaustion: the process dies, its TaskManager disappears, its slots with it.
const MEMORY: &[&str] = &[
    "SIG-RETRY-EXHAUSTED",
    "SIG-RM-FATAL",
    "SIG-ENTRYPOINT-FATAL",
    "SIG-FATAL-THREAD",
    "SIG-TM-FATAL",
    "SIG-ENTRYPOINT-EXIT-CODE",
    "SIG-EXIT-CODE-239",
    "SIG-TM-HEARTBEAT-TIMEOUT",
    "SIG-TM-UNREACHABLE",
    "SIG-TM-WORKER-TERMINATED",
    "SIG-TM-CONNECTION-LOST",
    "SIG-TM-DATA-CONNECT-FAILED",
    "SIG-PARTITION-NOT-FOUND",
    "SIG-NO-RESOURCES",
    "SIG-RESTARTS-EXHAUSTED",
];

/// A container killed by its limit: no Flink fatal path runs, the TaskManager just vanishes.
const KILLED: &[&str] = &[
    "SIG-TM-HEARTBEAT-TIMEOUT",
    "SIG-TM-UNREACHABLE",
    "SIG-TM-WORKER-TERMINATED",
    "SIG-TM-CONNECTION-LOST",
    "SIG-TM-DATA-CONNECT-FAILED",
    "SIG-PARTITION-NOT-FOUND",
    "SIG-NO-RESOURCES",
    "SIG-RESTARTS-EXHAUSTED",
];

/// A YARN container killed by its NodeManager for memory: as `KILLED`, and the RPC association
/// to the process that is gone is gated.
const YARN_KILLED: &[&str] = &[
    "SIG-TM-HEARTBEAT-TIMEOUT",
    "SIG-TM-UNREACHABLE",
    "SIG-TM-WORKER-TERMINATED",
    "SIG-TM-CONNECTION-LOST",
    "SIG-TM-DATA-CONNECT-FAILED",
    "SIG-PARTITION-NOT-FOUND",
    "SIG-AKKA-GATED",
    "SIG-NO-RESOURCES",
    "SIG-RESTARTS-EXHAUSTED",
];

/// TaskManager pods that never start or never register leave the job without slots.
const NO_TASKMANAGERS: &[&str] = &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"];

/// TaskManagers that cannot reach the JobManager give up and leave no slots.
const JM_UNREACHABLE: &[&str] = &["SIG-TM-FATAL", "SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"];

/// The lost TaskManager took its slots with it.
const TM_LOST: &[&str] = &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"];

/// A configuration or artifact error that the entrypoint reports fatally.
const STARTUP: &[&str] = FATAL;

/// A 403 and the fabric8 wrappers around it: a more precise reading of the same line wins.
const RBAC_WRAPPERS: &[&str] = &[
    "SIG-K8S-FORBIDDEN",
    "SIG-FABRIC8-WEBSOCKET-403",
    "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
    "SIG-FABRIC8-EXEC-403",
    "SIG-FABRIC8-STATUS-403",
];

/// The operator validator's messages are what the webhook denies with.
const DENIED: &[&str] = &["SIG-WEBHOOK-DENIED"];

const ROLE_FIX: &str = "grant ServiceAccount {namespace}/{sa} exactly `{verb}` on `{kubectl_resource}` in namespace {target_namespace}:

  kubectl create role {role_name} -n {target_namespace} --verb={verb} --resource={kubectl_resource}
  kubectl create rolebinding {role_name} -n {target_namespace} --role={role_name} --serviceaccount={namespace}:{sa}

(or add the verb to the Role already bound to it, e.g. the operator chart's `flink` Role, which grants pods, configmaps and deployments)";

const CAN_I: &str = "kubectl auth can-i {verb} {kubectl_resource} -n {target_namespace} --as=system:serviceaccount:{namespace}:{sa}";

const STATUS_FIX: &str = "the message after this line names the refused request (`<resource> is forbidden: User \"system:serviceaccount:<ns>:<sa>\" cannot <verb> resource \"<resource>\"`); without it, ask the API server what the JobManager's ServiceAccount lacks and get the complete fix (a dedicated ServiceAccount, a Role with the rights Flink needs in its mode, ConfigMaps under Kubernetes HA, and the switch): `kubectl flink can-i <deployment> -n <namespace> --fix`";

const TOKEN_FIX: &str = "make sure the pod gets a valid ServiceAccount token: the ServiceAccount in spec.serviceAccount (or `kubernetes.service-account`) must exist, `automountServiceAccountToken` must not be false on it or in the pod template, and pods started before the ServiceAccount was recreated must be restarted";

const TOKEN_VERIFY: &str = "kubectl get pods -l component=jobmanager -o custom-columns=NAME:.metadata.name,SA:.spec.serviceAccountName,AUTOMOUNT:.spec.automountServiceAccountToken";

const OOMKILLED_FIX: &str = "the container used more memory than its limit ({container|the container}, exit {exit_code|137}). Flink sizes its own memory to the limit, so the overshoot is native memory outside Flink's budget: raise spec.taskManager.resource.memory (or spec.jobManager.resource.memory) and give more of it to JVM overhead (`taskmanager.memory.jvm-overhead.fraction: \"0.2\"`); with RocksDB keep `state.backend.rocksdb.memory.managed: true` (the default) so its memory stays inside managed memory; look for native allocations in user code or connectors";

const OOMKILLED_VERIFY: &str = "kubectl get pods -l component=taskmanager -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount,LAST:.status.containerStatuses[0].lastState.terminated.reason";

const FATAL_FIX: &str = "this is how Flink stops, not why: fix the error logged before it (the first `Caused by:` above this line, or the finding listed as its cause)";

const TM_LOST_FIX: &str = "find why the TaskManager went away: `kubectl describe pod {tm|<taskmanager-pod>}` (OOMKilled, Evicted, preempted, node lost) and its previous log (`kubectl logs {tm|<taskmanager-pod>} --previous`); long GC pauses also miss heartbeats (raise `heartbeat.timeout` only after ruling those out)";

const JM_FIX: &str = "make the JobManager reachable at {host|the address the TaskManagers use}: check that the JobManager pod runs and is Ready, that the Service `{host|<cluster-id>}` exists with endpoints (`kubectl get svc,endpoints {host|<cluster-id>}`), and that `jobmanager.rpc.address` / `rest.address` name that Service; with HA enabled the address comes from the leader ConfigMap instead";

const JM_VERIFY: &str = "kubectl get endpoints {host|<cluster-id>} -o wide";

const SCHEDULE_VERIFY: &str = "kubectl get pods --field-selector=status.phase=Pending";

const IMAGE_VERIFY: &str = "kubectl get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[0].image,WAITING:.status.containerStatuses[0].state.waiting.reason";

const SLOTS_FIX: &str = "give the job the slots it asks for: check that TaskManager pods are created and Running (`kubectl get pods -l component=taskmanager`; a cause such as 403, Pending or image pull is listed above when it is in the text), then either add TaskManagers (spec.taskManager.replicas, or let the native ResourceManager create them) or slots (`taskmanager.numberOfTaskSlots`), or lower the job's parallelism";

const FS_FIX: &str = "{plugin_fix}";

const STORAGE_FIX: &str = "give the identity Flink uses for storage access to {path|the checkpoint/savepoint/HA path}: list, read, write and delete on the bucket and prefix of `state.checkpoints.dir`, `state.savepoints.dir` and `high-availability.storageDir` (S3: an IAM policy for the role bound via IRSA/pod identity or the configured keys; GCS: roles/storage.objectAdmin for the Google service account; Azure: Storage Blob Data Contributor for the managed identity)";

const VALIDATION_VERIFY: &str = "kubectl apply --dry-run=server -f <flinkdeployment.yaml>";

pub static SIGNATURES: &[Signature] = &[
    // --- identity: the API server said 403 -------------------------------------------------
    // Kubernetes' RBAC text (API server), inside fabric8's "Failure executing" in every version.
    Signature {
        id: "SIG-K8S-FORBIDDEN",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:serviceaccount:"],
        pattern: r#"(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?)(?: "(?P<object>[^"]*)")? )?is forbidden: User "system:serviceaccount:(?P<namespace>[^:"]+):(?P<sa>[^"]+)" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)"(?: in API group "(?P<group>[^"]*)")?(?: in the namespace "(?P<object_namespace>[^"]+)")?"#,
        title: "ServiceAccount {namespace}/{sa} may not {verb} {kubectl_resource} in namespace {target_namespace}",
        explanation: "the API server refused a request of Flink's Kubernetes client: its ServiceAccount lacks this verb on this resource",
        fix: ROLE_FIX,
        verify: CAN_I,
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[
            r#"io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/services/flink-session-cluster-rest. Message: Forbidden!Configured service account doesn't have access. Service account may have been revoked. services "flink-session-cluster-rest" is forbidden: User "system:serviceaccount:default:flink" cannot get resource "services" in API group "" in the namespace "default"."#,
            r#"Message: configmaps "orders-cluster-config-map" is forbidden: User "system:serviceaccount:prod:flink" cannot update resource "configmaps" in API group "" in the namespace "prod"."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "fabric8io/kubernetes-client@v6.7.2:kubernetes-client-api/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    Signature {
        id: "SIG-K8S-FORBIDDEN-DEFAULT-SA",
        category: Category::DefaultServiceAccount,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:serviceaccount:"],
        pattern: r#"(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?)(?: "(?P<object>[^"]*)")? )?is forbidden: User "system:serviceaccount:(?P<namespace>[^:"]+):(?P<sa>default)" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)"(?: in API group "(?P<group>[^"]*)")?(?: in the namespace "(?P<object_namespace>[^"]+)")?"#,
        title: "Flink runs as the `default` ServiceAccount of {namespace}, which may not {verb} {kubectl_resource}",
        explanation: "Flink runs as the namespace's `default` ServiceAccount, which normally has no rights, so the API server refuses its requests",
        fix: "run Flink as a ServiceAccount that has the rights it needs: set `spec.serviceAccount: flink` in the FlinkDeployment (the operator chart creates `flink` and its Role in the namespaces it manages; elsewhere create both), or `kubernetes.service-account` for native Flink. To keep `default` instead, grant it exactly what was refused:

  kubectl create role {role_name} -n {target_namespace} --verb={verb} --resource={kubectl_resource}
  kubectl create rolebinding {role_name} -n {target_namespace} --role={role_name} --serviceaccount={namespace}:default",
        verify: CAN_I,
        explains: API_REFUSED,
        supersedes: RBAC_WRAPPERS,
        examples: &[
            r#"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: POST at: https://10.96.0.1/api/v1/namespaces/analytics/pods. Message: pods is forbidden: User "system:serviceaccount:analytics:default" cannot create resource "pods" in API group "" in the namespace "analytics"."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    // A Flink operator's account: "operator" and "flink" in its name or namespace, as every
    // operator's install names it (the Apache chart's `flink-operator`
    // (apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/values.yaml),
    // Lyft's `flinkoperator` in `flink-operator`, the FlinkCluster operator's
    // `flink-operator-controller-manager`). Another operator's account refused the same way
    // (`aerospike-operator-controller-manager`) is an ordinary 403, not the Flink operator's Role.
    Signature {
        id: "SIG-K8S-FORBIDDEN-OPERATOR",
        category: Category::OperatorRbacMissing,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:serviceaccount:"],
        pattern: r#"(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?)(?: "(?P<object>[^"]*)")? )?is forbidden: User "system:serviceaccount:(?:(?P<namespace>[^:"]*flink[^:"]*):(?P<sa>[^"]*operator[^"]*)|(?P<namespace_2>[^:"]+):(?P<sa_2>[^"]*(?:flink[^"]*operator|operator[^"]*flink)[^"]*))" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)"(?: in API group "(?P<group>[^"]*)")?(?: in the namespace "(?P<object_namespace>[^"]+)")?"#,
        title: "the operator's ServiceAccount {namespace}/{sa} may not {verb} {kubectl_resource} in namespace {target_namespace}",
        explanation: "the Flink operator itself was refused: its ServiceAccount has no Role in that namespace (typically a namespace missing from the chart's watchNamespaces)",
        fix: "if {target_namespace} should be managed, add it to the chart's `watchNamespaces` and `helm upgrade` (that creates the operator's Role and RoleBinding there); otherwise grant exactly what was refused:

  kubectl create role {role_name} -n {target_namespace} --verb={verb} --resource={kubectl_resource}
  kubectl create rolebinding {role_name} -n {target_namespace} --role={role_name} --serviceaccount={namespace}:{sa}",
        verify: CAN_I,
        explains: API_REFUSED,
        supersedes: RBAC_WRAPPERS,
        examples: &[
            r#"Message: deployments.apps is forbidden: User "system:serviceaccount:flink-operator:flink-operator" cannot create resource "deployments" in API group "apps" in the namespace "analytics"."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/values.yaml",
        ],
    },
    // fabric8 >= 6.7.0: every websocket handshake failure is prefixed (WatchConnectionManager.start).
    Signature {
        id: "SIG-FABRIC8-WEBSOCKET-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Received 403 on websocket"],
        pattern: r"Received 403 on websocket\. Failure executing: GET at: https?://[^/\s]+/apis?/(?:[^/\s]+/)*?namespaces/(?P<namespace>[^/\s]+)/(?P<resource>[a-z]+)(?:\S*?[?&](?P<verb>watch)=true)?",
        title: "Flink's watch on {resource} in namespace {namespace} was refused (403 on the websocket)",
        explanation: "Flink's watch on the Kubernetes API was refused (HTTP 403 on the websocket handshake): its ServiceAccount may not watch this resource",
        fix: "grant the JobManager's ServiceAccount what a native JobManager does with `{resource}` in namespace {namespace} (get, list, watch, create, delete), not the watch alone, or the next refusal is the create:

  kubectl create role flink-jobmanager -n {namespace} --verb=get,list,watch,create,delete --resource={resource}
  kubectl create rolebinding flink-jobmanager -n {namespace} --role=flink-jobmanager --serviceaccount={namespace}:{sa|<jobmanager-service-account>}",
        verify: "kubectl auth can-i watch {resource} -n {namespace} --as=system:serviceaccount:{namespace}:{sa|<jobmanager-service-account>}",
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[
            r#"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders%2Ccomponent%3Dtaskmanager%2Ctype%3Dflink-native-kubernetes&allowWatchBookmarks=true&watch=true. Message: pods is forbidden: User "system:serviceaccount:analytics:default" cannot watch resource "pods" in API group "" in the namespace "analytics"."#,
        ],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/WatchConnectionManager.java",
            "fabric8io/kubernetes-client@v6.7.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/WatchConnectionManager.java",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    // fabric8 <= 6.7.x with an in-cluster token (Config.java custom 403 text).
    Signature {
        id: "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Forbidden!Configured service account doesn't have access"],
        pattern: r"Forbidden!Configured service account doesn't have access",
        title: "Flink's Kubernetes client got 403 Forbidden: its ServiceAccount lacks a permission",
        explanation: "Flink's Kubernetes client (fabric8 up to 6.7) got 403: the configured ServiceAccount lacks a permission",
        fix: STATUS_FIX,
        verify: "kubectl auth can-i {verb|watch} {resource|pods} -n {namespace|<namespace>} --as=system:serviceaccount:{namespace|<namespace>}:<sa>   # expect: yes",
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[
            "io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/pods. Message: Forbidden!Configured service account doesn't have access. Service account may have been revoked.",
        ],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v5.12.4:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v6.7.2:kubernetes-client-api/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v6.7.2:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    // fabric8 <= 6.6.x WatchConnectionManager: a WARN line, then the watch's exception; when the
    // handshake response has no Status body the exception carries only the reason phrase.
    Signature {
        id: "SIG-FABRIC8-EXEC-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Exec Failure: HTTP 403", "Message: Forbidden."],
        pattern: r"Exec Failure: HTTP 403|Failure executing: GET at: https?://[^/\s]+/apis?/(?:[^/\s]+/)*?namespaces/(?P<namespace>[^/\s]+)/(?P<resource>[a-z]+)\?\S*?(?P<verb>watch)=true\S*?\. Message: Forbidden\.(?:\s|$)",
        title: "Flink's watch on the Kubernetes API was refused (HTTP 403)",
        explanation: "Flink's watch on the Kubernetes API was refused with HTTP 403 (fabric8 up to 6.6)",
        fix: "grant the JobManager's ServiceAccount what a native JobManager does with its TaskManager pods (get, list, watch, create, delete), not the watch alone, or the next refusal is the create:

  kubectl create role flink-jobmanager -n {namespace|<namespace>} --verb=get,list,watch,create,delete --resource=pods
  kubectl create rolebinding flink-jobmanager -n {namespace|<namespace>} --role=flink-jobmanager --serviceaccount={namespace|<namespace>}:<jobmanager-service-account>",
        verify: "kubectl auth can-i {verb|watch} {resource|pods} -n {namespace|<namespace>} --as=system:serviceaccount:{namespace|<namespace>}:<sa>   # expect: yes",
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[
            "2023-05-02 10:11:12,345 WARN  io.fabric8.kubernetes.client.dsl.internal.WatchConnectionManager [] - Exec Failure: HTTP 403, Status: 403 - pods is forbidden: User \"system:serviceaccount:prod:flink\" cannot watch resource \"pods\" in API group \"\" in the namespace \"prod\"",
            "Caused by: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/default/pods?labelSelector=app%3Dyjztest-pg-cdc001%2Ccomponent%3Dtaskmanager%2Ctype%3Dflink-native-kubernetes&allowWatchBookmarks=true&watch=true. Message: Forbidden.",
        ],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v5.12.4:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/WatchConnectionManager.java",
            "fabric8io/kubernetes-client@v6.6.2:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/WatchConnectionManager.java",
            "fabric8io/kubernetes-client@v5.12.4:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/base/OperationSupport.java",
        ],
    },
    // fabric8 >= 6.8: the 403 is only in the server's Status.
    Signature {
        id: "SIG-FABRIC8-STATUS-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["code=403"],
        pattern: r"Received status: Status\(apiVersion=[^,]*, code=403,(?:.*?kind=(?P<resource>[a-z][a-z.]*),)?.*?reason=Forbidden",
        title: "the API server refused a request of Flink's Kubernetes client (403 Forbidden)",
        explanation: "Flink's Kubernetes client (fabric8 6.8 and later) got 403 Forbidden from the API server",
        fix: STATUS_FIX,
        verify: "kubectl auth can-i {verb|watch} {resource|pods} -n {namespace|<namespace>} --as=system:serviceaccount:{namespace|<namespace>}:<sa>   # expect: yes",
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[r#"Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/configmaps/orders-cluster-config-map. Message: configmaps "orders-cluster-config-map" is forbidden: User "system:serviceaccount:prod:flink" cannot get resource "configmaps" in API group "" in the namespace "prod". Received status: Status(apiVersion=v1, code=403, details=StatusDetails(causes=[], group=null, kind=configmaps, name=orders-cluster-config-map, retryAfterSeconds=null, uid=null, additionalProperties={}), kind=Status, message=configmaps "orders-cluster-config-map" is forbidden: User "system:serviceaccount:prod:flink" cannot get resource "configmaps" in API group "" in the namespace "prod", metadata=ListMeta(_continue=null, remainingItemCount=null, resourceVersion=null, selfLink=null, additionalProperties={}), reason=Forbidden, status=Failure, additionalProperties={})."#],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-model-generator/kubernetes-model-core/src/generated/java/io/fabric8/kubernetes/api/model/Status.java",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
        ],
    },
    // --- identity: no usable token ------------------------------------------------------------
    Signature {
        id: "SIG-FABRIC8-UNAUTHORIZED-CONFIGURED",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        literals: &["Unauthorized! Configured service account doesn't have access"],
        pattern: r"Unauthorized! Configured service account doesn't have access",
        title: "the API server did not accept Flink's ServiceAccount token (401 Unauthorized)",
        explanation: "Flink's Kubernetes client (fabric8 up to 6.7) got 401: its ServiceAccount token is missing, unreadable, expired or belongs to a deleted ServiceAccount",
        fix: TOKEN_FIX,
        verify: TOKEN_VERIFY,
        explains: API_REFUSED,
        supersedes: &[],
        examples: &["io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/pods. Message: Unauthorized! Configured service account doesn't have access. Service account may have been revoked. Unauthorized."],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v5.12.4:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v6.7.2:kubernetes-client-api/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v6.7.2:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    Signature {
        id: "SIG-K8S-401",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        literals: &["code=401", "Exec Failure: HTTP 401"],
        pattern: r"Received status: Status\(apiVersion=[^,]*, code=401,.*?reason=Unauthorized|Exec Failure: HTTP 401\b",
        title: "the API server did not accept Flink's credentials (401 Unauthorized)",
        explanation: "the API server answered 401: the request carried no valid ServiceAccount token",
        fix: TOKEN_FIX,
        verify: TOKEN_VERIFY,
        explains: API_REFUSED,
        supersedes: &[],
        examples: &["Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/pods. Message: Unauthorized. Received status: Status(apiVersion=v1, code=401, details=null, kind=Status, message=Unauthorized, metadata=ListMeta(_continue=null, remainingItemCount=null, resourceVersion=null, selfLink=null, additionalProperties={}), reason=Unauthorized, status=Failure, additionalProperties={})."],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/filters/authentication.go",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-model-generator/kubernetes-model-core/src/generated/java/io/fabric8/kubernetes/api/model/Status.java",
            "fabric8io/kubernetes-client@v6.6.2:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/WatchConnectionManager.java",
        ],
    },
    Signature {
        id: "SIG-K8S-ANONYMOUS",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:anonymous\""],
        pattern: r#"is forbidden: User "system:anonymous" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)""#,
        title: "Flink's requests reach the API server anonymously (no ServiceAccount token)",
        explanation: "the request arrived as system:anonymous: no ServiceAccount token was sent (not mounted or not readable)",
        fix: TOKEN_FIX,
        verify: TOKEN_VERIFY,
        explains: API_REFUSED,
        supersedes: &[],
        examples: &[r#"Message: pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "prod"."#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/authentication/user/user.go",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
        ],
    },
    // fabric8 Config.tryServiceAccount when the token file exists but cannot be read.
    Signature {
        id: "SIG-SA-TOKEN-MISSING",
        category: Category::SaTokenUnreadable,
        severity: Severity::Warning,
        literals: &["Error reading service account token from"],
        pattern: r"Error reading service account token from: \[(?P<path>[^\]]+)\]",
        title: "no ServiceAccount token at {path}",
        explanation: "the Kubernetes client could not read the ServiceAccount token file in the pod (harmless outside a cluster; inside one, its requests go out anonymous)",
        fix: TOKEN_FIX,
        verify: TOKEN_VERIFY,
        explains: &[],
        supersedes: &[],
        examples: &["2020-06-09 18:54:52.939  WARN 1 --- [           main] io.fabric8.kubernetes.client.Config      : Error reading service account token from: [/var/run/secrets/kubernetes.io/serviceaccount/token]. Ignoring."],
        unless: &[],
        sources: &[
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client-api/src/main/java/io/fabric8/kubernetes/client/Config.java",
            "fabric8io/kubernetes-client@v5.12.4:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/Config.java",
        ],
    },
    // --- runtime: memory -------------------------------------------------------------------
    // JVM text, enriched by Flink's TaskManagerExceptionUtils / ClusterEntryPointExceptionUtils.
    Signature {
        id: "SIG-JVM-OOM",
        category: Category::JvmOutOfMemory,
        severity: Severity::Critical,
        literals: &["OutOfMemoryError: "],
        pattern: r"OutOfMemoryError: (?:Cannot reserve \S+ bytes of (?P<oom_2>direct buffer memory)|(?P<oom>Java heap space|Metaspace|Direct buffer memory|GC overhead limit exceeded|unable to create (?:new )?native thread|Requested array size exceeds VM limit|Compressed class space))(?:.*?(?P<jm>Flink Master|JobManager)|.*?(?P<tm>task executor|TaskManager|taskmanager\.memory))?",
        title: "{process|A Flink process} ran out of JVM memory: {oom}",
        explanation: "the JVM threw OutOfMemoryError inside the container's limit: the memory pool named in the message is too small for the job (or leaks)",
        fix: "{memory_fix}",
        verify: "kubectl logs {pod|<pod>} -n {pod_namespace|<namespace>} --previous | grep -c OutOfMemoryError",
        explains: MEMORY,
        supersedes: &[],
        examples: &[
            "java.lang.OutOfMemoryError: Java heap space",
            "java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak. In the first case 'taskmanager.memory.jvm-metaspace.size' configuration option should be increased. If the error persists (usually in cluster after several job (re-)submissions) then there is probably a class loading leak in user code or some of its dependencies which has to be investigated and fixed. The task executor has to be shutdown...",
            "Caused by: java.lang.OutOfMemoryError: Direct buffer memory. The direct out-of-memory error has occurred. This can mean two things: either job(s) require(s) a larger size of JVM direct memory or there is a direct memory leak. The direct memory can be allocated by user code or some of its dependencies. In this case 'taskmanager.memory.task.off-heap.size' configuration option should be increased. Flink framework and its dependencies also consume the direct memory, mostly for network communication. The most of network memory is managed by Flink and should not result in out-of-memory error. In certain special cases, in particular for jobs with high parallelism, the framework may require more direct memory which is not managed by Flink. In this case 'taskmanager.memory.framework.off-heap.size' configuration option should be increased. If the error persists then there is probably a direct memory leak in user code or some of its dependencies which has to be investigated and fixed. The task executor has to be shutdown...",
            "java.lang.OutOfMemoryError: Java heap space. A heap space-related out-of-memory error has occurred. This can mean two things: either Flink Master requires a larger size of JVM heap space or there is a memory leak. In the first case, 'jobmanager.memory.heap.size' can be used to increase the amount of available heap memory. If the problem is not resolved by increasing the heap size, it indicates a memory leak in the user code or its dependencies which needs to be investigated and fixed. The Flink Master has to be shutdown...",
            "java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 134213632, limit: 134217728)",
            "java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk@b3eb4c3ce855:src/hotspot/share/memory/universe.cpp",
            "openjdk/jdk@13cbbaafed6c:src/java.base/share/classes/java/nio/Bits.java",
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/TaskManagerExceptionUtils.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/entrypoint/ClusterEntryPointExceptionUtils.java",
            "observed:java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached (HotSpot on JDK 11+; JDK 8 says 'unable to create new native thread')",
        ],
    },
    // Any other OutOfMemoryError the JVM throws (no message, or a pool SIG-JVM-OOM does not list:
    // `Map failed`, `Required array size too large`, an agent's own text): named, with no pool.
    Signature {
        id: "SIG-JVM-OOM-OTHER",
        category: Category::JvmOutOfMemory,
        severity: Severity::Critical,
        literals: &["java.lang.OutOfMemoryError"],
        pattern: r"java\.lang\.OutOfMemoryError(?::\s*(?P<oom_text>[^\s].{0,120})|\s*$)",
        title: "a Flink process ran out of JVM memory",
        explanation: "the JVM threw OutOfMemoryError inside the container's limit; the message does not name one of the pools Flink sizes, so the lines around it (the `Caused by:` chain, the thread) say which memory ran out",
        fix: "read the lines around it for the pool: heap (`taskmanager.memory.task.heap.size` / `jobmanager.memory.heap.size`), metaspace (`*.memory.jvm-metaspace.size`), direct memory (`taskmanager.memory.task.off-heap.size`), or native threads and mapped files (the pod's limits); raise that pool, keeping spec.jobManager/taskManager.resource.memory large enough for the others",
        verify: "kubectl logs {pod|<pod>} -n {pod_namespace|<namespace>} --previous | grep -c OutOfMemoryError",
        explains: MEMORY,
        supersedes: &[],
        examples: &[
            "java.lang.OutOfMemoryError",
            "Caused by: java.lang.OutOfMemoryError: Map failed",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk@b3eb4c3ce855:src/hotspot/share/memory/universe.cpp",
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/TaskManagerExceptionUtils.java",
        ],
    },
    // flink-kubernetes KubernetesPod.getTerminatedDiagnostics inside ActiveResourceManager's line.
    Signature {
        id: "SIG-TM-WORKER-OOMKILLED",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &["reason=OOMKilled"],
        pattern: r"Worker (?P<tm>\S+) is terminated\. Diagnostics: Pod terminated, container termination statuses: \[(?:[^\]]*?,)?(?P<container>[\w.-]+)\(exitCode=(?P<exit_code>-?\d+), reason=(?P<reason>OOMKilled)",
        title: "TaskManager {tm} was killed by its memory limit (exit {exit_code}, OOMKilled)",
        explanation: "the kernel killed the TaskManager container for exceeding its memory limit; Flink lost the TaskManager and its slots",
        fix: OOMKILLED_FIX,
        verify: OOMKILLED_VERIFY,
        explains: KILLED,
        supersedes: &["SIG-TM-WORKER-TERMINATED", "SIG-K8S-OOMKILLED"],
        examples: &["Worker flink-app-taskmanager-1-3 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-task-manager(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)"],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/active/ActiveResourceManager.java",
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/resources/KubernetesPod.java",
            "containerd/containerd@v2.2.7:internal/cri/server/helpers.go",
        ],
    },
    Signature {
        id: "SIG-K8S-OOMKILLED",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &["OOMKilled", "Memory cgroup out of memory"],
        pattern: r"\bOOMKilled\b|Memory cgroup out of memory: Kill(?:ed)? process \d+ \((?P<process_name>[^)]*)\)",
        title: "a container was killed by its memory limit (OOMKilled)",
        explanation: "the kernel killed the container for exceeding its memory limit (exit code 137)",
        fix: OOMKILLED_FIX,
        verify: OOMKILLED_VERIFY,
        explains: KILLED,
        supersedes: &[],
        examples: &[
            "      Reason:       OOMKilled",
            r#"            "reason": "OOMKilled","#,
            "  Warning  OOMKilling  3m  kernel-monitor, node-7  Memory cgroup out of memory: Killed process 48213 (java) total-vm:9876540kB, anon-rss:4194304kB, file-rss:0kB, shmem-rss:0kB",
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubectl@kubernetes-1.36.3:pkg/describe/describe.go",
            "containerd/containerd@v2.2.7:internal/cri/server/helpers.go",
            "torvalds/linux@c797bc88f77b:mm/oom_kill.c",
            "kubernetes/node-problem-detector@v1.34.4:config/kernel-monitor.json",
        ],
    },
    // YARN's NodeManager (ContainersMonitorImpl) kills a container whose process tree passed its
    // memory limit, with exit status KILLED_EXCEEDED_PMEM (-104) or KILLED_EXCEEDED_VMEM (-103);
    // Flink's YarnResourceManagerDriver quotes the container's diagnostics when it reports the
    // worker terminated (`Container <id> marked as failed.\n Exit code:<status>.\n Diagnostics:<...>`).
    // Hadoop 2 words it `is running beyond physical memory limits`, Hadoop 3
    // `is running <n>B beyond the 'PHYSICAL' memory limit` (`%S` upper-cases the kind) and
    // prefixes each diagnostic with `[<date>]`; the sizes are TraditionalBinaryPrefix's
    // (`4.1 GB`, `4 GB`, `512B`, Locale.ENGLISH).
    Signature {
        id: "SIG-YARN-PMEM-KILLED",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &[
            "beyond physical memory limits",
            "beyond the 'PHYSICAL' memory limit",
            "Exit code:-104",
        ],
        pattern: r"Container \[pid=(?P<pid>\d+),containerID=(?P<container_id>container_\w+)\] is running (?:beyond (?P<yarn_memory>physical) memory limits|(?P<over>\d+)B beyond the '(?P<yarn_memory_2>PHYSICAL)' memory limit)\.(?: Current usage: (?P<pmem_used>\d+(?:\.\d+)? ?[KMGTPE]?B) of (?P<pmem_limit>\d+(?:\.\d+)? ?[KMGTPE]?B) physical memory used; (?P<vmem_used>\d+(?:\.\d+)? ?[KMGTPE]?B) of (?P<vmem_limit>\d+(?:\.\d+)? ?[KMGTPE]?B) virtual memory used)?|\bExit code:(?P<exit_status>-104)\b",
        title: "YARN killed {yarn_process} ({container_id|exit status -104}) for physical memory: {yarn_usage}",
        explanation: "YARN's NodeManager found the container's processes using more physical memory (resident set) than the container's size and killed it (exit status -104, KILLED_EXCEEDED_PMEM): no OutOfMemoryError, Flink just lost the process. Flink on YARN asks for a container of exactly its process size, so the overshoot is native memory beyond what Flink budgets for it (JVM overhead: thread stacks, glibc arenas, RocksDB or user-code native memory)",
        fix: "{yarn_fix}",
        verify: "yarn logs -applicationId <application-id> | grep -cE \"beyond (physical memory limits|the 'PHYSICAL' memory limit)\"   # expect 0 for the application started with the new size",
        explains: YARN_KILLED,
        supersedes: &["SIG-TM-WORKER-TERMINATED"],
        examples: &[
            " Diagnostics:Container [pid=28417,containerID=container_1732780800000_0007_01_000003] is running beyond physical memory limits. Current usage: 4.1 GB of 4 GB physical memory used; 6.3 GB of 8.4 GB virtual memory used. Killing container.",
            " Diagnostics:[2026-11-28 09:41:02.118]Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000003] is running 107374182B beyond the 'PHYSICAL' memory limit. Current usage: 4.1 GB of 4 GB physical memory used; 6.3 GB of 8.4 GB virtual memory used. Killing container.",
            "Container [pid=9311,containerID=container_1732780800000_0007_01_000001] is running beyond physical memory limits. Current usage: 1.7 GB of 1.6 GB physical memory used; 3.1 GB of 3.3 GB virtual memory used. Killing container.",
            " Exit code:-104.",
        ],
        unless: &[],
        sources: &[
            "apache/hadoop-common@release-2.2.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop-common@release-2.5.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop-common@release-2.5.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-api/src/main/java/org/apache/hadoop/yarn/api/records/ContainerExitStatus.java",
            "apache/hadoop-common@release-2.5.0:hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/util/StringUtils.java",
            "apache/hadoop@1faf26721c56:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop@03209e8966a8:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/container/ContainerImpl.java",
            "apache/flink@007c25311051:flink-yarn/src/main/java/org/apache/flink/yarn/YarnResourceManagerDriver.java",
            "apache/flink@62a003e927f8:flink-yarn/src/main/java/org/apache/flink/yarn/TaskExecutorProcessSpecContainerResourcePriorityAdapter.java",
        ],
    },
    // The same kill by YARN's virtual-memory check (`yarn.nodemanager.vmem-check-enabled`, true
    // by default): the limit is the container's size times `yarn.nodemanager.vmem-pmem-ratio`
    // (2.1 by default), and what is measured is the address space the process tree reserved.
    Signature {
        id: "SIG-YARN-VMEM-KILLED",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &[
            "beyond virtual memory limits",
            "beyond the 'VIRTUAL' memory limit",
            "Exit code:-103",
        ],
        pattern: r"Container \[pid=(?P<pid>\d+),containerID=(?P<container_id>container_\w+)\] is running (?:beyond (?P<yarn_memory>virtual) memory limits|(?P<over>\d+)B beyond the '(?P<yarn_memory_2>VIRTUAL)' memory limit)\.(?: Current usage: (?P<pmem_used>\d+(?:\.\d+)? ?[KMGTPE]?B) of (?P<pmem_limit>\d+(?:\.\d+)? ?[KMGTPE]?B) physical memory used; (?P<vmem_used>\d+(?:\.\d+)? ?[KMGTPE]?B) of (?P<vmem_limit>\d+(?:\.\d+)? ?[KMGTPE]?B) virtual memory used)?|\bExit code:(?P<exit_status>-103)\b",
        title: "YARN killed {yarn_process} ({container_id|exit status -103}) for virtual memory: {yarn_usage}",
        explanation: "YARN's NodeManager killed the container because its processes' virtual size (address space reserved, not memory used) passed the container's size times `yarn.nodemanager.vmem-pmem-ratio` (exit status -103, KILLED_EXCEEDED_VMEM); a 64-bit JVM reserves far more address space than it uses, so this check, `yarn.nodemanager.vmem-check-enabled` (on by default), kills processes that stay within their physical memory",
        fix: "{yarn_fix}",
        verify: "yarn logs -applicationId <application-id> | grep -cE \"beyond (virtual memory limits|the 'VIRTUAL' memory limit)\"   # expect 0 for the application started after the change",
        explains: YARN_KILLED,
        supersedes: &["SIG-TM-WORKER-TERMINATED"],
        examples: &[
            " Diagnostics:Container [pid=28417,containerID=container_1732780800000_0007_01_000002] is running beyond virtual memory limits. Current usage: 1.3 GB of 2 GB physical memory used; 4.6 GB of 4.2 GB virtual memory used. Killing container.",
            " Diagnostics:[2026-11-28 09:41:02.118]Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000002] is running 429496730B beyond the 'VIRTUAL' memory limit. Current usage: 1.3 GB of 2 GB physical memory used; 4.6 GB of 4.2 GB virtual memory used. Killing container.",
            " Exit code:-103.",
        ],
        unless: &[],
        sources: &[
            "apache/hadoop-common@release-2.2.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop-common@release-2.5.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop-common@release-2.5.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-api/src/main/java/org/apache/hadoop/yarn/api/records/ContainerExitStatus.java",
            "apache/hadoop-common@release-2.5.0:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-api/src/main/java/org/apache/hadoop/yarn/conf/YarnConfiguration.java",
            "apache/hadoop@1faf26721c56:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java",
            "apache/hadoop@03209e8966a8:hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/container/ContainerImpl.java",
            "apache/flink@007c25311051:flink-yarn/src/main/java/org/apache/flink/yarn/YarnResourceManagerDriver.java",
        ],
    },
    // --- runtime: how Flink dies ---------------------------------------------------------------
    Signature {
        id: "SIG-RETRY-EXHAUSTED",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Number of retries has been exhausted"],
        pattern: r"RetryException: Could not complete the operation\. Number of retries has been exhausted",
        title: "Flink gave up retrying an operation",
        explanation: "Flink gave up retrying an operation; the cause is the error logged before it",
        fix: "fix the error that was retried (look above this line, or at the finding listed as its cause)",
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &["SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD", "SIG-ENTRYPOINT-EXIT-CODE", "SIG-EXIT-CODE-239"],
        supersedes: &[],
        examples: &["org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/concurrent/FutureUtils.java",
        ],
    },
    // The scheduler's failure handling (ExecutionFailureHandler, AdaptiveScheduler): the restart
    // strategy allows no further restart, or the failure is marked unrecoverable; the job fails for
    // good with the real failure as the `Caused by:`.
    Signature {
        id: "SIG-RESTARTS-EXHAUSTED",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Recovery is suppressed by ", "JobException: The failure is not recoverable"],
        pattern: r"Recovery is suppressed by (?P<strategy>[A-Za-z]+)(?:\((?P<strategy_args>[^)]*)\))?|JobException: The failure is not recoverable",
        title: "the job failed for good: Flink stopped restarting it ({strategy|unrecoverable failure})",
        explanation: "the job failed and its restart strategy allowed no further restart (or the failure was marked unrecoverable); this is how the job stops, the cause is the `Caused by:` under this line",
        fix: "this is how the job stops, not why: fix the error in the `Caused by:` under this line (or the finding listed as its cause). The restart strategy ({strategy|see the line}) only decides how often Flink retries: NoRestartBackoffTimeStrategy means restarts are off (`restart-strategy.type: none`, `restart-strategy` before 1.17); for a cause that passes (a TaskManager lost, a storage hiccup) allow retries in flinkConfiguration, e.g. `restart-strategy.type: exponential-delay`, or `fixed-delay` with `restart-strategy.fixed-delay.attempts`",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING after the cause is fixed",
        explains: &[],
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy",
            "org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)",
            "Caused by: org.apache.flink.runtime.JobException: The failure is not recoverable",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/failover/flip1/ExecutionFailureHandler.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/failover/ExecutionFailureHandler.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/adaptive/AdaptiveScheduler.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/failover/FixedDelayRestartBackoffTimeStrategy.java",
            "apache/flink@release-1.17.0:flink-core/src/main/java/org/apache/flink/configuration/RestartStrategyOptions.java",
        ],
    },
    // Task's cancellation watchdog (TaskCancelerWatchDog): a cancelled task's thread did not stop
    // within `task.cancellation.timeout`, so the TaskManager fails fatally and its process exits.
    Signature {
        id: "SIG-TASK-CANCEL-TIMEOUT",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Task did not exit gracefully within "],
        pattern: r"Task did not exit gracefully within (?P<seconds>\S+) \+ seconds",
        title: "a TaskManager killed itself: a cancelled task did not stop within {seconds|the} seconds",
        explanation: "a task was cancelled (a failover, a cancel, a stop-with-savepoint) but its thread stayed blocked past `task.cancellation.timeout`, so the TaskManager treats itself as broken, fails fatally and its process exits; its pod restarts and the job loses its slots meanwhile",
        fix: "find where the task thread was stuck: the TaskManager logs it just before this line (`Task '<name>' did not react to cancelling signal ... it is stuck for N seconds in method:` with the stack); make that call interruptible or bounded (user code or a connector blocked on an external system, a sink waiting forever); only if the task does stop but slowly, raise `task.cancellation.timeout` (milliseconds up to 1.x, a duration in 2.x; default 180000 / 180 s) in flinkConfiguration",
        verify: "kubectl logs <taskmanager-pod> --previous | grep -F 'did not react to cancelling signal'   # expect: nothing after the fix",
        explains: &[
            "SIG-TM-FATAL",
            "SIG-ENTRYPOINT-EXIT-CODE",
            "SIG-EXIT-CODE-239",
            "SIG-TM-HEARTBEAT-TIMEOUT",
            "SIG-TM-UNREACHABLE",
            "SIG-TM-WORKER-TERMINATED",
            "SIG-TM-CONNECTION-LOST",
            "SIG-TM-DATA-CONNECT-FAILED",
            "SIG-PARTITION-NOT-FOUND",
        ],
        supersedes: &[],
        examples: &[
            "org.apache.flink.util.FlinkRuntimeException: Task did not exit gracefully within 180 + seconds.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/taskmanager/Task.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/taskmanager/Task.java",
            "apache/flink@release-1.16.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
            "apache/flink@release-2.1.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
        ],
    },
    Signature {
        id: "SIG-RM-FATAL",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Fatal error occurred in ResourceManager"],
        pattern: r"Fatal error occurred in ResourceManager",
        title: "the ResourceManager hit a fatal error",
        explanation: "the ResourceManager hit a fatal error and stops the JobManager",
        fix: "fix the error the ResourceManager reported (the lines before this one, or the finding listed as its cause)",
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &["SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD", "SIG-ENTRYPOINT-EXIT-CODE", "SIG-EXIT-CODE-239"],
        supersedes: &[],
        examples: &["2026-11-28 09:39:13,301 ERROR org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Fatal error occurred in ResourceManager."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/ResourceManager.java",
        ],
    },
    Signature {
        id: "SIG-ENTRYPOINT-FATAL",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Fatal error occurred in the cluster entrypoint", "Could not start cluster entrypoint"],
        pattern: r"Fatal error occurred in the cluster entrypoint|Could not start cluster entrypoint",
        title: "the JobManager's cluster entrypoint failed",
        explanation: "the JobManager's cluster entrypoint failed and the process exits (code 1 or 2)",
        fix: FATAL_FIX,
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &["SIG-ENTRYPOINT-EXIT-CODE", "SIG-EXIT-CODE-239"],
        supersedes: &[],
        examples: &[
            "2026-11-28 09:39:13,305 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.",
            "2026-11-28 09:39:13,305 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Could not start cluster entrypoint KubernetesApplicationClusterEntrypoint.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/entrypoint/ClusterEntrypoint.java",
        ],
    },
    Signature {
        id: "SIG-FATAL-THREAD",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["produced an uncaught exception. Stopping the process"],
        pattern: r"FATAL: Thread '(?P<thread>[^']*)' produced an uncaught exception\. Stopping the process",
        title: "Flink's fatal-error handler stopped the process (exit code 239)",
        explanation: "Flink's fatal-error handler stops the JVM with exit code 239 (-17)",
        fix: FATAL_FIX,
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &["SIG-EXIT-CODE-239"],
        supersedes: &[],
        examples: &["2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process..."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/FatalExitExceptionHandler.java",
        ],
    },
    Signature {
        id: "SIG-TM-FATAL",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Fatal error occurred while executing the TaskManager"],
        pattern: r"Fatal error occurred while executing the TaskManager",
        title: "the TaskManager hit a fatal error and shut down",
        explanation: "the TaskManager process hit a fatal error and exits",
        fix: FATAL_FIX,
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=taskmanager   # expect: every TaskManager READY 1/1, RESTARTS no longer growing",
        explains: &[],
        supersedes: &[],
        examples: &["2026-11-28 09:41:02,118 ERROR org.apache.flink.runtime.taskexecutor.TaskManagerRunner [] - Fatal error occurred while executing the TaskManager. Shutting it down..."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/taskexecutor/TaskManagerRunner.java",
        ],
    },
    Signature {
        id: "SIG-ENTRYPOINT-EXIT-CODE",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Terminating cluster entrypoint process"],
        pattern: r"Terminating cluster entrypoint process (?P<process>\S+) with exit code (?P<exit_code>[1-9]\d*)",
        title: "the JobManager exits with code {exit_code}: {exit_meaning}",
        explanation: "the cluster entrypoint terminates the JobManager process with a failure code",
        fix: FATAL_FIX,
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &[],
        supersedes: &[],
        examples: &["2026-11-28 09:39:13,402 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Terminating cluster entrypoint process KubernetesApplicationClusterEntrypoint with exit code 2."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/entrypoint/ClusterEntrypoint.java",
        ],
    },
    Signature {
        id: "SIG-EXIT-CODE-239",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Exit Code:", "\"exitCode\":", "exitCode: 239"],
        pattern: r#"(?:Exit Code:\s+|"exitCode":\s*|exitCode: )(?P<exit_code>239)\b"#,
        title: "a Flink container exited with code 239 (Flink's fatal-error exit)",
        explanation: "exit code 239 is -17: FatalExitExceptionHandler after an uncaught exception, or JvmShutdownSafeguard halting the JVM when the shutdown after a fatal error (`Fatal error occurred in ...`) hung for 5 s, as a real Flink 1.20.1 JobManager refused a pod list did",
        fix: "read the container's previous log for the `Fatal error occurred in ...` or `FATAL: Thread ...` line and the exception before it (`kubectl logs {pod|<pod>} -n {pod_namespace|<namespace>} --previous`) and fix that",
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &[],
        supersedes: &[],
        examples: &["      Exit Code:    239", r#"                "exitCode": 239,"#],
        unless: &[],
        sources: &[
            "kubernetes/kubectl@kubernetes-1.36.3:pkg/describe/describe.go",
            "kubernetes/api@kubernetes-1.36.3:core/v1/types.go",
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/FatalExitExceptionHandler.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/util/JvmShutdownSafeguard.java",
        ],
    },
    // --- cluster: TaskManagers going away (symptoms) -------------------------------------------
    // JobMaster / ResourceManager heartbeat managers.
    Signature {
        id: "SIG-TM-HEARTBEAT-TIMEOUT",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["eartbeat of TaskManager with id"],
        pattern: r"[Hh]eartbeat of TaskManager with id (?P<tm>\S+?)\.? timed out",
        title: "TaskManagers stopped answering heartbeats",
        explanation: "a TaskManager stopped answering heartbeats: it died, was killed, or stalled (GC) longer than heartbeat.timeout",
        fix: TM_LOST_FIX,
        verify: "kubectl get pods -l component=taskmanager",
        explains: TM_LOST,
        supersedes: &[],
        examples: &[
            "java.util.concurrent.TimeoutException: Heartbeat of TaskManager with id app1172097instance95734073-taskmanager-1-22 timed out.",
            "java.util.concurrent.TimeoutException: The heartbeat of TaskManager with id orders-taskmanager-1-2 timed out.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/JobMaster.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/ResourceManager.java",
        ],
    },
    Signature {
        id: "SIG-TM-UNREACHABLE",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["is no longer reachable"],
        pattern: r"TaskManager with id (?P<tm>\S+) is no longer reachable",
        title: "TaskManagers are no longer reachable",
        explanation: "the JobManager lost the connection to a TaskManager: the pod is gone or its process died",
        fix: TM_LOST_FIX,
        verify: "kubectl get pods -l component=taskmanager",
        explains: TM_LOST,
        supersedes: &[],
        examples: &["org.apache.flink.runtime.jobmaster.JobMasterException: TaskManager with id orders-taskmanager-1-1 is no longer reachable."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/JobMaster.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/ResourceManager.java",
        ],
    },
    Signature {
        id: "SIG-TM-WORKER-TERMINATED",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["is terminated. Diagnostics:"],
        pattern: r"Worker (?P<tm>\S+) is terminated\. Diagnostics: (?:Pod terminated, container termination statuses: \[(?:[^\]]*?,)?(?P<container>[\w.-]+)\(exitCode=(?P<exit_code>-?\d+), reason=(?P<reason>[^,)]*))?",
        title: "TaskManager {tm} terminated (exit {exit_code|?}, {reason|no reason given})",
        explanation: "Kubernetes reported the TaskManager pod terminated; its exit code and reason say how (137: killed, by its memory limit or forcibly; 143: stopped from outside; 1 or 2: Flink itself failed)",
        fix: TM_LOST_FIX,
        verify: "kubectl get pods -l component=taskmanager",
        explains: TM_LOST,
        supersedes: &[],
        examples: &[
            "Worker orders-taskmanager-1-4 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=239, reason=Error, message=null)], pod status: Failed(reason=null, message=null)",
            "Worker orders-taskmanager-2-1 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=Error, message=null)], pod status: Failed(reason=Evicted, message=The node was low on resource: memory. Threshold quantity: 100Mi, available: 61Mi. Container flink-main-container was using 2101388Ki, request is 2Gi, has larger consumption of memory. )",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/active/ActiveResourceManager.java",
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/resources/KubernetesPod.java",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/eviction/helpers.go",
        ],
    },
    // The data connections between TaskManagers (flink-runtime io/network/netty): the channel
    // closed or reset under a running exchange, or a request that could not be sent on it.
    // 1.16 prints the remote address alone ('host/ip:port'), 1.17 on adds the TaskManager's
    // resource id (`'<address> [ <id> ] '`; `'<address> [<id>]'` in the request and channel texts).
    Signature {
        id: "SIG-TM-CONNECTION-LOST",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &[
            "Lost connection to task manager",
            "Connection unexpectedly closed by remote task manager",
            "Sending the partition request to '",
            "Sending the task event to '",
            "(connection to '",
            "LocalTransportException: Channel to '",
        ],
        pattern: r"(?:Lost connection to task manager|Connection unexpectedly closed by remote task manager|Sending the (?:partition request|task event) to|\(connection to) '(?P<host>[^'\s]+)(?: \[ ?(?P<tm>[^\]\s]+) ?\] ?)?(?: \(#[^)\s]+\))?'|LocalTransportException: Channel to '(?P<host_2>[^'\s]+)(?: \[(?P<tm_2>[^\]\s]+)\])?' closed",
        title: "data connections to a TaskManager were lost",
        explanation: "a data exchange connection to another TaskManager was closed or reset under a running job: that TaskManager died or was killed",
        fix: TM_LOST_FIX,
        verify: "kubectl get pods -l component=taskmanager",
        explains: TM_LOST,
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Lost connection to task manager 'orders-taskmanager-1-2/10.244.1.17:6121'. This indicates that the remote task manager was lost.",
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Lost connection to task manager '/10.244.1.17:6121 [ orders-taskmanager-1-2 ] '. This indicates that the remote task manager was lost.",
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Connection unexpectedly closed by remote task manager '10.244.1.17/10.244.1.17:6121 [ orders-taskmanager-1-2 ] '. This might indicate that the remote task manager was lost.",
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Connection unexpectedly closed by remote task manager 'orders-taskmanager-1-2/10.244.1.17:6121'. This might indicate that the remote task manager was lost.",
            "org.apache.flink.runtime.io.network.netty.exception.LocalTransportException: Sending the partition request to '/10.244.1.17:6121 [orders-taskmanager-1-2] (#0)' failed.",
            "org.apache.flink.runtime.io.network.netty.exception.LocalTransportException: readAddress(..) failed: Connection reset by peer (connection to '10.244.1.17/10.244.1.17:6121 [orders-taskmanager-1-2]')",
            "org.apache.flink.runtime.io.network.netty.exception.LocalTransportException: Channel to '/10.244.1.17:6121 [orders-taskmanager-1-2]' closed.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/CreditBasedPartitionRequestClientHandler.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/CreditBasedPartitionRequestClientHandler.java",
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/NettyPartitionRequestClient.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/NettyPartitionRequestClient.java",
        ],
    },
    // PartitionRequestClientFactory: a TaskManager cannot open the data connection to another one.
    Signature {
        id: "SIG-TM-DATA-CONNECT-FAILED",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["Connecting to remote task manager '"],
        pattern: r"Connecting to remote task manager '(?P<host>[^'\s]+)(?: \[ (?P<tm>[^\]\s]+) \] )?' has failed",
        title: "a TaskManager could not open a data connection to another TaskManager at {host}",
        explanation: "a task could not connect to the TaskManager that produces its input (its data port, `taskmanager.data.port`): that TaskManager is gone, or the pod network between TaskManagers refuses the port",
        fix: "find why the TaskManager went away: `kubectl describe pod {tm|<taskmanager-pod>}` (OOMKilled, Evicted, preempted, node lost) and its previous log (`kubectl logs {tm|<taskmanager-pod>} --previous`); if it is still running, let TaskManagers reach each other on the data port: a NetworkPolicy on the Flink pods must allow ingress from the other TaskManagers on `taskmanager.data.port` (random unless set: set it, e.g. `taskmanager.data.port: \"6121\"`, and allow that port)",
        verify: "kubectl get pods -l component=taskmanager -o wide; kubectl get networkpolicy",
        explains: TM_LOST,
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Connecting to remote task manager '/10.244.1.17:6121 [ orders-taskmanager-1-2 ] ' has failed. This might indicate that the remote task manager has been lost.",
            "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Connecting to remote task manager 'orders-taskmanager-1-2/10.244.1.17:6121' has failed. This might indicate that the remote task manager has been lost.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/PartitionRequestClientFactory.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/netty/PartitionRequestClientFactory.java",
        ],
    },
    // PartitionNotFoundException (built in its constructor: `Partition <id> not found.`): a consumer
    // asked a TaskManager for a result partition it does not hold; RemoteInputChannel retries
    // with backoff up to `taskmanager.network.request-backoff.max` before it fails the task.
    Signature {
        id: "SIG-PARTITION-NOT-FOUND",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["PartitionNotFoundException"],
        pattern: r"PartitionNotFoundException: Partition (?P<partition>\S+) not found",
        title: "a task's input partition was not found on the TaskManager that should produce it",
        explanation: "a task asked another TaskManager for its input and that TaskManager did not hold the partition: it was lost or restarted since (its partitions went with it), or the producing task was still being deployed when the consumer gave up retrying",
        fix: "find why the producing TaskManager went away: `kubectl describe pod <taskmanager-pod>` (OOMKilled, Evicted, preempted, node lost) and its previous log (`kubectl logs <taskmanager-pod> --previous`), or the finding listed as its cause; if no TaskManager was lost (a large job whose tasks deploy slowly), let consumers wait longer for their producers: raise `taskmanager.network.request-backoff.max` (milliseconds, default 10000) in flinkConfiguration, e.g. to \"30000\"",
        verify: "kubectl get pods -l component=taskmanager -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount",
        explains: TM_LOST,
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.io.network.partition.PartitionNotFoundException: Partition 5b0a4e53f1c6b5c8e1f0f7c2d4a3b2c1#0@a1b2c3d4e5f60718293a4b5c6d7e8f90_0_0 not found.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/PartitionNotFoundException.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/PartitionNotFoundException.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/consumer/RemoteInputChannel.java",
            "apache/flink@release-2.1.0:flink-core/src/main/java/org/apache/flink/configuration/NettyShuffleEnvironmentOptions.java",
        ],
    },
    // --- cluster: who cannot reach whom --------------------------------------------------------
    Signature {
        id: "SIG-TM-RPC-UNREACHABLE",
        category: Category::TaskmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Association with remote system", "Connection refused: "],
        pattern: r"(?:Association with remote system \[(?:akka|pekko)(?:\.ssl)?\.tcp://flink@|Connection refused: )(?P<host>[A-Za-z0-9.-]+)(?:/[0-9a-fA-F.:]+)?:(?P<port>6122)\b",
        title: "the JobManager cannot reach TaskManager {host} on its RPC port {port}",
        explanation: "the JobManager cannot connect to a TaskManager at the address it registered with (wrong advertised address, NetworkPolicy, or the pod is gone)",
        fix: "check that TaskManagers advertise an address the JobManager can reach (native/operator mode sets `taskmanager.host` to the pod IP; a custom `taskmanager.host` or hostNetwork breaks it) and that no NetworkPolicy blocks port 6122 between Flink pods",
        verify: "kubectl get pods -l component=taskmanager -o wide",
        explains: TM_LOST,
        supersedes: &[],
        examples: &["Association with remote system [pekko.tcp://flink@10.244.2.31:6122] has failed, address is now gated for [50] ms. Reason: [Association failed with [pekko.tcp://flink@10.244.2.31:6122]] Caused by: [java.net.ConnectException: Connection refused: /10.244.2.31:6122]"],
        unless: &[],
        sources: &[
            "apache/pekko@v1.1.0:remote/src/main/scala/org/apache/pekko/remote/Endpoint.scala",
            "netty/netty@netty-4.1.128.Final:transport/src/main/java/io/netty/channel/AbstractChannel.java",
        ],
    },
    // JobMaster.resolveTaskManagerLocation: the TaskManager registered with a name the JobManager
    // cannot resolve (taskmanager.host set to a name without a DNS record).
    Signature {
        id: "SIG-TM-ADDRESS-UNRESOLVED",
        category: Category::TaskmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Could not accept TaskManager registration", "TaskManager address "],
        pattern: r"TaskManager address (?P<host>[A-Za-z0-9.-]+) cannot be resolved",
        title: "the JobManager cannot resolve the address TaskManager {host} registered with",
        explanation: "a TaskManager registered with a host name (its `taskmanager.host`) that does not resolve from the JobManager, so the JobManager rejects it and its slots never count",
        fix: "make every TaskManager advertise an address the JobManager can resolve: leave `taskmanager.host` unset (Flink then uses the pod IP), or set it to the pod IP from the downward API (`status.podIP`); a per-pod DNS name needs a headless Service whose name is the pod's `spec.subdomain` and whose selector matches the TaskManager pods",
        verify: "kubectl get pods -l component=taskmanager -o wide",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &["org.apache.flink.util.FlinkException: TaskManager address flink-taskmanager-2.flink-taskmanager-headless.flink.svc.cluster.local cannot be resolved. flink-taskmanager-2.flink-taskmanager-headless.flink.svc.cluster.local: Name or service not known"],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/JobMaster.java",
        ],
    },
    // TaskExecutor's ResourceManager connection (verbatim in public logs, akka and pekko).
    Signature {
        id: "SIG-RM-ADDRESS-UNRESOLVED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Could not resolve ResourceManager address"],
        pattern: r"Could not resolve ResourceManager address (?:(?:akka|pekko)(?:\.ssl)?\.tcp://[^@\s]+@)?(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>\d+))?",
        title: "TaskManagers cannot reach the JobManager at {host}",
        explanation: "the TaskManager cannot reach the JobManager's ResourceManager at this address (DNS, Service, or the JobManager is down)",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &[],
        examples: &[
            "2022-04-23 16:13:05,459 INFO  org.apache.flink.runtime.taskexecutor.TaskExecutor [] - Could not resolve ResourceManager address akka.tcp://flink@localhost:6123/user/rpc/resourcemanager_*, retrying in 10000 ms: Could not connect to rpc endpoint under address akka.tcp://flink@localhost:6123/user/rpc/resourcemanager_*.",
            "Could not resolve ResourceManager address pekko.tcp://flink@flink-jobmanager:6123/user/rpc/resourcemanager_*, retrying in 10000 ms: Could not connect to rpc endpoint under address pekko.tcp://flink@flink-jobmanager:6123/user/rpc/resourcemanager_*.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/registration/RetryingRegistration.java",
        ],
    },
    Signature {
        id: "SIG-JM-ASSOCIATION-FAILED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Association with remote system"],
        pattern: r"Association with remote system \[(?:akka|pekko)(?:\.ssl)?\.tcp://flink@(?P<host>[A-Za-z0-9.-]+):(?P<port>6123)\] has failed",
        title: "the connection to the JobManager at {host}:{port} failed",
        explanation: "the RPC connection to the JobManager failed (it is down, restarting, or its address does not resolve)",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &["SIG-AKKA-GATED"],
        examples: &["Association with remote system [akka.tcp://flink@orders-jobmanager:6123] has failed, address is now gated for [50] ms. Reason: [Association failed with [akka.tcp://flink@orders-jobmanager:6123]] Caused by: [java.net.UnknownHostException: orders-jobmanager]"],
        unless: &[],
        sources: &[
            "apache/pekko@v1.1.0:remote/src/main/scala/org/apache/pekko/remote/Endpoint.scala",
        ],
    },
    Signature {
        id: "SIG-JM-UNKNOWN-HOST",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["UnknownHostException: "],
        pattern: r"UnknownHostException: (?P<host>[A-Za-z0-9.-]*(?:jobmanager|-rest\b|-jm\b)[A-Za-z0-9.-]*)",
        title: "the JobManager's name {host} does not resolve",
        explanation: "DNS has no record for the JobManager's address: the Service is missing, in another namespace, or misnamed",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &[],
        examples: &[
            "java.net.UnknownHostException: flink-jobmanager: Temporary failure in name resolution",
            "Caused by: java.net.UnknownHostException: orders-rest.analytics: Name or service not known",
        ],
        unless: &[],
        sources: &[
            "observed:java.net.UnknownHostException: <host>: Temporary failure in name resolution / Name or service not known (JDK resolver with the glibc gai_strerror text)",
        ],
    },
    Signature {
        id: "SIG-JM-CONNECTION-REFUSED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Connection refused: "],
        pattern: r"Connection refused: (?P<host>[A-Za-z0-9.-]+)(?:/[0-9a-fA-F.:]+)?:(?P<port>6123|8081)\b",
        title: "the JobManager at {host}:{port} refuses connections",
        explanation: "nothing listens on the JobManager's RPC/REST port at that address: it is down, still starting, or the Service points elsewhere",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.shaded.netty4.io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: orders-rest.analytics/10.96.14.2:8081",
            "java.net.ConnectException: Connection refused: flink-jobmanager/10.96.3.7:6123",
        ],
        unless: &[],
        sources: &[
            "netty/netty@netty-4.1.128.Final:transport/src/main/java/io/netty/channel/AbstractChannel.java",
            "observed:java.net.ConnectException: Connection refused (JDK socket connect, ECONNREFUSED)",
        ],
    },
    // Flink's REST client (shaded Netty) refused on a port of the NodePort range (30000-32767):
    // the JobManager's REST Service exposed as NodePort, reached at an address that does not serve it.
    Signature {
        id: "SIG-REST-NODEPORT-REFUSED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["AnnotatedConnectException: Connection refused: "],
        pattern: r"shaded\.netty4\.io\.netty\.channel\.AbstractChannel\$AnnotatedConnectException: Connection refused: (?P<host>[A-Za-z0-9.-]+)?/(?P<ip>[0-9a-fA-F.:]+?):(?P<port>3[01]\d{3}|32[0-6]\d{2}|327[0-5]\d|3276[0-7])\b",
        title: "the JobManager's REST NodePort {port} refuses connections at {ip}",
        explanation: "Flink's REST client was refused on a NodePort: the JobManager's REST Service is exposed as NodePort, and the address the client uses does not serve that port (not a node's IP, or no Ready JobManager behind it)",
        fix: "reach the NodePort on a node's IP (`kubectl get nodes -o wide`) and check the REST Service has endpoints; Flink clients before 1.14 build the NodePort URL from the Kubernetes API server's address, which is not a node in managed clusters: use `kubernetes.rest-service.exposed.type: LoadBalancer` (or an Ingress), run the client inside the cluster with ClusterIP, or use Flink 1.14 or later",
        verify: "kubectl get svc -o wide | grep -- -rest",
        explains: &[],
        supersedes: &[],
        examples: &["Caused by: org.apache.flink.shaded.netty4.io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.192.0.1:30990"],
        unless: &[],
        sources: &[
            "netty/netty@netty-4.1.128.Final:transport/src/main/java/io/netty/channel/AbstractChannel.java",
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/services/NodePortService.java",
        ],
    },
    // Flink's KubernetesClusterDescriptor: the REST client cannot be built, in practice because the
    // REST address does not resolve from where the client runs (a ClusterIP Service name outside the
    // cluster; FLINK-20944).
    Signature {
        id: "SIG-REST-CLIENT-NOT-CREATED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["Could not create the RestClusterClient"],
        pattern: r"Could not create the RestClusterClient",
        title: "the Flink client cannot reach the JobManager's REST endpoint",
        explanation: "the Flink client could not build its REST client for the cluster: the REST address it got from the Kubernetes Service (with `kubernetes.rest-service.exposed.type: ClusterIP`, the in-cluster name `<cluster-id>-rest.<namespace>`) does not resolve or connect from where the client runs",
        fix: "run the client (or the tool that submits and watches jobs) inside the cluster network, or expose the REST Service so the client can reach it: `kubernetes.rest-service.exposed.type: LoadBalancer` or `NodePort`, or an Ingress; the `Caused by:` below this line names the address that failed",
        verify: "kubectl get svc -o wide | grep -- -rest",
        explains: &[],
        supersedes: &[],
        examples: &["java.lang.RuntimeException: org.apache.flink.client.deployment.ClusterRetrieveException: Could not create the RestClusterClient."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/KubernetesClusterDescriptor.java",
        ],
    },
    // StreamPark's FlinkJobStatusWatcher: the jobs overview at the JobManager REST URL StreamPark
    // derived (the rest Service, an ingress host, a NodePort or LoadBalancer address) failed, and so
    // did the retry with a refreshed URL; the job then shows STARTING/INITIALIZING in StreamPark.
    Signature {
        id: "SIG-STREAMPARK-REST-UNREACHABLE",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["Failed to visit remote flink jobs on kubernetes-native-mode cluster", "The retry fetch failed, final status failed"],
        pattern: r"Failed to visit remote flink jobs on kubernetes-native-mode cluster|The retry fetch failed, final status failed, errorStack=(?P<reason>[^\n]*)",
        title: "StreamPark cannot reach the JobManager's REST endpoint{reason| }",
        explanation: "StreamPark watches a Kubernetes job through the JobManager's REST API at the URL it derives for the cluster (the `<cluster-id>-rest` Service, the ingress host when an ingress domain is set, or a NodePort/LoadBalancer address); the request failed and so did the retry, so StreamPark shows the job as starting whatever Flink does",
        fix: "find the URL StreamPark uses (`retrieve flink jobManager rest url:` in its log) and make it reachable from StreamPark: the `<cluster-id>-rest` Service must exist (`kubectl get svc -n <namespace> | grep -- -rest`); with an ingress domain, the Ingress needs an ingressClassName the controller serves and a scheme (http/https) that matches its TLS; with ClusterIP, StreamPark must run inside the cluster network. If the JobManager itself is gone, read its log for why the job stopped",
        verify: "kubectl get svc,ingress -n <namespace>",
        explains: &[],
        supersedes: &[],
        examples: &[
            "2022-10-14 17:15:51 | WARN  | ForkJoinPool-1-worker-4 | org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher:220] Failed to visit remote flink jobs on kubernetes-native-mode cluster, and the retry access logic is performed.",
            "15:00:30.975 [ForkJoinPool-1-worker-17] WARN org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher - The retry fetch failed, final status failed, errorStack=status code: 404, reason phrase: Not Found.",
        ],
        unless: &[],
        sources: &[
            "apache/streampark@v2.1.1:streampark-flink/streampark-flink-kubernetes/src/main/scala/org/apache/streampark/flink/kubernetes/watcher/FlinkJobStatusWatcher.scala",
            "apache/streampark@v2.1.7:streampark-flink/streampark-flink-kubernetes/src/main/scala/org/apache/streampark/flink/kubernetes/watcher/FlinkJobStatusWatcher.scala",
        ],
    },
    // Flink <= 1.4 client (JobSubmissionClientActor): the job jars go to the JobManager's BlobServer
    // on blob.server.port, a second port besides 6123.
    Signature {
        id: "SIG-BLOB-UPLOAD-FAILED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Could not upload the jar files to the job manager"],
        pattern: r"Could not upload the jar files to the job manager",
        title: "the client cannot upload the job's jars to the JobManager's BlobServer",
        explanation: "the client reached the JobManager's RPC port but not its BlobServer, which receives the job jars on `blob.server.port` (random unless fixed): the port is not exposed by the Service or the network drops the connection",
        fix: "fix the BlobServer port (`blob.server.port: 6124` in flink-conf.yaml) and expose it on the JobManager Service next to 6123 and 8081; check that no NetworkPolicy or CNI rule blocks it between the client and the JobManager pod",
        verify: JM_VERIFY,
        explains: &[],
        supersedes: &[],
        examples: &["org.apache.flink.client.program.ProgramInvocationException: The program execution failed: Could not upload the jar files to the job manager."],
        unless: &[],
        sources: &[
            "apache/flink@45397fe974e1:flink-runtime/src/main/java/org/apache/flink/runtime/client/JobSubmissionClientActor.java",
        ],
    },
    // Flink <= 1.4 JobManager: its actor system cannot start at jobmanager.rpc.address.
    Signature {
        id: "SIG-JM-ACTOR-SYSTEM-FAILED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Could not create JobManager actor system", "Unable to create JobManager at address"],
        pattern: r"Could not create JobManager actor system|Unable to create JobManager at address (?P<host>[A-Za-z0-9.-]+)",
        title: "the JobManager cannot start its RPC endpoint at jobmanager.rpc.address",
        explanation: "the JobManager binds its RPC endpoint to `jobmanager.rpc.address`; in Kubernetes that is the JobManager Service's name, which must resolve (the Service exists) before the JobManager starts",
        fix: "create the JobManager Service before (or with) the JobManager, in the same namespace, and set `jobmanager.rpc.address` to its name; the `Caused by:` below this line says whether the name did not resolve or the address is not this pod's",
        verify: JM_VERIFY,
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "java.lang.Exception: Could not create JobManager actor system",
            "java.lang.Exception: Unable to create JobManager at address flink-jobmanager:6123 - Cannot assign requested address",
        ],
        unless: &[],
        sources: &[
            "apache/flink@174ea06cc6b1:flink-runtime/src/main/scala/org/apache/flink/runtime/jobmanager/JobManager.scala",
        ],
    },
    // Akka/Pekko remoting: a message addressed to flink@<name>:6123 reached a JobManager bound to
    // another name (jobmanager.rpc.address differs from the name the TaskManagers use).
    Signature {
        id: "SIG-JM-NON-LOCAL-RECIPIENT",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["for non-local recipient [Actor["],
        pattern: r"dropping message \[[^\]]*\] for non-local recipient \[Actor\[(?:akka|pekko)(?:\.ssl)?\.tcp://flink@(?P<host>[A-Za-z0-9.-]+):(?P<port>6123)/[^\]]*\]\] arriving at \[[^\]]*\] inbound addresses are \[(?:akka|pekko)(?:\.ssl)?\.tcp://flink@(?P<bound>[A-Za-z0-9.-]+):\d+\]",
        title: "the JobManager drops messages for {host}:{port}: it is bound to {bound}",
        explanation: "Flink's RPC only accepts messages addressed to the exact host name the JobManager bound to (its `jobmanager.rpc.address`), and the TaskManagers address it by another name",
        fix: "use one name on both sides: set `jobmanager.rpc.address` on the JobManager to the Service name the TaskManagers connect to ({host}), and do not override it with the pod IP or another host name in the JobManager's args or environment",
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &[],
        examples: &["2021-08-27 09:16:57,917 ERROR akka.remote.EndpointWriter [] - dropping message [class akka.actor.ActorSelectionMessage] for non-local recipient [Actor[akka.tcp://flink@jobmanager-hs:6123/]] arriving at [akka.tcp://flink@jobmanager-hs:6123] inbound addresses are [akka.tcp://flink@cluster:6123]"],
        unless: &[],
        sources: &[
            "apache/pekko@v1.1.0:remote/src/main/scala/org/apache/pekko/remote/Endpoint.scala",
        ],
    },
    Signature {
        id: "SIG-JM-HEARTBEAT-TIMEOUT",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &[
            "eartbeat of JobManager with id",
            "eartbeat of ResourceManager with id",
            "JobManager with id",
            "ResourceManager with id",
        ],
        pattern: r"[Hh]eartbeat of (?P<component>JobManager|ResourceManager) with id (?P<id>\S+?)\.? timed out|\b(?P<component_2>JobManager|ResourceManager) with id (?P<id_2>\S+?)\.? is no longer reachable",
        title: "the {component} stopped answering heartbeats",
        explanation: "the JobManager side stopped answering heartbeats: it restarted, stalled (GC) or the network between the pods broke",
        fix: "check whether the JobManager restarted (`kubectl get pods -l component=jobmanager`, restart count, its previous log); long GC pauses in the JobManager also miss heartbeats",
        verify: "kubectl get pods -l component=jobmanager",
        explains: &[],
        supersedes: &[],
        examples: &[
            "java.util.concurrent.TimeoutException: The heartbeat of ResourceManager with id 8e1c0a3c7e2b4f7f9b0c1d2e3f4a5b6c timed out.",
            "org.apache.flink.runtime.jobmaster.exceptions.JobMasterException: JobManager with id 00000000000000000000000000000000 is no longer reachable.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/JobMaster.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/taskexecutor/TaskExecutor.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/resourcemanager/ResourceManager.java",
        ],
    },
    // Operator SessionJobReconciler.
    Signature {
        id: "SIG-SESSION-CLUSTER-NOT-FOUND",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Session cluster deployment is not found"],
        pattern: r"Session cluster deployment is not found",
        title: "the FlinkSessionJob's session cluster does not exist",
        explanation: "the FlinkSessionJob names a session cluster (spec.deploymentName) that has no FlinkDeployment, so there is no JobManager to submit it to",
        fix: "create the session FlinkDeployment named in the FlinkSessionJob's spec.deploymentName (in the same namespace, without spec.job), or correct spec.deploymentName",
        verify: "kubectl get flinksessionjob,flinkdeployment",
        explains: &[],
        supersedes: &[],
        examples: &["2026-11-28 09:40:00,001 WARN  org.apache.flink.kubernetes.operator.reconciler.sessionjob.SessionJobReconciler [prod/orders-job] Session cluster deployment is not found"],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/reconciler/sessionjob/SessionJobReconciler.java",
        ],
    },
    // --- cluster: slots ------------------------------------------------------------------------
    Signature {
        id: "SIG-NO-RESOURCES",
        category: Category::NoSlots,
        severity: Severity::Critical,
        literals: &[
            "NoResourceAvailableException",
            "Could not acquire the minimum required resources",
            "Slot request bulk is not fulfillable",
            "Could not allocate the required slot within slot request timeout",
            "Could not allocate all requires slots within timeout",
        ],
        pattern: r"NoResourceAvailableException|Could not acquire the minimum required resources|Slot request bulk is not fulfillable|Could not allocate the required slot within slot request timeout|Could not allocate all requires slots within timeout",
        title: "the job cannot get the task slots it needs",
        explanation: "the scheduler could not get enough task slots in time: too few TaskManagers registered, or the job's parallelism exceeds the slots",
        fix: SLOTS_FIX,
        verify: "kubectl get pods -l component=taskmanager",
        explains: &["SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.",
            "java.util.concurrent.CompletionException: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Slot request bulk is not fulfillable! Could not allocate the required slot within slot request timeout",
            "2026-11-28 09:45:00,000 WARN  org.apache.flink.runtime.jobmaster.slotpool.DeclarativeSlotPoolBridge [] - Could not acquire the minimum required resources, failing slot requests. Acquired: []. Current slot pool status: Registered TMs: 0, registered slots: 0 free slots: 0",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/slotpool/DeclarativeSlotPoolBridge.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/slotpool/PhysicalSlotRequestBulkCheckerImpl.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/DefaultExecutionDeployer.java",
            "apache/flink@e6f888e62741:flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/SchedulingUtils.java",
        ],
    },
    // --- schedule: Pending pods (kube-scheduler FailedScheduling) ------------------------------
    Signature {
        id: "SIG-SCHED-INSUFFICIENT",
        category: Category::PodUnschedulable,
        severity: Severity::Critical,
        literals: &["Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage", "Too many pods", "Insufficient nvidia.com/gpu"],
        pattern: r"\d+ (?:Insufficient (?P<resource>cpu|memory|ephemeral-storage|nvidia\.com/gpu)|Too many (?P<resource_2>pods))",
        title: "pods stay Pending: no node has enough {resource}",
        explanation: "the scheduler found no node with enough free allocatable resources for the pod's requests",
        fix: "lower the pod's {resource} request (spec.jobManager/taskManager.resource, which Flink uses as request and limit) or add node capacity (a bigger node pool, or let the cluster autoscaler scale up)",
        verify: SCHEDULE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "  Warning  FailedScheduling  2m (x5 over 7m)  default-scheduler  0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
            "0/2 nodes are available: 2 Too many pods. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
            "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources/fit.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/types.go",
            "kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go",
        ],
    },
    Signature {
        id: "SIG-SCHED-AFFINITY",
        category: Category::PodUnschedulable,
        severity: Severity::Critical,
        literals: &["didn't match Pod's node affinity", "didn't match node selector"],
        pattern: r"node\(s\) didn't match (?:Pod's node affinity(?:/selector)?|node selector)",
        title: "pods stay Pending: no node matches their node selector/affinity",
        explanation: "the pod's nodeSelector or node affinity (pod template or kubernetes.*.node-selector) matches no schedulable node",
        fix: "fix the nodeSelector / affinity in the pod template (or `kubernetes.jobmanager.node-selector` / `kubernetes.taskmanager.node-selector`) so it matches existing node labels (`kubectl get nodes --show-labels`)",
        verify: SCHEDULE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &["0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling."],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@00d375050338:pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go",
            "observed:kube-scheduler up to Kubernetes 1.19 reports 'node(s) didn't match node selector'",
        ],
    },
    Signature {
        id: "SIG-SCHED-TAINT",
        category: Category::PodUnschedulable,
        severity: Severity::Critical,
        literals: &["untolerated taint", "that the pod didn't tolerate"],
        pattern: r"had (?:untolerated )?taints? \{(?P<taint>[^}]*)\}|had untolerated taint\(s\)|had taints that the pod didn't tolerate",
        title: "pods stay Pending: nodes have the taint {taint|(see `kubectl describe nodes`)} the pod does not tolerate",
        explanation: "every candidate node carries a taint the pod has no toleration for",
        fix: "add a toleration for `{taint|the nodes' taint (kubectl describe nodes | grep Taints)}` to the pod template (or `kubernetes.jobmanager.tolerations` / `kubernetes.taskmanager.tolerations`), or schedule onto nodes without it",
        verify: SCHEDULE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
            "0/3 nodes are available: 3 node(s) had taint {dedicated: kafka}, that the pod didn't tolerate.",
            "  Warning  FailedScheduling  5s    default-scheduler  0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go",
            "kubernetes/kubernetes@007f7ae7dc21:pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go",
            "observed:FailedScheduling events of recent kube-scheduler releases say 'N node(s) had untolerated taint(s)' without the taint",
        ],
    },
    Signature {
        id: "SIG-SCHED-PVC",
        category: Category::PodUnschedulable,
        severity: Severity::Critical,
        literals: &["unbound immediate PersistentVolumeClaims", "persistentvolumeclaim \""],
        pattern: r#"pod has unbound immediate PersistentVolumeClaims|persistentvolumeclaim "(?P<pvc>[^"]+)" not found"#,
        title: "pods stay Pending: a PersistentVolumeClaim is missing or unbound",
        explanation: "the pod mounts a PersistentVolumeClaim that does not exist or cannot be bound",
        fix: "create the PersistentVolumeClaim {pvc|the pod mounts} (or fix its name in the pod template) and make sure its StorageClass can provision it (`kubectl get pvc`)",
        verify: "kubectl get pvc",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
            r#"0/3 nodes are available: persistentvolumeclaim "flink-checkpoints" not found."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding/volume_binding.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/framework/types.go",
        ],
    },
    // --- schedule: quota and limits (admission) --------------------------------------------------
    Signature {
        id: "SIG-QUOTA-EXCEEDED",
        category: Category::ResourceQuotaExceeded,
        severity: Severity::Critical,
        literals: &["exceeded quota: "],
        pattern: r#"exceeded quota: (?P<quota>[a-z0-9.-]+)(?:, requested: (?P<requested>[^ ]+), used: (?P<used>[^ ]+), limited: (?P<limited>[^\s"]+))?"#,
        title: "ResourceQuota {quota} rejects the pod (requested {requested|more than is left})",
        explanation: "the namespace's ResourceQuota has no room left for the pod, so it is never created",
        fix: "free quota in the namespace, raise ResourceQuota `{quota}` (`kubectl edit resourcequota {quota}`), or lower spec.jobManager/taskManager.resource (requested {requested|?}, used {used|?}, limited {limited|?})",
        verify: "kubectl describe resourcequota {quota}",
        explains: NO_TASKMANAGERS,
        supersedes: &["SIG-FABRIC8-STATUS-403"],
        examples: &[r#"Error creating: pods "orders-taskmanager-1-3" is forbidden: exceeded quota: compute-resources, requested: limits.memory=4Gi,requests.memory=4Gi, used: limits.memory=14Gi,requests.memory=14Gi, limited: limits.memory=16Gi,requests.memory=16Gi"#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/resourcequota/controller.go",
        ],
    },
    Signature {
        id: "SIG-QUOTA-MUST-SPECIFY",
        category: Category::ResourceQuotaExceeded,
        severity: Severity::Critical,
        literals: &["failed quota: "],
        pattern: r"failed quota: (?P<quota>[a-z0-9.-]+): must specify (?P<requested>[\w.,]+)",
        title: "ResourceQuota {quota} rejects pods that do not set {requested}",
        explanation: "the namespace's ResourceQuota requires every container to declare these requests/limits; a container in the pod does not",
        fix: "set {requested} on every container of the pod template, sidecars and init containers included (Flink sets them only on flink-main-container), or add a LimitRange with defaults",
        verify: "kubectl describe resourcequota {quota}",
        explains: NO_TASKMANAGERS,
        supersedes: &["SIG-FABRIC8-STATUS-403"],
        examples: &[r#"Error creating: pods "orders-7c9f8d7b5-x2x9q" is forbidden: failed quota: compute-resources: must specify limits.cpu,limits.memory"#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/resourcequota/controller.go",
            "kubernetes/kubernetes@d7ce957d8a87:pkg/quota/v1/evaluator/core/pods.go",
        ],
    },
    Signature {
        id: "SIG-LIMITRANGE",
        category: Category::ResourceQuotaExceeded,
        severity: Severity::Critical,
        literals: &["usage per Container is", "usage per Pod is"],
        pattern: r"(?P<bound>[Mm]aximum|[Mm]inimum) (?P<resource>cpu|memory|ephemeral-storage) usage per (?P<scope>Container|Pod) is (?P<value>[^,\s]+?)\.?(?:,|\s|$)",
        title: "a LimitRange rejects the pod: {bound} {resource} per {scope} is {value}",
        explanation: "the namespace's LimitRange rejects the pod's requests or limits",
        fix: "keep spec.jobManager/taskManager.resource within the LimitRange ({bound} {resource} per {scope}: {value}) or change the LimitRange (`kubectl get limitrange -o yaml`)",
        verify: "kubectl get limitrange -o yaml",
        explains: NO_TASKMANAGERS,
        supersedes: &["SIG-FABRIC8-STATUS-403"],
        examples: &[
            r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: maximum memory usage per Container is 2Gi, but limit is 4Gi"#,
            r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: [maximum memory usage per Pod is 8Gi, but limit is 12Gi., maximum cpu usage per Container is 2, but limit is 4.]"#,
            r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: Maximum memory usage per Container is 2Gi.  No limit is specified."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@8f672ecf2088:plugin/pkg/admission/limitranger/admission.go",
            "kubernetes/kubernetes@0061479890dd:plugin/pkg/admission/limitranger/admission.go",
        ],
    },
    // --- schedule: images (kubelet events, container waiting reasons) ---------------------------
    Signature {
        id: "SIG-IMAGE-PULL-DENIED",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["pull access denied", "Failed to pull image"],
        pattern: r#"(?:Failed to pull image "(?P<image>[^"]+)".*?)?(?:pull access denied|authorization failed|: 401 Unauthorized|: 403 Forbidden|no basic auth credentials|: unauthorized)"#,
        title: "the registry refuses to serve image {image|the image} (no access)",
        explanation: "the registry refused the pull: the repository does not exist or the pull needs credentials the pod does not have",
        fix: "check the image name {image|}; for a private registry create a docker-registry Secret and reference it (`kubectl create secret docker-registry regcred --docker-server=... --docker-username=... --docker-password=...`, then `imagePullSecrets: [{name: regcred}]` in the pod template or on the ServiceAccount)",
        verify: IMAGE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[r#"  Warning  Failed     14s (x2 over 30s)  kubelet  Failed to pull image "acme/flink-orders:1.4": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/acme/flink-orders:1.4": failed to resolve reference "docker.io/acme/flink-orders:1.4": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"#],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/images/image_manager.go",
            "containerd/containerd@v2.2.7:internal/cri/server/images/image_pull.go",
            "containerd/containerd@v2.2.7:client/pull.go",
            "containerd/containerd@v2.2.7:core/remotes/docker/resolver.go",
            "containerd/containerd@v2.2.7:core/remotes/docker/authorizer.go",
            "containerd/containerd@v2.2.7:core/remotes/errors/errors.go",
        ],
    },
    Signature {
        id: "SIG-IMAGE-NOT-FOUND",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["manifest unknown", "Failed to pull image"],
        pattern: r#"(?:Failed to pull image "(?P<image>[^"]+)".*?)?(?:manifest unknown|code = NotFound|: not found\b)"#,
        title: "image {image|the image} does not exist (no such tag)",
        explanation: "the registry has no image with this name and tag",
        fix: "use an existing tag for {image|the image} (`docker manifest inspect <image>` or the registry UI), e.g. one of the official `flink:<version>-java17` tags",
        verify: IMAGE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            r#"  Warning  Failed     5s    kubelet  Failed to pull image "flink:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/flink:1.99": failed to resolve reference "docker.io/library/flink:1.99": docker.io/library/flink:1.99: not found"#,
            "Error response from daemon: manifest for flink:1.99 not found: manifest unknown: manifest unknown",
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/images/image_manager.go",
            "containerd/containerd@v2.2.7:internal/cri/server/images/image_pull.go",
            "containerd/containerd@v2.2.7:client/pull.go",
            "containerd/containerd@v2.2.7:core/remotes/docker/resolver.go",
            "distribution/distribution@v3.1.1:registry/api/errcode/register.go",
            "observed:Docker daemon: Error response from daemon: manifest for <image> not found: manifest unknown",
        ],
    },
    Signature {
        id: "SIG-IMAGE-PULL-X509",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["Failed to pull image"],
        pattern: r#"Failed to pull image "(?P<image>[^"]+)".*?x509: (?P<x509>[^"]+)"#,
        title: "the node does not trust the registry's certificate for {image}",
        explanation: "the container runtime on the node cannot verify the registry's TLS certificate (a private CA the nodes do not trust)",
        fix: "install the registry's CA on the nodes' container runtime (containerd: /etc/containerd/certs.d/<registry>/ca.crt) or use a registry with a publicly trusted certificate",
        verify: IMAGE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[r#"Failed to pull image "registry.acme.local/flink:1.20": rpc error: code = Unknown desc = failed to pull and unpack image "registry.acme.local/flink:1.20": failed to resolve reference "registry.acme.local/flink:1.20": failed to do request: Head "https://registry.acme.local/v2/flink/manifests/1.20": tls: failed to verify certificate: x509: certificate signed by unknown authority"#],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/images/image_manager.go",
            "containerd/containerd@v2.2.7:internal/cri/server/images/image_pull.go",
            "containerd/containerd@v2.2.7:client/pull.go",
            "containerd/containerd@v2.2.7:core/remotes/docker/resolver.go",
            "golang/go@ab02c2e0290a:src/crypto/tls/handshake_client.go",
            "golang/go@0184fe5ece4f:src/crypto/x509/verify.go",
        ],
    },
    Signature {
        id: "SIG-IMAGE-PULL",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["ErrImagePull", "ImagePullBackOff", "Back-off pulling image", "Failed to pull image", "InvalidImageName"],
        pattern: r#"(?:Failed to pull image|Back-off pulling image) (?:"(?P<image>[^"]+)"|(?P<image_2>[^"\s:]+))|\b(?:ErrImagePull|ImagePullBackOff|InvalidImageName)\b"#,
        title: "image {image|of a Flink container} cannot be pulled",
        explanation: "the kubelet cannot pull the container image (the events say why: name, tag, credentials or registry TLS)",
        fix: "check the image reference {image|} (`spec.image` of the FlinkDeployment) and that the node can pull it: `kubectl describe pod {pod|<pod>} -n {pod_namespace|<namespace>}` shows the registry's answer in the Failed event",
        verify: IMAGE_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            r#"  Normal   BackOff    3s (x4 over 60s)  kubelet  Back-off pulling image "flink:1.99""#,
            "      Reason:       ImagePullBackOff",
            "  Warning  Failed     12s (x3 over 50s)  kubelet  Error: ErrImagePull",
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/images/image_manager.go",
            "kubernetes/kubernetes@0a2f5b122db7:pkg/kubelet/images/types.go",
            "kubernetes/kubectl@kubernetes-1.36.3:pkg/describe/describe.go",
        ],
    },
    // --- runtime: the image cannot run Flink as deployed ----------------------------------------
    Signature {
        id: "SIG-EXEC-FORMAT",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["exec format error"],
        pattern: r"(?:exec (?P<path>/\S+): )?exec format error",
        title: "the image is built for another CPU architecture",
        explanation: "the container's entrypoint binary is for another CPU architecture than the node (e.g. an arm64 image on amd64 nodes)",
        fix: "use an image built for the nodes' architecture (`kubectl get nodes -L kubernetes.io/arch`; build multi-arch with `docker buildx build --platform linux/amd64,linux/arm64`), or pin the pods to matching nodes with a nodeSelector on kubernetes.io/arch",
        verify: "kubectl get nodes -L kubernetes.io/arch",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &["exec /docker-entrypoint.sh: exec format error", "standard_init_linux.go:228: exec user process caused: exec format error"],
        unless: &[],
        sources: &[
            "opencontainers/runc@v1.5.1:internal/linux/linux.go",
            "opencontainers/runc@v1.0.0:libcontainer/standard_init_linux.go",
        ],
    },
    Signature {
        id: "SIG-FLINK-SCRIPT-MISSING",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["kubernetes-jobmanager.sh", "kubernetes-taskmanager.sh", ".sh: not found", ".sh: No such file or directory", ".sh\": executable file not found"],
        pattern: r#"(?P<script>[\w./-]*\.sh)"?: (?:line \d+: )?(?:not found|No such file or directory|executable file not found)"#,
        title: "the image has no {script}: it is not a Flink image (or not the layout Flink expects)",
        explanation: "the container starts Flink's scripts (docker-entrypoint.sh, kubernetes-jobmanager.sh, ...) but the image does not have them: it is not built FROM the official Flink image, or its FLINK_HOME differs",
        fix: "build the image FROM the official `flink:<version>` image (keeping /docker-entrypoint.sh and /opt/flink/bin), and do not override the container's command/args in the pod template",
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "/docker-entrypoint.sh: line 135: /opt/flink/bin/kubernetes-jobmanager.sh: No such file or directory",
            "sh: 1: /opt/flink/bin/kubernetes-taskmanager.sh: not found",
            r#"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "kubernetes-jobmanager.sh": executable file not found in $PATH: unknown"#,
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/Constants.java",
            "apache/flink-docker@0ac313e39fda:docker-entrypoint.sh",
            r#"observed:bash/dash 'No such file or directory' / 'not found', and runc's 'exec: "<cmd>": executable file not found in $PATH', for a script the image lacks"#,
        ],
    },
    // flink-dist's bin/taskmanager.sh and jobmanager.sh (1.10+) call functions that only the
    // config.sh of the same release defines: scripts of two Flink versions mixed in one image.
    Signature {
        id: "SIG-FLINK-SCRIPTS-MIXED-VERSIONS",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["runBashJavaUtilsCmd: command not found", "extractExecutionParams: command not found", "extractExecutionResults: command not found", "extractLoggingOutputs: command not found"],
        pattern: r"(?P<script>[\w./-]*\.sh): line \d+: (?P<function>runBashJavaUtilsCmd|extractExecutionParams|extractExecutionResults|extractLoggingOutputs): command not found",
        title: "{script} calls {function}, which the image's config.sh does not define: Flink scripts of two versions are mixed",
        explanation: "Flink's start scripts and bin/config.sh come from different Flink releases (the functions they call were added to config.sh in Flink 1.10): the image, or an operator or chart that brings its own scripts, mixes two Flink versions",
        fix: "use start scripts of the image's own Flink version: build the image FROM one official `flink:<version>` image without copying another release's bin/ over it, and use an operator or chart release made for that Flink version",
        verify: "docker run --rm --entrypoint grep <image> -c {function|<function>} /opt/flink/bin/config.sh   # expect: 1 or more (config.sh defines it)",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "/opt/flink/bin/taskmanager.sh: line 52: runBashJavaUtilsCmd: command not found",
            "/opt/flink/bin/taskmanager.sh: line 53: extractExecutionParams: command not found",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.10.0:flink-dist/src/main/flink-bin/bin/taskmanager.sh",
            "apache/flink@release-1.10.0:flink-dist/src/main/flink-bin/bin/config.sh",
            "observed:bash's '<script>: line N: <name>: command not found' for a function no sourced file defines",
        ],
    },
    // Only "Permission denied": the image's own files are not writable by the container's user,
    // so what the entrypoint writes into them (the JobManager address, FLINK_PROPERTIES) is lost.
    // "Read-only file system" on /opt/flink/conf is no failure: native mode and the operator mount
    // the Flink configuration there from a ConfigMap (FlinkConfMountDecorator), which Kubernetes
    // mounts read-only, and docker-entrypoint.sh (no `set -e`) goes on after its edits fail; every
    // such pod prints those lines and starts (apache/flink-cdc#2802, apache/streampark#2599).
    Signature {
        id: "SIG-FLINK-DIR-NOT-WRITABLE",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["Permission denied"],
        pattern: r"(?P<path>/opt/flink/[^\s:'()]*)'?(?::\s*| \()(?P<error>Permission denied)",
        title: "Flink cannot write {path}: {error}",
        explanation: "the entrypoint or Flink writes under /opt/flink (configuration, logs, plugins) and the container's user may not: it runs with another UID than the image's `flink` user (9999), as OpenShift's arbitrary UIDs or a `securityContext.runAsUser` do",
        fix: "run as the image's user (`securityContext.runAsUser: 9999`, `fsGroup: 9999`), or build the image so the user it runs as owns /opt/flink (`chown -R`/`chgrp -R 0 && chmod -R g=u` for arbitrary UIDs); with readOnlyRootFilesystem mount emptyDirs on /opt/flink/log and /tmp",
        verify: "kubectl exec <pod> -n <namespace> -c flink-main-container -- ls -ld {path|<path>}   # expect: writable by the uid the container runs as",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "cp: cannot create regular file '/opt/flink/conf/flink-conf.yaml': Permission denied",
            "sed: couldn't open temporary file /opt/flink/conf/sedVb8qXz: Permission denied",
        ],
        unless: &[],
        sources: &[
            "apache/flink-docker@0ac313e39fda:docker-entrypoint.sh",
            "observed:GNU sed, cp and bash redirection errors (Permission denied) on /opt/flink/conf",
        ],
    },
    // Native mode starts the main container as `bash -c "kubernetes-jobmanager.sh <target> ..."`
    // (kubernetes-taskmanager.sh for TaskManagers), scripts flink-dist puts in $FLINK_HOME/bin, which
    // the official image has on its PATH.
    Signature {
        id: "SIG-FLINK-K8S-SCRIPT-NOT-FOUND",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["kubernetes-jobmanager.sh: command not found", "kubernetes-taskmanager.sh: command not found"],
        pattern: r"(?P<script>kubernetes-(?:jobmanager|taskmanager)\.sh): command not found",
        title: "the image has no {script} on its PATH: it cannot start Flink in native Kubernetes mode",
        explanation: "Flink's native Kubernetes mode (and the operator, which uses it) starts the main container with `bash -c \"kubernetes-jobmanager.sh ...\"` (kubernetes-taskmanager.sh for TaskManagers); the image has no such script on its PATH: it is not built FROM the official Flink image, or it replaces the PATH",
        fix: "build the image FROM the official one (`FROM flink:<the Flink version of the client>`), keeping its ENTRYPOINT and `PATH=$FLINK_HOME/bin:$PATH`; a custom base must put flink-dist's bin/ (with kubernetes-jobmanager.sh and kubernetes-taskmanager.sh) on the PATH",
        verify: "docker run --rm --entrypoint ls <image> -l /opt/flink/bin/kubernetes-jobmanager.sh /opt/flink/bin/kubernetes-taskmanager.sh   # expect: both listed",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "bash: line 1: kubernetes-jobmanager.sh: command not found",
            "bash: kubernetes-taskmanager.sh: command not found",
        ],
        unless: &[],
        sources: &[
            "apache/flink@47a02f63da29:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/decorators/CmdJobManagerDecorator.java",
            "apache/flink@release-1.15.1:flink-dist/src/main/flink-bin/kubernetes-bin/kubernetes-jobmanager.sh",
            "observed:https://github.com/apache/streampark/issues/1523 (JobManager log: bash's '<name>: command not found')",
        ],
    },
    // gosu, which the official image's entrypoint uses to drop from root to `flink` (early images
    // always did; current ones only when started as root, see drop_privs_cmd).
    Signature {
        id: "SIG-GOSU-SWITCH-USER",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["error: failed switching to "],
        pattern: r#"error: failed switching to ["'](?P<user>flink)["']:? (?P<error>[\w :.-]*\w)"#,
        title: "the image's entrypoint cannot switch to the `flink` user: {error}",
        explanation: "the image's entrypoint starts as root and switches to the `flink` user with gosu; it fails when the container runs as another user (securityContext.runAsUser) or without the SETUID/SETGID capabilities",
        fix: "use a current official image (its entrypoint only switches users when started as root) and run it as the image's user (`securityContext.runAsUser: 9999`), or keep running as root with the SETUID and SETGID capabilities",
        verify: "kubectl get pod <pod> -n <namespace> -o jsonpath='{.spec.securityContext}'   # expect: no runAsUser the image's entrypoint cannot switch from (or run as 9999, flink)",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            r#"error: failed switching to "flink": operation not permitted"#,
            "error: failed switching to 'flink': operation not permitted",
        ],
        unless: &[],
        sources: &[
            "tianon/gosu@1.10:main.go",
            "tianon/gosu@1.19:main.go",
            "apache/flink-docker@0ac313e39fda:docker-entrypoint.sh",
        ],
    },
    // The JobManager's REST API without web submission (the client's RestClient puts the server's
    // errors in brackets: `[POST request not allowed]`). The operator submits a FlinkSessionJob by
    // uploading its jar to the session cluster (JarUploadHeaders then JarRunHeaders: POST
    // /jars/upload, then /jars/:jarid/run; apache/flink-kubernetes-operator@release-1.10.0:
    // flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/
    // AbstractFlinkService.java), routes
    // that only flink-runtime-web's WebSubmissionExtension registers; DispatcherRestEndpoint's
    // initializeWebSubmissionHandlers loads it when `web.submit.enable` is true (WebOptions.
    // SUBMIT_ENABLE in flink-core, default true, deprecated key `jobmanager.web.submit.enable`)
    // and flink-runtime-web is on the classpath (WebMonitorUtils.isFlinkRuntimeWebInClassPath;
    // the official image's flink-dist jar bundles it: apache/flink@00284fb8131e:flink-dist/pom.xml
    // lists it as a dependency of the dist jar), and logs one of two INFO lines otherwise, the same
    // words from release-1.16.0 to release-2.1.0. Since 1.19.1 FileUploadHandler answers a
    // multipart POST to a route nobody registered with 400 "POST request not allowed" (1.16.0 to
    // 1.19.0 have no such check). The JobManager lines are Info: a cluster that takes no session
    // jobs may turn web submission off on purpose.
    Signature {
        id: "SIG-WEB-SUBMIT-REFUSED",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["POST request not allowed"],
        pattern: r"POST request not allowed",
        title: "the session cluster's REST API refuses the job's jar upload: web.submit.enable is false or flink-runtime-web is missing",
        explanation: "the JobManager's REST API refused a jar upload (`POST request not allowed`): it serves the upload routes the operator submits a FlinkSessionJob through (/jars/upload, /jars/<jar>/run) only with web submission on, that is with `web.submit.enable` true (its default) and flink-runtime-web on the JobManager's classpath",
        fix: "turn web submission on in the session cluster. The JobManager's log says at startup what turns it off:\n\n  kubectl logs -n <namespace> -l app=<deployment>,component=jobmanager -c flink-main-container | grep -i 'web.based job submission'\n\n`Web-based job submission is not enabled.`: remove `web.submit.enable: \"false\"` from the session FlinkDeployment's spec.flinkConfiguration (its default is true; or set it to \"true\", which also overrides the deprecated `jobmanager.web.submit.enable` and the operator's default configuration). `Failed to load web based job submission extension.`: run an image whose /opt/flink/lib holds flink-runtime-web (the official `flink:<version>` image's flink-dist jar carries it; an image that assembles lib/ without flink-dist needs flink-runtime-web-<version>.jar there)",
        verify: "kubectl logs -n <namespace> -l app=<deployment>,component=jobmanager -c flink-main-container | grep -ci 'web.based job submission'   # expect: 0",
        explains: &[],
        supersedes: &[],
        examples: &[
            "java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]",
            "org.apache.flink.kubernetes.operator.exception.ReconciliationException: java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/FileUploadHandler.java",
            "apache/flink@release-1.19.1:flink-runtime/src/main/java/org/apache/flink/runtime/rest/FileUploadHandler.java",
            "apache/flink@release-2.0.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/FileUploadHandler.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/RestClient.java",
        ],
    },
    Signature {
        id: "SIG-WEB-SUBMIT-DISABLED",
        category: Category::ImageIncompatible,
        severity: Severity::Info,
        literals: &["Web-based job submission is not enabled"],
        pattern: r"Web-based job submission is not enabled",
        title: "the JobManager serves no jar upload: web.submit.enable is false, so it takes no FlinkSessionJob",
        explanation: "the JobManager started its REST API without the web submission routes (/jars/upload, /jars/<jar>/run) because `web.submit.enable` is false: no harm to an application cluster, but the operator submits every FlinkSessionJob through those routes, so a session cluster refuses them all (`POST request not allowed`)",
        fix: "if FlinkSessionJobs run on this cluster, remove the option from the session FlinkDeployment's spec.flinkConfiguration (its default is true; the operator redeploys the cluster):\n\n  kubectl patch flinkdeployment <deployment> -n <namespace> --type=json -p '[{\"op\":\"remove\",\"path\":\"/spec/flinkConfiguration/web.submit.enable\"}]'\n\n(where the spec does not set it, the operator's default configuration or the deprecated `jobmanager.web.submit.enable` does: set `web.submit.enable: \"true\"` in spec.flinkConfiguration, which overrides both)",
        verify: "kubectl logs -n <namespace> -l app=<deployment>,component=jobmanager -c flink-main-container | grep -c 'Web-based job submission is not enabled'   # expect: 0",
        explains: &["SIG-WEB-SUBMIT-REFUSED"],
        supersedes: &[],
        examples: &["2026-12-06 00:06:12,410 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Web-based job submission is not enabled."],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-2.0.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/WebOptions.java",
        ],
    },
    Signature {
        id: "SIG-WEB-SUBMIT-NO-RUNTIME-WEB",
        category: Category::ImageIncompatible,
        severity: Severity::Info,
        literals: &["Failed to load web based job submission extension"],
        pattern: r"Failed to load web based job submission extension",
        title: "the JobManager serves no jar upload: flink-runtime-web is not on its classpath, so it takes no FlinkSessionJob",
        explanation: "the JobManager could not load flink-runtime-web's web submission extension, so its REST API has no jar upload routes (/jars/upload, /jars/<jar>/run): the image's /opt/flink/lib has no flink-runtime-web (the official image's flink-dist jar carries it; an image that assembles lib/ without flink-dist lacks it), and the operator submits every FlinkSessionJob through those routes",
        fix: "if FlinkSessionJobs run on this cluster, give the session cluster an image with flink-runtime-web in /opt/flink/lib: build it FROM the official `flink:<version>` image (its flink-dist jar carries flink-runtime-web), or add flink-runtime-web-<version>.jar of the image's own Flink version to /opt/flink/lib, and point the session FlinkDeployment's spec.image at it",
        verify: "kubectl logs -n <namespace> -l app=<deployment>,component=jobmanager -c flink-main-container | grep -c 'Failed to load web based job submission extension'   # expect: 0",
        explains: &["SIG-WEB-SUBMIT-REFUSED"],
        supersedes: &[],
        examples: &[
            "2026-12-06 00:06:12,410 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Failed to load web based job submission extension. Probable reason: flink-runtime-web is not in the classpath.",
            "2026-12-06 00:06:12,410 DEBUG org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Failed to load web based job submission extension.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-2.0.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/webmonitor/WebMonitorUtils.java",
        ],
    },
    // --- spec -----------------------------------------------------------------------------------
    // Flink KubernetesUtils.loadPodFromTemplateFile.
    Signature {
        id: "SIG-MAIN-CONTAINER-MISSING",
        category: Category::MainContainerMisnamed,
        severity: Severity::Critical,
        literals: &["Could not find main container"],
        pattern: r"Could not find main container (?P<container>\S+) in pod template",
        title: "the pod template has no container named {container}",
        explanation: "Flink found no container named flink-main-container in the pod template, so the template's container runs as an extra sidecar and Flink starts its own from scratch",
        fix: "rename the main container in the pod template (spec.podTemplate / spec.jobManager.podTemplate / spec.taskManager.podTemplate) to `{container}`",
        verify: "kubectl get pod <pod> -n <namespace> -o jsonpath='{.spec.containers[*].name}'   # expect: flink-main-container among the names",
        explains: &[],
        supersedes: &[],
        examples: &["2026-11-28 09:38:01,222 INFO  org.apache.flink.kubernetes.utils.KubernetesUtils [] - Could not find main container flink-main-container in pod template, using empty one to initialize."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/KubernetesUtils.java",
        ],
    },
    Signature {
        id: "SIG-MOUNT-OBJECT-MISSING",
        category: Category::PodtemplateInvalid,
        severity: Severity::Critical,
        literals: &["MountVolume.SetUp failed for volume", "Error: configmap \"", "Error: secret \""],
        pattern: r#"(?:MountVolume\.SetUp failed for volume "(?P<volume>[^"]+)" : |Error: )(?P<kind>configmap|secret) "(?P<object>[^"]+)" not found"#,
        title: "the pod references {kind} {object}, which does not exist",
        explanation: "the pod template mounts or reads a ConfigMap/Secret that does not exist in the namespace, so the container never starts",
        fix: "create {kind} `{object}` in the pod's namespace, or fix its name in the pod template (volume {volume|/ envFrom})",
        verify: "kubectl get {kind} {object}",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            r#"  Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume "hadoop-conf" : configmap "hadoop-config" not found"#,
            r#"  Warning  Failed       5s  kubelet  Error: secret "s3-credentials" not found"#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/volume/util/operationexecutor/operation_generator.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/volume/util/operationexecutor/operation_executor.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/kuberuntime/kuberuntime_container.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
        ],
    },
    // A container's env / envFrom names a key its ConfigMap or Secret does not hold: the kubelet
    // refuses to create the container (CreateContainerConfigError) with this text in its event.
    Signature {
        id: "SIG-ENV-KEY-MISSING",
        category: Category::PodtemplateInvalid,
        severity: Severity::Critical,
        literals: &["couldn't find key "],
        pattern: r"couldn't find key (?P<key>\S+) in (?P<kind>ConfigMap|Secret) (?P<object_namespace>[^/\s]+)/(?P<object>[^\s.,;]+)",
        title: "the pod reads key {key} of {kind} {object}, which it does not hold",
        explanation: "the pod template takes an environment variable from a ConfigMap/Secret key that is not there, so the kubelet does not create the container (CreateContainerConfigError)",
        fix: "add key `{key}` to {kind} `{object}` in namespace {object_namespace}, or fix the key name in the pod template's env (valueFrom.configMapKeyRef / secretKeyRef); mark it `optional: true` only if the container can run without it",
        verify: "kubectl describe {kind} {object} -n {object_namespace}",
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[
            "  Warning  Failed  5s  kubelet  Error: couldn't find key s3.access-key in Secret flink/s3-credentials",
        ],
        unless: &[],
        sources: &["kubernetes/kubernetes@v1.36.3:pkg/kubelet/kubelet_pods.go"],
    },
    // The API server's 422 for the JobManager Deployment or a TaskManager pod Flink creates from the
    // pod template (inside fabric8's "Failure executing: POST ...").
    Signature {
        id: "SIG-POD-SPEC-INVALID",
        category: Category::PodtemplateInvalid,
        severity: Severity::Critical,
        literals: &["\" is invalid: "],
        pattern: r#"(?P<kind>Deployment\.apps|Pod) \\?"(?P<object>[^"\\]+)\\?" is invalid: \[?(?P<field>spec\.(?:template\.spec\.)?(?:containers|initContainers|volumes)\[\d+\][\w.\[\]]*): (?P<reason>Not found|Required value|Invalid value|Unsupported value|Duplicate value)"#,
        title: "the API server rejects {kind} {object}: {field}: {reason}",
        explanation: "the pod spec Flink built from the pod template is invalid (e.g. a volumeMount whose volume is not declared), so the API server refuses to create what Flink built from it",
        fix: "fix {field} in the pod template (spec.podTemplate, spec.jobManager.podTemplate, spec.taskManager.podTemplate or `kubernetes.pod-template-file.*`): every volumeMount needs a volume of the same name under the template's spec.volumes, and names must be unique",
        verify: VALIDATION_VERIFY,
        explains: NO_TASKMANAGERS,
        supersedes: &[],
        examples: &[r#"Failure executing: POST at: https://10.96.0.1/apis/apps/v1/namespaces/default/deployments. Message: Deployment.apps "basic-example" is invalid: [spec.template.spec.containers[0].volumeMounts[0].name: Not found: "flink-logs", spec.template.spec.containers[0].volumeMounts[1].name: Not found: "downloads"]."#],
        unless: &[],
        sources: &[
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/util/validation/field/errors.go",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
        ],
    },
    // Flink's memory utils (TaskExecutorFlinkMemoryUtils, JobManagerFlinkMemoryUtils, ...).
    Signature {
        id: "SIG-FLINK-MEMORY-CONFIG",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &[
            "exceed configured Total Flink Memory",
            "exceed configured Total Process Memory",
            "is not in configured JVM Overhead range",
            "memory configuration failed:",
            "is less than the configured Off-heap Memory",
            "exceeds the configured Total Flink Memory",
            "does not match the configured Total Flink Memory",
            "is less than the sum of the derived Total Flink Memory size",
            "do not add up to the configured Total Process Memory size",
            "Either required fine-grained memory",
            "must not be less than 0",
            "Cannot read total process memory size",
            "Inconsistently configured ",
            "Network Memory size",
            "Network Memory range",
            "do not add up to the configured Total Flink Memory",
            "Managed memory weight should not be negative",
            "Cannot read memory size from config option",
            "Conflict managed memory consumer weights",
            "fraction must be in range [0, 1)",
        ],
        // Every refusal of ProcessMemoryUtils, JobManagerFlinkMemoryUtils, TaskExecutorFlinkMemoryUtils
        // and ManagedMemoryUtils (flink-runtime util/config/memory, swept at release-1.16.0 .. 2.1.0).
        pattern: r"(?:(?P<process>TaskManager|JobManager) memory configuration failed: .*?)?(?:exceed configured Total (?:Flink|Process) Memory|is not in configured JVM Overhead range|memory configuration failed:|is less than the configured Off-heap Memory|exceeds the configured Total Flink Memory|does not match the configured Total Flink Memory|is less than the sum of the derived Total Flink Memory size|do not add up to the configured Total (?:Process|Flink) Memory size|Either required fine-grained memory \(|total process memory size \(\S+\) must not be less than 0|Cannot read total process memory size|Inconsistently configured .{1,80} and its min \(|Derived Network Memory size \(|configured Network Memory range|the Network Memory size is the rest of the Total Flink memory|Managed memory weight should not be negative|Cannot read memory size from config option|Conflict managed memory consumer weights|fraction must be in range \[0, 1\))",
        title: "{process|Flink}'s memory options contradict each other",
        explanation: "Flink cannot derive its memory layout: the configured components do not fit the total (process or Flink) memory",
        fix: "set only the total (spec.taskManager.resource.memory / spec.jobManager.resource.memory) and drop the explicit component sizes (`taskmanager.memory.*.size`, `jobmanager.memory.*.size`) from flinkConfiguration, or raise the total so the components fit as the message computes",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobManagerDeploymentStatus} {.status.jobStatus.state}'   # expect: READY RUNNING (READY alone for a session cluster): Flink derived its memory layout from the options",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Exception in thread \"main\" org.apache.flink.configuration.IllegalConfigurationException: The configured Total Flink Memory (52.000mb (54525952 bytes)) is less than the configured Off-heap Memory (128.000mb (134217728 bytes)).",
            "org.apache.flink.configuration.IllegalConfigurationException: TaskManager memory configuration failed: Sum of configured Framework Heap Memory (128.000mb (134217728 bytes)), Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), Managed Memory (100.800mb (105696462 bytes)) and Network Memory (64.000mb (67108864 bytes)) exceed configured Total Flink Memory (252.000mb (264241152 bytes)).",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/clusterframework/TaskExecutorProcessUtils.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/jobmanager/JobManagerFlinkMemoryUtils.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/jobmanager/JobManagerProcessUtils.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/taskmanager/TaskExecutorFlinkMemoryUtils.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/ProcessMemoryUtils.java",
        ],
    },
    // NetworkBufferPool: the tasks of one TaskManager need more network buffers than its network
    // memory holds (a slot's tasks each take buffers per input and output channel, so the need grows
    // with parallelism and slots). The message ends with the pool's size (getConfigDescription).
    Signature {
        id: "SIG-NETWORK-BUFFERS-INSUFFICIENT",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &[
            "Insufficient number of network buffers",
            "Timeout triggered when requesting exclusive buffers",
        ],
        pattern: r"(?P<net_pool>Insufficient number of network buffers|Timeout triggered when requesting exclusive buffers)(?:: required (?P<net_required>[^,\s]+), but only (?P<net_available>[^.\s]+) available\.)?:?(?: The total number of network buffers is currently set to (?P<net_buffers>\d+) of (?P<net_segment>\d+) bytes each)?",
        title: "a TaskManager's network memory is too small for its tasks",
        explanation: "the tasks deployed on one TaskManager need more network buffers than its network memory holds (each task takes buffers per input and output channel, so the need grows with parallelism and with slots per TaskManager), and the task fails before it runs",
        fix: "{network_fix}",
        verify: "kubectl logs <pod> | grep -F 'Network:'   # expect: the new size, on the Network line of `Final TaskExecutor Memory configuration`",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "java.io.IOException: Insufficient number of network buffers: required 65, but only 16 available. The total number of network buffers is currently set to 2048 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max'.",
            // a paste wrapped inside the message keeps only its head on the line
            "19:29:14 2021/08/27 02:29:14  (): java.io.IOException: Insufficient number of network buffers: required",
            "java.io.IOException: Timeout triggered when requesting exclusive buffers: The total number of network buffers is currently set to 2048 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max',  or you may increase the timeout which is 30000ms by setting the key 'taskmanager.network.memory.exclusive-buffers-request-timeout-ms'.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java",
            "apache/flink@release-1.16.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
            "apache/flink@release-1.17.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
        ],
    },
    // A batch job's blocking shuffle (sort-merge, hybrid) short of memory: SortMergeResultPartition
    // names the min-buffers option (its ConfigOption's toString, `Key: '<key>' , default: ...`), the
    // read schedulers name the batch-shuffle read memory.
    Signature {
        id: "SIG-BATCH-SHUFFLE-MEMORY",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &["Too few sort buffers, please increase", "fierce contention of the batch shuffle read memory"],
        pattern: r"Too few sort buffers, please increase (?:Key: ')?(?P<option>[\w.-]+)|fierce contention of the batch shuffle read memory, please increase '(?P<option_2>[^'\s]+)'",
        title: "a batch job's shuffle is short of memory ({option|shuffle memory})",
        explanation: "a batch job's blocking shuffle (sort-merge or hybrid) could not get the buffers it needs on a TaskManager: the network memory holds fewer sort buffers than a result partition needs, or the tasks reading shuffle data compete for too little read memory",
        fix: "raise `{option|the option the message names}` in flinkConfiguration: `taskmanager.network.sort-shuffle.min-buffers` (default 512) takes its buffers from the network memory, so raise `taskmanager.memory.network.min`/`.max` with it; `taskmanager.memory.framework.off-heap.batch-shuffle.size` (default 64m; 128m or 256m for large batch jobs) is cut from `taskmanager.memory.framework.off-heap.size`, which must stay larger, so raise both; or run fewer slots per TaskManager (`taskmanager.numberOfTaskSlots`)",
        verify: "kubectl get configmap flink-config-<deployment> -n <namespace> -o yaml | grep -F -e sort-shuffle -e batch-shuffle -e framework.off-heap   # expect: the raised values",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "java.io.IOException: Too few sort buffers, please increase Key: 'taskmanager.network.sort-shuffle.min-buffers' , default: 512 (fallback keys: []).",
            "java.util.concurrent.TimeoutException: Buffer request timeout, this means there is a fierce contention of the batch shuffle read memory, please increase 'taskmanager.memory.framework.off-heap.batch-shuffle.size'.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/SortMergeResultPartition.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/SortMergeResultPartitionReadScheduler.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/partition/hybrid/tiered/tier/disk/DiskIOScheduler.java",
            "apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
            "apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/NettyShuffleEnvironmentOptions.java",
        ],
    },
    // MemoryManager / UnsafeMemoryBudget: a slot's managed memory cannot hold what is reserved from
    // it (RocksDB's shared block cache and write buffers, Python workers, batch operators).
    Signature {
        id: "SIG-MANAGED-MEMORY-SHORT",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &[
            "Not enough memory left to reserve from the slot's managed memory",
            "bytes are remaining. This usually indicates that you are requesting more memory than you have reserved",
        ],
        pattern: r"Could not created the shared memory resource of size (?P<size>\S+)\. Not enough memory left to reserve from the slot's managed memory|Could not allocate (?P<size_2>\S+) bytes, only (?P<remaining>\S+) bytes are remaining\. This usually indicates that you are requesting more memory than you have reserved",
        title: "a slot's managed memory is too small for what reserves it (RocksDB, Python, batch operators)",
        explanation: "each slot gets its share of the TaskManager's managed memory; RocksDB's shared cache, Python workers or batch operators asked for more than the slot's share holds (managed memory set to zero or very small, or divided among many slots)",
        fix: "give the slots more managed memory in flinkConfiguration: raise `taskmanager.memory.managed.fraction` (default 0.4 of Total Flink Memory) or set `taskmanager.memory.managed.size`, and raise spec.taskManager.resource.memory if the rest no longer fits; with several consumers check that `taskmanager.memory.managed.consumer-weights` gives the one that failed (STATE_BACKEND for RocksDB, PYTHON) a share; fewer slots per TaskManager (`taskmanager.numberOfTaskSlots`) give each slot more",
        verify: "kubectl logs <pod> | grep -F 'Managed:'   # expect: the new size, on the Managed line of `Final TaskExecutor Memory configuration`",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.memory.MemoryAllocationException: Could not created the shared memory resource of size 536870912. Not enough memory left to reserve from the slot's managed memory.",
            "Caused by: org.apache.flink.runtime.memory.MemoryReservationException: Could not allocate 536870912 bytes, only 0 bytes are remaining. This usually indicates that you are requesting more memory than you have reserved. However, when running an old JVM version it can also be caused by slow garbage collection. Try to upgrade to Java 8u72 or higher if running on an old Java version.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/memory/MemoryManager.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/memory/MemoryManager.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/memory/UnsafeMemoryBudget.java",
            "apache/flink@release-2.1.0:flink-core/src/main/java/org/apache/flink/configuration/TaskManagerOptions.java",
        ],
    },
    // NetworkBufferPool allocates its segments as direct memory at the TaskManager's start; the
    // JVM's direct limit (-XX:MaxDirectMemorySize, which Flink sets to framework + task off-heap +
    // network) ran out, so something else took direct memory beyond task off-heap.
    Signature {
        id: "SIG-NETWORK-MEMORY-DIRECT-OOM",
        category: Category::JvmOutOfMemory,
        severity: Severity::Critical,
        literals: &["Could not allocate enough memory segments for NetworkBufferPool"],
        pattern: r"Could not allocate enough memory segments for NetworkBufferPool \(required \(MB\): (?P<required_mb>\S+), allocated \(MB\): (?P<allocated_mb>\S+), missing \(MB\): (?P<missing_mb>[^)\s]+)\)",
        title: "a TaskManager ran out of direct memory allocating its network buffers (missing {missing_mb|some} MB)",
        explanation: "the network buffers are direct memory, allocated when the TaskManager starts, inside the JVM's direct-memory limit that Flink computes (framework off-heap + task off-heap + network): something else in the process, user code or a connector, already took direct memory the limit does not count for it",
        fix: "count the direct memory user code and connectors use as task off-heap memory: raise `taskmanager.memory.task.off-heap.size` (default 0) in flinkConfiguration by at least the missing {missing_mb|amount of} MB (Flink raises -XX:MaxDirectMemorySize with it), and raise spec.taskManager.resource.memory if the rest no longer fits",
        verify: "kubectl logs <pod> | grep -F 'Allocated' | grep -F 'network buffer pool'   # expect: the pool allocated at start",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (MB): 1024, allocated (MB): 870, missing (MB): 154). Cause: Direct buffer memory",
            "java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (MB): 1024, allocated (MB): 870, missing (MB): 154). Cause: Cannot reserve 32768 bytes of direct buffer memory (allocated: 1073737728, limit: 1073741824)",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/util/config/memory/ProcessMemoryUtils.java",
        ],
    },
    // Flink could not read an option's value (Configuration.getOptional wraps the parser's error;
    // MemorySize.parseUnit names the unit, lower-cased).
    Signature {
        id: "SIG-FLINK-CONFIG-UNPARSABLE",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &["Could not parse value '", "does not match any of the recognized units"],
        // Memory options only: another option Flink cannot parse is no memory configuration.
        pattern: r"Could not parse value '(?P<value>[^']*)' for key '(?P<key>[^']*\.memory\.[^']*)'|Memory size unit '(?P<unit>[^']*)' does not match any of the recognized units",
        title: "Flink cannot parse the value of {key|a memory option}",
        explanation: "Flink reads memory sizes as an integer and a 1024-based unit (b, k/kb, m/mb, g/gb, t/tb); a Kubernetes quantity such as 512Mi, or any value the memory option's type does not take, stops the process before it starts",
        fix: "{config_fix}",
        verify: "kubectl get configmap flink-config-<deployment> -n <namespace> -o yaml | grep -F {key|memory}   # expect: a value with a unit Flink parses (1024m, 2g)",
        explains: &["SIG-FLINK-MEMORY-CONFIG"],
        supersedes: &["SIG-FLINK-MEMORY-CONFIG", "SIG-FLINK-OPTION-UNPARSABLE"],
        examples: &[
            "java.lang.IllegalArgumentException: Could not parse value '512Mi' for key 'taskmanager.memory.process.size'.",
            "Caused by: java.lang.IllegalArgumentException: Memory size unit 'mi' does not match any of the recognized units: (b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/Configuration.java",
            "apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/MemorySize.java",
            "apache/flink@release-1.20.1:flink-core-api/src/main/java/org/apache/flink/configuration/MemorySize.java",
        ],
    },
    // Any other option Flink could not read as its type (Configuration.getOptional wraps the
    // parser's error with the key and the value): the operator fails to deploy (the lab's
    // config-option scenario, `taskmanager.numberOfTaskSlots: "two"`, NumberFormatException), or
    // the process stops before it starts. A memory option's is SIG-FLINK-CONFIG-UNPARSABLE's.
    Signature {
        id: "SIG-FLINK-OPTION-UNPARSABLE",
        category: Category::ConfigOptionInvalid,
        severity: Severity::Critical,
        literals: &["Could not parse value '"],
        pattern: r"Could not parse value '(?P<value>[^']*)' for key '(?P<key>[^']+)'",
        title: "Flink cannot parse '{value}' as the value of {key}",
        explanation: "Flink reads each option as its type (an integer, a duration such as `30 s`, a boolean, one of an enum's names), and a value of another kind stops the deployment before anything starts",
        fix: "{config_fix}",
        verify: "kubectl get configmap flink-config-<deployment> -n <namespace> -o yaml | grep -F {key}   # expect: a value of the option's type",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "java.lang.IllegalArgumentException: Could not parse value 'two' for key 'taskmanager.numberOfTaskSlots'.",
            "IllegalArgumentException: Could not parse value '' for key 'execution.checkpointing.interval'",
        ],
        unless: &[],
        sources: &["apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/Configuration.java"],
    },
    // --- install: CRDs, cert-manager, webhook ---------------------------------------------------
    Signature {
        id: "SIG-CRD-NO-KIND",
        category: Category::CrdMissing,
        severity: Severity::Critical,
        literals: &["no matches for kind"],
        pattern: r#"no matches for kind "(?P<kind>Flink[A-Za-z]*)" in version "(?P<api_version>[^"]+)""#,
        title: "the API server does not know {kind} in {api_version}",
        explanation: "the CRD for this kind is not installed (or does not serve this version), so kubectl cannot create the resource",
        fix: "install the Flink operator's CRDs (`helm install flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator`, or `kubectl apply -f` the chart's crds/ for your operator version); if they are installed, use a served version: `kubectl get crd flinkdeployments.flink.apache.org -o jsonpath='{.spec.versions[*].name}'`",
        verify: "kubectl get crd flinkdeployments.flink.apache.org flinksessionjobs.flink.apache.org",
        explains: &[],
        supersedes: &[],
        examples: &[r#"error: resource mapping not found for name: "basic-example" namespace: "" from "basic.yaml": no matches for kind "FlinkDeployment" in version "flink.apache.org/v1beta1""#],
        unless: &[],
        sources: &[
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/meta/errors.go",
            "kubernetes/cli-runtime@kubernetes-1.36.2:pkg/resource/mapper.go",
        ],
    },
    Signature {
        id: "SIG-CRD-NO-RESOURCE-TYPE",
        category: Category::CrdMissing,
        severity: Severity::Critical,
        literals: &["doesn't have a resource type"],
        pattern: r#"the server doesn't have a resource type "(?P<resource>flink[a-z]*|sessionjob|flinkdep|flinksnp|flinkbgdep)""#,
        title: "the API server has no resource type {resource}",
        explanation: "the Flink operator's CRDs are not installed in this cluster",
        fix: "install the Flink operator (its Helm chart installs the CRDs) or apply its CRDs, then retry",
        verify: "kubectl api-resources --api-group=flink.apache.org",
        explains: &[],
        supersedes: &[],
        examples: &[r#"error: the server doesn't have a resource type "flinkdeployments""#],
        unless: &[],
        sources: &["kubernetes/cli-runtime@kubernetes-1.36.2:pkg/resource/builder.go"],
    },
    Signature {
        id: "SIG-CRD-SNAPSHOT-INFORMER",
        category: Category::CrdMissing,
        severity: Severity::Info,
        literals: &["as the CRD has not been installed"],
        pattern: r"Could not initialize informer for snapshots as the CRD has not been installed",
        title: "the FlinkStateSnapshot CRD is not installed",
        explanation: "the operator runs without the FlinkStateSnapshot CRD and falls back to the legacy savepoint status fields",
        fix: "apply the operator version's CRDs (flinkstatesnapshots.flink.apache.org); Helm does not upgrade CRDs on `helm upgrade`",
        verify: "kubectl get crd flinkstatesnapshots.flink.apache.org",
        explains: &[],
        supersedes: &[],
        examples: &["2026-11-28 09:30:00,000 WARN  org.apache.flink.kubernetes.operator.controller.FlinkDeploymentController [] - Could not initialize informer for snapshots as the CRD has not been installed!"],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/controller/FlinkDeploymentController.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/controller/FlinkSessionJobController.java",
        ],
    },
    Signature {
        id: "SIG-CRD-UNKNOWN-FIELD",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        literals: &["strict decoding error: unknown field", "): unknown field \""],
        pattern: r#"(?P<kind>Flink[A-Za-z]*)(?: in version "(?P<api_version>[^"]+)" cannot be handled as a Flink[A-Za-z]*: strict decoding error|(?P<parent>[\w.]*)\)): unknown field "(?P<field>[^"]+)""#,
        title: "the installed {kind} CRD has no field {field}",
        explanation: "the resource uses a field the installed CRD does not define: the CRDs are older (or newer) than the operator or the example the YAML comes from",
        fix: "upgrade the CRDs to the operator's version (Helm does not upgrade CRDs: `kubectl replace -f` the chart's crds/), or remove `{field}` from the resource",
        verify: "kubectl explain {kind}.spec --recursive | head",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"Error from server (BadRequest): error when creating "orders.yaml": FlinkDeployment in version "v1beta1" cannot be handled as a FlinkDeployment: strict decoding error: unknown field "spec.jobManager.resources""#,
            r#"error: error validating "orders.yaml": error validating data: ValidationError(FlinkDeployment.spec.jobManager): unknown field "resources" in org.apache.flink.v1beta1.FlinkDeployment.spec.jobManager; if you choose to ignore these errors, turn validation off with --validate=false"#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/endpoints/handlers/rest.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/runtime/error.go",
            "kubernetes/apiextensions-apiserver@kubernetes-1.36.3:pkg/apiserver/customresource_handler.go",
            "kubernetes/kube-openapi@d427ff9ee9ad:pkg/util/proto/validation/errors.go",
            "kubernetes/cli-runtime@kubernetes-1.36.2:pkg/resource/visitor.go",
        ],
    },
    Signature {
        id: "SIG-CERT-MANAGER-KIND-MISSING",
        category: Category::CertManagerMissing,
        severity: Severity::Critical,
        literals: &["no matches for kind"],
        pattern: r#"no matches for kind "(?P<kind>Certificate|Issuer|ClusterIssuer)" in version "(?P<api_version>cert-manager\.io/[^"]+)""#,
        title: "cert-manager is not installed ({kind} is unknown)",
        explanation: "the operator chart creates a cert-manager Certificate and Issuer for its webhook, and cert-manager's CRDs are not installed",
        fix: "install cert-manager first (`kubectl apply -f https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml`), or install the operator with `--set webhook.create=false`",
        verify: "kubectl get crd certificates.cert-manager.io",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error: INSTALLATION FAILED: unable to build kubernetes objects from release manifest: [resource mapping not found for name: "flink-operator-serving-cert" namespace: "flink" from "": no matches for kind "Certificate" in version "cert-manager.io/v1""#],
        unless: &[],
        sources: &[
            "helm/helm@v3.21.4:cmd/helm/install.go",
            "helm/helm@v3.21.4:pkg/action/install.go",
            "kubernetes/cli-runtime@kubernetes-1.36.2:pkg/resource/mapper.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/meta/errors.go",
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/templates/cert-manager/certificate.yaml",
        ],
    },
    Signature {
        id: "SIG-WEBHOOK-CERT-SECRET-MISSING",
        category: Category::CertManagerMissing,
        severity: Severity::Critical,
        literals: &["secret \"webhook-server-cert\" not found"],
        pattern: r#"secret "webhook-server-cert" not found"#,
        title: "the webhook's certificate Secret was never issued",
        explanation: "cert-manager has not issued the operator's serving certificate (Secret webhook-server-cert), so the operator pod cannot mount it and stays ContainerCreating",
        fix: "check cert-manager runs and the Certificate is Ready (`kubectl get certificate flink-operator-serving-cert -n <operator-ns>`; `kubectl describe` it for the reason), or reinstall the operator with `--set webhook.create=false`",
        verify: "kubectl get certificate,secret -n <operator-namespace>",
        explains: &[],
        supersedes: &["SIG-MOUNT-OBJECT-MISSING"],
        examples: &[r#"  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed for volume "keystore" : secret "webhook-server-cert" not found"#],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/templates/controller/deployment.yaml",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/volume/util/operationexecutor/operation_generator.go",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/volume/util/operationexecutor/operation_executor.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
        ],
    },
    Signature {
        id: "SIG-WEBHOOK-PASSWORD-SECRET-MISSING",
        category: Category::WebhookSecretMissing,
        severity: Severity::Critical,
        literals: &["secret \"flink-operator-webhook-secret\" not found"],
        pattern: r#"secret "(?P<secret>flink-operator-webhook-secret)" not found"#,
        title: "the webhook keystore password Secret {secret} is missing",
        explanation: "the operator's webhook container reads its keystore password from this Secret, which does not exist",
        fix: "reinstall/upgrade the chart with `webhook.keystore.useDefaultPassword: true` (it creates {secret}), or create the Secret named in `webhook.keystore.passwordSecretRef`",
        verify: "kubectl get secret {secret} -n <operator-namespace>",
        explains: &[],
        supersedes: &["SIG-MOUNT-OBJECT-MISSING"],
        examples: &[r#"  Warning  Failed  10s  kubelet  Error: secret "flink-operator-webhook-secret" not found"#],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/templates/controller/deployment.yaml",
            "kubernetes/autoscaler@cluster-autoscaler-1.30.0:cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/kubelet/kuberuntime/kuberuntime_container.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
        ],
    },
    // API server admission errors, printed by kubectl apply.
    Signature {
        id: "SIG-WEBHOOK-X509",
        category: Category::WebhookCertInvalid,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook "(?P<webhook>[^"]+)":(?:.*?https://(?P<service>[a-z0-9-]+)\.(?P<service_namespace>[a-z0-9-]+)\.svc)?.*?x509: (?P<x509>certificate signed by unknown authority|certificate is valid for [^"]*|certificate relies on legacy Common Name field|certificate is not valid for any names)"#,
        title: "the API server does not trust webhook {webhook}'s certificate",
        explanation: "the API server cannot verify the webhook's serving certificate: the caBundle was not injected (cert-manager cainjector), or the certificate does not name the Service",
        fix: "check that cert-manager's cainjector runs and injected the CA: `kubectl get validatingwebhookconfiguration,mutatingwebhookconfiguration -o yaml | grep -c caBundle`; recreate the Certificate (delete Secret webhook-server-cert) so it is reissued for {service|flink-operator-webhook-service}.{service_namespace|<operator-ns>}.svc, then restart the operator pod",
        verify: "kubectl apply --dry-run=server -f <flinkdeployment.yaml>",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error from server (InternalError): error when creating "basic.yaml": Internal error occurred: failed calling webhook "validationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink-operator.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority"#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/util/webhook/error.go",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/webhook/validating/dispatcher.go",
            "golang/go@ab02c2e0290a:src/crypto/tls/handshake_client.go",
            "golang/go@0184fe5ece4f:src/crypto/x509/verify.go",
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/templates/webhook/validating_webhook_configuration.yaml",
        ],
    },
    Signature {
        id: "SIG-WEBHOOK-CERT-EXPIRED",
        category: Category::WebhookCertExpired,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook "(?P<webhook>[^"]+)":(?:.*?https://(?P<service>[a-z0-9-]+)\.(?P<service_namespace>[a-z0-9-]+)\.svc)?.*?x509: certificate has expired or is not yet valid"#,
        title: "webhook {webhook}'s certificate has expired",
        explanation: "the webhook's serving certificate is outside its validity period (not renewed, or the operator still serves an old keystore)",
        fix: "renew it: `cmctl renew flink-operator-serving-cert -n {service_namespace|<operator-ns>}` (or delete Secret webhook-server-cert so cert-manager reissues it), then restart the operator pod so the webhook reloads its keystore",
        verify: "kubectl get certificate -n {service_namespace|<operator-namespace>}",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Internal error occurred: failed calling webhook "mutationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink.svc:443/mutate?timeout=10s": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-28T09:00:00Z is after 2026-11-01T00:00:00Z"#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/util/webhook/error.go",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/webhook/validating/dispatcher.go",
            "golang/go@ab02c2e0290a:src/crypto/tls/handshake_client.go",
            "golang/go@0184fe5ece4f:src/crypto/x509/verify.go",
        ],
    },
    Signature {
        id: "SIG-WEBHOOK-UNREACHABLE",
        category: Category::WebhookUnreachable,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook "(?P<webhook>[^"]+)":(?:.*?https://(?P<service>[a-z0-9-]+)\.(?P<service_namespace>[a-z0-9-]+)\.svc)?.*?(?P<error>connection refused|no endpoints available for service|service "[^"]+" not found|context deadline exceeded|i/o timeout|no route to host|connection reset by peer)"#,
        title: "the API server cannot reach webhook {webhook} ({error})",
        explanation: "the webhook's Service has no running backend: the operator pod (its flink-webhook container) is down, not ready, or the Service is missing",
        fix: "get the operator pod Running and Ready (`kubectl get pods -n {service_namespace|<operator-ns>} -l app.kubernetes.io/name=flink-kubernetes-operator`; both containers must be ready), check Service {service|flink-operator-webhook-service} has endpoints, and that no NetworkPolicy blocks the API server from port 9443; if the operator was uninstalled, delete its leftover webhook configurations",
        verify: "kubectl get endpoints {service|flink-operator-webhook-service} -n {service_namespace|<operator-namespace>}",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"Internal error occurred: failed calling webhook "mutationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink.svc:443/mutate?timeout=10s": no endpoints available for service "flink-operator-webhook-service""#,
            r#"Error from server (InternalError): error when creating "basic.yaml": Internal error occurred: failed calling webhook "validationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink.svc:443/validate?timeout=10s": dial tcp 10.96.12.3:443: connect: connection refused"#,
            r#"Internal error occurred: failed calling webhook "validationwebhook.flink.apache.org": Post https://flink-operator-webhook-service.flink.svc:443/validate?timeout=30s: service "flink-operator-webhook-service" not found"#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/util/webhook/error.go",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/webhook/validating/dispatcher.go",
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/util/proxy/proxy.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "observed:Go net dial errors after 'failed to call webhook' (connect: connection refused, i/o timeout, context deadline exceeded)",
        ],
    },
    Signature {
        id: "SIG-WEBHOOK-DENIED",
        category: Category::WebhookRejected,
        severity: Severity::Critical,
        literals: &["denied the request"],
        pattern: r#"admission webhook "(?P<webhook>[^"]+)" denied the request: (?P<denial>.+?)\s*$"#,
        title: "webhook {webhook} rejected the resource: {denial}",
        explanation: "the operator's validating webhook rejected the resource: the spec has an error it reports at admission",
        fix: "fix the spec as the message says: {denial}",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error from server: error when creating "orders.yaml": admission webhook "validationwebhook.flink.apache.org" denied the request: Forbidden Flink config key: kubernetes.namespace"#],
        unless: &[],
        sources: &[
            "kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/webhook/errors/statuserror.go",
            "kubernetes/kubectl@kubernetes-1.36.3:pkg/cmd/util/helpers.go",
        ],
    },
    // --- spec: the operator's validator (DefaultValidator @release-1.15.0) ---
    Signature {
        id: "SIG-VALIDATION-SERVICE-ACCOUNT",
        category: Category::WebhookRejected,
        severity: Severity::Critical,
        literals: &["spec.serviceAccount must be defined"],
        pattern: r"spec\.serviceAccount must be defined",
        title: "the FlinkDeployment has no spec.serviceAccount",
        explanation: "the operator's validator rejects a FlinkDeployment without spec.serviceAccount (at admission through the webhook, otherwise as a ValidationError)",
        fix: "set `spec.serviceAccount: flink` (the chart's jobServiceAccount, which has the `flink` Role in the namespaces the operator manages), or another ServiceAccount with that Role",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount."],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-SPEC",
        category: Category::WebhookRejected,
        severity: Severity::Critical,
        literals: &[
            "is invalid, must consist of lower case alphanumeric characters",
            "Flink Version must be defined",
            "Forbidden Flink config key: ",
            "TaskManager replicas must be larger than 0",
            "Job parallelism must be larger than 0",
            "JobManager replicas should not be configured less than one",
            "The job spec should not be empty",
            "Can not submit session job to application cluster",
            "The session job's cluster id is not match with the session cluster",
            "The deploymentName can't be changed",
            "TaskManager replicas should not be configured less than one",
            "Ingress template must be defined",
            "Invalid log config key: ",
            "must be enabled for job health check",
            "Exactly one of checkpoint or savepoint configurations has to be set",
            "Job reference must be supplied for this snapshot",
            "Target for snapshot ",
            "Invalid value in the autoscaler config",
            "it should be a value within the range",
            "Job must start in running state",
            "upgrade mode is not supported in session job now",
            "resource ephemeral storage parse error: ",
        ],
        pattern: r"The FlinkDeployment name: (?P<name>\S+) is invalid|Flink Version must be defined|Forbidden Flink config key: (?P<key>[\w.-]+)|TaskManager replicas must be larger than 0|Job parallelism must be larger than 0|(?:JobManager|TaskManager) replicas should not be configured less than one|The job spec should not be empty|Can not submit session job to application cluster|The session job's cluster id is not match with the session cluster|The deploymentName can't be changed|Ingress template must be defined|Invalid log config key: \S+\. Allowed keys are|Deployment recovery \(\S+\) must be enabled for job health check|Exactly one of checkpoint or savepoint configurations has to be set|Job reference must be supplied for this snapshot|Target for snapshot \S+ was not found|Invalid value in the autoscaler config|The AutoScalerOption \S+ is invalid, it should be a value within the range|Job must start in running state|The \S+ upgrade mode is not supported in session job now|\w+ resource ephemeral storage parse error: ",
        title: "the operator's validator rejected the spec",
        explanation: "the operator's validator rejected the spec (at admission through the webhook, otherwise as a ValidationError event and in status.error)",
        fix: "fix the spec as the message says ({key|the field it names}); the operator keeps the last valid spec running until then",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &[
            "Forbidden Flink config key: kubernetes.namespace",
            "The FlinkDeployment name: Orders_V2 is invalid, must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123'), and the length must be no more than 45 characters.",
            "Job parallelism must be larger than 0",
        ],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:184",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:236",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:560",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:443",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:472",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
        ],
    },
    Signature {
        id: "SIG-FLINK-VERSION-UNSUPPORTED",
        category: Category::FlinkVersionUnsupported,
        severity: Severity::Critical,
        literals: &["is not supported by this operator version"],
        pattern: r"Flink version (?P<requested>\S+) is not supported by this operator version",
        title: "the operator does not support Flink version {requested}",
        explanation: "spec.flinkVersion names a Flink version this operator release no longer (or not yet) supports",
        fix: "use a Flink version the installed operator supports (and a matching image), or upgrade the operator",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,VERSION:.spec.flinkVersion",
        explains: &[],
        supersedes: DENIED,
        examples: &["Flink version v1_13 is not supported by this operator version"],
        // "Flink version null": the operator knew no version to check (ValidatorUtils.validateSupportedVersion
        // warns when it is null: a FlinkSessionJob whose session FlinkDeployment does not exist
        // yet), not a version it refuses; the lab's session-job-no-cluster kept that event after
        // the session cluster ran and the session job failed on something else.
        unless: &["Flink version null is not supported"],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/utils/ValidatorUtils.java",
        ],
    },
    Signature {
        id: "SIG-CRD-FLINK-VERSION-ENUM",
        category: Category::FlinkVersionUnsupported,
        severity: Severity::Critical,
        literals: &["flinkVersion: Unsupported value"],
        pattern: r#"spec\.flinkVersion: Unsupported value: "(?P<requested>[^"]+)""#,
        title: "the installed CRD does not know flinkVersion {requested}",
        explanation: "the FlinkDeployment CRD's enum has no such flinkVersion: the value is misspelled or the CRDs are older than that Flink version",
        fix: "use one of the values the error lists (spelled `v1_20`, not `1.20`), or upgrade the operator and its CRDs",
        verify: "kubectl get crd flinkdeployments.flink.apache.org -o jsonpath='{.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.flinkVersion.enum}'",
        explains: &[],
        supersedes: &[],
        examples: &[r#"The FlinkDeployment "orders" is invalid: spec.flinkVersion: Unsupported value: "v1_21": supported values: "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20", "v2_0", "v2_1", "v2_2""#],
        unless: &[],
        sources: &[
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/util/validation/field/errors.go",
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/crds/flinkdeployments.flink.apache.org-v1.yml",
        ],
    },
    // Jackson, deserializing a FlinkDeployment with the operator's API classes (the operator itself,
    // or a tool built on flink-kubernetes-operator-api) older than the resource's flinkVersion.
    Signature {
        id: "SIG-FLINK-VERSION-ENUM-JSON",
        category: Category::FlinkVersionUnsupported,
        severity: Severity::Critical,
        literals: &["operator.api.spec.FlinkVersion`"],
        pattern: r#"Cannot deserialize value of type `org\.apache\.flink\.kubernetes\.operator\.api\.spec\.FlinkVersion`(?:\s+from String "(?P<requested>[^"]+)")?"#,
        title: "the operator API in use does not know flinkVersion {requested|of the resource}",
        explanation: "a FlinkDeployment names a flinkVersion that the operator API classes reading it do not have (the operator, or a tool built on flink-kubernetes-operator-api, is older than the CRDs and the resource)",
        fix: "upgrade whatever reads the resource (the operator, or the tool's flink-kubernetes-operator-api dependency) to a release that knows {requested|that version}, or use a flinkVersion from the list in the message",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,VERSION:.spec.flinkVersion",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Caused by: com.fasterxml.jackson.databind.exc.InvalidFormatException: Cannot deserialize value of type `org.apache.flink.kubernetes.operator.api.spec.FlinkVersion` from String "v2_2": not one of the values accepted for Enum class: [v1_20, v1_13, v1_14, v1_15, v1_16, v1_17, v1_18, v1_19, v2_0]"#],
        unless: &[],
        sources: &[
            "FasterXML/jackson-databind@981486e204db:src/main/java/com/fasterxml/jackson/databind/deser/std/EnumDeserializer.java",
            "FasterXML/jackson-databind@981486e204db:src/main/java/com/fasterxml/jackson/databind/DeserializationContext.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/spec/FlinkVersion.java",
        ],
    },
    // Flink's GlobalConfiguration: up to 1.18 it reads only flink-conf.yaml, 1.19 and 1.20 try
    // flink-conf.yaml then config.yaml (and name config.yaml when neither exists), 2.x reads only
    // config.yaml. On Kubernetes the file is written by whoever prepares the conf (the operator
    // for spec.flinkVersion, Flink's own client, or a ConfigMap key): a missing one is a config
    // written for another Flink version than the image's. Wrapped lines may lose the tail, so the
    // pattern stops at the quoted path.
    Signature {
        id: "SIG-FLINK-CONF-FILE-MISSING",
        category: Category::FlinkVersionMismatch,
        severity: Severity::Critical,
        literals: &["The Flink config file '"],
        pattern: r"The Flink config file '(?P<path>[^']*?(?P<file>flink-conf\.yaml|config\.yaml))'",
        title: "the Flink in the image found no {file|config file} in its conf directory",
        explanation: "Flink reads its configuration from flink-conf.yaml up to 1.18 and from config.yaml in 2.x (1.19 and 1.20 read either); the conf directory holds the file of another Flink version, so the configuration was written for a Flink version other than the image's (spec.flinkVersion against the image, the Flink client that deployed a native cluster, or a ConfigMap key named for the other version)",
        fix: "make spec.flinkVersion match the Flink inside spec.image (an image on Flink 1.18 or older needs flinkVersion v1_18 or lower, Flink 2.x needs v2_x); deploy a native cluster with the Flink client of the image's version; with a ConfigMap of your own mounted at /opt/flink/conf, name its key {file|after the image's Flink version} (flink-conf.yaml for Flink 1.x, config.yaml for 2.x)",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,VERSION:.spec.flinkVersion,IMAGE:.spec.image",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Exception in thread \"main\" org.apache.flink.configuration.IllegalConfigurationException: The Flink config file '/opt/flink/conf/flink-conf.yaml' (/opt/flink/conf/flink-conf.yaml) does not exist.",
            "org.apache.flink.configuration.IllegalConfigurationException: The Flink config file '/opt/flink/conf/config.yaml' (/opt/flink/conf/config.yaml) does not exist.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.18:flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java",
            "apache/flink@release-1.20:flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java",
            "apache/flink@release-2.0:flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-MEMORY",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &["resource memory must be defined using", "resource memory parse error: "],
        pattern: r"(?P<process>\w+) resource memory (?:must be defined using|parse error: )",
        title: "spec.{process|TaskManager} resource.memory is missing or not a size Flink parses",
        explanation: "the operator needs the memory of each Flink process from the spec, in a form Flink's MemorySize parses",
        fix: "set `memory` (e.g. \"2048m\" or \"2g\": a number and a unit Flink parses) under spec.jobManager.resource and spec.taskManager.resource",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["TaskManager resource memory must be defined using `spec.taskManager.resource.memory`", "JobManager resource memory parse error: Could not parse value '2 GB' (Memory size)"],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:462",
            "apache/flink-kubernetes-operator@release-1.4.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:358",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-MODE-SWITCH",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["Cannot switch from "],
        pattern: r"Cannot switch from (?P<from>[\w ]+?) to (?P<to>[\w ]+?) cluster",
        title: "the spec change switches from {from} to {to}, which cannot be upgraded in place",
        explanation: "the operator cannot turn a running deployment into another kind (session/job, native/standalone) by a spec change",
        fix: "revert the change, or delete the FlinkDeployment (take a savepoint first) and create it again with the new mode",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["Cannot switch from native kubernetes to standalone kubernetes cluster", "Cannot switch from session to job cluster"],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-VERSION-CHANGE",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["Changing flinkVersion after last-state suspend is not allowed"],
        pattern: r"Changing flinkVersion after last-state suspend is not allowed",
        title: "the spec changes flinkVersion of a job suspended with last-state",
        explanation: "a job suspended with upgradeMode last-state is restored from its HA metadata, which only the same Flink version can read; the operator refuses a flinkVersion change until the job has run again on the old version",
        fix: "restore the job with its current flinkVersion (set spec.job.state: running, keep flinkVersion and image), then upgrade the version in a second change, or take a savepoint and redeploy from it with the new version",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["Changing flinkVersion after last-state suspend is not allowed. Restore your cluster with the current flinkVersion and perform the version upgrade afterwards."],
        unless: &[],
        sources: &["apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:172"],
    },
    Signature {
        id: "SIG-VALIDATION-SAVEPOINT-PATH",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["InitialSavepointPath must not be empty for savepoint redeployment"],
        pattern: r"InitialSavepointPath must not be empty for savepoint redeployment",
        title: "a savepoint redeployment has no spec.job.initialSavepointPath",
        explanation: "changing spec.job.savepointRedeployNonce redeploys the job from spec.job.initialSavepointPath, which is empty",
        fix: "set `spec.job.initialSavepointPath` to the savepoint or retained checkpoint to start from (its full path, e.g. s3://<bucket>/savepoints/savepoint-<id>) in the same change as savepointRedeployNonce",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["InitialSavepointPath must not be empty for savepoint redeployment"],
        unless: &[],
        sources: &["apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:529"],
    },
    // --- spec: high availability ----------------------------------------------------------------
    Signature {
        id: "SIG-HA-STORAGE-DIR-MISSING",
        category: Category::HaMisconfigured,
        severity: Severity::Critical,
        literals: &["Configuration is missing the mandatory parameter", "Invalid path for highly available storage"],
        pattern: r"Configuration is missing the mandatory parameter: (?:Key: ')?high-availability\.storageDir|Invalid path for highly available storage",
        title: "high availability is on but high-availability.storageDir is missing or invalid",
        explanation: "Kubernetes HA keeps only pointers in ConfigMaps; the job graphs and checkpoints metadata need a durable high-availability.storageDir",
        fix: "set `high-availability.storageDir` in flinkConfiguration to a durable path every JobManager can write (e.g. s3://<bucket>/flink/ha/<name>, with its file system plugin enabled)",
        // `storageDir`, not the dotted key: Flink 2's config.yaml, as the operator writes it
        // (ConfigurationUtils.convertConfigToWritableLines(config, false) in
        // apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/kubeclient/decorators/FlinkConfMountDecorator.java),
        // nests it under `high-availability:`; flink-conf.yaml (Flink 1.x) holds it flat.
        verify: "kubectl get configmap flink-config-<deployment> -n <namespace> -o yaml | grep -F storageDir   # expect: high-availability.storageDir set to a durable path every JobManager can write",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.configuration.IllegalConfigurationException: Configuration is missing the mandatory parameter: Key: 'high-availability.storageDir' , default: null (fallback keys: [{key=high-availability.zookeeper.storageDir, isDeprecated=true}, {key=recovery.zookeeper.storageDir, isDeprecated=true}])",
            "org.apache.flink.configuration.IllegalConfigurationException: Invalid path for highly available storage (high-availability.storageDir)",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/highavailability/HighAvailabilityServicesUtils.java",
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/configuration/ConfigOption.java",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-HA",
        category: Category::HaMisconfigured,
        severity: Severity::Critical,
        literals: &["HA must be enabled for rollback support", "High availability should be enabled when starting standby JobManagers", "Job could not be upgraded with last-state while HA disabled", "Job could not be upgraded to last-state while config key["],
        pattern: r"HA must be enabled for rollback support|High availability should be enabled when starting standby JobManagers|Job could not be upgraded with last-state while HA disabled|Job could not be upgraded to last-state while config key\[[^\]]*\] is not set",
        title: "the spec needs high availability, which is not enabled",
        explanation: "rollbacks, more than one JobManager replica and the last-state upgrade mode need Flink high availability (last-state restores the job from the HA metadata)",
        fix: "enable HA in flinkConfiguration: `high-availability.type: kubernetes` and `high-availability.storageDir: <durable path>` (or set spec.jobManager.replicas: 1 / drop the rollback setting)",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["HA must be enabled for rollback support.", "High availability should be enabled when starting standby JobManagers.", "Job could not be upgraded with last-state while HA disabled"],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
            "apache/flink-kubernetes-operator@release-1.4.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:220",
        ],
    },
    // Operator AbstractFlinkService.validateHaMetadataExists ("HA metadata not available" up to 1.12,
    // "HA metadata is not available" from 1.13), reached from AbstractJobReconciler.restoreJob when a
    // last-state restore requires HA metadata, and ApplicationReconciler.getJobUpgrade (a stateful
    // upgrade with the JobManager deployment MISSING or ERROR). Both throw UpgradeFailureException
    // (RecoveryFailureException up to 1.5) and CommonStatus turns the resource FAILED: a stateful
    // upgrade or restore that cannot proceed, upgrade_failed. Neither path is a JobManager restart:
    // last-state requires HA (DefaultValidator), and deployment recovery runs only with HA on.
    Signature {
        id: "SIG-HA-METADATA-MISSING",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["HA metadata not available", "HA metadata is not available", "HA data is not available"],
        pattern: r"HA (?:metadata|data) (?:not|is not) available",
        title: "the operator cannot upgrade or restore the job from its last state: no HA metadata is left",
        explanation: "a stateful upgrade or last-state restore needs the job's HA metadata (the HA ConfigMaps that point at its latest checkpoint), and there is none: the JobManager deployment is missing or failed and the ConfigMaps were deleted, expired with a finished or failed job, or never written; the operator marks the resource FAILED and does not retry",
        fix: "restore by hand: find the latest retained checkpoint (under state.checkpoints.dir/<job-id>/chk-N) or savepoint, set `spec.job.initialSavepointPath` to it, and redeploy (delete and recreate the FlinkDeployment, or change spec.job.upgradeMode to savepoint); keep high-availability enabled so this does not recur",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,LIFECYCLE:.status.lifecycleState,JM:.status.jobManagerDeploymentStatus",
        explains: &[],
        supersedes: &[],
        examples: &[
            "org.apache.flink.kubernetes.operator.exception.RecoveryFailureException: HA metadata not available to restore from last state. It is possible that the job has finished or terminally failed, or the configmaps have been deleted. Manual restore required.",
            "org.apache.flink.kubernetes.operator.exception.UpgradeFailureException: JobManager deployment is missing and HA metadata is not available to make stateful upgrades. It is possible that the job has finished or terminally failed, or the configmaps have been deleted.Manual restore required.",
            "org.apache.flink.kubernetes.operator.exception.UpgradeFailureException: HA metadata is not available to restore from last state.It is possible that the job has finished or terminally failed, or the configmaps have been deleted.",
        ],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.5.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/reconciler/deployment/ApplicationReconciler.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/reconciler/deployment/AbstractJobReconciler.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/status/CommonStatus.java",
        ],
    },
    // Flink's stop-with-savepoint: the savepoint succeeded, then the job failed while stopping;
    // the operator then counts the upgrade (or suspend) as failed.
    // The Apache operator's stop-with-savepoint before an upgrade did not finish in time
    // (AbstractFlinkService.cancelJob): the upgrade stops there, the job keeps running.
    Signature {
        id: "SIG-OPERATOR-SAVEPOINT-TIMEOUT",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["with savepoint, please configure a larger timeout via"],
        pattern: r"Timed out stopping the job (?P<job>\S+?)(?: in Flink cluster (?P<cluster>\S+))? with savepoint, please configure a larger timeout via '(?P<key>[^']+)'",
        title: "the upgrade stopped: the savepoint of job {job|the running job} did not finish in time",
        explanation: "before an upgrade with upgradeMode savepoint the operator stops the job with a savepoint; Flink did not complete it within the operator's timeout (large state, slow storage, a task not RUNNING, backpressure), so the upgrade does not go on",
        fix: "raise `{key|kubernetes.operator.savepoint.trigger.grace-period}` in spec.flinkConfiguration for large state, check in the JobManager log why the savepoint is slow or declined (a storage error there has its own finding), or upgrade with upgradeMode last-state",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,JOB:.status.jobStatus.state,ERROR:.status.error",
        explains: &[],
        supersedes: &[],
        examples: &["org.apache.flink.kubernetes.operator.exception.UpgradeFailureException: Timed out stopping the job 6a9aac7f6da296ba8a9e261e17c713b7 with savepoint, please configure a larger timeout via 'kubernetes.operator.savepoint.trigger.grace-period'"],
        unless: &[],
        sources: &["apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java"],
    },
    Signature {
        id: "SIG-STOP-WITH-SAVEPOINT-STOPPING",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["failed during stopping"],
        pattern: r"A savepoint has been created at: (?P<savepoint>\S+?), but the corresponding job (?P<job>[0-9a-f]{32}) failed during stopping",
        title: "stop-with-savepoint wrote savepoint {savepoint|(see the evidence)}, then the job failed while stopping",
        explanation: "the savepoint taken for the upgrade or suspend is complete and consistent, but the job failed before it finished stopping (a task failover while the sources drained), so the stop, and with it the upgrade, is reported as failed",
        fix: "restart from that savepoint: set `spec.job.initialSavepointPath: {savepoint|<the savepoint path in the error>}` and redeploy (delete and recreate the FlinkDeployment, or resubmit), or upgrade the operator to a release that takes the created savepoint and continues (FLINK-33522); if it recurs, read the JobManager log before the stop for the task failure that broke it",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,LIFECYCLE:.status.lifecycleState,ERROR:.status.error",
        explains: &[],
        supersedes: &[],
        examples: &["java.util.concurrent.CompletionException: org.apache.flink.runtime.scheduler.stopwithsavepoint.StopWithSavepointStoppingException: A savepoint has been created at: s3://bucket/savepoints/savepoint-1b1a30-0123456789ab, but the corresponding job 1b1a3061194c62ded6e2fe823b61b2ea failed during stopping. The savepoint is consistent, but might have uncommitted transactions."],
        unless: &[],
        sources: &["apache/flink@0be2a28d1d1e:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/stopwithsavepoint/StopWithSavepointStoppingException.java"],
    },
    // Operator AbstractFlinkService / AbstractJobReconciler: no usable state to upgrade from.
    Signature {
        id: "SIG-UPGRADE-MANUAL-RESTORE",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["checkpoint not externally addressable", "last checkpoint is unknown, possibly due to an unrecoverable restore error"],
        pattern: r"checkpoint not externally addressable|Job is in terminal state but last checkpoint is unknown, possibly due to an unrecoverable restore error",
        title: "the operator cannot upgrade the job: it has no usable checkpoint to carry the state over",
        explanation: "the operator needs a checkpoint or savepoint it can restore from to apply a spec change statefully; the latest one is not on durable storage (non-persistent checkpoint storage) or unknown, so it stops and asks for a manual restore",
        fix: "configure durable checkpoint storage (`execution.checkpointing.dir` / `state.checkpoints.dir` on s3://, gs://, abfss://, hdfs://) so future upgrades work; to move on now, set `spec.job.initialSavepointPath` to a savepoint you trust and redeploy (delete and recreate the FlinkDeployment), or switch `spec.job.upgradeMode` to stateless if state may be dropped",
        verify: "kubectl get flinkdeployment -o custom-columns=NAME:.metadata.name,ERROR:.status.error",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"'{"type":"org.apache.flink.kubernetes.operator.exception.UpgradeFailureException","message":"Latest checkpoint not externally addressable, Manual restore required.","additionalMetadata":{},"throwableList":[]}'"#,
            "org.apache.flink.kubernetes.operator.exception.UpgradeFailureException: Job is in terminal state but last checkpoint is unknown, possibly due to an unrecoverable restore error. Manual restore required.",
        ],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/reconciler/deployment/AbstractJobReconciler.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/status/CommonStatus.java",
        ],
    },
    // --- job: state restore -----------------------------------------------------------------------
    // Flink Checkpoints.loadAndValidateCheckpoint (verbatim in many public logs).
    Signature {
        id: "SIG-SAVEPOINT-STATE-UNMAPPED",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["Failed to rollback to checkpoint/savepoint", "Cannot map checkpoint/savepoint state", "you can set the --allowNonRestoredState option"],
        pattern: r"Failed to rollback to checkpoint/savepoint (?:Checkpoint Metadata|(?P<path>\S+?))\.?(?:\s|$)|Cannot map checkpoint/savepoint state for operator (?P<operator>[0-9a-f]+)|you can set the --allowNonRestoredState option",
        title: "the job's state in {path|the savepoint} does not fit the new program",
        explanation: "the savepoint/checkpoint holds state for an operator the new program does not have (changed uid or topology) or with another max parallelism",
        fix: "give operators stable ids (`.uid(...)`) matching the savepoint, keep max parallelism unchanged; to drop the unmatched state deliberately, set `spec.job.allowNonRestoredState: true` (state of those operators is lost)",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint hdfs://nn/flink/checkpoints/f00655787414517dbb3346fa5240009c/chk-191. Cannot map checkpoint/savepoint state for operator 77fec41789154996bfa76055dea29472 to the new program, because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI.",
            "java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint Checkpoint Metadata. Max parallelism mismatch between checkpoint/savepoint state and new program. Cannot map operator 5b61d6019ab04da71a4e62533c1a8c40 with max parallelism 128 to new program with max parallelism 256. This indicates that the program has been changed in a non-compatible way after the checkpoint/savepoint.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/Checkpoints.java",
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/metadata/CheckpointMetadata.java",
        ],
    },
    // Flink StateAssignmentOperation.checkStateMappingCompleteness: state for an operator the
    // job no longer has, when the restore does not allow non-restored state (a restore from the
    // HA checkpoint store never does, whatever allowNonRestoredState says).
    Signature {
        id: "SIG-SAVEPOINT-NO-OPERATOR-FOR-STATE",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["There is no operator for the state"],
        pattern: r"There is no operator for the state (?P<operator>[0-9a-f]{32})?",
        title: "the restored state holds operator {operator|of the old job}, which the new job does not have",
        explanation: "the checkpoint or savepoint being restored holds state of an operator that is not in the new job graph (an operator removed, or its uid changed), and this restore does not skip unclaimed state",
        fix: "give operators stable ids (`.uid(...)`) matching the state; to drop the state of removed operators deliberately, restore from a savepoint with `spec.job.allowNonRestoredState: true` (upgradeMode savepoint), since a last-state restore from the HA checkpoint store rejects every unclaimed entry whatever that setting says",
        verify: "kubectl logs <jobmanager-pod> | grep -m1 'no operator for the state'",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: java.lang.IllegalStateException: There is no operator for the state 5b61d6019ab04da71a4e62533c1a8c40",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.1:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/StateAssignmentOperation.java",
        ],
    },
    // Flink AbstractFsCheckpointStorageAccess.resolveCheckpointPointer.
    Signature {
        id: "SIG-SAVEPOINT-NOT-FOUND",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["Cannot find checkpoint or savepoint file/directory", "Cannot find meta data file '_metadata' in directory"],
        pattern: r"Cannot find checkpoint or savepoint file/directory '(?P<path>[^']+)' on file system '(?P<fs_scheme>[^']+)'|Cannot find meta data file '_metadata' in directory '(?P<path_2>[^']+)'",
        title: "the savepoint/checkpoint {path} to restore from does not exist",
        explanation: "the job is told to restore from a path that does not exist (deleted, wrong path, or local storage lost with the pod)",
        fix: "point spec.job.initialSavepointPath (or the upgrade savepoint) at an existing savepoint/retained checkpoint; keep checkpoints on durable shared storage (not file:/ in the pod)",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.spec.job.initialSavepointPath} {.status.jobStatus.state}'   # expect: the path of a savepoint that exists, then RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &["Caused by: java.io.FileNotFoundException: Cannot find checkpoint or savepoint file/directory 'file:/tmp/flink-checkpoints/orders/2a9f0f3c0d6e4a7b8c9d0e1f2a3b4c5d/chk-263' on file system 'file'."],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/AbstractFsCheckpointStorageAccess.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/AbstractFsCheckpointStorageAccess.java:290",
        ],
    },
    // Where to write a savepoint: Flink's dispatcher refuses a savepoint with no target and no
    // `state.savepoints.dir` (execution.checkpointing.savepoint-dir in 2.x), and the operator's
    // FlinkStateSnapshot reconciler refuses one with neither spec.savepoint.path nor that option.
    Signature {
        id: "SIG-SAVEPOINT-DIR-MISSING",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["No savepoint location given and no default location configured", "Either the savepoint path in the spec or configuration"],
        pattern: r"No savepoint location given and no default location configured|Either the savepoint path in the spec or configuration (?P<key>\S+) in the Flink resource has to be supplied",
        title: "a savepoint was asked for with no place to write it: neither a target path nor {key|the savepoint directory option} is set",
        explanation: "a savepoint (for an upgrade, a FlinkStateSnapshot, or a manual trigger) needs a target directory, from the request or from the savepoint directory option, and neither is set; without the savepoint, state cannot be carried over",
        fix: "set `{key|state.savepoints.dir}` in flinkConfiguration to a durable path every JobManager can write (e.g. s3://<bucket>/flink/<name>/savepoints), or give the FlinkStateSnapshot a spec.savepoint.path",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: &[],
        examples: &[
            "java.lang.IllegalArgumentException: No savepoint location given and no default location configured.",
            "java.lang.IllegalArgumentException: Either the savepoint path in the spec or configuration state.savepoints.dir in the Flink resource has to be supplied",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/AbstractFsCheckpointStorageAccess.java:165",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/reconciler/snapshot/StateSnapshotReconciler.java:205",
        ],
    },
    // The restore path's refusals of state it cannot read back: a serializer of the new job that
    // is incompatible with the one that wrote the state (StateMigrationException from the heap and
    // operator state backends), or a savepoint of a format this Flink no longer reads.
    Signature {
        id: "SIG-SAVEPOINT-STATE-INCOMPATIBLE",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &[
            "must not be incompatible",
            "must be compatible with the",
            "must not need ttl state migration",
            "is no longer supported",
            "Unexpected magic number. This can have multiple reasons",
            "is not a valid file URI. Either the pointer path is invalid",
            "Unable to restore operator state [",
            "Unable to restore broadcast state [",
        ],
        pattern: r"(?:The new|For heap backends, the new) [\w ]*?(?:serializer|typeSerializer).*? must (?:not be incompatible|be compatible with the (?:old|previous)|not need ttl state migration)|Legacy state \(from Flink <= 1\.1, created through the 'Checkpointed' interface\) is no longer supported|This savepoint / checkpoint version \(Flink 1\.1 / 1\.2\) is no longer supported|Unexpected magic number\. This can have multiple reasons|Checkpoint/savepoint path '(?P<path>[^']*)' is not a valid file URI\. Either the pointer path is invalid|Unable to restore (?:operator|broadcast) state \[[^\]]*\]\. The previous (?:typeSerializer|key and value serializers) of the (?:operator )?state must be present",
        title: "the job cannot read back the state it restores from {path|its savepoint or checkpoint}",
        explanation: "the state in the savepoint/checkpoint was written by a serializer the new job's state is not compatible with (a changed state type, key type or POJO without a migration path), or by a Flink version whose savepoint format this one no longer reads, or the path is not a savepoint",
        fix: "restore from a savepoint the job's current state types can read: keep the state's type (or give it a serializer with a migration path, e.g. Avro/POJO evolution rules), or start without that state (spec.job.allowNonRestoredState / a fresh start with upgradeMode stateless); a savepoint from Flink 1.0-1.2 must be migrated through an intermediate version; check that initialSavepointPath names a savepoint directory",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.util.StateMigrationException: For heap backends, the new state serializer (org.apache.flink.api.common.typeutils.base.LongSerializer@1) must not be incompatible with the old state serializer (org.apache.flink.api.java.typeutils.runtime.PojoSerializer@2).",
            "Caused by: org.apache.flink.util.StateMigrationException: The new key serializer (x) must be compatible with the previous key serializer (y).",
            "java.io.IOException: This savepoint / checkpoint version (Flink 1.1 / 1.2) is no longer supported.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/heap/HeapKeyedStateBackend.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/DefaultOperatorStateBackend.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/Checkpoints.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/AbstractFsCheckpointStorageAccess.java",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/OperatorStateRestoreOperation.java:107",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/OperatorStateRestoreOperation.java:151",
        ],
    },
    // The HA store (Kubernetes ConfigMaps or ZooKeeper) keeps, per retained checkpoint, a pointer
    // to a `completedCheckpoint<random>` file under high-availability.storageDir; a JobManager that
    // starts reads them all, and one it cannot read fails every start.
    Signature {
        id: "SIG-HA-CHECKPOINT-HANDLE-BROKEN",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["from state handle under", "completedCheckpoint"],
        pattern: r"Could not retrieve checkpoint (?P<checkpoint>\d+) from state handle under (?P<key>[^\s.]+)\. This indicates that (?:the retrieved state handle is broken|you are trying to recover from state written by an older Flink version)|FileNotFoundException: .*?(?P<path>[^\s'\x22]*/completedCheckpoint[0-9a-f]+)",
        title: "the HA store points to a retained checkpoint the JobManager cannot read: {path|checkpoint }{checkpoint|}",
        explanation: "with high availability the JobManager recovers the job from the retained checkpoints its HA store lists (Kubernetes ConfigMaps `<cluster-id>-...-config-map`, or ZooKeeper), each a `completedCheckpoint<id>` file under `high-availability.storageDir`; this one is gone or unreadable (storage cleaned up by hand or by a bucket lifecycle rule, another storageDir since a change, a Flink of another version, or a Flink bug such as FLINK-28265), so every start of the JobManager fails",
        fix: "if the file was removed by mistake, put it back; otherwise start the job again from a retained checkpoint or savepoint: stop it, delete the job's HA data (Kubernetes HA: the ConfigMaps labelled `app=<cluster-id>,configmap-type=high-availability`; ZooKeeper: its znodes under `high-availability.zookeeper.path.root`), and start it with that path (spec.job.initialSavepointPath, or `execution.savepoint.path`); keep high-availability.storageDir out of clean-up rules",
        verify: "kubectl get configmaps -l configmap-type=high-availability",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.util.FlinkException: Could not retrieve checkpoint 13629 from state handle under /0000000000000013629. This indicates that the retrieved state handle is broken. Try cleaning the state handle store.",
            "FileNotFoundException: No such file or directory: s3://xxx/flink-ha/xxx/completedCheckpoint72e30229420c",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/DefaultCompletedCheckpointStoreUtils.java",
            "apache/flink@release-1.20:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/Constants.java",
        ],
    },
    // The JobMaster's restore step in a stack trace (SchedulerBase up to 1.12, DefaultExecutionGraphFactory
    // since): whatever the exception, it was thrown while restoring the savepoint the job was given.
    Signature {
        id: "SIG-SAVEPOINT-RESTORE-FRAME",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Warning,
        literals: &[".tryRestoreExecutionGraphFromSavepoint("],
        pattern: r"at org\.apache\.flink\.runtime\.scheduler\.\w+\.tryRestoreExecutionGraphFromSavepoint\(",
        title: "the job failed while restoring from its savepoint",
        explanation: "the JobMaster failed in the step that restores the job's state from the savepoint it was started with (`execution.savepoint.path`, spec.job.initialSavepointPath, or the savepoint of an upgrade)",
        fix: "read the exception this frame belongs to (and its `Caused by:`) for the reason; check that the savepoint path exists and is the savepoint directory or its `_metadata` file, that its scheme has a file system plugin, and that the program still has the operators (uids) and max parallelism of the savepoint",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "\tat org.apache.flink.runtime.scheduler.DefaultExecutionGraphFactory.tryRestoreExecutionGraphFromSavepoint(DefaultExecutionGraphFactory.java:223) ~[flink-dist-1.17.1.jar:1.17.1]",
            "\tat org.apache.flink.runtime.scheduler.SchedulerBase.tryRestoreExecutionGraphFromSavepoint(SchedulerBase.java:316) ~[flink-dist_2.12-1.11.2.jar:1.11.2]",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/DefaultExecutionGraphFactory.java",
            "apache/flink@853e1906c3fe:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/SchedulerBase.java",
        ],
    },
    // CheckpointCoordinator.restoreSavepoint in a stack trace: whatever was thrown, it was thrown
    // while the savepoint the job was given was being restored (frames may be wrapped onto their own
    // line, so the `at ` is not required).
    Signature {
        id: "SIG-SAVEPOINT-RESTORE-COORDINATOR-FRAME",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Warning,
        literals: &["CheckpointCoordinator.restoreSavepoint("],
        pattern: r"org\.apache\.flink\.runtime\.checkpoint\.CheckpointCoordinator\.restoreSavepoint\(",
        title: "the job failed while restoring from its savepoint",
        explanation: "the checkpoint coordinator failed while loading the savepoint the job was started with (`execution.savepoint.path`, spec.job.initialSavepointPath, or the savepoint of an upgrade) into its completed-checkpoint store",
        fix: "read the exception this frame belongs to (and its `Caused by:`) for the reason; check that the savepoint path exists, that its scheme has a file system plugin, that the program still has the savepoint's operators (uids) and max parallelism, and with Kubernetes HA that the job's HA ConfigMaps can be written",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "\tat org.apache.flink.runtime.checkpoint.CheckpointCoordinator.restoreSavepoint(CheckpointCoordinator.java:1900) ~[flink-dist-1.20.1.jar:1.20.1]",
            "org.apache.flink.runtime.checkpoint.CheckpointCoordinator.restoreSavepoint(CheckpointCoordinator.java:1568)",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20:flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointCoordinator.java",
            "apache/flink@release-1.20:flink-runtime/src/main/java/org/apache/flink/runtime/scheduler/DefaultExecutionGraphFactory.java",
        ],
    },
    Signature {
        id: "SIG-VALIDATION-CHECKPOINT-DIR",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &["must be defined for last-state and savepoint upgrade modes", "Job could not be upgraded with savepoint while config key", "Savepoint could not be manually triggered for the running job while config key", "Periodic savepoints cannot be enabled when config key", "In order to use max-checkpoint age functionality config key"],
        pattern: r"(?:Checkpoint directory|Job could not be upgraded with savepoint while config key|Savepoint could not be manually triggered for the running job while config key|Periodic savepoints cannot be enabled when config key|In order to use max-checkpoint age functionality config key)\[(?P<key>[^\]]*)\] (?:must be defined for last-state and savepoint upgrade modes|is not set|must be set to allow triggering savepoint upgrades)",
        title: "the spec takes checkpoints or savepoints to {key}, which is not set",
        explanation: "with upgradeMode last-state or savepoint, a manual or periodic savepoint, or a max checkpoint age, the operator must know where checkpoints/savepoints go; without it state cannot be carried over",
        fix: "set `{key}` in flinkConfiguration to a durable path (e.g. s3://<bucket>/flink/<name>/checkpoints), or use upgradeMode: stateless",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &[
            "Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes",
            "Job could not be upgraded with savepoint while config key[execution.checkpointing.savepoint-dir] is not set",
            "Periodic savepoints cannot be enabled when config key[state.savepoints.dir] is not set",
        ],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:271",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:277",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:285",
        ],
    },
    // --- job: storage access --------------------------------------------------------------------
    Signature {
        id: "SIG-S3-ACCESS-DENIED",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["Status Code: 403"],
        pattern: r"\(Service: (?:Amazon )?S3[;,] Status Code: 403[;,]",
        title: "S3 denies Flink access to its checkpoint/savepoint/HA storage",
        explanation: "S3 answered 403: the credentials Flink uses lack permission on the bucket or prefix (or the bucket policy/KMS key denies it)",
        fix: STORAGE_FIX,
        verify: "aws s3 ls <checkpoint-path>   # as the pod's role: expect a listing, not AccessDenied",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: com.amazonaws.services.s3.model.AmazonS3Exception: Access Denied (Service: Amazon S3; Status Code: 403; Error Code: AccessDenied; Request ID: 1A2B3C4D5E6F; S3 Extended Request ID: abc=; Proxy: null), S3 Extended Request ID: abc=",
            "Caused by: software.amazon.awssdk.services.s3.model.S3Exception: Access Denied (Service: S3, Status Code: 403, Request ID: 1A2B3C4D5E6F, Extended Request ID: abc=)",
        ],
        unless: &[],
        sources: &[
            "aws/aws-sdk-java@05f60d218fec:aws-java-sdk-core/src/main/java/com/amazonaws/AmazonServiceException.java",
            "aws/aws-sdk-java-v2@187b7154ef45:core/aws-core/src/main/java/software/amazon/awssdk/awscore/exception/AwsServiceException.java",
        ],
    },
    Signature {
        id: "SIG-ACCESS-DENIED-EXCEPTION",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["AccessDeniedException: "],
        pattern: r"AccessDeniedException: (?P<path>(?P<fs_scheme>s3a?|s3p|gs|abfss?|wasbs?|oss|hdfs)://[^\s:]+)",
        title: "access to {path} is denied",
        explanation: "the file system refused Flink access to this path: the identity Flink uses lacks permission there",
        fix: STORAGE_FIX,
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &["java.nio.file.AccessDeniedException: s3a://flink-state/checkpoints/orders: getFileStatus on s3a://flink-state/checkpoints/orders: com.amazonaws.services.s3.model.AmazonS3Exception: Forbidden (Service: Amazon S3; Status Code: 403; Error Code: 403 Forbidden; Request ID: 7Q2X; S3 Extended Request ID: q=), S3 Extended Request ID: q=:403 Forbidden"],
        unless: &[],
        sources: &[
            "apache/hadoop@7c58cfea8fea:hadoop-tools/hadoop-aws/src/main/java/org/apache/hadoop/fs/s3a/S3AUtils.java",
        ],
    },
    Signature {
        id: "SIG-GCS-403",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["GoogleJsonResponseException: 403", "StorageException: 403", "does not have storage."],
        pattern: r"(?:GoogleJsonResponseException|StorageException): 403(?: Forbidden)?|(?P<principal>[\w.@-]+) does not have (?P<permission>storage\.[a-zA-Z]+\.[a-zA-Z]+) access",
        title: "Google Cloud Storage denies Flink access ({permission|403 Forbidden})",
        explanation: "GCS answered 403: the Google service account Flink uses lacks a storage permission on the bucket",
        fix: STORAGE_FIX,
        verify: "gcloud storage ls {path|gs://<bucket>/}   # expect: a listing, as the Google service account the pod's Kubernetes account is bound to",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "com.google.cloud.storage.StorageException: 403 Forbidden",
            r#"  "message" : "flink-sa@acme-prod.iam.gserviceaccount.com does not have storage.objects.create access to the Google Cloud Storage object. Permission 'storage.objects.create' denied on resource (or it may not exist).","#,
        ],
        unless: &[],
        sources: &[
            "googleapis/google-http-java-client@0984ccdf60cf:google-http-client/src/main/java/com/google/api/client/http/HttpResponseException.java",
            "observed:the Cloud Storage JSON API's error message '<principal> does not have storage.<resource>.<verb> access to the Google Cloud Storage object'",
        ],
    },
    Signature {
        id: "SIG-AZURE-AUTH-MISMATCH",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["AuthorizationPermissionMismatch", "AuthorizationFailure", "not authorized to perform this operation using this permission"],
        pattern: r"AuthorizationPermissionMismatch|AuthorizationFailure|not authorized to perform this operation using this permission",
        title: "Azure Storage denies Flink access to its storage account",
        explanation: "Azure Storage answered 403: the identity Flink uses has no data-plane role on the container (or a firewall rule blocks it)",
        fix: STORAGE_FIX,
        verify: "az storage blob list --account-name <storage-account> --container-name <blob-container> --auth-mode login --num-results 1   # expect: a listing, not AuthorizationPermissionMismatch",
        explains: STARTUP,
        supersedes: &[],
        examples: &[r#"Operation failed: "This request is not authorized to perform this operation using this permission.", 403, PUT, https://acme.dfs.core.windows.net/flink/checkpoints/orders?resource=directory&timeout=90, rId: 5d1c3a2e-201f-0045-2b7d-1f6b3c000000, AuthorizationPermissionMismatch, "This request is not authorized to perform this operation using this permission. RequestId:5d1c3a2e-201f-0045-2b7d-1f6b3c000000 Time:2026-11-28T09:40:00.0000000Z""#],
        unless: &[],
        sources: &[
            "apache/hadoop@114af3ecaef8:hadoop-tools/hadoop-azure/src/main/java/org/apache/hadoop/fs/azurebfs/contracts/exceptions/AbfsRestOperationException.java",
            "observed:Azure Storage error codes AuthorizationPermissionMismatch / AuthorizationFailure and their server messages",
        ],
    },
    // Flink's LocalFileSystem.create (file:// paths: a PersistentVolume, NFS or host mount).
    Signature {
        id: "SIG-FS-MKDIRS-FAILED",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["Mkdirs failed to create file:"],
        pattern: r"IOException: Mkdirs failed to create (?P<path>file:/[^\s,;]+)",
        title: "Flink cannot create {path}: the volume is not writable for it",
        explanation: "Flink could not create a directory under a file:// path (checkpoints, savepoints or high-availability.storageDir on a mounted volume): the mount is read-only or owned by another user than the one Flink runs as (`flink`, uid 9999 in the official image)",
        fix: "make the mounted directory writable for the Flink user: `securityContext.fsGroup: 9999` in the pod template (for volumes that support it), or chown/chmod the export (NFS) to uid 9999, and mount it read-write on the JobManager and every TaskManager",
        verify: "kubectl exec <jobmanager-pod> -- sh -c 'id; ls -ld <mount-path>'",
        explains: STARTUP,
        supersedes: &[],
        examples: &["Caused by: java.io.IOException: Mkdirs failed to create file:/nas/flink/recovery/default"],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/core/fs/local/LocalFileSystem.java",
        ],
    },
    // Flink's FileSystemJobResultStore.getDirtyResultsInternal: listStatus of the JobResultStore
    // directory (under high-availability.storageDir unless job-result-store.storage-path is set)
    // returned nothing, which LocalFileSystem does when the directory cannot be read.
    Signature {
        id: "SIG-JRS-DIR-NOT-ACCESSIBLE",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["The base directory of the JobResultStore isn't accessible"],
        pattern: r"The base directory of the JobResultStore isn't accessible",
        title: "the JobManager cannot read the JobResultStore directory under its HA storage",
        explanation: "on start the JobManager lists the JobResultStore directory (`<high-availability.storageDir>/job-result-store/<cluster-id>`, or `job-result-store.storage-path`) and could not: on a mounted volume the directory exists but is not readable for the user Flink runs as (`flink`, uid 9999 in the official image)",
        fix: "make the HA storage readable and writable for the Flink user: `securityContext.fsGroup: 9999` in the pod template (for volumes that support it), or chown/chmod the directory (NFS export, hostPath) to uid 9999; mount it read-write on the JobManager",
        verify: "kubectl exec <jobmanager-pod> -- sh -c 'id; ls -ld <high-availability.storageDir>/job-result-store/*'",
        explains: STARTUP,
        supersedes: &[],
        examples: &["Caused by: java.lang.IllegalStateException: The base directory of the JobResultStore isn't accessible. No dirty JobResults can be restored."],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.1:flink-runtime/src/main/java/org/apache/flink/runtime/highavailability/FileSystemJobResultStore.java",
        ],
    },
    // --- job: file systems (flink-core FileSystem, HadoopFsFactory, Hadoop FileSystem) ----------
    Signature {
        id: "SIG-FS-SCHEME-UNSUPPORTED",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        literals: &["Could not find a file system implementation for scheme"],
        pattern: r"Could not find a file system implementation for scheme '(?P<scheme>[^']+)'",
        title: "no file system for {scheme}:// is available: {plugin|no plugin} is not enabled",
        explanation: "Flink has no file system for this scheme: the plugin that provides it is not in the plugins directory",
        fix: FS_FIX,
        verify: "kubectl exec <jobmanager-pod> -- ls /opt/flink/plugins",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto. Please ensure that each plugin resides within its own subfolder within the plugins directory. See https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/filesystems/plugins/ for more information. If you want to use a Hadoop file system for that scheme, please add the scheme to the configuration fs.allowed-fallback-filesystems. For a full list of supported file systems, please see https://nightlies.apache.org/flink/flink-docs-stable/ops/filesystems/.",
            "Could not find a file system implementation for scheme 'gs'. File system schemes are supported by Flink through the following plugin(s): flink-gs-fs-hadoop. No file system to support this scheme could be loaded. Please ensure that each plugin is configured properly and resides within its own subfolder in the plugins directory.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/core/fs/FileSystem.java",
        ],
    },
    // The official image's docker-entrypoint.sh links each jar ENABLE_BUILT_IN_PLUGINS names from
    // /opt/flink/opt into /opt/flink/plugins, and exits 1 when one is not there (a name of another
    // Flink version than the image's is the usual slip).
    Signature {
        id: "SIG-FS-BUILT-IN-PLUGIN-MISSING",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        literals: &["does not exist. Exiting."],
        pattern: r"Plugin (?P<plugin>flink-[\w.-]*-fs-[\w.-]*\.jar) does not exist\. Exiting\.",
        title: "the image has no /opt/flink/opt/{plugin}, which ENABLE_BUILT_IN_PLUGINS asks for: the container exits",
        explanation: "the official image's entrypoint enables the file system plugins named in ENABLE_BUILT_IN_PLUGINS by linking each jar from /opt/flink/opt, and stops the container (exit code 1) when a named jar is not there: a name of another Flink version than the image's, or a misspelt one",
        fix: "name the jar the image ships, of the image's own Flink version: the jars are listed by `kubectl run flink-opt --rm -it --restart=Never --image=<image> -- ls /opt/flink/opt`; several are separated with `;`",
        verify: "kubectl logs <pod> | grep -i 'enabled'",
        explains: STARTUP,
        supersedes: &[],
        examples: &["Plugin flink-s3-fs-hadoop-1.17.1.jar does not exist. Exiting."],
        unless: &[],
        sources: &["apache/flink-docker@0ac313e39fda:docker-entrypoint.sh"],
    },
    Signature {
        id: "SIG-FS-HADOOP-MISSING",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        literals: &["UnsupportedFileSystemSchemeException: Hadoop is not in the classpath", "Cannot support file system for"],
        pattern: r"UnsupportedFileSystemSchemeException: Hadoop is not in the classpath|Cannot support file system for '(?P<scheme>[^']+)' via Hadoop",
        title: "a path needs Hadoop's file systems, which are not on the classpath",
        explanation: "the path's scheme is only available through Hadoop, and Hadoop is not on Flink's classpath",
        fix: FS_FIX,
        verify: "kubectl exec <jobmanager-pod> -- ls /opt/flink/plugins /opt/flink/lib",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Hadoop is not in the classpath/dependencies.",
            "Caused by: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Cannot support file system for 'hdfs' via Hadoop, because Hadoop is not in the classpath, or some classes are missing from the classpath.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/core/fs/FileSystem.java",
            "apache/flink@c20d1003e68e:flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/fs/hdfs/HadoopFsFactory.java",
        ],
    },
    Signature {
        id: "SIG-FS-HADOOP-NO-FS",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        literals: &["No FileSystem for scheme"],
        pattern: r#"No FileSystem for scheme:? "?(?P<scheme>[A-Za-z0-9+.-]+)"?"#,
        title: "Hadoop has no file system for {scheme}://",
        explanation: "Hadoop found no FileSystem implementation for this scheme on the classpath",
        fix: FS_FIX,
        verify: "kubectl exec <jobmanager-pod> -- ls /opt/flink/plugins /opt/flink/lib   # expect: a folder {plugin|of the scheme's file system plugin} under plugins, or the Hadoop jars in lib",
        explains: STARTUP,
        supersedes: &[],
        examples: &[r#"org.apache.hadoop.fs.UnsupportedFileSystemException: No FileSystem for scheme "s3""#],
        unless: &[],
        sources: &[
            "apache/hadoop@9df555d193a0:hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/fs/FileSystem.java",
        ],
    },
    // --- job: artifact and entry class ----------------------------------------------------------
    Signature {
        id: "SIG-JAR-NOT-FOUND",
        category: Category::JobJarNotFound,
        severity: Severity::Critical,
        literals: &["JAR file does not exist", "Failed to find job JAR on class path", "No JAR found on classpath", ".jar (No such file or directory)", "JAR file is not a file: ", "JAR file path is invalid", "JAR file path invalid", "The jar file path is invalid", "Java program should be specified a JAR file", "The jar file "],
        pattern: r"JAR file (?:does not exist|is not a file):? '?(?P<jar>[^'\s]+)'?|(?P<jar_3>/\S+\.jar) \(No such file or directory\)|Failed to find job JAR on class path|No JAR found on classpath|JAR file path (?:is )?invalid(?: '(?P<jar_4>[^'\s]*)'?)?|The jar file path is invalid|Java program should be specified a JAR file|The jar file (?P<jar_5>\S+) not exists",
        title: "the job jar {jar|} is not where the deployment says",
        explanation: "Flink cannot find the job's jar at the path it was given (spec.job.jarURI, or no jar in /opt/flink/usrlib)",
        // The check follows the jar's scheme (`flink::artifact`): `ls -l` in the image for a
        // local path, a fetch for https:// and s3://, the fetcher's log for anything else.
        fix: "{jar_fix|make spec.job.jarURI point at the jar inside the image (`local:///opt/flink/usrlib/<job>.jar`; build it into the image, or download it with an init container into a shared volume), or use an https:// / s3:// URI the operator can fetch; see what the image holds: `kubectl exec <pod> -n <namespace> -c flink-main-container -- ls -l /opt/flink/usrlib`}",
        verify: "{jar_verify|kubectl exec <pod> -n <namespace> -c flink-main-container -- ls -l /opt/flink/usrlib   # expect the job jar}",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: java.io.IOException: JAR file does not exist '/opt/flink/examples/streaming/customer-analytics.jar'",
            "org.apache.flink.util.FlinkException: Failed to find job JAR on class path. Please provide the job class name explicitly.",
            "org.apache.flink.util.FlinkException: No JAR found on classpath. Please provide a JAR explicitly.",
            "java.io.FileNotFoundException: JAR file does not exist: /opt/flink/usrlib/orders.jar",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/JarUtils.java",
            "apache/flink@c20d1003e68e:flink-clients/src/main/java/org/apache/flink/client/cli/CliFrontend.java",
            "apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/util/JarUtils.java:43",
            "apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/cli/CliFrontend.java:1081",
            "apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/cli/ProgramOptions.java:140",
            "apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/program/PackagedProgram.java:463",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/service/AbstractFlinkService.java:961",
            "apache/flink@c20d1003e68e:flink-clients/src/main/java/org/apache/flink/client/deployment/application/FromClasspathEntryClassInformationProvider.java",
            "apache/flink@c919edff962e:flink-clients/src/main/java/org/apache/flink/client/deployment/application/ClassPathPackagedProgramRetriever.java",
            "observed:java.io.FileNotFoundException: <path>.jar (No such file or directory) from the JDK's file open",
        ],
    },
    // Flink's JarUtils.checkJarFile: the jar exists but File.canRead() is false for the process.
    Signature {
        id: "SIG-JAR-UNREADABLE",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["JAR file can't be read"],
        pattern: r"JAR file can't be read '(?P<jar>[^'\s]+)'?",
        title: "the job jar {jar} is there but Flink's user may not read it",
        explanation: "the jar is where the deployment says, but the user the Flink process runs as (`flink`, uid 9999 in the official image, or the pod's runAsUser) has no read permission on it: the file mode or owner set when the image was built, or of the volume it comes from",
        fix: "make the jar readable for every user: `COPY --chmod=644` (or `RUN chmod 644 {jar}`) in the Dockerfile and rebuild the image, or `chmod a+r` it where an init container downloads it; running as the file's owner (`securityContext.runAsUser`) also works",
        verify: "kubectl exec <jobmanager-pod> -- sh -c 'id; ls -l {jar}'",
        explains: STARTUP,
        supersedes: &[],
        examples: &["Caused by: java.io.IOException: JAR file can't be read '/opt/flink/usrlib/sql-runner.jar'"],
        unless: &[],
        sources: &["apache/flink@c20d1003e68e:flink-core/src/main/java/org/apache/flink/util/JarUtils.java"],
    },
    Signature {
        id: "SIG-VALIDATION-JARURI",
        category: Category::JobJarNotFound,
        severity: Severity::Critical,
        literals: &["jarURI must include a", "jarURI is not a valid URI", "jarURI scheme '", "jarURI host '"],
        pattern: r"jarURI (?P<refusal>must include a scheme|must include a host for http/https schemes|is not a valid URI: \S+|scheme '[^']*' is not in the allowlist [^.]*|host '[^']*' (?:cannot be resolved|resolves to a restricted address))",
        title: "the operator refused spec.job.jarURI: it {refusal}",
        explanation: "the operator's validator checks spec.job.jarURI before it deploys: it must be a URI with a scheme (local://, https://, s3://, ...), a scheme in the operator's allowlist (`kubernetes.operator.user.artifacts.allowed-schemes`, 1.15), and for http(s) a host that resolves to an address the operator may fetch from",
        fix: "write the jar path as a URI the operator accepts: `jarURI: local:///opt/flink/usrlib/<job>.jar` for a jar inside the image; for a remote jar use an allowed scheme (or add it to `kubernetes.operator.user.artifacts.allowed-schemes` in the operator's configuration) and a host the operator's pod can resolve",
        verify: VALIDATION_VERIFY,
        explains: &[],
        supersedes: DENIED,
        examples: &["jarURI must include a scheme", "jarURI scheme 'ftp' is not in the allowlist [local, file, https, s3]. Configure 'kubernetes.operator.user.artifacts.allowed-schemes' to extend the allowlist."],
        unless: &[],
        sources: &[
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:317",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:312",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:327",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:337",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:343",
            "apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java:350",
        ],
    },
    // Flink KubernetesUtils.checkJarFileForApplicationMode (up to 1.16).
    Signature {
        id: "SIG-APP-JAR-NOT-LOCAL",
        category: Category::JobJarNotFound,
        severity: Severity::Critical,
        literals: &["is supported as schema for application mode"],
        pattern: r#"Only "local" is supported as schema for application mode"#,
        title: "application mode needs the job jar inside the image (local://)",
        explanation: "this Flink version's application mode only takes a job jar already in the image (`local://`); a remote URI (https://, s3://) is not fetched",
        fix: "build the jar into the image and point at it (`jarURI: local:///opt/flink/usrlib/<job>.jar`), or download it in an init container into a volume shared with flink-main-container and point jarURI at that local:// path; Flink 1.17 and later fetch remote jar URIs themselves (FLINK-28915)",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.status.jobStatus.state}'   # expect: RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[r#"Caused by: java.lang.IllegalArgumentException: Only "local" is supported as schema for application mode. This assumes that the jar is located in the image, not the Flink client. An example of such path is: local:///opt/flink/examples/streaming/WindowJoin.jar"#],
        unless: &[],
        sources: &[
            "apache/flink@4f7725aa790a:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/KubernetesUtils.java",
        ],
    },
    // The same check in a stack trace: it throws a NullPointerException when `pipeline.jars` is unset.
    Signature {
        id: "SIG-APP-JAR-CHECK-FRAME",
        category: Category::JobJarNotFound,
        severity: Severity::Warning,
        literals: &["KubernetesUtils.checkJarFileForApplicationMode("],
        pattern: r"at org\.apache\.flink\.kubernetes\.utils\.KubernetesUtils\.checkJarFileForApplicationMode\(",
        title: "application mode has no usable job jar (pipeline.jars)",
        explanation: "the application-mode JobManager failed checking the job jar in `pipeline.jars`: none is configured (a NullPointerException: no jarURI, or the entrypoint did not read the configuration Flink on Kubernetes mounts at /opt/flink/conf, e.g. because the image moved FLINK_HOME) or its URI is not usable",
        fix: "set spec.job.jarURI (or `pipeline.jars`) to the job jar inside the image (`local:///opt/flink/usrlib/<job>.jar`) and keep the image's FLINK_HOME at /opt/flink, where the configuration is mounted (`kubernetes.flink.conf.dir`); a job jar only on the system classpath, without pipeline.jars, works in native mode only with a Flink release that has FLINK-33926",
        verify: "kubectl get configmap flink-config-<deployment> -n <namespace> -o yaml | grep -F pipeline.jars   # expect: the job jar's local:// URI",
        explains: STARTUP,
        supersedes: &[],
        examples: &["\tat org.apache.flink.kubernetes.utils.KubernetesUtils.checkJarFileForApplicationMode(KubernetesUtils.java:400) ~[flink-dist-1.15.2.jar:1.15.2]"],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/KubernetesUtils.java",
            "apache/flink@4f7725aa790a:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/KubernetesUtils.java",
        ],
    },
    Signature {
        id: "SIG-ENTRY-CLASS-NOT-FOUND",
        category: Category::JobEntryClassError,
        severity: Severity::Critical,
        literals: &["entry point class '", "Could not find the provided job class"],
        pattern: r"The program's entry point class '(?P<class>[^']+)' (?:was not found in the jar file|threw an error during initialization|could not be loaded due to a linkage failure|caused an exception during initialization)|Could not find the provided job class \((?P<class_2>[^)]+)\) in the user lib directory",
        title: "the job's entry class {class} cannot be loaded",
        explanation: "the entry class the job names is not in the jar (or fails to initialise)",
        fix: "set spec.job.entryClass to the fully qualified main class that is in the jar (`jar tf <job>.jar | grep <Class>.class`), and check the jar is the one you built",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.spec.job.entryClass} {.status.jobStatus.state}'   # expect: the class the jar holds, then RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "org.apache.flink.client.program.ProgramInvocationException: The program's entry point class 'com.amazonaws.services.kinesisanalytics.StreamingJob' was not found in the jar file.",
            "org.apache.flink.util.FlinkException: Could not find the provided job class (org.apache.flink.streaming.examples.wordcount.WordCount) in the user lib directory (/opt/flink/usrlib).",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-clients/src/main/java/org/apache/flink/client/program/PackagedProgram.java",
            "apache/flink@c919edff962e:flink-clients/src/main/java/org/apache/flink/client/deployment/application/ClassPathPackagedProgramRetriever.java",
            "apache/flink@93c834be953f:flink-clients/src/main/java/org/apache/flink/client/deployment/application/FromClasspathEntryClassInformationProvider.java",
        ],
    },
    Signature {
        id: "SIG-NO-MAIN-CLASS",
        category: Category::JobEntryClassError,
        severity: Severity::Critical,
        literals: &[
            "nor a 'program-class' entry was found",
            "Could not find or load main class",
            "No manifest found in jar file",
            "main(String[]) method",
            "declares a non-public main method",
            "declares a non-static main method",
            "must be public.",
            "Multiple JAR archives with entry classes",
            "Multiple JARs with manifest attribute for entry class",
        ],
        pattern: r"Multiple JARs with manifest attribute for entry class|Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file|Could not find or load main class (?P<class>[\w.$]+)|No manifest found in jar file|The class (?P<class_2>\S+) (?:has no main\(String\[\]\) method|declares a non-(?:public|static) main method|must be public\.)|The given program class does not have a main\(String\[\]\) method|Multiple JAR archives with entry classes found on classpath",
        title: "the job has no usable entry class ({class|none named})",
        explanation: "no entry class was given and the jar's manifest names none (or the named class cannot be loaded)",
        fix: "set spec.job.entryClass to the job's main class, or write Main-Class into the jar's manifest (maven-shade ManifestResourceTransformer)",
        verify: "kubectl get flinkdeployment <deployment> -n <namespace> -o jsonpath='{.spec.job.entryClass} {.status.jobStatus.state}'   # expect: the jar's main class, then RUNNING",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "org.apache.flink.client.program.ProgramInvocationException: Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file.",
            "Error: Could not find or load main class org.apache.flink.kubernetes.entrypoint.KubernetesApplicationClusterEntrypoint",
            "org.apache.flink.client.program.ProgramInvocationException: The class com.example.Job has no main(String[]) method.",
            "org.apache.flink.client.program.ProgramInvocationException: No manifest found in jar file '/opt/flink/usrlib/job.jar'. The manifest is need to point to the program's main class.",
            "org.apache.flink.util.FlinkException: Multiple JAR archives with entry classes found on classpath. Please provide an entry class name.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@c20d1003e68e:flink-clients/src/main/java/org/apache/flink/client/program/PackagedProgram.java",
            "openjdk/jdk@0265b5941a90:src/java.base/share/classes/sun/launcher/resources/launcher.properties",
            "apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/program/PackagedProgram.java",
            "apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/deployment/application/FromClasspathEntryClassInformationProvider.java",
        ],
    },
    // PackagedProgram.hasMainMethod: the entry class was found, but loading it failed on a class
    // it refers to (a connector or library the job's jar does not bundle); the message ends with
    // the class that is missing, as a path (`org/apache/flink/connector/kafka/source/KafkaSource`).
    Signature {
        id: "SIG-ENTRY-CLASS-LOAD",
        category: Category::JobEntryClassError,
        severity: Severity::Critical,
        literals: &["Could not look up the main(String[]) method from the class "],
        pattern: r"Could not look up the main\(String\[\]\) method from the class (?P<class>[\w.$]+): (?P<missing>[\w/$.]+)?",
        title: "the entry class {class} cannot be loaded: {missing|a class it uses} is missing",
        explanation: "Flink found the job's entry class but could not load it: a class it refers to (named after the colon, usually a connector or library) is not on the job's classpath",
        fix: "bundle {missing|the missing class}'s library into the job's fat jar (maven-shade/gradle shadow, scope compile, not provided), or put that jar into /opt/flink/lib (or usrlib) of the image; a connector must match the image's Flink version",
        verify: "kubectl logs <jobmanager-pod> -n <namespace> -c flink-main-container | grep -cF 'Could not look up the main(String[]) method'   # expect 0 once the job's jar carries {missing|the missing class} (unzip -l on the jar you build lists it)",
        explains: STARTUP,
        supersedes: &["SIG-NO-MAIN-CLASS"],
        examples: &[
            "java.lang.RuntimeException: Could not look up the main(String[]) method from the class com.example.Job: org/apache/flink/connector/kafka/source/KafkaSource",
        ],
        unless: &[],
        sources: &["apache/flink@release-1.20.0:flink-clients/src/main/java/org/apache/flink/client/program/PackagedProgram.java"],
    },
    // StreamTaskStateInitializerImpl: an operator's state could not be set up, which for a job
    // starting from a savepoint or checkpoint is its restore; the `Caused by:` chain says why.
    Signature {
        id: "SIG-OPERATOR-STATE-CONTEXT",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Warning,
        literals: &["Exception while creating StreamOperatorStateContext"],
        pattern: r"Exception while creating StreamOperatorStateContext",
        title: "an operator's state could not be restored or created",
        explanation: "a task failed while setting up its operator's state backend, which includes restoring the state from the savepoint or checkpoint the job started from: an incompatible state (a changed serializer or operator, a savepoint of an older Flink or another state backend) or unreadable state files; the `Caused by:` lines below name which",
        fix: "read the `Caused by:` chain under this line: for a state incompatibility restore with `--allowNonRestoredState` only if losing that operator's state is acceptable, or keep the operator's uid and serializer; for a savepoint of another Flink release check the state compatibility table; for unreadable files check the storage credentials",
        verify: "kubectl logs <jobmanager-pod> | grep -m1 -A8 'StreamOperatorStateContext'",
        explains: &[],
        supersedes: &[],
        examples: &["java.lang.Exception: Exception while creating StreamOperatorStateContext."],
        unless: &[],
        sources: &["apache/flink@release-2.0.0:flink-runtime/src/main/java/org/apache/flink/streaming/api/operators/StreamTaskStateInitializerImpl.java"],
    },
    Signature {
        id: "SIG-CLASS-NOT-FOUND",
        category: Category::JobEntryClassError,
        severity: Severity::Warning,
        literals: &["ClassNotFoundException: "],
        // Hadoop's Configuration.getClassByName words it "Class <name> not found".
        pattern: r"ClassNotFoundException: (?:Class )?(?P<class>[\w.$]+)",
        title: "class {class} is not on the job's classpath",
        explanation: "a class the job needs (its entry class or a dependency, e.g. a connector) is not on the classpath",
        fix: "package {class} into the job's fat jar (or put its jar into /opt/flink/lib or usrlib in the image); if it is the entry class, check spec.job.entryClass",
        verify: "kubectl logs <pod> -n <namespace> -c flink-main-container | grep -cF {class|<class>}   # expect 0 once the job jar (or /opt/flink/lib) carries the class",
        explains: STARTUP,
        supersedes: &[],
        examples: &[
            "Caused by: java.lang.ClassNotFoundException: org.apache.flink.connector.kafka.source.KafkaSource",
            "Caused by: java.lang.ClassNotFoundException: Class com.example.orders.OrderEnricher not found",
        ],
        // Hadoop's own classes missing is an incomplete Hadoop classpath for Flink's security
        // module or file systems, not the job's classpath.
        // Hadoop's own classes are the file system's; Pekko's (and Akka's before 1.18) are Flink's
        // RPC system, loaded from its own jar by a component class loader that a shutdown closes:
        // a Flink 1.20.1 JobManager that could not bind its port failed to load
        // `org.apache.pekko.actor.dungeon.FaultHandling$$anonfun$...` while stopping (the lab).
        unless: &[
            "ClassNotFoundException: org.apache.hadoop.",
            "ClassNotFoundException: Class org.apache.hadoop.",
            "ClassNotFoundException: org.apache.pekko.",
            "ClassNotFoundException: akka.",
        ],
        sources: &[
            "observed:java.lang.ClassNotFoundException: <class> from the JDK class loaders (the message is the class name)",
            "apache/hadoop@017bbeade14d:hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/conf/Configuration.java",
        ],
    },
    // --- exposure -------------------------------------------------------------------------------
    Signature {
        id: "SIG-REST-SERVICE-NOT-FOUND",
        category: Category::RestServiceMissing,
        severity: Severity::Warning,
        literals: &["-rest\" not found"],
        pattern: r#"services? "(?P<service>[a-z0-9-]+-rest)" not found"#,
        title: "the REST Service {service} does not exist",
        explanation: "the JobManager's REST Service is missing, so the operator (or a client) cannot reach the JobManager's REST API",
        fix: "check that the JobManager Deployment exists and runs (Flink creates {service} with it); if it was deleted by hand, let the operator redeploy (`kubectl annotate` a restartNonce change or delete the JobManager Deployment)",
        verify: "kubectl get svc {service}",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/services/orders-rest. Message: services "orders-rest" not found. Received status: Status(apiVersion=v1, code=404, details=StatusDetails(causes=[], group=null, kind=services, name=orders-rest, retryAfterSeconds=null, uid=null, additionalProperties={}), kind=Status, message=services "orders-rest" not found, metadata=ListMeta(_continue=null, remainingItemCount=null, resourceVersion=null, selfLink=null, additionalProperties={}), reason=NotFound, status=Failure, additionalProperties={})."#],
        unless: &[],
        sources: &[
            "kubernetes/apimachinery@kubernetes-1.36.3:pkg/api/errors/errors.go",
            "fabric8io/kubernetes-client@v7.8.0:kubernetes-client/src/main/java/io/fabric8/kubernetes/client/dsl/internal/OperationSupport.java",
            "apache/flink@c20d1003e68e:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/decorators/ExternalServiceDecorator.java",
        ],
    },
];

/// Adds the fields fixes need that no message spells out (recomputed from the extracted ones,
/// so calling it again after merging or adding `flink_version` is safe):
/// - alternatives `x_2`, `x_3`, ... fold into `x`; `null` values (fabric8's toString) are dropped
/// - `kubectl_resource` (`deployments.apps`, `pods/log`), `role_name`, `target_namespace`
/// - `plugin` and `plugin_fix` from `scheme` (uses `flink_version` when known)
/// - `process` and `memory_fix` from `oom`
/// - `exit_meaning` from `exit_code`
/// - `yarn_process`, `yarn_usage` and `yarn_fix` from a YARN memory kill (`yarn_memory` or
///   `exit_status`, with `container_id` and the usage numbers when the line has them)
pub fn derive_fields(f: &mut BTreeMap<String, String>) {
    let alternatives: Vec<String> = f
        .keys()
        .filter(|k| {
            k.rsplit_once('_')
                .is_some_and(|(_, n)| n.len() == 1 && n.as_bytes()[0].is_ascii_digit())
        })
        .cloned()
        .collect();
    for k in alternatives {
        let v = f.remove(&k).unwrap_or_default();
        let base = k
            .rsplit_once('_')
            .map(|(b, _)| b.to_string())
            .unwrap_or_default();
        if !v.is_empty() && !f.contains_key(&base) {
            f.insert(base, v);
        }
    }
    f.retain(|_, v| v != "null");

    if let Some(resource) = f.get("resource").cloned() {
        let group = f
            .get("group")
            .filter(|g| !g.is_empty())
            .map(|g| format!(".{g}"))
            .unwrap_or_default();
        let kubectl_resource = match resource.split_once('/') {
            Some((r, sub)) => format!("{r}{group}/{sub}"),
            None => format!("{resource}{group}"),
        };
        f.insert("kubectl_resource".into(), kubectl_resource);
        if let Some(verb) = f.get("verb").cloned() {
            let name: String = format!("flink-{verb}-{resource}")
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect();
            f.insert("role_name".into(), name);
        }
    }
    if let Some(jar) = f.get("jar").cloned() {
        f.insert("jar_fix".into(), crate::flink::artifact::fix(&jar));
        f.insert("jar_verify".into(), crate::flink::artifact::verify(&jar));
    }
    if let Some(ns) = f
        .get("object_namespace")
        .or_else(|| f.get("namespace"))
        .cloned()
    {
        f.insert("target_namespace".into(), ns);
    }

    if f.contains_key("key") || f.contains_key("unit") {
        let fix = config_fix(
            f.get("key").map(String::as_str),
            f.get("value").map(String::as_str),
            f.get("unit").map(String::as_str),
        );
        f.insert("config_fix".into(), fix);
    }
    if let Some(scheme) = f.get("scheme").cloned() {
        let version = f
            .get("flink_version")
            .cloned()
            .unwrap_or_else(|| "<flink-version>".into());
        let (plugin, plugin_fix) = plugin_for(&scheme.to_ascii_lowercase(), &version);
        match plugin {
            Some(p) => f.insert("plugin".into(), p.into()),
            None => f.remove("plugin"),
        };
        f.insert("plugin_fix".into(), plugin_fix);
    } else if !f.contains_key("plugin_fix") {
        f.insert(
            "plugin_fix".into(),
            "Hadoop is not on Flink's classpath: for s3/gs/abfs/oss paths enable the matching Flink file system plugin (`ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-<flink-version>.jar`, flink-gs-fs-hadoop, flink-azure-fs-hadoop, flink-oss-fs-hadoop) in the podTemplate's flink-main-container env of the JobManager and TaskManagers; for hdfs:// put Hadoop on the classpath (`HADOOP_CLASSPATH`, or the Hadoop client jars in /opt/flink/lib)".into(),
        );
    }

    if let Some(oom) = f.get("oom").cloned() {
        if !f.contains_key("process") {
            if f.contains_key("jm") {
                f.insert("process".into(), "The JobManager".into());
            } else if f.contains_key("tm") {
                f.insert("process".into(), "A TaskManager".into());
            }
        }
        let jm = f.contains_key("jm");
        let tm = f.contains_key("tm");
        f.insert("memory_fix".into(), memory_fix(&oom, jm, tm));
    }

    if f.contains_key("net_pool") {
        let fix = network_fix(
            f.get("net_required").and_then(|v| v.parse().ok()),
            f.get("net_available").and_then(|v| v.parse().ok()),
            f.get("net_buffers").and_then(|v| v.parse().ok()),
            f.get("net_segment").and_then(|v| v.parse().ok()),
        );
        f.insert("network_fix".into(), fix);
    }

    if let Some(check) = yarn_check(f) {
        yarn_fields(f, check);
    }

    if let Some(code) = f.get("exit_code").and_then(|c| c.parse::<i64>().ok()) {
        f.insert(
            "exit_meaning".into(),
            crate::flink::exit::meaning(code)
                .map_or_else(|| format!("exit code {code}"), str::to_string),
        );
    }
}

/// Which of its memory checks a YARN NodeManager killed a container by.
#[derive(Clone, Copy, PartialEq)]
enum YarnCheck {
    Physical,
    Virtual,
}

/// The check from the diagnostics' wording (`physical` in Hadoop 2, `PHYSICAL` in Hadoop 3), or
/// from the exit status Flink logs beside them (ContainerExitStatus: -104 and -103).
fn yarn_check(f: &BTreeMap<String, String>) -> Option<YarnCheck> {
    match f
        .get("yarn_memory")
        .map(|k| k.to_ascii_lowercase())
        .as_deref()
    {
        Some("physical") => Some(YarnCheck::Physical),
        Some("virtual") => Some(YarnCheck::Virtual),
        _ => match f.get("exit_status").map(String::as_str) {
            Some("-104") => Some(YarnCheck::Physical),
            Some("-103") => Some(YarnCheck::Virtual),
            _ => None,
        },
    }
}

/// Bytes from a size as Hadoop's `TraditionalBinaryPrefix.long2String(n, "", 1)` then `B` print
/// it: `512B`, `4 GB`, `4.1 GB` (1024-based).
fn hadoop_size(text: &str) -> Option<f64> {
    let number = text.strip_suffix('B')?.trim_end();
    let (digits, power) = match number.chars().last()? {
        c @ ('K' | 'M' | 'G' | 'T' | 'P' | 'E') => (
            number[..number.len() - 1].trim_end(),
            "KMGTPE".find(c).map_or(0, |i| i + 1),
        ),
        _ => (number, 0),
    };
    let value: f64 = digits.parse().ok()?;
    Some(value * 1024f64.powi(power as i32))
}

/// What a YARN memory kill's title and fix say: which Flink process it was (a YARN
/// application's first container, `..._000001`, is its ApplicationMaster: Flink's JobManager),
/// the numbers the NodeManager printed, and the options that change them.
fn yarn_fields(f: &mut BTreeMap<String, String>, check: YarnCheck) {
    const MIB: f64 = 1024.0 * 1024.0;
    let container = f.get("container_id").cloned();
    let jobmanager = container
        .as_deref()
        .map(|c| c.rsplit('_').next() == Some("000001"));
    let process = match jobmanager {
        Some(true) => "the JobManager",
        Some(false) => "a TaskManager",
        None => "a Flink process",
    };
    f.insert("yarn_process".into(), process.into());
    let read = f.clone();
    let size = |k: &str| read.get(k).and_then(|v| hadoop_size(v));
    let text = |k: &str| read.get(k).cloned().unwrap_or_default();
    let (pmem_used, pmem_limit, vmem_used) =
        (size("pmem_used"), size("pmem_limit"), size("vmem_used"));
    // The killed process's own log, from YARN's log aggregation.
    let own_log = container
        .as_deref()
        .and_then(|c| {
            let parts: Vec<&str> = c.split('_').collect();
            // container_[e<epoch>_]<cluster timestamp>_<application>_<attempt>_<container>
            (parts.len() >= 5).then(|| {
                let n = parts.len();
                format!(
                    "; its own log up to the kill: `yarn logs -applicationId {} -containerId {}`",
                    crate::shell::quote(&format!("application_{}_{}", parts[n - 4], parts[n - 3])),
                    crate::shell::quote(c)
                )
            })
        })
        .unwrap_or_default();
    let (size_key, overhead_key) = match jobmanager {
        Some(true) => (
            "jobmanager.memory.process.size",
            "jobmanager.memory.jvm-overhead.fraction",
        ),
        _ => (
            "taskmanager.memory.process.size",
            "taskmanager.memory.jvm-overhead.fraction",
        ),
    };
    let whose = match jobmanager {
        Some(true) => "the JobManager",
        Some(false) => "the TaskManagers",
        None => "the killed process (a TaskManager; the JobManager when the container id ends in `_000001`, the application's first container: `jobmanager.memory.process.size` and `jobmanager.memory.jvm-overhead.fraction` then)",
    };
    match check {
        YarnCheck::Physical => {
            let usage = match (pmem_used, pmem_limit) {
                (Some(_), Some(_)) => format!(
                    "{} used of a {} container",
                    text("pmem_used"),
                    text("pmem_limit")
                ),
                _ => "more than its container's size".to_string(),
            };
            f.insert("yarn_usage".into(), usage);
            let new_size = match (pmem_used, pmem_limit) {
                (Some(used), Some(limit)) => {
                    // A quarter over what it took, in whole 128 MiB steps.
                    let mib = (used.max(limit) * 1.25 / MIB / 128.0).ceil() * 128.0;
                    format!(
                        "`{size_key}: {mib:.0}m` (the container had {}, the process took {}; a quarter more is a first step, not a measured need)",
                        text("pmem_limit"),
                        text("pmem_used")
                    )
                }
                _ => format!("`{size_key}` (e.g. a quarter over its current value)"),
            };
            let rocksdb = if jobmanager == Some(true) {
                ""
            } else {
                "; with RocksDB keep `state.backend.rocksdb.memory.managed: true` (the default) so its memory stays inside Flink's managed memory"
            };
            f.insert(
                "yarn_fix".into(),
                format!(
                    "give {whose} a larger container and more room for native memory: Flink on YARN asks for a container of exactly its process size, so raise {new_size} in the Flink configuration (or `-D{size_key}=...` when submitting; it must fit under YARN's `yarn.scheduler.maximum-allocation-mb`), and leave a larger share of it to JVM overhead, the budget for memory outside the heap and Flink's pools: `{overhead_key}: 0.2` (default 0.1, kept between `.min` 192m and `.max` 1g: raise `.max` too for containers over 5g){rocksdb}. If the process keeps growing whatever its size, look for native memory in user code or connectors{own_log}"
                ),
            );
        }
        YarnCheck::Virtual => {
            let which = match jobmanager {
                Some(true) => "the JobManager",
                Some(false) => "the TaskManagers",
                None => "the killed process (a TaskManager, or the JobManager when the container id ends in `_000001`)",
            };
            let ratio = match (size("vmem_limit"), pmem_limit) {
                (Some(v), Some(p)) if p > 0.0 => Some(v / p),
                _ => None,
            };
            let usage = match (vmem_used, ratio) {
                (Some(_), Some(r)) => format!(
                    "{} of address space reserved, over its {} limit ({r:.1} x the {} container; {} of it physically used)",
                    text("vmem_used"),
                    text("vmem_limit"),
                    text("pmem_limit"),
                    text("pmem_used")
                ),
                _ => "address space reserved over its container's size times `yarn.nodemanager.vmem-pmem-ratio`".to_string(),
            };
            f.insert("yarn_usage".into(), usage);
            let raise = match (vmem_used, pmem_limit) {
                (Some(v), Some(p)) if p > 0.0 => {
                    let needed = v / p;
                    format!(
                        "raise the property `yarn.nodemanager.vmem-pmem-ratio` (default 2.1) above the {needed:.1} times its size this container reserved, e.g. to {:.0}",
                        (needed * 1.25).ceil().max(needed.ceil() + 1.0)
                    )
                }
                _ => {
                    "raise the property `yarn.nodemanager.vmem-pmem-ratio` (default 2.1), e.g. to 5"
                        .to_string()
                }
            };
            f.insert(
                "yarn_fix".into(),
                format!(
                    "this is YARN's virtual-memory check, not memory the process used: on the cluster, in yarn-site.xml of every NodeManager, set the property `yarn.nodemanager.vmem-check-enabled` to `false` (the physical-memory check, `yarn.nodemanager.pmem-check-enabled`, still kills a container that really uses too much), or {raise}, and restart the NodeManagers. Without access to them, make {which} reserve less address space: glibc gives threads malloc arenas of up to 64 MiB of address space each, so cap them with `containerized.taskmanager.env.MALLOC_ARENA_MAX: \"4\"` (`containerized.master.env.MALLOC_ARENA_MAX` for the JobManager) in the Flink configuration, or ask for a larger container (`{size_key}`), whose virtual limit grows by the same ratio{own_log}"
                ),
            );
        }
    }
}

/// The fix for a TaskManager's network memory that holds too few buffers for its tasks, from the
/// numbers NetworkBufferPool prints: `required R, but only A available` and the pool's size
/// (`N of S bytes each`). Network memory is `taskmanager.memory.network.fraction` of the Total Flink
/// Memory, clamped to `.min` / `.max` (TaskManagerOptions; the max defaults to 1g in 1.16, unbounded
/// from 1.17), so setting min and max to the size needed fixes it whatever the fraction.
fn network_fix(
    required: Option<u64>,
    available: Option<u64>,
    buffers: Option<u64>,
    segment: Option<u64>,
) -> String {
    const ALTERNATIVES: &str = "or run fewer slots per TaskManager (`taskmanager.numberOfTaskSlots`) or a lower parallelism, since every task on a TaskManager takes buffers from the same pool";
    let mib = |bytes: u64| bytes.div_ceil(1024 * 1024);
    match (required, available, buffers, segment) {
        (Some(r), Some(a), Some(n), Some(seg)) if seg > 0 => {
            let need = n + r.saturating_sub(a);
            format!(
                "the network memory holds {n} buffers of {seg} bytes ({have} MiB) and the tasks asked for {more} more: give it at least {need} buffers, {size} MiB, in flinkConfiguration: `taskmanager.memory.network.min: \"{size}m\"` and `taskmanager.memory.network.max: \"{size}m\"` (keep spec.taskManager.resource.memory large enough for the rest, or raise it); {ALTERNATIVES}",
                have = mib(n * seg),
                more = r.saturating_sub(a),
                size = mib(need * seg),
            )
        }
        (_, _, Some(n), Some(seg)) if seg > 0 => format!(
            "the network memory holds {n} buffers of {seg} bytes ({have} MiB), fewer than the tasks need: raise it in flinkConfiguration, e.g. to twice that with `taskmanager.memory.network.min: \"{twice}m\"` and `taskmanager.memory.network.max: \"{twice}m\"` (or a higher `taskmanager.memory.network.fraction`, default 0.1, under a max that allows it); {ALTERNATIVES}",
            have = mib(n * seg),
            twice = 2 * mib(n * seg),
        ),
        _ => format!(
            "give the TaskManagers more network memory in flinkConfiguration: raise `taskmanager.memory.network.fraction` (default 0.1) and `taskmanager.memory.network.max`, or set `taskmanager.memory.network.min` and `.max` to the size the message's buffer count times its buffer size needs; {ALTERNATIVES}"
        ),
    }
}

/// The Flink plugin for a file system scheme, and the fix that enables it.
fn plugin_for(scheme: &str, version: &str) -> (Option<&'static str>, String) {
    let plugin = match scheme {
        "s3" | "s3a" => Some("flink-s3-fs-hadoop"),
        "s3p" => Some("flink-s3-fs-presto"),
        "gs" => Some("flink-gs-fs-hadoop"),
        "abfs" | "abfss" | "wasb" | "wasbs" => Some("flink-azure-fs-hadoop"),
        "oss" => Some("flink-oss-fs-hadoop"),
        _ => None,
    };
    let fix = match (plugin, scheme) {
        (Some(p), _) => {
            let alternative = if scheme == "s3" {
                " (flink-s3-fs-presto also serves s3:// and is the one recommended for checkpoints; enable one of the two)"
            } else {
                ""
            };
            format!(
                "enable the {p} plugin on the JobManager and the TaskManagers{alternative}: set the env var \
                 `ENABLE_BUILT_IN_PLUGINS={p}-{version}.jar` on flink-main-container in spec.podTemplate (the official \
                 image's entrypoint then links /opt/flink/opt/{p}-{version}.jar into its own folder under \
                 /opt/flink/plugins/), or copy that jar into /opt/flink/plugins/{p}/ in your image; every plugin needs \
                 its own subfolder"
            )
        }
        (None, "hdfs" | "viewfs" | "webhdfs" | "har") => format!(
            "Flink ships no plugin for {scheme}://: put Hadoop on the classpath of the JobManager and TaskManagers \
             (set `HADOOP_CLASSPATH` to the output of `hadoop classpath` in the image, or add the Hadoop client / \
             flink-shaded-hadoop jars to /opt/flink/lib) and mount the Hadoop configuration (`kubernetes.hadoop.conf.config-map.name`)"
        ),
        // local:// is a path in the Flink image, read only where Flink runs the job from its own
        // image (application mode). A FlinkSessionJob's jar is fetched by the operator instead:
        // http(s):// by itself, any other scheme through a Flink file system, which has no
        // `local` (apache/flink-kubernetes-operator@release-1.7.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/artifact/ArtifactManager.java).
        (None, "local") => "local:// names a file inside the Flink image, which only a job started from that image reads \
             (application mode: a FlinkDeployment's spec.job.jarURI). What fetches a jar, such as the operator for a \
             FlinkSessionJob, has no local:// file system: set the FlinkSessionJob's spec.job.jarURI to an http(s):// URL \
             or a file system URI (s3://, ...) the operator can read"
            .to_string(),
        (None, _) => format!(
            "Flink ships no file system for {scheme}://: check the path's scheme for a typo (s3://, gs://, abfss://, hdfs://), \
             or add a file system plugin that provides `{scheme}` under /opt/flink/plugins/<name>/"
        ),
    };
    (plugin, fix)
}

/// The fix for an option Flink could not parse: the key, and the value it reads, when the value
/// is a memory size in another notation (`512Mi`, `2 GiB`, `1.5g`), converted to Flink's (`512m`);
/// otherwise the key with one marked placeholder.
fn config_fix(key: Option<&str>, value: Option<&str>, unit: Option<&str>) -> String {
    // A size in Kubernetes' units is corrected to Flink's for a memory option only.
    let memory = key.is_none_or(|k| k.contains(".memory."));
    let corrected = value.filter(|_| memory).and_then(|v| {
        crate::flink::units::parse_flink_memory(v)
            .is_none()
            .then(|| crate::flink::units::parse_resource_memory(v))
            .flatten()
            .filter(|b| *b >= 1.0)
            .map(|b| {
                let mib = b / 1048576.0;
                if mib.fract() == 0.0 {
                    format!("{}m", mib as u64)
                } else {
                    format!("{}k", (b / 1024.0).ceil() as u64)
                }
            })
    });
    let units = "Flink's units are 1024-based: b, k or kb, m or mb, g or gb, t or tb (2048m, 2g); Kubernetes' Mi and Gi are not among them";
    match (key, value, corrected) {
        (Some(k), Some(v), Some(c)) => format!(
            "set `{k}: {c}` instead of `{v}` (in spec.flinkConfiguration, or the ConfigMap Flink reads its configuration from). {units}."
        ),
        (Some(k), Some(v), None) => format!(
            "set `{k}` to a value its type takes instead of `{v}` (in spec.flinkConfiguration, or the ConfigMap Flink reads its configuration from): `{k}: <value of the option's type>`"
        ),
        _ => format!(
            "find the memory option whose value ends in `{}` (spec.flinkConfiguration, spec.*.resource.memory, or the ConfigMap Flink reads) and write it with one of Flink's units. {units}.",
            unit.unwrap_or("?")
        ),
    }
}

fn memory_fix(oom: &str, jm: bool, tm: bool) -> String {
    let pick = |jm_key: &str, tm_key: &str| -> String {
        match (jm, tm) {
            (true, _) => format!("`{jm_key}` (JobManager)"),
            (false, true) => format!("`{tm_key}` (TaskManager)"),
            (false, false) => {
                format!("`{tm_key}` on a TaskManager or `{jm_key}` on the JobManager")
            }
        }
    };
    let total = "keep spec.jobManager/taskManager.resource.memory large enough that the other pools still fit";
    match oom {
        "Java heap space" | "GC overhead limit exceeded" => format!(
            "raise the heap: {} (or the process total, spec.*.resource.memory, which grows it); {total}. If it keeps \
             growing over time, take a heap dump (`env.java.opts.all: -XX:+HeapDumpOnOutOfMemoryError`) and look for a leak \
             or state kept on the heap (consider RocksDB)",
            pick("jobmanager.memory.heap.size", "taskmanager.memory.task.heap.size")
        ),
        "Metaspace" | "Compressed class space" => format!(
            "raise {}; if it grows with every job restart, user code or a dependency leaks class loaders \
             (static caches, threads not stopped in close())",
            pick("jobmanager.memory.jvm-metaspace.size", "taskmanager.memory.jvm-metaspace.size")
        ),
        "Direct buffer memory" | "direct buffer memory" => format!(
            "raise {} (direct memory used by user code and connectors); {total}",
            pick("jobmanager.memory.off-heap.size", "taskmanager.memory.task.off-heap.size")
        ),
        "Requested array size exceeds VM limit" => {
            "a single record or state value is too large for one Java array: look for unbounded collections in state or oversized messages".into()
        }
        _ => "the process hit its thread limit: lower the threads it starts (slots per TaskManager, connector thread pools) or raise the pod's pids limit".into(),
    }
}

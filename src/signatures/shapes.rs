//! Shape readers: one signature for one *shape* of message, whichever client or library printed
//! it. A refusal (HTTP 401/403) from the official Kubernetes Java client or any client that prints
//! the API server's `is forbidden: User "X" cannot VERB resource "R"`; a connection refused, timed
//! out or unresolved to a Flink port (RPC 6123, blob 6124, REST 8081); an Akka or Pekko
//! association gated or quarantined; the JVM's own native-memory failure; the state storage Flink
//! cannot write. They are signatures like the others, so triage, doctor's log rules and
//! `logs --highlight` all read them.

use super::Signature;
use crate::finding::{Category, Severity};

/// Flink's ways of dying (see `catalogue::FATAL`): what these shapes explain when both appear.
const FATAL: &[&str] = &[
    "SIG-RETRY-EXHAUSTED",
    "SIG-RM-FATAL",
    "SIG-ENTRYPOINT-FATAL",
    "SIG-FATAL-THREAD",
    "SIG-TM-FATAL",
    "SIG-ENTRYPOINT-EXIT-CODE",
    "SIG-EXIT-CODE-239",
    "SIG-ENTRYPOINT-ARITHMETIC",
];

/// A refusal: Flink dies of it, and TaskManager pods are never created.
const REFUSED: &[&str] = &[
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

/// The JobManager out of reach: TaskManagers give up and the job has no slots.
const JM_UNREACHABLE: &[&str] = &["SIG-TM-FATAL", "SIG-NO-RESOURCES", "SIG-AKKA-QUARANTINED"];

const REFUSAL_FIX: &str = "find which account was refused and what it lacks: the lines after this one (or the exception's response body) name the verb and resource; run `kubectl flink can-i -n <namespace> <deployment> --fix`, which asks the API server what the Flink or operator ServiceAccount lacks and prints the minimal Role and RoleBinding";

const REFUSAL_VERIFY: &str = "kubectl flink can-i -n <namespace> <deployment>";

const JM_FIX: &str = "make the JobManager reachable at {host|the address in the line}:{port|6123}: check that the JobManager pod runs and is Ready, that its Service exists with endpoints on that port (`kubectl get svc,endpoints -o wide`), that `jobmanager.rpc.address` / `rest.address` name that Service, and that no NetworkPolicy blocks ports 6123 (RPC), 6124 (blob) and 8081 (REST) between the Flink pods";

const JM_VERIFY: &str = "kubectl get endpoints -o wide";

pub static SIGNATURES: &[Signature] = &[
    // --- Flink's RPC layer (flink-rpc-akka, Akka up to 1.17 and Pekko from 1.18) ---------------------
    // PekkoRpcService.connectInternal (AkkaRpcService before 1.18) fails a connection whose actor
    // it cannot resolve with this message; TaskExecutors retry it towards the ResourceManager and
    // JobMaster, so the endpoint is the JobManager's. A JobMaster's connection to a TaskExecutor
    // (`/user/rpc/taskmanager_N`) is the other direction and is left to the TaskManager signatures.
    Signature {
        id: "SIG-RPC-CONNECT-FAILED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Could not connect to rpc endpoint under address"],
        pattern: r"Could not connect to rpc endpoint under address (?:(?:akka|pekko)(?:\.ssl)?\.tcp://[^@\s]+@(?P<host>[A-Za-z0-9.-]+):(?P<port>\d+)/user/rpc/(?P<endpoint>[A-Za-z]+))?",
        title: "Flink's RPC cannot reach the JobManager{host| }{port|}",
        explanation: "a TaskManager (or client) could not resolve the JobManager's RPC endpoint (ResourceManager, JobMaster, Dispatcher) at this address: the JobManager is down or restarting, its Service or hostname does not resolve, or a NetworkPolicy drops port 6123",
        fix: "check that the JobManager pod is Running and its RPC Service resolves from the TaskManagers (`jobmanager.rpc.address` is the JobManager Service name in the same namespace, port 6123 open in any NetworkPolicy); a JobManager restart makes this transient, a steady stream of it does not",
        verify: "kubectl get pods,svc -l component=jobmanager",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-TM-FATAL"],
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.rpc.exceptions.RpcConnectionException: Could not connect to rpc endpoint under address pekko.tcp://flink@orders-jobmanager:6123/user/rpc/jobmanager_2.",
        ],
        unless: &["/user/rpc/taskmanager_", "Could not resolve ResourceManager address"],
        sources: &[
            "apache/flink@release-2.1.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/pekko/PekkoRpcService.java",
            "apache/flink@release-1.16.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/akka/AkkaRpcService.java",
        ],
    },
    // The RPC handshake refuses a peer of another Flink version (PekkoRpcActor.handleHandshakeMessage).
    Signature {
        id: "SIG-RPC-VERSION-MISMATCH",
        category: Category::FlinkVersionMismatch,
        severity: Severity::Critical,
        literals: &["Version mismatch between source"],
        pattern: r"Version mismatch between source \((?P<source>[^)]*)\) and target \((?P<target>[^)]*)\) rpc component",
        title: "Flink processes of different versions talk to each other (RPC version {source} vs {target})",
        explanation: "Flink's RPC handshake refused a peer built from another Flink version: a TaskManager, JobManager or client image does not match the others",
        fix: "run the same Flink version in every image (JobManager, TaskManager, the job's client and any sidecar): spec.image and spec.flinkVersion of the deployment, and the Flink the job jar was built against for the client",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-TM-FATAL"],
        supersedes: &[],
        examples: &[
            "org.apache.flink.runtime.rpc.exceptions.HandshakeException: Version mismatch between source (1) and target (2) rpc component. Please verify that all components have the same version.",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-2.1.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/pekko/PekkoRpcActor.java",
            "apache/flink@release-1.16.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/akka/AkkaRpcActor.java",
        ],
    },
    // flink-docker's entrypoint enables the optional plugins ENABLE_BUILT_IN_PLUGINS names by
    // linking /opt/flink/opt/<jar> into plugins/, and exits when a jar is not there.
    Signature {
        id: "SIG-ENTRYPOINT-PLUGIN-MISSING",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        literals: &[" does not exist. Exiting."],
        pattern: r"^\s*Plugin (?P<plugin>\S+) does not exist\. Exiting\.",
        title: "ENABLE_BUILT_IN_PLUGINS names {plugin}, which the image does not have",
        explanation: "the Flink image's entrypoint enables the plugins ENABLE_BUILT_IN_PLUGINS lists by linking /opt/flink/opt/<jar> into /opt/flink/plugins, and exits when a jar is not in /opt/flink/opt: the name is misspelt or carries another Flink version than the image's",
        fix: "set ENABLE_BUILT_IN_PLUGINS to jar names the image has, with its exact Flink version (`kubectl exec <pod> -- ls /opt/flink/opt`, e.g. flink-s3-fs-hadoop-1.20.0.jar), separated by `;`",
        verify: "kubectl get pods -l component=jobmanager",
        explains: &["SIG-K8S-POD-CRASHLOOP"],
        supersedes: &[],
        examples: &["Plugin flink-s3-fs-hadoop-1.19.0.jar does not exist. Exiting."],
        unless: &[],
        sources: &[
            "apache/flink-docker@983be3455636:1.20/scala_2.12-java17-ubuntu/docker-entrypoint.sh",
        ],
    },
    // --- the scheduler's FailedScheduling summary, any filter's reason -------------------------------
    // kube-scheduler joins the reasons its filter plugins return ("N <reason>" per reason) into
    // `0/M nodes are available: ...` (pkg/scheduler/schedule_one.go). The reasons with a fix of
    // their own (resources, node selector, taints) have their signatures; this reads the others,
    // as each plugin words them (pkg/scheduler/framework/plugins/*).
    Signature {
        id: "SIG-SCHED-FILTER-REASON",
        category: Category::PodUnschedulable,
        severity: Severity::Critical,
        literals: &["nodes are available: "],
        pattern: r"nodes are available: (?:.*?, )?\d+ (?P<reason>node\(s\) [^,.]+(?:\([^)]*\))?|Insufficient [\w./-]+|persistentvolumeclaim \S+ not found|pod has unbound immediate PersistentVolumeClaims)",
        title: "pods stay Pending: {reason}",
        explanation: "the scheduler found no node that passes this filter for the pod: anti-affinity or topology spread rules no node can satisfy, host ports already taken, a PersistentVolumeClaim that cannot be bound or whose volume is in another zone, or nodes cordoned",
        fix: "read the whole FailedScheduling message (`kubectl describe pod <pod>`): for (anti-)affinity and topology spread, relax the pod template's rules or add nodes where they can hold; for free ports, drop hostPort from the pod template; for persistent volumes, fix the PersistentVolumeClaim (`kubectl describe pvc`: its StorageClass, size and zone); for unschedulable nodes, uncordon them or add capacity",
        verify: "kubectl get pods --field-selector=status.phase=Pending",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            "  Warning  FailedScheduling  2m  default-scheduler  0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
            "0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints, 3 node(s) didn't find available persistent volumes to bind. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
            "0/2 nodes are available: 2 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@v1.34.0:pkg/scheduler/framework/plugins/interpodaffinity/filtering.go",
            "kubernetes/kubernetes@v1.34.0:pkg/scheduler/framework/plugins/podtopologyspread/filtering.go",
            "kubernetes/kubernetes@v1.34.0:pkg/scheduler/framework/plugins/nodeports/node_ports.go",
            "kubernetes/kubernetes@v1.34.0:pkg/scheduler/framework/plugins/volumebinding/volume_binding.go",
            "kubernetes/kubernetes@v1.34.0:pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go",
            "kubernetes/kubernetes@v1.24.0:pkg/scheduler/framework/plugins/volumezone/volume_zone.go",
        ],
    },
    // --- LimitRanger: a pod's requests or limits outside a LimitRange -------------------------------
    Signature {
        id: "SIG-LIMITRANGE-REFUSED",
        category: Category::ResourceQuotaExceeded,
        severity: Severity::Critical,
        literals: &[" usage per ", " max limit to request ratio per "],
        pattern: r"(?P<limitrange>(?:maximum|minimum) (?P<resource>[a-z0-9./-]+) usage per (?:Container|Pod|PersistentVolumeClaim) is [^,.\]]+(?:\.[0-9]+[^,\]\s]*)?(?:, but (?:limit|request) is [^,\]\s]+|\.\s+No (?:limit|request) is specified)|[a-z0-9./-]+ max limit to request ratio per (?:Container|Pod) is [^,\]]+, but (?:provided ratio is [0-9.]+|no (?:limit|request) is specified or (?:limit|request) is 0))",
        title: "a LimitRange refuses the pod: {limitrange}",
        explanation: "the namespace's LimitRange bounds every container's (or pod's) requests and limits, and the pod's are outside them, so the API server refuses to create it",
        fix: "bring spec.jobManager/taskManager.resource (Flink uses it as request and limit) within the LimitRange (`kubectl describe limitrange`), or change the LimitRange",
        verify: "kubectl describe limitrange",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &["SIG-FABRIC8-STATUS-403"],
        examples: &[
            r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: maximum memory usage per Container is 2Gi, but limit is 4Gi"#,
            r#"Error creating: pods "orders-taskmanager-1-1" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]"#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@v1.34.0:plugin/pkg/admission/limitranger/admission.go",
            "kubernetes/kubernetes@v1.24.0:plugin/pkg/admission/limitranger/admission.go",
        ],
    },
    // --- refusals from any client ----------------------------------------------------------------
    // The official Kubernetes Java client (the Apache operator's peers, Spring Cloud Kubernetes,
    // user code): `ApiException` carries the HTTP reason phrase as its message (`Forbidden`), and
    // since v13 `getMessage()` prints `Message: Forbidden` and `HTTP response code: 403`.
    Signature {
        id: "SIG-JAVA-CLIENT-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["ApiException: Forbidden", "ApiException: Message: Forbidden", "HTTP response code: 403"],
        pattern: r"io\.kubernetes\.client\.openapi\.ApiException: (?:Message: )?Forbidden\b|ApiException: (?:Message: )?Forbidden\b|HTTP response code: 403\b",
        title: "the API server refused a request of the Kubernetes Java client (403 Forbidden)",
        explanation: "a process using the official Kubernetes Java client (io.kubernetes.client) got 403 Forbidden from the API server: the ServiceAccount it runs as lacks a verb on a resource (a watch refused in `Watch.createWatch` throws exactly this)",
        fix: REFUSAL_FIX,
        verify: REFUSAL_VERIFY,
        explains: REFUSED,
        supersedes: &[],
        examples: &[
            "io.kubernetes.client.openapi.ApiException: Forbidden",
            "Caused by: io.kubernetes.client.openapi.ApiException: Message: Forbidden",
            "HTTP response code: 403",
        ],
        unless: &[],
        sources: &[
            "kubernetes-client/java@v18.0.0:util/src/main/java/io/kubernetes/client/util/Watch.java",
            "kubernetes-client/java@v27.0.0:util/src/main/java/io/kubernetes/client/util/Watch.java",
            "kubernetes-client/java@v27.0.0:kubernetes/src/main/java/io/kubernetes/client/openapi/ApiException.java",
        ],
    },
    Signature {
        id: "SIG-JAVA-CLIENT-401",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        literals: &["ApiException: Unauthorized", "ApiException: Message: Unauthorized", "HTTP response code: 401"],
        pattern: r"ApiException: (?:Message: )?Unauthorized\b|HTTP response code: 401\b",
        title: "the API server did not accept the Kubernetes Java client's credentials (401 Unauthorized)",
        explanation: "a process using the official Kubernetes Java client got 401 Unauthorized: it sent no token, or one the API server no longer accepts (an expired projected token, a deleted ServiceAccount)",
        fix: "make sure the pod gets a valid ServiceAccount token: the ServiceAccount it runs as must exist, `automountServiceAccountToken` must not be false, pods started before the ServiceAccount was recreated must be restarted, and a client older than bound tokens (Kubernetes Java client before 11) must be upgraded to re-read the token file",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,SA:.spec.serviceAccountName,AUTOMOUNT:.spec.automountServiceAccountToken",
        explains: REFUSED,
        supersedes: &[],
        examples: &["io.kubernetes.client.openapi.ApiException: Unauthorized", "HTTP response code: 401"],
        unless: &[],
        sources: &[
            "kubernetes-client/java@v18.0.0:util/src/main/java/io/kubernetes/client/util/Watch.java",
            "kubernetes-client/java@v27.0.0:kubernetes/src/main/java/io/kubernetes/client/openapi/ApiException.java",
        ],
    },
    // The API server's RBAC text for a user that is not a ServiceAccount (kubectl, client-go and
    // every client that prints the Status message): a person, a node, or `system:anonymous`.
    Signature {
        id: "SIG-K8S-FORBIDDEN-USER",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["is forbidden: User \""],
        pattern: r#"(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?)(?: "(?P<object>[^"]*)")? )?is forbidden: User "(?P<user>[^"]+)" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)"(?: in API group "(?P<group>[^"]*)")?(?: in the namespace "(?P<object_namespace>[^"]+)")?"#,
        title: "{user} may not {verb} {resource}",
        explanation: "the API server refused a request: the user or account named in the message lacks this verb on this resource",
        fix: "grant {user} exactly `{verb}` on `{resource}` (a Role and RoleBinding in that namespace, a ClusterRole for cluster-wide resources), or run the request as an identity that has it; `kubectl auth can-i {verb} {resource} --as={user}` shows what the API server decides",
        verify: "kubectl auth can-i {verb} {resource} --as={user}",
        explains: REFUSED,
        supersedes: &[],
        examples: &[
            r#"Error from server (Forbidden): flinkdeployments.flink.apache.org is forbidden: User "jane@example.com" cannot list resource "flinkdeployments" in API group "flink.apache.org" in the namespace "analytics""#,
            r#"E0301 10:00:00.000000       1 reflector.go:138] failed to list *v1.Pod: pods is forbidden: User "system:node:worker-1" cannot list resource "pods" in API group "" at the cluster scope"#,
        ],
        unless: &["User \"system:serviceaccount:", "User \"system:anonymous\""],
        sources: &[
            "kubernetes/kubernetes@v1.34.0:staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go",
            "kubernetes/kubernetes@v1.24.0:staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go",
        ],
    },
    Signature {
        id: "SIG-K8S-FORBIDDEN-ANONYMOUS",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:anonymous\""],
        pattern: r#"is forbidden: User "system:anonymous" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)""#,
        title: "requests reach the API server without credentials (system:anonymous may not {verb} {resource})",
        explanation: "the API server saw no token at all and treated the request as `system:anonymous`: the pod has no ServiceAccount token mounted, or the client does not read it",
        fix: "make sure the pod gets its ServiceAccount token: `automountServiceAccountToken` must not be false on the ServiceAccount or in the pod template, and the client must use the in-cluster configuration (no kubeconfig pointing elsewhere)",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,SA:.spec.serviceAccountName,AUTOMOUNT:.spec.automountServiceAccountToken",
        explains: REFUSED,
        supersedes: &[],
        examples: &[r#"Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/pods. Message: pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "prod"."#],
        unless: &[],
        sources: &["kubernetes/kubernetes@v1.34.0:staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go"],
    },
    // --- who cannot reach the JobManager -----------------------------------------------------------
    // Netty's and the JDK's connect failures with the address, to a JobManager port: RPC (6123),
    // blob server (6124), REST (8081). The wordings are the JDK's (glibc's strerror for ECONNREFUSED,
    // ETIMEDOUT, EHOSTUNREACH, ENETUNREACH; `connect timed out` / `Connect timed out` of the socket
    // implementations of Java 11 and 17; `Host unreachable` when errno has no text), with the address
    // Netty appends (AbstractChannel.annotateConnectException: `<message>: host/ip:port`, `null` for
    // epoll's NoRouteToHostException without a message) or Flink's BlobClient prefixes, and Netty's
    // own connect timeout (`connection timed out: ...`, from 4.1.102 `connection timed out after N
    // ms: ...`). tests/sweep.rs reads each swept wording on each port.
    Signature {
        id: "SIG-JM-PORT-UNREACHABLE",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["onnection refused", "onnection timed out", "onnect timed out", "No route to host", "Network is unreachable", "Host unreachable", "AnnotatedNoRouteToHostException: null", "Could not connect to BlobServer"],
        pattern: r"(?:[Cc]onnection refused|[Cc]onnection timed out(?: after \d+ ms)?|[Cc]onnect timed out|No route to host|Network is unreachable|Host unreachable|AnnotatedNoRouteToHostException: null|Could not connect to BlobServer at address)(?:: | )?(?:\w+://)?(?:flink@)?(?P<host>[A-Za-z0-9.-]+)?(?:/[0-9a-fA-F.:]+)?:(?P<port>6123|6124|8081)\b",
        title: "{host|the JobManager} does not answer on port {port}",
        explanation: "a connection to a JobManager port (6123 RPC, 6124 blob server, 8081 REST) was refused, timed out or found no route: the JobManager is not running there, its Service has no endpoints, or a NetworkPolicy drops the traffic",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &["SIG-JM-CONNECTION-REFUSED"],
        examples: &[
            "Caused by: org.apache.flink.shaded.netty4.io.netty.channel.ConnectTimeoutException: connection timed out: flink-jobmanager/10.96.12.4:6123",
            "java.io.IOException: Could not connect to BlobServer at address flink-jobmanager/10.96.12.4:6124",
            "java.net.NoRouteToHostException: No route to host: orders-rest/10.0.0.3:8081",
            "Caused by: org.apache.flink.shaded.netty4.io.netty.channel.ConnectTimeoutException: connection timed out after 10000 ms: orders-rest.analytics/10.96.14.2:8081",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/blob/BlobClient.java",
            "netty/netty@netty-4.1.100.Final:transport/src/main/java/io/netty/channel/nio/AbstractNioChannel.java",
            "netty/netty@netty-4.1.128.Final:transport/src/main/java/io/netty/channel/nio/AbstractNioChannel.java",
            "netty/netty@netty-4.1.100.Final:transport/src/main/java/io/netty/channel/AbstractChannel.java",
            "openjdk/jdk17u@jdk-17.0.19+10:src/java.base/unix/native/libnio/ch/Net.c",
            "openjdk/jdk17u@jdk-17.0.19+10:src/java.base/share/classes/sun/nio/ch/NioSocketImpl.java",
            "openjdk/jdk11u@jdk-11.0.31-ga:src/java.base/unix/native/libnet/PlainSocketImpl.c",
            "bminor/glibc@3d7d5c10c806ee24f8e35014e41e203002609a3f:sysdeps/gnu/errlist.h",
        ],
    },
    // --- Akka and Pekko remoting ---------------------------------------------------------------------
    // EndpointManager's supervisor (Remoting.scala): an association that failed is gated.
    Signature {
        id: "SIG-AKKA-GATED-JM",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Tried to associate with unreachable remote address"],
        pattern: r"Tried to associate with unreachable remote address \[(?:akka|pekko)(?:\.ssl)?\.tcp://flink@(?P<host>[A-Za-z0-9.-]+):(?P<port>6123)\]",
        title: "the connection to the JobManager at {host}:{port} is gated (unreachable)",
        explanation: "Flink's RPC (Akka or Pekko remoting) could not associate with the JobManager and stops trying for a while: the JobManager is down, restarting, or not reachable at that address",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &["SIG-AKKA-GATED"],
        examples: &[
            "WARN  akka.remote.Remoting - Tried to associate with unreachable remote address [akka.tcp://flink@10.0.0.7:6123]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters. Reason: [Association failed with [akka.tcp://flink@10.0.0.7:6123]] Caused by: [Connection refused: /10.0.0.7:6123]",
            "Tried to associate with unreachable remote address [pekko.tcp://flink@orders-jobmanager:6123]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters.",
        ],
        unless: &[],
        sources: &[
            "akka/akka@v2.6.20:akka-remote/src/main/scala/akka/remote/Remoting.scala",
            "apache/pekko@v1.0.1:remote/src/main/scala/org/apache/pekko/remote/Remoting.scala",
        ],
    },
    Signature {
        id: "SIG-AKKA-GATED",
        category: Category::TaskmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["Tried to associate with unreachable remote address", "address is now gated for"],
        pattern: r"(?:Tried to associate with unreachable remote address|Association with remote system) \[(?:akka|pekko)(?:\.ssl)?\.tcp://[^@\]\s]+@(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>\d+))?\](?:\. Address is now gated| has failed, address is now gated)",
        title: "Flink's RPC cannot reach {host}:{port|?} (association gated)",
        explanation: "Flink's RPC (Akka or Pekko remoting) could not associate with another Flink process and stops trying for a while: that process died or restarted (its pod is gone), or the address it registered with is not reachable",
        fix: "find the process at {host}: `kubectl get pods -o wide | grep {host}` (a TaskManager that was OOMKilled, evicted or restarted shows it); when it runs, check that the address it registered with (`taskmanager.host`, the pod IP by default) is reachable from the JobManager and no NetworkPolicy blocks its RPC port",
        verify: "kubectl get pods -o wide",
        explains: &["SIG-TM-HEARTBEAT-TIMEOUT", "SIG-TM-UNREACHABLE", "SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            "Tried to associate with unreachable remote address [pekko.tcp://flink@10.0.0.8:6122]. Address is now gated for 50 ms, all messages to this address will be delivered to dead letters. Reason: [Connection refused]",
            "Association with remote system [akka.tcp://flink@10.0.0.8:6122] has failed, address is now gated for [50] ms. Reason: [Disassociated]",
        ],
        unless: &[],
        sources: &[
            "akka/akka@v2.6.20:akka-remote/src/main/scala/akka/remote/Remoting.scala",
            "apache/pekko@v1.0.1:remote/src/main/scala/org/apache/pekko/remote/Remoting.scala",
        ],
    },
    // Remoting.scala (`... is irrecoverably failed. UID is now quarantined`) and Endpoint.scala
    // (`The remote system has quarantined this system`): one side declared the other dead, and
    // the quarantined process must restart. A symptom: why it was declared dead is elsewhere.
    Signature {
        id: "SIG-AKKA-QUARANTINED",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["irrecoverably failed", "reported as quarantined", "has quarantined this system"],
        pattern: r"(?:Association to \[(?:akka|pekko)(?:\.ssl)?\.tcp://[^@\]\s]+@(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>\d+))?\] (?:having|with) (?:UID \[[^\]]*\]|unknown UID) (?:is )?(?:irrecoverably failed|reported as quarantined)|[Tt]he remote system has quarantined this system)",
        title: "Flink's RPC quarantined {host|a peer}: it must restart to talk again",
        explanation: "Akka or Pekko remoting declared a peer dead (missed heartbeats: a long GC pause, a restarted pod, a network partition) and quarantined it; the quarantined process cannot reconnect until it restarts",
        fix: "find why the peer stopped answering: its previous log (`kubectl logs <pod> --previous`) and `kubectl describe pod <pod>` (OOMKilled, evicted, restarted); long GC pauses show in the GC log. A quarantined TaskManager is restarted by Kubernetes once Flink exits it",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount,LAST:.status.containerStatuses[0].lastState.terminated.reason",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            "Association to [akka.tcp://flink@10.0.0.9:6122] having UID [-12345] is irrecoverably failed. UID is now quarantined and all messages to this UID will be delivered to dead letters. Remote ActorSystem must be restarted to recover from this situation.",
            "Reason: [The remote system has quarantined this system. No further associations to the remote system are possible until this system is restarted.]",
        ],
        unless: &[],
        sources: &[
            "akka/akka@v2.6.20:akka-remote/src/main/scala/akka/remote/Remoting.scala",
            "akka/akka@v2.6.20:akka-remote/src/main/scala/akka/remote/Endpoint.scala",
            "apache/pekko@v1.0.1:remote/src/main/scala/org/apache/pekko/remote/Endpoint.scala",
        ],
    },
    // --- the JVM itself -------------------------------------------------------------------------------
    // HotSpot's fatal error report (vmError.cpp) when the JVM cannot reserve or commit memory.
    Signature {
        id: "SIG-JVM-NATIVE-MEMORY",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &["insufficient memory for the Java Runtime Environment", "Insufficient memory for the Java Runtime Environment", "Insufficient Memory for the Java Runtime Environment", "os::commit_memory(", "Native memory allocation ("],
        pattern: r"(?i:insufficient memory for the java runtime environment)(?: to continue)?|os::commit_memory\([^)]*\) failed; error=|Native memory allocation \((?:malloc|mmap)\) failed",
        title: "the JVM could not get the memory it was told to use",
        explanation: "the JVM itself failed to reserve or commit memory before Flink ran (HotSpot's `insufficient memory for the Java Runtime Environment`): the heap and other sizes it was started with exceed what the container may use",
        fix: "make the JVM's sizes fit the container: lower `taskmanager.memory.process.size` / `jobmanager.memory.process.size` (or spec.taskManager/jobManager.resource.memory, which sets them) below the container's memory limit, and remove -Xmx/-Xms set by hand in `env.java.opts*`; the `hs_err_pid*.log` next to this line names the allocation that failed",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,LIMIT:.spec.containers[0].resources.limits.memory",
        explains: FATAL,
        supersedes: &[],
        examples: &[
            "# There is insufficient memory for the Java Runtime Environment to continue.",
            "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000c0000000, 1073741824, 0) failed; error='Not enough space' (errno=12)",
            "# Native memory allocation (mmap) failed to map 1073741824 bytes for committing reserved memory.",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk17u@jdk-17.0.9-ga:src/hotspot/share/utilities/vmError.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/os/linux/os_linux.cpp",
        ],
    },
    // bash's arithmetic error in Flink's scripts (config.sh), when BashJavaUtils printed nothing to
    // compute the JVM's memory options from: the JVM it runs failed first.
    Signature {
        id: "SIG-ENTRYPOINT-ARITHMETIC",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["syntax error: operand expected"],
        pattern: r"(?P<script>\S+\.sh): line \d+: [^\n]*?syntax error: operand expected",
        title: "Flink's start script {script} computed its memory options from nothing",
        explanation: "bash failed on an arithmetic expression in Flink's start scripts: the memory sizes it reads from BashJavaUtils were empty, because the JVM that computes them failed (see the cause listed with it) or the memory options are invalid",
        fix: "this is how the script stops, not why: fix the error printed before it (the JVM's own error, or an invalid `*.memory.*` option); `kubectl logs <pod> --previous` shows the whole start",
        verify: "kubectl get pods -n <namespace> -l app=<deployment>,component=jobmanager   # expect: READY 1/1 and RESTARTS no longer growing",
        explains: &[],
        supersedes: &[],
        examples: &["/docker-entrypoint.sh: line 90: 1024 - : syntax error: operand expected (error token is \"- \")"],
        unless: &[],
        sources: &["apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/config.sh"],
    },
    // HotSpot's refusal of the heap it was asked for: the sizes do not parse, do not agree, or
    // cannot be reserved (arguments.cpp, gcArguments.cpp, universe.cpp and the collectors' heaps).
    Signature {
        id: "SIG-JVM-HEAP-SIZE",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &[
            "Could not reserve enough space",
            "heap size",
            "Could not allocate compressed class space",
            "Could not allocate metaspace: ",
            "MaxMetaspaceSize is too small",
            "young generation size",
            "heap free percentage",
            "You need at least 256mb of memory",
            "Too small ",
            "young gen ratio",
            "object heap + VM data",
            "GC triggered before VM initialization completed",
        ],
        pattern: r"(?P<what>Could not reserve enough space (?:for|in) [^\n(.]{1,60}|Invalid (?:initial |maximum )?(?:heap|young generation) size: \S+|Initial heap size set to a larger value than the maximum heap size|Incompatible (?:minimum and maximum|initial and maximum|minimum and initial) heap sizes specified|Too small (?:initial|maximum|minimum) heap|Invalid young gen ratio specified|The size of the object heap \+ VM data exceeds the maximum representable size|GC triggered before VM initialization completed[^\n]{0,60}|Bad (?:max|min) heap free percentage size: \S+|Could not allocate (?:compressed class space|metaspace): \S+ bytes|MaxMetaspaceSize is too small|You need at least 256mb of memory to use -XX:\+AggressiveHeap|Too small (?:initial|maximum) heap|(?:Initial|Minimum|Maximum) heap size \(\d+\w?\) is (?:too small|larger|smaller)[^\n]{0,60})",
        title: "the JVM refused the memory sizes it was started with: {what}",
        explanation: "HotSpot stopped before Flink ran because the heap options it was given (-Xmx/-Xms/-Xmn, computed by Flink's start scripts from the memory options, or set by hand in `env.java.opts*`) do not parse, contradict each other, or ask for more than the container can reserve",
        fix: "size the process inside the container: set `jobmanager.memory.process.size` / `taskmanager.memory.process.size` (or spec.jobManager/taskManager.resource.memory) below the container's memory limit and let Flink derive the heap; remove -Xmx/-Xms/-Xmn written by hand in `env.java.opts*`",
        verify: "kubectl logs <pod> --previous | grep -m1 -B2 -A2 'heap'",
        explains: FATAL,
        supersedes: &["SIG-JVM-CREATE-FAILED"],
        examples: &[
            "Could not reserve enough space for 2097152KB object heap",
            "Could not reserve enough space for object heap",
            "Invalid maximum heap size: -Xmx0m",
            "Initial heap size set to a larger value than the maximum heap size",
            "Could not allocate compressed class space: 1073741824 bytes",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/memory/universe.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/runtime/arguments.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/gc/shared/gcArguments.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/gc/shared/genCollectedHeap.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/memory/metaspace.cpp",
            "openjdk/jdk11u@jdk-11.0.31-ga:src/hotspot/share/memory/metaspace.cpp:1176",
            "openjdk/jdk11u@jdk-11.0.31-ga:src/hotspot/share/memory/metaspace.cpp:1279",
        ],
    },
    // HotSpot's and the launcher's refusal of an option on the java command line (arguments.cpp,
    // libjli): an option of another Java release (CMS, PermGen, -Xbootclasspath/p, endorsed dirs)
    // or a typo, in `env.java.opts*` or JAVA_TOOL_OPTIONS.
    Signature {
        id: "SIG-JVM-OPTION-REFUSED",
        category: Category::FlinkFatalExit,
        severity: Severity::Critical,
        literals: &[
            "VM option",
            "Unrecognized option",
            "option: ",
            "is no longer a supported option",
            "is not supported.",
            "lib/ext exists",
            "lib/endorsed is not supported",
            "Invalid -Xlog option",
            "Invalid thread stack size",
            "Invalid maximum code cache size",
            "Syntax error, expecting -XX:",
            "Unmatched quote in",
            "environment variable",
            "garbage collectors selected",
            "Garbage collector not selected",
            "not supported",
            "can not be combined with",
        ],
        pattern: r"(?:Unrecognized VM option '(?P<option>[^']+)'|Improperly specified VM option '(?P<option_2>[^']+)'|(?:Missing|Unexpected) \+/- setting (?:for|in) VM option '(?P<option_3>[^']+)'|Unrecognized \w*\s?option: (?P<option_4>\S+)|Multiple garbage collectors selected|Garbage collector not selected|Option (?P<option_0>-XX:\+\S+) not supported|The flag -XX:\+UseG1GC can not be combined with \S+|(?P<option_5>-Xbootclasspath(?:/p)?) is no longer a supported option|(?P<option_6>-Djava\.(?:ext|endorsed)\.dirs=\S*) is not supported|<JAVA_HOME>/lib/(?:ext exists|endorsed is not supported)|Invalid -Xlog option '(?P<option_7>[^']+)'|Invalid thread stack size: (?P<option_8>\S+)|Invalid maximum code cache size: (?P<option_9>[^\s.]+)|Syntax error, expecting -XX:NativeMemoryTracking|Unmatched quote in (?:environment variable )?(?P<option_1>\S+)|Error: (?:Option \S+ (?:in \S+ )?is not allowed in|Cannot specify main class in) environment variable \S+)",
        title: "the JVM refused an option on its command line: {option|see the line}",
        explanation: "HotSpot stops before Flink starts when an option it was given is unknown to this Java release or malformed: Flink passes `env.java.opts*` (and the JVM reads JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS) to every JobManager and TaskManager JVM; options of Java 8 (CMS, PermGen, -Xbootclasspath/p, endorsed dirs) are gone from the Java 11/17 the images run",
        fix: "remove or correct the option the JVM refused ({option|see the line}) in `env.java.opts.all` / `env.java.opts.jobmanager` / `env.java.opts.taskmanager` (spec.flinkConfiguration) and in the pod's JAVA_TOOL_OPTIONS, for the Java release of the image (`java -XX:+PrintFlagsFinal -version` lists the flags it knows; when the JVM adds `Did you mean ...?`, that is the flag it knows)",
        verify: "kubectl logs <pod> --previous | grep -m1 -i 'option'",
        explains: &["SIG-JVM-CREATE-FAILED", "SIG-ENTRYPOINT-FATAL", "SIG-ENTRYPOINT-EXIT-CODE", "SIG-ENTRYPOINT-ARITHMETIC"],
        supersedes: &["SIG-JVM-CREATE-FAILED"],
        examples: &[
            "Unrecognized VM option 'UseConcMarkSweepGC'",
            "Improperly specified VM option 'MaxMetaspaceSize'",
            "Unrecognized option: --add-opens=java.base/java.lang=ALL-UNNAMED",
            "-Xbootclasspath/p is no longer a supported option.",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/runtime/arguments.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/java.base/share/native/libjli/emessages.h",
        ],
    },
    // Java 9+ modules: java.lang.reflect.AccessibleObject.checkCanSetAccessible refuses reflective
    // access to a package its module neither opens nor exports to the caller, and says which
    // (`Unable to make [field ]<member> accessible: module <m> does not "opens|exports <pkg>" to
    // unnamed module @<hash>`). Flink's own code reflects into java.base (Flink 1.20's DataStream
    // translators into java.util); the JVM of a Java 17 image needs `--add-opens` for it, which a
    // configuration without Flink's default JVM options (the operator's ConfigMap mounted over
    // conf/) does not give: what a real Flink 1.20.1 JobManager under operator 1.7.0 died of.
    Signature {
        id: "SIG-JAVA-MODULE-CLOSED",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &[" does not \"opens ", " does not \"exports "],
        pattern: r#"Unable to make (?:field )?\S.*? accessible: module (?P<module>[\w.]+) does not "(?P<directive>opens|exports) (?P<package>[\w.]+)" to (?:unnamed module|module [\w.]+)"#,
        title: "Java refused Flink access to {package}: module {module} does not \"{directive} {package}\" to Flink's classes",
        explanation: "the JVM (Java 9 and later) refused reflective access to a package its module does not open to Flink's classes; Flink's binary release passes its JVMs `--add-opens` / `--add-exports` options for Java 17 from its configuration file, and a configuration mounted over conf/ (the operator's ConfigMap) carries only spec.flinkConfiguration",
        fix: "give Flink's JVMs `--add-{directive}={module}/{package}=ALL-UNNAMED` in `env.java.opts.all` (spec.flinkConfiguration), keeping the options already there; another package refused after that is added the same way",
        verify: "kubectl logs <pod> | grep -c InaccessibleObjectException   # expect 0",
        explains: FATAL,
        supersedes: &[],
        examples: &[
            "Caused by: java.lang.reflect.InaccessibleObjectException: Unable to make field private final java.util.Map java.util.Collections$UnmodifiableMap.m accessible: module java.base does not \"opens java.util\" to unnamed module @589b3632",
            "java.lang.reflect.InaccessibleObjectException: Unable to make private java.nio.DirectByteBuffer(long,int) accessible: module java.base does not \"opens java.nio\" to unnamed module @6d86b085",
        ],
        unless: &[],
        sources: &["openjdk/jdk17u@jdk-17.0.19+10:src/java.base/share/classes/java/lang/reflect/AccessibleObject.java"],
    },
    // The launcher's and the VM's last words when the JVM did not start (libjli's JVM_ERROR1,
    // java.cpp's vm_exit_during_initialization): how it ended; the line before says why.
    Signature {
        id: "SIG-JVM-CREATE-FAILED",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Could not create the Java Virtual Machine", "Error occurred during initialization of VM"],
        pattern: r"(?:Error: )?Could not create the Java Virtual Machine|Error occurred during initialization of VM",
        title: "the JVM did not start",
        explanation: "the java launcher gave up before any Flink code ran; the line just before this one is the JVM's reason (an option it refused, a heap it could not reserve, a class path without the main class)",
        fix: "fix the reason printed just before this line; `kubectl logs <pod> --previous` shows it when the container has restarted",
        verify: "kubectl logs <pod> --previous | grep -m1 -B3 'Java Virtual Machine\\|initialization of VM'",
        explains: &["SIG-ENTRYPOINT-FATAL", "SIG-ENTRYPOINT-EXIT-CODE", "SIG-ENTRYPOINT-ARITHMETIC"],
        supersedes: &[],
        examples: &[
            "Error: Could not create the Java Virtual Machine.",
            "Error occurred during initialization of VM",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk17u@jdk-17.0.19+10:src/java.base/share/native/libjli/emessages.h",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/runtime/java.cpp",
        ],
    },
    // The launcher cannot find the main class or jar it was told to run (libjli's CLS_ERROR1/2,
    // JAR_ERROR2/3): for Flink's processes, the image's lib/ does not hold Flink's jars.
    Signature {
        id: "SIG-JVM-MAIN-CLASS-MISSING",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["Could not find the main class", "Failed to load Main Class", "Unable to access jarfile", "Invalid or corrupt jarfile"],
        pattern: r"Error: (?:Could not find the main class (?P<class>\S+?)\.?(?:\s|$)|Failed to load Main Class: (?P<class_2>\S+)|Unable to access jarfile (?P<what>\S+)|Invalid or corrupt jarfile (?P<what_2>\S+))",
        title: "the java launcher cannot find {class|the jar or main class it was told to run}",
        explanation: "the launcher cannot load the class or open the jar it was told to run (the wording of `Could not find or load main class`, read by SIG-NO-MAIN-CLASS, is the JDK's other one): for a JobManager or TaskManager that is Flink's own entrypoint class, so the image's /opt/flink/lib lacks Flink's jars (a custom image, or a volume mounted over lib/)",
        fix: "check the image's lib/ (`kubectl exec <pod> -- ls /opt/flink/lib`): it must hold flink-dist*.jar; do not mount a volume over /opt/flink/lib, and build custom images FROM the official flink image",
        verify: "kubectl exec <pod> -- ls /opt/flink/lib",
        explains: &["SIG-JVM-CREATE-FAILED", "SIG-ENTRYPOINT-FATAL", "SIG-ENTRYPOINT-EXIT-CODE"],
        supersedes: &[],
        examples: &[
            "Error: Could not find the main class org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint.",
            "Error: Unable to access jarfile /opt/flink/usrlib/job.jar",
        ],
        unless: &[],
        sources: &["openjdk/jdk17u@jdk-17.0.19+10:src/java.base/share/native/libjli/emessages.h"],
    },
    // HotSpot could not start an OS thread (os_linux.cpp, jvm.cpp): the pids limit of the
    // container or the node, or the native memory for the thread's stack.
    Signature {
        id: "SIG-JVM-THREAD-START",
        category: Category::JvmOutOfMemory,
        severity: Severity::Warning,
        literals: &["pthread_create failed", "Failed to start the native thread"],
        pattern: r#"(?:Failed to start thread "(?P<thread>[^"]*)" - pthread_create failed \((?P<errno>\w+)\)|Failed to start the native thread for java\.lang\.Thread "(?P<thread_2>[^"]*)")"#,
        title: "the JVM could not start a thread ({errno|pthread_create failed})",
        explanation: "the kernel refused the JVM a new thread: the container or node reached its process/thread limit (pids.max, the kubelet's podPidsLimit) or the memory for thread stacks ran out; the JVM then throws `OutOfMemoryError: unable to create native thread`",
        fix: "find what creates the threads (`jcmd <pid> Thread.print`, often a connector's client per subtask or a thread leak in the job) and lower it, or raise the pod's pids limit (the kubelet's podPidsLimit) and the container's memory",
        verify: "kubectl exec <pod> -- sh -c 'cat /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids.current 2>/dev/null'",
        explains: FATAL,
        supersedes: &[],
        examples: &[
            "[0.412s][warning][os,thread] Failed to start thread \"Unknown thread\" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 0k, detached.",
            "[3.100s][warning][os,thread] Failed to start the native thread for java.lang.Thread \"pool-3-thread-1\"",
        ],
        unless: &[],
        sources: &[
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/os/linux/os_linux.cpp",
            "openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/prims/jvm.cpp",
        ],
    },
    // Flink's start scripts (config.sh, bash-java-utils.sh, config-parser-utils.sh): BashJavaUtils, the
    // Java run that turns the memory options into JVM flags, failed; its raw output follows.
    Signature {
        id: "SIG-BASH-JAVA-UTILS",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["[ERROR] Could not get JVM parameters", "[ERROR] Could not get configurations properly", "[ERROR] Cannot run BashJavaUtils", "[ERROR] Could not parse configurations properly", "[ERROR] The execution result is empty", "[ERROR] The execution results has unexpected number of lines", "[ERROR] Raw output from BashJavaUtils", "[ERROR] An execution result line is expected"],
        pattern: r"\[ERROR\] (?:Could not get JVM parameters|Could not get configurations properly|Cannot run BashJavaUtils|Could not parse configurations properly|The execution result is empty|The execution results has unexpected number of lines|Raw output from BashJavaUtils|An execution result line is expected)",
        title: "Flink's start script could not compute the JVM's options",
        explanation: "before starting the JobManager or TaskManager, Flink's scripts run BashJavaUtils (a small Java program) to turn the configuration's memory options into -Xmx and friends; it failed, and the `Raw output from BashJavaUtils` below this line holds its exception: most often the memory options do not add up (IllegalConfigurationException), or the configuration file does not parse",
        fix: "read the raw output printed below this line and fix what it names (an `IllegalConfigurationException` names the memory option to change); `kubectl logs <pod> --previous` shows it when the container restarted",
        verify: "kubectl logs <pod> --previous | grep -m1 -A5 'Raw output from BashJavaUtils'",
        explains: FATAL,
        supersedes: &[],
        examples: &[
            "[ERROR] Could not get JVM parameters and dynamic configurations properly.",
            "[ERROR] Could not get configurations properly, the result is :",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/config.sh",
            "apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/bash-java-utils.sh",
            "apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/config-parser-utils.sh",
        ],
    },
    // Flink's config.sh / bash-java-utils.sh: no java on the PATH and no JAVA_HOME.
    Signature {
        id: "SIG-FLINK-NO-JAVA",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["Please specify JAVA_HOME"],
        pattern: r"Please specify JAVA_HOME\. Either in Flink config",
        title: "Flink's start script found no Java in the image",
        explanation: "Flink's scripts found neither `env.java.home` in the configuration, nor JAVA_HOME, nor a `java` on the PATH: the image has no Java where Flink looks (a custom image built on a base without a JRE, or a PATH/JAVA_HOME overridden in the pod spec)",
        fix: "build the image FROM an official flink image (it ships a JRE and sets JAVA_HOME), or set JAVA_HOME in the container's env to the JRE's folder",
        verify: "kubectl exec <pod> -- sh -c 'echo $JAVA_HOME; command -v java'",
        explains: FATAL,
        supersedes: &[],
        examples: &["Please specify JAVA_HOME. Either in Flink config ./conf/config.yaml or as system-wide JAVA_HOME."],
        unless: &[],
        sources: &["apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/config.sh"],
    },
    // Flink's scripts called with a service or argument they do not take: the container's
    // command/args were replaced (flink-console.sh, jobmanager.sh, taskmanager.sh, standalone-job.sh).
    Signature {
        id: "SIG-FLINK-SCRIPT-USAGE",
        category: Category::PodtemplateOverridesEntrypoint,
        severity: Severity::Warning,
        literals: &["Unknown service ", "Usage: jobmanager.sh", "Usage: taskmanager.sh", "Usage: standalone-job.sh", "Usage: kubernetes-jobmanager.sh", "Usage: kubernetes-taskmanager.sh"],
        pattern: r"(?:Unknown service (?P<service>\S+?)\.|Usage: (?P<service_2>(?:kubernetes-)?(?:jobmanager|taskmanager)\.sh|standalone-job\.sh))",
        title: "Flink's start script was called with arguments it does not take ({service|see the line})",
        explanation: "Flink's scripts print their usage when called with a service or mode they do not know; the images' entrypoint and the operator always call them right, so the container's command or args were replaced (a pod template's `command`/`args`, or a Deployment written by hand)",
        fix: "remove `command`/`args` from the main container (flink-main-container) in the pod template, or pass exactly what the image's entrypoint takes (`jobmanager`, `taskmanager`, `standalone-job`, or the native mode's `kubernetes-jobmanager.sh kubernetes-session|kubernetes-application`)",
        verify: "kubectl get pod <pod> -o jsonpath='{.spec.containers[0].command} {.spec.containers[0].args}'",
        explains: FATAL,
        supersedes: &[],
        examples: &[
            "Unknown service kubernetes-sesion. Usage: flink-console.sh (taskexecutor|zookeeper|historyserver|standalonesession|standalonejob|kubernetes-session|kubernetes-application|kubernetes-taskmanager|sql-gateway) [args].",
            "Usage: jobmanager.sh ((start|start-foreground) [args])|stop|stop-all",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/flink-console.sh",
            "apache/flink@release-1.20.0:flink-dist/src/main/flink-bin/bin/jobmanager.sh",
        ],
    },
    // --- the JobManager's address, resolved by Flink itself ------------------------------------------
    // Flink resolves the JobManager's address before it connects, to fail fast: the RPC URL
    // (AkkaRpcServiceUtils.getRpcUrl up to 1.17, PekkoRpcServiceUtils.getRpcUrl from 1.18, called by
    // HighAvailabilityServicesUtils for `jobmanager.rpc.address` when a TaskManager or client starts)
    // and the REST address (HighAvailabilityServicesUtils.getWebMonitorAddress, `rest.address`). Both
    // call InetAddress.getByName and throw only its UnknownHostException, or the precondition that the
    // address is set. So a stack frame of either method means the JobManager's own address failed,
    // whatever the name looks like (native mode's bare `<cluster-id>.<namespace>`, a Service name
    // without `jobmanager` in it). The reader takes the host from the `UnknownHostException: <host>`
    // line above the frame (the JDK prints `<host>: <gai_strerror>` for a fresh lookup, net_util_md.c,
    // and the bare `<host>` for a cached failure, InetAddress.java).
    Signature {
        id: "SIG-JM-ADDRESS-RESOLVE",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["RpcServiceUtils.getRpcUrl(", "HighAvailabilityServicesUtils.getWebMonitorAddress("],
        pattern: r"at org\.apache\.flink\.runtime\.(?:rpc\.(?:akka\.Akka|pekko\.Pekko)RpcServiceUtils\.getRpcUrl|highavailability\.HighAvailabilityServicesUtils\.getWebMonitorAddress)\(",
        title: "the JobManager's address {host|in the configuration} does not resolve",
        explanation: "Flink resolves the JobManager's address (`jobmanager.rpc.address`, or `rest.address` for the REST endpoint) before connecting, and the lookup failed: the Service it names is missing, in another namespace, misspelled, or DNS does not answer; in native mode the TaskManagers resolve `<cluster-id>.<namespace>`, the JobManager's internal Service",
        fix: JM_FIX,
        verify: JM_VERIFY,
        explains: JM_UNREACHABLE,
        supersedes: &[],
        examples: &[
            "\tat org.apache.flink.runtime.rpc.akka.AkkaRpcServiceUtils.getRpcUrl(AkkaRpcServiceUtils.java:168)",
            "        at org.apache.flink.runtime.rpc.pekko.PekkoRpcServiceUtils.getRpcUrl(PekkoRpcServiceUtils.java:167) ~[flink-rpc-akka_a1b2.jar:1.20.0]",
            "\tat org.apache.flink.runtime.highavailability.HighAvailabilityServicesUtils.getWebMonitorAddress(HighAvailabilityServicesUtils.java:225)",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/akka/AkkaRpcServiceUtils.java:168",
            "apache/flink@release-1.20.0:flink-rpc/flink-rpc-akka/src/main/java/org/apache/flink/runtime/rpc/pekko/PekkoRpcServiceUtils.java:167",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/highavailability/HighAvailabilityServicesUtils.java:225",
            "openjdk/jdk11u@jdk-11.0.31-ga:src/java.base/share/classes/java/net/InetAddress.java:797",
            "openjdk/jdk11u@jdk-11.0.31-ga:src/java.base/unix/native/libnet/net_util_md.c:425",
        ],
    },
    // --- Flink's REST client (RestClient: the operator's, the CLI's and RestClusterClient's calls) ---
    // ClientHandler.readRawResponse: the address answered with text that is not Flink's JSON, so it
    // is not the JobManager's REST endpoint (an ingress's default backend, a proxy, another service on
    // that port). ClientHandler.channelInactive: the endpoint closed the connection before answering.
    Signature {
        id: "SIG-REST-NOT-FLINK",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["Response was not valid JSON, but plain-text", "Unexpected plain-text response"],
        pattern: r"(?:Response was not valid JSON, but plain-text|Unexpected plain-text response): ?(?P<body>[^\n]{0,120})",
        title: "the REST address answers, but not as Flink's REST API: {body|plain text}",
        explanation: "Flink's REST client reached something at the JobManager's REST address that answered with plain text instead of Flink's JSON: an ingress or proxy (its default backend's `404 page not found`), another service on that port, or a Service whose selector picks the wrong pods",
        fix: "point the REST address at the JobManager's REST Service (`<cluster-id>-rest` on port 8081 in native mode and with the operator; `rest.address`/`rest.port` or the operator's `kubernetes.operator.flink.service.host-override`), and check what answers there: `kubectl get svc,endpoints -o wide` shows whether its endpoints are the JobManager pod",
        verify: "kubectl get endpoints -o wide",
        explains: &["SIG-RETRY-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            "Caused by: org.apache.flink.runtime.rest.util.RestClientException: Response was not valid JSON, but plain-text: 404 page not found",
            "2024-05-02 10:00:00,000 ERROR org.apache.flink.runtime.rest.RestClient [] - Unexpected plain-text response: default backend - 404",
        ],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/RestClient.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/RestClient.java",
        ],
    },
    Signature {
        id: "SIG-REST-CHANNEL-CLOSED",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["Channel became inactive"],
        pattern: r"Channel became inactive",
        title: "the JobManager's REST endpoint closed the connection before answering",
        explanation: "a REST call to the JobManager (from the operator, the CLI or a client) lost its connection before the answer: the JobManager restarted or died during the call, or a proxy or Service in between dropped it; the JobManager's own log says which",
        fix: "look at the JobManager when the call failed: `kubectl get pods` (a restart count or a recent start), and its `--previous` log if it restarted; a proxy or ingress in between may close idle or long calls (a job submission with a large jar)",
        verify: "kubectl get pods -o wide",
        explains: &["SIG-RETRY-EXHAUSTED"],
        supersedes: &[],
        examples: &["Caused by: org.apache.flink.runtime.rest.ConnectionClosedException: Channel became inactive."],
        unless: &[],
        sources: &[
            "apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/RestClient.java",
            "apache/flink@release-2.1.0:flink-runtime/src/main/java/org/apache/flink/runtime/rest/RestClient.java",
        ],
    },
    // --- state storage ----------------------------------------------------------------------------------
    // FsCheckpointStreamFactory: the stream under a checkpoint, or under Kubernetes HA's job graph
    // and checkpoint pointers (high-availability.storageDir), could not be opened.
    Signature {
        id: "SIG-STATE-STREAM-UNWRITABLE",
        category: Category::StorageAccessDenied,
        severity: Severity::Critical,
        literals: &["Could not open output stream for state backend"],
        pattern: r"Could not open output stream for state backend",
        title: "Flink cannot write to its state storage (checkpoints or HA storage)",
        explanation: "Flink could not open a file under its checkpoint directory or its HA storage directory (`high-availability.storageDir`, where Kubernetes HA keeps job graphs and checkpoint pointers): the path is not writable by the Flink user, does not exist, or its credentials are refused",
        fix: "make `high-availability.storageDir` and `state.checkpoints.dir` writable by the Flink process: for a volume, mount it and set `podSecurityContext.fsGroup: 9999` (Flink's user) in the pod template; for s3/gs/abfs, give the identity write access and enable the file system plugin; the `Caused by:` below this line names the path and the error",
        verify: "kubectl logs <pod> -n <namespace> -c flink-main-container | grep -c 'Completed checkpoint'   # expect more than 0 once the storage takes writes",
        explains: FATAL,
        supersedes: &[],
        examples: &["Caused by: java.io.IOException: Could not open output stream for state backend"],
        unless: &[],
        sources: &["apache/flink@release-1.16.0:flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/FsCheckpointStreamFactory.java:463"],
    },
    // --- a TaskManager taken away -------------------------------------------------------------------
    // The shapes in which a Flink pod is taken off its node or a TaskManager comes back as a new
    // process, whoever prints it: the scheduler's preemption event, the kubelet's preemption for a
    // critical pod and its graceful node shutdown (status message), and Flink's JobMaster when a
    // TaskManager re-registers after a restart. Heartbeat timeouts, unreachable TaskManagers and
    // terminated workers have their own signatures in the catalogue; this reads how they went.
    Signature {
        id: "SIG-TM-TAKEN-AWAY",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &[
            "Preempted by ",
            "preempted by Kubelet to accommodate a critical pod",
            "Preempted in order to admit critical pod",
            "in response to imminent node shutdown",
            "re-registered with a new session id",
        ],
        pattern: r"Preempted by (?P<preemptor>\S+) on node (?P<node>[\w.-]+)|Pod was preempted by Kubelet to accommodate a critical pod|Preempted in order to admit critical pod|Pod was terminated in response to imminent node shutdown|A registered TaskManager (?P<tm>\S+) re-registered with a new session id",
        title: "a Flink pod was taken away: preempted, its node shut down, or {tm|a TaskManager} restarted and came back as a new process",
        explanation: "the pod did not fail by itself: the scheduler preempted it for a pod of higher priority, the kubelet evicted it to admit a critical pod, its node shut down, or the TaskManager restarted and registered again; its slots and the tasks in them went with it",
        fix: "give Flink's pods a PriorityClass that is not preempted by the workloads around them (`priorityClassName` in spec.podTemplate / spec.taskManager.podTemplate), run them on nodes that are not reclaimed (spot and preemptible nodes are), and keep checkpointing on so the job restores its state; for a TaskManager that restarted, its previous log says why (`kubectl logs {tm|<taskmanager-pod>} --previous`)",
        verify: "kubectl get events --field-selector reason=Preempted",
        explains: &[
            "SIG-TM-HEARTBEAT-TIMEOUT",
            "SIG-TM-UNREACHABLE",
            "SIG-TM-CONNECTION-LOST",
            "SIG-TM-DATA-CONNECT-FAILED",
            "SIG-PARTITION-NOT-FOUND",
            "SIG-AKKA-GATED",
            "SIG-NO-RESOURCES",
            "SIG-RESTARTS-EXHAUSTED",
        ],
        supersedes: &[],
        examples: &[
            "  Normal   Preempted  10s  default-scheduler  Preempted by analytics/etl-7d9f on node gke-pool-1-abc",
            "Message:  Pod was terminated in response to imminent node shutdown.",
            "Message:  Pod was preempted by Kubelet to accommodate a critical pod.",
            "org.apache.flink.util.FlinkException: A registered TaskManager flink-taskmanager-1-3 re-registered with a new session id. This indicates a restart of the TaskManager. Closing the old connection.",
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@v1.36.3:pkg/scheduler/framework/preemption/executor.go",
            "kubernetes/kubernetes@v1.36.3:pkg/kubelet/preemption/preemption.go",
            "kubernetes/kubernetes@v1.36.3:pkg/kubelet/nodeshutdown/nodeshutdown_manager.go",
            "apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/JobMaster.java",
        ],
    },
    // --- a process killed for memory ---------------------------------------------------------------------
    // The kubelet's OOM watcher reports the kernel's OOM kills as a Warning event on the Node
    // (reason SystemOOM), naming the victim process when it knows it. A container's own
    // `OOMKilled` (any form: pod row, describe, status JSON/YAML, Flink's worker diagnostics) and
    // the kernel's `Memory cgroup out of memory` line are read by SIG-K8S-OOMKILLED and its kin.
    Signature {
        id: "SIG-SYSTEM-OOM",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &["System OOM encountered"],
        pattern: r"System OOM encountered(?:, victim process: (?P<process_name>[^,\s]+)(?:, pid: (?P<pid>\d+))?)?",
        title: "the node's kernel killed {process_name|a process} for memory",
        explanation: "the kernel's OOM killer ran on the node and killed a process; when the victim is `java` in a Flink pod, that JobManager or TaskManager died for memory without Flink logging anything (no OutOfMemoryError: the process was killed from outside)",
        fix: "find the pod whose process was killed (`kubectl get pods -o wide` on that node, the one whose container restarted with reason OOMKilled) and give it memory it can keep: set the container's memory request equal to its limit so the node is not overcommitted, raise spec.taskManager.resource.memory (or the JobManager's) and leave headroom for native memory (`taskmanager.memory.jvm-overhead.fraction`)",
        verify: "kubectl get events -A --field-selector reason=SystemOOM",
        explains: &[
            "SIG-TM-HEARTBEAT-TIMEOUT",
            "SIG-TM-UNREACHABLE",
            "SIG-TM-WORKER-TERMINATED",
            "SIG-TM-CONNECTION-LOST",
            "SIG-TM-DATA-CONNECT-FAILED",
            "SIG-PARTITION-NOT-FOUND",
            "SIG-NO-RESOURCES",
            "SIG-RESTARTS-EXHAUSTED",
        ],
        supersedes: &[],
        examples: &["  Warning  SystemOOM  2m  kubelet  System OOM encountered, victim process: java, pid: 48213"],
        unless: &[],
        sources: &["kubernetes/kubernetes@v1.36.3:pkg/kubelet/oom/oom_watcher_linux.go"],
    },
];

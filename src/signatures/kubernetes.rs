//! Signatures of the Kubernetes tools' own output: kubectl (get, describe, events, apply), the
//! kubelet, the scheduler, the API server and Helm. Each cites where its text is printed.
//!
//! `kubectl get pods` rows are matched by their shape (printers.go `printPod`): NAME, READY
//! (`%d/%d`), STATUS (the pod's reason, else its last container's waiting/terminated reason, with
//! `Init:` for init containers), RESTARTS (`8`, or `8 (2m ago)` since 1.22) and AGE (duration
//! `HumanDuration`: seconds up to 2 minutes, then `5m29s`, `19m`, `43h`, `12d` ...), after an
//! optional NAMESPACE column (`-A`) and with an optional `pod/` prefix (`get pods,svc`). Fields:
//! pod, ready, status, restarts, age, pod_namespace. A status that is only a moment of normal
//! start-up (Pending, ContainerCreating) counts once the pod is 2 minutes old (AGE in minutes or
//! more), so a row seconds after `kubectl apply` is not a finding.

use super::Signature;
use crate::finding::{Category, Severity};

/// A `kubectl get pods` row: `pod_row!(<name>, "<status alternatives>", <age>)`.
macro_rules! pod_row {
    ($name:ident, $status:literal, $age:ident) => {
        concat!(
            r"^\s*(?:(?P<pod_namespace>[a-z0-9][a-z0-9-]*)\s+)?(?:pod/)?(?P<pod>",
            pod_name!($name),
            r")\s+(?P<ready>\d+/\d+)\s+\**(?P<status>",
            $status,
            r")\**\s+(?P<restarts>\d+)(?: \([^)]*\))?\s+(?P<age>",
            pod_age!($age),
            r")(?:\s|$)"
        )
    };
}

/// Pod names (a DNS subdomain), in general and for the pods some signatures are about.
macro_rules! pod_name {
    (any) => {
        r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?"
    };
    (operator) => {
        r"[a-z0-9.-]*operator[a-z0-9.-]*"
    };
    (taskmanager) => {
        r"[a-z0-9.-]*taskmanager[a-z0-9.-]*"
    };
    // the Job of the GCP/Spotify flink-on-k8s-operator chart that creates the webhook Secret
    (cert_job) => {
        r"cert-job-[a-z0-9]{5}"
    };
}

/// AGE: any, or at least 2 minutes (kubectl prints seconds only below 2 minutes).
macro_rules! pod_age {
    (any) => {
        r"(?:\d+[smhdy])+|<unknown>|<invalid>"
    };
    (stuck) => {
        r"\d+[mhdy](?:\d+[smhd])?"
    };
}

const PRINTERS: &str = "kubernetes/kubernetes@v1.33.0:pkg/printers/internalversion/printers.go";

/// What a container killed by its memory limit explains (as SIG-K8S-OOMKILLED does, plus the
/// crash loop it leaves behind).
const KILLED: &[&str] = &[
    "SIG-TM-HEARTBEAT-TIMEOUT",
    "SIG-TM-UNREACHABLE",
    "SIG-TM-WORKER-TERMINATED",
    "SIG-TM-CONNECTION-LOST",
    "SIG-TM-DATA-CONNECT-FAILED",
    "SIG-PARTITION-NOT-FOUND",
    "SIG-NO-RESOURCES",
    "SIG-RESTARTS-EXHAUSTED",
    "SIG-K8S-POD-CRASHLOOP",
    "SIG-K8S-POD-INIT-FAILED",
    "SIG-K8S-OPERATOR-POD-CRASHLOOP",
];

const OOM_FIX: &str = "raise the memory limit of the container that was killed (`kubectl describe pod {pod|<pod>}` shows it: Last State: Terminated, Reason: OOMKilled, and its Limits). For a Flink pod raise spec.taskManager.resource.memory (or spec.jobManager.resource.memory) and give more of it to JVM overhead (`taskmanager.memory.jvm-overhead.fraction: \"0.2\"`), since Flink sizes its own memory to the limit and the overshoot is native memory outside its budget (RocksDB: keep `state.backend.rocksdb.memory.managed: true`); for an operator pod raise the memory in the chart's resources values";

const POD_LAST_STATE: &str = "kubectl get pod {pod|<pod>} -o jsonpath='{.status.containerStatuses[*].lastState.terminated.reason}'";

pub static SIGNATURES: &[Signature] = &[
    // --- kubectl get pods: rows ------------------------------------------------------------------
    Signature {
        id: "SIG-K8S-POD-OOMKILLED",
        category: Category::OomKilled,
        severity: Severity::Critical,
        literals: &["OOMKilled"],
        pattern: pod_row!(any, "OOMKilled|Init:OOMKilled", any),
        title: "pod {pod} was killed by its memory limit ({status})",
        explanation: "a container of the pod used more memory than its limit and the kernel killed it (exit code 137)",
        fix: OOM_FIX,
        verify: POD_LAST_STATE,
        explains: KILLED,
        supersedes: &["SIG-K8S-OOMKILLED"],
        examples: &["orders-taskmanager-1-3                 0/1     OOMKilled          2 (31s ago)   6m12s"],
        unless: &[],
        sources: &[PRINTERS],
    },
    Signature {
        id: "SIG-K8S-POD-IMAGE-PULL",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["ErrImagePull", "ImagePullBackOff", "InvalidImageName"],
        pattern: pod_row!(
            any,
            "ErrImagePull|ImagePullBackOff|InvalidImageName|Init:ErrImagePull|Init:ImagePullBackOff|Init:InvalidImageName",
            any
        ),
        title: "pod {pod} cannot pull its image ({status})",
        explanation: "the kubelet cannot pull an image of the pod: the name or tag does not exist, the registry refuses the credentials (or has none), or it cannot be reached",
        fix: "`kubectl describe pod {pod}` shows the image and the registry's answer in its events (`Failed to pull image \"<image>\": ...`): fix the image name or tag (spec.image, or the pod template), add an imagePullSecret for a private registry (spec.podTemplate.spec.imagePullSecrets, or the ServiceAccount's), or make the registry reachable from the nodes",
        verify: "kubectl get pod {pod} -o jsonpath='{.status.containerStatuses[*].state.waiting.message}'",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &["SIG-IMAGE-PULL"],
        examples: &[
            "flink-jobmanager-5d84d6b644-4xnjq    0/1     ImagePullBackOff    0          3m2s",
            "pod/basic-example-taskmanager-1-1   0/1     ErrImagePull   0          41s",
        ],
        unless: &[],
        sources: &[PRINTERS, "kubernetes/kubernetes@v1.33.0:pkg/kubelet/images/types.go"],
    },
    // kubelet image_manager.go: the Warning event (reason ErrImageNeverPull) and the status.
    Signature {
        id: "SIG-K8S-IMAGE-NEVER-PULL",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        literals: &["ErrImageNeverPull", "is not present with pull policy of Never"],
        pattern: concat!(
            pod_row!(any, "ErrImageNeverPull|Init:ErrImageNeverPull", any),
            r#"|Container image "(?P<image>[^"]+)" is not present with pull policy of Never|\bErrImageNeverPull\b"#
        ),
        title: "the image {image|of the pod} is not on the node and imagePullPolicy is Never",
        explanation: "the pod's imagePullPolicy is Never, so the kubelet only uses an image already on the node, and the image is not there (a locally built image that was never built or loaded into the cluster's container runtime)",
        fix: "put the image where the node's runtime sees it: build it inside the cluster's runtime (`eval $(minikube docker-env)` before `docker build`), or load it (`minikube image load <image>`, `kind load docker-image <image>`); or push it to a registry and set imagePullPolicy: IfNotPresent",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[0].image,POLICY:.spec.containers[0].imagePullPolicy,WAITING:.status.containerStatuses[0].state.waiting.reason",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &["SIG-IMAGE-PULL"],
        examples: &[
            "flink-taskmanager-85db6c9b98-xpj8g   0/2     ErrImageNeverPull   0          9m4s",
            "flink-jobmanager-7fcdd685cf-97rzp    0/1     ErrImageNeverPull   0          9m4s",
            r#"  Warning  ErrImageNeverPull  28s   kubelet            Container image "flink-packt:latest" is not present with pull policy of Never"#,
        ],
        unless: &[],
        sources: &[
            PRINTERS,
            "kubernetes/kubernetes@v1.33.0:pkg/kubelet/images/image_manager.go",
            "kubernetes/kubernetes@v1.33.0:pkg/kubelet/images/types.go",
        ],
    },
    Signature {
        id: "SIG-K8S-POD-PENDING",
        category: Category::PodUnschedulable,
        severity: Severity::Warning,
        literals: &[" Pending "],
        pattern: pod_row!(any, "Pending", stuck),
        title: "pod {pod} is still Pending after {age}",
        explanation: "the pod has not been placed on a node (or its node has not started it): the scheduler's FailedScheduling events in `kubectl describe pod` say why (not enough cpu or memory, node selector/affinity, taints, an unbound PersistentVolumeClaim)",
        fix: "run `kubectl describe pod {pod}` and read its Events: for `Insufficient cpu/memory` lower the pod's requests (spec.jobManager/taskManager.resource) or add nodes; for node affinity/selector or taints fix the pod template or the node labels/tolerations; for an unbound PersistentVolumeClaim create it or fix its StorageClass",
        verify: "kubectl get events --field-selector involvedObject.name={pod},reason=FailedScheduling",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &["beam-flink-cluster-taskmanager-78f8875d4-24zls                0/2          Pending   0          5m29s"],
        unless: &[],
        sources: &[PRINTERS],
    },
    Signature {
        id: "SIG-K8S-POD-CRASHLOOP",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["CrashLoopBackOff", " Error  ", "**Error**", "ExitCode:"],
        pattern: concat!(
            pod_row!(any, r"CrashLoopBackOff|Error|ExitCode:[1-9]\d*", any),
            r"|^\s+Reason:\s+CrashLoopBackOff\s*$"
        ),
        title: "{pod|a pod}: a container keeps exiting and being restarted ({status|CrashLoopBackOff})",
        explanation: "a container of the pod exits and Kubernetes restarts it with a growing back-off; why it exits is in its previous log and its last state",
        fix: "read why it exits: `kubectl logs {pod|<pod>} --previous` (add `-c flink-main-container` when the pod has several containers) and `kubectl describe pod {pod|<pod>}` (Last State: Terminated, Reason and Exit Code: 1 or 2 = Flink could not start or failed, 239 = Flink's fatal-error handler, 137 = OOMKilled or killed, 0 = the process ended normally but restartPolicy Always restarts it); then fix the error found there",
        verify: POD_LAST_STATE,
        explains: &[],
        supersedes: &[],
        examples: &[
            "my-job-submitter                                          0/1     CrashLoopBackOff   8          17m",
            "flink-jobmanager-6c8f5b7d9-m2xkq   0/1     Error              3 (45s ago)   2m10s",
            "      Reason:       CrashLoopBackOff",
        ],
        unless: &[],
        sources: &[
            PRINTERS,
            "kubernetes/kubernetes@v1.33.0:pkg/kubelet/container/sync_result.go",
            "kubernetes/kubectl@v0.33.0:pkg/describe/describe.go",
        ],
    },
    Signature {
        id: "SIG-K8S-POD-INIT-FAILED",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Init:Error", "Init:CrashLoopBackOff", "Init:ExitCode:", "Init:Signal:"],
        pattern: pod_row!(any, r"Init:(?:Error|CrashLoopBackOff|ExitCode:[1-9]\d*|Signal:\d+)", any),
        title: "an init container of pod {pod} fails ({status}), so its main container never starts",
        explanation: "an init container of the pod (one added in the pod template, e.g. to fetch the job jar) exits with an error, so Kubernetes never starts Flink's container",
        fix: "`kubectl describe pod {pod}` names the failing container under Init Containers; read its log with `kubectl logs {pod} -c <init-container> --previous` and fix what it reports (a download URL, credentials, a missing volume)",
        verify: "kubectl get pod {pod} -o jsonpath='{.status.initContainerStatuses[*].state}'",
        explains: &[],
        supersedes: &["SIG-K8S-POD-CRASHLOOP"],
        examples: &["orders-jobmanager-7d9c6b5f4-q8rtx   0/1     Init:CrashLoopBackOff   4 (70s ago)   3m51s"],
        unless: &[],
        sources: &[PRINTERS],
    },
    Signature {
        id: "SIG-K8S-OPERATOR-POD-CRASHLOOP",
        category: Category::OperatorNotRunning,
        severity: Severity::Critical,
        literals: &["CrashLoopBackOff", " Error  ", "**Error**"],
        pattern: pod_row!(operator, "CrashLoopBackOff|Error", any),
        title: "the operator pod {pod} is not running ({status}, {ready} ready, {restarts} restarts)",
        explanation: "a container of the operator's pod keeps exiting, so nothing reconciles the Flink resources (and its admission webhook, if any, does not answer)",
        fix: "read why it exits: `kubectl logs {pod} --all-containers --previous` and `kubectl describe pod {pod}` (Last State: OOMKilled = raise the operator's memory in the chart's resources values; otherwise the log names the error, typically a missing or outdated CRD, a missing webhook certificate, or RBAC); fix that, and its Deployment restarts it",
        verify: "kubectl get pods -A -o wide | grep -i operator",
        explains: &[],
        supersedes: &["SIG-K8S-POD-CRASHLOOP"],
        examples: &["pod/flink-operator-controller-manager-6886b99d68-2ktzd   1/2         CrashLoopBackOff   112                43h"],
        unless: &[],
        sources: &[PRINTERS],
    },
    // An operator pod mounts its webhook's TLS Secret (webhook-server-cert in the Apache chart, issued
    // by cert-manager, and in the GCP/Spotify chart, created by its cert-job); a missing Secret
    // volume keeps the pod in ContainerCreating (FailedMount).
    Signature {
        id: "SIG-K8S-OPERATOR-POD-CONTAINER-CREATING",
        category: Category::WebhookSecretMissing,
        severity: Severity::Warning,
        literals: &["ContainerCreating"],
        pattern: pod_row!(operator, "ContainerCreating", stuck),
        title: "the operator pod {pod} is stuck in ContainerCreating ({age}): it waits for a volume, usually the webhook certificate Secret",
        explanation: "a pod that does not leave ContainerCreating waits for a volume it mounts; for the operator that is usually the Secret with its webhook certificate (webhook-server-cert), which cert-manager or the chart's cert job was to create",
        fix: "`kubectl describe pod {pod} -n {pod_namespace|<operator-namespace>}` shows a FailedMount event naming the missing Secret; then find why it was not created: with cert-manager, `kubectl get certificate,certificaterequest -n {pod_namespace|<operator-namespace>}` and `kubectl describe` the one not Ready (is cert-manager installed and running?); with the GCP/Spotify chart, the cert-job's log (`kubectl logs job/cert-job -n {pod_namespace|<operator-namespace>}`); or install the operator with its webhook disabled",
        verify: "kubectl get secret webhook-server-cert -n {pod_namespace|<operator-namespace>}",
        explains: &[],
        supersedes: &[],
        examples: &[
            "pod/flink-operator-controller-manager-9bff44956-5pl6x   0/2     ContainerCreating   0          19m",
            "flink-operator-controller-manager-7447774975-blkkg   0/2     ContainerCreating   0          22m",
        ],
        unless: &[],
        sources: &[
            PRINTERS,
            "kubernetes/kubernetes@v1.33.0:pkg/kubelet/kubelet_pods.go",
            "GoogleCloudPlatform/flink-on-k8s-operator@00b91e26b86b:helm-chart/flink-operator/templates/generate-cert.yaml",
        ],
    },
    Signature {
        id: "SIG-K8S-CERT-JOB-FAILED",
        category: Category::WebhookSecretMissing,
        severity: Severity::Warning,
        literals: &["cert-job-"],
        pattern: pod_row!(cert_job, "Error|CrashLoopBackOff|ErrImagePull|ImagePullBackOff", any),
        title: "the operator chart's cert-job failed ({status}), so the webhook certificate Secret was not created",
        explanation: "the GCP/Spotify flink-on-k8s-operator chart creates its webhook's certificate Secret (webhook-server-cert) and webhook configurations from the Job cert-job (backoffLimit 0); when it fails, the operator pod cannot mount the Secret and stays ContainerCreating",
        fix: "read why it failed: `kubectl logs {pod} -n {pod_namespace|<operator-namespace>}` (it runs openssl and kubectl as the namespace's `default` ServiceAccount, which must be allowed to create Secrets and webhook configurations, and pulls gcr.io/flink-operator/deployer:webhook-cert); fix that and reinstall the chart so the Job runs again",
        verify: "kubectl get secret webhook-server-cert -n {pod_namespace|<operator-namespace>}",
        explains: &["SIG-K8S-OPERATOR-POD-CONTAINER-CREATING"],
        supersedes: &["SIG-K8S-POD-CRASHLOOP", "SIG-K8S-POD-IMAGE-PULL", "SIG-IMAGE-PULL"],
        examples: &[
            "cert-job-8dqjv                                       0/1     Error               0          22m",
            "flink-operator-system2   cert-job-4hfq6                                             0/1     **Error**               0          14s",
        ],
        unless: &[],
        sources: &[
            PRINTERS,
            "GoogleCloudPlatform/flink-on-k8s-operator@00b91e26b86b:helm-chart/flink-operator/templates/generate-cert.yaml",
        ],
    },
    // --- kubectl describe pod / events ----------------------------------------------------------
    // describe.go describeContainerState: `Exit Code:\t%d` under `Last State: Terminated`.
    Signature {
        id: "SIG-K8S-EXIT-137",
        category: Category::OomKilled,
        severity: Severity::Warning,
        literals: &["Exit Code:"],
        pattern: r"^\s*Exit Code:\s+137\s*$",
        title: "a container was killed (exit code 137: SIGKILL, usually its memory limit)",
        explanation: "exit code 137 is SIGKILL: with `Reason: OOMKilled` the kernel killed the container for exceeding its memory limit; without it, something else killed it (a failed liveness probe, a node's OOM killer or eviction)",
        fix: OOM_FIX,
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount,LAST:.status.containerStatuses[0].lastState.terminated.reason",
        explains: KILLED,
        supersedes: &[],
        examples: &["      Exit Code:    137"],
        unless: &[],
        sources: &["kubernetes/kubectl@v0.33.0:pkg/describe/describe.go"],
    },
    // kubelet eviction: the pod's status reason/message (describe `Reason:` / `Message:` at level
    // 0), the Evicted event, and the Evicted status in `get pods` for TaskManagers.
    Signature {
        id: "SIG-K8S-EVICTED",
        category: Category::TaskmanagerLost,
        severity: Severity::Warning,
        literals: &["The node was low on resource: ", " Evicted"],
        pattern: concat!(
            r"The node was low on resource: (?P<pressure>[\w.-]+)\.(?: Threshold quantity: [^,]+, available: [^.]+\.)?(?: Container (?P<container>\S+) was using (?P<usage>\S+), (?:request is|which exceeds its request of) (?P<request>[^,.\s]+))?",
            r"|^Reason:\s+Evicted\s*$|",
            pod_row!(taskmanager, "Evicted", any)
        ),
        title: "a pod was evicted: its node ran low on {pressure|a resource}",
        explanation: "the kubelet evicted the pod because its node ran low on a resource; pods using more than they request are evicted first, and the TaskManager and its slots go with them",
        fix: "give the pods requests equal to their limits so they are evicted last (Guaranteed QoS): the operator sets memory requests from spec.*.resource.memory (keep `kubernetes.taskmanager.memory.limit-factor` / `kubernetes.jobmanager.memory.limit-factor` at 1.0), and standalone manifests need resources.requests equal to resources.limits; {container|the container} used {usage|more than} against a request of {request|less}; add node capacity if the nodes are simply full",
        verify: "kubectl get pods --field-selector=status.phase=Failed -o custom-columns=NAME:.metadata.name,REASON:.status.reason,MESSAGE:.status.message",
        explains: &["SIG-TM-HEARTBEAT-TIMEOUT", "SIG-TM-UNREACHABLE", "SIG-TM-WORKER-TERMINATED", "SIG-TM-CONNECTION-LOST", "SIG-TM-DATA-CONNECT-FAILED", "SIG-PARTITION-NOT-FOUND"],
        supersedes: &[],
        examples: &[
            "Message:          The node was low on resource: memory. Container flink-main-container was using 5742364Ki, request is 2Gi, has larger consumption of memory. ",
            "  Warning  Evicted    12m   kubelet  The node was low on resource: ephemeral-storage. Threshold quantity: 4281317126, available: 3701836Ki. Container flink-main-container was using 1532Ki, which exceeds its request of 0. ",
            "Reason:           Evicted",
            "flink-taskmanager-7c9b8d6f5-2lq9x   0/1     Evicted   0          3h",
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@v1.33.0:pkg/kubelet/eviction/helpers.go",
            "kubernetes/kubectl@v0.33.0:pkg/describe/describe.go",
            PRINTERS,
        ],
    },
    // kubelet verifyRunAsNonRoot (kuberuntime): the container is never created
    // (CreateContainerConfigError) when runAsNonRoot is set and the image's user is a name or root.
    // Newer kubelets end the message in ` (pod: "<name>_<namespace>(<uid>)", container: <c>)`.
    Signature {
        id: "SIG-K8S-RUN-AS-NON-ROOT",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["container has runAsNonRoot and image ", "container's runAsUser breaks non-root policy"],
        pattern: concat!(
            r#"(?:container has runAsNonRoot and image (?:has non-numeric user \((?P<user>[^)]*)\)(?:,\s*cannot verify user is non-root)?|will run as root|has an invalid user id)|container's runAsUser breaks non-root policy)"#,
            r#"(?:[^(]*\(pod: "(?P<pod>[a-z0-9.-]+)_(?P<pod_namespace>[a-z0-9-]+)\()?"#
        ),
        title: "the kubelet will not start a container of {pod|the pod}: runAsNonRoot, and the image runs as {user|root}",
        explanation: "the pod's securityContext says runAsNonRoot but sets no numeric runAsUser, and the image's USER is a name (the kubelet cannot prove it is not root) or root, so the kubelet refuses to create the container (CreateContainerConfigError)",
        fix: "give the container a numeric non-root user next to runAsNonRoot: `securityContext.runAsUser: 9999` and `runAsGroup: 9999` (the `flink` user of the official Flink and operator images) in the pod template, or the operator chart's podSecurityContext for the operator pod; on OpenShift use an SCC that assigns a UID (restricted-v2) rather than one that only demands MustRunAsNonRoot; or build the image with a numeric `USER 9999`",
        verify: "kubectl get pod {pod|<pod>} -o jsonpath='{.status.containerStatuses[*].state.waiting.message}{.status.initContainerStatuses[*].state.waiting.message}'",
        explains: &[],
        supersedes: &[],
        examples: &[
            "container has runAsNonRoot and image has non-numeric user (flink),",
            r#"  Warning  Failed     12s (x3 over 40s)  kubelet  Error: container has runAsNonRoot and image has non-numeric user (flink), cannot verify user is non-root (pod: "basic-example-5cc7894895-chxzw_flink(0f2a4c1e-58a3-4c7e-9d0b-1b0e3f5e7a21)", container: flink-main-container)"#,
            "Error: container has runAsNonRoot and image will run as root",
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@ccde63b9c162:pkg/kubelet/kuberuntime/security_context_others.go",
            "observed:newer kubelets append (pod: \"<name>_<namespace>(<uid>)\", container: <container>) to the message (IBM Event Processing's troubleshooting page for its Flink operator)",
        ],
    },
    // The same refusal naming the operator's own pod (newer kubelets add the pod): the operator
    // does not start, whatever the image.
    Signature {
        id: "SIG-K8S-OPERATOR-RUN-AS-NON-ROOT",
        category: Category::OperatorNotRunning,
        severity: Severity::Critical,
        literals: &["container has runAsNonRoot and image ", "container's runAsUser breaks non-root policy"],
        pattern: concat!(
            r#"(?:container has runAsNonRoot and image (?:has non-numeric user \((?P<user>[^)]*)\)(?:,\s*cannot verify user is non-root)?|will run as root|has an invalid user id)|container's runAsUser breaks non-root policy)"#,
            r#"[^(]*\(pod: "(?P<pod>"#,
            pod_name!(operator),
            r#")_(?P<pod_namespace>[a-z0-9-]+)\("#
        ),
        title: "the operator pod {pod} is not started: runAsNonRoot, and its image runs as {user|root}",
        explanation: "the operator pod's securityContext (or the namespace's security policy, an OpenShift SCC) demands runAsNonRoot without a numeric runAsUser, and the operator image's USER is a name or root, so the kubelet never creates the container and nothing reconciles the Flink resources",
        fix: "give the operator pod a numeric user: the chart's `podSecurityContext` with `runAsUser: 9999` and `runAsGroup: 9999` (the `flink` user of the operator image), or on OpenShift an SCC that assigns a UID (restricted-v2, or the SCC the operator's vendor documents); then the Deployment rolls out",
        verify: "kubectl get pod {pod} -n {pod_namespace} -o jsonpath='{.status.containerStatuses[*].state.waiting.reason}{.status.initContainerStatuses[*].state.waiting.reason}'",
        explains: &[],
        supersedes: &["SIG-K8S-RUN-AS-NON-ROOT"],
        examples: &[
            r#"Error: container has runAsNonRoot and image has non-numeric user (flink), cannot verify user is non-root (pod: "flink-kubernetes-operator-dbd5764db-2zlsd_default(dca6e122-4296-44f0-b66b-8ede4307493c)", container: import-cert)"#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@ccde63b9c162:pkg/kubelet/kuberuntime/security_context_others.go",
            "observed:newer kubelets append (pod: \"<name>_<namespace>(<uid>)\", container: <container>) to the message (IBM Event Processing's troubleshooting page for its Flink operator)",
            "apache/flink-kubernetes-operator@release-1.15.0:helm/flink-kubernetes-operator/values.yaml",
        ],
    },
    // kubectl rollout status (and the installers that copy its status viewer, e.g. OLM's
    // `install failed: deployment <name> not ready before timeout: ...`): the operator's own
    // Deployment never became available.
    Signature {
        id: "SIG-K8S-OPERATOR-ROLLOUT-DEADLINE",
        category: Category::OperatorNotRunning,
        severity: Severity::Critical,
        literals: &["exceeded its progress deadline"],
        pattern: concat!(r#"deployment "(?P<deployment>"#, pod_name!(operator), r#")" exceeded its progress deadline"#),
        title: "the operator Deployment {deployment} never became ready (progress deadline exceeded)",
        explanation: "the operator's Deployment got no available pod within its progressDeadlineSeconds, so the install gave up waiting: the operator is not running and nothing reconciles the Flink resources",
        fix: "find why its pod is not ready: `kubectl get pods -A | grep {deployment}` and `kubectl describe pod <pod> -n <operator-namespace>` (the status and the events name it: CreateContainerConfigError from a security policy, ImagePullBackOff, Pending for resources, CrashLoopBackOff with `kubectl logs <pod> --previous`); fix that and the Deployment rolls out",
        verify: "kubectl rollout status deployment/{deployment} -n <operator-namespace>",
        explains: &[],
        supersedes: &[],
        examples: &[r#"install failed: deployment flink-kubernetes-operator not ready before timeout: deployment "flink-kubernetes-operator" exceeded its progress deadline"#],
        unless: &[],
        sources: &["kubernetes/kubectl@v0.33.0:pkg/polymorphichelpers/rollout_status.go"],
    },
    // --- API server admission: OwnerReferencesPermissionEnforcement (on in OpenShift) -----------
    // gc_admission.go: setting blockOwnerDeletion on an ownerReference needs `update` on the
    // owner's `finalizers` subresource. Flink's own objects are created by two parties: the
    // operators create the workloads (Deployments, StatefulSets, Jobs) owned by their custom
    // resource, the JobManager creates its TaskManager pods owned by its Deployment.
    Signature {
        id: "SIG-K8S-OWNERREF-FINALIZERS-OPERATOR",
        category: Category::OperatorRbacMissing,
        severity: Severity::Critical,
        literals: &["cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"],
        pattern: r#"(?P<resource_kind>deployments\.apps|statefulsets\.apps|jobs\.batch)(?: \\?"(?P<object>[^"\\]*)\\?")? is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"#,
        title: "the operator may not create {resource_kind} {object|}: it lacks `update` on the finalizers of the resource that owns it",
        explanation: "the API server (OwnerReferencesPermissionEnforcement, on by default in OpenShift) refused an object whose ownerReference blocks deletion of its owner: whoever creates it must be allowed to update the owner's finalizers, and the operator, which creates the Flink workloads owned by its custom resource, is not",
        fix: "add `update` on the owner's finalizers to the operator's ClusterRole (or Role): `flinkdeployments/finalizers` (group flink.apache.org) and `deployments/finalizers` (apps) for the Apache operator, `flinkapplications/finalizers` (flink.k8s.io) for Lyft's, `flinkclusters/finalizers` (flinkoperator.k8s.io) for the FlinkCluster operator; current charts grant them, so upgrading the chart also fixes it",
        verify: "kubectl get clusterrole,role -A -o yaml | grep -n finalizers",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"time="2019-06-03T18:10:48Z" level=error msg="Jobmanager deployment creation failed deployments.apps \"wordcount-operator-example-f5b2ddb2-jm\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: no RBAC policy matched, <nil>" app_name=wordcount-operator-example ns=flink-operator phase="#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@2876d1ab9b60:plugin/pkg/admission/gc/gc_admission.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/job_manager_controller.go",
        ],
    },
    Signature {
        id: "SIG-K8S-OWNERREF-FINALIZERS-POD",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"],
        pattern: r#"(?P<resource_kind>pods)(?: \\?"(?P<object>[^"\\]*)\\?")? is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"#,
        title: "the JobManager may not create TaskManager pod {object|}: its ServiceAccount lacks `update` on deployments/finalizers",
        explanation: "the JobManager creates its TaskManager pods owned by its own Deployment with blockOwnerDeletion; the API server (OwnerReferencesPermissionEnforcement, on by default in OpenShift) lets it do that only if its ServiceAccount may update that Deployment's finalizers",
        fix: "add to the Role bound to the ServiceAccount the Flink pods run as (spec.serviceAccount, or `kubernetes.service-account`): `- apiGroups: [apps]  resources: [deployments/finalizers]  verbs: [update]` (the Apache operator chart's `flink` Role includes it); `kubectl flink can-i <deployment> -n <namespace> --fix` prints the complete Role",
        verify: "kubectl auth can-i update deployments/finalizers -n <namespace> --as=system:serviceaccount:<namespace>:<flink-service-account>",
        explains: &["SIG-NO-RESOURCES", "SIG-RESTARTS-EXHAUSTED"],
        supersedes: &[],
        examples: &[
            r#"Message: pods "basic-example-taskmanager-1-1" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>."#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kubernetes@2876d1ab9b60:plugin/pkg/admission/gc/gc_admission.go",
            "apache/flink@release-1.20.1:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/kubeclient/Fabric8FlinkKubeClient.java",
        ],
    },
    // --- kubectl apply / helm install: kinds and resources the API server does not serve ---------
    // apimachinery meta.NoKindMatchError, inside cli-runtime's `unable to recognize` / `resource
    // mapping not found` and Helm's `unable to build kubernetes objects from release manifest`.
    Signature {
        id: "SIG-K8S-KIND-API-REMOVED",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        literals: &["no matches for kind"],
        pattern: r#"no matches for kind "(?P<kind>[A-Za-z]+)" in version "(?P<api_version>(?:apiextensions|admissionregistration)\.k8s\.io/v1beta1)""#,
        title: "the API server no longer serves {kind} in {api_version} (removed in Kubernetes 1.22)",
        explanation: "the manifest or chart was written for apiextensions.k8s.io/v1beta1 CustomResourceDefinitions and admissionregistration.k8s.io/v1beta1 webhook configurations, which Kubernetes 1.22 removed, so the operator's CRDs and webhooks cannot be installed",
        fix: "install an operator release (chart or manifests) whose CRDs and webhook configurations use apiextensions.k8s.io/v1 and admissionregistration.k8s.io/v1, or convert these manifests to the v1 APIs (the CRD schema moves under spec.versions[].schema)",
        verify: "kubectl api-versions | grep -E '^(apiextensions|admissionregistration)'",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"Error: INSTALLATION FAILED: unable to build kubernetes objects from release manifest: [unable to recognize "": no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1", unable to recognize "": no matches for kind "MutatingWebhookConfiguration" in version "admissionregistration.k8s.io/v1beta1", unable to recognize "": no matches for kind "ValidatingWebhookConfiguration" in version "admissionregistration.k8s.io/v1beta1"]"#,
            r#"error: unable to recognize "deploy/crd.yaml": no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1""#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/apimachinery@v0.33.0:pkg/api/meta/errors.go",
            "kubernetes/cli-runtime@v0.33.0:pkg/resource/mapper.go",
            "helm/helm@v3.17.0:pkg/action/install.go",
        ],
    },
    Signature {
        id: "SIG-CERT-MANAGER-LEGACY-KIND",
        category: Category::CertManagerMissing,
        severity: Severity::Critical,
        literals: &["no matches for kind"],
        pattern: r#"no matches for kind "(?P<kind>Certificate|Issuer|ClusterIssuer)" in version "(?P<api_version>certmanager\.k8s\.io/[^"]+)""#,
        title: "the chart needs cert-manager's old API {api_version}, which this cluster does not serve",
        explanation: "the chart creates cert-manager objects (Certificate, Issuer, ClusterIssuer) in the API group certmanager.k8s.io of cert-manager before 0.11; current cert-manager serves cert-manager.io instead, and without cert-manager neither exists",
        fix: "use an operator chart version written for cert-manager.io/v1 (or one that does not need cert-manager), and install cert-manager if it is missing (`kubectl apply -f https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml`)",
        verify: "kubectl api-resources --api-group=cert-manager.io",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error: unable to build kubernetes objects from release manifest: [unable to recognize "": no matches for kind "Certificate" in version "certmanager.k8s.io/v1alpha1", unable to recognize "": no matches for kind "Issuer" in version "certmanager.k8s.io/v1alpha1"]"#],
        unless: &[],
        sources: &["kubernetes/apimachinery@v0.33.0:pkg/api/meta/errors.go", "helm/helm@v3.17.0:pkg/action/install.go"],
    },
    Signature {
        id: "SIG-PROMETHEUS-KIND-MISSING",
        category: Category::CrdMissing,
        severity: Severity::Critical,
        literals: &["no matches for kind"],
        pattern: r#"no matches for kind "(?P<kind>ServiceMonitor|PodMonitor|PrometheusRule)" in version "(?P<api_version>monitoring\.coreos\.com/[^"]+)""#,
        title: "the chart creates a {kind}, but the Prometheus Operator's CRDs are not installed",
        explanation: "the chart renders Prometheus Operator objects (a ServiceMonitor, PodMonitor or PrometheusRule of monitoring.coreos.com) for Flink's metrics, and this cluster has no such CRD",
        fix: "install the Prometheus Operator's CRDs (e.g. with the kube-prometheus-stack chart) before the chart, or turn off the chart's ServiceMonitor/PodMonitor option in its values",
        verify: "kubectl api-resources --api-group=monitoring.coreos.com",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error: unable to build kubernetes objects from release manifest: unable to recognize "": no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1""#],
        unless: &[],
        sources: &["kubernetes/apimachinery@v0.33.0:pkg/api/meta/errors.go", "helm/helm@v3.17.0:pkg/action/install.go"],
    },
    // apimachinery errors.NewGenericServerResponse for a 404: `%s (%s %s)` with verb and resource.
    Signature {
        id: "SIG-CERT-MANAGER-RESOURCE-NOT-FOUND",
        category: Category::CertManagerMissing,
        severity: Severity::Critical,
        literals: &["the server could not find the requested resource ("],
        pattern: r"the server could not find the requested resource \((?P<verb>[a-z]+) (?P<plural>certificates|issuers|clusterissuers|certificaterequests)\.(?P<api_group>cert-manager\.io|certmanager\.k8s\.io)",
        title: "cert-manager is not installed: the API server has no {plural}.{api_group}",
        explanation: "the deploy creates cert-manager objects (the Certificate and Issuer of the operator's webhook) and the API server does not serve them: cert-manager's CRDs are not installed",
        fix: "install cert-manager first (`kubectl apply -f https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml`), wait until its pods are ready (`kubectl wait --for=condition=Available deployment --all -n cert-manager`), then deploy the operator again",
        verify: "kubectl get crd certificates.cert-manager.io issuers.cert-manager.io",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"Error from server (NotFound): error when creating "STDIN": the server could not find the requested resource (post certificates.cert-manager.io)"#,
            r#"Error from server (NotFound): error when creating "STDIN": the server could not find the requested resource (post issuers.cert-manager.io)"#,
        ],
        unless: &[],
        sources: &["kubernetes/apimachinery@v0.33.0:pkg/api/errors/errors.go"],
    },
    Signature {
        id: "SIG-CRD-RESOURCE-NOT-FOUND",
        category: Category::CrdMissing,
        severity: Severity::Critical,
        literals: &["the server could not find the requested resource ("],
        pattern: r"the server could not find the requested resource \((?P<verb>[a-z]+) (?P<plural>flink[a-z]+)\.(?P<api_group>flink\.apache\.org|flinkoperator\.k8s\.io|flink\.k8s\.io)",
        title: "the API server does not serve {plural}.{api_group}: the Flink CRD is not installed",
        explanation: "kubectl knew the kind but the API server answered 404 for its resource: the CRD was deleted or never installed (or kubectl's discovery cache is stale)",
        fix: "install the operator's CRDs (its Helm chart installs them on first install; `kubectl apply -f` the chart's crds/ otherwise), then retry; if they are installed, refresh kubectl's cache with `kubectl api-resources`",
        verify: "kubectl get crd {plural}.{api_group}",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Error from server (NotFound): error when creating "basic.yaml": the server could not find the requested resource (post flinkdeployments.flink.apache.org)"#],
        unless: &[],
        sources: &["kubernetes/apimachinery@v0.33.0:pkg/api/errors/errors.go"],
    },
    // kube-openapi ValidationError / UnknownFieldError (kubectl client-side validation) and the API
    // server's strict decoding error: a CRD manifest in the v1beta1 shape sent as v1.
    Signature {
        id: "SIG-CRD-MANIFEST-V1BETA1-FIELDS",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        literals: &["ValidationError(CustomResourceDefinition", "cannot be handled as a CustomResourceDefinition"],
        pattern: r#"(?:ValidationError\(CustomResourceDefinition(?:\.[\w\[\]]+)*\)|CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error): unknown field "(?P<field>[^"]+)""#,
        title: "the CRD manifest has the apiextensions.k8s.io/v1beta1 shape but is applied as v1 (unknown field {field})",
        explanation: "the CustomResourceDefinition declares apiextensions.k8s.io/v1 but keeps v1beta1 fields (spec.version, spec.validation, spec.subresources, spec.additionalPrinterColumns), which v1 moved under spec.versions[]",
        fix: "apply the CRD manifests of an operator release made for apiextensions.k8s.io/v1 (or regenerate them with the operator's controller-gen for crd v1), rather than editing apiVersion alone",
        verify: "kubectl apply --dry-run=server -f <crd.yaml>",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"error: error validating "flinkoperator.k8s.io_flinkclusters.yaml": error validating data: [ValidationError(CustomResourceDefinition.spec): unknown field "subresources" in io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec, ValidationError(CustomResourceDefinition.spec): unknown field "validation" in io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec, ValidationError(CustomResourceDefinition.spec): unknown field "version" in io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec]; if you choose to ignore these errors, turn validation off with --validate=false"#,
            r#"Error from server (BadRequest): error when creating "flinkoperator.k8s.io_flinkclusters.yaml": CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.validation""#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/kube-openapi@d427ff9ee9ad:pkg/util/proto/validation/errors.go",
            "kubernetes/apiserver@v0.33.0:pkg/endpoints/handlers/rest.go",
            "kubernetes/apimachinery@v0.33.0:pkg/runtime/error.go",
        ],
    },
    // --- admission webhooks: what the API server prints when calling one fails -----------------
    // The webhook is cert-manager's own (webhook.cert-manager.io; before 0.11 an aggregated API
    // behind webhook.certmanager.k8s.io, answering 503 while its pod is not ready).
    Signature {
        id: "SIG-CERT-MANAGER-WEBHOOK-DOWN",
        category: Category::CertManagerMissing,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook ["“](?P<webhook>webhook\.cert-manager\.io|webhook\.certmanager\.k8s\.io)["”]:\s*(?P<error>.*?)\s*$"#,
        title: "cert-manager's webhook does not answer: {error}",
        explanation: "creating the operator's cert-manager objects (Certificate, Issuer) calls cert-manager's own admission webhook, which is not running or not ready yet (cert-manager just installed, its webhook pod failing, or unreachable from the API server)",
        fix: "wait for cert-manager to be ready before deploying the operator (`kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=120s`) and check its pods (`kubectl get pods -n cert-manager`); on private GKE clusters allow the control plane to reach the webhook's port (10250) through the firewall; then deploy again",
        verify: "kubectl get pods,endpoints -n cert-manager",
        explains: &[],
        supersedes: &["SIG-WEBHOOK-X509", "SIG-WEBHOOK-CERT-EXPIRED", "SIG-WEBHOOK-UNREACHABLE"],
        examples: &[
            "Error from server (InternalError): error when creating “STDIN”: Internal error occurred: failed calling webhook “webhook.certmanager.k8s.io”: the server is currently unable to handle the request",
            r#"Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "webhook.cert-manager.io": failed to call webhook: Post "https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s": dial tcp 10.96.211.13:443: connect: connection refused"#,
        ],
        unless: &[],
        sources: &[
            "cert-manager/cert-manager@v1.18.2:deploy/charts/cert-manager/templates/webhook-mutating-webhook.yaml",
            "kubernetes/apimachinery@v0.33.0:pkg/api/errors/errors.go",
            "observed:https://github.com/GoogleCloudPlatform/flink-on-k8s-operator/issues/158",
        ],
    },
    // Older GKE control planes reach nodes through SSH tunnels; x/crypto/ssh OpenChannelError.
    Signature {
        id: "SIG-WEBHOOK-SSH-TUNNEL-REFUSED",
        category: Category::WebhookUnreachable,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook "(?P<webhook>[^"]+)":(?:.*?https://(?P<service>[a-z0-9-]+)\.(?P<service_namespace>[a-z0-9-]+)\.svc)?.*?(?P<error>ssh: rejected: connect failed \([^)]*\))"#,
        title: "the API server cannot reach webhook {webhook} ({error})",
        explanation: "the control plane reached the node through its SSH tunnel, but nothing accepted the connection on the webhook's pod port: the operator (its webhook server) is not running or not listening there",
        fix: "get the operator pod Running and Ready (`kubectl get pods -n {service_namespace|<operator-ns>}`; `kubectl logs` it for the webhook server's start), check Service {service|<webhook-service>} has endpoints on the port the webhook listens on, and on private GKE clusters allow the control plane to reach that port in the firewall; if the operator was removed, delete its leftover webhook configurations",
        verify: "kubectl get endpoints {service|<webhook-service>} -n {service_namespace|<operator-namespace>}",
        explains: &[],
        supersedes: &[],
        examples: &["Internal error occurred: failed calling webhook \"mflinkcluster.flinkoperator.k8s.io\": Post https://flink-operator-webhook-service.flink-operator-system.svc:443/mutate-flinkoperator-k8s-io-v1beta1-flinkcluster?timeout=30s: ssh: rejected: connect failed (Connection refused)"],
        unless: &[],
        sources: &["golang/crypto@v0.39.0:ssh/connection.go", "golang/crypto@v0.39.0:ssh/channel.go"],
    },
    // OpenShift's route.openshift.io/IngressAdmission plugin: creating an Ingress with a host
    // needs `create routes/custom-host` besides `create ingresses`; the ServiceAccount that
    // creates the JobManager's Ingress (the operator's) lacks it.
    Signature {
        id: "SIG-OPENSHIFT-INGRESS-HOST-FORBIDDEN",
        category: Category::OperatorRbacMissing,
        severity: Severity::Critical,
        literals: &["you do not have permission to set host fields in ingress rules"],
        pattern: r#"ingresses(?:\.[a-z.]+)? "(?P<ingress>[^"]+)" is invalid: spec\.rules(?:\[\d+\])?: Forbidden: you do not have permission to set host fields in ingress rules"#,
        title: "OpenShift refuses Ingress {ingress}: its creator may not set host fields",
        explanation: "on OpenShift, an Ingress with a host in its rules also needs `create` on `routes/custom-host` (API group route.openshift.io); the ServiceAccount that creates the JobManager's Ingress (the operator's) has only the ingress rights, so OpenShift's IngressAdmission rejects it",
        fix: "add to the operator's ClusterRole (or Role): `- apiGroups: [route.openshift.io]  resources: [routes/custom-host]  verbs: [create, update]`, or deploy without a host in the JobManager Ingress (expose the UI through a Route or a Service instead)",
        verify: "kubectl auth can-i create routes.route.openshift.io --subresource=custom-host -n <flink-namespace> --as=system:serviceaccount:<operator-namespace>:<operator-serviceaccount>",
        explains: &[],
        supersedes: &[],
        examples: &[r#"Warning  CreateClusterFailed  4s (x5 over 5s)  flinkK8sOperator  Failed to create job managers for deploy 2c508f73: ingresses.extensions "wordcount-operator-example" is invalid: spec.rules[0]: Forbidden: you do not have permission to set host fields in ingress rules"#],
        unless: &[],
        sources: &["observed:https://github.com/lyft/flinkk8soperator/issues/216 (OpenShift 4.5 API server, IngressAdmission plugin)"],
    },
];

#[cfg(test)]
mod tests {
    use crate::signatures::catalogue;

    fn ids(line: &str) -> Vec<&'static str> {
        catalogue()
            .match_line(line, 1)
            .iter()
            .map(|m| m.signature.id)
            .filter(|id| super::SIGNATURES.iter().any(|s| s.id == *id))
            .collect()
    }

    #[test]
    fn healthy_and_fresh_pod_rows_match_nothing() {
        for row in [
            "NAME                                 READY   STATUS    RESTARTS   AGE",
            "flink-jobmanager-7fcdd685cf-97rzp    1/1     Running   0          9m4s",
            "pod/basic-example-taskmanager-1-1    1/1     Running   2 (5m ago)   3h",
            "flinkjobcluster-sample-job-rb9sk     0/1     Completed 0          20m",
            "basic-example-taskmanager-1-2        0/1     Pending   0          40s",
            "flink-operator-system2   flink-operator-controller-manager-78b78c46fd-tjg98   0/2     **ContainerCreating**   0          14s",
            "flink-jobmanager   0/1     0            0           5m",
            "cert-job   0/1           22m        22m",
            "2026-11-28 09:39:12,004 ERROR org.apache.flink.runtime.taskmanager.Task [] - Error   while running the task",
            "    State:          Waiting",
            "      Exit Code:    143",
        ] {
            assert!(ids(row).is_empty(), "{row} matched {:?}", ids(row));
        }
    }

    #[test]
    fn pod_rows_name_the_pod_in_the_commands() {
        let row =
            "flink-taskmanager-85db6c9b98-xpj8g   0/2     CrashLoopBackOff   7 (2m ago)   16m";
        let m = catalogue()
            .match_line(row, 1)
            .into_iter()
            .find(|m| m.signature.id == "SIG-K8S-POD-CRASHLOOP")
            .unwrap();
        assert_eq!(m.field("pod"), Some("flink-taskmanager-85db6c9b98-xpj8g"));
        assert_eq!(m.field("ready"), Some("0/2"));
        assert!(m
            .fix()
            .contains("kubectl logs flink-taskmanager-85db6c9b98-xpj8g --previous"));
        assert!(m
            .fix()
            .contains("kubectl describe pod flink-taskmanager-85db6c9b98-xpj8g"));
        let row = "prod   orders-taskmanager-1-4   0/1   Pending   0   12m";
        let m = &catalogue().match_line(row, 1)[0];
        assert_eq!(m.signature.id, "SIG-K8S-POD-PENDING");
        assert_eq!(m.field("pod"), Some("orders-taskmanager-1-4"));
        assert_eq!(m.field("pod_namespace"), Some("prod"));
        assert!(m
            .fix()
            .contains("kubectl describe pod orders-taskmanager-1-4"));
        // an operator pod is the operator not running, not a Flink process dying
        let row = "flink-kubernetes-operator-6d8f7c9b5-abcde   1/2   CrashLoopBackOff   5   10m";
        let kept: Vec<_> = crate::signatures::prune_line(catalogue().match_line(row, 1))
            .into_iter()
            .map(|m| m.signature.id)
            .collect();
        assert_eq!(kept, ["SIG-K8S-OPERATOR-POD-CRASHLOOP"]);
    }
}

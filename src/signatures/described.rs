//! What a person writes about a failure, as opposed to what the software printed.
//!
//! Half of what people paste when they ask for help is their own words: "the operator pod keeps
//! getting OOM errors", "the image does not exist in the registry", "pod is forbidden", often with
//! no log line at all. `triage` reads those words with these readings, but only as a last resort:
//! a reading counts when no line printed by Kubernetes, Flink or an operator names a specific
//! cause (a printed cause always wins, and a reading never repeats a category a printed line
//! already gave). Such a finding says it comes from the description, is a warning at most, and
//! its verify command is what confirms or refutes it on the cluster.
//!
//! A reading is the vocabulary of the failure (the Kubernetes reason, the Flink option, the Java
//! class a person names), in a sentence that says it went wrong; it is skipped when a negation
//! stands right before it ("no OOMKilled", "not forbidden"). Its fix and verify command are those
//! of the catalogue signature named in `like`, so one failure has one fix whoever reports it.

use crate::finding::Category;
use aho_corasick::AhoCorasick;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One way people describe one failure.
#[derive(Debug)]
pub struct Reading {
    /// Stable id (`DESC-...`), shown as the finding's rule.
    pub id: &'static str,
    pub category: Category,
    /// Case-insensitive; matched against one line of the text.
    pub pattern: &'static str,
    /// When not empty, the text must also mention one of these somewhere (case-insensitive): an
    /// "access denied" is about storage only when the text talks about a bucket.
    pub context: &'static [&'static str],
    /// What the person describes, as a finding title.
    pub title: &'static str,
    /// The catalogue signature whose explanation, fix and verify command apply; empty when no
    /// printed line stands for this failure, and then `fix` and `verify` below are used.
    pub like: &'static str,
    pub fix: &'static str,
    pub verify: &'static str,
    /// Sentences this reading must match.
    pub examples: &'static [&'static str],
    /// Sentences it must not match (negations, neighbouring failures).
    pub not: &'static [&'static str],
}

pub const READINGS: &[Reading] = &[
    Reading {
        id: "DESC-OOM-KILLED",
        category: Category::OomKilled,
        pattern: r"\bOOM[ -]?kill(?:ed|s|ing)?\b|\bOOM (?:errors?|status|events?|kills?)\b|\bkilled (?:by|because of) (?:the )?(?:OOM|memory limit)|\bexceed(?:s|ed|ing)? (?:its|the|their) memory limit",
        context: &[],
        title: "the text describes a container killed by its memory limit (OOMKilled)",
        like: "SIG-K8S-OOMKILLED",
        fix: "",
        verify: "",
        examples: &[
            "I constantly get OOM errors on the manager pod",
            "the taskmanager keeps getting OOMKilled after an hour",
            "it was killed by the OOM killer",
        ],
        not: &[
            "there is no OOMKilled in the events",
            "Metaspace OOM after each job",
            "we never saw OOM errors",
        ],
    },
    Reading {
        id: "DESC-JVM-OOM",
        category: Category::JvmOutOfMemory,
        pattern: r"\bOutOfMemory(?:Error|Exception)?\b|\bjava heap space\b|\bmetaspace (?:OOM|out of memory)\b|\bout of (?:heap|metaspace|direct memory)\b",
        context: &[],
        title: "the text describes the JVM running out of memory (OutOfMemoryError)",
        like: "",
        fix: "find which pool ran out in the JobManager's or TaskManager's log (`kubectl logs <pod> --previous | grep -A2 OutOfMemoryError`): for `Java heap space` raise `taskmanager.memory.task.heap.size` (or `jobmanager.memory.heap.size`); for `Metaspace` raise `taskmanager.memory.jvm-metaspace.size`, and if it grows with every job, user code or a connector leaks class loaders; for `Direct buffer memory` raise `taskmanager.memory.task.off-heap.size`; keep spec.jobManager/taskManager.resource.memory large enough that the other pools still fit",
        verify: "kubectl logs <pod> --previous | grep -m1 -A2 OutOfMemoryError",
        examples: &[
            "otherwise it will throw OutOfMemoryException",
            "TaskManager Metaspace OOM after a few days",
            "the job fails with java heap space",
        ],
        not: &["no OutOfMemoryError anywhere", "memory usage looks fine"],
    },
    Reading {
        id: "DESC-IMAGE-MISSING",
        category: Category::ImagePullFailed,
        pattern: r"\bimage\b[^.\n]{0,60}?\b(?:(?:does not|doesn't|do not|don't|not|no longer) exists?|is missing|cannot be pulled|can't be pulled|could not be pulled|fails? to pull|failed to pull)\b|\bmissing (?:in|from) (?:the )?(?:docker |container |image )?registry\b|\bnot (?:found )?in (?:the )?(?:docker |container |image )?registry\b|\b(?:wrong|bad|invalid|non-?existent|nonexisting) image\b|\bImagePullBackOff\b|\bErrImagePull\b",
        context: &[],
        title: "the text describes an image that cannot be pulled",
        like: "SIG-IMAGE-PULL",
        fix: "",
        verify: "",
        examples: &[
            "the deployment failed because the image not exists",
            "flinkk8soperator:v0.5.0 is missing in docker registry",
            "when I make a deployment with wrong image the cluster never starts",
        ],
        not: &["the image is fine and was pulled", "image pulled successfully"],
    },
    Reading {
        id: "DESC-FORBIDDEN",
        category: Category::RbacForbidden,
        pattern: r"\b(?:pods?|deployments?|configmaps?|services?|leases?|events?|resources?) (?:is|are) forbidden\b|\b403 forbidden\b[^.\n]{0,60}\b(?:pods?|configmaps?|service ?account)|\b(?:lack(?:s|ing)?(?: of)?|missing|insufficient|not enough) (?:the )?(?:rbac )?(?:privileges?|permissions?|rights?) to (?:get|list|watch|create|delete|patch|update) (?:the )?(?:pods?|configmaps?|services?|deployments?|leases?)\b",
        context: &[],
        title: "the text describes a 403 (forbidden) from the Kubernetes API",
        like: "",
        fix: "the ServiceAccount the Flink pods run as (the namespace's `default` one unless set) may not use the Kubernetes API as Flink needs to: run `kubectl flink can-i -n <namespace> <deployment> --fix`, which asks the API server what that account lacks and prints the minimal Role and RoleBinding to apply; the exact 403 (verb, resource, account) is in the JobManager's log (`kubectl logs <jobmanager-pod> --previous | grep -m1 Forbidden`)",
        verify: "kubectl flink can-i -n <namespace> <deployment>",
        examples: &[
            "flink application on kubernetes, pod is forbidden",
            "it says pods are forbidden for the service account",
            "the JobManager fails for lack of permissions to create pods",
            "the account is missing the rights to watch configmaps",
        ],
        not: &[
            "the pod is not forbidden anymore",
            "forbidden words in the job name",
            "it has no lack of permissions to watch pods",
        ],
    },
    Reading {
        id: "DESC-UNKNOWN-HOST",
        category: Category::JobmanagerUnreachable,
        pattern: r"\bUnknownHostException\b|\b(?:cannot|can not|can't|could not|couldn't|unable to|not able to|fails? to|failed to) (?:resolve|reach|connect(?: to| with)?|register (?:at|with)) (?:the )?(?:specified |configured |remote )?(?:job ?manager|rest (?:endpoint|service)|flink (?:ui|web ?ui|rest))",
        context: &[],
        title: "the text describes a client that cannot resolve or reach the JobManager",
        like: "SIG-JM-UNKNOWN-HOST",
        fix: "",
        verify: "",
        examples: &[
            "we will always get a `UnknownHostException` when deploying from outside the cluster",
            "the TaskManager cannot connect to the JobManager",
            "Taskmanager can not connect the specified jobmanager",
            "the taskmanager fails to register with the job manager",
        ],
        not: &["no UnknownHostException this time", "the TaskManager can connect to the JobManager now"],
    },
    Reading {
        id: "DESC-RESTORE-FAILED",
        category: Category::SavepointRestoreFailed,
        pattern: r"\b_metadata\b[^.\n]{0,40}?\b(?:deleted|missing|not found|not exist|does not exist|doesn't exist)|\b(?:unable to|cannot|can't|could not|fails? to) find (?:the )?_metadata\b|\brestor\w* (?:it |the job |the state )?from (?:a |the )?(?:savepoint|checkpoint)\b[^.\n]{0,80}?\b(?:fail\w*|incompatible|error)|\bincompatible (?:state|savepoint|checkpoint)\b|\b(?:does not|doesn't|did not|didn't|won't|will not|would not|wouldn't|cannot|can not|can't|could not|couldn't|(?:is |are )?not able to|unable to|fails? to|failed to) (?:recover|restore|restart|start) (?:from|with) (?:the |my |its |a )?(?:proper |right |correct |given |latest |last |old |older )?(?:savepoint|checkpoint)\b",
        context: &[],
        title: "the text describes a job that cannot restore from its savepoint or checkpoint",
        like: "SIG-SAVEPOINT-NOT-FOUND",
        fix: "",
        verify: "",
        examples: &[
            "The checkpoint directory exists but the _metadata file has been deleted",
            "when restoring it from savepoint, the restore fails because the state is incompatible",
            "when i delete and then apply,it seems that it does not recover from the savepoint path",
            "suspended jobs won't restore from the proper savepoint unless this fix is applied",
            "Flink 1.11 is not able to restore with savepoint taken with Flink 1.9",
        ],
        not: &["the job restored from the savepoint just fine", "it does recover from the savepoint"],
    },
    Reading {
        id: "DESC-STORAGE-DENIED",
        category: Category::StorageAccessDenied,
        pattern: r"\baccess ?denied\b|\b403\b[^.\n]{0,30}\b(?:s3|bucket|gcs)\b",
        context: &["s3", "bucket", "gcs", "abfs", "adls", "savepoint", "checkpoint", "iam", "irsa"],
        title: "the text describes storage access being denied (checkpoints, savepoints, HA or a connector)",
        like: "SIG-S3-ACCESS-DENIED",
        fix: "",
        verify: "",
        examples: &["Tried to use IRSA but got an \"access denied\" error"],
        not: &["no access denied errors in the log"],
    },
    Reading {
        id: "DESC-JAR-MISSING",
        category: Category::JobJarNotFound,
        pattern: r"\b(?:jar|file)\b[^.\n。]{0,80}?\b(?:does not|doesn't|do not|don't|not) exists?\b|文件不存在|(?:image|镜像)[^.\n。]{0,30}?(?:没有|doesn't have|does not have|does not contain|doesn't contain)[^.\n。]{0,40}?jar",
        context: &[".jar", " jar", "jaruri", "local://", "jar包"],
        title: "the text describes a job jar that is not where the deployment says",
        like: "SIG-JAR-NOT-FOUND",
        fix: "",
        verify: "",
        examples: &[
            "flink CLI expects the jar to be available locally and throws an error saying the file doesn't exist",
            "flink镜像没有这个jar",
        ],
        not: &["the jar exists in /opt/flink/usrlib"],
    },
    Reading {
        id: "DESC-CRD-MISSING",
        category: Category::CrdMissing,
        pattern: r"\bCRDs? (?:is |are |was |were |has |have )?(?:not|never) (?:been )?(?:created|installed|registered|found|there)\b|\bno CRDs? (?:was |were )?(?:created|installed)\b|\bnot (?:creating|installing) (?:the |any )?CRDs?\b|\bCRDs? (?:won't|will not|wouldn't|would not|isn't|aren't|wasn't|weren't) (?:be |get |been )?(?:created|installed)\b",
        context: &[],
        title: "the text describes a CRD that was never installed",
        like: "SIG-CRD-NO-KIND",
        fix: "",
        verify: "",
        examples: &[
            "after the chart is deployed, the flinkoperator crd is not created",
            "Helm 2 not recognizing manifests in `/crds` directory, therefore not creating CRDs in the cluster",
            "With the usual `helm upgrade`, the new FlinkStateSnapshot CRD won't be installed",
        ],
        not: &["the CRD is installed", "the CRDs were created before the operator started"],
    },
    Reading {
        id: "DESC-EXIT-ZERO-RESTART",
        category: Category::ContainerExitZeroRestarting,
        pattern: r"\bexis?t(?:s|ed)? (?:with )?(?:code |status )?0\b[^.\n]{0,60}?\brestart\w*|\brestart\w*[^.\n]{0,60}?\bexit(?:s|ed)? (?:with )?(?:code |status )?0\b",
        context: &[],
        title: "the text describes a container that exits 0 and is restarted anyway",
        like: "",
        fix: "a container that finishes its work (a job submitter, a sidecar with nothing to run) must not run under restartPolicy Always: run a one-shot submitter as a Job (`restartPolicy: OnFailure` or `Never`), or give a sidecar a long-running command; a Flink image started with no command prints its usage and exits 0",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[*].restartCount,LAST-EXIT:.status.containerStatuses[*].lastState.terminated.exitCode,POLICY:.spec.restartPolicy",
        examples: &["Program exist with 0 will be restarted as well", "it restarts even though it exited with code 0"],
        not: &["it exits with code 1 and restarts"],
    },
    Reading {
        id: "DESC-JOB-LOST-AFTER-JM-RESTART",
        category: Category::JobmanagerRestartWithoutHa,
        pattern: r"\bjob ?manager (?:is |was |gets |got )?restart\w*[^.\n]{0,80}?\b(?:cannot|can't|could not|doesn't|does not|did not|never) recover|\b(?:job|state) (?:is |was |gets |got )?lost (?:after|when) (?:a |the )?job ?manager (?:restart|crash|fail)|\bjob ?manager (?:is |was |gets |got )?restart\w* without (?:high[ -]?availability|HA)\b",
        context: &[],
        title: "the text describes a job lost when its JobManager restarted",
        like: "SIG-FLINKCLUSTER-JOB-LOST",
        fix: "",
        verify: "",
        examples: &[
            "if the JobManager is restarted for any reason, the FlinkCluster cannot recover",
            "Session jobs stop running if the session cluster's Job Manager is restarted without High Availability configured.",
        ],
        not: &[
            "the JobManager restarted and recovered the job from HA",
            "the JobManager restarted without errors",
        ],
    },
    Reading {
        id: "DESC-MEMORY-CONFIG",
        category: Category::MemoryConfigInvalid,
        pattern: r"\b(?:jobmanager|taskmanager)\.(?:memory\.[\w.-]+|heap\.size)\b[^\n]{0,80}?\b(?:fails? to start|failed to start|not work|doesn't work|does not work|too (?:small|low)|inconsistent)|\b(?:fails? to start|failed to start)\b[^\n]{0,80}?\b(?:jobmanager|taskmanager)\.(?:memory\.[\w.-]+|heap\.size)\b",
        context: &[],
        title: "the text describes Flink's memory options preventing a start",
        like: "SIG-FLINK-MEMORY-CONFIG",
        fix: "",
        verify: "",
        examples: &[
            "the pod fails to start due to the absence of an explicitly set jobmanager.memory.process.size",
            "the \"taskmanager.heap.size\" is not work",
        ],
        not: &["we set taskmanager.memory.process.size to 4g and it works"],
    },
    Reading {
        id: "DESC-TM-LOST",
        category: Category::TaskmanagerLost,
        pattern: r"\btask ?managers?\b[^.\n]{0,60}?\b(?:no longer registered|not registered (?:any ?more|anymore)|disappear\w*|heartbeat (?:timeout|timed out))|\blost task ?managers?\b",
        context: &[],
        title: "the text describes TaskManagers lost by the JobManager",
        like: "SIG-TM-HEARTBEAT-TIMEOUT",
        fix: "",
        verify: "",
        examples: &["with the task manager no longer registered with Flink but the process also not able to exit"],
        not: &["all task managers are registered"],
    },
    Reading {
        id: "DESC-UNSCHEDULABLE",
        category: Category::PodUnschedulable,
        pattern: r"\b(?:cannot|can't|could not|unable to|not able to) (?:be )?schedul\w*\b[^.\n]{0,60}?\b(?:cpu|memory|resources?|nodes?)\b|\b(?:not enough|insufficient) (?:cpu|memory)\b[^.\n]{0,40}?\bschedul\w*|\bschedul\w*[^.\n]{0,40}?\b(?:not enough|insufficient) (?:cpu|memory)\b",
        context: &[],
        title: "the text describes pods that cannot be scheduled for lack of resources",
        like: "",
        fix: "the pods request more CPU or memory than any node has free: lower the requests (the operator's spec.jobManager/taskManager.resource; in native mode `kubernetes.jobmanager.cpu`, `kubernetes.taskmanager.cpu` and their `.limit-factor`, and the memory process sizes), or add node capacity (a bigger node pool, or let the cluster autoscaler scale up); `kubectl describe pod <pod>` names the resource in its FailedScheduling event",
        verify: "kubectl get events -A --field-selector reason=FailedScheduling",
        examples: &["I cannot schedule it if there is not enough CPU"],
        not: &["the pods were scheduled on three nodes"],
    },
    Reading {
        id: "DESC-OPERATOR-PERMISSIONS",
        category: Category::OperatorRbacMissing,
        pattern: r"\boperator (?:needs?|lacks?|is missing|misses|does not have|doesn't have|has no) (?:the )?(?:rbac )?permissions?\b",
        context: &[],
        title: "the text describes the operator lacking permissions",
        like: "",
        fix: "run `kubectl flink can-i --for operator -n <namespace> <deployment>`: it asks the API server which verbs the operator's ServiceAccount lacks there; install the operator's RBAC from the same release as its image (the Apache chart creates a Role in every namespace of `watchNamespaces`, or one ClusterRole when it is empty), and remember a LoadBalancer REST service needs `list nodes` cluster-wide",
        verify: "kubectl flink can-i --for operator -n <namespace> <deployment>",
        examples: &["So k8s operator need the permissions to list nodes"],
        not: &["the operator has all the permissions it needs"],
    },
    Reading {
        id: "DESC-PODTEMPLATE-NO-SPEC",
        category: Category::PodtemplateInvalid,
        pattern: r"\bpod ?template\b[^.\n]{0,60}?\b(?:without|missing|lacks?|lacking|has no|with no) (?:a |the |any )?`?spec\b",
        context: &[],
        title: "the text describes a pod template without a spec",
        like: "",
        fix: "a pod template is a whole Pod manifest: give the file (`kubernetes.pod-template-file.*`, or spec.podTemplate) `apiVersion: v1`, `kind: Pod` and a `spec:` whose container to merge is named `flink-main-container`; older Flink releases fail with a NullPointerException on a template without `spec`",
        verify: "grep -n '^spec:' <pod-template-file>",
        examples: &["This pull request fix the NPE error of TM pod template file without spec field."],
        not: &["the pod template has a spec with two containers"],
    },
    Reading {
        id: "DESC-ARBITRARY-UID-DENIED",
        category: Category::ImageIncompatible,
        pattern: r"\bpermission denied\b",
        context: &["openshift", "arbitrary user", "arbitrary uid", "runasuser", "run as user", "non-root", "nonroot"],
        title: "the text describes the image failing under an arbitrary or non-root user",
        like: "SIG-FLINK-DIR-NOT-WRITABLE",
        fix: "",
        verify: "",
        examples: &["I'm getting Permission denied errors in Openshift.."],
        not: &["no permission problems"],
    },
    Reading {
        id: "DESC-ENTRY-CLASS",
        category: Category::JobEntryClassError,
        pattern: r"找不到(?:入口类|主类)|\b(?:entry|main) ?class (?:is )?(?:not found|cannot be found|missing)\b|\b(?:cannot|can't|could not|unable to) find (?:the |my )?(?:entry|main) ?class\b",
        context: &[],
        title: "the text describes an entry class that cannot be found",
        like: "SIG-ENTRY-CLASS-NOT-FOUND",
        fix: "",
        verify: "",
        examples: &["我提交上去就是显示找不到入口类", "Flink could not find the main class"],
        not: &["the entry class is set correctly"],
    },
    Reading {
        id: "DESC-UPGRADE-STUCK",
        category: Category::UpgradeFailed,
        pattern: r"\b(?:update|upgrade|redeploy\w*) (?:got |is |was |gets |keeps |stays )?stuck\b|\bstuck (?:in|during) (?:the )?(?:update|upgrade)\b",
        context: &[],
        title: "the text describes a spec change or upgrade that never completes",
        like: "SIG-UPGRADE-MANUAL-RESTORE",
        fix: "",
        verify: "",
        examples: &["I tried to update jobSpec.parallelism; the update got stuck"],
        not: &["the update went through"],
    },
    // The FlinkCluster operator's job submitter (a Kubernetes Job running `flink run` against the
    // JobManager) described as failing; its own log names why.
    Reading {
        id: "DESC-SUBMITTER-FAILED",
        category: Category::JobSubmitterFailed,
        pattern: r"\bjob[- ]?submitter\b[^.\n]{0,40}?\b(?:fails?|failed|failing|crash\w*|errors? out|exits? with (?:an? )?(?:error|non-?zero))\b",
        context: &[],
        title: "the text describes the job submitter failing, so the job was never submitted",
        like: "",
        fix: "read the submitter's log, which names why `flink run` failed (JobManager not reachable yet, jar not found, no permission): `kubectl logs job/<cluster>-job-submitter`; fix that cause and update the FlinkCluster (or delete and recreate it) so the operator runs a new submitter",
        verify: "kubectl get jobs -o custom-columns=NAME:.metadata.name,SUCCEEDED:.status.succeeded,FAILED:.status.failed",
        examples: &[
            "If the job submitter fails due to permissions, wrong jar path or even init container issues, cluster state is not updated.",
            "the job-submitter pod failed with exit code 1",
        ],
        not: &["the job submitter stays in running status", "the job submitter succeeded"],
    },
    // The operator process itself described as going down: a panic, a crash at startup, a refusal
    // to start. The stream operators of a Flink job ("the map operator failed") are another thing,
    // hence the context: a Kubernetes operator is named somewhere in the text.
    Reading {
        id: "DESC-OPERATOR-CRASH",
        category: Category::OperatorNotRunning,
        pattern: r"\b(?:flink[- ]?)?operator(?:'s)?(?: (?:pod|process|container|itself))?(?: \w+ly)? (?:crash(?:es|ed|ing)?|panic(?:s|ked)?|refuses to start|never starts|fails to start|failed to start|keeps restarting|keeps crashing|is crash-?looping)\b|\b(?:caused|causes) the operator to (?:panic|crash)\b|\bcrash(?:es|ed)? the operator\b",
        context: &["the operator", "flink-operator", "flinkoperator", "operator pod", "kubernetes operator", "k8s operator"],
        title: "the text describes the operator process crashing or refusing to start",
        like: "",
        fix: "read why the operator exits: `kubectl logs deploy/<operator-deployment> -n <operator-namespace> --previous` and `kubectl describe pod -n <operator-namespace> -l <operator-pod-labels>` (Last State: OOMKilled means more memory in the chart's resources values; otherwise the log names the error: a panic or exception at a line of the operator is an operator bug, so upgrade it, or revert the configuration or resource change that triggers it); its Deployment restarts it once the cause is gone",
        verify: "kubectl get pods -A -o wide | grep -i operator",
        examples: &[
            "FlinkOperator triggers the Savepoint and it is successfully created. However, flink-operator crashes immediately after.",
            "The fetch for deployments resulted in `nil` with in-turn caused the operator to panic",
            "Without emptyDir volumes for the configs the operator refuses to start with readOnlyRootFilesystem enabled.",
            "Following the documented value crashes the operator at startup.",
        ],
        not: &[
            "the operator restarted the jobmanager",
            "the operator is running fine",
            "If the same FlinkApp is redeployed immediately after it was deleted, the operator will crash with the following error:",
        ],
    },
    // A printed line read against the paste's own configuration: the legacy JobManager logs
    // this when its configuration has no HA mode (apache/flink@release-1.4.0:flink-runtime/src/
    // main/scala/org/apache/flink/runtime/jobmanager/JobManager.scala), so beside HA settings the
    // person wrote (Helm values, flink-conf.yaml) it says those settings never reached Flink.
    Reading {
        id: "DESC-HA-CONFIGURED-NOT-APPLIED",
        category: Category::HaMisconfigured,
        pattern: r"Starting JobManager without high-availability",
        context: &["highavailability:", "high-availability:", "high-availability.type", "zookeeper.quorum", "zookeeper_quorum"],
        title: "high availability is configured in the text, yet the JobManager starts without it",
        like: "",
        fix: "the HA settings never reached Flink's configuration: check the flink-conf.yaml the pods really get (`kubectl get configmap <flink-config-configmap> -o yaml | grep high-availability`); with a Helm chart, check that the values you set are ones the chart renders into that ConfigMap; Flink needs `high-availability.type` (`high-availability` before Flink 1.17: zookeeper or kubernetes), `high-availability.storageDir` and, for ZooKeeper, `high-availability.zookeeper.quorum`",
        verify: "kubectl logs <jobmanager-pod> | grep -i -m3 high-availability",
        examples: &["2018-04-16 04:59:11,606 INFO  org.apache.flink.runtime.jobmanager.JobManager - Starting JobManager without high-availability"],
        not: &["Starting JobManager with high-availability"],
    },    // A job lost "without HA": how the operator's maintainers and users name a JobManager (or
    // session cluster) that came back empty because nothing persisted the job.
    Reading {
        id: "DESC-LOST-WITHOUT-HA",
        category: Category::JobmanagerRestartWithoutHa,
        pattern: r"\bwithout (?:HA|high[ -]?availability)\b[^.\n]{0,80}?\b(?:is |was |gets |got |could be |can be |be )?(?:lost|gone|disappear\w*)\b|\b(?:job|jobs|state|session ?job)s? (?:is |are |was |were |gets |got |could be |can be )?(?:lost|gone)\b[^.\n]{0,40}?\bwithout (?:HA|high[ -]?availability)\b",
        context: &[],
        title: "the text describes a job lost because nothing persisted it (no HA)",
        like: "SIG-FLINKCLUSTER-JOB-LOST",
        fix: "",
        verify: "",
        examples: &[
            "Fix a bug where without HA a deployed SessionJob could be lost without any errors triggered.",
            "the job is lost without high availability when the pod restarts",
        ],
        not: &["with HA enabled nothing was lost", "the job is not lost without HA"],
    },
    // A ResourceQuota named as what made the pod or job fail (the kind's own name).
    Reading {
        id: "DESC-RESOURCE-QUOTA",
        category: Category::ResourceQuotaExceeded,
        pattern: r"\bresource ?quotas?\b[^\n]{0,60}?\b(?:fail(?:s|ed|ing)?|reject\w*|exceed\w*|forbidden|denied|block\w*)\b|\b(?:fail(?:s|ed|ing)?|reject\w*|forbidden|denied|blocked)\b[^.\n]{0,40}?\b(?:due to|because of|by) (?:the |a |our |its )?(?:namespace'?s? )?resource ?quotas?\b",
        context: &[],
        title: "the text describes a ResourceQuota rejecting the pods",
        like: "",
        fix: "the namespace's ResourceQuota rejects a pod (no room left, or the pod sets no requests/limits the quota requires): `kubectl describe resourcequota -n <namespace>` shows used against hard; free or raise the quota, or give every container requests and limits within it (the FlinkCluster operator's job submitter: spec.job.resources; the Apache operator: spec.jobManager/taskManager.resource and the pod templates)",
        verify: "kubectl get events -n <namespace> --field-selector reason=FailedCreate",
        examples: &[
            "Because we have resource quota implemented in kubernetes cluster. Here my job failed due to that",
            "the taskmanager pods are rejected by the resource quota",
        ],
        not: &["there is no resource quota in this namespace", "the resource quota is fine"],
    },
    // Flink's HA storage option named as wrong: the directory does not exist, is local, a mistake.
    Reading {
        id: "DESC-HA-STORAGE-DIR",
        category: Category::HaMisconfigured,
        pattern: r"\bhigh-availability\.storageDir\b[^\n]{0,80}?\b(?:(?:does|did|do)(?: not|n't) exist|not exist\w*|non-?existent|(?:is |was )?not (?:set|configured|writable|accessible)|missing|wrong|invalid)\b",
        context: &[],
        title: "the text describes high-availability.storageDir pointing nowhere usable",
        like: "SIG-HA-STORAGE-DIR-MISSING",
        fix: "",
        verify: "",
        examples: &[
            "pointing `high-availability.storageDir` to a local directory that did not exist on the container, causing the Job Manager to fail",
        ],
        not: &["high-availability.storageDir: s3://bucket/ha is set"],
    },
    // The status subresource of a Flink resource, which only its operator writes, in the form
    // RBAC rules and the API server's 403 name it (`flinkapplications/status`).
    Reading {
        id: "DESC-OPERATOR-STATUS-SUBRESOURCE",
        category: Category::OperatorRbacMissing,
        pattern: r"\b(?:unable to|cannot|can't|could not|couldn't|failed to|fails to|not allowed to|forbidden to) (?:update|patch)\b[^\n]{0,30}?\b(?:flinkapplications|flinkdeployments|flinksessionjobs|flinkclusters|flinkstatesnapshots)(?:\.[a-z0-9.]+)?/status\b",
        context: &[],
        title: "the text describes the operator unable to write its resources' status subresource",
        like: "",
        fix: "the operator's ServiceAccount may not update the status subresource of its resources (a role from an older release, written before the CRD had `subresources: status`): add `<resource>/status` with verbs get, update, patch to the operator's Role or ClusterRole (install the RBAC of the same release as the CRDs and the image), then check with `kubectl flink can-i --for operator -n <namespace> <deployment>`",
        verify: "kubectl flink can-i --for operator -n <namespace> <deployment>",
        examples: &["Failed before with \"unable to update flinkapplications/status\"."],
        not: &["we update flinkapplications/status every second"],
    },
    // Flink running as the namespace's default ServiceAccount, named so.
    Reading {
        id: "DESC-DEFAULT-SERVICE-ACCOUNT",
        category: Category::DefaultServiceAccount,
        pattern: r"\b(?:us(?:es|ing)|runs? (?:as|with|under)|running (?:as|with|under)|falls? back to|uses only) (?:the )?(?:namespace'?s? )?[`']?default[`']? service ?account\b",
        context: &[],
        title: "the text describes Flink running as the namespace's `default` ServiceAccount",
        like: "",
        fix: "run Flink as a ServiceAccount that has the rights it needs: `spec.serviceAccount` in a FlinkDeployment (the operator chart creates `flink` and its Role in the namespaces it manages), or `kubernetes.service-account` (JobManager and, since Flink 1.13, `kubernetes.taskmanager.service-account` for TaskManagers) in native mode; then `kubectl flink can-i -n <namespace> <deployment>` checks what that account may do",
        verify: "kubectl get pods -n <namespace> -o custom-columns=NAME:.metadata.name,SA:.spec.serviceAccountName",
        examples: &[
            "Currently, we only set the service account for JobManager. The TaskManager is using the default service account.",
        ],
        not: &["the JobManager is not using the default service account"],
    },
    // A pull secret named as missing from what was rendered or applied.
    Reading {
        id: "DESC-PULL-SECRET-MISSING",
        category: Category::ImagePullFailed,
        pattern: r"\bimagePullSecrets?\b[`'\x22]?[^.\n]{0,30}?\b(?:is |are |was |were )?(?:missing|not (?:rendered|set|applied|passed|added|used|honou?red)|ignored|dropped)\b|\bmissing [`'\x22]?imagePullSecrets?\b",
        context: &[],
        title: "the text describes pods created without their imagePullSecrets",
        like: "",
        fix: "the pods reach the private registry without credentials: check that the rendered pods carry the pull secret (`kubectl get pod <pod> -o jsonpath='{.spec.imagePullSecrets}'`); set it where the deployment's pods get it (spec.podTemplate.spec.imagePullSecrets, the chart value that its templates really render, or the ServiceAccount's imagePullSecrets), and check the Secret exists in the pods' namespace",
        verify: "kubectl get pods -o custom-columns=NAME:.metadata.name,SECRETS:.spec.imagePullSecrets[*].name,WAITING:.status.containerStatuses[*].state.waiting.reason",
        examples: &["Actual: `imagePullSecrets` is missing."],
        not: &["imagePullSecrets are set on the ServiceAccount"],
    },
    // taskmanager.host must differ per TaskManager (Flink's option description); one value for all
    // makes the JobManager address them all at one name.
    Reading {
        id: "DESC-TASKMANAGER-HOST-SHARED",
        category: Category::TaskmanagerUnreachable,
        pattern: r"\btaskmanager[. ]host(?: ?name)?\b[`'\x22]?[^.\n]{0,40}?\b(?:must be unique|(?:is |are )?not unique|(?:is |are )?the same (?:for|on|in) (?:all|every|each))|\b(?:same|identical|duplicate\w*|shared) [`'\x22]?taskmanager\.host\b",
        context: &[],
        title: "the text describes TaskManagers that share one taskmanager.host",
        like: "",
        fix: "every TaskManager needs its own `taskmanager.host` (the address the JobManager connects back to): leave it unset so Flink uses the pod's IP, or set it per pod from the downward API (`status.podIP` or `metadata.name` with a headless Service), never one value in the shared configuration",
        verify: "kubectl logs <jobmanager-pod> | grep -i 'Registering TaskManager'",
        examples: &["As per Flink docs taskmanager host name must be unique:"],
        not: &["taskmanager.host is unique per pod"],
    },
    // The container Flink merges into must be named flink-main-container; said missing.
    Reading {
        id: "DESC-MAIN-CONTAINER-NOT-NAMED",
        category: Category::MainContainerMisnamed,
        pattern: r"\b(?:not (?:specifying|naming|using|setting|having|defining)|without|missing|lacks?|lacking)(?: (?:a|the|any))? [`'\x22]?flink-main-container\b|\bflink-main-container\b[`'\x22]?[^.\n]{0,30}?\b(?:is |was )?(?:missing|not (?:found|specified|named|present|defined))\b",
        context: &[],
        title: "the text describes a pod template without a container named flink-main-container",
        like: "",
        fix: "name the container Flink should run in `flink-main-container` in the pod template (spec.podTemplate, spec.jobManager.podTemplate or spec.taskManager.podTemplate; `kubernetes.pod-template-file.*` in native mode): Flink merges its settings into that container only, and keeps any other container as a sidecar",
        verify: "grep -n 'name: flink-main-container' <pod-template-file>",
        examples: &["When not specifying the `flink-main-container`, then one receives this not so helpful error message:"],
        not: &["the container is named flink-main-container"],
    },
    // pipeline.jars, the Flink option that carries the job jar, said not set or not passed.
    Reading {
        id: "DESC-PIPELINE-JARS-NOT-SET",
        category: Category::JobJarNotFound,
        pattern: r"\bpipeline\.jars\b[`'\x22]?[^\n]{0,60}?\b(?:(?:is |are |was |were )?not (?:set|correctly passed|passed|configured|included|contain\w*)|only contains?|missing|empty)\b|\b(?:without|missing|empty) [`'\x22]?pipeline\.jars\b",
        context: &[],
        title: "the text describes a job whose jar is not in pipeline.jars",
        like: "SIG-JAR-NOT-FOUND",
        fix: "",
        verify: "",
        examples: &[
            "If the pipeline.jars of the JAR task are not correctly passed during task execution, the class loaders will not load the classes within the JAR.",
            "This PR removes the verification for `pipeline.jars` if the option is not set",
        ],
        not: &["pipeline.jars is set to local:///opt/flink/usrlib/job.jar"],
    },
    // The operator's FlinkVersion enum values (v1_15, v2_0) named as not supported.
    Reading {
        id: "DESC-FLINK-VERSION-ENUM",
        category: Category::FlinkVersionUnsupported,
        pattern: r"\b(?:only supports?|supports? only|does(?: not|n't) support|not supported?|unsupported)\b[^.\n]{0,40}?[`'\x22]?\bv\d_\d{1,2}\b|\bv\d_\d{1,2}\b[`'\x22]?[^.\n]{0,40}?\b(?:is |are )?(?:not supported|unsupported)\b",
        context: &[],
        title: "the text describes a flinkVersion the installed operator does not support",
        like: "SIG-FLINK-VERSION-UNSUPPORTED",
        fix: "",
        verify: "",
        examples: &["Flink K8s Operator 1.11 only supports up to `v2_0`", "flinkVersion v1_13 is not supported"],
        not: &["flinkVersion v1_20 works"],
    },
    // High availability named as misconfigured.
    Reading {
        id: "DESC-HA-CONFIG-WRONG",
        category: Category::HaMisconfigured,
        pattern: r"\b(?:incorrect|wrong|bad|invalid|broken|faulty|misconfigured|incomplete) (?:HA|high[ -]?availability) (?:config\w*|setup|settings?|options?)\b|\b(?:HA|high[ -]?availability) (?:config\w* )?(?:is |was )?misconfigured\b",
        context: &[],
        title: "the text describes a wrong high-availability configuration",
        like: "",
        fix: "check the HA options the JobManager really gets (`kubectl get configmap <flink-config-configmap> -o yaml | grep high-availability`): Flink needs `high-availability.type` (`high-availability` before 1.17: kubernetes or zookeeper), a durable `high-availability.storageDir` whose file system plugin is in the image, and for Kubernetes HA a ServiceAccount allowed to create, get, list, watch, update and delete ConfigMaps; the JobManager's log names the option it rejects",
        verify: "kubectl logs <jobmanager-pod> --previous | grep -i -m5 high-availability",
        examples: &["There are certain cases where the JM enters a startup crash loop for example due to incorrect HA config setup."],
        not: &["the HA config is correct"],
    },
    // A rollback (the Apache operator's, Lyft's) that did not happen.
    Reading {
        id: "DESC-ROLLBACK-FAILED",
        category: Category::UpgradeFailed,
        pattern: r"\b(?:fail(?:s|ed)?|unable|not able) to roll ?back\b|\b(?:could(?: not|n't)|can(?:not|'t)) roll ?back\b|\broll ?back (?:failed|fails|did(?: not|n't) work|(?:is |got )?stuck)\b",
        context: &[],
        title: "the text describes a failed upgrade whose rollback failed too",
        like: "SIG-UPGRADE-MANUAL-RESTORE",
        fix: "",
        verify: "",
        examples: &["Operator failed to rollback due to missing HA data."],
        not: &["the rollback went through"],
    },
    // The Apache operator waits "for upgradeable state" when it cannot carry a job's state over.
    Reading {
        id: "DESC-NOT-UPGRADABLE",
        category: Category::UpgradeFailed,
        pattern: r"\bnon-?upgrade?able state\b|\bnot (?:in )?an? upgrade?able state\b",
        context: &[],
        title: "the text describes a deployment stuck in a state the operator cannot upgrade",
        like: "SIG-UPGRADE-MANUAL-RESTORE",
        fix: "",
        verify: "",
        examples: &["the job was stuck after a non-upgradable state after starting/upgrading from a savepoint"],
        not: &["the job is in an upgradable state"],
    },
    // Flink's memory pools named as left with nothing.
    Reading {
        id: "DESC-MEMORY-POOL-EMPTY",
        category: Category::MemoryConfigInvalid,
        pattern: r"\b(?:no|not enough|too little|zero) memory (?:is |will be |was |gets |would be )?(?:assigned|left|given|allocated) (?:to|for) (?:the )?(?:metaspace|jvm metaspace|heap|managed memory|network memory|jvm overhead|off-heap)\b",
        context: &[],
        title: "the text describes a Flink memory pool left with no memory",
        like: "SIG-FLINK-MEMORY-CONFIG",
        fix: "",
        verify: "",
        examples: &["no memory will be assigned to the METASPACE leading to JVM failure at startup"],
        not: &["enough memory is assigned to the heap"],
    },
    // An image named as not available where the pods run.
    Reading {
        id: "DESC-IMAGE-UNAVAILABLE",
        category: Category::ImagePullFailed,
        pattern: r"\bimage\b[^.\n]{0,40}?\b(?:is|will|was|would) not (?:be )?(?:accessible|available)\b",
        context: &[],
        title: "the text describes an image not available where the pods run",
        like: "SIG-IMAGE-PULL",
        fix: "",
        verify: "",
        examples: &["So the image will not be accessible in `minikube`."],
        not: &["the image is available in the registry"],
    },    // A LoadBalancer REST Service that never gets an address ("EXTERNAL-IP <pending>"): the REST
    // endpoint clients are handed does not exist.
    Reading {
        id: "DESC-LOADBALANCER-UNAVAILABLE",
        category: Category::RestServiceMissing,
        pattern: r"\bload ?balancer\b(?: service)? (?:is |was |stays |stayed |remains |is still |is stuck )?(?:unavailable|not available|pending|in pending)\b|\bload ?balancer\b[^.\n]{0,30}?\b(?:has|gets|got) no (?:external )?(?:ip|address|ingress)\b",
        context: &[],
        title: "the text describes a LoadBalancer REST Service without an address",
        like: "",
        fix: "`kubectl get svc <cluster-id>-rest` shows EXTERNAL-IP `<pending>` when nothing provisions load balancers (bare metal, kind, minikube without `minikube tunnel`) or the cloud refused the Service (its events say why); use `kubernetes.rest-service.exposed.type: NodePort`, or ClusterIP with an Ingress or `kubectl port-forward`, or install a load-balancer controller",
        verify: "kubectl get svc -o wide | grep -- -rest",
        examples: &["When using LoadBalancer Service, if LoadBalancer is unavailable, it does not fall back to NodePort, but throws an exception"],
        not: &["the LoadBalancer got its external IP after a minute"],
    },
    // The REST endpoint (and the web UI on it) named as reachable from the Internet.
    Reading {
        id: "DESC-REST-EXPOSED",
        category: Category::RestExposedPublicly,
        pattern: r"\b(?:rest (?:api|endpoint|service)|web ?ui|flink (?:ui|dashboard)|job ?manager (?:ui|web ?ui))(?: and (?:the )?(?:rest (?:api|endpoint)|web ?ui))? (?:is |are |was |were |gets |got |being |been |end(?:s|ed)? up )?(?:exposed|reachable|accessible|open) (?:to|on|from) (?:the )?(?:wild |public |open )?internet\b|\b(?:rest (?:api|endpoint|service)|web ?ui|flink (?:ui|dashboard)) (?:is |are |was |were )?(?:publicly (?:exposed|reachable|accessible)|exposed publicly)\b",
        context: &[],
        title: "the text describes the Flink REST endpoint reachable from outside the cluster",
        like: "",
        fix: "keep the REST Service inside the cluster: set `kubernetes.rest-service.exposed.type: ClusterIP` (the default since FLINK-24503; with the operator, in spec.flinkConfiguration), and for a cluster already running `kubectl patch service <cluster-id>-rest -n <namespace> -p '{\"spec\":{\"type\":\"ClusterIP\"}}'`; reach the UI with `kubectl port-forward -n <namespace> svc/<cluster-id>-rest 8081`, and put authentication in front of whatever must be reachable from outside: the REST API runs any jar it is sent",
        verify: "kubectl get svc -n <namespace> -o wide | grep -- -rest   # expect: ClusterIP",
        examples: &[
            "results in REST API and web UI exposed to the wild Internet if the developer forgets or fails to override the defaults",
            "our Flink UI was reachable from the public internet for a week",
            "the REST endpoint is publicly exposed through a LoadBalancer",
        ],
        not: &[
            "the web UI is not exposed to the internet",
            "we never let the REST API be exposed to the internet",
            "the REST API is only reachable inside the cluster",
        ],
    },
    // A ServiceAccount token that expired and was not read again (bound tokens expire; an old
    // Kubernetes client read the file once).
    Reading {
        id: "DESC-SA-TOKEN-EXPIRED",
        category: Category::SaTokenUnreadable,
        pattern: r"\b(?:automatic |auto[- ])?(?:renewal|refresh(?:ing)?|rotation|reload(?:ing)?) of (?:the )?(?:bound |projected )?service ?account tokens?\b|\bservice ?account tokens? (?:has |have |had |is |are |was |were )?expired\b|\bexpired (?:service ?account|bound|projected) tokens?\b",
        context: &[],
        title: "the text describes an expired ServiceAccount token the Kubernetes client did not read again",
        like: "SIG-FABRIC8-UNAUTHORIZED-CONFIGURED",
        fix: "",
        verify: "",
        examples: &[
            "Update to Fabric8 Kubernetes Client to a version that has automatic renewal of service account tokens",
            "after an hour the service account token expired and every request got 401",
            "the JobManager keeps sending an expired projected token",
        ],
        not: &[
            "the service account token has not expired",
            "we rotate the webhook's TLS certificate every month",
        ],
    },
    Reading {
        id: "DESC-OPERATOR-PENDING",
        category: Category::OperatorNotRunning,
        pattern: r"\boperator(?:'s)?(?: pods?| deployment| controller)?\b[^.\n]{0,40}?\b(?:stuck|stays?|stayed|remains?|remained|hangs?|hanging|is|are|was|were)(?: stuck| still)?(?: in| at)?(?: the)?(?: status)? pending\b|\bpending\b[^.\n]{0,30}?\boperator(?: pods?)\b",
        context: &[],
        title: "the text describes the operator pod stuck in Pending",
        like: "",
        fix: "a Pending pod is waiting for the scheduler, which says why in the pod's events (`FailedScheduling`: insufficient cpu or memory, a node selector or taint no node matches, an unbound PersistentVolumeClaim) or for an admission it was refused: run `kubectl describe pod -n <operator-namespace> -l app.kubernetes.io/name=flink-kubernetes-operator` and read its Events, then give the operator what it asks for (free resources, fix the chart's `nodeSelector`/`tolerations`/`resources`)",
        verify: "kubectl get pods -n <operator-namespace> -l app.kubernetes.io/name=flink-kubernetes-operator",
        examples: &[
            "the operator pod is stuck in Pending for hours and never starts",
            "after helm install the operator pod remains in pending state",
            "the pod stays pending, it is the operator pod",
        ],
        not: &["the operator pod is not pending anymore", "the job is pending in the operator queue"],
    },
];

/// Words that, right before a reading's match, turn it around ("no OOMKilled", "not forbidden").
const NEGATIONS: &[&str] = &[
    "no ", "not ", "never ", "without ", "isn't ", "wasn't ", "aren't ", "weren't ", "don't ",
    "doesn't ", "didn't ",
];
/// How many matches of one reading are tried on one line before it is given up.
const MAX_RETRIES: usize = 8;
/// How far before the match a negation counts.
const NEGATION_REACH: usize = 24;

/// The readings compiled for reading line after line in linear time.
///
/// A line is read only when it is prose (`is_prose`: not a line a program printed with a
/// timestamp, a log level or a stack frame), and then in two stages, like the catalogue: one
/// case-insensitive multi-literal search (Aho-Corasick over the words every reading's pattern
/// must start with, extracted from the pattern itself) names the few readings the line can state,
/// and only their regexes run, each compiled the first time a line is a candidate for it. A line
/// with none of the words costs one linear scan.
pub struct Readings {
    /// The words a match of each reading starts with (ASCII case-insensitive).
    prefilter: AhoCorasick,
    /// For each prefilter word, the reading it belongs to.
    owner: Vec<usize>,
    /// Readings whose start could not be reduced to words: tried on every prose line.
    always: Vec<usize>,
    regexes: Vec<OnceLock<Regex>>,
    /// Every reading's context words, ASCII case-insensitive.
    context: AhoCorasick,
    context_words: Vec<&'static str>,
}

/// How much of each word the prefilter keeps: enough to be rare in a log, few enough that the
/// words stay a few hundred.
const PREFIX_BYTES: usize = 6;

/// The literal prefixes every match of `pattern` starts with, or `None` when they are not a
/// finite set of non-empty words (the reading is then tried on every prose line).
fn prefixes(pattern: &str) -> Option<Vec<Vec<u8>>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let seq = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    let literals = seq.literals()?;
    // A word of one or two letters is everywhere: no better than no prefilter at all.
    if literals.is_empty() || literals.iter().any(|l| l.as_bytes().len() < 3) {
        return None;
    }
    // The prefilter is ASCII case-insensitive: spellings that differ in case are one word, and a
    // word is enough when a shorter one it starts with is in the set. Cut to `PREFIX_BYTES`, the
    // thousands of spellings a pattern's alternatives multiply into become a few dozen words.
    let mut words: Vec<Vec<u8>> = literals
        .iter()
        .map(|l| {
            let b = l.as_bytes();
            b[..b.len().min(PREFIX_BYTES)].to_ascii_lowercase()
        })
        .collect();
    words.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for w in words {
        if !kept.iter().any(|k| w.starts_with(k)) {
            kept.push(w);
        }
    }
    Some(kept)
}

/// The compiled readings (built once per process).
pub fn readings() -> &'static Readings {
    static R: OnceLock<Readings> = OnceLock::new();
    R.get_or_init(|| {
        let mut words: Vec<Vec<u8>> = Vec::new();
        let mut owner = Vec::new();
        let mut always = Vec::new();
        for (i, r) in READINGS.iter().enumerate() {
            match prefixes(r.pattern) {
                Some(p) => {
                    owner.extend(std::iter::repeat_n(i, p.len()));
                    words.extend(p);
                }
                None => always.push(i),
            }
        }
        let mut context_words: Vec<&'static str> = READINGS
            .iter()
            .flat_map(|r| r.context.iter().copied())
            .collect();
        context_words.sort_unstable();
        context_words.dedup();
        Readings {
            prefilter: AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&words)
                .expect("reading words compile"),
            owner,
            always,
            regexes: READINGS.iter().map(|_| OnceLock::new()).collect(),
            context: AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&context_words)
                .expect("context words compile"),
            context_words,
        }
    })
}

/// True when a line may be a person's own words: not a line a program printed, which starts with
/// a timestamp (`2024-03-01 10:00:00`, `2024-03-01T10:00:00`, klog's `E0301 10:00:00`), a log
/// level (`INFO`, `[WARN]`), or is a stack frame (`at ...`) or a JSON object. Decided on the
/// first bytes only, so it costs the same whatever the line's length.
pub fn is_prose(line: &str) -> bool {
    let t = line.trim_start().as_bytes();
    let digit = |i: usize| t.get(i).is_some_and(u8::is_ascii_digit);
    let timestamp = (0..4).all(digit)
        && t.get(4) == Some(&b'-')
        && digit(5)
        && digit(6)
        && t.get(7) == Some(&b'-');
    let klog = matches!(t.first(), Some(b'I' | b'W' | b'E' | b'F'))
        && (1..5).all(digit)
        && t.get(5) == Some(&b' ');
    let head = &t[..t.len().min(8)];
    let level = [
        &b"INFO "[..],
        b"WARN ",
        b"ERROR ",
        b"DEBUG ",
        b"TRACE ",
        b"[INFO",
        b"[WARN",
        b"[ERROR",
    ]
    .iter()
    .any(|l| head.starts_with(l));
    let frame = t.starts_with(b"at ") && t.contains(&b'(');
    !(timestamp || klog || level || frame || t.starts_with(b"{\"") || exception_head(t))
}

/// A line the JVM printed for a throwable: `Caused by: ...`, `Exception in thread "main" ...`, or
/// a class name with a package (`java.lang.RuntimeException: ...`, `a.b.c$Inner: ...`) ending in
/// Exception, Error or Throwable before its `:` (Throwable.toString: the class name, then `: ` and
/// the message). Its words are the program's, not a person's. Reads the first 256 bytes at most.
fn exception_head(t: &[u8]) -> bool {
    if t.starts_with(b"Caused by: ") || t.starts_with(b"Exception in thread ") {
        return true;
    }
    let head = &t[..t.len().min(256)];
    let Some(end) = head.iter().position(|&b| b == b':' || b == b' ') else {
        return false;
    };
    let name = &head[..end];
    head.get(end) == Some(&b':')
        && name.contains(&b'.')
        && name.first().is_some_and(u8::is_ascii_alphabetic)
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'.' || b == b'$' || b == b'_')
        && [&b"Exception"[..], b"Error", b"Throwable"]
            .iter()
            .any(|s| name.ends_with(s))
}

impl Readings {
    /// Reading `i`'s regex.
    fn regex(&self, i: usize) -> &Regex {
        self.regexes[i].get_or_init(|| {
            Regex::new(&format!("(?i){}", READINGS[i].pattern)).expect("readings compile")
        })
    }

    /// The readings this line states (not negated), by index into `READINGS`, with the byte
    /// offset of the match.
    pub fn read_line(&self, line: &str) -> Vec<(usize, usize)> {
        let mut candidates: Vec<usize> = self
            .prefilter
            .find_overlapping_iter(line)
            .map(|m| self.owner[m.pattern().as_usize()])
            .chain(self.always.iter().copied())
            .collect();
        let mut out = Vec::new();
        if candidates.is_empty() {
            return out;
        }
        candidates.sort_unstable();
        candidates.dedup();
        // ASCII lowercasing keeps byte offsets, so the match offsets index it too.
        let lower = line.to_ascii_lowercase();
        for i in candidates {
            let regex = self.regex(i);
            // A match that starts inside a name or after a negation may hide one that starts
            // later and overlaps it ("flink-kubernetes-operator ..., but the operator pod is
            // stuck"): search again from the next character, a few times at most.
            let mut from = 0;
            for _ in 0..MAX_RETRIES {
                let Some(m) = regex.find_at(line, from) else {
                    break;
                };
                if !inside_a_name(line, m.start(), m.end()) && !negated(&lower, m.start()) {
                    out.push((i, m.start()));
                    break;
                }
                from = m.start() + line[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
        }
        out
    }
}

impl Readings {
    /// Adds the context words that occur in `text` to `seen`.
    pub fn note_context(&self, text: &[u8], seen: &mut BTreeSet<&'static str>) {
        for m in self.context.find_iter(text) {
            seen.insert(self.context_words[m.pattern().as_usize()]);
        }
    }
}

/// True when the text mentioned one of the reading's context words (or it needs none).
pub fn in_context(reading: &Reading, seen: &BTreeSet<&'static str>) -> bool {
    reading.context.is_empty() || reading.context.iter().any(|w| seen.contains(w))
}

/// True when the match is part of a longer name (`scn-oom-killed`, `oom_killed_total`,
/// `/tmp/image-missing`): a namespace or file named after a failure does not describe one.
fn inside_a_name(line: &str, start: usize, end: usize) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let matched = &line[start..end];
    let glued_before = matched.starts_with(word)
        && line[..start]
            .chars()
            .next_back()
            .is_some_and(|c| word(c) || matches!(c, '-' | '/' | '.'));
    let glued_after = matched.ends_with(word)
        && line[end..]
            .chars()
            .next()
            .is_some_and(|c| word(c) || matches!(c, '-' | '/'));
    glued_before || glued_after
}

/// True when a negation word ends within `NEGATION_REACH` bytes before `at` in the same clause.
fn negated(lower: &str, at: usize) -> bool {
    if at > lower.len() || !lower.is_char_boundary(at) {
        return false;
    }
    let mut from = at.saturating_sub(NEGATION_REACH);
    while !lower.is_char_boundary(from) {
        from += 1;
    }
    let before = &lower[from..at];
    let clause = before
        .rfind([',', ';', '.', ':'])
        .map_or(before, |i| &before[i + 1..]);
    let padded = format!(" {clause}");
    NEGATIONS.iter().any(|n| padded.contains(&format!(" {n}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signatures::by_id;

    fn reads(line: &str) -> Vec<&'static str> {
        readings()
            .read_line(line)
            .into_iter()
            .map(|(i, _)| READINGS[i].id)
            .collect()
    }

    #[test]
    fn every_reading_matches_its_examples_and_none_of_its_counter_examples() {
        for r in READINGS {
            for e in r.examples {
                assert!(reads(e).contains(&r.id), "{} does not read {e:?}", r.id);
            }
            for n in r.not {
                assert!(!reads(n).contains(&r.id), "{} reads {n:?}", r.id);
            }
        }
    }

    #[test]
    fn ids_are_unique_and_fixes_resolve_without_placeholders() {
        let mut ids = BTreeSet::new();
        let placeholder = Regex::new(r"\{[a-z_]+\}").unwrap();
        for r in READINGS {
            assert!(ids.insert(r.id) && r.id.starts_with("DESC-"), "{}", r.id);
            let (fix, verify) = if r.like.is_empty() {
                assert!(
                    !r.fix.is_empty() && !r.verify.is_empty(),
                    "{} has no fix",
                    r.id
                );
                (r.fix.to_string(), r.verify.to_string())
            } else {
                let like = by_id(r.like).unwrap_or_else(|| panic!("{}: no {}", r.id, r.like));
                assert_eq!(like.category, r.category, "{} is not like {}", r.id, r.like);
                let mut none = Default::default();
                crate::signatures::derive_fields(&mut none);
                (
                    crate::signatures::fill(like.fix, &none),
                    crate::signatures::fill(like.verify, &none),
                )
            };
            for text in [&fix, &verify] {
                assert!(!placeholder.is_match(text), "{}: unfilled {text}", r.id);
            }
        }
    }

    #[test]
    fn a_negation_in_the_same_clause_turns_a_reading_off() {
        assert!(reads("we never got OOMKilled").is_empty());
        assert!(!reads("no restarts, but OOMKilled twice").is_empty());
    }

    #[test]
    fn every_reading_but_a_few_is_prefiltered_by_words() {
        let r = readings();
        let always: Vec<&str> = r.always.iter().map(|&i| READINGS[i].id).collect();
        // A reading tried on every prose line costs a regex per line: keep them rare.
        assert!(
            always.len() <= 3,
            "readings without prefilter words: {always:?}"
        );
        // A line with none of the words reads nothing (and runs no regex).
        assert!(r.read_line("the weather was fine all week").is_empty());
    }

    #[test]
    fn lines_a_program_printed_are_not_prose() {
        for printed in [
            "2024-03-01 10:00:00,000 INFO  org.apache.flink.Foo [] - the image does not exist",
            "2024-03-01T10:00:00Z the image does not exist",
            "E0301 10:00:00.123456       1 reflector.go:138] pods is forbidden",
            "INFO  the image does not exist",
            "\tat org.apache.flink.Foo.bar(Foo.java:1)",
            "{\"level\":\"error\",\"msg\":\"OOMKilled\"}",
            "java.lang.RuntimeException: cn.hutool.core.io.IORuntimeException: UnknownHostException: http",
            "Caused by: java.net.UnknownHostException: the image does not exist",
            "org.apache.flink.util.FutureUtils$RetryException: the image does not exist",
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        ] {
            assert!(!is_prose(printed), "{printed:?}");
        }
        for prose in [
            "the taskmanager keeps getting OOMKilled after an hour",
            "2 of our 3 jobs fail with java heap space",
            "at first the image was missing",
            "Note: the image does not exist, we get an UnknownHostException",
            "e.g. the TaskManager cannot connect to the JobManager",
        ] {
            assert!(is_prose(prose), "{prose:?}");
        }
    }

    #[test]
    fn a_name_that_holds_a_failure_word_describes_nothing() {
        assert!(reads("namespace: scn-oom-killed").is_empty());
        assert!(reads("pekko.tcp://flink@sessionize.scn-oom-killed:6123/user").is_empty());
        assert!(reads("metric flink_oom_killed_total").is_empty());
    }
}

//! Signatures of the other Flink operators: the GCP/Spotify FlinkCluster operator
//! (flinkoperator.k8s.io) and Lyft's flinkk8soperator (flink.k8s.io). Each cites where its text is printed.
//!
//! Both are Go programs (controller-runtime / client-go), so their lines come as zap/logrus JSON
//! or klog text; messages inside JSON have escaped quotes, which triage decodes before matching
//! (the patterns below also accept the escaped form, `\"`).
//!
//! Left out on purpose (no taxonomy category says what happened, see the report of this file):
//! the FlinkCluster job submitter's own failures (`Unknown job state, exiting 3`, `Failed to
//! submit.`, `... there is no job id. Did you forget to execute the pipeline?`) and scheduled or
//! user-requested savepoint failures (`Savepoint creation failed: ...`).

use super::Signature;
use crate::finding::{Category, Severity};

// --- the FlinkCluster operator (GoogleCloudPlatform/flink-on-k8s-operator, its fork spotify/...) --

const FC_VERIFY_MANAGER: &str =
    "kubectl get pods -A -l control-plane=controller-manager,app=flink-operator";

/// The 403s the forbidden signatures refine (same line, less precise reading).
const FORBIDDEN_GENERIC: &[&str] = &[
    "SIG-K8S-FORBIDDEN",
    "SIG-K8S-FORBIDDEN-DEFAULT-SA",
    "SIG-K8S-FORBIDDEN-OPERATOR",
];

const DENIED: &[&str] = &["SIG-WEBHOOK-DENIED"];

/// What a missing webhook certificate Secret leads to in the FlinkCluster operator's install.
/// (the get-pods rows of the cert-job and of the stuck manager pod are in `kubernetes`).
const FC_NO_CERT: &[&str] = &[
    "SIG-K8S-CERT-JOB-FAILED",
    "SIG-K8S-OPERATOR-POD-CONTAINER-CREATING",
    "SIG-FLINKCLUSTER-WEBHOOK-CERT-FILE-MISSING",
];

const FC_VALIDATE_SRC: &str =
    "spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/v1beta1/flinkcluster_validate.go";

pub static SIGNATURES: &[Signature] = &[
    // --- install: the operator process ------------------------------------------------------------
    // The Go runtime's crash text. In a Flink-on-Kubernetes paste the Go programs are the two
    // operators of this file; the Apache operator is Java. controller-runtime before 0.15 logged
    // "Observed a panic in reconciler" and re-panicked (the process exits); later versions recover
    // and log "panic: ... [recovered]" inside a Reconciler error, which this does not match.
    Signature {
        id: "SIG-GO-OPERATOR-PANIC",
        category: Category::OperatorNotRunning,
        severity: Severity::Critical,
        literals: &["panic: runtime error: ", "Observed a panic in reconciler: "],
        pattern: r"^(?:\[[^\]]*\]\s*)?\s*panic: runtime error: (?P<panic>[^\[\n]+?)(?: \[recovered\])?\s*$|Observed a panic in reconciler: (?:runtime error: )?(?P<panic_2>[^\n]+?)\s*$",
        title: "the operator's Go process panicked ({panic}) and exits",
        explanation: "the operator (a Go program: the FlinkCluster operator or Lyft's flinkk8soperator) hit a bug while reconciling a resource and crashed; Kubernetes restarts it, and it crashes again on the same resource, so the pod crash-loops and no Flink resource is reconciled",
        fix: "this is an operator bug: the stack below the panic names the function (e.g. FlinkCluster's `shouldStopJob` or `(*FlinkJobSubmitter).getState`, fixed in spotify/flink-on-k8s-operator PRs #302 and #446). Upgrade the operator (FlinkCluster: the newest ghcr.io/spotify/flink-operator release, with its CRD); until then find the resource reconciled last before the panic (the `cluster` / `app_name` of the last log lines), revert its last change or delete and recreate it, then restart the operator pod",
        verify: FC_VERIFY_MANAGER,
        explains: &[],
        supersedes: &[],
        examples: &[
            "panic: runtime error: invalid memory address or nil pointer dereference",
            "panic: runtime error: invalid memory address or nil pointer dereference [recovered]",
        ],
        unless: &[],
        sources: &[
            "observed:https://github.com/spotify/flink-on-k8s-operator/issues/160 (operator manager log)",
            "observed:https://github.com/spotify/flink-on-k8s-operator/pull/446 (operator manager log)",
        ],
    },
    // main.go: SetupWithManager failed; the error (cut off in many pastes) is the unknown kind.
    Signature {
        id: "SIG-FLINKCLUSTER-CONTROLLER-SETUP",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        literals: &["Unable to create controller"],
        pattern: r#"Unable to create controller\b.*?\\?["“]controller\\?["”]:\s*\\?["“]FlinkCluster"#,
        title: "the FlinkCluster operator cannot start its controller: the FlinkCluster API it serves is not installed at its version",
        explanation: "the manager exits at start because the API server does not serve the kinds its FlinkCluster controller watches, almost always the flinkclusters.flinkoperator.k8s.io CRD at the operator's version (v1beta1): an older (v1alpha1) CRD, or none. It can also be a built-in kind the Kubernetes version lacks (autoscaling/v2, policy/v1 on old clusters)",
        fix: "install the CRD that belongs to the operator image you run (from the same release: `config/crd/bases/flinkoperator.k8s.io_flinkclusters.yaml`, or the chart's CRD) and restart the manager pod; the line's `error` field names the missing kind and version",
        verify: "kubectl get crd flinkclusters.flinkoperator.k8s.io -o jsonpath='{.spec.versions[*].name}'",
        explains: &["SIG-GO-OPERATOR-PANIC"],
        supersedes: &[],
        examples: &[
            r#"2020-03-29T07:00:37.662Z	ERROR	setup	Unable to create controller	{"controller": "FlinkCluster""#,
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:main.go",
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:main.go",
        ],
    },
    // controllers: the status write is rejected by the CRD schema: CRD and image from different commits.
    Signature {
        id: "SIG-OPERATOR-STATUS-SCHEMA-REJECTED",
        category: Category::CrdVersionMismatch,
        severity: Severity::Critical,
        literals: &["is invalid: [status.", "is invalid: status."],
        pattern: r#"(?P<kind>FlinkCluster\.flinkoperator\.k8s\.io|flinkclusters\.flinkoperator\.k8s\.io|FlinkApplication\.flink\.k8s\.io|flinkapplications\.flink\.k8s\.io) \\?"(?P<object>[^"\\]+)\\?" is invalid: \[?(?P<field>status\.[\w.\[\]]+): (?P<reason>Required(?: value)?|Invalid value|Unsupported value)"#,
        title: "the operator's status update of {object} is rejected: the CRD requires {field} ({reason})",
        explanation: "the operator writes a status the installed CRD's schema does not accept, so every status update fails and the resource never leaves its first state (no pods are created): the CRD and the operator image come from different versions (e.g. a CRD from master requiring jobManagerStatefulSet with an older image writing jobManagerDeployment, or the reverse)",
        fix: "install the CRD and the operator image of one release (check out the release tag you deploy, `make deploy IMG=<image of that tag>`, or the chart of that version), then restart the operator pod",
        verify: "kubectl get crd flinkclusters.flinkoperator.k8s.io -o jsonpath='{.spec.versions[*].schema.openAPIV3Schema.properties.status.properties.components.required}'",
        explains: &["SIG-LYFT-PHASE-NOT-STORED"],
        supersedes: &[],
        examples: &[
            r#"2021-07-22T06:07:37.788Z	ERROR	controllers.FlinkCluster	Failed to update cluster status	{"cluster": "default/flinksessioncluster-sample", "error": "FlinkCluster.flinkoperator.k8s.io \"flinksessioncluster-sample\" is invalid: [status.components.jobManagerDeployment: Required value, status.components.taskManagerDeployment: Required value]"}"#,
            r#"FlinkCluster.flinkoperator.k8s.io "flinkjobcluster-sample" is invalid: [status.components.jobManagerStatefulSet: Required value, status.components.taskManagerStatefulSet: Required value]"#,
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_controller.go",
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:controllers/flinkcluster_controller.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/k8/cluster.go",
        ],
    },
    // The informers and API calls of a Go operator refused: its own ServiceAccount lacks RBAC.
    Signature {
        id: "SIG-GO-OPERATOR-FORBIDDEN",
        category: Category::OperatorRbacMissing,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:serviceaccount:", "is forbidden: User \\\"system:serviceaccount:"],
        pattern: r#"(?:reflector\.go:\d+\]?:?.*?[Ff]ailed to (?:list|watch) \*?[\w./]+: |K8s object (?:creation|update|get|delete) failed |Failed to reconcile resource [\w.-]+/[\w.-]+: |controllers\.FlinkCluster\b.*?)(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?) (?:\\?"(?P<object>[^"\\]*)\\?" )?)?is forbidden: User \\?"system:serviceaccount:(?P<namespace>[^:"\\]+):(?P<sa>[^"\\]+)\\?" cannot (?P<verb>[a-z]+) resource \\?"(?P<resource>[^"\\]+)\\?"(?: in API group \\?"(?P<group>[^"\\]*)\\?")?(?: in the namespace \\?"(?P<object_namespace>[^"\\]+)\\?")?"#,
        title: "the operator's ServiceAccount {namespace}/{sa} may not {verb} {kubectl_resource}",
        explanation: "the operator itself (a Go controller: its informers or its API calls) was refused by the API server: the ServiceAccount its Deployment runs as has no (Cluster)Role granting this. Typically the manager runs as the namespace's `default` ServiceAccount (installed with a script or chart that did not create or bind its own), or the installed role predates a permission the operator now needs (Lyft: update on flinkapplications/status)",
        fix: "bind the operator's role to the ServiceAccount its Deployment runs as (FlinkCluster operator: ClusterRole `flink-operator-manager-role` from config/rbac or the chart, and `serviceAccountName` on the `flink-operator-controller-manager` Deployment; Lyft: the ClusterRole and ServiceAccount `flinkoperator` from deploy/role.yaml and deploy/role-binding.yaml of the same release), or grant exactly what was refused:

  kubectl create clusterrole {role_name} --verb={verb} --resource={kubectl_resource}
  kubectl create clusterrolebinding {role_name} --clusterrole={role_name} --serviceaccount={namespace}:{sa}",
        verify: "kubectl auth can-i {verb} {kubectl_resource} --all-namespaces --as=system:serviceaccount:{namespace}:{sa}",
        explains: &["SIG-LYFT-PHASE-NOT-STORED"],
        supersedes: FORBIDDEN_GENERIC,
        examples: &[
            r#"E0714 15:58:28.598175       1 reflector.go:178] pkg/mod/k8s.io/client-go@v0.18.3/tools/cache/reflector.go:125: Failed to list *v1.StatefulSet: statefulsets.apps is forbidden: User "system:serviceaccount:flink-operator-system:default" cannot list resource "statefulsets" in API group "apps" at the cluster scope"#,
            r#"E0327 11:28:08.162272       1 reflector.go:126] pkg/mod/k8s.io/client-go@v11.0.1-0.20190409021438-1a26190bd76a+incompatible/tools/cache/reflector.go:94: Failed to list *v1beta1.FlinkCluster: flinkclusters.flinkoperator.k8s.io is forbidden: User "system:serviceaccount:flink-operator:default" cannot list resource "flinkclusters" in API group "flinkoperator.k8s.io" at the cluster scope"#,
            r#"{"json":{"app_name":"wordcount-operator-example","ns":"team1","phase":""},"level":"error","msg":"K8s object update failed flinkapplications.flink.k8s.io \"wordcount-operator-example\" is forbidden: User \"system:serviceaccount:flink-operator:flinkoperator\" cannot update resource \"flinkapplications/status\" in API group \"flink.k8s.io\" in the namespace \"team1\"","#,
        ],
        unless: &[],
        sources: &[
            "kubernetes/client-go@v0.18.3:tools/cache/reflector.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/k8/cluster.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/controller.go",
            "spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_reconciler.go",
        ],
    },
    // --- install: the FlinkCluster operator's webhook certificate -----------------------------------
    // The helm chart's cert-job (generate-cert.yaml) creates Secret webhook-server-cert with kubectl.
    Signature {
        id: "SIG-FLINKCLUSTER-CERT-JOB-FORBIDDEN",
        category: Category::OperatorRbacMissing,
        severity: Severity::Critical,
        literals: &["\"webhook-server-cert\" is forbidden", "“webhook-server-cert” is forbidden"],
        pattern: r#"secrets ["“]webhook-server-cert["”] is forbidden: User ["“]system:serviceaccount:(?P<namespace>[^:"”]+):(?P<sa>[^"”]+)["”] cannot (?P<verb>[a-z]+) resource ["“](?P<resource>secrets)["”]"#,
        title: "the chart's cert-job (ServiceAccount {namespace}/{sa}) may not {verb} the webhook-server-cert Secret",
        explanation: "the FlinkCluster operator chart's cert-job generates the webhook's certificate and stores it with `kubectl apply` as Secret webhook-server-cert, then creates the webhook configurations; the ServiceAccount it runs as has no rights on Secrets (the chart's role lost them), so the Secret is never created and the manager pod, which mounts it, never starts",
        fix: "grant the cert-job's ServiceAccount what its script does (or install with a chart version whose RBAC includes it, or use `make deploy` with cert-manager instead):

  kubectl create role flink-operator-cert-job -n {namespace} --verb=get,create,patch,update --resource=secrets
  kubectl create rolebinding flink-operator-cert-job -n {namespace} --role=flink-operator-cert-job --serviceaccount={namespace}:{sa}
  kubectl create clusterrole flink-operator-cert-job --verb=get,create,patch,update --resource=mutatingwebhookconfigurations,validatingwebhookconfigurations
  kubectl create clusterrolebinding flink-operator-cert-job --clusterrole=flink-operator-cert-job --serviceaccount={namespace}:{sa}

then delete the failed cert-job so `helm upgrade` runs it again",
        verify: "kubectl auth can-i create secrets -n {namespace} --as=system:serviceaccount:{namespace}:{sa}",
        explains: FC_NO_CERT,
        supersedes: FORBIDDEN_GENERIC,
        examples: &[
            r#"from server for: "STDIN": secrets "webhook-server-cert" is forbidden: User "system:serviceaccount:flink-operator-system:flink-sa" cannot get resource "secrets" in API group "" in the namespace "flink-operator-system""#,
            "My error: “STDIN”: secrets “webhook-server-cert” is forbidden: User “system:serviceaccount:flink-operator:flink-operator” cannot get resource “secrets” in API group “” in the namespace “flink-operator”.",
        ],
        unless: &[],
        sources: &[
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:helm-chart/flink-operator/templates/generate-cert.yaml",
            "spotify/flink-on-k8s-operator@v0.4.1-beta.10:helm-chart/flink-operator/templates/generate-cert.yaml",
        ],
    },
    // main.go "Problem running manager": controller-runtime's webhook server reads its certificate.
    Signature {
        id: "SIG-FLINKCLUSTER-WEBHOOK-CERT-FILE-MISSING",
        category: Category::WebhookSecretMissing,
        severity: Severity::Critical,
        literals: &["k8s-webhook-server/serving-certs/"],
        pattern: r"open (?P<path>\S*k8s-webhook-server/serving-certs/tls\.(?:crt|key)): no such file or directory",
        title: "the operator's webhook server has no certificate ({path} is missing)",
        explanation: "the operator serves its admission webhooks with the certificate mounted from Secret webhook-server-cert at /tmp/k8s-webhook-server/serving-certs; the Deployment has no such mount (edited out, or a manifest without the webhook patch), so the manager exits at start",
        fix: "restore the certificate mount (the `cert` volume from Secret webhook-server-cert in config/default/manager_webhook_patch.yaml, issued by cert-manager or the chart's cert-job); to run without webhooks instead set env `FLINK_OPERATOR_ENABLE_WEBHOOKS=false` on the manager container and delete the flink-operator-mutating/validating-webhook-configuration objects",
        verify: FC_VERIFY_MANAGER,
        explains: &[],
        supersedes: &[],
        examples: &[
            "2020-01-24T23:17:22.664Z	ERROR	setup	Problem running manager	{“error”: “open /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory”}",
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:main.go",
            "spotify/flink-on-k8s-operator@v0.6.0:config/default/manager_webhook_patch.yaml",
        ],
    },
    // API server admission errors for the operator's own webhooks (names from config/webhook/manifests.yaml).
    Signature {
        id: "SIG-FLINKCLUSTER-WEBHOOK-UNREACHABLE",
        category: Category::WebhookUnreachable,
        severity: Severity::Critical,
        literals: &["failed calling webhook"],
        pattern: r#"failed calling webhook ["“](?P<webhook>[mv]flinkcluster\.flinkoperator\.k8s\.io)["”]:(?:.*?https://(?P<service>[a-z0-9-]+)\.(?P<service_namespace>[a-z0-9-]+)\.svc)?.*?(?P<error>connection refused|connect failed|no endpoints available for service|service "[^"]+" not found|context deadline exceeded|i/o timeout|no route to host|connection reset by peer)"#,
        title: "the API server cannot reach the FlinkCluster webhook {webhook} ({error})",
        explanation: "every FlinkCluster create/update goes through the operator's webhooks (failurePolicy Fail); the API server could not reach the manager pod behind the webhook's Service: the pod is not Running/Ready (crash-looping, ContainerCreating for lack of its certificate Secret, image not pulled), or the network between the control plane and the pod blocks the webhook port (GKE private clusters: the master firewall rule must allow it)",
        fix: "get the manager pod Running and Ready (`kubectl get pods -n {service_namespace|flink-operator-system} -l control-plane=controller-manager`; the causes above show in its events and logs), check the Service has endpoints, and on private clusters open the webhook port (9443, 443 in older releases) from the control plane to the nodes; if the operator was removed, delete flink-operator-mutating-webhook-configuration and flink-operator-validating-webhook-configuration",
        verify: "kubectl get endpoints {service|flink-operator-webhook-service} -n {service_namespace|flink-operator-system}",
        explains: &[],
        supersedes: &["SIG-WEBHOOK-UNREACHABLE", "SIG-WEBHOOK-SSH-TUNNEL-REFUSED"],
        examples: &[
            r#"Internal error occurred: failed calling webhook "mflinkcluster.flinkoperator.k8s.io": Post https://flink-operator-webhook-service.flink-operator-system.svc:443/mutate-flinkoperator-k8s-io-v1beta1-flinkcluster?timeout=30s: ssh: rejected: connect failed (Connection refused)"#,
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:config/webhook/manifests.yaml",
            "observed:https://github.com/spotify/flink-on-k8s-operator/issues/9 (kubectl apply)",
        ],
    },
    // The API server's TLS error calling the FlinkCluster webhooks, recognised by their paths
    // (config/webhook/manifests.yaml), with or without the `failed calling webhook` head: YAML
    // status and wrapped terminals often split the head from the `Post "<url>": x509: ...` tail.
    Signature {
        id: "SIG-FLINKCLUSTER-WEBHOOK-CERT-EXPIRED",
        category: Category::WebhookCertExpired,
        severity: Severity::Critical,
        literals: &["-flinkoperator-k8s-io-v1beta1-flinkcluster"],
        pattern: r#"https://(?P<service>[a-z0-9-]+)\.(?:(?P<service_namespace>[a-z0-9-]+)|<[^>]*>)\.svc(?::\d+)?/(?:mutate|validate)-flinkoperator-k8s-io-v1beta1-flinkcluster\S*?(?:\\n|\s)*x509: certificate has expired or is not yet valid"#,
        title: "the FlinkCluster webhook's certificate has expired",
        explanation: "the API server calls the operator's webhooks for every FlinkCluster change and rejects the manager's serving certificate as expired; the chart's cert-job issued it with openssl's default validity of 30 days in releases before the fix (later ones use 3650 days)",
        fix: "issue a new certificate: re-run the chart's `cert-job` in {service_namespace|flink-operator-system} (`helm upgrade` the flink-operator chart, or delete the Job and recreate it from the chart), or let cert-manager issue Secret webhook-server-cert (config/default with cert-manager); then restart the manager (`kubectl rollout restart deployment flink-operator-controller-manager -n {service_namespace|flink-operator-system}`) so it serves the new one",
        verify: "kubectl get secret webhook-server-cert -n {service_namespace|flink-operator-system} -o jsonpath='{.data.tls\\.crt}' | base64 -d | openssl x509 -noout -enddate",
        explains: &[],
        supersedes: &["SIG-WEBHOOK-CERT-EXPIRED"],
        examples: &[
            "https://flink-operator-webhook-service.importer.svc:443/mutate-flinkoperator-k8s-io-v1beta1-flinkcluster?timeout=30s: x509: certificate has expired or is not yet valid",
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:config/webhook/manifests.yaml",
            "golang/go@0184fe5ece4f:src/crypto/x509/verify.go",
            "golang/go@go1.15:src/net/url/url.go",
        ],
    },
    Signature {
        id: "SIG-FLINKCLUSTER-WEBHOOK-X509",
        category: Category::WebhookCertInvalid,
        severity: Severity::Critical,
        literals: &["-flinkoperator-k8s-io-v1beta1-flinkcluster"],
        pattern: r#"https://(?P<service>[a-z0-9-]+)\.(?:(?P<service_namespace>[a-z0-9-]+)|<[^>]*>)\.svc(?::\d+)?/(?:mutate|validate)-flinkoperator-k8s-io-v1beta1-flinkcluster\S*?(?:\\n|\s)*x509: (?P<x509>certificate signed by unknown authority|certificate is valid for [^"]*|certificate relies on legacy Common Name field|certificate is not valid for any names)"#,
        title: "the API server does not trust the FlinkCluster webhook's certificate ({x509})",
        explanation: "the API server cannot verify the manager's serving certificate: the webhook configurations' caBundle is not the CA that signed it, or the certificate names the Service only in its Common Name, which Go 1.15+ (Kubernetes 1.19+) no longer accepts without SANs",
        fix: "issue a certificate with subjectAltNames flink-operator-webhook-service, flink-operator-webhook-service.{service_namespace|flink-operator-system} and flink-operator-webhook-service.{service_namespace|flink-operator-system}.svc and put its CA in the caBundle of flink-operator-mutating-webhook-configuration and flink-operator-validating-webhook-configuration: re-run the chart's `cert-job` from a chart release whose cert.sh sets subjectAltName, or use cert-manager (config/default), then restart flink-operator-controller-manager",
        verify: "kubectl get secret webhook-server-cert -n {service_namespace|flink-operator-system} -o jsonpath='{.data.tls\\.crt}' | base64 -d | openssl x509 -noout -ext subjectAltName",
        explains: &[],
        supersedes: &["SIG-WEBHOOK-X509"],
        examples: &[
            r#"Post \"https://flink-operator-webhook-service.<namespace>.svc:443/mutate-flinkoperator-k8s-io-v1beta1-flinkcluster?timeout=30s\":\n      x509: certificate relies on legacy Common Name field, use SANs or temporarily\n"#,
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.6.0:config/webhook/manifests.yaml",
            "spotify/flink-on-k8s-operator@v0.6.0:helm-chart/flink-operator/templates/generate-cert.yaml",
            "golang/go@0184fe5ece4f:src/crypto/x509/verify.go",
        ],
    },
    // --- install / spec: the FlinkCluster webhook's denials (flinkcluster_validate.go) -------------
    Signature {
        id: "SIG-FLINKCLUSTER-JM-REPLICAS",
        category: Category::WebhookRejected,
        severity: Severity::Critical,
        literals: &["invalid JobManager replicas, it must be 1"],
        pattern: r"invalid JobManager replicas, it must be 1",
        title: "the FlinkCluster webhook rejects spec.jobManager.replicas other than 1",
        explanation: "the FlinkCluster operator runs exactly one JobManager per cluster (releases before v0.4.2 validate `replicas == 1`); standby JobManagers are not supported, high availability comes from Flink's HA services restarting that one JobManager",
        fix: "set `spec.jobManager.replicas: 1` (or drop it); for JobManager failover configure Flink HA in spec.flinkProperties (`high-availability: kubernetes` or zookeeper, with `high-availability.storageDir`), so a restarted JobManager recovers the job",
        verify: "kubectl apply --dry-run=server -f <flinkcluster.yaml>",
        explains: &[],
        supersedes: DENIED,
        examples: &[
            r#"for: "k8s/metrics-aggregator.yaml": admission webhook "vflinkcluster.flinkoperator.k8s.io" denied the request: invalid JobManager replicas, it must be 1"#,
        ],
        unless: &[],
        sources: &[
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:api/v1beta1/flinkcluster_validate.go",
            "spotify/flink-on-k8s-operator@v0.4.1-beta.10:apis/flinkcluster/v1beta1/flinkcluster_validate.go",
        ],
    },
    Signature {
        id: "SIG-FLINKCLUSTER-IMMUTABLE",
        category: Category::WebhookRejected,
        severity: Severity::Critical,
        literals: &["the cluster properties are immutable"],
        pattern: r"the cluster properties are immutable",
        title: "the FlinkCluster webhook rejects any change to an existing cluster's spec",
        explanation: "the v1alpha1 FlinkCluster API does not allow updating a FlinkCluster at all (a finished job cluster cannot be restarted by editing it); kubectl may show this denial as \"Forbidden! User ... doesn't have permission\", but it is not RBAC",
        fix: "delete the FlinkCluster and create it again with the new spec (take a savepoint first and set spec.job.fromSavepoint), or move to the v1beta1 operator, which updates a job cluster when spec.job.savepointsDir is set",
        verify: "kubectl apply --dry-run=server -f <flinkcluster.yaml>",
        explains: &[],
        supersedes: DENIED,
        examples: &[
            r#"Message: Forbidden! User kubernetes-admin doesn't have permission. admission webhook "vflinkcluster.flinkoperator.k8s.io" denied the request: the cluster properties are immutable."#,
        ],
        unless: &[],
        sources: &["GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:api/v1alpha1/flinkcluster_validate.go"],
    },
    // ValidateUpdate: the spec change is refused; the running cluster keeps the old spec.
    Signature {
        id: "SIG-FLINKCLUSTER-UPDATE-DENIED",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &[
            "updating job is not allowed when spec.job.savepointsDir was not provided",
            "removing savepointsDir is not allowed",
            "updating highAvailability settings is not allowed",
            "you cannot change cluster type between session cluster and job cluster",
            "cannot update spec: taking savepoint is skipped but no up-to-date savepoint",
            "updating deploymentType is not allowed",
            "updating cancelRequested from true to false is not allowed",
        ],
        pattern: r"(?P<denial>updating job is not allowed when spec\.job\.savepointsDir was not provided|removing savepointsDir is not allowed|updating highAvailability settings is not allowed|you cannot change cluster type between session cluster and job cluster|cannot update spec: taking savepoint is skipped but no up-to-date savepoint|updating deploymentType is not allowed|updating cancelRequested from true to false is not allowed)",
        title: "the FlinkCluster webhook refuses the update: {denial}",
        explanation: "the FlinkCluster operator updates a job cluster only by stopping the job with a savepoint and resubmitting it from there; its webhook refuses changes it cannot carry out that way (no savepointsDir, HA or cluster type or TaskManager deploymentType changed, no recent savepoint when takeSavepointOnUpdate is false, restarting a cancelled job), and the cluster keeps running the old spec",
        fix: "for a job update set `spec.job.savepointsDir` first (in an update of its own), or with takeSavepointOnUpdate: false raise `spec.job.maxStateAgeToRestoreSeconds` / take a savepoint (annotation `flinkclusters.flinkoperator.k8s.io/user-control: savepoint`); for changes it never allows (session <-> job, HA, deploymentType, un-cancelling) delete the FlinkCluster and create it again, passing the last savepoint as `spec.job.fromSavepoint`",
        verify: "kubectl apply --dry-run=server -f <flinkcluster.yaml>",
        explains: &[],
        supersedes: DENIED,
        examples: &[
            r#"Error from server: admission webhook "vflinkcluster.flinkoperator.k8s.io" denied the request: updating job is not allowed when spec.job.savepointsDir was not provided"#,
            "admission webhook \"vflinkcluster.flinkoperator.k8s.io\" denied the request: updating highAvailability settings is not allowed",
        ],
        unless: &[],
        sources: &[FC_VALIDATE_SRC],
    },
    Signature {
        id: "SIG-FLINKCLUSTER-MEMORY-DENIED",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &[
            "MemoryProcessRatio config cannot be used with flinkVersion < 1.11",
            "MemoryOffHeapRatio or MemoryOffHeapMin config cannot be used with flinkVersion >= 1.11",
            "memory configuration, MemoryOffHeapMin is not specified",
            "memory configuration, memory limit must be larger than MemoryOffHeapMin",
            "memoryOffHeapRatio, it must be between 0 and 100",
            "memory request/limit is unspecified",
        ],
        pattern: r"(?P<denial>MemoryProcessRatio config cannot be used with flinkVersion < 1\.11|MemoryOffHeapRatio or MemoryOffHeapMin config cannot be used with flinkVersion >= 1\.11|invalid (?P<process>\w+) memory configuration, MemoryOffHeapMin is not specified|invalid (?P<process_2>\w+) memory configuration, memory limit must be larger than MemoryOffHeapMin|invalid (?P<process_3>\w+) memoryOffHeapRatio, it must be between 0 and 100|(?P<process_4>\w+) memory request/limit is unspecified)",
        title: "the FlinkCluster webhook rejects the {process|JobManager/TaskManager} memory settings",
        explanation: "the operator derives Flink's memory options from the container's memory limit and the spec's ratios: Flink 1.11 and later take `memoryProcessRatio`, older Flink `memoryOffHeapRatio`/`memoryOffHeapMin`, and the limit must leave room for the off-heap minimum",
        fix: "set `resources.limits.memory` on spec.jobManager and spec.taskManager, and use the ratio that matches spec.flinkVersion (>= 1.11: `memoryProcessRatio`; < 1.11: `memoryOffHeapRatio` and a `memoryOffHeapMin` below the limit)",
        verify: "kubectl apply --dry-run=server -f <flinkcluster.yaml>",
        explains: &[],
        supersedes: DENIED,
        examples: &[
            "admission webhook \"vflinkcluster.flinkoperator.k8s.io\" denied the request: invalid TaskManager memory configuration, memory limit must be larger than MemoryOffHeapMin, memory limit: 1073741824 bytes, memoryOffHeapMin: 1610612736 bytes",
        ],
        unless: &[],
        sources: &[
            FC_VALIDATE_SRC,
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:api/v1beta1/flinkcluster_validate.go",
        ],
    },
    // --- cluster: the job the operator tracked is gone --------------------------------------------
    // The updater sets job state Lost when the JobManager answers but no longer lists the job.
    Signature {
        id: "SIG-FLINKCLUSTER-JOB-LOST",
        category: Category::JobmanagerRestartWithoutHa,
        severity: Severity::Critical,
        literals: &[" -> Lost", "Job status: Lost", "\"state\": \"Lost\"", "\"state\":\"Lost\"", "state: Lost", "State:  Lost", "State:   Lost", "    Lost"],
        pattern: r#"(?:Job status changed: (?P<from>\w+) -> Lost\b|Job status: Lost\b|"state":\s*"Lost"|^\s*(?:State|state):\s+Lost\s*$)"#,
        title: "the FlinkCluster's job is Lost: the JobManager no longer knows it",
        explanation: "the operator marks the job Lost when the JobManager answers but does not have the job it recorded as running (or its submitter vanished while deploying): the JobManager pod restarted (evicted, OOM-killed, node lost) without Flink high availability, so the job and its in-memory state went with it, and the operator does not resubmit unless told to",
        fix: "to recover now, resubmit from the last savepoint: `kubectl get flinkcluster <name> -o jsonpath='{.status.components.job.savepointLocation}'`, then set `spec.job.fromSavepoint` to it (the webhook accepts that update; on older releases delete and recreate the FlinkCluster with it). To survive the next restart enable Flink HA in spec.flinkProperties (`high-availability: kubernetes` or zookeeper, plus `high-availability.storageDir`), or set `spec.job.restartPolicy: FromSavepointOnFailure` with `savepointsDir` and `autoSavepointSeconds` so the operator resubmits from a recent savepoint",
        verify: "kubectl get flinkcluster -o custom-columns=NAME:.metadata.name,JOB:.status.components.job.state",
        explains: &[],
        supersedes: &[],
        examples: &[
            "      State:                 Lost",
            "  Normal  StatusUpdate  2m  FlinkOperator  Job status changed: Running -> Lost",
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.5.9:controllers/flinkcluster/flinkcluster_updater.go",
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:controllers/flinkcluster_updater.go",
        ],
    },
    // --- job: the FlinkCluster operator's savepoint before an update / on cancel -------------------
    Signature {
        id: "SIG-FLINKCLUSTER-UPDATE-SAVEPOINT-FAILED",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &[
            "Failed to trigger savepoint for update",
            "Failed to trigger savepoint for job cancel",
            "Will retry to trigger savepoint for update",
            "with savepoint, please configure a larger timeout",
            "savepoint failed for job ",
            "Failed to take savepoint for update",
            "job cancellation: failed to",
            "Timed out taking savepoint",
        ],
        pattern: r"Failed to trigger savepoint for (?P<reason>update|job cancel): (?P<message>.+?)\s*$|Failed to take savepoint for (?P<reason_3>update)\.|Aborted (?P<reason_4>job cancel)lation: failed to (?:take|create) savepoint|Timed out taking savepoint\.|Will retry to trigger savepoint for (?P<reason_2>update)|timed out stopping job (?P<job_id>[0-9a-f]{32}) with savepoint, please configure a larger timeout|savepoint failed for job (?P<job_id_2>[0-9a-f]{32}): (?P<message_2>.+?)\s*$",
        title: "the FlinkCluster operator could not take the savepoint for {reason|the update or cancel} of job {job_id|the running job}",
        explanation: "before an update (or a cancel) the FlinkCluster operator stops the job with a savepoint; Flink did not complete it (the job was not fully RUNNING, a checkpoint was declined, the savepoint storage failed, or it timed out), so the update does not proceed: the job keeps running the old spec and the operator keeps retrying",
        fix: "read the Flink reason in the message or the JobManager log (a storage error there has its own finding); make sure all tasks are RUNNING and spec.job.savepointsDir is writable, raise `execution.checkpointing.timeout` for large state, then let the operator retry. To update without a new savepoint, set `spec.job.takeSavepointOnUpdate: false` with `maxStateAgeToRestoreSeconds` covering the last savepoint",
        verify: "kubectl get flinkcluster -o custom-columns=NAME:.metadata.name,SAVEPOINT:.status.savepoint.state,MESSAGE:.status.savepoint.message",
        explains: &[],
        supersedes: &[],
        examples: &[
            "  Warning  SavepointFailed  30s  FlinkOperator  Failed to trigger savepoint for update: Checkpoint was declined (tasks not ready)",
            "timed out stopping job 6a9aac7f6da296ba8a9e261e17c713b7 with savepoint, please configure a larger timeout via 'execution.checkpointing.timeout'",
            "    Message:  Failed to take savepoint for update.",
            "    Message:  Aborted job cancellation: failed to take savepoint.",
        ],
        unless: &[],
        sources: &[
            "spotify/flink-on-k8s-operator@v0.5.0:controllers/flinkcluster/flinkcluster_updater.go",
            "spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_util.go",
            "spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_reconciler.go",
            "GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:controllers/flinkcluster_updater.go",
        ],
    },
    // --- cluster / runtime: the FlinkCluster job submitter (the submit-job.sh script in its ConfigMap)
    Signature {
        id: "SIG-FLINKCLUSTER-SUBMITTER-JM-UNAVAILABLE",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Critical,
        literals: &["Aborted submit because JobManager is unavailable", "to check job manager status"],
        pattern: r"Aborted submit because JobManager is unavailable|Reached max retry count\((?P<retries>\d+)\) to check job manager status",
        title: "the FlinkCluster job submitter gave up: the JobManager REST API never answered",
        explanation: "the job submitter polls `http://<cluster>-jobmanager:8081/jobs` before running `flink run` (120 tries, 10 minutes) and aborts when the JobManager never answers: the JobManager pod is not running or not ready (its own finding shows why), or its Service/DNS is not reachable from the submitter pod",
        fix: "check the JobManager pod and its logs (`kubectl get pods -l cluster=<name>,component=jobmanager`), that Service `<name>-jobmanager` has endpoints on port 8081, and that no NetworkPolicy blocks the submitter pod; the submitter's log (`kubectl logs job/<name>-job-submitter`) shows each curl error",
        verify: "kubectl get endpoints -l cluster=<name>",
        explains: &[],
        supersedes: &[],
        examples: &["Reached max retry count(120) to check job manager status.", "  Aborted submit because JobManager is unavailable."],
        unless: &[],
        sources: &["spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_submit_job_script.go"],
    },
    // submit-job.sh writes its logs (tee -a job_check_log / submit_log) into the working directory.
    Signature {
        id: "SIG-FLINKCLUSTER-SUBMITTER-WORKDIR",
        category: Category::ImageIncompatible,
        severity: Severity::Critical,
        literals: &["job_check_log: Permission denied", "submit_log: Permission denied"],
        pattern: r"tee: (?P<path>job_check_log|submit_log): (?P<error>Permission denied|Read-only file system)",
        title: "the job submitter cannot write {path} in the image's working directory ({error})",
        explanation: "the FlinkCluster job submitter script logs with `tee -a job_check_log` and `submit_log` in the container's working directory; in this image that directory is not writable by the container's user, so the script cannot record its checks and never submits (it retries until MAX_RETRY)",
        fix: "build the job image FROM the official Flink image (working directory /opt/flink, user flink 9999) or make its WORKDIR writable by the user it runs as (`chown`/`chmod` in the Dockerfile, or `securityContext.runAsUser`/`fsGroup` matching the owner)",
        verify: "kubectl get flinkcluster <name> -n <namespace> -o jsonpath='{.status.components.job.state}'   # expect: Running or Succeeded",
        explains: &[],
        supersedes: &["SIG-FLINK-DIR-NOT-WRITABLE"],
        examples: &["tee: job_check_log: Permission denied"],
        unless: &[],
        sources: &["spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_submit_job_script.go"],
    },
    // --- Lyft's flinkk8soperator (FlinkApplication, flink.k8s.io) ---------------------------------
    // Phase New (""): the cluster of this deploy already exists, so an earlier reconcile created
    // it and its move to ClusterStarting was never stored. job_manager_controller.go logs the
    // AlreadyExists (and, v0.4.0 to v0.6.x, cluster.go logs the create error too) with the
    // application's phase in the logger context.
    Signature {
        id: "SIG-LYFT-PHASE-NOT-STORED",
        category: Category::CrdVersionMismatch,
        severity: Severity::Warning,
        literals: &[
            "Jobmanager deployment already exists",
            "Taskmanager deployment already exists",
            "K8s object creation failed deployments.apps ",
        ],
        pattern: r#"(?:"app_name":"(?P<app>[^"]+)",(?:"ns":"(?P<app_namespace>[^"]+)",)?)?"phase":""\},.*?"msg":"(?:(?:Jobmanager|Taskmanager) deployment already exists|K8s object creation failed deployments\.apps \\?"(?P<deployment>[^"\\]+)\\?" already exists)|\bmsg="?(?:Jobmanager|Taskmanager) deployment already exists"?.*?\bphase=(?:""|\s|$)"#,
        title: "FlinkApplication {app|<name>} stays in phase \"\": Lyft's operator finds its cluster already created, so its status updates are not stored",
        explanation: "in phase \"\" (New) Lyft's operator creates the cluster of the deploy and then writes phase ClusterStarting through the status subresource; finding that cluster already there means an earlier write of the status was lost, and the application never leaves \"\" (no job is submitted). Repeated, this is a CRD that does not match the operator image: a CRD without `subresources: status` (installed before v0.4.0) under a newer image, or a CRD without a schema for status, whose fields the API server prunes. A 403 on flinkapplications/status (operator RBAC) and a status rejected by the schema have findings of their own; a single occurrence right after deleting and re-creating the application is harmless",
        fix: "install the CRD (deploy/crd.yaml) and the ClusterRole (deploy/role.yaml, with update on flinkapplications/status) of the same release as the operator image you run, then restart the operator; check that the operator log shows no `K8s object update failed` line and the application's phase moves on",
        verify: "kubectl get crd flinkapplications.flink.k8s.io -o jsonpath='{.spec.versions[*].subresources}{.spec.subresources}'",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"{"json":{"app_name":"ocr-data-producer","ns":"develop","phase":""},"level":"info","msg":"Jobmanager deployment already exists","ts":"2020-01-16T12:16:19Z"}"#,
            r#"{"json":{"app_name":"ocr-data-producer","ns":"develop","phase":""},"level":"error","msg":"K8s object creation failed deployments.apps \"ocr-data-producer-12c326bf-jm\" already exists","ts":"2020-01-16T12:16:19Z"}"#,
            r#"{"json":{"app_name":"flink-test-app","ns":"aws-us-east-1-dos1","phase":""},"level":"info","msg":"Jobmanager deployment already exists","ts":"2022-03-11T04:21:38Z"}"#,
        ],
        unless: &[],
        sources: &[
            "lyft/flinkk8soperator@v0.4.0:pkg/controller/flink/job_manager_controller.go",
            "lyft/flinkk8soperator@v0.4.0:pkg/controller/flink/task_manager_controller.go",
            "lyft/flinkk8soperator@v0.4.0:pkg/controller/k8/cluster.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/job_manager_controller.go",
            "observed:https://github.com/lyft/flinkk8soperator/issues/253 (operator log, CRD without a status schema)",
        ],
    },
    // Savepointing phase: the update's final savepoint (cancel with savepoint) failed.
    // Lyft's operator sizes Flink's memory from the FlinkApplication's resources and its memory
    // fractions (pkg/controller/flink/config.go): a quantity it cannot parse, or the fraction of
    // the other Flink memory model, stops it from building the configuration.
    Signature {
        id: "SIG-LYFT-MEMORY-CONFIG",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Critical,
        literals: &["memory couldn't be parsed", "MemoryFraction config cannot be used with flinkVersion"],
        pattern: r"(?P<component>Job Manager|Task Manager) memory couldn't be parsed|(?P<option>offHeapMemoryFraction|systemMemoryFraction) config cannot be used with flinkVersion (?P<bound>[<>]=? ?[\d.]+)",
        title: "Lyft's operator cannot size Flink's memory: {component|}{option|} does not parse or does not fit this flinkVersion",
        explanation: "the FlinkApplication's memory settings do not fit: a resource quantity the operator cannot parse, or the memory fraction of the other Flink memory model (offHeapMemoryFraction before Flink 1.11, systemMemoryFraction from 1.11)",
        fix: "write spec.jobManagerConfig.resources / spec.taskManagerConfig.resources memory as a Kubernetes quantity (e.g. `4Gi`), and use `systemMemoryFraction` for flinkVersion 1.11 and later, `offHeapMemoryFraction` before it",
        verify: "kubectl get flinkapplications -o yaml",
        explains: &[],
        supersedes: &[],
        examples: &[
            "Job Manager memory couldn't be parsed, sorry: name=orders",
            "offHeapMemoryFraction config cannot be used with flinkVersion >= 1.11'; use systemMemoryFraction istead",
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/config.go"],
    },
    Signature {
        id: "SIG-LYFT-UPDATE-SAVEPOINT-FAILED",
        category: Category::UpgradeFailed,
        severity: Severity::Critical,
        literals: &["Failed to take savepoint for job ", "Could not savepoint existing job: "],
        pattern: r"Failed to take savepoint for job (?P<job_id>[0-9a-f]{32}): (?:.*?Failure reason: (?P<failure_reason>[^.\\]+))?|Could not savepoint existing job: (?P<failure_reason_2>[^\\]+?)(?:\\|\s*$)",
        title: "the update could not take the final savepoint of job {job_id|the running job} ({failure_reason|the Flink cause follows in the line})",
        explanation: "on every change of a FlinkApplication Lyft's operator first cancels the running job with a savepoint; Flink failed to take it, so the operator moves to Recovering (restart from the latest externalized checkpoint) and, if that fails too, to DeployFailed. `Not all required tasks are currently running` means the job itself was failing or restarting; an exception while triggering comes from the job or the savepoint storage",
        fix: "get the running job healthy first (all tasks RUNNING: see the JobManager log for why it restarts) and make sure the savepoint location in flink-conf (`state.savepoints.dir`) is writable; then re-apply, or bump `spec.restartNonce` to retry. If the state may be dropped, set `spec.savepointDisabled: true` (or restore from a known savepoint with `spec.savepointPath`)",
        verify: "kubectl get flinkapplication -o custom-columns=NAME:.metadata.name,PHASE:.status.phase",
        explains: &["SIG-LYFT-DEPLOY-FAILED"],
        supersedes: &[],
        examples: &[
            r#"{"json":{"app_name":"ocr-data-producer","ns":"develop","phase":"Savepointing"},"level":"info","msg":"Logged Warning event: SavepointFailed: Failed to take savepoint for job e19cc109c6833d123f5435ea938ef7ab: {java.util.concurrent.CompletionException java.util.concurrent.CompletionException: java.util.concurrent.CompletionException: org.apache.flink.runtime.checkpoint.CheckpointException: Failed to trigger savepoint. Failure reason: An Exception occurred while triggering the checkpoint.\n\tat org.apache.flink.runtime.scheduler.LegacyScheduler.lambda$triggerSavepoint$0(LegacyScheduler.java:510)"#,
            "  Warning  SavepointFailed  6m58s  flinkK8sOperator  Failed to take savepoint for job 04ed12389c8cb48c8adcd13f5f2781ba: {java.util.concurrent.CompletionException java.",
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/flink_state_machine.go"],
    },
    // Deleting phase (deleteMode Savepoint, the default): the final savepoint failed; retried forever.
    Signature {
        id: "SIG-LYFT-DELETE-SAVEPOINT-FAILED",
        category: Category::UpgradeFailed,
        severity: Severity::Warning,
        literals: &["Failed to take savepoint {"],
        pattern: r"Failed to take savepoint \{(?:.*?Failure reason: (?P<failure_reason>[^.\\]+))?",
        title: "deleting the FlinkApplication is blocked: its final savepoint fails ({failure_reason|the Flink cause follows in the line})",
        explanation: "with deleteMode Savepoint (the default) Lyft's operator deletes a FlinkApplication only after cancelling its job with a savepoint; Flink keeps failing to take it, and the operator retries without end, so the resource and its cluster are not removed. (Not an upgrade: the nearest category for a lifecycle operation blocked by its savepoint)",
        fix: "fix what makes the savepoint fail (all tasks RUNNING, `state.savepoints.dir` writable by the job's credentials), or give up the state: `kubectl patch flinkapplication <name> --type merge -p '{\"spec\":{\"deleteMode\":\"ForceCancel\"}}'` (or `None`), after which the deletion completes",
        verify: "kubectl get flinkapplication -o custom-columns=NAME:.metadata.name,PHASE:.status.phase,DELETE:.spec.deleteMode",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"{"json":{"app_name":"davis-wordcount-operator-example","ns":"flink-operator","phase":"Deleting"},"level":"info","msg":"Logged Warning event: SavepointFailed: Failed to take savepoint {java.util.concurrent.CompletionException java.util.concurrent.CompletionException: java.util.concurrent.CompletionException: org.apache.flink.runtime.checkpoint.CheckpointException: Failed to trigger savepoint. Failure reason: Not all required tasks are currently running.\n\tat org.apache.flink.runtime.scheduler.LegacyScheduler.lambda$triggerSavepoint$0(LegacyScheduler.java:510)"#,
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/flink_state_machine.go"],
    },
    // SubmittingJob phase: POST /jars/<jar>/run refused (the reason follows: the job's main() error).
    Signature {
        id: "SIG-LYFT-SUBMIT-FAILED",
        category: Category::UpgradeFailed,
        severity: Severity::Warning,
        literals: &["Failed to submit job to cluster for deploy ", "JobSubmissionFailed: Failed to submit job: "],
        pattern: r"Failed to submit job to cluster for deploy (?P<hash>[0-9a-f]{8}): (?P<message>[^\\]+?)(?:\\|\s*$)|JobSubmissionFailed: Failed to submit job: (?P<message_2>[^\\]+?)(?:\\|\s*$)",
        title: "Lyft's operator could not submit the job of deploy {hash|the new deploy}: {message}",
        explanation: "after the new cluster came up, Lyft's operator submits the job through the JobManager's REST API (`/jars/<jarName>/run`); the JobManager refused it: usually the job's main() failed in the JobManager (a missing class or jar, bad programArgs, a savepoint it cannot restore), which the message and the JobManager log show. The operator retries, then rolls back (DeployFailed)",
        fix: "fix what the message names (spec.jarName must be a jar in the image's /opt/flink/lib or flink-conf's web.upload.dir, spec.entryClass and spec.programArgs must fit it); a restore error means the savepoint does not fit the new job (spec.allowNonRestoredState, or start fresh). Then re-apply or bump `spec.restartNonce`",
        verify: "kubectl describe flinkapplication <name>",
        explains: &["SIG-LYFT-DEPLOY-FAILED"],
        supersedes: &[],
        examples: &[
            r#"  Warning  JobSubmissionFailed  1m  flinkK8sOperator  Failed to submit job to cluster for deploy 636775c9: SubmitJob call failed with status 500 Internal Server Error and message '{"errors":["org.apache.flink.client.program.ProgramInvocationException: The main method caused an error."]}'"#,
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/flink_state_machine.go"],
    },
    // The outcome of a failed deploy: rolled back, or stuck for manual intervention.
    Signature {
        id: "SIG-LYFT-DEPLOY-FAILED",
        category: Category::UpgradeFailed,
        severity: Severity::Warning,
        literals: &[
            "failed, rolling back",
            "Failed to rollback to original deployment, manual intervention needed",
            "Failed to create Flink Cluster: ",
            "New taskmanagers failed to become available",
            "Could not scale down cluster due to previous in-place scale up",
            "\"phase\":\"DeployFailed\"",
            "phase=DeployFailed",
        ],
        pattern: r#"Deployment (?P<hash>[0-9a-f]{8}) failed, rolling back|Failed to rollback to original deployment, manual intervention needed: (?P<reason>[^"\\]+)|Failed to create Flink Cluster: (?P<reason_2>[^"\\]+)|New taskmanagers failed to become available: (?P<reason_3>[^"\\]+)|Could not scale down cluster due to previous in-place scale up|"phase":"DeployFailed"|\bphase=DeployFailed\b"#,
        title: "a deploy of the FlinkApplication failed: it was rolled back or stopped in DeployFailed",
        explanation: "Lyft's operator gave up on the last change of this FlinkApplication (cluster not ready in time, job not submitted or not running, savepoint failed) and rolled back to the previous deploy or stopped in DeployFailed; the cause is an earlier event: SavepointFailed, JobSubmissionFailed, or pods that never became ready (their own findings)",
        fix: "find the first Warning event of the deploy (`kubectl describe flinkapplication <name>`) and the state of its pods (`kubectl get pods -l flink-app=<name>`), fix that cause, then re-apply the spec or bump `spec.restartNonce` to retry; a RollbackFailed needs the previous deploy repaired by hand",
        verify: "kubectl get flinkapplication -o custom-columns=NAME:.metadata.name,PHASE:.status.phase",
        explains: &[],
        supersedes: &[],
        examples: &[
            "  Warning  DeployFailed  2m  flinkK8sOperator  Deployment 636775c9 failed, rolling back",
            r#"{"json":{"app_name":"ocr-data-producer","ns":"develop","phase":"DeployFailed"},"level":"info","msg":"Handling state for application","ts":"2020-01-16T13:04:29Z"}"#,
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/flink_state_machine.go"],
    },
    // Recovering phase: no externalized checkpoint to restore from after a failed savepoint.
    Signature {
        id: "SIG-LYFT-RECOVERY-FAILED",
        category: Category::SavepointRestoreFailed,
        severity: Severity::Critical,
        literals: &[
            "No externalized checkpoint found",
            "Failed to recover with externalized checkpoint",
            "Failed to get externalized checkpoint config",
            "Could not recover. Manual intervention is needed to recover",
        ],
        pattern: r"No externalized checkpoint found|Failed to recover with externalized checkpoint(?:: (?P<reason>[^\\]+?)(?:\\|\s*$))?|Failed to get externalized checkpoint config|Could not recover\. Manual intervention is needed to recover",
        title: "Lyft's operator cannot restore the job from an externalized checkpoint",
        explanation: "the update's savepoint failed, so Lyft's operator tried to restart the job from its latest externalized checkpoint and found none it could use: externalized checkpoints are not enabled (RETAIN_ON_CANCELLATION), the JobManager could not be asked, or the checkpoint is too old (maxCheckpointRestoreAgeSeconds); the deploy fails and needs a hand",
        fix: "enable retained checkpoints in the job (`execution.checkpointing.externalized-checkpoint-retention: RETAIN_ON_CANCELLATION`; with DELETE_ON_CANCELLATION the _metadata is gone), then restore explicitly with `spec.savepointPath: <checkpoint dir>`, or set `spec.fallbackWithoutState: true` to start without state",
        verify: "kubectl describe flinkapplication <name>",
        explains: &["SIG-LYFT-DEPLOY-FAILED"],
        supersedes: &[],
        examples: &[
            "  Warning  RecoveryFailed  1m  flinkK8sOperator  No externalized checkpoint found. Make sure that externalized checkpoints are enabled in your job's checkpoint configuration.",
            "  Warning  RecoveryFailed  1m  flinkK8sOperator  Could not recover. Manual intervention is needed to recover.",
        ],
        unless: &[],
        sources: &["lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/flink_state_machine.go"],
    },
    // The JobManager answers 404 for the job id in the FlinkApplication's status: it lost the job.
    Signature {
        id: "SIG-LYFT-JOB-404",
        category: Category::JobmanagerRestartWithoutHa,
        severity: Severity::Critical,
        literals: &["call failed with status 404"],
        pattern: r"(?P<method>GetJobOverview|GetCheckpointCounts|GetLatestCheckpoint|GetJobConfig|CheckSavepointStatus|SavepointJob|CancelJobWithSavepoint|ForceCancelJob) call failed with status 404",
        title: "the JobManager does not know the job Lyft's operator tracks ({method} answered 404)",
        explanation: "the JobManager answers, but not for the job id recorded in the FlinkApplication's status: the JobManager restarted (pod deleted, evicted, OOM-killed) without Flink high availability and came back empty, so the job and its in-memory state are gone; redeploys then end in DeployFailed because the final savepoint cannot be taken",
        fix: "recover by deploying from the last retained checkpoint or savepoint (`spec.savepointPath`, then bump `spec.restartNonce`), or with `spec.savepointDisabled: true` if the state may be dropped; to survive the next restart enable Flink HA in flinkConfig (`high-availability: kubernetes` or zookeeper, `high-availability.storageDir`, and a `high-availability.cluster-id` per application)",
        verify: "kubectl get flinkapplication -o custom-columns=NAME:.metadata.name,PHASE:.status.phase,JOB:.status.jobStatus.jobID",
        explains: &["SIG-LYFT-DEPLOY-FAILED", "SIG-FLINK-REST-JOB-NOT-FOUND"],
        supersedes: &[],
        examples: &[
            r#"{"json":{"app_name":"esp-process-666","ns":"int-streaming","phase":"Running"},"level":"warning","msg":"Failed to reconcile resource int-streaming/esp-process-666: GetJobOverview call failed with status 404 Not Found and message ''","ts":"2022-07-04T06:08:35Z"}"#,
        ],
        unless: &[],
        sources: &[
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/client/error_handler.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flinkapplication/controller.go",
        ],
    },
    // Flink's REST handler, asked by an operator about a job id the JobManager does not have.
    Signature {
        id: "SIG-FLINK-REST-JOB-NOT-FOUND",
        category: Category::JobmanagerRestartWithoutHa,
        severity: Severity::Warning,
        literals: &["Exception occurred in REST handler: Job "],
        pattern: r"Exception occurred in REST handler: Job (?P<job_id>\S+) not found",
        title: "the JobManager is asked about job {job_id}, which it does not have",
        explanation: "a REST client keeps asking the JobManager for a job it does not know. When the client is an operator tracking that job (Lyft's flinkk8soperator, the FlinkCluster operator), the JobManager restarted without high availability and lost the job; a browser tab on a long-finished job produces the same line and means nothing",
        fix: "check whether the JobManager restarted (`kubectl get pods` RESTARTS, `kubectl logs --previous`); if it did, redeploy the job from its last savepoint or retained checkpoint and enable Flink HA (`high-availability: kubernetes`, `high-availability.storageDir`) so a restarted JobManager recovers it",
        verify: "kubectl get pods -l component=jobmanager",
        explains: &[],
        supersedes: &[],
        examples: &[
            "2022-07-04 06:03:35,466 ERROR org.apache.flink.runtime.rest.handler.job.JobDetailsHandler  [] - Exception occurred in REST handler: Job <HASH> not found",
            "	Exception occurred in REST handler: Job ed952687752d2a5b2c60d843d7e5605f8 not found ",
        ],
        unless: &[],
        sources: &[
            "observed:https://github.com/lyft/flinkk8soperator/issues/256 (JobManager log)",
            "observed:https://github.com/lightbend/cloudflow/issues/757 (JobManager log)",
        ],
    },
    // Lyft's REST client wraps connection errors as "<Method> call failed with status FAILED".
    // While the cluster starts (ClusterStarting) these are expected, so only later phases count.
    Signature {
        id: "SIG-LYFT-JM-UNREACHABLE",
        category: Category::JobmanagerUnreachable,
        severity: Severity::Warning,
        literals: &["call failed with status FAILED"],
        pattern: r#"(?:"phase":"|\bphase=)(?P<phase>Running|Savepointing|SubmittingJob|Cancelling|Deleting|DualRunning|RollingBackJob|Recovering|Rescaling)\b.*?(?P<method>[A-Z]\w+) call failed with status FAILED and message '[^']*': .*?(?P<error>connection refused|no such host|i/o timeout|context deadline exceeded|Client\.Timeout exceeded|no route to host|connection reset by peer)"#,
        title: "Lyft's operator cannot reach the JobManager REST API ({error}) in phase {phase}",
        explanation: "Lyft's operator talks to each FlinkApplication's JobManager through its Service on port 8081; in this phase the cluster should be up, yet the connection failed: the JobManager pod is down or restarting, or the Service/DNS name does not resolve from the operator's namespace (a NetworkPolicy, a wrong cluster domain)",
        fix: "check the JobManager pod of the application (`kubectl get pods -l flink-app=<name>,flink-deployment-type=jobmanager`) and its log; check the Service `<name>` has endpoints on 8081 and that the operator's namespace may reach it",
        verify: "kubectl get endpoints <app-name> -n <namespace>",
        explains: &[],
        supersedes: &[],
        examples: &[
            r#"{"json":{"app_name":"wordcount","ns":"flink","phase":"Running"},"level":"warning","msg":"Failed to reconcile resource flink/wordcount: GetJobOverview call failed with status FAILED and message '': Get http://wordcount.flink:8081/jobs/9a1c1d4ea4e3b5a8e7b0b3f6c1a2d3e4: dial tcp 10.100.12.7:8081: connect: connection refused","ts":"2021-08-24T20:49:13Z"}"#,
        ],
        unless: &[],
        sources: &[
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/client/error_handler.go",
            "lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/client/api.go",
        ],
    },
];

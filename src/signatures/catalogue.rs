//! The signatures themselves: verbatim strings from ../shared/docs/flink-facts.md (sources there).
//! Field names used in fix templates: sa, namespace, verb, resource, group, scheme, host, jar,
//! exit_code, reason, webhook, service.

use super::Signature;
use crate::finding::{Category, Severity};

pub static SIGNATURES: &[Signature] = &[
    // --- identity: the API server said 403 -------------------------------------------------
    Signature {
        id: "SIG-K8S-FORBIDDEN",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["is forbidden: User \"system:serviceaccount:"],
        pattern: r#"(?:(?P<resource_kind>[a-z0-9.-]+(?:/[a-z]+)?)(?: "(?P<object>[^"]*)")? )?is forbidden: User "system:serviceaccount:(?P<namespace>[^:"]+):(?P<sa>[^"]+)" cannot (?P<verb>[a-z]+) resource "(?P<resource>[^"]+)"(?: in API group "(?P<group>[^"]*)")?(?: in the namespace "(?P<object_namespace>[^"]+)")?"#,
        explanation: "the API server refused a request of Flink's Kubernetes client: its ServiceAccount lacks this verb on this resource",
        fix: "grant ServiceAccount {namespace}/{sa} `{verb}` on `{resource}` with a Role and RoleBinding",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    Signature {
        id: "SIG-FABRIC8-WEBSOCKET-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Received 403 on websocket"],
        pattern: r"Received 403 on websocket\. Failure executing: GET at: https?://[^/\s]+/apis?/(?:[^/\s]+/)*?namespaces/(?P<namespace>[^/\s]+)/(?P<resource>[a-z]+)",
        explanation: "Flink's watch on the Kubernetes API was refused (HTTP 403 on the websocket handshake): its ServiceAccount may not watch this resource",
        fix: "grant the JobManager's ServiceAccount `watch` (and get, list) on `{resource}` in namespace {namespace}",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    Signature {
        id: "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Forbidden!Configured service account doesn't have access"],
        pattern: r"Forbidden!Configured service account doesn't have access",
        explanation: "Flink's Kubernetes client (fabric8 up to 6.7) got 403: the configured ServiceAccount lacks a permission",
        fix: "grant the ServiceAccount Flink runs as the permissions Flink needs (pods, configmaps, deployments)",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    Signature {
        id: "SIG-FABRIC8-EXEC-403",
        category: Category::RbacForbidden,
        severity: Severity::Critical,
        literals: &["Exec Failure: HTTP 403"],
        pattern: r"Exec Failure: HTTP 403",
        explanation: "Flink's watch on the Kubernetes API was refused with HTTP 403 (fabric8 up to 6.6)",
        fix: "grant the JobManager's ServiceAccount `watch` on pods in its namespace",
        explains: &["SIG-RETRY-EXHAUSTED", "SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    // --- runtime: how Flink dies ---------------------------------------------------------------
    Signature {
        id: "SIG-RETRY-EXHAUSTED",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Number of retries has been exhausted"],
        pattern: r"RetryException: Could not complete the operation\. Number of retries has been exhausted",
        explanation: "Flink gave up retrying an operation; the cause is the error logged before it",
        fix: "fix the error that was retried (look above this line)",
        explains: &["SIG-RM-FATAL", "SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    Signature {
        id: "SIG-RM-FATAL",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Fatal error occurred in ResourceManager"],
        pattern: r"Fatal error occurred in ResourceManager",
        explanation: "the ResourceManager hit a fatal error and stops the JobManager",
        fix: "fix the error the ResourceManager reported (the lines before this one)",
        explains: &["SIG-ENTRYPOINT-FATAL", "SIG-FATAL-THREAD"],
    },
    Signature {
        id: "SIG-ENTRYPOINT-FATAL",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["Fatal error occurred in the cluster entrypoint", "Could not start cluster entrypoint"],
        pattern: r"Fatal error occurred in the cluster entrypoint|Could not start cluster entrypoint",
        explanation: "the JobManager's cluster entrypoint failed and the process exits (code 1 or 2)",
        fix: "fix the cause printed with this error",
        explains: &[],
    },
    Signature {
        id: "SIG-FATAL-THREAD",
        category: Category::FlinkFatalExit,
        severity: Severity::Warning,
        literals: &["produced an uncaught exception. Stopping the process"],
        pattern: r"FATAL: Thread '(?P<thread>[^']*)' produced an uncaught exception\. Stopping the process",
        explanation: "Flink's fatal-error handler stops the JVM with exit code 239 (-17)",
        fix: "fix the exception printed with this line",
        explains: &[],
    },
];

//! The untrusted boundary: a bundle is text someone else wrote, and an object a live API server
//! would never have stored has no place in a diagnosis. An object whose `metadata.name`,
//! `metadata.namespace` or labels the API server would refuse is left out, with the reason, in the
//! note of what was left out (names are then printed into commands: quoting makes any name safe to
//! print, and this keeps a bundle from naming what no cluster can hold).
//!
//! What the API server validates (kubernetes/kubernetes@v1.36.3):
//! - namespaces: a DNS-1123 label (staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go,
//!   `ValidateNamespaceName`);
//! - names of most kinds, custom resources included: a DNS-1123 subdomain
//!   (`NameIsDNSSubdomain`; Services and a few others are stricter, a subset of it);
//! - RBAC kinds: a path segment only (pkg/apis/rbac/validation/validation.go,
//!   `ValidateRBACName` = `path.IsValidPathSegmentName`: not `.` or `..`, no `/` or `%`), so
//!   `system:controller:x` is a valid Role name;
//! - Events: held to a path segment too (the Flink operator's events are named
//!   `JobManagerDeployment.<n>`, upper case, and API servers store them);
//! - label keys and values: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go
//!   (`IsQualifiedName`, `IsValidLabelValue`).

use serde_json::Value;

/// Why the API server would refuse this object's metadata, if it would.
pub fn invalid_metadata(kind: &str, v: &Value) -> Option<String> {
    let meta = v.get("metadata")?;
    if let Some(name) = meta.get("name").and_then(Value::as_str) {
        let ok = match kind {
            "Namespace" => is_label(name),
            "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding" | "Event" => {
                is_path_segment(name)
            }
            _ => is_subdomain(name),
        };
        if !ok {
            return Some("name is not a valid Kubernetes name".into());
        }
    }
    if let Some(ns) = meta.get("namespace").and_then(Value::as_str) {
        if !is_label(ns) {
            return Some("namespace is not a valid Kubernetes namespace name".into());
        }
    }
    // Container names of a pod, or of a workload's pod template: DNS-1123 labels
    // (pkg/apis/core/validation/validation.go, `validateContainerCommon`).
    for spec in [v.pointer("/spec"), v.pointer("/spec/template/spec")]
        .into_iter()
        .flatten()
    {
        for list in ["containers", "initContainers", "ephemeralContainers"] {
            for c in spec
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if c.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| !is_label(n))
                {
                    return Some("container name is not a valid Kubernetes name".into());
                }
            }
        }
    }
    if let Some(labels) = meta.get("labels").and_then(Value::as_object) {
        for (k, v) in labels {
            if !is_qualified_name(k) {
                return Some("label key is not a valid Kubernetes label key".into());
            }
            if !v.as_str().is_some_and(is_label_value) {
                return Some("label value is not a valid Kubernetes label value".into());
            }
        }
    }
    None
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 characters.
pub fn is_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// Labels joined by dots, at most 253 characters.
pub fn is_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_label)
}

fn is_path_segment(s: &str) -> bool {
    !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '%'])
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, at most 63 characters.
fn is_label_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// A label key: `[prefix/]name`, the prefix a DNS-1123 subdomain.
fn is_qualified_name(s: &str) -> bool {
    match s.split_once('/') {
        Some((prefix, name)) => !prefix.is_empty() && is_subdomain(prefix) && is_label_name(name),
        None => is_label_name(s),
    }
}

/// Empty, or a label name.
fn is_label_value(s: &str) -> bool {
    s.is_empty() || is_label_name(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_api_servers_rules() {
        let obj = |kind: &str, name: &str, ns: &str| {
            invalid_metadata(kind, &json!({"metadata": {"name": name, "namespace": ns}}))
        };
        assert_eq!(obj("Pod", "orders-1.a", "prod"), None);
        assert!(obj("Pod", "x$(touch pwned)", "prod").is_some());
        assert!(obj("Pod", "a;id", "prod").is_some());
        assert!(obj("Pod", "ok", "a.b").is_some(), "a namespace is a label");
        assert!(obj("FlinkDeployment", "Orders", "prod").is_some());
        assert_eq!(obj("Role", "system:controller:x", "prod"), None);
        assert_eq!(obj("ClusterRoleBinding", "system:x y", "prod"), None);
        assert!(obj("Role", "a/b", "prod").is_some());
        assert!(obj("Role", "..", "prod").is_some());
        assert!(obj("Namespace", "a.b", "").is_some());
        let pod = |c: &str| {
            invalid_metadata(
                "Pod",
                &json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": c}]}}),
            )
        };
        assert_eq!(pod("flink-main-container"), None);
        assert!(pod("c;id").is_some());
        let labels =
            |l: Value| invalid_metadata("Pod", &json!({"metadata": {"name": "p", "labels": l}}));
        assert_eq!(
            labels(json!({"app.kubernetes.io/name": "x_1.a", "empty": ""})),
            None
        );
        assert!(labels(json!({"app": "a;id"})).is_some());
        assert!(labels(json!({"a b": "x"})).is_some());
        assert!(labels(json!({"app": 1})).is_some());
    }
}

//! Objects written in an API version the API server no longer serves, read as their v1
//! successors. Release manifests and bundles of older clusters carry them: Lyft's flinkk8soperator
//! binds its ClusterRole with `rbac.authorization.k8s.io/v1beta1` and defines its CRD with
//! `apiextensions.k8s.io/v1beta1` up to v0.5.0 (lyft/flinkk8soperator@v0.5.0:deploy/
//! role-binding.yaml, deploy/crd.yaml); the GCP FlinkCluster operator's webhooks are
//! `admissionregistration.k8s.io/v1beta1` (GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:
//! config/webhook/manifests.yaml). A bundle that left them out would miss the operator's RBAC
//! and webhook wiring, and claim absences that are not.
//!
//! The conversions are the API server's own, for the fields the diagnosis reads
//! (kubernetes/kubernetes@v1.22.0:pkg/apis/admissionregistration/v1beta1/defaults.go and
//! staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1/conversion.go): RBAC
//! v1beta1 has v1's shape; a v1beta1 webhook's absent `failurePolicy`, `matchPolicy`,
//! `timeoutSeconds`, `sideEffects` and `admissionReviewVersions` take v1beta1's defaults (`Ignore`,
//! `Exact`, 30, `Unknown`, `[v1beta1]`), written out since v1's differ; a v1beta1 CRD's top-level
//! `version`, `validation`, `subresources` and `additionalPrinterColumns` move into each version.

use serde_json::{json, Value};

/// Rewrites `v` as its v1 successor when it is one of the deprecated versions above.
pub fn to_v1(v: &mut Value) {
    let api = v.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    match api {
        "rbac.authorization.k8s.io/v1beta1" => {
            v["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
        }
        "admissionregistration.k8s.io/v1beta1" => {
            v["apiVersion"] = json!("admissionregistration.k8s.io/v1");
            for hook in v
                .get_mut("webhooks")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                for (k, d) in [
                    ("failurePolicy", json!("Ignore")),
                    ("matchPolicy", json!("Exact")),
                    ("timeoutSeconds", json!(30)),
                    ("sideEffects", json!("Unknown")),
                    ("admissionReviewVersions", json!(["v1beta1"])),
                ] {
                    if hook.get(k).is_none_or(Value::is_null) {
                        hook[k] = d;
                    }
                }
            }
        }
        "apiextensions.k8s.io/v1beta1" if v["kind"] == "CustomResourceDefinition" => crd(v),
        _ => {}
    }
}

fn crd(v: &mut Value) {
    v["apiVersion"] = json!("apiextensions.k8s.io/v1");
    let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let version = spec.remove("version");
    let validation = spec.remove("validation");
    let subresources = spec.remove("subresources");
    let columns = spec.remove("additionalPrinterColumns");
    let mut versions = match spec.remove("versions") {
        Some(Value::Array(vs)) if !vs.is_empty() => vs,
        _ => vec![json!({"name": version.unwrap_or(Value::Null), "served": true, "storage": true})],
    };
    for ver in &mut versions {
        if ver.get("schema").is_none() {
            if let Some(s) = &validation {
                ver["schema"] = s.clone();
            }
        }
        if ver.get("subresources").is_none() {
            if let Some(s) = &subresources {
                ver["subresources"] = s.clone();
            }
        }
        if ver.get("additionalPrinterColumns").is_none() {
            if let Some(Value::Array(cols)) = &columns {
                ver["additionalPrinterColumns"] = Value::Array(
                    cols.iter()
                        .map(|c| {
                            let mut c = c.clone();
                            if let Some(p) = c.as_object_mut().and_then(|o| o.remove("JSONPath")) {
                                c["jsonPath"] = p;
                            }
                            c
                        })
                        .collect(),
                );
            }
        }
    }
    spec.insert("versions".into(), Value::Array(versions));
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration;
    use k8s_openapi::api::rbac::v1::ClusterRoleBinding;
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

    #[test]
    fn rbac_and_webhooks_decode_as_v1_with_v1beta1_defaults() {
        let mut b = json!({"apiVersion": "rbac.authorization.k8s.io/v1beta1", "kind": "ClusterRoleBinding",
            "metadata": {"name": "flinkoperator"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "flinkoperator"},
            "subjects": [{"kind": "ServiceAccount", "name": "flinkoperator", "namespace": "flink-operator"}]});
        to_v1(&mut b);
        let b: ClusterRoleBinding = serde_json::from_value(b).unwrap();
        assert_eq!(b.subjects.unwrap()[0].name, "flinkoperator");

        let mut w = json!({"apiVersion": "admissionregistration.k8s.io/v1beta1",
            "kind": "ValidatingWebhookConfiguration", "metadata": {"name": "v"},
            "webhooks": [{"name": "vflinkcluster.flinkoperator.k8s.io",
                "clientConfig": {"service": {"name": "s", "namespace": "n", "path": "/validate"}}}]});
        to_v1(&mut w);
        let w: ValidatingWebhookConfiguration = serde_json::from_value(w).unwrap();
        let hook = &w.webhooks.unwrap()[0];
        assert_eq!(hook.failure_policy.as_deref(), Some("Ignore"));
        assert_eq!(hook.admission_review_versions, vec!["v1beta1".to_string()]);
    }

    #[test]
    fn a_v1beta1_crd_keeps_its_versions_and_schema() {
        let mut c = json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "flinkapplications.flink.k8s.io"},
            "spec": {"group": "flink.k8s.io", "scope": "Namespaced", "version": "v1beta1",
                "names": {"kind": "FlinkApplication", "plural": "flinkapplications"},
                "versions": [{"name": "v1beta1", "served": true, "storage": true},
                             {"name": "v1alpha1", "served": true, "storage": false}],
                "validation": {"openAPIV3Schema": {"type": "object"}},
                "subresources": {"status": {}},
                "additionalPrinterColumns": [{"name": "Phase", "type": "string", "JSONPath": ".status.phase"}]}});
        to_v1(&mut c);
        let c: CustomResourceDefinition = serde_json::from_value(c).unwrap();
        assert_eq!(c.spec.versions.len(), 2);
        for v in &c.spec.versions {
            assert!(v.schema.is_some() && v.subresources.is_some(), "{v:?}");
            assert_eq!(
                v.additional_printer_columns.as_ref().unwrap()[0].json_path,
                ".status.phase"
            );
        }
    }

    #[test]
    fn served_versions_are_left_alone() {
        let mut b =
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding"});
        let before = b.clone();
        to_v1(&mut b);
        assert_eq!(b, before);
    }
}

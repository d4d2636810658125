//! Validation against the real CRD schemas, embedded at build time (`crds/`, see its SOURCE.md):
//! the openAPIV3Schema of the operator's FlinkDeployment and FlinkSessionJob CRDs, and of the
//! GCP/Spotify operator's FlinkCluster CRD.
//!
//! Covers the subset of OpenAPI the CRDs use, as the API server applies it to a structural
//! schema: `type`, `properties`, `items`, `enum`, `required`, `additionalProperties`,
//! `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string` (and the `anyOf` of
//! integer and string that comes with it). Nulls are skipped: the API server drops null fields
//! of a non-nullable schema before validating.

use super::locate::{Path, Seg};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::sync::OnceLock;

const FLINK_DEPLOYMENT_CRD: &str = include_str!("crds/flinkdeployments.flink.apache.org-v1.yml");
const FLINK_SESSION_JOB_CRD: &str = include_str!("crds/flinksessionjobs.flink.apache.org-v1.yml");
const FLINK_CLUSTER_CRD: &str = include_str!("crds/flinkclusters.flinkoperator.k8s.io-v1.yml");

/// The operator release the embedded CRDs come from (crds/SOURCE.md).
pub const OPERATOR_RELEASE: &str = "1.15.0";
/// The GCP/Spotify operator release the embedded FlinkCluster CRD comes from (crds/SOURCE.md).
pub const FLINKCLUSTER_OPERATOR_RELEASE: &str = "spotify/flink-on-k8s-operator v0.6.0";

/// Which operator release the embedded CRD of a kind comes from, for messages.
pub fn release_of(kind: &str) -> &'static str {
    match kind {
        "FlinkCluster" => FLINKCLUSTER_OPERATOR_RELEASE,
        _ => OPERATOR_RELEASE,
    }
}

/// The openAPIV3Schema of the embedded CRD for a kind, parsed on first use.
pub fn schema_of(kind: &str) -> Option<&'static Value> {
    static DEPLOYMENT: OnceLock<Option<Value>> = OnceLock::new();
    static SESSION_JOB: OnceLock<Option<Value>> = OnceLock::new();
    static CLUSTER: OnceLock<Option<Value>> = OnceLock::new();
    let (cell, text) = match kind {
        "FlinkDeployment" => (&DEPLOYMENT, FLINK_DEPLOYMENT_CRD),
        "FlinkSessionJob" => (&SESSION_JOB, FLINK_SESSION_JOB_CRD),
        "FlinkCluster" => (&CLUSTER, FLINK_CLUSTER_CRD),
        _ => return None,
    };
    cell.get_or_init(|| openapi_schema(text)).as_ref()
}

fn openapi_schema(crd: &str) -> Option<Value> {
    let de = serde_yaml::Deserializer::from_str(crd);
    let v = Value::deserialize(de).ok()?;
    let versions = v.pointer("/spec/versions")?.as_array()?;
    let version = versions
        .iter()
        .find(|ver| ver.get("name").and_then(Value::as_str) == Some("v1beta1"))
        .or_else(|| versions.first())?;
    version.pointer("/schema/openAPIV3Schema").cloned()
}

/// The schema node at a path of field names (`spec.flinkVersion`).
pub fn node_at<'a>(schema: &'a Value, path: &Path) -> Option<&'a Value> {
    let mut cur = schema;
    for seg in &path.0 {
        cur = match seg {
            Seg::Key(k) => cur.get("properties")?.get(k)?,
            Seg::Index(_) => cur.get("items")?,
        };
    }
    Some(cur)
}

/// The values an enum field accepts, in the CRD's order.
pub fn enum_values(kind: &str, path: &str) -> Vec<String> {
    schema_of(kind)
        .and_then(|s| node_at(s, &Path::parse(path)))
        .and_then(|n| n.get("enum"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A field the schema does not have, where unknown fields are not kept.
    UnknownField {
        known: Vec<String>,
    },
    WrongType {
        expected: String,
        got: &'static str,
    },
    NotInEnum {
        allowed: Vec<String>,
    },
    Missing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Where, from the object's root (`spec.jobManager.resource.memory`).
    pub path: Path,
    pub problem: Problem,
    /// The offending value (absent for a missing field).
    pub value: Option<Value>,
}

/// Validates a whole object. `apiVersion`, `kind` and `metadata` are the API server's own
/// (the CRD schema does not list them) and `status` is written by the operator, so both are
/// left alone; everything else is checked against the schema.
pub fn validate_object(schema: &Value, object: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    let Some(map) = object.as_object() else {
        return out;
    };
    let props = schema.get("properties").and_then(Value::as_object);
    for (k, v) in map {
        if matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
            continue;
        }
        let path = Path::root().key(k);
        match props.and_then(|p| p.get(k)) {
            Some(s) => validate(s, v, &path, &mut out),
            None => out.push(Violation {
                path,
                problem: Problem::UnknownField {
                    known: known_fields(props),
                },
                value: Some(v.clone()),
            }),
        }
    }
    out
}

pub fn validate(schema: &Value, value: &Value, path: &Path, out: &mut Vec<Violation>) {
    if value.is_null() {
        return;
    }
    let preserve = flag(schema, "x-kubernetes-preserve-unknown-fields");
    if flag(schema, "x-kubernetes-int-or-string") {
        if !(is_integer(value) || value.is_string()) {
            out.push(wrong(path, "integer or string", value));
        }
        return;
    }
    if let Some(alternatives) = schema.get("anyOf").and_then(Value::as_array) {
        let fits = alternatives.iter().any(|alt| {
            let mut probe = Vec::new();
            validate(alt, value, path, &mut probe);
            probe.is_empty()
        });
        if !fits {
            let types: Vec<&str> = alternatives
                .iter()
                .filter_map(|a| a.get("type")?.as_str())
                .collect();
            out.push(wrong(path, &types.join(" or "), value));
            return;
        }
    }
    if let Some(t) = schema.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => is_integer(value),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            _ => true,
        };
        if !ok {
            out.push(wrong(path, t, value));
            return;
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            out.push(Violation {
                path: path.clone(),
                problem: Problem::NotInEnum {
                    allowed: allowed
                        .iter()
                        .map(|a| a.as_str().map_or_else(|| a.to_string(), str::to_string))
                        .collect(),
                },
                value: Some(value.clone()),
            });
        }
    }
    match value {
        Value::Object(map) => object(schema, map, preserve, path, out),
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    validate(item_schema, item, &path.index(i), out);
                }
            }
        }
        _ => {}
    }
}

fn object(
    schema: &Value,
    map: &Map<String, Value>,
    preserve: bool,
    path: &Path,
    out: &mut Vec<Violation>,
) {
    let props = schema.get("properties").and_then(Value::as_object);
    let additional = schema.get("additionalProperties");
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for r in required.iter().filter_map(Value::as_str) {
            if map.get(r).is_none_or(Value::is_null) {
                out.push(Violation {
                    path: path.key(r),
                    problem: Problem::Missing,
                    value: None,
                });
            }
        }
    }
    for (k, v) in map {
        let child = path.key(k);
        if let Some(s) = props.and_then(|p| p.get(k)) {
            validate(s, v, &child, out);
            continue;
        }
        match additional {
            Some(Value::Bool(true)) => {}
            Some(s @ Value::Object(_)) => validate(s, v, &child, out),
            _ if preserve => {}
            // A schema that says nothing about an object's fields (`type: object` alone, like
            // `managedFields[].fieldsV1`) keeps nothing either; only flag where fields are listed.
            _ if props.is_none() && additional.is_none() => {}
            _ => {
                if !v.is_null() {
                    out.push(Violation {
                        path: child,
                        problem: Problem::UnknownField {
                            known: known_fields(props),
                        },
                        value: Some(v.clone()),
                    });
                }
            }
        }
    }
}

fn known_fields(props: Option<&Map<String, Value>>) -> Vec<String> {
    props
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

fn flag(schema: &Value, name: &str) -> bool {
    schema.get(name).and_then(Value::as_bool) == Some(true)
}

/// Kubernetes accepts 2.0 as an integer (JSON has one number type).
fn is_integer(v: &Value) -> bool {
    v.is_i64()
        || v.is_u64()
        || v.as_f64()
            .is_some_and(|f| f.fract() == 0.0 && f.is_finite())
}

fn wrong(path: &Path, expected: &str, value: &Value) -> Violation {
    Violation {
        path: path.clone(),
        problem: Problem::WrongType {
            expected: expected.to_string(),
            got: type_name(value),
        },
        value: Some(value.clone()),
    }
}

pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() && !is_integer(v) => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The closest known field name, for "did you mean": same letters ignoring case, or at most two
/// edits away.
pub fn suggest<'a>(unknown: &str, known: &'a [String]) -> Option<&'a str> {
    crate::flink::spelling::nearest(unknown, known.iter().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(kind: &str, v: Value) -> Vec<Violation> {
        validate_object(schema_of(kind).expect("embedded CRD parses"), &v)
    }

    #[test]
    fn the_embedded_crds_parse_and_carry_the_enums() {
        let versions = enum_values("FlinkDeployment", "spec.flinkVersion");
        assert!(
            versions.contains(&"v1_20".to_string()) && versions.contains(&"v2_2".to_string()),
            "{versions:?}"
        );
        assert_eq!(
            enum_values("FlinkSessionJob", "spec.job.upgradeMode"),
            ["last-state", "savepoint", "stateless"]
        );
        assert_eq!(
            enum_values("FlinkDeployment", "spec.mode"),
            ["native", "standalone"]
        );
    }

    #[test]
    fn a_healthy_deployment_validates() {
        let v = json!({
            "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
            "metadata": {"name": "basic"},
            "spec": {
                "image": "flink:1.20", "flinkVersion": "v1_20", "serviceAccount": "flink",
                "flinkConfiguration": {"taskmanager.numberOfTaskSlots": 2, "a": {"b": "c"}},
                "jobManager": {"resource": {"memory": "2048m", "cpu": 1}, "replicas": 1},
                "taskManager": {"resource": {"memory": "2048m", "cpu": 0.5},
                    "podTemplate": {"spec": {"containers": [{"name": "flink-main-container",
                        "resources": {"limits": {"memory": "3Gi", "cpu": 2}},
                        "ports": [{"containerPort": 9249, "name": "metrics"}],
                        "livenessProbe": {"httpGet": {"port": "metrics", "path": "/"}}}]}}},
                "job": {"jarURI": "local:///opt/flink/x.jar", "parallelism": 2, "upgradeMode": "stateless", "state": "running"}
            },
            "status": {"anything": true}
        });
        assert_eq!(check("FlinkDeployment", v), []);
    }

    #[test]
    fn unknown_fields_wrong_types_and_enums_are_reported_with_their_path() {
        let v = json!({"spec": {
            "flinkVersion": "1.20",
            "serviceAcount": "flink",
            "jobManager": {"resource": {"memory": 2048}, "resources": {}},
            "taskManager": {"podTemplate": {"spec": {"containers": [{"name": "x", "imagePullPolcy": "Always", "ports": [{"containerPort": "8081"}]}]}}},
            "job": {"upgradeMode": "last_state", "parallelism": "2"}
        }});
        let got: Vec<(String, Problem)> = check("FlinkDeployment", v)
            .into_iter()
            .map(|x| (x.path.to_string(), x.problem))
            .collect();
        let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
        assert!(paths.contains(&"spec.flinkVersion"), "{got:?}");
        assert!(paths.contains(&"spec.serviceAcount"), "{got:?}");
        assert!(paths.contains(&"spec.jobManager.resources"), "{got:?}");
        assert!(
            paths.contains(&"spec.taskManager.podTemplate.spec.containers[0].imagePullPolcy"),
            "{got:?}"
        );
        assert!(
            paths.contains(
                &"spec.taskManager.podTemplate.spec.containers[0].ports[0].containerPort"
            ),
            "{got:?}"
        );
        assert!(paths.contains(&"spec.job.upgradeMode"), "{got:?}");
        let memory = got
            .iter()
            .find(|(p, _)| p == "spec.jobManager.resource.memory")
            .expect("memory type");
        assert_eq!(
            memory.1,
            Problem::WrongType {
                expected: "string".into(),
                got: "integer"
            }
        );
        let parallelism = got
            .iter()
            .find(|(p, _)| p == "spec.job.parallelism")
            .expect("parallelism type");
        assert_eq!(
            parallelism.1,
            Problem::WrongType {
                expected: "integer".into(),
                got: "string"
            }
        );
    }

    #[test]
    fn session_jobs_have_their_own_schema() {
        let v = json!({"spec": {"deploymentName": "s", "job": {"jarURI": "https://x/y.jar", "upgradeMode": "stateless"}, "flinkConfiguration": {"a": 1}}});
        assert_eq!(check("FlinkSessionJob", v), []);
        let v = json!({"spec": {"deploymentName": "s", "serviceAccount": "flink"}});
        assert_eq!(
            check("FlinkSessionJob", v)[0].path.to_string(),
            "spec.serviceAccount"
        );
    }

    #[test]
    fn required_fields_and_additional_properties_false() {
        let schema = json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}, "additionalProperties": false});
        let mut out = Vec::new();
        validate(&schema, &json!({"b": 1}), &Path::root(), &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].problem, Problem::Missing);
    }

    #[test]
    fn suggestions() {
        let known = vec![
            "serviceAccount".to_string(),
            "image".to_string(),
            "resource".to_string(),
        ];
        assert_eq!(suggest("serviceAcount", &known), Some("serviceAccount"));
        assert_eq!(suggest("ServiceAccount", &known), Some("serviceAccount"));
        assert_eq!(suggest("resources", &known), Some("resource"));
        assert_eq!(suggest("zzz", &known), None);
    }
}

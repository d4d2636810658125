//! The operator's `status.error`: a `FlinkResourceException` serialised as JSON (`type`,
//! `message`, `additionalMetadata.reason` / `httpResponseCode`, `throwableList[]` of the causes,
//! optionally `stackTrace`), or, from older releases and some paths, `e.toString()`.
//!
//! Source: apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator-api/src/main/
//! java/org/apache/flink/kubernetes/operator/api/status/... and flink-kubernetes-operator/src/main/
//! java/org/apache/flink/kubernetes/operator/exception/FlinkResourceException.java,
//! .../utils/FlinkResourceExceptionUtils.java.

use serde_json::Value;

/// One cause in `throwableList`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Throwable {
    pub type_: Option<String>,
    pub message: Option<String>,
}

/// `status.error` decoded.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct OperatorError {
    /// Whether it was the JSON form (else `e.toString()` or a plain message).
    pub json: bool,
    pub type_: Option<String>,
    pub message: Option<String>,
    pub reason: Option<String>,
    pub http_code: Option<String>,
    /// The causes, outermost first: the last is the root.
    pub throwables: Vec<Throwable>,
    pub stack_trace: Option<String>,
}

impl OperatorError {
    /// The value of `status.error` as the API returns it.
    pub fn parse(raw: &str) -> OperatorError {
        let raw = raw.trim();
        if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(raw) {
            return Self::from_json(&v);
        }
        // `e.toString()`: `fully.qualified.Type: message`, or just a message (`Job Not Found`).
        match raw.split_once(": ") {
            Some((t, m)) if !t.contains(' ') && t.contains('.') => OperatorError {
                type_: Some(t.to_string()),
                message: Some(m.to_string()),
                ..Default::default()
            },
            _ => OperatorError {
                message: Some(raw.to_string()),
                ..Default::default()
            },
        }
    }

    /// The JSON form found inside one line of text: raw (`error: {"type":...}`), YAML
    /// single-quoted (`kubectl get -o yaml`, where `''` stands for `'`) or JSON-escaped inside a
    /// JSON string (`kubectl get -o json`).
    pub fn find_in_line(line: &str) -> Option<OperatorError> {
        let value = if let Some(i) = line.find("{\"type\"") {
            if line[..i].ends_with('\'') {
                first_json(&line[i..].replace("''", "'"))
            } else {
                first_json(&line[i..])
            }
        } else if let Some(i) = line.find("\"{\\\"type\\\"") {
            let inner: String = serde_json::Deserializer::from_str(&line[i..])
                .into_iter::<String>()
                .next()?
                .ok()?;
            first_json(&inner)
        } else {
            None
        }?;
        Some(Self::from_json(&value))
    }

    fn from_json(v: &Value) -> OperatorError {
        let s = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .map(str::to_string)
                .filter(|s| !s.is_empty())
        };
        let meta = v.get("additionalMetadata");
        OperatorError {
            json: true,
            type_: s(v.get("type")),
            message: s(v.get("message")),
            reason: s(meta.and_then(|m| m.get("reason"))),
            http_code: meta
                .and_then(|m| m.get("httpResponseCode"))
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                }),
            throwables: v
                .get("throwableList")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .map(|t| Throwable {
                            type_: s(t.get("type")),
                            message: s(t.get("message")),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            stack_trace: s(v.get("stackTrace")),
        }
    }

    /// The deepest cause for a title: `ShortType: message` of the last throwable, else the message.
    pub fn root_summary(&self) -> Option<String> {
        let Some(t) = self.throwables.iter().rev().find(|t| t.message.is_some()) else {
            return self.message.clone();
        };
        let m = t.message.clone().unwrap_or_default();
        Some(match t.type_.as_deref() {
            Some(ty) if !m.starts_with(ty) => {
                format!("{}: {m}", ty.rsplit('.').next().unwrap_or(ty))
            }
            _ => m,
        })
    }

    /// The deepest message: the last throwable with one, else the top message.
    pub fn root_message(&self) -> Option<&str> {
        self.throwables
            .iter()
            .rev()
            .find_map(|t| t.message.as_deref())
            .or(self.message.as_deref())
    }

    /// Every message, outermost first.
    pub fn messages(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.message.iter().map(String::as_str).collect();
        out.extend(self.throwables.iter().filter_map(|t| t.message.as_deref()));
        out
    }

    /// What the error says as lines a log reader would have printed: `Type: message` for the
    /// exception and each cause, `reason: <Kubernetes reason>`, then the stack trace.
    pub fn texts(&self) -> Vec<String> {
        let line = |ty: Option<&str>, msg: Option<&str>| {
            msg.map(|m| match ty {
                Some(t) => format!("{t}: {m}"),
                None => m.to_string(),
            })
        };
        let mut out: Vec<String> = line(self.type_.as_deref(), self.message.as_deref())
            .into_iter()
            .collect();
        out.extend(
            self.throwables
                .iter()
                .filter_map(|t| line(t.type_.as_deref(), t.message.as_deref())),
        );
        if let Some(r) = &self.reason {
            out.push(format!("reason: {r}"));
        }
        out.extend(self.stack_trace.clone());
        out
    }

    /// The operator's validator refused the spec.
    pub fn is_validation(&self) -> bool {
        self.type_
            .as_deref()
            .is_some_and(|t| t.ends_with("ValidationException"))
    }
}

fn first_json(s: &str) -> Option<Value> {
    serde_json::Deserializer::from_str(s)
        .into_iter::<Value>()
        .next()?
        .ok()
        .filter(Value::is_object)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.client.deployment.ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".","additionalMetadata":{"reason":"x"},"throwableList":[{"type":"org.apache.flink.client.deployment.ClusterDeploymentException","message":"Could not create Kubernetes cluster \"orders\"."}]}"#;

    #[test]
    fn the_three_ways_it_is_pasted_decode_alike() {
        let raw = OperatorError::parse(JSON);
        let yaml = OperatorError::find_in_line(&format!("  error: '{}'", JSON.replace('\'', "''")));
        let escaped = serde_json::to_string(JSON).unwrap();
        let json = OperatorError::find_in_line(&format!("\"error\": {escaped},"));
        assert_eq!(Some(&raw), yaml.as_ref());
        assert_eq!(Some(&raw), json.as_ref());
        assert_eq!(
            raw.root_summary().as_deref(),
            Some("ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".")
        );
        assert_eq!(raw.texts().last().map(String::as_str), Some("reason: x"));
    }

    #[test]
    fn to_string_form_and_plain_messages() {
        let e = OperatorError::parse("org.example.Boom: it broke");
        assert_eq!(e.type_.as_deref(), Some("org.example.Boom"));
        assert!(!e.json);
        assert_eq!(
            OperatorError::parse("Job Not Found").message.as_deref(),
            Some("Job Not Found")
        );
    }
}

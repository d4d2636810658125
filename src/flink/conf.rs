//! Flink's configuration as the processes read it: flat `key -> value`.

use std::collections::BTreeMap;

/// A Flink configuration as flat `key -> value`: `spec.flinkConfiguration` (a flat map or nested
/// YAML), or Flink 2's nested `config.yaml`. Nested keys are joined with dots, lists with `;`
/// (Flink's list syntax), other scalars printed as Flink prints them.
pub fn flatten_conf(value: &serde_json::Value) -> BTreeMap<String, String> {
    fn scalar(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(items) => {
                items.iter().map(scalar).collect::<Vec<_>>().join(";")
            }
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        }
    }
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, String>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, v, out);
                }
            }
            serde_json::Value::Null => {}
            other => {
                out.insert(prefix.to_string(), scalar(other));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk("", value, &mut out);
    out
}

/// The text of `flink-conf.yaml` (legacy, one `key: value` a line) or `config.yaml` (Flink 2,
/// standard YAML, possibly nested), as flat `key -> value`.
pub fn parse_flink_conf(text: &str) -> BTreeMap<String, String> {
    if let Ok(v) = serde_yaml::from_str::<serde_json::Value>(text) {
        let flat = flatten_conf(&v);
        if !flat.is_empty() {
            return flat;
        }
    }
    // The legacy parser is line based: `key: value`, `#` comments; values are not YAML.
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            let (k, v) = line.split_once(": ").or_else(|| line.split_once(':'))?;
            let k = k.trim();
            (!k.is_empty()).then(|| (k.to_string(), v.trim().to_string()))
        })
        .collect()
}

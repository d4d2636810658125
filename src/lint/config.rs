//! Flink options as a manifest writes them: `spec.flinkConfiguration` (the operator; the 1.15 CRD
//! keeps it as free-form YAML, so values may be numbers, booleans or nested maps) or Lyft's
//! `spec.flinkConfig`. Read flat, as Flink reads them: `high-availability: {type: kubernetes}` is
//! `high-availability.type: kubernetes`.

use serde_json::Value;
use std::collections::BTreeMap;

/// Flattened options, values as the strings Flink would parse.
#[derive(Debug, Clone, Default)]
pub struct FlinkConfig {
    pub entries: BTreeMap<String, String>,
}

impl FlinkConfig {
    pub fn from_value(v: Option<&Value>) -> Self {
        let entries = match v {
            Some(v @ Value::Object(_)) => crate::flink::conf::flatten_conf(v),
            _ => BTreeMap::new(),
        };
        FlinkConfig { entries }
    }

    /// The first of `keys` that is set to something other than blanks (Flink's deprecated keys
    /// follow the current one), with the key that set it.
    pub fn get_any<'a>(&'a self, keys: &[&'a str]) -> Option<(&'a str, &'a str)> {
        keys.iter().find_map(|k| {
            self.entries
                .get_key_value(*k)
                .filter(|(_, v)| !v.trim().is_empty())
                .map(|(k, v)| (k.as_str(), v.as_str()))
        })
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }

    /// Defaults first, then this resource's own options on top.
    pub fn over(&self, defaults: &FlinkConfig) -> FlinkConfig {
        let mut entries = defaults.entries.clone();
        entries.extend(self.entries.iter().map(|(k, v)| (k.clone(), v.clone())));
        FlinkConfig { entries }
    }
}

/// The HA mode the options turn on, if any: `kubernetes`, `zookeeper` or a factory class.
pub fn ha_mode(conf: &FlinkConfig) -> Option<(&str, &str)> {
    let (key, v) = conf.get_any(crate::flink::ha::MODE_KEYS)?;
    Some((key, crate::flink::ha::mode(v)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_numbers_and_lists_read_as_flink_reads_them() {
        let c = FlinkConfig::from_value(Some(&json!({
            "taskmanager.numberOfTaskSlots": 2,
            "high-availability": {"type": "kubernetes", "storageDir": "s3://b/ha"},
            "pipeline.jars": ["a.jar", "b.jar"],
            "x": null
        })));
        assert_eq!(c.get("taskmanager.numberOfTaskSlots"), Some("2"));
        assert_eq!(ha_mode(&c), Some(("high-availability.type", "kubernetes")));
        assert_eq!(c.get("high-availability.storageDir"), Some("s3://b/ha"));
        assert_eq!(c.get("pipeline.jars"), Some("a.jar;b.jar"));
        assert_eq!(c.get("x"), None);
    }

    #[test]
    fn ha_none_is_off_and_deprecated_keys_count() {
        let c = FlinkConfig::from_value(Some(&json!({"high-availability": "NONE"})));
        assert_eq!(ha_mode(&c), None);
        let c = FlinkConfig::from_value(Some(&json!({"state.checkpoints.dir": "s3://b/cp"})));
        assert_eq!(
            c.get_any(crate::flink::ha::CHECKPOINT_DIR_KEYS),
            Some(("state.checkpoints.dir", "s3://b/cp"))
        );
    }
}

//! What the label facts read of an object's labels (or annotations, or a node selector): a value
//! by key, and every pair in key order. k8s-openapi's objects keep them in a `BTreeMap`; the
//! snapshot's pods keep them in a short sorted list (`snapshot::pod::StringMap`), which costs a
//! pod the room of its few entries instead of a 544-byte tree node. The facts of this module's
//! siblings read either through this one trait.

use std::collections::BTreeMap;

/// A map from label key to value, read-only.
pub trait LabelMap {
    /// The value of `key`.
    fn label(&self, key: &str) -> Option<&str>;
    /// Every pair, by key.
    fn label_pairs(&self) -> Box<dyn Iterator<Item = (&str, &str)> + '_>;
    fn has_label(&self, key: &str) -> bool {
        self.label(key).is_some()
    }
}

impl LabelMap for BTreeMap<String, String> {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key).map(String::as_str)
    }
    fn label_pairs(&self) -> Box<dyn Iterator<Item = (&str, &str)> + '_> {
        Box::new(self.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }
}

//! The pods the watches have seen, merged over the target's selectors.

use super::super::select::{pod_name, pod_namespace, pod_order};
use k8s_openapi::api::core::v1::Pod;
use std::collections::{BTreeMap, HashSet};

/// One pod: (namespace, name).
pub(super) type PodKey = (String, String);

pub(super) fn pod_key(pod: &Pod) -> PodKey {
    (pod_namespace(pod).to_string(), pod_name(pod).to_string())
}

pub(super) fn uid(pod: &Pod) -> &str {
    pod.metadata.uid.as_deref().unwrap_or("")
}

/// What each selector's watch has seen (only pods the target keeps). A pod that two selectors
/// match is one pod.
pub(super) struct Pods {
    by_selector: Vec<Watched>,
}

#[derive(Default)]
struct Watched {
    pods: BTreeMap<PodKey, Pod>,
    /// From `Init` to `InitDone`: the pods of a (re)list so far.
    relisting: Option<BTreeMap<PodKey, Pod>>,
    /// Listed once: what this selector matches is known.
    listed: bool,
}

impl Pods {
    pub(super) fn new(selectors: usize) -> Self {
        Pods {
            by_selector: (0..selectors.max(1)).map(|_| Watched::default()).collect(),
        }
    }

    /// Every selector has been listed once.
    pub(super) fn all_listed(&self) -> bool {
        self.by_selector.iter().all(|w| w.listed)
    }

    /// Selector `i` has been listed once.
    pub(super) fn is_listed(&self, i: usize) -> bool {
        self.by_selector.get(i).is_some_and(|w| w.listed)
    }

    pub(super) fn get(&self, key: &PodKey) -> Option<&Pod> {
        self.by_selector.iter().find_map(|w| w.pods.get(key))
    }

    /// Every pod once, in the stable print order.
    pub(super) fn ordered(&self) -> Vec<&Pod> {
        let mut seen = HashSet::new();
        let mut pods: Vec<&Pod> = self
            .by_selector
            .iter()
            .flat_map(|w| w.pods.iter())
            .filter(|(k, _)| seen.insert(*k))
            .map(|(_, p)| p)
            .collect();
        pods.sort_by(|a, b| pod_order(a, b));
        pods
    }

    pub(super) fn is_empty(&self) -> bool {
        self.by_selector.iter().all(|w| w.pods.is_empty())
    }

    /// Selector `i` matches `pod` now.
    pub(super) fn apply(&mut self, i: usize, pod: Pod) {
        if let Some(w) = self.by_selector.get_mut(i) {
            w.pods.insert(pod_key(&pod), pod);
        }
    }

    /// Selector `i` no longer matches the pod.
    pub(super) fn remove(&mut self, i: usize, key: &PodKey) {
        if let Some(w) = self.by_selector.get_mut(i) {
            w.pods.remove(key);
        }
    }

    /// Selector `i`'s watch starts a list, which replaces what it had once complete.
    pub(super) fn relist_started(&mut self, i: usize) {
        if let Some(w) = self.by_selector.get_mut(i) {
            w.relisting = Some(BTreeMap::new());
        }
    }

    pub(super) fn listed(&mut self, i: usize, pod: Pod) {
        if let Some(w) = self.by_selector.get_mut(i) {
            w.relisting
                .get_or_insert_with(BTreeMap::new)
                .insert(pod_key(&pod), pod);
        }
    }

    /// Selector `i`'s list is complete: it replaces what the selector had. Returns the pods the
    /// selector had before and those it has now.
    pub(super) fn relisted(&mut self, i: usize) -> (Vec<PodKey>, Vec<PodKey>) {
        let Some(w) = self.by_selector.get_mut(i) else {
            return (Vec::new(), Vec::new());
        };
        let now = w.relisting.take().unwrap_or_default();
        let before = std::mem::replace(&mut w.pods, now);
        w.listed = true;
        (
            before.into_keys().collect(),
            w.pods.keys().cloned().collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::logs::testing::*;

    fn names(pods: &Pods) -> Vec<&str> {
        pods.ordered().into_iter().map(pod_name).collect()
    }

    #[test]
    fn selectors_merge_into_one_ordered_set_and_a_relist_replaces_one_selector() {
        let mut pods = Pods::new(2);
        pods.relist_started(0);
        pods.listed(0, pod("tm-10", TM, &[]));
        pods.listed(0, pod("jm", JM, &[]));
        assert!(pods.is_empty(), "a list counts once complete");
        pods.relisted(0);
        assert!(!pods.all_listed());
        pods.relist_started(1);
        pods.listed(1, pod("tm-2", TM, &[]));
        // Matched by both selectors: one pod.
        pods.listed(1, pod("jm", JM, &[]));
        pods.relisted(1);
        assert!(pods.all_listed());
        assert_eq!(names(&pods), vec!["jm", "tm-2", "tm-10"]);

        // Selector 0 lists again without tm-10; jm stays (selector 1 still has it).
        pods.relist_started(0);
        pods.listed(0, pod("tm-3", TM, &[]));
        let (before, now) = pods.relisted(0);
        assert_eq!(before.len(), 2);
        assert_eq!(now, vec![("ns".to_string(), "tm-3".to_string())]);
        assert_eq!(names(&pods), vec!["jm", "tm-2", "tm-3"]);

        pods.remove(1, &("ns".to_string(), "jm".to_string()));
        pods.apply(1, pod("tm-1", TM, &[]));
        assert_eq!(names(&pods), vec!["tm-1", "tm-2", "tm-3"]);
        assert!(pods.get(&("ns".to_string(), "jm".to_string())).is_none());
    }
}

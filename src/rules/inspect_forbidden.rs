//! TODO(helper): not yet written.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::snapshot::{Index, Snapshot};

pub struct InspectForbidden;

static META: RuleMeta = RuleMeta {
    id: "FLK901",
    name: "inspect_forbidden",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for InspectForbidden {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        Vec::new()
    }
}

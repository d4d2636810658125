//! TODO(helper): not yet written.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::snapshot::{Index, Snapshot};

pub struct FlinkResourceStatus;

static META: RuleMeta = RuleMeta {
    id: "FLK401",
    name: "flink_resource_status",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for FlinkResourceStatus {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        Vec::new()
    }
}

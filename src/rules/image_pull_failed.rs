//! TODO(helper): not yet written.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::snapshot::{Index, Snapshot};

pub struct ImagePullFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK105",
    name: "image_pull_failed",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for ImagePullFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        Vec::new()
    }
}

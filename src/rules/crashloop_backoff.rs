//! TODO(helper): not yet written.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::snapshot::{Index, Snapshot};

pub struct CrashLoopBackOff;

static META: RuleMeta = RuleMeta {
    id: "FLK104",
    name: "crashloop_backoff",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for CrashLoopBackOff {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        Vec::new()
    }
}

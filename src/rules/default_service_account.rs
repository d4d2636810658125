//! TODO(helper): not yet written.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::snapshot::{Index, Snapshot};

pub struct DefaultServiceAccount;

static META: RuleMeta = RuleMeta {
    id: "FLK502",
    name: "default_service_account",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for DefaultServiceAccount {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        Vec::new()
    }
}

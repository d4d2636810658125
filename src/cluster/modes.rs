//! Collector for the deployment modes beyond the operator's native mode: plain Flink native
//! clusters, standalone, Lyft FlinkApplications. TODO(issue 8).

use crate::snapshot::{Gap, Snapshot};

pub async fn gather(_c: &kube::Client, _ns: Option<&str>, _name: Option<&str>, _s: &mut Snapshot, _gaps: &mut Vec<Gap>) {}

//! Test support for kubectl-flink's end-to-end tests (never part of the shipped plugin):
//!
//! - [`kubelet`]: the log-serving half of a kubelet (`/containerLogs/...` from files), behind the
//!   fake Node the test cluster's API server proxies `pods/log` to;
//! - [`lab_kubelet`]: a kubelet that runs the pods bound to its node as local processes (the lab);
//! - [`expect`]: a live diagnosis against a recorded bundle's `expect.txt` (the lab's check);
//! - [`seed`]: loads an offline bundle (the `doctor --from` format) into a live test cluster.

pub mod args;
pub mod expect;
pub mod kubelet;
pub mod lab_kubelet;
pub mod seed;

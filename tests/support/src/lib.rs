//! Test support for kubectl-flink's end-to-end tests (never part of the shipped plugin):
//!
//! - [`kubelet`]: the log-serving half of a kubelet (`/containerLogs/...` from files), behind the
//!   fake Node the test cluster's API server proxies `pods/log` to;
//! - [`lab_kubelet`]: a kubelet that runs the pods bound to its node as local processes (the lab);
//! - [`expect`]: a live diagnosis against a recorded bundle's `expect.txt` (the lab's check; the
//!   one reader of expect files, shared with the tests in tests/common);
//! - [`seed`]: loads an offline bundle (the `doctor --from` format) into a live test cluster;
//! - [`times`]: moves a bundle's recorded times to the seeding's now.

pub mod args;
#[path = "../../common/expect.rs"]
pub mod expect;
pub mod kubelet;
pub mod lab_kubelet;
pub mod seed;
pub mod times;

#[cfg(test)]
mod expect_tests {
    use crate::expect::*;

    #[test]
    fn replica_set_pod_names_are_masked_and_flink_names_are_not() {
        assert_eq!(mask("Pod/orders-7f57787bdf-5jvnh"), "Pod/orders-*-*");
        assert_eq!(
            mask("Pod/orders-taskmanager-1-1"),
            "Pod/orders-taskmanager-1-1"
        );
        assert_eq!(mask("FlinkDeployment/orders"), "FlinkDeployment/orders");
        assert_eq!(
            mask("Pod/flink-kubernetes-operator-7854856d5c-tspbr"),
            "Pod/flink-kubernetes-operator-*-*"
        );
    }

    #[test]
    fn a_live_report_agrees_with_the_recording_despite_new_pod_names() {
        let (want, exit) = expected(
            "exit: 1\nfindings:\n  - {rule: FLK501, category: rbac_forbidden, object: Pod/orders-7f57787bdf-5jvnh}\n  - {rule: FLK103, category: flink_fatal_exit, object: Pod/orders-7f57787bdf-5jvnh, causedBy: 0}\n",
        )
        .unwrap();
        let report = serde_json::json!({"findings": [
            {"id": "a", "rule": "FLK501", "category": "rbac_forbidden", "object": {"kind": "Pod", "name": "orders-5c9d8b7f4-x2k9q"}},
            {"id": "b", "rule": "FLK103", "category": "flink_fatal_exit", "object": {"kind": "Pod", "name": "orders-5c9d8b7f4-x2k9q"}, "causedBy": "a"}
        ]});
        assert!(compare(&want, exit, &actual(&report), 1).is_empty());
        let other = serde_json::json!({"findings": [
            {"id": "a", "rule": "FLK101", "category": "main_container_misnamed", "object": {"kind": "FlinkDeployment", "name": "orders"}}
        ]});
        let diff = compare(&want, exit, &actual(&other), 0);
        assert_eq!(diff.len(), 3, "{diff:?}");
    }
}

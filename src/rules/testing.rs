//! Helpers for rule tests: tiny snapshots written as YAML, like the bundles users send.

use crate::finding::Finding;
use crate::snapshot::{bundle, LogKey, Snapshot};

/// A snapshot from a YAML stream (one or more documents, `kind: List` allowed).
pub fn snapshot(yaml: &str) -> Snapshot {
    let mut s = Snapshot::default();
    for doc in bundle::parse_documents(yaml).expect("test YAML parses") {
        bundle::add_value(&mut s, doc).expect("test object is readable");
    }
    s.rbac_complete = !s.roles.is_empty() || !s.role_bindings.is_empty();
    s
}

/// Adds a container log (current or previous instance).
pub fn with_log(
    mut s: Snapshot,
    ns: &str,
    pod: &str,
    container: &str,
    previous: bool,
    text: &str,
) -> Snapshot {
    s.logs
        .insert(LogKey::new(ns, pod, container, previous), text.to_string());
    s
}

/// Runs one rule over a snapshot.
pub fn run(rule: &dyn super::Rule, s: &Snapshot) -> Vec<Finding> {
    let index = crate::snapshot::Index::new(s);
    rule.check(s, &index)
}

/// A finding turned into "fixed in the spec; the pod predates it": info, a title that says what
/// was fixed where (`title_part`), nothing to apply, and a verify that expects the spec's value.
pub fn assert_awaiting_rollout(f: &Finding, title_part: &str, expect: &str) {
    assert_eq!(f.severity, crate::finding::Severity::Info, "{f:#?}");
    assert!(f.title.contains(title_part), "{}", f.title);
    assert!(
        crate::finding::Remedy::from_fix(&f.fix).is_empty(),
        "{}",
        f.fix
    );
    assert!(
        f.verify.ends_with(&format!("# expect {expect}")),
        "{}",
        f.verify
    );
}

/// A healthy FlinkDeployment with its JobManager and one TaskManager pod, running.
pub const HEALTHY: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: basic, namespace: flink}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/examples/streaming/StateMachineExample.jar, parallelism: 2, upgradeMode: stateless}
status:
  jobManagerDeploymentStatus: READY
  lifecycleState: STABLE
  jobStatus: {state: RUNNING, jobName: StateMachineExample}
---
apiVersion: v1
kind: Pod
metadata:
  name: basic-6d4f7c9b8-abcde
  namespace: flink
  labels: {app: basic, component: jobmanager, type: flink-native-kubernetes}
spec:
  serviceAccountName: flink
  containers:
  - name: flink-main-container
    image: flink:1.20
    resources: {limits: {memory: 2Gi}}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: true
    restartCount: 0
    state: {running: {startedAt: "2026-11-20T10:00:00Z"}}
---
apiVersion: v1
kind: Pod
metadata:
  name: basic-taskmanager-1-1
  namespace: flink
  labels: {app: basic, component: taskmanager, type: flink-native-kubernetes}
spec:
  serviceAccountName: flink
  restartPolicy: Never
  containers:
  - name: flink-main-container
    image: flink:1.20
    resources: {limits: {memory: 2Gi}}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: true
    restartCount: 0
    state: {running: {startedAt: "2026-11-20T10:00:30Z"}}
"#;

/// A scenario bundle of tests/scenarios, loaded as `doctor --from` loads it.
pub fn scenario(name: &str) -> Snapshot {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name);
    crate::snapshot::bundle::load(&dir).unwrap_or_else(|e| panic!("scenario {name}: {e}"))
}

/// The healthy scenario bundles, on which no rule may fire.
pub const HEALTHY_SCENARIOS: &[&str] = &[
    "healthy-application",
    "healthy-session",
    "mode-flinkcluster-healthy",
    "install-flinkcluster-healthy",
];

/// A running JobManager pod of a plain native cluster `wordcount` in namespace `stream`, with no
/// TaskManager (for the tests of which logs to read and of the operator-CRD gaps).
pub const NATIVE_JOBMANAGER: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: wordcount-6d4f7c9b8-abcde
  namespace: stream
  labels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}
spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
status: {phase: Running}
"#;

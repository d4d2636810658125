use super::*;
use crate::finding::Remedy;
use crate::rules::testing::{run, scenario, snapshot, HEALTHY_SCENARIOS};

/// A FlinkDeployment whose pod template names PriorityClass NAMED, refused as the ReplicaSet
/// controller and the operator report it (lab, operator 1.7.0 on Kubernetes 1.36.3), with OTHER
/// objects beside it.
fn refused(named: &str, other: &str) -> String {
    format!(
        r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: "flink:1.18"
  flinkVersion: v1_18
  serviceAccount: flink
  podTemplate:
    spec:
      priorityClassName: {named}
  job: {{jarURI: "local:///opt/flink/usrlib/lab-job.jar", upgradeMode: stateless}}
status: {{jobManagerDeploymentStatus: ERROR, lifecycleState: DEPLOYED}}
---
apiVersion: v1
kind: Event
metadata: {{name: orders-77bdc6c864.1, namespace: analytics}}
involvedObject: {{kind: ReplicaSet, namespace: analytics, name: orders-77bdc6c864}}
reason: FailedCreate
type: Warning
count: 5
lastTimestamp: "2026-12-06T04:32:05Z"
message: 'Error creating: pods "orders-77bdc6c864-" is forbidden: no PriorityClass with name {named} was found'
---
apiVersion: v1
kind: Event
metadata: {{name: orders.1, namespace: analytics}}
involvedObject: {{kind: FlinkDeployment, namespace: analytics, name: orders}}
reason: FailedCreate
type: Warning
lastTimestamp: "2026-12-06T04:32:05Z"
message: 'pods "orders-77bdc6c864-" is forbidden: no PriorityClass with name {named} was found'
{other}"#
    )
}

fn class(name: &str, value: i32, global_default: bool) -> String {
    format!(
        "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {name}}}\nvalue: {value}\nglobalDefault: {global_default}\n"
    )
}

#[test]
fn a_missing_priority_class_is_created_at_the_priority_pods_get_without_one() {
    let f = run(&PodClassMissing, &snapshot(&refused("flink-critical", "")));
    assert_eq!(f.len(), 1, "{f:#?}");
    let f = &f[0];
    assert_eq!(
        f.object,
        ObjectRef::new("PriorityClass", None, "flink-critical")
    );
    assert_eq!(
        f.title,
        "PriorityClass flink-critical does not exist: the API server refuses every JobManager pod that names it"
    );
    assert!(f.evidence.iter().any(|e| e
        == "FlinkDeployment orders sets spec.podTemplate.spec.priorityClassName: flink-critical"));
    assert!(f
        .evidence
        .iter()
        .any(|e| e.contains("no PriorityClass with name flink-critical was found")));
    let r = Remedy::from_fix(&f.fix);
    assert_eq!(r.apply.len(), 1, "{}", f.fix);
    let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
    assert_eq!(doc["kind"], "PriorityClass");
    assert_eq!(doc["metadata"]["name"], "flink-critical");
    assert_eq!(doc["value"], 0);
    assert_eq!(doc["globalDefault"], false);
    assert!(r.run.is_empty(), "{:?}", r.run);
    assert!(
        f.fix.contains("spec.podTemplate.spec.priorityClassName"),
        "{}",
        f.fix
    );
    assert!(f
        .verify
        .starts_with("kubectl get priorityclass flink-critical"));
}

#[test]
fn the_cluster_s_global_default_sets_the_value() {
    let other = class("standard", 1000, true) + &class("system-node-critical", 2000001000, false);
    let f = run(&PodClassMissing, &snapshot(&refused("realtime", &other)));
    let r = Remedy::from_fix(&f[0].fix);
    let doc: serde_json::Value = serde_yaml::from_str(&r.apply[0]).unwrap();
    assert_eq!(doc["value"], 1000, "{}", f[0].fix);
    assert!(f[0]
        .fix
        .contains("PriorityClass standard, the cluster's globalDefault"));
}

#[test]
fn a_typo_of_a_class_that_exists_is_renamed_where_the_template_names_it() {
    let f = run(
        &PodClassMissing,
        &snapshot(&refused(
            "flink-critial",
            &class("flink-critical", 100000, false),
        )),
    );
    assert_eq!(f.len(), 1);
    let r = Remedy::from_fix(&f[0].fix);
    assert!(r.apply.is_empty(), "{}", f[0].fix);
    assert_eq!(
        r.run,
        vec![
            r#"kubectl patch flinkdeployment orders -n analytics --type=json -p '[{"op":"replace","path":"/spec/podTemplate/spec/priorityClassName","value":"flink-critical"}]'"#
        ]
    );
}

#[test]
fn a_runtime_class_needs_its_handler_from_a_person() {
    let bundle = refused("x", "")
        .replace(
            "podTemplate:\n    spec:\n      priorityClassName: x",
            "podTemplate:\n    spec:\n      runtimeClassName: gvisor",
        )
        .replace(
            "no PriorityClass with name x was found",
            r#"pod rejected: RuntimeClass \"gvisor\" not found"#,
        );
    let f = run(&PodClassMissing, &snapshot(&bundle));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].object, ObjectRef::new("RuntimeClass", None, "gvisor"));
    let r = Remedy::from_fix(&f[0].fix);
    assert_eq!(r.apply.len(), 1, "{}", f[0].fix);
    assert!(r.apply[0].contains("handler: <handler the nodes' container runtime has>"));
    assert!(f[0].fix.contains("spec.podTemplate.spec.runtimeClassName"));
}

#[test]
fn a_taskmanager_refused_in_the_jobmanager_s_log_is_named() {
    let d = crate::snapshot::refused::Denial::parse(
        r#"Could not create pod orders-taskmanager-1-1, exception: ... Message: pods \"orders-taskmanager-1-1\" is forbidden: no PriorityClass with name batch-low was found. Received status: Status(code=403)"#,
    )
    .unwrap();
    assert_eq!(d.pod.as_deref(), Some("orders-taskmanager-1-1"));
    assert_eq!(
        d.what,
        Denied::ClassMissing {
            kind: ClassKind::Priority,
            name: "batch-low".into()
        }
    );
}

#[test]
fn silent_once_the_class_exists_and_on_healthy_scenarios() {
    let made = refused("flink-critical", &class("flink-critical", 0, false));
    assert!(run(&PodClassMissing, &snapshot(&made)).is_empty());
    for name in HEALTHY_SCENARIOS {
        assert!(run(&PodClassMissing, &scenario(name)).is_empty(), "{name}");
    }
}

#[test]
fn a_hostile_class_name_stays_one_word_and_one_yaml_string() {
    let f = run(&PodClassMissing, &snapshot(&refused("a$(touch pwned)", "")));
    // The admission plugin's message holds any string; the regex reads only a Kubernetes name.
    assert!(f.is_empty(), "{f:#?}");
    assert_eq!(crate::shell::yaml("a: b"), "\"a: b\"");
    assert_eq!(crate::shell::yaml("flink-critical"), "flink-critical");
}

use super::*;
use crate::rules::testing::{snapshot, HEALTHY};

const PLAIN_NATIVE: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: wordcount
  namespace: stream
  labels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}
spec:
  replicas: 1
  selector: {matchLabels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}}
  template:
    metadata: {labels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}}
    spec: {serviceAccountName: flink, containers: [{name: flink-main-container, image: "flink:1.20"}]}
status: {replicas: 1, readyReplicas: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: wordcount-taskmanager-1-1
  namespace: stream
  labels: {app: wordcount, component: taskmanager, type: flink-native-kubernetes}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: wordcount, uid: "1", controller: true}]
spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
status: {phase: Running}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flink-config-wordcount
  namespace: stream
  labels: {app: wordcount, type: flink-native-kubernetes}
data:
  flink-conf.yaml: |
    kubernetes.cluster-id: wordcount
    taskmanager.numberOfTaskSlots: 4
---
apiVersion: v1
kind: Service
metadata:
  name: wordcount-rest
  namespace: stream
  labels: {app: wordcount, type: flink-native-kubernetes}
spec: {type: ClusterIP, ports: [{name: rest, port: 8081}]}
"#;

const STANDALONE: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger
  namespace: fin
  labels: {app: ledger, component: jobmanager, type: flink-standalone-kubernetes}
  ownerReferences: [{apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, name: ledger, uid: "1"}]
spec:
  selector: {matchLabels: {app: ledger, component: jobmanager}}
  template: {spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger-taskmanager
  namespace: fin
  labels: {app: ledger, component: taskmanager, type: flink-standalone-kubernetes}
spec:
  replicas: 3
  selector: {matchLabels: {app: ledger, component: taskmanager}}
  template: {spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}}
---
apiVersion: v1
kind: Pod
metadata:
  name: ledger-taskmanager-7d9f-abcde
  namespace: fin
  labels: {app: ledger, component: taskmanager, type: flink-standalone-kubernetes}
spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
"#;

const LYFT: &str = r#"
apiVersion: flink.k8s.io/v1beta1
kind: FlinkApplication
metadata: {name: clicks, namespace: lyft}
spec: {image: "flink:1.11", flinkVersion: "1.11", parallelism: 4, jarName: a.jar, flinkConfig: {taskmanager.numberOfTaskSlots: 2}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: clicks-2a6f3b1c-tm
  namespace: lyft
  labels: {flink-app: clicks, flink-deployment-type: taskmanager, flink-app-hash: 2a6f3b1c}
spec:
  replicas: 2
  selector: {matchLabels: {pod-deployment-selector: x}}
  template: {spec: {containers: [{name: taskmanager, image: "flink:1.11"}]}}
---
apiVersion: v1
kind: Pod
metadata:
  name: clicks-2a6f3b1c-jm-5d8f-abcde
  namespace: lyft
  labels: {flink-app: clicks, flink-deployment-type: jobmanager}
spec: {containers: [{name: jobmanager, image: "flink:1.11"}]}
"#;

#[test]
fn operator_pods_map_to_their_flink_deployment() {
    let s = snapshot(HEALTHY);
    let index = Index::new(&s);
    for p in &s.pods {
        assert_eq!(
            index.deployment_of_pod(p),
            Some(ObjectRef::namespaced("FlinkDeployment", "flink", "basic"))
        );
    }
    let clusters = index.clusters();
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters[0].mode, Mode::Operator);
    assert_eq!(clusters[0].jobmanager_pods.len(), 1);
    assert_eq!(clusters[0].taskmanager_pods.len(), 1);
}

#[test]
fn native_pods_are_of_unknown_kind_when_flink_deployments_could_not_be_read() {
    let refused = |ns: Option<&str>, reason| crate::snapshot::Gap {
        verb: "list".into(),
        group: crate::flink::names::GROUP.into(),
        resource: "flinkdeployments".into(),
        namespace: ns.map(str::to_string),
        reason,
        message: "forbidden".into(),
    };
    // Only the pods were read: an operator's FlinkDeployment or a plain native cluster.
    let mut s = snapshot(PLAIN_NATIVE);
    s.deployments.clear();
    s.gaps.push(refused(
        Some("stream"),
        crate::snapshot::GapReason::Forbidden,
    ));
    let index = Index::new(&s);
    let want = ObjectRef::namespaced(KIND_UNKNOWN, "stream", "wordcount");
    assert_eq!(index.deployment_of_pod(&s.pods[0]), Some(want.clone()));
    assert_eq!(index.cluster(&want).unwrap().mode, Mode::Unknown);
    assert_eq!(Mode::Unknown.as_str(), "unknown");

    // The JobManager Deployment, read, has no FlinkDeployment owner: plain native for sure.
    let mut s = snapshot(PLAIN_NATIVE);
    s.gaps
        .push(refused(None, crate::snapshot::GapReason::Forbidden));
    let index = Index::new(&s);
    assert_eq!(index.clusters()[0].mode, Mode::Native);

    // No FlinkDeployment CRD installed: an answer, not a gap.
    let mut s = snapshot(PLAIN_NATIVE);
    s.deployments.clear();
    s.gaps
        .push(refused(None, crate::snapshot::GapReason::NotInstalled));
    assert_eq!(Index::new(&s).clusters()[0].mode, Mode::Native);
}

#[test]
fn plain_native_pods_map_to_their_jobmanager_deployment_named_by_the_cluster_id() {
    let s = snapshot(PLAIN_NATIVE);
    let index = Index::new(&s);
    let want = ObjectRef::namespaced(KIND_NATIVE_CLUSTER, "stream", "wordcount");
    assert_eq!(index.deployment_of_pod(&s.pods[0]), Some(want.clone()));
    assert_eq!(
        index.deployment_of_deployment(&s.deployments[0]),
        Some(want.clone())
    );
    assert_eq!(
        index.deployment_of_object(&s.services[0].metadata),
        Some(want.clone())
    );
    let c = index.cluster(&want).unwrap();
    assert_eq!(c.mode, Mode::Native);
    assert_eq!(c.jobmanager_deployments.len(), 1);
    assert_eq!(c.taskmanager_pods.len(), 1);
    assert_eq!(index.services_of(&want).len(), 1);
    let conf = index.conf(&c);
    assert_eq!(conf.get("taskmanager.numberOfTaskSlots"), Some("4"));
    assert_eq!(
        conf.evidence("taskmanager.numberOfTaskSlots").unwrap(),
        "ConfigMap flink-config-wordcount flink-conf.yaml: taskmanager.numberOfTaskSlots: 4"
    );
    assert_eq!(c.jobmanager_service_account(&conf), "flink");
    assert_eq!(
        c.selector(crate::flink::mode::Component::TaskManager),
        "app=wordcount,component=taskmanager"
    );
}

#[test]
fn standalone_objects_map_to_their_flink_deployment_even_without_the_cr() {
    let s = snapshot(STANDALONE);
    let index = Index::new(&s);
    let want = ObjectRef::namespaced(KIND_FLINK_DEPLOYMENT, "fin", "ledger");
    assert_eq!(index.deployment_of_pod(&s.pods[0]), Some(want.clone()));
    let c = index.cluster(&want).unwrap();
    assert_eq!(c.mode, Mode::Standalone);
    assert_eq!(c.taskmanager_deployments.len(), 1);
    assert_eq!(deployment_replicas(c.taskmanager_deployments[0]), (3, 0));
}

#[test]
fn lyft_objects_map_to_their_flink_application() {
    let s = snapshot(LYFT);
    let index = Index::new(&s);
    let want = ObjectRef::namespaced(KIND_FLINK_APPLICATION, "lyft", "clicks");
    assert_eq!(index.deployment_of_pod(&s.pods[0]), Some(want.clone()));
    let clusters = index.clusters();
    assert_eq!(clusters.len(), 1);
    let c = &clusters[0];
    assert_eq!(c.mode, Mode::Lyft);
    assert!(c.flink_application.is_some());
    assert_eq!(c.jobmanager_pods.len(), 1);
    assert_eq!(c.taskmanager_deployments.len(), 1);
    assert_eq!(
        index.conf(c).get("taskmanager.numberOfTaskSlots"),
        Some("2")
    );
    assert_eq!(
        c.selector(crate::flink::mode::Component::JobManager),
        "flink-app=clicks,flink-deployment-type=jobmanager"
    );
}

/// A FlinkCluster of the GCP/Spotify operator named like a plain native cluster beside it: its
/// JobManager StatefulSet and pods carry `app: flink` and `cluster: <name>`
/// (spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_converter.go).
const FLINKCLUSTER_NAMED_WORDCOUNT: &str = r#"
apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata: {name: wordcount, namespace: stream}
spec:
  flinkVersion: "1.14"
  image: {name: "flink:1.14"}
  jobManager: {}
  taskManager: {replicas: 1}
status: {state: Running}
---
apiVersion: v1
kind: Pod
metadata:
  name: wordcount-jobmanager-0
  namespace: stream
  labels: {app: flink, cluster: wordcount, component: jobmanager}
spec: {containers: [{name: jobmanager, image: "flink:1.14"}]}
status: {phase: Running}
"#;

#[test]
fn a_flinkcluster_and_a_plain_native_cluster_of_one_name_are_two_clusters() {
    let s = snapshot(&[PLAIN_NATIVE, FLINKCLUSTER_NAMED_WORDCOUNT].join("\n---\n"));
    let index = Index::new(&s);
    let mut clusters: Vec<(String, Mode)> = index
        .clusters()
        .iter()
        .map(|c| (c.reference.to_string(), c.mode))
        .collect();
    clusters.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        clusters,
        [
            ("Deployment/wordcount -n stream".to_string(), Mode::Native),
            (
                "FlinkCluster/wordcount -n stream".to_string(),
                Mode::FlinkCluster
            ),
        ]
    );
    let fc = s
        .pods
        .iter()
        .find(|p| meta_name(&p.metadata) == "wordcount-jobmanager-0");
    assert_eq!(
        index.deployment_of_pod(fc.unwrap()),
        Some(ObjectRef::namespaced(
            KIND_FLINK_CLUSTER,
            "stream",
            "wordcount"
        ))
    );
}

#[test]
fn cluster_finds_each_cluster_of_the_list_built_once() {
    let text = [HEALTHY, PLAIN_NATIVE, STANDALONE, LYFT].join("\n---\n");
    let s = snapshot(&text);
    let index = Index::new(&s);
    let clusters = index.clusters();
    assert_eq!(clusters.len(), 4);
    for c in clusters {
        let found = index.cluster(&c.reference).unwrap();
        assert_eq!(found.reference, c.reference);
        assert_eq!(found.mode, c.mode);
        assert_eq!(found.taskmanager_pods.len(), c.taskmanager_pods.len());
        assert_eq!(found.jobmanager_pods.len(), c.jobmanager_pods.len());
    }
    let missing = ObjectRef::namespaced(KIND_FLINK_DEPLOYMENT, "fin", "nothing");
    assert!(index.cluster(&missing).is_none());
    let fd = &s.flink_deployments[0];
    assert_eq!(
        index.pods_of(fd),
        s.pods
            .iter()
            .filter(|p| index.deployment_of_pod(p) == Some(deployment_ref(fd)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn pods_without_flink_labels_belong_to_nothing() {
    let s = snapshot(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: a, labels: {app: x}}\nspec: {containers: [{name: c, image: i}]}\n",
        );
    assert_eq!(Index::new(&s).deployment_of_pod(&s.pods[0]), None);
    assert!(Index::new(&s).clusters().is_empty());
}

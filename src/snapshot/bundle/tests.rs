use super::logs::TAIL_BYTES_PER_LINE;
use super::save::{save_in, Saves};
use super::*;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn a_tail_is_the_last_lines_whatever_the_file_ends_with() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.log");
    for (text, n, want) in [
        ("a\nb\nc\n", 2, "b\nc\n"),
        ("a\nb\nc", 2, "b\nc"),
        ("a\nb\nc\n", 5, "a\nb\nc\n"),
        ("", 3, ""),
        ("only\n", 1, "only\n"),
    ] {
        fs::write(&p, text).unwrap();
        let got = read_tail(&p, Some(n)).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), want, "{text:?} tail {n}");
    }
    fs::write(&p, "a\nb\n").unwrap();
    assert_eq!(read_tail(&p, None).unwrap(), b"a\nb\n");
}

#[test]
fn a_tail_of_a_long_log_reads_only_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.log");
    let line = "x".repeat(99) + "\n";
    fs::write(&p, line.repeat(100_000) + "the last line\n").unwrap();
    let got = String::from_utf8(read_tail(&p, Some(3)).unwrap()).unwrap();
    assert_eq!(got, format!("{line}{line}the last line\n"));
    // One 10 MB line: cut at the byte budget, never the whole file.
    fs::write(&p, "y".repeat(10 << 20) + "\nend\n").unwrap();
    let got = read_tail(&p, Some(2)).unwrap();
    assert!(
        got.len() <= 2 * TAIL_BYTES_PER_LINE as usize + 64 * 1024,
        "{}",
        got.len()
    );
    assert!(got.ends_with(b"end\n"));
}

#[test]
fn foreign_kinds_and_stray_files_are_skipped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pods.json",
        r#"{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"jm","namespace":"a","labels":{"component":"jobmanager"}}}]}"#,
    );
    write(
        dir.path(),
        "spark.yaml",
        "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: c}\n",
    );
    write(dir.path(), "values.yaml", "replicas: 3\n");
    write(dir.path(), "broken.yaml", "a: [\n");
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(
        loaded.snapshot.pods.len(),
        1,
        "typed list items take the list's kind"
    );
    assert!(loaded.snapshot.holds("Pod"));
    assert!(!loaded.snapshot.holds("EndpointSlice"));
    let skipped = loaded.skipped.join("\n");
    assert!(
        skipped.contains("1 SparkApplication (sparkoperator.k8s.io/v1beta2)"),
        "{skipped}"
    );
    assert!(
        skipped.contains("values.yaml: not a Kubernetes object"),
        "{skipped}"
    );
    assert!(
        skipped.contains("broken.yaml: not YAML or JSON"),
        "{skipped}"
    );
}

#[test]
fn a_flinkcluster_its_statefulsets_jobs_and_submitter_pods_are_read_and_other_ones_ignored() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "all.yaml",
        r#"apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata: {name: wc, namespace: a}
spec: {flinkVersion: "1.14", image: {name: "flink:1.14.2"}, job: {jarFile: ./x.jar}}
status: {state: Running, components: {jobManager: {name: wc-jobmanager, state: Ready, replicas: 1, ready: "1/1"}, job: {state: DeployFailed, submitterExitCode: 1}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: wc-taskmanager, namespace: a, labels: {app: flink, cluster: wc, component: taskmanager}}
spec: {selector: {matchLabels: {app: flink}}, serviceName: wc-taskmanager, template: {}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: postgres, namespace: a, labels: {app: postgres}}
spec: {selector: {matchLabels: {app: postgres}}, serviceName: postgres, template: {}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: wc-job-submitter, namespace: a, labels: {app: flink, cluster: wc}}
spec: {template: {}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup, namespace: a}
spec: {template: {}}
---
apiVersion: v1
kind: Pod
metadata: {name: wc-job-submitter-x1, namespace: a, labels: {app: flink, cluster: wc, job-name: wc-job-submitter}}
spec: {containers: [{name: main, image: "flink:1.14.2"}]}
"#,
    );
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    let s = &loaded.snapshot;
    assert_eq!(s.flink_clusters.len(), 1);
    assert_eq!(s.flink_clusters[0].job_state(), Some("DeployFailed"));
    assert_eq!(
        s.flink_clusters[0]
            .job_status()
            .unwrap()
            .submitter_exit_code,
        Some(1)
    );
    assert_eq!(s.stateful_sets.len(), 1, "only the FlinkCluster's");
    assert_eq!(s.jobs.len(), 1, "only the FlinkCluster's");
    assert_eq!(s.pods.len(), 1, "the submitter pod has no component label");
    assert!(loaded.skipped.is_empty(), "{:?}", loaded.skipped);

    let out = tempfile::tempdir().unwrap();
    save(s, &out.path().join("b")).unwrap();
    let again = load(&out.path().join("b")).unwrap();
    assert_eq!(again.flink_clusters, s.flink_clusters);
    assert_eq!(again.stateful_sets.len(), 1);
    assert_eq!(again.jobs.len(), 1);
}

#[test]
fn list_items_are_read_one_by_one_whatever_the_order_of_the_list_s_keys() {
    let dir = tempfile::tempdir().unwrap();
    // kubectl sorts `items` before `kind`; the API puts `kind` first.
    write(
        dir.path(),
        "sorted.json",
        r#"{"apiVersion":"v1","items":[{"metadata":{"name":"a","namespace":"n","labels":{"component":"jobmanager"}}},{"metadata":{"name":"b","namespace":"n","labels":{"flink-app":"b"}}}],"kind":"PodList","metadata":{}}"#,
    );
    write(
            dir.path(),
            "mixed.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: s, namespace: n}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: n}}\n",
        );
    write(
            dir.path(),
            "bad.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p, labels: {component: taskmanager}}, spec: {containers: 7}}\n",
        );
    // An item that does not fit its kind is left out with its path, the rest is read.
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    let notes = loaded.skipped.join("\n");
    assert!(
        notes.contains("bad.yaml: Pod p: spec.containers") && notes.contains("does not decode"),
        "{notes}"
    );
    let s = loaded.snapshot;
    assert_eq!(s.pods.len(), 2);
    assert_eq!((s.services.len(), s.config_maps.len()), (1, 1));
    assert!(s.holds("Pod"));
}

#[test]
fn pods_of_no_flink_cluster_are_left_out_before_they_are_decoded() {
    let dir = tempfile::tempdir().unwrap();
    // A pod of no Flink cluster that would not even decode (`containers: 7`): never decoded.
    write(
        dir.path(),
        "pods.json",
        r#"{"apiVersion":"v1","kind":"List","items":[
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"a","labels":{"app":"web"}},"spec":{"containers":7}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"bare","namespace":"a"}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"jm","namespace":"a","labels":{"app":"x","component":"jobmanager"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"tm","namespace":"a","labels":{"app":"x","component":"taskmanager"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"lyft","namespace":"a","labels":{"flink-app":"y"}}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"op","namespace":"o","labels":{"app.kubernetes.io/name":"flink-kubernetes-operator"}}}
            ]}"#,
    );
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    let names = |names: Vec<&Option<String>>| {
        names
            .iter()
            .map(|n| (*n).clone().unwrap())
            .collect::<Vec<_>>()
    };
    let pods = loaded
        .snapshot
        .pods
        .iter()
        .map(|p| &p.metadata.name)
        .collect();
    assert_eq!(names(pods), ["jm", "tm", "lyft"]);
    let operator_pods = loaded
        .snapshot
        .operator_pods
        .iter()
        .map(|p| &p.metadata.name);
    assert_eq!(names(operator_pods.collect()), ["op"]);
    assert!(loaded.snapshot.holds("Pod"));
    let skipped = loaded.skipped.join("\n");
    assert!(
        skipped.contains("2 Pod(s) of no Flink cluster"),
        "{skipped}"
    );
    // A bundle of nothing but such pods is read (and holds no Flink cluster), not refused.
    fs::write(
            dir.path().join("pods.json"),
            r#"{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"web","namespace":"a"}}]}"#,
        )
        .unwrap();
    let s = load(dir.path()).unwrap();
    assert!(s.pods.is_empty() && s.holds("Pod"));
}

#[test]
fn a_pod_nothing_places_is_kept_where_an_operator_runs_and_left_out_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    // The unplaced pod comes first: where the operator runs is known only once all is read.
    write(
        dir.path(),
        "pods.json",
        r#"{"apiVersion":"v1","kind":"List","items":[
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"exporter","namespace":"o","labels":{"team":"platform"}},"spec":{"containers":[{"name":"e","image":"example.com/e:1"}]}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"a","labels":{"app":"web"}},"spec":{"containers":[{"name":"w","image":"example.com/w:1"}]}},
              {"apiVersion":"v1","kind":"Pod","metadata":{"name":"op","namespace":"o","labels":{"app.kubernetes.io/name":"flink-kubernetes-operator"}}}
            ]}"#,
    );
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    let s = &loaded.snapshot;
    let pods: Vec<&str> = s
        .pods
        .iter()
        .filter_map(|p| p.metadata.name.as_deref())
        .collect();
    assert_eq!(pods, ["exporter"]);
    assert_eq!(s.probable_operators.len(), 1);
    let p = &s.probable_operators[0];
    assert_eq!((p.namespace.as_str(), p.name.as_str()), ("o", "exporter"));
    assert_eq!(p.operator, crate::flink::identity::OperatorKind::Apache);
    assert!(
        p.evidence()
            .contains("beside the Flink Kubernetes Operator's pod op"),
        "{}",
        p.evidence()
    );
    let skipped = loaded.skipped.join("\n");
    assert!(
        skipped.contains("1 Pod(s) of no Flink cluster"),
        "{skipped}"
    );
}

#[test]
fn an_empty_typed_list_says_the_kind_was_read_and_a_bundle_without_objects_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "slices.yaml",
        "apiVersion: discovery.k8s.io/v1\nkind: EndpointSliceList\nitems: []\n",
    );
    let s = load(dir.path()).unwrap();
    assert!(s.holds("EndpointSlice") && s.holds_resource("endpointslices"));
    let empty = tempfile::tempdir().unwrap();
    assert!(load(empty.path()).is_err());
    write(empty.path(), "notes.yaml", "hello: world\n");
    assert!(load(empty.path()).is_err());
}

#[test]
fn a_saved_bundle_leaves_out_managed_fields() {
    let mut s = Snapshot::default();
    add_value(
        &mut s,
        serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "a", "managedFields": [
                {"manager": "kube-controller-manager", "operation": "Update",
                 "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
            "spec": {"containers": [{"name": "c"}]}
        }),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    save(&s, &out).unwrap();
    let text = std::fs::read_to_string(out.join("pods.yaml")).unwrap();
    assert!(text.contains("name: p"), "{text}");
    assert!(!text.contains("managedFields"), "{text}");
}

#[test]
fn flink_pods_are_read_slim_the_operators_whole_and_both_read_back_the_same_once_saved() {
    let mut s = Snapshot::default();
    let env = serde_json::json!([{"name": "OPERATOR_NAMESPACE", "value": "flink-operator"}]);
    for (name, labels) in [
        (
            "jm",
            serde_json::json!({"app": "x", "component": "jobmanager"}),
        ),
        (
            "op",
            serde_json::json!({"app.kubernetes.io/name": "flink-kubernetes-operator"}),
        ),
    ] {
        add_value(
            &mut s,
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "a", "labels": labels},
                "spec": {"containers": [{"name": "c", "image": "i", "env": env,
                    "resources": {"limits": {"memory": "2Gi"}}}]},
                "status": {"phase": "Running", "containerStatuses": [{"name": "c",
                    "image": "i", "imageID": "", "ready": false, "restartCount": 2,
                    "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}
            }),
        )
        .unwrap();
    }
    assert_eq!(s.pods.len(), 1);
    assert_eq!(s.operator_pods.len(), 1);
    let operator_env = s.operator_pods[0].spec.as_ref().unwrap().containers[0]
        .env
        .as_ref();
    assert_eq!(
        operator_env.map(Vec::len),
        Some(1),
        "the operator's pod is kept whole"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    save(&s, &out).unwrap();
    let again = load(&out).unwrap();
    assert_eq!(
        again.pods, s.pods,
        "every field the slim pod holds is saved"
    );
    assert_eq!(again.operator_pods, s.operator_pods);
    let text = std::fs::read_to_string(out.join("pods.yaml")).unwrap();
    assert!(
        text.contains("kind: Pod") && text.contains("OOMKilled"),
        "{text}"
    );
}

#[test]
fn a_saved_bundle_holds_no_secret_of_the_flink_configuration() {
    let mut s = Snapshot::default();
    add_value(
            &mut s,
            serde_json::json!({
                "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
                "metadata": {"name": "orders", "namespace": "a", "annotations": {
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"spec\":{\"flinkConfiguration\":{\"s3.secret-key\":\"hunter2\"}}}"}},
                "spec": {"flinkConfiguration": {
                    "s3.secret-key": "wJalrXUtnFEMI",
                    "fs.azure.account.key.acme.dfs.core.windows.net": "Zm9vYmFy",
                    "security.ssl.rest.keystore-password": "changeit",
                    "env.java.opts": "-Dpass=x",
                    "taskmanager.numberOfTaskSlots": "2",
                    "s3.endpoint": "https://user:pw@minio:9000"
                }}
            }),
        )
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    save(&s, &out).unwrap();
    let text = std::fs::read_to_string(out.join("flinkdeployments.yaml")).unwrap();
    for secret in ["wJalrXUtnFEMI", "Zm9vYmFy", "changeit", "hunter2", ":pw@"] {
        assert!(!text.contains(secret), "{secret} saved: {text}");
    }
    assert!(
        text.contains("taskmanager.numberOfTaskSlots: '2'")
            || text.contains("taskmanager.numberOfTaskSlots: \"2\""),
        "{text}"
    );
}

#[test]
fn save_never_writes_through_a_link_planted_at_a_predictable_name() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let parent = tempfile::tempdir().unwrap();
    let victim = tempfile::tempdir().unwrap();
    for name in [
        format!(".b.partial-{}", std::process::id()),
        ".b.partial".to_string(),
    ] {
        symlink(victim.path(), parent.path().join(name)).unwrap();
    }
    let s = Snapshot {
        pods: vec![serde_json::from_value(
            serde_json::json!({"metadata": {"name": "jm", "namespace": "a"}}),
        )
        .unwrap()],
        ..Snapshot::default()
    };
    let out = parent.path().join("b");
    save(&s, &out).unwrap();
    assert!(out.join("pods.yaml").is_file());
    assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 0);
    let mode = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{mode:o}");
}

#[test]
fn an_interrupted_save_leaves_no_partial_folder_behind() {
    let mut s = Snapshot::default();
    for i in 0..3000 {
        s.logs.insert(
            LogKey::new("a", &format!("tm-{i}"), "flink-main-container", false),
            "a line\n".repeat(100),
        );
    }
    let parent = tempfile::tempdir().unwrap();
    let out = parent.path().join("b");
    let saves = Saves::new();
    let result = std::thread::scope(|scope| {
        let saving = scope.spawn(|| save_in(&s, &out, &saves));
        let started = std::time::Instant::now();
        while saves.partial().is_none() {
            assert!(
                !saving.is_finished(),
                "the save ended before it was interrupted"
            );
            assert!(started.elapsed().as_secs() < 30, "the save never started");
            std::thread::yield_now();
        }
        saves.interrupt(std::time::Duration::from_secs(30));
        // Once interrupt returns, the folder is gone, though the save may not have returned.
        let left: Vec<_> = fs::read_dir(parent.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
        saving.join().unwrap()
    });
    match result {
        Err(BundleError::Write { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::Interrupted)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
    // Interrupted before it starts: nothing is written at all.
    assert!(save_in(&s, &out, &saves).is_err());
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
}

#[test]
fn a_saved_bundle_keeps_the_kinds_that_were_listed_even_empty() {
    let live = Snapshot {
        pods: vec![serde_json::from_value(
            serde_json::json!({"metadata": {"name": "jm", "namespace": "a"}}),
        )
        .unwrap()],
        gaps: vec![super::super::Gap {
            verb: "list".into(),
            group: "".into(),
            resource: "secrets".into(),
            namespace: None,
            reason: super::super::GapReason::Forbidden,
            message: "forbidden".into(),
        }],
        ..Snapshot::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bundle");
    save(&live, &out).unwrap();
    let s = load(&out).unwrap();
    assert!(s.holds("Pod") && s.holds("EndpointSlice") && s.holds("Service"));
    assert!(
        !s.holds("Secret"),
        "a kind that could not be listed is not claimed"
    );
}

#[test]
fn a_cluster_info_dump_s_logs_are_read_per_container_from_kubectl_s_markers() {
    // As `kubectl cluster-info dump --output-directory` writes them: the namespace's lists as
    // `<ns>/pods.json`, and every container of a pod in `<ns>/<pod>/logs.txt`.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "analytics/pods.json",
        r#"{"kind":"PodList","apiVersion":"v1","items":[
          {"metadata":{"name":"orders-6bbcc77-rthsq","namespace":"analytics","labels":{"app":"orders","component":"jobmanager","type":"flink-native-kubernetes"}},
           "spec":{"containers":[{"name":"flink-main-container","image":"flink:1.20"},{"name":"sidecar","image":"busybox"}]},
           "status":{"phase":"Running","containerStatuses":[
             {"name":"flink-main-container","image":"flink:1.20","imageID":"","ready":false,"restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":239,"reason":"Error"}}},
             {"name":"sidecar","image":"busybox","imageID":"","ready":false,"restartCount":5,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}},
          {"metadata":{"name":"orders-taskmanager-1-1","namespace":"analytics","labels":{"app":"orders","component":"taskmanager","type":"flink-native-kubernetes"}},
           "spec":{"containers":[{"name":"flink-main-container","image":"flink:1.20"}]},
           "status":{"phase":"Running","containerStatuses":[{"name":"flink-main-container","image":"flink:1.20","imageID":"","ready":true,"restartCount":0,"state":{"running":{}}}]}}]}"#,
    );
    // kubectl writes an empty list's items as null.
    write(
        dir.path(),
        "analytics/daemonsets.json",
        "{\n    \"kind\": \"DaemonSetList\",\n    \"apiVersion\": \"apps/v1\",\n    \"metadata\": {\n        \"resourceVersion\": \"426\"\n    },\n    \"items\": null\n}\n",
    );
    write(
        dir.path(),
        "analytics/orders-6bbcc77-rthsq/logs.txt",
        "==== START logs for container flink-main-container of pod analytics/orders-6bbcc77-rthsq ====\n\
         line 1\nline 2\nline 3: pods is forbidden\n\
         ==== END logs for container flink-main-container of pod analytics/orders-6bbcc77-rthsq ====\n\
         ==== START logs for container sidecar of pod analytics/orders-6bbcc77-rthsq ====\n\
         Request log error: the server could not find the requested resource\n\
         ==== END logs for container sidecar of pod analytics/orders-6bbcc77-rthsq ====\n",
    );
    write(
        dir.path(),
        "analytics/orders-taskmanager-1-1/logs.txt",
        "==== START logs for container flink-main-container of pod analytics/orders-taskmanager-1-1 ====\n\
         healthy\n\
         ==== END logs for container flink-main-container of pod analytics/orders-taskmanager-1-1 ====\n",
    );
    let options = LoadOptions { log_tail: Some(2) };
    let loaded = load_with(dir.path(), &options).unwrap();
    let s = &loaded.snapshot;
    assert_eq!(
        s.log(
            "analytics",
            "orders-6bbcc77-rthsq",
            "flink-main-container",
            false
        ),
        Some("line 2\nline 3: pods is forbidden\n"),
        "the tail of the block, markers left out"
    );
    assert_eq!(
        s.log("analytics", "orders-6bbcc77-rthsq", "sidecar", false),
        None,
        "kubectl's note that it got no log is no log"
    );
    assert_eq!(
        s.log(
            "analytics",
            "orders-taskmanager-1-1",
            "flink-main-container",
            false
        ),
        None,
        "a healthy container's log is not read"
    );
    assert!(
        loaded.skipped.is_empty(),
        "logs.txt is the dump's, not a stray file, and an empty list is a list: {:?}",
        loaded.skipped
    );
}

#[test]
fn a_dump_s_long_line_is_cut_and_its_log_kept() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a/jm/logs.txt",
        &format!(
            "==== START logs for container c of pod a/jm ====\n{}\nlast\n==== END logs for container c of pod a/jm ====\n",
            "z".repeat(1 << 20)
        ),
    );
    let got = super::logs::read_dump(&dir.path().join("a/jm/logs.txt"), None).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, LogKey::new("a", "jm", "c", false));
    assert!(got[0].1.len() < 70 * 1024, "{}", got[0].1.len());
    assert!(got[0].1.ends_with("\nlast\n"));
}

#[test]
fn an_oc_adm_inspect_folder_s_logs_are_read_without_the_kubelet_s_timestamps() {
    // The layout of openshift/oc's `adm inspect` (and must-gather): the pod's YAML beside one
    // folder per container, its logs two levels down, each line led by the kubelet's time.
    let dir = tempfile::tempdir().unwrap();
    // As must-gather nests it: its folder, then one named after the gather image.
    let pod = "must-gather.local.4711/quay-io-openshift-must-gather/namespaces/analytics/pods/orders-5df7cd8768-84qs7";
    write(
        dir.path(),
        &format!("{pod}/orders-5df7cd8768-84qs7.yaml"),
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: orders-5df7cd8768-84qs7\n  namespace: analytics\n  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}\n\
         spec:\n  containers: [{name: flink-main-container, image: \"flink:1.20\"}]\n\
         status:\n  phase: Running\n  containerStatuses:\n  - {name: flink-main-container, image: \"flink:1.20\", imageID: \"\", ready: false, restartCount: 3, state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {exitCode: 1, reason: Error}}}\n",
    );
    let logs = format!("{pod}/flink-main-container/flink-main-container/logs");
    write(
        dir.path(),
        &format!("{logs}/previous.log"),
        "2026-12-02T03:12:20.123456789Z Caused by: java.io.FileNotFoundException: JAR file does not exist '/opt/flink/usrlib/missing.jar'\n",
    );
    write(
        dir.path(),
        &format!("{logs}/previous.insecure.log"),
        "2026-12-02T03:12:20.123456789Z the twin, not read where the plain file is\n",
    );
    write(
        dir.path(),
        &format!("{logs}/current.insecure.log"),
        "2026-12-02T03:12:40.000000001Z Starting the JobManager\n",
    );
    let loaded = load_with(dir.path(), &LoadOptions { log_tail: Some(10) }).unwrap();
    let s = &loaded.snapshot;
    assert_eq!(
        s.log("analytics", "orders-5df7cd8768-84qs7", "flink-main-container", true),
        Some("Caused by: java.io.FileNotFoundException: JAR file does not exist '/opt/flink/usrlib/missing.jar'\n")
    );
    assert_eq!(
        s.log(
            "analytics",
            "orders-5df7cd8768-84qs7",
            "flink-main-container",
            false
        ),
        Some("Starting the JobManager\n"),
        "an .insecure twin stands in where the plain file is missing"
    );
}

#[test]
fn an_object_a_bundle_holds_twice_is_read_once() {
    // `oc adm inspect` writes each pod into the namespace's core/pods.yaml and into
    // pods/<pod>/<pod>.yaml.
    let dir = tempfile::tempdir().unwrap();
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: jm, namespace: a, labels: {app: o, component: jobmanager, type: flink-native-kubernetes}}\n";
    write(dir.path(), "namespaces/a/core/pods.yaml", &format!("apiVersion: v1\nkind: PodList\nitems:\n- {}\n", "{metadata: {name: jm, namespace: a, labels: {app: o, component: jobmanager, type: flink-native-kubernetes}}}"));
    write(dir.path(), "namespaces/a/pods/jm/jm.yaml", pod);
    write(
        dir.path(),
        "namespaces/b/pods/jm/jm.yaml",
        &pod.replace("namespace: a", "namespace: b"),
    );
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    let names: Vec<_> = loaded
        .snapshot
        .pods
        .iter()
        .map(|p| {
            (
                p.metadata
                    .namespace
                    .as_deref()
                    .unwrap_or_default()
                    .to_string(),
                p.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("a".to_string(), "jm".to_string()),
            ("b".to_string(), "jm".to_string())
        ]
    );
}

/// What explains a scheduling fault survives `--save` and `--from`: quotas, limits, the
/// namespace's labels, nodes (without their image lists) and priority classes.
#[test]
fn scheduling_context_is_saved_and_read_back_and_nodes_are_slim() {
    let y = r#"
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: flink}
spec: {hard: {requests.cpu: "4"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: flink}
spec: {limits: [{type: Container, max: {memory: 1Gi}}]}
---
apiVersion: v1
kind: Namespace
metadata: {name: flink, labels: {pod-security.kubernetes.io/enforce: restricted}}
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {pool: big}, managedFields: [{manager: kubelet}]}
spec: {taints: [{key: dedicated, value: kafka, effect: NoSchedule}], unschedulable: true, podCIDR: 10.0.0.0/24}
status:
  allocatable: {cpu: "2", memory: 4Gi}
  capacity: {cpu: "2", memory: 4Gi}
  conditions: [{type: Ready, status: "True"}]
  images: [{names: ["flink:1.20"], sizeBytes: 700000000}]
  nodeInfo: {kubeletVersion: v1.36.3, machineID: m, systemUUID: s, bootID: b, kernelVersion: k, osImage: o, containerRuntimeVersion: c, kubeProxyVersion: p, operatingSystem: linux, architecture: amd64}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: flink-high}
value: 1000
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.yaml"), y).unwrap();
    let loaded = load_with(dir.path(), &LoadOptions::default()).unwrap();
    assert!(loaded.skipped.is_empty(), "{:?}", loaded.skipped);
    let s = loaded.snapshot;
    assert_eq!(s.resource_quotas.len(), 1);
    assert_eq!(s.limit_ranges.len(), 1);
    assert_eq!(s.namespaces_objects.len(), 1);
    assert_eq!(s.priority_classes.len(), 1);
    let node = &s.nodes[0];
    let status = node.status.as_ref().unwrap();
    assert!(status.images.is_none() && status.node_info.is_none());
    assert_eq!(status.allocatable.as_ref().unwrap()["cpu"].0, "2");
    assert_eq!(status.conditions.as_ref().unwrap()[0].type_, "Ready");
    let spec = node.spec.as_ref().unwrap();
    assert_eq!(spec.taints.as_ref().unwrap()[0].key, "dedicated");
    assert_eq!(spec.unschedulable, Some(true));
    assert!(spec.pod_cidr.is_none());
    assert!(node.metadata.managed_fields.is_none());

    let out = tempfile::tempdir().unwrap();
    let saved = out.path().join("bundle");
    save(&s, &saved).unwrap();
    for file in [
        "resourcequotas",
        "limitranges",
        "namespaces",
        "nodes",
        "priorityclasses",
    ] {
        assert!(
            saved.join(format!("{file}.yaml")).exists(),
            "{file}.yaml not saved"
        );
    }
    let text = std::fs::read_to_string(saved.join("nodes.yaml")).unwrap();
    assert!(
        !text.contains("images") && !text.contains("flink:1.20"),
        "{text}"
    );
    let back = load(&saved).unwrap();
    assert_eq!(back.nodes, s.nodes);
    assert_eq!(back.limit_ranges, s.limit_ranges);
    assert_eq!(back.priority_classes, s.priority_classes);
    assert_eq!(
        back.namespaces_objects[0].metadata.labels.as_ref().unwrap()
            ["pod-security.kubernetes.io/enforce"],
        "restricted"
    );
    assert_eq!(back.resource_quotas, s.resource_quotas);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A support bundle as people send it: the canonical bundle as a `.tar.gz` (made as `tar czf
/// b.tar.gz canonical/` makes it) and as a `.zip` reads as the folder does, logs included.
#[test]
fn a_bundle_packed_as_tar_gz_or_zip_reads_as_its_folder() {
    use std::io::Write;
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/canonical"));
    let folder = load(root).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut tar = tar::Builder::new(Vec::new());
    tar.append_dir_all("canonical", root).unwrap();
    let tgz = dir.path().join("canonical.tgz");
    fs::write(&tgz, gzip(&tar.into_inner().unwrap())).unwrap();
    let zipped = dir.path().join("canonical.zip");
    let mut w = zip::ZipWriter::new(fs::File::create(&zipped).unwrap());
    for f in crate::files::find(root, &["yaml", "json", "log", "txt"], &|_| false)
        .unwrap()
        .files
    {
        let name = format!("canonical/{}", f.strip_prefix(root).unwrap().display());
        w.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(&fs::read(&f).unwrap()).unwrap();
    }
    w.finish().unwrap();
    for archive in [&tgz, &zipped] {
        let loaded = load_with(archive, &LoadOptions::default()).unwrap();
        let s = &loaded.snapshot;
        assert_eq!(s.flink_deployments.len(), folder.flink_deployments.len());
        assert_eq!(s.pods.len(), folder.pods.len());
        assert_eq!(s.events.len(), folder.events.len());
        assert!(!folder.logs.is_empty());
        assert_eq!(
            s.logs.keys().collect::<Vec<_>>(),
            folder.logs.keys().collect::<Vec<_>>(),
            "{}",
            archive.display()
        );
        assert_eq!(s.captured_at, folder.captured_at);
    }
}

/// A folder of `*.yaml.gz` is read; a file that does not inflate or parse is named and left out,
/// never fatal; an archive that holds nothing readable says what it held.
#[test]
fn compressed_files_are_read_and_one_that_does_not_decode_is_a_noted_gap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: orders-jm, namespace: a, labels: {component: jobmanager, app: orders, type: flink-native-kubernetes}}\n";
    fs::write(d.join("pods.yaml.gz"), gzip(pod.as_bytes())).unwrap();
    fs::write(d.join("broken.yaml.gz"), b"\x1f\x8b\x08\x00garbage").unwrap();
    fs::write(d.join("notes.txt.gz"), gzip(b"not an object")).unwrap();
    let loaded = load_with(d, &LoadOptions::default()).unwrap();
    assert_eq!(loaded.snapshot.pods.len(), 1);
    let notes = loaded.skipped.join("\n");
    assert!(
        notes.contains("broken.yaml.gz: not YAML or JSON (gzip: "),
        "{notes}"
    );
    assert!(!notes.contains("notes.txt.gz"), "{notes}");
    // An archive of nothing readable: the error says what the archive held.
    let tar = vec![0u8; 1024];
    let empty = d.join("empty.tar.gz");
    fs::write(
        &empty,
        gzip(&[b"\x1f\x8b garbage".as_slice(), &tar].concat()),
    )
    .unwrap();
    let e = load(&empty).unwrap_err().to_string();
    assert!(e.starts_with(&empty.display().to_string()), "{e}");
    assert!(e.contains("no Kubernetes object"), "{e}");
}

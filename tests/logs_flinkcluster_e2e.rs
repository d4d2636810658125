//! End-to-end tests of `kubectl flink logs NAME` for a FlinkCluster (the GCP/Spotify operator,
//! `flinkoperator.k8s.io`): the real binary against a real kube-apiserver, which proxies
//! `pods/log` to the fake kubelet serving files (scripts/test-cluster.sh).
//!
//! The pods carry the labels the operator gives them
//! (spotify/flink-on-k8s-operator@v0.6.0:controllers/flinkcluster/flinkcluster_converter.go:
//! `getClusterLabels` `app: flink`, `cluster: NAME`; `getComponentLabels` adds `component`; the
//! job submitter's pods, made by `newJob`, have the cluster labels only, and the Job controller
//! adds `job-name`). Beside FlinkCluster `orders`: FlinkCluster `billing`, and an Apache
//! operator deployment named `flink`, whose `app=flink` must not be confused with theirs.
//!
//! Run with `scripts/test-cluster.sh run cargo test --workspace` (or `--test
//! logs_flinkcluster_e2e`). Without the harness these tests FAIL when `CI` is set and print a loud
//! SKIPPED message otherwise.

mod common;
mod logs_common;
use logs_common::*;

use chrono::{Duration as ChronoDuration, Utc};

const OJM: &str = "orders-jobmanager-0";
const OTM0: &str = "orders-taskmanager-0";
const OTM1: &str = "orders-taskmanager-1";
const OTM2: &str = "orders-taskmanager-2";
const OSUB: &str = "orders-job-submitter-8xkqz";
const BJM: &str = "billing-jobmanager-0";
const APACHE_JM: &str = "flink-6b7d9f8c4-q2w3e";

fn labels(cluster: &str, component: &str) -> String {
    format!("{{app: flink, cluster: {cluster}, component: {component}}}")
}

struct Seeded {
    ns: String,
    _dir: tempfile::TempDir,
}

/// A namespace with FlinkCluster `orders` (JobManager with a sidecar, two TaskManagers, the job
/// submitter), FlinkCluster `billing`'s JobManager and an Apache deployment `flink`.
fn seed_flinkclusters(h: &Harness, test: &str) -> Seeded {
    let ns = unique_namespace("logs-fc", test);
    let now = Utc::now();
    let started = now - ChronoDuration::minutes(30);
    let dir = tempfile::tempdir().expect("temp dir");
    let b = dir.path();
    let submitter_labels = "{app: flink, cluster: orders, job-name: orders-job-submitter}";
    let apache_labels = "{app: flink, component: jobmanager, type: flink-native-kubernetes}";
    let oj = labels("orders", "jobmanager");
    let ot = labels("orders", "taskmanager");
    let bj = labels("billing", "jobmanager");
    // (pod, labels, containers, marker per container)
    let pods: [(&str, &str, &[&str], &[&str]); 6] = [
        (OJM, &oj, &["jobmanager", SIDECAR], &["OJM", "SHIPPER"]),
        (OTM0, &ot, &["taskmanager"], &["OTM0"]),
        (OTM1, &ot, &["taskmanager"], &["OTM1"]),
        (OSUB, submitter_labels, &["main"], &["SUBMITTER"]),
        (BJM, &bj, &["jobmanager"], &["BILLING"]),
        (APACHE_JM, apache_labels, &[MAIN], &["APACHE"]),
    ];
    let mut yaml = format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n");
    // The custom resource of `billing` (the seeder installs its CRD for it).
    yaml += &format!(
        "---\napiVersion: flinkoperator.k8s.io/v1beta1\nkind: FlinkCluster\nmetadata:\n  name: billing\n  \
         namespace: {ns}\nspec:\n  flinkVersion: '1.14'\n  image:\n    name: flink:1.14.2\n"
    );
    for (pod, l, containers, markers) in pods {
        let statuses: Vec<String> = containers
            .iter()
            .map(|c| container_status(c, 0, None, started))
            .collect();
        yaml += "---\n";
        yaml += &pod_yaml(&ns, pod, l, containers, &statuses, &h.node, started);
        for (c, m) in containers.iter().zip(markers.iter()) {
            let d = b.join("logs").join(&ns).join(pod);
            std::fs::create_dir_all(&d).expect("mkdir logs");
            std::fs::write(
                d.join(format!("{c}.log")),
                lines(m, 4, 1, now).join("\n") + "\n",
            )
            .expect("write log");
        }
    }
    std::fs::write(b.join("objects.yaml"), yaml).expect("write bundle");
    common::seed(b, &[]).unwrap_or_else(|e| panic!("{e}"));
    Seeded { ns, _dir: dir }
}

#[test]
fn a_flinkclusters_pods_by_the_operators_labels_submitter_included() {
    let Some(h) =
        harness_or_skip("a_flinkclusters_pods_by_the_operators_labels_submitter_included")
    else {
        return;
    };
    let s = seed_flinkclusters(h, "name");
    let ns = s.ns.as_str();

    // NAME: the JobManager (its component-named container, not the sidecar), the TaskManagers by
    // name, then the job submitter; never another FlinkCluster's pods nor the deployment `flink`.
    let (code, out, err) = flink(h, &["logs", "orders", "-n", ns]);
    assert_eq!(code, 0, "stderr: {err}");
    let jm = pos(&out, &format!("{OJM}/jobmanager "));
    let tm0 = pos(&out, &format!("{OTM0}/taskmanager "));
    let tm1 = pos(&out, &format!("{OTM1}/taskmanager "));
    let sub = pos(&out, &format!("{OSUB}/main "));
    for m in [
        "OJM line 0",
        "OTM0 line 3",
        "OTM1 line 0",
        "SUBMITTER line 3",
    ] {
        assert!(out.contains(m), "{m} not in:\n{out}");
    }
    assert!(jm < tm0 && tm0 < tm1 && tm1 < sub, "{out}");
    for other in ["SHIPPER", "BILLING", "APACHE"] {
        assert!(!out.contains(other), "{other} in:\n{out}");
    }

    // --component narrows to the operator's `component` label (the submitter has none).
    let (code, out, err) = flink(
        h,
        &["logs", "orders", "-n", ns, "--component", "taskmanager"],
    );
    assert_eq!(code, 0, "stderr: {err}");
    assert!(
        out.contains("OTM0 line") && out.contains("OTM1 line"),
        "{out}"
    );
    assert!(!out.contains("OJM") && !out.contains("SUBMITTER"), "{out}");

    // KIND/NAME: the FlinkCluster, never a pod query.
    let (code, out, err) = flink(h, &["logs", "flinkcluster/orders", "-n", ns]);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(
        out.contains("OJM line") && out.contains("SUBMITTER line"),
        "{out}"
    );
    assert!(!out.contains("BILLING"), "{out}");

    // A deployment named `flink` is that deployment only, though every FlinkCluster pod carries
    // app=flink.
    let (code, out, err) = flink(h, &["logs", "flink", "-n", ns]);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(out.contains("APACHE line"), "{out}");
    for other in ["OJM", "OTM0", "BILLING", "SUBMITTER"] {
        assert!(!out.contains(other), "{other} in:\n{out}");
    }

    // No NAME: every Flink pod of every mode, the submitter too.
    let (code, out, err) = flink(h, &["logs", "-n", ns]);
    assert_eq!(code, 0, "stderr: {err}");
    for m in ["OJM", "OTM1", "SUBMITTER", "BILLING", "APACHE"] {
        assert!(out.contains(&format!("{m} line")), "{m} not in:\n{out}");
    }
    assert_eq!(out.matches("OJM line 0").count(), 1, "one pod, read once");

    // A FlinkCluster without such pods: what was looked for, and that it exists.
    let (code, _, err) = flink(
        h,
        &["logs", "billing", "-n", ns, "--component", "taskmanager"],
    );
    assert_eq!(code, 2, "stderr: {err}");
    assert!(
        err.contains("`app=flink,cluster=billing,component=taskmanager`")
            && err.contains("FlinkCluster billing exists but has no such pods now"),
        "{err}"
    );
}

#[test]
fn follow_a_flinkcluster_picks_up_a_new_taskmanager() {
    let Some(h) = harness_or_skip("follow_a_flinkcluster_picks_up_a_new_taskmanager") else {
        return;
    };
    let s = seed_flinkclusters(h, "follow");
    let ns = s.ns.as_str();
    let fl = Follower::start(h, &["logs", "orders", "-n", ns, "-f"]);
    fl.wait_out("the JobManager's lines", "OJM line 3");
    fl.wait_out("the submitter's lines", "SUBMITTER line 3");

    // The operator scales the TaskManager StatefulSet: a new pod with its labels.
    let started = Utc::now();
    let dir = h.log_root.join(ns).join(OTM2);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("taskmanager.log"),
        format!("{} INFO  x [] - OTM2-FIRST\n", log4j(started)),
    )
    .expect("write the new pod's log");
    let pod = pod_yaml(
        ns,
        OTM2,
        &labels("orders", "taskmanager"),
        &["taskmanager"],
        &[],
        &h.node,
        started,
    );
    let spec_only = pod.split("status:").next().unwrap_or(&pod).to_string();
    kubectl(h, &["create", "-f", "-"], Some(&spec_only));
    let status = format!(
        "{{\"status\":{{\"phase\":\"Running\",\"containerStatuses\":[{{\"name\":\"taskmanager\",\"image\":\"flink:1.20\",\
         \"imageID\":\"x\",\"ready\":true,\"restartCount\":0,\"state\":{{\"running\":{{\"startedAt\":\"{}\"}}}}}}]}}}}",
        rfc3339(started)
    );
    kubectl(
        h,
        &[
            "-n",
            ns,
            "patch",
            "pod",
            OTM2,
            "--subresource=status",
            "--type=merge",
            "-p",
            &status,
        ],
        None,
    );
    fl.wait_err(
        "the new TaskManager noticed",
        &format!("pod/{OTM2} (TaskManager) appeared"),
    );
    fl.wait_out("the new TaskManager's first line", "OTM2-FIRST");

    // Another FlinkCluster's new pod is not followed.
    let pod = pod_yaml(
        ns,
        "billing-taskmanager-0",
        &labels("billing", "taskmanager"),
        &["taskmanager"],
        &[],
        &h.node,
        started,
    );
    let spec_only = pod.split("status:").next().unwrap_or(&pod).to_string();
    kubectl(h, &["create", "-f", "-"], Some(&spec_only));
    std::thread::sleep(std::time::Duration::from_secs(2));
    let (code, out, err) = fl.interrupt();
    assert_eq!(code, 0, "{err:?}");
    assert!(
        !err.iter().any(|l| l.contains("billing-taskmanager-0")),
        "{err:?}"
    );
    assert!(!out.iter().any(|l| l.contains("BILLING")), "{out:?}");
    assert_eq!(
        out.iter().filter(|l| l.contains("OJM line 0")).count(),
        1,
        "{out:?}"
    );
}

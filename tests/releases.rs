//! The Apache operator as its real releases install it: the Helm chart of three release tags,
//! rendered once (`helm template`, see `tests/releases/README.md`) and committed with its
//! provenance, diagnosed offline in five states of the operator's pod that the kubelet and the
//! scheduler write: healthy, scaled to 0, Pending for capacity, OOMKilled, a wrong image.
//!
//! Each case is a bundle written here from the rendered manifests: the release's objects as the
//! chart renders them (names, labels, selector, image, ServiceAccount, RBAC, CRDs), the namespace
//! they were rendered for, the Deployment's status and one pod from its template with the case's
//! status and events.

mod common;

use common::run::{findings, plugin, s};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The rendered releases: (folder under tests/releases/apache, namespace rendered for).
const RELEASES: &[&str] = &["release-1.4.0", "release-1.8.0", "release-1.15.0"];

fn rendered(tag: &str) -> PathBuf {
    common::repo()
        .join("tests/releases/apache")
        .join(tag)
        .join("rendered.yaml")
}

fn namespace(tag: &str) -> String {
    format!(
        "rel-{}-op",
        tag.trim_start_matches("release-").replace('.', "-")
    )
}

/// The rendered documents, each a JSON value.
fn documents(tag: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(rendered(tag)).unwrap();
    serde_yaml::Deserializer::from_str(&text)
        .filter_map(|d| {
            let v: Value = serde::Deserialize::deserialize(d).ok()?;
            (v.is_object() && v.get("kind").is_some()).then_some(v)
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Healthy,
    ScaledToZero,
    Pending,
    OomKilled,
    WrongImage,
}

const CASES: [Case; 5] = [
    Case::Healthy,
    Case::ScaledToZero,
    Case::Pending,
    Case::OomKilled,
    Case::WrongImage,
];

const T0: &str = "2026-11-20T09:00:00Z";
const T1: &str = "2026-11-20T09:30:00Z";

/// The bundle of one release in one case, written into `dir`.
fn bundle(tag: &str, case: Case, dir: &Path) {
    let ns = namespace(tag);
    let mut objects = vec![
        json!({"apiVersion": "v1", "kind": "Namespace",
               "metadata": {"name": ns, "labels": {"kubernetes.io/metadata.name": ns}}}),
        json!({"apiVersion": "v1", "kind": "ServiceAccount",
               "metadata": {"name": "default", "namespace": ns}}),
    ];
    let mut pod = None;
    let mut events = Vec::new();
    for mut v in documents(tag) {
        if v["kind"] == "Deployment" {
            let name = v["metadata"]["name"].as_str().unwrap().to_string();
            let template = v["spec"]["template"].clone();
            let replicas = if case == Case::ScaledToZero { 0 } else { 1 };
            v["spec"]["replicas"] = json!(replicas);
            let ready = case == Case::Healthy;
            v["status"] = json!({
                "observedGeneration": 1,
                "replicas": replicas,
                "readyReplicas": if ready { json!(1) } else { Value::Null },
                "availableReplicas": if ready { json!(1) } else { Value::Null },
                "unavailableReplicas": if ready || replicas == 0 { Value::Null } else { json!(1) },
                "conditions": [{
                    "type": "Available",
                    "status": if ready || replicas == 0 { "True" } else { "False" },
                    "reason": if ready || replicas == 0 { "MinimumReplicasAvailable" } else { "MinimumReplicasUnavailable" },
                    "message": if ready || replicas == 0 { "Deployment has minimum availability." } else { "Deployment does not have minimum availability." },
                    "lastUpdateTime": T0, "lastTransitionTime": T0
                }]
            });
            if replicas > 0 {
                let (p, e) = operator_pod(&ns, &name, &template, case);
                pod = Some(p);
                events.extend(e);
            }
        }
        objects.push(v);
    }
    objects.extend(pod);
    objects.extend(events);
    let text = objects
        .iter()
        .map(|o| serde_yaml::to_string(o).unwrap())
        .collect::<Vec<_>>()
        .join("---\n");
    std::fs::write(dir.join("objects.yaml"), text).unwrap();
}

/// The Deployment's one pod, as the kubelet reports it in `case`, and the events it has.
fn operator_pod(ns: &str, deployment: &str, template: &Value, case: Case) -> (Value, Vec<Value>) {
    let name = format!("{deployment}-5d8f9c7b6d-q7x2k");
    let mut spec = template["spec"].clone();
    let containers: Vec<String> = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    if case == Case::WrongImage {
        for c in spec["containers"].as_array_mut().unwrap() {
            c["image"] = json!("ghcr.io/apache/flink-kubernetes-operator:0.0.0-nonexistent");
        }
    }
    spec["nodeName"] = if case == Case::Pending {
        Value::Null
    } else {
        json!("node-1")
    };
    let images: Vec<String> = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["image"].as_str().unwrap_or("").to_string())
        .collect();
    let running = |c: &str, i: &str| {
        json!({"name": c, "image": i, "imageID": "", "ready": true, "started": true,
               "restartCount": 0, "state": {"running": {"startedAt": T0}}})
    };
    let statuses: Vec<Value> = containers
        .iter()
        .zip(&images)
        .enumerate()
        .map(|(n, (c, i))| match case {
            Case::OomKilled if n == 0 => json!({
                "name": c, "image": i, "imageID": "", "ready": false, "started": false,
                "restartCount": 6,
                "state": {"waiting": {"reason": "CrashLoopBackOff",
                    "message": format!("back-off 5m0s restarting failed container={c} pod={name}")}},
                "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137,
                    "startedAt": "2026-11-20T09:28:00Z", "finishedAt": "2026-11-20T09:28:40Z"}}
            }),
            Case::WrongImage => json!({
                "name": c, "image": i, "imageID": "", "ready": false, "started": false,
                "restartCount": 0,
                "state": {"waiting": {"reason": "ImagePullBackOff",
                    "message": format!("Back-off pulling image \"{i}\"")}}
            }),
            _ => running(c, i),
        })
        .collect();
    let ready = matches!(case, Case::Healthy);
    let mut status = json!({
        "phase": if case == Case::Pending { "Pending" } else { "Running" },
        "startTime": T0,
        "qosClass": "Burstable",
        "conditions": [
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": T0},
            {"type": "Initialized", "status": "True", "lastTransitionTime": T0},
            {"type": "ContainersReady", "status": if ready { "True" } else { "False" }, "lastTransitionTime": T0},
            {"type": "Ready", "status": if ready { "True" } else { "False" }, "lastTransitionTime": T0}
        ],
        "containerStatuses": statuses,
    });
    let mut events = Vec::new();
    let event = |reason: &str, kind: &str, message: String, component: &str| {
        json!({"apiVersion": "v1", "kind": "Event",
               "metadata": {"name": format!("{name}.{}", reason.to_lowercase()), "namespace": ns},
               "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": ns, "name": name},
               "reason": reason, "type": kind, "message": message, "count": 12,
               "firstTimestamp": T0, "lastTimestamp": T1, "source": {"component": component}})
    };
    match case {
        Case::Pending => {
            let why = "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
            status = json!({
                "phase": "Pending",
                "qosClass": "Burstable",
                "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                "message": why, "lastTransitionTime": T0}]
            });
            events.push(event(
                "FailedScheduling",
                "Warning",
                why.to_string(),
                "default-scheduler",
            ));
        }
        Case::WrongImage => {
            events.push(event(
                "Failed",
                "Warning",
                format!(
                    "Failed to pull image \"{}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{}\": failed to resolve reference \"{}\": {}: not found",
                    images[0], images[0], images[0], images[0]
                ),
                "kubelet",
            ));
        }
        _ => {}
    }
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": name, "namespace": ns,
            "labels": template["metadata"]["labels"],
            "annotations": template["metadata"]["annotations"],
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                "name": format!("{deployment}-5d8f9c7b6d"), "uid": "7d0c1e2f-0000-4000-8000-000000000001",
                "controller": true, "blockOwnerDeletion": true}]
        },
        "spec": spec,
        "status": status,
    });
    (pod, events)
}

/// (rule, category) of every finding, in report order, and the exit code.
fn diagnose(tag: &str, case: Case) -> (i32, Vec<(String, String, String)>, String) {
    let dir = tempfile::tempdir().unwrap();
    bundle(tag, case, dir.path());
    let run = plugin(
        None,
        &[
            "doctor",
            "--from",
            dir.path().to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    let report = run.json();
    let got = findings(&report)
        .iter()
        .map(|f| {
            (
                s(f, "/rule").to_string(),
                s(f, "/category").to_string(),
                s(f, "/title").to_string(),
            )
        })
        .collect();
    (run.code, got, run.stderr)
}

#[test]
fn every_release_in_every_case_is_diagnosed_right() {
    let mut failures = Vec::new();
    for tag in RELEASES {
        for case in CASES {
            let (code, got, stderr) = diagnose(tag, case);
            let rules: Vec<(&str, &str)> = got
                .iter()
                .map(|(r, c, _)| (r.as_str(), c.as_str()))
                .collect();
            let want: &[(&str, &str)] = match case {
                Case::Healthy => &[],
                Case::ScaledToZero => &[("FLK003", "operator_not_running")],
                Case::Pending => &[
                    ("FLK106", "pod_unschedulable"),
                    ("FLK003", "operator_not_running"),
                ],
                Case::OomKilled => &[("FLK003", "operator_not_running")],
                Case::WrongImage => &[("FLK003", "operator_not_running")],
            };
            let title_says = match case {
                Case::OomKilled => Some("OOMKilled"),
                Case::ScaledToZero => Some("0 replicas"),
                Case::WrongImage => Some("image"),
                _ => None,
            };
            // Healthy: nothing to report, and no Flink deployment in scope either (the rendering
            // holds the operator only): exit 4, as `doctor --help` documents.
            let want_code = if want.is_empty() { 4 } else { 1 };
            let title_ok = title_says.is_none_or(|w| got.iter().any(|(_, _, t)| t.contains(w)));
            println!("{tag} {case:?}: exit {code}, {got:?}");
            if rules != want || code != want_code || !title_ok {
                failures.push(format!(
                    "{tag} {case:?}: exit {code}, got {got:#?}, want {want:?} (title with {title_says:?})\n{stderr}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The committed renderings are the chart's, for the namespace the cases use, and each says
/// where it comes from.
#[test]
fn each_rendering_has_its_provenance() {
    for tag in RELEASES {
        let docs = documents(tag);
        let deployment = docs
            .iter()
            .find(|d| d["kind"] == "Deployment")
            .unwrap_or_else(|| panic!("{tag}: no Deployment rendered"));
        assert_eq!(
            deployment["metadata"]["namespace"],
            json!(namespace(tag)),
            "{tag}"
        );
        let provenance =
            std::fs::read_to_string(rendered(tag).with_file_name("provenance.txt")).unwrap();
        assert!(
            provenance.contains(&format!("apache/flink-kubernetes-operator@{tag}")),
            "{tag}: {provenance}"
        );
    }
}

//! The watch's stores at fleet scale, in one process and without an API server: the objects of
//! `scripts/gen-bench-bundle.py` (N FlinkDeployments in 20 namespaces, M pods, every tenth
//! deployment failing), made here one at a time as the API server would send them, go through the
//! watch's own decoding (`cluster::watch::Stores::apply`), then doctor's rules over the whole
//! snapshot (the watch's first diagnosis), then one deployment changes and its namespace is
//! diagnosed again (the watch's steady state).
//!
//! A benchmark, not a timed test (ignored by default; it fails only if the stores lose objects or
//! the diagnosis misses the failing deployments): `scripts/bench-watch.sh --stores [N] [M]` runs it
//! and prints the RSS and times. The end-to-end figures on the test cluster are
//! `scripts/bench-watch.sh`'s; seeding 100,000 pods into the test cluster takes longer than a run,
//! which is why this measures the full scale in-process.

use kube::api::DynamicObject;
use kube::runtime::watcher::Event;
use kubectl_flink::cluster::watch::{Dirty, Stores};
use kubectl_flink::commands::watch::State;
use kubectl_flink::flink::kinds::{self, LISTED};
use serde_json::{json, Value};
use std::time::Instant;

fn env_or(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn status_mb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<u64>().ok())
        .unwrap_or(0)
        / 1024
}

fn container_status(name: &str, restarts: u32, exit: Option<i32>, waiting: Option<&str>) -> Value {
    let mut st = json!({"name": name, "image": "flink:1.20", "imageID": "",
        "ready": exit.is_none(), "restartCount": restarts});
    match waiting {
        Some(reason) => {
            st["state"] = json!({"waiting": {"reason": reason}});
            st["lastState"] = json!({"terminated": {"exitCode": exit,
                "reason": if exit == Some(0) { "Completed" } else { "Error" },
                "finishedAt": "2026-11-28T09:39:13Z"}});
        }
        None => st["state"] = json!({"running": {"startedAt": "2026-11-28T09:00:00Z"}}),
    }
    st
}

/// Deployment `d` of scripts/gen-bench-bundle.py (operator mode), as a watch delivers it: with the
/// server's bookkeeping (uid, resourceVersion, managedFields), which the stores drop.
fn flink_deployment(d: usize, rv: u64) -> DynamicObject {
    let (ns, name, broken) = (
        format!("team-{}", d % 20),
        format!("job-{d}"),
        d.is_multiple_of(10),
    );
    let container = if broken {
        "flink-job-manager"
    } else {
        "flink-main-container"
    };
    serde_json::from_value(json!({
        "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
        "metadata": bookkeeping(&ns, &name, json!({}), rv),
        "spec": {"image": "flink:1.20", "flinkVersion": "v1_20",
            "serviceAccount": if broken { "default" } else { "flink" },
            "jobManager": {"resource": {"memory": "2048m", "cpu": 1},
                "podTemplate": {"spec": {"containers": [{"name": container}]}}},
            "taskManager": {"resource": {"memory": "2048m", "cpu": 1}},
            "job": {"jarURI": "local:///opt/flink/usrlib/job.jar", "parallelism": 2,
                "upgradeMode": "stateless"}},
        "status": {"jobManagerDeploymentStatus": if broken { "ERROR" } else { "READY" },
            "lifecycleState": if broken { "DEPLOYED" } else { "STABLE" },
            "jobStatus": {"state": if broken { "RECONCILING" } else { "RUNNING" }}}
    }))
    .unwrap()
}

fn bookkeeping(ns: &str, name: &str, labels: Value, rv: u64) -> Value {
    json!({"name": name, "namespace": ns, "labels": labels,
        "uid": format!("00000000-0000-0000-0000-{rv:012}"), "resourceVersion": rv.to_string(),
        "creationTimestamp": "2026-11-28T09:00:00Z",
        "managedFields": [{"manager": "kubectl-flink-seed", "operation": "Apply",
            "apiVersion": "v1", "time": "2026-11-28T09:00:00Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}, "f:component": {}, "f:type": {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"flink-main-container\"}": {".": {},
                "f:image": {}, "f:name": {}}}}}}]})
}

/// Pod `p` of deployment `d` (`per` pods each: a JobManager, then TaskManagers).
fn pod(d: usize, p: usize, rv: u64) -> DynamicObject {
    let (ns, name, broken) = (
        format!("team-{}", d % 20),
        format!("job-{d}"),
        d.is_multiple_of(10),
    );
    let jm = p == 0;
    let pod_name = if jm {
        format!("{name}-5d8f9c7b6d-jm{p}")
    } else {
        format!("{name}-taskmanager-1-{p}")
    };
    let statuses = if jm && broken {
        vec![
            container_status(
                "flink-main-container",
                6,
                Some(239),
                Some("CrashLoopBackOff"),
            ),
            container_status("flink-job-manager", 9, Some(0), Some("CrashLoopBackOff")),
        ]
    } else {
        vec![container_status("flink-main-container", 0, None, None)]
    };
    let containers: Vec<Value> = statuses
        .iter()
        .map(|s| json!({"name": s["name"], "image": "flink:1.20"}))
        .collect();
    let labels = json!({"app": name, "component": if jm { "jobmanager" } else { "taskmanager" },
        "type": "flink-native-kubernetes"});
    serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": bookkeeping(&ns, &pod_name, labels, rv),
        "spec": {"serviceAccountName": if broken { "default" } else { "flink" },
            "restartPolicy": if jm { "Always" } else { "Never" },
            "nodeName": "fake-node", "containers": containers},
        "status": {"phase": "Running", "containerStatuses": statuses}
    }))
    .unwrap()
}

fn diagnose(stores: &Stores, dirty: &Dirty, state: &mut State) -> usize {
    let (snapshot, gaps) = stores.snapshot(dirty);
    let report = kubectl_flink::commands::doctor::diagnose(&snapshot, None, None).unwrap();
    let lines = kubectl_flink::commands::overview::clusters(&snapshot, &report, None);
    let at = snapshot.captured_at;
    drop(snapshot);
    state.update(dirty, report, lines, gaps, at);
    kubectl_flink::commands::watch::release_freed_memory();
    state.report.findings.len()
}

#[test]
#[ignore = "a benchmark: scripts/bench-watch.sh --stores"]
fn the_stores_at_fleet_scale() {
    let n = env_or("BENCH_DEPLOYMENTS", 10_000);
    let m = env_or("BENCH_PODS", 100_000);
    let per = (m / n).max(1);
    let index = |k: &kinds::Kind| LISTED.iter().position(|l| l.kind == *k).unwrap();
    let (fd, po) = (index(&kinds::FLINK_DEPLOYMENT), index(&kinds::POD));
    let base = status_mb("VmRSS:");

    let stores = Stores::new(None, Box::new(|_, _| {}));
    let start = Instant::now();
    let mut rv = 1;
    for (i, _) in LISTED.iter().enumerate() {
        stores.apply(i, Event::Init);
        if i == fd {
            for d in 0..n {
                rv += 1;
                stores.apply(i, Event::InitApply(flink_deployment(d, rv)));
            }
        }
        if i == po {
            for d in 0..n {
                for p in 0..per {
                    rv += 1;
                    stores.apply(i, Event::InitApply(pod(d, p, rv)));
                }
            }
        }
        stores.apply(i, Event::InitDone);
    }
    assert!(stores.ready());
    assert_eq!(stores.len(), n + n * per);
    let listed = start.elapsed();
    let held = status_mb("VmRSS:");
    eprintln!(
        "watch_scale: {n} FlinkDeployments and {} pods listed into the stores in {listed:.1?}: RSS {held} MB ({base} MB before)",
        n * per
    );

    // The first diagnosis: every namespace.
    let mut state = State::default();
    let start = Instant::now();
    let findings = diagnose(&stores, &stores.take_dirty(), &mut state);
    let broken = state.lines.iter().filter(|l| !l.healthy()).count();
    eprintln!(
        "watch_scale: first diagnosis (all namespaces) in {:.1?}: {findings} findings, {broken} deployments unhealthy; RSS {} MB (peak {} MB)",
        start.elapsed(),
        status_mb("VmRSS:"),
        status_mb("VmHWM:")
    );
    assert_eq!(broken, n.div_ceil(10), "every tenth deployment fails");

    // Steady state: one deployment changes (job-0 deleted with its pods), its namespace again.
    let start = Instant::now();
    stores.apply(fd, Event::Delete(flink_deployment(0, 0)));
    for p in 0..per {
        stores.apply(po, Event::Delete(pod(0, p, 0)));
    }
    let dirty = stores.take_dirty();
    assert_eq!(dirty, Dirty::Namespaces(["team-0".to_string()].into()));
    diagnose(&stores, &dirty, &mut state);
    let took = start.elapsed();
    assert!(
        !state
            .report
            .findings
            .iter()
            .any(|f| f.deployment.as_ref().is_some_and(|d| d.name == "job-0")),
        "job-0 is gone"
    );
    eprintln!(
        "watch_scale: one deployment deleted -> its namespace diagnosed again in {took:.1?}; steady-state RSS {} MB (peak {} MB)",
        status_mb("VmRSS:"),
        status_mb("VmHWM:")
    );
}

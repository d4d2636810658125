#!/usr/bin/env python3
"""Generate an offline bundle for the doctor benchmark: N FlinkDeployments with M pods each.

Usage: scripts/gen-bench-bundle.py OUT_DIR [--deployments 200] [--pods 2000] [--mode operator|native]

--mode native makes plain native clusters instead (Flink's native Kubernetes integration with no
operator: a JobManager Deployment `<cluster-id>` and its `flink-config-<cluster-id>` ConfigMap, no
FlinkDeployment), which the diagnosis finds from their labels alone.

A tenth of the deployments carry the canonical failures (misnamed JobManager container, default
ServiceAccount with a 403 in the previous log, exit codes 0 and 239); the rest are healthy. Output
is deterministic. Plain JSON, one List per file, as `kubectl get -o json` prints it.
"""
import argparse
import json
import os

LOG_403 = (
    "org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: "
    "Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/{ns}/pods"
    "?labelSelector=app%3D{name}%2Ccomponent%3Dtaskmanager&watch=true. Message: pods is forbidden: "
    'User "system:serviceaccount:{ns}:default" cannot watch resource "pods" in API group "" in the namespace "{ns}".'
)
HEALTHY_LINE = "2026-11-28 09:39:{s:02d},118 INFO  org.apache.flink.runtime.taskexecutor.TaskExecutor [] - heartbeat {i}\n"


def container_status(name, restarts=0, exit_code=None, waiting=None):
    st = {"name": name, "image": "flink:1.20", "imageID": "", "ready": exit_code is None, "restartCount": restarts}
    if waiting:
        st["state"] = {"waiting": {"reason": waiting}}
        st["lastState"] = {"terminated": {"exitCode": exit_code, "reason": "Completed" if exit_code == 0 else "Error",
                                          "finishedAt": "2026-11-28T09:39:13Z"}}
    else:
        st["state"] = {"running": {"startedAt": "2026-11-28T09:00:00Z"}}
    return st


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--deployments", type=int, default=200)
    ap.add_argument("--pods", type=int, default=2000)
    ap.add_argument("--log-lines", type=int, default=200)
    ap.add_argument("--mode", choices=["operator", "native"], default="operator")
    a = ap.parse_args()
    per = max(1, a.pods // a.deployments)
    fds, pods, k8s_deployments, config_maps = [], [], [], []
    os.makedirs(a.out, exist_ok=True)
    for d in range(a.deployments):
        ns, name = f"team-{d % 20}", f"job-{d}"
        broken = d % 10 == 0
        containers = [{"name": "flink-job-manager"}] if broken else [{"name": "flink-main-container"}]
        sa = "default" if broken else "flink"
        labels = {"app": name, "type": "flink-native-kubernetes"}
        if a.mode == "native":
            jm_labels = dict(labels, component="jobmanager")
            k8s_deployments.append({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": ns, "labels": jm_labels,
                             "creationTimestamp": "2026-11-28T09:00:00Z"},
                "spec": {"replicas": 1, "selector": {"matchLabels": jm_labels},
                         "template": {"metadata": {"labels": jm_labels},
                                      "spec": {"serviceAccountName": sa,
                                               "containers": [{"name": "flink-main-container", "image": "flink:1.20"}]}}},
                "status": {"replicas": 1, "readyReplicas": 0 if broken else 1},
            })
            config_maps.append({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": f"flink-config-{name}", "namespace": ns, "labels": labels},
                "data": {"config.yaml": f"kubernetes.cluster-id: {name}\ntaskmanager.numberOfTaskSlots: 2\n"},
            })
        else:
            fds.append({
                "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
                "metadata": {"name": name, "namespace": ns, "creationTimestamp": "2026-11-28T09:00:00Z"},
                "spec": {"image": "flink:1.20", "flinkVersion": "v1_20", "serviceAccount": sa,
                         "jobManager": {"resource": {"memory": "2048m", "cpu": 1}, "podTemplate": {"spec": {"containers": containers}}},
                         "taskManager": {"resource": {"memory": "2048m", "cpu": 1}},
                         "job": {"jarURI": "local:///opt/flink/usrlib/job.jar", "parallelism": 2, "upgradeMode": "stateless"}},
                "status": {"jobManagerDeploymentStatus": "ERROR" if broken else "READY",
                           "lifecycleState": "DEPLOYED" if broken else "STABLE",
                           "jobStatus": {"state": "RECONCILING" if broken else "RUNNING"}},
            })
        for p in range(per):
            jm = p == 0
            pod_name = f"{name}-5d8f9c7b6d-jm{p}" if jm else f"{name}-taskmanager-1-{p}"
            labels = {"app": name, "component": "jobmanager" if jm else "taskmanager", "type": "flink-native-kubernetes"}
            statuses = [container_status("flink-main-container")]
            if jm and broken:
                statuses = [container_status("flink-main-container", 6, 239, "CrashLoopBackOff"),
                            container_status("flink-job-manager", 9, 0, "CrashLoopBackOff")]
            pods.append({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": pod_name, "namespace": ns, "labels": labels},
                "spec": {"serviceAccountName": sa, "restartPolicy": "Always" if jm else "Never",
                         "containers": [{"name": s["name"], "image": "flink:1.20"} for s in statuses]},
                "status": {"phase": "Running", "containerStatuses": statuses},
            })
            logdir = os.path.join(a.out, "logs", ns, pod_name)
            os.makedirs(logdir, exist_ok=True)
            with open(os.path.join(logdir, "flink-main-container.log"), "w") as f:
                f.writelines(HEALTHY_LINE.format(s=i % 60, i=i) for i in range(a.log_lines))
            if jm and broken:
                with open(os.path.join(logdir, "flink-main-container.previous.log"), "w") as f:
                    f.writelines(HEALTHY_LINE.format(s=i % 60, i=i) for i in range(a.log_lines))
                    f.write(LOG_403.format(ns=ns, name=name) + "\n")
    files = (("flinkdeployments.json", fds), ("pods.json", pods), ("deployments.json", k8s_deployments),
             ("configmaps.json", config_maps))
    for fname, items in files:
        if not items:
            continue
        with open(os.path.join(a.out, fname), "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
    clusters = f"{len(fds)} FlinkDeployments" if a.mode == "operator" else f"{len(k8s_deployments)} plain native clusters"
    print(f"{a.out}: {clusters}, {len(pods)} pods")


if __name__ == "__main__":
    main()

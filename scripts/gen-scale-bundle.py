#!/usr/bin/env python3
"""Generate the fleet-scale inputs of scripts/bench-scale.sh (deterministic output).

  gen-scale-bundle.py failing-tms OUT_DIR N   one FlinkDeployment whose N TaskManager pods all fail
                                              (CrashLoopBackOff after exit 239, OOMKilled, exit 1),
                                              its JobManager healthy; the pods in one `kind: List`
  gen-scale-bundle.py namespaces OUT_DIR N E  N healthy FlinkDeployments, one per namespace with its
                                              ServiceAccount, Role and RoleBinding, plus E empty
                                              namespaces (N + E Namespace objects)
  gen-scale-bundle.py lint OUT_FILE N         one YAML stream of N FlinkDeployments, a tenth of them
                                              with the misnamed JobManager container and the
                                              default ServiceAccount
"""
import json
import os
import sys

STARTED = "2026-11-28T09:00:00Z"


def flink_deployment(ns, name, healthy=True):
    return {
        "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
        "metadata": {"name": name, "namespace": ns, "creationTimestamp": STARTED},
        "spec": {"image": "flink:1.20", "flinkVersion": "v1_20", "serviceAccount": "flink",
                 "jobManager": {"resource": {"memory": "2048m", "cpu": 1}},
                 "taskManager": {"resource": {"memory": "2048m", "cpu": 1}},
                 "job": {"jarURI": "local:///opt/flink/usrlib/job.jar", "parallelism": 2, "upgradeMode": "stateless"}},
        "status": {"jobManagerDeploymentStatus": "READY" if healthy else "DEPLOYING",
                   "lifecycleState": "STABLE" if healthy else "DEPLOYED",
                   "jobStatus": {"state": "RUNNING" if healthy else "RECONCILING"}},
    }


def tm_status(i):
    """The i-th TaskManager's container status: three kinds of failure in turn."""
    st = {"name": "flink-main-container", "image": "flink:1.20", "imageID": "", "ready": False,
          "restartCount": 5 + i % 7}
    kind = i % 3
    if kind == 0:
        st["state"] = {"waiting": {"reason": "CrashLoopBackOff",
                                   "message": "back-off 5m0s restarting failed container"}}
        st["lastState"] = {"terminated": {"exitCode": 239, "reason": "Error", "finishedAt": "2026-11-28T09:39:13Z"}}
    elif kind == 1:
        st["state"] = {"waiting": {"reason": "CrashLoopBackOff",
                                   "message": "back-off 5m0s restarting failed container"}}
        st["lastState"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "finishedAt": "2026-11-28T09:39:13Z"}}
    else:
        st["state"] = {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-11-28T09:39:13Z"}}
    return st


def pod(ns, name, component, status, app, i=0):
    """A pod about as large as the API server's (~1.9 KB of JSON): owner, env, resources, volumes,
    conditions; the rules read few of these fields, the reader must still skip the rest."""
    main = {"name": "flink-main-container", "image": "flink:1.20", "imagePullPolicy": "IfNotPresent",
            "env": [{"name": "ENABLE_BUILT_IN_PLUGINS", "value": "flink-s3-fs-presto-1.20.0.jar"},
                    {"name": "_POD_IP_ADDRESS", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}],
            "resources": {"limits": {"cpu": "1", "memory": "2Gi"}, "requests": {"cpu": "1", "memory": "2Gi"}},
            "volumeMounts": [{"mountPath": "/opt/flink/conf", "name": "flink-config-volume"}]}
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "creationTimestamp": STARTED,
                     "uid": f"3f2b{i:08d}-0c1d-4e5f-8a9b-0123456789ab", "resourceVersion": str(100000 + i),
                     "labels": {"app": app, "component": component, "type": "flink-native-kubernetes"},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment" if component == "jobmanager" else "ReplicaSet",
                                          "name": app, "uid": "9a8b7c6d-0000-4e5f-8a9b-0123456789ab",
                                          "controller": True, "blockOwnerDeletion": True}]},
        "spec": {"serviceAccountName": "flink", "restartPolicy": "Always" if component == "jobmanager" else "Never",
                 "nodeName": f"node-{i % 300}", "containers": [main],
                 "volumes": [{"name": "flink-config-volume", "configMap": {"name": f"flink-config-{app}", "defaultMode": 420}}]},
        "status": {"phase": "Running", "hostIP": "10.0.3.17", "podIP": f"10.1.{i // 250 % 250}.{i % 250}",
                   "startTime": STARTED, "qosClass": "Guaranteed",
                   "conditions": [{"type": t, "status": "False", "lastTransitionTime": STARTED,
                                   "reason": "ContainersNotReady"} for t in ("Ready", "ContainersReady")],
                   "containerStatuses": [status]},
    }


def write_list(path, items):
    with open(path, "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items}, f)


def failing_tms(out, n):
    os.makedirs(out, exist_ok=True)
    ns, app = "analytics", "orders"
    write_list(os.path.join(out, "flinkdeployments.json"), [flink_deployment(ns, app, healthy=False)])
    running = {"name": "flink-main-container", "image": "flink:1.20", "imageID": "", "ready": True,
               "restartCount": 0, "state": {"running": {"startedAt": STARTED}}}
    with open(os.path.join(out, "pods.json"), "w") as f:
        # Written item by item: the List of 100,000 pods is never whole in this script's memory.
        f.write('{"apiVersion": "v1", "kind": "List", "metadata": {}, "items": [')
        f.write(json.dumps(pod(ns, f"{app}-5d8f9c7b6d-x7k2p", "jobmanager", running, app)))
        for i in range(1, n + 1):
            f.write(",")
            f.write(json.dumps(pod(ns, f"{app}-taskmanager-{1 + i // 1000}-{i}", "taskmanager", tm_status(i), app, i)))
        f.write("]}")
    print(f"{out}: 1 FlinkDeployment, {n} failing TaskManager pods")


def namespaces(out, n, empty):
    os.makedirs(out, exist_ok=True)
    write_list(os.path.join(out, "namespaces.json"),
               [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": f"team-{i}"},
                 "status": {"phase": "Active"}} for i in range(n + empty)])
    write_list(os.path.join(out, "flinkdeployments.json"),
               [flink_deployment(f"team-{i}", f"job-{i}") for i in range(n)])
    # What the operator's Helm chart puts in each namespace it watches: the `flink`
    # ServiceAccount, its Role and the RoleBinding (helm/flink-kubernetes-operator/templates/rbac).
    write_list(os.path.join(out, "serviceaccounts.json"),
               [{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "flink", "namespace": f"team-{i}"}}
                for i in range(n)])
    write_list(os.path.join(out, "roles.json"),
               [{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                 "metadata": {"name": "flink", "namespace": f"team-{i}"},
                 "rules": [{"apiGroups": [""], "resources": ["pods", "configmaps"], "verbs": ["*"]},
                           {"apiGroups": ["apps"], "resources": ["deployments", "deployments/finalizers"], "verbs": ["*"]}]}
                for i in range(n)])
    write_list(os.path.join(out, "rolebindings.json"),
               [{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                 "metadata": {"name": "flink-role-binding", "namespace": f"team-{i}"},
                 "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "flink"},
                 "subjects": [{"kind": "ServiceAccount", "name": "flink"}]}
                for i in range(n)])
    print(f"{out}: {n} FlinkDeployments in {n} namespaces (with the flink ServiceAccount, Role and "
          f"RoleBinding), {empty} empty namespaces")


def lint(out, n):
    with open(out, "w") as f:
        for i in range(n):
            broken = i % 10 == 0
            container = "flink-job-manager" if broken else "flink-main-container"
            f.write(f"""---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: job-{i}
  namespace: team-{i % 20}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: {"default" if broken else "flink"}
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
  jobManager:
    resource: {{memory: 2048m, cpu: 1}}
    podTemplate:
      spec:
        containers:
          - name: {container}
            image: flink:1.20
  taskManager:
    resource: {{memory: 2048m, cpu: 1}}
  job:
    jarURI: local:///opt/flink/usrlib/job.jar
    parallelism: 2
    upgradeMode: stateless
""")
    print(f"{out}: {n} FlinkDeployments in one YAML stream")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    what, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if what == "failing-tms":
        failing_tms(out, n)
    elif what == "namespaces":
        namespaces(out, n, int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    elif what == "lint":
        lint(out, n)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

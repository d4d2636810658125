//! The bundles of the release fixtures, shared by the offline check (tests/releases.rs) and the
//! live one (tests/releases_e2e.rs): for each operator's release, its rendered install manifests
//! (`tests/releases/<operator>/<tag>/rendered.yaml`, made once, see tests/releases/README.md) and,
//! per case, the Deployment's status and one pod from its template with the status and events the
//! kubelet and the scheduler write in that case. What each case must be diagnosed as is its
//! `<case>.expect.txt` beside the rendering (the `expect.txt` format of tests/common/expect.rs).
#![allow(dead_code)] // each user takes what it needs

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The rendered releases: (operator folder, release tag).
pub const RELEASES: &[(&str, &str)] = &[
    ("apache", "release-1.4.0"),
    ("apache", "release-1.8.0"),
    ("apache", "release-1.15.0"),
    ("gcp", "v1beta1-6"),
    ("gcp", "v1beta1-7"),
    ("gcp", "v1beta1-9"),
    ("gcp-helm", "v1beta1-9"),
    ("spotify", "v0.3.9"),
    ("spotify", "v0.4.2"),
    ("spotify", "v0.5.0"),
    ("lyft", "v0.3.0"),
    ("lyft", "v0.4.0"),
    ("lyft", "v0.5.0"),
];

/// How each operator's source names itself in a provenance file.
pub fn source(operator: &str) -> &'static str {
    match operator {
        "apache" => "apache/flink-kubernetes-operator",
        "gcp" | "gcp-helm" => "GoogleCloudPlatform/flink-on-k8s-operator",
        "spotify" => "spotify/flink-on-k8s-operator",
        "lyft" => "lyft/flinkk8soperator",
        other => panic!("no such operator folder {other}"),
    }
}

pub fn folder(operator: &str, tag: &str) -> PathBuf {
    super::common::repo()
        .join("tests/releases")
        .join(operator)
        .join(tag)
}

pub fn rendered(operator: &str, tag: &str) -> PathBuf {
    folder(operator, tag).join("rendered.yaml")
}

/// The rendered documents, each a JSON value.
pub fn documents(operator: &str, tag: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(rendered(operator, tag)).unwrap();
    serde_yaml::Deserializer::from_str(&text)
        .filter_map(|d| {
            let v: Value = serde::Deserialize::deserialize(d).ok()?;
            (v.is_object() && v.get("kind").is_some()).then_some(v)
        })
        .collect()
}

/// The namespace the operator's Deployment was rendered into.
pub fn namespace(operator: &str, tag: &str) -> String {
    documents(operator, tag)
        .iter()
        .find(|d| d["kind"] == "Deployment")
        .and_then(|d| d["metadata"]["namespace"].as_str())
        .unwrap_or_else(|| panic!("{operator}@{tag}: no namespaced Deployment rendered"))
        .to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Healthy,
    ScaledToZero,
    Pending,
    OomKilled,
    WrongImage,
}

pub const CASES: [Case; 5] = [
    Case::Healthy,
    Case::ScaledToZero,
    Case::Pending,
    Case::OomKilled,
    Case::WrongImage,
];

impl Case {
    pub fn file(self) -> &'static str {
        match self {
            Case::Healthy => "healthy",
            Case::ScaledToZero => "scaled-to-zero",
            Case::Pending => "pending",
            Case::OomKilled => "oomkilled",
            Case::WrongImage => "wrong-image",
        }
    }
}

/// Where the expectations of one case are.
pub fn expect_file(operator: &str, tag: &str, case: Case) -> PathBuf {
    folder(operator, tag).join(format!("{}.expect.txt", case.file()))
}

pub const T0: &str = "2026-11-20T09:00:00Z";
pub const T1: &str = "2026-11-20T09:30:00Z";

/// The name of the Deployment's one pod (a ReplicaSet pod's name).
pub fn pod_name(deployment: &str) -> String {
    format!("{deployment}-5d8f9c7b6d-q7x2k")
}

/// A tag that no registry has, on the same repository.
pub fn wrong_image(image: &str) -> String {
    let last_slash = image.rfind('/').map(|i| i + 1).unwrap_or(0);
    let repo = match image[last_slash..].find(':') {
        Some(i) => &image[..last_slash + i],
        None => image,
    };
    format!("{repo}:0.0.0-nonexistent")
}

/// What the install's other documented steps create beside the rendered manifests, which a real
/// install therefore holds: the namespace's `default` ServiceAccount (the API server's), the
/// Namespace where the rendering does not create it, and the FlinkCluster operator's webhook
/// serving certificate Secret: the GCP releases' `make deploy` runs `scripts/generate_cert.sh
/// --secret webhook-server-cert` before it applies the manifests
/// (GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:Makefile, `webhook-cert`), the Spotify
/// releases' Certificate has cert-manager issue it (spotify/flink-on-k8s-operator@v0.5.0:
/// config/certmanager/certificate.yaml, `secretName: webhook-server-cert`). Its name and type
/// only: the bundle never holds key material.
fn beside(operator: &str, ns: &str, docs: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let has_ns = docs
        .iter()
        .any(|d| d["kind"] == "Namespace" && d["metadata"]["name"] == json!(ns));
    if !has_ns {
        out.push(json!({"apiVersion": "v1", "kind": "Namespace",
               "metadata": {"name": ns, "labels": {"kubernetes.io/metadata.name": ns}}}));
    }
    out.push(json!({"apiVersion": "v1", "kind": "ServiceAccount",
           "metadata": {"name": "default", "namespace": ns}}));
    if matches!(operator, "gcp" | "gcp-helm" | "spotify") {
        out.push(
            json!({"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
               "metadata": {"name": "webhook-server-cert", "namespace": ns}}),
        );
    }
    out
}

/// The objects of one release in one case: what `kubectl get -o yaml` of the install would give.
/// The rendered objects come first, as rendered, then the Deployment's status, its pod and the
/// pod's events.
pub fn objects(operator: &str, tag: &str, case: Case) -> Vec<Value> {
    objects_with(operator, tag, case, &|_| {})
}

/// [`objects`] with `change` made to the rendered Deployment first (its pod is made from the
/// changed template).
pub fn objects_with(
    operator: &str,
    tag: &str,
    case: Case,
    change: &dyn Fn(&mut Value),
) -> Vec<Value> {
    let mut docs = documents(operator, tag);
    for d in docs.iter_mut().filter(|d| d["kind"] == "Deployment") {
        change(d);
    }
    let ns = namespace(operator, tag);
    let mut objects = beside(operator, &ns, &docs);
    let mut pod = None;
    let mut events = Vec::new();
    for mut v in docs {
        if matches!(operator, "gcp" | "gcp-helm" | "spotify") {
            inject_ca(&mut v);
        }
        if v["kind"] == "Deployment" {
            let name = v["metadata"]["name"].as_str().unwrap().to_string();
            let template = v["spec"]["template"].clone();
            let replicas = if case == Case::ScaledToZero { 0 } else { 1 };
            v["spec"]["replicas"] = json!(replicas);
            v["status"] = deployment_status(case, replicas);
            if replicas > 0 {
                let (p, e) = operator_pod(&ns, &name, &template, case);
                pod = Some(p);
                events.extend(e);
            }
        }
        objects.push(v);
    }
    let slices = endpoint_slices(&ns, &objects, pod.as_ref(), case);
    objects.extend(slices);
    objects.extend(pod);
    objects.extend(events);
    objects
}

/// The EndpointSlices the endpoint controller writes for each rendered Service of the namespace:
/// the pod when it has an address (ready only when it is), none when it has none (Pending) or
/// when there is no pod (scaled to 0). What a live cluster holds, so a bundle of it does too.
fn endpoint_slices(ns: &str, objects: &[Value], pod: Option<&Value>, case: Case) -> Vec<Value> {
    let mut out = Vec::new();
    for svc in objects
        .iter()
        .filter(|o| o["kind"] == "Service" && o["metadata"]["namespace"] == json!(ns))
    {
        let Some(selector) = svc["spec"]["selector"].as_object() else {
            continue;
        };
        let name = svc["metadata"]["name"].as_str().unwrap_or("");
        let selected = pod.filter(|p| {
            !selector.is_empty()
                && selector
                    .iter()
                    .all(|(k, v)| p["metadata"]["labels"].get(k) == Some(v))
        });
        let endpoints: Vec<Value> = selected
            .filter(|_| case != Case::Pending)
            .map(|p| {
                let ready = case == Case::Healthy;
                json!({"addresses": ["10.244.0.12"],
                       "conditions": {"ready": ready, "serving": ready, "terminating": false},
                       "nodeName": p["spec"]["nodeName"],
                       "targetRef": {"kind": "Pod", "namespace": ns, "name": p["metadata"]["name"]}})
            })
            .into_iter()
            .collect();
        let ports: Vec<Value> = svc["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let target = match &p["targetPort"] {
                    Value::Number(n) => json!(n),
                    Value::String(named) => selected
                        .and_then(|pod| {
                            pod["spec"]["containers"].as_array()?.iter().find_map(|c| {
                                c["ports"].as_array()?.iter().find_map(|cp| {
                                    (cp["name"] == json!(named))
                                        .then(|| cp["containerPort"].clone())
                                })
                            })
                        })
                        .unwrap_or(Value::Null),
                    _ => p["port"].clone(),
                };
                json!({"name": p.get("name").cloned().unwrap_or(json!("")), "port": target,
                       "protocol": p.get("protocol").cloned().unwrap_or(json!("TCP"))})
            })
            .collect();
        out.push(json!({
            "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": format!("{name}-x7k2p"), "namespace": ns,
                         "labels": {"kubernetes.io/service-name": name,
                                    "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}},
            "addressType": "IPv4",
            "endpoints": endpoints,
            "ports": ports,
        }));
    }
    out
}

/// The CA of the webhooks' serving certificate, set in each webhook's `caBundle` as the install
/// sets it: the GCP releases' `make deploy` replaces the rendered placeholder `Cg==` with the
/// certificate generate_cert.sh made (GoogleCloudPlatform/flink-on-k8s-operator@v1beta1-9:Makefile,
/// `deploy`), the Spotify releases' webhook configurations carry `cert-manager.io/inject-ca-from`,
/// for cert-manager's cainjector (spotify/flink-on-k8s-operator@v0.5.0:config/default/
/// webhookcainjection_patch.yaml). `tests/releases/webhook-ca.pem` is a self-signed CA valid from
/// 2020 to 2120 made for these fixtures (its key was not kept).
fn inject_ca(v: &mut Value) {
    use base64::Engine;
    if !matches!(
        v["kind"].as_str(),
        Some("MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration")
    ) {
        return;
    }
    let pem = std::fs::read(super::common::repo().join("tests/releases/webhook-ca.pem")).unwrap();
    let ca = base64::engine::general_purpose::STANDARD.encode(pem);
    for hook in v["webhooks"].as_array_mut().into_iter().flatten() {
        hook["clientConfig"]["caBundle"] = json!(ca);
    }
}

/// The Deployment's status as the controller writes it in `case`.
pub fn deployment_status(case: Case, replicas: i64) -> Value {
    let ready = case == Case::Healthy;
    let available = ready || replicas == 0;
    json!({
        "observedGeneration": 1,
        "replicas": replicas,
        "readyReplicas": if ready { json!(1) } else { Value::Null },
        "availableReplicas": if ready { json!(1) } else { Value::Null },
        "unavailableReplicas": if available { Value::Null } else { json!(1) },
        "conditions": [{
            "type": "Available",
            "status": if available { "True" } else { "False" },
            "reason": if available { "MinimumReplicasAvailable" } else { "MinimumReplicasUnavailable" },
            "message": if available { "Deployment has minimum availability." } else { "Deployment does not have minimum availability." },
            "lastUpdateTime": T0, "lastTransitionTime": T0
        }]
    })
}

/// The bundle of one release in one case, written into `dir` as one `objects.yaml`.
pub fn bundle(operator: &str, tag: &str, case: Case, dir: &Path) {
    write(&objects(operator, tag, case), dir);
}

/// `objects` written into `dir` as one `objects.yaml` (a bundle, or what a seed loads).
pub fn write(objects: &[Value], dir: &Path) {
    let text = objects
        .iter()
        .map(|o| serde_yaml::to_string(o).unwrap())
        .collect::<Vec<_>>()
        .join("---\n");
    std::fs::write(dir.join("objects.yaml"), text).unwrap();
}

/// The Deployment's one pod, as the kubelet reports it in `case`, and the events it has.
pub fn operator_pod(
    ns: &str,
    deployment: &str,
    template: &Value,
    case: Case,
) -> (Value, Vec<Value>) {
    let name = pod_name(deployment);
    let mut spec = template["spec"].clone();
    if case == Case::WrongImage {
        for c in spec["containers"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .take(1)
        {
            c["image"] = json!(wrong_image(c["image"].as_str().unwrap_or("")));
        }
    }
    if case != Case::Pending {
        spec["nodeName"] = json!("node-1");
    }
    let (status, events) = pod_status(ns, &name, &spec, case);
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

/// The status the kubelet (or the scheduler) writes on pod `name` of spec `spec` in `case`, and
/// the pod's events.
pub fn pod_status(ns: &str, name: &str, spec: &Value, case: Case) -> (Value, Vec<Value>) {
    let containers: Vec<(String, String)> = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["image"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let running = |c: &str, i: &str| {
        json!({"name": c, "image": i, "imageID": "", "ready": true, "started": true,
               "restartCount": 0, "state": {"running": {"startedAt": T0}}})
    };
    let statuses: Vec<Value> = containers
        .iter()
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
            Case::WrongImage if n == 0 => json!({
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
        "phase": "Running",
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
            let image = &containers[0].1;
            events.push(event(
                "Failed",
                "Warning",
                format!(
                    "Failed to pull image \"{image}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{image}\": failed to resolve reference \"{image}\": {image}: not found"
                ),
                "kubelet",
            ));
        }
        _ => {}
    }
    (status, events)
}

/// Whether a report says what the case is, whatever an expect file holds.
pub fn case_is_right(case: Case, report: &Value, exit: i64) -> Vec<String> {
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let mut wrong = Vec::new();
    let rule_of = |f: &Value| f["category"].as_str().unwrap_or("").to_string();
    let text = |f: &Value| format!("{} {}", f["title"].as_str().unwrap_or(""), evidence(f, " "));
    let first = findings.first();
    match case {
        Case::Healthy => {
            for f in &findings {
                if f["severity"] != "info" {
                    wrong.push(format!("healthy, yet {} is {}", rule_of(f), f["severity"]));
                }
                if rule_of(f) == "operator_not_running" {
                    wrong.push("healthy, yet operator_not_running".into());
                }
            }
            if exit == 1 {
                wrong.push("healthy, yet exit 1".into());
            }
        }
        Case::ScaledToZero => {
            if !findings
                .iter()
                .any(|f| rule_of(f) == "operator_not_running" && text(f).contains("0 replicas"))
            {
                wrong.push("scaled to 0: no operator_not_running that says 0 replicas".into());
            }
        }
        Case::Pending => {
            let capacity = findings.iter().position(|f| {
                rule_of(f) == "pod_unschedulable"
                    && text(f).contains("FailedScheduling")
                    && text(f).contains("Insufficient cpu")
            });
            match capacity {
                Some(0) => {}
                Some(_) => wrong.push("Pending: the capacity finding is not first".into()),
                None => wrong.push(
                    "Pending: no pod_unschedulable with the FailedScheduling evidence".into(),
                ),
            }
        }
        Case::OomKilled => {
            if !first.is_some_and(|f| text(f).contains("OOMKilled")) {
                wrong.push(
                    "OOMKilled: the first finding does not name the OOMKilled crash loop".into(),
                );
            }
        }
        Case::WrongImage => {
            if !first.is_some_and(|f| text(f).contains("0.0.0-nonexistent")) {
                wrong.push("wrong image: the first finding does not name the image pull".into());
            }
        }
    }
    if case != Case::Healthy && exit != 1 {
        wrong.push(format!("{case:?}: exit {exit}, want 1"));
    }
    wrong
}

/// The labels of a Deployment (or pod) replaced: `keep` of them stay (what a webhook Service
/// selects), the rest become a platform team's own.
pub fn relabel(o: &mut Value, keep: &[&str]) {
    let relabelled = |labels: &Value| {
        let mut out = serde_json::Map::new();
        out.insert("app.kubernetes.io/name".into(), json!("platform-stream-op"));
        for k in keep {
            if let Some(v) = labels.get(*k) {
                out.insert(k.to_string(), v.clone());
            }
        }
        Value::Object(out)
    };
    for ptr in [
        "/metadata/labels",
        "/spec/template/metadata/labels",
        "/spec/selector/matchLabels",
    ] {
        if let Some(l) = o.pointer_mut(ptr) {
            *l = relabelled(l);
        }
    }
}

/// The operator's image rebuilt under the platform team's own name, its container renamed.
pub fn rebuild_image(o: &mut Value) {
    let spec = if o["kind"] == "Pod" {
        o.pointer_mut("/spec")
    } else {
        o.pointer_mut("/spec/template/spec")
    };
    // The operator's container (the GCP Helm chart runs kube-rbac-proxy first), else the first.
    let Some(cs) = spec.and_then(|s| s["containers"].as_array_mut()) else {
        return;
    };
    let i = cs
        .iter()
        .position(|c| {
            c["image"]
                .as_str()
                .is_some_and(|i| kubectl_flink::flink::identity::by_image(i).is_some())
        })
        .unwrap_or(0);
    if let Some(c) = cs.get_mut(i) {
        c["image"] = json!("registry.example.com/platform/stream-op:7");
        c["name"] = json!("stream-op");
    }
}

/// One release as a platform team installs it under its own labels and a rebuilt image (so that
/// no label, image or container name of the release says what it is), in `case`.
pub fn foreign(operator: &str, tag: &str, case: Case) -> Vec<Value> {
    objects_with(operator, tag, case, &|d| {
        relabel(d, &[]);
        rebuild_image(d);
    })
}

/// A finding's evidence lines joined by `sep`.
pub fn evidence(f: &Value, sep: &str) -> String {
    f["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The findings of an expect file (`<case>.expect.txt`) as YAML, under `indent`.
pub fn yaml_findings(lines: &[crate::common::expect::Line], indent: &str) -> String {
    if lines.is_empty() {
        return format!("{indent}findings: []\n");
    }
    let mut out = format!("{indent}findings:\n");
    for l in lines {
        out.push_str(&format!(
            "{indent}  - {{rule: {}, category: {}, object: {}",
            l.rule, l.category, l.object
        ));
        if let Some(c) = l.caused_by {
            out.push_str(&format!(", causedBy: {c}"));
        }
        out.push_str("}\n");
    }
    out
}

/// The findings of a report, as `category object: title | evidence`, for messages.
pub fn lines_of(report: &Value) -> String {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{} {} {}/{}: {} | {}",
                f["severity"].as_str().unwrap_or(""),
                f["category"].as_str().unwrap_or(""),
                f["object"]["kind"].as_str().unwrap_or(""),
                f["object"]["name"].as_str().unwrap_or(""),
                f["title"].as_str().unwrap_or(""),
                evidence(f, " | ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a foreign-labelled, crash-looping operator must be diagnosed as (offline and live).
pub fn foreign_is_right(
    report: &Value,
    ns: &str,
    kind: kubectl_flink::flink::identity::OperatorKind,
) -> Vec<String> {
    let mut wrong = Vec::new();
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let text = |f: &Value| evidence(f, " ");
    let generic = findings.iter().any(|f| {
        f["object"]["kind"] == "Pod"
            && f["object"]["namespace"] == json!(ns)
            && matches!(
                f["category"].as_str(),
                Some("oom_killed" | "flink_fatal_exit")
            )
            && text(f).contains(&format!("is probably {}", kind.describe()))
            && text(f).contains("ServiceAccount")
    });
    if !generic {
        wrong.push(
            "no generic oom_killed finding on the operator's pod saying it is probably the operator and why".into(),
        );
    }
    for f in &findings {
        // The Apache CRDs' absence is no finding where the installation is probably another
        // operator's (live, their list answers 404).
        if f["category"] == "crd_missing"
            && kind != kubectl_flink::flink::identity::OperatorKind::Apache
        {
            wrong.push(format!(
                "crd_missing beside {}: {}",
                kind.describe(),
                f["title"]
            ));
        }
        if f["category"] == "operator_not_running" && f["severity"] != "info" {
            wrong.push(format!(
                "an operator_not_running above info ({}) about what only an account's rights name: {}",
                f["severity"], f["title"]
            ));
        }
    }
    let rows = report["probableOperators"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let row = rows.iter().any(|r| {
        r["namespace"] == json!(ns)
            && r["kind"] == "Deployment"
            && r["describe"] == json!(kind.describe())
            && r["why"]
                .as_str()
                .is_some_and(|w| w.contains("ServiceAccount"))
    });
    if !row {
        wrong.push(format!(
            "no probable-operator row for the Deployment in {ns}: {}",
            serde_json::to_string(&rows).unwrap()
        ));
    }
    wrong
}

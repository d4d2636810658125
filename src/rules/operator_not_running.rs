//! FLK003: the Flink Kubernetes Operator, or the GCP/Spotify FlinkCluster operator, is missing,
//! scaled to zero, not ready, crash-looping or OOMKilled. Nothing reconciles Flink resources then:
//! they get no status, and the webhook (a container of the same pod; the FlinkCluster operator's
//! own container) has no endpoint.
//!
//! "Missing" is concluded only when the gather looked for it (the snapshot's `install_checked`)
//! and, for the Apache operator, Flink resources have waited for a status for a while: an
//! operator we cannot recognise (another chart, a renamed label) still reconciles, and then they
//! have one. For the FlinkCluster operator it is concluded when its webhook configurations are
//! installed and no Deployment or pod of it is (GoogleCloudPlatform/flink-on-k8s-operator#228:
//! `no endpoints available for service "flink-operator-webhook-service"` and only the metrics
//! Service left in flink-operator-system).

use super::support::install::{
    self, operators, pod_name, pod_troubles, Flavor, Operator, Trouble, OPERATOR_CONTAINER,
    WEBHOOK_CONTAINER,
};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::identity::OperatorKind;
use crate::flink::install::flinkcluster as fc;
use crate::snapshot::{Index, Snapshot};

pub struct OperatorNotRunning;

static META: RuleMeta = RuleMeta {
    id: "FLK003",
    name: "operator_not_running",
    summary: "the Flink Kubernetes Operator (or the FlinkCluster operator) is missing, not ready, crash-looping or being killed",
    category: Category::OperatorNotRunning,
    severity: Severity::Critical,
    explains: &["FLK012", "FLK401"],
    fix: r#"read why the operator pod is not ready (`kubectl describe pod` and `kubectl logs --previous` of it: image, memory, a missing CRD or webhook certificate), fix that, or install the operator chart when it is absent"#,
    verify: r#"kubectl get deployments -A -o wide | grep -Ei 'flink-kubernetes-operator|flink-operator|flinkk8soperator'   # expect one READY 1/1"#,
};

impl Rule for OperatorNotRunning {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return not_in_bundle(s).into_iter().collect();
        }
        let ops = operators(s);
        let mut out = Vec::new();
        if !ops.iter().any(|o| o.flavor == Flavor::Apache) {
            out.extend(missing(s));
        }
        if !ops.iter().any(|o| o.flavor == Flavor::FlinkCluster) {
            out.extend(missing_flinkcluster(s));
        }
        out.extend(ops.iter().filter_map(|op| unhealthy(s, op)));
        out
    }
}

/// What is probably an operator of `kind` (in `ns` when given): pods and Deployments nothing of
/// their own names (`snapshot::identity::Probable`). Absence is not claimed beside them.
fn probably<'a>(
    s: &'a Snapshot,
    kind: OperatorKind,
    ns: Option<&str>,
) -> Vec<&'a crate::snapshot::identity::Probable> {
    let mut out: Vec<_> = s
        .probable_operators
        .iter()
        .filter(|p| p.operator == kind && ns.is_none_or(|n| p.namespace == n))
        .collect();
    // The Deployment before its pods.
    out.sort_by_key(|p| p.kind != "Deployment");
    out
}

/// What was read where the operator would be, for evidence of its absence: the kinds and the
/// namespaces.
fn what_was_read(s: &Snapshot) -> String {
    let wirings = "by its labels, its image or the webhook Service that selects it";
    match &s.bundle_kinds {
        None => format!(
            "read: Deployments and pods by the operators' labels in every namespace, every Deployment's images in every namespace, Deployments and pods in {}; none is an operator {wirings}",
            if s.operator_namespaces_read.is_empty() {
                "no operator's namespace (no webhook Service or account with rights over a Flink CRD group was found)".to_string()
            } else {
                format!(
                    "the operators' namespaces ({})",
                    s.operator_namespaces_read.join(", ")
                )
            }
        ),
        Some(_) => {
            let mut namespaces: Vec<&str> = s
                .deployments
                .iter()
                .chain(&s.operator_deployments)
                .filter_map(|d| d.metadata.namespace.as_deref())
                .collect();
            namespaces.sort_unstable();
            namespaces.dedup();
            format!(
                "read: the bundle's Deployments and pods (namespaces {}); none is an operator {wirings}",
                if namespaces.is_empty() {
                    "none".to_string()
                } else {
                    namespaces.join(", ")
                }
            )
        }
    }
}

/// The namespaces of the Flink resources (the workload's).
fn workload_namespaces(s: &Snapshot) -> std::collections::BTreeSet<&str> {
    s.flink_deployments
        .iter()
        .map(|d| d.namespace())
        .chain(s.flink_session_jobs.iter().map(|j| j.namespace()))
        .chain(
            s.flink_clusters
                .iter()
                .filter_map(|c| c.metadata.namespace.as_deref()),
        )
        .chain(
            s.flink_applications
                .iter()
                .filter_map(|a| a.metadata.namespace.as_deref()),
        )
        .collect()
}

/// The namespaces a bundle holds Deployments or pods of.
fn bundle_namespaces(s: &Snapshot) -> std::collections::BTreeSet<&str> {
    s.deployments
        .iter()
        .chain(&s.operator_deployments)
        .filter_map(|d| d.metadata.namespace.as_deref())
        .chain(
            s.pods
                .iter()
                .filter_map(|p| p.metadata.namespace.as_deref()),
        )
        .chain(
            s.operator_pods
                .iter()
                .filter_map(|p| p.metadata.namespace.as_deref()),
        )
        .collect()
}

/// Whether a bundle holds Deployments or pods of a namespace that no Flink resource is in: it
/// read beyond the workload, where an operator would run.
fn beyond_workload(s: &Snapshot) -> bool {
    let workload = workload_namespaces(s);
    bundle_namespaces(s).iter().any(|n| !workload.contains(n))
}

/// A bundle that holds none of the installation (no operator, CRD or webhook configuration): when
/// Flink resources there wait for a status, the operator is not in the bundle, which proves
/// nothing about the cluster. Said as information, with how to look.
fn not_in_bundle(s: &Snapshot) -> Option<Finding> {
    s.bundle_kinds.as_ref()?;
    let waiting = install::unreconciled(s, install::UNRECONCILED_AFTER);
    let (kind, ns, name, _) = waiting.first()?;
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced(kind, ns, name),
        format!(
            "the operator is not in this bundle: {} Flink resource(s) have no status, and whether an operator runs cannot be told from here",
            waiting.len()
        ),
    )
    .severity(Severity::Info)
    .evidence(if s.install_checked {
        let read: Vec<&str> = bundle_namespaces(s).into_iter().collect();
        format!(
            "the bundle's Deployments and pods are of the Flink resources' namespace(s) only ({}): the namespace an operator runs in was not read",
            if read.is_empty() { "none".to_string() } else { read.join(", ") }
        )
    } else {
        "the bundle holds no operator Deployment or pod, no Flink CRD and no webhook configuration: \
         it holds the workload's namespace(s) only"
            .to_string()
    });
    for (kind, ns, name, age) in waiting.iter().take(5) {
        f = f.evidence(format!(
            "{kind} {ns}/{name}: no status {} after creation",
            crate::flink::units::human_duration(*age)
        ));
    }
    Some(
        f.fix(
            "Look for the operator where it runs (any namespace), or add its namespace to the bundle:\n\n\
             kubectl get deployments -A -o wide | grep -Ei 'flink-kubernetes-operator|flink-operator|flinkk8soperator'\n\
             kubectl get pods -A -l app.kubernetes.io/name=flink-kubernetes-operator",
        )
        .verify("kubectl get deployments -A -o wide | grep -Ei 'flink-kubernetes-operator|flink-operator|flinkk8soperator'   # expect one READY 1/1"),
    )
}

fn missing(s: &Snapshot) -> Option<Finding> {
    let waiting = install::unreconciled(s, install::UNRECONCILED_AFTER);
    if waiting.is_empty() {
        return None;
    }
    // A bundle without Deployments cannot show the operator missing; nor can one whose
    // Deployments and pods are all of the Flink resources' own namespaces: where the operator
    // runs (its own namespace, as its chart installs it) was not read.
    if !s.holds("Deployment") && !s.holds("Pod") {
        return not_in_bundle(s);
    }
    if s.bundle_kinds.is_some() && !beyond_workload(s) {
        return not_in_bundle(s);
    }
    let probable = probably(s, OperatorKind::Apache, None);
    let title = match probable.first() {
        None => format!(
            "no Flink Kubernetes Operator runs in the cluster: {} Flink resource(s) were never reconciled",
            waiting.len()
        ),
        Some(p) => format!(
            "no Flink Kubernetes Operator is found by its labels, image or webhook Service, and {} Flink resource(s) were never reconciled: {} {}/{} is probably it",
            waiting.len(),
            p.kind,
            p.namespace,
            p.name
        ),
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::new("Deployment", None, install::CHART),
        title,
    )
    .evidence(what_was_read(s));
    if !probable.is_empty() {
        // Absence is not proven: what is probably the operator has its own findings.
        f = f.severity(Severity::Info);
        for p in &probable {
            f = f.evidence(p.evidence());
        }
    }
    for (kind, ns, name, age) in waiting.iter().take(5) {
        f = f.evidence(format!(
            "{kind} {ns}/{name}: no status {} after creation",
            crate::flink::units::human_duration(*age)
        ));
    }
    if waiting.len() > 5 {
        f = f.evidence(format!("… and {} more without a status", waiting.len() - 5));
    }
    let cert_manager = install::cert_manager_installed(s);
    let extra = if cert_manager == Some(false) {
        "--set webhook.create=false"
    } else {
        ""
    };
    let note = match cert_manager {
        Some(false) => "\n\n(cert-manager is not installed, so the webhook is left out; install cert-manager first to keep it)",
        _ => "\n\n(the chart's webhook needs cert-manager: kubectl get crd certificates.cert-manager.io)",
    };
    Some(
        f.fix(format!(
            "Install the operator (it watches every namespace by default):\n\n{}{note}",
            install::helm_install("flink-operator", extra)
        ))
        .verify(format!(
            "kubectl get deployment -A -l {}={}   # expect READY 1/1",
            install::OPERATOR_LABEL,
            install::CHART
        )),
    )
}

/// The FlinkCluster operator's webhooks are installed, and nothing of the operator itself.
fn missing_flinkcluster(s: &Snapshot) -> Option<Finding> {
    let hooks: Vec<install::Hook> = install::flink_hooks(s)
        .into_iter()
        .filter(|h| h.flavor == Flavor::FlinkCluster)
        .collect();
    let ns = hooks.iter().find_map(|h| h.namespace())?;
    if install::unreadable(s, "apps", "deployments", Some(ns)) {
        return None;
    }
    // A bundle that holds nothing of the webhook's namespace (no Deployment, pod, Service,
    // EndpointSlice, Secret or event there) did not read where the operator runs.
    let holds_ns = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
        m.namespace.as_deref() == Some(ns)
    };
    let read = bundle_namespaces(s).contains(ns)
        || s.services.iter().any(|x| holds_ns(&x.metadata))
        || s.endpoint_slices.iter().any(|x| holds_ns(&x.metadata))
        || s.secrets.iter().any(|x| holds_ns(&x.metadata))
        || s.events.iter().any(|x| holds_ns(&x.metadata));
    if s.bundle_kinds.is_some() && !read {
        return None;
    }
    let probable = probably(s, OperatorKind::FlinkCluster, Some(ns));
    let title = match probable.first() {
        None => format!(
            "the FlinkCluster operator's webhooks are installed, but no operator runs in {ns}"
        ),
        Some(p) => format!(
            "the FlinkCluster operator's webhooks are installed and no operator in {ns} is found by its labels, image or the webhook Service: {} {} is probably it",
            p.kind, p.name
        ),
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Deployment", ns, fc::DEPLOYMENT),
        title,
    )
    .evidence(what_was_read(s));
    if !probable.is_empty() {
        f = f.severity(Severity::Info);
        for p in &probable {
            f = f.evidence(p.evidence());
        }
    }
    let mut configs: Vec<String> = Vec::new();
    for h in &hooks {
        let c = format!(
            "{} {} calls Service {ns}/{}",
            h.kind,
            h.config,
            h.service().map(|x| x.name.as_str()).unwrap_or("?")
        );
        if !configs.contains(&c) {
            configs.push(c);
        }
    }
    for c in &configs {
        f = f.evidence(c);
    }
    for fcl in s
        .flink_clusters
        .iter()
        .filter(|c| c.status.is_none())
        .take(5)
    {
        f = f.evidence(format!(
            "FlinkCluster {}/{}: no status",
            fcl.metadata.namespace.as_deref().unwrap_or(""),
            fcl.metadata.name.as_deref().unwrap_or("")
        ));
    }
    let note = if ns == fc::NAMESPACE {
        String::new()
    } else {
        format!(
            "\n\n(the manifest installs into {}; here {}: apply the manifests you installed from instead)",
            fc::NAMESPACE,
            configs.join(", ")
        )
    };
    Some(
        f.fix(format!(
            "Install the operator again from its release manifest (cert-manager first: the manifest's Certificate needs it):\n\n\
             kubectl apply -f {}{note}",
            fc::MANIFEST
        ))
        .verify(format!(
            "kubectl rollout status deployment/{} -n {ns} --timeout=180s   # expect \"successfully rolled out\"",
            fc::DEPLOYMENT
        ))
        .link(install::link(ns)),
    )
}

/// The operator of one installation, when it is not healthy.
fn unhealthy(s: &Snapshot, op: &Operator) -> Option<Finding> {
    let ns = op.namespace;
    let name = op.name();
    let mut evidence = Vec::new();
    let mut troubles = Vec::new();
    let mut links = vec![install::link(ns)];

    let desired = op
        .deployment
        .map(|d| &d.spec)
        .and_then(|sp| sp.replicas)
        .unwrap_or(1);
    let status = op.deployment.and_then(|d| d.status.as_ref());
    let ready = status.and_then(|st| st.ready_replicas).unwrap_or(0);
    let available = status.and_then(|st| st.available_replicas).unwrap_or(0);
    if let Some(d) = op.deployment {
        if desired == 0 {
            return Some(
                Finding::new(
                    &META,
                    op.object(),
                    format!("the operator Deployment {ns}/{name} is scaled to 0 replicas"),
                )
                .evidence(format!("Deployment {ns}/{name}: spec.replicas 0"))
                .fix(format!(
                    "kubectl scale deployment/{name} -n {ns} --replicas=1"
                ))
                .verify(format!(
                    "kubectl rollout status deployment/{name} -n {ns} --timeout=180s"
                ))
                .link(install::link(ns)),
            );
        }
        if ready < desired || available < desired {
            evidence.push(format!(
                "Deployment {ns}/{name}: {ready}/{desired} ready, {available} available"
            ));
        }
        for c in d
            .status
            .as_ref()
            .and_then(|st| st.conditions.as_ref())
            .into_iter()
            .flatten()
        {
            let (type_, status) = (
                c.type_.as_deref().unwrap_or(""),
                c.status.as_deref().unwrap_or(""),
            );
            if status == "False" || type_ == "ReplicaFailure" {
                evidence.push(format!(
                    "Deployment condition {type_}={status}: {}",
                    c.message.as_deref().unwrap_or("")
                ));
            }
        }
    }
    for p in &op.pods {
        for t in pod_troubles(p) {
            let container = if t.container.is_empty() {
                String::new()
            } else {
                format!("/{}", t.container)
            };
            evidence.push(format!("pod {}{container}: {}", pod_name(p), t.detail));
            if !t.container.is_empty() {
                links.push(link::container(ns, pod_name(p), &t.container));
            }
            troubles.push((pod_name(p).to_string(), t));
        }
    }
    if op.deployment.is_some() && op.pods.is_empty() && (ready < desired) {
        evidence.push(format!(
            "no pod of {ns}/{name} exists (selector {})",
            op.selector()
        ));
    }
    if evidence.is_empty() {
        return None;
    }
    // Mount and config errors name the missing Secret/ConfigMap in events.
    for e in install::events_in(s, ns).into_iter().rev() {
        let reason = e.reason.as_deref().unwrap_or("");
        let on_operator = e
            .involved_object
            .name
            .as_deref()
            .is_some_and(|n| op.pods.iter().any(|p| pod_name(p) == n) || n.starts_with(name));
        if on_operator
            && matches!(
                reason,
                "FailedMount" | "FailedCreate" | "FailedScheduling" | "BackOff" | "Failed"
            )
        {
            evidence.push(install::event_line(e));
            if evidence.len() > 12 {
                break;
            }
        }
    }
    troubles.sort_by_key(|(_, t)| t.kind);
    let main = match op.flavor {
        Flavor::Apache => OPERATOR_CONTAINER,
        Flavor::FlinkCluster | Flavor::Lyft => op.webhook_container(),
    };
    let worst = troubles.first();
    let (title, fix, verify) = match worst.map(|(pod, t)| (pod.as_str(), t)) {
        Some((pod, t)) if t.kind == Trouble::OomKilled && op.flavor == Flavor::FlinkCluster => (
            format!("the operator's `{}` container is OOMKilled: its memory limit is too small", t.container),
            format!(
                "Give the container more memory ({}; the release manifest sets 150Mi, and the operator's cache of pods,\n\
                 StatefulSets and Jobs grows with the FlinkClusters it watches), e.g. 512Mi:\n\n\
                 kubectl set resources deployment/{name} -n {ns} -c {} --limits=memory=512Mi --requests=memory=512Mi\n\n\
                 (installed with its Helm chart: --set resources.limits.memory=512Mi --set resources.requests.memory=512Mi)",
                memory_limit(op, &t.container)
                    .map(|m| format!("its limit is {m}"))
                    .unwrap_or_else(|| "it has no limit of its own here".into()),
                crate::shell::sh(&t.container)
            ),
            format!(
                "kubectl get pod {pod} -n {ns} -o {}   # the new pod's: expect empty",
                // The container's name is the pod spec's: the expression one shell word.
                crate::shell::jsonpath(&format!(
                    "{{.status.containerStatuses[?(@.name==\"{}\")].lastState.terminated.reason}}",
                    t.container
                ))
            ),
        ),
        Some((pod, t)) if t.kind == Trouble::OomKilled => {
            let key = if t.container == WEBHOOK_CONTAINER { "operatorPod.webhook.resources" } else { "operatorPod.resources" };
            (
                format!("the operator's `{}` container is OOMKilled: its memory limit is too small", t.container),
                format!(
                    "Give the container more memory (the chart's `{key}`), e.g. 2Gi:\n\n{}\n\n\
                     and keep the JVM inside it (jvmArgs.{} in the chart's values, e.g. -Xmx1536m)",
                    op.release().upgrade(&format!(
                        "--set {key}.limits.memory=2Gi --set {key}.requests.memory=2Gi"
                    )),
                    if t.container == WEBHOOK_CONTAINER { "webhook" } else { "operator" }
                ),
                format!(
                "kubectl get pod {pod} -n {ns} -o {}   # the new pod's: expect empty",
                // The container's name is the pod spec's: the expression one shell word.
                crate::shell::jsonpath(&format!(
                    "{{.status.containerStatuses[?(@.name==\"{}\")].lastState.terminated.reason}}",
                    t.container
                ))
                ),
            )
        }
        Some((pod, t)) if t.kind == Trouble::CrashLoop && op.flavor == Flavor::FlinkCluster => (
            format!(
                "the operator's `{}` container is crash-looping: FlinkClusters are not reconciled and its webhooks have no backend",
                t.container
            ),
            format!(
                "Read why it exits, then fix that cause:\n\n\
                 kubectl logs -n {ns} {pod} -c {} --previous --tail=100\n\n\
                 The usual causes: `open {}/tls.crt: no such file or directory` (the serving certificate's Secret\n\
                 {} is not mounted: cert-manager and its Certificate {}), the CRD missing or older than the\n\
                 operator (kubectl get crd {}), RBAC of its ServiceAccount (kubectl flink can-i --for operator -n {ns}).\n\
                 Then: kubectl rollout restart deployment/{name} -n {ns}",
                crate::shell::sh(&t.container),
                fc::CERT_DIR,
                fc::TLS_SECRET,
                fc::CERTIFICATE,
                fc::CRD
            ),
            rollout(ns, name),
        ),
        Some((pod, t)) if t.kind == Trouble::CrashLoop => (
            format!(
                "the operator's `{}` container is crash-looping: {}",
                t.container,
                if t.container == WEBHOOK_CONTAINER {
                    "the Flink webhooks have no backend"
                } else {
                    "Flink resources are not reconciled"
                }
            ),
            format!(
                "Read why it exits, then fix that cause:\n\n\
                 kubectl logs -n {ns} {pod} -c {} --previous --tail=100\n\n\
                 The usual causes: a Flink CRD missing (kubectl get crd | grep flink.apache.org), RBAC of its\n\
                 ServiceAccount (kubectl auth can-i list flinkdeployments.flink.apache.org -A --as=system:serviceaccount:{ns}:{}),\n\
                 a broken {}/{} ConfigMap. Then: kubectl rollout restart deployment/{name} -n {ns}",
                crate::shell::sh(&t.container),
                crate::shell::sh(&service_account(op)),
                ns,
                install::CONFIG_MAP
            ),
            rollout(ns, name),
        ),
        Some((pod, t)) if t.kind == Trouble::ConfigError || t.kind == Trouble::Creating => {
            let missing_secret = secret_in(&evidence);
            let fix = match &missing_secret {
                Some(secret) => {
                    let secret = crate::shell::sh(secret);
                    format!(
                    "The pod cannot start until Secret {ns}/{secret} exists (see the webhook_secret_missing finding for how it\n\
                     is made). Once it exists the kubelet retries on its own; to restart at once:\n\n\
                     kubectl get secret {secret} -n {ns}\n\
                     kubectl delete pod {pod} -n {ns}"
                )
                }
                None => format!(
                    "See what the kubelet reports for the pod and fix the object it names:\n\n\
                     kubectl describe pod {pod} -n {ns}\n\
                     kubectl get events -n {ns} --field-selector involvedObject.name={pod}"
                ),
            };
            let what = match &missing_secret {
                Some(secret) => format!(": Secret `{secret}` not found"),
                None => String::new(),
            };
            (
                format!("the operator pod {ns}/{pod} cannot start ({}){what}", short(&t.detail)),
                fix,
                rollout(ns, name),
            )
        }
        Some((pod, t)) if t.kind == Trouble::ImagePull && op.flavor == Flavor::FlinkCluster => (
            format!(
                "the operator's image cannot be pulled ({}): FlinkClusters are not reconciled and its webhooks have no backend",
                short(&t.detail)
            ),
            format!(
                "Check the image name and tag, and the pull secret if the registry is private:\n\n\
                 kubectl get deployment/{name} -n {ns} -o jsonpath='{{.spec.template.spec.containers[*].image}}'\n\
                 kubectl set image deployment/{name} -n {ns} {}=ghcr.io/spotify/flink-operator:{}",
                crate::shell::sh(if t.container.is_empty() { op.webhook_container() } else { &t.container }),
                fc::RELEASE
            ),
            format!("kubectl get pod {pod} -n {ns}   # expect Running"),
        ),
        Some((pod, t)) if t.kind == Trouble::ImagePull => (
            format!("the operator's image cannot be pulled ({})", short(&t.detail)),
            format!(
                "Check the image name and tag, and the pull secret if the registry is private:\n\n\
                 kubectl get deployment/{name} -n {ns} -o jsonpath='{{.spec.template.spec.containers[*].image}}'\n\
                 {}",
                op.release().upgrade("--set image.repository=ghcr.io/apache/flink-kubernetes-operator --set image.tag=<an existing tag, e.g. 1.15.0>")
            ),
            format!("kubectl get pod {pod} -n {ns}   # expect Running"),
        ),
        Some((pod, t)) => (
            format!("the operator's `{}` container is not ready", if t.container.is_empty() { main } else { &t.container }),
            format!(
                "Read its log and the pod's events, fix what they report, then restart it:\n\n\
                 kubectl logs -n {ns} {pod} -c {} --tail=100\n\
                 kubectl describe pod {pod} -n {ns}\n\
                 kubectl rollout restart deployment/{name} -n {ns}",
                crate::shell::sh(if t.container.is_empty() { main } else { &t.container })
            ),
            rollout(ns, name),
        ),
        None => (
            format!("the operator Deployment {ns}/{name} has no ready replica"),
            format!(
                "The Deployment creates no running pod; its conditions and events say why:\n\n\
                 kubectl describe deployment/{name} -n {ns}\n\
                 kubectl get events -n {ns} --sort-by=.lastTimestamp | tail -20"
            ),
            rollout(ns, name),
        ),
    };
    let mut f = Finding::new(&META, op.object(), title).evidence(format!(
        "{}: recognised as {} by {}",
        op.object_text(),
        match op.flavor {
            Flavor::Apache => "the Flink Kubernetes Operator",
            Flavor::FlinkCluster => "the FlinkCluster operator",
            Flavor::Lyft => "Lyft's flinkk8soperator",
        },
        op.found_by
    ));
    for e in evidence {
        f = f.evidence(e);
    }
    for l in links {
        if !f.links.contains(&l) {
            f = f.link(l);
        }
    }
    Some(f.fix(fix).verify(verify))
}

fn rollout(ns: &str, name: &str) -> String {
    format!("kubectl rollout status deployment/{name} -n {ns} --timeout=180s   # expect \"successfully rolled out\"")
}

fn service_account(op: &Operator) -> String {
    op.deployment
        .map(|d| &d.spec)
        .and_then(|s| s.template.spec.as_ref())
        .and_then(|p| p.service_account_name.clone())
        .unwrap_or_else(|| match op.flavor {
            Flavor::Apache => "flink-operator".into(),
            Flavor::FlinkCluster => fc::DEPLOYMENT.into(),
            Flavor::Lyft => install::LYFT_DEPLOYMENT.into(),
        })
}

/// The memory limit of one of the operator's containers, as written (`150Mi`).
fn memory_limit(op: &Operator, container: &str) -> Option<String> {
    op.container(container)?
        .resources
        .as_ref()?
        .limits
        .as_ref()?
        .get("memory")
        .map(|q| q.0.clone())
}

/// `secret "webhook-server-cert" not found` in an evidence line.
fn secret_in(evidence: &[String]) -> Option<String> {
    let re = regex::Regex::new(r#"secret "([^"]+)" not found"#).ok()?;
    evidence
        .iter()
        .find_map(|e| re.captures(e).map(|c| c[1].to_string()))
}

fn short(detail: &str) -> String {
    let d = detail.split(": ").next().unwrap_or(detail);
    d.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load, without, NS};
    use crate::rules::testing::run;

    const POD_STATUS: &str = r#"status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  containerStatuses:
  - {name: flink-kubernetes-operator, image: x, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T09:00:10Z"}}}
  - {name: flink-webhook, image: x, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T09:00:10Z"}}}"#;

    fn with_pod_status(status: &str) -> String {
        healthy_yaml().replace(POD_STATUS, status).replace(
            "status: {replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1}",
            "status: {replicas: 1, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 1}",
        )
    }

    #[test]
    fn silent_on_a_healthy_operator() {
        assert!(run(&OperatorNotRunning, &load(&healthy_yaml())).is_empty());
    }

    #[test]
    fn an_oom_killed_operator_gets_more_memory() {
        let yaml = with_pod_status(
            r#"status:
  phase: Running
  containerStatuses:
  - name: flink-kubernetes-operator
    image: x
    imageID: ""
    ready: false
    restartCount: 6
    state: {waiting: {reason: CrashLoopBackOff, message: back-off 5m0s}}
    lastState: {terminated: {reason: OOMKilled, exitCode: 137, finishedAt: "2026-11-20T09:58:00Z"}}
  - {name: flink-webhook, image: x, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T09:00:10Z"}}}"#,
        );
        let f = run(&OperatorNotRunning, &load(&yaml));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::OperatorNotRunning);
        assert!(f[0].title.contains("OOMKilled"), "{}", f[0].title);
        assert!(
            f[0].fix
                .contains("--set operatorPod.resources.limits.memory=2Gi"),
            "{}",
            f[0].fix
        );
        assert!(f[0].evidence.iter().any(|e| e.contains("0/1 ready")));
        assert!(f[0].links.contains(&install::link(NS)));
    }

    #[test]
    fn a_crash_looping_operator_points_at_its_previous_log() {
        let yaml = with_pod_status(
            r#"status:
  phase: Running
  containerStatuses:
  - name: flink-kubernetes-operator
    image: x
    imageID: ""
    ready: false
    restartCount: 9
    state: {waiting: {reason: CrashLoopBackOff}}
    lastState: {terminated: {reason: Error, exitCode: 1}}"#,
        );
        let f = run(&OperatorNotRunning, &load(&yaml));
        assert_eq!(f.len(), 1);
        assert!(f[0].title.contains("crash-looping"));
        assert!(f[0].fix.contains("kubectl logs -n flink-operator flink-kubernetes-operator-7d9c6b5f4-abcde -c flink-kubernetes-operator --previous"));
    }

    #[test]
    fn a_pod_stuck_on_a_missing_secret_names_it() {
        let yaml = with_pod_status(
            r#"status:
  phase: Pending
  containerStatuses:
  - {name: flink-kubernetes-operator, image: x, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ContainerCreating}}}
  - {name: flink-webhook, image: x, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ContainerCreating}}}"#,
        ) + r#"
---
apiVersion: v1
kind: Event
metadata: {name: op.1, namespace: flink-operator}
involvedObject: {kind: Pod, namespace: flink-operator, name: flink-kubernetes-operator-7d9c6b5f4-abcde}
reason: FailedMount
type: Warning
message: 'MountVolume.SetUp failed for volume "keystore" : secret "webhook-server-cert" not found'
count: 12
lastTimestamp: "2026-11-20T09:59:00Z"
"#;
        let f = run(&OperatorNotRunning, &load(&yaml));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].title
                .contains("Secret `webhook-server-cert` not found"),
            "{}",
            f[0].title
        );
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.starts_with("event FailedMount on Pod/")));
    }

    #[test]
    fn a_missing_operator_is_reported_only_when_resources_wait_for_it() {
        let no_operator = without(
            &without(&healthy_yaml(), "Deployment", "flink-kubernetes-operator"),
            "Pod",
            "flink-kubernetes-operator-7d9c6b5f4-abcde",
        );
        // The FlinkDeployment has a status: something reconciles it.
        assert!(run(&OperatorNotRunning, &load(&no_operator)).is_empty());
        let waiting = no_operator.replace(
            "status: {lifecycleState: STABLE, jobManagerDeploymentStatus: READY}\n",
            "",
        );
        let f = run(&OperatorNotRunning, &load(&waiting));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e == "FlinkDeployment prod/orders: no status 30m after creation"),
            "{:#?}",
            f[0].evidence
        );
        assert!(f[0]
            .fix
            .contains("helm upgrade --install flink-kubernetes-operator"));
        // A bundle with no installation objects says nothing about the operator.
        let mut s = load(&waiting);
        s.install_checked = false;
        assert!(run(&OperatorNotRunning, &s).is_empty());
    }

    #[test]
    fn a_bundle_of_the_workload_alone_says_the_operator_is_not_in_it() {
        let yaml = r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: prod, creationTimestamp: "2026-11-20T09:00:00Z"}
spec: {image: "flink:1.20", flinkVersion: v1_20}
"#;
        let mut s = load(yaml);
        assert!(!s.install_checked);
        // Live (no bundle kinds), the gather decides what was read: nothing from here.
        assert!(run(&OperatorNotRunning, &s).is_empty());
        s.bundle_kinds = Some(["FlinkDeployment".to_string()].into());
        let f = run(&OperatorNotRunning, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].title.contains("not in this bundle"), "{}", f[0].title);
        // With a status, nothing waits for an operator: nothing to say.
        let reconciled = yaml.to_string() + "status: {lifecycleState: STABLE}\n";
        let mut s = load(&reconciled);
        s.bundle_kinds = Some(["FlinkDeployment".to_string()].into());
        assert!(run(&OperatorNotRunning, &s).is_empty());
    }

    #[test]
    fn a_bundle_that_read_only_the_workloads_namespace_does_not_claim_the_operator_absent() {
        // The CRD makes it speak about the installation; its Deployments are the workload's.
        let yaml = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: flinkdeployments.flink.apache.org}
spec:
  group: flink.apache.org
  names: {kind: FlinkDeployment, plural: flinkdeployments}
  scope: Namespaced
  versions: [{name: v1beta1, served: true, storage: true}]
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: prod, creationTimestamp: "2026-11-20T09:00:00Z"}
spec: {image: "flink:1.20", flinkVersion: v1_20}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: orders, namespace: prod, labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}}
spec:
  selector: {matchLabels: {app: orders, component: jobmanager}}
  template:
    metadata: {labels: {app: orders, component: jobmanager}}
    spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
"#;
        let mut s = load(yaml);
        s.bundle_kinds = Some(
            ["CustomResourceDefinition", "FlinkDeployment", "Deployment"]
                .map(String::from)
                .into(),
        );
        assert!(s.install_checked);
        let f = run(&OperatorNotRunning, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].title.contains("not in this bundle"), "{}", f[0].title);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("namespace(s) only (prod)")),
            "{:#?}",
            f[0].evidence
        );
        // A Deployment of another namespace: the bundle read beyond the workload, and there is
        // no operator there.
        let other = yaml.to_string()
            + r#"---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: platform}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1"}]}
"#;
        let mut s = load(&other);
        s.bundle_kinds = Some(
            ["CustomResourceDefinition", "FlinkDeployment", "Deployment"]
                .map(String::from)
                .into(),
        );
        let f = run(&OperatorNotRunning, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("namespaces platform, prod")),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn scaled_to_zero() {
        let yaml = healthy_yaml().replacen("spec:\n  replicas: 1\n", "spec:\n  replicas: 0\n", 1);
        let f = run(&OperatorNotRunning, &load(&yaml));
        assert_eq!(f.len(), 1);
        assert!(f[0].fix.contains("--replicas=1"));
    }

    mod flinkcluster {
        use super::*;
        use crate::rules::support::install::testing::flinkcluster_yaml;

        const ARGS: &str = r#""--metrics-addr=127.0.0.1:8080", "--enable-leader-election""#;

        #[test]
        fn silent_on_a_healthy_flinkcluster_operator() {
            let s = load(&flinkcluster_yaml(ARGS));
            let ops = operators(&s);
            assert_eq!(ops.len(), 1);
            assert_eq!(ops[0].flavor, Flavor::FlinkCluster);
            assert!(ops[0].webhook_enabled());
            assert_eq!(ops[0].tls_secret(), Some("webhook-server-cert"));
            assert!(run(&OperatorNotRunning, &s).is_empty());
        }

        #[test]
        fn an_oom_killed_manager_gets_more_memory_with_kubectl() {
            let yaml = flinkcluster_yaml(ARGS).replace(
                r#"  - {name: manager, image: x, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T09:00:10Z"}}}"#,
                r#"  - {name: manager, image: x, imageID: "", ready: false, restartCount: 7, state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {reason: OOMKilled, exitCode: 137}}}"#,
            );
            let f = run(&OperatorNotRunning, &load(&yaml));
            assert_eq!(f.len(), 1, "{f:#?}");
            assert!(
                f[0].title.contains("`manager` container is OOMKilled"),
                "{}",
                f[0].title
            );
            assert!(f[0].fix.contains("its limit is 150Mi"), "{}", f[0].fix);
            assert!(
                f[0].fix.contains("kubectl set resources deployment/flink-operator-controller-manager -n flink-operator-system -c manager --limits=memory=512Mi"),
                "{}",
                f[0].fix
            );
            assert!(!f[0].fix.contains("helm upgrade"), "{}", f[0].fix);
        }

        #[test]
        fn webhooks_without_their_operator_are_a_missing_operator() {
            let yaml = without(
                &without(
                    &flinkcluster_yaml(ARGS),
                    "Deployment",
                    "flink-operator-controller-manager",
                ),
                "Pod",
                "flink-operator-controller-manager-5b5f5fcd95-hvngf",
            )
            .replace("status:\n  state: Running\n", "");
            let f = run(&OperatorNotRunning, &load(&yaml));
            assert_eq!(f.len(), 1, "{f:#?}");
            assert_eq!(
                f[0].object,
                ObjectRef::namespaced(
                    "Deployment",
                    "flink-operator-system",
                    "flink-operator-controller-manager"
                )
            );
            assert!(f[0].evidence.iter().any(|e| e.starts_with("read: ")
                && e.contains("none is an operator by its labels, its image")));
            assert!(
                f[0].evidence
                    .iter()
                    .any(|e| e == "FlinkCluster stream/wc: no status"),
                "{:#?}",
                f[0].evidence
            );
            assert!(f[0].fix.contains("kubectl apply -f https://github.com/spotify/flink-on-k8s-operator/releases/download/v0.6.0/flink-operator.yaml"));
            // With its webhooks gone too, the bundle says nothing about this operator.
            let bare = without(
                &yaml,
                "MutatingWebhookConfiguration",
                "flink-operator-mutating-webhook-configuration",
            );
            assert!(run(&OperatorNotRunning, &load(&bare)).is_empty());
        }
    }
}

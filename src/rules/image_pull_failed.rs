//! FLK105: an image cannot be pulled (`ErrImagePull`, `ImagePullBackOff`, `InvalidImageName`,
//! `ErrImageNeverPull`).
//!
//! The waiting message of `ImagePullBackOff` only says "Back-off pulling image"; the reason is in
//! the kubelet's `Failed` events ("Failed to pull image ...: rpc error: ..."). The finding reads both
//! and tells apart the usual causes by their wording: the tag or repository does not exist, the
//! registry wants credentials (pull secret), its certificate is not trusted (TLS), it cannot be
//! reached, it rate-limits, or the name itself is invalid.
//!
//! Flink's main container takes its image from `spec.image` of the FlinkDeployment (Flink overwrites
//! the main container's image); sidecars and init containers take theirs from the pod template.

use super::support::containers::{
    component_title, container_events, event_line, one_line, state_line,
};
use super::support::flink_image;
use super::support::pod_status::{containers, ContainerView};
use super::support::rollout;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::names::{FLINKCLUSTER_SUBMITTER_CONTAINER, LABEL_APP, MAIN_CONTAINER};
use crate::shell::{escape_controls, jsonpath, sh};
use crate::snapshot::flink::{FlinkCluster, FlinkDeployment};
use crate::snapshot::index::{flinkcluster_label, label, pod_component, pod_name, pod_namespace};
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};

pub struct ImagePullFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK105",
    name: "image_pull_failed",
    summary: "an image cannot be pulled (ErrImagePull, ImagePullBackOff)",
    category: Category::ImagePullFailed,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"correct the image name or tag, or give the pods a pull secret for the registry (`imagePullSecrets` in the pod template or on the ServiceAccount)"#,
    verify: r#"kubectl get pods -o custom-columns=NAME:.metadata.name,WAITING:.status.containerStatuses[0].state.waiting.reason   # expect no ErrImagePull or ImagePullBackOff"#,
};

const PULL_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
];

impl Rule for ImagePullFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for pod in &snapshot.pods {
            for c in containers(pod) {
                let Some(reason) = c.waiting_reason().filter(|r| PULL_REASONS.contains(r)) else {
                    continue;
                };
                let f = finding(snapshot, index, pod, &c, reason);
                if let Some(fc) = flinkcluster_of(index, pod) {
                    let predates = flinkcluster_image_container(&c)
                        .then(|| rollout::flinkcluster_image_pull(fc, pod, c.name()))
                        .flatten();
                    out.push(match predates {
                        Some(p) => rollout::awaiting_flinkcluster(f, fc, pod, &p),
                        None => f,
                    });
                    continue;
                }
                // The spec already names another image or a pull secret this pod lacks: the
                // pod was made before; the operator replaces it.
                let fd = label(pod, LABEL_APP)
                    .and_then(|app| index.flink_deployment(pod_namespace(pod), app));
                out.push(
                    match fd
                        .filter(|_| c.name() == MAIN_CONTAINER)
                        .and_then(|fd| rollout::image_pull(fd, pod).map(|p| (fd, p)))
                    {
                        Some((fd, p)) => rollout::awaiting_rollout(f, fd, pod, &p),
                        None => f,
                    },
                );
            }
        }
        out
    }
}

/// The GCP/Spotify FlinkCluster a pod belongs to (`app=flink`, `cluster=<name>`), when it is in
/// the snapshot.
fn flinkcluster_of<'a>(index: &Index<'a>, pod: &Pod) -> Option<&'a FlinkCluster> {
    flinkcluster_label(&pod.metadata).and_then(|name| index.flink_cluster(pod_namespace(pod), name))
}

/// Why the pull failed, as far as the kubelet's words tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    InvalidName,
    NeverPull,
    Tls,
    RateLimited,
    Unreachable,
    NotFound,
    /// "pull access denied, repository does not exist or may require authorization"
    DeniedOrMissing,
    Unauthorized,
    Unknown,
}

fn classify(reason: &str, text: &str) -> Cause {
    let t = text.to_ascii_lowercase();
    let has = |ks: &[&str]| ks.iter().any(|k| t.contains(k));
    if reason == "InvalidImageName" || t.contains("invalid reference format") {
        Cause::InvalidName
    } else if reason == "ErrImageNeverPull" {
        Cause::NeverPull
    } else if has(&["x509", "certificate", "tls:"]) {
        Cause::Tls
    } else if has(&["toomanyrequests", "429 too many requests", "rate limit"]) {
        Cause::RateLimited
    } else if has(&[
        "no such host",
        "i/o timeout",
        "connection refused",
        "network is unreachable",
        "dial tcp",
    ]) {
        Cause::Unreachable
    } else if has(&["repository does not exist or may require"]) {
        Cause::DeniedOrMissing
    } else if has(&[
        "unauthorized",
        "authentication required",
        "insufficient_scope",
        "authorization failed",
        "403 forbidden",
        "denied",
    ]) {
        Cause::Unauthorized
    } else if has(&[
        ": not found",
        "notfound",
        "manifest unknown",
        "name unknown",
        "not found",
    ]) {
        Cause::NotFound
    } else {
        Cause::Unknown
    }
}

fn cause_words(c: Cause) -> &'static str {
    match c {
        Cause::InvalidName => "the image name is not a valid reference",
        Cause::NeverPull => "imagePullPolicy is Never and the image is not on the node",
        Cause::Tls => "the registry's TLS certificate is not trusted",
        Cause::RateLimited => "the registry rate-limits the pulls",
        Cause::Unreachable => "the registry cannot be reached from the node",
        Cause::NotFound => "the image or its tag does not exist",
        Cause::DeniedOrMissing => "the repository does not exist or needs credentials",
        Cause::Unauthorized => "the registry refuses the pull without valid credentials",
        Cause::Unknown => "see the kubelet's message",
    }
}

/// The registry host of an image reference (`docker.io` when none is named).
fn registry(image: &str) -> &str {
    match image.split_once('/') {
        Some((first, _)) if first.contains('.') || first.contains(':') || first == "localhost" => {
            first
        }
        _ => "docker.io",
    }
}

fn finding(
    snapshot: &Snapshot,
    index: &Index,
    pod: &Pod,
    c: &ContainerView,
    reason: &str,
) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let image = c
        .spec
        .and_then(|s| s.image.as_deref())
        .filter(|i| !i.is_empty())
        .unwrap_or(&c.status.image)
        .to_string();
    let events = container_events(index, ns, name, c.name());
    let pull_events: Vec<_> = events
        .iter()
        .filter(|e| {
            matches!(
                e.reason.as_deref(),
                Some("Failed" | "BackOff" | "InspectFailed" | "ErrImageNeverPull")
            )
        })
        .collect();
    let mut text = c.waiting_message().unwrap_or("").to_string();
    for e in &pull_events {
        text.push('\n');
        text.push_str(e.message.as_deref().unwrap_or(""));
    }
    let cause = classify(reason, &text);
    let secrets: Vec<&str> = pod
        .spec
        .as_ref()
        .and_then(|s| s.image_pull_secrets.as_ref())
        .map(|v| v.iter().map(|r| r.name.as_str()).collect())
        .unwrap_or_default();
    let field = if c.init {
        "initContainers"
    } else {
        "containers"
    };
    // A FlinkCluster's JobManager, TaskManagers and job submitter all run `spec.image.name`: one
    // title for all of them, so that they fold into one finding with one fix.
    let whose = match flinkcluster_of(index, pod).filter(|fc| {
        flinkcluster_image_container(c)
            && fc.spec.image.as_ref().and_then(|i| i.name.as_deref()) == Some(image.as_str())
    }) {
        Some(fc) => format!("FlinkCluster {} (spec.image.name)", fc.name()),
        None => component_title(pod, c),
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!(
            "image `{image}` of {whose} cannot be pulled: {}",
            cause_words(cause)
        ),
    )
    .deployment(index.deployment_of_pod(pod))
    .evidence(format!("spec.{field}[{}].image: {image}", c.name()))
    .evidence(state_line(c))
    .link(link::container(ns, name, c.name()));
    for e in pull_events.iter().rev().take(4).rev() {
        f = f.evidence(event_line(e));
    }
    f = f.evidence(if secrets.is_empty() {
        "spec.imagePullSecrets: none".to_string()
    } else {
        format!("spec.imagePullSecrets: {}", secrets.join(", "))
    });
    let secrets_read = snapshot
        .secrets
        .iter()
        .any(|s| s.metadata.namespace.as_deref() == Some(ns));
    for s in &secrets {
        let present = snapshot.secrets.iter().any(|x| {
            x.metadata.namespace.as_deref() == Some(ns) && x.metadata.name.as_deref() == Some(s)
        });
        if secrets_read && !present {
            f = f.evidence(format!(
                "Secret {s} is not among the Secrets of namespace {ns}"
            ));
        }
    }
    let fd = label(pod, LABEL_APP).and_then(|app| index.flink_deployment(ns, app));
    let fcl = flinkcluster_of(index, pod);
    let edit = match fcl {
        Some(fc) => flinkcluster_edit(ns, fc, c),
        None => deployment_edit(ns, pod, c, fd),
    };
    let fix = fix(ns, pod, &image, cause, &secrets, &edit, &text);
    let verify = match (fcl, fd) {
        (Some(fc), _) => format!(
            "kubectl get pods -n {} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.status.containerStatuses[*].state.waiting.reason}}{{\"\\n\"}}{{end}}'   # expect no ErrImagePull / ImagePullBackOff",
            sh(ns),
            sh(&Mode::FlinkCluster.selector(Some(fc.name()), None))
        ),
        (None, Some(d)) => format!(
            "kubectl get pods -n {} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.status.containerStatuses[*].state.waiting.reason}}{{\"\\n\"}}{{end}}'   # expect no ErrImagePull / ImagePullBackOff",
            sh(ns),
            sh(&Mode::Operator.selector(Some(d.name()), None))
        ),
        (None, None) => format!(
            "kubectl get pod {} -n {} -o {}   # expect running",
            sh(name),
            sh(ns),
            jsonpath(&format!(
                "{{.status.{}Statuses[?(@.name==\"{}\")].state}}",
                if c.init { "initContainer" } else { "container" },
                c.name()
            ))
        ),
    };
    f.fix(fix).verify(verify)
}

/// Where a FlinkDeployment sets this container's image, as a JSON merge patch and a path.
fn image_field(fd: &FlinkDeployment, pod: &Pod, c: &ContainerView) -> (String, Option<String>) {
    if c.name() == MAIN_CONTAINER && !c.init {
        return (
            "spec.image".to_string(),
            Some("{\"spec\":{\"image\":\"<image that exists>\"}}".to_string()),
        );
    }
    let component = pod_component(pod);
    let list = if c.init {
        "initContainers"
    } else {
        "containers"
    };
    for (path, t) in fd.pod_templates() {
        let other = match component {
            Some(Component::JobManager) => Some(Component::TaskManager),
            Some(Component::TaskManager) => Some(Component::JobManager),
            _ => None,
        };
        if other.is_some_and(|o| path.contains(o.spec_key())) {
            continue;
        }
        let Some(spec) = t.spec.as_ref() else {
            continue;
        };
        let found = if c.init {
            &spec.init_containers
        } else {
            &spec.containers
        };
        if let Some(i) = found.iter().position(|x| x.name == c.name()) {
            return (format!("{path}.spec.{list}[{i}].image"), None);
        }
    }
    (
        format!("the pod template's {list}[name={}].image", c.name()),
        None,
    )
}

/// Where the fix changes the image, and how: what the FlinkDeployment or FlinkCluster sets (or
/// the workload that owns the pod), as commands.
struct Edit {
    /// The field that names the image, for the text.
    field: String,
    /// The command (or words) that set another image.
    set_image: String,
    /// The command (with a word on where it lands) that adds a pull secret.
    secret_patch: String,
    /// The fix for `imagePullPolicy: Never`.
    never_pull: String,
}

fn deployment_edit(ns: &str, pod: &Pod, c: &ContainerView, fd: Option<&FlinkDeployment>) -> Edit {
    let ns = sh(ns);
    let (field, patch) = match fd {
        Some(d) => image_field(d, pod, c),
        None => (
            format!(
                "spec.containers[{}].image of the workload that owns the pod",
                c.name()
            ),
            None,
        ),
    };
    // An image that exists, for the comment: the official image of the Flink version the spec
    // declares. The refused image's own tag says nothing (it is what does not exist).
    let example = |d: &FlinkDeployment| {
        d.spec
            .flink_version
            .as_deref()
            .and_then(flink_image::official_image)
            .map(|i| format!("   # e.g. {i}"))
            .unwrap_or_default()
    };
    let set_image = match (fd, patch) {
        (Some(d), Some(p)) => format!(
            "kubectl patch flinkdeployment {} -n {ns} --type=merge -p '{}'{}",
            sh(d.name()),
            p,
            example(d)
        ),
        (Some(d), None) => format!(
            "kubectl edit flinkdeployment {} -n {ns}   # set {field}",
            sh(d.name())
        ),
        (None, _) => format!("set {field}"),
    };
    let secret_patch = match fd {
        Some(d) => format!(
            "kubectl patch flinkdeployment {} -n {ns} --type=merge \\\n    -p '{{\"spec\":{{\"podTemplate\":{{\"spec\":{{\"imagePullSecrets\":[{{\"name\":\"regcred\"}}]}}}}}}}}'\n\n\
             (or in the manifest: spec.podTemplate.spec.imagePullSecrets: [{{name: regcred}}]; Flink merges it into the \
             JobManager and TaskManager pods)",
            sh(d.name())
        ),
        None => "add `imagePullSecrets: [{name: regcred}]` to the pod spec (or to the pod's ServiceAccount)".to_string(),
    };
    let never_pull = match fd {
        Some(d) => format!(
            "imagePullPolicy Never only works when the image is preloaded on every node. Let the kubelet pull it:\n\n  \
             kubectl patch flinkdeployment {} -n {ns} --type=merge -p '{{\"spec\":{{\"imagePullPolicy\":\"IfNotPresent\"}}}}'",
            sh(d.name())
        ),
        None => "Set imagePullPolicy to IfNotPresent, or preload the image on every node.".to_string(),
    };
    Edit {
        field,
        set_image,
        secret_patch,
        never_pull,
    }
}

/// The FlinkCluster's containers that run `spec.image.name`: the JobManager's `jobmanager`, the
/// TaskManager's `taskmanager` and the job submitter's `main` (flinkcluster_converter.go@v0.6.0);
/// init containers and sidecars name their own image.
fn flinkcluster_image_container(c: &ContainerView) -> bool {
    !c.init
        && (c.name() == FLINKCLUSTER_SUBMITTER_CONTAINER
            || matches!(
                Component::parse(c.name()),
                Some(Component::JobManager | Component::TaskManager)
            ))
}

/// A FlinkCluster's pods take their image from `spec.image.name`, their pull policy from
/// `spec.image.pullPolicy` and their pull secrets from `spec.image.pullSecrets`
/// (spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/v1beta1/flinkcluster_types.go ImageSpec).
fn flinkcluster_edit(ns: &str, fc: &FlinkCluster, c: &ContainerView) -> Edit {
    let (ns, name) = (sh(ns), sh(fc.name()));
    // The official image of the Flink version the FlinkCluster declares (`1.14.2` -> flink:1.14).
    let example = fc
        .spec
        .flink_version
        .as_deref()
        .and_then(flink_image::official_image)
        .map(|i| format!("   # e.g. {i}"))
        .unwrap_or_default();
    let (field, set_image) = if flinkcluster_image_container(c) {
        (
            "spec.image.name".to_string(),
            format!(
                "kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"image\":{{\"name\":\"<image that exists>\"}}}}}}'{example}"
            ),
        )
    } else {
        let field = format!(
            "the image of `{}` in spec.jobManager / spec.taskManager / spec.job {}",
            c.name(),
            if c.init { "initContainers" } else { "sidecars" }
        );
        // The comment names the container: one line, whatever its name holds.
        let set = format!(
            "kubectl edit flinkcluster {name} -n {ns}   # set {}",
            escape_controls(&field)
        );
        (field, set)
    };
    Edit {
        field,
        set_image,
        secret_patch: format!(
            "kubectl patch flinkcluster {name} -n {ns} --type=merge \\\n    -p '{{\"spec\":{{\"image\":{{\"pullSecrets\":[{{\"name\":\"regcred\"}}]}}}}}}'\n\n\
             (the operator puts spec.image.pullSecrets on the JobManager, TaskManager and job submitter pods)"
        ),
        never_pull: format!(
            "imagePullPolicy Never only works when the image is preloaded on every node. Let the kubelet pull it:\n\n  \
             kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"image\":{{\"pullPolicy\":\"IfNotPresent\"}}}}}}'"
        ),
    }
}

fn fix(
    ns: &str,
    pod: &Pod,
    image: &str,
    cause: Cause,
    secrets: &[&str],
    edit: &Edit,
    text: &str,
) -> String {
    // In prose a value is shown on one line; in a command it is one shell word.
    let (reg_word, image_word) = (sh(registry(image)), sh(image));
    let reg = escape_controls(registry(image));
    let image = escape_controls(image);
    let ns = sh(ns);
    let (field, set_image, secret_patch) = (&edit.field, &edit.set_image, &edit.secret_patch);
    match cause {
        Cause::NotFound => format!(
            "`{image}` is not in {reg}: check the repository and tag (e.g. `crane ls {}` or `docker manifest inspect {image_word}`), \
             then point {field} at one that exists:\n\n  {set_image}",
            sh(image_word.0.rsplit_once(':').filter(|(_, t)| !t.contains('/')).map(|(r, _)| r).unwrap_or(image_word.0))
        ),
        Cause::Unauthorized | Cause::DeniedOrMissing => {
            let have = if secrets.is_empty() {
                "The pod has no imagePullSecrets.".to_string()
            } else {
                format!(
                    "The pod uses pull secret(s) {}: check that they hold credentials for {reg} \
                     (kubectl get secret {} -n {ns} -o jsonpath='{{.data.\\.dockerconfigjson}}' | base64 -d | jq '.auths | keys').",
                    escape_controls(&secrets.join(", ")),
                    sh(secrets[0])
                )
            };
            let first = if cause == Cause::DeniedOrMissing {
                format!("First make sure `{image}` exists (a typo in the repository gives the same answer). ")
            } else {
                String::new()
            };
            format!(
                "{first}{reg} wants credentials. {have}\n\nCreate a pull secret and reference it:\n\n  \
                 kubectl create secret docker-registry regcred -n {ns} --docker-server={reg_word} \\\n    \
                 --docker-username=USER --docker-password=PASSWORD\n  {secret_patch}"
            )
        }
        Cause::Tls => format!(
            "The nodes' container runtime does not trust {reg}'s certificate. Install the registry's CA on every node \
             (containerd: /etc/containerd/certs.d/{reg}/hosts.toml with `ca = \"/etc/containerd/certs.d/{reg}/ca.crt\"`), \
             or use a registry whose certificate chains to a public CA:\n\n  {set_image}"
        ),
        Cause::RateLimited => format!(
            "{reg} limits anonymous pulls. Pull with an account (a pull secret) or from a mirror:\n\n  \
             kubectl create secret docker-registry regcred -n {ns} --docker-server={reg_word} \\\n    \
             --docker-username=USER --docker-password=PASSWORD\n  {secret_patch}"
        ),
        Cause::Unreachable => format!(
            "The nodes cannot reach {reg} (DNS, firewall, proxy): check from a node with `crictl pull {image_word}`, \
             or use a registry the cluster can reach:\n\n  {set_image}"
        ),
        Cause::InvalidName => format!(
            "`{image}` is not a valid image reference ({}). Write it as [registry/]repository[:tag|@digest], lower case:\n\n  {set_image}",
            one_line(text.lines().find(|l| l.contains("invalid")).unwrap_or("invalid reference format"))
        ),
        Cause::NeverPull => edit.never_pull.clone(),
        Cause::Unknown => format!(
            "Read the kubelet's reason (`kubectl describe pod {} -n {ns}`, events `Failed`), then fix {field}:\n\n  {set_image}",
            sh(pod_name(pod))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{assert_awaiting_rollout, run, snapshot, HEALTHY};

    const PULL: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: shop}
spec:
  image: flink:1.99
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/usrlib/orders.jar, parallelism: 2, upgradeMode: stateless}
status: {jobManagerDeploymentStatus: ERROR, lifecycleState: DEPLOYED}
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-6c7d8-q2w3e
  namespace: shop
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers: [{name: flink-main-container, image: "flink:1.99"}]
status:
  phase: Pending
  containerStatuses:
  - name: flink-main-container
    image: flink:1.99
    imageID: ""
    ready: false
    restartCount: 0
    state: {waiting: {reason: ImagePullBackOff, message: "Back-off pulling image \"flink:1.99\""}}
---
apiVersion: v1
kind: Event
metadata: {name: orders-6c7d8-q2w3e.1, namespace: shop}
involvedObject: {kind: Pod, namespace: shop, name: orders-6c7d8-q2w3e, fieldPath: "spec.containers{flink-main-container}"}
reason: Failed
type: Warning
count: 4
lastTimestamp: "2026-11-28T10:00:00Z"
message: 'Failed to pull image "flink:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/flink:1.99": failed to resolve reference "docker.io/library/flink:1.99": docker.io/library/flink:1.99: not found'
"#;

    #[test]
    fn fires_on_a_missing_tag_with_events_and_the_spec_image_patch() {
        let f = run(&ImagePullFailed, &snapshot(PULL));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::ImagePullFailed);
        assert!(
            f.title.contains("image `flink:1.99`") && f.title.contains("does not exist"),
            "{}",
            f.title
        );
        assert!(f
            .evidence
            .contains(&"spec.containers[flink-main-container].image: flink:1.99".to_string()));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("waiting ImagePullBackOff")));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("event Warning Failed x4") && e.contains("not found")),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .contains(&"spec.imagePullSecrets: none".to_string()));
        assert!(f.fix.contains("kubectl patch flinkdeployment orders -n shop --type=merge -p '{\"spec\":{\"image\":\"<image that exists>\"}}'"), "{}", f.fix);
        assert!(f.fix.contains("in docker.io"));
        assert!(
            f.verify
                .contains("-l 'app=orders,component in (jobmanager,taskmanager)'"),
            "{}",
            f.verify
        );
    }

    #[test]
    fn the_example_image_is_the_official_one_of_the_declared_version() {
        let fix = |y: &str| run(&ImagePullFailed, &snapshot(y))[0].fix.clone();
        let v118 = PULL.replace("flinkVersion: v1_20", "flinkVersion: v1_18");
        assert!(
            fix(&v118)
                .contains(r#"-p '{"spec":{"image":"<image that exists>"}}'   # e.g. flink:1.18"#),
            "{}",
            fix(&v118)
        );
        // No version declared: no example (the refused image's tag is what does not exist).
        let none = PULL.replace("  flinkVersion: v1_20\n", "");
        assert!(
            fix(&none).contains("-p '{\"spec\":{\"image\":\"<image that exists>\"}}'")
                && !fix(&none).contains("e.g. flink:"),
            "{}",
            fix(&none)
        );
        // A FlinkCluster declares its version as free text: 1.14.2 is the flink:1.14 line.
        let fc = FC_PULL.replace("flinkVersion: '1.14'", "flinkVersion: '1.14.2'");
        assert!(
            fix(&fc).contains("# e.g. flink:1.14") && !fix(&fc).contains("# e.g. flink:1.14."),
            "{}",
            fix(&fc)
        );
        let fc = FC_PULL.replace("  flinkVersion: '1.14'\n", "");
        assert!(!fix(&fc).contains("e.g. flink:"), "{}", fix(&fc));
    }

    #[test]
    fn tells_credentials_and_tls_apart() {
        let auth = PULL
            .replace("flink:1.99", "registry.example.com/team/flink:1.20")
            .replace("rpc error: code = NotFound", "rpc error: code = Unknown")
            .replace(": not found'", ": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized'")
            .replace("containers: [{name: flink-main-container", "imagePullSecrets: [{name: old-creds}]\n  containers: [{name: flink-main-container");
        let f = &run(&ImagePullFailed, &snapshot(&auth))[0];
        assert!(f.title.contains("credentials"), "{}", f.title);
        assert!(
            f.evidence
                .contains(&"spec.imagePullSecrets: old-creds".to_string()),
            "{:?}",
            f.evidence
        );
        assert!(f.fix.contains("--docker-server=registry.example.com"));
        assert!(f
            .fix
            .contains("\"imagePullSecrets\":[{\"name\":\"regcred\"}]"));
        assert!(f.fix.contains("pull secret(s) old-creds"));

        let tls = PULL.replace(
            ": not found'",
            ": tls: failed to verify certificate: x509: certificate signed by unknown authority'",
        );
        let f = &run(&ImagePullFailed, &snapshot(&tls))[0];
        assert!(f.title.contains("TLS certificate"), "{}", f.title);
        assert!(f
            .fix
            .contains("/etc/containerd/certs.d/docker.io/hosts.toml"));
    }

    #[test]
    fn invalid_names_and_sidecar_images_point_at_the_pod_template() {
        let y = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: shop}
spec:
  image: flink:1.20
  serviceAccount: flink
  podTemplate:
    spec:
      containers:
      - {name: flink-main-container}
      - {name: log-shipper, image: "Fluent/Fluent-Bit:3"}
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-6c7d8-q2w3e
  namespace: shop
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers: [{name: flink-main-container, image: "flink:1.20"}, {name: log-shipper, image: "Fluent/Fluent-Bit:3"}]
status:
  phase: Pending
  containerStatuses:
  - {name: log-shipper, image: "Fluent/Fluent-Bit:3", imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: InvalidImageName, message: "Failed to apply default image tag \"Fluent/Fluent-Bit:3\": couldn't parse image name \"Fluent/Fluent-Bit:3\": invalid reference format: repository name must be lowercase"}}}
"#;
        let f = &run(&ImagePullFailed, &snapshot(y))[0];
        assert!(f.title.contains("not a valid reference"));
        assert!(
            f.fix.contains("spec.podTemplate.spec.containers[1].image"),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("repository name must be lowercase"));
    }

    #[test]
    fn silent_on_healthy_pods() {
        assert!(run(&ImagePullFailed, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn registry_hosts() {
        assert_eq!(registry("flink:1.20"), "docker.io");
        assert_eq!(registry("apache/flink:1.20"), "docker.io");
        assert_eq!(registry("ghcr.io/org/flink:1"), "ghcr.io");
        assert_eq!(registry("localhost:5000/flink"), "localhost:5000");
    }

    #[test]
    fn the_fix_in_the_spec_before_the_rollout_is_an_info_finding() {
        // The bundle's fix applied to the FlinkDeployment; the pods are the old ones.
        let mut s = crate::rules::testing::scenario("image-pull-failed");
        s.flink_deployments[0].spec.pod_template = Some(crate::snapshot::flink::PodTemplate {
            metadata: None,
            spec: Some(crate::snapshot::flink::PodTemplateSpec {
                image_pull_secrets: vec![k8s_openapi::api::core::v1::LocalObjectReference {
                    name: "regcred".into(),
                }],
                ..Default::default()
            }),
        });
        let f = run(&ImagePullFailed, &s);
        assert!(!f.is_empty());
        let main = f
            .iter()
            .find(|f| f.object.kind == "Pod")
            .expect("the pod's finding");
        assert_eq!(main.severity, Severity::Info, "{main:#?}");
        assert!(main.title.contains("the pod predates it"), "{}", main.title);
        assert!(
            crate::finding::Remedy::from_fix(&main.fix).is_empty(),
            "{}",
            main.fix
        );
    }

    /// A FlinkCluster (GCP/Spotify operator) whose `spec.image.name` has a tag that does not
    /// exist: its JobManager and TaskManager pods cannot pull it.
    const FC_PULL: &str = r#"
apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata: {name: events, namespace: stream}
spec:
  flinkVersion: '1.14'
  image: {name: 'flink:1.14.20'}
status: {state: Creating}
---
apiVersion: v1
kind: Pod
metadata:
  name: events-jobmanager-0
  namespace: stream
  labels: {app: flink, cluster: events, component: jobmanager}
spec:
  initContainers: [{name: fetch-jar, image: 'gcr.io/acme/fetch:1'}]
  containers: [{name: jobmanager, image: 'flink:1.14.20'}]
status:
  phase: Pending
  containerStatuses:
  - {name: jobmanager, image: 'flink:1.14.20', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull, message: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/flink:1.14.20": failed to resolve reference "docker.io/library/flink:1.14.20": docker.io/library/flink:1.14.20: not found'}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: events-taskmanager-0
  namespace: stream
  labels: {app: flink, cluster: events, component: taskmanager}
spec:
  containers: [{name: taskmanager, image: 'flink:1.14.20'}]
status:
  phase: Pending
  containerStatuses:
  - {name: taskmanager, image: 'flink:1.14.20', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull, message: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/flink:1.14.20": failed to resolve reference "docker.io/library/flink:1.14.20": docker.io/library/flink:1.14.20: not found'}}}
"#;

    #[test]
    fn a_flinkcluster_s_pods_are_fixed_in_its_spec_image() {
        let f = run(&ImagePullFailed, &snapshot(FC_PULL));
        assert_eq!(f.len(), 2, "{f:#?}");
        // One title for the JobManager and the TaskManager: they fold into one finding.
        assert_eq!(f[0].title, f[1].title);
        assert_eq!(
            f[0].title,
            "image `flink:1.14.20` of FlinkCluster events (spec.image.name) cannot be pulled: the image or its tag does not exist"
        );
        for f in &f {
            assert_eq!(
                f.deployment,
                Some(ObjectRef::namespaced("FlinkCluster", "stream", "events"))
            );
            assert!(
                f.fix.contains(r#"kubectl patch flinkcluster events -n stream --type=merge -p '{"spec":{"image":{"name":"<image that exists>"}}}'   # e.g. flink:1.14"#),
                "{}",
                f.fix
            );
            assert!(f.fix.contains("point spec.image.name at one"), "{}", f.fix);
            assert!(
                f.verify
                    .starts_with("kubectl get pods -n stream -l app=flink,cluster=events "),
                "{}",
                f.verify
            );
        }
    }

    #[test]
    fn a_flinkcluster_without_credentials_gets_spec_image_pull_secrets() {
        let y = FC_PULL
            .replace("flink:1.14.20", "registry.acme.io/flink/events:1.4")
            .replace(
                "rpc error: code = NotFound desc = failed to pull and unpack image",
                "rpc error: code = Unknown desc = failed to authorize: 401 Unauthorized; pulling",
            );
        let f = run(&ImagePullFailed, &snapshot(&y));
        let tm = f
            .iter()
            .find(|f| f.object.name == "events-taskmanager-0")
            .expect("tm");
        assert!(
            tm.fix.contains("--docker-server=registry.acme.io"),
            "{}",
            tm.fix
        );
        assert!(
            tm.fix
                .contains(r#"-p '{"spec":{"image":{"pullSecrets":[{"name":"regcred"}]}}}'"#),
            "{}",
            tm.fix
        );
    }

    #[test]
    fn a_flinkcluster_init_container_names_its_own_image() {
        let y = FC_PULL.replace(
            "  containerStatuses:\n  - {name: jobmanager,",
            "  initContainerStatuses:\n  - {name: fetch-jar, image: 'gcr.io/acme/fetch:1', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull, message: 'not found'}}}\n  containerStatuses:\n  - {name: jobmanager,",
        );
        let f = run(&ImagePullFailed, &snapshot(&y));
        let init = f
            .iter()
            .find(|f| f.title.contains("fetch:1"))
            .expect("init");
        assert!(init.fix.contains("kubectl edit flinkcluster events -n stream   # set the image of `fetch-jar` in spec.jobManager / spec.taskManager / spec.job initContainers"), "{}", init.fix);
    }

    #[test]
    fn another_image_or_a_pull_secret_in_the_flinkcluster_is_a_pending_rollout() {
        let y = FC_PULL.replace(
            "image: {name: 'flink:1.14.20'}",
            "image: {name: 'flink:1.14.2'}",
        );
        let f = run(&ImagePullFailed, &snapshot(&y));
        assert_eq!(f.len(), 2);
        for f in &f {
            assert_awaiting_rollout(f, "fixed in FlinkCluster events (image)", "flink:1.14.2");
        }
        let y = FC_PULL.replace(
            "image: {name: 'flink:1.14.20'}",
            "image: {name: 'flink:1.14.20', pullSecrets: [{name: regcred}]}",
        );
        let f = run(&ImagePullFailed, &snapshot(&y));
        assert!(
            f.iter()
                .all(|f| f.severity == Severity::Info && f.title.contains("(image pull secrets)")),
            "{f:#?}"
        );
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&ImagePullFailed, &scenario("image-pull-failed"));
        assert_eq!(f.len(), 1);
        assert!(f[0].title.contains("credentials"), "{}", f[0].title);
        for name in HEALTHY_SCENARIOS {
            assert!(run(&ImagePullFailed, &scenario(name)).is_empty(), "{name}");
        }
    }
}

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
use super::support::pod_status::{containers, ContainerView};
use super::support::rollout;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::names::{LABEL_APP, LABEL_COMPONENT, MAIN_CONTAINER};
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{label, pod_name, pod_namespace};
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
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!(
            "image `{image}` of {} cannot be pulled: {}",
            component_title(pod, c),
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
    let fix = fix(ns, pod, c, &image, cause, &secrets, fd, &text);
    let verify = match fd {
        Some(d) => format!(
            "kubectl get pods -n {ns} -l app={} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.status.containerStatuses[*].state.waiting.reason}}{{\"\\n\"}}{{end}}'   # expect no ErrImagePull / ImagePullBackOff",
            d.name()
        ),
        None => format!(
            "kubectl get pod {name} -n {ns} -o jsonpath='{{.status.{}Statuses[?(@.name==\"{}\")].state}}'   # expect running",
            if c.init { "initContainer" } else { "container" },
            c.name()
        ),
    };
    f.fix(fix).verify(verify)
}

/// Where a FlinkDeployment sets this container's image, as a JSON merge patch and a path.
fn image_field(fd: &FlinkDeployment, pod: &Pod, c: &ContainerView) -> (String, Option<String>) {
    if c.name() == MAIN_CONTAINER && !c.init {
        return (
            "spec.image".to_string(),
            Some("{\"spec\":{\"image\":\"IMAGE\"}}".to_string()),
        );
    }
    let component = label(pod, LABEL_COMPONENT).unwrap_or("");
    let list = if c.init {
        "initContainers"
    } else {
        "containers"
    };
    for (path, t) in fd.pod_templates() {
        if path.contains("jobManager") && component == "taskmanager"
            || path.contains("taskManager") && component == "jobmanager"
        {
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

#[allow(clippy::too_many_arguments)]
fn fix(
    ns: &str,
    pod: &Pod,
    c: &ContainerView,
    image: &str,
    cause: Cause,
    secrets: &[&str],
    fd: Option<&FlinkDeployment>,
    text: &str,
) -> String {
    let reg = registry(image);
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
    let set_image = match (fd, patch) {
        (Some(d), Some(p)) => format!(
            "kubectl patch flinkdeployment {} -n {ns} --type=merge -p '{}'   # IMAGE: a reference that exists, e.g. flink:1.20",
            d.name(),
            p
        ),
        (Some(d), None) => format!("kubectl edit flinkdeployment {} -n {ns}   # set {field}", d.name()),
        (None, _) => format!("set {field}"),
    };
    let secret_patch = match fd {
        Some(d) => format!(
            "kubectl patch flinkdeployment {} -n {ns} --type=merge \\\n    -p '{{\"spec\":{{\"podTemplate\":{{\"spec\":{{\"imagePullSecrets\":[{{\"name\":\"regcred\"}}]}}}}}}}}'\n\n\
             (or in the manifest: spec.podTemplate.spec.imagePullSecrets: [{{name: regcred}}]; Flink merges it into the \
             JobManager and TaskManager pods)",
            d.name()
        ),
        None => "add `imagePullSecrets: [{name: regcred}]` to the pod spec (or to the pod's ServiceAccount)".to_string(),
    };
    match cause {
        Cause::NotFound => format!(
            "`{image}` is not in {reg}: check the repository and tag (e.g. `crane ls {}` or `docker manifest inspect {image}`), \
             then point {field} at one that exists:\n\n  {set_image}",
            image.rsplit_once(':').filter(|(_, t)| !t.contains('/')).map(|(r, _)| r).unwrap_or(image)
        ),
        Cause::Unauthorized | Cause::DeniedOrMissing => {
            let have = if secrets.is_empty() {
                "The pod has no imagePullSecrets.".to_string()
            } else {
                format!(
                    "The pod uses pull secret(s) {}: check that they hold credentials for {reg} \
                     (kubectl get secret {} -n {ns} -o jsonpath='{{.data.\\.dockerconfigjson}}' | base64 -d | jq '.auths | keys').",
                    secrets.join(", "),
                    secrets[0]
                )
            };
            let first = if cause == Cause::DeniedOrMissing {
                format!("First make sure `{image}` exists (a typo in the repository gives the same answer). ")
            } else {
                String::new()
            };
            format!(
                "{first}{reg} wants credentials. {have}\n\nCreate a pull secret and reference it:\n\n  \
                 kubectl create secret docker-registry regcred -n {ns} --docker-server={reg} \\\n    \
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
             kubectl create secret docker-registry regcred -n {ns} --docker-server={reg} \\\n    \
             --docker-username=USER --docker-password=PASSWORD\n  {secret_patch}"
        ),
        Cause::Unreachable => format!(
            "The nodes cannot reach {reg} (DNS, firewall, proxy): check from a node with `crictl pull {image}`, \
             or use a registry the cluster can reach:\n\n  {set_image}"
        ),
        Cause::InvalidName => format!(
            "`{image}` is not a valid image reference ({}). Write it as [registry/]repository[:tag|@digest], lower case:\n\n  {set_image}",
            one_line(text.lines().find(|l| l.contains("invalid")).unwrap_or("invalid reference format"))
        ),
        Cause::NeverPull => match fd {
            Some(d) => format!(
                "imagePullPolicy Never only works when the image is preloaded on every node. Let the kubelet pull it:\n\n  \
                 kubectl patch flinkdeployment {} -n {ns} --type=merge -p '{{\"spec\":{{\"imagePullPolicy\":\"IfNotPresent\"}}}}'",
                d.name()
            ),
            None => "Set imagePullPolicy to IfNotPresent, or preload the image on every node.".to_string(),
        },
        Cause::Unknown => format!(
            "Read the kubelet's reason (`kubectl describe pod {} -n {ns}`, events `Failed`), then fix {field}:\n\n  {set_image}",
            pod_name(pod)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

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
        assert!(f.fix.contains("kubectl patch flinkdeployment orders -n shop --type=merge -p '{\"spec\":{\"image\":\"IMAGE\"}}'"), "{}", f.fix);
        assert!(f.fix.contains("in docker.io"));
        assert!(f.verify.contains("-l app=orders"));
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
      - {name: Log-Shipper, image: "Fluent/Fluent-Bit:3"}
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-6c7d8-q2w3e
  namespace: shop
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers: [{name: flink-main-container, image: "flink:1.20"}, {name: Log-Shipper, image: "Fluent/Fluent-Bit:3"}]
status:
  phase: Pending
  containerStatuses:
  - {name: Log-Shipper, image: "Fluent/Fluent-Bit:3", imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: InvalidImageName, message: "Failed to apply default image tag \"Fluent/Fluent-Bit:3\": couldn't parse image name \"Fluent/Fluent-Bit:3\": invalid reference format: repository name must be lowercase"}}}
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

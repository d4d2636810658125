//! FLK104: a container keeps failing to run (`CrashLoopBackOff`, `RunContainerError`,
//! `CreateContainerConfigError`) for a reason no more specific rule owns.
//!
//! Ownership of the last exit, so that one crash gives one finding:
//! - exit 0 under restartPolicy Always: FLK102 (container_exit_zero_restarting);
//! - reason OOMKilled: FLK107 (oom_killed);
//! - Flink's own codes (239, 163, 165 anywhere; 1 and 2 in a Flink container): FLK103.
//!
//! Everything else lands here. The category says what the evidence supports, no more:
//! - 126 / 127 (found but not executable / command not found), `RunContainerError` and
//!   `StartError` (the runtime could not start the process), and `CreateContainerConfigError` for
//!   `runAsNonRoot` against an image that runs as root: `image_incompatible`: the image cannot run
//!   as deployed;
//! - `CreateContainerConfigError` otherwise (a Secret, ConfigMap or key the pod references is
//!   missing), `RunContainerError` on a mount, and a pod waiting in ContainerCreating on a volume
//!   of its template whose ConfigMap or Secret the kubelet did not find (FailedMount):
//!   `podtemplate_invalid`;
//! - a sidecar or init container (added by the pod template) failing with another code:
//!   `podtemplate_invalid`: the template added a container that cannot run;
//! - Flink's main container failing with another code (3, 134 SIGABRT, 139 SIGSEGV, a 137/143 kill
//!   that is not an OOM kill, ...): `flink_fatal_exit`. The taxonomy has no "crashes for an unknown
//!   reason" category; `flink_fatal_exit` is the symptom category for "the Flink process died", and
//!   being a symptom it ranks below (and folds under) any real cause another rule finds, where
//!   naming a root-cause category without evidence for it would mislead.

use super::support::containers::{
    component_title, container_events, event_line, handled_here, is_flink_container, logs_command,
    one_line, state_line, status_verify, termination_line, with_category, LogEvidence,
};
use super::support::flink_image;
use super::support::pod_status::{containers, restart_policy, ContainerView};
use super::support::rollout;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::names::{KIND_FLINK_DEPLOYMENT, KIND_NATIVE_CLUSTER, LABEL_APP, MAIN_CONTAINER};
use crate::shell::{quote, sh};
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{label, pod_name, pod_namespace};
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};

pub struct CrashLoopBackOff;

static META: RuleMeta = RuleMeta {
    id: "FLK104",
    name: "crashloop_backoff",
    summary:
        "a container in CrashLoopBackOff with any other exit code, with the reason its log gives",
    category: Category::FlinkFatalExit,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"read the previous log of the restarting container (`kubectl logs --previous`) and fix the cause it names; doctor lists that cause above the crash loop when it sees it"#,
    verify: r#"kubectl get pod <pod> -o jsonpath='{.status.containerStatuses[*].restartCount}'   # expect the count to stop growing"#,
};

const REASONS: &[&str] = &[
    "CrashLoopBackOff",
    "RunContainerError",
    "CreateContainerConfigError",
];

impl Rule for CrashLoopBackOff {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_each(&self, snapshot: &Snapshot, index: &Index, each: &mut dyn FnMut(Finding)) {
        for pod in &snapshot.pods {
            for c in containers(pod) {
                if let Some(reason) = c.waiting_reason().filter(|r| REASONS.contains(r)) {
                    if !owned_elsewhere(pod, &c) {
                        each(finding(snapshot, index, pod, &c, reason, None));
                    }
                } else if c.waiting_reason() == Some("ContainerCreating") && !c.init {
                    if let Some(said) = volume_not_found(index, pod) {
                        each(finding(
                            snapshot,
                            index,
                            pod,
                            &c,
                            "CreateContainerConfigError",
                            Some(said),
                        ));
                    }
                }
            }
        }
    }
}

/// The volumes Flink itself mounts from objects it creates with the pod (the operator's and
/// Flink's ConfigMaps and Secrets: apache/flink@release-1.20.1:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/Constants.java,
/// `*_VOLUME`). The kubelet may find them missing for a moment after the pod is created; a
/// lasting failure of theirs is FLK401's (the operator's readiness timeout).
const FLINK_OWN_VOLUMES: &[&str] = &[
    "flink-config-volume",
    "hadoop-config-volume",
    "kerberos-keytab-volume",
    "kerberos-krb5conf-volume",
    "pod-template-volume",
    "user-artifacts-volume",
];

/// The kubelet's word that a pod still being created mounts a ConfigMap or Secret that does not
/// exist (`MountVolume.SetUp failed for volume "V" : configmap "X" not found`, a Warning
/// FailedMount event on the pod), for a volume the pod template added: the pod waits in
/// ContainerCreating until the object exists, and nothing else reports it before the operator's
/// readiness timeout. The latest such event's message.
fn volume_not_found<'a>(index: &Index<'a>, pod: &Pod) -> Option<&'a str> {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    index
        .events_for("Pod", ns, name)
        .into_iter()
        .filter(|e| {
            e.type_.as_deref() == Some("Warning") && e.reason.as_deref() == Some("FailedMount")
        })
        .filter_map(|e| e.message.as_deref())
        .filter(|m| m.contains(" not found") && missing_reference(m).is_some())
        .rfind(|m| {
            let volume = m
                .split_once("for volume \"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(v, _)| v);
            volume.is_some_and(|v| !FLINK_OWN_VOLUMES.contains(&v))
        })
}

fn owned_elsewhere(pod: &Pod, c: &ContainerView) -> bool {
    let Some(t) = c.last_termination() else {
        return false;
    };
    (t.exit_code == 0 && restart_policy(pod) == "Always" && !c.init)
        || t.reason.as_deref() == Some("OOMKilled")
        || handled_here(c)
}

/// What the evidence says the failure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StartFailure {
    NotExecutable,
    CommandNotFound,
    StartError,
    RunAsRoot,
    MissingReference,
    MountFailed,
    Killed,
    Crashed,
}

fn kind(reason: &str, exit: Option<i32>, term_reason: Option<&str>, message: &str) -> StartFailure {
    let m = message.to_ascii_lowercase();
    if reason == "CreateContainerConfigError" {
        return if m.contains("runasnonroot") {
            StartFailure::RunAsRoot
        } else {
            StartFailure::MissingReference
        };
    }
    match exit {
        Some(127) => return StartFailure::CommandNotFound,
        Some(126) => return StartFailure::NotExecutable,
        _ => {}
    }
    if reason == "RunContainerError" || term_reason == Some("StartError") || exit == Some(128) {
        if m.contains("mount") && !m.contains("exec:") {
            return StartFailure::MountFailed;
        }
        if m.contains("executable file not found") || m.contains("no such file or directory") {
            return StartFailure::CommandNotFound;
        }
        if m.contains("permission denied") || m.contains("exec format error") {
            return StartFailure::NotExecutable;
        }
        return StartFailure::StartError;
    }
    match exit {
        Some(137 | 143) => StartFailure::Killed,
        _ => StartFailure::Crashed,
    }
}

fn finding(
    snapshot: &Snapshot,
    index: &Index,
    pod: &Pod,
    c: &ContainerView,
    reason: &str,
    kubelet_said: Option<&str>,
) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let t = c.last_termination();
    let waiting_msg = kubelet_said.or(c.waiting_message()).unwrap_or("");
    let mut message = waiting_msg.to_string();
    if let Some(m) = t.and_then(|t| t.message.as_deref()) {
        message.push('\n');
        message.push_str(m);
    }
    let k = kind(
        reason,
        t.map(|t| t.exit_code),
        t.and_then(|t| t.reason.as_deref()),
        &message,
    );
    let flink = is_flink_container(c) && !c.init;
    let category = match k {
        StartFailure::NotExecutable
        | StartFailure::CommandNotFound
        | StartFailure::StartError
        | StartFailure::RunAsRoot => Category::ImageIncompatible,
        StartFailure::MissingReference | StartFailure::MountFailed => Category::PodtemplateInvalid,
        StartFailure::Killed | StartFailure::Crashed if flink => Category::FlinkFatalExit,
        StartFailure::Killed | StartFailure::Crashed => Category::PodtemplateInvalid,
    };
    let code = t
        .map(|t| format!(" (exit code {})", t.exit_code))
        .unwrap_or_default();
    let what = match k {
        StartFailure::CommandNotFound => {
            format!("cannot start: the command it runs is not in the image{code}")
        }
        StartFailure::NotExecutable => {
            format!("cannot start: the command it runs is not executable{code}")
        }
        StartFailure::StartError => format!("cannot be started by the container runtime{code}"),
        StartFailure::RunAsRoot => {
            "is refused: runAsNonRoot is set and the image runs as root".to_string()
        }
        StartFailure::MissingReference => {
            "cannot be created: it references a Secret, ConfigMap or key that does not exist"
                .to_string()
        }
        StartFailure::MountFailed => "cannot start: a volume mount fails".to_string(),
        StartFailure::Killed => format!("is killed and restarted over and over{code}"),
        StartFailure::Crashed => format!("crashes and is restarted over and over{code}"),
    };
    let mut f = with_category(
        Finding::new(
            &META,
            ObjectRef::namespaced("Pod", ns, name),
            format!("{} {what}", component_title(pod, c)),
        ),
        category,
    )
    .deployment(index.deployment_of_pod(pod))
    .evidence(state_line(c))
    .link(link::container(ns, name, c.name()));
    if let Some(t) = t {
        f = f.evidence(termination_line(c, t));
        if let Some(m) = t.message.as_deref().filter(|m| !m.trim().is_empty()) {
            f = f.evidence(format!("terminated.message: {}", one_line(m)));
        }
    }
    if let Some(cmd) = c.command() {
        f = f.evidence(format!("container `{}` runs `{cmd}`", c.name()));
    }
    if let Some(img) = c.spec.and_then(|s| s.image.as_deref()) {
        f = f.evidence(format!("image: {img}"));
    }
    let events = container_events(index, ns, name, c.name());
    for e in events.iter().rev().take(4).rev() {
        f = f.evidence(event_line(e));
    }
    let ran = t.is_some();
    let logs = if ran {
        Some(LogEvidence::read(snapshot, ns, name, c.name(), true))
    } else {
        None
    };
    if let Some(l) = &logs {
        for line in l.lines() {
            f = f.evidence(line);
        }
    }
    let fd = label(pod, LABEL_APP).and_then(|app| index.flink_deployment(ns, app));
    let logs_cmd = logs_command(
        ns,
        name,
        c.name(),
        logs.as_ref().and_then(|l| l.previous).unwrap_or(true),
    );
    // The image is fixed in the spec already and the pod runs the one before: the operator
    // replaces it when it reconciles, and the fix is not given again.
    let main = c.name() == MAIN_CONTAINER && !c.init;
    if let Some((d, p)) = fd
        .filter(|_| main && category == Category::ImageIncompatible)
        .and_then(|d| rollout::image(d, pod).map(|p| (d, p)))
    {
        return rollout::awaiting_rollout(f, d, pod, &p);
    }
    let owner = index.deployment_of_pod(pod);
    let image = ImageFix::new(ns, c, fd, owner.as_ref());
    f.fix(fix(
        k,
        ns,
        pod,
        c,
        fd,
        &image,
        &message,
        &logs_cmd,
        logs.as_ref(),
    ))
    .verify(status_verify(ns, name, c.name()))
}

/// The official image Flink's main container should run, and how to run it: the image of the
/// Flink version the FlinkDeployment declares (`spec.flinkVersion` v1_18 -> `flink:1.18`), else
/// of the official image's own tag, else a marked placeholder; set where the deployment mode sets
/// the main container's image (the FlinkDeployment's `spec.image`, or a native cluster's
/// `kubernetes.container.image.ref`).
struct ImageFix {
    /// `flink:1.18`, or [`flink_image::PLACEHOLDER`].
    official: String,
    /// The command (or, for a native cluster, the flag and where it goes) that sets it.
    set: String,
}

impl ImageFix {
    fn new(
        ns: &str,
        c: &ContainerView,
        fd: Option<&FlinkDeployment>,
        owner: Option<&ObjectRef>,
    ) -> Self {
        let running = c
            .spec
            .and_then(|s| s.image.as_deref())
            .filter(|i| !i.is_empty())
            .unwrap_or(&c.status.image);
        let spec_image = fd.and_then(|d| d.spec.image.as_deref());
        let official = flink_image::flink_image(
            fd.and_then(|d| d.spec.flink_version.as_deref()),
            Some(spec_image.unwrap_or(running)),
        );
        // The FlinkDeployment that sets the image: the one read, or the one the JobManager
        // Deployment's owner names when the FlinkDeployments could not be read.
        let cr = fd.map(|d| d.name()).or_else(|| {
            owner
                .filter(|o| o.kind == KIND_FLINK_DEPLOYMENT)
                .map(|o| o.name.as_str())
        });
        let set = match cr {
            // Already an official image of that release line (flink:1.18.1-java17 for v1_18).
            Some(_)
                if spec_image
                    .and_then(flink_image::official_image_of)
                    .as_deref()
                    == Some(official.as_str()) =>
            {
                format!(
                    "(spec.image is already {}, the official image: what fails is not the image)",
                    crate::shell::escape_controls(spec_image.unwrap_or_default())
                )
            }
            Some(name) => {
                let json = format!(
                    "{{\"spec\":{{\"image\":{}}}}}",
                    serde_json::Value::from(official.as_str())
                );
                let rest = if official == flink_image::PLACEHOLDER {
                    "   # fill in the Flink version of your job, or name your image built FROM it"
                        .to_string()
                } else {
                    format!("   # or your image built FROM {official}")
                };
                format!(
                    "kubectl patch flinkdeployment {} -n {} --type=merge -p {}{rest}",
                    sh(name),
                    sh(ns),
                    quote(&json)
                )
            }
            None => {
                let cluster = owner
                    .filter(|o| o.kind == KIND_NATIVE_CLUSTER)
                    .map(|o| format!(" -Dkubernetes.cluster-id={}", sh(&o.name)))
                    .unwrap_or_default();
                format!(
                    "{}\n\n(on the command that starts the native cluster, `flink run-application --target kubernetes-application{cluster} ...` \
                     or `kubernetes-session.sh{cluster} ...`, and start it again; before Flink 1.17 the key is kubernetes.container.image)",
                    quote(&format!("-Dkubernetes.container.image.ref={official}"))
                )
            }
        };
        ImageFix { official, set }
    }
}

#[allow(clippy::too_many_arguments)]
fn fix(
    k: StartFailure,
    ns: &str,
    pod: &Pod,
    c: &ContainerView,
    fd: Option<&FlinkDeployment>,
    image: &ImageFix,
    message: &str,
    logs_cmd: &str,
    logs: Option<&LogEvidence>,
) -> String {
    let main = c.name() == MAIN_CONTAINER && !c.init;
    let (official, image_patch) = (&image.official, &image.set);
    match k {
        StartFailure::CommandNotFound if main => format!(
            "The image lacks what Flink runs in its main container: `/docker-entrypoint.sh` and the \
             `kubernetes-jobmanager.sh` / `kubernetes-taskmanager.sh` scripts on the PATH ($FLINK_HOME/bin). \
             Build the image FROM the official one (`FROM {official}`, keeping its ENTRYPOINT and PATH), or run \
             an image that has them:\n\n  {image_patch}\n\nIf the pod template sets `command` on {MAIN_CONTAINER}, \
             remove it: it replaces Flink's entrypoint."
        ),
        StartFailure::CommandNotFound => format!(
            "The command of `{}` is not in its image: fix `command`/`args` of that container in the pod template, \
             or use an image that has it. The runtime said: {}",
            c.name(),
            one_line(first_line(message))
        ),
        StartFailure::NotExecutable => format!(
            "The command exists but cannot be executed (missing execute bit, or built for another CPU architecture: \
             `exec format error`). In the image's Dockerfile: `RUN chmod +x <script>`, and build for the nodes' \
             architecture (`docker buildx build --platform linux/amd64,linux/arm64`). The runtime said: {}",
            one_line(first_line(message))
        ),
        StartFailure::StartError => format!(
            "The container runtime could not start the process: {}\nCheck the image's entrypoint and the container's \
             command, user and working directory in the pod template.{}",
            one_line(first_line(message)),
            if main { format!("\n\n  {image_patch}") } else { String::new() }
        ),
        StartFailure::RunAsRoot => {
            let patch = match fd {
                Some(d) => format!(
                    "kubectl patch flinkdeployment {} -n {ns} --type=merge \\\n    \
                     -p '{{\"spec\":{{\"podTemplate\":{{\"spec\":{{\"securityContext\":{{\"runAsUser\":9999,\"runAsGroup\":9999,\"fsGroup\":9999}}}}}}}}}}'",
                    d.name()
                ),
                None => "spec:\n  securityContext:\n    runAsUser: 9999\n    runAsGroup: 9999\n    fsGroup: 9999".to_string(),
            };
            format!(
                "The pod's securityContext requires a non-root user and the image runs as root (or by name). Set a \
                 numeric user (the official Flink image's user `flink` is uid 9999) in the pod template:\n\n  {patch}"
            )
        }
        StartFailure::MissingReference => {
            let what = missing_reference(message);
            // The keys the pod reads from it (env valueFrom, volume items), each with a marked
            // placeholder for its value: only a person knows a secret's content.
            let create = match &what {
                Some((kind, n)) if missing_key(message).is_some() => {
                    let key = missing_key(message).unwrap_or_default();
                    let field = if *kind == "secret" { "stringData" } else { "data" };
                    format!(
                        "kubectl patch {kind} {} -n {ns} --type=merge -p {}",
                        crate::shell::sh(n),
                        crate::shell::quote(&format!(
                            "{{\"{field}\":{{{}:\"<value of {key}>\"}}}}",
                            serde_json::Value::from(key.as_str())
                        ))
                    )
                }
                Some((kind, n)) => {
                    let keys = referenced_keys(fd, kind, n);
                    let literals = if keys.is_empty() {
                        "--from-literal=<key the pod reads>=<its value>".to_string()
                    } else {
                        keys.iter()
                            .map(|k| crate::shell::quote(&format!("--from-literal={k}=<value of {k}>")).into_owned())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let create = if *kind == "secret" { "secret generic" } else { "configmap" };
                    format!("kubectl create {create} {} -n {ns} {literals}", crate::shell::sh(n))
                }
                _ => format!("kubectl get secrets,configmaps -n {ns}"),
            };
            format!(
                "The container references something that does not exist: {}\n\nCreate it, or fix the reference \
                 (env.valueFrom / envFrom / volumes) in the FlinkDeployment's pod template:\n\n  {create}",
                one_line(first_line(message))
            )
        }
        StartFailure::MountFailed => format!(
            "A volume cannot be mounted: {}\nFix the volume or volumeMount in the FlinkDeployment's pod template \
             (mountPath, subPath, the referenced object).",
            one_line(first_line(message))
        ),
        StartFailure::Killed => format!(
            "The container is killed by a signal, not by the memory limit: usually a failing liveness probe or an \
             eviction. Look at the pod's events (`kubectl describe pod {} -n {ns}`, reason `Unhealthy` / `Killing`) \
             and give the probe more time (initialDelaySeconds, failureThreshold) in the pod template.\n\nIts last \
             words are in:\n\n  {logs_cmd}",
            pod_name(pod)
        ),
        StartFailure::Crashed => {
            let cause = logs.and_then(|l| l.root()).map(|m| {
                format!("The log names the cause at line {}: {}.\n{}\n\n", m.line_no, m.signature.explanation, m.fix())
            });
            format!(
                "{}The cause is in the container's previous log, in the lines just before it exits:\n\n  \
                 {logs_cmd} | tail -n 50\n\nFix the first error it shows; the container then stays up.",
                cause.unwrap_or_default()
            )
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().find(|l| !l.trim().is_empty()).unwrap_or(s)
}

/// `secret "x" not found` / `configmap "x" not found` / `couldn't find key k in Secret ns/x`.
/// The key the kubelet did not find in an existing Secret or ConfigMap: `couldn't find key KEY in
/// Secret NS/NAME` (kubernetes@v1.31.0:pkg/kubelet/kubelet_pods.go, makeEnvironmentVariables).
fn missing_key(message: &str) -> Option<String> {
    let rest = message.split("couldn't find key ").nth(1)?;
    let key = rest.split_whitespace().next()?;
    rest.contains(" in ").then(|| key.to_string())
}

/// The keys the FlinkDeployment's pod templates read from Secret or ConfigMap `name`
/// (`env[].valueFrom.secretKeyRef` / `configMapKeyRef` of their containers), sorted, once each.
fn referenced_keys(fd: Option<&FlinkDeployment>, kind: &str, name: &str) -> Vec<String> {
    let mut keys = std::collections::BTreeSet::new();
    let Some(d) = fd else {
        return Vec::new();
    };
    let templates = [
        d.spec.pod_template.as_ref(),
        d.spec
            .job_manager
            .as_ref()
            .and_then(|c| c.pod_template.as_ref()),
        d.spec
            .task_manager
            .as_ref()
            .and_then(|c| c.pod_template.as_ref()),
    ];
    for t in templates
        .into_iter()
        .flatten()
        .filter_map(|t| t.spec.as_ref())
    {
        for c in t.containers.iter().chain(&t.init_containers) {
            for e in c.env.iter().flatten() {
                let Some(from) = e.value_from.as_ref() else {
                    continue;
                };
                let key = match kind {
                    "secret" => from
                        .secret_key_ref
                        .as_ref()
                        .filter(|r| r.name == name)
                        .map(|r| r.key.clone()),
                    _ => from
                        .config_map_key_ref
                        .as_ref()
                        .filter(|r| r.name == name)
                        .map(|r| r.key.clone()),
                };
                keys.extend(key);
            }
        }
    }
    keys.into_iter().collect()
}

fn missing_reference(message: &str) -> Option<(&'static str, String)> {
    let lower = message.to_ascii_lowercase();
    for kind in ["secret", "configmap"] {
        if let Some(i) = lower.find(&format!("{kind} \"")) {
            let rest = &message[i + kind.len() + 2..];
            if let Some(end) = rest.find('"') {
                return Some((kind, rest[..end].to_string()));
            }
        }
    }
    for (needle, kind) in [(" in secret ", "secret"), (" in configmap ", "configmap")] {
        if let Some(i) = lower.find(needle) {
            let rest = message[i + needle.len()..]
                .split_whitespace()
                .next()
                .unwrap_or("");
            let name = rest.rsplit('/').next().unwrap_or(rest);
            return Some((kind, name.to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};

    const LOOP: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: shop
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers:
  - {name: flink-main-container, image: "registry.example.com/team/orders:1.4", command: [/docker-entrypoint.sh], args: [bash, -c, kubernetes-jobmanager.sh kubernetes-application]}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: registry.example.com/team/orders:1.4
    imageID: ""
    ready: false
    restartCount: 5
    state: {waiting: {reason: CrashLoopBackOff, message: "back-off 2m40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_shop(1a2b)"}}
    lastState: {terminated: {exitCode: 127, reason: Error}}
---
apiVersion: v1
kind: Event
metadata: {name: orders-5d8f9c7b6d-x7k2p.1, namespace: shop}
involvedObject: {kind: Pod, namespace: shop, name: orders-5d8f9c7b6d-x7k2p, fieldPath: "spec.containers{flink-main-container}"}
reason: BackOff
type: Warning
count: 22
lastTimestamp: "2026-11-28T10:00:00Z"
message: Back-off restarting failed container flink-main-container in pod orders-5d8f9c7b6d-x7k2p_shop(1a2b)
"#;

    #[test]
    fn exit_127_is_an_incompatible_image() {
        let s = with_log(
            snapshot(LOOP),
            "shop",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            "bash: line 1: kubernetes-jobmanager.sh: command not found\n",
        );
        let f = run(&CrashLoopBackOff, &s);
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::ImageIncompatible);
        assert_eq!(f.layer, Category::ImageIncompatible.layer());
        assert!(
            f.title.contains("not in the image (exit code 127)"),
            "{}",
            f.title
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("waiting CrashLoopBackOff (back-off 2m40s")));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("lastState.terminated: exitCode=127")));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("event Warning BackOff x22")));
        assert!(f.evidence.iter().any(|e| e == "previous log line 1 [SIG-FLINK-K8S-SCRIPT-NOT-FOUND]: bash: line 1: kubernetes-jobmanager.sh: command not found"), "{:?}", f.evidence);
        // A native cluster of a custom image: neither a spec nor the image's tag says which
        // Flink, so the image is the one marked placeholder, set where a native cluster sets it.
        assert!(
            f.fix.contains("FROM flink:<your Flink version>"),
            "{}",
            f.fix
        );
        assert!(
            f.fix.contains(
                "'-Dkubernetes.container.image.ref=flink:<your Flink version>'\n\n(on the command that starts the native cluster, `flink run-application --target kubernetes-application -Dkubernetes.cluster-id=orders ...`"
            ),
            "{}",
            f.fix
        );
    }

    /// LOOP as a FlinkDeployment's pod: `spec.image` IMAGE, `spec.flinkVersion` VERSION.
    fn of_flink_deployment(image: &str, version: Option<&str>) -> Snapshot {
        let version = version
            .map(|v| format!("  flinkVersion: {v}\n"))
            .unwrap_or_default();
        let y = LOOP.replace("registry.example.com/team/orders:1.4", image);
        snapshot(&format!(
            "{y}---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: orders, namespace: shop}}\nspec:\n  image: \"{image}\"\n{version}"
        ))
    }

    #[test]
    fn the_image_fix_names_the_official_image_of_the_declared_flink_version() {
        let fix_of = |s: &Snapshot| run(&CrashLoopBackOff, s)[0].fix.clone();
        // The spec declares v1_18: flink:1.18, whatever the custom image's own tag.
        let fix = fix_of(&of_flink_deployment(
            "registry.example.com/team/orders:1.4",
            Some("v1_18"),
        ));
        assert!(fix.contains("(`FROM flink:1.18`, keeping"), "{fix}");
        assert_eq!(
            crate::finding::Remedy::from_fix(&fix).run,
            [
                r#"kubectl patch flinkdeployment orders -n shop --type=merge -p '{"spec":{"image":"flink:1.18"}}'"#
            ]
        );
        let fix = fix_of(&of_flink_deployment(
            "registry.example.com/team/orders:1.4",
            Some("v2_0"),
        ));
        assert!(
            fix.contains(
                r#"'{"spec":{"image":"flink:2.0"}}'   # or your image built FROM flink:2.0"#
            ),
            "{fix}"
        );
        // No version declared: an official image's tag says it, and that image is what the
        // spec runs already (no patch to the same image); a native cluster's flag names it.
        let fix = fix_of(&of_flink_deployment(
            "apache/flink:1.19.1-scala_2.12-java17",
            None,
        ));
        assert!(fix.contains("(`FROM flink:1.19`, keeping"), "{fix}");
        assert!(
            fix.contains("spec.image is already apache/flink:1.19.1-scala_2.12-java17"),
            "{fix}"
        );
        assert!(
            crate::finding::Remedy::from_fix(&fix).run.is_empty(),
            "{fix}"
        );
        let native = LOOP.replace(
            "registry.example.com/team/orders:1.4",
            "flink:1.17.2-java11",
        );
        let fix = fix_of(&snapshot(&native));
        assert!(
            fix.contains("\n  -Dkubernetes.container.image.ref=flink:1.17\n"),
            "{fix}"
        );
        // Neither: one marked placeholder, and the command is kept for a person to fill in.
        let fix = fix_of(&of_flink_deployment(
            "registry.example.com/team/orders:1.4",
            None,
        ));
        assert!(
            fix.contains(r#"-p '{"spec":{"image":"flink:<your Flink version>"}}'   # fill in"#),
            "{fix}"
        );
        let remedy = crate::finding::Remedy::from_fix(&fix);
        assert_eq!(remedy.run.len(), 1);
        assert!(
            remedy.run[0].starts_with(crate::finding::FILL_IN),
            "{:?}",
            remedy.run
        );
        // The spec already runs that official image: no patch to the same image.
        let fix = fix_of(&of_flink_deployment("flink:1.18.1-java17", Some("v1_18")));
        assert!(
            fix.contains("spec.image is already flink:1.18.1-java17"),
            "{fix}"
        );
        assert!(
            crate::finding::Remedy::from_fix(&fix).run.is_empty(),
            "{fix}"
        );
        // Patched in the spec, and the crashing pod runs the image before: info, awaiting the
        // rollout, not the same fix again.
        let y = LOOP.to_string()
            + "---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: orders, namespace: shop}\nspec: {image: \"flink:1.18\", flinkVersion: v1_18}\n";
        let f = &run(&CrashLoopBackOff, &snapshot(&y))[0];
        assert_eq!(f.severity, Severity::Info, "{}", f.title);
        assert!(
            f.title.ends_with("fixed in FlinkDeployment orders (image); the pod predates it, waiting for the rollout"),
            "{}",
            f.title
        );
    }

    #[test]
    fn leaves_other_rules_their_exits() {
        for (code, reason) in [
            ("0", "Completed"),
            ("239", "Error"),
            ("2", "Error"),
            ("137", "OOMKilled"),
        ] {
            let y = LOOP.replace(
                "exitCode: 127, reason: Error",
                &format!("exitCode: {code}, reason: {reason}"),
            );
            assert!(
                run(&CrashLoopBackOff, &snapshot(&y)).is_empty(),
                "exit {code}"
            );
        }
        assert!(run(&CrashLoopBackOff, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn an_unknown_exit_of_flink_is_a_fatal_exit_symptom_and_a_sidecar_s_is_the_template_s() {
        let y = LOOP.replace("exitCode: 127", "exitCode: 134");
        let f = &run(&CrashLoopBackOff, &snapshot(&y))[0];
        assert_eq!(f.category, Category::FlinkFatalExit);
        assert!(
            f.fix.contains(
                "kubectl logs orders-5d8f9c7b6d-x7k2p -n shop -c flink-main-container --previous"
            ),
            "{}",
            f.fix
        );
        let side = y.replace("flink-main-container", "log-shipper").replace(
            "registry.example.com/team/orders:1.4",
            "fluent/fluent-bit:3",
        );
        let f = &run(&CrashLoopBackOff, &snapshot(&side))[0];
        assert_eq!(f.category, Category::PodtemplateInvalid);
        // Exit 1 of a non-Flink sidecar is not Flink's: FLK104 takes it.
        let side1 = side.replace("exitCode: 134", "exitCode: 1");
        assert_eq!(run(&CrashLoopBackOff, &snapshot(&side1)).len(), 1);
    }

    #[test]
    fn create_container_config_error_names_the_missing_secret() {
        let y = LOOP
            .replace("reason: CrashLoopBackOff, message: \"back-off 2m40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_shop(1a2b)\"", "reason: CreateContainerConfigError, message: 'secret \"s3-credentials\" not found'")
            .replace("    lastState: {terminated: {exitCode: 127, reason: Error}}\n", "");
        let f = &run(&CrashLoopBackOff, &snapshot(&y))[0];
        assert_eq!(f.category, Category::PodtemplateInvalid);
        assert!(
            f.fix
                .contains("kubectl create secret generic s3-credentials -n shop"),
            "{}",
            f.fix
        );
        assert!(
            !f.evidence.iter().any(|e| e.contains("log")),
            "no log for a container that never ran: {:?}",
            f.evidence
        );
        // No key the pod reads: the placeholders say what to fill; never `KEY=VALUE`.
        assert!(!f.fix.contains("KEY=VALUE"), "{}", f.fix);
        assert!(
            f.fix
                .contains("--from-literal=<key the pod reads>=<its value>"),
            "{}",
            f.fix
        );
        // The keys the pod reads from it, each with a placeholder for its value.
        let keyed = format!(
            "{y}---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: orders, namespace: shop}}\nspec:\n  podTemplate:\n    spec:\n      containers:\n      - name: flink-main-container\n        env: [{{name: AWS_ACCESS_KEY_ID, valueFrom: {{secretKeyRef: {{name: s3-credentials, key: access-key}}}}}}, {{name: AWS_SECRET_ACCESS_KEY, valueFrom: {{secretKeyRef: {{name: s3-credentials, key: secret-key}}}}}}]\n"
        );
        let f = &run(&CrashLoopBackOff, &snapshot(&keyed))[0];
        let r = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(
            r.run,
            vec![format!(
                "{}kubectl create secret generic s3-credentials -n shop '--from-literal=access-key=<value of access-key>' '--from-literal=secret-key=<value of secret-key>'",
                crate::finding::FILL_IN
            )],
            "{}",
            f.fix
        );
        // The Secret exists without the key: add that key.
        let key = y.replace(
            "'secret \"s3-credentials\" not found'",
            "\"couldn't find key secret-key in Secret shop/s3-credentials\"",
        );
        let f = &run(&CrashLoopBackOff, &snapshot(&key))[0];
        assert!(
            f.fix.contains("kubectl patch secret s3-credentials -n shop --type=merge -p '{\"stringData\":{\"secret-key\":\"<value of secret-key>\"}}'"),
            "{}",
            f.fix
        );
        let root = y
            .replace(
                "'secret \\\"s3-credentials\\\" not found'",
                "container has runAsNonRoot and image will run as root",
            )
            .replace(
                "'secret \"s3-credentials\" not found'",
                "\"container has runAsNonRoot and image will run as root\"",
            );
        let f = &run(&CrashLoopBackOff, &snapshot(&root))[0];
        assert_eq!(f.category, Category::ImageIncompatible, "{}", f.title);
        assert!(f.fix.contains("runAsUser: 9999"));
    }

    /// A held-out lab fault (operator 1.7.0, Flink 1.18.1): the pod template mounts a ConfigMap
    /// that does not exist; the JobManager pod waits in ContainerCreating, and doctor said "No
    /// problems found" until the operator's readiness timeout.
    #[test]
    fn a_volume_of_a_missing_configmap_is_named_while_the_pod_is_created() {
        let y = LOOP
            .replace(
                "reason: CrashLoopBackOff, message: \"back-off 2m40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_shop(1a2b)\"",
                "reason: ContainerCreating",
            )
            .replace("  phase: Running\n", "  phase: Pending\n")
            .replace("    restartCount: 5\n", "    restartCount: 0\n")
            .replace("    lastState: {terminated: {exitCode: 127, reason: Error}}\n", "");
        let mount = |volume: &str, object: &str| {
            format!(
                "{y}---\napiVersion: v1\nkind: Event\nmetadata: {{name: orders-5d8f9c7b6d-x7k2p.2, namespace: shop}}\ninvolvedObject: {{kind: Pod, namespace: shop, name: orders-5d8f9c7b6d-x7k2p}}\nreason: FailedMount\ntype: Warning\ncount: 3\nlastTimestamp: \"2026-11-28T10:00:00Z\"\nmessage: 'MountVolume.SetUp failed for volume \"{volume}\" : configmap \"{object}\" not found'\n"
            )
        };
        let f = run(
            &CrashLoopBackOff,
            &snapshot(&mount("extra-conf", "orders-extra")),
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].category, Category::PodtemplateInvalid);
        assert!(
            f[0].fix
                .contains("kubectl create configmap orders-extra -n shop"),
            "{}",
            f[0].fix
        );
        // Flink's own ConfigMap, missing for the moment the operator takes to create it: not
        // this rule's; nor a pod being created with no such event.
        assert!(run(
            &CrashLoopBackOff,
            &snapshot(&mount("flink-config-volume", "flink-config-orders"))
        )
        .is_empty());
        assert!(run(&CrashLoopBackOff, &snapshot(&y)).is_empty());
    }

    #[test]
    fn run_container_error_on_a_missing_entrypoint() {
        let y = LOOP
            .replace("reason: CrashLoopBackOff, message: \"back-off 2m40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_shop(1a2b)\"", "reason: RunContainerError, message: 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"/docker-entrypoint.sh\": stat /docker-entrypoint.sh: no such file or directory: unknown'")
            .replace("exitCode: 127, reason: Error", "exitCode: 128, reason: StartError");
        let f = &run(&CrashLoopBackOff, &snapshot(&y))[0];
        assert_eq!(f.category, Category::ImageIncompatible);
        assert!(
            f.title.contains("not in the image (exit code 128)"),
            "{}",
            f.title
        );
    }

    #[test]
    fn missing_references() {
        assert_eq!(
            missing_reference("secret \"a\" not found"),
            Some(("secret", "a".into()))
        );
        assert_eq!(
            missing_reference("configmap \"b\" not found"),
            Some(("configmap", "b".into()))
        );
        assert_eq!(
            missing_reference("couldn't find key password in Secret shop/db"),
            Some(("secret", "db".into()))
        );
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&CrashLoopBackOff, &scenario("crashloop-image-incompatible"));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].category, Category::ImageIncompatible);
        for name in HEALTHY_SCENARIOS.iter().chain(&[
            "flink-fatal-exit",
            "jvm-out-of-memory",
            "oom-killed",
            "image-pull-failed",
        ]) {
            assert!(run(&CrashLoopBackOff, &scenario(name)).is_empty(), "{name}");
        }
    }
}

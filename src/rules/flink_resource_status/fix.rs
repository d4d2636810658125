//! The fix for each error the operator reports, from the snapshot: the field to change and the
//! command that changes it.

use super::*;
use crate::flink::mode::{Component, Mode};
use crate::rules::support::flink_image::flink_image;
use crate::rules::support::java_opts;
use crate::shell::sh;

#[allow(clippy::too_many_arguments)]
pub(super) fn fix(
    snapshot: &Snapshot,
    index: &Index,
    v: &View,
    category: Category,
    basis: &Basis,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
    decoded: Option<&OperatorError>,
) -> String {
    let (ns, name) = (v.ns, v.name);
    let kind = kubectl_kind(v.kind);
    let cluster = fd.map(|d| d.name()).unwrap_or(name);
    let redeploy = format!(
        "\n\nThe operator retries on its own once the cause is gone; to redeploy at once:\n\n  \
         kubectl patch {kind} {} -n {} --type=merge -p '{{\"spec\":{{\"restartNonce\":{}}}}}'",
        sh(name),
        sh(ns),
        snapshot.captured_at.timestamp()
    );
    let specific = match basis {
        Basis::Signature(m) => {
            // A TaskManager whose memory components do not fit: the size that does, from the
            // numbers Flink printed, first (the command `--fix=run` takes).
            let fit = (m.signature.category == Category::MemoryConfigInvalid)
                .then(|| {
                    let texts = decoded
                        .map(|d| d.messages())
                        .unwrap_or_default()
                        .into_iter()
                        .chain(v.error)
                        .chain(v.events.iter().filter_map(|e| e.message.as_deref()));
                    let fd = fd?;
                    texts
                        .into_iter()
                        .find_map(|t| {
                            super::memory::fit(t, fd, ns)
                                .or_else(|| super::memory::process_fit(t, fd, ns))
                                .or_else(|| super::memory::fraction_fit(t, fd, ns))
                        })
                })
                .flatten()
                // Slot requests that timed out: the configuration that caps the slots (slots.rs).
                .or_else(|| {
                    (m.signature.id == "SIG-NO-RESOURCES")
                        .then(|| super::slots::fit(fd?, ns))
                        .flatten()
                })
                // A quota's refusal: the quota by name and the hard limit the pod needs.
                .or_else(|| {
                    (m.signature.category == Category::ResourceQuotaExceeded)
                        .then(|| quota_refusal(v, decoded, cluster, ns))
                        .flatten()
                })
                // A ConfigMap, Secret or key the pod template reads that is not there.
                .or_else(|| {
                    (m.signature.category == Category::PodtemplateInvalid)
                        .then(|| missing_reference(snapshot, v, decoded, jm_pods, cluster))
                        .flatten()
                })
                // A session cluster that refuses the jar upload: the option that turns web
                // submission off, removed, or the image that lacks flink-runtime-web.
                .or_else(|| {
                    m.signature
                        .id
                        .starts_with("SIG-WEB-SUBMIT-")
                        .then(|| super::web_submit::fit(snapshot, v, fd?, jm_pods))
                        .flatten()
                });
            match fit {
                Some(fit) => format!(
                    "The operator's error names the cause: {}.\n{fit}",
                    m.signature.explanation
                ),
                None => format!(
                    "The operator's error names the cause: {}.\n{}{}{}",
                    m.signature.explanation,
                    m.fix(),
                    set_the_option(m, fd, ns),
                    // The session cluster's FlinkDeployment for a FlinkSessionJob: its JVMs run
                    // the job's main (JarRunHandler), so the option goes there.
                    fd.map(|d| java_opts::open_the_module(d, ns, m))
                        .unwrap_or_default()
                ),
            }
        }
        Basis::Validation(msg) => {
            return format!(
                "The operator's validator rejected the spec and keeps running the last valid one: \"{}\". {}\n\n\
                 The operator validates again as soon as the spec changes.",
                one_line(msg),
                match fd.filter(|_| msg.contains(SERVICE_ACCOUNT_REQUIRED)) {
                    Some(d) => service_account_fix(snapshot, index, d),
                    None => validation_fix(msg, ns, name, kind, fd),
                }
            );
        }
        Basis::TerminalJobUnobserved => {
            let logs = match jm_pods.first() {
                Some(p) => format!(
                    "kubectl logs {} -n {} -c flink-main-container --tail=200",
                    sh(pod_name(p)),
                    sh(ns)
                ),
                // The JobManager pods of the cluster (`Mode::selector`), one shell word.
                None => format!(
                    "kubectl logs -n {} -l {} -c flink-main-container --tail=200",
                    sh(ns),
                    sh(&Mode::Operator.selector(Some(cluster), Some(Component::JobManager)))
                ),
            };
            format!(
                "The job ended (FAILED, FINISHED or CANCELED) and the operator cannot record it: it then asks the JobManager \
                 for the job's latest checkpoint, the job has checkpointing off, and operator releases before 1.11.0 \
                 fail on that answer (FLINK-37370) and keep the job's previous state. Why the job ended is in the \
                 JobManager's log (and in any other finding for this deployment):\n\n  {logs}\n{}\n\
                 For the operator to follow such a job, enable checkpointing (flinkConfiguration \
                 execution.checkpointing.interval) or run operator 1.11.0 or later.",
                crate::rules::support::ended_job::redeploy(snapshot, ns, cluster)
            )
        }
        _ => match category {
            Category::FlinkFatalExit => super::jobmanager::fatal_exit(
                snapshot,
                v,
                fd,
                jm_pods,
                decoded,
                matches!(basis, Basis::Reason | Basis::Pod(_)),
            )
            .unwrap_or_else(|| super::jobmanager::operator_said(snapshot, v, jm_pods, decoded)),
            Category::ImagePullFailed => format!(
                "The image cannot be pulled (see the pod-level finding){now}. Point spec.image of FlinkDeployment {cluster} at an image that exists and \
                 that the nodes may pull:\n\n  \
                 kubectl patch flinkdeployment {cluster_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"image\":\"<image that exists>\"}}}}'",
                now = fd
                    .and_then(|d| d.spec.image.as_deref())
                    .map(|i| format!(": spec.image is {i} now"))
                    .unwrap_or_default(),
                cluster_q = sh(cluster),
                ns_q = sh(ns),
            ),
            Category::PodtemplateInvalid => match refused_by_admission(v, decoded)
                .or_else(|| missing_reference(snapshot, v, decoded, jm_pods, cluster))
            {
                Some(text) => text,
                None => super::jobmanager::unresolved_reference(v, index, fd, jm_pods, decoded),
            },
            Category::ImageIncompatible => {
                // The official image of the Flink version the spec declares (v1_18 -> flink:1.18),
                // else of an official spec.image's own tag, else a marked placeholder.
                let official = flink_image(
                    fd.and_then(|d| d.spec.flink_version.as_deref()),
                    fd.and_then(|d| d.spec.image.as_deref()),
                );
                format!(
                    "The container runtime cannot start Flink in {image}: build it FROM the official image \
                     of the Flink it runs (`FROM {official}`) and keep its entrypoint, or run that image:\n\n  \
                     kubectl patch flinkdeployment {cluster_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"image\":\"{official}\"}}}}'",
                    image = fd
                        .and_then(|d| d.spec.image.as_deref())
                        .map(|i| format!("spec.image {i}"))
                        .unwrap_or_else(|| "this image".into()),
                    cluster_q = sh(cluster),
                    ns_q = sh(ns),
                )
            }
            Category::OomKilled => {
                let mem = fd
                    .and_then(|d| d.spec.job_manager.as_ref())
                    .and_then(|c| c.resource.as_ref())
                    .and_then(|r| r.memory.clone());
                let bigger = mem
                    .as_deref()
                    .and_then(crate::flink::units::parse_resource_memory)
                    .map(|b| format!("{}m", (b * 1.5 / 1048576.0).ceil()))
                    .unwrap_or_else(|| "4096m".into());
                format!(
                    "The JobManager is killed by its memory limit: give it more memory and headroom over Flink's \
                     process memory:\n\n  \
                     kubectl patch flinkdeployment {cluster_q} -n {ns_q} --type=merge \\\n    \
                     -p '{{\"spec\":{{\"jobManager\":{{\"resource\":{{\"memory\":\"{bigger}\"}}}},\"flinkConfiguration\":{{\"kubernetes.jobmanager.memory.limit-factor\":\"1.25\"}}}}}}'",
                    cluster_q = sh(cluster),
                    ns_q = sh(ns),
                )
            }
            Category::ResourceQuotaExceeded => quota_refusal(v, decoded, cluster, ns)
                .unwrap_or_else(|| format!(
                    "A ResourceQuota or LimitRange refuses the JobManager pod: `kubectl describe resourcequota,limitrange -n {}`; \
                     raise the quota or lower spec.jobManager.resource (the quota finding FLK108 has the numbers).",
                    sh(ns)
                )),
            Category::PodUnschedulable => {
                super::jobmanager::unschedulable(snapshot, index, v, fd, jm_pods)
            }
            Category::JobmanagerRestartWithoutHa => format!(
                "The JobManager restarted and the job (or its HA metadata) is gone. Enable Kubernetes HA so a restart \
                 recovers the job from its last checkpoint:\n\n\
                 spec:\n  flinkConfiguration:\n    high-availability.type: kubernetes\n    \
                 high-availability.storageDir: s3://<bucket Flink can write>/flink/{cluster}/ha\n\n\
                 then restore the job from its latest checkpoint or savepoint (spec.job.initialSavepointPath) if \
                 the operator reports `Manual restore required`."
            ),
            Category::JobJarNotFound => match v.job_spec.and_then(|j| j.jar_uri.as_deref()) {
                Some(uri) => jar_fix(v, uri),
                None => super::jobmanager::operator_said(snapshot, v, jm_pods, decoded),
            },
            _ => super::jobmanager::operator_said(snapshot, v, jm_pods, decoded),
        },
    };
    // The root cause, when it is deeper than the message the evidence already shows.
    let root = decoded
        .filter(|d| !d.throwables.is_empty())
        .and_then(OperatorError::root_message)
        .map(|m| format!("\n\nRoot cause reported by the operator: {}", short(m, 300)))
        .unwrap_or_default();
    format!("{specific}{root}{redeploy}")
}

/// A jar the operator or Flink reports missing (FileNotFoundException and the like, with no
/// catalogue signature to build from): the field that names it, what it is now, and the patch
/// with the placeholder for the person who knows where the jar really is. The operator fetches a
/// session job's jar itself (`ArtifactManager`, apache/flink-kubernetes-operator@release-1.7.0);
/// an application's is read inside the JobManager.
fn jar_fix(v: &View, uri: &str) -> String {
    let kind = kubectl_kind(v.kind);
    let whence = if v.kind == "FlinkSessionJob" {
        "the operator fetches it from its own pod before it submits the job to the session cluster"
    } else {
        "the JobManager reads it when it starts the job"
    };
    format!(
        "spec.job.jarURI of {} {} is {uri} now, and there is no jar there ({whence}). \
         Put the jar there, or point spec.job.jarURI at where it is (only you know it):\n\n  \
         kubectl patch {kind} {} -n {} --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"<spec.job.jarURI>\"}}}}}}'\n\n\
         Check it is there as the fetcher sees it: {}",
        v.kind,
        v.name,
        sh(v.name),
        sh(v.ns),
        crate::flink::artifact::remote_check(uri),
    )
}

/// A ResourceQuota refusing the JobManager pod, from the refusal's own words (`exceeded quota:
/// NAME, requested: R, used: U, limited: L`, Kubernetes' quota admission plugin) when the snapshot
/// holds no quota finding's numbers: the quota to raise, by name, and what it lacks.
fn quota_refusal(
    v: &View,
    decoded: Option<&OperatorError>,
    cluster: &str,
    ns: &str,
) -> Option<String> {
    let texts = operator_texts(v, decoded);
    use crate::snapshot::refused::{Refused, Rejection};
    for t in texts {
        let Some(Rejection {
            what:
                Refused::Exceeded {
                    quota,
                    requested,
                    used,
                    limited,
                },
            ..
        }) = Rejection::parse(t)
        else {
            continue;
        };
        let get = |list: &[(String, String)], k: &str| {
            list.iter()
                .find(|(key, _)| key == k)
                .and_then(|(_, v)| crate::flink::units::parse_quantity(v))
        };
        // Each resource the pod asks for past the quota's hard limit: the limit it needs.
        let mut hard = serde_json::Map::new();
        let mut lacks = Vec::new();
        for (k, r) in &requested {
            let (Some(req), Some(u), Some(lim)) = (
                crate::flink::units::parse_quantity(r),
                get(&used, k),
                get(&limited, k),
            ) else {
                continue;
            };
            if u + req <= lim {
                continue;
            }
            let need = u + req;
            let value = if k.contains("memory") || k.contains("storage") {
                format!("{}Mi", (need / crate::flink::units::MIB).ceil())
            } else if k.contains("cpu") {
                format!("{}m", (need * 1000.0).ceil())
            } else {
                format!("{}", need.ceil())
            };
            lacks.push(format!(
                "{k}: used {} + requested {r} > hard {}",
                used.iter().find(|(x, _)| x == k).map_or("", |(_, v)| v),
                limited.iter().find(|(x, _)| x == k).map_or("", |(_, v)| v),
            ));
            hard.insert(k.clone(), value.into());
        }
        if hard.is_empty() {
            continue;
        }
        let patch = serde_json::json!({"spec": {"hard": hard}}).to_string();
        return Some(format!(
            "ResourceQuota {quota} refuses the pods of FlinkDeployment {cluster} ({}). Raise its hard limits to what \
             the pod needs:\n\n  kubectl patch resourcequota {} -n {} --type=merge -p {}\n\n\
             or make Flink ask for less (spec.jobManager.resource, spec.taskManager.resource).",
            lacks.join("; "),
            sh(&quota),
            sh(ns),
            sh(&patch),
        ));
    }
    None
}

/// A ConfigMap or Secret the pod template references and the kubelet cannot find, from its own
/// words: a volume's `MountVolume.SetUp failed for volume "V" : configmap "NAME" not found`
/// (FailedMount) or an env source's `configmap "NAME" not found` / `couldn't find key K in
/// ConfigMap NS/NAME` (CreateContainerConfigError, the container's waiting message, which the
/// operator copies into status.error). The kubelet's ConfigMap and Secret managers answer with the
/// API's NotFound (`configmap "x" not found`; `configmaps "x"` from a direct GET):
/// kubernetes/kubernetes pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables) and
/// pkg/volume/configmap, pkg/volume/secret. The fix names the object and where it is missing.
fn missing_reference(
    snapshot: &Snapshot,
    v: &View,
    decoded: Option<&OperatorError>,
    jm_pods: &[&Pod],
    cluster: &str,
) -> Option<String> {
    static RE: std::sync::LazyLock<[regex::Regex; 2]> = std::sync::LazyLock::new(|| {
        [
            regex::Regex::new(r#"\b(?P<kind>configmaps?|secrets?) "(?P<name>[a-z0-9][a-z0-9.-]*)" not found"#)
                .expect("valid regex"),
            regex::Regex::new(r"couldn't find key (?P<key>\S+) in (?P<kind>ConfigMap|Secret) (?P<ns>[a-z0-9.-]+)/(?P<name>[a-z0-9][a-z0-9.-]*)")
                .expect("valid regex"),
        ]
    });
    let pod_names: Vec<&str> = jm_pods.iter().map(|p| pod_name(p)).collect();
    let mut texts: Vec<&str> = decoded.map(|d| d.messages()).unwrap_or_default();
    texts.extend(v.events.iter().filter_map(|e| e.message.as_deref()));
    for p in jm_pods {
        texts.extend(
            containers(p)
                .into_iter()
                .filter_map(|c| c.waiting_message()),
        );
    }
    texts.extend(
        snapshot
            .events
            .iter()
            .filter(|e| {
                e.involved_object.kind.as_deref() == Some("Pod")
                    && e.involved_object.namespace.as_deref() == Some(v.ns)
                    && e.involved_object
                        .name
                        .as_deref()
                        .is_some_and(|n| pod_names.contains(&n))
            })
            .filter_map(|e| e.message.as_deref()),
    );
    let ns = v.ns;
    for t in texts {
        if let Some(c) = RE[1].captures(t) {
            let (kind, name, key) = (&c["kind"], &c["name"], &c["key"]);
            let lower = kind.to_ascii_lowercase();
            return Some(format!(
                "The JobManager container cannot start: {kind} {name} in namespace {ns} has no key {key}, which the pod \
                 template of FlinkDeployment {cluster} reads. Add the key (only you know its value), or fix the reference \
                 in the pod template:\n\n  \
                 kubectl patch {lower} {} -n {} --type=merge -p {}",
                sh(name),
                sh(ns),
                sh(&serde_json::json!({ if lower == "secret" { "stringData" } else { "data" }: { key: format!("<{key}>") } }).to_string()),
            ));
        }
        if let Some(c) = RE[0].captures(t) {
            let name = &c["name"];
            let secret = c["kind"].starts_with("secret");
            let (kind, create) = if secret {
                ("Secret", format!("kubectl create secret generic {} -n {} --from-file=<file holding its data>", sh(name), sh(ns)))
            } else {
                (
                    "ConfigMap",
                    format!(
                        "kubectl create configmap {} -n {} --from-file=<file holding its data>",
                        sh(name),
                        sh(ns)
                    ),
                )
            };
            return Some(format!(
                "The JobManager pod references {kind} {name}, which does not exist in namespace {ns} (the kubelet: `{}`). \
                 Create it (only you know what it holds), or remove the reference from the pod template of \
                 FlinkDeployment {cluster}:\n\n  {create}",
                one_line(t)
            ));
        }
    }
    None
}

/// The API server refused the JobManager pod itself (no pod exists to describe): what the
/// refusal names, from the operator's error or events, and the finding whose fix is built from
/// it (`snapshot::refused::Denial`).
/// What the operator said about the resource: its decoded error's messages, then its events'.
fn operator_texts<'a>(
    v: &View<'a>,
    decoded: Option<&'a OperatorError>,
) -> impl Iterator<Item = &'a str> {
    decoded
        .map(|d| d.messages())
        .unwrap_or_default()
        .into_iter()
        .chain(
            v.events
                .clone()
                .into_iter()
                .filter_map(|e| e.message.as_deref()),
        )
}

fn refused_by_admission(v: &View, decoded: Option<&OperatorError>) -> Option<String> {
    use crate::snapshot::refused::{Denial, Denied};
    let texts = operator_texts(v, decoded);
    for t in texts {
        let Some(d) = Denial::parse(t) else {
            continue;
        };
        return Some(match d.what {
            Denied::ServiceAccountMissing { namespace, name } => format!(
                "The API server refuses the JobManager pod, so none exists to describe: ServiceAccount {name} does not exist in namespace {namespace}. \
                 Create it with the rights Flink needs (FLK503 has the objects):\n\n  \
                 kubectl get serviceaccount {} -n {}",
                sh(&name),
                sh(&namespace)
            ),
            Denied::PodSecurity { policy, violations } => format!(
                "The API server refuses the JobManager pod, so none exists to describe: Pod Security \"{policy}\" asks for {}. \
                 Set those securityContext fields in the pod templates (FLK110 has the patch).",
                violations
                    .iter()
                    .map(|x| x.reason.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Denied::ClassMissing { kind, name } => format!(
                "The API server refuses the JobManager pod, so none exists to describe: {} {name}, which the pod template names, does not exist. \
                 Create it, or name one that exists (FLK111 has the fix):\n\n  \
                 kubectl get {} {}",
                kind.kind(),
                kind.kind().to_ascii_lowercase(),
                sh(&name)
            ),
        });
    }
    None
}

/// The operator fetches a session job's jar itself (to upload it to the session cluster): an
/// error naming the jarURI's host as unknown or unreachable is the artifact's, not Flink's
/// (operator 1.7.0 in the lab: `UnknownHostException: <host>` for an http jarURI nobody serves).
pub(super) fn artifact_unreachable(f: Finding, v: &View, uri: &str) -> Finding {
    let Some(host) = uri
        .split_once("://")
        .map(|(_, rest)| rest.split(['/', ':']).next().unwrap_or(""))
        .filter(|h| !h.is_empty())
    else {
        return f;
    };
    let error = v.error.unwrap_or("");
    let refused = [
        "UnknownHostException",
        "ConnectException",
        "NoRouteToHostException",
        "SocketTimeoutException",
    ];
    if !error.contains(host) || !refused.iter().any(|e| error.contains(e)) {
        return f;
    }
    let (ns, name) = (v.ns, v.name);
    let mut f = f.severity(Severity::Critical).evidence(format!(
        "spec.job.jarURI: {uri}: the operator could not reach {host} to fetch the jar"
    ));
    f.category = Category::JobJarNotFound;
    f.layer = Category::JobJarNotFound.layer();
    f.title = format!(
        "the operator cannot fetch the session job's jar: {host} is unknown or unreachable"
    );
    // No command: only a person knows where the jar is really served.
    f.fix(format!(
        "The operator downloads spec.job.jarURI itself, from its own pod, before it submits the job \
         to the session cluster. Make {uri} reachable from the operator's pod (the host's DNS name, \
         its port, a proxy), or point jarURI at where the jar is served, in FlinkSessionJob \
         {name} (namespace {ns}):\n\n\
         spec:\n  job:\n    jarURI: https://<where the jar is served>/orders-job.jar"
    ))
    // Fetched as the operator fetches it, then the session job's own error gone.
    .verify(format!(
        "{}\nkubectl get flinksessionjob {} -n {} -o jsonpath='{{.status.error}}'   # expect nothing once the operator fetched it",
        crate::flink::artifact::remote_check(uri),
        crate::shell::sh(name),
        crate::shell::sh(ns)
    ))
}

/// `container=C pod=P_NS(UID)` from a back-off message: (container, pod, namespace).
pub(super) fn failed_container(message: &str) -> Option<(String, String, String)> {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"container=(?P<c>[a-z0-9.-]+) pod=(?P<p>[a-z0-9.-]+)_(?P<ns>[a-z0-9-]+)\(",
        )
        .expect("valid regex")
    });
    let m = RE.captures(message)?;
    Some((m["c"].to_string(), m["p"].to_string(), m["ns"].to_string()))
}

/// The container the operator names in front of a container's failure: `[C] MESSAGE`, from
/// `DeploymentFailedException.forContainerStatus` (`String.format("[%s] %s", status.getName(),
/// message)`, message `CrashLoop - ` and the last termination's message, or the waiting state's):
/// apache/flink-kubernetes-operator@release-1.12.0 and @release-1.13.0 (also 1.15.0):
/// flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/exception/
/// DeploymentFailedException.java. Releases 1.6.0 to 1.11.0 wrote the waiting state's message
/// alone (`DeploymentFailedException(ContainerStateWaiting)`), which `failed_container` reads.
pub(super) fn operator_named_container(message: &str) -> Option<&str> {
    let rest = message.strip_prefix('[')?;
    let (c, _) = rest.split_once("] ")?;
    (!c.is_empty()
        && c.len() <= 63
        && c.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
    .then_some(c)
}

/// DefaultValidator's refusal of a FlinkDeployment without an account
/// (apache/flink-kubernetes-operator@release-1.15.0, also 1.7.0): only FlinkDeployments get it.
pub(super) const SERVICE_ACCOUNT_REQUIRED: &str = "spec.serviceAccount must be defined";

/// Whether the spec as it is now passes the validator check that wrote `msg`: what it says now
/// when it does, `None` when it still fails or when the message is not one whose check is known
/// here (the live error stands then).
///
/// The operator records neither the refused spec nor its generation: on a validation error
/// `ReconciliationUtils.applyValidationErrorAndResetSpec` sets `status.error` and reconciles the
/// last accepted spec (`status.reconciliationStatus.lastReconciledSpec`, written with
/// `status.observedGeneration` only when a spec is reconciled:
/// `ReconciliationStatus.serializeAndSetLastReconciledSpec`), apache/flink-kubernetes-operator@
/// release-1.15.0. So `metadata.generation` ahead of `observedGeneration` is the normal state of a
/// refused change, not a sign of a newer one, and `lastReconciledSpec` is the spec before it.
/// What does tell is the validator's own check (`DefaultValidator`), asked again of the spec now.
pub(super) fn validated_spec_changed(fd: &FlinkDeployment, msg: &str) -> Option<String> {
    let spec = &fd.spec;
    let conf = &spec.flink_configuration;
    let set = |v: Option<&String>| v.is_some_and(|v| !v.trim().is_empty());
    if msg.contains(SERVICE_ACCOUNT_REQUIRED) {
        let sa = spec
            .service_account
            .as_deref()
            .filter(|sa| !sa.is_empty())?;
        return Some(format!("spec.serviceAccount is set now ({sa})"));
    }
    if msg.contains(crate::flink::ha::STANDBY_MESSAGE) {
        // validateJmReplicas: replicas > 1 needs HA (replicas < 1 is another refusal).
        let replicas = spec
            .job_manager
            .as_ref()
            .and_then(|j| j.replicas)
            .unwrap_or(1);
        if replicas == 1 {
            return Some("spec.jobManager.replicas is 1 now: no standby JobManager".into());
        }
        return ha_on_now(conf).map(|on| {
            format!("{on}, so the {replicas} JobManagers (spec.jobManager.replicas) may run")
        });
    }
    if msg.contains(crate::flink::ha::ROLLBACK_MESSAGE) {
        const ROLLBACK: &str = "kubernetes.operator.deployment.rollback.enabled";
        if conf
            .get(ROLLBACK)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("false"))
        {
            return Some(format!("{ROLLBACK} is false now"));
        }
        return ha_on_now(conf);
    }
    if msg.contains("Flink Version must be defined") {
        let v = spec.flink_version.as_deref().filter(|v| !v.is_empty())?;
        return Some(format!("spec.flinkVersion is set now ({v})"));
    }
    if msg.contains("jarURI must include a scheme") {
        let uri = spec.job.as_ref()?.jar_uri.as_deref()?;
        let scheme = uri.split_once(':').map(|(s, _)| s).filter(|s| {
            s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        })?;
        return Some(format!(
            "spec.job.jarURI has a scheme now ({scheme}: in {uri})"
        ));
    }
    if msg.contains("resource memory must be defined") {
        let (key, comp) = if msg.contains("TaskManager") {
            ("taskManager", spec.task_manager.as_ref())
        } else {
            ("jobManager", spec.job_manager.as_ref())
        };
        let mem = comp?.resource.as_ref()?.memory.as_ref();
        return set(mem).then(|| {
            format!(
                "spec.{key}.resource.memory is set now ({})",
                mem.map(String::as_str).unwrap_or("")
            )
        });
    }
    if msg.contains("Checkpoint directory") {
        let key = crate::flink::ha::CHECKPOINT_DIR_KEYS
            .iter()
            .find(|k| set(conf.get(**k)))?;
        return Some(format!("{key} is set now ({})", conf[*key]));
    }
    None
}

/// `high-availability.type is kubernetes now (HA on)`, when the configuration turns HA on.
pub(super) fn ha_on_now(conf: &std::collections::BTreeMap<String, String>) -> Option<String> {
    if !crate::flink::ha::activated(conf) {
        return None;
    }
    let (key, value) = crate::flink::ha::MODE_KEYS
        .iter()
        .find_map(|k| conf.get(*k).map(|v| (*k, v)))?;
    Some(format!("{key} is {value} now (HA on)"))
}

/// A validation error older than the spec: info, and what to watch rather than the old fix.
pub(super) fn validation_predates_spec(f: Finding, v: &View, now: &str) -> Finding {
    let (ns, name, kind) = (v.ns, v.name, kubectl_kind(v.kind));
    let mut f = f.severity(Severity::Info).evidence(format!(
        "{now}: the spec changed after the operator's validator refused it, and passes that check"
    ));
    f.title = format!(
        "{}: the spec has changed since; waiting for the operator to validate it again",
        f.title
    );
    f.fix(format!(
        "Nothing more to change for this error: the spec no longer has what the validator refused. \
         The operator validates the new spec on its next reconciliation; if it still refuses it, \
         the new message is in the status:\n\n  \
         kubectl get {kind} {name} -n {ns} -o jsonpath='{{.status.error}}{{\"\\n\"}}'",
        name = sh(name),
        ns = sh(ns),
    ))
    .verify(verify(v))
}

/// The validator wants a ServiceAccount: the planner's, the same objects FLK501 and FLK502 give
/// (a `flink` account with the JobManager's Role in this namespace, then the switch). The chart's
/// `flink` account lives in the operator's namespace only, unless the chart watches this one, so
/// naming it alone would leave the pods with an account that does not exist (the lab's sa-unset).
pub(super) fn service_account_fix(
    snapshot: &Snapshot,
    index: &Index,
    fd: &FlinkDeployment,
) -> String {
    let ns = fd.namespace();
    let cluster = index.cluster(&deployment_ref(fd));
    let plan = rbac_plan::off_default(snapshot, index, cluster.as_ref(), ns);
    format!(
        "Give the JobManager a ServiceAccount of its own with the rights it needs, and name it in the spec:\n\n{}",
        plan.commands()
    )
}

pub(super) fn validation_fix(
    msg: &str,
    ns: &str,
    name: &str,
    kind: &str,
    fd: Option<&FlinkDeployment>,
) -> String {
    let (name_q, ns_q) = (sh(name), sh(ns));
    if msg.contains("Flink Version must be defined")
        || (msg.contains("Flink version") && msg.contains("not supported"))
    {
        let v = fd
            .and_then(|d| d.spec.image.as_deref())
            .and_then(flink_version_of_image)
            .unwrap_or_else(|| "v1_20".into());
        return format!(
            "Set spec.flinkVersion to the Flink in the image and one this operator supports (v1_13 ... v1_20, v2_0 ... v2_2 for operator 1.15):\n\n  \
             kubectl patch {kind} {name_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"flinkVersion\":\"{v}\"}}}}'"
        );
    }
    if msg.contains("High availability should be enabled") || msg.contains("HA must be enabled") {
        return format!(
            "Enable HA (or run one JobManager: spec.jobManager.replicas: 1):\n\n  \
             kubectl patch {kind} {name_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"high-availability.type\":\"kubernetes\",\"high-availability.storageDir\":\"s3://<bucket Flink can write>/flink/{name}/ha\"}}}}}}'"
        );
    }
    if msg.contains("jarURI must include a scheme") {
        return format!(
            "Give spec.job.jarURI a scheme: local:// for a jar inside the image, or s3:// / https:// for a remote one:\n\n  \
             kubectl patch {kind} {name_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"local:///opt/flink/usrlib/<job jar in the image>\"}}}}}}'"
        );
    }
    if msg.contains("resource memory must be defined") {
        let key = if msg.contains("TaskManager") {
            "taskManager"
        } else {
            "jobManager"
        };
        return format!(
            "Give the {key} a memory size (Flink syntax: 2048m, 2g):\n\n  \
             kubectl patch {kind} {name_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"{key}\":{{\"resource\":{{\"memory\":\"2048m\"}}}}}}}}'"
        );
    }
    if msg.contains("Checkpoint directory") {
        // The key the operator reads is the one it names in brackets: CheckpointingOptions'
        // key of the Flink it was built with (`Checkpoint directory[%s] must be defined`,
        // apache/flink-kubernetes-operator@release-1.7.0 to @release-1.13.0:
        // flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java):
        // state.checkpoints.dir in operator 1.7.0 and 1.10.0 (built on Flink 1.17.1 and 1.19.1),
        // execution.checkpointing.dir in 1.13.0 (Flink 1.20.1, which still reads the old key as
        // a deprecated one). Another key would not satisfy the older operators.
        let key = msg
            .split_once("Checkpoint directory[")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(k, _)| k.trim())
            .filter(|k| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            })
            .unwrap_or("state.checkpoints.dir");
        return format!(
            "last-state and savepoint upgrade modes need durable checkpoints: set spec.flinkConfiguration `{key}`, \
             the key the operator names, to a path on a file system every JobManager and TaskManager can write \
             (fill in the bucket):\n\n  \
             kubectl patch {kind} {name_q} -n {ns_q} --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"{key}\":\"s3://<bucket Flink can write>/flink/{name}/checkpoints\"}}}}}}'"
        );
    }
    if let Some(fix) = named_field_fix(msg, ns, name, kind, fd) {
        return fix;
    }
    format!(
        "Fix the field the message names in the {kind} (kubectl edit {kind} {name_q} -n {ns_q})."
    )
}

/// The field a validator message names, and its fix: a config key in brackets (`... config
/// key[K] is not set`, `must be set`), a forbidden or unknown key (removed), an autoscaler option
/// out of its range, the job's parallelism or a component's replicas. The messages are
/// DefaultValidator's, the same text from apache/flink-kubernetes-operator@release-1.6.0 to
/// @release-1.13.0 (flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/
/// validation/DefaultValidator.java; the autoscaler's range since release-1.7.0). A value only a
/// person knows is a placeholder named by its key.
fn named_field_fix(
    msg: &str,
    ns: &str,
    name: &str,
    kind: &str,
    fd: Option<&FlinkDeployment>,
) -> Option<String> {
    static RE: std::sync::LazyLock<[regex::Regex; 4]> = std::sync::LazyLock::new(|| {
        [
            regex::Regex::new(r"config key\[(?P<key>[^\]\s]+)\]").expect("valid regex"),
            regex::Regex::new(r"Forbidden Flink config key: (?P<key>[^\s,]+)").expect("valid regex"),
            regex::Regex::new(r"Invalid log config key: (?P<key>[^\s.]+(?:\.[^\s.]+)*)\. Allowed keys are").expect("valid regex"),
            regex::Regex::new(r"The AutoScalerOption (?P<key>\S+) is invalid, it should be a value within the range \[(?P<lo>[^,\]]+), (?P<hi>[^\]]+)\]").expect("valid regex"),
        ]
    });
    let patch = |v: serde_json::Value| {
        format!(
            "kubectl patch {kind} {} -n {} --type=merge -p {}",
            sh(name),
            sh(ns),
            sh(&serde_json::json!({ "spec": v }).to_string())
        )
    };
    let conf = fd.map(|d| &d.spec.flink_configuration);
    let now = |key: &str| {
        conf.and_then(|c| c.get(key))
            .map(|v| format!(" (it is {v} now)"))
            .unwrap_or_else(|| " (it is not set now)".into())
    };
    if let Some(c) = RE[1].captures(msg) {
        let key = &c["key"];
        return Some(format!(
            "The operator forbids spec.flinkConfiguration `{key}`{}: it sets that key itself. Remove it:\n\n  {}",
            now(key),
            patch(serde_json::json!({"flinkConfiguration": {key: null}}))
        ));
    }
    if let Some(c) = RE[2].captures(msg) {
        let key = &c["key"];
        return Some(format!(
            "spec.logConfiguration has a key the operator does not take, `{key}` (it allows log4j-console.properties \
             and logback-console.xml). Remove it, keeping its content under an allowed key:\n\n  {}",
            patch(serde_json::json!({"logConfiguration": {key: null}}))
        ));
    }
    if let Some(c) = RE[3].captures(msg) {
        let (key, lo, hi) = (&c["key"], &c["lo"], &c["hi"]);
        let placeholder = format!("<{key}>");
        return Some(format!(
            "Set spec.flinkConfiguration `{key}`{} to a value from {lo} to {hi}: fill in {placeholder} (only you know \
             which) and run:\n\n  {}",
            now(key),
            patch(serde_json::json!({"flinkConfiguration": {key: placeholder}}))
        ));
    }
    if let Some(c) = RE[0].captures(msg) {
        let key = &c["key"];
        let placeholder = format!("<{key}>");
        return Some(format!(
            "The validator asks for spec.flinkConfiguration `{key}`{}: fill in {placeholder} (a durable path or \
             the value it needs; only you know it) and run:\n\n  {}",
            now(key),
            patch(serde_json::json!({"flinkConfiguration": {key: placeholder}}))
        ));
    }
    if msg.contains("Job parallelism must be larger than 0") {
        return Some(format!(
            "Give spec.job.parallelism a value of 1 or more:\n\n  {}",
            patch(serde_json::json!({"job": {"parallelism": 1}}))
        ));
    }
    for (words, key) in [
        (
            "JobManager replicas should not be configured less than one",
            "jobManager",
        ),
        (
            "TaskManager replicas should not be configured less than one",
            "taskManager",
        ),
        ("TaskManager replicas must be larger than 0", "taskManager"),
    ] {
        if msg.contains(words) {
            return Some(format!(
                "Give spec.{key}.replicas a value of 1 or more:\n\n  {}",
                patch(serde_json::json!({key: {"replicas": 1}}))
            ));
        }
    }
    None
}

/// For an option Flink could not parse (SIG-FLINK-OPTION-UNPARSABLE names the key and the value),
/// the one field to set, as a command with a placeholder for the person who knows the value
/// (FILL_IN in `--fix=run`): the key in spec.flinkConfiguration of the FlinkDeployment that holds
/// it. Nothing when the spec does not hold the key (it came from elsewhere: the ConfigMap).
pub(super) fn set_the_option(m: &Match, fd: Option<&FlinkDeployment>, ns: &str) -> String {
    if m.signature.category != Category::ConfigOptionInvalid {
        return String::new();
    }
    let (Some(key), Some(fd)) = (m.field("key"), fd) else {
        return String::new();
    };
    if !fd.spec.flink_configuration.contains_key(key) {
        return String::new();
    }
    // The placeholder is the key itself, as `<spec.job.jarURI>` is for a jar (a quote inside it
    // would break the command's shell quoting).
    let placeholder = format!("<{key}>");
    let patch = serde_json::json!({"spec": {"flinkConfiguration": {key: placeholder}}}).to_string();
    format!(
        "\n\nThe field to set is spec.flinkConfiguration `{key}` of FlinkDeployment {name}: \
         fill in {placeholder}, a value of the option's type (only you know which), and run:\n\n  \
         kubectl patch flinkdeployment {name} -n {ns} --type=merge -p {patch}",
        name = sh(fd.name()),
        ns = sh(ns),
        patch = sh(&patch),
    )
}

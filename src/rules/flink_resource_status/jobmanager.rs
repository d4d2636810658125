//! The fixes built from the JobManager pods the snapshot holds, for a status whose error names no
//! cause of its own: how the container last ended and what its log says (a JobManager that does not
//! stay up), the scheduler's reasons (one that stays Pending), the kubelet's words (a reference in
//! the pod template that does not resolve), and, when nothing is known, the operator's own message.

use super::fix::{failed_container, operator_named_container, set_the_option};
use super::*;
use crate::flink::mode::Mode;
use crate::rules::support::containers::{logs_command, LogEvidence};
use crate::rules::support::pod_status::ContainerView;
use crate::rules::support::scheduling;
use crate::shell::sh;

/// Flink's main container in the pods the operator deploys (`Constants.MAIN_CONTAINER_NAME`,
/// apache/flink@release-1.20:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/utils/Constants.java).
const MAIN_CONTAINER: &str = "flink-main-container";

/// The JobManager pod and container the failure is about: the container the operator names in
/// its message (and the pod, when it names one), else the one that ended most recently (the most
/// restarts), Flink's main container first.
fn failed<'a>(
    jm_pods: &[&'a Pod],
    decoded: Option<&OperatorError>,
) -> Option<(&'a Pod, ContainerView<'a>)> {
    let message = decoded.and_then(|d| d.message.as_deref());
    let (named_container, named_pod) = match message.and_then(failed_container) {
        Some((c, p, _)) => (Some(c), Some(p)),
        None => (
            message
                .and_then(operator_named_container)
                .map(str::to_string),
            None,
        ),
    };
    let wanted = named_container.as_deref().unwrap_or(MAIN_CONTAINER);
    let pods = jm_pods
        .iter()
        .filter(|p| named_pod.as_deref().is_none_or(|n| pod_name(p) == n));
    pods.flat_map(|p| containers(p).into_iter().map(move |c| (*p, c)))
        .filter(|(_, c)| !c.init)
        .max_by_key(|(_, c)| {
            (
                c.name() == wanted,
                c.last_termination().is_some(),
                c.restart_count(),
            )
        })
}

/// `kubectl logs` of a named pod's container, and whether it is the previous instance's.
fn log_source(
    snapshot: &Snapshot,
    ns: &str,
    pod: &str,
    c: Option<&ContainerView>,
) -> (String, LogEvidence) {
    let container = c.map(|c| c.name()).unwrap_or(MAIN_CONTAINER);
    // A container terminated now wrote its last log in this instance; one restarted since, in the
    // previous one.
    let terminated_now = c
        .and_then(|c| c.status.state.as_ref())
        .is_some_and(|s| s.terminated.is_some());
    let logs = LogEvidence::read(snapshot, ns, pod, container, !terminated_now);
    let previous = logs.previous.unwrap_or(!terminated_now);
    (logs_command(ns, pod, container, previous), logs)
}

/// A JobManager that does not stay up: how its container last ended, what its log says, and the
/// field of the FlinkDeployment to change when the log names a cause whose field is known; else
/// the exact `kubectl logs --previous` of that pod. `None` when nothing shows a JobManager going
/// down (`crashed` false: the category is the categorizer's default, not the operator's or the
/// kubelet's word, and no JobManager container has ended): saying it does not stay up would be a
/// guess.
pub(super) fn fatal_exit(
    snapshot: &Snapshot,
    v: &View,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
    decoded: Option<&OperatorError>,
    crashed: bool,
) -> Option<String> {
    let ns = v.ns;
    let found = failed(jm_pods, decoded);
    let ended = found
        .as_ref()
        .is_some_and(|(_, c)| c.last_termination().is_some());
    if !crashed && !ended {
        return None;
    }
    // The pod by name: the one read, else the one the operator's message names (a pod gone from
    // the snapshot, or never read, still has its previous log until it is replaced).
    let named = decoded
        .and_then(|d| d.message.as_deref())
        .and_then(failed_container)
        .filter(|(_, _, pod_ns)| pod_ns == ns);
    let (pod, container) = match (&found, &named) {
        (Some((p, c)), _) => (pod_name(p).to_string(), c.name().to_string()),
        (None, Some((c, p, _))) => (p.clone(), c.clone()),
        (None, None) => return no_pod(v, fd, "does not stay up"),
    };
    let c = found.as_ref().map(|(_, c)| c);
    let mut out = String::new();
    match c.and_then(|c| c.last_termination()) {
        Some(t) => {
            let meaning = crate::flink::exit::short_meaning(t.exit_code.into())
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            out.push_str(&format!(
                "JobManager pod {pod} container {container} last ended with exit code {}{meaning}, reason {}",
                t.exit_code,
                t.reason.as_deref().unwrap_or("-"),
            ));
            if let Some(m) = t.message.as_deref().filter(|m| !m.trim().is_empty()) {
                out.push_str(&format!(", message \"{}\"", short(m, 300)));
            }
            out.push('.');
        }
        None if c.is_some() => out.push_str(&format!(
            "JobManager pod {pod} container {container} does not stay up (the snapshot holds no termination of it)."
        )),
        None => out.push_str(&format!(
            "JobManager pod {pod} container {container} does not stay up (the operator names it; the snapshot holds no status of that pod)."
        )),
    }
    let (cmd, logs) = log_source(snapshot, ns, &pod, c);
    let which = if logs.previous == Some(true) {
        "previous log"
    } else {
        "log"
    };
    if let Some(m) = logs.root() {
        // The field of the FlinkDeployment the cause is in, when the spec holds it: a memory size
        // that cannot fit gets the size that does (memory.rs), an option Flink cannot parse its key
        // in spec.flinkConfiguration (set_the_option). Any other cause is the pod-level finding's
        // (FLK103 and the rules it points at report it from this same log, with its fix): one fix
        // per cause, so this names it and leaves the commands to that finding.
        let field = (m.signature.category == Category::MemoryConfigInvalid)
            .then(|| super::memory::fit(&m.line, fd?, ns))
            .flatten()
            .or_else(|| {
                (m.signature.category == Category::ConfigOptionInvalid)
                    .then(|| set_the_option(m, fd, ns))
                    .filter(|s| !s.is_empty())
                    .map(|s| s.trim_start().to_string())
            });
        out.push_str(&format!(
            " Its {which} names the cause at line {}, `{}`: {}.\n{}\n\nRead the lines around it:\n\n  {cmd} | sed -n '{},{}p'",
            m.line_no,
            one_line(&m.line),
            m.signature.explanation,
            field.unwrap_or_else(|| format!(
                "That cause is reported as a finding of its own (category {}), with its fix; apply it there \
                 and the JobManager stays up.",
                m.signature.category
            )),
            m.line_no.saturating_sub(5).max(1),
            m.line_no + 20,
        ));
        return Some(out);
    }
    if logs.previous.is_some() && !logs.tail.is_empty() {
        let lines: Vec<String> = logs
            .tail
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(|(n, l)| format!("  line {n}: {l}"))
            .collect();
        out.push_str(&format!(
            " Its {which} ends with (no known cause matches):\n\n{}\n\n\
             Fix the first error these lines show (the last `Caused by:` is usually the root cause); the whole log:\n\n  {cmd}",
            lines.join("\n")
        ));
        return Some(out);
    }
    if logs.previous.is_some() {
        out.push_str(&format!(
            " Its {which} in the snapshot holds no line that says why; the log as the cluster has it now:\n\n  {cmd}"
        ));
        return Some(out);
    }
    out.push_str(&format!(
        " The snapshot holds no log of it; the cause is in the lines before the exit (the last `Caused by:` is \
         usually the root cause):\n\n  {cmd} | grep -n -E -B 5 -A 30 'FATAL|Fatal error|Could not start|Caused by|Exception'"
    ));
    Some(out)
}

/// No JobManager pod is in the snapshot and the operator names none: what is known, said so, and
/// the command that lists the pods of the cluster (the only place a selector is used: no name is
/// known).
fn no_pod(v: &View, fd: Option<&FlinkDeployment>, what: &str) -> Option<String> {
    // A session job's cluster that is not in the snapshot: no FlinkDeployment to name.
    let cluster = fd.map(|d| d.name())?;
    let selector = Mode::Operator.selector(Some(cluster), Some(Component::JobManager));
    Some(format!(
        "The JobManager of FlinkDeployment {cluster} {what}, and the snapshot holds none of its pods \
         (the operator deletes and recreates them). List them, then read the log of the one that failed:\n\n  \
         kubectl get pods -n {} -l {}\n  kubectl logs <pod> -n {} -c {MAIN_CONTAINER} --previous",
        sh(v.ns),
        sh(&selector),
        sh(v.ns),
    ))
}

/// A JobManager pod that stays Pending: the scheduler's reasons, as FLK106 reads them, each with
/// its fix in the FlinkDeployment's fields (resources, the template that sets the nodeSelector,
/// tolerations).
pub(super) fn unschedulable(
    snapshot: &Snapshot,
    index: &Index,
    v: &View,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
) -> String {
    let ns = v.ns;
    let read = jm_pods
        .iter()
        .find_map(|p| scheduling::unschedulable(index, p).map(|u| (*p, u)));
    let Some((pod, u)) = read else {
        return match jm_pods
            .iter()
            .find(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Pending"))
        {
            Some(p) => format!(
                "JobManager pod {} is Pending and the snapshot holds no word of the scheduler on it \
                 (no PodScheduled condition, no FailedScheduling event). Its events say why:\n\n  \
                 kubectl describe pod {} -n {}",
                pod_name(p),
                sh(pod_name(p)),
                sh(ns)
            ),
            None => no_pod(v, fd, "is not scheduled").unwrap_or_else(|| {
                format!(
                    "The JobManager is not scheduled, and the snapshot holds neither its pods nor its FlinkDeployment: \
                     kubectl describe {} {} -n {}",
                    kubectl_kind(v.kind),
                    sh(v.name),
                    sh(v.ns)
                )
            }),
        };
    };
    let name = pod_name(pod);
    if u.why.is_empty() {
        return format!(
            "JobManager pod {name} stays Pending; the scheduler says \"{}\", which names no reason doctor knows. \
             Its events in full:\n\n  kubectl describe pod {} -n {}",
            short(&u.message, 300),
            sh(name),
            sh(ns)
        );
    }
    let fixes: Vec<String> = u
        .why
        .iter()
        .take(3)
        .map(|w| scheduling::fix_for(snapshot, w, ns, pod, Some(Component::JobManager), fd))
        .collect();
    format!(
        "JobManager pod {name} stays Pending: {} (the scheduler: \"{}\").\n\n{}",
        u.why
            .iter()
            .take(3)
            .map(scheduling::words)
            .collect::<Vec<_>>()
            .join("; "),
        short(&u.message, 300),
        fixes.join("\n\n")
    )
}

/// A reference in the pod template that the kubelet cannot resolve, in none of the shapes
/// `missing_reference` knows: the pod by name with the kubelet's words (its container's waiting
/// state, its FailedMount events), and the templates of the FlinkDeployment that hold the
/// reference.
pub(super) fn unresolved_reference(
    v: &View,
    index: &Index,
    fd: Option<&FlinkDeployment>,
    jm_pods: &[&Pod],
    decoded: Option<&OperatorError>,
) -> String {
    let ns = v.ns;
    let cluster = fd.map(|d| d.name()).unwrap_or(v.name);
    let templates = fd
        .map(|d| {
            d.pod_templates()
                .into_iter()
                .map(|(p, _)| p)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let whereto = if fd.is_none() {
        format!(
            "the pod template of the cluster {} {} runs on",
            v.kind, v.name
        )
    } else if templates.is_empty() {
        format!("the pod template of FlinkDeployment {cluster} (it sets none: the reference comes from flinkConfiguration's kubernetes.* options)")
    } else {
        format!("{} of FlinkDeployment {cluster}", templates.join(" / "))
    };
    let Some(pod) = jm_pods.first() else {
        let said = decoded
            .and_then(|d| d.message.as_deref())
            .or(v.error)
            .map(|m| format!(" (the operator: \"{}\")", short(m, 300)))
            .unwrap_or_default();
        return format!(
            "The JobManager pod references something that does not exist or cannot be mounted{said}, and the \
             snapshot holds none of its pods to name it. Create what it names, or fix the reference in {whereto}; \
             the pods and their events:\n\n  kubectl get pods -n {} -l {}\n  kubectl describe pod <pod> -n {}",
            sh(ns),
            sh(&Mode::Operator.selector(Some(cluster), Some(Component::JobManager))),
            sh(ns),
        );
    };
    let name = pod_name(pod);
    let mut said: Vec<String> = containers(pod)
        .into_iter()
        .filter_map(|c| {
            let r = c.waiting_reason()?;
            Some(format!(
                "container {} waits in {r}{}",
                c.name(),
                c.waiting_message()
                    .map(|m| format!(": \"{}\"", short(m, 300)))
                    .unwrap_or_default()
            ))
        })
        .collect();
    if let Some(e) = index
        .events_for("Pod", ns, name)
        .into_iter()
        .rev()
        .find(|e| {
            matches!(
                e.reason.as_deref(),
                Some("FailedMount" | "FailedAttachVolume")
            )
        })
    {
        said.push(format!(
            "event {}: \"{}\"",
            e.reason.as_deref().unwrap_or(""),
            short(e.message.as_deref().unwrap_or(""), 300)
        ));
    }
    let said = if said.is_empty() {
        " (the snapshot holds no waiting state or mount event of it)".to_string()
    } else {
        format!(": {}", said.join("; "))
    };
    format!(
        "JobManager pod {name} cannot start{said}. Create what it names, or fix the reference in {whereto}; \
         the pod's events in full:\n\n  kubectl describe pod {} -n {}",
        sh(name),
        sh(ns)
    )
}

/// Nothing more is known than the operator's own words: its message quoted, the resource named,
/// and where the rest is (its events, and the JobManager's log by pod name when a pod is read).
pub(super) fn operator_said(
    snapshot: &Snapshot,
    v: &View,
    jm_pods: &[&Pod],
    decoded: Option<&OperatorError>,
) -> String {
    let (ns, name) = (v.ns, v.name);
    let kind = kubectl_kind(v.kind);
    let said = match decoded.and_then(|d| d.message.as_deref()).or(v.error) {
        Some(m) => format!(
            "The operator reports for {} {name}: \"{}\".",
            v.kind,
            short(m, 300)
        ),
        None => format!(
            "The operator reports {} {name} as failed without an error message.",
            v.kind
        ),
    };
    let logs = failed(jm_pods, decoded)
        .map(|(p, c)| {
            let (cmd, _) = log_source(snapshot, ns, pod_name(p), Some(&c));
            format!("\n\nThe JobManager's log (pod {}):\n\n  {cmd}", pod_name(p))
        })
        .unwrap_or_default();
    format!(
        "{said} doctor knows no more of its cause than that; the operator's full error and the events it recorded:\n\n  \
         kubectl describe {kind} {} -n {}{logs}",
        sh(name),
        sh(ns)
    )
}

//! FLK111: the PriorityClass or RuntimeClass Flink's pods name does not exist, so the API server
//! refuses every such pod: no JobManager pod (or no TaskManager pod) is ever created, and there is
//! no pod to describe.
//!
//! The refusals are the Priority and RuntimeClass admission plugins' (`snapshot::refused`,
//! `Denied::ClassMissing`): `pods "x" is forbidden: no PriorityClass with name NAME was found`,
//! `pods "x" is forbidden: pod rejected: RuntimeClass "NAME" not found`, read where the pod's
//! creator reports them (a ReplicaSet's or the operator's `FailedCreate` event, a Deployment's
//! `ReplicaFailure` condition, the JobManager's `Could not create pod` line for a TaskManager).
//!
//! The fix is built from the cluster's classes and the template that names the missing one: a
//! class of a near name exists (a typo) → the template names that one; else the class is created.
//! A PriorityClass is created at the priority the pods get without one (the `globalDefault`
//! class's value, else 0), so creating it changes nothing but admission; a RuntimeClass's handler
//! is the nodes' container runtime's, which only a person knows.

use super::support::containers::refusal_line;
use super::support::refused_since::{admitted_since, created_since, refused_earlier};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::spelling::nearest;
use crate::shell::sh;
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{deployment_ref, event_time};
use crate::snapshot::refused::{self, ClassKind, Denied, Where};
use crate::snapshot::{Index, Snapshot};

pub struct PodClassMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK111",
    name: "pod_class_missing",
    summary: "the PriorityClass or RuntimeClass Flink's pods name does not exist, so the API server refuses them",
    category: Category::PodtemplateInvalid,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"name a class that exists in the pod template (priorityClassName, runtimeClassName), or create the one it names"#,
    verify: r#"kubectl get priorityclass <name>   # expect it listed (runtimeclass for a RuntimeClass)"#,
};

/// One missing class: for which Flink deployment, what said so, and which pods it refused.
struct Missing<'a> {
    namespace: String,
    kind: ClassKind,
    name: String,
    fd: Option<&'a FlinkDeployment>,
    taskmanager: bool,
    evidence: Vec<String>,
    pods: Vec<String>,
    /// When the last refusal was: `None` before any is read, `Some(None)` once one is read that
    /// says no time (a condition, a log line).
    last: Option<Option<chrono::DateTime<chrono::Utc>>>,
}

impl Rule for PodClassMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        let mut found: Vec<Missing> = Vec::new();
        for d in refused::denials(s) {
            let Denied::ClassMissing { kind, name } = &d.denial.what else {
                continue;
            };
            // Created since: the refusal is history (the controller retries on its own).
            if *kind == ClassKind::Priority && exists(s, name) {
                continue;
            }
            let pod = d.denial.pod.as_deref().unwrap_or("");
            let owner = refused::owner_name(&d.source);
            let fd = refused::flink_deployment_for(s, d.namespace, &[owner, pod]);
            let i = match found.iter().position(|m| {
                m.namespace == d.namespace
                    && m.kind == *kind
                    && m.name == *name
                    && m.fd.map(|f| f.name()) == fd.map(|f| f.name())
            }) {
                Some(i) => i,
                None => {
                    found.push(Missing {
                        namespace: d.namespace.to_string(),
                        kind: *kind,
                        name: name.clone(),
                        fd,
                        taskmanager: false,
                        evidence: Vec::new(),
                        pods: Vec::new(),
                        last: None,
                    });
                    found.len() - 1
                }
            };
            let m = &mut found[i];
            m.last = match (&d.source, m.last) {
                (Where::Event(e), Some(Some(t))) => Some(event_time(e).map(|e| e.max(t))),
                (Where::Event(e), None) => Some(event_time(e)),
                _ => Some(None),
            };
            m.taskmanager |= matches!(d.source, Where::Log { .. }) || pod.contains("-taskmanager-");
            let line = refusal_line(&d.source, d.message);
            if !m.evidence.contains(&line) && m.evidence.len() < 4 {
                m.evidence.push(line);
            }
            if !pod.is_empty() && !m.pods.iter().any(|p| p == pod) {
                m.pods.push(pod.to_string());
            }
        }
        found.into_iter().map(|m| finding(s, m)).collect()
    }
}

/// The PriorityClass exists in the snapshot (read, and there).
fn exists(s: &Snapshot, name: &str) -> bool {
    s.holds("PriorityClass")
        && s.priority_classes
            .iter()
            .any(|c| c.metadata.name.as_deref() == Some(name))
}

/// The templates of FD that name the class, by JSON path (`spec.podTemplate`).
fn naming_templates(fd: &FlinkDeployment, kind: ClassKind, name: &str) -> Vec<&'static str> {
    fd.pod_templates()
        .into_iter()
        .filter(|(_, t)| {
            let spec = t.spec.as_ref();
            let named = match kind {
                ClassKind::Priority => spec.and_then(|s| s.priority_class_name.as_deref()),
                ClassKind::Runtime => spec.and_then(|s| s.runtime_class_name.as_deref()),
            };
            named == Some(name)
        })
        .map(|(path, _)| path)
        .collect()
}

fn finding(s: &Snapshot, m: Missing) -> Finding {
    let (ns, name, kind) = (m.namespace.as_str(), m.name.as_str(), m.kind);
    let who = if m.taskmanager {
        "TaskManager"
    } else {
        "JobManager"
    };
    let mut f = Finding::new(
        &META,
        ObjectRef::new(kind.kind(), None, name),
        format!(
            "{} {name} does not exist: the API server refuses every {who} pod that names it",
            kind.kind()
        ),
    )
    .deployment(m.fd.map(deployment_ref));
    let paths =
        m.fd.map(|fd| naming_templates(fd, kind, name))
            .unwrap_or_default();
    if let Some(fd) = m.fd {
        for p in &paths {
            f = f.evidence(format!(
                "FlinkDeployment {} sets {p}.spec.{}: {name}",
                fd.name(),
                kind.field()
            ));
        }
    }
    for e in &m.evidence {
        f = f.evidence(e.clone());
    }
    if !m.pods.is_empty() {
        f = f.evidence(format!("pods refused: {}", m.pods.join(", ")));
    }
    let verify_refusals = format!(
        "kubectl get events -n {} --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming {} {name}",
        sh(ns),
        kind.kind()
    );
    if let Some(fd) = m.fd {
        if let Some(up) = created_since(s, ns, fd, who, &m.pods) {
            return refused_earlier(
                f,
                &format!("a {who} pod runs now"),
                up,
                format!("Nothing to change: the {who} pods were created since, and the deployment is up."),
                verify_refusals,
            );
        }
        if let Some(since) = m
            .last
            .flatten()
            .and_then(|last| admitted_since(s, ns, fd, who, &m.pods, last))
        {
            return refused_earlier(
                f,
                &format!("a {who} pod was admitted since"),
                since,
                format!("Nothing to change: a {who} pod of the template the deployment has now was admitted; wait for it to come up."),
                verify_refusals,
            );
        }
    }
    let existing: Vec<&str> = match kind {
        ClassKind::Priority if s.holds("PriorityClass") => s
            .priority_classes
            .iter()
            .filter_map(|c| c.metadata.name.as_deref())
            .collect(),
        _ => Vec::new(),
    };
    if !existing.is_empty() {
        f = f.evidence(format!(
            "PriorityClasses in the cluster: {}",
            existing.join(", ")
        ));
    }
    let meant = nearest(name, existing.iter().copied()).filter(|n| *n != name);
    let (fix, verify) = match (meant, m.fd) {
        (Some(meant), Some(fd)) if !paths.is_empty() => (
            format!(
                "PriorityClass {meant} exists; {name} is one edit or two away from it. Name {meant} where FlinkDeployment {} names {name} (the operator redeploys with it):\n\n  {}\n\nor create PriorityClass {name} as below, if it is a class of its own:\n\n{}",
                fd.name(),
                rename_patch(fd, ns, &paths, kind, meant),
                create(s, kind, name, &paths)
            ),
            format!(
                "kubectl get flinkdeployment {} -n {} -o jsonpath='{{..{}}}{{\"\\n\"}}'   # expect {meant}\n{verify_refusals}",
                sh(fd.name()),
                sh(ns),
                kind.field()
            ),
        ),
        _ => (
            create(s, kind, name, &paths),
            format!(
                "kubectl get {} {}   # expect it listed\n{verify_refusals}",
                kind.kind().to_ascii_lowercase(),
                sh(name)
            ),
        ),
    };
    f.fix(fix).verify(verify)
}

/// The JSON patch that names MEANT in each template at PATHS.
fn rename_patch(
    fd: &FlinkDeployment,
    ns: &str,
    paths: &[&str],
    kind: ClassKind,
    meant: &str,
) -> String {
    let ops: Vec<serde_json::Value> = paths
        .iter()
        .map(|p| {
            serde_json::json!({
                "op": "replace",
                "path": crate::shell::pointer(&p.split('.').chain(["spec", kind.field()]).collect::<Vec<_>>()),
                "value": meant,
            })
        })
        .collect();
    format!(
        "kubectl patch flinkdeployment {} -n {} --type=json -p {}",
        sh(fd.name()),
        sh(ns),
        sh(&serde_json::Value::Array(ops).to_string())
    )
}

/// The class created, as YAML to apply, and where else the name could be taken out.
fn create(s: &Snapshot, kind: ClassKind, name: &str, paths: &[&str]) -> String {
    let out_of = if paths.is_empty() {
        format!(
            "the pod template the pods are created from ({})",
            kind.field()
        )
    } else {
        paths
            .iter()
            .map(|p| format!("{p}.spec.{}", kind.field()))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match kind {
        ClassKind::Priority => {
            let default = s
                .priority_classes
                .iter()
                .find(|c| c.global_default == Some(true));
            let (value, why) = match default {
                Some(c) => (
                    c.value.unwrap_or(0),
                    format!(
                        "the value of PriorityClass {}, the cluster's globalDefault, which pods without a class get",
                        c.metadata.name.as_deref().unwrap_or("")
                    ),
                ),
                None => (0, "the priority pods without a class get (the cluster has no globalDefault PriorityClass)".to_string()),
            };
            format!(
                "Create PriorityClass {name} at {value}, {why}: admitted, the pods schedule as they would without a class. Raise its value for Flink's pods to be scheduled before, and to preempt, pods of a lower priority.\n\n\
                 kubectl apply -f - <<'EOF'\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: {}\nvalue: {value}\nglobalDefault: false\ndescription: Flink's pods (created at the priority of pods without a class)\nEOF\n\nor take {out_of} out of the spec.",
                crate::shell::yaml(name)
            )
        }
        ClassKind::Runtime => format!(
            "Create RuntimeClass {name} with the handler the nodes' container runtime configures for it (containerd: a runtime under plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes; only whoever runs the nodes knows it):\n\n\
             kubectl apply -f - <<'EOF'\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: {}\nhandler: <handler the nodes' container runtime has>\nEOF\n\nor take {out_of} out of the spec, for the runtime's default.",
            crate::shell::yaml(name)
        ),
    }
}

#[cfg(test)]
mod tests;

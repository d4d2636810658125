//! FLK108: a ResourceQuota or LimitRange rejects the creation of Flink's pods.
//!
//! A rejected pod never exists, so the evidence is elsewhere:
//! - `FailedCreate` events of the JobManager's ReplicaSet / Deployment (`Error creating: pods "x"
//!   is forbidden: exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=7Gi,
//!   limited: limits.memory=8Gi`), and the Deployment's `ReplicaFailure` condition;
//! - the operator's `FailedCreate` Warning event on the FlinkDeployment (it raises a
//!   `DeploymentFailedException` from that condition);
//! - for TaskManagers, which the JobManager creates itself, its log line
//!   `Could not create pod <name>, exception: ... is forbidden: exceeded quota: ...`.
//!
//! The messages are the API server's (quota admission and LimitRanger), found and read by
//! `snapshot::refused` (which a live gather uses too, to read the quotas they name); the fix
//! computes the quota the pod needs from the numbers they carry.

mod limitrange;

use super::support::containers::refusal_line;
use super::support::refused_since::{created_since, refused_earlier};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::units::{format_bytes, parse_quantity, parse_resource_memory};
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::deployment_ref;
use crate::snapshot::refused::{self, Refused, Rejection};
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::ResourceQuota;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

pub struct ResourceQuotaExceeded;

static META: RuleMeta = RuleMeta {
    id: "FLK108",
    name: "resource_quota_exceeded",
    summary: "a ResourceQuota or LimitRange rejects pod creation",
    category: Category::ResourceQuotaExceeded,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"fit the pods under the namespace's ResourceQuota and LimitRange (lower requests, limits or replicas), or raise the quota"#,
    verify: r#"kubectl get events --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming a quota"#,
};

impl Rule for ResourceQuotaExceeded {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut groups: Vec<RefusalGroup> = Vec::new();
        for r in refused::refusals(snapshot) {
            let ns = r.namespace;
            let pod = r.rejection.pod.as_deref().unwrap_or("");
            // Events of the controllers (and of the operator, on the CR), the Deployment's own
            // condition (when the events have expired), or TaskManager pods the JobManager could
            // not create (its log).
            let owner = refused::owner_name(&r.source);
            let line = refusal_line(&r.source, r.message);
            let fd = refused::flink_deployment_for(snapshot, ns, &[owner, pod]);
            add(&mut groups, ns, fd, r.rejection, line);
        }
        groups
            .into_iter()
            .map(|g| g.finding(snapshot, index))
            .collect()
    }
}

struct RefusalGroup<'a> {
    ns: String,
    fd: Option<&'a FlinkDeployment>,
    rejection: Rejection,
    evidence: Vec<String>,
    pods: Vec<String>,
}

fn add<'a>(
    groups: &mut Vec<RefusalGroup<'a>>,
    ns: &str,
    fd: Option<&'a FlinkDeployment>,
    rejection: Rejection,
    line: String,
) {
    let key = rejection.key();
    let pod = rejection.pod.clone();
    let g = match groups.iter_mut().position(|g| {
        g.ns == ns && g.rejection.key() == key && g.fd.map(|d| d.name()) == fd.map(|d| d.name())
    }) {
        Some(i) => &mut groups[i],
        None => {
            groups.push(RefusalGroup {
                ns: ns.to_string(),
                fd,
                rejection,
                evidence: Vec::new(),
                pods: Vec::new(),
            });
            groups.last_mut().expect("just pushed")
        }
    };
    if !g.evidence.contains(&line) && g.evidence.len() < 5 {
        g.evidence.push(line);
    }
    if let Some(p) = pod {
        if !g.pods.contains(&p) {
            g.pods.push(p);
        }
    }
}

/// What shows that NS refuses no more pods: no new `FailedCreate` event.
fn no_new_failed_create(ns: &str) -> String {
    format!(
        "kubectl get events -n {} --field-selector reason=FailedCreate   # expect no new FailedCreate",
        crate::shell::sh(ns)
    )
}

/// A quantity for a quota key: bytes for memory and storage, cores for cpu, a count otherwise.
fn format_for(key: &str, value: f64) -> String {
    if key.contains("memory") || key.contains("storage") {
        format_bytes(value)
    } else if key.contains("cpu") {
        if (value - value.round()).abs() < 1e-9 {
            format!("{}", value.round())
        } else {
            format!("{}m", (value * 1000.0).ceil())
        }
    } else {
        format!("{}", value.ceil())
    }
}

impl RefusalGroup<'_> {
    /// Which Flink component the rejected pods are (TaskManager pods carry `-taskmanager-`).
    fn component(&self) -> &'static str {
        if self.pods.iter().any(|p| p.contains("-taskmanager-")) {
            "taskManager"
        } else {
            "jobManager"
        }
    }

    fn finding(self, snapshot: &Snapshot, _index: &Index) -> Finding {
        let ns = self.ns.as_str();
        let spec_key = self.component();
        let who = if spec_key == "taskManager" {
            "TaskManager"
        } else {
            "JobManager"
        };
        let (object, title) = match &self.rejection.what {
            Refused::Exceeded {
                quota, requested, ..
            } => (
                ObjectRef::namespaced("ResourceQuota", ns, quota),
                format!(
                    "ResourceQuota `{quota}` rejects new {who} pods ({} would exceed it)",
                    requested
                        .iter()
                        .map(|(k, _)| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            Refused::MustSpecify { quota, what } => (
                ObjectRef::namespaced("ResourceQuota", ns, quota),
                format!(
                    "ResourceQuota `{quota}` rejects {who} pods whose containers do not set {what}"
                ),
            ),
            Refused::LimitRange { text } => (
                match self.fd {
                    Some(d) => deployment_ref(d),
                    None => ObjectRef::namespaced("Namespace", ns, ns).clone(),
                },
                format!("a LimitRange rejects new {who} pods: {text}"),
            ),
        };
        let mut f = Finding::new(&META, object, title).deployment(self.fd.map(deployment_ref));
        for e in &self.evidence {
            f = f.evidence(e.clone());
        }
        if !self.pods.is_empty() {
            f = f.evidence(format!("pods refused: {}", self.pods.join(", ")));
        }
        // The refusals are history once a pod of that component runs and the operator reports
        // the deployment up (the quota was raised, or another pod went): what the heal of the
        // lab's quota scenario left, the JobManager's log still quoting the refusals.
        if let Some(up) = self.created_since(snapshot, who) {
            return refused_earlier(
                f,
                &format!("a {who} pod runs now"),
                up,
                format!(
                    "Nothing to change: the {who} pod the quota refused was created since, and the deployment is up."
                ),
                no_new_failed_create(ns),
            );
        }
        // A LimitRange's memory maximum per container or per pod: an earlier spec's refusal once
        // the component is within it; else a fix sized from the maximum for every component over
        // it (limitrange.rs).
        if let (Refused::LimitRange { text }, Some(fd)) = (&self.rejection.what, self.fd) {
            if let Some((scope, max)) = limitrange::memory_max(text) {
                if let Some(now) = limitrange::within(snapshot, fd, ns, spec_key, scope, max) {
                    return refused_earlier(
                        f,
                        &now,
                        now.clone(),
                        format!(
                            "Nothing to change: the {who} the LimitRange refused was made smaller since; its next pod is within the maximum."
                        ),
                        no_new_failed_create(ns),
                    );
                }
                let (fix, evidence) = limitrange::fix(snapshot, fd, ns, scope, max);
                for e in evidence {
                    f = f.evidence(e);
                }
                return f.fix(fix).verify(format!(
                    "{}\n\
                     kubectl get pods -n {ns} -l {}   # expect the JobManager and TaskManager pods",
                    no_new_failed_create(ns),
                    crate::shell::sh(
                        &crate::flink::mode::Mode::Operator.selector(Some(fd.name()), None)
                    )
                ));
            }
        }
        if let Refused::Exceeded {
            quota,
            requested,
            used,
            ..
        } = &self.rejection.what
        {
            let q = snapshot.resource_quotas.iter().find(|q| {
                q.metadata.namespace.as_deref() == Some(ns)
                    && q.metadata.name.as_deref() == Some(quota.as_str())
            });
            if let Some(room) = q.and_then(|q| room_now(q, requested, used)) {
                return self.awaiting_retry(f, ns, quota, who, &room);
            }
        }
        let lower = |name: &str| self.lower_flink(ns, spec_key, name);
        let fix = match &self.rejection.what {
            Refused::Exceeded { quota, requested, used, limited } => {
                let mut hard = Vec::new();
                let mut lines = Vec::new();
                for (k, req) in requested {
                    let u = used.iter().find(|(x, _)| x == k).and_then(|(_, v)| parse_quantity(v));
                    let l = limited.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str()).unwrap_or("?");
                    if let (Some(r), Some(u)) = (parse_quantity(req), u) {
                        let need = format_for(k, r + u);
                        lines.push(format!("{k}: used {} + requested {req} = {need} > hard {l}", format_for(k, u)));
                        hard.push(format!(
                            "{}:{}",
                            serde_json::Value::from(k.as_str()),
                            serde_json::Value::from(need.as_str())
                        ));
                    }
                }
                // The quota and its resources are read from the event's message: free text, the
                // quota one shell word, the patch JSON-escaped and quoted as one.
                let q = crate::shell::sh(quota);
                let raise = if hard.is_empty() {
                    format!("kubectl edit resourcequota {q} -n {ns}")
                } else {
                    format!(
                        "kubectl patch resourcequota {q} -n {ns} --type=merge -p {}",
                        crate::shell::quote(&format!("{{\"spec\":{{\"hard\":{{{}}}}}}}", hard.join(",")))
                    )
                };
                // A quota on the number of pods is not met by smaller pods, only by fewer.
                let counts_only = requested
                    .iter()
                    .all(|(k, _)| k == "pods" || k.starts_with("count/"));
                let less = if counts_only {
                    self.fewer_pods(spec_key)
                } else {
                    format!("make Flink ask for less: {}", lower(quota))
                };
                format!(
                    "The namespace's quota has no room for another {who} pod ({}). Raise the quota to at least what \
                     the pod needs:\n\n  {raise}\n\nor {less}",
                    lines.join("; "),
                )
            }
            Refused::MustSpecify { quota, what } => {
                let (names, path) = self.unsized_containers(what, spec_key);
                let entries: String = names
                    .iter()
                    .map(|n| {
                        format!(
                            "\n{pad}- name: {n}\n{pad}  resources:\n{pad}    requests: {{cpu: 100m, memory: 128Mi}}\n{pad}    limits: {{cpu: 100m, memory: 128Mi}}",
                            pad = "  ".repeat(path.len() + 1)
                        )
                    })
                    .collect();
                let mut yaml = String::from("spec:");
                for (depth, key) in path.iter().chain(&["containers"]).enumerate() {
                    yaml.push_str(&format!("\n{}{key}:", "  ".repeat(depth + 1)));
                }
                format!(
                    "ResourceQuota {quota} covers {what}, so every container must set them. Flink sets requests and limits \
                     on its main container; give the other containers of the pod template ({}) their own, in \
                     spec.{}.containers (the sizes are a start: size them for what they do):\n\n{yaml}{entries}",
                    names.join(", "),
                    path.iter().filter(|k| **k != "spec").copied().collect::<Vec<_>>().join(".") + ".spec",
                )
            }
            Refused::LimitRange { text } => format!(
                "A LimitRange of namespace {ns} bounds each pod: {text}. Size the {who} within it: {}\n\n\
                 or change the LimitRange (kubectl get limitrange -n {ns} -o yaml).",
                lower("the LimitRange")
            ),
        };
        let verify = match &self.rejection.what {
            Refused::Exceeded { quota, .. } | Refused::MustSpecify { quota, .. } => format!(
                "kubectl get resourcequota {} -n {ns} -o jsonpath='used={{.status.used}} hard={{.status.hard}}{{\"\\n\"}}'; {}",
                crate::shell::sh(quota),
                no_new_failed_create(ns)
            ),
            Refused::LimitRange { .. } => no_new_failed_create(ns),
        };
        f.fix(fix).verify(verify)
    }

    /// `Some(evidence)` when a pod of the refused component, not one of those refused, runs now and
    /// the operator reports the FlinkDeployment READY and STABLE (its job RUNNING).
    fn created_since(&self, snapshot: &Snapshot, who: &str) -> Option<String> {
        created_since(snapshot, &self.ns, self.fd?, who, &self.pods)
    }

    /// The quota has room for the refused pod now: info, with what still has to happen.
    fn awaiting_retry(&self, f: Finding, ns: &str, quota: &str, who: &str, room: &Room) -> Finding {
        let creator = if who == "TaskManager" {
            "the JobManager (it requests the TaskManager pod again)"
        } else {
            "the ReplicaSet controller (it retries with a back-off)"
        };
        let mut f = f.severity(Severity::Info);
        for line in &room.lines {
            f = f.evidence(format!("ResourceQuota {quota} now: {line}"));
        }
        let (title, fix) = if room.admitted {
            (
                format!(
                    "{}: the quota has room for the pod now, waiting for {who} pod creation to be retried",
                    f.title
                ),
                format!(
                    "Nothing more to change: ResourceQuota {quota} has room for the refused {who} pod now ({}).\n\
                     {creator} creates it again; the quota's admission then lets it in.",
                    room.lines.join("; ")
                ),
            )
        } else {
            (
                format!(
                    "{}: raised in ResourceQuota {quota}'s spec.hard, waiting for the quota controller to apply it",
                    f.title
                ),
                format!(
                    "Nothing more to change: ResourceQuota {quota} allows the refused {who} pod in spec.hard now ({}).\n\
                     Admission checks status.hard, which the quota controller (kube-controller-manager) sets from\n\
                     spec.hard when it syncs the quota; then {creator} creates the pod again. Watch it:\n\n  \
                     kubectl get resourcequota {quota} -n {ns} -o jsonpath='{{.status.hard}}{{\"\\n\"}}'",
                    room.lines.join("; ")
                ),
            )
        };
        f.title = title;
        f.fix(fix).verify(format!(
            "kubectl get events -n {ns} --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate for {}",
            crate::shell::escape_controls(quota)
        ))
    }

    /// The containers the quota wants sized: named by the API server (`must specify limits.cpu
    /// for: log-shipper; limits.memory for: log-shipper`, kubernetes@v1.30.0:plugin/pkg/admission/
    /// resourcequota/controller.go), else those of the FlinkDeployment's pod templates without
    /// resources; and the path of the pod template that holds them.
    fn unsized_containers(&self, what: &str, spec_key: &str) -> (Vec<String>, Vec<&'static str>) {
        let mut names: Vec<String> = Vec::new();
        for part in what.split(';') {
            if let Some((_, list)) = part.split_once("for:") {
                for n in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    if !names.iter().any(|x| x == n) {
                        names.push(n.to_string());
                    }
                }
            }
        }
        let own = self.fd.and_then(|d| {
            if spec_key == "taskManager" {
                d.spec.task_manager.as_ref()?.pod_template.as_ref()
            } else {
                d.spec.job_manager.as_ref()?.pod_template.as_ref()
            }
        });
        let shared = self.fd.and_then(|d| d.spec.pod_template.as_ref());
        let holds = |t: Option<&crate::snapshot::flink::PodTemplate>, n: &str| {
            t.and_then(|t| t.spec.as_ref()).is_some_and(|s| {
                s.containers
                    .iter()
                    .chain(&s.init_containers)
                    .any(|c| c.name == n)
            })
        };
        if names.is_empty() {
            for t in [own, shared].into_iter().flatten() {
                for c in t
                    .spec
                    .iter()
                    .flat_map(|s| s.containers.iter().chain(&s.init_containers))
                {
                    if c.name != crate::flink::names::MAIN_CONTAINER
                        && c.resources.as_ref().is_none_or(|r| r.limits.is_none())
                        && !names.contains(&c.name)
                    {
                        names.push(c.name.clone());
                    }
                }
            }
        }
        if names.is_empty() {
            names.push("<the container without resources>".into());
        }
        let path: Vec<&'static str> =
            if names.iter().any(|n| holds(own, n)) && !names.iter().any(|n| holds(shared, n)) {
                vec![
                    spec_key_static(spec_key),
                    "podTemplate",
                    "spec",
                    "containers",
                ]
            } else {
                vec!["podTemplate", "spec", "containers"]
            };
        (names, path[..path.len() - 1].to_vec())
    }

    /// What else meets a quota on the number of pods: fewer TaskManagers (a JobManager is one pod
    /// whatever its size), or room made by other pods of the namespace.
    fn fewer_pods(&self, spec_key: &str) -> String {
        if spec_key == "taskManager" && self.fd.is_some() {
            "run fewer TaskManagers: a lower spec.job.parallelism, or more taskmanager.numberOfTaskSlots per TaskManager (smaller pods do not help a quota on the number of pods)".to_string()
        } else {
            "make room: delete pods of the namespace that need not run (smaller pods do not help a quota on the number of pods)".to_string()
        }
    }

    fn lower_flink(&self, ns: &str, spec_key: &str, _limit: &str) -> String {
        let Some(d) = self.fd else {
            return "lower the pods' requests and limits.".to_string();
        };
        let comp = if spec_key == "taskManager" {
            &d.spec.task_manager
        } else {
            &d.spec.job_manager
        };
        let mem = comp
            .as_ref()
            .and_then(|c| c.resource.as_ref())
            .and_then(|r| r.memory.clone());
        let smaller = mem
            .as_deref()
            .and_then(parse_resource_memory)
            .map(|b| format!("{}m", (b * 0.75 / 1048576.0).floor()))
            .unwrap_or_else(|| "1024m".to_string());
        let extra = if spec_key == "taskManager" {
            " (or fewer TaskManagers: a lower spec.job.parallelism, more taskmanager.numberOfTaskSlots per TaskManager)"
        } else {
            ""
        };
        format!(
            "spec.{spec_key}.resource.memory is {} now{extra}:\n\n  \
             kubectl patch flinkdeployment {} -n {ns} --type=merge -p '{{\"spec\":{{\"{spec_key}\":{{\"resource\":{{\"memory\":\"{smaller}\"}}}}}}}}'",
            mem.unwrap_or_else(|| "unset".into()),
            d.name()
        )
    }
}

/// Whether a refused request fits the ResourceQuota as it is now.
#[derive(Debug, Clone, PartialEq)]
struct Room {
    /// `status.hard` has room too: admission, which checks `status.hard` and `status.used`,
    /// lets the pod in now. Otherwise only `spec.hard` does, and the quota controller has yet to
    /// copy it into `status.hard`.
    admitted: bool,
    /// `limits.memory: used 3Gi + requested 2Gi = 5Gi <= hard 5Gi`, one per refused resource.
    lines: Vec<String>,
}

/// The refused request against the quota now. Quota admission refuses when `status.used` plus
/// the request exceeds `status.hard` for a resource, and names exactly those resources
/// (`exceeded quota: NAME, requested: ..., used: ..., limited: ...`: kubernetes/apiserver@
/// kubernetes-1.36.3:pkg/admission/plugin/resourcequota/controller.go, `CheckRequest`); the quota
/// controller sets `status.hard` from `spec.hard` whenever they differ (kubernetes/kubernetes@
/// master:pkg/controller/resourcequota/resource_quota_controller.go, `syncResourceQuota`). So the
/// refusal is over when every refused resource fits `spec.hard` (and `status.hard`, for the pod
/// to be admitted at once), with the usage the quota records now, or the refusal's own when it
/// records none. `None` while any refused resource does not fit, or cannot be told.
fn room_now(
    q: &ResourceQuota,
    requested: &[(String, String)],
    used: &[(String, String)],
) -> Option<Room> {
    let spec_hard = q.spec.as_ref()?.hard.as_ref()?;
    let status = q.status.as_ref();
    let get = |m: Option<&std::collections::BTreeMap<String, Quantity>>, k: &str| {
        m.and_then(|m| m.get(k)).and_then(|v| parse_quantity(&v.0))
    };
    let fits = |need: f64, hard: f64| need <= hard * (1.0 + 1e-9);
    let mut admitted = true;
    let mut lines = Vec::new();
    for (k, req) in requested {
        let r = parse_quantity(req)?;
        let u = get(status.and_then(|s| s.used.as_ref()), k).or_else(|| {
            used.iter()
                .find(|(x, _)| x == k)
                .and_then(|(_, v)| parse_quantity(v))
        })?;
        let hard = get(Some(spec_hard), k)?;
        if !fits(u + r, hard) {
            return None;
        }
        admitted &= get(status.and_then(|s| s.hard.as_ref()), k).is_some_and(|h| fits(u + r, h));
        lines.push(format!(
            "{k}: used {} + requested {req} = {} <= hard {}",
            format_for(k, u),
            format_for(k, u + r),
            format_for(k, hard)
        ));
    }
    (!lines.is_empty()).then_some(Room { admitted, lines })
}

fn spec_key_static(spec_key: &str) -> &'static str {
    if spec_key == "taskManager" {
        "taskManager"
    } else {
        "jobManager"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};

    const QUOTA: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: team-a}
spec:
  image: flink:1.20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
status: {jobManagerDeploymentStatus: DEPLOYING, lifecycleState: DEPLOYED}
---
apiVersion: v1
kind: Event
metadata: {name: orders-7d9f8c6b5.1, namespace: team-a}
involvedObject: {apiVersion: apps/v1, kind: ReplicaSet, namespace: team-a, name: orders-7d9f8c6b5}
reason: FailedCreate
type: Warning
count: 14
lastTimestamp: "2026-11-28T10:00:00Z"
message: 'Error creating: pods "orders-7d9f8c6b5-xk2lp" is forbidden: exceeded quota: compute-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=4,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi'
"#;

    #[test]
    fn fires_with_the_quota_numbers_and_a_patch_that_makes_room() {
        let f = run(&ResourceQuotaExceeded, &snapshot(QUOTA));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::ResourceQuotaExceeded);
        assert_eq!(
            f.object,
            ObjectRef::namespaced("ResourceQuota", "team-a", "compute-quota")
        );
        assert_eq!(
            f.deployment,
            Some(ObjectRef::namespaced("FlinkDeployment", "team-a", "orders"))
        );
        assert!(
            f.title.contains(
                "rejects new JobManager pods (limits.cpu, limits.memory would exceed it)"
            ),
            "{}",
            f.title
        );
        assert!(
            f.evidence[0].starts_with("event Warning FailedCreate x14"),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .contains(&"pods refused: orders-7d9f8c6b5-xk2lp".to_string()));
        assert!(
            f.fix
                .contains("limits.memory: used 7Gi + requested 2Gi = 9Gi > hard 8Gi"),
            "{}",
            f.fix
        );
        assert!(
            f.fix.contains(
                "'{\"spec\":{\"hard\":{\"limits.cpu\":\"5\",\"limits.memory\":\"9Gi\"}}}'"
            ),
            "{}",
            f.fix
        );
        assert!(
            f.fix
                .contains("\"jobManager\":{\"resource\":{\"memory\":\"1536m\"}}"),
            "{}",
            f.fix
        );
        assert!(f
            .verify
            .contains("kubectl get resourcequota compute-quota -n team-a"));
    }

    /// QUOTA with its ResourceQuota as it is now: `spec.hard`, `status.hard` and `status.used`.
    fn with_quota(spec_hard: &str, status_hard: &str, used: &str) -> Snapshot {
        snapshot(&format!(
            "{QUOTA}---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {{name: compute-quota, namespace: team-a}}\n\
             spec: {{hard: {spec_hard}}}\nstatus: {{hard: {status_hard}, used: {used}}}\n"
        ))
    }

    #[test]
    fn a_quota_raised_since_the_refusal_is_waiting_for_the_retry() {
        let used = "{limits.cpu: '4', limits.memory: 7Gi}";
        let raised = "{limits.cpu: '5', limits.memory: 9Gi}";
        let f = run(&ResourceQuotaExceeded, &with_quota(raised, raised, used));
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.severity, Severity::Info);
        assert!(
            f.title.ends_with(
                "the quota has room for the pod now, waiting for JobManager pod creation to be retried"
            ),
            "{}",
            f.title
        );
        assert!(
            f.evidence.contains(
                &"ResourceQuota compute-quota now: limits.memory: used 7Gi + requested 2Gi = 9Gi <= hard 9Gi"
                    .to_string()
            ),
            "{:?}",
            f.evidence
        );
        assert!(f.fix.contains("the ReplicaSet controller"), "{}", f.fix);
        assert!(
            crate::finding::Remedy::from_fix(&f.fix).is_empty(),
            "{}",
            f.fix
        );

        // Raised in spec.hard only: admission reads status.hard, which the controller sets.
        let f = &run(
            &ResourceQuotaExceeded,
            &with_quota(raised, "{limits.cpu: '4', limits.memory: 8Gi}", used),
        )[0];
        assert_eq!(f.severity, Severity::Info);
        assert!(
            f.title
                .contains("raised in ResourceQuota compute-quota's spec.hard"),
            "{}",
            f.title
        );
        assert!(f.fix.contains("jsonpath='{.status.hard}"), "{}", f.fix);

        // Room because the usage went down (another pod deleted) counts the same.
        let f = &run(
            &ResourceQuotaExceeded,
            &with_quota(
                "{limits.cpu: '8', limits.memory: 8Gi}",
                "{limits.cpu: '8', limits.memory: 8Gi}",
                "{limits.cpu: '2', limits.memory: 5Gi}",
            ),
        )[0];
        assert_eq!(f.severity, Severity::Info, "{}", f.title);
    }

    #[test]
    fn a_quota_without_room_for_every_refused_resource_still_refuses() {
        let used = "{limits.cpu: '4', limits.memory: 7Gi}";
        // As refused: 7Gi + 2Gi > 8Gi.
        let same = "{limits.cpu: '4', limits.memory: 8Gi}";
        let f = &run(&ResourceQuotaExceeded, &with_quota(same, same, used))[0];
        assert_eq!(f.severity, Severity::Critical);
        assert!(f.fix.contains("kubectl patch resourcequota compute-quota"));
        // Memory raised, cpu not: the pod is still refused.
        let half = "{limits.cpu: '4', limits.memory: 9Gi}";
        let f = &run(&ResourceQuotaExceeded, &with_quota(half, half, used))[0];
        assert_eq!(f.severity, Severity::Critical);
        // Raised, but the usage grew meanwhile.
        let raised = "{limits.cpu: '5', limits.memory: 9Gi}";
        let f = &run(
            &ResourceQuotaExceeded,
            &with_quota(raised, raised, "{limits.cpu: '4', limits.memory: 8Gi}"),
        )[0];
        assert_eq!(f.severity, Severity::Critical);
        // A quota that no longer limits the resource at all is not read as room: the spec may
        // be partial.
        let f = &run(
            &ResourceQuotaExceeded,
            &with_quota("{pods: '10'}", "{pods: '10'}", "{pods: '1'}"),
        )[0];
        assert_eq!(f.severity, Severity::Critical);
    }

    /// QUOTA's objects without its events, the JobManager having logged LOG.
    fn with_jobmanager_log(log: &str) -> Snapshot {
        let y = QUOTA
            .split("---\napiVersion: v1\nkind: Event")
            .next()
            .unwrap();
        with_log(
            snapshot(y),
            "team-a",
            "orders-6c5d-abc12",
            "flink-main-container",
            false,
            log,
        )
    }

    #[test]
    fn taskmanager_rejections_come_from_the_jobmanager_log() {
        let log = "2026-11-28 10:01:00,000 WARN  KubernetesResourceManagerDriver [] - Could not create pod orders-taskmanager-1-3, exception: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: POST at: https://10.96.0.1/api/v1/namespaces/team-a/pods. Message: pods \"orders-taskmanager-1-3\" is forbidden: exceeded quota: compute-quota, requested: limits.memory=2Gi, used: limits.memory=8Gi, limited: limits.memory=8Gi. Received status: Status(apiVersion=v1, code=403)\n";
        let f = run(&ResourceQuotaExceeded, &with_jobmanager_log(log));
        assert_eq!(f.len(), 1);
        assert!(f[0].title.contains("TaskManager pods"), "{}", f[0].title);
        assert!(
            f[0].fix.contains("\"limits.memory\":\"10Gi\""),
            "{}",
            f[0].fix
        );
        assert!(f[0].fix.contains("\"taskManager\":{\"resource\""));
        assert!(f[0].evidence[0].starts_with("JobManager orders-6c5d-abc12 log line 1:"));
    }

    /// A quota on the number of pods (the lab, `pods: 1`): fewer pods meet it, smaller ones do
    /// not, so the fix never offers a smaller TaskManager.
    #[test]
    fn a_quota_on_the_number_of_pods_is_met_by_fewer_taskmanagers_not_smaller_ones() {
        let log = "2026-12-06 04:37:00,000 WARN  KubernetesResourceManagerDriver [] - Could not create pod orders-taskmanager-1-1, exception: ... Message: pods \"orders-taskmanager-1-1\" is forbidden: exceeded quota: pod-count, requested: pods=1, used: pods=1, limited: pods=1. Received status: Status(apiVersion=v1, code=403)\n";
        let f = run(&ResourceQuotaExceeded, &with_jobmanager_log(log));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].fix.contains(r#"'{"spec":{"hard":{"pods":"2"}}}'"#),
            "{}",
            f[0].fix
        );
        assert!(f[0].fix.contains("run fewer TaskManagers"), "{}", f[0].fix);
        assert!(!f[0].fix.contains("resource.memory"), "{}", f[0].fix);
    }

    #[test]
    fn limit_ranges_and_must_specify() {
        let lr = QUOTA.replace(
            "exceeded quota: compute-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=4,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi",
            "maximum memory usage per Container is 1Gi, but limit is 2Gi",
        );
        let f = &run(&ResourceQuotaExceeded, &snapshot(&lr))[0];
        assert!(f.title.contains("a LimitRange rejects new JobManager pods: maximum memory usage per Container is 1Gi, but limit is 2Gi"), "{}", f.title);
        let ms = QUOTA.replace(
            "exceeded quota: compute-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=4,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi",
            "failed quota: compute-quota: must specify limits.cpu for: log-shipper; limits.memory for: log-shipper",
        );
        let f = &run(&ResourceQuotaExceeded, &snapshot(&ms))[0];
        assert!(f.title.contains("do not set limits.cpu for"), "{}", f.title);
        assert!(f.fix.contains("requests: {cpu: 100m, memory: 128Mi}"));
        // The container the API server named, not a SIDECAR to rename.
        assert!(!f.fix.contains("SIDECAR"), "{}", f.fix);
        assert!(
            f.fix.contains("spec:\n  podTemplate:\n    spec:\n      containers:\n      - name: log-shipper\n        resources:"),
            "{}",
            f.fix
        );
    }

    #[test]
    fn a_per_pod_limitrange_maximum_is_sized_like_a_per_container_one() {
        // LimitRanger's words for an item of `type: Pod` (maxConstraint, admission.go).
        let lr = QUOTA.replace(
            "exceeded quota: compute-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=4,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi",
            "maximum memory usage per Pod is 1800Mi, but limit is 2Gi",
        ) + "---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: per-pod, namespace: team-a}\nspec:\n  limits:\n  - {type: Pod, max: {memory: 1800Mi}}\n";
        let f = &run(&ResourceQuotaExceeded, &snapshot(&lr))[0];
        assert!(f.title.contains("a LimitRange rejects new JobManager pods: maximum memory usage per Pod is 1800Mi, but limit is 2Gi"), "{}", f.title);
        assert_eq!(
            crate::finding::Remedy::from_fix(&f.fix).run,
            [
                r#"kubectl patch flinkdeployment orders -n team-a --type=merge -p '{"spec":{"jobManager":{"resource":{"memory":"1800m"}},"taskManager":{"resource":{"memory":"1800m"}}}}'"#
            ],
            "{}",
            f.fix
        );
        assert!(
            f.evidence.iter().any(|e| e == "spec.taskManager.resource.memory 2048m: a TaskManager pod limit of 2Gi (Flink's container 2Gi with limit-factor 1), over the LimitRange maximum 1800Mi per pod"),
            "{:?}",
            f.evidence
        );
        // Too small for a TaskManager: the LimitRange's Pod item is raised, at its index.
        let small = lr.replace("1800Mi", "900Mi");
        let f = &run(&ResourceQuotaExceeded, &snapshot(&small))[0];
        assert_eq!(
            crate::finding::Remedy::from_fix(&f.fix).run,
            [
                r#"kubectl patch limitrange per-pod -n team-a --type=json -p '[{"op":"replace","path":"/spec/limits/0/max/memory","value":"2Gi"}]'"#
            ],
            "{}",
            f.fix
        );
    }

    #[test]
    fn silent_on_healthy_and_other_failed_creates() {
        assert!(run(&ResourceQuotaExceeded, &snapshot(HEALTHY)).is_empty());
        let other = QUOTA.replace(
            "exceeded quota: compute-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=4,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi",
            "error looking up service account team-a/flink: serviceaccount \"flink\" not found",
        );
        assert!(run(&ResourceQuotaExceeded, &snapshot(&other)).is_empty());
    }

    #[test]
    fn refusals_are_history_once_a_pod_of_that_component_runs_and_the_deployment_is_up() {
        // Recorded by the reality lab (operator 1.7.0, Flink 1.18.1): the quota refuses every
        // TaskManager; then, as its heal left it, the quota raised, a TaskManager Running and the
        // deployment READY / STABLE / RUNNING, the JobManager's log still quoting the refusals.
        let mut s = crate::snapshot::bundle::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/scenarios/real-quota"
        )))
        .unwrap();
        let f = run(&ResourceQuotaExceeded, &s);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Critical);
        let mut tm = s.pods[0].clone();
        let labels = tm.metadata.labels.get_or_insert_with(Default::default);
        labels.insert("component".into(), "taskmanager".into());
        tm.metadata.name = Some("orders-taskmanager-1-89".into());
        tm.status.get_or_insert_with(Default::default).phase = Some("Running".into());
        s.pods.push(tm);
        // A TaskManager runs, but the operator has not reported the deployment up: still critical.
        assert_eq!(
            run(&ResourceQuotaExceeded, &s)[0].severity,
            Severity::Critical
        );
        let st = s.flink_deployments[0]
            .status
            .get_or_insert_with(Default::default);
        st.job_manager_deployment_status = Some("READY".into());
        st.lifecycle_state = Some("STABLE".into());
        st.job_status.get_or_insert_with(Default::default).state = Some("RUNNING".into());
        let f = run(&ResourceQuotaExceeded, &s);
        assert_eq!(f[0].severity, Severity::Info, "{:?}", f[0]);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.starts_with("TaskManager pod orders-taskmanager-1-89 is Running")),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&ResourceQuotaExceeded, &scenario("resource-quota-exceeded"));
        assert_eq!(f.len(), 1, "events of the ReplicaSet, the CR and the Deployment's condition are one finding: {f:?}");
        assert!(
            f[0].fix.contains("\"limits.memory\":\"5Gi\""),
            "{}",
            f[0].fix
        );
        for name in HEALTHY_SCENARIOS {
            assert!(
                run(&ResourceQuotaExceeded, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

//! Pods the API server refused to create, for a ResourceQuota or a LimitRange: where the
//! refusals are read and what they say, once for FLK108 (which explains them) and for a live
//! gather (which reads the quotas they name, whether one has room now).
//!
//! A refused pod never exists, so the refusal is read where its creator reports it: the
//! controllers' `FailedCreate` events (ReplicaSet, Deployment, StatefulSet, Job; the operator's on
//! the CR), a Deployment's `ReplicaFailure` condition, and, for TaskManagers the JobManager creates
//! itself, its log line `Could not create pod <name>, exception: ... is forbidden: ...`. The
//! messages are quota admission's (`exceeded quota: NAME, requested: ...`, `failed quota: NAME:
//! must specify ...`: kubernetes/apiserver@kubernetes-1.36.3:pkg/admission/plugin/resourcequota/
//! controller.go) and LimitRanger's.

use super::{LogKey, Snapshot};
use k8s_openapi::api::apps::v1::{Deployment, DeploymentCondition};
use k8s_openapi::api::core::v1::Event;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Where a refusal was read.
#[derive(Debug, Clone, Copy)]
pub enum Where<'a> {
    /// A `FailedCreate` event.
    Event(&'a Event),
    /// A Deployment's `ReplicaFailure` condition, `True`.
    Condition {
        deployment: &'a Deployment,
        condition: &'a DeploymentCondition,
    },
    /// A `Could not create pod` line of a container's log, `line` counted from 1.
    Log { key: &'a LogKey, line: usize },
}

/// One refusal: in which namespace, where it was read, the message, and what it says.
#[derive(Debug, Clone)]
pub struct PodRefusal<'a> {
    pub namespace: &'a str,
    pub source: Where<'a>,
    pub message: &'a str,
    pub rejection: Rejection,
}

/// Every refusal in the snapshot: events first, then Deployment conditions, then log lines.
pub fn refusals(s: &Snapshot) -> Vec<PodRefusal<'_>> {
    scan(s, Rejection::parse)
        .into_iter()
        .map(|(namespace, source, message, rejection)| PodRefusal {
            namespace,
            source,
            message,
            rejection,
        })
        .collect()
}

/// Every message of pod creation refused, where it was read, with what `parse` reads in it:
/// the controllers' `FailedCreate` events, the Deployments' `ReplicaFailure` conditions and
/// the JobManager's `Could not create pod` log lines.
fn scan<'a, R>(
    s: &'a Snapshot,
    parse: fn(&str) -> Option<R>,
) -> Vec<(&'a str, Where<'a>, &'a str, R)> {
    let mut out = Vec::new();
    for e in &s.events {
        if e.reason.as_deref() != Some("FailedCreate") {
            continue;
        }
        let Some(message) = e.message.as_deref() else {
            continue;
        };
        let Some(what) = parse(message) else {
            continue;
        };
        let namespace = e
            .involved_object
            .namespace
            .as_deref()
            .or(e.metadata.namespace.as_deref())
            .unwrap_or("default");
        out.push((namespace, Where::Event(e), message, what));
    }
    for d in &s.deployments {
        let namespace = d.metadata.namespace.as_deref().unwrap_or("default");
        for c in d.status.iter().flat_map(|s| s.conditions.iter().flatten()) {
            if c.type_.as_deref() != Some("ReplicaFailure") || c.status.as_deref() != Some("True") {
                continue;
            }
            let Some(message) = c.message.as_deref() else {
                continue;
            };
            let Some(what) = parse(message) else {
                continue;
            };
            let source = Where::Condition {
                deployment: d,
                condition: c,
            };
            out.push((namespace, source, message, what));
        }
    }
    for (key, text) in &s.logs {
        for (i, message) in text.lines().enumerate() {
            if !message.contains("Could not create pod") {
                continue;
            }
            let Some(what) = parse(message) else {
                continue;
            };
            let source = Where::Log { key, line: i + 1 };
            out.push((key.namespace.as_str(), source, message, what));
        }
    }
    out
}

/// A pod refused by the admission plugins that check who it runs as, how, and what it names: the
/// ServiceAccount admission plugin, Pod Security admission, and the Priority and RuntimeClass
/// plugins.
#[derive(Debug, Clone)]
pub struct PodDenial<'a> {
    pub namespace: &'a str,
    pub source: Where<'a>,
    pub message: &'a str,
    pub denial: Denial,
}

/// Every such refusal in the snapshot, in the order of [`refusals`].
pub fn denials(s: &Snapshot) -> Vec<PodDenial<'_>> {
    scan(s, Denial::parse)
        .into_iter()
        .map(|(namespace, source, message, denial)| PodDenial {
            namespace,
            source,
            message,
            denial,
        })
        .collect()
}

/// What the ServiceAccount, Pod Security, Priority or RuntimeClass admission said.
#[derive(Debug, Clone, PartialEq)]
pub struct Denial {
    /// The pod the controller tried to create.
    pub pod: Option<String>,
    pub what: Denied,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Denied {
    /// `error looking up service account NS/NAME: serviceaccount "NAME" not found`: the
    /// ServiceAccount admission plugin, kubernetes/kubernetes@v1.24.0 and @v1.36.3:
    /// plugin/pkg/admission/serviceaccount/admission.go (`Admit`; the NotFound is
    /// `getServiceAccount`'s `errors.NewNotFound(api.Resource("serviceaccount"), name)`).
    ServiceAccountMissing { namespace: String, name: String },
    /// `violates PodSecurity "restricted:latest": REASON (DETAIL), REASON (DETAIL)`: Pod
    /// Security admission, kubernetes/pod-security-admission@v0.24.0 and @v0.36.3:
    /// admission/admission.go (`EvaluatePod`) and policy/checks.go (`ForbiddenDetail`).
    PodSecurity {
        policy: String,
        violations: Vec<Violation>,
    },
    /// A cluster-scoped class the pod names does not exist: `no PriorityClass with name NAME was
    /// found` (the Priority plugin, kubernetes/kubernetes@v1.24.0 and @v1.36.3:
    /// plugin/pkg/admission/priority/admission.go, `admitPod`; releases before 1.12 began it with
    /// `No`), `pod rejected: RuntimeClass "NAME" not found` (the RuntimeClass plugin, same tags:
    /// plugin/pkg/admission/runtimeclass/admission.go, `prepareObjects`).
    ClassMissing { kind: ClassKind, name: String },
}

/// The cluster-scoped classes a pod names by `spec.priorityClassName` and `spec.runtimeClassName`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    Priority,
    Runtime,
}

impl ClassKind {
    /// The kind as the API names it: `PriorityClass`.
    pub fn kind(self) -> &'static str {
        match self {
            ClassKind::Priority => "PriorityClass",
            ClassKind::Runtime => "RuntimeClass",
        }
    }

    /// The pod spec's field that names it: `priorityClassName`.
    pub fn field(self) -> &'static str {
        match self {
            ClassKind::Priority => "priorityClassName",
            ClassKind::Runtime => "runtimeClassName",
        }
    }
}

/// One check Pod Security admission failed: its reason and its detail, as written
/// (`allowPrivilegeEscalation != false`, `container "c" must set
/// securityContext.allowPrivilegeEscalation=false`).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub reason: String,
    pub detail: String,
}

fn denial_regexes() -> &'static [Regex; 4] {
    static R: OnceLock<[Regex; 4]> = OnceLock::new();
    R.get_or_init(|| {
        [
            Regex::new(r#"error looking up service account (?P<ns>[a-z0-9.-]+)/(?P<name>[a-z0-9.-]+): serviceaccount "[^"]*" not found"#)
                .expect("service account regex"),
            Regex::new(r#"violates PodSecurity "(?P<policy>[^"]+)": (?P<rest>.+)"#)
                .expect("pod security regex"),
            Regex::new(r"\b[Nn]o PriorityClass with name (?P<name>[a-z0-9][a-z0-9.-]*[a-z0-9]|[a-z0-9]) was found")
                .expect("priority class regex"),
            Regex::new(r#"pod rejected: RuntimeClass "(?P<name>[^"]+)" not found"#)
                .expect("runtime class regex"),
        ]
    })
}

impl Denial {
    /// The denial in an API server message, if it is one of the two plugins'.
    pub fn parse(msg: &str) -> Option<Denial> {
        // A log line may carry the message JSON-escaped (`pods \"x\" is forbidden`).
        let msg = msg.replace("\\\"", "\"");
        let [sa, pss, priority, runtime] = denial_regexes();
        let pod = regexes()[3].captures(&msg).map(|c| c["pod"].to_string());
        let what = if let Some(c) = sa.captures(&msg) {
            Denied::ServiceAccountMissing {
                namespace: c["ns"].to_string(),
                name: c["name"].to_string(),
            }
        } else if let Some(c) = pss.captures(&msg) {
            let violations = violations(&c["rest"]);
            if violations.is_empty() {
                return None;
            }
            Denied::PodSecurity {
                policy: c["policy"].to_string(),
                violations,
            }
        } else if let Some(c) = priority.captures(&msg) {
            Denied::ClassMissing {
                kind: ClassKind::Priority,
                name: c["name"].to_string(),
            }
        } else if let Some(c) = runtime.captures(&msg) {
            Denied::ClassMissing {
                kind: ClassKind::Runtime,
                name: c["name"].to_string(),
            }
        } else {
            return None;
        };
        Some(Denial { pod, what })
    }

    /// What tells denials apart.
    pub fn key(&self) -> String {
        match &self.what {
            Denied::ServiceAccountMissing { namespace, name } => {
                format!("serviceaccount:{namespace}/{name}")
            }
            Denied::PodSecurity { policy, violations } => format!(
                "podsecurity:{policy}:{}",
                violations
                    .iter()
                    .map(|v| format!("{} ({})", v.reason, v.detail))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Denied::ClassMissing { kind, name } => format!("{}:{name}", kind.kind()),
        }
    }
}

/// `REASON (DETAIL), REASON (DETAIL)` as Pod Security admission joins them; the detail may hold
/// commas (`containers "a", "b"`) and brackets, not parentheses. Stops at whatever follows the
/// last one (`. Received status: ...` in a log line).
fn violations(rest: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut t = rest;
    while let Some(open) = t.find(" (") {
        let reason = t[..open].trim();
        // A reason is a few words: anything longer is not a violation list.
        if reason.is_empty() || reason.len() > 60 || reason.contains(". ") {
            break;
        }
        let body = &t[open + 2..];
        let mut depth = 1;
        let mut end = None;
        for (i, ch) in body.char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            break;
        };
        out.push(Violation {
            reason: reason.to_string(),
            detail: body[..end].to_string(),
        });
        match body[end + 1..].strip_prefix(", ") {
            Some(next) => t = next,
            None => break,
        }
    }
    out
}

/// The FlinkDeployment whose objects these are: the longest FlinkDeployment name that one of the
/// names equals or starts with followed by `-` (`orders-5d8f9c7b6d`, `orders-taskmanager-1-3`).
pub fn flink_deployment_for<'a>(
    snapshot: &'a Snapshot,
    ns: &str,
    names: &[&str],
) -> Option<&'a super::FlinkDeployment> {
    snapshot
        .flink_deployments
        .iter()
        .filter(|d| d.namespace() == ns)
        .filter(|d| {
            names.iter().any(|n| {
                !n.is_empty() && (*n == d.name() || n.starts_with(&format!("{}-", d.name())))
            })
        })
        .max_by_key(|d| d.name().len())
}

/// The names a refusal read at `source` carries for its owner: the object the event is about
/// (a ReplicaSet, the FlinkDeployment), the Deployment, or the JobManager pod of the log.
pub fn owner_name<'a>(source: &Where<'a>) -> &'a str {
    match source {
        Where::Event(e) => e.involved_object.name.as_deref().unwrap_or(""),
        Where::Condition { deployment, .. } => deployment.metadata.name.as_deref().unwrap_or(""),
        Where::Log { key, .. } => key.pod.as_str(),
    }
}

/// The ResourceQuotas that refused a pod, as (namespace, name). A live gather reads exactly
/// these, by name.
pub fn refusing_quotas(s: &Snapshot) -> BTreeSet<(String, String)> {
    refusals(s)
        .iter()
        .filter_map(|r| Some((r.namespace.to_string(), r.rejection.quota()?.to_string())))
        .collect()
}

/// What the admission plugin said.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// The pod the controller tried to create.
    pub pod: Option<String>,
    pub what: Refused,
}

/// Which admission refused the pod, with what its message carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// `exceeded quota: NAME, requested: k=v,.., used: k=v,.., limited: k=v,..`
    Exceeded {
        quota: String,
        requested: Vec<(String, String)>,
        used: Vec<(String, String)>,
        limited: Vec<(String, String)>,
    },
    /// `failed quota: NAME: must specify limits.cpu,limits.memory`
    MustSpecify { quota: String, what: String },
    /// LimitRanger: `maximum memory usage per Container is 1Gi, but limit is 2Gi` and friends.
    LimitRange { text: String },
}

fn regexes() -> &'static [Regex; 4] {
    static R: OnceLock<[Regex; 4]> = OnceLock::new();
    R.get_or_init(|| {
        [
            Regex::new(r"exceeded quota: (?P<quota>[^,\s]+), requested: (?P<req>\S+), used: (?P<used>\S+), limited: (?P<lim>\S+)").expect("quota regex"),
            Regex::new(r"failed quota: (?P<quota>[^:\s]+): must specify (?P<what>[A-Za-z0-9.,/;: _-]+)").expect("failed quota regex"),
            Regex::new(r"(?P<text>(?:maximum|minimum) [a-z0-9./-]+ usage per (?:Container|Pod|PersistentVolumeClaim) is [^,\]]+, but (?:limit|request) is [^,\]\s]+|[a-z0-9./-]+ max limit to request ratio per (?:Container|Pod) is [^,\]]+, but provided ratio is [0-9.]+)").expect("limitrange regex"),
            Regex::new(r#"pods? \\?"(?P<pod>[a-z0-9][a-z0-9.-]*)\\?" is forbidden"#).expect("pod regex"),
        ]
    })
}

fn pairs(s: &str) -> Vec<(String, String)> {
    s.trim_end_matches(['.', '"', '\'', ')'])
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| {
            (
                k.trim().to_string(),
                v.trim().trim_end_matches(['.', '"']).to_string(),
            )
        })
        .collect()
}

impl Rejection {
    /// The refusal in an API server message, if it is one of quota admission's or LimitRanger's.
    pub fn parse(msg: &str) -> Option<Rejection> {
        let [exceeded, failed, limit, pod] = regexes();
        let pod = pod.captures(msg).map(|c| c["pod"].to_string());
        let what = if let Some(c) = exceeded.captures(msg) {
            Refused::Exceeded {
                quota: c["quota"].to_string(),
                requested: pairs(&c["req"]),
                used: pairs(&c["used"]),
                limited: pairs(&c["lim"]),
            }
        } else if let Some(c) = failed.captures(msg) {
            Refused::MustSpecify {
                quota: c["quota"].to_string(),
                what: c["what"].trim().trim_end_matches('.').to_string(),
            }
        } else if let Some(c) = limit.captures(msg) {
            Refused::LimitRange {
                text: c["text"].trim().to_string(),
            }
        } else {
            return None;
        };
        Some(Rejection { pod, what })
    }

    /// The ResourceQuota that refused the pod (none for a LimitRange).
    pub fn quota(&self) -> Option<&str> {
        match &self.what {
            Refused::Exceeded { quota, .. } | Refused::MustSpecify { quota, .. } => Some(quota),
            Refused::LimitRange { .. } => None,
        }
    }

    /// What tells refusals apart: the quota, or the LimitRange's words.
    pub fn key(&self) -> String {
        match &self.what {
            Refused::Exceeded { quota, .. } | Refused::MustSpecify { quota, .. } => {
                format!("quota:{quota}")
            }
            Refused::LimitRange { text } => format!("limitrange:{text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::snapshot;

    #[test]
    fn the_quotas_that_refused_a_pod_are_read_and_no_other() {
        use crate::rules::testing::{scenario, HEALTHY, HEALTHY_SCENARIOS};
        let want: BTreeSet<(String, String)> =
            [("scn-quota".to_string(), "compute-resources".to_string())].into();
        assert_eq!(refusing_quotas(&scenario("resource-quota-exceeded")), want);
        // A TaskManager the JobManager could not create: the log names the quota.
        let mut s = snapshot(HEALTHY);
        s.logs.insert(
            LogKey::new("team-a", "orders-6c5d-abc12", "flink-main-container", false),
            "WARN Could not create pod orders-taskmanager-1-3, exception: ... pods \"orders-taskmanager-1-3\" is forbidden: failed quota: tm-quota: must specify limits.cpu\n".into(),
        );
        assert_eq!(
            refusing_quotas(&s),
            [("team-a".to_string(), "tm-quota".to_string())].into()
        );
        for name in HEALTHY_SCENARIOS {
            assert!(refusing_quotas(&scenario(name)).is_empty(), "{name}");
        }
    }
}

//! FLK501: a Flink process got 403 from the API server: its ServiceAccount lacks a verb on a
//! resource. Found in container logs (every form Flink's shaded fabric8 client prints), then
//! confirmed or contradicted by the authorizer's decision (live access review), else by the RBAC
//! objects in the snapshot; the finding says which.

use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::rbac;
use crate::flink::rbac_fix::Workload;
use crate::signatures::{catalogue, Match};
use crate::snapshot::index::{pod_component, pod_namespace, pod_service_account};
use crate::snapshot::Pod;
use crate::snapshot::{FlinkDeployment, Index, LogKey, Snapshot};
use std::collections::BTreeMap;

pub struct RbacForbidden;

static META: RuleMeta = RuleMeta {
    id: "FLK501",
    name: "rbac_forbidden",
    summary: "a Flink process got a 403 from the API server, confirmed by an access review or the RBAC objects",
    category: Category::RbacForbidden,
    severity: Severity::Critical,
    explains: &["FLK103", "FLK104", "FLK201", "FLK401", "FLK502"],
    fix: r#"run Flink as a dedicated ServiceAccount bound to a Role with the rights its mode needs (pods; ConfigMaps under Kubernetes HA) and what was refused: one plan, the same in doctor, lint, triage and `kubectl flink can-i --fix`"#,
    verify: r#"kubectl auth can-i watch pods -n <namespace> --as=system:serviceaccount:<namespace>:flink   # expect yes"#,
};

/// One refused request, as the log tells it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Refusal {
    pub service_account_namespace: String,
    pub service_account: String,
    pub verb: String,
    pub group: String,
    pub resource: String,
    /// Where the request went.
    pub namespace: String,
}

impl Refusal {
    pub fn user(&self) -> String {
        format!(
            "system:serviceaccount:{}:{}",
            self.service_account_namespace, self.service_account
        )
    }
}

/// How a question about access was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Allowed(DecidedBy),
    Denied(DecidedBy),
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DecidedBy {
    AccessReview,
    RbacObjects,
}

impl DecidedBy {
    fn label(self) -> &'static str {
        match self {
            DecidedBy::AccessReview => "the API server's authorizer (SubjectAccessReview)",
            DecidedBy::RbacObjects => "the RBAC objects read (not authoritative)",
        }
    }
}

/// Every refusal in the logs of one container, with the lines that show it.
struct Sighting<'a> {
    key: &'a LogKey,
    refusals: Vec<Refusal>,
    /// Each line with the ServiceAccount it says was refused: (namespace, name).
    lines: Vec<(Match, (String, String))>,
}

/// The ServiceAccount a refusal is of: (namespace, name).
fn account(r: &Refusal) -> (&str, &str) {
    (&r.service_account_namespace, &r.service_account)
}

fn sightings<'a>(s: &'a Snapshot) -> Vec<Sighting<'a>> {
    let mut out = Vec::new();
    for (key, text) in &s.logs {
        let matches: Vec<Match> = catalogue()
            .scan(text)
            .into_iter()
            .filter(|m| m.signature.category == Category::RbacForbidden)
            .collect();
        if matches.is_empty() {
            continue;
        }
        let pod_sa = s
            .pods
            .iter()
            .find(|p| {
                p.metadata.name.as_deref() == Some(&key.pod)
                    && p.metadata.namespace.as_deref() == Some(&key.namespace)
            })
            .map(pod_service_account)
            .unwrap_or("default");
        let mut refusals: Vec<Refusal> = Vec::new();
        let mut lines = Vec::new();
        for m in matches {
            let r = match m.signature.id {
                "SIG-K8S-FORBIDDEN" => Some(Refusal {
                    service_account_namespace: m
                        .field("namespace")
                        .unwrap_or(&key.namespace)
                        .to_string(),
                    service_account: m.field("sa").unwrap_or(pod_sa).to_string(),
                    verb: m.field("verb").unwrap_or("get").to_string(),
                    group: m.field("group").unwrap_or("").to_string(),
                    resource: m.field("resource").unwrap_or("pods").to_string(),
                    namespace: m
                        .field("object_namespace")
                        .or(m.field("namespace"))
                        .unwrap_or(&key.namespace)
                        .to_string(),
                }),
                "SIG-FABRIC8-WEBSOCKET-403" | "SIG-FABRIC8-EXEC-403" => Some(Refusal {
                    service_account_namespace: key.namespace.clone(),
                    service_account: pod_sa.to_string(),
                    verb: "watch".into(),
                    group: String::new(),
                    resource: m.field("resource").unwrap_or("pods").to_string(),
                    namespace: m.field("namespace").unwrap_or(&key.namespace).to_string(),
                }),
                // The fabric8 form without the server's message names no verb: it says only
                // that the configured ServiceAccount was refused.
                _ => None,
            };
            let who = match &r {
                Some(r) => (
                    r.service_account_namespace.clone(),
                    r.service_account.clone(),
                ),
                None => (key.namespace.clone(), pod_sa.to_string()),
            };
            lines.push((m, who));
            if let Some(r) = r.filter(|r| !refusals.contains(r)) {
                refusals.push(r);
            }
        }
        if refusals.is_empty() {
            // Only the verb-less form: assume what every native JobManager does first.
            refusals.push(Refusal {
                service_account_namespace: key.namespace.clone(),
                service_account: pod_sa.to_string(),
                verb: "watch".into(),
                group: String::new(),
                resource: "pods".into(),
                namespace: key.namespace.clone(),
            });
        }
        refusals.sort();
        out.push(Sighting {
            key,
            refusals,
            lines,
        });
    }
    // A container that was refused, restarted and is refused the same again shows it in both
    // its previous and its current log: one cause, told from the current log (the reality lab
    // caught the JobManager between two crashes with both logs read).
    let current: Vec<(LogKey, Vec<Refusal>)> = out
        .iter()
        .filter(|o| !o.key.previous)
        .map(|o| (o.key.clone(), o.refusals.clone()))
        .collect();
    out.retain(|o| {
        !o.key.previous
            || !current.iter().any(|(k, refusals)| {
                (&k.namespace, &k.pod, &k.container)
                    == (&o.key.namespace, &o.key.pod, &o.key.container)
                    && o.refusals.iter().all(|r| refusals.contains(r))
            })
    });
    out
}

/// The access questions that confirm or contradict the refusals in the logs: for the
/// ServiceAccount the log names, and for the one the FlinkDeployment is configured with now.
/// Gather asks the API server exactly these (pure, so gather and the rule agree).
pub fn questions(s: &Snapshot) -> Vec<Refusal> {
    let index = Index::new(s);
    let mut out: Vec<Refusal> = Vec::new();
    for sighting in sightings(s) {
        let configured = configured_sa(s, &index, pod_of(s, sighting.key));
        for r in &sighting.refusals {
            let mut candidates = vec![r.clone()];
            if let Some(sa) = &configured {
                if *sa != r.service_account {
                    candidates.push(Refusal {
                        service_account: sa.clone(),
                        ..r.clone()
                    });
                }
            }
            for c in candidates {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The pod whose log this is.
fn pod_of<'s>(s: &'s Snapshot, key: &LogKey) -> Option<&'s Pod> {
    s.pods.iter().find(|p| {
        p.metadata.name.as_deref() == Some(&key.pod)
            && p.metadata.namespace.as_deref() == Some(&key.namespace)
    })
}

/// The ServiceAccount the FlinkDeployment owning this pod names in its spec now.
/// The account the deployment is configured with now: the FlinkDeployment's, or, for a native
/// cluster without the operator, its JobManager Deployment's pod template (what the planner's
/// `kubectl patch deployment` changes; the lab's real-native-default-sa).
fn configured_sa(s: &Snapshot, index: &Index, pod: Option<&Pod>) -> Option<String> {
    let pod = pod?;
    let ns = pod_namespace(pod);
    let d = index.deployment_of_pod(pod)?;
    if let Some(fd) = index.flink_deployment(ns, &d.name) {
        return Some(fd.service_account().to_string());
    }
    s.deployments
        .iter()
        .find(|dep| {
            dep.metadata.namespace.as_deref() == Some(ns)
                && dep.metadata.name.as_deref() == Some(d.name.as_str())
        })
        .and_then(|dep| dep.spec.template.spec.as_ref())
        .map(|spec| {
            spec.service_account_name
                .clone()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "default".to_string())
        })
}

fn decide(s: &Snapshot, r: &Refusal) -> Verdict {
    let (resource, subresource) = r.resource.split_once('/').unwrap_or((&r.resource, ""));
    let user = r.user();
    if let Some(review) = s.access_reviews.iter().find(|a| {
        a.user == user
            && a.verb == r.verb
            && a.group == r.group
            && a.resource == resource
            && a.subresource == subresource
            && a.namespace == r.namespace
    }) {
        return if review.allowed {
            Verdict::Allowed(DecidedBy::AccessReview)
        } else {
            Verdict::Denied(DecidedBy::AccessReview)
        };
    }
    let req = rbac::Request {
        namespace: &r.namespace,
        service_account: &r.service_account,
        verb: &r.verb,
        group: &r.group,
        resource,
        subresource,
    };
    // RBAC objects speak only for ServiceAccounts of the namespace the request went to.
    if r.service_account_namespace != r.namespace {
        return Verdict::Unknown;
    }
    match s.rbac_allows(&req) {
        Some(true) => Verdict::Allowed(DecidedBy::RbacObjects),
        Some(false) => Verdict::Denied(DecidedBy::RbacObjects),
        None => Verdict::Unknown,
    }
}

impl Rule for RbacForbidden {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for sighting in sightings(s) {
            let key = sighting.key;
            let pod = pod_of(s, key);
            let deployment = pod.and_then(|p| index.deployment_of_pod(p));
            let fd = deployment
                .as_ref()
                .and_then(|d| index.flink_deployment(&key.namespace, &d.name));
            let configured = configured_sa(s, index, pod);

            // Still refused now? A refusal that the authorizer (or RBAC) now allows for the
            // ServiceAccount the deployment is configured with is history, not a cause.
            let mut still: Vec<(&Refusal, Verdict)> = Vec::new();
            for r in &sighting.refusals {
                let now = decide(s, r);
                let for_configured = configured
                    .as_ref()
                    .filter(|sa| **sa != r.service_account)
                    .map(|sa| {
                        decide(
                            s,
                            &Refusal {
                                service_account: sa.clone(),
                                ..r.clone()
                            },
                        )
                    });
                let fixed = matches!(now, Verdict::Allowed(_))
                    || matches!(for_configured, Some(Verdict::Allowed(_)));
                if !fixed {
                    still.push((r, now));
                }
            }
            if still.is_empty() {
                if let Some(f) = stale(s, &sighting, pod, configured.as_deref(), fd, deployment) {
                    out.push(f);
                }
                continue;
            }
            // One finding per ServiceAccount refused: each its own title, lines, links and fix.
            let mut accounts: Vec<(&str, &str)> = Vec::new();
            for (r, _) in &still {
                if !accounts.contains(&account(r)) {
                    accounts.push(account(r));
                }
            }
            for a in accounts {
                let theirs: Vec<(&Refusal, Verdict)> = still
                    .iter()
                    .filter(|(r, _)| account(r) == a)
                    .copied()
                    .collect();
                let d = deployment.clone();
                out.push(finding(s, index, &sighting, pod, &theirs, fd, d));
            }
        }
        out
    }
}

/// A refusal the authorizer now allows, by a process that still has to pick the fix up: it died
/// on it and has not run again (the refusal is in the previous log of a container that is not
/// running), or it runs as another account than the deployment is now configured with (only a
/// restart switches it). An info finding with the restart, instead of the old fix. A running
/// process of the same account retries on its own, and a refusal in the previous log of a
/// container running again is history: nothing.
fn stale(
    s: &Snapshot,
    sighting: &Sighting,
    pod: Option<&Pod>,
    configured: Option<&str>,
    fd: Option<&FlinkDeployment>,
    deployment: Option<ObjectRef>,
) -> Option<Finding> {
    let key = sighting.key;
    let pod = pod?;
    let running_again = pod
        .status
        .as_ref()
        .and_then(|st| st.container_statuses.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.name == key.container))
        .is_some_and(|c| c.ready);
    let r = sighting.refusals.first()?;
    // The pod still runs as another account than the deployment names: only a restart switches.
    let switch_pending = configured.is_some_and(|sa| sa != pod_service_account(pod));
    if !switch_pending && (running_again || !key.previous) {
        return None;
    }
    let text = s
        .log(&key.namespace, &key.pod, &key.container, key.previous)
        .unwrap_or("");
    let (first, _) = sighting.lines.first()?;
    let when = text
        .lines()
        .nth(first.line_no.saturating_sub(1))
        .and_then(|l| l.get(..23))
        .filter(|t| t.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .map(|t| format!(" at {t}"))
        .unwrap_or_default();
    let what = format!("{} {}", r.verb, qualified(&r.group, &r.resource));
    let restart = match fd {
        Some(fd) => format!(
            "kubectl patch flinkdeployment {} -n {} --type=merge -p '{{\"spec\":{{\"restartNonce\":{}}}}}'",
            fd.name(),
            fd.namespace(),
            s.captured_at.timestamp()
        ),
        None => format!("kubectl delete pod {} -n {}", key.pod, key.namespace),
    };
    let instance = if key.previous { "previous log" } else { "log" };
    Some(
        Finding::new(
            &META,
            ObjectRef::namespaced("Pod", &key.namespace, &key.pod),
            format!(
                "{} was refused `{what}`{when}; allowed now: restart the pod to pick it up",
                r.user()
            ),
        )
        .severity(Severity::Info)
        .deployment(deployment)
        .evidence(format!(
            "{}/{} ({instance}) L{}: {}",
            key.pod,
            key.container,
            first.line_no,
            excerpt(text.lines().nth(first.line_no - 1).unwrap_or(""))
        ))
        .evidence(format!(
            "the authorizer (or the RBAC objects) now allows {} to {what} in namespace {}",
            r.user(),
            r.namespace
        ))
        .fix(format!(
            "The permission is in place; the Flink process still runs with the refusal behind it. Restart it:\n\n{restart}\n"
        ))
        .verify(format!(
            "kubectl logs {} -n {} -c {} | grep -c 'is forbidden'   # expect 0 after the restart",
            // A log's pod and container may be named by a bundle's paths: one shell word each.
            crate::shell::sh(&key.pod),
            crate::shell::sh(&key.namespace),
            crate::shell::sh(&key.container)
        ))
        .link(link::container(&key.namespace, &key.pod, &key.container)),
    )
}

/// The finding of the refusals of one ServiceAccount (`still`, all of it) in one log.
fn finding(
    s: &Snapshot,
    index: &Index,
    sighting: &Sighting,
    pod: Option<&Pod>,
    still: &[(&Refusal, Verdict)],
    fd: Option<&FlinkDeployment>,
    deployment: Option<ObjectRef>,
) -> Finding {
    let key = sighting.key;
    let first = still[0].0;
    let (ns, sa) = (&first.service_account_namespace, &first.service_account);
    let what: Vec<String> = still
        .iter()
        .map(|(r, _)| format!("{} {}", r.verb, qualified(&r.group, &r.resource)))
        .collect();
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", &key.namespace, &key.pod),
        format!(
            "ServiceAccount {ns}/{sa} may not {} (403 from the API server)",
            what.join(", ")
        ),
    )
    .deployment(deployment.clone());
    let instance = if key.previous { "previous" } else { "current" };
    let text = s
        .log(&key.namespace, &key.pod, &key.container, key.previous)
        .unwrap_or("");
    // The lines that name this account's refusals.
    let mut line_nos: Vec<usize> = sighting
        .lines
        .iter()
        .filter(|(_, who)| (who.0.as_str(), who.1.as_str()) == (ns.as_str(), sa.as_str()))
        .map(|(m, _)| m.line_no)
        .collect();
    line_nos.dedup();
    for n in line_nos.iter().take(3) {
        let line = text.lines().nth(n - 1).unwrap_or("");
        f = f.evidence(format!(
            "{}/{} ({instance} log) L{n}: {}",
            key.pod,
            key.container,
            excerpt(line)
        ));
    }
    if line_nos.len() > 3 {
        f = f.evidence(format!(
            "… {} more lines with refused requests in that log",
            line_nos.len() - 3
        ));
    }
    for (r, d) in still {
        f = f.evidence(match d {
            Verdict::Denied(m) => format!(
                "confirmed by {}: {} may not {} {} in namespace {}",
                m.label(),
                r.user(),
                r.verb,
                qualified(&r.group, &r.resource),
                r.namespace
            ),
            _ => format!(
                "not confirmed: no access review or RBAC objects were readable for {} {} {}",
                r.user(),
                r.verb,
                qualified(&r.group, &r.resource)
            ),
        });
    }
    f = f.link(link::container(&key.namespace, &key.pod, &key.container));
    f = f.link(link::service_account(ns, sa));
    for (r, _) in still.iter() {
        f = f.link(link::refused(ns, sa, &r.resource));
    }

    // The fix, from the one planner every command asks: a dedicated ServiceAccount when Flink
    // runs as `default`, the component's full set (ConfigMaps under Kubernetes HA) plus what was
    // refused, and the switch.
    // A refusal in another namespace than the account's is a grant there (`plan_grant`), as
    // triage and explain print it for the same line.
    let rule = |r: &Refusal| (r.group.clone(), r.resource.clone(), r.verb.clone());
    let refused: Vec<(String, String, String)> = still
        .iter()
        .filter(|(r, _)| r.namespace == *ns)
        .map(|(r, _)| rule(r))
        .collect();
    // Grouped by where, and by whom: the refusal's own account.
    type Grants = Vec<(String, String, String)>;
    let mut elsewhere: BTreeMap<(&str, &str, &str), Grants> = BTreeMap::new();
    for (r, _) in still.iter().filter(|(r, _)| r.namespace != *ns) {
        elsewhere
            .entry((
                r.namespace.as_str(),
                r.service_account_namespace.as_str(),
                r.service_account.as_str(),
            ))
            .or_default()
            .push(rule(r));
    }
    let component = match pod.and_then(pod_component) {
        Some(Component::TaskManager) => Component::TaskManager,
        _ => Component::JobManager,
    };
    let mut plans = Vec::new();
    if !refused.is_empty() || elsewhere.is_empty() {
        let cluster = deployment.as_ref().and_then(|d| index.cluster(d));
        let mut need = rbac_plan::need(index, cluster.as_ref(), component, ns, sa, refused);
        if let (Workload::Unknown, Some(fd)) = (&need.workload, fd) {
            need.workload = Workload::FlinkDeployment(fd.name().to_string());
        }
        plans.push(rbac_plan::plan(s, &need));
    }
    for ((target, subject_ns, subject), refused) in &elsewhere {
        // The account the plan above moves Flink to, when it is the one refused.
        let subject = match plans.first() {
            Some(p) if (*subject_ns, *subject) == (ns.as_str(), sa.as_str()) => {
                p.service_account.as_str()
            }
            _ => subject,
        };
        plans.push(rbac_plan::grant(
            s,
            component,
            Mode::Native,
            subject_ns,
            subject,
            target,
            refused,
        ));
    }
    let fix: String = plans.iter().map(|p| p.commands()).collect();
    let verify: Vec<String> = plans.iter().map(|p| p.verify()).collect();
    f.fix(fix).verify(verify.join("\n"))
}

/// A long fabric8 line cut to what a person needs: its start (the exception) and the API
/// server's own words from "is forbidden" on. Redacted like every evidence line.
fn excerpt(line: &str) -> String {
    const HEAD: usize = 130;
    const TAIL: usize = 200;
    let line = crate::signatures::redact(line.trim());
    if line.chars().count() <= HEAD + TAIL {
        return line.into_owned();
    }
    let anchor = ["Message: ", "is forbidden"]
        .iter()
        .find_map(|a| line.find(a))
        .unwrap_or(0);
    let head: String = line.chars().take(HEAD).collect();
    let tail_start = if anchor > head.len() {
        anchor
    } else {
        head.len()
    };
    let tail: String = line[tail_start..].chars().take(TAIL).collect();
    let more = if line.len() - tail_start > tail.len() {
        " …"
    } else {
        ""
    };
    format!("{head} … {tail}{more}")
}

/// `pods` or `deployments.apps`, as `kubectl auth can-i` takes them.
fn qualified(group: &str, resource: &str) -> String {
    if group.is_empty() {
        resource.to_string()
    } else {
        match resource.split_once('/') {
            Some((r, sub)) => format!("{r}.{group}/{sub}"),
            None => format!("{resource}.{group}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};
    use crate::snapshot::AccessReview;

    fn canonical() -> Snapshot {
        crate::snapshot::bundle::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/canonical"
        )))
        .unwrap()
    }

    #[test]
    fn fires_on_the_canonical_403_with_the_extracted_request() {
        let f = run(&RbacForbidden, &canonical());
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(
            f.title,
            "ServiceAccount analytics/default may not list pods (403 from the API server)"
        );
        // Flink 1.20's first refused request is the pod list (the reality lab's recording).
        assert!(f.evidence.iter().any(|e| e.contains("L9: ")
            && e.contains("Failure executing: GET at:")
            && e.contains("cannot list resource \"pods\"")));
        assert_eq!(
            f.evidence.iter().filter(|e| e.contains("L9: ")).count(),
            1,
            "one line, once"
        );
        assert!(
            f.evidence.iter().any(|e| e.starts_with("not confirmed")),
            "{:?}",
            f.evidence
        );
        assert!(f
            .fix
            .contains("kind: ServiceAccount\nmetadata:\n  name: flink\n  namespace: analytics"));
        assert!(f.fix.contains("resources: [\"pods\"]\n    verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]"));
        assert!(f.fix.contains("kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"serviceAccount\":\"flink\"}}'"));
        assert!(f.verify.contains(
            "kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink"
        ));
        assert!(f.links.contains(&link::container(
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container"
        )));
    }

    /// The canonical JobManager's previous log, also as its current log: what a container
    /// refused, restarted and refused again shows (the previous run's refusal made `previous`).
    fn canonical_refused_twice(previous: &str) -> Snapshot {
        let mut s = canonical();
        let key = s
            .logs
            .keys()
            .find(|k| k.previous && k.container == "flink-main-container")
            .unwrap()
            .clone();
        let text = s.logs[&key].clone();
        s.logs
            .insert(key.clone(), text.replace("cannot list resource", previous));
        s.logs.insert(
            LogKey {
                previous: false,
                ..key
            },
            text,
        );
        s
    }

    #[test]
    fn the_same_refusal_in_the_previous_and_the_current_log_is_one_finding_from_the_current() {
        let f = run(
            &RbacForbidden,
            &canonical_refused_twice("cannot list resource"),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("(current log) L9: ")),
            "{:?}",
            f[0].evidence
        );
        assert!(
            !f[0].evidence.iter().any(|e| e.contains("(previous log)")),
            "{:?}",
            f[0].evidence
        );

        // The previous run was refused something else: that is a finding of its own.
        let f = run(
            &RbacForbidden,
            &canonical_refused_twice("cannot watch resource"),
        );
        assert_eq!(f.len(), 2, "{f:#?}");
    }

    #[test]
    fn the_fix_yaml_parses_as_three_objects() {
        let f = &run(&RbacForbidden, &canonical())[0];
        let yaml = f
            .fix
            .split("<<'EOF'\n")
            .nth(1)
            .unwrap()
            .split("EOF\n")
            .next()
            .unwrap();
        let docs = crate::snapshot::bundle::parse_documents(yaml).unwrap();
        let kinds: Vec<_> = docs
            .iter()
            .map(|d| d["kind"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(kinds, ["ServiceAccount", "Role", "RoleBinding"]);
    }

    #[test]
    fn confirmed_by_a_denied_access_review() {
        let mut s = canonical();
        s.access_reviews.push(AccessReview {
            user: "system:serviceaccount:analytics:default".into(),
            verb: "list".into(),
            group: "".into(),
            resource: "pods".into(),
            subresource: "".into(),
            namespace: "analytics".into(),
            allowed: false,
            reason: "".into(),
        });
        let f = run(&RbacForbidden, &s);
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.starts_with("confirmed by the API server's authorizer")));
    }

    #[test]
    fn only_a_restart_when_the_authorizer_now_allows_the_configured_service_account() {
        let mut s = canonical();
        s.flink_deployments[0].spec.service_account = Some("flink".into());
        s.access_reviews.push(AccessReview {
            user: "system:serviceaccount:analytics:flink".into(),
            verb: "list".into(),
            group: "".into(),
            resource: "pods".into(),
            subresource: "".into(),
            namespace: "analytics".into(),
            allowed: true,
            reason: "RBAC: allowed by RoleBinding".into(),
        });
        // The refusal is history, but the JobManager has not run again since: restart it.
        let f = run(&RbacForbidden, &s);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(
            f[0].title.contains("allowed now: restart"),
            "{}",
            f[0].title
        );
        assert!(f[0].fix.contains("restartNonce"), "{}", f[0].fix);
        assert!(
            !f[0].fix.contains("kind: Role"),
            "not the old fix again: {}",
            f[0].fix
        );
        // Once the pod runs again as the configured account, the previous log's refusal is
        // history: nothing.
        s.pods[0].spec.as_mut().unwrap().service_account_name = Some("flink".into());
        for c in s.pods[0]
            .status
            .as_mut()
            .unwrap()
            .container_statuses
            .as_mut()
            .unwrap()
        {
            c.ready = true;
        }
        assert!(run(&RbacForbidden, &s).is_empty());
        let q = questions(&s);
        assert!(q.iter().any(|r| r.service_account == "flink"));
        assert!(q.iter().any(|r| r.service_account == "default"));
    }

    #[test]
    fn older_fabric8_and_plain_api_server_forms_are_recognised() {
        let line = r#"io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/services/flink-session-cluster-rest. Message: Forbidden!Configured service account doesn't have access. Service account may have been revoked. services "flink-session-cluster-rest" is forbidden: User "system:serviceaccount:default:flink" cannot get resource "services" in API group "" in the namespace "default"."#;
        let s = with_log(
            snapshot(HEALTHY),
            "default",
            "jm",
            "flink-main-container",
            false,
            line,
        );
        let f = run(&RbacForbidden, &s);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].title.contains("default/flink may not get services"),
            "{}",
            f[0].title
        );
        assert!(f[0]
            .fix
            .contains("resources: [\"services\"]\n    verbs: [\"get\"]"));
        assert!(
            !f[0].fix.contains("kind: ServiceAccount\nmetadata"),
            "flink exists: no new ServiceAccount"
        );
    }

    /// Refusals of two ServiceAccounts in one log: one finding per account, each titled with
    /// its own account, its own lines and its own fix (the second account's refusal was once
    /// listed under the first account's name).
    #[test]
    fn refusals_of_two_accounts_in_one_log_are_a_finding_each() {
        let refused = |sa: &str, verb: &str, resource: &str| {
            format!(
                r#"io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/{resource}. Message: Forbidden! {resource} is forbidden: User "system:serviceaccount:default:{sa}" cannot {verb} resource "{resource}" in API group "" in the namespace "default"."#
            )
        };
        let text = format!(
            "{}\n{}\n",
            refused("flink", "get", "services"),
            refused("reporter", "list", "configmaps")
        );
        let s = with_log(
            snapshot(HEALTHY),
            "default",
            "jm",
            "flink-main-container",
            false,
            &text,
        );
        let f = run(&RbacForbidden, &s);
        assert_eq!(f.len(), 2, "{f:#?}");
        let of = |sa: &str| {
            f.iter()
                .find(|f| f.title.contains(&format!("default/{sa} ")))
                .unwrap_or_else(|| panic!("no finding titled with {sa}: {f:#?}"))
        };
        let (flink, reporter) = (of("flink"), of("reporter"));
        assert_eq!(
            flink.title,
            "ServiceAccount default/flink may not get services (403 from the API server)"
        );
        assert_eq!(
            reporter.title,
            "ServiceAccount default/reporter may not list configmaps (403 from the API server)"
        );
        assert!(
            flink.evidence.iter().any(|e| e.contains(" L1: ")),
            "{:?}",
            flink.evidence
        );
        assert!(
            !flink.evidence.iter().any(|e| e.contains(" L2: ")),
            "{:?}",
            flink.evidence
        );
        assert!(
            reporter.evidence.iter().any(|e| e.contains(" L2: ")),
            "{:?}",
            reporter.evidence
        );
        assert!(
            !reporter.evidence.iter().any(|e| e.contains(" L1: ")),
            "{:?}",
            reporter.evidence
        );
        assert!(
            reporter
                .fix
                .contains("resources: [\"configmaps\"]\n    verbs: [\"list\"]"),
            "{}",
            reporter.fix
        );
        assert!(!reporter.fix.contains("\"services\""), "{}", reporter.fix);
        assert!(
            !flink.fix.contains("\"configmaps\"\n    verbs: [\"list\"]"),
            "{}",
            flink.fix
        );
        assert!(reporter
            .links
            .contains(&link::service_account("default", "reporter")));
        assert!(!flink
            .links
            .contains(&link::service_account("default", "reporter")));
    }

    #[test]
    fn silent_on_healthy_logs() {
        let s = with_log(snapshot(HEALTHY), "flink", "basic-6d4f7c9b8-abcde", "flink-main-container", false,
            "2026-11-20 10:00:05,000 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Starting the resource manager.");
        assert!(run(&RbacForbidden, &s).is_empty());
    }

    #[test]
    fn no_critical_finding_when_rbac_objects_show_the_permission_exists_now() {
        let rbac = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink, namespace: analytics}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch, create, delete]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: flink, namespace: analytics}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}
subjects: [{kind: ServiceAccount, name: default, namespace: analytics}]
"#;
        let mut s = canonical();
        let extra = snapshot(rbac);
        s.roles = extra.roles;
        s.role_bindings = extra.role_bindings;
        s.rbac_complete = true;
        let f = run(&RbacForbidden, &s);
        assert!(f.iter().all(|f| f.severity == Severity::Info), "{f:?}");
    }
}

//! FLK201: a native-mode cluster (Apache operator native mode, or Flink native Kubernetes with no
//! operator) has no TaskManager pods, or fewer than its job needs, while its JobManager's log
//! shows the API server refusing to create them (403 on `create pods`).
//!
//! In native mode the JobManager's ResourceManager creates every TaskManager pod itself, as the
//! JobManager's ServiceAccount. When that account may not create pods, the JobManager keeps
//! running and retrying, and the job waits for slots that never come (later
//! `NoResourceAvailableException`): the "no TaskManagers" symptom of an RBAC cause. FLK501
//! (`rbac_forbidden`, the 403 itself) explains this finding when both are reported; they share the
//! JobManager container and ServiceAccount as link keys.
//!
//! Silent when the authorizer (or the RBAC objects read) now allows `create pods`: the
//! JobManager retries, so the pods are on their way.

use super::support::modes::{
    ceil_div, jobmanager_logs, may, parallelism, pods_verify, slots, Decided,
};
use super::support::rbac_plan;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, Severity};
use crate::flink::mode::Component;
use crate::signatures::{catalogue, Match};
use crate::snapshot::index::{Cluster, Index};
use crate::snapshot::{LogKey, Snapshot};

pub struct TaskmanagersNotCreated;

static META: RuleMeta = RuleMeta {
    id: "FLK201",
    name: "taskmanagers_not_created",
    summary: "a native cluster is short of TaskManagers while the JobManager may not create pods",
    category: Category::NoSlots,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"give the JobManager's ServiceAccount the right to create pods: the plan doctor and `kubectl flink can-i --fix` print; the ResourceManager then creates the TaskManagers"#,
    verify: r#"kubectl auth can-i create pods -n <namespace> --as=system:serviceaccount:<namespace>:flink   # expect yes"#,
};

impl Rule for TaskmanagersNotCreated {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            if !c.mode.native_taskmanagers() || c.jobmanager_pods.is_empty() {
                continue;
            }
            let conf = index.conf(c);
            let (slots, slots_from) = slots(c, &conf);
            let needed = parallelism(c, &conf)
                .map(|(p, from)| (ceil_div(p, slots).max(1), Some(from)))
                .unwrap_or((1, None));
            let live = c.live_taskmanager_pods();
            if live.len() as i64 >= needed.0 {
                continue;
            }
            let refusals = refused_pod_creations(s, c);
            let Some((key, first)) = refusals.first() else {
                continue;
            };
            let ns = c.namespace();
            let sa = first
                .field("sa")
                .map(str::to_string)
                .unwrap_or_else(|| c.jobmanager_service_account(&conf));
            let sa_ns = first.field("namespace").unwrap_or(ns).to_string();
            let decision = may(s, &sa_ns, &sa, "create", "", "pods");
            if matches!(decision, Some((true, _))) {
                continue;
            }
            out.push(finding(
                s,
                index,
                c,
                key,
                &refusals,
                &sa_ns,
                &sa,
                decision,
                live.len(),
                needed,
                (slots, slots_from),
            ));
        }
        out
    }
}

/// The lines of the cluster's JobManager logs where the API server refused to create a pod.
fn refused_pod_creations<'s>(s: &'s Snapshot, c: &Cluster) -> Vec<(&'s LogKey, Match)> {
    let mut out = Vec::new();
    for (key, text) in jobmanager_logs(s, c) {
        for m in catalogue().scan(text) {
            let id = m.signature.id;
            let refused = matches!(id, "SIG-K8S-FORBIDDEN" | "SIG-K8S-FORBIDDEN-DEFAULT-SA")
                && m.field("verb") == Some("create")
                && m.field("resource") == Some("pods");
            if refused
                && !out
                    .iter()
                    .any(|(_, o): &(&LogKey, Match)| o.line_no == m.line_no && o.signature.id != id)
            {
                out.push((key, m));
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn finding(
    s: &Snapshot,
    index: &Index,
    c: &Cluster,
    key: &LogKey,
    refusals: &[(&LogKey, Match)],
    sa_ns: &str,
    sa: &str,
    decision: Option<(bool, Decided)>,
    live: usize,
    (needed, parallelism_from): (i64, Option<String>),
    (_slots, slots_from): (i64, String),
) -> Finding {
    let ns = c.namespace();
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        if live == 0 {
            format!("no TaskManager pods: the API server refuses the JobManager's requests to create them (ServiceAccount {sa_ns}/{sa} may not create pods)")
        } else {
            format!("{live} of {needed} TaskManager pods: the API server refuses the JobManager's requests to create the others (ServiceAccount {sa_ns}/{sa} may not create pods)")
        },
    )
    .deployment(Some(c.reference.clone()))
    .evidence(format!(
        "{live} TaskManager pod(s) with selector {} in namespace {ns}; the job needs {needed}",
        c.selector(Component::TaskManager)
    ));
    if let Some(p) = parallelism_from {
        f = f.evidence(format!("{p}; {slots_from} → {needed} TaskManager(s)"));
    }
    let instance = if key.previous { "previous log" } else { "log" };
    for (k, m) in refusals.iter().take(2) {
        f = f.evidence(format!(
            "JobManager {} {instance} L{}: {}",
            k.pod, m.line_no, m.line
        ));
    }
    if refusals.len() > 2 {
        f = f.evidence(format!(
            "… {} more refused pod creations in the JobManager's log",
            refusals.len() - 2
        ));
    }
    f = f.evidence(match decision {
        Some((_, d)) => format!("confirmed by {}: system:serviceaccount:{sa_ns}:{sa} may not create pods in namespace {ns}", d.label()),
        None => "not confirmed: no access review or RBAC objects were readable".to_string(),
    });
    let need = rbac_plan::need(
        index,
        Some(c),
        Component::JobManager,
        sa_ns,
        sa,
        vec![(String::new(), "pods".into(), "create".into())],
    );
    let plan = rbac_plan::plan(s, &need);
    f.fix(format!(
        "Give the JobManager's ServiceAccount the rights native Kubernetes mode needs (the JobManager keeps retrying; only a switch of account restarts it):\n\n{}",
        plan.commands()
    ))
    .verify(format!(
        "{}\n{}   # expect {needed} TaskManager pod(s) Running",
        plan.verify(),
        pods_verify(c, Component::TaskManager)
    ))
    .link(link::container(&key.namespace, &key.pod, &key.container))
    .link(link::service_account(sa_ns, sa))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log};

    pub(crate) const NATIVE: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: wordcount-6d4f7c9b8-abcde
  namespace: stream
  labels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}
spec:
  serviceAccountName: flink
  containers: [{name: flink-main-container, image: "flink:1.20"}]
status: {phase: Running}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: flink-config-wordcount, namespace: stream, labels: {app: wordcount, type: flink-native-kubernetes}}
data:
  config.yaml: |
    kubernetes.cluster-id: wordcount
    taskmanager.numberOfTaskSlots: 2
    parallelism.default: 4
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink, namespace: stream}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch, delete]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: flink, namespace: stream}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: flink}
subjects: [{kind: ServiceAccount, name: flink, namespace: stream}]
"#;

    pub(crate) const REFUSED: &str = r#"2026-11-28 09:39:02,118 WARN  org.apache.flink.kubernetes.KubernetesResourceManagerDriver [] - Could not create pod wordcount-taskmanager-1-1, exception: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: POST at: https://10.96.0.1/api/v1/namespaces/stream/pods. Message: pods "wordcount-taskmanager-1-1" is forbidden: User "system:serviceaccount:stream:flink" cannot create resource "pods" in API group "" in the namespace "stream"."#;

    fn broken() -> Snapshot {
        with_log(
            snapshot(NATIVE),
            "stream",
            "wordcount-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            REFUSED,
        )
    }

    #[test]
    fn fires_on_a_native_cluster_whose_pod_creations_are_refused() {
        let f = run(&TaskmanagersNotCreated, &broken());
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.object.kind, "Deployment");
        assert_eq!(f.deployment.as_ref().unwrap().name, "wordcount");
        assert!(f.title.starts_with("no TaskManager pods"), "{}", f.title);
        assert!(
            f.evidence.iter().any(|e| e.contains("the job needs 2")),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("L1: ") && e.contains("cannot create resource \"pods\"")));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("confirmed by the RBAC objects read")));
        assert!(
            f.fix
                .contains("kind: Role\nmetadata:\n  name: flink-jobmanager\n  namespace: stream"),
            "{}",
            f.fix
        );
        assert!(f
            .fix
            .contains("verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]"));
        assert!(f.verify.contains(
            "kubectl auth can-i create pods -n stream --as=system:serviceaccount:stream:flink"
        ));
        assert!(f.links.contains(&link::service_account("stream", "flink")));
    }

    #[test]
    fn the_403_explains_it() {
        let s = broken();
        let all = crate::rank::rank(crate::rules::run_all(&s)).findings;
        let mine = all.iter().find(|f| f.rule == "FLK201").expect("FLK201");
        let cause = all
            .iter()
            .find(|f| Some(&f.id) == mine.caused_by.as_ref())
            .expect("a cause");
        assert_eq!(cause.rule, "FLK501", "{all:#?}");
    }

    #[test]
    fn silent_when_taskmanagers_run_or_the_rights_are_there() {
        let tms = r#"
---
apiVersion: v1
kind: Pod
metadata: {name: wordcount-taskmanager-1-1, namespace: stream, labels: {app: wordcount, component: taskmanager, type: flink-native-kubernetes}}
spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: wordcount-taskmanager-1-2, namespace: stream, labels: {app: wordcount, component: taskmanager, type: flink-native-kubernetes}}
spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}
status: {phase: Running}
"#;
        let s = with_log(
            snapshot(&format!("{NATIVE}{tms}")),
            "stream",
            "wordcount-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            REFUSED,
        );
        assert!(run(&TaskmanagersNotCreated, &s).is_empty());
        let granted = NATIVE.replace(
            "verbs: [get, list, watch, delete]",
            "verbs: [get, list, watch, create, delete]",
        );
        let s = with_log(
            snapshot(&granted),
            "stream",
            "wordcount-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            REFUSED,
        );
        assert!(run(&TaskmanagersNotCreated, &s).is_empty());
        // No refusal in the log: an idle session cluster has no TaskManagers either.
        assert!(run(&TaskmanagersNotCreated, &snapshot(NATIVE)).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(
            &TaskmanagersNotCreated,
            &scenario("mode-native-tm-forbidden"),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(
                run(&TaskmanagersNotCreated, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

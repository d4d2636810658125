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
//!
//! The ResourceManager may also fail before it asks the API server: building the TaskManager's
//! pod from the configuration throws (`kubernetes.taskmanager.memory.limit-factor should be
//! greater or equal to 1.`), and the exception is logged where the ResourceManager requested the
//! worker: `Caught exception while executing runnable in main thread.` with
//! `ActiveResourceManager.requestNewWorker` in its stack when `requestResource` throws,
//! `Failed requesting worker with resource spec` when its future fails
//! (apache/flink@release-1.18.1: flink-runtime/.../resourcemanager/active/
//! ActiveResourceManager.java, `requestNewWorker`; flink-rpc-akka/.../PekkoRpcActor.java,
//! `handleRunAsync`). Then the finding names that exception, and when it names an option of the
//! FlinkDeployment's spec.flinkConfiguration, that option and the patch that removes it
//! (config_option_invalid).

use super::support::containers::{exception_after, with_category};
use super::support::modes::{
    ceil_div, jobmanager_logs, may, parallelism, pods_verify, slots, Decided,
};
use super::support::named_option::{named_option, remove_it};
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
                if let Some(failure) = request_failures(s, c).into_iter().next() {
                    out.push(failure_finding(c, &failure, live.len(), needed));
                }
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

/// A worker the ResourceManager failed to request, as its JobManager's log says.
struct RequestFailure<'s> {
    key: &'s LogKey,
    /// The record that says so (line number, text).
    record: (usize, String),
    /// The exception's cause (line number, text).
    cause: (usize, String),
}

/// The records of the cluster's JobManager logs where the ResourceManager failed to request a
/// TaskManager, with the exception each printed, the newest log's first.
fn request_failures<'s>(s: &'s Snapshot, c: &Cluster) -> Vec<RequestFailure<'s>> {
    let mut out = Vec::new();
    let mut logs = jobmanager_logs(s, c);
    logs.sort_by_key(|(k, _)| k.previous);
    for (key, text) in logs {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let failed = line.contains("Failed requesting worker with resource spec")
                || (line.contains("Caught exception while executing runnable in main thread")
                    && lines[i + 1..]
                        .iter()
                        .take(12)
                        .take_while(|l| !l.starts_with(|ch: char| ch.is_ascii_digit()))
                        .any(|l| {
                            l.contains("ActiveResourceManager.requestNewWorker")
                                || l.contains("ResourceManagerDriver.requestResource")
                        }));
            if !failed {
                continue;
            }
            // The API server's answer (`Failure executing: POST ...`: a quota, Pod Security, a
            // class or account refused) is read by the rules of those refusals.
            if let Some(cause) = exception_after(text, i + 1)
                .filter(|(_, cause)| !cause.contains("Failure executing: "))
            {
                out.push(RequestFailure {
                    key,
                    record: (
                        i + 1,
                        crate::signatures::redact::redact(line.trim()).into_owned(),
                    ),
                    cause: (
                        cause.0,
                        crate::signatures::redact::redact(&cause.1).into_owned(),
                    ),
                });
            }
        }
    }
    out
}

fn failure_finding(
    c: &Cluster,
    failure: &RequestFailure,
    live: usize,
    needed: (i64, Option<String>),
) -> Finding {
    let ns = c.namespace();
    let instance = if failure.key.previous {
        "previous log"
    } else {
        "log"
    };
    let cause = &failure.cause.1;
    let short: String = if cause.chars().count() > 160 {
        cause.chars().take(159).chain(['…']).collect()
    } else {
        cause.clone()
    };
    let option = c
        .flink_deployment
        .and_then(|fd| named_option(fd, cause).map(|o| (fd, o)));
    let what = match &option {
        Some((_, o)) => format!("Flink refuses flinkConfiguration {} ({})", o.key, o.value),
        None => short.clone(),
    };
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        if live == 0 {
            format!("no TaskManager pods: the JobManager's ResourceManager fails to request them: {what}")
        } else {
            format!("{live} of {} TaskManager pods: the JobManager's ResourceManager fails to request the others: {what}", needed.0)
        },
    )
    .deployment(Some(c.reference.clone()))
    .evidence(format!(
        "{live} TaskManager pod(s) with selector {} in namespace {ns}; the job needs {}",
        c.selector(Component::TaskManager),
        needed.0
    ))
    .evidence(format!(
        "JobManager {} {instance} L{}: {}",
        failure.key.pod, failure.record.0, failure.record.1
    ))
    .evidence(format!(
        "JobManager {} {instance} L{}, the exception: {cause}",
        failure.key.pod, failure.cause.0
    ));
    let logs = format!(
        "kubectl logs {} -n {} -c {}{} | sed -n '{},{}p'",
        crate::shell::sh(&failure.key.pod),
        crate::shell::sh(ns),
        crate::shell::sh(&failure.key.container),
        if failure.key.previous {
            " --previous"
        } else {
            ""
        },
        failure.record.0,
        failure.cause.0 + 5
    );
    let fix = match &option {
        Some((fd, o)) => {
            f = with_category(f, Category::ConfigOptionInvalid);
            format!(
                "The ResourceManager builds each TaskManager pod from the configuration and fails on an option before it asks the API server. {}\n\n\
                 The operator redeploys the cluster with the change.",
                remove_it(fd, o)
            )
        }
        None => format!(
            "The ResourceManager fails before any TaskManager pod exists, on: {short}. Fix what that exception names (the \
             configuration or pod template the TaskManagers are built from); the record and the exception:\n\n  {logs}"
        ),
    };
    f.fix(fix)
        .verify(format!(
            "{}   # expect {} TaskManager pod(s) Running",
            pods_verify(c, Component::TaskManager),
            needed.0
        ))
        .link(link::container(
            &failure.key.namespace,
            &failure.key.pod,
            &failure.key.container,
        ))
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

    /// The JobManager of a lab run (Flink 1.18.1, operator 1.7.0) whose FlinkDeployment set
    /// `kubernetes.taskmanager.memory.limit-factor: "0.5"`: its ResourceManager threw while it
    /// built the first TaskManager's pod, and the JobManager ran on with none (verbatim records).
    const LIMIT_FACTOR_LOG: &str = "2026-12-06 04:52:53,794 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Requesting new worker with resource spec WorkerResourceSpec {cpuCores=0.5, taskHeapSize=25.600mb (26843542 bytes)}, current pending count: 1.
2026-12-06 04:52:53,804 ERROR org.apache.flink.runtime.rpc.pekko.FencedPekkoRpcActor       [] - Caught exception while executing runnable in main thread.
java.lang.IllegalArgumentException: kubernetes.taskmanager.memory.limit-factor should be greater or equal to 1.
\tat org.apache.flink.util.Preconditions.checkArgument(Preconditions.java:160) ~[flink-core-1.18.1.jar:1.18.1]
\tat org.apache.flink.kubernetes.kubeclient.parameters.KubernetesTaskManagerParameters.getTaskManagerMemoryLimitFactor(KubernetesTaskManagerParameters.java:148) ~[flink-kubernetes-1.18.1.jar:1.18.1]
\tat org.apache.flink.kubernetes.KubernetesResourceManagerDriver.requestResource(KubernetesResourceManagerDriver.java:175) ~[flink-kubernetes-1.18.1.jar:1.18.1]
\tat org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager.requestNewWorker(ActiveResourceManager.java:508) ~[flink-runtime-1.18.1.jar:1.18.1]
\tat org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager.checkResourceDeclarations(ActiveResourceManager.java:395) ~[flink-runtime-1.18.1.jar:1.18.1]
";

    /// real-role-no-create's objects, its JobManager's logs replaced by LOG and its
    /// flinkConfiguration given CONF.
    fn operator_cluster_logging(log: &str, conf: &[(&str, &str)]) -> Snapshot {
        let mut s = crate::rules::testing::scenario("real-role-no-create");
        for v in s.logs.values_mut() {
            *v = log.to_string();
        }
        for fd in &mut s.flink_deployments {
            for (k, v) in conf {
                fd.spec
                    .flink_configuration
                    .insert(k.to_string(), v.to_string());
            }
        }
        s
    }

    #[test]
    fn an_option_the_resource_manager_throws_on_is_named_with_the_patch_that_removes_it() {
        let s = operator_cluster_logging(
            LIMIT_FACTOR_LOG,
            &[("kubernetes.taskmanager.memory.limit-factor", "0.5")],
        );
        let f = run(&TaskmanagersNotCreated, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::ConfigOptionInvalid);
        assert!(
            f.title.ends_with("fails to request them: Flink refuses flinkConfiguration kubernetes.taskmanager.memory.limit-factor (0.5)"),
            "{}",
            f.title
        );
        assert!(f.evidence.iter().any(|e| e.contains("L3, the exception: java.lang.IllegalArgumentException: kubernetes.taskmanager.memory.limit-factor should be greater or equal to 1.")), "{:?}", f.evidence);
        let r = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(
            r.run,
            vec![
                r#"kubectl patch flinkdeployment orders -n analytics --type=json -p '[{"op":"remove","path":"/spec/flinkConfiguration/kubernetes.taskmanager.memory.limit-factor"}]'"#
            ],
            "{}",
            f.fix
        );
    }

    #[test]
    fn an_exception_no_option_explains_is_quoted_and_one_outside_the_request_is_not_read() {
        let s = operator_cluster_logging(LIMIT_FACTOR_LOG, &[]);
        let f = run(&TaskmanagersNotCreated, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::NoSlots);
        assert!(f[0].fix.contains("on: java.lang.IllegalArgumentException: kubernetes.taskmanager.memory.limit-factor should be greater or equal to 1."), "{}", f[0].fix);
        assert!(f[0].fix.contains("| sed -n '2,8p'"), "{}", f[0].fix);
        // The same record without the ResourceManager in its stack is some other task's.
        let other = LIMIT_FACTOR_LOG
            .replace(
                "ActiveResourceManager.requestNewWorker",
                "Dispatcher.submitJob",
            )
            .replace(
                "KubernetesResourceManagerDriver.requestResource",
                "Dispatcher.runJob",
            );
        assert!(run(
            &TaskmanagersNotCreated,
            &operator_cluster_logging(&other, &[])
        )
        .is_empty());
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

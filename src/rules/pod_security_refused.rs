//! FLK110: Pod Security admission refuses Flink's pods: the namespace enforces a Pod Security
//! level (`pod-security.kubernetes.io/enforce`, e.g. `restricted`) that the pods' security
//! context does not meet, so no JobManager (or TaskManager) pod is ever created.
//!
//! The message lists each failed check with the containers and the field to set:
//! `pods "x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation !=
//! false (container "flink-main-container" must set securityContext.allowPrivilegeEscalation=false),
//! unrestricted capabilities (container "flink-main-container" must set
//! securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container
//! "flink-main-container" must set securityContext.runAsNonRoot=true), seccompProfile (pod or
//! container "flink-main-container" must set securityContext.seccompProfile.type to
//! "RuntimeDefault" or "Localhost")` (kubernetes/pod-security-admission@v0.24.0 and @v0.36.3:
//! admission/admission.go `EvaluatePod`, policy/checks.go `ForbiddenDetail`, and each
//! policy/check_*.go for its reason and detail). It is read where the pod's creator reports it
//! (`snapshot::refused`).
//!
//! The fix sets exactly the fields the message lists, on the containers it names, at the pod
//! template they come from: for a FlinkDeployment one merge patch of `spec.podTemplate` (shared
//! by the JobManager and the TaskManagers, which the namespace refuses alike) or of the
//! component's own template when the container is declared there, keeping every container the
//! template already has (a merge patch replaces a list whole). `runAsNonRoot` comes with
//! `runAsUser: 9999`, the official image's `flink` user: the image declares no `USER`, so the
//! kubelet would otherwise refuse to start it as root.

use super::support::containers::refusal_line;
use super::support::refused_since::{admitted_since, created_since, refused_earlier};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::{json_arg, sh};
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{deployment_ref, event_time};
use crate::snapshot::refused::{self, Denied, Violation, Where};
use crate::snapshot::{Index, Snapshot};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

pub struct PodSecurityRefused;

static META: RuleMeta = RuleMeta {
    id: "FLK110",
    name: "pod_security_refused",
    summary: "Pod Security admission refuses Flink's pods: the namespace's level asks for securityContext fields they do not set",
    category: Category::PodtemplateInvalid,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"set the securityContext fields the namespace's Pod Security level asks for in the pod template (runAsNonRoot, allowPrivilegeEscalation: false, capabilities drop ALL, seccompProfile RuntimeDefault), or give the namespace a level Flink's pods meet"#,
    verify: r#"kubectl get events --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming PodSecurity"#,
};

/// The official image's `flink` user and group (apache/flink-docker's Dockerfiles:
/// `groupadd --system --gid=9999 flink && useradd --system ... --uid=9999 --gid=flink flink`).
const FLINK_UID: i64 = 9999;

/// What the violations ask for: the pod's own securityContext, and each named container's.
#[derive(Debug, Default, PartialEq)]
struct Wanted {
    pod: Map<String, Value>,
    containers: BTreeMap<String, Map<String, Value>>,
    /// Checks no field can pass (privileged, host namespaces, hostPath, an added capability):
    /// a person removes what the pod asks for.
    by_hand: Vec<String>,
}

impl Wanted {
    fn from(violations: &[Violation]) -> Wanted {
        let mut w = Wanted::default();
        for v in violations {
            for clause in v.detail.split("; ") {
                w.clause(&v.reason, clause);
            }
        }
        w
    }

    fn clause(&mut self, reason: &str, clause: &str) {
        let (who, what) = match clause.split_once(" must ") {
            Some(x) => x,
            None => {
                self.by_hand.push(format!("{reason} ({clause})"));
                return;
            }
        };
        let names: Vec<String> = who
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        // `pod or container "c" must set ...`: once on the pod covers every container;
        // `pod and container "c" must not set ...`: both set it wrong.
        let pod = who.starts_with("pod");
        let either = who.starts_with("pod or ");
        let field: Option<(&str, Value)> =
            if what == "set securityContext.allowPrivilegeEscalation=false" {
                Some(("allowPrivilegeEscalation", json!(false)))
            } else if what == r#"set securityContext.capabilities.drop=["ALL"]"# {
                Some(("capabilities", json!({"drop": ["ALL"]})))
            } else if what.starts_with("set securityContext.runAsNonRoot=true")
                || what.starts_with("not set securityContext.runAsNonRoot=false")
            {
                Some(("runAsNonRoot", json!(true)))
            } else if what.starts_with("set securityContext.seccompProfile.type to")
                || what.starts_with("not set securityContext.seccompProfile.type to")
            {
                Some(("seccompProfile", json!({"type": "RuntimeDefault"})))
            } else if what.starts_with("not set runAsUser=0") {
                Some(("runAsUser", json!(FLINK_UID)))
            } else {
                None
            };
        let Some((key, value)) = field else {
            self.by_hand.push(format!("{reason} ({clause})"));
            return;
        };
        let put = |m: &mut Map<String, Value>| {
            m.insert(key.to_string(), value.clone());
            if key == "runAsNonRoot" {
                m.insert("runAsUser".into(), json!(FLINK_UID));
            }
        };
        // runAsNonRoot, runAsUser and seccompProfile exist on the pod as well;
        // allowPrivilegeEscalation and capabilities on containers only.
        let on_pod = matches!(key, "runAsNonRoot" | "seccompProfile" | "runAsUser");
        if on_pod && pod {
            put(&mut self.pod);
        }
        if !(on_pod && either) {
            for n in names {
                put(self.containers.entry(n).or_default());
            }
        }
    }
}

/// One refusal: where, for which Flink deployment, and what it asks for.
struct Refusal<'a> {
    namespace: String,
    fd: Option<&'a FlinkDeployment>,
    policy: String,
    violations: Vec<Violation>,
    evidence: Vec<String>,
    pods: Vec<String>,
    taskmanager: bool,
    /// When the last refusal was: `None` before any is read, `Some(None)` once one is read that
    /// says no time (a condition, a log line).
    last: Option<Option<chrono::DateTime<chrono::Utc>>>,
}

impl Rule for PodSecurityRefused {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        let mut found: Vec<Refusal> = Vec::new();
        for d in refused::denials(s) {
            let Denied::PodSecurity { policy, violations } = &d.denial.what else {
                continue;
            };
            let pod = d.denial.pod.as_deref().unwrap_or("");
            let owner = refused::owner_name(&d.source);
            let fd = refused::flink_deployment_for(s, d.namespace, &[owner, pod]);
            let line = refusal_line(&d.source, d.message);
            let key = d.denial.key();
            let i = match found.iter().position(|r| {
                r.namespace == d.namespace
                    && r.fd.map(|f| f.name()) == fd.map(|f| f.name())
                    && format!("podsecurity:{}:{}", r.policy, joined(&r.violations)) == key
            }) {
                Some(i) => i,
                None => {
                    found.push(Refusal {
                        namespace: d.namespace.to_string(),
                        fd,
                        policy: policy.clone(),
                        violations: violations.clone(),
                        evidence: Vec::new(),
                        pods: Vec::new(),
                        taskmanager: false,
                        last: None,
                    });
                    found.len() - 1
                }
            };
            let r = &mut found[i];
            // Only an event says when; a condition or a log line leaves it unknown for good.
            r.last = match (&d.source, r.last) {
                (Where::Event(e), Some(Some(t))) => Some(event_time(e).map(|e| e.max(t))),
                (Where::Event(e), None) => Some(event_time(e)),
                _ => Some(None),
            };
            r.taskmanager |= matches!(d.source, Where::Log { .. }) || pod.contains("-taskmanager-");
            if !r.evidence.contains(&line) && r.evidence.len() < 4 {
                r.evidence.push(line);
            }
            if !pod.is_empty() && !r.pods.iter().any(|p| p == pod) {
                r.pods.push(pod.to_string());
            }
        }
        found.into_iter().map(|r| finding(s, r)).collect()
    }
}

fn joined(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(|v| format!("{} ({})", v.reason, v.detail))
        .collect::<Vec<_>>()
        .join(", ")
}

fn finding(s: &Snapshot, r: Refusal) -> Finding {
    let ns = r.namespace.as_str();
    let who = if r.taskmanager {
        "TaskManager"
    } else {
        "JobManager"
    };
    let level = r.policy.split(':').next().unwrap_or(&r.policy);
    let object = match r.fd {
        Some(fd) => deployment_ref(fd),
        None => ObjectRef::new("Namespace", None, ns),
    };
    let mut f = Finding::new(
        &META,
        object,
        format!(
            "Pod Security \"{}\" of namespace {ns} refuses the {who} pods: {}",
            r.policy,
            r.violations
                .iter()
                .map(|v| v.reason.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .deployment(r.fd.map(deployment_ref));
    if let Some(label) = namespace_label(s, ns) {
        f = f.evidence(label);
    }
    for v in &r.violations {
        f = f.evidence(format!("{}: {}", v.reason, v.detail));
    }
    for e in &r.evidence {
        f = f.evidence(e.clone());
    }
    if !r.pods.is_empty() {
        f = f.evidence(format!("pods refused: {}", r.pods.join(", ")));
    }
    // Refused earlier: a pod of that component runs now, the deployment is up (the fields were
    // set since; the refusal's events outlive the fix).
    if let Some(up) = r.fd.and_then(|fd| created_since(s, ns, fd, who, &r.pods)) {
        return refused_earlier(
            f,
            &format!("a {who} pod runs now"),
            up,
            format!(
                "Nothing to change: the {who} pods Pod Security refused were created since with the fields it asks for, and the deployment is up."
            ),
            format!(
                "kubectl get events -n {} --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming PodSecurity",
                sh(ns)
            ),
        );
    }
    // Refused earlier still: a pod of that component was admitted after the last refusal, so the
    // template it has now passes; the deployment is still coming up.
    let admitted =
        r.fd.zip(r.last.flatten())
            .and_then(|(fd, last)| admitted_since(s, ns, fd, who, &r.pods, last));
    if let Some(since) = admitted {
        return refused_earlier(
            f,
            &format!("a {who} pod was admitted since"),
            since,
            format!(
                "Nothing to change: Pod Security admitted a {who} pod of the template the deployment has now; wait for it to come up."
            ),
            format!(
                "kubectl get events -n {} --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming PodSecurity",
                sh(ns)
            ),
        );
    }
    let wanted = Wanted::from(&r.violations);
    let by_hand = if wanted.by_hand.is_empty() {
        String::new()
    } else {
        format!(
            "\n\nNo field passes these; remove what the pod template asks for: {}",
            wanted.by_hand.join("; ")
        )
    };
    let uid = if wanted.pod.contains_key("runAsUser")
        || wanted
            .containers
            .values()
            .any(|c| c.contains_key("runAsUser"))
    {
        format!(
            " runAsUser {FLINK_UID} is the official Flink image's `flink` user: without it the kubelet refuses runAsNonRoot for an image that declares no USER."
        )
    } else {
        String::new()
    };
    let fix = match r.fd {
        Some(fd) => {
            let patch = patch(fd, &wanted);
            format!(
                "Namespace {ns} enforces Pod Security level {level}. Set the fields it lists on the FlinkDeployment's pod templates (the operator redeploys the JobManager and TaskManagers with them).{uid}\n\n  \
                 kubectl patch flinkdeployment {} -n {} --type=merge -p {}{by_hand}",
                sh(fd.name()),
                sh(ns),
                json_arg(&patch)
            )
        }
        None => format!(
            "Namespace {ns} enforces Pod Security level {level}. Set the fields it lists in the pod template the {who} is created from (native Flink: the file of kubernetes.pod-template-file.default):{uid}\n\n{}{by_hand}",
            template_yaml(&wanted)
        ),
    };
    let verify = format!(
        "kubectl get events -n {} --field-selector reason=FailedCreate --sort-by=.lastTimestamp   # expect no new FailedCreate naming PodSecurity",
        sh(ns)
    );
    f.fix(fix).verify(verify)
}

/// The namespace's Pod Security labels, as evidence, when the snapshot read the namespace.
fn namespace_label(s: &Snapshot, ns: &str) -> Option<String> {
    let n = s
        .namespaces_objects
        .iter()
        .find(|n| n.metadata.name.as_deref() == Some(ns))?;
    let labels = n.metadata.labels.as_ref()?;
    let psa: Vec<String> = labels
        .iter()
        .filter(|(k, _)| k.starts_with("pod-security.kubernetes.io/"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    (!psa.is_empty()).then(|| format!("Namespace {ns} labels: {}", psa.join(", ")))
}

/// A container's name and the securityContext fields it is to get.
type Named<'a> = (&'a String, &'a Map<String, Value>);

/// The merge patch of the FlinkDeployment that sets what `w` asks for. A named container lives
/// in the template that declares it (spec.podTemplate first, then the components'); one that
/// none declares (the main container, which the operator adds) and the pod's own fields go to
/// spec.podTemplate, which the JobManager and the TaskManagers share. Each template's
/// containers are written whole, since a merge patch replaces a list.
fn patch(fd: &FlinkDeployment, w: &Wanted) -> Value {
    let templates = fd.pod_templates();
    let home = |name: &str| -> &'static str {
        templates
            .iter()
            .find(|(_, t)| {
                t.spec.as_ref().is_some_and(|s| {
                    s.containers
                        .iter()
                        .chain(s.init_containers.iter())
                        .any(|c| c.name == name)
                })
            })
            .map(|(path, _)| *path)
            .unwrap_or("spec.podTemplate")
    };
    let mut by_path: BTreeMap<&'static str, Vec<Named>> = BTreeMap::new();
    for (name, fields) in &w.containers {
        by_path.entry(home(name)).or_default().push((name, fields));
    }
    if !w.pod.is_empty() {
        by_path.entry("spec.podTemplate").or_default();
    }
    let mut spec = Map::new();
    for (path, named) in by_path {
        let template = templates
            .iter()
            .find(|(p, _)| *p == path)
            .and_then(|(_, t)| t.spec.as_ref());
        let mut tspec = Map::new();
        if path == "spec.podTemplate" && !w.pod.is_empty() {
            tspec.insert("securityContext".into(), Value::Object(w.pod.clone()));
        }
        for (list, existing) in [
            ("containers", template.map(|t| &t.containers)),
            ("initContainers", template.map(|t| &t.init_containers)),
        ] {
            let mut items: Vec<Value> = existing
                .into_iter()
                .flatten()
                .map(|c| serde_json::to_value(c).unwrap_or_default())
                .collect();
            let mut touched = false;
            for (name, fields) in &named {
                let at = items.iter().position(|c| c["name"] == name.as_str());
                match at {
                    Some(i) => {
                        merge_security(&mut items[i], fields);
                        touched = true;
                    }
                    // Undeclared: the main container (or a container of another template) goes
                    // into the containers list.
                    None if list == "containers"
                        && !template.is_some_and(|t| {
                            t.init_containers.iter().any(|c| &c.name == *name)
                        }) =>
                    {
                        let mut c = json!({"name": name});
                        merge_security(&mut c, fields);
                        items.push(c);
                        touched = true;
                    }
                    None => {}
                }
            }
            if touched {
                tspec.insert(list.into(), Value::Array(items));
            }
        }
        let mut at = &mut spec;
        let keys: Vec<&str> = path.split('.').skip(1).collect();
        for k in &keys {
            at = at
                .entry(k.to_string())
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .expect("built as objects");
        }
        at.insert("spec".into(), Value::Object(tspec));
    }
    json!({ "spec": spec })
}

fn merge_security(container: &mut Value, fields: &Map<String, Value>) {
    let sc = container
        .as_object_mut()
        .map(|c| {
            c.entry("securityContext")
                .or_insert_with(|| Value::Object(Map::new()))
        })
        .and_then(Value::as_object_mut);
    if let Some(sc) = sc {
        for (k, v) in fields {
            sc.insert(k.clone(), v.clone());
        }
    }
}

/// What `w` asks for as a pod template's YAML, for a person to merge into theirs.
fn template_yaml(w: &Wanted) -> String {
    let mut spec = Map::new();
    if !w.pod.is_empty() {
        spec.insert("securityContext".into(), Value::Object(w.pod.clone()));
    }
    if !w.containers.is_empty() {
        let list: Vec<Value> = w
            .containers
            .iter()
            .map(|(n, f)| {
                let mut c = json!({"name": n});
                merge_security(&mut c, f);
                c
            })
            .collect();
        spec.insert("containers".into(), Value::Array(list));
    }
    serde_yaml::to_string(&json!({ "spec": spec })).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Remedy;
    use crate::rules::testing::{run, scenario, snapshot, HEALTHY_SCENARIOS};

    /// The refusal of a restricted namespace, word for word what pod-security-admission writes
    /// for the operator's JobManager pod (a ReplicaSet's FailedCreate event).
    const MESSAGE: &str = r#"Error creating: pods "orders-6d5f7c9b8-x2x4q" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (containers "flink-main-container", "fetch-jar" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "flink-main-container", "fetch-jar" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or containers "flink-main-container", "fetch-jar" must set securityContext.runAsNonRoot=true), seccompProfile (pod or containers "flink-main-container", "fetch-jar" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")"#;

    fn bundle(message: &str) -> String {
        format!(
            r#"
apiVersion: v1
kind: Namespace
metadata:
  name: analytics
  labels: {{pod-security.kubernetes.io/enforce: restricted}}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: "flink:1.20"
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager:
    resource: {{memory: 2048m, cpu: 1}}
    podTemplate:
      spec:
        initContainers:
        - name: fetch-jar
          image: busybox:1.36
          command: [wget, -O, /opt/flink/usrlib/job.jar, "https://example.org/job.jar"]
  podTemplate:
    spec:
      containers:
      - name: flink-main-container
        volumeMounts:
        - {{name: data, mountPath: /data}}
  job: {{jarURI: "local:///opt/flink/usrlib/job.jar", upgradeMode: stateless}}
---
apiVersion: v1
kind: Event
metadata: {{name: orders-6d5f7c9b8.1, namespace: analytics}}
involvedObject: {{kind: ReplicaSet, namespace: analytics, name: orders-6d5f7c9b8}}
reason: FailedCreate
type: Warning
count: 9
lastTimestamp: "2026-12-01T10:00:00Z"
message: '{}'
"#,
            message.replace('\'', "''")
        )
    }

    #[test]
    fn a_refusal_is_history_once_the_fixed_pods_run_and_the_deployment_is_up() {
        // What the lab's pod-security heal left: the fields set, the job RUNNING, the refusal's
        // events still there.
        let up = bundle(MESSAGE).replacen(
            "  job: {jarURI: \"local:///opt/flink/usrlib/job.jar\", upgradeMode: stateless}\n",
            "  job: {jarURI: \"local:///opt/flink/usrlib/job.jar\", upgradeMode: stateless}\n\
             status: {jobManagerDeploymentStatus: READY, lifecycleState: STABLE, jobStatus: {state: RUNNING}}\n\
             ---\n\
             apiVersion: v1\n\
             kind: Pod\n\
             metadata: {name: orders-7f667fb7d4-lv2gp, namespace: analytics, labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}}\n\
             spec: {containers: [{name: flink-main-container, image: \"flink:1.20\"}]}\n\
             status: {phase: Running}\n",
            1,
        );
        let f = run(&PodSecurityRefused, &snapshot(&up));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info, "{f:#?}");
        assert!(f[0].title.contains("refused earlier"), "{}", f[0].title);
        // Still refused while the deployment is not up.
        let f = run(&PodSecurityRefused, &snapshot(&bundle(MESSAGE)));
        assert_eq!(f[0].severity, Severity::Critical);
    }

    #[test]
    fn a_refusal_is_history_once_a_pod_of_the_component_was_admitted_after_it() {
        // What the lab's pod-security heal on operator 1.10.0 saw in its third round: the fields
        // set, a JobManager pod of the new template Running (not ready yet), the deployment still
        // DEPLOYING, the old template's refusals still there.
        let pod = |created: &str| {
            bundle(MESSAGE)
                + &format!(
                    "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: orders-7559994d6c-94hd2, namespace: analytics, creationTimestamp: \"{created}\", labels: {{app: orders, component: jobmanager, type: flink-native-kubernetes}}}}\nspec: {{containers: [{{name: flink-main-container, image: \"flink:1.20\"}}]}}\nstatus: {{phase: Running}}\n"
                )
        };
        let f = run(&PodSecurityRefused, &snapshot(&pod("2026-12-01T10:00:40Z")));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info, "{f:#?}");
        assert!(
            f[0].title
                .contains("refused earlier; a JobManager pod was admitted since"),
            "{}",
            f[0].title
        );
        assert!(
            f[0].evidence.iter().any(|e| e == "JobManager pod orders-7559994d6c-94hd2 was created at 2026-12-01T10:00:40Z (admitted), after the last refusal at 2026-12-01T10:00:00Z"),
            "{:#?}",
            f[0].evidence
        );
        // A pod from before the refusal (an older template, still running) proves nothing.
        let f = run(&PodSecurityRefused, &snapshot(&pod("2026-12-01T09:50:00Z")));
        assert_eq!(f[0].severity, Severity::Critical, "{f:#?}");
    }

    #[test]
    fn the_message_is_read_into_its_checks() {
        let d = refused::Denial::parse(MESSAGE).unwrap();
        assert_eq!(d.pod.as_deref(), Some("orders-6d5f7c9b8-x2x4q"));
        let Denied::PodSecurity { policy, violations } = d.what else {
            panic!("{d:?}")
        };
        assert_eq!(policy, "restricted:latest");
        let reasons: Vec<&str> = violations.iter().map(|v| v.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "allowPrivilegeEscalation != false",
                "unrestricted capabilities",
                "runAsNonRoot != true",
                "seccompProfile"
            ]
        );
        assert_eq!(
            violations[1].detail,
            r#"containers "flink-main-container", "fetch-jar" must set securityContext.capabilities.drop=["ALL"]"#
        );
        // A JobManager's log line for a TaskManager pod: escaped quotes, a tail after it.
        let log = r#"Could not create pod orders-taskmanager-1-1, exception: ... Message: pods \"orders-taskmanager-1-1\" is forbidden: violates PodSecurity \"baseline:v1.30\": privileged (container \"flink-main-container\" must not set securityContext.privileged=true). Received status: Status(code=403)"#;
        let d = refused::Denial::parse(log).unwrap();
        assert_eq!(d.pod.as_deref(), Some("orders-taskmanager-1-1"));
        let Denied::PodSecurity { policy, violations } = d.what else {
            panic!()
        };
        assert_eq!(policy, "baseline:v1.30");
        assert_eq!(violations.len(), 1);
        assert_eq!(
            violations[0].detail,
            r#"container "flink-main-container" must not set securityContext.privileged=true"#
        );
    }

    #[test]
    fn the_fix_sets_exactly_the_listed_fields_where_each_container_is_declared() {
        let f = run(&PodSecurityRefused, &snapshot(&bundle(MESSAGE)));
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(
            f.object,
            ObjectRef::namespaced("FlinkDeployment", "analytics", "orders")
        );
        assert!(f.title.starts_with(
            "Pod Security \"restricted:latest\" of namespace analytics refuses the JobManager pods: allowPrivilegeEscalation != false"
        ), "{}", f.title);
        assert!(f.evidence.contains(
            &"Namespace analytics labels: pod-security.kubernetes.io/enforce=restricted"
                .to_string()
        ));
        let r = Remedy::from_fix(&f.fix);
        assert_eq!(r.run.len(), 1, "{}", f.fix);
        let json = r.run[0]
            .split_once(" -p '")
            .map(|(_, p)| p.trim_end_matches('\''))
            .unwrap();
        let p: Value = serde_json::from_str(json).unwrap();
        // The pod's own fields, once, on the template both components share.
        assert_eq!(
            p["spec"]["podTemplate"]["spec"]["securityContext"],
            json!({"runAsNonRoot": true, "runAsUser": 9999, "seccompProfile": {"type": "RuntimeDefault"}})
        );
        // The main container keeps its volume mount, and gets the container-only fields.
        let main = &p["spec"]["podTemplate"]["spec"]["containers"][0];
        assert_eq!(main["name"], "flink-main-container");
        assert_eq!(main["volumeMounts"][0]["mountPath"], "/data");
        assert_eq!(
            main["securityContext"],
            json!({"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}})
        );
        // The init container where it is declared: the JobManager's template, kept whole.
        let init = &p["spec"]["jobManager"]["podTemplate"]["spec"]["initContainers"][0];
        assert_eq!(init["name"], "fetch-jar");
        assert_eq!(init["image"], "busybox:1.36");
        assert_eq!(init["securityContext"]["allowPrivilegeEscalation"], false);
        assert!(p["spec"]["jobManager"]["podTemplate"]["spec"]
            .get("containers")
            .is_none());
        assert!(f.verify.contains("reason=FailedCreate"));
    }

    #[test]
    fn who_must_set_it_decides_where_it_is_set() {
        let v = |reason: &str, detail: &str| Violation {
            reason: reason.into(),
            detail: detail.into(),
        };
        // Set wrong on the pod and on a container: both are corrected.
        let w = Wanted::from(&[v(
            "runAsNonRoot != true",
            r#"pod and container "c" must not set securityContext.runAsNonRoot=false"#,
        )]);
        assert_eq!(w.pod["runAsNonRoot"], true);
        assert_eq!(w.containers["c"]["runAsNonRoot"], true);
        // Either will do: the pod, once.
        let w = Wanted::from(&[v(
            "seccompProfile",
            r#"pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost""#,
        )]);
        assert_eq!(w.pod["seccompProfile"], json!({"type": "RuntimeDefault"}));
        assert!(w.containers.is_empty());
        // Two clauses of one check, joined by "; ".
        let w = Wanted::from(&[v(
            "unrestricted capabilities",
            r#"container "a" must set securityContext.capabilities.drop=["ALL"]; container "b" must not include "SYS_ADMIN" in securityContext.capabilities.add"#,
        )]);
        assert_eq!(w.containers["a"]["capabilities"], json!({"drop": ["ALL"]}));
        assert_eq!(w.by_hand.len(), 1, "{:?}", w.by_hand);
        assert!(w.by_hand[0].contains("SYS_ADMIN"));
    }

    #[test]
    fn every_detail_form_of_the_supported_releases_builds_its_field() {
        // The refusal as Pod Security admission writes it, the same in every release checked:
        // `violates PodSecurity %q: %s` (admission/admission.go), the reasons joined by ", " with
        // each detail in parentheses (policy/checks.go, ForbiddenDetail), and the details of the
        // restricted checks: `%s %s must set securityContext.allowPrivilegeEscalation=false`,
        // `%s %s must set securityContext.capabilities.drop=["ALL"]` (clauses joined by "; "),
        // `pod or %s %s must set securityContext.runAsNonRoot=true`, `%s must not set
        // securityContext.runAsNonRoot=false` (setters joined by " and "), `pod or %s %s must set
        // securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`, `%s must not
        // set securityContext.seccompProfile.type to %s`, `%s must not set runAsUser=0`:
        // kubernetes/pod-security-admission@v0.24.0, @v0.27.0, @v0.30.0, @v0.33.0 and @v0.36.0
        // (Kubernetes 1.24 to 1.36): policy/check_allowPrivilegeEscalation.go,
        // check_capabilities_restricted.go, check_runAsNonRoot.go, check_seccompProfile_restricted.go,
        // check_runAsUser.go.
        let msg = r#"Error creating: pods "orders-5df7cd8768-abcde" is forbidden: violates PodSecurity "restricted:v1.36": allowPrivilegeEscalation != false (containers "flink-main-container", "fetch" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "flink-main-container" must set securityContext.capabilities.drop=["ALL"]; container "fetch" must not include "NET_ADMIN" in securityContext.capabilities.add), runAsNonRoot != true (pod and container "fetch" must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0), seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")"#;
        let d = crate::snapshot::refused::Denial::parse(msg).expect("a Pod Security denial");
        let Denied::PodSecurity { policy, violations } = d.what else {
            panic!("{d:?}")
        };
        assert_eq!(policy, "restricted:v1.36");
        let reasons: Vec<&str> = violations.iter().map(|v| v.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "allowPrivilegeEscalation != false",
                "unrestricted capabilities",
                "runAsNonRoot != true",
                "runAsUser=0",
                "seccompProfile"
            ]
        );
        let w = Wanted::from(&violations);
        for c in ["flink-main-container", "fetch"] {
            assert_eq!(w.containers[c]["allowPrivilegeEscalation"], false, "{c}");
        }
        assert_eq!(
            w.containers["flink-main-container"]["capabilities"],
            json!({"drop": ["ALL"]})
        );
        assert_eq!(w.containers["fetch"]["runAsNonRoot"], true);
        assert_eq!(w.pod["runAsNonRoot"], true);
        assert_eq!(w.pod["runAsUser"], json!(FLINK_UID));
        assert_eq!(w.pod["seccompProfile"], json!({"type": "RuntimeDefault"}));
        // What no field passes (a capability the pod adds) is left to a person, by name.
        assert_eq!(w.by_hand.len(), 1, "{:?}", w.by_hand);
        assert!(w.by_hand[0].contains("NET_ADMIN"), "{:?}", w.by_hand);
    }

    #[test]
    fn a_check_no_field_passes_is_left_to_a_person_by_name() {
        let msg = r#"Error creating: pods "orders-6d5f7c9b8-x2x4q" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)"#;
        let f = run(&PodSecurityRefused, &snapshot(&bundle(msg)));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].fix.contains(
                "remove what the pod template asks for: host namespaces (hostNetwork=true)"
            ),
            "{}",
            f[0].fix
        );
    }

    #[test]
    fn silent_on_other_refusals_and_healthy_scenarios() {
        let quota = r#"Error creating: pods "orders-6d5f7c9b8-x2x4q" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=7Gi, limited: limits.memory=8Gi"#;
        assert!(run(&PodSecurityRefused, &snapshot(&bundle(quota))).is_empty());
        for name in HEALTHY_SCENARIOS {
            assert!(
                run(&PodSecurityRefused, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

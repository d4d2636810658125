//! FLK504: the JobManager of a native-mode cluster runs without its ServiceAccount's token, so its
//! Kubernetes client has no credentials (and no CA) for the API server: the ResourceManager never
//! starts, no TaskManager is created, and the JobManager dies on the timeout.
//!
//! Flink's Kubernetes client (fabric8) reads the token and the CA from the files the kubelet
//! mounts at `/var/run/secrets/kubernetes.io/serviceaccount` (`Config.autoConfigure`,
//! fabric8io/kubernetes-client@v6.6.2: kubernetes-client-api/.../Config.java,
//! `KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH`; the client Flink 1.18 shades). The ServiceAccount
//! admission plugin mounts them unless `automountServiceAccountToken` is false on the pod or,
//! with the pod silent, on its ServiceAccount (kubernetes/kubernetes@v1.36.3:
//! plugin/pkg/admission/serviceaccount/admission.go, `shouldAutomount`). In the lab (Flink 1.18.1,
//! operator 1.7.0) the JobManager logged `Starting the resource manager.` and nothing from it
//! after, and exited 239.
//!
//! Only when the cluster shows it (a JobManager restarted or not ready, or fewer TaskManagers than
//! the job needs) and no container of the template mounts a token by hand at that path.

use super::support::modes::{ceil_div, parallelism, pods_verify, slots};
use super::support::pod_status::containers;
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, Severity};
use crate::flink::mode::Component;
use crate::shell::{json_arg, sh};
use crate::snapshot::flink::{FlinkDeployment, PodTemplate};
use crate::snapshot::index::{Cluster, Index};
use crate::snapshot::Snapshot;

pub struct ServiceAccountTokenUnmounted;

static META: RuleMeta = RuleMeta {
    id: "FLK504",
    name: "service_account_token_unmounted",
    summary: "a native-mode JobManager runs without its ServiceAccount token, so it cannot talk to Kubernetes",
    category: Category::SaTokenUnreadable,
    severity: Severity::Critical,
    explains: &["FLK103", "FLK201", "FLK401"],
    fix: r#"let the JobManager's pods mount their ServiceAccount token: take automountServiceAccountToken: false out of the pod template (or the ServiceAccount)"#,
    verify: r#"kubectl get pods -l component=jobmanager -o custom-columns=NAME:.metadata.name,AUTOMOUNT:.spec.automountServiceAccountToken   # expect true, or nothing set"#,
};

/// Where the mount is turned off.
enum Off<'a> {
    /// A pod template of the FlinkDeployment, by JSON path.
    Template(&'a FlinkDeployment, &'static str),
    /// The ServiceAccount the JobManager runs as, the templates silent.
    Account(String),
}

/// Where the mount path of the token is: a container that mounts a volume there has one by hand.
const TOKEN_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

impl Rule for ServiceAccountTokenUnmounted {
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
            let sa = c.jobmanager_service_account(&conf);
            let Some(off) = turned_off(s, c, &sa) else {
                continue;
            };
            let Some(shows) = shows_it(c, index) else {
                continue;
            };
            out.push(finding(c, off, &sa, shows));
        }
        out
    }
}

/// Whether the JobManager's pods go without the token: the JobManager's template (which the
/// operator merges over spec.podTemplate) decides, then spec.podTemplate, then the account.
fn turned_off<'a>(s: &Snapshot, c: &Cluster<'a>, sa: &str) -> Option<Off<'a>> {
    if let Some(fd) = c.flink_deployment {
        let templates = fd.pod_templates();
        let jm = templates
            .iter()
            .filter(|(path, _)| *path != "spec.taskManager.podTemplate")
            .rev()
            .find(|(_, t)| automount(t).is_some());
        if let Some((path, t)) = jm {
            return (automount(t) == Some(false) && !mounts_by_hand(t))
                .then_some(Off::Template(fd, path));
        }
    }
    let ns = c.namespace();
    let account = s.service_accounts.iter().find(|a| {
        a.metadata.namespace.as_deref() == Some(ns) && a.metadata.name.as_deref() == Some(sa)
    })?;
    (account.automount_service_account_token == Some(false)).then(|| Off::Account(sa.to_string()))
}

fn automount(t: &PodTemplate) -> Option<bool> {
    t.spec.as_ref()?.automount_service_account_token
}

fn mounts_by_hand(t: &PodTemplate) -> bool {
    t.spec.iter().flat_map(|s| &s.containers).any(|c| {
        c.volume_mounts
            .iter()
            .flatten()
            .any(|m| m.mount_path.trim_end_matches('/') == TOKEN_DIR)
    })
}

/// What shows the cluster is hurt: a JobManager container restarted or not ready, or fewer
/// TaskManagers than the job needs.
fn shows_it(c: &Cluster, index: &Index) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for p in &c.jobmanager_pods {
        for v in containers(p) {
            if v.restart_count() > 0 || !v.status.ready {
                out.push(format!(
                    "JobManager pod {} container {}: restartCount={} ready={}",
                    p.metadata.name.as_deref().unwrap_or(""),
                    v.name(),
                    v.restart_count(),
                    v.status.ready
                ));
            }
        }
    }
    let conf = index.conf(c);
    let (per, _) = slots(c, &conf);
    if let Some((p, from)) = parallelism(c, &conf) {
        let needed = ceil_div(p, per).max(1);
        let live = c.live_taskmanager_pods().len() as i64;
        if live < needed {
            out.push(format!(
                "{live} TaskManager pod(s); the job needs {needed} ({from})"
            ));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn finding(c: &Cluster, off: Off, sa: &str, shows: Vec<String>) -> Finding {
    let ns = c.namespace();
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        "the JobManager runs without its ServiceAccount token (automountServiceAccountToken: false): Flink's Kubernetes client cannot reach the API server, so no TaskManager is created",
    )
    .deployment(Some(c.reference.clone()));
    let (evidence, fix, verify) = match off {
        Off::Template(fd, path) => {
            let keys: Vec<&str> = path.split('.').chain(["spec", "automountServiceAccountToken"]).collect();
            let pointer = crate::shell::pointer(&keys);
            let patch = serde_json::json!([{"op": "remove", "path": pointer}]);
            (
                format!("FlinkDeployment {} sets {path}.spec.automountServiceAccountToken: false", fd.name()),
                format!(
                    "Native mode's JobManager talks to Kubernetes as ServiceAccount {sa} (it creates the TaskManager pods and watches them), \
                     with the token and CA the kubelet mounts at {TOKEN_DIR}. Let the pods mount them (the operator redeploys with the change):\n\n  \
                     kubectl patch flinkdeployment {} -n {} --type=json -p {}",
                    sh(fd.name()),
                    sh(ns),
                    json_arg(&patch)
                ),
                format!(
                    "kubectl get pods -n {} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}} {{.spec.volumes[*].name}}{{\"\\n\"}}{{end}}'   # expect a kube-api-access volume\n{}   # expect the TaskManagers Running",
                    sh(ns),
                    sh(&c.selector(Component::JobManager)),
                    pods_verify(c, Component::TaskManager)
                ),
            )
        }
        Off::Account(name) => (
            format!("ServiceAccount {name} in namespace {ns} sets automountServiceAccountToken: false, and the JobManager's pod template does not set it"),
            format!(
                "Native mode's JobManager talks to Kubernetes as ServiceAccount {name}, with the token and CA the kubelet mounts at {TOKEN_DIR}; \
                 the account turns that mount off. Turn it on for the account (or set automountServiceAccountToken: true in the JobManager's pod template), then restart the JobManager:\n\n  \
                 kubectl patch serviceaccount {} -n {} --type=merge -p '{{\"automountServiceAccountToken\":true}}'",
                sh(&name),
                sh(ns)
            ),
            format!(
                "kubectl get serviceaccount {} -n {} -o jsonpath='{{.automountServiceAccountToken}}{{\"\\n\"}}'   # expect true\n{}   # expect the TaskManagers Running",
                sh(&name),
                sh(ns),
                pods_verify(c, Component::TaskManager)
            ),
        ),
    };
    f = f.evidence(evidence);
    for e in shows {
        f = f.evidence(e);
    }
    f.fix(fix)
        .verify(verify)
        .link(link::service_account(ns, sa))
}

#[cfg(test)]
mod tests;

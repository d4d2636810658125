//! FLK102: a container exits 0 yet is restarted (restartPolicy Always): it has nothing to do.
//! A symptom: the usual cause is a misnamed main container kept as a sidecar (FLK101).

use super::support::pod_status::{containers, restart_policy};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::snapshot::index::{pod_name, pod_namespace};
use crate::snapshot::{Index, Snapshot};

pub struct ContainerExitZeroRestarting;

static META: RuleMeta = RuleMeta {
    id: "FLK102",
    name: "container_exit_zero_restarting",
    summary: "a container exits 0 and is restarted forever (symptom)",
    category: Category::ContainerExitZeroRestarting,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"give the container something to keep running, move a setup step that finishes to initContainers, or remove the container from the pod template"#,
    verify: r#"kubectl get pod <pod> -o jsonpath='{range .status.containerStatuses[*]}{.name} restarts={.restartCount}{"\n"}{end}'   # expect the counts to stop growing"#,
};

impl Rule for ContainerExitZeroRestarting {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for pod in &snapshot.pods {
            if restart_policy(pod) != "Always" {
                continue;
            }
            let (ns, name) = (pod_namespace(pod), pod_name(pod));
            for c in containers(pod).into_iter().filter(|c| !c.init) {
                let Some(t) = c.last_termination() else {
                    continue;
                };
                if t.exit_code != 0 || c.restart_count() == 0 {
                    continue;
                }
                let mut f = Finding::new(
                    &META,
                    ObjectRef::namespaced("Pod", ns, name),
                    format!(
                        "container `{}` exits 0 and is restarted forever ({} restarts)",
                        c.name(),
                        c.restart_count()
                    ),
                )
                .deployment(index.deployment_of_pod(pod))
                .evidence(format!(
                    "containerStatuses[{}]: last terminated with exitCode=0 reason={}, restartCount={}{}",
                    c.name(),
                    t.reason.as_deref().unwrap_or("-"),
                    c.restart_count(),
                    c.waiting_reason().map(|r| format!(", now {r}")).unwrap_or_default()
                ))
                .evidence(match c.command() {
                    Some(cmd) => format!("container `{}` runs `{cmd}`", c.name()),
                    None => format!(
                        "container `{}` has no command: the image's default entrypoint runs and returns",
                        c.name()
                    ),
                })
                .fix(format!(
                    "A container under restartPolicy Always must keep running. If `{}` was meant to be \
                     Flink's main container, name it flink-main-container in the pod template; if it is a \
                     sidecar, give it a long-running command, or remove it.",
                    c.name()
                ))
                .verify(format!(
                    "kubectl get pod {name} -n {ns} -o jsonpath='{{range .status.containerStatuses[*]}}{{.name}} restarts={{.restartCount}}{{\"\\n\"}}{{end}}'"
                ))
                .link(link::container_name(c.name()))
                .link(link::container(ns, name, c.name()));
                if let Some(img) = c.spec.and_then(|s| s.image.as_deref()) {
                    f = f.evidence(format!("image: {img}"));
                }
                out.push(f);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const SIDECAR_LOOP: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-7c9d-x1
  namespace: prod
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers:
  - {name: flink-main-container, image: flink:1.20}
  - {name: flink-job-manager, image: flink:1.20}
status:
  phase: Running
  containerStatuses:
  - name: flink-job-manager
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 12
    state: {waiting: {reason: CrashLoopBackOff, message: back-off 5m0s restarting failed container}}
    lastState: {terminated: {exitCode: 0, reason: Completed}}
"#;

    #[test]
    fn fires_on_a_container_that_exits_zero_and_restarts() {
        let f = run(&ContainerExitZeroRestarting, &snapshot(SIDECAR_LOOP));
        assert_eq!(f.len(), 1);
        assert!(f[0].evidence[0]
            .contains("exitCode=0 reason=Completed, restartCount=12, now CrashLoopBackOff"));
        assert!(f[0].evidence[1].contains("has no command"));
        assert!(f[0]
            .links
            .contains(&link::container_name("flink-job-manager")));
    }

    #[test]
    fn silent_on_healthy_pods_and_on_finished_jobs_that_are_not_restarted() {
        assert!(run(&ContainerExitZeroRestarting, &snapshot(HEALTHY)).is_empty());
        let never = SIDECAR_LOOP.replace(
            "spec:\n  containers:",
            "spec:\n  restartPolicy: Never\n  containers:",
        );
        assert!(run(&ContainerExitZeroRestarting, &snapshot(&never)).is_empty());
    }
}

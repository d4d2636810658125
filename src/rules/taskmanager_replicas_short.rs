//! FLK203: a TaskManager Deployment has fewer replicas than the job's parallelism needs, so the job
//! cannot get its slots (`no_slots`).
//!
//! Where TaskManagers come from a Deployment instead of the JobManager:
//! - the Apache operator's standalone mode: `<name>-taskmanager`, replicas from
//!   `spec.taskManager.replicas` (else parallelism / slots); `replicas x taskmanager.numberOfTaskSlots`
//!   (Flink's default 1) must reach `spec.job.parallelism`;
//! - Lyft's FlinkApplication: `<app>-<hash>-tm`, which the operator sizes to
//!   ceil(`spec.parallelism` / `taskSlots`) (default 16); fewer replicas (a manual scale, an
//!   autoscaler) leave the job short.
//!
//! Silent for the reactive and adaptive schedulers and the operator's autoscaler, which fit the
//! job to the slots there are.

use super::support::modes::{ceil_div, parallelism, slots};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Mode;
use crate::flink::names::LABEL_LYFT_HASH;
use crate::snapshot::index::{deployment_replicas, meta_label, meta_name, Cluster, Index};
use crate::snapshot::Snapshot;
use k8s_openapi::api::apps::v1::Deployment;

pub struct TaskmanagerReplicasShort;

static META: RuleMeta = RuleMeta {
    id: "FLK203",
    name: "taskmanager_replicas_short",
    summary: "standalone or Lyft TaskManager replicas × slots are below the job's parallelism",
    category: Category::NoSlots,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"raise the TaskManager replicas or `taskmanager.numberOfTaskSlots` until replicas times slots reach the job's parallelism, or lower the parallelism"#,
    verify: r#"kubectl get pods -l component=taskmanager   # expect as many Running TaskManagers as the job needs"#,
};

impl Rule for TaskmanagerReplicasShort {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            if !matches!(c.mode, Mode::Standalone | Mode::Lyft) {
                continue;
            }
            let conf = index.conf(c);
            let adaptive = conf
                .get("scheduler-mode")
                .is_some_and(|v| v.eq_ignore_ascii_case("reactive"))
                || conf
                    .get("jobmanager.scheduler")
                    .is_some_and(|v| v.eq_ignore_ascii_case("adaptive"))
                || conf
                    .get("job.autoscaler.enabled")
                    .is_some_and(|v| v.eq_ignore_ascii_case("true"));
            if adaptive {
                continue;
            }
            let Some((p, p_from)) = parallelism(c, &conf) else {
                continue;
            };
            let (slots, slots_from) = slots(c, &conf);
            let Some(tm) = taskmanager_deployment(c) else {
                continue;
            };
            let (replicas, _) = deployment_replicas(tm);
            let needed = ceil_div(p, slots);
            if i64::from(replicas) >= needed {
                continue;
            }
            let f = finding(
                c,
                tm,
                i64::from(replicas),
                slots,
                needed,
                p,
                &p_from,
                &slots_from,
            );
            // The FlinkDeployment already asks for enough: the operator has not scaled yet.
            let asked = c
                .flink_deployment
                .and_then(|d| d.spec.task_manager.as_ref()?.replicas)
                .filter(|r| *r >= needed);
            out.push(match asked {
                Some(r) => awaiting_scale(f, c, tm, r),
                None => f,
            });
        }
        out
    }
}

/// The cluster's current TaskManager Deployment: the only one, or Lyft's for `status.deployHash`.
fn taskmanager_deployment<'a>(c: &Cluster<'a>) -> Option<&'a Deployment> {
    match c.taskmanager_deployments.as_slice() {
        [one] => Some(one),
        [] => None,
        many => {
            let hash = c
                .flink_application?
                .status
                .as_ref()?
                .deploy_hash
                .as_deref()?;
            many.iter()
                .copied()
                .find(|d| meta_label(&d.metadata, LABEL_LYFT_HASH) == Some(hash))
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn finding(
    c: &Cluster,
    tm: &Deployment,
    replicas: i64,
    slots: i64,
    needed: i64,
    p: i64,
    p_from: &str,
    slots_from: &str,
) -> Finding {
    let (ns, name) = (c.namespace(), c.name());
    let tm_name = meta_name(&tm.metadata);
    let f = Finding::new(
        &META,
        ObjectRef::namespaced("Deployment", ns, tm_name),
        format!(
            "{replicas} TaskManager(s) x {slots} slot(s) = {} slot(s) for a job of parallelism {p}: the job cannot get its slots",
            replicas * slots
        ),
    )
    .deployment(Some(c.reference.clone()))
    .evidence(format!("Deployment {tm_name} spec.replicas: {replicas}"))
    .evidence(slots_from.to_string())
    .evidence(p_from.to_string())
    .evidence(format!("ceil({p} / {slots}) = {needed} TaskManager(s) needed"));
    let (fix, verify) = match c.mode {
        Mode::Lyft => (
            format!(
                "Give the job the TaskManagers it needs (the Lyft operator sizes the Deployment to ceil(parallelism / taskSlots); something scaled it down):\n\n\
                 kubectl scale deployment {tm_name} -n {ns} --replicas={needed}\n\n\
                 or, to run on fewer TaskManagers, lower the parallelism:\n\n\
                 kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"parallelism\":{}}}}}'",
                replicas.max(1) * slots
            ),
            format!("kubectl get deployment {tm_name} -n {ns} -o jsonpath='{{.spec.replicas}}'   # expect: {needed} (or more)"),
        ),
        _ => (
            format!(
                "Give the job the TaskManagers it needs:\n\n\
                 kubectl patch flinkdeployment {name} -n {ns} --type=merge -p '{{\"spec\":{{\"taskManager\":{{\"replicas\":{needed}}}}}}}'\n\n\
                 (or add slots with taskmanager.numberOfTaskSlots, or lower spec.job.parallelism)"
            ),
            format!("kubectl get deployment {tm_name} -n {ns} -o jsonpath='{{.spec.replicas}}'   # expect: {needed} (or more)"),
        ),
    };
    f.fix(fix).verify(verify)
}

/// The fix is in the FlinkDeployment (`spec.taskManager.replicas`), the Deployment the operator
/// makes from it not yet: info, and what to watch instead of the fix again.
fn awaiting_scale(f: Finding, c: &Cluster, tm: &Deployment, asked: i64) -> Finding {
    let (ns, name) = (c.namespace(), c.name());
    let tm_name = meta_name(&tm.metadata);
    let title = format!(
        "{}: fixed in FlinkDeployment {name} (spec.taskManager.replicas: {asked}); waiting for the operator to scale {tm_name}",
        f.title
    );
    let mut f = f
        .severity(Severity::Info)
        .evidence(format!(
            "FlinkDeployment {name} spec.taskManager.replicas: {asked}: the operator has not applied it to Deployment {tm_name} yet"
        ))
        .fix(format!(
            "Nothing more to change: FlinkDeployment {name} already asks for {asked} TaskManager(s). The operator scales\n\
             Deployment {tm_name} when it reconciles the changed spec. If it stays as it is, see what the operator says:\n\n  \
             kubectl get flinkdeployment {name} -n {ns} -o jsonpath='{{.status.lifecycleState}} {{.status.error}}{{\"\\n\"}}'"
        ));
    f.title = title;
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot};

    const STANDALONE: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: ledger, namespace: fin}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  mode: standalone
  serviceAccount: flink
  flinkConfiguration: {taskmanager.numberOfTaskSlots: "2"}
  taskManager: {replicas: 1, resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/job.jar, parallelism: 6}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger-taskmanager
  namespace: fin
  labels: {app: ledger, component: taskmanager, type: flink-standalone-kubernetes}
spec:
  replicas: 1
  selector: {matchLabels: {app: ledger, component: taskmanager}}
  template: {spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}}
"#;

    const LYFT: &str = r#"
apiVersion: flink.k8s.io/v1beta1
kind: FlinkApplication
metadata: {name: clicks, namespace: lyft}
spec: {image: "flink:1.11", flinkVersion: "1.11", parallelism: 40, jarName: a.jar}
status: {phase: Running, deployHash: 2a6f3b1c}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: clicks-2a6f3b1c-tm
  namespace: lyft
  labels: {flink-app: clicks, flink-deployment-type: taskmanager, flink-app-hash: 2a6f3b1c}
spec:
  replicas: 2
  selector: {matchLabels: {pod-deployment-selector: x}}
  template: {spec: {containers: [{name: taskmanager, image: "flink:1.11"}]}}
"#;

    #[test]
    fn fires_on_a_standalone_deployment_short_of_slots() {
        let f = run(&TaskmanagerReplicasShort, &snapshot(STANDALONE));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("Deployment", "fin", "ledger-taskmanager")
        );
        assert!(f[0]
            .title
            .starts_with("1 TaskManager(s) x 2 slot(s) = 2 slot(s) for a job of parallelism 6"));
        assert!(
            f[0].fix
                .contains("{\"spec\":{\"taskManager\":{\"replicas\":3}}}"),
            "{}",
            f[0].fix
        );
        let fixed = STANDALONE.replace("replicas: 1\n  selector", "replicas: 3\n  selector");
        assert!(run(&TaskmanagerReplicasShort, &snapshot(&fixed)).is_empty());
        let reactive = STANDALONE.replace(
            "taskmanager.numberOfTaskSlots: \"2\"",
            "taskmanager.numberOfTaskSlots: \"2\", scheduler-mode: reactive",
        );
        assert!(run(&TaskmanagerReplicasShort, &snapshot(&reactive)).is_empty());
    }

    #[test]
    fn the_fix_in_the_spec_before_the_operator_scaled_is_an_info_finding() {
        let patched =
            STANDALONE.replace("taskManager: {replicas: 1,", "taskManager: {replicas: 3,");
        let f = run(&TaskmanagerReplicasShort, &snapshot(&patched));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0]
            .title
            .contains("waiting for the operator to scale ledger-taskmanager"));
        assert!(
            crate::finding::Remedy::from_fix(&f[0].fix).is_empty(),
            "{}",
            f[0].fix
        );
        // Asking for fewer than needed is still the problem.
        let short = STANDALONE.replace("taskManager: {replicas: 1,", "taskManager: {replicas: 2,");
        assert_eq!(
            run(&TaskmanagerReplicasShort, &snapshot(&short))[0].severity,
            Severity::Critical
        );
    }

    #[test]
    fn fires_on_a_lyft_application_with_the_default_16_slots() {
        let f = run(&TaskmanagerReplicasShort, &snapshot(LYFT));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("Lyft operator's default 16")));
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e == "ceil(40 / 16) = 3 TaskManager(s) needed"));
        assert!(f[0]
            .fix
            .contains("kubectl scale deployment clicks-2a6f3b1c-tm -n lyft --replicas=3"));
        let enough = LYFT.replace("parallelism: 40", "parallelism: 32");
        assert!(run(&TaskmanagerReplicasShort, &snapshot(&enough)).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        assert_eq!(
            run(
                &TaskmanagerReplicasShort,
                &scenario("mode-standalone-no-slots")
            )
            .len(),
            1
        );
        assert_eq!(
            run(
                &TaskmanagerReplicasShort,
                &scenario("mode-lyft-deploy-failed")
            )
            .len(),
            1
        );
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(
                run(&TaskmanagerReplicasShort, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

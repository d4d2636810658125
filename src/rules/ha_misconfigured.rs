//! FLK301: high availability asked for but incomplete, in any mode.
//!
//! - HA on (`high-availability.type`, or the deprecated `high-availability` / `recovery.mode`, set
//!   to kubernetes, zookeeper or a factory) without `high-availability.storageDir`: HA keeps only
//!   pointers in ConfigMaps (or ZooKeeper) and the job graphs and checkpoint metadata in that
//!   directory, so the JobManager cannot start.
//! - More than one JobManager replica without HA: standby JobManagers need leader election. Flink
//!   refuses `kubernetes.jobmanager.replicas` > 1 without HA at deploy time, and the Apache
//!   operator's validator does too (FLK401 decodes its message, so FlinkDeployments whose
//!   `status.error` says it are left to it); a Deployment scaled up by hand, or a Lyft
//!   `jobManagerConfig.replicas`, runs two JobManagers that each think they lead.
//!
//! Only for clusters that were deployed (a JobManager Deployment or pod exists): a manifest alone
//! is `kubectl flink lint`'s (FLK457). Explains the JobManager's fatal exit (FLK103) and the
//! FlinkDeployment's error status (FLK401).

use super::support::modes::{conf_fix, ha_mode, pods_verify};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::flink::mode::{Component, Mode};
use crate::snapshot::index::{deployment_replicas, meta_name, Cluster, Conf, Index};
use crate::snapshot::Snapshot;

pub struct HaMisconfigured;

static META: RuleMeta = RuleMeta {
    id: "FLK301",
    name: "ha_misconfigured",
    summary: "HA without a storage directory, or several JobManagers without HA",
    category: Category::HaMisconfigured,
    severity: Severity::Critical,
    explains: &["FLK103", "FLK401"],
    fix: r#"turn HA on with durable storage (`high-availability.type: kubernetes` and `high-availability.storageDir` on s3://, gs:// or a volume), or run a single JobManager"#,
    verify: r#"kubectl get pods -l component=jobmanager   # expect the JobManager Running, with no HA error in its log"#,
};

use crate::flink::ha::{STANDBY_MESSAGE, STORAGE_DIR_KEYS};

impl Rule for HaMisconfigured {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            // The FlinkCluster operator owns its Services and Flink configuration: a fix here
            // would be the operator's CR, which this rule does not write.
            if c.mode == Mode::FlinkCluster {
                continue;
            }
            // A resource never deployed is `kubectl flink lint`'s (FLK457) to check.
            if c.jobmanager_deployments.is_empty() && c.jobmanager_pods.is_empty() {
                continue;
            }
            let conf = index.conf(c);
            match ha_mode(&conf) {
                Some((key, mode)) => {
                    if conf.get_any(STORAGE_DIR_KEYS).is_none() {
                        out.push(no_storage_dir(c, &conf, &key, &mode));
                    }
                }
                None => {
                    if let Some((replicas, from, deployment)) = jobmanager_replicas(c, &conf) {
                        let reported = c
                            .flink_deployment
                            .and_then(|fd| fd.status.as_ref())
                            .and_then(|st| st.error.as_deref())
                            .is_some_and(|e| e.contains(STANDBY_MESSAGE));
                        if replicas > 1 && !reported {
                            out.push(standby_without_ha(c, &conf, replicas, &from, deployment));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The JobManager replicas: the Deployment's, else the spec's or Flink's configuration; and
/// the name of the Deployment when it is what says so.
fn jobmanager_replicas<'c>(c: &'c Cluster, conf: &Conf) -> Option<(i64, String, Option<&'c str>)> {
    if let Some(d) = c.jobmanager_deployments.first() {
        let (wanted, ready) = deployment_replicas(d);
        return Some((
            i64::from(wanted),
            format!(
                "Deployment {} spec.replicas: {wanted} ({ready} ready)",
                meta_name(&d.metadata)
            ),
            Some(meta_name(&d.metadata)),
        ));
    }
    if let Some(r) = c
        .flink_deployment
        .and_then(|fd| fd.spec.job_manager.as_ref())
        .and_then(|j| j.replicas)
    {
        return Some((
            r,
            format!("FlinkDeployment spec.jobManager.replicas: {r}"),
            None,
        ));
    }
    if let Some(r) = c
        .flink_application
        .and_then(|a| a.spec.job_manager_config.as_ref())
        .and_then(|j| j.get("replicas"))
        .and_then(|v| v.as_i64())
    {
        return Some((
            r,
            format!("FlinkApplication spec.jobManagerConfig.replicas: {r}"),
            None,
        ));
    }
    let v = conf.values.get("kubernetes.jobmanager.replicas")?;
    let r = v.value.trim().parse().ok()?;
    Some((
        r,
        format!("{}: kubernetes.jobmanager.replicas: {}", v.source, v.value),
    ))
    .map(|(r, s)| (r, s, None))
}

/// A storage directory beside the checkpoints the cluster already writes, when there is one:
/// `s3://b/flink/checkpoints/job` -> `s3://b/flink/ha/<cluster>`; with the directory it came from.
fn suggested_storage_dir(conf: &Conf, cluster: &str) -> Option<(String, String)> {
    let (key, v) = conf.get_any(&[
        "execution.checkpointing.dir",
        "state.checkpoints.dir",
        "execution.checkpointing.savepoint-dir",
        "state.savepoints.dir",
    ])?;
    let dir = v.value.trim().trim_end_matches('/');
    let (scheme, rest) = dir.split_once("://")?;
    let segments: Vec<&str> = rest.split('/').collect();
    let base = match segments
        .iter()
        .position(|s| matches!(*s, "checkpoints" | "savepoints"))
    {
        Some(i) if i > 0 => segments[..i].join("/"),
        _ if segments.len() > 1 => segments[..segments.len() - 1].join("/"),
        _ => rest.to_string(),
    };
    Some((
        format!("{scheme}://{base}/ha/{cluster}"),
        format!("{}: {key}: {}", v.source, v.value),
    ))
}

fn no_storage_dir(c: &Cluster, conf: &Conf, key: &str, mode: &str) -> Finding {
    let (ns, name) = (c.namespace(), c.name());
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        format!("high availability ({mode}) is on but high-availability.storageDir is not set: the JobManager cannot start"),
    )
    .deployment(Some(c.reference.clone()))
    .evidence(conf.evidence(key).unwrap_or_else(|| format!("{key}: {mode}")))
    .evidence("high-availability.storageDir is not set: HA keeps job graphs and checkpoint metadata there, and only pointers to them in ConfigMaps (or ZooKeeper)");
    let dir = suggested_storage_dir(conf, name);
    let value = match &dir {
        Some((d, from)) => {
            f = f.evidence(format!("the cluster already writes state there: {from}"));
            d.clone()
        }
        None => format!("s3://<bucket>/flink/ha/{name}"),
    };
    let how = conf_fix(c, &[("high-availability.storageDir", &value)]);
    let note = if dir.is_some() {
        "(a directory beside the checkpoints, on the same storage and credentials)"
    } else {
        "(durable storage every JobManager can reach: s3://, gs://, abfss://, or file:// on a shared persistent volume; replace <bucket>)"
    };
    f.fix(format!("Give HA a durable directory {note}:\n\n{how}"))
        .verify(format!(
            "{}   # expect the JobManager Running, and no \"high-availability.storageDir\" error in kubectl logs -n {ns}",
            pods_verify(c, Component::JobManager)
        ))
}

fn standby_without_ha(
    c: &Cluster,
    conf: &Conf,
    replicas: i64,
    from: &str,
    deployment: Option<&str>,
) -> Finding {
    let (ns, name) = (c.namespace(), c.name());
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        format!("{replicas} JobManager replicas without high availability: no leader election, every JobManager acts as the leader"),
    )
    .deployment(Some(c.reference.clone()))
    .evidence(from.to_string())
    .evidence(match conf.get_any(&["high-availability.type", "high-availability"]) {
        Some((k, v)) => format!("{}: {k}: {}", v.source, v.value),
        None => "high-availability.type is not set (NONE)".to_string(),
    })
    .evidence(format!("Flink refuses this at deploy time: \"{STANDBY_MESSAGE}\""));
    if c.jobmanager_pods.len() > 1 {
        f = f.evidence(format!("{} JobManager pods run", c.jobmanager_pods.len()));
    }
    let (fix, verify) = match (c.mode, deployment) {
        (Mode::Lyft, _) => (
            format!("kubectl patch flinkapplication {name} -n {ns} --type=merge -p '{{\"spec\":{{\"jobManagerConfig\":{{\"replicas\":1}}}}}}'"),
            format!("kubectl get flinkapplication {name} -n {ns} -o jsonpath='{{.spec.jobManagerConfig.replicas}}'   # expect: 1"),
        ),
        (Mode::Operator | Mode::Standalone, _) if c.flink_deployment.is_some() => (
            format!("kubectl patch flinkdeployment {name} -n {ns} --type=merge -p '{{\"spec\":{{\"jobManager\":{{\"replicas\":1}}}}}}'"),
            format!("kubectl get deployment {name} -n {ns} -o jsonpath='{{.spec.replicas}}'   # expect: 1"),
        ),
        (_, Some(d)) => (
            format!("kubectl scale deployment {d} -n {ns} --replicas=1"),
            format!("kubectl get deployment {d} -n {ns} -o jsonpath='{{.spec.replicas}}'   # expect: 1"),
        ),
        (_, None) => (
            conf_fix(c, &[("kubernetes.jobmanager.replicas", "1")]),
            pods_verify(c, Component::JobManager) + "   # expect one JobManager pod",
        ),
    };
    f.fix(format!(
        "Run one JobManager:\n\n{fix}\n\nFor standby JobManagers instead, turn on HA first (high-availability.type: kubernetes and high-availability.storageDir on durable storage), then raise the replicas."
    ))
    .verify(verify)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    #[test]
    fn fires_on_ha_without_a_storage_dir_and_suggests_one_beside_the_checkpoints() {
        let y = HEALTHY.replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {high-availability.type: kubernetes, execution.checkpointing.dir: \"s3://data/flink/checkpoints\"}\n",
        );
        let f = run(&HaMisconfigured, &snapshot(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .title
            .starts_with("high availability (kubernetes) is on"));
        assert_eq!(
            f[0].evidence[0],
            "FlinkDeployment spec.flinkConfiguration: high-availability.type: kubernetes"
        );
        assert!(
            f[0].fix
                .contains("\"high-availability.storageDir\":\"s3://data/flink/ha/basic\""),
            "{}",
            f[0].fix
        );
        let complete = y.replace(
            "high-availability.type: kubernetes,",
            "high-availability.type: kubernetes, high-availability.storageDir: \"s3://data/ha\",",
        );
        assert!(run(&HaMisconfigured, &snapshot(&complete)).is_empty());
    }

    #[test]
    fn fires_on_a_jobmanager_deployment_scaled_up_without_ha() {
        let y = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: wordcount
  namespace: stream
  labels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}
spec:
  replicas: 2
  selector: {matchLabels: {app: wordcount, component: jobmanager, type: flink-native-kubernetes}}
  template: {spec: {containers: [{name: flink-main-container, image: "flink:1.20"}]}}
status: {replicas: 2, readyReplicas: 2}
"#;
        let f = run(&HaMisconfigured, &snapshot(y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].object.kind, "Deployment");
        assert!(f[0]
            .fix
            .contains("kubectl scale deployment wordcount -n stream --replicas=1"));
        assert!(run(
            &HaMisconfigured,
            &snapshot(&y.replace("replicas: 2\n  selector", "replicas: 1\n  selector"))
        )
        .is_empty());
    }

    #[test]
    fn leaves_the_operators_validation_error_to_flk401() {
        let s = crate::rules::testing::scenario("flink-resource-status-validation");
        assert!(run(&HaMisconfigured, &s).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&HaMisconfigured, &scenario("mode-native-ha-incomplete"));
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = run(&HaMisconfigured, &scenario("mode-native-exposed"));
        assert_eq!(f.len(), 1, "{f:#?}");
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(run(&HaMisconfigured, &scenario(name)).is_empty(), "{name}");
        }
    }
}

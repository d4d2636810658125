//! What the deployment-mode rules (FLK2xx TaskManagers, FLK3xx HA, FLK41x-42x spec and exposure
//! across native, standalone and Lyft) share: a cluster's JobManager logs, its parallelism and
//! slots, how to change its Flink configuration in its mode, access decisions, the commands that
//! verify a fix. The clusters themselves come from `snapshot::index` (`Index::clusters`).

use crate::flink::names::{KIND_FLINK_APPLICATION, KIND_FLINK_DEPLOYMENT};
use crate::flink::rbac;
use crate::snapshot::index::{pod_name, pod_namespace, Cluster, Conf, KIND_UNKNOWN};
use crate::snapshot::{LogKey, Snapshot};
use serde_json::Value;

/// `taskmanager.numberOfTaskSlots` in Flink (and the Apache operator).
pub const FLINK_DEFAULT_SLOTS: i64 = 1;
/// The Lyft operator's default `taskSlots` (lyft/flinkk8soperator@v0.7.0:pkg/controller/flink/config.go).
pub const LYFT_DEFAULT_SLOTS: i64 = 16;

/// The logs (current and previous) of a cluster's JobManager pods, in key order.
pub fn jobmanager_logs<'s>(s: &'s Snapshot, c: &Cluster) -> Vec<(&'s LogKey, &'s str)> {
    s.logs
        .iter()
        .filter(|(k, _)| {
            c.jobmanager_pods
                .iter()
                .any(|p| pod_namespace(p) == k.namespace && pod_name(p) == k.pod)
        })
        .map(|(k, v)| (k, v.as_str()))
        .collect()
}

/// The job's parallelism: the FlinkDeployment's `spec.job.parallelism`, the FlinkApplication's
/// `spec.parallelism`, else `parallelism.default`. None for a session cluster without a job.
pub fn parallelism(c: &Cluster, conf: &Conf) -> Option<(i64, String)> {
    if let Some(fd) = c.flink_deployment {
        let job = fd.spec.job.as_ref()?;
        if let Some(p) = job.parallelism {
            return Some((p, format!("FlinkDeployment spec.job.parallelism: {p}")));
        }
    }
    if let Some(app) = c.flink_application {
        if let Some(p) = app.spec.parallelism {
            return Some((p, format!("FlinkApplication spec.parallelism: {p}")));
        }
    }
    let v = conf.values.get("parallelism.default")?;
    let p = v.value.trim().parse().ok()?;
    Some((p, format!("{}: parallelism.default: {}", v.source, v.value)))
}

/// Slots per TaskManager and where that came from.
pub fn slots(c: &Cluster, conf: &Conf) -> (i64, String) {
    if let Some(app) = c.flink_application {
        if let Some(n) = app
            .spec
            .task_manager_config
            .as_ref()
            .and_then(|t| t.get("taskSlots"))
            .and_then(|v| {
                v.as_i64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            })
        {
            return (
                n,
                format!("FlinkApplication spec.taskManagerConfig.taskSlots: {n}"),
            );
        }
    }
    if let Some(v) = conf.values.get("taskmanager.numberOfTaskSlots") {
        if let Ok(n) = v.value.trim().parse::<i64>() {
            return (
                n,
                format!("{}: taskmanager.numberOfTaskSlots: {}", v.source, v.value),
            );
        }
    }
    if c.flink_application.is_some() {
        (
            LYFT_DEFAULT_SLOTS,
            format!("taskSlots not set: the Lyft operator's default {LYFT_DEFAULT_SLOTS}"),
        )
    } else {
        (
            FLINK_DEFAULT_SLOTS,
            format!("taskmanager.numberOfTaskSlots not set: Flink's default {FLINK_DEFAULT_SLOTS}"),
        )
    }
}

pub fn ceil_div(a: i64, b: i64) -> i64 {
    if b <= 0 {
        return a.max(0);
    }
    (a + b - 1) / b
}

/// How to set Flink configuration keys on this cluster, as commands a person runs as they are.
pub fn conf_fix(c: &Cluster, pairs: &[(&str, &str)]) -> String {
    let (ns, name) = (c.namespace(), c.name());
    // Keys and values may be read from the cluster's configuration (a storage directory beside
    // the checkpoints): JSON-escaped, in the pairs' order, the whole argument one shell word.
    let json = |field: &str| {
        let inner: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{}:{}", Value::from(*k), Value::from(*v)))
            .collect();
        crate::shell::quote(&format!(
            "{{\"spec\":{{\"{field}\":{{{}}}}}}}",
            inner.join(",")
        ))
        .into_owned()
    };
    let flink_deployment = || {
        format!(
            "kubectl patch flinkdeployment {name} -n {ns} --type=merge -p {}\n(the operator redeploys the cluster with it)",
            json("flinkConfiguration")
        )
    };
    let native = || {
        let flags: Vec<String> = pairs
            .iter()
            .map(|(k, v)| crate::shell::quote(&format!("-D{k}={v}")).into_owned())
            .collect();
        format!(
            "Flink reads its configuration when the cluster starts: add\n\n  {}\n\nto the command that starts it (`flink run-application --target kubernetes-application -Dkubernetes.cluster-id={name} ...` or `kubernetes-session.sh -Dkubernetes.cluster-id={name} ...`), or set it in the conf/config.yaml that command reads, and start it again. ConfigMap flink-config-{name} only shows the configuration the cluster was started with.",
            flags.join(" ")
        )
    };
    match c.reference.kind.as_str() {
        KIND_FLINK_DEPLOYMENT => flink_deployment(),
        KIND_FLINK_APPLICATION => format!(
            "kubectl patch flinkapplication {name} -n {ns} --type=merge -p {}\n(the Lyft operator deploys the changed spec)",
            json("flinkConfig")
        ),
        // Its pods alone were read: the Apache operator's FlinkDeployment and a plain native
        // cluster label their pods alike, and which made it could not be read. Both ways are
        // given as prose, not as a command line: neither may be applied as it is.
        KIND_UNKNOWN => format!(
            "Whether FlinkDeployment {name} made this cluster could not be read here (`kubectl get flinkdeployment {name} -n {ns}` with access to it tells). If it did, set it in its spec: `kubectl patch flinkdeployment {name} -n {ns} --type=merge -p {}` (the operator redeploys the cluster with it). If it is a plain native cluster: {}",
            json("flinkConfiguration"),
            native()
        ),
        _ => native(),
    }
}

/// The command that shows a Flink configuration key as the cluster now has it.
pub fn conf_verify(c: &Cluster, key: &str, expect: &str) -> String {
    let (ns, name) = (c.namespace(), c.name());
    // Shown after `#`: one line, whatever the value holds.
    let expect = crate::shell::escape_controls(expect);
    let escaped = key.replace('.', "\\.");
    match c.reference.kind.as_str() {
        KIND_FLINK_DEPLOYMENT => format!(
            "kubectl get flinkdeployment {name} -n {ns} -o jsonpath='{{.spec.flinkConfiguration.{escaped}}}'   # expect: {expect}"
        ),
        KIND_FLINK_APPLICATION => format!(
            "kubectl get flinkapplication {name} -n {ns} -o jsonpath='{{.spec.flinkConfig.{escaped}}}'   # expect: {expect}"
        ),
        _ => format!(
            "kubectl get configmap flink-config-{name} -n {ns} -o yaml | grep {}   # expect: {key}: {expect}",
            crate::shell::quoted(key)
        ),
    }
}

/// `kubectl get pods -n NS -l SELECTOR`, for verify lines.
pub fn pods_verify(c: &Cluster, component: crate::flink::mode::Component) -> String {
    format!(
        "kubectl get pods -n {} -l {}",
        crate::shell::sh(c.namespace()),
        crate::shell::sh(&c.selector(component))
    )
}

/// Who answered an access question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    Authorizer,
    RbacObjects,
}

impl Decided {
    pub fn label(self) -> &'static str {
        match self {
            Decided::Authorizer => "the API server's authorizer (SubjectAccessReview)",
            Decided::RbacObjects => "the RBAC objects read (not authoritative)",
        }
    }
}

/// May this ServiceAccount do this in its namespace? The authorizer's answer when gather asked it,
/// else the RBAC objects' answer, else None (nothing to decide from).
pub fn may(
    s: &Snapshot,
    ns: &str,
    sa: &str,
    verb: &str,
    group: &str,
    resource: &str,
) -> Option<(bool, Decided)> {
    let user = format!("system:serviceaccount:{ns}:{sa}");
    let (res, sub) = resource.split_once('/').unwrap_or((resource, ""));
    if let Some(r) = s.access_reviews.iter().find(|a| {
        a.user == user
            && a.verb == verb
            && a.group == group
            && a.resource == res
            && a.subresource == sub
            && a.namespace == ns
    }) {
        return Some((r.allowed, Decided::Authorizer));
    }
    let req = rbac::Request {
        namespace: ns,
        service_account: sa,
        verb,
        group,
        resource: res,
        subresource: sub,
    };
    s.rbac_allows(&req).map(|a| (a, Decided::RbacObjects))
}

/// Whether high availability is on, and as what: `high-availability.type` (or its deprecated
/// names) set to anything but NONE.
pub fn ha_mode(conf: &Conf) -> Option<(String, String)> {
    let (key, v) = conf.get_any(crate::flink::ha::MODE_KEYS)?;
    Some((
        key.to_string(),
        crate::flink::ha::mode(&v.value)?.to_string(),
    ))
}

/// Whether Kubernetes HA (ConfigMaps) is on.
pub fn kubernetes_ha(conf: &Conf) -> bool {
    crate::flink::permissions::ha_enabled(&conf.flat())
}

/// `flink:1.20.1-scala_2.12-java17` -> (1, 20), only for Flink's own images (a last path
/// component named `flink`): an application image's tag is the application's version.
pub fn flink_image_version(image: &str) -> Option<(u32, u32)> {
    let without_digest = image.split('@').next().unwrap_or(image);
    let (repo, tag) = without_digest.rsplit_once(':')?;
    if repo.contains(':') && !repo.contains('/') {
        return None;
    }
    let last = repo.rsplit('/').next().unwrap_or(repo);
    if last != "flink" {
        return None;
    }
    let mut parts = tag.split(['.', '-', '_']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// `v1_20`, `1.20`, `1.20.1`, `v2_0` -> (major, minor).
pub fn flink_version(text: &str) -> Option<(u32, u32)> {
    let t = text.trim().trim_start_matches(['v', 'V']);
    let mut parts = t.split(['.', '_', '-']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// The healthy bundles of each mode (tests/scenarios/mode-*-healthy), on which no rule may fire.
#[cfg(test)]
pub const HEALTHY_MODE_SCENARIOS: &[&str] = &[
    "mode-native-healthy",
    "mode-standalone-healthy",
    "mode-lyft-healthy",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_of_images_and_specs() {
        assert_eq!(
            flink_image_version("flink:1.20.1-scala_2.12-java17"),
            Some((1, 20))
        );
        assert_eq!(
            flink_image_version("docker.io/library/flink:1.11.2-scala_2.12"),
            Some((1, 11))
        );
        assert_eq!(
            flink_image_version("registry.local:5000/mirror/flink:2.0"),
            Some((2, 0))
        );
        assert_eq!(
            flink_image_version("registry.example.com/risk/fraud-flink:1.20.1"),
            None
        );
        assert_eq!(flink_image_version("flink"), None);
        assert_eq!(flink_image_version("flink:latest"), None);
        assert_eq!(flink_version("v1_20"), Some((1, 20)));
        assert_eq!(flink_version("1.11"), Some((1, 11)));
        assert_eq!(flink_version("v2_0"), Some((2, 0)));
    }

    #[test]
    fn a_cluster_of_unknown_kind_gets_both_ways_to_set_its_configuration_and_neither_applies() {
        use crate::snapshot::index::Index;
        let mut s = crate::rules::testing::snapshot(crate::rules::testing::NATIVE_JOBMANAGER);
        s.gaps.push(crate::snapshot::Gap {
            verb: "list".into(),
            group: crate::flink::names::GROUP.into(),
            resource: "flinkdeployments".into(),
            namespace: Some("stream".into()),
            reason: crate::snapshot::GapReason::Forbidden,
            message: "forbidden".into(),
        });
        let index = Index::new(&s);
        let c = &index.clusters()[0];
        assert_eq!(c.reference.kind, KIND_UNKNOWN);
        let fix = conf_fix(c, &[("high-availability.type", "kubernetes")]);
        assert!(
            fix.contains("kubectl patch flinkdeployment wordcount -n stream --type=merge -p '{\"spec\":{\"flinkConfiguration\":{\"high-availability.type\":\"kubernetes\"}}}'")
                && fix.contains("-Dhigh-availability.type=kubernetes"),
            "{fix}"
        );
        assert!(crate::finding::Remedy::from_fix(&fix).is_empty(), "{fix}");
    }

    #[test]
    fn ceil_division() {
        assert_eq!(ceil_div(4, 16), 1);
        assert_eq!(ceil_div(33, 16), 3);
        assert_eq!(ceil_div(0, 2), 0);
    }
}

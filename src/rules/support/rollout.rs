//! Pods made from an older spec than the FlinkDeployment holds now. A fix to the spec (more
//! memory, a pull secret) changes nothing in the pods that already failed: the operator redeploys
//! when it reconciles the change, and until then the OOM kill, the pull error or the Pending pod
//! are still there. A rule whose evidence is such a pod asks here whether the spec already says
//! something else, and then says "fixed in the spec; the pod predates it" as an info finding,
//! instead of repeating the fix (as FLK501 does for a refusal the authorizer now allows).

use crate::finding::{Finding, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::names::{LABEL_APP, MAIN_CONTAINER};
use crate::flink::units::{parse_flink_memory, parse_quantity, parse_resource_memory, MIB};
use crate::shell::sh;
use crate::snapshot::flink::{FlinkCluster, FlinkDeployment};
use crate::snapshot::index::{label, pod_component, pod_name, pod_namespace};
use crate::snapshot::Pod;

/// What the spec now says and what the pod was made with.
#[derive(Debug, Clone, PartialEq)]
pub struct Predates {
    /// What differs, for the title: "memory", "image pull secrets".
    pub what: &'static str,
    pub spec_says: String,
    pub pod_has: String,
    /// The jsonpath the verify command prints for each pod of the component.
    jsonpath: String,
    expect: String,
}

/// `spec.<key>` and the Flink option prefix of a pod's component (a TaskManager's unless it is
/// a JobManager).
fn component(pod: &Pod) -> (&'static str, &'static str) {
    let c = match pod_component(pod) {
        Some(Component::JobManager) => Component::JobManager,
        _ => Component::TaskManager,
    };
    (c.spec_key(), c.as_str())
}

fn main_container(pod: &Pod) -> Option<&crate::snapshot::pod::Container> {
    pod.spec
        .as_ref()?
        .containers
        .iter()
        .find(|c| c.name == MAIN_CONTAINER)
}

/// Which way the fix moves the memory: more for a kill or an OutOfMemoryError, less for a pod
/// no node can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toward {
    More,
    Less,
}

/// The main container's memory limit the spec gives a pod of this component now (Flink sets it to
/// the process memory times `kubernetes.<component>.memory.limit-factor`), when it is more (or
/// less) than the pod's by over a MiB: the way the fix goes. A spec that moved the other way
/// is no fix, and the finding stays.
pub fn memory(fd: &FlinkDeployment, pod: &Pod, toward: Toward) -> Option<Predates> {
    let (spec_key, prefix) = component(pod);
    let comp = if spec_key == "jobManager" {
        fd.spec.job_manager.as_ref()
    } else {
        fd.spec.task_manager.as_ref()
    };
    let process_key = format!("{prefix}.memory.process.size");
    let process = comp
        .and_then(|c| c.resource.as_ref()?.memory.as_deref())
        .and_then(parse_resource_memory)
        .or_else(|| {
            fd.spec
                .flink_configuration
                .get(&process_key)
                .and_then(|v| parse_flink_memory(v))
        })?;
    let factor_key = format!("kubernetes.{prefix}.memory.limit-factor");
    let factor = fd
        .spec
        .flink_configuration
        .get(&factor_key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|f| *f >= 1.0)
        .unwrap_or(1.0);
    let want = process * factor;
    let has = parse_quantity(&main_container(pod)?.memory_limit()?.0)?;
    let moved = match toward {
        Toward::More => want - has,
        Toward::Less => has - want,
    };
    if moved <= MIB {
        return None;
    }
    let mib = |b: f64| format!("{:.0} MiB", b / MIB);
    Some(Predates {
        what: "memory",
        spec_says: format!(
            "a memory limit of {} (process memory {} x {factor_key} {factor})",
            mib(want),
            mib(process)
        ),
        pod_has: format!("a memory limit of {}", mib(has)),
        jsonpath: format!(
            "{{.spec.containers[?(@.name==\"{MAIN_CONTAINER}\")].resources.limits.memory}}"
        ),
        expect: format!("{}Mi", (want / MIB).round()),
    })
}

/// The image and pull secrets the spec gives the pods now, when the pod lacks one of them.
pub fn image_pull(fd: &FlinkDeployment, pod: &Pod) -> Option<Predates> {
    let spec = pod.spec.as_ref()?;
    let (spec_key, _) = component(pod);
    let has: Vec<&str> = spec
        .image_pull_secrets
        .iter()
        .flatten()
        .map(|s| s.name.as_str())
        .collect();
    let mut want: Vec<&str> = Vec::new();
    for (path, t) in fd.pod_templates() {
        if path != "spec.podTemplate" && !path.contains(spec_key) {
            continue;
        }
        for s in t.spec.iter().flat_map(|s| s.image_pull_secrets.iter()) {
            if !want.contains(&s.name.as_str()) {
                want.push(&s.name);
            }
        }
    }
    let image = fd.spec.image.as_deref();
    let running = main_container(pod).and_then(|c| c.image.as_deref());
    pull_predates(&want, &has, image, running, MAIN_CONTAINER)
}

/// The image the spec gives Flink's main container now, when the pod runs another: a fix of an
/// image that cannot run Flink (FLK104) is in the spec, and the pod predates it.
pub fn image(fd: &FlinkDeployment, pod: &Pod) -> Option<Predates> {
    let running = main_container(pod).and_then(|c| c.image.as_deref());
    pull_predates(&[], &[], fd.spec.image.as_deref(), running, MAIN_CONTAINER)
}

/// What the spec gives a pod's `container` to pull that the pod lacks: a pull secret (`want`
/// against the pod's `has`), else the image itself.
fn pull_predates(
    want: &[&str],
    has: &[&str],
    image: Option<&str>,
    running: Option<&str>,
    container: &str,
) -> Option<Predates> {
    if want.iter().any(|w| !has.contains(w)) {
        return Some(Predates {
            what: "image pull secrets",
            spec_says: format!("imagePullSecrets {}", want.join(", ")),
            pod_has: if has.is_empty() {
                "none".to_string()
            } else {
                format!("imagePullSecrets {}", has.join(", "))
            },
            jsonpath: "{.spec.imagePullSecrets[*].name}".to_string(),
            expect: want.join(" "),
        });
    }
    let (image, running) = (image?, running?);
    (image != running).then(|| Predates {
        what: "image",
        spec_says: format!("image {image}"),
        pod_has: format!("image {running}"),
        jsonpath: format!("{{.spec.containers[?(@.name==\"{container}\")].image}}"),
        expect: image.to_string(),
    })
}

/// The finding made info, titled and evidenced as fixed in `kind` `owner`'s spec that pod `pod`
/// predates; its fix and verify are the caller's.
fn predating(f: Finding, kind: &str, owner: &str, pod: &str, p: &Predates) -> Finding {
    let title = format!(
        "{}: fixed in {kind} {owner} ({}); the pod predates it, waiting for the rollout",
        f.title, p.what
    );
    let mut f = f
        .severity(Severity::Info)
        .evidence(format!("{kind} {owner} now gives {}", p.spec_says))
        .evidence(format!(
            "pod {pod} was made before that: it has {}",
            p.pod_has
        ));
    f.title = title;
    f
}

/// The finding turned into "fixed in the spec; the pod predates it": info, the same evidence and
/// both sides of the difference, and what to watch instead of the fix again.
pub fn awaiting_rollout(f: Finding, fd: &FlinkDeployment, pod: &Pod, p: &Predates) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let app = label(pod, LABEL_APP).unwrap_or(fd.name());
    let comp = match pod_component(pod) {
        Some(Component::JobManager) => Component::JobManager,
        _ => Component::TaskManager,
    };
    let f = predating(f, "FlinkDeployment", fd.name(), name, p);
    f.fix(format!(
        "Nothing more to change: the FlinkDeployment's spec already carries the fix:\n  {}.\n\
         The operator redeploys when it reconciles the changed spec; pod {name} was made before\n\
         and is replaced. If the pods stay as they are, see what the operator says:\n\n  \
         kubectl get flinkdeployment {} -n {} -o jsonpath='{{.status.lifecycleState}} {{.status.error}}{{\"\\n\"}}'",
        p.spec_says,
        sh(fd.name()),
        sh(ns)
    ))
    .verify(format!(
        "kubectl get pods -n {} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {}{{\"\\n\"}}{{end}}'   # expect {}",
        sh(ns),
        sh(&Mode::Operator.selector(Some(app), Some(comp))),
        p.jsonpath,
        p.expect
    ))
}

/// A FlinkCluster's container (`jobmanager`, `taskmanager`, the submitter's `main`) in a pod.
fn flinkcluster_container<'p>(
    pod: &'p Pod,
    container: &str,
) -> Option<&'p crate::snapshot::pod::Container> {
    pod.spec
        .as_ref()?
        .containers
        .iter()
        .find(|c| c.name == container)
}

/// A FlinkCluster's pod: the memory limit its spec gives the `container` now
/// (`spec.<component>.resources`, limits else requests, which the operator copies into the pod),
/// when it is more than the pod's by over a MiB.
pub fn flinkcluster_memory(fc: &FlinkCluster, pod: &Pod, container: &str) -> Option<Predates> {
    let component = pod_component(pod)?;
    let spec = crate::rules::support::flinkcluster_memory::component_spec(fc, component)?;
    let (raw, want) = crate::rules::support::flinkcluster_memory::spec_limit(spec)?;
    let has = parse_quantity(&flinkcluster_container(pod, container)?.memory_limit()?.0)?;
    if want - has <= MIB {
        return None;
    }
    let mib = |b: f64| format!("{:.0} MiB", b / MIB);
    Some(Predates {
        what: "memory",
        spec_says: format!(
            "a memory limit of {} (spec.{}.resources: {raw})",
            mib(want),
            component.spec_key()
        ),
        pod_has: format!("a memory limit of {}", mib(has)),
        jsonpath: format!(
            "{{.spec.containers[?(@.name==\"{container}\")].resources.limits.memory}}"
        ),
        expect: raw,
    })
}

/// A FlinkCluster's pod: the image (`spec.image.name`) and pull secrets (`spec.image.pullSecrets`)
/// its spec gives the `container` now, when the pod lacks one of them.
pub fn flinkcluster_image_pull(fc: &FlinkCluster, pod: &Pod, container: &str) -> Option<Predates> {
    let image = fc.spec.image.as_ref()?;
    let has: Vec<&str> = pod
        .spec
        .as_ref()?
        .image_pull_secrets
        .iter()
        .flatten()
        .map(|s| s.name.as_str())
        .collect();
    let want: Vec<&str> = image.pull_secrets.iter().map(|s| s.name.as_str()).collect();
    let name = image.name.as_deref().filter(|n| !n.is_empty());
    let running = flinkcluster_container(pod, container).and_then(|c| c.image.as_deref());
    pull_predates(&want, &has, name, running, container)
}

/// A FlinkCluster's pod turned into "fixed in the spec; the pod predates it", as for a
/// FlinkDeployment: the operator updates the StatefulSets when it reconciles the changed spec.
pub fn awaiting_flinkcluster(f: Finding, fc: &FlinkCluster, pod: &Pod, p: &Predates) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let f = predating(f, "FlinkCluster", fc.name(), name, p);
    let selector = Mode::FlinkCluster.selector(Some(fc.name()), pod_component(pod));
    f.fix(format!(
        "Nothing more to change: the FlinkCluster's spec already carries the fix:\n  {}.\n\
         The operator updates its StatefulSets when it reconciles the changed spec, and pod {name},\n\
         made before, is replaced. If the pods stay as they are, see what the operator says:\n\n  \
         kubectl get flinkcluster {} -n {} -o jsonpath='{{.status.state}} {{.status.components.jobManager.state}} {{.status.components.taskManager.state}}{{\"\\n\"}}'",
        p.spec_says,
        sh(fc.name()),
        sh(ns)
    ))
    .verify(format!(
        "kubectl get pods -n {} -l {} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {}{{\"\\n\"}}{{end}}'   # expect {}",
        sh(ns),
        sh(&selector),
        p.jsonpath,
        p.expect
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Category, ObjectRef, RuleMeta};
    use crate::rules::testing::{snapshot, HEALTHY};
    use crate::snapshot::flink::{PodTemplate, PodTemplateSpec};
    use k8s_openapi::api::core::v1::LocalObjectReference;

    static META: RuleMeta = RuleMeta {
        id: "FLK999",
        name: "test",
        summary: "test",
        category: Category::ImagePullFailed,
        severity: Severity::Critical,
        explains: &[],
        fix: "test",
        verify: "test",
    };

    fn healthy() -> (FlinkDeployment, Pod) {
        let s = snapshot(HEALTHY);
        (s.flink_deployments[0].clone(), s.pods[0].clone())
    }

    #[test]
    fn memory_differs_only_when_the_spec_gives_another_limit() {
        let (mut fd, pod) = healthy();
        assert_eq!(
            memory(&fd, &pod, Toward::More),
            None,
            "2048m x 1.0 is the pod's 2Gi"
        );
        fd.spec.flink_configuration.insert(
            "kubernetes.jobmanager.memory.limit-factor".into(),
            "1.25".into(),
        );
        assert_eq!(
            memory(&fd, &pod, Toward::Less),
            None,
            "more is not the fix for Pending"
        );
        let p = memory(&fd, &pod, Toward::More).expect("a larger limit now");
        assert!(p.spec_says.contains("2560 MiB"), "{p:?}");
        assert_eq!(p.pod_has, "a memory limit of 2048 MiB");
        assert_eq!(p.expect, "2560Mi");
    }

    #[test]
    fn a_pull_secret_the_pod_lacks_is_a_pending_rollout() {
        let (mut fd, pod) = healthy();
        assert_eq!(image_pull(&fd, &pod), None, "no secret named, same image");
        fd.spec.pod_template = Some(PodTemplate {
            metadata: None,
            spec: Some(PodTemplateSpec {
                image_pull_secrets: vec![LocalObjectReference {
                    name: "regcred".into(),
                }],
                ..PodTemplateSpec::default()
            }),
        });
        let p = image_pull(&fd, &pod).expect("the pod has no pull secret");
        assert_eq!(p.what, "image pull secrets");
        let f = awaiting_rollout(
            Finding::new(
                &META,
                ObjectRef::namespaced("Pod", "flink", "basic-6d4f7c9b8-abcde"),
                "image cannot be pulled",
            )
            .fix("kubectl patch flinkdeployment basic -n flink --type=merge -p '{}'"),
            &fd,
            &pod,
            &p,
        );
        assert_eq!(f.severity, Severity::Info);
        assert!(f.title.contains("the pod predates it"), "{}", f.title);
        assert!(
            crate::finding::Remedy::from_fix(&f.fix).is_empty(),
            "{}",
            f.fix
        );
        assert!(f.verify.ends_with("# expect regcred"), "{}", f.verify);
    }

    #[test]
    fn another_image_in_the_spec_is_a_pending_rollout() {
        let (mut fd, pod) = healthy();
        fd.spec.image = Some("flink:1.20.1".into());
        let p = image_pull(&fd, &pod).expect("the pod runs the old image");
        assert_eq!(p.pod_has, "image flink:1.20");
    }
}

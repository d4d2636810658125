//! FLK101: a pod template's main container is not named `flink-main-container`.
//!
//! Flink takes the container named `flink-main-container` from the template as the base of its
//! main container and keeps every other container as a sidecar. A container meant as the main
//! one but named otherwise runs as an extra container with the Flink image and no command: it
//! prints usage, exits 0 and is restarted forever (0/2, CrashLoopBackOff).
//!
//! Read from the FlinkDeployment's pod templates; and, where the snapshot has the pods but not
//! their FlinkDeployment (a `kubectl cluster-info dump`, a native cluster), from the pod itself:
//! beside `flink-main-container`, a container with a Flink image and neither command nor args.

use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::names::MAIN_CONTAINER;
use crate::flink::names::{FLINKY_CONTAINER_NAMES, KIND_FLINK_DEPLOYMENT, LABEL_APP, LABEL_TYPE};
use crate::snapshot::flink::{FlinkDeployment, PodTemplate};
use crate::snapshot::index::{deployment_ref, label, pod_component, pod_name, pod_namespace};
use crate::snapshot::pod::{Container as PodContainer, Pod};
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::Container;

pub struct MainContainerMisnamed;

static META: RuleMeta = RuleMeta {
    id: "FLK101",
    name: "main_container_misnamed",
    summary: "a pod template's main container is not named `flink-main-container`, so it runs as an extra sidecar",
    category: Category::MainContainerMisnamed,
    severity: Severity::Critical,
    explains: &["FLK102", "FLK104", "FLK401"],
    fix: r#"name the pod template's main container `flink-main-container`, so Flink merges it into its own container instead of adding it as a sidecar"#,
    verify: r#"kubectl get pods -l component=jobmanager -o jsonpath='{.items[*].spec.containers[*].name}'   # expect flink-main-container (and only the sidecars you meant)"#,
};

impl Rule for MainContainerMisnamed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for fd in &snapshot.flink_deployments {
            for (path, template) in fd.pod_templates() {
                if let Some((i, c)) = misnamed_main(fd, template) {
                    out.push(finding(fd, path, i, c));
                }
            }
        }
        // One finding per cluster, component and container, from the first pod that shows it.
        let mut seen = std::collections::BTreeSet::new();
        for pod in &snapshot.pods {
            let (ns, app) = (pod_namespace(pod), label(pod, LABEL_APP).unwrap_or(""));
            if label(pod, LABEL_TYPE).is_none() || index.flink_deployment(ns, app).is_some() {
                continue;
            }
            if let Some((i, c)) = sidecar_running_flink(pod) {
                let component = pod_component(pod);
                if seen.insert((ns, app, component, c.name.as_ref())) {
                    out.push(pod_finding(index, pod, i, c));
                }
            }
        }
        out
    }
}

/// The container that was evidently meant as the main one, when none carries the main name:
/// one with no command of its own that runs Flink (Flink's image, or a Flink-sounding name).
fn misnamed_main<'t>(fd: &FlinkDeployment, t: &'t PodTemplate) -> Option<(usize, &'t Container)> {
    let containers = &t.spec.as_ref()?.containers;
    if containers.iter().any(|c| c.name == MAIN_CONTAINER) {
        return None;
    }
    containers.iter().enumerate().find(|(_, c)| {
        let no_command = c.command.as_ref().is_none_or(Vec::is_empty);
        let flinky_name = FLINKY_CONTAINER_NAMES.iter().any(|k| c.name.contains(k));
        let flink_image = match (&c.image, &fd.spec.image) {
            (Some(img), Some(main)) => img == main || img.contains("flink"),
            (Some(img), None) => img.contains("flink"),
            (None, _) => true, // no image: Flink fills in the deployment's image
        };
        no_command && (flink_image || flinky_name)
    })
}

/// Beside Flink's own `flink-main-container`, a container that can only be the template's main
/// container kept as a sidecar: the Flink image (the main container's, or one named for Flink)
/// with neither command nor args, so it runs the image's entrypoint with nothing to do.
fn sidecar_running_flink(pod: &Pod) -> Option<(usize, &PodContainer)> {
    let containers = &pod.spec.as_ref()?.containers;
    let main = containers.iter().find(|c| c.name == MAIN_CONTAINER)?;
    containers.iter().enumerate().find(|(_, c)| {
        let bare = c.command.as_ref().is_none_or(Vec::is_empty)
            && c.args.as_ref().is_none_or(Vec::is_empty);
        let flink_image = c
            .image
            .as_deref()
            .is_some_and(|i| Some(i) == main.image.as_deref() || i.contains("flink"));
        c.name != MAIN_CONTAINER && bare && flink_image
    })
}

fn pod_finding(index: &Index, pod: &Pod, i: usize, c: &PodContainer) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let component = pod_component(pod).unwrap_or(Component::JobManager);
    let app = label(pod, LABEL_APP).unwrap_or_default();
    let image = c.image.as_deref().unwrap_or_default();
    let cluster = index.deployment_of_pod(pod);
    let from_operator = cluster
        .as_ref()
        .is_some_and(|d| d.kind == KIND_FLINK_DEPLOYMENT);
    let fix = if from_operator {
        let fd = cluster.as_ref().map_or(app, |d| d.name.as_str());
        format!(
            "Rename the container `{0}` to {MAIN_CONTAINER} in the FlinkDeployment's pod template \
             (spec.podTemplate, or spec.{1}.podTemplate):\n\n  \
             kubectl get flinkdeployment {fd} -n {ns} -o yaml \\\n    \
             | sed {2} | kubectl replace -f -",
            crate::shell::escape_controls(&c.name),
            component.spec_key(),
            // The container's name is the pod spec's: a literal in the sed pattern, the script
            // one shell word.
            crate::shell::quoted(&format!(
                "s/^\\( \\{{6,\\}}-\\{{0,1\\}} *name: \\){}$/\\1{MAIN_CONTAINER}/",
                sed_literal(&crate::shell::escape_controls(&c.name))
            ))
        )
    } else {
        format!(
            "Rename the container `{}` to {MAIN_CONTAINER} in the pod template file the cluster was \
             started with (`kubernetes.pod-template-file.{component}`, or \
             `kubernetes.pod-template-file.default`), then start the cluster again",
            c.name
        )
    };
    Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!(
            "container `{}` runs the Flink image beside {MAIN_CONTAINER}: the pod template's main container is misnamed",
            c.name
        ),
    )
    .deployment(cluster.clone())
    .evidence(format!(
        "spec.containers[{i}]: name {}, image {image}, no command or args: it runs the image's entrypoint with nothing to do",
        c.name
    ))
    .evidence(format!(
        "{MAIN_CONTAINER} is the container Flink made; `{}` is the pod template's own container, kept as a sidecar",
        c.name
    ))
    .fix(fix)
    .verify(container_names_verify(ns, app, component))
    .link(link::container(ns, name, &c.name))
}

fn finding(fd: &FlinkDeployment, path: &str, index: usize, c: &Container) -> Finding {
    let (ns, name) = (fd.namespace(), fd.name());
    let json_path = format!("/{}/spec/containers/{index}/name", path.replace('.', "/"));
    let component = if path.contains(Component::TaskManager.spec_key()) {
        Component::TaskManager
    } else {
        Component::JobManager
    };
    // Without an image of its own, the extra container cannot run at all: the API server refuses
    // the whole Deployment (422 `spec.template.spec.containers[0].image: Required value`), so
    // there is no sidecar and no pod (operator 1.7.0 in the reality lab; 1.15.0 alike).
    let has_image = c.image.as_deref().is_some_and(|i| !i.is_empty());
    let (title, consequence) = if has_image {
        (
            format!(
                "main container is named `{}`, not `{MAIN_CONTAINER}`: it runs as an extra sidecar",
                c.name
            ),
            format!(
                "Flink keeps `{}` as a sidecar with the Flink image and no command",
                c.name
            ),
        )
    } else {
        (
            format!("main container is named `{}`, not `{MAIN_CONTAINER}`, and has no image: the {component} Deployment is refused", c.name),
            format!("Flink keeps `{}` as an extra container as written, without an image, which the API server refuses (containers[].image: Required value), so no {component} pod is made", c.name),
        )
    };
    Finding::new(
        &META,
        ObjectRef::namespaced("FlinkDeployment", ns, name),
        title,
    )
    .deployment(Some(deployment_ref(fd)))
    .evidence(format!("{path}.spec.containers[{index}].name: {}", c.name))
    .evidence(format!(
        "no container in {path} is named {MAIN_CONTAINER}; {consequence}"
    ))
    .fix(format!(
        "Rename the container to {MAIN_CONTAINER} in {path}:\n\
         \n\
         kubectl patch flinkdeployment {name} -n {ns} --type=json \\\n  \
         -p '[{{\"op\":\"replace\",\"path\":\"{json_path}\",\"value\":\"{MAIN_CONTAINER}\"}}]'\n\
         \n\
         or in the manifest:\n\
         \n\
         {}",
        nested_yaml(
            path,
            &format!("- name: {MAIN_CONTAINER}   # was: {}", c.name)
        )
    ))
    .verify(container_names_verify(ns, name, component))
    .link(link::container_name(&c.name))
}

/// The pods' container names of one cluster's component: only the main one once it is fixed.
fn container_names_verify(ns: &str, app: &str, component: Component) -> String {
    let (ns, selector) = (
        crate::shell::sh(ns),
        crate::shell::quote(&Mode::Operator.selector(Some(app), Some(component))).into_owned(),
    );
    format!(
        "kubectl get pods -n {ns} -l {selector} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.spec.containers[*].name}}{{\"\\n\"}}{{end}}'   # expect only {MAIN_CONTAINER}"
    )
}

/// `spec.jobManager.podTemplate` -> the YAML nesting down to that template's containers.
fn nested_yaml(path: &str, leaf: &str) -> String {
    let mut out = String::new();
    let keys = path.split('.').chain(["spec", "containers"]);
    let mut depth = 0;
    for key in keys {
        out.push_str(&format!("{}{key}:\n", "  ".repeat(depth)));
        depth += 1;
    }
    out.push_str(&format!("{}{leaf}", "  ".repeat(depth)));
    out
}

/// `s` as a literal in a sed basic regular expression delimited by `/`.
fn sed_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '/' | '.' | '*' | '[' | ']' | '^' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    const MISNAMED: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: prod}
spec:
  image: flink:1.20
  serviceAccount: flink
  jobManager:
    resource: {memory: 2048m, cpu: 1}
    podTemplate:
      spec:
        containers:
        - name: flink-job-manager
          volumeMounts: [{name: data, mountPath: /data}]
"#;

    #[test]
    fn fires_on_a_misnamed_jobmanager_container() {
        let f = run(&MainContainerMisnamed, &snapshot(MISNAMED));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].category, Category::MainContainerMisnamed);
        assert!(f[0].evidence[0]
            .contains("spec.jobManager.podTemplate.spec.containers[0].name: flink-job-manager"));
        assert!(
            f[0].fix
                .contains("/spec/jobManager/podTemplate/spec/containers/0/name"),
            "{}",
            f[0].fix
        );
        assert!(f[0]
            .fix
            .contains("- name: flink-main-container   # was: flink-job-manager"));
        assert!(f[0].verify.contains("component=jobmanager"));
    }

    #[test]
    fn without_an_image_it_says_the_deployment_is_refused_not_that_a_sidecar_runs() {
        let f = run(&MainContainerMisnamed, &snapshot(MISNAMED));
        assert!(f[0].title.contains("has no image"), "{}", f[0].title);
        assert!(f[0].evidence[1].contains("image: Required value"));
        assert!(!f[0].evidence[1].contains("sidecar"));
        let with_image = MISNAMED.replace(
            "- name: flink-job-manager",
            "- name: flink-job-manager\n          image: flink:1.20",
        );
        let f = run(&MainContainerMisnamed, &snapshot(&with_image));
        assert!(
            f[0].title.ends_with("it runs as an extra sidecar"),
            "{}",
            f[0].title
        );
        assert!(f[0].evidence[1].contains("as a sidecar with the Flink image and no command"));
    }

    #[test]
    fn silent_when_the_main_container_is_named_right() {
        let fixed = MISNAMED.replace("flink-job-manager", "flink-main-container");
        assert!(run(&MainContainerMisnamed, &snapshot(&fixed)).is_empty());
        assert!(run(&MainContainerMisnamed, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn a_real_sidecar_with_its_own_command_is_not_the_main_container() {
        let sidecar = MISNAMED.replace(
            "- name: flink-job-manager",
            "- name: log-shipper\n          image: fluent/fluent-bit:3\n          command: [/fluent-bit/bin/fluent-bit]",
        );
        assert!(run(&MainContainerMisnamed, &snapshot(&sidecar)).is_empty());
    }

    /// The JobManager pod the operator made from a template whose main container is misnamed, as
    /// the reality lab recorded it (operator 1.7.0): the template's container first, without a
    /// command, then Flink's own.
    const POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-7f57787bdf-nw2tt
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers:
  - {name: flink-job-manager, image: "flink:1.18"}
  - {name: flink-main-container, image: "flink:1.18", command: [/docker-entrypoint.sh], args: [jobmanager]}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
  ownerReferences: [{apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, name: orders, uid: u1}]
spec:
  selector: {matchLabels: {app: orders}}
  template:
    metadata: {labels: {app: orders}}
    spec: {containers: [{name: flink-main-container, image: "flink:1.18"}]}
"#;

    #[test]
    fn without_the_flinkdeployment_the_pod_shows_the_misnamed_container() {
        let f = run(&MainContainerMisnamed, &snapshot(POD));
        assert_eq!(f.len(), 1, "{f:?}");
        let f = &f[0];
        assert_eq!(f.category, Category::MainContainerMisnamed);
        assert_eq!(f.object.kind, "Pod");
        assert_eq!(
            f.deployment
                .as_ref()
                .map(|d| (d.kind.as_str(), d.name.as_str())),
            Some(("FlinkDeployment", "orders"))
        );
        assert!(
            f.evidence[0].contains("name flink-job-manager, image flink:1.18, no command or args"),
            "{:?}",
            f.evidence
        );
        assert!(
            f.fix
                .contains("kubectl get flinkdeployment orders -n analytics -o yaml"),
            "{}",
            f.fix
        );
        assert!(f.fix.contains("kubectl replace -f -"), "{}", f.fix);
        // A plain native cluster (no FlinkDeployment owns its JobManager Deployment): the file.
        let native = POD.replace(
            "  ownerReferences: [{apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, name: orders, uid: u1}]\n",
            "",
        );
        let f = &run(&MainContainerMisnamed, &snapshot(&native))[0];
        assert!(
            f.fix.contains("kubernetes.pod-template-file.jobmanager"),
            "{}",
            f.fix
        );
    }

    #[test]
    fn the_pod_is_not_read_when_the_flinkdeployment_is_there_or_the_sidecar_is_a_real_one() {
        let both = format!("{POD}---{MISNAMED}").replace("namespace: prod", "namespace: analytics");
        let f = run(&MainContainerMisnamed, &snapshot(&both));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].object.kind, "FlinkDeployment");
        for sidecar in [
            "{name: log-shipper, image: \"fluent/fluent-bit:3\"}",
            "{name: flink-job-manager, image: \"flink:1.18\", args: [taskmanager]}",
            "{name: metrics, image: \"flink:1.18\", command: [/opt/exporter]}",
        ] {
            let pod = POD.replace("{name: flink-job-manager, image: \"flink:1.18\"}", sidecar);
            assert!(
                run(&MainContainerMisnamed, &snapshot(&pod)).is_empty(),
                "{sidecar}"
            );
        }
    }
}

//! FLK101: a pod template's main container is not named `flink-main-container`.
//!
//! Flink takes the container named `flink-main-container` from the template as the base of its
//! main container and keeps every other container as a sidecar. A container meant as the main
//! one but named otherwise runs as an extra container with the Flink image and no command: it
//! prints usage, exits 0 and is restarted forever (0/2, CrashLoopBackOff).

use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::names::MAIN_CONTAINER;
use crate::snapshot::flink::{FlinkDeployment, PodTemplate};
use crate::snapshot::index::deployment_ref;
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
};

impl Rule for MainContainerMisnamed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, snapshot: &Snapshot, _index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for fd in &snapshot.flink_deployments {
            for (path, template) in fd.pod_templates() {
                if let Some((i, c)) = misnamed_main(fd, template) {
                    out.push(finding(fd, path, i, c));
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
        let flinky_name = [
            "flink",
            "jobmanager",
            "job-manager",
            "taskmanager",
            "task-manager",
            "main",
        ]
        .iter()
        .any(|k| c.name.contains(k));
        let flink_image = match (&c.image, &fd.spec.image) {
            (Some(img), Some(main)) => img == main || img.contains("flink"),
            (Some(img), None) => img.contains("flink"),
            (None, _) => true, // no image: Flink fills in the deployment's image
        };
        no_command && (flink_image || flinky_name)
    })
}

fn finding(fd: &FlinkDeployment, path: &str, index: usize, c: &Container) -> Finding {
    let (ns, name) = (fd.namespace(), fd.name());
    let json_path = format!("/{}/spec/containers/{index}/name", path.replace('.', "/"));
    let component = if path.contains("taskManager") {
        "taskmanager"
    } else {
        "jobmanager"
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
    Finding::new(&META, ObjectRef::namespaced("FlinkDeployment", ns, name), title)
    .deployment(Some(deployment_ref(fd)))
    .evidence(format!("{path}.spec.containers[{index}].name: {}", c.name))
    .evidence(format!("no container in {path} is named {MAIN_CONTAINER}; {consequence}"))
    .fix(format!(
        "Rename the container to {MAIN_CONTAINER} in {path}:\n\
         \n\
         kubectl patch flinkdeployment {name} -n {ns} --type=json \\\n  \
         -p '[{{\"op\":\"replace\",\"path\":\"{json_path}\",\"value\":\"{MAIN_CONTAINER}\"}}]'\n\
         \n\
         or in the manifest:\n\
         \n\
         {}",
        nested_yaml(path, &format!("- name: {MAIN_CONTAINER}   # was: {}", c.name))
    ))
    .verify(format!(
        "kubectl get pods -n {ns} -l app={name},component={component} -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.spec.containers[*].name}}{{\"\\n\"}}{{end}}'   # expect only {MAIN_CONTAINER}"
    ))
    .link(link::container_name(&c.name))
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
}

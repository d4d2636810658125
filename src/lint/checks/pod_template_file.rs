//! FLK101 on plain pod-template files (a `Pod` or `PodTemplate` used as
//! `kubernetes.pod-template-file[.jobmanager|.taskmanager]`): the main container must be named
//! `flink-main-container` there too. doctor's FLK101 reads FlinkDeployments; this is the same
//! trap in native mode without the operator, so it reports under the same id.

use super::{Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::names::MAIN_CONTAINER;
use crate::lint::manifest::{container_name, Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

use serde_json::Value;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK101",
        name: "main_container_misnamed",
        summary: "A pod template's main container is not named flink-main-container, so Flink runs it as an extra sidecar.",
        category: Category::MainContainerMisnamed,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"name the pod template's main container `flink-main-container`, so Flink merges it into its own container instead of adding it as a sidecar"#,
        verify: r#"kubectl get pods -l component=jobmanager -o jsonpath='{.items[*].spec.containers[*].name}'   # expect flink-main-container (and only the sidecars you meant)"#,
    },
    help: "Flink takes the container named flink-main-container from a pod template as the base of its main \
container and keeps every other container as a sidecar. A container meant as the main one but named otherwise \
runs next to Flink's with the Flink image and no command: it prints usage, exits 0 and is restarted forever. \
Rename it to flink-main-container.",
    run,
};

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::PodTemplateFile {
        return Vec::new();
    }
    let mut out = Vec::new();
    for t in m.templates() {
        let containers: Vec<_> = t.containers().collect();
        if containers
            .iter()
            .any(|(_, c)| container_name(c) == Some(MAIN_CONTAINER))
        {
            continue;
        }
        let Some((path, c)) = containers.into_iter().find(|(_, c)| meant_as_main(c)) else {
            continue;
        };
        let name = container_name(c).unwrap_or("");
        let name_path = path.key("name");
        out.push(
            Hit::new(
                super::At::Path(name_path.clone()),
                format!("{name_path}: {name}"),
                format!("main container is named `{name}`, not `{MAIN_CONTAINER}`: it runs as an extra sidecar"),
            )
            .evidence(format!(
                "no container in this pod template is named {MAIN_CONTAINER}; Flink starts its own main container \
                 and keeps `{name}` as a sidecar with no command"
            ))
            .fix(format!(
                "Rename the container in {} (the file kubernetes.pod-template-file points at):\n\n\
                 {}containers:\n{}  - name: {MAIN_CONTAINER}   # was: {name}",
                m.file,
                if t.path.0.is_empty() { "spec:\n  " } else { "template:\n  spec:\n    " },
                if t.path.0.is_empty() { "  " } else { "    " },
            ))
            .verify(format!(
                "kubectl get pods{} -l component=jobmanager -o jsonpath='{{range .items[*]}}{{.metadata.name}}: {{.spec.containers[*].name}}{{\"\\n\"}}{{end}}'   # expect only {MAIN_CONTAINER}",
                m.ns_flag()
            )),
        );
    }
    out
}

/// The heuristic of doctor's FLK101: a container with no command of its own that runs Flink
/// (Flink's image, a Flink-sounding name, or no image, which Flink fills in).
fn meant_as_main(c: &Value) -> bool {
    let no_command = c
        .get("command")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    let name = container_name(c).unwrap_or("");
    let flinky_name = crate::flink::names::FLINKY_CONTAINER_NAMES
        .iter()
        .any(|k| name.contains(k));
    let flink_image = c
        .get("image")
        .and_then(Value::as_str)
        .is_none_or(|i| i.contains("flink"));
    no_command && (flink_image || flinky_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::hits;

    const TEMPLATE: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: taskmanager-pod-template
spec:
  initContainers:
    - name: artifacts-fetcher
      image: busybox:1.35
      command: [wget, https://example.com/job.jar, -O, /flink-artifact/job.jar]
  containers:
    # Do not change the main container name
    - name: flink-main-container
      volumeMounts:
        - mountPath: /opt/flink/volumes/hostpath
          name: flink-volume-hostpath
    - name: sidecar-log-collector
      image: fluent/fluent-bit:3
      command: [/fluent-bit/bin/fluent-bit]
"#;

    #[test]
    fn a_template_file_with_the_main_container_is_clean() {
        assert!(hits(&CHECK, TEMPLATE).is_empty());
    }

    #[test]
    fn fires_on_a_misnamed_main_container_with_its_line() {
        let bad = TEMPLATE.replace("- name: flink-main-container", "- name: flink-taskmanager");
        let h = hits(&CHECK, &bad);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].what, "spec.containers[0].name: flink-taskmanager");
        assert!(
            h[0].fix
                .contains("- name: flink-main-container   # was: flink-taskmanager"),
            "{}",
            h[0].fix
        );
    }

    #[test]
    fn pod_template_kind_and_unrelated_pods() {
        let pt = "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: t}\ntemplate:\n  spec:\n    containers:\n    - name: main\n      image: flink:1.20\n";
        let h = hits(&CHECK, pt);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].what, "template.spec.containers[0].name: main");
        let nginx = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n";
        assert!(hits(&CHECK, nginx).is_empty());
        let running = bad_running_pod();
        assert!(
            hits(&CHECK, &running).is_empty(),
            "pods Flink made are not templates"
        );
    }

    fn bad_running_pod() -> String {
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x-taskmanager-1-1\n  labels: {type: flink-native-kubernetes}\nspec:\n  containers:\n  - name: flink-task-manager\n    image: flink:1.20\nstatus: {phase: Running}\n".into()
    }
}

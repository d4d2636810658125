//! FLK451: `command` or `args` on `flink-main-container` in a pod template.
//!
//! Flink owns the main container's start: its decorators (`CmdJobManagerDecorator` and the
//! TaskManager twin) set `command` to `kubernetes.entry.path` (`/docker-entrypoint.sh`) and `args`
//! to the jobmanager/taskmanager start command. Whatever the template puts there is replaced, so
//! what it was meant to do (fetch a jar, wrap the start, export variables) silently never happens;
//! and a template used where Flink does not decorate it would replace the entrypoint and Flink
//! would not start at all. Either way the template is wrong.

use super::{At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::mode::Component;
use crate::flink::names::MAIN_CONTAINER;
use crate::lint::manifest::{show, Manifest, Shapes};
use crate::lint::Lint;
use crate::rules::RuleMeta;

use serde_json::Value;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK451",
        name: "main_container_entrypoint",
        summary: "A pod template sets command or args on flink-main-container, where Flink's entrypoint must run.",
        category: Category::PodtemplateOverridesEntrypoint,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"remove command and args from flink-main-container so Flink's entrypoint runs; do setup in an init container, and pass options through flinkConfiguration"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK451"#,
    },
    help: "Flink starts the main container itself: it sets command to kubernetes.entry.path (/docker-entrypoint.sh) \
and args to the JobManager or TaskManager start command, replacing what the pod template says. A command there \
never runs as intended (and where it were kept, Flink would not start). Run preparation steps in an initContainer \
(the operator's pod-template example fetches the job jar that way), JVM options through env.java.opts.*, and a \
different start script through kubernetes.entry.path.",
    run,
};

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    let mut out = Vec::new();
    for t in m.templates() {
        let Some((path, c)) = t.main_container() else {
            continue;
        };
        for field in ["command", "args"] {
            let Some(v) = c
                .get(field)
                .filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
            else {
                continue;
            };
            let at = path.key(field);
            out.push(
                Hit::new(
                    At::Path(at.clone()),
                    format!("{at}: {}", show(v)),
                    format!("`{field}` on {MAIN_CONTAINER} competes with Flink's entrypoint: Flink replaces it, so it never runs"),
                )
                .evidence(format!(
                    "Flink sets the main container's command to kubernetes.entry.path (default /docker-entrypoint.sh) and its args to the {} start command",
                    match t.shapes {
                        Shapes::One(c) => c.title(),
                        Shapes::Both => "JobManager/TaskManager",
                    }
                ))
                .fix(fix(field, v, &t.path.to_string()))
                .verify(format!(
                    "{} -o jsonpath='{{.items[0].spec.containers[?(@.name==\"{MAIN_CONTAINER}\")].{field}}}'   # expect Flink's own entrypoint, and nothing of yours",
                    super::pods_of(m, Component::JobManager)
                )),
            );
        }
    }
    out
}

fn fix(field: &str, v: &Value, template: &str) -> String {
    let shown = show(v);
    let template = if template.is_empty() {
        "the pod template".to_string()
    } else {
        template.to_string()
    };
    format!(
        "Remove `{field}` from {MAIN_CONTAINER} in {template}, and do the work it was for another way:\n\
         - preparation (download a jar, render a file): an initContainer writing to a shared emptyDir volume\n\
         - JVM options: flinkConfiguration env.java.opts.jobmanager / env.java.opts.taskmanager\n\
         - a different start script in your image: flinkConfiguration kubernetes.entry.path\n\
         \n\
         For example, as an initContainer:\n\
         \n\
         initContainers:\n\
         \x20 - name: prepare\n\
         \x20   image: busybox:1.36\n\
         \x20   {field}: {shown}   # was on {MAIN_CONTAINER}\n\
         \x20   volumeMounts: [{{name: work, mountPath: /work}}]"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn fires_on_command_and_args_of_the_main_container_only() {
        let yaml = BASIC.replace(
            "  job:\n",
            "  podTemplate:\n    spec:\n      containers:\n        - name: flink-main-container\n          command: [\"/bin/sh\", \"-c\"]\n          args: [\"wget x && /docker-entrypoint.sh\"]\n        - name: sidecar\n          image: busybox\n          command: [sleep, infinity]\n  job:\n",
        );
        let h = hits(&CHECK, &yaml);
        assert_eq!(h.len(), 2, "{h:?}");
        assert_eq!(
            h[0].what,
            "spec.podTemplate.spec.containers[0].command: [/bin/sh, -c]"
        );
        assert!(h[1]
            .what
            .starts_with("spec.podTemplate.spec.containers[0].args:"));
    }

    #[test]
    fn silent_on_the_operators_examples() {
        assert!(hits(&CHECK, BASIC).is_empty());
    }
}

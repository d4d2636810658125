//! FLK463: a FlinkDeployment in native mode whose JobManager's pod template turns
//! `automountServiceAccountToken` off. The JobManager's Kubernetes client reads its token and CA
//! from the files the kubelet mounts at `/var/run/secrets/kubernetes.io/serviceaccount`; without
//! them it cannot create a TaskManager (doctor's FLK504 reads the same on a live cluster, where the
//! lab's JobManager logged `Starting the resource manager.` and nothing after, and exited 239).

use super::{At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::mode::Component;
use crate::lint::locate::Path;
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK463",
        name: "service_account_token_unmounted",
        summary: "A native-mode JobManager's pod template turns automountServiceAccountToken off: Flink cannot talk to Kubernetes.",
        category: Category::SaTokenUnreadable,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"take automountServiceAccountToken: false out of the JobManager's pod template (or mount a token at /var/run/secrets/kubernetes.io/serviceaccount by hand)"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK463"#,
    },
    help: "In native mode the JobManager creates and watches its TaskManager pods through the Kubernetes API, as \
spec.serviceAccount, with the token and CA the kubelet mounts at /var/run/secrets/kubernetes.io/serviceaccount. \
`automountServiceAccountToken: false` in the pod template leaves them out: the ResourceManager never starts, no \
TaskManager is created and the JobManager dies on the timeout.",
    run,
};

const TOKEN_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment || m.str_at("spec.mode") == Some("standalone") {
        return Vec::new();
    }
    // The JobManager's own template is merged over spec.podTemplate: the last that sets it decides.
    let Some(t) = m
        .templates_for(Component::JobManager)
        .into_iter()
        .rev()
        .find(|t| {
            t.value
                .pointer("/spec/automountServiceAccountToken")
                .is_some()
        })
    else {
        return Vec::new();
    };
    let by_hand = t.containers().any(|(_, c)| {
        c.get("volumeMounts")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("mountPath").and_then(|p| p.as_str()))
            .any(|p| p.trim_end_matches('/') == TOKEN_DIR)
    });
    if t.value.pointer("/spec/automountServiceAccountToken")
        != Some(&serde_json::Value::Bool(false))
        || by_hand
    {
        return Vec::new();
    }
    let field = t
        .path
        .join(&Path::parse("spec.automountServiceAccountToken"));
    let field_text = field.to_string();
    let pointer = crate::shell::pointer(&field_text.split('.').collect::<Vec<_>>());
    vec![Hit::new(
        At::Path(field.clone()),
        format!("{field}: false"),
        "the JobManager's pods get no ServiceAccount token: Flink's Kubernetes client cannot create TaskManagers",
    )
    .evidence(format!("native mode: the JobManager creates and watches its TaskManager pods through the Kubernetes API, with the token and CA mounted at {TOKEN_DIR}"))
    .fix(format!(
        "Take the field out so the pods mount their ServiceAccount's token (delete the line {field}: false), or on the cluster:\n\n  \
         kubectl patch flinkdeployment {} {} --type=json -p {}",
        crate::shell::sh(&m.name),
        m.ns_flag().trim(),
        crate::shell::json_arg(&serde_json::json!([{"op": "remove", "path": pointer}]))
    ))
    .verify(format!(
        "{} -o jsonpath='{{.items[*].spec.volumes[*].name}}'   # expect a kube-api-access volume",
        super::pods_of(m, Component::JobManager)
    ))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::hits;

    const FD: &str = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: orders, namespace: analytics}\nspec:\n  serviceAccount: flink\n";

    #[test]
    fn a_template_that_turns_the_token_off_is_named_with_its_path() {
        let y =
            format!("{FD}  podTemplate:\n    spec:\n      automountServiceAccountToken: false\n");
        let h = hits(&CHECK, &y);
        assert_eq!(h.len(), 1, "{h:#?}");
        assert_eq!(
            h[0].what,
            "spec.podTemplate.spec.automountServiceAccountToken: false"
        );
        assert!(h[0].fix.contains(r#"'[{"op":"remove","path":"/spec/podTemplate/spec/automountServiceAccountToken"}]'"#), "{}", h[0].fix);
    }

    #[test]
    fn the_jobmanager_s_template_decides_and_standalone_or_a_token_by_hand_is_silent() {
        let on = format!("{FD}  podTemplate:\n    spec: {{automountServiceAccountToken: false}}\n  jobManager:\n    podTemplate:\n      spec: {{automountServiceAccountToken: true}}\n");
        assert!(hits(&CHECK, &on).is_empty());
        let tm_only = format!("{FD}  taskManager:\n    podTemplate:\n      spec: {{automountServiceAccountToken: false}}\n");
        assert!(hits(&CHECK, &tm_only).is_empty());
        let standalone = format!("{FD}  mode: standalone\n  podTemplate:\n    spec: {{automountServiceAccountToken: false}}\n");
        assert!(hits(&CHECK, &standalone).is_empty());
        let by_hand = format!("{FD}  podTemplate:\n    spec:\n      automountServiceAccountToken: false\n      containers:\n      - name: flink-main-container\n        volumeMounts: [{{name: token, mountPath: {TOKEN_DIR}}}]\n");
        assert!(hits(&CHECK, &by_hand).is_empty());
    }
}

use super::*;
use crate::finding::Remedy;
use crate::rules::testing::{run, scenario, HEALTHY_SCENARIOS};
use crate::snapshot::flink::PodTemplateSpec;

/// real-role-no-create (operator 1.7.0, a JobManager with no TaskManager) with its
/// FlinkDeployment's spec.podTemplate turning the token off.
fn unmounted(s: &mut Snapshot) {
    for fd in &mut s.flink_deployments {
        fd.spec.pod_template = Some(PodTemplate {
            metadata: None,
            spec: Some(PodTemplateSpec {
                automount_service_account_token: Some(false),
                ..Default::default()
            }),
        });
    }
}

#[test]
fn a_template_that_turns_the_token_off_is_named_with_the_patch_that_takes_it_out() {
    let mut s = scenario("real-role-no-create");
    unmounted(&mut s);
    let f = run(&ServiceAccountTokenUnmounted, &s);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].category, Category::SaTokenUnreadable);
    assert!(f[0].evidence.iter().any(|e| {
        e == "FlinkDeployment orders sets spec.podTemplate.spec.automountServiceAccountToken: false"
    }));
    let r = Remedy::from_fix(&f[0].fix);
    assert_eq!(
        r.run,
        vec![
            r#"kubectl patch flinkdeployment orders -n analytics --type=json -p '[{"op":"remove","path":"/spec/podTemplate/spec/automountServiceAccountToken"}]'"#
        ]
    );
}

#[test]
fn the_jobmanager_s_own_template_decides_and_a_token_mounted_by_hand_counts() {
    let mut s = scenario("real-role-no-create");
    unmounted(&mut s);
    let on: PodTemplate =
        serde_yaml::from_str("spec: {automountServiceAccountToken: true}").unwrap();
    s.flink_deployments[0]
        .spec
        .job_manager
        .as_mut()
        .unwrap()
        .pod_template = Some(on);
    assert!(run(&ServiceAccountTokenUnmounted, &s).is_empty());
    let by_hand: PodTemplate = serde_yaml::from_str(
        "spec:\n  automountServiceAccountToken: false\n  containers:\n  - name: flink-main-container\n    volumeMounts: [{name: token, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}]\n",
    )
    .unwrap();
    s.flink_deployments[0]
        .spec
        .job_manager
        .as_mut()
        .unwrap()
        .pod_template = Some(by_hand);
    assert!(run(&ServiceAccountTokenUnmounted, &s).is_empty());
}

#[test]
fn silent_on_healthy_clusters_even_with_the_token_off() {
    for name in HEALTHY_SCENARIOS
        .iter()
        .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
    {
        let mut s = scenario(name);
        assert!(run(&ServiceAccountTokenUnmounted, &s).is_empty(), "{name}");
        unmounted(&mut s);
        assert!(
            run(&ServiceAccountTokenUnmounted, &s).is_empty(),
            "{name}, token off"
        );
    }
}

use super::*;
use crate::rules::testing::{run, snapshot, HEALTHY};

const CRASH: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 2048m, cpu: 1}}
  taskManager: {resource: {memory: 2048m, cpu: 1}}
  job: {jarURI: local:///opt/flink/examples/streaming/StateMachineExample.jar, parallelism: 2, upgradeMode: stateless}
status:
  jobManagerDeploymentStatus: ERROR
  lifecycleState: DEPLOYED
  jobStatus: {state: RECONCILING}
  error: '{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'
---
apiVersion: v1
kind: Event
metadata: {name: JobManagerDeployment.1427715592, namespace: analytics}
involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
reason: CrashLoopBackOff
type: Warning
count: 12
lastTimestamp: "2026-11-28T09:41:30Z"
message: "[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)"
"#;

#[test]
fn a_crash_looping_jobmanager_is_a_fatal_exit_symptom() {
    let f = run(&FlinkResourceStatus, &snapshot(CRASH));
    assert_eq!(f.len(), 1);
    let f = &f[0];
    assert_eq!(f.category, Category::FlinkFatalExit);
    assert_eq!(f.severity, Severity::Critical);
    assert_eq!(
        f.title,
        "JobManager deployment failed (jobManagerDeploymentStatus ERROR): CrashLoopBackOff"
    );
    assert!(f
        .evidence
        .contains(&"status.jobManagerDeploymentStatus: ERROR".to_string()));
    assert!(f.evidence.contains(&"status.error.type: org.apache.flink.kubernetes.operator.exception.DeploymentFailedException".to_string()));
    assert!(f
        .evidence
        .contains(&"status.error.additionalMetadata.reason: CrashLoopBackOff".to_string()));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.starts_with("event Warning CrashLoopBackOff x12")),
        "{:?}",
        f.evidence
    );
    // The pod the operator names, by name, rather than a selector over whichever pods exist now.
    assert!(
        f.fix.contains(
            "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous | grep"
        ),
        "{}",
        f.fix
    );
    assert!(!f.fix.contains("-l app=orders"), "{}", f.fix);
    assert!(f.verify.contains("expect READY STABLE RUNNING"));
    // The CR-level finding folds under a cause of the container the operator saw fail.
    assert_eq!(
        f.links,
        vec![
            link::container_name("flink-main-container"),
            link::container(
                "analytics",
                "orders-5d8f9c7b6d-x7k2p",
                "flink-main-container"
            )
        ]
    );
    assert_eq!(
        f.deployment,
        Some(ObjectRef::namespaced(
            "FlinkDeployment",
            "analytics",
            "orders"
        ))
    );
}

#[test]
fn silent_on_healthy_and_suspended_deployments() {
    assert!(run(&FlinkResourceStatus, &snapshot(HEALTHY)).is_empty());
    let suspended = HEALTHY.replace(
            "  jobManagerDeploymentStatus: READY\n  lifecycleState: STABLE\n  jobStatus: {state: RUNNING, jobName: StateMachineExample}",
            "  jobManagerDeploymentStatus: MISSING\n  lifecycleState: SUSPENDED\n  jobStatus: {state: SUSPENDED}",
        );
    assert!(run(&FlinkResourceStatus, &snapshot(&suspended)).is_empty());
    let created = HEALTHY.replace(
        "  jobManagerDeploymentStatus: READY\n  lifecycleState: STABLE",
        "  jobManagerDeploymentStatus: MISSING\n  lifecycleState: CREATED",
    );
    assert!(
        run(&FlinkResourceStatus, &snapshot(&created)).is_empty(),
        "not yet handled is not broken"
    );
}

#[test]
fn decodes_the_root_cause_and_categorises_by_its_words() {
    let y = CRASH.replace(
            r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
            r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.client.deployment.ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".","throwableList":[{"type":"org.apache.flink.client.deployment.ClusterDeploymentException","message":"Could not create Kubernetes cluster \"orders\"."},{"type":"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException","message":"Failure executing: POST at: https://10.96.0.1/apis/apps/v1/namespaces/analytics/deployments. Message: deployments.apps \"orders\" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=8Gi, limited: limits.memory=8Gi."}]}'"#,
        ).replace("reason: CrashLoopBackOff\n", "reason: Error\n");
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert_eq!(
        f.category,
        Category::ResourceQuotaExceeded,
        "{:?}",
        f.evidence
    );
    assert_eq!(f.layer, Category::ResourceQuotaExceeded.layer());
    assert!(f.evidence.iter().any(|e| e.starts_with("status.error.throwableList[1]: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Failure executing") && e.ends_with("(root cause)")), "{:?}", f.evidence);
    assert!(
        f.fix
            .contains("Root cause reported by the operator: Failure executing: POST"),
        "{}",
        f.fix
    );
}

#[test]
fn validation_errors_use_the_validator_message() {
    // The refused spec has the standby JobManager the message is about.
    let y = CRASH
            .replace("jobManager: {resource: {memory: 2048m, cpu: 1}}", "jobManager: {replicas: 2, resource: {memory: 2048m, cpu: 1}}")
            .replace("jobManagerDeploymentStatus: ERROR", "jobManagerDeploymentStatus: MISSING")
            .replace("lifecycleState: DEPLOYED", "lifecycleState: FAILED")
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"High availability should be enabled when starting standby JobManagers.","throwableList":[]}'"#,
            )
            .replace("reason: CrashLoopBackOff\n", "reason: ValidationError\n")
            .replace("message: \"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"", "message: High availability should be enabled when starting standby JobManagers.");
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert_eq!(f.category, Category::HaMisconfigured);
    assert!(
        f.title.starts_with("JobManager deployment is missing"),
        "{}",
        f.title
    );
    assert!(f.fix.contains("high-availability.type"), "{}", f.fix);

    let sa = y
            .replace("High availability should be enabled when starting standby JobManagers.", "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.")
            .replace("  serviceAccount: flink\n", "");
    let f = &run(&FlinkResourceStatus, &snapshot(&sa))[0];
    assert_eq!(f.category, Category::WebhookRejected);
    assert!(
        f.fix.contains("{\"spec\":{\"serviceAccount\":\"flink\"}}"),
        "{}",
        f.fix
    );
    // The account is made with the JobManager's rights, not only named: the chart's `flink`
    // account exists in the operator's namespace, not in this one.
    assert!(f.fix.contains("kind: ServiceAccount"), "{}", f.fix);
    assert!(f.fix.contains("name: flink-jobmanager"), "{}", f.fix);
}

#[test]
fn a_validation_error_older_than_the_spec_is_info_not_the_old_fix() {
    // The operator refused a spec without serviceAccount; the spec has one now.
    let y = CRASH
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.","throwableList":[]}'"#,
            );
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert_eq!(f.severity, Severity::Info, "{}", f.title);
    assert!(f
        .title
        .contains("waiting for the operator to validate it again"));
    assert!(f
        .evidence
        .iter()
        .any(|e| e.contains("spec.serviceAccount is set now (flink)")));
    assert!(!f.fix.contains("kind: ServiceAccount"), "{}", f.fix);
}

/// CRASH turned into the validator's refusal of standby JobManagers without HA, on a
/// FlinkDeployment deployed before (generation 3 refused, 2 the last one reconciled).
fn standby_refused() -> String {
    CRASH
            .replace("metadata: {name: orders, namespace: analytics}", "metadata: {name: orders, namespace: analytics, generation: 3}")
            .replace("jobManager: {resource: {memory: 2048m, cpu: 1}}", "jobManager: {replicas: 2, resource: {memory: 2048m, cpu: 1}}")
            .replace("lifecycleState: DEPLOYED", "lifecycleState: DEPLOYED\n  observedGeneration: 2")
            .replace(
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}'"#,
                r#"'{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"High availability should be enabled when starting standby JobManagers.","throwableList":[]}'"#,
            )
}

#[test]
fn a_refused_change_is_live_although_the_generation_is_ahead_of_the_observed_one() {
    // The operator sets observedGeneration only when it reconciles a spec: a refused change
    // leaves it behind metadata.generation, so that says nothing about the error's age.
    let f = &run(&FlinkResourceStatus, &snapshot(&standby_refused()))[0];
    assert_eq!(f.category, Category::HaMisconfigured);
    assert_ne!(f.severity, Severity::Info, "{}", f.title);
    assert!(f.fix.contains("high-availability.type"), "{}", f.fix);
    // HA configured off, or the old default `standalone`, is no fix either.
    for off in ["NONE", "standalone"] {
        let y = standby_refused().replace(
                "  serviceAccount: flink\n",
                &format!("  serviceAccount: flink\n  flinkConfiguration: {{high-availability.type: {off}}}\n"),
            );
        let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
        assert_ne!(f.severity, Severity::Info, "{off}: {}", f.title);
    }
}

#[test]
fn standby_jobmanagers_refused_before_ha_was_set_are_waiting_for_the_operator() {
    let y = standby_refused().replace(
            "  serviceAccount: flink\n",
            "  serviceAccount: flink\n  flinkConfiguration: {high-availability.type: kubernetes, high-availability.storageDir: 's3://b/ha'}\n",
        );
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert_eq!(f.severity, Severity::Info, "{}", f.title);
    assert!(
        f.title
            .ends_with("waiting for the operator to validate it again"),
        "{}",
        f.title
    );
    assert!(
        f.evidence.iter().any(|e| e
            .starts_with("high-availability.type is kubernetes now (HA on), so the 2 JobManagers")),
        "{:?}",
        f.evidence
    );
    assert!(
        crate::finding::Remedy::from_fix(&f.fix).is_empty(),
        "{}",
        f.fix
    );
    assert!(f.fix.contains("-o jsonpath='{.status.error}"), "{}", f.fix);
    // One JobManager is the other way out.
    let one = standby_refused().replace("jobManager: {replicas: 2,", "jobManager: {replicas: 1,");
    let f = &run(&FlinkResourceStatus, &snapshot(&one))[0];
    assert_eq!(f.severity, Severity::Info, "{}", f.title);
    assert!(f
        .evidence
        .iter()
        .any(|e| e.starts_with("spec.jobManager.replicas is 1 now")));
}

#[test]
fn the_validator_checks_asked_again_of_the_spec_now() {
    let fd = |extra: &str| -> FlinkDeployment {
        serde_yaml::from_str(&format!(
                "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: a, namespace: b}}\nspec:\n{extra}"
            ))
            .unwrap()
    };
    let bare = fd("  image: flink:1.20\n");
    for msg in [
            "Flink Version must be defined.",
            "jarURI must include a scheme",
            "JobManager resource memory must be defined using `spec.jobManager.resource.memory`",
            "TaskManager resource memory must be defined using `spec.taskManager.resource.memory`",
            "Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes",
            "HA must be enabled for rollback support.",
            "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.",
            "Forbidden Flink config key: kubernetes.namespace",
        ] {
            assert_eq!(validated_spec_changed(&bare, msg), None, "{msg}");
        }
    let fixed = fd("  flinkVersion: v1_20\n  serviceAccount: flink\n  flinkConfiguration: {execution.checkpointing.dir: 's3://b/c', kubernetes.operator.deployment.rollback.enabled: 'false'}\n  jobManager: {resource: {memory: 1g}}\n  taskManager: {resource: {memory: 1g}}\n  job: {jarURI: 'local:///opt/flink/usrlib/j.jar'}\n");
    for msg in [
            "Flink Version must be defined.",
            "jarURI must include a scheme",
            "JobManager resource memory must be defined using `spec.jobManager.resource.memory`",
            "TaskManager resource memory must be defined using `spec.taskManager.resource.memory`",
            "Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes",
            "HA must be enabled for rollback support.",
            "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.",
        ] {
            assert!(validated_spec_changed(&fixed, msg).is_some(), "{msg}");
        }
    // An unknown refusal cannot be asked again: it stands.
    assert_eq!(
        validated_spec_changed(&fixed, "Forbidden Flink config key: kubernetes.namespace"),
        None
    );
    let no_scheme = fd("  job: {jarURI: '/opt/flink/usrlib/j.jar'}\n");
    assert_eq!(
        validated_spec_changed(&no_scheme, "jarURI must include a scheme"),
        None
    );
}

#[test]
fn a_session_job_jar_the_operator_cannot_fetch_is_the_jar_s_problem() {
    // Recorded by the reality lab: operator 1.7.0, jarURI on a host nobody serves.
    let s = crate::snapshot::bundle::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/real-session-job-jar-missing"
    )))
    .unwrap();
    let f = run(&FlinkResourceStatus, &s);
    let f = f
        .iter()
        .find(|f| f.object.kind == "FlinkSessionJob")
        .expect("a finding on the session job");
    assert_eq!(f.category, Category::JobJarNotFound);
    assert_eq!(f.severity, Severity::Critical);
    assert!(
        f.title.contains("artifacts.analytics.svc.cluster.local"),
        "{}",
        f.title
    );
    assert!(
        f.fix.contains("jarURI: https://<where the jar is served>"),
        "{}",
        f.fix
    );
}

#[test]
fn the_container_the_operator_saw_fail_is_a_link() {
    assert_eq!(
            failed_container("[flink-main-container] back-off 40s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b-11)"),
            Some(("flink-main-container".into(), "orders-5d8f9c7b6d-x7k2p".into(), "analytics".into()))
        );
    assert_eq!(failed_container("Missing JobManager deployment"), None);
    let f = &run(&FlinkResourceStatus, &snapshot(CRASH))[0];
    assert!(
        f.links
            .contains(&link::container_name("flink-main-container")),
        "{:?}",
        f.links
    );
}

#[test]
fn stuck_deploying_counts_from_the_last_reconciliation() {
    let y = CRASH
            .replace("jobManagerDeploymentStatus: ERROR", "jobManagerDeploymentStatus: DEPLOYING")
            .replace("  error: '", "  reconciliationStatus: {state: DEPLOYED, reconciliationTimestamp: 1764322800000}\n  x: '")
            .replace("reason: CrashLoopBackOff\n", "reason: Submit\n")
            .replace("type: Warning", "type: Normal");
    let mut s = snapshot(&y);
    // 2025-11-28T09:40:00Z is 1764322800000 ms.
    s.captured_at = "2025-11-28T09:44:00Z".parse().unwrap();
    assert!(
        run(&FlinkResourceStatus, &s).is_empty(),
        "within the readiness timeout"
    );
    s.captured_at = "2025-11-28T09:52:00Z".parse().unwrap();
    let f = run(&FlinkResourceStatus, &s);
    assert_eq!(f.len(), 1);
    assert!(
        f[0].title
            .contains("DEPLOYING for longer than the 5 min readiness timeout"),
        "{}",
        f[0].title
    );
    assert!(
        f[0].evidence
            .iter()
            .any(|e| e.contains("12 min before the snapshot")),
        "{:?}",
        f[0].evidence
    );
}

#[test]
fn plain_string_errors_and_failed_session_jobs() {
    let y = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: analytics}
spec:
  deploymentName: session
  job: {jarURI: "https://repo.example.com/wordcount.jar", parallelism: 1, upgradeMode: stateless}
status:
  lifecycleState: STABLE
  jobStatus: {state: RECONCILING}
  error: Job Not Found
"#;
    let f = run(&FlinkResourceStatus, &snapshot(y));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].category, Category::JobmanagerRestartWithoutHa);
    assert_eq!(
        f[0].object,
        ObjectRef::namespaced("FlinkSessionJob", "analytics", "wordcount")
    );
    assert!(
        f[0].evidence
            .contains(&"status.error: Job Not Found".to_string()),
        "{:?}",
        f[0].evidence
    );
    assert!(f[0]
        .evidence
        .iter()
        .any(|e| e.contains("no FlinkDeployment session exists")));
    assert!(f[0].verify.contains("flinksessionjob wordcount"));
    let d = OperatorError::parse("org.apache.flink.util.FlinkRuntimeException: boom");
    assert_eq!(
        d.type_.as_deref(),
        Some("org.apache.flink.util.FlinkRuntimeException")
    );
    assert_eq!(d.root_message(), Some("boom"));
}

#[test]
fn image_versions() {
    assert_eq!(
        flink_version_of_image("flink:1.20.1-scala_2.12-java17").as_deref(),
        Some("v1_20")
    );
    assert_eq!(
        flink_version_of_image("apache/flink:2.0"),
        Some("v2_0".into())
    );
    assert_eq!(flink_version_of_image("flink:latest"), None);
}

#[test]
fn scenario_bundles() {
    use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
    for (name, category) in [
        (
            "flink-resource-status-validation",
            Category::HaMisconfigured,
        ),
        ("session-job-jar-not-found", Category::JobJarNotFound),
        ("flink-fatal-exit", Category::FlinkFatalExit),
        ("crashloop-image-incompatible", Category::FlinkFatalExit),
        ("image-pull-failed", Category::ImagePullFailed),
        ("resource-quota-exceeded", Category::ResourceQuotaExceeded),
    ] {
        let f = run(&FlinkResourceStatus, &scenario(name));
        assert_eq!(f.len(), 1, "{name}: {f:?}");
        assert_eq!(f[0].category, category, "{name}");
    }
    let f = &run(&FlinkResourceStatus, &scenario("session-job-jar-not-found"))[0];
    assert_eq!(f.title, "FlinkSessionJob failed (lifecycleState FAILED): FileNotFoundException: https://artifacts.example.com/flink/enricher-1.4.0.jar");
    assert_eq!(
        f.deployment,
        Some(ObjectRef::namespaced(
            "FlinkDeployment",
            "scn-session-job",
            "shared"
        ))
    );
    for name in
        HEALTHY_SCENARIOS
            .iter()
            .chain(&["oom-killed", "pod-unschedulable", "jvm-out-of-memory"])
    {
        assert!(
            run(&FlinkResourceStatus, &scenario(name)).is_empty(),
            "{name}"
        );
    }
}

#[test]
fn a_pod_the_api_server_refused_gets_what_it_refused_not_a_describe_of_no_pod() {
    let refused = |msg: &str| {
        CRASH
            .replace(
                r#"{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}"#,
                &format!(
                    r#"{{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":{},"additionalMetadata":{{"reason":"FailedCreate"}},"throwableList":[]}}"#,
                    serde_json::Value::from(msg).to_string().replace('\'', "''")
                ),
            )
            .replace("reason: CrashLoopBackOff", "reason: FailedCreate")
    };
    let sa = r#"pods "orders-5d8f9c7b6d-" is forbidden: error looking up service account analytics/flink: serviceaccount "flink" not found"#;
    let f = run(&FlinkResourceStatus, &snapshot(&refused(sa)));
    assert_eq!(f[0].category, Category::PodtemplateInvalid);
    assert!(
        f[0].fix
            .contains("ServiceAccount flink does not exist in namespace analytics")
            && f[0]
                .fix
                .contains("kubectl get serviceaccount flink -n analytics")
            && !f[0].fix.contains("kubectl describe pod"),
        "{}",
        f[0].fix
    );
    let pss = r#"pods "orders-5d8f9c7b6d-x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "flink-main-container" must set securityContext.allowPrivilegeEscalation=false)"#;
    let f = run(&FlinkResourceStatus, &snapshot(&refused(pss)));
    assert!(
        f[0].fix.contains(
            "Pod Security \"restricted:latest\" asks for allowPrivilegeEscalation != false"
        ),
        "{}",
        f[0].fix
    );
}

#[test]
fn a_taskmanager_memory_that_cannot_fit_gets_the_size_that_fits() {
    // Recorded by the reality lab: operator 1.7.0, Flink 1.18.1, taskManager.resource.memory 600m.
    let s = crate::snapshot::bundle::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/real-tm-memory-cannot-fit"
    )))
    .unwrap();
    let f = run(&FlinkResourceStatus, &s);
    let f = f
        .iter()
        .find(|f| f.category == Category::MemoryConfigInvalid)
        .expect("the memory finding");
    assert!(
        f.fix.contains(
            "spec.taskManager.resource.memory (Flink's taskmanager.memory.process.size) to 1024m"
        ),
        "{}",
        f.fix
    );
    let r = crate::finding::Remedy::from_fix(&f.fix);
    assert_eq!(
        r.run.first().map(String::as_str),
        Some("kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"taskManager\":{\"resource\":{\"memory\":\"1024m\"}}}}'"),
        "{r:?}"
    );
}

#[test]
fn an_option_flink_cannot_parse_names_the_key_and_leaves_its_value_to_a_person() {
    // Recorded by the reality lab: operator 1.7.0, Flink 1.18.1, flinkConfiguration
    // taskmanager.numberOfTaskSlots: "two"; the operator's status.error is Flink's
    // `Could not parse value 'two' for key 'taskmanager.numberOfTaskSlots'.` (NumberFormatException).
    // It used to be a bare fatal exit whose fix only redeployed.
    let s = crate::snapshot::bundle::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/real-config-option"
    )))
    .unwrap();
    let f = run(&FlinkResourceStatus, &s);
    let f = f
        .iter()
        .find(|f| f.category == Category::ConfigOptionInvalid)
        .expect("the option finding");
    assert!(
        f.title.contains("taskmanager.numberOfTaskSlots"),
        "{}",
        f.title
    );
    assert!(f.title.contains("'two'"), "{}", f.title);
    // The one field, as a command whose value only a person knows (one placeholder).
    let cmd = "kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"flinkConfiguration\":{\"taskmanager.numberOfTaskSlots\":\"<taskmanager.numberOfTaskSlots>\"}}}'";
    assert!(f.fix.contains(cmd), "{}", f.fix);
    let r = crate::finding::Remedy::from_fix(&f.fix);
    // Marked for the person to fill (FILL_IN), then the redeploy.
    assert_eq!(
        r.run.first().cloned(),
        Some(format!("# fill in each <...>, then run: {cmd}")),
        "{r:?}"
    );
    // No memory unit is offered for an option that is no memory size.
    assert!(!f.fix.contains("1024-based"), "{}", f.fix);
}

/// CRASH with the operator's error and event saying `msg` under the Kubernetes reason `reason`.
fn crash_with(msg: &str, reason: &str) -> String {
    CRASH
        .replace(
            r#"{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":"[flink-main-container] CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)","additionalMetadata":{"reason":"CrashLoopBackOff"},"throwableList":[]}"#,
            &format!(
                r#"{{"type":"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException","message":{},"additionalMetadata":{{"reason":"{reason}"}},"throwableList":[]}}"#,
                serde_json::Value::from(msg).to_string().replace('\'', "''")
            ),
        )
        .replace("reason: CrashLoopBackOff", &format!("reason: {reason}"))
}

#[test]
fn a_quota_refusal_names_the_quota_and_the_hard_limit_the_pod_needs() {
    // Quota admission's words, the same in every release the tool reads: `exceeded quota: %s,
    // requested: %s, used: %s, limited: %s` with `k=v,k=v` lists (prettyPrint, sorted keys):
    // kubernetes/apiserver@kubernetes-1.24.0, @kubernetes-1.28.0, @kubernetes-1.32.0 and
    // @kubernetes-1.36.0:pkg/admission/plugin/resourcequota/controller.go.
    let msg = r#"pods "orders-5d8f9c7b6d-x" is forbidden: exceeded quota: team-compute, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=2,limits.memory=7Gi, limited: limits.cpu=4,limits.memory=8Gi"#;
    let f = run(
        &FlinkResourceStatus,
        &snapshot(&crash_with(msg, "FailedCreate")),
    );
    assert_eq!(f[0].category, Category::ResourceQuotaExceeded);
    assert!(
        f[0].fix.contains("ResourceQuota team-compute refuses the pods of FlinkDeployment orders (limits.memory: used 7Gi + requested 2Gi > hard 8Gi)"),
        "{}",
        f[0].fix
    );
    // Only what is short is raised: cpu fits (2 + 1 <= 4).
    assert_eq!(
        crate::finding::Remedy::from_fix(&f[0].fix).run[0],
        r#"kubectl patch resourcequota team-compute -n analytics --type=merge -p '{"spec":{"hard":{"limits.memory":"9216Mi"}}}'"#
    );
}

#[test]
fn the_image_fixes_name_the_image_of_the_spec_and_the_declared_version() {
    let declared = CRASH.replace("flinkVersion: v1_20", "flinkVersion: v1_18");
    let f = run(
        &FlinkResourceStatus,
        &snapshot(
            &declared
                .replace("CrashLoopBackOff\"}", "RunContainerError\"}")
                .replace("reason: CrashLoopBackOff", "reason: RunContainerError"),
        ),
    );
    assert_eq!(f[0].category, Category::ImageIncompatible, "{f:?}");
    assert!(f[0].fix.contains("spec.image flink:1.20"), "{}", f[0].fix);
    assert_eq!(
        crate::finding::Remedy::from_fix(&f[0].fix).run[0],
        r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"image":"flink:1.18"}}'"#
    );
    // No version declared: a custom image's tag says nothing, so the image is one marked
    // placeholder (the command is kept for a person to fill in).
    let custom = declared.replace("  flinkVersion: v1_18\n", "").replace(
        "image: flink:1.20",
        "image: registry.example.com/team/orders:7",
    );
    let f = run(
        &FlinkResourceStatus,
        &snapshot(
            &custom
                .replace("CrashLoopBackOff\"}", "RunContainerError\"}")
                .replace("reason: CrashLoopBackOff", "reason: RunContainerError"),
        ),
    );
    assert_eq!(f[0].category, Category::ImageIncompatible, "{f:?}");
    assert!(
        f[0].fix
            .contains(r#"-p '{"spec":{"image":"flink:<your Flink version>"}}'"#),
        "{}",
        f[0].fix
    );
    let f = run(
        &FlinkResourceStatus,
        &snapshot(
            &CRASH
                .replace("CrashLoopBackOff\"}", "ImagePullBackOff\"}")
                .replace("reason: CrashLoopBackOff", "reason: ImagePullBackOff"),
        ),
    );
    assert_eq!(f[0].category, Category::ImagePullFailed, "{f:?}");
    assert!(
        f[0].fix.contains("spec.image is flink:1.20 now"),
        "{}",
        f[0].fix
    );
}

#[test]
fn a_session_job_jar_that_is_not_there_names_the_jar_uri_and_the_field() {
    // The operator's FileNotFoundException for the jarURI it fetched (no catalogue signature):
    // the fix names spec.job.jarURI as it is, with the placeholder, not `kubectl describe`.
    let f = &run(
        &FlinkResourceStatus,
        &crate::rules::testing::scenario("session-job-jar-not-found"),
    )[0];
    assert!(
        f.fix.contains("spec.job.jarURI of FlinkSessionJob enricher is https://artifacts.example.com/flink/enricher-1.4.0.jar now"),
        "{}",
        f.fix
    );
    assert!(!f.fix.contains("kubectl describe"), "{}", f.fix);
    assert_eq!(
        crate::finding::Remedy::from_fix(&f.fix).run[0],
        format!(
            "{}kubectl patch flinksessionjob enricher -n scn-session-job --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"<spec.job.jarURI>\"}}}}}}'",
            crate::finding::FILL_IN
        )
    );
}

#[test]
fn the_failed_container_is_read_from_the_operator_s_message_in_every_release() {
    // The kubelet's back-off message, `back-off %s restarting failed container=%s pod=%s` with
    // format.Pod's NAME_NAMESPACE(UID) (kubernetes/kubernetes pkg/kubelet/kuberuntime/
    // kuberuntime_manager.go, doBackOff), as the operator copies it:
    // - release-1.6.0 ... release-1.11.0: the waiting state's message alone
    //   (`new DeploymentFailedException(ContainerStateWaiting)`, super(stateWaiting.getMessage()));
    // - release-1.12.0, release-1.13.0, release-1.15.0: `[%s] %s` with the container's name
    //   (`forContainerStatus`), the message `CrashLoop - ` and the last termination's message
    //   when it has one, else the waiting state's
    // (apache/flink-kubernetes-operator@TAG:flink-kubernetes-operator/src/main/java/org/apache/
    // flink/kubernetes/operator/exception/DeploymentFailedException.java).
    let backoff = "back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b-11)";
    let want = Some((
        "flink-main-container".to_string(),
        "orders-5d8f9c7b6d-x7k2p".to_string(),
        "analytics".to_string(),
    ));
    for (release, message) in [
        ("release-1.6.0..1.11.0", backoff.to_string()),
        (
            "release-1.12.0+",
            format!("[flink-main-container] {backoff}"),
        ),
    ] {
        assert_eq!(failed_container(&message), want, "{release}");
    }
    // 1.12+ with a termination message: no pod, the container by its name.
    let crash = "[flink-main-container] CrashLoop - Could not start cluster entrypoint KubernetesApplicationClusterEntrypoint.";
    assert_eq!(failed_container(crash), None);
    assert_eq!(
        operator_named_container(crash),
        Some("flink-main-container")
    );
    assert_eq!(operator_named_container(backoff), None);
    assert_eq!(operator_named_container("[not a name!] x"), None);
    // ... linked to that container of the cluster's JobManager pod.
    let pod = r#"
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers:
  - {name: flink-main-container, image: "flink:1.20"}
"#;
    let crashed = CRASH.replace(
        "CrashLoop - back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)",
        "CrashLoop - Could not start cluster entrypoint KubernetesApplicationClusterEntrypoint.",
    );
    let f = &run(&FlinkResourceStatus, &snapshot(&format!("{crashed}{pod}")))[0];
    assert!(
        f.links.contains(&link::container(
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container"
        )),
        "{:?}",
        f.links
    );
}

#[test]
fn a_configmap_or_secret_the_pod_template_names_is_created_by_name_not_described() {
    // CreateContainerConfigError's waiting message, as operator 1.12+ copies it (`[C] MESSAGE`).
    let f = run(
        &FlinkResourceStatus,
        &snapshot(&crash_with(
            r#"[flink-main-container] configmap "orders-extra" not found"#,
            "CreateContainerConfigError",
        )),
    );
    assert_eq!(f[0].category, Category::PodtemplateInvalid);
    assert!(
        f[0].fix.contains(
            "references ConfigMap orders-extra, which does not exist in namespace analytics"
        ) && !f[0].fix.contains("kubectl describe"),
        "{}",
        f[0].fix
    );
    assert!(
        f[0].fix.contains(
            "kubectl create configmap orders-extra -n analytics --from-file=<file holding its data>"
        ),
        "{}",
        f[0].fix
    );
    let f = run(
        &FlinkResourceStatus,
        &snapshot(&crash_with(
            "[flink-main-container] couldn't find key password in Secret analytics/orders-db",
            "CreateContainerConfigError",
        )),
    );
    assert!(
        f[0].fix.contains("Secret orders-db in namespace analytics has no key password")
            && f[0].fix.contains(
                r#"kubectl patch secret orders-db -n analytics --type=merge -p '{"stringData":{"password":"<password>"}}'"#
            ),
        "{}",
        f[0].fix
    );
}

#[test]
fn a_validator_message_naming_a_field_gets_that_field_not_kubectl_edit() {
    // DefaultValidator's words, the same from apache/flink-kubernetes-operator@release-1.6.0 to
    // @release-1.13.0 (validation/DefaultValidator.java; the autoscaler's range from
    // release-1.7.0 on).
    let fd: FlinkDeployment = serde_yaml::from_str(
        "metadata: {name: orders, namespace: analytics}\nspec:\n  flinkConfiguration: {kubernetes.namespace: other}\n",
    )
    .unwrap();
    let fix = |msg: &str| {
        super::fix::validation_fix(msg, "analytics", "orders", "flinkdeployment", Some(&fd))
    };
    let f = fix("Job could not be upgraded with savepoint while config key[state.savepoints.dir] is not set");
    assert!(
        f.contains(r#"-p '{"spec":{"flinkConfiguration":{"state.savepoints.dir":"<state.savepoints.dir>"}}}'"#)
            && f.contains("(it is not set now)"),
        "{f}"
    );
    let f = fix("Forbidden Flink config key: kubernetes.namespace");
    assert!(
        f.contains("(it is other now)")
            && f.contains(r#"-p '{"spec":{"flinkConfiguration":{"kubernetes.namespace":null}}}'"#),
        "{f}"
    );
    let f = fix("Invalid log config key: log4j.properties. Allowed keys are [log4j-console.properties, logback-console.xml]");
    assert!(
        f.contains(r#"-p '{"spec":{"logConfiguration":{"log4j.properties":null}}}'"#),
        "{f}"
    );
    let f = fix("The AutoScalerOption job.autoscaler.target.utilization is invalid, it should be a value within the range [0.0, 1.0]");
    assert!(
        f.contains("a value from 0.0 to 1.0")
            && f.contains(
                r#""job.autoscaler.target.utilization":"<job.autoscaler.target.utilization>""#
            ),
        "{f}"
    );
    let f = fix("Job parallelism must be larger than 0");
    assert!(
        f.contains(r#"-p '{"spec":{"job":{"parallelism":1}}}'"#),
        "{f}"
    );
    let f = fix("JobManager replicas should not be configured less than one.");
    assert!(
        f.contains(r#"-p '{"spec":{"jobManager":{"replicas":1}}}'"#),
        "{f}"
    );
    assert!(!fix("Something new the validator says").contains("kubectl patch"));
}

/// Operator 1.10.0 with Flink 1.20.1 in the lab (tm-memory-cannot-fit, second round): the fix had
/// set 1024m and the operator deployed it; the job then ended, and the operator failed to observe
/// it (FLINK-37370, `category::terminal_job_unobserved`). The 600m spec's memory event was still
/// there.
const UNOBSERVED: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics, generation: 3}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {resource: {memory: 1024m, cpu: 0.5}}
  taskManager: {resource: {memory: 1024m, cpu: 0.5}}
  job: {jarURI: local:///opt/flink/usrlib/lab-job.jar, parallelism: 1, upgradeMode: stateless}
status:
  jobManagerDeploymentStatus: DEPLOYED_NOT_READY
  lifecycleState: DEPLOYED
  observedGeneration: 3
  jobStatus: {state: RECONCILING}
  reconciliationStatus: {state: DEPLOYED, reconciliationTimestamp: 1796493200000}
  error: '{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.kubernetes.operator.exception.ReconciliationException: Could not observe latest savepoint information","additionalMetadata":{},"throwableList":[{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"Could not observe latest savepoint information","additionalMetadata":{}},{"type":"java.util.concurrent.ExecutionException","message":"org.apache.flink.runtime.rest.util.RestClientException: [org.apache.flink.runtime.rest.handler.RestHandlerException: Checkpointing has not been enabled.","additionalMetadata":{}}]}'
---
apiVersion: v1
kind: Event
metadata: {name: orders.memory, namespace: analytics}
involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
reason: ClusterDeploymentException
type: Warning
lastTimestamp: "2026-12-05T17:53:41Z"
message: "TaskManager memory configuration failed: Sum of configured Framework Heap Memory (128.000mb (134217728 bytes)), Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), Managed Memory (60.800mb (63753421 bytes)) and Network Memory (64.000mb (67108864 bytes)) exceed configured Total Flink Memory (152.000mb (159383552 bytes))."
---
apiVersion: v1
kind: Event
metadata: {name: orders.job, namespace: analytics}
involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
reason: JobStatusChanged
type: Normal
lastTimestamp: "2026-12-05T17:54:20Z"
message: "Job status changed from RECONCILING to FAILED"
---
apiVersion: v1
kind: Event
metadata: {name: orders.observe, namespace: analytics}
involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
reason: ClusterDeploymentException
type: Warning
count: 4
lastTimestamp: "2026-12-05T17:54:31Z"
message: "Could not observe latest savepoint information"
"#;

#[test]
fn a_job_the_operator_could_not_observe_is_an_outcome_not_a_savepoint_or_an_old_memory_error() {
    let f = run(&FlinkResourceStatus, &snapshot(UNOBSERVED));
    assert_eq!(f.len(), 1, "{f:?}");
    let f = &f[0];
    // A generic outcome: any specific finding of the deployment (a quota, a crash) explains it.
    assert_eq!(f.category, Category::FlinkFatalExit, "{}", f.fix);
    assert!(f.category.is_symptom());
    assert!(f.fix.contains("FLINK-37370"), "{}", f.fix);
    assert!(
        f.fix.contains("execution.checkpointing.interval"),
        "{}",
        f.fix
    );
    assert!(!f.fix.contains("--previous"), "{}", f.fix);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.contains("Job status changed from RECONCILING to FAILED")),
        "{:?}",
        f.evidence
    );
    // The 600m spec's event is not the spec's now: neither category nor evidence.
    assert!(
        !f.evidence.iter().any(|e| e.contains("152.000mb")),
        "{:?}",
        f.evidence
    );
    assert!(!f.fix.contains("kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"taskManager\""));

    // The same event with the 600m spec is the spec's own: the memory finding and its fit.
    let own = UNOBSERVED
        .replace(
            "taskManager: {resource: {memory: 1024m",
            "taskManager: {resource: {memory: 600m",
        )
        .replace("Checkpointing has not been enabled.", "timeout");
    let f = run(&FlinkResourceStatus, &snapshot(&own));
    assert_eq!(f[0].category, Category::MemoryConfigInvalid, "{}", f[0].fix);
    assert!(f[0].fix.contains("to 1024m"), "{}", f[0].fix);
}

/// The JobManager pod of CRASH as the kubelet reports it: restarted after exit code `code`, now
/// in CrashLoopBackOff.
fn crashed_jm(code: i32) -> String {
    format!(
        r#"
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {{app: orders, component: jobmanager, type: flink-native-kubernetes}}
spec:
  containers:
  - {{name: flink-main-container, image: "flink:1.20"}}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: "flink:1.20"
    imageID: ""
    ready: false
    restartCount: 7
    state: {{waiting: {{reason: CrashLoopBackOff, message: "back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)"}}}}
    lastState: {{terminated: {{exitCode: {code}, reason: Error, message: "Could not start cluster entrypoint", finishedAt: "2026-11-28T09:41:00Z"}}}}
"#
    )
}

#[test]
fn a_jobmanager_that_does_not_stay_up_gets_its_exit_its_log_and_the_field_the_log_names() {
    // An option Flink cannot parse, in the JobManager's previous log only (the operator's error is
    // the crash loop's): the exit, the line, and the key in spec.flinkConfiguration.
    let y = CRASH.replace(
        "  serviceAccount: flink\n",
        "  serviceAccount: flink\n  flinkConfiguration: {taskmanager.numberOfTaskSlots: \"two\"}\n",
    ) + &crashed_jm(1);
    let log = "2026-11-28 09:40:58,001 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Starting KubernetesApplicationClusterEntrypoint.
2026-11-28 09:40:59,101 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Could not start cluster entrypoint KubernetesApplicationClusterEntrypoint.
java.lang.IllegalArgumentException: Could not parse value 'two' for key 'taskmanager.numberOfTaskSlots'.
";
    let s = crate::rules::testing::with_log(
        snapshot(&y),
        "analytics",
        "orders-5d8f9c7b6d-x7k2p",
        "flink-main-container",
        true,
        log,
    );
    let f = &run(&FlinkResourceStatus, &s)[0];
    assert_eq!(f.category, Category::FlinkFatalExit);
    for part in [
        "JobManager pod orders-5d8f9c7b6d-x7k2p container flink-main-container last ended with exit code 1 (Flink could not start), reason Error",
        "reason Error, message \"Could not start cluster entrypoint\"",
        "Its previous log names the cause at line 3, `java.lang.IllegalArgumentException: Could not parse value 'two' for key 'taskmanager.numberOfTaskSlots'.`",
        "kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"flinkConfiguration\":{\"taskmanager.numberOfTaskSlots\":\"<taskmanager.numberOfTaskSlots>\"}}}'",
        "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous | sed -n '1,23p'",
    ] {
        assert!(f.fix.contains(part), "{part}\n{}", f.fix);
    }
    assert!(!f.fix.contains("the reason is in its log"), "{}", f.fix);
    // A cause whose fix is not in the FlinkDeployment (the JobManager's account refused a pod
    // watch): named with its line, its fix left to the pod-level finding that reports it.
    let log = "2026-11-28 09:39:12,034 WARN  Fabric8FlinkKubeClient [] - Error while watching the pods
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User \"system:serviceaccount:analytics:default\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\".
";
    let s = crate::rules::testing::with_log(
        snapshot(&y),
        "analytics",
        "orders-5d8f9c7b6d-x7k2p",
        "flink-main-container",
        true,
        log,
    );
    let f = &run(&FlinkResourceStatus, &s)[0];
    assert!(
        f.fix.contains("Its previous log names the cause at line 2, `org.apache.flink.kubernetes.shaded.io.fabric8")
            && f.fix
                .contains("That cause is reported as a finding of its own (category"),
        "{}",
        f.fix
    );
    assert!(
        !f.fix.contains("kubectl create role") && !f.fix.contains("kubectl apply"),
        "{}",
        f.fix
    );
}

#[test]
fn a_jobmanager_log_no_signature_knows_is_quoted_and_no_log_gets_the_pod_s_previous_log() {
    let y = CRASH.to_string() + &crashed_jm(2);
    // A log whose error no signature knows: its last error lines, quoted with their numbers.
    let log = "2026-11-28 09:40:58,001 INFO  org.example.Boot [] - starting
2026-11-28 09:40:59,101 ERROR org.example.Boot [] - the flux capacitor is not charged
";
    let s = crate::rules::testing::with_log(
        snapshot(&y),
        "analytics",
        "orders-5d8f9c7b6d-x7k2p",
        "flink-main-container",
        true,
        log,
    );
    let f = &run(&FlinkResourceStatus, &s)[0];
    assert!(
        f.fix.contains("last ended with exit code 2 (a fatal error in the running process)")
            && f.fix.contains(
                "line 2: 2026-11-28 09:40:59,101 ERROR org.example.Boot [] - the flux capacitor is not charged"
            )
            && f.fix.contains(
                "the whole log:\n\n  kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous"
            ),
        "{}",
        f.fix
    );
    // No log in the snapshot: the command that reads the one that exited, by the pod's name.
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert!(
        f.fix.contains("The snapshot holds no log of it")
            && f.fix.contains(
                "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous | grep"
            ),
        "{}",
        f.fix
    );
}

/// A FlinkDeployment whose JobManager stays DEPLOYING (12 min past the last reconciliation at
/// 2025-11-28T09:40:00Z, 1764322800000 ms) and its Pending pod, with the scheduler's `message`.
fn pending_jm(message: &str, template: &str, node_selector: &str) -> Snapshot {
    let y = format!(
        r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics}}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
{template}  jobManager: {{resource: {{memory: 2048m, cpu: 1}}}}
  taskManager: {{resource: {{memory: 2048m, cpu: 1}}}}
status:
  jobManagerDeploymentStatus: DEPLOYING
  lifecycleState: DEPLOYED
  reconciliationStatus: {{state: DEPLOYED, reconciliationTimestamp: 1764322800000}}
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {{app: orders, component: jobmanager, type: flink-native-kubernetes}}
spec:
{node_selector}  containers:
  - name: flink-main-container
    resources: {{requests: {{cpu: "1", memory: 2Gi}}}}
status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: "{message}"
"#
    );
    let mut s = snapshot(&y);
    s.captured_at = "2025-11-28T09:52:00Z".parse().unwrap();
    s
}

#[test]
fn a_pending_jobmanager_gets_the_scheduler_s_reason_and_the_field_that_sets_it() {
    // kubernetes/kubernetes@v1.30.0:pkg/scheduler/framework/plugins/noderesources/fit.go ("Insufficient %v").
    let s = pending_jm(
        "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
        "",
        "",
    );
    let f = &run(&FlinkResourceStatus, &s)[0];
    assert_eq!(f.category, Category::PodUnschedulable);
    for part in [
        "JobManager pod orders-5d8f9c7b6d-x7k2p stays Pending: insufficient memory (the scheduler: \"0/3 nodes are available: 3 Insufficient memory.",
        "spec.jobManager.resource.memory is \"2048m\" now",
        "kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"jobManager\":{\"resource\":{\"memory\":\"1024m\"}}}}'",
    ] {
        assert!(f.fix.contains(part), "{part}\n{}", f.fix);
    }
    assert!(!f.fix.contains("FLK106 has the details"), "{}", f.fix);
    // kubernetes/kubernetes@v1.25.0:pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
    // (ErrReasonPod): the selector is dropped in the template that sets it, at its real path.
    let s = pending_jm(
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        "  podTemplate: {spec: {nodeSelector: {disktype: ssd}}}\n",
        "  nodeSelector: {disktype: ssd}\n",
    );
    let f = &run(&FlinkResourceStatus, &s)[0];
    for part in [
        "stays Pending: no node matches its node selector/affinity",
        "(disktype=ssd); they are set in spec.podTemplate.spec.nodeSelector of FlinkDeployment orders",
        "kubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"podTemplate\":{\"spec\":{\"nodeSelector\":{\"disktype\":null}}}}}'",
    ] {
        assert!(f.fix.contains(part), "{part}\n{}", f.fix);
    }
}

#[test]
fn an_unresolved_reference_names_the_pod_the_kubelet_s_words_and_the_template() {
    // A mount the kubelet gave up on, which names no ConfigMap or Secret to create: the kubelet's
    // FailedMount event `Unable to attach or mount volumes: %v` (pkg/kubelet/kubelet.go) over
    // WaitForAttachAndMount's `unmounted volumes=%v, unattached volumes=%v, failed to process
    // volumes=%v: %w`, kubernetes/kubernetes@0001f7ab39f2:pkg/kubelet/volumemanager/volume_manager.go.
    let msg = "Unable to attach or mount volumes: unmounted volumes=[state], unattached volumes=[], failed to process volumes=[]: context deadline exceeded";
    let y = crash_with(msg, "FailedMount").replace(
        "  serviceAccount: flink\n",
        "  serviceAccount: flink\n  podTemplate: {spec: {containers: [{name: flink-main-container}]}}\n",
    ) + r#"
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  containers:
  - {name: flink-main-container, image: "flink:1.20"}
status:
  phase: Pending
  containerStatuses:
  - name: flink-main-container
    image: "flink:1.20"
    imageID: ""
    ready: false
    restartCount: 0
    state: {waiting: {reason: ContainerCreating}}
---
apiVersion: v1
kind: Event
metadata: {name: orders-5d8f9c7b6d-x7k2p.1, namespace: analytics}
involvedObject: {kind: Pod, namespace: analytics, name: orders-5d8f9c7b6d-x7k2p}
reason: FailedMount
type: Warning
message: "Unable to attach or mount volumes: unmounted volumes=[state], unattached volumes=[], failed to process volumes=[]: context deadline exceeded"
"#;
    let f = &run(&FlinkResourceStatus, &snapshot(&y))[0];
    assert_eq!(f.category, Category::PodtemplateInvalid);
    for part in [
        "JobManager pod orders-5d8f9c7b6d-x7k2p cannot start: container flink-main-container waits in ContainerCreating; event FailedMount: \"Unable to attach or mount volumes: unmounted volumes=[state]",
        "fix the reference in spec.podTemplate of FlinkDeployment orders",
        "kubectl describe pod orders-5d8f9c7b6d-x7k2p -n analytics",
    ] {
        assert!(f.fix.contains(part), "{part}\n{}", f.fix);
    }
    assert!(!f.fix.contains("-l app=orders"), "{}", f.fix);
}

#[test]
fn an_error_nothing_more_is_known_of_is_quoted_with_the_resource_by_name() {
    // A session job whose operator error no signature or word knows: its message, decoded, and
    // where the rest is.
    let y = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {name: wordcount, namespace: analytics}
spec:
  deploymentName: session
  job: {jarURI: "local:///opt/flink/usrlib/wordcount.jar", parallelism: 1, upgradeMode: stateless}
status:
  lifecycleState: STABLE
  jobStatus: {state: FAILED}
  error: '{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"java.lang.IllegalStateException: the flux capacitor is not charged","throwableList":[{"type":"java.lang.IllegalStateException","message":"the flux capacitor is not charged"}]}'
"#;
    let f = &run(&FlinkResourceStatus, &snapshot(y))[0];
    assert!(
        f.fix.contains(
            "The operator reports for FlinkSessionJob wordcount: \"java.lang.IllegalStateException: the flux capacitor is not charged\"."
        ) && f.fix.contains("kubectl describe flinksessionjob wordcount -n analytics"),
        "{:?} {}",
        f.category,
        f.fix
    );
    assert!(
        !f.fix.contains("Read the operator's full error"),
        "{}",
        f.fix
    );
}

#[test]
fn names_in_the_verify_and_validator_commands_are_one_shell_word_each() {
    // Names come from a bundle too (hand-edited files): one the shell would split or expand stays
    // one word.
    let v = View {
        kind: "FlinkDeployment",
        ns: "team a",
        name: "o$rders",
        jm: None,
        lifecycle: None,
        job: None,
        error: None,
        reconciled_at: None,
        events: Vec::new(),
        job_spec: None,
    };
    assert!(
        verify(&v).starts_with("kubectl get flinkdeployment 'o$rders' -n 'team a' -o jsonpath="),
        "{}",
        verify(&v)
    );
    let fix = fix::validation_fix(
        "TaskManager resource memory must be defined.",
        v.ns,
        v.name,
        "flinkdeployment",
        None,
    );
    assert!(
        fix.contains("kubectl patch flinkdeployment 'o$rders' -n 'team a' --type=merge"),
        "{fix}"
    );
}

#[test]
fn a_package_java_refused_the_session_cluster_is_opened_in_its_flinkdeployment() {
    // What operator 1.10.0 reported for a FlinkSessionJob on a Java 17 session cluster (the
    // reality lab, Flink 1.20.1): JarRunHandler ran the job's main in the session JobManager,
    // whose JVM had no `--add-opens` (the operator's ConfigMap replaces the image's conf/).
    let error = r#"  error: '{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.util.FlinkRuntimeException: java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.]","throwableList":[{"type":"java.lang.reflect.InaccessibleObjectException","message":"Unable to make field private final java.util.Map java.util.Collections$UnmodifiableMap.m accessible: module java.base does not \"opens java.util\" to unnamed module @69eee410"}]}'"#;
    let bundle =
        include_str!("../../../tests/scenarios/session-job-jar-not-found/flinkdeployment.yaml");
    let start = bundle
        .find("  error: '")
        .expect("the scenario's error line");
    let end = start + bundle[start..].find('\n').unwrap();
    let yaml = format!("{}{error}{}", &bundle[..start], &bundle[end..]).replace(
        "    taskmanager.numberOfTaskSlots: \"2\"",
        "    taskmanager.numberOfTaskSlots: \"2\"\n    env.java.opts.all: -XX:+UseG1GC",
    );
    let f = run(&FlinkResourceStatus, &snapshot(&yaml));
    let f = f
        .iter()
        .find(|f| f.object.kind == "FlinkSessionJob")
        .expect("a finding for the session job");
    assert_eq!(f.category, Category::ImageIncompatible, "{f:?}");
    assert_eq!(
        crate::finding::Remedy::from_fix(&f.fix).run,
        vec![r#"kubectl patch flinkdeployment shared -n scn-session-job --type=merge -p '{"spec":{"flinkConfiguration":{"env.java.opts.all":"-XX:+UseG1GC --add-opens=java.base/java.util=ALL-UNNAMED"}}}'"#.to_string(), "kubectl patch flinksessionjob enricher -n scn-session-job --type=merge -p '{\"spec\":{\"restartNonce\":0}}'".to_string()],
        "{}",
        f.fix
    );
}

/// The lab's session-job-no-cluster on Flink 1.20.1 / operator 1.10.0 once FLK402's session
/// cluster ran: the REST API refused the operator's jar upload, and the event of before the
/// cluster existed (`Flink version null`) was still there.
fn web_submit_refused(conf: &str, log: Option<&str>) -> Snapshot {
    let y = format!(
        r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: shared, namespace: analytics}}
spec:
  image: lab/flink:1.20.1
  flinkVersion: v1_20
  serviceAccount: flink
  flinkConfiguration: {{{conf}}}
  jobManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
  taskManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
status:
  jobManagerDeploymentStatus: READY
  lifecycleState: STABLE
---
apiVersion: v1
kind: Pod
metadata:
  name: shared-6946495d74-kpwsk
  namespace: analytics
  labels: {{app: shared, component: jobmanager, type: flink-native-kubernetes}}
spec:
  containers: [{{name: flink-main-container, image: lab/flink:1.20.1}}]
status:
  phase: Running
  containerStatuses: [{{name: flink-main-container, ready: true, restartCount: 0, image: lab/flink:1.20.1, imageID: "", state: {{running: {{startedAt: "2026-12-06T00:07:50Z"}}}}}}]
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {{name: enricher, namespace: analytics}}
spec:
  deploymentName: shared
  job: {{jarURI: "http://127.0.0.1:55841/lab-job.jar", parallelism: 1, upgradeMode: stateless}}
status:
  lifecycleState: UPGRADING
  error: '{{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]","throwableList":[{{"type":"java.util.concurrent.ExecutionException","message":"org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]"}},{{"type":"org.apache.flink.runtime.rest.util.RestClientException","message":"[POST request not allowed]","additionalMetadata":{{"httpResponseCode":400}}}}]}}'
---
apiVersion: v1
kind: Event
metadata: {{name: enricher.1, namespace: analytics}}
involvedObject: {{apiVersion: flink.apache.org/v1beta1, kind: FlinkSessionJob, namespace: analytics, name: enricher}}
reason: UnsupportedFlinkVersion
type: Warning
count: 1
lastTimestamp: "2026-12-06T00:07:32Z"
message: "Flink version null is not supported by this operator version"
---
apiVersion: v1
kind: Event
metadata: {{name: enricher.2, namespace: analytics}}
involvedObject: {{apiVersion: flink.apache.org/v1beta1, kind: FlinkSessionJob, namespace: analytics, name: enricher}}
reason: SessionJobException
type: Warning
count: 4
lastTimestamp: "2026-12-06T00:08:17Z"
message: "org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]"
"#
    );
    let mut s = snapshot(&y);
    if let Some(log) = log {
        s.logs.insert(
            crate::snapshot::LogKey::new(
                "analytics",
                "shared-6946495d74-kpwsk",
                "flink-main-container",
                false,
            ),
            log.to_string(),
        );
    }
    s
}

fn session_job_finding(s: &Snapshot) -> Finding {
    run(&FlinkResourceStatus, s)
        .into_iter()
        .find(|f| f.object.kind == "FlinkSessionJob")
        .expect("a finding on the session job")
}

#[test]
fn a_session_cluster_with_web_submission_off_gets_the_option_removed() {
    // Flink reads the boolean in any case (ConfigurationUtils.convertToBoolean).
    let f = session_job_finding(&web_submit_refused(r#"web.submit.enable: "FALSE""#, None));
    // The catalogue's cause, not the event of before the session cluster existed.
    assert_eq!(f.category, Category::ImageIncompatible, "{:?}", f.evidence);
    assert_eq!(
        f.title,
        "the operator reports an error: the session cluster's REST API refuses the job's jar upload: web.submit.enable is false or flink-runtime-web is missing"
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.contains("matches SIG-WEB-SUBMIT-REFUSED")),
        "{:?}",
        f.evidence
    );
    assert!(
        f.fix.contains(
            r#"kubectl patch flinkdeployment shared -n analytics --type=json -p '[{"op":"remove","path":"/spec/flinkConfiguration/web.submit.enable"}]'"#
        ),
        "{}",
        f.fix
    );
    assert!(!f.fix.contains("doctor knows no more"), "{}", f.fix);
    // `--fix=run` runs the removal first.
    let r = crate::finding::Remedy::from_fix(&f.fix);
    assert_eq!(
        r.run.first().map(String::as_str),
        Some(
            r#"kubectl patch flinkdeployment shared -n analytics --type=json -p '[{"op":"remove","path":"/spec/flinkConfiguration/web.submit.enable"}]'"#
        ),
        "{:?}",
        r.run
    );
    // The deprecated key too, when it is the one that says false; a true key wins over it.
    let f = session_job_finding(&web_submit_refused(
        r#"jobmanager.web.submit.enable: "false""#,
        None,
    ));
    assert!(
        f.fix.contains(
            r#"{"op":"remove","path":"/spec/flinkConfiguration/jobmanager.web.submit.enable"}"#
        ),
        "{}",
        f.fix
    );
    let f = session_job_finding(&web_submit_refused(
        r#"web.submit.enable: "true", jobmanager.web.submit.enable: "false""#,
        None,
    ));
    assert!(!f.fix.contains(r#""op":"remove""#), "{}", f.fix);
}

#[test]
fn a_session_cluster_that_leaves_web_submission_on_gets_its_image_named() {
    let f = session_job_finding(&web_submit_refused(
        r#"taskmanager.numberOfTaskSlots: "2""#,
        None,
    ));
    assert_eq!(f.category, Category::ImageIncompatible, "{:?}", f.evidence);
    for want in [
        "spec.image is lab/flink:1.20.1",
        "most likely has no flink-runtime-web in /opt/flink/lib",
        "FROM flink:1.20",
        "kubectl logs shared-6946495d74-kpwsk -n analytics -c flink-main-container | grep -i 'web.based job submission'",
        "Failed to load web based job submission extension",
    ] {
        assert!(f.fix.contains(want), "{want}: {}", f.fix);
    }
    assert!(!f.fix.contains("doctor knows no more"), "{}", f.fix);
    // Nothing to run for an image only a person can build.
    let r = crate::finding::Remedy::from_fix(&f.fix);
    assert!(
        r.run.iter().all(|c| !c.contains("flinkdeployment")),
        "{:?}",
        r.run
    );
    // The JobManager's own line, when the snapshot holds its log, is quoted as the reason.
    let log = "2026-12-06 00:07:55,001 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Failed to load web based job submission extension. Probable reason: flink-runtime-web is not in the classpath.\n";
    let f = session_job_finding(&web_submit_refused("", Some(log)));
    assert!(
        f.fix.contains("has no flink-runtime-web in /opt/flink/lib: its JobManager logs `Failed to load web based job submission extension. Probable reason"),
        "{}",
        f.fix
    );
    // Off although the spec does not say so: the operator's defaults; the spec's true overrides.
    let log = "2026-12-06 00:07:55,001 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Web-based job submission is not enabled.\n";
    let f = session_job_finding(&web_submit_refused("", Some(log)));
    assert!(
        f.fix.contains(r#"kubectl patch flinkdeployment shared -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"web.submit.enable":"true"}}}'"#),
        "{}",
        f.fix
    );
}

#[test]
fn a_missing_checkpoint_directory_is_set_under_the_key_the_operator_names() {
    // Operator 1.7.0 (built on Flink 1.17.1) in the reality lab, for a Flink 1.18 deployment with
    // upgradeMode last-state: it reads state.checkpoints.dir, and no other key satisfies it.
    let at = |key: &str| {
        format!(
            r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: analytics, generation: 1}}
spec:
  image: flink:1.18
  flinkVersion: v1_18
  serviceAccount: flink
  jobManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
  taskManager: {{resource: {{memory: 1024m, cpu: 0.5}}}}
  job: {{jarURI: "local:///opt/flink/usrlib/lab-job.jar", parallelism: 1, upgradeMode: last-state}}
status:
  jobManagerDeploymentStatus: MISSING
  lifecycleState: FAILED
  observedGeneration: 1
  error: '{{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"Checkpoint directory[{key}] must be defined for last-state and savepoint upgrade modes"}}'
"#
        )
    };
    for key in ["state.checkpoints.dir", "execution.checkpointing.dir"] {
        let f = run(&FlinkResourceStatus, &snapshot(&at(key)));
        let r = crate::finding::Remedy::from_fix(&f[0].fix);
        assert_eq!(
            r.run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n analytics --type=merge -p '{{\"spec\":{{\"flinkConfiguration\":{{\"{key}\":\"s3://<bucket Flink can write>/flink/orders/checkpoints\"}}}}}}'",
                crate::finding::FILL_IN
            )],
            "{}",
            f[0].fix
        );
    }
}

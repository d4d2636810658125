use super::*;
use crate::rules::testing::{snapshot, with_log};

#[test]
fn review_statuses_become_decisions() {
    let st = |allowed, denied, reason: &str, err: &str| SubjectAccessReviewStatus {
        allowed,
        denied,
        reason: (!reason.is_empty()).then(|| reason.to_string()),
        evaluation_error: (!err.is_empty()).then(|| err.to_string()),
    };
    assert_eq!(
        status_decision(&st(true, None, "RBAC: allowed by x", "")),
        (Some(true), "RBAC: allowed by x".into())
    );
    assert_eq!(
        status_decision(&st(false, None, "", "")),
        (Some(false), "no rule allows it".into())
    );
    assert_eq!(
        status_decision(&st(false, Some(true), "webhook says no", "")).0,
        Some(false)
    );
    assert!(
        status_decision(&st(false, Some(true), "webhook says no", ""))
            .1
            .starts_with("explicitly denied")
    );
    // A "no" with an evaluation error is not an answer: some rules could not be read.
    let (allowed, reason) = status_decision(&st(false, None, "", "role x not found"));
    assert_eq!(allowed, None);
    assert!(reason.contains("evaluation error: role x not found"));
}

#[test]
fn refusals_in_logs_become_one_question_each() {
    let line = r#"io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/services/x-rest. Message: services "x-rest" is forbidden: User "system:serviceaccount:flink-lab:flink" cannot get resource "services" in API group "" in the namespace "flink-lab"."#;
    let s = snapshot("apiVersion: v1\nkind: Namespace\nmetadata: {name: flink-lab}\n");
    let s = with_log(
        s,
        "flink-lab",
        "jm",
        "flink-main-container",
        true,
        &format!("{line}\n{line}\n"),
    );
    let s = with_log(s, "flink-lab", "jm", "flink-main-container", false, line);
    let qs = refusal_questions(&s);
    assert_eq!(qs.len(), 1, "{qs:?}");
    assert_eq!(
        qs[0].subject,
        Subject::ServiceAccount {
            namespace: "flink-lab".into(),
            name: "flink".into()
        }
    );
    assert_eq!(
        (
            qs[0].attrs.verb.as_str(),
            qs[0].attrs.resource.as_str(),
            qs[0].attrs.namespace.as_str()
        ),
        ("get", "services", "flink-lab")
    );
}

#[test]
fn snapshot_objects_are_incomplete_when_rbac_was_not_read() {
    let s = snapshot("apiVersion: v1\nkind: Namespace\nmetadata: {name: flink-lab}\n");
    assert!(!RbacObjects::from_snapshot(&s).unreadable.is_empty());
    let s = snapshot(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: flink-lab}\nrules: []\n",
        );
    assert!(RbacObjects::from_snapshot(&s).unreadable.is_empty());
}

use super::*;
use crate::rules::testing::{snapshot, with_log};

#[test]
fn as_accepts_service_accounts_and_users_and_says_what_is_accepted() {
    assert_eq!(
        Subject::parse_as("system:serviceaccount:flink-lab:flink", &[]),
        Ok(Subject::ServiceAccount {
            namespace: "flink-lab".into(),
            name: "flink".into()
        })
    );
    assert_eq!(
        Subject::parse_as("alice", &["devs".to_string()]),
        Ok(Subject::User {
            name: "alice".into(),
            groups: vec!["devs".into()]
        })
    );
    assert!(Subject::parse_as("system:admin", &[]).is_ok());
    for bad in [
        "",
        " alice",
        "system:serviceaccount:flink-lab",
        "system:serviceaccount::flink",
        "system:serviceaccount:flink-lab:",
        "system:serviceaccount:a:b:c",
        "system:serviceaccount:Flink:x",
        "system:serviceaccounts:flink-lab",
    ] {
        let e = Subject::parse_as(bad, &[]).unwrap_err().to_string();
        assert!(
            e.contains("--as=system:serviceaccount:NAMESPACE:NAME") && e.contains("--as=USER"),
            "{bad}: {e}"
        );
    }
    let e = Subject::parse_as("system:serviceaccount:a:b", &["g".to_string()]).unwrap_err();
    assert_eq!(e, AsError::GroupWithServiceAccount);
    assert!(e.to_string().contains("--as-group"), "{e}");
}

#[test]
fn subjects_as_the_authorizer_sees_them() {
    let sa = Subject::ServiceAccount {
        namespace: "prod".into(),
        name: "flink".into(),
    };
    assert_eq!(
        sa.username().as_deref(),
        Some("system:serviceaccount:prod:flink")
    );
    assert_eq!(sa.user_info().unwrap().groups.len(), 3);
    assert_eq!(sa.to_string(), "ServiceAccount prod/flink");
    assert_eq!(Subject::Caller.username(), None);
    let q = Question::new(sa, "prod", "get", "", "pods/log");
    assert_eq!(
        (q.attrs.resource.as_str(), q.attrs.subresource.as_str()),
        ("pods", "log")
    );
}

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
fn methods_have_stable_ids_and_the_required_label() {
    assert_eq!(
        Method::RbacObjects.label(),
        "from RBAC objects, not authoritative"
    );
    assert!(!Method::RbacObjects.authoritative());
    assert!(Method::Impersonation.authoritative() && Method::SubjectAccessReview.authoritative());
    let ids: Vec<&str> = [
        Method::Impersonation,
        Method::SelfSubjectAccessReview,
        Method::SubjectAccessReview,
        Method::RbacObjects,
        Method::Undecided,
    ]
    .iter()
    .map(|m| m.id())
    .collect();
    assert_eq!(
        ids,
        vec![
            "impersonation",
            "selfsubjectaccessreview",
            "subjectaccessreview",
            "rbac-objects",
            "none"
        ]
    );
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

use super::*;

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

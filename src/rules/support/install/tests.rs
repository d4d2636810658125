use super::testing::*;
use super::*;

#[test]
fn the_operator_and_its_webhooks_are_found() {
    let (s, _) = healthy();
    let ops = operators(&s);
    assert_eq!(ops.len(), 1);
    let op = &ops[0];
    assert_eq!(op.namespace, NS);
    assert_eq!(op.pods.len(), 1);
    assert_eq!(op.version().unwrap().0, Version(1, 15, 0));
    assert_eq!(op.tls_secret(), Some(TLS_SECRET));
    assert_eq!(op.password_secret(), Some((PASSWORD_SECRET, "password")));
    assert_eq!(op.webhook_port(), 9443);
    assert!(op.watched_namespaces().is_none());
    let hooks = flink_hooks(&s);
    assert_eq!(hooks.len(), 2);
    assert_eq!(hooks[0].host().as_deref(), Some(HOST));
    assert_eq!(hooks[1].expected_path(), "/mutate");
    assert_eq!(hooks[0].inject_ca_from(), Some((NS, CERTIFICATE)));
    assert!(certificate(&s, NS).is_some());
    assert_eq!(tls_secret_name(&s, NS), TLS_SECRET);
    assert_eq!(op.release().upgrade("--set a=b").lines().last().unwrap(),
            "helm upgrade flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n flink-operator --version 1.15.0 --reuse-values --set a=b");
}

#[test]
fn watched_namespaces_in_every_spelling() {
    let cm = |file: &str, text: &str| -> ConfigMap {
        serde_json::from_value(
            serde_json::json!({"metadata": {"name": CONFIG_MAP}, "data": {file: text}}),
        )
        .unwrap()
    };
    assert_eq!(
        watched_value(&cm(
            "flink-conf.yaml",
            "a: b\nkubernetes.operator.watched.namespaces: ns1, ns2\n"
        ))
        .as_deref(),
        Some("ns1,ns2")
    );
    assert_eq!(
        watched_value(&cm(
            "config.yaml",
            "kubernetes:\n  operator:\n    watched:\n      namespaces: [x, y]\n"
        ))
        .as_deref(),
        Some("x,y")
    );
    assert_eq!(
        watched_value(&cm(
            "config.yaml",
            "kubernetes.operator.watched.namespaces: \"[a,b]\"\n"
        ))
        .as_deref(),
        Some("a,b")
    );
    assert_eq!(
        watched_value(&cm(
            "config.yaml",
            "# kubernetes.operator.watched.namespaces: a\n"
        )),
        None
    );
}

#[test]
fn versions_from_tags() {
    assert_eq!(Version::parse("1.15.0"), Some(Version(1, 15, 0)));
    assert_eq!(Version::parse("v1.9"), Some(Version(1, 9, 0)));
    assert!(Version(1, 10, 0) > Version(1, 9, 3));
    assert_eq!(Version::parse("latest"), None);
}

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
            "helm upgrade flink-kubernetes-operator https://archive.apache.org/dist/flink/flink-kubernetes-operator-1.15.0/flink-kubernetes-operator-1.15.0-helm.tgz -n flink-operator --reuse-values --set a=b");
    // An unknown version upgrades to the newest release, from the repository its docs name.
    let unknown = Release {
        version: None,
        ..op.release()
    };
    assert_eq!(
        unknown.upgrade("").lines().collect::<Vec<_>>(),
        [
            format!("helm repo add --force-update flink-operator-repo {HELM_REPO} && helm repo update flink-operator-repo").as_str(),
            "helm upgrade flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n flink-operator --reuse-values"
        ]
    );
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

mod identity_by_wiring {
    use super::*;
    use crate::flink::identity::Wiring;

    const ARGS: &str = r#""--enable-leader-election""#;

    /// The FlinkCluster operator as a kustomize build that dropped `app: flink-operator`.
    fn kustomize_only(image: &str) -> String {
        flinkcluster_yaml(ARGS)
            .replace("app: flink-operator, ", "")
            .replace("ghcr.io/spotify/flink-operator:v0.6.0", image)
    }

    fn found(s: &Snapshot) -> Option<(Flavor, Wiring)> {
        let ops = operators(s);
        assert!(ops.len() <= 1, "{ops:#?}");
        ops.first().map(|o| (o.flavor, o.found_by.clone()))
    }

    #[test]
    fn by_its_image_when_only_the_kubebuilder_label_is_left() {
        let s = load(&kustomize_only(
            "gcr.io/flink-operator/flink-operator:v1beta1-9",
        ));
        assert_eq!(
            found(&s),
            Some((
                Flavor::FlinkCluster,
                Wiring::Image("gcr.io/flink-operator/flink-operator:v1beta1-9".into())
            ))
        );
        assert_eq!(operators(&s)[0].pods.len(), 1);
        assert_eq!(
            operators(&s)[0].selector(),
            "control-plane=controller-manager"
        );
    }

    #[test]
    fn by_the_webhook_service_that_selects_it() {
        let yaml = kustomize_only("registry.example.com/team/operator:1");
        // Without the Service, nothing says this is an operator.
        assert_eq!(found(&load(&yaml)), None);
        let yaml = yaml
            + r#"---
apiVersion: v1
kind: Service
metadata: {name: flink-operator-webhook-service, namespace: flink-operator-system}
spec:
  selector: {control-plane: controller-manager}
  ports: [{port: 443, targetPort: 9443}]
"#;
        let (flavor, wiring) = found(&load(&yaml)).expect("found by the webhook Service");
        assert_eq!(flavor, Flavor::FlinkCluster);
        assert_eq!(
            wiring.to_string(),
            "webhook configuration flink-operator-mutating-webhook-configuration calls Service \
             flink-operator-system/flink-operator-webhook-service, whose selector picks its pods"
        );
    }

    #[test]
    fn probably_by_its_accounts_rights_over_the_crd_group() {
        let yaml = kustomize_only("registry.example.com/team/operator:1")
            + r#"---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: flink-operator-manager-role}
rules:
- {apiGroups: [flinkoperator.k8s.io], resources: [flinkclusters], verbs: [get, list, watch, update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: flink-operator-manager-rolebinding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: flink-operator-manager-role}
subjects:
- {kind: ServiceAccount, name: flink-operator-controller-manager, namespace: flink-operator-system}
"#;
        // The rights say only "probably" (a CI deployer holds them too): not the operator the
        // installation rules check, but a probable one, with why.
        let s = load(&yaml);
        assert_eq!(found(&s), None);
        let probable: Vec<_> = s
            .probable_operators
            .iter()
            .map(|p| (p.kind, p.name.as_str(), p.operator))
            .collect();
        assert_eq!(
            probable,
            [(
                "Deployment",
                "flink-operator-controller-manager",
                crate::flink::identity::OperatorKind::FlinkCluster
            )]
        );
        assert!(
            s.probable_operators[0]
                .why
                .contains("bound to ClusterRole flink-operator-manager-role, which grants rights over flinkoperator.k8s.io"),
            "{:?}",
            s.probable_operators[0]
        );
        // A wildcard group is every controller's: no sign of an operator.
        let wildcard = yaml.replace("apiGroups: [flinkoperator.k8s.io]", "apiGroups: ['*']");
        let s = load(&wildcard);
        assert_eq!(found(&s), None);
        assert!(s.probable_operators.is_empty());
    }
}

use super::*;

#[test]
fn ha_adds_configmaps() {
    let mut conf = BTreeMap::new();
    assert!(!jobmanager(&conf).iter().any(|p| p.resource == "configmaps"));
    conf.insert("high-availability.type".into(), "kubernetes".into());
    assert!(jobmanager(&conf).iter().any(|p| p.resource == "configmaps"));
}

#[test]
fn role_yaml_is_valid_yaml_without_wildcards() {
    let rules = merge_rules(
        JOBMANAGER_NATIVE,
        &[("".into(), "pods".into(), "watch".into())],
    );
    let y = role_yaml("prod", "flink-jobmanager", "flink", &rules);
    assert!(!y.contains('*'));
    let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["rules"][0]["resources"][0], "pods");
    assert_eq!(docs[1]["subjects"][0]["name"], "flink");
}

#[test]
fn sets_by_component_mode_and_ha() {
    let res = |v: &[Permission]| v.iter().map(|p| p.resource).collect::<Vec<_>>();
    assert_eq!(
        res(&needs(
            Holder::Flink(Component::JobManager),
            Mode::Native,
            false
        )),
        vec!["pods", "deployments", "deployments/finalizers"]
    );
    assert!(res(&needs(
        Holder::Flink(Component::JobManager),
        Mode::Native,
        true
    ))
    .contains(&"configmaps"));
    assert!(needs(
        Holder::Flink(Component::JobManager),
        Mode::Standalone,
        false
    )
    .is_empty());
    assert_eq!(
        res(&needs(
            Holder::Flink(Component::JobManager),
            Mode::Standalone,
            true
        )),
        vec!["configmaps"]
    );
    assert!(needs(Holder::Flink(Component::TaskManager), Mode::Native, false).is_empty());
    let tm = needs(Holder::Flink(Component::TaskManager), Mode::Native, true);
    assert_eq!(tm[0].verbs, &["get", "list", "watch"]);
    // The TaskManagers only read what the JobManager writes.
    let jm_ha = needs(Holder::Flink(Component::JobManager), Mode::Native, true);
    let jm_cm = jm_ha.iter().find(|p| p.resource == "configmaps").unwrap();
    assert!(tm[0].verbs.iter().all(|v| jm_cm.verbs.contains(v)));
    assert_eq!(needs(Holder::Me, Mode::Native, false), ME.to_vec());
    assert!(needs(Holder::Flink(Component::Operator), Mode::Lyft, false)
        .iter()
        .any(|p| p.group == "flink.k8s.io"));
}

#[test]
fn every_permission_has_a_reason_and_no_wildcard() {
    for set in [
        JOBMANAGER_NATIVE,
        HA,
        TASKMANAGER_HA,
        OPERATOR,
        OPERATOR_NODES,
        OPERATOR_LYFT,
        OPERATOR_FLINKCLUSTER,
        ME,
    ] {
        for p in set {
            assert!(!p.why.is_empty(), "{p:?}");
            assert!(!p.verbs.is_empty(), "{p:?}");
            assert!(
                !p.resource.contains('*') && !p.verbs.contains(&"*"),
                "{p:?}"
            );
            assert!(p.verbs.iter().all(|v| VERB_ORDER.contains(v)), "{p:?}");
        }
    }
}

#[test]
fn operator_set_is_the_charts_cluster_role() {
    let find = |g: &str, r: &str| {
        OPERATOR
            .iter()
            .find(|p| p.group == g && p.resource == r)
            .unwrap()
    };
    assert_eq!(find("", "pods").verbs.len(), 8);
    assert!(find("", "secrets").verbs.contains(&"deletecollection"));
    assert_eq!(
        find("apps", "deployments/scale").verbs,
        &["get", "update", "patch"]
    );
    assert_eq!(
        find("flink.apache.org", "flinkdeployments/status").verbs,
        &["get", "update", "patch"]
    );
    assert!(find("coordination.k8s.io", "leases")
        .verbs
        .contains(&"create"));
    assert!(!OPERATOR.iter().any(|p| p.resource == "nodes"));
}

#[test]
fn flinkcluster_operator_set_is_its_release_role() {
    // spotify/flink-on-k8s-operator@v0.6.0:config/rbac/role.yaml: 25 rules, no wildcard,
    // nothing cluster-scoped (its CRD is installed by the release, not by the operator).
    let set = needs(
        Holder::Flink(Component::Operator),
        Mode::FlinkCluster,
        false,
    );
    assert_eq!(set.len(), 25);
    assert!(set.iter().all(|p| !cluster_scoped(p.group, p.resource)));
    let find = |g: &str, r: &str| set.iter().find(|p| p.group == g && p.resource == r);
    assert_eq!(find("", "pods").unwrap().verbs, &["get", "list", "watch"]);
    assert_eq!(find("", "pods/log").unwrap().verbs, &["get"]);
    assert_eq!(find("batch", "jobs").unwrap().verbs.len(), 7);
    assert_eq!(
        find("flinkoperator.k8s.io", "flinkclusters/status")
            .unwrap()
            .verbs,
        &["get", "update", "patch"]
    );
    assert!(!find("policy", "poddisruptionbudgets")
        .unwrap()
        .verbs
        .contains(&"patch"));
    // No Apache operator rule sneaks in, and the JobManager is standalone.
    assert!(find("flink.apache.org", "flinkdeployments").is_none());
    assert!(needs(
        Holder::Flink(Component::JobManager),
        Mode::FlinkCluster,
        false
    )
    .is_empty());
    assert_eq!(set_name(Mode::FlinkCluster), "flinkcluster");
    assert_eq!(set_name(Mode::Operator), "native");
}

#[test]
fn me_needs_cluster_scoped_reads() {
    let cluster: Vec<_> = ME
        .iter()
        .filter(|p| cluster_scoped(p.group, p.resource))
        .map(|p| p.resource)
        .collect();
    assert_eq!(
        cluster,
        vec![
            "clusterroles",
            "clusterrolebindings",
            "namespaces",
            "nodes",
            "priorityclasses",
            "subjectaccessreviews"
        ]
    );
    assert!(!cluster_scoped("", "pods/log"));
    assert!(cluster_scoped("", "nodes"));
}

#[test]
fn service_account_keys_and_defaults() {
    let mut conf = BTreeMap::new();
    assert_eq!(
        service_account_from_conf(&conf, Component::JobManager).as_deref(),
        Some("default")
    );
    conf.insert("kubernetes.service-account".into(), "flink".into());
    assert_eq!(
        service_account_from_conf(&conf, Component::TaskManager).as_deref(),
        Some("flink")
    );
    conf.insert(
        "kubernetes.jobmanager.service-account".into(),
        "flink-jm".into(),
    );
    assert_eq!(
        service_account_from_conf(&conf, Component::JobManager).as_deref(),
        Some("flink-jm")
    );
    assert_eq!(
        service_account_from_conf(&conf, Component::TaskManager).as_deref(),
        Some("flink")
    );
    assert_eq!(service_account_from_conf(&conf, Component::Operator), None);
}

#[test]
fn flink_conf_legacy_nested_and_spec() {
    use crate::flink::conf::{flatten_conf, parse_flink_conf};
    let legacy = "# comment\nkubernetes.service-account: flink\nhigh-availability.type: kubernetes\nweird: a: b\n";
    let c = parse_flink_conf(legacy);
    assert_eq!(c["kubernetes.service-account"], "flink");
    assert!(ha_enabled(&c));
    let nested = "kubernetes:\n  service-account: flink2\n  jobmanager:\n    replicas: 2\nhigh-availability:\n  type: kubernetes\n";
    let c = parse_flink_conf(nested);
    assert_eq!(c["kubernetes.service-account"], "flink2");
    assert_eq!(c["kubernetes.jobmanager.replicas"], "2");
    assert!(ha_enabled(&c));
    let spec = serde_json::json!({"high-availability.type": "kubernetes", "taskmanager.numberOfTaskSlots": 2});
    let c = flatten_conf(&spec);
    assert_eq!(c["taskmanager.numberOfTaskSlots"], "2");
    assert!(ha_enabled(&c));
    assert!(flatten_conf(&serde_json::Value::Null).is_empty());
}

#[test]
fn fix_yaml_for_users_and_cluster_scoped_needs() {
    let ns_rules = merge_rules(&ME[..2], &[]);
    let cl_rules = merge_rules(&ME[ME.len() - 1..], &[]);
    let y = fix_yaml(
        "prod",
        "kubectl-flink-me-0011aabb",
        &Grantee::User("system:admin:alice".into()),
        &ns_rules,
        &cl_rules,
    );
    assert!(!y.contains('*'));
    let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
    let kinds: Vec<_> = docs
        .iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        vec!["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"]
    );
    assert_eq!(docs[1]["subjects"][0]["name"], "system:admin:alice");
    assert_eq!(docs[1]["subjects"][0]["kind"], "User");
    assert_eq!(docs[2]["rules"][0]["resources"][0], "subjectaccessreviews");
    assert!(docs[2]["metadata"].get("namespace").is_none());
    // Only cluster-scoped needs: no Role at all.
    let y = fix_yaml("prod", "x", &Grantee::User("bob".into()), &[], &cl_rules);
    assert_eq!(
        crate::snapshot::bundle::parse_documents(&y).unwrap().len(),
        2
    );
    assert!(fix_yaml("prod", "x", &Grantee::User("bob".into()), &[], &[]).is_empty());
    // A ServiceAccount of another namespace (the operator's) bound in the target namespace.
    let sa = Grantee::ServiceAccount {
        namespace: "flink-operator".into(),
        name: "flink-operator".into(),
    };
    let y = fix_yaml("prod", "x", &sa, &ns_rules, &[]);
    let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
    assert_eq!(docs[1]["metadata"]["namespace"], "prod");
    assert_eq!(docs[1]["subjects"][0]["namespace"], "flink-operator");
}

#[test]
fn merge_orders_verbs_and_hash_is_stable() {
    let rules = merge_rules(
        &[],
        &[
            ("".into(), "pods".into(), "delete".into()),
            ("".into(), "pods".into(), "get".into()),
            ("".into(), "pods".into(), "get".into()),
        ],
    );
    assert_eq!(
        rules,
        vec![(
            "".into(),
            "pods".into(),
            vec!["get".to_string(), "delete".to_string()]
        )]
    );
    assert_eq!(short_hash("abc"), short_hash("abc"));
    assert_ne!(short_hash("abc"), short_hash("abd"));
    assert_eq!(short_hash("").len(), 8);
}

#[test]
fn me_is_a_list_of_every_kind_doctor_lists_then_logs_and_reviews() {
    let me: Vec<_> = ME.iter().map(|p| (p.group, p.resource, p.verbs)).collect();
    let list: &[&str] = &["list"];
    assert_eq!(
        me,
        vec![
            ("flink.apache.org", "flinkdeployments", list),
            ("flink.apache.org", "flinksessionjobs", list),
            ("flink.apache.org", "flinkstatesnapshots", list),
            ("", "pods", list),
            ("", "pods/log", &["get"][..]),
            ("apps", "deployments", list),
            ("", "events", list),
            ("", "serviceaccounts", list),
            ("rbac.authorization.k8s.io", "roles", list),
            ("rbac.authorization.k8s.io", "rolebindings", list),
            ("rbac.authorization.k8s.io", "clusterroles", list),
            ("rbac.authorization.k8s.io", "clusterrolebindings", list),
            ("", "resourcequotas", list),
            ("", "limitranges", list),
            ("", "namespaces", list),
            ("", "nodes", list),
            ("scheduling.k8s.io", "priorityclasses", list),
            (
                "authorization.k8s.io",
                "subjectaccessreviews",
                &["create"][..]
            ),
        ]
    );
}

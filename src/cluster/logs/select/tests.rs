use super::*;
use crate::cluster::logs::testing::*;
use std::cmp::Ordering;

#[test]
fn selectors_per_mode() {
    let t = Target {
        name: Some("orders".into()),
        ..Target::default()
    };
    assert_eq!(
        t.selectors(),
        vec![
            "app=orders,component in (jobmanager,taskmanager)",
            "flink-app=orders,flink-deployment-type in (jobmanager,taskmanager)",
            "app=flink,cluster=orders"
        ]
    );
    let jm = Target {
        name: Some("orders".into()),
        component: Some(Component::JobManager),
        ..Target::default()
    };
    assert_eq!(
        jm.selectors(),
        vec![
            "app=orders,component=jobmanager",
            "flink-app=orders,flink-deployment-type=jobmanager",
            "app=flink,cluster=orders,component=jobmanager"
        ]
    );
    let op = Target {
        component: Some(Component::Operator),
        ..Target::default()
    };
    assert_eq!(
        op.selectors(),
        vec![
            "app.kubernetes.io/name=flink-kubernetes-operator",
            "app=flinkoperator",
            "app=flink-operator"
        ]
    );
    let l = Target {
        selector: Some("team=data".into()),
        component: Some(Component::TaskManager),
        ..Target::default()
    };
    assert_eq!(l.selectors(), vec!["team=data"]);
    assert!(l.keeps(&pod("t", TM, &["c"])));
    assert!(!l.keeps(&pod("j", JM, &["c"])));
    let all = Target::default();
    assert_eq!(
        all.selectors()[0],
        "app,component in (jobmanager,taskmanager)"
    );
    assert_eq!(all.selectors()[2], "app=flink,cluster");
}

#[test]
fn flinkcluster_pods_belong_to_their_cluster_only() {
    let jm = [
        ("app", "flink"),
        ("cluster", "orders"),
        ("component", "jobmanager"),
    ];
    let submitter = [
        ("app", "flink"),
        ("cluster", "orders"),
        ("job-name", "orders-job-submitter"),
    ];
    let other = [
        ("app", "flink"),
        ("cluster", "billing"),
        ("component", "taskmanager"),
    ];
    let apache = [("app", "flink"), ("component", "jobmanager")];
    // A deployment named flink: `app=flink,component in (...)` also lists every
    // FlinkCluster's pods; only its own are kept.
    let flink = Target {
        name: Some("flink".into()),
        ..Target::default()
    };
    assert!(flink.keeps(&pod("flink-jm", &apache, &["c"])));
    assert!(!flink.keeps(&pod("billing-taskmanager-0", &other, &["c"])));
    let orders = Target {
        name: Some("orders".into()),
        ..Target::default()
    };
    assert!(orders.keeps(&pod("orders-jobmanager-0", &jm, &["c"])));
    assert!(orders.keeps(&pod("orders-job-submitter-x", &submitter, &["main"])));
    assert!(!orders.keeps(&pod("billing-taskmanager-0", &other, &["c"])));
    // Roles, and the order: by cluster, JobManager first, the submitter last.
    assert_eq!(role(&pod("j", &jm, &[])), Some(Component::JobManager));
    assert_eq!(role(&pod("s", &submitter, &[])), None);
    assert_eq!(
        role(&pod("op", &[("app", "flink-operator")], &[])),
        Some(Component::Operator)
    );
    let mut pods = vec![
        pod("orders-job-submitter-x", &submitter, &["main"]),
        pod("billing-taskmanager-0", &other, &["c"]),
        pod("orders-jobmanager-0", &jm, &["c"]),
    ];
    order_pods(&mut pods);
    let names: Vec<_> = pods.iter().map(pod_name).collect();
    assert_eq!(
        names,
        [
            "billing-taskmanager-0",
            "orders-jobmanager-0",
            "orders-job-submitter-x"
        ]
    );
    // The default container: the one named after the component, not a sidecar.
    assert_eq!(
        selected_containers(
            &pod("orders-jobmanager-0", &jm, &["jobmanager", "log-shipper"]),
            &Containers::default_choice()
        ),
        ["jobmanager"]
    );
    assert_eq!(
        selected_containers(
            &pod(
                "orders-jobmanager-0",
                &apache,
                &["jobmanager", "log-shipper"]
            ),
            &Containers::default_choice()
        ),
        ["jobmanager", "log-shipper"]
    );
}

#[test]
fn roles_from_labels_in_every_mode() {
    assert_eq!(role(&pod("a", JM, &[])), Some(Component::JobManager));
    assert_eq!(
        role(&pod(
            "a",
            &[("flink-app", "x"), ("flink-deployment-type", "taskmanager")],
            &[]
        )),
        Some(Component::TaskManager)
    );
    assert_eq!(
        role(&pod(
            "a",
            &[("app.kubernetes.io/name", "flink-kubernetes-operator")],
            &[]
        )),
        Some(Component::Operator)
    );
    assert_eq!(
        role(&pod("a", &[("app", "flinkoperator")], &[])),
        Some(Component::Operator)
    );
    assert_eq!(role(&pod("a", &[("app", "web")], &[])), None);
}

#[test]
fn order_is_jobmanager_first_then_taskmanagers_naturally() {
    let mut pods = vec![
        pod("orders-taskmanager-1-10", TM, &[]),
        pod("orders-taskmanager-1-2", TM, &[]),
        pod("orders-5d8f-x7k2p", JM, &[]),
        pod("orders-taskmanager-1-1", TM, &[]),
    ];
    order_pods(&mut pods);
    let names: Vec<&str> = pods.iter().map(pod_name).collect();
    assert_eq!(
        names,
        vec![
            "orders-5d8f-x7k2p",
            "orders-taskmanager-1-1",
            "orders-taskmanager-1-2",
            "orders-taskmanager-1-10"
        ]
    );
    assert_eq!(natural_cmp("a-01", "a-1"), Ordering::Greater);
    assert_eq!(natural_cmp("a", "a-1"), Ordering::Less);
}

#[test]
fn default_container_is_the_main_one_or_all() {
    let p = pod("j", JM, &["istio-proxy", "flink-main-container"]);
    assert_eq!(
        selected_containers(&p, &Containers::default_choice()),
        vec!["flink-main-container"]
    );
    assert_eq!(
        selected_containers(&p, &Containers::all()),
        vec!["istio-proxy", "flink-main-container"]
    );
    assert_eq!(
        selected_containers(
            &p,
            &Containers::matching(Pattern::new("^istio-proxy$").unwrap())
        ),
        vec!["istio-proxy"]
    );
    assert!(
        selected_containers(&p, &Containers::matching(Pattern::new("nope").unwrap())).is_empty()
    );
    let lyft = pod("l", &[("flink-app", "x")], &["jobmanager", "sidecar"]);
    assert_eq!(
        selected_containers(&lyft, &Containers::default_choice()),
        vec!["jobmanager", "sidecar"]
    );
    let mut op = pod("op", &[], &["flink-kubernetes-operator", "flink-webhook"]);
    op.metadata.annotations = Some(
        [(
            DEFAULT_CONTAINER_ANNOTATION.to_string(),
            "flink-kubernetes-operator".to_string(),
        )]
        .into(),
    );
    assert_eq!(
        selected_containers(&op, &Containers::default_choice()),
        vec!["flink-kubernetes-operator"]
    );
}

#[test]
fn plan_skips_what_has_no_log_and_says_why() {
    let target = Target {
        name: Some("orders".into()),
        ..Target::default()
    };
    let jm = with_status(
        pod("jm", JM, &["flink-main-container"]),
        "flink-main-container",
        3,
        run_state(),
        Some(239),
    );
    let tm_pending = with_status(
        pod("tm-1", TM, &["flink-main-container"]),
        "flink-main-container",
        0,
        waiting("ContainerCreating"),
        None,
    );
    let tm = with_status(
        pod("tm-2", TM, &["flink-main-container"]),
        "flink-main-container",
        0,
        run_state(),
        None,
    );
    let pods = vec![jm, tm_pending, tm];
    let p = plan(&pods, &target, &Containers::default_choice(), false);
    assert_eq!(
        p.streams.iter().map(|s| s.pod.as_str()).collect::<Vec<_>>(),
        vec!["jm", "tm-2"]
    );
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("tm-1/flink-main-container has not started (ContainerCreating)")),
        "{:?}",
        p.notes
    );
    assert!(
        p.notes.iter().any(|n| n
            .contains("jm/flink-main-container (3 restarts, last exit 239, Error")
            && n.contains("-p")),
        "{:?}",
        p.notes
    );

    let p = plan(&pods, &target, &Containers::default_choice(), true);
    assert_eq!(p.streams.len(), 1);
    assert!(p.streams[0].previous);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("no previous instance") && n.contains("tm-2/flink-main-container")),
        "{:?}",
        p.notes
    );

    // A native JobManager without TaskManagers: where their logs went.
    let p = plan(&pods[..1], &target, &Containers::default_choice(), false);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("resourcemanager.taskmanager-timeout")),
        "{:?}",
        p.notes
    );
}

#[test]
fn a_crash_looping_container_shows_the_instance_that_crashed() {
    let target = Target {
        name: Some("orders".into()),
        ..Target::default()
    };
    let jm = with_status(
        pod("jm", JM, &["flink-main-container"]),
        "flink-main-container",
        6,
        waiting("CrashLoopBackOff"),
        Some(239),
    );
    let p = plan(&[jm], &target, &Containers::default_choice(), false);
    assert_eq!(p.streams.len(), 1);
    assert!(p.streams[0].previous);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("not running (CrashLoopBackOff)")
                && n.contains("instance that crashed: exit 239")),
        "{:?}",
        p.notes
    );
    assert!(
        !p.notes.iter().any(|n| n.starts_with("restarted")),
        "{:?}",
        p.notes
    );
}

#[test]
fn containers_by_regex_and_exclusions_as_stern() {
    let mut p = pod(
        "j",
        JM,
        &["istio-proxy", "flink-main-container", "log-shipper"],
    );
    if let Some(spec) = p.spec.as_mut() {
        spec.init_containers = Some(vec![k8s_openapi::api::core::v1::Container {
            name: "fetch-jar".into(),
            ..Default::default()
        }]);
    }
    // Unanchored, as stern's `-c`: init containers first.
    let re = |s: &str| Pattern::new(s).unwrap();
    assert_eq!(
        selected_containers(&p, &Containers::matching(re("-"))),
        vec![
            "fetch-jar",
            "istio-proxy",
            "flink-main-container",
            "log-shipper"
        ]
    );
    assert_eq!(
        selected_containers(&p, &Containers::matching(re("main|ship"))),
        vec!["flink-main-container", "log-shipper"]
    );
    let mut c = Containers::all();
    c.exclude = vec![re("^istio"), re("jar")];
    assert_eq!(
        selected_containers(&p, &c),
        vec!["flink-main-container", "log-shipper"]
    );
    // The default choice less an exclusion of the main container: nothing.
    let mut d = Containers::default_choice();
    assert!(d.is_default());
    d.exclude = vec![re("flink-main")];
    assert!(!d.is_default());
    assert!(selected_containers(&p, &d).is_empty());
    assert_eq!(c.describe(), "a container not matching `^istio` or `jar`");
    assert_eq!(Pattern::new("a.b").unwrap(), re("a.b"));
    assert!(Pattern::new("(").is_err());
}

#[test]
fn pod_query_exclude_pod_and_fields_narrow_the_target() {
    let re = |s: &str| Pattern::new(s).unwrap();
    let jm = pod(
        "orders-5d8f-x7k2p",
        &[("app", "orders"), ("component", "jobmanager")],
        &[],
    );
    let tm = pod("orders-taskmanager-1-1", TM, &[]);
    let other = pod(
        "payments-taskmanager-1-1",
        &[("app", "payments"), ("component", "taskmanager")],
        &[],
    );
    let t = Target {
        pod_query: Some(re("taskmanager")),
        exclude_pods: vec![re("^payments-")],
        fields: Some("spec.nodeName=node-1".into()),
        ..Target::default()
    };
    assert!(!t.keeps(&jm));
    assert!(t.keeps(&tm));
    assert!(!t.keeps(&other));
    let d = t.describe();
    assert!(d.contains("with fields `spec.nodeName=node-1`"), "{d}");
    assert!(d.contains("named like `taskmanager`"), "{d}");
    assert!(d.contains("less pods named like `^payments-`"), "{d}");
    // NAME read as a query when its deployment has no pods: its pods stay kept too.
    let fallback = Target {
        pod_query: Some(re("orders-taskmanager")),
        or_deployment: Some("orders".into()),
        ..Target::default()
    };
    assert!(fallback.keeps(&jm) && fallback.keeps(&tm) && !fallback.keeps(&other));
    // The pod's node travels with its streams (for --template).
    let mut on_node = tm.clone();
    if let Some(spec) = on_node.spec.as_mut() {
        spec.node_name = Some("node-1".into());
    }
    assert_eq!(StreamSpec::new(&on_node, "c", false).node, "node-1");
}

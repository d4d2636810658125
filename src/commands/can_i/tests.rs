use super::*;
use crate::flink::access::report::grantee_for_user;
use crate::flink::access::{Cell, Decision};
use crate::flink::rbac::Attributes;
use crate::render::access::{ALLOWED, DENIED};

fn principal() -> Principal {
    Principal {
        subject: Subject::ServiceAccount {
            namespace: "prod".into(),
            name: "flink".into(),
        },
        source: "spec.serviceAccount of FlinkDeployment orders".into(),
        mode: Mode::Native,
        ha: Some(true),
        notes: Vec::new(),
        workload: Workload::FlinkDeployment("orders".into()),
    }
}

/// Decisions for `needs`: denied where `deny(verb, resource)`, by `method`.
fn decide(
    needs: &[Permission],
    method: Method,
    deny: impl Fn(&str, &str) -> bool,
) -> Vec<Decision> {
    questions_for(needs, &principal().subject, "prod")
        .into_iter()
        .map(|q| {
            let denied = deny(&q.attrs.verb, &q.attrs.combined_resource());
            Decision {
                allowed: Some(!denied),
                method,
                reason: if denied {
                    "no rule allows it".into()
                } else {
                    "RBAC: allowed by x".into()
                },
                question: q,
            }
        })
        .collect()
}

fn report(deny: impl Fn(&str, &str) -> bool) -> AccessReport {
    let needs = permissions::needs(Holder::Flink(Component::JobManager), Mode::Native, true);
    let d = decide(&needs, Method::Impersonation, deny);
    let mut r = AccessReport::new(
        &principal(),
        Holder::Flink(Component::JobManager),
        "prod",
        None,
        &needs,
        &d,
    );
    r.fix_command = "kubectl flink can-i orders -n prod --fix | kubectl apply -f -".into();
    r
}

#[test]
fn questions_ask_cluster_scoped_resources_without_namespace() {
    let qs = questions_for(permissions::ME, &Subject::Caller, "prod");
    let ns_of = |r: &str| {
        qs.iter()
            .find(|q| q.attrs.resource == r)
            .unwrap()
            .attrs
            .namespace
            .clone()
    };
    assert_eq!(ns_of("pods"), "prod");
    assert_eq!(ns_of("clusterroles"), "");
    assert_eq!(ns_of("subjectaccessreviews"), "");
    let log = qs.iter().find(|q| q.attrs.subresource == "log").unwrap();
    assert_eq!(
        (log.attrs.resource.as_str(), log.attrs.verb.as_str()),
        ("pods", "get")
    );
}

#[test]
fn exit_codes() {
    assert_eq!(exit_code(&report(|_, _| false)), 0);
    assert_eq!(exit_code(&report(|v, r| v == "create" && r == "pods")), 1);
    let mut r = report(|_, _| false);
    r.rows[0].cells[0].allowed = None;
    assert_eq!(exit_code(&r), 3);
    r.rows[0].cells[1].allowed = Some(false);
    assert_eq!(exit_code(&r), 1);
}

#[test]
fn the_fix_is_the_planner_s_complete_role_and_applies_twice_unchanged() {
    let r = report(|v, r| {
        (r == "pods" && (v == "create" || v == "delete")) || r == "configmaps" && v == "watch"
    });
    let known = Known::default();
    let y = fix_for(&r, Some("orders"), None, &known).unwrap();
    assert!(!y.contains('*'));
    for banned in [
        "cluster-admin",
        "kind: ClusterRole",
        "name: edit",
        "name: admin",
        "name: default",
    ] {
        assert!(!y.contains(banned), "{banned} in {y}");
    }
    let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        vec!["Role", "RoleBinding"],
        "flink exists: no new account"
    );
    assert_eq!(docs[0]["metadata"]["name"], "flink-jobmanager");
    assert_eq!(docs[0]["metadata"]["namespace"], "prod");
    assert_eq!(
        docs[0]["metadata"]["labels"]["app.kubernetes.io/managed-by"],
        "kubectl-flink"
    );
    let rules = docs[0]["rules"].as_array().unwrap();
    let verbs_of = |res: &str| {
        rules
            .iter()
            .find(|r| r["resources"][0] == res)
            .map(|r| r["verbs"].clone())
            .unwrap_or_default()
    };
    // HA is on for this principal: the whole native set, ConfigMaps included.
    assert_eq!(
        verbs_of("pods"),
        serde_json::json!(["get", "list", "watch", "create", "delete"])
    );
    assert!(verbs_of("configmaps")
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("watch")));
    assert_eq!(docs[1]["subjects"][0]["kind"], "ServiceAccount");
    assert_eq!(docs[1]["subjects"][0]["name"], "flink");
    assert_eq!(docs[1]["roleRef"]["name"], docs[0]["metadata"]["name"]);
    // Nothing denied: nothing to apply.
    assert_eq!(
        fix_for(&report(|_, _| false), Some("orders"), None, &known).unwrap(),
        ""
    );
    // Another missing subset gives the same objects: applying after a partial fix, or twice,
    // changes nothing and drops nothing.
    let other = fix_for(
        &report(|v, r| r == "pods" && v == "get"),
        Some("orders"),
        None,
        &known,
    )
    .unwrap();
    let other_docs = crate::snapshot::bundle::parse_documents(&other).unwrap();
    assert_eq!(other_docs, docs);
}

#[test]
fn fix_for_the_caller_binds_the_user_and_cluster_scoped_needs_get_a_cluster_role() {
    let needs = permissions::ME.to_vec();
    let qs = questions_for(&needs, &Subject::Caller, "prod");
    let d: Vec<Decision> = qs
        .into_iter()
        .map(|q| Decision {
            allowed: Some(q.attrs.resource != "clusterroles" && q.attrs.subresource != "log"),
            method: Method::SelfSubjectAccessReview,
            reason: String::new(),
            question: q,
        })
        .collect();
    let t = Principal::caller("the caller".into());
    let r = AccessReport::new(&t, Holder::Me, "prod", Some("alice"), &needs, &d);
    assert_eq!(r.subject_display, "you (alice)");
    let y = fix_for(&r, None, Some("alice"), &Known::default()).unwrap();
    let docs = crate::snapshot::bundle::parse_documents(&y).unwrap();
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        vec!["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"]
    );
    // Everything the caller needs, so applying it twice or after a partial fix drops nothing.
    let has = |doc: &serde_json::Value, res: &str| {
        doc["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["resources"][0] == res)
    };
    assert!(has(&docs[0], "pods/log") && has(&docs[0], "events"), "{y}");
    assert!(has(&docs[2], "clusterroles"), "{y}");
    assert_eq!(docs[0]["metadata"]["name"], "kubectl-flink-me-alice");
    assert_eq!(docs[3]["subjects"][0]["kind"], "User");
    assert_eq!(docs[3]["subjects"][0]["name"], "alice");
    // Who the caller is, unknown: no fix, a clear reason.
    let r = AccessReport::new(&t, Holder::Me, "prod", None, &needs, &d);
    assert!(fix_for(&r, None, None, &Known::default())
        .unwrap_err()
        .contains("did not say who you are"));
    // A caller that is a ServiceAccount is bound as one.
    assert_eq!(
        grantee_for_user("system:serviceaccount:ci:runner"),
        Grantee::ServiceAccount {
            namespace: "ci".into(),
            name: "runner".into()
        }
    );
}

#[test]
fn table_is_a_matrix_with_methods_and_reasons() {
    let r = report(|v, r| r == "pods" && v == "create");
    let mut out = Vec::new();
    render_table(&r, &Style::PLAIN.with_width(200), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("kubectl flink can-i: ServiceAccount prod/flink in namespace prod"),
        "{text}"
    );
    assert!(text.contains("jobmanager, native, HA on"), "{text}");
    let header = text
        .lines()
        .find(|l| l.trim_start().starts_with("RESOURCE"))
        .unwrap();
    for col in [
        "GET", "LIST", "WATCH", "CREATE", "UPDATE", "DELETE", "METHOD", "WHY",
    ] {
        assert!(header.contains(col), "{header}");
    }
    assert!(header.find("GET").unwrap() < header.find("DELETE").unwrap());
    let pods = text
        .lines()
        .find(|l| l.trim_start().starts_with("pods"))
        .unwrap();
    assert_eq!(pods.matches(DENIED).count(), 1, "{pods}");
    assert_eq!(pods.matches(ALLOWED).count(), 4, "{pods}");
    assert!(pods.contains("impersonation + SelfSubjectAccessReview"));
    assert!(text.contains("deployments.apps/finalizers"), "{text}");
    assert!(
        text.contains("denied create pods: no rule allows it"),
        "{text}"
    );
    assert!(text.contains("; 1 denied"), "{text}");
    assert!(text.contains("--fix | kubectl apply -f -"), "{text}");
    assert!(!text.contains('\x1b'));
    let mut coloured = Vec::new();
    render_table(&r, &Style::COLOR, &mut coloured).unwrap();
    assert!(String::from_utf8(coloured).unwrap().contains('\x1b'));
}

#[test]
fn rbac_object_decisions_are_labelled_not_authoritative() {
    let needs = permissions::needs(Holder::Flink(Component::TaskManager), Mode::Native, true);
    let d = decide(&needs, Method::RbacObjects, |_, _| false);
    let r = AccessReport::new(
        &principal(),
        Holder::Flink(Component::TaskManager),
        "prod",
        None,
        &needs,
        &d,
    );
    let mut out = Vec::new();
    render_table(&r, &Style::PLAIN, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("from RBAC objects, not authoritative"),
        "{text}"
    );
    assert_eq!(exit_code(&r), 0);
}

#[test]
fn json_contract() {
    let mut r = report(|v, r| r == "configmaps" && v == "delete");
    r.fix = Some(fix_for(&r, Some("orders"), None, &Known::default()));
    let mut out = Vec::new();
    render_json(&r, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["subject"], "system:serviceaccount:prod:flink");
    assert_eq!(v["namespace"], "prod");
    assert_eq!(v["ha"], true);
    let ds = v["decisions"].as_array().unwrap();
    assert_eq!(ds.len(), 5 + 1 + 1 + 7);
    let denied: Vec<_> = ds.iter().filter(|d| d["allowed"] == false).collect();
    assert_eq!(denied.len(), 1);
    assert_eq!(denied[0]["resource"], "configmaps");
    assert_eq!(denied[0]["verb"], "delete");
    assert_eq!(denied[0]["group"], "");
    assert_eq!(denied[0]["method"], "impersonation");
    assert!(denied[0]["why"].as_str().unwrap().contains("HA"));
    assert!(v["fix"].as_str().unwrap().contains("kind: RoleBinding"));
    let finalizers = ds
        .iter()
        .find(|d| d["resource"] == "deployments/finalizers")
        .unwrap();
    assert_eq!(finalizers["group"], "apps");
}

#[test]
fn unknowns_are_null_in_json_and_listed_in_the_table() {
    let mut r = report(|_, _| false);
    r.rows[0].cells[0] = Cell {
        verb: "get".into(),
        allowed: None,
        method: Method::Undecided,
        reason: "could not list rolebindings".into(),
    };
    let mut out = Vec::new();
    render_json(&r, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["decisions"][0]["allowed"], serde_json::Value::Null);
    assert_eq!(v["decisions"][0]["method"], "none");
    let mut out = Vec::new();
    render_table(&r, &Style::PLAIN, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("unknown get pods: could not list rolebindings"),
        "{text}"
    );
    assert!(!text.contains("fix:"), "{text}");
}

#[test]
fn nothing_needed_says_so() {
    let t = Principal {
        mode: Mode::Standalone,
        ha: Some(false),
        ..principal()
    };
    let r = AccessReport::new(
        &t,
        Holder::Flink(Component::JobManager),
        "prod",
        None,
        &[],
        &[],
    );
    let mut out = Vec::new();
    render_table(&r, &Style::PLAIN, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("needs nothing from the API server (jobmanager, standalone, HA off)"),
        "{text}"
    );
    assert_eq!(exit_code(&r), 0);
}

#[test]
fn names_are_validated() {
    assert!(valid_name("orders"));
    assert!(valid_name("basic-example"));
    assert!(!valid_name("Orders"));
    assert!(!valid_name("-x"));
    assert!(!valid_name("a b"));
    assert!(!valid_name(""));
}

#[test]
fn decisions_match_rows_by_group_resource_and_subresource() {
    let needs = permissions::ME.to_vec();
    let qs = questions_for(&needs, &Subject::Caller, "prod");
    let d: Vec<Decision> = qs
        .into_iter()
        .map(|q| Decision {
            allowed: Some(
                !(q.attrs
                    == Attributes {
                        subresource: "log".into(),
                        ..q.attrs.clone()
                    }
                    && q.attrs.resource == "pods"),
            ),
            method: Method::SelfSubjectAccessReview,
            reason: String::new(),
            question: q,
        })
        .collect();
    let t = Principal::caller("the caller".into());
    let r = AccessReport::new(&t, Holder::Me, "prod", Some("alice"), &needs, &d);
    let pods = r.rows.iter().find(|r| r.resource == "pods").unwrap();
    let log = r.rows.iter().find(|r| r.resource == "pods/log").unwrap();
    assert_eq!(pods.cells[0].allowed, Some(true));
    assert_eq!(log.cells[0].allowed, Some(false));
}

#[test]
fn the_matrix_fits_the_width_without_splitting_a_word() {
    let r = report(|v, r| r == "pods" && v == "create");
    let words = |t: &str| -> Vec<String> {
        let mut w: Vec<String> = t.split_whitespace().map(str::to_string).collect();
        w.sort();
        w
    };
    let mut wide = Vec::new();
    render_table(&r, &Style::PLAIN.with_width(400), &mut wide).unwrap();
    let wide = String::from_utf8(wide).unwrap();
    for cols in [80, 100, 200] {
        let mut out = Vec::new();
        render_table(&r, &Style::PLAIN.with_width(cols), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let matrix: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("RESOURCE"))
            .take_while(|l| !l.trim().is_empty())
            .collect();
        assert!(matrix.len() > 3, "{text}");
        assert!(
            matrix.iter().all(|l| l.chars().count() <= cols),
            "{cols}:\n{text}"
        );
        // Wrapped or not, the words of the wide table: none was cut in two.
        let wide_words = words(&wide);
        for w in words(&text) {
            let w = w.trim_end_matches(':');
            assert!(
                w == "method" || wide_words.iter().any(|x| x.trim_end_matches(':') == w),
                "{w:?} at {cols}:\n{text}"
            );
        }
        // The reasons are all there, beside the marks or under them.
        for row in &r.rows {
            assert!(
                text.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(&row.why),
                "{cols}:\n{text}"
            );
        }
    }
}

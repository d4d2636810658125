use super::*;
use crate::finding::{Category, ObjectRef, Severity};

fn finding(rule: &'static str, ns: &str, deployment: &str) -> Finding {
    let meta = crate::rules::RULES
        .iter()
        .map(|r| r.meta())
        .find(|m| m.id == rule)
        .expect("a registered rule");
    let d = ObjectRef::new("FlinkDeployment", Some(ns), deployment);
    let mut f = Finding::new(meta, d.clone(), "broken");
    f.deployment = Some(d);
    f
}

#[test]
fn a_diagnosis_of_some_namespaces_replaces_theirs_and_keeps_the_others() {
    let mut state = State::default();
    let at = Utc::now();
    let first = rank(vec![
        finding("FLK101", "a", "orders"),
        finding("FLK101", "b", "clicks"),
    ]);
    state.update(&Dirty::All, first, Vec::new(), Vec::new(), at);
    assert_eq!(state.report.findings.len(), 2);
    // Namespace a diagnosed again and healthy: only b's finding is left, even when the
    // diagnosis also saw (an older view of) another namespace.
    let again = rank(vec![finding("FLK101", "c", "other")]);
    state.update(
        &Dirty::Namespaces(["a".to_string()].into()),
        again,
        Vec::new(),
        Vec::new(),
        at,
    );
    let left: Vec<&str> = state.report.findings.iter().map(namespace_of).collect();
    assert_eq!(left, ["b"]);
    assert_eq!(state.root_causes().len(), 1);
    assert_eq!(state.root_causes()[0].name, "clicks");
}

#[test]
fn the_metrics_count_findings_by_their_labels_and_drop_cleared_ones() {
    let m = metrics::Metrics::new();
    let mut state = State::default();
    let mut f = finding("FLK101", "a", "orders");
    f.count = 3;
    let category = f.category;
    let severity = f.severity;
    state.update(
        &Dirty::All,
        rank(vec![f]),
        Vec::new(),
        Vec::new(),
        Utc::now(),
    );
    m.update(&state, 7, Duration::from_millis(12));
    let text = m.encode();
    let line = format!(
        "kubectl_flink_findings{{namespace=\"a\",deployment=\"orders\",category=\"{}\",severity=\"{}\",rule=\"FLK101\"}} 3",
        category.id(),
        severity.as_str()
    );
    assert!(text.contains(&line), "{text}");
    assert!(text.contains("kubectl_flink_watched_objects 7"), "{text}");
    assert!(
        text.contains("kubectl_flink_diagnosis_duration_seconds_count 1"),
        "{text}"
    );
    assert!(
        text.contains("kubectl_flink_last_diagnosis_timestamp_seconds"),
        "{text}"
    );
    state.update(
        &Dirty::All,
        rank(Vec::new()),
        Vec::new(),
        Vec::new(),
        Utc::now(),
    );
    m.update(&state, 7, Duration::from_millis(12));
    assert!(!m.encode().contains("kubectl_flink_findings{"), "cleared");
    let _ = (Category::ALL, Severity::Critical);
}

#[test]
fn api_errors_and_gaps_have_bounded_labels() {
    let m = metrics::Metrics::new();
    m.api_error("pods", crate::snapshot::GapReason::Forbidden);
    m.api_error("pods", crate::snapshot::GapReason::Forbidden);
    let mut state = State::default();
    let gap = Gap {
        verb: "decode".into(),
        group: "flink.apache.org".into(),
        resource: "FlinkDeployment/some-name".into(),
        namespace: Some("a".into()),
        reason: crate::snapshot::GapReason::Error,
        message: "bad".into(),
    };
    state.update(
        &Dirty::All,
        rank(Vec::new()),
        Vec::new(),
        vec![gap],
        Utc::now(),
    );
    m.update(&state, 0, Duration::ZERO);
    let text = m.encode();
    assert!(
        text.contains("kubectl_flink_api_errors_total{resource=\"pods\",reason=\"forbidden\"} 2"),
        "{text}"
    );
    assert!(
        text.contains("kubectl_flink_gaps{resource=\"FlinkDeployment\",reason=\"error\"} 1"),
        "{text}"
    );
}

#[test]
fn the_endpoints_answer() {
    let shared: Shared = Arc::new(RwLock::new(State::default()));
    let m = metrics::Metrics::new();
    let get = |path: &str| {
        let req = http::Request::get(path).body(()).unwrap();
        serve::answer(&req, &shared, &m).status().as_u16()
    };
    assert_eq!(get("/healthz"), 200);
    assert_eq!(get("/readyz"), 503);
    assert_eq!(get("/api/v1/findings"), 503);
    assert_eq!(get("/metrics"), 200);
    assert_eq!(get("/nope"), 404);
    shared.write().unwrap().update(
        &Dirty::All,
        rank(vec![finding("FLK101", "a", "orders")]),
        Vec::new(),
        Vec::new(),
        Utc::now(),
    );
    assert_eq!(get("/readyz"), 200);
    let req = http::Request::get("/api/v1/findings").body(()).unwrap();
    let res = serve::answer(&req, &shared, &m);
    assert_eq!(res.status().as_u16(), 200);
    let body = futures::executor::block_on(http_body_util::BodyExt::collect(res.into_body()))
        .unwrap()
        .to_bytes();
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["findings"][0]["rule"], "FLK101");
    let post = http::Request::post("/metrics").body(()).unwrap();
    assert_eq!(serve::answer(&post, &shared, &m).status().as_u16(), 405);
}

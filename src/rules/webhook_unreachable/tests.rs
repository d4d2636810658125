use super::*;
use crate::rules::support::install::testing::{healthy_yaml, load, without, NS};
use crate::rules::testing::run;

#[test]
fn silent_when_healthy() {
    assert!(run(&WebhookUnreachable, &load(&healthy_yaml())).is_empty());
}

/// The healthy installation as a bundle of another tool holds it: `v1 Endpoints`, no
/// EndpointSlice. `ready` says whether the Endpoints list the pod as ready.
fn as_bundle_with_endpoints(ready: bool) -> crate::snapshot::Snapshot {
    let key = if ready {
        "addresses"
    } else {
        "notReadyAddresses"
    };
    let y = without(&healthy_yaml(), "EndpointSlice", "flink-operator-webhook-service")
            + &format!(
                "\n---\napiVersion: v1\nkind: Endpoints\nmetadata: {{name: flink-operator-webhook-service, namespace: {NS}}}\n\
                 subsets:\n- {key}: [{{ip: 10.0.0.12}}]\n  ports: [{{port: 9443}}]\n"
            );
    let mut s = load(&y);
    let kinds = crate::snapshot::bundle::parse_documents(&y)
        .unwrap()
        .iter()
        .filter_map(|d| d.get("kind").and_then(|k| k.as_str()).map(String::from))
        .collect();
    s.bundle_kinds = Some(kinds);
    s
}

#[test]
fn a_bundle_with_ready_endpoints_and_no_endpointslices_is_healthy() {
    let s = as_bundle_with_endpoints(true);
    assert!(s.endpoint_slices.is_empty() && s.endpoints.len() == 1);
    assert!(run(&WebhookUnreachable, &s).is_empty());
}

#[test]
fn a_bundle_whose_endpoints_list_no_ready_address_says_so() {
    let f = run(&WebhookUnreachable, &as_bundle_with_endpoints(false));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].evidence
            .iter()
            .any(|e| e.contains("no ready address (1 not ready)")),
        "{:#?}",
        f[0].evidence
    );
}

#[test]
fn a_bundle_without_any_endpoints_proves_nothing() {
    let mut s = as_bundle_with_endpoints(true);
    s.endpoints.clear();
    if let Some(k) = s.bundle_kinds.as_mut() {
        k.remove("Endpoints");
    }
    assert!(run(&WebhookUnreachable, &s).is_empty());
}

#[test]
fn a_selector_that_matches_no_pod_leaves_no_endpoint() {
    let y = healthy_yaml()
            .replace(
                "spec:\n  selector: {app.kubernetes.io/name: flink-kubernetes-operator}\n  ports: [{port: 443, targetPort: 9443}]",
                "spec:\n  selector: {app: flink-operator}\n  ports: [{port: 443, targetPort: 9443}]",
            )
            .replace(
                "endpoints:\n- addresses: [10.0.0.12]\n  conditions: {ready: true}\n  targetRef: {kind: Pod, namespace: flink-operator, name: flink-kubernetes-operator-7d9c6b5f4-abcde}\n",
                "endpoints: []\n",
            );
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].category, Category::WebhookUnreachable);
    assert_eq!(f[0].severity, Severity::Critical);
    assert!(
        f[0].evidence
            .iter()
            .any(|e| e.contains("matches none of the operator's pods")),
        "{:#?}",
        f[0].evidence
    );
    assert!(f[0].fix.contains("\"path\":\"/spec/selector\""));
    assert!(f[0]
        .evidence
        .iter()
        .any(|e| e.contains("failed calling webhook \"validationwebhook.flink.apache.org\"")));
}

#[test]
fn a_selector_fixed_before_the_endpoints_caught_up_is_waiting_for_them() {
    // The healthy installation as it is right after the Service's selector was patched to
    // match the operator's pod: the EndpointSlice has no endpoint yet.
    let y = healthy_yaml().replace(
            "endpoints:\n- addresses: [10.0.0.12]\n  conditions: {ready: true}\n  targetRef: {kind: Pod, namespace: flink-operator, name: flink-kubernetes-operator-7d9c6b5f4-abcde}\n",
            "endpoints: []\n",
        );
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].severity, Severity::Info);
    assert!(
            f[0].title.ends_with(
                "matches the operator's pod flink-kubernetes-operator-7d9c6b5f4-abcde now, waiting for the EndpointSlice controller"
            ),
            "{}",
            f[0].title
        );
    assert!(
        crate::finding::Remedy::from_fix(&f[0].fix).is_empty(),
        "{}",
        f[0].fix
    );
    assert!(f[0]
        .verify
        .contains("kubectl get endpointslices -n flink-operator"));

    // The endpoints know the pod, as not ready: not waiting for them, the pod is the problem.
    let seen = healthy_yaml().replace("conditions: {ready: true}", "conditions: {ready: false}");
    let f = run(&WebhookUnreachable, &load(&seen));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].severity, Severity::Critical);
    // The pod not Ready: nothing to wait for either.
    let unready = y.replace(
        "conditions: [{type: Ready, status: \"True\"}]",
        "conditions: [{type: Ready, status: \"False\"}]",
    );
    assert_ne!(unready, y);
    let f = run(&WebhookUnreachable, &load(&unready));
    assert_eq!(f[0].severity, Severity::Critical, "{}", f[0].title);
}

#[test]
fn a_missing_service_and_wrong_ports_and_paths() {
    let f = run(
        &WebhookUnreachable,
        &load(&without(
            &healthy_yaml(),
            "Service",
            "flink-operator-webhook-service",
        )),
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(f[0].title.contains("does not exist"));
    assert!(f[0].fix.contains("targetPort: 9443"));

    let y = healthy_yaml().replace(
        "ports: [{port: 443, targetPort: 9443}]",
        "ports: [{port: 443, targetPort: 8443}]",
    );
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].title.contains("forwards port 443 to 8443"),
        "{}",
        f[0].title
    );
    assert!(f[0]
        .fix
        .contains("/spec/ports/0/targetPort\",\"value\":9443"));

    let y = healthy_yaml().replace("path: /mutate}", "path: /validate}");
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(f[0].fix.contains("\"value\":\"/mutate\""));
    assert_eq!(f[0].object.kind, "MutatingWebhookConfiguration");

    let y = healthy_yaml().replace("service: {name: flink-operator-webhook-service, namespace: flink-operator, path: /validate}", "service: {name: flink-operator-webhook-service, namespace: flink-operator, path: /validate, port: 8443}");
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(f[0].title.contains("calls port 8443"));
}

#[test]
fn ignore_policy_is_a_warning_and_unreadable_endpoints_say_nothing() {
    let y = healthy_yaml()
        .replace(
            "endpoints:\n- addresses: [10.0.0.12]\n  conditions: {ready: true}",
            "endpoints:\n- addresses: [10.0.0.12]\n  conditions: {ready: false}",
        )
        .replace("failurePolicy: Fail", "failurePolicy: Ignore");
    let f = run(&WebhookUnreachable, &load(&y));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    let mut s = load(&y);
    s.gaps.push(crate::snapshot::Gap {
        verb: "list".into(),
        group: "discovery.k8s.io".into(),
        resource: "endpointslices".into(),
        namespace: Some(NS.into()),
        reason: crate::snapshot::GapReason::Forbidden,
        message: "forbidden".into(),
    });
    assert!(run(&WebhookUnreachable, &s).is_empty());
}

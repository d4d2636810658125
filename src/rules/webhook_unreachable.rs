//! FLK012: an admission webhook for Flink resources has no reachable backend. Checked along the
//! path the API server takes: the Service the configuration names exists, exposes the port the
//! configuration calls (443 for the chart) and forwards to the port the webhook container
//! listens on (9443), has a ready endpoint, and the path is the one the operator serves
//! (`/validate`, `/mutate`). With `failurePolicy: Fail` every create and update of a Flink
//! resource is then refused (`failed calling webhook`); with `Ignore` it is admitted unchecked.

use super::support::install::{self, flink_hooks, operator_in, service, unreadable, Hook};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::snapshot::{Index, Snapshot};
use k8s_openapi::api::core::v1::{Endpoints, Pod, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::BTreeMap;

pub struct WebhookUnreachable;

static META: RuleMeta = RuleMeta {
    id: "FLK012",
    name: "webhook_unreachable",
    summary:
        "the admission webhook's Service has no ready endpoint, so every Flink resource write fails",
    category: Category::WebhookUnreachable,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"give the webhook a backend: the Service its configuration names must exist, select the running operator pod and expose the port the configuration uses; or delete the webhook configuration an uninstalled operator left behind"#,
    verify: r#"kubectl get endpoints -n <operator-namespace> -o wide   # expect an address behind the webhook's Service"#,
};

impl Rule for WebhookUnreachable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let hooks = flink_hooks(s);
        // Hooks by the Service they call.
        let mut by_service: BTreeMap<(String, String), Vec<&Hook>> = BTreeMap::new();
        let mut out = Vec::new();
        for h in &hooks {
            match h.service() {
                Some(svc) => by_service
                    .entry((svc.namespace.clone(), svc.name.clone()))
                    .or_default()
                    .push(h),
                None => continue, // a URL webhook: outside the cluster, nothing to check here
            }
            if h.path() != h.expected_path() {
                out.push(wrong_path(h));
            }
        }
        for ((ns, name), hooks) in by_service {
            if unreadable(s, "", "services", Some(&ns)) {
                continue;
            }
            let Some(svc) = service(s, &ns, &name) else {
                out.push(no_service(s, &ns, &name, &hooks));
                continue;
            };
            if let Some(f) = wrong_port(s, svc, &ns, &name, &hooks) {
                out.push(f);
                continue;
            }
            // `v1 Endpoints` come only from bundles (the live gather reads EndpointSlices).
            let endpoints_read =
                s.bundle_kinds.is_some() && !unreadable(s, "", "endpoints", Some(&ns));
            if unreadable(s, "discovery.k8s.io", "endpointslices", Some(&ns)) && !endpoints_read {
                continue;
            }
            if let Some(f) = no_endpoints(s, svc, &ns, &name, &hooks) {
                out.push(f);
            }
        }
        out
    }
}

fn severity(hooks: &[&Hook]) -> Severity {
    if hooks.iter().any(|h| h.fails_closed()) {
        Severity::Critical
    } else {
        Severity::Warning
    }
}

fn with_consequences(mut f: Finding, hooks: &[&Hook]) -> Finding {
    for h in hooks {
        f = f.evidence(format!(
            "{} {} / {}: {}",
            h.kind,
            h.config,
            h.name,
            h.consequence()
        ));
    }
    f
}

/// The Service the webhooks name (their clientConfig.service, a free value in a bundle), each
/// value a YAML scalar.
fn chart_service_yaml(ns: &str, name: &str, port: i32, target: i32) -> String {
    let (ns, name) = (crate::shell::yaml(ns), crate::shell::yaml(name));
    format!(
        "kubectl apply -f - <<'EOF'\n\
         apiVersion: v1\n\
         kind: Service\n\
         metadata:\n  name: {name}\n  namespace: {ns}\n\
         spec:\n  selector:\n    {}: {}\n  ports:\n  - port: {port}\n    targetPort: {target}\n\
         EOF",
        install::OPERATOR_LABEL,
        install::CHART
    )
}

fn verify_endpoints(ns: &str, name: &str) -> String {
    let sel = crate::shell::quote(&format!("kubernetes.io/service-name={name}")).into_owned();
    let ns = crate::shell::sh(ns);
    format!(
        "kubectl get endpointslices -n {ns} -l {sel} -o jsonpath='{{.items[*].endpoints[*].conditions.ready}}{{\"\\n\"}}'   # expect true"
    )
}

fn no_service(s: &Snapshot, ns: &str, name: &str, hooks: &[&Hook]) -> Finding {
    let op = operator_in(s, ns);
    let target = op
        .as_ref()
        .map(|o| o.webhook_port())
        .unwrap_or(install::WEBHOOK_PORT);
    let port = hooks.first().map(|h| h.port()).unwrap_or(443);
    let f = Finding::new(
        &META,
        ObjectRef::namespaced("Service", ns, name),
        format!("the webhook Service {ns}/{name} does not exist: the API server cannot call the Flink webhooks"),
    )
    .severity(severity(hooks))
    .evidence(format!("Service {ns}/{name}: not found"));
    let fix = if op.is_some() {
        format!(
            "Recreate the Service (the chart's, as `helm upgrade` would):\n\n{}\n\nor: {}",
            chart_service_yaml(ns, name, port, target),
            install::release_in(s, ns)
                .upgrade("")
                .lines()
                .last()
                .unwrap_or("")
        )
    } else {
        let configs: Vec<String> = hooks
            .iter()
            .map(|h| h.kubectl())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        format!(
            "No operator runs in {ns} to serve these webhooks. Install it there (see operator_not_running), or remove the\n\
             leftover webhook configurations so Flink resources can be admitted:\n\n{}",
            configs.iter().map(|c| format!("kubectl delete {c}")).collect::<Vec<_>>().join("\n")
        )
    };
    with_consequences(f, hooks)
        .fix(fix)
        .verify(verify_endpoints(ns, name))
        .link(install::link(ns))
}

fn target_of(svc: &Service, port: i32) -> Option<(i32, Option<IntOrString>)> {
    let p = svc
        .spec
        .as_ref()?
        .ports
        .iter()
        .flatten()
        .find(|p| p.port == port)?;
    Some((p.port, p.target_port.clone()))
}

fn wrong_port(
    s: &Snapshot,
    svc: &Service,
    ns: &str,
    name: &str,
    hooks: &[&Hook],
) -> Option<Finding> {
    let op = operator_in(s, ns);
    let listen = op
        .as_ref()
        .map(|o| o.webhook_port())
        .unwrap_or(install::WEBHOOK_PORT);
    let ports: Vec<String> = svc
        .spec
        .as_ref()
        .and_then(|sp| sp.ports.as_ref())
        .map(|ps| {
            ps.iter()
                .map(|p| match &p.target_port {
                    Some(IntOrString::Int(t)) => format!("{}->{t}", p.port),
                    Some(IntOrString::String(t)) => format!("{}->{t}", p.port),
                    None => format!("{}", p.port),
                })
                .collect()
        })
        .unwrap_or_default();
    for h in hooks {
        match target_of(svc, h.port()) {
            None => {
                let f = Finding::new(
                    &META,
                    h.object(),
                    format!(
                        "{} calls port {} of Service {ns}/{name}, which does not expose it",
                        h.name,
                        h.port()
                    ),
                )
                .severity(severity(hooks))
                .evidence(format!(
                    "{} {} / {}: clientConfig.service.port {}",
                    h.kind,
                    h.config,
                    h.name,
                    h.port()
                ))
                .evidence(format!("Service {ns}/{name} ports: {}", ports.join(", ")));
                let first = svc
                    .spec
                    .as_ref()
                    .and_then(|sp| sp.ports.as_ref())
                    .and_then(|p| p.first())
                    .map(|p| p.port)
                    .unwrap_or(443);
                return Some(
                    with_consequences(f, hooks)
                        .fix(format!(
                            "Point the webhook at the Service's port:\n\n\
                             kubectl patch {} --type=json -p '[{{\"op\":\"replace\",\"path\":\"/webhooks/{}/clientConfig/service/port\",\"value\":{first}}}]'",
                            h.kubectl(),
                            h.index
                        ))
                        .verify(format!(
                            "kubectl get {} -o jsonpath='{{.webhooks[{}].clientConfig.service.port}}{{\"\\n\"}}'   # expect {first}",
                            h.kubectl(),
                            h.index
                        ))
                        .link(install::link(ns)),
                );
            }
            Some((port, target)) => {
                let resolved = match &target {
                    None => Some(port),
                    Some(IntOrString::Int(t)) => Some(*t),
                    Some(IntOrString::String(n)) => op.as_ref().and_then(|o| o.named_port(n)),
                };
                // Only a known listener (the chart's webhook container) can be contradicted.
                let knows_listener = op.as_ref().is_some_and(|o| o.webhook_enabled());
                if knows_listener && resolved.is_some_and(|t| t != listen) {
                    let shown = match &target {
                        Some(IntOrString::String(n)) => {
                            format!("{n} ({})", resolved.unwrap_or_default())
                        }
                        _ => resolved.unwrap_or_default().to_string(),
                    };
                    let idx = svc
                        .spec
                        .as_ref()
                        .and_then(|sp| sp.ports.as_ref())
                        .and_then(|ps| ps.iter().position(|p| p.port == port))
                        .unwrap_or(0);
                    let f = Finding::new(
                        &META,
                        ObjectRef::namespaced("Service", ns, name),
                        format!("Service {ns}/{name} forwards port {port} to {shown}, but the webhook listens on {listen}"),
                    )
                    .severity(severity(hooks))
                    .evidence(format!("Service {ns}/{name} ports: {}", ports.join(", ")))
                    .evidence(
                        op.as_ref()
                            .map(|o| o.webhook_listener().1)
                            .unwrap_or_default(),
                    );
                    return Some(
                        with_consequences(f, hooks)
                            .fix(format!(
                                "Forward the Service to the webhook's port:\n\n\
                                 kubectl patch service {name} -n {ns} --type=json -p '[{{\"op\":\"replace\",\"path\":\"/spec/ports/{idx}/targetPort\",\"value\":{listen}}}]'"
                            ))
                            .verify(format!(
                                "kubectl get service {name} -n {ns} -o jsonpath='{{.spec.ports[{idx}].targetPort}}{{\"\\n\"}}'   # expect {listen}"
                            ))
                            .link(install::link(ns)),
                    );
                }
            }
        }
    }
    None
}

fn no_endpoints(
    s: &Snapshot,
    svc: &Service,
    ns: &str,
    name: &str,
    hooks: &[&Hook],
) -> Option<Finding> {
    let slices: Vec<_> = s
        .endpoint_slices
        .iter()
        .filter(|e| e.metadata.namespace.as_deref() == Some(ns))
        .filter(|e| {
            e.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("kubernetes.io/service-name"))
                .map(String::as_str)
                == Some(name)
        })
        .collect();
    let endpoints: Vec<_> = slices
        .iter()
        .flat_map(|e| e.endpoints.iter().flatten())
        .collect();
    let ready = endpoints
        .iter()
        .filter(|e| e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true))
        .count();
    // `v1 Endpoints` (what `kubectl get endpoints` and older bundles hold): ready addresses.
    let legacy: Vec<_> = s
        .endpoints
        .iter()
        .filter(|e| {
            e.metadata.namespace.as_deref() == Some(ns) && e.metadata.name.as_deref() == Some(name)
        })
        .collect();
    let legacy_ready = legacy
        .iter()
        .flat_map(|e| e.subsets.iter().flatten())
        .map(|sub| sub.addresses.as_ref().map_or(0, Vec::len))
        .sum::<usize>();
    if ready > 0 || legacy_ready > 0 {
        return None;
    }
    let selector = svc
        .spec
        .as_ref()
        .and_then(|sp| sp.selector.clone())
        .unwrap_or_default();
    let selector_text = selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let op = operator_in(s, ns);
    let pods: Vec<_> = op.as_ref().map(|o| o.pods.clone()).unwrap_or_default();
    let selected: Vec<_> = pods
        .iter()
        .filter(|p| {
            !selector.is_empty()
                && selector
                    .iter()
                    .all(|(k, v)| p.metadata.labels.as_ref().and_then(|l| l.get(k)) == Some(v))
        })
        .collect();
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Service", ns, name),
        format!("the webhook Service {ns}/{name} has no ready endpoint: nothing answers the Flink webhooks"),
    )
    .severity(severity(hooks))
    .evidence(if slices.is_empty() && !legacy.is_empty() {
        let not_ready = legacy
            .iter()
            .flat_map(|e| e.subsets.iter().flatten())
            .map(|sub| sub.not_ready_addresses.as_ref().map_or(0, Vec::len))
            .sum::<usize>();
        format!("Endpoints {ns}/{name}: no ready address ({not_ready} not ready)")
    } else if slices.is_empty() {
        format!("no EndpointSlice labelled kubernetes.io/service-name={name} in {ns}")
    } else {
        format!(
            "EndpointSlices of {ns}/{name}: {} endpoint(s), none ready",
            endpoints.len()
        )
    })
    .evidence(format!("Service {ns}/{name} selector: {}", if selector_text.is_empty() { "<none>".into() } else { selector_text.clone() }));
    let fix;
    if op.is_none() {
        f = f.evidence(format!("no operator Deployment runs in {ns}"));
        fix = format!(
            "Nothing serves the webhooks: install the operator in {ns} (see operator_not_running), or delete the leftover\n\
             webhook configurations:\n\n{}",
            hooks
                .iter()
                .map(|h| format!("kubectl delete {}", h.kubectl()))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join("\n")
        );
    } else if selected.is_empty() && !pods.is_empty() {
        let labels = pods[0]
            .metadata
            .labels
            .as_ref()
            .map(|l| {
                l.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default();
        f = f.evidence(format!(
            "the selector matches none of the operator's pods ({} has labels {labels})",
            install::pod_name(pods[0])
        ));
        fix = format!(
            "Make the Service select the operator's pods (the chart's selector):\n\n\
             kubectl patch service {name} -n {ns} --type=json -p '[{{\"op\":\"replace\",\"path\":\"/spec/selector\",\"value\":{{\"{}\":\"{}\"}}}}]'",
            install::OPERATOR_LABEL,
            install::CHART
        );
    } else if selected.is_empty() {
        f = f.evidence(format!("no operator pod exists in {ns}"));
        fix = format!(
            "The operator has no pod to serve the webhook; fix the operator first (see operator_not_running):\n\n\
             kubectl describe deployment/{} -n {ns}",
            op.as_ref().map(|o| o.name()).unwrap_or(install::CHART)
        );
    } else if let Some(p) = op
        .as_ref()
        .filter(|o| o.webhook_enabled())
        .and_then(|_| awaiting_endpoint(&selected, &slices, &legacy))
    {
        return Some(awaiting_endpoints(f, hooks, ns, name, &selector_text, p));
    } else {
        for p in &selected {
            let webhook = p
                .status
                .as_ref()
                .and_then(|st| st.container_statuses.as_ref())
                .and_then(|cs| cs.iter().find(|c| c.name == install::WEBHOOK_CONTAINER));
            f = f.evidence(match webhook {
                Some(c) if !c.ready => format!("pod {}: container {} is not ready", install::pod_name(p), install::WEBHOOK_CONTAINER),
                Some(_) => format!("pod {}: container {} is ready, yet not an endpoint", install::pod_name(p), install::WEBHOOK_CONTAINER),
                None if op.as_ref().is_some_and(|o| !o.webhook_enabled()) => format!(
                    "pod {} runs no {} container (the chart was installed with webhook.create=false)",
                    install::pod_name(p),
                    install::WEBHOOK_CONTAINER
                ),
                None => format!("pod {}: not ready", install::pod_name(p)),
            });
        }
        let disabled = op.as_ref().is_some_and(|o| !o.webhook_enabled());
        fix = if disabled {
            format!(
                "The operator runs without its webhook, but the webhook configurations remain; remove them:\n\n{}",
                hooks
                    .iter()
                    .map(|h| format!("kubectl delete {}", h.kubectl()))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        } else {
            format!(
                "Get the webhook container ready (its log says why it is not), then restart the operator:\n\n\
                 kubectl logs -n {ns} deployment/{name_} -c {} --tail=100\n\
                 kubectl rollout restart deployment/{name_} -n {ns}",
                install::WEBHOOK_CONTAINER,
                name_ = op.as_ref().map(|o| o.name()).unwrap_or(install::CHART)
            )
        };
    }
    Some(
        with_consequences(f, hooks)
            .fix(fix)
            .verify(verify_endpoints(ns, name))
            .link(install::link(ns)),
    )
}

/// A selected pod that is Ready and that no endpoint of the Service knows, by name or IP, ready
/// or not: the endpoints predate the selector that matches it (the fix of a wrong selector, just
/// applied). The EndpointSlice controller adds every Ready pod the selector matches (and the
/// endpoints controller mirrors it into `v1 Endpoints`); until it has, the API server still finds
/// no endpoint. A pod the endpoints list as not ready is not this: they have seen it, and it was
/// not ready.
fn awaiting_endpoint<'a>(
    selected: &[&&'a Pod],
    slices: &[&EndpointSlice],
    legacy: &[&Endpoints],
) -> Option<&'a Pod> {
    let known = |p: &Pod| {
        let name = install::pod_name(p);
        let ips: Vec<&str> = p
            .status
            .iter()
            .flat_map(|st| {
                st.pod_ip
                    .iter()
                    .map(String::as_str)
                    .chain(st.pod_ips.iter().flatten().map(|i| i.ip.as_str()))
            })
            .collect();
        let sliced = slices
            .iter()
            .flat_map(|sl| sl.endpoints.iter().flatten())
            .any(|e| {
                e.target_ref.as_ref().and_then(|t| t.name.as_deref()) == Some(name)
                    || e.addresses.iter().any(|a| ips.contains(&a.as_str()))
            });
        let listed = legacy
            .iter()
            .flat_map(|e| e.subsets.iter().flatten())
            .flat_map(|sub| {
                sub.addresses
                    .iter()
                    .flatten()
                    .chain(sub.not_ready_addresses.iter().flatten())
            })
            .any(|a| {
                a.target_ref.as_ref().and_then(|t| t.name.as_deref()) == Some(name)
                    || ips.contains(&a.ip.as_str())
            });
        // A pod without a recorded IP cannot be told apart from an address without a
        // targetRef: any address at all may be it.
        let any = slices
            .iter()
            .flat_map(|sl| sl.endpoints.iter().flatten())
            .next()
            .is_some()
            || legacy
                .iter()
                .flat_map(|e| e.subsets.iter().flatten())
                .any(|sub| {
                    sub.addresses.as_ref().is_some_and(|a| !a.is_empty())
                        || sub
                            .not_ready_addresses
                            .as_ref()
                            .is_some_and(|a| !a.is_empty())
                });
        sliced || listed || (ips.is_empty() && any)
    };
    let ready = |p: &Pod| {
        p.status
            .iter()
            .flat_map(|st| st.conditions.iter().flatten())
            .any(|c| c.type_ == "Ready" && c.status == "True")
    };
    selected.iter().map(|p| **p).find(|p| ready(p) && !known(p))
}

/// The selector is fixed: info, and what to watch instead of the fix again.
fn awaiting_endpoints(
    f: Finding,
    hooks: &[&Hook],
    ns: &str,
    name: &str,
    selector: &str,
    pod: &Pod,
) -> Finding {
    let p = install::pod_name(pod);
    let mut f = f.severity(Severity::Info).evidence(format!(
        "the selector {selector} matches pod {p} now, which is Ready and in no endpoint of the Service yet"
    ));
    f.title = format!(
        "{}: its selector matches the operator's pod {p} now, waiting for the EndpointSlice controller",
        f.title
    );
    with_consequences(f, hooks)
        .fix(format!(
            "Nothing more to change: Service {ns}/{name} selects the operator's Ready pod {p}. The EndpointSlice\n\
             controller (kube-controller-manager) adds it as an endpoint, and the API server reaches the\n\
             webhook through it. If no endpoint appears, see what happens to the Service:\n\n  \
             kubectl get events -n {ns} --field-selector involvedObject.name={name}"
        ))
        .verify(verify_endpoints(ns, name))
        .link(install::link(ns))
}

fn wrong_path(h: &Hook) -> Finding {
    let ns = h.namespace().unwrap_or("");
    Finding::new(
        &META,
        h.object(),
        format!(
            "{} calls path {} but the operator serves {} webhooks on {}",
            h.name,
            h.path(),
            if h.kind == install::MUTATING { "mutating" } else { "validating" },
            h.expected_path()
        ),
    )
    .severity(if h.fails_closed() { Severity::Critical } else { Severity::Warning })
    .evidence(format!("{} {} / {}: clientConfig.service.path {}", h.kind, h.config, h.name, h.path()))
    .evidence(format!("{} {} / {}: {}", h.kind, h.config, h.name, h.consequence()))
    .fix(format!(
        "kubectl patch {} --type=json -p '[{{\"op\":\"replace\",\"path\":\"/webhooks/{}/clientConfig/service/path\",\"value\":\"{}\"}}]'",
        h.kubectl(),
        h.index,
        h.expected_path()
    ))
    .verify(format!(
        "kubectl get {} -o jsonpath='{{.webhooks[{}].clientConfig.service.path}}{{\"\\n\"}}'   # expect {}",
        h.kubectl(),
        h.index,
        h.expected_path()
    ))
    .link(install::link(ns))
}

#[cfg(test)]
mod tests;

//! FLK013: the API server cannot verify the Flink webhook's serving certificate, so every call
//! fails with `x509: certificate signed by unknown authority` (or a name mismatch): the
//! configuration's `caBundle` is empty (also the blank `Cg==`, a lone newline), is not PEM, or
//! holds a CA that did not sign the certificate in the TLS Secret; or the certificate's
//! subjectAltNames lack `<service>.<namespace>.svc`, the name the API server dials (a CN alone is
//! ignored since Go 1.15). Certificates are parsed with x509-parser; nothing is shelled out.

use super::support::install::x509::{chain_verifies, parse_pem, Cert};
use super::support::install::{
    self, cert_manager_installed, flink_hooks, secret, secret_data, serving_chain, tls_secret_name,
    Hook,
};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::{escape_controls, json_arg, nested, sh};
use crate::snapshot::{Index, Snapshot};
use std::collections::BTreeMap;

pub struct WebhookCertInvalid;

static META: RuleMeta = RuleMeta {
    id: "FLK013",
    name: "webhook_cert_invalid",
    summary: "the webhook's caBundle does not verify its serving certificate, or the certificate lacks the Service's name",
    category: Category::WebhookCertInvalid,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"let cert-manager's cainjector inject the issuing CA into the webhook configuration's caBundle, and reissue the serving certificate for the Service's DNS name (service.namespace.svc) by deleting its Secret; then restart the operator pod"#,
    verify: r#"kubectl get validatingwebhookconfiguration,mutatingwebhookconfiguration -o yaml | grep -c caBundle   # expect a count above 0"#,
};

/// One webhook with what is wrong with its caBundle.
type HookSeen<'a> = (Hook<'a>, String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CertProblem {
    Empty,
    NotPem,
    OtherCa,
}

impl Rule for WebhookCertInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let mut out = Vec::new();
        // (kind, configuration, problem) -> hooks, with the evidence for each.
        let mut grouped: BTreeMap<(&str, &str, CertProblem), Vec<HookSeen>> = BTreeMap::new();
        // Installation namespace -> the hosts its webhooks dial.
        let mut hosts: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for h in flink_hooks(s) {
            let Some(ns) = h.namespace() else { continue };
            if let Some(host) = h.host() {
                let e = hosts.entry(ns.to_string()).or_default();
                if !e.contains(&host) {
                    e.push(host);
                }
            }
            let bundle = h
                .client
                .ca_bundle
                .as_ref()
                .map(|b| b.0.as_slice())
                .unwrap_or(&[]);
            let roots = match parse_pem(bundle) {
                Ok(r) if r.is_empty() => {
                    let what = if bundle.is_empty() {
                        "caBundle is empty".to_string()
                    } else if bundle == b"\n" {
                        "caBundle is `Cg==`: a lone newline, no certificate".to_string()
                    } else {
                        format!(
                            "caBundle is blank ({} byte(s) of whitespace, no certificate)",
                            bundle.len()
                        )
                    };
                    grouped
                        .entry((h.kind, h.config, CertProblem::Empty))
                        .or_default()
                        .push((h.clone(), what));
                    continue;
                }
                Ok(r) => r,
                Err(e) => {
                    grouped
                        .entry((h.kind, h.config, CertProblem::NotPem))
                        .or_default()
                        .push((h.clone(), format!("caBundle is not a PEM certificate: {e}")));
                    continue;
                }
            };
            let Some((secret_name, Ok(chain))) = serving_chain(s, ns) else {
                continue;
            };
            if !chain_verifies(&chain, &roots) {
                let held: Vec<String> = roots
                    .iter()
                    .map(|r| format!("`{}` (serial {})", r.subject, r.serial))
                    .collect();
                grouped.entry((h.kind, h.config, CertProblem::OtherCa)).or_default().push((
                    h.clone(),
                    format!(
                        "caBundle holds {}; the serving certificate in Secret {ns}/{secret_name} (serial {}) is issued by `{}`, and none of them signed it",
                        held.join(", "),
                        chain[0].serial,
                        chain[0].issuer
                    ),
                ));
            }
        }
        for ((kind, config, problem), hooks) in grouped {
            out.push(ca_finding(s, kind, config, problem, &hooks));
        }
        for (ns, hosts) in hosts {
            if let Some(f) = wrong_names(s, &ns, &hosts) {
                out.push(f);
            }
        }
        out
    }
}

fn ca_finding(
    s: &Snapshot,
    kind: &str,
    config: &str,
    problem: CertProblem,
    hooks: &[(Hook, String)],
) -> Finding {
    let first = &hooks[0].0;
    let ns = first.namespace().unwrap_or("");
    let closed = hooks.iter().any(|(h, _)| h.fails_closed());
    let title = match problem {
        CertProblem::Empty => format!(
            "{kind} {config} has no caBundle: the API server cannot verify the Flink webhook"
        ),
        CertProblem::NotPem => format!("{kind} {config} has a caBundle that is not a certificate"),
        CertProblem::OtherCa => format!(
            "{kind} {config} trusts another CA than the one that issued the webhook's certificate"
        ),
    };
    let mut f = Finding::new(&META, first.object(), title).severity(if closed {
        Severity::Critical
    } else {
        Severity::Warning
    });
    for (h, what) in hooks {
        f = f.evidence(format!("{} (webhooks[{}]): {what}", h.name, h.index));
    }
    let injector = first.inject_ca_from();
    if let Some((cns, cert)) = injector {
        f = f.evidence(format!(
            "annotation {}: {cns}/{cert}: cert-manager's cainjector should keep caBundle in step with that Certificate",
            install::INJECT_CA_FROM
        ));
    }
    f = f.evidence(format!(
        "the API server fails each call with `x509: certificate signed by unknown authority`; {}",
        first.consequence()
    ));
    let tls = tls_secret_name(s, ns);
    let ca_key = match secret(s, ns, &tls) {
        Some(sec) if secret_data(sec, "ca.crt").is_some_and(|b| !install::x509::is_blank(b)) => {
            "ca.crt"
        }
        _ => "tls.crt",
    };
    // The TLS Secret's name is a Certificate's spec.secretName or a volume's: a free value.
    let tls = sh(&tls);
    // Each line reads the CA itself: `--fix=run` and a person copying one line run each command
    // on its own, so a `CA=...` line before them would leave `$CA` empty in the patch.
    let ca = format!(
        "$(kubectl get secret {tls} -n {ns} -o jsonpath='{{.data.{}}}')",
        ca_key.replace('.', "\\.")
    );
    let by_hand = hooks
        .iter()
        .map(|(h, _)| {
            format!(
                "kubectl patch {} --type=json -p \"[{{\\\"op\\\":\\\"add\\\",\\\"path\\\":\\\"/webhooks/{}/clientConfig/caBundle\\\",\\\"value\\\":\\\"{ca}\\\"}}]\"",
                h.kubectl(),
                h.index
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let fix = match (injector, cert_manager_installed(s)) {
        (Some(_), Some(true)) => format!(
            "cert-manager's cainjector injects the CA from the Certificate; make sure it runs and let it re-inject:\n\n\
             kubectl get pods -n cert-manager -l app.kubernetes.io/component=cainjector\n\
             kubectl rollout restart deployment -n cert-manager -l app.kubernetes.io/component=cainjector\n\n\
             or set caBundle yourself from the TLS Secret:\n\n{by_hand}"
        ),
        _ => format!("Set caBundle to the CA that issued the webhook's certificate (from its TLS Secret):\n\n{by_hand}"),
    };
    f.fix(fix)
        .verify(format!(
            "kubectl get {} -o jsonpath='{{.webhooks[{}].clientConfig.caBundle}}' | base64 -d | openssl x509 -noout -subject   # expect the CA of Secret {ns}/{tls}",
            first.kubectl(),
            first.index
        ))
        .link(install::link(ns))
}

/// The serving certificate does not name the host the API server dials.
fn wrong_names(s: &Snapshot, ns: &str, hosts: &[String]) -> Option<Finding> {
    let (secret_name, chain) = serving_chain(s, ns)?;
    let chain = chain.ok()?;
    let leaf: &Cert = chain.first()?;
    let missing: Vec<&String> = hosts.iter().filter(|h| !leaf.covers(h)).collect();
    if missing.is_empty() {
        return None;
    }
    let legacy = !leaf.has_san
        && leaf
            .common_name
            .as_deref()
            .is_some_and(|cn| hosts.iter().any(|h| h == cn));
    let closed = flink_hooks(s)
        .iter()
        .any(|h| h.namespace() == Some(ns) && h.fails_closed());
    let list = missing
        .iter()
        .map(|h| h.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let f = Finding::new(
        &META,
        ObjectRef::namespaced("Secret", ns, &secret_name),
        if legacy {
            format!("the webhook's certificate names {list} only in its CN (legacy): the API server requires a subjectAltName")
        } else {
            format!("the webhook's certificate is not valid for {list}, the name the API server dials")
        },
    )
    .severity(if closed { Severity::Critical } else { Severity::Warning })
    .evidence(format!("Secret {ns}/{secret_name} tls.crt: {}", leaf.names()))
    .evidence(format!("Secret {ns}/{secret_name} tls.crt: {}", leaf.describe()))
    .evidence(format!(
        "the API server calls https://{}:443 and fails with `x509: certificate is valid for ..., not {}`",
        missing[0], missing[0]
    ));
    let op = install::operator_in(s, ns);
    let restart = format!(
        "kubectl rollout restart deployment/{} -n {ns}   # the webhook loads its keystore at start-up",
        op.as_ref().map(|o| o.name()).unwrap_or(install::CHART)
    );
    if let Some(reissue) = certificate_names(s, ns, &secret_name, &missing) {
        return Some(awaiting_reissue(
            f,
            ns,
            &secret_name,
            &missing,
            &reissue,
            &restart,
        ));
    }
    let names: Vec<String> = hosts
        .iter()
        .flat_map(|h| [h.clone(), format!("{h}.cluster.local")])
        .collect();
    let cert = install::certificate(s, ns)
        .and_then(|c| c.pointer("/metadata/name"))
        .and_then(|v| v.as_str())
        .map(str::to_string);
    let fix = match cert {
        Some(cert) => format!(
            "Give the Certificate the service's DNS names; cert-manager re-issues it:\n\n\
             kubectl patch certificate {cert} -n {ns} --type=merge -p {}\n\
             kubectl wait --for=condition=Ready certificate/{cert} -n {ns} --timeout=120s\n\
             {restart}",
            // The hosts come from the webhooks' service references: free values.
            json_arg(&nested(&["spec", "dnsNames"], serde_json::json!(names)))
        ),
        None => format!(
            "Issue a certificate with subjectAltName {} (cert-manager's Certificate from the chart does it:\n\
             {}), then\n{restart}",
            names.iter().map(|n| format!("DNS:{n}")).collect::<Vec<_>>().join(","),
            install::release_in(s, ns).upgrade("").lines().last().unwrap_or("")
        ),
    };
    Some(
        f.fix(fix)
            .verify(format!(
                "kubectl get secret {} -n {ns} -o jsonpath='{{.data.tls\\.crt}}' | base64 -d | openssl x509 -noout -ext subjectAltName   # expect DNS:{}",
                sh(&secret_name),
                escape_controls(missing[0])
            ))
            .link(install::link(ns)),
    )
}

/// The cert-manager Certificate that issues this Secret, when its `spec.dnsNames` name every host
/// the certificate in the Secret lacks: (its name, its dnsNames). cert-manager then issues the
/// Secret again on its own: a Certificate whose spec the issued certificate no longer matches is
/// re-issued (`CurrentCertificateRequestMismatchesSpec`, and `SecretMismatch` by the Secret's
/// alt names when the request is gone: cert-manager/cert-manager,
/// internal/controller/certificates/policies/checks.go). `None` when no such Certificate is in
/// the snapshot, or cert-manager reports that it failed to issue it.
fn certificate_names(
    s: &Snapshot,
    ns: &str,
    secret_name: &str,
    missing: &[&String],
) -> Option<(String, Vec<String>)> {
    let cert = s.cert_manager_objects.iter().find(|v| {
        v.get("kind").and_then(|k| k.as_str()) == Some("Certificate")
            && v.pointer("/metadata/namespace").and_then(|n| n.as_str()) == Some(ns)
            && v.pointer("/spec/secretName").and_then(|n| n.as_str()) == Some(secret_name)
    })?;
    let names: Vec<String> = cert
        .pointer("/spec/dnsNames")?
        .as_array()?
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect();
    let all = missing
        .iter()
        .all(|h| names.iter().any(|n| install::x509::name_covers(n, h)));
    // cert-manager tried and failed (an Issuer that cannot sign, a refused request): nothing
    // is on its way, the failure stands.
    let failed = cert.pointer("/status/lastFailureTime").is_some()
        || cert
            .pointer("/status/conditions")
            .and_then(|c| c.as_array())
            .is_some_and(|c| {
                c.iter().any(|c| {
                    c.get("reason").and_then(|r| r.as_str()) == Some("Failed")
                        && c.get("status").and_then(|r| r.as_str()) == Some("False")
                })
            });
    let name = cert.pointer("/metadata/name")?.as_str()?.to_string();
    (all && !failed).then_some((name, names))
}

/// The Certificate names the hosts now and the Secret predates it: info, and what still has to
/// happen (cert-manager issues the Secret again, then the webhook has to load it) with the
/// command to watch it, instead of the patch again.
fn awaiting_reissue(
    f: Finding,
    ns: &str,
    secret_name: &str,
    missing: &[&String],
    (cert, names): &(String, Vec<String>),
    restart: &str,
) -> Finding {
    let mut f = f.severity(Severity::Info).evidence(format!(
        "Certificate {ns}/{cert} spec.dnsNames: {}: the certificate in Secret {secret_name} predates it",
        names.join(", ")
    ));
    f.title = format!(
        "{}: fixed in Certificate {cert}; waiting for cert-manager to issue the Secret again",
        f.title
    );
    let restart = restart.split("   #").next().unwrap_or(restart);
    f.fix(format!(
        "Nothing more to change: Certificate {cert} names {} now. cert-manager issues Secret {secret_name}\n\
         again for it; the webhook reads its keystore only when it starts, so once the Secret holds the new\n\
         certificate, restart the operator (a restart before that keeps the old certificate):\n\n  \
         kubectl wait --for=condition=Ready certificate/{cert} -n {ns} --timeout=120s && {restart}\n\n\
         If the Certificate does not become Ready, cert-manager says why: kubectl describe certificate {cert} -n {ns}",
        missing
            .iter()
            .map(|h| h.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .verify(format!(
        "kubectl get secret {} -n {ns} -o jsonpath='{{.data.tls\\.crt}}' | base64 -d | openssl x509 -noout -ext subjectAltName   # expect DNS:{}",
        sh(secret_name),
        escape_controls(missing[0])
    ))
    .link(install::link(ns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{b64, good_certs, installation, load, HOST, NS};
    use crate::rules::support::install::x509::testing::{ca, leaf};
    use crate::rules::testing::run;

    #[test]
    fn silent_when_the_bundle_verifies_the_certificate() {
        let c = good_certs();
        let s = load(&installation(
            &c.tls_crt,
            &c.ca.pem,
            &b64(c.ca.pem.as_bytes()),
        ));
        assert!(run(&WebhookCertInvalid, &s).is_empty());
    }

    #[test]
    fn a_blank_ca_bundle() {
        let c = good_certs();
        for blank in ["Cg==", ""] {
            let f = run(
                &WebhookCertInvalid,
                &load(&installation(&c.tls_crt, &c.ca.pem, blank)),
            );
            assert_eq!(f.len(), 2, "one per configuration: {f:#?}");
            assert!(f.iter().all(|f| f.category == Category::WebhookCertInvalid));
            assert!(f[0].title.contains("has no caBundle"), "{}", f[0].title);
            assert!(
                f[0].fix.contains("jsonpath='{.data.ca\\.crt}'"),
                "{}",
                f[0].fix
            );
            assert!(f[0].fix.contains("/webhooks/0/clientConfig/caBundle"));
            assert!(f[0].evidence.iter().any(|e| e.contains("cainjector")));
        }
        let f = run(
            &WebhookCertInvalid,
            &load(&installation(&c.tls_crt, &c.ca.pem, "Cg==")),
        );
        assert!(
            f[0].evidence[0].contains("caBundle is `Cg==`: a lone newline"),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn a_ca_bundle_from_another_ca() {
        let c = good_certs();
        let other = ca("someone-else");
        let f = run(
            &WebhookCertInvalid,
            &load(&installation(
                &c.tls_crt,
                &c.ca.pem,
                &b64(other.pem.as_bytes()),
            )),
        );
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f[0].title.contains("trusts another CA"));
        assert!(
            f[0].evidence[0].contains("CN=someone-else"),
            "{:#?}",
            f[0].evidence
        );
        assert!(f[0].evidence[0].contains("CN=flink-operator-selfsigned"));
    }

    /// The installation with its Certificate naming the Service in namespace `default`.
    fn for_default(yaml: &str) -> String {
        let right = format!("dnsNames: [{HOST}, {HOST}.cluster.local]");
        assert!(yaml.contains(&right));
        yaml.replace(
            &right,
            "dnsNames: [flink-operator-webhook-service.default.svc]",
        )
    }

    #[test]
    fn a_certificate_for_the_wrong_name() {
        let c = good_certs();
        let wrong = leaf(
            &c.ca,
            &["flink-operator-webhook-service.default.svc"],
            (2025, 1, 1),
            (2030, 1, 1),
        );
        let f = run(
            &WebhookCertInvalid,
            &load(&for_default(&installation(
                &wrong,
                &c.ca.pem,
                &b64(c.ca.pem.as_bytes()),
            ))),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("Secret", NS, "webhook-server-cert")
        );
        assert!(f[0].title.contains(HOST));
        assert!(f[0].evidence[0].contains("DNS names flink-operator-webhook-service.default.svc"));
        assert!(f[0]
            .fix
            .contains("kubectl patch certificate flink-operator-serving-cert -n flink-operator"));

        let cn_only = leaf(&c.ca, &[], (2025, 1, 1), (2030, 1, 1));
        let f = run(
            &WebhookCertInvalid,
            &load(&for_default(&installation(
                &cn_only,
                &c.ca.pem,
                &b64(c.ca.pem.as_bytes()),
            ))),
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].evidence[0].contains("no subjectAltName"));
    }

    #[test]
    fn a_certificate_that_names_the_host_now_is_waiting_for_cert_manager() {
        // The Certificate was patched to the Service's name; the Secret still holds the
        // certificate issued for `default`.
        let c = good_certs();
        let wrong = leaf(
            &c.ca,
            &["flink-operator-webhook-service.default.svc"],
            (2025, 1, 1),
            (2030, 1, 1),
        );
        let y = installation(&wrong, &c.ca.pem, &b64(c.ca.pem.as_bytes()));
        let f = run(&WebhookCertInvalid, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(
            f[0].title.ends_with(
                "fixed in Certificate flink-operator-serving-cert; waiting for cert-manager to issue the Secret again"
            ),
            "{}",
            f[0].title
        );
        assert!(
            f[0].evidence.iter().any(|e| e.starts_with(&format!(
                "Certificate {NS}/flink-operator-serving-cert spec.dnsNames: {HOST}, "
            ))),
            "{:#?}",
            f[0].evidence
        );
        // Both sides of the difference, and no patch again; the restart waits for the Secret.
        assert!(f[0].evidence[0].contains("DNS names flink-operator-webhook-service.default.svc"));
        assert!(
            crate::finding::Remedy::from_fix(&f[0].fix).is_empty(),
            "{}",
            f[0].fix
        );
        assert!(f[0].fix.contains(
            "kubectl wait --for=condition=Ready certificate/flink-operator-serving-cert -n flink-operator --timeout=120s && kubectl rollout restart"
        ));
        assert!(f[0].verify.ends_with(&format!("# expect DNS:{HOST}")));

        // cert-manager failed to issue it: nothing is on its way.
        let failed = y.replace(
            "conditions: [{type: Ready, status: \"True\", reason: Ready, message: Certificate is up to date and has not expired}]",
            "conditions: [{type: Issuing, status: \"False\", reason: Failed, message: The certificate request has failed to complete}]\n  lastFailureTime: \"2026-11-20T09:10:00Z\"",
        );
        assert_ne!(failed, y);
        let f = run(&WebhookCertInvalid, &load(&failed));
        assert_eq!(f[0].severity, Severity::Critical, "{}", f[0].title);
    }
}

//! FLK010: the operator's webhook expects cert-manager (its configurations carry
//! `cert-manager.io/inject-ca-from`), but cert-manager is not installed, or the Certificate it
//! should issue (`flink-operator-serving-cert`) is missing or not Ready. The first link of the
//! webhook chain: without it there is no TLS Secret, the operator pod cannot mount its keystore,
//! no caBundle is injected, and the webhooks have no endpoint.

use super::support::install::{
    self, cert_manager_installed, cert_manager_object, flink_hooks, ready_condition, release_in,
};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::sh;
use crate::snapshot::{Index, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

pub struct CertManagerMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK010",
    name: "cert_manager_missing",
    summary: "the operator webhook needs cert-manager, and cert-manager (or its Certificate/Issuer) is absent or not ready",
    category: Category::CertManagerMissing,
    severity: Severity::Critical,
    explains: &["FLK003", "FLK011", "FLK012", "FLK013", "FLK014"],
    fix: r#"install cert-manager (CRDs, controller, cainjector, webhook) before the operator chart, or install the chart with `webhook.create=false`; then let the chart's Certificate and Issuer become Ready"#,
    verify: r#"kubectl get certificate -n <operator-namespace>   # expect READY True"#,
};

impl Rule for CertManagerMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        // The Certificates the webhooks expect, by namespace: ns -> (certificate, [configurations]).
        let mut expected: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
        for h in flink_hooks(s) {
            if let Some((ns, cert)) = h.inject_ca_from() {
                let e = expected
                    .entry(ns.to_string())
                    .or_insert_with(|| (cert.to_string(), Vec::new()));
                let cfg = format!("{} {}", h.kind, h.config);
                if !e.1.contains(&cfg) {
                    e.1.push(cfg);
                }
            }
        }
        let mut out = Vec::new();
        for (ns, (cert, configs)) in expected {
            let object = ObjectRef::namespaced("Certificate", &ns, &cert);
            let annotated = format!(
                "{} carr{} {}: {ns}/{cert}",
                configs.join(" and "),
                if configs.len() == 1 { "ies" } else { "y" },
                install::INJECT_CA_FROM
            );
            let release = release_in(s, &ns);
            let tls = install::tls_secret_name(s, &ns);
            let symptoms = symptoms(s, &ns, &tls);
            // The namespace and Certificate come from the webhooks' inject-ca-from annotation,
            // the Secret from the Certificate's spec: free values, each one shell word.
            let (qns, qcert, qtls) = (sh(&ns), sh(&cert), sh(&tls));
            match cert_manager_installed(s) {
                None => {}
                Some(false) => {
                    let mut f = Finding::new(
                        &META,
                        object,
                        format!("cert-manager is not installed, but the operator's webhook in {ns} needs it for its certificate"),
                    )
                    .evidence(annotated)
                    .evidence(format!(
                        "CustomResourceDefinition {}: not found (no cert-manager API)",
                        install::CERT_MANAGER_CRD
                    ));
                    for e in symptoms {
                        f = f.evidence(e);
                    }
                    out.push(
                        f.fix(if release.flavor == install::Flavor::FlinkCluster {
                            // Its release manifest (kustomize's config/default) has no switch for
                            // the webhook, whose Certificate and Issuer need cert-manager
                            // (spotify/flink-on-k8s-operator@v0.6.0: README.md, config/certmanager/).
                            format!(
                                "Install cert-manager (the operator needs 1.5.3 or later), then apply the operator's release manifest\n\
                                 again: it creates the Certificate `{cert}` and its Issuer, which cert-manager's API refused. From a\n\
                                 checkout of the operator instead (`make deploy`), run `make deploy IMG=<the same image>` again.\n\n\
                                 kubectl apply -f {}\n\
                                 kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=300s\n\
                                 {}",
                                install::CERT_MANAGER_MANIFEST,
                                release.upgrade("")
                            )
                        } else {
                            format!(
                                "Install cert-manager, then let the chart create its Certificate and Issuer again:\n\n\
                                 kubectl apply -f {}\n\
                                 kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=300s\n\
                                 {}\n\n\
                                 Or run the operator without its webhook (no validation or defaults at admission):\n\
                                 {}",
                                install::CERT_MANAGER_MANIFEST,
                                release.upgrade(""),
                                release.upgrade("--set webhook.create=false").lines().last().unwrap_or("")
                            )
                        })
                        .verify(format!(
                            "kubectl get certificate {qcert} -n {qns}   # expect READY True\nkubectl get secret {qtls} -n {qns}{}",
                            match install::operator_in(s, &ns).filter(|o| o.flavor == install::Flavor::FlinkCluster) {
                                // The manager mounts the Secret: it starts once the Secret is there.
                                Some(o) => format!("\nkubectl rollout status deployment/{} -n {qns} --timeout=120s", o.name()),
                                None => String::new(),
                            }
                        ))
                        .link(install::link(&ns)),
                    );
                }
                Some(true) => {
                    if install::unreadable(
                        s,
                        install::CERT_MANAGER_GROUP,
                        "certificates",
                        Some(&ns),
                    ) {
                        continue;
                    }
                    match cert_manager_object(s, "Certificate", &ns, &cert) {
                        None => {
                            let mut f = Finding::new(
                                &META,
                                object,
                                format!("the Certificate {ns}/{cert} that the operator's webhook needs does not exist"),
                            )
                            .evidence(annotated)
                            .evidence(format!("Certificate {ns}/{cert}: not found (cert-manager is installed)"));
                            for e in symptoms {
                                f = f.evidence(e);
                            }
                            out.push(
                                f.fix(format!(
                                    "Let the chart create the Certificate and its Issuer again:\n\n{}",
                                    release.upgrade("")
                                ))
                                .verify(format!("kubectl get certificate {qcert} -n {qns}   # expect READY True"))
                                .link(install::link(&ns)),
                            );
                        }
                        Some(c) => {
                            if let Some(f) = not_ready(s, c, &ns, &cert, &release, symptoms) {
                                out.push(f.evidence(annotated).link(install::link(&ns)));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// A Certificate that exists but is not Ready: its condition, and its Issuer's.
fn not_ready(
    s: &Snapshot,
    c: &Value,
    ns: &str,
    cert: &str,
    release: &install::Release,
    symptoms: Vec<String>,
) -> Option<Finding> {
    let cond = ready_condition(c);
    if cond.as_ref().is_some_and(|(status, _, _)| status == "True") {
        return None;
    }
    // A Certificate without conditions is one cert-manager never looked at; but a bundle may
    // strip status: only conclude when something downstream is broken too.
    if cond.is_none() && symptoms.is_empty() {
        return None;
    }
    let issuer_kind = c
        .pointer("/spec/issuerRef/kind")
        .and_then(Value::as_str)
        .unwrap_or("Issuer");
    let issuer_name = c
        .pointer("/spec/issuerRef/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let issuer = cert_manager_object(s, issuer_kind, ns, issuer_name);
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Certificate", ns, cert),
        format!("the Certificate {ns}/{cert} is not Ready: cert-manager has not issued the webhook's certificate"),
    )
    .evidence(match &cond {
        Some((status, reason, message)) => format!("Certificate {ns}/{cert}: Ready={status} ({reason}) {message}"),
        None => format!("Certificate {ns}/{cert}: no status conditions (cert-manager has not processed it: is its controller running?)"),
    });
    let fix = match issuer {
        None if !issuer_name.is_empty()
            && !install::unreadable(s, install::CERT_MANAGER_GROUP, "issuers", Some(ns)) =>
        {
            f = f.evidence(format!("{issuer_kind} {issuer_name}: not found"));
            format!(
                "The Certificate's {issuer_kind} `{issuer_name}` is missing; let the chart create it again:\n\n{}",
                release.upgrade("")
            )
        }
        other => {
            if let Some(i) = other {
                if let Some((status, reason, message)) = ready_condition(i) {
                    f = f.evidence(format!(
                        "{issuer_kind} {issuer_name}: Ready={status} ({reason}) {message}"
                    ));
                }
            }
            format!(
                "See why cert-manager does not issue it, and make sure its controller runs:\n\n\
                 kubectl describe certificate {cert} -n {ns}\n\
                 kubectl get certificaterequests -n {ns}\n\
                 kubectl get pods -n cert-manager\n\
                 kubectl rollout restart deployment -n cert-manager"
            )
        }
    };
    for e in symptoms {
        f = f.evidence(e);
    }
    Some(f.fix(fix).verify(format!(
        "kubectl wait --for=condition=Ready certificate/{cert} -n {ns} --timeout=120s"
    )))
}

/// What the missing certificate breaks further down, as evidence: the TLS Secret, FailedMount.
fn symptoms(s: &Snapshot, ns: &str, tls: &str) -> Vec<String> {
    let mut out = Vec::new();
    if install::secret(s, ns, tls).is_none() && !install::unreadable(s, "", "secrets", Some(ns)) {
        out.push(format!(
            "Secret {ns}/{tls} (the certificate cert-manager would write): not found"
        ));
    }
    for e in install::events_mentioning(s, ns, tls)
        .into_iter()
        .rev()
        .take(2)
    {
        out.push(install::event_line(e));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load, without, NS};
    use crate::rules::testing::run;

    fn no_cert_manager() -> String {
        let y = without(
            &healthy_yaml(),
            "CustomResourceDefinition",
            "certificates.cert-manager.io",
        );
        let y = without(&y, "Certificate", "flink-operator-serving-cert");
        let y = without(&y, "Issuer", "flink-operator-selfsigned-issuer");
        without(&y, "Secret", "webhook-server-cert")
    }

    #[test]
    fn fires_when_cert_manager_is_absent() {
        let f = run(&CertManagerMissing, &load(&no_cert_manager()));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::CertManagerMissing);
        assert!(f[0].evidence.iter().any(|e| e.contains(
            "cert-manager.io/inject-ca-from: flink-operator/flink-operator-serving-cert"
        )));
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("Secret flink-operator/webhook-server-cert")));
        assert!(f[0].fix.contains("cert-manager.yaml"));
        assert!(f[0].fix.contains("--set webhook.create=false"));
        assert_eq!(f[0].links, vec![install::link(NS)]);
    }

    #[test]
    fn fires_when_the_certificate_is_not_ready_or_missing() {
        let y = healthy_yaml().replace(
            "conditions: [{type: Ready, status: \"True\", reason: Ready, message: Certificate is up to date and has not expired}]",
            "conditions: [{type: Ready, status: \"False\", reason: DoesNotExist, message: Issuing certificate as Secret does not exist}]",
        );
        let f = run(&CertManagerMissing, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("not Ready"));
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("Ready=False (DoesNotExist)")));

        let y = without(
            &without(
                &healthy_yaml(),
                "Certificate",
                "flink-operator-serving-cert",
            ),
            "Issuer",
            "flink-operator-selfsigned-issuer",
        );
        let f = run(&CertManagerMissing, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("does not exist"));
    }

    #[test]
    fn the_flinkcluster_operator_s_fix_applies_its_release_manifest() {
        // spotify/flink-on-k8s-operator#112: `make deploy` without cert-manager; the manager's
        // webhooks carry inject-ca-from, and its Certificate, Issuer and Secret are missing.
        let y = install::testing::flinkcluster_yaml("--enable-leader-election")
            + "\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: flinkclusters.flinkoperator.k8s.io}\nspec: {group: flinkoperator.k8s.io, scope: Namespaced, names: {kind: FlinkCluster, plural: flinkclusters}, versions: [{name: v1beta1, served: true, storage: true}]}\n";
        let f = run(&CertManagerMissing, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("cert-manager is not installed"));
        assert_eq!(f[0].object.name, "flink-operator-serving-cert");
        assert!(f[0].fix.contains("cert-manager.yaml"));
        assert!(f[0].fix.contains("make deploy IMG="));
        assert!(f[0].fix.contains("kubectl apply -f https://github.com/spotify/flink-on-k8s-operator/releases/download/v0.6.0/flink-operator.yaml"), "{}", f[0].fix);
        assert!(!f[0].fix.contains("helm"), "{}", f[0].fix);
        assert!(f[0]
            .verify
            .contains("kubectl get secret webhook-server-cert -n flink-operator-system"));
        assert!(f[0].verify.contains("kubectl rollout status deployment/flink-operator-controller-manager -n flink-operator-system"), "{}", f[0].verify);
        assert_eq!(f[0].links, vec![install::link("flink-operator-system")]);
    }

    #[test]
    fn silent_when_healthy_or_when_the_webhook_does_not_use_cert_manager() {
        assert!(run(&CertManagerMissing, &load(&healthy_yaml())).is_empty());
        let y = no_cert_manager().replace("  annotations: {cert-manager.io/inject-ca-from: flink-operator/flink-operator-serving-cert}\n", "");
        assert!(run(&CertManagerMissing, &load(&y)).is_empty());
    }
}

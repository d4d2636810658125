//! FLK014: the Flink webhook's serving certificate (or the CA a webhook configuration trusts for
//! it) is expired or not yet valid, relative to the snapshot's capture time; a warning when it
//! expires within 14 days. The API server then fails every call with `x509: certificate has
//! expired or is not yet valid`. cert-manager renews on its own unless it is not running or its
//! Certificate is not Ready; the webhook reads its keystore at start-up.

use super::support::install::x509::{parse_pem, Cert};
use super::support::install::{self, cert_manager_installed, flink_hooks, serving_chain};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::shell::sh;
use crate::snapshot::{Index, Snapshot};
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeSet;

pub struct WebhookCertExpired;

static META: RuleMeta = RuleMeta {
    id: "FLK014",
    name: "webhook_cert_expired",
    summary: "the webhook's serving certificate is expired or not yet valid",
    category: Category::WebhookCertExpired,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"renew the serving certificate: with cert-manager, read why renewal failed (`kubectl describe certificate`) or delete its Secret so it is reissued; then restart the operator pod so it loads the new one"#,
    verify: r#"kubectl get secret <webhook-secret> -n <operator-namespace> -o jsonpath='{.data.tls\.crt}' | base64 -d | openssl x509 -noout -enddate -checkend 1209600   # expect: Certificate will not expire"#,
};

/// Warn this long before expiry.
const WARN_DAYS: i64 = 14;

enum Validity {
    Expired(Duration),
    NotYet(Duration),
    ExpiresSoon(Duration),
}

fn validity(c: &Cert, now: DateTime<Utc>) -> Option<Validity> {
    if now > c.not_after {
        Some(Validity::Expired(now - c.not_after))
    } else if now < c.not_before {
        Some(Validity::NotYet(c.not_before - now))
    } else if c.not_after - now < Duration::days(WARN_DAYS) {
        Some(Validity::ExpiresSoon(c.not_after - now))
    } else {
        None
    }
}

fn ago(d: Duration) -> String {
    if d.num_days() >= 2 {
        format!("{} days", d.num_days())
    } else {
        crate::flink::units::human_duration(d)
    }
}

impl Rule for WebhookCertExpired {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let now = s.captured_at;
        let mut out = Vec::new();
        let namespaces: BTreeSet<&str> = flink_hooks(s)
            .iter()
            .filter_map(|h| h.namespace())
            .collect();
        for ns in &namespaces {
            let Some((secret_name, Ok(chain))) = serving_chain(s, ns) else {
                continue;
            };
            let leaf = &chain[0];
            if let Some(v) = validity(leaf, now) {
                out.push(finding(
                    s,
                    ns,
                    &secret_name,
                    leaf,
                    v,
                    ObjectRef::namespaced("Secret", ns, &secret_name),
                    "the webhook's serving certificate",
                ));
            }
        }
        // A CA the configurations trust, when it is the one that signed the serving certificate.
        let mut seen = BTreeSet::new();
        for h in flink_hooks(s) {
            let Some(ns) = h.namespace() else { continue };
            let Some((secret_name, Ok(chain))) = serving_chain(s, ns) else {
                continue;
            };
            let bundle = h
                .client
                .ca_bundle
                .as_ref()
                .map(|b| b.0.as_slice())
                .unwrap_or(&[]);
            let Ok(roots) = parse_pem(bundle) else {
                continue;
            };
            for r in roots.iter().filter(|r| chain[0].signed_by(r)) {
                // A self-signed serving certificate is its own CA: reported above already.
                if r.serial == chain[0].serial && r.subject == chain[0].subject {
                    continue;
                }
                if let Some(v) = validity(r, now) {
                    if seen.insert((h.kind, h.config.to_string())) {
                        out.push(finding(
                            s,
                            ns,
                            &secret_name,
                            r,
                            v,
                            h.object(),
                            &format!("the CA that {} {} trusts", h.kind, h.config),
                        ));
                    }
                }
            }
        }
        out
    }
}

fn finding(
    s: &Snapshot,
    ns: &str,
    secret_name: &str,
    c: &Cert,
    v: Validity,
    object: ObjectRef,
    what: &str,
) -> Finding {
    let day = |t: DateTime<Utc>| t.format("%Y-%m-%d %H:%M UTC").to_string();
    let (title, severity) = match v {
        Validity::Expired(d) => (
            format!("{what} expired on {} ({} ago)", day(c.not_after), ago(d)),
            Severity::Critical,
        ),
        Validity::NotYet(d) => (
            format!(
                "{what} is not valid before {} (in {})",
                day(c.not_before),
                ago(d)
            ),
            Severity::Critical,
        ),
        Validity::ExpiresSoon(d) => (
            format!("{what} expires on {} (in {})", day(c.not_after), ago(d)),
            Severity::Warning,
        ),
    };
    let closed = flink_hooks(s)
        .iter()
        .any(|h| h.namespace() == Some(ns) && h.fails_closed());
    let severity = if severity == Severity::Critical && !closed {
        Severity::Warning
    } else {
        severity
    };
    let op = install::operator_in(s, ns);
    let deployment = op.as_ref().map(|o| o.name()).unwrap_or(install::CHART);
    let cert = install::certificate(s, ns)
        .and_then(|c| c.pointer("/metadata/name"))
        .and_then(|v| v.as_str())
        .map(str::to_string);
    let mut f = Finding::new(&META, object, title)
        .severity(severity)
        .evidence(format!("{}: {}", what, c.describe()))
        .evidence(format!("snapshot taken {}", day(s.captured_at)))
        .evidence("the API server fails webhook calls with `x509: certificate has expired or is not yet valid`");
    if let Some(cert) = &cert {
        if let Some(c) = install::certificate(s, ns) {
            if let Some((status, reason, message)) = install::ready_condition(c) {
                f = f.evidence(format!(
                    "Certificate {ns}/{cert}: Ready={status} ({reason}) {message}"
                ));
            }
            if let Some(t) = c.pointer("/status/renewalTime").and_then(|v| v.as_str()) {
                f = f.evidence(format!("Certificate {ns}/{cert}: renewalTime {t}"));
            }
        }
    }
    let secret_name = sh(secret_name);
    let fix = match (cert, cert_manager_installed(s)) {
        (Some(cert), Some(true)) => format!(
            "cert-manager renews it unless it is stuck; delete the Secret so it issues a new certificate (and CA), then\n\
             restart the operator so the webhook loads it:\n\n\
             kubectl describe certificate {cert} -n {ns}\n\
             kubectl delete secret {secret_name} -n {ns}\n\
             kubectl wait --for=condition=Ready certificate/{cert} -n {ns} --timeout=120s\n\
             kubectl rollout restart deployment/{deployment} -n {ns}"
        ),
        _ => format!(
            "Nothing renews this certificate. Install cert-manager and let the chart's Certificate manage it:\n\n\
             kubectl apply -f {}\n\
             kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=300s\n\
             {}\n\
             kubectl rollout restart deployment/{deployment} -n {ns}",
            install::CERT_MANAGER_MANIFEST,
            install::release_in(s, ns).upgrade("")
        ),
    };
    f.fix(fix)
        .verify(format!(
            "kubectl get secret {secret_name} -n {ns} -o jsonpath='{{.data.tls\\.crt}}' | base64 -d | openssl x509 -noout -enddate -checkend 1209600   # expect \"Certificate will not expire\""
        ))
        .link(install::link(ns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{b64, good_certs, installation, load, HOST, NS};
    use crate::rules::support::install::x509::testing::leaf;
    use crate::rules::testing::run;

    #[test]
    fn silent_for_a_certificate_valid_for_long() {
        let c = good_certs();
        assert!(run(
            &WebhookCertExpired,
            &load(&installation(
                &c.tls_crt,
                &c.ca.pem,
                &b64(c.ca.pem.as_bytes())
            ))
        )
        .is_empty());
    }

    #[test]
    fn an_expired_certificate() {
        let c = good_certs();
        let old = leaf(&c.ca, &[HOST], (2025, 1, 1), (2026, 1, 1));
        let f = run(
            &WebhookCertExpired,
            &load(&installation(&old, &c.ca.pem, &b64(c.ca.pem.as_bytes()))),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::WebhookCertExpired);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("Secret", NS, "webhook-server-cert")
        );
        assert!(
            f[0].title.contains("expired on 2026-01-01"),
            "{}",
            f[0].title
        );
        assert!(f[0].title.contains("323 days ago"), "{}", f[0].title);
        assert!(f[0]
            .fix
            .contains("kubectl delete secret webhook-server-cert -n flink-operator"));
    }

    #[test]
    fn expiring_soon_is_a_warning_and_not_yet_valid_is_critical() {
        let c = good_certs();
        // The snapshot is taken 2026-11-20 10:00 UTC.
        let soon = leaf(&c.ca, &[HOST], (2025, 1, 1), (2026, 11, 30));
        let f = run(
            &WebhookCertExpired,
            &load(&installation(&soon, &c.ca.pem, &b64(c.ca.pem.as_bytes()))),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].title.contains("expires on 2026-11-30"));
        let future = leaf(&c.ca, &[HOST], (2026, 12, 25), (2030, 1, 1));
        let f = run(
            &WebhookCertExpired,
            &load(&installation(&future, &c.ca.pem, &b64(c.ca.pem.as_bytes()))),
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].title.contains("not valid before"));
    }
}

//! FLK011: a Secret the operator's webhook needs does not exist: the TLS Secret with its keystore
//! (`webhook-server-cert`, written by cert-manager, mounted by the operator pod as a non-optional
//! volume, so the whole pod stays ContainerCreating with `FailedMount ... secret
//! "webhook-server-cert" not found`), or the keystore password Secret
//! (`flink-operator-webhook-secret`, or the chart's `webhook.keystore.passwordSecretRef`), without
//! which the webhook container cannot be created and cert-manager cannot write the keystore.
//!
//! The FlinkCluster operator mounts the same Secret name (`webhook-server-cert`, its Certificate
//! `flink-operator-serving-cert`) as volume `cert` at /tmp/k8s-webhook-server/serving-certs
//! (spotify/flink-on-k8s-operator@v0.6.0:config/default/manager_webhook_patch.yaml); it has no
//! password Secret.

use super::support::install::{
    self, cert_manager_installed, certificate, operators, pod_name, release_in, secret, unreadable,
    Flavor, Operator,
};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::install::flinkcluster as fc;
use crate::shell::sh;
use crate::snapshot::{Index, Snapshot};
use serde_json::Value;

pub struct WebhookSecretMissing;

static META: RuleMeta = RuleMeta {
    id: "FLK011",
    name: "webhook_secret_missing",
    summary: "the Secret holding the webhook's TLS certificate or keystore password is missing",
    category: Category::WebhookSecretMissing,
    severity: Severity::Critical,
    explains: &["FLK003", "FLK012", "FLK013"],
    fix: r#"recreate the Secret: with cert-manager, let the chart's Certificate reissue it (`helm upgrade` the operator chart, or delete the Certificate's Secret); then restart the operator pod so it loads it"#,
    verify: r#"kubectl get secret -n <operator-namespace> && kubectl get pods -n <operator-namespace>   # expect the webhook Secret listed and the operator pod Running"#,
};

impl Rule for WebhookSecretMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        if !s.install_checked {
            return Vec::new();
        }
        let mut out = Vec::new();
        for op in operators(s) {
            let ns = op.namespace;
            // The Secrets matter only where the webhook runs; and absence proves nothing when
            // Secrets could not be read.
            if !op.webhook_enabled() || unreadable(s, "", "secrets", Some(ns)) {
                continue;
            }
            let cert = certificate(s, ns);
            let tls = install::tls_secret_name(s, ns);
            if secret(s, ns, &tls).is_none() {
                out.push(tls_missing(s, &op, &tls, cert));
            }
            let password = op
                .password_secret()
                .map(|(n, k)| (n.to_string(), k.to_string()))
                .or_else(|| {
                    let r = cert?.pointer("/spec/keystores/pkcs12/passwordSecretRef")?;
                    Some((
                        r.get("name")?.as_str()?.to_string(),
                        r.get("key")
                            .and_then(Value::as_str)
                            .unwrap_or("password")
                            .to_string(),
                    ))
                });
            if let Some((name, key)) = password {
                if secret(s, ns, &name).is_none() {
                    out.push(password_missing(s, &op, &name, &key));
                }
            }
        }
        out
    }
}

fn pods_evidence(f: Finding, s: &Snapshot, op: &Operator, secret_name: &str) -> Finding {
    let mut f = f;
    for p in &op.pods {
        for t in install::pod_troubles(p) {
            if matches!(
                t.kind,
                install::Trouble::Creating | install::Trouble::ConfigError
            ) {
                let c = if t.container.is_empty() {
                    String::new()
                } else {
                    format!("/{}", t.container)
                };
                f = f.evidence(format!("pod {}{c}: {}", pod_name(p), t.detail));
                if !t.container.is_empty() {
                    f = f.link(link::container(op.namespace, pod_name(p), &t.container));
                }
            }
        }
    }
    for e in install::events_mentioning(s, op.namespace, &format!("\"{secret_name}\""))
        .into_iter()
        .rev()
        .take(3)
    {
        f = f.evidence(install::event_line(e));
    }
    f
}

fn tls_missing(s: &Snapshot, op: &Operator, tls: &str, cert: Option<&Value>) -> Finding {
    let ns = op.namespace;
    let release = release_in(s, ns);
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Secret", ns, tls),
        format!("the webhook's TLS Secret {ns}/{tls} does not exist: the operator pod cannot mount its keystore"),
    )
    .evidence(format!("Secret {ns}/{tls}: not found"))
    .evidence(format!(
        "Deployment {ns}/{} mounts it as volume `{}` (not optional), so no container of the pod starts",
        op.name(),
        match op.flavor {
            Flavor::Apache => "keystore",
            Flavor::FlinkCluster | Flavor::Lyft => fc::CERT_VOLUME,
        }
    ));
    f = pods_evidence(f, s, op, tls);
    let cert_name = cert
        .and_then(|c| c.pointer("/metadata/name"))
        .and_then(Value::as_str)
        .unwrap_or(install::CERTIFICATE)
        .to_string();
    let fix = match (cert_manager_installed(s), cert) {
        (Some(true), None) if op.flavor == Flavor::FlinkCluster => format!(
            "cert-manager is installed but the operator's Certificate {ns}/{} is gone; its release manifest makes it\n\
             (with its Issuer), and cert-manager then writes this Secret:\n\n{}",
            fc::CERTIFICATE,
            release.upgrade("")
        ),
        (None | Some(false), _) if op.flavor == Flavor::FlinkCluster => format!(
            "The operator relies on cert-manager to write this Secret (see the cert_manager_missing finding):\n\n\
             kubectl apply -f {}\n\
             kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=300s\n\
             {}   # its Certificate and Issuer",
            install::CERT_MANAGER_MANIFEST,
            release.upgrade("")
        ),
        (Some(true), Some(_)) => format!(
            "cert-manager writes this Secret for Certificate {ns}/{cert_name} and re-issues it within seconds when it is\n\
             deleted; if it has not, its controller is not running or the Certificate is stuck:\n\n\
             kubectl get pods -n cert-manager\n\
             kubectl rollout restart deployment -n cert-manager\n\
             kubectl describe certificate {cert_name} -n {ns}\n\
             kubectl wait --for=condition=Ready certificate/{cert_name} -n {ns} --timeout=120s\n\n\
             The pod mounts the Secret as soon as it exists (or: kubectl rollout restart deployment/{} -n {ns})",
            op.name()
        ),
        (Some(true), None) => format!(
            "cert-manager is installed but the chart's Certificate is gone; let the chart create it again:\n\n{}",
            release.upgrade("")
        ),
        _ => format!(
            "The chart relies on cert-manager to write this Secret (see the cert_manager_missing finding):\n\n\
             kubectl apply -f {}\n\
             kubectl wait --for=condition=Available deployment --all -n cert-manager --timeout=300s\n\
             {}\n\n\
             Or run the operator without its webhook: {}",
            install::CERT_MANAGER_MANIFEST,
            release.upgrade(""),
            release.upgrade("--set webhook.create=false").lines().last().unwrap_or("")
        ),
    };
    // The Secret's name is the pod spec's (a volume's secretName): a free value.
    let tls = sh(tls);
    f.fix(fix)
        .verify(format!(
            "kubectl get secret {tls} -n {ns} && kubectl get pods -n {ns} -l {}   # expect {} Running",
            op.selector(),
            match op.flavor {
                Flavor::Apache => "2/2",
                Flavor::FlinkCluster | Flavor::Lyft => "all containers ready,",
            }
        ))
        .link(install::link(ns))
}

fn password_missing(s: &Snapshot, op: &Operator, name: &str, key: &str) -> Finding {
    let ns = op.namespace;
    let release = release_in(s, ns);
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Secret", ns, name),
        format!("the webhook's keystore password Secret {ns}/{name} does not exist"),
    )
    .evidence(format!("Secret {ns}/{name}: not found"))
    .evidence(format!(
        "container {} reads WEBHOOK_KEYSTORE_PASSWORD from it (key `{key}`); cert-manager encrypts the keystore with it",
        install::WEBHOOK_CONTAINER
    ));
    f = pods_evidence(f, s, op, name);
    // The Secret's name and key come from the container's env (secretKeyRef), the TLS Secret's
    // from a Certificate or volume: free values, each one shell word.
    let tls_secret = install::tls_secret_name(s, ns);
    let tls_secret = sh(&tls_secret);
    let (name_w, key_w) = (sh(name), sh(key));
    let fix = if name == install::PASSWORD_SECRET {
        format!(
            "The chart creates this Secret when `webhook.keystore.useDefaultPassword` is true (its default):\n\n{}\n\n\
             Then let cert-manager rebuild the keystore with it: kubectl delete secret {tls_secret} -n {ns}",
            release.upgrade("--set webhook.keystore.useDefaultPassword=true"),
        )
    } else {
        format!(
            "Create the Secret the chart's `webhook.keystore.passwordSecretRef` names, with a password of your choice:\n\n\
             kubectl create secret generic {name_w} -n {ns} --from-literal={key_w}=\"$(openssl rand -base64 24)\"\n\
             kubectl delete secret {tls_secret} -n {ns}   # cert-manager rebuilds the keystore with the new password\n\
             kubectl rollout restart deployment/{} -n {ns}",
            op.name()
        )
    };
    f.fix(fix)
        .verify(format!(
            "kubectl get secret {name_w} -n {ns} && kubectl get pods -n {ns} -l {}   # expect 2/2 Running",
            op.selector()
        ))
        .link(install::link(ns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::support::install::testing::{healthy_yaml, load, without, NS};
    use crate::rules::testing::run;
    use crate::snapshot::{Gap, GapReason};

    const FAILED_MOUNT: &str = r#"
---
apiVersion: v1
kind: Event
metadata: {name: op.1, namespace: flink-operator}
involvedObject: {kind: Pod, namespace: flink-operator, name: flink-kubernetes-operator-7d9c6b5f4-abcde}
reason: FailedMount
type: Warning
message: 'MountVolume.SetUp failed for volume "keystore" : secret "webhook-server-cert" not found'
count: 12
lastTimestamp: "2026-11-20T09:59:00Z"
"#;

    #[test]
    fn fires_when_the_tls_secret_is_missing() {
        let y = without(&healthy_yaml(), "Secret", "webhook-server-cert") + FAILED_MOUNT;
        let f = run(&WebhookSecretMissing, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].category, Category::WebhookSecretMissing);
        assert_eq!(
            f[0].object,
            ObjectRef::namespaced("Secret", NS, "webhook-server-cert")
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("secret \"webhook-server-cert\" not found")),
            "{:#?}",
            f[0].evidence
        );
        assert!(f[0].fix.contains(
            "kubectl describe certificate flink-operator-serving-cert -n flink-operator"
        ));
        assert!(f[0].fix.contains("kubectl get pods -n cert-manager"));
    }

    #[test]
    fn fires_when_the_password_secret_is_missing() {
        let y = without(&healthy_yaml(), "Secret", "flink-operator-webhook-secret");
        let f = run(&WebhookSecretMissing, &load(&y));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].title.contains("keystore password"));
        assert!(f[0]
            .fix
            .contains("--set webhook.keystore.useDefaultPassword=true"));
    }

    #[test]
    fn silent_when_present_or_unreadable() {
        assert!(run(&WebhookSecretMissing, &load(&healthy_yaml())).is_empty());
        let mut s = load(&without(&healthy_yaml(), "Secret", "webhook-server-cert"));
        s.gaps.push(Gap {
            verb: "get".into(),
            group: String::new(),
            resource: "secrets".into(),
            namespace: Some(NS.into()),
            reason: GapReason::Forbidden,
            message: "forbidden".into(),
        });
        assert!(run(&WebhookSecretMissing, &s).is_empty());
    }
}

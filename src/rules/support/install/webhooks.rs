//! The operator's admission webhooks: their configurations and the Service chain behind them.

use super::*;

/// One webhook of a Validating/MutatingWebhookConfiguration that serves Flink resources.
#[derive(Debug, Clone)]
pub struct Hook<'a> {
    pub kind: &'static str,
    pub config: &'a str,
    pub annotations: Option<&'a BTreeMap<String, String>>,
    pub name: &'a str,
    /// Its position in `webhooks`, for JSON patches.
    pub index: usize,
    pub client: &'a WebhookClientConfig,
    pub failure_policy: &'a str,
}

fn serves_flink(name: &str, rules: Option<&Vec<RuleWithOperations>>) -> bool {
    name.ends_with(".flink.apache.org")
        || rules
            .into_iter()
            .flatten()
            .any(|r| r.api_groups.iter().flatten().any(|g| g == GROUP))
}

/// The webhooks that serve `flink.apache.org` resources, validating first.
pub fn flink_hooks(s: &Snapshot) -> Vec<Hook<'_>> {
    let mut out = Vec::new();
    for c in &s.validating_webhooks {
        for (i, w) in c.webhooks.iter().flatten().enumerate() {
            if serves_flink(&w.name, w.rules.as_ref()) {
                out.push(Hook {
                    kind: VALIDATING,
                    config: c.metadata.name.as_deref().unwrap_or(""),
                    annotations: c.metadata.annotations.as_ref(),
                    name: &w.name,
                    index: i,
                    client: &w.client_config,
                    failure_policy: w.failure_policy.as_deref().unwrap_or("Fail"),
                });
            }
        }
    }
    for c in &s.mutating_webhooks {
        for (i, w) in c.webhooks.iter().flatten().enumerate() {
            if serves_flink(&w.name, w.rules.as_ref()) {
                out.push(Hook {
                    kind: MUTATING,
                    config: c.metadata.name.as_deref().unwrap_or(""),
                    annotations: c.metadata.annotations.as_ref(),
                    name: &w.name,
                    index: i,
                    client: &w.client_config,
                    failure_policy: w.failure_policy.as_deref().unwrap_or("Fail"),
                });
            }
        }
    }
    out
}

impl<'a> Hook<'a> {
    pub fn service(&self) -> Option<&'a ServiceReference> {
        self.client.service.as_ref()
    }
    /// The namespace of the Service it calls (the operator's, for the chart).
    pub fn namespace(&self) -> Option<&'a str> {
        self.service().map(|s| s.namespace.as_str())
    }
    pub fn port(&self) -> i32 {
        self.service().and_then(|s| s.port).unwrap_or(443)
    }
    pub fn path(&self) -> &'a str {
        self.service()
            .and_then(|s| s.path.as_deref())
            .unwrap_or("/")
    }
    /// The path the operator's webhook server answers this kind of webhook on.
    pub fn expected_path(&self) -> &'static str {
        if self.kind == MUTATING {
            "/mutate"
        } else {
            "/validate"
        }
    }
    pub fn fails_closed(&self) -> bool {
        self.failure_policy != "Ignore"
    }
    /// `cert-manager.io/inject-ca-from: <ns>/<certificate>`.
    pub fn inject_ca_from(&self) -> Option<(&'a str, &'a str)> {
        self.annotations?.get(INJECT_CA_FROM)?.split_once('/')
    }
    /// The DNS name the API server dials and checks the certificate against.
    pub fn host(&self) -> Option<String> {
        self.service()
            .map(|s| format!("{}.{}.svc", s.name, s.namespace))
    }
    pub fn object(&self) -> crate::finding::ObjectRef {
        crate::finding::ObjectRef::new(self.kind, None, self.config)
    }
    /// `validatingwebhookconfiguration/NAME`, as kubectl takes it.
    pub fn kubectl(&self) -> String {
        format!("{} {}", self.kind.to_ascii_lowercase(), self.config)
    }
    /// What the API server does to Flink resources while this webhook cannot be called.
    pub fn consequence(&self) -> String {
        if self.fails_closed() {
            format!(
                "failurePolicy Fail: the API server rejects CREATE/UPDATE of Flink resources with `failed calling webhook \"{}\"`",
                self.name
            )
        } else {
            format!(
                "failurePolicy Ignore: the API server skips {} and admits Flink resources {}",
                self.name,
                if self.kind == MUTATING {
                    "without the operator's defaults"
                } else {
                    "unvalidated"
                }
            )
        }
    }
}

pub fn operator_in<'a>(s: &'a Snapshot, ns: &str) -> Option<Operator<'a>> {
    operators(s).into_iter().find(|o| o.namespace == ns)
}

/// The Helm release for the installation in `ns` (its operator's, else the chart default).
pub fn release_in(s: &Snapshot, ns: &str) -> Release {
    match operator_in(s, ns) {
        Some(o) => o.release(),
        None => Release {
            name: CHART.to_string(),
            namespace: ns.to_string(),
            version: None,
        },
    }
}

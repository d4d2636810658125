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
    /// The operator it belongs to.
    pub flavor: Flavor,
}

use crate::flink::install::flinkcluster as fc;
use crate::flink::install::{serves_apache, serves_flinkcluster};

fn hook_flavor(name: &str, rules: Option<&Vec<RuleWithOperations>>) -> Option<Flavor> {
    if serves_apache(name, rules) {
        Some(Flavor::Apache)
    } else if serves_flinkcluster(name, rules) {
        Some(Flavor::FlinkCluster)
    } else {
        None
    }
}

/// The webhooks that serve `flink.apache.org` resources, validating first.
pub fn flink_hooks(s: &Snapshot) -> Vec<Hook<'_>> {
    let mut out = Vec::new();
    for c in &s.validating_webhooks {
        let webhooks = c.webhooks.iter().flatten().enumerate();
        out.extend(webhooks.filter_map(|(i, w)| {
            let policy = w.failure_policy.as_deref();
            let parts = (&w.name, w.rules.as_ref(), &w.client_config, policy);
            hook(VALIDATING, &c.metadata, i, parts)
        }));
    }
    for c in &s.mutating_webhooks {
        let webhooks = c.webhooks.iter().flatten().enumerate();
        out.extend(webhooks.filter_map(|(i, w)| {
            let policy = w.failure_policy.as_deref();
            let parts = (&w.name, w.rules.as_ref(), &w.client_config, policy);
            hook(MUTATING, &c.metadata, i, parts)
        }));
    }
    out
}

/// The parts a validating and a mutating webhook share: name, rules, client, failure policy.
type HookParts<'a> = (
    &'a String,
    Option<&'a Vec<RuleWithOperations>>,
    &'a WebhookClientConfig,
    Option<&'a str>,
);

/// The `index`th webhook of configuration `config`, when it serves a Flink operator's resources.
fn hook<'a>(
    kind: &'static str,
    config: &'a ObjectMeta,
    index: usize,
    (name, rules, client, failure_policy): HookParts<'a>,
) -> Option<Hook<'a>> {
    Some(Hook {
        flavor: hook_flavor(name, rules)?,
        kind,
        config: config.name.as_deref().unwrap_or(""),
        annotations: config.annotations.as_ref(),
        name,
        index,
        client,
        failure_policy: failure_policy.unwrap_or("Fail"),
    })
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
        match (self.flavor, self.kind == MUTATING) {
            (Flavor::Apache, true) => "/mutate",
            (Flavor::Apache, false) => "/validate",
            (Flavor::FlinkCluster, true) => fc::MUTATE_PATH,
            (Flavor::FlinkCluster, false) => fc::VALIDATE_PATH,
            (Flavor::Lyft, _) => "/",
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
/// Without an operator there, the webhooks that call a Service in `ns` say which operator it was.
pub fn release_in(s: &Snapshot, ns: &str) -> Release {
    match operator_in(s, ns) {
        Some(o) => o.release(),
        None => Release {
            name: CHART.to_string(),
            namespace: ns.to_string(),
            version: None,
            flavor: flavor_in(s, ns),
        },
    }
}

/// Which operator is installed in `ns`: its Deployment's, else its webhooks'.
pub fn flavor_in(s: &Snapshot, ns: &str) -> Flavor {
    if let Some(o) = operator_in(s, ns) {
        return o.flavor;
    }
    flink_hooks(s)
        .iter()
        .find(|h| h.namespace() == Some(ns))
        .map(|h| h.flavor)
        .unwrap_or(Flavor::Apache)
}

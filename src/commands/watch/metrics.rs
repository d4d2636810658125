//! `watch`'s Prometheus metrics (prometheus-client), drawn from the latest diagnosis.
//!
//! Label cardinality is bounded by what the cluster holds, never by time or by text:
//! - `kubectl_flink_findings`: one series per (namespace, deployment, rule) that fires now, with
//!   its category and severity (fixed by the rule); series of cleared findings are removed.
//!   `deployment` is "" for findings about no Flink deployment (the operator's installation).
//! - `kubectl_flink_deployment_healthy`: one series per Flink deployment (namespace, name, kind,
//!   mode).
//! - `kubectl_flink_api_errors_total`: resource (the kinds the watch reads, and `events`) x reason
//!   (forbidden, not_installed, timeout, error).
//! - `kubectl_flink_relists_total`: resource (the kinds the watch reads): lists after the first,
//!   each after a 410 Gone.
//! - `kubectl_flink_gaps`: what the last diagnosis could not read, by resource and reason (a
//!   resource, never an object's name).
//! - the rest have no labels, or a fixed pair (`kubectl_flink_events_posted_total`).

use super::State;
use crate::snapshot::GapReason;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FindingLabels {
    namespace: String,
    deployment: String,
    category: String,
    severity: String,
    rule: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DeploymentLabels {
    namespace: String,
    deployment: String,
    kind: String,
    mode: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResourceLabels {
    resource: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    resource: String,
    reason: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EventLabels {
    transition: String,
}

pub struct Metrics {
    registry: Registry,
    /// Held while the families are redrawn and while they are encoded: a scrape never sees half
    /// a diagnosis.
    drawing: Mutex<()>,
    findings: Family<FindingLabels, Gauge>,
    healthy: Family<DeploymentLabels, Gauge>,
    api_errors: Family<ErrorLabels, Counter>,
    relists: Family<ResourceLabels, Counter>,
    gaps: Family<ErrorLabels, Gauge>,
    last: Gauge<f64, AtomicU64>,
    duration: Histogram,
    diagnoses: Counter,
    objects: Gauge,
    events: Family<EventLabels, Counter>,
}

pub fn reason_label(r: GapReason) -> &'static str {
    match r {
        GapReason::Forbidden => "forbidden",
        GapReason::NotInstalled => "not_installed",
        GapReason::Timeout => "timeout",
        GapReason::Error => "error",
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let m = Metrics {
            findings: Family::default(),
            healthy: Family::default(),
            api_errors: Family::default(),
            relists: Family::default(),
            gaps: Family::default(),
            last: Gauge::default(),
            // 5 ms to about 40 s.
            duration: Histogram::new(exponential_buckets(0.005, 2.0, 14)),
            diagnoses: Counter::default(),
            objects: Gauge::default(),
            events: Family::default(),
            drawing: Mutex::new(()),
            registry: Registry::default(),
        };
        registry.register(
            "kubectl_flink_findings",
            "Findings of the latest diagnosis (a finding over several pods counts each)",
            m.findings.clone(),
        );
        registry.register(
            "kubectl_flink_deployment_healthy",
            "1 when a Flink deployment has no critical or warning finding, else 0",
            m.healthy.clone(),
        );
        registry.register(
            "kubectl_flink_api_errors",
            "Failed lists, watches and writes of the API server, refusals (forbidden) included",
            m.api_errors.clone(),
        );
        registry.register(
            "kubectl_flink_relists",
            "Lists after the first, each after the API server answered 410 Gone (an expired resourceVersion)",
            m.relists.clone(),
        );
        registry.register(
            "kubectl_flink_gaps",
            "What the latest diagnosis could not read",
            m.gaps.clone(),
        );
        registry.register(
            "kubectl_flink_last_diagnosis_timestamp_seconds",
            "When the latest diagnosis read the cluster (Unix time)",
            m.last.clone(),
        );
        registry.register(
            "kubectl_flink_diagnosis_duration_seconds",
            "How long a diagnosis took, from the stores to the metrics",
            m.duration.clone(),
        );
        registry.register(
            "kubectl_flink_diagnoses",
            "Diagnoses made",
            m.diagnoses.clone(),
        );
        registry.register(
            "kubectl_flink_watched_objects",
            "Objects the watches hold",
            m.objects.clone(),
        );
        registry.register(
            "kubectl_flink_events_posted",
            "Kubernetes Events posted (--post-events), by transition",
            m.events.clone(),
        );
        Metrics { registry, ..m }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ()> {
        self.drawing.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Redraws the metrics from the state after a diagnosis.
    pub fn update(&self, state: &State, objects: usize, took: Duration) {
        let _drawing = self.lock();
        self.findings.clear();
        let mut counts: HashMap<FindingLabels, i64> = HashMap::new();
        for f in &state.report.findings {
            let labels = FindingLabels {
                namespace: super::namespace_of(f).to_string(),
                deployment: f
                    .deployment
                    .as_ref()
                    .map(|d| d.name.clone())
                    .unwrap_or_default(),
                category: f.category.id().to_string(),
                severity: f.severity.as_str().to_string(),
                rule: f.rule.to_string(),
            };
            *counts.entry(labels).or_default() += f.count.max(1) as i64;
        }
        for (labels, n) in counts {
            self.findings.get_or_create(&labels).set(n);
        }
        self.healthy.clear();
        for l in &state.lines {
            self.healthy
                .get_or_create(&DeploymentLabels {
                    namespace: l.namespace.clone(),
                    deployment: l.name.clone(),
                    kind: l.kind.clone(),
                    mode: l.mode.to_string(),
                })
                .set(i64::from(l.healthy()));
        }
        self.gaps.clear();
        for g in &state.gaps {
            // A decode gap names its object (`FlinkDeployment/x`): its kind only.
            let resource = g.resource.split('/').next().unwrap_or_default().to_string();
            self.gaps
                .get_or_create(&ErrorLabels {
                    resource,
                    reason: reason_label(g.reason).to_string(),
                })
                .inc();
        }
        if let Some(at) = state.diagnosed {
            self.last.set(at.timestamp_millis() as f64 / 1000.0);
        }
        self.duration.observe(took.as_secs_f64());
        self.diagnoses.inc();
        self.objects.set(objects as i64);
    }

    pub fn api_error(&self, resource: &str, reason: GapReason) {
        self.api_errors
            .get_or_create(&ErrorLabels {
                resource: resource.to_string(),
                reason: reason_label(reason).to_string(),
            })
            .inc();
    }

    pub fn relisted(&self, resource: &str) {
        self.relists
            .get_or_create(&ResourceLabels {
                resource: resource.to_string(),
            })
            .inc();
    }

    pub fn event_posted(&self, appeared: bool) {
        self.events
            .get_or_create(&EventLabels {
                transition: if appeared { "appeared" } else { "cleared" }.into(),
            })
            .inc();
    }

    /// The text exposition format.
    pub fn encode(&self) -> String {
        let _drawing = self.lock();
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

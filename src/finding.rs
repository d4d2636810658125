//! What a diagnosis is made of: findings, their taxonomy category, layer and severity.
//! The category ids are a public contract (../shared/taxonomy.md): never rename or reuse one.

use serde::Serialize;
use std::fmt;

/// The layers of ../shared/taxonomy.md, in causal order: an earlier layer explains later ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Access,
    Install,
    Spec,
    Schedule,
    Runtime,
    Identity,
    Cluster,
    Job,
    Exposure,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Access => "access",
            Layer::Install => "install",
            Layer::Spec => "spec",
            Layer::Schedule => "schedule",
            Layer::Runtime => "runtime",
            Layer::Identity => "identity",
            Layer::Cluster => "cluster",
            Layer::Job => "job",
            Layer::Exposure => "exposure",
        }
    }
}

macro_rules! categories {
    ($( $variant:ident => $id:literal, $layer:ident, $symptom:literal; )*) => {
        /// One root-cause category of ../shared/taxonomy.md.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Category { $( $variant, )* }

        impl Category {
            pub const ALL: &'static [Category] = &[ $( Category::$variant, )* ];
            pub fn id(self) -> &'static str { match self { $( Category::$variant => $id, )* } }
            pub fn layer(self) -> Layer { match self { $( Category::$variant => Layer::$layer, )* } }
            /// Taxonomy marks these as effects whose cause should be looked for elsewhere.
            pub fn is_symptom(self) -> bool { match self { $( Category::$variant => $symptom, )* } }
            pub fn from_id(id: &str) -> Option<Category> {
                match id { $( $id => Some(Category::$variant), )* _ => None }
            }
        }
    };
}

categories! {
    InspectForbidden => "inspect_forbidden", Access, false;
    CrdMissing => "crd_missing", Install, false;
    CrdVersionMismatch => "crd_version_mismatch", Install, false;
    OperatorNotRunning => "operator_not_running", Install, false;
    OperatorNotWatchingNamespace => "operator_not_watching_namespace", Install, false;
    OperatorRbacMissing => "operator_rbac_missing", Install, false;
    CertManagerMissing => "cert_manager_missing", Install, false;
    WebhookUnreachable => "webhook_unreachable", Install, false;
    WebhookSecretMissing => "webhook_secret_missing", Install, false;
    WebhookCertInvalid => "webhook_cert_invalid", Install, false;
    WebhookCertExpired => "webhook_cert_expired", Install, false;
    WebhookRejected => "webhook_rejected", Install, false;
    MainContainerMisnamed => "main_container_misnamed", Spec, false;
    PodtemplateOverridesEntrypoint => "podtemplate_overrides_entrypoint", Spec, false;
    PodtemplateInvalid => "podtemplate_invalid", Spec, false;
    FlinkVersionMismatch => "flink_version_mismatch", Spec, false;
    FlinkVersionUnsupported => "flink_version_unsupported", Spec, false;
    MemoryConfigInvalid => "memory_config_invalid", Spec, false;
    HaMisconfigured => "ha_misconfigured", Spec, false;
    ImagePullFailed => "image_pull_failed", Schedule, false;
    PodUnschedulable => "pod_unschedulable", Schedule, false;
    ResourceQuotaExceeded => "resource_quota_exceeded", Schedule, false;
    ContainerExitZeroRestarting => "container_exit_zero_restarting", Runtime, true;
    FlinkFatalExit => "flink_fatal_exit", Runtime, true;
    OomKilled => "oom_killed", Runtime, false;
    JvmOutOfMemory => "jvm_out_of_memory", Runtime, false;
    ImageIncompatible => "image_incompatible", Runtime, false;
    RbacForbidden => "rbac_forbidden", Identity, false;
    DefaultServiceAccount => "default_service_account", Identity, false;
    SaTokenUnreadable => "sa_token_unreadable", Identity, false;
    JobmanagerUnreachable => "jobmanager_unreachable", Cluster, false;
    TaskmanagerUnreachable => "taskmanager_unreachable", Cluster, false;
    NoSlots => "no_slots", Cluster, false;
    TaskmanagerLost => "taskmanager_lost", Cluster, true;
    JobmanagerRestartWithoutHa => "jobmanager_restart_without_ha", Cluster, false;
    JobJarNotFound => "job_jar_not_found", Job, false;
    JobEntryClassError => "job_entry_class_error", Job, false;
    FilesystemPluginMissing => "filesystem_plugin_missing", Job, false;
    StorageAccessDenied => "storage_access_denied", Job, false;
    SavepointRestoreFailed => "savepoint_restore_failed", Job, false;
    UpgradeFailed => "upgrade_failed", Job, false;
    RestExposedPublicly => "rest_exposed_publicly", Exposure, false;
    RestServiceMissing => "rest_service_missing", Exposure, false;
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Ordered so that `Critical < Warning < Info`: sorting ascending puts the worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "critical" => Some(Severity::Critical),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
    /// True when `self` is as bad as `threshold` or worse.
    pub fn at_least(self, threshold: Severity) -> bool {
        self <= threshold
    }
}

/// The object a finding is about, as `kubectl get KIND NAME -n NS` would find it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ObjectRef {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    pub fn new(kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectRef {
            kind: kind.to_string(),
            namespace: namespace.map(str::to_string),
            name: name.to_string(),
        }
    }
    pub fn namespaced(kind: &str, namespace: &str, name: &str) -> Self {
        Self::new(kind, Some(namespace), name)
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{} -n {}", self.kind, self.name, ns),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// One thing the diagnosis found. Rules fill everything but `id`, `caused_by` and `count`,
/// which `rank` decides.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Stable within one report: `FLK101/FlinkDeployment/ns/name[#link]`.
    pub id: String,
    pub rule: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub layer: Layer,
    pub title: String,
    pub object: ObjectRef,
    /// The Flink deployment (FlinkDeployment, FlinkSessionJob, ...) this finding belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deployment: Option<ObjectRef>,
    pub evidence: Vec<String>,
    pub fix: String,
    pub verify: String,
    /// The id of the finding that explains this one (set by rank).
    pub caused_by: Option<String>,
    /// How many objects share this finding (set by rank when it folds repeats).
    pub count: usize,
    /// Other objects with the same finding, folded into this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<ObjectRef>,
    /// What links a cause to its symptoms beyond the deployment: a container, a ServiceAccount.
    #[serde(skip)]
    pub links: Vec<String>,
}

impl Finding {
    /// A finding with the rule's defaults; rules fill in the rest with the builder methods.
    pub fn new(meta: &crate::rules::RuleMeta, object: ObjectRef, title: impl Into<String>) -> Self {
        Finding {
            id: String::new(),
            rule: meta.id,
            category: meta.category,
            severity: meta.severity,
            layer: meta.category.layer(),
            title: title.into(),
            object,
            deployment: None,
            evidence: Vec::new(),
            fix: String::new(),
            verify: String::new(),
            caused_by: None,
            count: 1,
            also: Vec::new(),
            links: Vec::new(),
        }
    }
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
    pub fn deployment(mut self, deployment: Option<ObjectRef>) -> Self {
        self.deployment = deployment;
        self
    }
    pub fn evidence(mut self, line: impl Into<String>) -> Self {
        self.evidence.push(line.into());
        self
    }
    pub fn fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = fix.into();
        self
    }
    pub fn verify(mut self, verify: impl Into<String>) -> Self {
        self.verify = verify.into();
        self
    }
    pub fn link(mut self, key: impl Into<String>) -> Self {
        self.links.push(key.into());
        self
    }
}

/// Link keys shared by causes and symptoms (kept in one place so both sides spell them alike).
pub mod link {
    pub fn container(namespace: &str, pod: &str, container: &str) -> String {
        format!("container:{namespace}/{pod}/{container}")
    }
    pub fn container_name(name: &str) -> String {
        format!("container-name:{name}")
    }
    pub fn service_account(namespace: &str, name: &str) -> String {
        format!("sa:{namespace}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_taxonomy_id_round_trips() {
        for c in Category::ALL {
            assert_eq!(Category::from_id(c.id()), Some(*c));
        }
        assert_eq!(Category::ALL.len(), 43);
    }

    #[test]
    fn severities_order_worst_first() {
        assert!(Severity::Critical.at_least(Severity::Warning));
        assert!(!Severity::Info.at_least(Severity::Warning));
    }
}

//! What a diagnosis is made of: findings, their taxonomy category, layer and severity.
//! The category ids are a public contract (docs/categories.md, generated from `Category`): never
//! rename or reuse one.

use serde::Serialize;
use std::fmt;

/// The layers of the taxonomy (docs/categories.md), in causal order: an earlier layer explains later ones.
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
    ($( $variant:ident => $id:literal, $layer:ident, $symptom:literal, $meaning:literal; )*) => {
        /// One root-cause category of the taxonomy (docs/categories.md).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Category { $( $variant, )* }

        impl Category {
            pub const ALL: &'static [Category] = &[ $( Category::$variant, )* ];
            pub fn id(self) -> &'static str { match self { $( Category::$variant => $id, )* } }
            pub fn layer(self) -> Layer { match self { $( Category::$variant => Layer::$layer, )* } }
            /// Taxonomy marks these as effects whose cause should be looked for elsewhere.
            pub fn is_symptom(self) -> bool { match self { $( Category::$variant => $symptom, )* } }
            /// What the category means, in one sentence (docs/categories.md is made from these).
            pub fn meaning(self) -> &'static str { match self { $( Category::$variant => $meaning, )* } }
            pub fn from_id(id: &str) -> Option<Category> {
                match id { $( $id => Some(Category::$variant), )* _ => None }
            }
        }
    };
}

categories! {
    InspectForbidden => "inspect_forbidden", Access, false,
        "the person running the tool may not read something the diagnosis needs; the result is incomplete there";
    CrdMissing => "crd_missing", Install, false,
        "a Flink CRD (FlinkDeployment, FlinkSessionJob, FlinkApplication, ...) is not installed, or the kind is unknown to the API server";
    CrdVersionMismatch => "crd_version_mismatch", Install, false,
        "installed CRDs and the running operator (or the submitted resource) disagree on schema/version";
    OperatorNotRunning => "operator_not_running", Install, false,
        "the operator Deployment is missing, not ready, crash-looping or keeps being killed";
    OperatorNotWatchingNamespace => "operator_not_watching_namespace", Install, false,
        "the operator runs but does not watch the namespace of the resource, so nothing reconciles it";
    OperatorRbacMissing => "operator_rbac_missing", Install, false,
        "the operator's own ServiceAccount lacks permissions it needs";
    CertManagerMissing => "cert_manager_missing", Install, false,
        "cert-manager (CRDs, pods or the Certificate/Issuer the operator chart expects) is absent or not ready";
    WebhookUnreachable => "webhook_unreachable", Install, false,
        "an admission webhook for Flink resources has no reachable backend (service, endpoints, pod, port)";
    WebhookSecretMissing => "webhook_secret_missing", Install, false,
        "the Secret holding the webhook's TLS material or keystore password is missing";
    WebhookCertInvalid => "webhook_cert_invalid", Install, false,
        "the webhook certificate does not verify: caBundle empty or not the issuer, wrong SANs, legacy CN";
    WebhookCertExpired => "webhook_cert_expired", Install, false,
        "the webhook serving certificate is expired or not yet valid";
    WebhookRejected => "webhook_rejected", Install, false,
        "the operator's validating webhook denied the resource: a spec error reported at admission";
    MainContainerMisnamed => "main_container_misnamed", Spec, false,
        "a pod template's main container is not named `flink-main-container`, so it runs as an extra sidecar";
    PodtemplateOverridesEntrypoint => "podtemplate_overrides_entrypoint", Spec, false,
        "a pod template sets `command`/`args` on the main container and replaces the Flink entrypoint";
    PodtemplateInvalid => "podtemplate_invalid", Spec, false,
        "a pod template references something that does not exist or cannot be merged (volume, configMap, secret)";
    FlinkVersionMismatch => "flink_version_mismatch", Spec, false,
        "`flinkVersion` (or the operator's idea of it) does not match the Flink inside the image";
    FlinkVersionUnsupported => "flink_version_unsupported", Spec, false,
        "the requested Flink version is not supported by the installed operator/CRD";
    MemoryConfigInvalid => "memory_config_invalid", Spec, false,
        "Flink memory options are inconsistent or too small to start";
    ConfigOptionInvalid => "config_option_invalid", Spec, false,
        "a Flink configuration option has a value Flink cannot parse as the option's type (an integer, a duration, a boolean, one of an enum's names)";
    HaMisconfigured => "ha_misconfigured", Spec, false,
        "high availability is required but absent or incomplete (replicas > 1 without HA, HA without storage dir)";
    SessionClusterMissing => "session_cluster_missing", Spec, false,
        "a FlinkSessionJob's `spec.deploymentName` names no FlinkDeployment of its namespace, so no session cluster runs the job";
    ImagePullFailed => "image_pull_failed", Schedule, false,
        "an image cannot be pulled (name, tag, registry auth, pull secret, registry TLS)";
    PodUnschedulable => "pod_unschedulable", Schedule, false,
        "a pod stays Pending: insufficient resources, affinity/taints, missing PVC";
    ResourceQuotaExceeded => "resource_quota_exceeded", Schedule, false,
        "a ResourceQuota or LimitRange rejects pod creation";
    ContainerExitZeroRestarting => "container_exit_zero_restarting", Runtime, true,
        "a container exits 0 yet is restarted (restartPolicy Always), e.g. a sidecar with nothing to do";
    FlinkFatalExit => "flink_fatal_exit", Runtime, true,
        "a Flink process died through its fatal-error handler (exit code 239) or entrypoint failure (1, 2)";
    OomKilled => "oom_killed", Runtime, false,
        "the container was killed by its memory limit (137 / OOMKilled), e.g. no headroom over Flink's process memory";
    JvmOutOfMemory => "jvm_out_of_memory", Runtime, false,
        "the JVM threw OutOfMemoryError (heap, metaspace, direct) inside the limit";
    ImageIncompatible => "image_incompatible", Runtime, false,
        "the image cannot run Flink as deployed: scripts missing, read-only config dir, unwritable workdir, wrong user";
    RbacForbidden => "rbac_forbidden", Identity, false,
        "a Flink process (JobManager, TaskManager, client) got 403 from the API server: its ServiceAccount lacks a verb on a resource";
    DefaultServiceAccount => "default_service_account", Identity, false,
        "Flink runs as the namespace's `default` ServiceAccount, which normally has no rights";
    SaTokenUnreadable => "sa_token_unreadable", Identity, false,
        "the ServiceAccount token cannot be read or is not mounted, so requests go out anonymous/unauthorized";
    JobmanagerUnreachable => "jobmanager_unreachable", Cluster, false,
        "TaskManagers or clients cannot resolve or connect to the JobManager (rpc address, service, DNS)";
    TaskmanagerUnreachable => "taskmanager_unreachable", Cluster, false,
        "the JobManager cannot reach TaskManagers at the address they registered with";
    NoSlots => "no_slots", Cluster, false,
        "the job cannot get the slots it needs (NoResourceAvailableException, no TaskManagers)";
    TaskmanagerLost => "taskmanager_lost", Cluster, true,
        "TaskManagers disappear (heartbeat timeouts, pods deleted or preempted)";
    JobmanagerRestartWithoutHa => "jobmanager_restart_without_ha", Cluster, false,
        "the JobManager restarted without HA and the job or its state was lost";
    JobJarNotFound => "job_jar_not_found", Job, false,
        "the job artifact (`jarURI`, usrlib) is not where the deployment says";
    JobEntryClassError => "job_entry_class_error", Job, false,
        "the entry class is missing, ambiguous, or fails to load";
    FilesystemPluginMissing => "filesystem_plugin_missing", Job, false,
        "no file system for a scheme (s3, gs, abfs, hdfs ...): the plugin is not enabled or not in the image";
    StorageAccessDenied => "storage_access_denied", Job, false,
        "checkpoint, savepoint or HA storage exists but access is denied";
    SavepointRestoreFailed => "savepoint_restore_failed", Job, false,
        "the job cannot restore from its savepoint/checkpoint (incompatible state, missing path, not configured)";
    UpgradeFailed => "upgrade_failed", Job, false,
        "a spec change or upgrade failed (savepoint on stop failed, rollback)";
    JobSubmitterFailed => "job_submitter_failed", Job, false,
        "the job submitter (the FlinkCluster operator's Kubernetes Job that runs `flink run` against the JobManager) failed, so the job was never submitted";
    RestExposedPublicly => "rest_exposed_publicly", Exposure, false,
        "the Flink REST endpoint (which can run arbitrary code) is exposed outside the cluster";
    RestServiceMissing => "rest_service_missing", Exposure, false,
        "the REST service is missing or has no endpoints";
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

/// What a rule (of doctor or lint) is, independent of any input: the contract every finding
/// it makes carries.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable id (`FLK101`), never reused.
    pub id: &'static str,
    /// What it detects, as its file is named.
    pub name: &'static str,
    /// One line a person reads: what it detects (the README's rules table, SARIF, `--help`).
    pub summary: &'static str,
    pub category: Category,
    pub severity: Severity,
    /// Ids of the rules whose findings this rule's findings can explain (cause -> symptom).
    pub explains: &'static [&'static str],
    /// What to do, in words a platform engineer follows (`kubectl flink explain ID`); a finding's
    /// own fix is the exact commands for what was seen.
    pub fix: &'static str,
    /// How to check it worked: a command, with `# expect ...`; names unknown here are shell
    /// variables (`"$NAMESPACE"`).
    pub verify: &'static str,
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

/// Where the project lives: Cargo.toml's `repository` (the krew manifest's `homepage` too), so a
/// docs link never names a repository the package does not.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The page that explains a rule, lint check, log signature or description reading: its section
/// of `docs/rules.md` (generated from the text `kubectl flink explain ID` prints; each section's
/// heading is the id alone, so its anchor is the id in lower case).
pub fn docs_url(id: &str) -> String {
    format!(
        "{REPOSITORY}/blob/main/docs/rules.md#{}",
        id.to_ascii_lowercase()
    )
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
    pub fn new(meta: &RuleMeta, object: ObjectRef, title: impl Into<String>) -> Self {
        Finding {
            id: String::new(),
            rule: meta.id,
            category: meta.category,
            severity: meta.severity,
            layer: meta.category.layer(),
            // One line, whatever names it quotes (see `evidence`).
            title: one_line(title.into()),
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
    /// One line of evidence. What it quotes (an event message, a status error, a log line) is
    /// someone else's text: a line break in it is shown as `\n`, so that no part of it can
    /// stand on a line of its own in the report and read as a command there.
    pub fn evidence(mut self, line: impl Into<String>) -> Self {
        let line = line.into();
        self.evidence
            .push(if line.contains(|c: char| c.is_control()) {
                crate::shell::escape_controls(&line)
            } else {
                line
            });
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

/// `s` with its control characters escaped, when it has any.
fn one_line(s: String) -> String {
    if s.contains(|c: char| c.is_control()) {
        crate::shell::escape_controls(&s)
    } else {
        s
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
    /// A refusal of `resource` to a ServiceAccount: a missing right and the 403 it causes.
    pub fn refused(namespace: &str, service_account: &str, resource: &str) -> String {
        format!("refused:{namespace}/{service_account}/{resource}")
    }
    /// A spec the operator's validator refused: a cause of its own, which no other finding of
    /// the deployment (a misnamed container, say) explains.
    pub fn validation(message: &str) -> String {
        format!("validation:{message}")
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
        assert_eq!(Category::ALL.len(), 46);
    }

    #[test]
    fn severities_order_worst_first() {
        assert!(Severity::Critical.at_least(Severity::Warning));
        assert!(!Severity::Info.at_least(Severity::Warning));
    }
}

/// A fix as data: the YAML documents to `kubectl apply -f -` and the other commands to run
/// (`kubectl patch`, `kubectl rollout restart`, `helm upgrade`), read from the fix text every
/// finding carries, so JSON consumers and `doctor --fix` apply exactly what a person would.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Remedy {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub apply: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub run: Vec<String>,
}

impl Remedy {
    /// The heredocs of `kubectl apply -f - <<'EOF'` (split into documents) and the `kubectl` /
    /// `helm` command lines outside them; comments and prose are not commands. A fix that offers
    /// alternatives ("... or make Flink ask for less: ...") gives the first one only: applying
    /// both would do the job twice, in two different ways.
    pub fn from_fix(fix: &str) -> Remedy {
        let mut r = Remedy::default();
        let mut lines = fix.lines();
        while let Some(line) = lines.next() {
            let t = line.trim();
            if !r.is_empty() && starts_an_alternative(t) {
                break;
            }
            // `kubectl get ... -o yaml > x.yaml   # edit`: what follows reads a file a person
            // edits first, so nothing from here on applies as it is.
            if writes_a_file_to_edit(t) {
                break;
            }
            if let Some(head) = t
                .strip_suffix("<<'EOF'")
                .or_else(|| t.strip_suffix("<<EOF"))
            {
                let mut doc = String::new();
                for l in lines.by_ref() {
                    if l.trim() == "EOF" {
                        break;
                    }
                    if l.trim() == "---" {
                        push_doc(&mut r.apply, &mut doc);
                    } else {
                        doc.push_str(l);
                        doc.push('\n');
                    }
                }
                push_doc(&mut r.apply, &mut doc);
                if !head.trim().starts_with("kubectl apply") {
                    r.run.push(head.trim().to_string());
                }
                continue;
            }
            let mut command = t.trim_start_matches("$ ").to_string();
            // A command continued over lines with a trailing backslash is one command.
            while command.ends_with('\\') {
                match lines.next() {
                    Some(next) => {
                        command.pop();
                        command = format!("{} {}", command.trim_end(), next.trim());
                    }
                    None => break,
                }
            }
            // A command with a placeholder only a person can fill (`<spec.job.jarURI>`) is kept,
            // commented out behind FILL_IN so that `| sh` cannot run it as it is; any other `<`
            // (a redirection) is not a command to run.
            let fill = has_placeholder(&command);
            if changes_something(&command) && (fill || !command.contains('<')) {
                let command = command.split("   #").next().unwrap_or(&command).trim_end();
                let command = if fill {
                    format!("{FILL_IN}{command}")
                } else {
                    command.to_string()
                };
                if !r.run.contains(&command) {
                    r.run.push(command);
                }
            }
        }
        r
    }

    pub fn is_empty(&self) -> bool {
        self.apply.is_empty() && self.run.is_empty()
    }
}

/// How `remedy.run` (and `--fix=run`) marks a command with a placeholder: the command follows,
/// commented out; fill in each `<...>` (what only a person knows: a jar's path, an image tag) and
/// drop the mark to run it. `scripts/lab/heal.sh` fills them from a scenario's `answers` file.
pub const FILL_IN: &str = "# fill in each <...>, then run: ";

/// A placeholder for a person to fill: `<` then a letter, up to the next `>` (`<spec.job.jarURI>`,
/// `<where the jar is served>`); not `<<`, `<=` or a redirection.
pub fn has_placeholder(s: &str) -> bool {
    placeholders(s).next().is_some()
}

/// The placeholders of `s`, as written (brackets and all).
pub fn placeholders(s: &str) -> impl Iterator<Item = &str> {
    s.match_indices('<').filter_map(move |(i, _)| {
        let rest = &s[i + 1..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let end = rest.find(['<', '>'])?;
        (rest.as_bytes()[end] == b'>').then(|| &s[i..i + end + 2])
    })
}

/// A prose line that opens another way to the same end: "or raise the limit", "Or, ...".
fn starts_an_alternative(line: &str) -> bool {
    let lower = line.get(..3).unwrap_or("").to_ascii_lowercase();
    lower == "or " || lower == "or," || lower == "or:"
}

/// A `kubectl` command line whose output goes to a local file (`> x.yaml`), for a person to edit.
fn writes_a_file_to_edit(line: &str) -> bool {
    if !line.starts_with("kubectl ") {
        return false;
    }
    // A `>` outside quotes: inside them it is part of a patch or a jsonpath.
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return true,
            _ => {}
        }
    }
    false
}

/// A command that changes the cluster (not `kubectl get`, `describe`, `logs`, `auth can-i`).
fn changes_something(command: &str) -> bool {
    const KUBECTL: &[&str] = &[
        "patch", "annotate", "label", "rollout", "delete", "create", "set", "scale", "replace",
    ];
    // `kubectl get ... -o yaml | kubectl replace --force -f -` recreates what it read: a pipeline
    // from a read into a change changes something.
    if let Some((read, change)) = command.rsplit_once(" | ") {
        if read.trim_start().starts_with("kubectl get ") && changes_something(change.trim()) {
            return true;
        }
    }
    let mut words = command.split_whitespace();
    match (words.next(), words.next()) {
        (Some("kubectl"), Some(verb)) => KUBECTL.contains(&verb),
        (Some("helm"), Some(verb)) => matches!(verb, "upgrade" | "install" | "repo"),
        _ => false,
    }
}

fn push_doc(out: &mut Vec<String>, doc: &mut String) {
    if !doc.trim().is_empty() && !out.contains(doc) {
        out.push(std::mem::take(doc));
    }
    doc.clear();
}

#[cfg(test)]
mod remedy_tests {
    use super::Remedy;

    #[test]
    fn a_command_with_a_placeholder_is_kept_commented_out_behind_the_fill_in_mark() {
        let fix = "Point it at the jar:\n\n  kubectl patch flinkdeployment orders -n a --type=merge -p '{\"spec\":{\"job\":{\"jarURI\":\"<spec.job.jarURI>\"}}}'\n";
        let r = Remedy::from_fix(fix);
        assert_eq!(
            r.run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n a --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"<spec.job.jarURI>\"}}}}}}'",
                super::FILL_IN
            )]
        );
        // Marked so that `| sh` runs nothing: the line is a comment.
        assert!(r.run[0].starts_with('#'));
        assert_eq!(
            super::placeholders(&r.run[0]).collect::<Vec<_>>(),
            vec!["<spec.job.jarURI>"]
        );
        // A redirection or a heredoc is no placeholder.
        assert!(!super::has_placeholder("kubectl apply -f - <<'EOF'"));
        assert!(!super::has_placeholder("kubectl create -f x < file.yaml"));
        assert!(super::has_placeholder(
            "kubectl set image d x=<image with its tag>"
        ));
    }

    #[test]
    fn heredoc_documents_and_commands_are_read_out_of_the_fix_text() {
        let continued = Remedy::from_fix("kubectl patch fd x --type=json \\\n  -p '[]'\n");
        assert_eq!(
            continued.run,
            vec!["kubectl patch fd x --type=json -p '[]'"]
        );
        let fix = "Give it an account.\n\nkubectl apply -f - <<'EOF'\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink\n---\napiVersion: v1\nkind: Role\nEOF\nkubectl patch flinkdeployment orders -n a --type=merge -p '{\"spec\":{}}'\n# a note, not a command\nkubectl get pods -n <ns>   # a placeholder: not runnable\n";
        let r = Remedy::from_fix(fix);
        assert_eq!(r.apply.len(), 2);
        assert!(r.apply[0].starts_with("apiVersion: v1\nkind: ServiceAccount"));
        assert_eq!(
            r.run,
            vec!["kubectl patch flinkdeployment orders -n a --type=merge -p '{\"spec\":{}}'"]
        );
        assert!(Remedy::from_fix("raise the memory limit").is_empty());
    }

    #[test]
    fn a_fix_with_alternatives_gives_the_first_only() {
        let fix = "Raise the quota:\n\n  kubectl patch resourcequota q -n a --type=merge -p '{}'\n\nor make Flink ask for less:\n\n  kubectl patch flinkdeployment f -n a --type=merge -p '{}'\n";
        assert_eq!(
            Remedy::from_fix(fix).run,
            vec!["kubectl patch resourcequota q -n a --type=merge -p '{}'"]
        );
        // "or" before any command is prose of the first way, not a second one.
        let first = "Or, as the chart does:\n\nkubectl rollout restart deployment/x -n a\n";
        assert_eq!(Remedy::from_fix(first).run.len(), 1);
        // A word that merely starts with "or" is not an alternative.
        let order = "kubectl rollout restart deployment/x -n a\norder matters: then\nkubectl rollout restart deployment/y -n a\n";
        assert_eq!(Remedy::from_fix(order).run.len(), 2);
    }

    #[test]
    fn steps_after_a_file_written_for_a_person_to_edit_are_not_applicable() {
        let fix = "Recreate it:\n\n  kubectl get flinkcluster c -n a -o yaml > c.yaml   # edit, drop status\n  kubectl delete flinkcluster c -n a && kubectl apply -f c.yaml\n";
        assert!(
            Remedy::from_fix(fix).is_empty(),
            "{:?}",
            Remedy::from_fix(fix)
        );
        // A `>` inside a JSON patch is no redirection.
        let patch = "kubectl patch fd x -n a --type=merge -p '{\"a\":\"b > c\"}'\n";
        assert!(!Remedy::from_fix(patch).is_empty());
    }
}

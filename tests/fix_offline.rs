//! Every fix doctor prints, applied offline to the bundle it was printed for, with kubectl's patch
//! semantics, and diagnosed again. The live round trip (`tests/e2e.rs`,
//! `every_bundle_s_fix_is_accepted_applied_and_removes_causes_without_adding_any`) proves that the
//! API server accepts the fixes; most of them only change a spec (a memory size, a pod template),
//! and the failure they cure is in pods that the test cluster has no operator or kubelet to
//! replace. Here the patched objects are diagnosed as they are after `kubectl apply` and before
//! the rollout: each root cause whose remedy could be applied must be gone, or be an info finding
//! that says the fix is in place and what still has to happen (a restart, the operator's
//! reconcile), never the old fix again; and no new warning or critical finding may appear.
//!
//! Remedies that need more than the objects (a Helm upgrade, a controller restart, a value read
//! from the cluster at run time, a file outside Kubernetes) are listed with the reason in
//! `NOT_OFFLINE`, and the test fails when that list and the bundles disagree.

mod common;
use common::repo;
use common::run::s;

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// Root causes that this round trip does not cover, as `bundle rule category kind/name`, and why.
/// The test fails when the bundles say otherwise (a cause covered now, or a new one not covered),
/// so this list is the coverage report.
const NOT_COVERED: &[(&str, &str)] = &[
    ("real-tm-memory-cannot-fit FLK401 memory_config_invalid FlinkDeployment/orders", "the remedy sets spec.taskManager.resource.memory to the size that fits, but the operator's status.error stays until it reconciles (the lab heals it: tests/scenarios/real-tm-memory-cannot-fit/heal.txt)"),
    // The remedy's command has a placeholder a person fills (FILL_IN): the lab fills it from a
    // scenario's answers file.
    ("flink-resource-status-validation FLK401 ha_misconfigured FlinkDeployment/audit", "a value only a person knows, as a placeholder"),
    ("mode-flinkcluster-image-pull FLK105 image_pull_failed Pod/topspeed-jobmanager-0", "the image tag that exists, as a placeholder"),
    ("mode-flinkcluster-submitter-failed FLK412 job_jar_not_found Job/wordcount-job-submitter", "where the jar is, as a placeholder"),
    ("real-crd-skew FLK002 crd_version_mismatch CustomResourceDefinition/flinkdeployments.flink.apache.org", "the release's CRDs are pulled and replaced (kubectl replace -f, files outside the bundle), then the refused FlinkDeployment is applied again by its owner"),
    ("real-config-option FLK401 config_option_invalid FlinkDeployment/orders", "taskmanager.numberOfTaskSlots, as a placeholder (the lab's answers file fills it)"),
    ("real-entry-class FLK103 job_entry_class_error Pod/orders-5df7cd8768-74876", "spec.job.entryClass, as a placeholder (the lab's answers file fills it)"),
    ("real-jar-missing FLK103 job_jar_not_found Pod/orders-5df7cd8768-99ww8", "spec.job.jarURI, as a placeholder (the lab's answers file fills it)"),
    // The remedy needs what only the cluster or a person has.
    ("install-blank-cabundle FLK013 webhook_cert_invalid MutatingWebhookConfiguration/flink-operator-install-blankca-op-webhook-configuration", "the caBundle is read from the Secret when the command runs"),
    ("install-blank-cabundle FLK013 webhook_cert_invalid ValidatingWebhookConfiguration/flink-operator-install-blankca-op-webhook-configuration", "the caBundle is read from the Secret when the command runs"),
    ("install-other-ca FLK013 webhook_cert_invalid MutatingWebhookConfiguration/flink-operator-install-otherca-op-webhook-configuration", "the caBundle is read from the Secret when the command runs"),
    ("install-other-ca FLK013 webhook_cert_invalid ValidatingWebhookConfiguration/flink-operator-install-otherca-op-webhook-configuration", "the caBundle is read from the Secret when the command runs"),
    ("install-crd-skew FLK002 crd_version_mismatch CustomResourceDefinition/flinkstatesnapshots.flink.apache.org", "a Helm upgrade of the operator's chart"),
    ("install-expired-cert FLK014 webhook_cert_expired Secret/webhook-server-cert", "a Helm upgrade, then cert-manager reissues the certificate"),
    ("install-missing-crd FLK001 crd_missing CustomResourceDefinition/flinksessionjobs.flink.apache.org", "a Helm upgrade of the operator's chart"),
    ("install-no-cert-manager FLK010 cert_manager_missing Certificate/flink-operator-serving-cert", "installing cert-manager, or a Helm upgrade without the webhook"),
    ("real-webhook FLK010 cert_manager_missing Certificate/flink-operator-serving-cert", "installing cert-manager, or a Helm upgrade without the webhook (the lab has no Helm release and no network: not healed there)"),
    ("install-not-watching FLK004 operator_not_watching_namespace FlinkDeployment/orders", "a Helm upgrade of the operator's watched namespaces"),
    ("install-missing-tls-secret FLK011 webhook_secret_missing Secret/webhook-server-cert", "only restarts: cert-manager re-creates the Secret"),
    ("install-flinkcluster-no-tls-secret FLK011 webhook_secret_missing Secret/webhook-server-cert", "only restarts: cert-manager re-creates the Secret"),
    ("install-flinkcluster-image-pull FLK003 operator_not_running Deployment/flink-operator-controller-manager", "kubectl set image: the kubelet pulls the image"),
    ("install-flinkcluster-operator-oom FLK003 operator_not_running Deployment/flink-operator-controller-manager", "kubectl set resources: a new pod runs with the larger limit"),
    ("unplaced-operator-mirror-oom FLK003 operator_not_running Deployment/flink-operator-controller-manager", "kubectl set resources: a new pod runs with the larger limit"),
    ("install-flinkcluster-crd-skew FLK002 crd_version_mismatch CustomResourceDefinition/flinkclusters.flinkoperator.k8s.io", "the release's CRD is downloaded and replaced (kubectl replace), then the operator reconciles"),
    ("real-capacity FLK106 pod_unschedulable Pod/orders-taskmanager-1-1", "the TaskManager's cpu is cut to what the node has left in the spec; the JobManager replaces the Pending pod (the lab heals it: tests/scenarios/real-capacity/heal.txt)"),
    ("real-image-missing FLK105 image_pull_failed Pod/orders-6b5d9566bd-9lj87", "the image that exists, as a placeholder (the lab's answers file fills it: tests/scenarios/real-image-missing/heal.txt)"),
    ("real-canonical-1.20 FLK103 image_incompatible Pod/orders-87f9c88c-8z5n7", "the --add-opens option joins env.java.opts.all in the spec; the operator replaces the JobManager that exited, whose recorded pod still shows the exit (the lab heals it: tests/scenarios/real-canonical-1.20/heal.txt)"),
    ("real-canonical-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-5564b4f6bb-4sn6s", "the --add-opens option joins env.java.opts.all in the spec; the operator replaces the JobManager that exited, whose recorded pod still shows the exit (the lab heals it: its heal.txt)"),
    ("flink-fatal-exit FLK103 filesystem_plugin_missing Pod/payments-5d8f9c7b6d-t9w4z", "ENABLE_BUILT_IN_PLUGINS joins flinkConfiguration (containerized.*.env.*); the operator replaces the JobManager that exited, whose recorded pod still shows the exit"),
    ("real-s3-no-plugin FLK103 filesystem_plugin_missing Pod/orders-5df7cd8768-m4pd5", "ENABLE_BUILT_IN_PLUGINS joins flinkConfiguration (containerized.*.env.*); the operator replaces the JobManager that exited, whose recorded pod still shows the exit"),
    ("real-hdfs-no-hadoop FLK103 filesystem_plugin_missing Pod/orders-5df7cd8768-wh27r", "HADOOP_CLASSPATH, as a placeholder (only the image knows the classpath of its Hadoop jars)"),
    ("real-savepoint-path FLK103 savepoint_restore_failed Pod/orders-5df7cd8768-ktr78", "spec.job.initialSavepointPath, as a placeholder (only a person knows which savepoint exists)"),
    // Flink 1.20.1 / operator 1.10.0: the job FAILED on Java 17 in a JobManager that stays up,
    // and the operator, failing to observe the ended job (FLINK-37370), deploys the patched spec
    // only once the JobManager Deployment the fix deletes is gone (the lab heals them: their heal.txt).
    ("real-default-sa-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-6687748756-7qqbl", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys"),
    ("real-tm-memory-cannot-fit-flink-1.20-operator-1.10.0 FLK401 memory_config_invalid FlinkDeployment/orders", "the remedy sets spec.taskManager.resource.memory to the size that fits, but the operator's status.error stays until it reconciles (the lab heals it: its heal.txt)"),
    ("real-quota-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-r2cq2", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the quota's refusal shows: its heal.txt)"),
    ("real-role-no-create-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-4sh2c", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the Role's missing create shows: its heal.txt)"),
    ("real-jar-missing-flink-1.20-operator-1.10.0 FLK103 job_jar_not_found Pod/orders-85494787fb-8jg77", "spec.job.jarURI, as a placeholder (the lab's answers file fills it: its heal.txt)"),
    ("real-limitrange-flink-1.20-operator-1.10.0 FLK108 resource_quota_exceeded FlinkDeployment/orders", "the refusal is read from the controller's FailedCreate events, which stay until it creates the pod again (the lab heals it: its heal.txt)"),
    ("real-entry-class-flink-1.20-operator-1.10.0 FLK103 job_entry_class_error Pod/orders-85494787fb-sk6sn", "spec.job.entryClass, as a placeholder (the lab's answers file fills it: its heal.txt)"),
    ("real-node-selector-flink-1.20-operator-1.10.0 FLK106 pod_unschedulable Pod/orders-6f8bc99fd8-t9gvr", "the nodeSelector leaves the spec; the operator and the scheduler replace the Pending pod (the lab heals it: its heal.txt)"),
    ("real-no-slots-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-fnjjh", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the slot limit shows: its heal.txt)"),
    ("real-pod-security-flink-1.20-operator-1.10.0 FLK110 podtemplate_invalid FlinkDeployment/orders", "the refusal is read from the controller's FailedCreate events, which stay until it creates a pod the namespace's PodSecurity level admits"),
    ("real-operator-down-flink-1.20-operator-1.10.0 FLK003 operator_not_running Deployment/flink-kubernetes-operator", "kubectl scale: a new pod (the kubelet) shows whether it worked (the lab heals it: its heal.txt)"),
    ("real-capacity-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-2l2qv", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the node's capacity shows: its heal.txt)"),
    ("real-oom-killed-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-xt5z9", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the TaskManager's OOMKilled shows: its heal.txt)"),
    ("real-memory-unit-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-vqw6c", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (operator 1.10.0 reads 1024mi as 1024Mi too: its heal.txt)"),
    ("real-tm-lost-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-94n4t", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (the job never ran, so no TaskManager was lost: its heal.txt)"),
    ("real-s3-no-plugin-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-p928t", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then the s3 plugin's absence shows, for a person: its heal.txt)"),
    ("real-hdfs-no-hadoop-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-xrsdg", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (then Hadoop's absence shows, for a person: its heal.txt)"),
    ("real-exit-code-flink-1.20-operator-1.10.0 FLK103 flink_fatal_exit Pod/orders-85494787fb-cdmnn", "the refused option leaves env.java.opts.jobmanager in the spec; the operator replaces the JobManager that exited, whose recorded pod still shows the exit (the lab heals it: its heal.txt)"),
    ("real-config-option-flink-1.20-operator-1.10.0 FLK401 config_option_invalid FlinkDeployment/orders", "taskmanager.numberOfTaskSlots, as a placeholder (the lab's answers file fills it: its heal.txt)"),
    ("real-image-missing-flink-1.20-operator-1.10.0 FLK105 image_pull_failed Pod/orders-8849b695-kmgm7", "the image that exists, as a placeholder (the lab's answers file fills it: its heal.txt)"),
    ("real-savepoint-path-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-qpbhc", "the --add-opens option joins env.java.opts.all and the FlinkDeployment is recreated (upgradeMode savepoint: deleting only its JobManager Deployment stops operator 1.10.0 on missing HA data); the recorded pod still logs the failure (then the missing savepoint shows, for a person: its heal.txt)"),
    ("real-crd-skew-flink-1.20-operator-1.10.0 FLK002 crd_version_mismatch CustomResourceDefinition/flinkdeployments.flink.apache.org", "the release's CRDs are pulled and replaced (kubectl replace -f, files outside the bundle), then the refused FlinkDeployment is applied again by its owner"),
    ("real-webhook-flink-1.20-operator-1.10.0 FLK010 cert_manager_missing Certificate/flink-operator-serving-cert", "installing cert-manager, or a Helm upgrade without the webhook (the lab has no Helm release and no network: not healed there)"),
    ("real-healthy-flink-1.20-operator-1.10.0 FLK103 image_incompatible Pod/orders-85494787fb-zrx7k", "the --add-opens option joins env.java.opts.all and the JobManager Deployment is deleted; the recorded pod still logs the failure until operator 1.10.0 redeploys (the control scenario meets the Java 17 fault too: its heal.txt)"),
    ("real-exit-code FLK103 flink_fatal_exit Pod/orders-5df7cd8768-lbxms", "the refused option leaves env.java.opts.jobmanager in the spec; the operator replaces the JobManager that exited, whose recorded pod still shows the exit"),
    ("real-node-selector FLK106 pod_unschedulable Pod/orders-56447d7454-2r7j2", "the nodeSelector leaves the spec; the operator and the scheduler replace the Pending pod (the lab heals it: tests/scenarios/real-node-selector/heal.txt)"),
    ("real-operator-down FLK003 operator_not_running Deployment/flink-kubernetes-operator", "kubectl scale: a new pod (the kubelet) shows whether it worked (the lab heals it: tests/scenarios/real-operator-down/heal.txt)"),
    ("real-limitrange FLK108 resource_quota_exceeded FlinkDeployment/orders", "the refusal is read from the controller's FailedCreate events, which stay until it creates the pod again"),
    ("real-pod-security FLK110 podtemplate_invalid FlinkDeployment/orders", "the refusal is read from the controller's FailedCreate events, which stay until it creates a pod the namespace's PodSecurity level admits"),
    ("real-oom-killed FLK107 oom_killed Pod/orders-taskmanager-1-1", "the heap flags leave env.java.opts.taskmanager, but the OOMKilled TaskManager stays in the running JobManager's log (it deleted the pod) until the operator redeploys (the lab heals it: tests/scenarios/real-oom-killed/heal.txt)"),
    ("real-no-slots FLK401 no_slots FlinkDeployment/orders", "the slot limit or parallelism changes in the spec; the job's failure stays in the status until the operator redeploys it"),
    ("mode-flinkcluster-tm-pending FLK106 pod_unschedulable Pod/topspeed-taskmanager-2", "the FlinkCluster asks for less; the operator and the scheduler replace the Pending pod"),
    // The cause is fixed by hand (a jar, a plugin, code); the remedy only redeploys after.
    ("mode-lyft-deploy-failed FLK410 job_entry_class_error FlinkApplication/clicks", "the entry class is fixed in the jar or the spec by hand; the remedy only redeploys"),
    ("session-job-jar-not-found FLK401 job_jar_not_found FlinkSessionJob/enricher", "the jar is uploaded by hand; the remedy only redeploys"),
    ("status-error-jar-missing FLK401 job_jar_not_found FlinkDeployment/payments", "the jar is put in the image by hand; the remedy only redeploys"),
    ("status-error-s3-plugin FLK401 filesystem_plugin_missing FlinkDeployment/payments", "the S3 plugin is enabled in the image by hand; the remedy only redeploys"),
];

fn bundles() -> Vec<PathBuf> {
    let mut out = vec![repo().join("examples/canonical")];
    out.extend(common::scenarios::all().into_iter().map(|(_, b)| b));
    out
}

fn doctor(dir: &Path) -> Vec<Value> {
    let out = Command::new(PLUGIN)
        .args(["doctor", "--from"])
        .arg(dir)
        .args(["-A", "-o", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run kubectl-flink");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "doctor --from {}: not JSON ({e}): {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["findings"].as_array().cloned().unwrap_or_default()
}

/// Rule, category and object: what identifies a finding across two diagnoses.
fn key(f: &Value) -> String {
    format!(
        "{} {} {}/{}",
        s(f, "/rule"),
        s(f, "/category"),
        s(f, "/object/kind"),
        s(f, "/object/name")
    )
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The bundle's objects, file by file (a `kind: List` is opened into its items).
struct Objects {
    files: Vec<(PathBuf, Vec<Value>)>,
    /// Objects the fix created, written to a file of their own.
    created: Vec<Value>,
}

impl Objects {
    fn load(dir: &Path) -> Objects {
        let mut files = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)
                .expect("read bundle dir")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    if p.file_name().is_some_and(|n| n != "logs") {
                        stack.push(p);
                    }
                    continue;
                }
                let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
                if !matches!(ext, "yaml" | "yml" | "json") {
                    continue;
                }
                let text = std::fs::read_to_string(&p).expect("read bundle file");
                let mut docs = Vec::new();
                for d in serde_yaml::Deserializer::from_str(&text) {
                    let v: Value = match serde::Deserialize::deserialize(d) {
                        Ok(v) => v,
                        Err(_) => break,
                    };
                    match v["items"].as_array() {
                        Some(items) if s(&v, "/kind").ends_with("List") => {
                            docs.extend(items.iter().cloned())
                        }
                        _ if !v.is_null() => docs.push(v),
                        _ => {}
                    }
                }
                files.push((p, docs));
            }
        }
        Objects {
            files,
            created: Vec::new(),
        }
    }

    fn find(&mut self, kind: &str, namespace: Option<&str>, name: &str) -> Option<&mut Value> {
        let matches = |o: &Value| {
            s(o, "/kind").eq_ignore_ascii_case(kind)
                && s(o, "/metadata/name") == name
                && (namespace.is_none()
                    || o.pointer("/metadata/namespace").and_then(Value::as_str) == namespace)
        };
        self.files
            .iter_mut()
            .flat_map(|(_, docs)| docs.iter_mut())
            .chain(self.created.iter_mut())
            .find(|o| matches(o))
    }

    /// `kubectl apply -f -` of one document: created, or merged into the object it names.
    fn apply(&mut self, doc: &Value) {
        let ns = doc.pointer("/metadata/namespace").and_then(Value::as_str);
        match self.find(s(doc, "/kind"), ns, s(doc, "/metadata/name")) {
            Some(existing) => json_patch::merge(existing, doc),
            None => self.created.push(doc.clone()),
        }
    }

    fn create(&mut self, object: Value) -> Result<(), String> {
        let ns = object
            .pointer("/metadata/namespace")
            .and_then(Value::as_str);
        if self
            .find(s(&object, "/kind"), ns, s(&object, "/metadata/name"))
            .is_some()
        {
            return Err(format!("{} already exists", s(&object, "/metadata/name")));
        }
        self.created.push(object);
        Ok(())
    }

    /// A copy of the bundle (logs too) with these objects in it.
    fn write(&self, from: &Path, to: &Path) {
        copy_tree(from, to);
        for (path, docs) in &self.files {
            let rel = path.strip_prefix(from).expect("inside the bundle");
            std::fs::write(to.join(rel), stream(docs)).expect("write patched file");
        }
        if !self.created.is_empty() {
            std::fs::write(to.join("zz-created-by-the-fix.yaml"), stream(&self.created))
                .expect("write created objects");
        }
    }
}

fn stream(docs: &[Value]) -> String {
    docs.iter()
        .map(|d| serde_yaml::to_string(d).expect("YAML"))
        .collect::<Vec<_>>()
        .join("---\n")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let p = e.path();
        let target = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

/// A command line split into words as a POSIX shell would (single and double quotes, backslash
/// in double quotes); `None` when it expands a variable or substitutes a command, whose value only
/// the person running it has.
fn words(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    out.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    w.push(q);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '$' | '`' => return None,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                if !matches!(n, '"' | '\\' | '$' | '`') {
                                    w.push('\\');
                                }
                                w.push(n);
                            }
                        }
                        _ => w.push(q),
                    }
                }
            }
            '$' | '`' | ';' | '|' | '&' | '>' | '<' => return None,
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    Some(out)
}

/// What a command does to the objects, as kubectl would; `Err` with the reason when it cannot be
/// done without the cluster (a controller, Helm, a value from the cluster).
enum Outcome {
    Done,
    /// Only redeploys or restarts: needs a controller, and proves nothing about the cause.
    Restart,
    NotOffline(String),
}

fn flag<'a>(w: &'a [String], names: &[&str]) -> Option<&'a str> {
    let mut i = 0;
    while i < w.len() {
        for n in names {
            if let Some(v) = w[i].strip_prefix(&format!("{n}=")) {
                return Some(v);
            }
            if w[i] == *n {
                return w.get(i + 1).map(String::as_str);
            }
        }
        i += 1;
    }
    None
}

/// The positional words after the verb (flags and their values left out).
fn positional(w: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 2;
    while i < w.len() {
        let a = &w[i];
        if a.starts_with('-') {
            if !a.contains('=') && !a.starts_with("--dry-run") {
                i += 1;
            }
        } else {
            out.push(a.as_str());
        }
        i += 1;
    }
    out
}

fn target<'a>(pos: &[&'a str]) -> Option<(&'a str, &'a str)> {
    match pos {
        [kind_name] => kind_name.split_once('/'),
        [kind, name, ..] => Some((kind, name)),
        _ => None,
    }
}

fn run(objects: &mut Objects, line: &str) -> Result<Outcome, String> {
    if line.starts_with(kubectl_flink::finding::FILL_IN) {
        return Ok(Outcome::NotOffline(
            "the command has a placeholder only a person can fill (FILL_IN)".into(),
        ));
    }
    if line.starts_with("helm ") {
        return Ok(Outcome::NotOffline(
            "a Helm upgrade of the operator's chart, and the operator acting on it".into(),
        ));
    }
    let Some(w) = words(line) else {
        return Ok(Outcome::NotOffline(
            "uses a shell variable or command whose value is read from the cluster when it runs"
                .into(),
        ));
    };
    if w.first().map(String::as_str) != Some("kubectl") {
        return Err(format!("not a kubectl command: {line}"));
    }
    let ns = flag(&w, &["-n", "--namespace"]);
    let pos = positional(&w);
    match w.get(1).map(String::as_str) {
        Some("patch") => {
            let (kind, name) = target(&pos).ok_or("patch: no object")?;
            let patch: Value =
                serde_json::from_str(flag(&w, &["-p", "--patch"]).ok_or("patch: no -p")?)
                    .map_err(|e| format!("patch: -p is not JSON: {e}"))?;
            let restart_only = patch
                == json!({"spec": {"restartNonce": patch.pointer("/spec/restartNonce").cloned().unwrap_or(Value::Null)}});
            let object = objects
                .find(kind, ns, name)
                .ok_or_else(|| format!("{kind}/{name} is not in the bundle"))?;
            match flag(&w, &["--type"]).unwrap_or("strategic") {
                "json" => {
                    let ops: json_patch::Patch = serde_json::from_value(patch)
                        .map_err(|e| format!("not a JSON patch: {e}"))?;
                    json_patch::patch(object, &ops).map_err(|e| format!("JSON patch: {e}"))?;
                }
                "merge" => json_patch::merge(object, &patch),
                // A strategic merge patch with no list and no directive is a JSON merge patch.
                "strategic" if !has_list_or_directive(&patch) => json_patch::merge(object, &patch),
                other => {
                    return Err(format!(
                        "a {other} patch this test cannot apply faithfully: {patch}"
                    ))
                }
            }
            Ok(if restart_only {
                Outcome::Restart
            } else {
                Outcome::Done
            })
        }
        Some("scale") => {
            let (kind, name) = target(&pos).ok_or("scale: no object")?;
            let replicas: i64 = flag(&w, &["--replicas"])
                .and_then(|r| r.parse().ok())
                .ok_or("scale: no --replicas")?;
            let object = objects
                .find(kind, ns, name)
                .ok_or_else(|| format!("{kind}/{name} is not in the bundle"))?;
            object["spec"]["replicas"] = json!(replicas);
            Ok(Outcome::Done)
        }
        Some("create") => match pos.as_slice() {
            ["secret", "docker-registry", name] => {
                objects.create(json!({
                    "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/dockerconfigjson",
                    "metadata": {"name": name, "namespace": ns},
                }))?;
                Ok(Outcome::Done)
            }
            ["role", name] => {
                let verbs: Vec<&str> = flag(&w, &["--verb"]).unwrap_or("").split(',').collect();
                let rules: Vec<Value> = flag(&w, &["--resource"])
                    .unwrap_or("")
                    .split(',')
                    .map(|r| {
                        let (resource, group) = r.split_once('.').unwrap_or((r, ""));
                        json!({"apiGroups": [group], "resources": [resource], "verbs": verbs})
                    })
                    .collect();
                objects.create(json!({
                    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                    "metadata": {"name": name, "namespace": ns}, "rules": rules,
                }))?;
                Ok(Outcome::Done)
            }
            other => Err(format!("kubectl create {other:?}: not handled")),
        },
        Some("rollout") | Some("delete") => Ok(Outcome::Restart),
        // `kubectl replace -f DIR`: a release's files (a chart's crds/, pulled first), not the bundle's.
        Some("replace") if flag(&w, &["-f", "--filename"]).is_some() => Ok(Outcome::NotOffline(
            "kubectl replace -f reads files from outside the bundle (the release's CRDs, pulled first)"
                .into(),
        )),
        Some("set") => Ok(Outcome::NotOffline(
            "kubectl set changes a pod template; a new pod (the kubelet) shows whether it worked"
                .into(),
        )),
        Some(verb) => Err(format!("kubectl {verb}: not handled")),
        None => Err("an empty command".into()),
    }
}

fn has_list_or_directive(v: &Value) -> bool {
    match v {
        Value::Array(_) => true,
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| k.starts_with('$') || has_list_or_directive(v)),
        _ => false,
    }
}

#[test]
fn every_bundle_s_fix_applied_offline_removes_its_causes_and_adds_none() {
    let mut failures = Vec::new();
    let mut not_offline: BTreeSet<String> = BTreeSet::new();
    let (mut roots_with_remedy, mut bundles_fixed) = (0, 0);
    let mut covered: Vec<String> = Vec::new();
    // Rules whose (non-info) findings carry a machine-applicable remedy in some bundle.
    let mut remedy_rules: BTreeSet<String> = BTreeSet::new();
    for bundle in bundles() {
        let name = bundle.file_name().unwrap().to_string_lossy().to_string();
        let before = doctor(&bundle);
        let mut objects = Objects::load(&bundle);
        let mut seen_docs: Vec<String> = Vec::new();
        let mut seen_runs: Vec<String> = Vec::new();
        // Each finding's commands, and whether every one of them could be done offline.
        let mut outcome_of: Vec<(String, Option<String>, bool)> = Vec::new();
        for f in &before {
            let has_remedy = !strings(&f["remedy"]["apply"]).is_empty()
                || !strings(&f["remedy"]["run"]).is_empty();
            if has_remedy && s(f, "/severity") != "info" {
                remedy_rules.insert(s(f, "/rule").to_string());
            }
            let mut why_not: Option<String> = None;
            let mut fixes = false;
            for doc in strings(&f["remedy"]["apply"]) {
                let v: Value = serde_yaml::from_str(&doc).expect("a remedy document parses");
                let id = format!(
                    "{} {}/{}",
                    s(&v, "/kind"),
                    s(&v, "/metadata/namespace"),
                    s(&v, "/metadata/name")
                );
                fixes = true;
                if !seen_docs.contains(&id) {
                    seen_docs.push(id);
                    objects.apply(&v);
                }
            }
            for c in strings(&f["remedy"]["run"]) {
                let first = !seen_runs.contains(&c);
                seen_runs.push(c.clone());
                // A command done twice (two findings print it) is done once, as doctor --fix does.
                let result = if first {
                    run(&mut objects, &c)
                } else {
                    let mut scratch = Objects {
                        files: Vec::new(),
                        created: Vec::new(),
                    };
                    Ok(match run(&mut scratch, &c) {
                        Ok(o) => o,
                        Err(_) => Outcome::Done,
                    })
                };
                match result {
                    Ok(Outcome::Done) => fixes = true,
                    Ok(Outcome::Restart) => {}
                    Ok(Outcome::NotOffline(why)) => {
                        why_not.get_or_insert(why);
                    }
                    Err(e) => failures.push(format!("{name}: `{c}`: {e}")),
                }
            }
            outcome_of.push((key(f), why_not, fixes));
        }
        if seen_docs.is_empty() && seen_runs.is_empty() {
            continue;
        }
        bundles_fixed += 1;
        let tmp = tempfile::tempdir().expect("tmp");
        // KUBECTL_FLINK_KEEP_PATCHED=DIR keeps the patched bundles there, to read them.
        let keep = std::env::var_os("KUBECTL_FLINK_KEEP_PATCHED").map(PathBuf::from);
        let patched = keep.unwrap_or_else(|| tmp.path().to_path_buf()).join(&name);
        objects.write(&bundle, &patched);
        let after = doctor(&patched);
        let keys_before: BTreeSet<String> = before.iter().map(key).collect();
        for f in &after {
            if s(f, "/severity") != "info" && !keys_before.contains(&key(f)) {
                failures.push(format!("{name}: a new finding after the fix: {}", key(f)));
            }
        }
        for (f, (k, why_not, fixes)) in before.iter().zip(&outcome_of) {
            let root = f["causedBy"].is_null() && s(f, "/severity") != "info";
            if !root || f["remedy"].is_null() {
                continue;
            }
            roots_with_remedy += 1;
            let still: Vec<&Value> = after
                .iter()
                .filter(|a| key(a) == *k && s(a, "/severity") != "info")
                .collect();
            let repeated = after.iter().any(|a| key(a) == *k && a["fix"] == f["fix"]);
            if let Some(why) = why_not {
                not_offline.insert(format!("{name} {k}: {why}"));
                continue;
            }
            if !fixes {
                not_offline.insert(format!(
                    "{name} {k}: the remedy only redeploys; the cause is fixed by hand"
                ));
                continue;
            }
            if still.is_empty() && !repeated {
                covered.push(format!("{name} {k}"));
            } else {
                not_offline.insert(format!(
                    "{name} {k}: still reported after its fix was applied{}",
                    if repeated { " (with the same fix)" } else { "" }
                ));
            }
        }
    }
    eprintln!(
        "offline fix round trip: {bundles_fixed} bundles patched; {} of {roots_with_remedy} root causes with a remedy gone or waiting for a rollout:\n  {}\n{} not covered:\n  {}",
        covered.len(),
        covered.join("\n  "),
        not_offline.len(),
        not_offline.iter().cloned().collect::<Vec<_>>().join("\n  ")
    );
    // The figures, measured: registered rules, those with a machine-applicable fix in some
    // bundle, and those of which a root cause is covered by this round trip.
    let covered_rules: BTreeSet<&str> =
        covered.iter().filter_map(|c| c.split(' ').nth(1)).collect();
    let join = |set: &mut dyn Iterator<Item = &str>| set.collect::<Vec<_>>().join(" ");
    eprintln!(
        "rules: {} registered; {} with a machine-applicable fix in some bundle: {}\n\
         {} of them with a root cause the offline round trip covers: {}",
        kubectl_flink::rules::RULES.len(),
        remedy_rules.len(),
        join(&mut remedy_rules.iter().map(String::as_str)),
        covered_rules.len(),
        join(&mut covered_rules.iter().copied()),
    );
    let expected: BTreeSet<&str> = NOT_COVERED.iter().map(|(k, _)| *k).collect();
    let found: BTreeSet<&str> = not_offline
        .iter()
        .map(|l| l.split(": ").next().unwrap_or(l))
        .collect();
    for k in found.difference(&expected) {
        failures.push(format!("not covered, and not in NOT_COVERED: {k}"));
    }
    for k in expected.difference(&found) {
        failures.push(format!(
            "covered now (or gone): take it out of NOT_COVERED: {k}"
        ));
    }
    assert!(!covered.is_empty(), "no fix removed anything");
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

//! FLK103: a Flink process died with one of Flink's own exit codes.
//!
//! - 239 (`-17 & 0xFF`): `FatalExitExceptionHandler` (`System.exit(-17)`) after an uncaught
//!   exception in any thread, or `JvmShutdownSafeguard` (`Runtime.halt(-17)`) when the shutdown
//!   after a fatal error (`ClusterEntrypoint.onFatalError` calls `System.exit(2)`) does not finish
//!   within 5 s: what a real Flink 1.20.1 JobManager refused a pod list did, 3 runs of 3;
//! - 1: `ClusterEntrypoint` / `TaskManagerRunner` could not start;
//! - 2: a fatal error at runtime (`ClusterEntrypoint.onFatalError`, `TaskManagerRunner.terminateJVM`);
//! - 163 / 165: the entrypoint terminated with `ApplicationStatus.FAILED` (1443) / `UNKNOWN` (1445),
//!   of which the container sees the low byte.
//!
//! A symptom: the exit is how the process ends, the cause is in the lines logged before it. The
//! finding quotes them (through the signature catalogue) and links the container, so a cause found
//! elsewhere (a 403 for the ServiceAccount, FLK501; an OutOfMemoryError, FLK109) folds it in.
//!
//! An application that failed without an exit: the operator keeps the JobManager up after its
//! application ends (`execution.shutdown-on-application-finish: false`,
//! apache/flink-kubernetes-operator@release-1.10.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/config/FlinkConfigBuilder.java),
//! and Flink logs `Application FAILED: ` with the failure (`LOG.info("Application {}: ", ...)`,
//! apache/flink@release-1.20.1:flink-clients/src/main/java/org/apache/flink/client/deployment/application/ApplicationDispatcherBootstrap.java).
//! The operator's status names that failure once it has observed it, except where operator 1.10.0
//! cannot observe the ended job (FLINK-37370, `support::ended_job::unobserved`): until then, or
//! then, the JobManager's log is the only place the cause is, and a specific cause it names is
//! reported here.
//!

use super::support::containers::{
    component_title, handled_here, logs_command, one_line, pod_verify, state_line,
    termination_line, with_category, LogEvidence,
};
use super::support::ended_job;
use super::support::java_opts::{self, OptsEdit};
use super::support::named_option;
use super::support::pod_status::{containers, ContainerView};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};

use crate::flink::mode::Component;
use crate::snapshot::flink::FlinkDeployment;
use crate::snapshot::index::{pod_component, pod_name, pod_namespace, pod_service_account};
use crate::snapshot::pod::ContainerStateTerminated;
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};

pub struct FlinkFatalExit;

static META: RuleMeta = RuleMeta {
    id: "FLK103",
    name: "flink_fatal_exit",
    summary: "a Flink process died through its fatal-error path (exit codes 239, 1, 2); reported as the cause its log names when no other rule reports it, else a symptom",
    category: Category::FlinkFatalExit,
    severity: Severity::Critical,
    explains: &["FLK401"],
    fix: r#"this is how Flink stops, not why: fix the error it logged before exiting (the first `Caused by:`, or the finding listed as its cause)"#,
    verify: r#"kubectl get pods -l component=jobmanager   # expect Running, with no new restarts"#,
};

impl Rule for FlinkFatalExit {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_each(&self, snapshot: &Snapshot, index: &Index, each: &mut dyn FnMut(Finding)) {
        for pod in &snapshot.pods {
            // A FlinkCluster's job submitter is not a Flink process: FLK412 reports it.
            if crate::snapshot::index::is_flinkcluster_submitter(&pod.metadata) {
                continue;
            }
            for c in containers(pod) {
                if !handled_here(&c) {
                    if let Some(f) = application_failed(snapshot, index, pod, &c) {
                        each(f);
                    }
                    continue;
                }
                if let Some(t) = c.last_termination() {
                    let exit = finding(snapshot, index, pod, &c, t);
                    // The instance running now failed otherwise, on a cause its own log names
                    // (its application FAILED): that is the fault to fix now, and the earlier
                    // exit is history (its cause was fixed, or this one hides it).
                    match application_failed(snapshot, index, pod, &c) {
                        Some(now) => {
                            each(now);
                            each(exit.severity(Severity::Info).evidence(
                                "the instance running now started after this exit and failed otherwise (the finding on its application): this exit is history",
                            ));
                        }
                        None => each(exit),
                    }
                }
            }
        }
    }
}

fn finding(
    snapshot: &Snapshot,
    index: &Index,
    pod: &Pod,
    c: &ContainerView,
    t: &ContainerStateTerminated,
) -> Finding {
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let code = t.exit_code;
    let current_is_terminated = c
        .status
        .state
        .as_ref()
        .is_some_and(|s| s.terminated.is_some());
    let logs = LogEvidence::read(snapshot, ns, name, c.name(), !current_is_terminated);
    let meaning = exit_meaning(code, &logs);
    let who = component_title(pod, c);
    let running_again = c.status.ready && c.waiting_reason().is_none();
    // The title says what happened; how Flink got there is evidence, for whoever reads on.
    let plainly = crate::flink::exit::short_meaning(code.into())
        .unwrap_or("an exit code Flink does not define");
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!("{who} exited: exit code {code}, {plainly}"),
    )
    .deployment(index.deployment_of_pod(pod))
    .evidence(format!("exit code {code}: {meaning}"))
    .evidence(termination_line(c, t))
    .evidence(state_line(c))
    .link(link::container(ns, name, c.name()));
    if running_again {
        // An earlier instance died; the current one runs. Still worth knowing, less urgent; and
        // history once the operator reports the deployment up with its job running (the cause
        // was fixed under the same pod: a Role granted, say, after which Flink restarted it).
        match recovered(index, pod) {
            Some(up) => f = f.severity(Severity::Info).evidence(up),
            None => f = f.severity(Severity::Warning),
        }
    }
    if let Some(msg) = t.message.as_deref().filter(|m| !m.trim().is_empty()) {
        f = f.evidence(format!("terminated.message: {}", one_line(msg)));
    }
    // A bundle with only the log of the instance running now (`kubectl cluster-info dump` keeps
    // no previous logs): unless that log names a cause too, its lines say nothing of the exit.
    let running_now = c.status.state.as_ref().is_some_and(|s| s.running.is_some());
    let exited_log_missing = running_now && logs.previous == Some(false) && logs.root().is_none();
    if exited_log_missing {
        f = f.evidence(format!(
            "no log of the instance that exited: the snapshot holds only the log of the instance running now (`kubectl logs {name} -n {ns} -c {} --previous` shows why it exited)",
            crate::shell::sh(c.name())
        ));
    } else {
        for line in logs.lines() {
            f = f.evidence(line);
        }
    }
    let read_previous = exited_log_missing || logs.previous.unwrap_or(!current_is_terminated);
    let cmd = logs_command(ns, name, c.name(), read_previous);
    // The log names a specific cause that no other rule reports (a missing plugin or jar, a bad
    // memory setting): this finding is that cause, not just the exit.
    if let Some(m) = logs.root().filter(|m| named_here(m.signature.category)) {
        f = with_category(f, m.signature.category);
        f.title = format!("{}: {}", f.title, m.title());
    }
    // Or the error Flink stopped on quotes the value of an option the deployment sets: that
    // option is the cause.
    if let Some((_, named_option::NamedOption { key, value, .. })) = logs
        .unnamed_cause
        .as_ref()
        .and_then(|(_, cause)| option_it_names(index, pod, cause))
    {
        f = with_category(f, Category::ConfigOptionInvalid);
        f.title = format!(
            "{}: Flink refuses flinkConfiguration {key} ({value})",
            f.title
        );
    }
    // What the line does not say, the pod does: a refusal without its subject (fabric8's
    // websocket 403) is the pod's own ServiceAccount's, in the pod's namespace (the planner needs
    // it to grant the whole set rather than the one verb); a plugin's jar is named by the version
    // the log's banner printed.
    let root = logs.root().map(|m| {
        m.clone().knowing([
            ("namespace", ns),
            ("pod_namespace", ns),
            ("pod", name),
            ("container", c.name()),
            ("sa", pod_service_account(pod)),
            ("flink_version", logs.flink_version.as_deref().unwrap_or("")),
        ])
    });
    if let Some(m) = &root {
        for e in refused_options(index, pod, m).1 {
            f = f.evidence(format!(
                "flinkConfiguration {}: {} is the option the JVM refused",
                e.key,
                e.removed.join(" ")
            ));
        }
    }
    if let Some((n, cause)) = &logs.unnamed_cause {
        f = f.evidence(format!(
            "log line {n}, the deepest cause of that error: {cause}"
        ));
    }
    let fix = match root {
        Some(m) => format!(
            "The exit is the symptom; the log names the cause at line {}: {}.\n{}{}{}{}{}\n\n\
             Read the lines around it:\n\n  {cmd} | sed -n '{},{}p'",
            m.line_no,
            m.signature.explanation,
            match &logs.unnamed_cause {
                Some((n, cause)) => format!(
                    "The error it stops on was caused, at its deepest (line {n}), by:\n\n  {cause}\n\n\
                     Fix what that names (a configuration value, a class, a file, a service it reaches); "
                ),
                None => String::new(),
            },
            if !reported_elsewhere(m.signature.category) {
                m.fix()
            } else {
                // One fix per cause: the rule that reports it as its own finding gives it.
                format!(
                    "That cause is reported as a finding of its own (category {}); apply the fix \
                     given there, and this exit stops with it.{}",
                    m.signature.category,
                    if running_again {
                        " The instance running now started after this exit: when no such finding \
                         is listed, the cause was fixed since, and this exit is history."
                    } else {
                        ""
                    }
                )
            },
            set_the_field(index, pod, &m),
            open_the_module(index, pod, &m),
            logs.unnamed_cause
                .as_ref()
                .map(|(_, cause)| the_value_it_names(index, pod, cause))
                .unwrap_or_default(),
            m.line_no.saturating_sub(5).max(1),
            logs.unnamed_cause
                .as_ref()
                .map_or(m.line_no + 20, |(n, _)| (*n + 5).max(m.line_no + 20))
        ),
        None => format!(
            "The cause is in the container's {} log, in the lines just before the exit \
             (the last `Caused by:` is usually the root cause):\n\n  \
             {cmd} | grep -n -E -B 5 -A 30 'FATAL|Fatal error|Could not start|Caused by|Exception'\n\n\
             Fix the first error it shows; the container then stays up.",
            if read_previous { "previous" } else { "last" }
        ),
    };
    f.fix(fix).verify(pod_verify(pod, c.name()))
}

/// A running JobManager whose application FAILED while its FlinkDeployment's status cannot say
/// why (the module's comment): the cause its current log names, when a specific one.
fn application_failed(
    snapshot: &Snapshot,
    index: &Index,
    pod: &Pod,
    c: &ContainerView,
) -> Option<Finding> {
    if c.init
        || pod_component(pod) != Some(Component::JobManager)
        || c.status.state.as_ref().is_none_or(|s| s.running.is_none())
    {
        return None;
    }
    let (ns, name) = (pod_namespace(pod), pod_name(pod));
    let d = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")?;
    let fd = index.flink_deployment(ns, &d.name)?;
    // The status names the failure itself once the operator has observed it (FLK401 reports
    // it then), except when it cannot observe the ended job.
    let error = fd.status.as_ref().and_then(|s| s.error.as_deref());
    if error.is_some_and(|e| !e.trim().is_empty() && !ended_job::unobserved(e)) {
        return None;
    }
    let text = snapshot.log(ns, name, c.name(), false)?;
    let failed = text.lines().position(|l| {
        l.contains("ApplicationDispatcherBootstrap") && l.contains("Application FAILED")
    })? + 1;
    let logs = LogEvidence::read(snapshot, ns, name, c.name(), false);
    let m = logs
        .root()
        .filter(|m| named_here(m.signature.category) && m.line_no >= failed)?
        .clone()
        .knowing([
            ("namespace", ns),
            ("pod_namespace", ns),
            ("pod", name),
            ("container", c.name()),
            ("sa", pod_service_account(pod)),
            ("flink_version", logs.flink_version.as_deref().unwrap_or("")),
        ]);
    let who = component_title(pod, c);
    let mut f = Finding::new(
        &META,
        ObjectRef::namespaced("Pod", ns, name),
        format!("{who}'s application FAILED: {}", m.title()),
    )
    .deployment(Some(d.clone()))
    .evidence(format!(
        "line {failed} of the running container's log: the application FAILED (ApplicationDispatcherBootstrap); the JobManager stays up, as the operator configures it"
    ))
    .evidence(state_line(c))
    .link(link::container(ns, name, c.name()));
    f = with_category(f, m.signature.category);
    for line in logs.lines() {
        f = f.evidence(line);
    }
    let cmd = logs_command(ns, name, c.name(), false);
    let fix = format!(
        "The log names the cause at line {}: {}.\n{}{}{}\n{}\n\
         Read the lines around it:\n\n  {cmd} | sed -n '{},{}p'",
        m.line_no,
        m.signature.explanation,
        m.fix(),
        set_the_field(index, pod, &m),
        open_the_module(index, pod, &m),
        ended_job::redeploy(snapshot, ns, &d.name),
        m.line_no.saturating_sub(5).max(1),
        m.line_no + 20
    );
    let verify = format!(
        "kubectl get flinkdeployment {} -n {} -o jsonpath='{{.status.jobStatus.state}}{{\"\\n\"}}'   # expect RUNNING",
        crate::shell::sh(&d.name),
        crate::shell::sh(ns)
    );
    Some(f.fix(fix).verify(verify))
}

/// `Some(evidence)` when the pod's FlinkDeployment is up since: the operator reports the JobManager
/// deployment READY and the resource STABLE, with its job (if it has one) RUNNING
/// (`JobManagerDeploymentStatus`, `ResourceLifecycleState`: apache/flink-kubernetes-operator@
/// release-1.7.0:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/
/// status/JobManagerDeploymentStatus.java and lifecycle/ResourceLifecycleState.java).
fn recovered(index: &Index, pod: &Pod) -> Option<String> {
    let d = index.deployment_of_pod(pod)?;
    if d.kind == crate::flink::names::KIND_NATIVE_CLUSTER {
        return native_recovered(index, &d);
    }
    if d.kind != "FlinkDeployment" {
        return None;
    }
    let ns = d.namespace.as_deref().unwrap_or("default");
    let fd = index.flink_deployment(ns, &d.name)?;
    let st = fd.status.as_ref()?;
    let job = st.job_status.as_ref().and_then(|j| j.state.as_deref());
    let up = st.job_manager_deployment_status.as_deref() == Some("READY")
        && st.lifecycle_state.as_deref() == Some("STABLE")
        && (fd.spec.job.is_none() || job == Some("RUNNING"));
    up.then(|| {
        format!(
            "FlinkDeployment {}: jobManagerDeploymentStatus READY, lifecycleState STABLE{}: the instance running now came up after the exit, which is history",
            d.name,
            job.map(|j| format!(", job {j}")).unwrap_or_default()
        )
    })
}

/// A plain native cluster has no status that says it is up; its objects do: the JobManager
/// Deployment has all its replicas ready, and every TaskManager pod Flink made (at least one: they
/// exist only once the JobManager runs and asked for them) runs with all its containers ready.
fn native_recovered(index: &Index, d: &ObjectRef) -> Option<String> {
    let ns = d.namespace.as_deref().unwrap_or("default");
    let (wanted, ready) =
        crate::snapshot::index::deployment_replicas(index.k8s_deployment(ns, &d.name)?);
    if wanted < 1 || ready < wanted {
        return None;
    }
    let pods = index.pods_of_ref(d);
    let up = |p: &&Pod| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
            && containers(p).iter().all(|c| c.init || c.status.ready)
    };
    let tms: Vec<&Pod> = pods
        .iter()
        .copied()
        .filter(|p| pod_component(p) == Some(Component::TaskManager))
        .collect();
    if tms.is_empty() || !tms.iter().all(up) {
        return None;
    }
    Some(format!(
        "native cluster {}: JobManager Deployment {ready}/{wanted} ready, {} TaskManager pod(s) running and ready: the instance running now came up after the exit, which is history",
        d.name,
        tms.len()
    ))
}

/// The field of the pod's FlinkDeployment that holds what the log names, as a command: the
/// refused JVM option's `env.java.opts*` keys, or the jar or entry class.
fn set_the_field(index: &Index, pod: &Pod, m: &crate::signatures::Match) -> String {
    let (fd_name, edits) = refused_options(index, pod, m);
    match fd_name {
        Some((name, ns)) if !edits.is_empty() => format!(
            "\n\nThe option is in spec.flinkConfiguration of FlinkDeployment {name} ({}). This merge \
             patch removes it and keeps the other options (or write the option as this Java \
             release spells it):\n\n  kubectl patch flinkdeployment {} -n {} --type=merge -p {}",
            java_opts::describe(&edits),
            crate::shell::sh(&name),
            crate::shell::sh(&ns),
            crate::shell::sh(&java_opts::merge_patch(&edits)),
        ),
        _ => [
            set_the_jar(index, pod, m.signature.category),
            enable_the_plugin(index, pod, m),
            restore_from(index, pod, m),
        ]
        .concat(),
    }
}

/// The pod's FlinkDeployment, with its namespace, when the pod belongs to one.
fn flink_deployment_of<'a>(
    index: &'a Index,
    pod: &Pod,
) -> Option<(&'a crate::snapshot::FlinkDeployment, String)> {
    let d = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")?;
    let ns = d.namespace.as_deref().unwrap_or("default").to_string();
    let fd = index.flink_deployment(&ns, &d.name)?;
    Some((fd, ns))
}

/// For a scheme whose plugin is not enabled (SIG-FS-SCHEME-UNSUPPORTED names the scheme, the
/// catalogue the plugin), the jar added to `ENABLE_BUILT_IN_PLUGINS` of the JobManager and the
/// TaskManagers through flinkConfiguration's `containerized.master.env.*` and
/// `containerized.taskmanager.env.*` (a merge patch of a map, so nothing else in the spec is
/// replaced, as a patch of the pod template's container list would be), after the jars already
/// named there. Flink sets each key under those prefixes as an environment variable of the
/// JobManager / TaskManager containers (ResourceManagerOptions.CONTAINERIZED_MASTER_ENV_PREFIX,
/// CONTAINERIZED_TASK_MANAGER_ENV_PREFIX: apache/flink@release-1.16.0 and @release-1.20.1:
/// flink-core/src/main/java/org/apache/flink/configuration/ResourceManagerOptions.java, read by
/// flink-kubernetes/.../parameters/KubernetesJobManagerParameters.java#getEnvironments), and the
/// official image's entrypoint links each named jar from /opt/flink/opt into /opt/flink/plugins
/// (apache/flink-docker@0ac313e39fda:docker-entrypoint.sh). The jar carries the Flink version the
/// log's banner printed, else the image tag's, else a placeholder.
fn enable_the_plugin(index: &Index, pod: &Pod, m: &crate::signatures::Match) -> String {
    const KEYS: [&str; 2] = [
        "containerized.master.env.ENABLE_BUILT_IN_PLUGINS",
        "containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS",
    ];
    if m.signature.category != Category::FilesystemPluginMissing {
        return String::new();
    }
    let Some((fd, ns)) = flink_deployment_of(index, pod) else {
        return String::new();
    };
    let Some(plugin) = m.field("plugin") else {
        return hadoop_classpath(fd, &ns, m);
    };
    let version = m
        .field("flink_version")
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .or_else(|| fd.spec.image.as_deref().and_then(image_release));
    let jar = format!(
        "{plugin}-{}.jar",
        version.as_deref().unwrap_or("<flink-version>")
    );
    let conf = &fd.spec.flink_configuration;
    let mut patch = serde_json::Map::new();
    let mut was = Vec::new();
    for key in KEYS {
        let old = conf.get(key).map(|v| v.trim()).unwrap_or("");
        let mut jars: Vec<&str> = old
            .split(';')
            .map(str::trim)
            .filter(|j| !j.is_empty())
            .collect();
        if jars.iter().any(|j| j.starts_with(plugin)) {
            continue;
        }
        if !old.is_empty() {
            was.push(format!("{key} is {old} now"));
        }
        jars.push(&jar);
        patch.insert(key.to_string(), jars.join(";").into());
    }
    if patch.is_empty() {
        return String::new();
    }
    let patch = serde_json::json!({"spec": {"flinkConfiguration": patch}}).to_string();
    format!(
        "\n\nThe variable goes to the JobManager and the TaskManagers through spec.flinkConfiguration of \
         FlinkDeployment {name}{was}{fill}:\n\n  kubectl patch flinkdeployment {name} -n {ns_q} --type=merge -p {patch}",
        name = crate::shell::sh(fd.name()),
        ns_q = crate::shell::sh(&ns),
        was = if was.is_empty() {
            String::new()
        } else {
            format!(" ({}; the jar is added after those)", was.join(", "))
        },
        fill = if version.is_none() {
            ": fill in <flink-version>, the image's Flink version (only the image knows it)"
        } else {
            ""
        },
        patch = crate::shell::sh(&patch),
    )
}

/// A scheme only Hadoop serves (hdfs://, or Hadoop missing altogether): Flink ships no plugin for
/// it, and finds Hadoop through `HADOOP_CLASSPATH` (apache/flink@release-1.20.1:flink-dist/src/
/// main/flink-bin/bin/config.sh, `INTERNAL_HADOOP_CLASSPATHS`), which the image must hold the jars
/// of. The variable for both components through flinkConfiguration, with the placeholder for the
/// classpath only the image knows.
fn hadoop_classpath(
    fd: &crate::snapshot::FlinkDeployment,
    ns: &str,
    m: &crate::signatures::Match,
) -> String {
    let scheme = m.field("scheme").unwrap_or("hdfs");
    if !matches!(scheme, "hdfs" | "viewfs" | "har" | "webhdfs")
        && m.signature.id != "SIG-FS-HADOOP-MISSING"
    {
        return String::new();
    }
    let placeholder = "<classpath of the Hadoop jars in the image>";
    let patch = serde_json::json!({"spec": {"flinkConfiguration": {
        "containerized.master.env.HADOOP_CLASSPATH": placeholder,
        "containerized.taskmanager.env.HADOOP_CLASSPATH": placeholder,
    }}})
    .to_string();
    format!(
        "\n\nThe variable goes to the JobManager and the TaskManagers through spec.flinkConfiguration of \
         FlinkDeployment {name} (image {image}): fill in {placeholder}, what `hadoop classpath` prints in \
         an image that has Hadoop (only the image knows it), and run:\n\n  \
         kubectl patch flinkdeployment {name} -n {ns_q} --type=merge -p {patch}",
        name = crate::shell::sh(fd.name()),
        image = fd.spec.image.as_deref().unwrap_or("not set"),
        ns_q = crate::shell::sh(ns),
        patch = crate::shell::sh(&patch),
    )
}

/// The Flink release of an image tag that names all three numbers (`flink:1.18.1-java17` ->
/// `1.18.1`); a tag of two (`flink:1.18`) does not say which jar the image ships.
fn image_release(image: &str) -> Option<String> {
    let tag = image.rsplit_once(':')?.1;
    let nums: Vec<&str> = tag.split('-').next()?.split('.').collect();
    (nums.len() == 3
        && nums
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
    .then(|| nums.join("."))
}

/// For a savepoint or checkpoint that is not there (SIG-SAVEPOINT-NOT-FOUND names the path), where
/// that path comes from and the field that takes another: spec.job.initialSavepointPath of the
/// pod's FlinkDeployment, with a placeholder for the person who knows which savepoint exists.
fn restore_from(index: &Index, pod: &Pod, m: &crate::signatures::Match) -> String {
    if m.signature.id != "SIG-SAVEPOINT-NOT-FOUND" {
        return String::new();
    }
    let Some(path) = m.field("path").or_else(|| m.field("path_2")) else {
        return String::new();
    };
    let Some((fd, ns)) = flink_deployment_of(index, pod) else {
        return String::new();
    };
    let Some(job) = fd.spec.job.as_ref() else {
        return String::new();
    };
    let same = |a: &str| a.trim_end_matches('/') == path.trim_end_matches('/');
    let whence = match job.initial_savepoint_path.as_deref() {
        Some(p) if same(p) => format!("spec.job.initialSavepointPath is {path} now, the path that does not exist"),
        Some(p) => format!(
            "{path} is not spec.job.initialSavepointPath ({p}): the operator restores from the last savepoint or checkpoint it recorded in the status, which is gone; spec.job.initialSavepointPath names one that exists"
        ),
        None => format!(
            "{path} is not in the spec: the operator restores from the last savepoint or checkpoint it recorded in the status, which is gone; spec.job.initialSavepointPath names one that exists"
        ),
    };
    format!(
        "\n\n{whence}. The field to set is spec.job.initialSavepointPath of FlinkDeployment {name}: fill in \
         the path of a savepoint or retained checkpoint that exists (only you know it; with no state to \
         keep, remove the field instead: null) and run:\n\n  \
         kubectl patch flinkdeployment {name} -n {ns_q} --type=merge -p '{{\"spec\":{{\"job\":{{\"initialSavepointPath\":\"<spec.job.initialSavepointPath>\"}}}}}}'",
        name = crate::shell::sh(fd.name()),
        ns_q = crate::shell::sh(&ns),
    )
}

/// For a JVM option the log says was refused, the pod's FlinkDeployment (name, namespace) and the
/// `env.java.opts*` keys of the pod's component that hold it.
fn refused_options(
    index: &Index,
    pod: &Pod,
    m: &crate::signatures::Match,
) -> (Option<(String, String)>, Vec<OptsEdit>) {
    let none = (None, Vec::new());
    let Some(option) = m
        .field("option")
        .filter(|_| m.signature.id == "SIG-JVM-OPTION-REFUSED")
    else {
        return none;
    };
    let Some(component) = pod_component(pod).filter(|c| *c != Component::Operator) else {
        return none;
    };
    let Some(d) = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")
    else {
        return none;
    };
    let ns = d.namespace.as_deref().unwrap_or("default");
    let Some(fd) = index.flink_deployment(ns, &d.name) else {
        return none;
    };
    let edits = java_opts::find(&fd.spec.flink_configuration, component.as_str(), |t| {
        java_opts::is_named_option(t, option)
    });
    (Some((d.name.clone(), ns.to_string())), edits)
}

/// For a jar Flink could not find, or an entry class it could not load, the one field that says
/// which, as a command with a placeholder for the person who knows (FILL_IN in `--fix=run`):
/// `spec.job.jarURI` or `spec.job.entryClass` of the FlinkDeployment the pod belongs to, when it
/// runs a job.
fn set_the_jar(index: &Index, pod: &Pod, category: Category) -> String {
    let (field, what) = match category {
        Category::JobJarNotFound => ("jarURI", "the jar's URI"),
        Category::JobEntryClassError => ("entryClass", "the fully qualified main class in the jar"),
        _ => return String::new(),
    };
    let Some(d) = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")
    else {
        return String::new();
    };
    let ns = d.namespace.as_deref().unwrap_or("default");
    if index
        .flink_deployment(ns, &d.name)
        .is_none_or(|fd| fd.spec.job.is_none())
    {
        return String::new();
    }
    format!(
        "\n\nThe field to set is spec.job.{field} of FlinkDeployment {name}: fill in {what} (only you know it) \
         and run:\n\n  kubectl patch flinkdeployment {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"{field}\":\"<spec.job.{field}>\"}}}}}}'",
        name = crate::shell::sh(&d.name),
        ns = crate::shell::sh(ns),
    )
}

/// For a package Java refused Flink, the option that opens it in the pod's FlinkDeployment
/// (`java_opts::open_the_module`).
fn open_the_module(index: &Index, pod: &Pod, m: &crate::signatures::Match) -> String {
    let Some(d) = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")
    else {
        return String::new();
    };
    let ns = d.namespace.as_deref().unwrap_or("default");
    index
        .flink_deployment(ns, &d.name)
        .map(|fd| java_opts::open_the_module(fd, ns, m))
        .unwrap_or_default()
}

/// When the error a Flink process stopped on names an option the pod's FlinkDeployment sets in
/// spec.flinkConfiguration (`Unknown restart strategy sometimes.` for `restart-strategy.type:
/// sometimes`): that option, and the patch that removes it so Flink takes its default, for a
/// person who knows no better value (`support::named_option`).
fn the_value_it_names(index: &Index, pod: &Pod, cause: &str) -> String {
    option_it_names(index, pod, cause)
        .map(|(fd, o)| format!("\n\n{}", named_option::remove_it(fd, &o)))
        .unwrap_or_default()
}

/// The FlinkDeployment of the pod and the one spec.flinkConfiguration option the error names.
fn option_it_names<'a>(
    index: &Index<'a>,
    pod: &Pod,
    cause: &str,
) -> Option<(&'a FlinkDeployment, named_option::NamedOption)> {
    let d = index
        .deployment_of_pod(pod)
        .filter(|d| d.kind == "FlinkDeployment")?;
    let ns = d.namespace.as_deref().unwrap_or("default");
    let fd = index.flink_deployment(ns, &d.name)?;
    named_option::named_option(fd, cause).map(|o| (fd, o))
}

/// What the exit code means, narrowed by the log where it tells which of Flink's exits it was.
/// 239 (-17) after `Fatal error occurred in the cluster entrypoint` with no uncaught-exception
/// handler line is ClusterEntrypoint.onFatalError's System.exit(2) whose shutdown hooks did not
/// finish, so JvmShutdownSafeguard halted the JVM: what real Flink 1.18.1 and 1.20.1 JobManagers
/// refused a pod list or watch did in the reality lab (3 of 3 runs each).
fn exit_meaning(code: i32, logs: &LogEvidence) -> &'static str {
    let saw = |id: &str| logs.matches.iter().any(|m| m.signature.id == id);
    if code == 239 && saw("SIG-ENTRYPOINT-FATAL") && !saw("SIG-FATAL-THREAD") {
        return "the cluster entrypoint's fatal-error exit (System.exit(2)) did not finish its shutdown in time, and JvmShutdownSafeguard halted the JVM with -17";
    }
    crate::flink::exit::meaning(code.into()).unwrap_or("an exit code Flink does not define")
}

/// Whether FLK103 reports a cause its log names under that cause's category: a specific one that
/// no other rule reports from the same log or pod (those rules explain FLK103 instead: FLK501 the
/// 403s, FLK109 OutOfMemoryError, FLK107 OOMKilled, FLK301/302 and FLK502 what the configuration
/// and ServiceAccount already show).
fn named_here(category: Category) -> bool {
    !category.is_symptom() && !reported_elsewhere(category)
}

/// The causes another rule reports as a finding of its own (the 403 and account rules, OOM, HA):
/// this exit points at that finding instead of repeating its fix. Any other line the log names,
/// its exit's own category included (a JVM option refused), is fixed here.
fn reported_elsewhere(category: Category) -> bool {
    matches!(
        category,
        Category::RbacForbidden
            | Category::DefaultServiceAccount
            | Category::SaTokenUnreadable
            | Category::JvmOutOfMemory
            | Category::OomKilled
            | Category::HaMisconfigured
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, scenario, snapshot, with_log, HEALTHY, HEALTHY_SCENARIOS};

    const JM_239: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8f9c7b6d-x7k2p
  namespace: analytics
  labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}
spec:
  serviceAccountName: default
  containers:
  - {name: flink-main-container, image: "flink:1.20", args: [kubernetes-jobmanager.sh, kubernetes-application]}
status:
  phase: Running
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 6
    state: {waiting: {reason: CrashLoopBackOff, message: "back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)"}}
    lastState: {terminated: {exitCode: 239, reason: Error, finishedAt: "2026-11-28T09:39:13Z"}}
"#;

    const LOG_403: &str = "2026-11-28 09:39:11,511 INFO  ActiveResourceManager [] - Starting the resource manager.
2026-11-28 09:39:12,034 WARN  Fabric8FlinkKubeClient [] - Error while watching the pods
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User \"system:serviceaccount:analytics:default\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\".
2026-11-28 09:39:13,301 ERROR ActiveResourceManager [] - Fatal error occurred in ResourceManager.
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...
";

    /// FLK103's one finding on the JobManager pod `pod` (JM_239 or a variant) with `log` as its
    /// previous (or current) log.
    fn jm_finding(pod: &str, previous: bool, log: &str) -> Finding {
        let s = with_log(
            snapshot(pod),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            previous,
            log,
        );
        run(&FlinkFatalExit, &s).remove(0)
    }

    /// A held-out lab fault (Flink 1.18.1): `restart-strategy.type: sometimes`. The JobManager
    /// stops on `Fatal error occurred in the cluster entrypoint`, which says how, not why; the
    /// deepest `Caused by:` of its exception, which no signature knows, is what to fix.
    #[test]
    fn an_exit_whose_cause_no_signature_knows_quotes_the_deepest_caused_by() {
        let log = "2026-12-06 03:16:46,840 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Shutting down.
2026-12-06 03:16:46,850 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.
java.util.concurrent.CompletionException: org.apache.flink.client.deployment.application.ApplicationExecutionException: Could not execute application.
\tat java.util.concurrent.CompletableFuture.encodeThrowable(CompletableFuture.java:332) ~[?:?]
Caused by: org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: Unknown restart strategy sometimes.
\tat org.apache.flink.client.program.PackagedProgram.callMainMethod(PackagedProgram.java:372) ~[flink-dist-1.18.1.jar:1.18.1]
\t... 12 more
Caused by: java.lang.IllegalArgumentException: Unknown restart strategy sometimes.
\tat org.apache.flink.runtime.executiongraph.failover.flip1.RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategyFactory(RestartBackoffTimeStrategyFactoryLoader.java:180) ~[flink-dist-1.18.1.jar:1.18.1]
\t... 20 more
2026-12-06 03:16:46,900 INFO  org.apache.flink.runtime.blob.BlobServer [] - Stopped BLOB server at 0.0.0.0:6124
";
        let f = jm_finding(&JM_239.replace("exitCode: 239", "exitCode: 2"), true, log);
        assert!(
            f.fix.contains("caused, at its deepest (line 8), by:\n\n  Caused by: java.lang.IllegalArgumentException: Unknown restart strategy sometimes."),
            "{}",
            f.fix
        );
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("log line 8, the deepest cause")),
            "{:?}",
            f.evidence
        ); // The FlinkDeployment sets the value the error quotes: that option, and its removal.
        let fd = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: orders, namespace: analytics}\nspec:\n  flinkConfiguration: {restart-strategy.type: sometimes, taskmanager.numberOfTaskSlots: '1'}\n  job: {jarURI: 'local:///opt/flink/usrlib/lab-job.jar'}\n";
        let with_fd = format!(
            "{}\n---\n{fd}",
            JM_239.replace("exitCode: 239", "exitCode: 2")
        );
        let f = jm_finding(&with_fd, true, log);
        assert_eq!(
            crate::finding::Remedy::from_fix(&f.fix).run,
            vec![r#"kubectl patch flinkdeployment orders -n analytics --type=json -p '[{"op":"remove","path":"/spec/flinkConfiguration/restart-strategy.type"}]'"#.to_string()],
            "{}",
            f.fix
        );
        assert_eq!(f.category, Category::ConfigOptionInvalid, "{}", f.title);
        assert!(
            f.title
                .ends_with("Flink refuses flinkConfiguration restart-strategy.type (sometimes)"),
            "{}",
            f.title
        );

        // A cause a signature names is not quoted again.
        let named = log.replace(
            "Unknown restart strategy sometimes.",
            "JAR file does not exist '/opt/flink/usrlib/job.jar'",
        );
        let f = jm_finding(
            &JM_239.replace("exitCode: 239", "exitCode: 2"),
            true,
            &named,
        );
        assert!(!f.fix.contains("at its deepest"), "{}", f.fix);
    }

    #[test]
    fn the_fix_is_filled_from_the_pod_and_its_log_not_left_with_placeholders() {
        // Flink's banner (ClusterEntrypoint logs EnvironmentInformation's `Starting ... (Version:`)
        // names the version the plugin's jar carries in /opt/flink/opt.
        let log = "2026-11-28 09:39:01,001 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] -  Starting StandaloneApplicationClusterEntryPoint (Version: 1.18.1, Scala: 2.12, Rev:a8c8b1c, Date:2024-01-10T13:29:45+01:00)
2026-11-28 09:39:12,001 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Could not start cluster entrypoint StandaloneApplicationClusterEntryPoint.
Caused by: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto.
";
        let f = jm_finding(JM_239, true, log);
        assert!(
            f.fix
                .contains("ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-1.18.1.jar"),
            "{}",
            f.fix
        );
        assert!(!f.fix.contains("<flink-version>"), "{}", f.fix);
        // A 403 is FLK501's to fix: the exit points at it rather than repeating its grant.
        let f = jm_finding(JM_239, true, LOG_403);
        assert!(f.fix.contains("a finding of its own"), "{}", f.fix);
        assert!(!f.fix.contains("kubectl create role"), "{}", f.fix);
    }

    /// What a real Flink 1.20.1 JobManager under operator 1.7.0 (spec.flinkVersion v1_18, Java 17)
    /// logged before it exited 2, in the lab's canonical-1.20 scenario once both of its faults were
    /// fixed (the JobManager's previous log, lines cut).
    const LOG_MODULE_CLOSED: &str = "2026-12-05 16:35:36,601 WARN  org.apache.flink.client.deployment.application.ApplicationDispatcherBootstrap [] - Application failed unexpectedly: 
java.util.concurrent.CompletionException: org.apache.flink.client.deployment.application.ApplicationExecutionException: Could not execute application.
Caused by: java.lang.ExceptionInInitializerError
Caused by: java.lang.RuntimeException: Can not register process function transformation translator.
Caused by: java.lang.reflect.InaccessibleObjectException: Unable to make field private final java.util.Map java.util.Collections$UnmodifiableMap.m accessible: module java.base does not \"opens java.util\" to unnamed module @589b3632
2026-12-05 16:35:36,794 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint        [] - Fatal error occurred in the cluster entrypoint.
";

    const FD_ORDERS: &str = r#"
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: flink:1.20
  flinkVersion: v1_18
  flinkConfiguration:
    env.java.opts.all: "-XX:+UseG1GC"
  job: {jarURI: "local:///opt/flink/usrlib/lab-job.jar"}
"#;

    #[test]
    fn a_package_java_refused_is_the_cause_and_the_fix_opens_it_keeping_the_options_there() {
        let pod = JM_239.replace("exitCode: 239", "exitCode: 2");
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{FD_ORDERS}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_MODULE_CLOSED,
        );
        let f = run(&FlinkFatalExit, &s).remove(0);
        // A cause of its own, not a bare exit: FLK411's version mismatch (a specific finding of
        // the same deployment) no longer explains it as a generic outcome.
        assert_eq!(f.category, Category::ImageIncompatible, "{}", f.title);
        assert!(f.title.contains("java.util"), "{}", f.title);
        assert!(f.title.contains("java.base"), "{}", f.title);
        // The option built from the line (module, directive, package), after the option the key
        // already held, as one merge patch the remedy applies as it is.
        let remedy = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(remedy.run.len(), 1, "{remedy:?}\n{}", f.fix);
        assert_eq!(
            remedy.run[0],
            r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"env.java.opts.all":"-XX:+UseG1GC --add-opens=java.base/java.util=ALL-UNNAMED"}}}'"#
        );
        // Once the option is in the spec, no patch is offered again (the heal's rounds add the
        // next package Java refuses, never the same one twice).
        let fd = FD_ORDERS.replace(
            "\"-XX:+UseG1GC\"",
            "\"-XX:+UseG1GC --add-opens=java.base/java.util=ALL-UNNAMED\"",
        );
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{fd}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_MODULE_CLOSED,
        );
        let f = run(&FlinkFatalExit, &s).remove(0);
        assert!(
            crate::finding::Remedy::from_fix(&f.fix).run.is_empty(),
            "{}",
            f.fix
        );
    }

    /// Operator 1.10.0 with Flink 1.20.1 in the lab (role-no-create, before its own fault shows):
    /// the application FAILED in a JobManager that stays up, and the operator's status says only
    /// that it could not observe the ended job (FLINK-37370).
    #[test]
    fn an_application_failed_in_a_running_jobmanager_names_its_cause_when_the_status_cannot() {
        let pod = JM_239
            .replace("ready: false", "ready: true")
            .replace("restartCount: 6", "restartCount: 0")
            .replace(
                "state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}\n    lastState: {terminated: {exitCode: 239, reason: Error, finishedAt: \"2026-11-28T09:39:13Z\"}}",
                "state: {running: {startedAt: \"2026-12-05T20:08:09Z\"}}",
            );
        assert!(pod.contains("running:"), "{pod}");
        let fd = format!(
            "{FD_ORDERS}status:\n  jobManagerDeploymentStatus: DEPLOYED_NOT_READY\n  error: 'ReconciliationException: Could not observe latest savepoint information; RestHandlerException: Checkpointing has not been enabled.'\n"
        );
        let log = LOG_MODULE_CLOSED
            .replace("WARN  org.apache.flink.client.deployment.application.ApplicationDispatcherBootstrap [] - Application failed unexpectedly: ", "INFO  org.apache.flink.client.deployment.application.ApplicationDispatcherBootstrap [] - Application FAILED: ")
            .replace("2026-12-05 16:35:36,794 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint        [] - Fatal error occurred in the cluster entrypoint.\n", "");
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{fd}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            false,
            &log,
        );
        let f = run(&FlinkFatalExit, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::ImageIncompatible, "{}", f.title);
        assert!(f.title.contains("application FAILED"), "{}", f.title);
        let remedy = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(
            remedy.run.first().map(String::as_str),
            Some(
                r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"env.java.opts.all":"-XX:+UseG1GC --add-opens=java.base/java.util=ALL-UNNAMED"}}}'"#
            ),
            "{}",
            f.fix
        );
        assert!(f.verify.contains("# expect RUNNING"), "{}", f.verify);
        // No JobManager Deployment in the snapshot: no command to delete it.
        assert_eq!(remedy.run.len(), 1, "{}", f.fix);
        // With it, the operator (before 1.11.0) deploys the fixed spec only once it is gone.
        let jm = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: orders, namespace: analytics, labels: {app: orders, component: jobmanager, type: flink-native-kubernetes}}\nspec: {selector: {matchLabels: {app: orders}}, template: {metadata: {labels: {app: orders}}, spec: {containers: [{name: flink-main-container, image: flink:1.20}]}}}\n";
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{fd}\n---\n{jm}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            false,
            &log,
        );
        let f = run(&FlinkFatalExit, &s).remove(0);
        let remedy = crate::finding::Remedy::from_fix(&f.fix);
        assert_eq!(
            remedy.run.get(1).map(String::as_str),
            Some("kubectl delete deployment orders -n analytics"),
            "{}",
            f.fix
        );
        // Where the operator's status names the failure itself (operator 1.7.0 records the job's
        // exception), FLK401 reports it: nothing here.
        let named = fd.replace(
            "Could not observe latest savepoint information",
            "Job failed",
        );
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{named}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            false,
            &log,
        );
        assert!(run(&FlinkFatalExit, &s).is_empty());
        // Before the operator has observed the failure (no status.error yet): the log's cause.
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{FD_ORDERS}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            false,
            &log,
        );
        assert_eq!(
            run(&FlinkFatalExit, &s).first().map(|f| f.category),
            Some(Category::ImageIncompatible)
        );
        // A running JobManager whose application did not fail: nothing.
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{fd}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            false,
            "2026-12-05 20:08:15,650 INFO  org.apache.flink.client.ClientUtils [] - Starting program (detached: true)\n",
        );
        assert!(run(&FlinkFatalExit, &s).is_empty());
    }

    /// The lab's ha-no-configmaps on Flink 1.20.1 / operator 1.10.0, round 2: the Role for HA's
    /// ConfigMaps was granted, the JobManager restarted in place and runs (ready, 2 restarts),
    /// and its application FAILED on Java 17's closed `java.util`; its previous log still holds
    /// the 403s of before the grant. The fault to fix now is the running instance's.
    #[test]
    fn a_running_again_jobmanager_whose_application_failed_is_that_failure_and_the_exit_history() {
        let pod = JM_239
            .replace("ready: false", "ready: true")
            .replace("restartCount: 6", "restartCount: 2")
            .replace(
                "state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
                "state: {running: {startedAt: \"2026-12-05T23:06:55Z\"}}",
            )
            .replace("exitCode: 239", "exitCode: 1");
        assert!(
            pod.contains("running:") && pod.contains("lastState"),
            "{pod}"
        );
        let fd = format!(
            "{FD_ORDERS}status:\n  jobManagerDeploymentStatus: DEPLOYED_NOT_READY\n  error: 'ReconciliationException: Could not observe latest savepoint information; RestHandlerException: Checkpointing has not been enabled.'\n"
        );
        let now = LOG_MODULE_CLOSED
            .replace("WARN  org.apache.flink.client.deployment.application.ApplicationDispatcherBootstrap [] - Application failed unexpectedly: ", "INFO  org.apache.flink.client.deployment.application.ApplicationDispatcherBootstrap [] - Application FAILED: ")
            .replace("2026-12-05 16:35:36,794 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint        [] - Fatal error occurred in the cluster entrypoint.\n", "");
        let both = |current: &str| {
            let s = with_log(
                snapshot(&format!("{pod}\n---\n{fd}")),
                "analytics",
                "orders-5d8f9c7b6d-x7k2p",
                "flink-main-container",
                true,
                LOG_403,
            );
            with_log(
                s,
                "analytics",
                "orders-5d8f9c7b6d-x7k2p",
                "flink-main-container",
                false,
                current,
            )
        };
        let f = run(&FlinkFatalExit, &both(&now));
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].category, Category::ImageIncompatible, "{}", f[0].title);
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].title.contains("application FAILED"), "{}", f[0].title);
        assert!(
            f[0].fix
                .contains("--add-opens=java.base/java.util=ALL-UNNAMED"),
            "{}",
            f[0].fix
        );
        assert_eq!(f[1].severity, Severity::Info, "{}", f[1].title);
        assert!(f[1]
            .evidence
            .iter()
            .any(|e| e.contains("this exit is history")));
        // Running again with nothing failed now: the earlier exit stays a warning, and its fix
        // says the 403's own finding may be gone because it was fixed.
        let f = run(
            &FlinkFatalExit,
            &both("2026-12-05 23:07:15,650 INFO  org.apache.flink.client.ClientUtils [] - Starting program (detached: true)\n"),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].fix.contains("the cause was fixed since"),
            "{}",
            f[0].fix
        );
        // Still crashing: no such note.
        let f = jm_finding(JM_239, true, LOG_403);
        assert!(!f.fix.contains("the cause was fixed since"), "{}", f.fix);
    }

    #[test]
    fn a_package_java_refused_ranks_before_an_informational_version_mismatch() {
        // The whole pipeline on the canonical-1.20 shape: FLK411 (info: operator 1.7.0 cannot
        // declare v1_20) used to be the root with the exit 2 under it.
        let pod = JM_239.replace("exitCode: 239", "exitCode: 2");
        let s = with_log(
            snapshot(&format!("{pod}\n---\n{FD_ORDERS}")),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_MODULE_CLOSED,
        );
        let report = crate::rank::rank(crate::rules::run_all(&s));
        let flk103 = report
            .findings
            .iter()
            .find(|f| f.rule == "FLK103")
            .expect("FLK103 fires");
        assert!(flk103.caused_by.is_none(), "{:?}", flk103.caused_by);
        assert_eq!(report.findings[0].rule, "FLK103");
    }

    #[test]
    fn a_refused_jvm_option_is_fixed_here_naming_the_option_not_pointed_elsewhere() {
        // The lab's exit-code scenario (operator 1.7.0, Flink 1.18.1): a typo in
        // env.java.opts.jobmanager; HotSpot (arguments.cpp) prints both lines and exits 1.
        let log = "Unrecognized VM option 'UseG1GCX'\nDid you mean '(+/-)UseG1GC'?\nError: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred. Program will exit.\n";
        let f = jm_finding(&JM_239.replace("exitCode: 239", "exitCode: 1"), true, log);
        assert!(!f.fix.contains("a finding of its own"), "{}", f.fix);
        assert!(f.fix.contains("UseG1GCX"), "{}", f.fix);
        assert!(f.fix.contains("env.java.opts.jobmanager"), "{}", f.fix);
    }

    #[test]
    fn fires_on_exit_239_and_quotes_the_cause_from_the_previous_log() {
        let s = with_log(
            snapshot(JM_239),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_403,
        );
        let f = run(&FlinkFatalExit, &s);
        assert_eq!(f.len(), 1);
        let f = &f[0];
        assert_eq!(f.category, Category::FlinkFatalExit);
        assert!(f.title.contains("exit code 239"), "{}", f.title);
        assert!(
            f.title
                .starts_with("JobManager container `flink-main-container`"),
            "{}",
            f.title
        );
        assert!(
            f.evidence[1].contains(
                "lastState.terminated: exitCode=239 reason=Error finishedAt=2026-11-28T09:39:13Z"
            ),
            "{:?}",
            f.evidence
        );
        assert!(f.evidence[2].contains("restartCount=6, state: waiting CrashLoopBackOff"));
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("previous log line 3 [")
                    && e.contains("SIG-K8S-FORBIDDEN-DEFAULT-SA")),
            "{:?}",
            f.evidence
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("previous log line 6 [SIG-FATAL-THREAD]")));
        // The root cause, not the fatal line, drives the fix.
        assert!(f.fix.contains("line 3"), "{}", f.fix);
        assert!(f.fix.contains(
            "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous"
        ));
        assert!(f.verify.contains("restartCount"));
        assert_eq!(
            f.links,
            vec![link::container(
                "analytics",
                "orders-5d8f9c7b6d-x7k2p",
                "flink-main-container"
            )]
        );
        assert_eq!(f.severity, Severity::Critical);
    }

    #[test]
    fn exit_239_after_an_entrypoint_fatal_error_is_the_shutdown_safeguard() {
        // Flink 1.20.1 in the reality lab: the 403 on the pod list, the entrypoint's fatal error,
        // no uncaught-exception handler line, exit 239.
        let log = "2026-12-01 10:38:42,394 ERROR org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Fatal error occurred in ResourceManager.\n\
2026-12-01 10:38:42,400 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint        [] - Fatal error occurred in the cluster entrypoint.\n";
        let f = &jm_finding(JM_239, true, log);
        let mechanism = &f.evidence[0];
        assert!(
            mechanism.contains("JvmShutdownSafeguard halted the JVM with -17"),
            "{mechanism}"
        );
        assert!(
            !mechanism.contains("FatalExitExceptionHandler"),
            "{mechanism}"
        );
        // The title says what happened in plain words; the mechanism is for the detail.
        assert_eq!(
            f.title,
            "JobManager container `flink-main-container` exited: exit code 239, Flink's fatal-error exit"
        );
        // With the handler's line, the table's general wording stays.
        let s = with_log(
            snapshot(JM_239),
            "analytics",
            "orders-5d8f9c7b6d-x7k2p",
            "flink-main-container",
            true,
            LOG_403,
        );
        assert!(run(&FlinkFatalExit, &s)[0].evidence[0].contains("FatalExitExceptionHandler"));
    }

    #[test]
    fn the_entrypoint_s_read_only_conf_lines_are_not_the_cause() {
        // docker-entrypoint.sh's failed edits of the ConfigMap-mounted conf come first in every
        // native JobManager's log (apache/flink-cdc#2802); the 403 after them is the cause.
        let log = format!(
            "sed: couldn't open temporary file /opt/flink/conf/sedBhAZOg: Read-only file system\n\
             /docker-entrypoint.sh: line 73: /opt/flink/conf/flink-conf.yaml: Read-only file system\n\
             /docker-entrypoint.sh: line 89: /opt/flink/conf/flink-conf.yaml.tmp: Read-only file system\n{LOG_403}"
        );
        let f = &jm_finding(JM_239, true, &log);
        assert_eq!(f.category, Category::FlinkFatalExit);
        assert!(f.fix.contains("line 6"), "{}", f.fix);
        assert!(
            !f.evidence.iter().any(|e| e.contains("Read-only")),
            "{:?}",
            f.evidence
        );
    }

    #[test]
    fn a_built_in_plugin_the_image_lacks_is_the_cause_of_exit_1() {
        let f = &jm_finding(&JM_239.replace("exitCode: 239", "exitCode: 1"), true, "Enabling required built-in plugins\nLinking flink-s3-fs-hadoop-1.17.1.jar to plugin directory\nPlugin flink-s3-fs-hadoop-1.17.1.jar does not exist. Exiting.\n");
        assert_eq!(f.category, Category::FilesystemPluginMissing);
        assert!(
            f.title
                .contains("/opt/flink/opt/flink-s3-fs-hadoop-1.17.1.jar"),
            "{}",
            f.title
        );
        assert!(f.fix.contains("line 3"), "{}", f.fix);
    }

    #[test]
    fn only_the_running_instance_s_log_is_not_read_as_the_exit_s() {
        // What `kubectl cluster-info dump` keeps of a JobManager restarted after a 239: the log
        // of the instance running now (INFO lines of a healthy start), no previous log.
        let running = JM_239.replace(
            "state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
            "state: {running: {startedAt: \"2026-11-28T09:39:20Z\"}}",
        );
        assert_ne!(running, JM_239);
        let log = "2026-11-28 09:39:21,738 INFO  org.apache.flink.runtime.security.modules.HadoopModuleFactory [] - Cannot create Hadoop Security Module because Hadoop cannot be found in the Classpath.\n";
        let f = &jm_finding(&running, false, log);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.starts_with("no log of the instance that exited")),
            "{:?}",
            f.evidence
        );
        assert!(
            !f.evidence.iter().any(|e| e.contains("Hadoop")),
            "{:?}",
            f.evidence
        );
        assert!(f.fix.contains("--previous"), "{}", f.fix);
        // The same log with the cause in it (the instance running now was refused too) is read.
        let f = &jm_finding(&running, false, LOG_403);
        assert!(f.fix.contains("line 3"), "{}", f.fix);
    }

    #[test]
    fn an_info_line_is_no_error_in_the_tail_of_a_log() {
        let log = "2026-11-28 09:39:11,738 INFO  org.apache.flink.runtime.security.modules.HadoopModuleFactory [] - Cannot create Hadoop Security Module because Hadoop cannot be found in the Classpath.\n\
                   2026-11-28 09:39:12,001 WARN  org.example.Job [] - Could not open the side output\n";
        let f = &jm_finding(JM_239, true, log);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.contains("Could not open the side output")),
            "{:?}",
            f.evidence
        );
        assert!(
            !f.evidence.iter().any(|e| e.contains("Hadoop")),
            "{:?}",
            f.evidence
        );
    }

    #[test]
    fn without_a_known_cause_the_fix_names_the_previous_log_command() {
        let log = "INFO starting\nERROR Something odd happened: java.lang.IllegalStateException: boom\n\tat x.y(Z.java:1)\n";
        let f = &jm_finding(JM_239, true, log);
        assert!(f.evidence.iter().any(|e| e == "previous log line 2: ERROR Something odd happened: java.lang.IllegalStateException: boom"), "{:?}", f.evidence);
        assert!(
            f.fix
                .contains("the cause is in the container's previous log")
                || f.fix
                    .contains("The cause is in the container's previous log")
        );
        assert!(f.fix.contains(
            "kubectl logs orders-5d8f9c7b6d-x7k2p -n analytics -c flink-main-container --previous"
        ));
        // And with no log at all, it says so.
        let f = &run(&FlinkFatalExit, &snapshot(JM_239))[0];
        assert!(f
            .evidence
            .iter()
            .any(|e| e.starts_with("no log of container `flink-main-container`")));
    }

    #[test]
    fn knows_every_flink_exit_code() {
        for (code, words) in [
            (1, "Flink could not start"),
            (2, "a fatal error in the running process"),
            (163, "the job FAILED"),
            (165, "UNKNOWN"),
        ] {
            let y = JM_239.replace("exitCode: 239", &format!("exitCode: {code}"));
            let f = run(&FlinkFatalExit, &snapshot(&y));
            assert_eq!(f.len(), 1, "exit {code}");
            assert!(f[0].title.contains(words), "{}", f[0].title);
            // The mechanism, in Flink's terms, is the first evidence line.
            assert!(
                f[0].evidence[0].starts_with(&format!("exit code {code}: ")),
                "{:?}",
                f[0].evidence
            );
        }
    }

    #[test]
    fn silent_on_healthy_pods_and_on_codes_it_does_not_own() {
        assert!(run(&FlinkFatalExit, &snapshot(HEALTHY)).is_empty());
        for code in ["0", "137", "143", "127"] {
            let y = JM_239.replace("exitCode: 239", &format!("exitCode: {code}"));
            assert!(
                run(&FlinkFatalExit, &snapshot(&y)).is_empty(),
                "exit {code}"
            );
        }
        let oom = JM_239.replace(
            "exitCode: 239, reason: Error",
            "exitCode: 239, reason: OOMKilled",
        );
        assert!(run(&FlinkFatalExit, &snapshot(&oom)).is_empty());
    }

    #[test]
    fn exit_1_of_a_non_flink_sidecar_is_not_flink_s() {
        let y = JM_239
            .replace("exitCode: 239", "exitCode: 1")
            .replace(
                "name: flink-main-container, image: \"flink:1.20\"",
                "name: log-shipper, image: \"fluent/fluent-bit:3\"",
            )
            .replace(
                "- name: flink-main-container\n    image: flink:1.20",
                "- name: log-shipper\n    image: fluent/fluent-bit:3",
            );
        assert!(run(&FlinkFatalExit, &snapshot(&y)).is_empty());
    }

    #[test]
    fn a_past_crash_of_a_container_running_again_is_a_warning() {
        let y = JM_239.replace(
            "ready: false\n    restartCount: 6\n    state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
            "ready: true\n    restartCount: 1\n    state: {running: {startedAt: \"2026-11-28T09:40:00Z\"}}",
        );
        let f = run(&FlinkFatalExit, &snapshot(&y));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    /// The lab's native-default-sa on Flink 1.20.1 once its Role was granted: the JobManager of
    /// the patched Deployment exited once, then ran, and the cluster came up with its TaskManager.
    #[test]
    fn a_past_crash_in_a_native_cluster_that_came_up_is_history() {
        let jm_pod = JM_239.replace(
            "ready: false\n    restartCount: 6\n    state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
            "ready: true\n    restartCount: 1\n    state: {running: {startedAt: \"2026-11-28T09:40:00Z\"}}",
        );
        let deployment = |ready: i32| {
            format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: orders, namespace: analytics, labels: {{app: orders, component: jobmanager, type: flink-native-kubernetes}}}}\nspec: {{replicas: 1, selector: {{matchLabels: {{app: orders}}}}, template: {{metadata: {{labels: {{app: orders}}}}, spec: {{containers: [{{name: flink-main-container, image: 'flink:1.20'}}]}}}}}}\nstatus: {{replicas: 1, readyReplicas: {ready}}}\n")
        };
        let tm = |ready: bool| {
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: orders-taskmanager-1-1, namespace: analytics, labels: {{app: orders, component: taskmanager, type: flink-native-kubernetes}}}}\nspec: {{containers: [{{name: flink-main-container, image: 'flink:1.20'}}]}}\nstatus: {{phase: Running, containerStatuses: [{{name: flink-main-container, image: 'flink:1.20', imageID: '', ready: {ready}, restartCount: 0, state: {{running: {{startedAt: '2026-11-28T09:40:30Z'}}}}}}]}}\n")
        };
        let severity = |objects: &str| {
            let f = run(
                &FlinkFatalExit,
                &snapshot(&format!("{jm_pod}\n---\n{objects}")),
            );
            assert_eq!(f.len(), 1, "{f:#?}");
            (f[0].severity, f[0].evidence.join("\n"))
        };
        let (sev, evidence) = severity(&format!("{}\n---\n{}", deployment(1), tm(true)));
        assert_eq!(sev, Severity::Info, "{evidence}");
        assert!(evidence.contains("native cluster orders: JobManager Deployment 1/1 ready, 1 TaskManager pod(s) running and ready"), "{evidence}");
        // Not up yet: the Deployment not ready, a TaskManager not ready, or none at all.
        assert_eq!(
            severity(&format!("{}\n---\n{}", deployment(0), tm(true))).0,
            Severity::Warning
        );
        assert_eq!(
            severity(&format!("{}\n---\n{}", deployment(1), tm(false))).0,
            Severity::Warning
        );
        assert_eq!(severity(&deployment(1)).0, Severity::Warning);
    }

    #[test]
    fn a_terminated_taskmanager_reads_its_current_log() {
        let y = r#"
apiVersion: v1
kind: Pod
metadata:
  name: orders-taskmanager-1-2
  namespace: analytics
  labels: {app: orders, component: taskmanager, type: flink-native-kubernetes}
spec:
  restartPolicy: Never
  containers:
  - {name: flink-main-container, image: "flink:1.20"}
status:
  phase: Failed
  containerStatuses:
  - name: flink-main-container
    image: flink:1.20
    imageID: ""
    ready: false
    restartCount: 0
    state: {terminated: {exitCode: 2, reason: Error}}
"#;
        let log = "ERROR TaskManagerRunner [] - Fatal error occurred while executing the TaskManager. Shutting it down...\n";
        let s = with_log(
            snapshot(y),
            "analytics",
            "orders-taskmanager-1-2",
            "flink-main-container",
            false,
            log,
        );
        let f = &run(&FlinkFatalExit, &s)[0];
        assert!(f.title.starts_with("TaskManager container"));
        assert!(f.evidence[1].contains("state.terminated: exitCode=2"));
        assert!(
            f.evidence.iter().any(|e| e.starts_with("log line 1")),
            "{:?}",
            f.evidence
        );
        assert!(!f.fix.contains("--previous"), "{}", f.fix);
        assert!(
            f.verify
                .starts_with("kubectl get pods -n analytics -l app=orders,component=taskmanager"),
            "{}",
            f.verify
        );
    }

    #[test]
    fn an_exit_before_the_deployment_came_up_is_history_not_a_warning() {
        // ha-no-configmaps after its heal: the Role granted the ConfigMap rights, the JobManager
        // that exited 1 (the 403) restarted under the same pod and runs, and the operator reports
        // READY / STABLE / RUNNING.
        let pod = JM_239
            .replace("ready: false", "ready: true")
            .replace(
                "state: {waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=flink-main-container pod=orders-5d8f9c7b6d-x7k2p_analytics(3f2b)\"}}",
                "state: {running: {startedAt: \"2026-11-28T09:40:13Z\"}}",
            );
        let fd = |jm: &str, life: &str, job: &str| {
            format!(
                "{pod}---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: orders, namespace: analytics}}\nspec:\n  job: {{jarURI: \"local:///opt/flink/usrlib/lab-job.jar\"}}\nstatus:\n  jobManagerDeploymentStatus: {jm}\n  lifecycleState: {life}\n  jobStatus: {{state: {job}}}\n"
            )
        };
        let up = run(
            &FlinkFatalExit,
            &snapshot(&fd("READY", "STABLE", "RUNNING")),
        );
        assert_eq!(up.len(), 1, "{up:?}");
        assert_eq!(up[0].severity, Severity::Info, "{:?}", up[0]);
        assert!(
            up[0]
                .evidence
                .iter()
                .any(|e| e.contains("READY, lifecycleState STABLE, job RUNNING")),
            "{:?}",
            up[0].evidence
        );
        // Not up yet (the job still starting): a warning as before.
        let starting = run(
            &FlinkFatalExit,
            &snapshot(&fd("READY", "DEPLOYED", "RECONCILING")),
        );
        assert_eq!(starting[0].severity, Severity::Warning);
    }

    #[test]
    fn a_missing_jar_names_the_field_with_a_placeholder_for_the_person_who_knows() {
        let f = run(&FlinkFatalExit, &scenario("real-jar-missing"));
        let jar = f
            .iter()
            .find(|f| f.category == Category::JobJarNotFound)
            .expect("the jar finding");
        let r = crate::finding::Remedy::from_fix(&jar.fix);
        assert_eq!(
            r.run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n analytics --type=merge -p '{{\"spec\":{{\"job\":{{\"jarURI\":\"<spec.job.jarURI>\"}}}}}}'",
                crate::finding::FILL_IN
            )],
            "{}",
            jar.fix
        );
    }

    #[test]
    fn a_missing_plugin_is_enabled_through_flink_configuration_after_the_jars_named_there() {
        // The lab's s3-no-plugin scenario (Flink 1.18.1 by the log's banner, image flink:1.18):
        // the jar is the banner's version, set for both components in one merge patch of the map.
        let mut s = scenario("real-s3-no-plugin");
        let plugin = |s: &Snapshot| {
            let f = run(&FlinkFatalExit, s);
            let f = f
                .into_iter()
                .find(|f| f.category == Category::FilesystemPluginMissing)
                .expect("the plugin finding");
            crate::finding::Remedy::from_fix(&f.fix).run
        };
        assert_eq!(
            plugin(&s),
            vec![r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"containerized.master.env.ENABLE_BUILT_IN_PLUGINS":"flink-s3-fs-hadoop-1.18.1.jar","containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS":"flink-s3-fs-hadoop-1.18.1.jar"}}}'"#.to_string()]
        );
        // A jar already named for the TaskManagers stays, the new one after it.
        s.flink_deployments[0].spec.flink_configuration.insert(
            "containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS".into(),
            "flink-gs-fs-hadoop-1.18.1.jar".into(),
        );
        assert_eq!(
            plugin(&s),
            vec![r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"containerized.master.env.ENABLE_BUILT_IN_PLUGINS":"flink-s3-fs-hadoop-1.18.1.jar","containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS":"flink-gs-fs-hadoop-1.18.1.jar;flink-s3-fs-hadoop-1.18.1.jar"}}}'"#.to_string()]
        );
    }

    #[test]
    fn an_hdfs_path_without_hadoop_names_hadoop_classpath_with_a_placeholder() {
        // The lab's hdfs-no-hadoop scenario (flink:1.18, checkpoints on hdfs://): no plugin serves
        // hdfs, so the fix is the classpath only the image knows, for both components.
        let f = run(&FlinkFatalExit, &scenario("real-hdfs-no-hadoop"));
        let f = f
            .iter()
            .find(|f| f.category == Category::FilesystemPluginMissing)
            .expect("the hdfs finding");
        assert_eq!(
            crate::finding::Remedy::from_fix(&f.fix).run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n analytics --type=merge -p '{}'",
                crate::finding::FILL_IN,
                r#"{"spec":{"flinkConfiguration":{"containerized.master.env.HADOOP_CLASSPATH":"<classpath of the Hadoop jars in the image>","containerized.taskmanager.env.HADOOP_CLASSPATH":"<classpath of the Hadoop jars in the image>"}}}"#
            )],
            "{}",
            f.fix
        );
    }

    #[test]
    fn only_a_tag_of_three_numbers_names_the_plugin_jar() {
        assert_eq!(
            image_release("flink:1.18.1-scala_2.12-java17").as_deref(),
            Some("1.18.1")
        );
        assert_eq!(
            image_release("registry:5000/flink:1.20.0").as_deref(),
            Some("1.20.0")
        );
        assert_eq!(image_release("flink:1.18"), None);
        assert_eq!(image_release("flink:latest"), None);
    }

    #[test]
    fn a_savepoint_that_is_not_there_names_the_field_that_holds_it_with_a_placeholder() {
        // The lab's savepoint-path scenario: spec.job.initialSavepointPath
        // file:///tmp/savepoints/savepoint-orders-0001, which no pod has.
        let mut s = scenario("real-savepoint-path");
        let fix = |s: &Snapshot| {
            run(&FlinkFatalExit, s)
                .into_iter()
                .find(|f| f.category == Category::SavepointRestoreFailed)
                .expect("the savepoint finding")
                .fix
        };
        let f = fix(&s);
        assert!(
            f.contains(
                "spec.job.initialSavepointPath is file:///tmp/savepoints/savepoint-orders-0001 now"
            ),
            "{f}"
        );
        assert_eq!(
            crate::finding::Remedy::from_fix(&f).run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n analytics --type=merge -p '{{\"spec\":{{\"job\":{{\"initialSavepointPath\":\"<spec.job.initialSavepointPath>\"}}}}}}'",
                crate::finding::FILL_IN
            )]
        );
        // A path the spec does not hold came from the operator's own record.
        s.flink_deployments[0]
            .spec
            .job
            .as_mut()
            .unwrap()
            .initial_savepoint_path = None;
        let f = fix(&s);
        assert!(
            f.contains("file:///tmp/savepoints/savepoint-orders-0001 is not in the spec"),
            "{f}"
        );
    }

    #[test]
    fn a_refused_jvm_option_names_the_key_that_holds_it_and_the_patch_removes_only_it() {
        // The lab's exit-code scenario: env.java.opts.jobmanager -XX:+UseG1GCX (operator 1.7.0,
        // Flink 1.18.1), recorded.
        let f = run(&FlinkFatalExit, &scenario("real-exit-code"));
        let exit = f
            .iter()
            .find(|f| f.fix.contains("UseG1GCX"))
            .expect("the exit naming the option");
        assert!(
            exit.evidence.iter().any(|e| e
                == "flinkConfiguration env.java.opts.jobmanager: -XX:+UseG1GCX is the option the JVM refused"),
            "{:#?}",
            exit.evidence
        );
        let r = crate::finding::Remedy::from_fix(&exit.fix);
        assert_eq!(
            r.run,
            vec![r#"kubectl patch flinkdeployment orders -n analytics --type=merge -p '{"spec":{"flinkConfiguration":{"env.java.opts.jobmanager":null}}}'"#.to_string()],
            "{}",
            exit.fix
        );
    }

    #[test]
    fn an_entry_class_that_does_not_load_names_the_field_with_a_placeholder() {
        // The lab's entry-class scenario: job.entryClass lab.OrdersJob, which the jar lacks.
        let f = run(&FlinkFatalExit, &scenario("real-entry-class"));
        let class = f
            .iter()
            .find(|f| f.category == Category::JobEntryClassError)
            .expect("the entry class finding");
        let r = crate::finding::Remedy::from_fix(&class.fix);
        assert_eq!(
            r.run,
            vec![format!(
                "{}kubectl patch flinkdeployment orders -n analytics --type=merge -p '{{\"spec\":{{\"job\":{{\"entryClass\":\"<spec.job.entryClass>\"}}}}}}'",
                crate::finding::FILL_IN
            )],
            "{}",
            class.fix
        );
    }

    #[test]
    fn scenario_bundles() {
        let f = run(&FlinkFatalExit, &scenario("flink-fatal-exit"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].title.contains("exit code 1"));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("SIG-FS-SCHEME-UNSUPPORTED")),
            "{:?}",
            f[0].evidence
        );
        let f = run(&FlinkFatalExit, &scenario("jvm-out-of-memory"));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].title.starts_with("TaskManager container") && f[0].title.contains("exit code 2")
        );
        for name in HEALTHY_SCENARIOS.iter().chain(&[
            "crashloop-image-incompatible",
            "oom-killed",
            "image-pull-failed",
        ]) {
            assert!(run(&FlinkFatalExit, &scenario(name)).is_empty(), "{name}");
        }
    }
}

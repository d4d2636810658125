//! FLK202: TaskManager pods are gone, with their logs, before anyone read them.
//!
//! In native mode (Apache operator native, plain Flink native) the JobManager owns its TaskManager
//! pods: it deletes a pod whose TaskManager died (`Worker <pod> is terminated. Diagnostics: ...`)
//! and asks for a new one, and it releases TaskManagers that stay idle for
//! `resourcemanager.taskmanager-timeout` (30 s by default; `Stopping worker <pod>.`), e.g. right
//! after a job failed. Either way the pod and the TaskManager's log (the task's exception, the
//! crash) are deleted: `kubectl logs` finds nothing, and only the JobManager's log remembers.
//!
//! Fires when the JobManager's log names TaskManager pods that no longer exist and something
//! failed: the termination diagnostics show a non-zero exit or a failed pod, or the job went to
//! FAILING / FAILED / RESTARTING. TaskManagers released idle from a healthy cluster stay
//! unreported, and so do OOM kills, which FLK107 (`oom_killed`) reports with their memory fix.
//! The fix keeps released TaskManagers (and their logs) longer while debugging.

use super::support::modes::{conf_fix, conf_verify, jobmanager_logs, pods_verify};
use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, Severity};
use crate::flink::mode::Component;
use crate::signatures::redact;
use crate::snapshot::index::{pod_name, Cluster, Index};
use crate::snapshot::Snapshot;
use regex::Regex;
use std::sync::OnceLock;

pub struct TaskmanagerLost;

static META: RuleMeta = RuleMeta {
    id: "FLK202",
    name: "taskmanager_lost",
    summary: "TaskManager pods were gone before anyone read their logs",
    category: Category::TaskmanagerLost,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"find why the TaskManager went away: `kubectl describe pod` of it (OOMKilled, Evicted, preempted, node lost) and its previous log; long GC pauses also miss heartbeats (raise heartbeat.timeout only after ruling those out)"#,
    verify: r#"kubectl get pods -l component=taskmanager   # expect every TaskManager Running, with no new restarts"#,
};

/// The timeout a fix sets while debugging (10 minutes, in ms as Flink's docs write it).
const DEBUG_TIMEOUT: &str = "600000";
const TIMEOUT_KEY: &str = "resourcemanager.taskmanager-timeout";

impl Rule for TaskmanagerLost {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        let mut out = Vec::new();
        for c in index.clusters() {
            if !c.mode.native_taskmanagers() {
                continue;
            }
            if let Some(f) = check_cluster(s, index, c) {
                out.push(f);
            }
        }
        out
    }
}

/// One JobManager log line about a TaskManager pod that is gone.
struct Gone {
    pod: String,
    jobmanager: String,
    line_no: usize,
    line: String,
    crashed: bool,
}

fn patterns() -> &'static (Regex, Regex, Regex) {
    static P: OnceLock<(Regex, Regex, Regex)> = OnceLock::new();
    P.get_or_init(|| {
        (
            Regex::new(r"Worker (?P<pod>[a-z0-9][a-z0-9.-]*?)(?:\([^)]*\))? is terminated\. Diagnostics: (?P<diag>.*)")
                .expect("worker terminated regex"),
            Regex::new(r"Stopping [Ww]orker (?P<pod>[a-z0-9][a-z0-9.-]*?)(?:\([^)]*\))?\.?\s*$").expect("stopping worker regex"),
            Regex::new(r"switched from (?:state )?\w+ to (?P<state>FAILING|FAILED|RESTARTING)").expect("job state regex"),
        )
    })
}

fn check_cluster(s: &Snapshot, index: &Index, c: &Cluster) -> Option<Finding> {
    let (terminated, stopping, failing) = patterns();
    let prefix = format!("{}-taskmanager-", c.name());
    let exists = |pod: &str| {
        s.pods
            .iter()
            .any(|p| pod_name(p) == pod && p.metadata.namespace.as_deref() == Some(c.namespace()))
    };
    let mut gone: Vec<Gone> = Vec::new();
    let mut failure_line: Option<(String, usize, String)> = None;
    for (key, text) in jobmanager_logs(s, c) {
        for (i, line) in text.lines().enumerate() {
            // Literal prefilter: the regexes run on the few lines that can match.
            if !(line.contains("orker ") || line.contains("switched from")) {
                continue;
            }
            if failure_line.is_none() && failing.is_match(line) {
                failure_line = Some((key.pod.clone(), i + 1, excerpt(line)));
            }
            let (pod, crashed) = if let Some(m) = terminated.captures(line) {
                let diag = m.name("diag").map_or("", |d| d.as_str());
                if diag.contains("OOMKilled") {
                    continue; // FLK107's, with the memory fix
                }
                (m["pod"].to_string(), crashed(diag))
            } else if let Some(m) = stopping.captures(line) {
                (m["pod"].to_string(), false)
            } else {
                continue;
            };
            if !pod.starts_with(&prefix) || exists(&pod) || gone.iter().any(|g| g.pod == pod) {
                continue;
            }
            gone.push(Gone {
                pod,
                jobmanager: key.pod.clone(),
                line_no: i + 1,
                line: excerpt(line),
                crashed,
            });
        }
    }
    if gone.is_empty() {
        return None;
    }
    let job_state = c
        .flink_deployment
        .and_then(|fd| fd.status.as_ref())
        .and_then(|st| st.job_status.as_ref())
        .and_then(|j| j.state.as_deref())
        .filter(|st| matches!(*st, "FAILING" | "FAILED" | "RESTARTING"));
    let any_crash = gone.iter().any(|g| g.crashed);
    if !any_crash && failure_line.is_none() && job_state.is_none() {
        return None;
    }
    let ns = c.namespace();
    let names: Vec<&str> = gone.iter().map(|g| g.pod.as_str()).collect();
    let mut f = Finding::new(
        &META,
        c.reference.clone(),
        format!(
            "{} TaskManager pod(s) were deleted by the JobManager before their logs were read ({})",
            gone.len(),
            short_list(&names)
        ),
    )
    .deployment(Some(c.reference.clone()));
    for g in gone.iter().take(3) {
        f = f.evidence(format!(
            "JobManager {} log L{}: {}",
            g.jobmanager, g.line_no, g.line
        ));
    }
    f = f.evidence(format!(
        "no pod {} in namespace {ns}: `kubectl logs` has nothing left to show for {}",
        short_list(&names),
        if names.len() == 1 { "it" } else { "them" }
    ));
    if let Some((pod, n, line)) = &failure_line {
        f = f.evidence(format!("JobManager {pod} log L{n}: {line}"));
    } else if let Some(st) = job_state {
        f = f.evidence(format!("FlinkDeployment status.jobStatus.state: {st}"));
    }
    let conf = index.conf(c);
    if let Some(e) = conf.evidence(TIMEOUT_KEY) {
        f = f.evidence(e);
    } else {
        f = f.evidence(format!(
            "{TIMEOUT_KEY} is not set: idle TaskManagers are released after 30 s"
        ));
    }
    let crash_note = if any_crash {
        "\n\nA TaskManager that crashed is deleted at once whatever the timeout: its exit code and reason are in the JobManager's lines above; look for the cause in those (and in FLK103/FLK107 findings when the JobManager reports them)."
    } else {
        ""
    };
    Some(f.fix(format!(
        "While you debug, keep released TaskManagers (and their logs) for 10 minutes instead of 30 s, then read them with `kubectl logs` before they go:\n\n{}\n\nSet it back (or remove it) once the cause is found: idle TaskManagers then hold resources for 10 minutes.{crash_note}",
        conf_fix(c, &[(TIMEOUT_KEY, DEBUG_TIMEOUT)])
    ))
    .verify(format!(
        "{}\n{}   # after the next failure the TaskManagers stay listed; read them with kubectl logs -n {ns} <pod>",
        conf_verify(c, TIMEOUT_KEY, DEBUG_TIMEOUT),
        pods_verify(c, Component::TaskManager)
    )))
}

/// The diagnostics show a TaskManager that died: a non-zero exit code or a failed pod.
fn crashed(diag: &str) -> bool {
    static EXIT: OnceLock<Regex> = OnceLock::new();
    let re = EXIT.get_or_init(|| Regex::new(r"exitCode=(-?\d+)").expect("exit code regex"));
    re.captures_iter(diag).any(|c| &c[1] != "0") || diag.contains("pod status: Failed")
}

fn excerpt(line: &str) -> String {
    let flat: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let red = redact(&flat).into_owned();
    if red.chars().count() > 300 {
        format!("{}…", red.chars().take(300).collect::<String>())
    } else {
        red
    }
}

fn short_list(names: &[&str]) -> String {
    if names.len() <= 3 {
        names.join(", ")
    } else {
        format!("{}, … {} more", names[..3].join(", "), names.len() - 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, with_log, HEALTHY};

    const LOG: &str = "2026-11-28 10:00:01,000 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Job wordcount (8f1e6c5d4b3a29180f7e6d5c4b3a2918) switched from state RUNNING to RESTARTING.
2026-11-28 10:00:02,000 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Worker basic-taskmanager-1-2 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=239, reason=Error, message=null)], pod status: Failed(reason=null, message=null)
2026-11-28 10:00:03,000 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Stopping worker basic-taskmanager-1-3.
";

    fn broken() -> Snapshot {
        // HEALTHY has basic-taskmanager-1-1; 1-2 crashed and 1-3 was released, both deleted.
        with_log(
            snapshot(HEALTHY),
            "flink",
            "basic-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            LOG,
        )
    }

    #[test]
    fn fires_when_the_jobmanager_names_taskmanagers_that_are_gone() {
        let f = run(&TaskmanagerLost, &broken());
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::TaskmanagerLost);
        assert!(
            f.title.starts_with("2 TaskManager pod(s) were deleted"),
            "{}",
            f.title
        );
        assert!(f.evidence.iter().any(
            |e| e.contains("L2: ") && e.contains("Worker basic-taskmanager-1-2 is terminated")
        ));
        assert!(f
            .evidence
            .iter()
            .any(|e| e.contains("switched from state RUNNING to RESTARTING")));
        assert!(f.fix.contains(
            "kubectl patch flinkdeployment basic -n flink --type=merge -p '{\"spec\":{\"flinkConfiguration\":{\"resourcemanager.taskmanager-timeout\":\"600000\"}}}'"
        ), "{}", f.fix);
        assert!(f.fix.contains("crashed is deleted at once"));
        assert!(f.verify.contains("resourcemanager\\.taskmanager-timeout"));
    }

    #[test]
    fn silent_on_idle_releases_of_a_healthy_cluster_and_on_oom_kills() {
        let idle = "2026-11-28 10:00:03,000 INFO  ActiveResourceManager [] - Stopping worker basic-taskmanager-1-3.\n";
        let s = with_log(
            snapshot(HEALTHY),
            "flink",
            "basic-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            idle,
        );
        assert!(run(&TaskmanagerLost, &s).is_empty());
        let oom = "Worker basic-taskmanager-1-2 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)\n";
        let s = with_log(
            snapshot(HEALTHY),
            "flink",
            "basic-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            oom,
        );
        assert!(run(&TaskmanagerLost, &s).is_empty());
        // A worker that still exists is not lost.
        let present = LOG
            .replace("basic-taskmanager-1-2", "basic-taskmanager-1-1")
            .replace("Stopping worker basic-taskmanager-1-3.", "");
        let s = with_log(
            snapshot(HEALTHY),
            "flink",
            "basic-6d4f7c9b8-abcde",
            "flink-main-container",
            false,
            &present,
        );
        assert!(run(&TaskmanagerLost, &s).is_empty());
        assert!(run(&TaskmanagerLost, &snapshot(HEALTHY)).is_empty());
    }

    #[test]
    fn scenario_bundles() {
        use crate::rules::testing::{scenario, HEALTHY_SCENARIOS};
        let f = run(&TaskmanagerLost, &scenario("mode-native-tm-lost"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].object.kind, "Deployment");
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(crate::rules::support::modes::HEALTHY_MODE_SCENARIOS)
        {
            assert!(run(&TaskmanagerLost, &scenario(name)).is_empty(), "{name}");
        }
    }
}

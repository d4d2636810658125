//! FLK412: the job submitter of a FlinkCluster (the GCP/Spotify operator) failed, so the job was
//! never submitted.
//!
//! The operator runs `flink run` against the JobManager from a Kubernetes Job
//! `<name>-job-submitter` (backoffLimit 0, restartPolicy Never, container `main`) through the
//! `submit-job.sh` of its ConfigMap, which waits for the JobManager's REST API, submits, and writes
//! the outcome into the pod's termination message: `Aborted submit because JobManager is
//! unavailable.`, `Failed to submit.` followed by the CLI's output, or `The submitter finished
//! successfully but there is no job id`. The operator then records `status.components.job`:
//! state `DeployFailed` (or `Failed`), `submitterExitCode`, `failureReasons`
//! (spotify/flink-on-k8s-operator@v0.6.0: controllers/flinkcluster/flinkcluster_submit_job_script.go,
//! flinkcluster_updater.go `deriveJobStatus`, flinkcluster_converter.go `newJob`).
//!
//! Reports (tests/corpus/flinkcluster): GoogleCloudPlatform/flink-on-k8s-operator issues 132 (the
//! submitter backing off while the job shows Pending), 136 (the Job at its backoff limit while the
//! status says Running), 252 (`Unknown job state, exiting 3`), spotify/flink-on-k8s-operator issue
//! 343 (a `gs://` jarFile, which `flink run` cannot read). The category is the cause the
//! submitter's log or termination message names (`job_jar_not_found`, `job_entry_class_error`,
//! `jobmanager_unreachable`, ...), else `job_submitter_failed`.

use super::support::containers::{event_line, one_line, with_category, LogEvidence};
use super::{Rule, RuleMeta};
use crate::finding::{link, Category, Finding, ObjectRef, Severity};
use crate::flink::mode::Mode;
use crate::flink::names::{flinkcluster_submitter_job, FLINKCLUSTER_SUBMITTER_CONTAINER};
use crate::signatures::catalogue;
use crate::snapshot::index::{pod_name, Cluster};
use crate::snapshot::pod::ContainerStateTerminated;
use crate::snapshot::Pod;
use crate::snapshot::{Index, Snapshot};

pub struct FlinkclusterSubmitterFailed;

static META: RuleMeta = RuleMeta {
    id: "FLK412",
    name: "flinkcluster_submitter_failed",
    summary: "a FlinkCluster's job submitter (the Job that runs `flink run`) failed: its exit, termination message and log, and the cause they name",
    category: Category::JobSubmitterFailed,
    severity: Severity::Critical,
    explains: &[],
    fix: r#"fix what the submitter's log and termination message name (the jar, the entry class, the arguments, the JobManager's address); doctor quotes them"#,
    verify: r#"kubectl get flinkcluster <name> -o jsonpath='{.status.components.job.state}'   # expect: Running (or Succeeded for a batch job)"#,
};

/// What submit-job.sh writes when `flink run` exited 0 without printing a job id.
const NO_JOB_ID: &str = "there is no job id";

impl Rule for FlinkclusterSubmitterFailed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, index: &Index) -> Vec<Finding> {
        index
            .clusters()
            .iter()
            .filter(|c| c.mode == Mode::FlinkCluster)
            .filter_map(|c| finding(s, index, c))
            .collect()
    }
}

/// The newest submitter pod whose `main` container ended with a non-zero exit code.
fn failed_pod<'a>(c: &Cluster<'a>) -> Option<(&'a Pod, &'a ContainerStateTerminated)> {
    c.submitter_pods
        .iter()
        .filter_map(|p| {
            let t = p
                .status
                .as_ref()?
                .container_statuses
                .as_ref()?
                .iter()
                .find(|cs| cs.name == FLINKCLUSTER_SUBMITTER_CONTAINER)?
                .state
                .as_ref()?
                .terminated
                .as_deref()?;
            (t.exit_code != 0).then_some((*p, t))
        })
        .max_by_key(|(_, t)| t.finished_at.as_ref().map(|f| f.0))
}

fn finding(s: &Snapshot, index: &Index, c: &Cluster) -> Option<Finding> {
    let (ns, name) = (c.namespace(), c.name());
    let job_status = c.flink_cluster.and_then(|fc| fc.job_status());
    let state = job_status.and_then(|j| j.state.as_deref()).unwrap_or("");
    let exit_in_status = job_status
        .and_then(|j| j.submitter_exit_code)
        .filter(|code| *code != 0 && *code != -1);
    let job = c.submitter_jobs.first().copied();
    let job_failed = job
        .and_then(|j| j.status.as_ref())
        .and_then(|st| st.failed)
        .is_some_and(|n| n > 0);
    let pod = failed_pod(c);
    let status_failed = state == "DeployFailed" || (state == "Failed" && exit_in_status.is_some());
    if !(job_failed || pod.is_some() || status_failed) {
        return None;
    }
    let job_name = job
        .and_then(|j| j.metadata.name.clone())
        .or_else(|| job_status.and_then(|j| j.submitter_name.clone()))
        .unwrap_or_else(|| flinkcluster_submitter_job(name));
    let exit = pod.map(|(_, t)| i64::from(t.exit_code)).or(exit_in_status);

    // What the submitter said: its log, its termination message, the reasons the operator kept.
    let logs = pod.map(|(p, _)| {
        LogEvidence::read(s, ns, pod_name(p), FLINKCLUSTER_SUBMITTER_CONTAINER, false)
    });
    let message = pod
        .and_then(|(_, t)| t.message.clone())
        .filter(|m| !m.trim().is_empty());
    let reasons: Vec<&str> = job_status
        .map(|j| j.failure_reasons.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mut said = String::new();
    for text in message
        .iter()
        .map(String::as_str)
        .chain(reasons.iter().copied())
    {
        said.push_str(text);
        said.push('\n');
    }
    let said_matches = catalogue().scan(&said);
    let root = logs
        .as_ref()
        .and_then(|l| l.root())
        .or_else(|| {
            let roots = super::support::containers::roots(&said_matches);
            roots
                .iter()
                .find(|m| !m.signature.category.is_symptom())
                .or(roots.first())
                .copied()
        })
        .filter(|m| !m.signature.category.is_symptom());
    let no_job_id = said.contains(NO_JOB_ID);

    let reason = if let Some(m) = root {
        m.title()
    } else if no_job_id {
        "`flink run` exited 0 but printed no job id: the program never executed a pipeline".into()
    } else if let Some(first) = said
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("message:") && !l.starts_with("jobID:"))
    {
        one_line(first)
    } else {
        "no reason recorded".into()
    };
    let exit_text = exit.map(|e| format!(" (exit {e})")).unwrap_or_default();
    let object = if job.is_some() {
        ObjectRef::namespaced("Job", ns, &job_name)
    } else {
        c.reference.clone()
    };
    let mut f = Finding::new(
        &META,
        object,
        format!("the job submitter of FlinkCluster {name} failed{exit_text}: {reason}"),
    )
    .deployment(Some(c.reference.clone()));
    if let Some(m) = root {
        f = with_category(f, m.signature.category);
    }
    if !state.is_empty() {
        let code = job_status
            .and_then(|j| j.submitter_exit_code)
            .map(|e| format!(", submitterExitCode {e}"))
            .unwrap_or_default();
        f = f.evidence(format!(
            "FlinkCluster {name} status.components.job.state: {state}{code}"
        ));
    }
    if let Some(j) = job {
        let st = j.status.as_ref();
        let failed = st.and_then(|x| x.failed).unwrap_or(0);
        let cond = st
            .and_then(|x| x.conditions.as_ref())
            .and_then(|cs| {
                cs.iter()
                    .find(|c| c.type_ == "Failed" && c.status == "True")
            })
            .map(|c| {
                format!(
                    " ({}: {})",
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                )
            })
            .unwrap_or_default();
        let backoff = j.spec.as_ref().and_then(|sp| sp.backoff_limit);
        f = f.evidence(format!(
            "Job {job_name}: {failed} failed pod(s){cond}{}",
            backoff
                .map(|b| format!(
                    ", backoffLimit {b} (the operator, not Kubernetes, decides on retries)"
                ))
                .unwrap_or_default()
        ));
    }
    if let Some((p, t)) = pod {
        f = f
            .evidence(format!(
                "pod {} container `{FLINKCLUSTER_SUBMITTER_CONTAINER}`: terminated, exit code {}{}",
                pod_name(p),
                t.exit_code,
                t.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ))
            .link(link::container(
                ns,
                pod_name(p),
                FLINKCLUSTER_SUBMITTER_CONTAINER,
            ));
    }
    if let Some(m) = &message {
        f = f.evidence(format!("terminated.message: {}", one_line(m)));
    } else if let Some(r) = reasons.first() {
        f = f.evidence(format!(
            "status.components.job.failureReasons[0]: {}",
            one_line(r)
        ));
    }
    if let Some(l) = &logs {
        for line in l.lines() {
            f = f.evidence(line);
        }
    }
    if let Some(fc) = c.flink_cluster {
        if let Some(jar) = fc.spec.job.as_ref().and_then(|j| j.jar_file.as_deref()) {
            f = f.evidence(format!("spec.job.jarFile: {jar}"));
        }
    }
    for e in index
        .events_for("Job", ns, &job_name)
        .into_iter()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .rev()
        .take(2)
    {
        f = f.evidence(event_line(e));
    }

    let logs_cmd =
        // The Job's name may be the FlinkCluster's status.components.job.submitterName: free text.
        format!(
            "kubectl logs {} -n {ns} -c {FLINKCLUSTER_SUBMITTER_CONTAINER}",
            crate::shell::quote(&format!("job/{job_name}"))
        );
    let retry = format!(
        "The operator does not rerun a failed submitter by itself (spec.job.restartPolicy Never, the default); a change of spec.job starts a new submission. If it does not, recreate the FlinkCluster from its manifest:\n\n  kubectl get flinkcluster {name} -n {ns} -o yaml > {name}.yaml   # edit, drop status\n  kubectl delete flinkcluster {name} -n {ns} && kubectl apply -f {name}.yaml"
    );
    let category = f.category;
    let first = match category {
        Category::JobJarNotFound => format!(
            "spec.job.jarFile must be a file inside the submitter's container: the submitter passes it to `flink run`, which reads a local path and does not download gs://, s3:// or http URLs. Build the jar into the image, or fetch it with an init container into a shared volume (spec.job.initContainers, spec.job.volumes and spec.job.volumeMounts), then point jarFile at that path:\n\n  kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"jarFile\":\"/opt/flink/job/<the jar>\"}}}}}}'"
        ),
        Category::JobEntryClassError => format!(
            "The entry class does not load from the jar: set spec.job.className to a class inside it:\n\n  kubectl patch flinkcluster {name} -n {ns} --type=merge -p '{{\"spec\":{{\"job\":{{\"className\":\"<fully.qualified.Main>\"}}}}}}'"
        ),
        Category::JobmanagerUnreachable => format!(
            "The submitter gave up waiting for the JobManager's REST API (`{name}-jobmanager:8081`, 120 tries over 10 minutes). Get the JobManager running first (its own finding says why), and check that Service {name}-jobmanager has endpoints:\n\n  kubectl get pods,endpoints -n {ns} -l {}",
            crate::shell::sh(&crate::flink::mode::Mode::FlinkCluster.selector(
                Some(name),
                Some(crate::flink::mode::Component::JobManager)
            ))
        ),
        _ if no_job_id => format!(
            "The program ran and exited 0 without submitting a job: its main() built no pipeline or never called execute() (or caught the exception that stopped it). Fix the program, or its arguments in spec.job.args; the log shows what it printed:\n\n  {logs_cmd}"
        ),
        _ => match root {
            Some(m) => format!("{}\n\n{}", m.signature.explanation, m.fix()),
            None => format!(
                "Read what the submitter printed (the `flink run` command line and the CLI's answer), fix what it names in spec.job or the image:\n\n  {logs_cmd}"
            ),
        },
    };
    Some(
        f.fix(format!("{first}\n\n{retry}")).verify(format!(
            "kubectl get flinkcluster {name} -n {ns} -o jsonpath='{{.status.components.job.state}}'   # expect: Running (or Succeeded for a batch job)"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, scenario, HEALTHY_SCENARIOS};

    #[test]
    fn a_submitter_that_cannot_read_a_remote_jar_is_the_missing_jar() {
        let s = scenario("mode-flinkcluster-submitter-failed");
        let f = run(&FlinkclusterSubmitterFailed, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.category, Category::JobJarNotFound);
        assert_eq!(
            f.object.to_string(),
            "Job/wordcount-job-submitter -n scn-mode-flinkcluster-submitter"
        );
        assert_eq!(f.deployment.as_ref().unwrap().kind, "FlinkCluster");
        assert!(f.title.contains("(exit 1)"), "{}", f.title);
        let ev = f.evidence.join("\n");
        assert!(
            ev.contains("status.components.job.state: DeployFailed, submitterExitCode 1"),
            "{ev}"
        );
        assert!(
            ev.contains("JAR file does not exist: gs:/analytics-jobs/wordcount-1.0.jar"),
            "{ev}"
        );
        assert!(ev.contains("BackoffLimitExceeded"), "{ev}");
        assert!(f.fix.contains("\"jarFile\""), "{}", f.fix);
    }

    #[test]
    fn the_status_alone_is_enough_when_the_job_and_pods_are_gone() {
        let mut s = scenario("mode-flinkcluster-submitter-failed");
        s.jobs.clear();
        s.pods.retain(|p| !pod_name(p).contains("job-submitter"));
        let f = run(&FlinkclusterSubmitterFailed, &s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].object.kind, "FlinkCluster");
        // The reasons the operator kept still name the missing jar.
        assert_eq!(f[0].category, Category::JobJarNotFound);
        assert!(f[0]
            .evidence
            .iter()
            .any(|e| e.contains("failureReasons[0]")));
    }

    #[test]
    fn a_submitter_that_found_no_jobmanager_says_so() {
        let mut s = scenario("mode-flinkcluster-submitter-failed");
        for fc in &mut s.flink_clusters {
            let job = fc
                .status
                .as_mut()
                .and_then(|st| st.components.as_mut())
                .and_then(|c| c.job.as_mut())
                .unwrap();
            job.failure_reasons = vec!["Aborted submit because JobManager is unavailable.".into()];
        }
        s.jobs.clear();
        s.pods.retain(|p| !pod_name(p).contains("job-submitter"));
        let f = run(&FlinkclusterSubmitterFailed, &s);
        assert_eq!(f[0].category, Category::JobmanagerUnreachable);
    }

    #[test]
    fn silent_on_a_submitter_that_succeeded_and_on_healthy_bundles() {
        for name in HEALTHY_SCENARIOS
            .iter()
            .chain(["mode-flinkcluster-job-lost"].iter())
        {
            assert!(
                run(&FlinkclusterSubmitterFailed, &scenario(name)).is_empty(),
                "{name}"
            );
        }
    }
}

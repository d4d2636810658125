//! FLK459: a FlinkSessionJob whose `jarURI` is `local://`.
//!
//! In application mode `local://` names a file inside the Flink image, which the JobManager
//! reads. A session job has no image of its own: the operator fetches the jar (http(s), or a
//! file system its own image has a plugin for) and uploads it to the running session cluster
//! over REST. A path inside some image is not something it can fetch, so the job never starts.

use super::{Check, Hit};
use crate::finding::{Category, Severity};
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK459",
        name: "session_job_local_jar",
        summary: "A FlinkSessionJob's jarURI is local://, which session mode cannot read.",
        category: Category::JobJarNotFound,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"give the session job a jarURI the session cluster can fetch (https:// or s3://): a session cluster cannot read local:// from the job's own image"#,
        verify: r#"kubectl flink lint -f flinksessionjob.yaml   # expect no FLK459"#,
    },
    help: "A session job's jar is fetched by the operator and uploaded to the session cluster over REST; local:// \
names a file inside a container image, which the operator cannot reach. Publish the jar where the operator can \
fetch it (https://, or s3:// / gs:// with the matching plugin in the operator's image), or run the job in \
application mode (a FlinkDeployment with spec.job), where local:// reads the job's own image.",
    run,
};

fn run(m: &Manifest, lint: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkSessionJob {
        return Vec::new();
    }
    let Some(uri) = m.str_at("spec.job.jarURI") else {
        return Vec::new();
    };
    if !uri.trim().to_ascii_lowercase().starts_with("local://") {
        return Vec::new();
    }
    let cluster = m
        .str_at("spec.deploymentName")
        .unwrap_or("<session cluster>");
    let jar = crate::shell::escape_controls(uri.rsplit('/').next().unwrap_or("job.jar"));
    let shown = crate::shell::escape_controls(uri);
    let mut hit = Hit::path(
        "spec.job.jarURI",
        format!("spec.job.jarURI: {uri}"),
        "session job jarURI is local://: the operator cannot fetch a file from inside an image, so the job is never submitted",
    )
    .evidence("the operator downloads a session job's jar itself and uploads it to the session cluster over REST");
    if lint
        .session_cluster(m)
        .is_some_and(|c| c.get("spec.job").is_some())
    {
        let cluster = crate::shell::escape_controls(cluster);
        hit = hit.evidence(format!("{cluster} also has spec.job: it is an application cluster, which does not take session jobs"));
    }
    vec![hit
        .fix(format!(
            "Publish the jar where the operator can fetch it:\n\n\
             spec:\n\
             \x20 job:\n\
             \x20   jarURI: https://<artifact-repository>/{jar}   # or s3:// / gs:// with the plugin in the operator's image\n\
             \n\
             or run it in application mode, where local:// reads the job's image: a FlinkDeployment with\n\
             spec.job.jarURI: {shown} and an image containing the jar."
        ))
        .verify(format!(
            "kubectl get flinksessionjob {}{} -o jsonpath='{{.status.jobStatus.state}} {{.status.error}}'   # expect RUNNING and no error",
            crate::shell::sh(&m.name),
            m.ns_flag()
        ))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::hits;

    const JOB: &str = "apiVersion: flink.apache.org/v1beta1\nkind: FlinkSessionJob\nmetadata:\n  name: basic-session-job-example\nspec:\n  deploymentName: basic-session-deployment-example\n  job:\n    jarURI: https://repo1.maven.org/maven2/org/apache/flink/flink-examples-streaming_2.12/1.16.1/flink-examples-streaming_2.12-1.16.1-TopSpeedWindowing.jar\n    parallelism: 4\n    upgradeMode: stateless\n";

    #[test]
    fn fires_on_local_jars_only() {
        assert!(hits(&CHECK, JOB).is_empty());
        let bad = JOB.replace(
            "https://repo1.maven.org/maven2/org/apache/flink/flink-examples-streaming_2.12/1.16.1/flink-examples-streaming_2.12-1.16.1-TopSpeedWindowing.jar",
            "local:///opt/flink/examples/streaming/TopSpeedWindowing.jar",
        );
        let h = hits(&CHECK, &bad);
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.job.jarURI: local:///opt/flink/examples/streaming/TopSpeedWindowing.jar"
        );
        assert!(h[0]
            .fix
            .contains("https://<artifact-repository>/TopSpeedWindowing.jar"));
    }

    #[test]
    fn local_jars_in_application_mode_are_fine() {
        assert!(hits(&CHECK, crate::lint::checks::testing::BASIC).is_empty());
    }
}

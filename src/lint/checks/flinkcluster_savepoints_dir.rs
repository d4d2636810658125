//! FLK462: a FlinkCluster job cluster (`spec.job` set) without `spec.job.savepointsDir`.
//!
//! The GCP/Spotify operator's validating webhook refuses every later change of such a job: "updating
//! job is not allowed when spec.job.savepointsDir was not provided", and refuses savepoint requests:
//! "savepoint is not allowed without spec.job.savepointsDir, annotation: %v"
//! (spotify/flink-on-k8s-operator@v0.6.0:apis/flinkcluster/v1beta1/flinkcluster_validate.go,
//! `validateJobUpdate`, `InvalidSavepointDirMsg`); the field's documentation: "Savepoints dir where
//! to store savepoints of the job" (flinkcluster_types.go `JobSpec.SavepointsDir`), and
//! `autoSavepointSeconds` "Automatically take a savepoint to the `savepointsDir`". Only visible
//! before apply: once created, the savepointsDir cannot be added by an update either.

use super::{Check, Hit};
use crate::finding::{Category, Severity};
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK462",
        name: "flinkcluster_no_savepoints_dir",
        summary: "A FlinkCluster with spec.job and no spec.job.savepointsDir: the operator's webhook refuses every later update of the job, and no savepoint can be taken.",
        category: Category::UpgradeFailed,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"set spec.job.savepointsDir to durable storage (s3://, gs://, a volume) the JobManager can write"#,
        verify: r#"kubectl flink lint -f flinkcluster.yaml   # expect no FLK462"#,
    },
    help: "The GCP/Spotify operator keeps a job's state across updates and restarts through savepoints in \
spec.job.savepointsDir. Without it, its webhook refuses any change of the job (\"updating job is not allowed when \
spec.job.savepointsDir was not provided\"), savepoint requests (\"savepoint is not allowed without \
spec.job.savepointsDir\"), and a failed or lost job has nothing to restart from. Set it to a durable directory \
the JobManager and TaskManagers can write before the first apply: adding it later is itself an update.",
    run,
};

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkCluster || m.get("spec.job").is_none_or(|j| !j.is_object()) {
        return Vec::new();
    }
    if m.str_at("spec.job.savepointsDir")
        .is_some_and(|d| !d.trim().is_empty())
    {
        return Vec::new();
    }
    let file = if m.file == crate::lint::source::STDIN {
        "-"
    } else {
        m.file
    };
    vec![Hit::path(
        "spec.job",
        "spec.job: no savepointsDir",
        format!(
            "FlinkCluster {} runs a job without spec.job.savepointsDir: the operator's webhook will refuse every update of the job, and no savepoint can be taken",
            crate::shell::escape_controls(&m.name)
        ),
    )
    .evidence("flinkcluster_validate.go (v0.6.0) refuses a job update: \"updating job is not allowed when spec.job.savepointsDir was not provided\"")
    .evidence("and a savepoint request: \"savepoint is not allowed without spec.job.savepointsDir\"")
    .fix(format!(
        "Give the job a durable savepoint directory before the first apply (adding it later is an update the webhook refuses), and let the operator take savepoints there:\n\n\
         spec:\n\
         \x20 job:\n\
         \x20   savepointsDir: gs://<bucket>/savepoints/{}   # or s3://, hdfs://: a path the JobManager and TaskManagers can write\n\
         \x20   autoSavepointSeconds: 300",
        crate::shell::escape_controls(&m.name)
    ))
    .verify(format!(
        "kubectl flink lint -f {}   # expect: no FLK462",
        crate::shell::sh(file)
    ))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::hits;

    pub const FLINK_CLUSTER: &str = r#"
apiVersion: flinkoperator.k8s.io/v1beta1
kind: FlinkCluster
metadata:
  name: topspeed
  namespace: analytics
spec:
  flinkVersion: "1.14"
  image:
    name: flink:1.14.2
  job:
    jarFile: ./examples/streaming/TopSpeedWindowing.jar
    savepointsDir: gs://flink-sp/topspeed
    autoSavepointSeconds: 300
"#;

    #[test]
    fn a_job_without_savepoints_dir() {
        assert!(hits(&CHECK, FLINK_CLUSTER).is_empty());
        let yaml = FLINK_CLUSTER.replace("    savepointsDir: gs://flink-sp/topspeed\n", "");
        let h = hits(&CHECK, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].what, "spec.job: no savepointsDir");
        assert!(
            h[0].fix
                .contains("savepointsDir: gs://<bucket>/savepoints/topspeed"),
            "{}",
            h[0].fix
        );
        // A session cluster (no spec.job) has no job to update.
        let session = FLINK_CLUSTER.split("  job:\n").next().unwrap();
        assert!(hits(&CHECK, session).is_empty());
    }
}

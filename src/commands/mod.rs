//! Thin glue of the pipeline stages, one file per command.

pub mod can_i;
pub mod completion;
pub mod doctor;
pub mod explain;
pub mod fleet;
pub mod lint;
pub mod logs;
pub mod overview;
pub mod triage;
pub mod watch;

use crate::cli::FailOn;
use crate::error::Error;
use crate::error::{EXIT_FINDINGS, EXIT_OK};
use crate::finding::Severity;
use crate::rank::Report;

/// The exit code for a completed diagnosis: 1 when anything is at or above `--fail-on`.
/// Runs a command that reads the cluster within its whole-run deadline (see
/// `cluster::client::run_deadline`); past it, the run ends as "could not complete" (exit 3).
pub async fn within<T>(
    deadline: Option<std::time::Duration>,
    run: impl std::future::Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let Some(limit) = deadline else {
        return run.await;
    };
    match tokio::time::timeout(limit, run).await {
        Ok(result) => result,
        Err(_) => Err(Error::Incomplete(format!(
            "gave up after {} s: the API server answers too slowly (the run may take 10 x --request-timeout)",
            limit.as_secs()
        ))),
    }
}

/// The report is written: a reader that closed the pipe (`| head`) has what it wanted, which is
/// not a failure (quiet, as kubectl is); any other write error is.
pub fn report_written(result: std::io::Result<()>) -> Result<(), Error> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::incomplete("write the report", e)),
        Ok(()) => Ok(()),
    }
}

pub fn exit_code(report: &Report, fail_on: FailOn) -> i32 {
    let threshold = match fail_on {
        FailOn::Critical => Severity::Critical,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
        FailOn::Never => return EXIT_OK,
    };
    if report
        .findings
        .iter()
        .any(|f| f.severity.at_least(threshold))
    {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

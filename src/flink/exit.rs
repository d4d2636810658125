//! What a container's exit code means for a Flink process: ClusterEntrypoint's and
//! TaskManagerRunner's return codes (STARTUP_FAILURE_RETURN_CODE 1, RUNTIME_FAILURE_RETURN_CODE 2),
//! FatalExitExceptionHandler.EXIT_CODE and JvmShutdownSafeguard's halt code (-17, seen as 239),
//! ApplicationStatus.processExitCode (1443 FAILED, 1445 UNKNOWN, seen modulo 256), and the
//! signals Kubernetes uses (137 SIGKILL, 143 SIGTERM).
//!
//! Sources: apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/
//! entrypoint/ClusterEntrypoint.java, .../util/FatalExitExceptionHandler.java,
//! .../util/JvmShutdownSafeguard.java, .../clusterframework/ApplicationStatus.java.

/// The meaning of `code` (also as the signed byte Java passed to `System.exit`/`halt`), or `None`
/// for a code Flink gives no meaning to.
pub fn meaning(code: i64) -> Option<&'static str> {
    Some(match code {
        0 => "normal exit",
        1 => "startup failure (the cluster entrypoint or TaskManagerRunner could not start)",
        2 => "runtime failure (a fatal error in the running Flink process)",
        137 => "SIGKILL: killed by its memory limit (OOMKilled) or forcibly stopped",
        143 => "SIGTERM: stopped from outside (pod deleted, preempted, scaled down)",
        163 => "application status FAILED (1443)",
        165 => "application status UNKNOWN (1445)",
        239 | -17 => "Flink's fatal-error exit (-17): FatalExitExceptionHandler after an uncaught exception, or JvmShutdownSafeguard halting a shutdown after a fatal error that hung",
        _ => return None,
    })
}

/// `meaning` in a few plain words, for a title a person reads before the detail: what happened,
/// not the mechanism.
pub fn short_meaning(code: i64) -> Option<&'static str> {
    Some(match code {
        0 => "a normal exit",
        1 => "Flink could not start",
        2 => "a fatal error in the running process",
        137 => "killed (SIGKILL)",
        143 => "stopped from outside (SIGTERM)",
        163 => "the job FAILED",
        165 => "the job's status is UNKNOWN",
        239 | -17 => "Flink's fatal-error exit",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_exit_codes_read_the_same_as_the_byte_kubernetes_reports() {
        assert_eq!(meaning(239), meaning(-17));
        assert!(meaning(239).unwrap().contains("JvmShutdownSafeguard"));
        assert!(meaning(3).is_none());
    }
}

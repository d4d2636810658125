//! The last resort of the status rules: a category from the words of an error that no signature
//! matched (the Apache operator's `status.error` and events, Lyft's `lastSeenError`). Signatures
//! come first; these are the phrases those operators write around the failures they relay.

use crate::finding::Category;

/// The category the words point at, most specific first; `None` when they point at none.
pub fn category(text: &str) -> Option<Category> {
    // "Flink version null": the operator had no version to check (a FlinkSessionJob whose
    // session FlinkDeployment did not exist: apache/flink-kubernetes-operator@release-1.10.0:
    // flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/utils/ValidatorUtils.java),
    // not a version it refuses (SIG-FLINK-VERSION-UNSUPPORTED skips it too).
    let lower = text.to_ascii_lowercase().replace(
        "flink version null is not supported by this operator version",
        "",
    );
    let has = |ks: &[&str]| ks.iter().any(|k| lower.contains(&k.to_ascii_lowercase()));
    Some(
        if has(&[
            "Flink Version must be defined",
            "is not supported",
            "UnsupportedFlinkVersion",
        ]) && lower.contains("flink")
        {
            Category::FlinkVersionUnsupported
        } else if has(&[
            "HA metadata",
            "the configmaps have been deleted",
            "Manual restore required",
        ]) {
            // The Apache operator's UpgradeFailureException wording (CommonStatus' MSG_* texts):
            // a stateful upgrade or restore it cannot carry out.
            Category::UpgradeFailed
        } else if has(&["Job Not Found"]) {
            Category::JobmanagerRestartWithoutHa
        } else if has(&[
            "High availability should be enabled",
            "HA must be enabled",
            "high-availability.storageDir",
        ]) {
            Category::HaMisconfigured
        } else if has(&[
            "ClassNotFoundException",
            "NoClassDefFoundError",
            "Could not find the provided job class",
            "entry class",
        ]) {
            Category::JobEntryClassError
        } else if (has(&["jarURI", "FileNotFoundException"]) && lower.contains("jar"))
            || (has(&[".jar"]) && has(&["not found", "no such file", "does not exist", "404"]))
        {
            Category::JobJarNotFound
        } else if has(&["Could not find a file system implementation for scheme"]) {
            Category::FilesystemPluginMissing
        } else if has(&[
            "NoResourceAvailableException",
            "Could not acquire the minimum required resources",
        ]) {
            Category::NoSlots
        } else if has(&["exceeded quota", "failed quota"]) {
            Category::ResourceQuotaExceeded
        } else if has(&[
            "ErrImagePull",
            "ImagePullBackOff",
            "pull access denied",
            "manifest unknown",
        ]) {
            Category::ImagePullFailed
        } else if let Some(user) = forbidden_service_account(&lower) {
            if is_flink_operator_account(user) {
                Category::OperatorRbacMissing
            } else {
                Category::RbacForbidden
            }
        } else if has(&[
            "resource memory must be defined",
            "memory.process.size",
            "memory configuration",
        ]) {
            Category::MemoryConfigInvalid
        } else if has(&["Checkpoint directory", "savepoint", "checkpoint"])
            && has(&[
                "restore",
                "must be defined",
                "not found",
                "does not exist",
                "could not",
                "failed",
            ])
        {
            Category::SavepointRestoreFailed
        } else if has(&["OutOfMemoryError"]) {
            Category::JvmOutOfMemory
        } else if has(&[
            "Cannot switch from",
            "can't be changed",
            "UpgradeFailureException",
        ]) {
            Category::UpgradeFailed
        } else if has(&[
            "spec.serviceAccount must be defined",
            "Forbidden Flink config key",
            "must be larger than",
            "is invalid, must consist",
        ]) {
            Category::WebhookRejected
        } else {
            return None;
        },
    )
}

/// `ns:name` is a Flink operator's account: "operator" in its name, and "flink" in the name or the
/// namespace (SIG-K8S-FORBIDDEN-OPERATOR reads a 403 the same way).
fn is_flink_operator_account(user: &str) -> bool {
    let name = user.rsplit(':').next().unwrap_or(user);
    name.contains("operator") && user.contains("flink")
}

/// `ns:name` of the ServiceAccount in an API server 403 (`is forbidden: User
/// "system:serviceaccount:ns:name"`), lowercased text in, if there is one.
fn forbidden_service_account(lower: &str) -> Option<&str> {
    const HEAD: &str = "is forbidden: user \"system:serviceaccount:";
    let rest = &lower[lower.find(HEAD)? + HEAD.len()..];
    Some(&rest[..rest.find('"')?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phrases_of_both_operators() {
        assert_eq!(
            category("java.lang.ClassNotFoundException: com.example.Main"),
            Some(Category::JobEntryClassError)
        );
        assert_eq!(
            category("jar file job.jar not found in /opt/flink/usrlib"),
            Some(Category::JobJarNotFound)
        );
        assert_eq!(
            category("HA metadata not available to restore from last state"),
            Some(Category::UpgradeFailed)
        );
        assert_eq!(
            category("Job Not Found"),
            Some(Category::JobmanagerRestartWithoutHa)
        );
        assert_eq!(category("everything is fine"), None);
    }

    /// The lab's session-job-no-cluster on operator 1.10.0 once the session cluster ran: the
    /// session job's error was the REST API refusing the jar upload, beside the event of before
    /// the cluster existed.
    #[test]
    fn a_null_flink_version_is_no_unsupported_version() {
        assert_eq!(
            category("Flink version v1_13 is not supported by this operator version"),
            Some(Category::FlinkVersionUnsupported)
        );
        assert_eq!(
            category("Flink version null is not supported by this operator version"),
            None
        );
        assert_eq!(
            category("java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]\nFlink version null is not supported by this operator version"),
            None
        );
    }

    #[test]
    fn a_403_is_the_operator_s_only_when_its_account_is() {
        let jm = r#"org.apache.flink.kubernetes.operator.exception.ReconciliationException: pods is forbidden: User "system:serviceaccount:analytics:default" cannot list"#;
        assert_eq!(category(jm), Some(Category::RbacForbidden));
        let op = r#"flinkapplications.flink.k8s.io "x" is forbidden: User "system:serviceaccount:flink-operator:flinkoperator" cannot update"#;
        assert_eq!(category(op), Some(Category::OperatorRbacMissing));
        let other = r#"configmaps "a" is forbidden: User "system:serviceaccount:db:aerospike-operator-controller-manager" cannot get"#;
        assert_eq!(category(other), Some(Category::RbacForbidden));
    }
}

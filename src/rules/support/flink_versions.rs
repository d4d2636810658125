//! The Flink versions (`spec.flinkVersion`) each release of the Apache operator supports.

use super::install::Version;

/// The `spec.flinkVersion` values each operator release's own CRD allows
/// (apache/flink-kubernetes-operator@release-X:helm/flink-kubernetes-operator/crds/flinkdeployments.flink.apache.org-v1.yml),
/// which is what the API server admits. Up to 1.14.0 that is exactly the enum of its API
/// (@release-X:flink-kubernetes-operator-api/src/main/java/org/apache/flink/kubernetes/operator/api/spec/FlinkVersion.java;
/// before 1.3.0 flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/crd/spec/FlinkVersion.java).
/// release-1.15.0's Java enum adds v2_3 and v2_4, but the CRD it ships stops at v2_2: a genuine
/// 1.15.0 install is no skew, so 1.15.0 is listed with its CRD's values (those of 1.13.0).
pub const FLINK_VERSIONS: &[(Version, &[&str])] = &[
    (Version(1, 0, 0), &["v1_13", "v1_14", "v1_15", "v1_16"]),
    (
        Version(1, 4, 0),
        &["v1_13", "v1_14", "v1_15", "v1_16", "v1_17"],
    ),
    (
        Version(1, 6, 0),
        &["v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18"],
    ),
    (
        Version(1, 7, 0),
        &[
            "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19",
        ],
    ),
    (
        Version(1, 10, 0),
        &[
            "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20",
        ],
    ),
    (
        Version(1, 11, 0),
        &[
            "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20", "v2_0",
        ],
    ),
    (
        Version(1, 13, 0),
        &[
            "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20", "v2_0", "v2_1",
            "v2_2",
        ],
    ),
];

/// The Flink versions operator VERSION knows: those of the newest release at or before it.
pub fn operator_flink_versions(version: Version) -> Option<&'static [&'static str]> {
    FLINK_VERSIONS
        .iter()
        .rev()
        .find(|(since, _)| *since <= version)
        .map(|(_, v)| *v)
}

/// The newest Flink version operator VERSION supports, with the official image of that release
/// line: (`v1_19`, `flink:1.19`).
pub fn newest(version: Version) -> Option<(&'static str, String)> {
    let v = *operator_flink_versions(version)?.last()?;
    let image = format!("flink:{}", v.trim_start_matches('v').replace('_', "."));
    Some((v, image))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_of_a_release() {
        assert_eq!(
            newest(Version(1, 7, 0)),
            Some(("v1_19", "flink:1.19".to_string()))
        );
        assert_eq!(
            newest(Version(1, 10, 0)),
            Some(("v1_20", "flink:1.20".to_string()))
        );
        assert_eq!(newest(Version(0, 9, 0)), None);
    }
}

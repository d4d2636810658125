//! The official Flink image a fix names: the release line the deployment declares, else the one an
//! official image's own tag names, else one marked placeholder for the person who knows.
//!
//! The official images are Docker Hub's library image `flink` and `apache/flink`; both are tagged
//! by release line (`flink:1.18`, `apache/flink:1.18.1-scala_2.12-java17`).

/// What a fix prints when neither the spec nor the image says which Flink it is.
pub const PLACEHOLDER: &str = "flink:<your Flink version>";

/// The official image of a declared Flink version: `v1_18` (a FlinkDeployment's
/// `spec.flinkVersion`), `1.18` or `1.18.1` (a FlinkCluster's or a FlinkApplication's
/// `spec.flinkVersion`, free text) -> `flink:1.18`.
pub fn official_image(version: &str) -> Option<String> {
    let v = version.trim();
    let v = v.strip_prefix(['v', 'V']).unwrap_or(v);
    let mut parts = v.split(['_', '.']);
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    Some(format!("flink:{major}.{minor}"))
}

/// The release line of an official Flink image, by its own tag: `flink:1.18.1-java17`,
/// `docker.io/library/flink:1.18`, `apache/flink:1.18.1-scala_2.12@sha256:...` -> `flink:1.18`.
/// Any other image (a custom build, a mirror in another registry, a tag without a version such as
/// `latest`) says nothing: its tag is its owner's scheme.
pub fn official_image_of(image: &str) -> Option<String> {
    let image = image.split('@').next()?.trim();
    let (repo, tag) = image.rsplit_once(':')?;
    if tag.contains('/') {
        return None;
    }
    let repo = repo
        .strip_prefix("docker.io/")
        .or_else(|| repo.strip_prefix("index.docker.io/"))
        .unwrap_or(repo);
    if !matches!(repo, "flink" | "library/flink" | "apache/flink") {
        return None;
    }
    let release = tag.split('-').next()?;
    let mut parts = release.split('.');
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    Some(format!("flink:{major}.{minor}"))
}

/// The image a fix names: the official image of the DECLARED version, else of the official IMAGE's
/// tag, else [`PLACEHOLDER`].
pub fn flink_image(declared: Option<&str>, image: Option<&str>) -> String {
    declared
        .and_then(official_image)
        .or_else(|| image.and_then(official_image_of))
        .unwrap_or_else(|| PLACEHOLDER.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_version_names_its_official_image() {
        assert_eq!(official_image("v1_18").as_deref(), Some("flink:1.18"));
        assert_eq!(official_image("v2_0").as_deref(), Some("flink:2.0"));
        assert_eq!(official_image("1.14.2").as_deref(), Some("flink:1.14"));
        assert_eq!(official_image("1.11").as_deref(), Some("flink:1.11"));
        assert_eq!(official_image("v1"), None);
        assert_eq!(official_image("latest"), None);
        assert_eq!(official_image(""), None);
    }

    #[test]
    fn only_an_official_image_s_tag_says_its_version() {
        for (image, want) in [
            ("flink:1.18", Some("flink:1.18")),
            ("flink:1.18.1-scala_2.12-java17", Some("flink:1.18")),
            ("docker.io/library/flink:1.19.2", Some("flink:1.19")),
            ("apache/flink:2.0.0-java21", Some("flink:2.0")),
            ("apache/flink:1.20@sha256:0123abcd", Some("flink:1.20")),
            ("flink:latest", None),
            ("flink", None),
            ("registry.example.com/team/flink:1.18", None),
            ("myorg/flink:1.18", None),
            ("registry:5000/flink", None),
            ("registry.example.com/data/ledger-flink:2.3.0", None),
        ] {
            assert_eq!(official_image_of(image).as_deref(), want, "{image}");
        }
    }

    #[test]
    fn the_spec_first_then_the_image_then_a_placeholder() {
        assert_eq!(flink_image(Some("v1_18"), Some("flink:1.20")), "flink:1.18");
        assert_eq!(flink_image(None, Some("flink:1.20.1")), "flink:1.20");
        assert_eq!(
            flink_image(Some("not a version"), Some("flink:1.17")),
            "flink:1.17"
        );
        assert_eq!(
            flink_image(None, Some("registry.example.com/team/orders:1.4")),
            PLACEHOLDER
        );
        assert_eq!(flink_image(None, None), "flink:<your Flink version>");
    }
}

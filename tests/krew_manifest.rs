//! krew-manifest/flink.yaml against the rules krew-index's `validate-krew-manifest` enforces
//! (kubernetes-sigs/krew internal/index/validation) and the index reviewers' conventions.

use regex::Regex;
use serde_yaml::Value;
use std::path::{Path, PathBuf};

const GOOS: &[&str] = &["linux", "darwin", "windows", "freebsd"];
const GOARCH: &[&str] = &["amd64", "arm64", "386", "arm", "ppc64le", "s390x"];

fn manifest_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("krew-manifest/flink.yaml")
}

fn manifest() -> Value {
    let text =
        std::fs::read_to_string(manifest_path()).expect("krew-manifest/flink.yaml is readable");
    serde_yaml::from_str(&text).expect("krew-manifest/flink.yaml is YAML")
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for key in path {
        cur = cur
            .get(*key)
            .unwrap_or_else(|| panic!("missing {}", path.join(".")));
    }
    cur.as_str()
        .unwrap_or_else(|| panic!("{} is not a string", path.join(".")))
}

fn platforms(m: &Value) -> &Vec<Value> {
    m["spec"]["platforms"]
        .as_sequence()
        .expect("spec.platforms is a list")
}

/// The os/arch labels a platform's selector requires (krew uses matchLabels only here).
fn selector(p: &Value) -> (String, String) {
    let sel = &p["selector"];
    assert!(
        sel.get("matchExpressions").is_none(),
        "use matchLabels only: {sel:?}"
    );
    let labels = sel["matchLabels"]
        .as_mapping()
        .expect("selector.matchLabels");
    assert!(!labels.is_empty(), "empty selector matches every platform");
    for k in labels.keys() {
        let k = k.as_str().unwrap();
        assert!(k == "os" || k == "arch", "unknown selector label {k}");
    }
    let os = labels
        .get("os")
        .and_then(Value::as_str)
        .expect("selector has os")
        .to_string();
    let arch = labels
        .get("arch")
        .and_then(Value::as_str)
        .expect("selector has arch")
        .to_string();
    (os, arch)
}

#[test]
fn header_and_metadata() {
    let m = manifest();
    assert_eq!(
        str_at(&m, &["apiVersion"]),
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(str_at(&m, &["kind"]), "Plugin");
    let name = str_at(&m, &["metadata", "name"]);
    let stem = manifest_path()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(name, stem, "metadata.name must equal the file name");
    assert!(Regex::new(r"^[\w-]+$").unwrap().is_match(name));
}

#[test]
fn version_is_semver_with_v_and_matches_the_crate() {
    let m = manifest();
    let version = str_at(&m, &["spec", "version"]);
    let semver = Regex::new(
        r"^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$",
    )
    .unwrap();
    assert!(
        semver.is_match(version),
        "version {version} is not semver with a leading v"
    );
    assert_eq!(
        version,
        format!("v{}", env!("CARGO_PKG_VERSION")),
        "manifest and Cargo.toml disagree"
    );
    for p in platforms(&m) {
        let uri = p["uri"].as_str().unwrap();
        assert!(
            uri.contains(&format!("/{version}/")),
            "{uri} is not the {version} release"
        );
    }
}

#[test]
fn descriptions() {
    let m = manifest();
    assert!(str_at(&m, &["spec", "homepage"]).starts_with("https://"));
    let short = str_at(&m, &["spec", "shortDescription"]);
    assert!(
        short.chars().count() <= 50,
        "shortDescription is {} chars",
        short.chars().count()
    );
    assert!(!short.contains('\n') && !short.trim().is_empty());
    for field in ["description", "caveats"] {
        let text = str_at(&m, &["spec", field]);
        assert!(!text.trim().is_empty(), "{field} is empty");
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{field} line over 80 columns: {line:?}"
            );
        }
    }
    // The index reviewers ask for a description without usage examples or flag lists.
    for line in str_at(&m, &["spec", "description"]).lines() {
        let t = line.trim_start();
        assert!(
            !t.starts_with("$ ") && !t.starts_with("kubectl ") && !t.contains(" --"),
            "description has a usage example or flag: {line:?}"
        );
    }
    let caveats = str_at(&m, &["spec", "caveats"]);
    assert!(
        caveats.contains("get, list") && caveats.contains("watch"),
        "caveats name the read-only RBAC"
    );
    assert!(caveats.contains("subjectaccessreviews"));
}

#[test]
fn platforms_are_complete_and_do_not_overlap() {
    let m = manifest();
    let ps = platforms(&m);
    assert!(!ps.is_empty());
    let selectors: Vec<(String, String)> = ps.iter().map(selector).collect();
    for (os, arch) in &selectors {
        assert!(
            GOOS.contains(&os.as_str()) && GOARCH.contains(&arch.as_str()),
            "unsupported {os}/{arch}"
        );
    }
    // No os/arch pair may be matched by two platforms.
    for os in GOOS {
        for arch in GOARCH {
            let matching = selectors
                .iter()
                .filter(|(o, a)| o == os && a == arch)
                .count();
            assert!(
                matching <= 1,
                "{os}/{arch} is matched by {matching} platforms"
            );
        }
    }
    for want in [
        ("linux", "amd64"),
        ("linux", "arm64"),
        ("darwin", "amd64"),
        ("darwin", "arm64"),
        ("windows", "amd64"),
    ] {
        assert!(
            selectors
                .iter()
                .any(|(o, a)| (o.as_str(), a.as_str()) == want),
            "no platform for {want:?}"
        );
    }
}

#[test]
fn every_platform_is_installable() {
    let m = manifest();
    let sha = Regex::new(r"^[a-f0-9]{64}$").unwrap();
    let license = Regex::new(r"(?i)^licen[cs]es?(\.txt|\.md)?$").unwrap();
    for p in platforms(&m) {
        let (os, arch) = selector(p);
        let at = format!("{os}/{arch}");
        let uri = p["uri"].as_str().unwrap_or_else(|| panic!("{at}: no uri"));
        assert!(uri.starts_with("https://"), "{at}: {uri}");
        assert!(
            uri.ends_with(".tar.gz") || uri.ends_with(".zip"),
            "{at}: archive must be .tar.gz or .zip"
        );
        let digest = p["sha256"]
            .as_str()
            .unwrap_or_else(|| panic!("{at}: no sha256"));
        assert!(
            sha.is_match(digest),
            "{at}: sha256 {digest:?} is not 64 lowercase hex"
        );
        let bin = p["bin"].as_str().unwrap_or_else(|| panic!("{at}: no bin"));
        if os == "windows" {
            assert!(bin.ends_with(".exe"), "{at}: windows bin must end in .exe");
            assert!(uri.ends_with(".zip"), "{at}: windows archive is a .zip");
        } else {
            assert!(!bin.ends_with(".exe"), "{at}: {bin}");
            assert!(uri.ends_with(".tar.gz"), "{at}: {uri}");
        }
        let files = p["files"]
            .as_sequence()
            .unwrap_or_else(|| panic!("{at}: no files"));
        assert!(
            !files.is_empty(),
            "{at}: files, when present, must not be empty"
        );
        let from: Vec<&str> = files
            .iter()
            .map(|f| f["from"].as_str().expect("files[].from"))
            .collect();
        for f in files {
            assert!(f["to"].as_str().is_some(), "{at}: files[].to");
        }
        assert!(from.contains(&bin), "{at}: bin {bin} is not extracted");
        assert!(
            from.iter().any(|f| license.is_match(f)),
            "{at}: LICENSE is not extracted"
        );
    }
}

#[test]
fn the_license_shipped_is_apache_2() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("LICENSE"))
        .expect("LICENSE");
    assert!(text.contains("Apache License") && text.contains("Version 2.0, January 2004"));
    assert!(text.contains("END OF TERMS AND CONDITIONS"));
}

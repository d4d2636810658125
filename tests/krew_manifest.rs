//! krew-manifest/flink.yaml, and what scripts/release.sh writes, against the rules krew enforces:
//! kubernetes-sigs/krew@65de93ccbe5764fed2fbe7c4b61ed33ef2dba0db:internal/index/validation/validate.go
//! (apiVersion, kind, a safe name equal to the file's, a one-line shortDescription, a semver
//! version, and per platform: uri, sha256 matching `^[a-f0-9]{64}$`, bin, `files` unset or non-empty
//! with from and to, a selector with only os/arch keys), the archive krew downloads and unpacks
//! (kubernetes-sigs/krew@1273c6493b7e59b1018a22da1d78015c9169c8de:internal/download/downloader.go:
//! the whole archive's sha256 checked, gzip recognised by its magic bytes, only regular files and
//! directories in a tar, no `..` or absolute names), and the index reviewers' conventions.
//!
//! A real release's archives are checked too when KUBECTL_FLINK_RELEASE_DIR names the folder
//! `scripts/release.sh` wrote (`KUBECTL_FLINK_RELEASE_DIR=dist cargo test --test krew_manifest`):
//! each archive's sha256 is the manifest's, and each Linux binary is a static ELF for its arch.

use regex::Regex;
use serde_yaml::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const GOOS: &[&str] = &["linux", "darwin", "windows", "freebsd"];
const GOARCH: &[&str] = &["amd64", "arm64", "386", "arm", "ppc64le", "s390x"];

fn manifest_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("krew-manifest/flink.yaml")
}

fn manifest() -> Value {
    load(&manifest_path())
}

fn load(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{} is YAML: {e}", path.display()))
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
    platforms_are_installable(&manifest());
}

/// krew's platform rules, and this plugin's layout: the binary and LICENSE at the top level.
fn platforms_are_installable(m: &Value) {
    let sha = Regex::new(r"^[a-f0-9]{64}$").unwrap();
    let license = Regex::new(r"(?i)^licen[cs]es?(\.txt|\.md)?$").unwrap();
    for p in platforms(m) {
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

fn release_script() -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/release.sh"))
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

const VERSION: &str = concat!("v", env!("CARGO_PKG_VERSION"));

#[test]
fn the_committed_manifest_is_the_release_scripts_template() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flink.yaml");
    let run = release_script()
        .args(["--template", VERSION])
        .env("MANIFEST", &out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(manifest_path()).unwrap(),
        "krew-manifest/flink.yaml differs from `scripts/release.sh --template {VERSION}`"
    );
    // A version that is not the crate's is refused.
    let run = release_script()
        .args(["--template", "v99.0.0"])
        .env("MANIFEST", &out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
}

/// One entry of a ustar archive, as krew's extractor reads it.
struct Entry {
    name: String,
    mode: u32,
    uid: u64,
    gid: u64,
    mtime: u64,
    kind: u8,
    data: Vec<u8>,
}

fn octal(field: &[u8]) -> u64 {
    let text: String = field
        .iter()
        .take_while(|b| **b != 0)
        .map(|b| *b as char)
        .collect();
    u64::from_str_radix(text.trim(), 8).unwrap_or_else(|_| panic!("octal field {text:?}"))
}

fn cstr(field: &[u8]) -> String {
    String::from_utf8_lossy(&field[..field.iter().position(|b| *b == 0).unwrap_or(field.len())])
        .into_owned()
}

/// The entries of a .tar.gz (gzip -dc inflates; the tar headers are read here).
fn untar(archive: &Path) -> Vec<Entry> {
    let bytes = std::fs::read(archive).unwrap();
    assert_eq!(
        &bytes[..2],
        &[0x1f, 0x8b],
        "{}: not gzip",
        archive.display()
    );
    let out = Command::new("gzip")
        .arg("-dc")
        .arg(archive)
        .output()
        .unwrap();
    assert!(out.status.success(), "gzip -dc {}", archive.display());
    let tar = out.stdout;
    let mut entries = Vec::new();
    let mut at = 0;
    while at + 512 <= tar.len() && tar[at..at + 512].iter().any(|b| *b != 0) {
        let h = &tar[at..at + 512];
        let size = octal(&h[124..136]) as usize;
        let prefix = cstr(&h[345..500]);
        let name = cstr(&h[0..100]);
        entries.push(Entry {
            name: if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            },
            mode: octal(&h[100..108]) as u32,
            uid: octal(&h[108..116]),
            gid: octal(&h[116..124]),
            mtime: octal(&h[136..148]),
            kind: h[156],
            data: tar[at + 512..at + 512 + size].to_vec(),
        });
        at += 512 + size.div_ceil(512) * 512;
    }
    entries
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// Every platform of `m` names an archive in `dir` whose sha256 is the manifest's and which krew
/// can unpack into exactly the files the platform installs. Returns the binaries, per platform.
fn archives_match(m: &Value, dir: &Path) -> Vec<((String, String), Vec<u8>)> {
    let mut binaries = Vec::new();
    for p in platforms(m) {
        let at = selector(p);
        let uri = p["uri"].as_str().unwrap();
        let file = dir.join(uri.rsplit('/').next().unwrap());
        assert!(file.is_file(), "{at:?}: no {} for {uri}", file.display());
        assert_eq!(
            p["sha256"].as_str().unwrap(),
            sha256(&file),
            "{at:?}: the manifest's sha256 is not {}'s",
            file.display()
        );
        if !uri.ends_with(".tar.gz") {
            continue; // a .zip built elsewhere: its sha256 is checked, its layout is not read here
        }
        let entries = untar(&file);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        let bin = p["bin"].as_str().unwrap();
        let mut want: Vec<&str> = vec![bin, "LICENSE"];
        want.sort();
        assert_eq!(names, want, "{at:?}: entries, sorted");
        for e in &entries {
            assert_eq!(e.kind, b'0', "{at:?}: {} is not a regular file", e.name);
            assert!(!e.name.contains("..") && !e.name.starts_with('/'));
            assert_eq!((e.uid, e.gid), (0, 0), "{at:?}: {} owner", e.name);
        }
        let binary = entries.iter().find(|e| e.name == bin).unwrap();
        assert_eq!(
            binary.mode & 0o777,
            0o755,
            "{at:?}: the binary is executable"
        );
        let license = entries.iter().find(|e| e.name == "LICENSE").unwrap();
        assert_eq!(license.mode & 0o777, 0o644);
        assert_eq!(
            license.data,
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("LICENSE")).unwrap()
        );
        binaries.push((at, binary.data.clone()));
    }
    binaries
}

#[test]
fn the_release_script_packs_reproducible_krew_archives_named_in_its_manifest() {
    // The script's packaging and manifest, on a stand-in for the binary (RELEASE_SKIP_BUILD: no
    // cargo build here, which takes minutes); a real release is checked by
    // release_archives_match_their_manifest.
    let tmp = tempfile::tempdir().unwrap();
    let target_dir = tmp.path().join("target");
    let bin_dir = target_dir.join("x86_64-unknown-linux-musl/release");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let stand_in = b"#!/bin/sh\necho 'kubectl-flink stand-in'\n";
    std::fs::write(bin_dir.join("kubectl-flink"), stand_in).unwrap();
    let release = |dir: &Path| {
        let out = release_script()
            .arg(VERSION)
            .env("CARGO_TARGET_DIR", &target_dir)
            .env("RELEASE_DIR", dir)
            .env("RELEASE_SKIP_BUILD", "1")
            .env(
                "RELEASE_TARGETS",
                "x86_64-unknown-linux-musl aarch64-unknown-linux-musl",
            )
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .env_remove("MANIFEST")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    let first = tmp.path().join("first");
    let err = release(&first);
    // The target it cannot package is named in one line, and left out of the manifest.
    let skipped: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("release: skip"))
        .collect();
    assert_eq!(skipped.len(), 1, "{err}");
    assert!(
        skipped[0].starts_with("release: skip aarch64-unknown-linux-musl: "),
        "{err}"
    );
    let m = load(&first.join("flink.yaml"));
    platforms_are_installable(&m);
    let listed: Vec<(String, String)> = platforms(&m).iter().map(selector).collect();
    assert_eq!(listed, vec![("linux".to_string(), "amd64".to_string())]);
    assert_eq!(
        m["spec"]["platforms"][0]["uri"].as_str().unwrap(),
        format!(
            "https://github.com/kubectl-flink/kubectl-flink/releases/download/{VERSION}/kubectl-flink-{VERSION}-x86_64-unknown-linux-musl.tar.gz"
        )
    );
    assert_eq!(str_at(&m, &["spec", "version"]), VERSION);
    // Everything but the platforms is the committed manifest's.
    let committed = manifest();
    for key in ["homepage", "shortDescription", "description", "caveats"] {
        assert_eq!(m["spec"][key], committed["spec"][key], "{key}");
    }
    let binaries = archives_match(&m, &first);
    assert_eq!(binaries[0].1, stand_in);
    let entries = untar(&first.join(format!(
        "kubectl-flink-{VERSION}-x86_64-unknown-linux-musl.tar.gz"
    )));
    assert!(
        entries.iter().all(|e| e.mtime == 1_700_000_000),
        "fixed mtime"
    );

    // Again, from a binary touched later: the same bytes.
    let file = bin_dir.join("kubectl-flink");
    std::fs::write(&file, stand_in).unwrap();
    let second = tmp.path().join("second");
    release(&second);
    let name = format!("kubectl-flink-{VERSION}-x86_64-unknown-linux-musl.tar.gz");
    assert_eq!(
        std::fs::read(first.join(&name)).unwrap(),
        std::fs::read(second.join(&name)).unwrap(),
        "the archive is reproducible"
    );
}

/// Whether an ELF binary is static (no PT_INTERP program header), and its machine.
fn elf_static_machine(bytes: &[u8]) -> (bool, u16) {
    assert_eq!(&bytes[..4], b"\x7fELF", "not an ELF binary");
    assert_eq!((bytes[4], bytes[5]), (2, 1), "64-bit little-endian");
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54) as usize, u16_at(56));
    let interp = (0..phnum as usize).any(|i| u32_at(phoff + i * phentsize) == 3);
    (!interp, u16_at(18))
}

#[test]
fn release_archives_match_their_manifest() {
    let Some(dir) = std::env::var_os("KUBECTL_FLINK_RELEASE_DIR") else {
        eprintln!("SKIPPED: set KUBECTL_FLINK_RELEASE_DIR to the folder scripts/release.sh wrote");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let m = load(&dir.join("flink.yaml"));
    platforms_are_installable(&m);
    assert_eq!(str_at(&m, &["spec", "version"]), VERSION);
    for ((os, arch), binary) in archives_match(&m, &dir) {
        if os != "linux" {
            continue;
        }
        let (is_static, machine) = elf_static_machine(&binary);
        assert!(is_static, "linux/{arch}: the binary is dynamically linked");
        let want = match arch.as_str() {
            "amd64" => 62,  // EM_X86_64
            "arm64" => 183, // EM_AARCH64
            other => panic!("no ELF machine known for {other}"),
        };
        assert_eq!(machine, want, "linux/{arch}: ELF machine");
    }
}

//! The lab's "images": folders on disk named by `index.tsv` (`GLOB<TAB>FOLDER` per line, the first
//! glob matching the whole image reference wins; `*` matches anything, `#` starts a comment), each
//! with an `image.json` config:
//!
//! ```json
//! {"entrypoint": ["/docker-entrypoint.sh"], "cmd": ["help"], "env": ["K=V"],
//!  "workingDir": "/opt/flink",
//!  "binds": {"/opt/flink": "rootfs/opt/flink"}}
//! ```
//!
//! `binds` maps a path the process sees to a source relative to the image folder.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageConfig {
    #[serde(default)]
    pub entrypoint: Vec<String>,
    #[serde(default)]
    pub cmd: Vec<String>,
    #[serde(default)]
    pub env: Vec<String>,
    #[serde(default)]
    pub working_dir: Option<String>,
    #[serde(default)]
    pub binds: BTreeMap<String, String>,
}

/// A resolved image: its folder and config, bind sources made absolute.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub folder: String,
    pub config: ImageConfig,
    pub binds: Vec<(String, PathBuf)>,
}

/// Shell-style glob with `*` (any run of characters) and `?` (one character).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// The folder `index.tsv` names for `image`, if a line matches.
pub fn lookup(index: &str, image: &str) -> Option<String> {
    index
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .find(|(glob, _)| glob_match(glob.trim(), image))
        .map(|(_, folder)| folder.trim().to_string())
}

/// Resolves `image` in the images directory. `Err` is the pull error text (the lab's stand-in for
/// the registry's answer).
pub fn resolve(dir: &Path, image: &str) -> Result<Image, String> {
    let not_found = || {
        // containerd's text for a reference no registry has
        format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{image}\": \
             failed to resolve reference \"{image}\": {image}: not found"
        )
    };
    let index = std::fs::read_to_string(dir.join("index.tsv")).map_err(|_| not_found())?;
    let folder = lookup(&index, image).ok_or_else(not_found)?;
    if folder.is_empty() || folder.contains("..") || folder.starts_with('/') {
        return Err(format!("rpc error: code = Unknown desc = lab image folder \"{folder}\" for \"{image}\" is not a folder name"));
    }
    let base = dir.join(&folder);
    let path = base.join("image.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "rpc error: code = Unknown desc = lab image \"{image}\": read {}: {e}",
            path.display()
        )
    })?;
    let config: ImageConfig = serde_json::from_str(&text).map_err(|e| {
        format!(
            "rpc error: code = Unknown desc = lab image \"{image}\": {}: {e}",
            path.display()
        )
    })?;
    let binds = config
        .binds
        .iter()
        .map(|(target, source)| (target.clone(), base.join(source)))
        .collect();
    Ok(Image {
        folder,
        config,
        binds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match(
            "*flink:1.20*",
            "docker.io/library/flink:1.20.1-java17"
        ));
        assert!(glob_match("*flink:1.20*", "flink:1.20"));
        assert!(!glob_match("*flink:1.20*", "flink:1.19"));
        assert!(glob_match("lab/shell", "lab/shell"));
        assert!(!glob_match("lab/shell", "lab/shell2"));
        assert!(glob_match("lab/she?l", "lab/shell"));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "axxbyyc"));
        assert!(!glob_match("a*b*c", "axxbyy"));
    }

    #[test]
    fn first_matching_line_wins() {
        let index =
            "# comment\n*flink:1.20*\tflink-1.20.1\n*flink*\tflink-any\n\nlab/shell\tshell\n";
        assert_eq!(
            lookup(index, "flink:1.20.1").as_deref(),
            Some("flink-1.20.1")
        );
        assert_eq!(lookup(index, "flink:1.18").as_deref(), Some("flink-any"));
        assert_eq!(lookup(index, "lab/shell").as_deref(), Some("shell"));
        assert_eq!(lookup(index, "nginx"), None);
    }

    #[test]
    fn resolves_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.tsv"), "lab/*\tshell\n").unwrap();
        std::fs::create_dir(dir.path().join("shell")).unwrap();
        std::fs::write(
            dir.path().join("shell/image.json"),
            r#"{"entrypoint": ["/bin/sh", "-c"], "env": ["A=1"], "workingDir": "/", "binds": {"/opt/x": "rootfs/x"}}"#,
        )
        .unwrap();
        let img = resolve(dir.path(), "lab/shell").unwrap();
        assert_eq!(img.config.entrypoint, vec!["/bin/sh", "-c"]);
        assert_eq!(
            img.binds,
            vec![("/opt/x".to_string(), dir.path().join("shell/rootfs/x"))]
        );
        let err = resolve(dir.path(), "nginx:1").unwrap_err();
        assert!(
            err.contains("failed to pull and unpack image \"nginx:1\""),
            "{err}"
        );
    }
}

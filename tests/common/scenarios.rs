//! The scenario bundles of `tests/scenarios`, as the tests see them: a folder that holds a whole
//! bundle is used as it is; a folder with an `overlay.yaml` is its base bundle with the overlay's
//! changes, written once into the target directory's scratch space (`CARGO_TARGET_TMPDIR`), below
//! a folder named by a hash of what it is made from, so a changed base or overlay is never read stale and
//! test binaries running at once never write into each other's copy.
//!
//! An overlay is a YAML mapping, applied in this order:
//!
//! - `base`: the folder it starts from (a whole bundle);
//! - `rename`: text replacements in every file of the base (`{install-healthy-: install-nocm-}`);
//! - `certificate`: the base64 certificate that replaces the base's serving certificate (the
//!   `tls.crt` of its Secret `webhook-server-cert`) wherever it appears;
//! - `caBundle`: the value of every `caBundle:` line, when the webhooks trust something else;
//! - `remove`: files of the base left out;
//! - `delete`: objects left out, as `Kind/namespace/name` (`Kind/name` when cluster-scoped);
//! - `patch`: RFC 7386 merge patches by the same names (a `null` removes a field, a list is
//!   replaced whole);
//! - `add`: objects appended to a file (created when the base has none);
//! - `files`: other files (logs) with their content.

use serde_json::{Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// `tests/scenarios`.
pub fn root() -> PathBuf {
    super::repo().join("tests/scenarios")
}

/// The name of every scenario folder, sorted.
pub fn names() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root())
        .expect("tests/scenarios")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The folder holding scenario `name` as `doctor --from` reads it: its own folder, or the
/// materialised overlay.
pub fn bundle(name: &str) -> PathBuf {
    let dir = root().join(name);
    let overlay = dir.join("overlay.yaml");
    if !overlay.is_file() {
        return dir;
    }
    materialise(name, &overlay).unwrap_or_else(|e| panic!("tests/scenarios/{name}: {e}"))
}

/// Every scenario folder with its bundle, sorted by name.
pub fn all() -> Vec<(String, PathBuf)> {
    names()
        .into_iter()
        .map(|n| {
            let b = bundle(&n);
            (n, b)
        })
        .collect()
}

/// The names of the Namespace objects in a bundle's YAML files.
pub fn namespaces(bundle: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, text) in files(bundle).unwrap_or_default() {
        if rel.extension().is_some_and(|x| x == "yaml") {
            for d in docs(&text).unwrap_or_default() {
                if d["kind"] == "Namespace" {
                    out.extend(d["metadata"]["name"].as_str().map(str::to_string));
                }
            }
        }
    }
    out
}

/// The files of a folder, relative to it, sorted (the folder's own notes left out).
pub fn files(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    let mut walk = vec![dir.to_path_buf()];
    while let Some(d) = walk.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.is_dir() {
                walk.push(p);
                continue;
            }
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            if ["README.md", "expect.txt", "e2e.skip", "overlay.yaml"]
                .iter()
                .any(|n| rel == Path::new(n))
            {
                continue;
            }
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            out.push((rel, text));
        }
    }
    out.sort();
    Ok(out)
}

fn materialise(name: &str, overlay: &Path) -> Result<PathBuf, String> {
    let text = std::fs::read_to_string(overlay).map_err(|e| e.to_string())?;
    let o: Value = serde_yaml::from_str(&text).map_err(|e| format!("overlay.yaml: {e}"))?;
    let base = o["base"].as_str().ok_or("overlay.yaml: no base")?;
    let base_files = files(&root().join(base))?;
    let mut hasher = DefaultHasher::new();
    (&text, &base_files).hash(&mut hasher);
    // `<hash>/tests/scenarios/<name>`: the report names the bundle as it would in the repository
    // when doctor runs in `<hash>` (tests/golden.rs).
    let top = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("scenarios")
        .join(format!("{:016x}", hasher.finish()));
    let out = top.join("tests/scenarios").join(name);
    if out.is_dir() {
        return Ok(out);
    }
    let made = apply(&o, base_files)?;
    // Written beside, then renamed into place: a reader sees the whole bundle or none.
    let tmp = top.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for (rel, content) in &made {
        let p = tmp.join("tests/scenarios").join(name).join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
        std::fs::write(&p, content).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if std::fs::rename(&tmp, &top).is_err() && !out.is_dir() {
        return Err(format!("could not write {}", out.display()));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(out)
}

/// `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object.
fn id(o: &Value) -> String {
    let kind = o["kind"].as_str().unwrap_or("?");
    let name = o["metadata"]["name"].as_str().unwrap_or("?");
    match o["metadata"]["namespace"].as_str() {
        Some(ns) => format!("{kind}/{ns}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// The YAML (or JSON) documents of a file, nulls left out.
pub fn docs(text: &str) -> Result<Vec<Value>, String> {
    use serde::Deserialize;
    let mut out = Vec::new();
    for d in serde_yaml::Deserializer::from_str(text) {
        let v = Value::deserialize(d).map_err(|e| e.to_string())?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok(out)
}

fn stream(docs: &[Value]) -> String {
    docs.iter()
        .map(|d| serde_yaml::to_string(d).expect("YAML"))
        .collect::<Vec<_>>()
        .join("---\n")
}

/// The overlay `o` applied to the base's files.
fn apply(o: &Value, base: Vec<(PathBuf, String)>) -> Result<Vec<(PathBuf, String)>, String> {
    let empty = Map::new();
    let map = |k: &str| o[k].as_object().unwrap_or(&empty).clone();
    let list = |k: &str| -> Vec<String> {
        o[k].as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let base_cert = base
        .iter()
        .find(|(p, _)| p == Path::new("secrets.yaml"))
        .and_then(|(_, t)| t.lines().find_map(|l| l.trim().strip_prefix("tls.crt: ")))
        .map(str::to_string);
    let remove = list("remove");
    let delete = list("delete");
    let mut patch = map("patch");
    let mut add = map("add");
    let mut deleted = Vec::new();
    let mut out = Vec::new();
    for (rel, mut text) in base {
        if remove.iter().any(|r| Path::new(r) == rel) {
            continue;
        }
        for (from, to) in map("rename") {
            text = text.replace(&from, to.as_str().unwrap_or(""));
        }
        if let (Some(new), Some(old)) = (o["certificate"].as_str(), &base_cert) {
            text = text.replace(old.as_str(), new);
        }
        if let Some(ca) = o["caBundle"].as_str() {
            text = text
                .lines()
                .map(|l| match l.split_once("caBundle: ") {
                    Some((indent, _)) => format!("{indent}caBundle: {ca}"),
                    None => l.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
        }
        let key = rel.to_string_lossy().into_owned();
        let added = add.remove(&key);
        if rel.extension().is_some_and(|x| x == "yaml") {
            let mut objects = Vec::new();
            let mut changed = added.is_some();
            for mut d in docs(&text)? {
                let i = id(&d);
                if delete.contains(&i) {
                    deleted.push(i);
                    changed = true;
                    continue;
                }
                if let Some(p) = patch.remove(&i) {
                    json_patch::merge(&mut d, &p);
                    changed = true;
                }
                objects.push(d);
            }
            objects.extend(
                added
                    .and_then(|a| a.as_array().cloned())
                    .unwrap_or_default(),
            );
            if changed {
                text = stream(&objects);
            }
        }
        out.push((rel, text));
    }
    for (file, objects) in add {
        let objects = objects.as_array().cloned().unwrap_or_default();
        out.push((PathBuf::from(file), stream(&objects)));
    }
    for (file, content) in map("files") {
        out.push((
            PathBuf::from(file),
            content.as_str().unwrap_or("").to_string(),
        ));
    }
    if let Some((i, _)) = patch.into_iter().next() {
        return Err(format!(
            "overlay.yaml: patch {i}: no such object in the base"
        ));
    }
    if let Some(i) = delete.iter().find(|i| !deleted.contains(i)) {
        return Err(format!(
            "overlay.yaml: delete {i}: no such object in the base"
        ));
    }
    Ok(out)
}

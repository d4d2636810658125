//! The project's own Rust sources, as the tests that hold the code's shape read them (layers,
//! wiring, identity): every `.rs` file under a folder, and the production part of one.
#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively (an unreadable folder fails the test).
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The production part of a source file: up to its `#[cfg(test)]` module (at the end, by the
/// project's layout); nothing of a test-only file.
pub fn production(path: &Path, text: &str) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    if name == "tests.rs"
        || name == "testing.rs"
        || path.components().any(|c| c.as_os_str() == "tests")
    {
        return String::new();
    }
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text.to_string(),
    }
}

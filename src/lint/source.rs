//! Reading what `-f` names: files, directories (recursively, `*.yaml`, `*.yml`, `*.json`) and
//! standard input, split into documents that remember the line they start on.

use super::locate::Locator;
use crate::error::{one_line, Error};
use serde::Deserialize;
use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One input, as the user named it: `deploy/orders.yaml`, `<stdin>`.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// The display name of standard input (SARIF uses [`STDIN_URI`]).
pub const STDIN: &str = "<stdin>";
pub const STDIN_URI: &str = "stdin";

/// One document of a YAML stream (or a whole JSON file).
#[derive(Debug)]
pub struct Doc {
    /// Index into the sources.
    pub source: usize,
    /// 1-based line of the file where the document's text starts.
    pub start_line: usize,
    pub text: String,
    pub value: Value,
    locator: OnceLock<Locator>,
}

impl Doc {
    pub fn new(source: usize, start_line: usize, text: String, value: Value) -> Self {
        Doc {
            source,
            start_line,
            text,
            value,
            locator: OnceLock::new(),
        }
    }
    /// Built on first use: most documents have nothing to report.
    pub fn locator(&self) -> &Locator {
        self.locator.get_or_init(|| Locator::new(&self.text))
    }
    /// A line of the document's text as a line of its file.
    pub fn file_line(&self, doc_line: usize) -> usize {
        self.start_line + doc_line.max(1) - 1
    }
}

/// Reads every `-f` argument; `-` is standard input (read once, however often it is named).
pub fn read_all(paths: &[PathBuf], stdin: &mut dyn Read) -> Result<Vec<Source>, Error> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for p in paths {
        if p.as_os_str() == "-" {
            if stdin_read {
                continue;
            }
            stdin_read = true;
            let mut bytes = Vec::new();
            // Capped as a file is: `yes | kubectl flink lint -f -` would never end.
            stdin
                .take(crate::files::MAX_FILE_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| Error::input("lint: read standard input", e))?;
            if bytes.len() as u64 > crate::files::MAX_FILE_BYTES {
                return Err(Error::Input(format!(
                    "{STDIN}: larger than {} MiB, the most read from one file",
                    crate::files::MAX_FILE_BYTES >> 20
                )));
            }
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::Input(format!("{STDIN}: not UTF-8 text")))?;
            out.push(Source {
                name: STDIN.to_string(),
                text,
            });
            continue;
        }
        if !p.exists() {
            return Err(Error::Input(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
        // Hidden entries (`.git`) are skipped; so are links to directories and files that are not
        // regular (a FIFO would block): `crate::files`.
        let found = crate::files::find(p, &["yaml", "yml", "json"], &|d| {
            d.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'))
        })
        .map_err(|e| {
            Error::Input(format!(
                "{}: cannot read: {}",
                p.display(),
                one_line(&e.to_string())
            ))
        })?;
        for note in &found.skipped {
            crate::note!("note: left out: {note}");
        }
        let hidden = |f: &PathBuf| {
            f != p
                && f.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'))
        };
        for f in found.files.into_iter().filter(|f| !hidden(f)) {
            let bytes =
                crate::files::read_capped(&f, crate::files::MAX_FILE_BYTES).map_err(|e| {
                    Error::Input(format!(
                        "{}: cannot read: {}",
                        f.display(),
                        one_line(&e.to_string())
                    ))
                })?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::Input(format!("{}: not UTF-8 text", f.display())))?;
            out.push(Source {
                name: f.display().to_string(),
                text,
            });
        }
    }
    Ok(out)
}

/// Splits a source into documents at `---` lines and parses each one. Invalid YAML is an input
/// error naming the file and line.
pub fn documents(index: usize, source: &Source) -> Result<Vec<Doc>, Error> {
    crate::files::check_nesting(&source.text)
        .map_err(|e| Error::Input(format!("{}: invalid YAML: {e}", source.name)))?;
    let mut out = Vec::new();
    for (start_line, text) in split(&source.text) {
        let mut values = Vec::new();
        for de in serde_yaml::Deserializer::from_str(&text) {
            match Value::deserialize(de) {
                Ok(v) => values.push(v),
                Err(e) => {
                    let (line, col) = e.location().map_or((1, 0), |l| (l.line(), l.column()));
                    let message = strip_position(&e.to_string());
                    let at = if col > 0 {
                        format!("{}:{}:{col}", source.name, start_line + line - 1)
                    } else {
                        format!("{}:{}", source.name, start_line + line - 1)
                    };
                    return Err(Error::Input(format!(
                        "{at}: invalid YAML: {}",
                        one_line(&message)
                    )));
                }
            }
        }
        // `split` cut at every `---`, so each piece holds at most one document.
        for v in values.into_iter().filter(|v| !v.is_null()) {
            out.push(Doc::new(index, start_line, text.clone(), v));
        }
    }
    Ok(out)
}

/// (first line, text) of each document. The text keeps a document's own lines only, so the
/// locator's line numbers are relative to `first line`.
fn split(text: &str) -> Vec<(usize, String)> {
    let mut docs = Vec::new();
    let mut current = String::new();
    let mut start = 1;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        let marker = bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t");
        let end = bare == "..." || bare.starts_with("... ");
        if marker || end {
            if !current.trim().is_empty() {
                docs.push((start, std::mem::take(&mut current)));
            }
            current.clear();
            start = i + 2;
            // `--- {a: 1}` / `--- |` carry content on the marker line itself.
            if marker
                && bare.len() > 3
                && !bare[3..].trim().is_empty()
                && !bare[3..].trim().starts_with('#')
            {
                start = i + 1;
                current.push_str(&bare[4..]);
                current.push('\n');
            }
            continue;
        }
        current.push_str(line);
    }
    if !current.trim().is_empty() {
        docs.push((start, current));
    }
    docs
}

/// serde_yaml appends ` at line N column M`; the caller names the place itself.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => message[..i].to_string(),
        _ => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source {
            name: "x.yaml".into(),
            text: text.into(),
        }
    }

    #[test]
    fn documents_know_their_first_line() {
        let text =
            "# comment\n---\nkind: A\n---\n\n---\n# only a comment\n---\nkind: B\nspec:\n  x: 1\n";
        let docs = documents(0, &src(text)).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].start_line, 3);
        assert_eq!(docs[1].start_line, 9);
        assert_eq!(
            docs[1].file_line(
                docs[1]
                    .locator()
                    .line(&super::super::locate::Path::parse("spec.x"))
            ),
            11
        );
    }

    #[test]
    fn invalid_yaml_names_the_file_and_line() {
        let text = "kind: A\n---\nkind: B\nspec:\n  a: b\n   c: d\n";
        let e = documents(0, &src(text)).unwrap_err().to_string();
        assert!(e.starts_with("x.yaml:6:"), "{e}");
        assert!(e.contains("invalid YAML"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn a_json_file_is_one_document() {
        let docs = documents(0, &src("{\"kind\": \"A\",\n \"x\": [1, 2]}\n")).unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].value["x"][1], 2);
    }
}

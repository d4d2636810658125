//! Reading the files a person points the tool at (bundles, manifests) without trusting them:
//! only regular files are read (a FIFO, a device or a socket, or a link to one, would block or
//! never end), symbolic links to directories are not followed (two `ln -s . x` loops would make
//! the walk explode), and every read has a size cap.

pub mod archive;

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest object or manifest file read whole (a bundle's `kind: List` of 100,000 pods is
/// about 25 MB).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// What a walk found: the files to read, in sorted order, and what it left out (one line each).
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<String>,
}

/// The regular files below `root` (or `root` itself) whose extension is in `extensions`.
/// Directories for which `skip_dir` says so are not entered; symbolic links to directories are
/// not followed; entries that are neither directories nor regular files are named in `skipped`.
pub fn find(
    root: &Path,
    extensions: &[&str],
    skip_dir: &dyn Fn(&Path) -> bool,
) -> io::Result<Walked> {
    let mut found = Walked::default();
    let meta = fs::metadata(root)?;
    if meta.is_file() {
        found.files.push(root.to_path_buf());
        return Ok(found);
    }
    if !meta.is_dir() {
        return Err(io::Error::other("not a regular file or directory"));
    }
    walk(root, extensions, skip_dir, &mut found)?;
    found.files.sort();
    Ok(found)
}

fn walk(
    dir: &Path,
    extensions: &[&str],
    skip_dir: &dyn Fn(&Path) -> bool,
    found: &mut Walked,
) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let own = entry.file_type()?;
        if own.is_dir() {
            if !skip_dir(&path) {
                walk(&path, extensions, skip_dir, found)?;
            }
            continue;
        }
        let wanted = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e));
        if own.is_symlink() {
            // A link to a regular file is read like one; a link to a directory is not followed.
            match fs::metadata(&path) {
                Ok(m) if m.is_dir() => {
                    found.skipped.push(format!(
                        "{}: a link to a directory (not followed)",
                        path.display()
                    ));
                    continue;
                }
                Ok(m) if m.is_file() => {}
                _ if !wanted => continue,
                _ => {
                    found.skipped.push(format!(
                        "{}: a link to something that is not a regular file",
                        path.display()
                    ));
                    continue;
                }
            }
        } else if !own.is_file() {
            if wanted {
                found
                    .skipped
                    .push(format!("{}: not a regular file", path.display()));
            }
            continue;
        }
        if wanted {
            found.files.push(path);
        }
    }
    Ok(())
}

/// A regular file's bytes, at most `max` of them: a larger file, a FIFO or a device is an error
/// (checked before opening, since opening a FIFO blocks until someone writes to it).
pub fn read_capped(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    // Sized once from the file's length: grown by doubling, a 60 MB file held 96 MB for a moment.
    let mut bytes = Vec::with_capacity(meta.len().min(max).saturating_add(1) as usize);
    fs::File::open(path)?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

/// Whether `path` is a regular file (following a link), without opening it.
pub fn is_regular(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// How deep YAML or JSON may nest its `[` and `{`: far beyond any Kubernetes object (a pod is
/// about 10 levels deep), far below what makes a parser slow (40,000 levels took 37 s).
pub const MAX_NESTING: usize = 256;

/// Text nested deeper than `MAX_NESTING`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("nested deeper than {MAX_NESTING} levels")]
pub struct TooDeep;

/// `Err(TooDeep)` for text nested deeper than `MAX_NESTING`: what every reader of YAML or JSON
/// checks before parsing.
pub fn check_nesting(text: &str) -> Result<(), TooDeep> {
    if nests_deeper_than(text, MAX_NESTING) {
        Err(TooDeep)
    } else {
        Ok(())
    }
}

/// Whether flow-style nesting in `text` goes deeper than `max` (brackets inside quoted strings
/// do not count). One pass over the bytes, so a hostile file is refused at once.
pub fn nests_deeper_than(text: &str, max: usize) -> bool {
    Nesting::default().deeper_than(text.as_bytes(), max)
}

/// `check_nesting` for a file read in pieces, never whole.
pub fn check_nesting_of(path: &Path, max_bytes: u64) -> io::Result<Result<(), TooDeep>> {
    use io::BufRead;
    let mut reader = open_capped(path, max_bytes)?;
    let mut nesting = Nesting::default();
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(Ok(()));
        }
        if nesting.deeper_than(chunk, MAX_NESTING) {
            return Ok(Err(TooDeep));
        }
        let n = chunk.len();
        reader.consume(n);
    }
}

/// Where a scan over YAML or JSON is: how deep, and inside which quote.
#[derive(Default)]
struct Nesting {
    depth: usize,
    quote: Option<u8>,
    escaped: bool,
}

impl Nesting {
    /// Whether `bytes`, which follow what was fed before, take the nesting deeper than `max`.
    fn deeper_than(&mut self, bytes: &[u8], max: usize) -> bool {
        for &b in bytes {
            if let Some(q) = self.quote {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' && q == b'"' {
                    self.escaped = true;
                } else if b == q {
                    self.quote = None;
                }
                continue;
            }
            match b {
                b'"' | b'\'' => self.quote = Some(b),
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth > max {
                        return true;
                    }
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                // A YAML line break ends a single-quoted scalar only in broken input; never mind.
                _ => {}
            }
        }
        false
    }
}

/// A regular file opened for reading in pieces, at most `max` bytes of it (checked as
/// `read_capped` does).
pub fn open_capped(path: &Path, max: u64) -> io::Result<io::BufReader<io::Take<fs::File>>> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if meta.len() > max {
        return Err(too_large(max));
    }
    Ok(io::BufReader::with_capacity(
        64 << 10,
        fs::File::open(path)?.take(max),
    ))
}

/// Whether the file's first byte that is not blank opens a JSON object or array.
pub fn starts_like_json(path: &Path) -> io::Result<bool> {
    use io::BufRead;
    let mut reader = open_capped(path, u64::MAX)?;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(false);
        }
        if let Some(b) = chunk.iter().find(|b| !b.is_ascii_whitespace()) {
            return Ok(matches!(b, b'{' | b'['));
        }
        let n = chunk.len();
        reader.consume(n);
    }
}

fn too_large(max: u64) -> io::Error {
    io::Error::other(format!(
        "larger than {} MiB, the most read from one file",
        max >> 20
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_file_read_in_pieces_nests_as_its_text_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep.json");
        // The deep part straddles the reader's 64 KiB pieces, and a quoted `{` before it counts
        // for nothing, in one piece or across two.
        let pad = format!("{{\"x\": \"{}{{{{\", \"y\": ", " ".repeat(70_000));
        for depth in [MAX_NESTING - 1, MAX_NESTING + 1] {
            let text = format!("{pad}{}{}}}", "[".repeat(depth), "]".repeat(depth));
            fs::write(&path, &text).unwrap();
            let whole = nests_deeper_than(&text, MAX_NESTING);
            assert_eq!(whole, depth > MAX_NESTING, "depth {depth}");
            let pieces = check_nesting_of(&path, MAX_FILE_BYTES).unwrap().is_err();
            assert_eq!(pieces, whole, "depth {depth}");
        }
        assert!(check_nesting_of(&path, 10).is_err(), "over the cap");
    }

    #[test]
    fn json_is_told_by_its_first_byte_that_is_not_blank() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for (text, json) in [
            ("\n  \t{\"kind\": \"List\"}", true),
            ("[]", true),
            ("kind: List\n", false),
            ("", false),
            ("   \n", false),
        ] {
            fs::write(d.join("f"), text).unwrap();
            assert_eq!(starts_like_json(&d.join("f")).unwrap(), json, "{text:?}");
        }
    }

    #[test]
    fn link_loops_fifos_and_devices_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a.yaml"), "kind: A\n").unwrap();
        symlink(".", d.join("loop1")).unwrap();
        symlink(".", d.join("loop2")).unwrap();
        symlink("/dev/zero", d.join("zero.yaml")).unwrap();
        symlink(d.join("a.yaml"), d.join("b.yaml")).unwrap();
        let fifo = d.join("pipe.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        let found = find(d, &["yaml"], &|_| false).unwrap();
        let names: Vec<String> = found
            .files
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.yaml", "b.yaml"]);
        let skipped = found.skipped.join("\n");
        assert!(
            skipped.contains("loop1: a link to a directory"),
            "{skipped}"
        );
        assert!(
            skipped.contains("zero.yaml: a link to something"),
            "{skipped}"
        );
        if made {
            assert!(
                skipped.contains("pipe.yaml: not a regular file"),
                "{skipped}"
            );
            assert!(read_capped(&fifo, 10).is_err(), "a FIFO is never opened");
        }
    }

    #[test]
    fn deep_nesting_is_seen_in_one_pass() {
        assert!(nests_deeper_than(
            &("[".repeat(40_000) + &"]".repeat(40_000)),
            MAX_NESTING
        ));
        assert!(!nests_deeper_than("a: {b: [1, 2, {c: d}]}\nq: \"[[[[\"", 3));
        assert!(nests_deeper_than("a: {b: [1, 2, {c: [d]}]}", 3));
    }

    #[test]
    fn reads_are_capped() {
        assert!(read_capped(Path::new("/dev/zero"), 1 << 20).is_err());
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        fs::write(&p, vec![b'x'; 2048]).unwrap();
        assert_eq!(read_capped(&p, 2048).unwrap().len(), 2048);
        let e = read_capped(&p, 1024).unwrap_err();
        assert!(e.to_string().contains("larger than"), "{e}");
    }
}

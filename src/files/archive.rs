//! Bundles as people send them: a `.tar.gz`, `.tgz`, `.tar`, `.zip`, or one `.gz` file, unpacked
//! into a private temporary folder and then read like any folder, with the folder's bounds and
//! more: every member at most `MAX_FILE_BYTES`, the whole at most `MAX_UNPACKED_BYTES` in at most
//! `MAX_ENTRIES` entries, only regular files (a link, a device, a FIFO is named and left out),
//! and no name that leaves the folder (`..`, an absolute path). What cannot be decoded, a member or
//! the rest of a broken archive, is named and left out; it never stops the reading of the rest.
//!
//! The formats are told by their first bytes (gzip `1f 8b`, zip `PK\x03\x04`, tar's `ustar` at
//! offset 257), not only by the file's name: a bundle renamed on its way keeps working.

use super::{too_large, MAX_FILE_BYTES};
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The most bytes unpacked from one archive, all members together (a decompression bomb stops
/// here, at the first member past it).
pub const MAX_UNPACKED_BYTES: u64 = 1 << 30;
/// The most entries read from one archive.
pub const MAX_ENTRIES: usize = 100_000;

/// An archive's format, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A gzip stream: a `.tar.gz` when what it holds is a tar, else one compressed file.
    Gzip,
    Zip,
    Tar,
}

/// The archive format of a regular file, or `None` for anything else (a folder, YAML, JSON).
pub fn format_of(path: &Path) -> io::Result<Option<Format>> {
    if !fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut head = [0u8; 262];
    let n = read_up_to(&mut super::open_capped(path, u64::MAX)?, &mut head)?;
    Ok(sniff(&head[..n]))
}

fn sniff(head: &[u8]) -> Option<Format> {
    if head.starts_with(&[0x1f, 0x8b]) {
        Some(Format::Gzip)
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Some(Format::Zip)
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Some(Format::Tar)
    } else {
        None
    }
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// An archive unpacked: the folder to read as the bundle (the archive's one top folder when it
/// has one, as `tar czf b.tar.gz bundle/` makes), what was left out, and the temporary folder
/// itself, removed when this is dropped (or by [`remove_unpacked`] on Ctrl-C).
#[derive(Debug)]
pub struct Unpacked {
    pub root: PathBuf,
    pub skipped: Vec<String>,
    dir: tempfile::TempDir,
}

impl Unpacked {
    /// The temporary folder, for naming members by their path in the archive.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        if let Ok(mut all) = UNPACKED.lock() {
            all.retain(|p| p != self.dir.path());
        }
    }
}

/// Temporary folders of archives being read, for Ctrl-C and SIGTERM to remove.
static UNPACKED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes every archive's temporary folder (the process is about to exit on a signal).
pub fn remove_unpacked() {
    if let Ok(all) = UNPACKED.lock() {
        for dir in all.iter() {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

/// How much an archive may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub file: u64,
    pub total: u64,
    pub entries: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        file: MAX_FILE_BYTES,
        total: MAX_UNPACKED_BYTES,
        entries: MAX_ENTRIES,
    };
}

/// Unpacks `path`, an archive of `format`, with the bounds above.
pub fn unpack(path: &Path, format: Format) -> io::Result<Unpacked> {
    unpack_within(path, format, Limits::DEFAULT)
}

/// `unpack` with other bounds (tests).
pub fn unpack_within(path: &Path, format: Format, limits: Limits) -> io::Result<Unpacked> {
    let dir = tempfile::Builder::new()
        .prefix("kubectl-flink-bundle-")
        .tempdir()?;
    if let Ok(mut all) = UNPACKED.lock() {
        all.push(dir.path().to_path_buf());
    }
    let mut out = Writer {
        dir: dir.path().to_path_buf(),
        total: 0,
        entries: 0,
        skipped: Vec::new(),
        limits,
    };
    let file = super::open_capped(path, u64::MAX)?;
    match format {
        Format::Zip => unzip(fs::File::open(path)?, &mut out),
        Format::Tar => untar(file, &mut out),
        Format::Gzip => {
            // A tar inside? Its header says so once the first 262 bytes are inflated.
            let mut head = [0u8; 262];
            let n = read_up_to(&mut flate2::read::MultiGzDecoder::new(file), &mut head);
            let inner = n.ok().and_then(|n| sniff(&head[..n]));
            let gz = flate2::read::MultiGzDecoder::new(super::open_capped(path, u64::MAX)?);
            if inner == Some(Format::Tar) {
                untar(gz, &mut out)
            } else {
                // One compressed file: `pods.yaml.gz` is `pods.yaml`.
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let name = name
                    .strip_suffix(".gz")
                    .filter(|n| !n.is_empty())
                    .unwrap_or("unpacked.yaml")
                    .to_string();
                out.member(&name, gz);
            }
        }
    }
    let mut root = dir.path().to_path_buf();
    let top: Vec<fs::DirEntry> = fs::read_dir(&root)?.collect::<Result<_, _>>()?;
    if let [one] = top.as_slice() {
        if one.file_type()?.is_dir() {
            root = one.path();
        }
    }
    Ok(Unpacked {
        root,
        skipped: out.skipped,
        dir,
    })
}

/// Writes members into the temporary folder, counting them against the bounds.
struct Writer {
    dir: PathBuf,
    total: u64,
    entries: usize,
    skipped: Vec<String>,
    limits: Limits,
}

impl Writer {
    /// Whether another entry may be read; says once why not.
    fn room(&mut self) -> bool {
        let max = self.limits.entries;
        self.entries += 1;
        if self.entries > max {
            if self.entries == max + 1 {
                self.skipped.push(format!(
                    "the archive's entries past the first {max} (not read)"
                ));
            }
            return false;
        }
        if self.total >= self.limits.total {
            self.skipped.push(format!(
                "the archive past {} MiB unpacked (not read)",
                self.limits.total >> 20
            ));
            self.entries = max + 2;
            return false;
        }
        true
    }

    /// One regular file's bytes, at `name` inside the folder, if the name stays inside it.
    fn member(&mut self, name: &str, data: impl Read) {
        let Some(rel) = inside(name) else {
            self.skipped.push(format!(
                "{}: a name outside the bundle (not read)",
                crate::shell::escape_controls(name)
            ));
            return;
        };
        let target = self.dir.join(&rel);
        let left = self.limits.file.min(self.limits.total - self.total);
        let written = (|| -> io::Result<u64> {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent)?;
            }
            // A file of the same name earlier in the archive is kept.
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&target)?;
            let n = io::copy(&mut data.take(left.saturating_add(1)), &mut file)?;
            if n > left {
                drop(file);
                let _ = fs::remove_file(&target);
                return Err(if left == self.limits.file {
                    too_large(self.limits.file)
                } else {
                    io::Error::other(format!(
                        "past {} MiB unpacked, the most read from one archive",
                        self.limits.total >> 20
                    ))
                });
            }
            Ok(n)
        })();
        match written {
            Ok(n) => self.total += n,
            Err(e) => {
                if e.kind() != io::ErrorKind::AlreadyExists {
                    let _ = fs::remove_file(&target); // a part written; never an earlier member
                }
                self.skipped.push(format!(
                    "{}: {} (not read)",
                    rel.display(),
                    crate::error::one_line(&e.to_string())
                ));
            }
        }
    }
}

/// `name` as a relative path inside the folder: plain components only (no `..`, no root, no
/// drive), at least one.
fn inside(name: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in Path::new(name).components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

fn untar(r: impl Read, out: &mut Writer) {
    let mut archive = tar::Archive::new(r);
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => {
            out.skipped.push(format!("the archive: {e} (not read)"));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                // A tar stream cannot be read past a broken header: what came before is kept.
                out.skipped.push(format!(
                    "the rest of the archive: {} (not read)",
                    crate::error::one_line(&e.to_string())
                ));
                return;
            }
        };
        if !out.room() {
            return;
        }
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if !(kind.is_file() || kind.is_contiguous()) {
            out.skipped.push(format!(
                "{}: {} (not read: only regular files are)",
                crate::shell::escape_controls(&name),
                match kind {
                    tar::EntryType::Symlink => "a symbolic link",
                    tar::EntryType::Link => "a hard link",
                    tar::EntryType::Char | tar::EntryType::Block => "a device",
                    tar::EntryType::Fifo => "a FIFO",
                    _ => "not a regular file",
                }
            ));
            continue;
        }
        if entry.size() > out.limits.file {
            out.skipped.push(format!(
                "{}: {} (not read)",
                crate::shell::escape_controls(&name),
                too_large(out.limits.file)
            ));
            continue;
        }
        out.member(&name, entry);
    }
}

fn unzip(file: fs::File, out: &mut Writer) {
    let mut archive = match zip::ZipArchive::new(io::BufReader::new(file)) {
        Ok(a) => a,
        Err(e) => {
            out.skipped.push(format!("the archive: {e} (not read)"));
            return;
        }
    };
    for i in 0..archive.len() {
        if !out.room() {
            return;
        }
        let entry = match archive.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                out.skipped.push(format!("entry {i}: {e} (not read)"));
                continue;
            }
        };
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_dir() {
            continue;
        }
        if entry.is_symlink() || !entry.is_file() {
            out.skipped.push(format!(
                "{}: not a regular file (not read: only regular files are)",
                crate::shell::escape_controls(&name)
            ));
            continue;
        }
        if entry.size() > out.limits.file {
            out.skipped.push(format!(
                "{}: {} (not read)",
                crate::shell::escape_controls(&name),
                too_large(out.limits.file)
            ));
            continue;
        }
        out.member(&name, entry);
    }
}

/// A compressed member of a folder (`pods.yaml.gz`): its bytes, at most `max` of them
/// uncompressed. Bytes that do not inflate are an error the caller notes.
pub fn gunzip_capped(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = super::open_capped(path, max)?;
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A tar entry written header by header, so that the names and kinds a hostile archive holds
    /// (`../x`, `/etc/x`, links, devices) get in: tar::Builder refuses to write some of them.
    fn raw_entry(out: &mut Vec<u8>, name: &str, kind: tar::EntryType, data: &[u8], link: &str) {
        let mut h = tar::Header::new_gnu();
        {
            let old = h.as_old_mut();
            old.name[..name.len()].copy_from_slice(name.as_bytes());
            old.linkname[..link.len()].copy_from_slice(link.as_bytes());
        }
        h.set_entry_type(kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn names(root: &Path) -> Vec<String> {
        crate::files::find(root, &["yaml", "txt"], &|_| false)
            .unwrap()
            .files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn a_tar_gz_keeps_its_regular_files_inside_and_names_everything_else() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("escaped.txt");
        let mut tar = Vec::new();
        use tar::EntryType::{Char, Fifo, Link, Regular, Symlink};
        for (name, kind, body, target) in [
            ("b/a.yaml", Regular, &b"kind: A\n"[..], ""),
            ("b/../../escaped.txt", Regular, b"x", ""),
            ("/tmp/abs.txt", Regular, b"x", ""),
            ("b/link.yaml", Symlink, b"", "/etc/passwd"),
            ("b/hard.yaml", Link, b"", "b/a.yaml"),
            ("b/zero.yaml", Char, b"", ""),
            ("b/pipe.yaml", Fifo, b"", ""),
            ("b/a.yaml", Regular, b"kind: B\n", ""),
        ] {
            raw_entry(&mut tar, name, kind, body, target);
        }
        tar.extend_from_slice(&[0; 1024]);
        let path = dir.path().join("bundle.tgz");
        fs::write(&path, gzip(&tar)).unwrap();
        assert_eq!(format_of(&path).unwrap(), Some(Format::Gzip));
        let u = unpack(&path, Format::Gzip).unwrap();
        assert_eq!(
            u.root,
            u.dir().join("b"),
            "the one top folder is the bundle"
        );
        assert_eq!(names(u.dir()), ["b/a.yaml"]);
        assert_eq!(
            fs::read_to_string(u.root.join("a.yaml")).unwrap(),
            "kind: A\n",
            "the first of two members of one name is kept"
        );
        assert!(!outside.exists(), "nothing written outside the folder");
        let notes = u.skipped.join("\n");
        for want in [
            "b/../../escaped.txt: a name outside the bundle",
            "/tmp/abs.txt: a name outside the bundle",
            "b/link.yaml: a symbolic link",
            "b/hard.yaml: a hard link",
            "b/zero.yaml: a device",
            "b/pipe.yaml: a FIFO",
            "b/a.yaml: ",
        ] {
            assert!(notes.contains(want), "{want:?} in {notes}");
        }
        let tmp = u.dir().to_path_buf();
        drop(u);
        assert!(!tmp.exists(), "the temporary folder goes with it");
    }

    #[test]
    fn sizes_and_entries_are_capped_and_a_broken_stream_keeps_what_came_before() {
        let dir = tempfile::tempdir().unwrap();
        let mut tar = Vec::new();
        raw_entry(
            &mut tar,
            "a.yaml",
            tar::EntryType::Regular,
            b"kind: A\n",
            "",
        );
        raw_entry(
            &mut tar,
            "big.yaml",
            tar::EntryType::Regular,
            &[b'x'; 5000],
            "",
        );
        for i in 0..5 {
            raw_entry(
                &mut tar,
                &format!("n{i}.yaml"),
                tar::EntryType::Regular,
                b"k",
                "",
            );
        }
        tar.extend_from_slice(&[0; 1024]);
        let path = dir.path().join("b.tar");
        fs::write(&path, &tar).unwrap();
        assert_eq!(format_of(&path).unwrap(), Some(Format::Tar));
        let limits = Limits {
            file: 4096,
            total: 1 << 20,
            entries: 4,
        };
        let u = unpack_within(&path, Format::Tar, limits).unwrap();
        assert_eq!(names(u.dir()), ["a.yaml", "n0.yaml", "n1.yaml"]);
        let notes = u.skipped.join("\n");
        assert!(notes.contains("big.yaml: larger than"), "{notes}");
        assert!(notes.contains("entries past the first 4"), "{notes}");
        // A gzip bomb: a member that inflates past the whole's cap is left out, and what is
        // unpacked stays under it.
        let mut bomb = Vec::new();
        raw_entry(
            &mut bomb,
            "a.yaml",
            tar::EntryType::Regular,
            &[b'x'; 3000],
            "",
        );
        raw_entry(
            &mut bomb,
            "b.yaml",
            tar::EntryType::Regular,
            &[b'x'; 3000],
            "",
        );
        raw_entry(&mut bomb, "c.yaml", tar::EntryType::Regular, b"k", "");
        bomb.extend_from_slice(&[0; 1024]);
        fs::write(&path, gzip(&bomb)).unwrap();
        let limits = Limits {
            file: 4096,
            total: 4000,
            entries: 100,
        };
        let u = unpack_within(&path, Format::Gzip, limits).unwrap();
        assert_eq!(names(u.dir()), ["a.yaml", "c.yaml"]);
        assert!(
            u.skipped.join("\n").contains("b.yaml: past"),
            "{:?}",
            u.skipped
        );
        // Cut in the middle of the second member's header: the first is kept, the rest noted.
        let mut cut = Vec::new();
        raw_entry(
            &mut cut,
            "a.yaml",
            tar::EntryType::Regular,
            b"kind: A\n",
            "",
        );
        raw_entry(
            &mut cut,
            "b.yaml",
            tar::EntryType::Regular,
            b"kind: B\n",
            "",
        );
        cut.truncate(512 * 2 + 100);
        fs::write(&path, gzip(&cut)).unwrap();
        let u = unpack(&path, Format::Gzip).unwrap();
        assert_eq!(names(u.dir()), ["a.yaml"]);
        assert!(!u.skipped.is_empty());
    }

    #[test]
    fn a_zip_is_read_with_the_same_rules() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.zip");
        let mut w = zip::ZipWriter::new(fs::File::create(&path).unwrap());
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        w.start_file("bundle/a.yaml", o).unwrap();
        w.write_all(b"kind: A\n").unwrap();
        w.start_file("../escaped.txt", o).unwrap();
        w.write_all(b"x").unwrap();
        w.add_symlink("bundle/link.yaml", "/etc/passwd", o).unwrap();
        w.finish().unwrap();
        assert_eq!(format_of(&path).unwrap(), Some(Format::Zip));
        let u = unpack(&path, Format::Zip).unwrap();
        assert_eq!(names(u.dir()), ["bundle/a.yaml"]);
        let notes = u.skipped.join("\n");
        assert!(notes.contains("../escaped.txt: a name outside"), "{notes}");
        assert!(
            notes.contains("bundle/link.yaml: not a regular file"),
            "{notes}"
        );
        assert!(!dir.path().parent().unwrap().join("escaped.txt").exists());
    }

    #[test]
    fn one_gz_file_is_the_file_it_compresses_and_yaml_is_no_archive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pods.yaml.gz");
        fs::write(&path, gzip(b"kind: A\n")).unwrap();
        let u = unpack(&path, format_of(&path).unwrap().unwrap()).unwrap();
        assert_eq!(names(u.dir()), ["pods.yaml"]);
        let yaml = dir.path().join("a.yaml");
        fs::write(&yaml, "kind: A\n").unwrap();
        assert_eq!(format_of(&yaml).unwrap(), None);
        assert_eq!(format_of(dir.path()).unwrap(), None);
        assert!(gunzip_capped(&path, 4).is_err(), "capped when inflated");
        assert_eq!(gunzip_capped(&path, 100).unwrap(), b"kind: A\n");
        assert!(gunzip_capped(&yaml, 100).is_err(), "not gzip");
    }
}

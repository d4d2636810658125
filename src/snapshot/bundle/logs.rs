//! A bundle's logs: `logs/NAMESPACE/POD/CONTAINER[.previous].log`, read from the end, only\n//! the tail the diagnosis wants.

use super::*;

/// The logs a live gather would read (`snapshot::wanted`), and every log of a pod the bundle has
/// no object for (nothing says whether it is healthy); a healthy container's log is not read.
pub(super) fn load_logs(
    dir: &Path,
    s: &mut Snapshot,
    tail: Option<usize>,
) -> Result<(), BundleError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let wanted = crate::snapshot::wanted::all(s);
    let known: std::collections::BTreeSet<(String, String)> = s
        .pods
        .iter()
        .map(|p| &p.metadata)
        .chain(s.operator_pods.iter().map(|p| &p.metadata))
        .map(|m| {
            (
                m.namespace.clone().unwrap_or_default(),
                m.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Io { path, source }
    };
    // Directories as they are (links to directories are not followed), files only when regular.
    let is_dir = |e: &fs::DirEntry| e.file_type().is_ok_and(|t| t.is_dir());
    for ns in fs::read_dir(dir).map_err(io(dir))? {
        let ns = ns.map_err(io(dir))?;
        if !is_dir(&ns) {
            continue;
        }
        let ns = ns.path();
        for pod in fs::read_dir(&ns).map_err(io(&ns))? {
            let pod = pod.map_err(io(&ns))?;
            if !is_dir(&pod) {
                continue;
            }
            let pod = pod.path();
            for file in fs::read_dir(&pod).map_err(io(&pod))? {
                let file = file.map_err(io(&pod))?.path();
                if !crate::files::is_regular(&file) {
                    continue;
                }
                let Some(fname) = file.file_name().and_then(|f| f.to_str()) else {
                    continue;
                };
                let (container, previous) = if let Some(c) = fname.strip_suffix(".previous.log") {
                    (c, true)
                } else if let Some(c) = fname.strip_suffix(".log") {
                    (c, false)
                } else {
                    continue;
                };
                let key = LogKey::new(
                    &lossy(ns.file_name()),
                    &lossy(pod.file_name()),
                    container,
                    previous,
                );
                if known.contains(&(key.namespace.clone(), key.pod.clone()))
                    && !wanted.contains(&key)
                {
                    continue;
                }
                let bytes = read_tail(&file, tail).map_err(io(&file))?;
                s.logs
                    .insert(key, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    Ok(())
}

/// Bytes kept per log line on average when reading a tail: past `lines` times this, the tail is
/// cut at a line boundary (a log of a few huge lines stays bounded too).
pub(super) const TAIL_BYTES_PER_LINE: u64 = 4096;

/// The last `lines` lines of a file (all of it for `None`), read backwards from the end in blocks,
/// so time and memory follow the tail, not the file.
pub fn read_tail(path: &Path, lines: Option<usize>) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let Some(lines) = lines else {
        return crate::files::read_capped(path, crate::files::MAX_FILE_BYTES);
    };
    if !crate::files::is_regular(path) {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut f = fs::File::open(path)?;
    let len = f.seek(SeekFrom::End(0))?;
    let budget = (lines as u64)
        .saturating_mul(TAIL_BYTES_PER_LINE)
        .max(TAIL_BYTES_PER_LINE);
    const BLOCK: u64 = 64 * 1024;
    let mut pos = len;
    let mut buf: Vec<u8> = Vec::new();
    // A last line without its newline counts as a line too.
    let mut newlines = 0usize;
    let ends_with_newline = {
        if len == 0 {
            true
        } else {
            let mut last = [0u8; 1];
            f.seek(SeekFrom::Start(len - 1))?;
            f.read_exact(&mut last)?;
            last[0] == b'\n'
        }
    };
    let want = if ends_with_newline { lines + 1 } else { lines };
    while pos > 0 && newlines < want && (len - pos) < budget {
        let step = BLOCK.min(pos);
        pos -= step;
        f.seek(SeekFrom::Start(pos))?;
        let mut block = vec![0u8; step as usize];
        f.read_exact(&mut block)?;
        newlines += block.iter().filter(|&&b| b == b'\n').count();
        block.extend_from_slice(&buf);
        buf = block;
    }
    // Drop what lies before the first of the wanted lines.
    let mut seen = 0usize;
    let mut start = 0usize;
    for (i, b) in buf.iter().enumerate().rev() {
        if *b == b'\n' {
            seen += 1;
            if seen == want {
                start = i + 1;
                break;
            }
        }
    }
    if seen < want && pos > 0 {
        // Cut by the byte budget: start at the first whole line inside it.
        start = buf
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |i| i + 1);
    }
    buf.drain(..start);
    Ok(buf)
}

//! A bundle's logs, only the tail the diagnosis wants: `logs/NAMESPACE/POD/CONTAINER[.previous].log`
//! (what `doctor --save` writes), read from the end; the `NAMESPACE/POD/logs.txt` of
//! `kubectl cluster-info dump`, every container of a pod in one file between kubectl's markers;
//! and the `namespaces/NAMESPACE/pods/POD/CONTAINER/CONTAINER/logs/{current,previous}.log` of
//! OpenShift's `oc adm inspect` and `oc adm must-gather`.

use super::*;

/// Which logs of a bundle are read: those a live gather would read (`snapshot::wanted`), and every
/// log of a pod the bundle has no object for (nothing says whether it is healthy); a healthy
/// container's log is not read.
pub(super) struct Keep {
    wanted: std::collections::BTreeSet<LogKey>,
    known: std::collections::BTreeSet<(String, String)>,
}

impl Keep {
    pub(super) fn new(s: &Snapshot) -> Self {
        let known = s
            .pods
            .iter()
            .map(|p| (p.metadata.namespace.as_deref(), &p.metadata.name))
            .chain(
                s.operator_pods
                    .iter()
                    .map(|p| (p.metadata.namespace.as_deref(), &p.metadata.name)),
            )
            .map(|(namespace, name)| {
                (
                    namespace.unwrap_or_default().to_string(),
                    name.clone().unwrap_or_default(),
                )
            })
            .collect();
        Keep {
            wanted: crate::snapshot::wanted::all(s),
            known,
        }
    }

    fn keeps(&self, key: &LogKey) -> bool {
        !self
            .known
            .contains(&(key.namespace.clone(), key.pod.clone()))
            || self.wanted.contains(key)
            // A live read takes only the previous log of a crash-looping container: the kubelet
            // serves a waiting container's last terminated instance as its current log too. A
            // bundle another tool wrote (`kubectl cluster-info dump`) holds only that current
            // log: it is the same instance, so it stands in.
            || (!key.previous
                && self.wanted.contains(&LogKey::new(
                    &key.namespace,
                    &key.pod,
                    &key.container,
                    true,
                )))
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BundleError {
    let path = path.to_path_buf();
    move |source| BundleError::Io { path, source }
}

/// Directories as they are (links to directories are not followed).
fn is_dir(e: &fs::DirEntry) -> bool {
    e.file_type().is_ok_and(|t| t.is_dir())
}

/// The subdirectories of `dir`, sorted.
fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, BundleError> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(io(dir))? {
        let e = e.map_err(io(dir))?;
        if is_dir(&e) {
            out.push(e.path());
        }
    }
    out.sort();
    Ok(out)
}

/// `logs/NAMESPACE/POD/CONTAINER[.previous].log`.
pub(super) fn load_logs(
    dir: &Path,
    s: &mut Snapshot,
    keep: &Keep,
    tail: Option<usize>,
) -> Result<(), BundleError> {
    if !dir.is_dir() {
        return Ok(());
    }
    for ns in subdirs(dir)? {
        for pod in subdirs(&ns)? {
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
                if !keep.keeps(&key) {
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

/// `kubectl cluster-info dump --output-directory=DIR` writes each pod's current logs, container
/// after container, to `DIR/NAMESPACE/POD/logs.txt` between these markers
/// (kubernetes/kubectl pkg/cmd/clusterinfo/clusterinfo_dump.go).
const DUMP_START: &str = "==== START logs for container ";
const DUMP_END: &str = "==== END logs for container ";
/// The pod list kubectl writes in each namespace's folder (`--output yaml` writes the `.yaml`).
const DUMP_LISTS: [&str; 2] = ["pods.json", "pods.yaml"];
/// What kubectl writes in place of a log it could not get.
const DUMP_NO_LOG: [&str; 2] = ["Create log request error: ", "Request log error: "];
/// A line longer than this is cut: a dump is read as it comes, and one line must not hold the
/// whole file.
const DUMP_MAX_LINE: usize = 64 * 1024;

/// Every `NAMESPACE/POD/logs.txt` under the bundle's root, read once from the start, keeping the
/// tail of each container's log. A log the bundle also holds under `logs/` is left as read there.
pub(super) fn load_dump_logs(
    root: &Path,
    s: &mut Snapshot,
    keep: &Keep,
    tail: Option<usize>,
) -> Result<(), BundleError> {
    for ns in subdirs(root)? {
        if !is_dump_namespace(&ns) {
            continue;
        }
        for pod in subdirs(&ns)? {
            let file = pod.join("logs.txt");
            if !crate::files::is_regular(&file) {
                continue;
            }
            for (key, text) in read_dump(&file, tail).map_err(io(&file))? {
                if keep.keeps(&key) && !s.logs.contains_key(&key) {
                    s.logs.insert(key, text);
                }
            }
        }
    }
    Ok(())
}

/// A namespace's folder in a dump holds its lists (`doctor --save`'s logs/ does not).
fn is_dump_namespace(dir: &Path) -> bool {
    DUMP_LISTS
        .iter()
        .any(|l| crate::files::is_regular(&dir.join(l)))
}

/// The containers' logs of one dump file, each cut to its last `tail` lines (to the bundle byte
/// cap without a tail). The marker names the namespace and pod, so the file's place does not.
pub(super) fn read_dump(
    path: &Path,
    tail: Option<usize>,
) -> std::io::Result<Vec<(LogKey, String)>> {
    use std::collections::VecDeque;
    let mut reader = std::io::BufReader::new(fs::File::open(path)?);
    let limit = tail.map(|t| t.max(1));
    let mut out = Vec::new();
    let mut current: Option<(LogKey, VecDeque<String>, u64)> = None;
    let mut line = Vec::new();
    while read_line_capped(&mut reader, &mut line, DUMP_MAX_LINE)? {
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if let Some(rest) = text.strip_prefix(DUMP_START) {
            current = dump_marker(rest).map(|key| (key, VecDeque::new(), 0));
        } else if text.starts_with(DUMP_END) {
            if let Some((key, lines, _)) = current.take() {
                let no_log =
                    lines.len() == 1 && DUMP_NO_LOG.iter().any(|p| lines[0].starts_with(p));
                if !no_log {
                    let mut log = lines.into_iter().collect::<Vec<_>>().join("\n");
                    log.push('\n');
                    out.push((key, log));
                }
            }
        } else if let Some((_, lines, bytes)) = current.as_mut() {
            *bytes += text.len() as u64 + 1;
            lines.push_back(text.to_string());
            while lines.len() > 1
                && (limit.is_some_and(|t| lines.len() > t) || *bytes > crate::files::MAX_FILE_BYTES)
            {
                let dropped = lines.pop_front().unwrap_or_default();
                *bytes -= dropped.len() as u64 + 1;
            }
        }
    }
    Ok(out)
}

/// `oc adm inspect` (and `oc adm must-gather`, which runs it) writes each container's logs to
/// `namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/current.log` and `previous.log` (the
/// `.insecure.log` twins when the kubelet's certificate was not trusted), every line led by the
/// kubelet's timestamp (openshift/oc pkg/cli/admin/inspect/pod.go).
pub(super) fn load_inspect_logs(
    root: &Path,
    s: &mut Snapshot,
    keep: &Keep,
    tail: Option<usize>,
) -> Result<(), BundleError> {
    let mut files: Vec<(bool, LogKey, PathBuf)> = Vec::new();
    for namespaces in inspect_roots(root)? {
        for ns in subdirs(&namespaces)? {
            let pods = ns.join("pods");
            if !pods.is_dir() {
                continue;
            }
            for pod in subdirs(&pods)? {
                for container in subdirs(&pod)? {
                    let c = lossy(container.file_name());
                    let logs = container.join(&c).join("logs");
                    for (name, previous, insecure) in INSPECT_LOGS {
                        let f = logs.join(name);
                        if crate::files::is_regular(&f) {
                            let key = LogKey::new(
                                &lossy(ns.file_name()),
                                &lossy(pod.file_name()),
                                &c,
                                previous,
                            );
                            files.push((insecure, key, f));
                        }
                    }
                }
            }
        }
    }
    // An `.insecure` twin only where the plain file is not there.
    files.sort_by_key(|(insecure, _, _)| *insecure);
    for (_, key, file) in files {
        if !keep.keeps(&key) || s.logs.contains_key(&key) {
            continue;
        }
        let bytes = read_tail(&file, tail).map_err(io(&file))?;
        let text = String::from_utf8_lossy(&bytes);
        let mut log = String::with_capacity(text.len());
        for line in text.lines() {
            log.push_str(without_kubelet_timestamp(line));
            log.push('\n');
        }
        s.logs.insert(key, log);
    }
    Ok(())
}

/// The log files of one container: name, whether of the previous instance, whether the
/// `.insecure` twin.
const INSPECT_LOGS: [(&str, bool, bool); 4] = [
    ("current.log", false, false),
    ("previous.log", true, false),
    ("current.insecure.log", false, true),
    ("previous.insecure.log", true, true),
];

/// The `namespaces` folders of an inspect or must-gather bundle, up to three levels down
/// (must-gather writes `must-gather.local.N/<gather image>/namespaces`). The logs/ of
/// `doctor --save` and a cluster-info dump's namespace folders are not searched.
fn inspect_roots(root: &Path) -> Result<Vec<PathBuf>, BundleError> {
    let mut out = Vec::new();
    let mut level = vec![root.to_path_buf()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for dir in &level {
            for sub in subdirs(dir)? {
                let name = sub.file_name().unwrap_or_default();
                if name == "namespaces" {
                    out.push(sub);
                } else if name != "logs" && !is_dump_namespace(&sub) {
                    next.push(sub);
                }
            }
        }
        level = next;
    }
    Ok(out)
}

/// A line of `kubectl logs --timestamps` without its leading RFC 3339 time.
fn without_kubelet_timestamp(line: &str) -> &str {
    match line.split_once(' ') {
        Some((first, rest))
            if first.len() >= 20
                && first.as_bytes()[4] == b'-'
                && first.as_bytes()[10] == b'T'
                && first.bytes().take(4).all(|b| b.is_ascii_digit()) =>
        {
            rest
        }
        _ => line,
    }
}

/// `<container> of pod <namespace>/<pod> ====`.
fn dump_marker(rest: &str) -> Option<LogKey> {
    let rest = rest.strip_suffix(" ====")?;
    let (container, pod) = rest.split_once(" of pod ")?;
    let (namespace, pod) = pod.split_once('/')?;
    Some(LogKey::new(namespace, pod, container, false))
}

/// One line into `line` (its newline included), at most `max` bytes of it kept; false at the end.
fn read_line_capped(
    reader: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        reader.consume(n);
        if done {
            return Ok(true);
        }
    }
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

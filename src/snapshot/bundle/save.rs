//! Writing a bundle (`doctor --save`): every object the snapshot holds, as `kubectl get -o yaml`\n//! would, Secret values left out and every other string through the one masker
//! ([`crate::signatures::redact::mask_json`]; log lines through `redact_lines`), written to a temporary folder first so nothing partial is left.

use super::*;
use crate::snapshot::kinds::FIELDS;

/// Whether `--save DIR` can be written: DIR is new, or an empty directory, not a symbolic link,
/// in a folder this process may create folders in (a probe folder is made and removed there).
/// Checked before the cluster is read, so that a long gather is never lost to a full, read-only
/// or linked target.
pub fn check_save_target(dir: &Path) -> Result<(), BundleError> {
    let refuse = |path: &Path, why: &str| BundleError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(why.to_string()),
    };
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(refuse(
                dir,
                "a symbolic link: --save writes no bundle through a link; name a new folder",
            ))
        }
        Ok(m) if !m.is_dir() => {
            return Err(refuse(
                dir,
                "exists and is not a directory; name a new folder",
            ))
        }
        Ok(_) => {
            let mut entries = fs::read_dir(dir).map_err(|source| BundleError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
            if entries.next().is_some() {
                return Err(refuse(
                    dir,
                    "directory exists and is not empty; name a new or empty folder",
                ));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(BundleError::Write {
                path: dir.to_path_buf(),
                source,
            })
        }
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(refuse(parent, "no such directory to save into"));
    }
    // The save makes its folder here and renames it into place: a read-only folder fails now.
    tempfile::Builder::new()
        .prefix(".kubectl-flink-probe-")
        .tempdir_in(parent)
        .map(drop)
        .map_err(|e| {
            refuse(
                parent,
                &format!("cannot create the bundle's folder here ({e}); choose a writable folder"),
            )
        })
}

/// Writes a snapshot as a bundle directory (the `--save` layout). Secrets keep metadata only.
/// Everything is written to a temporary directory first and renamed into place, so a failure
/// never leaves a half-written bundle, nor does Ctrl-C ([`interrupt_save`]).
pub fn save(s: &Snapshot, dir: &Path) -> Result<(), BundleError> {
    save_in(s, dir, &SAVES)
}

/// The save in progress in this process, for Ctrl-C and SIGTERM to stop.
static SAVES: Saves = Saves::new();

/// Ctrl-C or SIGTERM came: a save in progress stops before its next file and removes its
/// temporary folder (a save not yet started does not start). Returns once no temporary folder is
/// left, or after `wait` (then removing it from here), so that the caller may exit.
pub fn interrupt_save(wait: std::time::Duration) {
    SAVES.interrupt(wait);
    // And the temporary folder of an archive being read (`--from bundle.tar.gz`).
    crate::files::archive::remove_unpacked();
}

/// A save's temporary folder while it is written, and whether it must stop.
pub(super) struct Saves {
    partial: std::sync::Mutex<Option<PathBuf>>,
    interrupted: std::sync::atomic::AtomicBool,
}

impl Saves {
    pub(super) const fn new() -> Self {
        Saves {
            partial: std::sync::Mutex::new(None),
            interrupted: std::sync::atomic::AtomicBool::new(false),
        }
    }

    pub(super) fn partial(&self) -> std::sync::MutexGuard<'_, Option<PathBuf>> {
        self.partial.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is_interrupted(&self) -> bool {
        self.interrupted.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub(super) fn interrupt(&self, wait: std::time::Duration) {
        self.interrupted
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let until = std::time::Instant::now() + wait;
        loop {
            let partial = self.partial();
            match partial.as_deref() {
                None => return,
                Some(p) if std::time::Instant::now() >= until => {
                    let _ = fs::remove_dir_all(p);
                    return;
                }
                Some(_) => {}
            }
            drop(partial);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Fails once interrupted: the error every write of the save then returns.
    fn check(&self, path: &Path) -> Result<(), BundleError> {
        if self.is_interrupted() {
            return Err(BundleError::Write {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"),
            });
        }
        Ok(())
    }
}

/// A save's temporary folder, known to [`Saves`] while it exists: dropping it (an error, an
/// interrupt, a panic) removes the folder first, then says so.
pub(super) struct Partial<'a> {
    dir: Option<tempfile::TempDir>,
    saves: &'a Saves,
}

impl<'a> Partial<'a> {
    fn new(dir: tempfile::TempDir, saves: &'a Saves) -> Result<Self, BundleError> {
        let mut partial = saves.partial();
        // Checked under the lock: an interrupt either sees this folder or stops it here.
        saves.check(dir.path())?;
        *partial = Some(dir.path().to_path_buf());
        Ok(Partial {
            dir: Some(dir),
            saves,
        })
    }

    fn path(&self) -> &Path {
        self.dir.as_ref().map(|d| d.path()).unwrap_or(Path::new(""))
    }

    /// The folder was renamed into place: nothing to remove any more.
    fn keep(mut self) {
        if let Some(d) = self.dir.take() {
            let _ = d.keep();
        }
    }
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        drop(self.dir.take());
        *self.saves.partial() = None;
    }
}

pub(super) fn save_in(s: &Snapshot, dir: &Path, saves: &Saves) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    check_save_target(dir)?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A new folder with a random name, made atomically with mode 0700 (mkdtemp): never a
    // predictable name that someone could have planted a link at in a shared directory.
    let tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .prefix(&format!(
            ".{}.partial-",
            dir.file_name().and_then(|n| n.to_str()).unwrap_or("bundle")
        ))
        .tempdir_in(parent)
        .map_err(werr(parent))?;
    // Until the rename below succeeds, dropping `tmp` (an error, a panic, an interrupt) removes it.
    let tmp = Partial::new(tmp, saves)?;
    write_all(s, tmp.path(), saves)?;
    saves.check(dir)?;
    if dir.exists() {
        fs::remove_dir(dir).map_err(werr(dir))?;
    }
    fs::rename(tmp.path(), dir).map_err(werr(dir))?;
    tmp.keep();
    Ok(())
}

pub(super) fn write_all(s: &Snapshot, dir: &Path, saves: &Saves) -> Result<(), BundleError> {
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Write { path, source }
    };
    fs::create_dir_all(dir).map_err(werr(dir))?;
    for field in FIELDS {
        let items = field.items(s);
        // A kind the live gather listed whole is written even when empty, as the API's own typed
        // list (`EndpointSliceList`): "read, and there were none" is evidence that a missing file
        // is not.
        let (api_version, kind) = match field.kinds {
            [kind] => (kind.api_version, Some(kind)),
            _ => ("v1", None),
        };
        let read = !items.is_empty()
            || (field.whole && kind.is_some_and(|k| !s.gaps.iter().any(|g| gap_of_kind(g, k))));
        if !read {
            continue;
        }
        let list_kind = match kind {
            Some(kind) => format!("{}List", kind.kind),
            None => "List".to_string(),
        };
        let doc = serde_json::json!({"apiVersion": api_version, "kind": list_kind, "items": items});
        let path = dir.join(format!("{}.yaml", field.file));
        let text = serde_yaml::to_string(&doc).map_err(|e| BundleError::Write {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        saves.check(&path)?;
        fs::write(&path, text).map_err(werr(&path))?;
    }
    for (key, text) in &s.logs {
        let pod_dir = dir.join("logs").join(&key.namespace).join(&key.pod);
        saves.check(&pod_dir)?;
        fs::create_dir_all(&pod_dir).map_err(werr(&pod_dir))?;
        let suffix = if key.previous {
            ".previous.log"
        } else {
            ".log"
        };
        let path = pod_dir.join(format!("{}{suffix}", key.container));
        saves.check(&path)?;
        // Every saved log line through the masker, as every printed one.
        let text = crate::signatures::redact::redact_lines(text);
        fs::write(&path, text.as_bytes()).map_err(werr(&path))?;
    }
    Ok(())
}

/// Whether a gap is about listing objects of this kind (by the resource's plural).
pub(super) fn gap_of_kind(g: &crate::snapshot::Gap, kind: &crate::flink::kinds::Kind) -> bool {
    g.resource.split('/').next() == Some(kind.plural)
}

pub(crate) fn with_kind<T: serde::Serialize>(
    items: &[T],
    api_version: &str,
    kind: &str,
) -> Vec<Value> {
    items
        .iter()
        .filter_map(|i| serde_json::to_value(i).ok())
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                o.insert("apiVersion".into(), Value::String(api_version.into()));
                o.insert("kind".into(), Value::String(kind.into()));
            }
            mask_for_save(&mut v);
            v
        })
        .collect()
}

/// What a saved bundle never holds: the value of a Flink configuration key that names a secret
/// (`s3.secret-key`, `fs.azure.account.key.*`, passwords; `spec.flinkConfiguration` of the
/// Apache operator's resources, `spec.flinkConfig` of Lyft's) or whose value looks like one; any
/// secret in any other string of the object (env values by their names, URLs with a password,
/// a status or an Event message quoting one, a ConfigMap's properties: the masker
/// [`crate::signatures::redact::mask_json`] every saved object goes through); the
/// `last-applied-configuration` annotation, which repeats the whole spec, and `managedFields`
/// (server bookkeeping that `kubectl get -o yaml` hides too; a third of a recorded pod).
pub(super) fn mask_for_save(v: &mut Value) {
    fn mask(prefix: &str, v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    mask(&key, child);
                }
            }
            Value::String(s) => {
                if crate::signatures::redact::secret_key(prefix)
                    || crate::signatures::redact::redact(s) != s.as_str()
                {
                    *s = "***".into();
                }
            }
            Value::Null => {}
            other => {
                if crate::signatures::redact::secret_key(prefix) {
                    *other = Value::String("***".into());
                }
            }
        }
    }
    for field in ["flinkConfiguration", "flinkConfig"] {
        if let Some(conf) = v.pointer_mut(&format!("/spec/{field}")) {
            mask("", conf);
        }
    }
    if let Some(a) = v
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    crate::signatures::redact::mask_json(v);
}

//! One file written atomically (a temporary file in the same folder, then a rename): for the
//! caches and the sources' own files that stages save (results, the highlight cache, a
//! scaffolded article). A leaf module, so that no stage reaches into [`measured::write`], the last
//! stage, for it.

use std::path::Path;

/// Writes `bytes` to `path` atomically: a reader sees the old file or the new one, never half.
/// A file replaced keeps its permissions.
pub fn file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    file_with(path, |w| w.write_all(bytes))
}

/// Rewrites a file of the author's (a translation `measured translated` marks) atomically, as the
/// author keeps it: through a symlink, the file it leads to is rewritten and the link stays (so
/// a file shared by links is not left stale behind a new copy), with its permissions.
pub fn rewrite(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let real = std::fs::canonicalize(path)?;
    file(&real, bytes)
}

/// Writes to `path` atomically what `write` writes, through a buffer: a large file (the
/// highlight cache) is never held whole in memory.
pub fn file_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    // The temporary file is made private (0600): the file it replaces keeps its own mode.
    let kept = std::fs::symlink_metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.permissions());
    let tmp = tempfile::NamedTempFile::new_in(parent)?;
    if let Some(permissions) = kept {
        tmp.as_file().set_permissions(permissions)?;
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 16, tmp);
    write(&mut w)?;
    w.flush()?;
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn replaces_a_file_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.json");
        super::file(&path, b"one").unwrap();
        super::file(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.json"]);
    }

    #[test]
    fn a_rewrite_goes_through_a_link_and_keeps_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared.md");
        std::fs::write(&shared, "old").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o664)).unwrap();
        let link = dir.path().join("a/index.en.md");
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("../shared.md", &link).unwrap();
        super::rewrite(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&shared).unwrap(), b"new");
        let mode = std::fs::metadata(&shared).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o664);
    }
}

//! One file written atomically (a temporary file in the same folder, then a rename): for the
//! caches and the sources' own files that stages save (results, the highlight cache, a
//! scaffolded article). A leaf module, so that no stage reaches into [`crate::write`], the last
//! stage, for it.

use std::path::Path;

/// Writes `bytes` to `path` atomically: a reader sees the old file or the new one, never half.
pub fn file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    file_with(path, |w| w.write_all(bytes))
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
    let tmp = tempfile::NamedTempFile::new_in(parent)?;
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
}

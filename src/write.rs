//! Writing the output: the whole site goes into a fresh folder beside the target, which then
//! replaces the target, so a failed build leaves the previous output exactly as it was.

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, Place, io_error};
use crate::output::Output;

/// Writes `output` to `dir`, replacing what was there only once everything is written.
/// Refuses to replace a non-empty folder that does not look like a previous output.
pub fn write_site(output: &Output, dir: &Path, protected: &[PathBuf]) -> Result<(), Diagnostics> {
    let dir = absolute(dir);
    for p in protected {
        let p = absolute(p);
        if dir == p || p.starts_with(&dir) {
            return Err(Diagnostic::new(
                Place::file(&dir),
                format!(
                    "the output folder would replace {}, which holds the site's sources",
                    p.display()
                ),
            )
            .with_hint("choose another --output folder, such as public/")
            .into());
        }
    }
    let parent = dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&parent)
        .map_err(|e| io_error(&parent, "create the output's parent folder", &e))?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "public".into());
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .map_err(|e| io_error(&parent, "create a staging folder", &e))?;
    write_files(output, staging.path())?;
    swap(staging, &dir, &parent, &name)
}

fn write_files(output: &Output, root: &Path) -> Result<(), Diagnostics> {
    use rayon::prelude::*;
    let files: Vec<(&String, &std::sync::Arc<[u8]>)> = output.files.iter().collect();
    // Each folder once (a file's folder is made before the file; parents before children),
    // not a `create_dir_all` per file.
    let folders: std::collections::BTreeSet<&str> = files
        .iter()
        .filter_map(|(rel, _)| rel.rsplit_once('/').map(|(dir, _)| dir))
        .collect();
    for dir in folders {
        let path = root.join(dir);
        std::fs::create_dir_all(&path).map_err(|e| io_error(&path, "create a folder", &e))?;
    }
    let results: Vec<Result<(), Diagnostic>> = files
        .par_iter()
        .map(|(rel, bytes)| {
            let path = root.join(rel);
            std::fs::write(&path, bytes).map_err(|e| io_error(&path, "write", &e))
        })
        .collect();
    let mut diags = Diagnostics::default();
    results
        .into_iter()
        .filter_map(Result::err)
        .for_each(|d| diags.push(d));
    diags.into_result(())
}

fn swap(
    staging: tempfile::TempDir,
    dir: &Path,
    parent: &Path,
    name: &str,
) -> Result<(), Diagnostics> {
    let staged = staging.keep();
    if dir.exists() {
        let old = tempfile::Builder::new()
            .prefix(&format!(".{name}.old-"))
            .tempdir_in(parent)
            .map_err(|e| io_error(parent, "create a folder for the old output", &e))?;
        let old_path = old.path().join(name);
        std::fs::rename(dir, &old_path)
            .map_err(|e| io_error(dir, "move the previous output aside", &e))?;
        if let Err(e) = std::fs::rename(&staged, dir) {
            let _ = std::fs::rename(&old_path, dir);
            let _ = std::fs::remove_dir_all(&staged);
            return Err(io_error(dir, "move the new output in place", &e).into());
        }
        drop(old);
    } else if let Err(e) = std::fs::rename(&staged, dir) {
        let _ = std::fs::remove_dir_all(&staged);
        return Err(io_error(dir, "move the new output in place", &e).into());
    }
    Ok(())
}

/// Writes one file atomically (temporary file in the same folder, then rename).
pub fn atomic_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn absolute(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_previous_output_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("stale.html"), "old").unwrap();
        let mut o = Output::default();
        o.insert("a/index.html".into(), b"new".to_vec());
        write_site(&o, &out, &[]).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "new"
        );
        assert!(!out.join("stale.html").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, [std::ffi::OsString::from("public")]);
    }

    #[test]
    fn refuses_to_replace_the_sources() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_site(
            &Output::default(),
            dir.path(),
            &[dir.path().join("content")],
        )
        .unwrap_err();
        assert!(e.to_string().contains("holds the site's sources"));
    }
}

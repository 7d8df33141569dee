//! Writing an import's files: every destination checked first (inside the root, through no
//! symbolic link leading out of it, not inside SRC, and not a file that differs from what the
//! import writes unless `--force`), then each written atomically. Nothing is written when any
//! check fails.

use std::path::{Component, Path, PathBuf};

use super::Planned;
use crate::diag::{Diagnostic, Diagnostics, Place};

pub struct Outcome {
    pub written: Vec<PathBuf>,
    pub unchanged: usize,
}

pub(super) fn write_all(
    root: &Path,
    src: &Path,
    planned: &[Planned],
    force: bool,
) -> Result<Outcome, Diagnostics> {
    let canon = |p: &Path| {
        std::fs::canonicalize(p).map_err(|e| crate::diag::io_error(p, "find the folder", &e))
    };
    let root_c = canon(root)?;
    let src_c = canon(src)?;
    let mut diags = Diagnostics::default();
    let mut todo = Vec::new();
    let mut unchanged = 0;
    for p in planned {
        let dest = root.join(&p.dest);
        let plain = p
            .dest
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
        let resolved = resolve(&dest);
        let refuse = |why: String| {
            Diagnostic::new(Place::file(&dest), why).with_hint(format!(
                "the import writes only inside {} (from {})",
                root.display(),
                p.from.display()
            ))
        };
        if !plain || !resolved.starts_with(&root_c) {
            diags.push(refuse(format!(
                "this path leads out of the root (to {})",
                resolved.display()
            )));
            continue;
        }
        if resolved.starts_with(&src_c) {
            diags.push(refuse(
                "this path is inside SRC, which the import never changes".into(),
            ));
            continue;
        }
        match std::fs::read(&dest) {
            Ok(old) if old == p.bytes => unchanged += 1,
            Ok(old) if p.appends && p.bytes.starts_with(&old) => todo.push((dest, p)),
            Ok(_) if !force => diags.push(
                Diagnostic::new(Place::file(&dest), "the file differs from what the import would write (edited since, or another post)")
                    .with_hint("move it away, or import again with --force to overwrite it"),
            ),
            _ => todo.push((dest, p)),
        }
    }
    diags.into_result(())?;
    let mut written = Vec::new();
    for (dest, p) in todo {
        crate::atomic::file(&dest, &p.bytes)
            .map_err(|e| crate::diag::io_error(&dest, "write", &e))?;
        written.push(p.dest.clone());
    }
    Ok(Outcome { written, unchanged })
}

/// Where `path` really is: its deepest existing folder with links resolved, then the rest.
fn resolve(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(c) = std::fs::canonicalize(&existing) {
            return rest
                .iter()
                .rev()
                .fold(c, |acc: PathBuf, part: &std::ffi::OsString| acc.join(part));
        }
        match (
            existing.file_name().map(ToOwned::to_owned),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

//! Which folders `--output` may replace: a previous output of measured (it holds the marker),
//! an empty folder, or one that does not exist yet; never a file, a folder of other files, or
//! a folder holding or inside the site's sources.

use std::path::{Path, PathBuf};

use super::MARKER;
use crate::config::paths::{self, Overlap, resolve};
use crate::diag::{Diagnostic, Diagnostics, Place, io_error};

const SOURCES_HINT: &str =
    "choose an output folder outside the sources, such as public/ (the default)";

/// The absolute, symlink-free output folder, if `out` may receive the site of `root`.
pub(super) fn check(out: &Path, root: &Path) -> Result<PathBuf, Diagnostics> {
    let dir = resolve(out);
    check_sources(&dir, &resolve(root))?;
    match std::fs::metadata(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(dir),
        Err(e) => Err(io_error(&dir, "read the output folder", &e).into()),
        Ok(m) if !m.is_dir() => Err(Diagnostic::new(
            Place::file(&dir),
            "the output is a file, not a folder",
        )
        .with_hint(
            "choose a folder for --output: measured replaces only an empty folder or one it built",
        )
        .into()),
        Ok(_) => replaceable(&dir).map(|()| dir),
    }
}

/// The site's sources ([`paths`]): under their default names, and where `site.toml` moves them.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut sources = paths::default_sources(root);
    if let Ok(config) = crate::config::load(root) {
        sources.extend(config.moved().into_iter().map(resolve));
    }
    sources
}

fn check_sources(dir: &Path, root: &Path) -> Result<(), Diagnostics> {
    let refuse = |message: String| -> Result<(), Diagnostics> {
        Err(Diagnostic::new(Place::file(dir), message)
            .with_hint(SOURCES_HINT)
            .into())
    };
    if root.starts_with(dir) {
        return refuse(format!(
            "the output folder holds the site's sources (the site at {})",
            root.display()
        ));
    }
    for source in sources(root) {
        match paths::overlap(dir, &source) {
            Some(Overlap::Same) => {
                return refuse(format!(
                    "the output folder is the site's source {}",
                    source.display()
                ));
            }
            Some(Overlap::Inside) => {
                return refuse(format!(
                    "the output folder is inside the site's sources ({})",
                    source.display()
                ));
            }
            // A moved source outside the root, inside the output: the swap would take it.
            Some(Overlap::Holds) => {
                return refuse(format!(
                    "the output folder holds the site's source {}",
                    source.display()
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// An existing folder may be replaced when it is empty or holds the marker of an output.
fn replaceable(dir: &Path) -> Result<(), Diagnostics> {
    if has_marker(dir) {
        return Ok(());
    }
    let mut entries =
        std::fs::read_dir(dir).map_err(|e| io_error(dir, "read the output folder", &e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    Err(Diagnostic::new(
        Place::file(dir),
        format!(
            "the output folder holds files that measured did not build (it has no {MARKER} \
             file); refusing to replace it"
        ),
    )
    .with_hint(format!(
        "empty it, or choose another --output folder: measured replaces only an empty folder or \
         one it built, which holds {MARKER} (an output of a measured older than this rule has \
         none: delete it once)"
    ))
    .into())
}

/// Whether `dir` holds the marker as a regular file of its own: a symlink named like it (to
/// any file anywhere) is no marker.
pub(super) fn has_marker(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.file_type().is_file())
}

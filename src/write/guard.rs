//! Which folders `--output` may replace: a previous output of measured (it holds the marker),
//! an empty folder, or one that does not exist yet; never a file, a folder of other files, or
//! a folder holding or inside the site's sources.

use std::path::{Component, Path, PathBuf};

use super::MARKER;
use crate::diag::{Diagnostic, Diagnostics, Place, io_error};

/// The site's own files and folders under its root: an output may neither be nor hold them.
const SOURCES: [&str; 8] = [
    "content",
    "templates",
    "static",
    "experiments",
    "frozen",
    "machines",
    "site.toml",
    ".measured",
];

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

/// The site's sources: the fixed ones, and the experiments' folders `site.toml` may move.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = SOURCES.iter().map(|s| root.join(s)).collect();
    if let Ok(config) = crate::config::load(root) {
        sources.push(resolve(&config.experiments.dir));
        sources.push(resolve(&config.experiments.frozen_dir));
        sources.push(resolve(&config.machines.dir));
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
        if *dir == source {
            return refuse(format!(
                "the output folder is the site's source {}",
                source.display()
            ));
        }
        if dir.starts_with(&source) {
            return refuse(format!(
                "the output folder is inside the site's sources ({})",
                source.display()
            ));
        }
    }
    Ok(())
}

/// An existing folder may be replaced when it is empty or holds the marker of an output.
fn replaceable(dir: &Path) -> Result<(), Diagnostics> {
    if dir.join(MARKER).is_file() {
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

/// `p` made absolute, with symlinks resolved in the part that exists and `.` and `..` folded
/// in the part that does not exist yet.
fn resolve(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let parts: Vec<Component<'_>> = abs.components().collect();
    let (mut out, rest) = (1..=parts.len())
        .rev()
        .find_map(|k| {
            let prefix: PathBuf = parts[..k].iter().collect();
            std::fs::canonicalize(prefix)
                .ok()
                .map(|real| (real, &parts[k..]))
        })
        .unwrap_or_else(|| (PathBuf::from("/"), &parts[..]));
    for c in rest {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => out.push(name),
            _ => {}
        }
    }
    out
}

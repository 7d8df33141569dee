//! The swap: a locked staging folder beside the target, its exchange with the target, and the
//! removal of what killed builds left there.
//!
//! A build holds an advisory lock (`flock`) on its staging folder until the swap is done, and a
//! remover on the folder it removes; the kernel drops the lock when the process dies, however it
//! dies. So a sweep removes exactly the folders of dead processes, and two builds running at
//! once never remove each other's.

use std::fs::File;
use std::path::{Path, PathBuf};

use nix::fcntl::{Flock, FlockArg};

use crate::diag::{Diagnostic, Diagnostics, io_error};

/// A staging folder, removed when dropped unless it was swapped in.
pub(super) struct Staging {
    path: PathBuf,
    _lock: Option<Flock<File>>,
    swapped: bool,
}

impl Staging {
    /// Creates and locks `.<name>.new-XXXXXX` in `parent`.
    pub(super) fn new(parent: &Path, name: &str) -> Result<Staging, Diagnostic> {
        let path = tempfile::Builder::new()
            .prefix(&format!(".{name}.new-"))
            .tempdir_in(parent)
            .map_err(|e| io_error(parent, "create a staging folder", &e))?
            .keep();
        let lock = lock(&path);
        // Marked from the start, so that the sweep of a later build knows a killed build's
        // staging folder from a user's folder of the same shape of name.
        std::fs::write(path.join(super::MARKER), super::MARKER_TEXT)
            .map_err(|e| io_error(&path, "write the output's marker", &e))?;
        Ok(Staging {
            path,
            _lock: lock,
            swapped: false,
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the staged site at `dir`; returns where the previous output went, if there was one.
    pub(super) fn replace(mut self, dir: &Path) -> Result<Option<PathBuf>, Diagnostics> {
        let swapped = if dir.symlink_metadata().is_ok() {
            exchange(&self.path, dir).map(Some)
        } else {
            std::fs::rename(&self.path, dir).map(|()| None)
        };
        let retired = swapped.map_err(|e| io_error(dir, "put the new output in place", &e))?;
        self.swapped = true;
        Ok(retired)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.swapped {
            remove_tree(&self.path);
        }
    }
}

/// Exchanges the staged folder with `dir` in one step; returns where the old output is now
/// (the staging folder's path). Where the kernel or the file system has no exchange, falls back
/// to [`two_renames`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn exchange(staged: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    use nix::errno::Errno;
    use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
    match renameat2(
        AT_FDCWD,
        staged,
        AT_FDCWD,
        dir,
        RenameFlags::RENAME_EXCHANGE,
    ) {
        Ok(()) => Ok(staged.to_path_buf()),
        Err(Errno::EINVAL | Errno::ENOSYS) => two_renames(staged, dir),
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn exchange(staged: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    two_renames(staged, dir)
}

/// The fallback, **not atomic**: the old output is renamed to `.<name>.old-XXXXXX`, then the
/// staged one to `dir`. A build killed between the two leaves no output at `dir` (the previous
/// one waits in the `.old-` folder until the next build's sweep removes it).
fn two_renames(staged: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    let parent = dir.parent().unwrap_or(Path::new("/"));
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let aside = tempfile::Builder::new()
        .prefix(&format!(".{name}.old-"))
        .tempdir_in(parent)?
        .keep();
    std::fs::rename(dir, &aside)?;
    if let Err(e) = std::fs::rename(staged, dir) {
        let _ = std::fs::rename(&aside, dir);
        return Err(e);
    }
    Ok(aside)
}

/// Whether `name` is one the swap gives its folders (`.public.new-…`, `.public.old-…`).
pub(super) fn is_leftover_name(name: &str) -> bool {
    name.starts_with('.') && (name.contains(".new-") || name.contains(".old-"))
}

/// The staging and retired folders of `name` in `parent`: what killed builds left, or what
/// builds running now are writing (those hold a lock).
pub(super) fn leftovers(parent: &Path, name: &str) -> Vec<PathBuf> {
    let prefixes = [format!(".{name}.new-"), format!(".{name}.old-")];
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            prefixes.iter().any(|p| n.starts_with(p.as_str()))
        })
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| is_ours(p))
        .collect()
}

/// Whether the folder `path` is one measured made: it holds the marker (a regular file, not a
/// link), or nothing at all (a build killed before writing the marker; an empty output).
pub(super) fn is_ours(path: &Path) -> bool {
    super::guard::has_marker(path) || std::fs::read_dir(path).is_ok_and(|mut d| d.next().is_none())
}

/// Removes `path` unless another process holds its lock (a build still writing it, or a
/// remover already at work).
pub(super) fn remove_unheld(path: &Path) {
    if let Some(_held) = lock(path) {
        remove_tree(path);
    }
}

/// A non-blocking exclusive lock on a folder, or `None` when another process holds it.
pub(super) fn lock(path: &Path) -> Option<Flock<File>> {
    let folder = File::open(path).ok()?;
    Flock::lock(folder, FlockArg::LockExclusiveNonblock).ok()
}

/// Removes a folder and everything in it, making read-only folders writable first if needed
/// (an output the user made read-only is still ours to replace). The marker goes last: a
/// removal killed half-way leaves a folder the next sweep still knows as measured's.
pub(super) fn remove_tree(path: &Path) {
    if remove_marker_last(path).is_ok() || !path.exists() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_type().is_dir() {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o755));
        }
    }
    let _ = remove_marker_last(path);
}

/// Removes what `path` holds but the marker, then the marker with the folder.
fn remove_marker_last(path: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        if entry.file_name() == super::MARKER {
            continue;
        }
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    std::fs::remove_dir_all(path)
}

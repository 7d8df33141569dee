//! Writing the output: the whole site goes into a staging folder beside the target, which is
//! then exchanged with the target in one step, so the output folder is at every instant the
//! complete old site or the complete new one, even when the build is killed.
//!
//! The steps, and why:
//!
//! 1. [`Target::check`], before the build: the output folder must be a previous output of
//!    measured (it holds the [`MARKER`] file every output gets), an empty folder, or absent;
//!    never a file, a folder of other files, or anything holding or inside the site's sources
//!    ([`guard`]). Checked first, so a refused `--output` costs no build.
//! 2. While the site renders, a background thread removes what killed builds left beside the
//!    target (`.public.new-*` staging folders and `.public.old-*` retired outputs), skipping
//!    those another build still holds ([`swap::leftovers`], listed before this build makes
//!    its own) and any that does not hold the marker (a staging folder gets it when it is
//!    made): a folder of the user's named like a leftover is not ours to delete. The build waits for it after the swap, which costs time only when removing
//!    them takes longer than building, so a build that ends leaves none.
//! 3. [`Stage`]: the files go into a fresh `.public.new-*` folder, which the build holds
//!    locked: the pages while they render (the stage is the build's [`Store`], so a build never
//!    holds its whole HTML), the rest and the marker at [`Stage::finish`]. A failed build, even
//!    one whose errors are found after pages went in, drops the stage, which removes the
//!    folder; a killed one leaves it to the next build's sweep. Then one `renameat2(RENAME_EXCHANGE)`
//!    swaps it with the target on Linux ([`swap::exchange`]; elsewhere two renames, which leave
//!    a moment without an output, see there).
//! 4. The previous output now sits in the staging folder's place: a [`Retired`] folder. Deleting
//!    a large site can take far longer than building it (issue 22 measured 43 of the 49 s of a
//!    10,000-article rebuild), so `measured build` hands it to a detached child process and returns
//!    at once; a library caller removes it with [`Retired::remove`]. A remover that is killed
//!    leaves a leftover, which the next build's sweep removes.
//!
//! The output is safe from `kill -9` at any moment, not from a power cut: nothing is synced to
//! disk (thousands of `fsync` calls would cost more than the build).

mod guard;
mod swap;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::diag::{Diagnostic, Diagnostics, Place, io_error};
use crate::output::{Output, Store};

/// The file every output of measured holds, so a later build knows it may replace the folder.
pub const MARKER: &str = ".measured-output";

/// What the marker says to a person who opens it.
const MARKER_TEXT: &str = "This folder is a site built by measured. `measured build` replaces it \
whole on every build: keep nothing else here, it would be deleted.\n";

/// A checked output folder, and the thread removing what killed builds left beside it.
#[derive(Debug)]
pub struct Target {
    dir: PathBuf,
    parent: PathBuf,
    name: String,
    sweeping: Option<std::thread::JoinHandle<()>>,
}

/// The previous output, moved aside by the swap: to remove, on or off the caller's path.
#[derive(Debug)]
#[must_use = "a retired output stays on disk until it is removed"]
pub struct Retired(Option<PathBuf>);

impl Target {
    /// Checks that `out` may receive the site of `root` (see the module doc) and starts
    /// removing leftovers of killed builds beside it.
    pub fn check(out: &Path, root: &Path) -> Result<Target, Diagnostics> {
        let dir = guard::check(out, root)?;
        let parent = dir
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "public".into());
        // Listed now, before this build makes folders of the same names; removed meanwhile.
        let leftovers = swap::leftovers(&parent, &name);
        let sweeping = (!leftovers.is_empty())
            .then(|| {
                std::thread::Builder::new()
                    .name("sweep".into())
                    .spawn(move || leftovers.iter().for_each(|p| swap::remove_unheld(p)))
                    .ok()
            })
            .flatten();
        Ok(Target {
            dir,
            parent,
            name,
            sweeping,
        })
    }

    /// The output folder, absolute.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes `output` into a staging folder and swaps it with the target.
    pub fn write(self, output: &Output) -> Result<Retired, Diagnostics> {
        self.stage().finish(output)
    }

    /// The staging folder of this target, to fill while the site renders ([`Stage`]).
    pub fn stage(self) -> Stage {
        Stage {
            target: self,
            staging: OnceLock::new(),
        }
    }
}

/// A staging folder beside the target, made when the first file goes in: files are written
/// into it while the site renders (it is the build's [`Store`]), the rest of the output at
/// [`Stage::finish`], which swaps it in. Dropped unfinished (the build failed), it is removed.
pub struct Stage {
    target: Target,
    staging: OnceLock<Result<swap::Staging, Diagnostic>>,
}

impl Stage {
    /// The staging folder, made on the first call.
    fn staging(&self) -> Result<&swap::Staging, Diagnostic> {
        let made = self.staging.get_or_init(|| {
            let parent = &self.target.parent;
            std::fs::create_dir_all(parent)
                .map_err(|e| io_error(parent, "create the output's parent folder", &e))?;
            swap::Staging::new(parent, &self.target.name)
        });
        made.as_ref().map_err(Clone::clone)
    }

    /// Writes what `output` holds (the files not written yet) and the marker, and swaps the
    /// staging folder with the target.
    pub fn finish(mut self, output: &Output) -> Result<Retired, Diagnostics> {
        let staging = self.staging()?;
        write_files(output, staging.path(), &self.target.dir)?;
        std::fs::write(staging.path().join(MARKER), MARKER_TEXT)
            .map_err(|e| io_error(staging.path(), "write the output's marker", &e))?;
        let Some(Ok(staging)) = self.staging.take() else {
            unreachable!("the staging folder was made above");
        };
        let retired = staging.replace(&self.target.dir)?;
        if let Some(sweeping) = self.target.sweeping.take() {
            let _ = sweeping.join();
        }
        Ok(Retired(retired))
    }
}

impl Store for Stage {
    fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
        let root = self.staging()?.path();
        let shown = || self.target.dir.join(path);
        let file = root.join(path);
        match std::fs::write(&file, bytes) {
            // Its folder is made by the first file that goes in it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let folder = file.parent().unwrap_or(root);
                std::fs::create_dir_all(folder)
                    .map_err(|e| io_error(&shown(), "create its folder", &e))?;
                std::fs::write(&file, bytes)
            }
            written => written,
        }
        .map_err(|e| io_error(&shown(), "write", &e))
    }
}

impl Retired {
    /// The folder holding the previous output, if there was one.
    pub fn path(&self) -> Option<&Path> {
        self.0.as_deref()
    }

    /// Removes the previous output now, on this thread.
    pub fn remove(self) {
        if let Some(path) = self.0 {
            swap::remove_tree(&path);
        }
    }
}

/// Removes a retired output handed over by `measured build` (its hidden `remove-retired`
/// command): only a folder named as the swap names them, holding an output or nothing.
pub fn remove_retired(path: &Path) -> Result<(), Diagnostics> {
    let named = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| swap::is_leftover_name(&n));
    let is_output = swap::is_ours(path);
    if !named || !is_output {
        return Err(Diagnostic::new(
            Place::file(path),
            "not a retired output of measured; nothing was removed",
        )
        .with_hint("this command only removes the previous outputs `measured build` moves aside")
        .into());
    }
    swap::remove_unheld(path);
    Ok(())
}

/// Writes every file of `output` under `root`; errors name the file's final place under `shown`.
fn write_files(output: &Output, root: &Path, shown: &Path) -> Result<(), Diagnostics> {
    use rayon::prelude::*;
    let files: Vec<(&String, &std::sync::Arc<[u8]>)> = output.files.iter().collect();
    // Each folder once (a file's folder is made before the file; parents before children),
    // not a `create_dir_all` per file.
    let folders: std::collections::BTreeSet<&str> = files
        .iter()
        .filter_map(|(rel, _)| rel.rsplit_once('/').map(|(dir, _)| dir))
        .collect();
    for dir in folders {
        std::fs::create_dir_all(root.join(dir))
            .map_err(|e| io_error(&shown.join(dir), "create a folder", &e))?;
    }
    let results: Vec<Result<(), Diagnostic>> = files
        .par_iter()
        .map(|(rel, bytes)| {
            std::fs::write(root.join(rel), bytes)
                .map_err(|e| io_error(&shown.join(rel), "write", &e))
        })
        .collect();
    let mut diags = Diagnostics::default();
    results
        .into_iter()
        .filter_map(Result::err)
        .for_each(|d| diags.push(d));
    diags.into_result(())
}

#[cfg(test)]
mod tests;

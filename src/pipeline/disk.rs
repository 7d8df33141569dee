//! A one-off build written to disk (`measured build`): the pages go into the write stage's
//! staging folder while they render, so a build holds the site's inputs but not its HTML, and
//! the rest of the output goes in before the swap.

use std::path::Path;

use crate::diag::Diagnostics;
use crate::experiments::{Progress, Silent};
use crate::write;

use super::{BuildOptions, Built, build_once};

/// Builds and writes the site into `out` (default `<root>/public`).
pub fn build_to_disk(opts: &BuildOptions, out: Option<&Path>) -> Result<Built, Diagnostics> {
    let (built, retired) = build_to_disk_with_progress(opts, out, &Silent)?;
    retired.remove();
    Ok(built)
}

/// Builds and writes the site, reporting the experiments' progress; returns the previous
/// output, moved aside, for the caller to remove (`main` hands it to a detached process).
pub fn build_to_disk_with_progress(
    opts: &BuildOptions,
    out: Option<&Path>,
    progress: &dyn Progress,
) -> Result<(Built, write::Retired), Diagnostics> {
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| opts.root.join("public"));
    let stage = write::Target::check(&out, &opts.root)?.stage();
    // Rendered files go into the staging folder as they are made; on an error the folder
    // is removed with `stage`, and the output was never touched.
    let built = build_once(opts, progress, Some(&stage))?;
    let retired = stage.finish(&built.output)?;
    Ok((built, retired))
}

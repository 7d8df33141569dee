//! `measured measure NAME --out FILE`: one experiment measured on this machine into a results
//! file: the one command a reader runs from a clone of the blog, and sends back. It neither
//! reads nor writes the cache or the history (a reader's file is always measured afresh, under
//! whatever the command runs in: one core under `taskset`, say). `run --on HOST` can run the
//! same command on a host and import what it writes.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::machine::Machine;
use super::results_file::ResultsFile;
use super::runs::run_of;
use super::{Progress, measure_command, runner, workspace};
use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};

/// What to measure, and where to write it.
#[derive(Debug, Clone)]
pub struct MeasureOptions {
    pub name: String,
    pub out: PathBuf,
    /// Fewer samples (`MEASURED_QUICK=1`): for tests; such a file cannot be imported.
    pub quick: bool,
}

/// Builds and runs experiment `opts.name` `[experiments] runs` times, and writes its results
/// file to `opts.out` (atomically: a failed run writes nothing).
pub fn measure_to_file(
    config: &SiteConfig,
    opts: &MeasureOptions,
    progress: &dyn Progress,
) -> Result<ResultsFile, Diagnostics> {
    let dir = &config.experiments.dir;
    let crates = workspace::discover(dir)?;
    let name = &opts.name;
    let Some(info) = crates.get(name) else {
        let hint = crate::diag::did_you_mean(
            name,
            crates.keys().map(String::as_str),
            "the experiments are",
        );
        return Err(Diagnostic::new(
            Place::file(dir),
            format!("`{name}` is not an experiment of this site"),
        )
        .with_hint(hint)
        .into());
    };
    check_out(config, &opts.out)?;
    let machine = Machine::read(dir);
    runner::build(dir, std::slice::from_ref(name), progress).map_err(|f| f.diagnostics(dir))?;
    let lock_hash = workspace::lock_hash(dir);
    let scratch = tempfile::tempdir().map_err(|e| {
        Diagnostic::new(
            Place::file(&opts.out),
            format!("cannot create a scratch folder: {e}"),
        )
    })?;
    let settings = runner::RunSettings {
        timeout: config.experiments.timeout,
        quick: opts.quick,
        scratch: scratch.path().to_path_buf(),
    };
    let count = config.experiments.runs_for(opts.quick);
    let mut runs = Vec::new();
    for i in 0..count {
        progress.run_started(name, i + 1, count);
        let started = Instant::now();
        let outcome = runner::run(dir, info, &settings);
        progress.run_finished(name, outcome.is_ok(), started.elapsed());
        let outcome = outcome.map_err(|f| f.diagnostic(name, &info.dir))?;
        runs.push(run_of(
            outcome,
            info,
            &lock_hash,
            &machine,
            opts.quick,
            measure_command(name),
        ));
    }
    let file = ResultsFile::new(name, runs);
    crate::atomic::file(&opts.out, &file.to_json())
        .map_err(|e| crate::diag::io_error(&opts.out, "write the results file", &e))?;
    Ok(file)
}

/// Refuses an output inside the site's sources: a results file reaches `machines/` only
/// through `measured results import`, which checks it.
fn check_out(config: &SiteConfig, out: &Path) -> Result<(), Diagnostic> {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let out = abs(out);
    let sources = [
        config.root.join("content"),
        config.root.join("templates"),
        config.root.join("static"),
        config.experiments.dir.clone(),
        config.experiments.frozen_dir.clone(),
        config.machines.dir.clone(),
    ];
    match sources.iter().find(|s| out.starts_with(abs(s))) {
        Some(s) => Err(Diagnostic::new(
            Place::file(&out),
            format!("--out lies inside the site's sources ({})", s.display()),
        )
        .with_hint("write the results file elsewhere, e.g. `--out varint.results.json` at the root; `measured results import FILE` adds it to machines/")),
        None => Ok(()),
    }
}

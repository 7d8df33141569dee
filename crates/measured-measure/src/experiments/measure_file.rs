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
use measured_content::config::SiteConfig;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

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
        let hint = measured_core::diag::did_you_mean(
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
    let lock_hash = workspace::Lock::read(dir).hash_of(name);
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
    measured_core::atomic::file(&opts.out, &file.to_json())
        .map_err(|e| measured_core::diag::io_error(&opts.out, "write the results file", &e))?;
    Ok(file)
}

/// Refuses an output inside the site's sources (a results file reaches `machines/` only through
/// `measured results import`, which checks it), and any existing file but a results file a
/// measure wrote, which is measured over again.
fn check_out(config: &SiteConfig, out: &Path) -> Result<(), Diagnostic> {
    use measured_content::config::paths::{self, Overlap};
    let resolved = paths::resolve(out);
    let root = paths::resolve(&config.root);
    let elsewhere = "write the results file elsewhere, e.g. `--out varint.results.json` outside the site's sources; `measured results import FILE` adds it to machines/";
    for source in config.sources().iter().map(|s| paths::resolve(s)) {
        let shown = source.strip_prefix(&root).unwrap_or(&source).display();
        let what = match paths::overlap(&resolved, &source) {
            Some(Overlap::Same) => format!("--out is the site's source {shown}"),
            Some(Overlap::Inside) => format!("--out lies inside the site's sources ({shown})"),
            Some(Overlap::Holds) => format!("--out holds the site's source {shown}"),
            None => continue,
        };
        return Err(Diagnostic::new(
            Place::file(out),
            format!("{what}: measured never writes into the sources"),
        )
        .with_hint(elsewhere));
    }
    if root.starts_with(&resolved) {
        return Err(
            Diagnostic::new(Place::file(out), "--out holds the site's sources")
                .with_hint(elsewhere),
        );
    }
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Ok(m) if m.file_type().is_file() && is_results_file(out) => Ok(()),
        _ => Err(Diagnostic::new(
            Place::file(out),
            "--out names a file that exists and is not a results file `measured measure` wrote; refusing to overwrite it",
        )
        .with_hint("pass a new path to --out (the default is NAME.results.json in the current folder), or delete the file first if you mean to replace it")),
    }
}

/// Whether the regular file `path` starts as a results file does.
fn is_results_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(256).read_to_end(&mut head))
        .is_ok_and(|_| super::results_file::starts_like_one(&head))
}

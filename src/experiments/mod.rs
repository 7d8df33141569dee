//! The experiment stage, between loading and rendering: find the experiments the pages use,
//! reuse stored results while nothing they depend on changed, else build them with one
//! `cargo build --release` and run them one at a time under a timeout, recording provenance.

pub mod machine;
pub mod runner;
pub mod store;
pub mod workspace;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};

pub use workspace::CrateInfo;

/// Which stored results to ignore.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Rerun {
    #[default]
    None,
    All,
    Only(BTreeSet<String>),
}

/// How the experiment stage runs.
#[derive(Debug, Clone, Default)]
pub struct ExperimentOptions {
    pub rerun: Rerun,
    /// Never run anything: use the committed results whatever machine made them.
    pub frozen: bool,
    /// Ask experiments for fewer samples (`MEASURED_QUICK=1`): tests and CI, never publishing.
    pub quick: bool,
}

/// Where and how a result was measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub experiment: String,
    /// Hash of the crate folder, its path dependencies and the workspace manifest.
    pub source_hash: String,
    /// Hash of `experiments/Cargo.lock`.
    pub lock_hash: String,
    pub rustc: String,
    pub cpu: String,
    pub cores: usize,
    pub kernel: String,
    /// When the run started, RFC 3339 UTC.
    pub measured_at: String,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
    pub duration_secs: f64,
    pub quick: bool,
    /// The command that reproduces the run.
    pub command: String,
}

/// An experiment's results as stored between builds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub experiment: String,
    /// Everything the results depend on, hashed: reuse the record while it matches.
    pub key: String,
    pub results: serde_json::Value,
    /// What the experiment printed on stdout.
    pub output: String,
    pub provenance: Provenance,
}

/// Where a measurement used by this build came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// Run in this build.
    Fresh,
    /// Reused from the cache.
    Cached,
    /// Taken from the committed `frozen/` folder.
    Frozen,
}

/// A measurement used by the build.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub record: Record,
    pub origin: Origin,
}

/// What the experiment stage hands to rendering.
#[derive(Debug, Clone, Default)]
pub struct Measurements {
    /// Measurements of the experiments the pages use.
    pub by_name: BTreeMap<String, Measurement>,
    /// Every experiment crate of the workspace (for suggestions, source pages and excerpts).
    pub crates: BTreeMap<String, CrateInfo>,
    /// Library crates of the workspace (quoted by excerpts, published as source pages).
    pub libraries: BTreeMap<String, CrateInfo>,
    /// Experiments built and run by this build, in order.
    pub ran: Vec<String>,
}

/// Reports progress to whoever prints (only `main` prints).
pub trait Progress: Sync {
    fn compile_started(&self, _names: &[String]) {}
    /// A line of cargo's output while compiling.
    fn compile_line(&self, _line: &str) {}
    fn compile_finished(&self, _ok: bool, _elapsed: Duration) {}
    fn run_started(&self, _name: &str, _index: usize, _total: usize) {}
    fn run_finished(&self, _name: &str, _ok: bool, _elapsed: Duration) {}
}

/// Progress that goes nowhere.
pub struct Silent;
impl Progress for Silent {}

/// The experiment stage: `wanted` experiment names → measurements, running only what is stale.
pub fn measure(
    config: &SiteConfig,
    wanted: &BTreeSet<String>,
    opts: &ExperimentOptions,
    progress: &dyn Progress,
) -> Result<Measurements, Diagnostics> {
    let machine = machine::Machine::read(&config.experiments.dir);
    measure_on(config, wanted, opts, progress, &machine)
}

/// [`measure`] on a machine already described (a session reads it once).
pub fn measure_on(
    config: &SiteConfig,
    wanted: &BTreeSet<String>,
    opts: &ExperimentOptions,
    progress: &dyn Progress,
    machine: &machine::Machine,
) -> Result<Measurements, Diagnostics> {
    let dir = &config.experiments.dir;
    if wanted.is_empty() && !dir.join("Cargo.toml").exists() {
        return Ok(Measurements::default());
    }
    let crates = workspace::discover(dir)?;
    let libraries = workspace::libraries(dir);
    let mut measurements = Measurements {
        crates,
        libraries,
        ..Default::default()
    };
    if wanted.is_empty() {
        return Ok(measurements);
    }
    // Names that are not experiments are reported where they are written, by the inject stage.
    let wanted: BTreeSet<String> = wanted
        .iter()
        .filter(|n| measurements.crates.contains_key(*n))
        .cloned()
        .collect();
    let wanted = &wanted;
    let store = store::Store::new(config);
    if opts.frozen {
        return frozen(&store, wanted, measurements);
    }
    let lock_hash = workspace::lock_hash(dir);
    let mut stale: Vec<String> = Vec::new();
    let mut keys = BTreeMap::new();
    for name in wanted {
        let info = &measurements.crates[name];
        let key = workspace::result_key(info, &lock_hash, machine, opts.quick);
        let forced = match &opts.rerun {
            Rerun::All => true,
            Rerun::Only(names) => names.contains(name),
            Rerun::None => false,
        };
        let reuse = if forced {
            None
        } else {
            store.reusable(name, &key)
        };
        match reuse {
            Some((record, origin)) => {
                measurements
                    .by_name
                    .insert(name.clone(), Measurement { record, origin });
            }
            None => stale.push(name.clone()),
        }
        keys.insert(name.clone(), key);
    }
    if stale.is_empty() {
        return Ok(measurements);
    }
    let mut diags = Diagnostics::default();
    let built = runner::build(dir, &stale, progress);
    let runnable: Vec<String> = match built {
        Ok(()) => stale.clone(),
        Err(failure) => {
            diags.extend(failure.diagnostics(dir));
            stale
                .iter()
                .filter(|n| !failure.failed.contains(*n))
                .cloned()
                .collect()
        }
    };
    // The build may have created or updated Cargo.lock: key the new results on the lock as built.
    let lock_hash = workspace::lock_hash(dir);
    for name in &runnable {
        let key =
            workspace::result_key(&measurements.crates[name], &lock_hash, machine, opts.quick);
        keys.insert(name.clone(), key);
    }
    let total = runnable.len();
    for (i, name) in runnable.iter().enumerate() {
        let info = &measurements.crates[name];
        progress.run_started(name, i + 1, total);
        let started = std::time::Instant::now();
        let run = runner::run(
            dir,
            info,
            &runner::RunSettings {
                timeout: config.experiments.timeout,
                quick: opts.quick,
                scratch: store.scratch_dir(),
            },
        );
        progress.run_finished(name, run.is_ok(), started.elapsed());
        match run {
            Ok(outcome) => {
                let record = Record {
                    experiment: name.clone(),
                    key: keys[name].clone(),
                    results: outcome.results,
                    output: outcome.stdout,
                    provenance: Provenance {
                        experiment: name.clone(),
                        source_hash: info.source_hash[..16].to_string(),
                        lock_hash: lock_hash[..16].to_string(),
                        rustc: machine.rustc.clone(),
                        cpu: machine.cpu.clone(),
                        cores: machine.cores,
                        kernel: machine.kernel.clone(),
                        measured_at: outcome.started_at,
                        load_before: outcome.load_before,
                        load_after: outcome.load_after,
                        duration_secs: outcome.elapsed.as_secs_f64(),
                        quick: opts.quick,
                        command: reproduce_command(name, opts.quick),
                    },
                };
                if let Err(e) = store.save(&record) {
                    diags.push(Diagnostic::new(
                        Place::file(store.record_path(name)),
                        format!("cannot store the results: {e}"),
                    ));
                }
                measurements.ran.push(name.clone());
                measurements.by_name.insert(
                    name.clone(),
                    Measurement {
                        record,
                        origin: Origin::Fresh,
                    },
                );
            }
            Err(failure) => diags.push(failure.diagnostic(name, &info.dir)),
        }
    }
    diags.into_result(measurements)
}

fn frozen(
    store: &store::Store,
    wanted: &BTreeSet<String>,
    mut m: Measurements,
) -> Result<Measurements, Diagnostics> {
    let mut diags = Diagnostics::default();
    for name in wanted {
        match store.frozen(name) {
            Ok(record) => {
                m.by_name.insert(
                    name.clone(),
                    Measurement {
                        record,
                        origin: Origin::Frozen,
                    },
                );
            }
            Err(d) => diags.push(d),
        }
    }
    diags.into_result(m)
}

/// The shell command that reproduces an experiment's run from the repository root.
pub fn reproduce_command(name: &str, quick: bool) -> String {
    let env = if quick { "MEASURED_QUICK=1 " } else { "" };
    format!(
        "cd experiments && cargo build --release -p {name} && cd {name} && {env}MEASURED_RESULTS=results.json ../target/release/{name}"
    )
}

/// Copies the results the current content uses into the committed `frozen/` folder.
pub fn freeze(config: &SiteConfig, names: &BTreeSet<String>) -> Result<Vec<PathBuf>, Diagnostics> {
    let store = store::Store::new(config);
    let mut diags = Diagnostics::default();
    let mut written = Vec::new();
    for name in names {
        match store.freeze(name) {
            Ok(p) => written.push(p),
            Err(d) => diags.push(d),
        }
    }
    diags.into_result(written)
}

//! The experiment stage, between loading and rendering: find the experiments the pages use,
//! reuse stored results while nothing they depend on changed, else build them with one
//! `cargo build --release` and run them one at a time under a timeout, recording provenance.

pub mod combine;
pub mod derived;
pub mod history;
pub mod machine;
pub mod machines;
pub mod measure_file;
pub mod process;
pub mod remote;
pub mod results_file;
pub mod runner;
pub mod runs;
pub mod store;
pub mod workspace;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use measured_content::config::SiteConfig;
use measured_core::diag::Diagnostics;

pub use workspace::CrateInfo;

/// The names no experiment may take (`{{ machine.cores }}`, `{{ claim.id }}`).
pub use measured_core::reference::{CLAIM, MACHINE};

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
    /// Make drift (values that moved beyond their intervals since the previous results on
    /// this machine) an error instead of a warning.
    pub strict: bool,
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
    /// Total memory in bytes (`MemTotal` of `/proc/meminfo`); absent in results stored before
    /// it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<u64>,
    /// When the run started, RFC 3339 UTC.
    pub measured_at: String,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
    pub duration_secs: f64,
    pub quick: bool,
    /// The command that reproduces the run.
    pub command: String,
    /// The machine's online CPUs; absent in results recorded before it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online_cores: Option<usize>,
    /// The CPUs the run could use (its affinity, as the kernel lists them: `0-1`); absent in
    /// results recorded before it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<String>,
}

/// One process run of an experiment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub results: serde_json::Value,
    /// What the run printed on stdout.
    pub output: String,
    pub provenance: Provenance,
}

/// An experiment's results as stored between builds: its runs, and their combination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub experiment: String,
    /// Everything the results depend on, hashed: reuse the record while it matches.
    pub key: String,
    /// The runs combined ([`derived::combined`]), in the shapes the experiment wrote.
    pub results: serde_json::Value,
    /// What the latest run printed on stdout.
    pub output: String,
    /// The runs' provenance in one: the latest run's, with the first run's load before it and
    /// the time of every run.
    pub provenance: Provenance,
    /// Every run, oldest first (a record of an older version holds none: its results are its
    /// one run).
    #[serde(default)]
    pub runs: Vec<Run>,
}

impl Record {
    /// The record of `runs` (at least one).
    pub fn of_runs(experiment: &str, key: &str, runs: Vec<Run>) -> Record {
        let results: Vec<&serde_json::Value> = runs.iter().map(|r| &r.results).collect();
        let results = derived::combined(&results);
        let last = runs.last().expect("a record has a run");
        let provenance = Provenance {
            load_before: runs[0].provenance.load_before,
            duration_secs: runs.iter().map(|r| r.provenance.duration_secs).sum(),
            ..last.provenance.clone()
        };
        Record {
            experiment: experiment.to_string(),
            key: key.to_string(),
            results,
            output: last.output.clone(),
            provenance,
            runs,
        }
    }

    /// The record with `run` added.
    pub fn with_run(mut self, run: Run) -> Record {
        let mut runs = std::mem::take(&mut self.runs);
        runs.push(run);
        Record::of_runs(&self.experiment, &self.key, runs)
    }

    /// A record as read from disk: one of an older version gets its results as its one run;
    /// the runs are combined again, as this version combines them (a record stored by an
    /// older one may hold another combination).
    pub fn normalized(mut self) -> Record {
        if self.runs.is_empty() {
            self.runs.push(Run {
                results: self.results.clone(),
                output: self.output.clone(),
                provenance: self.provenance.clone(),
            });
        }
        let runs = std::mem::take(&mut self.runs);
        Record::of_runs(&self.experiment, &self.key, runs)
    }
}

/// How a record's runs were measured, as their provenance recorded it: under load (a load
/// average above the cores the runs could use) and with fewer cores than the machine has.
#[derive(Debug, Clone, PartialEq)]
pub struct Conditions {
    pub runs: usize,
    /// Runs whose load average before or after was above `usable`.
    pub busy_runs: usize,
    /// The highest 1-minute load average recorded before or after a run.
    pub max_load: f64,
    /// The cores the runs could use.
    pub usable: usize,
    /// The machine's online cores, when recorded.
    pub online: Option<usize>,
    /// The runs' CPU affinity, when recorded (`0`, `0-1`).
    pub affinity: Option<String>,
}

impl Conditions {
    pub fn of(record: &Record) -> Conditions {
        let p = &record.provenance;
        let usable = p
            .affinity
            .as_deref()
            .map(machine::cpu_count)
            .filter(|&n| n > 0)
            .unwrap_or(p.cores)
            .max(1);
        let load = |r: &Run| r.provenance.load_before[0].max(r.provenance.load_after[0]);
        Conditions {
            runs: record.runs.len(),
            busy_runs: record
                .runs
                .iter()
                .filter(|r| load(r) > usable as f64)
                .count(),
            max_load: record.runs.iter().map(load).fold(0.0, f64::max),
            usable,
            online: p.online_cores,
            affinity: p.affinity.clone(),
        }
    }

    /// Some runs were measured while the machine was busier than its usable cores.
    pub fn loaded(&self) -> bool {
        self.busy_runs > 0
    }

    /// The runs could use fewer cores than the machine has.
    pub fn pinned(&self) -> bool {
        self.online.is_some_and(|o| self.usable < o)
    }
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
    /// Taken from `machines/<primary>/`: results of the machine `site.toml` names as primary.
    Imported,
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
    /// Process runs of experiments made by this build.
    pub process_runs: usize,
    /// Other machines' current results of the experiments the pages use, by machine then
    /// experiment (`machines/`; the primary, when imported, is in `by_name` instead).
    pub elsewhere: BTreeMap<String, BTreeMap<String, Record>>,
    /// The imported machine `by_name` comes from (`[machines] primary`); `None`: this one.
    pub primary: Option<String>,
    /// What the build reports without failing: stale results files of other machines.
    pub warnings: Vec<measured_core::diag::Diagnostic>,
}

/// Reports progress to whoever prints (only `main` prints).
pub trait Progress: Sync {
    fn compile_started(&self, _names: &[String]) {}
    /// A line of cargo's output while compiling.
    fn compile_line(&self, _line: &str) {}
    fn compile_finished(&self, _ok: bool, _elapsed: Duration) {}
    fn run_started(&self, _name: &str, _index: usize, _total: usize) {}
    fn run_finished(&self, _name: &str, _ok: bool, _elapsed: Duration) {}
    /// Claims (`article: id`) are inconclusive: each of `names` runs once more (round
    /// `round` of such runs).
    fn remeasure_started(&self, _names: &[String], _claims: &[String], _round: usize) {}
    /// Runs of earlier builds leave claims (`article: id`) undecided: `names` are measured
    /// again from scratch.
    fn restart_started(&self, _names: &[String], _claims: &[String]) {}
    /// The extra runs for inconclusive claims are over: how many ran, in how long.
    fn remeasure_finished(&self, _runs: usize, _elapsed: Duration) {}
    /// `run --on`: a step on host `host` began (connecting, copying…).
    fn remote_step(&self, _host: &str, _step: &str) {}
}

/// Progress that goes nowhere.
pub struct Silent;
impl Progress for Silent {}

/// Measures named experiments once more: what the claims stage asks for to decide a claim
/// the runs so far leave inconclusive.
pub trait Remeasure {
    /// One more process run of experiment `name`, added to its measurement in `m`;
    /// `position` is (this run, the runs of this round) for progress.
    fn run_again(
        &mut self,
        m: &mut Measurements,
        name: &str,
        position: (usize, usize),
    ) -> Result<(), Diagnostics>;

    /// Experiments `names` measured again from scratch (their earlier runs dropped), with the
    /// runs a build makes of a new experiment; returns the process runs made.
    fn restart(&mut self, m: &mut Measurements, names: &[String]) -> Result<usize, Diagnostics>;
}

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
    // No workspace: names the pages use are no experiments, and the inject stage reports each
    // where it is written (a `{{` in prose must not blame a file the site never had).
    if !dir.join("Cargo.toml").exists() && !dir.exists() {
        check_rerun(dir, &BTreeMap::new(), wanted, &opts.rerun)?;
        return Ok(Measurements::default());
    }
    let crates = workspace::discover(dir)?;
    check_rerun(dir, &crates, wanted, &opts.rerun)?;
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
    let mut loaded = machines::load(config, &measurements.crates, &wanted)?;
    measurements.warnings = std::mem::take(&mut loaded.warnings);
    if let Some(primary) = &config.machines.primary {
        let mine = loaded.machines.remove(primary).unwrap_or_default();
        measurements.elsewhere = loaded.machines;
        return imported_primary(config, primary, mine, &wanted, measurements);
    }
    measurements.elsewhere = loaded.machines;
    let mut runner = runs::Runner::new(config, opts, progress, machine);
    if opts.frozen {
        return frozen(&runner.store, &wanted, measurements);
    }
    let runs = config.experiments.runs_for(opts.quick);
    let mut plan = Vec::new();
    for name in &wanted {
        let forced = match &opts.rerun {
            Rerun::All => true,
            Rerun::Only(names) => names.contains(name),
            Rerun::None => false,
        };
        let key = runner.key(&measurements, name);
        let reuse = (!forced)
            .then(|| runner.store.reusable(name, &key))
            .flatten();
        let have = reuse.as_ref().map_or(0, |(r, _)| r.runs.len());
        if let Some((record, origin)) = reuse {
            measurements
                .by_name
                .insert(name.clone(), Measurement { record, origin });
        }
        if have < runs {
            plan.push((name.clone(), runs - have));
        }
    }
    let diags = runner.run_plan(&mut measurements, &plan);
    diags.into_result(measurements)
}

/// `--rerun NAME` must name an experiment the pages use: anything else would silently run
/// nothing.
fn check_rerun(
    dir: &std::path::Path,
    crates: &BTreeMap<String, CrateInfo>,
    wanted: &BTreeSet<String>,
    rerun: &Rerun,
) -> Result<(), Diagnostics> {
    let Rerun::Only(names) = rerun else {
        return Ok(());
    };
    let mut diags = Diagnostics::default();
    for name in names {
        let place = measured_core::diag::Place::file(dir);
        if !crates.contains_key(name) {
            let hint = if crates.is_empty() {
                "the site has no experiments (experiments/<name>/, docs/authoring.md)".to_string()
            } else {
                measured_core::diag::did_you_mean(
                    name,
                    crates.keys().map(String::as_str),
                    "the experiments are",
                )
            };
            diags.push(
                measured_core::diag::Diagnostic::new(
                    place,
                    format!("--rerun {name}: `{name}` is not an experiment of this site, so nothing would run"),
                )
                .with_hint(hint),
            );
        } else if !wanted.contains(name) {
            diags.push(
                measured_core::diag::Diagnostic::new(
                    place,
                    format!("--rerun {name}: no page uses experiment `{name}`, so it would not run"),
                )
                .with_hint(format!("refer to it from an article ({{{{ {name}.… }}}} or ```experiment {name}```), or measure it alone with `measured measure {name}`")),
            );
        }
    }
    diags.into_result(())
}

/// The measurements of the primary machine `site.toml` names: its imported results, every
/// experiment the pages use.
fn imported_primary(
    config: &SiteConfig,
    primary: &str,
    mut mine: BTreeMap<String, Record>,
    wanted: &BTreeSet<String>,
    mut m: Measurements,
) -> Result<Measurements, Diagnostics> {
    let mut diags = Diagnostics::default();
    for name in wanted {
        match mine.remove(name) {
            Some(record) => {
                m.by_name.insert(
                    name.clone(),
                    Measurement {
                        record,
                        origin: Origin::Imported,
                    },
                );
            }
            None => {
                let path = config
                    .machines
                    .dir
                    .join(primary)
                    .join(format!("{name}.json"));
                diags.push(
                    measured_core::diag::Diagnostic::new(
                        measured_core::diag::Place::file(&path),
                        format!("[machines] primary = \"{primary}\", and that machine has no current results of `{name}`"),
                    )
                    .with_hint(format!("measure it there (`measured measure {name} --out FILE`) and import the file with `measured results import FILE --as {primary}`, or remove `primary` from site.toml to publish this machine's results")),
                );
            }
        }
    }
    m.primary = Some(primary.to_string());
    diags.into_result(m)
}

fn frozen(
    store: &store::Store,
    wanted: &BTreeSet<String>,
    mut m: Measurements,
) -> Result<Measurements, Diagnostics> {
    let records = Diagnostics::gather(wanted.iter().map(|n| store.frozen(n).map(|r| (n, r))))?;
    for (name, record) in records {
        let origin = Origin::Frozen;
        m.by_name
            .insert(name.clone(), Measurement { record, origin });
    }
    Ok(m)
}

/// What changed since each frozen measurement of `m` was made (its source, its locked
/// dependencies, the toolchain), by experiment: a frozen result must be the one the
/// experiment's current code would measure, or it is not shown.
pub fn frozen_changes(
    m: &Measurements,
    config: &SiteConfig,
    machine: &machine::Machine,
) -> BTreeMap<String, Vec<&'static str>> {
    let lock = workspace::Lock::read(&config.experiments.dir);
    let short = |h: &str| h.get(..16).unwrap_or(h).to_string();
    m.by_name
        .iter()
        .filter(|(_, f)| f.origin == Origin::Frozen)
        .filter_map(|(name, f)| {
            let p = &f.record.provenance;
            let info = m.crates.get(name)?;
            let mut changed = Vec::new();
            if p.source_hash != short(&info.source_hash) {
                changed.push("its source (or the harness it uses)");
            }
            if p.lock_hash != short(&lock.hash_of(name)) {
                changed.push("its locked dependencies (Cargo.lock)");
            }
            if p.rustc != machine.rustc {
                changed.push("the toolchain");
            }
            (!changed.is_empty()).then(|| (name.clone(), changed))
        })
        .collect()
}

/// The shell command that reproduces an experiment's run from the repository root.
pub fn reproduce_command(name: &str, quick: bool) -> String {
    let env = if quick { "MEASURED_QUICK=1 " } else { "" };
    format!(
        "cd experiments && cargo build --release -p {name} && cd {name} && {env}MEASURED_RESULTS=results.json ../target/release/{name}"
    )
}

/// The command a reader runs, from a clone of the blog, to measure experiment `name` on their
/// machine into a results file they can send (`measured results import` reads it).
pub fn measure_command(name: &str) -> String {
    format!("cargo run --release -- measure {name} --out {name}.results.json")
}

/// Copies the current full results of experiments `names` into the committed `frozen/`
/// folder, running nothing: each must have results in the cache measured in full for its
/// current source, lockfile and toolchain on this machine; the others are errors naming the
/// command that measures exactly that experiment. Returns the files written, and the errors.
pub fn freeze(config: &SiteConfig, names: &BTreeSet<String>) -> (Vec<PathBuf>, Diagnostics) {
    let dir = &config.experiments.dir;
    let store = store::Store::new(config);
    let mut diags = Diagnostics::default();
    let crates = match workspace::discover(dir) {
        Ok(c) => c,
        Err(d) => return (Vec::new(), d),
    };
    let machine = machine::Machine::read(dir);
    let lock = workspace::Lock::read(dir);
    let mut written = Vec::new();
    for name in names {
        let Some(info) = crates.get(name) else {
            let hint = measured_core::diag::did_you_mean(
                name,
                crates.keys().map(String::as_str),
                "the experiments are",
            );
            diags.push(
                measured_core::diag::Diagnostic::new(
                    measured_core::diag::Place::file(dir),
                    format!("`{name}` is not an experiment of this site"),
                )
                .with_hint(hint),
            );
            continue;
        };
        let key = workspace::result_key(info, &lock.hash_of(name), &machine, false);
        let quick_only = !store.record_path(name).is_file()
            && store::Store::of_mode(config, true)
                .record_path(name)
                .is_file();
        if quick_only {
            diags.push(
                measured_core::diag::Diagnostic::new(
                    measured_core::diag::Place::file(store.record_path(name)),
                    format!("`{name}` was measured in quick mode only, which is never published"),
                )
                .with_hint(format!("measure it in full first: `measured build --rerun {name}` (without --quick or MEASURED_QUICK), then `measured freeze {name}`")),
            );
            continue;
        }
        match store.freeze(name, &key) {
            Ok(p) => written.push(p),
            Err(d) => diags.push(d),
        }
    }
    (written, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(load: f64, affinity: Option<&str>) -> Run {
        let mut provenance: Provenance = serde_json::from_value(serde_json::json!({
            "experiment": "x", "source_hash": "", "lock_hash": "", "rustc": "", "cpu": "c",
            "cores": 2, "kernel": "", "measured_at": "", "load_before": [load, 0.0, 0.0],
            "load_after": [0.5, 0.0, 0.0], "duration_secs": 1.0, "quick": false, "command": ""
        }))
        .unwrap();
        provenance.online_cores = Some(4);
        provenance.affinity = affinity.map(str::to_string);
        Run {
            results: serde_json::json!({}),
            output: String::new(),
            provenance,
        }
    }

    #[test]
    fn runs_under_load_and_pinned_runs_are_told_apart_from_quiet_ones() {
        // Pinned to CPU 0: one usable core, and the load of 11.7 of the recorded varint runs.
        let pinned = Record::of_runs("x", "k", vec![run(11.7, Some("0")), run(0.4, Some("0"))]);
        let c = Conditions::of(&pinned);
        assert_eq!((c.usable, c.busy_runs, c.runs), (1, 1, 2));
        assert_eq!(c.max_load, 11.7);
        assert!(c.loaded() && c.pinned());
        // Every core usable and a load below them: nothing to say.
        let quiet = Record::of_runs("x", "k", vec![run(1.5, Some("0-3")), run(0.2, Some("0-3"))]);
        let c = Conditions::of(&quiet);
        assert_eq!(c.usable, 4);
        assert!(!c.loaded() && !c.pinned());
        // No affinity recorded (an older result): the cores it says it could use.
        let old = Record::of_runs("x", "k", vec![run(3.0, None)]);
        assert_eq!(Conditions::of(&old).usable, 2);
        assert!(Conditions::of(&old).loaded());
    }
}

//! Process runs recorded into stored records: the runs a build plans (new records, and records
//! with fewer runs than `[experiments] runs`), made round by round so that a burst of load on
//! the machine touches one run of each experiment rather than every run of one; and one more
//! run of an experiment when the claims stage asks for it ([`Remeasure`]).

use std::collections::BTreeSet;
use std::time::Instant;

use super::machine::Machine;
use super::store::Store;
use super::{
    ExperimentOptions, Measurement, Measurements, Origin, Progress, Provenance, Record, Remeasure,
    Run, reproduce_command, runner, workspace,
};
use measured_content::config::SiteConfig;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// Compiles and runs experiments for one build, recording each run.
pub struct Runner<'a> {
    config: &'a SiteConfig,
    opts: &'a ExperimentOptions,
    progress: &'a dyn Progress,
    machine: &'a Machine,
    pub store: Store,
    /// `Cargo.lock` as last built: each experiment's results are keyed on the packages of
    /// its own dependency graph.
    lock: workspace::Lock,
    /// Experiments this build compiled.
    compiled: BTreeSet<String>,
}

impl<'a> Runner<'a> {
    pub fn new(
        config: &'a SiteConfig,
        opts: &'a ExperimentOptions,
        progress: &'a dyn Progress,
        machine: &'a Machine,
    ) -> Runner<'a> {
        Runner {
            config,
            opts,
            progress,
            machine,
            store: Store::of_mode(config, opts.quick),
            lock: workspace::Lock::read(&config.experiments.dir),
            compiled: BTreeSet::new(),
        }
    }

    /// The key the results of `name` have now.
    pub fn key(&self, m: &Measurements, name: &str) -> String {
        workspace::result_key(
            &m.crates[name],
            &self.lock.hash_of(name),
            self.machine,
            self.opts.quick,
        )
    }

    /// Compiles those of `names` this build has not compiled yet, with one cargo invocation.
    /// Returns the diagnostics of those that do not compile.
    fn compile(&mut self, names: &[String]) -> Diagnostics {
        let todo: Vec<String> = names
            .iter()
            .filter(|n| !self.compiled.contains(*n))
            .cloned()
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        if todo.is_empty() {
            return Diagnostics::default();
        }
        let dir = &self.config.experiments.dir;
        let mut diags = Diagnostics::default();
        let failed = match runner::build(dir, &todo, self.progress) {
            Ok(()) => Vec::new(),
            Err(failure) => {
                diags.extend(failure.diagnostics(dir));
                failure.failed
            }
        };
        self.compiled
            .extend(todo.into_iter().filter(|n| !failed.contains(n)));
        // The build may have created or updated Cargo.lock: key new results on the lock as built.
        self.lock = workspace::Lock::read(dir);
        diags
    }

    /// Runs each experiment of `plan` (name, runs wanted) that many times, one run of each per
    /// round. A record whose key changed with the build starts over with `[experiments] runs`.
    pub fn run_plan(&mut self, m: &mut Measurements, plan: &[(String, usize)]) -> Diagnostics {
        if plan.is_empty() {
            return Diagnostics::default();
        }
        // The experiments to run and those reused, in one cargo invocation: compiling a subset
        // unifies the dependencies' features differently and rebuilds them, back and forth.
        let names: Vec<String> = plan
            .iter()
            .map(|(n, _)| n.clone())
            .chain(m.by_name.keys().cloned())
            .collect();
        let mut diags = self.compile(&names);
        let full = self.config.experiments.runs_for(self.opts.quick);
        let plan: Vec<(String, usize)> = plan
            .iter()
            .filter(|(name, _)| self.compiled.contains(name))
            .map(|(name, count)| {
                let key = self.key(m, name);
                match m.by_name.get(name) {
                    Some(found) if found.record.key != key => {
                        m.by_name.remove(name);
                        (name.clone(), full)
                    }
                    _ => (name.clone(), *count),
                }
            })
            .collect();
        let total: usize = plan.iter().map(|(_, c)| c).sum();
        let rounds = plan.iter().map(|(_, c)| *c).max().unwrap_or(0);
        let mut failed = BTreeSet::new();
        let mut index = 0;
        for round in 0..rounds {
            for (name, _) in plan.iter().filter(|(_, c)| *c > round) {
                if failed.contains(name) {
                    continue;
                }
                index += 1;
                if let Err(d) = self.once(m, name, (index, total)) {
                    diags.push(d);
                    failed.insert(name.clone());
                }
            }
        }
        diags
    }

    /// One process run of `name`, added to its record (a new record when the key changed) and
    /// stored. A failed run changes nothing.
    fn once(
        &self,
        m: &mut Measurements,
        name: &str,
        (index, total): (usize, usize),
    ) -> Result<(), Diagnostic> {
        let dir = &self.config.experiments.dir;
        let info = &m.crates[name];
        self.progress.run_started(name, index, total);
        let started = Instant::now();
        let outcome = runner::run(
            dir,
            info,
            &runner::RunSettings {
                timeout: self.config.experiments.timeout,
                quick: self.opts.quick,
                scratch: self.store.scratch_dir(),
            },
        );
        self.progress
            .run_finished(name, outcome.is_ok(), started.elapsed());
        let outcome = outcome.map_err(|f| f.diagnostic(name, &info.dir))?;
        let run = run_of(
            outcome,
            info,
            &self.lock.hash_of(name),
            self.machine,
            self.opts.quick,
            reproduce_command(name, self.opts.quick),
        );
        let key = self.key(m, name);
        let kept = self.store.history().append(&key, &run);
        let record = match m.by_name.remove(name) {
            Some(found) if found.record.key == key => found.record.with_run(run),
            _ => Record::of_runs(name, &key, vec![run]),
        };
        let saved = self.store.save(&record);
        if !m.ran.iter().any(|n| n == name) {
            m.ran.push(name.to_string());
        }
        m.process_runs += 1;
        m.by_name.insert(
            name.to_string(),
            Measurement {
                record,
                origin: Origin::Fresh,
            },
        );
        saved.map_err(|e| {
            Diagnostic::new(
                Place::file(self.store.record_path(name)),
                format!("cannot store the results: {e}"),
            )
        })?;
        kept.map_err(|e| {
            Diagnostic::new(
                Place::file(self.store.history().path(name)),
                format!("cannot keep the run in the history: {e}"),
            )
            .with_hint("check that .measured/ is writable")
        })
    }
}

impl Remeasure for Runner<'_> {
    fn run_again(
        &mut self,
        m: &mut Measurements,
        name: &str,
        position: (usize, usize),
    ) -> Result<(), Diagnostics> {
        if !self.compiled.contains(name) {
            // Every experiment the pages use, in one cargo invocation: the set a build compiles,
            // so cargo unifies the dependencies' features as it did then and rebuilds nothing.
            // (Compiling one experiment alone changed them: minutes of rebuilding per experiment.)
            let all: Vec<String> = m.by_name.keys().cloned().collect();
            self.compile(&all).into_result(())?;
        }
        self.once(m, name, position).map_err(Diagnostics::one)
    }

    fn restart(&mut self, m: &mut Measurements, names: &[String]) -> Result<usize, Diagnostics> {
        let full = self.config.experiments.runs_for(self.opts.quick);
        let plan: Vec<(String, usize)> = names.iter().map(|n| (n.clone(), full)).collect();
        // A record whose key no longer matches starts over (`run_plan`): its earlier runs
        // are dropped and the experiment gets a new experiment's runs.
        for name in names {
            if let Some(found) = m.by_name.get_mut(name) {
                found.record.key.clear();
            }
        }
        self.run_plan(m, &plan).into_result(names.len() * full)
    }
}

/// The run of `outcome` of experiment `info`, with its provenance: this machine, the lockfile
/// as built, and `command`, the one that reproduces it.
pub(super) fn run_of(
    outcome: runner::Outcome,
    info: &workspace::CrateInfo,
    lock_hash: &str,
    machine: &Machine,
    quick: bool,
    command: String,
) -> Run {
    Run {
        results: outcome.results,
        output: outcome.stdout,
        provenance: Provenance {
            experiment: info.name.clone(),
            source_hash: info.source_hash[..16].to_string(),
            lock_hash: lock_hash[..16].to_string(),
            rustc: machine.rustc.clone(),
            cpu: machine.cpu.clone(),
            cores: machine.cores,
            kernel: machine.kernel.clone(),
            memory: machine.memory,
            measured_at: outcome.started_at,
            load_before: outcome.load_before,
            load_after: outcome.load_after,
            duration_secs: outcome.elapsed.as_secs_f64(),
            quick,
            command,
            online_cores: Some(machine.online),
            affinity: (!machine.affinity.is_empty()).then(|| machine.affinity.clone()),
        },
    }
}

//! Stored results: the git-ignored cache (`.measured/results/`) that builds reuse while a
//! result's key matches, and the committed `frozen/` folder that `--frozen` builds and fresh
//! clones use. A failed run never overwrites a stored result: only successes are saved.

use std::path::PathBuf;

use super::history::History;
use super::{Origin, Record};
use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Place};

/// The two folders of stored results.
#[derive(Debug, Clone)]
pub struct Store {
    cache: PathBuf,
    frozen: PathBuf,
    scratch: PathBuf,
    history: History,
}

impl Store {
    pub fn new(config: &SiteConfig) -> Store {
        let base = config.cache_dir();
        Store {
            cache: base.join("results"),
            frozen: config.experiments.frozen_dir.clone(),
            scratch: base.join("run"),
            history: History::new(base.join("history")),
        }
    }

    /// Every run of every experiment, kept across builds.
    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn record_path(&self, name: &str) -> PathBuf {
        self.cache.join(format!("{name}.json"))
    }

    fn frozen_path(&self, name: &str) -> PathBuf {
        self.frozen.join(format!("{name}.json"))
    }

    /// A folder for results files while experiments run.
    pub fn scratch_dir(&self) -> PathBuf {
        self.scratch.clone()
    }

    /// A stored record whose key matches: the cache first, then the frozen folder.
    pub fn reusable(&self, name: &str, key: &str) -> Option<(Record, Origin)> {
        let read = |p: PathBuf| -> Option<Record> {
            serde_json::from_slice::<Record>(&std::fs::read(p).ok()?)
                .ok()
                .map(Record::normalized)
        };
        if let Some(r) = read(self.record_path(name)).filter(|r| r.key == key) {
            return Some((r, Origin::Cached));
        }
        read(self.frozen_path(name))
            .filter(|r| r.key == key)
            .map(|r| (r, Origin::Frozen))
    }

    pub fn save(&self, record: &Record) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
        crate::atomic::file(&self.record_path(&record.experiment), &bytes)
    }

    /// The committed record of `name`, whatever machine made it.
    pub fn frozen(&self, name: &str) -> Result<Record, Diagnostic> {
        let path = self.frozen_path(name);
        let bytes = std::fs::read(&path).map_err(|_| {
            Diagnostic::new(Place::file(&path), format!("--frozen: experiment `{name}` has no frozen results"))
                .with_hint("run `measured build` then `measured freeze` on a machine that can run it, and commit frozen/")
        })?;
        serde_json::from_slice(&bytes)
            .map(Record::normalized)
            .map_err(|e| {
                Diagnostic::new(Place::file(&path), format!("invalid frozen results: {e}"))
                    .with_hint("run `measured freeze` again")
            })
    }

    /// Copies the cached record of `name` into the frozen folder.
    pub fn freeze(&self, name: &str) -> Result<PathBuf, Diagnostic> {
        let from = self.record_path(name);
        let bytes = std::fs::read(&from)
            .map_err(|e| crate::diag::io_error(&from, "read the cached results", &e))?;
        let record: Record = serde_json::from_slice(&bytes).map_err(|e| {
            Diagnostic::new(Place::file(&from), format!("invalid cached results: {e}"))
        })?;
        if record.provenance.quick {
            return Err(Diagnostic::new(Place::file(&from), format!("the results of `{name}` were measured in quick mode"))
                .with_hint("quick results are for tests, never for publishing: run `measured build --rerun` without MEASURED_QUICK"));
        }
        let to = self.frozen_path(name);
        crate::atomic::file(&to, &bytes).map_err(|e| crate::diag::io_error(&to, "write", &e))?;
        Ok(to)
    }
}

//! Stored results: the git-ignored cache (`.measured/results/`) that builds reuse while a
//! result's key matches, and the committed `frozen/` folder that `--frozen` builds and fresh
//! clones use. A failed run never overwrites a stored result: only successes are saved.

use std::path::PathBuf;

use super::history::History;
use super::{Origin, Record};
use measured_content::config::SiteConfig;
use measured_core::diag::{Diagnostic, Place};

/// The two folders of stored results.
#[derive(Debug, Clone)]
pub struct Store {
    cache: PathBuf,
    frozen: PathBuf,
    scratch: PathBuf,
    history: History,
}

impl Store {
    /// The store of full results (what a site publishes).
    pub fn new(config: &SiteConfig) -> Store {
        Store::of_mode(config, false)
    }

    /// The store of results measured in quick mode (`quick`), or in full: each in a folder
    /// of its own, so that quick results (for tests and CI) never replace full ones.
    pub fn of_mode(config: &SiteConfig, quick: bool) -> Store {
        let base = config.cache_dir();
        Store {
            cache: base.join(if quick { "results-quick" } else { "results" }),
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
        measured_core::atomic::file(&self.record_path(&record.experiment), &bytes)
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

    /// Copies the cached record of `name` into the frozen folder, if it was measured in full
    /// with the key `key` the experiment has now.
    pub fn freeze(&self, name: &str, key: &str) -> Result<PathBuf, Diagnostic> {
        let from = self.record_path(name);
        let measure = format!(
            "measure it first with `measured build --rerun {name}` (without --quick), then run `measured freeze {name}`"
        );
        let Ok(bytes) = std::fs::read(&from) else {
            return Err(Diagnostic::new(
                Place::file(&from),
                format!("`{name}` has no full results on this machine to freeze"),
            )
            .with_hint(measure));
        };
        let record: Record = serde_json::from_slice(&bytes).map_err(|e| {
            Diagnostic::new(Place::file(&from), format!("invalid cached results: {e}"))
                .with_hint(measure.clone())
        })?;
        if record.provenance.quick {
            return Err(Diagnostic::new(
                Place::file(&from),
                format!(
                    "the results of `{name}` were measured in quick mode, which is never published"
                ),
            )
            .with_hint(measure));
        }
        if record.key != key {
            return Err(Diagnostic::new(
                Place::file(&from),
                format!("the cached results of `{name}` are stale: its source, its locked dependencies or the toolchain changed since they were measured"),
            )
            .with_hint(measure));
        }
        let to = self.frozen_path(name);
        measured_core::atomic::file(&to, &bytes)
            .map_err(|e| measured_core::diag::io_error(&to, "write", &e))?;
        Ok(to)
    }
}

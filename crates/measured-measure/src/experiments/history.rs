//! Every run of every experiment, kept outside git in `.measured/history/<name>.jsonl`: one
//! JSON line per run, with the key its record was stored under, its results and its
//! provenance (not its output), so that a later build can say what moved since, and after what
//! change. The cache keeps only the current record; `freeze` commits the runs the site
//! publishes.

use std::io::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Provenance, Run};

/// One stored run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The key of the record the run belonged to: runs of one key are one set of results.
    pub key: String,
    pub results: serde_json::Value,
    pub provenance: Provenance,
}

/// The history folder.
#[derive(Debug, Clone)]
pub struct History {
    dir: PathBuf,
}

impl History {
    pub fn new(dir: PathBuf) -> History {
        History { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.jsonl"))
    }

    /// Appends `run`, stored under `key`, to the history of its experiment.
    pub fn append(&self, key: &str, run: &Run) -> std::io::Result<()> {
        #[derive(Serialize)]
        struct Line<'a> {
            key: &'a str,
            results: &'a serde_json::Value,
            provenance: &'a Provenance,
        }
        let mut line = serde_json::to_vec(&Line {
            key,
            results: &run.results,
            provenance: &run.provenance,
        })
        .map_err(std::io::Error::other)?;
        line.push(b'\n');
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path(&run.provenance.experiment);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        // One write of a whole line: an interrupted build leaves at most a partial last line,
        // which `read` skips.
        file.write_all(&line)
    }

    /// The runs of `name`, oldest first; lines that do not parse (a run cut short) are skipped.
    pub fn read(&self, name: &str) -> Vec<Entry> {
        let Ok(text) = std::fs::read_to_string(self.path(name)) else {
            return Vec::new();
        };
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, value: u32, at: &str) -> Run {
        Run {
            results: serde_json::json!({ "x": value }),
            output: "printed".into(),
            provenance: Provenance {
                experiment: name.into(),
                source_hash: "s".into(),
                lock_hash: "l".into(),
                rustc: "rustc 1.0".into(),
                cpu: "cpu".into(),
                cores: 2,
                kernel: "k".into(),
                memory: None,
                measured_at: at.into(),
                load_before: [0.0; 3],
                load_after: [0.0; 3],
                duration_secs: 1.0,
                quick: false,
                command: "c".into(),
                online_cores: None,
                affinity: None,
            },
        }
    }

    #[test]
    fn runs_are_kept_in_order_under_their_keys_and_a_cut_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let h = History::new(dir.path().join("history"));
        h.append("k1", &run("e", 1, "a")).unwrap();
        h.append("k2", &run("e", 2, "b")).unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(h.path("e"))
            .unwrap();
        f.write_all(b"{\"key\":\"k3\",\"res").unwrap();
        let got = h.read("e");
        assert_eq!(got.len(), 2);
        assert_eq!(
            (got[0].key.as_str(), &got[0].results),
            ("k1", &serde_json::json!({"x": 1}))
        );
        assert_eq!(got[1].provenance.measured_at, "b");
        assert!(h.read("other").is_empty());
        // The output is not kept: the history stays compact.
        let text = std::fs::read_to_string(h.path("e")).unwrap();
        assert!(!text.contains("printed"));
    }
}

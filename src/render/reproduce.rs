//! What an article says of the experiments it uses: its "Reproduce" section (how each was
//! measured, and how to measure it again, and a link to each one's `results.json`), and those
//! files: an experiment's results and provenance, one file per experiment beside its source
//! page (`/experiments/<name>/results.json`), not one per article, which would copy the same
//! results into every article that uses them and write a file more for each.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::config::SiteConfig;
use crate::experiments::Measurements;
use crate::site::Page;

/// One experiment in an article's "Reproduce" section.
#[derive(Debug, Clone, Serialize)]
pub struct Reproduce {
    pub experiment: String,
    pub source_url: String,
    pub command: String,
    /// The command a reader runs to measure it on their machine into a results file.
    pub measure: String,
    pub lock_hash: String,
    pub source_hash: String,
    pub machine: String,
    pub rustc: String,
    pub measured_at: String,
    pub quick: bool,
    /// The experiment's `results.json` ([`results_path`]), as a site path.
    pub results_url: String,
}

/// The "Reproduce" section of `page`, which uses the experiments `names`.
pub fn reproduce_of(
    config: &SiteConfig,
    page: &Page,
    names: &BTreeSet<String>,
    m: &Measurements,
) -> Vec<Reproduce> {
    names
        .iter()
        .map(|name| {
            let p = &m.by_name[name].record.provenance;
            Reproduce {
                experiment: name.clone(),
                source_url: format!("{}experiments/{name}/", config.lang_prefix(&page.doc.lang)),
                command: p.command.clone(),
                measure: crate::experiments::measure_command(name),
                lock_hash: p.lock_hash.clone(),
                source_hash: p.source_hash.clone(),
                machine: format!("{}, {} × CPU, Linux {}", p.cpu, p.cores, p.kernel),
                rustc: p.rustc.clone(),
                measured_at: p.measured_at.clone(),
                quick: p.quick,
                results_url: format!("/{}", results_path(name)),
            }
        })
        .collect()
}

/// The output file of experiment `name`'s `results.json`.
pub fn results_path(name: &str) -> String {
    format!("experiments/{name}/results.json")
}

/// The `results.json` of experiment `name`: its results, provenance and output.
pub fn results_json(name: &str, m: &Measurements) -> Vec<u8> {
    let r = &m.by_name[name].record;
    let doc = serde_json::json!({
        "experiment": name,
        "provenance": r.provenance,
        "results": r.results,
        "output": r.output,
    });
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}

//! What an article says of the experiments it uses: its "Reproduce" section (how each was
//! measured, and how to measure it again) and its `results.json` (their results and provenance).

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
                source_url: format!(
                    "{}{}/{name}/",
                    config.lang_prefix(&page.doc.lang),
                    crate::site::reserved::EXPERIMENTS
                ),
                command: p.command.clone(),
                measure: crate::experiments::measure_command(name),
                lock_hash: p.lock_hash.clone(),
                source_hash: p.source_hash.clone(),
                machine: format!("{}, {} × CPU, Linux {}", p.cpu, p.cores, p.kernel),
                rustc: p.rustc.clone(),
                measured_at: p.measured_at.clone(),
                quick: p.quick,
            }
        })
        .collect()
}

/// `results.json` of `page`: the results and provenance of every experiment it uses.
pub fn results_json(page: &Page, names: &BTreeSet<String>, m: &Measurements) -> Vec<u8> {
    let experiments: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| {
            let r = &m.by_name[n].record;
            // The output as the page shows it: without terminal escapes.
            let output = crate::html::terminal_text(&r.output);
            (n.clone(), serde_json::json!({ "provenance": r.provenance, "results": r.results, "output": output }))
        })
        .collect();
    let doc = serde_json::json!({ "article": page.url, "title": page.doc.front.title, "experiments": experiments });
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}

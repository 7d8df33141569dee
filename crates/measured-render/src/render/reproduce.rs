//! What an article says of the experiments it uses: its "Reproduce" section (how each was
//! measured, and how to measure it again) and its `results.json` (their results and provenance).

use std::collections::BTreeSet;

use serde::Serialize;

use measured_content::config::SiteConfig;
use measured_content::site::Page;
use measured_measure::experiments::Measurements;

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
                    measured_content::site::reserved::EXPERIMENTS
                ),
                command: p.command.clone(),
                measure: measured_measure::experiments::measure_command(name),
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

/// An article page's `results.json`: every value the page shows, from the same combination
/// of the same runs (each experiment's combined results, every run with its provenance and
/// output, how the runs were measured), the other machines' results of its experiments with
/// their provenance, and each claim with its verdict here and on every other machine.
pub fn results_json(
    page: &Page,
    names: &BTreeSet<String>,
    m: &Measurements,
    claims: &[measured_measure::claims::report::Published],
) -> Vec<u8> {
    let record = |r: &measured_measure::experiments::Record| {
        let c = measured_measure::experiments::Conditions::of(r);
        serde_json::json!({
            "provenance": r.provenance,
            "conditions": {
                "runs": c.runs, "busy_runs": c.busy_runs, "max_load": c.max_load,
                "usable_cores": c.usable, "online_cores": c.online, "affinity": c.affinity,
            },
            "results": r.results,
        })
    };
    let experiments: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| {
            let r = &m.by_name[n].record;
            let mut e = record(r);
            // The output as the page shows it: without terminal escapes.
            e["output"] = measured_core::html::terminal_text(&r.output).into();
            let runs: Vec<serde_json::Value> = r
                .runs
                .iter()
                .map(|run| {
                    serde_json::json!({
                        "provenance": run.provenance,
                        "results": run.results,
                        "output": measured_core::html::terminal_text(&run.output),
                    })
                })
                .collect();
            e["runs"] = runs.into();
            (n.clone(), e)
        })
        .collect();
    let machines: serde_json::Map<String, serde_json::Value> = m
        .elsewhere
        .iter()
        .filter_map(|(id, records)| {
            let mine: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .filter_map(|n| Some((n.clone(), record(records.get(n)?))))
                .collect();
            (!mine.is_empty()).then(|| (id.clone(), mine.into()))
        })
        .collect();
    let doc = serde_json::json!({
        "article": page.url,
        "title": page.doc.front.title,
        "machine": m.primary.clone().unwrap_or_else(|| "this".into()),
        "experiments": experiments,
        "machines": machines,
        "claims": claims,
    });
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}

//! Drift: for each experiment run in this build, its values that moved beyond their intervals
//! since its previous results on the same machine (the runs the history keeps under another
//! key, so after a change of its source, the lockfile or the toolchain), and the claims whose
//! outcome changed with them, naming what changed in between. Warnings of `build` and
//! `check`; errors with `--strict`.

use serde_json::Value;

use super::interval::{Quantity, of_runs};
use super::{Decided, Outcome, decide, experiments_of, explain};
use crate::experiments::history::{Entry, History};
use crate::experiments::{Measurements, Origin, Provenance, Record, Run, combine};
use measured_core::diag::{Diagnostic, Place};

/// At most this many moved values are named in one warning, the largest moves first.
const SHOWN: usize = 3;

/// One value that moved.
struct Moved {
    path: String,
    before: Quantity,
    after: Quantity,
}

/// The drift of every experiment `m` ran in this build, one diagnostic per experiment.
pub fn report(m: &Measurements, history: &History, decided: &Decided) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, found) in &m.by_name {
        if found.origin != Origin::Fresh {
            continue;
        }
        let entries = history.read(name);
        let Some(before) = previous(&entries, &found.record) else {
            continue;
        };
        let moved = moved(&before, &found.record);
        let flipped = flipped(m, name, &before, decided);
        if moved.is_empty() && flipped.is_empty() {
            continue;
        }
        let place = m
            .crates
            .get(name)
            .map_or(Place::file(history.path(name)), |c| {
                Place::file(c.dir.join("Cargo.toml"))
            });
        out.push(diagnostic(
            name,
            place,
            &before,
            &found.record,
            &moved,
            &flipped,
        ));
    }
    out
}

/// The runs of `current`'s experiment on the same machine, in the same mode, stored under the
/// key it had last before the current one; as a record.
fn previous(entries: &[Entry], current: &Record) -> Option<Record> {
    let p = &current.provenance;
    let alike = |e: &&Entry| same_machine(&e.provenance, p) && e.key != current.key;
    let last = entries.iter().rfind(alike)?;
    let runs: Vec<Run> = entries
        .iter()
        .filter(alike)
        .filter(|e| e.key == last.key)
        .map(|e| Run {
            results: e.results.clone(),
            output: String::new(),
            provenance: e.provenance.clone(),
        })
        .collect();
    Some(Record::of_runs(&current.experiment, &last.key, runs))
}

fn same_machine(a: &Provenance, b: &Provenance) -> bool {
    (
        a.cpu.as_str(),
        a.cores,
        a.memory,
        a.kernel.as_str(),
        a.quick,
    ) == (
        b.cpu.as_str(),
        b.cores,
        b.memory,
        b.kernel.as_str(),
        b.quick,
    )
}

/// The values of `after` whose interval does not meet the one they had in `before`, the
/// largest relative moves first.
fn moved(before: &Record, after: &Record) -> Vec<Moved> {
    let b_refs: Vec<&Value> = before.runs.iter().map(|r| &r.results).collect();
    let a_refs: Vec<&Value> = after.runs.iter().map(|r| &r.results).collect();
    let mut paths = Vec::new();
    if let Some(latest) = a_refs.last() {
        leaves(latest, "", &mut paths);
    }
    let mut out: Vec<Moved> = paths
        .into_iter()
        .filter_map(|path| {
            let b = of_runs(&b_refs, &path, &path).ok()?;
            let a = of_runs(&a_refs, &path, &path).ok()?;
            (!b.overlaps(&a)).then_some(Moved {
                path,
                before: b,
                after: a,
            })
        })
        .collect();
    let size = |m: &Moved| (m.after.value / m.before.value).ln().abs();
    out.sort_by(|x, y| size(y).total_cmp(&size(x)));
    out
}

/// The paths of every number, timing summary and ratio in `v` (not the harness's own `_…`).
fn leaves(v: &Value, prefix: &str, out: &mut Vec<String>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Value::Number(_) => out.push(prefix.to_string()),
        Value::Object(_) if matches!(combine::kind(v), Some("timing" | "ratio")) => {
            out.push(prefix.to_string());
        }
        Value::Object(map) => {
            for (k, x) in map.iter().filter(|(k, _)| !k.starts_with('_')) {
                leaves(x, &join(k), out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                leaves(x, &join(&i.to_string()), out);
            }
        }
        _ => {}
    }
}

/// The claims on experiment `name` whose outcome on `before` differs from the current one:
/// (article file, claim id, outcome before, outcome now).
fn flipped(m: &Measurements, name: &str, before: &Record, decided: &Decided) -> Vec<String> {
    let on_it = |text: &str| experiments_of(text).iter().any(|e| e == name);
    let any = decided
        .values()
        .any(|(a, _)| a.claims.iter().any(|c| on_it(&c.entry.text)));
    if !any {
        // No claim rests on it: no copy of the measurements to decide them again on.
        return Vec::new();
    }
    let mut then = m.clone();
    if let Some(found) = then.by_name.get_mut(name) {
        found.record = before.clone();
    }
    let mut out = Vec::new();
    for (article, decisions) in decided.values() {
        for (claim, now) in article.claims.iter().zip(decisions) {
            if !on_it(&claim.entry.text) {
                continue;
            }
            let Ok(was) = decide(&claim.expr, &then) else {
                continue;
            };
            if was.outcome != now.outcome {
                out.push(format!(
                    "claim `{}` ({}) {} before and {} now",
                    claim.entry.id,
                    article.path.display(),
                    word(was.outcome),
                    word(now.outcome)
                ));
            }
        }
    }
    out
}

fn word(o: Outcome) -> &'static str {
    match o {
        Outcome::Holds => "held",
        Outcome::Fails => "failed",
        Outcome::Inconclusive => "was inconclusive",
    }
}

fn diagnostic(
    name: &str,
    place: Place,
    before: &Record,
    after: &Record,
    moved: &[Moved],
    flipped: &[String],
) -> Diagnostic {
    let when = &before.provenance.measured_at;
    let mut message = format!(
        "experiment `{name}`: since its previous results on this machine ({when}, {} run(s))",
        before.runs.len()
    );
    if !moved.is_empty() {
        let shown: Vec<String> = moved
            .iter()
            .take(SHOWN)
            .map(|m| {
                format!(
                    "{} moved from {} to {}",
                    m.path,
                    explain::show(&m.before),
                    explain::show(&m.after)
                )
            })
            .collect();
        let more = moved.len().saturating_sub(SHOWN);
        message.push_str(&format!(
            ", {} value(s) moved beyond their intervals: {}{}",
            moved.len(),
            shown.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if !flipped.is_empty() {
        message.push_str(&format!("; {}", flipped.join("; ")));
    }
    Diagnostic::new(place, message).with_hint(format!(
        "in between: {}. Check that the change explains it; `--strict` makes drift an error",
        changes(&before.provenance, &after.provenance)
    ))
}

/// What differs between two runs' provenance that can move a result.
fn changes(a: &Provenance, b: &Provenance) -> String {
    let mut out = Vec::new();
    if a.rustc != b.rustc {
        out.push(format!("the toolchain ({} → {})", a.rustc, b.rustc));
    }
    if a.lock_hash != b.lock_hash {
        out.push("Cargo.lock".to_string());
    }
    if a.source_hash != b.source_hash {
        out.push("the experiment's source".to_string());
    }
    if out.is_empty() {
        "nothing the provenance records".to_string()
    } else {
        out.join(", ")
    }
}

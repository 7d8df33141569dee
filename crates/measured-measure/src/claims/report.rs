//! The claims report: every claim of the site as the last build decided it (verdict, each
//! side's value and interval, runs, margin), kept in the cache folder by every build so that
//! `measured claims` can list it without measuring anything, and what a build tells its
//! publisher about claims that did not hold or hold with too little room.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::decide::{Decision, Outcome};
use super::explain::summary;
use super::margin::{is_marginal, margin};
use super::parse::Value;
use super::{ArticleClaims, Claim};
use crate::experiments::Measurements;
use measured_core::diag::{Diagnostic, Place};

/// What the last build concluded of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Holds,
    Fails,
    Inconclusive,
    /// The claim is in the content, and no build decided it yet.
    NotMeasured,
}

impl Verdict {
    pub fn of(o: Outcome) -> Verdict {
        match o {
            Outcome::Holds => Verdict::Holds,
            Outcome::Fails => Verdict::Fails,
            Outcome::Inconclusive => Verdict::Inconclusive,
        }
    }

    /// The word of the report and of a mark's `data-verdict`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Fails => "fails",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not-measured",
        }
    }
}

/// One side of a claim: a measured value with its interval, or a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// As written: `varint.batch.ratio`, `1.3`.
    pub expr: String,
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Every run gave the same value (or it is a literal).
    pub exact: bool,
    /// The runs it was decided on (0 for a literal).
    pub runs: usize,
}

/// One claim as the report lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The article's folder under `content/`.
    pub article: String,
    pub id: String,
    pub expr: String,
    pub verdict: Verdict,
    /// Relative distance from the interval's near edge to the bound; `None` for an exact claim
    /// (and for one not measured).
    pub margin: Option<f64>,
    /// Holds with a margin under 5 %.
    pub marginal: bool,
    /// The most runs either side was decided on.
    pub runs: usize,
    pub lhs: Side,
    pub rhs: Side,
    /// The file that declares it and the claim's line there.
    pub file: PathBuf,
    pub line: usize,
    /// The experiments it is decided on.
    pub experiments: Vec<String>,
    /// The machine that measured them: CPU and cores.
    pub machine: Option<String>,
    /// `holds: a = 3× [2.8×, 3.2×] over 3 runs, > 2`, for people.
    pub summary: String,
}

impl Entry {
    /// The claim of `article` decided as `d` on `m`.
    pub fn of(article: &ArticleClaims, claim: &Claim, d: &Decision, m: &Measurements) -> Entry {
        let expr = &claim.expr;
        let side = |text: &str, q: &super::Quantity| Side {
            expr: text.to_string(),
            value: Some(q.value),
            low: Some(q.low),
            high: Some(q.high),
            exact: q.exact.is_some(),
            runs: q.runs,
        };
        let experiments = experiments(claim);
        let machine = experiments.iter().find_map(|n| m.by_name.get(n)).map(|f| {
            let p = &f.record.provenance;
            format!("{}, {} cores", p.cpu, p.cores)
        });
        let margin = margin(expr, d);
        Entry {
            article: article.dir.clone(),
            id: claim.entry.id.clone(),
            expr: claim.entry.text.clone(),
            verdict: Verdict::of(d.outcome),
            margin,
            marginal: d.outcome == Outcome::Holds && is_marginal(margin),
            runs: d.lhs.runs.max(d.rhs.runs),
            lhs: side(&expr.lhs.text, &d.lhs),
            rhs: side(&expr.rhs.text, &d.rhs),
            file: article.path.clone(),
            line: claim.entry.line,
            experiments,
            machine,
            summary: summary(expr, d),
        }
    }

    /// A claim of the content that no build decided.
    pub fn not_measured(article: &ArticleClaims, claim: &Claim) -> Entry {
        let side = |text: &str| Side {
            expr: text.to_string(),
            value: None,
            low: None,
            high: None,
            exact: false,
            runs: 0,
        };
        Entry {
            article: article.dir.clone(),
            id: claim.entry.id.clone(),
            expr: claim.entry.text.clone(),
            verdict: Verdict::NotMeasured,
            margin: None,
            marginal: false,
            runs: 0,
            lhs: side(&claim.expr.lhs.text),
            rhs: side(&claim.expr.rhs.text),
            file: article.path.clone(),
            line: claim.entry.line,
            experiments: experiments(claim),
            machine: None,
            summary: "not measured by the last build".into(),
        }
    }

    fn place(&self) -> Place {
        Place::at(&self.file, self.line, 1)
    }
}

/// The experiments a claim is decided on, each once.
fn experiments(claim: &Claim) -> Vec<String> {
    let mut names: Vec<String> = [&claim.expr.lhs.value, &claim.expr.rhs.value]
        .into_iter()
        .filter_map(|v| match v {
            Value::Path { experiment } => Some(experiment.clone()),
            Value::Number(_) => None,
        })
        .collect();
    names.dedup();
    names
}

/// The report of every decided claim, in the order of the articles and their claims.
pub fn entries(articles: &[(ArticleClaims, Vec<Decision>)], m: &Measurements) -> Vec<Entry> {
    articles
        .iter()
        .flat_map(|(a, decisions)| {
            a.claims
                .iter()
                .zip(decisions)
                .map(move |(c, d)| Entry::of(a, c, d, m))
        })
        .collect()
}

/// The report as it is kept between builds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Saved {
    pub claims: Vec<Entry>,
}

/// Where the last build's report is kept in the cache folder.
pub fn path(cache_dir: &Path) -> PathBuf {
    cache_dir.join("claims.json")
}

/// Keeps the report of a build.
pub fn save(cache_dir: &Path, claims: &[Entry]) -> std::io::Result<()> {
    let saved = Saved {
        claims: claims.to_vec(),
    };
    let bytes = serde_json::to_vec_pretty(&saved).map_err(std::io::Error::other)?;
    measured_core::atomic::file(&path(cache_dir), &bytes)
}

/// The report of the last build, if one was kept and can be read.
pub fn load(cache_dir: &Path) -> Option<Saved> {
    let bytes = std::fs::read(path(cache_dir)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Every claim of the content (`articles`), as the last build (`saved`) decided it: a claim
/// whose article, id and expression the last build did not decide is `not-measured`.
pub fn current(articles: &[ArticleClaims], saved: &Saved) -> Vec<Entry> {
    let known: BTreeMap<(&str, &str, &str), &Entry> = saved
        .claims
        .iter()
        .map(|e| ((e.article.as_str(), e.id.as_str(), e.expr.as_str()), e))
        .collect();
    articles
        .iter()
        .flat_map(|a| {
            let known = &known;
            a.claims.iter().map(move |c| {
                let key = (a.dir.as_str(), c.entry.id.as_str(), c.entry.text.as_str());
                match known.get(&key) {
                    Some(e) => Entry {
                        file: a.path.clone(),
                        line: c.entry.line,
                        ..(*e).clone()
                    },
                    None => Entry::not_measured(a, c),
                }
            })
        })
        .collect()
}

/// A margin as people read it: `3.2 %`.
pub fn percent(m: f64) -> String {
    format!("{:.1} %", m * 100.0)
}

/// The warning of a claim that holds with too little room.
pub fn marginal_warning(e: &Entry) -> Diagnostic {
    let margin = e.margin.map(percent).unwrap_or_default();
    Diagnostic::new(
        e.place(),
        format!(
            "claim `{}` holds with a margin of only {margin} (under 5 %): {}",
            e.id, e.summary
        ),
    )
    .with_hint(format!(
        "on a slower or busier machine it may not hold. Claim what is stable: a bound further from the measured value (and a sentence that says no more than the bound), or an effect the experiment makes larger. `measured claims` lists every claim's margin; `measured build --rerun {}` measures it again",
        e.experiments.join(" --rerun ")
    ))
}

/// What a publisher is told of a claim that does not hold on this machine, when the build
/// publishes it with its verdict.
pub fn unconfirmed_warning(e: &Entry) -> Diagnostic {
    let head = match e.verdict {
        Verdict::Fails => format!(
            "claim `{}` is contradicted by this machine's measurements; the page is published with the claim marked as contradicted",
            e.id
        ),
        _ => format!(
            "claim `{}` could not be confirmed on this machine (its measurements' intervals overlap the bound after {} runs); the page is published with the claim marked as not confirmed",
            e.id, e.runs
        ),
    };
    let mut lines = vec![head, format!("  {}: {}", e.expr, measured_sides(e))];
    if let Some(m) = &e.machine {
        lines.push(format!("  measured on {m}"));
    }
    Diagnostic::new(e.place(), lines.join("\n")).with_hint(what_helps(&e.experiments))
}

/// Each measured side of the entry: `a = 1.29× [1.23×, 1.47×] over 9 runs`.
fn measured_sides(e: &Entry) -> String {
    e.summary
        .split_once(": ")
        .map_or(e.summary.clone(), |(_, rest)| rest.to_string())
}

/// What a publisher can do about claims that did not hold, on the experiments `names`.
pub fn what_helps(names: &[String]) -> String {
    let rerun: Vec<String> = names.iter().map(|n| format!("--rerun {n}")).collect();
    format!(
        "measure again when the machine is less busy: `measured build {}`; see every claim and its margin: `measured claims`; give claims more runs: raise `[claims] extra_runs` or `extra_secs` in site.toml. If it still does not hold, the sentence claims more than this machine measures: tell the article's author",
        rerun.join(" ")
    )
}

/// A claim as a page publishes it (its `results.json`): as this build decided it, and its
/// verdict on each other machine the site has results of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Published {
    #[serde(flatten)]
    pub entry: Entry,
    /// The verdict on each other machine (`machines/<id>/`), by machine id.
    pub machines: BTreeMap<String, Verdict>,
}

/// Every claim of the report with its verdict on each other machine, by article folder.
pub fn published(
    report: &[Entry],
    articles: &[(ArticleClaims, Vec<Decision>)],
    m: &Measurements,
) -> BTreeMap<String, Vec<Published>> {
    let elsewhere: Vec<(&String, Measurements)> = m
        .elsewhere
        .iter()
        .map(|(id, records)| (id, measurements_of(records)))
        .collect();
    let by_id: BTreeMap<(&str, &str), &Entry> = report
        .iter()
        .map(|e| ((e.article.as_str(), e.id.as_str()), e))
        .collect();
    let mut out: BTreeMap<String, Vec<Published>> = BTreeMap::new();
    let claims = articles
        .iter()
        .flat_map(|(a, _)| a.claims.iter().map(move |c| (a, c)));
    for (article, claim) in claims {
        let Some(entry) = by_id.get(&(article.dir.as_str(), claim.entry.id.as_str())) else {
            continue;
        };
        let machines = elsewhere
            .iter()
            .map(|(id, on)| {
                let verdict = super::decide(&claim.expr, on)
                    .map_or(Verdict::NotMeasured, |d| Verdict::of(d.outcome));
                ((*id).clone(), verdict)
            })
            .collect();
        out.entry(article.dir.clone()).or_default().push(Published {
            entry: (*entry).clone(),
            machines,
        });
    }
    out
}

/// One machine's records as measurements, to decide claims on them.
pub fn measurements_of(records: &BTreeMap<String, crate::experiments::Record>) -> Measurements {
    use crate::experiments::{Measurement, Origin};
    Measurements {
        by_name: records
            .iter()
            .map(|(n, r)| {
                let record = r.clone();
                (
                    n.clone(),
                    Measurement {
                        record,
                        origin: Origin::Imported,
                    },
                )
            })
            .collect(),
        ..Measurements::default()
    }
}

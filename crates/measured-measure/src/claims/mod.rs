//! Claims: the comparisons an article's sentences rest on (`handshake-cost:
//! tcp-handshake.kernel.ratio > 2.5`), written once per article and decided on the measurements
//! with their uncertainty. The stage after the experiment stage: it decides every claim,
//! measures the experiments behind inconclusive claims again within a budget, and fails the
//! build on a claim that fails or stays inconclusive, saying why and what to do.

mod decide;
pub mod drift;
mod explain;
mod interval;
pub mod margin;
mod marks;
mod parse;
pub mod report;
mod shown;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use decide::{DecideError, Decision, Outcome, compare, decide};
pub use explain::{show, summary};
pub use interval::{Exact, Quantity, quantity};
pub use margin::{MARGINAL, is_marginal, margin};
pub use marks::{CLAIM, Mark, PageMarks, Parity, check as check_marks, marked_id, parity};
pub use measured_content::frontmatter::claims::{Entry, Form, RawClaims, Written, locate};
pub use parse::{Cmp, Expr, Operand, ParseError, Tolerance, Value, experiments_of, parse};
pub use report::Verdict;

use crate::experiments::{ExperimentOptions, Measurements, Origin, Progress, Remeasure};
use measured_content::config::SiteConfig;
use measured_content::site::Site;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// One claim of an article: as written, and parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The id, the expression's text and where they are written.
    pub entry: Entry,
    pub expr: Expr,
}

/// The claims of one article, which apply to all its languages.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleClaims {
    /// The article's folder under `content/`.
    pub dir: String,
    /// The file that declares them.
    pub path: PathBuf,
    pub claims: Vec<Claim>,
}

/// Every article's claims with their decisions, by the article's folder: what markers show.
pub type Decided = BTreeMap<String, (ArticleClaims, Vec<Decision>)>;

/// The identity of an article's claims as written (ids and expressions), for what shows them.
pub fn written_key(article: &ArticleClaims) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    for c in &article.claims {
        h.update(c.entry.id.as_bytes());
        h.update(b"\0");
        h.update(c.entry.text.as_bytes());
        h.update(b"\0");
    }
    h.finalize()
}

/// How much more measuring inconclusive claims may ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// The runs a measurement has without extra ones (`[experiments] runs` or `quick_runs`).
    pub runs: usize,
    /// Runs of one experiment beyond `runs` (`[claims] extra_runs`).
    pub extra_runs: usize,
    /// Time for extra runs in one build (`[claims] extra_secs`).
    pub extra_time: Duration,
}

impl Budget {
    /// The site's budget; none for a `--frozen` build, which never runs anything.
    pub fn of(config: &SiteConfig, opts: &ExperimentOptions) -> Budget {
        // Neither frozen nor imported results are ever measured again.
        let (extra_runs, extra_time) = if opts.frozen || config.machines.primary.is_some() {
            (0, Duration::ZERO)
        } else {
            (config.claims.extra_runs, config.claims.extra_time)
        };
        Budget {
            runs: config.experiments.runs_for(opts.quick),
            extra_runs,
            extra_time,
        }
    }
}

/// How to measure more: the budget, who runs experiments again, who hears about it.
pub struct More<'a> {
    pub budget: Budget,
    pub runner: &'a mut dyn Remeasure,
    pub progress: &'a dyn Progress,
}

/// Every claim decided, on the measurements as they are after the extra runs.
#[derive(Debug, Clone)]
pub struct Settled {
    pub measurements: Measurements,
    /// Each article's claims, with the decision of each claim in the same order.
    pub articles: Vec<(ArticleClaims, Vec<Decision>)>,
    /// Extra process runs this build made for inconclusive claims, and their time.
    pub extra_runs: usize,
    pub extra_time: Duration,
}

/// [`settle_reporting`] of claims already collected, with a claim that fails or stays
/// inconclusive as the error.
pub fn settle_articles(
    articles: Vec<ArticleClaims>,
    measurements: Measurements,
    more: More<'_>,
) -> Result<Settled, Diagnostics> {
    let (settled, failures) = settle_keeping_failures(articles, measurements, more)?;
    failures.into_result(settled)
}

/// The claims stage: decides every claim of the site, measuring the experiments behind
/// inconclusive claims again (one more run each per round) until none is inconclusive or the
/// budget is spent. A claim that fails or stays inconclusive fails the build, but is returned
/// beside the decisions, not as the error: the build goes on to report the pages' errors with them, and fails after. The
/// error is a claim that cannot be decided at all.
pub fn settle_reporting(
    site: &Site,
    measurements: Measurements,
    more: More<'_>,
) -> Result<(Settled, Diagnostics), Diagnostics> {
    settle_keeping_failures(collect(site)?, measurements, more)
}

fn settle_keeping_failures(
    articles: Vec<ArticleClaims>,
    measurements: Measurements,
    more: More<'_>,
) -> Result<(Settled, Diagnostics), Diagnostics> {
    let mut m = measurements;
    let before: BTreeMap<String, usize> = m
        .by_name
        .iter()
        .map(|(n, f)| (n.clone(), f.record.runs.len()))
        .collect();
    let started = Instant::now();
    let (mut extra_runs, mut round, mut out_of_time) = (0, 0, false);
    // Cached runs that leave a claim undecided are measured again, from scratch, once a
    // build: a later build must not repeat an earlier one's undecided runs forever.
    let mut restarted = false;
    let decided = loop {
        let decided = decide_all(&articles, &m)?;
        if !restarted && more.budget.extra_runs > 0 {
            restarted = true;
            let (stale, claims) = cached_behind_undecided(&articles, &decided, &m);
            if !stale.is_empty() && started.elapsed() < more.budget.extra_time {
                more.progress.restart_started(&stale, &claims);
                extra_runs += more.runner.restart(&mut m, &stale)?;
                continue;
            }
        }
        let (wanted, inconclusive) = to_measure(&articles, &decided, &m, &more.budget);
        out_of_time |= !wanted.is_empty() && started.elapsed() >= more.budget.extra_time;
        if wanted.is_empty() || out_of_time {
            break decided;
        }
        round += 1;
        more.progress
            .remeasure_started(&wanted, &inconclusive, round);
        for (i, name) in wanted.iter().enumerate() {
            if started.elapsed() >= more.budget.extra_time {
                break;
            }
            more.runner.run_again(&mut m, name, (i + 1, wanted.len()))?;
            extra_runs += 1;
        }
    };
    let extra_time = started.elapsed();
    if extra_runs > 0 {
        more.progress.remeasure_finished(extra_runs, extra_time);
    }
    let cx = explain::Context {
        m: &m,
        budget: &more.budget,
        before: &before,
        out_of_time,
    };
    let mut diags = Diagnostics::default();
    for (article, decisions) in articles.iter().zip(&decided) {
        for (claim, d) in article.claims.iter().zip(decisions) {
            if d.outcome != Outcome::Holds {
                diags.push(explain::failure(&article.path, claim, d, &cx));
            }
        }
    }
    let settled = Settled {
        articles: articles.into_iter().zip(decided).collect(),
        measurements: m,
        extra_runs,
        extra_time,
    };
    Ok((settled, diags))
}

/// Decides every claim; claims that cannot be decided at all are errors.
fn decide_all(
    articles: &[ArticleClaims],
    m: &Measurements,
) -> Result<Vec<Vec<Decision>>, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut all = Vec::new();
    for a in articles {
        let mut decisions = Vec::new();
        for c in &a.claims {
            match decide(&c.expr, m) {
                Ok(d) => decisions.push(d),
                Err(e) => diags.push(at_entry(&a.path, &c.entry, e.at, e.message, e.hint)),
            }
        }
        all.push(decisions);
    }
    diags.into_result(all)
}

/// The experiments to run once more: those behind a measured side of an inconclusive claim
/// that have runs left in the budget; and the inconclusive claims (`article: id`).
fn to_measure(
    articles: &[ArticleClaims],
    decided: &[Vec<Decision>],
    m: &Measurements,
    budget: &Budget,
) -> (Vec<String>, Vec<String>) {
    let (names, inconclusive) = behind(articles, decided, |o| o == Outcome::Inconclusive);
    let left = |name: &String| {
        m.by_name
            .get(name)
            .is_some_and(|f| f.record.runs.len() < budget.runs + budget.extra_runs)
    };
    (names.into_iter().filter(left).collect(), inconclusive)
}

/// The experiments whose cached runs (made by an earlier build) leave a claim inconclusive or
/// failing, and those claims (`article: id`).
fn cached_behind_undecided(
    articles: &[ArticleClaims],
    decided: &[Vec<Decision>],
    m: &Measurements,
) -> (Vec<String>, Vec<String>) {
    let (names, claims) = behind(articles, decided, |o| o != Outcome::Holds);
    let cached = |name: &String| {
        m.by_name
            .get(name)
            .is_some_and(|f| f.origin == Origin::Cached)
    };
    (names.into_iter().filter(cached).collect(), claims)
}

/// The experiments behind a measured (not exact) side of the claims whose outcome `which`
/// selects, and those claims (`article: id`).
fn behind(
    articles: &[ArticleClaims],
    decided: &[Vec<Decision>],
    which: impl Fn(Outcome) -> bool,
) -> (BTreeSet<String>, Vec<String>) {
    let mut names = BTreeSet::new();
    let mut claims = Vec::new();
    for (a, decisions) in articles.iter().zip(decided) {
        for (c, d) in a.claims.iter().zip(decisions) {
            if !which(d.outcome) {
                continue;
            }
            claims.push(format!("{}: {}", a.dir, c.entry.id));
            for (op, q) in [(&c.expr.lhs, &d.lhs), (&c.expr.rhs, &d.rhs)] {
                if let (Value::Path { experiment }, None) = (&op.value, q.exact) {
                    names.insert(experiment.clone());
                }
            }
        }
    }
    (names, claims)
}

/// An error about the claim written at `e`, at character `at` of its expression.
fn at_entry(
    path: &std::path::Path,
    e: &Entry,
    at: usize,
    message: String,
    hint: Option<String>,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        Place::at(path, e.line, e.col + at),
        format!("claim `{}`: {message}", e.id),
    )
    .with_snippet(e.source_line.clone());
    d.hint = hint;
    d
}

/// The claims of every article, parsed: each article's from the one file that declares them.
/// Every malformed claim, id and declaration is reported.
pub fn collect(site: &Site) -> Result<Vec<ArticleClaims>, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut out = Vec::new();
    for pages in site.articles() {
        let declaring: Vec<&measured_content::site::Page> = pages
            .iter()
            .map(|&i| &site.pages[i])
            .filter(|p| p.doc.front.claims.is_some())
            .collect();
        let Some(first) = declaring.first() else {
            continue;
        };
        let written = first.doc.front.claims.as_ref().expect("declares claims");
        for other in &declaring[1..] {
            let line = other.doc.front.claims.as_ref().map_or(1, |w| w.line);
            diags.push(
                Diagnostic::new(
                    Place::at(&other.doc.path, line, 1),
                    format!(
                        "the claims of article `{}` are declared in two files: {} and {}",
                        first.doc.dir,
                        first.doc.path.display(),
                        other.doc.path.display()
                    ),
                )
                .with_hint("declare an article's claims once, in one file (normally the original, index.vi.md): they apply to every language"),
            );
        }
        match article_claims(&first.doc.dir, &first.doc.path, written) {
            Ok(claims) => out.push(claims),
            Err(d) => diags.extend(d),
        }
    }
    diags.into_result(out)
}

/// One file's claims, parsed; every error reported.
fn article_claims(
    dir: &str,
    path: &std::path::Path,
    written: &Written,
) -> Result<ArticleClaims, Diagnostics> {
    let mut diags = Diagnostics::default();
    if written.form == Form::List {
        let example = written
            .entries
            .first()
            .map_or("tcp-handshake.kernel.ratio > 2.5", |e| e.text.as_str());
        diags.push(
            Diagnostic::new(
                Place::at(path, written.line, 1),
                "`claims:` is a list; claims are now a map from a short id to the claim",
            )
            .with_hint(format!(
                "give each claim an id (lowercase letters, digits and `-`), e.g.\n      claims:\n        my-claim: {example}"
            )),
        );
        return Err(diags);
    }
    let mut article = ArticleClaims {
        dir: dir.to_string(),
        path: path.to_path_buf(),
        claims: Vec::new(),
    };
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &written.entries {
        let place = Place::at(
            path,
            e.line,
            1 + e.source_line.len() - e.source_line.trim_start().len(),
        );
        if let Some(problem) = id_problem(&e.id) {
            diags.push(Diagnostic::new(place.clone(), problem).with_snippet(e.source_line.clone())
                .with_hint("an id is a short name such as `handshake-cost`: lowercase letters, digits and `-`, starting with a letter or digit"));
        }
        if let Some(first) = seen.insert(&e.id, e.line) {
            diags.push(
                Diagnostic::new(
                    place,
                    format!("claim id `{}` is used twice (first on line {first})", e.id),
                )
                .with_snippet(e.source_line.clone())
                .with_hint("give each claim of an article its own id"),
            );
        }
        match parse(&e.text) {
            Ok(expr) => article.claims.push(Claim {
                entry: e.clone(),
                expr,
            }),
            Err(p) => diags.push(at_entry(path, e, p.at, p.message, p.hint)),
        }
    }
    diags.into_result(article)
}

/// What is wrong with a claim id, if anything: `[a-z0-9][a-z0-9-]*`.
fn id_problem(id: &str) -> Option<String> {
    let ok = id.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    (!ok).then(|| {
        format!("claim id `{id}` is not lowercase letters, digits and `-`, starting with a letter or digit")
    })
}

#[cfg(test)]
mod tests;

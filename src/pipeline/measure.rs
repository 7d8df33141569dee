//! The experiment stage of a session: which experiments each article refers to, and their
//! measurements, measured again only when the experiments' files, the results or the options
//! changed.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::config::SiteConfig;
use crate::content::SourceDoc;
use crate::diag::Diagnostics;
use crate::experiments::machine::Machine;
use crate::experiments::{self, ExperimentOptions, Measurements, Progress};
use crate::site::Site;
use crate::{claims, markdown};

use super::Session;

/// The measurements of a build, and the experiments it built and ran to get them.
pub(super) struct Measured {
    pub(super) measurements: Arc<Measurements>,
    /// Every article's claims, decided on them.
    pub(super) claims: Arc<claims::Decided>,
    /// Under `--strict`, the claims that failed or stayed inconclusive: the build reports
    /// them with the pages' errors, and fails. (Otherwise they are published with their
    /// verdict, and said in `warnings`.)
    pub(super) failures: Diagnostics,
    /// Every claim as this build decided it (the claims report).
    pub(super) report: Vec<claims::report::Entry>,
    /// Per article folder, its claims as its pages publish them (with other machines').
    pub(super) published: Arc<std::collections::BTreeMap<String, Vec<claims::report::Published>>>,
    /// What a publisher is told of claims: those published with a verdict other than
    /// *holds*, and those that hold with too little margin.
    pub(super) claim_warnings: Vec<crate::diag::Diagnostic>,
    pub(super) ran: Vec<String>,
    /// The process runs of experiments this build made.
    pub(super) process_runs: usize,
    /// Whether they are kept for the next build (not after a forced rerun).
    pub(super) reusable: bool,
    /// What moved since the previous results of the experiments this build ran.
    pub(super) drift: Vec<crate::diag::Diagnostic>,
}

impl Session {
    /// The experiments each page refers to (prose, blocks, excerpts, claims), parsed once per
    /// build, and not at all for a body and claims already parsed in this session.
    pub(super) fn refs(&mut self, site: &Site) -> Vec<BTreeSet<String>> {
        self.memo
            .refs
            .par_map(&site.pages, |p| refs_key(&p.doc), |p| refs_of(&p.doc))
    }

    /// The measurements of the experiments `refs` name, with every claim of `site` settled
    /// (the experiments behind inconclusive claims measured again). `files`: the stamp of the
    /// experiment stage's files, `None` for a forced rerun, which always measures.
    pub(super) fn measure(
        &mut self,
        config: &SiteConfig,
        site: &Site,
        refs: &[BTreeSet<String>],
        files: Option<blake3::Hash>,
        progress: &dyn Progress,
    ) -> Result<Measured, Diagnostics> {
        let wanted: BTreeSet<String> = refs.iter().flatten().cloned().collect();
        let opts = &self.opts.experiments;
        let memo = &mut self.memo;
        let machine = memo
            .machine
            .get_or((), || Machine::read(&config.experiments.dir));
        let mut ran = Vec::new();
        let mut process_runs = 0;
        let mut measure = || {
            let mut m = experiments::measure_on(config, &wanted, opts, progress, &machine)?;
            ran = std::mem::take(&mut m.ran);
            process_runs = std::mem::take(&mut m.process_runs);
            Ok::<_, Diagnostics>(Arc::new(m))
        };
        // Unchanged experiment sources, results and options give the same measurements.
        let measurements = match files {
            Some(files) => {
                let key = experiments_stamp(files, &wanted, opts, &config.machines);
                memo.measurements.try_get_or(key, measure)?
            }
            None => {
                memo.measurements.clear();
                measure()?
            }
        };
        experiments::derived::check(&measurements, &config.experiments.dir)?;
        if opts.frozen {
            stale_frozen(config, site, refs, &measurements, &machine)?;
        }
        let mut runner = experiments::runs::Runner::new(config, opts, progress, &machine);
        let more = claims::More {
            budget: claims::Budget::of(config, opts),
            runner: &mut runner,
            progress,
        };
        let (mut settled, failures) =
            claims::settle_reporting(site, (*measurements).clone(), more)?;
        for name in std::mem::take(&mut settled.measurements.ran) {
            if !ran.contains(&name) {
                ran.push(name);
            }
        }
        process_runs += std::mem::take(&mut settled.measurements.process_runs);
        let report = claims::report::entries(&settled.articles, &settled.measurements);
        // The report is for `measured claims`: a cache that cannot be written loses nothing
        // of the site.
        let _ = claims::report::save(&config.cache_dir(), &report);
        let (failures, claim_warnings) = claim_outcomes(report.iter(), failures, opts.strict);
        let decided: claims::Decided = settled
            .articles
            .into_iter()
            .map(|(a, d)| (a.dir.clone(), (a, d)))
            .collect();
        let measurements = if settled.extra_runs > 0 {
            // The stored records changed: the next build reads them again.
            memo.measurements.clear();
            Arc::new(settled.measurements)
        } else {
            measurements
        };
        let store = experiments::store::Store::new(config);
        let drift = claims::drift::report(&measurements, store.history(), &decided);
        let articles: Vec<_> = decided.values().cloned().collect();
        let published = Arc::new(claims::report::published(&report, &articles, &measurements));
        Ok(Measured {
            measurements,
            drift,
            claims: Arc::new(decided),
            failures,
            report,
            published,
            claim_warnings,
            ran,
            process_runs,
            reusable: files.is_some(),
        })
    }
}

/// Frozen results that the experiments' current code would not measure (its source, its
/// locked dependencies or the toolchain changed since): errors naming the experiment, the
/// articles that use it and what to run.
fn stale_frozen(
    config: &SiteConfig,
    site: &Site,
    refs: &[BTreeSet<String>],
    m: &Measurements,
    machine: &Machine,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for (name, changed) in experiments::frozen_changes(m, config, machine) {
        let users: Vec<String> = site
            .pages
            .iter()
            .zip(refs)
            .filter(|(_, names)| names.contains(&name))
            .map(|(p, _)| p.doc.path.display().to_string())
            .collect();
        let frozen = config.experiments.frozen_dir.join(format!("{name}.json"));
        diags.push(
            crate::diag::Diagnostic::new(
                crate::diag::Place::file(&frozen),
                format!(
                    "--frozen: the frozen results of `{name}` (used by {}) are stale: {} changed since they were measured",
                    users.join(", "),
                    changed.join(", ")
                ),
            )
            .with_hint(format!(
                "measure it again (`measured build --rerun {name}`), then freeze it (`measured freeze {name}`) and commit frozen/"
            )),
        );
    }
    diags.into_result(())
}

/// The claims that fail the build (under `strict`, those of `failures`: every claim that does
/// not hold) and the warnings of the others: claims published with a verdict other than
/// *holds*, then claims that hold with too little margin.
fn claim_outcomes<'a>(
    report: impl Iterator<Item = &'a claims::report::Entry> + Clone,
    failures: Diagnostics,
    strict: bool,
) -> (Diagnostics, Vec<crate::diag::Diagnostic>) {
    use claims::report::{marginal_warning, unconfirmed_warning};
    let mut warnings: Vec<crate::diag::Diagnostic> = Vec::new();
    if !strict {
        let unconfirmed = report
            .clone()
            .filter(|e| e.verdict != claims::Verdict::Holds);
        warnings.extend(unconfirmed.map(unconfirmed_warning));
    }
    warnings.extend(report.filter(|e| e.marginal).map(marginal_warning));
    let failures = if strict {
        failures
    } else {
        Diagnostics::default()
    };
    (failures, warnings)
}

/// Per page, the experiments of `refs` that the build measured.
pub(super) fn used(refs: &[BTreeSet<String>], m: &Measurements) -> Vec<BTreeSet<String>> {
    refs.iter()
        .map(|names| {
            names
                .iter()
                .filter(|n| m.by_name.contains_key(*n))
                .cloned()
                .collect()
        })
        .collect()
}

/// What an article's references to experiments are found in: its body and its claims.
fn refs_key(doc: &SourceDoc) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(doc.body_hash.as_bytes());
    for claim in doc.front.claims.iter().flat_map(|w| &w.entries) {
        h.update(b"\0");
        h.update(claim.text.as_bytes());
    }
    if let Some((card, _)) = &doc.front.card {
        h.update(b"\0card\0");
        h.update(card.as_bytes());
    }
    h.finalize()
}

/// The experiments an article refers to.
pub(super) fn refs_of(doc: &SourceDoc) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = markdown::experiment_refs(&doc.body)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    for claim in doc.front.claims.iter().flat_map(|w| &w.entries) {
        names.extend(claims::experiments_of(&claim.text));
    }
    // The social card's headline value (`card: experiment.path`).
    if let Some((card, _)) = &doc.front.card {
        let name = crate::reference::Reference::parse(card).name;
        names.insert(name.to_string());
    }
    names
}

/// Identity of everything the experiment stage reads when nothing needs running: the
/// experiments' files (not their build output), the stored, frozen and imported results, what
/// the pages want, the options and `[machines]`. Names, sizes and modification times, like `make`.
fn experiments_stamp(
    files: blake3::Hash,
    wanted: &BTreeSet<String>,
    opts: &ExperimentOptions,
    machines: &crate::config::MachinesConfig,
) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(format!("{wanted:?}\0{}\0{}\0{machines:?}", opts.quick, opts.frozen).as_bytes());
    h.update(files.as_bytes());
    h.finalize()
}

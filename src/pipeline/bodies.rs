//! The Markdown stage of a session: every article's body rendered on all cores, reused where
//! its key is one the session rendered.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::claims;
use crate::config::SiteConfig;
use crate::content::SourceDoc;
use crate::diag::Diagnostics;
use crate::experiments::Measurements;
use crate::highlight::Lines;
use crate::i18n::Strings;
use crate::inject::{Injector, PageHooks, Slots};
use crate::lang::Lang;
use crate::markdown::{self, Labels, Rendered};
use crate::site::Site;
use crate::theme::{Theme, ThemeIds};

use super::Session;

/// Every page's rendered body, by page index, and what rendering them cost.
pub(super) struct Bodies {
    /// Per page: the key of its body ([`body_key`]).
    pub(super) keys: Vec<blake3::Hash>,
    pub(super) bodies: Vec<Arc<Rendered>>,
    /// How many were rendered (not reused).
    pub(super) rendered: usize,
    /// How many code blocks were highlighted (not found in the highlighter's cache).
    pub(super) highlighted: usize,
    /// What of the theme they were rendered with.
    pub(super) theme: BodyTheme,
    /// The fingerprint of the measurements they were rendered with ([`measurements_fingerprint`]).
    pub(super) results: blake3::Hash,
}

/// What the Markdown stage reads of the theme: its UI words per language and the ids its
/// templates write around a body. A theme change forgets every body (`Memo::use_theme`), so a
/// body's key need not hold it.
#[derive(Clone)]
pub(super) struct BodyTheme {
    pub(super) labels: BTreeMap<Lang, Labels>,
    pub(super) ids: Arc<ThemeIds>,
}

impl BodyTheme {
    pub(super) fn of(
        config: &SiteConfig,
        strings: &BTreeMap<Lang, Strings>,
        theme: &Theme,
    ) -> Self {
        BodyTheme {
            labels: labels_of(config, strings),
            ids: Arc::new(ThemeIds::of(theme)),
        }
    }
}

impl Session {
    /// Renders every page's body, reusing the session's bodies of the same key.
    pub(super) fn bodies(
        &self,
        site: &Site,
        hooks: &Injector<'_>,
        theme: BodyTheme,
    ) -> Result<Bodies, Diagnostics> {
        let results = measurements_fingerprint(hooks.measurements);
        let misses = hooks.highlighter.misses();
        let fresh = AtomicUsize::new(0);
        let render = |i: usize, lines: &Lines| {
            let doc = &site.pages[i].doc;
            let key = body_key(doc, results, hooks.claims);
            let body = self.memo.bodies.try_get_or(&key, || {
                fresh.fetch_add(1, Ordering::Relaxed);
                render_body(doc, &theme, hooks, lines)
            });
            (i, body.map(|body| (key, body)))
        };
        // An article's translations share most of their code blocks, so one worker renders
        // them one after another and the later ones find those blocks highlighted. The pages are
        // sorted by language: split in halves between workers, both halves reached the same
        // articles at the same time and each block was highlighted twice. Each worker keeps
        // the lines syntect parsed for all the blocks it highlights (a memo cannot change
        // threads), taking the next article as it is free.
        let articles: Vec<Vec<usize>> = site.articles().collect();
        let next = AtomicUsize::new(0);
        let done = std::sync::Mutex::new(Vec::with_capacity(site.pages.len()));
        rayon::scope(|scope| {
            for _ in 0..rayon::current_num_threads() {
                scope.spawn(|_| {
                    let lines = Lines::default();
                    let mut mine = Vec::new();
                    while let Some(pages) = articles.get(next.fetch_add(1, Ordering::Relaxed)) {
                        mine.extend(pages.iter().map(|&i| render(i, &lines)));
                    }
                    done.lock().expect("rendered bodies").append(&mut mine);
                });
            }
        });
        let mut rendered = done.into_inner().expect("rendered bodies");
        rendered.sort_unstable_by_key(|(i, _)| *i);
        let highlighted = hooks.highlighter.misses() - misses;
        let (keys, bodies) = Diagnostics::gather(rendered.into_iter().map(|(_, r)| r))?
            .into_iter()
            .unzip();
        Ok(Bodies {
            keys,
            bodies,
            rendered: fresh.into_inner(),
            highlighted,
            theme,
            results,
        })
    }
}

/// The identity of what an article's rendered body is made from (`results`: the fingerprint
/// of the measurements, which only bodies that use results depend on; the article's claims).
pub(super) fn body_key(
    doc: &SourceDoc,
    results: blake3::Hash,
    claims: &claims::Decided,
) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    // Its markers show the article's claims, which one of its files declares for all.
    if let Some((article, _)) = claims.get(&doc.dir) {
        h.update(claims::written_key(article).as_bytes());
    }
    h.update(doc.path.as_os_str().as_encoded_bytes());
    h.update(doc.lang.code().as_bytes());
    h.update(&doc.body_line.to_le_bytes());
    h.update(doc.body_hash.as_bytes());
    if doc.uses_results {
        h.update(results.as_bytes());
    }
    h.finalize()
}

/// An article's Markdown as HTML.
pub(super) fn render_body(
    doc: &SourceDoc,
    theme: &BodyTheme,
    hooks: &Injector<'_>,
    lines: &Lines,
) -> Result<Arc<Rendered>, Diagnostics> {
    let claims = hooks.claims.get(&doc.dir);
    let experiments = super::measure::refs_of(doc);
    // The page's experiments and its article's claims' (declared in one of its files).
    let mut named = experiments.clone();
    for c in claims.iter().flat_map(|(a, _)| &a.claims) {
        named.extend(claims::experiments_of(&c.entry.text));
    }
    let slots = Slots(
        named
            .into_iter()
            .filter(|n| hooks.measurements.by_name.contains_key(n))
            .collect(),
    );
    let page = PageHooks {
        injector: hooks,
        experiments,
        slots,
        claims,
    };
    let mut rendered = markdown::render(&markdown::Input {
        path: &doc.path,
        body: &doc.body,
        body_line: doc.body_line,
        lang: &doc.lang,
        highlighter: hooks.highlighter,
        lines: Some(lines),
        hooks: &page,
        labels: &theme.labels[&doc.lang],
        theme_ids: &theme.ids,
    })?;
    rendered.where_vars = hooks.where_vars(&page.slots, &doc.lang);
    Ok(Arc::new(rendered))
}

/// The Markdown stage's UI words, per language.
fn labels_of(config: &SiteConfig, strings: &BTreeMap<Lang, Strings>) -> BTreeMap<Lang, Labels> {
    config
        .langs()
        .map(|l| {
            (
                l.clone(),
                Labels {
                    anchor: strings[l].get("anchor_label").to_string(),
                    figure: strings[l].get("figure_label").to_string(),
                    table: strings[l].get("table_label").to_string(),
                    sequence: strings[l].get("diagram_sequence").to_string(),
                    flowchart: strings[l].get("diagram_flowchart").to_string(),
                    diagram: strings[l].get("diagram").to_string(),
                    footnote_back: strings[l].get("footnote_back").to_string(),
                },
            )
        })
        .collect()
}

/// Identity of every measurement in use: a new result re-renders the bodies that inject values.
pub(super) fn measurements_fingerprint(m: &Measurements) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    for (name, mm) in &m.by_name {
        h.update(name.as_bytes());
        h.update(mm.record.key.as_bytes());
        h.update(mm.record.provenance.measured_at.as_bytes());
    }
    // Other machines' results: shown in machines blocks and every results.json.
    for (machine, records) in &m.elsewhere {
        h.update(machine.as_bytes());
        for (name, r) in records {
            h.update(name.as_bytes());
            h.update(r.key.as_bytes());
            h.update(r.provenance.measured_at.as_bytes());
        }
    }
    h.finalize()
}

//! A session's rebuild after edits to article bodies only: the edited articles are read and
//! rendered again, with the pages that show their bodies (their own pages, the feeds that carry
//! them, the notices of their translations), on top of the last build; every other stage's
//! result is the last build's, because none of its inputs changed.
//!
//! Anything else (a new or removed file, front matter, a first paragraph that listings quote,
//! references to other experiments, templates, configuration, experiments) goes through the
//! whole pipeline, whose result this must always equal.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use crate::diag::Diagnostics;
use crate::lang::Lang;
use crate::markdown::Rendered;
use crate::output::Output;
use crate::render;
use crate::site::Site;
use crate::{content, links};

use super::bodies::{body_key, render_body};
use super::last::LastBuild;
use super::memo::PerKey;
use super::search::{SearchArticle, SearchPages};
use super::{Built, Session, Work};
use crate::highlight::Lines;

/// An edited article, read and rendered, not yet part of the site.
struct Edit {
    page: usize,
    doc: content::SourceDoc,
    key: blake3::Hash,
    body: Arc<Rendered>,
    /// Whether the body was rendered (else the session had it already).
    fresh: bool,
}

/// What edits reach: the pages and feeds to render again, the languages to index again.
#[derive(Default)]
struct Reach {
    pages: BTreeSet<usize>,
    feeds: Vec<Lang>,
    /// Languages whose articles, as the search index reads them, changed.
    searched: BTreeSet<String>,
}

impl Session {
    /// The rebuild after edits to bodies only, or `None` when the edits reach further.
    pub(super) fn edit_bodies(
        &mut self,
        changed: &[PathBuf],
    ) -> Result<Option<Built>, Diagnostics> {
        let (Some(kept), Some(_)) = (&self.memo.last_build, &self.memo.last) else {
            return Ok(None);
        };
        if changed.is_empty() {
            return Ok(None);
        }
        let misses = kept.highlighter.misses();
        let read = read_edits(kept, &self.memo.bodies, changed);
        let blocks_highlighted = kept.highlighter.misses() - misses;
        let Some(edits) = read? else {
            return Ok(None);
        };
        // The last build becomes this one (it is put back when this one succeeds).
        let (_, mut last) = self.memo.last.take().expect("checked above");
        let bodies_rendered = edits.iter().filter(|e| e.fresh).count();
        let memo = &mut self.memo;
        let kept = memo.last_build.as_mut().expect("checked above");
        let mut reach = apply_edits(kept, &mut memo.bodies, &mut memo.search.pages, edits);
        super::marks::check(&kept.inputs.site, &kept.inputs.bodies, &kept.claims)?;
        // A translation's notice follows its original's body.
        let inputs = &mut kept.inputs;
        let (notices, warnings) =
            super::inputs::translation_notices(&inputs.config, &inputs.site, &inputs.strings);
        for (i, (new, old)) in notices.iter().zip(&inputs.notices).enumerate() {
            if new != old {
                reach.pages.insert(i);
            }
        }
        inputs.notices = notices;
        let pages: Vec<usize> = reach.pages.iter().copied().collect();
        let (files, rendering) = render::render_pages(inputs, &memo.pages, &pages, &reach.feeds)?;
        memo.pages.extend(rendering.pages);
        for (path, bytes) in files {
            last.output.insert_shared(path, bytes);
        }
        let anchors = &kept.anchor_links;
        check_links(&inputs.site, &inputs.bodies, &pages, anchors, &last.output)?;
        last.warnings = warnings;
        last.warnings
            .extend(super::marks::parity_warnings(&inputs.site, &inputs.bodies));
        last.warnings.extend(
            inputs
                .bodies
                .iter()
                .flat_map(|b| b.warnings.iter().cloned()),
        );
        last.experiments_ran.clear();
        last.work = Work {
            bodies_rendered,
            pages_rendered: rendering.rendered,
            blocks_highlighted,
            cards_drawn: 0,
            whole: false,
        };
        self.publish(last, reach.searched).map(Some)
    }

    /// Makes `last` the last build again, with the search index of the languages `searched`
    /// made or left to a job, so that an index made now goes into it as into any
    /// ([`Session::search_done`]).
    fn publish(&mut self, last: Built, searched: BTreeSet<String>) -> Result<Built, Diagnostics> {
        let search = last.config.search;
        let keys = searched
            .into_iter()
            .filter_map(|lang| {
                let key = self.memo.search.pages.get(&lang)?.key();
                Some((lang, key))
            })
            .collect();
        self.memo.last = Some((None, last));
        let job = if search {
            self.index_stale(keys)?
        } else {
            None
        };
        let (_, last) = self.memo.last.as_mut().expect("put back above");
        last.search = job;
        Ok(last.clone())
    }
}

/// Puts the `edits` in the kept site and bodies (and their bodies in the session's), and says
/// what they reach.
fn apply_edits(
    kept: &mut LastBuild,
    bodies: &mut PerKey<Arc<Rendered>>,
    search: &mut BTreeMap<String, SearchPages>,
    edits: Vec<Edit>,
) -> Reach {
    let mut reach = Reach::default();
    let inputs = &mut kept.inputs;
    for edit in edits {
        let i = edit.page;
        reach.pages.insert(i);
        let lang = &edit.doc.lang;
        if render::in_feed(inputs, lang, i) && !reach.feeds.contains(lang) {
            reach.feeds.push(lang.clone());
        }
        let url = &inputs.site.pages[i].url;
        for target in anchor_targets(url, &inputs.bodies[i]) {
            if let Some(from) = kept.anchor_links.get_mut(&target) {
                from.remove(&i);
            }
        }
        for target in anchor_targets(url, &edit.body) {
            kept.anchor_links.entry(target).or_default().insert(i);
        }
        bodies.insert(edit.key, edit.body.clone());
        // Each edited article replaces its mark in its language's search key.
        if let Some(pages) = search.get_mut(lang.code()) {
            let article = SearchArticle::new(i, &inputs.site, edit.key, edit.body.clone());
            if pages.replace(article) {
                reach.searched.insert(lang.code().to_string());
            }
        }
        inputs.site.pages[i].doc = edit.doc;
        inputs.bodies[i] = edit.body;
    }
    reach
}

/// Reads and renders the articles `changed`, or `None` when one of them is not an article
/// of the last build, or its edit changed more than its body.
fn read_edits(
    kept: &LastBuild,
    bodies: &PerKey<Arc<Rendered>>,
    changed: &[PathBuf],
) -> Result<Option<Vec<Edit>>, Diagnostics> {
    let hooks = kept.hooks();
    let mut edits = Vec::new();
    for rel in changed {
        let path = kept.inputs.config.root.join(rel);
        let Some(i) = kept
            .inputs
            .site
            .pages
            .iter()
            .position(|p| p.doc.path == path)
        else {
            return Ok(None);
        };
        let old = &kept.inputs.site.pages[i].doc;
        // A file that no longer reads or parses is the whole build's to report.
        let Ok(doc) = content::load_doc(&path, old.dir.clone(), old.lang.clone()) else {
            return Ok(None);
        };
        if doc.front != old.front || super::measure::refs_of(&doc) != kept.refs[i] {
            return Ok(None);
        }
        let key = body_key(&doc, kept.results, &kept.claims);
        let mut fresh = false;
        let body = bodies.try_get_or(&key, || {
            fresh = true;
            render_body(&doc, &kept.theme, &hooks, &Lines::default())
        })?;
        // Listings, feeds and neighbours quote a first paragraph where no description is given.
        if doc.front.description.is_none() && body.summary != kept.inputs.bodies[i].summary {
            return Ok(None);
        }
        edits.push(Edit {
            page: i,
            doc,
            key,
            body,
            fresh,
        });
    }
    Ok(Some(edits))
}

/// Checks the links written in the re-rendered `pages`, and the links of every other page to
/// an anchor of one of them (`anchors`: [`anchor_links`]), since anchors may be what changed;
/// the re-rendered pages are checked for repeated ids.
fn check_links(
    site: &Site,
    bodies: &[Arc<Rendered>],
    pages: &[usize],
    anchors: &BTreeMap<String, BTreeSet<usize>>,
    output: &Output,
) -> Result<(), Diagnostics> {
    let mut check: BTreeSet<usize> = pages.iter().copied().collect();
    for &i in pages {
        if let Some(from) = anchors.get(site.pages[i].url.trim_end_matches('/')) {
            check.extend(from);
        }
    }
    let mut diags = Diagnostics::default();
    for &i in pages {
        let page = &site.pages[i];
        diags.extend(links::check_ids_at(
            &page.url,
            output,
            super::files::source_of(page),
        ));
    }
    for i in check {
        let targets = links::Targets {
            output,
            drafts: &site.drafts,
            failed: &site.failed,
            elsewhere: &site.elsewhere,
        };
        diags.extend(links::check(&site.pages[i].url, &bodies[i].links, targets));
    }
    diags.into_result(())
}

/// Which pages link to an anchor of another page: target path (without its trailing `/`) →
/// the pages whose bodies link to one of its anchors.
pub(super) fn anchor_links(
    site: &Site,
    bodies: &[Arc<Rendered>],
) -> BTreeMap<String, BTreeSet<usize>> {
    let mut anchors: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (i, (p, body)) in site.pages.iter().zip(bodies).enumerate() {
        for target in anchor_targets(&p.url, body) {
            anchors.entry(target).or_default().insert(i);
        }
    }
    anchors
}

/// The pages a body links to with a `#fragment`, as paths without their trailing `/` (its own
/// page's anchors aside: they are checked with the page).
fn anchor_targets(page_url: &str, body: &Rendered) -> BTreeSet<String> {
    body.links
        .iter()
        .filter_map(|link| {
            let (path, _) = link.dest.split_once('#')?;
            if path.is_empty() {
                return None;
            }
            let to = links::resolve(page_url, path)?;
            Some(to.trim_end_matches('/').to_string())
        })
        .collect()
}

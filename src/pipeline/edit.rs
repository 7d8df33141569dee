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
use crate::inject::Injector;
use crate::lang::Lang;
use crate::markdown::{Labels, Rendered};
use crate::output::Output;
use crate::render::{self, RenderInputs};
use crate::site::Site;
use crate::{content, links};

use super::{Built, Session, Work};

/// What the last build was made from, besides its output ([`Built`]) and its measurements.
pub(super) struct Kept {
    /// Everything the render stage read.
    pub(super) inputs: RenderInputs,
    pub(super) labels: BTreeMap<Lang, Labels>,
    /// Per page: the experiments it refers to.
    pub(super) refs: Vec<BTreeSet<String>>,
    /// The fingerprint of the measurements the bodies were rendered with.
    pub(super) results: blake3::Hash,
    /// Which pages link to anchors of which ([`anchor_links`]).
    pub(super) anchor_links: BTreeMap<String, BTreeSet<usize>>,
}

/// An edited article, read and rendered, not yet part of the site.
struct Edit {
    page: usize,
    doc: content::SourceDoc,
    key: blake3::Hash,
    body: Arc<Rendered>,
    /// Whether the body was rendered (else the session had it already).
    fresh: bool,
}

impl Session {
    /// Builds after the files `changed` (paths relative to the site root) changed, and
    /// nothing else: what `serve` calls with the paths its watcher reports. When every changed
    /// file is the body of an article of the last build, only what shows those bodies is
    /// rendered again; otherwise this is [`Session::build`].
    pub fn build_after(
        &mut self,
        changed: &[PathBuf],
        progress: &dyn crate::experiments::Progress,
    ) -> Result<Built, Diagnostics> {
        match self.edit_bodies(changed) {
            Ok(Some(built)) => Ok(built),
            Ok(None) => self.build(progress),
            Err(diagnostics) => {
                // The kept state no longer matches the sources: the next build is whole.
                self.memo.kept = None;
                Err(diagnostics)
            }
        }
    }

    /// The rebuild after edits to bodies only, or `None` when the edits reach further.
    fn edit_bodies(&mut self, changed: &[PathBuf]) -> Result<Option<Built>, Diagnostics> {
        let (Some(kept), Some((_, last)), Some((_, measurements)), Some((_, highlighter))) = (
            &self.memo.kept,
            &self.memo.last,
            &self.memo.measurements,
            &self.memo.highlighter,
        ) else {
            return Ok(None);
        };
        if changed.is_empty() {
            return Ok(None);
        }
        let hooks = Injector {
            measurements,
            strings: &kept.inputs.strings,
            config: &last.config,
            highlighter,
        };
        let misses = highlighter.misses();
        let read = read_edits(kept, &self.memo.bodies, &last.config.root, changed, &hooks);
        let blocks_highlighted = highlighter.misses() - misses;
        let Some(edits) = read? else {
            return Ok(None);
        };
        // The last build becomes this one (it is put back when this one succeeds).
        let (_, mut last) = self.memo.last.take().expect("checked above");
        let memo = &mut self.memo;
        let kept = memo.kept.as_mut().expect("checked above");
        let bodies_rendered = edits.iter().filter(|e| e.fresh).count();
        let mut pages: BTreeSet<usize> = BTreeSet::new();
        let mut feeds: Vec<Lang> = Vec::new();
        let anchors = &mut kept.anchor_links;
        // Each edited article replaces its mark in its language's search key.
        let mut searched: BTreeSet<String> = BTreeSet::new();
        for edit in edits {
            let i = edit.page;
            pages.insert(i);
            let lang = &edit.doc.lang;
            if render::in_feed(&kept.inputs, lang, i) && !feeds.contains(lang) {
                feeds.push(lang.clone());
            }
            let url = &kept.inputs.site.pages[i].url;
            for target in anchor_targets(url, &kept.inputs.bodies[i]) {
                if let Some(from) = anchors.get_mut(&target) {
                    from.remove(&i);
                }
            }
            for target in anchor_targets(url, &edit.body) {
                anchors.entry(target).or_default().insert(i);
            }
            memo.bodies.insert(edit.key, edit.body.clone());
            if let Some(search) = memo.search_pages.get_mut(lang.code()) {
                let article = super::search::SearchArticle::new(
                    i,
                    &kept.inputs.site,
                    edit.key,
                    edit.body.clone(),
                );
                if search.replace(article) {
                    searched.insert(lang.code().to_string());
                }
            }
            kept.inputs.site.pages[i].doc = edit.doc;
            kept.inputs.bodies[i] = edit.body;
        }
        // A translation's notice follows its original's body.
        let (notices, warnings) =
            super::translation_notices(&last.config, &kept.inputs.site, &kept.inputs.strings);
        for (i, (new, old)) in notices.iter().zip(&kept.inputs.notices).enumerate() {
            if new != old {
                pages.insert(i);
            }
        }
        kept.inputs.notices = notices;
        let pages: Vec<usize> = pages.into_iter().collect();
        let (files, rendering) = render::render_pages(&kept.inputs, &memo.pages, &pages, &feeds)?;
        let pages_rendered = rendering.rendered;
        memo.pages.extend(rendering.pages);
        for (path, bytes) in files {
            last.output.insert_shared(path, bytes);
        }
        check_links(
            &kept.inputs.site,
            &kept.inputs.bodies,
            &pages,
            anchors,
            &last.output,
        )?;
        last.warnings = warnings;
        last.experiments_ran.clear();
        last.work = Work {
            bodies_rendered,
            pages_rendered,
            blocks_highlighted,
            whole: false,
        };
        let search = last.config.search;
        let keys = searched
            .into_iter()
            .filter_map(|lang| {
                let key = memo.search_pages.get(&lang)?.key();
                Some((lang, key))
            })
            .collect();
        // Put back as the last build, so that an index made now goes into it as into any
        // (`search_done`).
        self.memo.last = Some((None, last));
        let job = if search {
            self.index_stale(keys)?
        } else {
            None
        };
        let (_, last) = self.memo.last.as_mut().expect("put back above");
        last.search = job;
        Ok(Some(last.clone()))
    }
}

/// Reads and renders the articles `changed`, or `None` when one of them is not an article
/// of the last build, or its edit changed more than its body.
fn read_edits(
    kept: &Kept,
    bodies: &std::collections::HashMap<blake3::Hash, Arc<Rendered>>,
    root: &std::path::Path,
    changed: &[PathBuf],
    hooks: &Injector<'_>,
) -> Result<Option<Vec<Edit>>, Diagnostics> {
    let mut edits = Vec::new();
    for rel in changed {
        let path = root.join(rel);
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
        if doc.front != old.front || super::refs_of(&doc) != kept.refs[i] {
            return Ok(None);
        }
        let key = super::body_key(&doc, kept.results);
        let (body, fresh) = match bodies.get(&key) {
            Some(body) => (body.clone(), false),
            None => (
                super::render_body(&doc, &kept.labels, hooks.highlighter, hooks)?,
                true,
            ),
        };
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
/// an anchor of one of them (`anchors`: [`anchor_links`]), since anchors may be what changed.
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
    for i in check {
        diags.extend(links::check(&site.pages[i].url, &bodies[i].links, output));
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

//! Stages 7–8 of a whole build: every output file rendered (into a one-off build's store as it
//! is made), the files besides the pages, the finished output checked and the search index.
//! The highlight cache is saved beside the rendering. A one-off build frees on the way what no
//! later stage reads: the highlight cache once saved, the bodies' HTML once the pages are written (docs/performance.md, eleventh round).

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::diag::Diagnostics;
use crate::experiments::Measurements;
use crate::output::{Output, Store};
use crate::render::{self, RenderInputs};
use crate::site;
use crate::theme::Theme;

use super::{SearchJob, Session, cards, files};

/// What the output stages made.
pub(super) struct Emitted {
    pub(super) output: Output,
    /// Output files rendered from templates (not reused).
    pub(super) rendered: usize,
    /// Social cards rasterised (not cached).
    pub(super) cards_drawn: usize,
    /// The search index still to make ([`super::SearchWhen::Later`]).
    pub(super) search: Option<SearchJob>,
}

/// What the output stages read besides the render inputs.
pub(super) struct EmitInputs<'a> {
    pub(super) theme: &'a Theme,
    /// The experiments each page uses.
    pub(super) used: &'a [BTreeSet<String>],
    pub(super) m: &'a Measurements,
    /// The bodies' keys.
    pub(super) body_keys: &'a [blake3::Hash],
    /// Where rendered files go as they are made (a one-off build), if anywhere.
    pub(super) store: Option<&'a dyn Store>,
}

impl Session {
    /// Every output file from `inputs`, checked, and the search index; the errors of earlier
    /// stages (`deferred`) are reported with the checks'.
    pub(super) fn emit(
        &mut self,
        inputs: &mut RenderInputs,
        e: &EmitInputs<'_>,
        deferred: Diagnostics,
    ) -> Result<Emitted, Diagnostics> {
        let EmitInputs {
            theme,
            used,
            m,
            body_keys,
            store,
        } = *e;
        // The session's, which made the bodies.
        let highlighter = self.highlighter(&inputs.config);
        // The highlight cache is saved beside the rendering (no later stage highlights); a
        // one-off build then frees it.
        let once = self.once;
        let saving = std::thread::spawn(move || {
            let saved = highlighter.save();
            if once {
                highlighter.release();
            }
            saved
        });
        let (mut output, rendering, cards_drawn) = self
            .render_with_cards(inputs, store)
            .map_err(|d| super::joined(d, &deferred))?;
        self.memo.pages = rendering.pages;
        // From here every error is gathered, with those of the earlier stages (`deferred`),
        // and reported together before the search index is made.
        let mut errors = deferred;
        let mut gather = |r: Result<(), Diagnostics>| {
            if let Err(d) = r {
                errors.extend(d);
            }
        };
        gather(self.add_files(inputs, theme, used, m, &mut output));
        gather(render::add_redirects(inputs, &mut output));
        gather(render::add_site_redirects(inputs, &mut output));
        if self.once {
            // The pages are written: only the checks and the search index read the bodies
            // again, never their HTML, which is the largest part of them.
            drop_html(&mut inputs.bodies);
        }
        // 8. Links checked against the output; the search index.
        let search = self.check_and_index(&mut output, inputs, body_keys, errors);
        // A cache that cannot be saved only costs time in the next build.
        let _ = saving.join();
        Ok(Emitted {
            output,
            rendered: rendering.rendered,
            cards_drawn,
            search: search?,
        })
    }

    /// The finished output checked (its paths, links and pages), every error with those found
    /// before (`errors`), then the search index made and added to it.
    fn check_and_index(
        &mut self,
        output: &mut Output,
        inputs: &RenderInputs,
        keys: &[blake3::Hash],
        mut errors: Diagnostics,
    ) -> Result<Option<SearchJob>, Diagnostics> {
        for checked in [
            site::check_output_paths(&inputs.site, output),
            files::check_links(&inputs.site, &inputs.bodies, output),
            files::check_pages(inputs, output),
        ] {
            if let Err(d) = checked {
                errors.extend(d);
            }
        }
        errors.into_result(())?;
        if !inputs.config.search {
            return Ok(None);
        }
        self.search_index(output, &inputs.site, keys, &inputs.bodies)
    }

    /// Every output file from the render inputs, the social cards drawn on all cores beside
    /// the pages (`pipeline/cards.rs`), and how many cards were drawn (not cached).
    fn render_with_cards(
        &mut self,
        inputs: &RenderInputs,
        store: Option<&dyn Store>,
    ) -> Result<(Output, render::Rendering, usize), Diagnostics> {
        let cache = self.card_cache(&inputs.config);
        let before = cache.drawn();
        let reuse = (!self.once).then_some(&self.memo.pages);
        let (rendered, drawn) = rayon::join(
            || render::render(inputs, reuse, store),
            || cards::draw(&inputs.site, &inputs.cards, &cache, store),
        );
        let (mut output, rendering) = rendered?;
        for (path, kept) in drawn? {
            output.insert_placed(path, kept);
        }
        // Every card of this build is in the cache's used set now. A cache folder that cannot
        // be pruned only holds more files.
        let _ = cache.prune();
        Ok((output, rendering, cache.drawn() - before))
    }
}

/// Frees the HTML of every body no one else holds (a one-off build, once its pages are written).
fn drop_html(bodies: &mut [Arc<crate::markdown::Rendered>]) {
    for body in bodies {
        if let Some(body) = Arc::get_mut(body) {
            body.html = String::new();
        }
    }
}

//! A standalone page (`pages/`, an About page): its title and body in the site's frame, with
//! `standalone.html`; translated like an article (language switch, `hreflang`), and nothing
//! of an article's (date, tags, series, related, reading time).

use serde::Serialize;

use super::RenderInputs;
use super::meta::{self, PageMeta};
use crate::standalone::Standalone;

/// The context of `standalone.html`.
#[derive(Serialize)]
pub(super) struct StandaloneCtx<'a> {
    meta: PageMeta,
    title: &'a str,
    content: &'a str,
}

/// The context of `page`.
pub(super) fn context<'p>(inputs: &RenderInputs, page: &'p Standalone) -> StandaloneCtx<'p> {
    let s = &page.source;
    let description = if s.description.is_empty() {
        page.body.summary.clone()
    } else {
        s.description.clone()
    };
    StandaloneCtx {
        meta: meta::meta(
            inputs,
            &s.lang,
            &s.url,
            s.title.clone(),
            description,
            &page.versions,
        ),
        title: &s.title,
        content: &page.body.html,
    }
}

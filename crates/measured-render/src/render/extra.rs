//! A page an earlier stage made whole (an experiment's source page), put in the site's frame
//! with `page.html`.

use serde::Serialize;

use super::RenderInputs;
use super::meta::{self, PageMeta};
use crate::inject::ExtraPage;

/// The context of `page.html`.
#[derive(Serialize)]
pub(super) struct ExtraCtx<'a> {
    meta: PageMeta,
    content: &'a str,
}

/// The context of `page`.
pub(super) fn context<'p>(inputs: &RenderInputs, page: &'p ExtraPage) -> ExtraCtx<'p> {
    ExtraCtx {
        meta: meta::meta(
            inputs,
            &page.lang,
            &page.url,
            page.title.clone(),
            page.description.clone(),
            &meta::only(&page.lang, &page.url),
        ),
        content: &page.body_html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::inputs;

    #[test]
    fn an_extra_page_exists_in_its_own_language_only() {
        let inputs = inputs();
        let page = &inputs.extra_pages[0];
        let ExtraCtx { meta, content } = context(&inputs, page);
        assert_eq!(content, "<h1>dns</h1>");
        assert_eq!(meta.canonical, "https://e.org/experiments/dns/");
        let switch: Vec<(&str, &str, bool)> = meta
            .switch
            .iter()
            .map(|s| (s.code.as_str(), s.url.as_str(), s.exact))
            .collect();
        assert_eq!(
            switch,
            [("vi", "/experiments/dns/", true), ("en", "/en/", false)]
        );
    }
}

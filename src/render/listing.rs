//! A language's listings: its home page (`list.html`, newest articles first), its tag index
//! (`tags.html`) and a page per tag (`list.html`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::lang::Lang;
use crate::site::Tag;

use super::RenderInputs;
use super::link::{self, LinkCtx, TagLink};
use super::meta::{self, PageMeta};

/// The context of `list.html`: a heading and articles.
#[derive(Serialize)]
pub(super) struct ListPage {
    meta: PageMeta,
    heading: String,
    items: Vec<LinkCtx>,
}

/// The context of `tags.html`: every tag of a language with its count.
#[derive(Serialize)]
pub(super) struct TagsPage {
    meta: PageMeta,
    tags: Vec<TagLink>,
}

/// The home page of `lang`: its articles, newest first, with the articles it lacks in other
/// languages where the site shows them (`show_untranslated`).
pub(super) fn home(inputs: &RenderInputs, lang: &Lang) -> ListPage {
    let config = &inputs.config;
    let site = &inputs.site;
    let mut listed: Vec<usize> = site.by_lang.get(lang).cloned().unwrap_or_default();
    if config.show_untranslated {
        listed.extend(site.untranslated_into(lang));
        listed.sort_by_key(|&i| std::cmp::Reverse(site.pages[i].doc.front.date));
    }
    let homes: BTreeMap<Lang, String> = config
        .langs()
        .map(|l| (l.clone(), config.lang_prefix(l)))
        .collect();
    let lc = config.language(lang);
    ListPage {
        meta: meta::meta(
            inputs,
            lang,
            &config.lang_prefix(lang),
            lc.title.clone(),
            lc.description.clone(),
            &homes,
        ),
        heading: inputs.strings[lang].get("latest_articles").to_string(),
        items: links(inputs, &listed, lang),
    }
}

/// The tag index of `lang`.
pub(super) fn tag_index(inputs: &RenderInputs, lang: &Lang) -> TagsPage {
    let config = &inputs.config;
    let t = &inputs.strings[lang];
    let tag_indexes: BTreeMap<Lang, String> = config
        .langs()
        .map(|l| (l.clone(), tag_index_url(inputs, l)))
        .collect();
    TagsPage {
        meta: meta::meta(
            inputs,
            lang,
            &tag_index_url(inputs, lang),
            t.get("tags").to_string(),
            t.get("tags_description").to_string(),
            &tag_indexes,
        ),
        tags: tags(inputs, lang)
            .iter()
            .map(|tag| TagLink {
                name: tag.name.clone(),
                url: tag.url.clone(),
                count: tag.pages.len(),
            })
            .collect(),
    }
}

/// The page of `tag`, a tag of `lang`.
pub(super) fn tag_page(inputs: &RenderInputs, lang: &Lang, tag: &Tag) -> ListPage {
    let title = inputs.strings[lang].fill("tag_title", &[("tag", &tag.name)]);
    ListPage {
        meta: meta::meta(
            inputs,
            lang,
            &tag.url,
            title.clone(),
            title.clone(),
            &meta::only(lang, &tag.url),
        ),
        heading: title,
        items: links(inputs, &tag.pages, lang),
    }
}

/// The tags of `lang`, sorted by slug.
pub(super) fn tags<'i>(inputs: &'i RenderInputs, lang: &Lang) -> &'i [Tag] {
    inputs.site.tags.get(lang).map_or(&[], Vec::as_slice)
}

/// The URL of the tag index of `lang`.
pub(super) fn tag_index_url(inputs: &RenderInputs, lang: &Lang) -> String {
    format!("{}tags/", inputs.config.lang_prefix(lang))
}

fn links(inputs: &RenderInputs, pages: &[usize], lang: &Lang) -> Vec<LinkCtx> {
    pages.iter().map(|&i| link::link(inputs, i, lang)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::inputs;

    fn urls(items: &[LinkCtx]) -> Vec<&str> {
        items.iter().map(|l| l.url.as_str()).collect()
    }

    #[test]
    fn a_home_lists_its_articles_and_the_untranslated_ones_newest_first() {
        let inputs = inputs();
        let vi = inputs.config.default_lang.clone();
        let en = inputs.config.lang("en").unwrap().clone();
        let home = home(&inputs, &vi);
        assert_eq!(home.heading, "Bài mới nhất");
        assert_eq!(urls(&home.items), ["/dns/", "/only-vi/", "/tcp/"]);
        let home = super::home(&inputs, &en);
        assert_eq!(home.heading, "Latest articles");
        assert_eq!(urls(&home.items), ["/en/dns/", "/only-vi/", "/en/tcp/"]);
        assert!(home.items[1].only_in.is_some() && home.items[0].only_in.is_none());
    }

    #[test]
    fn tags_are_counted_and_each_has_its_page() {
        let inputs = inputs();
        let vi = inputs.config.default_lang.clone();
        let index = tag_index(&inputs, &vi);
        let tags: Vec<(&str, &str, usize)> = index
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.url.as_str(), t.count))
            .collect();
        assert_eq!(tags, [("dns", "/tags/dns/", 1), ("mạng", "/tags/mang/", 3)]);
        let mang = &super::tags(&inputs, &vi)[1];
        let page = tag_page(&inputs, &vi, mang);
        assert_eq!(page.heading, "Bài gắn thẻ “mạng”");
        assert_eq!(urls(&page.items), ["/dns/", "/only-vi/", "/tcp/"]);
        assert!(page.items.iter().all(|l| l.only_in.is_none()));
    }
}

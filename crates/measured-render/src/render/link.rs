//! An article as other pages list it (listings, its series' neighbours, related articles,
//! feeds): title, URL, description, date and tags.

use serde::Serialize;

use measured_content::config::SiteConfig;
use measured_content::site::Page;
use measured_core::lang::Lang;

use super::RenderInputs;

/// An article in a list of articles.
#[derive(Serialize)]
pub(super) struct LinkCtx {
    pub(super) title: String,
    pub(super) url: String,
    pub(super) description: String,
    pub(super) date: String,
    pub(super) date_iso: String,
    pub(super) tags: Vec<TagLink>,
    /// "Vietnamese only" marker where the article has no translation in the listing's language.
    pub(super) only_in: Option<String>,
    pub(super) lang: String,
}

/// A tag, with how many articles have it (0 where the count is not shown).
#[derive(Serialize, Clone)]
pub(super) struct TagLink {
    pub(super) name: String,
    pub(super) url: String,
    pub(super) count: usize,
}

/// Page `i` as listed on a page in `listing_lang`.
pub(super) fn link(inputs: &RenderInputs, i: usize, listing_lang: &Lang) -> LinkCtx {
    let p = &inputs.site.pages[i];
    let t = &inputs.strings[&p.doc.lang];
    let only_in = (&p.doc.lang != listing_lang).then(|| {
        let listing = &inputs.strings[listing_lang];
        listing.fill(
            "only_in",
            &[(
                "language",
                listing.get(&format!("lang_{}", p.doc.lang.code())),
            )],
        )
    });
    LinkCtx {
        title: p.doc.front.title.clone(),
        url: p.url.clone(),
        description: description(inputs, i),
        date: t.date(p.doc.front.date.date()),
        date_iso: p.doc.front.date.to_string(),
        tags: tag_links(&inputs.config, p),
        only_in,
        lang: p.doc.lang.code().to_string(),
    }
}

/// The tags of page `p`, linked to their pages in its language.
pub(super) fn tag_links(config: &SiteConfig, p: &Page) -> Vec<TagLink> {
    let prefix = config.lang_prefix(&p.doc.lang);
    p.doc
        .front
        .tags
        .iter()
        .map(|name| TagLink {
            name: name.clone(),
            url: format!(
                "{prefix}tags/{}/",
                measured_content::site::tag_slug(config, name)
            ),
            count: 0,
        })
        .collect()
}

/// Page `i`'s description: the front matter's, else its first paragraph, cut to 300 characters.
pub(super) fn description(inputs: &RenderInputs, i: usize) -> String {
    let p = &inputs.site.pages[i];
    match &p.doc.front.description {
        Some(d) => d.clone(),
        None => truncate_words(&inputs.bodies[i].summary, 300),
    }
}

/// `s` cut at a word to at most `max` characters, `…` marking the cut.
fn truncate_words(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for word in s.split_whitespace() {
        if out.chars().count() + word.chars().count() + 1 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::{inputs, page};

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        assert_eq!(truncate_words("một hai ba bốn", 9), "một hai…");
    }

    #[test]
    fn an_article_listed_in_another_language_says_so() {
        let inputs = inputs();
        let en = inputs.config.lang("en").unwrap().clone();
        let vi_only = page(&inputs, "only-vi", "vi");
        let link = link(&inputs, vi_only, &en);
        assert_eq!(link.only_in.as_deref(), Some("Vietnamese only"));
        assert_eq!(link.description, "Chỉ có tiếng Việt.");
        assert_eq!(link.lang, "vi");
        let tags: Vec<(&str, &str)> = link
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.url.as_str()))
            .collect();
        assert_eq!(tags, [("mạng", "/tags/mang/")]);
        let vi = inputs.config.default_lang.clone();
        assert_eq!(super::link(&inputs, vi_only, &vi).only_in, None);
    }
}

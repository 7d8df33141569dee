//! What every HTML page's `<head>` and language switch say about it: title, description,
//! canonical URL, its versions in other languages. Shared by every page's context.

use std::collections::BTreeMap;

use serde::Serialize;

use measured_core::lang::Lang;

use super::RenderInputs;

/// A version of the page in another language, for `<link rel="alternate" hreflang>`.
#[derive(Serialize)]
pub(super) struct Alternate {
    pub(super) hreflang: String,
    pub(super) href: String,
}

/// A language in the page's language switch.
#[derive(Serialize)]
pub(super) struct Switch {
    pub(super) code: String,
    /// The language's name in itself ("Tiếng Việt", "English").
    pub(super) name: String,
    pub(super) url: String,
    pub(super) current: bool,
    /// Whether `url` is this page in that language (else that language's home).
    pub(super) exact: bool,
}

/// What every HTML template gets.
#[derive(Serialize)]
pub(super) struct PageMeta {
    pub(super) lang: String,
    pub(super) title: String,
    pub(super) description: String,
    pub(super) url: String,
    pub(super) canonical: String,
    pub(super) alternates: Vec<Alternate>,
    pub(super) x_default: Option<String>,
    pub(super) switch: Vec<Switch>,
    pub(super) og_type: &'static str,
    pub(super) json_ld: Option<String>,
    /// The absolute URLs of the previous and next pages of a paginated listing
    /// (`<link rel="prev">`, `<link rel="next">`).
    pub(super) prev: Option<String>,
    pub(super) next: Option<String>,
    /// The feed of what the page lists, besides the site's (a tag page's own feed).
    pub(super) feed: Option<FeedLink>,
    /// The page's social card (`og:image`, `twitter:card`), if it has one.
    pub(super) image: Option<Image>,
}

/// A page's social card as its head names it.
#[derive(Serialize)]
pub(super) struct Image {
    /// Absolute, as crawlers need it (with the site's base path).
    pub(super) url: String,
    pub(super) width: u32,
    pub(super) height: u32,
    /// What the picture says, for readers who do not see it.
    pub(super) alt: String,
}

/// The card of page `i`, if it has one.
pub(super) fn image(inputs: &RenderInputs, i: usize) -> Option<Image> {
    let card = inputs.cards.get(i)?.as_ref()?;
    let url = &inputs.site.pages[i].url;
    Some(Image {
        url: inputs
            .config
            .absolute(&format!("{url}{}", crate::card::FILE)),
        width: crate::card::WIDTH,
        height: crate::card::HEIGHT,
        alt: card.alt(|vars| inputs.strings[&card.lang].fill("card_alt", vars)),
    })
}

/// A feed a page links to: in its head (`<link rel="alternate">`) and in its body.
#[derive(Serialize)]
pub(super) struct FeedLink {
    /// Root-relative.
    pub(super) url: String,
    /// The feed's name, as a reader sees the link ("Atom feed of “dns”").
    pub(super) title: String,
}

/// Meta for a page at `url` in `lang` whose versions in the site's languages are `versions`
/// (language → URL; the page itself among them when it has translations).
pub(super) fn meta(
    inputs: &RenderInputs,
    lang: &Lang,
    url: &str,
    title: String,
    description: String,
    versions: &BTreeMap<Lang, String>,
) -> PageMeta {
    let config = &inputs.config;
    let mut alternates: Vec<Alternate> = config
        .langs()
        .filter_map(|l| {
            versions.get(l).map(|u| Alternate {
                hreflang: l.code().to_string(),
                href: config.absolute(u),
            })
        })
        .collect();
    if alternates.len() < 2 {
        alternates.clear();
    }
    let x_default = if alternates.is_empty() {
        None
    } else {
        versions
            .get(&config.default_lang)
            .map(|u| config.absolute(u))
    };
    // A site in one language has nothing to switch to.
    let several = config.languages.len() > 1;
    let switch = config
        .langs()
        .filter(|_| several)
        .map(|l| {
            let exact = versions.get(l);
            Switch {
                code: l.code().to_string(),
                name: inputs.strings[l].get("language_name").to_string(),
                url: exact.cloned().unwrap_or_else(|| config.lang_prefix(l)),
                current: l == lang,
                exact: exact.is_some(),
            }
        })
        .collect();
    PageMeta {
        lang: lang.code().to_string(),
        title,
        description,
        url: url.to_string(),
        canonical: config.absolute(url),
        alternates,
        x_default,
        switch,
        og_type: "website",
        json_ld: None,
        prev: None,
        next: None,
        feed: None,
        image: None,
    }
}

/// Page `i` and its translations: language → URL.
pub(super) fn versions_of(inputs: &RenderInputs, i: usize) -> BTreeMap<Lang, String> {
    let site = &inputs.site;
    let p = &site.pages[i];
    std::iter::once(i)
        .chain(p.translations.iter().copied())
        .map(|j| (site.pages[j].doc.lang.clone(), site.pages[j].url.clone()))
        .collect()
}

/// Only `url` in `lang`: a page with no versions in other languages.
pub(super) fn only(lang: &Lang, url: &str) -> BTreeMap<Lang, String> {
    [(lang.clone(), url.to_string())].into_iter().collect()
}

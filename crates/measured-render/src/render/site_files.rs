//! The site's own files: the 404 page, `sitemap.xml` (every page, with its versions in other
//! languages) and `robots.txt`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::RenderInputs;
use super::meta::{self, Alternate, PageMeta};
use measured_content::config::SiteConfig;
use measured_core::lang::Lang;

/// The context of `404.html`.
#[derive(Serialize)]
pub(super) struct NotFound {
    meta: PageMeta,
}

/// The context of `sitemap.xml`.
#[derive(Serialize)]
pub(super) struct Sitemap {
    urls: Vec<SitemapUrl>,
}

#[derive(Serialize)]
struct SitemapUrl {
    loc: String,
    lastmod: Option<String>,
    alternates: Vec<Alternate>,
}

/// The context of `robots.txt`.
#[derive(Serialize)]
pub(super) struct Robots {
    sitemap: String,
    /// What the site holds on its host: `/`, or `/blog/` for a site published under a path.
    allow: String,
}

/// The 404 page, in the default language.
pub(super) fn not_found(inputs: &RenderInputs) -> NotFound {
    let lang = &inputs.config.default_lang;
    NotFound {
        meta: meta::meta(
            inputs,
            lang,
            "/404.html",
            inputs.strings[lang].get("not_found_title").to_string(),
            String::new(),
            &BTreeMap::new(),
        ),
    }
}

/// Every page of the sitemap: each language's home, the articles (with their translations
/// and last change), the tag pages, the listings' later pages and the extra pages.
pub(super) fn sitemap(inputs: &RenderInputs) -> Sitemap {
    let config = &inputs.config;
    let site = &inputs.site;
    let homes = || {
        config.langs().map(|l| Alternate {
            hreflang: l.code().to_string(),
            href: config.absolute(&config.lang_prefix(l)),
        })
    };
    let plain = |url: &str| SitemapUrl {
        loc: config.absolute(url),
        lastmod: None,
        alternates: Vec::new(),
    };
    let mut urls: Vec<SitemapUrl> = config
        .langs()
        .map(|l| SitemapUrl {
            loc: config.absolute(&config.lang_prefix(l)),
            lastmod: None,
            alternates: homes().collect(),
        })
        .collect();
    for (i, p) in site.pages.iter().enumerate() {
        let versions = meta::versions_of(inputs, i);
        let alternates = alternates(
            config,
            config
                .langs()
                .filter_map(|l| versions.get(l).map(|u| (l, u.as_str()))),
        );
        urls.push(SitemapUrl {
            loc: config.absolute(&p.url),
            lastmod: Some(p.doc.front.updated.unwrap_or(p.doc.front.date).to_string()),
            alternates,
        });
    }
    let tags = site.tags.values().flatten().map(|tag| plain(&tag.url));
    urls.extend(tags);
    urls.extend(
        super::listing::later_pages(inputs)
            .iter()
            .map(|url| plain(url)),
    );
    urls.extend(inputs.extra_pages.iter().map(|extra| plain(&extra.url)));
    for page in inputs.standalone.iter().filter(|p| !p.is_intro()) {
        let alternates = alternates(config, page.versions.iter().map(|(l, u)| (l, u.as_str())));
        urls.push(SitemapUrl {
            loc: config.absolute(&page.source.url),
            lastmod: None,
            alternates,
        });
    }
    Sitemap { urls }
}

/// A sitemap entry's other languages: none when the page has only one.
fn alternates<'u>(
    config: &SiteConfig,
    versions: impl Iterator<Item = (&'u Lang, &'u str)>,
) -> Vec<Alternate> {
    let all: Vec<Alternate> = versions
        .map(|(l, u)| Alternate {
            hreflang: l.code().to_string(),
            href: config.absolute(u),
        })
        .collect();
    if all.len() > 1 { all } else { Vec::new() }
}

/// `robots.txt`: where the sitemap is.
pub(super) fn robots(inputs: &RenderInputs) -> Robots {
    Robots {
        sitemap: inputs.config.absolute("/sitemap.xml"),
        allow: inputs.config.href("/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::inputs;

    #[test]
    fn the_sitemap_holds_every_page_with_its_translations() {
        let inputs = inputs();
        let sitemap = sitemap(&inputs);
        let entries: Vec<(&str, Option<&str>, usize)> = sitemap
            .urls
            .iter()
            .map(|u| (u.loc.as_str(), u.lastmod.as_deref(), u.alternates.len()))
            .collect();
        assert_eq!(
            entries,
            [
                ("https://e.org/", None, 2),
                ("https://e.org/en/", None, 2),
                ("https://e.org/dns/", Some("2026-02-01"), 2),
                ("https://e.org/only-vi/", Some("2026-01-03"), 0),
                ("https://e.org/tcp/", Some("2026-01-02"), 2),
                ("https://e.org/en/dns/", Some("2026-01-05"), 2),
                ("https://e.org/en/tcp/", Some("2026-01-02"), 2),
                // Tags by language code, then by slug.
                ("https://e.org/en/tags/dns/", None, 0),
                ("https://e.org/en/tags/network/", None, 0),
                ("https://e.org/tags/dns/", None, 0),
                ("https://e.org/tags/mang/", None, 0),
                ("https://e.org/experiments/dns/", None, 0),
            ]
        );
        assert_eq!(robots(&inputs).sitemap, "https://e.org/sitemap.xml");
    }

    #[test]
    fn the_404_page_is_in_the_default_language() {
        let meta = not_found(&inputs()).meta;
        assert_eq!(
            (meta.lang.as_str(), meta.title.as_str(), meta.url.as_str()),
            ("vi", "Không tìm thấy trang", "/404.html")
        );
        assert!(meta.alternates.is_empty() && meta.x_default.is_none());
    }
}

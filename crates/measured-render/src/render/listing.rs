//! A language's listings: its home page (`list.html`, newest articles first), its tag index
//! (`tags.html`) and a page per tag (`list.html`). The home page and the tag pages are split
//! into pages of `paginate` articles: page 1 at the listing's own URL, page n at
//! `<listing>page/<n>/`, each linked to its neighbours.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;

use serde::Serialize;

use measured_content::site::{PAGES, Tag};
use measured_core::lang::Lang;

use super::RenderInputs;
use super::link::{self, LinkCtx, TagLink};
use super::meta::{self, FeedLink, PageMeta};

/// The context of `list.html`: a heading and articles, and where the page is among the
/// listing's pages.
#[derive(Serialize)]
pub(super) struct ListPage {
    pub(super) meta: PageMeta,
    heading: String,
    /// The home page's introduction (`pages/index.<lang>.md`), on its first page only.
    intro: Option<String>,
    items: Vec<LinkCtx>,
    /// `None` when the listing fits on one page: no page numbers to show.
    pagination: Option<Pagination>,
}

/// The pagination nav of a page of a listing.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(super) struct Pagination {
    /// This page's number, from 1.
    current: usize,
    total: usize,
    prev: Option<String>,
    next: Option<String>,
    /// The numbers the nav shows: the first and last pages and those around this one, with a
    /// gap between (so a listing of a thousand pages shows a handful of numbers).
    pages: Vec<PageNumber>,
}

/// A page number in the nav, or a gap (`number` 0, no URL) between shown numbers.
#[derive(Serialize, Debug, PartialEq, Eq)]
struct PageNumber {
    number: usize,
    url: Option<String>,
    /// What a screen reader says for the link ("Trang 2").
    label: String,
    current: bool,
}

/// The context of `tags.html`: every tag of a language with its count.
#[derive(Serialize)]
pub(super) struct TagsPage {
    meta: PageMeta,
    tags: Vec<TagLink>,
}

/// What a listing says of itself, whichever its page.
struct Listing<'a> {
    lang: &'a Lang,
    /// The URL of page 1.
    url: &'a str,
    title: String,
    description: String,
    heading: String,
    /// Page 1 in each language that has it (the homes are each other's versions).
    versions: BTreeMap<Lang, String>,
}

/// The pages of the home page of `lang`: its articles, newest first, with the articles it
/// lacks in other languages where the site shows them (`show_untranslated`).
pub(super) fn home(inputs: &RenderInputs, lang: &Lang) -> Vec<ListPage> {
    let config = &inputs.config;
    let lc = config.language(lang);
    let url = config.lang_prefix(lang);
    let listing = Listing {
        lang,
        url: &url,
        title: lc.title.clone(),
        description: lc.description.clone(),
        heading: inputs.strings[lang].get("latest_articles").to_string(),
        versions: config
            .langs()
            .map(|l| (l.clone(), config.lang_prefix(l)))
            .collect(),
    };
    let mut pages = pages(inputs, &listing, &home_listed(inputs, lang));
    pages[0].intro = inputs
        .standalone
        .iter()
        .find(|p| p.is_intro() && &p.source.lang == lang)
        .map(|p| p.body.html.clone());
    pages
}

/// The articles the home page of `lang` lists, newest first.
fn home_listed(inputs: &RenderInputs, lang: &Lang) -> Vec<usize> {
    let site = &inputs.site;
    let mut listed: Vec<usize> = site.by_lang.get(lang).cloned().unwrap_or_default();
    if inputs.config.show_untranslated {
        listed.extend(site.untranslated_into(lang));
        listed.sort_by_key(|&i| std::cmp::Reverse(site.pages[i].doc.front.date));
    }
    listed
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

/// The pages of `tag`, a tag of `lang`.
pub(super) fn tag_pages(inputs: &RenderInputs, lang: &Lang, tag: &Tag) -> Vec<ListPage> {
    let title = inputs.strings[lang].fill("tag_title", &[("tag", &tag.name)]);
    let listing = Listing {
        lang,
        url: &tag.url,
        title: title.clone(),
        description: title.clone(),
        heading: title,
        versions: meta::only(lang, &tag.url),
    };
    let mut pages = pages(inputs, &listing, &tag.pages);
    for page in &mut pages {
        page.meta.feed = Some(FeedLink {
            url: format!("{}{}", tag.url, super::feed::FILE),
            title: inputs.strings[lang].fill("tag_feed", &[("tag", &tag.name)]),
        });
    }
    pages
}

/// The pages of `listing`, whose articles are `listed`: `paginate` articles a page, and one
/// page when there are none.
fn pages(inputs: &RenderInputs, listing: &Listing, listed: &[usize]) -> Vec<ListPage> {
    let size = inputs.config.paginate.map_or(usize::MAX, NonZeroUsize::get);
    let chunks: Vec<&[usize]> = match listed {
        [] => vec![&[]],
        _ => listed.chunks(size).collect(),
    };
    let total = chunks.len();
    let t = &inputs.strings[listing.lang];
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let n = i + 1;
            let url = page_url(listing.url, n);
            let (title, versions) = match n {
                1 => (listing.title.clone(), listing.versions.clone()),
                _ => (
                    t.fill(
                        "page_title",
                        &[("title", &listing.title), ("n", &n.to_string())],
                    ),
                    meta::only(listing.lang, &url),
                ),
            };
            let description = listing.description.clone();
            let mut meta = meta::meta(inputs, listing.lang, &url, title, description, &versions);
            let pagination = (total > 1).then(|| pagination(inputs, listing, n, total));
            if let Some(p) = &pagination {
                meta.prev = p.prev.as_deref().map(|u| inputs.config.absolute(u));
                meta.next = p.next.as_deref().map(|u| inputs.config.absolute(u));
            }
            ListPage {
                meta,
                heading: listing.heading.clone(),
                intro: None,
                items: links(inputs, chunk, listing.lang),
                pagination,
            }
        })
        .collect()
}

/// The nav of page `n` of `total` of `listing`.
fn pagination(inputs: &RenderInputs, listing: &Listing, n: usize, total: usize) -> Pagination {
    let t = &inputs.strings[listing.lang];
    let mut pages = Vec::new();
    let mut last = 0;
    for number in shown_numbers(n, total) {
        if number > last + 1 {
            pages.push(PageNumber {
                number: 0,
                url: None,
                label: String::new(),
                current: false,
            });
        }
        pages.push(PageNumber {
            number,
            url: Some(page_url(listing.url, number)),
            label: t.fill("page_n", &[("n", &number.to_string())]),
            current: number == n,
        });
        last = number;
    }
    Pagination {
        current: n,
        total,
        prev: (n > 1).then(|| page_url(listing.url, n - 1)),
        next: (n < total).then(|| page_url(listing.url, n + 1)),
        pages,
    }
}

/// The page numbers the nav of page `n` of `total` shows: 1, `total` and two either side of `n`.
fn shown_numbers(n: usize, total: usize) -> impl Iterator<Item = usize> {
    (1..=total).filter(move |&k| k == 1 || k == total || k.abs_diff(n) <= 2)
}

/// The URL of page `n` of the listing at `url`: `url` itself for page 1, else `url` +
/// `page/<n>/`.
pub(super) fn page_url(url: &str, n: usize) -> String {
    match n {
        1 => url.to_string(),
        _ => format!("{url}{PAGES}/{n}/"),
    }
}

/// The URLs of every listing page after the first (home pages and tag pages, every language),
/// for the sitemap.
pub(super) fn later_pages(inputs: &RenderInputs) -> Vec<String> {
    let Some(size) = inputs.config.paginate else {
        return Vec::new();
    };
    let count = |n: usize| n.div_ceil(size.get());
    let mut urls = Vec::new();
    for lang in inputs.config.langs() {
        let home = home_listed(inputs, lang).len();
        let prefix = inputs.config.lang_prefix(lang);
        urls.extend((2..=count(home)).map(|n| page_url(&prefix, n)));
        for tag in tags(inputs, lang) {
            urls.extend((2..=count(tag.pages.len())).map(|n| page_url(&tag.url, n)));
        }
    }
    urls
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
    use std::num::NonZeroUsize;

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
        let [home] = &home(&inputs, &vi)[..] else {
            panic!("three articles fit on one page")
        };
        assert_eq!(home.heading, "Bài mới nhất");
        assert_eq!(urls(&home.items), ["/dns/", "/only-vi/", "/tcp/"]);
        assert_eq!(home.pagination, None);
        assert_eq!(
            (home.meta.prev.as_deref(), home.meta.next.as_deref()),
            (None, None)
        );
        let [home] = &super::home(&inputs, &en)[..] else {
            panic!("one page")
        };
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
        let [page] = &tag_pages(&inputs, &vi, mang)[..] else {
            panic!("one page")
        };
        assert_eq!(page.heading, "Bài gắn thẻ “mạng”");
        assert_eq!(urls(&page.items), ["/dns/", "/only-vi/", "/tcp/"]);
        assert!(page.items.iter().all(|l| l.only_in.is_none()));
        assert!(later_pages(&inputs).is_empty());
    }

    /// (URL, articles, prev, next, `<link rel>` prev and next) of each page.
    type Shape<'a> = (&'a str, Vec<&'a str>, Option<&'a str>, Option<&'a str>);

    fn shape(pages: &[ListPage]) -> Vec<Shape<'_>> {
        pages
            .iter()
            .map(|p| {
                let nav = p.pagination.as_ref().expect("a paginated listing");
                assert_eq!(
                    (p.meta.prev.clone(), p.meta.next.clone()),
                    (
                        nav.prev.as_ref().map(|u| format!("https://e.org{u}")),
                        nav.next.as_ref().map(|u| format!("https://e.org{u}"))
                    )
                );
                (
                    p.meta.url.as_str(),
                    urls(&p.items),
                    nav.prev.as_deref(),
                    nav.next.as_deref(),
                )
            })
            .collect()
    }

    #[test]
    fn listings_longer_than_a_page_are_split_and_linked_to_their_neighbours() {
        let mut inputs = inputs();
        inputs.config.paginate = NonZeroUsize::new(2);
        let vi = inputs.config.default_lang.clone();
        let home = home(&inputs, &vi);
        assert_eq!(
            shape(&home),
            [
                ("/", vec!["/dns/", "/only-vi/"], None, Some("/page/2/")),
                ("/page/2/", vec!["/tcp/"], Some("/"), None),
            ]
        );
        assert_eq!(home[0].meta.title, "Đo thật");
        assert_eq!(home[1].meta.title, "Đo thật, trang 2");
        assert_eq!(home[1].meta.canonical, "https://e.org/page/2/");
        assert!(
            home[1].meta.alternates.is_empty(),
            "page 2 is no translation"
        );
        assert_eq!(home[0].meta.alternates.len(), 2, "the homes are");
        let mang = &super::tags(&inputs, &vi)[1];
        let tag = tag_pages(&inputs, &vi, mang);
        assert_eq!(
            shape(&tag),
            [
                (
                    "/tags/mang/",
                    vec!["/dns/", "/only-vi/"],
                    None,
                    Some("/tags/mang/page/2/")
                ),
                (
                    "/tags/mang/page/2/",
                    vec!["/tcp/"],
                    Some("/tags/mang/"),
                    None
                ),
            ]
        );
        let en = inputs.config.lang("en").unwrap();
        assert_eq!(
            super::home(&inputs, en)[1].meta.title,
            "Measured, page 2",
            "in the page's language"
        );
        assert_eq!(
            later_pages(&inputs),
            ["/page/2/", "/tags/mang/page/2/", "/en/page/2/"]
        );
    }

    #[test]
    fn the_nav_shows_the_ends_and_the_pages_around_this_one() {
        let numbers = |n, total| shown_numbers(n, total).collect::<Vec<_>>();
        assert_eq!(numbers(1, 1), [1]);
        assert_eq!(numbers(1, 3), [1, 2, 3]);
        assert_eq!(numbers(6, 20), [1, 4, 5, 6, 7, 8, 20]);
        assert_eq!(numbers(20, 20), [1, 18, 19, 20]);
        let mut inputs = inputs();
        inputs.config.paginate = NonZeroUsize::new(1);
        let vi = inputs.config.default_lang.clone();
        let listing = Listing {
            lang: &vi,
            url: "/tags/x/",
            title: "x".into(),
            description: String::new(),
            heading: "x".into(),
            versions: BTreeMap::new(),
        };
        let nav = pagination(&inputs, &listing, 5, 9);
        let shown: Vec<(usize, Option<&str>, &str, bool)> = nav
            .pages
            .iter()
            .map(|p| (p.number, p.url.as_deref(), p.label.as_str(), p.current))
            .collect();
        assert_eq!(
            shown,
            [
                (1, Some("/tags/x/"), "Trang 1", false),
                (0, None, "", false),
                (3, Some("/tags/x/page/3/"), "Trang 3", false),
                (4, Some("/tags/x/page/4/"), "Trang 4", false),
                (5, Some("/tags/x/page/5/"), "Trang 5", true),
                (6, Some("/tags/x/page/6/"), "Trang 6", false),
                (7, Some("/tags/x/page/7/"), "Trang 7", false),
                (0, None, "", false),
                (9, Some("/tags/x/page/9/"), "Trang 9", false),
            ]
        );
    }

    #[test]
    fn without_pagination_everything_is_on_one_page() {
        let mut inputs = inputs();
        inputs.config.paginate = None;
        let vi = inputs.config.default_lang.clone();
        let pages = home(&inputs, &vi);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].items.len(), 3);
        assert!(later_pages(&inputs).is_empty());
    }
}

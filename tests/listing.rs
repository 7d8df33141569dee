//! Paginated listings: the home page of each language and the tag pages split into pages of
//! `paginate` articles (page 1 at the listing's URL, page n at `<listing>page/<n>/`), linked to
//! their neighbours in the nav and the head, listed in the sitemap.

mod common;

use common::{TestSite, attrs, html, texts};

/// A site of `n` articles in both languages, dated one a day (article 1 the oldest), all tagged
/// `đo` / `measure`, with `extra` before the minimal site.toml.
fn site_of(n: usize, extra: &str) -> TestSite {
    let site = TestSite::new();
    site.write("site.toml", &format!("{extra}\n{}", common::SITE_TOML));
    for i in 1..=n {
        let date = format!("2026-{:02}-{:02}", 1 + (i - 1) / 28, 1 + (i - 1) % 28);
        let slug = format!("a{i:02}");
        let front =
            |title: &str, tag: &str| format!("title: {title} {i}\ndate: {date}\ntags: [{tag}]");
        site.article(&slug, "vi", &front("Bài", "đo"), "Thân bài.\n");
        site.article(&slug, "en", &front("Article", "measure"), "Body.\n");
    }
    site
}

/// What a listing page shows: (articles' links, nav's prev, nav's numbers, the current one,
/// nav's next, `<link rel=prev>`, `<link rel=next>`).
#[derive(Debug, PartialEq)]
struct Shown {
    articles: Vec<String>,
    prev: Vec<String>,
    numbers: Vec<String>,
    current: Vec<String>,
    next: Vec<String>,
    head_prev: Vec<String>,
    head_next: Vec<String>,
}

fn shown(built: &measured::Built, path: &str) -> Shown {
    let page = html(built, path);
    Shown {
        articles: attrs(&page, ".article-list h2 a", "href"),
        prev: attrs(&page, "nav.pagination a[rel=prev]", "href"),
        numbers: texts(&page, "nav.pagination li"),
        current: texts(&page, "nav.pagination [aria-current=page]"),
        next: attrs(&page, "nav.pagination a[rel=next]", "href"),
        head_prev: attrs(&page, "head link[rel=prev]", "href"),
        head_next: attrs(&page, "head link[rel=next]", "href"),
    }
}

/// `/a25/` … for articles `from` down to `to`, under `prefix`.
fn articles(prefix: &str, from: usize, to: usize) -> Vec<String> {
    (to..=from)
        .rev()
        .map(|i| format!("{prefix}a{i:02}/"))
        .collect()
}

fn strings(s: &[&str]) -> Vec<String> {
    s.iter().map(|s| s.to_string()).collect()
}

#[test]
fn twenty_five_articles_make_three_pages_per_listing_with_their_neighbours() {
    let site = site_of(25, "paginate = 10");
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    for (prefix, lang_words) in [
        ("/", ["Trang trước", "Trang sau"]),
        ("/en/", ["Previous page", "Next page"]),
    ] {
        let file = |p: &str| format!("{}{p}index.html", prefix.trim_start_matches('/'));
        let abs = |u: &str| format!("https://example.org{u}");
        let page2 = format!("{prefix}page/2/");
        let page3 = format!("{prefix}page/3/");
        assert_eq!(
            shown(&built, &file("")),
            Shown {
                articles: articles(prefix, 25, 16),
                prev: vec![],
                numbers: strings(&["1", "2", "3", lang_words[1]]),
                current: strings(&["1"]),
                next: vec![page2.clone()],
                head_prev: vec![],
                head_next: vec![abs(&page2)],
            }
        );
        assert_eq!(
            shown(&built, &file("page/2/")),
            Shown {
                articles: articles(prefix, 15, 6),
                prev: vec![prefix.to_string()],
                numbers: strings(&[lang_words[0], "1", "2", "3", lang_words[1]]),
                current: strings(&["2"]),
                next: vec![page3.clone()],
                head_prev: vec![abs(prefix)],
                head_next: vec![abs(&page3)],
            }
        );
        assert_eq!(
            shown(&built, &file("page/3/")),
            Shown {
                articles: articles(prefix, 5, 1),
                prev: vec![page2.clone()],
                numbers: strings(&[lang_words[0], "1", "2", "3"]),
                current: strings(&["3"]),
                next: vec![],
                head_prev: vec![abs(&page2)],
                head_next: vec![],
            }
        );
        assert!(
            built.output.get(&file("page/1/")).is_none(),
            "page 1 is the listing itself"
        );
        assert!(built.output.get(&file("page/4/")).is_none());
        // Every link of the nav leads to a page of the output.
        for p in ["", "page/2/", "page/3/"] {
            for href in attrs(&html(&built, &file(p)), "nav.pagination a", "href") {
                let target = format!("{}index.html", href.trim_start_matches('/'));
                assert!(
                    built.output.get(&target).is_some(),
                    "{href} from {prefix}{p}"
                );
            }
        }
    }
    // The tag pages too, in their language.
    let tag = shown(&built, "tags/do/page/2/index.html");
    assert_eq!(tag.articles, articles("/", 15, 6));
    assert_eq!(
        (tag.prev, tag.next),
        (strings(&["/tags/do/"]), strings(&["/tags/do/page/3/"]))
    );
    let tag = shown(&built, "en/tags/measure/page/3/index.html");
    assert_eq!(tag.articles, articles("/en/", 5, 1));
    // Each page names itself, in its language, and is its own canonical URL.
    let page = html(&built, "en/page/2/index.html");
    assert_eq!(texts(&page, "title"), ["Measured, page 2 · Measured"]);
    assert_eq!(
        attrs(&page, "link[rel=canonical]", "href"),
        ["https://example.org/en/page/2/"]
    );
    assert_eq!(attrs(&page, "nav.pagination", "aria-label"), ["Pagination"]);
    assert_eq!(
        attrs(&page, "nav.pagination li a[aria-label]", "aria-label"),
        ["Page 1", "Page 3"]
    );
    let page = html(&built, "page/3/index.html");
    assert_eq!(texts(&page, "title"), ["Đo thật, trang 3 · Đo thật"]);
    assert_eq!(attrs(&page, "nav.pagination", "aria-label"), ["Phân trang"]);
}

#[test]
fn the_sitemap_lists_every_page_of_the_listings_and_feeds_keep_their_limit() {
    let site = site_of(25, "paginate = 10\nfeed_limit = 4");
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let sitemap = built.output.text("sitemap.xml").expect("a sitemap");
    let doc = roxmltree::Document::parse(&sitemap).expect("XML");
    let locs: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("loc"))
        .filter_map(|n| n.text())
        .filter(|u| u.contains("/page/"))
        .collect();
    let mut expected: Vec<String> = [
        "/page/",
        "/tags/do/page/",
        "/en/page/",
        "/en/tags/measure/page/",
    ]
    .iter()
    .flat_map(|p| (2..=3).map(move |n| format!("https://example.org{p}{n}/")))
    .collect();
    expected.sort();
    let mut locs: Vec<String> = locs.into_iter().map(str::to_string).collect();
    locs.sort();
    assert_eq!(locs, expected);
    let feed = built.output.text("atom.xml").expect("a feed");
    let entries = roxmltree::Document::parse(&feed)
        .expect("XML")
        .descendants()
        .filter(|n| n.has_tag_name("entry"))
        .count();
    assert_eq!(entries, 4);
}

#[test]
fn a_listing_that_fits_on_a_page_is_the_same_as_without_pagination() {
    // The blog's size: 19 articles in each language.
    let paginated = site_of(19, "paginate = 20")
        .build()
        .unwrap_or_else(|d| panic!("{d}"));
    let plain = site_of(19, "paginate = 0")
        .build()
        .unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(paginated.output, plain.output);
    let home = shown(&paginated, "index.html");
    assert_eq!(home.articles, articles("/", 19, 1));
    assert!(
        home.numbers.is_empty() && home.head_next.is_empty(),
        "{home:?}"
    );
    assert!(!paginated.output.files.keys().any(|p| p.contains("page/")));
    // With the default page size of 10 the same blog has a second page.
    let default = site_of(19, "").build().unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        shown(&default, "index.html").articles,
        articles("/", 19, 10)
    );
    assert_eq!(
        shown(&default, "page/2/index.html").articles,
        articles("/", 9, 1)
    );
}

#[test]
fn an_article_on_the_pages_url_is_an_error_naming_it_unless_nothing_is_paginated() {
    let site = site_of(2, "paginate = 10");
    site.article(
        "trang",
        "vi",
        "title: Trang\ndate: 2026-03-01\nslug: page",
        "x\n",
    );
    let e = site.build_err();
    assert!(
        e.contains("content/trang/index.vi.md:4:1: error: the page's URL /page/ is taken by the later pages of the home page of `vi` (/page/2/, …)"),
        "{e}"
    );
    site.article("page", "en", "title: Page\ndate: 2026-03-01", "x\n");
    let e = site.build_err();
    assert!(e.contains("content/page/index.en.md: error: the page's URL /en/page/ is taken by the later pages of the home page of `en` (/en/page/2/, …)"), "{e}");
    site.write("site.toml", &format!("paginate = 0\n{}", common::SITE_TOML));
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert!(built.output.get("page/index.html").is_some());
}

/// The entries' links and the feed's own and alternate links of the Atom feed at `path`.
fn feed_links(built: &measured::Built, path: &str) -> (Vec<String>, String, String, String) {
    let text = built
        .output
        .text(path)
        .unwrap_or_else(|| panic!("no {path}"));
    let doc = roxmltree::Document::parse(&text).expect("the feed is XML");
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2005/Atom")
    );
    let link = |n: roxmltree::Node<'_, '_>, rel: &str| {
        n.children()
            .find(|c| c.has_tag_name("link") && c.attribute("rel") == Some(rel))
            .and_then(|c| c.attribute("href"))
            .unwrap_or_default()
            .to_string()
    };
    let entries = root
        .children()
        .filter(|n| n.has_tag_name("entry"))
        .map(|e| link(e, "alternate"))
        .collect();
    let title = root
        .children()
        .find(|c| c.has_tag_name("title"))
        .and_then(|c| c.text())
        .unwrap_or_default()
        .to_string();
    (entries, link(root, "self"), link(root, "alternate"), title)
}

#[test]
fn each_tag_has_its_feed_linked_from_its_page() {
    let site = site_of(3, "feed_limit = 2");
    site.article(
        "b",
        "vi",
        "title: Khác\ndate: 2026-03-01\ntags: [khác]",
        "Thân.\n",
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let (entries, self_url, home, title) = feed_links(&built, "tags/do/atom.xml");
    assert_eq!(
        entries,
        ["https://example.org/a03/", "https://example.org/a02/"],
        "the tag's newest feed_limit articles, and only the tag's"
    );
    assert_eq!(self_url, "https://example.org/tags/do/atom.xml");
    assert_eq!(home, "https://example.org/tags/do/");
    assert_eq!(title, "Bài gắn thẻ “đo” · Đo thật");
    let (entries, self_url, _, title) = feed_links(&built, "en/tags/measure/atom.xml");
    assert_eq!(
        entries,
        ["https://example.org/en/a03/", "https://example.org/en/a02/"]
    );
    assert_eq!(self_url, "https://example.org/en/tags/measure/atom.xml");
    assert_eq!(title, "Articles tagged “measure” · Measured");
    let page = html(&built, "tags/do/index.html");
    assert_eq!(
        attrs(
            &page,
            "head link[rel=alternate][type='application/atom+xml']",
            "href"
        ),
        ["/atom.xml", "/tags/do/atom.xml"]
    );
    assert_eq!(
        texts(&page, "main a[href='/tags/do/atom.xml']"),
        ["Nguồn tin Atom của thẻ “đo”"]
    );
    let home_page = html(&built, "index.html");
    assert_eq!(
        attrs(&home_page, "head link[type='application/atom+xml']", "href"),
        ["/atom.xml"],
        "only tag pages have a tag feed"
    );
    let sitemap = built.output.text("sitemap.xml").unwrap();
    assert!(
        !sitemap.contains("atom.xml"),
        "feeds stay out of the sitemap, as the site's own do"
    );
}

//! `aliases:`: old URLs answered by redirect pages, kept out of the sitemap and the search
//! index, and every collision an error naming both sides.

mod common;

use common::{TestSite, attrs, html, texts};

fn site_with_aliases() -> TestSite {
    let site = TestSite::new();
    site.article(
        "x",
        "vi",
        "title: Bài X\ndate: 2026-01-01\naliases: [/posts/iot/hardware/x/, /2016/01/x.html]",
        "Nội dung.\n",
    );
    site.article(
        "x",
        "en",
        "title: Post X\ndate: 2026-01-01\naliases: [\"https://old.example.org/en/posts/x/\"]",
        "Text.\n",
    );
    site.article(
        "y",
        "vi",
        "title: Bài Y\ndate: 2026-01-02",
        "Xem [bài cũ](/posts/iot/hardware/x/).\n",
    );
    site
}

fn relative(site: &TestSite, e: String) -> String {
    e.replace(&format!("{}/", site.root().display()), "")
}

#[test]
fn each_alias_is_a_redirect_page_to_the_article() {
    let b = site_with_aliases()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    // The refresh and the link stay on the site serving the page (a preview, a base path);
    // the canonical link names the address.
    for (file, lang, target) in [
        ("posts/iot/hardware/x/index.html", "vi", "/x/"),
        ("2016/01/x.html", "vi", "/x/"),
        ("en/posts/x/index.html", "en", "/en/x/"),
    ] {
        let page = html(&b, file);
        assert_eq!(attrs(&page, "html", "lang"), [lang], "{file}");
        assert_eq!(
            attrs(&page, "link[rel=canonical]", "href"),
            [format!("https://example.org{target}")],
            "{file}"
        );
        assert_eq!(
            attrs(&page, "meta[http-equiv=refresh]", "content"),
            [format!("0; url={target}")],
            "{file}"
        );
        assert_eq!(attrs(&page, "meta[name=robots]", "content"), ["noindex"]);
        assert_eq!(
            attrs(&page, "body a", "href"),
            [target],
            "a link to follow by hand"
        );
    }
    let en = html(&b, "en/posts/x/index.html");
    assert_eq!(texts(&en, "body p"), ["This article has moved to Post X"]);
    let vi = html(&b, "posts/iot/hardware/x/index.html");
    assert_eq!(texts(&vi, "body p"), ["Bài viết đã chuyển đến Bài X"]);
}

#[test]
fn aliases_stay_out_of_the_sitemap_and_the_search_index() {
    let b = site_with_aliases()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let sitemap = b.output.text("sitemap.xml").unwrap();
    assert!(sitemap.contains("https://example.org/x/"), "{sitemap}");
    assert!(!sitemap.contains("posts/"), "{sitemap}");
    assert!(!sitemap.contains("2016"), "{sitemap}");
    let search: Vec<&String> = b
        .output
        .files
        .keys()
        .filter(|p| p.starts_with("search/"))
        .collect();
    assert!(!search.is_empty(), "the site has a search index");
    for file in search {
        let text = b.output.text(file).unwrap_or_default();
        assert!(!text.contains("posts/iot"), "{file} lists an alias");
    }
}

#[test]
fn two_articles_with_one_alias_are_an_error_naming_both() {
    let site = site_with_aliases();
    site.article(
        "z",
        "vi",
        "title: Z\ndate: 2026-01-03\naliases: [/2016/01/x.html]",
        "z\n",
    );
    let e = relative(&site, site.build_err());
    let line = e
        .lines()
        .find(|l| l.contains("two articles claim the alias /2016/01/x.html: "))
        .unwrap_or_else(|| panic!("{e}"));
    assert!(
        line.contains("content/x/index.vi.md") && line.contains("content/z/index.vi.md"),
        "{line}"
    );
    assert!(
        line.contains("index.vi.md:4:1: error:"),
        "at the aliases line: {line}"
    );
}

#[test]
fn an_alias_that_is_a_page_or_a_listing_or_a_file_is_an_error() {
    let site = site_with_aliases();
    site.article(
        "z",
        "vi",
        "title: Z\ndate: 2026-01-03\naliases: [/y/, /tags/]",
        "z\n",
    );
    let e = relative(&site, site.build_err());
    assert!(
        e.contains("content/z/index.vi.md:4:1: error: the alias /y/ is the URL of the page content/y/index.vi.md"),
        "{e}"
    );
    assert!(
        e.contains("error: the alias /tags/ is taken by the tag index"),
        "{e}"
    );
    site.article(
        "z",
        "vi",
        "title: Z\ndate: 2026-01-03\naliases: [/z/../x/]",
        "z\n",
    );
    let e = relative(&site, site.build_err());
    assert!(
        e.contains("content/z/index.vi.md:4:1: error: front matter: alias `/z/../x/`: its segment `..` names a folder, not a page"),
        "{e}"
    );
    site.article(
        "z",
        "vi",
        "title: Z\ndate: 2026-01-03\naliases: [/atom.xml]",
        "z\n",
    );
    let e = relative(&site, site.build_err());
    assert!(
        e.contains("content/z/index.vi.md:4:1: error: the alias /atom.xml/ is taken by the file atom.xml of the site"),
        "{e}"
    );
}

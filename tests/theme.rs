//! The theme on real posts (issue 38): a table of contents nested by level, a header whose
//! controls stay together, a site in one language without a language switch or translation
//! wording, no link to an empty tag index, and redirect pages (aliases and `[redirects]`)
//! that stay on the site serving them, under a base path too.

mod common;

use common::{TestSite, attrs, html, texts};

const ONE_LANGUAGE: &str = "base_url = \"https://example.org/blog/\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Một ngôn ngữ\"\n";

#[test]
fn the_table_of_contents_nests_each_h3_under_its_h2() {
    let site = TestSite::new();
    site.article(
        "dai",
        "vi",
        "title: Dài\ndate: 2024-01-01",
        "## Một\n\n### Một a\n\n### Một b\n\n## Hai\n\n### Hai a\n\n## Ba\n",
    );
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    let page = html(&built, "dai/index.html");
    assert_eq!(
        texts(&page, ".toc > ol > li > a"),
        ["Một", "Hai", "Ba"],
        "the sections, numbered 1, 2, 3"
    );
    assert_eq!(
        attrs(&page, ".toc > ol > li:first-child > ol > li > a", "href"),
        ["#mot-a", "#mot-b"]
    );
    assert_eq!(
        texts(&page, ".toc > ol > li:nth-child(2) > ol > li"),
        ["Hai a"]
    );
    assert!(attrs(&page, ".toc > ol > li:nth-child(3) ol", "class").is_empty());
}

#[test]
fn the_headers_buttons_stay_together_after_the_links() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2024-01-01\ntags: [mạng]", "x\n");
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    let page = html(&built, "a/index.html");
    assert_eq!(
        attrs(
            &page,
            ".site-nav > .site-tools > .site-buttons > button",
            "class"
        ),
        ["search-open", "theme-toggle"]
    );
    assert_eq!(
        attrs(&page, ".site-nav > .site-tools > .site-links > a", "href"),
        ["/tags/"]
    );
}

#[test]
fn a_site_in_one_language_has_no_switch_no_translation_wording_and_no_empty_tag_index_link() {
    let site = TestSite::new();
    site.write("site.toml", ONE_LANGUAGE);
    site.article("a", "vi", "title: A\ndate: 2024-01-01", "x\n");
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    for page in ["index.html", "a/index.html", "404.html", "tags/index.html"] {
        let doc = html(&built, page);
        assert!(texts(&doc, ".lang-switch").is_empty(), "{page}");
        assert!(
            !attrs(&doc, ".site-nav a", "href")
                .iter()
                .any(|h| h.ends_with("/tags/")),
            "{page}: no article has a tag, so the tag index is not linked"
        );
    }
    let not_found = html(&built, "404.html");
    assert_eq!(
        texts(&not_found, "main p"),
        [
            "Trang bạn tìm không có ở đây. Có thể đường dẫn đã đổi.",
            "Về trang chủ"
        ]
    );
    assert_eq!(attrs(&not_found, "main a", "href"), ["/blog/"]);
    site.article("b", "vi", "title: B\ndate: 2024-01-02\ntags: [mạng]", "y\n");
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        attrs(&html(&built, "a/index.html"), ".site-links > a", "href"),
        ["/blog/tags/"],
        "linked once a tag exists, on every page"
    );
}

#[test]
fn a_site_in_two_languages_keeps_its_switch_and_404_wording() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2024-01-01", "x\n");
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    let not_found = html(&built, "404.html");
    assert!(
        texts(&not_found, "main p")[0].ends_with("hoặc bài chưa được dịch."),
        "{:?}",
        texts(&not_found, "main p")
    );
    assert_eq!(attrs(&not_found, "main li a", "href"), ["/", "/en/"]);
    assert!(!texts(&html(&built, "a/index.html"), ".lang-switch").is_empty());
}

#[test]
fn redirect_pages_lead_to_the_sites_own_path_under_a_base_path() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!(
            "{ONE_LANGUAGE}\n[redirects]\n\"/posts/\" = \"/\"\n\"/tags/m%E1%BA%A1ng/\" = \"/tags/mang/\"\n\"/index.xml\" = \"/atom.xml\"\n\"/tags/mạng/index.xml\" = \"/tags/mang/atom.xml\"\n"
        ),
    );
    site.article(
        "a",
        "vi",
        "title: Bài <A>\ndate: 2024-01-01\ntags: [mạng]\naliases: [/2024/a/]",
        "x\n",
    );
    let built = site.build().unwrap_or_else(|e| panic!("{e}"));
    let alias = html(&built, "2024/a/index.html");
    assert_eq!(
        attrs(&alias, "meta[http-equiv=refresh]", "content"),
        ["0; url=/blog/a/"],
        "the preview (serve) and the deployed site both answer /blog/a/"
    );
    assert_eq!(
        attrs(&alias, "link[rel=canonical]", "href"),
        ["https://example.org/blog/a/"]
    );
    let tag = html(&built, "tags/mạng/index.html");
    assert_eq!(
        attrs(&tag, "meta[http-equiv=refresh]", "content"),
        ["0; url=/blog/tags/mang/"]
    );
    assert_eq!(texts(&tag, "body a"), ["Bài gắn thẻ “mạng” · Một ngôn ngữ"]);
    assert_eq!(
        attrs(&html(&built, "posts/index.html"), "body a", "href"),
        ["/blog/"]
    );
    for (old, new) in [
        ("index.xml", "atom.xml"),
        ("tags/mạng/index.xml", "tags/mang/atom.xml"),
    ] {
        let feed = built.output.get(new).expect("feed");
        assert_eq!(
            built.output.get(old),
            Some(feed),
            "{old} is the feed itself"
        );
    }
}

#[test]
fn redirects_leading_nowhere_or_over_a_page_fail_together_at_their_lines() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!(
            "{ONE_LANGUAGE}\n[redirects]\n\"/old/\" = \"/nothing/\"\n\"/a/\" = \"/\"\n\"/feed.xml\" = \"/nothing.xml\"\n\"/../x/\" = \"/\"\n"
        ),
    );
    site.article("a", "vi", "title: A\ndate: 2024-01-01", "x\n");
    let err = site.build_err();
    assert!(
        err.contains(
            "site.toml:10:1: error: [redirects] `/../x/`: its segment `..` starts with `.`"
        ),
        "{err}"
    );
    site.write(
        "site.toml",
        &format!(
            "{ONE_LANGUAGE}\n[redirects]\n\"/old/\" = \"/nothing/\"\n\"/a/\" = \"/\"\n\"/feed.xml\" = \"/nothing.xml\"\n"
        ),
    );
    let err = site.build_err();
    for line in [
        "site.toml:7:1: error: [redirects] /old/ leads to /nothing/, where the site publishes nothing",
        "site.toml:8:1: error: [redirects] /a/: the site already publishes /a/index.html, which a redirect would replace",
        "site.toml:9:1: error: [redirects] /feed.xml leads to /nothing.xml, where the site publishes nothing",
    ] {
        assert!(err.contains(line), "{line}\n{err}");
    }
}

//! The link check finds what is broken and only that: percent-encoded UTF-8 paths resolve,
//! raw HTML's `href` and `src` are checked, malformed URLs are flagged, and a link to a draft
//! says it is one.

mod common;

use common::TestSite;

fn relative(site: &TestSite, e: &str) -> String {
    e.replace(&format!("{}/", site.root().display()), "")
}

#[test]
fn a_percent_encoded_utf8_file_name_is_found() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "![ảnh](%E1%BA%A3nh.png) và [ảnh](/a/%E1%BA%A3nh.png) và <img src=\"ảnh.png\" alt=\"ảnh\">\n",
    );
    site.write("content/a/ảnh.png", "png");
    site.build().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn raw_html_links_malformed_urls_and_drafts_are_reported_at_their_lines() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        "Đoạn đầu.\n\n<a href=\"/missing/\">x</a>\n\n<p><img src='gone.png'></p>\n\n[x](9https://example.org/)\n\n[nháp](/nhap/)\n",
    );
    site.article(
        "nhap",
        "vi",
        "title: Nháp\ndate: 2026-01-01\ndraft: true",
        "x\n",
    );
    let e = relative(&site, &site.build_err());
    let firsts: Vec<&str> = e.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(
        firsts,
        [
            "content/a/index.vi.md:7:4: error: broken link `/missing/`: nothing is published at /missing/",
            "content/a/index.vi.md:9:9: error: broken link `gone.png`: nothing is published at /a/gone.png",
            "content/a/index.vi.md:11:1: error: broken link `9https://example.org/`: it is not a URL: `9https:` is no scheme (a scheme starts with a letter)",
            "content/a/index.vi.md:13:1: error: broken link `/nhap/`: /nhap/ is a draft (content/nhap/index.vi.md), which is not published",
        ],
        "{e}"
    );
    assert!(
        e.contains(
            "= help: publish it (remove `draft: true`), or preview with `measured build --drafts`"
        ),
        "{e}"
    );
    let mut opts = site.options();
    opts.drafts = true;
    let built = measured::build_in_memory(&opts);
    let e = relative(
        &site,
        &built.err().map(|d| d.to_string()).unwrap_or_default(),
    );
    assert!(
        !e.contains("/nhap/"),
        "built with drafts, the link works: {e}"
    );
}

#[test]
fn braces_in_prose_on_a_site_without_experiments_name_the_line() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "Đoạn đầu.\n\nMẫu {{ ten }} ở đây.\n",
    );
    let e = relative(&site, &site.build_err());
    assert!(
        e.starts_with("content/a/index.vi.md:7:5: error: unknown experiment `ten` in `ten`"),
        "{e}"
    );
    assert!(!e.contains("Cargo.toml"), "{e}");
    assert!(e.contains("put it in backticks"), "{e}");
}

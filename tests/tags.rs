//! Tags that keep their identity: variants of case and spacing merged with a warning, tags
//! that would share a URL an error naming both (and a `[tags]` table to give one its own), a
//! tag with no URL an error.

mod common;

use common::{SITE_TOML, TestSite, attrs, html, texts};

/// The article's own tag links (not the menu's tag index).
fn tag_links(doc: &scraper::Html) -> Vec<String> {
    attrs(doc, "a[href^='/tags/']", "href")
        .into_iter()
        .filter(|h| h != "/tags/")
        .collect()
}

fn relative(site: &TestSite, e: &str) -> String {
    e.replace(&format!("{}/", site.root().display()), "")
}

#[test]
fn case_and_spacing_variants_are_one_tag_with_a_warning_naming_the_form_kept() {
    let site = TestSite::new();
    site.article(
        "new",
        "vi",
        "title: Mới\ndate: 2026-01-02\ntags: [Lập Trình]",
        "x\n",
    );
    site.article(
        "old",
        "vi",
        "title: Cũ\ndate: 2026-01-01\ntags: [lập  trình, Lập Trình, mạng]",
        "x\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let page = html(&b, "tags/lap-trinh/index.html");
    assert_eq!(texts(&page, ".article-list h2"), ["Mới", "Cũ"]);
    let old = html(&b, "old/index.html");
    assert_eq!(
        tag_links(&old),
        ["/tags/lap-trinh/", "/tags/mang/"],
        "one tag on the post"
    );
    let warnings: Vec<String> = b
        .warnings
        .iter()
        .map(|w| relative(&site, &w.to_string()))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "content/old/index.vi.md:4:1: error: the tag `lập  trình` is written `Lập Trình` in content/new/index.vi.md: both are the tag `Lập Trình`"
        ),
        "{}",
        warnings[0]
    );
}

#[test]
fn tags_that_would_share_a_url_are_an_error_naming_both_and_their_files() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02\ntags: [C]", "x\n");
    site.article("b", "vi", "title: B\ndate: 2026-01-01\ntags: [C++]", "x\n");
    let e = relative(&site, &site.build_err());
    assert!(
        e.contains("error: the tags `C` (content/a/index.vi.md) and `C++` (content/b/index.vi.md) would share the URL /tags/c/"),
        "{e}"
    );
    assert!(e.contains("[tags] \"C++\" = \"cpp\""), "{e}");
    site.write(
        "site.toml",
        &format!("{SITE_TOML}[tags]\n\"C++\" = \"cpp\"\n"),
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        texts(&html(&b, "tags/cpp/index.html"), ".article-list h2"),
        ["B"]
    );
    assert_eq!(
        texts(&html(&b, "tags/c/index.html"), ".article-list h2"),
        ["A"]
    );
    assert_eq!(tag_links(&html(&b, "b/index.html")), ["/tags/cpp/"]);
}

#[test]
fn a_tag_without_a_url_and_a_bad_slug_in_the_table_are_errors() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02\ntags: [\"!!!\"]",
        "x\n",
    );
    let e = relative(&site, &site.build_err());
    assert!(
        e.contains("content/a/index.vi.md:4:1: error: the tag `!!!` has no letter or digit to make its URL of"),
        "{e}"
    );
    site.write(
        "site.toml",
        &format!("{SITE_TOML}[tags]\n\"!!!\" = \"a b\"\n"),
    );
    let e = relative(&site, &site.build_err());
    assert!(
        e.contains("site.toml:7:1: error: [tags] \"!!!\" = \"a b\": the slug cannot be a URL segment: it holds a space"),
        "{e}"
    );
    site.write(
        "site.toml",
        &format!("{SITE_TOML}[tags]\n\"!!!\" = \"bang\"\n"),
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert!(b.output.get("tags/bang/index.html").is_some());
}

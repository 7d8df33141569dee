//! Theme text belongs to the site: the note at the foot of every page comes from site.toml
//! (`[languages.<code>] footer`), and a site that sets none gets no sentence about itself.

mod common;

use common::{SITE_TOML, TestSite, html, texts};

fn one_article(site: &TestSite) {
    site.article("a", "vi", "title: A\ndate: 2026-01-01", "x\n");
    site.article("a", "en", "title: A\ndate: 2026-01-01", "x\n");
}

#[test]
fn a_site_without_a_footer_gets_no_sentence_from_the_theme() {
    let site = TestSite::new();
    one_article(&site);
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    for file in ["index.html", "a/index.html", "en/a/index.html", "404.html"] {
        let page = html(&b, file);
        assert_eq!(
            texts(&page, "footer p").len(),
            1,
            "{file}: the feed link only"
        );
        let text = b.output.text(file).unwrap();
        assert!(
            !text.contains("đo thật:") && !text.contains("is measured:"),
            "{file}"
        );
    }
}

#[test]
fn the_footer_of_each_language_comes_from_site_toml() {
    let site = TestSite::new();
    let toml = SITE_TOML
        .replace(
            "title = \"Đo thật\"\n",
            "title = \"Đo thật\"\nfooter = \"Chân trang của tôi.\"\n",
        )
        .replace(
            "title = \"Measured\"\n",
            "title = \"Measured\"\nfooter = \"My own footer.\"\n",
        );
    site.write("site.toml", &toml);
    one_article(&site);
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        texts(&html(&b, "a/index.html"), "footer p")[0],
        "Chân trang của tôi."
    );
    assert_eq!(
        texts(&html(&b, "en/a/index.html"), "footer p")[0],
        "My own footer."
    );
    assert_eq!(
        texts(&html(&b, "en/index.html"), "footer p")[0],
        "My own footer."
    );
}

//! Author text and paths that once broke pages or URLs (issue 22): each case builds a small site
//! and checks the parsed output or the exact error.

mod common;

use common::{TestSite, html, texts};

const HOSTILE: &str = "</script><!--<script> ]]> & <b>";

#[test]
fn script_blocks_cannot_be_broken_by_author_text() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("author = {:?}\n{}", HOSTILE, common::SITE_TOML),
    );
    site.article(
        "a",
        "vi",
        &format!(
            "title: {t:?}\ndate: 2026-01-02\ndescription: \"<!--<script>\"\ntags: [{t:?}, \"]]>\"]",
            t = HOSTILE
        ),
        "Thân bài vẫn còn.\n",
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let page = html(&built, "a/index.html");
    assert_eq!(texts(&page, "article h1"), [HOSTILE]);
    assert!(
        texts(&page, "article p").contains(&"Thân bài vẫn còn.".to_string()),
        "{:?}",
        texts(&page, "article p")
    );
    let scripts = texts(&page, r#"script[type="application/ld+json"]"#);
    assert_eq!(scripts.len(), 1);
    let ld: serde_json::Value = serde_json::from_str(&scripts[0]).unwrap();
    assert_eq!(ld["headline"], HOSTILE);
    assert_eq!(ld["description"], "<!--<script>");
    assert_eq!(ld["author"]["name"], HOSTILE);
    assert_eq!(ld["keywords"], format!("{HOSTILE}, ]]>"));
    // The theme's own script after it is still a script element of its own.
    assert_eq!(common::attrs(&page, "script[src]", "src"), ["/theme.js"]);
}

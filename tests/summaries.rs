//! Summaries and footnotes: the description falls back to the first paragraph of prose
//! whatever the article opens with, and footnotes have ids of their own with links back.

mod common;

use common::{TestSite, attrs, html, texts};

#[test]
fn the_summary_is_the_first_paragraph_of_prose_after_a_heading_an_image_or_a_list() {
    let site = TestSite::new();
    site.article(
        "heading",
        "vi",
        "title: H\ndate: 2026-01-04",
        "## Mở đầu\n\nĐoạn sau tiêu đề.\n",
    );
    site.article(
        "image",
        "vi",
        "title: I\ndate: 2026-01-03",
        "![Ảnh bìa](bia.png)\n\nĐoạn sau ảnh.\n",
    );
    site.write("content/image/bia.png", "png");
    site.article(
        "list",
        "vi",
        "title: L\ndate: 2026-01-02",
        "- một\n- hai\n\nĐoạn sau danh sách.\n",
    );
    site.article(
        "html",
        "vi",
        "title: R\ndate: 2026-01-01",
        "<p><img src=\"bia.png\" alt=\"x\"></p>\n\n[![Ảnh](bia.png)](bia.png)\n\nĐoạn sau HTML.\n",
    );
    site.write("content/html/bia.png", "png");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let home = html(&b, "index.html");
    assert_eq!(
        texts(&home, ".article-list li > p:last-child"),
        [
            "Đoạn sau tiêu đề.",
            "Đoạn sau ảnh.",
            "Đoạn sau danh sách.",
            "Đoạn sau HTML."
        ]
    );
    let page = html(&b, "image/index.html");
    assert_eq!(
        attrs(&page, "meta[name=description]", "content"),
        ["Đoạn sau ảnh."]
    );
}

#[test]
fn footnotes_have_ids_of_their_own_and_links_back_labelled_in_the_language() {
    let site = TestSite::new();
    let body = "## 1\n\nMột[^1] và hai[^ghi chú], lại một[^1].\n\n[^1]: Chú thích một.\n[^ghi chú]: Chú thích hai.\n";
    site.article("a", "vi", "title: A\ndate: 2026-01-01", body);
    site.article("a", "en", "title: A\ndate: 2026-01-01", body);
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let vi = html(&b, "a/index.html");
    assert_eq!(
        attrs(&vi, "sup.footnote-reference", "id"),
        ["fnref-1", "fnref-ghi-chu", "fnref-1-2"]
    );
    assert_eq!(
        attrs(&vi, "sup.footnote-reference a", "href"),
        ["#fn-1", "#fn-ghi-chu", "#fn-1"]
    );
    assert_eq!(texts(&vi, "sup.footnote-reference a"), ["1", "2", "1"]);
    assert_eq!(
        attrs(&vi, ".footnote-definition", "id"),
        ["fn-1", "fn-ghi-chu"]
    );
    assert_eq!(
        attrs(&vi, ".footnote-definition a.footnote-backref", "href"),
        ["#fnref-1", "#fnref-ghi-chu"]
    );
    assert_eq!(
        attrs(&vi, "a.footnote-backref", "aria-label"),
        [
            "Quay lại chỗ dẫn chú thích 1",
            "Quay lại chỗ dẫn chú thích 2"
        ]
    );
    let en = html(&b, "en/a/index.html");
    assert_eq!(
        attrs(&en, "a.footnote-backref", "aria-label"),
        [
            "Back to where note 1 is cited",
            "Back to where note 2 is cited"
        ]
    );
    assert_eq!(
        attrs(&vi, "h2", "id"),
        ["1"],
        "the heading keeps the id `1`"
    );
}

//! Every error in one build (issue 38): an article on a URL the site reserves, an article whose
//! front matter fails, a standalone page whose front matter fails, a broken link and a menu
//! entry leading nowhere are reported together, not one build at a time.

mod common;

use common::TestSite;

#[test]
fn collisions_links_menus_and_content_errors_come_in_one_build() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!(
            "{}[[languages.vi.menu]]\nname = \"Mất\"\nurl = \"/mat/\"\n",
            common::SITE_TOML
        ),
    );
    site.article(
        "tim-kiem",
        "vi",
        "title: Tìm\ndate: 2024-01-01\nslug: search",
        "x\n",
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2024-01-02",
        "[hỏng](/khong-co/) và [lỗi](/loi/).\n",
    );
    site.article("loi", "vi", "title: Lỗi\ndate: 2024-13-40", "y\n");
    site.write(
        "pages/about/index.vi.md",
        "---\ntitle: Về\nweight: 3\n---\nz\n",
    );
    let err = site.build_err();
    for expected in [
        "content/tim-kiem/index.vi.md:4:1: error: the page's URL /search/ is taken by the search index",
        "content/loi/index.vi.md:3",
        "pages/about/index.vi.md:3",
        "content/a/index.vi.md:5:1: error: broken link `/khong-co/`: nothing is published at /khong-co/",
        "error: broken link `/loi/`: /loi/ is the article",
        "left out for its errors",
        "site.toml:",
        "broken link `/mat/`",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
}

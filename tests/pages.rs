//! Standalone pages (`pages/<name>/index.<lang>.md`) and the per-language menu of `site.toml`:
//! a page is translated like an article and is in no listing, feed or tag page; the menu is in
//! every page's header, and its URLs are checked like links.

mod common;

use common::{TestSite, attrs, html, texts};

const MENU: &str = "\n[[languages.vi.menu]]\nname = \"Giới thiệu\"\nurl = \"/about/\"\n\n[[languages.vi.menu]]\nname = \"Mã nguồn\"\nurl = \"https://example.com/code\"\n\n[[languages.en.menu]]\nname = \"About\"\nurl = \"/en/about/\"\n";

fn site() -> TestSite {
    let s = TestSite::new();
    s.write("site.toml", &format!("{}{MENU}", common::SITE_TOML));
    s.article(
        "bai",
        "vi",
        "title: Bài\ndate: 2025-01-01\ntags: [mạng]",
        "Nội dung, xem [giới thiệu](/about/).\n",
    );
    s.article(
        "bai",
        "en",
        "title: Post\ndate: 2025-01-01\ntags: [network]",
        "Text.\n",
    );
    s.write(
        "pages/about/index.vi.md",
        "---\ntitle: Về blog này\ndescription: Ai viết, và vì sao.\n---\nTôi đo mọi thứ. Xem [bài](/bai/).\n\n```toml\na = 1\n```\n",
    );
    s.write(
        "pages/about/index.en.md",
        "---\ntitle: About this blog\n---\nI measure things.\n",
    );
    s
}

#[test]
fn a_page_is_published_in_each_language_with_its_own_template() {
    let built = site().build().expect("build");
    let vi = html(&built, "about/index.html");
    assert_eq!(texts(&vi, "main h1"), ["Về blog này"]);
    assert!(texts(&vi, "main .content p")[0].starts_with("Tôi đo mọi thứ."));
    assert_eq!(
        attrs(&vi, "meta[name=description]", "content"),
        ["Ai viết, và vì sao."]
    );
    assert_eq!(attrs(&vi, ".lang-switch a", "href"), ["/en/about/"]);
    let alternates = attrs(&vi, "link[rel=alternate][hreflang]", "href");
    assert!(
        alternates.contains(&"https://example.org/en/about/".to_string()),
        "{alternates:?}"
    );
    // No date, tags, series or related articles: nothing of an article's.
    assert!(texts(&vi, "main time").is_empty());
    assert!(texts(&vi, "main .tags, main .related, main .series").is_empty());
    let en = html(&built, "en/about/index.html");
    assert_eq!(texts(&en, "main h1"), ["About this blog"]);
    assert_eq!(
        attrs(&en, "meta[name=description]", "content"),
        ["I measure things."]
    );
}

#[test]
fn a_page_is_in_no_listing_feed_or_tag_page_but_in_the_sitemap() {
    let built = site().build().expect("build");
    for listing in [
        "index.html",
        "en/index.html",
        "tags/index.html",
        "tags/mang/index.html",
    ] {
        let doc = html(&built, listing);
        let links = attrs(&doc, "main a", "href");
        assert!(
            !links.iter().any(|h| h.contains("about")),
            "{listing}: {links:?}"
        );
    }
    for feed in ["atom.xml", "en/atom.xml"] {
        let text = built.output.text(feed).expect("feed");
        for title in ["Về blog này", "About this blog"] {
            assert!(!text.contains(title), "{feed}: {text}");
        }
    }
    let sitemap = built.output.text("sitemap.xml").expect("sitemap");
    assert!(
        sitemap.contains("<loc>https://example.org/about/</loc>"),
        "{sitemap}"
    );
    assert!(
        sitemap.contains("<loc>https://example.org/en/about/</loc>"),
        "{sitemap}"
    );
}

#[test]
fn the_menu_of_each_language_is_in_the_labelled_header_nav() {
    let built = site().build().expect("build");
    let about = html(&built, "about/index.html");
    assert_eq!(
        attrs(&about, "header nav", "aria-label"),
        ["Điều hướng chính"]
    );
    assert_eq!(
        texts(&about, "header nav .site-menu a"),
        ["Giới thiệu", "Mã nguồn"]
    );
    assert_eq!(
        attrs(&about, "header nav .site-menu a", "href"),
        ["/about/", "https://example.com/code"]
    );
    assert_eq!(
        attrs(&about, ".site-menu a[aria-current=page]", "href"),
        ["/about/"]
    );
    let article = html(&built, "en/bai/index.html");
    assert_eq!(texts(&article, "header nav .site-menu a"), ["About"]);
    assert!(attrs(&article, ".site-menu a[aria-current]", "href").is_empty());
}

#[test]
fn a_menu_entry_or_a_page_link_that_leads_nowhere_fails_the_build_with_its_line() {
    let s = site();
    let toml = format!("{}{MENU}", common::SITE_TOML).replace("/en/about/", "/en/contact/");
    s.write("site.toml", &toml);
    s.write(
        "pages/about/index.en.md",
        "---\ntitle: About\n---\nSee [the post](/en/missing/).\n",
    );
    let err = s.build_err();
    let menu_line = toml
        .lines()
        .position(|l| l.contains("/en/contact/"))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!(
            "site.toml:{menu_line}:1: error: broken link `/en/contact/`"
        )),
        "{err}"
    );
    assert!(err.contains("[[languages.en.menu]]"), "{err}");
    assert!(
        err.contains("pages/about/index.en.md:4:5: error: broken link `/en/missing/`"),
        "{err}"
    );
}

#[test]
fn wrong_pages_are_errors_that_say_what_to_do() {
    let s = site();
    s.write(
        "pages/about/index.en.md",
        "---\ntitle: About\ndate: 2025-01-01\n---\nText.\n",
    );
    s.write("pages/notes.md", "---\ntitle: Notes\n---\n");
    s.write("pages/about/photo.png", "png");
    let err = s.build_err();
    assert!(
        err.contains("pages/about/index.en.md:3:1: error: front matter: unknown field `date`"),
        "{err}"
    );
    assert!(
        err.contains("dates, tags and series belong to articles"),
        "{err}"
    );
    assert!(
        err.contains("pages/notes.md: error: a file directly in pages/ is no page"),
        "{err}"
    );
    assert!(
        err.contains("`photo.png` is not a page of pages/about/"),
        "{err}"
    );

    let s = site();
    s.write("pages/bai/index.vi.md", "---\ntitle: Trùng\n---\n");
    let err = s.build_err();
    assert!(
        err.contains(
            "pages/bai/index.vi.md: error: the page is published at /bai/, as the article"
        ),
        "{err}"
    );

    let s = site();
    s.write("pages/tags/index.vi.md", "---\ntitle: Thẻ\n---\n");
    s.write("pages/en/index.vi.md", "---\ntitle: En\n---\n");
    s.write("pages/atom.xml/index.vi.md", "---\ntitle: Feed\n---\n");
    let err = s.build_err();
    for (page, what) in [
        ("tags", "/tags/ is taken by the tag index"),
        ("en", "/en/ is taken by the home page of `en`"),
        (
            "atom.xml",
            "/atom.xml/ is taken by the file atom.xml of the site",
        ),
    ] {
        let want = format!("pages/{page}/index.vi.md: error: the page's URL {what}");
        assert!(err.contains(&want), "{err}");
    }

    let s = site();
    let toml = format!(
        "{}{}",
        common::SITE_TOML,
        "\n[[languages.vi.menu]]\nname = \"X\"\nurl = \"about\"\n"
    );
    s.write("site.toml", &toml);
    let line = toml.lines().position(|l| l == "url = \"about\"").unwrap() + 1;
    let err = s.build_err();
    assert!(
        err.contains(&format!(
            "site.toml:{line}:1: error: the menu entry `X` has the URL `about`"
        )),
        "{err}"
    );
}

#[test]
fn a_draft_page_is_left_out_unless_drafts_are_built() {
    let s = site();
    s.write(
        "pages/cv/index.vi.md",
        "---\ntitle: CV\ndraft: true\n---\nSắp có.\n",
    );
    assert!(
        s.build()
            .expect("build")
            .output
            .get("cv/index.html")
            .is_none()
    );
    let with_drafts = measured::build_in_memory(&measured::BuildOptions {
        drafts: true,
        ..s.options()
    })
    .expect("build with drafts");
    assert!(with_drafts.output.get("cv/index.html").is_some());
}

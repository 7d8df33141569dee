//! Issue 35, broken output: control characters, unclosed comments and formulas, encoded
//! aliases, the site's own URLs, and Mermaid's links.

use super::common::fixtures::frozen_site;
use super::common::{self, TestSite, html, texts};
use super::{build_frozen, errors, failed};

#[test]
fn control_characters_in_author_text_are_errors_at_their_line() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: \"Tiêu đề\\0\"\ndate: 2026-01-02\ndescription: \"\\e[31mđỏ\"\ntags: [\"a\\bb\"]",
        "Dòng một.\n\nCó \u{1b}[1mđậm\u{1b}[0m và \u{c} ở đây.\n",
    );
    let mut got = errors(&site);
    got.sort();
    let want = |line, what: &str| {
        (
            "content/a/index.vi.md".to_string(),
            Some(line),
            what.to_string(),
        )
    };
    assert_eq!(
        got,
        [
            want(
                2,
                "front matter: `title` holds the control character U+0000, which no page or feed can carry"
            ),
            want(
                4,
                "front matter: `description` holds the control character U+001B, which no page or feed can carry"
            ),
            want(
                5,
                "front matter: `tags` holds the control character U+0008, which no page or feed can carry"
            ),
        ]
    );
    // The front matter fixed, the body's are found where they are, once a line.
    site.article(
        "a",
        "vi",
        "title: Tiêu đề\ndate: 2026-01-02",
        "Dòng một.\n\nCó \u{1b}[1mđậm\u{1b}[0m và \u{c} ở đây.\n\nNUL \0.\n",
    );
    assert_eq!(
        errors(&site),
        [
            want(
                7,
                "the body holds the control character U+001B, which no page or feed can carry"
            ),
            want(
                9,
                "the body holds the control character U+0000, which no page or feed can carry"
            ),
        ]
    );
}

#[test]
fn experiment_output_with_terminal_colours_leaves_the_feed_well_formed() {
    let site = frozen_site(serde_json::json!({ "label": "\u{1b}[32mok\u{1b}[0m\u{0}" }));
    let record = site.read("frozen/exp.json").replace(
        "\"output\":\"\"",
        "\"output\":\"\\u001b[1;31mred\\u001b[0m done\\r\\n\\u0000\\u0007bell\"",
    );
    site.write("frozen/exp.json", &record);
    site.article(
        "a",
        "vi",
        "title: Màu\ndate: 2026-01-02",
        "Nhãn {{ exp.label }}.\n\n```experiment exp\n```\n",
    );
    let built = build_frozen(&site);
    let feed = built.output.text("atom.xml").expect("atom.xml");
    let doc = roxmltree::Document::parse(&feed).unwrap_or_else(|e| panic!("{e}\n{feed}"));
    assert!(doc.descendants().any(|n| n.has_tag_name("entry")));
    let page = html(&built, "a/index.html");
    assert_eq!(texts(&page, "pre.output code"), ["red done bell"]);
    assert!(
        texts(&page, "article p").iter().any(|p| p == "Nhãn ok."),
        "{:?}",
        texts(&page, "article p")
    );
    let results = built.output.text("a/results.json").expect("results.json");
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(results["experiments"]["exp"]["output"], "red done\nbell");
}

#[test]
fn an_unclosed_comment_and_an_unclosed_brace_in_a_formula_are_errors_at_their_line() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        "Công thức $\\frac{a$ hỏng.\n\n<!-- ghi chú\n\n## Phần sau\n",
    );
    let got = errors(&site);
    assert_eq!(
        got,
        [
            (
                "content/a/index.vi.md".to_string(),
                Some(5),
                "the formula `$\\frac{a$` has a `{` that is never closed, so it would be published as raw text".to_string()
            ),
            (
                "content/a/index.vi.md".to_string(),
                Some(7),
                "this `<!--` opens an HTML comment that is never closed: the browser would hide the rest of the page, its footer and scripts with it".to_string()
            ),
        ]
    );
    let Err(d) = site.build() else { unreachable!() };
    assert!(
        d.to_string().contains("close the comment with `-->`"),
        "{d}"
    );
}

#[test]
fn percent_encoded_aliases_are_decoded_before_they_are_checked() {
    let site = TestSite::new();
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-02\naliases: [/%2e%2e/%2e%2e/etc/]",
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/b/index.vi.md".to_string(),
            Some(4),
            "front matter: alias `/%2e%2e/%2e%2e/etc/`: its segment `..` names a folder, not a page"
                .to_string()
        )]
    );
    site.article("b", "vi", "title: B\ndate: 2026-01-02", "x\n");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02\naliases:\n  - /caf%C3%A9/\n  - /x/\n  - /café/",
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/a/index.vi.md".to_string(),
            Some(7),
            "the aliases `/caf%C3%A9/` (line 5) and `/café/` (line 7) are the same URL /café/"
                .to_string()
        )]
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02\naliases: [/caf%C3%A9/]",
        "x\n",
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert!(built.output.text("café/index.html").is_some());
    assert!(built.output.text("caf%C3%A9/index.html").is_none());
}

#[test]
fn a_slug_or_alias_on_a_file_the_site_writes_is_one_error_in_every_mode() {
    let site = TestSite::new();
    for (front, line, message) in [
        (
            "slug: atom.xml",
            4,
            "the page's URL /atom.xml/ is taken by the file atom.xml of the site",
        ),
        (
            "slug: index.html",
            4,
            "the page's URL /index.html/ is taken by the file index.html of the site",
        ),
        (
            "slug: sitemap.xml",
            4,
            "the page's URL /sitemap.xml/ is taken by the file sitemap.xml of the site",
        ),
        (
            "slug: 404.html",
            4,
            "the page's URL /404.html/ is taken by the file 404.html of the site",
        ),
        (
            "slug: robots.txt",
            4,
            "the page's URL /robots.txt/ is taken by the file robots.txt of the site",
        ),
        (
            "aliases: [/search/vi/index.json]",
            4,
            "the alias /search/vi/index.json/ is taken by the search index",
        ),
    ] {
        site.article(
            "a",
            "vi",
            &format!("title: A\ndate: 2026-01-02\n{front}"),
            "x\n",
        );
        // In memory, as `serve` builds.
        assert_eq!(
            errors(&site),
            [(
                "content/a/index.vi.md".to_string(),
                Some(line),
                message.to_string()
            )],
            "{front}"
        );
        let want = format!("content/a/index.vi.md:{line}:1: error: {message}");
        for mode in ["build", "check"] {
            let e = failed(site.cli(&[mode]));
            assert!(e.contains(&want), "{mode} {front}: {e}");
            assert!(!e.contains("Is a directory"), "{mode} {front}: {e}");
        }
    }
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    site.write("pages/atom.xml/index.vi.md", "---\ntitle: F\n---\nx\n");
    let e = failed(site.cli(&["build"]));
    assert!(
        e.contains("pages/atom.xml/index.vi.md: error: the page's URL /atom.xml/ is taken by the file atom.xml of the site"),
        "{e}"
    );
}

#[test]
fn mermaid_clicks_are_checked_like_links_and_script_urls_refused() {
    let site = TestSite::new();
    site.article("b", "vi", "title: B\ndate: 2026-01-02", "## Có thật\n");
    let diagram =
        |clicks: &str| format!("## Mở đầu\n\n```mermaid\nflowchart LR\n    A --> B\n{clicks}```\n");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &diagram("    click A \"/nowhere/\"\n    click B \"/b/#khong-co\"\n"),
    );
    let broken = |line, what: &str| {
        (
            "content/a/index.vi.md".to_string(),
            Some(line),
            what.to_string(),
        )
    };
    let mut got = errors(&site);
    got.sort();
    assert_eq!(
        got,
        [
            broken(
                10,
                "broken link `/nowhere/`: nothing is published at /nowhere/"
            ),
            broken(
                11,
                "broken link `/b/#khong-co`: /b/ has no element with id `khong-co`"
            ),
        ]
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &diagram("    click A \"javascript:alert(document.cookie)\"\n"),
    );
    assert_eq!(
        errors(&site),
        [broken(
            10,
            "this Mermaid diagram cannot be drawn: the link `javascript:alert(document.cookie)` runs a script in the reader's browser, which a page of this site never does"
        )]
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &diagram("    click A \"/b/#co-that\"\n    click B \"#mo-dau\"\n"),
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let page = html(&built, "a/index.html");
    assert_eq!(
        common::attrs(&page, "svg.diagram a", "href"),
        ["/b/#co-that", "#mo-dau"]
    );
}

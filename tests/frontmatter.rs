//! Front matter as other generators write it: RFC 3339 dates with offsets, TOML between `+++`
//! lines, and every error of every file reported in one run, with hints for the keys of Hugo,
//! Zola and Jekyll.

mod common;

use common::{TestSite, attrs, html, texts};

/// A site of three articles: a Hugo TOML one, a YAML one with a zoned date-time and a
/// plain-date one, whose instants order them differently from their written days.
fn zoned_site() -> TestSite {
    let site = TestSite::new();
    site.write(
        "content/toml-post/index.vi.md",
        "+++\ntitle = \"Bài TOML\"\ndate = 2025-06-04T17:04:06+07:00\ntags = [\"mạng\"]\n+++\nThân bài.\n",
    );
    // 08:00 in Tokyo on the 5th is 23:00 UTC on the 4th: newer than the TOML post, older than
    // the plain 5th.
    site.article(
        "tokyo",
        "vi",
        "title: Tokyo\ndate: 2025-06-05T08:00:00+09:00\nupdated: 2025-06-06T09:30:00+09:00",
        "Thân bài.\n",
    );
    site.article(
        "plain",
        "vi",
        "title: Ngày thường\ndate: 2025-06-05",
        "Thân bài.\n",
    );
    site
}

#[test]
fn zoned_dates_order_by_the_instant_and_show_the_day_as_written() {
    let b = zoned_site().build().unwrap_or_else(|e| panic!("{e}"));
    let home = html(&b, "index.html");
    assert_eq!(
        texts(&home, ".article-list h2"),
        ["Ngày thường", "Tokyo", "Bài TOML"]
    );
    let tokyo = html(&b, "tokyo/index.html");
    assert_eq!(
        texts(&tokyo, ".article-meta time"),
        ["5 tháng 6, 2025", "6 tháng 6, 2025"],
        "the day as written in its offset, in the reader's language"
    );
    assert_eq!(
        attrs(&tokyo, ".article-meta time", "datetime"),
        ["2025-06-05T08:00:00+09:00", "2025-06-06T09:30:00+09:00"]
    );
}

#[test]
fn feeds_carry_the_full_time_and_a_plain_day_stays_midnight_utc() {
    let b = zoned_site().build().unwrap_or_else(|e| panic!("{e}"));
    let text = b.output.text("atom.xml").unwrap();
    let doc = roxmltree::Document::parse(&text).expect("atom.xml is XML");
    let published: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("published"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        published,
        [
            "2025-06-05T00:00:00Z",
            "2025-06-05T08:00:00+09:00",
            "2025-06-04T17:04:06+07:00"
        ]
    );
    let updated: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("updated"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        updated,
        [
            "2025-06-06T09:30:00+09:00",
            "2025-06-05T00:00:00Z",
            "2025-06-06T09:30:00+09:00",
            "2025-06-04T17:04:06+07:00"
        ],
        "the feed's own (the latest instant), then each entry's"
    );
    let sitemap = b.output.text("sitemap.xml").unwrap();
    assert!(
        sitemap.contains("<lastmod>2025-06-06T09:30:00+09:00</lastmod>"),
        "{sitemap}"
    );
}

#[test]
fn every_error_of_every_file_comes_in_one_run() {
    let site = TestSite::new();
    site.article(
        "hugo",
        "vi",
        "title: A\ndate: 2025-06-04T17:04:06+07:00\ncategories: [iot]\naliases: [/old/]\nweight: 3\nlastmod: 2025-06-05\ncover: x.jpg\ntags: python",
        "x\n",
    );
    site.write(
        "content/zola/index.vi.md",
        "+++\ntitle = \"B\"\ndate = \"2025-13-01\"\nsummary = \"S\"\ndraft = \"no\"\n+++\nx\n",
    );
    let e = site
        .build_err()
        .replace(&format!("{}/", site.root().display()), "");
    // The first line of each error, without the date parser's own words in parentheses.
    let firsts: Vec<&str> = e
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(|l| l.split(" (").next().unwrap_or(l))
        .collect();
    assert_eq!(
        firsts,
        [
            "content/hugo/index.vi.md:4:1: error: front matter: unknown key `categories`",
            "content/hugo/index.vi.md:6:1: error: front matter: unknown key `weight`",
            "content/hugo/index.vi.md:7:1: error: front matter: unknown key `lastmod`",
            "content/hugo/index.vi.md:8:1: error: front matter: unknown key `cover`",
            "content/hugo/index.vi.md:9:1: error: front matter: `tags` is a list, not the text `python`",
            "content/zola/index.vi.md:3:1: error: front matter: `date`: `2025-13-01` is not a valid date",
            "content/zola/index.vi.md:4:1: error: front matter: unknown key `summary`",
            "content/zola/index.vi.md:5:1: error: front matter: `draft` is true or false, not the text `no`",
        ],
        "{e}"
    );
    assert!(e.contains("= help: measured calls this `updated`"), "{e}");
    assert!(
        e.contains("= help: measured calls this `description`"),
        "{e}"
    );
    assert!(e.contains("= help: write it as tags: [python]"), "{e}");
    assert!(
        !e.contains("YAML syntax"),
        "the YAML is fine: no syntax hint\n{e}"
    );
}

#[test]
fn a_toml_translation_keeps_its_syntax() {
    let site = TestSite::new();
    site.write(
        "content/a/index.vi.md",
        "+++\ntitle = \"Bài gốc\"\ndate = 2025-06-04\n[claims]\n+++\nNội dung.\n",
    );
    let out = site.cli(&["new", "a", "--translate", "en"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let en = site.read("content/a/index.en.md");
    assert!(en.starts_with("+++\ntitle = \"Bài gốc\"\n"), "{en}");
    assert!(
        en.contains("\ndraft = true\ntranslated_from = \"") && en.contains("\"\n[claims]\n+++\n"),
        "top-level keys before the first table: {en}"
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert!(b.output.get("a/index.html").is_some());
}

//! Social cards (issue 21, item 5): each article's PNG in each language, the head's `og:image`
//! and `twitter:card` with absolute URLs, the headline value formatted per language, the cache
//! that spares a warm build the drawing, and the errors of a `card:` that names nothing.

mod common;

use common::fixtures::{frozen_options, frozen_site};
use common::{TestSite, attrs, html};

const TITLE_VI: &str = "Bắt tay <TCP> & TLS: độ trễ của những kết nối mới";

/// A site with article `a` in both languages: the Vietnamese file chooses the headline value
/// (a ratio) and labels it, the English one labels it only.
fn site() -> TestSite {
    let site = frozen_site(serde_json::json!({
        "speedup": {"type": "ratio", "value": 2.5, "low": 2.4, "high": 2.6},
        "bytes": 1234567,
        "sizes": [1, 2],
    }));
    site.write("site.toml", &with_cards(common::SITE_TOML));
    site.article(
        "a",
        "vi",
        &format!(
            "title: \"{TITLE_VI}\"\ndate: 2026-11-04\ncard: exp.speedup\ncard_label: \"nhanh hơn\""
        ),
        "Nội dung.\n",
    );
    site.article(
        "a",
        "en",
        "title: \"TCP & TLS <handshakes>\"\ndate: 2026-11-04\ncard_label: \"faster\"",
        "Body.\n",
    );
    site
}

/// `toml` with the cards turned on (they are off unless a site asks for them).
fn with_cards(toml: &str) -> String {
    format!("{toml}[cards]\nenabled = true\n")
}

fn build(site: &TestSite) -> measured::Built {
    measured::build_in_memory(&frozen_options(site)).unwrap_or_else(|d| panic!("{d}"))
}

fn build_err(site: &TestSite) -> String {
    match measured::build_in_memory(&frozen_options(site)) {
        Ok(_) => panic!("the build should have failed"),
        Err(d) => d.to_string(),
    }
}

/// The `content` of the `<meta>` whose `property` (or `name`) is `key`.
fn meta(doc: &scraper::Html, key: &str) -> Vec<String> {
    let mut found = attrs(doc, &format!("meta[property=\"{key}\"]"), "content");
    found.extend(attrs(doc, &format!("meta[name=\"{key}\"]"), "content"));
    found
}

/// The size of a PNG, decoded.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(bytes).expect("the card is a PNG");
    (pixmap.width(), pixmap.height())
}

#[test]
fn each_article_and_language_gets_a_png_card_named_in_its_head() {
    let site = site();
    let built = build(&site);
    for (path, page, lang) in [
        ("a/card.png", "a/index.html", "vi"),
        ("en/a/card.png", "en/a/index.html", "en"),
    ] {
        let png = built
            .output
            .get(path)
            .unwrap_or_else(|| panic!("no {path}"));
        assert_eq!(png_size(png), (1200, 630), "{path}");
        let doc = html(&built, page);
        assert_eq!(
            meta(&doc, "og:image"),
            [format!("https://example.org/{}", path)],
            "{lang}"
        );
        assert_eq!(meta(&doc, "og:image:width"), ["1200"]);
        assert_eq!(meta(&doc, "og:image:height"), ["630"]);
        assert_eq!(meta(&doc, "og:image:type"), ["image/png"]);
        assert_eq!(meta(&doc, "twitter:card"), ["summary_large_image"]);
    }
    // The two languages' cards differ (their titles and numbers do).
    assert_ne!(
        built.output.get("a/card.png"),
        built.output.get("en/a/card.png")
    );
    // Listings have no card of their own.
    assert!(meta(&html(&built, "index.html"), "og:image").is_empty());
}

#[test]
fn the_headline_value_is_formatted_for_each_language_and_labelled_in_it() {
    let built = build(&site());
    // The alternative text says what the picture shows: title, label, value.
    assert_eq!(
        meta(&html(&built, "a/index.html"), "og:image:alt"),
        [format!("{TITLE_VI} — nhanh hơn: 2,5×")]
    );
    assert_eq!(
        meta(&html(&built, "en/a/index.html"), "og:image:alt"),
        ["TCP & TLS <handshakes> — faster: 2.5×"]
    );
}

#[test]
fn a_filter_formats_the_value_and_no_label_names_it_by_its_path() {
    let site = site();
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-11-05\ncard: \"exp.bytes | bytes\"",
        "{{ exp.bytes | bytes }}\n",
    );
    let built = build(&site);
    let page = html(&built, "b/index.html");
    // As the article's own `{{ exp.bytes | bytes }}` shows it.
    let data = scraper::Selector::parse("div.content data").unwrap();
    let shown: Vec<String> = page.select(&data).map(|e| e.text().collect()).collect();
    assert_eq!(shown, ["1,23\u{a0}MB"]);
    assert_eq!(meta(&page, "og:image:alt"), ["B — bytes: 1,23\u{a0}MB"]);
}

#[test]
fn without_a_card_key_the_card_shows_the_title_only() {
    let site = site();
    site.article("c", "en", "title: \"Plain\"\ndate: 2026-11-06", "x\n");
    let built = build(&site);
    assert_eq!(
        meta(&html(&built, "en/c/index.html"), "og:image:alt"),
        ["Plain"]
    );
    assert_eq!(
        png_size(built.output.get("en/c/card.png").unwrap()),
        (1200, 630)
    );
}

#[test]
fn under_a_base_path_the_card_urls_carry_it() {
    let site = site();
    let toml = common::SITE_TOML.replace("https://example.org", "https://example.org/blog/");
    site.write("site.toml", &with_cards(&toml));
    let built = build(&site);
    assert!(built.output.get("a/card.png").is_some());
    assert_eq!(
        meta(&html(&built, "en/a/index.html"), "og:image"),
        ["https://example.org/blog/en/a/card.png"]
    );
}

#[test]
fn cards_are_off_unless_the_site_turns_them_on() {
    let site = site();
    site.write("site.toml", common::SITE_TOML);
    let built = build(&site);
    assert!(!built.output.files.keys().any(|p| p.ends_with("card.png")));
    let doc = html(&built, "a/index.html");
    assert!(meta(&doc, "og:image").is_empty() && meta(&doc, "twitter:card").is_empty());
    assert_eq!(built.work.cards_drawn, 0);
    // A `card:` naming nothing is still an error.
    site.article(
        "a",
        "vi",
        "title: T\ndate: 2026-11-04\ncard: exp.nope",
        "x\n",
    );
    assert!(build_err(&site).contains("no `nope` in the results"));
}

/// The PNG files of the card cache.
fn cached(site: &TestSite) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(site.path(".measured/cards"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_warm_build_draws_no_card_and_an_edit_draws_only_its_own() {
    let site = site();
    let cold = build(&site);
    assert_eq!(cold.work.cards_drawn, 2);
    let first = cached(&site);
    assert_eq!(first.len(), 2, "{first:?}");
    let warm = build(&site);
    assert_eq!(warm.work.cards_drawn, 0);
    assert_eq!(warm.output.get("a/card.png"), cold.output.get("a/card.png"));
    assert_eq!(cached(&site), first);
    // A new English title: that card only is drawn again; the old one leaves the cache.
    site.article(
        "a",
        "en",
        "title: \"New title\"\ndate: 2026-11-04",
        "Body.\n",
    );
    let edited = build(&site);
    assert_eq!(edited.work.cards_drawn, 1);
    let after = cached(&site);
    assert_eq!(after.len(), 2, "{after:?}");
    assert_eq!(after.iter().filter(|n| first.contains(n)).count(), 1);
    assert_ne!(
        edited.output.get("en/a/card.png"),
        cold.output.get("en/a/card.png")
    );
}

#[test]
fn a_card_naming_no_value_fails_at_its_front_matter_line() {
    let site = site();
    site.article(
        "a",
        "vi",
        "title: T\ndate: 2026-11-04\ncard: exp.speedpu",
        "x\n",
    );
    let e = build_err(&site);
    assert!(e.contains("content/a/index.vi.md:4:1"), "{e}");
    assert!(
        e.contains("`card: exp.speedpu`: no `speedpu` in the results"),
        "{e}"
    );
    assert!(e.contains("did you mean `speedup`?"), "{e}");
    // Reported once, by the file that declares it, not again by its translation.
    assert_eq!(e.matches("speedpu`: no").count(), 1, "{e}");

    site.article("a", "vi", "title: T\ndate: 2026-11-04\ncard: nope.x", "x\n");
    let e = build_err(&site);
    assert!(e.contains("content/a/index.vi.md:4:1"), "{e}");
    assert!(e.contains("unknown experiment `nope`"), "{e}");

    site.article(
        "a",
        "vi",
        "title: T\ndate: 2026-11-04\ncard: exp.sizes",
        "x\n",
    );
    let e = build_err(&site);
    assert!(
        e.contains("`exp.sizes` is a list, not a number to show"),
        "{e}"
    );
}

#[test]
fn an_asset_named_like_the_card_is_an_error() {
    let site = site();
    site.write("content/a/card.png", "not a card");
    let e = build_err(&site);
    assert!(e.contains("content/a/card.png"), "{e}");
    assert!(e.contains("the name of the article's social card"), "{e}");
}

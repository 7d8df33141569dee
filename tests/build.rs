//! Integration tests of the generator without experiments: fixture sites built in temporary
//! folders, assertions on the HTML, the feeds and the sitemap (parsed where structure matters).

mod common;

use common::{TestSite, attrs, html, snapshot, texts};

fn built() -> measured::Built {
    TestSite::fixture("basic")
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_page_is_where_the_contract_says() {
    let b = built();
    for path in [
        "index.html",
        "en/index.html",
        "tcp-handshake/index.html",
        "en/tcp-handshake/index.html",
        "dns/index.html",
        "only-vietnamese/index.html",
        "tags/index.html",
        "en/tags/index.html",
        "tags/mang/index.html",
        "tags/tcp/index.html",
        "en/tags/networking/index.html",
        "atom.xml",
        "en/atom.xml",
        "sitemap.xml",
        "404.html",
        "robots.txt",
        "tcp-handshake/diagram.svg",
        "en/tcp-handshake/diagram.svg",
        "style.css",
        "highlight.css",
        "favicon.svg",
    ] {
        assert!(b.output.get(path).is_some(), "missing {path}");
    }
    assert!(
        b.output.get("en/only-vietnamese/index.html").is_none(),
        "an untranslated article has no page in English"
    );
}

#[test]
fn pages_declare_language_canonical_and_alternates() {
    let b = built();
    let vi = html(&b, "tcp-handshake/index.html");
    assert_eq!(attrs(&vi, "html", "lang"), ["vi"]);
    assert_eq!(
        attrs(&vi, "link[rel=canonical]", "href"),
        ["https://example.org/tcp-handshake/"]
    );
    let alternates: Vec<(String, String)> = attrs(&vi, "link[rel=alternate][hreflang]", "hreflang")
        .into_iter()
        .zip(attrs(&vi, "link[rel=alternate][hreflang]", "href"))
        .collect();
    assert_eq!(
        alternates,
        [
            ("vi".into(), "https://example.org/tcp-handshake/".into()),
            ("en".into(), "https://example.org/en/tcp-handshake/".into()),
            (
                "x-default".into(),
                "https://example.org/tcp-handshake/".into()
            ),
        ]
    );
    let en = html(&b, "en/tcp-handshake/index.html");
    assert_eq!(attrs(&en, "html", "lang"), ["en"]);
    assert_eq!(
        attrs(&en, "link[rel=canonical]", "href"),
        ["https://example.org/en/tcp-handshake/"]
    );
}

#[test]
fn language_switch_lands_on_the_translation_or_the_other_home() {
    let b = built();
    let translated = html(&b, "tcp-handshake/index.html");
    assert_eq!(
        attrs(&translated, ".lang-switch a", "href"),
        ["/en/tcp-handshake/"]
    );
    let untranslated = html(&b, "only-vietnamese/index.html");
    assert_eq!(attrs(&untranslated, ".lang-switch a", "href"), ["/en/"]);
    assert!(
        attrs(&untranslated, "link[hreflang]", "hreflang").is_empty(),
        "no alternates without a translation"
    );
}

#[test]
fn home_lists_articles_newest_first_with_descriptions() {
    let b = built();
    let vi = html(&b, "index.html");
    assert_eq!(
        texts(&vi, ".article-list h2"),
        ["Chỉ có tiếng Việt", "DNS trước khi bắt tay", "Bắt tay TCP"]
    );
    let descriptions = texts(&vi, ".article-list li > p:last-child");
    assert_eq!(descriptions[0], "Bài này chưa được dịch.");
    assert_eq!(
        descriptions[1],
        "Phân giải tên miền diễn ra trước cả bắt tay TCP, và đoạn này là mô tả mặc định.",
        "the description falls back to the first paragraph"
    );
    let en = html(&b, "en/index.html");
    assert_eq!(
        texts(&en, ".article-list h2"),
        [
            "Chỉ có tiếng Việt",
            "DNS before the handshake",
            "The TCP handshake"
        ]
    );
    assert_eq!(
        texts(&en, ".only-in"),
        ["Vietnamese only"],
        "the untranslated article is marked, not hidden"
    );
}

#[test]
fn articles_have_toc_anchors_highlighting_footnotes_tables_and_reading_time() {
    let b = built();
    let doc = html(&b, "tcp-handshake/index.html");
    assert_eq!(
        attrs(&doc, ".toc a", "href"),
        ["#ba-buoc-bat-tay", "#chi-tiet"]
    );
    assert_eq!(
        attrs(&doc, "h2#ba-buoc-bat-tay a.anchor", "href"),
        ["#ba-buoc-bat-tay"]
    );
    assert!(
        !attrs(&doc, "pre.code code.language-rust span", "class").is_empty(),
        "rust is highlighted with classes"
    );
    assert!(
        attrs(&doc, "pre.code [style]", "style").is_empty(),
        "no inline colours"
    );
    assert_eq!(
        texts(&doc, ".table-wrap table th"),
        ["Trạng thái", "Ý nghĩa"]
    );
    assert_eq!(texts(&doc, ".footnote-definition").len(), 1);
    assert_eq!(texts(&doc, ".article-meta span:last-child"), ["1 phút đọc"]);
    let css = b.output.text("highlight.css").unwrap();
    assert!(
        css.contains("pre.code span{color:light-dark(var(--l,#"),
        "light and dark colours in one rule: {css}"
    );
    for classes in attrs(&doc, "pre.code span", "class") {
        for class in classes.split(' ') {
            assert!(
                css.contains(&format!(".{class}{{")),
                "highlight.css styles .{class}: {css}"
            );
        }
    }
    let style = b.output.text("style.css").unwrap();
    assert!(
        style.contains("prefers-color-scheme:dark") && style.contains("color-scheme:dark"),
        "the page's scheme drives light-dark()"
    );
}

#[test]
fn series_navigation_and_related_articles_stay_in_the_language() {
    let b = built();
    let doc = html(&b, "tcp-handshake/index.html");
    assert_eq!(
        texts(&doc, ".series-position"),
        ["Phần 1/2 của loạt “Mạng”"]
    );
    assert_eq!(attrs(&doc, ".series-nav a[rel=next]", "href"), ["/dns/"]);
    assert_eq!(
        attrs(&doc, ".related a", "href"),
        ["/dns/", "/only-vietnamese/"]
    );
    let en = html(&b, "en/dns/index.html");
    assert_eq!(
        attrs(&en, ".series-nav a[rel=prev]", "href"),
        ["/en/tcp-handshake/"]
    );
    assert_eq!(
        texts(&en, ".related p"),
        ["Every new connection costs a handshake."]
    );
}

#[test]
fn tags_are_slugged_without_diacritics_and_listed_per_language() {
    let b = built();
    let tag = html(&b, "tags/mang/index.html");
    assert_eq!(
        texts(&tag, ".article-list h2"),
        ["Chỉ có tiếng Việt", "DNS trước khi bắt tay", "Bắt tay TCP"]
    );
    let index = html(&b, "tags/index.html");
    assert!(texts(&index, ".tag-index a").contains(&"mạng".to_string()));
    let en_index = html(&b, "en/tags/index.html");
    assert!(!texts(&en_index, ".tag-index a").contains(&"mạng".to_string()));
}

#[test]
fn atom_feeds_are_valid_xml_with_full_content() {
    let b = built();
    let text = b.output.text("atom.xml").unwrap();
    let doc = roxmltree::Document::parse(&text).expect("atom.xml is XML");
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2005/Atom")
    );
    let entries: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("entry"))
        .collect();
    assert_eq!(entries.len(), 3);
    let first_title = entries[0]
        .children()
        .find(|n| n.has_tag_name("title"))
        .unwrap()
        .text();
    assert_eq!(first_title, Some("Chỉ có tiếng Việt"));
    let content = entries
        .iter()
        .find(|e| {
            e.children()
                .any(|c| c.has_tag_name("title") && c.text() == Some("Bắt tay TCP"))
        })
        .and_then(|e| e.children().find(|c| c.has_tag_name("content")))
        .and_then(|c| c.text())
        .unwrap();
    assert!(
        content.contains("<h2 id=\"ba-buoc-bat-tay\">"),
        "full content: {content}"
    );
    assert!(
        content.contains("href=\"https://example.org/tcp-handshake/diagram.svg\""),
        "links made absolute"
    );
    let en_text = b.output.text("en/atom.xml").unwrap();
    let en = roxmltree::Document::parse(&en_text).unwrap();
    let en_entries = en
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("entry"))
        .count();
    assert_eq!(en_entries, 2);
}

#[test]
fn sitemap_lists_translations_as_hreflang_alternates() {
    let b = built();
    let text = b.output.text("sitemap.xml").unwrap();
    let doc = roxmltree::Document::parse(&text).expect("sitemap is XML");
    let url = doc
        .descendants()
        .filter(|n| n.has_tag_name("url"))
        .find(|u| {
            u.children().any(|c| {
                c.has_tag_name("loc") && c.text() == Some("https://example.org/tcp-handshake/")
            })
        })
        .expect("the article is in the sitemap");
    let alternates: Vec<(String, String)> = url
        .children()
        .filter(|c| {
            c.tag_name().name() == "link"
                && c.tag_name().namespace() == Some("http://www.w3.org/1999/xhtml")
        })
        .map(|c| {
            (
                c.attribute("hreflang").unwrap().to_string(),
                c.attribute("href").unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        alternates,
        [
            ("vi".into(), "https://example.org/tcp-handshake/".into()),
            ("en".into(), "https://example.org/en/tcp-handshake/".into())
        ]
    );
    assert!(
        b.output
            .text("robots.txt")
            .unwrap()
            .contains("Sitemap: https://example.org/sitemap.xml")
    );
}

#[test]
fn a_site_with_only_site_toml_and_content_uses_the_built_in_theme_and_overrides_win() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-01", "Xin chào.\n");
    let b = site.build().unwrap();
    assert!(
        b.output
            .text("a/index.html")
            .unwrap()
            .contains("Chuyển đến nội dung")
    );
    site.write(
        "templates/article.html",
        "{% extends \"base.html\" %}{% block main %}MINE {{ article.title }}{% endblock main %}",
    );
    site.write("static/style.css", "body { color: red }");
    let b = site.build().unwrap();
    assert!(b.output.text("a/index.html").unwrap().contains("MINE A"));
    assert_eq!(
        b.output.text("style.css").unwrap(),
        "body{color:red}\n",
        "the site's stylesheet, minified"
    );
}

#[test]
fn ui_strings_come_from_translation_files() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-01", "Xin chào.\n");
    let builtin = include_str!("../templates/i18n/vi.toml");
    site.write(
        "templates/i18n/vi.toml",
        &builtin.replace("Chuyển đến nội dung", "Nhảy tới bài"),
    );
    let b = site.build().unwrap();
    assert_eq!(
        texts(&html(&b, "a/index.html"), ".skip-link"),
        ["Nhảy tới bài"]
    );
}

#[test]
fn drafts_are_built_only_when_asked() {
    let site = TestSite::new();
    site.article(
        "d",
        "vi",
        "title: D\ndate: 2026-01-01\ndraft: true",
        "Nháp.\n",
    );
    assert!(site.build().unwrap().output.get("d/index.html").is_none());
    let b = measured::build_in_memory(&measured::BuildOptions {
        drafts: true,
        ..site.options()
    })
    .unwrap();
    assert!(b.output.get("d/index.html").is_some());
}

mod bad_input {
    use super::*;

    fn site_with(front: &str, body: &str) -> TestSite {
        let site = TestSite::new();
        site.article("a", "vi", front, body);
        site
    }

    #[test]
    fn malformed_yaml_names_file_line_and_column() {
        let e = site_with("title: A\ndate: 2026-01-01\ntags: [a, b", "x\n").build_err();
        assert!(e.contains("content/a/index.vi.md:4:"), "{e}");
        assert!(e.contains("front matter:"), "{e}");
    }

    #[test]
    fn missing_title_and_missing_date() {
        let e = site_with("date: 2026-01-01", "x\n").build_err();
        assert!(
            e.contains("content/a/index.vi.md:2:") && e.contains("missing field `title`"),
            "{e}"
        );
        let e = site_with("title: A", "x\n").build_err();
        assert!(e.contains("missing field `date`"), "{e}");
    }

    #[test]
    fn bad_date_shows_the_line() {
        let e = site_with("title: A\ndate: 2026-02-30", "x\n").build_err();
        assert!(e.contains("content/a/index.vi.md:3:1: error: front matter: `date`: `2026-02-30` is not a valid date"), "{e}");
        assert!(e.contains("3 | date: 2026-02-30"), "{e}");
    }

    #[test]
    fn unknown_front_matter_key() {
        let e = site_with("title: A\ndate: 2026-01-01\ntitel: B", "x\n").build_err();
        assert!(
            e.contains("content/a/index.vi.md:4:1: error: front matter: unknown key `titel`"),
            "{e}"
        );
        assert!(e.contains("= help: did you mean `title`?"), "{e}");
    }

    #[test]
    fn unknown_site_toml_key() {
        let site = site_with("title: A\ndate: 2026-01-01", "x\n");
        site.write(
            "site.toml",
            &format!("base_ulr = \"x\"\n{}", common::SITE_TOML),
        );
        let e = site.build_err();
        assert!(
            e.contains("site.toml:1:1: error: site.toml: unknown field `base_ulr`"),
            "{e}"
        );
    }

    #[test]
    fn two_pages_claiming_one_url_name_both_files() {
        let site = TestSite::new();
        site.article("a", "vi", "title: A\ndate: 2026-01-01\nslug: same", "x\n");
        site.article("b", "vi", "title: B\ndate: 2026-01-02\nslug: same", "x\n");
        let e = site.build_err();
        assert!(e.contains("two pages claim the URL /same/"), "{e}");
        assert!(
            e.contains("content/a/index.vi.md") && e.contains("content/b/index.vi.md"),
            "{e}"
        );
    }

    #[test]
    fn broken_links_to_pages_anchors_and_assets() {
        let site = TestSite::new();
        site.article("b", "vi", "title: B\ndate: 2026-01-01", "## Có thật\n");
        site.article(
            "a",
            "vi",
            "title: A\ndate: 2026-01-01",
            "Dòng một.\n\n[trang](/missing/) [neo](/b/#khong-co) [ảnh](img.png) [tương đối](../nope/) [tốt](../b/#co-that)\n",
        );
        let e = site.build_err();
        for expected in [
            "content/a/index.vi.md:7:1: error: broken link `/missing/`: nothing is published at /missing/",
            "broken link `/b/#khong-co`: /b/ has no element with id `khong-co`",
            "broken link `img.png`: nothing is published at /a/img.png",
            "broken link `../nope/`: nothing is published at /nope/",
        ] {
            assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
        }
        assert!(!e.contains("../b/#co-that"), "{e}");
    }

    #[test]
    fn template_error_names_the_template_and_its_line() {
        let site = site_with("title: A\ndate: 2026-01-01", "x\n");
        site.write("templates/article.html", "{% extends \"base.html\" %}\n{% block main %}\n{{ article.title | nosuchfilter }}\n{% endblock main %}\n");
        let e = site.build_err();
        assert!(e.contains("templates/article.html:3:"), "{e}");
        assert!(e.contains("nosuchfilter"), "{e}");
    }

    #[test]
    fn a_failed_build_leaves_the_previous_output_exactly_as_it_was() {
        let site = site_with("title: A\ndate: 2026-01-01", "x\n");
        let out = site.path("public");
        let ok = site.cli(&["build", "--root", ".", "--output", "public"]);
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
        let before = snapshot(&out);
        assert!(!before.is_empty());
        site.article("a", "vi", "title: A\ndate: 2026-13-01", "x\n");
        let failed = site.cli(&["build", "--root", ".", "--output", "public"]);
        assert!(!failed.status.success());
        assert!(String::from_utf8_lossy(&failed.stderr).contains("content/a/index.vi.md:3:1"));
        assert_eq!(snapshot(&out), before);
        let stray: Vec<_> = std::fs::read_dir(site.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with(".public"))
            .collect();
        assert!(stray.is_empty(), "staging folders left behind: {stray:?}");
    }

    #[test]
    fn errors_found_after_pages_were_written_leave_the_previous_output() {
        // Links are checked once every page is rendered, when a build has already written its
        // pages into the staging folder; a link to a heading of another page is checked
        // against the ids kept of that page once written.
        let site = site_with("title: A\ndate: 2026-01-01", "[b](/b/#hai)\n");
        site.article("b", "vi", "title: B\ndate: 2026-01-02", "## Hai\n\ny\n");
        let out = site.path("public");
        let ok = site.cli(&["build", "--root", ".", "--output", "public"]);
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
        let before = snapshot(&out);
        site.article(
            "a",
            "vi",
            "title: A\ndate: 2026-01-01",
            "[x](/nope/) [b](/b/#ba)\n",
        );
        let failed = site.cli(&["build", "--root", ".", "--output", "public"]);
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert!(!failed.status.success());
        assert!(stderr.contains("broken link `/nope/`"), "{stderr}");
        assert!(
            stderr.contains("/b/ has no element with id `ba`"),
            "{stderr}"
        );
        assert_eq!(snapshot(&out), before);
        let stray: Vec<_> = std::fs::read_dir(site.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with(".public"))
            .collect();
        assert!(stray.is_empty(), "staging folders left behind: {stray:?}");
    }

    #[test]
    fn a_build_to_disk_writes_the_site_in_memory_without_holding_its_pages() {
        let site = TestSite::fixture("basic");
        let in_memory = site.build().unwrap_or_else(|e| panic!("{e}"));
        let out = site.path("out");
        let written =
            measured::build_to_disk(&site.options(), Some(&out)).unwrap_or_else(|e| panic!("{e}"));
        let on_disk: Vec<(String, Vec<u8>)> = snapshot(&out)
            .into_iter()
            .map(|(p, b)| (p.to_string_lossy().replace('\\', "/"), b))
            .filter(|(p, _)| p != measured::write::MARKER)
            .collect();
        let expected: Vec<(String, Vec<u8>)> = in_memory
            .output
            .files
            .iter()
            .map(|(p, b)| (p.clone(), b.to_vec()))
            .collect();
        assert!(
            expected
                .iter()
                .any(|(p, _)| p == "en/tcp-handshake/index.html")
        );
        let paths = |files: &[(String, Vec<u8>)]| {
            let mut paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
            paths.sort();
            paths
        };
        assert_eq!(paths(&on_disk), paths(&expected), "the same files");
        for (path, bytes) in &expected {
            let disk = &on_disk.iter().find(|(p, _)| p == path).expect("on disk").1;
            assert!(disk == bytes, "{path} differs on disk");
        }
        // The pages went to disk as they rendered: the build kept their paths, not their bytes.
        assert_eq!(written.output.len(), expected.len());
        for page in ["index.html", "en/tcp-handshake/index.html", "atom.xml"] {
            assert!(written.output.contains(page), "{page}");
            assert_eq!(written.output.get(page), None, "{page} is not held");
        }
    }

    #[test]
    fn a_missing_translation_is_not_an_error_and_check_lists_it() {
        let site = site_with("title: A\ndate: 2026-01-01", "x\n");
        let out = site.cli(&["check"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("missing translation:") && stdout.contains("content/a (no en)"),
            "{stdout}"
        );
        assert!(!site.path("public").exists(), "check writes nothing");
    }
}

#[test]
fn the_build_never_writes_into_the_sources() {
    let site = TestSite::fixture("basic");
    site.write("templates/extra.html", "x");
    site.write("static/extra.txt", "x");
    let before: Vec<_> = ["content", "templates", "static"]
        .iter()
        .map(|d| snapshot(&site.path(d)))
        .collect();
    let out = site.cli(&["build"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after: Vec<_> = ["content", "templates", "static"]
        .iter()
        .map(|d| snapshot(&site.path(d)))
        .collect();
    assert_eq!(before, after);
    assert!(site.path("public/index.html").exists());
}

#[test]
fn output_may_not_replace_the_sources() {
    let site = TestSite::fixture("basic");
    let out = site.cli(&["build", "--output", "content"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the output folder is the site's source")
    );
    assert!(site.path("content/dns/index.vi.md").exists());
}

#[test]
fn new_scaffolds_both_languages_as_drafts() {
    let site = TestSite::new();
    let out = site.cli(&["new", "window-functions"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for lang in ["vi", "en"] {
        let text = site.read(&format!("content/window-functions/index.{lang}.md"));
        assert!(
            text.starts_with("---\ntitle: window functions\ndate: "),
            "{text}"
        );
        assert!(text.contains("\ndraft: true\n"), "{text}");
    }
    assert!(
        site.build()
            .unwrap()
            .output
            .get("window-functions/index.html")
            .is_none(),
        "drafts are not published"
    );
    let again = site.cli(&["new", "window-functions"]);
    assert!(!again.status.success(), "never overwrites");
}

mod translations {
    use super::*;

    fn site() -> TestSite {
        site_with("Nội dung gốc.\n")
    }

    fn site_with(body: &str) -> TestSite {
        let site = TestSite::new();
        site.article(
            "a",
            "vi",
            "title: Bài gốc\ndate: 2026-01-01\ntags: [mạng]",
            body,
        );
        site
    }

    /// The Vietnamese article `a` with `body` and its English translation, published, which
    /// records the original it was made from.
    pub(super) fn translated(body: &str) -> TestSite {
        let site = site_with(body);
        assert!(
            site.cli(&["new", "a", "--translate", "en"])
                .status
                .success()
        );
        let en = site
            .read("content/a/index.en.md")
            .replace("draft: true\n", "")
            .replace("Nội dung gốc.", "The original text.");
        site.write("content/a/index.en.md", &en);
        site
    }

    #[test]
    fn new_translate_records_the_original_and_translated_updates_it() {
        let site = site();
        let out = site.cli(&["new", "a", "--translate", "en"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let en = site.read("content/a/index.en.md");
        assert!(
            en.contains("title: Bài gốc")
                && en.contains("draft: true")
                && en.contains("Nội dung gốc."),
            "{en}"
        );
        let recorded = en
            .lines()
            .find_map(|l| l.strip_prefix("translated_from: "))
            .expect("translated_from")
            .to_string();
        // Quoted: a hash of digits and one `e` would read as a number.
        assert_eq!(recorded.len(), 14, "{recorded}");
        assert!(recorded.starts_with('"') && recorded.ends_with('"'));
        site.write(
            "content/a/index.vi.md",
            &site
                .read("content/a/index.vi.md")
                .replace("Nội dung gốc.", "Nội dung đã sửa."),
        );
        let out = site.cli(&["translated", "a", "en"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let updated = site.read("content/a/index.en.md");
        let now = updated
            .lines()
            .find_map(|l| l.strip_prefix("translated_from: "))
            .unwrap();
        assert_ne!(now, recorded);
        assert_eq!(updated.matches("translated_from:").count(), 1);
        assert!(
            !site
                .cli(&["new", "a", "--translate", "en"])
                .status
                .success(),
            "never overwrites"
        );
    }

    #[test]
    fn an_outdated_translation_warns_and_shows_a_notice_in_its_language() {
        let site = translated("Nội dung gốc.\n");
        let fresh = site.build().unwrap_or_else(|e| panic!("{e}"));
        assert!(fresh.warnings.is_empty());
        assert!(texts(&html(&fresh, "en/a/index.html"), ".translation-notice").is_empty());

        site.write(
            "content/a/index.vi.md",
            &site
                .read("content/a/index.vi.md")
                .replace("Nội dung gốc.", "Nội dung gốc, đã bổ sung."),
        );
        let stale = site.build().unwrap();
        assert_eq!(stale.warnings.len(), 1);
        assert!(
            stale.warnings[0]
                .message
                .contains("changed since this translation was made"),
            "{}",
            stale.warnings[0]
        );
        assert_eq!(
            texts(&html(&stale, "en/a/index.html"), ".translation-notice"),
            [
                "The original (Vietnamese) has been edited since this translation was made; the translation may lag behind."
            ]
        );
        let out = site.cli(&["check"]);
        assert!(out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("warning: the original"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(site.cli(&["translated", "a", "en"]).status.success());
        assert!(site.build().unwrap().warnings.is_empty());
    }
}

#[test]
fn feeds_carry_the_latest_articles_up_to_the_limit() {
    let site = TestSite::fixture("basic");
    let entries = |built: &measured::Built| {
        built
            .output
            .text("atom.xml")
            .unwrap()
            .matches("</entry>")
            .count()
    };
    let all = site.build().unwrap();
    assert_eq!(entries(&all), 3, "under the default limit, every article");
    let toml = site.read("site.toml");
    site.write("site.toml", &toml.replacen("\n", "\nfeed_limit = 1\n", 1));
    let one = site.build().unwrap();
    assert_eq!(entries(&one), 1);
    let feed = one.output.text("atom.xml").unwrap();
    assert!(
        feed.contains("/only-vietnamese/"),
        "the newest article: {feed}"
    );
}

#[test]
fn a_site_may_go_without_search() {
    let site = TestSite::fixture("basic");
    let with = site.build().unwrap();
    let page = with.output.text("tcp-handshake/index.html").unwrap();
    assert!(page.contains("id=\"search\"") && page.contains("class=\"search-open\""));
    assert!(
        with.output
            .files
            .keys()
            .any(|p| p.starts_with("search/vi/"))
    );
    let toml = site.read("site.toml");
    site.write("site.toml", &format!("{toml}\n[search]\nenabled = false\n"));
    let without = site.build().unwrap();
    assert!(
        !without
            .output
            .files
            .keys()
            .any(|p| p.starts_with("search/"))
    );
    let page = without.output.text("tcp-handshake/index.html").unwrap();
    assert!(
        !page.contains("id=\"search\"") && !page.contains("search-open"),
        "no search box that finds nothing (theme.js loads search.js only for it)"
    );
}

#[test]
fn a_session_that_indexes_later_publishes_first_and_reindexes_the_changed_language_only() {
    use measured::pipeline::{SearchWhen, Session};
    let site = TestSite::fixture("basic");
    let mut session = Session::new(measured::BuildOptions {
        search: SearchWhen::Later,
        ..site.options()
    });
    let silent = measured::experiments::Silent;
    let first = session.build(&silent).unwrap();
    let job = first
        .search
        .clone()
        .expect("the first build leaves the index to make");
    assert_eq!(job.langs().collect::<Vec<_>>(), ["en", "vi"]);
    assert!(
        !first.output.files.keys().any(|p| p.starts_with("search/")),
        "no index yet"
    );
    let index = job.run().unwrap();
    session.search_done(index);
    let again = session.build(&silent).unwrap();
    assert!(again.search.is_none(), "nothing left to index");
    let en_entry = again.output.get("search/en/index.json").unwrap().to_vec();
    let vi_entry = again.output.get("search/vi/index.json").unwrap().to_vec();

    let path = "content/tcp-handshake/index.vi.md";
    site.write(
        path,
        &site.read(path).replace("Một chú thích.", "Chú thích mới."),
    );
    let edited = session.build(&silent).unwrap();
    let job = edited
        .search
        .clone()
        .expect("the edited language is to index");
    assert_eq!(job.langs().collect::<Vec<_>>(), ["vi"]);
    assert!(
        edited
            .output
            .text("tcp-handshake/index.html")
            .unwrap()
            .contains("Chú thích mới."),
        "the page is new"
    );
    assert_eq!(
        edited.output.get("search/vi/index.json").unwrap(),
        vi_entry,
        "the earlier index stands in meanwhile"
    );
    session.search_done(job.run().unwrap());
    let indexed = session.build(&silent).unwrap();
    assert!(indexed.search.is_none());
    assert_ne!(
        indexed.output.get("search/vi/index.json").unwrap(),
        vi_entry
    );
    assert_eq!(
        indexed.output.get("search/en/index.json").unwrap(),
        en_entry
    );
}

#[test]
fn a_one_off_build_makes_the_same_site_as_a_sessions_first_build() {
    // A one-off build (`measured build`) hashes no page for a next build; it must still
    // render every page, the same.
    let site = TestSite::fixture("basic");
    let toml = std::fs::read_to_string(site.root().join("site.toml")).expect("site.toml");
    site.write("site.toml", &format!("{toml}\n[cards]\nenabled = true\n"));
    let once = site.build().unwrap_or_else(|e| panic!("{e}"));
    let mut session = measured::pipeline::Session::new(site.options());
    let first = session.build(&measured::experiments::Silent).unwrap();
    assert_eq!(once.output, first.output);
    // The same work, but for the code blocks and the social cards: the one-off build saved
    // them highlighted and drawn.
    assert!(once.work.blocks_highlighted > 0, "{:?}", once.work);
    assert!(once.work.cards_drawn > 0, "{:?}", once.work);
    assert_eq!(
        first.work,
        measured::pipeline::Work {
            blocks_highlighted: 0,
            cards_drawn: 0,
            ..once.work
        }
    );
    assert!(once.work.pages_rendered > 10, "{:?}", once.work);
}

#[test]
fn a_code_block_shared_by_translations_is_highlighted_once_and_never_again() {
    // Translations usually carry the same code. Rendered by workers racing each other over
    // the pages, both languages of an article missed the cache together and each block was
    // highlighted twice; a later build must find every block in the saved cache.
    let site = TestSite::new();
    let articles = 24;
    for k in 0..articles {
        let code: String = (0..40)
            .map(|line| format!("fn f{k}_{line}(x: u64) -> u64 {{ x.wrapping_mul({line}) }}\n"))
            .collect();
        for (lang, title) in [("vi", "Bài"), ("en", "Article")] {
            site.article(
                &format!("a{k}"),
                lang,
                &format!("title: {title} {k}\ndate: 2026-01-01"),
                &format!("Text.\n\n```rust\n{code}```\n"),
            );
        }
    }
    let first = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.work.bodies_rendered, 2 * articles);
    assert_eq!(
        first.work.blocks_highlighted, articles,
        "one per distinct block"
    );
    let second = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        second.work.blocks_highlighted, 0,
        "all from the saved cache"
    );
    assert_eq!(first.output, second.output);
}

#[test]
fn a_session_rebuild_renders_only_what_changed() {
    let site = TestSite::fixture("basic");
    let mut session = measured::pipeline::Session::new(site.options());
    let silent = measured::experiments::Silent;
    let first = session.build(&silent).unwrap();
    assert_eq!(first.work.bodies_rendered, 5);
    let again = session.build(&silent).unwrap();
    assert_eq!(
        again.work,
        measured::pipeline::Work::default(),
        "an unchanged rebuild renders nothing"
    );
    assert_eq!(again.output, first.output);

    // Editing the body of one article (not its first paragraph) re-renders its body, its page
    // and the feed that carries its full content, nothing else (the search index aside).
    let path = "content/tcp-handshake/index.vi.md";
    site.write(
        path,
        &site
            .read(path)
            .replace("Nội dung.", "x")
            .replace("### Chi tiết", "### Chi tiết mới"),
    );
    let edited = session.build(&silent).unwrap();
    assert_eq!(edited.work.bodies_rendered, 1);
    let changed: Vec<&String> = edited
        .output
        .files
        .iter()
        .filter(|(p, b)| first.output.files.get(*p) != Some(b) && !p.starts_with("search/"))
        .map(|(p, _)| p)
        .collect();
    // The article, and the feeds that carry its body: its language's and its two tags'.
    assert_eq!(
        changed,
        [
            "atom.xml",
            "tags/mang/atom.xml",
            "tags/tcp/atom.xml",
            "tcp-handshake/index.html"
        ]
    );
    assert_eq!(edited.work.pages_rendered, 4);
    // Only the Vietnamese search index is made again; the English one is the same files.
    let index_of = |built: &measured::Built, lang: &str| -> Vec<(String, Vec<u8>)> {
        let dir = format!("search/{lang}/");
        built
            .output
            .files
            .iter()
            .filter(|(p, _)| p.starts_with(&dir))
            .map(|(p, b)| (p.clone(), b.to_vec()))
            .collect()
    };
    assert!(!index_of(&first, "en").is_empty());
    assert_eq!(index_of(&edited, "en"), index_of(&first, "en"));
    assert_ne!(index_of(&edited, "vi"), index_of(&first, "vi"));

    // A template change re-renders everything.
    site.write(
        "templates/404.html",
        "{% extends \"base.html\" %}{% block main %}gone{% endblock main %}",
    );
    let themed = session.build(&silent).unwrap();
    assert_eq!(themed.work.bodies_rendered, 5);
}

mod edits {
    //! A session's rebuild after edits ([`Session::build_after`], what `serve` calls with the
    //! paths its watcher reports) must equal a whole build of the same sources.
    use super::*;
    use measured::experiments::Silent;
    use measured::pipeline::{Session, Work};
    use std::path::PathBuf;

    /// Writes `edit` of `rel`, rebuilds the session after it, and checks that the result is
    /// exactly what a whole build of the sources gives.
    fn edit(
        site: &TestSite,
        session: &mut Session,
        rel: &str,
        edit: impl Fn(String) -> String,
    ) -> measured::Built {
        site.write(rel, &edit(site.read(rel)));
        let after = session
            .build_after(&[PathBuf::from(rel)], &Silent)
            .unwrap_or_else(|e| panic!("{e}"));
        same_as_whole(site, &after);
        after
    }

    fn same_as_whole(site: &TestSite, after: &measured::Built) {
        let whole = site.build().unwrap_or_else(|e| panic!("{e}"));
        let differ: Vec<&String> = after
            .output
            .files
            .keys()
            .chain(whole.output.files.keys())
            .filter(|p| after.output.get(p) != whole.output.get(p))
            .collect();
        assert!(differ.is_empty(), "differs from a whole build: {differ:?}");
        let messages = |b: &measured::Built| -> Vec<String> {
            b.warnings.iter().map(ToString::to_string).collect()
        };
        assert_eq!(messages(after), messages(&whole));
    }

    /// The basic fixture and a session that built it once.
    fn basic_session() -> (TestSite, Session) {
        let site = TestSite::fixture("basic");
        let mut session = Session::new(site.options());
        session.build(&Silent).unwrap();
        (site, session)
    }

    #[test]
    fn an_edited_body_renders_its_page_and_the_feed_that_carries_it() {
        let (site, mut session) = basic_session();
        let vi = "content/tcp-handshake/index.vi.md";
        let after = edit(&site, &mut session, vi, |t| {
            t.replace(
                "Chú thích[^1].",
                "Chú thích mới[^1].\n\n```go\nfunc main() {}\n```",
            )
        });
        assert_eq!(
            after.work,
            Work {
                bodies_rendered: 1,
                pages_rendered: 4,
                blocks_highlighted: 1,
                cards_drawn: 0,
                whole: false,
            },
            "the article, atom.xml and its two tags' feeds, and no other stage"
        );
        let page = after.output.text("tcp-handshake/index.html").unwrap();
        assert!(page.contains("Chú thích mới") && page.contains("data-lang=\"go\""));

        // Two articles at once, one of them out of every feed (the limit is one article).
        let toml = site.read("site.toml");
        site.write("site.toml", &toml.replacen("\n", "\nfeed_limit = 1\n", 1));
        session.build(&Silent).unwrap();
        site.write(
            vi,
            &site.read(vi).replace("Chú thích mới", "Chú thích lần ba"),
        );
        let en = "content/dns/index.en.md";
        site.write(en, &format!("{}\nOne more line.\n", site.read(en)));
        let after = session
            .build_after(&[PathBuf::from(vi), PathBuf::from(en)], &Silent)
            .unwrap();
        same_as_whole(&site, &after);
        assert!(!after.work.whole);
        assert_eq!(after.work.bodies_rendered, 2);
        assert_eq!(
            after.work.pages_rendered, 6,
            "two articles, the English feed, whose one article is the DNS one, and the feeds of \
             the tags whose newest article they are: tcp (vi), networking and dns (en)"
        );
    }

    #[test]
    fn edits_beyond_a_body_take_the_whole_pipeline() {
        let (site, mut session) = basic_session();
        // A title is in listings, feeds, neighbours and the sitemap; without a description,
        // listings quote the first paragraph.
        for (old, new) in [
            ("DNS trước khi bắt tay\"", "Phân giải tên\""),
            ("là mô tả mặc định", "là mô tả đã sửa"),
        ] {
            let after = edit(&site, &mut session, "content/dns/index.vi.md", |t| {
                t.replace(old, new)
            });
            assert!(after.work.whole, "{new}");
            let home = after.output.text("index.html").unwrap();
            assert!(home.contains(new.trim_end_matches('"')), "{new}");
        }
        // A file that is no article of the last build: a new one.
        let new = "content/new/index.vi.md";
        site.write(new, "---\ntitle: Mới\ndate: 2026-11-20\n---\nBài mới.\n");
        let after = session
            .build_after(&[PathBuf::from(new)], &Silent)
            .unwrap_or_else(|e| panic!("{e}"));
        same_as_whole(&site, &after);
        assert!(after.work.whole && after.output.get("new/index.html").is_some());
    }

    #[test]
    fn an_anchor_removed_from_an_edited_body_breaks_links_to_it_until_fixed() {
        let (site, mut session) = basic_session();
        let dns = "content/dns/index.vi.md";
        site.write(
            dns,
            &site
                .read(dns)
                .replace("## Trước khi bắt tay", "## Sau khi bắt tay"),
        );
        let err = session
            .build_after(&[PathBuf::from(dns)], &Silent)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("tcp-handshake/index.vi.md") && err.contains("truoc-khi-bat-tay"),
            "{err}"
        );
        // Another file's edit does not hide the broken one.
        let en = "content/tcp-handshake/index.en.md";
        site.write(en, &format!("{}\nMore.\n", site.read(en)));
        let err = session
            .build_after(&[PathBuf::from(en)], &Silent)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains("truoc-khi-bat-tay"), "{err}");
        edit(&site, &mut session, dns, |t| {
            t.replace("## Sau khi bắt tay", "## Trước khi bắt tay")
        });
    }

    #[test]
    fn after_any_failed_build_an_edited_body_takes_the_whole_pipeline() {
        // The last good build no longer stands for the sources once a build failed, even one
        // that failed before any stage read them (a broken site.toml).
        let (site, mut session) = basic_session();
        let toml = site.read("site.toml");
        site.write("site.toml", &format!("{toml}\nnot a key\n"));
        assert!(session.build(&Silent).is_err());
        let vi = "content/tcp-handshake/index.vi.md";
        site.write(vi, &site.read(vi).replace("Nội dung.", "Nội dung mới."));
        let err = session
            .build_after(&[PathBuf::from(vi)], &Silent)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains("site.toml"), "{err}");
        site.write("site.toml", &toml);
        let after = session
            .build_after(&[PathBuf::from("site.toml")], &Silent)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(after.work.whole);
        same_as_whole(&site, &after);
    }

    #[test]
    fn an_edited_original_gives_its_translation_a_notice() {
        // A first paragraph of its own: listings quote it, and the edit leaves it alone.
        let site = super::translations::translated("Mở đầu.\n\nNội dung gốc.\n");
        let mut session = Session::new(site.options());
        assert!(session.build(&Silent).unwrap().warnings.is_empty());
        let after = edit(&site, &mut session, "content/a/index.vi.md", |t| {
            t.replace("Nội dung gốc.", "Nội dung đã sửa.")
        });
        assert_eq!(after.warnings.len(), 1);
        assert_eq!(
            texts(&html(&after, "en/a/index.html"), ".translation-notice").len(),
            1
        );
        assert_eq!(
            after.work,
            Work {
                bodies_rendered: 1,
                pages_rendered: 4,
                blocks_highlighted: 0,
                cards_drawn: 0,
                whole: false,
            },
            "both articles, the Vietnamese feed and the feed of its tag `mạng`"
        );
    }
}

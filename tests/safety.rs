//! Author text and paths that once broke pages or URLs (issue 22): each case builds a small site
//! and checks the parsed output or the exact error.

mod common;

use common::fixtures::{frozen_options, frozen_site};
use common::{TestSite, html, texts};

const HOSTILE: &str = "</script><!--<script> ]]> & <b>";

#[test]
fn script_blocks_cannot_be_broken_by_author_text() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        // `]]>` has no letter for a URL: since issue 20 such a tag needs its own slug.
        &format!(
            "author = {:?}\n{}[tags]\n\"]]>\" = \"cdata-end\"\n",
            HOSTILE,
            common::SITE_TOML
        ),
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

fn build_frozen(site: &TestSite) -> measured::Built {
    measured::build_in_memory(&frozen_options(site)).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn numbers_print_exactly_in_text_and_data_value_with_no_negative_zero() {
    let site = frozen_site(serde_json::json!({
        "max": u64::MAX, "min": i64::MIN, "huge": 1e308, "tiny": -0.0001
    }));
    site.article(
        "a",
        "vi",
        "title: Số\ndate: 2026-01-02",
        "{{ exp.max }} {{ exp.min }} {{ exp.huge | bytes }} {{ exp.tiny | percent }} \
         {{ exp.tiny | fixed(1) }}\n",
    );
    let built = build_frozen(&site);
    let page = html(&built, "a/index.html");
    assert_eq!(
        common::attrs(&page, "data", "value"),
        [
            "18446744073709551615",
            "-9223372036854775808",
            "1e308",
            "-0.0001",
            "-0.0001"
        ]
    );
    assert_eq!(
        texts(&page, "data"),
        [
            "18.446.744.073.709.551.615",
            "-9.223.372.036.854.775.808",
            "1 × 10²⁹⁰ EB",
            "0%",
            "0,0"
        ]
    );
}

/// The diagnostics of a failed build, as (file under the site root, line, message) triples.
fn errors(site: &TestSite) -> Vec<(String, Option<usize>, String)> {
    let Err(diags) = site.build() else {
        panic!("the build should fail")
    };
    diags
        .0
        .into_iter()
        .map(|d| {
            let file = d
                .place
                .path
                .strip_prefix(site.root())
                .unwrap_or(&d.place.path);
            (file.display().to_string(), d.place.line, d.message)
        })
        .collect()
}

#[test]
fn slugs_that_break_urls_are_refused_at_their_line() {
    let site = TestSite::new();
    let cases = [
        ("q", "a?b", "it holds `?`"),
        ("hash", "a#b", "it holds `#`"),
        ("pct", "a%2fb", "it holds `%`"),
        ("bs", "a\\b", "it holds `\\`"),
        ("colon", "a:b", "it holds `:`"),
        ("dots", "..", "`..` names a folder, not a page"),
        ("empty", "\"\"", "it is empty"),
    ];
    for (dir, slug, _) in cases {
        site.article(
            dir,
            "vi",
            &format!("title: A\ndate: 2026-01-02\nslug: {slug}"),
            "x\n",
        );
    }
    let mut want: Vec<(String, Option<usize>, String)> = cases
        .iter()
        .map(|(dir, slug, problem)| {
            let shown = if *slug == "\"\"" { "" } else { slug };
            (
                format!("content/{dir}/index.vi.md"),
                Some(4),
                format!("front matter: `slug: {shown}` cannot be a URL segment: {problem}"),
            )
        })
        .collect();
    want.sort();
    assert_eq!(errors(&site), want);
}

#[test]
fn folder_names_that_break_urls_are_refused_unless_a_slug_replaces_them() {
    let site = TestSite::new();
    site.article("Has Space", "vi", "title: A\ndate: 2026-01-02", "x\n");
    site.article("a?q", "vi", "title: B\ndate: 2026-01-02", "x\n");
    site.article(
        "kết nối",
        "vi",
        "title: C\ndate: 2026-01-02\nslug: ket-noi",
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [
            (
                "content/Has Space/index.vi.md".to_string(),
                None,
                "the folder name `Has Space` cannot be a URL segment: it holds a space".to_string()
            ),
            (
                "content/a?q/index.vi.md".to_string(),
                None,
                "the folder name `a?q` cannot be a URL segment: it holds `?`".to_string()
            ),
        ]
    );
    let hint = site.build_err();
    assert!(
        hint.contains("rename the folder to content/has-space/, or set `slug: has-space`"),
        "{hint}"
    );
}

#[test]
fn a_slug_that_collides_with_a_theme_file_names_the_article() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02\nslug: style.css",
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/a/index.vi.md".to_string(),
            Some(4),
            "the page's URL /style.css/ needs a folder where the site writes the file style.css"
                .to_string()
        )]
    );
}

#[test]
fn two_articles_with_one_url_are_still_an_error() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02\nslug: same", "x\n");
    site.article("b", "vi", "title: B\ndate: 2026-01-02\nslug: same", "x\n");
    let errors = errors(&site);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].2.starts_with("two pages claim the URL /same/"),
        "{errors:?}"
    );
}

#[test]
fn symlinked_articles_inside_the_site_are_followed_and_those_outside_refused() {
    let site = TestSite::new();
    site.write(
        "shared/b.md",
        "---\ntitle: Linked file\ndate: 2026-01-02\n---\nx\n",
    );
    site.write(
        "drafts/c/index.vi.md",
        "---\ntitle: Linked folder\ndate: 2026-01-02\n---\nx\n",
    );
    std::fs::create_dir_all(site.path("content/b")).unwrap();
    std::os::unix::fs::symlink("../../shared/b.md", site.path("content/b/index.vi.md")).unwrap();
    std::os::unix::fs::symlink("../drafts/c", site.path("content/c")).unwrap();
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        texts(&html(&built, "b/index.html"), "article h1"),
        ["Linked file"]
    );
    assert_eq!(
        texts(&html(&built, "c/index.html"), "article h1"),
        ["Linked folder"]
    );

    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("d");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(
        target.join("index.vi.md"),
        "---\ntitle: D\ndate: 2026-01-02\n---\nx\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&target, site.path("content/d")).unwrap();
    assert_eq!(
        errors(&site),
        [(
            "content/d".to_string(),
            None,
            format!("a symbolic link to {}, outside the site", target.display())
        )]
    );
}

#[test]
fn a_file_named_almost_like_an_article_is_a_warning() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    site.write(
        "content/a/index.en.markdown",
        "---\ntitle: A\ndate: 2026-01-02\n---\nx\n",
    );
    site.write(
        "content/a/index.MD",
        "---\ntitle: A\ndate: 2026-01-02\n---\nx\n",
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let warnings: Vec<(String, String)> = built
        .warnings
        .iter()
        .map(|w| {
            let file = w.place.path.strip_prefix(site.root()).unwrap();
            (file.display().to_string(), w.message.clone())
        })
        .collect();
    assert_eq!(
        warnings,
        [
            (
                "content/a/index.MD".to_string(),
                "not an article: name it index.vi.md".to_string()
            ),
            (
                "content/a/index.en.markdown".to_string(),
                "not an article: name it index.en.md".to_string()
            ),
        ]
    );
}

#[test]
fn a_null_title_is_an_error_at_its_line() {
    let site = TestSite::new();
    site.article("a", "vi", "date: 2026-01-02\ntitle: null", "x\n");
    assert_eq!(
        errors(&site),
        [(
            "content/a/index.vi.md".to_string(),
            Some(3),
            "front matter: `title` is null, not a text".to_string()
        )]
    );
}

/// Every `id` attribute of a parsed page, in document order.
fn ids(page: &scraper::Html) -> Vec<String> {
    common::attrs(page, "[id]", "id")
}

#[test]
fn headings_named_like_the_themes_ids_get_ids_of_their_own() {
    let site = TestSite::new();
    let front = "title: A\ndate: 2026-01-02\ntags: [mạng]\nseries: Mạng\npart: 1";
    let body = "Xem [loạt bài](#series-1) và [hộp loạt bài](#series).\n\n## Series\n\nx\n\n## Related\n\ny\n\n## Main\n\nz\n\n## Reproduce tcp\n\nw\n";
    site.article("a", "vi", front, body);
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-03\ntags: [mạng]\nseries: Mạng\npart: 2",
        "Bài hai.\n",
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let page = html(&built, "a/index.html");
    assert_eq!(
        common::attrs(&page, ".content h2", "id"),
        ["series-1", "related", "main-1", "section-reproduce-tcp"]
    );
    let ids = ids(&page);
    for theirs in [
        "main",
        "series",
        "series-title",
        "toc-title",
        "related-title",
    ] {
        assert!(ids.contains(&theirs.to_string()), "{theirs} in {ids:?}");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "no id twice: {ids:?}");
    assert_eq!(
        common::attrs(&page, ".content p a", "href"),
        ["#series-1", "#series"]
    );
}

#[test]
fn a_headings_own_id_that_the_theme_writes_is_an_error_at_its_line() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        "Mở đầu.\n\n## Loạt bài {#series}\n\nx\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/a/index.vi.md".to_string(),
            Some(7),
            "the theme's templates give the id `series` to an element of the page".to_string()
        )]
    );
}

#[test]
fn a_site_template_reserves_its_own_ids() {
    let site = TestSite::new();
    let base = measured_builtin("base.html").replace(
        "<main id=\"main\" tabindex=\"-1\">",
        "<aside id=\"ghi-chu\"></aside><main id=\"main\" tabindex=\"-1\">",
    );
    site.write("templates/base.html", &base);
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "## Ghi chú\n\nx\n");
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let page = html(&built, "a/index.html");
    assert_eq!(common::attrs(&page, ".content h2", "id"), ["ghi-chu-1"]);
    assert_eq!(common::attrs(&page, "aside", "id"), ["ghi-chu"]);
}

/// The text of a built-in template.
fn measured_builtin(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("templates")
        .join(name);
    std::fs::read_to_string(path).expect("a built-in template")
}

/// The stderr of a run of the binary that must fail.
fn failed(out: std::process::Output) -> String {
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn measure_out_never_writes_into_the_sources_or_over_a_file_it_did_not_write() {
    let site = frozen_site(serde_json::json!({ "x": 1 }));
    site.write("pages/about/index.vi.md", "---\ntitle: A\n---\nx\n");
    site.write(".measured/results/x.json", "{}");
    site.write("notes.txt", "mine");
    std::os::unix::fs::symlink(site.path("notes.txt"), site.path("link.json")).unwrap();
    let refused = [
        ("site.toml", "--out is the site's source site.toml"),
        (
            "pages/about/index.vi.md",
            "--out lies inside the site's sources (pages)",
        ),
        (
            ".measured/results/x.json",
            "--out lies inside the site's sources (.measured)",
        ),
        (
            "frozen/exp.json",
            "--out lies inside the site's sources (frozen)",
        ),
        (
            "notes.txt",
            "--out names a file that exists and is not a results file `measured measure` wrote",
        ),
        (
            "link.json",
            "--out names a file that exists and is not a results file `measured measure` wrote",
        ),
    ];
    let before = common::snapshot(site.root());
    for (out, message) in refused {
        let e = failed(site.cli(&["measure", "exp", "--out", out]));
        assert!(
            e.contains(&format!("{out}: error: {message}")),
            "{out}: {e}"
        );
        assert!(
            e.contains("pass a new path") || e.contains("write the results file elsewhere"),
            "{e}"
        );
    }
    assert_eq!(common::snapshot(site.root()), before);
}

#[test]
fn output_inside_pages_and_a_frozen_dir_over_content_are_refused() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    site.write(
        "pages/about/index.vi.md",
        "---\ntitle: Giới thiệu\n---\nx\n",
    );
    let e = failed(site.cli(&["build", "--output", "pages/out"]));
    assert!(
        e.contains("error: the output folder is inside the site's sources") && e.contains("pages"),
        "{e}"
    );
    assert!(!site.path("pages/out").exists());
    site.write(
        "site.toml",
        &format!(
            "{}[experiments]\nfrozen_dir = \"content\"\n",
            common::SITE_TOML
        ),
    );
    let e = failed(site.cli(&["build"]));
    assert!(
        e.contains("site.toml:8:1: error: [experiments] frozen_dir = \"content\" is the site's source content"),
        "{e}"
    );
    assert!(!site.path("public").exists());
}

#[test]
fn run_on_refuses_ssh_options_that_run_commands_here() {
    let site = TestSite::new();
    let pwned = site.path("pwned");
    let touch = format!("touch {}", pwned.display());
    for option in [
        format!("ProxyCommand={touch}"),
        format!("KnownHostsCommand={touch}"),
        format!("LocalCommand={touch}"),
        "PermitLocalCommand=yes".to_string(),
        format!("Match exec \"{touch}\""),
        "ProxyJump=me@127.0.0.1:1".to_string(),
    ] {
        let table = format!(
            "[hosts.box]\nssh = \"me@127.0.0.1\"\nport = 1\nssh_options = [{option:?}, \"PermitLocalCommand=yes\", \"LocalCommand={touch}\"]\n"
        );
        site.write("site.toml", &format!("{}{table}", common::SITE_TOML));
        let e = failed(site.cli(&["run", "--on", "box"]));
        let key = option.split(['=', ' ']).next().unwrap();
        assert!(
            e.contains("site.toml:10:1: error: [hosts.box] ssh_options entry")
                && e.contains(&format!("`{key}` ")),
            "{option}: {e}"
        );
        assert!(!pwned.exists(), "{option} ran a command");
    }
}

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
fn a_link_in_static_leading_out_of_the_site_is_an_error_and_never_published() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    let outside = tempfile::tempdir().unwrap();
    let key = outside.path().join("id_ed25519");
    std::fs::write(&key, "PRIVATE KEY").unwrap();
    site.write("static/img/inside.txt", "shared");
    std::os::unix::fs::symlink(&key, site.path("static/img/logo.png")).unwrap();
    std::os::unix::fs::symlink(outside.path(), site.path("static/vendor")).unwrap();
    std::os::unix::fs::symlink(site.path("content/a/index.vi.md"), site.path("static/a.md"))
        .unwrap();
    let mut got = errors(&site);
    got.sort();
    assert_eq!(
        got,
        [
            (
                "static/img/logo.png".to_string(),
                None,
                format!("a symbolic link to {}, outside the site", key.display())
            ),
            (
                "static/vendor".to_string(),
                None,
                format!(
                    "a symbolic link to {}, outside the site",
                    outside.path().display()
                )
            ),
        ]
    );
    // Removed, the site builds, and a link inside the site is followed.
    std::fs::remove_file(site.path("static/img/logo.png")).unwrap();
    std::fs::remove_file(site.path("static/vendor")).unwrap();
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        built.output.text("img/inside.txt").as_deref(),
        Some("shared")
    );
    assert!(
        built
            .output
            .text("a.md")
            .is_some_and(|t| t.contains("title: A"))
    );
    assert!(built.output.text("img/logo.png").is_none());
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

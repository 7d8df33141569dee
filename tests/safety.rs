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

#[path = "safety/sources.rs"]
mod sources;

#[path = "safety/pages.rs"]
mod pages;

// Issue 35: hostile input that crashed, hung or ran without bound, and messages that named no
// place or gave no advice.
#[path = "safety/bounds.rs"]
mod bounds;
#[path = "safety/messages.rs"]
mod messages;

/// The first diagnostic of a failed build, as (file, line, message, hint).
fn first_error(site: &TestSite) -> (String, Option<usize>, String, String) {
    let Err(diags) = site.build() else {
        panic!("the build should fail")
    };
    let d = diags.0[0].clone();
    let file = d
        .place
        .path
        .strip_prefix(site.root())
        .unwrap_or(&d.place.path);
    (
        file.display().to_string(),
        d.place.line,
        d.message,
        d.hint.unwrap_or_default(),
    )
}

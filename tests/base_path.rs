//! A site published under a path (`base_url = "http://127.0.0.1:PORT/blog/"`): every address
//! a page, a feed, the sitemap or robots.txt gives points under `/blog/`, at a file the build
//! wrote, and the preview serves the site there.

mod common;

use common::{TestSite, attrs, html};

const BASE: &str = "http://127.0.0.1:8765/blog";

fn site() -> TestSite {
    let s = TestSite::new();
    s.write(
        "site.toml",
        &common::SITE_TOML
            .replace("https://example.org", &format!("{BASE}/"))
            .replace("default_language", "paginate = 1\ndefault_language"),
    );
    let toml = s.read("site.toml");
    s.write(
        "site.toml",
        &format!("{toml}[[languages.vi.menu]]\nname = \"Giới thiệu\"\nurl = \"/about/\"\n"),
    );
    s.write(
        "pages/about/index.vi.md",
        "---\ntitle: Giới thiệu\n---\nXem [bài một](/mot/).\n",
    );
    for (slug, other) in [("mot", "hai"), ("hai", "mot")] {
        for lang in ["vi", "en"] {
            s.article(
                slug,
                lang,
                &format!("title: {slug} {lang}\ndate: 2025-01-0{}\ntags: [mạng]", slug.len()),
                &format!(
                    "Xem [bài kia](/{other}/), [tương đối](../{other}/#dau), ![hình](anh.png) và \
                     <a href=\"/{other}/\">HTML</a>.\n\n## Đầu {{#dau}}\n\n```html\n<a href=\"/code/\">x</a>\n```\n"
                ),
            );
        }
        s.write(&format!("content/{slug}/anh.png"), "png");
    }
    s
}

/// Every `href` and `src` of every HTML page, with the page it is on.
fn page_links(built: &measured::Built) -> Vec<(String, String)> {
    let mut links = Vec::new();
    for path in built.output.files.keys().filter(|p| p.ends_with(".html")) {
        let doc = html(built, path);
        for (selector, attr) in [("[href]", "href"), ("[src]", "src")] {
            for value in attrs(&doc, selector, attr) {
                links.push((path.clone(), value));
            }
        }
    }
    links
}

/// The output file a site path names: `/a/` → `a/index.html`.
fn file_of(path: &str) -> String {
    let path = path.split('#').next().unwrap_or_default();
    let trimmed = path.trim_start_matches('/');
    if trimmed.is_empty() || trimmed.ends_with('/') {
        format!("{trimmed}index.html")
    } else {
        trimmed.to_string()
    }
}

/// The folder URL a page's relative links resolve against: `a/index.html` → `/blog/a/`.
fn page_dir(path: &str) -> String {
    match path.rfind('/') {
        Some(i) => format!("/blog/{}/", &path[..i]),
        None => "/blog/".into(),
    }
}

#[test]
fn every_internal_link_and_asset_of_every_page_is_under_the_path_and_exists() {
    let built = site().build().expect("build");
    let links = page_links(&built);
    assert!(links.len() > 50, "{} links", links.len());
    let mut checked = 0;
    for (page, link) in &links {
        if link.starts_with('#') {
            continue;
        }
        let absolute = if let Some(rest) = link.strip_prefix("http://127.0.0.1:8765") {
            rest.to_string()
        } else if link.contains("://") || link.starts_with("//") {
            continue;
        } else if link.starts_with('/') {
            link.clone()
        } else {
            // Relative: resolve as a browser would, then check it is under the path.
            let dir = page_dir(page);
            let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
            for seg in link.split('/') {
                match seg {
                    ".." => {
                        parts.pop();
                    }
                    "." | "" => {}
                    s => parts.push(s),
                }
            }
            format!(
                "/{}{}",
                parts.join("/"),
                if link.ends_with('/') { "/" } else { "" }
            )
        };
        let Some(site_path) = absolute.strip_prefix("/blog/") else {
            panic!("{page}: `{link}` is outside /blog/");
        };
        let file = file_of(&format!("/{site_path}"));
        assert!(
            built.output.get(&file).is_some(),
            "{page}: `{link}` leads to {file}, which the build did not write"
        );
        checked += 1;
    }
    assert!(checked > 50, "{checked} links checked");
}

#[test]
fn the_theme_the_body_and_raw_html_get_the_path_and_code_keeps_what_it_shows() {
    let built = site().build().expect("build");
    let doc = html(&built, "mot/index.html");
    let hrefs = attrs(&doc, "link[rel=stylesheet]", "href");
    assert_eq!(hrefs, ["/blog/style.css", "/blog/highlight.css"]);
    assert_eq!(attrs(&doc, "script[src]", "src"), ["/blog/theme.js"]);
    assert_eq!(attrs(&doc, "link[rel=icon]", "href"), ["/blog/favicon.svg"]);
    let body = attrs(&doc, "article a[href]", "href");
    for want in ["/blog/hai/", "../hai/#dau"] {
        assert!(body.iter().any(|h| h == want), "{want} in {body:?}");
    }
    assert_eq!(attrs(&doc, "article img", "src"), ["anh.png"]);
    assert_eq!(attrs(&doc, "a.site-title", "href"), ["/blog/"]);
    assert_eq!(attrs(&doc, ".site-menu a", "href"), ["/blog/about/"]);
    let about = html(&built, "about/index.html");
    assert_eq!(
        attrs(&about, ".site-menu a[aria-current=page]", "href"),
        ["/blog/about/"]
    );
    assert_eq!(attrs(&about, "main .content a", "href"), ["/blog/mot/"]);
    assert_eq!(
        attrs(&doc, "link[rel=canonical]", "href"),
        [format!("{BASE}/mot/")]
    );
    let alternates = attrs(&doc, "link[rel=alternate][hreflang]", "href");
    assert!(
        alternates.contains(&format!("{BASE}/en/mot/")),
        "{alternates:?}"
    );
    let switch = attrs(&doc, ".lang-switch a", "href");
    assert_eq!(switch, ["/blog/en/mot/"]);
    let code = common::texts(&doc, "pre code");
    assert!(
        code.iter().any(|c| c.contains("href=\"/code/\"")),
        "{code:?}"
    );
    let not_found = html(&built, "404.html");
    let home_links = attrs(&not_found, "main a", "href");
    assert!(
        home_links.iter().all(|h| h.starts_with("/blog/")),
        "{home_links:?}"
    );
}

#[test]
fn feeds_sitemap_and_robots_give_addresses_under_the_path() {
    let built = site().build().expect("build");
    let feed = built.output.text("atom.xml").expect("feed");
    let doc = roxmltree::Document::parse(&feed).expect("atom");
    let mut urls: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("link") || n.has_tag_name("id"))
        .filter_map(|n| {
            n.attribute("href")
                .map(str::to_string)
                .or(n.text().map(str::to_string))
        })
        .filter(|u| u.starts_with("http"))
        .collect();
    let content = doc
        .descendants()
        .filter(|n| n.has_tag_name("content"))
        .filter_map(|n| n.text())
        .collect::<String>();
    assert!(
        content.contains(&format!("href=\"{BASE}/hai/\"")),
        "{content}"
    );
    assert!(
        content.contains(&format!("src=\"{BASE}/mot/anh.png\"")),
        "{content}"
    );
    urls.sort();
    assert!(!urls.is_empty());
    for u in &urls {
        assert!(u.starts_with(&format!("{BASE}/")), "feed: {u}");
    }
    let sitemap = built.output.text("sitemap.xml").expect("sitemap");
    let doc = roxmltree::Document::parse(&sitemap).expect("sitemap xml");
    let locs: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("loc"))
        .filter_map(|n| n.text())
        .collect();
    assert!(locs.contains(&&*format!("{BASE}/mot/")), "{locs:?}");
    for loc in &locs {
        let path = loc
            .strip_prefix(BASE)
            .unwrap_or_else(|| panic!("sitemap: {loc}"));
        assert!(
            built.output.get(&file_of(path)).is_some(),
            "sitemap: {loc} not built"
        );
    }
    let robots = built.output.text("robots.txt").expect("robots");
    assert!(robots.contains("Allow: /blog/\n"), "{robots}");
    assert!(
        robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")),
        "{robots}"
    );
}

#[test]
fn a_base_url_whose_path_cannot_prefix_links_is_refused_with_its_line() {
    let s = TestSite::new();
    s.write(
        "site.toml",
        &common::SITE_TOML.replace("https://example.org", "https://e.org/my blog/"),
    );
    let err = s.build_err();
    assert!(
        err.contains(
            "site.toml:1:1: error: base_url `https://e.org/my blog/` has the path segment `my blog`"
        ),
        "{err}"
    );
}

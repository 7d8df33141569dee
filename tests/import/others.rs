//! A Zola blog (dates in file names, `path`, taxonomies with feeds and pages, an old
//! `feed_filename`, a translation) and a Jekyll blog (`permalink: pretty`, a base URL with a
//! path, jekyll-feed and jekyll-paginate, categories in URLs, Liquid links, a draft, a page)
//! moved in with one command; every URL each generator published answers.

use super::blogs::{Moving, answers};

/// Every URL Zola publishes for `tests/fixtures/import-zola` (`zola build`, no drafts).
const ZOLA_URLS: &[(&str, &str)] = &[
    ("/", "="),
    ("/page/1/", "/"),
    ("/rss.xml", "/atom.xml"),
    ("/sitemap.xml", "="),
    ("/404.html", "="),
    ("/robots.txt", "="),
    ("/blog/", "/"),
    ("/blog/page/1/", "/"),
    ("/blog/page/2/", "/page/2/"),
    ("/blog/rss.xml", "/atom.xml"),
    ("/blog/first-post/", "/first-post/"),
    ("/en/blog/first-post/", "/en/first-post/"),
    ("/en/", "="),
    ("/old/second/", "/second/"),
    ("/blog/third/", "/third/"),
    ("/about/", "="),
    ("/tags/", "="),
    ("/tags/rust/", "="),
    ("/tags/rust/page/1/", "/tags/rust/"),
    ("/tags/rust/rss.xml", "/tags/rust/atom.xml"),
    ("/tags/lap-trinh/", "="),
    ("/tags/lap-trinh/rss.xml", "/tags/lap-trinh/atom.xml"),
    ("/tags/mang/", "="),
    ("/tags/mang/page/1/", "/tags/mang/"),
    ("/tags/mang/rss.xml", "/tags/mang/atom.xml"),
    ("/categories/", "/tags/"),
    ("/categories/cong-nghe/", "/tags/cong-nghe/"),
    ("/files/paper.pdf", "="),
    ("/img/udp.webp", "="),
    ("/img/me.png", "="),
];

#[test]
fn a_zola_blog_moves_in_with_one_command_and_every_old_url_answers() {
    let blog = Moving::fixture("import-zola");
    let imported = blog.import("zola", &[]);
    assert!(imported.ok, "{}\n{}", imported.stdout, imported.stderr);
    let built = blog.build(&imported);
    answers(&built, "/so-tay", ZOLA_URLS);
    assert!(
        built.output.get("unfinished/index.html").is_none(),
        "the draft Zola left out stays out"
    );
    let second = blog.read("content/second/index.vi.md");
    assert!(
        second.ends_with("Xem lại [bài đầu](/first-post/).\n"),
        "Zola's @/ link made the new URL: {second}"
    );
    let first = blog.read("content/first-post/index.vi.md");
    assert!(
        first.contains("date: 2024-01-15\n"),
        "from the file name: {first}"
    );
    assert!(
        blog.read("pages/index.vi.md")
            .contains("Sổ tay ghi lại những gì mình học về **Rust**"),
        "the home's _index.md text kept"
    );
}

/// Every URL Jekyll publishes for `tests/fixtures/import-jekyll` (`jekyll build`), under its
/// `baseurl`.
const JEKYLL_URLS: &[(&str, &str)] = &[
    ("/", "="),
    ("/page2/", "/page/2/"),
    ("/feed.xml", "/atom.xml"),
    ("/404.html", "="),
    ("/tin/tức/2016/01/08/hello-world/", "/hello-world/"),
    ("/tin/t%E1%BB%A9c/2016/01/08/hello-world/", "/hello-world/"),
    ("/blog/second/", "/second/"),
    ("/2018/05/06/third/", "/third/"),
    ("/about/", "="),
    ("/assets/img/logo.png", "="),
    ("/assets/docs/guide.pdf", "="),
    ("/CNAME", "="),
];

#[test]
fn a_jekyll_blog_moves_in_with_one_command_and_every_old_url_answers() {
    let blog = Moving::fixture("import-jekyll");
    let imported = blog.import("jekyll", &[]);
    assert!(imported.ok, "{}\n{}", imported.stdout, imported.stderr);
    assert!(
        imported.stdout.contains("drafts: 1 of 4 posts are drafts: the live site left them out as far as its files say (no `jekyll build --drafts` or `--unpublished` in its configuration)"),
        "{}",
        imported.stdout
    );
    let built = blog.build(&imported);
    answers(&built, "/jblog", JEKYLL_URLS);
    let second = blog.read("content/second/index.vi.md");
    assert!(
        second.ends_with("Quay lại [bài đầu](/hello-world/).\n"),
        "{{{{ site.baseurl }}}} and the old URL made the new one: {second}"
    );
    for excluded in [
        "README.md",
        "Gemfile",
        "_layouts/default.html",
        "about.md",
        "index.md",
    ] {
        assert!(
            !blog.root.path().join("static").join(excluded).exists(),
            "{excluded} is not a static file of the site"
        );
    }
    let site = blog.read("site.toml");
    assert!(
        site.contains("base_url = \"https://an.github.io/jblog\"\n"),
        "{site}"
    );
    assert!(
        site.contains("[[languages.vi.menu]]\nname = \"Giới thiệu\"\nurl = \"/about/\"\n"),
        "header_pages made the menu: {site}"
    );
}

#[test]
fn jekyll_categories_no_url_can_hold_and_asset_symlinks_out_are_reported() {
    // Issue 35: D26 with a category that puts `<script>` in the old URL, D1 in assets/.
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("shadow"), "root:secret").expect("write");
    let blog = Moving::fixture("import-jekyll");
    blog.write(
        "_posts/2019-03-04-odd.md",
        "---\ntitle: Lạ\ncategories: [\"<script>alert(1)</script>\"]\n---\nx\n",
    );
    std::os::unix::fs::symlink(
        outside.path().join("shadow"),
        blog.src("assets/img/banner.png"),
    )
    .expect("symlink");
    let imported = blog.import("jekyll", &[]);
    assert!(imported.ok, "{}", imported.stderr);
    assert!(
        imported.stdout.contains(
            "  SRC/_posts/2019-03-04-odd.md:3: the old URL `/<script>alert(1)</script>/2019/03/04/odd/` is left out: it holds `<`; if readers still follow it, answer it on the server\n"
        ),
        "{}",
        imported.stdout
    );
    assert!(
        imported
            .stdout
            .contains("  SRC/assets/img/banner.png: a symbolic link leading out of the source"),
        "{}",
        imported.stdout
    );
    let built = blog.build(&imported);
    assert!(built.output.get("assets/img/banner.png").is_none());
    assert!(built.output.get("odd/index.html").is_some());
}

//! A Hugo blog shaped like the two that moved in (issue 38): TOML front matter with
//! time-zoned dates, drafts published by its workflow's `hugo -D`, `[permalinks]`, a base URL
//! with a path and body links that include it, Vietnamese tags and categories, `.pdf`, `.jfif`
//! and `.xlsx` files, pages (About, a changelog, a profile, a Pagefind search page) and a home
//! page whose `_index.md` holds its introduction.

use super::blogs::{HUGO_BASE, HUGO_URLS, Moving, answers};
use super::common::{attrs, html, texts};

#[test]
fn a_hugo_blog_moves_in_with_one_command_and_every_old_url_answers() {
    let blog = Moving::fixture("import-hugo");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}\n{}", imported.stdout, imported.stderr);
    let site = blog.read("site.toml");
    for line in [
        "base_url = \"https://khanhlan.github.io/KhanhLanBlog\"",
        "default_language = \"vi\"",
        "paginate = 2",
        "title = \"Khánh Lan — ghi chép lập trình, dữ liệu và những điều học được mỗi ngày\"",
        "description = \"Ghi chép của Khánh Lan về Java, dữ liệu và trí tuệ nhân tạo.\"",
        "footer = \"© 2024 Khánh Lan\"",
    ] {
        assert!(site.contains(line), "{line}\n{site}");
    }
    let built = blog.build(&imported);
    answers(&built, HUGO_BASE, HUGO_URLS);
    let menu = attrs(&html(&built, "index.html"), ".site-menu a", "href");
    assert_eq!(
        menu,
        [
            "/KhanhLanBlog/about/",
            "/KhanhLanBlog/",
            "/KhanhLanBlog/profile/"
        ],
        "the front matter's `menu: main` first (weight 1), /posts/ made the home page, the pageRef the profile's new URL; the search page's entry dropped"
    );
}

#[test]
fn body_links_under_the_base_path_lead_to_the_files_and_the_new_urls() {
    let blog = Moving::fixture("import-hugo");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    let built = blog.build(&imported);
    let page = html(&built, "hello-java/index.html");
    let mut links = attrs(&page, "div.content a", "href");
    links.retain(|l| !l.starts_with('#'));
    assert_eq!(
        links,
        [
            "/KhanhLanBlog/files/report.pdf",
            "/KhanhLanBlog/files/budget.xlsx",
            "/KhanhLanBlog/spring-boot/",
            "/KhanhLanBlog/tags/lap-trinh/",
        ]
    );
    let images = attrs(&page, "div.content img", "src");
    assert_eq!(
        images,
        [
            "/KhanhLanBlog/images/diagram.png",
            "/KhanhLanBlog/images/photo.jfif"
        ]
    );
    assert!(
        !imported.stdout.contains("KhanhLanBlog/KhanhLanBlog"),
        "{}",
        imported.stdout
    );
}

#[test]
fn drafts_are_counted_with_what_the_live_site_did_and_published_on_request() {
    let blog = Moving::fixture("import-hugo");
    let imported = blog.import("hugo", &[]);
    assert!(imported.ok, "{}", imported.stderr);
    assert!(
        imported.stdout.contains(
            "drafts: 4 of 5 posts are drafts: the live site published them (`run: hugo -D --minify` at SRC/.github/workflows/gh-pages.yml:14); they are imported as drafts, so `measured build` publishes 1 of the 5 articles; import again with --drafts-as-published to publish them as the live site did\n"
        ),
        "{}",
        imported.stdout
    );
    let built = blog.build(&imported);
    assert_eq!(built.pages, 1);
    assert!(built.output.get("hello-java/index.html").is_none());
    let again = blog.import("hugo", &["--drafts-as-published", "--force"]);
    assert!(again.ok, "{}", again.stderr);
    assert!(
        again
            .stdout
            .contains("they are published, as --drafts-as-published asks (5 articles)"),
        "{}",
        again.stdout
    );
    assert_eq!(blog.build(&again).pages, 5);
}

#[test]
fn a_build_that_publishes_no_article_while_drafts_exist_warns() {
    let blog = Moving::fixture("import-hugo");
    blog.write(
        "content/posts/ghi-chu-2023.md",
        "+++\ntitle = \"Ghi chú\"\ndate = 2023-12-31\ndraft = true\n+++\nx\n",
    );
    let imported = blog.import("hugo", &[]);
    assert!(imported.ok, "{}", imported.stderr);
    for command in ["build", "check"] {
        let (ok, stderr) = blog.cli(&[command]);
        assert!(ok, "{stderr}");
        assert!(
            stderr.contains(
                "warning: no article is published: all 5 articles have `draft: true`, which a build leaves out"
            ),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("--drafts"), "{stderr}");
    }
    let (ok, stderr) = blog.cli(&["build", "--drafts"]);
    assert!(
        ok && !stderr.contains("no article is published"),
        "{stderr}"
    );
}

#[test]
fn pages_stay_pages_and_the_home_keeps_its_introduction() {
    let blog = Moving::fixture("import-hugo");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    for page in ["about", "changelog", "profile"] {
        assert!(
            blog.root
                .path()
                .join("pages")
                .join(page)
                .join("index.vi.md")
                .is_file(),
            "{page} is a page"
        );
        assert!(!blog.root.path().join("content").join(page).exists());
    }
    let built = blog.build(&imported);
    let feed = built.output.text("atom.xml").expect("feed");
    assert!(
        !feed.contains("Hồ sơ") && !feed.contains("Nhật ký"),
        "{feed}"
    );
    let home = html(&built, "index.html");
    let intro = texts(&home, ".home-intro").join(" ");
    assert!(
        intro.starts_with("Chào bạn, mình là Khánh Lan.")
            && intro.contains("Về blog này")
            && intro.ends_with("Tất cả bài viết, mới nhất trước."),
        "the home's _index.md text, then the main section's: {intro}"
    );
    assert!(
        html(&built, "page/2/index.html")
            .select(&scraper::Selector::parse(".home-intro").unwrap())
            .next()
            .is_none(),
        "on the first page only"
    );
    assert_eq!(
        texts(&html(&built, "about/index.html"), "article p"),
        ["Mình là Khánh Lan, lập trình viên ở Hà Nội."]
    );
}

#[test]
fn the_summary_says_what_it_could_not_carry_at_its_line() {
    let blog = Moving::fixture("import-hugo");
    blog.write(
        "content/posts/missing.md",
        "+++\ntitle = \"Thiếu tệp\"\ndate = 2024-07-01\n+++\nTải [tệp](/KhanhLanBlog/files/missing.pdf).\n",
    );
    blog.write("content/legacy.html", "<p>Trang cũ</p>\n");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    for line in [
        "  SRC/content/search.md: a search page: not imported, since measured has its own search on every page (press /), and writes its index at /search/; its old URL /search/ no longer answers: remove links to it (a menu entry leading to it was dropped)\n",
        "  SRC/content/archives.md: a page the old theme drew (`layout: archives`, no text of its own): not imported; its old URL /archives/ redirects to the home page, which lists every article\n",
        "  SRC/static/style.css: /style.css is a file measured writes itself: not copied; if a page links it, copy it under another name and change the link\n",
        "  SRC/content/posts/_index.md: a section's list page: measured lists articles on the home page and the tag pages, so /posts/ redirects to the home page; its text is the home page's introduction now (pages/index.vi.md)\n",
        "  SRC/hugo.toml:4: `theme` dropped: measured has its own theme (templates/ and static/ override it)\n",
        "  SRC/hugo.toml:6: `enableRobotsTXT` dropped: measured always writes robots.txt and sitemap.xml\n",
        "  SRC/hugo.toml:15: `params.ShowToc` dropped: a parameter of the old theme, which measured's theme does not read\n",
        "  SRC/content/about.md:3: `layout` dropped: the file is a page now (pages/), shown with templates/standalone.html\n",
        "  SRC/content/changelog.md:3: `date` dropped: a page (pages/) has no date and is in no list or feed\n",
        "  SRC/hugo.toml:24: the menu entry `Tìm kiếm` leads to `/search/`, which the new site does not have: dropped\n",
        "  SRC/content/posts/missing.md:5: links the file `/files/missing.pdf`, which is not in the source's static files: put it in static/ at that path, or fix the link\n",
        "  SRC/content/legacy.html: a page written in `.html`, which the import does not read: not imported; convert it to Markdown (pages/ or content/) by hand\n",
    ] {
        assert!(
            imported.stdout.contains(line),
            "{line}\n{}",
            imported.stdout
        );
    }
}

#[test]
fn a_static_symlink_leading_out_of_the_source_is_never_published() {
    // Issue 35, D1: `ln -s ../../../../id_ed25519 old/static/img/logo.png` published the key.
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("id_ed25519"), "PRIVATE KEY").expect("write");
    let blog = Moving::fixture("import-hugo");
    std::fs::create_dir_all(blog.src("static/img")).expect("mkdir");
    let key = outside.path().join("id_ed25519");
    std::os::unix::fs::symlink(&key, blog.src("static/img/logo.png")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), blog.src("static/private")).expect("symlink");
    std::os::unix::fs::symlink("diagram.png", blog.src("static/images/same.png")).expect("symlink");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    assert!(
        imported.stdout.contains(&format!(
            "  SRC/static/img/logo.png: a symbolic link leading out of the source (to {}): not copied, since it would publish a file that is not the blog's; copy the file itself into static/ if it belongs to the site\n",
            std::fs::canonicalize(&key).expect("canonical").display()
        )),
        "{}",
        imported.stdout
    );
    assert!(
        imported
            .stdout
            .contains("  SRC/static/private: a symbolic link leading out of the source")
    );
    assert!(!blog.root.path().join("static/img/logo.png").exists());
    let built = blog.build(&imported);
    assert!(built.output.get("img/logo.png").is_none());
    for path in built.output.files.keys() {
        let bytes = built.output.get(path).unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(bytes).contains("PRIVATE KEY"),
            "{path} holds the key"
        );
    }
    // The case: a post shows the link. The import lists the link, the build fails on
    // it, and the key is nowhere under the root.
    blog.write(
        "content/posts/logo.md",
        "+++\ntitle = \"Logo\"\ndate = 2024-07-02\n+++\n![logo](/KhanhLanBlog/img/logo.png)\n",
    );
    let again = blog.import("hugo", &["--drafts-as-published", "--force"]);
    assert!(again.ok, "{}", again.stderr);
    assert!(
        again.stdout.contains("  SRC/content/posts/logo.md:5: links the file `/img/logo.png`, which is not in the source's static files"),
        "{}",
        again.stdout
    );
    let opts = measured::BuildOptions {
        root: blog.root.path().to_path_buf(),
        ..Default::default()
    };
    let err = measured::build_in_memory(&opts).expect_err("a link to a file the site lacks");
    assert!(
        err.to_string().contains("broken link `/img/logo.png`"),
        "{err}"
    );
    for (path, bytes) in super::common::snapshot(blog.root.path()) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains("PRIVATE KEY"),
            "{} holds the key",
            path.display()
        );
    }
    assert_eq!(
        built.output.get("images/same.png"),
        Some(
            std::fs::read(blog.src("static/images/diagram.png"))
                .expect("read")
                .as_slice()
        ),
        "a link inside the source is copied as its file"
    );
}

#[test]
fn old_urls_no_redirect_can_answer_for_are_reported_at_their_line() {
    // Issue 35, D26: such aliases were written, reported as success, and refused by the build.
    let blog = Moving::fixture("import-hugo");
    blog.write(
        "content/posts/odd.md",
        "+++\ntitle = \"Lạ\"\ndate = 2024-07-01\nslug = \"odd\"\naliases = [\"/../../etc/passwd/\", \"/<script>alert(1)</script>/\", \"/kept/\"]\n+++\nx\n",
    );
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    for line in [
        "  SRC/content/posts/odd.md:5: the old URL `/../../etc/passwd/` is left out: its segment `..` names a folder, not a page; if readers still follow it, answer it on the server\n",
        "  SRC/content/posts/odd.md:5: the old URL `/<script>alert(1)</script>/` is left out: it holds `<`; if readers still follow it, answer it on the server\n",
    ] {
        assert!(
            imported.stdout.contains(line),
            "{line}\n{}",
            imported.stdout
        );
    }
    let odd = blog.read("content/odd/index.vi.md");
    assert!(odd.contains("aliases:\n- /2024/odd/\n- /kept/\n"), "{odd}");
    let built = blog.build(&imported);
    assert!(built.output.get("kept/index.html").is_some());
}

#[test]
fn importing_into_a_site_keeps_its_site_toml_and_adds_the_redirects_at_its_end() {
    let blog = Moving::fixture("import-hugo");
    let own = super::common::SITE_TOML;
    std::fs::write(blog.root.path().join("site.toml"), own).expect("write");
    let imported = blog.import("hugo", &["--drafts-as-published"]);
    assert!(imported.ok, "{}", imported.stderr);
    let site = blog.read("site.toml");
    assert!(site.starts_with(own), "{site}");
    assert!(
        site.contains("\n[redirects]\n\"/2024/chuyển-văn-bản-thành-giọng-nói/waveform.jfif\" = \"/ai_tts/waveform.jfif\"\n"),
        "{site}"
    );
    assert!(
        imported.stdout.contains("site.toml is kept as it is: add the source's menu entries to [[languages.vi.menu]] by hand if you want them (Giới thiệu → /about/, Bài viết → /, Hồ sơ → /profile/)"),
        "{}",
        imported.stdout
    );
    let built = blog.build(&imported);
    answers(
        &built,
        "",
        &[
            ("/posts/page/3/", "/"),
            ("/tags/lập-trình/", "/tags/lap-trinh/"),
            ("/index.xml", "/atom.xml"),
        ],
    );
    let again = blog.import("hugo", &["--drafts-as-published"]);
    assert!(again.ok, "{}", again.stderr);
    assert!(
        again.stdout.contains("(0 files written,"),
        "{}",
        again.stdout
    );
    assert_eq!(blog.read("site.toml"), site, "a rerun changes nothing");
}

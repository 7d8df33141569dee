//! `measured import`: Hugo, Zola and Jekyll blogs written into temporary folders, imported,
//! then built; every old URL answers with a redirect page to its article, unconverted template
//! syntax is reported at its line, a rerun is safe and nothing is written outside the root.

mod common;

#[path = "import/blogs.rs"]
mod blogs;
#[path = "import/hugo.rs"]
mod hugo;
#[path = "import/others.rs"]
mod others;

use std::path::Path;

use common::{TestSite, attrs, html, snapshot};

/// A source site in a temporary folder.
struct Source {
    dir: tempfile::TempDir,
}

impl Source {
    fn new(files: &[(&str, &str)]) -> Source {
        let s = Source {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        for (rel, text) in files {
            s.write(rel, text.as_bytes());
        }
        s
    }

    fn write(&self, rel: &str, bytes: &[u8]) {
        let p = self.dir.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
    }

    fn path(&self) -> &str {
        self.dir.path().to_str().expect("utf-8 temp path")
    }
}

const SENSOR: &str = "+++
title = \"Cảm biến nhiệt\"
date = 2025-06-04T17:04:06+07:00
lastmod = 2025-07-01T08:00:00+07:00
categories = [\"IoT\"]
tags = [\"phần cứng\"]
weight = 3
+++
Mở đầu.

{{< figure src=\"chart.png\" >}}

```go
fmt.Println(\"{{ not a shortcode in code }}\")
```
";

const SENSOR_EN: &str = "---
title: Temperature sensor
date: 2025-06-04T17:04:06+07:00
summary: Reading a sensor.
---
Intro.

{{% note %}}Careful.{{% /note %}}
";

const BUNDLE: &str = "---
title: Gói bài viết
date: 2024-01-02
summary: Một bài có ảnh.
cover: img.png
tags: [go]
---
![Ảnh](img.png) và ![sơ đồ](/posts/go/bundle-post/diagram.png).
";

fn hugo_blog() -> Source {
    Source::new(&[
        ("hugo.toml", "baseURL = \"https://old.example.org/\"\n"),
        ("content/_index.md", "---\ntitle: Home\n---\n"),
        ("content/posts/_index.md", "---\ntitle: Posts\n---\n"),
        ("content/posts/iot/hardware/sensor.md", SENSOR),
        ("content/posts/iot/hardware/sensor.en.md", SENSOR_EN),
        ("content/posts/go/bundle-post/index.md", BUNDLE),
        ("content/posts/go/bundle-post/img.png", "png-1"),
        ("content/posts/go/bundle-post/diagram.png", "png-2"),
        (
            "content/posts/unfinished.md",
            "---\ntitle: Nháp\ndate: 2024-03-01\ndraft: true\n---\nChưa xong.\n",
        ),
        (
            "content/posts/moved.md",
            "---\ntitle: Đã chuyển\ndate: 2023-05-06\nurl: /custom/path/\naliases: [/legacy/]\n---\nNội dung ![logo](/images/logo.png).\n",
        ),
        ("static/images/logo.png", "png-3"),
    ])
}

fn import(site: &TestSite, kind: &str, src: &Source, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["import", kind, src.path(), "--root", "."];
    args.extend_from_slice(extra);
    let out = site.cli(&args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts that `alias` (an output file) redirects to the site path `target`: the refresh
/// and the link stay on the site that serves them (preview or deployed), the canonical link
/// names the address.
fn redirects(built: &measured::Built, alias: &str, target: &str) {
    let page = html(built, alias);
    assert_eq!(
        attrs(&page, "link[rel=canonical]", "href"),
        [format!("https://example.org{target}")],
        "{alias}"
    );
    assert_eq!(
        attrs(&page, "meta[http-equiv=refresh]", "content"),
        [format!("0; url={target}")],
        "{alias}"
    );
    assert_eq!(attrs(&page, "body a", "href"), [target], "{alias}");
}

#[test]
fn a_hugo_blog_builds_and_every_old_url_redirects() {
    let src = hugo_blog();
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "hugo", &src, &[]);
    assert!(ok, "{stdout}\n{stderr}");
    let built = site.build().unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    for (alias, target) in [
        ("posts/iot/hardware/sensor/index.html", "/sensor/"),
        ("en/posts/iot/hardware/sensor/index.html", "/en/sensor/"),
        ("posts/go/bundle-post/index.html", "/bundle-post/"),
        ("custom/path/index.html", "/moved/"),
        ("legacy/index.html", "/moved/"),
    ] {
        redirects(&built, alias, target);
    }
    assert_eq!(
        built.output.get("bundle-post/img.png").unwrap(),
        b"png-1".as_slice()
    );
    assert_eq!(
        built.output.get("bundle-post/diagram.png").unwrap(),
        b"png-2"
    );
    let bundle = html(&built, "bundle-post/index.html");
    let mut images = attrs(&bundle, "article img", "src");
    images.sort();
    assert_eq!(
        images,
        ["diagram.png", "img.png"],
        "the old absolute link made relative"
    );
    assert_eq!(
        built.output.get("images/logo.png").unwrap(),
        b"png-3".as_slice(),
        "an image of the old site's static/ copied into static/"
    );
    assert!(
        built.output.text("unfinished/index.html").is_none(),
        "a draft stays a draft"
    );
    assert!(
        site.read("content/unfinished/index.vi.md")
            .contains("draft: true")
    );
}

#[test]
fn front_matter_is_mapped_and_dropped_keys_are_reported() {
    let src = hugo_blog();
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "hugo", &src, &[]);
    assert!(ok, "{stderr}");
    let vi = site.read("content/sensor/index.vi.md");
    let front = vi.split("---\n").nth(1).expect("front matter");
    assert_eq!(
        front,
        "title: Cảm biến nhiệt\ndate: 2025-06-04T17:04:06+07:00\nupdated: 2025-07-01T08:00:00+07:00\ntags:\n- phần cứng\n- IoT\naliases:\n- /posts/iot/hardware/sensor/\n"
    );
    let en = site.read("content/sensor/index.en.md");
    assert!(en.contains("description: Reading a sensor."), "{en}");
    let sensor = Path::new(src.path()).join("content/posts/iot/hardware/sensor.md");
    let bundle = Path::new(src.path()).join("content/posts/go/bundle-post/index.md");
    for line in [
        format!("{}:7: `weight` dropped", sensor.display()),
        format!("{}:5: `cover` dropped", bundle.display()),
    ] {
        assert!(stdout.contains(&line), "{line}\n{stdout}");
    }
    let posts = Path::new(src.path()).join("content/posts/_index.md");
    assert!(
        stdout.contains(&format!(
            "{}: a section's list page: measured lists articles on the home page and the tag pages, so /posts/ redirects to the home page; it has no text of its own",
            posts.display()
        )),
        "{stdout}"
    );
}

#[test]
fn each_unconverted_shortcode_is_reported_at_its_line_and_left_inert() {
    let src = hugo_blog();
    let site = TestSite::new();
    let (ok, stdout, _) = import(&site, "hugo", &src, &[]);
    assert!(ok);
    let sensor = Path::new(src.path()).join("content/posts/iot/hardware/sensor.md");
    let en = Path::new(src.path()).join("content/posts/iot/hardware/sensor.en.md");
    let expected = [
        format!(
            "{}:11: Hugo shortcode `{{{{< figure src=\"chart.png\" >}}}}`",
            sensor.display()
        ),
        format!(
            "{}:8: Hugo shortcode `{{{{% note %}}}}Careful.{{{{% /note %}}}}`",
            en.display()
        ),
    ];
    let reported: Vec<&str> = stdout.lines().filter(|l| l.contains("shortcode")).collect();
    assert_eq!(reported.len(), expected.len(), "{stdout}");
    for e in &expected {
        assert!(stdout.contains(e.as_str()), "{e}\n{stdout}");
    }
    let vi = site.read("content/sensor/index.vi.md");
    assert!(
        vi.contains("\n` {{< figure src=\"chart.png\" >}} `\n"),
        "{vi}"
    );
    assert!(
        vi.contains("fmt.Println(\"{{ not a shortcode in code }}\")"),
        "code unchanged"
    );
}

#[test]
fn a_rerun_changes_nothing_and_an_edited_file_needs_force() {
    let src = hugo_blog();
    let src_before = snapshot(src.dir.path());
    let site = TestSite::new();
    assert!(import(&site, "hugo", &src, &[]).0);
    let first = snapshot(site.root());
    let (ok, stdout, _) = import(&site, "hugo", &src, &[]);
    assert!(ok);
    assert!(
        stdout.contains("(0 files written, 8 unchanged)"),
        "{stdout}"
    );
    assert_eq!(snapshot(site.root()), first);
    site.write("content/moved/index.vi.md", "edited by hand\n");
    let (ok, _, stderr) = import(&site, "hugo", &src, &[]);
    assert!(!ok);
    assert!(stderr.contains("content/moved/index.vi.md"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(site.read("content/moved/index.vi.md"), "edited by hand\n");
    assert!(import(&site, "hugo", &src, &["--force"]).0);
    assert_eq!(snapshot(site.root()), first);
    assert_eq!(
        snapshot(src.dir.path()),
        src_before,
        "SRC is never modified"
    );
}

#[test]
fn a_path_leading_out_of_the_root_is_refused() {
    let outside = tempfile::tempdir().expect("tempdir");
    let src = Source::new(&[
        ("hugo.toml", ""),
        (
            "content/posts/evil.md",
            "---\ntitle: X\ndate: 2024-01-01\nslug: ../../evil\n---\nx\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, _, stderr) = import(&site, "hugo", &src, &[]);
    assert!(!ok);
    assert!(stderr.contains("evil.md:4"), "{stderr}");
    assert!(stderr.contains("lead out of content/"), "{stderr}");
    let src = Source::new(&[
        ("hugo.toml", ""),
        (
            "content/posts/linked.md",
            "---\ntitle: X\ndate: 2024-01-01\n---\nx\n",
        ),
    ]);
    std::fs::create_dir_all(site.path("content")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path(), site.path("content/linked")).expect("symlink");
    let (ok, _, stderr) = import(&site, "hugo", &src, &[]);
    assert!(!ok);
    assert!(stderr.contains("leads out of the root"), "{stderr}");
    assert!(
        snapshot(outside.path()).is_empty(),
        "nothing written through the link"
    );
}

#[test]
fn a_folder_that_is_not_a_blog_of_that_kind_fails() {
    let src = Source::new(&[("_posts/2016-01-08-x.md", "---\ntitle: x\n---\n")]);
    let site = TestSite::new();
    let (ok, _, stderr) = import(&site, "hugo", &src, &[]);
    assert!(!ok);
    assert!(stderr.contains("this is not a Hugo site"), "{stderr}");
    assert!(!site.path("content").exists());
}

#[test]
fn a_zola_blog_builds_with_its_taxonomies_and_old_urls() {
    let src = Source::new(&[
        ("config.toml", "base_url = \"https://old.example.org\"\n"),
        ("content/blog/_index.md", "+++\ntitle = \"Blog\"\n+++\n"),
        (
            "content/blog/First Post.md",
            "+++\ntitle = \"Bài đầu\"\ndate = 2024-02-03T10:00:00Z\nupdated = 2024-02-04\n[taxonomies]\ntags = [\"rust\"]\ncategories = [\"Lập trình\"]\n[extra]\ntoc = true\n+++\nXin chào.\n\n{{ youtube(id=\"abc\") }}\n",
        ),
        (
            "content/blog/First Post.en.md",
            "+++\ntitle = \"First post\"\ndate = 2024-02-03T10:00:00Z\n+++\nHello.\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "zola", &src, &[]);
    assert!(ok, "{stderr}");
    let built = site.build().unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    redirects(&built, "blog/first-post/index.html", "/first-post/");
    redirects(&built, "en/blog/first-post/index.html", "/en/first-post/");
    let vi = site.read("content/first-post/index.vi.md");
    assert!(vi.contains("tags:\n- rust\n- Lập trình\n"), "{vi}");
    let file = Path::new(src.path()).join("content/blog/First Post.md");
    assert!(
        stdout.contains(&format!("{}:13: template syntax", file.display())),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{}:8: `extra` dropped", file.display())),
        "{stdout}"
    );
}

#[test]
fn a_jekyll_blog_takes_its_dates_from_file_names_and_keeps_permalinks() {
    let src = Source::new(&[
        ("_config.yml", "title: Old\n"),
        (
            "_posts/2016-01-08-hello-world.md",
            "---\ntitle: Xin chào\ncategories: tin tức\n---\nĐoạn đầu.\n\n{% highlight ruby %}\nputs 1\n{% endhighlight %}\n\n{% include note.html %}\n",
        ),
        (
            "_posts/2017-02-03-second.md",
            "---\ntitle: Bài hai\ndate: 2017-02-03 10:00:00 +0700\npermalink: /blog/:title/\nlayout: post\n---\nNội dung.\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "jekyll", &src, &[]);
    assert!(ok, "{stderr}");
    let built = site.build().unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    redirects(&built, "2016/01/08/hello-world.html", "/hello-world/");
    redirects(
        &built,
        "tin/tức/2016/01/08/hello-world.html",
        "/hello-world/",
    );
    redirects(&built, "blog/second/index.html", "/second/");
    let hello = site.read("content/hello-world/index.vi.md");
    assert!(hello.contains("date: 2016-01-08\n"), "{hello}");
    assert!(hello.contains("tags:\n- tin\n- tức\n"), "{hello}");
    let second = site.read("content/second/index.vi.md");
    assert!(
        second.contains("date: 2017-02-03T10:00:00+07:00\n"),
        "{second}"
    );
    let file = Path::new(src.path()).join("_posts/2016-01-08-hello-world.md");
    assert!(hello.contains("\n```ruby\nputs 1\n```\n"), "{hello}");
    let summary = stdout.replace(&format!("{}/", src.path()), "SRC/");
    assert_eq!(
        summary,
        "wrote content/hello-world/index.vi.md
wrote content/second/index.vi.md
front matter and configuration keys dropped (1):
  SRC/_posts/2017-02-03-second.md:5: `layout` dropped: every article uses templates/article.html: remove the key
to fix by hand (1):
  SRC/_posts/2016-01-08-hello-world.md:11: Liquid tag `{% include note.html %}` left as code: convert it by hand
imported 2 articles and 0 pages (2 files written, 0 unchanged), 0 static and bundled files copied, 3 aliases, 0 redirects in site.toml, 0 links rewritten, 1 highlight blocks made fenced code, 1 keys dropped, 1 things to fix by hand
",
        "{file:?}"
    );
}

#[test]
fn importing_into_the_source_itself_is_refused() {
    let src = hugo_blog();
    src.write("site.toml", common::SITE_TOML.as_bytes());
    let before = snapshot(src.dir.path());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
        .args(["import", "hugo", ".", "--root", "."])
        .current_dir(src.dir.path())
        .output()
        .expect("run measured");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("inside SRC, which the import never changes"),
        "{stderr}"
    );
    assert_eq!(snapshot(src.dir.path()), before);
}

#[test]
fn the_source_default_language_is_read_from_its_configuration() {
    let src = Source::new(&[
        ("hugo.toml", "defaultContentLanguage = \"en\"\n"),
        (
            "content/posts/hello.md",
            "---\ntitle: Hello\ndate: 2024-01-01\n---\nHello.\n",
        ),
        (
            "content/posts/hello.vi.md",
            "---\ntitle: Xin chào\ndate: 2024-01-01\n---\nXin chào.\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "hugo", &src, &[]);
    assert!(ok, "{stderr}");
    assert!(
        site.read("content/hello/index.vi.md")
            .contains("title: Xin chào")
    );
    assert!(
        site.read("content/hello/index.en.md")
            .contains("title: Hello")
    );
    let built = site.build().unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    redirects(&built, "posts/hello/index.html", "/en/hello/");
    redirects(&built, "vi/posts/hello/index.html", "/hello/");
}

#[test]
fn two_files_of_one_language_for_one_article_are_an_error() {
    let src = Source::new(&[
        ("hugo.toml", ""),
        (
            "content/posts/a.md",
            "---\ntitle: A\ndate: 2024-01-01\n---\nA.\n",
        ),
        (
            "content/posts/a.vi.md",
            "---\ntitle: A\ndate: 2024-01-01\n---\nA.\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, _, stderr) = import(&site, "hugo", &src, &[]);
    assert!(!ok);
    assert!(
        stderr.contains("are both the `vi` version of one article"),
        "{stderr}"
    );
    assert!(!site.path("content").exists(), "nothing written");
}

#[test]
fn markdown_inside_a_bundle_and_headless_bundles_are_resources_not_articles() {
    // As in gohugoio/hugoBasicExample: content/about.md beside a headless bundle
    // content/homepage/ (index.md with headless: true, and about.md, work.md as resources).
    let src = Source::new(&[
        ("hugo.toml", "baseURL = \"/\"\n"),
        (
            "content/about.md",
            "---\ntitle: About\ndate: 2024-01-01\n---\nAbout.\n",
        ),
        ("content/homepage/index.md", "---\nheadless: true\n---\n"),
        (
            "content/homepage/about.md",
            "---\ntitle: Our about\n---\nA block of the home page.\n",
        ),
        (
            "content/posts/trip/index.md",
            "---\ntitle: Trip\ndate: 2024-02-01\n---\nSee the notes.\n",
        ),
        (
            "content/posts/trip/notes.md",
            "---\ntitle: notes\n---\nNotes.\n",
        ),
    ]);
    let site = TestSite::new();
    let (ok, stdout, stderr) = import(&site, "hugo", &src, &[]);
    assert!(ok, "{stderr}");
    assert!(
        site.read("pages/about/index.vi.md")
            .contains("title: About"),
        "a page at the top of content/ is a page, not an article"
    );
    assert!(
        site.read("content/trip/index.vi.md")
            .contains("title: Trip")
    );
    assert!(!site.path("content/homepage").exists());
    assert!(!site.path("content/notes").exists());
    assert!(!site.path("content/trip/notes.md").exists());
    let report = format!("{stdout}{stderr}");
    assert!(report.contains("headless bundle"), "{report}");
    assert!(
        report.contains("homepage/about.md")
            && report.contains("a Markdown resource of the bundle"),
        "{report}"
    );
    assert!(report.contains("trip/notes.md"), "{report}");
    site.build().unwrap_or_else(|e| panic!("{e}\n{report}"));
}

//! Blogs shaped like real ones (`tests/fixtures/import-*`): imported into an empty folder with
//! one command, then built with no hand edit; every URL the source generator published
//! answers in the output, with the page itself or a redirect to the right page (a feed with a
//! feed).

use std::path::{Path, PathBuf};

use super::common::{attrs, copy_dir};

/// A fixture blog copied into a temporary folder (so a test may add to it), and an empty
/// folder to import it into.
pub struct Moving {
    pub src: tempfile::TempDir,
    pub root: tempfile::TempDir,
}

/// What `measured import` printed.
pub struct Imported {
    pub ok: bool,
    /// The summary, with the source's folder written `SRC`.
    pub stdout: String,
    pub stderr: String,
}

impl Moving {
    pub fn fixture(name: &str) -> Moving {
        let m = Moving {
            src: tempfile::tempdir().expect("tempdir"),
            root: tempfile::tempdir().expect("tempdir"),
        };
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        copy_dir(&from, m.src.path());
        m
    }

    pub fn src(&self, rel: &str) -> PathBuf {
        self.src.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.src(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    pub fn import(&self, kind: &str, extra: &[&str]) -> Imported {
        let src = self.src.path().to_str().expect("utf-8 path");
        let root = self.root.path().to_str().expect("utf-8 path");
        let mut args = vec!["import", kind, src, "--root", root];
        args.extend_from_slice(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
            .args(&args)
            .output()
            .expect("run measured");
        Imported {
            ok: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).replace(src, "SRC"),
            stderr: String::from_utf8_lossy(&out.stderr).replace(src, "SRC"),
        }
    }

    /// The imported site, built in memory (no hand edit in between).
    pub fn build(&self, imported: &Imported) -> measured::Built {
        let opts = measured::BuildOptions {
            root: self.root.path().to_path_buf(),
            ..Default::default()
        };
        measured::build_in_memory(&opts)
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", imported.stdout, imported.stderr))
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.path().join(rel))
            .unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    /// Runs the binary in the imported site.
    pub fn cli(&self, args: &[&str]) -> (bool, String) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
            .args(args)
            .current_dir(self.root.path())
            .output()
            .expect("run measured");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// The output file a server sends for `url` (percent-decoded, a folder's `index.html`).
fn file_of(url: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(url)
        .decode_utf8()
        .expect("UTF-8 URL")
        .into_owned();
    let rel = decoded.trim_start_matches('/');
    if rel.is_empty() || rel.ends_with('/') {
        format!("{rel}index.html")
    } else {
        rel.to_string()
    }
}

/// Whether a site path names a file other than a page (`/a/b.pdf`, not `/a/` or `/a.html`).
fn is_file(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or_default();
    last.contains('.') && !last.ends_with(".html")
}

/// Asserts that each old URL answers in `built`, as the site at `base_path` serves it: with
/// itself (`"="`), with the same feed as the new URL (a target ending in `.xml`, a valid
/// Atom feed), the same file (another target with an extension), or with a page redirecting
/// to the new URL.
pub fn answers(built: &measured::Built, base_path: &str, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (old, new) in cases {
        let file = file_of(old);
        let Some(bytes) = built.output.get(&file) else {
            failures.push(format!("{old}: nothing at {file}"));
            continue;
        };
        let text = String::from_utf8_lossy(bytes);
        let is_redirect = text.contains("http-equiv=\"refresh\"");
        match *new {
            "=" if is_redirect => failures.push(format!("{old}: a redirect, not the page")),
            "=" => {}
            file if is_file(file) && !file.ends_with(".xml") => {
                if built.output.get(&file_of(file)) != Some(bytes) {
                    failures.push(format!("{old}: not the file {file}"));
                }
            }
            feed if feed.ends_with(".xml") => {
                let same = built.output.get(&file_of(feed)) == Some(bytes);
                let root = roxmltree::Document::parse(&text)
                    .map(|d| d.root_element().tag_name().name().to_string());
                if !same || root.as_deref() != Ok("feed") {
                    failures.push(format!("{old}: not the feed {feed} ({root:?})"));
                }
            }
            page => {
                let doc = scraper::Html::parse_document(&text);
                let refresh = attrs(&doc, "meta[http-equiv=refresh]", "content");
                let wanted = format!("0; url={base_path}{page}");
                if refresh != [wanted.clone()] {
                    failures.push(format!("{old}: {refresh:?}, not {wanted:?}"));
                } else if built.output.get(&file_of(page)).is_none() {
                    failures.push(format!("{old}: redirects to {page}, where nothing is"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every URL Hugo publishes for `tests/fixtures/import-hugo` built as its workflow builds it
/// (`hugo -D`, `paginate = 2`, `posts = "/:year/:slug/"`: `:slug` is the urlized title when
/// there is no `slug`), with where it leads in measured. `/search/` (Pagefind) is left out:
/// the import reports it.
pub const HUGO_URLS: &[(&str, &str)] = &[
    ("/", "="),
    ("/page/1/", "/"),
    ("/page/2/", "="),
    ("/page/3/", "="),
    ("/index.xml", "/atom.xml"),
    ("/sitemap.xml", "="),
    ("/404.html", "="),
    ("/robots.txt", "="),
    // Posts, by their permalinks (one percent-encoded, as a browser asks for it).
    ("/2024/xin-chào-java/", "/hello-java/"),
    ("/2024/xin-ch%C3%A0o-java/", "/hello-java/"),
    ("/2024/spring-boot/", "/spring-boot/"),
    ("/2024/chuyển-văn-bản-thành-giọng-nói/", "/ai_tts/"),
    (
        "/2024/chuyển-văn-bản-thành-giọng-nói/waveform.jfif",
        "/ai_tts/waveform.jfif",
    ),
    ("/2024/ham-cua-so/", "/ham-cua-so/"),
    ("/2023/ghi-chú-cuối-năm/", "/ghi-chu-2023/"),
    // Pages.
    ("/about/", "="),
    ("/changelog/", "="),
    ("/pages/profile/", "/profile/"),
    ("/archives/", "/"),
    // Sections and their later pages and feeds.
    ("/posts/", "/"),
    ("/posts/page/1/", "/"),
    ("/posts/page/2/", "/page/2/"),
    ("/posts/page/3/", "/page/3/"),
    ("/posts/index.xml", "/atom.xml"),
    ("/pages/", "/"),
    ("/pages/index.xml", "/atom.xml"),
    // Tags and categories (merged into tags), Vietnamese and percent-encoded.
    ("/tags/", "="),
    ("/tags/index.xml", "/atom.xml"),
    ("/tags/lập-trình/", "/tags/lap-trinh/"),
    ("/tags/l%E1%BA%ADp-tr%C3%ACnh/", "/tags/lap-trinh/"),
    ("/tags/lập-trình/page/1/", "/tags/lap-trinh/"),
    ("/tags/lập-trình/index.xml", "/tags/lap-trinh/atom.xml"),
    ("/tags/java/", "="),
    ("/tags/java/page/1/", "/tags/java/"),
    ("/tags/java/index.xml", "/tags/java/atom.xml"),
    ("/tags/spring/", "="),
    ("/tags/spring/index.xml", "/tags/spring/atom.xml"),
    ("/tags/ai/", "="),
    ("/tags/ai/index.xml", "/tags/ai/atom.xml"),
    ("/tags/sql/", "="),
    ("/tags/sql/index.xml", "/tags/sql/atom.xml"),
    ("/tags/cơ-sở-dữ-liệu/", "/tags/co-so-du-lieu/"),
    (
        "/tags/cơ-sở-dữ-liệu/index.xml",
        "/tags/co-so-du-lieu/atom.xml",
    ),
    ("/tags/ghi-chú/", "/tags/ghi-chu/"),
    ("/tags/ghi-chú/page/1/", "/tags/ghi-chu/"),
    ("/categories/", "/tags/"),
    ("/categories/index.xml", "/atom.xml"),
    ("/categories/java/", "/tags/java/"),
    ("/categories/java/index.xml", "/tags/java/atom.xml"),
    ("/categories/java/page/1/", "/tags/java/"),
    ("/categories/machine-learning/", "/tags/machine-learning/"),
    ("/categories/dữ-liệu/", "/tags/du-lieu/"),
    ("/categories/d%E1%BB%AF-li%E1%BB%87u/", "/tags/du-lieu/"),
    ("/categories/dữ-liệu/index.xml", "/tags/du-lieu/atom.xml"),
    // Static files, whatever their extension.
    ("/images/diagram.png", "="),
    ("/images/photo.jfif", "="),
    ("/files/report.pdf", "="),
    ("/files/budget.xlsx", "="),
    ("/favicon.ico", "="),
    ("/css/custom.css", "="),
    // A file of the posts section (beside its _index.md), published at its path.
    ("/posts/banner.png", "="),
];

/// The base path of the Hugo fixture's `baseURL`.
pub const HUGO_BASE: &str = "/KhanhLanBlog";

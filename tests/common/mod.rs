//! Helpers shared by the integration tests: fixture sites in temporary folders, builds through
//! the library and through the binary.
#![allow(
    dead_code,
    reason = "each test file uses a different part of the helpers"
)]

pub mod fixtures;
pub mod sshd;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const SITE_TOML: &str = "base_url = \"https://example.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Đo thật\"\n[languages.en]\ntitle = \"Measured\"\n";

/// A site in a temporary folder.
pub struct TestSite {
    pub dir: tempfile::TempDir,
}

impl TestSite {
    /// An empty site with the minimal site.toml.
    pub fn new() -> TestSite {
        let s = TestSite {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        s.write("site.toml", SITE_TOML);
        s
    }

    /// A copy of `tests/fixtures/<name>`.
    pub fn fixture(name: &str) -> TestSite {
        let s = TestSite {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        copy_dir(&from, s.root());
        s
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    /// An article file with front matter and body.
    pub fn article(&self, slug: &str, lang: &str, front: &str, body: &str) {
        self.write(
            &format!("content/{slug}/index.{lang}.md"),
            &format!("---\n{front}\n---\n{body}"),
        );
    }

    pub fn options(&self) -> measured::BuildOptions {
        measured::BuildOptions {
            root: self.root().to_path_buf(),
            ..Default::default()
        }
    }

    pub fn build(&self) -> Result<measured::Built, measured::Diagnostics> {
        measured::build_in_memory(&self.options())
    }

    /// Builds and returns the error text, panicking if the build succeeds.
    pub fn build_err(&self) -> String {
        match self.build() {
            Ok(_) => panic!("the build should have failed"),
            Err(d) => d.to_string(),
        }
    }

    /// Builds under `--strict` (a claim that does not hold is an error) and returns the error
    /// text, panicking if the build succeeds.
    pub fn build_err_strict(&self) -> String {
        let mut opts = self.options();
        opts.experiments.strict = true;
        match measured::build_in_memory(&opts) {
            Ok(_) => panic!("the strict build should have failed"),
            Err(d) => d.to_string(),
        }
    }

    /// Runs the `measured` binary in this site.
    pub fn cli(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_measured"))
            .args(args)
            .current_dir(self.root())
            .output()
            .expect("run measured")
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(from).expect("prefix");
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// Every file under `dir` with its bytes, for before/after comparisons.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).expect("prefix").to_path_buf(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}

/// Parsed HTML of an output file.
pub fn html(built: &measured::Built, path: &str) -> scraper::Html {
    let text = built
        .output
        .text(path)
        .unwrap_or_else(|| panic!("no output file {path}"));
    scraper::Html::parse_document(&text)
}

/// Texts of the elements matching `selector`.
pub fn texts(doc: &scraper::Html, selector: &str) -> Vec<String> {
    let sel = scraper::Selector::parse(selector).expect("selector");
    doc.select(&sel)
        .map(|e| {
            e.text()
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Values of `attr` on the elements matching `selector`.
pub fn attrs(doc: &scraper::Html, selector: &str, attr: &str) -> Vec<String> {
    let sel = scraper::Selector::parse(selector).expect("selector");
    doc.select(&sel)
        .filter_map(|e| e.value().attr(attr).map(str::to_string))
        .collect()
}

/// The tooltips of the elements `selector` matches, as a reader sees them: the title, then
/// where the value was measured, which the page says once in its body's `--w<n>` and an
/// element with `data-w="n"` names (no `data-w`: the first).
pub fn tooltips(doc: &scraper::Html, selector: &str) -> Vec<String> {
    let content = scraper::Selector::parse("div.content").expect("selector");
    let style = doc
        .select(&content)
        .next()
        .and_then(|e| e.value().attr("style"))
        .unwrap_or_default()
        .to_string();
    let var = |n: &str| -> Option<String> {
        let key = format!("--w{n}:'");
        let start = style.find(&key)? + key.len();
        let mut out = String::new();
        let mut chars = style[start..].chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.extend(chars.next()),
                '\'' => break,
                c => out.push(c),
            }
        }
        Some(out)
    };
    let sel = scraper::Selector::parse(selector).expect("selector");
    doc.select(&sel)
        .map(|e| {
            let title = e.value().attr("title").unwrap_or_default().to_string();
            // No data-w is the first experiment's; "0" is none (the title says it all).
            match var(e.value().attr("data-w").unwrap_or("1")) {
                Some(w) if title.is_empty() => w,
                Some(w) => format!("{title} {w}"),
                None => title,
            }
        })
        .collect()
}

/// The command lines of running processes that are `sleep <marker>`.
pub fn sleeping(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|p| std::fs::read(p.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.trim() == format!("sleep {marker}"))
        .collect()
}

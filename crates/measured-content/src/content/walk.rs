//! Walking `content/`: which files are articles, which are the assets of an article, which are
//! mistakes (a file outside any article folder, a Markdown file that is no article, a symbolic
//! link leading out of the site), and which are named almost like an article (a warning).
//! Symbolic links inside the site are followed; nothing is skipped silently.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::config::{SiteConfig, paths};
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

/// What the walk found.
#[derive(Default)]
pub(super) struct Walk {
    /// Article files: path, folder name, language.
    pub md_files: Vec<(PathBuf, String, Lang)>,
    /// Asset files per article folder, relative to the folder.
    pub assets: BTreeMap<String, Vec<PathBuf>>,
    pub diags: Diagnostics,
    pub warnings: Vec<Diagnostic>,
}

/// Extensions a Markdown file is sometimes given, which measured does not read as an article.
const NEAR_MISS_EXTENSIONS: [&str; 8] = [
    "markdown", "mdown", "mkdn", "mkd", "mdwn", "mdx", "md", "txt",
];

pub(super) fn walk(config: &SiteConfig, content_dir: &Path) -> Walk {
    let mut found = Walk::default();
    // A link may lead anywhere inside the site: the root, or the content folder where that
    // is itself a link to elsewhere.
    let bounds: Vec<PathBuf> = [config.root.as_path(), content_dir]
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    let mut entries = WalkDir::new(content_dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = entries.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().unwrap_or(content_dir);
                found.diags.push(
                    Diagnostic::new(Place::file(path), format!("cannot read: {e}"))
                        .with_hint("fix or remove the file or link"),
                );
                continue;
            }
        };
        if entry.path_is_symlink() && !paths::leads_inside(entry.path(), &bounds) {
            found.diags.push(paths::outside_link(entry.path()));
            if entry.file_type().is_dir() {
                entries.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_file() && !is_hidden(entry.path(), content_dir) {
            found.file(config, content_dir, entry.path());
        }
    }
    found
}

impl Walk {
    fn file(&mut self, config: &SiteConfig, content_dir: &Path, path: &Path) {
        let rel = path.strip_prefix(content_dir).unwrap_or(path).to_path_buf();
        let mut parts = rel.iter();
        let (Some(dir), Some(_)) = (parts.next(), parts.next()) else {
            self.diags.push(
                Diagnostic::new(
                    Place::file(path),
                    "a file directly in content/ belongs to no article",
                )
                .with_hint("put each article in its own folder: content/<slug>/index.<lang>.md"),
            );
            return;
        };
        let dir = dir.to_string_lossy().to_string();
        match kind(&rel, config) {
            Kind::Article(lang) => self.md_files.push((path.to_path_buf(), dir, lang)),
            Kind::BadLanguage(code) => self.diags.push(bad_language(path, &code, config)),
            Kind::StrayMarkdown => self.diags.push(
                Diagnostic::new(Place::file(path), "a Markdown file that is not an article")
                    .with_hint("an article is content/<slug>/index.<lang>.md; rename the file"),
            ),
            Kind::NearMiss(name) => {
                self.warnings.push(
                    Diagnostic::new(Place::file(path), format!("not an article: name it {name}"))
                        .with_hint(
                            "until then it is copied next to the page as a file like any image",
                        ),
                );
                self.asset(dir, &rel);
            }
            Kind::Asset => self.asset(dir, &rel),
        }
    }

    fn asset(&mut self, dir: String, rel: &Path) {
        let in_dir = rel.strip_prefix(&dir).unwrap_or(rel).to_path_buf();
        self.assets.entry(dir).or_default().push(in_dir);
    }
}

enum Kind {
    Article(Lang),
    BadLanguage(String),
    StrayMarkdown,
    /// Named almost like an article: the name it should have.
    NearMiss(String),
    Asset,
}

fn kind(rel: &Path, config: &SiteConfig) -> Kind {
    let name = rel
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let depth = rel.iter().count();
    if !name.ends_with(".md") {
        return match near_miss(&name, config) {
            Some(right) if depth == 2 => Kind::NearMiss(right),
            _ => Kind::Asset,
        };
    }
    match name
        .strip_prefix("index.")
        .and_then(|n| n.strip_suffix(".md"))
    {
        Some(code) if depth == 2 => match config.lang(code) {
            Some(lang) => Kind::Article(lang.clone()),
            None => Kind::BadLanguage(code.to_string()),
        },
        _ => Kind::StrayMarkdown,
    }
}

/// `index.<lang>.md` when `name` is that name with another Markdown-like extension or another
/// case (`index.vi.markdown`, `index.en.MD`, `index.markdown`).
fn near_miss(name: &str, config: &SiteConfig) -> Option<String> {
    let lower = name.to_lowercase();
    let stem = NEAR_MISS_EXTENSIONS
        .iter()
        .find_map(|ext| lower.strip_suffix(&format!(".{ext}")))?;
    let code = match stem {
        "index" => config.default_lang.code().to_string(),
        _ => stem.strip_prefix("index.")?.to_string(),
    };
    config.lang(&code).map(|_| format!("index.{code}.md"))
}

fn bad_language(path: &Path, code: &str, config: &SiteConfig) -> Diagnostic {
    let codes: Vec<&str> = config.langs().map(Lang::code).collect();
    Diagnostic::new(
        Place::file(path),
        format!("language `{code}` is not in site.toml"),
    )
    .with_hint(format!(
        "name the file index.<lang>.md with one of: {}",
        codes.join(", ")
    ))
}

fn is_hidden(path: &Path, base: &Path) -> bool {
    path.strip_prefix(base)
        .unwrap_or(path)
        .iter()
        .any(|c| c.to_string_lossy().starts_with('.') || c.to_string_lossy().ends_with('~'))
}

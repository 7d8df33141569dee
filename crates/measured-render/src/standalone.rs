//! Standalone pages (About, CV, Contact): `pages/<name>/index.<lang>.md`, published at
//! `/<name>/` (`/en/<name>/`), translated like articles. A page is not an article: it has no
//! date and is in no feed, listing, tag page, series or related list, which is why it is read
//! from its own folder into its own type rather than flagged among the articles that all of
//! those stages go through.
//!
//! `pages/index.<lang>.md` is no page of its own: its text is the home page's introduction in
//! that language, shown above the latest articles (an imported blog's `_index.md`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::links;
use crate::markdown::{self, Hooks, Labels, Link, Rendered};
use measured_content::config::SiteConfig;
use measured_content::frontmatter;
use measured_content::site::reserved::Reserved;
use measured_content::theme::ThemeIds;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;
use measured_core::output::Output;

/// The folder of the standalone pages, beside `content/`.
pub const DIR: &str = measured_content::config::paths::PAGES;

/// A standalone page's source.
#[derive(Debug, Clone)]
pub struct PageSource {
    pub path: PathBuf,
    /// The page's folder name: its URL segment; empty for the home page's introduction.
    pub name: String,
    pub lang: Lang,
    /// `/<name>/`, under the language's prefix.
    pub url: String,
    pub title: String,
    pub description: String,
    pub body: String,
    /// 1-based line of the file where `body` starts.
    pub body_line: usize,
}

/// A standalone page, rendered.
#[derive(Debug, Clone)]
pub struct Standalone {
    pub source: PageSource,
    pub body: Rendered,
    /// Its URL in each language it exists in (its own included).
    pub versions: BTreeMap<Lang, String>,
}

impl Standalone {
    /// Whether this is the home page's introduction (`pages/index.<lang>.md`), shown on the
    /// home page rather than published at a URL of its own.
    pub fn is_intro(&self) -> bool {
        self.source.name.is_empty()
    }
}

/// Every standalone page of the site (none without a `pages/` folder), drafts left out unless
/// `drafts`; all the errors of all the files together.
pub fn load(config: &SiteConfig, drafts: bool) -> Result<Vec<PageSource>, Diagnostics> {
    let dir = config.root.join(DIR);
    let mut diags = Diagnostics::default();
    let mut pages = Vec::new();
    let Ok(folders) = std::fs::read_dir(&dir) else {
        return Ok(pages);
    };
    let mut entries: Vec<PathBuf> = folders.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for folder in entries {
        if folder.is_file() && intro_lang(config, &folder).is_some() {
            match read(config, &folder, "") {
                Ok(Some(page)) if drafts || !page.1 => pages.push(page.0),
                Ok(_) => {}
                Err(d) => diags.push(d),
            }
            continue;
        }
        if !folder.is_dir() {
            diags.push(
                Diagnostic::new(Place::file(&folder), "a file directly in pages/ is no page")
                    .with_hint("put a page in its own folder: pages/about/index.vi.md, pages/about/index.en.md; only pages/index.<lang>.md, the home page's introduction, stands alone"),
            );
            continue;
        }
        let name = folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Some(problem) = measured_core::urls::segment_problem(&name) {
            diags.push(
                Diagnostic::new(
                    Place::file(&folder),
                    format!("the page folder `{name}` cannot be a URL segment: {problem}"),
                )
                .with_hint(format!(
                    "rename it with {}, e.g. `{}`",
                    measured_core::urls::ALLOWED,
                    measured_core::urls::suggestion(&name)
                )),
            );
            continue;
        }
        for file in sorted_files(&folder) {
            match read(config, &file, &name) {
                Ok(Some(page)) if drafts || !page.1 => pages.push(page.0),
                Ok(_) => {}
                Err(d) => diags.push(d),
            }
        }
    }
    // Before anything renders, as an article's URL is checked: a page written where the site
    // writes a file of its own would fail the build on that file, naming no page.
    let reserved = Reserved::of(config);
    // The home page's introduction (no name) is at the home page by design.
    for p in pages.iter().filter(|p| !p.name.is_empty()) {
        if let Some(what) = reserved.taken(&p.url) {
            diags.push(
                Diagnostic::new(
                    Place::file(&p.path),
                    format!("the page's URL {} is taken by {what}", p.url),
                )
                .with_hint("rename the page's folder"),
            );
        }
    }
    diags.into_result(pages)
}

/// The language of `pages/index.<lang>.md`, the home page's introduction.
fn intro_lang<'c>(config: &'c SiteConfig, file: &Path) -> Option<&'c Lang> {
    let name = file.file_name()?.to_str()?;
    config.lang(name.strip_prefix("index.")?.strip_suffix(".md")?)
}

fn sorted_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The page in `file` and whether it is a draft; `None` for a file that is no page's text
/// (an image beside it is an error too: a page's assets go in `static/`).
fn read(
    config: &SiteConfig,
    file: &Path,
    name: &str,
) -> Result<Option<(PageSource, bool)>, Diagnostic> {
    let file_name = file.file_name().unwrap_or_default().to_string_lossy();
    let codes: Vec<&str> = config.langs().map(Lang::code).collect();
    let lang = file_name
        .strip_prefix("index.")
        .and_then(|rest| rest.strip_suffix(".md"))
        .and_then(|code| config.lang(code));
    let Some(lang) = lang.cloned() else {
        return Err(Diagnostic::new(
            Place::file(file),
            format!("`{file_name}` is not a page of pages/{name}/"),
        )
        .with_hint(format!(
            "a page is index.<language>.md, one of {}; images and other files of a page go in static/",
            codes.iter().map(|c| format!("index.{c}.md")).collect::<Vec<_>>().join(", ")
        )));
    };
    let text = measured_core::diag::read_text(file, "the page")?;
    let split = frontmatter::split(file, &text)?;
    let raw = frontmatter::parse_page(file, &split).map_err(|mut d| {
        if d.message.contains("unknown field") {
            d.hint = Some(
                "a page takes `title`, `description` and `draft`; dates, tags and series \
                 belong to articles (content/)"
                    .into(),
            );
        }
        d
    })?;
    let frontmatter::RawPageFrontMatter {
        title,
        description,
        draft,
    } = raw;
    let texts = [
        ("title", title.as_str()),
        ("description", description.as_deref().unwrap_or_default()),
    ];
    if let Some(d) = frontmatter::check_text(file, &split, &texts)
        .0
        .into_iter()
        .next()
    {
        return Err(d);
    }
    // The home page's introduction (`pages/index.<lang>.md`) is at the language's home.
    let url = if name.is_empty() {
        config.lang_prefix(&lang)
    } else {
        format!("{}{name}/", config.lang_prefix(&lang))
    };
    Ok(Some((
        PageSource {
            path: file.to_path_buf(),
            name: name.to_string(),
            url,
            title,
            description: description.unwrap_or_default(),
            body: split.body.to_string(),
            body_line: split.body_line,
            lang,
        },
        draft,
    )))
}

/// What rendering a page's body needs besides the page.
pub struct BodyInput<'a> {
    pub highlighter: &'a crate::highlight::Highlighter,
    pub hooks: &'a dyn Hooks,
    pub labels: &'a BTreeMap<Lang, Labels>,
    pub theme_ids: &'a ThemeIds,
}

/// Every page's body rendered, each with its translations; every error of every page.
pub fn render(
    pages: Vec<PageSource>,
    input: &BodyInput<'_>,
) -> Result<Vec<Standalone>, Diagnostics> {
    let mut versions: BTreeMap<String, BTreeMap<Lang, String>> = BTreeMap::new();
    for p in &pages {
        versions
            .entry(p.name.clone())
            .or_default()
            .insert(p.lang.clone(), p.url.clone());
    }
    let lines = crate::highlight::Lines::default();
    Diagnostics::gather(pages.into_iter().map(|source| {
        let body = markdown::render(&markdown::Input {
            path: &source.path,
            body: &source.body,
            body_line: source.body_line,
            lang: &source.lang,
            highlighter: input.highlighter,
            lines: Some(&lines),
            hooks: input.hooks,
            labels: &input.labels[&source.lang],
            theme_ids: input.theme_ids,
        })?;
        Ok::<_, Diagnostics>(Standalone {
            versions: versions[&source.name].clone(),
            source,
            body,
        })
    }))
}

/// A file of the output (a theme file, a file of `static/`) that would be the page's folder.
fn taken(page: &PageSource, output: &Output) -> Option<String> {
    let folder = page.url.trim_matches('/');
    output
        .contains(folder)
        .then(|| format!("the file {folder} of the site"))
}

/// A page whose URL an article has too (the article's `slug:` or folder), or that the build
/// writes something else at, as an error.
pub fn check_collisions(
    pages: &[Standalone],
    article_urls: &BTreeMap<&str, &Path>,
    output: &Output,
) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for p in pages.iter().filter(|p| !p.is_intro()) {
        if let Some(what) = taken(&p.source, output) {
            diags.push(
                Diagnostic::new(
                    Place::file(&p.source.path),
                    format!("the page's URL {} is taken by {what}", p.source.url),
                )
                .with_hint("rename the page's folder"),
            );
        }
        if let Some(article) = article_urls.get(p.source.url.as_str()) {
            diags.push(
                Diagnostic::new(
                    Place::file(&p.source.path),
                    format!(
                        "the page is published at {}, as the article {} is",
                        p.source.url,
                        article.display()
                    ),
                )
                .with_hint("rename the page's folder, or give the article another `slug:`"),
            );
        }
    }
    diags
}

/// The links of every page, checked against the output as an article's are.
pub fn check_links(pages: &[Standalone], targets: links::Targets<'_>) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for p in pages {
        diags.extend(links::check(&p.source.url, &p.body.links, targets));
    }
    diags
}

/// The menu's internal URLs (`[[languages.<code>.menu]]`), checked as links from the home page
/// of their language; external ones (`https://…`) are left to the reader's browser.
pub fn check_menu(config: &SiteConfig, targets: links::Targets<'_>) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for l in &config.languages {
        let menu: Vec<Link> = l
            .menu
            .iter()
            .filter(|m| m.url.starts_with('/'))
            .map(|m| Link {
                dest: m.url.clone(),
                place: m.place.clone(),
            })
            .collect();
        for d in links::check(&config.lang_prefix(&l.lang), &menu, targets).0 {
            diags.push(d.with_hint(format!(
                "a menu entry of [[languages.{}.menu]] leads to a page of the site as /<page>/ \
                 or /<article>/ (/en/… for English), or elsewhere as https://…",
                l.lang.code()
            )));
        }
    }
    diags
}

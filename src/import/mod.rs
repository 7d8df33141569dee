//! `measured import <hugo|zola|jekyll> SRC`: another generator's blog converted into a
//! complete measured site, as stages: read the source's configuration ([`srcconfig`]), find
//! its posts, pages and sections ([`source`], [`jekyll`]), sort them into articles and pages
//! with their URLs and old URLs ([`items`]), map each body ([`body`], [`links`]), copy every
//! static file ([`statics`]), keep the old lists' URLs ([`lists`], [`sections`]), then check
//! and write the files and `site.toml` under the root ([`write`], [`site_toml`]). SRC is
//! only read; nothing is written unless every file can be.

mod body;
mod drafts;
mod front;
mod items;
mod jekyll;
mod links;
mod lists;
mod menus;
mod old_urls;
mod plan;
mod post;
mod report;
mod sections;
mod site_toml;
mod source;
mod srcconfig;
mod statics;
mod tags;
mod write;

use std::path::{Path, PathBuf};

use crate::config::SiteConfig;
use crate::diag::Diagnostics;
use crate::lang::Lang;

pub use report::{Note, Report};

/// The generator a blog comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Generator {
    Hugo,
    Zola,
    Jekyll,
}

impl Generator {
    pub fn name(self) -> &'static str {
        match self {
            Generator::Hugo => "Hugo",
            Generator::Zola => "Zola",
            Generator::Jekyll => "Jekyll",
        }
    }
}

/// What `measured import` was asked to do.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub generator: Generator,
    /// The other generator's site (its root, holding `content/` or `_posts/`).
    pub src: PathBuf,
    /// measured's site root, where `content/`, `pages/`, `static/` and `site.toml` are written.
    pub root: PathBuf,
    /// Overwrite files whose text differs from what the import writes.
    pub force: bool,
    /// Publish the source's drafts (as a live site built with `hugo -D` did).
    pub drafts_as_published: bool,
}

/// One file the import would write, relative to the root, with what it came from.
struct Planned {
    dest: PathBuf,
    bytes: Vec<u8>,
    from: PathBuf,
    /// Whether it may replace the file there without `--force` (an existing `site.toml` to
    /// which the import only appends).
    appends: bool,
}

/// Imports the blog at `opts.src` into `opts.root`; the report says what was done and what
/// is left to do by hand.
pub fn run(opts: &ImportOptions) -> Result<Report, Diagnostics> {
    let source = srcconfig::read(opts.generator, &opts.src)?;
    let existing = existing_config(&opts.root)?;
    let default_lang = existing
        .as_ref()
        .map(|c| c.default_lang.clone())
        .or_else(|| source.default_lang.clone())
        .unwrap_or_else(|| Lang::parse("vi").expect("vi is a language code"));
    let mut found = source::find(opts.generator, &opts.src)?;
    found.lang = source.default_lang.clone();
    let mut report = Report {
        notes: std::mem::take(&mut found.notes),
        default_lang: default_lang.code().to_string(),
        ..Report::default()
    };
    report.dropped.extend(source.dropped.iter().cloned());
    report.to_fix.extend(source.to_fix.iter().cloned());
    if existing.is_none() && source.base_url.is_none() {
        report.to_fix.push(Note::file(
            source.file.as_deref().unwrap_or(&opts.src),
            "no base URL: site.toml says https://example.org; write the site's address there",
        ));
    }
    if existing.is_none() && source.default_lang.is_none() {
        report.to_fix.push(Note::file(
            source.file.as_deref().unwrap_or(&opts.src),
            format!(
                "the source names no language: the articles are written as `{}`; if they are in another, change default_language in site.toml and rename the files",
                default_lang.code()
            ),
        ));
    }
    let planned = plan::plan(
        &plan::Inputs {
            opts,
            source: &source,
            existing: existing.as_ref(),
            default_lang: &default_lang,
        },
        found,
        &mut report,
    )?;
    let outcome = write::write_all(&opts.root, &opts.src, &planned, opts.force)?;
    report.written = outcome.written;
    report.unchanged = outcome.unchanged;
    Ok(report)
}

/// The site's configuration when `ROOT/site.toml` exists.
fn existing_config(root: &Path) -> Result<Option<SiteConfig>, Diagnostics> {
    if root.join("site.toml").is_file() {
        Ok(Some(crate::config::load(root)?))
    } else {
        Ok(None)
    }
}

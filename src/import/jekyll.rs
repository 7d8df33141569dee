//! What a Jekyll site holds besides `_posts/`: drafts (`_drafts/`, published by
//! `jekyll build --drafts` only) and pages (`about.md` outside the `_` folders).

use std::path::Path;

use walkdir::WalkDir;

use super::post::{Found, Origin, Post, split_lang};
use crate::diag::Diagnostics;

/// Folders Jekyll never publishes, besides those starting with `_` or `.`.
pub const SKIPPED: &[&str] = &["node_modules", "vendor", "Gemfile", "Gemfile.lock"];

/// Whether Jekyll leaves `rel` (relative to the site) out of the site: a `_` or `.` folder or
/// file, or one of [`SKIPPED`], or one of `exclude`.
pub fn left_out(rel: &Path, exclude: &[String]) -> bool {
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    rel.components().any(|c| {
        let c = c.as_os_str().to_string_lossy();
        c.starts_with('_') || (c.starts_with('.') && c != ".well-known")
    }) || SKIPPED.contains(&first.as_str())
        || exclude
            .iter()
            .any(|e| rel.starts_with(e.trim_matches('/')) || first == e.trim_matches('/'))
}

/// Whether `text` opens with front matter (`---`): Jekyll renders such a file.
pub fn has_front_matter(text: &[u8]) -> bool {
    text.starts_with(b"---\n") || text.starts_with(b"---\r\n")
}

/// Adds the drafts of `_drafts/` and the Markdown pages of the site to `found`.
pub fn drafts_and_pages(src: &Path, found: &mut Found, diags: &mut Diagnostics) {
    let mut read = |path: &Path| match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) => {
            diags.push(crate::diag::io_error(path, "read the page", &e));
            None
        }
    };
    let drafts = src.join("_drafts");
    for entry in WalkDir::new(&drafts)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let path = entry.path();
        if !entry.file_type().is_file() || !is_markdown(path) {
            continue;
        }
        let Some(text) = read(path) else { continue };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let (stem, lang) = split_lang(&name);
        found.posts.push(Post {
            rel: path.strip_prefix(src).unwrap_or(path).to_path_buf(),
            text,
            lang,
            stem: stem.to_string(),
            section: String::new(),
            bundle: None,
            file_date: None,
            at_root: true,
            origin: Origin::Draft,
        });
    }
    let walk = WalkDir::new(src)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let rel = e.path().strip_prefix(src).unwrap_or(e.path());
            rel.as_os_str().is_empty() || !left_out(rel, &[])
        });
    for entry in walk.flatten() {
        let path = entry.path();
        if !entry.file_type().is_file() || !is_markdown(path) {
            continue;
        }
        let Some(text) = read(path) else { continue };
        if !has_front_matter(text.as_bytes()) {
            continue;
        }
        let rel = path.strip_prefix(src).unwrap_or(path).to_path_buf();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let (stem, lang) = split_lang(&name);
        let section = rel
            .parent()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let origin = if stem == "index" && section.is_empty() {
            Origin::Section
        } else {
            Origin::Page
        };
        let post = Post {
            rel,
            text,
            lang,
            stem: stem.to_string(),
            section,
            bundle: None,
            file_date: None,
            at_root: true,
            origin,
        };
        if origin == Origin::Section {
            found.sections.push(post);
        } else {
            found.posts.push(post);
        }
    }
}

fn is_markdown(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "md" || e == "markdown")
}

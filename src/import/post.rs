//! A post of the source site as the importer reads it (its file, language, name, section),
//! and what finding them gives: apart from finding them, so that each generator's readers
//! (Jekyll's drafts and pages, the old URLs) use the types without reaching back into the
//! finder.

use std::path::PathBuf;

use super::Note;
use crate::lang::Lang;

/// One post file of the source site.
#[derive(Debug, Clone)]
pub struct Post {
    /// The file, relative to SRC.
    pub rel: PathBuf,
    pub text: String,
    /// `x.en.md` → `en`; none for the site's default language.
    pub lang: Option<Lang>,
    /// The post's name: the file's stem, or its bundle folder's name (Jekyll: after the date).
    pub stem: String,
    /// The folders between `content/` and the post (`posts/iot`); empty for Jekyll.
    pub section: String,
    /// The page bundle's folder when the post is `x/index.md`.
    pub bundle: Option<PathBuf>,
    /// Jekyll's `YYYY-MM-DD` from the file name.
    pub file_date: Option<String>,
    /// Whether the post is in the source's default language, whose URLs have no `/<lang>/`.
    pub at_root: bool,
    /// Where the file was found.
    pub origin: Origin,
}

/// Which kind of source file a [`Post`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A post (Jekyll's `_posts/`), or any page of Hugo's and Zola's `content/`.
    Post,
    /// Jekyll's `_drafts/`: a post not published.
    Draft,
    /// A Jekyll page (`about.md` outside the `_` folders).
    Page,
    /// A section's `_index.md` (Hugo, Zola): its list page's text.
    Section,
}

impl Post {
    /// The translations of one article share this.
    pub(super) fn key(&self) -> (u8, String, String) {
        (self.origin as u8, self.section.clone(), self.stem.clone())
    }
}

/// The posts found, and what was skipped.
pub struct Found {
    pub posts: Vec<Post>,
    /// The sections' `_index.md` (Hugo, Zola), the home's included (section "").
    pub sections: Vec<Post>,
    /// The sections' other files, relative to the posts folder (published at that path).
    pub section_files: Vec<PathBuf>,
    /// The language of the files without a language in their name, when the site's
    /// configuration names it (set by the caller from [`super::srcconfig`]).
    pub lang: Option<Lang>,
    pub notes: Vec<Note>,
}

/// `x.en.md` → (`x`, en); `x.md` → (`x`, none).
pub fn split_lang(name: &str) -> (&str, Option<Lang>) {
    let stem = name
        .strip_suffix(".md")
        .or_else(|| name.strip_suffix(".markdown"))
        .unwrap_or(name);
    match stem.rsplit_once('.') {
        Some((base, code)) => match Lang::parse(code) {
            Ok(lang) => (base, Some(lang)),
            Err(_) => (stem, None),
        },
        None => (stem, None),
    }
}

//! Search: one index per language, made from the articles' text as the Markdown stage
//! gathered it, so the site searches itself in the browser (`static/search.js`) with no server
//! and no third-party request.
//!
//! A separate stage because it adds files to the output and nothing else depends on it.
//! Words are indexed folded (`kết nối` under `ket noi`, `đường` under `duong`) with each
//! spelling kept apart, so a query finds them with or without accents and ranks its own
//! spelling first. Made in-process on all cores, from text collected while rendering, not
//! read back from the pages (docs/performance.md).

mod files;
pub mod page;
mod words;

use std::collections::BTreeMap;

use rayon::prelude::*;

use measured_core::diag::{Diagnostic, Diagnostics, Place};

pub use measured_core::search_text::Text;

/// Where the indexes live in the output, one folder per language.
pub const DIR: &str = measured_content::site::reserved::SEARCH;

/// Files of an index: (path in the output, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// An article as the index reads it.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// As the browser sees it: `/en/tcp/`.
    pub url: &'a str,
    pub title: &'a str,
    pub tags: &'a [String],
    /// The description the author wrote (empty when none).
    pub description: &'a str,
    /// The body's text ([`crate::markdown::Rendered::text`]).
    pub body: &'a Text,
}

/// The folder of a language's index in the output: `search/<lang>`; the theme's
/// `search.js` loads `search/<lang>/index.json` for the page's language.
pub fn lang_dir(lang: &str) -> String {
    format!("{DIR}/{lang}")
}

/// Indexes each language of `langs` (with its articles, in the order their numbers in the
/// index follow) on its own thread; returns each language's files, paths under [`DIR`].
pub fn index_langs(
    langs: &[(&str, &[Source<'_>])],
) -> Result<BTreeMap<String, Files>, Diagnostics> {
    let results: Vec<(&str, std::thread::Result<Files>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = langs
            .iter()
            .map(|&(lang, pages)| (lang, scope.spawn(move || index_lang(lang, pages))))
            .collect();
        handles
            .into_iter()
            .map(|(lang, handle)| (lang, handle.join()))
            .collect()
    });
    let mut diags = Diagnostics::default();
    let mut files = BTreeMap::new();
    for (lang, result) in results {
        match result {
            Ok(f) => {
                files.insert(lang.to_string(), f);
            }
            Err(_) => diags.extend(fail(format!("indexing the `{lang}` pages crashed"))),
        }
    }
    diags.into_result(files)
}

/// The index of one language's articles: the files of [`files::build`], paths under
/// [`lang_dir`]. Words are counted on all cores.
fn index_lang(lang: &str, sources: &[Source<'_>]) -> Files {
    let pages: Vec<page::Page> = sources.par_iter().map(page::of_article).collect();
    files::build(&lang_dir(lang), &pages)
}

/// A failure of the index as a whole, placed at the index's folder in the output.
fn fail(message: String) -> Diagnostics {
    let mut d = Diagnostics::default();
    d.push(Diagnostic::new(Place::file(format!("{DIR}/")), message));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Text {
        let mut t = Text::default();
        t.push(text);
        t
    }

    #[test]
    fn one_index_per_language_holding_its_own_pages() {
        let (vi, en) = (body("kết nối và bắt tay"), body("the connection"));
        let vi = [Source {
            url: "/a/",
            title: "Tiêu đề",
            tags: &[],
            description: "",
            body: &vi,
        }];
        let en = [Source {
            url: "/en/a/",
            title: "Title",
            tags: &[],
            description: "",
            body: &en,
        }];
        let files: Files = index_langs(&[("vi", &vi), ("en", &en)])
            .unwrap()
            .into_values()
            .flatten()
            .collect();
        for (lang, url, word) in [("vi", "/a/", "bắt"), ("en", "/en/a/", "connection")] {
            let path = format!("search/{lang}/index.json");
            let entry = &files.iter().find(|(p, _)| *p == path).unwrap().1;
            let entry: serde_json::Value = serde_json::from_slice(entry).unwrap();
            assert_eq!(
                entry["pages"], 1,
                "the {lang} index holds its own page only"
            );
            let set = entry["set"].as_str().unwrap();
            let bundle = format!("search/{lang}/f/{set}/0.json");
            let bundle = &files.iter().find(|(p, _)| *p == bundle).unwrap().1;
            let bundle: serde_json::Value = serde_json::from_slice(bundle).unwrap();
            assert_eq!(bundle[0]["url"], url);
            let chunks: Vec<&[u8]> = files
                .iter()
                .filter(|(p, _)| p.starts_with(&format!("search/{lang}/c/")))
                .map(|(_, b)| b.as_slice())
                .collect();
            assert!(
                chunks
                    .iter()
                    .any(|c| String::from_utf8_lossy(c).contains(&format!("\"{word}\""))),
                "{word} is in the {lang} index"
            );
        }
        assert!(
            files
                .iter()
                .all(|(p, _)| p.starts_with("search/vi/") || p.starts_with("search/en/"))
        );
    }
}

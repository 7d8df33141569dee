//! Search: one index per language, built from the rendered articles, so the site searches
//! itself in the browser (`static/search.js`) with no server and no third-party request.
//!
//! A separate stage because it reads the finished output (what readers see is what is found)
//! and adds files to it; nothing else depends on it. Words are indexed folded (`kết nối` under
//! `ket noi`, `đường` under `duong`) with each spelling kept apart, so a query finds them with
//! or without accents and ranks its own spelling first. Made in-process on all cores, in 5–8 %
//! of the time Pagefind, used before, took on the same pages (docs/performance.md).

mod files;
pub mod page;
mod words;

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::output::Output;

/// Where the indexes live in the output, one folder per language.
pub const DIR: &str = "search";

/// Files of an index: (path in the output, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// The article pages of `output` (those with the body marker) by the language of their
/// `<html lang>`, as (path, HTML).
pub fn pages_by_lang(output: &Output) -> BTreeMap<String, Vec<(&str, &str)>> {
    let mut by_lang: BTreeMap<String, Vec<(&str, &str)>> = BTreeMap::new();
    for (path, bytes) in &output.files {
        if !path.ends_with(".html") {
            continue;
        }
        let Ok(html) = std::str::from_utf8(bytes) else {
            continue;
        };
        if page::is_searchable(html) {
            by_lang
                .entry(lang_of(html).to_string())
                .or_default()
                .push((path.as_str(), html));
        }
    }
    by_lang
}

/// The value of the page's `<html lang="…">` (empty when it has none).
fn lang_of(html: &str) -> &str {
    let Some(start) = html.find("<html") else {
        return "";
    };
    let tag = &html[start..html[start..].find('>').map_or(html.len(), |e| start + e)];
    tag.split_once("lang=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or("", |(lang, _)| lang)
}

/// The folder of a language's index in the output: `search/<lang>`; the theme's
/// `search.js` loads `search/<lang>/index.json` for the page's language.
pub fn lang_dir(lang: &str) -> String {
    format!("{DIR}/{lang}")
}

/// Indexes every article of `output`, one index per language made on its own thread; returns
/// the files to add, paths under [`DIR`]. A site without articles gets no index (the search
/// box then says it found nothing).
pub fn index(output: &Output) -> Result<Files, Diagnostics> {
    let by_lang = pages_by_lang(output);
    let langs: Vec<&str> = by_lang.keys().map(String::as_str).collect();
    Ok(index_langs(&by_lang, &langs)?
        .into_values()
        .flatten()
        .collect())
}

/// Indexes the languages `langs` of `by_lang`, each on its own thread; returns each
/// language's files.
pub fn index_langs(
    by_lang: &BTreeMap<String, Vec<(&str, &str)>>,
    langs: &[&str],
) -> Result<BTreeMap<String, Files>, Diagnostics> {
    let results: Vec<(String, std::thread::Result<Files>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = langs
            .iter()
            .filter_map(|lang| by_lang.get_key_value(*lang))
            .map(|(lang, pages)| (lang, scope.spawn(move || index_lang(lang, pages))))
            .collect();
        handles
            .into_iter()
            .map(|(lang, handle)| (lang.clone(), handle.join()))
            .collect()
    });
    let mut diags = Diagnostics::default();
    let mut files = BTreeMap::new();
    for (lang, result) in results {
        match result {
            Ok(f) => {
                files.insert(lang, f);
            }
            Err(_) => diags.extend(fail(format!("indexing the `{lang}` pages crashed"))),
        }
    }
    diags.into_result(files)
}

/// The index of one language's pages: the files of [`files::build`], paths under
/// [`lang_dir`]. Pages are read on all cores.
fn index_lang(lang: &str, pages: &[(&str, &str)]) -> Files {
    let pages: Vec<page::Page> = pages
        .par_iter()
        .map(|(path, html)| page::read(path, html))
        .collect();
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

    fn page(lang: &str, body: &str) -> Vec<u8> {
        format!(
            "<!DOCTYPE html><html lang=\"{lang}\"><head><title>t</title></head><body><nav>Trang chủ</nav><main data-search-body><h1>Tiêu đề</h1><p>{body}</p></main></body></html>"
        )
        .into_bytes()
    }

    #[test]
    fn one_index_per_language_holding_its_own_pages() {
        let mut output = Output::default();
        output.insert("a/index.html".into(), page("vi", "kết nối và bắt tay"));
        output.insert("en/a/index.html".into(), page("en", "the connection"));
        output.insert(
            "index.html".into(),
            b"<html lang=\"vi\"><main>list</main></html>".to_vec(),
        );
        output.insert("style.css".into(), b"main{}".to_vec());
        let files = index(&output).unwrap();
        for lang in ["vi", "en"] {
            let path = format!("search/{lang}/index.json");
            let entry = &files.iter().find(|(p, _)| *p == path).unwrap().1;
            let entry: serde_json::Value = serde_json::from_slice(entry).unwrap();
            assert_eq!(
                entry["pages"], 1,
                "the {lang} index holds its own page only"
            );
            let set = entry["set"].as_str().unwrap();
            let fragment = format!("search/{lang}/f/{set}/0.json");
            let fragment = &files.iter().find(|(p, _)| *p == fragment).unwrap().1;
            let fragment: serde_json::Value = serde_json::from_slice(fragment).unwrap();
            let url = if lang == "vi" { "/a/" } else { "/en/a/" };
            assert_eq!(fragment["url"], url);
        }
        assert!(
            files
                .iter()
                .all(|(p, _)| p.starts_with("search/vi/") || p.starts_with("search/en/"))
        );
    }

    #[test]
    fn the_language_is_read_from_the_html_element() {
        assert_eq!(
            lang_of("<!DOCTYPE html><html lang=\"vi\" class=\"x\"><p lang=\"en\">"),
            "vi"
        );
        assert_eq!(lang_of("<html class=\"x\"><p lang=\"en\">"), "");
    }

    #[test]
    fn no_articles_no_index() {
        let mut output = Output::default();
        output.insert(
            "index.html".into(),
            b"<html lang=\"vi\"><main>list</main></html>".to_vec(),
        );
        assert!(index(&output).unwrap().is_empty());
    }
}

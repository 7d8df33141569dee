//! Search: one Pagefind index per language, built in-process from the rendered articles, so
//! the site searches itself in the browser with no server and no third-party request.
//!
//! A separate stage because it reads the finished output (what readers see is what is found)
//! and adds files to it; nothing else depends on it.
//!
//! Pagefind finds pages by the `data-pagefind-body` attribute the theme puts on an article's
//! `<main>`, and the language of each index by `<html lang>`. It folds diacritics itself
//! (`ket noi` finds `kết nối`, ranking `kết nối` first for a query with its accents), except
//! for `đ`, which has no Unicode decomposition: the copy of the page given to Pagefind (never
//! the published page) ends with the page's `đ` words spelled with `d`, at a lower weight.

use std::collections::{BTreeMap, BTreeSet};

use pagefind::api::PagefindIndex;
use pagefind::options::PagefindServiceConfig;

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::output::Output;

/// Where the indexes live in the output, one folder per language.
pub const DIR: &str = "pagefind";

/// Files of an index: (path in the output, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// The attribute that marks a page's searchable part.
const BODY_MARKER: &str = "data-pagefind-body";

/// Pagefind's files that the theme does not use (its own UIs and highlighting script).
const UNUSED: &[&str] = &[
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
];

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
        if html.contains(BODY_MARKER) {
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

/// The folder of a language's index in the output: `pagefind/<lang>`; the theme's
/// `search.js` loads `pagefind/<lang>/pagefind.js` for the page's language.
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

/// Indexes the languages `langs` of `by_lang`, each on its own thread (Pagefind indexes one
/// page at a time); returns each language's files.
pub fn index_langs(
    by_lang: &BTreeMap<String, Vec<(&str, &str)>>,
    langs: &[&str],
) -> Result<BTreeMap<String, Files>, Diagnostics> {
    let results: Vec<(String, Result<Files, Diagnostics>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = langs
            .iter()
            .filter_map(|lang| by_lang.get_key_value(*lang))
            .map(|(lang, pages)| (lang, scope.spawn(move || index_lang(lang, pages))))
            .collect();
        handles
            .into_iter()
            .map(|(lang, handle)| {
                let result = handle
                    .join()
                    .unwrap_or_else(|_| Err(fail(format!("indexing the `{lang}` pages crashed"))));
                (lang.clone(), result)
            })
            .collect()
    });
    let mut diags = Diagnostics::default();
    let mut files = BTreeMap::new();
    for (lang, result) in results {
        match result {
            Ok(f) => {
                files.insert(lang, f);
            }
            Err(d) => diags.extend(d),
        }
    }
    diags.into_result(files)
}

/// The index of one language's pages: the files of its Pagefind bundle, paths under
/// [`lang_dir`].
fn index_lang(lang: &str, pages: &[(&str, &str)]) -> Result<Files, Diagnostics> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| fail(format!("cannot start the indexing runtime: {e}")))?;
    runtime.block_on(build(lang, pages))
}

async fn build(lang: &str, pages: &[(&str, &str)]) -> Result<Files, Diagnostics> {
    let options = PagefindServiceConfig::builder().build();
    let mut index = PagefindIndex::new(Some(options))
        .map_err(|e| fail(format!("cannot set up the search index: {e}")))?;
    let mut diags = Diagnostics::default();
    for (path, html) in pages {
        let page = with_folded_copy(html);
        if let Err(e) = index.add_html_file(None, Some(url_of(path)), page).await {
            diags.push(Diagnostic::new(
                Place::file(*path),
                format!("cannot index this page for search: {e}"),
            ));
        }
    }
    let files = index
        .get_files()
        .await
        .map_err(|e| fail(format!("cannot build the search index: {e}")))?;
    let dir = lang_dir(lang);
    let files = files
        .into_iter()
        .filter_map(|f| {
            let rel = f
                .filename
                .iter()
                .map(|c| c.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (!UNUSED.contains(&rel.as_str())).then(|| (format!("{dir}/{rel}"), f.contents))
        })
        .collect();
    diags.into_result(files)
}

/// A failure of the index as a whole, placed at the index's folder in the output.
fn fail(message: String) -> Diagnostics {
    let mut d = Diagnostics::default();
    d.push(Diagnostic::new(Place::file(format!("{DIR}/")), message));
    d
}

/// The page's URL as the browser sees it: `en/x/index.html` → `/en/x/`.
fn url_of(path: &str) -> String {
    format!("/{}", path.strip_suffix("index.html").unwrap_or(path))
}

/// The page for Pagefind: the published HTML, plus its `đ` words spelled with `d` at the end of
/// the searchable part, so `do` finds `đo` (an exact `đo` still ranks first).
fn with_folded_copy(html: &str) -> String {
    let folded = d_words(html);
    if folded.is_empty() {
        return html.to_string();
    }
    let extra = format!(
        "<div data-pagefind-weight=\"0.5\">{}</div>",
        folded.into_iter().collect::<Vec<_>>().join(" ")
    );
    match html.rfind("</main>") {
        Some(end) => format!("{}{extra}{}", &html[..end], &html[end..]),
        None => html.to_string(),
    }
}

/// The words of the page's text containing `đ`/`Đ`, lower-cased, with `d` for `đ`.
fn d_words(html: &str) -> BTreeSet<String> {
    text_of(html)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.contains(['đ', 'Đ']))
        .map(|w| w.to_lowercase().replace('đ', "d"))
        .collect()
}

/// The text between tags (enough to find words; entities are left as they are).
fn text_of(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lang: &str, body: &str) -> Vec<u8> {
        format!(
            "<!DOCTYPE html><html lang=\"{lang}\"><head><title>t</title></head><body><nav>Trang chủ</nav><main data-pagefind-body><h1>Tiêu đề</h1><p>{body}</p></main></body></html>"
        )
        .into_bytes()
    }

    #[test]
    fn urls_drop_index_html() {
        assert_eq!(url_of("index.html"), "/");
        assert_eq!(url_of("en/tcp/index.html"), "/en/tcp/");
        assert_eq!(url_of("404.html"), "/404.html");
    }

    #[test]
    fn d_words_are_folded_outside_tags_only() {
        let words = d_words("<p title=\"đi\">Đo độ trễ, <b>đường</b> truyền</p>");
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(words, ["do", "dường", "dộ"]);
    }

    #[test]
    fn the_folded_copy_goes_inside_main() {
        let html = "<main data-pagefind-body><p>đo</p></main>";
        assert_eq!(
            with_folded_copy(html),
            "<main data-pagefind-body><p>đo</p><div data-pagefind-weight=\"0.5\">do</div></main>"
        );
        assert_eq!(
            with_folded_copy("<main><p>kết nối</p></main>"),
            "<main><p>kết nối</p></main>"
        );
    }

    #[test]
    fn one_index_per_language_and_only_the_files_the_theme_uses() {
        let mut output = Output::default();
        output.insert("a/index.html".into(), page("vi", "kết nối và bắt tay"));
        output.insert("en/a/index.html".into(), page("en", "the connection"));
        output.insert(
            "index.html".into(),
            b"<html lang=\"vi\"><main>list</main></html>".to_vec(),
        );
        output.insert("style.css".into(), b"main{}".to_vec());
        let files = index(&output).unwrap();
        let names: BTreeSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        for lang in ["vi", "en"] {
            for file in ["pagefind.js", "pagefind-entry.json"] {
                let wanted = format!("pagefind/{lang}/{file}");
                assert!(
                    names.contains(wanted.as_str()),
                    "{wanted} missing from {names:?}"
                );
            }
        }
        assert!(!names.iter().any(|n| n.ends_with("pagefind-ui.js")));
        for lang in ["vi", "en"] {
            let path = format!("pagefind/{lang}/pagefind-entry.json");
            let entry = &files.iter().find(|(p, _)| *p == path).unwrap().1;
            let entry: serde_json::Value = serde_json::from_slice(entry).unwrap();
            let langs: Vec<&String> = entry["languages"].as_object().unwrap().keys().collect();
            assert_eq!(langs, [lang], "the {lang} index holds its own pages only");
            assert_eq!(entry["languages"][lang]["page_count"], 1);
        }
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

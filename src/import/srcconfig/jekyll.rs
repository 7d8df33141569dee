//! Jekyll's `_config.yml`.

use serde_json::{Map, Value};

use super::{MenuEntry, SourceConfig, SourceLang, Text, count, drop_rest, lang_of, text};
use crate::import::Note;

const KNOWN: &[&str] = &[
    "url",
    "baseurl",
    "title",
    "description",
    "lang",
    "locale",
    "paginate",
    "paginate_path",
    "permalink",
    "plugins",
    "gems",
    "feed",
    "exclude",
    "header_pages",
    "author",
];

pub(super) fn read(map: Map<String, Value>, t: &Text<'_>) -> SourceConfig {
    let mut c = SourceConfig {
        paginate_path: "/page:num/".into(),
        ..SourceConfig::default()
    };
    let path = map
        .get("baseurl")
        .and_then(text)
        .map(|p| p.trim_end_matches('/').to_string())
        .filter(|p| !p.is_empty())
        .map(|p| format!("/{}", p.trim_start_matches('/')))
        .unwrap_or_default();
    if let Some(url) = map.get("url").and_then(text) {
        c.base_url = Some(format!("{}{path}", url.trim_end_matches('/')));
    }
    c.base_path = path;
    c.paginate = map.get("paginate").and_then(count);
    if let Some(p) = map.get("paginate_path").and_then(text) {
        c.paginate_path = p;
    }
    let permalink = map
        .get("permalink")
        .and_then(text)
        .unwrap_or_else(|| "date".into());
    c.permalinks.insert(String::new(), style(&permalink));
    let plugins: Vec<String> = [map.get("plugins"), map.get("gems")]
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(text)
        .collect();
    if plugins.iter().any(|p| p == "jekyll-feed") {
        let path = map
            .get("feed")
            .and_then(|f| f.get("path"))
            .and_then(text)
            .unwrap_or_else(|| "feed.xml".into());
        c.feeds = vec![path.trim_start_matches('/').to_string()];
    }
    c.exclude = map
        .get("exclude")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(text).collect())
        .unwrap_or_default();
    let lang = ["lang", "locale"]
        .iter()
        .find_map(|k| map.get(*k).and_then(text))
        .and_then(|l| lang_of(&l));
    let menu = header_pages(&map, t);
    c.default_lang = lang.clone();
    c.languages.push(SourceLang {
        lang,
        title: map.get("title").and_then(text),
        description: map.get("description").and_then(text),
        footer: None,
        menu,
    });
    drop_rest(&map, KNOWN, t, &why, &mut c.dropped);
    c
}

fn why(key: &str) -> String {
    match key {
        "theme" | "remote_theme" | "sass" => {
            "measured has its own theme (templates/ and static/ override it)".into()
        }
        "markdown" | "kramdown" | "highlighter" => {
            "measured renders Markdown and highlights code its own way".into()
        }
        _ => {
            "measured has no such setting (site.toml's keys are listed in docs/authoring.md)".into()
        }
    }
}

/// A permalink style's pattern (Jekyll's built-in styles), or the pattern itself.
fn style(permalink: &str) -> String {
    match permalink {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "weekdate" => "/:categories/:year/W:week/:short_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        other => other,
    }
    .to_string()
}

/// minima's `header_pages: [about.md]`: the header's links, to pages by their file.
fn header_pages(map: &Map<String, Value>, t: &Text<'_>) -> Vec<MenuEntry> {
    map.get("header_pages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(text)
        .enumerate()
        .map(|(i, file)| MenuEntry {
            name: String::new(),
            place: Note::at(t.path, t.line("header_pages") + i + 1, String::new()),
            url: file,
            page_ref: true,
            weight: i as i64,
        })
        .collect()
}

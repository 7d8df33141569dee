//! Zola's `config.toml`.

use serde_json::{Map, Value};

use super::{
    MenuEntry, SourceConfig, SourceLang, Taxonomy, Text, base, count, drop_rest, lang_of, text,
};
use crate::import::Note;

const KNOWN: &[&str] = &[
    "base_url",
    "title",
    "description",
    "default_language",
    "languages",
    "generate_feeds",
    "generate_feed",
    "feed_filenames",
    "feed_filename",
    "taxonomies",
    "extra",
    "author",
];

pub(super) fn read(map: Map<String, Value>, t: &Text<'_>) -> SourceConfig {
    let mut c = SourceConfig {
        lowercase: true,
        paginate_path: "page".into(),
        ..SourceConfig::default()
    };
    if let Some(url) = map.get("base_url").and_then(text) {
        let (url, path) = base(&url);
        c.base_url = Some(url);
        c.base_path = path;
    }
    c.feeds = feeds(&map);
    c.taxonomies = taxonomies(&map);
    let menu = extra_menu(&map, t, &mut c.dropped);
    let default = map.get("default_language").and_then(text);
    let mut langs = vec![SourceLang {
        lang: default.as_deref().and_then(lang_of),
        title: map.get("title").and_then(text),
        description: map.get("description").and_then(text),
        footer: None,
        menu,
    }];
    for (code, l) in map
        .get("languages")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let Some(lang) = lang_of(code).filter(|l| Some(l) != langs[0].lang.as_ref()) else {
            continue;
        };
        langs.push(SourceLang {
            lang: Some(lang),
            title: l
                .get("title")
                .and_then(text)
                .or_else(|| langs[0].title.clone()),
            description: l.get("description").and_then(text),
            footer: None,
            menu: langs[0].menu.clone(),
        });
    }
    c.default_lang = langs[0].lang.clone();
    c.languages = langs;
    drop_rest(&map, KNOWN, t, &why, &mut c.dropped);
    c
}

fn why(key: &str) -> String {
    match key {
        "build_search_index" | "search" => "measured builds its own search index (`[search]` in site.toml)".into(),
        "markdown" | "highlight_code" | "highlight_theme" => "measured renders Markdown and highlights code its own way (`[highlight]` in site.toml)".into(),
        "theme" | "compile_sass" => "measured has its own theme (templates/ and static/ override it)".into(),
        "slugify" => "the old URLs are computed as with Zola's default (`on`); check the aliases if it was otherwise".into(),
        _ => "measured has no such setting (site.toml's keys are listed in docs/authoring.md)".into(),
    }
}

/// The home feed's files: `feed_filenames` (or the older `feed_filename`) when feeds are on.
fn feeds(map: &Map<String, Value>) -> Vec<String> {
    let on = [map.get("generate_feeds"), map.get("generate_feed")]
        .into_iter()
        .flatten()
        .any(|v| v == &Value::Bool(true));
    if !on {
        return Vec::new();
    }
    let names: Vec<String> = match (map.get("feed_filenames"), map.get("feed_filename")) {
        (Some(Value::Array(a)), _) => a.iter().filter_map(text).collect(),
        (_, Some(v)) => text(v).into_iter().collect(),
        _ => Vec::new(),
    };
    if names.is_empty() {
        vec!["atom.xml".into()]
    } else {
        names
    }
}

/// `taxonomies = [{ name = "tags", feed = true, paginate_by = 5 }]`: only these are published.
fn taxonomies(map: &Map<String, Value>) -> Vec<Taxonomy> {
    map.get("taxonomies")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter(|t| t.get("render") != Some(&Value::Bool(false)))
        .filter_map(|t| {
            Some(Taxonomy {
                name: t.get("name").and_then(text)?,
                feed: t.get("feed") == Some(&Value::Bool(true)),
                paginate: t.get("paginate_by").and_then(count),
            })
        })
        .collect()
}

/// A menu a theme reads from `[extra]` (`menu`, `main_menu`, `navbar_items`…: a list of
/// `{ name, url }`), and a note for every other key of `[extra]`.
fn extra_menu(map: &Map<String, Value>, t: &Text<'_>, dropped: &mut Vec<Note>) -> Vec<MenuEntry> {
    let Some(extra) = map.get("extra").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut menu = Vec::new();
    for (key, value) in extra {
        let items: Vec<(String, String)> = value
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .filter_map(|i| {
                let name = i.get("name").or_else(|| i.get("title")).and_then(text)?;
                let url = i.get("url").or_else(|| i.get("path")).and_then(text)?;
                Some((name, url))
            })
            .collect();
        let is_menu = (key.contains("menu") || key.contains("nav")) && !items.is_empty();
        if is_menu && menu.is_empty() {
            for (i, (name, url)) in items.into_iter().enumerate() {
                let url = url.replace("$BASE_URL", "");
                menu.push(MenuEntry {
                    place: t.note(key, String::new()),
                    name,
                    url: if url.is_empty() { "/".into() } else { url },
                    page_ref: false,
                    weight: i as i64,
                });
            }
            continue;
        }
        dropped.push(t.note(
            key,
            format!("`extra.{key}` dropped: a parameter of the old theme, which measured's theme does not read"),
        ));
    }
    menu
}

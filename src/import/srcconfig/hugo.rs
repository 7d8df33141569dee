//! Hugo's configuration (`hugo.toml`, `hugo.yaml`, `config.toml`…), its keys in lowercase.

use serde_json::{Map, Value};

use super::{
    MenuEntry, SourceConfig, SourceLang, Taxonomy, Text, base, count, drop_rest, lang_of, text,
};
use crate::import::Note;

/// The keys read here; every other is dropped with a note.
const KNOWN: &[&str] = &[
    "baseurl",
    "title",
    "languagecode",
    "defaultcontentlanguage",
    "defaultcontentlanguageinsubdir",
    "languages",
    "params",
    "paginate",
    "paginatepath",
    "pagination",
    "menu",
    "menus",
    "permalinks",
    "taxonomies",
    "disablepathtolower",
    "removepathaccents",
    "builddrafts",
    "copyright",
    "author",
];

pub(super) fn read(map: Map<String, Value>, t: &Text<'_>) -> SourceConfig {
    let mut c = SourceConfig {
        lowercase: map.get("disablepathtolower") != Some(&Value::Bool(true)),
        remove_accents: map.get("removepathaccents") == Some(&Value::Bool(true)),
        default_in_subdir: map.get("defaultcontentlanguageinsubdir") == Some(&Value::Bool(true)),
        paginate_path: "page".into(),
        feeds: vec!["index.xml".into()],
        ..SourceConfig::default()
    };
    if let Some(url) = map.get("baseurl").and_then(text) {
        let (url, path) = base(&url);
        c.base_url = Some(url);
        c.base_path = path;
    }
    let pagination = map.get("pagination").and_then(Value::as_object);
    c.paginate = map
        .get("paginate")
        .and_then(count)
        .or_else(|| pagination.and_then(|p| p.get("pagersize")).and_then(count))
        .or(Some(10));
    if let Some(path) = map
        .get("paginatepath")
        .or_else(|| pagination.and_then(|p| p.get("path")))
        .and_then(text)
    {
        c.paginate_path = path.trim_matches('/').to_string();
    }
    if map.get("builddrafts") == Some(&Value::Bool(true)) {
        c.build_drafts = Some(t.note("builddrafts", "`buildDrafts = true`"));
    }
    permalinks(&map, t, &mut c);
    c.taxonomies = taxonomies(&map, c.paginate);
    let params = map.get("params").and_then(Value::as_object);
    c.main_sections = params
        .and_then(|p| p.get("mainsections"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(text).collect())
        .unwrap_or_default();
    languages(&map, t, &mut c);
    let menus = [map.get("menu"), map.get("menus")];
    for menus in menus.into_iter().flatten().filter_map(Value::as_object) {
        for key in menus.keys().filter(|k| *k != "main") {
            c.dropped.push(t.note(
                key,
                format!("the menu `{key}` dropped: measured's header shows one menu (`main`)"),
            ));
        }
    }
    drop_rest(&map, KNOWN, t, &why, &mut c.dropped);
    if let Some(params) = params {
        let used = ["description", "mainsections", "author"];
        for key in params.keys().filter(|k| !used.contains(&k.as_str())) {
            c.dropped.push(t.note(
                key,
                format!("`params.{}` dropped: a parameter of the old theme, which measured's theme does not read", t.written(key)),
            ));
        }
    }
    c
}

/// Why a key of `hugo.toml` is not carried over.
fn why(key: &str) -> String {
    match key {
        "theme" | "themesdir" => "measured has its own theme (templates/ and static/ override it)".into(),
        "uglyurls" => "measured publishes /<slug>/ folders; the old .html URLs are kept as aliases only where the import computes them".into(),
        "markup" | "pygmentsstyle" | "pygmentscodefences" => "measured renders Markdown and highlights code its own way ([highlight] in site.toml)".into(),
        "outputs" | "outputformats" | "mediatypes" => "measured writes HTML, Atom feeds and a sitemap".into(),
        "enablerobotstxt" | "sitemap" => "measured always writes robots.txt and sitemap.xml".into(),
        _ => "measured has no such setting (site.toml's keys are listed in docs/authoring.md)".into(),
    }
}

/// `[permalinks]`: `posts = "/:year/:slug/"`, or Hugo 0.120's `[permalinks.page]` and
/// `[permalinks.term]`.
fn permalinks(map: &Map<String, Value>, t: &Text<'_>, c: &mut SourceConfig) {
    let Some(table) = map.get("permalinks").and_then(Value::as_object) else {
        return;
    };
    for (key, value) in table {
        match (key.as_str(), value) {
            (_, Value::String(pattern)) => {
                c.permalinks.insert(key.clone(), pattern.clone());
            }
            ("page", Value::Object(sections)) => {
                for (s, p) in sections {
                    if let Some(p) = text(p) {
                        c.permalinks.insert(s.clone(), p);
                    }
                }
            }
            ("term", Value::Object(taxonomies)) => {
                for (tax, p) in taxonomies {
                    if let Some(p) = text(p) {
                        c.term_permalinks.insert(tax.clone(), p);
                    }
                }
            }
            _ => c.dropped.push(t.note(
                key,
                format!(
                    "`permalinks.{key}` dropped: the import keeps the URLs of pages and terms only"
                ),
            )),
        }
    }
}

/// The taxonomies Hugo publishes: `[taxonomies]` (singular = plural), else tags and
/// categories; each term with a feed and pages of `paginate`.
fn taxonomies(map: &Map<String, Value>, paginate: Option<usize>) -> Vec<Taxonomy> {
    let names: Vec<String> = match map.get("taxonomies").and_then(Value::as_object) {
        Some(t) => t.values().filter_map(text).collect(),
        None => vec!["tags".into(), "categories".into()],
    };
    names
        .into_iter()
        .map(|name| Taxonomy {
            name,
            feed: true,
            paginate,
        })
        .collect()
}

/// The languages: `[languages.<code>]` ordered by weight, else `languageCode`'s.
fn languages(map: &Map<String, Value>, t: &Text<'_>, c: &mut SourceConfig) {
    let title = map.get("title").and_then(text);
    let params = map.get("params").and_then(Value::as_object);
    let description = params.and_then(|p| p.get("description")).and_then(text);
    let footer = map.get("copyright").and_then(text);
    let menu = menu_of(map, t);
    let default = map.get("defaultcontentlanguage").and_then(text);
    let mut langs: Vec<(i64, SourceLang)> = Vec::new();
    if let Some(table) = map.get("languages").and_then(Value::as_object) {
        for (code, l) in table {
            let Some(lang) = lang_of(code) else {
                c.to_fix.push(t.note(
                    code,
                    format!("the language `{code}` has no code measured reads (2 or 3 letters): its pages are left out"),
                ));
                continue;
            };
            let l = l.as_object().cloned().unwrap_or_default();
            let lparams = l.get("params").and_then(Value::as_object);
            let own_menu = menu_of(&l, t);
            langs.push((
                l.get("weight").and_then(Value::as_i64).unwrap_or(0),
                SourceLang {
                    lang: Some(lang),
                    title: l.get("title").and_then(text).or_else(|| title.clone()),
                    description: lparams
                        .and_then(|p| p.get("description"))
                        .or_else(|| l.get("description"))
                        .and_then(text)
                        .or_else(|| description.clone()),
                    footer: l.get("copyright").and_then(text).or_else(|| footer.clone()),
                    menu: if own_menu.is_empty() {
                        menu.clone()
                    } else {
                        own_menu
                    },
                },
            ));
        }
    }
    langs.sort_by(|(w, l), (v, m)| (w, &l.lang).cmp(&(v, &m.lang)));
    let mut langs: Vec<SourceLang> = langs.into_iter().map(|(_, l)| l).collect();
    if langs.is_empty() {
        let code = map.get("languagecode").and_then(text).or(default.clone());
        langs.push(SourceLang {
            lang: code.as_deref().and_then(lang_of),
            title,
            description,
            footer,
            menu,
        });
    }
    let wanted = default.as_deref().and_then(lang_of);
    if let Some(i) = langs
        .iter()
        .position(|l| l.lang == wanted && wanted.is_some())
    {
        let l = langs.remove(i);
        langs.insert(0, l);
    }
    c.default_lang = wanted.or_else(|| langs[0].lang.clone());
    c.languages = langs;
}

/// The `main` menu of `[menu]` (or `[menus]`), ordered by weight; other menus dropped.
fn menu_of(map: &Map<String, Value>, t: &Text<'_>) -> Vec<MenuEntry> {
    let Some(menus) = map
        .get("menu")
        .or_else(|| map.get("menus"))
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in menus
        .get("main")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(item) = item.as_object() else {
            continue;
        };
        let name = item
            .get("name")
            .or_else(|| item.get("identifier"))
            .and_then(text)
            .unwrap_or_default();
        let (url, page_ref) = match (
            item.get("url").and_then(text),
            item.get("pageref").and_then(text),
        ) {
            (Some(url), _) => (url, false),
            (None, Some(r)) => (r, true),
            (None, None) => continue,
        };
        let line_key = if page_ref { "pageref" } else { "url" };
        let line = t
            .text
            .lines()
            .position(|l| l.to_lowercase().contains(line_key) && l.contains(url.as_str()))
            .map_or_else(|| t.line("menu"), |i| i + 1);
        out.push(MenuEntry {
            name,
            url,
            page_ref,
            weight: item.get("weight").and_then(Value::as_i64).unwrap_or(0),
            place: Note::at(t.path, line, String::new()),
        });
    }
    out.sort_by(|a, b| (a.weight, &a.name).cmp(&(b.weight, &b.name)));
    out
}

//! A post's front matter mapped to measured's keys: `lastmod` → `updated`, `summary` →
//! `description`, categories merged into tags, `draft` kept (Jekyll's `published: false` is a
//! draft), dates as written; the old URL's keys (`slug`, `url`, `path`, `permalink`,
//! `aliases`) read for the aliases; every other key dropped with a note at its line.

use std::path::Path;

use serde_json::{Map, Value};

use super::post::Post;
use super::{Generator, Note};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::frontmatter;

/// A post's front matter in measured's terms, and its body.
#[derive(Debug, Default)]
pub struct Converted {
    pub title: Option<String>,
    pub date: Option<String>,
    pub updated: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    /// The post's `tags` as written, before the categories are merged in.
    pub own_tags: Vec<String>,
    /// The post's own categories, before they are merged into the tags (Jekyll puts them in
    /// its URLs).
    pub categories: Vec<String>,
    pub series: Option<String>,
    pub draft: bool,
    /// `slug:` as the source wrote it.
    pub slug: Option<String>,
    /// Hugo's `url:`, Zola's `path:`, Jekyll's `permalink:`: the post's whole old URL.
    pub url: Option<String>,
    /// The line of that key in the file (1 when there is none).
    pub url_line: usize,
    pub aliases: Vec<String>,
    /// The line of `aliases:` (or `redirect_from:`), 1 when there is none.
    pub aliases_line: usize,
    /// The line of `categories:`, 1 when there is none.
    pub categories_line: usize,
    /// The lines of `date:` and `tags:` (a page has neither), 1 when there is none.
    pub date_line: usize,
    pub tags_line: usize,
    /// `layout:` and `type:`: how the source's theme renders the file (a page, a search
    /// page, an archive), read and still noted as dropped.
    pub layout: Option<String>,
    pub page_type: Option<String>,
    /// `menu: main` (Hugo): the page's entry in the main menu, with its weight and name.
    pub menu: Option<(i64, Option<String>)>,
    pub dropped: Vec<Note>,
    pub to_fix: Vec<Note>,
    pub body: String,
    pub body_line: usize,
}

/// Reads and maps the front matter of `post`.
pub fn convert(generator: Generator, src: &Path, post: &Post) -> Result<Converted, Diagnostics> {
    let file = src.join(&post.rel);
    let split = frontmatter::split(&file, &post.text)?;
    let mut map = frontmatter::foreign::read(&split).map_err(|m| {
        Diagnostic::new(
            Place::at(&file, split.text_line, 1),
            format!("front matter: {}", m.trim_end()),
        )
        .with_hint(format!(
            "fix the front matter so that {} reads it, then import again",
            generator.name()
        ))
    })?;
    let mut out = Converted {
        body: split.body.to_string(),
        body_line: split.body_line,
        ..Converted::default()
    };
    let note = |key: &str, text: String| {
        let line = frontmatter::key_line(&split, key).unwrap_or(split.text_line);
        Note::at(&file, line, text)
    };
    out.title = take_text(&mut map, &["title"]);
    out.date = take_text(&mut map, &["date", "publishDate", "publishdate", "pubdate"])
        .or_else(|| post.file_date.clone());
    out.updated = take_text(
        &mut map,
        &["lastmod", "updated", "last_modified_at", "modified"],
    );
    out.description = take_text(&mut map, &["description", "summary", "excerpt"]);
    out.slug = take_text(&mut map, &["slug"]);
    out.url = take_text(&mut map, &["url", "path", "permalink"]);
    out.url_line = ["url", "path", "permalink"]
        .iter()
        .find_map(|k| frontmatter::key_line(&split, k))
        .unwrap_or(1);
    out.draft = take_bool(&mut map, "draft")
        || map
            .remove("published")
            .is_some_and(|v| v == Value::Bool(false));
    out.aliases_line = ["aliases", "redirect_from"]
        .iter()
        .find_map(|k| frontmatter::key_line(&split, k))
        .unwrap_or(1);
    out.categories_line = ["categories", "category"]
        .iter()
        .find_map(|k| frontmatter::key_line(&split, k))
        .unwrap_or(1);
    out.date_line = frontmatter::key_line(&split, "date").unwrap_or(1);
    out.tags_line = frontmatter::key_line(&split, "tags").unwrap_or(1);
    out.aliases = take_list(&mut map, "aliases");
    out.aliases.extend(take_list(&mut map, "redirect_from"));
    out.layout = map.get("layout").and_then(text);
    out.page_type = map.get("type").and_then(text);
    out.menu = menu(&mut map);
    let mut tags = take_list(&mut map, "tags");
    out.own_tags = tags.clone();
    out.categories = take_list(&mut map, "categories");
    out.categories.extend(take_list(&mut map, "category"));
    tags.extend(out.categories.iter().cloned());
    if let Some(Value::Object(mut tax)) = map.remove("taxonomies") {
        out.own_tags.extend(take_list(&mut tax, "tags"));
        out.categories.extend(take_list(&mut tax, "categories"));
        tags.extend(out.own_tags.iter().cloned());
        tags.extend(out.categories.iter().cloned());
        for key in tax.keys() {
            out.dropped.push(note(
                "taxonomies",
                format!("taxonomy `{key}` dropped (measured has tags only)"),
            ));
        }
    }
    out.tags = distinct(tags);
    out.series = take_list(&mut map, "series").into_iter().next();
    check_dates(&mut out, &note, &file);
    let mut rest: Vec<&String> = map.keys().collect();
    rest.sort_by_key(|k| frontmatter::key_line(&split, k));
    for key in rest {
        out.dropped.push(note(
            key,
            format!("`{key}` dropped: {}", frontmatter::unknown_hint(key)),
        ));
    }
    Ok(out)
}

/// Hugo's `menu: main`, `menu: [main]` or `menu: { main: { weight: 2, name: … } }`, taken
/// out of `map` when it names the main menu.
fn menu(map: &mut Map<String, Value>) -> Option<(i64, Option<String>)> {
    let key = ["menu", "menus"]
        .into_iter()
        .find(|k| map.contains_key(*k))?;
    let entry = match &map[key] {
        Value::String(s) if s == "main" => (0, None),
        Value::Array(a) if a.iter().any(|v| v == "main") => (0, None),
        Value::Object(o) => {
            let main = o.get("main")?;
            let weight = main.get("weight").and_then(Value::as_i64).unwrap_or(0);
            (weight, main.get("name").and_then(text))
        }
        _ => return None,
    };
    map.remove(key);
    Some(entry)
}

/// Jekyll's dates made RFC 3339, and a note for a date measured does not read or a missing
/// title or date.
fn check_dates(out: &mut Converted, note: &dyn Fn(&str, String) -> Note, file: &Path) {
    for (key, what) in [
        ("date", out.date.as_mut()),
        ("updated", out.updated.as_mut()),
    ] {
        let Some(date) = what else { continue };
        *date = jekyll_date(date).unwrap_or_else(|| date.clone());
        if let Err(m) = frontmatter::Moment::parse(date) {
            out.to_fix.push(note(
                key,
                format!("{m}: write it as YYYY-MM-DD or 2025-06-04T17:04:06+07:00"),
            ));
        }
    }
    if out.title.is_none() {
        out.to_fix
            .push(Note::at(file, 1, "no `title`: write one".to_string()));
    }
}

/// The note for an article without a date (a page needs none).
pub fn no_date(file: &Path) -> Note {
    Note::at(file, 1, "no `date`: write one (YYYY-MM-DD)")
}

/// The first of `keys` that is there, as text; all of them removed.
fn take_text(map: &mut Map<String, Value>, keys: &[&str]) -> Option<String> {
    let mut found = None;
    for key in keys {
        let value = map.remove(*key).and_then(|v| text(&v));
        found = found.or(value);
    }
    found
}

fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn take_bool(map: &mut Map<String, Value>, key: &str) -> bool {
    match map.remove(key) {
        Some(Value::Bool(b)) => b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    }
}

/// A list, or one text (`tags: python`, Jekyll's `categories: a b`), as texts.
fn take_list(map: &mut Map<String, Value>, key: &str) -> Vec<String> {
    match map.remove(key) {
        Some(Value::Array(items)) => items.iter().filter_map(text).collect(),
        Some(Value::String(s)) if key.starts_with("categor") => {
            s.split_whitespace().map(str::to_string).collect()
        }
        Some(v) => text(&v).into_iter().collect(),
        None => Vec::new(),
    }
}

fn distinct(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.iter().any(|o| o.to_lowercase() == item.to_lowercase()) {
            out.push(item);
        }
    }
    out
}

/// Jekyll's `2016-01-08 12:00:00 +0700` as RFC 3339 (`2016-01-08T12:00:00+07:00`).
fn jekyll_date(s: &str) -> Option<String> {
    let (date, rest) = s.trim().split_once(' ')?;
    let (time, zone) = rest.trim().split_once(' ')?;
    let zone = zone.trim();
    let ok = zone.len() == 5 && (zone.starts_with('+') || zone.starts_with('-'));
    ok.then(|| format!("{date}T{time}{}:{}", &zone[..3], &zone[3..]))
}

/// The folder (URL segment) of the article: its `slug:` or its name, made a valid segment
/// (in lowercase when the source lowercased its URLs, as Hugo does); a slug that would lead
/// out of `content/` is refused.
pub fn folder(
    src: &Path,
    post: &Post,
    conv: &Converted,
    lowercase: bool,
) -> Result<String, Diagnostics> {
    let file = src.join(&post.rel);
    let wanted = conv.slug.clone().unwrap_or_else(|| post.stem.clone());
    let wanted = if lowercase {
        wanted.to_lowercase()
    } else {
        wanted
    };
    let escapes = wanted.contains('/') || wanted.contains('\\') || wanted.contains("..");
    if escapes || wanted.trim().is_empty() {
        let split = frontmatter::split(&file, &post.text)?;
        let line = frontmatter::key_line(&split, "slug").unwrap_or(1);
        return Err(Diagnostic::new(
            Place::at(&file, line, 1),
            format!(
                "the slug `{wanted}` is a path, not one URL segment: it would lead out of content/"
            ),
        )
        .with_hint("write a slug of letters, digits and `-`, e.g. `slug: my-post`")
        .into());
    }
    Ok(match crate::urls::segment_problem(&wanted) {
        None => wanted,
        Some(_) => crate::urls::suggestion(&wanted),
    })
}

/// measured's YAML front matter for `conv`, with `aliases`.
pub fn render(conv: &Converted, aliases: &[String]) -> String {
    let mut entries: Vec<(&str, Value)> = Vec::new();
    let mut put = |k, v: Option<&String>| {
        if let Some(v) = v {
            entries.push((k, Value::String(v.clone())));
        }
    };
    put("title", conv.title.as_ref());
    put("date", conv.date.as_ref());
    put("updated", conv.updated.as_ref());
    put("description", conv.description.as_ref());
    put("series", conv.series.as_ref());
    let list = |items: &[String]| Value::Array(items.iter().cloned().map(Value::String).collect());
    if !conv.tags.is_empty() {
        entries.push(("tags", list(&conv.tags)));
    }
    if conv.draft {
        entries.push(("draft", Value::Bool(true)));
    }
    if !aliases.is_empty() {
        entries.push(("aliases", list(aliases)));
    }
    frontmatter::foreign::write_yaml(&entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jekyll_dates_become_rfc3339() {
        assert_eq!(
            jekyll_date("2016-01-08 12:00:00 +0700").unwrap(),
            "2016-01-08T12:00:00+07:00"
        );
        assert_eq!(jekyll_date("2016-01-08"), None);
    }
}

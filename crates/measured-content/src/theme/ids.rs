//! The ids the theme's templates give elements (`series`, `main`, `reproduce-<experiment>`), read
//! from the templates in use, so that the Markdown stage gives headings other ids: a list kept by
//! hand would drift from the templates, and a site's overrides bring their own ids.

use std::collections::BTreeSet;

use super::Theme;

/// The ids a theme writes, from every `id="…"` (or `id='…'`) attribute of its HTML templates.
///
/// Every HTML template counts, not only those an article page is made of: which templates an
/// article reaches through `extends`, `include` and macros is Tera's to resolve, and reserving
/// an id of the tag index as well costs a heading at most a `-1`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThemeIds {
    /// Ids written whole: `series`, `main`.
    literal: BTreeSet<String>,
    /// Ids made with a template expression, as the literal text before and after it:
    /// `reproduce-{{ r.experiment }}` is (`reproduce-`, ``). The expression may make any id of
    /// that shape, so the whole family is the theme's. An id that is all expression
    /// (`id="{{ x }}"`) could be any id and reserves nothing: the link check's duplicate-id
    /// check still catches what it collides with.
    families: BTreeSet<(String, String)>,
}

impl ThemeIds {
    /// The ids of the HTML templates of `theme` (built-in ones and the site's overrides).
    pub fn of(theme: &Theme) -> ThemeIds {
        let mut ids = ThemeIds::default();
        for (name, t) in &theme.templates {
            if name.ends_with(".html") {
                ids.add_template(&t.text);
            }
        }
        ids
    }

    /// Adds the ids of one template's text.
    fn add_template(&mut self, text: &str) {
        for value in id_values(text) {
            match first_tag_open(value) {
                None => {
                    self.literal.insert(value.to_string());
                }
                Some(start) => {
                    let end = last_tag_close(value).unwrap_or(value.len());
                    let (prefix, suffix) = (&value[..start], &value[end.max(start)..]);
                    if !(prefix.is_empty() && suffix.is_empty()) {
                        self.families
                            .insert((prefix.to_string(), suffix.to_string()));
                    }
                }
            }
        }
    }

    /// Whether the theme may write `id`: one of its literal ids, or of the shape of a family.
    pub fn holds(&self, id: &str) -> bool {
        self.literal.contains(id) || self.in_family(id)
    }

    /// Whether `id` has the shape of an id the theme makes with an expression.
    pub fn in_family(&self, id: &str) -> bool {
        self.families.iter().any(|(p, s)| in_family(id, p, s))
    }

    /// Whether `id` has the shape of a family whose literal text comes first (`reproduce-…`):
    /// `-1` after it keeps that start, so only another start takes an id out of the family.
    pub fn in_prefix_family(&self, id: &str) -> bool {
        self.families
            .iter()
            .any(|(p, s)| !p.is_empty() && in_family(id, p, s))
    }

    /// The literal ids, sorted (for messages and tests).
    pub fn literal(&self) -> impl Iterator<Item = &str> {
        self.literal.iter().map(String::as_str)
    }

    /// The families, as `prefix…suffix`, sorted (for messages and tests).
    pub fn families(&self) -> impl Iterator<Item = String> + '_ {
        self.families.iter().map(|(p, s)| format!("{p}…{s}"))
    }
}

/// Whether `id` is `prefix`, then at least one character of an expression's value, then `suffix`.
fn in_family(id: &str, prefix: &str, suffix: &str) -> bool {
    id.len() > prefix.len() + suffix.len() && id.starts_with(prefix) && id.ends_with(suffix)
}

/// Where the first `{{` or `{%` of `value` starts.
fn first_tag_open(value: &str) -> Option<usize> {
    value
        .match_indices('{')
        .map(|(i, _)| i)
        .find(|&i| is_tag_open(&value[i..]))
}

fn is_tag_open(s: &str) -> bool {
    s.starts_with("{{") || s.starts_with("{%")
}

/// The byte after the last `}}` or `%}` of `value`.
fn last_tag_close(value: &str) -> Option<usize> {
    let a = value.rfind("}}");
    let b = value.rfind("%}");
    a.max(b).map(|i| i + 2)
}

/// The values of the `id` attributes of a template's text: after whitespace, `id=` and a quote,
/// up to the same quote outside `{{ }}` and `{% %}` (an expression may hold quotes).
fn id_values(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("id=") {
        let before = text[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_ascii_whitespace()) {
            continue;
        }
        let rest = &text[at + 3..];
        let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
            continue;
        };
        let value = &rest[1..];
        if let Some(end) = value_end(value, quote) {
            out.push(&value[..end]);
        }
    }
    out
}

/// Where the attribute value `value` ends: its closing `quote`, outside template tags.
fn value_end(value: &str, quote: char) -> Option<usize> {
    let mut i = 0;
    while i < value.len() {
        let rest = &value[i..];
        if is_tag_open(rest) {
            let close = if rest.starts_with("{{") { "}}" } else { "%}" };
            i += rest.find(close)? + 2;
            continue;
        }
        let c = rest.chars().next()?;
        if c == quote {
            return Some(i);
        }
        i += c.len_utf8();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> ThemeIds {
        let mut ids = ThemeIds::default();
        ids.add_template(text);
        ids
    }

    #[test]
    fn literal_ids_and_families_are_read_from_a_template() {
        let ids = of(concat!(
            "<nav class=\"series\" id=\"series\">\n<h2 id='series-title'>",
            "<h3 id=\"reproduce-{{ r.experiment }}\">{{ r.experiment }}</h3>",
            "<p id=\"{{ x }}-note\"><a href=\"#{{ e.id }}\" data-id=\"no\">",
            "<li id=\"{{ e.id }}\"><li id=\"{% if a %}a{% else %}b{% endif %}\">",
            "<b id=\"q-{{ \"x\" ~ y }}-end\">"
        ));
        assert_eq!(
            ids.literal().collect::<Vec<_>>(),
            ["series", "series-title"]
        );
        assert_eq!(
            ids.families().collect::<Vec<_>>(),
            ["…-note", "q-…-end", "reproduce-…"]
        );
    }

    #[test]
    fn a_family_holds_the_ids_of_its_shape() {
        let ids = of("<h3 id=\"reproduce-{{ r.experiment }}\"> <p id=\"{{ x }}-note\">");
        assert!(ids.holds("reproduce-tcp") && ids.in_prefix_family("reproduce-tcp"));
        assert!(!ids.holds("reproduce-") && !ids.holds("reproduce"));
        assert!(ids.holds("a-note") && !ids.in_prefix_family("a-note"));
        assert!(!ids.holds("a-note-1") && !ids.holds("-note"));
    }

    #[test]
    fn the_built_in_theme_reserves_its_ids() {
        let dir = tempfile::tempdir().unwrap();
        let ids = ThemeIds::of(&super::super::load(dir.path()).unwrap());
        for id in [
            "main",
            "search",
            "search-input",
            "search-help",
            "series",
            "series-title",
            "toc-title",
            "reproduce-title",
            "related-title",
        ] {
            assert!(ids.holds(id), "{id} is the theme's");
        }
        assert!(ids.in_prefix_family("reproduce-tcp-handshake"));
        assert!(!ids.holds("ket-qua") && !ids.holds("related"));
    }

    #[test]
    fn a_site_template_brings_its_ids_and_drops_those_it_replaces() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("templates")).unwrap();
        let page = "{% extends \"base.html\" %}{% block main %}<aside id=\"notes\"></aside>{% endblock main %}";
        std::fs::write(dir.path().join("templates/article.html"), page).unwrap();
        let ids = ThemeIds::of(&super::super::load(dir.path()).unwrap());
        assert!(ids.holds("notes") && ids.holds("main"));
        assert!(!ids.holds("series") && !ids.holds("reproduce-tcp"));
    }
}

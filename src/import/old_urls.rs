//! The URLs a post had under its old generator, each kept as an alias: Hugo's
//! `/<section path>/<slug>/` (or `url:`, or the section's `[permalinks]` pattern), Zola's
//! `/<section>/<slug>/` (or `path:`), Jekyll's site-wide `permalink` pattern (by default
//! `/<categories>/YYYY/MM/DD/slug.html`, or the post's `permalink:`), under `/<lang>/` for a
//! translation. An alias no redirect page can answer for (`..`, `<script>`) is left out with
//! a note at its line.

use std::path::Path;

use super::front::Converted;
use super::post::{Origin, Post};
use super::srcconfig::SourceConfig;
use super::{Generator, Note};
use crate::lang::Lang;

/// What decides a post's old URLs.
pub struct Rules<'a> {
    pub generator: Generator,
    pub config: &'a SourceConfig,
    /// The new site's default language: a post in it has no language of its own (`None`).
    pub default: &'a Lang,
}

impl Rules<'_> {
    /// The post's old URLs: [`Rules::old_url`], and for a Jekyll post with categories in its
    /// URL, also the URL without them.
    pub fn old_urls(&self, post: &Post, conv: &Converted) -> Vec<String> {
        let mut urls: Vec<String> = self.old_url(post, conv).into_iter().collect();
        if self.generator == Generator::Jekyll && conv.url.is_none() && !conv.categories.is_empty()
        {
            let pattern = self.jekyll_pattern().replace(":categories", "");
            let plain = with_slashes(&jekyll(&pattern, post, conv));
            if !urls.contains(&plain) && !plain.contains(':') {
                urls.push(plain);
            }
        }
        urls
    }

    /// The post's old URL, when it can be computed (a pattern with a placeholder the import
    /// does not know cannot, and is reported by [`permalink_note`]).
    pub fn old_url(&self, post: &Post, conv: &Converted) -> Option<String> {
        let url = match (&conv.url, self.generator) {
            (None, Generator::Jekyll) if post.origin == Origin::Page => self.jekyll_page(post),
            (Some(url), Generator::Jekyll) => jekyll(url, post, conv),
            (Some(url), _) => url.clone(),
            (None, Generator::Jekyll) => jekyll(&self.jekyll_pattern(), post, conv),
            (None, Generator::Hugo) => format!("{}{}", self.prefix(post), self.hugo(post, conv)),
            (None, Generator::Zola) => format!("{}{}", self.prefix(post), zola(post, conv)),
        };
        if url.contains(':') && !url.contains("://") {
            return None;
        }
        Some(with_slashes(&url))
    }

    /// `/<lang>` for a post of another language than the source's default (or for every post
    /// when Hugo puts the default language in its folder too).
    pub fn prefix(&self, post: &Post) -> String {
        let code = post.lang.as_ref().unwrap_or(self.default).code();
        if !post.at_root || self.config.default_in_subdir {
            format!("/{code}")
        } else {
            String::new()
        }
    }

    /// A Jekyll page's URL: `/<folder>/<name>/` with a pattern ending in `/` (`pretty`), else
    /// `/<folder>/<name>.html`.
    fn jekyll_page(&self, post: &Post) -> String {
        let path = join(&post.section, &post.stem);
        if self.jekyll_pattern().ends_with('/') {
            format!("/{path}/")
        } else {
            format!("/{path}.html")
        }
    }

    fn jekyll_pattern(&self) -> String {
        self.config
            .permalinks
            .get("")
            .cloned()
            .unwrap_or_else(|| "/:categories/:year/:month/:day/:title:output_ext".into())
    }

    /// Hugo's URL of a page: its section's `[permalinks]` pattern, else its path under
    /// `content/` with `slug:` as its last segment; in lowercase unless `disablePathToLower`.
    fn hugo(&self, post: &Post, conv: &Converted) -> String {
        let top = post.section.split('/').next().unwrap_or_default();
        let pattern = self
            .config
            .permalinks
            .get(&post.section)
            .or_else(|| self.config.permalinks.get(top));
        let path = match pattern {
            Some(p) => hugo_pattern(p, post, conv, self.config),
            None => {
                let name = conv.slug.clone().unwrap_or_else(|| post.stem.clone());
                format!("/{}/", join(&post.section, &name).replace(' ', "-"))
            }
        };
        if self.config.lowercase {
            path.to_lowercase()
        } else {
            path
        }
    }
}

/// Hugo's placeholders of a permalink pattern filled in.
fn hugo_pattern(pattern: &str, post: &Post, conv: &Converted, config: &SourceConfig) -> String {
    let title = urlize(conv.title.as_deref().unwrap_or_default(), config);
    let slug = conv.slug.clone().map(|s| urlize(&s, config));
    let date = Date::of(conv.date.as_deref());
    let first = post.section.split('/').next().unwrap_or_default();
    let tokens: [(&str, String); 16] = [
        (
            ":slugorcontentbasename",
            slug.clone().unwrap_or(post.stem.clone()),
        ),
        (":slugorfilename", slug.clone().unwrap_or(post.stem.clone())),
        (":contentbasename", post.stem.clone()),
        (":filename", post.stem.clone()),
        (":sections", post.section.clone()),
        (":section", first.to_string()),
        (":slug", slug.unwrap_or(title.clone())),
        (":title", title),
        (":weekdayname", date.weekday_name()),
        (":weekday", date.weekday()),
        (":yearday", date.yearday()),
        (":year", date.year.clone()),
        (":monthname", date.month_name()),
        (":month", date.month.clone()),
        (":day", date.day.clone()),
        (":lastmod", String::new()),
    ];
    let filled = tokens
        .iter()
        .fold(pattern.to_string(), |p, (k, v)| p.replace(k, v));
    squeeze(&filled)
}

/// Zola's URL of a page: `/<section>/<slug>/`, each segment slugified, the date Zola takes
/// from a file name (`2024-01-02-x`) left out.
fn zola(post: &Post, conv: &Converted) -> String {
    let section: Vec<String> = post
        .section
        .split('/')
        .filter(|s| !s.is_empty())
        .map(slug::slugify)
        .collect();
    let name = conv
        .slug
        .clone()
        .unwrap_or_else(|| zola_stem(&post.stem).to_string());
    format!("/{}/", join(&section.join("/"), &slug::slugify(name)))
}

/// `2024-01-02-x` or `2024-01-02_x` → `x` (Zola takes the date from the name).
pub fn zola_stem(stem: &str) -> &str {
    let dated = stem.len() > 11
        && stem.as_bytes()[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
        && matches!(stem.as_bytes()[10], b'-' | b'_');
    if dated { &stem[11..] } else { stem }
}

/// Jekyll's placeholders in a permalink pattern filled in (`:year`, `:month`, `:day`,
/// `:i_month`, `:i_day`, `:short_year`, `:title`, `:slug`, `:categories` in lowercase,
/// `:output_ext`); the date from the file name, else from `date:`.
fn jekyll(pattern: &str, post: &Post, conv: &Converted) -> String {
    let date = Date::of(post.file_date.as_deref().or(conv.date.as_deref()));
    let name = conv.slug.clone().unwrap_or_else(|| post.stem.clone());
    let categories: Vec<String> = conv.categories.iter().map(|c| c.to_lowercase()).collect();
    let tokens: [(&str, String); 11] = [
        (":categories", categories.join("/")),
        (
            ":short_year",
            date.year.get(2..).unwrap_or_default().to_string(),
        ),
        (":year", date.year.clone()),
        (":i_month", date.month.trim_start_matches('0').to_string()),
        (":month", date.month.clone()),
        (":i_day", date.day.trim_start_matches('0').to_string()),
        (":day", date.day.clone()),
        (":y_day", date.yearday()),
        (":title", name.clone()),
        (":slug", slug::slugify(&name)),
        (":output_ext", ".html".into()),
    ];
    if date.year.is_empty() && pattern.contains(":year") {
        return pattern.to_string();
    }
    let filled = tokens
        .iter()
        .fold(pattern.to_string(), |p, (k, v)| p.replace(k, v));
    squeeze(&filled)
}

/// `//` made `/`.
fn squeeze(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// The parts of a post's date as its URL writes them.
struct Date {
    year: String,
    month: String,
    day: String,
    civil: Option<jiff::civil::Date>,
}

impl Date {
    fn of(text: Option<&str>) -> Date {
        let text = text.unwrap_or_default();
        let part = |r: std::ops::Range<usize>| text.get(r).unwrap_or_default().to_string();
        let civil = text
            .get(..10)
            .and_then(|d| d.parse::<jiff::civil::Date>().ok());
        Date {
            year: civil.map_or_else(String::new, |_| part(0..4)),
            month: civil.map_or_else(String::new, |_| part(5..7)),
            day: civil.map_or_else(String::new, |_| part(8..10)),
            civil,
        }
    }

    fn month_name(&self) -> String {
        self.civil
            .map(|d| d.strftime("%B").to_string())
            .unwrap_or_default()
    }

    fn weekday(&self) -> String {
        self.civil
            .map(|d| d.weekday().to_sunday_zero_offset().to_string())
            .unwrap_or_default()
    }

    fn weekday_name(&self) -> String {
        self.civil
            .map(|d| d.strftime("%A").to_string())
            .unwrap_or_default()
    }

    fn yearday(&self) -> String {
        self.civil
            .map(|d| d.day_of_year().to_string())
            .unwrap_or_default()
    }
}

/// Hugo's `urlize`: letters, digits, marks and `._~+#@-` kept, each run of spaces one `-`,
/// everything else dropped; in lowercase unless `disablePathToLower`, and without accents
/// when `removePathAccents`.
pub fn urlize(text: &str, config: &SourceConfig) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let kept = c.is_alphanumeric()
            || matches!(c, '.' | '/' | '_' | '#' | '+' | '~' | '-' | '@')
            || is_mark(c);
        if kept {
            if space && !out.ends_with('-') && c != '-' {
                out.push('-');
            }
            space = false;
            out.push(c);
        } else if c.is_whitespace() && !out.is_empty() {
            space = true;
        }
    }
    let out = if config.lowercase {
        out.to_lowercase()
    } else {
        out
    };
    if config.remove_accents {
        use unicode_normalization::UnicodeNormalization;
        out.nfd().filter(|c| !is_mark(*c)).collect()
    } else {
        out
    }
}

/// Whether `c` is a combining mark (Vietnamese written decomposed: `a` + U+0309).
fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF)
}

/// A note for a `permalink:` (or `url:`) with placeholders the import does not expand.
pub fn permalink_note(
    rules: &Rules<'_>,
    file: &Path,
    post: &Post,
    conv: &Converted,
) -> Option<Note> {
    conv.url.as_ref()?;
    match rules.old_url(post, conv) {
        Some(_) => None,
        None => Some(Note::at(
            file,
            conv.url_line,
            format!(
                "`{}` has placeholders the import does not know: add the post's old URL to `aliases:` by hand",
                conv.url.as_deref().unwrap_or_default()
            ),
        )),
    }
}

/// The old folders a bundle's files were served from (the old URL without its file name),
/// so that links written to them absolutely can be made relative.
pub fn old_dirs(rules: &Rules<'_>, post: &Post, conv: &Converted) -> Vec<String> {
    let mut dirs: Vec<String> = rules.old_url(post, conv).into_iter().collect();
    dirs.extend(conv.aliases.iter().map(|a| with_slashes(a)));
    dirs.into_iter()
        .map(|d| match d.rfind('/') {
            Some(i) => d[..=i].to_string(),
            None => d,
        })
        .collect()
}

fn join(section: &str, name: &str) -> String {
    if section.is_empty() {
        name.to_string()
    } else {
        format!("{section}/{name}")
    }
}

/// `posts/x` → `/posts/x/`; `/2016/x.html` kept; a full URL made its path.
pub fn with_slashes(url: &str) -> String {
    let path = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => url.trim(),
    };
    let mut out = format!("/{}", path.trim_start_matches('/'));
    let last = out.rsplit('/').next().unwrap_or_default();
    if !out.ends_with('/') && !last.contains('.') {
        out.push('/');
    }
    out
}

/// `aliases` without repeats and without `new_url`, the article's URL now; each that no
/// redirect page can answer for is left out, with a note at `line` of `file` (where the
/// source wrote it, or what it was made from).
pub fn checked(
    aliases: Vec<(String, usize)>,
    new_url: &str,
    file: &Path,
    notes: &mut Vec<Note>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (alias, line) in aliases {
        let a = with_slashes(&alias);
        if a == new_url || out.contains(&a) {
            continue;
        }
        match alias_problem(&a) {
            Some(problem) => notes.push(Note::at(
                file,
                line,
                format!("the old URL `{alias}` is left out: {problem}; if readers still follow it, answer it on the server"),
            )),
            None => out.push(a),
        }
    }
    out
}

/// What keeps a redirect page from answering for `path`, if anything: what the build's
/// check of `aliases:` refuses, and markup (`<`, `>`, `"`), which no URL holds unescaped.
pub fn alias_problem(path: &str) -> Option<String> {
    if let Some(c) = path
        .chars()
        .find(|c| matches!(c, '<' | '>' | '"' | '\'' | '`'))
    {
        return Some(format!("it holds `{c}`"));
    }
    crate::urls::alias_path(path).err()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_site_paths_without_the_new_url_or_what_cannot_redirect() {
        let a = [
            "posts/x",
            "/x/",
            "/posts/x/",
            "/2016/01/08/x.html",
            "/a/../../etc/",
            "/<script>alert(1)</script>/x.html",
        ];
        let mut notes = Vec::new();
        let a = a
            .iter()
            .enumerate()
            .map(|(i, a)| (a.to_string(), i + 1))
            .collect();
        assert_eq!(
            checked(a, "/x/", Path::new("p.md"), &mut notes),
            ["/posts/x/", "/2016/01/08/x.html"]
        );
        let places: Vec<&str> = notes.iter().map(|n| n.place.as_str()).collect();
        assert_eq!(places, ["p.md:5", "p.md:6"]);
        assert!(
            notes[0].text.contains("`..` names a folder"),
            "{}",
            notes[0].text
        );
        assert!(notes[1].text.contains("it holds `<`"), "{}", notes[1].text);
    }

    #[test]
    fn hugo_urlize_keeps_vietnamese_letters_and_lowercases() {
        let c = SourceConfig {
            lowercase: true,
            ..SourceConfig::default()
        };
        assert_eq!(urlize("Lập trình  Java!", &c), "lập-trình-java");
        assert_eq!(urlize("C++ / Go", &c), "c++-/-go");
        assert_eq!(urlize("AI_TTS", &c), "ai_tts");
        assert_eq!(zola_stem("2024-01-02-first"), "first");
        assert_eq!(zola_stem("2024-01-02"), "2024-01-02");
    }
}

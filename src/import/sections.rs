//! The sections' list pages (`_index.md` of Hugo and Zola, Jekyll's `index.md`): measured lists
//! articles on its home page and tag pages, so a section's list URL redirects to the home page
//! ([`super::lists`]); but the text written on them is kept. The home's text, and the text of
//! the section the home lists (Hugo's main section), become the home page's introduction
//! (`pages/index.<lang>.md`); another section's text becomes a page at the section's URL.

use serde_json::Value;

use super::source::Post;
use super::{Note, Report};
use crate::frontmatter;
use crate::lang::Lang;

/// One section's list page, read.
#[derive(Debug, Clone)]
pub struct Section {
    /// Its path under `content/` (`posts`, `posts/iot`); empty for the home.
    pub path: String,
    pub lang: Lang,
    /// The `/<lang>` of its old URL, or empty.
    pub old_prefix: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Zola's `paginate_by`.
    pub paginate: Option<usize>,
    /// Zola's `generate_feeds`.
    pub feed: bool,
    /// Zola's `render = false`: no page.
    pub render: bool,
    /// Its text (after the front matter), as written.
    pub text: String,
    pub file: std::path::PathBuf,
    pub body_line: usize,
}

/// Where a section's text goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Carried {
    /// Into the home page's introduction of its language.
    Intro,
    /// Into a page of this name.
    Page(String),
    /// Nowhere: it has none.
    Nothing,
}

/// The sections of `posts` read (their front matter's keys noted when dropped).
pub fn read(
    src: &std::path::Path,
    posts: &[Post],
    default_lang: &Lang,
    old_default: Option<&Lang>,
    report: &mut Report,
) -> Vec<Section> {
    let mut out = Vec::new();
    for post in posts {
        let file = src.join(&post.rel);
        let Ok(split) = frontmatter::split(&file, &post.text) else {
            report.notes.push(Note::file(
                &file,
                "a list page whose front matter cannot be read: skipped",
            ));
            continue;
        };
        let map = frontmatter::foreign::read(&split).unwrap_or_default();
        let text_of = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
        let used = [
            "title",
            "description",
            "paginate_by",
            "generate_feeds",
            "generate_feed",
            "render",
        ];
        for key in map.keys().filter(|k| !used.contains(&k.as_str())) {
            let line = frontmatter::key_line(&split, key).unwrap_or(split.text_line);
            report.dropped.push(Note::at(
                &file,
                line,
                format!("`{key}` dropped: measured lists articles newest first, on the home page and the tag pages"),
            ));
        }
        let lang = post
            .lang
            .clone()
            .or_else(|| old_default.cloned())
            .unwrap_or_else(|| default_lang.clone());
        out.push(Section {
            path: post.section.clone(),
            old_prefix: match (&post.lang, old_default) {
                (Some(l), Some(d)) if l != d => format!("/{}", l.code()),
                (Some(l), None) if l != default_lang => format!("/{}", l.code()),
                _ => String::new(),
            },
            lang,
            title: text_of("title"),
            description: text_of("description"),
            paginate: map
                .get("paginate_by")
                .and_then(Value::as_u64)
                .map(|n| n as usize),
            feed: [map.get("generate_feeds"), map.get("generate_feed")]
                .into_iter()
                .flatten()
                .any(|v| v == &Value::Bool(true)),
            render: map.get("render") != Some(&Value::Bool(false)),
            text: split.body.to_string(),
            file,
            body_line: split.body_line,
        });
    }
    out
}

/// Where each section's text goes: the home's and `main`'s to the introduction, another's to a
/// page named after its last folder (unless `taken`), noted in `report`.
pub fn carry(
    sections: &[Section],
    main: Option<&str>,
    taken: &dyn Fn(&str) -> bool,
    report: &mut Report,
) -> Vec<Carried> {
    sections
        .iter()
        .map(|s| {
            let has_text = !s.text.trim().is_empty();
            let list = if s.path.is_empty() {
                String::new()
            } else {
                format!(
                    "a section's list page: measured lists articles on the home page and the tag pages, so {}/{}/ redirects to the home page; ",
                    s.old_prefix, s.path
                )
            };
            let (carried, what) = if !has_text {
                (Carried::Nothing, "it has no text of its own".to_string())
            } else if s.path.is_empty() || Some(s.path.as_str()) == main {
                (
                    Carried::Intro,
                    format!(
                        "its text is the home page's introduction now (pages/index.{}.md)",
                        s.lang.code()
                    ),
                )
            } else {
                let last = s.path.rsplit('/').next().unwrap_or_default();
                let mut name = crate::urls::suggestion(last);
                if taken(&name) {
                    name = format!("{name}-section");
                }
                let what = format!("its text is the page /{name}/ now (pages/{name}/)");
                (Carried::Page(name), what)
            };
            if !list.is_empty() || carried != Carried::Nothing {
                report.notes.push(Note::file(&s.file, format!("{list}{what}")));
            }
            carried
        })
        .collect()
}

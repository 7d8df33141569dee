//! Tags that keep their identity: one written form per tag (case and spacing variants merged,
//! with a warning naming the form kept), one tag per URL (`C`, `C++` and `C#` would all be
//! `/tags/c/`: an error naming both and their files, fixed by a `[tags]` table in site.toml),
//! and no tag without a URL (`!!!`).

use std::collections::{BTreeMap, BTreeSet};

use super::Page;
use crate::config::SiteConfig;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

/// The URL segment of a tag: the `[tags]` table's (in any case and spacing), else lowercase ASCII with diacritics
/// removed (`mạng` → `mang`).
pub fn tag_slug(config: &SiteConfig, name: &str) -> String {
    let id = identity(name);
    config
        .tag_slugs
        .iter()
        .find(|(k, _)| identity(k) == id)
        .map_or_else(|| slug::slugify(name), |(_, slug)| slug.clone())
}

/// What makes two written forms one tag: case and spacing do not count.
fn identity(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Rewrites every page's tags to the first written form of each tag (in page order, newest
/// first); returns a warning for each other form, or the tags that have no URL of their own.
pub fn settle(config: &SiteConfig, pages: &mut [Page]) -> Result<Vec<Diagnostic>, Diagnostics> {
    let mut warnings = Vec::new();
    let mut kept: BTreeMap<(Lang, String), (String, usize)> = BTreeMap::new();
    for i in 0..pages.len() {
        let lang = pages[i].doc.lang.clone();
        let mut settled: Vec<String> = Vec::new();
        for name in &pages[i].doc.front.tags {
            let (form, first) = kept
                .entry((lang.clone(), identity(name)))
                .or_insert_with(|| (name.clone(), i))
                .clone();
            if form != *name {
                warnings.push(
                    Diagnostic::new(
                        place(&pages[i]),
                        format!(
                            "the tag `{name}` is written `{form}` in {}: both are the tag `{form}`",
                            pages[first].doc.path.display()
                        ),
                    )
                    .with_hint(format!("write `{form}` here too")),
                );
            }
            if !settled.contains(&form) {
                settled.push(form);
            }
        }
        pages[i].doc.front.tags = settled;
    }
    let mut diags = Diagnostics::default();
    let taken: BTreeSet<String> = kept.values().map(|(n, _)| tag_slug(config, n)).collect();
    let mut by_slug: BTreeMap<(Lang, String), (String, usize)> = BTreeMap::new();
    for ((lang, _), (name, first)) in &kept {
        let slug = tag_slug(config, name);
        let page = &pages[*first];
        if slug.is_empty() {
            diags.push(
                Diagnostic::new(
                    place(page),
                    format!("the tag `{name}` has no letter or digit to make its URL of"),
                )
                .with_hint(format!(
                    "rename the tag, or give it a slug in site.toml: [tags] {} = \"my-tag\"",
                    toml_key(name)
                )),
            );
            continue;
        }
        if slug.len() > measured_core::urls::MAX_SEGMENT {
            diags.push(
                Diagnostic::new(
                    place(page),
                    format!(
                        "the tag `{name}` makes a URL segment of {} characters, longer than a folder's name may be ({})",
                        slug.len(),
                        measured_core::urls::MAX_SEGMENT
                    ),
                )
                .with_hint(format!(
                    "shorten the tag, or give it a short slug in site.toml: [tags] {} = \"{}\"",
                    toml_key(name),
                    free_slug(name, &taken)
                )),
            );
            continue;
        }
        let url = format!("{}tags/{slug}/", config.lang_prefix(lang));
        if let Some((other, other_page)) =
            by_slug.insert((lang.clone(), slug), (name.clone(), *first))
        {
            diags.push(
                Diagnostic::new(
                    place(page),
                    format!(
                        "the tags `{other}` ({}) and `{name}` ({}) would share the URL {url}",
                        pages[other_page].doc.path.display(),
                        page.doc.path.display()
                    ),
                )
                .with_hint(format!(
                    "if they are one tag, write it the same way in both; else give `{name}` its own slug in site.toml: [tags] {} = \"{}\"",
                    toml_key(name),
                    free_slug(name, &taken)
                )),
            );
        }
    }
    diags.into_result(warnings)
}

/// A slug for tag `name` that no tag of the site has yet: its own (`C++` → `cpp`), else that
/// with a number (`mạng` beside `mang` → `mang-2`).
fn free_slug(name: &str, taken: &BTreeSet<String>) -> String {
    let base = measured_core::urls::suggestion(&name.replace('+', "p").replace('#', "sharp"));
    if !taken.contains(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|s| !taken.contains(s))
        .unwrap_or(base)
}

/// `name` as a TOML key.
fn toml_key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

fn place(p: &Page) -> Place {
    match p.doc.front.tags_line {
        Some(line) => Place::at(&p.doc.path, line, 1),
        None => Place::file(&p.doc.path),
    }
}

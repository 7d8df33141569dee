//! The old URLs of the source's lists, each redirected to where measured lists the same
//! articles: sections (`/posts/`) to the home page, taxonomy terms (`/tags/lập-trình/`,
//! `/categories/java/`) to the tag page (categories are tags in measured), each later page
//! (`/posts/page/3/`, Jekyll's `/page3/`) to the page of the same number (or the last), and
//! the old feeds (`/index.xml`, `/tags/x/index.xml`, `/feed.xml`) to the new feed, which the
//! build then serves at the old URL as well.

use std::collections::BTreeMap;

use super::Generator;
use super::sections::Section;
use super::srcconfig::SourceConfig;
use crate::lang::Lang;

/// One published article as the lists see it.
pub struct Listed {
    pub lang: Lang,
    /// The `/<lang>` of its old URLs.
    pub old_prefix: String,
    /// Its section under `content/` (Hugo, Zola).
    pub section: String,
    /// (taxonomy, term) as the source wrote them.
    pub terms: Vec<(String, String)>,
    /// Its tags in measured.
    pub tags: Vec<String>,
}

/// What the lists' old URLs are computed from.
pub struct Ctx<'a> {
    pub generator: Generator,
    pub config: &'a SourceConfig,
    /// Articles a page of measured's lists shows (none: one page).
    pub paginate: Option<usize>,
    /// A tag's URL segment in measured.
    pub tag_slug: &'a dyn Fn(&str) -> String,
    /// A language's URL prefix in measured (`/`, `/en/`).
    pub prefix: &'a dyn Fn(&Lang) -> String,
}

/// Old URL → new URL for every list of the source.
pub type Redirects = BTreeMap<String, String>;

/// The redirects of every list of the source whose articles are `listed`.
pub fn redirects(ctx: &Ctx<'_>, listed: &[Listed], sections: &[Section]) -> Redirects {
    let mut out = Redirects::new();
    let mut langs: BTreeMap<(Lang, String), Vec<&Listed>> = BTreeMap::new();
    for l in listed {
        langs
            .entry((l.lang.clone(), l.old_prefix.clone()))
            .or_default()
            .push(l);
    }
    for ((lang, old), articles) in &langs {
        let new = (ctx.prefix)(lang);
        let home_pages = pages_of(articles.len(), ctx.paginate);
        for feed in &ctx.config.feeds {
            out.insert(format!("{old}/{feed}"), format!("{new}atom.xml"));
        }
        match ctx.generator {
            Generator::Jekyll => jekyll_pages(ctx, old, &new, articles.len(), home_pages, &mut out),
            _ => {
                let paginate = ctx.config.paginate.or_else(|| home_paginate(sections));
                later_pages(
                    &format!("{old}/"),
                    &new,
                    articles.len(),
                    paginate,
                    home_pages,
                    ctx,
                    &mut out,
                );
            }
        }
        taxonomies(ctx, old, &new, lang, articles, &mut out);
        let in_lang: Vec<&Section> = sections.iter().filter(|s| &s.lang == lang).collect();
        section_lists(ctx, old, &new, articles, &in_lang, home_pages, &mut out);
    }
    out.retain(|from, to| from != to);
    out
}

/// The number of pages of a list of `n` articles, `per` a page.
fn pages_of(n: usize, per: Option<usize>) -> usize {
    match per {
        Some(p) if p > 0 => n.div_ceil(p).max(1),
        _ => 1,
    }
}

/// The home's `paginate_by` (Zola's `content/_index.md`).
fn home_paginate(sections: &[Section]) -> Option<usize> {
    sections
        .iter()
        .find(|s| s.path.is_empty())
        .and_then(|s| s.paginate)
}

/// `<old>page/1/` to the list, and `<old>page/k/` to page k of the new list `new` (of
/// `new_pages` pages), for a list of `n` articles paginated by `per`.
fn later_pages(
    old: &str,
    new: &str,
    n: usize,
    per: Option<usize>,
    new_pages: usize,
    ctx: &Ctx<'_>,
    out: &mut Redirects,
) {
    let Some(per) = per else { return };
    let folder = &ctx.config.paginate_path;
    out.insert(format!("{old}{folder}/1/"), new.to_string());
    for k in 2..=pages_of(n, Some(per)) {
        let target = match k.min(new_pages) {
            1 => new.to_string(),
            k => format!("{new}{}/{k}/", crate::site::PAGES),
        };
        out.insert(format!("{old}{folder}/{k}/"), target);
    }
}

/// jekyll-paginate's later pages of the home (`/page2/`, by `paginate_path`).
fn jekyll_pages(
    ctx: &Ctx<'_>,
    old: &str,
    new: &str,
    n: usize,
    new_pages: usize,
    out: &mut Redirects,
) {
    let Some(per) = ctx.config.paginate else {
        return;
    };
    for k in 2..=pages_of(n, Some(per)) {
        let path = ctx.config.paginate_path.replace(":num", &k.to_string());
        let target = match k.min(new_pages) {
            1 => new.to_string(),
            k => format!("{new}{}/{k}/", crate::site::PAGES),
        };
        out.insert(
            format!("{old}{}", super::old_urls::with_slashes(&path)),
            target,
        );
    }
}

/// Each taxonomy's index, and each term's list, later pages and feed.
fn taxonomies(
    ctx: &Ctx<'_>,
    old: &str,
    new: &str,
    lang: &Lang,
    articles: &[&Listed],
    out: &mut Redirects,
) {
    let mut tag_counts: BTreeMap<String, usize> = BTreeMap::new();
    for a in articles {
        for t in &a.tags {
            *tag_counts.entry((ctx.tag_slug)(t)).or_default() += 1;
        }
    }
    for tax in &ctx.config.taxonomies {
        let mut terms: BTreeMap<String, (String, usize)> = BTreeMap::new();
        for (name, term) in articles
            .iter()
            .flat_map(|a| &a.terms)
            .filter(|(t, _)| *t == tax.name)
        {
            let _ = name;
            let entry = terms
                .entry(term_path(ctx, &tax.name, term))
                .or_insert((term.clone(), 0));
            entry.1 += 1;
        }
        if terms.is_empty() {
            continue;
        }
        out.insert(format!("{old}/{}/", tax.name), format!("{new}tags/"));
        if ctx.generator == Generator::Hugo {
            out.insert(
                format!("{old}/{}/index.xml", tax.name),
                format!("{new}atom.xml"),
            );
        }
        for (path, (term, n)) in terms {
            let slug = (ctx.tag_slug)(&term);
            let to = format!("{new}tags/{slug}/");
            let from = format!("{old}{path}");
            let new_pages = pages_of(tag_counts.get(&slug).copied().unwrap_or(n), ctx.paginate);
            out.insert(from.clone(), to.clone());
            if tax.feed {
                let file = match ctx.generator {
                    Generator::Hugo => "index.xml",
                    _ => ctx.config.feeds.first().map_or("atom.xml", String::as_str),
                };
                out.insert(format!("{from}{file}"), format!("{to}atom.xml"));
            }
            later_pages(&from, &to, n, tax.paginate, new_pages, ctx, out);
        }
        let _ = lang;
    }
}

/// The old path of a taxonomy term's list: Hugo's `/tags/<urlized>/` (or its term permalink),
/// Zola's `/tags/<slug>/`.
fn term_path(ctx: &Ctx<'_>, taxonomy: &str, term: &str) -> String {
    match ctx.generator {
        Generator::Hugo => {
            let urlized = super::old_urls::urlize(term, ctx.config);
            match ctx.config.term_permalinks.get(taxonomy) {
                Some(p) => super::old_urls::with_slashes(
                    &p.replace(":slug", &urlized).replace(":title", &urlized),
                ),
                None => format!("/{taxonomy}/{urlized}/"),
            }
        }
        _ => format!("/{taxonomy}/{}/", slug::slugify(term)),
    }
}

/// Each section's list (Hugo: every top-level folder of `content/` with articles and every
/// folder with an `_index.md`; Zola: every `_index.md`), with its later pages and feed.
fn section_lists(
    ctx: &Ctx<'_>,
    old: &str,
    new: &str,
    articles: &[&Listed],
    sections: &[&Section],
    new_pages: usize,
    out: &mut Redirects,
) {
    let mut paths: BTreeMap<String, (usize, Option<usize>, bool)> = BTreeMap::new();
    if ctx.generator == Generator::Hugo {
        for a in articles {
            let top = a.section.split('/').next().unwrap_or_default();
            if !top.is_empty() {
                paths
                    .entry(top.to_string())
                    .or_insert((0, ctx.config.paginate, true));
            }
        }
    }
    for s in sections.iter().filter(|s| !s.path.is_empty() && s.render) {
        let feed = ctx.generator == Generator::Hugo || s.feed;
        let per = if ctx.generator == Generator::Hugo {
            ctx.config.paginate
        } else {
            s.paginate
        };
        paths.insert(s.path.clone(), (0, per, feed));
    }
    for (path, entry) in paths.iter_mut() {
        entry.0 = articles
            .iter()
            .filter(|a| a.section == *path || a.section.starts_with(&format!("{path}/")))
            .count();
    }
    for (path, (n, per, feed)) in paths {
        let path = if ctx.config.lowercase {
            path.to_lowercase()
        } else {
            path
        };
        let from = format!("{old}/{}/", path.replace(' ', "-"));
        out.entry(from.clone()).or_insert_with(|| new.to_string());
        if feed {
            let file = match ctx.generator {
                Generator::Hugo => "index.xml",
                _ => ctx.config.feeds.first().map_or("atom.xml", String::as_str),
            };
            out.insert(format!("{from}{file}"), format!("{new}atom.xml"));
        }
        later_pages(&from, new, n, per, new_pages, ctx, out);
    }
}

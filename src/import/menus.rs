//! The new site's menus: the source's main menu (Hugo's `[menu]`, a Zola theme's
//! `[extra]` menu, minima's `header_pages`) and the pages that put themselves in it
//! (`menu: main`), each URL made the page's new one; an entry leading to what is gone
//! (a Pagefind search page) is dropped with a note.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::items::{Item, Version};
use super::old_urls;
use super::plan::Inputs;
use super::{Note, Report};
use crate::lang::Lang;

/// Each language's menu: the source's main menu and the pages that put themselves in it
/// (`menu: main`), by weight, each URL made the page's new one.
pub(super) fn menus(
    inp: &Inputs<'_>,
    items: &[Item],
    moved: &BTreeMap<String, String>,
    gone: &BTreeMap<String, String>,
    report: &mut Report,
) -> BTreeMap<Lang, Vec<(String, String)>> {
    let by_file: BTreeMap<String, &Version> = items
        .iter()
        .flat_map(|i| &i.versions)
        .flat_map(|v| content_paths(&v.post.rel).into_iter().map(move |p| (p, v)))
        .collect();
    let mut out: BTreeMap<Lang, Vec<(i64, String, String)>> = BTreeMap::new();
    for sl in &inp.source.languages {
        let lang = sl.lang.clone().unwrap_or_else(|| inp.default_lang.clone());
        for e in &sl.menu {
            let file = PathBuf::from(
                e.place
                    .place
                    .rsplit_once(':')
                    .map_or(e.place.place.as_str(), |(f, _)| f),
            );
            let line: usize = e
                .place
                .place
                .rsplit_once(':')
                .and_then(|(_, l)| l.parse().ok())
                .unwrap_or(1);
            let target = if e.page_ref {
                let key = e.url.trim_matches('/').to_string();
                by_file
                    .get(&key)
                    .map(|v| (v.new_url.clone(), v.conv.title.clone()))
            } else {
                menu_url(inp, &e.url, moved, gone).map(|u| (u, None))
            };
            match target {
                Some((url, title)) => {
                    let name = if e.name.is_empty() { title.unwrap_or_else(|| url.clone()) } else { e.name.clone() };
                    out.entry(lang.clone()).or_default().push((e.weight, name, url));
                }
                None => report.to_fix.push(Note::at(
                    &file,
                    line,
                    format!("the menu entry `{}` leads to `{}`, which the new site does not have: dropped", e.name, e.url),
                )),
            }
        }
    }
    for v in items
        .iter()
        .flat_map(|i| &i.versions)
        .filter(|v| !v.conv.draft)
    {
        if let Some((weight, name)) = &v.conv.menu {
            let name = name
                .clone()
                .or_else(|| v.conv.title.clone())
                .unwrap_or_default();
            out.entry(v.lang.clone())
                .or_default()
                .push((*weight, name, v.new_url.clone()));
        }
    }
    out.into_iter()
        .map(|(lang, mut entries)| {
            entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            entries.dedup_by(|a, b| a.2 == b.2);
            (lang, entries.into_iter().map(|(_, n, u)| (n, u)).collect())
        })
        .collect()
}

/// The paths a menu may name a content file by: Hugo's `pageRef` (`/about`, `posts/x`) and
/// Jekyll's `header_pages` (`about.md`).
pub(super) fn content_paths(rel: &Path) -> Vec<String> {
    let rel = rel.to_string_lossy().replace('\\', "/");
    let inner = rel.strip_prefix("content/").unwrap_or(&rel).to_string();
    let no_ext = inner
        .rsplit_once('.')
        .map_or(inner.clone(), |(b, _)| b.to_string());
    let mut out = vec![rel.clone(), inner.clone(), no_ext.clone()];
    if let Some(dir) = no_ext
        .strip_suffix("/index")
        .or_else(|| no_ext.strip_suffix("/_index"))
    {
        out.push(dir.to_string());
    }
    out
}

/// A menu URL of the source as the new site's: a site path moved where its page is now, or an
/// address elsewhere; none when it led to what is gone.
fn menu_url(
    inp: &Inputs<'_>,
    url: &str,
    moved: &BTreeMap<String, String>,
    gone: &BTreeMap<String, String>,
) -> Option<String> {
    let lower = url.to_lowercase();
    let own = inp
        .source
        .base_url
        .as_deref()
        .is_some_and(|b| lower.starts_with(&b.to_lowercase()));
    if !own
        && (lower.starts_with("http://")
            || lower.starts_with("https://")
            || lower.starts_with("mailto:"))
    {
        return Some(url.to_string());
    }
    let mut path = old_urls::with_slashes(url);
    let base = &inp.source.base_path;
    if !base.is_empty() && path.starts_with(&format!("{base}/")) {
        path = path[base.len()..].to_string();
    }
    if gone.contains_key(&path) {
        return None;
    }
    Some(moved.get(&path).cloned().unwrap_or(path))
}

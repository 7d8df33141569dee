//! Tags in the new site: the URL segment of each (the root's `[tags]`, else its slug), and
//! `[tags]` entries that keep apart two tags whose URL would be the same (`C` and `C#`,
//! `mạng` and `mang`).

use std::collections::{BTreeMap, BTreeSet};

use super::items::{Item, Kind};
use super::plan::Inputs;
use super::{Note, Report};
use crate::config::SiteConfig;

/// What makes two written forms one tag in measured: case and spacing do not count.
fn identity(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `[tags]` entries that keep apart two tags whose URL would be the same (`C` and `C#`,
/// `mạng` and `mang`), and give a URL to a tag without a letter or digit.
pub(super) fn tag_slugs(
    inp: &Inputs<'_>,
    items: &[Item],
    report: &mut Report,
) -> BTreeMap<String, String> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for v in items
        .iter()
        .filter(|i| i.kind == Kind::Article)
        .flat_map(|i| &i.versions)
    {
        for t in &v.conv.tags {
            names.entry(identity(t)).or_insert_with(|| t.clone());
        }
    }
    let mut extra = BTreeMap::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for name in names.values() {
        let slug = tag_slug(inp.existing, &BTreeMap::new(), name);
        if !slug.is_empty() && used.insert(slug.clone()) {
            continue;
        }
        let base = if slug.is_empty() {
            "tag".to_string()
        } else {
            slug
        };
        let own = (2..)
            .map(|n| format!("{base}-{n}"))
            .find(|s| !used.contains(s))
            .unwrap_or_default();
        used.insert(own.clone());
        if inp.existing.is_some() {
            report.to_fix.push(Note::file(
                inp.opts.root.join("site.toml"),
                format!("the tag `{name}` would have the URL of another tag: add `{} = \"{own}\"` to [tags]", toml::Value::String(name.clone())),
            ));
        }
        extra.insert(name.clone(), own);
    }
    extra
}

/// Every article's tags in one written form each (the first met, per language): `Lập trình`
/// and `lập trình` were one tag in the source as they are in measured, which would warn at
/// each other form.
pub(super) fn one_form(items: &mut [Item]) {
    let mut forms: BTreeMap<(crate::lang::Lang, String), String> = BTreeMap::new();
    for v in items
        .iter_mut()
        .filter(|i| i.kind == Kind::Article)
        .flat_map(|i| &mut i.versions)
    {
        for t in &mut v.conv.tags {
            let form = forms
                .entry((v.lang.clone(), identity(t)))
                .or_insert_with(|| t.clone());
            t.clone_from(form);
        }
    }
}

/// A tag's URL segment in measured.
pub(super) fn tag_slug(
    existing: Option<&SiteConfig>,
    extra: &BTreeMap<String, String>,
    name: &str,
) -> String {
    if let Some(own) = extra.iter().find(|(k, _)| identity(k) == identity(name)) {
        return own.1.clone();
    }
    match existing {
        Some(c) => crate::site::tag_slug(c, name),
        None => slug::slugify(name),
    }
}

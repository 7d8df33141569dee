//! The in-memory site model: articles paired with their translations, URLs, newest-first
//! listings per language, tags, series and related articles. Pure data: no I/O, no HTML.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::SiteConfig;
use crate::content::{Content, SourceDoc};
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

mod aliases;
pub mod reserved;
mod tags;

pub use aliases::Redirect;
pub use tags::tag_slug;

/// One article in one language.
#[derive(Debug, Clone)]
pub struct Page {
    pub doc: SourceDoc,
    /// The URL segment: the front matter's `slug`, else the folder's name.
    pub slug: String,
    /// The page's path on the site: `/slug/` or `/en/slug/`.
    pub url: String,
    /// The same article in other languages (indices into `Site::pages`), in site language order.
    pub translations: Vec<usize>,
}

/// A tag in one language.
#[derive(Debug, Clone)]
pub struct Tag {
    pub name: String,
    pub slug: String,
    pub url: String,
    /// Pages with the tag, newest first.
    pub pages: Vec<usize>,
}

/// The whole site before rendering.
#[derive(Debug, Clone)]
pub struct Site {
    pub pages: Vec<Page>,
    /// Pages per language, newest first.
    pub by_lang: BTreeMap<Lang, Vec<usize>>,
    /// Tags per language, sorted by slug.
    pub tags: BTreeMap<Lang, Vec<Tag>>,
    /// Series per language: name → pages by part.
    pub series: BTreeMap<Lang, BTreeMap<String, Vec<usize>>>,
    /// Asset files per article folder (relative to the folder).
    pub assets: BTreeMap<String, Vec<PathBuf>>,
    /// What the content stage warned about.
    pub warnings: Vec<Diagnostic>,
    /// The articles' old URLs (`aliases:`), each answered by a page that redirects.
    pub redirects: Vec<Redirect>,
    /// The URLs and files of the drafts left out (a link to one says it is a draft).
    pub drafts: BTreeMap<String, PathBuf>,
    /// The URLs and files of the articles left out for their errors (a link to one says so).
    pub failed: BTreeMap<String, PathBuf>,
    /// The URLs and files of the articles a build of one article (`--only`) leaves out: a
    /// link to one is not checked.
    pub elsewhere: BTreeMap<String, PathBuf>,
    /// Errors found while assembling (two pages at one URL, a page or alias on a listing's
    /// URL): the pages at fault are left out and the build goes on, so that these are
    /// reported with every later stage's errors in one build.
    pub errors: Diagnostics,
}

/// The folder of a listing's later pages: page n of the listing at `/tags/x/` is
/// `/tags/x/page/n/` (Hugo's and Zola's shape); page 1 is the listing's own URL.
pub use reserved::PAGES;

/// Options of the assembly stage.
#[derive(Debug, Clone, Default)]
pub struct AssembleOptions {
    pub drafts: bool,
}

/// Pairs translations, gives URLs, sorts, and groups tags and series.
pub fn assemble(
    config: &SiteConfig,
    content: Content,
    opts: AssembleOptions,
) -> Result<Site, Diagnostics> {
    let Content {
        docs,
        assets,
        warnings,
    } = content;
    let (mut docs, left_out): (Vec<SourceDoc>, Vec<SourceDoc>) = docs
        .into_iter()
        .partition(|d| opts.drafts || !d.front.draft);
    let drafts = left_out
        .into_iter()
        .map(|d| {
            let slug = d.front.slug.as_deref().unwrap_or(&d.dir);
            (format!("{}{slug}/", config.lang_prefix(&d.lang)), d.path)
        })
        .collect();
    let lang_rank = |l: &Lang| config.langs().position(|x| x == l).unwrap_or(usize::MAX);
    docs.sort_by(|a, b| {
        (
            lang_rank(&a.lang),
            std::cmp::Reverse(a.front.date),
            &a.front.title,
            &a.dir,
        )
            .cmp(&(
                lang_rank(&b.lang),
                std::cmp::Reverse(b.front.date),
                &b.front.title,
                &b.dir,
            ))
    });
    let pages: Vec<Page> = docs
        .into_iter()
        .map(|doc| {
            let slug = doc.front.slug.clone().unwrap_or_else(|| doc.dir.clone());
            let url = format!("{}{}/", config.lang_prefix(&doc.lang), slug);
            Page {
                doc,
                slug,
                url,
                translations: Vec::new(),
            }
        })
        .collect();
    let reserved = reserved::Reserved::of(config);
    let mut errors = Diagnostics::default();
    let at_fault = check_urls(&pages, &reserved, &mut errors);
    let mut pages: Vec<Page> = pages
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !at_fault.contains(i))
        .map(|(_, p)| p)
        .collect();
    pair_translations(&mut pages, &lang_rank);
    let redirects = aliases::redirects(&pages, &reserved).unwrap_or_else(|d| {
        errors.extend(d);
        Vec::new()
    });
    let mut warnings = warnings;
    let mut diags = Diagnostics::default();
    match tags::settle(config, &mut pages) {
        Ok(w) => warnings.extend(w),
        Err(d) => diags.extend(d),
    }
    if !diags.is_empty() {
        diags.extend(errors);
        return Err(diags);
    }
    let mut by_lang: BTreeMap<Lang, Vec<usize>> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        by_lang.entry(p.doc.lang.clone()).or_default().push(i);
    }
    let tags = group_tags(config, &pages);
    let series = group_series(&pages);
    Ok(Site {
        pages,
        by_lang,
        tags,
        series,
        assets: assets.into_iter().collect(),
        warnings,
        redirects,
        drafts,
        failed: BTreeMap::new(),
        elsewhere: BTreeMap::new(),
        errors,
    })
}

/// Each page's translations: the pages of its folder in other languages, in the site's order.
fn pair_translations(pages: &mut [Page], lang_rank: &dyn Fn(&Lang) -> usize) {
    let mut by_dir: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        by_dir.entry(p.doc.dir.clone()).or_default().push(i);
    }
    for group in by_dir.values() {
        for &i in group {
            let mut others: Vec<usize> = group.iter().copied().filter(|&j| j != i).collect();
            others.sort_by_key(|&j| lang_rank(&pages[j].doc.lang));
            pages[i].translations = others;
        }
    }
}

/// Two pages with one URL, or a page shadowing a generated listing, is an error naming both,
/// added to `diags`; returns the pages at fault (the later of two), which the site leaves out.
fn check_urls(
    pages: &[Page],
    reserved: &reserved::Reserved,
    diags: &mut Diagnostics,
) -> std::collections::BTreeSet<usize> {
    let mut at_fault = std::collections::BTreeSet::new();
    let mut seen: BTreeMap<&str, &Page> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        if p.doc.front.slug.is_none() {
            if let Some(problem) = measured_core::urls::segment_problem(&p.doc.dir) {
                diags.push(folder_name_error(p, &problem));
                at_fault.insert(i);
                continue;
            }
        }
        if let Some(what) = reserved.taken(&p.url) {
            diags.push(
                Diagnostic::new(
                    slug_place(p),
                    format!("the page's URL {} is taken by {what}", p.url),
                )
                .with_hint("choose another folder name, or set `slug:` in the front matter"),
            );
            at_fault.insert(i);
            continue;
        }
        if let Some(other) = seen.insert(&p.url, p) {
            diags.push(
                Diagnostic::new(
                    slug_place(p),
                    format!(
                        "two pages claim the URL {}: {} and {}",
                        p.url,
                        other.doc.path.display(),
                        p.doc.path.display()
                    ),
                )
                .with_hint("change the `slug:` of one of them"),
            );
            seen.insert(&other.url, other);
            at_fault.insert(i);
        }
    }
    at_fault
}

/// A warning when the site publishes no article while drafts are left out: a build of a blog
/// whose posts are all drafts (imported from a site built with `hugo -D`) would deploy an
/// empty site without a word.
pub fn drafts_warning(config: &SiteConfig, site: &Site) -> Option<Diagnostic> {
    if !site.pages.is_empty() || site.drafts.is_empty() {
        return None;
    }
    let articles: std::collections::BTreeSet<&std::path::Path> =
        site.drafts.values().filter_map(|p| p.parent()).collect();
    let n = articles.len();
    Some(
        Diagnostic::new(
            Place::file(config.root.join("content")),
            format!(
                "no article is published: {} {n} {} `draft: true`, which a build leaves out",
                if n == 1 { "the" } else { "all" },
                if n == 1 { "article has" } else { "articles have" },
            ),
        )
        .with_hint(
            "preview them with --drafts (`measured build --drafts`, `measured serve --drafts`); to publish them, remove `draft: true` (an imported blog: import again with --drafts-as-published)",
        ),
    )
}

/// A page whose folder in the output is a file the site also writes (a theme file such as
/// `style.css`, a feed, the sitemap) is an error naming the article, not the staging folder.
pub fn check_output_paths(
    site: &Site,
    output: &measured_core::output::Output,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for p in &site.pages {
        let folder = p.url.trim_matches('/');
        if output.contains(folder) {
            diags.push(
                Diagnostic::new(
                    slug_place(p),
                    format!(
                        "the page's URL {} needs a folder where the site writes the file {folder}",
                        p.url
                    ),
                )
                .with_hint(
                    "choose another folder name, or set another `slug:` in the front matter",
                ),
            );
        }
    }
    diags.into_result(())
}

/// Where a page's URL segment comes from: the `slug:` line, else the file.
fn slug_place(p: &Page) -> Place {
    match p.doc.front.slug_line {
        Some(line) => Place::at(&p.doc.path, line, 1),
        None => Place::file(&p.doc.path),
    }
}

fn folder_name_error(p: &Page, problem: &str) -> Diagnostic {
    let dir = &p.doc.dir;
    let suggestion = measured_core::urls::suggestion(dir);
    Diagnostic::new(
        Place::file(&p.doc.path),
        format!("the folder name `{dir}` cannot be a URL segment: {problem}"),
    )
    .with_hint(format!(
        "rename the folder to content/{suggestion}/, or set `slug: {suggestion}` in the front \
         matter; a URL segment holds {}",
        measured_core::urls::ALLOWED
    ))
}

fn group_tags(config: &SiteConfig, pages: &[Page]) -> BTreeMap<Lang, Vec<Tag>> {
    let mut tags: BTreeMap<Lang, BTreeMap<String, Tag>> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        for name in &p.doc.front.tags {
            let slug = tag_slug(config, name);
            let url = format!("{}tags/{slug}/", config.lang_prefix(&p.doc.lang));
            let tag = tags
                .entry(p.doc.lang.clone())
                .or_default()
                .entry(slug.clone())
                .or_insert_with(|| Tag {
                    name: name.clone(),
                    slug,
                    url,
                    pages: Vec::new(),
                });
            if !tag.pages.contains(&i) {
                tag.pages.push(i);
            }
        }
    }
    tags.into_iter()
        .map(|(l, m)| (l, m.into_values().collect()))
        .collect()
}

fn group_series(pages: &[Page]) -> BTreeMap<Lang, BTreeMap<String, Vec<usize>>> {
    let mut series: BTreeMap<Lang, BTreeMap<String, Vec<usize>>> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        if let Some(name) = &p.doc.front.series {
            series
                .entry(p.doc.lang.clone())
                .or_default()
                .entry(name.clone())
                .or_default()
                .push(i);
        }
    }
    for by_name in series.values_mut() {
        for list in by_name.values_mut() {
            list.sort_by_key(|&i| {
                (
                    pages[i].doc.front.part.unwrap_or(u32::MAX),
                    pages[i].doc.front.date,
                )
            });
        }
    }
    series
}

impl Site {
    /// Each article's pages: its page in the first of its languages (in the site's order), then
    /// its translations.
    pub fn articles(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        (0..self.pages.len())
            .filter(|&i| self.pages[i].translations.iter().all(|&j| j > i))
            .map(|i| {
                std::iter::once(i)
                    .chain(self.pages[i].translations.iter().copied())
                    .collect()
            })
    }

    /// The parts of `page`'s series, in order.
    pub fn series_of(&self, page: usize) -> Option<(&str, &[usize])> {
        let p = &self.pages[page];
        let name = p.doc.front.series.as_deref()?;
        let list = self.series.get(&p.doc.lang)?.get(name)?;
        Some((name, list))
    }

    /// Up to `max` related pages in the same language: the same series first (nearest parts),
    /// then the most shared tags, newest first.
    pub fn related(&self, page: usize, max: usize) -> Vec<usize> {
        self.related_with(&TagIndex::of(self), page, max)
    }

    /// [`Site::related`] of every page, on all cores, through one index of tags: each page
    /// counts only the pages that share a tag with it, not every page of its language.
    pub fn all_related(&self, max: usize) -> Vec<Vec<usize>> {
        use rayon::prelude::*;
        let index = TagIndex::of(self);
        (0..self.pages.len())
            .into_par_iter()
            .map(|i| self.related_with(&index, i, max))
            .collect()
    }

    fn related_with<'s>(&'s self, index: &TagIndex<'s>, page: usize, max: usize) -> Vec<usize> {
        let p = &self.pages[page];
        let mut out: Vec<usize> = Vec::new();
        if let Some((_, parts)) = self.series_of(page) {
            let pos = parts.iter().position(|&i| i == page).unwrap_or(0);
            let mut near: Vec<usize> = parts.iter().copied().filter(|&i| i != page).collect();
            near.sort_by_key(|&i| {
                let ip = parts.iter().position(|&x| x == i).unwrap_or(0);
                (ip.abs_diff(pos), ip < pos)
            });
            out.extend(near);
        }
        let need = max.saturating_sub(out.len());
        let mut tags: Vec<&String> = p.doc.front.tags.iter().collect();
        tags.sort();
        tags.dedup();
        // Each tag's pages are newest first: merged by rank, every page comes up once, with
        // the number of the page's tags it shares. Per count, only the first `need` (the
        // newest) can be chosen.
        let mut lists: Vec<&[usize]> = tags
            .iter()
            .map(|t| index.pages(&p.doc.lang, t))
            .filter(|l| !l.is_empty())
            .collect();
        let mut levels: Vec<Vec<usize>> = vec![Vec::new(); lists.len() + 1];
        while !lists.is_empty() && need > 0 {
            // A page not seen yet is in the lists left at most: once `need` pages share that
            // many tags, none can come before them.
            if levels[lists.len()..].iter().map(Vec::len).sum::<usize>() >= need {
                break;
            }
            let next = lists
                .iter()
                .map(|l| l[0])
                .min_by_key(|&i| index.rank[i])
                .unwrap_or_default();
            let mut count = 0;
            for list in &mut lists {
                if list[0] == next {
                    count += 1;
                    *list = &list[1..];
                }
            }
            lists.retain(|l| !l.is_empty());
            if next != page && !out.contains(&next) && levels[count].len() < need {
                levels[count].push(next);
            }
        }
        // Most shared tags first, then newest first (the order of `by_lang`).
        out.extend(levels.into_iter().rev().flatten().take(need));
        out.truncate(max);
        out
    }

    /// The translation of `page` in `lang`, if there is one.
    pub fn translation(&self, page: usize, lang: &Lang) -> Option<usize> {
        self.pages[page]
            .translations
            .iter()
            .copied()
            .find(|&i| &self.pages[i].doc.lang == lang)
    }

    /// Articles whose folder has no page in `lang`, newest first (for "only in …" markers).
    pub fn untranslated_into(&self, lang: &Lang) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let mut seen_dirs = std::collections::BTreeSet::new();
        for (i, p) in self.pages.iter().enumerate() {
            if &p.doc.lang == lang || !seen_dirs.insert(p.doc.dir.clone()) {
                continue;
            }
            let has = p.doc.lang == *lang
                || p.translations
                    .iter()
                    .any(|&j| &self.pages[j].doc.lang == lang);
            if !has {
                out.push(i);
            }
        }
        out.sort_by_key(|&i| std::cmp::Reverse(self.pages[i].doc.front.date));
        out
    }
}

/// The pages of each tag, per language, and each page's rank in its language (newest first).
struct TagIndex<'a> {
    pages: std::collections::HashMap<(&'a Lang, &'a str), Vec<usize>>,
    rank: Vec<usize>,
}

impl<'a> TagIndex<'a> {
    fn of(site: &'a Site) -> TagIndex<'a> {
        let mut pages: std::collections::HashMap<(&Lang, &str), Vec<usize>> = Default::default();
        let mut rank = vec![0; site.pages.len()];
        for (lang, list) in &site.by_lang {
            for (r, &i) in list.iter().enumerate() {
                rank[i] = r;
                let mut tags: Vec<&String> = site.pages[i].doc.front.tags.iter().collect();
                tags.sort();
                tags.dedup();
                for tag in tags {
                    pages.entry((lang, tag.as_str())).or_default().push(i);
                }
            }
        }
        TagIndex { pages, rank }
    }

    fn pages(&self, lang: &'a Lang, tag: &'a str) -> &[usize] {
        self.pages.get(&(lang, tag)).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::parse_doc;
    use std::path::Path;

    fn config() -> SiteConfig {
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        crate::config::parse(Path::new("/s"), Path::new("/s/site.toml"), text).unwrap()
    }

    fn doc(dir: &str, lang: &str, front: &str) -> SourceDoc {
        let path = format!("content/{dir}/index.{lang}.md");
        parse_doc(
            Path::new(&path),
            dir.into(),
            Lang::parse(lang).unwrap(),
            &format!("---\n{front}\n---\nBody\n"),
        )
        .unwrap()
    }

    #[test]
    fn pairs_translations_and_gives_urls() {
        let c = config();
        let content = Content {
            docs: vec![
                doc("tcp", "vi", "title: T\ndate: 2026-01-02"),
                doc("tcp", "en", "title: T\ndate: 2026-01-02\nslug: tcp-en"),
                doc("dns", "vi", "title: D\ndate: 2026-01-05"),
            ],
            assets: vec![],
            ..Default::default()
        };
        let site = assemble(&c, content, AssembleOptions::default()).unwrap();
        let urls: Vec<&str> = site.pages.iter().map(|p| p.url.as_str()).collect();
        assert_eq!(urls, ["/dns/", "/tcp/", "/en/tcp-en/"]);
        assert_eq!(site.pages[1].translations, [2]);
        let en = c.lang("en").unwrap().clone();
        assert_eq!(site.untranslated_into(&en), [0]);
    }

    #[test]
    fn duplicate_urls_name_both_files() {
        let content = Content {
            docs: vec![
                doc("a", "vi", "title: A\ndate: 2026-01-02\nslug: same"),
                doc("b", "vi", "title: B\ndate: 2026-01-03\nslug: same"),
            ],
            assets: vec![],
            ..Default::default()
        };
        let site = assemble(&config(), content, AssembleOptions::default()).unwrap();
        let e = site.errors.clone().into_result(()).unwrap_err().to_string();
        assert!(e.contains("two pages claim the URL /same/"), "{e}");
        assert!(
            e.contains("content/a/index.vi.md") && e.contains("content/b/index.vi.md"),
            "{e}"
        );
        // The build goes on without the later claimant, to report its other errors too.
        let left: Vec<&str> = site.pages.iter().map(|p| p.doc.dir.as_str()).collect();
        assert_eq!(left, ["b"]);
    }

    #[test]
    fn drafts_are_left_out_unless_asked() {
        let content = Content {
            docs: vec![doc("a", "vi", "title: A\ndate: 2026-01-02\ndraft: true")],
            assets: vec![],
            ..Default::default()
        };
        assert!(
            assemble(&config(), content.clone(), AssembleOptions::default())
                .unwrap()
                .pages
                .is_empty()
        );
        assert_eq!(
            assemble(&config(), content, AssembleOptions { drafts: true })
                .unwrap()
                .pages
                .len(),
            1
        );
    }

    #[test]
    fn tags_are_slugged_without_diacritics_and_related_prefers_series() {
        let content = Content {
            docs: vec![
                doc(
                    "p1",
                    "vi",
                    "title: P1\ndate: 2026-01-01\nseries: S\npart: 1\ntags: [mạng]",
                ),
                doc(
                    "p2",
                    "vi",
                    "title: P2\ndate: 2026-01-02\nseries: S\npart: 2\ntags: [khác]",
                ),
                doc("x", "vi", "title: X\ndate: 2026-01-03\ntags: [mạng]"),
                doc("y", "vi", "title: Y\ndate: 2026-01-04\ntags: [khác]"),
            ],
            assets: vec![],
            ..Default::default()
        };
        let site = assemble(&config(), content, AssembleOptions::default()).unwrap();
        let vi = config().default_lang;
        let mang = site.tags[&vi].iter().find(|t| t.name == "mạng").unwrap();
        assert_eq!(
            (mang.slug.as_str(), mang.url.as_str()),
            ("mang", "/tags/mang/")
        );
        let p1 = site.pages.iter().position(|p| p.doc.dir == "p1").unwrap();
        let related: Vec<&str> = site
            .related(p1, 6)
            .iter()
            .map(|&i| site.pages[i].doc.dir.as_str())
            .collect();
        assert_eq!(related, ["p2", "x"]);
    }

    #[test]
    fn related_through_the_tag_index_ranks_by_shared_tags_then_date() {
        let tags = ["a", "b", "c", "d"];
        let docs = (0..40)
            .map(|k| {
                let lang = if k % 3 == 0 { "en" } else { "vi" };
                let mine: Vec<&str> = tags
                    .iter()
                    .enumerate()
                    .filter(|(t, _)| (k * 7 + t * 3) % 5 < 2)
                    .map(|(_, t)| *t)
                    .collect();
                doc(
                    &format!("p{k:02}"),
                    lang,
                    &format!(
                        "title: P{k}\ndate: 2026-01-{:02}\ntags: [{}]",
                        1 + k % 28,
                        mine.join(", ")
                    ),
                )
            })
            .collect();
        let site = assemble(
            &config(),
            Content {
                docs,
                assets: vec![],
                ..Default::default()
            },
            AssembleOptions::default(),
        )
        .unwrap();
        // The definition, page against page: shared tags, then newest first.
        let expected = |page: usize| -> Vec<usize> {
            let p = &site.pages[page];
            let mut scored: Vec<(usize, usize)> = site.by_lang[&p.doc.lang]
                .iter()
                .enumerate()
                .filter(|&(_, &i)| i != page)
                .map(|(rank, &i)| {
                    let shared = site.pages[i]
                        .doc
                        .front
                        .tags
                        .iter()
                        .filter(|t| p.doc.front.tags.contains(t))
                        .count();
                    (shared, rank)
                })
                .filter(|&(shared, _)| shared > 0)
                .collect();
            scored.sort_by_key(|&(shared, rank)| (std::cmp::Reverse(shared), rank));
            scored
                .into_iter()
                .take(6)
                .map(|(_, rank)| site.by_lang[&p.doc.lang][rank])
                .collect()
        };
        let all = site.all_related(6);
        assert!(
            all.iter().any(|r| r.len() == 6),
            "some pages have many related"
        );
        for (page, related) in all.iter().enumerate() {
            assert_eq!(related, &expected(page), "page {page}");
        }
    }
}

//! Every file an import writes, planned from what was found: articles with their bundles,
//! pages, the home page's introduction, static files, and `site.toml` with the old lists'
//! redirects; nothing is written here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::items::{self, Item, Kind, Version};
use super::old_urls::Rules;
use super::sections::{Carried, Section};
use super::source::{self, Found};
use super::srcconfig::SourceConfig;
use super::{Generator, ImportOptions, Note, Planned, Report};
use super::{
    body, drafts, front, links, lists, menus, old_urls, sections, site_toml, statics, tags,
};
use crate::config::SiteConfig;
use crate::diag::Diagnostics;
use crate::lang::Lang;

/// What planning reads besides what was found.
pub struct Inputs<'a> {
    pub opts: &'a ImportOptions,
    pub source: &'a SourceConfig,
    /// The root's `site.toml`, when it has one.
    pub existing: Option<&'a SiteConfig>,
    pub default_lang: &'a Lang,
}

impl Inputs<'_> {
    /// A language's URL prefix in measured (`/`, `/en/`).
    fn prefix(&self, lang: &Lang) -> String {
        if lang == self.default_lang {
            "/".into()
        } else {
            format!("/{}/", lang.code())
        }
    }
}

/// Every file to write for `found`.
pub fn plan(
    inp: &Inputs<'_>,
    found: Found,
    report: &mut Report,
) -> Result<Vec<Planned>, Diagnostics> {
    let rules = Rules {
        generator: inp.opts.generator,
        config: inp.source,
        default: inp.default_lang,
    };
    let langs = languages(inp, &found);
    let reserved = reserved_names(inp, &langs);
    let section_posts = found.sections;
    let loose = found.section_files;
    let groups = source::group(found.posts, found.lang.as_ref(), inp.default_lang);
    let ctx = items::Ctx {
        opts: inp.opts,
        rules: &rules,
        default_lang: inp.default_lang,
        reserved: &reserved,
    };
    let (mut items, left) = items::sort(&ctx, groups, report)?;
    tags::one_form(&mut items);
    let mut statics = statics::collect(
        inp.opts.generator,
        &inp.opts.src,
        inp.source,
        &mut report.notes,
    )?;
    statics::add_section_files(&inp.opts.src, &loose, &mut statics)?;
    let sections = sections::read(
        &inp.opts.src,
        &section_posts,
        inp.default_lang,
        inp.source.default_lang.as_ref(),
        report,
    );
    let taken =
        |name: &str| items.iter().any(|i| i.name == name) || reserved.iter().any(|r| r == name);
    let carried = sections::carry(
        &sections,
        main_section(inp, &items).as_deref(),
        &taken,
        report,
    );
    let tags = tags::tag_slugs(inp, &items, report);
    let tag_slug = |name: &str| tags::tag_slug(inp.existing, &tags, name);
    let prefix = |lang: &Lang| inp.prefix(lang);
    let paginate = paginate(inp, &sections);
    let lists_ctx = lists::Ctx {
        generator: inp.opts.generator,
        config: inp.source,
        paginate,
        tag_slug: &tag_slug,
        prefix: &prefix,
    };
    let mut redirects = lists::redirects(&lists_ctx, &listed(&rules, &items, false), &sections);
    // Where links and menus to the lists lead, drafts' lists included (built with --drafts).
    let all_lists = lists::redirects(&lists_ctx, &listed(&rules, &items, true), &sections);
    for (from, lang) in &left.to_home {
        redirects.insert(from.clone(), inp.prefix(lang));
    }
    add_page_redirects(inp, &rules, &items, &sections, &carried, &mut redirects);
    settle_redirects(&items, &statics.paths, &mut redirects);
    let mut moved = moved(inp, &rules, &items, &redirects);
    for (from, to) in all_lists {
        moved.entry(from).or_insert(to);
    }
    let content = content_urls(&items);
    let links = Links {
        moved: &moved,
        statics: &statics.paths,
        content: &content,
    };
    let mut files = statics.files;
    report.images += files.len();
    for item in &items {
        files.extend(item_files(inp, &rules, item, &links, report)?);
    }
    files.extend(section_files(&sections, &carried, &links, inp, report));
    report.redirects = redirects.len();
    let menus = menus::menus(inp, &items, &moved, &left.gone, report);
    files.extend(site_toml::plan(
        inp, &langs, &menus, &tags, &redirects, paginate, report,
    )?);
    drafts_summary(inp, &items, report);
    // Two articles may show one static image.
    files.sort_by(|a, b| a.dest.cmp(&b.dest));
    files.dedup_by(|a, b| a.dest == b.dest && a.bytes == b.bytes);
    Ok(files)
}

/// The languages of the new site, the default one first: the root's, or the source's and
/// those its files are written in.
fn languages(inp: &Inputs<'_>, found: &Found) -> Vec<Lang> {
    if let Some(c) = inp.existing {
        return c.langs().cloned().collect();
    }
    let mut langs = vec![inp.default_lang.clone()];
    let named = inp.source.languages.iter().filter_map(|l| l.lang.clone());
    let files = found
        .posts
        .iter()
        .chain(&found.sections)
        .filter_map(|p| p.lang.clone());
    for lang in named.chain(files) {
        if !langs.contains(&lang) {
            langs.push(lang);
        }
    }
    langs
}

/// Folder names measured writes its own pages at: a page cannot take them.
fn reserved_names(inp: &Inputs<'_>, langs: &[Lang]) -> Vec<String> {
    let mut names: Vec<String> = [
        "tags",
        crate::site::PAGES,
        "experiments",
        crate::search::DIR,
        "index",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.extend(
        langs
            .iter()
            .filter(|l| *l != inp.default_lang)
            .map(|l| l.code().to_string()),
    );
    names
}

/// The section the source's home page listed: Hugo's `mainSections`, else the one with the
/// most articles.
fn main_section(inp: &Inputs<'_>, items: &[Item]) -> Option<String> {
    if let Some(s) = inp.source.main_sections.first() {
        return Some(s.clone());
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for item in items.iter().filter(|i| i.kind == Kind::Article) {
        let top = item.versions[0]
            .post
            .section
            .split('/')
            .next()
            .unwrap_or_default();
        *counts.entry(top.to_string()).or_default() += 1;
    }
    counts.into_iter().max_by_key(|(_, n)| *n).map(|(s, _)| s)
}

/// Articles a page of measured's lists shows: the root's `paginate`, else the source's.
fn paginate(inp: &Inputs<'_>, sections: &[Section]) -> Option<usize> {
    match inp.existing {
        Some(c) => c.paginate.map(|p| p.get()),
        None => inp
            .source
            .paginate
            .or_else(|| {
                sections
                    .iter()
                    .find(|s| s.path.is_empty())
                    .and_then(|s| s.paginate)
            })
            .or(Some(crate::config::DEFAULT_PAGINATE)),
    }
}

/// Every published article version (with `drafts`, every one) as the lists see it.
fn listed(rules: &Rules<'_>, items: &[Item], drafts: bool) -> Vec<lists::Listed> {
    items
        .iter()
        .filter(|i| i.kind == Kind::Article)
        .flat_map(|i| &i.versions)
        .filter(|v| drafts || !v.conv.draft)
        .map(|v| {
            let mut terms: Vec<(String, String)> = v
                .conv
                .own_tags
                .iter()
                .map(|t| ("tags".to_string(), t.clone()))
                .collect();
            terms.extend(
                v.conv
                    .categories
                    .iter()
                    .map(|c| ("categories".to_string(), c.clone())),
            );
            lists::Listed {
                lang: v.lang.clone(),
                old_prefix: rules.prefix(&v.post).trim_end_matches('/').to_string(),
                section: v.post.section.clone(),
                terms,
                tags: v.conv.tags.clone(),
            }
        })
        .collect()
}

/// The old URLs of pages (which have no `aliases:`) and of the sections whose text is a page
/// now, as redirects.
fn add_page_redirects(
    inp: &Inputs<'_>,
    rules: &Rules<'_>,
    items: &[Item],
    sections: &[Section],
    carried: &[Carried],
    redirects: &mut BTreeMap<String, String>,
) {
    // A draft's old URLs lead nowhere until it is published.
    for v in items
        .iter()
        .filter(|i| i.kind == Kind::Page)
        .flat_map(|i| &i.versions)
        .filter(|v| !v.conv.draft)
    {
        for alias in &v.aliases {
            redirects.insert(alias.clone(), v.new_url.clone());
        }
    }
    for (s, c) in sections.iter().zip(carried) {
        if let Carried::Page(name) = c {
            let old = format!("{}/{}/", s.old_prefix, s.path);
            redirects.insert(old, format!("{}{name}/", inp.prefix(&s.lang)));
        }
    }
    for item in items {
        for v in item.versions.iter().filter(|v| !v.conv.draft) {
            let top = v.post.section.split('/').next().unwrap_or_default();
            let old = format!("{}/{top}/", rules.prefix(&v.post));
            // Hugo lists the pages of a section of pages (`content/pages/`) too.
            if item.kind == Kind::Page && !top.is_empty() && inp.opts.generator == Generator::Hugo {
                redirects
                    .entry(old.clone())
                    .or_insert_with(|| inp.prefix(&v.lang));
                redirects
                    .entry(format!("{old}index.xml"))
                    .or_insert_with(|| format!("{}atom.xml", inp.prefix(&v.lang)));
            }
            // A bundle's files, served beside the page at its old URL too.
            for dir in v.aliases.iter().filter(|a| a.ends_with('/')) {
                for f in &item.bundle_files {
                    let f = f.to_string_lossy().replace('\\', "/");
                    redirects.insert(format!("{dir}{f}"), format!("{}{f}", v.new_url));
                }
            }
        }
    }
}

/// `redirects` without those whose old URL is a page or file of the new site, or an
/// article's alias (which answers already).
fn settle_redirects(
    items: &[Item],
    statics: &BTreeSet<String>,
    redirects: &mut BTreeMap<String, String>,
) {
    let taken: BTreeSet<&str> = items
        .iter()
        .flat_map(|i| i.versions.iter().map(move |v| (i.kind, v)))
        .flat_map(|(kind, v)| {
            // An article's aliases answer in its front matter; a page's are redirects here.
            let aliases = if !v.conv.draft && kind == Kind::Article {
                v.aliases.as_slice()
            } else {
                &[]
            };
            std::iter::once(v.new_url.as_str()).chain(aliases.iter().map(String::as_str))
        })
        .collect();
    redirects
        .retain(|from, to| from != to && !taken.contains(from.as_str()) && !statics.contains(from));
}

/// Old site path → new one: every article's and page's old URLs, the lists' redirects, and
/// each section of articles (drafts too: a menu may name it) to the home page.
fn moved(
    inp: &Inputs<'_>,
    rules: &Rules<'_>,
    items: &[Item],
    redirects: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut moved = redirects.clone();
    for item in items {
        for v in &item.versions {
            for a in &v.aliases {
                moved.insert(a.clone(), v.new_url.clone());
            }
            let top = v.post.section.split('/').next().unwrap_or_default();
            if item.kind == Kind::Article && !top.is_empty() {
                let section = format!("{}/{top}/", rules.prefix(&v.post));
                moved.entry(section).or_insert_with(|| inp.prefix(&v.lang));
            }
        }
    }
    moved
}

/// What the links of bodies lead to in the new site.
struct Links<'a> {
    moved: &'a BTreeMap<String, String>,
    statics: &'a BTreeSet<String>,
    content: &'a BTreeMap<String, String>,
}

impl<'a> Links<'a> {
    /// `body` with the template syntax that names the site's own pages (Hugo's `ref`, Jekyll's
    /// `post_url` and `site.baseurl`) made URLs, and how many.
    fn convert(&self, inp: &Inputs<'_>, body: &str) -> (String, usize) {
        match inp.opts.generator {
            Generator::Hugo => links::refs(body, self.content),
            Generator::Jekyll => links::liquid(body, self.content),
            Generator::Zola => (body.to_string(), 0),
        }
    }

    /// The site a body's links are resolved against, with its bundle's files at their old URLs.
    fn site(&self, inp: &'a Inputs<'_>, bundle: &'a BTreeSet<String>) -> links::Site<'a> {
        links::Site {
            base_url: inp.source.base_url.as_deref(),
            base_path: &inp.source.base_path,
            moved: self.moved,
            statics: self.statics,
            bundle,
            content: self.content,
        }
    }
}

/// The new URL of every article and page by the paths the source's links name its file by
/// (Hugo's `ref`, Zola's `@/`, menus' `pageRef`); the first file wins a bare name.
fn content_urls(items: &[Item]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for v in items.iter().flat_map(|i| &i.versions) {
        for path in menus::content_paths(&v.post.rel) {
            out.insert(path, v.new_url.clone());
        }
        let name = v.post.rel.file_name().unwrap_or_default().to_string_lossy();
        out.entry(name.to_string())
            .or_insert_with(|| v.new_url.clone());
    }
    out
}

/// The files of one article or page: each version's Markdown and the bundle's other files.
fn item_files(
    inp: &Inputs<'_>,
    rules: &Rules<'_>,
    item: &Item,
    links: &Links<'_>,
    report: &mut Report,
) -> Result<Vec<Planned>, Diagnostics> {
    let (dir, bundle_dir) = match item.kind {
        Kind::Article => (
            PathBuf::from("content").join(&item.name),
            PathBuf::from("content").join(&item.name),
        ),
        Kind::Page => (
            PathBuf::from("pages").join(&item.name),
            PathBuf::from("static").join(&item.name),
        ),
    };
    let mut files = Vec::new();
    for v in &item.versions {
        let text = body_of(inp, rules, item, v, links, report);
        let front = match item.kind {
            Kind::Article => front::render(&v.conv, &v.aliases),
            Kind::Page => page_front(&v.conv, &inp.opts.src.join(&v.post.rel), report),
        };
        files.push(Planned {
            dest: dir.join(format!("index.{}.md", v.lang.code())),
            bytes: format!("{front}{text}").into_bytes(),
            from: v.post.rel.clone(),
            appends: false,
        });
    }
    let first = &item.versions[0].post;
    let bundle = first.bundle.as_ref().map(|b| inp.opts.src.join(b));
    for rel in &item.bundle_files {
        let from = bundle.as_deref().unwrap_or(&inp.opts.src).join(rel);
        let bytes = std::fs::read(&from)
            .map_err(|e| crate::diag::io_error(&from, "read the bundle's file", &e))?;
        report.images += 1;
        files.push(Planned {
            dest: bundle_dir.join(rel),
            bytes,
            from: from
                .strip_prefix(&inp.opts.src)
                .unwrap_or(&from)
                .to_path_buf(),
            appends: false,
        });
    }
    match item.kind {
        Kind::Article => {
            report.articles += 1;
            report.aliases += item.versions.iter().map(|v| v.aliases.len()).sum::<usize>();
        }
        Kind::Page => report.pages += 1,
    }
    Ok(files)
}

/// The body of version `v` as measured reads it (template syntax inert, bundle links relative,
/// links under the old base made site paths), with what is left to fix and what was dropped
/// added to the report.
fn body_of(
    inp: &Inputs<'_>,
    rules: &Rules<'_>,
    item: &Item,
    v: &Version,
    links: &Links<'_>,
    report: &mut Report,
) -> String {
    let file = inp.opts.src.join(&v.post.rel);
    let (body, refs) = links.convert(inp, &v.conv.body);
    report.links_rewritten += refs;
    let inert = body::inert(inp.opts.generator, &file, v.conv.body_line, &body);
    report.highlights += inert.highlights;
    report.to_fix.extend(inert.notes);
    let old_dirs = old_urls::old_dirs(rules, &v.post, &v.conv);
    let bundle: BTreeSet<String> = old_dirs
        .iter()
        .flat_map(|d| {
            item.bundle_files
                .iter()
                .map(move |f| format!("{d}{}", f.to_string_lossy().replace('\\', "/")))
        })
        .collect();
    let site = links.site(inp, &bundle);
    let (text, rewritten) = links::rewrite(
        &inert.text,
        &site,
        &file,
        v.conv.body_line,
        &mut report.to_fix,
    );
    let (text, bundled) = body::rewrite_links(&text, &old_dirs, &item.bundle_files);
    report.links_rewritten += rewritten + bundled;
    report.to_fix.extend(v.conv.to_fix.iter().cloned());
    report
        .to_fix
        .extend(old_urls::permalink_note(rules, &file, &v.post, &v.conv));
    report.dropped.extend(v.conv.dropped.iter().cloned());
    text
}

/// A page's front matter: `title`, `description`, `draft` (what `pages/` reads).
fn page_front(conv: &front::Converted, file: &Path, report: &mut Report) -> String {
    let mut entries: Vec<(&str, Value)> = Vec::new();
    let title = conv.title.clone().unwrap_or_else(|| {
        report
            .to_fix
            .push(Note::at(file, 1, "no `title`: write one"));
        String::from("?")
    });
    entries.push(("title", Value::String(title)));
    if let Some(d) = &conv.description {
        entries.push(("description", Value::String(d.clone())));
    }
    if conv.draft {
        entries.push(("draft", Value::Bool(true)));
    }
    crate::frontmatter::foreign::write_yaml(&entries)
}

/// The home page's introductions and the pages made of sections' texts.
fn section_files(
    sections: &[Section],
    carried: &[Carried],
    links: &Links<'_>,
    inp: &Inputs<'_>,
    report: &mut Report,
) -> Vec<Planned> {
    let mut texts: BTreeMap<PathBuf, (String, Option<String>, Vec<String>, PathBuf)> =
        BTreeMap::new();
    let empty = BTreeSet::new();
    let site = links.site(inp, &empty);
    for (s, c) in sections.iter().zip(carried) {
        if *c == Carried::Nothing {
            continue;
        }
        let (body, refs) = links.convert(inp, &s.text);
        let inert = body::inert(inp.opts.generator, &s.file, s.body_line, &body);
        report.to_fix.extend(inert.notes);
        let (text, n) =
            links::rewrite(&inert.text, &site, &s.file, s.body_line, &mut report.to_fix);
        report.links_rewritten += n + refs;
        let dest = match c {
            Carried::Intro => PathBuf::from("pages").join(format!("index.{}.md", s.lang.code())),
            Carried::Page(name) => PathBuf::from("pages")
                .join(name)
                .join(format!("index.{}.md", s.lang.code())),
            Carried::Nothing => continue,
        };
        let title = s.title.clone().unwrap_or_else(|| s.path.clone());
        let entry = texts
            .entry(dest)
            .or_insert_with(|| (title, s.description.clone(), Vec::new(), s.file.clone()));
        // The home's own text first, then the main section's.
        if s.path.is_empty() {
            entry.2.insert(0, text.trim().to_string());
        } else {
            entry.2.push(text.trim().to_string());
        }
    }
    texts
        .into_iter()
        .map(|(dest, (title, description, parts, file))| {
            let mut entries = vec![("title", Value::String(title))];
            if let Some(d) = description {
                entries.push(("description", Value::String(d)));
            }
            let front = crate::frontmatter::foreign::write_yaml(&entries);
            Planned {
                dest,
                bytes: format!("{front}{}\n", parts.join("\n\n")).into_bytes(),
                from: file
                    .strip_prefix(&inp.opts.src)
                    .unwrap_or(&file)
                    .to_path_buf(),
                appends: false,
            }
        })
        .collect()
}

/// The summary's sentence on drafts: how many, and what the live site did with them.
fn drafts_summary(inp: &Inputs<'_>, items: &[Item], report: &mut Report) {
    let articles: Vec<&Version> = items
        .iter()
        .filter(|i| i.kind == Kind::Article)
        .flat_map(|i| &i.versions)
        .collect();
    let drafts = articles.iter().filter(|v| v.was_draft).count();
    let live = drafts::live_build(inp.opts.generator, &inp.opts.src, inp.source);
    report.drafts = drafts::sentence(
        inp.opts.generator,
        drafts,
        articles.len(),
        &live,
        inp.opts.drafts_as_published,
    );
    let _ = Generator::Hugo;
}

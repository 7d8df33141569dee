//! The source's posts sorted into articles (`content/`) and pages (`pages/`: About, a CV, what
//! the source published without a date or as `type: page`), each with its folder, its URL in
//! measured and its old URLs. A search page (Pagefind) and a page the old theme drew from
//! nothing (`layout: archives`) are not imported, with a note saying what became of their URL.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::front::{self, Converted};
use super::old_urls::{self, Rules};
use super::source::{Origin, Post};
use super::{Generator, ImportOptions, Note, Report};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::lang::Lang;

/// Where a source file goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Article,
    Page,
}

/// One language's version of an article or page.
pub struct Version {
    pub post: Post,
    pub conv: Converted,
    /// Its language in measured.
    pub lang: Lang,
    /// Its URL in measured.
    pub new_url: String,
    /// Its old URLs that are not the new one, checked.
    pub aliases: Vec<String>,
    /// Whether the source had it as a draft.
    pub was_draft: bool,
}

/// An article or page of the source, converted.
pub struct Item {
    pub kind: Kind,
    /// Its folder under `content/` or `pages/`.
    pub name: String,
    pub versions: Vec<Version>,
    /// The bundle's files besides its Markdown.
    pub bundle_files: Vec<PathBuf>,
}

/// What sorting needs besides the posts.
pub struct Ctx<'a> {
    pub opts: &'a ImportOptions,
    pub rules: &'a Rules<'a>,
    pub default_lang: &'a Lang,
    /// Folder names a page cannot take (`tags`, `page`, `search`, language codes).
    pub reserved: &'a [String],
}

/// What is not imported and what its old URL becomes.
#[derive(Default)]
pub struct Left {
    /// Old URLs that now lead to the home page of their language (`/archives/`).
    pub to_home: Vec<(String, Lang)>,
    /// Old URLs that no longer answer (a Pagefind search page), and why.
    pub gone: BTreeMap<String, String>,
}

/// The articles and pages of `groups`, and what was left out.
pub fn sort(
    ctx: &Ctx<'_>,
    groups: Vec<Vec<Post>>,
    report: &mut Report,
) -> Result<(Vec<Item>, Left), Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut items: Vec<Item> = Vec::new();
    let mut left = Left::default();
    let mut names: BTreeMap<(bool, String), PathBuf> = BTreeMap::new();
    for group in groups {
        if let Err(d) = one_file_a_language(ctx, &group) {
            diags.extend(d);
            continue;
        }
        let mut convs = Vec::new();
        for post in &group {
            match front::convert(ctx.opts.generator, &ctx.opts.src, post) {
                Ok(c) => convs.push(c),
                Err(d) => diags.extend(d),
            }
        }
        if convs.len() < group.len() {
            continue;
        }
        let kind = match what(ctx.opts.generator, &group[0], &convs[0]) {
            What::Article => Kind::Article,
            What::Page => Kind::Page,
            other => {
                leave(ctx, &group, &convs, other, &mut left, report);
                continue;
            }
        };
        let item = match item(ctx, kind, group, convs, report) {
            Ok(item) => item,
            Err(d) => {
                diags.extend(d);
                continue;
            }
        };
        let key = (kind == Kind::Page, item.name.clone());
        let first = item.versions[0].post.rel.clone();
        if let Some(other) = names.insert(key, first.clone()) {
            let dir = if kind == Kind::Page {
                "pages"
            } else {
                "content"
            };
            diags.push(
                Diagnostic::new(
                    Place::file(ctx.opts.src.join(&first)),
                    format!(
                        "this post and {} would both be {dir}/{}/",
                        other.display(),
                        item.name
                    ),
                )
                .with_hint("give one of them another `slug:` in SRC, or import them one at a time"),
            );
        }
        items.push(item);
    }
    diags.into_result(())?;
    separate_pages(&mut items, ctx, report);
    Ok((items, left))
}

/// An error when two files of `group` are in one language (`x.md` and `x.vi.md` on a site
/// whose default is `vi`): one would silently replace the other.
fn one_file_a_language(ctx: &Ctx<'_>, group: &[Post]) -> Result<(), Diagnostics> {
    let Some(pair) = group.windows(2).find(|p| p[0].lang == p[1].lang) else {
        return Ok(());
    };
    let lang = pair[0].lang.as_ref().unwrap_or(ctx.default_lang);
    Err(Diagnostic::new(
        Place::file(ctx.opts.src.join(&pair[1].rel)),
        format!(
            "this post and {} are both the `{}` version of one article",
            pair[0].rel.display(),
            lang.code()
        ),
    )
    .with_hint("name the translation `x.<lang>.md`, or set the site's default language (`default_language` in site.toml, Hugo's `defaultContentLanguage`)")
    .into())
}

/// What the theme of the source made of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    Article,
    Page,
    /// A search page (Pagefind, a theme's search layout).
    Search,
    /// A page whose content the old theme drew (`layout: archives` with no text).
    Drawn,
}

/// Whether `post` is an article, a page, a search page or a page drawn by the old theme.
fn what(generator: Generator, post: &Post, conv: &Converted) -> What {
    let layout = conv.layout.as_deref().unwrap_or_default().to_lowercase();
    let kind = conv.page_type.as_deref().unwrap_or_default().to_lowercase();
    let blank = conv.body.trim().is_empty();
    if layout.contains("search")
        || kind.contains("search")
        || conv.body.to_lowercase().contains("pagefind")
    {
        return What::Search;
    }
    let posts = ["post", "posts", "blog", "article", "articles", "single", ""];
    match (generator, post.origin) {
        (_, Origin::Page) if blank && !layout.is_empty() => return What::Drawn,
        (_, Origin::Page) => return What::Page,
        (Generator::Jekyll, _) => return What::Article,
        _ => {}
    }
    let laid_out = !posts.contains(&layout.as_str());
    if laid_out && blank {
        return What::Drawn;
    }
    let top = post.section.split('/').next().unwrap_or_default();
    if laid_out
        || !posts.contains(&kind.as_str())
        || post.section.is_empty()
        || matches!(top, "page" | "pages")
        || conv.date.is_none()
    {
        What::Page
    } else {
        What::Article
    }
}

/// Notes why a search page or a drawn page is not imported, and where its URL leads now.
fn leave(
    ctx: &Ctx<'_>,
    group: &[Post],
    convs: &[Converted],
    what: What,
    left: &mut Left,
    report: &mut Report,
) {
    for (post, conv) in group.iter().zip(convs) {
        let file = ctx.opts.src.join(&post.rel);
        let old = ctx.rules.old_url(post, conv).unwrap_or_default();
        let lang = post
            .lang
            .clone()
            .unwrap_or_else(|| ctx.default_lang.clone());
        let text = if what == What::Search {
            let why = format!(
                "measured has its own search on every page (press /), and writes its index at /{}/",
                crate::search::DIR
            );
            left.gone.insert(old.clone(), why.clone());
            format!(
                "a search page: not imported, since {why}; its old URL {old} no longer answers: remove links to it (a menu entry leading to it was dropped)"
            )
        } else {
            left.to_home.push((old.clone(), lang));
            format!(
                "a page the old theme drew (`layout: {}`, no text of its own): not imported; its old URL {old} redirects to the home page, which lists every article",
                conv.layout.as_deref().unwrap_or_default()
            )
        };
        report.notes.push(Note::file(&file, text));
    }
}

/// The item of `group`: its folder, URLs and old URLs.
fn item(
    ctx: &Ctx<'_>,
    kind: Kind,
    group: Vec<Post>,
    convs: Vec<Converted>,
    report: &mut Report,
) -> Result<Item, Diagnostics> {
    let lowercase = ctx.rules.config.lowercase && ctx.opts.generator == Generator::Hugo;
    let first = &group[0];
    let name = match kind {
        Kind::Article => front::folder(&ctx.opts.src, first, &convs[0], lowercase)?,
        Kind::Page => page_name(ctx, first, &convs[0], lowercase)?,
    };
    let bundle_files = first
        .bundle
        .as_ref()
        .map(|b| super::source::bundle_files(&ctx.opts.src.join(b)))
        .unwrap_or_default();
    let mut versions = Vec::new();
    for (post, mut conv) in group.into_iter().zip(convs) {
        let file = ctx.opts.src.join(&post.rel);
        let lang = post
            .lang
            .clone()
            .unwrap_or_else(|| ctx.default_lang.clone());
        let new_url = if lang == *ctx.default_lang {
            format!("/{name}/")
        } else {
            format!("/{}/{name}/", lang.code())
        };
        // Where the old URL comes from: `url:`/`permalink:`, or Jekyll's categories in it.
        let made_line = match (&conv.url, ctx.opts.generator) {
            (Some(_), _) => conv.url_line,
            (None, Generator::Jekyll) if !conv.categories.is_empty() => conv.categories_line,
            _ => 1,
        };
        let mut old: Vec<(String, usize)> = ctx
            .rules
            .old_urls(&post, &conv)
            .into_iter()
            .enumerate()
            .map(|(i, u)| {
                (
                    u,
                    if i == 0 {
                        made_line
                    } else {
                        conv.categories_line
                    },
                )
            })
            .collect();
        old.extend(conv.aliases.iter().map(|a| (a.clone(), conv.aliases_line)));
        let aliases = old_urls::checked(old, &new_url, &file, &mut report.to_fix);
        let aliases = reserved_left_out(ctx, aliases, &file, conv.aliases_line, report);
        if kind == Kind::Article && conv.date.is_none() {
            report.to_fix.push(front::no_date(&file));
        }
        if kind == Kind::Page {
            page_notes(&file, &mut conv);
        }
        let was_draft = conv.draft || post.origin == Origin::Draft;
        conv.draft = was_draft && !ctx.opts.drafts_as_published;
        versions.push(Version {
            post,
            conv,
            lang,
            new_url,
            aliases,
            was_draft,
        });
    }
    Ok(Item {
        kind,
        name,
        versions,
        bundle_files,
    })
}

/// What a page (of `pages/`) does not carry: its date and tags, and the old theme's template.
fn page_notes(file: &std::path::Path, conv: &mut Converted) {
    for note in &mut conv.dropped {
        let key = note.text.split('`').nth(1).unwrap_or_default();
        if key == "layout" || key == "type" {
            note.text = format!(
                "`{key}` dropped: the file is a page now (pages/), shown with templates/standalone.html"
            );
        }
    }
    let what = match (conv.date.take().is_some(), conv.updated.take().is_some()) {
        (true, true) => "`date` and `lastmod`",
        (true, false) => "`date`",
        (false, true) => "`lastmod`",
        (false, false) => "",
    };
    if !what.is_empty() {
        conv.dropped.push(Note::at(
            file,
            conv.date_line,
            format!("{what} dropped: a page (pages/) has no date and is in no list or feed"),
        ));
    }
    if !conv.tags.is_empty() {
        conv.tags.clear();
        conv.dropped.push(Note::at(
            file,
            conv.tags_line,
            "`tags` dropped: a page (pages/) is on no tag page; tag an article instead",
        ));
    }
}

/// `aliases` without those measured writes something at (`/tags/`, `/search/`), each noted
/// with what to do.
fn reserved_left_out(
    ctx: &Ctx<'_>,
    aliases: Vec<String>,
    file: &std::path::Path,
    line: usize,
    report: &mut Report,
) -> Vec<String> {
    aliases
        .into_iter()
        .filter(|a| {
            let first = a.trim_start_matches('/').split('/').next().unwrap_or_default();
            let taken = ctx.reserved.iter().any(|r| r == first) && a.matches('/').count() <= 2
                || first == crate::search::DIR
                || first == "experiments";
            if taken {
                report.to_fix.push(Note::at(
                    file,
                    line,
                    format!("the old URL {a} is where measured writes its own /{first}/: left out; if readers still follow it, redirect it on the server, or rename the folder in measured"),
                ));
            }
            !taken
        })
        .collect()
}

/// A page's folder: the last segment of its `url:`, else its `slug:` or name, made a valid
/// URL segment.
fn page_name(
    ctx: &Ctx<'_>,
    post: &Post,
    conv: &Converted,
    lowercase: bool,
) -> Result<String, Diagnostics> {
    let from_url = conv.url.as_deref().and_then(|u| {
        u.trim_end_matches('/')
            .rsplit('/')
            .next()
            .map(|s| s.trim_end_matches(".html").to_string())
            .filter(|s| !s.is_empty() && !s.contains(':'))
    });
    let wanted = from_url
        .or_else(|| conv.slug.clone())
        .unwrap_or_else(|| post.stem.clone());
    let wanted = if lowercase {
        wanted.to_lowercase()
    } else {
        wanted
    };
    if crate::urls::segment_problem(&wanted).is_none() {
        return Ok(wanted);
    }
    let file = ctx.opts.src.join(&post.rel);
    if wanted.contains("..") || wanted.contains('\\') {
        return Err(Diagnostic::new(
            Place::file(&file),
            format!("the page's name `{wanted}` is a path, not one URL segment: it would lead out of pages/"),
        )
        .with_hint("write a slug of letters, digits and `-`, e.g. `slug: about`")
        .into());
    }
    Ok(crate::urls::suggestion(&wanted))
}

/// A page whose folder an article has, or that measured reserves (`tags`), moved to
/// `<name>-page`, with a note.
fn separate_pages(items: &mut [Item], ctx: &Ctx<'_>, report: &mut Report) {
    let articles: Vec<String> = items
        .iter()
        .filter(|i| i.kind == Kind::Article)
        .map(|i| i.name.clone())
        .collect();
    for item in items.iter_mut().filter(|i| i.kind == Kind::Page) {
        let clash = articles.contains(&item.name) || ctx.reserved.contains(&item.name);
        if !clash {
            continue;
        }
        let renamed = format!("{}-page", item.name);
        let file = ctx.opts.src.join(&item.versions[0].post.rel);
        report.to_fix.push(Note::file(
            &file,
            format!(
                "the page would be /{}/, which measured takes for {}: it is pages/{renamed}/; rename it if you prefer",
                item.name,
                if articles.contains(&item.name) { "an article" } else { "its own pages" }
            ),
        ));
        for v in &mut item.versions {
            v.new_url = v
                .new_url
                .replacen(&format!("/{}/", item.name), &format!("/{renamed}/"), 1);
        }
        item.name = renamed;
    }
}

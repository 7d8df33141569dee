//! Rendering: a typed context per template, filled from the site model and the rendered Markdown,
//! pages rendered in parallel with rayon into an in-memory `Output` (path → bytes).

use std::collections::BTreeMap;

use rayon::prelude::*;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tera::{Context, Tera, Value};

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::i18n::Strings;
use crate::lang::Lang;
use crate::markdown::{Rendered, TocEntry};
use crate::output::Output;
use crate::site::{Page, Site};
use crate::theme::Theme;

/// The site's templates, compiled once.
pub struct Templates {
    tera: Tera,
    origins: BTreeMap<String, std::path::PathBuf>,
}

/// Compiles the theme's templates (every `.html`, `.xml` and `.txt` file).
pub fn compile(theme: &Theme) -> Result<Templates, Diagnostics> {
    let mut tera = Tera::default();
    tera.autoescape_on([".html", ".xml"]);
    let sources: Vec<(&str, &str)> = theme
        .templates
        .iter()
        .filter(|(name, _)| [".html", ".xml", ".txt"].iter().any(|s| name.ends_with(s)))
        .map(|(name, t)| (name.as_str(), t.text.as_str()))
        .collect();
    let origins = theme
        .templates
        .iter()
        .map(|(n, t)| (n.clone(), t.origin.clone()))
        .collect();
    let templates = Templates {
        tera: Tera::default(),
        origins,
    };
    match tera.add_raw_templates(sources) {
        Ok(()) => Ok(Templates { tera, ..templates }),
        Err(e) => Err(templates.diagnostic(&e).into()),
    }
}

impl Templates {
    /// A diagnostic naming the template file, its line and column.
    fn diagnostic(&self, e: &tera::Error) -> Diagnostic {
        use tera::ErrorKind;
        let report = match e.kind() {
            ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => Some(r),
            _ => None,
        };
        match report {
            Some(r) => {
                let origin = self
                    .origins
                    .get(r.filename())
                    .cloned()
                    .unwrap_or_else(|| r.filename().into());
                let span = r.span();
                let mut message = r.message().to_string();
                let mut source = std::error::Error::source(e);
                while let Some(s) = source {
                    message.push_str(&format!(": {s}"));
                    source = s.source();
                }
                let snippet = self
                    .origins
                    .get(r.filename())
                    .and_then(|p| std::fs::read_to_string(p).ok())
                    .and_then(|t| {
                        t.lines()
                            .nth(span.start_line.saturating_sub(1))
                            .map(str::to_string)
                    });
                let mut d = Diagnostic::new(
                    Place::at(origin, span.start_line, span.start_col + 1),
                    format!("template: {message}"),
                );
                d.snippet = snippet;
                d
            }
            None => {
                let mut message = e.to_string();
                let mut source = std::error::Error::source(e);
                while let Some(s) = source {
                    message.push_str(&format!(": {s}"));
                    source = s.source();
                }
                self.parse_report(&message).unwrap_or_else(|| {
                    Diagnostic::new(Place::file("templates"), format!("template: {message}"))
                })
            }
        }
    }

    /// Tera reports template checks as text (`error: …` then ` --> name:line:col`): the first
    /// report becomes a diagnostic naming the template file.
    fn parse_report(&self, report: &str) -> Option<Diagnostic> {
        let mut lines = report.lines();
        let message = lines
            .next()?
            .trim()
            .trim_start_matches("error: ")
            .to_string();
        let location = lines.find_map(|l| l.trim_start().strip_prefix("--> "))?;
        let mut parts = location.rsplitn(3, ':');
        let col: usize = parts.next()?.trim().parse().ok()?;
        let line: usize = parts.next()?.trim().parse().ok()?;
        let name = parts.next()?.trim();
        let origin = self
            .origins
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.into());
        let snippet = report.lines().find_map(|l| {
            l.trim_start()
                .strip_prefix(&format!("{line} |"))
                .map(|s| s.trim_start_matches(' ').to_string())
        });
        let mut d = Diagnostic::new(Place::at(origin, line, col), format!("template: {message}"));
        d.snippet = snippet;
        Some(d)
    }

    fn render(&self, name: &str, ctx: &Context) -> Result<String, Diagnostic> {
        self.tera.render(name, ctx).map_err(|e| self.diagnostic(&e))
    }
}

/// Pages rendered by an earlier build of the same session: output path → (hash of the
/// template's inputs, bytes). A page whose inputs hash the same is not rendered again.
pub type PageMemo = std::collections::HashMap<String, (blake3::Hash, Arc<[u8]>)>;

/// A page the experiment stage adds (an experiment's source page), rendered with `page.html`.
#[derive(Debug, Clone)]
pub struct ExtraPage {
    pub url: String,
    pub lang: Lang,
    pub title: String,
    pub description: String,
    pub body_html: String,
}

/// Everything the render stage reads.
pub struct RenderInput<'a> {
    pub config: &'a SiteConfig,
    pub site: &'a Site,
    /// The rendered Markdown of each page, by page index.
    pub bodies: &'a [Arc<Rendered>],
    pub strings: &'a BTreeMap<Lang, Strings>,
    pub templates: &'a Templates,
    pub extra_pages: &'a [ExtraPage],
    /// Per page: the experiments it uses, for its "Reproduce" section (empty when none).
    pub reproduce: &'a [Vec<Reproduce>],
    /// Per page: a notice that the original changed since this translation was made.
    pub notices: &'a [Option<String>],
    /// Per page: its related pages ([`Site::all_related`]).
    pub related: &'a [Vec<usize>],
    /// Pages of the previous build in this session, reused where their context is the same;
    /// `None` for a build that no other follows (`measured build`): no page is hashed or kept.
    pub memo: Option<&'a PageMemo>,
}

/// One experiment in an article's "Reproduce" section.
#[derive(Debug, Clone, Serialize)]
pub struct Reproduce {
    pub experiment: String,
    pub source_url: String,
    pub command: String,
    pub lock_hash: String,
    pub source_hash: String,
    pub machine: String,
    pub rustc: String,
    pub measured_at: String,
    pub quick: bool,
}

#[derive(Serialize)]
struct SiteCtx<'a> {
    title: &'a str,
    description: &'a str,
    base_url: &'a str,
    author: &'a str,
    home: String,
    tags_url: String,
    feed_url: String,
    /// Whether pages get the search box.
    search: bool,
}

#[derive(Serialize)]
struct Alternate {
    hreflang: String,
    href: String,
}

#[derive(Serialize)]
struct Switch {
    code: String,
    /// The language's name in itself ("Tiếng Việt", "English").
    name: String,
    url: String,
    current: bool,
    /// Whether `url` is this page in that language (else that language's home).
    exact: bool,
}

/// What every HTML template gets.
#[derive(Serialize)]
struct PageMeta {
    lang: String,
    title: String,
    description: String,
    url: String,
    canonical: String,
    alternates: Vec<Alternate>,
    x_default: Option<String>,
    switch: Vec<Switch>,
    og_type: &'static str,
    json_ld: Option<String>,
}

#[derive(Serialize)]
struct LinkCtx {
    title: String,
    url: String,
    description: String,
    date: String,
    date_iso: String,
    tags: Vec<TagLink>,
    /// "Vietnamese only" marker where the article has no translation in the listing's language.
    only_in: Option<String>,
    lang: String,
}

#[derive(Serialize, Clone)]
struct TagLink {
    name: String,
    url: String,
    count: usize,
}

#[derive(Serialize)]
struct SeriesPart {
    title: String,
    url: String,
    part: Option<u32>,
    current: bool,
}

#[derive(Serialize)]
struct SeriesCtx {
    name: String,
    position: String,
    parts: Vec<SeriesPart>,
    prev: Option<LinkCtx>,
    next: Option<LinkCtx>,
}

#[derive(Serialize)]
struct ArticleCtx<'a> {
    title: &'a str,
    date: String,
    date_iso: String,
    updated: Option<String>,
    updated_iso: Option<String>,
    reading_time: String,
    tags: Vec<TagLink>,
    series: Option<SeriesCtx>,
    toc: &'a [TocEntry],
    content: &'a str,
    reproduce: &'a [Reproduce],
    results_url: Option<String>,
    related: Vec<LinkCtx>,
    translation_notice: Option<String>,
}

/// Renders every page of the site; returns the output, the pages for the next build's memo
/// (none without a memo), and how many pages went through a template (not reused).
pub fn render(input: &RenderInput<'_>) -> Result<(Output, PageMemo, usize), Diagnostics> {
    let shared = Shared::new(input);
    let pages: Vec<Result<File, Diagnostic>> = (0..input.site.pages.len())
        .into_par_iter()
        .map(|i| {
            let path = path_of(&input.site.pages[i].url);
            shared.article(i, &path).map(|html| (path, html))
        })
        .collect();
    let mut diags = Diagnostics::default();
    let mut output = Output::default();
    for r in pages {
        match r {
            Ok((path, bytes)) => output.insert_shared(path, bytes),
            Err(d) => diags.push(d),
        }
    }
    let listings: Vec<Result<Files, Diagnostic>> = input
        .config
        .langs()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|lang| shared.listings(lang))
        .collect();
    for r in listings {
        match r {
            Ok(files) => files
                .into_iter()
                .for_each(|(p, b)| output.insert_shared(p, b)),
            Err(d) => diags.push(d),
        }
    }
    for extra in input.extra_pages {
        let path = path_of(&extra.url);
        match shared.extra(extra, &path) {
            Ok(html) => output.insert_shared(path, html),
            Err(d) => diags.push(d),
        }
    }
    match shared.site_files() {
        Ok(files) => files
            .into_iter()
            .for_each(|(p, b)| output.insert_shared(p, b)),
        Err(d) => diags.push(d),
    }
    let rendered = shared.rendered.into_inner();
    let memo = shared.fresh.into_inner().unwrap_or_default();
    diags.into_result((output, memo, rendered))
}

/// Renders the article pages `pages` and the feeds of `feeds` only, the files that depend on
/// an article's body (a session's rebuild after an edit that changed bodies and nothing else).
pub fn render_pages(
    input: &RenderInput<'_>,
    pages: &[usize],
    feeds: &[Lang],
) -> Result<(Files, PageMemo), Diagnostics> {
    let shared = Shared::new(input);
    let rendered: Vec<Result<File, Diagnostic>> = pages
        .par_iter()
        .map(|&i| {
            let path = path_of(&input.site.pages[i].url);
            shared.article(i, &path).map(|html| (path, html))
        })
        .chain(feeds.par_iter().map(|lang| {
            let own = input.site.by_lang.get(lang).map_or(&[][..], Vec::as_slice);
            shared
                .feed(lang, feed_pages(input.config, own))
                .map(|bytes| (feed_path(input.config, lang), bytes))
        }))
        .collect();
    let mut diags = Diagnostics::default();
    let mut files = Files::new();
    for r in rendered {
        match r {
            Ok(file) => files.push(file),
            Err(d) => diags.push(d),
        }
    }
    let memo = shared.fresh.into_inner().unwrap_or_default();
    diags.into_result((files, memo))
}

/// The articles a language's feed carries: its newest `feed_limit` (`own`: newest first).
pub fn feed_pages<'p>(config: &SiteConfig, own: &'p [usize]) -> &'p [usize] {
    &own[..own.len().min(config.feed_limit)]
}

/// The output file of a language's feed.
fn feed_path(config: &SiteConfig, lang: &Lang) -> String {
    format!(
        "{}atom.xml",
        config.lang_prefix(lang).trim_start_matches('/')
    )
}

/// An output file as (path, bytes).
type File = (String, Arc<[u8]>);

/// Output files as (path, bytes).
type Files = Vec<File>;

/// The output file of a page URL: `/a/` → `a/index.html`.
pub fn path_of(url: &str) -> String {
    let trimmed = url.trim_start_matches('/');
    if trimmed.is_empty() || trimmed.ends_with('/') {
        format!("{trimmed}index.html")
    } else {
        trimmed.to_string()
    }
}

/// Values shared by all pages of a language, converted to template values once.
struct Shared<'a> {
    input: &'a RenderInput<'a>,
    per_lang: BTreeMap<Lang, (Value, Value)>,
    /// Pages rendered (or reused) by this build, for the next one.
    fresh: Mutex<PageMemo>,
    /// How many pages went through a template.
    rendered: std::sync::atomic::AtomicUsize,
}

impl<'a> Shared<'a> {
    fn new(input: &'a RenderInput<'a>) -> Self {
        let per_lang = input
            .config
            .langs()
            .map(|lang| {
                let lc = input.config.language(lang);
                let prefix = input.config.lang_prefix(lang);
                let site = SiteCtx {
                    title: &lc.title,
                    description: &lc.description,
                    base_url: &input.config.base_url,
                    author: &input.config.author,
                    home: prefix.clone(),
                    tags_url: format!("{prefix}tags/"),
                    feed_url: format!("{prefix}atom.xml"),
                    search: input.config.search,
                };
                (
                    lang.clone(),
                    (
                        Value::from_serializable(&site),
                        Value::from_serializable(&input.strings[lang]),
                    ),
                )
            })
            .collect();
        Shared {
            input,
            per_lang,
            fresh: Mutex::new(PageMemo::new()),
            rendered: Default::default(),
        }
    }

    /// Renders `template` into `path`, or reuses the previous build's bytes when the values of
    /// `keys` in the context hash the same (`site` and `t` change only with the theme or the
    /// configuration, which empty the memo).
    fn render(
        &self,
        path: &str,
        template: &str,
        ctx: &Context,
        keys: &[&str],
    ) -> Result<Arc<[u8]>, Diagnostic> {
        let render = || -> Result<Arc<[u8]>, Diagnostic> {
            self.rendered
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(Arc::from(
                self.input.templates.render(template, ctx)?.into_bytes(),
            ))
        };
        // Hashing a context costs more than rendering it: only when a build follows.
        let Some(memo) = self.input.memo else {
            return render();
        };
        let mut hasher = blake3::Hasher::new();
        hasher.update(template.as_bytes());
        for key in keys {
            hasher.update(key.as_bytes());
            match ctx.get(key) {
                Some(value) => hash_value(&mut hasher, value),
                None => {
                    hasher.update(b"-");
                }
            }
        }
        let hash = hasher.finalize();
        let bytes = match memo.get(path) {
            Some((h, bytes)) if *h == hash => bytes.clone(),
            _ => render()?,
        };
        self.fresh
            .lock()
            .expect("page memo")
            .insert(path.to_string(), (hash, bytes.clone()));
        Ok(bytes)
    }

    fn strings(&self, lang: &Lang) -> &Strings {
        &self.input.strings[lang]
    }

    fn context(&self, lang: &Lang, meta: &PageMeta) -> Context {
        let mut ctx = Context::new();
        let (site, t) = &self.per_lang[lang];
        ctx.insert_value("site", site.clone());
        ctx.insert_value("t", t.clone());
        ctx.insert("meta", meta);
        ctx
    }

    /// Meta for a page whose versions in other languages are `versions` (lang → url, exact).
    fn meta(
        &self,
        lang: &Lang,
        url: &str,
        title: String,
        description: String,
        versions: &BTreeMap<Lang, String>,
    ) -> PageMeta {
        let config = self.input.config;
        let mut alternates: Vec<Alternate> = config
            .langs()
            .filter_map(|l| {
                versions.get(l).map(|u| Alternate {
                    hreflang: l.code().to_string(),
                    href: config.absolute(u),
                })
            })
            .collect();
        if alternates.len() < 2 {
            alternates.clear();
        }
        let x_default = if alternates.is_empty() {
            None
        } else {
            versions
                .get(&config.default_lang)
                .map(|u| config.absolute(u))
        };
        let switch = config
            .langs()
            .map(|l| {
                let exact = versions.get(l);
                Switch {
                    code: l.code().to_string(),
                    name: self.strings(l).get("language_name").to_string(),
                    url: exact.cloned().unwrap_or_else(|| config.lang_prefix(l)),
                    current: l == lang,
                    exact: exact.is_some(),
                }
            })
            .collect();
        PageMeta {
            lang: lang.code().to_string(),
            title,
            description,
            url: url.to_string(),
            canonical: config.absolute(url),
            alternates,
            x_default,
            switch,
            og_type: "website",
            json_ld: None,
        }
    }

    fn page_description(&self, i: usize) -> String {
        let p = &self.input.site.pages[i];
        match &p.doc.front.description {
            Some(d) => d.clone(),
            None => truncate_words(&self.input.bodies[i].summary, 300),
        }
    }

    fn link(&self, i: usize, listing_lang: &Lang) -> LinkCtx {
        let p = &self.input.site.pages[i];
        let t = self.strings(&p.doc.lang);
        let only_in = (&p.doc.lang != listing_lang).then(|| {
            let listing = self.strings(listing_lang);
            listing.fill(
                "only_in",
                &[(
                    "language",
                    listing.get(&format!("lang_{}", p.doc.lang.code())),
                )],
            )
        });
        LinkCtx {
            title: p.doc.front.title.clone(),
            url: p.url.clone(),
            description: self.page_description(i),
            date: t.date(p.doc.front.date),
            date_iso: p.doc.front.date.to_string(),
            tags: self.tag_links(p),
            only_in,
            lang: p.doc.lang.code().to_string(),
        }
    }

    fn tag_links(&self, p: &Page) -> Vec<TagLink> {
        let prefix = self.input.config.lang_prefix(&p.doc.lang);
        p.doc
            .front
            .tags
            .iter()
            .map(|name| TagLink {
                name: name.clone(),
                url: format!("{prefix}tags/{}/", crate::site::tag_slug(name)),
                count: 0,
            })
            .collect()
    }

    fn versions_of(&self, i: usize) -> BTreeMap<Lang, String> {
        let site = self.input.site;
        let p = &site.pages[i];
        std::iter::once(i)
            .chain(p.translations.iter().copied())
            .map(|j| (site.pages[j].doc.lang.clone(), site.pages[j].url.clone()))
            .collect()
    }

    fn article(&self, i: usize, path: &str) -> Result<Arc<[u8]>, Diagnostic> {
        let site = self.input.site;
        let p = &site.pages[i];
        let lang = &p.doc.lang;
        let t = self.strings(lang);
        let body = &self.input.bodies[i];
        let front = &p.doc.front;
        let description = self.page_description(i);
        let mut meta = self.meta(
            lang,
            &p.url,
            front.title.clone(),
            description.clone(),
            &self.versions_of(i),
        );
        meta.og_type = "article";
        meta.json_ld = Some(self.json_ld(p, &description));
        let series = site.series_of(i).map(|(name, parts)| {
            let pos = parts.iter().position(|&x| x == i).unwrap_or(0);
            SeriesCtx {
                name: name.to_string(),
                position: t.fill(
                    "series_position",
                    &[
                        ("part", &(pos + 1).to_string()),
                        ("total", &parts.len().to_string()),
                        ("series", name),
                    ],
                ),
                parts: parts
                    .iter()
                    .map(|&j| SeriesPart {
                        title: site.pages[j].doc.front.title.clone(),
                        url: site.pages[j].url.clone(),
                        part: site.pages[j].doc.front.part,
                        current: j == i,
                    })
                    .collect(),
                prev: pos.checked_sub(1).map(|k| self.link(parts[k], lang)),
                next: parts.get(pos + 1).map(|&k| self.link(k, lang)),
            }
        });
        let minutes = body.words.div_ceil(200).max(1);
        let article = ArticleCtx {
            title: &front.title,
            date: t.date(front.date),
            date_iso: front.date.to_string(),
            updated: front.updated.map(|d| t.date(d)),
            updated_iso: front.updated.map(|d| d.to_string()),
            reading_time: t.count("reading_time", minutes),
            tags: self.tag_links(p),
            series,
            toc: &body.toc,
            content: &body.html,
            reproduce: self.input.reproduce.get(i).map_or(&[], Vec::as_slice),
            results_url: self
                .input
                .reproduce
                .get(i)
                .filter(|r| !r.is_empty())
                .map(|_| format!("{}results.json", p.url)),
            related: self
                .input
                .related
                .get(i)
                .into_iter()
                .flatten()
                .map(|&j| self.link(j, lang))
                .collect(),
            translation_notice: self.input.notices.get(i).cloned().flatten(),
        };
        let mut ctx = self.context(lang, &meta);
        ctx.insert("article", &article);
        self.render(path, "article.html", &ctx, &["meta", "article"])
    }

    fn json_ld(&self, p: &Page, description: &str) -> String {
        let config = self.input.config;
        let v = serde_json::json!({
            "@context": "https://schema.org",
            "@type": "Article",
            "headline": p.doc.front.title,
            "description": description,
            "datePublished": p.doc.front.date.to_string(),
            "dateModified": p.doc.front.updated.unwrap_or(p.doc.front.date).to_string(),
            "inLanguage": p.doc.lang.code(),
            "url": config.absolute(&p.url),
            "mainEntityOfPage": config.absolute(&p.url),
            "author": { "@type": "Person", "name": if config.author.is_empty() { &config.language(&p.doc.lang).title } else { &config.author } },
            "keywords": p.doc.front.tags.join(", "),
        });
        crate::html::script_json(&v)
    }

    /// Home, tag index, tag pages and feed of one language.
    fn listings(&self, lang: &Lang) -> Result<Files, Diagnostic> {
        let config = self.input.config;
        let site = self.input.site;
        let t = self.strings(lang);
        let prefix = config.lang_prefix(lang);
        let mut files = Vec::new();
        let own: Vec<usize> = site.by_lang.get(lang).cloned().unwrap_or_default();
        let mut listed: Vec<usize> = own.clone();
        if config.show_untranslated {
            listed.extend(site.untranslated_into(lang));
            listed.sort_by_key(|&i| std::cmp::Reverse(site.pages[i].doc.front.date));
        }
        let homes: BTreeMap<Lang, String> = config
            .langs()
            .map(|l| (l.clone(), config.lang_prefix(l)))
            .collect();
        let lc = config.language(lang);
        let meta = self.meta(
            lang,
            &prefix,
            lc.title.clone(),
            lc.description.clone(),
            &homes,
        );
        let mut ctx = self.context(lang, &meta);
        ctx.insert("heading", t.get("latest_articles"));
        ctx.insert(
            "items",
            &listed
                .iter()
                .map(|&i| self.link(i, lang))
                .collect::<Vec<_>>(),
        );
        files.push((
            path_of(&prefix),
            self.render(
                &path_of(&prefix),
                "list.html",
                &ctx,
                &["meta", "heading", "items"],
            )?,
        ));

        let tags = site.tags.get(lang).cloned().unwrap_or_default();
        let tag_indexes: BTreeMap<Lang, String> = config
            .langs()
            .map(|l| (l.clone(), format!("{}tags/", config.lang_prefix(l))))
            .collect();
        let index_url = format!("{prefix}tags/");
        let meta = self.meta(
            lang,
            &index_url,
            t.get("tags").to_string(),
            t.get("tags_description").to_string(),
            &tag_indexes,
        );
        let mut ctx = self.context(lang, &meta);
        let tag_links: Vec<TagLink> = tags
            .iter()
            .map(|tag| TagLink {
                name: tag.name.clone(),
                url: tag.url.clone(),
                count: tag.pages.len(),
            })
            .collect();
        ctx.insert("tags", &tag_links);
        files.push((
            path_of(&index_url),
            self.render(&path_of(&index_url), "tags.html", &ctx, &["meta", "tags"])?,
        ));

        for tag in &tags {
            let title = t.fill("tag_title", &[("tag", &tag.name)]);
            let only_here: BTreeMap<Lang, String> =
                [(lang.clone(), tag.url.clone())].into_iter().collect();
            let meta = self.meta(lang, &tag.url, title.clone(), title.clone(), &only_here);
            let mut ctx = self.context(lang, &meta);
            ctx.insert("heading", &title);
            ctx.insert(
                "items",
                &tag.pages
                    .iter()
                    .map(|&i| self.link(i, lang))
                    .collect::<Vec<_>>(),
            );
            files.push((
                path_of(&tag.url),
                self.render(
                    &path_of(&tag.url),
                    "list.html",
                    &ctx,
                    &["meta", "heading", "items"],
                )?,
            ));
        }
        files.push((
            feed_path(config, lang),
            self.feed(lang, feed_pages(config, &own))?,
        ));
        Ok(files)
    }

    fn feed(&self, lang: &Lang, pages: &[usize]) -> Result<Arc<[u8]>, Diagnostic> {
        #[derive(Serialize)]
        struct Entry {
            title: String,
            url: String,
            published: String,
            updated: String,
            summary: String,
            content: String,
            tags: Vec<String>,
        }
        let config = self.input.config;
        let site = self.input.site;
        let rfc3339 = |d: jiff::civil::Date| format!("{d}T00:00:00Z");
        let entries: Vec<Entry> = pages
            .iter()
            .map(|&i| {
                let p = &site.pages[i];
                Entry {
                    title: p.doc.front.title.clone(),
                    url: config.absolute(&p.url),
                    published: rfc3339(p.doc.front.date),
                    updated: rfc3339(p.doc.front.updated.unwrap_or(p.doc.front.date)),
                    summary: self.page_description(i),
                    content: absolutize(&self.input.bodies[i].html, &config.base_url, &p.url),
                    tags: p.doc.front.tags.clone(),
                }
            })
            .collect();
        let updated = pages
            .iter()
            .map(|&i| {
                site.pages[i]
                    .doc
                    .front
                    .updated
                    .unwrap_or(site.pages[i].doc.front.date)
            })
            .max()
            .map_or_else(|| "1970-01-01T00:00:00Z".to_string(), rfc3339);
        let prefix = config.lang_prefix(lang);
        let lc = config.language(lang);
        let mut ctx = Context::new();
        ctx.insert("title", &lc.title);
        ctx.insert("subtitle", &lc.description);
        ctx.insert("lang", lang.code());
        ctx.insert(
            "author",
            if config.author.is_empty() {
                &lc.title
            } else {
                &config.author
            },
        );
        ctx.insert("home", &config.absolute(&prefix));
        ctx.insert("self_url", &config.absolute(&format!("{prefix}atom.xml")));
        ctx.insert("updated", &updated);
        ctx.insert("entries", &entries);
        let path = feed_path(config, lang);
        self.render(
            &path,
            "atom.xml",
            &ctx,
            &[
                "title", "subtitle", "lang", "author", "home", "self_url", "updated", "entries",
            ],
        )
    }

    fn extra(&self, page: &ExtraPage, path: &str) -> Result<Arc<[u8]>, Diagnostic> {
        let only: BTreeMap<Lang, String> = [(page.lang.clone(), page.url.clone())]
            .into_iter()
            .collect();
        let meta = self.meta(
            &page.lang,
            &page.url,
            page.title.clone(),
            page.description.clone(),
            &only,
        );
        let mut ctx = self.context(&page.lang, &meta);
        ctx.insert("content", &page.body_html);
        self.render(path, "page.html", &ctx, &["meta", "content"])
    }

    /// 404 page, sitemap and robots.txt.
    fn site_files(&self) -> Result<Files, Diagnostic> {
        let config = self.input.config;
        let site = self.input.site;
        let lang = &config.default_lang;
        let t = self.strings(lang);
        let meta = self.meta(
            lang,
            "/404.html",
            t.get("not_found_title").to_string(),
            String::new(),
            &BTreeMap::new(),
        );
        let ctx = self.context(lang, &meta);
        let mut files = vec![(
            "404.html".to_string(),
            self.render("404.html", "404.html", &ctx, &["meta"])?,
        )];

        #[derive(Serialize)]
        struct SitemapUrl {
            loc: String,
            lastmod: Option<String>,
            alternates: Vec<Alternate>,
        }
        let mut urls = Vec::new();
        let homes: Vec<Alternate> = config
            .langs()
            .map(|l| Alternate {
                hreflang: l.code().to_string(),
                href: config.absolute(&config.lang_prefix(l)),
            })
            .collect();
        for l in config.langs() {
            let alts = homes
                .iter()
                .map(|a| Alternate {
                    hreflang: a.hreflang.clone(),
                    href: a.href.clone(),
                })
                .collect();
            urls.push(SitemapUrl {
                loc: config.absolute(&config.lang_prefix(l)),
                lastmod: None,
                alternates: alts,
            });
        }
        for (i, p) in site.pages.iter().enumerate() {
            let versions = self.versions_of(i);
            let alternates = if versions.len() > 1 {
                config
                    .langs()
                    .filter_map(|l| {
                        versions.get(l).map(|u| Alternate {
                            hreflang: l.code().to_string(),
                            href: config.absolute(u),
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let lastmod = Some(p.doc.front.updated.unwrap_or(p.doc.front.date).to_string());
            urls.push(SitemapUrl {
                loc: config.absolute(&p.url),
                lastmod,
                alternates,
            });
        }
        for tags in site.tags.values() {
            for tag in tags {
                urls.push(SitemapUrl {
                    loc: config.absolute(&tag.url),
                    lastmod: None,
                    alternates: Vec::new(),
                });
            }
        }
        for extra in self.input.extra_pages {
            urls.push(SitemapUrl {
                loc: config.absolute(&extra.url),
                lastmod: None,
                alternates: Vec::new(),
            });
        }
        let mut ctx = Context::new();
        ctx.insert("urls", &urls);
        files.push((
            "sitemap.xml".to_string(),
            self.render("sitemap.xml", "sitemap.xml", &ctx, &["urls"])?,
        ));
        let mut ctx = Context::new();
        ctx.insert("sitemap", &config.absolute("/sitemap.xml"));
        files.push((
            "robots.txt".to_string(),
            self.render("robots.txt", "robots.txt", &ctx, &["sitemap"])?,
        ));
        Ok(files)
    }
}

/// Feeds a template value into a hasher, the same way for the same value: maps in key order
/// (Tera's own maps iterate in no fixed order), every item tagged with its kind and length so
/// that two different values never feed the same bytes. Strings go in raw: no copy, no escaping.
fn hash_value(h: &mut blake3::Hasher, value: &Value) {
    use tera::value::ValueKind;
    let kind = value.kind();
    h.update(value.name().as_bytes());
    match kind {
        ValueKind::String => {
            let s = value.as_str().unwrap_or_default();
            h.update(&[u8::from(value.is_safe())]);
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }
        ValueKind::Bytes => {
            let b = value.as_bytes().unwrap_or_default();
            h.update(&(b.len() as u64).to_le_bytes());
            h.update(b);
        }
        ValueKind::Array => {
            let items = value.as_array().unwrap_or_default();
            h.update(&(items.len() as u64).to_le_bytes());
            for item in items {
                hash_value(h, item);
            }
        }
        ValueKind::Map => {
            let mut entries: Vec<_> = value.as_map().into_iter().flatten().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            h.update(&(entries.len() as u64).to_le_bytes());
            for (key, item) in entries {
                let key = key.to_string();
                h.update(&(key.len() as u64).to_le_bytes());
                h.update(key.as_bytes());
                hash_value(h, item);
            }
        }
        // Numbers, booleans, none: short, and their display is exact.
        _ => {
            let text = value.to_string();
            h.update(&(text.len() as u64).to_le_bytes());
            h.update(text.as_bytes());
        }
    }
}

/// Makes root-relative and page-relative `href`/`src` in `html` absolute (for feeds).
fn absolutize(html: &str, base_url: &str, page_url: &str) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut done = 0;
    let mut from = 0;
    // One pass over `="`, the end of every quoted attribute name: `href="` and `src="` are
    // the ones to rewrite.
    while let Some(j) = html[from..].find('=') {
        let start = from + j + 2;
        from = from + j + 1;
        let name = &html[..start - 2];
        if !html[from..].starts_with('"') || !(name.ends_with("href") || name.ends_with("src")) {
            continue;
        }
        let end = html[start..].find('"').map_or(html.len(), |k| start + k);
        let url = &html[start..end];
        out.push_str(&html[done..start]);
        if url.starts_with('/') && !url.starts_with("//") {
            out.push_str(base_url);
        } else if !url.contains(':') && !url.starts_with('#') && !url.starts_with("//") {
            out.push_str(base_url);
            out.push_str(page_url);
        }
        done = start;
        from = end;
    }
    out.push_str(&html[done..]);
    out
}

fn truncate_words(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for word in s.split_whitespace() {
        if out.chars().count() + word.chars().count() + 1 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_urls() {
        assert_eq!(path_of("/"), "index.html");
        assert_eq!(path_of("/en/"), "en/index.html");
        assert_eq!(path_of("/a/"), "a/index.html");
        assert_eq!(path_of("/a/b.json"), "a/b.json");
    }

    #[test]
    fn feed_links_become_absolute() {
        let html = r##"<a class="l" href="/x/">x</a><img title="/t" src="i.png"><a href="#f">f</a><a href="https://o.org/">o</a><b data-u="/u">"##;
        assert_eq!(
            absolutize(html, "https://e.org", "/en/p/"),
            r##"<a class="l" href="https://e.org/x/">x</a><img title="/t" src="https://e.org/en/p/i.png"><a href="#f">f</a><a href="https://o.org/">o</a><b data-u="/u">"##
        );
    }

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        assert_eq!(truncate_words("một hai ba bốn", 9), "một hai…");
    }
}

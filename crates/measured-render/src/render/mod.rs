//! Rendering: the site model and the rendered bodies → every output file, in parallel.
//!
//! What an output shows is a pure function from the [`RenderInputs`] to its template's
//! `Serialize` context, one module per output: `article`, `listing` (home, tag index, tag
//! pages), `feed`, `site_files` (404, sitemap, robots.txt) and `extra` (pages an earlier
//! stage made whole). This module puts the contexts through the `templates` on all cores,
//! reusing the bytes of a page whose context is the previous build's (`memo`).

mod article;
mod extra;
mod feed;
mod link;
mod listing;
mod memo;
mod meta;
mod moved;
mod prefix;
mod redirect;
mod reproduce;
mod site_files;
mod standalone;
mod templates;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use tera::{Context, Value};

use crate::inject::ExtraPage;
use crate::markdown::Rendered;
use measured_content::config::SiteConfig;
use measured_content::i18n::Strings;
use measured_content::site::Site;
use measured_core::diag::{Diagnostic, Diagnostics};
use measured_core::lang::Lang;
use measured_core::output::{self, Output, Placed, Store};

pub use memo::PageMemo;
pub use moved::add_site_redirects;
pub use redirect::add_redirects;
pub use reproduce::{Reproduce, reproduce_of, results_json};
pub use templates::{Templates, compile};

/// Everything rendering reads, owned (mdBook's `RenderContext`): a whole build renders from it,
/// then keeps it for the next edits, which replace what they changed and render from it again.
pub struct RenderInputs {
    pub config: SiteConfig,
    pub site: Site,
    /// The rendered Markdown of each page, by page index.
    pub bodies: Vec<Arc<Rendered>>,
    pub strings: BTreeMap<Lang, Strings>,
    pub templates: Templates,
    pub extra_pages: Arc<Vec<ExtraPage>>,
    /// Per page: the experiments it uses, for its "Reproduce" section (empty when none).
    pub reproduce: Vec<Vec<Reproduce>>,
    /// Per page: a notice that the original changed since this translation was made.
    pub notices: Vec<Option<String>>,
    /// Per article folder: each of its claims as published (the legend of its marks, the
    /// notice that some did not hold, its `results.json`).
    pub claims: Arc<BTreeMap<String, Vec<measured_measure::claims::report::Published>>>,
    /// Per page: its related pages ([`Site::all_related`]).
    pub related: Arc<Vec<Vec<usize>>>,
    /// The standalone pages (`pages/`), rendered with `standalone.html`.
    pub standalone: Arc<Vec<crate::standalone::Standalone>>,
    /// Per page: its social card (`None` with `[cards] enabled = false`), whose PNG the
    /// pipeline draws beside the rendering; its page's head names it as `og:image`.
    pub cards: Arc<Vec<Option<crate::card::Card>>>,
}

/// What a render produced besides its files.
pub struct Rendering {
    /// The pages of this render, for the next one to reuse (empty without `reuse`).
    pub pages: PageMemo,
    /// How many files went through a template (were not reused).
    pub rendered: usize,
}

/// An output file as (path, bytes).
type File = (String, Arc<[u8]>);

/// Output files as (path, bytes).
pub type Files = Vec<File>;

/// Renders every output file. `reuse`: the pages of the previous build of a session, whose
/// bytes a page with the same context reuses; `None` for a build that no other follows
/// (`measured build`), which hashes no page. `store`: where each file goes as soon as it is
/// rendered, on the thread that rendered it (`measured build`); `None` holds every file.
pub fn render(
    inputs: &RenderInputs,
    reuse: Option<&PageMemo>,
    store: Option<&dyn Store>,
) -> Result<(Output, Rendering), Diagnostics> {
    let renderer = Renderer::new(inputs, reuse);
    let keep = |(path, bytes): File| -> Result<(String, Placed), Diagnostic> {
        let kept = output::place(store, &path, bytes)?;
        Ok((path, kept))
    };
    let each = |files: Files| files.into_iter().map(keep).collect::<Result<Vec<_>, _>>();
    let articles: Vec<Result<Vec<(String, Placed)>, Diagnostic>> = (0..inputs.site.pages.len())
        .into_par_iter()
        .map(|i| renderer.article(i).and_then(keep).map(|file| vec![file]))
        .collect();
    let langs: Vec<&Lang> = inputs.config.langs().collect();
    let listings: Vec<Result<Vec<(String, Placed)>, Diagnostic>> = langs
        .into_par_iter()
        .map(|lang| renderer.listings(lang, keep))
        .collect();
    let extras = inputs.extra_pages.iter().map(|page| renderer.extra(page));
    let standalone = inputs
        .standalone
        .iter()
        .filter(|page| !page.is_intro())
        .map(|page| renderer.standalone(page));
    let others = extras
        .chain(standalone)
        .map(|r| r.map(|file| vec![file]))
        .chain([renderer.site_files()])
        .map(|r| r.and_then(each));
    let mut output = Output::default();
    for (path, placed) in Diagnostics::gather(articles.into_iter().chain(listings).chain(others))?
        .into_iter()
        .flatten()
    {
        output.insert_placed(path, placed);
    }
    Ok((output, renderer.finish()))
}

/// Renders the article pages `pages`, the feeds of `feeds` and the tag feeds that carry one of
/// `pages` only, the files that show an article's body (a session's rebuild after edits that changed bodies and nothing else).
pub fn render_pages(
    inputs: &RenderInputs,
    reuse: &PageMemo,
    pages: &[usize],
    feeds: &[Lang],
) -> Result<(Files, Rendering), Diagnostics> {
    let renderer = Renderer::new(inputs, Some(reuse));
    let tag_feeds = renderer.tag_feeds_of(pages);
    let rendered: Vec<Result<File, Diagnostic>> = pages
        .par_iter()
        .map(|&i| renderer.article(i))
        .chain(feeds.par_iter().map(|lang| renderer.feed(lang)))
        .chain(
            tag_feeds
                .par_iter()
                .map(|(lang, tag)| renderer.tag_feed(lang, tag)),
        )
        .collect();
    let mut files = Files::new();
    for file in Diagnostics::gather(rendered)? {
        // A feed is served at the old URLs that `[redirects]` leads to it too.
        files.extend(moved::copies(&inputs.config, file));
    }
    Ok((files, renderer.finish()))
}

/// Whether the feed of `lang` carries page `i`.
pub fn in_feed(inputs: &RenderInputs, lang: &Lang, i: usize) -> bool {
    feed::feed_pages(&inputs.config, feed::own(inputs, lang)).contains(&i)
}

/// The output file of a page URL: `/a/` → `a/index.html`.
pub fn path_of(url: &str) -> String {
    let trimmed = url.trim_start_matches('/');
    if trimmed.is_empty() || trimmed.ends_with('/') {
        format!("{trimmed}index.html")
    } else {
        trimmed.to_string()
    }
}

/// What every HTML page's `site` holds.
#[derive(Serialize)]
struct SiteCtx<'a> {
    title: &'a str,
    description: &'a str,
    /// The site's note at the foot of its pages, if it has one.
    footer: Option<&'a str>,
    base_url: &'a str,
    author: &'a str,
    home: String,
    /// The tag index, when the language has tags (an empty index is not linked).
    tags_url: Option<String>,
    feed_url: String,
    /// Whether pages get the search box.
    search: bool,
    /// The header's menu in this language (`[[languages.<code>.menu]]`).
    menu: &'a [measured_content::config::MenuItem],
}

/// Puts contexts through the templates: the values every page of a language shares, made
/// template values once, and the pages to reuse.
struct Renderer<'a> {
    inputs: &'a RenderInputs,
    /// Per language: `site` and `t` (the UI strings).
    per_lang: BTreeMap<Lang, (Value, Value)>,
    reuse: Option<memo::Reuse<'a>>,
    /// How many pages went through a template.
    rendered: AtomicUsize,
}

impl<'a> Renderer<'a> {
    fn new(inputs: &'a RenderInputs, reuse: Option<&'a PageMemo>) -> Self {
        let config = &inputs.config;
        let per_lang = config
            .langs()
            .map(|lang| {
                let lc = config.language(lang);
                let prefix = config.lang_prefix(lang);
                let site = SiteCtx {
                    title: &lc.title,
                    description: &lc.description,
                    footer: lc.footer.as_deref(),
                    base_url: &config.base_url,
                    author: &config.author,
                    home: prefix.clone(),
                    tags_url: inputs
                        .site
                        .tags
                        .get(lang)
                        .is_some_and(|t| !t.is_empty())
                        .then(|| format!("{prefix}tags/")),
                    feed_url: format!("{prefix}atom.xml"),
                    search: config.search,
                    menu: &lc.menu,
                };
                let values = (
                    Value::from_serializable(&site),
                    Value::from_serializable(&inputs.strings[lang]),
                );
                (lang.clone(), values)
            })
            .collect();
        Renderer {
            inputs,
            per_lang,
            reuse: reuse.map(memo::Reuse::new),
            rendered: AtomicUsize::new(0),
        }
    }

    fn finish(self) -> Rendering {
        Rendering {
            pages: self.reuse.map(memo::Reuse::into_fresh).unwrap_or_default(),
            rendered: self.rendered.into_inner(),
        }
    }

    fn article(&self, i: usize) -> Result<File, Diagnostic> {
        let p = &self.inputs.site.pages[i];
        let context = article::context(self.inputs, i);
        self.page(path_of(&p.url), "article.html", &p.doc.lang, &context)
    }

    /// Home, tag pages (each with its later pages), tag index and feed of one language, each
    /// handed to `keep` as it is made (a one-off build writes it then and holds none).
    fn listings<T>(
        &self,
        lang: &Lang,
        keep: impl Fn(File) -> Result<T, Diagnostic>,
    ) -> Result<Vec<T>, Diagnostic> {
        let inputs = self.inputs;
        let mut files = Vec::new();
        let tags = listing::tags(inputs, lang);
        let pages = listing::home(inputs, lang).into_iter().chain(
            tags.iter()
                .flat_map(|tag| listing::tag_pages(inputs, lang, tag)),
        );
        for page in pages {
            files.push(keep(self.page(
                path_of(&page.meta.url),
                "list.html",
                lang,
                &page,
            )?)?);
        }
        let config = &inputs.config;
        for tag in tags {
            for file in moved::copies(config, self.tag_feed(lang, tag)?) {
                files.push(keep(file)?);
            }
        }
        let index = listing::tag_index(inputs, lang);
        let index_url = listing::tag_index_url(inputs, lang);
        files.push(keep(self.page(
            path_of(&index_url),
            "tags.html",
            lang,
            &index,
        )?)?);
        for file in moved::copies(config, self.feed(lang)?) {
            files.push(keep(file)?);
        }
        Ok(files)
    }

    fn feed(&self, lang: &Lang) -> Result<File, Diagnostic> {
        let pages = feed::feed_pages(&self.inputs.config, feed::own(self.inputs, lang));
        let context = feed::context(self.inputs, lang, pages);
        self.file(feed::path(&self.inputs.config, lang), "atom.xml", &context)
    }

    fn tag_feed(&self, lang: &Lang, tag: &measured_content::site::Tag) -> Result<File, Diagnostic> {
        let context = feed::tag_context(self.inputs, lang, tag);
        self.file(feed::tag_path(tag), "atom.xml", &context)
    }

    /// The feeds of the tags whose feeds carry one of `pages` (a body changed).
    fn tag_feeds_of(&self, pages: &[usize]) -> Vec<(&'a Lang, &'a measured_content::site::Tag)> {
        let inputs = self.inputs;
        inputs
            .site
            .tags
            .iter()
            .flat_map(|(lang, tags)| tags.iter().map(move |tag| (lang, tag)))
            .filter(|(_, tag)| {
                feed::feed_pages(&inputs.config, &tag.pages)
                    .iter()
                    .any(|i| pages.contains(i))
            })
            .collect()
    }

    fn extra(&self, page: &ExtraPage) -> Result<File, Diagnostic> {
        let context = extra::context(self.inputs, page);
        self.page(path_of(&page.url), "page.html", &page.lang, &context)
    }

    fn standalone(&self, page: &crate::standalone::Standalone) -> Result<File, Diagnostic> {
        let context = standalone::context(self.inputs, page);
        let url = &page.source.url;
        self.page(path_of(url), "standalone.html", &page.source.lang, &context)
    }

    /// 404 page, sitemap and robots.txt.
    fn site_files(&self) -> Result<Files, Diagnostic> {
        let inputs = self.inputs;
        let lang = &inputs.config.default_lang;
        let not_found = site_files::not_found(inputs);
        use measured_content::site::reserved::{NOT_FOUND, ROBOTS, SITEMAP};
        Ok(vec![
            self.page(NOT_FOUND.into(), "404.html", lang, &not_found)?,
            self.file(SITEMAP.into(), "sitemap.xml", &site_files::sitemap(inputs))?,
            self.file(ROBOTS.into(), "robots.txt", &site_files::robots(inputs))?,
        ])
    }

    /// An HTML page in `lang`: `context` with the site's values (`site`) and UI strings (`t`).
    fn page(
        &self,
        path: String,
        template: &str,
        lang: &Lang,
        context: &impl Serialize,
    ) -> Result<File, Diagnostic> {
        self.render(path, template, Some(lang), context)
    }

    /// A file whose template reads `context` only (feeds, sitemap, robots.txt).
    fn file(
        &self,
        path: String,
        template: &str,
        context: &impl Serialize,
    ) -> Result<File, Diagnostic> {
        self.render(path, template, None, context)
    }

    fn render(
        &self,
        path: String,
        template: &str,
        lang: Option<&Lang>,
        context: &impl Serialize,
    ) -> Result<File, Diagnostic> {
        let context = Value::from_serializable(context);
        let render = || -> Result<Arc<[u8]>, Diagnostic> {
            self.rendered.fetch_add(1, Ordering::Relaxed);
            let mut ctx = Context::new();
            if let Some(lang) = lang {
                let (site, t) = &self.per_lang[lang];
                ctx.insert_value("site", site.clone());
                ctx.insert_value("t", t.clone());
            }
            for (key, value) in context.as_map().into_iter().flatten() {
                ctx.insert_value(key.to_string(), value.clone());
            }
            let mut html = self.inputs.templates.render(template, &ctx)?;
            if template.ends_with(".html") && !self.inputs.config.base_path.is_empty() {
                html = prefix::prefixed(&html, &self.inputs.config.base_path);
            }
            Ok(Arc::from(html.into_bytes()))
        };
        let bytes = match &self.reuse {
            Some(reuse) => {
                let site = lang.map(|l| &self.per_lang[l].0);
                reuse.get_or(&path, template, &context, site, render)?
            }
            None => render()?,
        };
        Ok((path, bytes))
    }
}

#[cfg(test)]
pub(crate) mod tests;

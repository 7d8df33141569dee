//! The output files besides the rendered pages (each article's `results.json`, the highlight
//! stylesheet, the theme's static files and the articles' assets), and the checks of the
//! finished output (links, missing translations).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::experiments::Measurements;
use crate::lang::Lang;
use crate::links;
use crate::markdown::Rendered;
use crate::output::Output;
use crate::render::{self, RenderInputs};
use crate::site::Site;
use crate::theme::Theme;

use super::Session;
use super::bodies::measurements_fingerprint;
use super::memo::{Themes, themes};

impl Session {
    /// Adds the output files besides the rendered pages: every `results.json`, the highlight
    /// stylesheet, the theme's static files and the articles' assets.
    pub(super) fn add_files(
        &mut self,
        inputs: &RenderInputs,
        theme: &Theme,
        used: &[BTreeSet<String>],
        m: &Measurements,
        output: &mut Output,
    ) -> Result<(), Diagnostics> {
        self.add_results_files(inputs, used, m, output);
        let config = &inputs.config;
        self.add_stylesheet(config, themes(config), output)?;
        add_static_files(config, theme, &inputs.site, output)
    }

    /// Adds the `results.json` of every article that uses experiments (`used`), made again
    /// when the article's URL, title, experiments or their results changed.
    fn add_results_files(
        &mut self,
        inputs: &RenderInputs,
        used: &[BTreeSet<String>],
        m: &Measurements,
        output: &mut Output,
    ) {
        let results = measurements_fingerprint(m);
        let mut kept = Vec::new();
        for (p, names) in inputs.site.pages.iter().zip(used) {
            if names.is_empty() {
                continue;
            }
            let claims = inputs.claims.get(&p.doc.dir).map_or(&[][..], Vec::as_slice);
            let decided = serde_json::to_string(claims).unwrap_or_default();
            let key = blake3::hash(
                format!(
                    "{}\0{}\0{names:?}\0{results}\0{decided}",
                    p.url, p.doc.front.title
                )
                .as_bytes(),
            );
            let bytes = self.memo.results_files.get_or(&key, || {
                Arc::from(render::results_json(p, names, m, claims))
            });
            output.insert_shared(
                format!("{}results.json", p.url.trim_start_matches('/')),
                bytes.clone(),
            );
            kept.push((key, bytes));
        }
        self.memo.results_files.retain(kept);
    }

    /// Adds the highlight stylesheet of the configuration's themes, made again when they change.
    fn add_stylesheet(
        &mut self,
        config: &SiteConfig,
        themes: Themes,
        output: &mut Output,
    ) -> Result<(), Diagnostics> {
        let stylesheet = self.memo.stylesheet.try_get_or(themes.clone(), || {
            crate::highlight::stylesheet(&themes.0, &themes.1).map_err(|m| {
                Diagnostics::one(Diagnostic::new(
                    Place::file(config.root.join("site.toml")),
                    m,
                ))
            })
        })?;
        output.insert("highlight.css".into(), stylesheet.into_bytes());
        Ok(())
    }
}

/// The theme's static files and each article's assets.
fn add_static_files(
    config: &SiteConfig,
    theme: &Theme,
    site: &Site,
    output: &mut Output,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for (rel, source) in &theme.statics {
        match source.read() {
            Ok(bytes) => output.insert(rel.clone(), bytes),
            Err(e) => diags.push(Diagnostic::new(
                Place::file(rel),
                format!("cannot read the static file: {e}"),
            )),
        }
    }
    for page in &site.pages {
        let Some(files) = site.assets.get(&page.doc.dir) else {
            continue;
        };
        let folder = config.root.join("content").join(&page.doc.dir);
        for rel in files {
            let path = folder.join(rel);
            if config.cards && rel.as_path() == std::path::Path::new(crate::card::FILE) {
                diags.push(
                    Diagnostic::new(
                        Place::file(&path),
                        format!("this file has the name of the article's social card, `{}`, which the build writes there", crate::card::FILE),
                    )
                    .with_hint("rename the file (and the links to it), or set `[cards] enabled = false` in site.toml"),
                );
                continue;
            }
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let rel = rel
                        .iter()
                        .map(|c| c.to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/");
                    output.insert(format!("{}{rel}", page.url.trim_start_matches('/')), bytes);
                }
                Err(e) => diags.push(crate::diag::io_error(&path, "read the asset", &e)),
            }
        }
    }
    diags.into_result(())
}

/// Every internal link and anchor of every body, checked against the output, and every page of
/// the output checked for repeated ids.
pub(super) fn check_links(
    site: &Site,
    bodies: &[Arc<Rendered>],
    output: &Output,
) -> Result<(), Diagnostics> {
    let all: Vec<Diagnostics> = site
        .pages
        .par_iter()
        .zip(bodies.par_iter())
        .map(|(p, b)| {
            let targets = links::Targets {
                output,
                drafts: &site.drafts,
                failed: &site.failed,
                elsewhere: &site.elsewhere,
            };
            links::check(&p.url, &b.links, targets)
        })
        .collect();
    let mut diags = Diagnostics::default();
    all.into_iter().for_each(|d| diags.extend(d));
    let by_file: std::collections::BTreeMap<String, &crate::site::Page> = site
        .pages
        .iter()
        .map(|p| (format!("{}index.html", p.url.trim_start_matches('/')), p))
        .collect();
    diags.extend(links::check_ids(output, &|file| {
        by_file.get(file).map(|p| source_of(p))
    }));
    diags.into_result(())
}

/// The Markdown a page was made from, for errors about its output.
pub(super) fn source_of(page: &crate::site::Page) -> links::Source<'_> {
    links::Source {
        path: &page.doc.path,
        body: &page.doc.body,
        body_line: page.doc.body_line,
    }
}

/// The standalone pages' URLs against the articles', their links and the menus' against the
/// output: every problem of all of them together.
pub(super) fn check_pages(inputs: &RenderInputs, output: &Output) -> Result<(), Diagnostics> {
    let articles: std::collections::BTreeMap<&str, &std::path::Path> = inputs
        .site
        .pages
        .iter()
        .map(|p| (p.url.as_str(), p.doc.path.as_path()))
        .collect();
    let mut diags = crate::standalone::check_collisions(&inputs.standalone, &articles, output);
    let targets = links::Targets {
        output,
        drafts: &inputs.site.drafts,
        failed: &inputs.site.failed,
        elsewhere: &inputs.site.elsewhere,
    };
    diags.extend(crate::standalone::check_links(&inputs.standalone, targets));
    diags.extend(crate::standalone::check_menu(&inputs.config, targets));
    diags.into_result(())
}

/// Articles that exist in some languages only: (folder, languages it lacks).
pub(super) fn missing_translations(
    config: &SiteConfig,
    site: &Site,
) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    for pages in site.articles() {
        let p = &site.pages[pages[0]];
        let have: Vec<&Lang> = pages.iter().map(|&i| &site.pages[i].doc.lang).collect();
        let missing: Vec<String> = config
            .langs()
            .filter(|l| !have.contains(l))
            .map(|l| l.code().to_string())
            .collect();
        if !missing.is_empty() {
            out.push((config.root.join("content").join(&p.doc.dir), missing));
        }
    }
    out
}

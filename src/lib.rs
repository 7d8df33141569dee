//! `measured`: a static-site generator for bilingual measured articles.
//!
//! The build is a pipeline of stages, each a function from one value to the next, called in
//! this order by [`pipeline`] (`Session::build_changed`), which memoises the stages a session
//! reuses:
//!
//! 1. [`config`]: `site.toml` → [`config::SiteConfig`] (which also decides the cache folder)
//! 2. [`theme`] and [`i18n`]: built-in theme + the site's overrides → templates, UI strings
//! 3. [`content`]: `content/` → source documents (front matter validated)
//! 4. [`site`]: documents → the site model (translations, URLs, tags, series, related)
//! 5. [`experiments`]: the experiments the pages refer to → measurements with provenance
//!    (built and run only when stale; the seam between loading and rendering), and every
//!    [`claims`] settled against them: the experiments behind an inconclusive claim are run
//!    again within a budget, so claims come before the values pages show
//! 6. [`markdown`] (with [`inject`] and [`highlight`]): each page's body → HTML, in parallel,
//!    with what later stages read of it (links, ids, summary, searchable text); formulas
//!    through [`math`] (LaTeX → MathML), Mermaid blocks through [`diagram`] (→ inline SVG);
//!    [`standalone`]: `pages/` → standalone pages (About), their bodies rendered the same way
//! 7. [`render`]: the model + bodies ([`render::RenderInputs`]) → every output file, in
//!    parallel ([`output::Output`]); beside it, [`card`] draws each article's social card (SVG →
//!    PNG, cached by what it shows)
//! 8. [`links`]: every internal link and anchor checked against the output;
//!    [`search`] then indexes the articles, one index per language
//! 9. [`write`](mod@write): the output written atomically (or served from memory by [`serve`])
//!
//! A module imports only from earlier stages, and from the vocabulary every stage shares:
//! [`diag`], [`lang`], [`html`], [`output`], [`search_text`] and [`atomic`].
//!
//! Beside the build, [`import`] converts another generator's blog into `content/`,
//! [`scaffold`] starts articles, and [`experiments::remote`] (`run --on HOST`) measures the
//! experiments on another machine over SSH and imports its results.
//!
//! Errors are [`diag::Diagnostics`] naming file, line and column; only `main` prints them.

#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod import;
pub mod pipeline;
pub mod scaffold;
pub mod serve;
pub mod write;

pub use measured_content::{config, content, frontmatter, i18n, site, theme};
pub use measured_core::{atomic, diag, format, html, lang, output, reference, search_text, urls};
pub use measured_measure::{claims, experiments, values};
pub use measured_render::{
    card, chart, diagram, highlight, inject, links, markdown, math, render, search, standalone,
};

pub use diag::{Diagnostic, Diagnostics};
pub use pipeline::{BuildOptions, Built, build_in_memory, build_to_disk};

//! `measured-content`: stages 1–4: site.toml, the theme and its UI strings, content/ and its front matter, and the site model.
//!
//! A stage crate of the measured workspace: it depends only on the crates of earlier
//! stages (ARCHITECTURE.md), so an import against the stage order does not compile.

#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod config;
pub mod content;
pub mod frontmatter;
pub mod i18n;
pub mod site;
pub mod theme;

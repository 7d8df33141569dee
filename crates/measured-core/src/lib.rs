//! `measured-core`: the vocabulary every stage shares: diagnostics, languages, HTML escaping, number formatting, URL segments, the output map, atomic writes, the reference language.
//!
//! A stage crate of the measured workspace: it depends only on the crates of earlier
//! stages (ARCHITECTURE.md), so an import against the stage order does not compile.

#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod atomic;
pub mod diag;
pub mod format;
pub mod html;
pub mod lang;
pub mod output;
pub mod reference;
pub mod search_text;
pub mod urls;

//! `measured-render`: stages 6–8: Markdown with injected values, highlighting, math, diagrams, charts, every output file, social cards, the link check and the search index.
//!
//! A stage crate of the measured workspace: it depends only on the crates of earlier
//! stages (ARCHITECTURE.md), so an import against the stage order does not compile.

#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod card;
pub mod chart;
pub mod diagram;
pub mod highlight;
pub mod inject;
pub mod links;
pub mod markdown;
pub mod math;
pub mod render;
pub mod search;
pub mod standalone;

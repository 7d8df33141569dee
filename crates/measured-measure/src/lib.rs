//! `measured-measure`: stage 5: the experiments (built, run, combined, cached), the values they give, and the claims decided on them.
//!
//! A stage crate of the measured workspace: it depends only on the crates of earlier
//! stages (ARCHITECTURE.md), so an import against the stage order does not compile.

#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod claims;
pub mod experiments;
pub mod values;

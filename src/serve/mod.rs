//! `measured serve`: the author's preview. Builds the site in memory, serves it on loopback,
//! watches the sources and rebuilds, and reloads the browser; a client of the build, never a
//! second copy of it.

use std::net::IpAddr;
use std::path::PathBuf;

use crate::diag::Diagnostics;

/// What `measured serve` was asked for.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub root: PathBuf,
    pub port: u16,
    pub bind: IpAddr,
    pub open: bool,
    pub drafts: bool,
}

/// Runs the preview server until interrupted.
pub fn run(opts: ServeOptions) -> Result<(), Diagnostics> {
    let _ = opts;
    Err(crate::diag::Diagnostic::new(
        crate::diag::Place::file("."),
        "serve is not implemented yet",
    )
    .into())
}

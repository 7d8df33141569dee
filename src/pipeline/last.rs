//! What the last build of a session was made from besides its output: what the edit fast
//! path (`edit.rs`) starts from, kept in the session's memo (`memo.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::experiments::Measurements;
use crate::highlight::Highlighter;
use crate::inject::Injector;
use crate::render::RenderInputs;

use super::bodies::BodyTheme;

/// What the last build was made from, besides its output ([`super::Built`]): what an edit starts from.
pub(crate) struct LastBuild {
    /// Everything the render stage read; an edit replaces what it changed.
    pub(super) inputs: RenderInputs,
    pub(super) measurements: Arc<Measurements>,
    pub(super) claims: Arc<crate::claims::Decided>,
    pub(super) highlighter: Arc<Highlighter>,
    /// What of the theme the bodies were rendered with.
    pub(super) theme: BodyTheme,
    /// Per page: the experiments it refers to.
    pub(super) refs: Vec<BTreeSet<String>>,
    /// The fingerprint of the measurements the bodies were rendered with.
    pub(super) results: blake3::Hash,
    /// Which pages link to anchors of which ([`anchor_links`]).
    pub(super) anchor_links: BTreeMap<String, BTreeSet<usize>>,
}

impl LastBuild {
    /// The hooks the bodies were rendered with.
    pub(super) fn hooks(&self) -> Injector<'_> {
        Injector {
            measurements: &self.measurements,
            claims: &self.claims,
            strings: &self.inputs.strings,
            config: &self.inputs.config,
            highlighter: &self.highlighter,
        }
    }
}

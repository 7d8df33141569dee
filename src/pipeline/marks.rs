//! After the Markdown stage, per article: its claims' markers checked across its languages
//! (the build fails on a claim some language does not mark), and the values one language
//! injects that another does not (warnings). Both the whole build and the edit fast path call
//! these on the bodies they end with.

use std::sync::Arc;

use crate::claims::{self, PageMarks};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::markdown::Rendered;
use crate::site::Site;

/// Every article's claims marked in each of its languages, and only claims it declares.
pub(super) fn check(
    site: &Site,
    bodies: &[Arc<Rendered>],
    decided: &claims::Decided,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for pages in site.articles() {
        let dir = &site.pages[pages[0]].doc.dir;
        let marks: Vec<PageMarks<'_>> = pages
            .iter()
            .map(|&i| PageMarks {
                path: &site.pages[i].doc.path,
                marks: &bodies[i].claim_marks,
            })
            .collect();
        let article = decided.get(dir).map(|(a, _)| a);
        if let Err(d) = claims::check_marks(article, &marks) {
            diags.extend(d);
        }
    }
    diags.into_result(())
}

/// Per article and language: the values and figures another language of it injects and this
/// one does not, as warnings naming the file.
pub(super) fn parity_warnings(site: &Site, bodies: &[Arc<Rendered>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for pages in site.articles() {
        let each: Vec<_> = pages
            .iter()
            .map(|&i| (site.pages[i].doc.path.as_path(), &bodies[i].injected))
            .collect();
        for p in claims::parity(&each) {
            out.push(
                Diagnostic::new(
                    Place::file(&p.path),
                    format!(
                        "injects {} fewer value(s) than {}: {}",
                        p.lacks.len(),
                        p.other.display(),
                        p.lacks.join(", ")
                    ),
                )
                .with_hint(
                    "a translation should show the same measured values; inject them here too, \
                     or drop them from the other language",
                ),
            );
        }
    }
    out
}

/// The build's warnings: the translations' (`first`), the value parity of translations, the
/// experiment stage's (`later`: drift, drafts, other machines' stale results, claims), and
/// the bodies'.
pub(super) fn all_warnings(
    first: Vec<Diagnostic>,
    site: &Site,
    bodies: &[Arc<Rendered>],
    later: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut warnings = first;
    warnings.extend(parity_warnings(site, bodies));
    warnings.extend(later);
    warnings.extend(bodies.iter().flat_map(|b| b.warnings.clone()));
    warnings
}

//! What rendering reads besides the site, the bodies and the UI: the experiments' source
//! pages, each article's "Reproduce" section, the notices of outdated translations and each
//! article's related articles. The memoised ones compute their key here, next to them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Place};
use crate::experiments::Measurements;
use crate::i18n::Strings;
use crate::inject::{self, ExtraPage, Injector};
use crate::lang::Lang;
use crate::render::{self, Reproduce};
use crate::site::Site;

use super::Session;

/// How many related articles a page links to.
const RELATED: usize = 6;

impl Session {
    /// The experiments' source pages, made again when the theme (`theme`: its fingerprint) or
    /// the experiments' sources changed.
    pub(super) fn source_pages(
        &mut self,
        theme: blake3::Hash,
        hooks: &Injector<'_>,
    ) -> Arc<Vec<ExtraPage>> {
        let m = hooks.measurements;
        let mut h = blake3::Hasher::new();
        h.update(theme.as_bytes());
        for info in m.crates.values().chain(m.libraries.values()) {
            h.update(format!("{}\0{}\0", info.name, info.source_hash).as_bytes());
        }
        h.update(format!("{:?}", m.by_name.keys().collect::<Vec<_>>()).as_bytes());
        self.memo
            .source_pages
            .get_or(h.finalize(), || Arc::new(inject::source_pages(hooks)))
    }

    /// Every page's related pages, chosen again when what they are chosen from changed: every
    /// page's language, date, tags and series, not its body.
    pub(super) fn related(&mut self, site: &Site) -> Arc<Vec<Vec<usize>>> {
        let mut h = blake3::Hasher::new();
        for p in &site.pages {
            let f = &p.doc.front;
            let line = format!(
                "{}\0{}\0{}\0{:?}\0{:?}\0{:?}\n",
                p.doc.dir,
                p.doc.lang.code(),
                f.date,
                f.tags,
                f.series,
                f.part
            );
            h.update(line.as_bytes());
        }
        self.memo
            .related
            .get_or(h.finalize(), || Arc::new(site.all_related(RELATED)))
    }
}

/// Per page, its "Reproduce" section: the experiments of `used` it uses.
pub(super) fn reproduce(
    config: &SiteConfig,
    site: &Site,
    used: &[BTreeSet<String>],
    m: &Measurements,
) -> Vec<Vec<Reproduce>> {
    used.iter()
        .zip(&site.pages)
        .map(|(names, p)| render::reproduce_of(config, p, names, m))
        .collect()
}

/// Per page, the notice that its original changed since it was translated; and the warnings.
pub(super) fn translation_notices(
    config: &SiteConfig,
    site: &Site,
    strings: &BTreeMap<Lang, Strings>,
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let mut warnings = site.warnings.clone();
    let notices = site
        .pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let recorded = p.doc.front.translated_from.as_deref()?;
            let original = site.translation(i, &config.default_lang).map(|j| &site.pages[j])?;
            if original.doc.content_hash == recorded {
                return None;
            }
            warnings.push(
                Diagnostic::new(
                    Place::file(&p.doc.path),
                    format!(
                        "the original {} changed since this translation was made (translated_from: {recorded}, original now {})",
                        original.doc.path.display(),
                        original.doc.content_hash
                    ),
                )
                .with_hint(format!(
                    "update the translation, then run `measured translated {} {}`",
                    p.doc.dir,
                    p.doc.lang
                )),
            );
            let t = &strings[&p.doc.lang];
            Some(t.fill("translation_outdated", &[("language", t.get(&format!("lang_{}", original.doc.lang.code())))]))
        })
        .collect();
    (notices, warnings)
}

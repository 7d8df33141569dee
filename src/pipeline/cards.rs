//! The social cards' stage: what each article's card shows, in its language (the headline
//! value of `card:` resolved and formatted as `{{ … }}` would be in the article, an unknown
//! one failing the build at its front-matter line), then every card taken from the cache or
//! drawn, on all cores beside the rendering of the pages.

use std::sync::Arc;

use rayon::prelude::*;

use crate::card::{self, Card, CardCache, Headline};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::inject::Injector;
use crate::output::{self, Placed, Store};
use crate::site::Site;

use super::Session;

/// A card's output path and PNG, held or written.
type File = (String, Placed);
type Files = Vec<File>;

/// The card of each page (`None` for every page when `[cards] enabled = false`, whose
/// `card:` values are still checked: turning cards on again must not reveal an old error).
pub(super) fn cards(site: &Site, hooks: &Injector<'_>) -> Result<Vec<Option<Card>>, Diagnostics> {
    let enabled = hooks.config.cards;
    let mut diags = Diagnostics::default();
    let mut cards = Vec::with_capacity(site.pages.len());
    for i in 0..site.pages.len() {
        match card_of(site, hooks, i) {
            Ok(card) => cards.push(enabled.then_some(card)),
            Err(d) => {
                diags.extend(d);
                cards.push(None);
            }
        }
    }
    diags.into_result(cards)
}

/// Page `i`'s card. Its headline is its own `card:`, else the one a translation declares
/// (the original's, where claims live too); the label is the page's own `card_label:`, else
/// the value's name. An error is reported by the page that declares the value only.
fn card_of(site: &Site, hooks: &Injector<'_>, i: usize) -> Result<Card, Diagnostics> {
    let page = &site.pages[i];
    let lang = &page.doc.lang;
    let front = &page.doc.front;
    let declared = std::iter::once(i)
        .chain(page.translations.iter().copied())
        .find_map(|j| site.pages[j].doc.front.card.as_ref().map(|c| (j, c)));
    let headline = match declared {
        None => None,
        Some((j, (expr, line))) => match hooks.plain(expr, lang) {
            Ok(value) => Some(Headline {
                value,
                label: front.card_label.clone().unwrap_or_else(|| name_of(expr)),
            }),
            Err(_) if j != i => None,
            Err(e) => {
                let path = &site.pages[j].doc.path;
                let mut d = Diagnostic::new(
                    Place::at(path, *line, 1),
                    format!("front matter: `card: {expr}`: {}", e.message),
                )
                .with_snippet(format!("card: {expr}"));
                if let Some(hint) = e.hint {
                    d = d.with_hint(hint);
                }
                return Err(d.into());
            }
        },
    };
    Ok(Card {
        lang: lang.clone(),
        title: front.title.clone(),
        site: hooks.config.language(lang).title.clone(),
        date: hooks.strings[lang].date(front.date.date()),
        headline,
    })
}

/// What a value is called when the front matter gives no label: the last segment of its
/// path, words apart (`dns.lookup.cold_over_cached | ratio` → `cold over cached`).
fn name_of(expr: &str) -> String {
    let reference = crate::reference::Reference::parse(expr).text;
    reference
        .rsplit('.')
        .next()
        .unwrap_or(reference)
        .replace(['_', '-'], " ")
}

/// The output path of the card of the page at `url`: `/a/` → `a/card.png`.
pub(super) fn path_of(url: &str) -> String {
    format!("{}{}", url.trim_start_matches('/'), card::FILE)
}

/// Every card's PNG at its output path, read from the cache or drawn, on all cores.
/// With a `store`, each card is written as it is drawn, so a build does not hold them all.
pub(super) fn draw(
    site: &Site,
    cards: &[Option<Card>],
    cache: &CardCache,
    store: Option<&dyn Store>,
) -> Result<Files, Diagnostics> {
    let drawn: Vec<Result<File, Diagnostic>> = cards
        .par_iter()
        .enumerate()
        .filter_map(|(i, card)| card.as_ref().map(|c| (i, c)))
        .map(|(i, card)| {
            let page = &site.pages[i];
            cache
                .png(card)
                .map_err(|e| {
                    Diagnostic::new(
                        Place::file(&page.doc.path),
                        format!("the social card could not be drawn: {e}"),
                    )
                    .with_hint("set `[cards] enabled = false` in site.toml to build without cards, and report this")
                })
                .and_then(|png| {
                    let path = path_of(&page.url);
                    let kept = output::place(store, &path, png)?;
                    Ok((path, kept))
                })
        })
        .collect();
    Diagnostics::gather(drawn)
}

impl Session {
    /// The session's card cache, saved in the configuration's cache folder.
    pub(super) fn card_cache(&mut self, config: &crate::config::SiteConfig) -> Arc<CardCache> {
        let dir = config.cache_dir().join("cards");
        self.memo
            .cards
            .get_or(dir.clone(), || Arc::new(CardCache::in_dir(&dir)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_a_label_is_named_by_its_last_segment() {
        assert_eq!(
            name_of("dns.lookup.cold_over_cached | ratio"),
            "cold over cached"
        );
        assert_eq!(name_of("tls-price.resumed-share"), "resumed share");
    }

    #[test]
    fn a_card_sits_next_to_its_page() {
        assert_eq!(path_of("/a/"), "a/card.png");
        assert_eq!(path_of("/en/a/"), "en/a/card.png");
    }
}

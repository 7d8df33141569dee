//! Social cards: the `og:image` of each article in each language, a 1200×630 PNG showing the
//! title, the site's name, the date and, when the front matter chooses one (`card:`), one
//! headline measured value. Laid out here as SVG (`layout`), rasterised by resvg with a
//! vendored font (`draw`), and kept between builds by what they show (`cache`), so a warm
//! build draws none of them again.

mod cache;
mod draw;
mod layout;

use measured_core::lang::Lang;

pub use cache::CardCache;

/// The size every platform accepts for a large summary card.
pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// The file name of a page's card, next to its `index.html`.
pub const FILE: &str = "card.png";

/// Bump when the layout or the font changes what a card with the same texts looks like.
const LAYOUT_VERSION: &str = "1";

/// What one card shows, every text as the page's language writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub lang: Lang,
    pub title: String,
    pub site: String,
    pub date: String,
    pub headline: Option<Headline>,
}

/// The measured value a card shows large, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headline {
    /// Formatted as the article formats it (`7,3×`, `1,2 ms`).
    pub value: String,
    pub label: String,
}

impl Card {
    /// What identifies the picture: every text it shows, its language and the layout's version.
    pub fn key(&self) -> String {
        let (value, label) = self
            .headline
            .as_ref()
            .map_or(("", ""), |h| (h.value.as_str(), h.label.as_str()));
        let input = [
            LAYOUT_VERSION,
            self.lang.code(),
            &self.title,
            &self.site,
            &self.date,
            value,
            label,
        ]
        .join("\0");
        blake3::hash(input.as_bytes()).to_hex()[..32].to_string()
    }

    /// The card's SVG.
    pub fn svg(&self) -> String {
        layout::svg(self)
    }

    /// The card as PNG.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        draw::png(&self.svg())
    }

    /// The text alternative of the picture (`og:image:alt`): what it says, in reading order;
    /// `fill` puts the title, label and value into the language's `card_alt` sentence.
    pub fn alt(&self, fill: impl Fn(&[(&str, &str)]) -> String) -> String {
        match &self.headline {
            Some(h) => fill(&[
                ("title", &self.title),
                ("label", &h.label),
                ("value", &h.value),
            ]),
            None => self.title.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(title: &str, headline: bool) -> Card {
        Card {
            lang: Lang::parse("vi").unwrap(),
            title: title.into(),
            site: "Đo thật".into(),
            date: "4 tháng 11, 2026".into(),
            headline: headline.then(|| Headline {
                value: "7,3×".into(),
                label: "phân giải cold so với có cache".into(),
            }),
        }
    }

    #[test]
    fn a_card_is_a_png_of_the_size_platforms_accept() {
        for c in [
            card("DNS trước cái bắt tay <&>", true),
            card("Ghép nối", false),
        ] {
            let png = c.png().unwrap();
            let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
            assert_eq!((pixmap.width(), pixmap.height()), (WIDTH, HEIGHT));
        }
    }

    #[test]
    fn the_key_changes_with_every_text_the_card_shows() {
        let base = card("A", true);
        let mut keys = vec![base.key()];
        let mut c = base.clone();
        c.title = "B".into();
        keys.push(c.key());
        let mut c = base.clone();
        c.date = "5 tháng 11, 2026".into();
        keys.push(c.key());
        let mut c = base.clone();
        c.headline.as_mut().unwrap().value = "7,4×".into();
        keys.push(c.key());
        let mut c = base.clone();
        c.headline.as_mut().unwrap().label = "x".into();
        keys.push(c.key());
        let mut c = base.clone();
        c.lang = Lang::parse("en").unwrap();
        keys.push(c.key());
        keys.push(card("A", false).key());
        let distinct: std::collections::BTreeSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len());
        assert_eq!(base.key(), card("A", true).key());
    }

    #[test]
    fn the_alternative_text_says_what_the_card_shows() {
        let fill = |vars: &[(&str, &str)]| {
            let text: Vec<String> = vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
            text.join(";")
        };
        assert_eq!(
            card("T", true).alt(fill),
            "title=T;label=phân giải cold so với có cache;value=7,3×"
        );
        assert_eq!(card("T", false).alt(fill), "T");
    }
}

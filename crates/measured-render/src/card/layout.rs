//! A card's layout: its texts measured with the font's glyph advances, the title wrapped into
//! the lines that fit (smaller type for a long title, an ellipsis past the last line), and the
//! SVG that places them, every text escaped. Pure: no font database, no pixels.

use std::fmt::Write;

use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size};

use super::{Card, HEIGHT, WIDTH};

/// The regular and bold faces of the card's one font family.
pub(super) const REGULAR: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
pub(super) const BOLD: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans-Bold.ttf");
pub(super) const FAMILY: &str = "DejaVu Sans";

/// Left and right margin.
const MARGIN: f32 = 80.0;
/// The title's sizes, largest first: a title takes the largest at which it fits.
const TITLE_SIZES: [f32; 3] = [64.0, 56.0, 48.0];
/// Where the title's first baseline is.
const TITLE_TOP: f32 = 200.0;
const SMALL: f32 = 30.0;
const VALUE_SIZE: f32 = 88.0;
const BACKGROUND: &str = "#0f1b2d";
const ACCENT: &str = "#f5b942";
const TEXT: &str = "#ffffff";
const MUTED: &str = "#b8c4d6";

/// Which face a text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Face {
    Regular,
    Bold,
}

/// The width of `text` at `size` px in `face` (advances only: the font has no kerning that
/// changes a line's width by more than the margin allows for).
pub(super) fn width(text: &str, size: f32, face: Face) -> f32 {
    let bytes = match face {
        Face::Regular => REGULAR,
        Face::Bold => BOLD,
    };
    let font = skrifa::FontRef::new(bytes).expect("the vendored font parses");
    let charmap = font.charmap();
    let metrics = font.glyph_metrics(Size::new(size), LocationRef::default());
    let missing = size * 0.6;
    text.chars()
        .map(|c| {
            charmap
                .map(c)
                .and_then(|g| metrics.advance_width(g))
                .unwrap_or(missing)
        })
        .sum()
}

/// `text` broken into lines no wider than `max` at `size`: at spaces, and inside a word only
/// when the word alone is wider than a line. At most `lines` lines; the last one ends in `…`
/// when the text does not fit (the `bool`).
pub(super) fn wrap(
    text: &str,
    size: f32,
    face: Face,
    max: f32,
    lines: usize,
) -> (Vec<String>, bool) {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&candidate, size, face) <= max {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            out.push(std::mem::take(&mut line));
        }
        // A word wider than a line is cut where it stops fitting.
        for c in word.chars() {
            line.push(c);
            if width(&line, size, face) > max {
                line.pop();
                out.push(std::mem::replace(&mut line, c.to_string()));
            }
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    if out.len() <= lines {
        return (out, false);
    }
    out.truncate(lines);
    let last = out.last_mut().expect("at least one line");
    *last = ellipsized(last, size, face, max);
    (out, true)
}

/// `text` cut so that it and a final `…` fit in `max`.
pub(super) fn ellipsized(text: &str, size: f32, face: Face, max: f32) -> String {
    let mut t: String = text.trim_end().to_string();
    while !t.is_empty() && width(&format!("{t}…"), size, face) > max {
        t.pop();
        t = t.trim_end().to_string();
    }
    format!("{t}…")
}

/// The title in the largest size at which it fits in `lines` lines (else the smallest, cut).
fn title_lines(title: &str, lines: usize) -> (Vec<String>, f32) {
    let max = WIDTH as f32 - 2.0 * MARGIN;
    for size in TITLE_SIZES {
        let (wrapped, cut) = wrap(title, size, Face::Bold, max, lines);
        if !cut || size == TITLE_SIZES[TITLE_SIZES.len() - 1] {
            return (wrapped, size);
        }
    }
    unreachable!("the last size returns")
}

/// How a text is set.
#[derive(Debug, Clone, Copy)]
struct Style {
    size: f32,
    face: Face,
    fill: &'static str,
}

const SITE: Style = Style {
    size: SMALL,
    face: Face::Bold,
    fill: ACCENT,
};
const DATE: Style = Style {
    size: SMALL,
    face: Face::Regular,
    fill: MUTED,
};
const VALUE: Style = Style {
    size: VALUE_SIZE,
    face: Face::Bold,
    fill: ACCENT,
};
const LABEL: Style = DATE;

/// A line of text at `(x, y)`, anchored at its `start` or `end`, escaped for XML.
fn text(svg: &mut String, (x, y): (f32, f32), style: Style, anchor: &str, s: &str) {
    let Style { size, face, fill } = style;
    let weight = match face {
        Face::Regular => "normal",
        Face::Bold => "bold",
    };
    let _ = writeln!(
        svg,
        r#"<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{}</text>"#,
        xml_text(s)
    );
}

/// `s` as XML character data: markup characters escaped, and the control characters XML 1.0
/// cannot hold dropped.
pub(super) fn xml_text(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect();
    measured_core::html::escape(&kept)
}

/// The SVG of `card`: the site's name and the date at the top, the title, and the headline
/// value with its label at the foot (the title gets the foot's room when there is none).
pub(super) fn svg(card: &Card) -> String {
    let (w, h) = (WIDTH as f32, HEIGHT as f32);
    let max = w - 2.0 * MARGIN;
    let mut s = String::with_capacity(2048);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FAMILY}">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="{BACKGROUND}"/>"#);
    let _ = writeln!(s, r#"<rect width="{w}" height="12" fill="{ACCENT}"/>"#);
    let date_width = width(&card.date, DATE.size, DATE.face);
    let site = fitted(&card.site, SITE, max - date_width - 40.0);
    text(&mut s, (MARGIN, 100.0), SITE, "start", &site);
    text(&mut s, (w - MARGIN, 100.0), DATE, "end", &card.date);
    let lines = if card.headline.is_some() { 3 } else { 5 };
    let (lines, size) = title_lines(&card.title, lines);
    let title = Style {
        size,
        face: Face::Bold,
        fill: TEXT,
    };
    for (n, line) in lines.iter().enumerate() {
        let y = TITLE_TOP + n as f32 * size * 1.2;
        text(&mut s, (MARGIN, y), title, "start", line);
    }
    if let Some(headline) = &card.headline {
        let value = fitted(&headline.value, VALUE, max);
        text(&mut s, (MARGIN, h - 110.0), VALUE, "start", &value);
        let label = fitted(&headline.label, LABEL, max);
        text(&mut s, (MARGIN, h - 60.0), LABEL, "start", &label);
    }
    s.push_str("</svg>\n");
    s
}

/// `text` itself when it fits in `max` in `style`, else cut with an ellipsis.
fn fitted(text: &str, style: Style, max: f32) -> String {
    if width(text, style.size, style.face) <= max {
        text.to_string()
    } else {
        ellipsized(text, style.size, style.face, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: f32 = WIDTH as f32 - 2.0 * MARGIN;

    #[test]
    fn both_faces_have_every_vietnamese_letter_with_every_tone() {
        use unicode_normalization::UnicodeNormalization;
        let bases = "aăâeêioôơuưyAĂÂEÊIOÔƠUƯY";
        let tones = ["", "\u{300}", "\u{301}", "\u{303}", "\u{309}", "\u{323}"];
        let letters: Vec<char> = bases
            .chars()
            .flat_map(|b| tones.iter().map(move |t| format!("{b}{t}")))
            .flat_map(|s| s.nfc().collect::<Vec<char>>())
            .chain("đĐ".chars())
            .collect();
        assert_eq!(
            letters.len(),
            24 * 6 + 2,
            "each letter composes to one character"
        );
        for bytes in [REGULAR, BOLD] {
            let font = skrifa::FontRef::new(bytes).unwrap();
            let missing: String = letters
                .iter()
                .filter(|&&c| font.charmap().map(c).is_none())
                .collect();
            assert!(missing.is_empty(), "no glyph for {missing}");
        }
    }

    #[test]
    fn bold_is_wider_and_width_adds_up() {
        let a = width("Kết nối", 60.0, Face::Regular);
        assert!(width("Kết nối", 60.0, Face::Bold) > a);
        let ab = width("Kết nốiKết nối", 60.0, Face::Regular);
        assert!((ab - 2.0 * a).abs() < 0.01, "{ab} vs {a}");
        assert!((width("Kết nối", 30.0, Face::Regular) * 2.0 - a).abs() < 0.01);
    }

    #[test]
    fn long_titles_wrap_at_spaces_within_the_width() {
        let title = "DNS trước cái bắt tay: phân giải tên tốn bao nhiêu của một request?";
        let (lines, cut) = wrap(title, 64.0, Face::Bold, MAX, 3);
        assert!(!cut);
        assert!(lines.len() > 1, "{lines:?}");
        assert_eq!(lines.join(" "), title);
        assert!(lines.iter().all(|l| width(l, 64.0, Face::Bold) <= MAX));
    }

    #[test]
    fn a_title_past_its_lines_ends_in_an_ellipsis_and_a_long_word_is_cut() {
        let title = "một ".repeat(80);
        let (lines, cut) = wrap(&title, 64.0, Face::Bold, MAX, 3);
        assert!(cut);
        assert_eq!(lines.len(), 3);
        assert!(lines[2].ends_with('…'));
        assert!(lines.iter().all(|l| width(l, 64.0, Face::Bold) <= MAX));
        let word = "x".repeat(200);
        let (lines, _) = wrap(&word, 64.0, Face::Bold, MAX, 10);
        assert!(lines.len() > 1);
        assert_eq!(lines.concat(), word);
    }

    #[test]
    fn a_longer_title_gets_smaller_type() {
        let short = title_lines("TCP", 3);
        assert_eq!(short.1, TITLE_SIZES[0]);
        let long = title_lines(&"tốn bao nhiêu ".repeat(9), 3);
        assert!(long.1 < TITLE_SIZES[0], "{long:?}");
    }

    #[test]
    fn texts_are_escaped_and_control_characters_dropped() {
        let card = Card {
            lang: measured_core::lang::Lang::parse("en").unwrap(),
            title: "a < b && </text><script>".into(),
            site: "S&P".into(),
            date: "1\u{1} Jan".into(),
            headline: None,
        };
        let svg = svg(&card);
        assert!(
            svg.contains("a &lt; b &amp;&amp; &lt;/text&gt;&lt;script&gt;"),
            "{svg}"
        );
        assert!(
            svg.contains(">S&amp;P<") && svg.contains(">1 Jan<"),
            "{svg}"
        );
        roxmltree::Document::parse(&svg).expect("the card is well-formed XML");
    }
}

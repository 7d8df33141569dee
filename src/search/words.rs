//! Words as the search index and the search box see them: split, lower-cased, and folded
//! (accents dropped, `đ` as `d`), the same rules as `static/search.js` applies to a query.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Words longer than this (hashes, long identifiers) are not indexed.
pub const MAX_LEN: usize = 40;

/// Whether `c` belongs to a word: a letter, digit or combining mark (so text in decomposed
/// form keeps its words whole). `search.js` splits on `[^\p{Alphabetic}\p{N}\p{M}]`.
pub fn is_word_char(c: char) -> bool {
    match c {
        '0'..='9' | 'a'..='z' | 'A'..='Z' => true,
        '\0'..='\x7f' => false,
        // Latin letters with accents (Vietnamese is all in these ranges): letters, without a
        // look-up in Unicode's tables.
        '\u{c0}'..='\u{24f}' if c != '×' && c != '÷' => true,
        '\u{1e00}'..='\u{1eff}' => true,
        _ => c.is_alphanumeric() || is_combining_mark(c),
    }
}

/// `char::is_whitespace`, answered without a table look-up for the letters of Latin, Greek,
/// Cyrillic and the other scripts up to U+1FFF (none of which is whitespace but U+1680).
pub fn is_space(c: char) -> bool {
    match c {
        '\0'..='\x7f' => c.is_ascii_whitespace() || c == '\x0b',
        '\u{100}'..='\u{167f}' | '\u{1681}'..='\u{1fff}' => false,
        _ => c.is_whitespace(),
    }
}

/// The words of `text`, in order, as written.
pub fn split(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty() && w.chars().count() <= MAX_LEN)
}

/// A word as spelled, lower-cased and composed (NFC): `Kết` → `kết`. Pages whose text has
/// the query's spelling rank first.
pub fn spelling(word: &str) -> String {
    if word.is_ascii() {
        word.to_ascii_lowercase()
    } else {
        word.to_lowercase().nfc().collect()
    }
}

/// A spelling folded to the key it is indexed under: accents dropped, `đ` as `d` (it has no
/// decomposition): `kết` → `ket`, `đường` → `duong`.
pub fn fold(spelling: &str) -> String {
    if spelling.is_ascii() {
        return spelling.to_string();
    }
    spelling
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .map(|c| if c == 'đ' { 'd' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_anything_but_letters_digits_and_marks() {
        let words: Vec<&str> = split("Kết nối TCP_NODELAY, 1.5 lần; e\u{301}").collect();
        assert_eq!(
            words,
            ["Kết", "nối", "TCP", "NODELAY", "1", "5", "lần", "e\u{301}"]
        );
    }

    #[test]
    fn the_short_cuts_agree_with_unicode() {
        for c in (0..0x3_0000).filter_map(char::from_u32) {
            assert_eq!(
                is_word_char(c),
                c.is_alphanumeric() || is_combining_mark(c),
                "{c:?}"
            );
            assert_eq!(is_space(c), c.is_whitespace(), "{c:?}");
        }
    }

    #[test]
    fn very_long_words_are_left_out() {
        let long = "a".repeat(MAX_LEN + 1);
        assert_eq!(
            split(&format!("x {long} y")).collect::<Vec<_>>(),
            ["x", "y"]
        );
    }

    #[test]
    fn spellings_are_lower_case_and_composed() {
        assert_eq!(spelling("Kết"), "kết");
        assert_eq!(spelling("ke\u{302}\u{301}t"), "kết");
        assert_eq!(spelling("TCP"), "tcp");
    }

    #[test]
    fn folding_drops_accents_and_spells_d_for_đ() {
        assert_eq!(fold("kết"), "ket");
        assert_eq!(fold("nối"), "noi");
        assert_eq!(fold("đường"), "duong");
        assert_eq!(fold(&spelling("Đo")), "do");
        assert_eq!(fold("naïve"), "naive");
        assert_eq!(fold("tcp"), "tcp");
    }
}

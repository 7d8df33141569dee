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

/// The words of `text`, in order, as written.
pub fn split(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty() && w.chars().count() <= MAX_LEN)
}

/// A word as spelled, lower-cased and composed (NFC): `Kết` → `kết`. Pages whose text has
/// the query's spelling rank first.
#[cfg(test)]
pub fn spelling(word: &str) -> String {
    let mut out = String::new();
    push_spelling(&mut out, word, &mut String::new());
    out
}

/// Appends the spelling of `word` ([`spelling`]) to `out`; `scratch` is room to lower-case a
/// word that is not ASCII in (text is mostly composed already, and then is not composed again).
pub fn push_spelling(out: &mut String, word: &str, scratch: &mut String) {
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        return;
    }
    scratch.clear();
    scratch.extend(word.chars().flat_map(char::to_lowercase));
    if unicode_normalization::is_nfc_quick(scratch.chars())
        == unicode_normalization::IsNormalized::Yes
    {
        out.push_str(scratch);
    } else {
        out.extend(scratch.nfc());
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

//! `Lang`: a language of the site as a type, with how it writes numbers and where its pages live.

use std::fmt;
use std::sync::Arc;

/// A language code from `site.toml` (`vi`, `en`, …): lowercase ASCII letters, 2 to 3 of them.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(into = "String")]
pub struct Lang(Arc<str>);

impl Lang {
    pub fn parse(code: &str) -> Result<Lang, String> {
        let ok = (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase());
        if ok {
            Ok(Lang(Arc::from(code)))
        } else {
            Err(format!(
                "`{code}` is not a language code (2 or 3 lowercase letters, like `vi` or `en`)"
            ))
        }
    }

    pub fn code(&self) -> &str {
        &self.0
    }

    /// The decimal sign and the thousands separator of this language.
    pub fn number_marks(&self) -> NumberMarks {
        match self.code() {
            "vi" | "de" | "id" | "es" | "it" | "nl" | "pt" | "tr" | "da" => NumberMarks {
                decimal: ',',
                group: '.',
            },
            "fr" | "ru" | "pl" | "cs" | "sv" | "fi" | "nb" | "uk" => NumberMarks {
                decimal: ',',
                group: '\u{202f}',
            },
            _ => NumberMarks {
                decimal: '.',
                group: ',',
            },
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Lang({})", self.0)
    }
}

impl From<Lang> for String {
    fn from(l: Lang) -> String {
        l.0.to_string()
    }
}

/// How a language writes numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberMarks {
    pub decimal: char,
    pub group: char,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_and_rejects_others() {
        assert_eq!(Lang::parse("vi").unwrap().code(), "vi");
        assert!(Lang::parse("VI").is_err());
        assert!(Lang::parse("english").is_err());
        assert!(Lang::parse("").is_err());
    }

    #[test]
    fn vietnamese_and_english_swap_marks() {
        let vi = Lang::parse("vi").unwrap().number_marks();
        let en = Lang::parse("en").unwrap().number_marks();
        assert_eq!((vi.decimal, vi.group), (',', '.'));
        assert_eq!((en.decimal, en.group), ('.', ','));
    }
}

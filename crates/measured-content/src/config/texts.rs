//! The texts of `site.toml` that every page and feed carries (the author, each language's
//! title, description, footer and menu names) hold no character a page or feed cannot carry:
//! a TOML escape (`"\u0000"`, `"\u001b"`) writes one, and a feed holding it would not parse.

use std::collections::BTreeMap;
use std::path::Path;

use super::RawLanguage;
use measured_core::diag::{Diagnostic, Diagnostics};

/// Each such text of `site.toml` (at `path`, whose text is `text`), checked; errors at its line.
pub(super) fn check(
    path: &Path,
    text: &str,
    author: Option<&str>,
    languages: &BTreeMap<String, RawLanguage>,
    diags: &mut Diagnostics,
) {
    let mut found = |table: Option<&str>, key: &str, value: &str| {
        let Some(c) = value
            .chars()
            .find(|&c| measured_core::html::forbidden_char(c))
        else {
            return;
        };
        let message = format!(
            "site.toml: `{key}` holds the control character U+{:04X}, which no page or feed can carry",
            u32::from(c)
        );
        let d: Diagnostic = match table {
            Some(table) => super::paths::at_table_key(path, text, table, key, message),
            None => super::at_key(path, text, key, message),
        };
        diags.push(
            d.with_hint("remove it: an escape in a TOML string (\\u0000, \\u001b) writes one"),
        );
    };
    if let Some(author) = author {
        found(None, "author", author);
    }
    for (code, l) in languages {
        let table = format!("languages.{code}");
        found(Some(&table), "title", &l.title);
        for (key, value) in [("description", &l.description), ("footer", &l.footer)] {
            if let Some(value) = value {
                found(Some(&table), key, value);
            }
        }
        for item in l.menu.iter().flatten() {
            found(Some(&table), "name", &item.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn a_control_character_in_the_sites_texts_is_an_error_at_its_line() {
        let text = "base_url = \"https://e.org\"\nauthor = \"A\\u0000\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Đo\"\n[languages.en]\ntitle = \"M\\u001b[31m\"\n";
        let e = crate::config::parse(Path::new("/s"), Path::new("/s/site.toml"), text)
            .unwrap_err()
            .to_string();
        for want in [
            "site.toml:2:1: error: site.toml: `author` holds the control character U+0000",
            "site.toml:7:1: error: site.toml: `title` holds the control character U+001B",
        ] {
            assert!(e.contains(want), "{want}\n{e}");
        }
    }
}

//! UI strings: one translation file per language (`templates/i18n/<lang>.toml`), checked to have
//! the same keys as the default language's, plus dates and counts written the language's way.

use std::collections::BTreeMap;

use jiff::civil::Date;

use crate::config::SiteConfig;
use crate::theme::Theme;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

/// The UI strings of one language.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Strings {
    #[serde(skip)]
    pub lang: Lang,
    #[serde(flatten)]
    pub map: BTreeMap<String, String>,
    #[serde(skip)]
    months: Vec<String>,
}

#[derive(serde::Deserialize)]
struct RawStrings {
    months: Vec<String>,
    #[serde(flatten)]
    strings: BTreeMap<String, String>,
}

impl Strings {
    /// The string for `key` (the key itself when missing; `load` has checked they all exist).
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.map.get(key).map_or(key, String::as_str)
    }

    /// `date_format` with `{day}`, `{month}` (number), `{month_name}` and `{year}` filled in.
    pub fn date(&self, d: Date) -> String {
        let month = usize::try_from(d.month()).unwrap_or(1);
        self.get("date_format")
            .replace("{day}", &d.day().to_string())
            .replace(
                "{month_name}",
                self.months.get(month - 1).map_or("", String::as_str),
            )
            .replace("{month}", &month.to_string())
            .replace("{year}", &d.year().to_string())
    }

    /// A pattern string with `{n}` replaced.
    pub fn count(&self, key: &str, n: usize) -> String {
        self.get(key).replace("{n}", &n.to_string())
    }

    /// A pattern string with `{name}` placeholders replaced.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut s = self.get(key).to_string();
        for (k, v) in values {
            s = s.replace(&format!("{{{k}}}"), v);
        }
        s
    }
}

/// Loads the strings of every language of the site from the theme.
pub fn load(config: &SiteConfig, theme: &Theme) -> Result<BTreeMap<Lang, Strings>, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut all = BTreeMap::new();
    for lang in config.langs() {
        let name = format!("i18n/{}.toml", lang.code());
        let Some(file) = theme.templates.get(&name) else {
            diags.push(
                Diagnostic::new(
                    Place::file(format!("templates/{name}")),
                    format!("there are no UI strings for `{lang}`"),
                )
                .with_hint(format!(
                    "copy templates/i18n/en.toml to templates/{name} and translate it"
                )),
            );
            continue;
        };
        match toml::from_str::<RawStrings>(&file.text) {
            Ok(raw) => {
                if raw.months.len() != 12 {
                    diags.push(Diagnostic::new(
                        Place::file(&file.origin),
                        "`months` must list 12 month names",
                    ));
                }
                all.insert(
                    lang.clone(),
                    Strings {
                        lang: lang.clone(),
                        map: raw.strings,
                        months: raw.months,
                    },
                );
            }
            Err(e) => {
                let place = match e.span() {
                    Some(s) => {
                        let (l, c) = measured_core::diag::line_col(&file.text, s.start);
                        Place::at(&file.origin, l, c)
                    }
                    None => Place::file(&file.origin),
                };
                diags.push(Diagnostic::new(
                    place,
                    format!("UI strings: {}", e.message()),
                ));
            }
        }
    }
    if let Some(reference) = all.get(&config.default_lang) {
        for (lang, strings) in &all {
            let origin = &theme.templates[&format!("i18n/{}.toml", lang.code())].origin;
            for key in reference
                .map
                .keys()
                .filter(|k| !strings.map.contains_key(*k))
            {
                diags.push(
                    Diagnostic::new(Place::file(origin), format!("UI string `{key}` is missing"))
                        .with_hint(format!(
                            "translate `{key}` from i18n/{}.toml",
                            config.default_lang
                        )),
                );
            }
            for key in strings
                .map
                .keys()
                .filter(|k| !reference.map.contains_key(*k))
            {
                diags.push(
                    Diagnostic::new(
                        Place::file(origin),
                        format!("UI string `{key}` is not in the default language's file"),
                    )
                    .with_hint("remove it, or add it to every language"),
                );
            }
        }
    }
    diags.into_result(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (SiteConfig, Theme) {
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        let dir = tempfile::tempdir().unwrap();
        let config = crate::config::parse(dir.path(), &dir.path().join("site.toml"), text).unwrap();
        let theme = crate::theme::load(dir.path()).unwrap();
        (config, theme)
    }

    #[test]
    fn builtin_strings_cover_both_languages_and_format_dates() {
        let (config, theme) = site();
        let all = load(&config, &theme).unwrap();
        let d = jiff::civil::date(2026, 11, 29);
        assert_eq!(all[config.lang("vi").unwrap()].date(d), "29 tháng 11, 2026");
        assert_eq!(all[config.lang("en").unwrap()].date(d), "November 29, 2026");
    }

    #[test]
    fn a_missing_key_is_named() {
        let (config, mut theme) = site();
        let en = theme.templates.get_mut("i18n/en.toml").unwrap();
        en.text = en
            .text
            .lines()
            .filter(|l| !l.starts_with("home ="))
            .collect::<Vec<_>>()
            .join("\n");
        let e = load(&config, &theme).unwrap_err().to_string();
        assert!(e.contains("UI string `home` is missing"), "{e}");
    }
}

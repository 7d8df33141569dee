//! Syntax highlighting: one read-only `SyntaxSet` loaded once, code → HTML with CSS classes
//! (never inline colours), and a cache of highlighted blocks keyed by a hash of language and code
//! that persists across builds, so an unchanged block costs no syntect work.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use syntect::highlighting::ThemeSet;
use syntect::html::{ClassStyle, ClassedHTMLGenerator, css_for_theme_with_class_style};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(SyntaxSet::load_defaults_newlines);
static THEMES: LazyLock<ThemeSet> = LazyLock::new(ThemeSet::load_defaults);

const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "z-" };

/// Version of the cached HTML's shape: bump when `highlight_uncached` changes its output.
const CACHE_VERSION: &str = "1";

/// Highlighted blocks by hash. Shared by the rayon workers of one build, saved for the next.
#[derive(Debug, Default)]
pub struct Highlighter {
    cache: Mutex<HashMap<String, String>>,
    file: Option<PathBuf>,
    /// Blocks highlighted by syntect in this build (cache misses).
    misses: std::sync::atomic::AtomicUsize,
}

impl Highlighter {
    /// A highlighter whose cache lives in `file` (loaded now if it exists, saved by `save`).
    pub fn with_cache_file(file: &Path) -> Self {
        let cache = std::fs::read(file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<HashMap<String, String>>(&bytes).ok())
            .unwrap_or_default();
        Highlighter {
            cache: Mutex::new(cache),
            file: Some(file.to_path_buf()),
            misses: Default::default(),
        }
    }

    /// Highlights `code` in language `token` (a fence's info word), as the inside of a `<code>`.
    pub fn highlight(&self, token: &str, code: &str) -> String {
        let key = blake3::hash(format!("{CACHE_VERSION}\0{token}\0{code}").as_bytes())
            .to_hex()
            .to_string();
        if let Some(html) = self.cache.lock().expect("highlight cache").get(&key) {
            return html.clone();
        }
        self.misses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let html = highlight_uncached(token, code);
        self.cache
            .lock()
            .expect("highlight cache")
            .insert(key, html.clone());
        html
    }

    /// How many blocks syntect highlighted in this build.
    pub fn misses(&self) -> usize {
        self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes the cache back when this build highlighted something new.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        if self.misses() == 0 && file.exists() {
            return Ok(());
        }
        let cache = self.cache.lock().expect("highlight cache");
        let bytes = serde_json::to_vec(&*cache).map_err(std::io::Error::other)?;
        crate::write::atomic_file(file, &bytes)
    }
}

/// Whether syntect knows the language `token`.
pub fn knows(token: &str) -> bool {
    syntax_for(token).is_some()
}

fn syntax_for(token: &str) -> Option<&'static syntect::parsing::SyntaxReference> {
    let token = match token {
        "sh" | "shell" | "console" | "zsh" => "bash",
        "golang" => "go",
        "jsonc" | "json5" => "json",
        "yml" => "yaml",
        "proto" | "protobuf" => "c",
        other => other,
    };
    SYNTAXES.find_syntax_by_token(token)
}

fn highlight_uncached(token: &str, code: &str) -> String {
    let Some(syntax) = syntax_for(token) else {
        return escape(code);
    };
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, &SYNTAXES, CLASS_STYLE);
    for line in LinesWithEndings::from(code) {
        if generator
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return escape(code);
        }
    }
    generator.finalize()
}

fn escape(code: &str) -> String {
    crate::html::escape_body(code)
}

/// The stylesheet for highlighted code: the light theme, and the dark one under
/// `prefers-color-scheme: dark` and `[data-theme="dark"]` (the reader's toggle).
pub fn stylesheet(light: &str, dark: &str) -> Result<String, String> {
    let theme = |name: &str| {
        THEMES.themes.get(name).ok_or_else(|| {
            let names: Vec<&str> = THEMES.themes.keys().map(String::as_str).collect();
            format!(
                "unknown highlight theme `{name}`; the themes are: {}",
                names.join(", ")
            )
        })
    };
    let light_css =
        css_for_theme_with_class_style(theme(light)?, CLASS_STYLE).map_err(|e| e.to_string())?;
    let dark_css =
        css_for_theme_with_class_style(theme(dark)?, CLASS_STYLE).map_err(|e| e.to_string())?;
    let dark_scoped = scope_css(&dark_css, ":root[data-theme=\"dark\"] ");
    let dark_auto = scope_css(&dark_css, ":root:not([data-theme=\"light\"]) ");
    Ok(format!(
        "/* Code highlighting: {light} (light), {dark} (dark). Generated by measured. */\n{light_css}\n{dark_scoped}\n@media (prefers-color-scheme: dark) {{\n{dark_auto}\n}}\n"
    ))
}

/// Prefixes every selector of a flat stylesheet (syntect's has no nesting).
fn scope_css(css: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(css.len() * 2);
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let (selectors, after) = rest.split_at(open);
        let close = after.find('}').map_or(after.len(), |i| i + 1);
        let scoped: Vec<String> = selectors
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && !s.starts_with("/*"))
            .map(|s| {
                let s = s.rsplit("*/").next().unwrap_or(s).trim();
                format!("{prefix}{s}")
            })
            .collect();
        out.push_str(&scoped.join(", "));
        out.push_str(&after[..close]);
        out.push('\n');
        rest = &after[close..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_is_highlighted_with_classes_not_colours() {
        let h = Highlighter::default();
        let html = h.highlight("rust", "fn main() { let x = 1; }\n");
        assert!(html.contains("class=\"z-"), "{html}");
        assert!(!html.contains("style="), "{html}");
        assert!(html.contains("main"));
    }

    #[test]
    fn unknown_language_is_escaped_plain_text() {
        let h = Highlighter::default();
        assert_eq!(h.highlight("nolang", "a < b\n"), "a &lt; b\n");
    }

    #[test]
    fn a_cached_block_is_not_highlighted_again() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("hl.json");
        let first = Highlighter::with_cache_file(&file);
        let a = first.highlight("rust", "let a = 1;\n");
        assert_eq!(first.misses(), 1);
        first.highlight("rust", "let a = 1;\n");
        assert_eq!(first.misses(), 1);
        first.save().unwrap();
        let second = Highlighter::with_cache_file(&file);
        assert_eq!(second.highlight("rust", "let a = 1;\n"), a);
        assert_eq!(second.misses(), 0);
    }

    #[test]
    fn stylesheet_has_both_schemes() {
        let css = stylesheet("InspiredGitHub", "base16-ocean.dark").unwrap();
        assert!(css.contains("prefers-color-scheme: dark"));
        assert!(css.contains(":root[data-theme=\"dark\"] .z-"));
        assert!(
            stylesheet("nope", "base16-ocean.dark")
                .unwrap_err()
                .contains("unknown highlight theme `nope`")
        );
    }
}

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
    let html = generator.finalize();
    // Every span also carries the language's own scope atom (`z-rust`), which no theme styles:
    // dropping it keeps pages light.
    match syntax.scope.to_string().rsplit('.').next() {
        Some(lang) if !lang.is_empty() => html
            .replace(&format!(" z-{lang}\""), "\"")
            .replace(&format!(" z-{lang} "), " "),
        _ => html,
    }
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
    let (light_theme, dark_theme) = (theme(light)?, theme(dark)?);
    let light_bg = background(light_theme, [255, 255, 255]);
    let dark_bg = background(dark_theme, [24, 30, 38]);
    let light_css = readable(
        &css_for_theme_with_class_style(light_theme, CLASS_STYLE).map_err(|e| e.to_string())?,
        light_bg,
    );
    let dark_css = readable(
        &css_for_theme_with_class_style(dark_theme, CLASS_STYLE).map_err(|e| e.to_string())?,
        dark_bg,
    );
    let blocks = "pre.code,pre.output";
    let light_block = format!(
        "{blocks}{{background:{};color:{}}}",
        hex(light_bg),
        hex(foreground(light_theme, light_bg))
    );
    let dark_block = format!(
        "{blocks}{{background:{};color:{}}}",
        hex(dark_bg),
        hex(foreground(dark_theme, dark_bg))
    );
    let dark_scoped = scope_css(
        &format!("{dark_block}{dark_css}"),
        ":root[data-theme=\"dark\"] ",
    );
    let dark_auto = scope_css(
        &format!("{dark_block}{dark_css}"),
        ":root:not([data-theme=\"light\"]) ",
    );
    Ok(format!(
        "/* Code highlighting: {light} (light), {dark} (dark); colours adjusted to a contrast of at least 4.5:1. Generated by measured. */\n{light_block}{light_css}\n{dark_scoped}\n@media (prefers-color-scheme: dark){{{dark_auto}}}\n"
    ))
}

type Rgb = [u8; 3];

fn background(theme: &syntect::highlighting::Theme, fallback: Rgb) -> Rgb {
    theme
        .settings
        .background
        .map_or(fallback, |c| [c.r, c.g, c.b])
}

fn foreground(theme: &syntect::highlighting::Theme, bg: Rgb) -> Rgb {
    let fg = theme
        .settings
        .foreground
        .map_or([128, 128, 128], |c| [c.r, c.g, c.b]);
    legible(fg, bg)
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A theme's stylesheet, minified, with comments and the `.z-code` block rule dropped (the
/// blocks get their colours from [`stylesheet`]) and every colour made readable on `bg`.
fn readable(css: &str, bg: Rgb) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let selectors = strip_comments(&rest[..open]);
        let close = rest[open..].find('}').map_or(rest.len(), |i| open + i);
        let body = &rest[open + 1..close];
        rest = rest.get(close + 1..).unwrap_or("");
        let selectors: Vec<&str> = selectors
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if selectors.is_empty() || selectors == [".z-code"] {
            continue;
        }
        let decls: Vec<String> = body
            .split(';')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| match d.split_once(':') {
                Some(("color", v)) => parse_hex(v.trim()).map_or_else(
                    || d.to_string(),
                    |c| format!("color:{}", hex(legible(c, bg))),
                ),
                Some((k, v)) => format!("{}:{}", k.trim(), v.trim()),
                None => d.to_string(),
            })
            .collect();
        out.push_str(&selectors.join(","));
        out.push('{');
        out.push_str(&decls.join(";"));
        out.push('}');
    }
    out
}

fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out
}

fn parse_hex(v: &str) -> Option<Rgb> {
    let h = v.strip_prefix('#')?;
    if h.len() < 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(h.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.03928 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio of two colours.
fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `c`, moved towards black on a light background (white on a dark one) until it reads at
/// 4.5:1 or more.
fn legible(c: Rgb, bg: Rgb) -> Rgb {
    let target = if luminance(bg) > 0.5 {
        [0u8, 0, 0]
    } else {
        [255u8, 255, 255]
    };
    let mut out = c;
    for step in 0..=20 {
        let t = f64::from(step) / 20.0;
        let mix = |i: usize| (f64::from(c[i]) * (1.0 - t) + f64::from(target[i]) * t).round() as u8;
        out = [mix(0), mix(1), mix(2)];
        if contrast(out, bg) >= 4.6 {
            break;
        }
    }
    out
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
    fn every_colour_of_the_stylesheet_reads_at_4_5_to_1() {
        let css = stylesheet("InspiredGitHub", "base16-ocean.dark").unwrap();
        let (light, dark) = css.split_once("\n:root").unwrap();
        for (part, bg) in [
            (light, [255u8, 255, 255]),
            (
                dark,
                background(&THEMES.themes["base16-ocean.dark"], [0, 0, 0]),
            ),
        ] {
            let decls = part
                .split(['{', ';'])
                .filter_map(|d| d.strip_prefix("color:"));
            for c in decls.filter_map(|v| parse_hex(v.get(..7)?)) {
                assert!(
                    contrast(c, bg) >= 4.5,
                    "{} on {} is {:.2}",
                    hex(c),
                    hex(bg),
                    contrast(c, bg)
                );
            }
        }
        assert!(!css.contains("/*\n"), "minified");
    }

    #[test]
    fn spans_lose_the_language_class() {
        let html = Highlighter::default().highlight("rust", "fn main() {}\n");
        assert!(!html.contains("z-rust"), "{html}");
        assert!(html.contains("z-entity z-name z-function"), "{html}");
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

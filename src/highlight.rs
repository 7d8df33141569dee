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
const CACHE_VERSION: &str = "5";

/// Highlighted blocks by hash. Shared by the rayon workers of one build, saved for the next.
#[derive(Debug, Default)]
pub struct Highlighter {
    cache: Mutex<HashMap<String, String>>,
    file: Option<PathBuf>,
    /// Blocks highlighted by syntect since this highlighter was made (cache misses).
    misses: std::sync::atomic::AtomicUsize,
    /// `misses` when the cache was last saved: a session saves only after new misses.
    saved_misses: std::sync::atomic::AtomicUsize,
    /// Keys used since this highlighter was made (a build, or a whole `serve` session, whose
    /// reused pages still need theirs): only they are saved, so the cache does not grow forever.
    used: Mutex<std::collections::HashSet<String>>,
    /// The class sets the stylesheet styles (each compound selector of its rules): a span that
    /// matches none of them changes nothing on screen and is left out of the HTML.
    styled: Option<Styled>,
}

/// Compound selectors of the highlight stylesheet, and the themes they come from.
#[derive(Debug)]
struct Styled {
    themes: String,
    compounds: Vec<Vec<String>>,
}

impl Highlighter {
    /// A highlighter for the stylesheet of the `light` and `dark` themes, whose cache lives in
    /// `file` (loaded now if it exists, saved by `save`).
    pub fn with_cache_file(file: &Path, light: &str, dark: &str) -> Self {
        let cache = std::fs::read(file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<HashMap<String, String>>(&bytes).ok())
            .unwrap_or_default();
        Highlighter {
            cache: Mutex::new(cache),
            file: Some(file.to_path_buf()),
            misses: Default::default(),
            saved_misses: Default::default(),
            used: Default::default(),
            styled: styled_compounds(light, dark),
        }
    }

    /// Highlights `code` in language `token` (a fence's info word), as the inside of a `<code>`.
    pub fn highlight(&self, token: &str, code: &str) -> String {
        let themes = self.styled.as_ref().map_or("", |s| s.themes.as_str());
        let key = blake3::hash(format!("{CACHE_VERSION}\0{themes}\0{token}\0{code}").as_bytes())
            .to_hex()
            .to_string();
        self.used
            .lock()
            .expect("highlight cache")
            .insert(key.clone());
        if let Some(html) = self.cache.lock().expect("highlight cache").get(&key) {
            return html.clone();
        }
        self.misses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let html = highlight_uncached(token, code);
        let html = match &self.styled {
            Some(styled) => prune(&html, &styled.compounds),
            None => html,
        };
        self.cache
            .lock()
            .expect("highlight cache")
            .insert(key, html.clone());
        html
    }

    /// How many blocks syntect highlighted since this highlighter was made.
    pub fn misses(&self) -> usize {
        self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes the cache back when something new was highlighted since the last save (or the
    /// file holds blocks no longer used).
    pub fn save(&self) -> std::io::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let stale = self.cache.lock().expect("highlight cache").len()
            > self.used.lock().expect("highlight cache").len();
        let misses = self.misses();
        let saved = self
            .saved_misses
            .swap(misses, std::sync::atomic::Ordering::Relaxed);
        if misses == saved && file.exists() && !stale {
            return Ok(());
        }
        let used = self.used.lock().expect("highlight cache");
        let mut cache = self.cache.lock().expect("highlight cache");
        cache.retain(|k, _| used.contains(k));
        let bytes = serde_json::to_vec(&*cache).map_err(std::io::Error::other)?;
        crate::write::atomic_file(file, &bytes)
    }
}

fn styled_compounds(light: &str, dark: &str) -> Option<Styled> {
    let mut compounds: Vec<Vec<String>> = Vec::new();
    for name in [light, dark] {
        let css = css_for_theme_with_class_style(THEMES.themes.get(name)?, CLASS_STYLE).ok()?;
        let css = strip_comments(&css);
        for rule in css.split('}') {
            let Some((selectors, _)) = rule.split_once('{') else {
                continue;
            };
            for selector in selectors.split(',') {
                let parts: Vec<&str> = selector
                    .split_whitespace()
                    .filter(|c| c.starts_with('.'))
                    .collect();
                for (i, compound) in parts.iter().enumerate() {
                    let classes: Vec<String> = compound
                        .split('.')
                        .filter(|c| !c.is_empty())
                        .map(str::to_string)
                        .collect();
                    // The element a rule styles is its last compound; an ancestor compound of a
                    // single class (`.z-meta`) is context so generic that keeping every such span
                    // would keep them all: those rules (deeply nested JSON) are given up.
                    let styles = i + 1 == parts.len() || classes.len() > 1;
                    if styles && !compounds.contains(&classes) {
                        compounds.push(classes);
                    }
                }
            }
        }
    }
    Some(Styled {
        themes: format!("{light}\0{dark}"),
        compounds,
    })
}

/// Drops the spans of `html` whose classes match no compound selector, keeping their text.
fn prune(html: &str, compounds: &[Vec<String>]) -> String {
    let mut out = String::with_capacity(html.len());
    let mut kept: Vec<bool> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find('>').map_or(rest.len(), |e| e + 1);
        let tag = &rest[..end];
        if let Some(classes) = tag
            .strip_prefix("<span class=\"")
            .and_then(|t| t.strip_suffix("\">"))
        {
            let set: Vec<&str> = classes.split(' ').collect();
            let keep = compounds
                .iter()
                .any(|c| c.iter().all(|x| set.contains(&x.as_str())));
            kept.push(keep);
            if keep {
                out.push_str(tag);
            }
        } else if tag == "</span>" {
            if kept.pop().unwrap_or(true) {
                out.push_str(tag);
            }
        } else {
            out.push_str(tag);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
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
    let (light_fg, dark_fg) = (
        foreground(light_theme, light_bg),
        foreground(dark_theme, dark_bg),
    );
    let css_of = |t| css_for_theme_with_class_style(t, CLASS_STYLE).map_err(|e| e.to_string());
    let light_rules = readable(&css_of(light_theme)?, light_bg);
    let dark_rules = readable(&css_of(dark_theme)?, dark_bg);
    let pair = |l: Rgb, d: Rgb| format!("light-dark({},{})", hex(l), hex(d));
    let mut out = format!(
        "/* Code highlighting: {light} (light) and {dark} (dark), each colour raised to a contrast of at least 4.5:1; light-dark() follows the page's color-scheme, which style.css sets from prefers-color-scheme or the reader's toggle. Generated by measured. */\npre.code,pre.output{{background:{};color:{}}}",
        pair(light_bg, dark_bg),
        pair(light_fg, dark_fg)
    );
    let mut selectors: Vec<&String> = light_rules.keys().collect();
    selectors.sort_by_key(|k| light_rules[*k].0);
    let mut dark_only: Vec<&String> = dark_rules
        .keys()
        .filter(|k| !light_rules.contains_key(*k))
        .collect();
    dark_only.sort_by_key(|k| dark_rules[*k].0);
    // Rules with the same declarations are grouped again under one selector list.
    let mut grouped: Vec<(String, Vec<&String>)> = Vec::new();
    for sel in selectors.into_iter().chain(dark_only) {
        let l = light_rules.get(sel).map(|r| &r.1);
        let d = dark_rules.get(sel).map(|r| &r.1);
        let get = |decls: Option<&Vec<(String, String)>>, key: &str| {
            decls.and_then(|ds| ds.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()))
        };
        let mut decls = Vec::new();
        for (key, lf, df) in [
            ("color", light_fg, dark_fg),
            ("background-color", light_bg, dark_bg),
        ] {
            let (lv, dv) = (get(l, key), get(d, key));
            if lv.is_some() || dv.is_some() {
                let lc = lv.and_then(|v| parse_hex(&v)).unwrap_or(lf);
                let dc = dv.and_then(|v| parse_hex(&v)).unwrap_or(df);
                decls.push(format!("{key}:{}", pair(lc, dc)));
            }
        }
        for key in ["font-style", "font-weight", "text-decoration"] {
            if let Some(v) = get(l, key).or_else(|| get(d, key)) {
                decls.push(format!("{key}:{v}"));
            }
        }
        if !decls.is_empty() {
            let body = decls.join(";");
            match grouped.iter_mut().find(|(b, _)| *b == body) {
                Some((_, sels)) => sels.push(sel),
                None => grouped.push((body, vec![sel])),
            }
        }
    }
    for (body, sels) in grouped {
        let list: Vec<&str> = sels.iter().map(|s| s.as_str()).collect();
        out.push_str(&format!("{}{{{body}}}", list.join(",")));
    }
    out.push('\n');
    Ok(out)
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

/// A theme's rules by selector list (with their position), comments and the `.z-code` block
/// rule dropped (the blocks get their colours from [`stylesheet`]), every colour made readable
/// on `bg`.
#[allow(
    clippy::type_complexity,
    reason = "a private intermediate, read in one place"
)]
fn readable(css: &str, bg: Rgb) -> HashMap<String, (usize, Vec<(String, String)>)> {
    let mut rules = HashMap::new();
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
        let decls: Vec<(String, String)> = body
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .map(|(k, v)| {
                let (k, v) = (k.trim().to_string(), v.trim().to_string());
                match (k.as_str(), parse_hex(&v)) {
                    ("color", Some(c)) => (k, hex(legible(c, bg))),
                    _ => (k, v),
                }
            })
            .collect();
        for selector in selectors {
            let n = rules.len();
            let entry = rules.entry(selector.to_string()).or_insert((n, Vec::new()));
            for (k, v) in &decls {
                entry.1.retain(|(ek, _)| ek != k);
                entry.1.push((k.clone(), v.clone()));
            }
        }
    }
    rules
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
        let first = Highlighter::with_cache_file(&file, "InspiredGitHub", "base16-ocean.dark");
        let a = first.highlight("rust", "let a = 1;\n");
        assert_eq!(first.misses(), 1);
        first.highlight("rust", "let a = 1;\n");
        assert_eq!(first.misses(), 1);
        first.save().unwrap();
        let second = Highlighter::with_cache_file(&file, "InspiredGitHub", "base16-ocean.dark");
        assert_eq!(second.highlight("rust", "let a = 1;\n"), a);
        assert_eq!(second.misses(), 0);
    }

    #[test]
    fn every_colour_of_the_stylesheet_reads_at_4_5_to_1() {
        let css = stylesheet("InspiredGitHub", "base16-ocean.dark").unwrap();
        let light_bg = background(&THEMES.themes["InspiredGitHub"], [0, 0, 0]);
        let dark_bg = background(&THEMES.themes["base16-ocean.dark"], [0, 0, 0]);
        let mut checked = 0;
        for decl in css
            .split(['{', ';'])
            .filter_map(|d| d.strip_prefix("color:light-dark("))
        {
            let (l, d) = decl.split_once(',').unwrap();
            let (l, d) = (parse_hex(l).unwrap(), parse_hex(&d[..7]).unwrap());
            assert!(
                contrast(l, light_bg) >= 4.5,
                "{} on {}",
                hex(l),
                hex(light_bg)
            );
            assert!(
                contrast(d, dark_bg) >= 4.5,
                "{} on {}",
                hex(d),
                hex(dark_bg)
            );
            checked += 1;
        }
        assert!(checked > 20, "{checked} colours");
        assert!(!css.contains("/*\n"), "minified");
    }

    #[test]
    fn spans_no_rule_styles_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let h = Highlighter::with_cache_file(
            &dir.path().join("c.json"),
            "InspiredGitHub",
            "base16-ocean.dark",
        );
        let plain = Highlighter::default().highlight("rust", "fn main() { let x = (1, 2); }\n");
        let pruned = h.highlight("rust", "fn main() { let x = (1, 2); }\n");
        assert!(pruned.len() < plain.len(), "{pruned}");
        assert_eq!(
            crate::html::strip_tags(&pruned),
            crate::html::strip_tags(&plain),
            "the text is kept"
        );
        assert!(
            pruned.contains("z-storage z-type"),
            "styled spans stay: {pruned}"
        );
        assert_eq!(
            pruned.matches("<span").count(),
            pruned.matches("</span>").count()
        );
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
        assert!(css.contains(".z-comment{color:light-dark(#"), "{css}");
        assert!(
            stylesheet("nope", "base16-ocean.dark")
                .unwrap_err()
                .contains("unknown highlight theme `nope`")
        );
    }
}

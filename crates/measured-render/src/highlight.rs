//! Syntax highlighting: one read-only `SyntaxSet` loaded once (bat's, from `two-face`: the
//! languages blogs are written about, TypeScript, TSX, Dockerfile, PowerShell, TOML, Kotlin,
//! Swift, Zig… beside syntect's own), code → HTML with CSS classes (never inline colours), and
//! a cache of highlighted blocks keyed by a hash of the syntax set, language and code that
//! persists across builds, so an unchanged block costs no syntect work.
//!
//! Each token is styled by both themes as syntect resolves them, and gets the short classes of
//! the colours and font it shows ([`palette`]); tokens that look alike are merged into one span
//! and plain text gets none, so the HTML carries only what a reader sees.

mod lines;
mod palette;

pub use lines::Lines;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use rustc_hash::FxHashMap;

use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

use palette::Palette;

static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(two_face::syntax::extra_newlines);

/// The syntax set's identity in cache keys: a hash of its grammars as syntect serialises them,
/// so that a new version of the set (a `two-face` update, another bat) highlights every block
/// again instead of serving HTML its grammars no longer make. Made once per process, on the
/// first block (about 1 MB hashed).
static SYNTAX_SET_ID: LazyLock<String> = LazyLock::new(|| {
    // Serialised whole, then hashed: bincode writes a field at a time, and the hasher fed
    // piece by piece took about ten times as long (40 ms on the real blog's cold build).
    let bytes = bincode::serialize(&*SYNTAXES).expect("a syntax set serialises");
    blake3::hash(&bytes).to_hex()[..16].to_string()
});

/// The themes of a highlighter made without a site: the configuration's defaults.
const DEFAULT_THEMES: (&str, &str) = ("InspiredGitHub", "base16-ocean.dark");

/// Version of the cached HTML's shape: bump when `highlight_uncached` changes its output.
const CACHE_VERSION: &str = "6";

/// Highlighted blocks by hash. Shared by the rayon workers of one build, saved for the next.
#[derive(Debug)]
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
    /// The classes of the light and dark themes (`None` when a theme name is unknown: the
    /// stylesheet reports it, and code is left plain).
    palette: Option<Palette>,
    /// `light\0dark`, part of each cache key.
    themes: String,
    /// How each scope stack seen so far looks, shared by all blocks (syntect resolves a
    /// stack's style by matching every rule of the theme).
    looks: Mutex<Looks>,
    /// Lines of the blocks highlighted since this highlighter was made: parsed by syntect,
    /// and taken from a [`Lines`] memo.
    lines: [std::sync::atomic::AtomicUsize; 2],
}

/// A scope stack's classes, and whether its style shows on whitespace.
type Look = (Arc<str>, bool);

/// Looks by scope stack (FxHash: a stack is hashed for every token).
type Looks = FxHashMap<Vec<Scope>, Look>;

impl Default for Highlighter {
    /// A highlighter with the default themes and no cache file.
    fn default() -> Self {
        Highlighter::new(None, DEFAULT_THEMES.0, DEFAULT_THEMES.1)
    }
}

impl Highlighter {
    /// A highlighter for the stylesheet of the `light` and `dark` themes, whose cache lives in
    /// `file` (loaded now if it exists, saved by `save`).
    pub fn with_cache_file(file: &Path, light: &str, dark: &str) -> Self {
        Highlighter::new(Some(file), light, dark)
    }

    fn new(file: Option<&Path>, light: &str, dark: &str) -> Self {
        let cache = file
            .and_then(|file| std::fs::read(file).ok())
            .and_then(|bytes| serde_json::from_slice::<HashMap<String, String>>(&bytes).ok())
            .unwrap_or_default();
        Highlighter {
            cache: Mutex::new(cache),
            file: file.map(Path::to_path_buf),
            misses: Default::default(),
            saved_misses: Default::default(),
            used: Default::default(),
            palette: Palette::new(light, dark).ok(),
            themes: format!("{light}\0{dark}"),
            looks: Mutex::default(),
            lines: Default::default(),
        }
    }

    /// Highlights `code` in language `token` (a fence's info word), as the inside of a `<code>`.
    pub fn highlight(&self, token: &str, code: &str) -> String {
        self.highlight_in(token, code, &Lines::default())
    }

    /// [`Highlighter::highlight`], taking the lines syntect parsed before from `lines` (and
    /// leaving there those it parses): give one memo to all the blocks of one thread.
    pub fn highlight_in(&self, token: &str, code: &str, lines: &Lines) -> String {
        let key = cache_key(&SYNTAX_SET_ID, &self.themes, token, code);
        self.used
            .lock()
            .expect("highlight cache")
            .insert(key.clone());
        if let Some(html) = self.cache.lock().expect("highlight cache").get(&key) {
            return html.clone();
        }
        self.misses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let before = lines.counts();
        let html = match &self.palette {
            Some(palette) => highlight_uncached(palette, &self.looks, lines, token, code),
            None => escape(code),
        };
        let after = lines.counts();
        let relaxed = std::sync::atomic::Ordering::Relaxed;
        self.lines[0].fetch_add(after.0 - before.0, relaxed);
        self.lines[1].fetch_add(after.1 - before.1, relaxed);
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

    /// Lines of the blocks highlighted since this highlighter was made: parsed by syntect, and
    /// taken from a [`Lines`] memo where the same line was parsed from the same state before.
    pub fn lines(&self) -> (usize, usize) {
        let relaxed = std::sync::atomic::Ordering::Relaxed;
        (self.lines[0].load(relaxed), self.lines[1].load(relaxed))
    }

    /// Forgets every highlighted block (a one-off build, once no stage highlights any more and
    /// the cache is saved): later blocks are highlighted anew.
    pub fn release(&self) {
        *self.cache.lock().expect("highlight cache") = HashMap::new();
        *self.used.lock().expect("highlight cache") = Default::default();
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
        measured_core::atomic::file_with(file, |w| {
            serde_json::to_writer(w, &*cache).map_err(std::io::Error::other)
        })
    }
}

/// The cache key of `code` in language `token`, highlighted with the syntax set `syntaxes` in
/// the `themes`.
fn cache_key(syntaxes: &str, themes: &str, token: &str, code: &str) -> String {
    let input = format!("{CACHE_VERSION}\0{syntaxes}\0{themes}\0{token}\0{code}");
    blake3::hash(input.as_bytes()).to_hex().to_string()
}

/// Whether syntect knows the language `token`.
pub fn knows(token: &str) -> bool {
    syntax_for(token).is_some()
}

/// The fence word closest to an unknown `token` among the names and file extensions of the
/// syntax set (`typescrpt` → `typescript`), for the warning's hint.
pub fn closest_language(token: &str) -> Option<String> {
    let lower = token.to_lowercase();
    let names: Vec<String> = SYNTAXES
        .syntaxes()
        .iter()
        .filter(|s| !s.hidden)
        .flat_map(|s| {
            let name = s.name.to_lowercase();
            s.file_extensions
                .iter()
                .map(|e| e.to_lowercase())
                .chain((!name.contains(' ')).then_some(name))
        })
        .collect();
    measured_core::diag::closest(&lower, names.iter().map(String::as_str)).map(str::to_string)
}

fn syntax_for(token: &str) -> Option<&'static SyntaxReference> {
    let token = match token {
        "sh" | "shell" | "console" | "zsh" => "bash",
        "golang" => "go",
        "jsonc" | "json5" => "json",
        "yml" => "yaml",
        "csharp" | "c#" => "cs",
        "text" | "plaintext" | "plain" | "output" => "txt",
        other => other,
    };
    SYNTAXES.find_syntax_by_token(token)
}

/// A piece of code and how it looks.
#[derive(Debug)]
struct Run<'c> {
    /// Its classes (empty: plain text).
    classes: Arc<str>,
    text: &'c str,
    /// Whether it would look the same with any colour and weight: whitespace that shows no
    /// background or underline. Such a run joins the span around it instead of splitting it.
    blank: bool,
    /// Whether its style shows on whitespace (a background, an underline).
    shows_on_whitespace: bool,
}

fn highlight_uncached(
    palette: &Palette,
    looks: &Mutex<Looks>,
    lines: &Lines,
    token: &str,
    code: &str,
) -> String {
    let Some(syntax) = syntax_for(token) else {
        return escape(code);
    };
    match runs(palette, looks, lines, syntax, code) {
        Some(runs) => to_html(runs),
        None => escape(code),
    }
}

/// The code as runs, each styled by both themes (`None` when syntect cannot parse it).
///
/// Both themes style the same ranges (those between the parser's scope changes), so each range
/// is styled once per theme from its scope stack. Stacks repeat a great deal, so each stack's
/// look is resolved once (syntect's own iterator matches every theme rule again at each scope
/// push, twice for two themes): kept for the block, and in `shared` for every block.
fn runs<'c>(
    palette: &Palette,
    shared: &Mutex<Looks>,
    lines: &Lines,
    syntax: &SyntaxReference,
    code: &'c str,
) -> Option<Vec<Run<'c>>> {
    let (light, dark) = (&palette.light.highlighter, &palette.dark.highlighter);
    let mut parser = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut looks = Looks::default();
    let mut runs = Vec::new();
    for line in LinesWithEndings::from(code) {
        let ops = lines.parse(&mut parser, line, &SYNTAXES).ok()?;
        for (range, op) in ScopeRangeIterator::new(&ops, line) {
            stack.apply(op).ok()?;
            if !range.is_empty() {
                let scopes = stack.as_slice();
                let (classes, shows_on_whitespace) = match looks.get(scopes) {
                    Some(look) => look.clone(),
                    None => {
                        let known = shared.lock().expect("looks").get(scopes).cloned();
                        let look = known.unwrap_or_else(|| {
                            let (l, d) =
                                (light.style_for_stack(scopes), dark.style_for_stack(scopes));
                            let classes = Arc::from(palette.classes(l, d));
                            let look = (classes, palette.shows_on_whitespace(l, d));
                            shared
                                .lock()
                                .expect("looks")
                                .insert(scopes.to_vec(), look.clone());
                            look
                        });
                        looks.insert(scopes.to_vec(), look.clone());
                        look
                    }
                };
                let text = &line[range];
                let blank = text.chars().all(char::is_whitespace);
                runs.push(Run {
                    classes,
                    text,
                    blank: blank && !shows_on_whitespace,
                    shows_on_whitespace,
                });
            }
        }
    }
    Some(runs)
}

/// Runs → HTML: blank runs take the classes of the span around them, runs that look alike
/// share one span, and plain text gets none.
fn to_html(mut runs: Vec<Run>) -> String {
    // The index of the next run that is not blank, for each run.
    let mut next = vec![None; runs.len()];
    let mut seen = None;
    for k in (0..runs.len()).rev() {
        next[k] = seen;
        if !runs[k].blank {
            seen = Some(k);
        }
    }
    let mut before = None;
    for k in 0..runs.len() {
        if !runs[k].blank {
            before = Some(k);
            continue;
        }
        runs[k].classes = match (before, next[k]) {
            (Some(b), Some(a))
                if runs[b].classes == runs[a].classes && !runs[b].shows_on_whitespace =>
            {
                runs[b].classes.clone()
            }
            _ => Arc::from(""),
        };
    }
    let mut out = String::new();
    let mut k = 0;
    while k < runs.len() {
        let classes = &runs[k].classes;
        let mut text = String::new();
        while k < runs.len() && runs[k].classes == *classes {
            text.push_str(runs[k].text);
            k += 1;
        }
        if classes.is_empty() {
            out.push_str(&escape(&text));
        } else {
            out.push_str(&format!(
                "<span class=\"{classes}\">{}</span>",
                escape(&text)
            ));
        }
    }
    out
}

fn escape(code: &str) -> String {
    measured_core::html::escape_body(code)
}

/// The stylesheet for highlighted code: the classes of the `light` and `dark` themes, whose
/// colours `light-dark()` picks by the page's color-scheme (which style.css sets from
/// `prefers-color-scheme` or the reader's toggle).
pub fn stylesheet(light: &str, dark: &str) -> Result<String, String> {
    Ok(Palette::new(light, dark)?.stylesheet(light, dark))
}

#[cfg(test)]
mod tests;

//! Tests of the highlighter: the HTML's classes, the stylesheet written from the same
//! vocabulary, the contrast of every colour a token shows, and the cache.

use std::collections::HashMap;

use syntect::highlighting::Highlighter as ThemeHighlighter;
use syntect::parsing::Scope;

use super::palette::{Rgb, contrast, hex, legible};
use super::*;

const LIGHT: &str = "InspiredGitHub";
const DARK: &str = "base16-ocean.dark";

/// Samples in the languages the blog uses, a diff among them for backgrounds.
const SAMPLES: [(&str, &str); 6] = [
    (
        "rust",
        "/// Doc.\nfn main() {\n    // note\n    let x: u32 = 1 + \"s\".len() as u32;\n}\n",
    ),
    ("diff", "--- a\n+++ b\n@@ -1 +1 @@\n-old line\n+new line\n"),
    ("json", "{\"a\": [1, true, null, \"x\"]}\n"),
    ("c", "int f(void) { return 0x1f; } /* c */\n"),
    (
        "sql",
        "SELECT a, sum(b) OVER (PARTITION BY c) FROM t WHERE d = 'e';\n",
    ),
    ("sh", "cargo build --release && echo \"$HOME\" # done\n"),
];

/// The spans of `html`: (classes, text).
fn spans(html: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for piece in html.split("<span class=\"").skip(1) {
        let (classes, rest) = piece.split_once("\">").unwrap();
        let text = rest.split("</span>").next().unwrap();
        out.push((
            classes.split(' ').map(str::to_string).collect(),
            text.to_string(),
        ));
    }
    out
}

/// The stylesheet's one-declaration rules: class → (property, value).
fn rules(css: &str) -> HashMap<String, (String, String)> {
    let mut out = HashMap::new();
    for rule in css.split('}') {
        let Some((selector, body)) = rule.split_once('{') else {
            continue;
        };
        if let Some(class) = selector.strip_prefix('.')
            && let Some((k, v)) = body.split_once(':')
        {
            out.insert(class.to_string(), (k.to_string(), v.to_string()));
        }
    }
    out
}

fn page_colours(css: &str) -> (Rgb, Rgb, Rgb, Rgb) {
    let block = css.split("pre.code,pre.output{").nth(1).unwrap();
    let colour = |after: &str| {
        let (l, d) = block.split(after).nth(1).unwrap().split_once(',').unwrap();
        (parse(l), parse(&d[..7]))
    };
    let (lb, db) = colour("background:light-dark(");
    let (lf, df) = colour("color:light-dark(");
    (lb, lf, db, df)
}

fn parse(v: &str) -> Rgb {
    let h = v.strip_prefix('#').unwrap();
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap();
    [byte(0), byte(2), byte(4)]
}

#[test]
fn rust_is_highlighted_with_classes_not_colours() {
    let code = "fn main() { let x = 1; }\n";
    let html = Highlighter::default().highlight("rust", code);
    assert!(html.contains("<span class=\""), "{html}");
    assert!(!html.contains("style="), "{html}");
    assert_eq!(
        measured_core::html::strip_tags(&html),
        code,
        "the text is kept"
    );
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
    let first = Highlighter::with_cache_file(&file, LIGHT, DARK);
    let a = first.highlight("rust", "let a = 1;\n");
    assert_eq!(first.misses(), 1);
    first.highlight("rust", "let a = 1;\n");
    assert_eq!(first.misses(), 1);
    first.save().unwrap();
    let second = Highlighter::with_cache_file(&file, LIGHT, DARK);
    assert_eq!(second.highlight("rust", "let a = 1;\n"), a);
    assert_eq!(second.misses(), 0);
}

#[test]
fn every_class_of_the_html_has_a_rule_in_the_stylesheet() {
    let css = stylesheet(LIGHT, DARK).unwrap();
    let rules = rules(&css);
    let h = Highlighter::default();
    for (token, code) in SAMPLES {
        let html = h.highlight(token, code);
        assert_eq!(
            measured_core::html::strip_tags(&html),
            code,
            "{token}: the text is kept"
        );
        assert!(html.contains("<span"), "{token} is highlighted: {html}");
        for (classes, _) in spans(&html) {
            for class in classes {
                assert!(
                    rules.contains_key(&class),
                    "{token}: no rule for .{class} in {css}"
                );
            }
        }
    }
}

#[test]
fn a_token_shows_the_colours_its_themes_give_it() {
    let css = stylesheet(LIGHT, DARK).unwrap();
    let rules = rules(&css);
    let (light_bg, _, dark_bg, _) = page_colours(&css);
    let html = Highlighter::default().highlight("rust", "x; // note\n");
    let (classes, _) = spans(&html)
        .into_iter()
        .find(|(_, text)| text.contains("// note"))
        .unwrap_or_else(|| panic!("the comment is one span: {html}"));
    let scopes = [
        Scope::new("source.rust").unwrap(),
        Scope::new("comment.line.double-slash.rust").unwrap(),
    ];
    for (theme, bg, prefix) in [(LIGHT, light_bg, "l"), (DARK, dark_bg, "d")] {
        let style = ThemeHighlighter::new(&palette::THEMES.themes[theme]).style_for_stack(&scopes);
        let c = style.foreground;
        let expected = hex(legible([c.r, c.g, c.b], bg));
        let class = classes
            .iter()
            .find(|c| {
                c.strip_prefix(prefix)
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .unwrap_or_else(|| panic!("no {prefix} colour in {classes:?}"));
        assert_eq!(rules[class], (format!("--{prefix}"), expected), "{theme}");
    }
    assert!(
        classes.contains(&"fi".to_string()),
        "comments are italic in {LIGHT}: {classes:?}"
    );
}

#[test]
fn every_colour_a_token_shows_reads_at_4_5_to_1() {
    let css = stylesheet(LIGHT, DARK).unwrap();
    let rules = rules(&css);
    let (light_bg, light_fg, dark_bg, dark_fg) = page_colours(&css);
    let h = Highlighter::default();
    let mut backgrounds = 0;
    for (token, code) in SAMPLES {
        for (classes, text) in spans(&h.highlight(token, code)) {
            let colour = |property: &str, default: Rgb| {
                classes
                    .iter()
                    .filter_map(|c| rules.get(c))
                    .find(|(k, _)| k == property)
                    .map_or(default, |(_, v)| parse(v))
            };
            for (prefix, bg, fg) in [("l", light_bg, light_fg), ("d", dark_bg, dark_fg)] {
                let (bg, fg) = (
                    colour(&format!("--{prefix}b"), bg),
                    colour(&format!("--{prefix}"), fg),
                );
                if bg != light_bg && bg != dark_bg {
                    backgrounds += 1;
                }
                assert!(
                    contrast(fg, bg) >= 4.5,
                    "{token} `{text}`: {} on {}",
                    hex(fg),
                    hex(bg)
                );
            }
        }
    }
    assert!(backgrounds > 0, "the samples exercise backgrounds");
    assert!(
        contrast(light_fg, light_bg) >= 4.5 && contrast(dark_fg, dark_bg) >= 4.5,
        "plain text"
    );
}

#[test]
fn plain_tokens_get_no_span_and_alike_ones_share_one() {
    let h = Highlighter::default();
    // Names and punctuation no rule styles are plain text in both themes.
    let html = h.highlight("rust", "let a = b;\n");
    let texts: Vec<String> = spans(&html).into_iter().map(|(_, t)| t).collect();
    assert_eq!(texts, ["let", "="], "{html}");
    assert!(html.ends_with("</span> b;\n"), "{html}");
    // Two doc-comment lines (punctuation and text styled alike): one span, newline included.
    let html = h.highlight("rust", "/// One.\n/// Two.\nfn f() {}\n");
    let first = &spans(&html)[0];
    assert_eq!(first.1, "/// One.\n/// Two.\n", "{html}");
}

#[test]
fn blank_runs_join_spans_unless_a_background_would_show() {
    let run = |classes: &str, text, blank, shows_on_whitespace| Run {
        classes: classes.into(),
        text,
        blank,
        shows_on_whitespace,
    };
    assert_eq!(
        to_html(vec![
            run("l1", "a", false, false),
            run("d2", " ", true, false),
            run("l1", "b", false, false),
            run("", " ", true, false),
        ]),
        "<span class=\"l1\">a b</span> "
    );
    assert_eq!(
        to_html(vec![
            run("lb0", "a", false, true),
            run("", " ", true, false),
            run("lb0", "b", false, true),
        ]),
        "<span class=\"lb0\">a</span> <span class=\"lb0\">b</span>"
    );
}

#[test]
fn the_stylesheet_is_one_short_rule_per_class() {
    let css = stylesheet(LIGHT, DARK).unwrap();
    assert!(
        css.contains("pre.code span{color:light-dark(var(--l,#"),
        "light and dark colours in one rule: {css}"
    );
    assert!(
        css.contains(".l0{--l:#") && css.contains(".d0{--d:#"),
        "{css}"
    );
    assert!(!css.contains("z-"), "no scope classes: {css}");
    assert_eq!(
        css.lines().count(),
        2,
        "a comment line, then the rules: {css}"
    );
    assert!(
        stylesheet("nope", DARK)
            .unwrap_err()
            .contains("unknown highlight theme `nope`")
    );
}

#[test]
fn the_languages_blogs_are_written_in_are_known_by_their_fence_words() {
    let tokens = [
        "typescript",
        "ts",
        "tsx",
        "jsx",
        "javascript",
        "js",
        "dockerfile",
        "Dockerfile",
        "powershell",
        "ps1",
        "toml",
        "kotlin",
        "kt",
        "swift",
        "zig",
        "rust",
        "go",
        "golang",
        "python",
        "sh",
        "bash",
        "console",
        "yaml",
        "yml",
        "json",
        "diff",
        "sql",
        "html",
        "css",
        "c",
        "cpp",
        "c++",
        "csharp",
        "c#",
        "cs",
        "text",
        "plaintext",
        "java",
        "proto",
        "makefile",
        "nix",
        "lua",
        "ruby",
        "php",
        "scala",
        "haskell",
        "elixir",
        "terraform",
        "hcl",
        "graphql",
        "ini",
        "nginx",
    ];
    let unknown: Vec<&str> = tokens.into_iter().filter(|t| !knows(t)).collect();
    assert!(unknown.is_empty(), "not known: {unknown:?}");
    assert!(!knows("no-such-language"));
}

#[test]
fn typescript_tsx_dockerfile_and_toml_are_highlighted_not_left_plain() {
    let h = Highlighter::default();
    for (token, code, word) in [
        ("ts", "const n: number = 1;\n", "const"),
        (
            "tsx",
            "const a = <div className=\"x\">{n}</div>;\n",
            "const",
        ),
        ("dockerfile", "FROM debian:13\nRUN apt-get update\n", "FROM"),
        ("toml", "[package]\nname = \"x\"\n", "name"),
        ("kotlin", "fun main() { val x = 1 }\n", "fun"),
        (
            "powershell",
            "Get-ChildItem -Path . | Where-Object { $_.Length -gt 0 }\n",
            "Get-ChildItem",
        ),
        ("zig", "const std = @import(\"std\");\n", "const"),
    ] {
        let html = h.highlight(token, code);
        assert!(
            spans(&html)
                .iter()
                .any(|(classes, text)| !classes.is_empty() && text.contains(word)),
            "{token}: `{word}` is not styled in {html}"
        );
    }
}

#[test]
fn the_cache_key_changes_with_the_syntax_set() {
    let a = cache_key("set-a", "l\0d", "rust", "fn f() {}");
    assert_eq!(a, cache_key("set-a", "l\0d", "rust", "fn f() {}"));
    assert_ne!(a, cache_key("set-b", "l\0d", "rust", "fn f() {}"));
    assert_ne!(a, cache_key("set-a", "l\0d", "rs", "fn f() {}"));
    assert_eq!(SYNTAX_SET_ID.len(), 16);
    assert_eq!(*SYNTAX_SET_ID, {
        let mut hasher = blake3::Hasher::new();
        bincode::serialize_into(&mut hasher, &two_face::syntax::extra_newlines()).unwrap();
        hasher.finalize().to_hex()[..16].to_string()
    });
}

/// Blocks whose lines repeat in other parser states: a line inside a comment or a heredoc
/// (whose end a back-reference decides) is the same text as a line of code elsewhere.
const REPEATS: [(&str, &str); 4] = [
    ("rust", "fn a() {}\n/*\nfn a() {}\n}\n*/\nfn a() {}\n}\n"),
    ("rust", "let s = r#\"\nfn a() {}\n\"#;\nfn a() {}\n}\n"),
    ("bash", "cat <<END\necho EOF\nEOF\nEND\necho EOF\n"),
    ("bash", "cat <<EOF\necho END\nEND\nEOF\necho EOF\n"),
];

#[test]
fn lines_taken_from_the_memo_give_the_html_parsing_them_gives() {
    let shared = Highlighter::new(None, LIGHT, DARK);
    let lines = Lines::default();
    for (token, code) in REPEATS.iter().chain(&SAMPLES) {
        let alone = Highlighter::new(None, LIGHT, DARK).highlight(token, code);
        assert_eq!(
            shared.highlight_in(token, code, &lines),
            alone,
            "{token} block {code:?}"
        );
    }
    let (parsed, reused) = lines.counts();
    assert!(reused >= 2, "repeated lines came from the memo: {reused}");
    assert_eq!(shared.lines(), (parsed, reused));
    // The same text in another state is parsed again: `fn a() {}` in a comment is a comment.
    let html = shared.highlight_in("rust", "/*\nfn b() {}\n*/\nfn b() {}\n", &lines);
    let comment = spans(&html)[0].0.clone();
    let in_comment = spans(&html)
        .into_iter()
        .filter(|(classes, _)| *classes == comment)
        .any(|(_, text)| text.contains("fn b()"));
    assert!(in_comment, "{html}");
}

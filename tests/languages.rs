//! Code in the languages people write: bat's syntaxes (`two-face`) highlight TypeScript, TSX,
//! Dockerfile, PowerShell, TOML, Kotlin, Swift and Zig blocks, and a fenced block whose language
//! no syntax knows builds with a warning naming its file and line.

mod common;

use common::{TestSite, html};

/// A site whose one article (Vietnamese) holds `body`.
fn site(body: &str) -> TestSite {
    let s = TestSite::new();
    s.article("a", "vi", "title: Mã\ndate: 2025-01-01", body);
    s
}

#[test]
fn blocks_in_the_languages_blogs_use_are_highlighted() {
    let samples = [
        ("ts", "const n: number = 1;"),
        ("tsx", "const a = <div className=\"x\">{n}</div>;"),
        ("dockerfile", "FROM debian:13\nRUN apt-get update"),
        (
            "powershell",
            "Get-ChildItem -Path . | Where-Object { $_.Length -gt 0 }",
        ),
        ("toml", "[package]\nname = \"x\""),
        ("kotlin", "fun main() { val x = 1 }"),
        ("swift", "let x: Int = 1"),
        ("zig", "const std = @import(\"std\");"),
    ];
    let langs = samples.map(|(l, _)| l);
    let body: String = samples
        .iter()
        .map(|(l, code)| format!("```{l}\n{code}\n```\n\n"))
        .collect();
    let built = site(&body).build().expect("build");
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    let doc = html(&built, "a/index.html");
    for lang in langs {
        let sel = format!("pre[data-lang={lang}] code span[class]");
        let spans = common::texts(&doc, &sel);
        assert!(!spans.is_empty(), "{lang}: no highlighted span");
    }
}

#[test]
fn an_unknown_language_is_shown_plain_with_a_warning_at_its_line() {
    let body = "Mở đầu.\n\n```typescrpt\nconst a = 1;\n```\n\n```text\nplain\n```\n\n```\nnone\n```\n\n```qwertyuiop\nx\n```\n";
    let built = site(body)
        .build()
        .expect("an unknown language does not fail the build");
    let warnings: Vec<String> = built.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    let path = "content/a/index.vi.md";
    // The front matter takes lines 1–4, the body starts on line 5: the fence is on line 7.
    assert!(
        warnings[0].contains(&format!("{path}:7:1: error: the code block's language `typescrpt` is not one the highlighter knows, so the block is shown as plain text")),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[0].contains("did you mean `typescript`?"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].contains(&format!("{path}:19:1:")),
        "{}",
        warnings[1]
    );
    assert!(warnings[1].contains("`qwertyuiop`"), "{}", warnings[1]);
    assert!(
        warnings[1].contains("`text` for plain text"),
        "{}",
        warnings[1]
    );
    let doc = html(&built, "a/index.html");
    let plain = common::texts(&doc, "pre[data-lang=typescrpt] code");
    assert_eq!(plain, ["const a = 1;"]);
    assert!(common::texts(&doc, "pre[data-lang=typescrpt] span").is_empty());
}

//! Issue 35, crashes, hangs and unbounded memory: formulas and diagrams nested thousands
//! deep, front matter nested or huge, experiments that leave daemons holding their output or
//! print without end, and `results import` of what is not a file.

use super::common::TestSite;
use super::{errors, first_error};

#[test]
fn formulas_and_diagrams_nested_thousands_deep_are_errors_at_their_line_not_crashes() {
    let site = TestSite::new();
    let sqrt = format!("{}y{}", "\\sqrt{".repeat(3000), "}".repeat(3000));
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &format!("Mở đầu.\n\nCăn ${sqrt}$ lồng nhau.\n"),
    );
    let frac = format!("{}b{}", "\\frac{a}{".repeat(3000), "}".repeat(3000));
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-02",
        &format!("Phân số:\n\n$$\n{frac}\n$$\n"),
    );
    let mut mermaid = String::from("```mermaid\nsequenceDiagram\n");
    mermaid.push_str(&"loop again\n".repeat(3000));
    mermaid.push_str("A->>B: hi\n");
    mermaid.push_str(&"end\n".repeat(3000));
    mermaid.push_str("```\n");
    site.article("c", "vi", "title: C\ndate: 2026-01-02", &mermaid);
    let got: Vec<(String, Option<usize>, String)> = errors(&site)
        .into_iter()
        .map(|(f, l, m)| (f, l, m.chars().take(70).collect()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "content/a/index.vi.md".to_string(),
                Some(7),
                "this formula is not LaTeX that can be drawn: it nests more than 40 lev"
                    .to_string()
            ),
            (
                "content/b/index.vi.md".to_string(),
                Some(8),
                "this formula is not LaTeX that can be drawn: it nests more than 40 lev"
                    .to_string()
            ),
            (
                "content/c/index.vi.md".to_string(),
                Some(70),
                "this Mermaid diagram cannot be drawn: it nests more than 64 levels dee"
                    .to_string()
            ),
        ]
    );
    let e = site.build_err();
    assert!(
        e.contains("help: write it with less nesting, or as several formulas: measured draws at most 40 levels"),
        "{e}"
    );
    assert!(
        e.contains("split it into smaller diagrams, or nest less"),
        "{e}"
    );
}

#[test]
fn deeply_nested_or_huge_front_matter_is_refused_at_once_at_its_line() {
    for (n, line, message) in [
        (
            20_000,
            4,
            "front matter: the front matter nests lists and maps more than 16 levels deep here",
        ),
        (
            100_000,
            2,
            "front matter: the front matter has 200033 bytes; measured reads at most 64 KB of it",
        ),
    ] {
        let site = TestSite::new();
        site.article(
            "a",
            "vi",
            &format!(
                "title: A\ndate: 2026-01-02\ntags: {}{}",
                "[".repeat(n),
                "]".repeat(n)
            ),
            "x\n",
        );
        let started = std::time::Instant::now();
        let (file, at, got, hint) = first_error(&site);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(
            (file.as_str(), at, got.as_str()),
            ("content/a/index.vi.md", Some(line), message)
        );
        assert!(
            hint.contains("write lists flat, e.g. `tags: [a, b]`"),
            "{hint}"
        );
    }
}

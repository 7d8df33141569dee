//! Issue 35, crashes, hangs and unbounded memory: formulas and diagrams nested thousands
//! deep, front matter nested or huge, experiments that leave daemons holding their output or
//! print without end, and `results import` of what is not a file.

use super::common::TestSite;
use super::errors;

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

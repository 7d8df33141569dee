//! Technical writing (issue 21): math as MathML, Mermaid diagrams as inline SVG, numbered
//! figures and tables with cross-references, each built in a small site of its own, with the
//! errors each one can raise.

mod common;

use common::{TestSite, html, texts};

const FRONT_VI: &str = "title: Bài\ndate: 2026-01-01";
const FRONT_EN: &str = "title: Article\ndate: 2026-01-01";

/// A site of one article, `vi` and `en`, whose bodies are given.
fn site(vi: &str, en: &str) -> TestSite {
    let site = TestSite::new();
    site.article("a", "vi", FRONT_VI, vi);
    site.article("a", "en", FRONT_EN, en);
    site
}

#[test]
fn math_is_mathml_and_reads_in_the_search_index() {
    let s = site(
        "Một varint 1 byte giữ $2^{7}$ giá trị.\n\n$$\\text{BDP} = B \\times RTT$$\n",
        "One varint byte holds $2^{7}$ values.\n",
    );
    let b = s.build().unwrap_or_else(|e| panic!("{e}"));
    let page = b.output.text("a/index.html").unwrap();
    let doc = html(&b, "a/index.html");
    assert_eq!(texts(&doc, "math msup mn"), ["2", "7"]);
    assert_eq!(texts(&doc, "math[display=block] mtext"), ["BDP"]);
    assert!(!page.contains("$2^"), "no LaTeX left in the page: {page}");
    let index: String = b
        .output
        .files
        .keys()
        .filter(|p| p.contains("/f/") && p.ends_with(".json"))
        .filter_map(|p| b.output.text(p))
        .collect();
    assert!(index.contains("2^7"), "the formula is searchable as 2^7");
}

#[test]
fn a_latex_error_fails_the_build_at_its_character() {
    let s = site("Dòng một.\n\nHai $x + \\nosuch{y}$.\n", "Fine $x$.\n");
    let err = s.build_err();
    assert!(
        err.contains("content/a/index.vi.md:7:10"),
        "file:line:col of the bad command: {err}"
    );
    assert!(err.contains("nosuch"), "{err}");
}

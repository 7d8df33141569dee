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

#[test]
fn diagrams_are_inline_svg_named_and_numbered_with_references() {
    let s = site(
        "Như @fig-bat-tay cho thấy.\n\n```mermaid {#fig-bat-tay} Bắt tay ba bước\nsequenceDiagram\n    participant C as Máy khách\n    participant S as Máy chủ\n    C->>S: SYN\n    S->>C: SYN-ACK\n    C->>S: ACK\n```\n\n```mermaid\nflowchart LR\n    A[Trình duyệt] --> B[Bộ phân giải]\n```\n",
        "As @fig-handshake shows.\n\n```mermaid {#fig-handshake}\nsequenceDiagram\n    C->>S: SYN\n```\n",
    );
    let b = s.build().unwrap_or_else(|e| panic!("{e}"));
    let vi = html(&b, "a/index.html");
    assert_eq!(texts(&vi, "a.xref"), ["Hình 1"]);
    assert_eq!(common::attrs(&vi, "a.xref", "href"), ["#fig-bat-tay"]);
    assert_eq!(
        texts(&vi, "figure#fig-bat-tay > figcaption"),
        ["Hình 1. Bắt tay ba bước"]
    );
    assert_eq!(
        texts(&vi, "figure svg.diagram > title"),
        ["Bắt tay ba bước", "Lưu đồ"],
        "a diagram without a caption is named by its kind"
    );
    let desc = texts(&vi, "figure#fig-bat-tay svg > desc");
    assert_eq!(
        desc,
        ["Máy khách → Máy chủ: SYN. Máy chủ → Máy khách: SYN-ACK. Máy khách → Máy chủ: ACK."]
    );
    let page = b.output.text("a/index.html").unwrap();
    assert!(
        !page.contains("#ECECFF") && !page.contains("#9370DB"),
        "recoloured"
    );
    let en = html(&b, "en/a/index.html");
    assert_eq!(texts(&en, "a.xref"), ["Figure 1"]);
    assert_eq!(
        texts(&en, "figure svg.diagram > title"),
        ["Sequence diagram"]
    );
}

#[test]
fn images_and_tables_are_numbered_per_kind() {
    let s = site(
        "@tbl-so và @fig-anh.\n\n![Sơ đồ mạng](a.png){#fig-anh}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n: Số đo {#tbl-so}\n",
        "Plain.\n",
    );
    s.write("content/a/a.png", "png");
    let b = s.build().unwrap_or_else(|e| panic!("{e}"));
    let vi = html(&b, "a/index.html");
    assert_eq!(texts(&vi, "a.xref"), ["Bảng 1", "Hình 1"]);
    assert_eq!(
        texts(&vi, "figure#fig-anh figcaption"),
        ["Hình 1. Sơ đồ mạng"]
    );
    assert_eq!(texts(&vi, "figure#tbl-so > figcaption"), ["Bảng 1. Số đo"]);
    assert_eq!(texts(&vi, "figure#tbl-so td"), ["1", "2"]);
}

#[test]
fn a_reference_to_a_missing_figure_and_a_bad_diagram_fail_with_their_lines() {
    let s = site(
        "Xem @fig-bat-ta.\n\n```mermaid {#fig-bat-tay}\nsequenceDiagram\n    C->>S: SYN\n    C-->>\n```\n",
        "Plain.\n",
    );
    let err = s.build_err();
    assert!(
        err.contains("content/a/index.vi.md:5:5: error: `@fig-bat-ta` refers to no figure or table of this article"),
        "{err}"
    );
    assert!(err.contains("did you mean `@fig-bat-tay`?"), "{err}");
    assert!(
        err.contains("content/a/index.vi.md:10:1: error: this Mermaid diagram cannot be drawn"),
        "the line inside the block: {err}"
    );
}

#[test]
fn the_whole_error_of_a_missing_reference_reads_as_it_should() {
    let s = site(
        "Như @tbl-kich-thuoc cho thấy.\n\n| a |\n|---|\n| 1 |\n\n: Kích thước {#tbl-kich-thuoc-goi}\n",
        "Plain.\n",
    );
    let root = format!("{}/", s.root().display());
    let err = s.build_err().replace(&root, "");
    assert_eq!(
        err.trim_end(),
        "content/a/index.vi.md:5:5: error: `@tbl-kich-thuoc` refers to no figure or table of this article\n 5 | Như @tbl-kich-thuoc cho thấy.\n   |     ^\n  = help: did you mean `@tbl-kich-thuoc-goi`?"
    );
}

//! Markdown → HTML: pulldown-cmark's events through one pass (`pass`) that rewrites what
//! the page shows and hands every event to the collector of each concern, so that the stages
//! after this one read what they need without parsing the body again:
//!
//! - `headings`: ids (leaving the theme's own alone), anchor links, the table of contents,
//!   footnotes' ids;
//! - `code`: code blocks highlighted, experiment and source blocks through [`Hooks`];
//! - `values`: `{{ experiment.path }}` in prose through [`Hooks`];
//! - `formula`: `$…$` and `$$…$$` to MathML ([`crate::math`]), values inside them too;
//! - `diagrams`: ```` ```mermaid ```` blocks drawn as inline SVG ([`crate::diagram`]);
//! - `figures`: ids on figures and tables (`{#fig-…}`, `{#tbl-…}`) numbered, `@fig-…` linked;
//! - tables wrapped for scrolling, links collected for the link check, words counted;
//! - `collect`: the summary (the first paragraph) and the searchable text;
//! - `slips`: what would publish a broken page (a control character, a `<!--` never closed, a
//!   formula whose braces do not balance), each an error at its character.

mod code;
mod collect;
mod diagrams;
mod figures;
mod footnotes;
mod formula;
mod headings;
mod inline;
mod pass;
mod slips;

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::highlight::Highlighter;
use measured_content::theme::ThemeIds;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

pub use headings::slug_id;
use inline::{Piece, split_values};

/// An entry of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TocEntry {
    pub level: u8,
    pub id: String,
    pub text: String,
}

/// A link or image source written in the article, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub dest: String,
    pub place: Place,
}

/// A rendered article body and what was learnt while rendering it.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    pub html: String,
    pub toc: Vec<TocEntry>,
    pub ids: BTreeSet<String>,
    pub links: Vec<Link>,
    /// The first paragraph as plain text.
    pub summary: String,
    pub words: usize,
    /// The body's text for the search index: prose, code and what hooks injected, as a
    /// reader reads them (an image's alt text aside), with heading levels.
    pub text: measured_core::search_text::Text,
    /// Where each experiment the page uses was measured, as CSS custom properties (`--w1:'…';
    /// --w2:'…'`) for the element that holds the body: a value or claim mark names its
    /// experiment's by `data-w="1"` instead of repeating the text in its title. Set by the
    /// experiment stage's hooks after rendering.
    pub where_vars: String,
    /// `{{ claim.id }}` markers, in the order written, with their places.
    pub claim_marks: Vec<measured_measure::claims::Mark>,
    /// What the body injects: value references (`exp.path`, filters aside) and experiment
    /// figures (```` ```experiment name ````), for the languages' parity.
    pub injected: BTreeSet<String>,
    /// What the build reports without failing: code blocks in a language the highlighter
    /// does not know, with their file and line.
    pub warnings: Vec<Diagnostic>,
}

/// The kinds of fenced block the generator handles itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// ```` ```experiment <name> ````: an experiment's output, table or chart.
    Experiment,
    /// ```` ```source <experiment> <region> ````: an excerpt of an experiment's source.
    Source,
    /// ```` ```machines <name> ````: an experiment's values and claims on every machine.
    Machines,
}

pub use measured_core::reference::HookError;

/// The experiment stage's entry points into the Markdown stage.
pub trait Hooks: Sync {
    /// HTML for `{{ expr }}` in prose.
    fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError>;
    /// HTML for a fenced block of a kind the generator handles; `args` follows the kind word.
    fn block(
        &self,
        kind: BlockKind,
        args: &str,
        body: &str,
        lang: &Lang,
    ) -> Result<String, HookError>;
    /// Whether `name`, the first segment of a `{{ … }}` written in code, names a value source
    /// (an experiment): such text in code is an author's slip, not an example to show.
    fn names_experiment(&self, _name: &str) -> bool {
        false
    }
}

/// Hooks for a site without experiments: every reference is an error.
pub struct NoExperiments;

impl Hooks for NoExperiments {
    fn inline(&self, expr: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!(
            "`{{{{ {expr} }}}}` refers to an experiment, and this build has none"
        )))
    }

    fn block(&self, _: BlockKind, args: &str, _: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!(
            "block `{args}` refers to an experiment, and this build has none"
        )))
    }
}

/// Labels the Markdown stage writes into the page, from the UI strings.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    /// `aria-label` of a heading's anchor link.
    pub anchor: String,
    /// A figure's label, `{n}` its number ("Hình {n}").
    pub figure: String,
    /// A table's label ("Bảng {n}").
    pub table: String,
    /// A diagram's name when it has no caption, by kind.
    pub sequence: String,
    pub flowchart: String,
    pub diagram: String,
    /// `aria-label` of a footnote's link back to where it is cited, with `{n}` its number.
    pub footnote_back: String,
}

/// What to render.
pub struct Input<'a> {
    pub path: &'a Path,
    pub body: &'a str,
    /// 1-based line of the file where `body` starts.
    pub body_line: usize,
    pub lang: &'a Lang,
    pub highlighter: &'a Highlighter,
    /// The lines the highlighter parsed for the blocks this thread highlighted before, if the
    /// caller keeps them (the Markdown stage keeps one memo a worker); else each block
    /// remembers only its own.
    pub lines: Option<&'a crate::highlight::Lines>,
    pub hooks: &'a dyn Hooks,
    pub labels: &'a Labels,
    /// The ids the theme writes around the body, which headings' slugs leave alone.
    pub theme_ids: &'a ThemeIds,
}

/// The pulldown-cmark extensions every body is parsed with (the benchmark's floor uses them too).
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_GFM
        | Options::ENABLE_MATH
}

/// Renders an article body, reporting every error in it.
pub fn render(input: &Input<'_>) -> Result<Rendered, Diagnostics> {
    let mut pass = pass::Pass::new(input);
    let events = merge_text(Parser::new_ext(input.body, options()).into_offset_iter());
    for (at, slip) in slips::check(input.body, &events) {
        pass.error(at, slip);
    }
    let events = pass.run(events);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    pass.finish(html)
}

/// The experiments a body refers to, and where: `{{ name.… }}`, `experiment name`, `machines name`,
/// `source name …`.
pub fn experiment_refs(body: &str) -> Vec<(String, Range<usize>)> {
    let mut refs = Vec::new();
    let mut in_code = false;
    for (event, range) in merge_text(Parser::new_ext(body, options()).into_offset_iter()) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code = true;
                if let CodeBlockKind::Fenced(info) = kind {
                    let mut words = info.split_whitespace();
                    if let (Some("experiment" | "source" | "machines"), Some(name)) =
                        (words.next(), words.next())
                    {
                        refs.push((name.to_string(), range.clone()));
                    }
                }
            }
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(text) | Event::InlineMath(text) | Event::DisplayMath(text) if !in_code => {
                for piece in split_values(&text) {
                    if let Piece::Value(expr) = piece {
                        let name = expr.split(['.', '|', ' ']).next().unwrap_or_default();
                        if name == measured_measure::experiments::MACHINE
                            || name == measured_measure::claims::CLAIM
                        {
                            continue;
                        }
                        refs.push((name.to_string(), range.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    refs
}

/// An event and where in the body it was written.
type Ev<'e> = (Event<'e>, Range<usize>);

/// Merges adjacent text events (pulldown-cmark splits text at some characters).
fn merge_text<'e>(events: impl Iterator<Item = Ev<'e>>) -> Vec<Ev<'e>> {
    let mut out: Vec<Ev<'e>> = Vec::new();
    for (event, range) in events {
        if let (Event::Text(t), Some((Event::Text(prev), prev_range))) = (&event, out.last_mut()) {
            let mut s = prev.to_string();
            s.push_str(t);
            *prev = CowStr::from(s);
            prev_range.end = range.end;
            continue;
        }
        out.push((event, range));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use measured_core::html::escape;

    struct Echo;
    impl Hooks for Echo {
        fn names_experiment(&self, name: &str) -> bool {
            name == "tcp"
        }
        fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
            if expr.starts_with("bad") {
                return Err(HookError::new(format!("unknown `{expr}`")));
            }
            Ok(format!(
                "<data value=\"1\">{}:{}</data>",
                lang,
                escape(expr)
            ))
        }
        fn block(
            &self,
            kind: BlockKind,
            args: &str,
            body: &str,
            _: &Lang,
        ) -> Result<String, HookError> {
            Ok(format!(
                "<figure>{kind:?} {args} [{}]</figure>",
                body.trim()
            ))
        }
    }

    fn render_str(body: &str) -> Result<Rendered, Diagnostics> {
        let h = Highlighter::default();
        let lang = Lang::parse("vi").unwrap();
        let labels = Labels {
            anchor: "Liên kết tới mục {heading}".into(),
            figure: "Hình {n}".into(),
            table: "Bảng {n}".into(),
            sequence: "Sơ đồ tuần tự".into(),
            flowchart: "Lưu đồ".into(),
            diagram: "Sơ đồ".into(),
            footnote_back: "Quay lại chỗ dẫn chú thích {n}".into(),
        };
        render(&Input {
            path: Path::new("content/a/index.vi.md"),
            body,
            body_line: 5,
            lang: &lang,
            highlighter: &h,
            lines: None,
            hooks: &Echo,
            labels: &labels,
            theme_ids: &ThemeIds::default(),
        })
    }

    #[test]
    fn headings_get_ids_anchors_and_toc() {
        let r = render_str("## Bắt tay TCP\n\n### Kết nối\n\n## Bắt tay TCP\n").unwrap();
        assert_eq!(
            r.toc.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["bat-tay-tcp", "ket-noi", "bat-tay-tcp-1"]
        );
        assert!(r.html.contains("<h2 id=\"bat-tay-tcp\">Bắt tay TCP <a class=\"anchor\" href=\"#bat-tay-tcp\" aria-label=\"Liên kết tới mục Bắt tay TCP\">#</a></h2>"), "{}", r.html);
    }

    #[test]
    fn values_are_injected_in_prose_but_not_in_code() {
        let r = render_str("Đo được {{ x.y | fixed(2) }} ở đây, `{{ x.y }}` không.\n\n```rust\nlet s = \"{{ x.y }}\";\n```\n").unwrap();
        assert!(
            r.html
                .contains("<data value=\"1\">vi:x.y | fixed(2)</data>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("<code>{{ x.y }}</code>"), "{}", r.html);
        assert!(r.html.contains("{{ x.y }}"), "{}", r.html);
        assert_eq!(
            r.summary,
            "Đo được vi:x.y | fixed(2) ở đây, {{ x.y }} không."
        );
    }

    #[test]
    fn hook_errors_name_the_file_line_and_column() {
        let e = render_str("Dòng một.\n\nDòng hai có {{ bad.path }}.\n").unwrap_err();
        let d = &e.0[0];
        assert_eq!(d.place.to_string(), "content/a/index.vi.md:7:13");
        assert_eq!(d.message, "unknown `bad.path`");
        assert_eq!(d.snippet.as_deref(), Some("Dòng hai có {{ bad.path }}."));
    }

    #[test]
    fn unclosed_value_is_an_error() {
        let e = render_str("Text {{ x.y\n").unwrap_err();
        assert!(e.0[0].message.contains("never closed"));
    }

    #[test]
    fn experiment_and_source_blocks_go_to_hooks() {
        let r = render_str("```experiment sizes\ntable: rows\n```\n\n```source tcp connect\n```\n")
            .unwrap();
        assert!(
            r.html
                .contains("<figure>Experiment sizes [table: rows]</figure>"),
            "{}",
            r.html
        );
        assert!(
            r.html.contains("<figure>Source tcp connect []</figure>"),
            "{}",
            r.html
        );
    }

    #[test]
    fn code_is_highlighted_and_tables_wrapped_and_links_collected() {
        let r = render_str("```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](/other/#h) ![i](img.png)\n").unwrap();
        assert!(r.html.contains("<pre class=\"code\" tabindex=\"0\" data-lang=\"rust\"><code class=\"language-rust\"><span class=\""), "{}", r.html);
        assert!(
            r.html.contains("<div class=\"table-wrap\"><table>"),
            "{}",
            r.html
        );
        let links: Vec<_> = r
            .links
            .iter()
            .map(|l| (l.dest.as_str(), l.place.line))
            .collect();
        assert_eq!(links, [("/other/#h", Some(13)), ("img.png", Some(13))]);
    }

    #[test]
    fn the_searchable_text_is_what_a_reader_reads() {
        let r = render_str(
            "Đo được {{ x.y }} ở *đây*.\n\n## Bắt tay\n\n```rust\nlet tcp_nodelay = 1;\n```\n\n![ảnh chụp](a.png) `mã`<br>x\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```experiment sizes\ntable: rows\n```\n",
        )
        .unwrap();
        let text = r.text.as_str();
        assert_eq!(
            text,
            "Đo được vi:x.y ở đây. Bắt tay let tcp_nodelay = 1; mã x a b 1 2 Experiment sizes [table: rows] "
        );
        let heading = text.find("Bắt").unwrap();
        assert_eq!(
            r.text.runs(),
            [(heading, 2), (heading + "Bắt tay".len(), 0)],
            "only the heading weighs more"
        );
    }

    #[test]
    fn math_becomes_mathml_and_reads_as_plain_text() {
        let r =
            render_str("Một varint $2^{7}$ byte, và\n\n$$\\text{BDP} = B \\times RTT$$\n").unwrap();
        assert!(
            r.html
                .contains("<math><msup><mn>2</mn><mn>7</mn></msup></math>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("<math display=\"block\">"), "{}", r.html);
        assert_eq!(r.summary, "Một varint 2^7 byte, và");
        let heading = render_str("## Giới hạn $2^{62}$\n").unwrap();
        assert_eq!(heading.toc[0].text, "Giới hạn 2^62");
        assert!(heading.html.contains("<msup>"), "{}", heading.html);
        assert_eq!(r.text.as_str(), "Một varint 2^7 byte, và BDP = B × RTT ");
        let prices = render_str("Giá $5 và $6, 5 $ mỗi cái, \\$x\\$.\n").unwrap();
        assert!(!prices.html.contains("<math"), "{}", prices.html);
        assert!(
            prices.html.contains("Giá $5 và $6, 5 $ mỗi cái, $x$."),
            "{}",
            prices.html
        );
    }

    #[test]
    fn a_value_inside_math_is_its_shown_text() {
        let r = render_str("Có $B = {{ x.y }} \\times 2$ ở đây.\n").unwrap();
        assert!(r.html.contains("<mtext>vi:x.y</mtext>"), "{}", r.html);
        assert!(!r.html.contains("<data"), "{}", r.html);
        assert!(r.injected.contains("x.y"), "{:?}", r.injected);
        assert_eq!(
            experiment_refs("Có $B = {{ tcp.rtt }}$.\n")
                .into_iter()
                .map(|(n, _)| n)
                .collect::<Vec<_>>(),
            ["tcp"]
        );
    }

    #[test]
    fn a_latex_error_names_the_character_in_the_article() {
        let e = render_str("Dòng một.\n\nHai $x + \\nosuch$ và $ok$.\n").unwrap_err();
        let d = &e.0[0];
        assert_eq!(d.place.to_string(), "content/a/index.vi.md:7:10");
        assert!(d.message.contains("nosuch"), "{}", d.message);
        let e = render_str("A $B = {{ x.y }} \\bad$.\n").unwrap_err();
        assert_eq!(e.0[0].place.to_string(), "content/a/index.vi.md:5:18");
        let e = render_str("A $B = {{ bad.y }}$.\n").unwrap_err();
        assert_eq!(e.0[0].place.to_string(), "content/a/index.vi.md:5:8");
        assert_eq!(e.0[0].message, "unknown `bad.y`");
    }

    #[test]
    fn figures_and_tables_are_numbered_and_referenced() {
        let r = render_str("Xem @fig-h và @tbl-t, @fig-s.\n\n```experiment sizes {#fig-s}\nchart: bar\n```\n\n```mermaid {#fig-h} Bắt tay\nsequenceDiagram\n    C->>S: SYN\n```\n\n![Ảnh *chụp*](a.png){#fig-i}\n\n| a |\n|---|\n| 1 |\n\n: Kích thước {#tbl-t}\n").unwrap();
        let html = &r.html;
        assert!(html.contains("Xem <a class=\"xref\" href=\"#fig-h\">Hình 2</a> và <a class=\"xref\" href=\"#tbl-t\">Bảng 1</a>, <a class=\"xref\" href=\"#fig-s\">Hình 1</a>."), "{html}");
        assert!(
            html.contains("<figure id=\"fig-s\">Experiment sizes"),
            "{html}"
        );
        assert!(
            html.contains("<figure class=\"diagram-figure\" id=\"fig-h\"><svg class=\"diagram\""),
            "{html}"
        );
        assert!(
            html.contains(
                "<figcaption><span class=\"label\">Hình 2.</span> Bắt tay</figcaption></figure>"
            ),
            "{html}"
        );
        assert!(html.contains("<figure class=\"image\" id=\"fig-i\"><img src=\"a.png\" alt=\"Ảnh chụp\" /><figcaption><span class=\"label\">Hình 3.</span> Ảnh chụp</figcaption></figure>"), "{html}");
        assert!(html.contains("<figure class=\"table\" id=\"tbl-t\"><figcaption><span class=\"label\">Bảng 1.</span> Kích thước</figcaption><div class=\"table-wrap\"><table>"), "{html}");
        assert!(html.contains("</table>\n</div></figure>"), "{html}");
        for id in ["fig-h", "fig-s", "fig-i", "tbl-t"] {
            assert!(r.ids.contains(id), "{id} is an anchor for the link check");
        }
        assert_eq!(r.summary, "Xem Hình 2 và Bảng 1, Hình 1.");
    }

    #[test]
    fn a_reference_to_a_missing_id_names_the_closest() {
        let e = render_str("Một.\n\nXem @fig-handshak.\n\n```experiment x {#fig-handshake}\n```\n")
            .unwrap_err();
        let d = &e.0[0];
        assert_eq!(d.place.to_string(), "content/a/index.vi.md:7:5");
        assert_eq!(
            d.message,
            "`@fig-handshak` refers to no figure or table of this article"
        );
        assert_eq!(d.hint.as_deref(), Some("did you mean `@fig-handshake`?"));
        let e = render_str("```experiment x {#sizes}\n```\n\n: Cap {#tbl-x}\n").unwrap_err();
        assert!(e.0[0].message.contains("`{#sizes}` is not an id"), "{e}");
        assert!(e.0[1].message.contains("follows no table"), "{e}");
        let e = render_str("```source tcp connect {#fig-src}\n```\n").unwrap_err();
        assert!(e.0[0].message.contains("cannot carry `{#fig-src}`"), "{e}");
    }

    #[test]
    fn a_mermaid_error_names_its_line_in_the_article() {
        let e = render_str("Một.\n\n```mermaid\nsequenceDiagram\n    C->>S: SYN\n    C-->>\n```\n")
            .unwrap_err();
        let d = &e.0[0];
        assert_eq!(d.place.line, Some(10), "{e}");
        assert!(
            d.message
                .starts_with("this Mermaid diagram cannot be drawn"),
            "{e}"
        );
        let r =
            render_str("```mermaid\nflowchart LR\n    A[Trình duyệt] --> B[DNS]\n```\n").unwrap();
        assert!(
            r.html.contains("<title id=\"mmd1-t\">Lưu đồ</title>"),
            "{}",
            r.html
        );
        assert!(
            r.text.as_str().contains("Trình duyệt"),
            "{}",
            r.text.as_str()
        );
        let e =
            render_str("```mermaid\nsequenceDiagram\n    C->>S: {{ tcp.rtt }}\n```\n").unwrap_err();
        assert_eq!(e.0[0].place.line, Some(7), "{e}");
        assert!(e.0[0].message.contains("inside a code block"), "{e}");
    }

    #[test]
    fn refs_find_experiments_outside_code() {
        let refs: Vec<String> = experiment_refs(
            "A {{ tcp.x }} `{{ no.x }}`\n\n```experiment sizes\n```\n\n```source varint zz\n```\n",
        )
        .into_iter()
        .map(|(n, _)| n)
        .collect();
        assert_eq!(refs, ["tcp", "sizes", "varint"]);
    }
}

//! Properties of the functions that read what authors write, checked on generated inputs by
//! proptest in every `cargo test`: the front-matter splitter, the `{{ }}` values of a body,
//! URL segments, number formatting, the claims parser, and formulas and diagrams nested any way
//! (never a stack overflow). The same functions have fuzz targets in `fuzz/`.

use std::path::Path;

use measured::claims::{self, Cmp, Exact, Tolerance, Value};
use measured::format::{self, Filter};
use measured::highlight::Highlighter;
use measured::lang::Lang;
use measured::markdown::{self, BlockKind, HookError, Hooks, Input, Labels};
use measured::theme::ThemeIds;
use proptest::prelude::*;

/// Hooks that show a value as `<data>EXPR</data>` after checking its filter, as the real
/// injector does, and refuse experiment blocks.
struct Echo;

impl Hooks for Echo {
    fn inline(&self, expr: &str, _: &Lang) -> Result<String, HookError> {
        if let Some((_, filter)) = expr.split_once('|') {
            Filter::parse(filter).map_err(HookError::new)?;
        }
        Ok(format!("<data>{}</data>", measured::html::escape(expr)))
    }

    fn block(&self, _: BlockKind, args: &str, _: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!("no experiment `{args}`")))
    }
}

fn render(body: &str) -> Result<markdown::Rendered, measured::Diagnostics> {
    thread_local! {
        static HIGHLIGHTER: Highlighter = Highlighter::default();
    }
    HIGHLIGHTER.with(|highlighter| {
        markdown::render(&Input {
            path: Path::new("content/a/index.vi.md"),
            body,
            body_line: 5,
            lang: &Lang::parse("vi").unwrap(),
            highlighter,
            lines: None,
            hooks: &Echo,
            labels: &Labels::default(),
            theme_ids: &ThemeIds::default(),
        })
    })
}

/// Text an author might write around values: words, braces, pipes, newlines, diacritics.
fn prose() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zđêơ \\n{}|#*`\\-]{0,40}").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_splitter_finds_the_fences_and_counts_lines(
        yaml in "[a-z: \\n-]{0,60}",
        body in "[a-z \\n-]{0,60}",
    ) {
        prop_assume!(!yaml.lines().any(|l| l.trim_end() == "---"));
        let yaml = if yaml.is_empty() || yaml.ends_with('\n') { yaml } else { format!("{yaml}\n") };
        let text = format!("---\n{yaml}---\n{body}");
        let split = measured::frontmatter::split(Path::new("a.md"), &text).unwrap();
        prop_assert_eq!(split.text, yaml.as_str());
        prop_assert_eq!(split.body, body.as_str());
        prop_assert_eq!(split.body_line, 3 + yaml.matches('\n').count());
    }

    #[test]
    fn any_text_is_an_article_or_an_error_with_a_line(text in "(---\\n)?[ -~\\n\\u{feff}đ]{0,200}") {
        let path = Path::new("content/a/index.vi.md");
        if let Err(all) = measured::content::parse_doc(path, "a".into(), Lang::parse("vi").unwrap(), &text) {
            prop_assert!(!all.is_empty());
            for d in &all.0 {
                let line = d.place.line.expect("a line");
                prop_assert!(line >= 1 && line <= text.lines().count().max(1) + 1, "{}", d);
            }
        }
    }

    #[test]
    fn every_closed_value_is_shown_and_every_unclosed_one_is_an_error(
        parts in proptest::collection::vec((prose(), "[a-z]{1,6}\\.[a-z]{1,6}"), 0..6),
        tail in "[a-z ]{0,10}",
    ) {
        // Prose words only: markup around them (an indented line is code) is another test's.
        let clean = |s: &str| {
            s.replace(['{', '}', '`', '|', '#', '*', '-'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let body: String = parts
            .iter()
            .map(|(text, expr)| format!("{} {{{{ {expr} }}}} ", clean(text)))
            .collect::<String>()
            + &tail;
        let html = render(&body).map(|r| r.html).unwrap_or_else(|d| panic!("{d}"));
        for (_, expr) in &parts {
            let shown = format!("<data>{expr}</data>");
            prop_assert!(html.contains(&shown), "{}", html);
        }
        let unclosed = format!("x {} {{{{ {tail}", body.trim());
        let e = render(&unclosed).err().map(|d| d.to_string()).unwrap_or_default();
        prop_assert!(e.contains("is never closed"), "{}", e);
    }

    #[test]
    fn bodies_of_braces_and_pipes_never_panic(body in "[a-z {}|()\\n`#>\\-*\\[\\]!:0-9đ]{0,120}") {
        if let Err(d) = render(&body) {
            for d in d.0 {
                prop_assert!(d.place.line.is_some_and(|l| l >= 5), "{}", d);
            }
        }
    }

    #[test]
    fn url_suggestions_are_always_valid_segments(s in "\\PC{0,30}") {
        let suggestion = measured::urls::suggestion(&s);
        prop_assert_eq!(measured::urls::segment_problem(&suggestion), None, "{}", suggestion);
        if measured::urls::segment_problem(&s).is_none() {
            prop_assert!(!s.is_empty() && !s.starts_with('.'));
            prop_assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)), "{}", s);
        }
    }

    #[test]
    fn numbers_are_short_and_never_negative_zero(x in proptest::num::f64::ANY, n in 0u8..=12) {
        let lang = Lang::parse("en").unwrap();
        for filter in [Filter::Auto, Filter::Sig(n.max(1)), Filter::Duration, Filter::Bytes, Filter::Percent, Filter::Ratio] {
            let shown = format::number(x, false, filter, &lang);
            prop_assert!(shown.chars().count() <= 32, "{:?} {}: {}", filter, x, shown);
            prop_assert!(!is_negative_zero(&shown), "{:?} {}: {}", filter, x, shown);
        }
        let fixed = format::number(x, false, Filter::Fixed(n), &lang);
        prop_assert!(!is_negative_zero(&fixed), "fixed {}: {}", x, fixed);
    }

    #[test]
    fn integers_print_every_digit(i in proptest::num::i64::ANY, u in proptest::num::u64::ANY) {
        let lang = Lang::parse("vi").unwrap();
        for (value, plain) in [(i128::from(i), i.to_string()), (i128::from(u), u.to_string())] {
            let shown = format::integer(value, Filter::Auto, &lang);
            prop_assert_eq!(shown.replace('.', ""), plain);
        }
    }
}

/// An operand as an author writes it: an experiment path or a number literal.
fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9_-]{0,8}(\\.[a-z0-9_]{1,6}){1,3}",
        "-?[0-9]{1,6}(\\.[0-9]{1,4})?(e-?[0-9]{1,2})?",
    ]
}

/// Spaces or nothing, where an author may put them.
fn gap() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(""), Just(" "), Just("  ")]
}

/// `text`'s characters from character `at`, as many as `of` has: what an operand's `at` points to.
fn chars_at(text: &str, at: usize, of: &str) -> String {
    text.chars().skip(at).take(of.chars().count()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_claim_parses_into_its_operands_where_they_are_written(
        (lhs, rhs) in (operand(), operand()),
        op in prop_oneof![Just("<"), Just("<="), Just(">"), Just(">="), Just("=="), Just("!="), Just("~=")],
        (g1, g2, g3) in (gap(), gap(), gap()),
        tol in prop_oneof![Just("± 10%"), Just("+- 0.05"), Just("±2.5")],
    ) {
        let tail = if op == "~=" { format!(" {tol}") } else { String::new() };
        let text = format!("{g1}{lhs}{g2}{op}{g3}{rhs}{tail}");
        let e = claims::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {}", e.message));
        prop_assert_eq!(e.cmp.symbol(), op);
        for (operand, written) in [(&e.lhs, &lhs), (&e.rhs, &rhs)] {
            prop_assert_eq!(&operand.text, written);
            prop_assert_eq!(chars_at(&text, operand.at, written), written.as_str(), "{:?}", text);
            match &operand.value {
                Value::Path { experiment } => {
                    prop_assert_eq!(Some(experiment.as_str()), written.split('.').next());
                }
                Value::Number(n) => {
                    let x: f64 = written.parse().unwrap();
                    prop_assert_eq!(n.as_f64(), x);
                    prop_assert_eq!(matches!(n, Exact::Int(_)), !written.contains(['.', 'e']));
                }
            }
        }
        if let Cmp::Approx(t) = e.cmp {
            let expected = match tol {
                "± 10%" => Tolerance::Relative(10.0),
                "+- 0.05" => Tolerance::Absolute(0.05),
                _ => Tolerance::Absolute(2.5),
            };
            prop_assert_eq!(t, expected);
        }
    }

    #[test]
    fn any_claim_text_parses_or_says_where_it_is_wrong(text in "[a-z0-9 .<>=!~±%+\\-eE_]{0,40}|\\PC{0,20}") {
        match claims::parse(&text) {
            Ok(e) => {
                for operand in [&e.lhs, &e.rhs] {
                    prop_assert_eq!(chars_at(&text, operand.at, &operand.text), operand.text.as_str());
                }
            }
            Err(e) => prop_assert!(e.at <= text.chars().count(), "{:?} at {}", text, e.at),
        }
    }
}

/// `-0`, `-0.00`, `-0%`: a minus sign before digits that are all zero.
fn is_negative_zero(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('-') else {
        return false;
    };
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || ",.".contains(*c))
        .collect();
    !digits.is_empty() && digits.chars().all(|c| "0,.".contains(c))
}

/// What nests a formula, as an opening piece and its closing one: groups, delimiters,
/// environments, commands waiting for arguments, switches and scripts (issue 35).
const FORMULA_NESTS: [(&str, &str); 16] = [
    ("{", "}"),
    ("\\sqrt{", "}"),
    ("\\frac{a}{", "}"),
    ("x^{", "}"),
    ("\\left(", "\\right)"),
    ("\\begin{matrix}", "\\end{matrix}"),
    ("\\sqrt[", "]x"),
    ("\\sqrt ", ""),
    ("\\frac a", ""),
    ("\\displaystyle a", ""),
    ("\\color{red} a", ""),
    ("\\mathbin", ""),
    ("\\operatorname*", ""),
    ("\\not", ""),
    ("_", ""),
    ("\\text{", "}"),
];

/// What nests a Mermaid diagram, by kind: its first line, a nesting line and the line that
/// closes it.
const DIAGRAM_NESTS: [(&str, &str, &str); 6] = [
    ("sequenceDiagram", "loop again", "end"),
    ("flowchart TD", "subgraph s", "end"),
    ("stateDiagram-v2", "state S {", "}"),
    ("C4Context", "Boundary(b, \"B\") {", "}"),
    ("zenuml", "if(x) {", "}"),
    ("block-beta", "block:b", "end"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    // A debug build takes about 21 KB of stack a level of a formula, and this test's thread
    // has 2 MB: a nesting the bound undercounts would abort the test process here.
    #[test]
    fn a_formula_nested_any_way_converts_or_is_an_error_never_a_crash(
        picks in proptest::collection::vec(0..FORMULA_NESTS.len(), 0..200),
    ) {
        let opens: String = picks.iter().map(|&i| FORMULA_NESTS[i].0).collect();
        let closes: String = picks.iter().rev().map(|&i| FORMULA_NESTS[i].1).collect();
        let latex = format!("{opens}y{closes}");
        match measured::math::to_mathml(&latex, measured::math::Display::Block) {
            Ok(mathml) => prop_assert!(mathml.starts_with("<math"), "{}", mathml),
            Err(e) => prop_assert!(e.offset <= latex.len() && e.line >= 1, "{}", e),
        }
    }

    #[test]
    fn a_diagram_nested_any_way_is_drawn_or_an_error_never_a_crash(
        kind in 0..DIAGRAM_NESTS.len(),
        depth in 0usize..400,
        indent in 0usize..3,
    ) {
        let (first, open, close) = DIAGRAM_NESTS[kind];
        let mut source = format!("{first}\n");
        for level in 0..depth {
            source.push_str(&format!("{}{open}\n", " ".repeat(level * indent)));
        }
        source.push_str("A->>B: hi\n");
        for level in (0..depth).rev() {
            source.push_str(&format!("{}{close}\n", " ".repeat(level * indent)));
        }
        let opts = measured::diagram::DiagramOptions { id: "mmd1", title: "Diagram" };
        if let Err(e) = measured::diagram::mermaid(&source, &opts) {
            prop_assert!(e.line.is_none_or(|l| l >= 1 && l <= depth * 2 + 2), "{}", e);
        }
    }
}

//! Math written in LaTeX (`$…$` inline, `$$…$$` on its own line) turned into MathML at build
//! time, so a page shows formulas with no script and no web font; a formula the converter
//! cannot read is an error that names its line and column inside the formula.

mod depth;

use std::sync::LazyLock;

use math_core::{LatexToMathML, MathCoreConfig, MathDisplay};

pub use depth::MAX_DEPTH;

/// How a formula sits in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Display {
    /// Inside a sentence (`$…$`).
    Inline,
    /// A block of its own, centred (`$$…$$`).
    Block,
}

/// A formula that cannot be converted: where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathError {
    /// The byte offset in the formula where the error is.
    pub offset: usize,
    /// The line within the formula, from 1 (a `$$` block may span several).
    pub line: usize,
    /// The column within that line, in characters, from 1.
    pub column: usize,
    pub message: String,
    /// What to do, when it is not "fix the LaTeX".
    pub hint: Option<String>,
}

impl std::fmt::Display for MathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// One converter for the whole build: it holds no state between formulas.
static CONVERTER: LazyLock<LatexToMathML> = LazyLock::new(|| {
    LatexToMathML::new(MathCoreConfig::default())
        .unwrap_or_else(|_| unreachable!("no macros are given, so none can fail to parse"))
});

/// The MathML of `latex`: a `<math>` element, with `display="block"` for a block.
pub fn to_mathml(latex: &str, display: Display) -> Result<String, MathError> {
    let mode = match display {
        Display::Inline => MathDisplay::Inline,
        Display::Block => MathDisplay::Block,
    };
    check(latex)?;
    // A formula that makes math-core panic (a bug of its own, as the one `check` steers clear
    // of) is an error of that formula, not the end of the build or of `serve`.
    let converted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        CONVERTER.convert_with_local_state(latex, mode)
    }));
    let error = |offset: usize, message: String, hint: Option<String>| {
        let (line, column) = line_column(latex, offset);
        MathError {
            offset,
            line,
            column,
            message,
            hint,
        }
    };
    match converted {
        Ok(Ok(converted)) => Ok(converted.mathml),
        Ok(Err(e)) => Err(error(e.0.start, e.error_message(), None)),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(error(
                0,
                format!("the converter (math-core) failed on it: {why}"),
                Some("write the formula another way; this is a bug of math-core's, worth reporting with the formula".into()),
            ))
        }
    }
}

/// What math-core cannot be given: a formula nested deeper than [`MAX_DEPTH`] (it recurses as
/// deep as the formula nests, and would exhaust its stack), or a table's `&` or `\\` that is
/// not between two cells, or a script right after one (its writer panics on those in a debug
/// build, and drops the cell in release).
fn check(latex: &str) -> Result<(), MathError> {
    let (offset, message, hint) = match depth::check(latex, MAX_DEPTH) {
        Ok(()) => return Ok(()),
        Err(depth::Problem::TooDeep(offset)) => (
            offset,
            format!(
                "it nests more than {MAX_DEPTH} levels deep here (braces, \\left…\\right, environments, and the arguments of commands such as \\frac, \\sqrt, ^ and _ each add a level)"
            ),
            format!(
                "write it with less nesting, or as several formulas: measured draws at most {MAX_DEPTH} levels, beyond which the converter would exhaust its stack"
            ),
        ),
        Err(depth::Problem::Misplaced(offset, depth::Misplaced::Separator(which))) => (
            offset,
            format!(
                "this `{which}` is inside a group, an argument or a switch of a table's cell, not between two cells"
            ),
            format!(
                "close what is open before the `{which}` (braces, \\left…\\right, the arguments of \\frac…), give a switch its cell's braces (`{{\\displaystyle a}} & b`), and write \\frac{{a}}{{b}} for a \\over b; a literal ampersand is `\\&`"
            ),
        ),
        Err(depth::Problem::Misplaced(offset, depth::Misplaced::Script)) => (
            offset,
            "this script (`^`, `_` or `'`) starts a cell of a table, with nothing for it to go on"
                .to_string(),
            "write what it goes on before it, or `{}` for nothing: `& {}^2`".to_string(),
        ),
    };
    let (line, column) = line_column(latex, offset);
    Err(MathError {
        offset,
        line,
        column,
        message,
        hint: Some(hint),
    })
}

/// A measured value as it is to appear inside a formula: its formatted text (`1.234,5`, `12 µs`)
/// as upright text, with LaTeX's special characters escaped, so `{{ … }}` can stand in math.
pub fn value_text(shown: &str) -> String {
    let mut s = String::from("\\text{");
    for c in shown.chars() {
        match c {
            '\\' => s.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                s.push('\\');
                s.push(c);
            }
            '^' => s.push_str("\\^{}"),
            '~' => s.push_str("\\~{}"),
            _ => s.push(c),
        }
    }
    s.push('}');
    s
}

/// A formula's MathML as a line of plain text a reader (and the search index) can read:
/// `2^62`, `BDP = B × RTT`, `a/b`. Operators are spaced, scripts and fractions marked with
/// `^`, `_` and `/`, and a group of several tokens under them put in parentheses.
pub fn plain_text(mathml: &str) -> String {
    // Open elements: their name and how many children they have had.
    let mut stack: Vec<(&str, usize)> = Vec::new();
    let mut out = String::new();
    let mut rest = mathml;
    while let Some(lt) = rest.find('<') {
        push_text(&mut out, &rest[..lt], stack.last().map(|e| e.0));
        let gt = rest[lt..].find('>').map_or(rest.len(), |g| lt + g);
        let tag = &rest[lt + 1..gt];
        rest = rest.get(gt + 1..).unwrap_or("");
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop().is_some_and(|(n, _)| n == "mrow") && name == "mrow" {
                close_group(&mut out, &stack);
            }
            continue;
        }
        let name = tag.split([' ', '/']).next().unwrap_or_default();
        if let Some((parent, children)) = stack.last_mut() {
            *children += 1;
            if *children == 2 {
                match *parent {
                    "msup" => out.push('^'),
                    "msub" => out.push('_'),
                    "mfrac" => out.push('/'),
                    _ => {}
                }
            }
        }
        if tag.ends_with('/') {
            continue;
        }
        if name == "mrow" && is_script(&stack) {
            out.push('(');
        }
        stack.push((name, 0));
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether the innermost open element puts its children in scripts or a fraction.
fn is_script(stack: &[(&str, usize)]) -> bool {
    stack
        .last()
        .is_some_and(|(n, _)| matches!(*n, "msup" | "msub" | "mfrac" | "msubsup"))
}

fn close_group(out: &mut String, stack: &[(&str, usize)]) {
    if is_script(stack) {
        out.push(')');
    }
}

/// A token's text, its references decoded, spaced when it is an operator.
fn push_text(out: &mut String, raw: &str, element: Option<&str>) {
    if raw.is_empty() {
        return;
    }
    let text = raw
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    if element == Some("mo") && !matches!(text.as_str(), "(" | ")" | "[" | "]" | "|") {
        out.push(' ');
        out.push_str(&text);
        out.push(' ');
    } else {
        out.push_str(&text);
    }
}

/// The 1-based line and character column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The element names of `mathml`, in order, to compare structure without attributes.
    fn elements(mathml: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(mathml).expect("MathML is well-formed XML");
        doc.descendants()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name().to_string())
            .collect()
    }

    fn texts(mathml: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(mathml).unwrap();
        doc.descendants()
            .filter(|n| n.is_element())
            .filter_map(|n| n.text().map(|t| format!("{}:{t}", n.tag_name().name())))
            .collect()
    }

    #[test]
    fn a_power_is_a_superscript() {
        let m = to_mathml("2^{7}", Display::Inline).unwrap();
        assert_eq!(elements(&m), ["math", "msup", "mn", "mn"]);
        assert_eq!(texts(&m), ["mn:2", "mn:7"]);
        assert!(!m.contains("display=\"block\""), "{m}");
    }

    #[test]
    fn a_fraction_has_its_numerator_over_its_denominator() {
        let m = to_mathml("\\frac{a}{b}", Display::Block).unwrap();
        assert!(m.starts_with("<math display=\"block\">"), "{m}");
        assert_eq!(elements(&m), ["math", "mfrac", "mi", "mi"]);
        assert_eq!(texts(&m), ["mi:a", "mi:b"]);
    }

    #[test]
    fn text_stays_upright_and_operators_are_operators() {
        let m = to_mathml("\\text{BDP} = B \\times RTT", Display::Inline).unwrap();
        let t = texts(&m);
        assert_eq!(t[0], "mtext:BDP");
        assert!(t.contains(&"mo:=".to_string()), "{t:?}");
        assert!(t.contains(&"mo:×".to_string()), "{t:?}");
        assert!(t.contains(&"mi:B".to_string()), "{t:?}");
        assert!(!m.contains("<script") && !m.contains("font-face"), "{m}");
    }

    #[test]
    fn an_error_names_its_line_and_column_in_the_formula() {
        let e = to_mathml("x = \\frac{a}{b} + \\nosuchcommand", Display::Inline).unwrap_err();
        assert_eq!((e.line, e.column), (1, 19), "{e}");
        assert!(e.message.contains("nosuchcommand"), "{e}");
        let e = to_mathml("a + b \\\\\nc + {d", Display::Block).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.column >= 5, "{e}");
    }

    #[test]
    fn a_measured_value_reads_as_text_inside_a_formula() {
        assert_eq!(value_text("1.234,5 µs"), "\\text{1.234,5 µs}");
        assert_eq!(value_text("50%_{x}"), "\\text{50\\%\\_\\{x\\}}");
        let m = to_mathml(&format!("B = {}", value_text("1.234,5")), Display::Inline).unwrap();
        assert!(texts(&m).contains(&"mtext:1.234,5".to_string()), "{m}");
    }

    #[test]
    fn plain_text_reads_scripts_fractions_and_operators() {
        let text = |tex| plain_text(&to_mathml(tex, Display::Inline).unwrap());
        assert_eq!(text("2^{62}"), "2^62");
        assert_eq!(text("\\text{BDP} = B \\times RTT"), "BDP = B × RTT");
        assert_eq!(text("\\frac{a+b}{c}"), "(a + b)/c");
        assert_eq!(text("x_{i} < 2^{n-1}"), "x_i < 2^(n − 1)");
    }

    #[test]
    fn a_separator_or_script_out_of_place_in_a_table_is_an_error_where_it_is() {
        for (latex, at, what) in [
            ("\\begin{matrix}a &'\\end{matrix}", 17, "this script"),
            ("\\begin{matrix}a \\\\ ^2\\end{matrix}", 19, "this script"),
            ("\\begin{matrix}&_2\\end{matrix}", 15, "this script"),
            ("\\begin{matrix}{a&b}\\end{matrix}", 16, "this `&`"),
            (
                "\\begin{matrix}\\left(a&b\\right)\\end{matrix}",
                21,
                "this `&`",
            ),
            (
                "\\begin{matrix}\\sqrt{a\\\\b}\\end{matrix}",
                21,
                "this `\\\\`",
            ),
            (
                "\\begin{matrix}\\displaystyle a&b\\end{matrix}",
                29,
                "this `&`",
            ),
            ("\\begin{matrix}\\frac a&b\\end{matrix}", 21, "this `&`"),
            ("\\begin{matrix}a^&b\\end{matrix}", 16, "this `&`"),
            ("\\begin{matrix}a\\over b&c\\end{matrix}", 22, "this `&`"),
            (
                "\\begin{pmatrix}&in{p&trix}&t\\end{pmatrix}",
                20,
                "this `&`",
            ),
        ] {
            let e = to_mathml(latex, Display::Block).unwrap_err();
            assert_eq!(e.offset, at, "{latex}: {e}");
            assert!(e.message.starts_with(what), "{latex}: {e}");
        }
        for fine in [
            "\\begin{matrix}a & {}^2 \\\\ \\& & b'\\end{matrix}",
            "\\begin{matrix}a&\\begin{matrix}c&d\\end{matrix}\\end{matrix}",
            "\\begin{matrix}\\text{R\\&D} & {\\displaystyle x}\\end{matrix}",
            "\\begin{cases} x & x > 0 \\\\ -x & \\text{else} \\end{cases}",
            "\\begin{aligned} a &= b \\\\ &= c \\end{aligned}",
        ] {
            let done = to_mathml(fine, Display::Block);
            assert!(done.is_ok(), "{fine}: {done:?}");
        }
        // Out of a table, and in text, math-core says what is wrong itself.
        for theirs in ["a & b", "\\begin{matrix}\\text{R&D}\\end{matrix}"] {
            let e = to_mathml(theirs, Display::Block).unwrap_err();
            assert!(e.hint.is_none(), "{theirs}: {e}");
        }
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(line_column("αβ x", 5), (1, 4));
        assert_eq!(line_column("a\nbc", 3), (2, 2));
    }
}

//! Values in prose: `{{ experiment.path | filter }}` becomes the experiment stage's HTML
//! ([`super::Hooks::inline`]); an unclosed `{{` is an error placed where it was written.

use std::collections::BTreeSet;

use measured_core::html::escape;
use measured_measure::claims::marked_id;

use super::{HookError, Input};

/// A piece of text around `{{ … }}` values.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Piece<'t> {
    Text(&'t str),
    Value(&'t str),
    Unclosed,
}

/// `text` cut into text and values.
pub(super) fn split_values(text: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            pieces.push(Piece::Text(&rest[..open]));
        }
        match rest[open + 2..].find("}}") {
            Some(close) => {
                pieces.push(Piece::Value(rest[open + 2..open + 2 + close].trim()));
                rest = &rest[open + 2 + close + 2..];
            }
            None => {
                pieces.push(Piece::Unclosed);
                pieces.push(Piece::Text(&rest[open + 2..]));
                rest = "";
            }
        }
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    pieces
}

/// The `{{ … }}` expressions in code whose first segment `known` accepts, in order.
pub(super) fn in_code(code: &str, known: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = code[from..].find("{{").map(|i| from + i) {
        let Some(close) = code[open + 2..].find("}}").map(|i| open + 2 + i) else {
            break;
        };
        let expr = code[open + 2..close].trim();
        let name = measured_core::reference::Reference::parse(expr).name;
        if !expr.contains('\n') && known(name) {
            found.push(expr);
        }
        from = close + 2;
    }
    found
}

/// Turns texts holding values into HTML, in the order of the body.
#[derive(Default)]
pub(super) struct Values {
    /// Where in the body the search for the next `{{` starts, for error places.
    cursor: usize,
    /// `{{ claim.id }}` markers: the id and the offset of their `{{` in the body.
    pub(super) marks: Vec<(String, usize)>,
    /// The references injected (`exp.path`, filters aside), for the languages' parity.
    pub(super) injected: BTreeSet<String>,
}

impl Values {
    /// HTML for `text`, which starts at `start` in the body and holds `{{ … }}` values; each
    /// error goes to `errors` with its offset in the body.
    pub(super) fn html(
        &mut self,
        input: &Input<'_>,
        text: &str,
        start: usize,
        errors: &mut Vec<(usize, HookError)>,
    ) -> String {
        let mut html = String::new();
        self.cursor = self.cursor.max(start);
        for piece in split_values(text) {
            match piece {
                Piece::Text(t) => html.push_str(&escape(t)),
                Piece::Value(expr) => {
                    let at = self.next_open(input.body, start);
                    self.cursor = at + 2;
                    match marked_id(expr) {
                        Some(id) => self.marks.push((id.to_string(), at)),
                        None => {
                            let reference = measured_core::reference::Reference::parse(expr).text;
                            self.injected.insert(reference.to_string());
                        }
                    }
                    match input.hooks.inline(expr, input.lang) {
                        Ok(v) => html.push_str(&v),
                        Err(e) => errors.push((at, e)),
                    }
                }
                Piece::Unclosed => {
                    let at = self.next_open(input.body, start);
                    errors.push((at, unclosed(input.body, at)));
                }
            }
        }
        html
    }

    /// The offset of the next `{{` in `body` (`start` when there is none).
    fn next_open(&self, body: &str, start: usize) -> usize {
        body[self.cursor..]
            .find("{{")
            .map_or(start, |i| self.cursor + i)
    }
}

/// The error of the `{{` at `at` in `body`, which the text Markdown made of it does not close:
/// when its line does, markup inside it cut it (`{{ claim.<script> }}`: an HTML tag).
fn unclosed(body: &str, at: usize) -> HookError {
    let end = body[at..].find('\n').map_or(body.len(), |i| at + i);
    let line = &body[at..end];
    let cut = line.find("}}").and_then(|close| {
        let inner = &line[2.min(close)..close];
        let c = inner
            .chars()
            .find(|c| !(c.is_alphanumeric() || " .-_|(),%".contains(*c)))?;
        Some((&line[..close + 2], c))
    });
    match cut {
        Some((written, c)) => HookError::new(format!(
            "`{written}` is not a value: `{c}` cannot be part of one, and Markdown reads it as markup"
        ))
        .hint("a value is {{ experiment.path }} and a claim's mark {{ claim.id }}, named with letters, digits, `-`, `_` and `.`; to show braces as text, put them in a code span"),
        None => HookError::new("`{{` is never closed by `}}`").hint(
            "write an injected value as {{ experiment.path }}, or put literal braces in a code span",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_searched_for_known_names_only() {
        let code = "{{ .Values.x }} {{ dns.zone }} {{dns|code}} {{ helm.x }} {{ dns.y";
        assert_eq!(in_code(code, |n| n == "dns"), ["dns.zone", "dns|code"]);
    }

    #[test]
    fn a_value_cut_by_markup_names_what_cut_it() {
        let e = unclosed("a {{ claim.<script> }} b\n", 2);
        assert_eq!(
            e.message,
            "`{{ claim.<script> }}` is not a value: `<` cannot be part of one, and Markdown reads it as markup"
        );
        let e = unclosed("a {{ x.y\n}}", 2);
        assert_eq!(e.message, "`{{` is never closed by `}}`");
    }

    #[test]
    fn text_is_cut_around_values() {
        assert_eq!(
            split_values("a {{ x.y | fixed(2) }} b {{z}}"),
            [
                Piece::Text("a "),
                Piece::Value("x.y | fixed(2)"),
                Piece::Text(" b "),
                Piece::Value("z"),
            ]
        );
        assert_eq!(
            split_values("a {{ x"),
            [Piece::Text("a "), Piece::Unclosed, Piece::Text(" x")]
        );
    }
}

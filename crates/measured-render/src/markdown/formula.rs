//! Math in a body (`$…$`, `$$…$$`, pulldown-cmark's math events) through [`crate::math`]: the
//! injected values inside a formula (`{{ exp.path }}`) replaced by their shown text, the
//! formula turned into MathML, and an error placed at its character in the article.

use std::borrow::Cow;
use std::collections::BTreeSet;

use crate::math::{self, Display};
use measured_core::search_text::Text;

use super::inline::{Piece, split_values};
use super::{HookError, Input};

/// A converted formula: its MathML and the plain text a reader reads of it.
pub(super) struct Formula {
    pub(super) mathml: String,
    pub(super) text: String,
}

/// The formula `tex`, written at byte `start` of the body (its first character after the
/// dollars). An error comes with its offset in the body.
pub(super) fn convert(
    input: &Input<'_>,
    tex: &str,
    start: usize,
    display: Display,
    injected: &mut BTreeSet<String>,
) -> Result<Formula, (usize, HookError)> {
    let (latex, pieces) = with_values(input, tex, start, injected)?;
    match math::to_mathml(&latex, display) {
        Ok(mathml) => {
            let text = math::plain_text(&mathml);
            Ok(Formula { mathml, text })
        }
        Err(e) => Err((
            start + written_offset(&pieces, e.offset),
            HookError::new(format!("this formula is not LaTeX that can be drawn: {}", e.message))
                .hint(e.hint.unwrap_or_else(|| "fix the LaTeX (math-core reads the usual commands: ^{…}, _{…}, \\frac{a}{b}, \\times, \\text{…}); write a literal dollar as \\$".into())),
        )),
    }
}

/// Where each piece of the converted LaTeX starts, where it was written in the formula, and
/// whether it is an injected value's text.
type Pieces = Vec<(usize, usize, bool)>;

/// `tex` with each `{{ … }}` replaced by its value's text ([`math::value_text`]).
fn with_values(
    input: &Input<'_>,
    tex: &str,
    start: usize,
    injected: &mut BTreeSet<String>,
) -> Result<(String, Pieces), (usize, HookError)> {
    if !tex.contains("{{") {
        return Ok((tex.to_string(), vec![(0, 0, false)]));
    }
    let mut latex = String::new();
    let mut pieces = Vec::new();
    let mut written = 0;
    for piece in split_values(tex) {
        pieces.push((latex.len(), written, matches!(piece, Piece::Value(_))));
        match piece {
            Piece::Text(t) => {
                latex.push_str(t);
                written += t.len();
            }
            Piece::Value(expr) => {
                let at = tex[written..].find("{{").map_or(written, |i| written + i);
                let len = tex[at..].find("}}").map_or(tex.len() - at, |i| i + 2);
                if let Some(last) = pieces.last_mut() {
                    last.1 = at;
                }
                written = at + len;
                if measured_measure::claims::marked_id(expr).is_some() {
                    return Err((
                        start + at,
                        HookError::new(format!(
                            "`{{{{ {expr} }}}}` marks a claim, and a formula cannot carry the mark"
                        ))
                        .hint("write the claim's mark after the sentence, outside the $…$"),
                    ));
                }
                let html = input
                    .hooks
                    .inline(expr, input.lang)
                    .map_err(|e| (start + at, e))?;
                let reference = measured_core::reference::Reference::parse(expr).text;
                injected.insert(reference.to_string());
                let mut shown = Text::default();
                shown.push_html(&html);
                latex.push_str(&math::value_text(&shown.into_string()));
            }
            Piece::Unclosed => {
                return Err((
                    start + written,
                    HookError::new("`{{` is never closed by `}}`")
                        .hint("write an injected value as {{ experiment.path }}"),
                ));
            }
        }
    }
    Ok((latex, pieces))
}

/// The offset in the formula as written of byte `at` of the converted LaTeX: a position
/// inside an injected value points at its `{{`.
fn written_offset(pieces: &Pieces, at: usize) -> usize {
    match pieces.iter().rev().find(|(c, _, _)| *c <= at) {
        Some(&(_, written, true)) => written,
        Some(&(converted, written, false)) => written + (at - converted),
        None => at,
    }
}

/// `html` with each formula (`<math>…</math>`) replaced by its plain text, escaped: what a
/// heading's table-of-contents entry or a summary reads (`2^62`, not the MathML's `262`).
pub(super) fn readable(html: &str) -> Cow<'_, str> {
    if !html.contains("<math") {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<math") {
        let Some(len) = rest[start..].find("</math>") else {
            break;
        };
        let end = start + len + "</math>".len();
        out.push_str(&rest[..start]);
        out.push_str(&measured_core::html::escape(&math::plain_text(
            &rest[start..end],
        )));
        rest = &rest[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

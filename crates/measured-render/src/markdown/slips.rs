//! Slips in a body's source that would publish a broken page, found before the pass: a control
//! character (XML forbids it, so a feed carrying the body would not parse), an HTML comment
//! `<!--` never closed (the browser hides the rest of the page, its footer and scripts with
//! it), and a `$…$` whose braces do not balance (pulldown-cmark leaves it as text, and the raw
//! LaTeX would be published). Each is an error at its character.

use pulldown_cmark::{Event, Tag, TagEnd};

use super::{Ev, HookError};
use measured_core::html::forbidden_char;

/// Every slip of `body`, whose events are `events`, with its offset in the body.
pub(super) fn check(body: &str, events: &[Ev<'_>]) -> Vec<(usize, HookError)> {
    let mut found = control_characters(body);
    found.extend(unclosed_comment(events));
    found.extend(unbalanced_formulas(body, events));
    found
}

/// The first character of each line that no page or feed may carry ([`forbidden_char`]).
fn control_characters(body: &str) -> Vec<(usize, HookError)> {
    let bytes = body.as_bytes();
    // Most bodies hold none: a byte scan first (C1 controls and U+FFFE/F start with 0xC2, 0xEF).
    let suspect = |b: &u8| *b < 0x20 || *b == 0x7f || *b == 0xc2 || *b == 0xef;
    if !bytes.iter().any(suspect) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut last_line_start = None;
    for (at, c) in body.char_indices().filter(|&(_, c)| forbidden_char(c)) {
        let line_start = body[..at].rfind('\n').map_or(0, |i| i + 1);
        if last_line_start == Some(line_start) {
            continue;
        }
        last_line_start = Some(line_start);
        out.push((
            at,
            HookError::new(format!(
                "the body holds the control character U+{:04X}, which no page or feed can carry",
                u32::from(c)
            ))
            .hint("delete it (editors often show it as nothing, or as ^[ or ^@); a program's output with colours belongs in an ```experiment block, which strips terminal escapes"),
        ));
    }
    out
}

/// Where an HTML comment opens and is never closed, in the raw HTML of the body taken as one
/// document (a comment may open in one block and close in a later one, as a browser reads it).
fn unclosed_comment(events: &[Ev<'_>]) -> Option<(usize, HookError)> {
    let mut open: Option<usize> = None;
    for (event, range) in events {
        let (Event::Html(html) | Event::InlineHtml(html)) = event else {
            continue;
        };
        let mut pos = 0;
        loop {
            if open.is_some() {
                match html[pos..].find("-->") {
                    Some(i) => {
                        open = None;
                        pos += i + 3;
                    }
                    None => break,
                }
            } else {
                let Some(i) = html[pos..].find("<!--") else {
                    break;
                };
                let after = &html[pos + i + 4..];
                // `<!-->` and `<!--->` are comments that end where they start.
                if after.starts_with('>') || after.starts_with("->") {
                    pos += i + 4;
                    continue;
                }
                open = Some((range.start + pos + i).min(range.end));
                pos += i + 4;
            }
        }
    }
    open.map(|at| {
        (
            at,
            HookError::new("this `<!--` opens an HTML comment that is never closed: the browser would hide the rest of the page, its footer and scripts with it")
                .hint("close the comment with `-->`, or write `&lt;!--` to show the characters"),
        )
    })
}

/// `$…$` and `$$…$$` in prose that pulldown-cmark left as text because their braces do not
/// balance (`$\frac{a$`): published, they would show the raw LaTeX.
fn unbalanced_formulas(body: &str, events: &[Ev<'_>]) -> Vec<(usize, HookError)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (event, range) in events {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) if !in_code && t.contains('$') => {
                let source = body.get(range.clone()).unwrap_or_default();
                out.extend(
                    unbalanced_in(source)
                        .into_iter()
                        .map(|(at, e)| (range.start + at, e)),
                );
            }
            _ => {}
        }
    }
    out
}

/// The formulas of one run of prose's source whose braces do not balance.
fn unbalanced_in(source: &str) -> Vec<(usize, HookError)> {
    let bytes = source.as_bytes();
    let escaped = |i: usize| bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1;
    let dollars: Vec<usize> = source
        .match_indices('$')
        .map(|(i, _)| i)
        .filter(|&i| !escaped(i))
        .collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k + 1 < dollars.len() {
        let display = dollars[k + 1] == dollars[k] + 1;
        let (open_end, close) = if display {
            let close = (k + 2..dollars.len().saturating_sub(1))
                .find(|&j| dollars[j + 1] == dollars[j] + 1);
            match close {
                Some(j) => ((dollars[k] + 2, dollars[j]), j + 2),
                None => break,
            }
        } else {
            ((dollars[k] + 1, dollars[k + 1]), k + 2)
        };
        let (start, end) = open_end;
        let tex = &source[start..end];
        let spaced = tex.starts_with(char::is_whitespace) || tex.ends_with(char::is_whitespace);
        if !tex.is_empty() && (display || !spaced) {
            if let Some(problem) = brace_problem(tex) {
                let written = &source[dollars[k]..end + if display { 2 } else { 1 }];
                out.push((
                    dollars[k],
                    HookError::new(format!(
                        "the formula `{written}` has {problem}, so it would be published as raw text"
                    ))
                    .hint("close each `{` with `}` (`\\{` and `\\}` draw braces); write `\\$` for a dollar sign"),
                ));
            }
        }
        k = close;
    }
    out
}

/// What is wrong with the braces of `tex`, if anything.
fn brace_problem(tex: &str) -> Option<&'static str> {
    let mut depth = 0usize;
    let mut chars = tex.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '{' => depth += 1,
            '}' if depth == 0 => return Some("a `}` that closes no `{`"),
            '}' => depth -= 1,
            _ => {}
        }
    }
    (depth > 0).then_some("a `{` that is never closed")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slips(body: &str) -> Vec<(usize, String)> {
        let events = super::super::merge_text(
            pulldown_cmark::Parser::new_ext(body, super::super::options()).into_offset_iter(),
        );
        check(body, &events)
            .into_iter()
            .map(|(at, e)| (at, e.message))
            .collect()
    }

    #[test]
    fn a_formula_whose_braces_do_not_balance_is_a_slip_and_prices_are_not() {
        let s = slips("a $\\frac{a$ b\n\n$$\\sqrt{x$$\n\nc $a}$ d\n");
        assert_eq!(
            s,
            [
                (2, "the formula `$\\frac{a$` has a `{` that is never closed, so it would be published as raw text".to_string()),
                (15, "the formula `$$\\sqrt{x$$` has a `{` that is never closed, so it would be published as raw text".to_string()),
                (30, "the formula `$a}$` has a `}` that closes no `{`, so it would be published as raw text".to_string()),
            ]
        );
        for fine in [
            "cost $5 and $10 {or more}\n",
            "$\\frac{a}{b}$ and \\$x{ \\$\n",
            "```\n$\\frac{a$\n```\n",
            "`$\\frac{a$`\n",
            "$\\{$ draws a brace\n",
        ] {
            assert_eq!(slips(fine), [], "{fine}");
        }
    }

    #[test]
    fn an_unclosed_comment_is_a_slip_where_it_opens() {
        let s = slips("Intro.\n\n<!-- note\n\n# Heading\n\nmore\n");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].0, 8);
        assert!(s[0].1.contains("never closed"), "{s:?}");
        for fine in [
            "<!-- a -->\n\nx\n",
            "<div>\n<!-- a\n</div>\n\ntext\n\n<p>--></p>\n",
            "<!---> x\n",
            "x <!-- inline --> y\n",
            "`<!--` in code\n",
        ] {
            assert_eq!(slips(fine), [], "{fine}");
        }
    }

    #[test]
    fn control_characters_are_slips_once_a_line() {
        let s = slips("ok\nbad \u{1b}[31mred\u{1b}[0m\nnul \0 and \u{85}\ntab\tand\r\n");
        assert_eq!(
            s.iter().map(|(at, m)| (*at, &m[..45])).collect::<Vec<_>>(),
            [
                (7, "the body holds the control character U+001B, "),
                (24, "the body holds the control character U+0000, ")
            ]
        );
    }
}

//! Build-time minification of the theme's stylesheets and scripts: the readable sources stay in
//! `static/`, the pages load them without comments and indentation. Only transformations that
//! cannot change meaning are made (no renaming, no reordering); anything unusual is left as is.

/// A stylesheet without comments and without the whitespace that separates nothing.
///
/// Whitespace is dropped after `{ } ; : ( >`, after a `,` outside parentheses (selector and
/// font lists, not `rgb(0, 0, 0)`), and before `{ } ; ) >`, and a `;` before `}`; other
/// whitespace becomes one space (`a :hover`, `and (`, `calc(1px + 2px)` and `:not(.a) .b` keep
/// theirs). Strings are copied as they are.
pub fn css(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut space = false;
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
                space = true;
            }
            c if c.is_whitespace() => space = true,
            '"' | '\'' => {
                flush_space(&mut out, &mut space, c);
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
            }
            '}' if out.ends_with(';') => {
                out.pop();
                out.push('}');
                space = false;
            }
            c => {
                flush_space(&mut out, &mut space, c);
                out.push(c);
                match c {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => while chars.next_if(|d| d.is_whitespace()).is_some() {},
                    _ => {}
                }
            }
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Writes the pending space before `next`, unless it separates nothing.
fn flush_space(out: &mut String, space: &mut bool, next: char) {
    if std::mem::take(space)
        && !out.is_empty()
        && !out.ends_with(['{', '}', ';', ':', '(', '>'])
        && !matches!(next, '{' | '}' | ';' | ')' | '>')
    {
        out.push(' ');
    }
}

/// A script without its indentation, blank lines and whole-line `//` comments. Line breaks
/// stay, so automatic semicolon insertion sees the same code. A script with a template literal
/// or a line continuation (whose text could span lines) is left as it is.
pub fn js(source: &str) -> String {
    if source.contains('`') || source.lines().any(|l| l.ends_with('\\')) {
        return source.to_string();
    }
    let mut out = String::with_capacity(source.len());
    for line in source.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_loses_comments_and_idle_whitespace() {
        let source = "/* theme */\n:root {\n  --bg: #fff; /* page */\n  color-scheme: light;\n}\n\
                      @media (prefers-color-scheme: dark) and (max-width: 36rem) {\n  a > b, c { color: rgb(0, 0, 0); }\n}\n";
        assert_eq!(
            css(source),
            ":root{--bg:#fff;color-scheme:light}@media (prefers-color-scheme:dark) and (max-width:36rem){a>b,c{color:rgb(0, 0, 0)}}\n"
        );
    }

    #[test]
    fn css_keeps_the_whitespace_that_means_something() {
        for kept in [
            "a :hover{x:y}",
            ":not(.a) .b{x:y}",
            "p{width:calc(1px + 2px)}",
            "p{font:12px \"Segoe  UI\",serif}",
            "a::after{content:\" (\" attr(href) \")\"}",
            "p{margin:0 auto!important}",
        ] {
            assert_eq!(css(kept), format!("{kept}\n"));
        }
        assert_eq!(css("a{content:'/* no */'}"), "a{content:'/* no */'}\n");
    }

    #[test]
    fn js_loses_indentation_blank_lines_and_comment_lines() {
        let source = "// header\n(function () {\n  \"use strict\";\n\n  // why\n  var a = 1; // kept\n})();\n";
        assert_eq!(
            js(source),
            "(function () {\n\"use strict\";\nvar a = 1; // kept\n})();\n"
        );
        let template = "var a = `\n  // not a comment\n`;\n";
        assert_eq!(js(template), template);
    }
}

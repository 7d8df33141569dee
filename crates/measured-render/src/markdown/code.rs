//! Code blocks: an ```` ```experiment ````, ```` ```machines ```` or ```` ```source ```` block goes to the experiment
//! stage's hooks; other code is highlighted by its language token (or escaped, without one).

use pulldown_cmark::CodeBlockKind;

use crate::highlight::{Highlighter, Lines};
use measured_core::html::{escape, escape_body};

use super::BlockKind;

/// What a code block is, by its info string.
pub(super) enum Block<'i> {
    /// A block the hooks make: its kind and the words after the kind.
    Hook(BlockKind, &'i str),
    /// ```` ```mermaid ````: a diagram, with the words after the kind (an id, a caption).
    Mermaid(&'i str),
    /// Code, with its language token (empty: none).
    Code(&'i str),
}

/// What the block of `kind` is.
pub(super) fn block<'i>(kind: &'i CodeBlockKind<'_>) -> Block<'i> {
    let info = match kind {
        CodeBlockKind::Fenced(info) => info.trim(),
        CodeBlockKind::Indented => "",
    };
    let (word, args) = info
        .split_once(char::is_whitespace)
        .map_or((info, ""), |(w, a)| (w, a.trim()));
    match word {
        "experiment" => Block::Hook(BlockKind::Experiment, args),
        "source" => Block::Hook(BlockKind::Source, args),
        "machines" => Block::Hook(BlockKind::Machines, args),
        "mermaid" => Block::Mermaid(args),
        _ => Block::Code(word.split(',').next().unwrap_or_default()),
    }
}

/// The HTML of `code` whose language token is `token` (with the memo of parsed `lines` the
/// caller keeps, if any).
pub(super) fn html(
    highlighter: &Highlighter,
    lines: Option<&Lines>,
    token: &str,
    code: &str,
) -> String {
    if token.is_empty() {
        let body = escape_body(code);
        format!("<pre class=\"code\" tabindex=\"0\"><code>{body}</code></pre>\n")
    } else {
        let body = match lines {
            Some(lines) => highlighter.highlight_in(token, code, lines),
            None => highlighter.highlight(token, code),
        };
        let l = escape(token);
        format!(
            "<pre class=\"code\" tabindex=\"0\" data-lang=\"{l}\"><code class=\"language-{l}\">{body}</code></pre>\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::CowStr;

    fn fenced(info: &str) -> CodeBlockKind<'_> {
        CodeBlockKind::Fenced(CowStr::from(info))
    }

    #[test]
    fn the_info_string_says_what_a_block_is() {
        let kind = fenced(" experiment  sizes ");
        assert!(matches!(
            block(&kind),
            Block::Hook(BlockKind::Experiment, "sizes")
        ));
        let kind = fenced("source tcp connect");
        assert!(matches!(
            block(&kind),
            Block::Hook(BlockKind::Source, "tcp connect")
        ));
        let kind = fenced("rust,ignore");
        assert!(matches!(block(&kind), Block::Code("rust")));
        assert!(matches!(block(&CodeBlockKind::Indented), Block::Code("")));
    }

    #[test]
    fn code_without_a_language_is_escaped() {
        assert_eq!(
            html(&Highlighter::default(), None, "", "a < b\n"),
            "<pre class=\"code\" tabindex=\"0\"><code>a &lt; b\n</code></pre>\n"
        );
    }
}

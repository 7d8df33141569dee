//! How a formula nests, read before it reaches the converter: math-core parses and writes
//! MathML by recursion, so a formula nested thousands of levels deep (`\sqrt{` × 3000, 12 KB)
//! would overflow its thread's stack and abort the whole process, `serve` included; and its
//! writer panics (in a debug build; drops the cell in release) on a table's `&` or `\\` that
//! is not between two cells, or a script right after one. Separate from [`super`] because it
//! reads LaTeX on its own, token by token, with what it needs of math-core's grammar to never
//! count less than math-core recurses.

/// The deepest nesting a formula may have, in levels as [`deepest`] counts them. math-core
/// takes about 21 KB of stack a level in a debug build (a 2 MB thread, rayon's and the test
/// harness's, overflows near 95) and far less in release; a formula a reader can follow nests
/// a dozen levels at most.
pub const MAX_DEPTH: usize = 40;

/// What opened a level that later tokens close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opened {
    /// The formula itself.
    Root,
    /// `{…}`.
    Group,
    /// `[…]` right after a command: an optional argument (`\sqrt[3]{x}`).
    Bracket,
    /// `\left…\right`.
    Left,
    /// `\begin{…}…\end{…}`.
    Env,
    /// A switch (`\displaystyle`, `\color{red}`): the rest of the group, parsed as one level.
    Switch,
    /// `{…}` right after a text command (`\text{R&D}`): text, where `&` is a character.
    Text,
}

/// What cannot stand where it is in a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplaced {
    /// A `&` or `\\` inside a group, an argument or a switch of a cell, not between two cells.
    Separator(&'static str),
    /// A `^`, `_` or `'` right after a `&` or `\\`, with nothing to go on.
    Script,
}

/// Why a formula cannot be given to the converter, and the byte offset where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    TooDeep(usize),
    Misplaced(usize, Misplaced),
}

/// One open level and the commands inside it still waiting for arguments (how many each).
struct Frame {
    opened: Opened,
    pending: Vec<u8>,
    /// Whether an infix fraction (`a \over b`) took the level, which math-core reads whole.
    infix: bool,
}

/// The nesting as tokens arrive.
struct Nesting {
    frames: Vec<Frame>,
    /// Open frames plus pending commands: what math-core's recursion follows.
    depth: usize,
    deepest: (usize, usize),
    /// Where the depth first went past the limit.
    beyond: Option<usize>,
    limit: usize,
    misplaced: Option<(usize, Misplaced)>,
    /// Whether the last token was a `&` or `\\` between two cells.
    after_separator: bool,
}

impl Nesting {
    fn note(&mut self, at: usize) {
        if self.depth > self.deepest.0 {
            self.deepest = (self.depth, at);
        }
        if self.depth > self.limit && self.beyond.is_none() {
            self.beyond = Some(at);
        }
    }

    fn open(&mut self, opened: Opened, at: usize) {
        self.frames.push(Frame {
            opened,
            pending: Vec::new(),
            infix: false,
        });
        self.depth += 1;
        self.note(at);
    }

    /// A command that takes `args` arguments, or a `^`/`_` (one).
    fn wait(&mut self, args: u8, at: usize) {
        if let Some(frame) = self.frames.last_mut() {
            frame.pending.push(args);
            self.depth += 1;
            self.note(at);
        }
    }

    /// Something complete (a symbol, a closed group): the argument of the innermost waiting
    /// command, which may complete it in turn.
    fn atom(&mut self) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        while let Some(left) = frame.pending.last_mut() {
            *left = left.saturating_sub(1);
            if *left > 0 {
                break;
            }
            frame.pending.pop();
            self.depth -= 1;
        }
    }

    /// A `&` or `\\` at `at`: between two cells of the innermost table only when nothing of a
    /// cell is open around it (text aside, where `&` is a character).
    fn separator(&mut self, which: &'static str, at: usize) {
        let Some(table) = self.frames.iter().rposition(|f| f.opened == Opened::Env) else {
            return;
        };
        let inside = &self.frames[table + 1..];
        if inside.iter().any(|f| f.opened == Opened::Text) {
            return;
        }
        let cell = &self.frames[table];
        if !inside.is_empty() || !cell.pending.is_empty() || cell.infix {
            self.misplaced
                .get_or_insert((at, Misplaced::Separator(which)));
        } else {
            self.after_separator = true;
        }
    }

    /// Closes the innermost level `opened` opened, and the switches inside it; `false` if none
    /// is open (math-core reports the stray closer).
    fn close(&mut self, opened: Opened) -> bool {
        let closes =
            |f: &Frame| f.opened == opened || (opened == Opened::Group && f.opened == Opened::Text);
        let Some(i) = self.frames.iter().rposition(closes) else {
            return false;
        };
        for frame in self.frames.drain(i..) {
            self.depth -= 1 + frame.pending.len();
        }
        true
    }
}

/// Commands whose `{…}` argument is text.
const TEXT: [&str; 9] = [
    "text", "textbf", "textit", "textrm", "textsf", "texttt", "textsc", "emph", "underbar",
];

/// How many arguments a command takes for the count: the ones with more than one, and one for
/// every other (a symbol such as `\alpha` counted as waiting overcounts, never under).
fn arity(name: &str) -> u8 {
    match name {
        "frac" | "dfrac" | "tfrac" | "cfrac" | "binom" | "dbinom" | "tbinom" | "overset"
        | "underset" | "stackrel" => 2,
        "prescript" | "sideset" => 3,
        "genfrac" => 6,
        _ => 1,
    }
}

/// What of `latex` math-core cannot be given: nesting deeper than `limit`, or a misplaced
/// separator or script; the first found.
pub fn check(latex: &str, limit: usize) -> Result<(), Problem> {
    let n = walk(latex, limit);
    match (n.beyond, n.misplaced) {
        (Some(at), _) => Err(Problem::TooDeep(at)),
        (None, Some((at, what))) => Err(Problem::Misplaced(at, what)),
        (None, None) => Ok(()),
    }
}

/// The deepest nesting of `latex` and the byte offset where it is reached.
#[cfg(test)]
fn deepest(latex: &str) -> (usize, usize) {
    walk(latex, usize::MAX).deepest
}

fn walk(latex: &str, limit: usize) -> Nesting {
    let mut n = Nesting {
        frames: Vec::new(),
        depth: 0,
        deepest: (0, 0),
        beyond: None,
        limit,
        misplaced: None,
        after_separator: false,
    };
    n.open(Opened::Root, 0);
    let bytes = latex.as_bytes();
    let mut i = 0;
    // The last command if it takes arguments (so `[` opens an option, `{` text after `\text`).
    let mut after_command: Option<&str> = None;
    while i < bytes.len() {
        let at = i;
        let was_command = after_command.take();
        let b = bytes[i];
        if !b.is_ascii_whitespace() {
            let after_separator = std::mem::take(&mut n.after_separator);
            if after_separator && matches!(b, b'^' | b'_' | b'\'') {
                n.misplaced.get_or_insert((at, Misplaced::Script));
            }
        }
        match b {
            b'\\' if bytes.get(i + 1) == Some(&b'\\') => {
                n.separator("\\\\", at);
                n.atom();
                i += 2;
            }
            b'\\' => {
                let (name, end) = command_at(latex, i);
                i = end;
                match name {
                    Some(name) if command(&mut n, name, latex, &mut i, at) => {
                        after_command = Some(name);
                    }
                    Some(_) => {}
                    None => n.atom(),
                }
            }
            b'&' => {
                n.separator("&", at);
                i += 1;
            }
            b'{' => {
                let text = was_command.is_some_and(|c| TEXT.contains(&c));
                n.open(if text { Opened::Text } else { Opened::Group }, at);
                i += 1;
            }
            b'}' => {
                if n.close(Opened::Group) {
                    n.atom();
                }
                i += 1;
            }
            b'[' if was_command.is_some() => {
                n.open(Opened::Bracket, at);
                i += 1;
            }
            b']' if n.frames.last().is_some_and(|f| f.opened == Opened::Bracket) => {
                n.close(Opened::Bracket);
                i += 1;
            }
            b'^' | b'_' => {
                n.wait(1, at);
                i += 1;
            }
            b if b.is_ascii_whitespace() => {
                after_command = was_command;
                i += 1;
            }
            _ => {
                n.atom();
                i += char_len(latex, i);
            }
        }
        if n.beyond.is_some() || n.misplaced.is_some() {
            break;
        }
    }
    n
}

/// What the command at `at` does to the nesting; whether it takes arguments.
fn command(n: &mut Nesting, name: &str, latex: &str, i: &mut usize, at: usize) -> bool {
    match name {
        "left" => {
            *i = skip_delimiter(latex, *i);
            n.open(Opened::Left, at);
        }
        "right" => {
            *i = skip_delimiter(latex, *i);
            if n.close(Opened::Left) {
                n.atom();
            }
        }
        "middle" => {
            *i = skip_delimiter(latex, *i);
            n.atom();
        }
        "begin" => {
            *i = skip_name(latex, *i);
            n.open(Opened::Env, at);
        }
        "end" => {
            *i = skip_name(latex, *i);
            if n.close(Opened::Env) {
                n.atom();
            }
        }
        "displaystyle" | "textstyle" | "scriptstyle" | "scriptscriptstyle" | "color" => {
            n.open(Opened::Switch, at);
        }
        // Infix fractions: math-core reads the rest of the level as the denominator.
        "over" | "atop" | "choose" | "brace" | "brack" => {
            if let Some(f) = n.frames.last_mut() {
                f.infix = true;
            }
        }
        _ => {
            n.wait(arity(name), at);
            return true;
        }
    }
    false
}

/// The command word at the `\` at `at` (`None` for a one-character symbol such as `\{` or
/// `\\`), and where what follows it starts.
fn command_at(latex: &str, at: usize) -> (Option<&str>, usize) {
    let bytes = latex.as_bytes();
    let start = at + 1;
    let mut end = start;
    while end < bytes.len() && bytes[end].is_ascii_alphabetic() {
        end += 1;
    }
    if end == start {
        let next = if start < bytes.len() {
            start + char_len(latex, start)
        } else {
            start
        };
        return (None, next);
    }
    let name = &latex[start..end];
    if bytes.get(end) == Some(&b'*') {
        end += 1;
    }
    (Some(name), end)
}

/// Past the delimiter after `\left`, `\right` or `\middle`: one character or one command.
fn skip_delimiter(latex: &str, from: usize) -> usize {
    let bytes = latex.as_bytes();
    let mut i = from;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'\\') => command_at(latex, i).1,
        Some(_) => i + char_len(latex, i),
        None => i,
    }
}

/// Past the `{name}` after `\begin` or `\end`.
fn skip_name(latex: &str, from: usize) -> usize {
    let bytes = latex.as_bytes();
    let mut i = from;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'{') {
        return from;
    }
    match latex[i..].find(['}', '{']) {
        Some(j) if j > 0 && bytes[i + j] == b'}' => i + j + 1,
        _ => from,
    }
}

/// The length in bytes of the character at `i`.
fn char_len(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(latex: &str) -> usize {
        deepest(latex).0
    }

    #[test]
    fn flat_formulas_are_shallow() {
        assert_eq!(depth("a + b = c"), 1);
        assert_eq!(depth("\\alpha + \\beta"), 2);
        assert!(depth("\\frac{\\partial^2 u}{\\partial x^2} = c^2 \\nabla^2 u") <= 6);
        assert!(depth("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}") <= 3);
        assert!(depth("\\sqrt[3]{x^{2}} + \\left( \\frac{a}{b} \\right)") <= 5);
    }

    #[test]
    fn every_kind_of_nesting_counts() {
        let n = 50;
        for (open, inner, close) in [
            ("\\sqrt{", "y", "}"),
            ("{", "y", "}"),
            ("\\frac{a}{", "y", "}"),
            ("x^{", "y", "}"),
            ("\\left(", "y", "\\right)"),
            ("\\begin{matrix}", "y", "\\end{matrix}"),
            ("\\sqrt[", "y", "]x"),
            ("\\sqrt ", "y", ""),
            ("\\frac a", "b", ""),
            ("\\displaystyle a", "y", ""),
            ("\\color{red} a", "y", ""),
            ("\\mathbin", "y", ""),
            ("\\operatorname*", "{y}", ""),
        ] {
            let latex = format!("{}{inner}{}", open.repeat(n), close.repeat(n));
            assert!(depth(&latex) >= n, "{open}: {}", depth(&latex));
        }
    }

    #[test]
    fn the_place_is_where_the_nesting_is_deepest_or_first_too_deep() {
        let latex = "a + {{{b}}} + c";
        assert_eq!(deepest(latex), (4, 6));
        assert_eq!(check(latex, 4), Ok(()));
        assert_eq!(check(latex, 2), Err(Problem::TooDeep(5)));
    }

    #[test]
    fn stray_closers_and_unfinished_commands_do_not_panic() {
        for latex in [
            "}}}", "\\right)", "\\end{x}", "\\", "\\left", "\\begin{", "]", "é\\é",
        ] {
            let _ = deepest(latex);
        }
    }
}

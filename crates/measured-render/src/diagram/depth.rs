//! How deep a Mermaid diagram nests, bounded from above before it reaches the renderer:
//! mermaid-svg parses nested blocks (`loop … end`, `Boundary(…) { … }`, a mindmap's indented
//! lines) by recursion, and a diagram nested a few hundred levels deep would overflow its
//! thread's stack and abort the whole process. Separate from [`super`] because it reads the
//! diagram's lines on its own, counting every way a diagram kind nests.

/// The deepest nesting a diagram may have, in levels as [`check`] counts them (an indented
/// block inside a `subgraph` counts twice). mermaid-svg overflows a 2 MB stack in a debug
/// build past about 370 nested C4 boundaries, 800 ZenUML blocks and 900 sequence frames.
pub const MAX_DEPTH: usize = 64;

/// Words that open a block an `end` line closes (flowchart, sequence and block diagrams).
const OPENERS: [&str; 10] = [
    "subgraph", "loop", "alt", "opt", "par", "critical", "break", "rect", "box", "block",
];

/// `Err` with the 1-based line where `source` first nests deeper than `limit`.
pub fn check(source: &str, limit: usize) -> Result<(), usize> {
    // Indentation widths of the enclosing lines, `end`-closed blocks, and open braces.
    let mut indents: Vec<usize> = Vec::new();
    let mut blocks = 0usize;
    let mut braces = 0usize;
    for (i, line) in source.lines().enumerate() {
        let text = line.trim_start();
        if text.is_empty() || text.starts_with("%%") {
            continue;
        }
        let indent = line.len() - text.len();
        while indents.last().is_some_and(|&w| w >= indent) {
            indents.pop();
        }
        indents.push(indent);
        let word = text
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .next()
            .unwrap_or_default();
        if word == "end" {
            blocks = blocks.saturating_sub(1);
        } else if OPENERS.contains(&word) {
            blocks += 1;
        }
        let mut deepest_brace = braces;
        let mut quoted = false;
        for c in text.chars() {
            match c {
                '"' => quoted = !quoted,
                '{' | '(' | '[' if !quoted => {
                    braces += 1;
                    deepest_brace = deepest_brace.max(braces);
                }
                '}' | ')' | ']' if !quoted => braces = braces.saturating_sub(1),
                _ => {}
            }
        }
        if indents.len() + blocks + deepest_brace > limit {
            return Err(i + 1);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(kind_open: &str, inner: &str, close: &str, n: usize) -> String {
        let (kind, open) = kind_open.split_once('\n').unwrap_or_default();
        let mut s = format!("{kind}\n");
        for _ in 0..n {
            s.push_str(open);
            s.push('\n');
        }
        s.push_str(inner);
        s.push('\n');
        for _ in 0..n {
            s.push_str(close);
            s.push('\n');
        }
        s
    }

    #[test]
    fn every_kind_of_nesting_counts() {
        let cases = [
            nested("sequenceDiagram\nloop x", "A->>B: hi", "end", 70),
            nested("flowchart TD\nsubgraph s", "A --> B", "end", 70),
            nested("stateDiagram-v2\nstate S {", "[*] --> A", "}", 70),
            nested(
                "C4Context\nBoundary(b, \"B\") {",
                "Person(p, \"P\")",
                "}",
                70,
            ),
            nested("zenuml\nif(x) {", "A.m()", "}", 70),
            nested("block-beta\nblock:b", "a", "end", 70),
            (0..70).fold("mindmap\n".to_string(), |s, i| {
                format!("{s}{}n{i}\n", " ".repeat(i + 1))
            }),
        ];
        for source in cases {
            let first = source.lines().next().unwrap_or_default().to_string();
            let line = check(&source, MAX_DEPTH).expect_err(&first);
            assert!(line > 60 && line < 72, "{first}: line {line}");
        }
    }

    #[test]
    fn ordinary_diagrams_pass() {
        let flow = "flowchart LR\n  A[Client] -->|SYN| B{Server}\n  subgraph net [Network]\n    B --> C((Done))\n  end\n";
        assert_eq!(check(flow, MAX_DEPTH), Ok(()));
        let seq = "sequenceDiagram\n  participant A\n  loop every second\n    alt ok\n      A->>B: ping\n    else\n      A->>B: retry\n    end\n  end\n";
        assert_eq!(check(seq, MAX_DEPTH), Ok(()));
        assert_eq!(check(seq, 5), Err(5));
    }
}

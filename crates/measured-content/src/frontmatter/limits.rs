//! The size and nesting a front matter may have, checked before any parser reads it: the YAML
//! parser takes time quadratic in how deep collections nest (`tags: ` + `[` × 20,000 took
//! 2.7 s, × 100,000 over a minute), and an article's front matter needs neither depth nor
//! bulk. Separate from the parsing so both syntaxes pass the same bounds.

/// The largest front matter read, in bytes: the longest of this blog's is under 2 KB, claims
/// included.
pub const MAX_BYTES: usize = 64 << 10;

/// The deepest nesting read: lists and maps inside one another, by brackets (`[`, `{`) or by
/// indentation. measured's keys nest two levels (`claims:` and its entries).
pub const MAX_DEPTH: usize = 16;

/// What is wrong: the byte offset in the front matter where it is, and the message.
pub type Problem = (usize, String);

/// Checks `text` (a front matter, without its fences) against [`MAX_BYTES`] and [`MAX_DEPTH`].
pub fn check(text: &str) -> Result<(), Problem> {
    if text.len() > MAX_BYTES {
        return Err((
            0,
            format!(
                "the front matter has {} bytes; measured reads at most {} KB of it",
                text.len(),
                MAX_BYTES >> 10
            ),
        ));
    }
    let mut scan = Scan::default();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        scan.line(line, offset)?;
        offset += line.len();
    }
    Ok(())
}

/// The nesting so far, line after line: never less than the YAML parser's. What looks like a
/// quote is taken as one (more often than YAML would), and a closing bracket there closes only
/// what opened there, while every opening bracket counts wherever it is.
#[derive(Default)]
struct Scan {
    /// Indentation widths of the enclosing block lines.
    indents: Vec<usize>,
    /// Open `[` and `{`, across lines.
    brackets: usize,
    /// Inside what may be a quoted scalar: its quote, and how many brackets opened inside it
    /// are still open.
    region: Option<(u8, usize)>,
    /// Inside a block scalar (`|`, `>`): the indentation of the line that opened it.
    block_scalar: Option<usize>,
}

impl Scan {
    fn line(&mut self, line: &str, offset: usize) -> Result<(), Problem> {
        let text = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - text.len();
        let blank = text.trim().is_empty();
        if let Some(opener) = self.block_scalar {
            if blank || indent > opener {
                return Ok(());
            }
            self.block_scalar = None;
        }
        if blank {
            return Ok(());
        }
        if self.brackets == 0 && self.region.is_none() {
            while self.indents.last().is_some_and(|&w| w >= indent) {
                self.indents.pop();
            }
            self.indents.push(indent);
        }
        let bytes = text.as_bytes();
        let mut dashes = 0;
        let mut i = 0;
        while i < bytes.len() {
            let at = offset + indent + i;
            let b = bytes[i];
            let starts_value = i == 0
                || matches!(
                    bytes[i - 1],
                    b' ' | b'\t' | b'[' | b'{' | b',' | b':' | b'-' | b'?'
                );
            match (self.region, b) {
                (_, b'[' | b'{') => {
                    self.brackets += 1;
                    if let Some((_, local)) = &mut self.region {
                        *local += 1;
                    }
                    self.deep(dashes, at)?;
                }
                (Some((q, local)), b']' | b'}') if local > 0 => {
                    self.brackets -= 1;
                    self.region = Some((q, local - 1));
                }
                (Some((b'\'', _)), b'\'') if bytes.get(i + 1) == Some(&b'\'') => i += 1,
                (Some((b'"', _)), b'\\') => i += 1,
                (Some((q, _)), _) if q == b => self.region = None,
                (Some(_), _) => {}
                (None, b']' | b'}') => self.brackets = self.brackets.saturating_sub(1),
                (None, b'\'' | b'"') if starts_value => self.region = Some((b, 0)),
                // A comment: YAML's need a space before them, so this one is one.
                (None, b'#') if i == 0 || bytes[i - 1].is_ascii_whitespace() => break,
                // `- - - x` nests a list in a list on one line.
                (None, b'-' | b'?')
                    if self.brackets == 0
                        && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace)
                        && bytes[..i].iter().all(|&c| matches!(c, b'-' | b'?' | b' ')) =>
                {
                    dashes += 1;
                    self.deep(dashes, at)?;
                }
                _ => {}
            }
            i += 1;
        }
        self.deep(dashes, offset + indent)?;
        if block_header(text.trim_end()) {
            self.block_scalar = Some(indent);
        }
        Ok(())
    }

    /// An error if the nesting at byte `at` is deeper than [`MAX_DEPTH`].
    fn deep(&self, dashes: usize, at: usize) -> Result<(), Problem> {
        let depth = self.indents.len() + dashes + self.brackets;
        if depth <= MAX_DEPTH {
            return Ok(());
        }
        Err((
            at,
            format!("the front matter nests lists and maps more than {MAX_DEPTH} levels deep here"),
        ))
    }
}

/// Whether `line` opens a block scalar and holds nothing else: `key: |`, `- >-`, `|2`. Only
/// that shape, which YAML refuses inside brackets, so that the lines it skips cannot hide any.
fn block_header(line: &str) -> bool {
    let rest = line.trim_start_matches(['-', ' ']);
    let header = match rest.split_once(": ") {
        Some((key, header)) if !key.contains(['[', ']', '{', '}', '"', '\'', '#']) => header,
        Some(_) => return false,
        None => rest,
    };
    let header = header.trim();
    header.starts_with(['|', '>'])
        && header[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+' | '1'..='9'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_front_matter_passes() {
        let text = "title: \"Kết nối: [TCP]\"\ndate: 2026-01-02\ntags: [mạng, 'it''s']\nclaims:\n  faster: a.b > c.d # a comment [[[[[[[[[[[[[[[[[[[[\ndescription: |\n  {{{{{{{{{{{{{{{{{{{{\n  [[[[[[[[[[[[[[[[[[[[\ndraft: false\n";
        assert_eq!(check(text), Ok(()));
    }

    #[test]
    fn deep_brackets_dashes_and_indentation_are_refused_where_they_go_too_deep() {
        let flow = format!(
            "title: A\ntags: {}{}\n",
            "[".repeat(20_000),
            "]".repeat(20_000)
        );
        let (at, message) = check(&flow).unwrap_err();
        assert_eq!(at, "title: A\ntags: ".len() + MAX_DEPTH - 1, "{message}");
        assert!(message.contains("more than 16 levels deep"), "{message}");
        let map = format!("tags: {}1{}\n", "{a: ".repeat(100), "}".repeat(100));
        assert!(check(&map).is_err());
        let dashes = format!("tags:\n  {}x\n", "- ".repeat(100));
        assert!(check(&dashes).is_err());
        let block: String = (0..100).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
        let (at, _) = check(&block).unwrap_err();
        assert_eq!(&block[..at].matches('\n').count(), &MAX_DEPTH);
    }

    #[test]
    fn a_large_front_matter_is_refused() {
        let text = format!("title: A\ndescription: \"{}\"\n", "x".repeat(MAX_BYTES));
        assert!(check(&text).unwrap_err().1.contains("at most 64 KB"));
    }
}

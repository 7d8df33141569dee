//! What syntect's parser made of each line it has seen, by the line and the parser's state
//! before it: a line parsed again in the same state (a block's first lines in one grammar, a
//! closing brace at one depth, a blank line, the same statement in another block) costs a
//! look-up instead of syntect's regex searches, which are nearly all of a cold build's
//! highlighting.
//!
//! `ParseState::parse_line` is a function of the state, the line and the syntax set, so a
//! remembered result is the one parsing again would give: the HTML is the same byte for byte.
//!
//! A parser state may hold an Oniguruma region (a grammar's back-references), which cannot go
//! to another thread: a memo belongs to one thread (a worker of the Markdown stage). A line
//! and its states take about 2 KB, and most lines of code are written once: a memo keeps a line
//! from its second parse on (a line seen once is only a hash), and at most [`LIMIT`] of them
//! (about 40 MB), then starts again.

use std::cell::RefCell;
use std::hash::BuildHasher;
use std::sync::Arc;

use rustc_hash::{FxBuildHasher, FxHashMap};
use syntect::parsing::{ParseState, ParsingError, ScopeStackOp, SyntaxSet};

/// The scope changes of a parsed line, shared by every block that has it.
pub(super) type Ops = Arc<[(usize, ScopeStackOp)]>;

/// Parsed lines a memo holds before it forgets them all.
const LIMIT: usize = 20_000;

/// Lines seen once a memo remembers (8 bytes each) before it forgets them all.
const SEEN: usize = 1 << 20;

/// A line as parsed from one state: the state after it and its scope changes.
#[derive(Debug)]
struct Parsed {
    line: Box<str>,
    before: ParseState,
    after: ParseState,
    ops: Ops,
}

/// Parsed lines of every grammar, for one thread: give one to [`super::Highlighter::highlight_in`]
/// for all the blocks a worker highlights.
#[derive(Debug, Default)]
pub struct Lines {
    memo: RefCell<Memo>,
}

#[derive(Debug, Default)]
struct Memo {
    /// By a hash of the line (a state belongs to one grammar, so lines of two grammars never
    /// match).
    parsed: FxHashMap<u64, Vec<Parsed>>,
    /// Hashes of the lines parsed once: a line is kept from its second parse on.
    seen: rustc_hash::FxHashSet<u64>,
    held: usize,
    /// Lines parsed by syntect, and lines taken from the memo.
    misses: usize,
    hits: usize,
}

impl Lines {
    /// Parses `line` from `state` (moving `state` past it), or takes what parsing it from the
    /// same state gave before.
    pub(super) fn parse(
        &self,
        state: &mut ParseState,
        line: &str,
        syntaxes: &SyntaxSet,
    ) -> Result<Ops, ParsingError> {
        let key = FxBuildHasher.hash_one(line);
        let mut memo = self.memo.borrow_mut();
        let known = memo.parsed.get(&key).and_then(|all| {
            all.iter()
                .find(|p| *p.line == *line && p.before == *state)
                .map(|p| (p.after.clone(), p.ops.clone()))
        });
        if let Some((after, ops)) = known {
            memo.hits += 1;
            *state = after;
            return Ok(ops);
        }
        memo.misses += 1;
        if memo.seen.len() == SEEN {
            memo.seen.clear();
        }
        if memo.seen.insert(key) {
            return Ok(state.parse_line(line, syntaxes)?.into());
        }
        let before = state.clone();
        let ops: Ops = state.parse_line(line, syntaxes)?.into();
        if memo.held == LIMIT {
            memo.parsed.clear();
            memo.held = 0;
        }
        memo.held += 1;
        memo.parsed.entry(key).or_default().push(Parsed {
            line: line.into(),
            before,
            after: state.clone(),
            ops: ops.clone(),
        });
        Ok(ops)
    }

    /// Lines parsed by syntect and lines taken from the memo, since it was made.
    pub fn counts(&self) -> (usize, usize) {
        let memo = self.memo.borrow();
        (memo.misses, memo.hits)
    }
}

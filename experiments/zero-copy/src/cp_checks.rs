//! What Cap'n Proto checks, and when: a corrupted string, the traversal
//! limit, and a segment cut short. Cap'n Proto has no validator to run up
//! front; each access checks what it touches.

use crate::cp;
use crate::order_capnp::order;
use capnp::{ErrorKind, Word};
use harness::Results;

/// Traversal budget for the limit demonstration, in message sizes.
const LIMIT_BUDGET: usize = 1000;

/// Runs the three demonstrations on a well-formed message `b` whose
/// customer's email is `email` and whose total is `want`.
pub fn run(b: &[u8], email: &str, want: i64, r: &mut Results) {
    lazy_utf8(b, email, want, r);
    traversal_limit(b, r);
    cut_segment(b, want, r);
}

/// A copy of `b` with the first byte of `needle` made invalid UTF-8.
fn corrupt(b: &[u8], needle: &[u8]) -> Vec<Word> {
    let mut w = cp::aligned(b);
    let bytes = Word::words_to_bytes_mut(&mut w);
    let at = bytes
        .windows(needle.len())
        .position(|x| x == needle)
        .unwrap();
    bytes[at] = 0xff;
    w
}

fn lazy_utf8(b: &[u8], email: &str, want: i64, r: &mut Results) {
    // ANCHOR: capnp_lazy
    // one byte of the email made invalid UTF-8: only reading the email sees it
    let bad = corrupt(b, email.as_bytes());
    let msg = cp::open(Word::words_to_bytes(&bad), None).unwrap();
    let root = msg.get_root::<order::Reader>().unwrap();
    let field_ok = root.get_total_cents() == want;
    let walk_ok = root.total_size().is_ok();
    let email = root.get_customer().unwrap().get_email().unwrap();
    let email_err = email.to_str().is_err();
    // ANCHOR_END: capnp_lazy
    r.set("capnp.corrupt.field_read", u8::from(field_ok));
    r.set("capnp.corrupt.walk_passes", u8::from(walk_ok));
    r.set("capnp.corrupt.email_caught", u8::from(email_err));
}

fn traversal_limit(b: &[u8], r: &mut Results) {
    // ANCHOR: capnp_limit
    // a budget of words per opened message, charged for each struct or list
    // reached; a message bigger than the budget is refused when opened
    let words = cp::open(b, None).unwrap().size_in_words();
    let too_small = cp::open(b, Some(words - 1)).map(|_| ()).map_err(|e| e.kind);
    let budget = LIMIT_BUDGET * words;
    let msg = cp::open(b, Some(budget)).unwrap();
    let field_reads = (0..)
        .take_while(|_| {
            let root = msg.get_root::<order::Reader>();
            root.map(|o| o.get_total_cents()).is_ok()
        })
        .count();
    let msg = cp::open(b, Some(budget)).unwrap();
    let walks = (0..)
        .take_while(|_| {
            let root = msg.get_root::<order::Reader>();
            root.and_then(|o| o.total_size()).is_ok()
        })
        .count();
    // ANCHOR_END: capnp_limit
    let refused = matches!(too_small, Err(ErrorKind::MessageTooLarge(_)));
    let default = capnp::message::ReaderOptions::new()
        .traversal_limit_in_words
        .unwrap();
    r.set("capnp.message_words", words);
    r.set("capnp.limit.default_words", default);
    r.input("capnp.word_bytes", 8);
    r.product(
        "capnp.limit.default_bytes",
        "capnp.limit.default_words",
        "capnp.word_bytes",
    );
    r.set("capnp.limit.open_refused", u8::from(refused));
    r.input("capnp.limit.budget_times", LIMIT_BUDGET);
    r.set("capnp.limit.budget_words", budget);
    r.set("capnp.limit.field_reads", field_reads);
    r.set("capnp.limit.walks", walks);
    r.ratio(
        "capnp.limit.field_charge",
        "capnp.limit.budget_words",
        "capnp.limit.field_reads",
    );
    r.ratio(
        "capnp.limit.walk_charge",
        "capnp.limit.budget_words",
        "capnp.limit.walks",
    );
    r.ratio(
        "capnp.limit.reads_per_walk",
        "capnp.limit.field_reads",
        "capnp.limit.walks",
    );
}

/// The smallest `n` in `0..=max` for which `ok(n)` holds (`ok` monotonic).
fn smallest(max: usize, ok: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, max);
    assert!(ok(hi), "fails even at {max}");
    while lo < hi {
        let mid = (lo + hi) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// A segment table that claims fewer words than were written: how many the
/// field read needs in bounds, and what happens to pointers past them.
fn cut_segment(b: &[u8], want: i64, r: &mut Results) {
    let cut = |n: usize| {
        let mut w = cp::aligned(b);
        let bytes = Word::words_to_bytes_mut(&mut w);
        assert_eq!(bytes[..4], [0, 0, 0, 0], "one segment");
        bytes[4..8].copy_from_slice(&(n as u32).to_le_bytes());
        w
    };
    let words = b.len() / 8 - 1;
    let in_bounds = smallest(words, |n| {
        let w = cut(n);
        cp::open(Word::words_to_bytes(&w), None)
            .and_then(|m| Ok(m.get_root::<order::Reader>()?.get_total_cents() == want))
            .unwrap_or(false)
    });
    let w = cut(in_bounds);
    let msg = cp::open(Word::words_to_bytes(&w), None).unwrap();
    let root = msg.get_root::<order::Reader>().unwrap();
    let oob = matches!(
        root.get_customer().map(|_| ()).map_err(|e| e.kind),
        Err(ErrorKind::MessageContainsOutOfBoundsPointer)
    );
    let walk_err = root.total_size().is_err();
    r.set("capnp.bounds.field_words", in_bounds);
    r.set("capnp.bounds.customer_caught", u8::from(oob));
    r.set("capnp.bounds.walk_caught", u8::from(walk_err));
}

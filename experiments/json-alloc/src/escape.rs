//! Where borrowing fails: escaped strings. A note with quotes decoded into `&str` and `Cow`,
//! and the sample order as an ASCII-only encoder sends it (every non-ASCII character as
//! `\uXXXX`): what it costs in allocations and in time, borrowed and owned.

use harness::alloc::AllocStats;
use harness::{Comparison, Results, compare_with};
use orders::{Order, OrderRef};
use serde::Deserialize;
use std::borrow::Cow;

use crate::allocations;

// ANCHOR: escape
/// `&str` can only point into the input. An escaped JSON string (`\"`,
/// `\n`, `\u00e0`) has no such bytes: serde_json must unescape it into a
/// buffer, and a `&str` field then fails to decode.
#[derive(Debug, Deserialize)]
struct NoteStr<'a> {
    note: &'a str,
}

/// `Cow` borrows when it can and owns when it must.
#[derive(Debug, Deserialize)]
struct NoteCow<'a> {
    #[serde(borrow)]
    note: Cow<'a, str>,
}
// ANCHOR_END: escape

// ANCHOR: ascii
/// What `ensure_ascii` encoders (Python's `json.dumps` default, some Java
/// and JS libraries) send: every non-ASCII character as `\uXXXX`.
fn ascii_only(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    for ch in json.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            let mut units = [0u16; 2];
            for u in ch.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}
// ANCHOR_END: ascii

/// One form of the sample order's JSON, decoded owned and borrowed: allocations, and how
/// many strings stayed borrowed.
struct Variant {
    key: &'static str,
    vi: &'static str,
    en: &'static str,
    json: Vec<u8>,
    owned: AllocStats,
    borrowed: AllocStats,
    borrowed_strings: usize,
    owned_strings: usize,
}

fn variant(key: &'static str, vi: &'static str, en: &'static str, json: Vec<u8>) -> Variant {
    let owned = allocations(|| serde_json::from_slice::<Order>(&json).unwrap());
    let borrowed = allocations(|| serde_json::from_slice::<OrderRef>(&json).unwrap());
    let r: OrderRef = serde_json::from_slice(&json).unwrap();
    let (borrowed_strings, owned_strings) = r.borrow_counts();
    Variant {
        key,
        vi,
        en,
        json,
        owned,
        borrowed,
        borrowed_strings,
        owned_strings,
    }
}

fn record_variant(results: &mut Results, v: &Variant) {
    let key = format!("escape.{}", v.key);
    let set = |results: &mut Results, field: &str, x: u64| {
        results.set(&format!("{key}.{field}"), x);
    };
    set(results, "json_bytes", v.json.len() as u64);
    set(results, "borrowed_strings", v.borrowed_strings as u64);
    set(results, "owned_strings", v.owned_strings as u64);
    set(results, "borrowed_calls", v.borrowed.calls());
    set(results, "borrowed_allocs", v.borrowed.allocs);
    set(results, "borrowed_reallocs", v.borrowed.reallocs);
    set(results, "borrowed_bytes", v.borrowed.bytes);
    set(results, "owned_calls", v.owned.calls());
    set(results, "owned_allocs", v.owned.allocs);
    set(results, "owned_reallocs", v.owned.reallocs);
    set(results, "owned_bytes", v.owned.bytes);
}

/// The note with quotes as `&str` (an error) and as `Cow` (owned), next to the sample's.
fn note_demo(results: &mut Results, sample: &Order, clean_json: &[u8], quoted_json: &[u8]) {
    // ANCHOR: escape_demo
    let note_str = serde_json::from_slice::<NoteStr>(quoted_json);
    let note_cow: NoteCow = serde_json::from_slice(quoted_json).unwrap();
    let clean_cow: NoteCow = serde_json::from_slice(clean_json).unwrap();
    // ANCHOR_END: escape_demo
    let clean_str: NoteStr = serde_json::from_slice(clean_json).unwrap();
    assert_eq!(Some(clean_str.note), sample.note.as_deref());
    let err = note_str.expect_err("an escaped string cannot be a &str");
    let kind = |c: &Cow<str>| match c {
        Cow::Borrowed(_) => "Borrowed",
        Cow::Owned(_) => "Owned",
    };
    let text = String::from_utf8(quoted_json.to_vec()).unwrap();
    let start = text.find("\"note\":").unwrap();
    let end = start + text[start..].find("\",").unwrap() + 1;
    results.set("escape.note_field", &text[start..end]);
    results.set("escape.cow_kind", kind(&note_cow.note));
    results.set("escape.clean_cow_kind", kind(&clean_cow.note));
    results.set("escape.str_error", err.to_string());
}

/// Decoding the ASCII-only JSON against the UTF-8 original, interleaved: borrowed
/// (`OrderRef`, where the escapes also cost allocations) and owned (`Order`, which copies
/// every string from both inputs).
fn ascii_times(cfg: harness::Config, ascii: &[u8], clean: &[u8]) -> (Comparison, Comparison) {
    // ANCHOR: ascii_time
    let borrowed = compare_with(
        cfg.clone(),
        || serde_json::from_slice::<OrderRef>(ascii).unwrap(),
        || serde_json::from_slice::<OrderRef>(clean).unwrap(),
    );
    let owned = compare_with(
        cfg,
        || serde_json::from_slice::<Order>(ascii).unwrap(),
        || serde_json::from_slice::<Order>(clean).unwrap(),
    );
    // ANCHOR_END: ascii_time
    (borrowed, owned)
}

/// Everything about escapes, recorded under `escape.`.
pub fn measure(results: &mut Results, sample: &Order, cfg: harness::Config) {
    let clean_json = serde_json::to_vec(sample).unwrap();
    let mut quoted = sample.clone();
    quoted.note = Some("Khách dặn: \"gọi trước 15 phút\"".into());
    let quoted_json = serde_json::to_vec(&quoted).unwrap();
    let ascii_json = ascii_only(std::str::from_utf8(&clean_json).unwrap()).into_bytes();
    assert_eq!(
        serde_json::from_slice::<Order>(&ascii_json).unwrap(),
        *sample
    );
    note_demo(results, sample, &clean_json, &quoted_json);
    let variants = [
        variant(
            "clean",
            "đơn mẫu (UTF-8)",
            "sample order (UTF-8)",
            clean_json,
        ),
        variant(
            "quoted",
            "ghi chú có \\\"ngoặc kép\\\"",
            "note with \\\"quotes\\\"",
            quoted_json,
        ),
        variant(
            "ascii",
            "chỉ ASCII (\\uXXXX)",
            "ASCII-only (\\uXXXX)",
            ascii_json,
        ),
    ];
    for v in &variants {
        record_variant(results, v);
    }
    let rows: Vec<serde_json::Value> = variants
        .iter()
        .map(|v| {
            serde_json::json!({
                "vi": v.vi, "en": v.en, "json_bytes": v.json.len(),
                "borrowed_strings": v.borrowed_strings, "owned_strings": v.owned_strings,
                "borrowed_calls": v.borrowed.calls(), "owned_calls": v.owned.calls(),
            })
        })
        .collect();
    results.set("escape.rows", rows);
    let [clean, _, ascii] = &variants;
    let (borrowed, owned) = ascii_times(cfg, &ascii.json, &clean.json);
    results.set("escape.ascii_time", &borrowed);
    results.set("escape.ascii_owned_time", &owned);
    results.ratio(
        "escape.ascii_time_ratio",
        "escape.ascii_time.a",
        "escape.ascii_time.b",
    );
    results.ratio(
        "escape.ascii_owned_time_ratio",
        "escape.ascii_owned_time.a",
        "escape.ascii_owned_time.b",
    );
    for (what, field) in [
        ("bytes", "json_bytes"),
        ("borrowed_calls", "borrowed_calls"),
        ("owned_calls", "owned_calls"),
    ] {
        results.difference(
            &format!("escape.ascii_extra_{what}"),
            &format!("escape.ascii.{field}"),
            &format!("escape.clean.{field}"),
        );
    }
}

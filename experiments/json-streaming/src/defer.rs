//! Only a few fields needed: the full decode against structs that skip the rest (`Head`),
//! keep it as raw JSON borrowed from the input (`HeadRaw`) or copied (`HeadBoxed`), and
//! `Value`. Allocations counted once each; the four typed decodes timed round-robin.

use harness::alloc::measure;
use harness::interleave::{interleaved, routine};
use harness::{Results, bench_with};
use orders::{Customer, LineItem, Order, Status};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::{Files, Row, config, row};

// ANCHOR: heads
/// Only the outer fields; serde skips the others without allocating.
#[derive(Debug, Deserialize)]
struct Head {
    id: u64,
    status: Status,
    total_cents: i64,
}

/// The outer fields, and the rest kept as raw JSON text borrowed from the
/// input: decode it later, or forward it as is.
#[derive(Debug, Deserialize)]
struct HeadRaw<'a> {
    id: u64,
    status: Status,
    total_cents: i64,
    #[serde(borrow)]
    customer: &'a RawValue,
    #[serde(borrow)]
    items: &'a RawValue,
}

/// The same with owned raw values: works with `from_reader`, but each
/// `Box<RawValue>` is a copy of its JSON text.
#[derive(Debug, Deserialize)]
struct HeadBoxed {
    id: u64,
    status: Status,
    total_cents: i64,
    customer: Box<RawValue>,
    items: Box<RawValue>,
}
// ANCHOR_END: heads

/// Decodes the array every way and checks each against the orders.
fn check(bytes: &[u8], orders: &[Order], results: &mut Results) {
    // ANCHOR: defer_later
    let heads: Vec<HeadRaw> = serde_json::from_slice(bytes).unwrap();
    // Later, only for the orders that need it:
    let customer: Customer = serde_json::from_str(heads[0].customer.get()).unwrap();
    let items: Vec<LineItem> = serde_json::from_str(heads[0].items.get()).unwrap();
    // ANCHOR_END: defer_later
    assert_eq!(customer, orders[0].customer);
    assert_eq!(items, orders[0].items);
    let outer = |o: &Order| (o.id, o.status, o.total_cents);
    assert!(
        heads
            .iter()
            .zip(orders)
            .all(|(h, o)| (h.id, h.status, h.total_cents) == outer(o))
    );
    let boxed: Vec<HeadBoxed> = serde_json::from_slice(bytes).unwrap();
    let skipped: Vec<Head> = serde_json::from_slice(bytes).unwrap();
    for ((b, h), o) in boxed.iter().zip(&skipped).zip(orders) {
        assert_eq!((b.id, b.status, b.total_cents), outer(o));
        assert_eq!((h.id, h.status, h.total_cents), outer(o));
        assert_eq!(
            serde_json::from_str::<Customer>(b.customer.get()).unwrap(),
            o.customer
        );
    }
    assert_eq!(boxed[1].items.get(), heads[1].items.get());
    let raw_len: usize = heads
        .iter()
        .map(|h| h.customer.get().len() + h.items.get().len())
        .sum();
    results.set("defer.raw_bytes", raw_len);
}

/// The same orders with only the three outer fields: what `Head` reads when there is
/// nothing to skip.
fn heads_only(orders: &[Order]) -> Vec<u8> {
    let heads: Vec<serde_json::Value> = orders
        .iter()
        .map(|o| serde_json::json!({"id": o.id, "status": o.status, "total_cents": o.total_cents}))
        .collect();
    serde_json::to_vec(&heads).unwrap()
}

/// Decodes the array of orders into each target type: allocations, then time.
pub fn deferring(files: &Files, orders: &[Order], results: &mut Results) -> Vec<Row> {
    let bytes = std::fs::read(&files.array).unwrap();
    let bytes = &bytes[..];
    check(bytes, orders, results);
    let heads_only = heads_only(orders);
    let heads_only = &heads_only[..];
    results.set("sizes.heads_only", heads_only.len());
    // ANCHOR: defer_measure
    let (_, full) = measure(|| serde_json::from_slice::<Vec<Order>>(bytes).unwrap());
    let (_, raw) = measure(|| serde_json::from_slice::<Vec<HeadRaw>>(bytes).unwrap());
    // The typed decodes timed round-robin: one batch of each per round; the
    // last, `Head` from a file of only the three fields, has nothing to skip.
    let times = interleaved(vec![
        routine(|| serde_json::from_slice::<Vec<Order>>(bytes).unwrap()),
        routine(|| serde_json::from_slice::<Vec<Head>>(bytes).unwrap()),
        routine(|| serde_json::from_slice::<Vec<HeadRaw>>(bytes).unwrap()),
        routine(|| serde_json::from_slice::<Vec<HeadBoxed>>(bytes).unwrap()),
        routine(|| serde_json::from_slice::<Vec<Head>>(heads_only).unwrap()),
    ]);
    // ANCHOR_END: defer_measure
    let (_, head) = measure(|| serde_json::from_slice::<Vec<Head>>(bytes).unwrap());
    let (_, boxed) = measure(|| serde_json::from_slice::<Vec<HeadBoxed>>(bytes).unwrap());
    let (_, value) = measure(|| serde_json::from_slice::<serde_json::Value>(bytes).unwrap());
    let t_value = bench_with(config(), || {
        serde_json::from_slice::<serde_json::Value>(bytes).unwrap()
    });
    let [t_full, t_head, t_raw, t_boxed, t_alone] = <[_; 5]>::try_from(times).unwrap();
    results.set("defer.head_alone.time", &t_alone);
    let (_, alone) = measure(|| serde_json::from_slice::<Vec<Head>>(heads_only).unwrap());
    results.set("defer.head_alone.calls", alone.calls());
    let rows = vec![
        row("full", "Vec<Order>", full, 0, t_full),
        row("head", "Vec<Head> (rest skipped)", head, 0, t_head),
        row("raw", "Vec<HeadRaw> (&RawValue)", raw, 0, t_raw),
        row("boxed", "Vec<HeadBoxed> (Box<RawValue>)", boxed, 0, t_boxed),
        row("value", "Value", value, 0, t_value),
    ];
    for r in &rows {
        results.set(&format!("defer.{}", r.key), r);
    }
    results.set("defer.rows", &rows);
    rows
}

//! Zero-copy reads: one field of a large order read straight from the
//! buffer with rkyv (validated with `access`, unvalidated with
//! `access_unchecked`), against decoding the whole record with serde_json
//! (owned, borrowed, and a one-field struct) and prost. Time and
//! allocations per read, and what validation costs as the record grows.

#[global_allocator]
static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;

mod fb;
mod model;

use harness::interleave::{interleaved, routine};
use harness::{Ratio, Results, black_box, fmt};
use model::ArchivedOrder;
use prost::Message;
use rkyv::rancor;
use serde::{Deserialize, Serialize};

const ITEMS: usize = 36;
const SWEEP: [usize; 5] = [1, 3, 9, 18, 36];

// ANCHOR: reads
/// rkyv: check the whole buffer (bounds, UTF-8, enum tags), then read.
fn rkyv_checked(b: &[u8]) -> i64 {
    let o = rkyv::access::<ArchivedOrder, rancor::Error>(b).unwrap();
    o.total_cents.to_native()
}

/// rkyv, trusting the buffer: a pointer cast and one load.
fn rkyv_unchecked(b: &[u8]) -> i64 {
    // SAFETY: `b` was produced by `rkyv::to_bytes` for this type in this
    // process and is 16-byte aligned (an `AlignedVec`).
    let o = unsafe { rkyv::access_unchecked::<ArchivedOrder>(b) };
    o.total_cents.to_native()
}

/// FlatBuffers: verify the whole buffer, then read through the vtable.
fn fb_checked(b: &[u8]) -> i64 {
    flatbuffers::root::<fb::OrderFb>(b).unwrap().total_cents()
}

/// FlatBuffers, trusting the buffer.
fn fb_unchecked(b: &[u8]) -> i64 {
    // SAFETY: `b` was produced by `fb::build` in this process.
    unsafe { flatbuffers::root_unchecked::<fb::OrderFb>(b) }.total_cents()
}

/// serde_json into the owned `Order`: every string allocated.
fn json_owned(b: &[u8]) -> i64 {
    serde_json::from_slice::<orders::Order>(b)
        .unwrap()
        .total_cents
}

/// serde_json into a struct with just the field we want: nothing kept,
/// but the parser still reads and skips every byte before and after it.
#[derive(Deserialize)]
struct OnlyTotal {
    total_cents: i64,
}

fn json_one_field(b: &[u8]) -> i64 {
    serde_json::from_slice::<OnlyTotal>(b).unwrap().total_cents
}

/// prost: decode every field into `pb::Order`.
fn prost_full(b: &[u8]) -> i64 {
    orders::pb::Order::decode(b).unwrap().total_cents
}
// ANCHOR_END: reads

#[derive(Serialize)]
struct Row {
    key: &'static str,
    name: &'static str,
    bytes: usize,
    read: harness::Summary,
    allocs: u64,
    alloc_bytes: u64,
}

#[derive(Serialize)]
struct SweepPoint {
    items: usize,
    bytes: usize,
    checked: f64,
    unchecked: f64,
    prost: f64,
    fb_checked: f64,
}

fn main() {
    let mut r = Results::new();
    let mut rng = harness::rng(11);
    let order = orders::order_with_items(&mut rng, ITEMS);
    let want = order.total_cents;
    let rk = rkyv::to_bytes::<rancor::Error>(&model::Order::from(&order)).unwrap();
    let js = serde_json::to_vec(&order).unwrap();
    let pb = orders::pb::Order::from(&order).encode_to_vec();
    let fbb = fb::build(&order);
    assert_eq!(fb_checked(&fbb), want);
    assert_eq!(fb_unchecked(&fbb), want);
    {
        // the other fields came through too
        let root = flatbuffers::root::<fb::OrderFb>(&fbb).unwrap();
        let c: fb::CustomerFb = unsafe {
            root.tab
                .get::<flatbuffers::ForwardsUOffset<fb::CustomerFb>>(6, None)
        }
        .unwrap();
        let email = unsafe { c.tab.get::<flatbuffers::ForwardsUOffset<&str>>(8, None) }.unwrap();
        assert_eq!(email, order.customer.email);
    }
    for f in [rkyv_checked, rkyv_unchecked] {
        assert_eq!(f(&rk), want);
    }
    for f in [json_owned, json_one_field] {
        assert_eq!(f(&js), want);
    }
    assert_eq!(prost_full(&pb), want);
    // the archived order deserializes back to the original
    let back: model::Order = rkyv::deserialize::<model::Order, rancor::Error>(
        rkyv::access::<ArchivedOrder, rancor::Error>(&rk).unwrap(),
    )
    .unwrap();
    assert_eq!(back, model::Order::from(&order));

    // a corrupted buffer: validation catches it, access_unchecked would not
    let mut bad = rk.clone();
    let email = order.customer.email.as_bytes();
    let at = bad.windows(email.len()).position(|w| w == email).unwrap();
    bad[at] = 0xff; // no longer valid UTF-8
    let caught = rkyv::access::<ArchivedOrder, rancor::Error>(&bad).is_err();
    r.set("corrupt_caught", u8::from(caught));
    let mut bad_fb = fbb.clone();
    let at = bad_fb
        .windows(email.len())
        .position(|w| w == email)
        .unwrap();
    bad_fb[at] = 0xff;
    let caught_fb = flatbuffers::root::<fb::OrderFb>(&bad_fb).is_err();
    r.set("corrupt_caught_fb", u8::from(caught_fb));

    r.set("items", ITEMS);
    let t = interleaved(vec![
        routine(|| rkyv_unchecked(black_box(&rk))),
        routine(|| rkyv_checked(black_box(&rk))),
        routine(|| fb_unchecked(black_box(&fbb))),
        routine(|| fb_checked(black_box(&fbb))),
        routine(|| json_one_field(black_box(&js))),
        routine(|| json_owned(black_box(&js))),
        routine(|| prost_full(black_box(&pb))),
    ]);
    let alloc = |f: fn(&[u8]) -> i64, b: &[u8]| harness::alloc::measure(|| f(b)).1;
    let rows = vec![
        (
            "unchecked",
            "rkyv, access_unchecked",
            rk.len(),
            alloc(rkyv_unchecked, &rk),
        ),
        (
            "checked",
            "rkyv, access (validated)",
            rk.len(),
            alloc(rkyv_checked, &rk),
        ),
        (
            "fb_unchecked",
            "FlatBuffers, root_unchecked",
            fbb.len(),
            alloc(fb_unchecked, &fbb),
        ),
        (
            "fb_checked",
            "FlatBuffers, root (verified)",
            fbb.len(),
            alloc(fb_checked, &fbb),
        ),
        (
            "json_field",
            "serde_json, one-field struct",
            js.len(),
            alloc(json_one_field, &js),
        ),
        (
            "json",
            "serde_json, whole Order",
            js.len(),
            alloc(json_owned, &js),
        ),
        (
            "prost",
            "prost, whole Order",
            pb.len(),
            alloc(prost_full, &pb),
        ),
    ];
    assert_eq!(rows.len(), t.len());
    let rows: Vec<Row> = rows
        .into_iter()
        .zip(t.iter())
        .map(|((key, name, bytes, a), s)| Row {
            key,
            name,
            bytes,
            read: s.clone(),
            allocs: a.calls(),
            alloc_bytes: a.bytes,
        })
        .collect();
    println!(
        "FlatBuffers schema (implemented by hand, see fb.rs):{}",
        fb::SCHEMA.trim_end()
    );
    println!();
    println!("Reading total_cents from one order with {ITEMS} line items");
    println!();
    let mut tb = fmt::Table::new([
        "method",
        "buffer",
        "time per read",
        "allocations",
        "bytes allocated",
    ]);
    for row in &rows {
        tb.row([
            row.name.to_string(),
            fmt::bytes(row.bytes as f64),
            fmt::duration(row.read.median),
            row.allocs.to_string(),
            row.alloc_bytes.to_string(),
        ]);
        r.set(&format!("read.{}", row.key), row);
    }
    print!("{tb}");
    r.set("rows", &rows);
    // t: 0 rkyv unchecked, 1 rkyv checked, 2 fb unchecked, 3 fb checked,
    //    4 json one field, 5 json whole, 6 prost whole
    r.set("speedup.json_over_unchecked", Ratio::of(&t[5], &t[0]));
    r.set("speedup.prost_over_unchecked", Ratio::of(&t[6], &t[0]));
    r.set("speedup.json_over_checked", Ratio::of(&t[5], &t[1]));
    r.set("speedup.prost_over_checked", Ratio::of(&t[6], &t[1]));
    r.set("speedup.json_over_field", Ratio::of(&t[5], &t[4]));
    r.set("speedup.prost_over_fb_unchecked", Ratio::of(&t[6], &t[2]));
    r.set("speedup.prost_over_fb_checked", Ratio::of(&t[6], &t[3]));
    r.set("fb.vs_rkyv_unchecked", Ratio::of(&t[2], &t[0]));
    r.set("fb.verify_cost", Ratio::of(&t[3], &t[2]));
    r.set("fb.checked_vs_rkyv_checked", Ratio::of(&t[3], &t[1]));
    r.set("validation.cost", Ratio::of(&t[1], &t[0]));
    r.set("validation.ns_per_byte", t[1].median / rk.len() as f64);

    // --- how validation and full decoding grow with the record ---------------------
    let mut sweep = Vec::new();
    for &n in &SWEEP {
        let o = orders::order_with_items(&mut harness::rng(100 + n as u64), n);
        let b = rkyv::to_bytes::<rancor::Error>(&model::Order::from(&o)).unwrap();
        let p = orders::pb::Order::from(&o).encode_to_vec();
        let f = fb::build(&o);
        let s = interleaved(vec![
            routine(|| rkyv_checked(black_box(&b))),
            routine(|| rkyv_unchecked(black_box(&b))),
            routine(|| prost_full(black_box(&p))),
            routine(|| fb_checked(black_box(&f))),
        ]);
        sweep.push(SweepPoint {
            items: n,
            bytes: b.len(),
            checked: s[0].median,
            unchecked: s[1].median,
            prost: s[2].median,
            fb_checked: s[3].median,
        });
    }
    println!();
    println!("As the order grows");
    println!();
    let mut tb = fmt::Table::new([
        "items",
        "rkyv bytes",
        "access",
        "access_unchecked",
        "FlatBuffers root",
        "prost decode",
    ]);
    for p in &sweep {
        tb.row([
            p.items.to_string(),
            p.bytes.to_string(),
            fmt::duration(p.checked),
            fmt::duration(p.unchecked),
            fmt::duration(p.fb_checked),
            fmt::duration(p.prost),
        ]);
    }
    print!("{tb}");
    let first = &sweep[0];
    let last = sweep.last().unwrap();
    r.set("sweep_growth.checked", last.checked / first.checked);
    r.set("sweep_growth.unchecked", last.unchecked / first.unchecked);
    r.set("sweep_growth.prost", last.prost / first.prost);
    r.set(
        "sweep_growth.fb_checked",
        last.fb_checked / first.fb_checked,
    );
    r.set("sweep", &sweep);
    println!();
    println!("validation catches a corrupted buffer: rkyv {caught}, FlatBuffers {caught_fb}");
    r.write();
}

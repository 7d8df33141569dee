//! Protobuf (prost) vs JSON (serde_json) on the same nested order: encoded
//! size and where it goes, encode and decode time measured interleaved,
//! allocations per call, and how the size ratio varies across orders.

mod anatomy;
mod counting;

use anatomy::{Breakdown, Msg};
use counting::counted;
use harness::alloc::AllocStats;
use harness::fmt::{Table, bytes, duration};
use harness::{Config, Ratio, Results, Summary, bench, bench_batched, black_box, compare};
use orders::{Order, pb};
use prost::Message;
use serde::Serialize;

#[global_allocator]
static A: counting::Switch = counting::Switch;

/// Orders generated to see how the size ratio varies.
const MANY: usize = 1000;
/// Orders per item count in the size-by-items sweep.
const PER_COUNT: usize = 50;
const MAX_ITEMS: usize = 12;
/// (Vietnamese, English) labels of the encode, encode-into-a-reused-buffer
/// and decode rows.
const LABELS: [(&str, &str); 3] = [
    ("mã hóa (Vec mới)", "encode (new Vec)"),
    ("mã hóa (tái dùng buffer)", "encode (reused buffer)"),
    ("giải mã", "decode"),
];

#[derive(Serialize)]
struct AnatomyRow {
    format: &'static str,
    #[serde(flatten)]
    b: Breakdown,
    total: usize,
}

#[derive(Serialize)]
struct ItemsRow {
    items: usize,
    json: f64,
    protobuf: f64,
    ratio: f64,
}

#[derive(Serialize)]
struct TimingRow {
    op: &'static str,
    /// row labels for the articles
    vi: &'static str,
    en: &'static str,
    json: Summary,
    protobuf: Summary,
    /// json / protobuf
    ratio: Ratio,
}

#[derive(Serialize)]
struct AllocRow {
    op: &'static str,
    vi: &'static str,
    en: &'static str,
    json: AllocStats,
    protobuf: AllocStats,
}

fn anatomy(results: &mut Results, order: &Order, json: &[u8], proto: &[u8]) -> [Breakdown; 2] {
    let mut j = Breakdown::default();
    anatomy::json(&serde_json::to_value(order).unwrap(), &mut j);
    assert_eq!(j.total(), json.len(), "every JSON byte accounted for");
    let mut p = Breakdown::default();
    anatomy::protobuf(proto, Msg::Order, &mut p);
    assert_eq!(p.total(), proto.len(), "every protobuf byte accounted for");

    let gap = (json.len() - proto.len()) as f64;
    let names_gap = (j.names + j.nulls) as f64 - p.names as f64;
    results.set("anatomy.json", j);
    results.set("anatomy.protobuf", p);
    results.set("anatomy.gap", json.len() - proto.len());
    results.set("anatomy.names_and_nulls_gap", names_gap);
    results.set("anatomy.names_share_of_gap", names_gap / gap);
    results.set(
        "anatomy.structure_share_of_gap",
        (j.structure as f64 - p.structure as f64) / gap,
    );
    results.set("anatomy.text_gap", j.text - p.text);
    results.set("anatomy.numbers_gap", j.numbers as f64 - p.numbers as f64);
    results.set(
        "anatomy.json_names_share",
        j.names as f64 / json.len() as f64,
    );
    results.set("anatomy.json_text_share", j.text as f64 / json.len() as f64);
    results.set(
        "anatomy.protobuf_text_share",
        p.text as f64 / proto.len() as f64,
    );
    results.set(
        "anatomy.rows",
        [
            AnatomyRow {
                format: "JSON",
                b: j,
                total: j.total(),
            },
            AnatomyRow {
                format: "Protobuf",
                b: p,
                total: p.total(),
            },
        ],
    );
    [j, p]
}

fn size_spread(results: &mut Results) -> (f64, f64, f64) {
    let many = orders::orders(4, MANY);
    let mut ratios: Vec<f64> = many
        .iter()
        .map(|o| {
            let j = serde_json::to_vec(o).unwrap().len();
            let p = pb::Order::from(o).encoded_len();
            j as f64 / p as f64
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let (min, med, max) = (ratios[0], ratios[MANY / 2], ratios[MANY - 1]);
    results.set("many.n", MANY);
    results.set("many.ratio_min", min);
    results.set("many.ratio_median", med);
    results.set("many.ratio_max", max);

    let mut rng = harness::rng(5);
    let mut rows = Vec::new();
    for items in 1..=MAX_ITEMS {
        let (mut j, mut p) = (0usize, 0usize);
        for _ in 0..PER_COUNT {
            let o = orders::order_with_items(&mut rng, items);
            j += serde_json::to_vec(&o).unwrap().len();
            p += pb::Order::from(&o).encoded_len();
        }
        let (j, p) = (j as f64 / PER_COUNT as f64, p as f64 / PER_COUNT as f64);
        rows.push(ItemsRow {
            items,
            json: j,
            protobuf: p,
            ratio: j / p,
        });
    }
    results.set("by_items.per_count", PER_COUNT);
    results.set("by_items.max_items", MAX_ITEMS);
    results.set("by_items.first", &rows[0]);
    results.set("by_items.last", &rows[MAX_ITEMS - 1]);
    results.set("by_items.rows", &rows);
    (min, med, max)
}

fn main() {
    let mut results = Results::new();

    // ANCHOR: inputs
    let order: Order = orders::sample_order();
    let msg: pb::Order = pb::Order::from(&order); // prost needs its own structs
    let json: Vec<u8> = serde_json::to_vec(&order).unwrap();
    let proto: Vec<u8> = msg.encode_to_vec();
    // ANCHOR_END: inputs
    assert_eq!(serde_json::from_slice::<Order>(&json).unwrap(), order);
    assert_eq!(
        Order::try_from(pb::Order::decode(proto.as_slice()).unwrap()).unwrap(),
        order
    );

    results.set("order.items", order.items.len());
    results.set("order.tags", order.tags.len());
    results.set(
        "order.nulls",
        order
            .items
            .iter()
            .filter(|i| i.discount_percent.is_none())
            .count(),
    );
    results.set("size.json", json.len());
    results.set("size.protobuf", proto.len());
    results.set(
        "size.ratio",
        Ratio::exact(json.len() as f64, proto.len() as f64),
    );
    results.set("size.saving", 1.0 - proto.len() as f64 / json.len() as f64);

    let [j, p] = anatomy(&mut results, &order, &json, &proto);
    let (rmin, rmed, rmax) = size_spread(&mut results);

    // ANCHOR: timing
    let encode = compare(
        || serde_json::to_vec(&order).unwrap(),
        || msg.encode_to_vec(),
    );
    let decode = compare(
        || serde_json::from_slice::<Order>(black_box(&json)).unwrap(),
        || pb::Order::decode(black_box(proto.as_slice())).unwrap(),
    );
    // ANCHOR_END: timing

    // ANCHOR: reuse
    let (mut jbuf, mut pbuf) = (Vec::with_capacity(4096), Vec::with_capacity(4096));
    let encode_reuse = compare(
        || {
            jbuf.clear();
            serde_json::to_writer(&mut jbuf, &order).unwrap();
            jbuf.len()
        },
        || {
            pbuf.clear();
            msg.encode(&mut pbuf).unwrap();
            pbuf.len()
        },
    );
    // ANCHOR_END: reuse

    // ANCHOR: convert
    let to_pb = bench(|| pb::Order::from(&order));
    let from_pb = bench_batched(
        Config::default(),
        || msg.clone(),
        |m| Order::try_from(m).unwrap(),
    );
    // ANCHOR_END: convert

    let mut timings = Vec::new();
    for (op, vi, en, c) in [
        ("encode", LABELS[0].0, LABELS[0].1, &encode),
        ("encode_reuse", LABELS[1].0, LABELS[1].1, &encode_reuse),
        ("decode", LABELS[2].0, LABELS[2].1, &decode),
    ] {
        results.set(op, c);
        timings.push(TimingRow {
            op,
            vi,
            en,
            json: c.a.clone(),
            protobuf: c.b.clone(),
            ratio: c.ratio,
        });
    }
    results.set("timings", &timings);
    results.set("convert.to_pb", &to_pb);
    results.set("convert.from_pb", &from_pb);
    // protobuf end to end from/to the serde model, vs JSON straight to it
    results.set(
        "convert.encode_with_conversion",
        to_pb.median + encode.b.median,
    );
    results.set(
        "convert.decode_with_conversion",
        decode.b.median + from_pb.median,
    );
    results.set(
        "convert.encode_ratio_with_conversion",
        encode.a.median / (to_pb.median + encode.b.median),
    );
    results.set(
        "convert.decode_ratio_with_conversion",
        decode.a.median / (decode.b.median + from_pb.median),
    );

    // per byte of input: the part of JSON's cost that is just "more bytes"
    let json_ns_per_byte = decode.a.median / json.len() as f64;
    let pb_ns_per_byte = decode.b.median / proto.len() as f64;
    results.set("per_byte.decode_json_ns", json_ns_per_byte);
    results.set("per_byte.decode_protobuf_ns", pb_ns_per_byte);
    results.set("per_byte.decode_ratio", json_ns_per_byte / pb_ns_per_byte);
    results.set(
        "per_byte.encode_json_ns",
        encode.a.median / json.len() as f64,
    );
    results.set(
        "per_byte.encode_protobuf_ns",
        encode.b.median / proto.len() as f64,
    );
    // throughput in MB/s (1 MB = 1e6 B) of decoded input
    results.set(
        "per_byte.decode_json_mb_s",
        json.len() as f64 * 1e3 / decode.a.median,
    );
    results.set(
        "per_byte.decode_protobuf_mb_s",
        proto.len() as f64 * 1e3 / decode.b.median,
    );

    // ANCHOR: allocs
    let (_, a_json_enc) = counted(|| serde_json::to_vec(&order).unwrap());
    let (_, a_pb_enc) = counted(|| msg.encode_to_vec());
    let (_, a_json_dec) = counted(|| serde_json::from_slice::<Order>(&json).unwrap());
    let (_, a_pb_dec) = counted(|| pb::Order::decode(proto.as_slice()).unwrap());
    // ANCHOR_END: allocs
    let (_, a_json_reuse) = counted(|| {
        jbuf.clear();
        serde_json::to_writer(&mut jbuf, &order).unwrap();
    });
    let (_, a_pb_reuse) = counted(|| {
        pbuf.clear();
        msg.encode(&mut pbuf).unwrap();
    });
    let (_, a_to_pb) = counted(|| pb::Order::from(&order));
    let m2 = msg.clone();
    let (_, a_from_pb) = counted(|| Order::try_from(m2).unwrap());
    let alloc_rows = [
        AllocRow {
            op: "encode",
            vi: LABELS[0].0,
            en: LABELS[0].1,
            json: a_json_enc,
            protobuf: a_pb_enc,
        },
        AllocRow {
            op: "encode_reuse",
            vi: LABELS[1].0,
            en: LABELS[1].1,
            json: a_json_reuse,
            protobuf: a_pb_reuse,
        },
        AllocRow {
            op: "decode",
            vi: LABELS[2].0,
            en: LABELS[2].1,
            json: a_json_dec,
            protobuf: a_pb_dec,
        },
    ];
    for row in &alloc_rows {
        results.set(&format!("allocs.{}.json", row.op), row.json);
        results.set(&format!("allocs.{}.protobuf", row.op), row.protobuf);
        results.set(&format!("allocs.{}.json_calls", row.op), row.json.calls());
        results.set(
            &format!("allocs.{}.protobuf_calls", row.op),
            row.protobuf.calls(),
        );
    }
    results.set("allocs.rows", &alloc_rows);
    results.set("allocs.to_pb", a_to_pb);
    results.set("allocs.from_pb", a_from_pb);
    results.set("allocs.to_pb_calls", a_to_pb.calls());
    results.set("allocs.from_pb_calls", a_from_pb.calls());

    // ---- report ----
    println!(
        "Sample order: {} line items, {} tag(s), {} line(s) without a discount\n",
        order.items.len(),
        order.tags.len(),
        order
            .items
            .iter()
            .filter(|i| i.discount_percent.is_none())
            .count()
    );
    let mut t = Table::new([
        "bytes by kind",
        "names",
        "structure",
        "text",
        "numbers",
        "nulls",
        "total",
    ]);
    for (name, b) in [("JSON", j), ("Protobuf", p)] {
        t.row([
            name.to_string(),
            b.names.to_string(),
            b.structure.to_string(),
            b.text.to_string(),
            b.numbers.to_string(),
            b.nulls.to_string(),
            b.total().to_string(),
        ]);
    }
    print!("{t}");
    println!(
        "JSON / Protobuf size: {:.2}x (over {MANY} generated orders: min {rmin:.2}x, median {rmed:.2}x, max {rmax:.2}x)\n",
        json.len() as f64 / proto.len() as f64
    );

    let mut t = Table::new(["median per call", "JSON", "Protobuf", "JSON / Protobuf"]);
    for row in &timings {
        t.row([
            row.op.replace('_', " "),
            duration(row.json.median),
            duration(row.protobuf.median),
            format!("{:.2}x", row.ratio.value),
        ]);
    }
    t.row([
        "serde model -> pb::Order".to_string(),
        String::new(),
        duration(to_pb.median),
        String::new(),
    ]);
    t.row([
        "pb::Order -> serde model".to_string(),
        String::new(),
        duration(from_pb.median),
        String::new(),
    ]);
    print!("{t}");
    println!(
        "decode cost per input byte: JSON {json_ns_per_byte:.2} ns, Protobuf {pb_ns_per_byte:.2} ns\n"
    );

    let mut t = Table::new([
        "allocations",
        "JSON calls",
        "JSON bytes",
        "Protobuf calls",
        "Protobuf bytes",
    ]);
    for row in &alloc_rows {
        t.row([
            row.op.replace('_', " "),
            row.json.calls().to_string(),
            bytes(row.json.bytes as f64),
            row.protobuf.calls().to_string(),
            bytes(row.protobuf.bytes as f64),
        ]);
    }
    t.row([
        "serde model -> pb::Order".to_string(),
        String::new(),
        String::new(),
        a_to_pb.calls().to_string(),
        bytes(a_to_pb.bytes as f64),
    ]);
    print!("{t}");
    println!("(calls = alloc + realloc)");

    results.write();
}

//! Protobuf (prost) vs JSON (serde_json) on the same nested order: encoded
//! size and where it goes, encode and decode time measured in the same
//! rounds (with and without converting from the application's own model),
//! allocations per call, and how the size ratio varies across orders.

mod anatomy;

use anatomy::{Breakdown, Msg};
use harness::alloc::{AllocStats, CountingAlloc, measure};
use harness::declare::{Label, Table, same, text, value, value_as};
use harness::interleave::{interleaved, routine};
use harness::{Comparison, Config, Results, Summary, bench_batched, black_box, compare};
use orders::{Order, pb};
use prost::Message;
use serde::Serialize;

// Counts only inside `measure`: during the timings an allocation costs the
// system allocator's price plus a check of one flag.
#[global_allocator]
static A: CountingAlloc = CountingAlloc;

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
}

#[derive(Serialize)]
struct AllocRow {
    op: &'static str,
    vi: &'static str,
    en: &'static str,
    json: AllocStats,
    protobuf: AllocStats,
}

/// The sample order in both formats.
struct Inputs {
    order: Order,
    msg: pb::Order,
    json: Vec<u8>,
    proto: Vec<u8>,
}

fn inputs() -> Inputs {
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
    Inputs {
        order,
        msg,
        json,
        proto,
    }
}

/// The sample order's sizes, and what share of them is saved.
fn sizes(r: &mut Results, i: &Inputs) {
    let o = &i.order;
    r.input("order.items", o.items.len());
    r.input("order.tags", o.tags.len());
    let nulls = o.items.iter().filter(|i| i.discount_percent.is_none());
    r.input("order.nulls", nulls.count());
    r.set("size.json", i.json.len());
    r.set("size.protobuf", i.proto.len());
    r.ratio("size.ratio", "size.json", "size.protobuf");
    r.difference("size.gap", "size.json", "size.protobuf");
    r.share("size.saving", "size.gap", "size.json");
}

/// Every byte of both encodings by kind, and which kinds make the gap.
fn anatomy(r: &mut Results, i: &Inputs) {
    let mut j = Breakdown::default();
    anatomy::json(&serde_json::to_value(&i.order).unwrap(), &mut j);
    assert_eq!(j.total(), i.json.len(), "every JSON byte accounted for");
    let mut p = Breakdown::default();
    anatomy::protobuf(&i.proto, Msg::Order, &mut p);
    assert_eq!(
        p.total(),
        i.proto.len(),
        "every protobuf byte accounted for"
    );

    r.set("anatomy.json", j);
    r.set("anatomy.protobuf", p);
    r.set("anatomy.json.names_and_nulls", j.names + j.nulls);
    r.difference("anatomy.gap", "size.json", "size.protobuf");
    r.difference(
        "anatomy.names_and_nulls_gap",
        "anatomy.json.names_and_nulls",
        "anatomy.protobuf.names",
    );
    r.share(
        "anatomy.names_share_of_gap",
        "anatomy.names_and_nulls_gap",
        "anatomy.gap",
    );
    r.difference(
        "anatomy.text_gap",
        "anatomy.json.text",
        "anatomy.protobuf.text",
    );
    r.difference(
        "anatomy.numbers_gap",
        "anatomy.json.numbers",
        "anatomy.protobuf.numbers",
    );
    r.share(
        "anatomy.json_names_share",
        "anatomy.json.names",
        "size.json",
    );
    r.share(
        "anatomy.protobuf_text_share",
        "anatomy.protobuf.text",
        "size.protobuf",
    );
    let rows = [("JSON", j), ("Protobuf", p)].map(|(format, b)| AnatomyRow {
        format,
        b,
        total: b.total(),
    });
    r.set("anatomy.rows", rows);
}

/// How the size ratio varies over generated orders and with the number of line items.
fn size_spread(r: &mut Results) {
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
    r.input("many.n", MANY);
    r.set("many.ratio_min", ratios[0]);
    r.set("many.ratio_median", ratios[MANY / 2]);
    r.set("many.ratio_max", ratios[MANY - 1]);

    let mut rng = harness::rng(5);
    let mut rows = Vec::new();
    for items in 1..=MAX_ITEMS {
        let (mut j, mut p) = (0usize, 0usize);
        for _ in 0..PER_COUNT {
            let o = orders::order_with_items(&mut rng, items);
            j += serde_json::to_vec(&o).unwrap().len();
            p += pb::Order::from(&o).encoded_len();
        }
        let (json, protobuf) = (j as f64 / PER_COUNT as f64, p as f64 / PER_COUNT as f64);
        rows.push(ItemsRow {
            items,
            json,
            protobuf,
        });
    }
    r.input("by_items.per_count", PER_COUNT);
    r.input("by_items.max_items", MAX_ITEMS);
    r.set("by_items.first", &rows[0]);
    r.set("by_items.last", &rows[MAX_ITEMS - 1]);
    r.ratio(
        "by_items.first.ratio",
        "by_items.first.json",
        "by_items.first.protobuf",
    );
    r.ratio(
        "by_items.last.ratio",
        "by_items.last.json",
        "by_items.last.protobuf",
    );
    r.set("by_items.rows", &rows);
}

/// Encode and decode, each side in the same rounds, with and without the conversion from
/// and to the application's model; the reused-buffer encode; the conversions alone.
fn timings(r: &mut Results, i: &Inputs) {
    let (order, msg, json, proto) = (&i.order, &i.msg, &i.json, &i.proto);
    // ANCHOR: timing
    let encode = interleaved(vec![
        routine(|| serde_json::to_vec(black_box(order)).unwrap()),
        routine(|| black_box(msg).encode_to_vec()),
        routine(|| pb::Order::from(black_box(order)).encode_to_vec()), // + conversion
    ]);
    let decode = interleaved(vec![
        routine(|| serde_json::from_slice::<Order>(black_box(json)).unwrap()),
        routine(|| pb::Order::decode(black_box(proto.as_slice())).unwrap()),
        routine(|| Order::try_from(pb::Order::decode(black_box(proto.as_slice())).unwrap())),
    ]);
    // ANCHOR_END: timing
    let [enc_json, enc_pb, enc_conv] = <[Summary; 3]>::try_from(encode).unwrap();
    let [dec_json, dec_pb, dec_conv] = <[Summary; 3]>::try_from(decode).unwrap();
    r.set("encode.a", &enc_json);
    r.set("encode.b", &enc_pb);
    r.set("convert.encode_with_conversion", &enc_conv);
    r.set("decode.a", &dec_json);
    r.set("decode.b", &dec_pb);
    r.set("convert.decode_with_conversion", &dec_conv);
    r.ratio("encode.ratio", "encode.a", "encode.b");
    r.ratio("decode.ratio", "decode.a", "decode.b");
    r.ratio(
        "convert.encode_ratio_with_conversion",
        "encode.a",
        "convert.encode_with_conversion",
    );
    r.ratio(
        "convert.decode_ratio_with_conversion",
        "decode.a",
        "convert.decode_with_conversion",
    );
    r.ratio("encode_over_decode", "encode.ratio", "decode.ratio");
    r.set("encode_reuse", encode_reuse(order, msg));

    // ANCHOR: convert
    // Both without the drop of what they return (it happens after the clock stops).
    let to_pb = bench_batched(Config::default(), || (), |()| pb::Order::from(order));
    let from_pb = bench_batched(
        Config::default(),
        || msg.clone(),
        |m| Order::try_from(m).unwrap(),
    );
    // ANCHOR_END: convert
    r.set("convert.to_pb", &to_pb);
    r.set("convert.from_pb", &from_pb);
    r.ratio("convert.to_over_from", "convert.to_pb", "convert.from_pb");
}

fn encode_reuse(order: &Order, msg: &pb::Order) -> Comparison {
    // ANCHOR: reuse
    let (mut jbuf, mut pbuf) = (Vec::with_capacity(4096), Vec::with_capacity(4096));
    let encode_reuse = compare(
        || {
            jbuf.clear();
            serde_json::to_writer(&mut jbuf, order).unwrap();
            jbuf.len()
        },
        || {
            pbuf.clear();
            msg.encode(&mut pbuf).unwrap();
            pbuf.len()
        },
    );
    // ANCHOR_END: reuse
    encode_reuse
}

/// Decode time per input byte: the part of JSON's cost that is just "more bytes".
fn per_byte(r: &mut Results) {
    r.ratio("per_byte.decode_json_ns", "decode.a", "size.json");
    r.ratio("per_byte.decode_protobuf_ns", "decode.b", "size.protobuf");
    r.ratio(
        "per_byte.decode_ratio",
        "per_byte.decode_json_ns",
        "per_byte.decode_protobuf_ns",
    );
}

/// Allocations per call, counted by the harness's allocator inside `measure` only.
fn allocations(r: &mut Results, i: &Inputs) {
    let (order, msg, json, proto) = (&i.order, &i.msg, &i.json, &i.proto);
    // ANCHOR: allocs
    let (_, a_json_enc) = measure(|| serde_json::to_vec(order).unwrap());
    let (_, a_pb_enc) = measure(|| msg.encode_to_vec());
    let (_, a_json_dec) = measure(|| serde_json::from_slice::<Order>(json).unwrap());
    let (_, a_pb_dec) = measure(|| pb::Order::decode(proto.as_slice()).unwrap());
    // ANCHOR_END: allocs
    let (mut jbuf, mut pbuf) = (Vec::with_capacity(4096), Vec::with_capacity(4096));
    let (_, a_json_reuse) = measure(|| serde_json::to_writer(&mut jbuf, order).unwrap());
    let (_, a_pb_reuse) = measure(|| msg.encode(&mut pbuf).unwrap());
    let (_, a_to_pb) = measure(|| pb::Order::from(order));
    let m2 = msg.clone();
    let (_, a_from_pb) = measure(|| Order::try_from(m2).unwrap());
    let sides = [
        (a_json_enc, a_pb_enc),
        (a_json_reuse, a_pb_reuse),
        (a_json_dec, a_pb_dec),
    ];
    let mut rows = Vec::new();
    for (op, (vi, en), (json, protobuf)) in
        zip3(["encode", "encode_reuse", "decode"], LABELS, sides)
    {
        r.set(&format!("allocs.{op}.json"), json);
        r.set(&format!("allocs.{op}.protobuf"), protobuf);
        r.set(&format!("allocs.{op}.json_calls"), json.calls());
        r.set(&format!("allocs.{op}.protobuf_calls"), protobuf.calls());
        rows.push(AllocRow {
            op,
            vi,
            en,
            json,
            protobuf,
        });
    }
    r.set("allocs.rows", &rows);
    r.set("allocs.to_pb", a_to_pb);
    r.set("allocs.from_pb", a_from_pb);
    r.set("allocs.to_pb_calls", a_to_pb.calls());
    r.set("allocs.from_pb_calls", a_from_pb.calls());
}

fn zip3<A, B, C, const N: usize>(a: [A; N], b: [B; N], c: [C; N]) -> Vec<(A, B, C)> {
    a.into_iter()
        .zip(b)
        .zip(c)
        .map(|((a, b), c)| (a, b, c))
        .collect()
}

/// The output: time per call, and decode cost per input byte.
fn declare_output(r: &mut Results) {
    let mut t = Table::new([
        Label::new("thao tác", "operation"),
        Label::same("JSON"),
        Label::same("Protobuf"),
        Label::same("JSON / Protobuf"),
    ])
    .titled(Label::new(
        "Thời gian mỗi lần gọi, trung vị",
        "Time per call, median",
    ));
    let dash = || same("–");
    for (key, (vi, en)) in ["encode", "encode_reuse", "decode"].into_iter().zip(LABELS) {
        t.row([
            text(vi, en),
            value(format!("{key}.a")),
            value(format!("{key}.b")),
            value(format!("{key}.ratio")),
        ]);
    }
    t.row([
        text(
            "mã hóa, kể cả chuyển từ mô hình",
            "encode, converting from the model",
        ),
        value("encode.a"),
        value("convert.encode_with_conversion"),
        value("convert.encode_ratio_with_conversion"),
    ]);
    t.row([
        text(
            "giải mã, kể cả chuyển về mô hình",
            "decode, converting to the model",
        ),
        value("decode.a"),
        value("convert.decode_with_conversion"),
        value("convert.decode_ratio_with_conversion"),
    ]);
    t.row([
        text("mô hình → pb::Order", "model → pb::Order"),
        dash(),
        value("convert.to_pb"),
        dash(),
    ]);
    t.row([
        text("pb::Order → mô hình", "pb::Order → model"),
        dash(),
        value("convert.from_pb"),
        dash(),
    ]);
    t.row([
        text("giải mã, mỗi byte đầu vào", "decode, per input byte"),
        value_as("per_byte.decode_json_ns", "duration"),
        value_as("per_byte.decode_protobuf_ns", "duration"),
        value("per_byte.decode_ratio"),
    ]);
    r.table(t);
}

fn main() {
    let mut results = Results::new();
    let inputs = inputs();
    sizes(&mut results, &inputs);
    anatomy(&mut results, &inputs);
    size_spread(&mut results);
    timings(&mut results, &inputs);
    per_byte(&mut results);
    allocations(&mut results, &inputs);
    declare_output(&mut results);
    results.write();
}

//! MessagePack vs JSON: the same order encoded by serde_json and rmp-serde,
//! with structs written as maps (`to_vec_named`) and as arrays (`to_vec`).
//! Sizes, where the bytes go, encode/decode time and allocations, and what
//! each form does when the two sides declare a struct differently.

mod address;

#[global_allocator]
static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;

use harness::declare::{Label, Table, same, text, value};
use harness::interleave::{interleaved, routine};
use harness::{Results, Summary, black_box};
use orders::Order;
use prost::Message;
use serde::Serialize;

const SEED: u64 = 6;
const CORPUS: usize = 1000;

// ANCHOR: one_line
fn encode_json(o: &Order) -> Vec<u8> {
    serde_json::to_vec(o).unwrap()
}

fn encode_msgpack(o: &Order) -> Vec<u8> {
    rmp_serde::to_vec_named(o).unwrap() // the one line that changes
}
// ANCHOR_END: one_line

// ANCHOR: as_array
/// rmp-serde's default: a struct becomes an array of its field values, in
/// declaration order. No names on the wire.
fn encode_msgpack_array(o: &Order) -> Vec<u8> {
    rmp_serde::to_vec(o).unwrap()
}
// ANCHOR_END: as_array

// ANCHOR: decode
fn decode_json(b: &[u8]) -> Order {
    serde_json::from_slice(b).unwrap()
}

fn decode_msgpack(b: &[u8]) -> Order {
    // the same call reads both shapes: maps match fields by name,
    // arrays by position
    rmp_serde::from_slice(b).unwrap()
}
// ANCHOR_END: decode

#[derive(Serialize)]
struct Row {
    key: &'static str,
    name: &'static str,
    bytes: usize,
    per_order: f64,
    encode: Summary,
    decode: Summary,
    decode_allocs: u64,
}

/// The three encodings of the sample order and of the corpus.
struct Sizes {
    j: Vec<u8>,
    n: Vec<u8>,
    a: Vec<u8>,
    corpus: [usize; 3],
}

/// The sample order's and the corpus's sizes in every format, and what they derive.
fn sizes(r: &mut Results, sample: &Order) -> Sizes {
    let (j, n, a) = (
        encode_json(sample),
        encode_msgpack(sample),
        encode_msgpack_array(sample),
    );
    assert_eq!(decode_json(&j), *sample);
    assert_eq!(decode_msgpack(&n), *sample);
    assert_eq!(decode_msgpack(&a), *sample);
    r.input("order.items", sample.items.len());
    r.set("order.json", j.len());
    r.set("order.named", n.len());
    r.set("order.array", a.len());
    r.set(
        "order.protobuf",
        orders::pb::Order::from(sample).encode_to_vec().len(),
    );
    r.difference("order.names", "order.named", "order.array");
    r.share("order.names_share", "order.names", "order.named");

    let corpus = orders::orders(SEED, CORPUS);
    for o in &corpus {
        assert_eq!(&decode_msgpack(&encode_msgpack(o)), o);
        assert_eq!(&decode_msgpack(&encode_msgpack_array(o)), o);
    }
    let total = |f: fn(&Order) -> Vec<u8>| corpus.iter().map(|o| f(o).len()).sum::<usize>();
    let c = [
        total(encode_json),
        total(encode_msgpack),
        total(encode_msgpack_array),
    ];
    let cp: usize = corpus
        .iter()
        .map(|o| orders::pb::Order::from(o).encoded_len())
        .sum();
    r.input("corpus.orders", CORPUS);
    r.set("corpus.json", c[0]);
    r.set("corpus.named", c[1]);
    r.set("corpus.array", c[2]);
    r.set("corpus.protobuf", cp);
    r.ratio("corpus.json_over_named", "corpus.json", "corpus.named");
    r.ratio("corpus.json_over_array", "corpus.json", "corpus.array");
    r.ratio("corpus.named_over_array", "corpus.named", "corpus.array");
    r.ratio(
        "corpus.array_over_protobuf",
        "corpus.array",
        "corpus.protobuf",
    );
    r.difference("corpus.named_saved", "corpus.json", "corpus.named");
    r.difference("corpus.array_saved", "corpus.json", "corpus.array");
    r.share("corpus.named_saving", "corpus.named_saved", "corpus.json");
    r.share("corpus.array_saving", "corpus.array_saved", "corpus.json");
    let size_row = |name: &str, one: usize, all: usize| serde_json::json!({"name": name, "sample": one, "mean": all as f64 / CORPUS as f64});
    r.set(
        "sizes",
        [
            size_row("JSON", j.len(), c[0]),
            size_row("MessagePack map", n.len(), c[1]),
            size_row("MessagePack array", a.len(), c[2]),
            size_row(
                "Protobuf",
                r.get("order.protobuf").unwrap().as_u64().unwrap() as usize,
                cp,
            ),
        ],
    );
    Sizes { j, n, a, corpus: c }
}

/// The six timings, interleaved in rounds.
fn timings(sample: &Order, s: &Sizes) -> [Summary; 6] {
    let t = interleaved(vec![
        routine(|| encode_json(black_box(sample))),
        routine(|| encode_msgpack(black_box(sample))),
        routine(|| encode_msgpack_array(black_box(sample))),
        routine(|| decode_json(black_box(&s.j))),
        routine(|| decode_msgpack(black_box(&s.n))),
        routine(|| decode_msgpack(black_box(&s.a))),
    ]);
    <[Summary; 6]>::try_from(t).unwrap()
}

/// The table of the three formats (sizes, times, allocations per decode), and the derived
/// speed-ups, from the formats' own paths.
fn formats(r: &mut Results, sample: &Order, s: &Sizes, t: [Summary; 6]) {
    let [enc_j, enc_n, enc_a, dec_j, dec_n, dec_a] = t;
    let allocs = |b: &[u8], f: fn(&[u8]) -> Order| harness::alloc::measure(|| f(b)).1;
    let (al_j, al_n, al_a) = (
        allocs(&s.j, decode_json),
        allocs(&s.n, decode_msgpack),
        allocs(&s.a, decode_msgpack),
    );
    r.set("alloc.decode.json", al_j);
    r.set("alloc.decode.named", al_n);
    r.set("alloc.decode.array", al_a);
    r.set(
        "alloc.encode.json",
        harness::alloc::measure(|| encode_json(sample)).1,
    );
    r.set(
        "alloc.encode.named",
        harness::alloc::measure(|| encode_msgpack(sample)).1,
    );
    let rows = [
        (
            "json",
            "JSON (serde_json)",
            &s.j,
            s.corpus[0],
            enc_j,
            dec_j,
            al_j,
        ),
        (
            "named",
            "MessagePack, map (to_vec_named)",
            &s.n,
            s.corpus[1],
            enc_n,
            dec_n,
            al_n,
        ),
        (
            "array",
            "MessagePack, array (to_vec)",
            &s.a,
            s.corpus[2],
            enc_a,
            dec_a,
            al_a,
        ),
    ]
    .map(|(key, name, b, total, encode, decode, al)| Row {
        key,
        name,
        bytes: b.len(),
        per_order: total as f64 / CORPUS as f64,
        encode,
        decode,
        decode_allocs: al.allocs,
    });
    for row in &rows {
        r.set(&format!("formats.{}", row.key), row);
    }
    r.set("rows", &rows);
    r.ratio(
        "decode_speedup.named",
        "formats.json.decode",
        "formats.named.decode",
    );
    r.ratio(
        "decode_speedup.array",
        "formats.json.decode",
        "formats.array.decode",
    );
    r.ratio(
        "encode_speedup.named",
        "formats.json.encode",
        "formats.named.encode",
    );
    r.ratio(
        "encode_speedup.array",
        "formats.json.encode",
        "formats.array.encode",
    );
    r.ratio(
        "decode_array_vs_named",
        "formats.named.decode",
        "formats.array.decode",
    );
    r.ratio(
        "encode_array_vs_named",
        "formats.named.encode",
        "formats.array.encode",
    );
}

/// The output: the address in three encodings, the map form part by part, what a reader
/// declaring the fields in another order gets, and what an added field does.
fn declare_output(r: &mut Results, parts: &[address::Part]) {
    let mut t = Table::new([
        Label::new("dạng", "form"),
        Label::new("byte", "bytes"),
        Label::new("nội dung", "content"),
    ])
    .titled(Label::new(
        "Một địa chỉ, ba cách mã hóa",
        "One address, three encodings",
    ));
    t.row([
        same("JSON"),
        value("address.json"),
        value("address.json_text"),
    ]);
    t.row([
        text(
            "MessagePack, map (to_vec_named)",
            "MessagePack, map (to_vec_named)",
        ),
        value("address.named"),
        value("address.named_hex"),
    ]);
    t.row([
        text("MessagePack, mảng (to_vec)", "MessagePack, array (to_vec)"),
        value("address.array"),
        value("address.array_hex"),
    ]);
    r.table(t);
    let mut t = Table::new([Label::same("byte"), Label::new("ý nghĩa", "meaning")]).titled(
        Label::new("Dạng map, từng phần", "The map form, part by part"),
    );
    for p in parts {
        t.row([same(p.hex.clone()), text(p.vi.clone(), p.en.clone())]);
    }
    r.table(t);
    let mut t = Table::new([
        Label::new("giải mã từ", "decoded from"),
        Label::same("city"),
        Label::same("street"),
    ])
    .titled(Label::new(
        "Giải mã vào một struct khai báo city trước street",
        "Decoded into a struct that declares city before street",
    ));
    for (vi, en, key) in [
        ("dạng map", "the map", "map"),
        ("dạng mảng", "the array", "array"),
    ] {
        t.row([
            text(vi, en),
            value(format!("reorder.{key}.city")),
            value(format!("reorder.{key}.street")),
        ]);
    }
    r.table(t);
    address::declare_evolution(r);
}

fn main() {
    let mut r = Results::new();
    let sample = orders::sample_order();
    let parts = address::record(&mut r, &sample.customer.address);
    address::record_status(&mut r, &sample);
    let s = sizes(&mut r, &sample);
    let t = timings(&sample, &s);
    formats(&mut r, &sample, &s, t);
    declare_output(&mut r, &parts);
    r.write();
}

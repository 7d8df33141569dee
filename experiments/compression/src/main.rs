//! Compression changes the ranking: the same orders as JSON and as Protobuf,
//! raw, gzip (flate2 with its default miniz_oxide backend) and zstd (libzstd);
//! sizes, compression ratios, compress/decompress times measured interleaved,
//! and bytes per order as the batch shrinks down to a single order.

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use harness::{Comparison, Results, Summary, black_box, compare};
use orders::{Order, pb};
use prost::Message;
use serde::Serialize;
use std::io::{Read, Write};

mod tables;

/// Orders in the main batch.
const N: usize = 1000;
/// gzip level: 6 is flate2's `Compression::default()` (and gzip's own default).
const GZIP_LEVEL: u32 = 6;
/// zstd level: 3 is libzstd's default.
const ZSTD_LEVEL: i32 = 3;
/// Batch sizes of the sweep (each divides N).
const BATCHES: [usize; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/// Extra levels for the level table.
const GZIP_LEVELS: [u32; 3] = [1, 6, 9];
const ZSTD_LEVELS: [i32; 4] = [1, 3, 9, 19];
/// Fewest calls timed per format and level (zstd -19 takes a quarter of a second a call).
const MIN_CALLS: f64 = 5.0;

// ANCHOR: batch
/// A batch of orders as one protobuf message: `repeated Order orders = 1;`.
#[derive(Clone, PartialEq, prost::Message)]
struct OrderBatch {
    #[prost(message, repeated, tag = "1")]
    orders: Vec<pb::Order>,
}

fn to_json(orders: &[Order]) -> Vec<u8> {
    serde_json::to_vec(orders).unwrap() // a JSON array of objects
}

fn to_protobuf(orders: &[Order]) -> Vec<u8> {
    OrderBatch {
        orders: orders.iter().map(pb::Order::from).collect(),
    }
    .encode_to_vec()
}
// ANCHOR_END: batch

// ANCHOR: codecs
fn gzip(data: &[u8], level: u32) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::new(level));
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    GzDecoder::new(data).read_to_end(&mut out).unwrap();
    out
}

fn zstd_compress(data: &[u8], level: i32) -> Vec<u8> {
    zstd::encode_all(data, level).unwrap()
}

fn zstd_decompress(data: &[u8]) -> Vec<u8> {
    zstd::decode_all(data).unwrap()
}
// ANCHOR_END: codecs

/// Decodes a JSON batch back into orders.
fn from_json(data: &[u8]) -> Vec<Order> {
    serde_json::from_slice(data).unwrap()
}

/// Decodes a protobuf batch (prost's structs, not converted back).
fn from_protobuf(data: &[u8]) -> OrderBatch {
    OrderBatch::decode(data).unwrap()
}

/// The batch in every form the article compares, checked to round-trip.
struct Encoded {
    all: Vec<Order>,
    /// prost's structs, built once: each format encodes its own structs.
    batch: OrderBatch,
    json: Vec<u8>,
    proto: Vec<u8>,
    json_gz: Vec<u8>,
    proto_gz: Vec<u8>,
    json_zst: Vec<u8>,
    proto_zst: Vec<u8>,
}

fn encoded(all: Vec<Order>) -> Encoded {
    // ANCHOR: inputs
    let json = to_json(&all);
    let proto = to_protobuf(&all);
    let json_gz = gzip(&json, GZIP_LEVEL);
    let proto_gz = gzip(&proto, GZIP_LEVEL);
    let json_zst = zstd_compress(&json, ZSTD_LEVEL);
    let proto_zst = zstd_compress(&proto, ZSTD_LEVEL);
    // ANCHOR_END: inputs
    assert_eq!(gunzip(&json_gz), json);
    assert_eq!(gunzip(&proto_gz), proto);
    assert_eq!(zstd_decompress(&json_zst), json);
    assert_eq!(zstd_decompress(&proto_zst), proto);
    assert_eq!(from_json(&json), all);
    let back: Vec<Order> = from_protobuf(&proto)
        .orders
        .into_iter()
        .map(|o| Order::try_from(o).unwrap())
        .collect();
    assert_eq!(back, all);
    let batch = OrderBatch {
        orders: all.iter().map(pb::Order::from).collect(),
    };
    Encoded {
        all,
        batch,
        json,
        proto,
        json_gz,
        proto_gz,
        json_zst,
        proto_zst,
    }
}

/// Every timing of the batch: each operation with JSON (a) and Protobuf (b) interleaved.
struct Timings {
    encode: Comparison,
    decode: Comparison,
    gzip_c: Comparison,
    gzip_d: Comparison,
    zstd_c: Comparison,
    zstd_d: Comparison,
    /// The sender's whole pipeline, encode then compress, timed as one operation.
    send_gzip: Comparison,
    send_zstd: Comparison,
    /// The receiver's, decompress then decode.
    receive_gzip: Comparison,
    receive_zstd: Comparison,
}

fn timings(e: &Encoded) -> Timings {
    let (all, batch) = (&e.all, &e.batch);
    let (json, proto) = (&e.json, &e.proto);
    let (json_gz, proto_gz, json_zst, proto_zst) =
        (&e.json_gz, &e.proto_gz, &e.json_zst, &e.proto_zst);
    // ANCHOR: timing
    // each format encodes its own structs (prost's are built once, outside)
    let encode = compare(|| to_json(all), || batch.encode_to_vec());
    let decode = compare(
        || from_json(black_box(json)),
        || from_protobuf(black_box(proto)),
    );
    let gzip_c = compare(|| gzip(json, GZIP_LEVEL), || gzip(proto, GZIP_LEVEL));
    let gzip_d = compare(|| gunzip(json_gz), || gunzip(proto_gz));
    let zstd_c = compare(
        || zstd_compress(json, ZSTD_LEVEL),
        || zstd_compress(proto, ZSTD_LEVEL),
    );
    let zstd_d = compare(|| zstd_decompress(json_zst), || zstd_decompress(proto_zst));
    // ANCHOR_END: timing
    // ANCHOR: pipelines
    // The whole sending and receiving sides, each timed as one operation.
    let send_gzip = compare(
        || gzip(&to_json(all), GZIP_LEVEL),
        || gzip(&batch.encode_to_vec(), GZIP_LEVEL),
    );
    let send_zstd = compare(
        || zstd_compress(&to_json(all), ZSTD_LEVEL),
        || zstd_compress(&batch.encode_to_vec(), ZSTD_LEVEL),
    );
    let receive_gzip = compare(
        || from_json(&gunzip(json_gz)),
        || from_protobuf(&gunzip(proto_gz)),
    );
    let receive_zstd = compare(
        || from_json(&zstd_decompress(json_zst)),
        || from_protobuf(&zstd_decompress(proto_zst)),
    );
    // ANCHOR_END: pipelines
    Timings {
        encode,
        decode,
        gzip_c,
        gzip_d,
        zstd_c,
        zstd_d,
        send_gzip,
        send_zstd,
        receive_gzip,
        receive_zstd,
    }
}

/// One form of the batch: its size and the times to produce it and to get the orders back.
#[derive(Serialize)]
struct SizeRow {
    name: &'static str,
    bytes: usize,
    per_order: f64,
    /// raw size of the same format / this size (1 for raw)
    compression: f64,
    /// raw JSON / this size
    vs_json: f64,
    /// encode (+ compress), timed as one operation
    send: Summary,
    /// (decompress +) decode, timed as one operation
    receive: Summary,
}

/// Keys of the six forms, in the order of `sizes`.
const FORMS: [&str; 6] = [
    "json",
    "json_gzip",
    "json_zstd",
    "protobuf",
    "protobuf_gzip",
    "protobuf_zstd",
];

fn size_rows(e: &Encoded, t: &Timings) -> [SizeRow; 6] {
    let (jl, pl) = (e.json.len() as f64, e.proto.len() as f64);
    let row = |name, b: &[u8], raw: f64, send: &Summary, receive: &Summary| SizeRow {
        name,
        bytes: b.len(),
        per_order: b.len() as f64 / N as f64,
        compression: raw / b.len() as f64,
        vs_json: jl / b.len() as f64,
        send: send.clone(),
        receive: receive.clone(),
    };
    [
        row("JSON", &e.json, jl, &t.encode.a, &t.decode.a),
        row(
            "JSON + gzip",
            &e.json_gz,
            jl,
            &t.send_gzip.a,
            &t.receive_gzip.a,
        ),
        row(
            "JSON + zstd",
            &e.json_zst,
            jl,
            &t.send_zstd.a,
            &t.receive_zstd.a,
        ),
        row("Protobuf", &e.proto, pl, &t.encode.b, &t.decode.b),
        row(
            "Protobuf + gzip",
            &e.proto_gz,
            pl,
            &t.send_gzip.b,
            &t.receive_gzip.b,
        ),
        row(
            "Protobuf + zstd",
            &e.proto_zst,
            pl,
            &t.send_zstd.b,
            &t.receive_zstd.b,
        ),
    ]
}

/// Sizes, and what compression keeps of Protobuf's advantage, all declared from the sizes.
fn record_sizes(results: &mut Results, sizes: &[SizeRow; 6]) {
    for (key, r) in FORMS.iter().zip(sizes) {
        results.set(&format!("size.{key}"), r.bytes);
        results.set(&format!("per_order.{key}"), r.per_order);
    }
    results.set("sizes", sizes);
    for key in FORMS {
        let raw = if key.starts_with("json") {
            "json"
        } else {
            "protobuf"
        };
        let (of, to) = (format!("size.{raw}"), format!("size.{key}"));
        results.ratio(&format!("compression.{key}"), &of, &to);
        results.ratio(&format!("vs_json.{key}"), "size.json", &to);
    }
    results.ratio("ratio.raw", "size.json", "size.protobuf");
    results.ratio("ratio.gzip", "size.json_gzip", "size.protobuf_gzip");
    results.ratio("ratio.zstd", "size.json_zstd", "size.protobuf_zstd");
    results.ratio(
        "ratio.protobuf_raw_vs_json_gzip",
        "size.protobuf",
        "size.json_gzip",
    );
    // How much larger JSON is: (json − protobuf) / protobuf, raw and compressed.
    for (key, json, proto) in [
        ("raw", "size.json", "size.protobuf"),
        ("gzip", "size.json_gzip", "size.protobuf_gzip"),
        ("zstd", "size.json_zstd", "size.protobuf_zstd"),
    ] {
        let saved = format!("bytes_saved.{key}");
        results.difference(&saved, json, proto);
        results.share(&format!("advantage.{key}"), &saved, proto);
    }
    // What compression keeps of raw Protobuf's advantage.
    results.share("advantage.gzip_kept", "advantage.gzip", "advantage.raw");
    results.share("advantage.zstd_kept", "advantage.zstd", "advantage.raw");
}

/// The timings, and the ratios the article reads off them, declared from their sides.
fn record_times(results: &mut Results, t: &Timings) {
    for (key, c) in [
        ("encode", &t.encode),
        ("decode", &t.decode),
        ("gzip.compress", &t.gzip_c),
        ("gzip.decompress", &t.gzip_d),
        ("zstd.compress", &t.zstd_c),
        ("zstd.decompress", &t.zstd_d),
        ("send.gzip", &t.send_gzip),
        ("send.zstd", &t.send_zstd),
        ("receive.gzip", &t.receive_gzip),
        ("receive.zstd", &t.receive_zstd),
    ] {
        results.set(key, c);
    }
    let row = |codec, c: &Comparison, d: &Comparison| TimeRow {
        codec,
        json_compress: c.a.clone(),
        protobuf_compress: c.b.clone(),
        json_decompress: d.a.clone(),
        protobuf_decompress: d.b.clone(),
    };
    results.set(
        "times",
        [
            row("gzip", &t.gzip_c, &t.gzip_d),
            row("zstd", &t.zstd_c, &t.zstd_d),
        ],
    );
    // gzip and zstd were measured separately, not interleaved: rougher ratios.
    results.ratio(
        "speed.gzip_vs_zstd_compress_json",
        "gzip.compress.a",
        "zstd.compress.a",
    );
    results.ratio(
        "speed.gzip_vs_zstd_decompress_json",
        "gzip.decompress.a",
        "zstd.decompress.a",
    );
    // gzip's share of the JSON sender's whole pipeline (two separate measurements).
    results.share(
        "speed.gzip_share_of_json_send",
        "gzip.compress.a",
        "send.gzip.a",
    );
}

/// The article's table of compress and decompress times by algorithm.
#[derive(Serialize)]
struct TimeRow {
    codec: &'static str,
    json_compress: Summary,
    protobuf_compress: Summary,
    json_decompress: Summary,
    protobuf_decompress: Summary,
}

#[derive(Serialize)]
struct SweepRow {
    batch: usize,
    json: f64,
    json_gzip: f64,
    json_zstd: f64,
    protobuf: f64,
    protobuf_gzip: f64,
    protobuf_zstd: f64,
}

/// Bytes per order when the orders are sent in batches of `batch`, each
/// batch encoded and compressed on its own.
fn sweep_row(all: &[Order], batch: usize) -> SweepRow {
    let mut s = [0usize; 6];
    for chunk in all.chunks(batch) {
        let (j, p) = (to_json(chunk), to_protobuf(chunk));
        let sizes = [
            j.len(),
            gzip(&j, GZIP_LEVEL).len(),
            zstd_compress(&j, ZSTD_LEVEL).len(),
            p.len(),
            gzip(&p, GZIP_LEVEL).len(),
            zstd_compress(&p, ZSTD_LEVEL).len(),
        ];
        for (acc, x) in s.iter_mut().zip(sizes) {
            *acc += x;
        }
    }
    let per = |x: usize| x as f64 / all.len() as f64;
    SweepRow {
        batch,
        json: per(s[0]),
        json_gzip: per(s[1]),
        json_zstd: per(s[2]),
        protobuf: per(s[3]),
        protobuf_gzip: per(s[4]),
        protobuf_zstd: per(s[5]),
    }
}

/// Batch sizes: what one order (or a few) costs when compressed alone.
fn record_sweep(results: &mut Results, all: &[Order]) {
    let sweep: Vec<SweepRow> = BATCHES.iter().map(|&b| sweep_row(all, b)).collect();
    results.set("sweep", &sweep);
    // The same rows by batch size, for the output table (whose cells name keys, not indices).
    for r in &sweep {
        results.set(&format!("by_batch.{}", r.batch), r);
    }
    for key in FORMS {
        results.set(&format!("one.{key}"), sweep[0].json_field(key));
    }
    results.ratio("one.compression_json_gzip", "one.json", "one.json_gzip");
    results.ratio(
        "one.compression_protobuf_gzip",
        "one.protobuf",
        "one.protobuf_gzip",
    );
    // gzip's fixed cost: 10-byte header + 8-byte trailer around the deflate stream
    results.set("one.gzip_empty", gzip(b"", GZIP_LEVEL).len());
    results.set("one.zstd_empty", zstd_compress(b"", ZSTD_LEVEL).len());
}

impl SweepRow {
    fn json_field(&self, key: &str) -> f64 {
        match key {
            "json" => self.json,
            "json_gzip" => self.json_gzip,
            "json_zstd" => self.json_zstd,
            "protobuf" => self.protobuf,
            "protobuf_gzip" => self.protobuf_gzip,
            _ => self.protobuf_zstd,
        }
    }
}

#[derive(Serialize)]
struct LevelRow {
    codec: String,
    json: usize,
    protobuf: usize,
    /// json / protobuf at this level (exact: two sizes)
    ratio: f64,
    /// calls timed for each format in this run
    calls: usize,
    json_compress: Summary,
    protobuf_compress: Summary,
}

/// Compresses both encodings at `level` with `f`: the sizes, then the same number of calls
/// timed one by one for each format, as many as fit a small budget (at least `MIN_CALLS`).
fn level_row(codec: String, e: &Encoded, f: &dyn Fn(&[u8]) -> Vec<u8>) -> LevelRow {
    let t0 = std::time::Instant::now();
    let json = f(&e.json).len();
    let first = t0.elapsed().as_nanos() as f64;
    let protobuf = f(&e.proto).len();
    let budget = harness::pick(0.3e9, 0.05e9);
    let (min, max) = harness::pick((MIN_CALLS, 15.0), (3.0, 5.0));
    let calls = (budget / first).clamp(min, max) as usize;
    let cfg = harness::Config::default().warmup_events(0);
    LevelRow {
        codec,
        json,
        protobuf,
        ratio: json as f64 / protobuf as f64,
        calls,
        json_compress: harness::time_each_with(cfg.clone(), calls, || f(&e.json).len()),
        protobuf_compress: harness::time_each_with(cfg, calls, || f(&e.proto).len()),
    }
}

/// Levels: does squeezing harder change the ranking?
fn record_levels(results: &mut Results, e: &Encoded) {
    let mut levels = Vec::new();
    for l in GZIP_LEVELS {
        levels.push(level_row(format!("gzip -{l}"), e, &|d| gzip(d, l)));
    }
    for l in ZSTD_LEVELS {
        levels.push(level_row(format!("zstd -{l}"), e, &|d| zstd_compress(d, l)));
    }
    let best = levels.iter().map(|r| r.json).min().unwrap();
    results.set("levels", &levels);
    // The same rows by name, for the output table.
    for r in &levels {
        results.set(&format!("level.{}", r.codec.replace([' ', '-'], "")), r);
    }
    results.set("levels_best_json", best);
    results.ratio(
        "levels_best_json_vs_protobuf_raw",
        "size.protobuf",
        "levels_best_json",
    );
}

fn main() {
    let mut results = Results::new();
    let e = encoded(orders::orders(9, N));
    results.input("n", N);
    results.input("gzip_level", GZIP_LEVEL);
    results.input("zstd_level", ZSTD_LEVEL);
    results.set("zstd_version", zstd::zstd_safe::version_string());
    let t = timings(&e);
    record_sizes(&mut results, &size_rows(&e, &t));
    record_times(&mut results, &t);
    record_sweep(&mut results, &e.all);
    record_levels(&mut results, &e);
    println!(
        "{N} orders; gzip = flate2 (miniz_oxide) level {GZIP_LEVEL}; zstd = libzstd {} level {ZSTD_LEVEL}\n",
        zstd::zstd_safe::version_string()
    );
    let levels: Vec<String> = GZIP_LEVELS
        .iter()
        .map(|l| format!("gzip{l}"))
        .chain(ZSTD_LEVELS.iter().map(|l| format!("zstd{l}")))
        .collect();
    tables::declare(&mut results, &BATCHES, &levels);
    results.write();
}

//! Compression changes the ranking: the same orders as JSON and as Protobuf,
//! raw, gzip (flate2 with its default miniz_oxide backend) and zstd (libzstd);
//! sizes, compression ratios, compress/decompress times measured interleaved,
//! and bytes per order as the batch shrinks down to a single order.

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use harness::fmt::{Table, bytes, duration};
use harness::{Comparison, Ratio, Results, black_box, compare};
use orders::{Order, pb};
use prost::Message;
use serde::Serialize;
use std::io::{Read, Write};

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

#[derive(Serialize)]
struct SizeRow {
    name: &'static str,
    bytes: usize,
    per_order: f64,
    /// raw size of the same format / this size (1 for raw)
    compression: f64,
    /// raw JSON / this size
    vs_json: f64,
    /// time to produce these bytes from the orders: encode (+ compress), ns
    send: f64,
    /// time to get the orders back: (decompress +) decode, ns
    receive: f64,
}

#[derive(Serialize)]
struct TimeRow {
    codec: &'static str,
    json_compress: harness::Summary,
    protobuf_compress: harness::Summary,
    json_decompress: harness::Summary,
    protobuf_decompress: harness::Summary,
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

#[derive(Serialize)]
struct LevelRow {
    codec: String,
    json: usize,
    protobuf: usize,
    /// json / protobuf at this level
    ratio: f64,
    json_compress: f64,
    protobuf_compress: f64,
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

fn main() {
    let mut results = Results::new();
    // ANCHOR: inputs
    let all: Vec<Order> = orders::orders(9, N);
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
    assert_eq!(serde_json::from_slice::<Vec<Order>>(&json).unwrap(), all);
    let back = OrderBatch::decode(proto.as_slice()).unwrap();
    let back: Vec<Order> = back
        .orders
        .into_iter()
        .map(|o| Order::try_from(o).unwrap())
        .collect();
    assert_eq!(back, all);

    // ANCHOR: timing
    // each format encodes its own structs (prost's are built once, outside)
    let batch = OrderBatch {
        orders: all.iter().map(pb::Order::from).collect(),
    };
    let encode = compare(|| to_json(&all), || batch.encode_to_vec());
    let decode = compare(
        || serde_json::from_slice::<Vec<Order>>(black_box(&json)).unwrap(),
        || OrderBatch::decode(black_box(proto.as_slice())).unwrap(),
    );
    let gzip_c = compare(|| gzip(&json, GZIP_LEVEL), || gzip(&proto, GZIP_LEVEL));
    let gzip_d = compare(|| gunzip(&json_gz), || gunzip(&proto_gz));
    let zstd_c = compare(
        || zstd_compress(&json, ZSTD_LEVEL),
        || zstd_compress(&proto, ZSTD_LEVEL),
    );
    let zstd_d = compare(
        || zstd_decompress(&json_zst),
        || zstd_decompress(&proto_zst),
    );
    // ANCHOR_END: timing

    let jl = json.len() as f64;
    let pl = proto.len() as f64;
    let row = |name, b: &[u8], raw: f64, send: f64, receive: f64| SizeRow {
        name,
        bytes: b.len(),
        per_order: b.len() as f64 / N as f64,
        compression: raw / b.len() as f64,
        vs_json: jl / b.len() as f64,
        send,
        receive,
    };
    let sizes = [
        row("JSON", &json, jl, encode.a.median, decode.a.median),
        row(
            "JSON + gzip",
            &json_gz,
            jl,
            encode.a.median + gzip_c.a.median,
            gzip_d.a.median + decode.a.median,
        ),
        row(
            "JSON + zstd",
            &json_zst,
            jl,
            encode.a.median + zstd_c.a.median,
            zstd_d.a.median + decode.a.median,
        ),
        row("Protobuf", &proto, pl, encode.b.median, decode.b.median),
        row(
            "Protobuf + gzip",
            &proto_gz,
            pl,
            encode.b.median + gzip_c.b.median,
            gzip_d.b.median + decode.b.median,
        ),
        row(
            "Protobuf + zstd",
            &proto_zst,
            pl,
            encode.b.median + zstd_c.b.median,
            zstd_d.b.median + decode.b.median,
        ),
    ];
    for (key, r) in [
        "json",
        "json_gzip",
        "json_zstd",
        "protobuf",
        "protobuf_gzip",
        "protobuf_zstd",
    ]
    .iter()
    .zip(&sizes)
    {
        results.set(&format!("size.{key}"), r.bytes);
        results.set(&format!("per_order.{key}"), r.per_order);
        results.set(&format!("compression.{key}"), r.compression);
        results.set(&format!("send.{key}"), r.send);
        results.set(&format!("receive.{key}"), r.receive);
    }
    let exact = |a: usize, b: usize| Ratio::exact(a as f64, b as f64);
    results.set("ratio.raw", exact(json.len(), proto.len()));
    results.set("ratio.gzip", exact(json_gz.len(), proto_gz.len()));
    results.set("ratio.zstd", exact(json_zst.len(), proto_zst.len()));
    results.set(
        "ratio.protobuf_raw_vs_json_gzip",
        exact(proto.len(), json_gz.len()),
    );
    results.set(
        "ratio.protobuf_raw_vs_json_zstd",
        exact(proto.len(), json_zst.len()),
    );
    // how much of raw protobuf's advantage survives: (ratio.gzip - 1) / (ratio.raw - 1)
    let adv_raw = json.len() as f64 / proto.len() as f64 - 1.0;
    let adv_gz = json_gz.len() as f64 / proto_gz.len() as f64 - 1.0;
    let adv_zst = json_zst.len() as f64 / proto_zst.len() as f64 - 1.0;
    results.set("advantage.raw", adv_raw);
    results.set("advantage.gzip", adv_gz);
    results.set("advantage.zstd", adv_zst);
    results.set("advantage.gzip_kept", adv_gz / adv_raw);
    results.set("advantage.zstd_kept", adv_zst / adv_raw);
    results.set("bytes_saved.raw", json.len() - proto.len());
    results.set(
        "bytes_saved.gzip",
        json_gz.len() as i64 - proto_gz.len() as i64,
    );
    results.set(
        "bytes_saved.zstd",
        json_zst.len() as i64 - proto_zst.len() as i64,
    );
    results.set("sizes", &sizes);

    for (key, c) in [
        ("encode", &encode),
        ("decode", &decode),
        ("gzip.compress", &gzip_c),
        ("gzip.decompress", &gzip_d),
        ("zstd.compress", &zstd_c),
        ("zstd.decompress", &zstd_d),
    ] {
        results.set(key, c);
    }
    let time_row = |codec, c: &Comparison, d: &Comparison| TimeRow {
        codec,
        json_compress: c.a.clone(),
        protobuf_compress: c.b.clone(),
        json_decompress: d.a.clone(),
        protobuf_decompress: d.b.clone(),
    };
    results.set(
        "times",
        [
            time_row("gzip", &gzip_c, &gzip_d),
            time_row("zstd", &zstd_c, &zstd_d),
        ],
    );
    // compression speed in MB/s of input (1 MB = 1e6 B)
    results.set("speed.gzip_json_mb_s", jl * 1e3 / gzip_c.a.median);
    results.set("speed.gzip_protobuf_mb_s", pl * 1e3 / gzip_c.b.median);
    results.set("speed.zstd_json_mb_s", jl * 1e3 / zstd_c.a.median);
    results.set("speed.zstd_protobuf_mb_s", pl * 1e3 / zstd_c.b.median);
    results.set(
        "speed.gzip_vs_zstd_compress_json",
        gzip_c.a.median / zstd_c.a.median,
    );
    results.set(
        "speed.gzip_vs_zstd_compress_protobuf",
        gzip_c.b.median / zstd_c.b.median,
    );
    results.set(
        "speed.gzip_vs_zstd_decompress_json",
        gzip_d.a.median / zstd_d.a.median,
    );
    results.set(
        "speed.gzip_vs_zstd_decompress_protobuf",
        gzip_d.b.median / zstd_d.b.median,
    );
    // gzip's share of the JSON sender's time
    results.set(
        "speed.gzip_share_of_json_send",
        gzip_c.a.median / (encode.a.median + gzip_c.a.median),
    );

    // Batch sizes: what one order (or a few) costs when compressed alone.
    let sweep: Vec<SweepRow> = BATCHES.iter().map(|&b| sweep_row(&all, b)).collect();
    let one = &sweep[0];
    results.set("one.json", one.json);
    results.set("one.json_gzip", one.json_gzip);
    results.set("one.json_zstd", one.json_zstd);
    results.set("one.protobuf", one.protobuf);
    results.set("one.protobuf_gzip", one.protobuf_gzip);
    results.set("one.protobuf_zstd", one.protobuf_zstd);
    results.set("one.compression_json_gzip", one.json / one.json_gzip);
    results.set(
        "one.compression_protobuf_gzip",
        one.protobuf / one.protobuf_gzip,
    );
    results.set("one.compression_json_zstd", one.json / one.json_zstd);
    results.set(
        "one.compression_protobuf_zstd",
        one.protobuf / one.protobuf_zstd,
    );
    results.set("one.ratio_raw", one.json / one.protobuf);
    results.set("one.ratio_gzip", one.json_gzip / one.protobuf_gzip);
    results.set(
        "one.protobuf_raw_vs_json_gzip",
        one.protobuf / one.json_gzip,
    );
    // gzip's fixed cost: 10-byte header + 8-byte trailer around the deflate stream
    results.set("one.gzip_empty", gzip(b"", GZIP_LEVEL).len());
    results.set("one.zstd_empty", zstd_compress(b"", ZSTD_LEVEL).len());
    results.set("sweep", &sweep);

    // Levels: does squeezing harder change the ranking?
    // One untimed call gives the size and a first estimate of the time; then
    // as many timed calls as fit a small budget (at least one, at most 7).
    let budget = harness::pick(0.6e9, 0.15e9);
    let timed = |f: &dyn Fn() -> Vec<u8>| {
        let t0 = std::time::Instant::now();
        let len = f().len();
        let first = t0.elapsed().as_nanos() as f64;
        let reps = (budget / first).clamp(1.0, 7.0) as usize;
        let cfg = harness::Config::default().warmup_events(0);
        (len, harness::time_each_with(cfg, reps, || f().len()).median)
    };
    let mut levels = Vec::new();
    let mut level_row = |codec: String, j: (usize, f64), p: (usize, f64)| {
        levels.push(LevelRow {
            codec,
            json: j.0,
            protobuf: p.0,
            ratio: j.0 as f64 / p.0 as f64,
            json_compress: j.1,
            protobuf_compress: p.1,
        })
    };
    for l in GZIP_LEVELS {
        let j = timed(&|| gzip(&json, l));
        let p = timed(&|| gzip(&proto, l));
        level_row(format!("gzip -{l}"), j, p);
    }
    for l in ZSTD_LEVELS {
        let j = timed(&|| zstd_compress(&json, l));
        let p = timed(&|| zstd_compress(&proto, l));
        level_row(format!("zstd -{l}"), j, p);
    }
    let best = levels.iter().min_by_key(|r| r.json).unwrap();
    results.set("levels_best_json", best.json);
    results.set(
        "levels_best_json_vs_protobuf_raw",
        proto.len() as f64 / best.json as f64,
    );
    results.set("levels", &levels);

    results.set("n", N);
    results.set("gzip_level", GZIP_LEVEL);
    results.set("zstd_level", ZSTD_LEVEL);
    results.set("zstd_version", zstd::zstd_safe::version_string());

    // ---- report ----
    println!(
        "{N} orders; gzip = flate2 (miniz_oxide) level {GZIP_LEVEL}; zstd = libzstd {} level {ZSTD_LEVEL}\n",
        zstd::zstd_safe::version_string()
    );
    let mut t = Table::new([
        "format",
        "size",
        "per order",
        "compression",
        "vs raw JSON",
        "encode+compress",
        "decompress+decode",
    ]);
    for r in &sizes {
        t.row([
            r.name.to_string(),
            bytes(r.bytes as f64),
            bytes(r.per_order),
            format!("{:.2}x", r.compression),
            format!("{:.2}x", r.vs_json),
            duration(r.send),
            duration(r.receive),
        ]);
    }
    print!("{t}");
    println!(
        "\nJSON/Protobuf: raw {:.2}x, gzip {:.2}x, zstd {:.2}x\n",
        jl / pl,
        json_gz.len() as f64 / proto_gz.len() as f64,
        json_zst.len() as f64 / proto_zst.len() as f64
    );

    let mut t = Table::new(["median", "JSON", "Protobuf", "JSON / Protobuf"]);
    for (name, c) in [
        ("encode", &encode),
        ("decode", &decode),
        ("gzip compress", &gzip_c),
        ("gzip decompress", &gzip_d),
        ("zstd compress", &zstd_c),
        ("zstd decompress", &zstd_d),
    ] {
        t.row([
            name.to_string(),
            duration(c.a.median),
            duration(c.b.median),
            format!("{:.2}x", c.ratio.value),
        ]);
    }
    print!("{t}");

    let mut t = Table::new([
        "bytes/order, batch of",
        "JSON",
        "+gzip",
        "+zstd",
        "Protobuf",
        "+gzip",
        "+zstd",
    ]);
    for r in &sweep {
        t.row([
            r.batch.to_string(),
            format!("{:.0}", r.json),
            format!("{:.0}", r.json_gzip),
            format!("{:.0}", r.json_zstd),
            format!("{:.0}", r.protobuf),
            format!("{:.0}", r.protobuf_gzip),
            format!("{:.0}", r.protobuf_zstd),
        ]);
    }
    println!();
    print!("{t}");

    let mut t = Table::new([
        "level",
        "JSON",
        "Protobuf",
        "JSON / Protobuf",
        "time JSON",
        "time Protobuf",
    ]);
    for r in &levels {
        t.row([
            r.codec.clone(),
            bytes(r.json as f64),
            bytes(r.protobuf as f64),
            format!("{:.2}x", r.ratio),
            duration(r.json_compress),
            duration(r.protobuf_compress),
        ]);
    }
    println!();
    print!("{t}");

    results.write();
}

//! Varint and ZigZag: how many bytes a plain varint (protobuf `int64`) and a
//! ZigZag varint (`sint64`) take for a sweep of values, checked byte for byte
//! against prost, and the time prost takes to encode and decode a batch of
//! numbers either way: small signed numbers, small non-negative ones, and a
//! control batch where both ways write the same number of bytes per value.

use harness::declare::{Label, Table, text, value, value_as};
use harness::rand::RngExt;
use harness::{Results, black_box, compare};
use prost::Message;
use serde::Serialize;

// ANCHOR: varint
/// Base-128 varint (LEB128): 7 bits of payload per byte, low bits first;
/// the high bit of a byte says "another byte follows".
fn encode_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}
// ANCHOR_END: varint

// ANCHOR: plain
/// Protobuf `int64`: the two's-complement bits of the number, as they are.
/// -1 is 0xFFFF_FFFF_FFFF_FFFF: 64 significant bits, so 10 varint bytes.
fn plain(n: i64) -> u64 {
    n as u64
}
// ANCHOR_END: plain

// ANCHOR: zigzag
/// Protobuf `sint64`: ZigZag maps 0, -1, 1, -2, 2, ... to 0, 1, 2, 3, 4, ...
/// `n << 1` makes room for the sign in bit 0; `n >> 63` is an arithmetic
/// shift, all ones for a negative `n` and all zeros otherwise, so the XOR
/// flips every bit of negative numbers (small magnitude, few significant bits).
fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// The inverse: bit 0 is the sign; the other bits hold n for n >= 0 and
/// |n| - 1 for n < 0 (the flipped bits), which the XOR with all ones flips back.
fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}
// ANCHOR_END: zigzag

/// Our own bytes for `n` both ways, checked against prost's `int64` and
/// `sint64` field encoders (field 1, so the key is the single byte 0x08).
fn encode_both(n: i64) -> (Vec<u8>, Vec<u8>) {
    let mut p = Vec::new();
    let mut z = Vec::new();
    encode_varint(plain(n), &mut p);
    encode_varint(zigzag(n), &mut z);
    for (ours, enc) in [
        (
            &p,
            prost::encoding::int64::encode as fn(u32, &i64, &mut Vec<u8>),
        ),
        (&z, prost::encoding::sint64::encode),
    ] {
        let mut field = Vec::new();
        enc(1, &n, &mut field);
        assert_eq!(field[0], 0x08, "key of field 1, wire type varint");
        assert_eq!(
            &field[1..],
            ours.as_slice(),
            "our varint differs from prost's for {n}"
        );
    }
    assert_eq!(unzigzag(zigzag(n)), n);
    let mut buf = z.as_slice();
    assert_eq!(prost::encoding::decode_varint(&mut buf).unwrap(), zigzag(n));
    (p, z)
}

/// Bytes of a protobuf `sfixed64` value (the field minus its one-byte key).
fn fixed_len(n: i64) -> usize {
    let mut f = Vec::new();
    prost::encoding::sfixed64::encode(1, &n, &mut f);
    f.len() - 1
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Serialize)]
struct SweepRow {
    /// The sweep point: values +2^k and -2^k.
    k: u32,
    pos: i64,
    neg: i64,
    plain_pos: usize,
    zigzag_pos: usize,
    plain_neg: usize,
    zigzag_neg: usize,
    /// `sfixed64`: always the same width, whatever the value.
    fixed: usize,
}

/// `n` with its thousands grouped by `sep` and a real minus sign: the way each
/// of the blog's languages writes it (`−1.000`, `−1,000`).
fn grouped(n: i64, sep: char) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    if n < 0 { format!("−{out}") } else { out }
}

#[derive(Serialize)]
struct ValueRow {
    /// The value as each language writes it, or its name (`i32::MAX`).
    label_vi: String,
    label_en: String,
    value: i64,
    plain: usize,
    zigzag: usize,
    /// The unsigned number ZigZag turns the value into.
    zigzag_value: u64,
    plain_hex: String,
    zigzag_hex: String,
}

// ANCHOR: schema
/// The same list of numbers declared two ways, as in a `.proto` file:
/// `repeated int64 values = 1;` and `repeated sint64 values = 1;`
/// (proto3 packs repeated scalars: one key, one length, then the varints).
#[derive(Clone, PartialEq, prost::Message)]
struct Int64Series {
    #[prost(int64, repeated, tag = "1")]
    values: Vec<i64>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Sint64Series {
    #[prost(sint64, repeated, tag = "1")]
    values: Vec<i64>,
}
// ANCHOR_END: schema

const BATCH: usize = 10_000;
const RANGE: i64 = 500;
const SWEEP_MAX_K: u32 = 62;

/// The batches: small signed deltas in [-RANGE, RANGE] (price changes,
/// coordinate offsets); small non-negative counts in [0, 2·RANGE]; and, as a
/// control, values in [128, 2·RANGE], two varint bytes each both ways.
const BATCHES: [(&str, u64, i64, i64); 3] = [
    ("mixed", 8, -RANGE, RANGE),
    ("positive", 9, 0, 2 * RANGE),
    ("two_byte", 10, 128, 2 * RANGE),
];

fn batch(seed: u64, lo: i64, hi: i64) -> Vec<i64> {
    let mut rng = harness::rng(seed);
    (0..BATCH).map(|_| rng.random_range(lo..=hi)).collect()
}

/// The symmetric sweep: +2^k and -2^k for every k.
fn sweep() -> Vec<SweepRow> {
    (0..=SWEEP_MAX_K)
        .map(|k| {
            let pos = 1i64 << k;
            let (pp, zp) = encode_both(pos);
            let (pn, zn) = encode_both(-pos);
            SweepRow {
                k,
                pos,
                neg: -pos,
                plain_pos: pp.len(),
                zigzag_pos: zp.len(),
                plain_neg: pn.len(),
                zigzag_neg: zn.len(),
                fixed: fixed_len(pos),
            }
        })
        .collect()
}

/// Values worth looking at one by one.
fn named(r: &mut Results) -> Vec<ValueRow> {
    let named: [(&str, Option<&str>, i64); 14] = [
        ("zero", None, 0),
        ("one", None, 1),
        ("minus_one", None, -1),
        ("plus_63", None, 63),
        ("minus_64", None, -64),
        ("plus_64", None, 64),
        ("minus_65", None, -65),
        ("plus_127", None, 127),
        ("plus_1000", None, 1000),
        ("minus_1000", None, -1000),
        ("i32_max", Some("i32::MAX"), i64::from(i32::MAX)),
        ("i32_min", Some("i32::MIN"), i64::from(i32::MIN)),
        ("i64_max", Some("i64::MAX"), i64::MAX),
        ("i64_min", Some("i64::MIN"), i64::MIN),
    ];
    let mut rows = Vec::new();
    for (key, label, v) in named {
        let (p, z) = encode_both(v);
        r.set(&format!("named.{key}.plain"), p.len());
        r.set(&format!("named.{key}.zigzag"), z.len());
        r.set(&format!("named.{key}.zigzag_value"), zigzag(v));
        let label = |sep| label.map_or_else(|| grouped(v, sep), str::to_string);
        rows.push(ValueRow {
            label_vi: label('.'),
            label_en: label(','),
            value: v,
            plain: p.len(),
            zigzag: z.len(),
            zigzag_value: zigzag(v),
            plain_hex: hex(&p),
            zigzag_hex: hex(&z),
        });
    }
    rows
}

/// The sweep's and the single values' sizes, and `int32`/`sint32` for -1.
fn sizes(r: &mut Results) {
    let sweep = sweep();
    let rows = named(r);
    let max_bytes = sweep.iter().map(|s| s.plain_neg).max().unwrap();
    let all_neg_max = sweep.iter().all(|s| s.plain_neg == max_bytes);
    assert!(all_neg_max, "every negative int64 takes the maximum");
    // int32 fields sign-extend to 64 bits too; sint32 ZigZags in 32 bits.
    let mut f = Vec::new();
    prost::encoding::int32::encode(1, &-1, &mut f);
    r.set("int32_minus_one", f.len() - 1);
    f.clear();
    prost::encoding::sint32::encode(1, &-1, &mut f);
    r.set("sint32_minus_one", f.len() - 1);
    r.set("max_bytes", max_bytes);
    // The shortest plain varint of a negative value in the sweep (max_bytes when all are).
    let neg_min = sweep.iter().map(|s| s.plain_neg).min().unwrap();
    r.set("sweep_neg_min_bytes", neg_min);
    r.set("fixed_bytes", fixed_len(-1));
    let first_over_fixed = sweep.iter().find(|s| s.plain_pos > s.fixed).unwrap();
    r.set("first_k_over_fixed", first_over_fixed.k);
    r.input("sweep_max_k", SWEEP_MAX_K);
    r.set("sweep", &sweep);
    r.set("values", &rows);
}

/// Sizes and interleaved encode/decode timings of one batch, both ways.
fn measure_batch(r: &mut Results, key: &str, values: &[i64]) {
    let p = Int64Series {
        values: values.to_vec(),
    };
    let z = Sint64Series {
        values: values.to_vec(),
    };
    let pb = p.encode_to_vec();
    let zb = z.encode_to_vec();
    assert_eq!(Int64Series::decode(pb.as_slice()).unwrap(), p);
    assert_eq!(Sint64Series::decode(zb.as_slice()).unwrap(), z);
    // packed: the message is the key, the length, then exactly our varints
    let lens: Vec<(usize, usize)> = values
        .iter()
        .map(|&v| encode_both(v))
        .map(|(a, b)| (a.len(), b.len()))
        .collect();
    let ours_p: usize = lens.iter().map(|l| l.0).sum();
    let ours_z: usize = lens.iter().map(|l| l.1).sum();
    let frame = |n: usize| 1 + prost::encoding::encoded_len_varint(n as u64);
    assert_eq!(pb.len() - ours_p, frame(ours_p));
    assert_eq!(zb.len() - ours_z, frame(ours_z));

    // ANCHOR: timing
    let (mut bp, mut bz) = (Vec::with_capacity(pb.len()), Vec::with_capacity(zb.len()));
    let encode = compare(
        || {
            bp.clear();
            p.encode(&mut bp).unwrap();
            bp.len()
        },
        || {
            bz.clear();
            z.encode(&mut bz).unwrap();
            bz.len()
        },
    );
    let decode = compare(
        || Int64Series::decode(black_box(pb.as_slice())).unwrap(),
        || Sint64Series::decode(black_box(zb.as_slice())).unwrap(),
    );
    // ANCHOR_END: timing

    let k = |name: &str| format!("{key}.{name}");
    r.set(&k("negatives"), values.iter().filter(|&&v| v < 0).count());
    r.share(&k("negative_share"), &k("negatives"), "batch.n");
    r.set(&k("plain_bytes"), pb.len());
    r.set(&k("zigzag_bytes"), zb.len());
    r.ratio(&k("plain_per_value"), &k("plain_bytes"), "batch.n");
    r.ratio(&k("zigzag_per_value"), &k("zigzag_bytes"), "batch.n");
    r.ratio(&k("size_ratio"), &k("plain_bytes"), &k("zigzag_bytes"));
    // Values whose varint is a single byte, each way.
    r.set(
        &k("one_byte.plain"),
        lens.iter().filter(|l| l.0 == 1).count(),
    );
    r.set(
        &k("one_byte.zigzag"),
        lens.iter().filter(|l| l.1 == 1).count(),
    );
    r.share(&k("one_byte.plain_share"), &k("one_byte.plain"), "batch.n");
    r.share(
        &k("one_byte.zigzag_share"),
        &k("one_byte.zigzag"),
        "batch.n",
    );
    r.set(&k("encode"), &encode);
    r.set(&k("decode"), &decode);
    for (op, side, a) in [
        ("encode", "plain", "a"),
        ("encode", "zigzag", "b"),
        ("decode", "plain", "a"),
        ("decode", "zigzag", "b"),
    ] {
        let per = k(&format!("{op}_per_value.{side}"));
        r.ratio(&per, &k(&format!("{op}.{a}")), "batch.n");
    }
}

/// The batches' sizes and times, in both languages.
fn declare_output(r: &mut Results) {
    let mut sizes = Table::new([
        Label::new("giá trị", "values"),
        Label::new("int64, byte", "int64, bytes"),
        Label::new("sint64, byte", "sint64, bytes"),
        Label::same("int64 / sint64"),
        Label::new("int64, số 1 byte", "int64, 1-byte values"),
        Label::new("sint64, số 1 byte", "sint64, 1-byte values"),
    ])
    .titled(Label::new("Kích thước mỗi lô", "Size of each batch"));
    let mut times = Table::new([
        Label::new("giá trị", "values"),
        Label::new("mã hóa int64", "encode int64"),
        Label::new("mã hóa sint64", "encode sint64"),
        Label::same("int64 / sint64"),
        Label::new("giải mã int64", "decode int64"),
        Label::new("giải mã sint64", "decode sint64"),
        Label::same("int64 / sint64"),
    ])
    .titled(Label::new(
        "prost mã hóa và giải mã mỗi lô, trung vị",
        "prost encoding and decoding each batch, median",
    ));
    for (key, _, lo, hi) in BATCHES {
        let k = |name: &str| format!("batch.{key}.{name}");
        let vi = format!("từ {} đến {}", grouped(lo, '.'), grouped(hi, '.'));
        let en = format!("{} to {}", grouped(lo, ','), grouped(hi, ','));
        sizes.row([
            text(vi.clone(), en.clone()),
            value_as(k("plain_bytes"), "bytes"),
            value_as(k("zigzag_bytes"), "bytes"),
            value(k("size_ratio")),
            value(k("one_byte.plain_share")),
            value(k("one_byte.zigzag_share")),
        ]);
        times.row([
            text(vi, en),
            value(k("encode.a")),
            value(k("encode.b")),
            value(k("encode.ratio")),
            value(k("decode.a")),
            value(k("decode.b")),
            value(k("decode.ratio")),
        ]);
    }
    r.table(sizes);
    r.table(times);
}

fn main() {
    let mut results = Results::new();
    sizes(&mut results);
    results.input("batch.n", BATCH);
    results.input("batch.range", RANGE);
    results.input("batch.positive_max", 2 * RANGE);
    results.input("batch.two_byte_min", BATCHES[2].2);
    for (key, seed, lo, hi) in BATCHES {
        let values = batch(seed, lo, hi);
        measure_batch(&mut results, &format!("batch.{key}"), &values);
    }
    // What a mix of one- and two-byte varints costs: the non-negative batch
    // against the control batch, whose numbers all take two bytes.
    for (name, side) in [("decode_plain", "a"), ("decode_zigzag", "b")] {
        let (mixed, even) = (
            format!("batch.positive.decode.{side}"),
            format!("batch.two_byte.decode.{side}"),
        );
        results.ratio(&format!("mix_cost.{name}"), &mixed, &even);
    }
    // The signed batch's int64 / sint64 ratio against the control batch's, where
    // the two ways differ only by ZigZag's shift and XOR.
    for op in ["encode", "decode"] {
        let (signed, control) = (
            format!("batch.mixed.{op}.ratio"),
            format!("batch.two_byte.{op}.ratio"),
        );
        results.ratio(&format!("gap_vs_control.{op}"), &signed, &control);
    }
    declare_output(&mut results);
    results.write();
}

//! Varint and ZigZag: how many bytes a plain varint (protobuf `int64`) and a
//! ZigZag varint (`sint64`) take for a sweep of values, checked byte for byte
//! against prost, and the time prost takes to encode and decode a batch of
//! small signed numbers either way.

use harness::fmt::{Table, bytes, duration};
use harness::rand::RngExt;
use harness::{Ratio, Results, black_box, compare};
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

/// The inverse: bit 0 is the sign, the rest is the magnitude (flipped back).
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

#[derive(Serialize)]
struct ValueRow {
    label: String,
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

/// `BATCH` values: small signed deltas in [-RANGE, RANGE] (price changes,
/// coordinate offsets), or small non-negative counts in [0, 2·RANGE].
fn batch(seed: u64, signed: bool) -> Vec<i64> {
    let mut rng = harness::rng(seed);
    (0..BATCH)
        .map(|_| {
            if signed {
                rng.random_range(-RANGE..=RANGE)
            } else {
                rng.random_range(0..=2 * RANGE)
            }
        })
        .collect()
}

#[derive(Serialize)]
struct BatchRow {
    range: String,
    plain_bytes: usize,
    zigzag_bytes: usize,
    plain_encode: harness::Summary,
    zigzag_encode: harness::Summary,
    plain_decode: harness::Summary,
    zigzag_decode: harness::Summary,
}

/// Sizes and interleaved encode/decode timings of one batch, both ways.
fn measure_batch(
    results: &mut Results,
    key: &str,
    values: &[i64],
    rows: &mut Vec<BatchRow>,
) -> Vec<String> {
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
    let ours_p: usize = values.iter().map(|&v| encode_both(v).0.len()).sum();
    let ours_z: usize = values.iter().map(|&v| encode_both(v).1.len()).sum();
    assert_eq!(
        pb.len() - ours_p,
        1 + prost::encoding::encoded_len_varint(ours_p as u64)
    );
    assert_eq!(
        zb.len() - ours_z,
        1 + prost::encoding::encoded_len_varint(ours_z as u64)
    );

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

    let n = values.len() as f64;
    let negative = values.iter().filter(|&&v| v < 0).count();
    results.set(&format!("{key}.negative_share"), negative as f64 / n);
    results.set(&format!("{key}.plain_bytes"), pb.len());
    results.set(&format!("{key}.zigzag_bytes"), zb.len());
    results.set(&format!("{key}.plain_per_value"), pb.len() as f64 / n);
    results.set(&format!("{key}.zigzag_per_value"), zb.len() as f64 / n);
    results.set(
        &format!("{key}.size_ratio"),
        Ratio::exact(pb.len() as f64, zb.len() as f64),
    );
    results.set(&format!("{key}.encode"), &encode);
    results.set(&format!("{key}.decode"), &decode);
    results.set(
        &format!("{key}.encode_per_value.plain"),
        encode.a.scale(1.0 / n),
    );
    results.set(
        &format!("{key}.encode_per_value.zigzag"),
        encode.b.scale(1.0 / n),
    );
    results.set(
        &format!("{key}.decode_per_value.plain"),
        decode.a.scale(1.0 / n),
    );
    results.set(
        &format!("{key}.decode_per_value.zigzag"),
        decode.b.scale(1.0 / n),
    );
    let (lo, hi) = (values.iter().min().unwrap(), values.iter().max().unwrap());
    rows.push(BatchRow {
        range: format!("[{lo}, {hi}]"),
        plain_bytes: pb.len(),
        zigzag_bytes: zb.len(),
        plain_encode: encode.a.clone(),
        zigzag_encode: encode.b.clone(),
        plain_decode: decode.a.clone(),
        zigzag_decode: decode.b.clone(),
    });
    vec![
        bytes(pb.len() as f64),
        bytes(zb.len() as f64),
        duration(encode.a.median),
        duration(encode.b.median),
        duration(decode.a.median),
        duration(decode.b.median),
    ]
}

fn main() {
    let mut results = Results::new();

    // Symmetric sweep: +2^k and -2^k for every k.
    let mut sweep = Vec::new();
    for k in 0..=62u32 {
        let pos = 1i64 << k;
        let (pp, zp) = encode_both(pos);
        let (pn, zn) = encode_both(-pos);
        sweep.push(SweepRow {
            k,
            pos,
            neg: -pos,
            plain_pos: pp.len(),
            zigzag_pos: zp.len(),
            plain_neg: pn.len(),
            zigzag_neg: zn.len(),
            fixed: fixed_len(pos),
        });
    }

    // Values worth looking at one by one.
    let named: [(&str, &str, i64); 14] = [
        ("zero", "0", 0),
        ("one", "1", 1),
        ("minus_one", "-1", -1),
        ("plus_63", "63", 63),
        ("minus_64", "-64", -64),
        ("plus_64", "64", 64),
        ("minus_65", "-65", -65),
        ("plus_127", "127", 127),
        ("plus_1000", "1000", 1000),
        ("minus_1000", "-1000", -1000),
        ("i32_max", "i32::MAX", i64::from(i32::MAX)),
        ("i32_min", "i32::MIN", i64::from(i32::MIN)),
        ("i64_max", "i64::MAX", i64::MAX),
        ("i64_min", "i64::MIN", i64::MIN),
    ];
    let mut rows = Vec::new();
    let mut t = Table::new([
        "value",
        "int64 bytes",
        "sint64 bytes",
        "zigzag(n)",
        "int64 hex",
        "sint64 hex",
    ]);
    for (key, label, v) in named {
        let (p, z) = encode_both(v);
        results.set(&format!("named.{key}.plain"), p.len());
        results.set(&format!("named.{key}.zigzag"), z.len());
        results.set(&format!("named.{key}.zigzag_value"), zigzag(v));
        t.row([
            label.to_string(),
            p.len().to_string(),
            z.len().to_string(),
            zigzag(v).to_string(),
            hex(&p),
            hex(&z),
        ]);
        rows.push(ValueRow {
            label: label.to_string(),
            value: v,
            plain: p.len(),
            zigzag: z.len(),
            zigzag_value: zigzag(v),
            plain_hex: hex(&p),
            zigzag_hex: hex(&z),
        });
    }
    let max_bytes = sweep.iter().map(|r| r.plain_neg).max().unwrap();
    let all_neg_max = sweep.iter().all(|r| r.plain_neg == max_bytes);
    assert!(all_neg_max, "every negative int64 takes the maximum");

    // int32 fields sign-extend to 64 bits too; sint32 ZigZags in 32 bits.
    let mut f = Vec::new();
    prost::encoding::int32::encode(1, &-1, &mut f);
    let int32_minus_one = f.len() - 1;
    f.clear();
    prost::encoding::sint32::encode(1, &-1, &mut f);
    let sint32_minus_one = f.len() - 1;

    println!("Bytes per value (our encoder, checked against prost's int64/sint64)\n");
    print!("{t}");
    println!(
        "\nint32 -1: {int32_minus_one} bytes (sign-extended to 64 bits)   sint32 -1: {sint32_minus_one} byte\n"
    );

    let mut s = Table::new([
        "k",
        "+2^k int64",
        "+2^k sint64",
        "-2^k int64",
        "-2^k sint64",
    ]);
    for r in sweep
        .iter()
        .filter(|r| r.k % 7 == 6 || r.k % 7 == 0 || r.k == 62)
    {
        s.row([
            r.k.to_string(),
            r.plain_pos.to_string(),
            r.zigzag_pos.to_string(),
            r.plain_neg.to_string(),
            r.zigzag_neg.to_string(),
        ]);
    }
    println!("Sweep of ±2^k (rows where the byte count changes)\n");
    print!("{s}");

    // Batches: prost encoding/decoding a packed repeated field.
    let mut b = Table::new([
        "batch",
        "int64 size",
        "sint64 size",
        "int64 enc",
        "sint64 enc",
        "int64 dec",
        "sint64 dec",
    ]);
    let mut batch_rows = Vec::new();
    let mixed = batch(8, true);
    let cells = measure_batch(&mut results, "batch.mixed", &mixed, &mut batch_rows);
    b.row(std::iter::once(format!("{BATCH} in [-{RANGE}, {RANGE}]")).chain(cells));
    let positive = batch(9, false);
    let cells = measure_batch(&mut results, "batch.positive", &positive, &mut batch_rows);
    b.row(std::iter::once(format!("{BATCH} in [0, {}]", 2 * RANGE)).chain(cells));
    println!("\nprost, packed repeated field, median per batch\n");
    print!("{b}");

    results.set("batches", &batch_rows);
    results.set("sweep", &sweep);
    results.set("values", &rows);
    results.set("max_bytes", max_bytes);
    // The shortest plain varint of a negative value in the sweep (max_bytes when all are).
    let neg_min = sweep.iter().map(|r| r.plain_neg).min().unwrap();
    results.set("sweep_neg_min_bytes", neg_min);
    results.set("int32_minus_one", int32_minus_one);
    results.set("sint32_minus_one", sint32_minus_one);
    results.set("fixed_bytes", fixed_len(-1));
    let first_over_fixed = sweep.iter().find(|r| r.plain_pos > r.fixed).unwrap();
    results.set("first_k_over_fixed", first_over_fixed.k);
    results.set("batch.n", BATCH);
    results.set("batch.range", RANGE);
    results.set("batch.positive_max", 2 * RANGE);
    results.set("sweep_max_k", 62);
    results.write();
}

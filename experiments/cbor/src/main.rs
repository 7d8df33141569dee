//! CBOR (RFC 8949) vs MessagePack vs JSON: the same order through ciborium,
//! minicbor-serde, rmp-serde and serde_json (size, encode and decode time),
//! then CBOR's semantic tags (0, 1, 2) on real bytes, annotated item by item.

mod tags;

use ciborium::Value;
use harness::interleave::{interleaved, routine};
use harness::{Results, Summary, black_box};
use orders::Order;
use serde::Serialize;

const SEED: u64 = 7;
const CORPUS: usize = 1000;

// ANCHOR: codecs
fn cbor_encode(o: &Order) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(o, &mut out).unwrap();
    out
}

fn cbor_decode(b: &[u8]) -> Order {
    ciborium::from_reader(b).unwrap()
}

fn cbor_encode_mini(o: &Order) -> Vec<u8> {
    minicbor_serde::to_vec(o).unwrap()
}

fn cbor_decode_mini(b: &[u8]) -> Order {
    minicbor_serde::from_slice(b).unwrap()
}

fn msgpack_encode(o: &Order) -> Vec<u8> {
    rmp_serde::to_vec_named(o).unwrap() // maps with field names, like CBOR
}

fn msgpack_decode(b: &[u8]) -> Order {
    rmp_serde::from_slice(b).unwrap()
}
// ANCHOR_END: codecs

fn json_encode(o: &Order) -> Vec<u8> {
    serde_json::to_vec(o).unwrap()
}

fn json_decode(b: &[u8]) -> Order {
    serde_json::from_slice(b).unwrap()
}

/// A format and library: its key in the results, its name, and its codec.
struct Codec {
    key: &'static str,
    name: &'static str,
    encode: fn(&Order) -> Vec<u8>,
    decode: fn(&[u8]) -> Order,
}

/// In the order of the table: JSON, MessagePack, then the two CBOR libraries.
const CODECS: [Codec; 4] = [
    Codec {
        key: "json",
        name: "JSON (serde_json)",
        encode: json_encode,
        decode: json_decode,
    },
    Codec {
        key: "msgpack",
        name: "MessagePack (rmp-serde)",
        encode: msgpack_encode,
        decode: msgpack_decode,
    },
    Codec {
        key: "cbor",
        name: "CBOR (ciborium)",
        encode: cbor_encode,
        decode: cbor_decode,
    },
    Codec {
        key: "minicbor",
        name: "CBOR (minicbor-serde)",
        encode: cbor_encode_mini,
        decode: cbor_decode_mini,
    },
];

/// One row of the article's table: the sample order's size, the mean size
/// over the generated orders, and the sample's encode and decode times.
#[derive(Serialize)]
struct Row {
    name: &'static str,
    bytes: usize,
    mean: f64,
    encode: Summary,
    decode: Summary,
}

/// Every codec reads back what it wrote, and each CBOR library reads the
/// other's bytes; returns the sample order's bytes in each format.
fn check_round_trips(sample: &Order, corpus: &[Order]) -> Vec<Vec<u8>> {
    let bytes: Vec<Vec<u8>> = CODECS.iter().map(|c| (c.encode)(sample)).collect();
    for (c, b) in CODECS.iter().zip(&bytes) {
        assert_eq!(&(c.decode)(b), sample, "{} round trip", c.name);
    }
    assert_eq!(&cbor_decode(&cbor_encode_mini(sample)), sample);
    assert_eq!(&cbor_decode_mini(&cbor_encode(sample)), sample);
    for o in corpus {
        assert_eq!(&cbor_decode(&cbor_encode(o)), o);
        assert_eq!(&cbor_decode_mini(&cbor_encode_mini(o)), o);
    }
    bytes
}

/// Sizes: the sample order in each format, the mean over the corpus, the
/// ratios of those means, and whether both CBOR libraries write the same
/// bytes (for the sample, and for how many orders of the corpus).
fn sizes(r: &mut Results, sample: &Order, corpus: &[Order], bytes: &[Vec<u8>]) -> Vec<f64> {
    r.input("corpus.orders", corpus.len());
    r.set("order.items", sample.items.len());
    let mut means = Vec::new();
    for (c, b) in CODECS.iter().zip(bytes) {
        let total: usize = corpus.iter().map(|o| (c.encode)(o).len()).sum();
        let mean = total as f64 / corpus.len() as f64;
        r.set(&format!("order.{}", c.key), b.len());
        r.set(&format!("formats.{}.bytes", c.key), b.len());
        r.set(&format!("formats.{}.mean", c.key), mean);
        means.push(mean);
    }
    r.ratio(
        "corpus.json_over_cbor",
        "formats.json.mean",
        "formats.cbor.mean",
    );
    r.ratio(
        "corpus.cbor_over_msgpack",
        "formats.cbor.mean",
        "formats.msgpack.mean",
    );
    r.difference(
        "corpus.cbor_minus_msgpack",
        "formats.cbor.mean",
        "formats.msgpack.mean",
    );
    // ANCHOR: same_bytes
    let same = |o: &Order| cbor_encode(o) == cbor_encode_mini(o);
    r.set("order.same_bytes", u8::from(same(sample)));
    r.set(
        "corpus.same_bytes",
        corpus.iter().filter(|o| same(o)).count(),
    );
    // ANCHOR_END: same_bytes
    means
}

/// Replaces every text map key by a small integer, as CWT and COSE do with
/// their registered claim keys; `dict` collects the distinct keys.
fn integer_keys(v: &mut Value, dict: &mut Vec<String>) {
    match v {
        Value::Map(pairs) => {
            for (k, val) in pairs.iter_mut() {
                if let Value::Text(name) = k {
                    let i = match dict.iter().position(|d| d == name) {
                        Some(i) => i,
                        None => {
                            dict.push(name.clone());
                            dict.len() - 1
                        }
                    };
                    *k = Value::Integer((i as u64).into());
                }
                integer_keys(val, dict);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| integer_keys(x, dict)),
        Value::Tag(_, inner) => integer_keys(inner, dict),
        _ => {}
    }
}

/// The sample order in CBOR with integer keys instead of field names.
fn int_keys(r: &mut Results, cbor: &[u8]) {
    let mut v: Value = ciborium::from_reader(cbor).unwrap();
    let mut dict = Vec::new();
    integer_keys(&mut v, &mut dict);
    let mut ci = Vec::new();
    ciborium::into_writer(&v, &mut ci).unwrap();
    r.set("order.cbor_int_keys", ci.len());
    r.set("order.distinct_keys", dict.len());
    r.ratio(
        "order.json_over_int_keys",
        "order.json",
        "order.cbor_int_keys",
    );
    r.ratio(
        "order.cbor_over_int_keys",
        "order.cbor",
        "order.cbor_int_keys",
    );
}

/// Encode and decode times of the sample order, the eight interleaved, and
/// the ratios the article reads, each declared from its two timings.
fn timings(r: &mut Results, sample: &Order, bytes: &[Vec<u8>], means: &[f64]) {
    let (j, m, c) = (&bytes[0], &bytes[1], &bytes[2]);
    // each routine calls its codec directly, as an application would
    let fs = vec![
        routine(|| json_encode(black_box(sample))),
        routine(|| msgpack_encode(black_box(sample))),
        routine(|| cbor_encode(black_box(sample))),
        routine(|| cbor_encode_mini(black_box(sample))),
        routine(|| json_decode(black_box(j))),
        routine(|| msgpack_decode(black_box(m))),
        routine(|| cbor_decode(black_box(c))),
        routine(|| cbor_decode_mini(black_box(c))),
    ];
    let t = interleaved(fs);
    let (enc, dec) = t.split_at(CODECS.len());
    let mut rows = Vec::new();
    for (i, c) in CODECS.iter().enumerate() {
        r.set(&format!("formats.{}.encode", c.key), &enc[i]);
        r.set(&format!("formats.{}.decode", c.key), &dec[i]);
        rows.push(Row {
            name: c.name,
            bytes: bytes[i].len(),
            mean: means[i],
            encode: enc[i].clone(),
            decode: dec[i].clone(),
        });
    }
    r.set("rows", &rows);
    let f = |k: &str, op: &str| format!("formats.{k}.{op}");
    let ratios = [
        ("decode.ciborium_over_mini", "cbor", "minicbor", "decode"),
        ("decode.cbor_over_json", "cbor", "json", "decode"),
        ("decode.cbor_over_msgpack", "cbor", "msgpack", "decode"),
    ];
    for (key, a, b, op) in ratios {
        r.ratio(key, &f(a, op), &f(b, op));
    }
}

// ANCHOR: pairs
/// The two comparisons that the table's interleaved rounds measure with a
/// small gap, timed again alone, side by side (A B B A …), away from the
/// other routines; each `ratio` is minicbor-serde's time over the other's.
fn pairs(r: &mut Results, sample: &Order, bytes: &[Vec<u8>]) {
    let (m, c) = (&bytes[1], &bytes[2]);
    let cfg = || harness::Config::default().samples(1000);
    let decode = harness::compare_with(
        cfg(),
        || cbor_decode_mini(black_box(c)),
        || msgpack_decode(black_box(m)),
    );
    let encode = harness::compare_with(
        cfg(),
        || cbor_encode_mini(black_box(sample)),
        || cbor_encode(black_box(sample)),
    );
    r.set("pairs.decode", &decode); // a: minicbor-serde, b: MessagePack
    r.set("pairs.encode", &encode); // a: minicbor-serde, b: ciborium
}
// ANCHOR_END: pairs

fn main() {
    let mut r = Results::new();
    let sample = orders::sample_order();
    let corpus = orders::orders(SEED, CORPUS);
    let bytes = check_round_trips(&sample, &corpus);
    let means = sizes(&mut r, &sample, &corpus, &bytes);
    int_keys(&mut r, &bytes[2]);
    timings(&mut r, &sample, &bytes, &means);
    pairs(&mut r, &sample, &bytes);
    tags::payment(&mut r, &sample);
    r.write();
}

//! CBOR (RFC 8949) vs MessagePack vs JSON: the same order through ciborium,
//! rmp-serde and serde_json (size, encode and decode time), then CBOR's
//! semantic tags (0, 1, 2) on real bytes, annotated item by item.

use ciborium::Value;
use ciborium::tag::Required;
use harness::interleave::{interleaved, routine};
use harness::{Ratio, Results, Summary, black_box, fmt};
use orders::Order;
use serde::{Deserialize, Serialize};

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

// ANCHOR: tagged
/// A payment record whose fields carry CBOR semantic tags: the decoder
/// learns from the bytes that a number is a point in time, or that a byte
/// string is a big integer.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Payment {
    order_id: u64,
    /// Tag 1: seconds since 1970-01-01T00:00Z.
    paid_at: Required<u64, 1>,
    /// Tag 0: an RFC 3339 date/time string.
    paid_at_text: Required<String, 0>,
    /// Too big for 64 bits: ciborium writes tag 2 (unsigned bignum).
    amount_atto: u128,
}
// ANCHOR_END: tagged

/// Seconds since the epoch of an RFC 3339 `YYYY-MM-DDTHH:MM:SS(Z|±HH:MM)`.
fn epoch_seconds(t: &str) -> u64 {
    let n = |a: usize, b: usize| t[a..b].parse::<i64>().unwrap();
    let (y, m, d) = (n(0, 4), n(5, 7), n(8, 10));
    // days from civil (Howard Hinnant's algorithm)
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + n(11, 13) * 3600 + n(14, 16) * 60 + n(17, 19);
    let offset = if t.ends_with('Z') {
        0
    } else {
        let sign = if &t[19..20] == "-" { -1 } else { 1 };
        sign * (n(20, 22) * 3600 + n(23, 25) * 60)
    };
    (secs - offset) as u64
}

/// One line per CBOR data item: its head bytes in hex, and what they mean.
fn annotate(b: &[u8], pos: &mut usize, depth: usize, out: &mut Vec<(String, String)>) {
    let start = *pos;
    let ib = b[*pos];
    *pos += 1;
    let major = ib >> 5;
    let info = ib & 0x1f;
    let arg: u64 = match info {
        0..=23 => u64::from(info),
        24..=27 => {
            let len = 1usize << (info - 24);
            let mut v = 0u64;
            for &x in &b[*pos..*pos + len] {
                v = (v << 8) | u64::from(x);
            }
            *pos += len;
            v
        }
        _ => panic!("indefinite lengths are not used here"),
    };
    let head = harness::bytes::hex(&b[start..*pos]);
    let pad = "  ".repeat(depth);
    let how = if info < 24 {
        "value in the initial byte".to_string()
    } else {
        format!("value in the next {} byte(s)", 1 << (info - 24))
    };
    match major {
        0 => out.push((
            format!("{pad}{head}"),
            format!("major 0, unsigned {arg} ({how})"),
        )),
        1 => out.push((
            format!("{pad}{head}"),
            format!("major 1, negative -1-{arg} = {}", -1 - arg as i128),
        )),
        2 | 3 => {
            let body = &b[*pos..*pos + arg as usize];
            *pos += arg as usize;
            let (kind, shown) = if major == 3 {
                ("text", format!("{:?}", String::from_utf8_lossy(body)))
            } else {
                ("bytes", harness::bytes::hex(body))
            };
            out.push((
                format!("{pad}{head} +{arg}"),
                format!("major {major}, {kind}({arg}) {shown}"),
            ));
        }
        4 | 5 => {
            let what = if major == 4 { "array" } else { "map" };
            let unit = if major == 4 { "items" } else { "pairs" };
            out.push((
                format!("{pad}{head}"),
                format!("major {major}, {what} of {arg} {unit}"),
            ));
            let items = if major == 4 { arg } else { arg * 2 };
            for _ in 0..items {
                annotate(b, pos, depth + 1, out);
            }
        }
        6 => {
            let meaning = match arg {
                0 => "date/time string (RFC 3339)",
                1 => "epoch-based date/time",
                2 => "unsigned bignum (big-endian bytes)",
                3 => "negative bignum",
                _ => "tag",
            };
            out.push((
                format!("{pad}{head}"),
                format!("major 6, tag {arg}: {meaning}"),
            ));
            annotate(b, pos, depth + 1, out);
        }
        _ => out.push((
            format!("{pad}{head}"),
            format!("major 7, simple/float {arg}"),
        )),
    }
}

#[derive(Serialize)]
struct Row {
    key: &'static str,
    name: &'static str,
    bytes: usize,
    mean: f64,
    encode: Summary,
    decode: Summary,
}

/// Replaces every text map key by a small integer, as CWT and COSE do with
/// their registered claim keys. Returns the number of distinct keys.
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

fn main() {
    let mut r = Results::new();
    let sample = orders::sample_order();
    let corpus = orders::orders(SEED, CORPUS);

    // --- sizes -------------------------------------------------------------
    let c = cbor_encode(&sample);
    let m = msgpack_encode(&sample);
    let j = json_encode(&sample);
    assert_eq!(cbor_decode(&c), sample);
    assert_eq!(msgpack_decode(&m), sample);
    let c2 = cbor_encode_mini(&sample);
    assert_eq!(cbor_decode_mini(&c2), sample);
    assert_eq!(cbor_decode(&c2), sample);
    assert_eq!(cbor_decode_mini(&c), sample);
    r.set("order.same_bytes", u8::from(c == c2));
    let total = |f: fn(&Order) -> Vec<u8>| corpus.iter().map(|o| f(o).len()).sum::<usize>();
    let (tc, tm, tj) = (
        total(cbor_encode),
        total(msgpack_encode),
        total(json_encode),
    );
    for o in &corpus {
        assert_eq!(&cbor_decode(&cbor_encode(o)), o);
    }
    r.set("corpus.orders", CORPUS);
    r.set("order.items", sample.items.len());
    r.set("order.cbor", c.len());
    r.set("order.msgpack", m.len());
    r.set("order.json", j.len());
    r.set("corpus.cbor", tc);
    r.set("corpus.msgpack", tm);
    r.set("corpus.json", tj);
    r.set("corpus.json_over_cbor", tj as f64 / tc as f64);
    r.set("corpus.cbor_over_msgpack", tc as f64 / tm as f64);
    r.set(
        "corpus.cbor_minus_msgpack",
        (tc as f64 - tm as f64) / CORPUS as f64,
    );

    // CWT/COSE style: integer keys instead of field names
    let mut v: Value = ciborium::from_reader(&c[..]).unwrap();
    let mut dict = Vec::new();
    integer_keys(&mut v, &mut dict);
    let mut ci = Vec::new();
    ciborium::into_writer(&v, &mut ci).unwrap();
    r.set("order.cbor_int_keys", ci.len());
    r.set("order.distinct_keys", dict.len());
    r.set("order.json_over_int_keys", j.len() as f64 / ci.len() as f64);
    r.set("order.cbor_over_int_keys", c.len() as f64 / ci.len() as f64);

    // --- time --------------------------------------------------------------
    let t = interleaved(vec![
        routine(|| json_encode(black_box(&sample))),
        routine(|| msgpack_encode(black_box(&sample))),
        routine(|| cbor_encode(black_box(&sample))),
        routine(|| cbor_encode_mini(black_box(&sample))),
        routine(|| json_decode(black_box(&j))),
        routine(|| msgpack_decode(black_box(&m))),
        routine(|| cbor_decode(black_box(&c))),
        routine(|| cbor_decode_mini(black_box(&c))),
    ]);
    let (enc, dec) = t.split_at(4);
    r.set("encode.json_over_cbor", Ratio::of(&enc[0], &enc[2]));
    r.set("encode.cbor_over_msgpack", Ratio::of(&enc[2], &enc[1]));
    r.set("decode.json_over_cbor", Ratio::of(&dec[0], &dec[2]));
    r.set("decode.cbor_over_msgpack", Ratio::of(&dec[2], &dec[1]));
    r.set("decode.json_over_mini", Ratio::of(&dec[0], &dec[3]));
    r.set("decode.ciborium_over_mini", Ratio::of(&dec[2], &dec[3]));
    r.set("decode.mini_over_msgpack", Ratio::of(&dec[3], &dec[1]));
    r.set("encode.json_over_mini", Ratio::of(&enc[0], &enc[3]));
    r.set("encode.mini_over_ciborium", Ratio::of(&enc[3], &enc[2]));
    let meta = [
        ("json", "JSON (serde_json)", j.len(), tj),
        ("msgpack", "MessagePack (rmp-serde, maps)", m.len(), tm),
        ("cbor", "CBOR (ciborium)", c.len(), tc),
        (
            "minicbor",
            "CBOR (minicbor-serde)",
            c2.len(),
            total(cbor_encode_mini),
        ),
    ];
    let rows: Vec<Row> = meta
        .iter()
        .zip(enc.iter().zip(dec.iter()))
        .map(|(&(key, name, bytes, all), (e, d))| Row {
            key,
            name,
            bytes,
            mean: all as f64 / CORPUS as f64,
            encode: e.clone(),
            decode: d.clone(),
        })
        .collect();
    for row in &rows {
        r.set(&format!("formats.{}", row.key), row);
    }
    r.set("rows", &rows);

    println!(
        "The sample order ({} items); mean over {} generated orders",
        sample.items.len(),
        CORPUS
    );
    println!();
    let mut t = fmt::Table::new(["format", "bytes", "mean bytes", "encode", "decode"]);
    for row in &rows {
        t.row([
            row.name.to_string(),
            row.bytes.to_string(),
            format!("{:.1}", row.mean),
            fmt::duration(row.encode.median),
            fmt::duration(row.decode.median),
        ]);
    }
    print!("{t}");
    println!();
    println!(
        "CBOR with integer map keys (CWT/COSE style, {} distinct keys): {} B",
        dict.len(),
        ci.len()
    );
    println!();

    // --- semantic tags ---------------------------------------------------------
    let paid_at = epoch_seconds(&sample.created_at);
    // ANCHOR: tagged_value
    let payment = Payment {
        order_id: sample.id,
        paid_at: Required(paid_at),
        paid_at_text: Required(sample.created_at.clone()),
        // the order total in a unit of 10^-18 (as on-chain token amounts are)
        amount_atto: sample.total_cents as u128 * 10u128.pow(16),
    };
    let mut bytes = Vec::new();
    ciborium::into_writer(&payment, &mut bytes).unwrap();
    // ANCHOR_END: tagged_value
    let back: Payment = ciborium::from_reader(&bytes[..]).unwrap();
    assert_eq!(back, payment);
    let generic: Value = ciborium::from_reader(&bytes[..]).unwrap();
    let tags: Vec<u64> = match &generic {
        Value::Map(p) => p
            .iter()
            .filter_map(|(_, v)| match v {
                Value::Tag(t, _) => Some(*t),
                _ => None,
            })
            .collect(),
        _ => vec![],
    };
    assert_eq!(tags, [1, 0, 2]);

    let mut lines = Vec::new();
    let mut pos = 0;
    annotate(&bytes, &mut pos, 0, &mut lines);
    assert_eq!(pos, bytes.len());
    println!(
        "A tagged payment record in CBOR ({} B), item by item:",
        bytes.len()
    );
    println!();
    let w = lines.iter().map(|(h, _)| h.len()).max().unwrap_or(0);
    for (h, d) in &lines {
        println!("  {h:<w$}  {d}");
    }
    println!();
    println!(
        "a generic decoder (ciborium::Value) sees tags {:?} without knowing the struct",
        tags
    );

    let json_payment = serde_json::json!({
        "order_id": payment.order_id,
        "paid_at": paid_at,
        "paid_at_text": sample.created_at,
        "amount_atto": payment.amount_atto.to_string(),
    });
    let jp = serde_json::to_vec(&json_payment).unwrap();
    r.set("tags.cbor_bytes", bytes.len());
    r.set("tags.json_bytes", jp.len());
    r.set("tags.epoch", paid_at);
    r.set("tags.items", lines.len());
    r.set(
        "tags.bignum_fits_u64",
        u8::from(payment.amount_atto <= u64::MAX as u128),
    );
    r.set("tags.text_len", sample.created_at.len());
    r.write();
}

//! MessagePack vs JSON: the same order encoded by serde_json and rmp-serde,
//! with structs written as maps (`to_vec_named`) and as arrays (`to_vec`).
//! Sizes, where the bytes go, encode/decode time and allocations.

#[global_allocator]
static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;

use harness::interleave::{interleaved, routine};
use harness::{Results, black_box, fmt};
use orders::{Address, Order};
use prost::Message;
use serde::{Deserialize, Serialize};

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

// ANCHOR: reorder
/// The same four fields as `orders::Address`, declared in another order
/// (as a second service, or a later version of this one, might).
#[derive(Debug, Deserialize)]
struct AddressReordered {
    city: String,
    street: String,
    country: String,
    postal_code: String,
}
// ANCHOR_END: reorder

#[derive(Serialize)]
struct Row {
    key: &'static str,
    name: &'static str,
    bytes: usize,
    per_order: f64,
    vs_json: f64,
    encode: harness::Summary,
    decode: harness::Summary,
    decode_allocs: u64,
}

/// Splits a named MessagePack encoding of an `Address` into annotated parts.
fn annotate_address(a: &Address) -> (Vec<u8>, Vec<u8>, String) {
    let named = rmp_serde::to_vec_named(a).unwrap();
    let array = rmp_serde::to_vec(a).unwrap();
    let mut out = String::new();
    let mut i = 0;
    let desc = |b: u8| -> String {
        match b {
            0x80..=0x8f => format!("fixmap, {} entries", b & 0x0f),
            0x90..=0x9f => format!("fixarray, {} elements", b & 0x0f),
            0xa0..=0xbf => format!("fixstr, {} bytes", b & 0x1f),
            0xd9 => "str8, length in next byte".to_string(),
            _ => format!("0x{b:02x}"),
        }
    };
    // walk the map: header, then (key, value) string pairs
    out.push_str(&format!(
        "  {:02x}                 {}\n",
        named[0],
        desc(named[0])
    ));
    i += 1;
    while i < named.len() {
        let (hdr, len) = match named[i] {
            b @ 0xa0..=0xbf => (1, (b & 0x1f) as usize),
            0xd9 => (2, named[i + 1] as usize),
            _ => break,
        };
        let s = String::from_utf8_lossy(&named[i + hdr..i + hdr + len]).to_string();
        let head = harness::bytes::hex(&named[i..i + hdr]);
        out.push_str(&format!("  {head:<18} {} + {:?}\n", desc(named[i]), s));
        i += hdr + len;
    }
    (named, array, out)
}

fn main() {
    let mut r = Results::new();
    let sample = orders::sample_order();
    let corpus = orders::orders(SEED, CORPUS);

    // --- what the bytes look like ------------------------------------------
    let addr = &sample.customer.address;
    let (named_addr, array_addr, listing) = annotate_address(addr);
    let json_addr = serde_json::to_vec(addr).unwrap();
    println!("One Address, three encodings");
    println!();
    println!("JSON ({} B):", json_addr.len());
    println!("  {}", String::from_utf8_lossy(&json_addr));
    println!();
    println!(
        "MessagePack, struct as map: to_vec_named ({} B):",
        named_addr.len()
    );
    print!("{listing}");
    println!();
    println!(
        "MessagePack, struct as array: to_vec ({} B):",
        array_addr.len()
    );
    print!("{}", harness::bytes::hexdump(&array_addr));
    println!();
    r.set("address.json", json_addr.len());
    r.set("address.named", named_addr.len());
    r.set("address.array", array_addr.len());
    r.set("address.names", named_addr.len() - array_addr.len());
    r.set("address.first_named", format!("{:02x}", named_addr[0]));
    r.set("address.first_array", format!("{:02x}", array_addr[0]));

    // --- a reader whose struct declares the fields in another order --------
    let from_map: AddressReordered = rmp_serde::from_slice(&named_addr).unwrap();
    let from_array: AddressReordered = rmp_serde::from_slice(&array_addr).unwrap();
    println!("Decoded into a struct that declares city before street:");
    println!("  from the map:   city = {:?}", from_map.city);
    println!("  from the array: city = {:?}", from_array.city);
    println!();
    let same = |x: &AddressReordered| {
        x.city == addr.city
            && x.street == addr.street
            && x.country == addr.country
            && x.postal_code == addr.postal_code
    };
    r.set("reorder.map_ok", u8::from(same(&from_map)));
    r.set("reorder.array_ok", u8::from(same(&from_array)));

    // --- sizes ---------------------------------------------------------------
    let j = encode_json(&sample);
    let n = encode_msgpack(&sample);
    let a = encode_msgpack_array(&sample);
    assert_eq!(decode_json(&j), sample);
    assert_eq!(decode_msgpack(&n), sample);
    assert_eq!(decode_msgpack(&a), sample);
    r.set("order.items", sample.items.len());
    r.set("order.json", j.len());
    r.set("order.named", n.len());
    r.set("order.array", a.len());
    let pb = orders::pb::Order::from(&sample).encode_to_vec();
    r.set("order.protobuf", pb.len());
    r.set("order.names", n.len() - a.len());
    r.set(
        "order.names_share",
        (n.len() - a.len()) as f64 / n.len() as f64,
    );
    r.set("order.json_over_named", j.len() as f64 / n.len() as f64);
    r.set("order.json_over_array", j.len() as f64 / a.len() as f64);
    r.set("order.named_saving", 1.0 - n.len() as f64 / j.len() as f64);
    r.set("order.array_saving", 1.0 - a.len() as f64 / j.len() as f64);

    let total = |f: fn(&Order) -> Vec<u8>| corpus.iter().map(|o| f(o).len()).sum::<usize>();
    let (cj, cn, ca) = (
        total(encode_json),
        total(encode_msgpack),
        total(encode_msgpack_array),
    );
    for o in &corpus {
        assert_eq!(&decode_msgpack(&encode_msgpack(o)), o);
    }
    r.set("corpus.orders", CORPUS);
    let cp: usize = corpus
        .iter()
        .map(|o| orders::pb::Order::from(o).encode_to_vec().len())
        .sum();
    r.set("corpus.protobuf", cp);
    r.set("corpus.json_over_protobuf", cj as f64 / cp as f64);
    r.set("corpus.array_over_protobuf", ca as f64 / cp as f64);
    r.set("corpus.json", cj);
    r.set("corpus.named", cn);
    r.set("corpus.array", ca);
    r.set("corpus.json_over_named", cj as f64 / cn as f64);
    r.set("corpus.json_over_array", cj as f64 / ca as f64);
    r.set("corpus.named_over_array", cn as f64 / ca as f64);

    // --- time ----------------------------------------------------------------
    let t = interleaved(vec![
        routine(|| encode_json(black_box(&sample))),
        routine(|| encode_msgpack(black_box(&sample))),
        routine(|| encode_msgpack_array(black_box(&sample))),
        routine(|| decode_json(black_box(&j))),
        routine(|| decode_msgpack(black_box(&n))),
        routine(|| decode_msgpack(black_box(&a))),
    ]);
    let [enc_j, enc_n, enc_a, dec_j, dec_n, dec_a] = <[harness::Summary; 6]>::try_from(t).unwrap();
    r.set("decode_speedup.named", harness::Ratio::of(&dec_j, &dec_n));
    r.set("decode_speedup.array", harness::Ratio::of(&dec_j, &dec_a));
    r.set("encode_speedup.named", harness::Ratio::of(&enc_j, &enc_n));
    r.set("encode_speedup.array", harness::Ratio::of(&enc_j, &enc_a));
    r.set("decode_array_vs_named", harness::Ratio::of(&dec_n, &dec_a));

    let allocs = |b: &[u8], f: fn(&[u8]) -> Order| harness::alloc::measure(|| f(b)).1;
    let (al_j, al_n, al_a) = (
        allocs(&j, decode_json),
        allocs(&n, decode_msgpack),
        allocs(&a, decode_msgpack),
    );
    let (_, enc_al_j) = harness::alloc::measure(|| encode_json(&sample));
    let (_, enc_al_n) = harness::alloc::measure(|| encode_msgpack(&sample));
    r.set("alloc.decode.json", al_j);
    r.set("alloc.decode.named", al_n);
    r.set("alloc.decode.array", al_a);
    r.set("alloc.encode.json", enc_al_j);
    r.set("alloc.encode.named", enc_al_n);

    let rows = vec![
        Row {
            key: "json",
            name: "JSON (serde_json)",
            bytes: j.len(),
            per_order: cj as f64 / CORPUS as f64,
            vs_json: 1.0,
            encode: enc_j.clone(),
            decode: dec_j.clone(),
            decode_allocs: al_j.allocs,
        },
        Row {
            key: "named",
            name: "MessagePack, map (to_vec_named)",
            bytes: n.len(),
            per_order: cn as f64 / CORPUS as f64,
            vs_json: n.len() as f64 / j.len() as f64,
            encode: enc_n.clone(),
            decode: dec_n.clone(),
            decode_allocs: al_n.allocs,
        },
        Row {
            key: "array",
            name: "MessagePack, array (to_vec)",
            bytes: a.len(),
            per_order: ca as f64 / CORPUS as f64,
            vs_json: a.len() as f64 / j.len() as f64,
            encode: enc_a.clone(),
            decode: dec_a.clone(),
            decode_allocs: al_a.allocs,
        },
    ];

    println!(
        "The sample order ({} items); mean over {} generated orders",
        sample.items.len(),
        CORPUS
    );
    println!();
    let mut t = fmt::Table::new([
        "format",
        "bytes",
        "mean bytes",
        "encode",
        "decode",
        "decode allocs",
    ]);
    for row in &rows {
        t.row([
            row.name.to_string(),
            row.bytes.to_string(),
            format!("{:.1}", row.per_order),
            fmt::duration(row.encode.median),
            fmt::duration(row.decode.median),
            row.decode_allocs.to_string(),
        ]);
    }
    print!("{t}");
    println!();
    println!(
        "for reference, protobuf (prost): {} B for the sample order, {:.1} B mean",
        pb.len(),
        cp as f64 / CORPUS as f64
    );
    println!(
        "JSON / MessagePack size: map {:.2}x, array {:.2}x (sample order)",
        j.len() as f64 / n.len() as f64,
        j.len() as f64 / a.len() as f64
    );
    println!(
        "decode speed-up over JSON: map {:.2}x [{:.2}, {:.2}], array {:.2}x [{:.2}, {:.2}]",
        harness::Ratio::of(&dec_j, &dec_n).value,
        harness::Ratio::of(&dec_j, &dec_n).low,
        harness::Ratio::of(&dec_j, &dec_n).high,
        harness::Ratio::of(&dec_j, &dec_a).value,
        harness::Ratio::of(&dec_j, &dec_a).low,
        harness::Ratio::of(&dec_j, &dec_a).high
    );
    for row in &rows {
        r.set(&format!("formats.{}", row.key), row);
    }
    r.set("rows", &rows);
    let size_row = |name: &str, one: usize, all: usize| serde_json::json!({"name": name, "sample": one, "mean": all as f64 / CORPUS as f64});
    r.set(
        "sizes",
        [
            size_row("JSON", j.len(), cj),
            size_row("MessagePack map", n.len(), cn),
            size_row("MessagePack array", a.len(), ca),
            size_row("Protobuf", pb.len(), cp),
        ],
    );
    r.write();
}

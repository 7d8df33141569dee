//! Self-describing streams: gob (Go's format, via the `gobwire` crate) and
//! Avro object container files carry their schema in the stream. One value
//! costs more than JSON; a long stream costs far less per value. Compared
//! with JSON and postcard (no schema on the wire at all), for streams of 1 to
//! 1000 values, with allocations and time per value of a reused writer.

#[global_allocator]
static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;

mod gob;

use apache_avro::{Schema, Writer};
use harness::interleave::{interleaved, routine};
use harness::{Ratio, Results, black_box, fmt};
use orders::Order;
use serde::Serialize;

const SEED: u64 = 5;
const LENGTHS: [usize; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

// ANCHOR: avro_schema
const AVRO_SCHEMA: &str = r#"{
  "type": "record", "name": "Order", "fields": [
    {"name": "id", "type": "long"},
    {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
      {"name": "id", "type": "long"},
      {"name": "name", "type": "string"},
      {"name": "email", "type": "string"},
      {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
        {"name": "street", "type": "string"},
        {"name": "city", "type": "string"},
        {"name": "country", "type": "string"},
        {"name": "postal_code", "type": "string"}]}}]}},
    {"name": "items", "type": {"type": "array", "items": {
      "type": "record", "name": "LineItem", "fields": [
        {"name": "sku", "type": "string"},
        {"name": "name", "type": "string"},
        {"name": "quantity", "type": "int"},
        {"name": "unit_price_cents", "type": "long"},
        {"name": "discount_percent", "type": ["null", "int"]}]}}},
    {"name": "status", "type": {"type": "enum", "name": "Status", "symbols":
      ["pending", "paid", "shipped", "delivered", "cancelled", "refunded"]}},
    {"name": "created_at", "type": "string"},
    {"name": "note", "type": ["null", "string"]},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "total_cents", "type": "long"}]
}"#;
// ANCHOR_END: avro_schema

// ANCHOR: streams
/// Gob: one `Encoder` per stream; it sends each type's description the first
/// time the type appears, then only values.
fn gob_stream(os: &[gob::Order]) -> Vec<u8> {
    let mut enc = gobwire::Encoder::new();
    let mut out = Vec::new();
    for o in os {
        enc.encode_into(o, &mut out).unwrap();
    }
    out
}

/// Avro object container file: header with the schema (as JSON text) and a
/// 16-byte sync marker, then blocks of values with no names and no tags.
fn avro_stream(schema: &Schema, os: &[Order]) -> Vec<u8> {
    let mut w = Writer::new(schema, Vec::new());
    for o in os {
        w.append_ser(o).unwrap();
    }
    w.into_inner().unwrap()
}

/// Newline-delimited JSON: every value repeats every field name.
fn json_stream(os: &[Order]) -> Vec<u8> {
    let mut out = Vec::new();
    for o in os {
        serde_json::to_writer(&mut out, o).unwrap();
        out.push(b'\n');
    }
    out
}

/// postcard: values only; the reader must already know the types.
fn postcard_stream(os: &[Order]) -> Vec<u8> {
    let mut out = Vec::new();
    for o in os {
        out = postcard::to_extend(o, out).unwrap();
    }
    out
}
// ANCHOR_END: streams

#[derive(Serialize)]
struct Point {
    n: usize,
    json: f64,
    postcard: f64,
    gob: f64,
    avro: f64,
}

fn main() {
    let mut r = Results::new();
    let max = *LENGTHS.last().unwrap();
    let corpus = orders::orders(SEED, max);
    let gobs: Vec<gob::Order> = corpus.iter().map(gob::Order::from).collect();
    let schema = Schema::parse_str(AVRO_SCHEMA).unwrap();

    // --- round trips: every format reads back what it wrote -----------------
    {
        let bytes = gob_stream(&gobs[..50]);
        let mut dec = gobwire::StreamDecoder::new(&bytes[..]);
        for g in &gobs[..50] {
            assert_eq!(&dec.decode::<gob::Order>().unwrap().unwrap(), g);
        }
        let bytes = avro_stream(&schema, &corpus[..50]);
        let reader = apache_avro::Reader::new(&bytes[..]).unwrap();
        let back: Vec<Order> = reader
            .map(|v| apache_avro::from_value::<Order>(&v.unwrap()).unwrap())
            .collect();
        assert_eq!(back, corpus[..50]);
        let bytes = postcard_stream(&corpus[..50]);
        let mut rest = &bytes[..];
        for o in &corpus[..50] {
            let (v, tail) = postcard::take_from_bytes::<Order>(rest).unwrap();
            assert_eq!(&v, o);
            rest = tail;
        }
    }

    // --- one value, byte by byte -------------------------------------------------
    let one_gob = gob_stream(&gobs[..1]);
    let msgs = gob::messages(&one_gob);
    println!(
        "One order as a fresh gob stream ({} B): messages",
        one_gob.len()
    );
    println!();
    let mut t = fmt::Table::new(["offset", "length prefix", "body", "type id", "meaning"]);
    let mut defs = 0;
    let mut def_bytes = 0;
    for &(off, prefix, len, id) in &msgs {
        let what = if id < 0 {
            defs += 1;
            def_bytes += prefix + len as usize;
            format!("defines type {}", -id)
        } else {
            format!("a value of type {id}")
        };
        t.row([
            off.to_string(),
            harness::bytes::hex(&one_gob[off..off + prefix]),
            format!("{len} B"),
            id.to_string(),
            what,
        ]);
    }
    print!("{t}");
    let (off, prefix, _, _) = msgs[0];
    println!();
    println!(
        "first message starts: {}",
        harness::bytes::hex(&one_gob[off..off + prefix + 6])
    );
    println!();
    let value_msg = msgs.last().unwrap();
    r.set("one.gob.first_total", one_gob.len());
    r.set("one.gob.messages", msgs.len());
    r.set("one.gob.definitions", defs);
    r.set("one.gob.definition_bytes", def_bytes);
    r.set("one.gob.value_bytes", value_msg.1 + value_msg.2 as usize);
    r.set("one.gob.first_len", msgs[0].2);
    r.set("one.gob.first_id", msgs[0].3);
    r.set("one.gob.value_id", value_msg.3);
    r.set(
        "one.gob.first_bytes",
        harness::bytes::hex(&one_gob[..msgs[0].1 + 3]),
    );

    // --- streams of 1..1000 ----------------------------------------------------
    // each length n: the mean over all disjoint windows of n orders, so that
    // short streams are not one particular (large or small) order
    let mut points = Vec::new();
    for &n in &LENGTHS {
        let windows = max / n;
        let per = |total: usize| total as f64 / (windows * n) as f64;
        points.push(Point {
            n,
            json: per(corpus.chunks(n).map(|w| json_stream(w).len()).sum()),
            postcard: per(corpus.chunks(n).map(|w| postcard_stream(w).len()).sum()),
            gob: per(gobs.chunks(n).map(|w| gob_stream(w).len()).sum()),
            avro: per(corpus
                .chunks(n)
                .map(|w| avro_stream(&schema, w).len())
                .sum()),
        });
    }
    // Which orders gob makes bigger than JSON when each is sent alone, and how
    // many line items those orders have, on average, against the others.
    let (bigger, smaller): (Vec<_>, Vec<_>) = corpus.iter().zip(&gobs).partition(|(o, g)| {
        gob_stream(std::slice::from_ref(g)).len() > json_stream(std::slice::from_ref(o)).len()
    });
    let mean_items = |os: &[(&Order, &gob::Order)]| {
        os.iter().map(|(o, _)| o.items.len()).sum::<usize>() as f64 / os.len().max(1) as f64
    };
    r.set("one.gob_bigger_share", bigger.len() as f64 / max as f64);
    r.set("one.gob_bigger_items", mean_items(&bigger));
    r.set("one.gob_smaller_items", mean_items(&smaller));
    r.set("one.first_json", json_stream(&corpus[..1]).len());
    let one = &points[0];
    let last = points.last().unwrap();
    let avro_header = {
        let w = Writer::new(&schema, Vec::new());
        w.into_inner().unwrap().len()
    };
    println!("Bytes per value by stream length");
    println!();
    let mut t = fmt::Table::new(["values", "JSON", "postcard", "gob", "Avro OCF"]);
    for p in &points {
        t.row([
            p.n.to_string(),
            format!("{:.1}", p.json),
            format!("{:.1}", p.postcard),
            format!("{:.1}", p.gob),
            format!("{:.1}", p.avro),
        ]);
    }
    print!("{t}");
    println!();
    println!("Avro header alone (schema + sync marker): {avro_header} B");
    r.set("one.json", one.json);
    r.set("one.postcard", one.postcard);
    r.set("one.gob.total", one.gob);
    r.set("one.avro", one.avro);
    r.set("one.gob_over_json", one.gob / one.json);
    r.set("one.avro_over_json", one.avro / one.json);
    r.set("avro_header", avro_header);
    r.set("stream.n", last.n);
    r.set("stream.json", last.json);
    r.set("stream.postcard", last.postcard);
    r.set("stream.gob", last.gob);
    r.set("stream.avro", last.avro);
    r.set("stream.json_over_gob", last.json / last.gob);
    r.set("stream.json_over_avro", last.json / last.avro);
    r.set("stream.gob_over_postcard", last.gob / last.postcard);
    r.set("stream.avro_over_postcard", last.avro / last.postcard);
    r.set("stream.gob_shrink", one.gob / last.gob);
    r.set("stream.avro_shrink", one.avro / last.avro);
    // first stream length at which gob / avro are smaller per value than JSON
    let cross = |f: fn(&Point) -> f64| points.iter().find(|p| f(p) < p.json).map(|p| p.n);
    r.set("cross.avro", cross(|p| p.avro));
    r.set("points", &points);

    // --- a reused writer: allocations and time per value ---------------------
    // ANCHOR: reused
    let mut gob_enc = gobwire::Encoder::new();
    let mut buf = Vec::with_capacity(1 << 16);
    gob_enc.encode_into(&gobs[0], &mut buf).unwrap(); // types go out here
    let n = max;
    let (_, gob_alloc) = harness::alloc::measure(|| {
        for g in &gobs {
            buf.clear();
            gob_enc.encode_into(g, &mut buf).unwrap();
        }
    });
    // ANCHOR_END: reused
    let mut jbuf = Vec::with_capacity(1 << 16);
    let (_, json_alloc) = harness::alloc::measure(|| {
        for o in &corpus {
            jbuf.clear();
            serde_json::to_writer(&mut jbuf, o).unwrap();
        }
    });
    let mut pbuf = Vec::with_capacity(1 << 16);
    let (_, pc_alloc) = harness::alloc::measure(|| {
        for o in &corpus {
            pbuf.clear();
            pbuf = postcard::to_extend(o, std::mem::take(&mut pbuf)).unwrap();
        }
    });
    let mut aw = Writer::new(&schema, Vec::with_capacity(1 << 20));
    aw.append_ser(&corpus[0]).unwrap();
    let (_, avro_alloc) = harness::alloc::measure(|| {
        for o in &corpus {
            aw.append_ser(o).unwrap();
        }
    });
    drop(aw);
    let per = |a: harness::alloc::AllocStats| a.calls() as f64 / n as f64;
    r.set("alloc.gob", per(gob_alloc));
    r.set("alloc.json", per(json_alloc));
    r.set("alloc.postcard", per(pc_alloc));
    r.set("alloc.avro", per(avro_alloc));
    r.set("alloc.gob_new", gob_alloc.allocs as f64 / n as f64);
    r.set("alloc.gob_grow", gob_alloc.reallocs as f64 / n as f64);

    // time to write the 1000-value stream, per value
    let t = interleaved(vec![
        routine(|| json_stream(black_box(&corpus))),
        routine(|| postcard_stream(black_box(&corpus))),
        routine(|| gob_stream(black_box(&gobs))),
        routine(|| avro_stream(&schema, black_box(&corpus))),
    ]);
    let t: Vec<_> = t.into_iter().map(|s| s.scale(1.0 / n as f64)).collect();
    r.set("time.json", &t[0]);
    r.set("time.postcard", &t[1]);
    r.set("time.gob", &t[2]);
    r.set("time.avro", &t[3]);
    r.set("time.gob_over_json", Ratio::of(&t[2], &t[0]));
    r.set("time.avro_over_json", Ratio::of(&t[3], &t[0]));
    r.set("time.json_over_postcard", Ratio::of(&t[0], &t[1]));
    println!();
    println!("Writing the {n}-value stream, per value (reused writer)");
    println!();
    let mut tt = fmt::Table::new(["format", "time", "allocations"]);
    for (name, s, a) in [
        ("JSON", &t[0], json_alloc),
        ("postcard", &t[1], pc_alloc),
        ("gob", &t[2], gob_alloc),
        ("Avro OCF", &t[3], avro_alloc),
    ] {
        tt.row([
            name.to_string(),
            fmt::duration(s.median),
            format!("{:.2}", per(a)),
        ]);
    }
    print!("{tt}");
    r.write();
}

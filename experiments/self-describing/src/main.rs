//! Self-describing streams: gob (Go's format, via the `gobwire` crate) and
//! Avro object container files carry their schema in the stream. One value
//! costs more than JSON; a long stream costs far less per value. Compared
//! with JSON and postcard (no schema on the wire at all), for streams of 1 to
//! 1000 values (every length up to 10, where Avro overtakes JSON), with the
//! allocations of a reused writer and the time to write a whole stream.

#[global_allocator]
static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;

mod gob;

use apache_avro::{Schema, Writer};
use harness::declare::{Label, Table, text, value, value_as};
use harness::interleave::{interleaved, routine};
use harness::{Results, black_box};
use orders::Order;
use serde::Serialize;

const SEED: u64 = 5;
/// Stream lengths: every one up to 10, then a few up to the whole corpus.
const LENGTHS: [usize; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 200, 500, 1000];
/// How many orders are decoded back from each format before anything is measured.
const ROUND_TRIP: usize = 50;

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
fn gob_stream<T: gobwire::Encode>(os: &[T]) -> Vec<u8> {
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

/// The corpus in every form the experiment writes.
struct Data {
    corpus: Vec<Order>,
    gobs: Vec<gob::Order>,
    schema: Schema,
}

/// Every format reads back what it wrote, for the first `ROUND_TRIP` orders
/// (JSON is not checked).
fn check_round_trips(r: &mut Results, d: &Data) {
    let (corpus, gobs) = (&d.corpus[..ROUND_TRIP], &d.gobs[..ROUND_TRIP]);
    let bytes = gob_stream(gobs);
    let mut dec = gobwire::StreamDecoder::new(&bytes[..]);
    for g in gobs {
        assert_eq!(&dec.decode::<gob::Order>().unwrap().unwrap(), g);
    }
    let bytes = avro_stream(&d.schema, corpus);
    let reader = apache_avro::Reader::new(&bytes[..]).unwrap();
    let back: Vec<Order> = reader
        .map(|v| apache_avro::from_value::<Order>(&v.unwrap()).unwrap())
        .collect();
    assert_eq!(back, corpus);
    let bytes = postcard_stream(corpus);
    let mut rest = &bytes[..];
    for o in corpus {
        let (v, tail) = postcard::take_from_bytes::<Order>(rest).unwrap();
        assert_eq!(&v, o);
        rest = tail;
    }
    r.input("roundtrip.orders", ROUND_TRIP);
}

/// The messages of one order's fresh gob stream, framing read back by hand:
/// the figures the article checks against the spec, and a table of them.
fn gob_messages(r: &mut Results, first: &gob::Order) {
    let one = gob_stream(std::slice::from_ref(first));
    let msgs = gob::messages(&one);
    let mut t = Table::new([
        Label::new("vị trí", "offset"),
        Label::new("tiền tố độ dài", "length prefix"),
        Label::new("thân (byte)", "body (bytes)"),
        Label::new("mã kiểu", "type id"),
        Label::new("nghĩa", "meaning"),
    ])
    .titled(Label::new(
        "Các thông điệp trong luồng gob của đơn hàng đầu tiên",
        "The messages in the first order's gob stream",
    ));
    let (mut defs, mut def_bytes) = (0, 0);
    for (i, &(off, prefix, len, id)) in msgs.iter().enumerate() {
        let key = format!("one.gob.msgs.{i}");
        r.set(&format!("{key}.offset"), off);
        r.set(
            &format!("{key}.prefix"),
            harness::bytes::hex(&one[off..off + prefix]),
        );
        r.set(&format!("{key}.body"), len);
        r.set(&format!("{key}.id"), id);
        let meaning = if id < 0 {
            defs += 1;
            def_bytes += prefix + len as usize;
            text(
                "định nghĩa một kiểu (mã của kiểu là số đối của mã này)",
                "defines a type (its id is minus this one)",
            )
        } else {
            text("một giá trị của kiểu ấy", "a value of that type")
        };
        t.row([
            value_as(format!("{key}.offset"), "int"),
            value(format!("{key}.prefix")),
            value_as(format!("{key}.body"), "int"),
            value_as(format!("{key}.id"), "int"),
            meaning,
        ]);
    }
    let (off, prefix, len, id) = msgs[0];
    let value_msg = msgs.last().unwrap();
    r.set("one.gob.first_total", one.len());
    r.set("one.gob.messages", msgs.len());
    r.set("one.gob.definitions", defs);
    r.set("one.gob.definition_bytes", def_bytes);
    r.set("one.gob.value_bytes", value_msg.1 + value_msg.2 as usize);
    r.set("one.gob.first_len", len);
    r.set("one.gob.first_id", id);
    r.set("one.gob.value_id", value_msg.3);
    r.set(
        "one.gob.first_bytes",
        harness::bytes::hex(&one[..prefix + 3]),
    );
    r.set(
        "one.gob.first_message",
        harness::bytes::hex(&one[off..off + prefix + 6]),
    );
    r.table(t);
}

/// Where the windows of `n` consecutive orders start, taking the corpus of
/// `len` orders as a ring: as many windows as it takes for every order to
/// appear equally often (lcm(n, len) / n), so that each length's mean is
/// over the whole corpus and no window is one particular order.
fn window_starts(n: usize, len: usize) -> Vec<usize> {
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let windows = len / gcd(n, len);
    (0..windows).map(|k| k * n % len).collect()
}

/// Bytes per value for each stream length: the mean over the windows of
/// [`window_starts`] (the corpus and its gob mirror are cycled so that a
/// window that runs past the end wraps around to the start).
fn sweep(d: &Data) -> Vec<Point> {
    let len = d.corpus.len();
    let wrap = *LENGTHS.last().unwrap();
    let corpus: Vec<&Order> = d.corpus.iter().cycle().take(len + wrap).collect();
    let gobs: Vec<&gob::Order> = d.gobs.iter().cycle().take(len + wrap).collect();
    fn owned<T: Clone>(w: &[&T]) -> Vec<T> {
        w.iter().map(|x| (*x).clone()).collect()
    }
    LENGTHS
        .iter()
        .map(|&n| {
            let starts = window_starts(n, len);
            let per = |f: &dyn Fn(&[Order]) -> usize| {
                let total: usize = starts.iter().map(|&s| f(&owned(&corpus[s..s + n]))).sum();
                total as f64 / (starts.len() * n) as f64
            };
            let gob_total: usize = starts
                .iter()
                .map(|&s| gob_stream(&owned(&gobs[s..s + n])))
                .map(|b| b.len())
                .sum();
            Point {
                n,
                json: per(&|w| json_stream(w).len()),
                postcard: per(&|w| postcard_stream(w).len()),
                gob: gob_total as f64 / (starts.len() * n) as f64,
                avro: per(&|w| avro_stream(&d.schema, w).len()),
            }
        })
        .collect()
}

/// One value alone against the whole stream, and the ratios the article reads.
fn sizes(r: &mut Results, d: &Data, points: &[Point]) {
    let (one, last) = (&points[0], points.last().unwrap());
    let avro_header = Writer::new(&d.schema, Vec::new())
        .into_inner()
        .unwrap()
        .len();
    r.set("avro_header", avro_header);
    r.set("one.json", one.json);
    r.set("one.postcard", one.postcard);
    r.set("one.gob.total", one.gob);
    r.set("one.avro", one.avro);
    r.ratio("one.gob_over_json", "one.gob.total", "one.json");
    r.ratio("one.avro_over_json", "one.avro", "one.json");
    r.input("stream.n", last.n);
    r.set("stream.json", last.json);
    r.set("stream.postcard", last.postcard);
    r.set("stream.gob", last.gob);
    r.set("stream.avro", last.avro);
    r.ratio("stream.json_over_gob", "stream.json", "stream.gob");
    r.ratio("stream.json_over_avro", "stream.json", "stream.avro");
    r.ratio("stream.gob_over_postcard", "stream.gob", "stream.postcard");
    r.ratio(
        "stream.avro_over_postcard",
        "stream.avro",
        "stream.postcard",
    );
    r.ratio("stream.gob_shrink", "one.gob.total", "stream.gob");
    r.ratio("stream.avro_shrink", "one.avro", "stream.avro");
    r.set("points", points);
    // Which orders gob makes bigger than JSON when each is sent alone, and
    // how many line items those orders have, on average, against the others.
    let (bigger, smaller): (Vec<_>, Vec<_>) = d.corpus.iter().zip(&d.gobs).partition(|(o, g)| {
        gob_stream(std::slice::from_ref(*g)).len() > json_stream(std::slice::from_ref(*o)).len()
    });
    let mean_items = |os: &[(&Order, &gob::Order)]| {
        os.iter().map(|(o, _)| o.items.len()).sum::<usize>() as f64 / os.len().max(1) as f64
    };
    r.set("one.gob_bigger", bigger.len());
    r.share("one.gob_bigger_share", "one.gob_bigger", "stream.n");
    r.set("one.gob_bigger_items", mean_items(&bigger));
    r.set("one.gob_smaller_items", mean_items(&smaller));
}

/// Where Avro overtakes JSON: the first measured length at which a value
/// costs less in Avro, the lengths either side, and the length the stream's
/// fixed cost predicts (fixed cost / what each value saves over JSON).
fn crossover(r: &mut Results, points: &[Point]) {
    let at = points.iter().position(|p| p.avro < p.json).unwrap();
    assert!(at > 0, "Avro smaller than JSON from one value on");
    let (before, after) = (&points[at - 1], &points[at]);
    assert_eq!(
        before.n + 1,
        after.n,
        "every length around the crossover is measured"
    );
    r.set("cross.avro", after.n);
    r.set("cross.avro_before_n", before.n);
    r.set("cross.avro_before", before.avro);
    r.set("cross.avro_at", after.avro);
    // a stream of n values costs about fixed + n × per value
    r.difference("cross.fixed", "one.avro", "stream.avro");
    r.difference("cross.saving", "stream.json", "stream.avro");
    r.ratio("cross.payback", "cross.fixed", "cross.saving");
}

/// How much of gob's gap to postcard is the status written as a string:
/// the same stream with the enum's index instead.
fn status_cost(r: &mut Results, d: &Data) {
    let indexed: Vec<gob::Order<u32>> = d.corpus.iter().map(gob::Order::from).collect();
    let n = indexed.len() as f64;
    r.set("stream.gob_indexed", gob_stream(&indexed).len() as f64 / n);
    r.difference("stream.status_cost", "stream.gob", "stream.gob_indexed");
    r.difference("stream.gob_minus_postcard", "stream.gob", "stream.postcard");
    r.share(
        "stream.status_share",
        "stream.status_cost",
        "stream.gob_minus_postcard",
    );
}

/// Allocator calls per value while writing every order with a reused
/// writer and a reused output buffer (the type descriptions, or the Avro
/// header, already written).
fn allocations(d: &Data) -> [f64; 6] {
    let (corpus, gobs) = (&d.corpus, &d.gobs);
    // ANCHOR: reused
    let mut gob_enc = gobwire::Encoder::new();
    let mut buf = Vec::with_capacity(1 << 16);
    gob_enc.encode_into(&gobs[0], &mut buf).unwrap(); // types go out here
    let (_, gob_alloc) = harness::alloc::measure(|| {
        for g in gobs {
            buf.clear();
            gob_enc.encode_into(g, &mut buf).unwrap();
        }
    });
    // ANCHOR_END: reused
    let mut jbuf = Vec::with_capacity(1 << 16);
    let (_, json_alloc) = harness::alloc::measure(|| {
        for o in corpus {
            jbuf.clear();
            serde_json::to_writer(&mut jbuf, o).unwrap();
        }
    });
    let mut pbuf = Vec::with_capacity(1 << 16);
    let (_, pc_alloc) = harness::alloc::measure(|| {
        for o in corpus {
            pbuf.clear();
            pbuf = postcard::to_extend(o, std::mem::take(&mut pbuf)).unwrap();
        }
    });
    let mut aw = Writer::new(&d.schema, Vec::with_capacity(1 << 20));
    aw.append_ser(&corpus[0]).unwrap();
    let (_, avro_alloc) = harness::alloc::measure(|| {
        for o in corpus {
            aw.append_ser(o).unwrap();
        }
    });
    let n = corpus.len() as f64;
    let per = |a: harness::alloc::AllocStats| a.calls() as f64 / n;
    [
        per(json_alloc),
        per(pc_alloc),
        per(gob_alloc),
        per(avro_alloc),
        gob_alloc.allocs as f64 / n,
        gob_alloc.reallocs as f64 / n,
    ]
}

/// The four formats, in the order of the writing table.
const FORMATS: [(&str, &str); 4] = [
    ("json", "JSON"),
    ("postcard", "postcard"),
    ("gob", "gob"),
    ("avro", "Avro"),
];

/// Time to write the whole stream from scratch (new encoder or writer, new
/// buffer), per value, the four interleaved; with the allocations of a
/// reused writer beside it in the `writing` rows.
fn writing(r: &mut Results, d: &Data, allocs: [f64; 6]) {
    let (corpus, gobs, schema) = (&d.corpus, &d.gobs, &d.schema);
    let t = interleaved(vec![
        routine(|| json_stream(black_box(corpus))),
        routine(|| postcard_stream(black_box(corpus))),
        routine(|| gob_stream(black_box(gobs))),
        routine(|| avro_stream(schema, black_box(corpus))),
    ]);
    let n = corpus.len() as f64;
    let mut rows = Vec::new();
    for (i, (key, name)) in FORMATS.iter().enumerate() {
        let time = t[i].scale(1.0 / n);
        r.set(&format!("time.{key}"), &time);
        r.set(&format!("alloc.{key}"), allocs[i]);
        rows.push(serde_json::json!({"name": name, "time": time, "allocs": allocs[i]}));
    }
    r.set("writing", rows);
    r.set("alloc.gob_new", allocs[4]);
    r.set("alloc.gob_grow", allocs[5]);
    r.ratio("time.gob_over_json", "time.gob", "time.json");
    r.ratio("time.avro_over_json", "time.avro", "time.json");
    r.ratio("time.json_over_postcard", "time.json", "time.postcard");
}

fn main() {
    let mut r = Results::new();
    let corpus = orders::orders(SEED, *LENGTHS.last().unwrap());
    let data = Data {
        gobs: corpus.iter().map(gob::Order::from).collect(),
        schema: Schema::parse_str(AVRO_SCHEMA).unwrap(),
        corpus,
    };
    check_round_trips(&mut r, &data);
    gob_messages(&mut r, &data.gobs[0]);
    let points = sweep(&data);
    sizes(&mut r, &data, &points);
    crossover(&mut r, &points);
    status_cost(&mut r, &data);
    let allocs = allocations(&data);
    writing(&mut r, &data, allocs);
    r.write();
}

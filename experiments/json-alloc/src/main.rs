//! What serde_json allocates: allocation calls and bytes (counted by the
//! harness's allocator) and time for encoding an order (`to_vec`, `to_writer`
//! into a reused `Vec`) and decoding it (owned `Order`, borrowed `OrderRef`,
//! `serde_json::Value`), for one order and a batch; a model that predicts
//! every allocation from the shape of the data; and what escaped strings do
//! to borrowing.

use harness::alloc::{AllocStats, CountingAlloc, counting, measure};
use harness::fmt::{Table, bytes, duration};
use harness::{Comparison, Config, Results, Summary, compare_with};
use orders::{LineItem, Order, OrderRef};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::time::Duration;

/// Orders in the batch.
const BATCH: usize = 100;
/// Seed of the batch (the single order is `orders::sample_order()`).
const SEED: u64 = 42;

// ANCHOR: counting
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Runs `f` once and returns what it asked of the allocator: calls to
/// `alloc` and `realloc`, bytes requested, peak live bytes.
fn allocations<R>(f: impl FnOnce() -> R) -> AllocStats {
    let (result, stats) = measure(f);
    drop(result);
    stats
}
// ANCHOR_END: counting

// ANCHOR: model
/// The allocations a decode must make, predicted from the data alone.
#[derive(Debug, Default, Clone, Copy, PartialEq, Serialize)]
struct Model {
    /// One per non-empty string that is copied out of the input.
    strings: u64,
    /// One per non-empty `Vec`: its first buffer.
    vecs: u64,
    /// One `realloc` each time a `Vec` outgrows its buffer.
    growth: u64,
    /// One per non-empty JSON object decoded into a `Map` (a B-tree node).
    maps: u64,
    /// Bytes of the strings and `Vec` buffers above (maps not included).
    bytes: u64,
}

impl Model {
    fn calls(&self) -> u64 {
        self.strings + self.vecs + self.growth + self.maps
    }

    /// `String::from(&str)`: exactly `len` bytes, nothing for "".
    fn string(&mut self, s: &str) {
        if !s.is_empty() {
            self.strings += 1;
            self.bytes += s.len() as u64;
        }
    }

    /// serde_json gives serde no length for an array, so serde starts from
    /// `Vec::new()` and pushes: the first buffer holds 4 elements (Rust's
    /// minimum for elements up to 1 KiB), then it doubles.
    fn vec(&mut self, n: usize, elem_size: usize) {
        if n == 0 {
            return;
        }
        let mut cap = if elem_size <= 1024 { 4 } else { 1 };
        self.vecs += 1;
        self.bytes += (cap * elem_size) as u64;
        while cap < n {
            cap *= 2;
            self.growth += 1;
            self.bytes += (cap * elem_size) as u64;
        }
    }
}

/// `from_slice::<Order>`: every string is copied into its own `String`.
fn model_owned(o: &Order, m: &mut Model) {
    let (c, a) = (&o.customer, &o.customer.address);
    for s in [&c.name, &c.email, &a.street, &a.city, &a.country] {
        m.string(s);
    }
    m.string(&a.postal_code);
    m.string(&o.created_at);
    o.note.iter().for_each(|n| m.string(n));
    for item in &o.items {
        m.string(&item.sku);
        m.string(&item.name);
    }
    o.tags.iter().for_each(|t| m.string(t));
    m.vec(o.items.len(), size_of::<LineItem>());
    m.vec(o.tags.len(), size_of::<String>());
}

/// `from_slice::<OrderRef>`: strings point into the input unless the JSON
/// string had an escape; only the `Vec`s (and escaped strings) allocate.
fn model_borrowed(r: &OrderRef, m: &mut Model) {
    for s in r.strings() {
        if let Cow::Owned(s) = s {
            m.string(s);
        }
    }
    m.vec(r.items.len(), size_of::<orders::LineItemRef>());
    m.vec(r.tags.len(), size_of::<Cow<str>>());
}

/// `from_slice::<Value>`: every key is a `String`, every object a B-tree.
fn model_value(v: &Value, m: &mut Model) {
    match v {
        Value::String(s) => m.string(s),
        Value::Array(a) => {
            m.vec(a.len(), size_of::<Value>());
            a.iter().for_each(|x| model_value(x, m));
        }
        Value::Object(o) => {
            // up to 11 entries fit in one leaf node; our objects have ≤ 8
            assert!(o.len() <= 11, "model assumes one B-tree node per object");
            m.maps += u64::from(!o.is_empty());
            for (k, x) in o {
                m.string(k);
                model_value(x, m);
            }
        }
        _ => {}
    }
}
// ANCHOR_END: model

/// `to_vec` starts with 128 bytes and doubles: 1 alloc, then reallocs.
fn model_to_vec(len: usize) -> Model {
    let mut m = Model::default();
    let mut cap = 128;
    m.vecs = 1;
    m.bytes = cap as u64;
    while cap < len {
        cap *= 2;
        m.growth += 1;
        m.bytes += cap as u64;
    }
    m
}

// ANCHOR: escape
/// `&str` can only point into the input. An escaped JSON string (`\"`,
/// `\n`, `\u00e0`) has no such bytes: serde_json must unescape it into a
/// buffer, and a `&str` field then fails to decode.
#[derive(Debug, Deserialize)]
struct NoteStr<'a> {
    note: &'a str,
}

/// `Cow` borrows when it can and owns when it must.
#[derive(Debug, Deserialize)]
struct NoteCow<'a> {
    #[serde(borrow)]
    note: Cow<'a, str>,
}
// ANCHOR_END: escape

// ANCHOR: ascii
/// What `ensure_ascii` encoders (Python's `json.dumps` default, some Java
/// and JS libraries) send: every non-ASCII character as `\uXXXX`.
fn ascii_only(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    for ch in json.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            let mut units = [0u16; 2];
            for u in ch.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}
// ANCHOR_END: ascii

/// One measured operation: its allocations and its time.
#[derive(Debug, Clone, Serialize)]
struct Op {
    op: &'static str,
    /// A short label for charts.
    short: &'static str,
    allocs: u64,
    reallocs: u64,
    /// `allocs + reallocs`.
    calls: u64,
    bytes: u64,
    peak: u64,
    time: Summary,
    /// `time` divided by the number of orders.
    per_order: Summary,
    calls_per_order: f64,
    bytes_per_order: f64,
}

fn op(name: &'static str, a: AllocStats, time: &Summary, n: usize) -> Op {
    Op {
        op: name,
        short: match name {
            "to_vec" => "to_vec",
            "to_writer(&mut reused)" => "to_writer",
            "from_slice::<Order>" => "Order",
            "from_slice::<OrderRef>" => "OrderRef",
            _ => "Value",
        },
        allocs: a.allocs,
        reallocs: a.reallocs,
        calls: a.calls(),
        bytes: a.bytes,
        peak: a.peak,
        time: time.clone(),
        per_order: time.scale(1.0 / n as f64),
        calls_per_order: a.calls() as f64 / n as f64,
        bytes_per_order: a.bytes as f64 / n as f64,
    }
}

fn config() -> Config {
    Config::default()
        .samples(harness::pick(101, 21))
        .min_sample_time(Duration::from_micros(200))
}

/// Everything measured on one input (one order or a batch).
struct Measured {
    json_len: usize,
    to_vec: Op,
    to_writer: Op,
    owned: Op,
    borrowed: Op,
    value: Op,
    encode: Comparison,
    owned_vs_borrowed: Comparison,
    value_vs_owned: Comparison,
    model_to_vec: Model,
    model_owned: Model,
    model_borrowed: Model,
    model_value: Model,
    borrowed_strings: usize,
    owned_strings: usize,
}

/// Measures encode and decode of `orders` (one order: `T = Order`; a batch:
/// `T = Vec<Order>`, decoded as `Vec<OrderRef>`).
fn measure_all(batch: &[Order], single: bool) -> Measured {
    let n = batch.len();
    let json = if single {
        serde_json::to_vec(&batch[0]).unwrap()
    } else {
        serde_json::to_vec(batch).unwrap()
    };

    // ANCHOR: encode
    let a_to_vec = if single {
        allocations(|| serde_json::to_vec(&batch[0]).unwrap())
    } else {
        allocations(|| serde_json::to_vec(batch).unwrap())
    };
    // A buffer kept across calls: after the first call it is big enough.
    let mut reused: Vec<u8> = Vec::new();
    serde_json::to_writer(&mut reused, batch).unwrap();
    let a_to_writer = allocations(|| {
        reused.clear();
        if single {
            serde_json::to_writer(&mut reused, &batch[0]).unwrap();
        } else {
            serde_json::to_writer(&mut reused, batch).unwrap();
        }
    });
    // ANCHOR_END: encode

    // ANCHOR: decode
    let (a_owned, a_borrowed, a_value);
    if single {
        a_owned = allocations(|| serde_json::from_slice::<Order>(&json).unwrap());
        a_borrowed = allocations(|| serde_json::from_slice::<OrderRef>(&json).unwrap());
    } else {
        a_owned = allocations(|| serde_json::from_slice::<Vec<Order>>(&json).unwrap());
        a_borrowed = allocations(|| serde_json::from_slice::<Vec<OrderRef>>(&json).unwrap());
    }
    a_value = allocations(|| serde_json::from_slice::<Value>(&json).unwrap());
    // ANCHOR_END: decode

    // The model, from the decoded data.
    let refs: Vec<OrderRef> = if single {
        vec![serde_json::from_slice(&json).unwrap()]
    } else {
        serde_json::from_slice(&json).unwrap()
    };
    let value: Value = serde_json::from_slice(&json).unwrap();
    let (mut m_owned, mut m_borrowed, mut m_value) = Default::default();
    for (o, r) in batch.iter().zip(&refs) {
        model_owned(o, &mut m_owned);
        model_borrowed(r, &mut m_borrowed);
    }
    if !single {
        m_owned.vec(n, size_of::<Order>());
        m_borrowed.vec(n, size_of::<OrderRef>());
    }
    model_value(&value, &mut m_value);
    let (borrowed_strings, owned_strings) = refs
        .iter()
        .map(OrderRef::borrow_counts)
        .fold((0, 0), |(b, o), (b2, o2)| (b + b2, o + o2));

    // Time: each pair measured interleaved.
    let mut buf: Vec<u8> = Vec::with_capacity(json.len());
    let cfg = config();
    let (encode, owned_vs_borrowed, value_vs_owned) = if single {
        let o = &batch[0];
        (
            compare_with(
                cfg.clone(),
                || serde_json::to_vec(o).unwrap(),
                || {
                    buf.clear();
                    serde_json::to_writer(&mut buf, o).unwrap();
                    buf.len()
                },
            ),
            compare_with(
                cfg.clone(),
                || serde_json::from_slice::<Order>(&json).unwrap(),
                || serde_json::from_slice::<OrderRef>(&json).unwrap(),
            ),
            compare_with(
                cfg,
                || serde_json::from_slice::<Value>(&json).unwrap(),
                || serde_json::from_slice::<Order>(&json).unwrap(),
            ),
        )
    } else {
        (
            compare_with(
                cfg.clone(),
                || serde_json::to_vec(batch).unwrap(),
                || {
                    buf.clear();
                    serde_json::to_writer(&mut buf, batch).unwrap();
                    buf.len()
                },
            ),
            compare_with(
                cfg.clone(),
                || serde_json::from_slice::<Vec<Order>>(&json).unwrap(),
                || serde_json::from_slice::<Vec<OrderRef>>(&json).unwrap(),
            ),
            compare_with(
                cfg,
                || serde_json::from_slice::<Value>(&json).unwrap(),
                || serde_json::from_slice::<Vec<Order>>(&json).unwrap(),
            ),
        )
    };

    Measured {
        json_len: json.len(),
        to_vec: op("to_vec", a_to_vec, &encode.a, n),
        to_writer: op("to_writer(&mut reused)", a_to_writer, &encode.b, n),
        owned: op("from_slice::<Order>", a_owned, &owned_vs_borrowed.a, n),
        borrowed: op(
            "from_slice::<OrderRef>",
            a_borrowed,
            &owned_vs_borrowed.b,
            n,
        ),
        value: op("from_slice::<Value>", a_value, &value_vs_owned.a, n),
        encode,
        owned_vs_borrowed,
        value_vs_owned,
        model_to_vec: model_to_vec(json.len()),
        model_owned: m_owned,
        model_borrowed: m_borrowed,
        model_value: m_value,
        borrowed_strings,
        owned_strings,
    }
}

fn record(results: &mut Results, key: &str, m: &Measured, n: usize) {
    results.set(&format!("{key}.orders"), n);
    results.set(&format!("{key}.json_bytes"), m.json_len);
    results.set(&format!("{key}.json_bytes_per_order"), m.json_len / n);
    for (name, o) in [
        ("to_vec", &m.to_vec),
        ("to_writer", &m.to_writer),
        ("owned", &m.owned),
        ("borrowed", &m.borrowed),
        ("value", &m.value),
    ] {
        results.set(&format!("{key}.{name}"), o);
    }
    results.set(
        &format!("{key}.rows"),
        [&m.to_vec, &m.to_writer, &m.owned, &m.borrowed, &m.value],
    );
    results.set(&format!("{key}.ratio.to_vec_vs_writer"), m.encode.ratio);
    results.set(
        &format!("{key}.ratio.owned_vs_borrowed"),
        m.owned_vs_borrowed.ratio,
    );
    results.set(
        &format!("{key}.ratio.value_vs_owned"),
        m.value_vs_owned.ratio,
    );
    results.set(
        &format!("{key}.ratio.owned_vs_borrowed_calls"),
        m.owned.calls as f64 / m.borrowed.calls as f64,
    );
    results.set(
        &format!("{key}.ratio.value_vs_owned_calls"),
        m.value.calls as f64 / m.owned.calls as f64,
    );
    results.set(
        &format!("{key}.ratio.value_vs_owned_bytes"),
        m.value.bytes as f64 / m.owned.bytes as f64,
    );
    results.set(&format!("{key}.model.to_vec"), m.model_to_vec);
    results.set(&format!("{key}.model.owned"), m.model_owned);
    results.set(&format!("{key}.model.borrowed"), m.model_borrowed);
    results.set(&format!("{key}.model.value"), m.model_value);
    results.set(&format!("{key}.model.owned.calls"), m.model_owned.calls());
    results.set(
        &format!("{key}.model.borrowed.calls"),
        m.model_borrowed.calls(),
    );
    results.set(&format!("{key}.model.value.calls"), m.model_value.calls());
    results.set(&format!("{key}.model.to_vec.calls"), m.model_to_vec.calls());
    results.set(
        &format!("{key}.model.scratch_calls"),
        m.owned.calls as i64 - m.model_owned.calls() as i64,
    );
    results.set(&format!("{key}.strings.borrowed"), m.borrowed_strings);
    results.set(&format!("{key}.strings.owned"), m.owned_strings);
    results.set(
        &format!("{key}.strings.total"),
        m.borrowed_strings + m.owned_strings,
    );
}

fn print_table(title: &str, m: &Measured, n: usize) {
    println!("{title}: {} of JSON", bytes(m.json_len as f64));
    let mut t = Table::new([
        "operation",
        "allocs",
        "reallocs",
        "bytes asked",
        "model (calls)",
        "median time",
        "per order",
    ]);
    let models = [
        Some(m.model_to_vec),
        None,
        Some(m.model_owned),
        Some(m.model_borrowed),
        Some(m.model_value),
    ];
    for (o, model) in [&m.to_vec, &m.to_writer, &m.owned, &m.borrowed, &m.value]
        .into_iter()
        .zip(models)
    {
        t.row([
            o.op.to_string(),
            o.allocs.to_string(),
            o.reallocs.to_string(),
            bytes(o.bytes as f64),
            model.map_or("0".into(), |x| x.calls().to_string()),
            duration(o.time.median),
            duration(o.time.median / n as f64),
        ]);
    }
    println!("{t}");
}

/// Measures decoding a variant of the sample order (escaped note, ASCII-only
/// JSON): allocation calls and how many strings stayed borrowed.
fn decode_variant(json: &[u8]) -> (AllocStats, AllocStats, usize, usize) {
    let owned = allocations(|| serde_json::from_slice::<Order>(json).unwrap());
    let borrowed = allocations(|| serde_json::from_slice::<OrderRef>(json).unwrap());
    let r: OrderRef = serde_json::from_slice(json).unwrap();
    let (b, o) = r.borrow_counts();
    (owned, borrowed, b, o)
}

fn main() {
    let mut results = Results::new();
    let sample = orders::sample_order();
    let batch = orders::orders(SEED, BATCH);

    let one = measure_all(std::slice::from_ref(&sample), true);
    let many = measure_all(&batch, false);
    // The model must account for every allocation: exactly for the sample
    // (no escapes); in the batch, notes with quotes also make serde_json
    // grow its scratch buffer, which the model does not count.
    assert_eq!(one.owned.calls, one.model_owned.calls(), "owned model");
    assert_eq!(one.owned.bytes, one.model_owned.bytes, "owned model bytes");
    assert_eq!(
        one.borrowed.calls,
        one.model_borrowed.calls(),
        "borrowed model"
    );
    assert_eq!(one.value.calls, one.model_value.calls(), "value model");
    for m in [&one, &many] {
        assert_eq!(m.to_vec.calls, m.model_to_vec.calls(), "to_vec model");
        for (measured, model) in [
            (&m.owned, &m.model_owned),
            (&m.borrowed, &m.model_borrowed),
            (&m.value, &m.model_value),
        ] {
            let extra = measured.calls as i64 - model.calls() as i64;
            assert!(
                (0..=4).contains(&extra),
                "{}: measured {} calls, model {}",
                measured.op,
                measured.calls,
                model.calls()
            );
        }
    }

    // ANCHOR: counting_cost
    // Counting is off while timing (harness::alloc counts only inside
    // `measure`). What it would add: the allocation-heaviest decode, the
    // batch into `Value`, timed with the counters live and without,
    // interleaved.
    let json = serde_json::to_vec(&batch).unwrap();
    let counted = compare_with(
        config(),
        || counting(|| serde_json::from_slice::<Value>(&json).unwrap()),
        || serde_json::from_slice::<Value>(&json).unwrap(),
    );
    // ANCHOR_END: counting_cost
    results.set("counting.on", &counted.a);
    results.set("counting.off", &counted.b);
    results.set("counting.ratio", counted.ratio);
    println!(
        "Value decode of the batch with counting on / off: {:.3}",
        counted.ratio.value
    );

    results.set("params.batch", BATCH);
    results.set("params.seed", SEED);
    results.set("sample.items", sample.items.len());
    results.set("sample.tags", sample.tags.len());
    record(&mut results, "one", &one, 1);
    record(&mut results, "batch", &many, BATCH);
    results.set("sizes.order", size_of::<Order>());
    results.set("sizes.order_ref", size_of::<OrderRef>());
    results.set("sizes.line_item", size_of::<LineItem>());
    results.set("sizes.string", size_of::<String>());
    results.set("sizes.cow", size_of::<Cow<str>>());
    results.set("sizes.value", size_of::<Value>());
    // Read, not assumed: the capacity of the buffer serde_json's to_vec starts
    // from (a one-byte document does not grow it), and what Rust's Vec gives its
    // first buffer for the element types the orders hold.
    results.set(
        "consts.to_vec_initial",
        serde_json::to_vec(&0u8).unwrap().capacity(),
    );
    let first_cap_items = first_capacity(|| sample.items[0].clone());
    let first_cap_strings = first_capacity(String::new);
    assert_eq!(
        first_cap_items, first_cap_strings,
        "the model assumes one first capacity"
    );
    results.set("consts.vec_first_cap", first_cap_items);
    // Bytes of one B-tree node of a Map: what Value asks beyond the model.
    results.set(
        "sizes.map_node",
        (one.value.bytes - one.model_value.bytes) / one.model_value.maps,
    );
    // The same per-map surplus in the batch: one leaf node per object, as the
    // model says, whatever the object.
    results.set(
        "sizes.map_node_batch",
        (many.value.bytes - many.model_value.bytes) / many.model_value.maps,
    );
    // What the tree nodes are of Value's bytes for the sample order.
    results.set(
        "one.value_node_share",
        (one.value.bytes - one.model_value.bytes) as f64 / one.value.bytes as f64,
    );
    // What borrowing the strings saves of the owned decode's time.
    results.set(
        "batch.ratio.borrow_saved_share",
        1.0 - 1.0 / many.owned_vs_borrowed.ratio.value,
    );
    results.set("one.objects", one.model_value.maps);
    results.set("batch.objects", many.model_value.maps);

    print_table("One order (orders::sample_order)", &one, 1);
    print_table(
        &format!("A batch of {BATCH} orders (seed {SEED})"),
        &many,
        BATCH,
    );

    println!("Where the allocations of from_slice::<Order> come from (model vs measured):");
    let mut t = Table::new(["source", "one order", &format!("{BATCH} orders")]);
    let (a, b) = (one.model_owned, many.model_owned);
    t.row([
        "String fields".to_string(),
        a.strings.to_string(),
        b.strings.to_string(),
    ]);
    t.row([
        "Vec first buffers".to_string(),
        a.vecs.to_string(),
        b.vecs.to_string(),
    ]);
    t.row([
        "Vec growth (realloc)".to_string(),
        a.growth.to_string(),
        b.growth.to_string(),
    ]);
    t.row([
        "scratch buffer (escapes)".to_string(),
        (one.owned.calls - a.calls()).to_string(),
        (many.owned.calls - b.calls()).to_string(),
    ]);
    t.row([
        "total measured".to_string(),
        one.owned.calls.to_string(),
        many.owned.calls.to_string(),
    ]);
    println!("{t}");
    results.set(
        "model_rows",
        [
            serde_json::json!({"vi": "String", "en": "String",
                "one": a.strings, "batch": b.strings}),
            serde_json::json!({"vi": "Vec (bộ đệm đầu)", "en": "Vec (first buffer)",
                "one": a.vecs, "batch": b.vecs}),
            serde_json::json!({"vi": "Vec lớn lên (realloc)", "en": "Vec growth (realloc)",
                "one": a.growth, "batch": b.growth}),
            serde_json::json!({"vi": "bộ đệm scratch (escape)", "en": "scratch buffer (escapes)",
                "one": one.owned.calls - a.calls(), "batch": many.owned.calls - b.calls()}),
        ],
    );

    // Escapes: the sample note, then the same order with quotes in the note.
    let clean_json = serde_json::to_vec(&sample).unwrap();
    let mut quoted = sample.clone();
    quoted.note = Some("Khách dặn: \"gọi trước 15 phút\"".into());
    let quoted_json = serde_json::to_vec(&quoted).unwrap();
    let (c_owned, c_borrowed, c_b, c_o) = decode_variant(&clean_json);
    let (q_owned, q_borrowed, q_b, q_o) = decode_variant(&quoted_json);

    // ANCHOR: escape_demo
    let note_str = serde_json::from_slice::<NoteStr>(&quoted_json);
    let note_cow: NoteCow = serde_json::from_slice(&quoted_json).unwrap();
    let clean_cow: NoteCow = serde_json::from_slice(&clean_json).unwrap();
    // ANCHOR_END: escape_demo
    let clean_str: NoteStr = serde_json::from_slice(&clean_json).unwrap();
    assert_eq!(Some(clean_str.note), sample.note.as_deref());
    let err = note_str.expect_err("an escaped string cannot be a &str");
    let note_field = {
        let text = String::from_utf8(quoted_json.clone()).unwrap();
        let start = text.find("\"note\":").unwrap();
        let end = start + text[start..].find("\",").unwrap() + 1;
        text[start..end].to_string()
    };
    let kind = |c: &Cow<str>| match c {
        Cow::Borrowed(_) => "Borrowed",
        Cow::Owned(_) => "Owned",
    };

    // The same order as an ASCII-only encoder would send it.
    let ascii_json = ascii_only(std::str::from_utf8(&clean_json).unwrap()).into_bytes();
    let (x_owned, x_borrowed, x_b, x_o) = decode_variant(&ascii_json);
    let ascii_time = compare_with(
        config(),
        || serde_json::from_slice::<OrderRef>(&ascii_json).unwrap(),
        || serde_json::from_slice::<OrderRef>(&clean_json).unwrap(),
    );

    println!("Escapes and borrowing (one order, decoded as OrderRef):");
    let mut t = Table::new([
        "input",
        "JSON bytes",
        "borrowed strings",
        "owned strings",
        "OrderRef allocs",
        "Order allocs",
    ]);
    for (name, len, b, o, br, ow) in [
        (
            "sample order",
            clean_json.len(),
            c_b,
            c_o,
            c_borrowed,
            c_owned,
        ),
        (
            "note with \\\"quotes\\\"",
            quoted_json.len(),
            q_b,
            q_o,
            q_borrowed,
            q_owned,
        ),
        (
            "ASCII-only (\\uXXXX)",
            ascii_json.len(),
            x_b,
            x_o,
            x_borrowed,
            x_owned,
        ),
    ] {
        t.row([
            name.to_string(),
            len.to_string(),
            b.to_string(),
            o.to_string(),
            br.calls().to_string(),
            ow.calls().to_string(),
        ]);
    }
    println!("{t}");
    println!("  {note_field}");
    println!(
        "  as Cow<str>: {} (sample note: {})",
        kind(&note_cow.note),
        kind(&clean_cow.note)
    );
    println!("  as &str:     error: {err}");
    println!(
        "  ASCII-only JSON: OrderRef decode {} vs {} for the UTF-8 original",
        duration(ascii_time.a.median),
        duration(ascii_time.b.median)
    );

    results.set("escape.note_field", &note_field);
    results.set("escape.cow_kind", kind(&note_cow.note));
    results.set("escape.clean_cow_kind", kind(&clean_cow.note));
    results.set("escape.str_error", err.to_string());
    for (key, len, b, o, br, ow) in [
        (
            "escape.clean",
            clean_json.len(),
            c_b,
            c_o,
            c_borrowed,
            c_owned,
        ),
        (
            "escape.quoted",
            quoted_json.len(),
            q_b,
            q_o,
            q_borrowed,
            q_owned,
        ),
        (
            "escape.ascii",
            ascii_json.len(),
            x_b,
            x_o,
            x_borrowed,
            x_owned,
        ),
    ] {
        results.set(&format!("{key}.json_bytes"), len);
        results.set(&format!("{key}.borrowed_strings"), b);
        results.set(&format!("{key}.owned_strings"), o);
        results.set(&format!("{key}.borrowed_calls"), br.calls());
        results.set(&format!("{key}.borrowed_allocs"), br.allocs);
        results.set(&format!("{key}.borrowed_reallocs"), br.reallocs);
        results.set(&format!("{key}.owned_allocs"), ow.allocs);
        results.set(&format!("{key}.owned_reallocs"), ow.reallocs);
        results.set(&format!("{key}.borrowed_bytes"), br.bytes);
        results.set(&format!("{key}.owned_calls"), ow.calls());
        results.set(&format!("{key}.owned_bytes"), ow.bytes);
    }
    results.set(
        "escape.quoted_extra_borrowed_calls",
        q_borrowed.calls() as i64 - c_borrowed.calls() as i64,
    );
    results.set(
        "escape.quoted_extra_owned_calls",
        q_owned.calls() as i64 - c_owned.calls() as i64,
    );
    results.set(
        "escape.ascii_extra_bytes",
        ascii_json.len() - clean_json.len(),
    );
    let row =
        |vi: &str, en: &str, len: usize, b: usize, o: usize, br: AllocStats, ow: AllocStats| {
            serde_json::json!({
                "vi": vi, "en": en, "json_bytes": len,
                "borrowed_strings": b, "owned_strings": o,
                "borrowed_calls": br.calls(), "owned_calls": ow.calls(),
            })
        };
    results.set(
        "escape.rows",
        [
            row(
                "đơn mẫu (UTF-8)",
                "sample order (UTF-8)",
                clean_json.len(),
                c_b,
                c_o,
                c_borrowed,
                c_owned,
            ),
            row(
                "ghi chú có \\\"ngoặc kép\\\"",
                "note with \\\"quotes\\\"",
                quoted_json.len(),
                q_b,
                q_o,
                q_borrowed,
                q_owned,
            ),
            row(
                "chỉ ASCII (\\uXXXX)",
                "ASCII-only (\\uXXXX)",
                ascii_json.len(),
                x_b,
                x_o,
                x_borrowed,
                x_owned,
            ),
        ],
    );
    results.set("escape.ascii_time", &ascii_time);
    results.set("escape.ascii_time_ratio", ascii_time.ratio);
    results.write();
}

/// The capacity `Vec` gives its first buffer when one element of `make()` is pushed.
fn first_capacity<T>(make: impl Fn() -> T) -> usize {
    let mut v = Vec::new();
    v.push(make());
    v.capacity()
}

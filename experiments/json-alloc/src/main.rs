//! What serde_json allocates: allocation calls and bytes (counted by the
//! harness's allocator) and time for encoding an order (`to_vec`, `to_writer`
//! into a reused `Vec`) and decoding it (owned `Order`, borrowed `OrderRef`,
//! `serde_json::Value`), for one order and a batch; a model that predicts
//! every allocation from the shape of the data; and what escaped strings do
//! to borrowing.

use harness::alloc::{AllocStats, CountingAlloc, counting, measure};
use harness::{Comparison, Config, Results, Summary, compare_with};
use orders::{Order, OrderRef};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::time::Duration;

mod escape;
mod model;
mod tables;

use model::{Model, model_borrowed, model_owned, model_to_vec, model_value};

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

/// (name, short label) of the five operations, in the order of the tables.
const OPS: [(&str, &str); 5] = [
    ("to_vec", "to_vec"),
    ("to_writer(&mut reused)", "to_writer"),
    ("from_slice::<Order>", "Order"),
    ("from_slice::<OrderRef>", "OrderRef"),
    ("from_slice::<Value>", "Value"),
];

fn op(i: usize, a: AllocStats, time: &Summary, n: usize) -> Op {
    Op {
        op: OPS[i].0,
        short: OPS[i].1,
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

/// What each operation asks of the allocator, counted once each: to_vec, to_writer into a
/// reused buffer, then the owned, borrowed and `Value` decodes.
fn count(batch: &[Order], single: bool, json: &[u8]) -> [AllocStats; 5] {
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
        a_owned = allocations(|| serde_json::from_slice::<Order>(json).unwrap());
        a_borrowed = allocations(|| serde_json::from_slice::<OrderRef>(json).unwrap());
    } else {
        a_owned = allocations(|| serde_json::from_slice::<Vec<Order>>(json).unwrap());
        a_borrowed = allocations(|| serde_json::from_slice::<Vec<OrderRef>>(json).unwrap());
    }
    a_value = allocations(|| serde_json::from_slice::<Value>(json).unwrap());
    // ANCHOR_END: decode
    [a_to_vec, a_to_writer, a_owned, a_borrowed, a_value]
}

/// The model's predictions from the decoded data: owned, borrowed, `Value`; and how many
/// strings the borrowed decode borrowed and owned.
fn predicted(batch: &[Order], single: bool, json: &[u8]) -> ([Model; 3], usize, usize) {
    let refs: Vec<OrderRef> = if single {
        vec![serde_json::from_slice(json).unwrap()]
    } else {
        serde_json::from_slice(json).unwrap()
    };
    let value: Value = serde_json::from_slice(json).unwrap();
    let (mut owned, mut borrowed, mut m_value) = Default::default();
    for (o, r) in batch.iter().zip(&refs) {
        model_owned(o, &mut owned);
        model_borrowed(r, &mut borrowed);
    }
    if !single {
        owned.vec(batch.len(), size_of::<Order>());
        borrowed.vec(batch.len(), size_of::<OrderRef>());
    }
    model_value(&value, &mut m_value);
    let (b, o) = refs
        .iter()
        .map(OrderRef::borrow_counts)
        .fold((0, 0), |(b, o), (b2, o2)| (b + b2, o + o2));
    ([owned, borrowed, m_value], b, o)
}

/// The three interleaved pairs on one order: to_vec against to_writer into a reused buffer,
/// owned against borrowed, `Value` against owned.
fn time_one(o: &Order, json: &[u8]) -> [Comparison; 3] {
    let mut buf: Vec<u8> = Vec::with_capacity(json.len());
    let cfg = config();
    [
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
            || serde_json::from_slice::<Order>(json).unwrap(),
            || serde_json::from_slice::<OrderRef>(json).unwrap(),
        ),
        compare_with(
            cfg,
            || serde_json::from_slice::<Value>(json).unwrap(),
            || serde_json::from_slice::<Order>(json).unwrap(),
        ),
    ]
}

/// The same three pairs on the batch.
fn time_batch(batch: &[Order], json: &[u8]) -> [Comparison; 3] {
    let mut buf: Vec<u8> = Vec::with_capacity(json.len());
    let cfg = config();
    [
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
            || serde_json::from_slice::<Vec<Order>>(json).unwrap(),
            || serde_json::from_slice::<Vec<OrderRef>>(json).unwrap(),
        ),
        compare_with(
            cfg,
            || serde_json::from_slice::<Value>(json).unwrap(),
            || serde_json::from_slice::<Vec<Order>>(json).unwrap(),
        ),
    ]
}

/// Everything measured on one input (one order or a batch).
struct Measured {
    json_len: usize,
    /// to_vec, to_writer, owned, borrowed, Value.
    ops: [Op; 5],
    /// The owned decode timed beside `Value` (the other side of that pair).
    owned_beside_value: Summary,
    model_to_vec: Model,
    /// Owned, borrowed, `Value`.
    models: [Model; 3],
    borrowed_strings: usize,
    owned_strings: usize,
}

/// Measures encode and decode of `batch` (one order: `single`, decoded as `Order`; a batch:
/// decoded as `Vec<Order>`).
fn measure_all(batch: &[Order], single: bool) -> Measured {
    let n = batch.len();
    let json = if single {
        serde_json::to_vec(&batch[0]).unwrap()
    } else {
        serde_json::to_vec(batch).unwrap()
    };
    let counted = count(batch, single, &json);
    let (models, borrowed_strings, owned_strings) = predicted(batch, single, &json);
    let [encode, owned_vs_borrowed, value_vs_owned] = if single {
        time_one(&batch[0], &json)
    } else {
        time_batch(batch, &json)
    };
    let times = [
        &encode.a,
        &encode.b,
        &owned_vs_borrowed.a,
        &owned_vs_borrowed.b,
        &value_vs_owned.a,
    ];
    Measured {
        json_len: json.len(),
        ops: std::array::from_fn(|i| op(i, counted[i], times[i], n)),
        owned_beside_value: value_vs_owned.b.clone(),
        model_to_vec: model_to_vec(json.len()),
        models,
        borrowed_strings,
        owned_strings,
    }
}

/// The model must account for every allocation: exactly for the sample (no escapes); in the
/// batch, notes with quotes also make serde_json grow its scratch buffer, which the model
/// does not count.
fn check_model(one: &Measured, many: &Measured) {
    let [_, _, owned, borrowed, value] = &one.ops;
    assert_eq!(owned.calls, one.models[0].calls(), "owned model");
    assert_eq!(owned.bytes, one.models[0].bytes, "owned model bytes");
    assert_eq!(borrowed.calls, one.models[1].calls(), "borrowed model");
    assert_eq!(value.calls, one.models[2].calls(), "value model");
    for m in [one, many] {
        assert_eq!(m.ops[0].calls, m.model_to_vec.calls(), "to_vec model");
        for (measured, model) in m.ops[2..].iter().zip(&m.models) {
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
}

/// Records one input's operations, models and the ratios the article reads, declared from
/// their parts, under `key` (`one` or `batch`).
fn record(results: &mut Results, key: &str, m: &Measured, n: usize) {
    let k = |path: &str| format!("{key}.{path}");
    results.input(&k("orders"), n);
    results.set(&k("json_bytes"), m.json_len);
    for (name, o) in ["to_vec", "to_writer", "owned", "borrowed", "value"]
        .iter()
        .zip(&m.ops)
    {
        results.set(&k(name), o);
    }
    results.set(&k("rows"), &m.ops);
    results.set(&k("owned_beside_value.time"), &m.owned_beside_value);
    results.ratio(
        &k("ratio.to_vec_vs_writer"),
        &k("to_vec.time"),
        &k("to_writer.time"),
    );
    results.ratio(
        &k("ratio.owned_vs_borrowed"),
        &k("owned.time"),
        &k("borrowed.time"),
    );
    results.ratio(
        &k("ratio.value_vs_owned"),
        &k("value.time"),
        &k("owned_beside_value.time"),
    );
    // What not allocating and copying the strings saves of the owned decode's time.
    results.difference(&k("borrow_saved"), &k("owned.time"), &k("borrowed.time"));
    results.share(
        &k("ratio.borrow_saved_share"),
        &k("borrow_saved"),
        &k("owned.time"),
    );
    results.ratio(
        &k("ratio.owned_vs_borrowed_calls"),
        &k("owned.calls"),
        &k("borrowed.calls"),
    );
    results.ratio(
        &k("ratio.value_vs_owned_calls"),
        &k("value.calls"),
        &k("owned.calls"),
    );
    results.ratio(
        &k("ratio.value_vs_owned_bytes"),
        &k("value.bytes"),
        &k("owned.bytes"),
    );
    let names = ["owned", "borrowed", "value"];
    results.set(&k("model.to_vec"), m.model_to_vec);
    results.set(&k("model.to_vec.calls"), m.model_to_vec.calls());
    for (name, model) in names.iter().zip(&m.models) {
        results.set(&k(&format!("model.{name}")), model);
        results.set(&k(&format!("model.{name}.calls")), model.calls());
    }
    // What the model of the owned decode misses: serde_json's scratch buffer for escapes.
    results.difference(
        &k("model.scratch_calls"),
        &k("owned.calls"),
        &k("model.owned.calls"),
    );
    results.difference(
        &k("model.scratch_bytes"),
        &k("owned.bytes"),
        &k("model.owned.bytes"),
    );
    results.set(&k("strings.borrowed"), m.borrowed_strings);
    results.set(&k("strings.owned"), m.owned_strings);
    results.set(&k("strings.total"), m.borrowed_strings + m.owned_strings);
}

/// Counting is off while timing (harness::alloc counts only inside `measure`). What it
/// would add: the allocation-heaviest decode, the batch into `Value`, timed with the
/// counters live and without, interleaved.
fn counting_cost(results: &mut Results, batch: &[Order]) {
    let json = serde_json::to_vec(batch).unwrap();
    // ANCHOR: counting_cost
    let counted = compare_with(
        config(),
        || counting(|| serde_json::from_slice::<Value>(&json).unwrap()),
        || serde_json::from_slice::<Value>(&json).unwrap(),
    );
    // ANCHOR_END: counting_cost
    results.set("counting", &counted);
}

/// Sizes the model relies on, read rather than assumed.
fn record_sizes(results: &mut Results, sample: &Order, one: &Measured, many: &Measured) {
    results.set("sizes.order", size_of::<Order>());
    results.set("sizes.order_ref", size_of::<OrderRef>());
    results.set("sizes.line_item", size_of::<orders::LineItem>());
    results.set("sizes.string", size_of::<String>());
    results.set("sizes.cow", size_of::<Cow<str>>());
    results.set("sizes.value", size_of::<Value>());
    // The capacity of the buffer serde_json's to_vec starts from (a one-byte document does
    // not grow it), and what Rust's Vec gives its first buffer for the orders' elements.
    let to_vec_initial = serde_json::to_vec(&0u8).unwrap().capacity();
    results.set("consts.to_vec_initial", to_vec_initial);
    let first_cap_items = first_capacity(|| sample.items[0].clone());
    assert_eq!(
        first_cap_items,
        first_capacity(String::new),
        "the model assumes one first capacity"
    );
    results.set("consts.vec_first_cap", first_cap_items);
    // Bytes of one B-tree node of a Map, what Value asks beyond the model: an exact
    // quotient of two counts (one node per object), in the sample and in the batch.
    let node = |m: &Measured| (m.ops[4].bytes - m.models[2].bytes) / m.models[2].maps;
    results.set("sizes.map_node", node(one));
    results.set("sizes.map_node_batch", node(many));
    // What the tree nodes are of Value's bytes for the sample order.
    results.difference(
        "one.value_node_bytes",
        "one.value.bytes",
        "one.model.value.bytes",
    );
    results.share(
        "one.value_node_share",
        "one.value_node_bytes",
        "one.value.bytes",
    );
    results.set("one.objects", one.models[2].maps);
    results.set("batch.objects", many.models[2].maps);
}

/// Where the allocations of the owned decode come from, by the model, for the article's
/// table (labels in both languages).
fn record_model_rows(results: &mut Results, one: &Measured, many: &Measured) {
    let (a, b) = (one.models[0], many.models[0]);
    let scratch = |m: &Measured| m.ops[2].calls - m.models[0].calls();
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
                "one": scratch(one), "batch": scratch(many)}),
        ],
    );
}

/// The capacity `Vec` gives its first buffer when one element of `make()` is pushed.
#[allow(clippy::vec_init_then_push)] // `vec![x]` allocates exactly one: the push is the point
fn first_capacity<T>(make: impl Fn() -> T) -> usize {
    let mut v = Vec::new();
    v.push(make());
    v.capacity()
}

fn main() {
    let mut results = Results::new();
    let sample = orders::sample_order();
    let batch = orders::orders(SEED, BATCH);
    let one = measure_all(std::slice::from_ref(&sample), true);
    let many = measure_all(&batch, false);
    check_model(&one, &many);
    counting_cost(&mut results, &batch);
    results.input("params.batch", BATCH);
    results.input("params.seed", SEED);
    results.input("sample.items", sample.items.len());
    results.input("sample.tags", sample.tags.len());
    record(&mut results, "one", &one, 1);
    record(&mut results, "batch", &many, BATCH);
    record_sizes(&mut results, &sample, &one, &many);
    record_model_rows(&mut results, &one, &many);
    escape::measure(&mut results, &sample, config());
    tables::declare(&mut results);
    results.write();
}
